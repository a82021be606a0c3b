#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-capture-startup (make bench): how long dgrdma-capture takes from its start to the moment
# it runs COMMAND (run.json's clocks.startup_ms), against the two jobs it does before: setting up
# the LTTng session (the same lttng calls, timed here) and opening dumpcap's kernel buffer (a
# dumpcap with the same buffer, timed until its file has its header). Done one after the other
# they would take their sum; dgrdma-capture opens dumpcap while it sets the session up, so its
# start-up is near the longer of the two. ROUNDS (default 5) interleaved rounds, medians.
# As root (dumpcap on lo); results in $DGR_BUILD/bench/capture-startup.txt.
set -u
: "${DGR_BUILD:?}" "${DGR_SRC:?}"
ROUNDS=${ROUNDS:-5}
CAPTURE="$DGR_BUILD/bin/dgrdma-capture"
OUT="$DGR_BUILD/bench"
mkdir -p "$OUT"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
[ "$(id -u)" = 0 ] || { echo "bench-capture-startup: needs root (dumpcap on lo)" >&2; exit 2; }
lttng list >/dev/null 2>&1 || lttng-sessiond --daemonize >/dev/null 2>&1

ms_since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%d\n", (b - a) * 1000 }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

lttng_setup() { # SESSION: the calls dgrdma-capture makes before COMMAND, then tear-down
	local s=$1 t
	t=$EPOCHREALTIME
	lttng create "$s" --output="$W/$s" >/dev/null &&
		lttng enable-channel -u -s "$s" dgrdma --buffers-uid --subbuf-size=4194304 --num-subbuf=8 >/dev/null &&
		lttng add-context -u -s "$s" -c dgrdma -t vpid -t vtid >/dev/null &&
		lttng untrack -u -s "$s" --vuid --all >/dev/null &&
		lttng track -u -s "$s" --vuid="$(id -u)" >/dev/null &&
		lttng enable-event -u -s "$s" -c dgrdma 'dgrdma:thread_start' >/dev/null &&
		lttng start "$s" >/dev/null
	ms_since "$t"
	lttng destroy "$s" >/dev/null 2>&1
}

dumpcap_open() { # FILE: until dumpcap (512 MiB, the default) has written its header
	local t p
	t=$EPOCHREALTIME
	dumpcap -q -i lo -f 'udp port 18078' -B 512 -w "$1" 2>/dev/null &
	p=$!
	while [ ! -s "$1" ] && kill -0 "$p" 2>/dev/null; do sleep 0.005; done
	ms_since "$t"
	kill "$p" 2>/dev/null
	wait "$p" 2>/dev/null
}

for ((r = 1; r <= ROUNDS; r++)); do
	lttng_setup "bench-startup-$$-$r" >>"$W/lttng"
	dumpcap_open "$W/d$r.pcapng" >>"$W/dumpcap"
	"$CAPTURE" -o "$W/run$r" --if lo -- true >/dev/null 2>&1
	jq -r .clocks.startup_ms "$W/run$r/run.json" >>"$W/capture"
done
l=$(median <"$W/lttng")
d=$(median <"$W/dumpcap")
c=$(median <"$W/capture")
{
	echo "dgrdma-capture start-up, medians of $ROUNDS rounds ($(date -u +%F), $(nproc) CPUs)"
	echo "  LTTng session set-up alone:        $l ms"
	echo "  dumpcap's 512 MiB buffer alone:    $d ms"
	echo "  one after the other (their sum):   $((l + d)) ms"
	echo "  dgrdma-capture, start to COMMAND:  $c ms"
	echo "  ratio to the sum:                  $(awk -v c="$c" -v s="$((l + d))" 'BEGIN { printf "%.2f", c / s }')"
} | tee "$OUT/capture-startup.txt"
