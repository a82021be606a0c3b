# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Frames a network namespace received, and a disturbance held until one of them waited: the
# stall-cause scenarios (test/scenarios/lib.sh) and the flight recorder's latency suite hold a
# host (SIGSTOP, a real-time busy loop) until 300 ms after a frame arrived meanwhile, never for a
# fixed time that may fall where nothing arrives. Sourced; needs only bash and awk, so that a
# scenario can source it inside `ip netns exec ... bash -c`.
#
#   dgr_netdev_frames FILE     packets received on every interface of a /proc net/dev FILE
#                              (/proc/PID/net/dev: PID's namespace; /proc/net/dev: the caller's)
#   dgr_hold_past_a_frame FILE waits until FILE counts a packet more than at the call (at most
#                              10 s), then 300 ms more; false when none came

dgr_netdev_frames() {
	awk 'NR > 2 { n += $3 } END { print n + 0 }' "$1"
}

dgr_hold_past_a_frame() {
	local start n
	start=$(dgr_netdev_frames "$1")
	for ((n = 0; n < 1000; n++)); do
		if [ "$(dgr_netdev_frames "$1")" -gt "$start" ]; then
			sleep 0.3
			return 0
		fi
		sleep 0.01
	done
	return 1
}
