# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the tracepoints suites: a reachable LTTng session daemon for the test, stopped
# at exit only if this suite started it. Sets TP_LTTNG_OK=1 when lttng can be used.

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
	if ! lttng list >/dev/null 2>&1; then
		if ! lttng-sessiond --daemonize >/dev/null 2>&1; then
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
