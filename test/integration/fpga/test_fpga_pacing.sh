#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Pacing accuracy: the ADC at 10 MS/s for 5 s produces exactly rate * time samples, where
# time is the emulator's own clock (what pacing guarantees; a loaded machine may delay a
# step, never change the count the clock calls for). Also: the run lasts the requested
# duration on that clock and the pacing error is reported. On the virtual clock the run is
# deterministic: the clock ends on the first tick at or past --duration and the counts are
# known in advance (rates and ticks chosen so that neither divides the other).
set -u
. "$DGR_SRC/test/integration/fpga/common.inc"
trap fpga_cleanup EXIT
fpga_ports
FPGA_T=("${FPGA_UDP[@]}")
HOST_T=("${HOST_UDP[@]}")
FPGA_RUN=()
HOST_RUN=()

# 255 host buffers (100 ms at 40 MB/s): a scheduling stall of this shared machine (29 ms
# seen once) must not start drops, which with report_data_loss can turn into the vicious
# cycle and leave no later sample for the host's ramp to see the gap by.
run_pair pace "--rate 10e6 --duration 5 --quiet --drain-ms 2000 --host-buffers 255" \
	"--idle 3 --timeout 20 --buffers 255"
j="$WORK/pace.json"
produced=$(val "$j" samples_produced)
elapsed=$(val "$j" elapsed_ns)
diag "produced $produced samples in $elapsed ns; expected $(val "$j" expected_samples);" \
	"late max $(val "$j" pacing_late_max_ns) ns, mean $(val "$j" pacing_late_mean_ns) ns," \
	"$(val "$j" pacing_steps) steps; $(val "$j" clock_freezes) clock freezes, $(val "$j" frozen_ns) ns"
# the ADC's clock leaves out what it froze while the emulator did not run (docs/fpga.md
# section 6): with frozen_ns it covers the whole run
frozen=$(val "$j" frozen_ns)
check "the ADC clock ran the whole 5 s (elapsed_ns $elapsed + frozen_ns $frozen)" \
	awk -v e="$elapsed" -v f="$frozen" 'BEGIN { exit !(e + f >= 5e9) }'
# At 10 MS/s a sample is due every 100 ns: the count the clock calls for is elapsed_ns / 100,
# computed here, not by the emulator's own pacing function. One exception, the FPGA's: a drop
# period ends at the instant a doorbell frees a buffer, which takes the next sample then, up
# to one period early (fpga_adc_packet_instant), and the frames read in one batch each end
# theirs at a sample of its own. So a run that dropped (a stall of this shared machine longer
# than the 255 buffers: a CI run at load 9 did) may be ahead, by at most one sample per drop
# period, never behind (6 ahead after 6 periods in one batch with the host stopped for 0.5 s).
ahead=$((produced - elapsed / 100))
periods=$(val "$j" num_dropped_samps)
if [ "$periods" = 0 ]; then
	check_eq "$ahead" 0 "samples_produced = elapsed_ns / 100 (10 MS/s), to the sample"
else
	check_eq "$((ahead >= 0 && ahead <= periods))" 1 \
		"samples_produced = elapsed_ns / 100 (10 MS/s), or ahead by at most the $periods drop periods ($ahead)"
fi
check "the pacing error is measured (steps counted)" [ "$(val "$j" pacing_steps)" -gt 0 ]
# Every sample produced was received, dropped or is still unsent (nothing is lost on loopback
# at this rate). The host's ramp sees a drop only before its last sample: drops after it (with
# report_data_loss a vicious cycle may leave no later sample) are the produced samples past it
# that are not unsent.
next=$(($(val "$WORK/pace.host" last_sample) + 1))
check_eq "$(val "$WORK/pace.host" lost)" \
	"$(($(val "$j" dropped_samples) + $(val "$j" dropped_open) + $(val "$j" dropped_before_ready) -
		(produced - next - $(val "$j" samples_unsent))))" \
	"the host's ramp agrees with the drop counters (drops after its last sample taken off)"

# virtual clock, no host: RATE TICK_US DURATION -> the elapsed time and samples the test
# computes (ticks are whole: the first multiple of the tick at or past the duration).
virtual() {
	local rate=$1 tick=$2 dur=$3 name=$4 want_ns want_samples
	"$FPGA" "${FPGA_T[@]}" --clock virtual --tick-us "$tick" \
		--sample-rate "$rate" --duration "$dur" --quiet --drain-ms 0 \
		--summary-json "$WORK/$name.json" >"$WORK/$name.log" 2>&1
	check_eq "$?" 0 "virtual clock, $rate S/s, tick $tick us, $dur s: the run ends"
	want_ns=$(awk -v t="$tick" -v d="$dur" 'BEGIN { n = d * 1e9 / (t * 1e3);
		if (n != int(n)) n = int(n) + 1; printf "%d", n * t * 1e3 }')
	want_samples=$(awk -v e="$want_ns" -v r="$rate" 'BEGIN { printf "%d", int(e * r / 1e9) }')
	check_eq "$(val "$WORK/$name.json" elapsed_ns)/$(val "$WORK/$name.json" samples_produced)" \
		"$want_ns/$want_samples" \
		"virtual clock, $rate S/s, tick $tick us, $dur s: elapsed_ns $want_ns, $want_samples samples"
}
virtual 3000000 7 1 v3m
virtual 2500000 3 0.5 v25m
done_testing
