#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-dissector: tshark time on a generated capture (DGR_BENCH_MB,
# default 300 MB: disk and time are limited here) with the plugin's protocols
# disabled (the baseline: Ethernet only), decoding without analysis, with the
# analysis, and with the analysis feeding the dgrdma,latency tap. Best of
# DGR_BENCH_RUNS (default 3) runs each; ratios against the baseline measured
# in the same run. Results: $DGR_BUILD/bench/dissector.txt.
set -u
source "$DGR_SRC/test/dissectors/lib-tshark.sh"

MB=${DGR_BENCH_MB:-300}
RUNS=${DGR_BENCH_RUNS:-3}
OUT="$DGR_BUILD/bench/dissector.txt"
mkdir -p "$DGR_BUILD/bench"
dissector_setup || exit 1
"$DGR_BUILD/test/dissectors/gen-dissector-fixtures" --bench "$DT/bench.pcap" "$MB" || exit 1
publish "$DT/bench.pcap"

# best SECONDS-OF: runs tshark RUNS times with ARGS, prints the best wall time.
best() {
	local best="" t i
	for i in $(seq 1 "$RUNS"); do
		local start end
		start=$(date +%s.%N)
		ts -n -r bench.pcap "$@" >/dev/null 2>&1 || { echo "tshark $* failed" >&2; exit 1; }
		end=$(date +%s.%N)
		t=$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}')
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN {exit !(a < b)}'; then
			best=$t
		fi
	done
	echo "$best"
}
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'
}
# net A B: ratio of A and B with tshark's start-up time (one frame read) removed.
net() {
	awk -v a="$1" -v b="$2" -v s="$startup" 'BEGIN {printf "%.2f", (a - s) / (b - s)}'
}

off=(--disable-protocol dgrdma --disable-protocol dcp)
startup=$(best -c 1)
base=$(best "${off[@]}")
decode=$(best -o dgrdma.analyze:FALSE)
analysis=$(best)
tap=$(best -q -z dgrdma,latency)
base_tree=$(best "${off[@]}" -Y 'eth.type == 0xf042')
decode_tree=$(best -o dgrdma.analyze:FALSE -Y 'dgrdma.transactionid')
analysis_tree=$(best -Y 'dgrdma.analysis.doorbell_latency')
size=$(stat -c %s "$DT/bench.pcap")
frames=$("${TS_PREFIX[@]}" capinfos -c -M "$DT/bench.pcap" 2>/dev/null | awk '/Number of packets/ {print $NF}')

{
	echo "dissector benchmark: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, tshark $(tshark -v | head -1 | awk '{print $3}')"
	echo "capture: $size bytes, $frames frames (gen-dissector-fixtures --bench FILE $MB)"
	echo "best of $RUNS runs, wall seconds; ratio to the baseline; net: start-up ($startup s, -c 1) removed"
	echo "summary lines (tshark -n -r F > /dev/null):"
	echo "  baseline (dgrdma, dcp disabled)       $base"
	echo "  plugin, decode only                   $decode  ratio $(ratio "$decode" "$base")  net $(net "$decode" "$base")"
	echo "  plugin, decode + analysis             $analysis  ratio $(ratio "$analysis" "$base")  net $(net "$analysis" "$base")"
	echo "  plugin, analysis + -z dgrdma,latency  $tap  ratio $(ratio "$tap" "$base")  net $(net "$tap" "$base")"
	echo "with a display filter (tree built):"
	echo "  baseline -Y eth.type==0xf042          $base_tree"
	echo "  decode only -Y dgrdma.transactionid   $decode_tree  ratio $(ratio "$decode_tree" "$base_tree")  net $(net "$decode_tree" "$base_tree")"
	echo "  analysis -Y dgrdma.analysis.doorbell_latency  $analysis_tree  ratio $(ratio "$analysis_tree" "$base_tree")  net $(net "$analysis_tree" "$base_tree")"
} | tee "$OUT"
