#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-tracepoints: cost of one dgrdma:frame_rx tracepoint, in one run:
#   compiled out (-DDGR_NO_TRACE)  |  compiled in, no session enables it  |  enabled, recorded
# and the same for dgrdma:doorbell_sent (eleven fields, since_complete_ns last). With TP_BENCH_OTHER=PATH,
# a tp-bench built from another tree (e.g. before a field was added) also runs its doorbell_sent
# loop in the same session, enabled, in TP_BENCH_ROUNDS rounds (default 7) alternating with this
# build's: the field's cost as the ratio of the two fastest rounds (the least disturbed by the
# machine's other work), measured in the same run.
# Ratios are against the compiled-out loop measured in the same run. Runs in a private mount
# namespace with its own session daemon (lttng-env.sh), so no other trace gets these events.
# Then (unless TP_BENCH_STACK=0) the stack at a fixed rate (TP_BENCH_RATE samples/s, default
# 50e6, TP_BENCH_SECONDS, default 3): dgrdma-fpga (adc) -> dgrdma-host rx over UDP on 127.0.0.1 with the host
#   built with -DDGR_NO_TRACE  |  built normally, no session  |  under dgrdma-capture --no-pcap
#   (every dgrdma* event enabled, default sub-buffers)
# comparing samples lost, in-host doorbell latency (p50, p99) and the host's CPU per buffer.
# Result: $DGR_BUILD/bench/tracepoints.txt (copy it into docs/performance/tracepoints.md).

set -u
. "$DGR_SRC/test/tracepoints/lttng-env.sh"
tp_isolate "$@" || exit 1

BENCH=$DGR_BUILD/test/tracepoints/tp-bench
BENCH_OFF=$DGR_BUILD/test/tracepoints/tp-bench-notrace
# Cheap loops run longer so that their median is not timer noise; the enabled loop writes
# every event to disk (about 30 bytes each), so it runs fewer.
ITER_FAST=${TP_BENCH_ITERATIONS_FAST:-20000000}
ITER=${TP_BENCH_ITERATIONS:-1000000}
REPEAT=${TP_BENCH_REPEAT:-5}
WORK=$(mktemp -d)
SESSION="tp-bench-$$"
OUT=$DGR_BUILD/bench/tracepoints.txt
cleanup() {
	lttng destroy "$SESSION" >/dev/null 2>&1
	tp_lttng_teardown
	rm -rf "$WORK"
}
trap cleanup EXIT
tp_lttng_setup || { echo "bench-tracepoints: $TP_LTTNG_WHY" >&2; exit 1; }

field() {
	sed -n "s/.*$1=\([^ ]*\).*/\1/p" <<<"$2"
}

OTHER=${TP_BENCH_OTHER:-}
off=$("$BENCH_OFF" --iterations "$ITER_FAST" --repeat "$REPEAT") || exit 1
idle=$("$BENCH" --iterations "$ITER_FAST" --repeat "$REPEAT") || exit 1
db_off=$("$BENCH_OFF" --event doorbell_sent --iterations "$ITER_FAST" --repeat "$REPEAT") || exit 1
db_idle=$("$BENCH" --event doorbell_sent --iterations "$ITER_FAST" --repeat "$REPEAT") || exit 1
# Enabled: a channel big enough for every event of the run (per CPU), so none is discarded.
lttng create "$SESSION" --output="$WORK/trace" >/dev/null &&
	lttng enable-channel -u -s "$SESSION" bench --subbuf-size=8M --num-subbuf=16 >/dev/null &&
	lttng enable-event -u -s "$SESSION" -c bench dgrdma:frame_rx,dgrdma:doorbell_sent >/dev/null &&
	lttng start "$SESSION" >/dev/null || exit 1
on=$("$BENCH" --iterations "$ITER" --repeat "$REPEAT") || exit 1
db_on=$("$BENCH" --event doorbell_sent --iterations "$ITER" --repeat "$REPEAT") || exit 1
# rounds: the other build, then this one, ROUNDS times; each a median of REPEAT loops
other_ns=()
this_ns=()
if [ -n "$OTHER" ]; then
	for ((k = 0; k < ${TP_BENCH_ROUNDS:-7}; k++)); do
		r=$("$OTHER" --event doorbell_sent --iterations "$ITER" --repeat "$REPEAT") || exit 1
		other_ns+=("$(field ns_per_iter "$r")")
		r=$("$BENCH" --event doorbell_sent --iterations "$ITER" --repeat "$REPEAT") || exit 1
		this_ns+=("$(field ns_per_iter "$r")")
	done
fi
lttng stop "$SESSION" >/dev/null
discarded=$(lttng list "$SESSION" | awk -F': *' '/Discarded events:/ {s += $2} END {print s + 0}')
recorded=$(babeltrace2 --output-format=dummy "$WORK/trace" >/dev/null 2>&1 &&
	babeltrace2 "$WORK/trace" | wc -l)
lttng destroy "$SESSION" >/dev/null

t_off=$(field ns_per_iter "$off")
t_idle=$(field ns_per_iter "$idle")
t_on=$(field ns_per_iter "$on")
mkdir -p "$(dirname "$OUT")"
{
	echo "bench-tracepoints: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "median of $REPEAT loops: $ITER_FAST iterations (not enabled, compiled out), $ITER (enabled)"
	echo "command: make bench-tracepoints"
	awk -v off="$t_off" -v idle="$t_idle" -v on="$t_on" -v e_idle="$(field enabled "$idle")" \
		-v e_on="$(field enabled "$on")" 'BEGIN {
		printf "%-34s %10s %10s %14s\n", "variant", "ns/iter", "ratio", "ns per event"
		printf "%-34s %10.3f %10.2f %14s\n", "compiled out (-DDGR_NO_TRACE)", off, 1, "-"
		printf "%-34s %10.3f %10.2f %14.3f  (enabled=%d)\n", "compiled in, not enabled", idle, idle / off, idle - off, e_idle
		printf "%-34s %10.3f %10.2f %14.3f  (enabled=%d)\n", "enabled, recorded", on, on / off, on - off, e_on
	}'
	echo "enabled run: $recorded events in the trace, $discarded discarded"
	awk -v off="$(field ns_per_iter "$db_off")" -v idle="$(field ns_per_iter "$db_idle")" \
		-v on="$(field ns_per_iter "$db_on")" 'BEGIN {
		printf "dgrdma:doorbell_sent (eleven fields, since_complete_ns last):\n"
		printf "%-34s %10.3f %10.2f %14s\n", "compiled out (-DDGR_NO_TRACE)", off, 1, "-"
		printf "%-34s %10.3f %10.2f %14.3f\n", "compiled in, not enabled", idle, idle / off, idle - off
		printf "%-34s %10.3f %10.2f %14.3f\n", "enabled, recorded", on, on / off, on - off
	}'
	if [ -n "$OTHER" ]; then
		awk -v other="${other_ns[*]}" -v this="${this_ns[*]}" -v path="$OTHER" 'BEGIN {
			n = split(other, o, " "); split(this, t, " ")
			mo = o[1]; mt = t[1]
			for (i = 2; i <= n; i++) { if (o[i] < mo) mo = o[i]; if (t[i] < mt) mt = t[i] }
			printf "enabled doorbell_sent, %d alternating rounds (ns/iter):\n", n
			printf "  TP_BENCH_OTHER (%s): %s\n", path, other
			printf "  this build:  %s\n", this
			printf "fastest rounds: this build %.3f / other %.3f = %.3f (%+.3f ns per event)\n", \
				mt, mo, mt / mo, mt - mo
		}'
	fi
} | tee "$OUT"
[ "${TP_BENCH_STACK:-1}" = 0 ] && exit 0

# ---- the stack at a fixed rate ------------------------------------------------------------

RATE=${TP_BENCH_RATE:-50e6}
SECONDS_RUN=${TP_BENCH_SECONDS:-3}
PORT_F=$((34000 + $$ % 1000 * 2))
PORT_H=$((PORT_F + 1))
HOST=$DGR_BUILD/bin/dgrdma-host
HOST_OFF=$DGR_BUILD/bench/tracepoints/dgrdma-host-notrace

# stack_run NAME PREFIX...: fpga -> host (PREFIX + host command line), summaries in WORK.
stack_run() {
	local name=$1 cap
	shift
	"$@" "$HOST_BIN" rx --udp --bind "127.0.0.1:$PORT_H" --peer "127.0.0.1:$PORT_F" \
		--rcvbuf 16M --idle-timeout 2 --summary-json "$WORK/$name.host.json" --quiet \
		2>"$WORK/$name.err" &
	cap=$!
	for ((n = 0; n < 300; n++)); do
		ss -Huln "sport = :$PORT_H" | grep -q . && break
		sleep 0.1
	done
	"$DGR_BUILD/bin/dgrdma-fpga" --udp --bind "127.0.0.1:$PORT_F" --peer "127.0.0.1:$PORT_H" \
		--mode adc --rate "$RATE" --duration "$SECONDS_RUN" --quiet \
		--summary-json "$WORK/$name.fpga.json"
	wait "$cap"
}

# row NAME LABEL: one line of the table from the two summaries.
row() {
	jq -r --arg variant "$2" --slurpfile f "$WORK/$1.fpga.json" '
		(.threads | [.[] | (.cpu_user_ns // 0) + (.cpu_sys_ns // 0)] | add) as $cpu
		| [$variant, .counters.samples_received, ($f[0].dropped_samples // 0),
		   .counters.txns_completed, .latency_ns.p50, .latency_ns.p99,
		   (if .counters.txns_completed > 0 then ($cpu / .counters.txns_completed | floor)
		    else 0 end)]
		| @tsv' "$WORK/$1.host.json"
}

HOST_BIN=$HOST_OFF stack_run off
HOST_BIN=$HOST stack_run idle
HOST_BIN=$HOST stack_run on "$DGR_BUILD/bin/dgrdma-capture" --no-pcap --events 'dgrdma:*' \
	-o "$WORK/capture-on"
{
	echo
	echo "stack: dgrdma-fpga adc at $RATE samples/s for $SECONDS_RUN s -> dgrdma-host rx, UDP 127.0.0.1;"
	echo "all-enabled = every dgrdma:* event of the host recorded by dgrdma-capture --no-pcap"
} | tee -a "$OUT"
{
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' variant samples_received fpga_dropped buffers \
		latency_p50_ns latency_p99_ns host_cpu_ns_per_buffer
	row off "compiled-out"
	row idle "not-enabled"
	row on "all-enabled"
} | column -t -s $'\t' | tee -a "$OUT"
{
	echo "all-enabled trace: $(jq -r '"\(.trace.subbuf_size) x \(.trace.num_subbuf) per CPU, discarded events \(.trace.discarded_events)"' "$WORK/capture-on/run.json")"
} | tee -a "$OUT"
