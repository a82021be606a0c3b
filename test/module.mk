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

# libFuzzer harness for the frame + DCP decoders. FUZZ_SECONDS per run.
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
FUZZ_DECODE := $(BUILD)/fuzz/fuzz_decode
FUZZ_TARGETS += fuzz-decode
$(FUZZ_DECODE): $(call fuzz_objs,test/fuzz/fuzz_decode.c stack/src/wire.c stack/src/dcp.c \
		stack/src/reassembly.c)
	@mkdir -p $(@D)
	$(FUZZ_LINK) $^
.PHONY: fuzz-decode
fuzz-decode: $(FUZZ_DECODE)
	@mkdir -p $(BUILD)/fuzz/corpus-decode
	$(FUZZ_DECODE) -max_total_time=$(FUZZ_SECONDS) -max_len=9100 \
		$(BUILD)/fuzz/corpus-decode test/fuzz/seeds/decode

# libFuzzer harness for the option values the tools parse.
FUZZ_TEXT := $(BUILD)/fuzz/fuzz_text
FUZZ_TARGETS += fuzz-text
$(FUZZ_TEXT): $(call fuzz_objs,test/fuzz/fuzz_text.c stack/cli/cli.c stack/cli/sched_opts.c \
		stack/src/transport_addr.c stack/src/errbuf.c)
	@mkdir -p $(@D)
	$(FUZZ_LINK) $^
.PHONY: fuzz-text
fuzz-text: $(FUZZ_TEXT)
	@mkdir -p $(BUILD)/fuzz/corpus-text
	$(FUZZ_TEXT) -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
		$(BUILD)/fuzz/corpus-text test/fuzz/seeds/text

# libFuzzer harness for dgrdma-ctl's property map (--props): any text, every accepted row checked.
FUZZ_PROP_MAP := $(BUILD)/fuzz/fuzz_prop_map
FUZZ_TARGETS += fuzz-prop-map
$(FUZZ_PROP_MAP): $(call fuzz_objs,test/fuzz/fuzz_prop_map.c stack/cli/prop_map.c)
	@mkdir -p $(@D)
	$(FUZZ_LINK) $^
.PHONY: fuzz-prop-map
fuzz-prop-map: $(FUZZ_PROP_MAP)
	@mkdir -p $(BUILD)/fuzz/corpus-prop-map
	$(FUZZ_PROP_MAP) -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
		$(BUILD)/fuzz/corpus-prop-map test/fuzz/seeds/prop-map

# libFuzzer harness for the DCP decoder alone, with its round-trip properties checked.
FUZZ_DCP := $(BUILD)/fuzz/fuzz_dcp
FUZZ_TARGETS += fuzz-dcp
$(FUZZ_DCP): $(call fuzz_objs,test/fuzz/fuzz_dcp.c stack/src/dcp.c stack/src/wire.c)
	@mkdir -p $(@D)
	$(FUZZ_LINK) $^
.PHONY: fuzz-dcp
fuzz-dcp: $(FUZZ_DCP)
	@mkdir -p $(BUILD)/fuzz/corpus-dcp
	$(FUZZ_DCP) -max_total_time=$(FUZZ_SECONDS) -max_len=64 \
		$(BUILD)/fuzz/corpus-dcp test/fuzz/seeds/dcp

# libFuzzer harness for the run folder reader: run.json through jansson and the schema check.
FUZZ_RUN_JSON := $(BUILD)/fuzz/fuzz_run_json
FUZZ_TARGETS += fuzz-run-json
$(FUZZ_RUN_JSON): $(call fuzz_objs,test/fuzz/fuzz_run_json.c analysis/input/run_info.c \
		analysis/input/run_info_v1.c analysis/input/run_schema.c analysis/input/fpga_counters.c \
		analysis/verdict/headroom.c stack/cli/cli.c stack/src/errbuf.c stack/src/stats.c)
	@mkdir -p $(@D)
	$(FUZZ_LINK) $^ $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null) -lm
.PHONY: fuzz-run-json
fuzz-run-json: $(FUZZ_RUN_JSON)
	@mkdir -p $(BUILD)/fuzz/corpus-run-json
	$(FUZZ_RUN_JSON) -max_total_time=$(FUZZ_SECONDS) -max_len=8192 \
		$(BUILD)/fuzz/corpus-run-json test/fuzz/seeds/run-json

# libFuzzer harness for the trace reader's checks, which see a trace before libbabeltrace2.
FUZZ_CTF_CHECK := $(BUILD)/fuzz/fuzz_ctf_check
FUZZ_TARGETS += fuzz-ctf-check
$(FUZZ_CTF_CHECK): $(call fuzz_objs,test/fuzz/fuzz_ctf_check.c analysis/input/ctf_check.c \
		stack/src/wire.c stack/cli/cli.c stack/src/errbuf.c)
	@mkdir -p $(@D)
	$(FUZZ_LINK) $^
.PHONY: fuzz-ctf-check
fuzz-ctf-check: $(FUZZ_CTF_CHECK)
	@mkdir -p $(BUILD)/fuzz/corpus-ctf-check
	$(FUZZ_CTF_CHECK) -max_total_time=$(FUZZ_SECONDS) -max_len=24576 \
		$(BUILD)/fuzz/corpus-ctf-check test/fuzz/seeds/ctf-check

# libFuzzer harness for the capture input's decoder alone (analysis/input/frame_decode.c): one
# frame of a link type, the views of its result checked against the captured bytes.
FUZZ_FRAME_DECODE := $(BUILD)/fuzz/fuzz_frame_decode
FUZZ_TARGETS += fuzz-frame-decode
$(FUZZ_FRAME_DECODE): $(call fuzz_objs,test/fuzz/fuzz_frame_decode.c analysis/input/frame_decode.c \
		analysis/engine/conn_table.c stack/src/wire.c stack/src/errbuf.c)
	@mkdir -p $(@D)
	$(FUZZ_LINK) $^
.PHONY: fuzz-frame-decode
fuzz-frame-decode: $(FUZZ_FRAME_DECODE)
	@mkdir -p $(BUILD)/fuzz/corpus-frame-decode
	$(FUZZ_FRAME_DECODE) -max_total_time=$(FUZZ_SECONDS) -max_len=9100 \
		$(BUILD)/fuzz/corpus-frame-decode test/fuzz/seeds/frame-decode

# libFuzzer harness for latency-report's capture path: link layers, IPv4/UDP, DG-RDMA and DCP,
# and the analysis engine behind them. The analysis and the codec are built here with the
# sanitizers; the rest of libdgrdma it links (addresses, clocks) comes from the archive.
FUZZ_CAPTURE := $(BUILD)/fuzz/fuzz_capture
FUZZ_TARGETS += fuzz-capture
$(FUZZ_CAPTURE): $(call fuzz_objs,test/fuzz/fuzz_capture.c analysis/input/pcap_input.c \
		analysis/input/frame_decode.c analysis/input/wire_analysis.c analysis/input/ip_defrag.c \
		$(ANALYSIS_ENGINE_SRCS) stack/src/wire.c stack/src/dcp.c stack/src/reassembly.c \
		stack/cli/cli.c stack/src/errbuf.c stack/src/stats.c) \
		$(BUILD)/lib/libdgrdma.a
	@mkdir -p $(@D)
	$(FUZZ_LINK) $^ $(shell $(PKG_CONFIG) --libs libpcap 2>/dev/null) -lm -lpthread
.PHONY: fuzz-capture
fuzz-capture: $(FUZZ_CAPTURE)
	@mkdir -p $(BUILD)/fuzz/corpus-capture
	$(FUZZ_CAPTURE) -max_total_time=$(FUZZ_SECONDS) -max_len=70100 \
		$(BUILD)/fuzz/corpus-capture test/fuzz/seeds/capture
