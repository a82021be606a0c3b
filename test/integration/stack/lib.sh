# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# shellcheck disable=SC2034 # sets variables for the scripts that source it
# Helpers of the stack's integration suites (sourced).
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/lib/sockets.sh"
. "$DGR_SRC/test/lib/json.sh"
HOST="$DGR_BUILD/bin/dgrdma-host"
CTL="$DGR_BUILD/bin/dgrdma-ctl"
FPGA="$DGR_BUILD/bin/dgrdma-fpga"
HOSTILE="$DGR_BUILD/test/integration/stack/stk-hostile"
# ASan/UBSan findings must not look like an ordinary failed run
export ASAN_OPTIONS="exitcode=99:detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="exitcode=99${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

STK_TMP=$(mktemp -d "${TMPDIR:-/tmp}/stk$$.XXXXXX")
# stk_cleanup_tmp: the suite's work folder removed; after a failed check its small files (the
# tools' summaries and messages, under 1 MiB each) are kept first, in
# $DGR_BUILD/test-logs/kept/SUITE.PID, and named: a failure seen once must be explainable from
# them (forged.sh's one frame short, 5 December, was not: its summaries were gone)
stk_cleanup_tmp() {
	local kept
	if [ "$TAP_FAILED" -gt 0 ] && [ -d "$STK_TMP" ]; then
		kept="$DGR_BUILD/test-logs/kept/${0##*/}.$$"
		mkdir -p "$kept" &&
			find "$STK_TMP" -maxdepth 2 -type f -size -1024k -exec cp -t "$kept" {} + 2>/dev/null &&
			diag "the failed run's summaries and messages are kept in $kept"
	fi
	rm -rf "$STK_TMP"
}

# jget FILE KEY.PATH: prints a value of a JSON file, from memory once json_use FILE has read
# it (test/lib/json.sh: one jq for all of a file's values, where a start of jq or python3 per
# value cost 26-100 ms of CPU); a suite calls json_use in its own shell each time a run has
# written the file. As jq -r prints it: "null" when missing.
jget() {
	json_file "$1" ".$2"
}

# jq_get FILE FILTER: a jq filter's raw output (one jq run: fast on a loaded machine)
jq_get() {
	jq -r "$2" "$1" 2>/dev/null
}

# num_test CONDITION VALUE...: awk's CONDITION on the values ($1, $2, ...), in double precision;
# false when a value is not a decimal number. One awk instead of a python3 per comparison.
num_test() {
	local cond=$1 v
	shift
	for v; do
		[[ $v =~ ^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$ ]] || return 1
	done
	awk "{ exit !($cond) }" <<<"$*"
}

# A pair of free-looking UDP ports derived from the pid.
stk_ports() {
	STK_P1=$((20000 + ($$ * 7 + ${1:-0} * 2) % 40000))
	STK_P2=$((STK_P1 + 1))
}

# stk_wait_udp PORT: waits (up to ~10 s) until a UDP socket is bound to PORT (connected or not).
stk_wait_udp() {
	for _ in $(seq 1 200); do
		ss -Huan "sport = :$1" 2>/dev/null | grep -q . && return 0
		nap 0.05
	done
	return 1
}

# csv_sum FILE COLUMN: the sum of a named column of a CSV with a header line.
csv_sum() {
	awk -F, -v col="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
		c { s += $c } END { if (!c) exit 1; printf "%d\n", s }' "$1"
}

# stk_check_arrival JSON WHAT (JSON read by json_use): dgrdma-host rx was stopped (SIGSTOP)
# before the emulator sent its whole stream and continued at least 0.3 s after the last frame. Every
# doorbell's latency from the kernel's arrival of its frame (latency_from_arrival_ns)
# then holds that wait, and the latency from the completion (latency_ns) does not: the two
# differ by exactly the wait for the receive thread. The 0.25 s are a lower bound the test
# itself guarantees (a sleep lasts at least its time), not a limit a slow machine can break;
# nothing here bounds how long anything may take.
stk_check_arrival() {
	local n
	n=$(jget "$1" transactions)
	check "$2: the stopped receiver completed transactions ($n)" test "${n:-0}" -gt 0
	check_eq "$(jget "$1" latency_from_arrival_ns.count)" "$n" \
		"$2: one latency from arrival per doorbell"
	check "$2: every doorbell's latency from arrival holds the stop (min $(jget "$1" latency_from_arrival_ns.min) ns >= 0.25 s)" \
		test "$(jget "$1" latency_from_arrival_ns.min)" -ge 250000000
	check "$2: the mean wait for the receive thread is that stop ($(jget "$1" latency_ns.mean_wait_receive) ns)" \
		num_test '$1 >= 2.5e8' "$(jget "$1" latency_ns.mean_wait_receive)"
	check "$2: from arrival = from completion + that wait (means $(jget "$1" latency_from_arrival_ns.mean) = $(jget "$1" latency_ns.mean) + $(jget "$1" latency_ns.mean_wait_receive), to 2 ns)" \
		num_test '-2 <= $1 - $2 - $3 && $1 - $2 - $3 <= 2' \
		"$(jget "$1" latency_from_arrival_ns.mean)" "$(jget "$1" latency_ns.mean)" \
		"$(jget "$1" latency_ns.mean_wait_receive)"
}
