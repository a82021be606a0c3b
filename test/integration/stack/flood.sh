#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A real stream (the emulator's ADC into dgrdma-host rx) while hostile packets are sent at the
# host (junk.py): malformed frames, other endpoint ids, frames near the stream with a bad flag
# word or a bad address, valid frames far ahead of the stream and far behind it (replays),
# broken DCP packets, frames from another address, and over UDP datagrams with an unknown pad.
# Most of them carry the peer's own address (forged). The stream must complete with no sample
# lost, and every hostile packet must be counted under its own reason, exactly. Over UDP on
# 127.0.0.1 and raw Ethernet on a veth pair between two namespaces. Needs root (forged
# source addresses); skipped otherwise.
# make check: slow
. "$DGR_SRC/test/integration/stack/lib.sh"
T=$STK_TMP
JUNK="$DGR_SRC/test/integration/stack/junk.py"
COUNT=200
N=11

if [ "$(id -u)" != 0 ]; then
	for _ in $(seq $((2 * N + 1))); do skip "forging the peer's address needs root"; done
	done_testing
	exit 0
fi

NSA=stkfA$$
NSB=stkfB$$
cleanup() {
	jobs -p | xargs -r kill 2>/dev/null
	wait 2>/dev/null
	ip netns del $NSA 2>/dev/null
	ip netns del $NSB 2>/dev/null
	stk_cleanup_tmp
}
trap cleanup EXIT

# flood LINK JUNK_RUN JUNK_ARGS... -- HOST_RUN... -- FPGA_RUN... : one stream under fire.
# HOST_T/FPGA_T hold the transport flags of each end.
flood() {
	local link=$1 h="$T/$1.host.json" f="$T/$1.fpga.json" j="$T/$1.junk.json" rx fp
	shift
	local junk=() hrun=() frun=()
	while [ "$1" != -- ]; do junk+=("$1"); shift; done
	shift
	while [ "$1" != -- ]; do hrun+=("$1"); shift; done
	shift
	frun=("$@")
	"${hrun[@]}" "$HOST" rx "${HOST_T[@]}" --rcvbuf 16M --idle-timeout 5 --quiet \
		--summary-json "$h" 2>"$T/$link.host.err" &
	rx=$!
	dgr_wait_listening $rx dgrdma-host "${HOST_T[@]}"
	"${frun[@]}" "$FPGA" "${FPGA_T[@]}" --mode adc --rate 2e6 --duration 6 --quiet \
		--summary-json "$f" 2>"$T/$link.fpga.err" &
	fp=$!
	nap 0.5 # into the stream
	# the junk must all arrive while the host receives: 1 s of it, well inside the 6 s stream
	"${junk[@]}" python3 "$JUNK" "${JUNK_ARGS[@]}" --count $COUNT --seconds 1 >"$j"
	check "$link: the junk was sent while the stream ran" kill -0 $fp
	wait $fp
	wait $rx
	check_eq "$?" 0 "$link: dgrdma-host rx exits 0 under fire"
	json_use "$h" "$f"
	[ -s "$T/$link.host.err" ] && diag "$link: host: $(head -3 "$T/$link.host.err")"
	[ -s "$T/$link.fpga.err" ] && diag "$link: emulator: $(head -3 "$T/$link.fpga.err")"
	diag "$link: host $(jq -c '.counters | {frames_rx, frames_accepted, malformed_frames,
		malformed_trunc_frame_hdr, malformed_frame_flags, malformed_unknown_id,
		malformed_flag_word, malformed_udp_pad, out_of_range, frames_out_of_window,
		duplicate_frames, malformed_dcp, frames_foreign}' "$h")"
	check_eq "$(jget "$h" status)/$(jget "$h" counters.eof_received)" ended/1 \
		"$link: the stream ended with its EOF"
	check_eq "$(jget "$h" samples_lost)/$(jget "$h" samples_received)" \
		"0/$(jget "$f" samples_sent)" "$link: no sample lost, every sample sent received"
	check_eq "$(jget "$h" counters.malformed_trunc_frame_hdr)/$(jget "$h" counters.malformed_frame_flags)" \
		"$COUNT/$COUNT" "$link: $COUNT truncated frames and $COUNT with bad flags, each counted"
	check_eq "$(jget "$h" counters.malformed_unknown_id)" $COUNT \
		"$link: $COUNT frames for other endpoint ids counted"
	check_eq "$(jget "$h" counters.malformed_flag_word)/$(jget "$h" counters.out_of_range)" \
		"$COUNT/$COUNT" "$link: frames near the stream with a bad flag word / address: counted, their frame_seq not taken"
	check_eq "$(jget "$h" counters.frames_out_of_window)" $COUNT \
		"$link: $COUNT valid frames far ahead of the stream refused"
	check_eq "$(jget "$h" counters.duplicate_frames)" $COUNT \
		"$link: $COUNT replays far behind the stream refused as duplicates"
	check_eq "$(jget "$h" counters.malformed_dcp)" $COUNT "$link: $COUNT broken DCP packets counted"
	check_eq "$(jget "$h" counters.frames_foreign)" $COUNT \
		"$link: $COUNT frames from another address dropped"
}

# --- UDP on 127.0.0.1: the peer's address forged with a raw IPv4 socket
stk_ports 3
HOST_T=(--udp --bind "127.0.0.1:$STK_P2" --peer "127.0.0.1:$STK_P1")
FPGA_T=(--udp --bind "127.0.0.1:$STK_P1" --peer "127.0.0.1:$STK_P2")
JUNK_ARGS=(--udp "127.0.0.1:$STK_P2" --spoof "127.0.0.1:$STK_P1")
flood udp -- --
check_eq "$(jget "$T/udp.host.json" counters.malformed_udp_pad)" $COUNT \
	"udp: $COUNT datagrams with an unknown pad counted"

# --- raw Ethernet on a veth pair: the peer's MAC forged in its namespace
A=stkfa$$
B=stkfb$$
if ip netns add $NSA && ip netns add $NSB && ip link add $A netns $NSA type veth peer name $B netns $NSB; then
	RA=(ip netns exec "$NSA")
	RB=(ip netns exec "$NSB")
	for ns in "$NSA:$A" "$NSB:$B"; do
		ip -n "${ns%%:*}" link set "${ns#*:}" mtu 9000 up
		ip -n "${ns%%:*}" link set lo up
	done
	MAC_A=$("${RA[@]}" cat /sys/class/net/$A/address)
	MAC_B=$("${RB[@]}" cat /sys/class/net/$B/address)
	HOST_T=(--if "$A" --peer "$MAC_B")
	FPGA_T=(--if "$B" --peer "$MAC_A")
	JUNK_ARGS=(--if "$B" --dst-mac "$MAC_A" --src-mac "$MAC_B")
	flood veth "${RB[@]}" -- "${RA[@]}" -- "${RB[@]}"
else
	for _ in $(seq $N); do skip "no veth pair between two namespaces here"; done
fi
done_testing
