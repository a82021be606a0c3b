#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-preload: what libdgrdma-preload.so costs per wrapped socket call, in one run:
#   without the library  |  under it, no session records  |  under it, every dgrdma event
#   recorded  |  under it, on a socket it does not trace (another UDP port)
# as nanoseconds per call and the ratio to the run without it (preload-bench: four calls an
# iteration, sendto / recvmsg with control room / sendmsg / recv, DG-RDMA frames over UDP on
# 127.0.0.1). Rounds alternate the four, REPEAT rounds each, the median round is reported.
# Runs in a private mount namespace with its own session daemon (lttng-env.sh).
# Result: $DGR_BUILD/bench/preload.txt (copy it into docs/performance.md).

set -u
. "$DGR_SRC/test/tracepoints/lttng-env.sh"
tp_isolate "$@" || exit 1

BENCH=$DGR_BUILD/test/tracepoints/preload-bench
LIB=$DGR_BUILD/lib/libdgrdma-preload.so
ITER=${PRELOAD_BENCH_ITERATIONS:-100000}
ROUNDS=${PRELOAD_BENCH_ROUNDS:-5}
PORT_H=$((30000 + $$ % 2000 * 2))
PORT_F=$((PORT_H + 1))
WORK=$(mktemp -d)
SESSION="preload-bench-$$"
OUT=$DGR_BUILD/bench/preload.txt
cleanup() {
	lttng destroy "$SESSION" >/dev/null 2>&1
	tp_lttng_teardown
	rm -rf "$WORK"
}
trap cleanup EXIT
tp_lttng_setup || { echo "bench-preload: $TP_LTTNG_WHY" >&2; exit 1; }

field() { # field KEY LINE: the value of KEY=VALUE among LINE's words
	tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"
}
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
}
median() { # median COLUMN <FILE
	awk -v c="$1" '{ print $c }' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
run() { # run KIND: one round, prints ns per call and CPU ns per call
	local out
	case "$1" in
	plain) out=$("$BENCH" "$PORT_H" "$PORT_F" "$ITER" 1) ;;
	idle | recorded) out=$(DGR_PRELOAD_UDP_PORTS=$PORT_H LD_PRELOAD=$LIB "$BENCH" "$PORT_H" "$PORT_F" "$ITER" 1) ;;
	untraced) out=$(DGR_PRELOAD_UDP_PORTS='' LD_PRELOAD=$LIB "$BENCH" "$PORT_H" "$PORT_F" "$ITER" 1) ;;
	esac || exit 1
	echo "$(field ns_per_call "$out") $(field cpu_ns_per_call "$out")"
}
for ((r = 0; r < ROUNDS; r++)); do
	run plain >>"$WORK/plain"
	run idle >>"$WORK/idle"
	run untraced >>"$WORK/untraced"
	# every event recorded, in a channel big enough that none is discarded
	lttng create "$SESSION" --output="$WORK/trace-$r" >/dev/null &&
		lttng enable-channel -u -s "$SESSION" bench --subbuf-size=8M --num-subbuf=16 >/dev/null &&
		lttng enable-event -u -s "$SESSION" -c bench 'dgrdma:*' >/dev/null &&
		lttng start "$SESSION" >/dev/null || exit 1
	run recorded >>"$WORK/recorded"
	lttng stop "$SESSION" >/dev/null
	discarded=$(lttng list "$SESSION" | awk -F': *' '/Discarded events:/ {s += $2} END {print s + 0}')
	lttng destroy "$SESSION" >/dev/null
	echo "$discarded" >>"$WORK/discarded"
done
events=$(babeltrace2 "$WORK/trace-0" 2>/dev/null | wc -l)
p=$(median 1 <"$WORK/plain") i=$(median 1 <"$WORK/idle") u=$(median 1 <"$WORK/untraced")
e=$(median 1 <"$WORK/recorded")
cp=$(median 2 <"$WORK/plain") ci=$(median 2 <"$WORK/idle") cu=$(median 2 <"$WORK/untraced")
ce=$(median 2 <"$WORK/recorded")
mkdir -p "$(dirname "$OUT")"
{
	echo "bench-preload: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "median of $ROUNDS alternating rounds of $ITER iterations (4 wrapped calls each)"
	echo "command: make bench-preload (PRELOAD_BENCH_ROUNDS=$ROUNDS PRELOAD_BENCH_ITERATIONS=$ITER)"
	printf '%-44s %9s %6s %12s %6s\n' "" "ns/call" "ratio" "CPU ns/call" "ratio"
	printf '%-44s %9.1f %6.2f %12.1f %6.2f\n' "without the library" "$p" 1 "$cp" 1
	printf '%-44s %9.1f %6.2f %12.1f %6.2f\n' "library, socket not traced (other port)" \
		"$u" "$(ratio "$u" "$p")" "$cu" "$(ratio "$cu" "$cp")"
	printf '%-44s %9.1f %6.2f %12.1f %6.2f\n' "library, traced socket, no session" \
		"$i" "$(ratio "$i" "$p")" "$ci" "$(ratio "$ci" "$cp")"
	printf '%-44s %9.1f %6.2f %12.1f %6.2f\n' "library, traced socket, every event recorded" \
		"$e" "$(ratio "$e" "$p")" "$ce" "$(ratio "$ce" "$cp")"
	echo "events recorded in round 1: $events (discarded in all rounds: $(awk '{ s += $1 } END { print s + 0 }' "$WORK/discarded"))"
} | tee "$OUT"
