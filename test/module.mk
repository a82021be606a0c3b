# SPDX-License-Identifier: GPL-2.0-or-later
# Codec unit tests and the decoder fuzz harness (foundation).

CODEC_TESTS := $(BUILD)/test/unit/test_wire $(BUILD)/test/unit/test_dcp \
	$(BUILD)/test/unit/test_reassembly
CHECK_DEPS += $(CODEC_TESTS) $(BUILD)/fuzz/fuzz_decode $(BUILD)/fuzz/fuzz_text $(BUILD)/fuzz/fuzz_dcp \
	$(BUILD)/fuzz/fuzz_run_json $(BUILD)/fuzz/fuzz_ctf_check $(BUILD)/fuzz/fuzz_capture \
	$(BUILD)/fuzz/fuzz_frame_decode $(BUILD)/fuzz/fuzz_prop_map
CHECK_SUITES += $(CODEC_TESTS) test/unit/test_wire_tool.sh test/fuzz/fuzz_smoke.sh test/readme.sh test/docs_index.sh test/format.sh test/lint.sh \
	test/integration/demo_links.sh

# The command-line conventions of every tool (docs/cli.md), the option tables (help, man page,
# completion and parser agree), the exported API of libdgrdma.so,
# make install / uninstall / install-user into a DESTDIR, the layers of stack/ (no file cycle, the
# library calls nothing of the tools' archives).
CHECK_SUITES += test/cli/command_lines.sh test/cli/option_tables.sh test/install/exports.sh test/install/install.sh \
	test/install/library_layers.sh

$(BUILD)/test/unit/%: $(BUILD)/obj/test/unit/%.o $(LIBDGRCLI_A) $(LIBDGRDMA_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lpthread

.PHONY: codec
codec: $(LIBRARIES) $(BUILD)/bin/dgrdma-wire $(CODEC_TESTS) $(BUILD)/fuzz/fuzz_decode

# libFuzzer harnesses (fuzz_harness below). FUZZ_SECONDS per run of `make fuzz-NAME`.
FUZZ_SECONDS ?= 60
# A harness's sources are compiled one object each, once for all the harnesses that share them
# (wire.c was compiled six times, in one clang call per harness): make -j then spreads them over
# the CPUs, and the test build of `make check` is no longer one clang call of 9 s at its end.
# -fsanitize=undefined includes float-cast-overflow (clang 14), which two harnesses named apart.
FUZZ_CFLAGS := -g -O1 $(FUZZ_SANITIZE) -fsanitize=fuzzer-no-link -Istack/include -Istack/cli \
	-Istack/tune $(ANALYSIS_INCLUDES) -D_GNU_SOURCE \
	$(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null)
$(BUILD)/fuzz-obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<
-include $(wildcard $(BUILD)/fuzz-obj/*/*/*.d)
# fuzz_harness NAME,SOURCES,MAX_LEN[,LINK]: $(BUILD)/fuzz/fuzz_NAME from test/fuzz/fuzz_NAME.c and
# SOURCES (with LINK's libraries), and `make fuzz-NAME` (NAME's '_' as '-') running it
# FUZZ_SECONDS on inputs of at most MAX_LEN bytes, with its corpus in $(BUILD)/fuzz/corpus-NAME and
# its seeds in test/fuzz/seeds/NAME. test/fuzz/fuzz_smoke.sh runs each in make check.
define fuzz_harness
FUZZ_TARGETS += fuzz-$(subst _,-,$(1))
$(BUILD)/fuzz/fuzz_$(1): $(call fuzz_objs,test/fuzz/fuzz_$(1).c $(2))
	@mkdir -p $$(@D)
	$$(FUZZ_LINK) $$(filter %.o,$$^) $(4)
.PHONY: fuzz-$(subst _,-,$(1))
fuzz-$(subst _,-,$(1)): $(BUILD)/fuzz/fuzz_$(1)
	@mkdir -p $(BUILD)/fuzz/corpus-$(subst _,-,$(1))
	$(BUILD)/fuzz/fuzz_$(1) -max_total_time=$$(FUZZ_SECONDS) -max_len=$(3) \
		$(BUILD)/fuzz/corpus-$(subst _,-,$(1)) test/fuzz/seeds/$(subst _,-,$(1))
endef

# The frame and DCP decoders with the reassembler.
$(eval $(call fuzz_harness,decode,stack/src/wire.c stack/src/dcp.c stack/src/reassembly.c,9100))
# The option values the tools parse.
$(eval $(call fuzz_harness,text,stack/cli/cli.c stack/cli/sched_opts.c stack/src/transport_addr.c \
	stack/src/errbuf.c,4096))
# dgrdma-ctl's property map (--props): any text, every accepted row checked.
$(eval $(call fuzz_harness,prop_map,stack/cli/prop_map.c stack/cli/cli.c stack/src/errbuf.c,65536))
# The DCP decoder alone, with its round-trip properties checked.
$(eval $(call fuzz_harness,dcp,stack/src/dcp.c stack/src/wire.c,64))
# The run folder reader: run.json through jansson and the schema check.
$(eval $(call fuzz_harness,run_json,analysis/input/run_info.c analysis/input/run_info_v1.c \
	analysis/input/run_schema.c analysis/input/fpga_counters.c analysis/verdict/headroom.c \
	stack/cli/cli.c stack/src/errbuf.c stack/src/stats.c,8192, \
	$(shell $(PKG_CONFIG) --libs jansson 2>/dev/null) -lm))
# The trace reader's checks, which see a trace before libbabeltrace2.
$(eval $(call fuzz_harness,ctf_check,analysis/input/ctf_check.c stack/src/wire.c stack/cli/cli.c \
	stack/src/errbuf.c,24576))
# The capture input's decoder alone (analysis/input/frame_decode.c): one frame of a link type, the
# views of its result checked against the captured bytes.
$(eval $(call fuzz_harness,frame_decode,analysis/input/frame_decode.c analysis/engine/conn_table.c \
	stack/src/wire.c stack/src/errbuf.c,9100))
# latency-report's capture path: link layers, IPv4/UDP, DG-RDMA and DCP, and the analysis engine
# behind them. The analysis and the codec are built here with the sanitizers; the rest of
# libdgrdma it links (addresses, clocks) comes from the archive.
$(eval $(call fuzz_harness,capture,analysis/input/pcap_input.c analysis/input/frame_decode.c \
	analysis/input/wire_analysis.c analysis/input/ip_defrag.c $(ANALYSIS_ENGINE_SRCS) \
	stack/src/wire.c stack/src/dcp.c stack/src/reassembly.c stack/cli/cli.c stack/src/errbuf.c \
	stack/src/stats.c,70100,$(BUILD)/lib/libdgrdma.a \
	$(shell $(PKG_CONFIG) --libs libpcap 2>/dev/null) -lm -lpthread))
$(BUILD)/fuzz/fuzz_capture: $(BUILD)/lib/libdgrdma.a
