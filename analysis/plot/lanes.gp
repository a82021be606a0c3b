# SPDX-License-Identifier: GPL-2.0-or-later
# The worst stalls, one panel each, one lane per CPU showing who ran during the stall's window,
# in the manner of Trace Compass's Resources view (issue 33, item 4). From latency-report's
# stall_causes.stalls[].cpu_runs (docs/analysis.md, "Why a stall happened").
# Variables: files (space-separated, one per stall: cpu,from_ms,to_ms,rgb of each run),
# label_files (the same count: x_ms,cpu,text of each culprit named in the lane), panel_titles
# (an array: each stall's panel's title), windows_ms (each stall's window, ms), cpus (lanes), plus common.gp's.
load plotdir.'/common.gp'
unset title
unset grid
set grid xtics lc rgb '#dddddd'
set style fill solid 1.0 noborder
set yrange [cpus - 0.5:-0.5]
set ytics 1 scale 0
set ytics ()
do for [c=0:cpus - 1] { set ytics add (sprintf('CPU %d', c) c) }
set key outside bottom center horizontal box opaque samplen 1
n = words(files)
# room (screen fractions) for the title's lines at the top, the legend at the bottom, and each
# panel's title and axis label between the panels
top = 1.0 - (title_lines * 17.0 + 34.0) / height
bottom = 100.0 / height
gap = 60.0 / height
set label 1 plot_title at screen 0.5, screen 1.0 - 10.0 / height center noenhanced front
set multiplot layout n, 1 margins 0.09, 0.98, bottom, top spacing 0, gap
do for [i=1:n] {
	set title panel_titles[i] noenhanced
	set xrange [0:word(windows_ms, i) + 0]
	# the last panel alone carries the axis's name and the legend
	if (i < n) { unset key; unset xlabel } else {
		set key
		set xlabel 'time from the start of the stall''s window (ms)' offset 0,0.5
	}
	# the runs as boxes, then the legend's colours (the same as dgrdma-plot's jq gives), then
	# the culprits' names over their longest run
	plot word(files, i) using (($2 + $3) / 2):1:(($3 - $2) / 2):(0.38):4 with boxxyerror \
		fc rgb variable notitle, \
		NaN with boxes fc rgb '#2ca02c' title 'the late thread', \
		NaN with boxes fc rgb '#1f77b4' title 'other task', \
		NaN with boxes fc rgb '#9467bd' title 'real-time task', \
		NaN with boxes fc rgb '#8c564b' title 'writeback, block writes', \
		NaN with boxes fc rgb '#ff7f0e' title 'softirq', \
		NaN with boxes fc rgb '#d62728' title 'IRQ', \
		NaN with boxes fc rgb '#e0e0e0' title 'idle', \
		word(label_files, i) using 1:2:3 with labels font ',9' tc rgb '#000000' boxed noenhanced \
		notitle
	unset label 1
}
unset multiplot
