#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# libdgrdma-preload.so is invisible to the application it traces: preload-calls prints every
# socket call's result (return value, errno, msg_flags, control messages, addresses, bytes)
# and its output under the library, recorded by 'dgrdma-capture --preload', must be the same
# line for line as without it. The trace then holds the dgrdma events of what passed: one
# txn_complete per whole data transaction received, one doorbell_sent per doorbell (answering
# the transactions in order), one frame_tx per frame sent, the truncated receive as malformed,
# and the doorbells sent as DCP writes on UDP sockets of their own paired by the peer they go to.

set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/tracepoints/lttng-env.sh"
tp_isolate "$@" || { not_ok "private lttng run folder"; done_testing; exit 1; }

CAPTURE=$DGR_BUILD/bin/dgrdma-capture
# make SAN=1: the library and the program both carry ASan, whose runtime then is not first in
# the list of libraries (LD_PRELOAD comes before the program's own); checked clean so.
[ "${SAN:-0}" = 1 ] && export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
CALLS=$DGR_BUILD/test/tracepoints/preload-calls
LIB=$DGR_BUILD/lib/libdgrdma-preload.so
WORK=$(mktemp -d)
cleanup() {
	tp_lttng_teardown
	rm -rf "$WORK"
}
trap cleanup EXIT
# Ports of the tracer's list (DGR_PRELOAD_UDP_PORTS), unique to this run: the FPGA's too, the
# destination of the DCP sockets' writes.
PORT_H=$((30000 + $$ % 2000 * 2))
PORT_F=$((PORT_H + 1))
export DGR_PRELOAD_UDP_PORTS="$PORT_H,$PORT_F"

if ! "$CALLS" "$PORT_H" "$PORT_F" >"$WORK/plain.txt" 2>"$WORK/plain.err"; then
	not_ok "preload-calls runs without the library"
	sed 's/^/# /' "$WORK/plain.err"
	done_testing
	exit 1
fi
ok "preload-calls runs without the library ($(wc -l <"$WORK/plain.txt") lines)"
LD_PRELOAD=$LIB "$CALLS" "$PORT_H" "$PORT_F" >"$WORK/pre.txt" 2>"$WORK/pre.err"
check_eq "$?" 0 "preload-calls runs under the library"
if diff "$WORK/plain.txt" "$WORK/pre.txt" >"$WORK/diff.txt"; then
	ok "every call's result is the same with and without the library"
else
	not_ok "every call's result is the same with and without the library"
	sed 's/^/# /' "$WORK/diff.txt"
fi
# The checks above would pass if the library traced nothing: these say it traced the socket.
check "the run has the application's own control messages to compare" \
	grep -q 'cmsg=0/8/28' "$WORK/plain.txt"
check "and an empty control buffer that the timestamp would have truncated" \
	grep -q '^5 recvmsg ret=100 errno=0 flags=0 ' "$WORK/plain.txt"

if ! tp_lttng_setup; then
	skip "$TP_LTTNG_WHY"
	done_testing
	exit 0
fi
RUN=$WORK/run
env --default-signal=INT "$CAPTURE" -o "$RUN" --no-pcap --all-events --only-command --preload \
	-- "$CALLS" "$PORT_H" "$PORT_F" >"$WORK/traced.txt" 2>"$WORK/capture.err"
check_eq "$?" 0 "dgrdma-capture --preload runs preload-calls"
sed 's/^/# /' "$WORK/capture.err"
if diff "$WORK/plain.txt" "$WORK/traced.txt" >"$WORK/diff2.txt"; then
	ok "recorded by dgrdma-capture --preload: the same results"
else
	not_ok "recorded by dgrdma-capture --preload: the same results"
	sed 's/^/# /' "$WORK/diff2.txt"
fi
babeltrace2 "$RUN/trace" >"$WORK/trace.txt" 2>"$WORK/bt.err"
check_eq "$?" 0 "babeltrace2 reads the trace"
# the DCP-write doorbells (to 0x100018) apart: checked at the end
grep -v ' dgrdma:doorbell_sent: .*flag_addr = 0x100018,' "$WORK/trace.txt" >"$WORK/flag.txt"
count() {
	grep -c " dgrdma:$1: " "$WORK/flag.txt"
}
read -r _ frames _ doorbells _ txns < <(tail -n1 "$WORK/plain.txt")
check_eq "$(count txn_complete)" "$((txns - 1))" \
	"one txn_complete per data transaction received whole ($txns sent, one cut by recv-short)"
check_eq "$(count malformed)" 1 "the cut one is malformed (16 bytes of 100 read)"
check_eq "$(count doorbell_sent)" "$doorbells" "one doorbell_sent per doorbell"
# the FPGA's socket sends to a DG-RDMA port too: traced as the second connection
check_eq "$(grep -c ' dgrdma:frame_tx: .*{ conn = 0,' "$WORK/trace.txt")" "$frames" \
	"one frame_tx per frame the host sent (conn 0)"
check_eq "$(grep -c ' dgrdma:frame_tx: .*{ conn = 1,' "$WORK/trace.txt")" "$txns" \
	"one frame_tx per frame the FPGA socket sent (conn 1)"
check_eq "$(grep -c ' dgrdma:txn_sent: .*{ conn = 1,' "$WORK/trace.txt")" "$txns" \
	"one txn_sent per transaction the FPGA socket sent"
check_eq "$(grep ' dgrdma:doorbell_sent: ' "$WORK/flag.txt" | sed 's/.*txn_id = \([0-9]*\),.*/\1/' |
	tr '\n' ' ')" "100 101 102 103 " "the doorbells answer the first transactions, in order"
check_eq "$(grep ' dgrdma:doorbell_sent: ' "$WORK/flag.txt" | sed 's/.*flag_addr = \(0x[0-9A-Fa-f]*\),.*/\1/' |
	tr '\n' ' ')" "0x20000 0x20004 0x20008 0x2000C " "each with the flag address it wrote"
# the kernel's receive time of the completing frame: before the event, within the run
bad=$(grep ' dgrdma:txn_complete: ' "$WORK/trace.txt" |
	sed 's/.*wait_receive_ns = \([0-9]*\), arrival_ns = \([0-9]*\).*/\1 \2/' |
	awk '$2 == 0 || $1 > 1000000000 { n++ } END { print n + 0 }')
check_eq "$bad" 0 "every txn_complete has the frame's arrival, less than 1 s before it"
# latency_ns: from the answered transaction's arrival to the hand-over, never 0 when it answers
# one; the application's consumer is not seen: its side 0 (consumer_tid 0, unknown); the
# completion is the library's own txn_complete (since_complete_ns 0)
check_eq "$(grep -c ' dgrdma:doorbell_sent: .*, latency_ns = [1-9][0-9]*, since_release_ns = 0, held_ns = 0, consumer_tid = 0, since_complete_ns = 0 }$' "$WORK/flag.txt")" \
	"$doorbells" "every doorbell_sent answering a transaction carries its latency_ns (> 0), no consumer's side, no completion"
# The DCP sockets (conn 2: connected to the FPGA's address; conn 3: to 127.0.0.2): the write to
# the FPGA's address answers the oldest transaction the host's socket (conn 0, which receives
# from that address) has not answered, 104 (buffer 0), under that socket's conn, with its
# latency; the one to 127.0.0.2, from which no stream comes, and the one after the host's
# socket closed answer none (txn_id 0xFFFFFFFF, buffer 0xFFFF) on their own socket's conn.
dcp_bells=$(grep ' dgrdma:doorbell_sent: .*flag_addr = 0x100018,' "$WORK/trace.txt" |
	sed 's/.*{ conn = \([0-9]*\), buffer = \([0-9]*\), txn_id = \([0-9]*\),.*latency_ns = \([0-9]*\),.*}$/\1\/\2\/\3\/\4/' |
	awk -F/ '{ printf "%s/%s/%s/%s ", $1, $2, $3, ($4 > 0 ? "latency" : 0) }')
check_eq "$dcp_bells" "0/0/104/latency 3/65535/4294967295/0 2/65535/4294967295/0 " \
	"DCP-write doorbells on sockets of their own: paired with the stream from their peer, else none"
done_testing
