#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-recording (issue 33, item 6): what recording costs the host itself, at fixed stream
# rates, rather than the highest rate it sustains (on two shared CPUs the emulator competes with
# the recorder, so that rate says more about the machine than about the recording).
# dgrdma-fpga (adc) streams into dgrdma-host rx --sink null over a veth pair at MTU 9000 (two
# network namespaces). First the clean rate: BENCH_CLEAN_MSPS, or found by bisection of the
# unrecorded host (drop rate at most 0.02%, clean end; BENCH_STEPS steps, default 7, between 0
# and BENCH_MAX_MSPS, default 800). Then at 50% and 80% of it (BENCH_LOADS, percent), for
# BENCH_SECONDS (default 5) each, the cases side by side, interleaved in BENCH_REPEAT rounds
# (default 3) so that the machine's load falls on every case alike:
#   none     no recording;
#   session  dgrdma-capture --no-pcap --events dgrdma:retransmit: the session, its daemons and
#            the host registered with them, but no event per buffer (a retransmission is the
#            only thing that fires it, and this stream has none), so what is left of the cost
#            is the recording's machinery rather than its events;
#   default  dgrdma-capture --no-pcap (the default UST events);
#   kernel   dgrdma-capture --no-pcap --kernel (UST + the kernel's events, perf system-wide);
#   pcap     dgrdma-capture (UST + dumpcap on the host's veth).
# Per run, from the host's --summary-json: its threads' CPU time (user + system) per sample
# received, the in-host doorbell latency p50/p99, the drop rate; for kernel, run.json's kernel
# events, lost events, perf's data size and perf's own CPU. Results (medians over the rounds):
# $DGR_BUILD/bench/recording-cost/{runs.csv,table.md}. Not a test (timing on a shared machine).
# BENCH_PIN=1: the host as the tuning guides set it up: its data threads on the last CPU at
# real-time priority (dgrdma-host --cpu N --sched fifo:50), the emulator and the recorder (its
# daemons, the host's other threads) on the other CPUs (taskset). Results then in
# $DGR_BUILD/bench/recording-cost-pinned/.
set -u
: "${DGR_BUILD:?}" "${DGR_SRC:?}"
SECS=${BENCH_SECONDS:-5}
STEPS=${BENCH_STEPS:-7}
REPEAT=${BENCH_REPEAT:-3}
LOADS=${BENCH_LOADS:-50 80}
CASES=${BENCH_CASES:-none default kernel pcap}
MAX=$((${BENCH_MAX_MSPS:-800} * 1000000))
OUT=$DGR_BUILD/bench/recording-cost
PIN=${BENCH_PIN:-0}
HOST_TUNING=()
OTHER_CPUS=()
case $PIN in
0) ;;
1)
	if [ "$(nproc)" -lt 2 ]; then
		echo "bench-recording: BENCH_PIN=1 needs 2 CPUs or more" >&2
		exit 1
	fi
	OUT=$DGR_BUILD/bench/recording-cost-pinned
	HOST_TUNING=(--cpu "$(($(nproc) - 1))" --sched fifo:50)
	OTHER_CPUS=(taskset -c "0-$(($(nproc) - 2))") ;;
*)
	echo "bench-recording: BENCH_PIN must be 0 or 1 (got '$PIN')" >&2
	exit 2 ;;
esac
HOST=$DGR_BUILD/bin/dgrdma-host
FPGA=$DGR_BUILD/bin/dgrdma-fpga
CAPTURE=$DGR_BUILD/bin/dgrdma-capture
mkdir -p "$OUT"
if [ "$(id -u)" != 0 ] || [ ! -x "$FPGA" ] || ! command -v lttng-sessiond >/dev/null ||
	! command -v dumpcap >/dev/null || ! command -v perf >/dev/null; then
	echo "bench-recording: needs root, dgrdma-fpga, lttng-tools, dumpcap and perf; skipped" >&2
	exit 0
fi
NSA=rcstA$$ NSB=rcstB$$ A=rcsta$$ B=rcstb$$
ip netns add $NSA && ip netns add $NSB || exit 1
trap 'kill $(jobs -p) 2>/dev/null; ip netns del $NSA; ip netns del $NSB' EXIT
ip link add $A netns $NSA type veth peer name $B netns $NSB
ip netns exec $NSA ip link set $A mtu 9000 up
ip netns exec $NSB ip link set $B mtu 9000 up
ip netns exec $NSA ip link set lo up
MA=$(ip netns exec $NSA cat /sys/class/net/$A/address)
MB=$(ip netns exec $NSB cat /sys/class/net/$B/address)

# The recorder, in the host's namespace: a private /run/lttng and /dev/shm with a session daemon
# of its own, then dgrdma-capture in the case's mode around the host.
cat >"$OUT/rec.sh" <<'REC'
#!/bin/bash
set -u
out=$1 mode=$2 capture=$3
shift 4
mkdir -p /run/lttng /dev/shm
mount -t tmpfs -o mode=0755 tmpfs /run/lttng && mount -t tmpfs -o mode=1777 tmpfs /dev/shm &&
	lttng-sessiond --daemonize >/dev/null 2>&1 || exit 3
rm -rf "$out"
case $mode in
session) "$capture" --no-pcap --events dgrdma:retransmit -o "$out" -- "$@" >"$out.log" 2>&1 ;;
default) "$capture" --no-pcap -o "$out" -- "$@" >"$out.log" 2>&1 ;;
kernel) "$capture" --no-pcap --kernel -o "$out" -- "$@" >"$out.log" 2>&1 ;;
pcap) "$capture" -o "$out" -- "$@" >"$out.log" 2>&1 ;;
esac
st=$?
kill -TERM "$(cat /run/lttng/lttng-sessiond.pid)" 2>/dev/null
exit "$st"
REC

# run MODE RATE: one run; leaves the host's summary in $OUT/host.json (absent if it failed)
run() {
	local host=("$HOST" rx --if "$A" --peer "$MB" --rcvbuf 32M --buffers 255 --buffer-size 32K
		--fpga-buffers 64 --sink null --idle-timeout 5 --quiet --summary-json "$OUT/host.json"
		--ready-file "$OUT/ready" "${HOST_TUNING[@]}") n r
	rm -f "$OUT/ready" "$OUT/host.json"
	if [ "$1" = none ]; then
		ip netns exec $NSA "${OTHER_CPUS[@]}" "${host[@]}" &
	else
		ip netns exec $NSA "${OTHER_CPUS[@]}" unshare --mount --propagation private \
			bash "$OUT/rec.sh" "$OUT/rec" "$1" "$CAPTURE" -- "${host[@]}" &
	fi
	r=$!
	for ((n = 0; n < 600; n++)); do
		[ -e "$OUT/ready" ] && break
		sleep 0.1
	done
	ip netns exec $NSB "${OTHER_CPUS[@]}" "$FPGA" --if $B --peer $MA --rcvbuf 4M --mode adc --host-buffers 255 \
		--buffer-size 32768 --fpga-memory 2097152 --buffers 64 --rate "$2" --duration "$SECS" \
		--quiet
	wait $r
}

drop_rate() {
	[ -s "$OUT/host.json" ] || { echo 1; return; }
	jq -r 'if .status == "ended" then .drop_rate else 1 end' "$OUT/host.json"
}

clean=$((${BENCH_CLEAN_MSPS:-0} * 1000000))
if [ "$clean" = 0 ]; then
	lo=0 hi=$MAX
	for _ in $(seq "$STEPS"); do
		mid=$(((lo + hi) / 2))
		run none "$mid"
		d=$(drop_rate)
		echo "  clean rate: $((mid / 1000000)) MS/s -> drop rate $d" >&2
		if awk -v d="$d" 'BEGIN { exit !(d <= 0.0002) }'; then
			lo=$mid
		else
			hi=$mid
		fi
	done
	clean=$lo
fi
echo "clean rate: $((clean / 1000000)) MS/s" | tee "$OUT/clean.txt"
[ "$clean" -gt 0 ] || { echo "bench-recording: no clean rate found" >&2; exit 1; }

echo "round,load_pct,rate_msps,case,cpu_ns_per_ksample,p50_us,p99_us,drop_rate,kernel_events,kernel_lost,kernel_mb,perf_cpu_ms,kernel_span_s,duration_s" >"$OUT/runs.csv"
for round in $(seq "$REPEAT"); do
	for load in $LOADS; do
		rate=$((clean / 100 * load))
		for mode in $CASES; do
			run "$mode" "$rate"
			if [ ! -s "$OUT/host.json" ]; then
				echo "$round,$load,$((rate / 1000000)),$mode,,,,1,,,,,," >>"$OUT/runs.csv"
				continue
			fi
			kernel=",,,,"
			if [ "$mode" = kernel ] && [ -s "$OUT/rec/run.json" ]; then
				# the span perf recorded: its first and last tracepoint event (perf_* are its
				# own records, some stamped 0)
				span=$(babeltrace2 --clock-cycles "$OUT/rec/kernel" 2>/dev/null | grep -v ') perf_' |
					awk -F'[][]' 'NR == 1 { f = $2 } { l = $2 } END { printf "%.3f", (l - f) / 1e9 }')
				kernel=$(jq -r --arg span "$span" '.kernel | "\(.samples),\(.lost_events),\(.data_bytes / 1e6),\(.recorder_cpu_ms),\($span)"' "$OUT/rec/run.json")
			fi
			jq -r --arg pre "$round,$load,$((rate / 1000000)),$mode" --arg kernel "$kernel" '
				((.threads // []) | map((.cpu_user_ns // 0) + (.cpu_sys_ns // 0)) | add) as $cpu
				| "\($pre),\(if .samples_received > 0 then ($cpu / .samples_received * 1000 | floor) else "" end),\(.latency_ns.p50 / 1e3),\(.latency_ns.p99 / 1e3),\(.drop_rate),\($kernel),\(.duration_s)"' \
				"$OUT/host.json" >>"$OUT/runs.csv"
			echo "  round $round, ${load}%: $mode: $(tail -n1 "$OUT/runs.csv")" >&2
		done
	done
done

python3 - "$OUT/runs.csv" "$clean" "$SECS" "$REPEAT" <<'PY' | tee "$OUT/table.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
clean, secs, rounds = int(sys.argv[2]), sys.argv[3], sys.argv[4]
def med(rs, k):
    v = [float(r[k]) for r in rs if r[k] not in ("", "null")]
    return statistics.median(v) if v else None
def fmt(v, f="%.1f"):
    return "-" if v is None else f % v
print("clean rate %.0f MS/s; %s s per run; median of %s rounds (cases interleaved)" % (clean / 1e6, secs, rounds))
print()
print("| load | case | CPU ns per 1000 samples | vs none | doorbell p50 us | p99 us (min..max) | drop rate | kernel events/s | kernel MB/s | perf CPU % |")
print("|---|---|---|---|---|---|---|---|---|---|")
for load in sorted({r["load_pct"] for r in rows}, key=int):
    base = med([r for r in rows if r["load_pct"] == load and r["case"] == "none"], "cpu_ns_per_ksample")
    for case in ("none", "session", "default", "kernel", "pcap"):
        rs = [r for r in rows if r["load_pct"] == load and r["case"] == case]
        if not rs:
            continue
        cpu = med(rs, "cpu_ns_per_ksample")
        p99s = [float(r["p99_us"]) for r in rs if r["p99_us"]]
        ev = med(rs, "kernel_events")
        dur = med(rs, "kernel_span_s")
        mb = med(rs, "kernel_mb")
        pc = med(rs, "perf_cpu_ms")
        print("| %s%% (%s MS/s) | %s | %s | %s | %s | %s (%s..%s) | %s | %s | %s | %s |" % (
            load, rs[0]["rate_msps"], case, fmt(cpu, "%.0f"),
            fmt(cpu / base if cpu and base else None, "%.3f"), fmt(med(rs, "p50_us")),
            fmt(med(rs, "p99_us")), fmt(min(p99s) if p99s else None), fmt(max(p99s) if p99s else None),
            fmt(med(rs, "drop_rate"), "%.4f"),
            fmt(ev / dur if ev and dur else None, "%.0f"), fmt(mb / dur if mb and dur else None, "%.2f"),
            fmt(pc / 10 / dur if pc is not None and dur else None, "%.1f")))
print()
print("CPU: the host's threads (user + system) per 1000 samples received; p50/p99: in-host doorbell")
print("latency (the host's own measurement); kernel events/s, MB/s of perf data and perf's own CPU")
print("over the span perf recorded (system-wide: every process of the machine, not only the stream)")
PY
