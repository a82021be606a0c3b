# SPDX-License-Identifier: GPL-2.0-or-later
# Data throughput over the run, per interval. files: "time_s,MBps"; labels.
load plotdir.'/common.gp'
load plotdir.'/time_axis.gp'
set xlabel 'time in run (s)'
set ylabel 'throughput (MB/s)'
set yrange [0:*]
plot for [i=1:words(files)] word(files, i) using 1:2 with steps ls i title word(labels, i)
