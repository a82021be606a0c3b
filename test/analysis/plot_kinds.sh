#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-plot renders every plot kind as valid PNG (pngcairo) and SVG, with the expected
# number of data series (counted in the SVG: one gnuplot_plot_N group per series), each of them
# drawn (its points, in the SVG); at 640, 1200 and 1920 pixels wide, nothing is cut by the
# image's edge (test/analysis/plot_check.py: no pixel of the outer frame is drawn on). Drop plots
# draw 0 % and 100 % inside the graph's frame, name their series by role, one quantity per axis.
# make check: compute only
# make check: slow
set -u
. "$DGR_SRC/test/lib/tap.sh"
PLOT="$DGR_BUILD/bin/dgrdma-plot"
CHECK="$DGR_SRC/test/analysis/plot_check.py"
GEN="$DGR_BUILD/bin/dgrdma-gen"
tmp=$(mktemp -d "$DGR_BUILD/analysis-plot.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if ! command -v gnuplot >/dev/null; then
	skip "gnuplot not installed (make deps)"
	done_testing
	exit
fi

# valid_png FILE [WIDTH HEIGHT]: PNG signature and an IHDR of WIDTH x HEIGHT (1200 x 700)
# (one xxd reads the first 24 bytes, cut in bash: five processes per file before)
valid_png() {
	local head size
	printf -v size '%08x%08x' "${2:-1200}" "${3:-700}"
	head=$(xxd -p -l 24 "$1") &&
		[ "${head:0:16}" = "89504e470d0a1a0a" ] && [ "${head:32:16}" = "$size" ]
}
# valid_svg FILE: well-formed XML whose root is <svg>
valid_svg() {
	python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
sys.exit(0 if r.tag.endswith("svg") else 1)' "$1"
}
# series SVG: its gnuplot_plot_N ids, each counted once (one awk: a grep, a sort and a wc before)
series() {
	awk '{ while (match($0, /id="gnuplot_plot_[0-9]*"/)) { id = substr($0, RSTART, RLENGTH)
			if (!(id in seen)) { seen[id]; n++ }; $0 = substr($0, RSTART + RLENGTH) } }
		END { print n + 0 }' "$1"
}
# check_kind OUTDIR NAME SERIES PNG-LINE SVG-LINE: the two lines, what `plot_check.py png` and
# `plot_check.py svg` say of NAME.png and NAME.svg (its validity, series and those without a
# point drawn), the caller reading several files at once (each python start, grep or awk is
# 10-100 ms of CPU)
check_kind() {
	local f="$1/$2" svg_ok n_series undrawn
	read -r svg_ok n_series undrawn <<<"$5"
	if [ -f "$f.png" ] && valid_png "$f.png"; then ok "$2.png is a valid 1200x700 PNG"; else not_ok "$2.png is a valid 1200x700 PNG"; fi
	if [ "$svg_ok" = svg ]; then ok "$2.svg is well-formed SVG"; else not_ok "$2.svg is well-formed SVG"; fi
	check_eq "$n_series" "$3" "$2 has $3 series"
	check_eq "$undrawn" none "$2: every series has points drawn"
	check_eq "$4" "1200x700 0" "$2.png: nothing cut by the image's edge"
}

# A CSV folder as latency-report --csv writes it, with a known number of series.
csv="$tmp/csv"
mkdir -p "$csv"
awk 'BEGIN {
	print "time_s,latency_ns,dir,conn,buffer"
	for (i = 0; i < 200; i++) {
		printf "%.6f,%d,rx,0,%d\n", i * 0.001, 10000 + (i % 7) * 1000, i % 8
		printf "%.6f,%d,tx,1,%d\n", i * 0.001 + 0.0005, 20000 + (i % 5) * 3000, i % 4
	}
}' >"$csv/doorbells.csv"
awk 'BEGIN {
	print "time_s,latency_ns,conn,buffer,wait_ns,work_ns,send_ns,wait_receive_ns"
	for (i = 0; i < 100; i++) printf "%.6f,%d,0,%d,1000,5000,2000,%d\n", i * 0.002, 8000 + i * 10, i % 8, 3000 + i
}' >"$csv/host_doorbells.csv"
awk 'BEGIN {
	print "time_s,dir,transactions,data_bytes,throughput_MBps,discontinuities,doorbells,max_latency_ns"
	for (i = 0; i < 20; i++) {
		printf "%.6f,rx,10,81920,8.192,%d,10,16000\n", i * 0.01, i % 3
		printf "%.6f,tx,10,40960,4.096,0,10,32000\n", i * 0.01
	}
}' >"$csv/intervals.csv"
# host: nothing lost, then every sample of the intervals ending at 0.09 and 0.10 s (100 %), half
# of the one ending at 0.16 s; the emulator loses nothing (0 % throughout); the kernel drops 10
# frames in 110 from 0.13 s on (processes 4242 and 4243: no legend names them)
awk 'BEGIN {
	print "time_s,source,conn,delivered,lost,drop_pct,vpid"
	for (i = 0; i <= 20; i++) {
		lost = i >= 16 ? 25000 : i >= 10 ? 20000 : i == 9 ? 10000 : 0
		printf "%.6f,host,0,%d,%d,0,4242\n", i * 0.01, i * 10000 - lost, lost
		printf "%.6f,fpga,0,%d,0,0,4243\n", i * 0.01, i * 10000
		printf "%.6f,socket,0,%d,%d,0,4242\n", i * 0.01, i * 100, (i > 12 ? (i - 12) * 10 : 0)
	}
}' >"$csv/drops.csv"
printf 'buffer_size,throughput_MBps\n4096,120\n8192,240\n16384,410\n32768,610\n' >"$tmp/perf-a.csv"
printf 'MBps,buffer_bytes\n90,4096\n200,8192\n350,16384\n500,32768\n' >"$tmp/perf-b.csv"

if "$PLOT" -o "$tmp/out" --log --tolerable-us 40 --perf "$tmp/perf-a.csv" --perf "$tmp/perf-b.csv" \
	"$csv" >"$tmp/list" 2>"$tmp/err"; then
	ok "dgrdma-plot renders a CSV folder"
else
	not_ok "dgrdma-plot renders a CSV folder"
	diag "$(cat "$tmp/err")"
fi
check_eq "$(wc -l <"$tmp/list")" 12 "six kinds x two formats listed"
kinds=(latency histogram ccdf drops rate throughput)
pngs=("${kinds[@]/%/.png}")
svgs=("${kinds[@]/%/.svg}")
mapfile -t edges < <("$CHECK" png "${pngs[@]/#/$tmp/out/}" 2>&1)
mapfile -t svg_lines < <("$CHECK" svg "${svgs[@]/#/$tmp/out/}" 2>&1)
series_n=(4 4 4 3 2 2) # latency: RX and TX on the wire, in-host, in-host from arrival; drops: host,
# FPGA ADC, host socket from counter snapshots; rate: rx, tx; throughput: two perf CSVs
for i in "${!kinds[@]}"; do
	check_kind "$tmp/out" "${kinds[i]}" "${series_n[i]}" "${edges[i]-}" "${svg_lines[i]-}"
done
check_eq "$(grep -o 'tolerable 40.000 µs' "$tmp/out/latency.svg" | sort -u)" "tolerable 40.000 µs" "the tolerable latency is drawn and labelled, in the report text's unit"
check_eq "$(grep -c 'doorbell latency (µs, log scale)' "$tmp/out/latency.svg")" 1 "--log: latency axis labelled with its unit and scale"
# every doorbell drawn once in its series, the wire's over the stack's (drawn last)
check_eq "$("$CHECK" series "$tmp/out/latency.svg" | tr '\n' ';')" \
	"100 in-host from completion (trace);100 in-host from kernel arrival (trace);200 RX on the wire (capture);200 TX on the wire (capture);" \
	"latency: each doorbell a point, series named by where they were measured, the wire's drawn last"
check_eq "$(grep -c 'time of the doorbell in the run (s)' "$tmp/out/latency.svg")" 1 \
	"latency: the time axis says which time a doorbell is drawn at"
# drops: one series per role, no process id; samples (%) on the left axis, frames (%) on the right
check_eq "$("$CHECK" series "$tmp/out/drops.svg" | awk '{ $1 = ""; printf "%s;", substr($0, 2) }')" \
	"FPGA ADC;host;host socket;" "drops: series named by role, not by process"
check_eq "$(grep -c -e '>samples lost (%)<' -e '>frames the kernel dropped (%)<' "$tmp/out/drops.svg")" 2 \
	"drops: samples on one axis, the kernel's frames on the other"
gap=$("$CHECK" inside "$tmp/out/drops.svg")
if awk -v g="$gap" 'BEGIN { exit !(g >= 3) }'; then
	ok "drops: 0 % and 100 % drawn inside the graph's frame ($gap px from it)"
else
	not_ok "drops: 0 % and 100 % drawn inside the graph's frame ($gap px from it)"
fi

# A flight recorder's CSVs (latency-report on its folder, docs/analysis.md "Incidents"): the
# incidents with a time are marked on the drop-rate plot at that time, each with its number;
# the title counts every incident the recorder wrote and the triggers past its limit.
rec="$tmp/recorder"
mkdir -p "$rec"
cp "$csv/drops.csv" "$csv/doorbells.csv" "$rec/"
printf 'incident,time_s,trigger\n1,0.050000,"SIGUSR1"\n2,0.120000,"LTTng trigger: a drop or discontinuity event"\n3,,"SIGUSR1"\n' \
	>"$rec/incidents.csv"
echo '{"flight_recorder": {"incidents": 3, "triggers_past_limit": 4, "max_incidents": 3}}' >"$rec/report.json"
"$PLOT" -o "$tmp/rec-out" --kind drops "$rec" >/dev/null 2>"$tmp/err" || diag "$(cat "$tmp/err")"
check_eq "$(grep -o '>incident [0-9]*<' "$tmp/rec-out/drops.svg" | tr '\n' ' ')" ">incident 1< >incident 2< " \
	"incidents: the two with a time marked with their numbers, the one without none"
check_eq "$(grep -c '3 incidents of the flight recorder, 4 triggers past --max-incidents 3' "$tmp/rec-out/drops.svg")" 1 \
	"incidents: the title counts them and the triggers past the limit"
# the same folder with its report.json cut short: no plot without the report's part (a partial
# answer), exit 2 naming the file
head -c 20 "$rec/report.json" >"$tmp/cut.json" && mv "$tmp/cut.json" "$rec/report.json"
out=$("$PLOT" -o "$tmp/rec-cut" --kind drops "$rec" 2>&1)
check_eq "$?:$(grep -c "^dgrdma-plot: $rec/report.json is not a report latency-report wrote (parse error" <<<"$out"):$(
	find "$tmp/rec-cut" -name '*.svg' 2>/dev/null | wc -l)" "2:1:0" \
	"a CSV folder whose report.json is cut short: refused, exit 2, naming it; no plot"
# each mark a vertical line from the frame's bottom to its top, at its time's x (0.05 s and
# 0.12 s of the axis 0..0.2 s: 25 % and 60 % of the frame's width, within a pixel)
check_eq "$(python3 -c 'import re, sys
svg = open(sys.argv[1]).read()
x0, y0, x1, y1 = map(float, re.search(r"d=.M([\d.]+),([\d.]+) L[\d.]+,[\d.]+ L([\d.]+),([\d.]+) L[\d.]+,[\d.]+ L[\d.]+,[\d.]+ Z", svg).groups())
lines = re.findall(r"M([\d.]+),([\d.]+) L([\d.]+),([\d.]+)", re.search(r"stroke=.rgb\(255, 127,  14\). stroke-dasharray=[^>]*d=.(M[\d.]+,[\d.]+ L[\d.]+,[\d.]+ M[^\x27]*)", svg).group(1))
print(" ".join("%.0f%%" % (100 * (float(a) - x0) / (x1 - x0)) + ("" if a == c and abs(float(b) - y1) < 1 and abs(float(d) - y0) < 1 else "?") for a, b, c, d in lines))' \
	"$tmp/rec-out/drops.svg" 2>&1)" "25% 60%" "incidents: each a vertical line across the graph at its time"
check_eq "$("$CHECK" png "$tmp/rec-out/drops.png" 2>&1)" "1200x700 0" "incidents: nothing cut by the image's edge"

# An hour of counter readings (10 a second, as the stack and the emulator take them: a flight
# recorder's whole run) is drawn per pixel column, never a point per reading, and the one
# interval of the hour that lost everything (100 ms at 1800 s) keeps its 100 % peak.
hour="$tmp/hour"
mkdir -p "$hour"
awk 'BEGIN {
	print "time_s,source,conn,delivered,lost,drop_pct,vpid"
	for (i = 0; i <= 36000; i++) {
		lost = i >= 18001 ? 10000 : 0
		printf "%.6f,host,0,%d,%d,0,4242\n", i * 0.1, i * 10000 - lost, lost
		printf "%.6f,fpga,0,%d,0,0,4243\n", i * 0.1, i * 10000
	}
}' >"$hour/drops.csv"
printf 'time_s,latency_ns,dir,conn,buffer\n' >"$hour/doorbells.csv"
"$PLOT" -o "$tmp/hour-out" --kind drops --format svg "$hour" >/dev/null 2>"$tmp/err" || diag "$(cat "$tmp/err")"
check_eq "$("$CHECK" series "$tmp/hour-out/drops.svg" | awk '{ print ($1 <= 2 * 1200 + 4 && $1 >= 1200) }' | tr '\n' ' ')" "1 1 " \
	"an hour of readings: each series one interval per pixel column (1200 to 2404 points, not 72000)"
check_eq "$(grep -c '> 100</tspan>' "$tmp/hour-out/drops.svg") $(grep -c 'each pixel column: the highest percentage' "$tmp/hour-out/drops.svg")" \
	"1 1" "an hour of readings: the 100 ms that lost everything keeps its 100 % peak, and the title says how"

# Other sizes: every kind exactly that size, no title or label cut by the image's edge.
for size in 640x400 1920x1080; do
	"$PLOT" -o "$tmp/size-$size" --format png --size "$size" --tolerable-us 40 --perf "$tmp/perf-a.csv" \
		"$csv" >/dev/null 2>"$tmp/err" || diag "$(cat "$tmp/err")"
	mapfile -t edges < <("$CHECK" png "${pngs[@]/#/$tmp/size-$size/}" 2>&1)
	for i in "${!kinds[@]}"; do
		check_eq "${edges[i]-}" "$size 0" \
			"--size $size: ${kinds[i]}.png is ${size/x/ x }, nothing cut by its edge"
	done
done
"$PLOT" -o "$tmp/bad" --size 600x700 "$csv" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c "'600x700' is out of range 640..7680 x 400..4320" "$tmp/err")" "2 1" "a --size out of range is named with the range"

# The worst stalls' lanes (issue 33, item 4): one panel per stall that latency-report gave
# cpu_runs, one lane per CPU, the culprits named in their lane, the late thread marked.
mkdir -p "$tmp/lanes"
cp "$csv/doorbells.csv" "$csv/host_doorbells.csv" "$tmp/lanes/"
cat >"$tmp/lanes/report.json" <<'JSON'
{"stall_causes": {"stalls": [
 {"doorbell_time_s": 0.1, "duration_ns": 10200000, "stage": "kernel", "stage_ns": 10000000,
  "thread": "rx", "tid": 142, "cause": "writeback",
  "culprits": [{"kind": "task", "name": "dd (block writes)", "comm": "dd", "cpu": 0}],
  "cpus": 2, "cpu_runs_truncated": false, "cpu_runs": [
  {"cpu": 0, "from_ns": 0, "to_ns": 8000000, "kind": "task", "name": "dd (block writes)", "pid": 77, "prio": 120, "late_thread": false},
  {"cpu": 0, "from_ns": 8000000, "to_ns": 10000000, "kind": "task", "name": "dgrdma-host", "pid": 142, "prio": 120, "late_thread": true},
  {"cpu": 1, "from_ns": 0, "to_ns": 3000000, "kind": "softirq", "name": "NET_RX softirq"},
  {"cpu": 1, "from_ns": 3000000, "to_ns": 9800000, "kind": "task", "name": "kworker/u4:2 (writeback)", "pid": 55, "prio": 120, "late_thread": false},
  {"cpu": 1, "from_ns": 9800000, "to_ns": 10000000, "kind": "idle", "name": "nothing (idle)"}]},
 {"doorbell_time_s": 0.15, "duration_ns": 5000000, "stage": "stack", "stage_ns": 4000000,
  "thread": "consumer", "tid": 144, "cause": "higher-priority-task",
  "culprits": [{"kind": "task", "name": "bash", "comm": "bash", "cpu": 0}],
  "cpus": 2, "cpu_runs_truncated": false, "cpu_runs": [
  {"cpu": 0, "from_ns": 0, "to_ns": 4000000, "kind": "task", "name": "bash", "pid": 90, "prio": 49, "late_thread": false},
  {"cpu": 1, "from_ns": 0, "to_ns": 4000000, "kind": "irq", "name": "IRQ 36 virtio1-req.0"}]},
 {"doorbell_time_s": 0.18, "duration_ns": 3000000, "stage": "kernel", "stage_ns": 2900000,
  "thread": "rx", "tid": 142, "cause": "other-task", "culprits": []}]}}
JSON
"$PLOT" -o "$tmp/lanes/out" --kind lanes "$tmp/lanes" >"$tmp/lanes/list" 2>"$tmp/err" || diag "$(cat "$tmp/err")"
check_eq "$(tr '\n' ' ' <"$tmp/lanes/list")" "$tmp/lanes/out/stall-lanes.png $tmp/lanes/out/stall-lanes.svg " \
	"--kind lanes: stall-lanes.png and .svg"
if valid_png "$tmp/lanes/out/stall-lanes.png" && valid_svg "$tmp/lanes/out/stall-lanes.svg"; then
	ok "stall-lanes: a valid 1200x700 PNG and well-formed SVG"
else
	not_ok "stall-lanes: a valid 1200x700 PNG and well-formed SVG"
fi
check_eq "$("$CHECK" png "$tmp/lanes/out/stall-lanes.png" 2>&1)" "1200x700 0" "stall-lanes.png: nothing cut by the image's edge"
lsvg="$tmp/lanes/out/stall-lanes.svg"
check_eq "$(grep -c '>CPU 0<' "$lsvg") $(grep -c '>CPU 1<' "$lsvg")" "2 2" \
	"stall-lanes: a lane for CPU 0 and CPU 1 in each of the two stalls with cpu_runs (the third has none)"
check_eq "$(grep -o '>#[0-9]: [^<]*<' "$lsvg" | tr '\n' ';')" \
	">#1: 10.2 ms (doorbell at 0.1 s), waited in the kernel (rx thread 142); cause: writeback, dd (block writes) on CPU 0<;>#2: 5 ms (doorbell at 0.15 s), waited in the stack (consumer thread 144); cause: higher-priority-task, bash on CPU 0<;" \
	"stall-lanes: one panel per stall, worst first, titled with its duration, stage, thread and cause"
# a name is drawn once per run over 5% of the window: dd 80%, the late thread 20%, the softirq
# 30%, the kworker 68%; the idle 2% and anything under 5% go unnamed
for name in "dd (block writes) 80%" "dgrdma-host 20% (the late thread)" "NET_RX softirq 30%" \
	"kworker/u4:2 (writeback) 68%" "bash 100%" "IRQ 36 virtio1-req.0 100%"; do
	check "stall-lanes: '$name' named in its lane" grep -qF ">$name<" "$lsvg"
done
check_eq "$(grep -c '>nothing (idle)' "$lsvg")" 0 "stall-lanes: idle time is drawn, not named"
# colours: the late thread green, writeback brown, softirq orange, IRQ red, real-time purple,
# each drawn beyond its legend's sample
for rgb in 2ca02c 8c564b ff7f0e d62728 9467bd; do
	re="rgb\( *$((16#${rgb:0:2})), *$((16#${rgb:2:2})), *$((16#${rgb:4:2}))\)"
	n=$(grep -oE "$re" "$lsvg" | wc -l)
	check "stall-lanes: runs drawn in #$rgb ($n times with the legend's)" [ "$n" -ge 2 ]
done
"$PLOT" -o "$tmp/lanes/one" --kind lanes --format svg --stalls 1 "$tmp/lanes" >/dev/null 2>&1
check_eq "$(grep -c '>#[0-9]: ' "$tmp/lanes/one/stall-lanes.svg")" 1 "--stalls 1: the worst stall only"
for bad in 0 6 x; do
	"$PLOT" -o "$tmp/bad" --kind lanes --stalls "$bad" "$tmp/lanes" >/dev/null 2>"$tmp/err"
	check_eq "$? $(grep -c -e "--stalls: '$bad' is out of range 1..5" -e "--stalls: '$bad' is not a number (accepted: 1..5)" "$tmp/err")" \
		"2 1" "--stalls $bad: refused, the range named"
done
"$PLOT" -o "$tmp/lanes/rt" --kind lanes --format svg --stall-cause higher-priority-task "$tmp/lanes" \
	>/dev/null 2>&1
check_eq "$(grep -o '>#[0-9]: [^<]*<' "$tmp/lanes/rt/stall-lanes.svg" | tr '\n' ';')" \
	">#1: 5 ms (doorbell at 0.15 s), waited in the stack (consumer thread 144); cause: higher-priority-task, bash on CPU 0<;" \
	"--stall-cause higher-priority-task: that cause's worst stall only, though not the run's worst"
"$PLOT" -o "$tmp/lanes/irq" --kind lanes --format svg --stall-cause irq "$tmp/lanes" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c 'no irq stall with the kernel.s view.*lanes plot skipped' "$tmp/err") $([ -e "$tmp/lanes/irq/stall-lanes.svg" ] && echo drawn || echo none)" \
	"0 1 none" "--stall-cause irq, a cause without stalls: the lanes plot is skipped with a note"
"$PLOT" -o "$tmp/bad" --kind lanes --stall-cause slow "$tmp/lanes" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c -e "--stall-cause: 'slow' is not stopped, higher-priority-task, " "$tmp/err")" \
	"2 1" "--stall-cause slow: refused, the causes named"
"$PLOT" -o "$tmp/lanes/none" --kind lanes "$csv" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c 'lanes plot skipped' "$tmp/err")" "0 1" "no report with cpu_runs: the lanes plot is skipped with a note"

# A stall 1000 times the typical latency: a logarithmic axis without --log; --linear refuses it.
mkdir -p "$tmp/stall"
awk 'BEGIN {
	print "time_s,latency_ns,dir,conn,buffer"
	for (i = 0; i < 300; i++) printf "%.6f,%d,rx,0,%d\n", i * 0.001, i == 150 ? 15000000 : 20000, i % 8
}' >"$tmp/stall/doorbells.csv"
"$PLOT" -o "$tmp/stall/auto" --kind latency,histogram --format svg "$tmp/stall" >/dev/null 2>&1
"$PLOT" -o "$tmp/stall/linear" --kind latency,histogram --format svg --linear "$tmp/stall" >/dev/null 2>&1
check_eq "$(grep -c 'doorbell latency (µs, log scale)' "$tmp/stall/auto/latency.svg") $(grep -c 'doorbell latency (µs)<' "$tmp/stall/linear/latency.svg")" \
	"1 1" "latencies spanning three decades: log scale by default, linear with --linear"
check_eq "$(grep -c 'doorbells per bin (log scale)' "$tmp/stall/auto/histogram.svg") $(grep -c 'doorbells per bin<' "$tmp/stall/linear/histogram.svg")" \
	"1 1" "histogram counts spanning decades (299 and 1): log scale by default, linear with --linear"
# One gnuplot draws every plot of a run: a plot it cannot draw (its output a folder here) is
# named, after gnuplot's own error, with exit 3, the plots before it listed; a title's quotes,
# backslash, backquote (a command to gnuplot in double quotes) and newline are drawn as given.
mkdir -p "$tmp/stall/fail/ccdf.svg"
"$PLOT" -o "$tmp/stall/fail" --kind latency,ccdf --format svg --title $'a "b" \\c `d` @e\nf' "$tmp/stall" \
	>"$tmp/list" 2>"$tmp/err"
rc=$?
mapfile -t listed <"$tmp/list"
mapfile -t errs <"$tmp/err"
gp_err=none
[[ ${errs[*]:0:${#errs[@]}-1} != *"cannot open file; output not changed"* ]] || gp_err=gnuplot\'s
check_eq "$rc ${listed[*]} $gp_err ${errs[-1]-}" \
	"3 $tmp/stall/fail/latency.svg gnuplot's dgrdma-plot: gnuplot failed on ccdf.svg" \
	"a plot gnuplot cannot draw: named after gnuplot's error, exit 3, the plot before it drawn and listed"
check_eq "$(grep -c -e '<text>a "b" \\c `d` @e</text>' -e '<text>f: doorbell latency over the run</text>' "$tmp/stall/fail/latency.svg")" 2 \
	"a title's quotes, backslash, backquote and newline drawn as given"

# From a capture: latency-report runs first; drops fall back to discontinuities.
"$GEN" -o "$tmp/run.pcapng" -e "$tmp/run.json" --txns 300 --buffers 8 --discontinuity-every 20 >/dev/null
if "$PLOT" -o "$tmp/cap" --format svg "$tmp/run.pcapng" >"$tmp/list2" 2>"$tmp/err"; then
	ok "dgrdma-plot renders a capture (through latency-report)"
else
	not_ok "dgrdma-plot renders a capture"
	diag "$(cat "$tmp/err")"
fi
check_eq "$(ls "$tmp/cap"/*.svg | wc -l) $(ls "$tmp/cap"/*.png 2>/dev/null | wc -l)" "5 0" "--format svg: five SVGs, no PNG"
check_eq "$(series "$tmp/cap/latency.svg")" 1 "capture latency plot: one series (RX on the wire)"
check_eq "$(grep -c 'discontinuity messages (% of transactions)' "$tmp/cap/drops.svg")" 1 "drops from discontinuities when no counters"
check_eq "$(grep -o '>tolerable [0-9.]* µs<' "$tmp/cap/latency.svg" | sort -u | wc -l)" 1 "tolerable latency taken from the report"
# the verdict's summary line (regime.summary) on the latency plot, in two lines under the title
summary=$(jq -r .regime.summary "$tmp/cap/csv/report.json")
diag "summary: $summary"
check_eq "$(grep -c ">${summary%%; lossless*}<" "$tmp/cap/latency.svg") $(grep -c '>lossless up to about [0-9.]*x this rate (estimated)<' "$tmp/cap/latency.svg")" \
	"1 1" "the latency plot carries the verdict, its shape and its headroom (regime.summary)"

# The same capture split in two files, given as two INPUTs: read as one run (latency-report's
# capture set), the same doorbells drawn, both files named in the title.
if command -v editcap >/dev/null; then
	half=$((($(jq -r .capture.frames "$tmp/cap/csv/report.json") + 1) / 2))
	editcap -c "$half" "$tmp/run.pcapng" "$tmp/part.pcapng" >/dev/null 2>&1
	parts=("$tmp"/part_*.pcapng)
	"$PLOT" -o "$tmp/parts" --format svg --kind latency "${parts[@]}" >/dev/null 2>"$tmp/err"
	check_eq "$? ${#parts[@]} $("$CHECK" series "$tmp/parts/latency.svg" | tr '\n' ';')" \
		"0 2 $("$CHECK" series "$tmp/cap/latency.svg" | tr '\n' ';')" \
		"two INPUTs (a capture split in two): one run, the same doorbells as the whole capture"
	check_eq "$(grep -c ">$(basename "${parts[0]}") + $(basename "${parts[1]}"): doorbell latency over the run<" "$tmp/parts/latency.svg")" 1 \
		"two INPUTs: both named in the title"
else
	skip "editcap (wireshark-common) not installed: two INPUTs not checked"
fi

"$PLOT" --format gif "$csv" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c "'gif' is not png, svg or both" "$tmp/err")" "2 1" "a bad --format is named with the accepted values"
# The CSV of `dgrdma-host perf --csv` (message_size, mbyte_s), without any other input.
printf 'message_size,messages,seconds,mbyte_s,msample_s,memcpy\n2048,100,0.1,100.5,25.1,0\n4096,100,0.1,200.5,50.1,0\n' >"$tmp/host-perf.csv"
if "$PLOT" -o "$tmp/perf-only" --kind throughput --perf "$tmp/host-perf.csv" >/dev/null 2>&1; then
	ok "dgrdma-plot --perf reads dgrdma-host perf's CSV columns"
else
	not_ok "dgrdma-plot --perf reads dgrdma-host perf's CSV columns"
fi
check_kind "$tmp/perf-only" throughput 1 "$("$CHECK" png "$tmp/perf-only/throughput.png" 2>&1)" \
	"$("$CHECK" svg "$tmp/perf-only/throughput.svg" 2>&1)"
# dgrdma-host perf --direction both: the sum and each direction are drawn (three series)
{
	echo "message_size,messages,seconds,mbyte_s,msample_s,memcpy,direction,tx_messages,tx_bytes,tx_seconds,tx_mbyte_s,rx_messages,rx_bytes,rx_seconds,rx_mbyte_s"
	echo "2048,100,0.1,300.0,75.0,off,both,100,204800,0.1,100.0,100,204800,0.05,200.0"
	echo "4096,100,0.1,600.0,150.0,off,both,100,409600,0.1,250.0,100,409600,0.05,350.0"
} >"$tmp/host-perf-both.csv"
if "$PLOT" -o "$tmp/perf-both" --kind throughput --format svg --perf "$tmp/host-perf-both.csv" \
	>/dev/null 2>"$tmp/err"; then
	ok "dgrdma-plot --perf reads perf --direction both's CSV"
else
	not_ok "dgrdma-plot --perf reads perf --direction both's CSV"
	diag "$(cat "$tmp/err")"
fi
check_eq "$(series "$tmp/perf-both/throughput.svg")" 3 "sum, tx and rx: three series"
check_eq "$(grep -o 'host-perf-both-[a-z]*' "$tmp/perf-both/throughput.svg" | sort -u | tr '\n' ' ')" \
	"host-perf-both-rx host-perf-both-sum host-perf-both-tx " "labelled -sum, -tx and -rx"
printf 'size,speed\n1,2\n' >"$tmp/bad-perf.csv"
out=$("$PLOT" -o "$tmp/bad" --kind throughput --perf "$tmp/bad-perf.csv" 2>&1)
check_eq "$?" "2" "a perf CSV without known columns is unreadable input: exit 2"
echo "$out" | grep -q "needs columns buffer_size" && ok "the error names the columns it needs" ||
	not_ok "the error names the columns it needs"
# A run of hours: past --max-points doorbells in a series (100000 by default, lowered here)
# every series is drawn per pixel column (min-max band, p99, p50) from latency-report's own
# columns (--plot-columns; their values: test/analysis/plot_columns.sh), never a point each;
# the histogram and CCDF from its buckets; latency-report writes no per-doorbell row.
"$GEN" -o "$tmp/long.pcapng" -e "$tmp/long.json" --profile jitter --txns 20000 --no-latency-list \
	2>"$tmp/long-err" || bail "dgrdma-gen: $(head -c 300 "$tmp/long-err")"
"$PLOT" -o "$tmp/long-out" --max-points 5000 --kind latency,histogram,ccdf "$tmp/long.pcapng" \
	>/dev/null 2>"$tmp/long-err"
check_eq "$?" 0 "20000 doorbells, --max-points 5000: plotted"
cols="$tmp/long-out/latency-columns-rx.csv"
check_eq "$(head -1 "$cols" 2>/dev/null)" "time_s,min_ns,p50_ns,p99_ns,max_ns,doorbells,from_s,to_s" \
	"the per-column data is kept beside the plot, with its header"
check_eq "$(awk -F, 'NR > 1 { n++; s += $6 } END { print (n <= 1200) "/" s }' "$cols")" 1/20000 \
	"RX: at most 1200 columns (the plot's width in pixels; the stalls leave some empty), holding all 20000 doorbells"
check_eq "$(awk -F, 'NR > 1 && $5 > m { m = $5 } END { print m }' "$cols")" \
	"$(jq -r .wire.rx.latency_ns.max "$tmp/long-out/csv/report.json")" "the highest column's max is the run's max"
check_eq "$(wc -l <"$tmp/long-out/csv/doorbells.csv")" 1 \
	"latency-report wrote no per-doorbell row past the limit (--doorbell-rows)"
check_eq "$(series "$tmp/long-out/latency.svg")" 4 "one series, drawn as a band, its max line, p99 and p50"
check "the legend names the band, p99 and p50" grep -q "RX on the wire (capture) p99" "$tmp/long-out/latency.svg"
check "the SVG stays small: under 1 MB" test "$(wc -c <"$tmp/long-out/latency.svg")" -lt 1000000
# (plot_check.py svg: each one's series and those without a point drawn, one python for both)
mapfile -t long_svgs < <("$CHECK" svg "$tmp/long-out/histogram.svg" "$tmp/long-out/ccdf.svg" 2>&1)
read -r _ h_series h_undrawn <<<"${long_svgs[0]-}"
read -r _ c_series c_undrawn <<<"${long_svgs[1]-}"
check_eq "$h_series $c_series" "1 1" "the histogram and the CCDF from latency-report's buckets"
check_eq "$h_undrawn$c_undrawn" nonenone "both drawn"
# at the limit: a point per doorbell, as for any short run
"$PLOT" -o "$tmp/at-limit" --max-points 20000 --kind latency --format svg "$tmp/long.pcapng" \
	>/dev/null 2>"$tmp/long-err"
check_eq "$? $(series "$tmp/at-limit/latency.svg") $(compgen -G "$tmp/at-limit/latency-columns-*" | wc -l)" "0 1 0" \
	"20000 doorbells, --max-points 20000: points, no columns"
# a CSV folder written without --plot-columns, past the limit: no blot of points, a note
mkdir -p "$tmp/no-cols"
awk 'BEGIN { print "time_s,latency_ns,dir,conn,buffer"; for (i = 0; i < 300; i++) printf "%.3f,%d,rx,0,0\n", i / 100, 10000 + i }' \
	>"$tmp/no-cols/doorbells.csv"
"$PLOT" -o "$tmp/no-cols-out" --max-points 200 --kind latency,ccdf "$tmp/no-cols" >/dev/null 2>"$tmp/long-err"
check_eq "$? $(compgen -G "$tmp/no-cols-out/*.svg" | wc -l) $(grep -c -- 'no columns-rx.csv: latency, histogram and CCDF plots skipped (latency-report --csv DIR --plot-columns N' "$tmp/long-err")" \
	"0 0 1" "a CSV folder past the limit without columns: the plots skipped, the note names --plot-columns"
"$PLOT" -o "$tmp/bad" --max-points 0 "$tmp/no-cols" >/dev/null 2>"$tmp/long-err"
check_eq "$? $(grep -c -- "--max-points: '0' is out of range 1..100000000" "$tmp/long-err")" "2 1" \
	"--max-points 0: refused, exit 2, with the range"
done_testing
