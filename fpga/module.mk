# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-fpga (the software FPGA endpoint), its unit and integration tests, its benchmark.
include tracepoints/tp-vars.mk

CFLAGS_fpga += $(TP_CFLAGS)
FPGA_LIB_SRCS := $(filter-out fpga/main.c,$(wildcard fpga/*.c))
FPGA_LIB_OBJS := $(call objs,$(FPGA_LIB_SRCS))
FPGA_BIN := $(BUILD)/bin/dgrdma-fpga
# stack/module.mk is read after this file: name its library by path
FPGA_LINK := $(LIBDGRCLI_A) $(BUILD)/lib/libdgrdma.a $(LIBDGRTP_A)
FPGA_LIBS := -lpthread -lm $(TP_LIBS)
ifneq ($(findstring DGR_NO_TRACE,$(CFLAGS)),)
# tracing compiled out: no probes, no lttng-ust
FPGA_LINK := $(LIBDGRCLI_A) $(BUILD)/lib/libdgrdma.a
FPGA_LIBS := -lpthread -lm
endif
PROGRAMS += $(FPGA_BIN)
all: $(BUILD)/completion/dgrdma-fpga

$(FPGA_BIN): $(call objs,fpga/main.c) $(FPGA_LIB_OBJS) $(FPGA_LINK)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(FPGA_LIBS)

# Unit tests of the pure models, the property map and the DCP server (no sockets).
FPGA_UNIT_TESTS := $(patsubst test/unit/fpga/%.c,$(BUILD)/test/fpga/unit/%,\
	$(wildcard test/unit/fpga/test_*.c))
$(BUILD)/test/fpga/unit/%: $(BUILD)/obj/test/unit/fpga/%.o $(FPGA_LIB_OBJS) $(FPGA_LINK)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(FPGA_LIBS)

# Integration: a minimal in-test host (codec + transport) against dgrdma-fpga.
FPGA_TEST_HOST := $(BUILD)/test/fpga/fpga-test-host
$(FPGA_TEST_HOST): $(call objs,test/integration/fpga/fpga_test_host.c) $(LIBDGRCLI_A) \
		$(BUILD)/lib/libdgrdma.a
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lpthread -lm

FPGA_CHECK_BINS := $(FPGA_UNIT_TESTS) $(FPGA_TEST_HOST)
CHECK_DEPS += $(FPGA_CHECK_BINS)
CHECK_SUITES += $(FPGA_UNIT_TESTS) $(sort $(wildcard test/integration/fpga/*.sh))

.PHONY: fpga bench-fpga
fpga: $(FPGA_BIN) $(FPGA_CHECK_BINS)

# Highest ADC rate the emulator produces into a counting sink (docs/performance/fpga.md).
BENCH_TARGETS += bench-fpga
bench-fpga: $(FPGA_BIN) $(FPGA_TEST_HOST)
	@DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/bench/fpga/bench-fpga.sh

INSTALL_TARGETS += install-fpga
INSTALLED_FILES += $(BINDIR)/dgrdma-fpga $(MANDIR)/man1/dgrdma-fpga.1 \
	$(COMPLETIONDIR)/dgrdma-fpga
.PHONY: install-fpga
install-fpga: $(FPGA_BIN) $(BUILD)/completion/dgrdma-fpga
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPLETIONDIR)
	install -m 0755 $(FPGA_BIN) $(DESTDIR)$(BINDIR)/
	install -m 0644 fpga/dgrdma-fpga.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 $(BUILD)/completion/dgrdma-fpga $(DESTDIR)$(COMPLETIONDIR)/

# libFuzzer harness of the receive path and the DCP server (make fuzz-fpga).
FPGA_FUZZ := $(BUILD)/fuzz/fuzz_fpga_rx
FUZZ_TARGETS += fuzz-fpga
$(FPGA_FUZZ): $(call fuzz_stack_objs,test/unit/fpga/fuzz_fpga_rx.c $(FPGA_LIB_SRCS) \
		$(wildcard stack/src/*.c) $(wildcard stack/cli/*.c))
	@mkdir -p $(@D)
	$(FUZZ_LINK) $^ -lpthread -lm
.PHONY: fuzz-fpga
fuzz-fpga: $(FPGA_FUZZ)
	@mkdir -p $(BUILD)/fuzz/corpus-fpga
	$(FPGA_FUZZ) -max_total_time=$(FUZZ_SECONDS) -max_len=9100 $(BUILD)/fuzz/corpus-fpga
