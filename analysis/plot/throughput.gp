# SPDX-License-Identifier: GPL-2.0-or-later
# Throughput vs buffer size (dgrdma-host perf CSVs). files: "buffer_bytes,MBps"; labels.
load plotdir.'/common.gp'
set xlabel 'buffer size (bytes, log scale)'
set ylabel 'throughput (MB/s)'
set logscale x 2
set yrange [0:*]
plot for [i=1:words(files)] word(files, i) using 1:2 with linespoints ls i title word(labels, i)
