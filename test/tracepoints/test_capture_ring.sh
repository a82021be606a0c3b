#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bounded recording (issue 34, item 1): dgrdma-capture --ring-files/--ring-file-size keep the
# capture in dumpcap's ring, --trace-file-size/--trace-file-count the trace in LTTng's per-CPU
# files, --long sets both with the transport's headers-only snap length and states the disk
# bound. A 3 s stream of dgrdma-host fed by dgrdma-fpga over UDP on 127.0.0.1 with a tiny ring:
# the ring's and the trace's files, sampled while it runs, never exceed their counts; the bytes
# stay within run.json's bounds; latency-report reads the folder, says that the ring dropped
# the run's start and invents no loss. The rule for a transaction begun before the ring's
# first kept file is checked on a generated capture cut mid-transaction.
# make check: slow

set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/tracepoints/lttng-env.sh"
. "$DGR_SRC/test/lib/json.sh"
tp_isolate "$@" || { not_ok "private lttng run folder"; done_testing; exit 1; }

tp_capture_suite 30000

# ---- bad values: named with the accepted range, nothing recorded -------------------------------
usage_error() {
	local want=$1 out
	shift
	out=$("$CAPTURE" -o "$WORK/never" "$@" -- true 2>&1)
	local rc=$?
	if [ "$rc" = 2 ] && [[ $out == *"$want"* ]] && [ ! -e "$WORK/never" ]; then
		ok "refused with '$want': $*"
	else
		not_ok "refused with '$want': $*"
		diag "exit $rc: $out"
	fi
}
usage_error "--ring-files: '1' is out of range 2..100000" --ring-files 1 --ring-file-size 64k
usage_error "--ring-files needs --ring-file-size or --ring-duration" --ring-files 3 --if lo
usage_error "need --ring-files N" --ring-file-size 64k --if lo
usage_error "--ring-file-size: '8k' is out of range 65536..1073741824" --ring-files 3 --ring-file-size 8k
usage_error "--ring-duration: '0' is out of range 1..86400" --ring-files 3 --ring-duration 0
usage_error "--trace-file-size: '4k' is out of range 65536..4294967296" --trace-file-size 4k --trace-file-count 2
usage_error "go together" --no-pcap --trace-file-size 64k
usage_error "--trace-file-count: '0' is out of range 1..65535" --no-pcap --trace-file-size 64k \
	--trace-file-count 0
usage_error "less than one sub-buffer" --no-pcap --trace-file-size 64k --trace-file-count 2 \
	--subbuf-size 128k
usage_error "--ring-files needs the capture" --no-pcap --ring-files 3 --ring-file-size 64k

# ---- the start-cut rule, on a generated capture ----------------------------------------------
# dgrdma-gen's 12000-byte transactions go in two fragments at MTU 8970; without its first frame
# the capture starts on the second fragment of a transaction. In a ring folder whose first kept
# file is number 2 that transaction began before the capture (no loss); as file number 1 the
# same capture has lost a frame (an incomplete transaction, a loss).
if command -v editcap >/dev/null && [ -x "$GEN" ]; then
	"$GEN" -o "$WORK/gen.pcapng" -e "$WORK/gen.exp.json" --transport udp --mtu 8970 --txns 300 \
		--bytes 12000 --buffers 16 2>/dev/null && editcap -r "$WORK/gen.pcapng" \
		"$WORK/cut.pcapng" 2-100000 || bail "dgrdma-gen, editcap"
	for n in 1 2; do
		f=$WORK/cut$n
		mkdir -p "$f/capture"
		cp "$WORK/cut.pcapng" "$f/capture/capture_0000${n}_20261203000000.pcapng"
		echo '{"format":"dgrdma-run/2","command":["dgrdma-host"],"capture":{"path":"capture"},"trace":null}' \
			>"$f/run.json"
		"$LR" --json --no-progress "$f" >"$f.json" 2>"$f.err" || diag "latency-report $f: $(cat "$f.err")"
	done
	check_eq "$(jq -c '[.run_folders[0].capture.start_dropped, .wire.rx.begun_before_capture,
		.wire.rx.incomplete_transactions, .losses.any]' "$WORK/cut2.json")" "[true,1,0,false]" \
		"ring file 2 first: the transaction begun before it is counted apart, no loss"
	check_eq "$(jq -c '[.run_folders[0].capture.start_dropped, .wire.rx.begun_before_capture,
		.wire.rx.incomplete_transactions, .losses.any]' "$WORK/cut1.json")" "[false,null,1,true]" \
		"ring file 1 first: the same capture has lost a frame (an incomplete transaction)"
	check_eq "$(jq -r '.wire.rx.transactions' "$WORK/cut2.json")" \
		"$(jq -r '.wire.rx.transactions' "$WORK/cut1.json")" \
		"the completed transactions are the same either way"
	# the same at the end: the first 4 frames end on a transaction's first fragment. In a
	# flight recorder's incident (run.json's "incident": its window ends mid-run) that
	# transaction was cut by the end; in a run that ended there, a frame of it was lost.
	editcap -r "$WORK/gen.pcapng" "$WORK/end.pcapng" 1-4 || bail "editcap"
	for kind in incident run; do
		f=$WORK/end-$kind
		mkdir -p "$f/capture"
		cp "$WORK/end.pcapng" "$f/capture/capture_00001_20261203000000.pcapng"
		jq -n --arg kind "$kind" '{format: "dgrdma-run/2", command: ["dgrdma-host"],
			capture: {path: "capture"}, trace: null}
			+ (if $kind == "incident" then {incident: {number: 1, trigger: "SIGUSR1"}} else {} end)' \
			>"$f/run.json"
		"$LR" --json --no-progress "$f" >"$f.json" 2>"$f.err" || diag "latency-report $f: $(cat "$f.err")"
	done
	check_eq "$(jq -c '[.wire.rx.cut_at_end, .wire.rx.incomplete_transactions, .losses.any]' \
		"$WORK/end-incident.json")" "[1,0,false]" \
		"an incident's window: the transaction cut by its end is counted apart, no loss"
	check_eq "$(jq -c '[.wire.rx.cut_at_end, .wire.rx.incomplete_transactions, .losses.any]' \
		"$WORK/end-run.json")" "[null,1,true]" "a run that ended there: an incomplete transaction"
else
	skip "the start-cut rule" "editcap or dgrdma-gen missing"
fi

if [ ! -x "$DHOST" ] || [ ! -x "$DFPGA" ]; then
	skip "dgrdma-host or dgrdma-fpga not built"
	done_testing
	exit 0
fi
tp_capture_require

# ---- --long: the preset and its bound ----------------------------------------------------------
NCPUS=$(getconf _NPROCESSORS_CONF)
# No stream (the command is true): dumpcap's smallest kernel buffer of the tests.
"$CAPTURE" -o "$WORK/long4" --long --pcap-buffer 16 -- true --udp --bind "127.0.0.1:$PORT_H" \
	2>"$WORK/long4.err" ||
	diag "$(cat "$WORK/long4.err")"
cap_bound=$((16 * (67109 * 1000 + 150 + 64 + 1024)))
trace_bound=$((NCPUS * 4 * (67108864 + (67108864 / 4096 + 1) * 64 + 64) + 1048576))
check_eq "$(jq -c '[.capture.snaplen, .capture.path, .capture.ring.files, .capture.ring.file_size_kb,
	.trace.tracefile_size, .trace.tracefile_count, .bounds.long, .bounds.capture_bytes,
	.bounds.trace_bytes, .bounds.disk_bytes]' "$WORK/long4/run.json")" \
	"[150,\"capture\",16,67109,67108864,4,true,$cap_bound,$trace_bound,$((cap_bound + trace_bound + 1048576))]" \
	"--long over UDP/IPv4: snap 150, a ring of 16 x 64 MiB, the trace 4 x 64 MiB per CPU, the bound"
if grep -q "disk bound: $((cap_bound + trace_bound + 1048576)) bytes" "$WORK/long4.err"; then
	ok "--long states its disk bound when it starts"
else
	not_ok "--long states its disk bound when it starts"
	diag "$(cat "$WORK/long4.err")"
fi
"$CAPTURE" -o "$WORK/long6" --long --no-trace --ring-files 4 --pcap-buffer 16 -- true --udp \
	--bind "[::1]:$PORT_H" 2>"$WORK/long6.err" || diag "$(cat "$WORK/long6.err")"
check_eq "$(jq -c '[.capture.snaplen, .capture.ring.files, .trace, .bounds.trace_bytes]' \
	"$WORK/long6/run.json")" "[170,4,null,null]" \
	"--long over UDP/IPv6: snap 170; a given --ring-files wins; no trace, no trace bound"

# ---- a stream into a tiny ring --------------------------------------------------------------------
RUN=$WORK/run
RING_FILES=3
TRACE_COUNT=2
# the largest number of ring files and of trace files per CPU seen while the run goes on; counted
# in bash and written (whole, by a rename) when it changed: a find, a wc and a mv every 50 ms
# before
sampler() {
	local max_ring=0 max_trace=0 n f c files written=""
	while :; do
		files=("$RUN"/capture/capture_*.pcapng)
		n=${#files[@]}
		[ -e "${files[0]}" ] || n=0
		[ "$n" -gt "$max_ring" ] && max_ring=$n
		for ((c = 0; c < NCPUS; c++)); do
			n=0
			for f in "$RUN"/trace/ust/uid/*/64-bit/dgrdma_"${c}"_*; do
				[ -f "$f" ] && n=$((n + 1))
			done
			[ "$n" -gt "$max_trace" ] && max_trace=$n
		done
		if [ "$written" != "$max_ring $max_trace" ]; then
			echo "$max_ring $max_trace" >"$WORK/sampled.tmp" && mv "$WORK/sampled.tmp" "$WORK/sampled" &&
				written="$max_ring $max_trace"
		fi
		[ -e "$WORK/stop-sampler" ] && return 0
		nap 0.05
	done
}
# dumpcap's kernel buffer sized to the emulator's stream below (2 MS/s for 3 s)
env --default-signal=INT "$CAPTURE" -o "$RUN" --ring-files "$RING_FILES" --ring-file-size 64k \
	--pcap-buffer "$(dgr_pcap_mib 2e6 3)" --snaplen 150 --all-events --subbuf-size 16k --num-subbuf 4 --trace-file-size 64k \
	--trace-file-count "$TRACE_COUNT" -- "$DHOST" rx --udp --bind "127.0.0.1:$PORT_H" \
	--peer "127.0.0.1:$PORT_F" --rcvbuf 16M --buffer-size 65536 --fpga-buffers 8 --idle-timeout 2 \
	--summary-json "$WORK/host.json" \
	--quiet 2>"$WORK/capture.err" &
CAP_PID=$!
sampler &
SAMPLER_PID=$!
for ((n = 0; n < 300; n++)); do
	[ -n "$(ss -Huln "sport = :$PORT_H")" ] && break
	nap 0.1
done
# 8 FPGA buffers of 64 KiB: the FPGA holds 65 ms at 2 MS/s, so that a loaded machine's
# scheduling delays (tens of ms) lose no sample (its default 64 KiB of memory, 8 ms, once did)
"$DFPGA" --udp --bind "127.0.0.1:$PORT_F" --peer "127.0.0.1:$PORT_H" --mode adc --rate 2e6 \
	--buffer-size 65536 --fpga-memory 524288 --buffers 8 \
	--duration 3 --quiet --summary-json "$WORK/fpga.json" &
FPGA_PID=$!
wait "$FPGA_PID"
check_eq "$?" 0 "dgrdma-fpga ran its 3 s"
FPGA_PID=""
wait "$CAP_PID"
host_status=$?
CAP_PID=""
touch "$WORK/stop-sampler"
wait "$SAMPLER_PID"
SAMPLER_PID=""
sed 's/^/# /' "$WORK/capture.err"
check_eq "$host_status" 0 "dgrdma-host ran to its end (exit 0)"
check_eq "$(jq -r '[.samples_lost, .counters.discontinuities] | @json' "$WORK/host.json")" "[0,0]" \
	"the run went as planned: the host lost no sample"

# run.json's values read below, in one jq (json_exprs, test/lib/json.sh)
json_exprs RJ "$RUN/run.json" written .capture.ring.files_written kept .capture.ring.files_kept \
	first '[.capture.ring.first_kept, .capture.ring.start_dropped] | @json' \
	cap_bound .bounds.capture_bytes trace_bound .bounds.trace_bytes disk_bound .bounds.disk_bytes
written=${RJ[written]}
kept=${RJ[kept]}
read -r max_ring max_trace <"$WORK/sampled"
if [ "$written" -gt "$RING_FILES" ]; then
	ok "the ring turned: $written files written for $RING_FILES kept"
else
	not_ok "the ring turned: $written files written for $RING_FILES kept"
fi
check_eq "$kept $(find "$RUN/capture" -name 'capture_*.pcapng' | wc -l)" "$RING_FILES $RING_FILES" \
	"run.json and the folder: exactly $RING_FILES ring files kept"
if [ "$max_ring" -le "$RING_FILES" ] && [ "$max_ring" -ge 1 ]; then
	ok "while it ran the ring never held more than $RING_FILES files (at most $max_ring seen)"
else
	not_ok "while it ran the ring never held more than $RING_FILES files (at most $max_ring seen)"
fi
check_eq "${RJ[first]}" \
	"[$((written - RING_FILES + 1)),true]" "run.json: the first kept file and the dropped start"
cap_bytes=$(find "$RUN/capture" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')
cap_bound=${RJ[cap_bound]}
big=$(find "$RUN/capture" -type f -size +$((64 * 1024 / 1000 * 1000 + 1000 + 150 + 1088))c | wc -l)
check_eq "$big" 0 "no ring file past its size plus one packet and its closing block"
if [ "$cap_bytes" -le "$cap_bound" ]; then
	ok "the ring's $cap_bytes bytes are within the stated bound ($cap_bound)"
else
	not_ok "the ring's $cap_bytes bytes are within the stated bound ($cap_bound)"
fi

per_cpu_max=0
for ((c = 0; c < NCPUS; c++)); do
	n=$(find "$RUN/trace" -name "dgrdma_${c}_*" ! -name '*.idx' | wc -l)
	[ "$n" -gt "$per_cpu_max" ] && per_cpu_max=$n
done
check_eq "$per_cpu_max" "$TRACE_COUNT" "the trace reached its $TRACE_COUNT files on a CPU, no more"
if [ "$max_trace" -le "$TRACE_COUNT" ]; then
	ok "while it ran no CPU had more than $TRACE_COUNT trace files (at most $max_trace seen)"
else
	not_ok "while it ran no CPU had more than $TRACE_COUNT trace files (at most $max_trace seen)"
fi
check_eq "$(find "$RUN/trace" -name 'dgrdma_*' ! -name '*.idx' -size +65536c | wc -l)" 0 \
	"no trace file past --trace-file-size"
trace_bytes=$(find "$RUN/trace" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')
trace_bound=${RJ[trace_bound]}
if [ "$trace_bytes" -le "$trace_bound" ]; then
	ok "the trace's $trace_bytes bytes are within the stated bound ($trace_bound)"
else
	not_ok "the trace's $trace_bytes bytes are within the stated bound ($trace_bound)"
fi
run_bytes=$(du -sb "$RUN" | cut -f1)
if [ "$run_bytes" -le "${RJ[disk_bound]}" ]; then
	ok "the whole run folder ($run_bytes bytes) is within the disk bound"
else
	not_ok "the whole run folder ($run_bytes bytes) is within the disk bound"
fi

# latency-report on the folder: the ring read as one capture, the dropped start said, no loss
"$LR" --json --no-progress "$RUN" >"$WORK/report.json" 2>"$WORK/report.err"
check_eq "$?" 0 "latency-report reads the run folder"
json_exprs REP "$WORK/report.json" \
	folder '.run_folders[0].capture | [.read, .files, .ring_first, .start_dropped]' \
	losses '[.losses.any, .losses.wire_incomplete_transactions, .losses.wire_discontinuities]' \
	rx '.wire.rx | [.transactions > 0, .matched > 0,
		.matched + .unmatched_transactions + .pending_at_end == .transactions]' \
	kept_part '.wire.rx | {transactions, matched, unmatched_transactions, orphan_doorbells,
		pending_at_end, begun_before_capture}' \
	hidden .capture.snap_hidden_transactions
check_eq "${REP[folder]}" "[true,$RING_FILES,$((written - RING_FILES + 1)),true]" \
	"latency-report reads the ring's $RING_FILES files and says that the start was dropped"
"$LR" --no-progress "$RUN" >"$WORK/report.txt" 2>&1
if sed -n '/^Summary/,/^Details/p' "$WORK/report.txt" |
	grep -q "^  capture: the ring dropped the run's start: the capture holds ring files $((written - RING_FILES + 1))\.\.$written of "; then
	ok "the summary says that the ring dropped the run's start"
else
	not_ok "the summary says that the ring dropped the run's start"
fi
check_eq "${REP[losses]}" "[false,0,0]" "no loss invented on the kept part"
check_eq "${REP[rx]}" "[true,true,true]" \
	"the kept part's transactions are each matched, unmatched or waiting at the end"
diag "kept part: ${REP[kept_part]}"
check_eq "${REP[hidden]}" 0 \
	"the headers-only snap hid no transaction"
done_testing
