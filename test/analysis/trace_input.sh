#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# latency-report on a real LTTng trace (libbabeltrace2 path): tp-fire (tracepoints part) fires
# every event of both providers once with fixed values; the report must show exactly them.
# Then a run folder (trace/ + capture.pcapng + run.json) is read as one run.
# make check: slow
set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/tracepoints/lttng-env.sh"
tp_isolate "$@" || { not_ok "private lttng run folder"; done_testing; exit 1; }
. "$DGR_SRC/test/lib/fire_traced.sh"
LR="$DGR_BUILD/bin/latency-report"
GEN="$DGR_BUILD/bin/dgrdma-gen"
FIRE="$DGR_BUILD/test/tracepoints/tp-fire"
tmp=$(mktemp -d "$DGR_BUILD/analysis-trace.XXXXXX")
sess="dgr-analysis-$$"
cleanup() {
	lttng destroy "$sess" >/dev/null 2>&1
	lttng destroy "$sess-two" >/dev/null 2>&1
	tp_lttng_teardown
	rm -rf "$tmp"
}
trap cleanup EXIT

if ! tp_lttng_setup; then
	skip "$TP_LTTNG_WHY"
	done_testing
	exit
fi
if [ ! -x "$FIRE" ]; then
	skip "tp-fire not built (make tracepoints)"
	done_testing
	exit
fi
mkdir -p "$tmp/run"
# Other suites may run traced programs at the same time: record only our tp-fire.
if ! dgr_fire_traced "$tmp/run/trace" "$sess" "$tmp/lttng.log" 1 'dgrdma:*' 'dgrdma_fpga:*'; then
	skip "cannot create an LTTng session here: $(tail -1 "$tmp/lttng.log")"
	done_testing
	exit
fi
fire_pid=${DGR_FIRE_PIDS[0]}

out="$tmp/trace.json"
if "$LR" --json --csv "$tmp/csv" "$tmp/run/trace" >"$out" 2>"$tmp/err"; then
	ok "latency-report reads the trace folder (metadata found below it)"
else
	not_ok "latency-report reads the trace folder"
	diag "$(cat "$tmp/err")"
fi
check_eq "$(jq -r '.host.events' "$out")" 25 "25 events: 16 dgrdma + 9 dgrdma_fpga"
check_eq "$(jq -r '.host.rx.transactions, .host.rx.doorbells, .host.rx.orphan_doorbells, .host.rx.pending_at_end' "$out" | tr '\n' ' ')" \
	"1 1 1 1 " "RX: txn_complete and doorbell_sent of different transactions: 1 orphan, 1 waiting"
check_eq "$(jq -r '.host.tx.transactions, .host.tx.doorbells, .host.tx.orphan_doorbells' "$out" | tr '\n' ' ')" \
	"1 1 1 " "TX: txn_sent buffer 26, doorbell_rx buffer 22: an orphan credit"
check_eq "$(jq -c '.host.threads[0] | [.provider, .role, .conn, .tid, .policy, .priority, .nice]' "$out")" \
	'["dgrdma","consumer",7,12345,"SCHED_FIFO",50,-5]' "host thread's scheduling settings"
# jq reads numbers as doubles: check the 64-bit cpuset in the text
check_eq "$(grep -c '"cpuset": 9223372036854775811' "$out")" 1 "cpuset 0x8000000000000003 kept exact"
check_eq "$(jq -c '.host.threads[1] | [.provider, .role, .tid, .policy, .nice, .cpuset]' "$out")" \
	'["dgrdma_fpga","producer",54321,"SCHED_OTHER",19,1]' "emulator thread's settings"
check_eq "$(jq -c '[.host.counters[] | [.source, .conn, .delivered_samples, .lost_samples]] | sort' "$out")" \
	'[["fpga",0,0,202],["host",7,1039,1040]]' "counter snapshots: samples_received/lost; the emulator's produced - dropped (201 - 202: 0)/dropped_samples"
check_eq "$(jq -r '.host.events_seen | [.socket_drops, .retransmits, .malformed, .fpga_drop_periods, .fpga_underruns, .fpga_discontinuities, .unknown_events] | join(" ")' "$out")" \
	"36 1 1 1 1 1 0" "socket drops, retransmits, malformed, drop periods, underruns, discontinuities"
check_eq "$(grep -c . "$tmp/csv/drops.csv") $(grep ',host,' "$tmp/csv/drops.csv" | cut -d, -f2-6)" "4 host,7,1039,1040,50.024050" "drops.csv row from the host counters"
check_eq "$(grep ',socket,' "$tmp/csv/drops.csv" | cut -d, -f2-5)" "socket,7,1000,1033" "drops.csv row of the kernel's socket drops (frames_rx, socket_drops)"
check_eq "$(jq -r '.regime.label' "$out")" "unknown" "no matched doorbell: regime unknown"
check_eq "$(jq -c '.host.rx.latest_doorbell | [.latency_ns, .conn, .buffer, .txn_id, .frame_seq,
	.completion_in_trace, .doorbells_with_latency]' "$out")" '[34567890123,7,18,19,21,false,1]' \
	"doorbell_sent's latency_ns read through libbabeltrace2: the latest doorbell, an orphan here"
# A trace of the older doorbell_sent (six fields, no latency_ns), recorded by lttng-tools 2.13.9
# from tp-fire built at the commit before the field (fixtures/.../README.md): read as before.
old="$DGR_SRC/test/analysis/fixtures/trace-doorbell-sent-6-fields/trace"
"$LR" --json --no-progress "$old" >"$tmp/old.json" 2>"$tmp/old.err"
rc=$?
[ "$rc" = 0 ] || diag "$(cat "$tmp/old.err")"
check_eq "$rc $(jq -c '[.host.events, .host.rx.doorbells, .host.rx.orphan_doorbells,
	.host.rx.pending_at_end, (.host.rx | has("latest_doorbell"))]' "$tmp/old.json")" \
	"0 [25,1,1,1,false]" "a trace of the six-field doorbell_sent: read as before, no latest doorbell"

check_eq "$(jq -r '.run.tolerable_source' "$out")" "none" "a trace without stream_config events gives no fact"

# The stream's facts from the trace (dgrdma:stream_config, dgrdma_fpga:stream_config) when the
# options and run.json give none: the host's buffers and size, the emulator's own buffers (8, over
# the 64 the host was told) and its rate; an option still comes first.
DGR_FIRE_ARGS=(--stream-config)
if dgr_fire_traced "$tmp/facts/trace" "$sess-facts" "$tmp/lttng-facts.log" 1 'dgrdma:*' 'dgrdma_fpga:*'; then
	"$LR" --json "$tmp/facts/trace" >"$tmp/facts.json" 2>"$tmp/err"
	check_eq "$(jq -r '.run | [.host_buffers, .buffer_size, .fpga_buffers, .rate_bytes, .tolerable_source] | join(" ")' "$tmp/facts.json")" \
		"255 2097152 8 40000000000 trace" "the run's facts from the trace's stream_config events"
	"$LR" --json --fpga-buffers 3 "$tmp/facts/trace" >"$tmp/facts-opt.json" 2>"$tmp/err"
	check_eq "$(jq -r '.run | [.host_buffers, .fpga_buffers, .tolerable_source] | join(" ")' "$tmp/facts-opt.json")" \
		"255 3 options and trace" "an option comes before the trace's fact"
	check_eq "$(jq -c '[.run.trace_disagrees, (input | .run.trace_disagrees)]' "$tmp/facts-opt.json" "$tmp/facts.json")" \
		'[["FPGA buffers: 3 given, but the trace'"'"'s stream_config says 8"],[]]' \
		"a given fact the trace contradicts is named; none when the trace's are used"
	check_eq "$(jq -r '.host.events_seen.unknown_events' "$tmp/facts.json")" 0 "stream_config is a known event"
else
	not_ok "a trace of tp-fire --stream-config: $(tail -1 "$tmp/lttng-facts.log")"
fi
DGR_FIRE_ARGS=()

# --pid: only the events of the named processes (vpid context) count; the others (and events
# without the context) are counted as left out
"$LR" --json --pid "$fire_pid" "$tmp/run/trace" >"$tmp/pid.json" 2>"$tmp/err"
check_eq "$(jq -r '[.host.events, .host.events_seen.other_pids] | join(" ")' "$tmp/pid.json")" "25 0" \
	"--pid of tp-fire: its 25 events, none left out"
"$LR" --json --pid $((fire_pid + 1)) --pid $((fire_pid + 2)) "$tmp/run/trace" >"$tmp/pid.json" 2>"$tmp/err"
check_eq "$(jq -r '[.host.events, .host.events_seen.other_pids] | join(" ")' "$tmp/pid.json")" "0 25" \
	"--pid of other processes: no event counts, 25 left out"
"$LR" --pid 1.5 "$tmp/run/trace" >/dev/null 2>"$tmp/err"
check_eq "$?" 2 "--pid 1.5 is refused"
check "and named" grep -q -- "--pid: '1.5' is not a whole number (accepted: 1..4194304)" "$tmp/err"
pids=()
for i in $(seq 17); do pids+=(--pid "$i"); done
"$LR" "${pids[@]}" "$tmp/run/trace" >/dev/null 2>"$tmp/err"
check_eq "$?" 2 "17 --pid are refused"
check "with the limit named" grep -q -- "--pid: at most 16" "$tmp/err"

# Two processes of the user in one trace (as per-user buffers record a second dgrdma-host): the
# report counts the processes whose transactions it mixed and says so, naming --pid; with --pid,
# one process and no note.
check_eq "$(jq -r .host.processes "$out")" 1 "one process's transactions counted (tp-fire's)"
if dgr_fire_traced "$tmp/two/trace" "$sess-two" "$tmp/lttng-two.log" 2 'dgrdma:*'; then
	pid1=${DGR_FIRE_PIDS[0]} pid2=${DGR_FIRE_PIDS[1]}
	"$LR" --json "$tmp/two/trace" >"$tmp/two.json" 2>"$tmp/err"
	"$LR" "$tmp/two/trace" >"$tmp/two.txt" 2>>"$tmp/err"
	check_eq "$(jq -r '[.host.processes, .host.rx.transactions] | join(" ")' "$tmp/two.json")" "2 2" \
		"two processes: both counted, and said (processes 2)"
	check_eq "$(grep -c "note: these numbers mix the transactions of 2 processes (vpid \($pid1, $pid2\|$pid2, $pid1\)): the trace records every process of the user; --pid PID keeps one" "$tmp/two.txt")" 1 \
		"the text report's note names both vpids and --pid"
	"$LR" --pid "$pid2" "$tmp/two/trace" >"$tmp/two-pid.txt" 2>>"$tmp/err"
	"$LR" --json --pid "$pid2" "$tmp/two/trace" >"$tmp/two-pid.json" 2>>"$tmp/err"
	check_eq "$(jq -r '[.host.processes, .host.rx.transactions] | join(" ")' "$tmp/two-pid.json") $(grep -c 'note: these numbers mix' "$tmp/two-pid.txt")" \
		"1 1 0" "--pid of one: its transactions only, no note"
	# in a run folder whose run.json names the command's pid, its events are chosen by themselves
	# (issue 32; test/analysis/run_folder.sh has the rest)
	mkdir -p "$tmp/two-run"
	cp -r "$tmp/two/trace" "$tmp/two-run/trace"
	sed "s/\"command_pid\":4242/\"command_pid\":$pid2/" "$DGR_SRC/test/fuzz/seeds/run-json/capture.json" \
		>"$tmp/two-run/run.json"
	"$LR" "$tmp/two-run" >"$tmp/two-run.txt" 2>>"$tmp/err"
	check_eq "$(grep -c "note: only the dgrdma events of this run's processes count (vpid $pid2: run.json's command_pid); 16 events of other processes left out" "$tmp/two-run.txt") $(grep -c 'note: these numbers mix' "$tmp/two-run.txt")" \
		"1 0" "a run folder: run.json's command_pid chooses its process's events, and the report says so"
else
	not_ok "a session recording two processes: $(tail -1 "$tmp/lttng-two.log")"
fi

# Damaged traces: refused with one line on stderr, exit 2, no report; never a hang (babeltrace2
# 2.0.4 loops forever on a metadata file cut inside a packet). `timeout 300` only catches a hang.
meta_dir=$(dirname "$(find "$tmp/run/trace" -name metadata | head -1)")
rel=${meta_dir#"$tmp/run/trace"/}
msize=$(stat -c %s "$meta_dir/metadata")
damaged() { # NAME EXPECTED-MESSAGE (the copy in $tmp/dmg was damaged by the caller)
	timeout 300 "$LR" --json --no-progress "$tmp/dmg" >"$tmp/dmg.out" 2>"$tmp/dmg.err"
	local rc=$?
	check_eq "$rc $(grep -c . "$tmp/dmg.err") $(grep -cF -- "$2" "$tmp/dmg.err") $(wc -c <"$tmp/dmg.out")" "2 1 1 0" \
		"$1: refused with one line ($2), exit 2, no report"
	[ "$rc" = 2 ] || diag "$(head -c 400 "$tmp/dmg.err")"
}
fresh() {
	rm -rf "$tmp/dmg"
	cp -r "$tmp/run/trace" "$tmp/dmg"
}
for cut in 37 100 10240; do
	fresh
	head -c "$cut" "$meta_dir/metadata" >"$tmp/dmg/$rel/metadata"
	damaged "metadata cut at $cut bytes" "$rel/metadata: cut short: packet $((cut / 4096 + 1)) at byte $((cut / 4096 * 4096)) has $((cut % 4096)) of its 4096 bytes"
done
# every 256 bytes, and at packet boundaries (whole packets, the TSDL text cut); one copy of the
# trace, its metadata rewritten for each cut (latency-report only reads: the streams stay as
# copied), stderr read by bash. One timeout over the whole loop catches a hang as well as one
# per cut did, without a timeout process for each of its ~190 cuts (a fork and an exec: 1.7 s
# of CPU). The loop prints its diagnostics, then "BAD CUTS".
fresh
# shellcheck disable=SC2016 # the loop's own variables, in the bash that timeout runs
loop_out=$(timeout 300 bash -c '
	LR=$1 meta=$2 dmg=$3 msize=$4 bad=0 cuts=0
	for ((cut = 1; cut < msize; cut += 256)); do
		for c in $cut $(((cut / 4096) * 4096)); do
			[ "$c" -gt 0 ] || continue
			head -c "$c" "$meta" >"$dmg/$5/metadata"
			"$LR" --no-progress "$dmg" >/dev/null 2>"$dmg.err"
			rc=$?
			cuts=$((cuts + 1))
			mapfile -t err <"$dmg.err"
			lines=0 said=0
			for l in "${err[@]}"; do
				[ -n "$l" ] && lines=$((lines + 1))
				[[ $l == *"cut short"* ]] && said=1
			done
			if [ "$rc" != 2 ] || [ "$lines" != 1 ] || [ "$said" != 1 ]; then
				bad=$((bad + 1))
				echo "# metadata cut at $c: exit $rc: $(head -c 300 "$dmg.err")"
			fi
		done
	done
	echo "$bad $cuts"' cuts "$LR" "$meta_dir/metadata" "$tmp/dmg" "$msize" "$rel")
rc=$?
last=${loop_out##*$'\n'}
if [[ $last =~ ^([0-9]+)\ ([0-9]+)$ ]]; then
	bad=${BASH_REMATCH[1]} cuts=${BASH_REMATCH[2]}
	loop_out=${loop_out%"$last"}
else
	bad="the loop ended with status $rc before its last cut" cuts="?"
fi
[ -z "$loop_out" ] || echo "${loop_out%$'\n'}"
check_eq "$bad" 0 "metadata cut at $cuts points of its $msize bytes: each refused, exit 2, one line saying 'cut short'"
fresh
: >"$tmp/dmg/$rel/metadata"
damaged "an empty metadata file" "$rel/metadata: empty"
fresh
printf 'not a trace' >"$tmp/dmg/$rel/metadata"
damaged "a metadata file that is no CTF" "$rel/metadata: neither a packetized metadata file"
stream=""
for f in "$meta_dir"/*; do
	[ -f "$f" ] && [ "${f##*/}" != metadata ] && stream=${f##*/} && break
done
ssize=$(stat -c %s "$meta_dir/$stream")
for cut in 10 100 $((ssize - 1)); do
	fresh
	head -c "$cut" "$meta_dir/$stream" >"$tmp/dmg/$rel/$stream"
	damaged "stream file cut at $cut bytes" "the stream file is cut short"
done
fresh
printf 'XXXX' | dd of="$tmp/dmg/$rel/$stream" conv=notrunc status=none
damaged "a stream file without the packet magic" "$rel/$stream: no CTF packet magic (0xC1FC1FC1) at byte 0"
fresh
head -c 30 "$meta_dir/index/$stream.idx" >"$tmp/dmg/$rel/index/$stream.idx"
damaged "a cut index file" "index/$stream.idx: cut short"
# A stream longer than its index: a session whose daemon ended first sends its last packets
# without their index entries. Read from the stream file all the same (libbabeltrace2 indexes
# it from its packets), the bytes said: the same analysis as the intact trace.
be() { od -An -tu1 -j"$2" -N"$3" "$1" | awk '{v = 0; for (i = 1; i <= NF; i++) v = v * 256 + $i; print v}'; }
isize=$(stat -c %s "$meta_dir/index/$stream.idx")
entry=$(be "$meta_dir/index/$stream.idx" 12 4)
last_at=$(be "$meta_dir/index/$stream.idx" $((isize - entry)) 8)
"$LR" --json --no-progress "$tmp/run/trace" >"$tmp/intact.json" 2>/dev/null
fresh
head -c $((isize - entry)) "$meta_dir/index/$stream.idx" >"$tmp/dmg/$rel/index/$stream.idx"
"$LR" --json --no-progress "$tmp/dmg" >"$tmp/dmg.out" 2>"$tmp/dmg.err"
check_eq "$? $(jq -r '.host.trace_unindexed_bytes' "$tmp/dmg.out")" "0 $((ssize - last_at))" \
	"an index without its last entry: read, exit 0, the $((ssize - last_at)) bytes past it said"
check_eq "$(jq -S -c '.host | del(.trace_unindexed_bytes)' "$tmp/dmg.out")" \
	"$(jq -S -c '.host' "$tmp/intact.json")" \
	"an index without its last entry: the same in-host analysis as the intact trace ($(jq -r '.host.events' "$tmp/intact.json") events)"
"$LR" --no-progress "$tmp/dmg" 2>&1 | grep -q "note: the session sent its last packets without their index entries" &&
	ok "an index without its last entry: the text report says so" ||
	not_ok "an index without its last entry: the text report says so"
fresh
head -c 4096 /dev/zero >>"$tmp/dmg/$rel/$stream"
damaged "a stream file with 4096 bytes of zeros past its index" \
	"its $(((isize - 16) / entry)) packet(s) end at byte $ssize, the stream file has $((ssize + 4096)) bytes and no packet starts there"
# without an index babeltrace2 finds the damage itself: its root cause, one line
fresh
rm -r "$tmp/dmg/$rel/index"
head -c 1000 "$meta_dir/$stream" >"$tmp/dmg/$rel/$stream"
damaged "a cut stream file without index" "babeltrace2 cannot open the trace: Failed to index CTF stream file"
timeout 300 "$LR" --verbose --no-progress "$tmp/dmg" >/dev/null 2>"$tmp/dmg.err"
check "--verbose shows libbabeltrace2's own lines too" test "$(grep -c 'PLUGIN/SRC.CTF.FS' "$tmp/dmg.err")" -gt 0
fresh
dd if=/dev/urandom of="$tmp/dmg/$rel/$stream" bs=1 seek=40 count=16 conv=notrunc status=none
timeout 300 "$LR" --no-progress "$tmp/dmg" >/dev/null 2>"$tmp/dmg.err"
rc=$?
check_eq "$rc $(grep -c . "$tmp/dmg.err")" "2 1" "random bytes in a stream's packet context: exit 2, one line"
# The watchdog: a reader that stops making progress is killed after --trace-stall seconds. The
# reader child is made to stop for certain, not caught alive by luck: a shim preloaded into
# latency-report stops the process that runs a babeltrace2 graph (the reader child only) with
# SIGSTOP before it reads anything.
cat >"$tmp/stall.c" <<'EOF_C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>

int bt_graph_run(void *graph);

int bt_graph_run(void *graph)
{
	int (*real)(void *) = (int (*)(void *))dlsym(RTLD_NEXT, "bt_graph_run");

	raise(SIGSTOP);
	return real(graph);
}
EOF_C
stalled=""
if cc -shared -fPIC -o "$tmp/stall.so" "$tmp/stall.c" -ldl 2>"$tmp/stall.cc.err"; then
	LD_PRELOAD="$tmp/stall.so" timeout 60 "$LR" --no-progress --trace-stall 1 "$tmp/run/trace" \
		>/dev/null 2>"$tmp/stall.err"
	stalled="$? $(cat "$tmp/stall.err")"
else
	diag "the shim did not build: $(head -c 300 "$tmp/stall.cc.err")"
fi
check_eq "$stalled" "2 latency-report: $tmp/run/trace: babeltrace2 made no progress for 1 s and was stopped (a damaged trace can make it loop)" \
	"a trace read that stalls is stopped after --trace-stall, exit 2"
"$LR" --trace-stall 0 "$tmp/run/trace" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c -- "--trace-stall: '0' is out of range 1..3600" "$tmp/err")" "2 1" "--trace-stall 0 is refused with the range"
rm -rf "$tmp/dmg"

# A run folder: trace/, capture.pcapng, run.json (tolerable latency from its facts).
"$GEN" -o "$tmp/run/capture.pcapng" -e "$tmp/run/expect.json" --txns 50 --buffers 8 >/dev/null
printf '{ "format": "dgrdma-run/1", "command": ["dgrdma-host", "rx"], "stream": { "host_buffers": 8, "fpga_buffers": 2, "buffer_size": 8192, "sample_rate": 102400000 } }\n' >"$tmp/run/run.json"
if "$LR" --json "$tmp/run" >"$tmp/run.json.out" 2>"$tmp/err"; then
	ok "latency-report reads a run folder"
else
	not_ok "latency-report reads a run folder"
	diag "$(cat "$tmp/err")"
fi
check_eq "$(jq -r '.wire.rx.matched, .host.events, .run.tolerable_source' "$tmp/run.json.out" | tr '\n' ' ')" \
	"50 25 run.json " "run folder: capture and trace both read, facts from run.json"
# (8 + 2) * 8192 B / (102.4e6 * 4 B/s) = 200 us
check_eq "$(jq -r '.wire.rx.latency_ns.tolerable' "$tmp/run.json.out")" 200000 "tolerable latency (N_c + N_p) * S / R = 200 us"
check_eq "$(jq -r '.host.joined.doorbells' "$tmp/run.json.out")" 0 "nothing to join: the trace has no matched doorbell"

# The facts from the recorded command alone, written as dgrdma-host and dgrdma-fpga take them:
# (8 + 2) * 8 KiB / (200e6 * 4 B/s) = 102.4 us.
printf '{ "format": "dgrdma-run/1", "command": ["dgrdma-host", "rx", "--buffers", "8", "--fpga-buffers", "2", "--buffer-size", "8K", "--rate", "200M"] }\n' \
	>"$tmp/run/run.json"
"$LR" --json "$tmp/run" >"$tmp/run.cmd.out" 2>"$tmp/err" || diag "$(cat "$tmp/err")"
check_eq "$(jq -r '[.run.host_buffers, .run.fpga_buffers, .run.buffer_size, .wire.rx.latency_ns.tolerable] | join(" ")' "$tmp/run.cmd.out")" \
	"8 2 8192 102400" "run.json's command: --buffer-size 8K and --rate 200M read as the tools read them"
# dgrdma-capture --sample-rate --fpga-buffers: run.json's "stream" beside the recorded command
printf '{ "format": "dgrdma-run/1", "command": ["dgrdma-host", "rx", "--buffers", "8", "--buffer-size", "8K"], "stream": { "sample_rate": 200000000, "fpga_buffers": 2 } }\n' \
	>"$tmp/run/run.json"
"$LR" --json "$tmp/run" >"$tmp/run.stream.out" 2>"$tmp/err" || diag "$(cat "$tmp/err")"
check_eq "$(jq -r '[.wire.rx.latency_ns.tolerable, .run.tolerable_source] | join(" ")' "$tmp/run.stream.out")" \
	"102400 run.json" "run.json's stream facts (dgrdma-capture --sample-rate --fpga-buffers) with the command's"
# getopt_long's --opt=value form in the recorded command
printf '{ "format": "dgrdma-run/1", "command": ["dgrdma-host", "rx", "--buffers=8", "--fpga-buffers=2", "--buffer-size=8K", "--rate=200M"] }\n' \
	>"$tmp/run/run.json"
"$LR" --json "$tmp/run" >"$tmp/run.eq.out" 2>"$tmp/err" || diag "$(cat "$tmp/err")"
check_eq "$(jq -r '.wire.rx.latency_ns.tolerable' "$tmp/run.eq.out")" 102400 "run.json's command with --opt=value arguments"
# the same on latency-report's command line
"$LR" --json --host-buffers 8 --fpga-buffers 2 --buffer-size 8K --sample-rate 200M "$tmp/run/capture.pcapng" \
	>"$tmp/run.cli.out" 2>"$tmp/err" || diag "$(cat "$tmp/err")"
check_eq "$(jq -r '.wire.rx.latency_ns.tolerable' "$tmp/run.cli.out")" 102400 \
	"--buffer-size 8K --sample-rate 200M on the command line"
# the host's facts from run.json, the emulator's from the command line (as make demo does)
printf '{ "format": "dgrdma-run/1", "command": ["dgrdma-host", "rx", "--buffers", "8", "--buffer-size", "8K"] }\n' >"$tmp/run/run.json"
"$LR" --json --fpga-buffers 2 --sample-rate 200e6 "$tmp/run" >"$tmp/run.mix.out" 2>"$tmp/err" || diag "$(cat "$tmp/err")"
check_eq "$(jq -r '[.wire.rx.latency_ns.tolerable, .run.tolerable_source] | join(" ")' "$tmp/run.mix.out")" \
	"102400 options and run.json" "facts from both the options and run.json, and said so"
done_testing
