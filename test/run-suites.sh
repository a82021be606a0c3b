#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The one test driver of `make check`.
#
# Each suite is an executable (C test binary or script) that prints TAP lines:
#   ok N - description
#   not ok N - description
#   ok N - description # SKIP reason
# A suite that exits non-zero without a "not ok" line counts as one failure, and a
# suite that prints no result at all counts as one failure ("ran no test").
# A suite still running after DGR_SUITE_TIMEOUT seconds (default 600) is killed
# and counts as a failure, so a hang shows up with its log instead of stalling CI.
# The last line is exactly "N passed, N failed, N skipped"; the exit status is
# non-zero when anything failed.
# Suites that only compute (no stream, no timing, no network: a script with the line
# "# make check: compute only") run first, two at a time, since the machine has two
# cores; their lines are printed in the order given. The others run one at a time after
# them, so that no timing-sensitive run shares the machine with another suite.
set -u

only=""
if [ "${1:-}" = "--only" ]; then
	only="$2"
	shift 2
fi

: "${DGR_BUILD:?DGR_BUILD must name the build folder}"
: "${DGR_SRC:?DGR_SRC must name the source folder}"
export DGR_BUILD DGR_SRC
logdir="$DGR_BUILD/test-logs"
mkdir -p "$logdir"

passed=0
failed=0
skipped=0
failed_names=()

# run_suite SUITE LOG: runs it under the timeout; writes "rc start end" to LOG.result
run_suite() {
	local start end rc
	start=$(date +%s.%N)
	timeout --kill-after=10 "${DGR_SUITE_TIMEOUT:-600}" "$1" >"$2" 2>&1
	rc=$?
	end=$(date +%s.%N)
	echo "$rc $start $end" >"$2.result"
}

# suite_name SUITE: its path under the source or build folder
suite_name() {
	local name="${1#"$DGR_SRC"/}"
	echo "${name#"$DGR_BUILD"/}"
}

log_of() {
	echo "$logdir/$(suite_name "$1" | tr '/ ' '__').log"
}

# report SUITE LOG: its line (and its failures, skips), added to the totals
report() {
	local name log=$2 rc start end p s f note
	name=$(suite_name "$1")
	read -r rc start end <"$log.result"
	p=$(grep -cE '^ok [0-9]+' "$log" | head -1)
	s=$(grep -cE '^ok [0-9]+.*# *SKIP' "$log" | head -1)
	f=$(grep -cE '^not ok [0-9]+' "$log" | head -1)
	p=$((p - s))
	note=""
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		f=$((f + 1))
		note=" (killed after ${DGR_SUITE_TIMEOUT:-600} s)"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		note=" (exit status $rc)"
	fi
	if [ $((p + s + f)) -eq 0 ]; then
		f=1
		note=" (ran no test)"
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
	printf '%-48s %4d passed %3d failed %3d skipped %7.1fs%s\n' \
		"$name" "$p" "$f" "$s" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$note"
	if [ "$f" -gt 0 ]; then
		failed_names+=("$name")
		grep -E '^not ok|^#' "$log" | grep -vE '^# *(ok|info)' | head -40 | sed 's/^/    /'
		echo "    (full log: $log)"
	fi
	grep -E '^ok [0-9]+.*# *SKIP' "$log" | sed 's/^/    /'
}

compute=()
serial=()
for suite in "$@"; do
	if [ -n "$only" ] && [[ "$suite" != *"$only"* ]]; then
		continue
	fi
	if [ -f "$suite" ] && grep -qx '# make check: compute only' "$suite" 2>/dev/null; then
		compute+=("$suite")
	else
		serial+=("$suite")
	fi
done

running=0
for suite in "${compute[@]}"; do
	if [ "$running" -ge 2 ]; then
		wait -n
		running=$((running - 1))
	fi
	run_suite "$suite" "$(log_of "$suite")" &
	running=$((running + 1))
done
wait
for suite in "${compute[@]}"; do
	report "$suite" "$(log_of "$suite")"
done
for suite in "${serial[@]}"; do
	run_suite "$suite" "$(log_of "$suite")"
	report "$suite" "$(log_of "$suite")"
done

if [ "${#failed_names[@]}" -gt 0 ]; then
	echo "failed suites: ${failed_names[*]}"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
