#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-fpga: the highest ADC rate dgrdma-fpga produces on this machine, sending over
# UDP on 127.0.0.1 into a sink that only counts (fpga-test-host sink: a doorbell for
# every transaction at once). The ADC is asked for 1e10 samples/s with
# report_data_loss=false, so it produces as fast as buffers come back; the rate
# achieved is samples_sent / elapsed (the ADC's clock elapsed_ns with the time it
# froze, frozen_ns: the run on the real clock, docs/fpga.md section 6). Because the
# machine is shared, the emulator's own CPU time is reported too: samples_sent /
# (user + sys) is what one full core would sustain. Baseline in the same run: the same with --batch 1 (one sendmmsg per
# frame instead of up to 64); the ratio shows what batching buys.
# A third run over a veth pair between two namespaces (raw Ethernet, as bench-stack
# runs the emulator) when root. Results: build/bench/fpga.txt (and stdout).
set -u
: "${DGR_BUILD:?}" "${DGR_SRC:?}"
. "$DGR_SRC/test/lib/sockets.sh"
FPGA="$DGR_BUILD/bin/dgrdma-fpga"
SINK="$DGR_BUILD/test/fpga/fpga-test-host"
DUR=${BENCH_FPGA_SECONDS:-3}
OUT="$DGR_BUILD/bench/fpga.txt"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fpgbench$$.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$(dirname "$OUT")"
PF=$((30000 + ($$ * 7) % 20000))
PH=$((PF + 1))
BUFS=(--buffer-size 32768)
# forced socket buffers need CAP_NET_ADMIN: as another user the defaults stay
SOCKBUF=()
SINKBUF=()
if [ "$(id -u)" = 0 ]; then
	SOCKBUF=(--rcvbuf 16M --sndbuf 16M)
	SINKBUF=(--rcvbuf 64M)
fi

run() {
	local name="$1"
	shift
	"$SINK" --udp --bind "127.0.0.1:$PH" --peer "127.0.0.1:$PF" "${SINKBUF[@]}" --idle 1 \
		"${BUFS[@]}" --buffers 255 --fpga-buffers 2 sink >"$WORK/$name.sink" 2>&1 &
	local sp=$!
	sleep 0.2
	"$FPGA" --udp --bind "127.0.0.1:$PF" --peer "127.0.0.1:$PH" "${SOCKBUF[@]}" \
		--rate 1e10 --report-data-loss false "${BUFS[@]}" --host-buffers 255 \
		--duration "$DUR" --quiet --drain-ms 500 --summary-json "$WORK/$name.json" "$@" \
		>"$WORK/$name.out" 2>&1
	wait "$sp"
	jq -r --arg n "$name" '
		(.samples_sent / ((.elapsed_ns + .frozen_ns) / 1e9)) as $r |
		(.samples_sent / ((.cpu_user_ns + .cpu_sys_ns) / 1e9)) as $c |
		"\($n) \($r) \($c) \(.samples_sent) \(.elapsed_ns + .frozen_ns) \(.cpu_user_ns + .cpu_sys_ns) \(.frames_tx)"' \
		"$WORK/$name.json" >"$WORK/$name.row"
}

run batched
run batch1 --batch 1
read -r _ rate cap sent el cpu frames <"$WORK/batched.row"
read -r _ rate1 cap1 _ _ _ _ <"$WORK/batch1.row"

# Raw Ethernet over a veth pair between two namespaces (what bench-stack uses), root only.
veth_line="veth (raw Ethernet, MTU 9000): skipped (needs root for network namespaces)"
if [ "$(id -u)" = 0 ]; then
	. "$DGR_SRC/test/lib/netns.sh"
	DGR_LINK_TAG="fpg$$"
	trap 'dgr_link_down; rm -rf "$WORK"' EXIT
	if dgr_link_up netns; then
		"${DGR_HOST_RUN[@]}" "$SINK" "${DGR_HOST_TRANSPORT[@]}" --rcvbuf 64M --idle 1 \
			"${BUFS[@]}" --buffers 255 --fpga-buffers 2 sink >"$WORK/veth.sink" 2>&1 &
		sp=$!
		sleep 0.2
		"${DGR_FPGA_RUN[@]}" "$FPGA" "${DGR_FPGA_TRANSPORT[@]}" --rcvbuf 16M --sndbuf 16M \
			--rate 1e10 --report-data-loss false "${BUFS[@]}" --host-buffers 255 \
			--duration "$DUR" --quiet --drain-ms 500 --summary-json "$WORK/veth.json" \
			>"$WORK/veth.out" 2>&1
		wait "$sp"
		veth_line=$(jq -r '(.samples_sent / ((.elapsed_ns + .frozen_ns) / 1e9)) as $r |
			(.samples_sent / ((.cpu_user_ns + .cpu_sys_ns) / 1e9)) as $c |
			"veth (raw Ethernet, MTU 9000): \($r / 1e6 | floor) MS/s achieved, \($c / 1e6 | floor) MS/s per full core"' \
			"$WORK/veth.json")
	fi
fi
{
	echo "bench-fpga $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "command: make bench-fpga (test/bench/fpga/bench-fpga.sh, ${DUR} s per run)"
	awk -v r="$rate" -v c="$cap" -v s="$sent" -v e="$el" -v u="$cpu" -v f="$frames" 'BEGIN {
		printf "batched (sendmmsg up to 64 frames): %.1f MS/s achieved (%.2f Gbit/s), %d samples in %.3f s, %d frames\n", r / 1e6, r * 32 / 1e9, s, e / 1e9, f
		printf "  emulator CPU %.3f s: %.1f MS/s per full core (%.2f Gbit/s)\n", u / 1e9, c / 1e6, c * 32 / 1e9 }'
	awk -v r="$rate1" -v c="$cap1" 'BEGIN {
		printf "baseline --batch 1: %.1f MS/s achieved, %.1f MS/s per full core\n", r / 1e6, c / 1e6 }'
	awk -v a="$cap" -v b="$cap1" -v r="$rate" -v q="$rate1" 'BEGIN {
		printf "ratio batched / batch 1: %.2f per core, %.2f achieved\n", a / b, r / q }'
	echo "$veth_line"
} | tee "$OUT"
