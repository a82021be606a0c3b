#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 29: one well-formed frame forged from the emulator's own address (forge.py), carrying
# a frame_seq the host has not seen yet (200 past the last one the forger saw, so that it
# arrives before the emulator's real frame of that number) and a 256-byte write without a
# flag, sent into a running ADC stream. It used to take the real frame's number: the real frame was then dropped as a
# duplicate, its transaction never completed, and the host stalled blaming the FPGA. Now the
# real frame, a frame_seq taken again with other contents, is taken too: the stream completes,
# and the host counts and names the evidence (frames_conflicting, writes_without_flag, the
# frame_seq). The forged write goes to the top of the port memory (no buffer, no flag in use),
# so it costs no sample: samples_lost is exactly 0 and every sample sent is received. Over UDP
# on 127.0.0.1 and raw Ethernet on a veth pair between two namespaces. Needs root.
. "$DGR_SRC/test/integration/stack/lib.sh"
T=$STK_TMP
FORGE="$DGR_SRC/test/integration/stack/forge.py"
N=10
# the top 256 bytes of the port memory: 64 buffers of 16 KiB, then 256 flags (64 used)
DATA_ADDR=$((64 * 16384 + 4 * 256 - 256))

if [ "$(id -u)" != 0 ] || [ ! -x "$FPGA" ]; then
	for _ in $(seq $((2 * N))); do skip "needs root (forged source addresses) and dgrdma-fpga"; done
	done_testing
	exit 0
fi

NSA=stkgA$$
NSB=stkgB$$
cleanup() {
	jobs -p | xargs -r kill 2>/dev/null
	wait 2>/dev/null
	ip netns del $NSA 2>/dev/null
	ip netns del $NSB 2>/dev/null
	stk_cleanup_tmp
}
trap cleanup EXIT

# forged LINK FORGE_RUN... -- HOST_RUN... -- FPGA_RUN... : one stream, one forged frame.
# HOST_T/FPGA_T hold the transport flags of each end, FORGE_ARGS the forger's.
forged() {
	local link=$1 h="$T/$1.host.json" f="$T/$1.fpga.json" g="$T/$1.forge.json" rx fp fg seq
	shift
	local frun=() hrun=() erun=()
	while [ "$1" != -- ]; do frun+=("$1"); shift; done
	shift
	while [ "$1" != -- ]; do hrun+=("$1"); shift; done
	shift
	erun=("$@")
	# the stream ends with its EOF: the idle timeout only bounds the forger's start on a
	# loaded machine (5 s was once too short for python to start)
	"${hrun[@]}" "$HOST" rx "${HOST_T[@]}" --rcvbuf 16M --idle-timeout 20 --quiet \
		--summary-json "$h" 2>"$T/$link.host.err" &
	rx=$!
	dgr_wait_listening $rx dgrdma-host "${HOST_T[@]}"
	"${frun[@]}" python3 "$FORGE" "${FORGE_ARGS[@]}" --after 300 --data-addr $DATA_ADDR \
		--ready-file "$T/$link.forge.ready" >"$g" &
	fg=$!
	# the emulator starts once the forger's socket is bound (it says so): a look for any socket
	# of the process saw ip netns exec's own netlink socket, and on a loaded machine the whole
	# 1 s stream went by before python had started
	dgr_wait_ready_file "$T/$link.forge.ready" $fg
	"${erun[@]}" "$FPGA" "${FPGA_T[@]}" --mode adc --rate 20e6 --duration 1 --quiet \
		--summary-json "$f" &
	fp=$!
	wait $fg
	check_eq "$?" 0 "$link: one frame forged into the stream"
	wait $fp
	wait $rx
	check_eq "$?" 0 "$link: dgrdma-host rx exits 0: the forged frame did not stall the stream"
	json_use "$h" "$f" "$g"
	seq=$(jget "$g" seq)
	diag "$link: forged frame_seq $seq; host: $(head -2 "$T/$link.host.err")"
	check_eq "$(jget "$h" status)/$(jget "$h" counters.eof_received)" ended/1 \
		"$link: the stream ended with its EOF"
	# the emulator's ADC may drop samples on this shared machine: those are the ramp's only gaps
	check_eq "$(jget "$h" samples_lost)/$(jget "$h" samples_received)" \
		"$(jget "$f" dropped_samples)/$(jget "$f" samples_sent)" \
		"$link: it cost no sample: every sample sent was received, the ramp's gaps are the ADC's drops"
	check_eq "$(jget "$h" counters.frames_conflicting)/$(jget "$h" counters.writes_without_flag)/$(jget "$h" counters.duplicate_frames)" \
		1/1/0 "$link: one frame_seq came twice with other contents, one write without a flag, no plain duplicate"
	check_eq "$(jget "$h" suspect_frames.last_conflicting_seq)/$(jget "$h" suspect_frames.last_flagless_seq)" \
		"$seq/$seq" "$link: the summary names the forged frame_seq ($seq)"
	check "$link: the warning names it too" grep -qF \
		"dgrdma-host: warning: frames not the peer's were taken (forged?): 1 frame_seqs came twice with other contents (the last $seq; both taken), 1 writes without a flag (the last in frame_seq $seq); samples lost by the ramp: $(jget "$h" samples_lost)" \
		"$T/$link.host.err"
	# Every frame the host received was taken whole, the forged one with a number of the
	# emulator's (the real frame of that number taken as conflicting). Not compared with the
	# emulator's frames_tx: the host ends at the EOF and its last doorbell, and the ACK-only
	# frames (a 10-byte header) that acknowledge its last doorbells may come after it (once 1
	# frame short on veth, 5 December, every sample and frame_seq there). Those are exactly
	# the frames it did not receive: none is missing below the last it saw (frames_missing,
	# below), and the bytes the emulator sent are the host's, the forged frame's aside, plus
	# 10 for each.
	local rx_real unheard
	rx_real=$(($(jget "$h" counters.frames_rx) - 1))
	unheard=$(($(jget "$f" frames_tx) - rx_real))
	check_eq "$(jget "$h" counters.frames_accepted)" "$rx_real" \
		"$link: frames taken whole = frames received but the forged one (which took a number of theirs)"
	check_eq "$((unheard >= 0))/$(($(jget "$f" bytes_tx) - ($(jget "$h" counters.bytes_rx) - $(jget "$g" frame_len))))" \
		"1/$((10 * unheard))" \
		"$link: the emulator's frames the host did not hear ($unheard) are ACK-only frames after its end"
	check_eq "$(jget "$h" counters.frames_missing)" 0 "$link: no frame missing"
}

# --- UDP on 127.0.0.1: the emulator's address forged with a raw IPv4 socket
stk_ports 5
HOST_T=(--udp --bind "127.0.0.1:$STK_P2" --peer "127.0.0.1:$STK_P1")
FPGA_T=(--udp --bind "127.0.0.1:$STK_P1" --peer "127.0.0.1:$STK_P2")
FORGE_ARGS=(--udp "127.0.0.1:$STK_P2" --spoof "127.0.0.1:$STK_P1")
forged udp -- --

# --- raw Ethernet on a veth pair: the emulator's MAC, from its namespace
A=stkga$$
B=stkgb$$
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
	FORGE_ARGS=(--if "$B" --dst-mac "$MAC_A")
	forged veth "${RB[@]}" -- "${RA[@]}" -- "${RB[@]}"
else
	for _ in $(seq $N); do skip "no veth pair between two namespaces here"; done
fi
done_testing
