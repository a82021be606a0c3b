# SPDX-License-Identifier: GPL-2.0-or-later
# Latency CCDF: fraction of doorbells slower than x. files: "latency_us,fraction"; labels.
load plotdir.'/common.gp'
set xlabel 'doorbell latency (µs, log scale)'
set ylabel 'fraction of doorbells above (log scale)'
set logscale xy
set format y '%g'
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
plot for [i=1:words(files)] word(files, i) using 1:2 with steps ls i title word(labels, i)
