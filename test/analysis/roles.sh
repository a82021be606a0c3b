#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Ports and roles over UDP (issue 18): the stack and the emulator take any port (--bind), so
# latency-report must too. A TX run (dgrdma-host tx into the emulator's DAC) on ports other than
# 18078, recorded by dgrdma-capture: the run folder's recorded command gives the ports, the data
# path and the host's address. The bare capture needs --udp-port (else every frame is another
# protocol's) and --path tx (else the data sender is taken as the FPGA, the documented default).
# DCP over UDP on such a port is DCP, never DG-RDMA (the codec's pad rule).
set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/lib/capture.sh"
LR="$DGR_BUILD/bin/latency-report"
HOST="$DGR_BUILD/bin/dgrdma-host"
CTL="$DGR_BUILD/bin/dgrdma-ctl"
FPGA="$DGR_BUILD/bin/dgrdma-fpga"
CAPTURE="$DGR_BUILD/bin/dgrdma-capture"
tmp=$(mktemp -d "$DGR_BUILD/analysis-roles.XXXXXX")
cleanup() {
	[ -n "$DGR_PCAP_PID" ] && kill "$DGR_PCAP_PID" 2>/dev/null && wait "$DGR_PCAP_PID" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT

if [ "$(id -u)" != 0 ] || ! command -v dumpcap >/dev/null; then
	skip "capturing on loopback needs root and dumpcap"
	done_testing
	exit
fi

# an address of this suite's own in 127/8 and ports away from 18078 (other suites stream too)
FIP="127.1.$(($$ % 250 + 1)).$(($$ / 250 % 250 + 2))"
fport=$((30000 + $$ % 15000))
hport=$((fport + 1))
cport=$((fport + 2))

wait_bound() { # ADDR PORT: until a UDP socket is bound there
	for _ in $(seq 200); do
		ss -Huln "src $1 and sport = :$2" 2>/dev/null | grep -q . && return
		nap 0.05
	done
}

"$FPGA" --udp --bind "$FIP:$fport" --peer "127.0.0.1:$hport" --quiet --mode dac --rate 1e6 \
	--buffers 4 --buffer-size 16384 --host-buffers 16 --duration 30 --counters-ms 0 \
	>"$tmp/fpga.out" 2>&1 &
fpid=$!
wait_bound "$FIP" "$fport"
# 1 MiB in all: dumpcap's smallest kernel buffer of the tests (test/lib/pcap_buffer.sh)
"$CAPTURE" --no-trace -o "$tmp/run" --pcap-buffer 16 -- "$HOST" tx --udp --bind "127.0.0.1:$hport" \
	--peer "$FIP:$fport" --buffers 16 --buffer-size 16384 --fpga-buffers 4 --bytes 1M \
	--idle-timeout 10 --summary-json "$tmp/host.json" >"$tmp/capture.out" 2>&1
check_eq "$?" 0 "the TX run on ports $hport and $fport was recorded"
kill -INT "$fpid" 2>/dev/null
wait "$fpid" 2>/dev/null
sent=$(jq -r .transactions "$tmp/host.json")
check_eq "$sent" 64 "the host sent 1 MiB in 64 transactions of 16 KiB"

# the run folder: ports, path and host from run.json's recorded command
"$LR" --json --no-progress "$tmp/run" >"$tmp/run.json" 2>"$tmp/run.err"
check_eq "$? $(jq -r '[.wire.tx.transactions, .wire.tx.matched, (.wire.rx == null), .capture.other_frames, .connections[0].host_by, .regime.series] | join(" ")' "$tmp/run.json")" \
	"0 64 64 true 0 address wire.tx" \
	"run folder: 64 TX transactions all matched, no RX, no other frame, the host known by its --bind, judged on wire.tx"

# the bare capture: not ours until told the port
cap="$tmp/run/capture.pcapng"
frames=$("$LR" --json --no-progress "$cap" | jq -r '.capture.frames')
"$LR" --json --no-progress "$cap" >"$tmp/bare.json"
check_eq "$(jq -r '[.capture.dgrdma_frames, .capture.other_frames, .capture.frames] | join(" ")' "$tmp/bare.json")" \
	"0 $frames $frames" "bare capture, no --udp-port: every frame is another protocol's"
"$LR" --json --no-progress --udp-port "$fport" "$cap" >"$tmp/port.json"
check_eq "$(jq -r '[.wire.rx.transactions, (.wire.tx == null), .connections[0].host_by, .capture.other_frames] | join(" ")' "$tmp/port.json")" \
	"64 true path 0" "bare capture, --udp-port only: the data sender taken as the FPGA (RX, the default path)"
# ... but the report names the ports whose datagrams decode as ours: every frame with messages
# or DCP packet the --udp-port run took, on both ports
check_eq "$(jq -r '[.capture.other_port_datagrams, ([.capture.other_ports[].port] | sort | map(tostring) | join(","))] | join(" ")' "$tmp/bare.json")" \
	"$(jq -r '.capture.dgrdma_frames - .capture.ack_only_frames + .capture.dcp_frames' "$tmp/port.json") $(printf '%s\n' "$hport" "$fport" | sort -n | paste -sd,)" \
	"bare capture: the datagrams that decode as DG-RDMA or DCP counted, on both ports"
"$LR" --no-progress "$cap" >"$tmp/bare.txt" 2>&1
check "bare capture: the text report says which --udp-port to give" \
	grep -qE "note: analyse them with --udp-port ($hport,$fport|$fport,$hport) " "$tmp/bare.txt"
ports_re="($hport,$fport|$fport,$hport)"
check "bare capture: the verdict says the stream was not found on the ports analysed, not that it never started" \
	jq -e --arg re "^the stream was not found on the ports analysed: [0-9]+ UDP datagrams on other ports \\($ports_re\\) decode as DG-RDMA or DCP; analyse them with --udp-port $ports_re$" \
	'.regime.label == "unknown" and (.regime.reason | test($re))' "$tmp/bare.json"
check "bare capture: the summary screen's findings name the datagrams on other ports" \
	grep -qE "^    - [0-9]+ UDP datagrams on other ports decode as DG-RDMA or DCP" "$tmp/bare.txt"
"$LR" --json --no-progress --udp-port="9,$fport" --path tx "$cap" >"$tmp/tx.json"
check_eq "$(jq -r '[.wire.tx.transactions, .wire.tx.matched, (.wire.rx == null), .connections[0].host_by, .connections[0].a] | join(" ")' "$tmp/tx.json")" \
	"64 64 true path 127.0.0.1:$hport/id 0" "bare capture, --udp-port and --path tx: 64 TX transactions, the host is the data sender"
"$LR" --json --no-progress --udp-port "$fport" --host "127.0.0.1:$hport" "$cap" >"$tmp/host.json.out"
check_eq "$(jq -r '[.wire.tx.transactions, .connections[0].host_by] | join(" ")' "$tmp/host.json.out")" \
	"64 address" "bare capture, --udp-port and --host: TX, decided by the address"
"$LR" --json --no-progress --path rx "$tmp/run" >"$tmp/over.json"
check_eq "$(jq -r '[.wire.tx.transactions, .connections[0].host_by] | join(" ")' "$tmp/over.json")" \
	"64 address" "run folder with --path rx: run.json's host address still decides first (TX)"

# the same capture recorded from the emulator's side: dgrdma-fpga's --peer is the host, its
# --buffers the FPGA's, --mode dac the TX path (wrapped in ip netns exec, as tests run it)
mkdir -p "$tmp/emu"
cp "$cap" "$tmp/emu/capture.pcapng"
printf '{"format": "dgrdma-run/1", "command": ["ip", "netns", "exec", "fpga", "%s", "--udp", "--bind", "%s", "--peer=%s", "--mode", "dac", "--buffers", "4", "--host-buffers", "16", "--buffer-size", "16K", "--rate", "1e6"]}\n' \
	"$FPGA" "$FIP:$fport" "127.0.0.1:$hport" >"$tmp/emu/run.json"
"$LR" --json --no-progress "$tmp/emu" >"$tmp/emu.json" 2>"$tmp/emu.err"
check_eq "$? $(jq -r '[.wire.tx.transactions, .connections[0].host_by, .run.fpga_buffers, .run.host_buffers, .run.buffer_size] | join(" ")' "$tmp/emu.json")" \
	"0 64 address 4 16 16384" "an emulator's run.json: TX, the host its --peer, its --buffers the FPGA's"
sed -i "s/$FIP:$fport/$FIP:99999/" "$tmp/emu/run.json"
"$LR" --json --no-progress "$tmp/emu" >/dev/null 2>"$tmp/emu.err"
check_eq "$? $(grep -c "run.json: command: --bind: '99999' is out of range 1..65535" "$tmp/emu.err")" "2 1" \
	"a recorded --bind port out of range: named, exit 2"

# DCP over UDP on a port of its own: discover and read against the emulator. --idle starts no
# worker, so the emulator cannot send DG-RDMA frames to the host's port during the capture; the
# capture is stopped once it holds the 4 packets the two requests make, so nothing depends on
# when it is stopped.
"$FPGA" --udp --bind "$FIP:$fport" --peer "127.0.0.1:$hport" --quiet --duration 30 --idle \
	--counters-ms 0 >"$tmp/fpga2.out" 2>&1 &
fpid=$!
wait_bound "$FIP" "$fport"
dgr_pcap_start "$tmp/dcp.pcapng" "udp and host $FIP and port $fport" ||
	bail "dumpcap did not start: $(head -3 "$tmp/dcp.pcapng.dumpcap")"
"$CTL" --udp --bind "127.0.0.1:$cport" --peer "$FIP:$fport" discover >"$tmp/ctl1.out" 2>&1
r1=$?
"$CTL" --udp --bind "127.0.0.1:$cport" --peer "$FIP:$fport" read 0x100018 >"$tmp/ctl2.out" 2>&1
r2=$?
dgr_pcap_stop "$tmp/dcp.pcapng" 4
kill -INT "$fpid" 2>/dev/null
wait "$fpid" 2>/dev/null
check_eq "$r1 $r2" "0 0" "dgrdma-ctl discover and read answered on port $fport"
"$LR" --json --no-progress --udp-port "$fport" "$tmp/dcp.pcapng" >"$tmp/dcp.json"
check_eq "$(jq -r '[.capture.dgrdma_frames, .capture.dcp_frames, .dcp.nop, .dcp.nop_responses, .dcp.read, .dcp.read_responses, (.malformed_frames // 0)] | join(" ")' "$tmp/dcp.json")" \
	"0 4 1 1 1 1 0" "DCP over UDP on port $fport: 4 DCP frames (a NOP, a read, their answers), none taken as DG-RDMA"
done_testing
