#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Facts, not argv (issue 31, item 1; docs/run-json.md): the round trip of every tool's settings.
# dgrdma-fpga and dgrdma-host write their settings in force into their --summary-json,
# dgrdma-capture copies them into run.json (dgrdma-run/2), and latency-report takes the run's
# facts from there, never from the recorded command line. The host's run is recorded as the
# issue found it, `dgrdma-host tx ... --rate 0` (valid: as fast as credits allow), which
# latency-report used to refuse. UDP on loopback, nothing captured or traced.
set -u
. "$DGR_SRC/test/lib/tap.sh"
LR="$DGR_BUILD/bin/latency-report"
HOST="$DGR_BUILD/bin/dgrdma-host"
FPGA="$DGR_BUILD/bin/dgrdma-fpga"
CAPTURE="$DGR_BUILD/bin/dgrdma-capture"
require_built "$DGR_BUILD/bin" latency-report dgrdma-host dgrdma-fpga dgrdma-capture
tmp=$(mktemp -d "$DGR_BUILD/analysis-run-facts.XXXXXX")
fpid=""
cleanup() {
	[ -n "$fpid" ] && kill "$fpid" 2>/dev/null && wait "$fpid" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT

# ports away from 18078 (other suites stream too when not isolated)
fport=$((30000 + $$ % 15000))
hport=$((fport + 1))

wait_bound() { # ADDR PORT: until a UDP socket is bound there
	for _ in $(seq 200); do
		ss -Huln "src $1 and sport = :$2" 2>/dev/null | grep -q . && return
		nap 0.05
	done
}

# facts FILE: latency-report's run facts, "host fpga size rate source"
facts() {
	jq -r '.run | [.host_buffers, .fpga_buffers, .buffer_size, .rate_bytes, .tolerable_source] | join(" ")' "$1"
}

# ---- the emulator: its settings, recorded, read back ---------------------------------------
"$CAPTURE" --no-trace --no-pcap -o "$tmp/emu" -- "$FPGA" --udp --bind "127.0.0.1:$fport" \
	--peer "127.0.0.1:$hport" --mode adc --sample-rate 2M --buffers 4 --host-buffers 16 \
	--buffer-size 8192 --duration 0.2 --quiet --counters-ms 0 --summary-json "$tmp/emu.json" \
	>"$tmp/emu.out" 2>&1
check_eq "$?" 0 "dgrdma-capture recorded the emulator's run"
check_eq "$(jq -r '[.settings.tool, .settings.mode, .settings.path, .settings.local, .settings.peer, .settings.sample_rate, .settings.fpga_buffers, .settings.host_buffers, .settings.buffer_size] | join(" ")' "$tmp/emu.json")" \
	"dgrdma-fpga adc rx 127.0.0.1:$fport 127.0.0.1:$hport 2000000 4 16 8192" \
	"dgrdma-fpga's --summary-json holds its settings: tool, mode, path, addresses, rate, buffers"
check_eq "$(jq -r '[.settings.max_acks, .settings.ack_width, .settings.clock, .settings.report_data_loss] | join(" ")' "$tmp/emu.json")" \
	"8 32 real true" "and the defaults it had in force (max_acks 8, ack_width 32, the real clock, report_data_loss)"
check_eq "$(jq -r .format "$tmp/emu/run.json")" "dgrdma-run/2" "run.json is format dgrdma-run/2"
check_eq "$(jq -S -c .settings "$tmp/emu/run.json")" "$(jq -S -c .settings "$tmp/emu.json")" \
	"run.json's settings are the emulator's own, as it wrote them"
"$LR" --json --no-progress "$tmp/emu" >"$tmp/emu.report" 2>"$tmp/emu.err"
check_eq "$? $(facts "$tmp/emu.report")" "0 16 4 8192 8000000 run.json" \
	"latency-report reads them: 16 host and 4 FPGA buffers of 8192 bytes at 2e6 x 4 bytes/s"
# the command line is kept for people only: a recorded command that says otherwise changes nothing
jq '.command += ["--buffers", "9", "--sample-rate", "5M"]' "$tmp/emu/run.json" >"$tmp/emu/run.json.new" &&
	mv "$tmp/emu/run.json.new" "$tmp/emu/run.json"
"$LR" --json --no-progress "$tmp/emu" >"$tmp/emu2.report" 2>"$tmp/emu.err"
check_eq "$? $(facts "$tmp/emu2.report")" "0 16 4 8192 8000000 run.json" \
	"the recorded command line is not read (its --buffers 9 --sample-rate 5M change nothing)"

# ---- the host: dgrdma-host tx --rate 0, recorded, read back ---------------------------------
"$FPGA" --udp --bind "127.0.0.1:$fport" --peer "127.0.0.1:$hport" --quiet --mode dac \
	--sample-rate 1e6 --buffers 4 --buffer-size 16384 --host-buffers 16 --duration 60 \
	--counters-ms 0 >"$tmp/fpga.out" 2>&1 &
fpid=$!
wait_bound 127.0.0.1 "$fport"
"$CAPTURE" --no-trace --no-pcap -o "$tmp/host" -- "$HOST" tx --udp --bind "127.0.0.1:$hport" \
	--peer "127.0.0.1:$fport" --buffers 16 --buffer-size 16384 --fpga-buffers 4 --rate 0 \
	--bytes 256K --idle-timeout 10 --summary-json "$tmp/host.json" >"$tmp/host.out" 2>&1
check_eq "$? $(jq -r .status "$tmp/host.json")" "0 ended" "dgrdma-host tx --rate 0 ran to its end under dgrdma-capture"
kill -INT "$fpid" 2>/dev/null
wait "$fpid" 2>/dev/null
fpid=""
check_eq "$(jq -r '[.settings.tool, .settings.mode, .settings.path, .settings.transport, .settings.local, .settings.peers[0].address, .settings.peers[0].peer_id, .settings.id, .settings.sample_rate, .settings.host_buffers, .settings.fpga_buffers, .settings.buffer_size, .settings.bytes] | join(" ")' "$tmp/host.json")" \
	"dgrdma-host tx tx udp 127.0.0.1:$hport 127.0.0.1:$fport 1 0 0 16 4 16384 262144" \
	"dgrdma-host's --summary-json holds its settings: rate 0, buffers, addresses, ids, bytes"
check_eq "$(jq -r '[.settings.peer_window, .settings.retransmit_attempts, .settings.doorbell, .settings.doorbell_batch] | join(" ")' "$tmp/host.json")" \
	"32 5 flag 16" "and its defaults (peer window 32, 5 retransmit attempts, flag doorbells, batches of 16)"
check_eq "$(jq -S -c .settings "$tmp/host/run.json")" "$(jq -S -c .settings "$tmp/host.json")" \
	"run.json's settings are the host's own"
"$LR" --json --no-progress "$tmp/host" >"$tmp/host.report" 2>"$tmp/host.err"
check_eq "$? $(facts "$tmp/host.report")" "0 16 4 16384 0 none" \
	"latency-report reads a --rate 0 run (it refused it before): its buffers, and no rate"
check_eq "$(grep -c . "$tmp/host.err")" 0 "nothing on stderr"
# dgrdma-capture --sample-rate (the user's word on the stream) comes before the tool's settings
jq '.stream = {sample_rate: 1e6}' "$tmp/host/run.json" >"$tmp/host/run.json.new" &&
	mv "$tmp/host/run.json.new" "$tmp/host/run.json"
"$LR" --json --no-progress "$tmp/host" >"$tmp/host2.report" 2>"$tmp/host.err"
check_eq "$? $(facts "$tmp/host2.report")" "0 16 4 16384 4000000 run.json" \
	"with run.json's stream.sample_rate: the tolerable latency's four facts, all from run.json"
# the run's clocks at its start and end: unmoved, then (realtime 50 us further at the end) a step
check_eq "$(jq -r '[((.run.realtime_moved_ns | fabs) < (.run.realtime_moved_uncertainty_ns + 1000)), .run.clock_step] | join("|")' "$tmp/host2.report")" \
	"true|" "the real-time clock unmoved during the run (within the readings): no step named"
# (the text printed an empty "clock_step: " line for it)
"$LR" --no-progress "$tmp/host" >"$tmp/host2.txt" 2>/dev/null
check_eq "$(grep -c -i 'clock_step\|warning' "$tmp/host2.txt")" 0 "and the text says nothing of a step"
jq '.clocks.end.realtime_nsec += (if .clocks.end.realtime_nsec < 999000000 then 50000 else -50000 end)' \
	"$tmp/host/run.json" >"$tmp/host/run.json.new" && mv "$tmp/host/run.json.new" "$tmp/host/run.json"
"$LR" --json --no-progress "$tmp/host" >"$tmp/host3.report" 2>"$tmp/host.err"
check "a step of 50 us at the end: the report names it (run.clock_step)" \
	jq -e '.run.clock_step | test("^the real-time clock was stepped by [-+][45][0-9][.][0-9]{3} us")' "$tmp/host3.report"
check "and warns on stderr" grep -q "^latency-report: warning: the real-time clock was stepped by" "$tmp/host.err"
"$LR" --no-progress "$tmp/host" >"$tmp/host3.txt" 2>/dev/null
check "the text's run facts name it" grep -q "^  WARNING: the real-time clock was stepped by" "$tmp/host3.txt"
done_testing
