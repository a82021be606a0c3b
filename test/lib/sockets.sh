# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# When a receiver is ready for its sender (sourced by test/lib/netns.sh and the tests that
# start the two ends themselves): from /proc for any program, or from a tool's --ready-file.
#
# A process that has opened its socket is not yet receiving: dgrdma-host makes its packet
# socket with protocol 0, sets its ring up and only then binds it; frames sent before the bind
# are lost. The emulator sends its first burst (all the host's buffers) without waiting for
# an answer, so when that burst is lost no doorbell ever comes back and the stream never
# starts. A sender is therefore started once the receiver's sockets are bound, which
# /proc/PID/net shows for the process's own network namespace:
#   packet  the Proto column is the bound ethertype, 0 until bind();
#   UDP     the local port is 0 until bind().
# The waits look every 50 ms; they nap and read files in bash (no process per look but find
# and awk for the sockets).

# shellcheck source=test/lib/nap.sh
. "${BASH_SOURCE[0]%/*}/nap.sh"

# dgr_receiving_sockets PID: prints how many sockets of process PID are bound (receive).
dgr_receiving_sockets() {
	local pid="$1" inodes="" l

	# find prints socket:[INODE] for each; the inodes are kept in bash
	while IFS= read -r l; do
		[[ $l =~ ^socket:\[([0-9]*)\]$ ]] && inodes+="${inodes:+$'\n'}${BASH_REMATCH[1]}"
	done < <(find "/proc/$pid/fd" -lname 'socket:*' -printf '%l\n' 2>/dev/null)
	if [ -z "$inodes" ]; then
		echo 0
		return
	fi
	awk -v inodes="$inodes" '
		BEGIN { n = split(inodes, a, "\n"); for (i = 1; i <= n; i++) { own[a[i]] = 1 } }
		FNR == 1 { next }
		FILENAME ~ /packet$/ { if (($9 in own) && $4 != "0") { c++ } next }
		{ split($2, local_addr, ":"); if (($10 in own) && local_addr[2] != "0000") { c++ } }
		END { print c + 0 }' \
		"/proc/$pid/net/packet" "/proc/$pid/net/udp" "/proc/$pid/net/udp6" 2>/dev/null
}

# dgr_descendant PID NAME: prints the pid of the first process named NAME that is PID or
# runs under it (a program started through dgrdma-capture, ip netns exec or setsid).
dgr_descendant() {
	local top="$1" name="$2" p q stat_fields

	for p in $(pgrep -x "$name"); do
		q=$p
		while [ -n "$q" ] && [ "$q" -gt 1 ]; do
			if [ "$q" = "$top" ]; then
				echo "$p"
				return 0
			fi
			# the fourth field of stat, the parent (read in bash: a process per step before)
			stat_fields=()
			read -r -a stat_fields 2>/dev/null <"/proc/$q/stat"
			q=${stat_fields[3]:-}
		done
	done
	return 1
}

# dgr_wait_receiving PID NAME COUNT: waits until the process NAME at or under PID has COUNT
# bound sockets, at most 30 seconds and while PID lives. Returns 0 when ready, 1 otherwise.
dgr_wait_receiving() {
	local top="$1" name="$2" count="$3" timeout=30 pid="" i

	for ((i = 0; i < timeout * 20; i++)); do
		kill -0 "$top" 2>/dev/null || return 1
		[ -z "$pid" ] && pid=$(dgr_descendant "$top" "$name")
		if [ -n "$pid" ] && [ "$(dgr_receiving_sockets "$pid")" -ge "$count" ]; then
			return 0
		fi
		nap 0.05
	done
	return 1
}

# dgr_wait_listening PID NAME TRANSPORT_OPTIONS...: dgr_wait_receiving for one end of a link
# (dgrdma-host, dgrdma-fpga, fpga-test-host) given its transport options: over UDP (--udp) it
# has one socket for DCP and DG-RDMA, on raw Ethernet two (one per ethertype).
dgr_wait_listening() {
	local top="$1" name="$2" sockets=2 a

	shift 2
	for a in "$@"; do
		[ "$a" = --udp ] && sockets=1
	done
	dgr_wait_receiving "$top" "$name" "$sockets"
}

# dgr_wait_ready_file FILE PID: waits (up to 30 s, while PID lives) until FILE, the
# --ready-file of dgrdma-host or dgrdma-fpga, holds a process id: the tool receives. A file
# with other contents (a stale one the tool has yet to replace) does not count. Returns 0
# when ready, 1 otherwise.
# _dgr_holds_pid FILE: true when a line of FILE is a number (what grep -qx '[0-9][0-9]*'
# said, in bash: the wait looks every 50 ms).
_dgr_holds_pid() {
	local l
	[ -r "$1" ] || return 1
	while IFS= read -r l || [ -n "$l" ]; do
		[[ $l =~ ^[0-9]+$ ]] && return 0
	done <"$1"
	return 1
}

dgr_wait_ready_file() {
	local i

	for ((i = 0; i < 600; i++)); do
		_dgr_holds_pid "$1" && return 0
		kill -0 "$2" 2>/dev/null || return 1
		nap 0.05
	done
	return 1
}
