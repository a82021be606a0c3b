#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# usage() of dgrdma-host, dgrdma-ctl and dgrdma-fpga lists every long option of the
# program's option table (the transport's shared options included), so that a new knob
# cannot be added without being documented where users look first.
. "$DGR_SRC/test/integration/stack/lib.sh"

long_options() { # SOURCE -> the long option names of its option table
	grep -o '{ "[a-z0-9-]*", *[a-z_]*_argument' "$1" | cut -d'"' -f2
}

missing_options() { # USAGE_FILE SOURCE... -> the options no line of the usage names
	local usage=$1 missing=""
	shift
	for o in $(for src in "$@"; do long_options "$src"; done); do
		grep -qE -- "--$o([^a-z0-9-]|$)" "$usage" || missing="$missing --$o"
	done
	echo "${missing# }"
}

TRANSPORT_H="$DGR_SRC/stack/include/dgrdma/transport.h"
"$HOST" rx --help >"$STK_TMP/host.usage" 2>&1
check_eq "$(missing_options "$STK_TMP/host.usage" "$DGR_SRC/stack/tools/host/options.c" "$TRANSPORT_H")" \
	"" "dgrdma-host: usage lists every long option ($(long_options "$DGR_SRC/stack/tools/host/options.c" | wc -l) + the transport's)"
"$CTL" --help >"$STK_TMP/ctl.usage" 2>&1
check_eq "$(missing_options "$STK_TMP/ctl.usage" "$DGR_SRC/stack/tools/dgrdma-ctl.c" "$TRANSPORT_H")" \
	"" "dgrdma-ctl: usage lists every long option"
"$FPGA" --help >"$STK_TMP/fpga.usage" 2>&1
check_eq "$(missing_options "$STK_TMP/fpga.usage" "$DGR_SRC/fpga/main.c" "$TRANSPORT_H")" \
	"" "dgrdma-fpga: usage lists every long option"
# the check finds an option that is in the table but not in the usage
printf '%s\n' '{ "no-such-knob", no_argument, NULL, 1 },' >"$STK_TMP/fake.c"
check_eq "$(missing_options "$STK_TMP/host.usage" "$STK_TMP/fake.c")" "--no-such-knob" \
	"an option missing from the usage is reported"
done_testing
