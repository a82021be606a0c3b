#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The host stack on raw Ethernet (AF_PACKET, 0xF042/0xF040) over a veth pair
# between two network namespaces made here (as root; otherwise one user+net
# namespace holding both ends): 1 GiB at MTU 9000 and 256 MiB at MTU 1500,
# complete and in order by the ramp; 1% frame loss from a tc BPF classifier
# with retransmission on; the emulator; hostile raw frames; a down interface.
# make check: slow
. "$DGR_SRC/test/integration/stack/lib.sh"

if [ "$(id -u)" != 0 ]; then
	if [ -z "${STK_IN_USERNS:-}" ] && unshare --user --map-root-user --net true 2>/dev/null; then
		exec unshare --user --map-root-user --net env STK_IN_USERNS=1 "$0" "$@"
	fi
	skip "needs root or an unprivileged user+net namespace"
	done_testing
	exit 0
fi

A=stka$$
B=stkb$$
if [ -z "${STK_IN_USERNS:-}" ]; then
	NSA=stkA$$
	NSB=stkB$$
	ip netns add $NSA && ip netns add $NSB || { skip "ip netns add failed"; done_testing; exit 0; }
	RA=(ip netns exec "$NSA")
	RB=(ip netns exec "$NSB")
	ip link add $A netns $NSA type veth peer name $B netns $NSB
else
	NSA=
	NSB=
	RA=()
	RB=()
	ip link add $A type veth peer name $B
fi
cleanup() {
	jobs -p | xargs -r kill 2>/dev/null
	wait 2>/dev/null
	if [ -n "$NSA" ]; then
		ip netns del $NSA 2>/dev/null
		ip netns del $NSB 2>/dev/null
	else
		ip link del $A 2>/dev/null
	fi
	stk_cleanup_tmp
}
trap cleanup EXIT
T=$STK_TMP

link_setup() { # MTU
	"${RA[@]}" ip link set $A mtu "$1" up
	"${RB[@]}" ip link set $B mtu "$1" up
	"${RA[@]}" ip link set lo up
	"${RB[@]}" ip link set lo up
}
link_setup 9000
MAC_A=$("${RA[@]}" cat /sys/class/net/$A/address)
MAC_B=$("${RB[@]}" cat /sys/class/net/$B/address)
EA=(--if "$A" --peer "$MAC_B" --rcvbuf 4M)
EB=(--if "$B" --peer "$MAC_A" --rcvbuf 4M)
# host tx in B plays the FPGA's producer for host rx in A (same port memory base)
TXB=(--id 1 --peer-id 0 --port-base 0 --fpga-buffers 64 --peer-window 0)

stream() { # NAME BYTES [rx options] -- [tx options]
	local name=$1 bytes=$2
	shift 2
	local rxo=() txo=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do rxo+=("$1"); shift; done
	[ "${1:-}" = -- ] && shift
	txo=("$@")
	# a dgrdma-host peer acknowledges nothing without --acks: no ACK window to wait for
	"${RA[@]}" "$HOST" rx "${EA[@]}" --fpga-buffers 64 --peer-window 0 --idle-timeout 10 --quiet \
		--summary-json "$T/$name.rx.json" "${rxo[@]}" &
	local rx=$!
	dgr_wait_listening $rx dgrdma-host "${EA[@]}"
	"${RB[@]}" "$HOST" tx "${EB[@]}" "${TXB[@]}" --bytes "$bytes" --idle-timeout 10 --quiet \
		--summary-json "$T/$name.tx.json" "${txo[@]}"
	STK_TX_RC=$?
	wait $rx
	STK_RX_RC=$?
	json_use "$T/$name.rx.json" "$T/$name.tx.json"
}

stream mtu9000 1G
check_eq "$STK_TX_RC/$STK_RX_RC" 0/0 "1 GiB over veth at MTU 9000: tx and rx exit 0"
check_eq "$(jget "$T/mtu9000.rx.json" bytes)" 1073741824 "1 GiB received"
check_eq "$(jget "$T/mtu9000.rx.json" samples_received)" 268435456 "every sample checked"
check_eq "$(jget "$T/mtu9000.rx.json" samples_lost)" 0 "ramp complete and in order"
check_eq "$(jget "$T/mtu9000.rx.json" transport.mtu)" 9000 "MTU read from the interface"
check_eq "$(jget "$T/mtu9000.rx.json" transport.receive)" ring "frames arrive through the receive ring"
check_eq "$(jget "$T/mtu9000.rx.json" transport.rcvbuf)" 4194304 "the ring is --rcvbuf (4 MiB) long"
check_eq "$(jget "$T/mtu9000.tx.json" doorbells_received)" 65536 "65536 credits returned"
frames=$(jget "$T/mtu9000.tx.json" counters.frames_tx)
check_eq "$(jget "$T/mtu9000.tx.json" counters.frames_tx_gathered)" "$frames" \
	"zero-copy transmit: each of the $frames frames sent from the producer's buffers"

link_setup 1500
stream mtu1500 256M --no-rx-ring
check_eq "$STK_TX_RC/$STK_RX_RC" 0/0 "256 MiB at MTU 1500: tx and rx exit 0"
check_eq "$(jget "$T/mtu1500.rx.json" transport.receive)" recvmmsg "--no-rx-ring receives with recvmmsg"
check_eq "$(jget "$T/mtu1500.rx.json" bytes)" 268435456 "256 MiB received"
check_eq "$(jget "$T/mtu1500.rx.json" samples_lost)" 0 "ramp complete"
check_eq "$(jget "$T/mtu1500.rx.json" transport.mtu)" 1500 "MTU 1500 read from the interface"
link_setup 9000

# 1% of DG-RDMA frames dropped on A's ingress by a tc BPF classifier
if command -v clang >/dev/null && command -v tc >/dev/null &&
	clang -O2 -target bpf -I"/usr/include/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)" \
		-DDROP_PERMILLE=10 -c "$DGR_SRC/test/integration/stack/bpf/drop.c" -o "$T/drop.o" 2>"$T/clang.err" &&
	"${RA[@]}" tc qdisc add dev $A clsact &&
	"${RA[@]}" tc filter add dev $A ingress bpf da obj "$T/drop.o" sec classifier; then
	stream loss 64M --acks --peer-kind host -- --retransmit 10
	check_eq "$STK_TX_RC/$STK_RX_RC" 0/0 "1% loss with retransmission: tx and rx exit 0"
	check_eq "$(jget "$T/loss.rx.json" bytes)" 67108864 "every byte delivered"
	check_eq "$(jget "$T/loss.rx.json" samples_lost)" 0 "ramp complete"
	rtx=$(jget "$T/loss.tx.json" counters.retransmits)
	check "frames were lost and retransmitted ($rtx)" test "${rtx:-0}" -gt 0
	check_eq "$(jget "$T/loss.tx.json" counters.frames_tx_gathered)" 0 \
		"with retransmission frames own a copy of their data (none gathered)"
	stream noretx 64M --incomplete-timeout 300 --idle-timeout 1 -- --idle-timeout 1
	check_eq "$STK_RX_RC" 3 "1% loss without retransmission: rx exits 3 (no hang)"
	check_eq "$(jget "$T/noretx.rx.json" status)" stalled "and reports a stalled stream"
	"${RA[@]}" tc qdisc del dev $A clsact
else
	diag "$(cat "$T/clang.err" 2>/dev/null)"
	for i in 1 2 3 4 5 6; do skip "no clang -target bpf or tc clsact here"; done
fi

# the emulator on raw Ethernet (its stream into dgrdma-host, every sample received, is
# test/integration/fpga/test_fpga_veth.sh's "below capacity")
if [ -x "$FPGA" ]; then
	# a receive thread that cannot run: the frames' wait is in the latency from arrival
	for rxmode in ring recvmmsg; do
		extra=()
		[ $rxmode = recvmmsg ] && extra=(--no-rx-ring)
		"${RA[@]}" "$HOST" rx "${EA[@]}" "${extra[@]}" --idle-timeout 5 --quiet \
			--summary-json "$T/stop.json" &
		rx=$!
		dgr_wait_listening $rx dgrdma-host "${EA[@]}"
		kill -STOP $rx
		"${RB[@]}" "$FPGA" --if $B --peer $MAC_A --mode adc --rate 1e6 --duration 0.2 --quiet
		nap 0.3
		kill -CONT $rx
		wait $rx
		json_use "$T/stop.json"
		check_eq "$(jget "$T/stop.json" transport.receive)" $rxmode "received with the $rxmode"
		stk_check_arrival "$T/stop.json" "raw Ethernet, $rxmode"
	done
else
	for i in $(seq 12); do skip "dgrdma-fpga not built"; done
fi

# hostile raw frames at full speed
"${RA[@]}" "$HOST" rx "${EA[@]}" --idle-timeout 3 --quiet --summary-json "$T/h.rx.json" 2>/dev/null &
rx=$!
dgr_wait_listening $rx dgrdma-host "${EA[@]}"
"${RB[@]}" "$HOSTILE" --if $B --peer $MAC_A --count 200000 >/dev/null
wait $rx
st=$?
json_use "$T/h.rx.json"
check "rx survives 200000 hostile raw frames (exit $st: 3 is a stalled run, not a crash)" test "$st" -le 3
mal=$(jget "$T/h.rx.json" malformed_frames)
# (most of them are dropped by the kernel: the ring has 448 slots, the sender does not wait)
check "malformed frames counted ($mal)" test "${mal:-0}" -gt 0

# a full receive ring loses frames the kernel counts: received + dropped = sent
"${RA[@]}" "$HOST" rx --if $A --peer $MAC_B --rcvbuf 1M --idle-timeout 1 --quiet \
	--summary-json "$T/full.rx.json" 2>/dev/null &
rx=$!
dgr_wait_listening $rx dgrdma-host "${EA[@]}"
kill -STOP $rx
"${RB[@]}" "$HOSTILE" --if $B --peer $MAC_A --count 2000 >/dev/null
kill -CONT $rx
wait $rx
json_use "$T/full.rx.json"
got=$(jget "$T/full.rx.json" threads.rx.items)
lost=$(jget "$T/full.rx.json" counters.socket_drops)
check "a stopped receiver's 1 MiB ring overflowed ($lost kernel drops)" test "${lost:-0}" -gt 0
check_eq "$((got + lost))" 2000 "frames taken from the ring + kernel drops = 2000 sent"

# a down interface is named
"${RA[@]}" ip link set $A down
"${RA[@]}" "$HOST" rx "${EA[@]}" --duration 1 2>"$T/err" >/dev/null
check_eq "$?" 3 "a down interface fails the start (exit 3)"
check "and is named with the fix" grep -q "$A: interface is down (bring it up: \`ip link set $A up\`)" "$T/err"
done_testing
