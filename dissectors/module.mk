# SPDX-License-Identifier: GPL-2.0-or-later
# The Wireshark epan plugin: DCP and DG-RDMA dissectors, doorbell analysis,
# the dgrdma,latency statistics tap and the dcp,srt response-time table.
#
# Built as $(BUILD)/plugins/4.0/epan/dgrdma.so so that tests can run tshark
# with WIRESHARK_PLUGIN_DIR=$(BUILD)/plugins and touch nothing outside the tree.

WIRESHARK_CFLAGS := $(shell $(PKG_CONFIG) --cflags wireshark 2>/dev/null)
WIRESHARK_LIBS := $(shell $(PKG_CONFIG) --libs wireshark 2>/dev/null)
WIRESHARK_PLUGINDIR := $(shell $(PKG_CONFIG) --variable=plugindir wireshark 2>/dev/null)
# Wireshark's own headers are not -Wconversion clean: include them as system headers.
CFLAGS_dissectors += $(patsubst -I%,-isystem %,$(WIRESHARK_CFLAGS))

DISSECTOR_SRCS := $(wildcard dissectors/*.c)
DISSECTOR_PLUGIN := $(BUILD)/plugins/4.0/epan/dgrdma.so
LIBRARIES += $(DISSECTOR_PLUGIN)

# The project's own code is linked in: the codec (wire.c, dcp.c) for validation and DCP
# classification, the reassembler (reassembly.c) for the transaction analysis.
# The analysis engine (analysis/engine/, the matcher, the percentiles) is latency-report's.
DISSECTOR_STACK_SRCS := stack/src/wire.c stack/src/dcp.c stack/src/reassembly.c \
	analysis/doorbell_match.c analysis/stats.c analysis/engine/msg_rules.c \
	analysis/engine/seq_track.c
$(DISSECTOR_PLUGIN): $(call pic_objs,$(DISSECTOR_SRCS) $(DISSECTOR_STACK_SRCS))
	@mkdir -p $(@D)
	$(CC) -shared $(ALL_LDFLAGS) -Wl,--no-undefined -o $@ $^ $(WIRESHARK_LIBS)

# Fixture generator for the dissector suites (writes pcap files, no libpcap needed).
DISSECTOR_GEN := $(BUILD)/test/dissectors/gen-dissector-fixtures
# Only the codec sources are linked (not all of libdgrdma) so that this part
# builds while other parts of the library are being edited.
$(DISSECTOR_GEN): $(call objs,test/dissectors/gen-dissector-fixtures.c stack/src/wire.c stack/src/dcp.c)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^

# An ASan+UBSan copy of the plugin for the fuzz suite, which loads it into the
# system tshark with LD_PRELOAD of the sanitizer runtimes.
DISSECTOR_ASAN_PLUGIN := $(BUILD)/plugins-asan/4.0/epan/dgrdma.so
DISSECTOR_ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer
$(BUILD)/asan-pic/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CFLAGS_$(firstword $(subst /, ,$<))) $(DISSECTOR_ASAN_FLAGS) -fPIC \
		-MMD -MP -c -o $@ $<
$(DISSECTOR_ASAN_PLUGIN): $(patsubst %.c,$(BUILD)/asan-pic/%.o,$(DISSECTOR_SRCS) $(DISSECTOR_STACK_SRCS))
	@mkdir -p $(@D)
	$(CC) -shared $(ALL_LDFLAGS) $(DISSECTOR_ASAN_FLAGS) -o $@ $^ $(WIRESHARK_LIBS)
-include $(wildcard $(BUILD)/asan-pic/*/*.d $(BUILD)/asan-pic/*/*/*.d)

CHECK_DEPS += $(DISSECTOR_PLUGIN) $(DISSECTOR_GEN) $(DISSECTOR_ASAN_PLUGIN)
CHECK_SUITES += test/dissectors/test_dissector_decode.sh \
	test/dissectors/test_dissector_analysis.sh \
	test/dissectors/test_dissector_fuzz.sh

.PHONY: dissectors
dissectors: $(DISSECTOR_PLUGIN) $(DISSECTOR_GEN) $(DISSECTOR_ASAN_PLUGIN)

INSTALL_TARGETS += install-dissectors
.PHONY: install-dissectors
install-dissectors: $(DISSECTOR_PLUGIN)
	install -d $(DESTDIR)$(WIRESHARK_PLUGINDIR)/epan
	install -m 0755 $(DISSECTOR_PLUGIN) $(DESTDIR)$(WIRESHARK_PLUGINDIR)/epan/

# Benchmark: tshark with and without the plugin on a large generated capture.
BENCH_TARGETS += bench-dissector
.PHONY: bench-dissector
bench-dissector: $(DISSECTOR_PLUGIN) $(DISSECTOR_GEN)
	DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/dissectors/bench-dissector.sh
