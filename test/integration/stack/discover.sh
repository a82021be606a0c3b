#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-ctl discover over UDP without --peer: a broadcast NOP answered by two
# emulators, one line (or JSON object) per endpoint. Broadcast does not reach
# 127.0.0.1-bound sockets, so the link is real: the client in one network
# namespace on one end of a veth pair (192.0.2.1/24), the emulators, bound to
# 0.0.0.0:18078, in two more, on two macvlans of the other end (.2 and .3).
. "$DGR_SRC/test/integration/stack/lib.sh"

if [ "$(id -u)" != 0 ] || ! ip netns list >/dev/null 2>&1; then
	skip "needs root (four network namespaces)"
	done_testing
	exit 0
fi
NSH=stkdH$$
NSF=stkdF$$
NS1=stkd1$$
NS2=stkd2$$
cleanup() {
	jobs -p | xargs -r kill 2>/dev/null
	wait 2>/dev/null
	for n in $NSH $NSF $NS1 $NS2; do ip netns del $n 2>/dev/null; done
	stk_cleanup_tmp
}
trap cleanup EXIT
T=$STK_TMP
for n in $NSH $NSF $NS1 $NS2; do
	ip netns add $n || { skip "ip netns add failed"; done_testing; exit 0; }
	ip -n $n link set lo up
done
ip link add stkdh$$ netns $NSH type veth peer name stkdf$$ netns $NSF
ip -n $NSH addr add 192.0.2.1/24 brd + dev stkdh$$
ip -n $NSH link set stkdh$$ up
ip -n $NSF link set stkdf$$ up
fpgas=()
for i in 1 2; do
	ns=$([ $i = 1 ] && echo $NS1 || echo $NS2)
	ip -n $NSF link add stkdm$i$$ link stkdf$$ type macvlan mode bridge
	ip -n $NSF link set stkdm$i$$ netns $ns
	ip -n $ns addr add 192.0.2.$((i + 1))/24 brd + dev stkdm$i$$
	ip -n $ns link set stkdm$i$$ up
	ip netns exec $ns "$FPGA" --udp --bind 0.0.0.0:18078 --peer 192.0.2.1:18079 --idle \
		--duration 60 --quiet --summary-json "$T/fpga$i.json" &
	fpgas+=($!)
done
for ns in $NS1 $NS2; do
	for _ in $(seq 1 200); do
		ip netns exec $ns ss -Huan "sport = :18078" | grep -q . && break
		nap 0.05
	done
done
CTL_H=(ip netns exec "$NSH" "$CTL" --udp --timeout 300)

"${CTL_H[@]}" --bind 192.0.2.1:18079 --json discover >"$T/all.json" 2>"$T/err"
check_eq "$?" 0 "discover without --peer (255.255.255.255:18078) exits 0"
check_eq "$(jq -r '[.endpoints[].address] | sort | join(" ")' "$T/all.json")" \
	"192.0.2.2:18078 192.0.2.3:18078" "both emulators answer, each listed once"
check_eq "$(jq -r '[.endpoints[].id] | unique | join(" ")' "$T/all.json")" 1179666241 \
	"with the NOP id 0x46504741 (\"FPGA\")"
check_eq "$(jq -r '"\(.requests_sent) \(.timeouts)"' "$T/all.json")" "1 0" "one NOP sent, answered"

"${CTL_H[@]}" --bind 192.0.2.1:18079 discover >"$T/all.txt" 2>"$T/err"
check_eq "$?" 0 "discover as text exits 0"
check_eq "$(grep -cE '^  - address: 192\.0\.2\.[23]:18078  id: 1179666241  mac: 00:00:00:00:00:00$' "$T/all.txt")" \
	2 "one line per endpoint"

"${CTL_H[@]}" --bind 0.0.0.0:18079 --peer 192.0.2.255 --json discover >"$T/subnet.json" 2>"$T/err"
check_eq "$?/$(jq -r '[.endpoints[].address] | sort | join(" ")' "$T/subnet.json")" \
	"0/192.0.2.2:18078 192.0.2.3:18078" "--peer 192.0.2.255 (the subnet's broadcast): both answer"
"${CTL_H[@]}" --bind 0.0.0.0:18079 --peer 192.0.2.3 --json discover >"$T/one.json" 2>"$T/err"
check_eq "$?/$(jq -r '[.endpoints[].address] | join(" ")' "$T/one.json")" "0/192.0.2.3:18078" \
	"--peer 192.0.2.3: that one only"

kill -INT "${fpgas[@]}"
wait "${fpgas[@]}"
check_eq "$(jq -r .dcp_requests "$T/fpga1.json")/$(jq -r .dcp_requests "$T/fpga2.json")" 3/4 \
	"the emulators answered exactly the NOPs that reached them (3 broadcasts; 1 more to .3)"
"${CTL_H[@]}" --bind 192.0.2.1:18079 --retries 1 discover >/dev/null 2>"$T/err"
check_eq "$?" 3 "nobody left: discover exits 3"
check "after 2 attempts, with a clear message" grep -q "no endpoint answered the NOP after 2 attempts of 300 ms" "$T/err"
done_testing
