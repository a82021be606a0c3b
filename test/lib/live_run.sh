# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# shellcheck disable=SC2034 # sets CAP_PID, URL and LIVE_WHY for the scripts that source it
# A live run for the live suites (live.sh, plot_live.sh): dgrdma-capture --live around
# dgrdma-host rx, fed by dgrdma-fpga over UDP on loopback. Needs WORK, CAPTURE, DHOST, DFPGA,
# PORT_H (the host's port) and FPGA_ADDR (the emulator's ADDR:PORT) set by the suite, and
# test/tracepoints/lttng-env.sh sourced.

# shellcheck source=test/lib/pcap_buffer.sh
. "${BASH_SOURCE[0]%/*}/pcap_buffer.sh"

# live_ready: true when a live run can be made here (programs built, lttng-relayd and
# babeltrace2 installed, the suite's own session daemon up); else LIVE_WHY says why not.
live_ready() {
	if [ ! -x "$DHOST" ] || [ ! -x "$DFPGA" ]; then
		LIVE_WHY="dgrdma-host or dgrdma-fpga not built"
		return 1
	fi
	if ! command -v lttng-relayd >/dev/null || ! command -v babeltrace2 >/dev/null; then
		LIVE_WHY="lttng-relayd or babeltrace2 not installed (make deps)"
		return 1
	fi
	if ! tp_lttng_setup; then
		LIVE_WHY=$TP_LTTNG_WHY
		return 1
	fi
}

# start_run NAME [CAPTURE-OPTIONS...]: dgrdma-capture --live around dgrdma-host rx (16 buffers of
# 16 KiB), waiting up to 60 s for a viewer, without a packet capture unless PCAP_OPTS is emptied
# (dumpcap's kernel buffer then sized to the stream's 2 MS/s); sets CAP_PID and URL (empty when no
# live.url appeared within 30 s). It is launch_run then run_url: a suite may do other work
# between the two while the recording sets up (its host starts only once a viewer attached).
PCAP_OPTS=(--no-pcap)
start_run() {
	launch_run "$@"
	run_url "$1"
}

# launch_run NAME [CAPTURE-OPTIONS...]: the recording of start_run started; sets CAP_PID.
launch_run() {
	local name=$1
	shift
	rm -f "$WORK/$name.ready"
	# a background job of a script ignores SIGINT: restore it so that cleanup can stop the run
	env --default-signal=INT "$CAPTURE" --live --live-wait 60 "${PCAP_OPTS[@]}" \
		--pcap-buffer "$(dgr_pcap_mib 2e6)" -o "$WORK/$name" "$@" \
		--sample-rate 2e6 --fpga-buffers 4 -- "$DHOST" rx --udp --bind "127.0.0.1:$PORT_H" \
		--peer "$FPGA_ADDR" --buffers 16 --buffer-size 16384 --idle-timeout 5 \
		--ready-file "$WORK/$name.ready" --quiet >"$WORK/$name.capture.out" 2>&1 &
	CAP_PID=$!
}

# run_url NAME: until the recording of launch_run NAME wrote its live URL; sets URL (empty,
# and false, when none appeared within 30 s).
run_url() {
	local name=$1 n
	URL=""
	for ((n = 0; n < 300; n++)); do
		[ -s "$WORK/$name/live.url" ] && { URL=$(<"$WORK/$name/live.url"); return 0; }
		nap 0.1
	done
	return 1
}

# stream NAME SECONDS: the emulator, once the host receives, at 2 MS/s into its 16 buffers.
stream() {
	local name=$1 secs=$2 n
	for ((n = 0; n < 600; n++)); do
		[ -e "$WORK/$name.ready" ] && break
		nap 0.1
	done
	"$DFPGA" --udp --bind "$FPGA_ADDR" --peer "127.0.0.1:$PORT_H" --mode adc --rate 2e6 \
		--duration "$secs" --fpga-buffers 4 --host-buffers 16 --buffer-size 16384 --quiet \
		>"$WORK/$name.fpga.out" 2>&1
}
