# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Sourced by the analysis benchmarks that stream a long run through a pipe (bench_memory.sh,
# bench_plot.sh).

# measure CMD...: runs CMD (standard input passed on) and prints "maxrss_kB cpu_s wall_s status"
# on standard error (the peak of the largest process CMD waited for, the CPU of all of them)
measure() {
	python3 -c '
import resource, subprocess, sys, time
t = time.monotonic()
rc = subprocess.run(sys.argv[1:]).returncode
wall = time.monotonic() - t
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(u.ru_maxrss, "%.3f" % (u.ru_utime + u.ru_stime), "%.3f" % wall, rc, file=sys.stderr)
' "$@"
}
