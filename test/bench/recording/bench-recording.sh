#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-recording (issue 22, item 4): what recording costs the stream it records. Side by
# side in one run, dgrdma-fpga streaming into dgrdma-host rx --sink null over a veth pair at
# MTU 9000 (two network namespaces): the highest sample rate sustained for BENCH_SECONDS
# (default 10) with a drop rate of at most 0.02% and a clean end, with
#   none     no recording;
#   default  dgrdma-capture --no-pcap (its default events: every event but the per-frame ones);
#   every    dgrdma-capture --no-pcap --all-events (the per-frame events too);
#   pcap     dgrdma-capture with the packet capture too (dumpcap on the host's veth);
#   live     dgrdma-capture --live --no-pcap, followed by latency-report --live --json;
#   niced    as default, the session and consumer daemons at nice 19.
# BENCH_CASES picks some (default all; none always runs first).
# BENCH_REPEAT (default 3) rounds, the cases interleaved in each, so that the machine's load
# falls on every case alike. In each round "none" is found by bisection between 0 and
# BENCH_MAX_MSPS (default 800) in BENCH_STEPS + 2 steps, then each recording case between 0 and
# 1.25 times that round's "none" in BENCH_STEPS (default 7) steps (resolution 1.25/2^7 = 1% of
# it); a case's ratio is to its own round's "none".
# Then one run with the packet capture at half the last "none" rate, kept as a run folder, for
# the clocks: latency-report's offset between a frame's time in the capture and its kernel
# arrival in the trace (joined.capture_vs_trace_arrival_ns; the issue's target: 1 us at p99).
# Each recording case runs in the host's namespace with a private LTTng run folder and session
# daemon. Then the events each buffer costs (events.csv; see below).
# Results: $DGR_BUILD/bench/recording/{results,events}.{csv,txt}, summary.txt, offset.json.
# BENCH_PIN=1: the host as the tuning guides set it up, its data threads on the last CPU
# (dgrdma-host --cpu), the emulator and the recorder (dgrdma-capture, its daemons, the host's
# other threads) on the others (taskset). BENCH_PIN=2: the same, but the recorder on the host's
# CPU, so that the emulator has its CPUs to itself. Results in
# $DGR_BUILD/bench/recording-pinned{,2}/ (no events or clocks runs: they do not depend on the
# pinning).
# Not a test (timing on a shared machine).
set -u
: "${DGR_BUILD:?}" "${DGR_SRC:?}"
SECS=${BENCH_SECONDS:-10}
STEPS=${BENCH_STEPS:-7}
CASES=${BENCH_CASES:-none default every pcap live niced}
CASES="none $(echo "$CASES" | tr ' ' '\n' | grep -vx none | tr '\n' ' ')"
REPEAT=${BENCH_REPEAT:-3}
MAX=$((${BENCH_MAX_MSPS:-800} * 1000000))
OUT=$DGR_BUILD/bench/recording
PIN=${BENCH_PIN:-0}
HOST_CPU=()
OTHER_CPUS=()
RECORDER_CPUS=()
case $PIN in
0) ;;
1 | 2)
	if [ "$(nproc)" -lt 2 ]; then
		echo "bench-recording: BENCH_PIN=$PIN needs 2 CPUs or more" >&2
		exit 1
	fi
	OUT=$DGR_BUILD/bench/recording-pinned$([ "$PIN" = 2 ] && echo 2)
	HOST_CPU=(--cpu "$(($(nproc) - 1))")
	OTHER_CPUS=(taskset -c "0-$(($(nproc) - 2))")
	RECORDER_CPUS=("${OTHER_CPUS[@]}")
	[ "$PIN" = 2 ] && RECORDER_CPUS=(taskset -c "$(($(nproc) - 1))") ;;
*)
	echo "bench-recording: BENCH_PIN must be 0, 1 or 2 (got '$PIN')" >&2
	exit 2 ;;
esac
HOST=$DGR_BUILD/bin/dgrdma-host
FPGA=$DGR_BUILD/bin/dgrdma-fpga
CAPTURE=$DGR_BUILD/bin/dgrdma-capture
LR=$DGR_BUILD/bin/latency-report
mkdir -p "$OUT"
if [ "$(id -u)" != 0 ] || [ ! -x "$FPGA" ] || ! command -v lttng-relayd >/dev/null ||
	! command -v dumpcap >/dev/null; then
	echo "bench-recording: needs root, dgrdma-fpga, lttng-tools and dumpcap; skipped" >&2
	exit 0
fi
NSA=recbA$$ NSB=recbB$$ A=recba$$ B=recbb$$
ip netns add $NSA && ip netns add $NSB || exit 1
trap 'kill $(jobs -p) 2>/dev/null; ip netns del $NSA; ip netns del $NSB ' EXIT
ip link add $A netns $NSA type veth peer name $B netns $NSB
ip netns exec $NSA ip link set $A mtu 9000 up
ip netns exec $NSB ip link set $B mtu 9000 up
ip netns exec $NSA ip link set lo up
MA=$(ip netns exec $NSA cat /sys/class/net/$A/address)
MB=$(ip netns exec $NSB cat /sys/class/net/$B/address)

# The recorder, run in the host's namespace: a private /run/lttng and /dev/shm and a session
# daemon of its own, then dgrdma-capture in the case's mode around the command.
cat >"$OUT/rec.sh" <<'REC'
#!/bin/bash
set -u
out=$1 mode=$2 capture=$3 lr=$4
shift 5
mkdir -p /run/lttng /dev/shm
# niced: the session daemon and its consumer daemon (its child) at nice 19, so that they take
# the CPUs only when the stack and the emulator leave them idle
nice_daemons=0
[ "$mode" = niced ] && nice_daemons=19
mount -t tmpfs -o mode=0755 tmpfs /run/lttng && mount -t tmpfs -o mode=1777 tmpfs /dev/shm &&
	nice -n "$nice_daemons" lttng-sessiond --daemonize >/dev/null 2>&1 || exit 3
rm -rf "$out"
case $mode in
default | niced) "$capture" --no-pcap -o "$out" -- "$@" >"$out.log" 2>&1 ;;
every) "$capture" --no-pcap --all-events -o "$out" -- "$@" >"$out.log" 2>&1 ;;
pcap) "$capture" -o "$out" -- "$@" >"$out.log" 2>&1 ;;
live)
	"$capture" --live --live-wait 30 --no-pcap -o "$out" -- "$@" >"$out.log" 2>&1 &
	c=$!
	for ((n = 0; n < 300; n++)); do
		[ -s "$out/live.url" ] && break
		sleep 0.1
	done
	"$lr" --live --json "$(cat "$out/live.url")" >"$out.jsonl" 2>&1 &
	wait "$c" ;;
esac
st=$?
wait
kill -TERM "$(cat /run/lttng/lttng-sessiond.pid)" 2>/dev/null
exit "$st"
REC

jq_py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# run_rate MODE RATE: one run; prints the host's drop rate (1 when the run did not end cleanly)
run_rate() {
	local host=("$HOST" rx --if "$A" --peer "$MB" --rcvbuf 32M --buffers 255 --buffer-size 32K
		--fpga-buffers 64 --sink null --idle-timeout 5 --quiet --summary-json "$OUT/run.json"
		--ready-file "$OUT/ready" "${HOST_CPU[@]}") n
	rm -f "$OUT/ready" "$OUT/run.json"
	if [ "$1" = none ]; then
		ip netns exec $NSA "${RECORDER_CPUS[@]}" "${host[@]}" &
	else
		ip netns exec $NSA "${RECORDER_CPUS[@]}" unshare --mount --propagation private \
			bash "$OUT/rec.sh" "$OUT/rec" "$1" "$CAPTURE" "$LR" -- "${host[@]}" &
	fi
	local r=$!
	for ((n = 0; n < 600; n++)); do
		[ -e "$OUT/ready" ] && break
		sleep 0.1
	done
	ip netns exec $NSB "${OTHER_CPUS[@]}" "$FPGA" --if $B --peer $MA --rcvbuf 4M --mode adc --host-buffers 255 \
		--buffer-size 32768 --fpga-memory 2097152 --buffers 64 --rate "$2" --duration "$SECS" \
		--quiet --summary-json "$OUT/fpga.json"
	wait $r
	[ -s "$OUT/run.json" ] || { echo 1; return; }
	jq_py "$OUT/run.json" 'd["drop_rate"] if d["status"] == "ended" else 1'
}

# bisect MODE LO HI STEPS: the highest clean rate found; keeps that run's summary in best.MODE.json
bisect() {
	local mode=$1 lo=$2 hi=$3 steps=$4 best=0 mid drop
	for _ in $(seq "$steps"); do
		mid=$(((lo + hi) / 2))
		drop=$(run_rate "$mode" "$mid")
		echo "  round $round, $mode: $(python3 -c "print('%.1f' % ($mid / 1e6))") MS/s -> drop rate $drop" >&2
		if python3 -c "import sys; sys.exit(0 if $drop <= 0.0002 else 1)"; then
			lo=$mid
			best=$mid
			cp "$OUT/run.json" "$OUT/best.$mode.json"
		else
			hi=$mid
		fi
	done
	echo "$best"
}

echo "round,case,rate_msps,ratio_to_none,drop_rate,latency_p99_us,latency_from_arrival_p99_us" >"$OUT/results.csv"
none_rate=0
for round in $(seq "$REPEAT"); do
	for mode in $CASES; do
		if [ "$mode" = none ]; then
			best=$(bisect none 0 "$MAX" $((STEPS + 2)))
			none_rate=$best
		else
			best=$(bisect "$mode" 0 $((none_rate * 5 / 4)) "$STEPS")
		fi
		if [ "$best" = 0 ]; then
			echo "$round,$mode,0,0,,," >>"$OUT/results.csv"
			continue
		fi
		python3 - "$round" "$mode" "$best" "$none_rate" "$OUT/best.$mode.json" >>"$OUT/results.csv" <<'PY'
import json, sys
rnd, mode, best, none, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
d = json.load(open(path))
def p99(key):
    v = d.get(key) or {}
    return "%.1f" % (v["p99"] / 1e3) if "p99" in v else ""
print("%s,%s,%.1f,%s,%s,%s,%s" % (rnd, mode, best / 1e6, "%.3f" % (best / none) if none else "",
                                  d.get("drop_rate", ""), p99("latency_ns"),
                                  p99("latency_from_arrival_ns")))
PY
	done
done
column -s, -t "$OUT/results.csv" | tee "$OUT/results.txt"
[ "$PIN" != 0 ] && echo "pinned: host data threads ${HOST_CPU[*]}, emulator ${OTHER_CPUS[*]}, recorder and the host's other threads ${RECORDER_CPUS[*]}" |
	tee -a "$OUT/results.txt"

# the median ratio of each case and its spread over the rounds
# shellcheck disable=SC2086 # the cases are words
python3 - "$OUT/results.csv" $CASES <<'PY' | tee "$OUT/summary.txt"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("case     rounds  rate_msps_median  ratio_median  ratio_min  ratio_max")
for mode in sys.argv[2:]:
    r = [x for x in rows if x["case"] == mode and x["ratio_to_none"]]
    if not r:
        continue
    ratios = [float(x["ratio_to_none"]) for x in r]
    rates = [float(x["rate_msps"]) for x in r]
    print("%-8s %6d  %16.1f  %12.3f  %9.3f  %9.3f" % (mode, len(r), statistics.median(rates),
          statistics.median(ratios), min(ratios), max(ratios)))
PY

[ "$PIN" != 0 ] && exit 0

# Events per buffer: one run of the default and one with every event at BENCH_EVENTS_MSPS
# (default 25), the host's events in the trace (babeltrace2, its vpid) over the buffers it
# completed: what each recorded buffer costs in tracepoint calls. (The host side's CPU per buffer
# was tried as a load-proof measure and dropped: on this shared machine it moved by 2x between
# runs of the same case, with the batching of the host's threads, far more than the events cost.)
ev_rate=$((${BENCH_EVENTS_MSPS:-25} * 1000000))
echo "case,buffers,events,events_per_buffer" >"$OUT/events.csv"
for mode in default every; do
	run_rate "$mode" "$ev_rate" >/dev/null
	[ -s "$OUT/run.json" ] && [ -s "$OUT/rec/run.json" ] || continue
	pid=$(jq_py "$OUT/rec/run.json" 'd["command_pid"]')
	bufs=$(jq_py "$OUT/run.json" 'd["counters"]["txns_completed"]')
	events=$(babeltrace2 "$OUT/rec/trace" 2>/dev/null | grep -c "vpid = $pid,")
	python3 -c "import sys; print('%s,%s,%s,%.2f' % (sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[3]) / max(int(sys.argv[2]), 1)))" \
		"$mode" "$bufs" "$events" >>"$OUT/events.csv"
done
column -s, -t "$OUT/events.csv" | tee "$OUT/events.txt"

# the clocks: one run with trace and packet capture, kept, analysed by latency-report
if [ "$none_rate" -gt 0 ]; then
	run_rate pcap $((none_rate / 2)) >/dev/null
	"$LR" --json "$OUT/rec" >"$OUT/offset.full.json" 2>"$OUT/offset.err"
	python3 - "$OUT/offset.full.json" "$((none_rate / 2))" <<'PY' | tee "$OUT/offset.json"
import json, sys
d = json.load(open(sys.argv[1]))
j = d.get("host", {}).get("joined") or {}
o = j.get("capture_vs_trace_arrival_ns") or {}
print(json.dumps({"rate_sps": int(sys.argv[2]), "doorbells_joined": j.get("doorbells"),
                  "arrival_offsets": j.get("arrival_offsets"),
                  "trace_before_capture": j.get("trace_arrival_before_capture"),
                  "abs_offset_ns": {k: o.get(k) for k in ("count", "p50", "p99", "p999", "max")}}))
PY
fi
