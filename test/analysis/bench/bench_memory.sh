#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-memory: latency-report's resident memory and throughput against the run's length.
# A base capture (dgrdma-gen, 131072 transactions of 64 bytes, one data and one doorbell frame
# each) is repeated by pcap-repeat into runs of about BENCH_MEMORY_TXNS transactions each
# (default "1000000 10000000 100000000"), streamed through a pipe into `latency-report --json -`.
# For each: the peak resident set (getrusage of the child), its CPU time and wall time, the
# transactions per CPU second, and that rate's ratio to latency-report's on a short run
# (1048576 transactions) read from a file in the same run. The answer is checked each time: every
# transaction matched, nothing lost, no sequence gap. Disk: the series past 1 MiB each go to
# $TMPDIR (16 bytes per doorbell and series: two series on the wire, 3.2 GB at 100 M).
# Results: $DGR_BUILD/bench/memory.md (a table), also printed.
set -u
B="${DGR_BUILD:?}"
LR="$B/bin/latency-report"
GEN="$B/bin/dgrdma-gen"
REPEAT="$B/test/analysis/pcap-repeat"
COUNTS="${BENCH_MEMORY_TXNS:-1000000 10000000 100000000}"
BASE_TXNS=131072
out="$B/bench"
tmp=$(mktemp -d "$B/bench-memory.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
res="$out/memory.md"

# measure CMD...: "maxrss_kB cpu_s wall_s status" of CMD on standard error
. "$(dirname "$0")/measure.sh"

# check JSON TXNS: the report of a clean run of TXNS transactions
check() {
	local got
	got=$(jq -r '.wire.rx | "\(.transactions) \(.matched) \(.unmatched_transactions) \(.discontinuities)"' "$1")
	[ "$got" = "$2 $2 0 0" ] || { echo "bench-memory: expected '$2 $2 0 0', got '$got'" >&2; exit 1; }
	[ "$(jq -r '.losses.any, .capture.sequence_gaps, .capture.duplicate_frames' "$1" | tr '\n' ' ')" = "false 0 0 " ] ||
		{ echo "bench-memory: the repeated run is not clean ($1)" >&2; exit 1; }
}

"$GEN" -o "$tmp/base.pcap" --format pcap-ns -e "$tmp/base.json" --txns "$BASE_TXNS" --bytes 64 \
	--no-latency-list --list-frames "$tmp/base.frames" || exit 1
first=$(awk '$2 == "data" { print $1; exit }' "$tmp/base.frames")

# the baseline: a short run (8 copies, 1048576 transactions) from a file, page cache warm,
# the best of 3 (latency-report's start costs about 0.4 s of CPU: the base capture alone
# would be mostly that)
short_txns=$((8 * BASE_TXNS))
"$REPEAT" "$tmp/base.pcap" "$first" 8 >"$tmp/short.pcap" || exit 1
cat "$tmp/short.pcap" >/dev/null
base=""
for _ in 1 2 3; do
	m=$(measure "$LR" --json --no-progress "$tmp/short.pcap" 2>&1 >"$tmp/short.out") || exit 1
	check "$tmp/short.out" "$short_txns"
	base=$(awk -v m="$m" -v b="$base" 'BEGIN { split(m, a, " "); split(b, o, " "); print (b == "" || a[2] < o[2]) ? m : b }')
done
read -r base_rss base_cpu base_wall _ <<<"$base"
base_pct=$(jq -r '.wire.rx.latency_ns.percentiles // "exact"' "$tmp/short.out")

rows=""
for want in $COUNTS; do
	copies=$(((want + BASE_TXNS - 1) / BASE_TXNS))
	txns=$((copies * BASE_TXNS))
	m=$({ "$REPEAT" "$tmp/base.pcap" "$first" "$copies" |
		measure "$LR" --json --no-progress - >"$tmp/run.out"; } 2>&1) || exit 1
	read -r rss cpu wall rc <<<"$m"
	[ "$rc" = 0 ] || { echo "bench-memory: latency-report exited $rc at $txns" >&2; exit 1; }
	check "$tmp/run.out" "$txns"
	rows+=$(awk -v n="$txns" -v r="$rss" -v c="$cpu" -v w="$wall" -v bn="$short_txns" -v bc="$base_cpu" \
		-v p="$(jq -r '.wire.rx.latency_ns.percentiles // "exact"' "$tmp/run.out")" 'BEGIN {
		printf "| %d (pipe) | %.1f MB | %.2f s | %.2f s | %.0f k/s | %.2f | %s |\n",
			n, r / 1024, c, w, n / c / 1e3, (n / c) / (bn / bc), p }')$'\n'
done

{
	echo "Run: $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) vCPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
	echo "| transactions | max resident | CPU | wall | transactions per CPU s | ratio to the short file | percentiles |"
	echo "|---|---|---|---|---|---|---|"
	awk -v n="$short_txns" -v r="$base_rss" -v c="$base_cpu" -v w="$base_wall" -v p="$base_pct" 'BEGIN {
		printf "| %d (file, baseline) | %.1f MB | %.2f s | %.2f s | %.0f k/s | 1.00 | %s |\n", n, r / 1024, c, w, n / c / 1e3, p }'
	printf '%s' "$rows"
} | tee "$res"
