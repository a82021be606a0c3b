# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# A test's own lttng-relayd (another lab machine's, as a user would give with --relayd).
#
# Its three ports are picked outside the kernel's ephemeral range: a port of that range that is
# free when looked at can become an outgoing connection's own (a live viewer's, dgrdma-capture's
# own relayd's clients) before the relayd binds it, and the relayd then runs without it (a
# fresh-clone check lost its control port so). dgrdma-capture picks its own relayd's the same way.

# shellcheck source=test/lib/nap.sh
. "${BASH_SOURCE[0]%/*}/nap.sh"

dgr_port_free() {
	[ -z "$(ss -Htan "sport = :$1" 2>/dev/null)" ]
}

# dgr_start_relayd ADDR OUTDIR LOG: starts lttng-relayd on ADDR with control, data and live
# ports RELAYD_BASE, +1 and +2, its output OUTDIR; sets RELAYD_PID. Returns 0 once it listens on
# all three, 1 after three sets of ports it could not listen on (its log in LOG).
dgr_start_relayd() {
	local addr="$1" out="$2" log="$3" low=32768 high=60999 lo hi attempt tries n p missing
	read -r low high </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null
	if [ "$low" -ge 11003 ]; then
		lo=10000 hi=$((low - 3))
	else
		lo=$((high + 1)) hi=65533
	fi
	for ((attempt = 0; attempt < 3; attempt++)); do
		for ((tries = 0; tries < 50; tries++)); do
			RELAYD_BASE=$((lo + (RANDOM * 32768 + RANDOM) % (hi - lo + 1)))
			dgr_port_free "$RELAYD_BASE" && dgr_port_free $((RELAYD_BASE + 1)) &&
				dgr_port_free $((RELAYD_BASE + 2)) && break
		done
		lttng-relayd -C "tcp://$addr:$RELAYD_BASE" -D "tcp://$addr:$((RELAYD_BASE + 1))" \
			-L "tcp://$addr:$((RELAYD_BASE + 2))" -o "$out" >>"$log" 2>&1 &
		RELAYD_PID=$!
		for ((n = 0; n < 100; n++)); do
			missing=""
			for p in $RELAYD_BASE $((RELAYD_BASE + 1)) $((RELAYD_BASE + 2)); do
				[ -n "$(ss -Htln "sport = :$p" 2>/dev/null)" ] || missing=$p
			done
			[ -z "$missing" ] && return 0
			kill -0 "$RELAYD_PID" 2>/dev/null || break
			nap 0.05
		done
		kill -TERM "$RELAYD_PID" 2>/dev/null
		wait "$RELAYD_PID" 2>/dev/null
	done
	return 1
}
