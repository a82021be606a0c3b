#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-recording-instr (issue 33, item 6): the instructions the default recording costs
# dgrdma-host per buffer, counted by valgrind's callgrind, so that the figure holds on a busy
# machine where CPU time per sample moves with the batching of the host's threads. dgrdma-fpga
# (adc, TP_INSTR_RATE samples/s, default 2e6, for TP_INSTR_SECONDS, default 3) streams into
# dgrdma-host rx over UDP on 127.0.0.1 (buffers of TP_INSTR_BUFFER bytes, default 16K), the host
# under callgrind, in a network and mount namespace of its own (its own session daemon). Cases,
# interleaved in TP_INSTR_ROUNDS rounds (default 3):
#   none     the host unrecorded;
#   default  the host under dgrdma-capture --no-pcap (the default UST events);
# and with TP_INSTR_BASE=BUILD_FOLDER (another build of the project, e.g. an older commit's) the
# same two with that build's dgrdma-host and dgrdma-capture (base-none, base-default).
# Per run: instructions (Ir) per buffer completed of the host's stack threads (receive, worker,
# transmit and control thread functions, inclusive: it moves with the batching of the threads,
# slowed down by valgrind), of the whole process, and of the dgrdma provider's event probes
# (inclusive: all that recording an event costs the thread that fires it); for the
# recorded cases the host's events per buffer by name, from the trace, and each probe's Ir per
# event. Result:
# $DGR_BUILD/bench/recording-instr/{runs.csv,table.txt}. Not a test: valgrind's counts are
# repeatable, but the rate the emulator achieves on a busy machine moves the batching.
set -u
: "${DGR_BUILD:?}" "${DGR_SRC:?}"
RATE=${TP_INSTR_RATE:-2e6}
SECS=${TP_INSTR_SECONDS:-3}
ROUNDS=${TP_INSTR_ROUNDS:-3}
BUFSZ=${TP_INSTR_BUFFER:-16K}
BASE=${TP_INSTR_BASE:-}
OUT=$DGR_BUILD/bench/recording-instr

if [ -z "${TP_INSTR_INSIDE:-}" ]; then
	if [ "$(id -u)" != 0 ] || ! command -v valgrind >/dev/null ||
		! command -v callgrind_annotate >/dev/null || ! command -v lttng-sessiond >/dev/null; then
		echo "bench-recording-instr: needs root, valgrind and lttng-tools; skipped" >&2
		exit 0
	fi
	TP_INSTR_INSIDE=1 exec unshare --net --mount --propagation private "$0" "$@"
fi

mkdir -p "$OUT" /run/lttng /dev/shm
mount -t tmpfs -o mode=0755 tmpfs /run/lttng && mount -t tmpfs -o mode=1777 tmpfs /dev/shm ||
	{ echo "bench-recording-instr: no private /run/lttng" >&2; exit 1; }
ip link set lo up
lttng-sessiond --daemonize >/dev/null 2>&1 || { echo "bench-recording-instr: no sessiond" >&2; exit 1; }
trap 'kill -TERM "$(cat /run/lttng/lttng-sessiond.pid 2>/dev/null)" 2>/dev/null' EXIT
PORT_F=34600 PORT_H=34601
BUFBYTES=$(numfmt --from=iec "$BUFSZ")

# run BUILD MODE DIR: one run into DIR (host.json, cg.out, rec/ when recorded)
run() {
	local b=$1 mode=$2 dir=$3 r n
	local host=(valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" "$b/bin/dgrdma-host"
		rx --udp --bind "127.0.0.1:$PORT_H" --peer "127.0.0.1:$PORT_F" --rcvbuf 16M
		--buffer-size "$BUFSZ" --idle-timeout 3 --summary-json "$dir/host.json" --quiet
		--ready-file "$dir/ready")
	rm -rf "$dir"
	mkdir -p "$dir"
	if [ "$mode" = none ]; then
		"${host[@]}" 2>"$dir/host.err" &
	else
		"$b/bin/dgrdma-capture" --no-pcap -o "$dir/rec" -- "${host[@]}" >"$dir/capture.log" 2>&1 &
	fi
	r=$!
	for ((n = 0; n < 600; n++)); do
		[ -e "$dir/ready" ] && break
		sleep 0.1
	done
	"$b/bin/dgrdma-fpga" --udp --bind "127.0.0.1:$PORT_F" --peer "127.0.0.1:$PORT_H" --mode adc \
		--rate "$RATE" --buffer-size "$BUFBYTES" --duration "$SECS" --quiet
	wait "$r"
}

# row ROUND CASE DIR: one line of runs.csv
row() {
	local dir=$3 buffers total stack probes events
	buffers=$(jq -r '.counters.txns_completed // 0' "$dir/host.json" 2>/dev/null)
	if [ -z "$buffers" ] || [ "$buffers" = 0 ]; then
		echo "$1,$2,0,,,,,"
		return
	fi
	total=$(callgrind_annotate "$dir/cg.out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }')
	stack=$(callgrind_annotate --inclusive=yes --threshold=100 "$dir/cg.out" 2>/dev/null |
		awk '/:(dgr_rx_thread|dgr_worker_thread|dgr_tx_thread|control_thread) \[/ { gsub(",", "", $1); s += $1 } END { print s + 0 }')
	# the probes' inclusive Ir: every instruction of recording an event, on the thread firing it
	probes=$(callgrind_annotate --inclusive=yes --threshold=100 "$dir/cg.out" 2>/dev/null |
		awk '!/=>/ && /:lttng_ust__event_probe__dgrdma___/ { gsub(",", "", $1); s += $1 } END { print s + 0 }')
	events="" per_event=""
	if [ -d "$dir/rec/trace" ]; then
		babeltrace2 "$dir/rec/trace" 2>/dev/null | grep -o ' dgrdma:[a-z_]*' | sort | uniq -c |
			awk '{ print substr($2, 8), $1 }' >"$dir/counts.txt"
		events=$(awk -v b="$buffers" '{ printf "%s%s=%.2f", sep, $1, $2 / b; sep = " " }' \
			"$dir/counts.txt")
		# each probe's inclusive Ir per event it recorded (buffer_class: the probe that
		# buffer_acquire and buffer_release shared before held_ns)
		per_event=$(callgrind_annotate --inclusive=yes --threshold=100 "$dir/cg.out" 2>/dev/null |
			awk '!/=>/ && match($0, /:lttng_ust__event_probe__dgrdma___[a-z_]* \[/) {
				name = substr($0, RSTART + 34, RLENGTH - 36); gsub(",", "", $1); print name, $1 }' |
			awk 'NR == FNR { n[$1] = $2; next }
				{ c = $1 == "buffer_class" ? n["buffer_acquire"] + n["buffer_release"] : n[$1] }
				c > 0 && $1 != "counters" && $1 != "stream_config" && $1 != "thread_start" {
					printf "%s%s=%d", sep, $1, $2 / c; sep = " " }' "$dir/counts.txt" -)
	fi
	echo "$1,$2,$buffers,$((total / buffers)),$((stack / buffers)),$((probes / buffers)),$events,$per_event"
}

CASES=("none:$DGR_BUILD" "default:$DGR_BUILD")
[ -n "$BASE" ] && CASES+=("base-none:$BASE" "base-default:$BASE")
echo "round,case,buffers,ir_per_buffer_process,ir_per_buffer_stack_threads,ir_per_buffer_probes,host_events_per_buffer,probe_ir_per_event" >"$OUT/runs.csv"
for round in $(seq "$ROUNDS"); do
	for c in "${CASES[@]}"; do
		name=${c%%:*}
		run "${c#*:}" "${name#base-}" "$OUT/$name"
		row "$round" "$name" "$OUT/$name" | tee -a "$OUT/runs.csv" >&2
	done
done

python3 - "$OUT/runs.csv" "$RATE" "$SECS" "$BUFSZ" <<'PY' | tee "$OUT/table.txt"
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["buffers"] != "0"]
print("dgrdma-fpga adc %s samples/s for %s s -> dgrdma-host rx under callgrind, %s buffers, UDP 127.0.0.1"
      % tuple(sys.argv[2:5]))
print("Ir per buffer completed, median over the rounds (min..max)")
print("%-13s %7s %26s %26s %22s  %s" % ("case", "rounds", "process", "stack threads", "event probes", "host events per buffer (last round)"))
cases = []
for r in rows:
    if r["case"] not in cases:
        cases.append(r["case"])
med = {}
for c in cases:
    rs = [r for r in rows if r["case"] == c]
    cols = []
    for k in ("ir_per_buffer_process", "ir_per_buffer_stack_threads", "ir_per_buffer_probes"):
        v = [int(r[k]) for r in rs]
        med[(c, k)] = statistics.median(v)
        cols.append("%d (%d..%d)" % (statistics.median(v), min(v), max(v)))
    print("%-13s %7d %26s %26s %22s  %s" % (c, len(rs), cols[0], cols[1], cols[2], rs[-1]["host_events_per_buffer"]))
for c in cases:
    last = [r for r in rows if r["case"] == c][-1]
    if last["probe_ir_per_event"]:
        print("%-13s probe Ir per event (last round): %s" % (c, last["probe_ir_per_event"]))
for pre in ("", "base-"):
    n, d = pre + "none", pre + "default"
    if (n, "ir_per_buffer_stack_threads") in med and (d, "ir_per_buffer_stack_threads") in med:
        a = med[(n, "ir_per_buffer_stack_threads")]
        p = med[(d, "ir_per_buffer_probes")]
        print("%-13s the events' probes: %d Ir per buffer, %.1f%% of the unrecorded stack threads' %d"
              % (d, p, 100.0 * p / a, a))
PY
