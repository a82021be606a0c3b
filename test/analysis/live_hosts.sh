#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# latency-report --live following two hosts at once: two network namespaces, each with its own
# hostname, session daemon and dgrdma-host rx fed by dgrdma-fpga on its loopback, recorded with
# dgrdma-capture --relayd into one lttng-relayd of the root namespace (reached over a bridge).
# One latency-report follows both sessions, and each host's packet capture (dumpcap on its
# loopback, into its run folder) as it is written (--live-follow, one per URL): each interval
# per host and together (the hosts' counts add up, in the trace and on the wire), and one final
# report per host equal to the offline report on that host's trace as the relayd wrote it and
# its finished capture.
set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/lib/pcap_buffer.sh"

LR=$DGR_BUILD/bin/latency-report
DHOST=$DGR_BUILD/bin/dgrdma-host
DFPGA=$DGR_BUILD/bin/dgrdma-fpga
TAG=dgl$(($$ % 100000))
NET=10.$((200 + $$ % 50)).$(($$ / 50 % 250))
WORK=""
RELAYD_PID=""
HOST_PIDS=()
LR_PID=""
cleanup() {
	local p h
	[ -n "$LR_PID" ] && kill -KILL "$LR_PID" 2>/dev/null
	for p in "${HOST_PIDS[@]}"; do
		kill -TERM "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	[ -n "$RELAYD_PID" ] && kill -TERM "$RELAYD_PID" 2>/dev/null && wait "$RELAYD_PID" 2>/dev/null
	for h in a b; do
		ip netns del "$TAG$h" 2>/dev/null
	done
	ip link del "${TAG}br" 2>/dev/null
	[ -n "$WORK" ] && [ -z "${KEEP:-}" ] && rm -rf "$WORK"
}
trap cleanup EXIT

if [ "$(id -u)" != 0 ] || ! ip netns list >/dev/null 2>&1; then
	skip "network namespaces need root"
	done_testing
	exit 0
fi
for tool in lttng lttng-sessiond lttng-relayd babeltrace2; do
	if ! command -v "$tool" >/dev/null; then
		skip "$tool is not installed (make deps)"
		done_testing
		exit 0
	fi
done
if [ ! -x "$DHOST" ] || [ ! -x "$DFPGA" ]; then
	skip "dgrdma-host or dgrdma-fpga not built"
	done_testing
	exit 0
fi
WORK=$(mktemp -d "$DGR_BUILD/analysis-live-hosts.XXXXXX")

# a bridge in the root namespace (the relayd's side), one veth into each host's namespace
ip link add "${TAG}br" type bridge && ip addr add "$NET.1/24" dev "${TAG}br" &&
	ip link set "${TAG}br" up || { not_ok "bridge ${TAG}br"; done_testing; exit 1; }
n=2
for h in a b; do
	ip netns add "$TAG$h" &&
		ip link add "${TAG}${h}0" type veth peer name "${TAG}${h}1" &&
		ip link set "${TAG}${h}1" netns "$TAG$h" &&
		ip link set "${TAG}${h}0" master "${TAG}br" && ip link set "${TAG}${h}0" up &&
		ip -n "$TAG$h" addr add "$NET.$n/24" dev "${TAG}${h}1" &&
		ip -n "$TAG$h" link set "${TAG}${h}1" up && ip -n "$TAG$h" link set lo up ||
		{ not_ok "namespace $TAG$h"; done_testing; exit 1; }
	n=$((n + 1))
done

. "$DGR_SRC/test/lib/relayd.sh"
dgr_start_relayd "$NET.1" "$WORK/relayd-out" "$WORK/relayd.log" ||
	not_ok "lttng-relayd of the test listens on its three ports: $(tail -2 "$WORK/relayd.log")"
rb=$RELAYD_BASE

# One host: its own hostname, a private LTTng run folder and session daemon, dgrdma-capture
# --relayd around dgrdma-host rx, and the emulator once the host receives.
cat >"$WORK/host.sh" <<'HOST'
#!/bin/bash
set -u
name=$1 relay=$2 rb=$3 work=$4 bin=$5 pcap_mib=$6
hostname "dgr-live-$name"
mkdir -p /run/lttng /dev/shm
mount -t tmpfs -o mode=0755 tmpfs /run/lttng && mount -t tmpfs -o mode=1777 tmpfs /dev/shm &&
	lttng-sessiond --daemonize >/dev/null 2>&1 || exit 3
"$bin/dgrdma-capture" --relayd "net://$relay:$rb:$((rb + 1))" --relayd-live-port $((rb + 2)) \
	--live-wait 60 --session "live-$name" -o "$work/$name" --pcap-buffer "$pcap_mib" -- \
	"$bin/dgrdma-host" rx --udp --bind 127.0.0.1:28079 --peer 127.0.0.1:28078 --buffers 16 \
	--buffer-size 16384 --idle-timeout 5 --ready-file "$work/$name.ready" --quiet \
	>"$work/$name.capture.out" 2>&1 &
cap=$!
for ((n = 0; n < 900; n++)); do
	[ -e "$work/$name.ready" ] && break
	nap 0.1
done
"$bin/dgrdma-fpga" --udp --bind 127.0.0.1:28078 --peer 127.0.0.1:28079 --mode adc --rate 2e6 \
	--duration 3 --host-buffers 16 --buffer-size 16384 --quiet >"$work/$name.fpga.out" 2>&1
wait "$cap"
st=$?
kill -TERM "$(cat /run/lttng/lttng-sessiond.pid)"
exit "$st"
HOST
# the last argument: dumpcap's kernel buffer for the emulator's 2 MS/s for 3 s
for h in a b; do
	ip netns exec "$TAG$h" unshare --uts --mount --propagation private \
		bash "$WORK/host.sh" "$h" "$NET.1" "$rb" "$WORK" "$DGR_BUILD/bin" "$(dgr_pcap_mib 2e6 3)" &
	HOST_PIDS+=($!)
done
URLS=()
for h in a b; do
	for ((n = 0; n < 300; n++)); do
		[ -s "$WORK/$h/live.url" ] && break
		nap 0.1
	done
	URLS+=("$(cat "$WORK/$h/live.url" 2>/dev/null)")
done
check_eq "${URLS[*]}" "net://$NET.1:$((rb + 2))/host/dgr-live-a/live-a net://$NET.1:$((rb + 2))/host/dgr-live-b/live-b" \
	"two hosts, two sessions on one relayd"

J=$WORK/hosts.jsonl
# the emulators send from UDP port 28078: --udp-port, as a bare capture needs it
timeout 120 "$LR" --live --json --live-interval 0.5 --host-buffers 16 --buffer-size 16384 \
	--sample-rate 2e6 --fpga-buffers 4 --udp-port 28078 --live-follow "$WORK/a/capture.pcapng" \
	--live-follow "$WORK/b/capture.pcapng" "${URLS[@]}" >"$J" 2>"$WORK/lr.err" &
LR_PID=$!
for i in 0 1; do
	wait "${HOST_PIDS[$i]}"
	check_eq "$?" 0 "host ${URLS[$i]##*/}: dgrdma-capture ended with the command's status 0"
done
HOST_PIDS=()
wait "$LR_PID"
check_eq "$?" 0 "latency-report --live on both sessions ended with them, exit status 0 ($(head -c 200 "$WORK/lr.err"))"
LR_PID=""

check_eq "$(jq -s -c '[.[] | select(.kind == "interval") | [.hosts[].url]] | unique' "$J")" \
	"[[\"${URLS[0]}\",\"${URLS[1]}\"]]" "every interval reports both hosts"
check_eq "$(jq -s '[.[] | select(.kind == "interval")]
	| (map(.host_rx.interval.count == ([.hosts[].host_rx.interval.count] | add)
	       and .host_rx.run.count == ([.hosts[].host_rx.run.count] | add)
	       and .events_run == ([.hosts[].events_run] | add)) | all)
	  and (. as $iv | [range(1; length) | $iv[.].host_rx.run.count >= $iv[. - 1].host_rx.run.count] | all)
	  and (.[-1].hosts | all(.host_rx.run.count > 0))' "$J")" \
	true "together: the hosts' counts add up and grow, and both hosts had doorbells"
check_eq "$(jq -s '[.[] | select(.kind == "interval")]
	| (map(has("wire_rx") and (.hosts | all(has("wire_rx")))
	       and .wire_rx.interval.count == ([.hosts[].wire_rx.interval.count] | add)
	       and .wire_rx.run.count == ([.hosts[].wire_rx.run.count] | add)) | all)
	  and (.[-1].hosts | all(.wire_rx.run.count > 0))
	  and (.[:-1] | map(.wire_rx.interval.count) | add > 0)' "$J")" \
	true "--live-follow, one capture per host: the wire in every interval, the hosts' counts adding up to the together ones, read while written"
check_eq "$(jq -s -c '[.[] | select(.kind == "interval")][-1].regime.label as $w
	| [.[] | select(.kind == "interval")][-1] | [.hosts[].regime.label] | index($w) != null' "$J")" \
	true "together: the worst verdict is one of the hosts'"
check_eq "$(jq -s -c '[.[-2:][] | [.kind, .url]]' "$J")" \
	"[[\"final\",\"${URLS[0]}\"],[\"final\",\"${URLS[1]}\"]]" "then one final report per host, named"
for i in 0 1; do
	h=$(echo "${URLS[$i]}" | sed 's#.*/host/\([^/]*\)/.*#\1#')
	name=${h#dgr-live-}
	"$LR" --json --no-progress --host-buffers 16 --buffer-size 16384 --sample-rate 2e6 \
		--fpga-buffers 4 --udp-port 28078 "$WORK/relayd-out/$h" "$WORK/$name/capture.pcapng" \
		>"$WORK/$h.offline.json" 2>"$WORK/$h.offline.err"
	check_eq "$(jq -s -S -c --arg u "${URLS[$i]}" '.[] | select(.kind == "final" and .url == $u) | [.wire, .host, (.regime | del(.mitigations))]' "$J")" \
		"$(jq -S -c '[.wire, .host, (.regime | del(.mitigations))]' "$WORK/$h.offline.json")" \
		"$h: the final report (wire, host, joined, verdict) equals the offline one on its trace in the relayd and its capture"
done
diag "lag from the newest event to its interval line: $(jq -s -r '[.[] | select(.kind == "interval" and .events > 0) | .lag_ns / 1e6 | floor] | sort | "min \(.[0]) ms, median \(.[length / 2 | floor]) ms, max \(.[-1]) ms"' "$J")"

done_testing
