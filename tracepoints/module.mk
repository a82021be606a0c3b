# SPDX-License-Identifier: GPL-2.0-or-later
# LTTng-UST providers (dgrdma, dgrdma_fpga), libdgrtp.a, dgrdma-capture and their tests.
# Variables for other parts: tracepoints/tp-vars.mk.

include tracepoints/tp-vars.mk

CFLAGS_tracepoints += $(TP_CFLAGS)
LIBRARIES += $(LIBDGRTP_A)

$(LIBDGRTP_A): $(TP_HOST_OBJS) $(TP_FPGA_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

.PHONY: tracepoints
tracepoints: $(LIBDGRTP_A) $(TP_HOST_PIC_OBJS) $(TP_FPGA_PIC_OBJS)

# Test helper: fires every event with fixed values, optionally sends UDP to 127.0.0.1.
TP_FIRE := $(BUILD)/test/tracepoints/tp-fire
TP_FIRE_NOTRACE := $(BUILD)/test/tracepoints/tp-fire-notrace
CFLAGS_test += $(TP_CFLAGS)
$(TP_FIRE): $(call objs,test/tracepoints/tp_fire.c) $(LIBDGRTP_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(TP_LIBS)

# The same compiled with -DDGR_NO_TRACE: links without lttng-ust.
$(TP_FIRE_NOTRACE): test/tracepoints/tp_fire.c tracepoints/dgrdma-tp.h tracepoints/dgrdma-fpga-tp.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itracepoints -DDGR_NO_TRACE -o $@ $< $(ALL_LDFLAGS)

tracepoints: $(TP_FIRE) $(TP_FIRE_NOTRACE)
CHECK_DEPS += $(TP_FIRE) $(TP_FIRE_NOTRACE)

# dgrdma-clocks: the back-to-back clock pair dgrdma-capture records in run.json.
PROGRAMS += $(BUILD)/bin/dgrdma-clocks
# Text and JSON through the tools' print layer (stack/cli/); stack/module.mk is read after
# this file.
$(BUILD)/bin/dgrdma-clocks: $(call objs,tracepoints/dgrdma-clocks.c) $(LIBDGRCLI_A) \
		$(BUILD)/lib/libdgrdma.a
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^
# its bash completion, from its option table (stack/cli/module.mk)
all: $(BUILD)/completion/dgrdma-clocks

# dgrdma-runinfo: run.json's one writer (analysis/input/run_writer.c), which dgrdma-capture
# calls; analysis/module.mk (RUN_INFO_SRCS) is read before this file.
PROGRAMS += $(BUILD)/bin/dgrdma-runinfo
$(call objs,tracepoints/dgrdma-runinfo.c): CFLAGS_tracepoints += -Ianalysis/input \
	$(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null)
$(BUILD)/bin/dgrdma-runinfo: $(call objs,tracepoints/dgrdma-runinfo.c $(RUN_INFO_SRCS)) \
		$(LIBDGRCLI_A) $(BUILD)/lib/libdgrdma.a
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null) -lm
# its bash completion, from its option table (stack/cli/module.mk), installed on its own
all: $(BUILD)/completion/dgrdma-runinfo
INSTALL_TARGETS += install-runinfo-completion
INSTALLED_FILES += $(COMPLETIONDIR)/dgrdma-runinfo
.PHONY: install-runinfo-completion
install-runinfo-completion: $(BUILD)/completion/dgrdma-runinfo
	install -d $(DESTDIR)$(COMPLETIONDIR)
	install -m 0644 $(BUILD)/completion/dgrdma-runinfo $(DESTDIR)$(COMPLETIONDIR)/

# dgrdma-capture is a bash script; it finds dgrdma-clocks and dgrdma-runinfo beside itself.
PROGRAMS += $(BUILD)/bin/dgrdma-capture
$(BUILD)/bin/dgrdma-capture: tracepoints/dgrdma-capture $(VERSION_H)
	$(install_script)
# its option table is served by dgrdma-opts (stack/module.mk: DGRDMA_OPTS), from which come its
# --help, --list-options, man page's OPTIONS and bash completion
all: $(BUILD)/completion/dgrdma-capture
$(BUILD)/completion/dgrdma-capture: $(BUILD)/bin/dgrdma-opts

tracepoints: $(BUILD)/bin/dgrdma-clocks $(BUILD)/bin/dgrdma-runinfo $(BUILD)/bin/dgrdma-capture

CHECK_SUITES += test/tracepoints/test_tp_events.sh test/tracepoints/test_capture.sh \
	test/tracepoints/test_capture_stack.sh test/tracepoints/test_capture_kernel.sh \
	test/tracepoints/test_capture_ring.sh test/tracepoints/test_flight_recorder.sh \
	test/tracepoints/test_capture_runjson.sh \
	test/tracepoints/test_flight_latency.sh

# bench-tracepoints (make bench): cost of a tracepoint compiled out / not enabled / enabled.
TP_BENCH := $(BUILD)/test/tracepoints/tp-bench
TP_BENCH_NOTRACE := $(BUILD)/test/tracepoints/tp-bench-notrace
$(TP_BENCH): $(call objs,test/tracepoints/tp_bench.c) $(LIBDGRTP_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(TP_LIBS)
$(TP_BENCH_NOTRACE): test/tracepoints/tp_bench.c tracepoints/dgrdma-tp.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itracepoints -DDGR_NO_TRACE -o $@ $< $(ALL_LDFLAGS)
tracepoints: $(TP_BENCH) $(TP_BENCH_NOTRACE)

BENCH_TARGETS += bench-tracepoints bench-capture-startup
.PHONY: bench-capture-startup
bench-capture-startup: $(BUILD)/bin/dgrdma-capture $(BUILD)/bin/dgrdma-clocks
	@DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/tracepoints/bench-startup.sh

.PHONY: bench-tracepoints
bench-tracepoints: $(TP_BENCH) $(TP_BENCH_NOTRACE)
	@DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/tracepoints/bench-tracepoints.sh

INSTALL_TARGETS += install-tracepoints
INSTALLED_FILES += $(BINDIR)/dgrdma-capture $(BINDIR)/dgrdma-clocks $(BINDIR)/dgrdma-runinfo \
	$(MANDIR)/man1/dgrdma-capture.1 $(MANDIR)/man1/dgrdma-clocks.1 $(MANDIR)/man1/dgrdma-runinfo.1 \
	$(COMPLETIONDIR)/dgrdma-clocks $(COMPLETIONDIR)/dgrdma-capture $(LIBEXECDIR)/dgrdma-opts
INSTALLED_DIRS += $(LIBEXECDIR)
.PHONY: install-tracepoints
install-tracepoints: $(BUILD)/bin/dgrdma-capture $(BUILD)/bin/dgrdma-clocks $(BUILD)/bin/dgrdma-runinfo \
		$(BUILD)/completion/dgrdma-clocks $(BUILD)/completion/dgrdma-capture $(BUILD)/bin/dgrdma-opts
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPLETIONDIR) \
		$(DESTDIR)$(LIBEXECDIR)
	install -m 0644 $(BUILD)/completion/dgrdma-clocks $(BUILD)/completion/dgrdma-capture \
		$(DESTDIR)$(COMPLETIONDIR)/
	install -m 0755 $(BUILD)/bin/dgrdma-opts $(DESTDIR)$(LIBEXECDIR)/
	install -m 0755 $(BUILD)/bin/dgrdma-capture $(BUILD)/bin/dgrdma-clocks $(BUILD)/bin/dgrdma-runinfo \
		$(DESTDIR)$(BINDIR)/
	install -m 0644 tracepoints/dgrdma-capture.1 tracepoints/dgrdma-clocks.1 \
		tracepoints/dgrdma-runinfo.1 $(DESTDIR)$(MANDIR)/man1/

# dgrdma-host built with -DDGR_NO_TRACE, for the stack-level half of bench-tracepoints.
TP_NOTRACE_HOST := $(BUILD)/bench/tracepoints/dgrdma-host-notrace
TP_NOTRACE_OBJS := $(patsubst %.c,$(BUILD)/notrace/%.o,$(wildcard stack/src/*.c) \
	$(wildcard stack/cli/*.c) $(wildcard stack/tools/host/*.c))
$(BUILD)/notrace/%.o: %.c | $(VERSION_H)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CFLAGS_stack) -DDGR_NO_TRACE -MMD -MP -c -o $@ $<
$(TP_NOTRACE_HOST): $(TP_NOTRACE_OBJS)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lpthread
-include $(TP_NOTRACE_OBJS:.o=.d)
bench-tracepoints: $(TP_NOTRACE_HOST) $(BUILD)/bin/dgrdma-host $(BUILD)/bin/dgrdma-fpga \
	$(BUILD)/bin/dgrdma-capture $(BUILD)/bin/dgrdma-clocks

# make bench-recording (not in check): what recording costs the host at fixed stream rates,
# none / default UST / UST + --kernel / UST + packet capture (issue 33, item 6);
# make bench-recording-rate: the highest clean rate with each recording (issue 22, item 4).
# Results in docs/performance/tracepoints.md.
BENCH_TARGETS += bench-recording bench-recording-rate bench-recording-instr
.PHONY: bench-recording bench-recording-rate bench-recording-instr
bench-recording: all
	DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/bench/recording/bench-recording-cost.sh
bench-recording-rate: all
	DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/bench/recording/bench-recording.sh
# make bench-recording-instr: the default recording's instructions per buffer (callgrind),
# none / default, and with TP_INSTR_BASE=BUILD another build's (issue 33, item 6).
bench-recording-instr: all
	DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/tracepoints/bench-recording-instr.sh

# make bench-long (issue 34, item 1): DURATION seconds (default 3600) recorded with
# dgrdma-capture --long, disk use and the recorder's memory sampled every minute;
# BENCH_LONG_OPTS, BENCH_RATE, BENCH_SAMPLE override. Results in docs/performance/tracepoints.md.
BENCH_TARGETS += bench-long
.PHONY: bench-long
bench-long: all
	DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) DURATION=$(or $(DURATION),3600) \
		test/bench/recording/bench-long.sh
