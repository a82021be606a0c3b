#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Scenario "vicious cycle" (tuning guide, "Vicious Cycle"): a 2 MS/s stream into a host whose
# consumer needs 1.85 ms of the 2.048 ms each 16 KiB buffer lasts (busy, but fast enough), and
# one disturbance: the host is stopped (SIGSTOP) for 300 ms, longer than the 139 ms the 64 + 4
# buffers absorb, so samples are dropped.
#   report_data_loss true: every buffer the host frees afterwards becomes a discontinuity
#     message, the host (which returns one buffer at a time) never catches up: drops and
#     discontinuities keep growing long after the disturbance ended;
#   report_data_loss false: the run recovers: drops stop soon after the disturbance.
# Asserted on the emulator's counters events in the trace (every 100 ms) and its summary; the
# drop-rate plots (plots/drops.png of each run) show the same. Timing-dependent (a SIGSTOP on a
# shared machine): make scenarios only.
. "$DGR_SRC/test/scenarios/lib.sh"
scn_init vicious-cycle "$@"

RATE=2e6
HOST_OPTS=(--buffers 64 --buffer-size 16384 --fpga-buffers 4 --idle-timeout 10 --consumer-delay-us 1850)

# disturb: while the emulator streams, stop the host 300 ms once, 1.5 s into the run.
disturb() {
	local p pid=""
	sleep 1.5
	for p in $(pgrep -x dgrdma-host); do
		{ tr "\\0" " " <"/proc/$p/cmdline"; } 2>/dev/null | grep -qF -- "$run/host.json" && pid=$p
	done
	[ -n "$pid" ] || { diag "host process not found"; return; }
	kill -STOP "$pid"
	sleep 0.3
	kill -CONT "$pid"
	CONT_AT=$(date +%s.%N)
}
SCN_DURING_RUN=disturb

# series DIR: "time dropped_samples discontinuities_sent" of the emulator's counters events.
series() {
	babeltrace2 --clock-seconds "$1/trace" 2>/dev/null | grep 'dgrdma_fpga:counters: ' |
		grep "vpid = $SCN_FPGA_PID," |
		sed -n 's/^\[\([0-9.]*\)\].* dropped_samples = \([0-9]*\),.* discontinuities_sent = \([0-9]*\),.*/\1 \2 \3/p' >"$1/emulator_counters.txt"
}
# at FILE T: the counters of the last snapshot at or before time T.
at() {
	awk -v t="$2" '$1 <= t { v = $2 " " $3 } END { print v }' "$1"
}

for rdl in true false; do
	run="$SCN_OUT/report-data-loss-$rdl"
	FPGA_OPTS=(--rate "$RATE" --duration 5 --buffers 4 --buffer-size 16384 --host-buffers 64
		--report-data-loss "$rdl" --counters-ms 100)
	CONT_AT=""
	scn_run_rx "$run" capture
	scn_report "$run" "$RATE" 64 16384 4
	series "$run"
	check_eq "$SCN_HOST_RC/$SCN_FPGA_RC" 0/0 "rdl $rdl: dgrdma-host rx and dgrdma-fpga exit 0"
	if [ -z "$CONT_AT" ]; then
		not_ok "rdl $rdl: the disturbance happened"
		continue
	fi
	read -r d_cont c_cont <<<"$(at "$run/emulator_counters.txt" "$(echo "$CONT_AT + 0.1" | bc)")"
	read -r d_rec c_rec <<<"$(at "$run/emulator_counters.txt" "$(echo "$CONT_AT + 1" | bc)")"
	read -r d_end c_end <<<"$(tail -1 "$run/emulator_counters.txt" | cut -d' ' -f2-)"
	diag "rdl $rdl: dropped_samples, discontinuities_sent 0.1 s after the disturbance: $d_cont, $c_cont;" \
		"1 s after: $d_rec, $c_rec; at the end: $d_end, $c_end (summary: $(jnum "$run/fpga.json" dropped_samples)," \
		"$(jnum "$run/fpga.json" discontinuities_sent), samples_sent $(jnum "$run/fpga.json" samples_sent))"
	check "rdl $rdl: the disturbance dropped samples ($d_cont)" test "${d_cont:-0}" -gt 0
	if [ "$rdl" = true ]; then
		# From the capture too (independent of the trace): discontinuity messages per 100 ms.
		first=$(capinfos -S -a "$run/capture.pcapng" 2>/dev/null | sed -n 's/^First packet time: *//p')
		late=$(awk -F, -v t="$(echo "$CONT_AT - $first + 1" | bc)" 'NR > 1 && $1 >= t { n += $6 } END { print n + 0 }' \
			"$run/csv/intervals.csv")
		diag "rdl true: discontinuities on the wire from 1 s after the disturbance on: $late"
		check "rdl true: the capture shows discontinuities 1 s and more after the disturbance ($late)" \
			test "${late:-0}" -gt 0
		check "rdl true: discontinuities keep being sent after the disturbance ($c_cont -> $c_end)" \
			test "${c_end:-0}" -gt "${c_cont:-0}"
		check "rdl true: samples keep being dropped after the disturbance ($d_cont -> $d_end)" \
			test "${d_end:-0}" -gt "${d_cont:-0}"
	else
		check_eq "$c_end" 0 "rdl false: no discontinuity message"
		check_eq "$d_end" "$d_rec" "rdl false: no drop from 1 s after the disturbance on (recovered)"
	fi
	check "rdl $rdl: drop-rate plot written" test -s "$run/plots/drops.png"
done
done_testing
