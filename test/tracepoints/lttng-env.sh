# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# shellcheck disable=SC2034 # sets variables for the scripts that source it
# Sourced by the tracepoints suites and benchmark.
#
# tp_isolate "$@" (first thing a suite does): re-runs the suite in a private mount namespace
# with its own tmpfs on /run/lttng and /dev/shm, so that its session daemon is private. Other
# suites running at the same time then neither see our test events in their traces nor put
# theirs in ours (LTTng's per-user buffers would otherwise mix every process of this user).
# Without unshare rights the suite runs unisolated (and says so).
#
# tp_lttng_setup / tp_lttng_teardown: a reachable session daemon for the test, stopped at
# exit only if this suite started it. Sets TP_LTTNG_OK=1 when lttng can be used.

# dgr_pcap_mib: dumpcap's kernel buffer sized to a suite's stream (dgrdma-capture --pcap-buffer)
. "$DGR_SRC/test/lib/pcap_buffer.sh"

tp_isolate() {
	local unshare_args=(--mount --propagation private)
	if [ -n "${TP_ISOLATED:-}" ]; then
		if [ "$TP_ISOLATED" = 1 ]; then
			mkdir -p /run/lttng /dev/shm &&
				mount -t tmpfs -o mode=0755 tmpfs /run/lttng &&
				mount -t tmpfs -o mode=1777 tmpfs /dev/shm ||
				{ echo "# private /run/lttng could not be mounted"; return 1; }
		fi
		return 0
	fi
	[ "$(id -u)" = 0 ] || unshare_args=(--user --map-root-user "${unshare_args[@]}")
	if unshare "${unshare_args[@]}" true 2>/dev/null; then
		export TP_ISOLATED=1
		exec unshare "${unshare_args[@]}" "$0" "$@"
	fi
	export TP_ISOLATED=0
	echo "# unshare --mount not allowed: running with the shared session daemon"
}

TP_SESSIOND_PID=""
TP_LTTNG_OK=0
TP_LTTNG_WHY=""

tp_sessiond_rundir() {
	if [ "$(id -u)" = 0 ]; then
		echo /var/run/lttng
	else
		echo "${LTTNG_HOME:-$HOME}/.lttng"
	fi
}

tp_lttng_setup() {
	if ! command -v lttng >/dev/null || ! command -v lttng-sessiond >/dev/null; then
		TP_LTTNG_WHY="lttng-tools is not installed (make deps)"
		return 1
	fi
	local group_args=()
	# In a user namespace (not root) the default group "tracing" is not mapped: chown fails.
	[ "${TP_ISOLATED:-0}" = 1 ] && group_args=(--group="$(id -gn)")
	if ! lttng list >/dev/null 2>&1; then
		if ! lttng-sessiond --daemonize "${group_args[@]}" >/dev/null 2>&1; then
			TP_LTTNG_WHY="lttng-sessiond --daemonize failed"
			return 1
		fi
		TP_SESSIOND_PID=$(cat "$(tp_sessiond_rundir)/lttng-sessiond.pid" 2>/dev/null)
	fi
	TP_LTTNG_OK=1
}

tp_lttng_teardown() {
	if [ -n "$TP_SESSIOND_PID" ]; then
		kill -TERM "$TP_SESSIOND_PID" 2>/dev/null
		TP_SESSIOND_PID=""
	fi
}

# The set-up the capture suites share (call after tp_isolate): the programs, a work folder, a
# UDP port pair of this suite's own from BASE (PORT_F for the emulator, PORT_H for the host),
# and a cleanup on exit that stops what a check left running: SAMPLER_PID (a helper loop),
# FPGA_PID (the emulator), CAP_PID (dgrdma-capture, which then ends its own recording), then
# the private session daemon.
tp_capture_suite() {
	CAPTURE=$DGR_BUILD/bin/dgrdma-capture
	DHOST=$DGR_BUILD/bin/dgrdma-host
	DFPGA=$DGR_BUILD/bin/dgrdma-fpga
	GEN=$DGR_BUILD/bin/dgrdma-gen
	LR=$DGR_BUILD/bin/latency-report
	WORK=$(mktemp -d)
	PORT_F=$(($1 + $$ % 2000 * 2))
	PORT_H=$((PORT_F + 1))
	SAMPLER_PID=""
	FPGA_PID=""
	CAP_PID=""
	trap tp_capture_cleanup EXIT
}

tp_capture_cleanup() {
	[ -n "$SAMPLER_PID" ] && kill "$SAMPLER_PID" 2>/dev/null
	[ -n "$FPGA_PID" ] && kill -KILL "$FPGA_PID" 2>/dev/null
	[ -n "$CAP_PID" ] && kill -TERM "$CAP_PID" 2>/dev/null && wait "$CAP_PID"
	tp_lttng_teardown
	rm -rf "$WORK"
}

# the waits below nap (no process per look; the benchmarks that source this have no tap.sh)
# shellcheck source=test/lib/nap.sh
. "$DGR_SRC/test/lib/nap.sh"

# tp_kill_gone PID: SIGKILL to PID (a part of a recording), then until it is gone
tp_kill_gone() {
	kill -KILL "$1"
	while kill -0 "$1" 2>/dev/null; do
		nap 0.02
	done
}

# tp_wait_for WHAT TEST...: until TEST holds (at most 60 s); false, with a diagnostic naming
# WHAT, when it never did.
tp_wait_for() {
	local what=$1 n
	shift
	for ((n = 0; n < 600; n++)); do
		"$@" && return 0
		nap 0.1
	done
	diag "gave up waiting for $what"
	return 1
}

# tp_flight_require: what the flight recorder's suites need beyond tp_capture_require: the
# stack's programs built and inotifywait (dgrdma-capture's watch of the triggers' snapshots).
# When one is missing: the reason as a skip, and the suite ends (exit 0).
tp_flight_require() {
	local t
	for t in "$DHOST" "$DFPGA" "$LR"; do
		[ -x "$t" ] || { skip "$t not built"; done_testing; exit 0; }
	done
	if ! command -v inotifywait >/dev/null; then
		skip "inotifywait not installed (make deps: inotify-tools)"
		done_testing
		exit 0
	fi
	tp_capture_require
}

# What a suite that records a run on lo needs: a session daemon it may use and dumpcap's rights
# on lo. When either is missing: the reason as a skip, and the suite ends (exit 0).
tp_capture_require() {
	if ! tp_lttng_setup; then
		skip "$TP_LTTNG_WHY"
		done_testing
		exit 0
	fi
	if ! dumpcap -i lo -c 1 -a duration:1 -w "$WORK/probe.pcapng" -q >/dev/null 2>&1; then
		skip "dumpcap cannot capture on lo here (needs CAP_NET_RAW and CAP_NET_ADMIN)"
		done_testing
		exit 0
	fi
}
