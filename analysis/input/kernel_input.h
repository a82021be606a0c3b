/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel trace input: the CTF that `perf data convert --to-ctf` writes from
 * a `perf record -a -k CLOCK_MONOTONIC` of the sched, irq, block and
 * writeback tracepoints, read with libbabeltrace2 into kernel_sched.h.
 * docs/analysis.md, "Why a stall happened".
 */
#ifndef DGR_ANALYSIS_KERNEL_INPUT_H
#define DGR_ANALYSIS_KERNEL_INPUT_H

#include <stdint.h>

#include "kernel_sched.h"

/*
 * Reads the kernel trace in the folder path (the folder holding its
 * `metadata`) into k, every time plus offset_ns (perf's CTF clock counts
 * CLOCK_MONOTONIC from 0; the offset puts it on the UST trace's axis).
 * Returns 0, or a negative DGR_E_* code with errbuf (one line naming the
 * trace) filled: -DGR_E_INVAL for a folder without a CTF trace, a trace
 * babeltrace2 refuses or one without any sched_switch event (not a kernel
 * trace of the scheduler), -DGR_E_NOMEM.
 */
int kernel_input_read(const char *path, int64_t offset_ns, struct kernel_sched *k, char *errbuf);

#endif
