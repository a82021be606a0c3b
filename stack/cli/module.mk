# SPDX-License-Identifier: GPL-2.0-or-later
# libdgrcli.a: what the tools share and the installed library does not carry: command-line
# values and exit statuses (cli.h), the scheduling and transport options
# (transport_opts.h), --ready-file, the print layer (print.h) and dgrdma-ctl's property map
# (prop_map.h). Linked by every program of the project before libdgrdma.a; not installed
# (LIBDGRCLI_A: mk/config.mk).

CLI_SRCS := $(wildcard stack/cli/*.c)
LIBRARIES += $(LIBDGRCLI_A)

$(LIBDGRCLI_A): $(call objs,$(CLI_SRCS))
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

stack: $(LIBDGRCLI_A)

# Bash completion, made at build time from a tool's option table (opts.h) by
# mk/completion.sh reading TOOL --list-options; a part adds its tools' files to `all` and
# installs them into COMPLETIONDIR (mk/config.mk).
$(BUILD)/completion/%: $(BUILD)/bin/% mk/completion.sh
	@mkdir -p $(@D)
	mk/completion.sh $* $< >$@.tmp && mv -f $@.tmp $@
