#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# latency-report on run folders (issue 29, item 6): the capture and the trace are the ones
# run.json's capture.path and trace.path name; a part that was recorded and cannot be read is
# refused (exit 2, one line naming the part, its path and why), a part that was not recorded is
# left out with the reason in the report; parts whose times do not overlap are named; a capture
# whose timestamps go back, or cannot be, is counted and the verdict says it rests on them.
# The trace is a real one of tp-fire (every event once), the captures are dgrdma-gen's.
# make check: slow
set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/lib/fire_traced.sh"
LR="$DGR_BUILD/bin/latency-report"
GEN="$DGR_BUILD/bin/dgrdma-gen"
FIRE="$DGR_BUILD/test/tracepoints/tp-fire"
RELINK="$DGR_SRC/test/analysis/relink.py"
require_built "$DGR_BUILD/bin" latency-report dgrdma-gen
# Under /tmp, open to every user, with latency-report and its trace reader copied in, laid out as
# installed (bin/, lib/dgrdma-tools/): the unreadable parts are read as nobody, who may not be
# able to go through the folders above the build (a CI clone in a mktemp folder of mode 0700).
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dgrdma-run-folder.XXXXXX")
chmod 755 "$tmp"
mkdir -p "$tmp/bin" "$tmp/lib/dgrdma-tools"
cp "$LR" "$tmp/bin/latency-report"
cp "$DGR_BUILD/lib/dgrdma-tools/dgrdma-trace.so" "$tmp/lib/dgrdma-tools/"
LR="$tmp/bin/latency-report"
sess="dgr-run-folder-$$"
sessiond_pid=""
cleanup() {
	lttng destroy "$sess" >/dev/null 2>&1
	lttng destroy "$sess-two" >/dev/null 2>&1
	if [ -n "$sessiond_pid" ]; then
		kill "$sessiond_pid" 2>/dev/null
		wait "$sessiond_pid" 2>/dev/null
	fi
	chmod -R u+rwX "$tmp" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# ---- a capture whose timestamps go back, or cannot be ---------------------------------------
"$GEN" --format pcap-ns --txns 20 -o "$tmp/fwd.pcap" -e "$tmp/fwd.json" >/dev/null
python3 "$RELINK" reverse "$tmp/fwd.pcap" "$tmp/back.pcap"
"$LR" --json --no-progress "$tmp/fwd.pcap" >"$tmp/fwd.out"
check_eq "$? $(jq -r '[.capture.frames, .capture.timestamps_backwards, .capture.largest_step_back_ns, .capture.timestamps_impossible, .regime.label] | join(" ")' "$tmp/fwd.out")" \
	"0 44 0 0 0 healthy" "a capture in time order: no step back, nothing impossible, healthy"
check_eq "$(jq -r '.regime.reason | startswith("ON BAD TIMESTAMPS")' "$tmp/fwd.out")" false \
	"its verdict's reason says nothing of timestamps"
"$LR" --json --no-progress "$tmp/back.pcap" >"$tmp/back.out"
# every frame after the first goes back; the largest step is the largest gap between two frames
# of the generated run: the DCP response (t0 - 480 us) and the first data frame (t0)
check_eq "$? $(jq -r '[.capture.timestamps_backwards, .capture.largest_step_back_ns, .capture.timestamps_impossible] | join(" ")' "$tmp/back.out")" \
	"0 43 480000 0" "timestamps in reverse order: 43 steps back counted, the largest 480 us"
check_eq "$(jq -r '[.wire.rx.matched, .wire.rx.latency_ns.max, .regime.label] | join(" ")' "$tmp/back.out")" \
	"20 0 throughput-bound" "the 20 doorbell latencies are 0 ns, the verdict throughput-bound, as the issue found"
check_eq "$(jq -r '.regime.reason' "$tmp/back.out" | grep -c '^ON BAD TIMESTAMPS (the capture.s: back in time 43, impossible 0); no tolerable latency; ')" 1 \
	"the verdict's reason says it rests on them, first"
"$LR" --no-progress "$tmp/back.pcap" >"$tmp/back.txt"
check_eq "$(grep -c "note: the capture's timestamps go back 43 times (by up to 480.000 us): a latency across a step back is wrong" "$tmp/back.txt")" 1 \
	"the text report says so in the capture's section"
# record 5's sub-second field set to 1.5 s: impossible, and the next frame goes back from it
python3 "$RELINK" frac 5 1500000000 "$tmp/fwd.pcap" "$tmp/frac.pcap"
"$LR" --json --no-progress "$tmp/frac.pcap" >"$tmp/frac.out"
check_eq "$? $(jq -r '[.capture.timestamps_impossible, .capture.timestamps_backwards] | join(" ")' "$tmp/frac.out")" \
	"0 1 1" "a nanosecond field of 1.5 s: one impossible timestamp, one step back after it"
check_eq "$(jq -r '.regime.reason | startswith("ON BAD TIMESTAMPS (the capture'"'"'s: back in time 1, impossible 1); ")' "$tmp/frac.out")" true \
	"the verdict's reason names both counts"
"$LR" --no-progress "$tmp/frac.pcap" >"$tmp/frac.txt"
check_eq "$(grep -c 'note: 1 frames have a timestamp that cannot be' "$tmp/frac.txt")" 1 "the text report names the impossible one"
# A step back moves a latency across it by at most the step: a verdict whose compared values
# (p50 and p99.9 against the 76 us threshold, max against the 152 us tolerable) stand farther
# from them than the step does not rest on it. 500 ns (as frames stamped on two CPUs come) and
# 5 us: not said; 30 us, which brings p99.9 to 51.6 us, 24.4 us from the threshold: said (60 us
# turns the verdict jitter-bound). Counted each time.
python3 "$RELINK" back 30 500 "$tmp/fwd.pcap" "$tmp/small.pcap"
python3 "$RELINK" back 30 5000 "$tmp/fwd.pcap" "$tmp/step.pcap"
python3 "$RELINK" back 30 30000 "$tmp/fwd.pcap" "$tmp/near.pcap"
"$LR" --json --no-progress "$tmp/small.pcap" >"$tmp/small.out"
"$LR" --json --no-progress "$tmp/step.pcap" >"$tmp/step.out"
"$LR" --json --no-progress "$tmp/near.pcap" >"$tmp/near.out"
check_eq "$(jq -r '[.capture.timestamps_backwards, .capture.largest_step_back_ns, .regime.high_threshold_ns, .regime.label, (.regime.reason | startswith("ON BAD TIMESTAMPS"))] | join(" ")' "$tmp/small.out")" \
	"1 500 76000 healthy false" "a step back of 500 ns: counted, the verdict not said to rest on it"
check_eq "$(jq -r '[.capture.timestamps_backwards, .capture.largest_step_back_ns, .wire.rx.latency_ns.p999, .regime.label, (.regime.reason | startswith("ON BAD TIMESTAMPS"))] | join(" ")' "$tmp/step.out")" \
	"1 5000 26604 healthy false" "a step back of 5 us, p99.9 49 us from the threshold: it cannot move the verdict, not said"
check_eq "$(jq -r '[.capture.timestamps_backwards, .capture.largest_step_back_ns, .wire.rx.latency_ns.p999, .regime.label, (.regime.reason | startswith("ON BAD TIMESTAMPS (the capture'"'"'s: back in time 1, impossible 0); "))] | join(" ")' "$tmp/near.out")" \
	"1 30000 51604 healthy true" "a step back of 30 us, p99.9 24 us from the threshold: the verdict says it rests on the capture's times"
# Record 31 (a doorbell) 100 us back: its latency is recorded as 0. The histogram shows bin 0 and
# the body's bins, not the twelve empty bins between them.
python3 "$RELINK" back 31 100000 "$tmp/fwd.pcap" "$tmp/zero.pcap"
"$LR" --no-progress "$tmp/zero.pcap" >"$tmp/zero.txt"
check_eq "$(sed -n '/^On the wire/,/^Connections/p' "$tmp/zero.txt" | sed -n '/histogram (log2 bins):/,$p' | sed -n '2,$p' |
	grep '^ *\[' | tr -s ' ' | tr '\n' '|')" \
	" [ 0 ns, 2 ns) 1 ##| [ 8.192 us, 16.384 us) 19 ######################################|" \
	"a latency of 0 and 19 of 8-16 us: the text histogram has their two bins and no empty one between"
"$GEN" --format pcap --txns 20 -o "$tmp/us.pcap" -e "$tmp/us.json" >/dev/null
python3 "$RELINK" frac 3 1000000 "$tmp/us.pcap" "$tmp/us-frac.pcap"
"$LR" --json --no-progress "$tmp/us-frac.pcap" >"$tmp/us-frac.out"
check_eq "$(jq -r '.capture.timestamps_impossible' "$tmp/us-frac.out")" 1 \
	"a microsecond pcap with a microsecond field of 1000000: impossible"

# ---- the parts of a run folder ----------------------------------------------------------------
# A real trace of tp-fire: its events carry the time it ran (on the real-time axis).
have_trace=0
if command -v lttng >/dev/null && command -v lttng-sessiond >/dev/null && command -v babeltrace2 >/dev/null &&
	[ -x "$FIRE" ]; then
	if ! lttng list >/dev/null 2>&1; then
		lttng-sessiond >/dev/null 2>&1 &
		sessiond_pid=$!
		for _ in $(seq 50); do
			lttng list >/dev/null 2>&1 && break
			nap 0.1
		done
	fi
	# only our tp-fire
	if dgr_fire_traced "$tmp/trace" "$sess" "$tmp/lttng.log" 1 'dgrdma:*' 'dgrdma_fpga:*'; then
		have_trace=1
	fi
	fire_pid=${DGR_FIRE_PIDS[0]}
	if [ "$have_trace" = 0 ]; then
		diag "no LTTng session here: $(tail -1 "$tmp/lttng.log")"
	fi
fi
if [ "$have_trace" = 0 ]; then
	skip "no trace (lttng-tools, babeltrace2 or tp-fire missing, or no session here)"
	done_testing
	exit
fi
# the trace's first event, in seconds since the epoch
tsec=$(babeltrace2 --clock-seconds "$tmp/trace" | head -1 | sed 's/^\[\([0-9]*\)\..*/\1/')
# a capture of the same time: dgrdma-gen's run starts at 1 s and lasts 40 x 250 ms; moved to
# start a second before the trace's
"$GEN" --format pcap-ns --txns 40 --period-ns 250000000 -o "$tmp/gen.pcap" -e "$tmp/gen.json" >/dev/null
python3 "$RELINK" shift $((tsec - 2)) "$tmp/gen.pcap" "$tmp/same-time.pcap"
chmod -R a+rX "$tmp"
run_json() { # CAPTURE-JSON TRACE-JSON: a run.json as dgrdma-capture writes it, around the trace
	printf '{"format": "dgrdma-run/1", "command": ["dgrdma-host", "rx"], "command_pid": %s, "exit_status": 0,
 "clocks": {"start": {"monotonic_sec": 100, "monotonic_nsec": 0, "realtime_sec": %s, "realtime_nsec": 0, "uncertainty_ns": 20},
            "end": {"monotonic_sec": 110, "monotonic_nsec": 0, "realtime_sec": %s, "realtime_nsec": 0, "uncertainty_ns": 20},
            "duration_ns": 10000000000},
 "capture": %s, "trace": %s}\n' "$fire_pid" $((tsec - 1)) $((tsec + 9)) "$1" "$2"
}
good="$tmp/good"
mkdir -p "$good"
cp "$tmp/same-time.pcap" "$good/capture.pcapng"
cp -r "$tmp/trace" "$good/trace"
run_json '{"path": "capture.pcapng", "interface": "lo"}' '{"path": "trace", "readable": null}' >"$good/run.json"
chmod -R a+rX "$good"
"$LR" --json --no-progress "$good" >"$tmp/good.out" 2>"$tmp/good.err"
check_eq "$? $(wc -c <"$tmp/good.err")" "0 0" "a whole run folder: exit 0, nothing on stderr"
check_eq "$(jq -c '.run_folders[0] | [.run_json, .capture.read, .capture.path, .trace.read, .trace.path]' "$tmp/good.out")" \
	"[true,true,\"$good/capture.pcapng\",true,\"$good/trace\"]" "both parts read, from run.json's paths"
check_eq "$(jq -r '[.wire.rx.matched, .host.events, (.parts_apart | length), .regime.label] | join(" ")' "$tmp/good.out")" \
	"40 25 0 healthy" "the capture's 40 doorbells and the trace's 25 events; parts that belong together; healthy"

# refused DIR MESSAGE NAME: exit 2, one line on stderr with the message, no report
refused() {
	local rc
	"${as_user[@]}" "$LR" --json --no-progress "$1" >"$tmp/r.out" 2>"$tmp/r.err"
	rc=$?
	check_eq "$rc $(grep -c . "$tmp/r.err") $(grep -cF -- "$2" "$tmp/r.err") $(wc -c <"$tmp/r.out")" \
		"2 1 1 0" "$3: exit 2, the part named ($2), no report"
	[ "$rc" = 2 ] || diag "$(head -c 300 "$tmp/r.err")"
}
fresh() { # a copy of the whole run folder in $tmp/c
	chmod -R u+rwX "$tmp/c" 2>/dev/null
	rm -rf "$tmp/c"
	cp -r "$good" "$tmp/c"
	chmod -R a+rX "$tmp/c"
}
as_user=()
c="$tmp/c"
cap_says="the capture $c/capture.pcapng (run.json's capture.path) cannot be read"
trace_says="the trace $c/trace (run.json's trace.path) cannot be read"
fresh
rm "$c/capture.pcapng"
refused "$c" "$cap_says: No such file or directory" "capture missing"
fresh
: >"$c/capture.pcapng"
refused "$c" "$cap_says: empty (0 bytes)" "capture empty"
fresh
rm "$c/capture.pcapng"
mkdir "$c/capture.pcapng"
# a folder named by capture.path is a ring of capture files (dgrdma-capture --ring-files)
refused "$c" "$cap_says: a folder without capture files (a ring of pcap or pcapng files)" \
	"capture an empty folder"
fresh
ln -sf capture.pcapng "$c/capture.pcapng"
refused "$c" "$cap_says: Too many levels of symbolic links" "capture a symbolic link loop"
fresh
printf 'not a capture at all' >"$c/capture.pcapng"
refused "$c" "$cap_says: not a pcap or pcapng capture (no magic number)" "capture that is no capture"
fresh
rm -r "$c/trace"
refused "$c" "$trace_says: No such file or directory" "trace missing"
fresh
rm -r "$c/trace"
mkdir "$c/trace"
refused "$c" "$trace_says: an empty folder" "trace an empty folder"
fresh
rm -r "$c/trace"
echo "a file" >"$c/trace"
refused "$c" "$trace_says: a file, not a trace folder" "trace a file"
fresh
rm -r "$c/trace"
ln -s trace "$c/trace"
refused "$c" "$trace_says: Too many levels of symbolic links" "trace a symbolic link loop"
fresh
find "$c/trace" -name metadata -delete
refused "$c" "$trace_says: no CTF trace (no 'metadata' file) below it" "trace without metadata"
fresh
rm "$c/run.json"
ln -s run.json "$c/run.json"
refused "$c" "$c/run.json: Too many levels of symbolic links" "run.json a symbolic link loop"
# a part that dgrdma-capture says ended before the run did (its .lost): refused whole, read
# when given alone
fresh
run_json '{"path": "capture.pcapng", "interface": "lo", "lost": "dumpcap ended during the run (exit 2: interface went down)"}' \
	'{"path": "trace", "readable": null}' >"$c/run.json"
refused "$c" "the capture $c/capture.pcapng ends before the run did (capture.lost: dumpcap ended during the run (exit 2: interface went down)); give it alone for what it holds" \
	"capture lost during the run (run.json's capture.lost)"
"$LR" --json --no-progress "$c/capture.pcapng" >"$tmp/r.out" 2>/dev/null
check_eq "$? $(jq -r '.wire.rx.matched' "$tmp/r.out")" "0 40" "that capture given alone: read for what it holds"
fresh
run_json '{"path": "capture.pcapng", "interface": "lo"}' \
	'{"path": "trace", "readable": null, "lost": "lttng stop failed (No session daemon is available): the session stopped or ended during the run"}' >"$c/run.json"
refused "$c" "the trace $c/trace ends before the run did (trace.lost: lttng stop failed (No session daemon is available): the session stopped or ended during the run); give it alone for what it holds" \
	"trace lost during the run (run.json's trace.lost)"
fresh
jq '.kernel = {"path": "kernel", "lost": "perf record ended during the run (killed by SIGKILL)"}' "$good/run.json" >"$c/run.json"
refused "$c" "latency-report: $c: the kernel's trace ends before the run did (run.json's kernel.lost: perf record ended during the run (killed by SIGKILL)); give it with --kernel-trace for what it holds" \
	"kernel trace lost during the run (run.json's kernel.lost)"
fresh
run_json '{"path": "capture.pcapng", "interface": "lo"}' '{"path": "trace", "lost": 5}' >"$c/run.json"
refused "$c" "trace.lost: 5, expected a string or null" "trace.lost neither a string nor null"
# without run.json, the parts under dgrdma-capture's names must be readable all the same
fresh
rm "$c/run.json"
: >"$c/capture.pcapng"
refused "$c" "the capture $c/capture.pcapng (in the run folder) cannot be read: empty (0 bytes)" \
	"no run.json, capture.pcapng empty"
fresh
rm "$c/run.json"
rm -r "$c/trace"
ln -s nowhere "$c/trace"
refused "$c" "the trace $c/trace (in the run folder) cannot be read: No such file or directory" \
	"no run.json, trace a broken link"

# Unreadable parts: root reads files of mode 000, so as root the reader runs as nobody.
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null; then
		as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	else
		as_user=(none)
	fi
fi
if [ "${as_user[0]:-}" = none ]; then
	skip "as root without setpriv: no user for whom a file of mode 000 is unreadable"
else
	fresh
	"${as_user[@]}" "$LR" --json --no-progress "$c" >"$tmp/u.out" 2>"$tmp/u.err"
	check_eq "$? $(jq -r '.host.events' "$tmp/u.out")" "0 25" "the readable folder, read by the same user: exit 0"
	chmod 000 "$c/capture.pcapng"
	refused "$c" "$cap_says: Permission denied" "capture unreadable (mode 000, read by a normal user)"
	fresh
	chmod 000 "$c/trace"
	refused "$c" "$trace_says: Permission denied" "trace unreadable (mode 000)"
	fresh
	ust=$(find "$c/trace" -mindepth 1 -maxdepth 1 -type d | head -1)
	chmod 000 "$ust"
	refused "$c" "$trace_says: no CTF trace (no 'metadata' file) below it: ${ust#"$c/trace/"}: Permission denied" \
		"a folder inside the trace unreadable: named"
	fresh
	chmod 000 "$c/run.json"
	refused "$c" "$c/run.json: Permission denied" "run.json unreadable"
fi
as_user=()

# run.json's paths are honoured: the parts elsewhere in the folder, and another capture under the
# usual name that must not be read
fresh
mkdir -p "$c/pcap" "$c/lttng"
mv "$c/capture.pcapng" "$c/pcap/run-7.pcapng"
mv "$c/trace" "$c/lttng/trace-7"
"$GEN" --txns 5 -o "$c/capture.pcapng" -e "$tmp/other.json" >/dev/null
run_json '{"path": "pcap/run-7.pcapng"}' '{"path": "lttng/trace-7"}' >"$c/run.json"
"$LR" --json --no-progress "$c" >"$tmp/p.out" 2>"$tmp/p.err"
check_eq "$? $(jq -r '[.run_folders[0].capture.path, .run_folders[0].trace.path, .wire.rx.matched, .host.events] | join(" ")' "$tmp/p.out")" \
	"0 $c/pcap/run-7.pcapng $c/lttng/trace-7 40 25" "capture.path and trace.path read, relative to the folder (not capture.pcapng)"
run_json '{"path": "pcap/run-8.pcapng"}' '{"path": "lttng/trace-7"}' >"$c/run.json"
refused "$c" "the capture $c/pcap/run-8.pcapng (run.json's capture.path) cannot be read: No such file or directory" \
	"a capture.path that is not there (capture.pcapng is not taken instead)"
run_json '{"path": 7}' '{"path": "trace"}' >"$c/run.json"
refused "$c" "/c/run.json: capture.path: 7, expected a string" "a capture.path that is no string"
run_json '{"path": "pcap/run-7.pcapng"}' '{"path": "lttng/trace-7", "trace_pids": [0]}' >"$c/run.json"
refused "$c" "/c/run.json: trace.trace_pids[0]: 0 is out of range 1..4194304" "a trace_pids entry that is no pid"
run_json '{"path": "pcap/run-7.pcapng"}' '{"path": "lttng/trace-7", "readable": "yes"}' >"$c/run.json"
refused "$c" "/c/run.json: trace.readable: a string, expected true/false or null" "a trace.readable that is no boolean"
run_json '{"interface": "lo"}' '{"path": "trace"}' >"$c/run.json"
refused "$c" "/c/run.json: capture.path: missing (a recorded capture has its path in the folder)" \
	"a recorded capture without its path"

# Parts not recorded: left out, and the report says why (text and JSON); exit 0
fresh
rm -r "$c/trace"
run_json '{"path": "capture.pcapng"}' null >"$c/run.json"
"$LR" --json --no-progress "$c" >"$tmp/n.out" 2>"$tmp/n.err"
check_eq "$? $(jq -c '[.run_folders[0].trace, (.host == null), .wire.rx.matched]' "$tmp/n.out")" \
	'0 [{"read":false,"why":"not recorded (run.json: \"trace\": null)"},true,40]' "a trace not recorded (dgrdma-capture --no-trace): left out, said why"
"$LR" --no-progress "$c" >"$tmp/n.txt" 2>&1
check_eq "$(grep -c 'left out: not recorded (run.json: "trace": null)' "$tmp/n.txt")" 1 "and the text report says so"
fresh
rm "$c/capture.pcapng"
run_json null '{"path": "trace"}' >"$c/run.json"
"$LR" --json --no-progress "$c" >"$tmp/n.out" 2>"$tmp/n.err"
check_eq "$? $(jq -c '[.run_folders[0].capture, (.wire == null), .host.events]' "$tmp/n.out")" \
	'0 [{"read":false,"why":"not recorded (run.json: \"capture\": null)"},true,25]' "a capture not recorded (--no-pcap): left out, said why"
run_json null '{"path": null}' >"$c/run.json"
"$LR" --json --no-progress "$c" "$c/trace" >"$tmp/n.out" 2>"$tmp/n.err"
check_eq "$? $(jq -r '[.run_folders[0].trace.why, .host.events] | join(" ")' "$tmp/n.out")" \
	"0 recorded by a relay daemon outside the folder (run.json: trace.path null): give that trace folder as another INPUT 25" \
	"a trace sent to a given relayd (trace.path null): said where, read from the INPUT given"
fresh
rm -r "$c/trace" "$c/run.json"
"$LR" --json --no-progress "$c" >"$tmp/n.out" 2>"$tmp/n.err"
check_eq "$? $(jq -r '.run_folders[0] | [.run_json, .trace.why] | join(" ")' "$tmp/n.out")" \
	"0 false none in the folder (no trace folder, no CTF metadata below it, and no run.json)" \
	"a folder with a capture only: the trace's absence said"

# Parts that do not belong together: a capture of another run (dgrdma-gen's, in 1970)
fresh
cp "$tmp/gen.pcap" "$c/capture.pcapng"
"$LR" --json --no-progress "$c" >"$tmp/a.out" 2>"$tmp/a.err"
check_eq "$? $(jq -r '.parts_apart | length' "$tmp/a.out") $(grep -c '^latency-report: warning: the capture (from 1970-01-01T00:00:00Z, ' "$tmp/a.err")" \
	"0 2 2" "a capture of another run: named twice (against the trace, against run.json's clocks), on stderr too"
check_eq "$(jq -r '.parts_apart[0]' "$tmp/a.out" | grep -c "^the capture (from 1970-01-01T00:00:00Z, 9.751 s) and the trace (from .*) do not overlap in time: parts of different runs?$")" 1 \
	"the capture and the trace, with their starts and lengths"
check_eq "$(jq -r '.parts_apart[1]' "$tmp/a.out" | grep -c "^the capture (from 1970-01-01T00:00:00Z, 9.751 s) and run.json's clocks (from .*, 10.000 s) do not overlap in time")" 1 \
	"the capture and run.json's clocks"
"$LR" --no-progress "$c" >"$tmp/a.txt" 2>/dev/null
check_eq "$(grep -c '^Parts that do not belong together' "$tmp/a.txt")" 1 "the text report has them under their own heading"
rm -r "$c/trace"
run_json '{"path": "capture.pcapng"}' null >"$c/run.json"
"$LR" --json --no-progress "$c" >"$tmp/a.out" 2>"$tmp/a.err"
check_eq "$? $(jq -r '.parts_apart | length' "$tmp/a.out") $(jq -r '.parts_apart[0]' "$tmp/a.out" | grep -c "^the capture .* and run.json's clocks .* do not overlap")" \
	"0 1 1" "without a trace, against run.json's clocks alone"
# ---- whose trace events count (issue 32) -------------------------------------------------------
# Two processes in one trace, as per-user buffers record another dgrdma-host of the user: run.json's
# command_pid chooses this run's events of its command's provider (the host's, dgrdma), the
# others are left out and counted; the emulator's provider (dgrdma_fpga) counts from every process.
if dgr_fire_traced "$tmp/m/trace" "$sess-two" "$tmp/lttng-two.log" 2 'dgrdma:*' 'dgrdma_fpga:*'; then
	pid1=${DGR_FIRE_PIDS[0]} pid2=${DGR_FIRE_PIDS[1]}
	m="$tmp/m"
	pids_json() { # COMMAND-PID COMMAND TRACE-PIDS: run.json of a trace-only run
		printf '{"format": "dgrdma-run/1", "command": ["%s", "rx"], "command_pid": %s, "capture": null, "trace": {"path": "trace", "trace_pids": %s}}\n' \
			"$2" "$1" "$3" >"$m/run.json"
	}
	host_of() { # the host section's choice and counts
		jq -c '.host | [.processes_from, .only_pids_provider, .only_pids, .events, .events_seen.other_pids, .processes, .rx.transactions]' "$1"
	}
	pids_json "$pid2" dgrdma-host '[]'
	"$LR" --json --no-progress "$m" >"$tmp/m.out" 2>"$tmp/m.err"
	check_eq "$? $(host_of "$tmp/m.out")" "0 [\"run.json\",\"dgrdma\",[$pid2],34,16,1,1]" \
		"run.json's command_pid: its 16 host events and both processes' 18 emulator events; the other's 16 host events left out"
	"$LR" --no-progress "$m" >"$tmp/m.txt" 2>&1
	check_eq "$(grep -c "note: only the dgrdma events of this run's processes count (vpid $pid2: run.json's command_pid); 16 events of other processes left out (--pid PID chooses others)" "$tmp/m.txt") $(grep -c 'note: these numbers mix' "$tmp/m.txt")" \
		"1 0" "the text report says whose events count and how many were left out"
	"$LR" --json --no-progress --pid "$pid1" "$m" >"$tmp/m.out" 2>"$tmp/m.err"
	check_eq "$? $(host_of "$tmp/m.out")" "0 [\"--pid\",null,[$pid1],25,25,1,1]" "--pid chooses instead, for every provider"
	pids_json "$pid2" dgrdma-host "[$pid1]"
	"$LR" --json --no-progress "$m" >"$tmp/m.out" 2>"$tmp/m.err"
	check_eq "$? $(host_of "$tmp/m.out")" "0 [\"run.json\",\"dgrdma\",[$pid2,$pid1],50,0,2,2]" \
		"run.json's trace_pids (--trace-pid) count too"
	pids_json "$pid2" dgrdma-fpga '[]'
	"$LR" --json --no-progress "$m" >"$tmp/m.out" 2>"$tmp/m.err"
	check_eq "$? $(host_of "$tmp/m.out")" "0 [\"run.json\",\"dgrdma_fpga\",[$pid2],41,9,2,2]" \
		"an emulator's run: the choice applies to the emulator's provider"
	# format 2: the provider is the recorded tool's own (run.json's settings.tool), whatever the
	# command line; a run without settings (no --summary-json) takes it from the program's name
	# alone, never from its arguments, so an emulator traced beside it still counts
	printf '{"format": "dgrdma-run/2", "command": ["sh", "-c", "dgrdma-host rx"], "command_pid": %s, "capture": null, "trace": {"path": "trace", "trace_pids": []}, "settings": {"tool": "dgrdma-fpga", "path": "rx"}}\n' \
		"$pid2" >"$m/run.json"
	"$LR" --json --no-progress "$m" >"$tmp/m.out" 2>"$tmp/m.err"
	check_eq "$? $(host_of "$tmp/m.out")" "0 [\"run.json\",\"dgrdma_fpga\",[$pid2],41,9,2,2]" \
		"format 2: settings.tool dgrdma-fpga chooses the emulator's provider, not the command line"
	printf '{"format": "dgrdma-run/2", "command": ["dgrdma-host", "rx"], "command_pid": %s, "capture": null, "trace": {"path": "trace", "trace_pids": []}, "settings": null}\n' \
		"$pid2" >"$m/run.json"
	"$LR" --json --no-progress "$m" >"$tmp/m.out" 2>"$tmp/m.err"
	check_eq "$? $(host_of "$tmp/m.out")" "0 [\"run.json\",\"dgrdma\",[$pid2],34,16,1,1]" \
		"format 2 without settings: the provider of the program dgrdma-host, as with its settings"
	printf '{"format": "dgrdma-run/2", "command": ["sh", "-c", "dgrdma-host rx"], "command_pid": %s, "capture": null, "trace": {"path": "trace", "trace_pids": []}, "settings": null}\n' \
		"$pid2" >"$m/run.json"
	"$LR" --json --no-progress "$m" >"$tmp/m.out" 2>"$tmp/m.err"
	check_eq "$? $(host_of "$tmp/m.out")" "0 [\"run.json\",null,[$pid2],25,25,1,1]" \
		"format 2 without settings, another program (sh -c ...): command_pid's events of every provider, its arguments not read"
	# a command run through a wrapper traces under another pid: no event of command_pid
	pids_json $$ dgrdma-host '[]'
	"$LR" --json --no-progress "$m" >"$tmp/m.out" 2>"$tmp/m.err"
	check_eq "$? $(host_of "$tmp/m.out")" "0 [\"all\",null,[],50,0,2,2]" \
		"a command_pid without any event (a wrapper's): every process's events count"
	"$LR" --no-progress "$m" >"$tmp/m.txt" 2>&1
	check_eq "$(grep -c "note: run.json's command_pid $$ has no event in the trace (a command run through a wrapper" "$tmp/m.txt")" 1 \
		"and the text report says why"
else
	not_ok "a session recording two processes: $(tail -1 "$tmp/lttng-two.log")"
fi

# A run in which nothing arrived (a capture of no frame, no trace): said so, never a regime
fresh
head -c 24 "$tmp/fwd.pcap" >"$c/capture.pcapng"
rm -r "$c/trace"
run_json '{"path": "capture.pcapng"}' null >"$c/run.json"
"$LR" --json --no-progress "$c" >"$tmp/z.out" 2>"$tmp/z.err"
check_eq "$? $(jq -r '[.capture.frames, .regime.label] | join(" ")' "$tmp/z.out") $(jq -r .regime.reason "$tmp/z.out" | grep -c '^no data transaction in the capture or the trace: the stream never started')" \
	"0 0 unknown 1" "nothing arrived: verdict unknown, the reason says the stream never started"
done_testing
