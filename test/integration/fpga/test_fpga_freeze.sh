#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The clock freeze of dgrdma-fpga (docs/fpga.md section 6), against dgrdma-host over UDP on
# 127.0.0.1: an emulator stopped (SIGSTOP) for 1 s in the middle of a stream, far longer than
# the host's buffering, loses no sample and reports a freeze of at least the stop; a host
# stopped for 1 s still makes the emulator drop (its stop is no freeze of the FPGA's); a DAC
# stopped for 1 s plays every sample without an underrun.
set -u
. "$DGR_SRC/test/integration/fpga/common.inc"
trap fpga_cleanup EXIT
DHOST="$DGR_BUILD/bin/dgrdma-host"
if [ ! -x "$DHOST" ]; then
	skip "dgrdma-host not built"
	done_testing
	exit 0
fi
fpga_ports

# 1 MS/s into 64 host buffers of 16 KiB: the host holds 262 ms (a loaded machine's stall of the
# host, tens of ms, loses nothing), the FPGA's 4 buffers 16.384 ms; the stops last 1 s.
RATE=1e6
ABSORB_NS=16384000 # 4 x 4096 samples at 1 MS/s: what the FPGA's memory holds
STOP_S=1

# host_frames FD: reads what the host printed since the last look (--stats-interval lines) and
# sets HOST_FRAMES to the last frames_rx (HOST_PART keeps a line not yet ended).
HOST_FRAMES=0 HOST_PART=""
host_frames() {
	local line
	while IFS= read -r -u "$1" line; do
		line=$HOST_PART$line HOST_PART=""
		[[ $line =~ .*\ \ frames_rx:\ ([0-9]*) ]] && HOST_FRAMES=${BASH_REMATCH[1]}
	done
	HOST_PART+=$line
}

# wait_moving FD PID...: until the host's frames_rx rose twice (the stream flows), or a PID ended.
wait_moving() {
	local fd=$1 start rises=0 p
	shift
	host_frames "$fd"
	start=$HOST_FRAMES
	while [ "$rises" -lt 2 ]; do
		for p in "$@"; do
			kill -0 "$p" 2>/dev/null || return 1
		done
		nap 0.1
		host_frames "$fd"
		if [ "$HOST_FRAMES" -gt "$start" ]; then
			rises=$((rises + 1)) start=$HOST_FRAMES
		fi
	done
}

# stop_run NAME WHO "FPGA ARGS": dgrdma-host rx, then the emulator's ADC; once the stream flows,
# WHO (fpga or host) is stopped for STOP_S seconds; once it flows again the emulator is told
# to stop (SIGINT: its --duration only bounds a failure).
stop_run() {
	local name=$1 who=$2 fargs=$3 hp fp out victim
	"$DHOST" rx "${HOST_UDP[@]}" --buffers 64 --idle-timeout 5 --stats-interval 0.1 --quiet \
		--summary-json "$WORK/$name.h.json" >"$WORK/$name.h.out" 2>&1 &
	hp=$!
	FPGA_PIDS+=("$hp")
	dgr_wait_listening "$hp" dgrdma-host "${HOST_UDP[@]}"
	# shellcheck disable=SC2086
	"$FPGA" "${FPGA_UDP[@]}" --sample-rate $RATE --host-buffers 64 --duration 60 --drain-ms 4000 \
		$fargs --summary-json "$WORK/$name.json" >"$WORK/$name.out" 2>&1 &
	fp=$!
	FPGA_PIDS+=("$fp")
	exec {out}<"$WORK/$name.h.out"
	HOST_FRAMES=0 HOST_PART=""
	if wait_moving "$out" "$fp" "$hp"; then
		ok "$name: the stream flows before the stop"
	else
		not_ok "$name: the stream flows before the stop"
	fi
	victim=$fp
	[ "$who" = host ] && victim=$hp
	kill -STOP "$victim"
	nap "$STOP_S" # the disturbance itself: it lasts at least STOP_S
	kill -CONT "$victim"
	if wait_moving "$out" "$fp" "$hp"; then
		ok "$name: the stream flows again after the stop"
	else
		not_ok "$name: the stream flows again after the stop"
	fi
	exec {out}<&-
	kill -INT "$fp" 2>/dev/null
	wait "$fp"
	check_eq "$?" 0 "$name: dgrdma-fpga exits 0"
	wait "$hp"
	check_eq "$?" 0 "$name: dgrdma-host rx exits 0"
	json_use "$WORK/$name.json" "$WORK/$name.h.json"
	diag "$name: host lost $(json_file "$WORK/$name.h.json" .samples_lost)," \
		"received $(json_file "$WORK/$name.h.json" .samples_received); fpga" \
		"$(json_object "${JSON_FILES[$WORK/$name.json]}" samples_produced samples_sent \
			dropped_samples num_dropped_samps dropped_open samples_unsent clock_freezes \
			frozen_ns frozen_max_ns pacing_late_max_ns elapsed_ns run_ns)"
}

# 1. The emulator stopped for 1 s (the host's 262 ms and the FPGA's 16 ms many times over):
#    without the freeze it dropped some 720 000 samples on waking up.
stop_run fpga fpga ""
j="$WORK/fpga.json" h="$WORK/fpga.h.json"
check_eq "$(json_file "$j" .dropped_samples)/$(json_file "$j" .num_dropped_samps)/$(json_file "$j" .dropped_open)" \
	0/0/0 "emulator stopped 1 s: no drop period, no dropped sample"
check_eq "$(json_file "$h" .samples_lost)/$(json_file "$h" .ramp.gaps)" 0/0 \
	"emulator stopped 1 s: the host's ramp lost no sample, no gap"
check_eq "$(json_file "$h" .samples_received)" "$(json_file "$j" .samples_produced)" \
	"emulator stopped 1 s: the host received every sample produced"
check "emulator stopped 1 s: a clock freeze ($(json_file "$j" .clock_freezes))" \
	test "$(json_file "$j" .clock_freezes)" -ge 1
# the stop lasted at least STOP_S and the ADC's next sample was due before it began, so one
# freeze took at least STOP_S less what the FPGA's memory holds; 50 ms only weakens the bound
# (the signals' delivery)
min_ns=$((STOP_S * 1000000000 - ABSORB_NS - 50000000))
check "emulator stopped 1 s: the longest freeze ($(json_file "$j" .frozen_max_ns) ns) is at least the stop less the FPGA's 16 ms" \
	test "$(json_file "$j" .frozen_max_ns)" -ge "$min_ns"
check "emulator stopped 1 s: frozen_ns counts it ($(json_file "$j" .frozen_ns) >= frozen_max_ns)" \
	test "$(json_file "$j" .frozen_ns)" -ge "$(json_file "$j" .frozen_max_ns)"
# the ADC's clock is the frozen one: what it produced is floor(rate x elapsed_ns), exactly
check_eq "$(json_file "$j" .samples_produced)" "$(($(json_file "$j" .elapsed_ns) / 1000))" \
	"emulator stopped 1 s: samples_produced = elapsed_ns x 1 MS/s on the frozen clock"
check "emulator stopped 1 s: the freeze is not pacing lateness ($(json_file "$j" .pacing_late_max_ns) ns < the stop)" \
	test "$(json_file "$j" .pacing_late_max_ns)" -lt "$min_ns"
check "emulator stopped 1 s: the text summary says the emulator was not running" \
	grep -q '^dgrdma-fpga: the emulator was not running [0-9]* times\?, so it froze its FPGA clocks for [0-9.]* ms in all (longest [0-9.]* ms): real hardware never stops' \
	"$WORK/fpga.out"

# 2. The host stopped for 1 s: the FPGA's drops are the host's, exactly what its ramp lost
#    (report_data_loss false: every period shows as a gap once the host resumes).
stop_run host host "--report-data-loss false"
j="$WORK/host.json" h="$WORK/host.h.json"
check "host stopped 1 s: the emulator dropped ($(json_file "$j" .dropped_samples))" \
	test "$(json_file "$j" .dropped_samples)" -gt 0
check_eq "$(json_file "$h" .samples_lost)" "$(json_file "$j" .dropped_samples)" \
	"host stopped 1 s: samples lost in the host's ramp = dropped_samples"
check_eq "$(json_file "$h" .ramp.gaps)" "$(json_file "$j" .num_dropped_samps)" \
	"host stopped 1 s: gaps in the ramp = num_dropped_samps"

# 3. The DAC: dgrdma-host tx at 0.25 MS/s into 32 buffers of 16 KiB (524 ms: a loaded machine's
#    stall of the host underruns nothing), the emulator stopped for 1 s. Without the freeze it
#    played the 524 ms it held at once on waking and underran for the rest of the second.
"$FPGA" "${FPGA_UDP[@]}" --mode dac --sample-rate 250e3 --fpga-memory 524288 --buffers 32 \
	--check-ramp --duration 60 --ready-file "$WORK/dac.ready" --summary-json "$WORK/dac.json" \
	>"$WORK/dac.out" 2>&1 &
fp=$!
FPGA_PIDS+=("$fp")
dgr_wait_ready_file "$WORK/dac.ready" "$fp"
# 3 MiB: 3.1 s of the DAC's clock, so the stream still flows when the stop ends (the host's
# output exists before it starts, to be read as it grows)
: >"$WORK/dac.h.out"
"$DHOST" tx "${HOST_UDP[@]}" --fpga-buffers 32 --bytes 3M --idle-timeout 5 --stats-interval 0.1 \
	--quiet --summary-json "$WORK/dac.h.json" >"$WORK/dac.h.out" 2>&1 &
hp=$!
FPGA_PIDS+=("$hp")
exec {out}<"$WORK/dac.h.out"
HOST_FRAMES=0 HOST_PART=""
# the host's frames_rx are the emulator's doorbells: the DAC plays
if wait_moving "$out" "$fp" "$hp"; then
	ok "dac: the stream flows before the stop"
else
	not_ok "dac: the stream flows before the stop"
fi
kill -STOP "$fp"
nap "$STOP_S"
kill -CONT "$fp"
exec {out}<&-
wait "$hp"
check_eq "$?" 0 "dac: dgrdma-host tx sent its 3 MiB and exits 0"
# its last buffer (EOF) stopped the DAC; --duration only bounds a failure
kill -INT "$fp" 2>/dev/null
wait "$fp"
check_eq "$?" 0 "dac: dgrdma-fpga exits 0"
j="$WORK/dac.json"
json_use "$j"
diag "dac: $(json_object "${JSON_FILES[$j]}" num_underruns underrun_periods samples_consumed \
	eof_seen ramp_errors clock_freezes frozen_ns frozen_max_ns elapsed_ns run_ns)"
check_eq "$(json_file "$j" .num_underruns)/$(json_file "$j" .underrun_periods)" 0/0 \
	"dac, emulator stopped 1 s: no underrun"
check_eq "$(json_file "$j" .samples_consumed)/$(json_file "$j" .eof_seen)/$(json_file "$j" .ramp_errors)" \
	"$((3 * 1024 * 1024 / 4))/true/0" "dac, emulator stopped 1 s: every sample played, in order, to the EOF"
check "dac, emulator stopped 1 s: a clock freeze ($(json_file "$j" .clock_freezes))" \
	test "$(json_file "$j" .clock_freezes)" -ge 1
# the DAC plays the rest of its buffer (at most 4096 samples: 16.384 ms) before its clock freezes
check "dac, emulator stopped 1 s: the longest freeze ($(json_file "$j" .frozen_max_ns) ns) is at least the stop less a buffer's 16 ms" \
	test "$(json_file "$j" .frozen_max_ns)" -ge "$min_ns"
done_testing
