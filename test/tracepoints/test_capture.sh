#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-capture on tp-fire (UDP to 127.0.0.1 + every tracepoint): a complete run folder
# (trace/ read by babeltrace2, capture.pcapng read by tshark, run.json valid for jq, with
# the exact counts), the capture inference, the ring sizing, interruption (command killed,
# dgrdma-capture interrupted) and the argument errors.
# make check: slow

set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/tracepoints/lttng-env.sh"
. "$DGR_SRC/test/lib/json.sh"
tp_isolate "$@" || { not_ok "private lttng run folder"; done_testing; exit 1; }
. "$DGR_SRC/test/dissectors/lib-tshark.sh"

CAPTURE=$DGR_BUILD/bin/dgrdma-capture
FIRE=$DGR_BUILD/test/tracepoints/tp-fire
WORK=$(mktemp -d)
# Ports below the ephemeral range, unique per run, so that no other suite's traffic matches.
PORT_A=$((20000 + $$ % 9000))
PORT_B=$((PORT_A + 1))
BG_PID=""
BG2_PID=""
cleanup() {
	[ -n "$BG_PID" ] && kill -KILL "$BG_PID" 2>/dev/null
	[ -n "$BG2_PID" ] && kill -KILL "$BG2_PID" 2>/dev/null
	tp_lttng_teardown
	rm -rf "$WORK"
}
trap cleanup EXIT

if ! tp_lttng_setup; then
	skip "$TP_LTTNG_WHY"
	done_testing
	exit 0
fi
# The probe waits out its second on the idle loopback: it runs beside the runs below, which
# need no capture, and is asked for its answer before the first run that captures.
dumpcap -i lo -c 1 -a duration:1 -w "$WORK/probe.pcapng" -q >/dev/null 2>&1 &
PROBE_PID=$!

json_valid() {
	jq -e . "$1" >/dev/null
}

jqr() {
	jq -r "$1" "$2/run.json"
}

# wait_ready FILE: until tp-fire has fired its events (registered with LTTng); at most 60 s.
wait_ready() {
	local n
	for ((n = 0; n < 600; n++)); do
		[ -e "$1" ] && return 0
		nap 0.1
	done
	return 1
}

# events_of_pid TRACE PID: the events of that process, "provider:event" per line.
events_of_pid() {
	babeltrace2 "$1" | events_in_text "$2"
}

# other_start NAME CAPTURE-OPTIONS...: a run in the background whose command lets another
# tp-fire go (the session is up by then), and fires itself 0.5 s later; other_wait NAME: its
# end, with CAP_RC (dgrdma-capture's status) and OTHER_PID (the other tp-fire's).
declare -A OTHER_OF CAP_OF
other_start() {
	local name=$1 go=$WORK/$1.go
	shift
	mkfifo "$go"
	(read -r _ <"$go" && exec "$FIRE" >/dev/null 2>&1) &
	OTHER_OF[$name]=$!
	"$CAPTURE" -o "$WORK/$name" --no-pcap "$@" ${TRACE_OTHER:+--trace-pid "${OTHER_OF[$name]}"} -- \
		sh -c "echo go >'$go'; sleep 0.5; exec '$FIRE'" >/dev/null 2>"$WORK/$name.err" &
	CAP_OF[$name]=$!
}
other_wait() {
	wait "${CAP_OF[$1]}"
	CAP_RC=$?
	OTHER_PID=${OTHER_OF[$1]}
	wait "$OTHER_PID"
}

# events_in_text PID: the same from babeltrace2's text on stdin.
events_in_text() {
	grep -F "vpid = $1," | sed -n 's/^\[[^]]*\] ([^)]*) [^ ]* \([a-z_]*:[a-z_]*\):.*/\1/p'
}

# ---- dgrdma-clocks ----------------------------------------------------------------------------

clocks=$("$DGR_BUILD/bin/dgrdma-clocks" --json)
check_eq "$(jq -r '[(.monotonic_nsec < 1000000000), (.realtime_nsec < 1000000000),
	(.realtime_iso8601 | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\\.[0-9]{9}Z$")),
	(.realtime_sec > 1000000000)] | @json' <<<"$clocks")" "[true,true,true,true]" \
	"dgrdma-clocks --json: both clocks in seconds + nanoseconds, ISO time"
"$DGR_BUILD/bin/dgrdma-clocks" --bogus >/dev/null 2>&1
check_eq "$?" 2 "dgrdma-clocks: an unknown argument exits 2"

# ---- argument errors --------------------------------------------------------------------

out=$("$CAPTURE" --snaplen -5 -- true 2>&1)
check_eq "$?" 2 "bad --snaplen exits 2"
case $out in *"--snaplen: '-5' is out of range 0..262144"*) ok "bad --snaplen names the range" ;;
*) not_ok "bad --snaplen names the range"; diag "$out" ;; esac
out=$("$CAPTURE" --sample-rate 200m -- true 2>&1)
check_eq "$?" 2 "bad --sample-rate exits 2"
case $out in *"--sample-rate: '200m' is not a number (accepted: 1..1e10 samples/s; e.g. 200e6 or 200M)"*)
	ok "bad --sample-rate is called no number, with the accepted form" ;;
*) not_ok "bad --sample-rate is called no number, with the accepted form"; diag "$out" ;; esac
out=$("$CAPTURE" --fpga-buffers 70000 -- true 2>&1)
case $out in *"--fpga-buffers: '70000' is out of range 2..64"*) ok "--fpga-buffers 70000 refused" ;;
*) not_ok "--fpga-buffers 70000 refused"; diag "$out" ;; esac
out=$("$CAPTURE" --num-subbuf 3 -- true 2>&1)
case $out in *"--num-subbuf: must be a power of two in [2, 1024]"*) ok "--num-subbuf 3 refused" ;;
*) not_ok "--num-subbuf 3 refused"; diag "$out" ;; esac
out=$("$CAPTURE" --subbuf-size 3M -- true 2>&1)
case $out in *"--subbuf-size: must be a power of two in [4k, 1G]"*) ok "--subbuf-size 3M refused" ;;
*) not_ok "--subbuf-size 3M refused"; diag "$out" ;; esac
"$CAPTURE" --no-trace >/dev/null 2>&1
check_eq "$?" 2 "no command exits 2"
mkdir -p "$WORK/full" && echo keep >"$WORK/full/precious"
"$CAPTURE" -o "$WORK/full" --no-trace --no-pcap -- true 2>/dev/null
check_eq "$?:$(cat "$WORK/full/precious")" "2:keep" "a non-empty --output folder is refused and left alone"
out=$("$CAPTURE" -o "$WORK/noif" --no-trace -- true 2>&1)
case $out in *"give --if IFACE or --no-pcap"*) ok "no transport flags and no --if: asks for --if" ;;
*) not_ok "no transport flags and no --if: asks for --if"; diag "$out" ;; esac

# ---- no capture, no trace: exit status and run.json ------------------------------------

# The runs of dgrdma-capture spend most of their time waiting (the session daemon, the relayd,
# their own polls): runs that share nothing run at once, in groups, and are checked after. A
# group that traces tp-fire holds no run whose checks read a whole trace (every process of the
# user is in every session: "early", the --only-command runs), nor "lossy", whose two million
# events would be in the others' traces too (it runs beside the --only-command pair, whose
# sessions record their own processes only). First the runs without tp-fire.
"$CAPTURE" -o "$WORK/plain" --no-trace --no-pcap -- sh -c 'exit 7' 2>/dev/null &
P_PLAIN=$!
"$CAPTURE" -o "$WORK/missing" --no-trace --no-pcap -- "$WORK/no-such-program" 2>/dev/null &
P_MISSING=$!
"$CAPTURE" -o "$WORK/json" --no-trace --no-pcap --json -- true >"$WORK/json.out" 2>/dev/null &
P_JSON=$!
"$CAPTURE" -o "$WORK/stream" --no-trace --no-pcap --sample-rate 2.5e8 --fpga-buffers 4 -- true 2>/dev/null &
P_STREAM=$!
"$CAPTURE" -o "$WORK/stream2" --no-trace --no-pcap --sample-rate 200M -- true 2>/dev/null &
P_STREAM2=$!
"$CAPTURE" -o "$WORK/early" --no-pcap -- sh -c 'kill -KILL $$' 2>/dev/null &
P_EARLY=$!
# the sizing runs' checks read their settings, not their traces
# 10000 events/s * 64 bytes * 0.5 s = 320000 bytes / 4 sub-buffers -> 131072 (power of two)
"$CAPTURE" -o "$WORK/sizing" --no-pcap --event-rate 10000 --num-subbuf 4 -- true 2>/dev/null &
P_SIZING=$!
"$CAPTURE" -o "$WORK/sizing2" --no-pcap --subbuf-size 2M -- true 2>/dev/null &
P_SIZING2=$!
wait "$P_PLAIN"
check_eq "$?" 7 "exit status of the command is passed on"
# a run folder's values read below in one jq (json_exprs, test/lib/json.sh), not one each
json_exprs PLAIN "$WORK/plain/run.json" \
	run '[.format, .exit_status, .interrupted, .trace, .capture] | @json' settings .settings \
	kernel .host.kernel startup '.clocks.startup_ms | (type == "number" and . >= 0 and . == floor)' \
	rmem_max '.host.sysctls["net.core.rmem_max"]'
check_eq "${PLAIN[run]}" \
	'["dgrdma-run/2",7,false,null,null]' "run.json without trace and capture"
check_eq "${PLAIN[settings]}" null "a command that wrote no --summary-json: run.json's settings are null"
check_eq "${PLAIN[kernel]}" "$(uname -r)" "run.json host.kernel"
check_eq "${PLAIN[startup]}" true \
	"run.json clocks.startup_ms: the whole milliseconds before the command started"
check_eq "${PLAIN[rmem_max]}" \
	"$(cat /proc/sys/net/core/rmem_max)" "run.json host.sysctls records net.core.rmem_max"

wait "$P_MISSING"
check_eq "$?:$(jqr '.warnings[0]' "$WORK/missing")" \
	"127:command not found or not executable: $WORK/no-such-program" \
	"a missing command: exit 127 and a warning"
wait "$P_JSON"
check "--json prints run.json on stdout" cmp -s "$WORK/json.out" "$WORK/json/run.json"
check_eq "$(jqr '.stream | @json' "$WORK/json")" "{}" "no stream facts given: run.json's stream is empty"
wait "$P_STREAM"
check_eq "$(jqr '.stream | @json' "$WORK/stream")" '{"sample_rate":250000000,"fpga_buffers":4}' \
	"--sample-rate 2.5e8 --fpga-buffers 4 recorded in run.json's stream"
wait "$P_STREAM2"
check_eq "$(jqr '.stream.sample_rate' "$WORK/stream2")" 200000000 "--sample-rate 200M is 200e6"
# ---- a command killed before it traced anything -----------------------------------------
wait "$P_EARLY"
check_eq "$?" 137 "a command killed at once: exit 137"
check_eq "$(jqr '[.interrupted, .trace.readable, (.warnings | length)] | @json' "$WORK/early")" \
	'[true,false,1]' "run.json: an unreadable trace is flagged (readable false, one warning)"

# ---- ring sizing -------------------------------------------------------------------------

wait "$P_SIZING"
check_eq "$(jqr '[.trace.subbuf_size, .trace.num_subbuf, .trace.subbuf_size_source] | @json' \
	"$WORK/sizing")" '[131072,4,"computed"]' "sub-buffers sized from --event-rate"
check "lttng channel created with the computed size" \
	grep -q -- "--subbuf-size=131072 --num-subbuf=4" "$WORK/sizing/lttng.log"
wait "$P_SIZING2"
check_eq "$(jqr '[.trace.subbuf_size, .trace.num_subbuf, .trace.subbuf_size_source] | @json' \
	"$WORK/sizing2")" '[2097152,8,"option"]' "--subbuf-size overrides the computed size"

# ---- --events ------------------------------------------------------------------------------

# together: their checks read their own command's events (events_of_pid)
"$CAPTURE" -o "$WORK/events" --no-pcap --events 'dgrdma_fpga:*' -- "$FIRE" 2>/dev/null &
P_EVENTS=$!
"$CAPTURE" -o "$WORK/default" --no-pcap -- "$FIRE" 2>/dev/null &
P_DEFAULT=$!
"$CAPTURE" -o "$WORK/preload-default" --no-pcap --preload -- true 2>/dev/null &
P_PRELOAD=$!
"$CAPTURE" -o "$WORK/all" --no-pcap --all-events -- "$FIRE" 2>/dev/null &
P_ALL=$!
wait "$P_EVENTS" "$P_DEFAULT" "$P_PRELOAD" "$P_ALL"
# the next run records every process of the user: it starts once these have ended, and runs
# while their traces are read (babeltrace2, jq and tshark trace nothing)
other_start user-all
json_exprs EVENTS "$WORK/events/run.json" pid .command_pid events .trace.events \
	excluded '.trace.excluded_events | length'
json_exprs DEFAULT "$WORK/default/run.json" pid .command_pid \
	excluded '.trace.excluded_events | join(",")' \
	both '(.trace.events | split(",")) + .trace.excluded_events | sort | join(" ")' \
	named '[(.trace.events | test("[*]")), (.trace.discarded_events | type)] | @json'
pid=${EVENTS[pid]}
check_eq "$(events_of_pid "$WORK/events/trace" "$pid" | sort -u | tr '\n' ' ')" \
	"dgrdma_fpga:counters dgrdma_fpga:discontinuity dgrdma_fpga:doorbell_rx dgrdma_fpga:drop_period dgrdma_fpga:frame_rx dgrdma_fpga:frame_tx dgrdma_fpga:thread_start dgrdma_fpga:txn_sent dgrdma_fpga:underrun " \
	"--events dgrdma_fpga:* records only the emulator's events"
check_eq "${EVENTS[events]}" "dgrdma_fpga:*" "run.json records the event list"
# the default: every event once (tp-fire), less the six fired per frame and the four per-buffer
# events before the doorbell's hand-over (the consumer's three, the receive thread's
# txn_complete), which doorbell_sent's fields replace (docs/tracepoints.md)
pid=${DEFAULT[pid]}
check_eq "$(events_of_pid "$WORK/default/trace" "$pid" | sort -u | tr '\n' ' ')" \
	"dgrdma:counters dgrdma:doorbell_rx dgrdma:doorbell_sent dgrdma:malformed dgrdma:retransmit dgrdma:socket_drop dgrdma:thread_start dgrdma:txn_sent dgrdma_fpga:counters dgrdma_fpga:discontinuity dgrdma_fpga:doorbell_rx dgrdma_fpga:drop_period dgrdma_fpga:thread_start dgrdma_fpga:txn_sent dgrdma_fpga:underrun " \
	"the default records every event but frame_rx, frame_tx, ack_rx, ack_tx, buffer_acquire, buffer_release, doorbell_queued and txn_complete"
check_eq "${DEFAULT[excluded]}" \
	"dgrdma:frame_rx,dgrdma:frame_tx,dgrdma:ack_rx,dgrdma:ack_tx,dgrdma_fpga:frame_rx,dgrdma_fpga:frame_tx,dgrdma:buffer_acquire,dgrdma:buffer_release,dgrdma:doorbell_queued,dgrdma:txn_complete" \
	"run.json records the events the default leaves out"
# --preload's default keeps txn_complete: the library's doorbell_sent does not carry the
# completion (since_complete_ns 0)
check_eq "$(jqr '[(.trace.events | split(",") | index("dgrdma:txn_complete") != null),
	(.trace.excluded_events | index("dgrdma:txn_complete"))] | @json' "$WORK/preload-default")" \
	'[true,null]' "--preload's default records dgrdma:txn_complete"
# The default names its events (no --exclude: lttng-sessiond 2.13.9 crashes listing a session
# whose event rule has exclusions); between them the two lists must hold every event of the
# providers, so that an event added to a provider is either recorded or left out on purpose.
provider_events=$(sed -n -E 's/^LTTNG_UST_TRACEPOINT_EVENT\((dgrdma[a-z_]*), *([a-z_]+),.*/\1:\2/p;
	s/^LTTNG_UST_TRACEPOINT_EVENT_INSTANCE\([a-z_]+, *[a-z_]+, *(dgrdma[a-z_]*), *([a-z_]+),.*/\1:\2/p' \
	"$DGR_SRC"/tracepoints/*-tp.h | sort | tr '\n' ' ')
check_eq "${DEFAULT[both]} " \
	"$provider_events" "the default's events and the ones it leaves out are the providers' events, each once"
check_eq "${DEFAULT[named]}" \
	'[false,"number"]' "the default enables named events, and the session daemon answered the final listing"
check_eq "${EVENTS[excluded]}" 0 "--events excludes nothing"
pid=$(jqr .command_pid "$WORK/all")
check_eq "$(events_of_pid "$WORK/all/trace" "$pid" | sort -u | wc -l)" 25 \
	"--all-events records all 25 events of both providers"
out=$("$CAPTURE" --events 'dgrdma; rm' -- true 2>&1)
case $out in *"--events: 'dgrdma; rm' must be"*) ok "--events refuses other characters" ;;
*) not_ok "--events refuses other characters"; diag "$out" ;; esac

# ---- --only-command, --trace-pid ----------------------------------------------------------
# Another tp-fire of the same user traces during the run (as a second dgrdma-host would): by
# default it is in the trace; with --only-command only the command's process is, from its
# first event; --trace-pid adds the other one.
vpids() { # TRACE: the distinct vpids of its events, sorted
	babeltrace2 "$1" 2>/dev/null | grep -o 'vpid = [0-9]*' | awk '{print $3}' | sort -un | tr '\n' ' '
}
other_wait user-all
pid=$(jqr .command_pid "$WORK/user-all")
check_eq "$CAP_RC $(vpids "$WORK/user-all/trace")" "0 $(printf '%s\n' "$pid" "$OTHER_PID" | sort -n | tr '\n' ' ')" \
	"default: the other process of the user is recorded too"
# --only-command's two runs record their own processes only: together, and beside lossy
other_start only --only-command
TRACE_OTHER=1 other_start only-plus --only-command
# 2 000 000 events back to back into 2 x 4 KiB sub-buffers per CPU (about 290 events): the
# consumer daemon cannot drain them in time.
"$CAPTURE" -o "$WORK/lossy" --no-pcap --all-events --subbuf-size 4k --num-subbuf 2 -- "$FIRE" \
	--burst 2000000 2>"$WORK/lossy.err" &
P_LOSSY=$!
other_wait only
pid=$(jqr .command_pid "$WORK/only")
check_eq "$CAP_RC $(vpids "$WORK/only/trace")" "0 $pid " "--only-command: the command's process alone"
check_eq "$(events_of_pid "$WORK/only/trace" "$pid" | grep -c thread_start)" 2 \
	"--only-command: from the command's first events (both thread_start)"
check_eq "$(jqr '[.trace.processes, (.trace.trace_pids | length)] | @json' "$WORK/only")" '["command",0]' \
	"run.json: trace.processes command, no other pid"
other_wait only-plus
pid=$(jqr .command_pid "$WORK/only-plus")
check_eq "$CAP_RC $(vpids "$WORK/only-plus/trace")" "0 $(printf '%s\n' "$pid" "$OTHER_PID" | sort -n | tr '\n' ' ')" \
	"--trace-pid: the command and the process named"
check_eq "$(jqr '.trace.trace_pids | @json' "$WORK/only-plus")" "[$OTHER_PID]" "run.json: trace.trace_pids"
check_eq "$(jqr .trace.processes "$WORK/user-all")" user "run.json: trace.processes user by default"
bad_opts() { # WANTED-MESSAGE OPTIONS...: exit 2 and the message
	local want=$1 out st
	shift
	out=$("$CAPTURE" "$@" -- true 2>&1)
	st=$?
	case "$st $out" in "2 "*"$want"*) ok "$*: exit 2, '$want'" ;;
	*) not_ok "$*: exit 2, '$want' (got $st: $out)" ;; esac
}
bad_opts "--trace-pid goes with --only-command" --trace-pid 5
bad_opts "--trace-pid: '0' is out of range 1..4194304" --only-command --trace-pid 0
bad_opts "--only-command needs the trace" --only-command --no-trace

# ---- a trace that lost events says so ----------------------------------------------------

wait "$P_LOSSY"
lost=$(jqr .trace.discarded_events "$WORK/lossy")
if [ "$lost" -gt 0 ]; then
	ok "tiny sub-buffers: discarded events counted ($lost)"
else
	not_ok "tiny sub-buffers: discarded events counted ($lost)"
fi
check_eq "$(jqr '.warnings[0] | startswith("the trace lost '"$lost"' events: it is incomplete")' \
	"$WORK/lossy")" true "run.json warns that the trace lost events"
check "the summary warns too" grep -q "WARNING: the trace lost $lost events" "$WORK/lossy.err"

# start_interrupted: the killed and the interrupted runs, together (ports of their own, the
# checks by their own command's pid), started once the complete run has ended and stopped while
# its files are read. A packet a millisecond, so dumpcap's kernel buffer is 16 MiB (the
# default 512 MiB costs a second of system CPU to open; what these runs check is the
# interruption, not the buffer).
KILLED=$WORK/killed
INTR=$WORK/intr
PORT_C=$((PORT_B + 1))
PORT_D=$((PORT_B + 2))
start_interrupted() {
	"$CAPTURE" -o "$KILLED" --pcap-buffer 16 -- "$FIRE" --udp --bind "127.0.0.1:$PORT_A" \
		--peer "127.0.0.1:$PORT_B" --packets 1000000 --interval-ms 1 \
		--ready-file "$WORK/killed.ready" 2>"$WORK/killed.err" &
	BG_PID=$!
	# A background job of a script ignores SIGINT; give it back its default as a terminal would.
	env --default-signal=INT "$CAPTURE" -o "$INTR" --pcap-buffer 16 -- "$FIRE" --udp \
		--bind "127.0.0.1:$PORT_C" --peer "127.0.0.1:$PORT_D" --packets 1000000 --interval-ms 1 \
		--ready-file "$WORK/intr.ready" 2>"$WORK/intr.err" &
	BG2_PID=$!
	wait_ready "$WORK/killed.ready"
	nap 0.5
	KILLED_PID=$(pgrep -f -x "$FIRE --udp --bind 127.0.0.1:$PORT_A .*--ready-file $WORK/killed.ready")
	kill -KILL $KILLED_PID
	wait_ready "$WORK/intr.ready"
	kill -INT "$BG2_PID"
}

if ! wait "$PROBE_PID"; then
	skip "dumpcap cannot capture on lo here (needs CAP_NET_RAW and CAP_NET_ADMIN)"
	done_testing
	exit
fi

# ---- a complete run -----------------------------------------------------------------------

RUN=$WORK/run
# 200 small datagrams: dumpcap's smallest kernel buffer of the tests (test/lib/pcap_buffer.sh)
"$CAPTURE" -o "$RUN" --all-events --pcap-buffer 16 -- "$FIRE" --udp --bind "127.0.0.1:$PORT_A" \
	--peer "127.0.0.1:$PORT_B" --packets 200 2>"$WORK/run.err"
check_eq "$?" 0 "capture of a complete run exits 0"
start_interrupted
check "run.json is valid JSON" json_valid "$RUN/run.json"
# nsec + 1e9 without its leading 1: the nine digits, zero-padded
json_exprs RJ "$RUN/run.json" \
	run '[.interrupted, .exit_status, .exit_signal, .command[0], .command[-1]] | @json' \
	capture '[.capture.interface, .capture.filter, .capture.inferred_from] | @json' \
	packets '[.capture.packets_captured, .capture.packets_received, .capture.packets_dropped] | @json' \
	pid .command_pid discarded '[.trace.discarded_events, .trace.lost_packets] | @json' \
	warnings '.warnings | length' \
	mono_end '.clocks.end | "\(.monotonic_sec)\(.monotonic_nsec + 1000000000 | tostring | .[1:])"' \
	mono_start '.clocks.start | "\(.monotonic_sec)\(.monotonic_nsec + 1000000000 | tostring | .[1:])"' \
	rt_start '.clocks.start | "\(.realtime_sec).\(.realtime_nsec + 1000000000 | tostring | .[1:])"' \
	rt_end '.clocks.end | "\(.realtime_sec).\(.realtime_nsec + 1000000000 | tostring | .[1:])"'
check_eq "${RJ[run]}" \
	"[false,0,null,\"$FIRE\",\"200\"]" "run.json: command, status, not interrupted"
check_eq "${RJ[capture]}" \
	"[\"lo\",\"udp port $PORT_A or udp port $PORT_B\",\"udp\"]" \
	"interface and filter inferred from --udp --bind --peer"
# one tshark and one babeltrace2 for the checks below: every frame's time and UDP destination
# ports (a frame is udp.dstport == B when one of them is B), every event's line
tshark_sys -r "$RUN/capture.pcapng" -T fields -e frame.time_epoch -e udp.dstport >"$WORK/run.fields" 2>/dev/null
babeltrace2 "$RUN/trace" >"$WORK/run.text" 2>/dev/null
npkt=$(awk -v b="$PORT_B" '{ n = split($2, p, ","); for (i = 1; i <= n; i++) if (p[i] == b) { c++; break } }
	END { print c + 0 }' "$WORK/run.fields")
check_eq "$npkt" 200 "tshark reads the 200 datagrams from capture.pcapng"
check_eq "${RJ[packets]}" \
	"[200,200,0]" "run.json: packets captured, received, dropped"
# the user's umask decides the modes (0644 and 0755 with 022), not dumpcap's 0600 or the
# session daemon's 0770: tshark run as another user (as root runs it for the plugin) reads both
mask=$(umask)
check_eq "$(find "$RUN" -type f ! -perm "$(printf '%04o' $((0666 & ~mask)))" | wc -l) $(find "$RUN" -type d ! -perm "$(printf '%04o' $((0777 & ~mask)))" | wc -l)" \
	"0 0" "every recorded file and folder has the modes of the umask $mask"
if [ "$(id -u)" = 0 ] && [ "$mask" = 0022 ]; then
	chmod 711 "$WORK" # mktemp's 0700 would stop another user before the run folder
	check_eq "$(setpriv --reuid=65534 --regid=65534 --clear-groups sh -c \
		"GLIBC_TUNABLES='$TS_HEAP' tshark -r '$RUN/capture.pcapng' 2>/dev/null | wc -l; babeltrace2 '$RUN/trace' 2>/dev/null | wc -l")" \
		"$(wc -l <"$WORK/run.fields")
$(wc -l <"$WORK/run.text")" "another user reads the capture and the trace whole"
fi
pid=${RJ[pid]}
events=$(events_in_text "$pid" <"$WORK/run.text")
check_eq "$(echo "$events" | wc -l)" 225 "babeltrace2 reads the command's 25 + 200 events"
check_eq "$(echo "$events" | grep -c '^dgrdma:frame_tx$')" 201 "one frame_tx per datagram (+1)"
check_eq "${RJ[discarded]}" "[0,0]" \
	"run.json: no event discarded"
check_eq "${RJ[warnings]}" 0 "no warning"
check "the end-of-run summary names the discarded events and dropped packets" \
	grep -q "trace: discarded events 0, lost packets 0" "$WORK/run.err"

# Clock alignment: the trace clock is CLOCK_MONOTONIC (raw cycles at 1 GHz) and the capture
# uses CLOCK_REALTIME; both must fall between the clock pairs read at start and at end.
mono_end=${RJ[mono_end]}
mono_start=${RJ[mono_start]}
cycles=$(babeltrace2 --clock-cycles "$RUN/trace" | grep -F "vpid = $pid," |
	sed -n 's/^\[\([0-9]*\)\].*/\1/p' | sed -n '1p;$p')
first=$(echo "$cycles" | head -n1)
last=$(echo "$cycles" | tail -n1)
if [ "$first" -ge "$mono_start" ] && [ "$last" -le "$mono_end" ]; then
	ok "trace timestamps lie between the monotonic clock readings at start and end"
else
	not_ok "trace timestamps lie between the monotonic clock readings at start and end"
	diag "start $mono_start first $first last $last end $mono_end"
fi
rt_start=${RJ[rt_start]}
rt_end=${RJ[rt_end]}
times=$(cut -f1 "$WORK/run.fields" | sed -n '1p;$p')
if awk -v s="$rt_start" -v e="$rt_end" -v a="$(echo "$times" | head -n1)" \
	-v b="$(echo "$times" | tail -n1)" 'BEGIN { exit !(a >= s && b <= e) }'; then
	ok "capture timestamps lie between the realtime clock readings at start and end"
else
	not_ok "capture timestamps lie between the realtime clock readings at start and end"
	diag "start $rt_start packets $times end $rt_end"
fi

# ---- the traced command killed midway; dgrdma-capture itself interrupted (Ctrl-C) ----------

wait "$BG_PID"
check_eq "$?" 137 "dgrdma-capture exits 128+9 when the command is killed by SIGKILL"
BG_PID=""
check_eq "$(jqr '[.interrupted, .exit_signal, .interrupt_reason, .command_pid, .trace.readable] | @json' "$KILLED")" \
	"[true,\"SIGKILL\",\"command killed by SIGKILL\",$KILLED_PID,true]" "run.json says the run was interrupted"
events=$(events_of_pid "$KILLED/trace" "$KILLED_PID")
check_eq "$(echo "$events" | grep -c '^dgrdma:counters$')" 1 \
	"the killed command's trace is readable (its events are there)"
npkt=$(tshark_sys -r "$KILLED/capture.pcapng" -Y "udp.dstport == $PORT_B" 2>/dev/null | wc -l)
check_eq "$npkt" "$(jqr .capture.packets_captured "$KILLED")" \
	"the killed run's capture is readable and holds every packet dumpcap counted"
if [ "$npkt" -gt 0 ] && [ "$npkt" -lt 1000000 ]; then
	ok "the capture stopped midway ($npkt packets)"
else
	not_ok "the capture stopped midway ($npkt packets)"
fi

wait "$BG2_PID"
check_eq "$?" 130 "dgrdma-capture passes SIGINT to the command and exits 128+2"
BG2_PID=""
check_eq "$(jqr '[.interrupted, .exit_signal, .interrupt_reason] | @json' "$INTR")" \
	'[true,"SIGINT","dgrdma-capture received SIGINT"]' "run.json names the interruption"
check "the interrupted run.json is valid" json_valid "$INTR/run.json"
check "the interrupted run's trace is readable" babeltrace2 --output-format=dummy "$INTR/trace"
check "the interrupted run's capture is readable" tshark_sys -r "$INTR/capture.pcapng" -c 1 -q
check_eq "$(jqr '[.trace.lost, .capture.lost] | @json' "$RUN") $(jqr '[.trace.lost, .capture.lost] | @json' "$INTR")" \
	"[null,null] [null,null]" "run.json: nothing lost in a whole run, nor in one interrupted by SIGINT"

# ---- a part of the recording lost during the run --------------------------------------------
# dumpcap killed, the session stopped by another lttng, the relay daemon of --live killed and
# the session daemon gone, while the command runs: dgrdma-capture exits 3, run.json's
# capture.lost / trace.lost say why, and latency-report refuses the folder naming it. Last: the
# session daemon is this suite's own and is not started again. The command waits for the test's
# go (a file) after the part has ended, so the part ends within the run.
# lost_start NAME OPTIONS...: a run in the background (LOST_PID), its command ready on NAME.ready
lost_start() {
	local name=$1
	shift
	"$CAPTURE" -o "$WORK/$name" "$@" -- bash -c \
		'touch "$1.ready"; until [ -e "$1.go" ]; do sleep 0.05; done' _ "$WORK/$name" \
		2>"$WORK/$name.err" &
	LOST_PID=$!
	BG_PID=$LOST_PID
	until [ -e "$WORK/$name.ready" ] || ! kill -0 "$LOST_PID" 2>/dev/null; do
		nap 0.05
	done
}
# lost_end NAME: lets the command end; LOST_RC is dgrdma-capture's status
lost_end() {
	touch "$WORK/$1.go"
	wait "$LOST_PID"
	LOST_RC=$?
	BG_PID=""
}
lost_report() {
	"$DGR_BUILD/bin/latency-report" "$WORK/$1" >/dev/null 2>"$WORK/$1.lr"
	echo "$? $(<"$WORK/$1.lr")"
}
lost_start pcap-lost -i lo -f "udp port $PORT_A" --pcap-buffer 2 --no-trace
tp_kill_gone "$(pgrep -P "$LOST_PID" -x dumpcap)"
lost_end pcap-lost
check_eq "$LOST_RC $(jqr '[.exit_status, .capture.lost, .warnings[0]] | @json' "$WORK/pcap-lost")" \
	'3 [0,"dumpcap ended during the run (killed by SIGKILL)","dumpcap ended during the run (killed by SIGKILL)"]' \
	"dumpcap killed during the run: exit 3, run.json's capture.lost and a warning say so (the command's own exit 0 kept)"
check_eq "$(lost_report pcap-lost)" \
	"2 latency-report: the capture $WORK/pcap-lost/capture.pcapng ends before the run did (capture.lost: dumpcap ended during the run (killed by SIGKILL)); give it alone for what it holds" \
	"latency-report refuses a run folder whose capture ended before the run, naming why"
lost_start trace-stopped --no-pcap
lttng stop "dgrdma-capture-$LOST_PID" >/dev/null 2>&1
lost_end trace-stopped
check_eq "$LOST_RC $(jqr '.trace.lost' "$WORK/trace-stopped")" \
	"3 lttng stop failed (Tracing already stopped for session dgrdma-capture-$LOST_PID): the session stopped or ended during the run" \
	"its session stopped by someone else during the run: exit 3 and trace.lost say so"
lost_start relayd-lost --no-pcap --live
tp_kill_gone "$(pgrep -P "$LOST_PID" -x lttng-relayd)"
lost_end relayd-lost
check_eq "$LOST_RC $(jqr '.trace.lost' "$WORK/relayd-lost")" \
	"3 lttng-relayd ended during the run (killed by SIGKILL)" \
	"--live: its relay daemon killed during the run: exit 3 and trace.lost say so"
if [ "${TP_ISOLATED:-0}" = 1 ] && [ -n "$TP_SESSIOND_PID" ]; then
	lost_start trace-lost --no-pcap
	tp_kill_gone "$TP_SESSIOND_PID"
	TP_SESSIOND_PID=""
	lost_end trace-lost
	check_eq "$LOST_RC $(jqr '[.trace.lost, .warnings] | @json' "$WORK/trace-lost")" \
		'3 ["lttng stop failed (No session daemon is available): the session stopped or ended during the run",["lttng stop failed (No session daemon is available): the session stopped or ended during the run"]]' \
		"the session daemon gone during the run: exit 3, run.json's trace.lost and one warning say so"
	check "the summary names the lost trace" \
		grep -qx "dgrdma-capture: WARNING: lttng stop failed (No session daemon is available): the session stopped or ended during the run" "$WORK/trace-lost.err"
	check_eq "$(lost_report trace-lost)" \
		"2 latency-report: the trace $WORK/trace-lost/trace ends before the run did (trace.lost: lttng stop failed (No session daemon is available): the session stopped or ended during the run); give it alone for what it holds" \
		"latency-report refuses a run folder whose trace ended before the run, naming why"
else
	skip "the session daemon is not this suite's own (no private mount namespace): not stopped"
	skip "the session daemon is not this suite's own: not stopped"
	skip "the session daemon is not this suite's own: not stopped"
fi

done_testing
