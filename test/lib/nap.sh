# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Sourced by test/lib/tap.sh and by the helpers that poll (sockets.sh, capture.sh, frames.sh,
# live_run.sh), which scripts without tap.sh (test/demo.sh) also source.
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
