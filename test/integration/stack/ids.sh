#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Endpoint ids (docs/stack.md): a host whose --peer-id does not match the FPGA's local_src_id
# drops every frame of the stream; it must say so once, early, naming the ids it sees and what
# would accept them, and its stall message must say it again. Over UDP on 127.0.0.1.
. "$DGR_SRC/test/integration/stack/lib.sh"
trap 'jobs -p | xargs -r kill 2>/dev/null; stk_cleanup_tmp' EXIT
T=$STK_TMP
stk_ports 5
"$HOST" rx --udp --bind "127.0.0.1:$STK_P2" --peer "127.0.0.1:$STK_P1" --peer-id 5 \
	--idle-timeout 2 --quiet --summary-json "$T/rx.json" 2>"$T/rx.err" &
rx=$!
dgr_wait_listening $rx dgrdma-host --udp
"$FPGA" --udp --bind "127.0.0.1:$STK_P1" --peer "127.0.0.1:$STK_P2" --mode adc --sample-rate 2e6 \
	--duration 1 --quiet
wait $rx
check "a stream dropped for its ids ends non-zero ($?)" test "$?" -ne 0
check_eq "$(grep -c 'frames dropped, none accepted: they carry dst_id 0 (offset 0) and src_id 1 (offset 2)' "$T/rx.err")" 1 \
	"said once, naming the ids the frames carry"
check "and what would accept them (--peer-id 1, or the FPGA's local_src_id 5)" \
	grep -q 'Run with --id 0 --peer-id 1, or set the FPGA.s remote_dst_id to 0 and local_src_id to 5' "$T/rx.err"
check "the stall message names the ids too" grep -q 'stalled: no DG-RDMA frame from --peer .* was accepted in the whole run (.*) on .*: every frame ([0-9]*) was dropped for its endpoint ids' "$T/rx.err"
check_eq "$(jq -r .counters.frames_accepted "$T/rx.json")" 0 "no frame accepted"
done_testing
