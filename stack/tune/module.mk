# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-tune and libdgrtune: the host settings of the tuning guide (issue 9). libdgrtune.a
# and its header tune.h (beside the code) are internal: dgrdma-tune and latency-report
# --advise link them; neither is installed.

TUNE_LIB_SRCS := $(filter-out stack/tune/dgrdma-tune.c,$(wildcard stack/tune/*.c))
LIBDGRTUNE_A := $(BUILD)/lib/libdgrtune.a
LIBRARIES += $(LIBDGRTUNE_A)
TUNE_LIBS := -lz
# libdgrtune prints through the tools' print layer (stack/cli/); stack/module.mk is read
# after this file.
TUNE_LIBDGRDMA := $(LIBDGRCLI_A) $(BUILD)/lib/libdgrdma.a

$(LIBDGRTUNE_A): $(call objs,$(TUNE_LIB_SRCS))
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

PROGRAMS += $(BUILD)/bin/dgrdma-tune
$(BUILD)/bin/dgrdma-tune: $(call objs,stack/tune/dgrdma-tune.c) $(LIBDGRTUNE_A) $(TUNE_LIBDGRDMA)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(TUNE_LIBS)

TUNE_UNIT := $(BUILD)/test/tune/test_tune_parse
$(TUNE_UNIT): $(call objs,test/tune/test_tune_parse.c) $(LIBDGRTUNE_A) $(TUNE_LIBDGRDMA)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(TUNE_LIBS)

CHECK_DEPS += $(BUILD)/bin/dgrdma-tune $(TUNE_UNIT)
CHECK_SUITES += $(TUNE_UNIT) test/tune/test_tune_check.sh test/tune/test_tune_apply.sh \
	test/tune/test_tune_netns.sh

.PHONY: tune install-tune
INSTALLED_FILES += $(BINDIR)/dgrdma-tune $(MANDIR)/man1/dgrdma-tune.1 \
	$(COMPLETIONDIR)/dgrdma-tune
tune: $(LIBDGRTUNE_A) $(BUILD)/bin/dgrdma-tune $(TUNE_UNIT)
# its bash completion, from its option table (stack/cli/module.mk)
all: $(BUILD)/completion/dgrdma-tune

INSTALL_TARGETS += install-tune
install-tune: $(BUILD)/bin/dgrdma-tune $(BUILD)/completion/dgrdma-tune
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPLETIONDIR)
	install -m 0644 $(BUILD)/completion/dgrdma-tune $(DESTDIR)$(COMPLETIONDIR)/
	install -m 0755 $(BUILD)/bin/dgrdma-tune $(DESTDIR)$(BINDIR)/
	install -m 0644 stack/tune/dgrdma-tune.1 $(DESTDIR)$(MANDIR)/man1/

# libFuzzer harness over every file the checks parse (make fuzz, FUZZ_SECONDS each).
FUZZ_TUNE := $(BUILD)/fuzz/fuzz_tune
FUZZ_TARGETS += fuzz-tune
$(FUZZ_TUNE): $(call fuzz_objs,test/tune/fuzz_tune.c $(TUNE_LIB_SRCS) stack/cli/print.c \
		stack/cli/cli.c stack/src/errbuf.c)
	@mkdir -p $(@D)
	$(FUZZ_LINK) $^ -lz
.PHONY: fuzz-tune
fuzz-tune: $(FUZZ_TUNE)
	@mkdir -p $(BUILD)/fuzz/corpus-tune
	$(FUZZ_TUNE) -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
		$(BUILD)/fuzz/corpus-tune test/tune/fuzz-seeds
