# SPDX-License-Identifier: GPL-2.0-or-later
# Drop rate over the run: percentage of samples dropped per interval.
# files: "time_s,percent"; labels: words; ylabel_text: what the percentage is of.
load plotdir.'/common.gp'
set xlabel 'time in run (s)'
set ylabel ylabel_text
set yrange [0:*]
set style fill solid 0.6 noborder
plot for [i=1:words(files)] word(files, i) using 1:2 with steps ls i title word(labels, i)
