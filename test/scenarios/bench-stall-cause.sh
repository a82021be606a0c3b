#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-stall-cause (issue 33, item 5: "longer ones in make bench"): the stall-cause
# scenario's longer version, run alone and isolated by the test driver as in make check:
# STALL_CAUSE_SECONDS (default 30) of stream a run with STALL_CAUSE_REPEATS disturbances
# (default 5) 2 s apart. The suite's checks ask for one stall with the right cause per
# disturbance at least; this script then tabulates each run's stalls: how many, the threshold,
# how many of them (and what share of the stall time) the expected cause took, and the run's
# first cause as the report words it. Results: $DGR_BUILD/bench/stall-cause.txt. Not a test.
set -u
: "${DGR_BUILD:?}" "${DGR_SRC:?}"
export STALL_CAUSE_SECONDS=${STALL_CAUSE_SECONDS:-30}
export STALL_CAUSE_REPEATS=${STALL_CAUSE_REPEATS:-5}
OUT=$DGR_BUILD/bench/stall-cause.txt
RUNS=$DGR_BUILD/scenarios/stall-cause
mkdir -p "$(dirname "$OUT")"

started=$(date -u +%Y-%m-%dT%H:%M:%SZ) load=$(cut -d' ' -f1-3 /proc/loadavg)
cd "$DGR_SRC" || exit 1
"$DGR_SRC/test/run-suites.sh" --only test/scenarios/stall-cause.sh test/scenarios/stall-cause.sh |
	tail -3
suite_rc=${PIPESTATUS[0]}

# expected NAME: the cause a run's disturbance must be given ("" for the clean run)
expected() {
	case "$1" in
	busy) echo higher-priority-task ;;
	stopped) echo stopped ;;
	writer) echo writeback ;;
	flood) echo softirq ;;
	*) echo "" ;;
	esac
}

{
	echo "bench-stall-cause: $started, $(nproc) CPUs, load average $load at the start"
	echo "test/scenarios/stall-cause.sh with STALL_CAUSE_SECONDS=$STALL_CAUSE_SECONDS STALL_CAUSE_REPEATS=$STALL_CAUSE_REPEATS (suite exit $suite_rc)"
	printf 'run\tdisturbances\tstalls\tthreshold_us\texpected_cause\tits_stalls\tits_share_of_stall_time\tfirst_cause\n'
	for name in busy stopped writer flood clean; do
		f=$RUNS/$name/stalls.json
		[ -f "$f" ] || continue
		want=$(expected "$name")
		jq -r --arg run "$name" --arg want "$want" --argjson n "$([ -n "$want" ] && echo "$STALL_CAUSE_REPEATS" || echo 0)" '
			.stall_causes as $s
			| ([$s.causes[] | select(.cause == $want)] | .[0]) as $c
			| [$run, $n, $s.count, (($s.threshold_ns // 0) / 1000 | floor),
			   (if $want == "" then "-" else $want end),
			   (if $c then $c.stalls else 0 end),
			   (if $c then $c.stall_time_share else 0 end),
			   ($s.causes[0].text // "no stall")] | @tsv' "$f"
	done
} | tee "$OUT.tsv" | column -t -s $'\t' >"$OUT"
cat "$OUT"
rm -f "$OUT.tsv"
exit "$suite_rc"
