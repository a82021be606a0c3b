# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-tools top-level build (GNU make, non-recursive).
#
#   make              build everything into build/
#   make check        build, then run every test suite (closing line "N passed, N failed";
#                     the test programs are built beside the first suites)
#   make check-under-load  the same with every CPU busy (a busy loop per CPU)
#   make demo         the main job: a short stream, a report and plots
#   make bench        benchmarks (not part of check); results under build/bench/
#   make fuzz         libFuzzer harnesses, FUZZ_SECONDS each (default 60)
#   make deps         install the Debian packages the project needs (root)
#   make install      PREFIX=/usr/local DESTDIR=... (the plugin too; see docs/development.md)
#   make uninstall    the same PREFIX and DESTDIR: removes what install wrote
#   make install-user the Wireshark plugin into the personal folder (no root)
#   make SAN=1 check  the same with ASan + UBSan (in build/san/)
#
# Each top-level folder contributes a module.mk that appends to the lists below.

.DEFAULT_GOAL := all
SHELL := /bin/bash

# make check (and check-under-load, check-part) builds with a job per CPU when no -j was given:
# a fresh clone's build is some 75 s of CPU, which one job would spend on one core of two.
ifneq ($(filter check check-under-load check-part,$(MAKECMDGOALS)),)
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif
endif

include mk/config.mk

PROGRAMS :=
LIBRARIES :=
CHECK_DEPS :=
CHECK_ALONE_DEPS :=
CHECK_SUITES :=
INSTALL_TARGETS :=
INSTALLED_FILES :=
INSTALLED_DIRS :=
BENCH_TARGETS :=
SOAK_TARGETS :=
FUZZ_TARGETS :=
CLEAN_EXTRA :=

include $(sort $(wildcard */module.mk */*/module.mk))

DEPS_OK := $(BUILD)/.deps-ok

.PHONY: all check check-under-load check-part deps deps-check install uninstall bench soak fuzz demo \
	clean format \
	format-check man-options

all: $(DEPS_OK) $(LIBRARIES) $(PROGRAMS)

# The quick dependency check runs once per build folder; 'make deps' redoes it. A plain make
# needs the build dependencies only; make check and make demo also the tools they run.
$(DEPS_OK): mk/deps.sh
	@mk/deps.sh check
	@mkdir -p $(@D) && touch $@
DEPS_ALL_OK := $(BUILD)/.deps-all-ok
$(DEPS_ALL_OK): mk/deps.sh
	@mk/deps.sh check-all
	@mkdir -p $(@D) && touch $@

deps:
	@mk/deps.sh install
	@rm -f $(DEPS_OK) $(DEPS_ALL_OK)

deps-check:
	@mk/deps.sh check-all

# SUITES=pattern runs only the suites whose path contains the pattern.
# The test programs (CHECK_DEPS) are built by the driver, beside the suites that run alone, which
# need only CHECK_ALONE_DEPS (test/run-suites.sh, docs/development.md).
check: all $(DEPS_ALL_OK) $(CHECK_ALONE_DEPS)
	@DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) SAN=$(SAN) \
		DGR_TEST_BUILD='$(MAKE) --no-print-directory $(CHECK_DEPS)' \
		test/run-suites.sh $(if $(SUITES),--only '$(SUITES)') $(CHECK_SUITES)

# The same with every CPU kept busy by a busy loop: a suite that fails only here depends on
# timing luck (docs/development.md).
check-under-load: all $(DEPS_ALL_OK) $(CHECK_DEPS)
	@DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) SAN=$(SAN) test/under-load.sh \
		test/run-suites.sh $(if $(SUITES),--only '$(SUITES)') $(CHECK_SUITES)

# Run only the suites whose path names PART: make check-part PART=fpga. Everything is
# built first: a part's suites also run other parts' programs (the stack's run the emulator).
check-part: $(DEPS_OK) $(DEPS_ALL_OK)
	@test -n "$(PART)" || { echo "usage: make check-part PART=NAME" >&2; exit 2; }
	@$(MAKE) --no-print-directory all $(CHECK_DEPS)
	@DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) SAN=$(SAN) \
		test/run-suites.sh --only '$(PART)' $(CHECK_SUITES)

bench: all $(BENCH_TARGETS)

# Long runs that count rare failures (make soak, not check): docs/reliability.md.
soak: all $(SOAK_TARGETS)

fuzz: $(FUZZ_TARGETS)

install: all $(INSTALL_TARGETS)

# Removes every file install wrote (INSTALLED_FILES of each module.mk), then the folders of
# ours left empty; with the same PREFIX, DESTDIR (and WIRESHARK_PLUGINDIR) as install.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED_FILES))
	-@for d in $(addprefix $(DESTDIR),$(INSTALLED_DIRS)); do rmdir "$$d" 2>/dev/null; done; true

# The main job: as root it first installs what is missing; then builds and runs.
demo:
	@if [ "$$(id -u)" = 0 ]; then mk/deps.sh install; else mk/deps.sh check-all; fi
	@$(MAKE) --no-print-directory -j2 all
	@DGR_BUILD=$(abspath $(BUILD)) DGR_SRC=$(CURDIR) test/demo.sh

FORMAT_SOURCES = $(shell git ls-files '*.c' '*.h' 2>/dev/null)
format:
	clang-format -i $(FORMAT_SOURCES)

format-check:
	@clang-format --dry-run --Werror $(FORMAT_SOURCES)

# The OPTIONS section of every man page that says it comes from its tool's option table
# (a line '.\" OPTIONS: generated from the option table'), written from
# TOOL --list-options --man (mk/man-options.sh); test/cli/option_tables.sh checks them.
man-options: all
	@for page in $$(grep -rlx --include='*.1' --exclude-dir=build \
		'\.\\" OPTIONS: generated from the option table (make man-options)' .); do \
		mk/man-options.sh "$$page" "$(BUILD)/bin/$$(basename "$$page" .1)" || exit 1; \
	done

clean:
	rm -rf build $(CLEAN_EXTRA)

-include $(shell find $(BUILD)/obj $(BUILD)/pic -name '*.d' 2>/dev/null)
