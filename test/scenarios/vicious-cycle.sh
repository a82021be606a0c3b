#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Scenario "vicious cycle" (tuning guide, "Vicious Cycle"): one disturbance of a host that keeps
# up, then report_data_loss true (the cascade) and false (the run recovers). The numbers are
# chosen so that the outcome follows from arithmetic (docs/scenarios.md, "The vicious cycle,
# by the numbers"):
#   100 kS/s in 16 KiB buffers: a buffer (4096 samples) every T_b = 40.96 ms; 8 host and 4
#   emulator buffers (N = 12); the consumer needs c = T_b / 2 = 20.48 ms per buffer
#   (--consumer-delay-us), discontinuities included; once, before buffer K = 24, it stalls
#   D = 1000 ms (--consumer-stall 24:1000) > N x T_b = 491.52 ms: the ADC drops from
#   sample (K + N) x 4096 = 147456 on.
#   true:  every doorbell after the stall frees one buffer while the port is full: it becomes
#          a discontinuity, the port is full again, no sample ever gets through; one
#          discontinuity per doorbell, i.e. per c, up to the end of the stream.
#   false: the freed buffer takes samples: one drop period, closed by the first doorbell; the
#          backlog of N buffers drains at 1/c - 1/T_b, in T = N c T_b / (T_b - c) = 491.52 ms.
# Asserted on both programs' summaries, the emulator's counters events (every 100 ms) and the
# host's events in the trace, and the drop-rate plot's series (drops.csv). Timing-dependent (a
# real-time stream on a shared machine): make scenarios only.
. "$DGR_SRC/test/scenarios/lib.sh"
scn_init vicious-cycle "$@"

RATE=100000 # samples/s
SPB=4096    # samples per 16 KiB buffer
H=8
E=4
N=$((H + E))
TB_US=$((SPB * 1000000 / RATE)) # 40960
C_US=$((TB_US / 2))             # 20480
K=24
D_MS=1000
DUR=6
FIRST_DROP=$(((K + N) * SPB))
T_DRAIN_US=$((N * C_US * TB_US / (TB_US - C_US))) # 491520
HOST_OPTS=(--buffers "$H" --buffer-size 16384 --fpga-buffers "$E" --idle-timeout 10
	--consumer-delay-us "$C_US" --consumer-stall "$K:$D_MS")

# events RUN: the trace as "time name pid fields" lines (babeltrace2, seconds of the clock), in
# time order. The default records no event on the consumer's thread nor txn_complete: each
# doorbell_sent's since_release_ns gives its buffer's release, a line "dgrdma:released" at that
# time, and its since_complete_ns the buffer's completion, a line "dgrdma:completed".
events() {
	babeltrace2 --clock-seconds "$1/trace" 2>/dev/null |
		sed -n 's/^\[\([0-9.]*\)\] ([^)]*) [^ ]* \([a-z_]*:[a-z_]*\): .*vpid = \([0-9]*\),[^}]*}, { \(.*\) }$/\1 \2 \3 \4/p' |
		awk '{ print }
			$2 == "dgrdma:doorbell_sent" && match($0, /since_release_ns = [0-9]+/) {
				since = substr($0, RSTART + 19, RLENGTH - 19)
				printf "%.9f dgrdma:released %s\n", $1 - since / 1e9, $3 }
			$2 == "dgrdma:doorbell_sent" && match($0, /since_complete_ns = [0-9]+/) {
				since = substr($0, RSTART + 20, RLENGTH - 20)
				printf "%.9f dgrdma:completed %s\n", $1 - since / 1e9, $3 }' |
		sort -s -g -k1,1 >"$1/events.txt"
}
# nth_time RUN NAME PID I: the time of the I-th (from 1) event NAME of process PID.
nth_time() {
	awk -v n="$2" -v p="$3" -v i="$4" '$2 == n && $3 == p && ++k == i { print $1; exit }' "$1/events.txt"
}
# counters RUN PID: "time dropped_samples discontinuities_sent" of the emulator's snapshots.
counters() {
	awk -v p="$2" '$2 == "dgrdma_fpga:counters" && $3 == p {
		d = $0; sub(/.*dropped_samples = /, "", d); sub(/,.*/, "", d)
		c = $0; sub(/.*discontinuities_sent = /, "", c); sub(/,.*/, "", c)
		print $1, d, c }' "$1/events.txt" >"$1/emulator_counters.txt"
}
# at FILE T: the counters of the last snapshot at or before time T.
at() {
	awk -v t="$2" '$1 <= t { v = $2 " " $3 } END { print v }' "$1"
}
# backlog RUN PID T: buffers complete in the host and not yet released at time T (of those
# answered by the end: the run ends with every buffer released).
backlog() {
	awk -v p="$2" -v t="$3" '$3 == p && $1 <= t && $2 == "dgrdma:completed" { c++ }
		$3 == p && $1 <= t && $2 == "dgrdma:released" { r++ } END { print c - r }' "$1/events.txt"
}
# drop_series RUN: "time percent" per interval of the emulator's series of the drop-rate plot
# (drops.csv, as dgrdma-plot computes it).
drop_series() {
	awk -F, 'NR > 1 && $2 == "fpga" { if (seen) { dd = $4 - d; dl = $5 - l
		printf "%s %.1f\n", $1, (dd + dl > 0 ? 100 * dl / (dd + dl) : 0) }
		d = $4; l = $5; seen = 1 }' "$1/csv/drops.csv"
}

for rdl in true false; do
	run="$SCN_OUT/report-data-loss-$rdl"
	FPGA_OPTS=(--rate "$RATE" --duration "$DUR" --buffers "$E" --buffer-size 16384 --host-buffers "$H"
		--report-data-loss "$rdl" --counters-ms 100)
	scn_run_rx "$run" capture
	scn_report "$run" "$RATE" "$H" 16384 "$E"
	F="$run/fpga.json"
	HJ="$run/host.json"
	check_eq "$SCN_HOST_RC/$SCN_FPGA_RC" 0/0 "rdl $rdl: dgrdma-host rx and dgrdma-fpga exit 0"
	check_eq "$(jnum "$HJ" eof_received)" 1 "rdl $rdl: the host received the end of the stream"
	check "rdl $rdl: the consumer stalled $D_MS ms once, before buffer $K ($(jnum "$HJ" stalled_ns) ns)" \
		test "$(jnum "$HJ" stalled_ns)" -ge $((D_MS * 1000000))
	first=$(($(jnum "$F" first_drop_sample) - $(jnum "$F" dropped_before_ready)))
	check_eq "$first" "$FIRST_DROP" \
		"rdl $rdl: no drop before the stall; drops from sample ($K + $H + $E) x $SPB = $FIRST_DROP on"
	dropped=$(jnum "$F" dropped_samples)
	disc=$(jnum "$F" discontinuities_sent)
	periods=$(jnum "$F" num_dropped_samps)
	diag "rdl $rdl: emulator: samples_sent $(jnum "$F" samples_sent), dropped_samples $dropped in $periods" \
		"periods (+ $(jnum "$F" dropped_open) open at stop), discontinuities_sent $disc," \
		"transactions_sent $(jnum "$F" transactions_sent)"

	# latency-report's finding (regime.vicious_cycle), from the capture's discontinuities
	if scn_have_pcap "$run"; then
		want=false
		[ "$rdl" = true ] && want=true
		check_eq "$(jq -r '.regime.vicious_cycle.found' "$run/report.json")" "$want" \
			"rdl $rdl: latency-report's vicious cycle finding: $want ($(jq -r .regime.summary "$run/report.json"))"
	else
		skip "rdl $rdl: no capture for latency-report's vicious cycle finding: $SCN_RECORDS"
	fi
	if ! scn_have_trace "$run"; then
		skip "rdl $rdl: the timing checks read the trace: $SCN_RECORDS"
		continue
	fi
	events "$run"
	hpid=$(jq -r .command_pid "$run/run.json")
	fpid=$SCN_FPGA_PID
	counters "$run" "$fpid"
	t_rel=$(nth_time "$run" dgrdma:released "$hpid" $((K + 1)))
	t0=$(nth_time "$run" dgrdma_fpga:thread_start "$fpid" 1)
	t_stop=$(echo "$t0 + $DUR" | bc)
	# doorbells sent in one frame free two buffers at one instant: that would break the cycle
	multi=$(awk -v p="$hpid" '$2 == "dgrdma:doorbell_sent" && $3 == p {
		s = $0; sub(/.*frame_seq = /, "", s); n[s + 0]++ }
		END { for (s in n) if (n[s] > 1) m++; print m + 0 }' "$run/events.txt")
	diag "rdl $rdl: buffer $K released at $t_rel (the stall's end + c), the ADC stopped at about" \
		"$t_stop; frames with more than one doorbell: $multi"

	if [ "$rdl" = true ]; then
		check_eq "$(jnum "$F" samples_sent)" "$FIRST_DROP" \
			"rdl true: not one sample got through after the disturbance (samples_sent = $FIRST_DROP)"
		check_eq "$periods/$(jnum "$HJ" discontinuities)" "$disc/$disc" \
			"rdl true: every drop period ended in a discontinuity, and the host got each ($disc)"
		check_eq "$(jnum "$HJ" samples_lost)/$(jnum "$HJ" ramp_gaps)" 0/0 \
			"rdl true: the host's ramp shows no gap: after the loss no sample came to show it"
		# one discontinuity per doorbell from buffer K's release to the stop: at least this
		# many with every buffer taking up to 1.25 c
		nmin=$(echo "($t_stop - $t_rel) * 1000000 / ($C_US * 1.25) + 1" | bc)
		nnom=$(echo "($t_stop - $t_rel) * 1000000 / $C_US + 1" | bc)
		check "rdl true: discontinuities up to the end: $disc >= $nmin (nominal $nnom, one per c)" \
			test "$disc" -ge "$nmin"
		# every 500 ms from buffer K's release to the stop, more discontinuities
		grew=$(awk -v a="$t_rel" -v b="$t_stop" 'BEGIN { w = 0.5 }
			{ t[NR] = $1; c[NR] = $3 } END {
			for (s = a; s + w <= b; s += w) {
				lo = hi = ""; for (i = 1; i <= NR; i++) { if (t[i] <= s) lo = c[i]; if (t[i] <= s + w) hi = c[i] }
				if (lo == "" || hi <= lo) { print "no growth in [" s ", " s + w "]"; exit }
				n++ }
			print "ok " n }' "$run/emulator_counters.txt")
		check "rdl true: discontinuities grew in every 500 ms until the end of the stream ($grew)" \
			test "${grew%% *}" = ok
		# the host's side of it: its pool stays full (every buffer it frees is refilled at once)
		full=$(for ((i = 1; i <= 2 * DUR; i++)); do
			t=$(echo "$t_rel + $i * 0.5" | bc)
			[ "$(echo "$t < $t_stop - 0.1" | bc)" = 1 ] && backlog "$run" "$hpid" "$t"
		done | sort -n | head -1)
		check "rdl true: the host's $H buffers stay full to the end (fewest waiting, every 0.5 s: $full)" \
			test "${full:-0}" -ge $((H - 1))
		# the drop-rate plot (its emulator series): the cascade is a run of intervals at 100%
		# from the first closed period to the end of the stream
		drop_series "$run" >"$run/drop_series.txt"
		span=$(awk '$2 >= 99 { if (!s) s = p; e = $1; n++ } $2 < 99 && s { exit } { p = $1 }
			END { printf "%.2f %d\n", e - s, n }' "$run/drop_series.txt")
		want=$(echo "$t_stop - $t_rel - 0.3" | bc)
		check "rdl true: drop-rate plot: intervals at 100% drops for ${span% *} s in a row (>= $want)" \
			test "$(echo "${span% *} >= $want" | bc)" = 1
		check "rdl true: drop-rate plot written" test -s "$run/plots/drops.png"
	else
		check_eq "$periods/$disc/$(jnum "$HJ" discontinuities)" 1/0/0 \
			"rdl false: one drop period, no discontinuity"
		check_eq "$(jnum "$HJ" samples_lost)/$(jnum "$HJ" ramp_gaps)" "$dropped/1" \
			"rdl false: the host's ramp lost exactly dropped_samples, in one gap"
		read -r d_after _ <<<"$(at "$run/emulator_counters.txt" "$(echo "$t_rel + 0.15" | bc)")"
		check_eq "$d_after" "$dropped" \
			"rdl false: the period closed at buffer $K's release, nothing dropped after it"
		# recovery: the backlog (the pool full at buffer K's release) is gone after T
		b0=$(backlog "$run" "$hpid" "$t_rel")
		t_rec=$(echo "scale = 9; $t_rel + $T_DRAIN_US / 1000000 + 0.25" | bc)
		b1=$(backlog "$run" "$hpid" "$t_rec")
		check "rdl false: the host's backlog drains: $b0 buffers waiting at buffer $K's release, $b1 (<= 1) T + 0.25 s later (T = $T_DRAIN_US us)" \
			test "$b0" -ge $((H - 1)) -a "$b1" -le 1
		drop_series "$run" >"$run/drop_series.txt"
		after=$(awk '$2 > 0 { n++; if (n > 1) m++ } END { print n + 0, m + 0 }' "$run/drop_series.txt")
		check_eq "$after" "1 0" "rdl false: drop-rate plot: one interval with drops, none after it"
		check "rdl false: drop-rate plot written" test -s "$run/plots/drops.png"
	fi
done
done_testing
