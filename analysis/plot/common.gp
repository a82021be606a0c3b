# SPDX-License-Identifier: GPL-2.0-or-later
# Shared settings of dgrdma-plot's templates. Variables set by dgrdma-plot with -e:
#   term ('png' or 'svg'), outfile, plot_title
if (term eq 'png') {
	set terminal pngcairo size 1200,700 enhanced font 'DejaVu Sans,11'
} else {
	set terminal svg size 1200,700 enhanced font 'DejaVu Sans,11' background rgb 'white'
}
set output outfile
set title plot_title noenhanced
set grid xtics ytics mxtics mytics lc rgb '#dddddd'
set key top left box opaque
set datafile separator ','
set style line 1 lc rgb '#1f77b4' pt 7 ps 0.4 lw 1.5
set style line 2 lc rgb '#d62728' pt 7 ps 0.4 lw 1.5
set style line 3 lc rgb '#2ca02c' pt 7 ps 0.4 lw 1.5
set style line 4 lc rgb '#9467bd' pt 7 ps 0.4 lw 1.5
set style line 9 lc rgb '#ff7f0e' dt 2 lw 2
