#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One dgrdma-host with two remote endpoints (--peer twice, one connection each):
# two emulators (--id 1 and 2, perftest streams of 2000 and 3000 buffers) into
# one `dgrdma-host rx`, over UDP on 127.0.0.1 (two connections on one port:
# SO_REUSEPORT + connect) and over raw Ethernet (two sockets on one interface,
# each with a source-MAC BPF filter). The emulators of the Ethernet run sit on
# two macvlans of the far end of a veth pair, so each has its own MAC. Each
# connection's ramp must be complete and no frame of the other peer seen.
. "$DGR_SRC/test/integration/stack/lib.sh"

if [ "$(id -u)" != 0 ] && [ -z "${STK_IN_USERNS:-}" ] &&
	unshare --user --map-root-user --net true 2>/dev/null; then
	exec unshare --user --map-root-user --net env STK_IN_USERNS=1 "$0" "$@"
fi
cleanup() {
	jobs -p | xargs -r kill 2>/dev/null
	wait 2>/dev/null
	[ -n "${NSH:-}" ] && ip netns del "$NSH" 2>/dev/null
	[ -n "${NSF:-}" ] && ip netns del "$NSF" 2>/dev/null
	[ -n "${STK_IN_USERNS:-}" ] && ip link del "${VH:-none}" 2>/dev/null
	stk_cleanup_tmp
}
trap cleanup EXIT
T=$STK_TMP
N1=2000
N2=3000
S=16384

# check_run NAME: the host's summary and the two emulators' against each other
check_run() {
	local name=$1 j="$T/$1.host.json" i n id f
	check_eq "$(jq_get "$j" '"\(.status) \(.transactions) \(.bytes) \(.latency_ns.count) \(.latency_from_arrival_ns.count) \(.samples_lost) \(.malformed_frames)"')" \
		"ended $((N1 + N2)) $(((N1 + N2) * S)) $((N1 + N2)) $((N1 + N2)) 0 0" \
		"$name: totals: both ended, $((N1 + N2)) transactions and their bytes, a latency per doorbell (from completion and from arrival), nothing lost or malformed"
	for i in 0 1; do
		id=$((i + 1))
		n=$([ $i = 0 ] && echo $N1 || echo $N2)
		f="$T/$name.fpga$id.json"
		check_eq "$(jq_get "$j" ".connections[$i] | \"\(.peer_id) \(.status) \(.transactions) \(.samples_received) \(.samples_lost) \(.ramp.gaps)\"")" \
			"$id ended $n $((n * S / 4)) 0 0" \
			"$name: connection $i: peer id $id, ended, $n buffers, the ramp complete"
		check_eq "$(jq_get "$j" ".connections[$i] | \"\(.counters.malformed_unknown_id) \(.malformed_frames)\"")" \
			"0 0" "$name: connection $i saw no frame of the other peer"
		check_eq "$(jq_get "$f" '"\(.transactions_sent) \(.doorbells_received) \(.frames_wrong_id)"')" \
			"$n $(jq_get "$j" ".connections[$i].doorbells_sent") 0" \
			"$name: emulator $id sent $n, got every doorbell of connection $i and no frame meant for the other"
	done
}

# --- UDP on 127.0.0.1: two emulators into one host port
stk_ports 30
HP=$STK_P1
P1=$STK_P2
P2=$((STK_P2 + 1))
"$HOST" rx --udp --rcvbuf 4M --bind 127.0.0.1:$HP --peer 127.0.0.1:$P1 --peer-id 1 \
	--peer 127.0.0.1:$P2 --peer-id 2 --sink "file:$T/udp.out" --idle-timeout 10 --quiet \
	--summary-json "$T/udp.host.json" &
h=$!
stk_wait_udp $HP || diag "the host's port is not open"
fpgas=()
for id in 1 2; do
	p=$([ $id = 1 ] && echo $P1 || echo $P2)
	n=$([ $id = 1 ] && echo $N1 || echo $N2)
	"$FPGA" --udp --rcvbuf 4M --bind 127.0.0.1:$p --peer 127.0.0.1:$HP --id $id --mode perftest \
		--tx-run --tx-messages $n --duration 60 --quiet --summary-json "$T/udp.fpga$id.json" &
	fpgas+=($!)
done
wait $h
check_eq "$?" 0 "UDP: dgrdma-host rx with two peers exits 0"
kill -INT "${fpgas[@]}"
wait "${fpgas[@]}"
check_run udp
check_eq "$(stat -c %s "$T/udp.out.0")/$(stat -c %s "$T/udp.out.1")" "$((N1 * S))/$((N2 * S))" \
	"UDP: --sink file:PATH writes PATH.0 and PATH.1, one per connection"

# --- argument errors
"$HOST" rx --udp --peer 127.0.0.1:1 --peer 127.0.0.1:2 --peer-id 1 --peer-id 2 --peer-id 3 \
	>/dev/null 2>"$T/err"
check_eq "$?" 2 "three --peer-id for two --peer: exit 2"
check "named" grep -q -- "--peer-id: given 3 times for 2 --peer" "$T/err"
"$HOST" rx --udp --peer 127.0.0.1:7 --peer 127.0.0.1:7 >/dev/null 2>"$T/err"
check_eq "$?" 2 "the same --peer twice: exit 2"
check "named" grep -q -- "--peer: 127.0.0.1:7 is given twice" "$T/err"
"$HOST" perf --udp --peer 127.0.0.1:1 --peer 127.0.0.1:2 >/dev/null 2>"$T/err"
check_eq "$?" 2 "perf with two --peer: exit 2"
check "named" grep -q -- "--peer: perf measures one peer" "$T/err"
peers=()
for i in $(seq 17); do peers+=(--peer "127.0.0.1:$i"); done
"$HOST" rx --udp "${peers[@]}" >/dev/null 2>"$T/err"
check_eq "$?" 2 "17 --peer: exit 2"
check "named with the limit" grep -q -- "--peer: at most 16 peers" "$T/err"

# --- raw Ethernet: host on one end of a veth pair, the emulators on two macvlans of the other
if [ "$(id -u)" != 0 ]; then
	for i in $(seq 1 8); do skip "raw Ethernet: needs root or a user+net namespace"; done
	done_testing
	exit
fi
VH=stkh$$
VF=stkf$$
if [ -z "${STK_IN_USERNS:-}" ]; then
	NSH=stkH$$
	NSF=stkF$$
	ip netns add $NSH && ip netns add $NSF
	RH=(ip netns exec "$NSH")
	RF=(ip netns exec "$NSF")
	ip link add $VH netns $NSH type veth peer name $VF netns $NSF
else
	RH=()
	RF=()
	ip link add $VH type veth peer name $VF
fi
"${RF[@]}" ip link add stkm1$$ link $VF type macvlan mode bridge
"${RF[@]}" ip link add stkm2$$ link $VF type macvlan mode bridge
for i in $VF stkm1$$ stkm2$$ lo; do "${RF[@]}" ip link set $i up; done
for i in $VH lo; do "${RH[@]}" ip link set $i up; done
MH=$("${RH[@]}" cat /sys/class/net/$VH/address)
M1=$("${RF[@]}" cat /sys/class/net/stkm1$$/address)
M2=$("${RF[@]}" cat /sys/class/net/stkm2$$/address)
"${RH[@]}" "$HOST" rx --if $VH --rcvbuf 4M --peer $M1 --peer-id 1 --peer $M2 --peer-id 2 \
	--idle-timeout 10 --quiet --summary-json "$T/eth.host.json" &
h=$!
# two connections, each a DG-RDMA and a DCP packet socket
dgr_wait_receiving $h dgrdma-host 4 || diag "the host's four packet sockets are not bound"
fpgas=()
for id in 1 2; do
	n=$([ $id = 1 ] && echo $N1 || echo $N2)
	"${RF[@]}" "$FPGA" --if stkm$id$$ --peer $MH --rcvbuf 4M --id $id --mode perftest --tx-run \
		--tx-messages $n --duration 60 --quiet --summary-json "$T/eth.fpga$id.json" &
	fpgas+=($!)
done
wait $h
check_eq "$?" 0 "raw Ethernet: dgrdma-host rx with two peers on one interface exits 0"
kill -INT "${fpgas[@]}"
wait "${fpgas[@]}"
check_run eth
done_testing
