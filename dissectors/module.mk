# SPDX-License-Identifier: GPL-2.0-or-later
# The Wireshark epan plugin: DCP and DG-RDMA dissectors, doorbell analysis,
# the dgrdma,latency statistics tap and the dcp,srt response-time table.
#
# Built as $(BUILD)/plugins/X.Y/epan/dgrdma.so (X.Y: the Wireshark version pkg-config gives,
# e.g. 4.0) so that tests can run tshark with WIRESHARK_PLUGIN_DIR=$(BUILD)/plugins and touch
# nothing outside the tree.
#
# Installed (docs/development.md, "Install"):
#   make install          $(WIRESHARK_PLUGINDIR)/epan: Wireshark's own global folder when
#                         PREFIX is Wireshark's prefix (/usr), else $(LIBDIR)/wireshark/plugins/X.Y
#                         (tshark does not look there: point WIRESHARK_PLUGIN_DIR at its parent)
#   make install-user     the personal folder ~/.local/lib/wireshark/plugins/X.Y/epan

WIRESHARK_CFLAGS := $(shell $(PKG_CONFIG) --cflags wireshark 2>/dev/null)
WIRESHARK_LIBS := $(shell $(PKG_CONFIG) --libs wireshark 2>/dev/null)
WIRESHARK_VERSION := $(shell $(PKG_CONFIG) --modversion wireshark 2>/dev/null)
# plugins live in a folder named after the major.minor version
WIRESHARK_PLUGIN_VER := $(or $(shell echo '$(WIRESHARK_VERSION)' | cut -s -d. -f1,2),unknown)
WIRESHARK_PREFIX := $(shell $(PKG_CONFIG) --variable=prefix wireshark 2>/dev/null)
ifeq ($(abspath $(PREFIX)),$(WIRESHARK_PREFIX))
WIRESHARK_GLOBAL_PLUGINDIR := $(shell $(PKG_CONFIG) --variable=plugindir wireshark 2>/dev/null)
WIRESHARK_PLUGINDIR ?= $(WIRESHARK_GLOBAL_PLUGINDIR)
else
WIRESHARK_PLUGINDIR ?= $(LIBDIR)/wireshark/plugins/$(WIRESHARK_PLUGIN_VER)
endif
WIRESHARK_USER_PLUGINDIR = $(HOME)/.local/lib/wireshark/plugins/$(WIRESHARK_PLUGIN_VER)
# Wireshark's own headers are not -Wconversion clean: include them as system headers.
CFLAGS_dissectors += $(patsubst -I%,-isystem %,$(WIRESHARK_CFLAGS))
# The analysis engine's headers, by name (analysis/module.mk).
CFLAGS_dissectors += -Ianalysis/engine

DISSECTOR_SRCS := $(wildcard dissectors/*.c)
DISSECTOR_PLUGIN := $(BUILD)/plugins/$(WIRESHARK_PLUGIN_VER)/epan/dgrdma.so
LIBRARIES += $(DISSECTOR_PLUGIN)

# The project's own code is linked in: the codec (wire.c, dcp.c) for validation and DCP
# classification, the reassembler (reassembly.c) for the transaction analysis, and the
# analysis engine latency-report runs (libdgrengine_pic.a, analysis/module.mk: the matcher,
# the connection table, the rules, the percentiles).
DISSECTOR_STACK_SRCS := stack/src/wire.c stack/src/dcp.c stack/src/reassembly.c stack/src/stats.c
$(DISSECTOR_PLUGIN): $(call pic_objs,$(DISSECTOR_SRCS) $(DISSECTOR_STACK_SRCS)) $(LIBDGRENGINE_PIC_A)
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
# system tshark with LD_PRELOAD of the sanitizer runtimes. The engine's sources are built into
# it with the sanitizers, as the rest.
DISSECTOR_ASAN_PLUGIN := $(BUILD)/plugins-asan/$(WIRESHARK_PLUGIN_VER)/epan/dgrdma.so
DISSECTOR_ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer
$(BUILD)/asan-pic/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CFLAGS_$(firstword $(subst /, ,$<))) $(DISSECTOR_ASAN_FLAGS) -fPIC \
		-MMD -MP -c -o $@ $<
$(DISSECTOR_ASAN_PLUGIN): $(patsubst %.c,$(BUILD)/asan-pic/%.o,$(DISSECTOR_SRCS) $(DISSECTOR_STACK_SRCS) \
		$(ANALYSIS_ENGINE_SRCS))
	@mkdir -p $(@D)
	$(CC) -shared $(ALL_LDFLAGS) $(DISSECTOR_ASAN_FLAGS) -o $@ $^ $(WIRESHARK_LIBS)
-include $(wildcard $(BUILD)/asan-pic/*/*.d $(BUILD)/asan-pic/*/*/*.d)

CHECK_DEPS += $(DISSECTOR_PLUGIN) $(DISSECTOR_GEN) $(DISSECTOR_ASAN_PLUGIN)
CHECK_SUITES += test/dissectors/test_dissector_decode.sh \
	test/dissectors/test_dissector_analysis.sh test/dissectors/test_snap_headers.sh \
	test/dissectors/test_dissector_fuzz.sh test/dissectors/test_dissector_gui.sh

.PHONY: dissectors
dissectors: $(DISSECTOR_PLUGIN) $(DISSECTOR_GEN) $(DISSECTOR_ASAN_PLUGIN)

INSTALL_TARGETS += install-dissectors
INSTALLED_FILES += $(WIRESHARK_PLUGINDIR)/epan/dgrdma.so
# Wireshark's own global folder belongs to its package: never removed
# (folders are removed only when empty, innermost first)
INSTALLED_DIRS += $(if $(filter $(WIRESHARK_GLOBAL_PLUGINDIR),$(WIRESHARK_PLUGINDIR)),,\
	$(WIRESHARK_PLUGINDIR)/epan $(WIRESHARK_PLUGINDIR) \
	$(if $(filter $(LIBDIR)/wireshark/%,$(WIRESHARK_PLUGINDIR)),\
		$(LIBDIR)/wireshark/plugins $(LIBDIR)/wireshark))

# The Wireshark configuration profile "DG-RDMA" (docs/dissector.md "The DG-RDMA profile"):
# into Wireshark's global profiles folder when PREFIX is Wireshark's prefix (every user
# finds it under Edit > Configuration Profiles), else into $(DATADIR)/profiles (copy it to
# ~/.config/wireshark/profiles, or make install-user). WIRESHARK_PROFILESDIR overrides.
PROFILE_FILES := preferences recent colorfilters io_graphs
PROFILE_SRCS := $(addprefix dissectors/profile/DG-RDMA/,$(PROFILE_FILES))
ifeq ($(abspath $(PREFIX)),$(WIRESHARK_PREFIX))
WIRESHARK_GLOBAL_PROFILESDIR := $(WIRESHARK_PREFIX)/share/wireshark/profiles
WIRESHARK_PROFILESDIR ?= $(WIRESHARK_GLOBAL_PROFILESDIR)
else
WIRESHARK_PROFILESDIR ?= $(DATADIR)/profiles
endif
WIRESHARK_USER_PROFILESDIR = $(HOME)/.config/wireshark/profiles
INSTALLED_FILES += $(addprefix $(WIRESHARK_PROFILESDIR)/DG-RDMA/,$(PROFILE_FILES))
# Wireshark's global profiles folder belongs to its package: only DG-RDMA is ours.
# $(DATADIR) again after its profiles folder: uninstall removes folders in this list's order,
# and analysis/module.mk's $(DATADIR) came before it.
INSTALLED_DIRS += $(WIRESHARK_PROFILESDIR)/DG-RDMA \
	$(if $(filter $(WIRESHARK_GLOBAL_PROFILESDIR),$(WIRESHARK_PROFILESDIR)),,$(WIRESHARK_PROFILESDIR)) \
	$(if $(filter $(DATADIR)/%,$(WIRESHARK_PROFILESDIR)),$(DATADIR))

.PHONY: install-dissectors install-user uninstall-user
install-dissectors: $(DISSECTOR_PLUGIN)
	install -d $(DESTDIR)$(WIRESHARK_PLUGINDIR)/epan
	install -m 0755 $(DISSECTOR_PLUGIN) $(DESTDIR)$(WIRESHARK_PLUGINDIR)/epan/
	install -d $(DESTDIR)$(WIRESHARK_PROFILESDIR)/DG-RDMA
	install -m 0644 $(PROFILE_SRCS) $(DESTDIR)$(WIRESHARK_PROFILESDIR)/DG-RDMA/

# The personal plugin folder: Wireshark and tshark of this user load it, no root needed;
# and the profile in the personal profiles folder (Wireshark's status bar: Profile).
install-user: $(DISSECTOR_PLUGIN)
	install -d $(DESTDIR)$(WIRESHARK_USER_PLUGINDIR)/epan
	install -m 0755 $(DISSECTOR_PLUGIN) $(DESTDIR)$(WIRESHARK_USER_PLUGINDIR)/epan/
	@echo "installed $(DESTDIR)$(WIRESHARK_USER_PLUGINDIR)/epan/dgrdma.so"
	install -d $(DESTDIR)$(WIRESHARK_USER_PROFILESDIR)/DG-RDMA
	install -m 0644 $(PROFILE_SRCS) $(DESTDIR)$(WIRESHARK_USER_PROFILESDIR)/DG-RDMA/
	@echo "installed the profile $(DESTDIR)$(WIRESHARK_USER_PROFILESDIR)/DG-RDMA"

uninstall-user:
	rm -f $(DESTDIR)$(WIRESHARK_USER_PLUGINDIR)/epan/dgrdma.so
	-rmdir $(DESTDIR)$(WIRESHARK_USER_PLUGINDIR)/epan $(DESTDIR)$(WIRESHARK_USER_PLUGINDIR) 2>/dev/null
	rm -f $(addprefix $(DESTDIR)$(WIRESHARK_USER_PROFILESDIR)/DG-RDMA/,$(PROFILE_FILES))
	-rmdir $(DESTDIR)$(WIRESHARK_USER_PROFILESDIR)/DG-RDMA 2>/dev/null

# Benchmark: tshark with and without the plugin on a large generated capture.
BENCH_TARGETS += bench-dissector
.PHONY: bench-dissector
bench-dissector: $(DISSECTOR_PLUGIN) $(DISSECTOR_GEN)
	DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/dissectors/bench-dissector.sh
