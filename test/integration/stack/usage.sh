#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-host's --peer-kind and --acks: a bad kind is named with what is accepted, and --acks
# toward an FPGA gets its note.
. "$DGR_SRC/test/integration/stack/lib.sh"
trap stk_cleanup_tmp EXIT

# That usage() lists every option of the tool's table is checked by test/cli/option_tables.sh
# (the option tables: --help, the man page, the completion and the parser agree).

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
