# SPDX-License-Identifier: GPL-2.0-or-later
# libdgrdma-preload.so: the LD_PRELOAD tracer for unmodified DG-RDMA hosts (OpenCPI's
# runtime). It carries its own copy of the codec, the reassembler and the "dgrdma" provider's
# probes, and exports only the libc calls it wraps (preload.map).

PRELOAD_SO := $(BUILD)/lib/libdgrdma-preload.so
PRELOAD_SRCS := tracepoints/preload/preload.c tracepoints/preload/flow.c
PRELOAD_OBJS := $(call pic_objs,$(PRELOAD_SRCS) stack/src/wire.c stack/src/dcp.c stack/src/reassembly.c) \
	$(TP_HOST_PIC_OBJS)

$(PRELOAD_SO): $(PRELOAD_OBJS) tracepoints/preload/preload.map
	@mkdir -p $(@D)
	$(CC) -shared -Wl,--version-script=tracepoints/preload/preload.map $(ALL_LDFLAGS) \
		-o $@ $(PRELOAD_OBJS) $(TP_LIBS) -lpthread

LIBRARIES += $(PRELOAD_SO)
tracepoints: $(PRELOAD_SO)

INSTALL_TARGETS += install-preload
INSTALLED_FILES += $(LIBDIR)/libdgrdma-preload.so
.PHONY: install-preload
install-preload: $(PRELOAD_SO)
	install -d $(DESTDIR)$(LIBDIR)
	install -m 0755 $(PRELOAD_SO) $(DESTDIR)$(LIBDIR)/

# test_preload.sh's application: every socket call's result printed, run with and without.
PRELOAD_CALLS := $(BUILD)/test/tracepoints/preload-calls
$(PRELOAD_CALLS): $(call objs,test/tracepoints/preload_calls.c) $(LIBDGRDMA_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^
tracepoints: $(PRELOAD_CALLS)
CHECK_DEPS += $(PRELOAD_CALLS) $(PRELOAD_SO)
CHECK_SUITES += test/tracepoints/test_preload.sh test/tracepoints/test_preload_settings.sh

# Issue 35 item 2: a host written the way OpenCPI's runtime is, traced with the library
# against the emulator (test/integration/preload/). Plain libc only: no project code.
OCPI_STYLE_HOST := $(BUILD)/test/preload/ocpi-style-host
$(OCPI_STYLE_HOST): test/integration/preload/ocpi_style_host.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS)
tracepoints: $(OCPI_STYLE_HOST)
CHECK_DEPS += $(OCPI_STYLE_HOST)
# stall-cause-foreign.sh runs before the test build ends (make check: CHECK_ALONE_DEPS)
CHECK_ALONE_DEPS += $(OCPI_STYLE_HOST)
CHECK_SUITES += test/integration/preload/test_preload_fpga.sh

# make bench-preload: the library's cost per wrapped call, as a ratio to the same calls
# without it in the same run (test/tracepoints/bench-preload.sh).
PRELOAD_BENCH := $(BUILD)/test/tracepoints/preload-bench
$(PRELOAD_BENCH): $(call objs,test/tracepoints/preload_bench.c) $(LIBDGRDMA_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^
tracepoints: $(PRELOAD_BENCH)
BENCH_TARGETS += bench-preload
.PHONY: bench-preload
bench-preload: $(PRELOAD_BENCH) $(PRELOAD_SO)
	@DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/tracepoints/bench-preload.sh

# make bench-preload-host: dgrdma-host without tracepoints under the library vs the traced
# build on the same workload (issue 35 item 2; test/tracepoints/bench-preload-host.sh).
BENCH_TARGETS += bench-preload-host
.PHONY: bench-preload-host
bench-preload-host: $(PRELOAD_SO) $(TP_NOTRACE_HOST) $(BUILD)/bin/dgrdma-host \
	$(BUILD)/bin/dgrdma-fpga $(BUILD)/bin/dgrdma-capture $(BUILD)/bin/latency-report
	@DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/tracepoints/bench-preload-host.sh
