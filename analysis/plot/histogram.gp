# SPDX-License-Identifier: GPL-2.0-or-later
# Latency histogram, log-spaced bins. files: data files "latency_us,count", the outline of each
# series' bars (the edges of each bin at its count, 0 around empty bins); labels: words
# (quoted when they hold spaces); logscale: of the count axis (-1: when the counts span more
# than two decades). Each series is an outline of its own colour and dash: none hides another.
load plotdir.'/common.gp'
set xlabel 'doorbell latency (µs, log scale)'
set ylabel 'doorbells per bin'
set logscale x
load plotdir.'/key_below.gp'
if (tolerable_us > 0) {
	# keep the tolerable latency in view
	vmax = tolerable_us
	vmin = tolerable_us
	do for [i=1:words(files)] {
		stats word(files, i) using 1 nooutput
		if (STATS_max > vmax) { vmax = STATS_max }
		if (STATS_min < vmin) { vmin = STATS_min }
	}
	set xrange [*:vmax * 1.2]
	set arrow from first tolerable_us, graph 0 to first tolerable_us, graph 1 nohead ls 9 front
	# the label on the side of the line with room for it (left of it past the middle)
	set label 1 'tolerable' at first tolerable_us, graph 0.95 tc rgb '#ff7f0e' boxed front
	xlo = vmin > 0 ? vmin : 1e-3
	if (log(tolerable_us / xlo) > 0.5 * log(vmax * 1.2 / xlo)) {
		set label 1 right offset -0.5,0
	} else {
		set label 1 left offset 0.5,0
	}
}
# after the latency's stats: stats reads only the values within the axis's range
cmin = 0
cmax = 0
do for [i=1:words(files)] {
	stats word(files, i) using ($2 > 0 ? $2 : NaN) nooutput
	if (cmin == 0 || STATS_min < cmin) { cmin = STATS_min }
	if (STATS_max > cmax) { cmax = STATS_max }
}
if (logscale < 0) { logscale = spans_decades(cmin, cmax) }
if (logscale) {
	set logscale y
	set ylabel 'doorbells per bin (log scale)'
	ybottom = 0.7
	set yrange [ybottom:cmax * 2]
} else {
	ybottom = 0
	set yrange [0:cmax * 1.1]
}
plot for [i=1:words(files)] word(files, i) using 1:($2 > 0 ? $2 : ybottom) with lines ls i title word(labels, i)
