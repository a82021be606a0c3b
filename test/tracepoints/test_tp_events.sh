#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every event of providers dgrdma and dgrdma_fpga, fired once by tp-fire under a real LTTng
# session, is read back by babeltrace2 with every field and the exact value tp-fire gave.
# Also: the -DDGR_NO_TRACE build links no lttng-ust and records nothing.

set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/tracepoints/lttng-env.sh"
tp_isolate "$@" || { not_ok "private lttng run folder"; done_testing; exit 1; }

FIRE=$DGR_BUILD/test/tracepoints/tp-fire
FIRE_NOTRACE=$DGR_BUILD/test/tracepoints/tp-fire-notrace
WORK=$(mktemp -d)
SESSION="tp-events-$$"
cleanup() {
	lttng destroy "$SESSION" >/dev/null 2>&1
	tp_lttng_teardown
	rm -rf "$WORK"
}
trap cleanup EXIT

# Expected text of each event's payload, as babeltrace2 prints it: "provider:event" TAB fields.
# The counters event of dgrdma has one field per struct dgr_conn_stats member, value 1000 + i.
stats_names=$(sed -n 's/^[[:space:]]*X(\([a-z_0-9]*\)).*/\1/p' \
	"$DGR_SRC/stack/include/dgrdma/stats.h")
counters="conn = 7"
i=1000
for name in $stats_names; do
	counters="$counters, $name = $i"
	i=$((i + 1))
done
EXPECTED=$(cat <<EOT
dgrdma:thread_start	role = 2, conn = 7, tid = 12345, policy = 1, priority = 50, nice = -5, cpuset = 0x8000000000000003
dgrdma:frame_rx	conn = 7, frame_seq = 65535, bytes = 4294967295, msgs = 300, ack_start = 65534, ack_count = 255
dgrdma:frame_tx	conn = 7, frame_seq = 1, bytes = 8000, msgs = 2, ack_start = 3, ack_count = 4, retransmit = 1
dgrdma:txn_complete	conn = 7, txn_id = 4000000000, buffer = 9, bytes = 65536, opcode = 1, flag_addr = 0xDEADBEEF, frame_seq = 10, wait_receive_ns = 12345678901, arrival_ns = 23456789012
dgrdma:buffer_acquire	conn = 7, buffer = 11, txn_id = 12
dgrdma:buffer_release	conn = 7, buffer = 13, txn_id = 14, held_ns = 45678901234
dgrdma:doorbell_queued	conn = 7, buffer = 15, txn_id = 16, flag_addr = 0x11
dgrdma:doorbell_sent	conn = 7, buffer = 18, txn_id = 19, flag_addr = 0x14, frame_seq = 21, send_call_ns = 22, latency_ns = 34567890123, since_release_ns = 5678901234, held_ns = 6789012345, consumer_tid = -33, since_complete_ns = 7890123456
dgrdma:doorbell_rx	conn = 7, buffer = 22, flag_addr = 0x17, frame_seq = 24
dgrdma:txn_sent	conn = 7, txn_id = 25, buffer = 26, bytes = 27, frame_seq = 28
dgrdma:ack_rx	conn = 7, ack_start = 29, ack_count = 30
dgrdma:ack_tx	conn = 7, ack_start = 31, ack_count = 32
dgrdma:retransmit	conn = 7, frame_seq = 33, attempt = 34
dgrdma:malformed	conn = 7, reason = 22, bytes = 35
dgrdma:socket_drop	conn = 7, drops = 36, total = 18446744073709551615
dgrdma:counters	$counters
dgrdma_fpga:thread_start	role = 4, conn = 0, tid = 54321, policy = 0, priority = 0, nice = 19, cpuset = 0x1
dgrdma_fpga:frame_rx	conn = 0, frame_seq = 100, bytes = 101, msgs = 102, ack_start = 103, ack_count = 104
dgrdma_fpga:frame_tx	conn = 0, frame_seq = 105, bytes = 106, msgs = 107, ack_start = 108, ack_count = 109, retransmit = 0
dgrdma_fpga:txn_sent	conn = 0, txn_id = 110, buffer = 111, bytes = 112, opcode = 4, frame_seq = 113
dgrdma_fpga:doorbell_rx	conn = 0, buffer = 114, flag_addr = 0x73, frame_seq = 116
dgrdma_fpga:drop_period	start_sample = 10000000000, count = 117
dgrdma_fpga:underrun	sample = 118
dgrdma_fpga:discontinuity	txn_id = 119, buffer = 120
dgrdma_fpga:counters	samples_produced = 201, dropped_samples = 202, num_dropped_samps = 203, discontinuities_sent = 204, transactions_sent = 205, doorbells_received = 206, num_underruns = 207, frames_rx = 208, frames_tx = 209
dgrdma:stream_config	conn = 7, direction = 1, buffers = 255, buffer_size = 2097152, peer_buffers = 64
dgrdma_fpga:stream_config	conn = 0, mode = 2, rate_sps = 10000000000, buffers = 8, buffer_size = 65536, host_buffers = 37
EOT
)

if ! tp_lttng_setup; then
	skip "$TP_LTTNG_WHY"
	done_testing
	exit 0
fi

# record FIRE_BINARY OUTDIR: runs the binary under a session enabling dgrdma*. Buffers are
# per user, and other programs of this user may fire dgrdma events meanwhile (other suites
# run in parallel): the filter keeps only tp-fire's.
record() {
	lttng create "$SESSION" --output="$2" >/dev/null &&
		lttng enable-event -u -s "$SESSION" 'dgrdma*' \
			--filter '$ctx.procname == "tp-fire*"' >/dev/null &&
		lttng start "$SESSION" >/dev/null &&
		"$1" --stream-config &&
		lttng stop "$SESSION" >/dev/null &&
		lttng destroy "$SESSION" >/dev/null
}

# babeltrace2 text -> "provider:event<TAB>payload" (drops timestamp, host and context).
payloads() {
	babeltrace2 "$1" | sed -n 's/^\[[^]]*\] ([^)]*) [^ ]* \([a-z_]*:[a-z_]*\): { cpu_id = [0-9]* }, { \(.*\) }$/\1\t\2/p'
}

check "tp-fire ran under an lttng session" record "$FIRE" "$WORK/trace"
GOT=$(payloads "$WORK/trace")
check_eq "$(echo "$GOT" | wc -l)" "$(echo "$EXPECTED" | wc -l)" "one event recorded per event fired (27)"
while IFS= read -r line; do
	event=${line%%	*}
	got_line=$(echo "$GOT" | grep -F -x -- "$line")
	if [ -n "$got_line" ]; then
		ok "$event: every field present with its exact value"
	else
		not_ok "$event: every field present with its exact value"
		diag "want: $line"
		diag "got:  $(echo "$GOT" | grep -F -- "$event	")"
	fi
done <<<"$EXPECTED"
check_eq "$(echo "$stats_names" | wc -w)" \
	"$(echo "$GOT" | grep '^dgrdma:counters' | tr ',' '\n' | grep -vc 'conn =')" \
	"dgrdma:counters has one field per struct dgr_conn_stats counter"

# Compiled out: no lttng-ust linked, nothing recorded even with the events enabled.
if ldd "$FIRE_NOTRACE" | grep -q lttng; then
	not_ok "-DDGR_NO_TRACE build links no lttng-ust"
else
	ok "-DDGR_NO_TRACE build links no lttng-ust"
fi
check "tp-fire-notrace ran under an lttng session" record "$FIRE_NOTRACE" "$WORK/trace-notrace"
check_eq "$(babeltrace2 "$WORK/trace-notrace" 2>/dev/null | wc -l)" 0 \
	"-DDGR_NO_TRACE build records no event"

done_testing
