# SPDX-License-Identifier: GPL-2.0-or-later
# Codec unit tests and the decoder fuzz harness (foundation).

CODEC_TESTS := $(BUILD)/test/unit/test_wire $(BUILD)/test/unit/test_dcp \
	$(BUILD)/test/unit/test_reassembly
CHECK_DEPS += $(CODEC_TESTS) $(BUILD)/fuzz/fuzz_decode $(BUILD)/fuzz/fuzz_text
CHECK_SUITES += $(CODEC_TESTS) test/unit/test_wire_tool.sh test/fuzz/fuzz_smoke.sh test/readme.sh test/format.sh test/lint.sh \
	test/integration/demo_links.sh

# The command-line conventions of every tool (docs/cli.md), the exported API of libdgrdma.so,
# make install / uninstall / install-user into a DESTDIR.
CHECK_SUITES += test/cli/command_lines.sh test/install/exports.sh test/install/install.sh

$(BUILD)/test/unit/%: $(BUILD)/obj/test/unit/%.o $(LIBDGRDMA_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lpthread

.PHONY: codec
codec: $(LIBRARIES) $(BUILD)/bin/dgrdma-wire $(CODEC_TESTS) $(BUILD)/fuzz/fuzz_decode

# libFuzzer harness for the frame + DCP decoders. FUZZ_SECONDS per run.
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_DECODE := $(BUILD)/fuzz/fuzz_decode
FUZZ_TARGETS += fuzz-decode
$(FUZZ_DECODE): test/fuzz/fuzz_decode.c stack/src/wire.c stack/src/dcp.c stack/src/reassembly.c
	@mkdir -p $(@D)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -Istack/include -D_GNU_SOURCE \
		-o $@ $^
.PHONY: fuzz-decode
fuzz-decode: $(FUZZ_DECODE)
	@mkdir -p $(BUILD)/fuzz/corpus-decode
	$(FUZZ_DECODE) -max_total_time=$(FUZZ_SECONDS) -max_len=9100 \
		$(BUILD)/fuzz/corpus-decode test/fuzz/seeds/decode

# libFuzzer harness for the text the tools parse: option values and run.json's facts.
FUZZ_TEXT := $(BUILD)/fuzz/fuzz_text
FUZZ_TARGETS += fuzz-text
$(FUZZ_TEXT): test/fuzz/fuzz_text.c stack/src/cli.c analysis/run_info.c
	@mkdir -p $(@D)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined,float-cast-overflow -Istack/include \
		-Ianalysis -D_GNU_SOURCE -o $@ $^
.PHONY: fuzz-text
fuzz-text: $(FUZZ_TEXT)
	@mkdir -p $(BUILD)/fuzz/corpus-text
	$(FUZZ_TEXT) -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
		$(BUILD)/fuzz/corpus-text test/fuzz/seeds/text
