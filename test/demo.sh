#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make demo: the main job of dgrdma-tools in one command.
#
# A software FPGA (dgrdma-fpga, ADC source) streams samples to the reference
# host stack (dgrdma-host rx) over a private link; dgrdma-capture records the
# run (LTTng trace + packet capture + run.json); latency-report gives the
# verdict and dgrdma-plot draws latency and drop rate over the run.
#
# The link is the best this machine allows (test/lib/netns.sh): two network
# namespaces and a veth pair as root, an unprivileged user+network namespace
# otherwise, UDP on 127.0.0.1 as the last resort; it says which it used ("demo:
# link: ...") and what it records ("demo: recording ..."): trace and capture,
# except over UDP without root (trace only: capturing on lo needs privileges).
# Ctrl-C while streaming ends the stream early and reports on what was recorded;
# a second Ctrl-C stops at once. Namespaces and processes it started are removed
# on every exit. Environment knobs:
#   DEMO_RATE (samples/s, default 20e6)  DEMO_SECONDS (default 3)
#   DEMO_DIR (default build/demo): the demo's runs, run-<time> each, DEMO_DIR/latest the newest;
#   only the newest DEMO_KEEP (default 5) are kept there, older ones are removed
#   DEMO_OUT (one run folder instead, kept; DEMO_DIR/latest is not changed)
#   DGR_LINK_FORCE=netns|userns|udp (skip the detection)
#   DEMO_HOST_OPTS, DEMO_FPGA_OPTS (more options of dgrdma-host rx and dgrdma-fpga,
#   split at spaces; DEMO_HOST_OPTS='--consumer-stall 100:80' gives a jitter-bound run)
# When the emulator or the host run fails, the demo still reports on what was recorded, then
# says which failed and exits 1.
# Tested by test/integration/demo_links.sh (each link, Ctrl-C) and test/readme.sh.
set -euo pipefail

: "${DGR_BUILD:?}" "${DGR_SRC:?}"
BIN="$DGR_BUILD/bin"
. "$DGR_SRC/test/lib/netns.sh"
# shellcheck source=test/lib/pcap_buffer.sh
. "$DGR_SRC/test/lib/pcap_buffer.sh"

mode=$(dgr_link_choose)
if [ "$mode" = userns ] && [ -z "${DGR_IN_USERNS:-}" ]; then
	echo "demo: not root: running in an unprivileged user+network namespace"
	dgr_link_reexec "$0" "$@"
fi

RATE=${DEMO_RATE:-20e6}
read -r -a host_opts <<<"${DEMO_HOST_OPTS:-}"
read -r -a fpga_opts <<<"${DEMO_FPGA_OPTS:-}"
SECONDS_RUN=${DEMO_SECONDS:-3}
DEMO_DIR=${DEMO_DIR:-$DGR_BUILD/demo}
KEEP=${DEMO_KEEP:-5}
[[ $KEEP =~ ^[1-9][0-9]{0,3}$ ]] || { echo "demo: DEMO_KEEP: '$KEEP' is out of range 1..9999" >&2; exit 2; }
OUT=${DEMO_OUT:-$DEMO_DIR/run-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$(dirname "$OUT")"
fpga_pid=""
host_pid=""

cleanup() {
	local rc=$?

	# Not under set -e: a process that already ended must not stop the clean-up.
	set +e
	if [ -n "$fpga_pid" ]; then
		kill "$fpga_pid" 2>/dev/null
	fi
	if [ -n "$host_pid" ]; then
		kill "$host_pid" 2>/dev/null
	fi
	wait 2>/dev/null
	dgr_link_down
	exit "$rc"
}
trap cleanup EXIT
# Ctrl-C (SIGINT to the process group) while streaming: the emulator, which gets it too,
# ends the stream early with EOF, and the demo reports on what it recorded. Any other time,
# or a second Ctrl-C: stop at once (status 130), cleaning up.
streaming=0
interrupted=0
on_int() {
	if [ "$streaming" = 1 ] && [ "$interrupted" = 0 ]; then
		interrupted=1
		echo "demo: Ctrl-C: the stream ends early, the report covers what was recorded" \
			"(Ctrl-C again to stop at once)"
	else
		exit 130
	fi
}
trap on_int INT
trap 'exit 143' TERM

# wait_status PID: waits for the background process PID to end; its exit status goes to
# WAIT_RC (not printed: a command substitution is a subshell, which cannot wait for PID).
# Polled, not one long wait: a Ctrl-C trap that interrupts wait can lose the status of a child
# ending at that moment (bash 5.2 gave -1 for an emulator that had ended cleanly, in a CI run).
# A Ctrl-C stops the nap (test/lib/nap.sh, through netns.sh: no process per look) at once; the
# trap runs, and the loop goes on.
wait_status() {
	local rc=0

	while kill -0 "$1" 2>/dev/null; do
		nap 0.1
	done
	wait "$1" || rc=$?
	WAIT_RC=$rc
}

dgr_link_up "$mode"
case "$mode" in
netns) echo "demo: link: two network namespaces joined by a veth pair, MTU $DGR_LINK_MTU, raw Ethernet" ;;
userns) echo "demo: link: veth pair in an unprivileged user+network namespace, MTU $DGR_LINK_MTU, raw Ethernet" ;;
udp)
	if [ -n "${DGR_LINK_FORCE:-}" ]; then
		echo "demo: link: UDP on 127.0.0.1 (DGR_LINK_FORCE=udp)"
	else
		echo "demo: link: UDP on 127.0.0.1 (no namespaces possible here)"
	fi
	;;
esac

# Capturing on lo needs privileges: record what the link allows, and say so. (In the user
# namespace the LTTng session daemon runs as the mapped root, on the private /run/lttng that
# netns.sh mounted.)
# The emulator's side of the tolerable latency (its buffers, the stream's rate) goes into
# run.json with the host's command, so that every later report on the folder has the same facts.
capture_opts=(--sample-rate "$RATE" --fpga-buffers 4)
# dumpcap's kernel buffer sized to the stream (test/lib/pcap_buffer.sh): a default make demo
# keeps dgrdma-capture's 512 MiB, the short slow streams of make check need 16 to 64 (opening
# 512 MiB costs a second of system CPU here, 16 MiB 0.02 s). With DEMO_FPGA_OPTS (which may
# change the stream) it stays the default.
if [ "${#fpga_opts[@]}" = 0 ]; then
	capture_opts+=(--pcap-buffer "$(dgr_pcap_mib "$RATE" "$SECONDS_RUN")")
fi
case "$mode" in
udp) [ "$(id -u)" = 0 ] || { capture_opts+=(--no-pcap) && echo "demo: recording the LTTng trace only (capturing on lo needs privileges)"; } ;;
*) echo "demo: recording the LTTng trace and the packet capture" ;;
esac

# The host first, under dgrdma-capture; it ends when the stream's EOF arrives. Whole frames
# are captured: a frame often ends one transaction and starts the next, and a short snap
# length would hide the second message. A ready file left by a killed run of the same folder
# must not start the emulator early.
rm -f "$OUT.ready"
"${DGR_HOST_RUN[@]}" "$BIN/dgrdma-capture" --output "$OUT" "${capture_opts[@]}" -- \
	"$BIN/dgrdma-host" rx "${DGR_HOST_TRANSPORT[@]}" --buffers 64 --buffer-size 16K \
	--idle-timeout 5 --summary-json "$OUT/host.json" --ready-file "$OUT.ready" "${host_opts[@]}" \
	>"$OUT.host.log" 2>&1 &
host_pid=$!

# Start the FPGA once the host stack receives (--ready-file: its sockets bound, its threads
# running): the emulator's first burst fills all the host's buffers without waiting, and if
# it is lost the stream never starts.
if ! dgr_wait_ready_file "$OUT.ready" "$host_pid"; then
	echo "demo: the host stack is not receiving (it exited, or was not ready within 30 s); its log:" >&2
	cat "$OUT.host.log" >&2
	mkdir -p "$OUT" && mv "$OUT.host.log" "$OUT/host.log"
	exit 1
fi
echo "demo: streaming $RATE samples/s for $SECONDS_RUN s"
# In the background and waited for, so that a Ctrl-C runs on_int at once (a trap waits for a
# foreground command).
"${DGR_FPGA_RUN[@]}" "$BIN/dgrdma-fpga" "${DGR_FPGA_TRANSPORT[@]}" --mode adc --sample-rate "$RATE" \
	--buffers 4 --buffer-size 16384 --host-buffers 64 --duration "$SECONDS_RUN" --quiet \
	--summary-json "$OUT.fpga.json" "${fpga_opts[@]}" >"$OUT.fpga.log" 2>&1 &
fpga_pid=$!
report_pids=(--pid "$fpga_pid")
streaming=1
wait_status "$fpga_pid"
fpga_rc=$WAIT_RC
streaming=0
fpga_pid=""
wait_status "$host_pid"
host_rc=$WAIT_RC
host_pid=""
# A failed end still gets its report (what was recorded helps to see why); the demo then fails.
failed=()
if [ "$fpga_rc" != 0 ]; then
	failed+=("the emulator exited with status $fpga_rc (log: $OUT/fpga.log)")
	echo "demo: the emulator did not end cleanly; its messages:" >&2
	grep -E '^dgrdma-fpga:' "$OUT.fpga.log" >&2 || tail -5 "$OUT.fpga.log" >&2
fi
if [ "$host_rc" != 0 ]; then
	failed+=("the host run exited with status $host_rc (log: $OUT/host.log)")
	echo "demo: the host run did not end cleanly; its messages:" >&2
	grep -E '^dgrdma-(host|capture):' "$OUT.host.log" >&2 || tail -5 "$OUT.host.log" >&2
fi
mv "$OUT.fpga.json" "$OUT/fpga.json" 2>/dev/null || true
mv "$OUT.host.log" "$OUT/host.log"
mv "$OUT.fpga.log" "$OUT/fpga.log"

# The report on the demo's two processes only: as root, any other root program that traces
# meanwhile writes into the same per-user buffers.
report_pids+=(--pid "$(jq -r .command_pid "$OUT/run.json")")
# exit status 3: the run failed (run.json), reported all the same; the demo says so below
"$BIN/latency-report" --no-progress "${report_pids[@]}" "$OUT" >"$OUT/report.txt" ||
	[ $? -eq 3 ]
"$BIN/latency-report" --no-progress --json --interval 10 --csv "$OUT/csv" "${report_pids[@]}" \
	"$OUT" >"$OUT/report.json" || [ $? -eq 3 ]
cp "$OUT/report.json" "$OUT/csv/report.json" # dgrdma-plot reads the tolerable latency there
"$BIN/dgrdma-plot" --output "$OUT/plots" --title "$(basename "$OUT")" "$OUT/csv" >"$OUT/plot.log" 2>&1 ||
	[ $? -eq 3 ]

if [ -z "${DEMO_OUT:-}" ]; then
	ln -sfn "$(basename "$OUT")" "$DEMO_DIR/latest"
	# the newest DEMO_KEEP runs stay (each holds a whole capture: 250 MB at the default rate)
	find "$DEMO_DIR" -mindepth 1 -maxdepth 1 -type d -name 'run-*' -printf '%f\n' | sort -r |
		tail -n +$((KEEP + 1)) | while read -r old; do rm -rf "${DEMO_DIR:?}/$old"; done
fi
cat "$OUT/report.txt"
echo
echo "demo: run folder   $OUT"
echo "demo: recorded     $(jq -r '((.clocks.duration_ns // 0) / 1e9 * 100 | round) / 100' "$OUT/run.json") s (the host's run, from run.json)"
echo "demo: report       $OUT/report.txt (JSON: $OUT/report.json)"
echo "demo: plots        $(ls "$OUT"/plots/*.png 2>/dev/null | tr '\n' ' ')"
if [ "${#failed[@]}" -gt 0 ]; then
	echo "demo: the run failed: $(printf '%s; ' "${failed[@]}" | sed 's/; $//')" >&2
	exit 1
fi
