#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-capture-startup (make bench): how long dgrdma-capture takes from its start to the moment
# it runs COMMAND (run.json's clocks.startup_ms) when it records both the trace and the capture,
# against the same tool recording only one of them (--no-pcap: the LTTng session set-up;
# --no-trace: dumpcap opening its 512 MiB kernel buffer). Done one after the other the two jobs
# would take their sum; dgrdma-capture opens dumpcap while it sets the session up, so its
# start-up is near the longer of the two. Also its end: from COMMAND's end (run.json's
# clocks.end) to its own exit (the capture's drain, lttng stop and destroy, the run's facts).
# ROUNDS (default 7) interleaved rounds, medians.
# As root (dumpcap on lo); results in $DGR_BUILD/bench/capture-startup.txt.
set -u
: "${DGR_BUILD:?}" "${DGR_SRC:?}"
ROUNDS=${ROUNDS:-7}
CAPTURE="$DGR_BUILD/bin/dgrdma-capture"
OUT="$DGR_BUILD/bench"
mkdir -p "$OUT"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
[ "$(id -u)" = 0 ] || { echo "bench-capture-startup: needs root (dumpcap on lo)" >&2; exit 2; }
lttng list >/dev/null 2>&1 || lttng-sessiond --daemonize >/dev/null 2>&1

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

startup() { # NAME OPTIONS...: one recorded run of 'true', its start-up in ms; its end in W/NAME.end
	local name=$1 exited startup sec nsec
	shift
	"$CAPTURE" -o "$W/$name" "$@" -- true >/dev/null 2>&1
	exited=${EPOCHREALTIME/./}
	read -r startup sec nsec < <(jq -r '"\(.clocks.startup_ms) \(.clocks.end.realtime_sec) \(.clocks.end.realtime_nsec)"' "$W/$name/run.json")
	echo $(((exited - (sec * 1000000 + nsec / 1000)) / 1000)) >>"$W/${name%%[0-9]*}.end"
	echo "$startup"
}

# The order turns each round: a dumpcap that follows another one's exit gets its 512 MiB from
# pages just freed and opens several times faster than one that follows no capture.
kinds=(trace pcap both)
for ((r = 1; r <= ROUNDS; r++)); do
	for ((k = 0; k < 3; k++)); do
		case ${kinds[(r + k) % 3]} in
		trace) startup "trace$r" --no-pcap >>"$W/trace" ;;
		pcap) startup "pcap$r" --no-trace --if lo >>"$W/pcap" ;;
		both) startup "both$r" --if lo >>"$W/both" ;;
		esac
	done
done
l=$(median <"$W/trace")
d=$(median <"$W/pcap")
c=$(median <"$W/both")
{
	echo "dgrdma-capture start-up, medians of $ROUNDS rounds ($(date -u +%F), $(nproc) CPUs)"
	echo "  trace only (--no-pcap):            $l ms"
	echo "  capture only (--no-trace):         $d ms"
	echo "  one after the other (their sum):   $((l + d)) ms"
	echo "  dgrdma-capture, start to COMMAND:  $c ms"
	echo "  ratio to the sum:                  $(awk -v c="$c" -v s="$((l + d))" 'BEGIN { printf "%.2f", c / s }')"
	echo "  end, COMMAND's end to its exit:    trace only $(median <"$W/trace.end") ms, capture only $(median <"$W/pcap.end") ms, both $(median <"$W/both.end") ms"
} | tee "$OUT/capture-startup.txt"
