#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-dissector: tshark time on generated RX-path captures of DGR_BENCH_MB
# (default 500) megabytes, one per MTU (DGR_BENCH_MTUS, default "1500 9000":
# 1024-byte and 8192-byte fragments), with the plugin's protocols disabled (the
# baseline: Ethernet only), decoding without analysis, with the analysis, with
# the analysis feeding the dgrdma,latency tap, extracting header fields
# (-T fields) and a Lua dissector of the same decode scope
# (test/dissectors/dgrdma-decode.lua). Best of DGR_BENCH_RUNS (default 3) runs
# each; ratios against the baseline measured in the same run. With
# DGR_BENCH_BEFORE=FILE (another build's dgrdma.so, e.g. the plugin of the
# commit before a change), the plugin's rows are also measured with that
# plugin in the same run, and the ratio of this plugin to it printed. Results:
# $DGR_BUILD/bench/dissector.txt.
set -u
source "$DGR_SRC/test/dissectors/lib-tshark.sh"

MB=${DGR_BENCH_MB:-500}
RUNS=${DGR_BENCH_RUNS:-3}
MTUS=${DGR_BENCH_MTUS:-1500 9000}
OUT="$DGR_BUILD/bench/dissector.txt"
mkdir -p "$DGR_BUILD/bench"
dissector_setup || exit 1
# tshark as ts_before and ts_lua run it: no THP heap, the whole data folder (dissector_setup)
TS_LEAN=()

# ts_before ARGS...: tshark with the DGR_BENCH_BEFORE plugin.
BEFORE=${DGR_BENCH_BEFORE:-}
if [ -n "$BEFORE" ]; then
	mkdir -p "$DT/before/$WS_PLUGIN_VER/epan"
	cp "$BEFORE" "$DT/before/$WS_PLUGIN_VER/epan/dgrdma.so" || exit 1
	chmod -R a+rX "$DT/before"
fi
ts_before() {
	(cd "$DT" && "${TS_PREFIX[@]}" env HOME="$DT/home" WIRESHARK_PLUGIN_DIR="$DT/before" \
		tshark "$@")
}

# ts_lua ARGS...: tshark without the plugin, with the Lua comparison dissector.
cp "$DGR_SRC/test/dissectors/dgrdma-decode.lua" "$DT/" && publish "$DT/dgrdma-decode.lua"
mkdir -p "$DT/noplugins" && chmod 755 "$DT/noplugins"
ts_lua() {
	(cd "$DT" && "${TS_PREFIX[@]}" env HOME="$DT/home" WIRESHARK_PLUGIN_DIR="$DT/noplugins" \
		tshark -X lua_script:dgrdma-decode.lua "$@")
}

# best ARGS...: runs tshark RUNS times with ARGS on $cap, prints the best CPU
# time (user + system, seconds): less sensitive than wall time to the other
# jobs sharing this machine's two cores.
best() {
	local best="" t
	for _ in $(seq 1 "$RUNS"); do
		t=$( { TIMEFORMAT='%U %S'; time ${TSF:-ts} -n -r "$cap" "$@" >/dev/null 2>&1; } 2>&1 |
			awk '{printf "%.3f", $1 + $2}')
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN {exit !(a < b)}'; then
			best=$t
		fi
	done
	echo "$best"
}
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'
}
# net A B [START_A]: ratio of A and B with tshark's start-up time (one frame
# read) removed; START_A when A's own start-up differs (the Lua engine).
net() {
	awk -v a="$1" -v b="$2" -v s="$startup" -v sa="${3:-$startup}" \
		'BEGIN {printf "%.2f", (a - sa) / (b - s)}'
}
# header fields a user extracts, the plugin's and the Lua dissector's names
fields() { # PREFIX
	local f
	for f in src_id dst_id frameseq ackstart ackcount transactionid flagaddr flagvalue; do
		printf -- '-e %s.%s ' "$1" "$f"
	done
}

off=(--disable-protocol dgrdma --disable-protocol dcp)
bench_mtu() { # MTU
local mtu=$1 frag=1024
[ "$mtu" = 9000 ] && frag=8192
cap="bench-$mtu.pcap"
"$DGR_BUILD/test/dissectors/gen-dissector-fixtures" --bench "$DT/$cap" "$MB" "$frag" >/dev/null || exit 1
publish "$DT/$cap"
startup=$(best -c 1)
base=$(best "${off[@]}")
decode=$(best -o dgrdma.analyze:FALSE)
lua=$(TSF=ts_lua best)
startup_lua=$(TSF=ts_lua best -c 1)
analysis=$(best)
base_q=$(best "${off[@]}" -q -z io,stat,0)
tap=$(best -q -z dgrdma,latency)
base_tree=$(best "${off[@]}" -Y 'eth.type == 0xf042')
decode_tree=$(best -o dgrdma.analyze:FALSE -Y 'dgrdma.transactionid')
analysis_tree=$(best -Y 'dgrdma.analysis.doorbell_latency')
# shellcheck disable=SC2046
{
	base_f=$(best "${off[@]}" -T fields $(fields dgrdma))
	decode_f=$(best -o dgrdma.analyze:FALSE -T fields $(fields dgrdma))
	analysis_f=$(best -T fields $(fields dgrdma))
	lua_f=$(TSF=ts_lua best -T fields $(fields dgrdmalua))
}
before_report=""
if [ -n "$BEFORE" ]; then
	# shellcheck disable=SC2046
	{
		b_decode=$(TSF=ts_before best -o dgrdma.analyze:FALSE)
		b_analysis=$(TSF=ts_before best)
		b_decode_f=$(TSF=ts_before best -o dgrdma.analyze:FALSE -T fields $(fields dgrdma))
		b_analysis_f=$(TSF=ts_before best -T fields $(fields dgrdma))
		# this plugin again, right after: the pairs share the machine's load
		a_decode_f=$(best -o dgrdma.analyze:FALSE -T fields $(fields dgrdma))
		a_analysis_f=$(best -T fields $(fields dgrdma))
	}
	before_report="the DGR_BENCH_BEFORE plugin, same capture and run (CPU s; ratio to the baseline; this plugin / before):
  summary lines, decode only            $b_decode  ratio $(ratio "$b_decode" "$base")  this/before $(ratio "$decode" "$b_decode")
  summary lines, decode + analysis      $b_analysis  ratio $(ratio "$b_analysis" "$base")  this/before $(ratio "$analysis" "$b_analysis")
  -T fields, decode only                $b_decode_f  ratio $(ratio "$b_decode_f" "$base_f")  this (again) $a_decode_f  ratio $(ratio "$a_decode_f" "$base_f")  this/before $(ratio "$a_decode_f" "$b_decode_f")
  -T fields, decode + analysis          $b_analysis_f  ratio $(ratio "$b_analysis_f" "$base_f")  this (again) $a_analysis_f  ratio $(ratio "$a_analysis_f" "$base_f")  this/before $(ratio "$a_analysis_f" "$b_analysis_f")"
fi
size=$(stat -c %s "$DT/$cap")
frames=$("${TS_PREFIX[@]}" capinfos -c -M "$DT/$cap" 2>/dev/null | awk '/Number of packets/ {print $NF}')

# Instruction counts under callgrind (repeatable on a shared machine) on a
# smaller capture (DGR_BENCH_CG_MB, default 20 MB; 0 skips).
CG_MB=${DGR_BENCH_CG_MB:-20}
cg_report=""
if [ "$CG_MB" != 0 ] && command -v valgrind >/dev/null; then
	"$DGR_BUILD/test/dissectors/gen-dissector-fixtures" --bench "$DT/cg.pcap" "$CG_MB" "$frag" >/dev/null || exit 1
	publish "$DT/cg.pcap"
	cg_frames=$("${TS_PREFIX[@]}" capinfos -c -M "$DT/cg.pcap" 2>/dev/null | awk '/Number of packets/ {print $NF}')
	# irefs ARGS...: instructions executed by tshark -n -r cg.pcap ARGS.
	irefs() {
		(cd "$DT" && "${TS_PREFIX[@]}" env HOME="$DT/home" \
			WIRESHARK_PLUGIN_DIR="$DT/${PLUGINS:-plugins}" valgrind --tool=callgrind \
			--callgrind-out-file=/dev/null tshark -n -r cg.pcap "$@" 2>&1 >/dev/null |
			awk '/Collected :/ {print $NF}')
	}
	i_start=$(irefs -c 1)
	i_base=$(irefs "${off[@]}")
	i_decode=$(irefs -o dgrdma.analyze:FALSE)
	i_analysis=$(irefs)
	i_lua=$(PLUGINS=noplugins irefs -X lua_script:dgrdma-decode.lua)
	i_lua_start=$(PLUGINS=noplugins irefs -X lua_script:dgrdma-decode.lua -c 1)
	# The Lua run's own start-up (the Lua engine) is removed from its count.
	i_lua_adj=$((i_lua - i_lua_start + i_start))
	i_base_q=$(irefs "${off[@]}" -q -z io,stat,0)
	i_tap=$(irefs -q -z dgrdma,latency)
	# shellcheck disable=SC2046
	{
		# -T fields: tshark shows the tree, so every item is built and walked;
		# start-up measured with the same options.
		i_start_f=$(irefs -c 1 -T fields $(fields dgrdma))
		i_base_f=$(irefs "${off[@]}" -T fields $(fields dgrdma))
		i_decode_f=$(irefs -o dgrdma.analyze:FALSE -T fields $(fields dgrdma))
		i_analysis_f=$(irefs -T fields $(fields dgrdma))
		i_lua_f=$(PLUGINS=noplugins irefs -X lua_script:dgrdma-decode.lua -T fields \
			$(fields dgrdmalua))
		i_lua_f_start=$(PLUGINS=noplugins irefs -X lua_script:dgrdma-decode.lua -c 1 -T fields \
			$(fields dgrdmalua))
	}
	i_lua_f_adj=$((i_lua_f - i_lua_f_start + i_start_f))
	if [ -n "$BEFORE" ]; then
		# shellcheck disable=SC2046
		{
			ib_decode=$(PLUGINS=before irefs -o dgrdma.analyze:FALSE)
			ib_analysis=$(PLUGINS=before irefs)
			ib_decode_f=$(PLUGINS=before irefs -o dgrdma.analyze:FALSE -T fields $(fields dgrdma))
			ib_analysis_f=$(PLUGINS=before irefs -T fields $(fields dgrdma))
		}
	fi
	perframe() {
		awk -v a="$1" -v s="$i_start" -v n="$cg_frames" 'BEGIN {printf "%.0f", (a - s) / n}'
	}
	cgratio() {
		awk -v a="$1" -v b="$2" -v s="$i_start" 'BEGIN {printf "%.2f", (a - s) / (b - s)}'
	}
	perframe_f() {
		awk -v a="$1" -v s="$i_start_f" -v n="$cg_frames" 'BEGIN {printf "%.0f", (a - s) / n}'
	}
	cgratio_f() {
		awk -v a="$1" -v b="$2" -v s="$i_start_f" 'BEGIN {printf "%.2f", (a - s) / (b - s)}'
	}
	cg_report="instructions (callgrind, $CG_MB MB capture, $cg_frames frames; start-up $i_start removed):
  baseline (dgrdma, dcp disabled)       $(perframe "$i_base") per frame
  plugin, decode only                   $(perframe "$i_decode") per frame  ratio $(cgratio "$i_decode" "$i_base")
  plugin, decode + analysis             $(perframe "$i_analysis") per frame  ratio $(cgratio "$i_analysis" "$i_base")
  Lua dissector, same decode scope      $(perframe "$i_lua_adj") per frame  ratio $(cgratio "$i_lua_adj" "$i_base")
  baseline -q -z io,stat,0 (disabled)   $(perframe "$i_base_q") per frame
  plugin, analysis + -q -z dgrdma,latency  $(perframe "$i_tap") per frame  ratio $(cgratio "$i_tap" "$i_base_q")
extracting 8 header fields (-T fields -e ...; start-up $i_start_f removed):
  baseline (disabled, same -e)          $(perframe_f "$i_base_f") per frame
  plugin, decode only                   $(perframe_f "$i_decode_f") per frame  ratio $(cgratio_f "$i_decode_f" "$i_base_f")
  plugin, decode + analysis (default)   $(perframe_f "$i_analysis_f") per frame  ratio $(cgratio_f "$i_analysis_f" "$i_base_f")
  Lua dissector, same fields            $(perframe_f "$i_lua_f_adj") per frame  ratio $(cgratio_f "$i_lua_f_adj" "$i_base_f")
  Lua / plugin decode + analysis        $(awk -v l="$i_lua_f_adj" -v a="$i_analysis_f" -v s="$i_start_f" 'BEGIN {printf "%.2f", (l - s) / (a - s)}')"
	if [ -n "$BEFORE" ]; then
		cg_report="$cg_report
the DGR_BENCH_BEFORE plugin (same capture, same start-ups removed):
  decode only                           $(perframe "$ib_decode") per frame  ratio $(cgratio "$ib_decode" "$i_base")
  decode + analysis                     $(perframe "$ib_analysis") per frame  ratio $(cgratio "$ib_analysis" "$i_base")
  -T fields, decode only                $(perframe_f "$ib_decode_f") per frame  ratio $(cgratio_f "$ib_decode_f" "$i_base_f")
  -T fields, decode + analysis          $(perframe_f "$ib_analysis_f") per frame  ratio $(cgratio_f "$ib_analysis_f" "$i_base_f")"
	fi
fi

{
	echo "MTU $mtu: capture of $size bytes, $frames frames (gen-dissector-fixtures --bench FILE $MB $frag)"
	echo "start-up (-c 1): $startup s"
	echo "summary lines (tshark -n -r F > /dev/null):"
	echo "  baseline (dgrdma, dcp disabled)       $base"
	echo "  plugin, decode only                   $decode  ratio $(ratio "$decode" "$base")  net $(net "$decode" "$base")"
	echo "  plugin, decode + analysis             $analysis  ratio $(ratio "$analysis" "$base")  net $(net "$analysis" "$base")"
	echo "  Lua dissector, same decode scope      $lua  ratio $(ratio "$lua" "$base")  net $(net "$lua" "$base" "$startup_lua")"
	echo "quiet (-q), the statistics use:"
	echo "  baseline -q -z io,stat,0 (disabled)  $base_q"
	echo "  plugin, analysis + -q -z dgrdma,latency  $tap  ratio $(ratio "$tap" "$base_q")  net $(net "$tap" "$base_q")"
	echo "with a display filter (tree built):"
	echo "  baseline -Y eth.type==0xf042          $base_tree"
	echo "  decode only -Y dgrdma.transactionid   $decode_tree  ratio $(ratio "$decode_tree" "$base_tree")  net $(net "$decode_tree" "$base_tree")"
	echo "  analysis -Y dgrdma.analysis.doorbell_latency  $analysis_tree  ratio $(ratio "$analysis_tree" "$base_tree")  net $(net "$analysis_tree" "$base_tree")"
	echo "extracting 8 header fields (-T fields -e ...):"
	echo "  baseline (disabled, same -e)          $base_f"
	echo "  plugin, decode only                   $decode_f  ratio $(ratio "$decode_f" "$base_f")  net $(net "$decode_f" "$base_f")"
	echo "  plugin, decode + analysis (default)   $analysis_f  ratio $(ratio "$analysis_f" "$base_f")  net $(net "$analysis_f" "$base_f")"
	echo "  Lua dissector, same fields            $lua_f  ratio $(ratio "$lua_f" "$base_f")  net $(net "$lua_f" "$base_f" "$startup_lua")"
	echo "  Lua / plugin decode + analysis        $(ratio "$lua_f" "$analysis_f")  net $(awk -v l="$lua_f" -v a="$analysis_f" -v sl="$startup_lua" -v s="$startup" 'BEGIN {printf "%.2f", (l - sl) / (a - s)}')"
	[ -n "$before_report" ] && echo "$before_report"
	[ -n "$cg_report" ] && echo "$cg_report"
}
}

{
	echo "dissector benchmark: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, tshark $(tshark -v | head -1 | awk '{print $3}'), load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "best of $RUNS runs, CPU seconds (user+sys); ratio to the baseline; net: start-up (-c 1) removed"
	for m in $MTUS; do
		bench_mtu "$m"
	done
} | tee "$OUT"
