# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# shellcheck disable=SC2034 # sets variables for the scripts that source it
# A private link between an "fpga" side and a "host" side for end-to-end runs
# (sourced by test/demo.sh and the scenarios). Three ways, best first:
#
#   netns   root: two network namespaces joined by a veth pair (MTU 9000),
#           raw Ethernet (AF_PACKET) on both ends;
#   userns  not root: the caller re-runs itself inside
#           `unshare --user --map-root-user --net` (dgr_link_reexec), where one
#           namespace holds both ends of a veth pair;
#   udp     neither possible: UDP on 127.0.0.1.
#
# After dgr_link_up these are set:
#   DGR_LINK_MODE                 netns | userns | udp
#   DGR_FPGA_RUN / DGR_HOST_RUN   command prefixes (arrays) that run a command on that side
#   DGR_FPGA_TRANSPORT / DGR_HOST_TRANSPORT   transport flags (arrays) of each end
#   DGR_HOST_IF                   the host-side interface (capture point)
# dgr_link_down removes what dgr_link_up created; callers trap it on EXIT.

# dgr_wait_listening (test/lib/sockets.sh) starts one end once the other is receiving.
# shellcheck source=test/lib/sockets.sh
. "${BASH_SOURCE[0]%/*}/sockets.sh"

DGR_LINK_MTU=${DGR_LINK_MTU:-9000}
DGR_LINK_TAG=${DGR_LINK_TAG:-dgr$$}

# Prints the MAC address of interface $2 in namespace $1 ("" = current).
dgr_link_mac() {
	if [ -n "$1" ]; then
		ip -n "$1" -j link show dev "$2" | jq -r '.[0].address'
	else
		ip -j link show dev "$2" | jq -r '.[0].address'
	fi
}

# True when this shell may create namespaces and veth pairs itself.
dgr_link_can_netns() {
	[ "$(id -u)" = 0 ] && ip netns list >/dev/null 2>&1
}

# True when an unprivileged user+network namespace can be made here.
dgr_link_can_userns() {
	unshare --user --map-root-user --net true 2>/dev/null
}

# Decides the mode: "netns" when root, "userns" when unshare works, else "udp".
# DGR_LINK_FORCE=udp|userns|netns overrides (tests of the fallbacks use it).
dgr_link_choose() {
	if [ -n "${DGR_LINK_FORCE:-}" ]; then
		echo "$DGR_LINK_FORCE"
	elif [ -n "${DGR_IN_USERNS:-}" ]; then
		echo userns
	elif dgr_link_can_netns; then
		echo netns
	elif dgr_link_can_userns; then
		echo userns
	else
		echo udp
	fi
}

# In the user namespace (mapped root, private mount namespace): a session daemon of our own.
# lttng-sessiond runs as the mapped root when its run folder is writable and its group is
# mapped: a tmpfs on /run/lttng (the global run folder of uid 0; the real one belongs to the
# real root) and on /dev/shm (LTTng's wait and buffer shared memory, private to this run);
# dgrdma-capture passes --group. docs/tracepoints.md, "Privileges".
dgr_link_private_lttng() {
	if [ ! -d /run/lttng ]; then
		# /run belongs to the real root: a tmpfs over it (nothing under it is used here)
		mount -t tmpfs -o mode=0755 tmpfs /run && mkdir -p /run/lttng || return 1
	fi
	mount -t tmpfs -o mode=0755 tmpfs /run/lttng && mount -t tmpfs -o mode=1777 tmpfs /dev/shm
}

# Re-runs "$@" inside a fresh user+network namespace (for mode userns).
dgr_link_reexec() {
	exec unshare --user --map-root-user --net --mount env DGR_IN_USERNS=1 "$@"
}

dgr_link_up() {
	local mode="$1"
	local f="${DGR_LINK_TAG}f" h="${DGR_LINK_TAG}h"

	DGR_LINK_MODE="$mode"
	case "$mode" in
	netns)
		DGR_NS_FPGA="${DGR_LINK_TAG}-fpga"
		DGR_NS_HOST="${DGR_LINK_TAG}-host"
		ip netns add "$DGR_NS_FPGA" || return 1
		ip netns add "$DGR_NS_HOST" || return 1
		ip link add "$f" mtu "$DGR_LINK_MTU" type veth peer name "$h" mtu "$DGR_LINK_MTU" || return 1
		ip link set "$f" netns "$DGR_NS_FPGA"
		ip link set "$h" netns "$DGR_NS_HOST"
		ip -n "$DGR_NS_FPGA" link set lo up
		ip -n "$DGR_NS_HOST" link set lo up
		ip -n "$DGR_NS_FPGA" link set "$f" up
		ip -n "$DGR_NS_HOST" link set "$h" up
		DGR_FPGA_RUN=(ip netns exec "$DGR_NS_FPGA")
		DGR_HOST_RUN=(ip netns exec "$DGR_NS_HOST")
		DGR_FPGA_TRANSPORT=(--if "$f" --peer "$(dgr_link_mac "$DGR_NS_HOST" "$h")")
		DGR_HOST_TRANSPORT=(--if "$h" --peer "$(dgr_link_mac "$DGR_NS_FPGA" "$f")")
		DGR_HOST_IF="$h"
		;;
	userns)
		# /sys shows the first namespace's interfaces until it is mounted again here
		# (tools look their interface up there).
		mount -t sysfs sysfs /sys 2>/dev/null || echo "netns.sh: could not remount /sys" >&2
		dgr_link_private_lttng || echo "netns.sh: no private /run/lttng: no LTTng trace here" >&2
		ip link set lo up
		ip link add "$f" mtu "$DGR_LINK_MTU" type veth peer name "$h" mtu "$DGR_LINK_MTU" || return 1
		ip link set "$f" up
		ip link set "$h" up
		DGR_FPGA_RUN=()
		DGR_HOST_RUN=()
		DGR_FPGA_TRANSPORT=(--if "$f" --peer "$(dgr_link_mac "" "$h")")
		DGR_HOST_TRANSPORT=(--if "$h" --peer "$(dgr_link_mac "" "$f")")
		DGR_HOST_IF="$h"
		;;
	udp)
		local pf=$((20000 + ($$ % 20000))) ph
		ph=$((pf + 1))
		DGR_FPGA_RUN=()
		DGR_HOST_RUN=()
		DGR_FPGA_TRANSPORT=(--udp --bind "127.0.0.1:$pf" --peer "127.0.0.1:$ph")
		DGR_HOST_TRANSPORT=(--udp --bind "127.0.0.1:$ph" --peer "127.0.0.1:$pf")
		DGR_HOST_IF=lo
		;;
	*)
		echo "dgr_link_up: unknown mode '$mode' (netns, userns or udp)" >&2
		return 2
		;;
	esac
	return 0
}

dgr_link_down() {
	case "${DGR_LINK_MODE:-}" in
	netns)
		ip netns del "$DGR_NS_FPGA" 2>/dev/null
		ip netns del "$DGR_NS_HOST" 2>/dev/null
		;;
	userns)
		ip link del "${DGR_LINK_TAG}f" 2>/dev/null
		;;
	esac
	return 0
}
