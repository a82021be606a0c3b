# SPDX-License-Identifier: GPL-2.0-or-later
# Doorbell latency per interval of a live session (dgrdma-plot --live): each interval's p50,
# p99 and max from latency-report --live --json, redrawn every interval.
# Variables: files (space-separated data files: elapsed_s,latency_ns; may be empty before the
# first doorbell), labels (same count, words: SOURCE-p50, SOURCE-p99, SOURCE-max; a SOURCE
# starting with "wire" is drawn in blue, the in-host ones in red), tolerable_us (0: none),
# logscale (0/1), summary_text (the verdict so far, may be empty), plus those of common.gp.
load plotdir.'/common.gp'
set xlabel 'time since latency-report --live started (s)'
set ylabel 'doorbell latency per interval (µs)'
if (logscale) { set logscale y }
if (exists('summary_text') && strlen(summary_text) > 0) {
	set title plot_title."\n".summary_text noenhanced
}
if (tolerable_us > 0) {
	set arrow from graph 0, first tolerable_us to graph 1, first tolerable_us nohead ls 9 front
	set label 'tolerable '.duration_text(tolerable_us) at graph 0.99, first tolerable_us right offset 0,0.7 tc rgb '#ff7f0e' front
}
if (words(files) == 0) {
	# an image from the first interval on: the viewer shows that the session is followed
	unset key
	set label 'no doorbell yet' at graph 0.5, graph 0.5 center
	set xrange [0:1]
	set yrange [1:10]
	plot NaN notitle
} else {
	# the legend below the plot, never over the intervals' points (as the static plots)
	load plotdir.'/key_below.gp'
	colour(l) = strstrt(l, 'wire') == 1 ? '#1f77b4' : '#d62728'
	dash(l) = strstrt(l, '-p50') ? 2 : 1
	width(l) = strstrt(l, '-p99') ? 2 : 1
	point(l) = strstrt(l, '-max') ? 6 : 7
	plot for [i=1:words(files)] word(files, i) using 1:($2/1000.0) with linespoints \
		lc rgb colour(word(labels, i)) dt dash(word(labels, i)) lw width(word(labels, i)) \
		pt point(word(labels, i)) ps 0.6 title word(labels, i)
}
