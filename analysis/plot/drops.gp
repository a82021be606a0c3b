# SPDX-License-Identifier: GPL-2.0-or-later
# Drop rate over the run: percentage lost per interval. files: "time_s,percent", two rows per
# interval (its start and its end at its percentage; a blank line between intervals that do
# not touch), drawn as lines: each interval's value over that interval; labels: words
# (quoted when they hold spaces); axes_list: x1y1 or x1y2 per file; ylabel_text: what the
# left axis's percentage is of; y2label_text: the right axis's (empty: no right axis). Both
# axes have the same scale, from 0 % to the highest value (at least 1 %), with room below 0 %
# and above the top, so that a line at 0 % or 100 % is drawn inside the frame, never on it.
# inc_times and inc_numbers: see below.
load plotdir.'/common.gp'
load plotdir.'/time_axis.gp'
set xlabel 'time in the run (s)'
set ylabel ylabel_text
top = 1
do for [i=1:words(files)] {
	stats word(files, i) using 2 nooutput
	if (STATS_max > top) { top = STATS_max }
}
set yrange [-0.04 * top:1.04 * top]
if (exists('y2label_text') && strlen(y2label_text) > 0) {
	set y2label y2label_text
	set link y2
	set y2tics
	set ytics nomirror
}
# inc_times, inc_numbers (optional; '' none): the times (s) and numbers of a flight recorder's
# incidents on the same time axis, words in the same order, each a vertical line with its number
# at the top
if (!exists('inc_times')) { inc_times = '' }
n_inc = 0
if (strlen(inc_times) > 0) {
	n_inc = words(inc_times)
	do for [i=1:n_inc] {
		t = word(inc_times, i) + 0.0
		if (t < tmin) { tmin = t }
		if (t > tmax) { tmax = t }
		set arrow from first t, graph 0 to first t, graph 1 nohead lc rgb '#ff7f0e' lw 1.5 dt 4 front
		set label sprintf('incident %s', word(inc_numbers, i)) at first t, graph 0.97 \
			right rotate by 90 offset -0.9,-0.3 font ',9' tc rgb '#b35900' front
	}
	if (tmax > tmin) { set xrange [tmin:tmax] }
	# the legend's rows count its entry (key_below.gp)
	labels = labels.' incident'
}
load plotdir.'/key_below.gp'
# overlapping lines (every series at 0 % most of the time) stay visible: each has its own dash
# pattern and width, the first drawn widest
# (axes takes no expression: the plot command is put together and evaluated)
cmd = ''
do for [i=1:words(files)] {
	cmd = cmd.(i > 1 ? ', ' : 'plot ').sprintf("'%s' using 1:2 axes %s with lines ls %d lw %g title '%s'", \
		word(files, i), word(axes_list, i), i, (words(files) - i) * 1.5 + 1.5, word(labels, i))
}
# the incidents' lines in the legend
if (n_inc > 0) {
	cmd = cmd.", NaN with lines lc rgb '#ff7f0e' lw 1.5 dt 4 title 'incident (its number)'"
}
eval cmd
