# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# shellcheck disable=SC2034 # sets variables for the scripts that source it
# Shared by the scenario suites (sourced): a private link (test/lib/netns.sh), the run folder
# under $DGR_BUILD/scenarios/<name>/, and one function that runs the emulator against the host
# stack and waits for both. docs/scenarios.md describes the scenarios.
#
#   scn_init NAME        TAP, link mode (re-runs the script in a user namespace when not root),
#                        SCN_OUT (emptied), the link up, cleanup on exit
#   scn_run_rx DIR [capture]   host rx (under dgrdma-capture with "capture") then the emulator;
#                        options in the arrays HOST_OPTS and FPGA_OPTS; results in DIR:
#                        host.json, fpga.json, host.log, fpga.log; SCN_HOST_RC, SCN_FPGA_RC;
#                        SCN_DURING_RUN names a function run while the emulator streams
#   scn_run_tx DIR       the same for dgrdma-host tx into the emulator (--mode dac in FPGA_OPTS)
#   jnum FILE KEY        a number from a summary JSON, wherever the key is nested (from
#                        memory for the runs' host.json and fpga.json: scn_json_use)
#   scn_rx_frames, scn_stream_flowing FROM N, scn_hold_past_a_frame, scn_rt_busy_cpu0 NAME:
#                        disturbances that last until a frame waited through them (stall-cause*)
#   scn_recording on|off, scn_analysis NAME COMMAND..., scn_analysis_adopt NAME PID,
#                        scn_analysed NAME: a run's analysis in the background, beside the next
#                        run's recording (stall-cause*)
set -u
: "${DGR_BUILD:?}" "${DGR_SRC:?}"
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/lib/netns.sh"
. "$DGR_SRC/test/lib/frames.sh"
. "$DGR_SRC/test/lib/pcap_buffer.sh"
BIN="$DGR_BUILD/bin"
SCN_BG_PIDS=()
SCN_FPGA_PREFIX=() # e.g. (taskset -c 1): runs the emulator through this command
SCN_CAPTURE_PREFIX=() # e.g. (taskset -c 1): runs dgrdma-capture (and its dumpcap) through it

scn_cleanup() {
	local rc=$? p
	for p in "${SCN_BG_PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${SCN_BG_PIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	[ -n "${SCN_DT:-}" ] && rm -rf "$SCN_DT"
	dgr_link_down
	exit "$rc"
}

scn_init() {
	SCN_NAME="$1"
	shift
	require_built "$BIN" dgrdma-host dgrdma-fpga dgrdma-capture latency-report dgrdma-plot
	DGR_LINK_TAG="scn$$"
	SCN_MODE=$(dgr_link_choose)
	if [ "$SCN_MODE" = userns ] && [ -z "${DGR_IN_USERNS:-}" ]; then
		dgr_link_reexec "$0" "$@"
	fi
	if [ "$SCN_MODE" = userns ]; then
		# /sys still shows the first network namespace's interfaces until sysfs is mounted
		# again in the new one (dgrdma-capture looks its interface up there).
		mount -t sysfs sysfs /sys 2>/dev/null || diag "could not remount /sys in the user namespace"
	fi
	# What dgrdma-capture can record here: capturing on lo needs privileges. (In a user
	# namespace the session daemon runs as the mapped root on a private /run/lttng, netns.sh.)
	case "$SCN_MODE" in
	udp) SCN_CAPTURE_OPTS=(--no-pcap) SCN_RECORDS="trace only (no packet capture without privileges)" ;;
	*) SCN_CAPTURE_OPTS=() SCN_RECORDS="capture and trace" ;;
	esac
	# The guide's socket-buffer mitigation: without it the emulator's first burst overflows the
	# socket. Forcing 32 MiB needs CAP_NET_ADMIN in the first namespace; else rmem_max caps it.
	SCN_RCVBUF=32M
	if [ "$SCN_MODE" != netns ]; then
		SCN_RCVBUF=$(cat /proc/sys/net/core/rmem_max 2>/dev/null || echo 4194304)
		[ "$SCN_RCVBUF" -gt 33554432 ] && SCN_RCVBUF=33554432
	fi
	SCN_OUT="$DGR_BUILD/scenarios/$SCN_NAME"
	rm -rf "$SCN_OUT"
	mkdir -p "$SCN_OUT"
	trap scn_cleanup EXIT
	trap 'exit 130' INT TERM
	if ! dgr_link_up "$SCN_MODE"; then
		not_ok "link set-up ($SCN_MODE)"
		done_testing
		exit 1
	fi
	diag "link: $SCN_MODE, records: $SCN_RECORDS, results in $SCN_OUT"
}

# scn_have_pcap DIR / scn_have_trace DIR: what the run recorded.
scn_have_pcap() {
	[ -s "$1/capture.pcapng" ]
}
scn_have_trace() {
	[ -d "$1/trace" ]
}

# scn_missing pcap|trace WHAT: in place of the checks WHAT on a record the run lacks. Skipped
# only where the link cannot record it (no packet capture over UDP without privileges); where
# the link promised it (SCN_RECORDS), a recording that went missing fails.
scn_missing() {
	if [ "$1" = pcap ] && [ "$SCN_MODE" = udp ]; then
		skip "$2: $SCN_RECORDS"
	else
		not_ok "$2: the $SCN_MODE link promised a ${1/pcap/packet capture} ($SCN_RECORDS) and the run has none"
	fi
}

# jnum FILE KEY: the first value of KEY anywhere in the JSON FILE ("" when absent, null or
# false). A file given to scn_json_use is answered from memory, any other by a jq of its own.
declare -A SCN_JNUM=() SCN_JNUM_KEPT=()
SCN_JNUM_GEN=0
jnum() {
	local g=${SCN_JNUM_KEPT[$1]:-} v
	if [ -n "$g" ]; then
		v=${SCN_JNUM["$g"$'\x1f'"$2"]-e}
		case "$v" in
		s*)
			printf '%s\n' "${v:1}"
			return 0
			;;
		e) return 0 ;;
		esac
	fi
	jq -r --arg k "$2" 'first(.. | objects | select(has($k)) | .[$k]) // empty' "$1" 2>/dev/null
}

# scn_json_use FILE...: reads each (re)written summary with one jq (a jq start costs ~28 ms of
# CPU, and the scenarios ran one per value) for jnum: the first value of every key, in the order
# jq's `..` visits them, as s+what jq -r prints, e for null or false, c for an object or an
# array (left to jq). A file jq cannot read is not kept.
scn_json_use() {
	local f k v key
	for f in "$@"; do
		unset 'SCN_JNUM_KEPT[$f]'
		[ -r "$f" ] || continue
		SCN_JNUM_GEN=$((SCN_JNUM_GEN + 1))
		# jq's exit status comes last, alone (not `wait $!`: see json_load in test/lib/json.sh)
		while IFS= read -r -d '' k; do
			IFS= read -r -d '' v || {
				[ "$k" = 0 ] && SCN_JNUM_KEPT[$f]=$SCN_JNUM_GEN
				break
			}
			key="$SCN_JNUM_GEN"$'\x1f'"$k"
			[ -n "${SCN_JNUM[$key]+set}" ] || SCN_JNUM[$key]=$v
		done < <(jq -j '.. | objects | to_entries[] | .key + "\u0000" + (.value |
			if . == null or . == false then "e"
			elif type == "object" or type == "array" then "c"
			elif type == "string" then (if test("\u0000") then error("NUL") else "s" + . end)
			else "s" + tojson end) + "\u0000"' "$f" 2>/dev/null; printf '%s\0' "$?")
	done
}

# scn_pcap_mib: dumpcap's kernel buffer for the emulator's stream in FPGA_OPTS (its --rate, else
# the emulator's default of 10M; its --duration, else a long stream): test/lib/pcap_buffer.sh.
scn_pcap_mib() {
	local i rate=10M secs=""
	for ((i = 0; i + 1 < ${#FPGA_OPTS[@]}; i++)); do
		case "${FPGA_OPTS[i]}" in
		--rate | --sample-rate) rate=${FPGA_OPTS[i + 1]} ;;
		--duration) secs=${FPGA_OPTS[i + 1]} ;;
		esac
	done
	dgr_pcap_mib "$rate" "$secs"
}

# scn_start_host DIR MODE(rx|tx) [capture]: the host in the background (SCN_HOST_BG); DIR is
# created (by dgrdma-capture with "capture"), the host writes DIR/host.json.
scn_start_host() {
	local dir="$1" mode="$2" cap="${3:-}" pre=()
	rm -rf "$dir"
	unset 'SCN_JNUM_KEPT[$dir/host.json]' 'SCN_JNUM_KEPT[$dir/fpga.json]'
	if [ "$cap" = capture ]; then
		pre=("${SCN_CAPTURE_PREFIX[@]}" "$BIN/dgrdma-capture" --output "$dir" "${SCN_CAPTURE_OPTS[@]}"
			--pcap-buffer "$(scn_pcap_mib)" --)
	else
		mkdir -p "$dir"
	fi
	"${DGR_HOST_RUN[@]}" "${pre[@]}" "$BIN/dgrdma-host" "$mode" "${DGR_HOST_TRANSPORT[@]}" \
		--rcvbuf "$SCN_RCVBUF" --summary-json "$dir/host.json" "${HOST_OPTS[@]}" >"$dir.host.log" 2>&1 &
	SCN_HOST_BG=$!
	SCN_BG_PIDS+=("$SCN_HOST_BG")
	dgr_wait_listening "$SCN_HOST_BG" dgrdma-host "${DGR_HOST_TRANSPORT[@]}"
}

# scn_finish DIR: waits for the host, moves its log into DIR.
scn_finish() {
	local dir="$1"
	wait "$SCN_HOST_BG"
	SCN_HOST_RC=$?
	mkdir -p "$dir"
	mv "$dir.host.log" "$dir/host.log"
	scn_json_use "$dir/host.json" "$dir/fpga.json"
}

# scn_run_rx DIR [capture]: one RX run (ADC -> host), see the top of this file.
scn_run_rx() {
	local dir="$1" cap="${2:-}"
	SCN_FPGA_RC=""
	if ! scn_start_host "$dir" rx "$cap"; then
		diag "dgrdma-host rx is not receiving (exited, or its sockets not bound within 30 s)"
		kill "$SCN_HOST_BG" 2>/dev/null
		scn_finish "$dir"
		return 1
	fi
	# ip netns exec execs the command: $! is the emulator's pid (SCN_FPGA_PID, as in the trace).
	"${DGR_FPGA_RUN[@]}" "${SCN_FPGA_PREFIX[@]}" "$BIN/dgrdma-fpga" "${DGR_FPGA_TRANSPORT[@]}" --mode adc --quiet \
		--summary-json "$dir/fpga.json" "${FPGA_OPTS[@]}" >"$dir/fpga.log" 2>&1 &
	SCN_FPGA_PID=$!
	SCN_BG_PIDS+=("$SCN_FPGA_PID")
	[ -n "${SCN_DURING_RUN:-}" ] && "$SCN_DURING_RUN"
	wait "$SCN_FPGA_PID"
	SCN_FPGA_RC=$?
	scn_finish "$dir"
}

# scn_run_tx DIR [MODE]: one TX run (host -> DAC; MODE perf for dgrdma-host perf): the emulator
# first (it receives), then the host; the host's standard output goes to DIR/host.out.
scn_run_tx() {
	local dir="$1" mode="${2:-tx}" fpga_bg
	rm -rf "$dir"
	unset 'SCN_JNUM_KEPT[$dir/host.json]' 'SCN_JNUM_KEPT[$dir/fpga.json]'
	mkdir -p "$dir"
	"${DGR_FPGA_RUN[@]}" "$BIN/dgrdma-fpga" "${DGR_FPGA_TRANSPORT[@]}" --quiet \
		--summary-json "$dir/fpga.json" "${FPGA_OPTS[@]}" >"$dir/fpga.log" 2>&1 &
	fpga_bg=$!
	SCN_BG_PIDS+=("$fpga_bg")
	if ! dgr_wait_listening "$fpga_bg" dgrdma-fpga "${DGR_FPGA_TRANSPORT[@]}"; then
		diag "dgrdma-fpga is not receiving (exited, or its sockets not bound within 30 s)"
	fi
	"${DGR_HOST_RUN[@]}" "$BIN/dgrdma-host" "$mode" "${DGR_HOST_TRANSPORT[@]}" --rcvbuf "$SCN_RCVBUF" \
		--summary-json "$dir/host.json" "${HOST_OPTS[@]}" >"$dir/host.out" 2>"$dir/host.log"
	SCN_HOST_RC=$?
	# An emulator that runs until stopped (SCN_FPGA_STOP=1) drains and exits on SIGINT.
	[ "${SCN_FPGA_STOP:-0}" = 1 ] && kill -INT "$fpga_bg" 2>/dev/null
	wait "$fpga_bg"
	SCN_FPGA_RC=$?
	scn_json_use "$dir/host.json" "$dir/fpga.json"
}

# scn_report DIR RATE BUFFERS BUFSIZE FPGA_BUFFERS: report.txt, report.json, csv/, plots/ of a
# captured run, with the tolerable latency from the run's real parameters, on the trace events
# of this run's host and emulator only (--pid: other processes of the user may trace meanwhile).
scn_report() {
	local dir="$1" facts=(--sample-rate "$2" --host-buffers "$3" --buffer-size "$4" --fpga-buffers "$5")
	local u pid
	pid=$(jq -r '.command_pid // empty' "$dir/run.json" 2>/dev/null)
	[ -n "$pid" ] && facts+=(--pid "$pid")
	[ -n "${SCN_FPGA_PID:-}" ] && facts+=(--pid "$SCN_FPGA_PID")
	# dgrdma-capture records every user's dgrdma* events (known problem, docs/scenarios.md):
	# another user's trace beside ours makes latency-report refuse the folder (two UUIDs).
	# Other users' traces are moved aside, out of the run folder (latency-report reads every
	# trace below it), to DIR.other-users-trace/; never deleted.
	for u in "$dir"/trace/ust/uid/*; do
		[ -d "$u" ] || continue
		if [ "$(basename "$u")" != "$(id -u)" ]; then
			mkdir -p "$dir.other-users-trace"
			mv "$u" "$dir.other-users-trace/"
			diag "$(basename "$dir"): moved another user's trace (uid $(basename "$u")) out of trace/"
		fi
	done
	"$BIN/latency-report" --no-progress "${facts[@]}" "$dir" >"$dir/report.txt" 2>"$dir/report.err"
	"$BIN/latency-report" --no-progress --json --csv "$dir/csv" "${facts[@]}" "$dir" >"$dir/report.json" \
		2>>"$dir/report.err"
	"$BIN/dgrdma-plot" --output "$dir/plots" --title "$SCN_NAME/$(basename "$dir")" "$dir/csv" \
		>"$dir/plot.log" 2>&1
}

# ---- disturbances of a stream (the stall-cause scenarios) -------------------------------------

# scn_rx_frames: frames the host's network namespace has received so far (every interface).
scn_rx_frames() {
	dgr_netdev_frames <("${DGR_HOST_RUN[@]}" cat /proc/net/dev)
}

# scn_stream_flowing FROM N: waits (at most 30 s) until the host's namespace has received N
# frames more than FROM (an earlier scn_rx_frames).
scn_stream_flowing() {
	local i
	for ((i = 0; i < 600; i++)); do
		[ "$(scn_rx_frames)" -ge $(($1 + $2)) ] && return 0
		nap 0.05
	done
	diag "the stream did not start within 30 s"
	return 1
}

# scn_hold_past_a_frame: from CPU 1, waits until a frame reached the host's namespace after the
# call (at most 10 s), then 300 ms more: the disturbance that calls it lasts that long. A stall
# needs a frame that waits: on a busy machine the emulator itself may be held (once another
# suite's dumpcap, allocating its 512 MiB buffer, kept CPU 1 for 1.9 s, and a fixed 300 ms
# SIGSTOP fell where nothing arrived: no stall at all).
scn_hold_past_a_frame() {
	"${DGR_HOST_RUN[@]}" taskset -c 1 bash -c '. "$1" && dgr_hold_past_a_frame /proc/net/dev' \
		hold_past_a_frame "$DGR_SRC/test/lib/frames.sh"
}

# scn_rt_busy_cpu0 NAME: a SCHED_FIFO busy loop (bash, priority 50) on CPU 0, where the host's
# threads are pinned, for as long as scn_hold_past_a_frame holds.
scn_rt_busy_cpu0() {
	local loop
	# timeout runs at a higher real-time priority on any CPU: the loop ends in any case (12 s)
	chrt -f 51 timeout 12 chrt -f 50 taskset -c 0 bash -c 'while :; do :; done' &
	loop=$!
	scn_hold_past_a_frame || diag "$1: no frame arrived in 10 s of the busy loop"
	kill "$loop" 2>/dev/null
	wait "$loop"
}

# ---- analysis beside a recording (the stall-cause scenarios) ----------------------------------
# A run's analysis (perf's data converted, latency-report) may run in the background while the
# next run records, at SCHED_IDLE on CPU 1: on CPU 0, the stack's, it would be among the stalls'
# culprits, and on CPU 1 it yields at once to the emulator and the recorders there (a waking
# normal task preempts an idle-policy one). Once nothing records, every analysis, with whatever
# it started, is made a normal task on either CPU again: at SCHED_IDLE beside other work (make
# check-under-load's busy loops) it would hardly run at all.
declare -A SCN_ANALYSIS=()

# scn_recording on|off: runs record from now on / no more.
scn_recording() {
	local name pid i
	case $1 in
	on) touch "$SCN_OUT/recording" ;;
	off)
		rm -f "$SCN_OUT/recording"
		for name in "${!SCN_ANALYSIS[@]}"; do
			pid=${SCN_ANALYSIS[$name]}
			# once it has chosen its policy (else it might choose idle after this)
			for ((i = 0; i < 500; i++)); do
				[ -e "$SCN_OUT/$name.analysing" ] || ! kill -0 "$pid" 2>/dev/null && break
				nap 0.01
			done
			scn_normal_task "$pid"
		done
		;;
	esac
}

# scn_normal_task PID: PID and its descendants normal tasks on either CPU; each before its children
# are listed, so that a child it starts meanwhile inherits that
scn_normal_task() {
	local c
	chrt -o -a -p 0 "$1" >/dev/null 2>&1
	taskset -a -p -c 0,1 "$1" >/dev/null 2>&1
	for c in $(pgrep -P "$1"); do
		scn_normal_task "$c"
	done
}

# scn_idle_task PID: PID and its descendants at SCHED_IDLE (on the CPUs they have); each before its
# children are listed, so that a child it starts meanwhile inherits that
scn_idle_task() {
	local c
	chrt -i -a -p 0 "$1" >/dev/null 2>&1
	for c in $(pgrep -P "$1"); do
		scn_idle_task "$c"
	done
}

# scn_analysis_adopt NAME PID: PID, a child of this shell that is already running (a recorder
# ending: dgrdma-capture converting its kernel trace once its dumpcap and perf have stopped), an
# analysis as scn_analysis makes one: at SCHED_IDLE while runs record, else a normal task
scn_analysis_adopt() {
	[ -e "$SCN_OUT/recording" ] && scn_idle_task "$2"
	touch "$SCN_OUT/$1.analysing"
	SCN_ANALYSIS[$1]=$2
}

# scn_analysis NAME COMMAND...: COMMAND (a function: files only, no TAP lines) in the background,
# SCN_ANALYSIS[NAME] its pid: while runs record at SCHED_IDLE on CPU 1, else a normal task on
# either CPU (and what it starts likewise)
scn_analysis() {
	local name=$1
	shift
	(
		trap - EXIT
		if [ -e "$SCN_OUT/recording" ]; then
			chrt -i -p 0 "$BASHPID" >/dev/null && taskset -p -c 1 "$BASHPID" >/dev/null
		else
			taskset -p -c 0,1 "$BASHPID" >/dev/null
		fi
		touch "$SCN_OUT/$name.analysing"
		"$@"
	) &
	SCN_ANALYSIS[$name]=$!
	SCN_BG_PIDS+=("$!")
}

# exited PID: PID, a child of the suite's shell not yet waited for, has ended (it is gone or a
# zombie)
exited() {
	local f=()
	read -r -a f 2>/dev/null <"/proc/$1/stat" || return 0
	[ "${f[2]}" = Z ]
}

# scn_analysed NAME: waits for NAME's analysis (false when none was started)
scn_analysed() {
	[ -n "${SCN_ANALYSIS[$1]:-}" ] || return 1
	wait "${SCN_ANALYSIS[$1]}"
	return 0
}
