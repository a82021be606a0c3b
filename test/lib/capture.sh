# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# A packet capture around a test's run that waits on facts, never on time: it is started once
# dumpcap captures, and stopped once it holds every frame the two ends say they sent.
#
# dumpcap creates its output file and writes the header only once its filter is in place, so a
# non-empty file means it captures. It writes (and flushes) what it read about twice a second,
# so the number of packets in the file reaches what was sent shortly after the run; stopping it
# at a fixed time after the run instead lost the last frames on a loaded machine.

# shellcheck source=test/lib/nap.sh
. "${BASH_SOURCE[0]%/*}/nap.sh"
# dgr_pcap_mib, for the recordings of dgrdma-capture (its --pcap-buffer)
# shellcheck source=test/lib/pcap_buffer.sh
. "${BASH_SOURCE[0]%/*}/pcap_buffer.sh"

DGR_PCAP_RUN=()
DGR_PCAP_OPTS=()
# dumpcap's kernel buffer, MiB, unless DGR_PCAP_OPTS gives -B (the last wins): dgr_pcap_mib of
# the fastest stream here (real_runs.sh's 4 MS/s for 1 s); dumpcap's own 2 MiB held 0.13 s of it.
DGR_PCAP_MIB=32
DGR_PCAP_PID=""

# dgr_pcap_start FILE FILTER [IFACE]: starts dumpcap on IFACE (default lo) writing FILE, with
# the capture filter FILTER (none when empty) and a kernel buffer of DGR_PCAP_MIB, and waits (at
# most 20 s, a bound for failure only; a look every 50 ms) until it captures. Sets DGR_PCAP_PID.
# DGR_PCAP_RUN (an array) is a command prefix, such as ip netns exec NAME; DGR_PCAP_OPTS (an
# array) more dumpcap options.
# Returns 0 when capturing, 1 when dumpcap died or never started.
dgr_pcap_start() {
	local file="$1" filter="$2" iface="${3:-lo}" i args=()

	[ -n "$filter" ] && args=(-f "$filter")
	"${DGR_PCAP_RUN[@]}" dumpcap -q -i "$iface" "${args[@]}" -B "$DGR_PCAP_MIB" "${DGR_PCAP_OPTS[@]}" \
		-w "$file" >"$file.dumpcap" 2>&1 &
	DGR_PCAP_PID=$!
	for ((i = 0; i < 400; i++)); do
		[ -s "$file" ] && return 0
		kill -0 "$DGR_PCAP_PID" 2>/dev/null || return 1
		nap 0.05
	done
	return 1
}

# dgr_pcap_packets FILE: prints how many packets FILE holds so far (0 while unreadable).
dgr_pcap_packets() {
	local n

	n=$(capinfos -c -M "$1" 2>/dev/null | sed -n 's/^Number of packets: *\([0-9]*\)$/\1/p')
	echo "${n:-0}"
}

# dgr_pcap_stop FILE COUNT: waits until FILE holds at least COUNT packets (at most 20 s, a
# bound for failure only: the test's own counts then show what is missing), then stops the
# dumpcap of dgr_pcap_start. The packets are counted (capinfos reads the whole file) only when
# the file has grown since the last count. Returns 0 when COUNT was reached.
dgr_pcap_stop() {
	local file="$1" count="$2" i rc=1 size last=-1

	for ((i = 0; i < 200; i++)); do
		size=$(stat -c %s "$file" 2>/dev/null)
		if [ "${size:-0}" != "$last" ]; then
			last=${size:-0}
			if [ "$(dgr_pcap_packets "$file")" -ge "$count" ]; then
				rc=0
				break
			fi
		fi
		kill -0 "$DGR_PCAP_PID" 2>/dev/null || break
		nap 0.1
	done
	kill "$DGR_PCAP_PID" 2>/dev/null
	wait "$DGR_PCAP_PID" 2>/dev/null
	DGR_PCAP_PID=""
	return "$rc"
}

# dgr_frames_sent SUMMARY...: the DG-RDMA frames the programs whose --summary-json files are
# given handed to their sockets (counter frames_tx of dgrdma-host and dgrdma-fpga).
dgr_frames_sent() {
	local f total=0 n

	for f in "$@"; do
		n=$(jq -r '[.. | objects | .frames_tx? // empty] | first // 0' "$f" 2>/dev/null)
		total=$((total + ${n:-0}))
	done
	echo "$total"
}
