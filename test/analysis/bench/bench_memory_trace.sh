#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-memory-trace: latency-report's resident memory on run folders (trace + capture)
# against the run's length. For each length in BENCH_MEMORY_TRACE_SECONDS (default "15 120"),
# dgrdma-capture records dgrdma-fpga streaming into dgrdma-host over UDP on loopback (the stack's
# default UST events and a headers-only capture, -s 150), at BENCH_MEMORY_TRACE_MSPS (default 20)
# into 64 host buffers of 4 KiB: about 19 500 doorbells a second. latency-report then reads the
# folder (`--json`): its peak resident set, CPU and wall time, the doorbells the trace and the
# capture matched and those joined, and the stalls found. Memory per doorbell that stays in
# memory shows as resident memory growing with the length; bounded, it stays flat.
# BENCH_MEMORY_TRACE_BEFORE=PROGRAM: also reads each folder with another latency-report (a build
# before a change), in the same run, and checks both give the same report.
# Results: $DGR_BUILD/bench/memory-trace.md (a table), also printed. Run it as root (lttng).
set -u
B="${DGR_BUILD:?}"
LR="$B/bin/latency-report"
HOST="$B/bin/dgrdma-host"
FPGA="$B/bin/dgrdma-fpga"
CAPTURE="$B/bin/dgrdma-capture"
SECONDS_LIST="${BENCH_MEMORY_TRACE_SECONDS:-15 120}"
MSPS="${BENCH_MEMORY_TRACE_MSPS:-20}"
BEFORE="${BENCH_MEMORY_TRACE_BEFORE:-}"
out="$B/bench"
tmp=$(mktemp -d "$B/bench-memory-trace.XXXXXX")
trap '[ -n "${BENCH_KEEP:-}" ] || rm -rf "$tmp"' EXIT
mkdir -p "$out"
res="$out/memory-trace.md"

# measure CMD...: "maxrss_kB cpu_s wall_s status" of CMD on standard error
. "$(dirname "$0")/measure.sh"

command -v lttng >/dev/null || { echo "bench-memory-trace: lttng is not installed (make deps)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "bench-memory-trace: needs root (dgrdma-capture on loopback)" >&2; exit 1; }

rows=""
# an address and ports of this run's own on loopback (another program may use 127.0.0.2:18078)
FIP="127.0.$(($$ % 250 + 1)).$(($$ / 250 % 250 + 2))"
port=$((20000 + $$ % 20000))
for secs in $SECONDS_LIST; do
	port=$((port + 1))
	run="$tmp/run-$secs"
	# the emulator starts once the host's socket is bound (dgrdma-capture sets up first)
	(for _ in $(seq 600); do
		ss -Huln "sport = :$port" 2>/dev/null | grep -q . && break
		sleep 0.05
	done && exec "$FPGA" --udp --bind "$FIP:18078" --peer 127.0.0.1:$port --quiet \
		--rate "${MSPS}e6" --duration "$secs" --host-buffers 64 --buffer-size 4096 \
		--counters-ms 0 >"$tmp/fpga-$secs.out" 2>&1) &
	fpid=$!
	"$CAPTURE" -o "$run" -s 150 -f "udp and port $port" -- \
		"$HOST" rx --udp --bind 127.0.0.1:$port --peer "$FIP:18078" \
		--buffers 64 --buffer-size 4096 --fpga-buffers 8 >"$tmp/capture-$secs.out" 2>&1
	wait "$fpid"
	if [ ! -f "$run/run.json" ] || [ ! -d "$run/trace" ]; then
		echo "bench-memory-trace: no run folder for $secs s: $(tail -2 "$tmp/capture-$secs.out")" >&2
		exit 1
	fi
	# measure's line is the last on standard error, after latency-report's own warnings
	m=$(measure "$LR" --json --no-progress "$run" 2>&1 >"$tmp/report-$secs.json" |
		tee "$tmp/report-$secs.err" | tail -1)
	read -r rss cpu wall rc <<<"$m"
	[ "$rc" -le 1 ] || {
		echo "bench-memory-trace: latency-report exit $rc: $(head -3 "$tmp/report-$secs.err")" >&2
		exit 1
	}
	facts=$(jq -r '[.host.rx.matched // 0, .wire.rx.matched // 0, .host.joined.doorbells // 0,
		.stall_causes.count // 0, .stall_causes.percentiles // "exact"] | join(" ")' "$tmp/report-$secs.json")
	read -r host_db wire_db joined stalls pct <<<"$facts"
	size=$(du -sm "$run" | cut -f1)
	before="-"
	if [ -n "$BEFORE" ]; then
		m=$(measure "$BEFORE" --json --no-progress "$run" 2>&1 >"$tmp/before-$secs.json" | tail -1)
		read -r brss bcpu _ _ <<<"$m"
		before="$((brss / 1024)) MB, $bcpu s"
		# past the exact limit the stall threshold's p50 is the histogram's now (within
		# 0.05%): the stall causes may then differ by a stall near the threshold; the rest
		# of the report, and everything when the p50 is exact, must be the same
		filter='.'
		[ "$pct" = exact ] || filter='del(.stall_causes)'
		if ! diff <(jq -S "$filter" "$tmp/before-$secs.json") <(jq -S "$filter" "$tmp/report-$secs.json") \
			>"$tmp/diff-$secs" 2>&1; then
			before="$before, REPORTS DIFFER ($(wc -l <"$tmp/diff-$secs") diff lines)"
		elif [ "$pct" != exact ]; then
			before="$before, stalls $(jq -r '"\(.stall_causes.count) (threshold \(.stall_causes.threshold_ns) ns)"' \
				"$tmp/before-$secs.json") against $(jq -r '"\(.stall_causes.count) (\(.stall_causes.threshold_ns) ns)"' \
				"$tmp/report-$secs.json"), the rest the same"
		else
			before="$before, the same report"
		fi
	fi
	rows+="| $secs | $host_db | $wire_db | $joined | $stalls | $size | $((rss / 1024)) | $cpu | $wall | $pct | $before |"$'\n'
	rm -rf "$run"
done

{
	echo "latency-report on run folders (UST trace + headers-only capture, UDP on loopback, ${MSPS} MS/s into 64 x 4 KiB)"
	echo
	echo "| seconds | doorbells (trace) | doorbells (capture) | joined | stalls | folder MB | max RSS MB | CPU s | wall s | stall p50 | before: max RSS, CPU |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	printf '%s' "$rows"
} | tee "$res"
