# SPDX-License-Identifier: GPL-2.0-or-later
# Shared settings of dgrdma-plot's templates. Variables set by dgrdma-plot before loading one:
#   term ('png' or 'svg'), outfile, plot_title; optionally width and height (pixels, default
#   1200x700), title_margin (1: plot_title's lines get room above the graph) and run_end_s
#   (the run's end on the time axis, s; 0 or absent: unknown).
if (!exists('width')) { width = 1200 }
if (!exists('height')) { height = 700 }
if (term eq 'png') {
	set terminal pngcairo size width,height enhanced font 'DejaVu Sans,11'
} else {
	set terminal svg size width,height enhanced font 'DejaVu Sans,11' background rgb 'white'
}
set output outfile
if (exists('title_margin') && title_margin) {
	# room for every line of the title (gnuplot's own margin can be a line short)
	title_lines = 1
	do for [i=1:strlen(plot_title)] { if (plot_title[i:i] eq "\n") { title_lines = title_lines + 1 } }
	set tmargin title_lines + 1.5
}
set title plot_title noenhanced
set grid xtics ytics mxtics mytics lc rgb '#dddddd'
set key top left box opaque
set datafile separator ','
# a label on the data (the tolerable latency's) keeps a white ground
set style textbox opaque noborder
set style line 1 lc rgb '#1f77b4' pt 7 ps 0.4 lw 2 dt 1
set style line 2 lc rgb '#d62728' pt 7 ps 0.4 lw 2 dt 2
set style line 3 lc rgb '#2ca02c' pt 7 ps 0.4 lw 2 dt 3
set style line 4 lc rgb '#9467bd' pt 7 ps 0.4 lw 2 dt 4
set style line 9 lc rgb '#ff7f0e' dt 2 lw 2
# duration_text(US): a duration in the unit latency-report's text gives it ("55.706 ms")
duration_text(us) = us < 1 ? sprintf('%.0f ns', us * 1e3) : us < 1e3 ? sprintf('%.3f µs', us) : \
	us < 1e6 ? sprintf('%.3f ms', us / 1e3) : sprintf('%.3f s', us / 1e6)
# spans_decades(LO, HI): a logarithmic axis shows the data better (more than two decades)
spans_decades(lo, hi) = lo > 0 && hi / lo >= 100
