#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-plot: the plot of a long run (issue 34, item 5). A base capture (dgrdma-gen, 131072
# transactions of 64 bytes, the jitter profile) is repeated by pcap-repeat into runs of about
# BENCH_PLOT_TXNS transactions each (default "1000000 10000000"), streamed through a pipe into
# latency-report twice: once as the baseline (`--json -`, the report alone), once as dgrdma-plot
# runs it on a long run (`--csv DIR --plot-columns 1200 --doorbell-rows 100000`: the columns,
# no per-doorbell row). Then dgrdma-plot draws the latency plot, histogram and CCDF (PNG) from
# that folder. For each: latency-report's peak resident set, CPU and wall time, and the ratio
# of its CPU to the baseline's (what the columns cost); the folder's size; dgrdma-plot's CPU,
# wall time and peak resident set (of its largest process). Every doorbell is checked to be in
# the columns. Results: $DGR_BUILD/bench/plot.md (a table), also printed.
set -u
B="${DGR_BUILD:?}"
LR="$B/bin/latency-report"
GEN="$B/bin/dgrdma-gen"
PLOT="$B/bin/dgrdma-plot"
REPEAT="$B/test/analysis/pcap-repeat"
COUNTS="${BENCH_PLOT_TXNS:-1000000 10000000}"
BASE_TXNS=131072
out="$B/bench"
tmp=$(mktemp -d "$B/bench-plot.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
res="$out/plot.md"

# measure CMD...: "maxrss_kB cpu_s wall_s status" of CMD on standard error
. "$(dirname "$0")/measure.sh"

"$GEN" -o "$tmp/base.pcap" --format pcap-ns -e "$tmp/base.json" --txns "$BASE_TXNS" --bytes 64 \
	--profile jitter --no-latency-list --list-frames "$tmp/base.frames" || exit 1
first=$(awk '$2 == "data" { print $1; exit }' "$tmp/base.frames")

rows=""
for want in $COUNTS; do
	copies=$(((want + BASE_TXNS - 1) / BASE_TXNS))
	txns=$((copies * BASE_TXNS))
	m=$({ "$REPEAT" "$tmp/base.pcap" "$first" "$copies" |
		measure "$LR" --json --no-progress - >"$tmp/base.out"; } 2>&1) || exit 1
	read -r _ bcpu _ brc <<<"$m"
	[ "$brc" = 0 ] || { echo "bench-plot: latency-report exited $brc at $txns" >&2; exit 1; }
	rm -rf "$tmp/csv"
	m=$({ "$REPEAT" "$tmp/base.pcap" "$first" "$copies" |
		measure "$LR" --json --no-progress --csv "$tmp/csv" --plot-columns 1200 \
			--doorbell-rows 100000 - >"$tmp/csv.json"; } 2>&1) || exit 1
	read -r rss cpu wall rc <<<"$m"
	[ "$rc" = 0 ] || { echo "bench-plot: latency-report --plot-columns exited $rc at $txns" >&2; exit 1; }
	mv "$tmp/csv.json" "$tmp/csv/report.json"
	got=$(awk -F, 'NR > 1 { s += $6 } END { print s + 0 }' "$tmp/csv/columns-rx.csv")
	[ "$got" = "$txns" ] || { echo "bench-plot: $got doorbells in the columns of $txns" >&2; exit 1; }
	size=$(du -sk "$tmp/csv" | cut -f1)
	rm -rf "$tmp/plots"
	m=$(measure "$PLOT" -o "$tmp/plots" --kind latency,histogram,ccdf --format png "$tmp/csv" 2>&1 >/dev/null) ||
		exit 1
	read -r prss pcpu pwall prc <<<"${m##*$'\n'}"
	[ "$prc" = 0 ] || { echo "bench-plot: dgrdma-plot exited $prc at $txns" >&2; exit 1; }
	rows+=$(awk -v n="$txns" -v r="$rss" -v c="$cpu" -v w="$wall" -v bc="$bcpu" -v s="$size" \
		-v pr="$prss" -v pc="$pcpu" -v pw="$pwall" 'BEGIN {
		printf "| %d (pipe) | %.1f MB | %.2f s | %.2f s | %.2f | %d KB | %.2f s | %.2f s | %.1f MB |\n",
			n, r / 1024, c, w, c / bc, s, pc, pw, pr / 1024 }')$'\n'
done

{
	echo "# make bench-plot, $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
	echo "| transactions | latency-report RSS | CPU | wall | CPU / without columns | CSV folder | dgrdma-plot CPU | wall | RSS |"
	echo "|---|---|---|---|---|---|---|---|---|"
	printf '%s' "$rows"
} | tee "$res"
