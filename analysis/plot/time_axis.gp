# SPDX-License-Identifier: GPL-2.0-or-later
# The time axis of the plots over the run (loaded after common.gp): from the run's start (0,
# or the first point when earlier: counters read before the first frame) to its end
# (run_end_s, or the last point when later), not to the next tic.
if (!exists('run_end_s')) { run_end_s = 0 }
tmin = 0
tmax = run_end_s
do for [i=1:words(files)] {
	stats word(files, i) using 1 nooutput
	if (STATS_min < tmin) { tmin = STATS_min }
	if (STATS_max > tmax) { tmax = STATS_max }
}
if (tmax > tmin) { set xrange [tmin:tmax] }
