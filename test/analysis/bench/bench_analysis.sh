#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-analysis: latency-report speed against the typical alternatives, in the same run.
#  1. full frames: a generated capture of BENCH_MB (default 300) MB, page cache warm: GB/s,
#     and the ratio to `tshark -T fields | python3 tshark_match.py` doing the same matching;
#  2. 128-byte snaps: frames/s, and the same ratio;
#  3. a trace of BENCH_EVENTS (default 1e6) events from tp-fire: latency-report vs
#     `babeltrace2 --output-format=dummy` (pure decoding) and `babeltrace2` to text.
# Results: $DGR_BUILD/bench/analysis.md (a table), also printed.
set -u
B="${DGR_BUILD:?}"
S="${DGR_SRC:?}"
LR="$B/bin/latency-report"
GEN="$B/bin/dgrdma-gen"
MATCH="$S/test/analysis/bench/tshark_match.py"
MB="${BENCH_MB:-300}"
EVENTS="${BENCH_EVENTS:-1000000}"
out="$B/bench"
tmp=$(mktemp -d "$B/bench-analysis.XXXXXX")
trap 'lttng destroy "dgr-bench-$$" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
mkdir -p "$out"
res="$out/analysis.md"

now() { date +%s.%N; }
# best TIMES CMD...: the fastest of TIMES runs, in seconds
best() {
	local n="$1" t0 t1 b=""
	shift
	for _ in $(seq "$n"); do
		t0=$(now)
		"$@" >/dev/null 2>&1 || { echo "bench: '$*' failed" >&2; exit 1; }
		t1=$(now)
		b=$(awk -v a="$t0" -v c="$t1" -v b="$b" 'BEGIN { t = c - a; print (b == "" || t < b) ? t : b }')
	done
	echo "$b"
}
tshark_pipe() {
	tshark -r "$1" -T fields -e frame.time_epoch -e eth.src -e eth.dst -e data.data 2>/dev/null |
		python3 "$MATCH"
}

# 32 KiB transactions in 9000-byte frames: about 34 KiB of capture per transaction
txns=$((MB * 1024 * 1024 / 34000))
"$GEN" -o "$tmp/full.pcap" --format pcap-ns -e "$tmp/full.json" --txns "$txns" --bytes 32768 \
	--buffers 64 --no-latency-list
"$GEN" -o "$tmp/snap.pcap" --format pcap-ns -e "$tmp/snap.json" --txns $((txns * 40)) --bytes 8000 \
	--buffers 64 --snaplen 128 --no-latency-list
cat "$tmp/full.pcap" "$tmp/snap.pcap" >/dev/null
fbytes=$(stat -c %s "$tmp/full.pcap")
sframes=$(jq -r '.frames' "$tmp/snap.json")
sbytes=$(stat -c %s "$tmp/snap.pcap")

# the baseline must find what latency-report finds
for f in full snap; do
	want=$("$LR" --json --no-progress "$tmp/$f.pcap" | jq -r '.wire.rx | "\(.transactions) \(.doorbells) \(.matched)"')
	got=$(tshark_pipe "$tmp/$f.pcap" | cut -d' ' -f1-3)
	[ "$got" = "$want" ] || { echo "bench: baseline disagrees on $f: '$got' vs '$want'" >&2; exit 1; }
done

t_lr_full=$(best 3 "$LR" --json --no-progress "$tmp/full.pcap")
t_ts_full=$(best 1 tshark_pipe "$tmp/full.pcap")
t_lr_snap=$(best 3 "$LR" --json --no-progress "$tmp/snap.pcap")
t_ts_snap=$(best 1 tshark_pipe "$tmp/snap.pcap")

trace_rows=""
if command -v lttng >/dev/null && [ -x "$B/test/tracepoints/tp-fire" ] && lttng list >/dev/null 2>&1; then
	sess="dgr-bench-$$"
	mkfifo "$tmp/go"
	(read -r _ <"$tmp/go" && exec "$B/test/tracepoints/tp-fire" --packets "$EVENTS" --port 9 >/dev/null 2>&1) &
	fp=$!
	lttng create "$sess" --output="$tmp/trace" >/dev/null &&
		lttng enable-channel -u -s "$sess" big --subbuf-size=8M --num-subbuf=8 >/dev/null &&
		lttng enable-event -u -s "$sess" -c big 'dgrdma:*' >/dev/null &&
		lttng track -u -s "$sess" --vpid="$fp" >/dev/null &&
		lttng start "$sess" >/dev/null
	echo go >"$tmp/go"
	wait "$fp"
	lttng destroy "$sess" >/dev/null
	meta=$(dirname "$(find "$tmp/trace" -name metadata | head -1)")
	nev=$("$LR" --json --no-progress "$tmp/trace" | jq -r '.host.events')
	t_lr_tr=$(best 3 "$LR" --json --no-progress "$tmp/trace")
	t_bt_dummy=$(best 3 babeltrace2 --output-format=dummy "$meta")
	t_bt_text=$(best 1 babeltrace2 "$meta")
	trace_rows=$(awk -v n="$nev" -v a="$t_lr_tr" -v d="$t_bt_dummy" -v t="$t_bt_text" 'BEGIN {
		printf "| trace, %d events | latency-report %.2f s (%.2f M events/s) | babeltrace2 dummy %.2f s, text %.2f s | %.2fx dummy time, %.1fx faster than text |\n",
			n, a, n / a / 1e6, d, t, a / d, t / a }')
fi

{
	echo "Run: $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) vCPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
	echo "| input | latency-report | tshark -T fields + python3 | ratio |"
	echo "|---|---|---|---|"
	awk -v b="$fbytes" -v a="$t_lr_full" -v t="$t_ts_full" 'BEGIN {
		printf "| full frames, %.0f MB | %.3f s (%.2f GB/s) | %.2f s (%.3f GB/s) | %.0fx |\n", b / 1e6, a, b / a / 1e9, t, b / t / 1e9, t / a }'
	awk -v f="$sframes" -v b="$sbytes" -v a="$t_lr_snap" -v t="$t_ts_snap" 'BEGIN {
		printf "| 128-byte snaps, %d frames (%.0f MB) | %.3f s (%.2f M frames/s) | %.2f s (%.3f M frames/s) | %.0fx |\n", f, b / 1e6, a, f / a / 1e6, t, f / t / 1e6, t / a }'
	[ -n "$trace_rows" ] && echo "$trace_rows"
} | tee "$res"
