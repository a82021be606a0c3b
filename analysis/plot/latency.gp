# SPDX-License-Identifier: GPL-2.0-or-later
# Doorbell latency over the run (the tuning guide's figures 71 and 72).
# Variables: files (space-separated data files: time_s,latency_ns), labels (same count,
# words), tolerable_us (0: none), logscale (0/1), summary_text (the verdict in one line,
# latency-report's regime.summary, may be empty; summary_more: its continuation on a third
# line), plus those of common.gp.
load plotdir.'/common.gp'
set xlabel 'time in run (s)'
set ylabel 'doorbell latency (µs)'
if (logscale) { set logscale y }
if (tolerable_us > 0) {
	# keep the tolerable latency in view
	vmax = tolerable_us
	do for [i=1:words(files)] {
		stats word(files, i) using ($2/1000.0) nooutput
		if (STATS_max > vmax) { vmax = STATS_max }
	}
	set yrange [*:vmax * 1.2]
	set arrow from graph 0, first tolerable_us to graph 1, first tolerable_us nohead ls 9 front
	set label sprintf('tolerable %.1f µs', tolerable_us) at graph 0.99, first tolerable_us right offset 0,0.7 tc rgb '#ff7f0e' front
}
if (exists('summary_text') && strlen(summary_text) > 0) {
	# more lines of the title, above the graph
	more = exists('summary_more') && strlen(summary_more) > 0 ? "\n".summary_more : ""
	set title plot_title."\n".summary_text.more noenhanced
}
plot for [i=1:words(files)] word(files, i) using 1:($2/1000.0) with points ls i title word(labels, i)
