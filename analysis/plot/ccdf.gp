# SPDX-License-Identifier: GPL-2.0-or-later
# Latency CCDF: fraction of doorbells slower than x. files: "latency_us,fraction"; labels.
load plotdir.'/common.gp'
set xlabel 'doorbell latency (µs, log scale)'
set ylabel 'fraction of doorbells above (log scale)'
set logscale xy
set key top left box opaque
if (tolerable_us > 0) {
	# keep the tolerable latency in view
	vmax = tolerable_us
	do for [i=1:words(files)] {
		stats word(files, i) using 1 nooutput
		if (STATS_max > vmax) { vmax = STATS_max }
	}
	set xrange [*:vmax * 1.2]
	set arrow from first tolerable_us, graph 0 to first tolerable_us, graph 1 nohead ls 9 front
	set label 'tolerable' at first tolerable_us, graph 0.95 left offset 0.5,0 tc rgb '#ff7f0e' front
}
plot for [i=1:words(files)] word(files, i) using 1:2 with steps ls i title word(labels, i)
