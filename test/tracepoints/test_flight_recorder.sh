#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The flight recorder (issue 34, item 2) on the emulator: dgrdma-capture --flight-recorder 2
# --incident-after 1 --max-incidents 2 around dgrdma-host rx (8 buffers, its consumer stalled
# 1 s at buffer 24) fed by dgrdma-fpga (adc, 100 kS/s, 4 buffers, report_data_loss false) over
# UDP on 127.0.0.1. The stall makes the emulator drop samples exactly once (one drop period, as
# in test/scenarios/vicious-cycle.sh): its dgrdma_fpga:drop_period event fires the LTTng trigger
# (incident 1). Then one SIGUSR1 (incident 2), and two more, which the limit counts and does not
# write. Each incident folder is a complete run folder that latency-report reads; latency-report
# on the recorder's folder summarises both.
# make check: slow

set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/tracepoints/lttng-env.sh"
. "$DGR_SRC/test/lib/json.sh"
tp_isolate "$@" || { not_ok "private lttng run folder"; done_testing; exit 1; }

tp_capture_suite 30000

# bad values, named with their range
out=$("$CAPTURE" -o "$WORK/never" --flight-recorder 0 -- true 2>&1)
check_eq "$? $out" "2 dgrdma-capture: --flight-recorder: '0' is out of range 1..3600
Try 'dgrdma-capture --help'." "--flight-recorder 0 refused with its range"
out=$("$CAPTURE" -o "$WORK/never" --max-incidents 2 -- true 2>&1)
check_eq "$?" 2 "--max-incidents without --flight-recorder refused"
out=$("$CAPTURE" -o "$WORK/never" --flight-recorder 5 --long -- true 2>&1)
check_eq "$? $(echo "$out" | head -n1)" "2 dgrdma-capture: --flight-recorder: not with --long" \
	"--flight-recorder with --long refused"
out=$("$CAPTURE" -o "$WORK/never" --flight-recorder 5 --trace-file-size 1M -- true 2>&1)
check_eq "$? $(echo "$out" | head -n1)" \
	"2 dgrdma-capture: --trace-file-size and --trace-file-count go together (a size alone does not bound the trace)" \
	"--flight-recorder: the whole run's record's --trace-file-size without a count refused"

tp_flight_require

RUN=$WORK/fr
# past_limit_at_least N: dgrdma-capture has said N times that a trigger came past the limit
# (its lines counted in bash: a wait asks ten times a second)
past_limit_at_least() {
	local l n=0
	[ -r "$WORK/capture.err" ] || return 1
	while IFS= read -r l || [ -n "$l" ]; do
		[[ $l == *"past --max-incidents"* ]] && n=$((n + 1))
	done <"$WORK/capture.err"
	[ "$n" -ge "$1" ]
}

# dumpcap's kernel buffer sized to the emulator's stream below (100 kS/s)
"$CAPTURE" -o "$RUN" --flight-recorder 2 --incident-after 1 --max-incidents 2 --event-rate 20000 \
	--pcap-buffer "$(dgr_pcap_mib 100e3)" -- "$DHOST" rx --udp --bind "127.0.0.1:$PORT_H" \
	--peer "127.0.0.1:$PORT_F" --buffers 8 --buffer-size 16384 --fpga-buffers 8 --consumer-stall 24:1000 --idle-timeout 3 \
	--summary-json "$WORK/host.json" --quiet 2>"$WORK/capture.err" &
CAP_PID=$!
for ((n = 0; n < 600; n++)); do
	[ -n "$(ss -Huln "sport = :$PORT_H")" ] && break
	nap 0.1
done
# long enough for every step below; stopped once they are done. The FPGA holds 8 buffers
# (328 ms at 100 kS/s), so that only the host's 1 s stall drops samples: with 4 (164 ms) an
# emulator kept off its CPU that long at load 10-15 dropped a second time, a trigger too many.
"$DFPGA" --udp --bind "127.0.0.1:$PORT_F" --peer "127.0.0.1:$PORT_H" --mode adc --rate 100e3 \
	--buffers 8 --fpga-memory 131072 --buffer-size 16384 --host-buffers 8 --report-data-loss false \
	--duration 120 \
	--quiet --summary-json "$WORK/fpga.json" &
FPGA_PID=$!
# each step waits for the recorder to have done the one before (a signal that came while it
# still wrote an incident would belong to that incident)
tp_wait_for "incident 1 (the drop's trigger)" test -s "$RUN/incident-001/run.json" ||
	not_ok "incident 1 was written"
kill -USR1 "$CAP_PID"
tp_wait_for "incident 2 (SIGUSR1)" test -s "$RUN/incident-002/run.json" || not_ok "incident 2 was written"
kill -USR1 "$CAP_PID"
tp_wait_for "the first trigger past the limit" past_limit_at_least 1 || not_ok "a trigger past the limit"
kill -USR1 "$CAP_PID"
tp_wait_for "the second trigger past the limit" past_limit_at_least 2 ||
	not_ok "a second trigger past the limit"
kill -INT "$FPGA_PID"
wait "$FPGA_PID"
FPGA_PID=""
wait "$CAP_PID"
check_eq "$?" 0 "dgrdma-host ended normally under the recorder"
CAP_PID=""
sed 's/^/# /' "$WORK/capture.err"

# the values of the emulator's summary and of the recorder's run.json read below, in one jq each
# (json_exprs, test/lib/json.sh)
json_exprs FP "$WORK/fpga.json" drops '[.drop_periods, .dropped_samples > 0] | @json' \
	periods .drop_periods dropped .dropped_samples
json_exprs RJ "$RUN/run.json" \
	incidents '.flight_recorder | [.incidents, .triggers_past_limit, .triggers_merged, .max_incidents]' \
	record '.flight_recorder.record | [.path, .tracefile_size, .tracefile_count, .bound_bytes, .discarded_events, (.events | length)]' \
	bytes .flight_recorder.record.bytes duration '.clocks.duration_ns / 1e9'
json_exprs INC1 "$RUN/incident-001/run.json" trigger .incident.trigger tool .settings.tool
check_eq "${FP[drops]}" \
	"[1,true]" "the emulator dropped samples in exactly one drop period"
check_eq "${RJ[incidents]}" "[2,2,0,2]" "run.json: 2 incidents, 2 triggers past the limit, none merged"
check_eq "$(find "$RUN" -maxdepth 1 -name 'incident-*' | sort | xargs -n1 basename | tr '\n' ' ')" \
	"incident-001 incident-002 " "exactly two incident folders"
check_eq "${INC1[trigger]}" \
	"LTTng trigger: a drop or discontinuity event" "incident 1: the LTTng trigger"
check_eq "$(jq -r '.incident.trigger' "$RUN/incident-002/run.json")" "SIGUSR1" "incident 2: SIGUSR1"
check_eq "$(grep -c 'lttng add-trigger' "$RUN/lttng.log") $(grep -c 'lttng remove-trigger' "$RUN/lttng.log")" \
	"4 4" "four LTTng triggers added, and removed at the end"

for i in 001 002; do
	d=$RUN/incident-$i
	files=$(find "$d/capture" -name 'capture_*.pcapng' | wc -l)
	if [ -f "$d/run.json" ] && [ "$files" -ge 2 ] && find "$d/trace" -name metadata | grep -q .; then
		ok "incident $i is complete: run.json, $files capture files, a trace"
	else
		not_ok "incident $i is complete: run.json, $files capture files, a trace"
	fi
	babeltrace2 "$d/trace" >"$WORK/trace-$i.txt" 2>/dev/null
	check_eq "$?" 0 "incident $i: its trace is readable"
	"$LR" --json --no-progress "$d" >"$WORK/report-$i.json" 2>"$WORK/report-$i.err"
	check_eq "$?" 0 "incident $i: latency-report reads it"
	check_eq "$(jq -c '[.run_folders[0].capture.read, .run_folders[0].trace.read,
		.losses.wire_incomplete_transactions]' "$WORK/report-$i.json")" \
		'[true,true,0]' "incident $i: capture and trace read, no invented incomplete transaction"
done
check_eq "$(grep -c 'dgrdma_fpga:drop_period' "$WORK/trace-001.txt")" 1 \
	"incident 1's trace holds the drop_period event that fired the trigger"
check_eq "${INC1[tool]}" "dgrdma-host" \
	"the incidents' run.json got the command's settings at the end"

"$LR" --no-progress "$RUN" >"$WORK/incidents.txt" 2>&1
check_eq "$?" 0 "latency-report INCIDENTS_DIR"
check_eq "$(sed -n '1p' "$WORK/incidents.txt")" \
	"Incidents of $RUN: 2 (the recorder wrote 2; 2 triggers past --max-incidents 2)" \
	"the summary's first line: two incidents and the triggers past the limit"
check_eq "$(sed -n '2,3p' "$WORK/incidents.txt" | cut -d';' -f1)" "  incident-001: LTTng trigger: a drop or discontinuity event
  incident-002: SIGUSR1" "one summary line per incident, with its trigger"
check_eq "$(grep -c '^== incident-00[12] ' "$WORK/incidents.txt")" 2 "then each incident's report"
"$LR" --json --no-progress "$RUN" >"$WORK/incidents.json" 2>/dev/null
check_eq "$(jq -c '[.flight_recorder.incidents, (.incidents | length),
	(.incidents[] | .report.run_folders[0].path | split("/") | last)]' "$WORK/incidents.json")" \
	'[2,2,"incident-001","incident-002"]' "JSON: the recorder's facts and each incident's report"

# The whole run's record (record/): the counters and the drop events, on disk all along, bounded
ncpus=$(getconf _NPROCESSORS_CONF)
check_eq "${RJ[record]}" \
	"[\"record\",33554432,8,$((ncpus * 2 * 8 * (33554432 + (33554432 / 4096 + 1) * 64 + 64) + 1048576)),0,6]" \
	"run.json: the record's path, its files' bound (32 MiB x 8 per CPU and channel), no event lost, six events"
babeltrace2 "$RUN/record" >"$WORK/record.txt" 2>/dev/null
check_eq "$?" 0 "the record is a readable trace"
check_eq "$(grep -c 'dgrdma_fpga:drop_period:' "$WORK/record.txt")" \
	"${FP[periods]}" "the record holds every drop period the emulator counted"
check_eq "$(sed -n 's/.* \(dgrdma[a-z_]*:[a-z_]*\): .*/\1/p' "$WORK/record.txt" | sort -u | tr '\n' ' ')" \
	"dgrdma:counters dgrdma_fpga:counters dgrdma_fpga:drop_period " \
	"the record holds the counters of both and the drop period, no other event"
diag "the record: ${RJ[bytes]} bytes for ${RJ[duration]} s, $(grep -c ':counters:' "$WORK/record.txt") counter snapshots"
check_eq "$(du -sb "$RUN/record" | cut -f1)" "${RJ[bytes]}" \
	"run.json: the record's bytes on disk"

# latency-report on the recorder's folder: the whole run's drops and the incidents on its axis
"$LR" --json --no-progress --csv "$WORK/csv" "$RUN" >"$WORK/whole.json" 2>"$WORK/whole.err"
check_eq "$?" 0 "latency-report --csv on the recorder's folder"
check_eq "$(jq -c '[.whole_run.report.host.events_seen.fpga_drop_periods, (.incidents | map(.time_s != null) | all)]' "$WORK/whole.json")" \
	"[${FP[periods]},true]" "JSON: the whole run's drop periods, each incident's time"
check_eq "$(awk -F, -v d="${FP[dropped]}" \
	'NR > 1 && $2 == "fpga" { last = $5 } END { print (last == d) }' "$WORK/csv/drops.csv")" 1 \
	"drops.csv of the whole run: the emulator's last reading lost what its summary says"
check_eq "$(awk -F, 'NR > 1 { print $1 }' "$WORK/csv/incidents.csv" | tr '\n' ' ')" "1 2 " \
	"incidents.csv: one row per incident the recorder wrote, as many as run.json says"
check_eq "$(awk -F, 'NR > 1 { print $3 }' "$WORK/csv/incidents.csv" | tr '\n' '|')" \
	'"LTTng trigger: a drop or discontinuity event"|"SIGUSR1"|' "incidents.csv: each one's trigger"
# each incident within the record's span, in the order they came
check_eq "$(awk -F, 'NR == FNR { if (FNR > 1 && (last == "" || $1 > last)) last = $1; next }
	FNR > 1 { if ($2 < 0 || $2 > last || $2 < prev) bad++; prev = $2 } END { print bad + 0 }' \
	"$WORK/csv/drops.csv" "$WORK/csv/incidents.csv")" 0 "the incidents lie within the whole run's record, in order"
check_eq "$(sed -n '4p' "$WORK/incidents.txt" | cut -d';' -f1-2)" \
	"  whole run ($RUN/record): $(grep -c ':counters:' "$WORK/record.txt") counter snapshots; the emulator's drop periods ${FP[periods]} and discontinuities 0" \
	"the text summary: the whole run's record after the incidents' lines, its counts"
if ! [ -f "$WORK/csv/doorbells.csv" ] || ! [ -f "$WORK/csv/incidents.csv" ]; then
	not_ok "the CSVs of the whole run"
else
	ok "the CSVs of the whole run (the incidents' reports wrote none over them)"
fi

# dgrdma-plot on the recorder's folder: the drop rate over the whole run, the incidents marked
"$DGR_BUILD/bin/dgrdma-plot" --kind drops --format svg -o "$WORK/plots" "$RUN" >"$WORK/plot.out" 2>"$WORK/plot.err"
check_eq "$?" 0 "dgrdma-plot on the recorder's folder"
svg=$WORK/plots/drops.svg
check_eq "$(grep -o 'incident [0-9]*<' "$svg" 2>/dev/null | sort -u | tr '\n' ' ')" "incident 1< incident 2< " \
	"the drop-rate plot marks incidents 1 and 2 with their numbers"
check_eq "$(grep -c '2 incidents of the flight recorder, 2 triggers past --max-incidents 2' "$svg")" 1 \
	"its title: two incidents, two triggers past the limit"
if grep -q '>FPGA ADC<' "$svg"; then
	ok "the emulator's drops are drawn"
else
	not_ok "the emulator's drops are drawn"
fi
done_testing
