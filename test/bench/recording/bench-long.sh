#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-long (issue 34, item 1): a long run recorded by dgrdma-capture --long keeps its disk use
# within the bound it states and its recorder's memory flat. dgrdma-fpga (adc, BENCH_RATE
# samples/s, default 10e6) streams into dgrdma-host rx over UDP on 127.0.0.1, in network and
# mount namespaces of this script's own (a private loopback, /run/lttng and /dev/shm: a session
# daemon of its own), for DURATION seconds (default 3600). Every BENCH_SAMPLE seconds (default
# 60) it writes one row: the seconds since the start, the run folder's bytes (du), the capture
# ring's files and bytes, the trace's bytes, and the resident memory (VmRSS, KiB) of the
# recorder's processes: dumpcap, lttng-sessiond, its consumer daemons. BENCH_LONG_OPTS adds
# dgrdma-capture options (e.g. "--ring-file-size 8M --trace-file-size 8M" so that a short run
# turns its ring). Results: $DGR_BUILD/bench/long/{samples.tsv,table.md,run/}. Not a test.
set -u
: "${DGR_BUILD:?}" "${DGR_SRC:?}"
DURATION=${DURATION:-3600}
SAMPLE=${BENCH_SAMPLE:-60}
RATE=${BENCH_RATE:-10e6}
read -r -a LONG_OPTS <<<"${BENCH_LONG_OPTS:-}"
OUT=$DGR_BUILD/bench/long
HOST=$DGR_BUILD/bin/dgrdma-host
FPGA=$DGR_BUILD/bin/dgrdma-fpga
CAPTURE=$DGR_BUILD/bin/dgrdma-capture

[[ $DURATION =~ ^[1-9][0-9]{0,5}$ ]] || { echo "bench-long: DURATION: '$DURATION' is out of range 1..999999 s" >&2; exit 2; }
[[ $SAMPLE =~ ^[1-9][0-9]{0,4}$ ]] || { echo "bench-long: BENCH_SAMPLE: '$SAMPLE' is out of range 1..99999 s" >&2; exit 2; }
if [ "$(id -u)" != 0 ] || [ ! -x "$FPGA" ] || ! command -v lttng-sessiond >/dev/null ||
	! command -v dumpcap >/dev/null; then
	echo "bench-long: needs root, dgrdma-fpga, lttng-tools and dumpcap; skipped" >&2
	exit 0
fi
# namespaces of our own: the stream's ports and the session daemon are this run's alone
if [ -z "${BENCH_LONG_INNER:-}" ]; then
	export BENCH_LONG_INNER=1
	exec unshare --net --mount --propagation private "$0" "$@"
fi
ip link set lo up
mount -t tmpfs -o mode=0755 tmpfs /run/lttng && mount -t tmpfs -o mode=1777 tmpfs /dev/shm ||
	{ echo "bench-long: cannot mount a private /run/lttng and /dev/shm" >&2; exit 1; }

rm -rf "$OUT"
mkdir -p "$OUT"
RUN=$OUT/run
PORT_F=31000
PORT_H=31001
CAP_PID=""
FPGA_PID=""
trap '[ -n "$FPGA_PID" ] && kill $FPGA_PID 2>/dev/null; [ -n "$CAP_PID" ] && kill -TERM $CAP_PID 2>/dev/null; wait' EXIT

rss_kib() {
	local p s=0 v
	for p in "$@"; do
		v=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$p/status" 2>/dev/null)
		s=$((s + ${v:-0}))
	done
	echo "$s"
}
bytes_of() {
	[ -e "$1" ] || { echo 0; return; }
	du -sb "$1" | cut -f1
}

# --idle-timeout: the host ends 5 s after the emulator's last frame
"$CAPTURE" -o "$RUN" --long "${LONG_OPTS[@]}" -- "$HOST" rx --udp --bind "127.0.0.1:$PORT_H" \
	--peer "127.0.0.1:$PORT_F" --rcvbuf 16M --idle-timeout 5 --summary-json "$OUT/host.json" \
	--quiet 2>"$OUT/capture.err" &
CAP_PID=$!
for ((n = 0; n < 600; n++)); do
	ss -Huln "sport = :$PORT_H" | grep -q . && break
	sleep 0.1
done
"$FPGA" --udp --bind "127.0.0.1:$PORT_F" --peer "127.0.0.1:$PORT_H" --mode adc --rate "$RATE" \
	--duration "$DURATION" --quiet --summary-json "$OUT/fpga.json" &
FPGA_PID=$!
start=$SECONDS
printf 't_s\trun_bytes\tring_files\tcapture_bytes\ttrace_bytes\tdumpcap_kib\tsessiond_kib\tconsumerd_kib\trecorder_kib\n' >"$OUT/samples.tsv"
sample() {
	local dumpcap sessiond consumerd d s c
	dumpcap=$(pgrep -P "$CAP_PID" -x dumpcap | head -n1)
	sessiond=$(cat /run/lttng/lttng-sessiond.pid 2>/dev/null)
	consumerd=$([ -n "$sessiond" ] && pgrep -P "$sessiond" lttng-consumerd | tr '\n' ' ')
	d=$(rss_kib ${dumpcap:+"$dumpcap"})
	s=$(rss_kib ${sessiond:+"$sessiond"})
	# shellcheck disable=SC2086 # the pids, one a word
	c=$(rss_kib $consumerd)
	printf '%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n' $((SECONDS - start)) "$(bytes_of "$RUN")" \
		"$(find "$RUN/capture" -name 'capture_*' 2>/dev/null | wc -l)" \
		"$(bytes_of "$RUN/capture")" "$(bytes_of "$RUN/trace")" "$d" "$s" "$c" $((d + s + c)) \
		>>"$OUT/samples.tsv"
}
next=$SAMPLE
while kill -0 "$FPGA_PID" 2>/dev/null; do
	if [ $((SECONDS - start)) -ge "$next" ]; then
		sample
		next=$((next + SAMPLE))
	fi
	sleep 1
done
wait "$FPGA_PID"
FPGA_PID=""
sample
wait "$CAP_PID"
CAP_PID=""

bound=$(jq -r '.bounds.disk_bytes' "$RUN/run.json")
{
	echo "dgrdma-capture --long ${LONG_OPTS[*]}: ${DURATION} s of dgrdma-fpga adc at $RATE samples/s into dgrdma-host rx (UDP, 127.0.0.1)"
	echo
	echo "| t (s) | run folder, MB | ring files | capture, MB | trace, MB | dumpcap RSS, MiB | lttng-sessiond RSS, MiB | consumerd RSS, MiB | recorder RSS, MiB |"
	echo "|---|---|---|---|---|---|---|---|---|"
	tail -n +2 "$OUT/samples.tsv" | awk -F'\t' '{ printf "| %d | %.1f | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n",
		$1, $2 / 1e6, $3, $4 / 1e6, $5 / 1e6, $6 / 1024, $7 / 1024, $8 / 1024, $9 / 1024 }'
	echo
	echo "stated disk bound: $bound bytes ($(awk -v b="$bound" 'BEGIN { printf "%.1f", b / 1e6 }') MB);" \
		"largest run folder sampled: $(tail -n +2 "$OUT/samples.tsv" | cut -f2 | sort -n | tail -n1) bytes"
	echo "ring: $(jq -r '.capture.ring | "\(.files_written) files written, \(.files_kept) kept, start dropped: \(.start_dropped)"' "$RUN/run.json");" \
		"capture: $(jq -r '"\(.capture.packets_captured) packets, \(.capture.packets_dropped) dropped; trace: \(.trace.discarded_events) events discarded"' "$RUN/run.json")"
	echo "host: $(jq -r '"samples lost \(.samples_lost), drop rate \(.drop_rate)"' "$OUT/host.json" 2>/dev/null)"
} >"$OUT/table.md"
cat "$OUT/table.md"
