#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# latency-report on a rotated LTTng trace (#34 item 3): one real run of the emulator streaming to
# dgrdma-host over UDP on loopback is recorded by two sessions at once, one plain and one rotated
# twice while the stream runs (`lttng rotate`: the trace chunks in archives/). The rotated
# trace, given as the session's output folder, must read as one trace in time order: the same
# in-host facts as the plain recording (events, doorbells, transactions, threads, counters, the
# verdict) and the same doorbells in the same order (host_doorbells.csv's conn and buffer, row
# by row), while each chunk alone holds only a part of the doorbells. Latencies are not
# compared to the nanosecond: each session reads the clock for its own copy of an event, so
# the two recordings' times of one event differ by some tens of ns.
set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/tracepoints/lttng-env.sh"
tp_isolate "$@" || { not_ok "private lttng run folder"; done_testing; exit 1; }
LR="$DGR_BUILD/bin/latency-report"
HOST="$DGR_BUILD/bin/dgrdma-host"
FPGA="$DGR_BUILD/bin/dgrdma-fpga"
tmp=$(mktemp -d "$DGR_BUILD/analysis-rotation.XXXXXX")
sess="dgr-rotation-$$"
hpid=""
fpid=""
cleanup() {
	[ -n "$fpid" ] && kill "$fpid" 2>/dev/null
	[ -n "$hpid" ] && kill "$hpid" 2>/dev/null
	lttng destroy "$sess-plain" >/dev/null 2>&1
	lttng destroy "$sess-rot" >/dev/null 2>&1
	tp_lttng_teardown
	rm -rf "$tmp"
}
trap cleanup EXIT

if ! tp_lttng_setup; then
	skip "$TP_LTTNG_WHY"
	done_testing
	exit
fi
if [ ! -x "$HOST" ] || [ ! -x "$FPGA" ]; then
	skip "dgrdma-host or dgrdma-fpga not built (make stack fpga)"
	done_testing
	exit
fi

# two sessions, the same events of the same processes
setup() { # SESSION OUTPUT
	lttng create "$1" --output="$2" &&
		lttng enable-channel -u -s "$1" ch --subbuf-size=256K --num-subbuf=8 &&
		lttng enable-event -u -s "$1" -c ch 'dgrdma:*' &&
		lttng enable-event -u -s "$1" -c ch 'dgrdma_fpga:*' &&
		lttng add-context -u -s "$1" -c ch -t vpid &&
		lttng start "$1"
}
if ! { setup "$sess-plain" "$tmp/plain" && setup "$sess-rot" "$tmp/rot"; } >"$tmp/lttng.log" 2>&1; then
	skip "cannot create an LTTng session here: $(tail -1 "$tmp/lttng.log")"
	done_testing
	exit
fi

# The stream: 4 s of 2 MS/s into 16 buffers of 16 KiB (about 500 doorbells a second); the
# emulator's own address in 127/8, in case another suite streams on loopback without a
# namespace of its own.
hport=$((20000 + $$ % 20000))
FIP="127.0.$(($$ % 250 + 1)).$(($$ / 250 % 250 + 2))"
"$HOST" rx --udp --bind "127.0.0.1:$hport" --peer "$FIP:18078" --buffers 16 --buffer-size 16384 \
	--ready-file "$tmp/host.ready" --summary-json "$tmp/host.json" >"$tmp/host.out" 2>&1 &
hpid=$!
for _ in $(seq 300); do
	[ -e "$tmp/host.ready" ] && break
	kill -0 "$hpid" 2>/dev/null || break
	nap 0.05
done
[ -e "$tmp/host.ready" ] || bail "dgrdma-host did not get ready: $(tail -3 "$tmp/host.out")"
"$FPGA" --udp --bind "$FIP:18078" --peer "127.0.0.1:$hport" --quiet --sample-rate 2e6 --duration 4 \
	--host-buffers 16 --buffer-size 16384 --ready-file "$tmp/fpga.ready" \
	--summary-json "$tmp/fpga.json" >"$tmp/fpga.out" 2>&1 &
fpid=$!
for _ in $(seq 300); do
	[ -e "$tmp/fpga.ready" ] && break
	kill -0 "$fpid" 2>/dev/null || break
	nap 0.05
done
[ -e "$tmp/fpga.ready" ] || bail "dgrdma-fpga did not get ready: $(tail -3 "$tmp/fpga.out")"
# two rotations while the emulator streams: the first as it starts, the second a second on,
# in the middle of its 4 s (a second is no verdict: it only places the cut)
# (whether the cuts fell inside the stream is checked below: both later chunks hold doorbells)
rotations=0
alive_before=0
for wait_s in 0.2 1; do
	sleep "$wait_s"
	kill -0 "$fpid" 2>/dev/null && alive_before=$((alive_before + 1))
	if lttng rotate "$sess-rot" >>"$tmp/lttng.log" 2>&1; then
		rotations=$((rotations + 1))
	fi
done
wait "$fpid"
fpid=""
wait "$hpid"
hpid=""
lttng destroy "$sess-plain" >>"$tmp/lttng.log" 2>&1
lttng destroy "$sess-rot" >>"$tmp/lttng.log" 2>&1
check_eq "$rotations $alive_before" "2 2" "two rotations, both asked for while the emulator streamed"
check_eq "$(jq -r '.. | objects | .status? // empty' "$tmp/host.json" | head -1)" ended \
	"the stream ran to its end"

mapfile -t chunks < <(find "$tmp/rot/archives" -mindepth 1 -maxdepth 1 -type d | sort)
check_eq "${#chunks[@]}" 3 "three trace chunks in archives/ (two rotations and the session's end)"
[ -e "$tmp/rot/metadata" ] || [ -n "$(find "$tmp/rot" -maxdepth 1 -name ust)" ] &&
	diag "the rotated session left data outside archives/"

# JSON: the in-host facts both recordings must share. The threads and the counters' sources as
# sets: the report lists them in the order their first event came, and each session reads the
# clock for its own copy of an event, so two threads started within that difference may come in
# either order (a fresh-clone run had the consumer before the rx thread in one session).
facts() {
	jq -c '{events: .host.events, rx: (.host.rx | {transactions, doorbells, matched,
		orphan_doorbells, pending_at_end, count: .latency_ns.count}),
		tx: (.host.tx | {transactions, doorbells, matched, orphan_doorbells}),
		threads: ([.host.threads[] | {provider, role, tid}] | sort_by(.provider, .role, .tid)),
		counters: (.host.counters | sort_by(.source, .conn, .vpid)),
		seen: .host.events_seen, regime: .regime.label}' "$1"
}
"$LR" --json --no-progress --csv "$tmp/plain.csv" "$tmp/plain" >"$tmp/plain.json" 2>"$tmp/plain.err" ||
	diag "plain: $(head -3 "$tmp/plain.err")"
if "$LR" --json --no-progress --csv "$tmp/rot.csv" "$tmp/rot" >"$tmp/rot.json" 2>"$tmp/rot.err"; then
	ok "latency-report reads the rotated session's folder"
else
	not_ok "latency-report reads the rotated session's folder: $(head -3 "$tmp/rot.err")"
fi
plain_bells=$(jq -r '.host.rx.doorbells' "$tmp/plain.json")
[ "${plain_bells:-0}" -gt 1000 ] && ok "the plain recording holds the stream ($plain_bells doorbells)" ||
	not_ok "the plain recording holds the stream (got '$plain_bells' doorbells)"
check_eq "$(jq -r '.host.rx.doorbells' "$tmp/rot.json")" "$plain_bells" \
	"the rotated trace: the same doorbell count as the plain recording"
check_eq "$(facts "$tmp/rot.json")" "$(facts "$tmp/plain.json")" \
	"the rotated trace: the same events, transactions, doorbells, threads, counters, verdict"
if [ -s "$tmp/plain.csv/host_doorbells.csv" ] &&
	cmp -s <(cut -d, -f3,4 "$tmp/plain.csv/host_doorbells.csv") <(cut -d, -f3,4 "$tmp/rot.csv/host_doorbells.csv"); then
	ok "the rotated trace: the same doorbells in the same order (host_doorbells.csv)"
else
	not_ok "the rotated trace: the same doorbells in the same order (host_doorbells.csv)"
fi
# the chunks really split the stream: each of the last two holds doorbells, none all of them
parts=""
sum=0
for c in "${chunks[@]}"; do
	n=$("$LR" --json --no-progress "$c" 2>/dev/null | jq -r '.host.rx.doorbells // 0')
	parts+="${n:-0} "
	sum=$((sum + ${n:-0}))
done
read -r _ second third <<<"$parts"
if [ "${second:-0}" -gt 0 ] && [ "${third:-0}" -gt 0 ] && [ "${second:-0}" -lt "$plain_bells" ] &&
	[ "${third:-0}" -lt "$plain_bells" ]; then
	ok "the chunks split the doorbells ($parts of $plain_bells)"
else
	not_ok "the chunks split the doorbells (got $parts of $plain_bells)"
fi
[ "$sum" -le "$plain_bells" ] && ok "the chunks read alone hold no doorbell twice ($sum <= $plain_bells)" ||
	not_ok "the chunks read alone hold no doorbell twice ($sum > $plain_bells)"
done_testing
