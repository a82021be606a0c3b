#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# latency-report --live on a real run recorded live: dgrdma-capture --live (its own lttng-relayd
# on 127.0.0.1) around dgrdma-host rx fed by dgrdma-fpga over UDP on loopback, followed by
# latency-report --live --json. The JSON Lines must account for every doorbell (the intervals add
# up to the run so far, which only grows) and end with the final report, whose numbers equal
# those of latency-report run afterwards on the run folder. Then Ctrl-C on a text view, and bad
# input: a bad URL, an unreachable relayd, a session the relayd does not have (exit 2, no hang).
# make check: slow
set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/tracepoints/lttng-env.sh"
tp_isolate "$@" || { not_ok "private lttng run folder"; done_testing; exit 1; }

LR=$DGR_BUILD/bin/latency-report
CAPTURE=$DGR_BUILD/bin/dgrdma-capture
DHOST=$DGR_BUILD/bin/dgrdma-host
DFPGA=$DGR_BUILD/bin/dgrdma-fpga
WORK=$(mktemp -d "$DGR_BUILD/analysis-live.XXXXXX")
PORT_F=$((34000 + $$ % 2000 * 2))
PORT_H=$((PORT_F + 1))
# the emulator's address; the --live-if run gives it one of its own in 127/8 (its filter names it)
FPGA_ADDR=127.0.0.1:$PORT_F
CAP_PID=""
CAP2_PID=""
LR_PID=""
RELAYD_PID=""
cleanup() {
	[ -n "$LR_PID" ] && kill -KILL "$LR_PID" 2>/dev/null
	[ -n "$CAP2_PID" ] && kill -TERM "$CAP2_PID" 2>/dev/null && wait "$CAP2_PID"
	[ -n "$RELAYD_PID" ] && kill -TERM "$RELAYD_PID" 2>/dev/null
	[ -n "$CAP_PID" ] && kill -TERM "$CAP_PID" 2>/dev/null && wait "$CAP_PID"
	tp_lttng_teardown
	[ -n "${KEEP:-}" ] || rm -rf "$WORK"
}
trap cleanup EXIT

. "$DGR_SRC/test/lib/live_run.sh"
if ! live_ready; then
	skip "$LIVE_WHY"
	done_testing
	exit 0
fi


# The runs as root (--live-if, --live-follow, two sessions): the emulator gets an address of its
# own in 127/8, which their filters name.
FIP="127.0.$(($$ % 250 + 1)).$(($$ / 250 % 250 + 2))"
FIP2="127.0.$(($$ % 250 + 1)).$(($$ / 250 % 250 + 3))"
PORT_H1=$PORT_H
# launch_next_root: the next run's recording, the wire run's as root
launch_next_root() {
	if [ "$(id -u)" = 0 ]; then
		FPGA_ADDR=$FIP:18078
		launch_run wire
	fi
}
# launch_follow: the --live-follow run's, with its packet capture
launch_follow() {
	PCAP_OPTS=()
	launch_run follow
	PCAP_OPTS=(--no-pcap)
}
# launch_two: both recordings of the two sessions at once. Both hosts run as this user:
# --only-command keeps each session's trace to its own host (by default per-user buffers would
# record both hosts in both traces).
launch_two() {
	launch_run two-a --only-command
	CAP2_PID=$CAP_PID
	PORT_H=$((PORT_H1 + 4000))
	FPGA_ADDR=$FIP2:18078
	launch_run two-b --only-command
	PORT_H=$PORT_H1
	FPGA_ADDR=$FIP:18078
}
# launch_given: a relayd of the test's own, and the --relayd run's recording (its emulator on
# 127.0.0.1 again)
GIVEN_LAUNCHED=""
launch_given() {
	local FPGA_ADDR=127.0.0.1:$PORT_F PORT_H=$PORT_H1
	GIVEN_LAUNCHED=1
	. "$DGR_SRC/test/lib/relayd.sh"
	dgr_start_relayd "127.0.0.1" "$WORK/relayd-out" "$WORK/relayd.log" ||
		not_ok "lttng-relayd of the test listens on its three ports: $(tail -2 "$WORK/relayd.log")"
	rb=$RELAYD_BASE
	launch_run given --relayd "net://127.0.0.1:$rb:$((rb + 1))" --relayd-live-port $((rb + 2))
}

# bad DESCRIPTION WANTED COMMAND...: a clear error, exit 2, within 30 s.
bad() {
	local desc=$1 want=$2
	shift 2
	timeout 30 "$@" >/dev/null 2>"$WORK/bad.err"
	local st=$?
	if [ "$st" = 2 ] && grep -q -- "$want" "$WORK/bad.err"; then
		ok "$desc: exit 2, '$want'"
	else
		not_ok "$desc: exit 2, '$want' (got $st: $(head -c 300 "$WORK/bad.err"))"
	fi
}

# streaming_seen NAME: until the view's JSON Lines ($WORK/NAME.jsonl) show an interval with the
# stream's transactions (at most 60 s). Not any event: the host's own start-up events come before
# the emulator's first frame, and an emulator stopped before it streamed (or before it started)
# leaves the host to fail for want of frames (exit 3, seen once in a loaded make check). Before
# the view opened its output there is none: the file is read as empty, not as the last one read
# (a stale read once killed a session daemon before its session existed, on a loaded machine).
streaming_seen() {
	local n lines
	for ((n = 0; n < 600; n++)); do
		mapfile -t lines 2>/dev/null <"$WORK/$1.jsonl" || lines=()
		[[ "${lines[*]}" == *'"host_rx":{"interval":{"count":'[1-9]* ]] && return 0
		nap 0.1
	done
	return 1
}
# stream_stop PID: ends the emulator of `stream ... &` (PID: that subshell, or its child)
stream_stop() {
	pkill -TERM -P "$1" 2>/dev/null || kill -TERM "$1"
	wait "$1"
}

# ---- a run followed with --json, given its run folder ---------------------------------------------
# The view is started with the recording and waits for the folder's live.url; once the session
# ends it waits for run.json, and judges by its facts and run status, as the offline report does
# (docs/analysis.md, "Live"). No facts given.
launch_run json
timeout 120 "$LR" --live --json --live-interval 0.5 "$WORK/json" >"$WORK/json.jsonl" 2>"$WORK/json.err" &
LR_PID=$!
if ! run_url json; then
	not_ok "dgrdma-capture --live wrote live.url: $(tail -2 "$WORK/json.capture.out")"
	done_testing
	exit 1
fi
diag "live URL $URL"
check "the live URL names this machine and the session" \
	grep -qE "^net://127\.0\.0\.1:[0-9]+/host/$(uname -n)/dgrdma-capture-[0-9]+$" "$WORK/json/live.url"
stream json 2
wait "$CAP_PID"
check_eq "$?" 0 "dgrdma-capture --live: the command's exit status 0"
CAP_PID=""
wait "$LR_PID"
check_eq "$?" 0 "latency-report --live RUN-FOLDER ended with the session and its run.json, exit status 0 ($(head -c 200 "$WORK/json.err"))"
LR_PID=""
# Each run's recording sets up (a second or two: its relayd, its session) while the run before
# is checked: its host starts only once a viewer attached, and nothing of the checks is traced.
launch_run text

J=$WORK/json.jsonl
# what the checks below read of the JSON lines, in one jq (it was 12 starts): each filter's
# output as jq -c prints it (-r: a string raw), lines joined by a space, NUL-terminated; the
# final report is the last line. An unreadable file leaves every answer empty: all fail.
mapfile -d '' -t jl < <(jq -s -j '
	def c(f): [f | tojson] | join(" ");
	def r(f): [f | if type == "string" then . else tojson end] | join(" ");
	[.[] | select(.kind == "interval")] as $iv | .[-1] as $final
	| (c(length > 0 and all(type == "object")),
	c($iv | length),
	c([.[].kind] | .[-1], (.[:-1] | unique)),
	c([$iv[].interval] as $i | $i == [range(1; ($i | length) + 1)]),
	c([range(0; $iv | length) as $i
	   | ([$iv[:$i + 1][].host_rx.interval.count] | add) == $iv[$i].host_rx.run.count
	     and ($i == 0 or $iv[$i].host_rx.run.count >= $iv[$i - 1].host_rx.run.count)
	     and ($i == 0 or $iv[$i].events_run >= $iv[$i - 1].events_run)] | all),
	c($iv[-1].host_rx.run.count == $final.host.rx.latency_ns.count and $final.host.rx.latency_ns.count > 0),
	c($iv[-1] | [.regime.label, .regime.reason] == ($final | [.regime.label, .regime.reason])),
	r($final.run | [.host_buffers, .fpga_buffers, .buffer_size, .rate_bytes, .tolerable_source, (.trace_disagrees | length)] | join(" ")),
	r($final | [.whole_run, .whole_run_why] | @json),
	r($final.regime.high_threshold_ns),
	c([$iv[].regime.reason | select(test("never started"))] | length),
	r($final.host.rx.latency_ns.count),
	r([.[] | select(.kind == "interval" and .events > 0) | .lag_ns / 1e6 | floor] | sort | "min \(.[0]) ms, median \(.[length / 2 | floor]) ms, max \(.[-1]) ms"),
	c($final.run))
	| . + "\u0000"' "$J")
check_eq "${jl[0]:-}" true "every line is one JSON object"
nint=${jl[1]:-}
diag "$nint interval objects"
check_eq "${jl[2]:-}" \
	'"final" ["interval"]' "interval objects, then the final report as the last line"
check_eq "${jl[3]:-}" \
	true "intervals numbered 1..$nint"
if [ "$nint" -ge 3 ]; then
	ok "at least 3 intervals of 0.5 s over a 2 s stream ($nint)"
else
	not_ok "at least 3 intervals of 0.5 s over a 2 s stream ($nint)"
fi
# exact accounting: each interval's doorbells add up to the run so far, which only grows
check_eq "${jl[4]:-}" \
	true "run-so-far counts grow and equal the sum of the intervals' counts"
check_eq "${jl[5]:-}" \
	true "the last interval's run so far is the final report's doorbell count"
check_eq "${jl[6]:-}" true "the last interval's verdict so far is the final verdict"

"$LR" --json --no-progress "$WORK/json" >"$WORK/json.offline.json" 2>"$WORK/json.offline.err"
check_eq "$?" 0 "offline latency-report on the run folder (run.json with its 'live' key accepted)"
# the run folder's run.json chooses the command's events (processes_from); the live view, which
# has no run.json yet, takes every process's: the same events here, where only the run traced
tail -n 1 "$J" | jq -S '.host | del(.processes_from, .only_pids_provider, .only_pids)' >"$WORK/live.host.json"
jq -S '.host | del(.processes_from, .only_pids_provider, .only_pids)' "$WORK/json.offline.json" >"$WORK/offline.host.json"
if cmp -s "$WORK/live.host.json" "$WORK/offline.host.json"; then
	ok "final in-host numbers equal the offline report's (every field of \"host\")"
else
	not_ok "final in-host numbers equal the offline report's (every field of \"host\")"
	diff "$WORK/live.host.json" "$WORK/offline.host.json" | head -20 | sed 's/^/# /'
fi
check_eq "$(tail -n 1 "$J" | jq -S -c '.regime | del(.mitigations)')" \
	"$(jq -S -c '.regime | del(.mitigations)' "$WORK/json.offline.json")" \
	"final verdict, reason, shape and headroom equal the offline report's"
check_eq "${jl[7]:-} $(jq -r '.run | [.host_buffers, .fpga_buffers, .buffer_size, .rate_bytes, .tolerable_source, (.trace_disagrees | length)] | join(" ")' "$WORK/json.offline.json")" \
	"16 4 16384 8000000 run.json 0 16 4 16384 8000000 run.json 0" \
	"given the run folder, no facts given: live and offline took the run's facts from run.json, none disagreeing"
check_eq "${jl[13]:-}" "$(jq -c '.run' "$WORK/json.offline.json")" \
	"given the run folder, the final report's run (facts, tolerable latency, run status) is the offline one's"
check_eq "${jl[8]:-}" '["yes",""]' "given the run folder, the final report says the trace holds the whole run"
# T = (16 + 4) x 16 KiB / 8 MB/s = 40.96 ms; judged against it, "high" is T/2 (not 10 x p50)
check_eq "${jl[9]:-} ${jl[10]:-}" \
	"20480000 0" "the final verdict judged against the tolerable latency (high = T/2); no interval says the stream 'never started'"
check_eq "$(jq -r '.host.rx.latency_ns.count' "$WORK/json.offline.json") $(jq -r '[.live.url, .live.relayd] | join(" ")' "$WORK/json/run.json")" \
	"${jl[11]:-} $URL started" \
	"run.json records the live URL and the relayd it started"
check "the trace of the live run is in the run folder" test -n "$(find "$WORK/json/trace" -name metadata)"
diag "lag from the newest event to its interval line: ${jl[12]:-}"

# ---- a text view stopped with Ctrl-C; a second viewer; a session the relayd does not have --------
if run_url text; then
	# --foreground: timeout passes the Ctrl-C on once, as a terminal would; without it, it sends
	# SIGINT to the view and then to its whole process group, and a view that had printed its
	# report and given SIGINT back its default action before the second one came died of it
	# (exit 130, once in a loaded make check, 5 December)
	# the run folder, with the facts given as options: interrupted, the view does not wait for
	# run.json, and its report keeps the options' facts (a copy of the options once lost them)
	env --default-signal=INT timeout --foreground 120 "$LR" --live --live-interval 0.5 \
		--host-buffers 16 --buffer-size 16384 --sample-rate 2e6 --fpga-buffers 4 "$WORK/text" \
		>"$WORK/text.out" 2>"$WORK/text.err" &
	LR_PID=$!
	relay=${URL%%/host/*}
	timeout 30 "$LR" --live "$relay/host/$(uname -n)/no-such-session" >/dev/null 2>"$WORK/nosess.err"
	check_eq "$? $(grep -c "has no session no-such-session of host $(uname -n) (it has: $(uname -n)/dgrdma-capture-" "$WORK/nosess.err")" \
		"2 1" "a session the relayd does not have: exit 2, the sessions it has named"
	# long enough to be streaming at the Ctrl-C however slow the machine; stopped after it
	stream text 60 &
	spid=$!
	# the command runs once the first viewer is attached (--live-wait)
	for ((n = 0; n < 600; n++)); do
		[ -e "$WORK/text.ready" ] && break
		nap 0.1
	done
	timeout 30 "$LR" --live "$URL" >/dev/null 2>"$WORK/second.err"
	check_eq "$? $(grep -c 'already a viewer attached' "$WORK/second.err")" "2 1" \
		"a second viewer of the session: the relayd's refusal named, exit 2"
	# two intervals, and doorbells in the run so far: the events before them are read too (the
	# trace's are merged in time order), the host's settings (stream_config) among them
	for ((n = 0; n < 300; n++)); do
		[ "$(grep -c '^interval ' "$WORK/text.out")" -ge 2 ] &&
			grep -q '^  run so far: [1-9][0-9]* doorbells' "$WORK/text.out" && break
		nap 0.1
	done
	kill -INT "$LR_PID"
	wait "$LR_PID"
	check_eq "$?" 0 "Ctrl-C ends the text view with exit status 0"
	LR_PID=""
	check_eq "$(grep -c '^interval [0-9]* (' "$WORK/text.out") $(grep -c '^Interrupted: the report on the run so far$' "$WORK/text.out") $(grep -c '^Regime$' "$WORK/text.out")" \
		"$(grep -c '^interval [0-9]* (' "$WORK/text.out") 1 1" \
		"the text view: interval lines, then the report on the run so far"
	check_eq "$(grep -c $'\e' "$WORK/text.out")" 0 "piped, the view is plain lines (no terminal escapes)"
	check_eq "$(grep -c '^ *tolerable latency from: *options$' "$WORK/text.out") $(grep -c '^Not known to be the whole run' "$WORK/text.out")" \
		"1 0" "the run folder interrupted, facts given: the report on the options' facts, not waiting for run.json"
	stream_stop "$spid"
	wait "$CAP_PID"
	CAP_PID=""
else
	not_ok "second dgrdma-capture --live wrote live.url"
fi
launch_run tty

# ---- on a terminal (script's pseudo-terminal): redrawn in place, with a sparkline ----------------
if run_url tty; then
	timeout 120 script -qefc "$LR --live --live-interval 0.5 $URL" /dev/null </dev/null \
		>"$WORK/tty.out" 2>&1 &
	LR_PID=$!
	stream tty 2
	wait "$CAP_PID"
	CAP_PID=""
	wait "$LR_PID"
	check_eq "$?" 0 "on a terminal, the view ends with the session, exit status 0"
	LR_PID=""
	launch_next_root
	# given a URL, no facts given: there is no run.json to read, the facts are the trace's
	check_eq "$(tr -d '\r' <"$WORK/tty.out" | grep -c '^ *tolerable latency from: *trace$')" 1 \
		"given a URL, no facts given: the report takes the run's facts from the trace"
	check_eq "$(grep -c $'\e\\[7A' "$WORK/tty.out" | awk '{print ($1 > 0)}') $(grep -c 'p99 of the last [0-9]* intervals: ' "$WORK/tty.out" | awk '{print ($1 > 0)}') $(grep -c "^The session ended: the report (given a URL, the session's end does not tell whether the run had ended)" "$WORK/tty.out")" \
		"1 1 1" "on a terminal: seven lines redrawn in place (cursor up 7), the p99 sparkline, then the report, saying a URL's end does not tell whether the run had ended"
	# the histograms: the last view's two lines, on the same bins (the same edges, as many bins)
	hist_now=$(grep -a "interval's doorbells by latency: " "$WORK/tty.out" | tail -n 1 | tr -d '\r')
	hist_run=$(grep -a "run's doorbells by latency: " "$WORK/tty.out" | tail -n 1 | tr -d '\r')
	# LO|HI|bins, a block (3 bytes) counted as one bin as a space is
	edges() { LC_ALL=C sed -E 's/\xe2\x96[\x81-\x88]/x/g; s/.*latency: +([0-9.]+ [num]?s) \xe2\x96\x95(.*)\xe2\x96\x8f ([0-9.]+ [num]?s).*/\1|\3|\2/' | awk -F'|' '{ print $1 "|" $2 "|" length($3) }'; }
	if [[ "$hist_run" =~ run\'s\ doorbells\ by\ latency:\ +[0-9.]+\ [num]?s\ ▕[▁▂▃▄▅▆▇█\ ]*█[▁▂▃▄▅▆▇█\ ]*▏\ [0-9.]+\ [num]?s\ \(log2\ bins\)$ ]] &&
		[ "$(echo "$hist_now" | edges)" = "$(echo "$hist_run" | sed 's/ (log2 bins)$//' | edges)" ]; then
		ok "on a terminal: the interval's and the run's latency histograms, on the same bins"
	else
		not_ok "on a terminal: the interval's and the run's latency histograms, on the same bins ('$hist_now' '$hist_run')"
	fi
else
	not_ok "third dgrdma-capture --live wrote live.url"
	launch_next_root
fi

# ---- --live-if: the wire too, captured live on lo and joined with the trace ----------------------
if [ "$(id -u)" = 0 ]; then
	if run_url wire; then
		timeout 120 "$LR" --live --json --live-interval 0.5 --live-if lo \
			--live-filter "udp and host $FIP and port 18078" --live-pcap "$WORK/wire.pcap" \
			--host-buffers 16 --buffer-size 16384 --sample-rate 2e6 --fpga-buffers 4 "$URL" \
			>"$WORK/wire.jsonl" 2>"$WORK/wire.err" &
		LR_PID=$!
		stream wire 2
		wait "$CAP_PID"
		CAP_PID=""
		wait "$LR_PID"
		check_eq "$?" 0 "--live-if: followed to the end ($(head -c 200 "$WORK/wire.err"))"
		LR_PID=""
		launch_follow
		W=$WORK/wire.jsonl
		check_eq "$(jq -s '[.[] | select(.kind == "interval")] as $iv
			| ($iv | all(has("wire_rx")))
			  and ([range(0; $iv | length) as $i
			        | ([$iv[:$i + 1][].wire_rx.interval.count] | add) == $iv[$i].wire_rx.run.count] | all)
			  and ($iv[-1].wire_rx.run.count == .[-1].wire.rx.latency_ns.count)
			  and (.[-1].wire.rx.matched > 0) and (.[-1].host.joined.doorbells > 0)' "$W")" \
			true "--live-if: wire latency in every interval, adding up to the final report's, joined with the trace"
		"$LR" --json --no-progress --host-buffers 16 --buffer-size 16384 --sample-rate 2e6 \
			--fpga-buffers 4 "$WORK/wire/trace" "$WORK/wire.pcap" >"$WORK/wire.offline.json" \
			2>"$WORK/wire.offline.err"
		check_eq "$(tail -n 1 "$W" | jq -S -c '[.wire, .host, (.regime | del(.mitigations))]')" \
			"$(jq -S -c '[.wire, .host, (.regime | del(.mitigations))]' "$WORK/wire.offline.json")" \
			"--live-if: the final report (wire, host, joined, verdict) equals the offline one on the trace and the saved capture"
	else
		not_ok "dgrdma-capture --live (wire run) wrote live.url"
		launch_follow
	fi
	# ---- --live-follow: the run folder's capture.pcapng, read as dumpcap writes it ----------------
	if run_url follow; then
		timeout 120 "$LR" --live --json --live-interval 0.5 \
			--live-follow "$WORK/follow/capture.pcapng" --host-buffers 16 --buffer-size 16384 \
			--sample-rate 2e6 --fpga-buffers 4 "$URL" >"$WORK/follow.jsonl" 2>"$WORK/follow.err" &
		LR_PID=$!
		stream follow 3
		wait "$CAP_PID"
		check_eq "$?" 0 "--live-follow: dgrdma-capture --live with its packet capture ended well"
		CAP_PID=""
		wait "$LR_PID"
		check_eq "$?" 0 "--live-follow: followed to the end ($(head -c 200 "$WORK/follow.err"))"
		LR_PID=""
		launch_two
		F=$WORK/follow.jsonl
		diag "--live-follow: wire doorbells per interval: $(jq -s -r '[.[] | select(.kind == "interval") | .wire_rx.interval.count] | map(tostring) | join(" ")' "$F")"
		check_eq "$(jq -s '[.[] | select(.kind == "interval")] as $iv
			| ($iv | all(has("wire_rx")))
			  and ([range(0; $iv | length) as $i
			        | ([$iv[:$i + 1][].wire_rx.interval.count] | add) == $iv[$i].wire_rx.run.count] | all)
			  and ($iv[-1].wire_rx.run.count == .[-1].wire.rx.latency_ns.count)
			  and (.[-1].wire.rx.matched > 0) and (.[-1].host.joined.doorbells > 0)' "$F")" \
			true "--live-follow: wire latency in every interval, adding up to the final report's, joined with the trace"
		check_eq "$(jq -s '[.[] | select(.kind == "interval")] | .[:-1] | map(.wire_rx.interval.count) | add > 0' "$F")" \
			true "--live-follow: doorbells read from the file while it was written (before the last interval)"
		"$LR" --json --no-progress --host-buffers 16 --buffer-size 16384 --sample-rate 2e6 \
			--fpga-buffers 4 "$WORK/follow/trace" "$WORK/follow/capture.pcapng" \
			>"$WORK/follow.offline.json" 2>"$WORK/follow.offline.err"
		check_eq "$(tail -n 1 "$F" | jq -S -c '[.wire, .host, (.regime | del(.mitigations))]')" \
			"$(jq -S -c '[.wire, .host, (.regime | del(.mitigations))]' "$WORK/follow.offline.json")" \
			"--live-follow: the final report (wire, host, joined, verdict) equals the offline one on the trace and the finished capture.pcapng"
	else
		not_ok "dgrdma-capture --live (with its capture) wrote live.url: $(tail -2 "$WORK/follow.capture.out")"
		launch_two
	fi

	# ---- --live-if with two sessions at once: a capture each (both on lo, told apart by filter) --
	if run_url two-a; then
		URL_A=$URL
		PORT_H=$((PORT_H1 + 4000))
		FPGA_ADDR=$FIP2:18078
		if run_url two-b; then
			URL_B=$URL
			timeout 120 "$LR" --live --json --live-interval 0.5 \
				--live-if lo --live-filter "udp and host $FIP and port 18078" --live-pcap "$WORK/two-a.pcap" \
				--live-if lo --live-filter "udp and host $FIP2 and port 18078" --live-pcap "$WORK/two-b.pcap" \
				--host-buffers 16 --buffer-size 16384 --sample-rate 2e6 --fpga-buffers 4 \
				"$URL_A" "$URL_B" >"$WORK/two.jsonl" 2>"$WORK/two.err" &
			LR_PID=$!
			stream two-b 2 &
			spid=$!
			PORT_H=$PORT_H1
			FPGA_ADDR=$FIP:18078
			stream two-a 2
			wait "$spid"
			wait "$CAP2_PID"
			st=$?
			wait "$CAP_PID"
			check_eq "$st $?" "0 0" "--live-if, two sessions: both recordings ended well"
			CAP_PID=""
			CAP2_PID=""
			wait "$LR_PID"
			check_eq "$?" 0 "--live-if, two sessions: followed to the end ($(head -c 200 "$WORK/two.err"))"
			LR_PID=""
			launch_given
			T=$WORK/two.jsonl
			diag "--live-if, two sessions: wire doorbells per interval (together [a, b]): $(jq -s -r '[.[] | select(.kind == "interval") | "\(.wire_rx.interval.count)\([.hosts[].wire_rx.interval.count])"] | join(" ")' "$T")"
			check_eq "$(jq -s '[.[] | select(.kind == "interval")]
				| (map(has("wire_rx") and (.hosts | all(has("wire_rx")))
				       and .wire_rx.interval.count == ([.hosts[].wire_rx.interval.count] | add)
				       and .wire_rx.run.count == ([.hosts[].wire_rx.run.count] | add)) | all)
				  and (.[-1].hosts | all(.wire_rx.run.count > 0))' "$T")" \
				true "--live-if, two sessions: each its own wire in every interval, adding up to the together one"
			for h in a b; do
				[ "$h" = a ] && u=$URL_A || u=$URL_B
				# Two sessions at once used to lose a session's last packet: the default's event
				# rule had exclusions, and lttng-sessiond 2.13.9 crashed when dgrdma-capture
				# listed the first session to end, mid-run of the other (docs/tracepoints.md).
				"$LR" --json --no-progress --host-buffers 16 --buffer-size 16384 --sample-rate 2e6 \
					--fpga-buffers 4 "$WORK/two-$h/trace" "$WORK/two-$h.pcap" >"$WORK/two-$h.offline.json" \
					2>"$WORK/two-$h.offline.err" ||
					diag "offline latency-report on $h: $(head -c 300 "$WORK/two-$h.offline.err")"
				check_eq "$(jq -s -S -c --arg u "$u" '.[] | select(.kind == "final" and .url == $u) | [.wire, .host, (.regime | del(.mitigations))]' "$T")" \
					"$(jq -S -c '[.wire, .host, (.regime | del(.mitigations))]' "$WORK/two-$h.offline.json")" \
					"--live-if, two sessions: $h's final report (wire, host, joined, verdict) equals the offline one on its trace and saved capture"
				check_eq "$(jq -r '.trace.discarded_events | type' "$WORK/two-$h/run.json")" number \
					"--live-if, two sessions: $h's session daemon answered the final listing (it did not crash)"
				check_eq "$(jq -s -r --arg u "$u" '.[] | select(.kind == "final" and .url == $u) | .host.processes' "$T") $(jq -r '.trace.processes' "$WORK/two-$h/run.json")" \
					"1 command" "--live-if, two sessions: $h's live view holds its own host only (--only-command)"
			done
		else
			not_ok "second dgrdma-capture --live of two at once wrote live.url"
		fi
	else
		not_ok "first dgrdma-capture --live of two at once wrote live.url"
	fi
	PORT_H=$PORT_H1
	FPGA_ADDR=127.0.0.1:$PORT_F
	[ -n "$GIVEN_LAUNCHED" ] || launch_given
	bad "--live-if on no such interface" "--live-if no-such-if0" "$LR" --live --live-if no-such-if0 net://127.0.0.1:1/host/h/s
	bad "--live-filter that does not compile" "--live-filter 'udp port x'" "$LR" --live --live-if lo --live-filter "udp port x" net://127.0.0.1:1/host/h/s
else
	skip "--live-if: capturing needs root"
	launch_given
fi
bad "--live-if once for two URLs" "--live-if: give one interface per URL, in the same order (got 1 for 2 URLs)" "$LR" --live --live-if lo net://a/host/h/s net://a/host/h/t
bad "--live-filter twice for three --live-if" "--live-filter: give one for every --live-if, or one per --live-if in the same order (got 2 for 3)" \
	"$LR" --live --live-if lo --live-if lo --live-if lo --live-filter udp --live-filter udp net://a/host/h/s net://a/host/h/t net://a/host/h/u
bad "--live-pcap once for two --live-if" "--live-pcap: give one file per --live-if, in the same order (got 1 for 2)" \
	"$LR" --live --live-if lo --live-if lo --live-pcap x net://a/host/h/s net://a/host/h/t
bad "--live-pcap without --live-if" "need --live-if" "$LR" --live --live-pcap x net://a/host/h/s
bad "--live-follow once for two URLs" "--live-follow: give one capture per URL, in the same order (got 1 for 2 URLs)" "$LR" --live --live-follow x net://a/host/h/s net://a/host/h/t
bad "--live-follow and --live-if" "--live-if and --live-follow are two sources" "$LR" --live --live-if lo --live-follow x net://a/host/h/s
bad "--live-follow without --live" "go with --live" "$LR" --live-follow x y.pcap
bad "--live-follow of a file that is not a capture" "--live-follow $DGR_SRC/README.md: not a pcap or pcapng capture" \
	"$LR" --live --live-follow "$DGR_SRC/README.md" net://127.0.0.1:1/host/h/s

# ---- --relayd: a relayd of the test's own (another lab machine's, say) -------------------------
if run_url given; then
	check "--relayd: the live URL names the given relayd's live port ($URL)" \
		grep -qE "^net://127\.0\.0\.1:$((rb + 2))/host/$(uname -n)/dgrdma-capture-[0-9]+$" "$WORK/given/live.url"
	timeout 120 "$LR" --live --json --host-buffers 16 --buffer-size 16384 --sample-rate 2e6 \
		--fpga-buffers 4 "$URL" >"$WORK/given.jsonl" 2>"$WORK/given.err" &
	LR_PID=$!
	stream given 2
	wait "$CAP_PID"
	CAP_PID=""
	wait "$LR_PID"
	check_eq "$?" 0 "--relayd: followed to the end ($(head -c 200 "$WORK/given.err"))"
	LR_PID=""
	launch_run gone --relayd "net://127.0.0.1:$rb:$((rb + 1))" --relayd-live-port $((rb + 2))
	check_eq "$(jq -r '[.live.relayd, .live.url, .trace.path] | @json' "$WORK/given/run.json")" \
		"[\"given\",\"$URL\",null]" "--relayd: run.json says the relayd was given, and the trace is there"
	# offline, on what that relayd wrote, with the same facts
	"$LR" --json --no-progress --host-buffers 16 --buffer-size 16384 --sample-rate 2e6 \
		--fpga-buffers 4 "$WORK/relayd-out" >"$WORK/given.offline.json" 2>"$WORK/given.offline.err"
	check_eq "$(tail -n 1 "$WORK/given.jsonl" | jq -S -c '[.host, (.regime | del(.mitigations))]')" \
		"$(jq -S -c '[.host, (.regime | del(.mitigations))]' "$WORK/given.offline.json")" \
		"--relayd: the final report equals the offline one on the relayd's trace"
	check_eq "$(tail -n 1 "$WORK/given.jsonl" | jq -c '[.whole_run, .whole_run_why]')" \
		'["unknown","given a URL, the session'"'"'s end does not tell whether the run had ended (give the run folder: latency-report --live RUN-FOLDER)"]' \
		"given a URL, the final report says whether it holds the whole run is unknown"
else
	not_ok "dgrdma-capture --relayd wrote live.url: $(tail -2 "$WORK/given.capture.out")"
	launch_run gone --relayd "net://127.0.0.1:$rb:$((rb + 1))" --relayd-live-port $((rb + 2))
fi
# the relayd goes away in the middle of a run: a clear error at once, and the recording ends well
if run_url gone; then
	timeout 60 "$LR" --live --json --live-interval 0.5 "$URL" >"$WORK/gone.jsonl" 2>"$WORK/gone.err" &
	LR_PID=$!
	# long enough to be streaming when the relayd goes, however slow the machine; stopped after
	stream gone 60 &
	spid=$!
	streaming_seen gone
	kill -KILL "$RELAYD_PID"
	wait "$RELAYD_PID" 2>/dev/null
	RELAYD_PID=""
	wait "$LR_PID"
	check_eq "$? $(grep -c 'reading the live session failed' "$WORK/gone.err")" "2 1" \
		"the relayd killed during the run: latency-report --live says so and exits 2 ($(head -c 200 "$WORK/gone.err"))"
	LR_PID=""
	stream_stop "$spid"
	wait "$CAP_PID"
	check_eq "$?" 0 "the relayd killed during the run: dgrdma-capture still ends with the command's status ($(tail -n 4 "$WORK/gone.capture.out" | tr '\n' ' ' | head -c 600))"
	CAP_PID=""
else
	not_ok "dgrdma-capture --relayd (second run) wrote live.url: $(tail -2 "$WORK/gone.capture.out")"
fi
if [ -n "$RELAYD_PID" ]; then
	kill -TERM "$RELAYD_PID" 2>/dev/null
	wait "$RELAYD_PID" 2>/dev/null
	RELAYD_PID=""
fi

# ---- given the run folder, the session daemon gone mid-run ---------------------------------------
# The relayd ends the session as if it had been destroyed: only the run.json dgrdma-capture writes
# when the command has ended tells the two apart. The view waits for it, prints the report on what
# arrived, says it is not the whole run, and exits 2. Last: the session daemon is the suite's own
# and is not started again.
if [ "${TP_ISOLATED:-0}" = 1 ] && [ -n "$TP_SESSIOND_PID" ]; then
	launch_run cut
	timeout 120 "$LR" --live --json --live-interval 0.5 "$WORK/cut" >"$WORK/cut.jsonl" 2>"$WORK/cut.err" &
	LR_PID=$!
	stream cut 60 &
	spid=$!
	streaming_seen cut
	tp_kill_gone "$TP_SESSIOND_PID"
	TP_SESSIOND_PID=""
	# the stream ends, then the host (its --idle-timeout), then the recording with its run.json
	stream_stop "$spid"
	wait "$CAP_PID"
	cap_rc=$?
	CAP_PID=""
	wait "$LR_PID"
	lr_rc=$?
	LR_PID=""
	lost="lttng stop failed (No session daemon is available): the session stopped or ended during the run"
	check_eq "$cap_rc $(jq -r '.trace.lost' "$WORK/cut/run.json")" "3 $lost" \
		"the session daemon killed during a live run: dgrdma-capture exits 3, run.json's trace.lost says why ($(tail -n 4 "$WORK/cut.capture.out" "$WORK/cut.fpga.out" 2>&1 | tr '\n' ' ' | head -c 900))"
	check_eq "$lr_rc $(grep -c -F -x "latency-report: $WORK/cut: not known to be the whole run: the trace ends before the run did (run.json's trace.lost: $lost)" "$WORK/cut.err")" \
		"2 1" "given the run folder: the view names the lost trace and exits 2 ($(head -c 300 "$WORK/cut.err"))"
	check_eq "$(tail -n 1 "$WORK/cut.jsonl" | jq -c '[.kind, .whole_run, .whole_run_why, .host.rx.latency_ns.count > 0]')" \
		"[\"final\",\"no\",\"the trace ends before the run did (run.json's trace.lost: $lost)\",true]" \
		"given the run folder: the final report, on what arrived, says it is not the whole run"
else
	skip "the session daemon is not this suite's own (no private mount namespace): not stopped"
	skip "the session daemon is not this suite's own: not stopped"
	skip "the session daemon is not this suite's own: not stopped"
fi

# ---- bad input: clear errors, exit 2, never a hang ------------------------------------------------
mkdir -p "$WORK/not-live"
echo "x" >"$WORK/not-live/live.url"
bad "a run folder whose live.url holds no URL" "--live: $WORK/not-live/live.url: 'x' is not an LTTng live URL" \
	"$LR" --live "$WORK/not-live"
bad "a finished run folder" "--live: $WORK/json is a finished run (it has run.json): read it as it is, latency-report $WORK/json" \
	"$LR" --live "$WORK/json"
bad "a file given as a run folder" "--live: $DGR_SRC/README.md is neither a run folder nor a URL" \
	"$LR" --live "$DGR_SRC/README.md"
bad "a URL of another scheme" "is not an LTTng live URL (accepted: net://RELAYD\[:PORT\]/host/HOSTNAME/SESSION" \
	"$LR" --live http://localhost/host/h/s
bad "a URL without its session" "is not an LTTng live URL" "$LR" --live net://localhost/host/h
bad "an unreachable relayd" "cannot reach the relay daemon" "$LR" --live net://127.0.0.1:1/host/h/s
bad "nine URLs" "follows 1..8 sessions (got 9 URLs)" "$LR" --live \
	net://a/host/h/s1 net://a/host/h/s2 net://a/host/h/s3 net://a/host/h/s4 net://a/host/h/s5 \
	net://a/host/h/s6 net://a/host/h/s7 net://a/host/h/s8 net://a/host/h/s9
bad "unreachable relayds for two URLs: the first named" "net://127.0.0.1:1/host/h/s: cannot reach the relay daemon" \
	"$LR" --live net://127.0.0.1:1/host/h/s net://127.0.0.1:1/host/h/t
bad "--csv with --live" "--csv is not available with --live" "$LR" --live --csv "$WORK/csv" net://a/host/h/s
bad "--live-interval 0" "--live-interval: '0' is out of range 0.1..3600" "$LR" --live --live-interval 0 net://a/host/h/s
bad "--live takes no value" "--live takes no value" "$LR" --live=1 net://a/host/h/s
bad "dgrdma-capture --live without a trace" "--live needs the trace" "$CAPTURE" --live --no-trace -- true
bad "dgrdma-capture --relayd not a URL" "--relayd: 'tcp://x' is not net://HOST" "$CAPTURE" --relayd tcp://x -- true
bad "dgrdma-capture --live-wait 0" "--live-wait: '0' is out of range 1..3600" "$CAPTURE" --live-wait 0 -- true

done_testing
