# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# dumpcap's kernel buffer for a recording of the tests and of test/demo.sh (dgrdma-capture
# --pcap-buffer MIB). dgrdma-capture's default of 512 MiB is for long fast streams: opening it
# costs about a second of system CPU here (128 MiB and less: 0.02-0.03 s), and make check
# opened it some 30 times for streams of a few MB/s lasting a few seconds.

# dgr_pcap_mib RATE [SECONDS]: the buffer for an emulator stream of RATE samples/s (2e6, 2M,
# 500k) lasting SECONDS (default: a long one). It holds the whole stream, or 4 s of it when
# longer (twice a 2 s stall of dumpcap on a loaded machine), at 4.1 bytes a sample in the
# capture and a quarter more; a power of two from 16 MiB up to the default of 512.
dgr_pcap_mib() {
	awk -v r="$1" -v s="${2:-4}" 'BEGIN {
		m = 1; if (r ~ /[kK]$/) m = 1e3; else if (r ~ /M$/) m = 1e6; else if (r ~ /G$/) m = 1e9
		if (s > 4) s = 4
		need = r * m * s * 4.1 * 1.25 / 1048576
		for (mib = 16; mib < need && mib < 512; mib *= 2);
		print mib }'
}
