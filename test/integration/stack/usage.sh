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
# --peer-kind: a bad value is named with what is accepted; --acks toward an FPGA (the default
# kind) is told that no ACK-only frame is sent, and why; toward a host it is not
"$HOST" rx --peer-kind board --udp --peer 127.0.0.1:9 >"$STK_TMP/kind.out" 2>&1
check_eq "$?/$(cat "$STK_TMP/kind.out")" "2/dgrdma-host: --peer-kind: 'board' is not fpga or host" \
	"--peer-kind: a bad value is refused, exit 2"
"$HOST" rx --acks --udp --bind 127.0.0.1:0 --peer 127.0.0.1:9 --duration 0.01 --idle-timeout 0 \
	--quiet >/dev/null 2>"$STK_TMP/acks.err"
check "--acks toward an FPGA: dgrdma-host says no ACK-only frame is sent, and why" \
	grep -q "note: --acks toward an FPGA (--peer-kind fpga, the default): the ACKs ride only on frames with messages, no ACK-only frame is sent. OpenCPI's frame parser reads an ACK-only frame's padding as a frame 0" \
	"$STK_TMP/acks.err"
"$HOST" rx --acks --peer-kind host --udp --bind 127.0.0.1:0 --peer 127.0.0.1:9 --duration 0.01 \
	--idle-timeout 0 --quiet >/dev/null 2>"$STK_TMP/acks-host.err"
check_eq "$(grep -c 'note: --acks' "$STK_TMP/acks-host.err")" 0 "--acks --peer-kind host: no note"
done_testing
