#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The flight recorder's doorbell-latency trigger (issue 34, item 2): dgrdma-capture
# --flight-recorder 2 --incident-after 1 --incident-latency-us US around dgrdma-host rx (8
# buffers of 4096 bytes: one frame per transaction) fed by dgrdma-fpga (adc, 5 kS/s, 4 buffers:
# about 5 buffers a second) over UDP on 127.0.0.1.
#   late   US = 150000 (150 ms), --max-incidents 2. dgrdma-host is SIGSTOPped mid-stream and
#          continued only 300 ms after a frame reached its socket meanwhile (never a fixed stop,
#          which could fall where nothing arrives): that frame's transaction completes on
#          SIGCONT and its doorbell leaves at least 300 ms after the frame's arrival, so
#          doorbell_sent's latency_ns exceeds the bound and the LTTng trigger fires. The stop is
#          far shorter than the 12 buffers (2.4 s) the emulator needs to run out of room: no
#          drop trigger. Three such stops, each once the recorder is done with the one before:
#          exactly one incident each for the first two, named for the latency trigger, none
#          merged (the trigger acts once, then is added again), the third counted past the
#          limit; latency-report on incident 1 reports that doorbell (host.rx.latest_doorbell)
#          as the trace holds it.
#   clean  US = 10000000 (10 s, far above any latency of a run that is never stopped): none.
# Asserts counts and names, never times.
# make check: slow

set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/tracepoints/lttng-env.sh"
. "$DGR_SRC/test/lib/frames.sh"
tp_isolate "$@" || { not_ok "private lttng run folder"; done_testing; exit 1; }

tp_capture_suite 36000

# bad values, named with their range; the option belongs to the flight recorder's LTTng triggers
out=$("$CAPTURE" -o "$WORK/never" --flight-recorder 2 --incident-latency-us 0 -- true 2>&1)
check_eq "$? $(echo "$out" | head -n1)" \
	"2 dgrdma-capture: --incident-latency-us: '0' is out of range 1..10000000" \
	"--incident-latency-us 0 refused with its range"
out=$("$CAPTURE" -o "$WORK/never" --flight-recorder 2 --incident-latency-us 1ms -- true 2>&1)
check_eq "$? $(echo "$out" | head -n1)" \
	"2 dgrdma-capture: --incident-latency-us: '1ms' is not a number (accepted: 1..10000000)" \
	"--incident-latency-us 1ms: not a number, with the range"
out=$("$CAPTURE" -o "$WORK/never" --incident-latency-us 100 -- true 2>&1)
check_eq "$?" 2 "--incident-latency-us without --flight-recorder refused"
out=$("$CAPTURE" -o "$WORK/never" --flight-recorder 2 --no-event-triggers \
	--incident-latency-us 100 -- true 2>&1)
check_eq "$? $(echo "$out" | head -n1)" \
	"2 dgrdma-capture: --incident-latency-us: not with --no-event-triggers" \
	"--incident-latency-us with --no-event-triggers refused"

tp_flight_require

# frames_past PID N: more than N packets received in the network namespace of PID (lo: the
# emulator's frames)
frames_past() {
	[ "$(dgr_netdev_frames "/proc/$1/net/dev")" -gt "$2" ]
}

# stop_past_a_frame PID: SIGSTOP, then SIGCONT 300 ms after a frame reached PID's network
# namespace during the stop (at most 10 s of waiting for one); false when none came.
stop_past_a_frame() {
	local rc
	kill -STOP "$1" || return 1
	dgr_hold_past_a_frame "/proc/$1/net/dev"
	rc=$?
	kill -CONT "$1"
	return "$rc"
}

# record NAME BOUND_US FPGA_SECONDS: the flight recorder (at most 2 incidents) around the host
# into $WORK/NAME, the emulator started once the host is ready (HPID: the host's pid); returns
# once both run.
record() {
	local name=$1 bound=$2 seconds=$3
	rm -f "$WORK/$name.ready"
	"$CAPTURE" -o "$WORK/$name" --flight-recorder 2 --incident-after 1 --max-incidents 2 \
		--incident-latency-us "$bound" --event-rate 20000 --pcap-buffer "$(dgr_pcap_mib 5e3)" \
		-- "$DHOST" rx --udp --bind "127.0.0.1:$PORT_H" --peer "127.0.0.1:$PORT_F" --buffers 8 \
		--buffer-size 4096 --fpga-buffers 4 --idle-timeout 3 --ready-file "$WORK/$name.ready" \
		--summary-json "$WORK/$name-host.json" --quiet 2>"$WORK/$name.err" &
	CAP_PID=$!
	tp_wait_for "the host's ready file" test -s "$WORK/$name.ready" || return 1
	HPID=$(cat "$WORK/$name.ready")
	"$DFPGA" --udp --bind "127.0.0.1:$PORT_F" --peer "127.0.0.1:$PORT_H" --mode adc \
		--sample-rate 5e3 --buffers 4 --buffer-size 4096 --host-buffers 8 \
		--report-data-loss false --duration "$seconds" --quiet \
		--summary-json "$WORK/$name-fpga.json" &
	FPGA_PID=$!
	# streaming: the host has received a few frames
	tp_wait_for "the stream" frames_past "$HPID" "$(($(dgr_netdev_frames "/proc/$HPID/net/dev") + 4))"
}

# finish NAME [stop]: the emulator ends (stopped with SIGINT when asked, else at its
# --duration), then the recorder with its host
finish() {
	[ "${2:-}" = stop ] && kill -INT "$FPGA_PID" 2>/dev/null
	wait "$FPGA_PID"
	FPGA_PID=""
	wait "$CAP_PID"
	check_eq "$?" 0 "$1: dgrdma-host ended normally under the recorder"
	CAP_PID=""
	sed "s/^/# $1: /" "$WORK/$1.err"
}

# ---- late: one doorbell held past the bound ----------------------------------------------------
RUN=$WORK/late
BOUND_NS=150000000
# added_at_least N: the recorder's LTTng log says N triggers were added (the re-adding done)
added_at_least() {
	[ "$(grep -c '^Added trigger' "$RUN/lttng.log")" -ge "$1" ]
}
if record late 150000 60; then
	for i in 1 2; do
		stop_past_a_frame "$HPID" || diag "late: no frame arrived in 10 s of stop $i"
		tp_wait_for "incident $i (the latency trigger)" test -s "$RUN/incident-00$i/run.json" ||
			not_ok "incident $i was written"
		tp_wait_for "the latency trigger added again" added_at_least $((5 + i)) ||
			not_ok "the latency trigger was added again after incident $i"
	done
	stop_past_a_frame "$HPID" || diag "late: no frame arrived in 10 s of stop 3"
	tp_wait_for "the trigger past the limit" grep -q "past --max-incidents" "$WORK/late.err" ||
		not_ok "the third stop's trigger was counted past the limit"
fi
finish late stop

check_eq "$(jq -r '[.drop_periods, .dropped_samples] | @json' "$WORK/late-fpga.json" 2>/dev/null)" \
	"[0,0]" "late: the emulator dropped nothing (no drop trigger)"
check_eq "$(find "$RUN" -maxdepth 1 -name 'incident-*' -printf '%f\n' | sort | tr '\n' ' ')" \
	"incident-001 incident-002 " "late: one incident folder for each of the first two stops"
check_eq "$(jq -c '.flight_recorder | [.incidents, .triggers_past_limit, .triggers_merged,
	.incident_latency_us,
	(.event_rules | index("dgrdma:doorbell_sent|latency_ns > 150000000") != null)]' "$RUN/run.json")" \
	"[2,1,0,150000,true]" \
	"late: run.json: two incidents, the third stop past the limit, none merged, the bound, its rule"
check_eq "$(jq -r '.incident.trigger' "$RUN/incident-001/run.json" "$RUN/incident-002/run.json" | sort -u)" \
	"LTTng trigger: a doorbell latency above 150000 us" "late: both incidents are named for the latency trigger"
# five triggers (four drop rules, the latency), the latency one added again after each of its
# two incidents (its action runs once per adding: a stop's late doorbells make one snapshot),
# not after the count past the limit; all removed
check_eq "$(grep -c 'lttng add-trigger' "$RUN/lttng.log") $(grep -c 'lttng remove-trigger' "$RUN/lttng.log")" \
	"7 7" "late: five LTTng triggers added, the latency one again after each incident, all removed"
check_eq "$(grep 'lttng add-trigger' "$RUN/lttng.log" | grep -c -e \
	"--name=dgrdma:doorbell_sent --filter=latency_ns > $BOUND_NS --action=snapshot-session .* --name=latency --rate-policy=once-after:1$")" \
	3 "late: the latency trigger filters doorbell_sent on latency_ns, names its snapshots, acts once"

d=$RUN/incident-001
"$LR" --json --no-progress "$d" >"$WORK/late-report.json" 2>"$WORK/late-report.err"
check_eq "$?" 0 "late: latency-report reads the incident"
babeltrace2 "$d/trace" >"$WORK/late-trace.txt" 2>/dev/null
# the doorbells of the trace beyond the bound, as "conn buffer txn_id latency_ns"
sed -n 's/.* dgrdma:doorbell_sent: .*conn = \([0-9]*\), buffer = \([0-9]*\), txn_id = \([0-9]*\),.* latency_ns = \([0-9]*\),.*}$/\1 \2 \3 \4/p' \
	"$WORK/late-trace.txt" | awk -v b="$BOUND_NS" '$4 > b' | sort -k4,4n >"$WORK/late-bells.txt"
late=$(wc -l <"$WORK/late-bells.txt")
diag "late: the latest doorbell: conn buffer txn_id latency_ns = $(tail -n1 "$WORK/late-bells.txt")"
if [ "$late" -ge 1 ]; then
	ok "late: the incident's trace holds $late doorbell(s) beyond the bound"
else
	not_ok "late: the incident's trace holds a doorbell beyond the bound"
fi
check_eq "$(jq -r '.host.rx.latest_doorbell | "\(.conn) \(.buffer) \(.txn_id) \(.latency_ns)"' \
	"$WORK/late-report.json")" "$(tail -n1 "$WORK/late-bells.txt")" \
	"late: latency-report's latest doorbell is the trace's latest doorbell_sent"
check_eq "$(jq -r '.host.rx.latest_doorbell.doorbells_with_latency == .host.rx.doorbells' \
	"$WORK/late-report.json")" true "late: every doorbell_sent of the incident carries latency_ns"
"$LR" --no-progress "$d" >"$WORK/late-report.txt" 2>&1
check_eq "$(grep -c '^ *the doorbell with the largest latency (the stack' "$WORK/late-report.txt")" 1 \
	"late: the text report names the latest doorbell, the one with the largest latency"
# its warnings apart: a real-time clock step during the run (a +15 ms one came in a rehearsal)
# is named on stderr, before the listing
"$LR" --no-progress "$RUN" >"$WORK/late-incidents.txt" 2>"$WORK/late-incidents.err"
check_eq "$? $(sed -n '2,3p' "$WORK/late-incidents.txt" | cut -d';' -f1 | tr '\n' '|')" \
	"0   incident-001: LTTng trigger: a doorbell latency above 150000 us|  incident-002: LTTng trigger: a doorbell latency above 150000 us|" \
	"late: latency-report INCIDENTS_DIR names the incidents' trigger"

# ---- clean: the same stream, never stopped, a bound far above it --------------------------------
RUN=$WORK/clean
record clean 10000000 3
finish clean
check_eq "$(jq -c '.flight_recorder | [.incidents, .triggers_past_limit, .triggers_merged, .incident_latency_us]' \
	"$RUN/run.json")" "[0,0,0,10000000]" "clean: run.json: no incident, the bound recorded"
check_eq "$(find "$RUN" -maxdepth 1 -name 'incident-*' | wc -l)" 0 "clean: no incident folder"
bells=$(jq -r '.counters.doorbells_sent' "$WORK/clean-host.json" 2>/dev/null)
if [ "${bells:-0}" -gt 0 ]; then
	ok "clean: the host sent $bells doorbells"
else
	not_ok "clean: the host sent doorbells (summary: $(head -c 300 "$WORK/clean-host.json"))"
fi
# the recorder's last snapshot (its trace/): the run's last doorbells, each with latency_ns
babeltrace2 "$RUN/trace" 2>/dev/null | grep ' dgrdma:doorbell_sent: ' >"$WORK/clean-bells.txt"
n=$(wc -l <"$WORK/clean-bells.txt")
check_eq "$((n > 0)) $(grep -c ' latency_ns = [0-9]*, ' "$WORK/clean-bells.txt")" "1 $n" \
	"clean: the last snapshot's $n doorbell_sent events each carry latency_ns"
diag "clean: the largest latency_ns of the last snapshot: $(sed -n 's/.* latency_ns = \([0-9]*\),.*/\1/p' \
	"$WORK/clean-bells.txt" | sort -n | tail -n1) ns"
done_testing
