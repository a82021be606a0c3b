# SPDX-License-Identifier: GPL-2.0-or-later
# libdgrdma (static and shared), dgrdma-host, dgrdma-ctl, dgrdma-wire and the
# stack's tests. Tracepoints (provider dgrdma) come from tracepoints/.

include tracepoints/tp-vars.mk
CFLAGS_stack += $(TP_CFLAGS)

STACK_SRCS := $(wildcard stack/src/*.c)
LIBDGRDMA_A := $(BUILD)/lib/libdgrdma.a
LIBDGRDMA_SO := $(BUILD)/lib/libdgrdma.so
LIBRARIES += $(LIBDGRDMA_A) $(LIBDGRDMA_SO)
STACK_LIBS := -lpthread
# what a program using the host stack (conn.c and the threads) links: the tools' internal
# archive first (it calls the library)
STACK_PROG_LIBS := $(LIBDGRCLI_A) $(LIBDGRDMA_A) $(LIBDGRTP_A) $(TP_LIBS) -lpthread

$(LIBDGRDMA_A): $(call objs,$(STACK_SRCS))
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

# Only the public API (stack/include/dgrdma/*.h) is exported: the version script is
# generated from the headers (mk/exports.sh); test/install/exports.sh checks it with nm.
# --no-undefined: the library stands alone, it calls nothing of the tools' archives.
LIBDGRDMA_MAP := $(BUILD)/gen/libdgrdma.map
$(LIBDGRDMA_MAP): mk/exports.sh $(wildcard stack/include/dgrdma/*.h)
	@mkdir -p $(@D)
	mk/exports.sh $(CC) -std=gnu11 -D_GNU_SOURCE >$@.tmp && mv -f $@.tmp $@

$(LIBDGRDMA_SO): $(call pic_objs,$(STACK_SRCS)) $(TP_HOST_PIC_OBJS) $(LIBDGRDMA_MAP)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,libdgrdma.so.0 -Wl,--version-script=$(LIBDGRDMA_MAP) -Wl,--no-undefined \
		$(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(STACK_LIBS) $(TP_LIBS)

# dgrdma-wire: fragmentation plans and frame decoding from the command line.
PROGRAMS += $(BUILD)/bin/dgrdma-wire
$(BUILD)/bin/dgrdma-wire: $(call objs,stack/tools/dgrdma-wire.c) $(LIBDGRCLI_A) $(LIBDGRDMA_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(STACK_LIBS)

# dgrdma-opts: the option tables of the bash tools (dgrdma-plot's, analysis/plot/plot_opts.c;
# dgrdma-capture's, tracepoints/capture_opts.c),
# served to the scripts, which run it from beside themselves (build/bin) or from LIBEXECDIR
# (installed by install-analysis and install-tracepoints); stack/module.mk is read after analysis/module.mk.
DGRDMA_OPTS := $(BUILD)/bin/dgrdma-opts
BASH_TOOL_TABLES := analysis/plot/plot_opts.c tracepoints/capture_opts.c
PROGRAMS += $(DGRDMA_OPTS)
$(call objs,stack/tools/dgrdma-opts.c): CFLAGS_stack += -Ianalysis/plot
$(DGRDMA_OPTS): $(call objs,stack/tools/dgrdma-opts.c $(BASH_TOOL_TABLES)) $(LIBDGRCLI_A) \
		$(LIBDGRDMA_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^

# dgrdma-host: the tuning guide's test application; dgrdma-ctl: the DCP client.
PROGRAMS += $(BUILD)/bin/dgrdma-host $(BUILD)/bin/dgrdma-ctl
STACK_COMPLETIONS := dgrdma-host dgrdma-ctl dgrdma-wire
all: $(addprefix $(BUILD)/completion/,$(STACK_COMPLETIONS))
# dgrdma-host: one file a job in stack/tools/host/ (host.h lists them).
HOST_TOOL_SRCS := $(wildcard stack/tools/host/*.c)
$(BUILD)/bin/dgrdma-host: $(call objs,$(HOST_TOOL_SRCS)) \
		$(LIBDGRCLI_A) $(LIBDGRDMA_A) $(LIBDGRTP_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(STACK_PROG_LIBS)

$(BUILD)/bin/dgrdma-ctl: $(call objs,stack/tools/dgrdma-ctl.c) $(LIBDGRCLI_A) $(LIBDGRDMA_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LIBDGRCLI_A) $(LIBDGRDMA_A) $(STACK_LIBS)

# Tests: unit tests (test/unit/stack), in-test peers (test/integration/stack).
CFLAGS_test += -Istack/src
STACK_UNIT_SRCS := $(wildcard test/unit/stack/*.c)
STACK_UNIT_TESTS := $(patsubst test/unit/stack/%.c,$(BUILD)/test/unit/stack/%,$(STACK_UNIT_SRCS))
$(BUILD)/test/unit/stack/%: $(BUILD)/obj/test/unit/stack/%.o $(LIBDGRCLI_A) $(LIBDGRDMA_A) $(LIBDGRTP_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(STACK_PROG_LIBS)

STACK_PEER_SRCS := $(wildcard test/integration/stack/*.c)
STACK_PEERS := $(patsubst test/integration/stack/%.c,$(BUILD)/test/integration/stack/%,$(STACK_PEER_SRCS))
$(BUILD)/test/integration/stack/%: $(BUILD)/obj/test/integration/stack/%.o $(LIBDGRCLI_A) $(LIBDGRDMA_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIBDGRCLI_A) $(LIBDGRDMA_A) $(STACK_LIBS)

CHECK_DEPS += $(STACK_UNIT_TESTS) $(STACK_PEERS)
CHECK_SUITES += $(STACK_UNIT_TESTS) \
	$(filter-out %/lib.sh,$(sort $(wildcard $(CURDIR)/test/integration/stack/*.sh)))

.PHONY: stack
stack: $(LIBDGRDMA_A) $(LIBDGRDMA_SO) $(BUILD)/bin/dgrdma-wire $(BUILD)/bin/dgrdma-host \
	$(BUILD)/bin/dgrdma-ctl $(STACK_UNIT_TESTS) $(STACK_PEERS)

# libdgrdma.pc: the shared library for other programs (pkg-config --cflags --libs libdgrdma).
# The .so carries the tracepoint probes; a static link also needs them (not installed).
LIBDGRDMA_PC := $(BUILD)/pkgconfig/libdgrdma.pc
LIBRARIES += $(LIBDGRDMA_PC)
# Written on every make (PREFIX may differ from the last one), replaced only when it changes.
# libdir and includedir relative to ${prefix} when under it: pkg-config --define-prefix works.
$(LIBDGRDMA_PC): stack/libdgrdma.pc.in FORCE
	@mkdir -p $(@D)
	@sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))|g' \
		-e 's|@INCDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCDIR))|g' \
		-e 's|@VERSION@|$(DGR_VERSION)|g' $< >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

STACK_HEADERS := $(notdir $(wildcard stack/include/dgrdma/*.h))
STACK_MANS := dgrdma-host.1 dgrdma-ctl.1 dgrdma-wire.1
INSTALL_TARGETS += install-stack
INSTALLED_FILES += $(addprefix $(BINDIR)/,dgrdma-wire dgrdma-host dgrdma-ctl) \
	$(addprefix $(LIBDIR)/,libdgrdma.a libdgrdma.so.0 libdgrdma.so) \
	$(PKGCONFIGDIR)/libdgrdma.pc $(addprefix $(INCDIR)/dgrdma/,$(STACK_HEADERS)) \
	$(addprefix $(MANDIR)/man1/,$(STACK_MANS)) \
	$(addprefix $(COMPLETIONDIR)/,$(STACK_COMPLETIONS))
INSTALLED_DIRS += $(INCDIR)/dgrdma
.PHONY: install-stack
install-stack: $(LIBDGRDMA_A) $(LIBDGRDMA_SO) $(LIBDGRDMA_PC) $(BUILD)/bin/dgrdma-wire \
		$(BUILD)/bin/dgrdma-host $(BUILD)/bin/dgrdma-ctl \
		$(addprefix $(BUILD)/completion/,$(STACK_COMPLETIONS))
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)/dgrdma \
		$(DESTDIR)$(PKGCONFIGDIR)
	install -m 0755 $(BUILD)/bin/dgrdma-wire $(BUILD)/bin/dgrdma-host $(BUILD)/bin/dgrdma-ctl \
		$(DESTDIR)$(BINDIR)/
	install -m 0644 $(LIBDGRDMA_A) $(DESTDIR)$(LIBDIR)/
	install -m 0755 $(LIBDGRDMA_SO) $(DESTDIR)$(LIBDIR)/libdgrdma.so.0
	ln -sf libdgrdma.so.0 $(DESTDIR)$(LIBDIR)/libdgrdma.so
	install -m 0644 $(LIBDGRDMA_PC) $(DESTDIR)$(PKGCONFIGDIR)/
	install -m 0644 $(addprefix stack/include/dgrdma/,$(STACK_HEADERS)) $(DESTDIR)$(INCDIR)/dgrdma/
	install -d $(DESTDIR)$(MANDIR)/man1
	install -m 0644 $(addprefix stack/man/,$(STACK_MANS)) $(DESTDIR)$(MANDIR)/man1/
	install -d $(DESTDIR)$(COMPLETIONDIR)
	install -m 0644 $(addprefix $(BUILD)/completion/,$(STACK_COMPLETIONS)) $(DESTDIR)$(COMPLETIONDIR)/

# Benchmark (make bench, not check): raw veth ceiling vs the stack, MTU 9000/1500, -O2 vs -O0.
STK_RAWPAIR := $(BUILD)/test/bench/stack/stk-rawpair
$(STK_RAWPAIR): $(BUILD)/obj/test/bench/stack/stk-rawpair.o $(LIBDGRCLI_A) $(LIBDGRDMA_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIBDGRCLI_A) $(LIBDGRDMA_A) $(STACK_LIBS)
stack: $(STK_RAWPAIR)
BENCH_TARGETS += bench-stack
.PHONY: bench-stack
bench-stack: stack $(BUILD)/bin/dgrdma-fpga
	$(MAKE) --no-print-directory OPT=-O0 stack
	DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) DGR_BUILD_O0=$(abspath build/O0) \
		test/bench/stack/bench.sh

# Soak (make soak, not check): hundreds of short streams with frames lost and retransmitted
# over veth, with and without a CPU hog; stalls counted (docs/reliability.md).
SOAK_TARGETS += soak-stack
.PHONY: soak-stack
soak-stack: $(BUILD)/bin/dgrdma-host
	DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/soak/retransmit.sh

# libFuzzer harness of the receive path (rx.c with the codec and the reassembler).
FUZZ_STACK_RX := $(BUILD)/fuzz/fuzz_stack_rx
FUZZ_TARGETS += fuzz-stack
# One object a source, as test/module.mk's harnesses: make -j compiles them side by side (one
# clang call for all of them took 12 s, most of `make check`'s test build on its critical path).
FUZZ_STACK_CFLAGS := -g -O1 $(FUZZ_SANITIZE) -fsanitize=fuzzer-no-link -Istack/include \
	-Istack/src -Istack/cli -Itracepoints -D_GNU_SOURCE -DDGR_NO_TRACE
$(BUILD)/fuzz-obj-stack/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_STACK_CFLAGS) -MMD -MP -c -o $@ $<
-include $(wildcard $(addprefix $(BUILD)/fuzz-obj-stack/,*/*.d */*/*.d */*/*/*.d */*/*/*/*.d))
$(FUZZ_STACK_RX): $(call fuzz_stack_objs,test/integration/stack/fuzz/fuzz_rx.c $(STACK_SRCS))
	@mkdir -p $(@D)
	$(FUZZ_LINK) $^ -lpthread
.PHONY: fuzz-stack
fuzz-stack: $(FUZZ_STACK_RX)
	@mkdir -p $(BUILD)/fuzz/corpus-stack-rx
	$(FUZZ_STACK_RX) -max_total_time=$(FUZZ_SECONDS) -max_len=9100 $(BUILD)/fuzz/corpus-stack-rx
stack: $(FUZZ_STACK_RX)
CHECK_DEPS += $(FUZZ_STACK_RX)
CHECK_SUITES += $(CURDIR)/test/integration/stack/fuzz/smoke.sh
