#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Scenario "consistency" (issue 8 item 3): one run recorded by dgrdma-capture, a stream with
# drops (2 MS/s into a consumer spending 5 ms per 16 KiB buffer, report_data_loss false so that
# every drop period shows in the host's ramp), and every tool must tell the same story:
#   drops: the emulator's dropped_samples = the host's ramp check (samples_lost, gaps =
#     drop_periods) = the last `counters` events of both in the LTTng trace;
#   doorbells: in the capture (latency-report) = `dgrdma:doorbell_sent` events of the host
#     process in the trace = the stack's doorbells_sent = the emulator's doorbells_received;
#   latency: the dissector's dgrdma.analysis.doorbell_latency values = latency-report's wire
#     latencies (--csv doorbells.csv), doorbell by doorbell, to the nanosecond.
# dgrdma-capture records the dgrdma* events of every process on the machine; only the events of
# this run's host (run.json command_pid) and emulator are compared, the others are counted.
. "$DGR_SRC/test/scenarios/lib.sh"
scn_init consistency "$@"

RATE=2e6
HOST_OPTS=(--buffers 64 --buffer-size 16384 --fpga-buffers 4 --idle-timeout 10 --consumer-delay-us 5000)
FPGA_OPTS=(--rate "$RATE" --duration 2 --buffers 4 --buffer-size 16384 --host-buffers 64
	--report-data-loss false --counters-ms 100)
run="$SCN_OUT/run"
scn_run_rx "$run" capture
scn_report "$run" "$RATE" 64 16384 4
check_eq "$SCN_HOST_RC/$SCN_FPGA_RC" 0/0 "dgrdma-host rx and dgrdma-fpga exit 0"
F="$run/fpga.json"
H="$run/host.json"

# --- drops ------------------------------------------------------------------------------------
dropped=$(jnum "$F" dropped_samples)
diag "emulator: dropped_samples $dropped, drop_periods $(jnum "$F" drop_periods), dropped_open" \
	"$(jnum "$F" dropped_open); host: samples_lost $(jnum "$H" samples_lost), gaps $(jnum "$H" ramp_gaps)"
check "the run dropped samples ($dropped)" test "${dropped:-0}" -gt 0
# A drop period still open when the emulator stops is counted apart (dropped_open): no sample
# follows it, so neither the hardware counters nor the host can see it (docs/fpga.md section 5).
check_eq "$(jnum "$F" samples_produced)" \
	"$(($(jnum "$F" samples_sent) + dropped + $(jnum "$F" dropped_before_ready) + $(jnum "$F" dropped_open) + $(jnum "$F" samples_unsent)))" \
	"emulator: produced = sent + dropped + dropped before ready + open at stop + unsent"
check_eq "$(jnum "$H" samples_received)" "$(jnum "$F" samples_sent)" "the host received every sample sent"
check_eq "$(jnum "$H" samples_lost)" "$dropped" "drops: host ramp check = emulator dropped_samples"
check_eq "$(jnum "$H" ramp_gaps)" "$(jnum "$F" drop_periods)" "drop periods: host ramp gaps = emulator drop_periods"

cmd_pid=$(jq -r .command_pid "$run/run.json")
if scn_have_trace "$run"; then
	babeltrace2 "$run/trace" >"$run/trace.txt" 2>"$run/babeltrace.err"
	fpga_pid=$SCN_FPGA_PID
	foreign=$(grep -v -e "vpid = $cmd_pid," -e "vpid = ${fpga_pid:-none}," "$run/trace.txt" | grep -c 'vpid = ')
	diag "trace: host pid $cmd_pid, emulator pid ${fpga_pid:-?}, $foreign events of other processes (ignored)"
	last_field() { # EVENT PID FIELD: FIELD of the last EVENT of PID in the trace
		grep "$1: " "$run/trace.txt" | grep "vpid = $2," | tail -1 | sed -n "s/.* $3 = \([0-9]*\).*/\1/p"
	}
	check_eq "$(last_field dgrdma_fpga:counters "$fpga_pid" dropped_samples)" "$dropped" \
		"drops: the emulator's last counters event = its dropped_samples"
	host_trace_lost=$(last_field dgrdma:counters "$cmd_pid" samples_lost)
	diag "host's last dgrdma:counters event: samples_lost ${host_trace_lost:-none}"
	check_eq "$host_trace_lost" "$dropped" "drops: the host's last counters event = its ramp check"
else
	scn_missing trace "drops: the emulator's last counters event"
	scn_missing trace "drops: the host's last counters event"
fi

# --- doorbells ---------------------------------------------------------------------------------
bells=$(jnum "$H" doorbells_sent)
diag "doorbells: capture $(jq -r '.wire.rx.doorbells // "none"' "$run/report.json"), stack $bells," \
	"emulator received $(jnum "$F" doorbells_received)"
check_eq "$(jnum "$F" doorbells_received)" "$bells" "doorbells: the emulator received every doorbell"
if scn_have_trace "$run"; then
	trace_bells=$(grep 'dgrdma:doorbell_sent: ' "$run/trace.txt" | grep -c "vpid = $cmd_pid,")
	check_eq "$trace_bells" "$bells" "doorbells: doorbell_sent events of the host in the trace ($trace_bells) = doorbells_sent"
else
	scn_missing trace "doorbells in the trace"
fi
if scn_have_pcap "$run"; then
	check_eq "$(jq -r .wire.rx.doorbells "$run/report.json")" "$bells" "doorbells: capture = the stack's doorbells_sent"
	check_eq "$(jq -r '.wire.rx | [.matched == .doorbells, .orphan_doorbells, .ordinal_mismatches] | join(" ")' "$run/report.json")" \
		"true 0 0" "capture: every doorbell matched its transaction, in order"
else
	scn_missing pcap "doorbells: capture = the stack's doorbells_sent"
	scn_missing pcap "capture: every doorbell matched its transaction, in order"
fi

# --- dissector = latency-report, to the nanosecond ----------------------------------------------
if ! scn_have_pcap "$run"; then
	scn_missing pcap "dissector vs latency-report"
elif [ "$SCN_MODE" = userns ]; then
	skip "dissector vs latency-report: tshark as the mapped root of a user namespace ignores" \
		"WIRESHARK_PLUGIN_DIR and cannot drop to nobody (runs as root and as a normal user)"
elif ! command -v tshark >/dev/null || [ ! -f "$DGR_BUILD/plugins/$(pkg-config --modversion wireshark | cut -d. -f1,2)/epan/dgrdma.so" ]; then
	skip "tshark or the dgrdma plugin (make dissectors) missing"
else
	. "$DGR_SRC/test/dissectors/lib-tshark.sh"
	dissector_setup
	SCN_DT="$DT"
	trap scn_cleanup EXIT
	cp "$run/capture.pcapng" "$DT/capture.pcapng"
	publish "$DT/capture.pcapng"
	ts -2 -r capture.pcapng -Y dgrdma.analysis.doorbell_latency -T fields \
		-e dgrdma.analysis.doorbell_latency 2>"$run/tshark.err" | to_ns >"$run/dissector_latency_ns.txt"
	tail -n +2 "$run/csv/doorbells.csv" | cut -d, -f2 >"$run/report_latency_ns.txt"
	n=$(wc -l <"$run/report_latency_ns.txt")
	diffs=$(paste -d' ' "$run/dissector_latency_ns.txt" "$run/report_latency_ns.txt" | awk '$1 != $2' | wc -l)
	diag "dissector: $(wc -l <"$run/dissector_latency_ns.txt") doorbell latencies, latency-report: $n;" \
		"$diffs differ"
	check "dissector doorbell latencies = latency-report's, doorbell by doorbell ($n)" \
		cmp -s "$run/dissector_latency_ns.txt" "$run/report_latency_ns.txt"
fi
done_testing
