# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# A trace of the test's own tp-fire processes only (sourced; FIRE names the tp-fire binary).
# Other suites may run traced programs at the same time, and LTTng's per-user buffers would take
# their events too: each tp-fire waits on a FIFO until its pid is tracked, then fires.

# dgr_fire_traced TRACE SESSION LOG COUNT EVENT...: runs COUNT tp-fire processes (with the
# arguments of the array DGR_FIRE_ARGS, if set) recorded in the
# LTTng session SESSION into the folder TRACE (the events EVENT..., context vpid), waits for
# them and destroys the session. Sets DGR_FIRE_PIDS to their pids. Returns 0 when they were
# recorded, 1 when the session could not be set up (LOG says why; the processes ran all the
# same).
dgr_fire_traced() {
	local trace="$1" session="$2" log="$3" count="$4" i rc=0 fifos=()
	shift 4

	DGR_FIRE_PIDS=()
	for ((i = 0; i < count; i++)); do
		fifos+=("$(mktemp -u "${TMPDIR:-/tmp}/dgrdma-fire-go.XXXXXX")")
		mkfifo "${fifos[i]}" || return 1
		# shellcheck disable=SC2016 # the inner script's own variables
		bash -c 'read -r _ <"$0"; exec "${@:1}" >/dev/null 2>&1' "${fifos[i]}" "$FIRE" \
			"${DGR_FIRE_ARGS[@]}" &
		DGR_FIRE_PIDS+=($!)
	done
	(
		lttng create "$session" --output="$trace" || exit 1
		for e in "$@"; do lttng enable-event -u -s "$session" "$e" || exit 1; done
		lttng add-context -u -s "$session" -t vpid || exit 1
		for p in "${DGR_FIRE_PIDS[@]}"; do lttng track -u -s "$session" --vpid="$p" || exit 1; done
		lttng start "$session"
	) >"$log" 2>&1 || rc=1
	for ((i = 0; i < count; i++)); do
		echo go >"${fifos[i]}"
		rm -f "${fifos[i]}"
	done
	wait "${DGR_FIRE_PIDS[@]}"
	[ "$rc" = 0 ] && lttng destroy "$session" >/dev/null 2>&1
	return "$rc"
}
