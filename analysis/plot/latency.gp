# SPDX-License-Identifier: GPL-2.0-or-later
# Doorbell latency over the run (the tuning guide's figures 71 and 72).
# Variables: files (space-separated data files: time_s,latency_ns; time_s is the doorbell's
# time in every series, so that the wire's and the stack's latency of one doorbell are drawn
# at the same x), labels (same count, words, quoted when they hold spaces), tolerable_us (0:
# none), logscale (-1: when the latencies span more than two decades, 0: linear, 1: log), plus
# those of common.gp and time_axis.gp. The title's lines (the verdict, latency-report's
# regime.summary) are plot_title's; stalls_file (below) marks the stalls with their causes.
load plotdir.'/common.gp'
load plotdir.'/time_axis.gp'
set xlabel 'time of the doorbell in the run (s)'
vmin = 0
vmax = tolerable_us
# columns=1: each file holds a long run's pixel columns, time_s,min_ns,p50_ns,p99_ns,max_ns,n,...
# (latency-report --plot-columns), drawn as a min-max band with the p99 and p50 lines
if (!exists("columns")) { columns = 0 }
do for [i=1:words(files)] {
	stats word(files, i) using ($2 > 0 ? $2 / 1000.0 : NaN) nooutput
	if (vmin == 0 || STATS_min < vmin) { vmin = STATS_min }
	if (!columns && STATS_max > vmax) { vmax = STATS_max }
	if (columns) {
		stats word(files, i) using ($5 / 1000.0) nooutput
		if (STATS_max > vmax) { vmax = STATS_max }
	}
}
if (logscale < 0) { logscale = spans_decades(vmin, vmax) }
if (logscale) {
	set logscale y
	set ylabel 'doorbell latency (µs, log scale)'
	set yrange [vmin / 1.5:vmax * 2]
} else {
	set ylabel 'doorbell latency (µs)'
	set yrange [0:vmax * 1.1]
}
if (tolerable_us > 0) {
	set arrow from graph 0, first tolerable_us to graph 1, first tolerable_us nohead ls 9 front
	set label 'tolerable '.duration_text(tolerable_us) at graph 0.99, first tolerable_us right offset 0,0.7 tc rgb '#ff7f0e' boxed front
}
load plotdir.'/key_below.gp'
# Each source its own marker, so that series on top of each other stay visible: the wire as open
# circles, drawn last, around the stack's dots (in-host: red, from the kernel's arrival: green)
wire(l) = strstrt(l, 'wire') > 0
colour(l) = strstrt(l, 'TX') > 0 ? '#9467bd' : wire(l) ? '#1f77b4' : strstrt(l, 'arrival') > 0 ? '#2ca02c' : '#d62728'
point(l) = wire(l) ? 6 : 7
size(l) = wire(l) ? 0.8 : 0.4
# drawing order: the stack's series first, the wire's over them (the legend keeps this order)
order = ''
do for [i=1:words(files)] { if (!wire(word(labels, i))) { order = order.' '.i } }
do for [i=1:words(files)] { if (wire(word(labels, i))) { order = order.' '.i } }
# stalls_file (optional; '' none): time_s,duration_ns,label of latency-report's worst stalls
# (stall_causes.stalls[].doorbell_time_s, duration from the kernel's arrival, the cause): each
# marked with a square and its cause
if (!exists("stalls_file")) { stalls_file = '' }
if (columns) {
	band(l) = l.' min-max'
	p99(l) = l.' p99'
	p50(l) = l.' p50'
	if (strlen(stalls_file) > 0) {
		plot for [j in order] word(files, j + 0) using 1:($2 / 1000.0):($5 / 1000.0) with filledcurves \
			fs transparent solid 0.3 noborder lc rgb colour(word(labels, j + 0)) title band(word(labels, j + 0)), \
			for [j in order] word(files, j + 0) using 1:($5 / 1000.0) with lines lw 0.6 \
			lc rgb colour(word(labels, j + 0)) notitle, \
			for [j in order] word(files, j + 0) using 1:($4 / 1000.0) with lines lw 1.5 \
			lc rgb colour(word(labels, j + 0)) title p99(word(labels, j + 0)), \
			for [j in order] word(files, j + 0) using 1:($3 / 1000.0) with lines lw 1 dt 2 \
			lc rgb colour(word(labels, j + 0)) title p50(word(labels, j + 0)), \
			stalls_file using 1:($2 / 1000.0):3 with labels left offset 1,0 font ',8' tc rgb '#000000' \
			point pt 4 ps 1.6 lc rgb '#000000' title 'the worst stalls (their cause)'
	} else {
		plot for [j in order] word(files, j + 0) using 1:($2 / 1000.0):($5 / 1000.0) with filledcurves \
			fs transparent solid 0.3 noborder lc rgb colour(word(labels, j + 0)) title band(word(labels, j + 0)), \
			for [j in order] word(files, j + 0) using 1:($5 / 1000.0) with lines lw 0.6 \
			lc rgb colour(word(labels, j + 0)) notitle, \
			for [j in order] word(files, j + 0) using 1:($4 / 1000.0) with lines lw 1.5 \
			lc rgb colour(word(labels, j + 0)) title p99(word(labels, j + 0)), \
			for [j in order] word(files, j + 0) using 1:($3 / 1000.0) with lines lw 1 dt 2 \
			lc rgb colour(word(labels, j + 0)) title p50(word(labels, j + 0))
	}
} else { if (strlen(stalls_file) > 0) {
	plot for [j in order] word(files, j + 0) using 1:($2 / 1000.0) with points \
		lc rgb colour(word(labels, j + 0)) pt point(word(labels, j + 0)) ps size(word(labels, j + 0)) \
		title word(labels, j + 0), \
		stalls_file using 1:($2 / 1000.0):3 with labels left offset 1,0 font ',8' tc rgb '#000000' \
		point pt 4 ps 1.6 lc rgb '#000000' title 'the worst stalls (their cause)'
} else {
	plot for [j in order] word(files, j + 0) using 1:($2 / 1000.0) with points \
		lc rgb colour(word(labels, j + 0)) pt point(word(labels, j + 0)) ps size(word(labels, j + 0)) \
		title word(labels, j + 0)
}
}
