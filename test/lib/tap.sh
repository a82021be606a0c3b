# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# TAP helpers for shell test suites (sourced). See docs/development.md.
TAP_N=0
TAP_FAILED=0

ok() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $*"
}

not_ok() {
	TAP_N=$((TAP_N + 1))
	TAP_FAILED=$((TAP_FAILED + 1))
	echo "not ok $TAP_N - $*"
}

skip() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - skipped # SKIP $*"
}

diag() {
	echo "# $*"
}

# check CONDITION-COMMAND... -- description: runs the command, ok if it succeeds.
check() {
	local desc="$1"
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# check_eq GOT WANT description
check_eq() {
	if [ "$1" = "$2" ]; then
		ok "$3"
	else
		not_ok "$3"
		diag "  got '$1', want '$2'"
	fi
}

done_testing() {
	echo "1..$TAP_N"
	[ "$TAP_FAILED" -eq 0 ]
}

# require_built DIR PROGRAM...: ends the suite with a skip when a program is not built.
require_built() {
	local dir=$1 p
	shift
	for p in "$@"; do
		if [ ! -x "$dir/$p" ]; then
			skip "$dir/$p not built (make all)"
			done_testing
			exit 0
		fi
	done
}

# bail MESSAGE: the suite cannot go on (its set-up failed): one failure, then the end.
bail() {
	not_ok "$*"
	done_testing
	exit 1
}

# nap SECONDS: a wait without a process (test/lib/nap.sh)
# shellcheck source=test/lib/nap.sh
. "${BASH_SOURCE[0]%/*}/nap.sh"
