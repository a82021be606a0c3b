/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel trace input: the CTF that `perf data convert --to-ctf` writes from
 * a `perf record -a -k CLOCK_MONOTONIC` of the sched, irq, block and
 * writeback tracepoints, or that LTTng's kernel tracer (lttng-modules)
 * writes of the same events with the tid context, read with libbabeltrace2
 * into kernel_sched.h. docs/analysis.md, "Why a stall happened".
 */
#ifndef DGR_ANALYSIS_KERNEL_INPUT_H
#define DGR_ANALYSIS_KERNEL_INPUT_H

#include <stdint.h>

#include "kernel_sched.h"

/* What a kernel event's time counts from, before the caller's offset. */
enum kin_axis {
	/* babeltrace2's ns from origin: the epoch where the clock class says so */
	KIN_NS_FROM_ORIGIN,
	/*
	 * the clock's reading (CLOCK_MONOTONIC for perf -k and LTTng), whatever
	 * offset its class holds: the UST trace's origin then puts it on that axis
	 */
	KIN_CLOCK_READING,
};

/*
 * Reads the kernel trace in the folder path (the folder holding its
 * `metadata`) into k, every time (on axis) plus offset_ns (the offset puts
 * it on the UST trace's or the capture's axis). The tracer is
 * told by the trace's environment (tracer_name "perf" or "lttng-modules"),
 * else by the event names (perf's hold "subsystem:").
 * Returns 0, or a negative DGR_E_* code with errbuf (one line naming the
 * trace) filled: -DGR_E_INVAL for a folder without a CTF trace, a trace
 * babeltrace2 refuses or one without any sched_switch event (not a kernel
 * trace of the scheduler), -DGR_E_NOMEM.
 */
int kernel_input_read(const char *path, int64_t offset_ns, enum kin_axis axis,
		      struct kernel_sched *k, char *errbuf);

#endif
