#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-capture around the real dgrdma-host (rx) fed by dgrdma-fpga (adc) over UDP on
# 127.0.0.1. The trace must agree exactly with both programs' final summaries: one
# txn_complete per completed transaction, one doorbell_sent per released buffer (same
# buffer and txn_id, its completion in its fields), the emulator's txn_sent/doorbell_rx per its counters; the capture
# holds every frame the emulator sent; the last counter snapshot equals the final summary.
# make check: slow

set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/tracepoints/lttng-env.sh"
. "$DGR_SRC/test/lib/sockets.sh"
. "$DGR_SRC/test/lib/json.sh"
tp_isolate "$@" || { not_ok "private lttng run folder"; done_testing; exit 1; }

tp_capture_suite 30000

if [ ! -x "$DHOST" ] || [ ! -x "$DFPGA" ]; then
	skip "dgrdma-host or dgrdma-fpga not built"
	done_testing
	exit 0
fi
tp_capture_require

RUN=$WORK/run
# A background job of a script ignores SIGINT; restore it so that cleanup can stop the run.
# dumpcap's kernel buffer sized to the emulator's stream below (10 MS/s for 2 s)
env --default-signal=INT "$CAPTURE" -o "$RUN" --all-events --pcap-buffer "$(dgr_pcap_mib 10e6 2)" \
	-- "$DHOST" rx --udp --bind "127.0.0.1:$PORT_H" --peer "127.0.0.1:$PORT_F" --rcvbuf 16M \
	--idle-timeout 2 --summary-json "$WORK/host.json" --quiet 2>"$WORK/capture.err" &
CAP_PID=$!
# The emulator starts once the host's socket is bound.
for ((n = 0; n < 300; n++)); do
	[ -n "$(ss -Huln "sport = :$PORT_H")" ] && break
	nap 0.1
done
"$DFPGA" --udp --bind "127.0.0.1:$PORT_F" --peer "127.0.0.1:$PORT_H" --mode adc --rate 10e6 \
	--duration 2 --quiet --summary-json "$WORK/fpga.json" &
FPGA_PID=$!
wait "$FPGA_PID"
check_eq "$?" 0 "dgrdma-fpga ran its 2 s"
fpga_pid=$FPGA_PID
FPGA_PID=""
wait "$CAP_PID"
host_status=$?
CAP_PID=""
diag "dgrdma-host exit status $host_status"
cat "$WORK/capture.err" | sed 's/^/# /'

has_pid() {
	jq -e .command_pid "$1" >/dev/null
}
check "run.json is valid and names the command's pid" has_pid "$RUN/run.json"
host_pid=$(jq -r .command_pid "$RUN/run.json")
check_eq "$(jq -r '[.capture.interface, .capture.filter] | @json' "$RUN/run.json")" \
	"[\"lo\",\"udp port $PORT_F or udp port $PORT_H\"]" "capture inferred from dgrdma-host's flags"
check_eq "$(jq -r '[.trace.discarded_events, .capture.packets_dropped] | @json' "$RUN/run.json")" \
	"[0,0]" "no event discarded, no packet dropped"

# events PID: "provider:event<TAB>payload" of that process's events.
babeltrace2 "$RUN/trace" >"$WORK/trace.txt"
events() {
	grep -F "vpid = $1," "$WORK/trace.txt" |
		sed -n 's/^\[[^]]*\] ([^)]*) [^ ]* \([a-z_]*:[a-z_]*\): { [^}]* }, { [^}]* }, { \(.*\) }$/\1\t\2/p'
}
events "$host_pid" >"$WORK/host.ev"
events "$fpga_pid" >"$WORK/fpga.ev"
count() {
	grep -c "^$2	" "$1"
}
# the two summaries read once (a jq per counter was 60 starts)
json_use "$WORK/host.json" "$WORK/fpga.json"
hs() {
	json_file "$WORK/host.json" ".counters.$1"
}
fs() {
	json_file "$WORK/fpga.json" ".$1"
}

completed=$(hs txns_completed)
if [ "$completed" -gt 0 ]; then
	ok "the host completed transactions ($completed)"
else
	not_ok "the host completed transactions ($completed)"
fi
check_eq "$(count "$WORK/host.ev" dgrdma:txn_complete)" "$completed" \
	"one dgrdma:txn_complete per completed transaction"
check_eq "$(count "$WORK/host.ev" dgrdma:buffer_release)" "$(hs buffers_consumed)" \
	"one dgrdma:buffer_release per consumed buffer"
check_eq "$(grep -c '^dgrdma:buffer_release	.*, held_ns = [0-9]*$' "$WORK/host.ev")" \
	"$(hs buffers_consumed)" "every dgrdma:buffer_release carries held_ns (the acquire's time)"
check_eq "$(count "$WORK/host.ev" dgrdma:doorbell_sent)" "$(hs doorbells_sent)" \
	"one dgrdma:doorbell_sent per doorbell sent"
released=$(grep '^dgrdma:buffer_release' "$WORK/host.ev" |
	sed 's/.*buffer = \([0-9]*\), txn_id = \([0-9]*\).*/\1 \2/' | sort)
rung=$(grep '^dgrdma:doorbell_sent' "$WORK/host.ev" |
	sed 's/.*buffer = \([0-9]*\), txn_id = \([0-9]*\),.*/\1 \2/' | sort)
check_eq "$rung" "$released" "the doorbells answer exactly the released (buffer, txn_id)"
# doorbell_sent carries the consumer's side (the default records no event on its thread): its
# thread, the one thread_start names the consumer (role 2), and the times as two fields
consumer=$(grep '^dgrdma:thread_start' "$WORK/host.ev" | sed -n 's/.*role = 2, conn = [0-9]*, tid = \([0-9]*\),.*/\1/p')
check_eq "$(grep '^dgrdma:doorbell_sent' "$WORK/host.ev" |
	sed -n 's/.*, since_release_ns = [0-9]*, held_ns = [0-9]*, consumer_tid = \([0-9]*\),.*/\1/p' | sort | uniq -c |
	awk '{ print $1, $2 }')" "$(hs doorbells_sent) $consumer" \
	"every dgrdma:doorbell_sent names the consumer's thread ($consumer) and carries its release and hold"
# doorbell_sent carries the completion too (the default records no txn_complete): the stack's
# two readings the fields are made of are txn_complete's, so latency_ns - since_complete_ns is
# exactly its wait_receive_ns, and the completion it gives (the event's time - since_complete_ns)
# lies between the frame's arrival_ns and the doorbell. Times as the clock's cycles (ns of
# CLOCK_MONOTONIC, arrival_ns's clock); each line "cycles name buffer txn_id a b".
babeltrace2 --clock-cycles "$RUN/trace" 2>/dev/null | grep -F "vpid = $host_pid," |
	sed -n -e 's/^\[\([0-9]*\)\] .* \(dgrdma:txn_complete\): .* txn_id = \([0-9]*\), buffer = \([0-9]*\),.* wait_receive_ns = \([0-9]*\), arrival_ns = \([0-9]*\) }$/\1 \2 \4 \3 \5 \6/p' \
		-e 's/^\[\([0-9]*\)\] .* \(dgrdma:doorbell_sent\): .* buffer = \([0-9]*\), txn_id = \([0-9]*\),.* latency_ns = \([0-9]*\),.* since_complete_ns = \([0-9]*\) }$/\1 \2 \3 \4 \5 \6/p' \
	>"$WORK/completions.txt"
read -r pairs wait_eq ordered later <<<"$(awk '
	$2 == "dgrdma:txn_complete" { t[$3 " " $4] = $1; w[$3 " " $4] = $5; a[$3 " " $4] = $6; next }
	($3 " " $4) in t {
		k = $3 " " $4; c = $1 - $6; n++
		if ($5 - $6 == w[k]) { eq++ }
		if (a[k] <= c && c <= $1) { ord++ }
		if (c > t[k]) { late++ }
		delete t[k]
	}
	END { print n + 0, eq + 0, ord + 0, late + 0 }' "$WORK/completions.txt")"
check_eq "$pairs" "$(hs doorbells_sent)" "every dgrdma:doorbell_sent is paired with its txn_complete"
check_eq "$wait_eq" "$pairs" \
	"every doorbell_sent's latency_ns - since_complete_ns is its txn_complete's wait_receive_ns"
check_eq "$ordered" "$pairs" \
	"every completion from since_complete_ns lies between the frame's arrival_ns and the doorbell"
# not an ordering fact: the two probes' own lag after the one clock reading differs
diag "completions from since_complete_ns after their txn_complete's time: $later of $pairs"
check_eq "$(count "$WORK/host.ev" dgrdma:frame_rx)" "$(hs frames_rx)" \
	"one dgrdma:frame_rx per frame received"
roles=$(grep '^dgrdma:thread_start' "$WORK/host.ev" | sed 's/.*role = \([0-9]*\),.*/\1/' |
	sort -u | tr '\n' ' ')
check_eq "$roles" "0 1 2 3 " "thread_start of the rx, tx, consumer and control threads"

# The last counters snapshot equals the final summary: the stack takes one more snapshot when
# its threads have stopped, and its summary is read after that.
last=$(grep '^dgrdma:counters' "$WORK/host.ev" | tail -n1 | cut -f2)
if [ -z "$last" ]; then
	not_ok "dgrdma:counters snapshots recorded"
else
	ok "dgrdma:counters snapshots recorded"
	bad=""
	nfields=0
	for kv in $(echo "$last" | tr -d ' ' | tr ',' '\n' | grep -v '^conn='); do
		name=${kv%%=*}
		val=${kv#*=}
		nfields=$((nfields + 1))
		want=$(hs "$name")
		[ "$want" != null ] && [ "$val" -eq "$want" ] || bad="$bad $name=$val!=$want"
	done
	check_eq "$bad" "" "every counter of the last snapshot equals the final summary"
	check_eq "$nfields" "$(jq '.counters | length' "$WORK/host.json")" \
		"the snapshot has every counter of the summary"
fi

check_eq "$(count "$WORK/fpga.ev" dgrdma_fpga:txn_sent)" "$(fs transactions_sent)" \
	"emulator: one dgrdma_fpga:txn_sent per transaction sent"
check_eq "$(count "$WORK/fpga.ev" dgrdma_fpga:doorbell_rx)" "$(fs doorbells_received)" \
	"emulator: one dgrdma_fpga:doorbell_rx per doorbell received"
check_eq "$(count "$WORK/fpga.ev" dgrdma_fpga:frame_tx)" "$(fs frames_tx)" \
	"emulator: one dgrdma_fpga:frame_tx per frame sent"
npkt=$(tshark -r "$RUN/capture.pcapng" -Y "udp.dstport == $PORT_H" 2>/dev/null | wc -l)
check_eq "$npkt" "$(fs frames_tx)" "the capture holds every frame the emulator sent"
# with txn_complete recorded (--all-events) the completion and the receive call's return are two
# ends: the series from the return to the send call is printed as one of its own
"$LR" --no-progress "$RUN" >"$WORK/run-report.txt" 2>/dev/null
check_eq "$(grep -c "^    receive call returns -> the doorbell's send call begins:$" "$WORK/run-report.txt") $(grep -c 'the series above' "$WORK/run-report.txt")" \
	"1 0" "with txn_complete in the trace: the receive call's return to the send call is a series of its own"

# A TX run (dgrdma-host tx into the emulator's DAC), its capture and trace then given as two
# inputs, as a user's own tshark and lttng leave them (no run.json; --udp-port: the suite's ports
# are not 18078): nothing tells the capture which side is the host, so the data path's default
# (RX) reads it the wrong way round; the trace's TX credits show it. The run folder reads it
# right: dgrdma-host is run without --summary-json, as a user would, and dgrdma-capture asks it
# for one in the folder, so that run.json has its settings (the path, the ports).
TXRUN=$WORK/txrun
"$DFPGA" --udp --bind "127.0.0.1:$PORT_F" --peer "127.0.0.1:$PORT_H" --mode dac --rate 5e6 \
	--duration 60 --quiet &
FPGA_PID=$!
dgr_wait_receiving "$FPGA_PID" dgrdma-fpga 1 || bail "the DAC emulator did not bind its socket"
env --default-signal=INT "$CAPTURE" -o "$TXRUN" --pcap-buffer "$(dgr_pcap_mib 5e6 2)" \
	-- "$DHOST" tx --udp --bind "127.0.0.1:$PORT_H" --peer "127.0.0.1:$PORT_F" --bytes 4M \
	--idle-timeout 5 --quiet 2>"$WORK/tx-capture.err"
check_eq "$?" 0 "dgrdma-capture of dgrdma-host tx: exit 0"
check_eq "$(jq -c '[.command[-2:], .settings.path, .settings.local]' "$TXRUN/run.json")" \
	"[[\"--summary-json\",\"$TXRUN/command-summary.json\"],\"tx\",\"127.0.0.1:$PORT_H\"]" \
	"dgrdma-host without --summary-json: dgrdma-capture adds one in the folder, run.json has its settings"
kill -INT "$FPGA_PID" 2>/dev/null
wait "$FPGA_PID"
FPGA_PID=""
path_of() { # ARGS...: "series path_from_trace" of latency-report --json ARGS
	"$LR" --json --no-progress "$@" 2>/dev/null | jq -r '.regime | "\(.series) \(.path_from_trace)"'
}
ports=(--udp-port "$PORT_F,$PORT_H")
check_eq "$(path_of "${ports[@]}" "$TXRUN/capture.pcapng" "$TXRUN/trace")" "host.tx tx" \
	"TX capture and trace as two inputs: the capture read as RX, against the trace's TX: the trace judges"
check "and the summary's findings name --path tx" \
	sh -c "'$LR' --brief --no-progress ${ports[*]} '$TXRUN/capture.pcapng' '$TXRUN/trace' 2>/dev/null |
		grep -q -- \"the trace's host sent the data, but the capture was read the other way round (no --host or DCP told the host's side): --path tx reads it\""
check_eq "$(path_of "${ports[@]}" --path tx "$TXRUN/capture.pcapng" "$TXRUN/trace")" "wire.tx " \
	"with --path tx: the capture read as TX, nothing against the trace"
check_eq "$(path_of "$TXRUN")" "wire.tx " "the run folder: run.json's settings give the path and the ports"

done_testing
