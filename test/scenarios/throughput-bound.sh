#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Scenario "throughput-bound": the healthy stream (2 MS/s, 64 x 16 KiB host buffers: one buffer
# every 2.048 ms) into a consumer that spends 5 ms per buffer (--consumer-delay-us 5000), a
# constant bottleneck: samples are dropped and latency-report says "throughput-bound".
# report_data_loss is false here: with true, the first drop starts the vicious cycle (every
# buffer the slow host frees becomes a discontinuity, no sample after the first loss reaches
# the host: vicious-cycle.sh); with false the host's ramp check sees every drop period.
. "$DGR_SRC/test/scenarios/lib.sh"
scn_init throughput-bound "$@"

RATE=2e6
HOST_OPTS=(--buffers 64 --buffer-size 16384 --fpga-buffers 4 --idle-timeout 10 --consumer-delay-us 5000)
FPGA_OPTS=(--rate "$RATE" --duration 3 --buffers 4 --buffer-size 16384 --host-buffers 64 --report-data-loss false)
run="$SCN_OUT/run"
scn_run_rx "$run" capture
scn_report "$run" "$RATE" 64 16384 4

check_eq "$SCN_HOST_RC/$SCN_FPGA_RC" 0/0 "dgrdma-host rx and dgrdma-fpga exit 0"
check_eq "$(jnum "$run/host.json" eof_received)" 1 "the host received the end of the stream"
dropped=$(jnum "$run/fpga.json" dropped_samples)
periods=$(jnum "$run/fpga.json" drop_periods)
diag "emulator: dropped_samples $dropped in $periods periods, discontinuities_sent" \
	"$(jnum "$run/fpga.json" discontinuities_sent); host samples_lost $(jnum "$run/host.json" samples_lost)"
check "emulator dropped samples ($dropped in $periods periods)" test "${dropped:-0}" -gt 0
check_eq "$(jnum "$run/host.json" samples_lost)" "$dropped" "host ramp check: samples lost = the emulator's dropped_samples"
check_eq "$(jnum "$run/host.json" ramp_gaps)" "$periods" "host ramp check: gaps = the emulator's drop periods"
check_eq "$(jnum "$run/fpga.json" discontinuities_sent)/$(jnum "$run/host.json" discontinuities)" 0/0 \
	"no discontinuity message (report_data_loss false)"
diag "verdict: $(jq -r '.regime.reason' "$run/report.json")"
check_eq "$(jq -r '.regime.label' "$run/report.json")" throughput-bound "latency-report verdict: throughput-bound"
check "the report lists the throughput mitigations" grep -qi "consumer" "$run/report.txt"
if scn_have_trace "$run"; then
	check "drop-rate plot written (from the emulator's counters in the trace)" test -s "$run/plots/drops.png"
else
	# report_data_loss false: no discontinuity in the capture, the drop rate comes from the trace
	scn_missing trace "drop-rate plot written (from the emulator's counters in the trace)"
fi
done_testing
