#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Scenario "healthy": a moderate stream (2 MS/s, 255 x 16 KiB host buffers, 4 emulator buffers:
# 530 ms of tolerable latency, so a scheduling stall of this shared machine is not a verdict)
# recorded by dgrdma-capture: no sample dropped (emulator counters and the host's ramp check)
# and latency-report's verdict "healthy". docs/scenarios.md.
. "$DGR_SRC/test/scenarios/lib.sh"
. "$DGR_SRC/test/lib/report_text.sh"
scn_init healthy "$@"

RATE=2e6
HOST_OPTS=(--buffers 255 --buffer-size 16384 --fpga-buffers 4 --idle-timeout 10)
FPGA_OPTS=(--rate "$RATE" --duration 3 --buffers 4 --buffer-size 16384 --host-buffers 255)
run="$SCN_OUT/run"
scn_run_rx "$run" capture
scn_report "$run" "$RATE" 255 16384 4

check_eq "$SCN_HOST_RC/$SCN_FPGA_RC" 0/0 "dgrdma-host rx and dgrdma-fpga exit 0"
check_eq "$(jnum "$run/host.json" eof_received)" 1 "the host received the end of the stream"
check_eq "$(jnum "$run/fpga.json" dropped_samples)/$(jnum "$run/fpga.json" drop_periods)" 0/0 \
	"emulator: no drop period, no dropped sample"
check_eq "$(jnum "$run/fpga.json" dropped_open)/$(jnum "$run/fpga.json" samples_unsent)" 0/0 \
	"emulator: nothing dropped at stop, nothing left unsent"
# a loaded machine may keep the emulator off its CPU past the FPGA's memory: its clock then froze
# rather than drop (docs/fpga.md section 6; a CI run once lost samples to that)
diag "emulator: $(jnum "$run/fpga.json" clock_freezes) clock freezes," \
	"$(jnum "$run/fpga.json" frozen_ns) ns frozen, the longest $(jnum "$run/fpga.json" frozen_max_ns) ns"
check_eq "$(jnum "$run/host.json" samples_lost)/$(jnum "$run/host.json" ramp_gaps)" 0/0 \
	"host ramp check: no sample lost, no gap"
check_eq "$(jnum "$run/host.json" samples_received)" "$(jnum "$run/fpga.json" samples_sent)" \
	"host received every sample the emulator sent"
check_eq "$(jq -r '.producer_drops | [.dropped, .discontinuities, .ramp_gaps] | join(" ")' "$run/host.json")" "no 0 0" \
	"dgrdma-host's summary: the producer did not drop"
if scn_have_pcap "$run"; then
	check_eq "$(jq -r '.wire.rx | [.transactions, .matched, .orphan_doorbells, .ordinal_mismatches] | join(" ")' "$run/report.json")" \
		"$(jnum "$run/fpga.json" transactions_sent) $(jnum "$run/fpga.json" transactions_sent) 0 0" \
		"capture: every transaction the emulator sent, each matched with its doorbell in order"
	# (these and the verdict below were also checked on a run of real_runs.sh's, removed)
	check_eq "$(jq -r '[.wire.rx.doorbells, .wire.rx.unmatched_transactions, .wire.rx.buffers, .wire.rx.order_violations, .malformed_frames] | join(" ")' "$run/report.json")" \
		"$(jnum "$run/host.json" doorbells_sent) 0 255 0 0" \
		"capture: the host's every doorbell, none unmatched, 255 buffers in order, no malformed frame"
else
	scn_missing pcap "capture: every transaction matched with its doorbell"
	scn_missing pcap "capture: the host's every doorbell, 255 buffers in order"
fi
label=$(jq -r '.regime.label' "$run/report.json")
diag "verdict: $(jq -r '.regime.reason' "$run/report.json")"
diag "judged on $(jq -r '.regime.series' "$run/report.json")"
check_eq "$label" healthy "latency-report verdict: healthy"
check_eq "$(jq -r '[.regime.mitigations[0], (.ack_only_to_fpga.padded // 0)] | join("|")' "$run/report.json")" \
	"none needed: doorbell latency stays well inside the tolerable latency|0" \
	"healthy, no ACK-only frame to the FPGA (the stack sends none): no action needed"
check "latency plot written" test -s "$run/plots/latency.png"
# dgrdma-capture's default events have no txn_complete: each completion is doorbell_sent's, at
# its receive call's return, so the two series to the send call are one, printed once. (Once a
# doorbell without the frame's arrival in it were left out of one series only, both would be
# printed: the text follows what the JSON holds.)
read -r derived same < <(jq -r '.host.rx | "\(.completions_from_doorbells == .transactions and .read_to_handover_ns.count == .latency_to_handover_ns.count and .transactions > 0) \([.read_to_handover_ns | .count, .p50, .max] == [.latency_to_handover_ns | .count, .p50, .max])"' "$run/report.json")
diag "every completion from doorbell_sent, with its arrival: $derived"
if [ "$derived" = true ]; then
	check_eq "$(grep -c "^    receive call returns -> the doorbell's send call begins: the series above" "$run/report.txt") $same" \
		"1 true" "no txn_complete: the receive call's return is the completion, its series printed once (JSON: both, the same numbers)"
else
	check_eq "$(grep -c "^    receive call returns -> the doorbell's send call begins:$" "$run/report.txt")" 1 \
		"some doorbell without its arrival: the receive call's return to the send call printed as a series of its own"
fi
# (the text printed "clock_step: ", "path_from_trace: " and headings over nothing)
check_eq "$(empty_lines "$run/report.txt")" 0 \
	"the text report has no empty value and no heading over nothing (clock step, path, DCP responses, disagreements)"
# the summary's causes are counted on the stall section's series, not the verdict's: it says so
IFS='|' read -r n_stalls series < <(jq -r '.stall_causes | "\(.count)|\(.series)"' "$run/report.json")
check_eq "$(grep -c -x -F "  top causes of the stalls ($n_stalls stall$([ "$n_stalls" = 1 ] || echo s), doorbell latency from $series)" "$run/report.txt")" 1 \
	"the summary names its causes' stalls: the stall section's count ($n_stalls) and series ($series)"
# --advise without a kernel trace: its cures by cause say why there are none (a quiet run may
# have no stall at all)
if [ "$n_stalls" = 0 ]; then why="no doorbell stalled"; else
	why="without a kernel trace no cause is attributed (latency-report --kernel-trace DIR)"; fi
check_eq "$("$BIN/latency-report" --no-progress --advise --brief "$run" 2>/dev/null | first_cure_by_cause)" \
	"    - none: $why" "--advise, no kernel trace: no cure by cause, and why ($n_stalls stalls)"
# Wire doorbells not joined with the trace's, on purpose: a join window of 1 us is shorter than
# the kernel's send path. The text gives the first one in seconds into the capture (the JSON in
# the capture clock's nanoseconds), to be found in Wireshark's time column.
if scn_have_pcap "$run"; then
	"$BIN/latency-report" --json --no-progress --join-window-us 1 "$run" >"$SCN_OUT/w1.json" 2>/dev/null
	"$BIN/latency-report" --no-progress --join-window-us 1 "$run" >"$SCN_OUT/w1.txt" 2>/dev/null
	unjoined=$(jq -r '.host.joined.unjoined | .no_trace_doorbell + .completion_outside + .trace_used_up' "$SCN_OUT/w1.json")
	# the nanoseconds as written (jq 1.6 reads numbers as doubles: 2^53 is too few for them)
	bell=$(grep -o '"first_bell_ns": *[0-9]*' "$SCN_OUT/w1.json" | grep -o '[0-9]*$')
	first=$(capinfos -a -S -T -r "$run/capture.pcapng" | cut -f2)
	first=${first/./}
	want=$(awk -v d="$((bell - 10#$first))" 'BEGIN { printf "%.6f", d / 1e9 }')
	diag "join window 1 us: $unjoined wire doorbells not joined, the first at $bell ns, the capture's first frame at $first ns"
	check_eq "$([ "$unjoined" -gt 0 ] && echo yes) $(grep -c -x -F "      the first one's doorbell (s into the capture): $want" "$SCN_OUT/w1.txt")" \
		"yes 1" "a 1 us join window: doorbells not joined, the first one's time in seconds into the capture ($want s)"
else
	scn_missing pcap "a 1 us join window: the first unjoined doorbell in seconds into the capture"
fi
# The host's events alone, as a user's own lttng session of a host facing a real FPGA leaves
# them (no run.json, no capture, no emulator's events: --pid keeps the host's): the pool from its
# stream_config events and the rate its counters moved at give the tolerable latency, so that the
# verdict is judged as the run folder's is, not by the p50 rule of a run without one.
"$BIN/latency-report" --json --no-progress --pid "$(jq -r .command_pid "$run/run.json")" "$run/trace" \
	>"$SCN_OUT/trace-alone.json" 2>"$SCN_OUT/trace-alone.err"
check_eq "$?/$(jq -r '.run | [.host_buffers, .fpga_buffers, .buffer_size, .tolerable_source] | join(" ")' "$SCN_OUT/trace-alone.json")" \
	"0/255 4 16384 estimated from the trace" "the trace alone: the pool from stream_config, the rate estimated"
rate=$(jq -r '.run.rate_bytes' "$run/report.json")
est=$(jq -r '.run.rate_estimate_rx_bytes' "$SCN_OUT/trace-alone.json")
diag "the trace's rate estimate: $est bytes/s, the run's rate $rate"
check "the estimate is at most the stream's rate (+2%: the snapshots' own times)" \
	awk -v e="$est" -v r="$rate" 'BEGIN { exit !(e > 0 && e <= 1.02 * r) }'
check_eq "$(jq -r '.regime.label' "$SCN_OUT/trace-alone.json")" healthy "the trace alone: healthy, as the run folder"
done_testing
