#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-read: latency-report's reading of a capture against the bare libpcap read loop
# over the same file (pcap-loop: pcap_fopen_offline + pcap_next_ex through the same 256 KiB
# stdio buffer), the physical limit of issue 34 item 4 (target: at most 1.25x).
#  - captures: dgrdma-gen --format pcap-ns --txns BENCH_READ_TXNS (default 10000) --bytes 32768
#    --buffers 64 --no-latency-list, at --mtu 1500 and 9000 (about 340 MB each), page cache warm;
#  - BENCH_READ_ROUNDS (default 9) alternating rounds of pcap-loop and latency-report --json:
#    the median CPU time (user + system, getrusage of the child) and wall time of each;
#  - instructions of each (valgrind --tool=callgrind), once: repeatable on a busy machine.
#    BENCH_READ_CALLGRIND=0 leaves them out.
# Before timing, both must read the same frames. Results: $DGR_BUILD/bench/read.md, also printed.
set -u
B="${DGR_BUILD:?}"
LR="$B/bin/latency-report"
GEN="$B/bin/dgrdma-gen"
LOOP="$B/test/analysis/pcap-loop"
TXNS="${BENCH_READ_TXNS:-10000}"
ROUNDS="${BENCH_READ_ROUNDS:-9}"
CALLGRIND="${BENCH_READ_CALLGRIND:-1}"
out="$B/bench"
tmp=$(mktemp -d "$B/bench-read.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
res="$out/read.md"

# rounds N CMD_A -- CMD_B: N alternating runs of both; prints "cpu_a wall_a cpu_b wall_b"
# (medians, ms)
rounds() {
	python3 -c '
import os, statistics, sys, time
n = int(sys.argv[1]); cut = sys.argv.index("--")
cmds = [sys.argv[2:cut], sys.argv[cut + 1:]]
cpu = [[], []]; wall = [[], []]
for _ in range(n):
    for i, c in enumerate(cmds):
        t = time.monotonic()
        pid = os.fork()
        if pid == 0:
            fd = os.open("/dev/null", os.O_WRONLY)
            os.dup2(fd, 1)
            os.execv(c[0], c)
        _, st, ru = os.wait4(pid, 0)
        wall[i].append((time.monotonic() - t) * 1000)
        if st != 0:
            sys.exit("bench: %s failed" % " ".join(c))
        cpu[i].append((ru.ru_utime + ru.ru_stime) * 1000)
m = statistics.median
print("%.1f %.1f %.1f %.1f" % (m(cpu[0]), m(wall[0]), m(cpu[1]), m(wall[1])))
' "$@"
}

# instructions CMD...: the instructions callgrind counts for CMD, in millions
instructions() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
		awk '/refs:/ { gsub(",", "", $NF); printf "%.1f", $NF / 1e6 }'
}

{
	echo "# latency-report against the bare libpcap read loop ($(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg))"
	echo
	echo "$ROUNDS alternating rounds, medians; $TXNS transactions of 32 KiB per capture."
	echo
	echo "| capture | frames | bare loop CPU | latency-report CPU | ratio | bare loop wall | latency-report wall | ratio | instructions, loop | latency-report | ratio |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
} >"$res"
for mtu in 1500 9000; do
	cap="$tmp/mtu$mtu.pcap"
	"$GEN" -o "$cap" --format pcap-ns -e "$tmp/mtu$mtu.json" --txns "$TXNS" --bytes 32768 \
		--buffers 64 --mtu "$mtu" --no-latency-list || exit 1
	cat "$cap" >/dev/null
	read -r frames _ < <("$LOOP" "$cap") || exit 1
	lr_frames=$("$LR" --json --no-progress "$cap" | jq -r '.capture.frames')
	[ "$frames" = "$lr_frames" ] || { echo "bench: pcap-loop read $frames frames, latency-report $lr_frames" >&2; exit 1; }
	read -r c_loop w_loop c_lr w_lr < <(rounds "$ROUNDS" "$LOOP" "$cap" -- "$LR" --json --no-progress "$cap") || exit 1
	i_loop="" i_lr="" i_ratio=""
	if [ "$CALLGRIND" = 1 ] && command -v valgrind >/dev/null; then
		i_loop=$(instructions "$LOOP" "$cap")
		i_lr=$(instructions "$LR" --json --no-progress "$cap")
		i_ratio=$(awk -v a="$i_lr" -v b="$i_loop" 'BEGIN { printf "%.2fx", a / b }')
		i_loop="$i_loop M" i_lr="$i_lr M"
	fi
	awk -v mtu="$mtu" -v mb="$(($(stat -c %s "$cap") / 1000000))" -v f="$frames" \
		-v cl="$c_loop" -v cr="$c_lr" -v wl="$w_loop" -v wr="$w_lr" \
		-v il="$i_loop" -v ir="$i_lr" -v iq="$i_ratio" \
		'BEGIN { printf "| MTU %s, %s MB | %s | %.1f ms | %.1f ms | %.2fx | %.1f ms | %.1f ms | %.2fx | %s | %s | %s |\n",
			mtu, mb, f, cl, cr, cr / cl, wl, wr, wr / wl, il, ir, iq }' >>"$res"
	rm -f "$cap"
done
cat "$res"
