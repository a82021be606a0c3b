#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The emulator's tracepoints (provider dgrdma_fpga) under a real LTTng session: a run
# with a slowed consumer and report_data_loss on records exactly one event per
# transaction, frame, doorbell, drop period and discontinuity its counters report.
set -u
. "$DGR_SRC/test/integration/fpga/common.inc"
. "$DGR_SRC/test/tracepoints/lttng-env.sh"
SESSION="fpg-trace-$$"
cleanup() {
	lttng destroy "$SESSION" >/dev/null 2>&1
	tp_lttng_teardown
	fpga_cleanup
}
trap cleanup EXIT
if ! tp_lttng_setup; then
	skip "$TP_LTTNG_WHY"
	done_testing
	exit 0
fi
fpga_ports
FPGA_T=("${FPGA_UDP[@]}")
HOST_T=("${HOST_UDP[@]}")
FPGA_RUN=()
HOST_RUN=()
lttng create "$SESSION" --output="$WORK/trace" >/dev/null &&
	lttng enable-channel -u -s "$SESSION" --subbuf-size=4M --num-subbuf=4 fpgch >/dev/null &&
	lttng enable-event -u -s "$SESSION" -c fpgch 'dgrdma_fpga:*' >/dev/null &&
	lttng add-context -u -s "$SESSION" -c fpgch -t vpid >/dev/null &&
	lttng start "$SESSION" >/dev/null
check_eq "$?" 0 "lttng session with dgrdma_fpga:* enabled"
# --id 4242 marks this run's emulator: other emulators of the machine may be traced too
run_pair tr "--rate 2e6 --duration 0.5 --quiet --drain-ms 4000 --host-buffers 8 --counters-ms 50 \
--id 4242" \
	"--idle 3 --consumer-delay-us 4000 --buffers 8"
lttng stop "$SESSION" >/dev/null
babeltrace2 "$WORK/trace" >"$WORK/trace.txt" 2>/dev/null
vpid=$(grep 'dgrdma_fpga:thread_start:' "$WORK/trace.txt" | grep 'conn = 4242' |
	sed -n 's/.*vpid = \([0-9]*\).*/\1/p' | head -1)
grep "vpid = ${vpid:-none} }" "$WORK/trace.txt" | sed -n 's/.* dgrdma_fpga:\([a-z_]*\):.*/\1/p' |
	sort | uniq -c >"$WORK/counts"
n() { awk -v e="$1" '$2 == e { print $1 }' "$WORK/counts" | grep . || echo 0; }
j="$WORK/tr.json"
diag "events: $(tr '\n' ' ' <"$WORK/counts")"
check_eq "$(n thread_start)" 1 "thread_start once"
check_eq "$(n txn_sent)" "$(val "$j" transactions_sent)" "txn_sent = transactions_sent"
check_eq "$(n frame_tx)" "$(val "$j" frames_tx)" "frame_tx = frames_tx"
check_eq "$(n frame_rx)" "$(val "$j" frames_rx)" "frame_rx = frames_rx"
check_eq "$(n doorbell_rx)" "$(val "$j" doorbells_received)" "doorbell_rx = doorbells_received"
check_eq "$(n drop_period)" "$(val "$j" drop_periods)" "drop_period = drop_periods"
check_eq "$(n discontinuity)" "$(val "$j" discontinuities_sent)" \
	"discontinuity = discontinuities_sent"
check "the run had drop periods to trace" [ "$(val "$j" drop_periods)" -gt 0 ]
check "counters snapshots every 50 ms and at exit" [ "$(n counters)" -ge 2 ]
done_testing
