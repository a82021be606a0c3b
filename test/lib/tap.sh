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

# nap SECONDS: waits SECONDS (fractions allowed) without starting a process: a `sleep` costs
# about 6 ms of CPU on this VM, and the suites' polling loops ran it some 2400 times a
# make check. It reads, with a timeout, from a FIFO of its own that nobody writes (opened
# read-write, so it never ends). Falls back to sleep where no FIFO can be made.
nap() {
	local f
	if [ -z "${TAP_NAP_FD:-}" ]; then
		f="${TMPDIR:-/tmp}/dgr-nap.$BASHPID.$RANDOM"
		if mkfifo -m 600 "$f" 2>/dev/null && exec {TAP_NAP_FD}<>"$f"; then
			rm -f "$f"
		else
			rm -f "$f"
			TAP_NAP_FD=""
			sleep "$1"
			return 0
		fi
	fi
	read -r -t "$1" -u "$TAP_NAP_FD" _ || true
}
