#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Scenario "stall-cause-foreign" (issue 33, item 2, last bullet): the stalls of a host that is not
# this project's stack, attributed from the capture and the kernel trace alone. ocpi-style-host
# (test/integration/preload/ocpi_style_host.c: OpenCPI's way, a raw packet socket, no libdgrdma,
# no UST event) pinned to CPU 0 receives from dgrdma-fpga on CPU 1 over a veth pair, recorded by
# dgrdma-capture --no-trace --kernel (the packet capture, and perf's kernel trace with the
# net_dev_xmit and skb_copy_datagram_iovec events that find the host's thread):
#   busy   a SCHED_FIFO busy loop (bash) on CPU 0 until 300 ms after a frame arrived meanwhile:
#          latency-report names the host's thread (comm ocpi-style-host, its tid as the kernel
#          trace has it) and a wire stall caused by a higher-priority task, bash on CPU 0;
#   clean  no disturbance: the thread is found, and no stall is blamed on a real-time bash or
#          called stopped.
# Asserts causes and counts, never times. Needs root (netns, perf -a, chrt), perf and 2 CPUs.
# Runs alone (every stall of the run is named; another suite's tasks would be among them: e.g.
# jitter-bound.sh's real-time bash bursts on CPU 0). The end of the busy run's dgrdma-capture
# (its kernel trace converted) and the run's analysis run while the clean run records,
# idle-priority on CPU 1 (scn_analysis_adopt, scn_analysis in lib.sh).
# make check: alone
. "$DGR_SRC/test/scenarios/lib.sh"
scn_init stall-cause-foreign "$@"

OCPI=$DGR_BUILD/test/preload/ocpi-style-host
if [ "$(id -u)" != 0 ] || ! command -v perf >/dev/null || [ "$SCN_MODE" != netns ]; then
	skip "needs root (two network namespaces, perf -a, real-time priority) and perf (linux-perf)"
	done_testing
	exit 0
fi
if [ "$(nproc)" -lt 2 ]; then
	skip "needs 2 CPUs (the host on one, the emulator on the other), this machine has $(nproc)"
	done_testing
	exit 0
fi
require_built "$DGR_BUILD/test/preload" ocpi-style-host
# this script and what it starts (dgrdma-capture, its dumpcap and perf included) on CPU 1: CPU 0
# is the host's (taskset -c 0) and the busy loop's
taskset -pc 1 $$ >/dev/null

FPGA_MAC=$(dgr_link_mac "$DGR_NS_FPGA" "${DGR_LINK_TAG}f")
# 4 host buffers of 16 KiB: what the emulator sends while the host is held stays within the
# packet socket's default receive buffer (the host sets none), so nothing is lost and every
# held transaction gets its doorbell once the host runs again
H=4 S=16384 E=4
# the emulator's stream, 2 MS/s for 3 s (dumpcap's kernel buffer is sized to it)
RATE=2e6 DUR=3

busy() {
	scn_stream_flowing "$FRAMES0" 200 || return
	scn_rt_busy_cpu0 busy
}

# one NAME DURING: ocpi-style-host on CPU 0 under dgrdma-capture (capture + kernel trace, no
# UST trace), the emulator on CPU 1 streaming 3 s, DURING (a function, or "") meanwhile; then,
# once the capture's dumpcap and perf have stopped, the rest of dgrdma-capture's work (perf's
# data converted to CTF, run.json: 3-4 s of the run's wall time before) and the run's analysis
# (analyse) in the background while the next run records (scn_analysis_adopt, scn_analysis: idle
# priority on CPU 1 meanwhile), checked after the last run (one_checks).
declare -A RUN_RC=() CAPTURE_PID=() FPGA_RC=()
one() {
	local name="$1" during="$2" run="$SCN_OUT/$1" host_bg fpga_pid recorders p
	"${DGR_HOST_RUN[@]}" env --default-signal=INT "$BIN/dgrdma-capture" -o "$run" --no-trace \
		--kernel -i "$DGR_HOST_IF" --pcap-buffer "$(dgr_pcap_mib "$RATE" "$DUR")" -- \
		taskset -c 0 "$OCPI" "$DGR_HOST_IF" "$FPGA_MAC" "$H" "$S" "$E" 1500 \
		>"$SCN_OUT/$name.host.out" 2>"$SCN_OUT/$name.capture.err" &
	host_bg=$!
	SCN_BG_PIDS+=("$host_bg")
	if ! dgr_wait_receiving "$host_bg" ocpi-style-host 1; then
		not_ok "$name: ocpi-style-host receives under dgrdma-capture --kernel"
		sed 's/^/# /' "$SCN_OUT/$name.capture.err"
		return 1
	fi
	recorders=$(pgrep -d ' ' -P "$host_bg" -x 'dumpcap|perf')
	FRAMES0=$(scn_rx_frames)
	"${DGR_FPGA_RUN[@]}" taskset -c 1 "$BIN/dgrdma-fpga" "${DGR_FPGA_TRANSPORT[@]}" --mode adc \
		--rate "$RATE" --duration "$DUR" --quiet --host-buffers "$H" --buffers "$E" --buffer-size "$S" \
		--report-data-loss false --summary-json "$SCN_OUT/$name.fpga.json" \
		>"$SCN_OUT/$name.fpga.log" 2>&1 &
	fpga_pid=$!
	SCN_BG_PIDS+=("$fpga_pid")
	[ -n "$during" ] && "$during"
	wait "$fpga_pid"
	FPGA_RC[$name]=$?
	CAPTURE_PID[$name]=$host_bg
	# (without both found, the capture ends first, as before)
	if [[ $recorders =~ ^[0-9]+\ [0-9]+$ ]]; then
		for p in $recorders; do
			while kill -0 "$p" 2>/dev/null; do
				nap 0.05
			done
		done
		# after the last run nothing records: its end and analysis are normal tasks at once
		[ "$MORE_RUNS" = 1 ] || scn_recording off
		scn_analysis_adopt "$name-capture" "$host_bg"
	else
		capture_ended "$name"
	fi
	scn_analysis "$name" analyse "$name"
}

# capture_ended NAME: waits for the run's dgrdma-capture (RUN_RC) and shows its standard error
capture_ended() {
	[ -z "${RUN_RC[$1]:-}" ] || return 0
	wait "${CAPTURE_PID[$1]}"
	RUN_RC[$1]="$?/${FPGA_RC[$1]}"
	sed 's/^/# /' "$SCN_OUT/$1.capture.err"
}

# analyse NAME (in the background): once the run's dgrdma-capture has ended, latency-report's
# JSON with --advise (its exit status in NAME.lr-rc) and text of the run folder, the kernel
# trace's switches to ocpi-style-host (NAME.host-switches.txt), then NAME_analysis's files when
# the run has one. Files only.
analyse() {
	local name="$1" run="$SCN_OUT/$1"
	while ! exited "${CAPTURE_PID[$name]}"; do
		nap 0.05
	done
	"$BIN/latency-report" --json --no-progress --advise "$run" >"$run/stalls.json" 2>"$run/stalls.err"
	echo "$?" >"$SCN_OUT/$name.lr-rc"
	"$BIN/latency-report" --no-progress "$run" >"$run/stalls.txt" 2>&1
	babeltrace2 "$run/kernel" 2>/dev/null | grep -F 'sched:sched_switch:' |
		grep -F 'next_comm = "ocpi-style-host"' >"$SCN_OUT/$name.host-switches.txt"
	if declare -F "${name}_analysis" >/dev/null; then
		"${name}_analysis"
	fi
}

# one_checks NAME: waits for the run's analysis; the exit statuses, the stalls' source, the
# threads found
one_checks() {
	local name="$1" run="$SCN_OUT/$1"
	capture_ended "$name"
	scn_analysed "$name" || return 1
	check_eq "${RUN_RC[$name]}/$(cat "$SCN_OUT/$name.lr-rc" 2>/dev/null)" 0/0/0 \
		"$name: dgrdma-capture (ocpi-style-host), dgrdma-fpga and latency-report exit 0 ($(head -c 300 "$run/stalls.err"))"
	check_eq "$(jq -r '.stall_causes.source' "$run/stalls.json")/$(jq -r '.kernel.backend' "$run/run.json")/$(jq -r '.trace' "$run/run.json")" \
		wire/perf/null "$name: no UST trace, a perf kernel trace: the stalls come from the wire"
	diag "$name: $(jq -r '.stall_causes | "\(.count) stalls, threshold \(.threshold_ns) ns, p50 \(.p50_ns) ns, \(.kernel_events) kernel events; sender \(.threads.doorbell_sender | "\(.comm) tid \(.tid), \(.doorbells_matched) of \(.doorbells) doorbells (next thread \(.runner_up_matched)), \(.events) sends"); receiver \(.threads.data_receiver | "\(.comm) tid \(.tid), \(.doorbells_matched) of \(.doorbells) (next \(.runner_up_matched)), \(.events) copies"); clock offset \(.threads.clock_offset_ns) ns"' "$run/stalls.json")"
	jq -r '.stall_causes.causes[].text' "$run/stalls.json" | while read -r l; do diag "$name: $l"; done
	threads_checks "$name"
}

# threads_checks NAME: the host's one thread sends the doorbells and receives the data, and is
# named as the kernel trace has it (comm, tid; a sched_switch onto a CPU with both).
threads_checks() {
	local run="$SCN_OUT/$1" pid kpid
	pid=$(jq -r '.command_pid' "$run/run.json")
	check_eq "$(jq -r '.stall_causes.threads | [.doorbell_sender, .data_receiver] | map("\(.found) \(.comm) \(.tid)") | join(", ")' "$run/stalls.json")" \
		"true ocpi-style-host $pid, true ocpi-style-host $pid" \
		"$1: the doorbell sender and the data receiver found: ocpi-style-host, its tid (the recorded command's pid $pid; $(jq -r '.stall_causes.threads | "sender \(.doorbell_sender.doorbells_matched), receiver \(.data_receiver.doorbells_matched) (next \(.data_receiver.runner_up_matched)) of \(.data_receiver.doorbells) doorbells, \(.data_receiver.events) copies, offset \(.clock_offset_ns) ns, slack \(.rx_slack_ns) ns"' "$run/stalls.json"))"
	kpid=$(jq -r '.stall_causes.threads.doorbell_sender.kernel_pid' "$run/stalls.json")
	check "$1: the kernel trace switched to that thread under that name (next_comm ocpi-style-host, next_pid $kpid)" \
		grep -qF "next_pid = $kpid," "$SCN_OUT/$1.host-switches.txt"
}

# The same kernel trace converted by hand (perf's CLOCK_MONOTONIC from boot, without the offset
# to the epoch dgrdma-capture writes): not the capture's axis, so no thread is found, none is
# invented, and the report says why.
busy_analysis() {
	local run="$SCN_OUT/busy"
	perf data convert --to-ctf "$SCN_OUT/busy-boot" -i "$run/kernel.perf.data" >/dev/null 2>&1
	"$BIN/latency-report" --json --no-progress --kernel-trace "$SCN_OUT/busy-boot" "$run" \
		>"$SCN_OUT/busy-boot.json" 2>"$SCN_OUT/busy-boot.err"
}

scn_recording on
MORE_RUNS=1
one busy busy
MORE_RUNS=0
one clean ""
scn_recording off

one_checks busy
run="$SCN_OUT/busy"
check "busy: a wire stall caused by a higher-priority task, the busy loop (bash, real-time) on CPU 0, in the host's thread" \
	jq -e --argjson tid "$(jq -r '.command_pid' "$run/run.json")" '[.stall_causes.stalls[] | select(.cause == "higher-priority-task" and .tid == $tid and (.culprits[0] | .comm == "bash" and .cpu == 0 and .prio < 100))] | length >= 1' "$run/stalls.json"
check "busy: the run's causes name it" \
	jq -e '.stall_causes.causes | any(.cause == "higher-priority-task" and any(.culprits[]; .comm == "bash"))' "$run/stalls.json"
check "busy: --advise's real-time cure addresses that cause, at its rank" \
	jq -e '(.stall_causes.causes | map(.cause) | index("higher-priority-task") + 1) as $r | .advice.by_cause | any(.addresses == "higher-priority-task" and .id == "rt.priority" and .cause_rank == $r)' "$run/stalls.json"
check "busy: the text names the cause and the threads found" \
	bash -c "grep -qE 'was runnable while CPU 0 ran (.*, )?bash( \([^)]+\))? [0-9]+%' '$run/stalls.txt' && grep -q 'ocpi-style-host' '$run/stalls.txt'"
check_eq "$(jq -r '.stall_causes | "\(.threads.clocks_apart) \(.threads.doorbell_sender.found) \(.threads.data_receiver.found) \([.stalls[] | select(.cause != "thread-not-in-kernel-trace")] | length) \(.causes[0].text | test("not on the epoch"))"' "$SCN_OUT/busy-boot.json")" \
	"true false false 0 true" \
	"busy, the kernel trace converted without the epoch's offset: clocks apart, no thread found or invented, the text says why"

one_checks clean
run="$SCN_OUT/clean"
check_eq "$(jq -r '[.stall_causes.stalls[] | select(.cause == "stopped")] | length' "$run/stalls.json")" 0 \
	"clean: no stall is called stopped"
check_eq "$(jq -r '[.stall_causes.stalls[].culprits[]? | select(.comm == "bash" and .prio < 100)] | length' "$run/stalls.json")" 0 \
	"clean: no stall is blamed on a real-time bash"
done_testing
