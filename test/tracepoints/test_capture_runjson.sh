#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.json has one author (issue 31, item 1): dgrdma-capture writes it through dgrdma-runinfo.
# Three recordings, each compared field by field with a run.json the old jq writer wrote for
# the same command line (test/tracepoints/runjson-jq/, recorded before the change):
#   full:  trace + a capture ring on lo, trace files bounded (bounds), --sample-rate and
#          --fpga-buffers (stream), a command that writes a --summary-json (settings, losses)
#          and exits 3;
#   plain: --no-trace --no-pcap around false (trace and capture null, no summary);
#   flight: --flight-recorder with SIGUSR1 triggers, the recorder's run.json and its incident's.
# Every path of every file must be there with the same JSON type; the values must be equal,
# except those that differ from run to run or machine to machine (PER_RUN below: times, pids,
# the session's name, the host's facts, sizes that follow the CPU count). Each file is also
# read by latency-report's reader (dgrdma-runinfo check).
# DGR_RUNJSON_WRITE_FIXTURES=DIR writes the recordings' run.json into DIR instead (how the
# fixtures were made, with the jq writer). flight.json's flight_recorder.incident_latency_us
# (null) was added by hand: the jq writer's last version, on the branch that brought
# --incident-latency-us, wrote it there; so was flight_recorder.record (the whole run's record,
# written by dgrdma-runinfo since: its bound and size per run). full and flight record with
# --pcap-buffer 16 since (no stream: dumpcap's default 512 MiB cost a second of system CPU to
# open), their capture.buffer_size_mib changed by hand from 512; and the default's events
# without dgrdma:buffer_release (trace.events, trace.excluded_events), left out since 4 December,
# and without dgrdma:txn_complete, left out since 5 December; trace.lost and capture.lost (null:
# nothing ended before the run), added by hand since they were written (5 December).
# make check: slow

set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/tracepoints/lttng-env.sh"
tp_isolate "$@" || { not_ok "private lttng run folder"; done_testing; exit 1; }

tp_capture_suite 34000
RUNINFO=$DGR_BUILD/bin/dgrdma-runinfo
FIXTURES=$DGR_SRC/test/tracepoints/runjson-jq
tp_capture_require

# The summary a tool would write: settings (the run's facts) and dgrdma-host's losses.
cat >"$WORK/summary.json" <<'EOF'
{"status": "stopped", "samples_lost": 12, "drop_rate": 0.001, "incomplete_transactions": 1,
 "buffers_unanswered": 0, "counters": {"discontinuities": 2, "socket_drops": 0,
 "frames_missing": 3, "retransmit_giveups": 0, "other": 7},
 "settings": {"tool": "dgrdma-host", "mode": "rx", "path": "rx", "transport": "udp",
  "local": "127.0.0.1:34100", "peers": [{"address": "127.0.0.1:34101", "peer_id": 1}],
  "host_buffers": 8, "fpga_buffers": 4, "buffer_size": 16384}}
EOF

# per-run values: their type is compared, not their value
PER_RUN='^(command_pid|cwd|clocks\..*|trace\.session|trace\.subbuf_size|trace\.ring_bytes_total|trace\.num_subbuf|host\..*|capture\.ring\.bytes|capture\.ring\.files_written|capture\.ring\.files_kept|capture\.ring\.first_kept|capture\.ring\.start_dropped|capture\.drop_detail|capture\.packets_(captured|received|dropped)|bounds\.(trace|disk)_bytes|flight_recorder\.trace_memory_bytes|flight_recorder\.record\.(bound_bytes|bytes)|incident\.at\..*|capture\.files|trace\.discarded_events|trace\.lost_packets|trace\.readable|warnings\..*)$'

# flat FILE: "path type value" per leaf (empty arrays and objects are leaves), the work
# folder written WORK, per-run values left out
flat() {
	jq -r --arg work "$WORK" '
		paths(if type == "object" or type == "array" then length == 0 else true end) as $p
		| getpath($p) as $v
		| "\($p | map(tostring) | join(".")) \($v | type) \($v | tojson | gsub($work; "WORK"))"' "$1" |
		awk -v re="$PER_RUN" '$1 ~ re { print $1, $2; next } { print }' | sort
}

# compare NAME FILE: FILE against the fixture NAME, field by field. The fixtures say WORK for the
# work folder and "udp port PORT_F" for the capture filter's port: the port follows the suite's
# PID (tp_capture_suite), 34002 only where the suite is its PID namespace's first process.
compare() {
	local name=$1 file=$2
	if [ -n "${DGR_RUNJSON_WRITE_FIXTURES:-}" ]; then
		jq --arg work "$WORK" --arg port "udp port $PORT_F" \
			'walk(if type == "string" then gsub($work; "WORK") | gsub($port; "udp port PORT_F") else . end)' \
			"$file" >"$DGR_RUNJSON_WRITE_FIXTURES/$name.json"
		ok "$name: fixture written"
		return
	fi
	jq --arg work "$WORK" --arg port "udp port $PORT_F" \
		'walk(if type == "string" then gsub("WORK"; $work) | gsub("udp port PORT_F"; $port) else . end)' \
		"$FIXTURES/$name.json" >"$WORK/$name.want.json"
	if diff <(flat "$WORK/$name.want.json") <(flat "$file") >"$WORK/$name.diff"; then
		ok "$name: every field of the jq writer's run.json, with its type and value"
	else
		not_ok "$name: every field of the jq writer's run.json, with its type and value"
		sed 's/^/#   /' "$WORK/$name.diff"
	fi
	out=$("$RUNINFO" check "$file" 2>&1)
	check_eq "$?:$out" "0:" "$name: latency-report's reader takes it"
}

# ---- full ----
"$CAPTURE" -o "$WORK/full" -i lo -f "udp port $PORT_F" --pcap-buffer 16 --ring-files 4 \
	--ring-file-size 64k --trace-file-size 8M --trace-file-count 2 --sample-rate 1e6 --fpga-buffers 8 \
	-- bash -c 'cat "$0" >"$2"; exit 3' "$WORK/summary.json" --summary-json "$WORK/full.json" \
	>/dev/null 2>"$WORK/full.err"
check_eq "$?" 3 "full: the command's exit status"
compare full "$WORK/full/run.json"

# ---- plain ----
"$CAPTURE" -o "$WORK/plain" --no-trace --no-pcap -- false >/dev/null 2>"$WORK/plain.err"
check_eq "$?" 1 "plain: the command's exit status"
compare plain "$WORK/plain/run.json"

# ---- flight recorder: one incident by SIGUSR1, one more past the limit ----
if ! command -v inotifywait >/dev/null; then
	skip "flight recorder: inotifywait not installed (make deps: inotify-tools)"
	done_testing
	exit 0
fi
"$CAPTURE" -o "$WORK/flight" -i lo -f "udp port $PORT_F" --pcap-buffer 16 --flight-recorder 1 \
	--incident-after 0 --max-incidents 1 --no-event-triggers \
	-- bash -c 'cat "$0" >"$2"; while [ ! -e "$0.stop" ]; do sleep 0.1; done' \
	"$WORK/summary.json" --summary-json "$WORK/flight.json" >/dev/null 2>"$WORK/flight.err" &
CAP_PID=$!
# the command runs (dgrdma-capture took SIGUSR1 before starting it)
tp_wait_for "the command's summary" test -s "$WORK/flight.json" || not_ok "the command started"
kill -USR1 "$CAP_PID"
tp_wait_for "incident 1" test -s "$WORK/flight/incident-001/run.json" || not_ok "incident 1 written"
kill -USR1 "$CAP_PID"
tp_wait_for "a trigger past the limit" grep -q "past --max-incidents" "$WORK/flight.err" ||
	not_ok "a trigger past the limit"
touch "$WORK/summary.json.stop"
wait "$CAP_PID"
check_eq "$?" 0 "flight: the command's exit status"
CAP_PID=""
compare flight "$WORK/flight/run.json"
compare flight-incident "$WORK/flight/incident-001/run.json"
# the per-run values the writer computes: an incident's window starts seconds_before its trigger
# (ISO time to the second, as jq's todate wrote it), and every duration is end - start
check_eq "$(jq -r '.clocks.start as $s | .incident.at as $a | .incident.seconds_before as $b
	| [$s.monotonic_sec == $a.monotonic_sec - $b, $s.monotonic_nsec == $a.monotonic_nsec,
	   $s.realtime_sec == $a.realtime_sec - $b, $s.realtime_iso8601 == ($s.realtime_sec | todate)]
	| @json' "$WORK/flight/incident-001/run.json")" "[true,true,true,true]" \
	"flight-incident: clocks.start is incident.at less seconds_before"
for f in full plain flight flight/incident-001; do
	check_eq "$(jq -r '.clocks | (.end.monotonic_sec - .start.monotonic_sec) * 1000000000
		+ .end.monotonic_nsec - .start.monotonic_nsec == .duration_ns' "$WORK/$f/run.json")" true \
		"$f: clocks.duration_ns is end - start"
done

done_testing
