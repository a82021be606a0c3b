# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Frames a network namespace received, and a disturbance held until one of them waited: the
# stall-cause scenarios (test/scenarios/lib.sh) and the flight recorder's latency suite hold a
# host (SIGSTOP, a real-time busy loop) until 300 ms after a frame arrived meanwhile, never for a
# fixed time that may fall where nothing arrives. Sourced; needs only bash (and nap.sh beside
# it), so that a scenario can source it inside `ip netns exec ... bash -c`.
#
#   dgr_netdev_frames FILE     packets received on every interface of a /proc net/dev FILE
#                              (/proc/PID/net/dev: PID's namespace; /proc/net/dev: the caller's)
#   dgr_hold_past_a_frame FILE waits until FILE counts a packet more than at the call (at most
#                              10 s), then 300 ms more; false when none came

# shellcheck source=test/lib/nap.sh
. "${BASH_SOURCE[0]%/*}/nap.sh"

# _dgr_netdev_count FILE: sets DGR_NETDEV_FRAMES to the sum of the third column (packets
# received) of FILE's lines after the two headers, in bash: the poll below reads the file
# every 10 ms, and an awk per look cost a process each time.
_dgr_netdev_count() {
	local line f n=0 i=0
	while IFS= read -r line; do
		((++i > 2)) || continue
		read -r -a f <<<"$line"
		n=$((n + ${f[2]:-0}))
	done <"$1"
	DGR_NETDEV_FRAMES=$n
}

dgr_netdev_frames() {
	_dgr_netdev_count "$1"
	echo "$DGR_NETDEV_FRAMES"
}

dgr_hold_past_a_frame() {
	local start n
	_dgr_netdev_count "$1"
	start=$DGR_NETDEV_FRAMES
	for ((n = 0; n < 1000; n++)); do
		_dgr_netdev_count "$1"
		if [ "$DGR_NETDEV_FRAMES" -gt "$start" ]; then
			nap 0.3
			return 0
		fi
		nap 0.01
	done
	return 1
}
