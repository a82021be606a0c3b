/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Trace input: reads an LTTng (CTF) trace with libbabeltrace2's C API
 * (src.ctf.fs -> flt.utils.muxer -> a simple sink) and feeds every event,
 * in time order, to the in-host analysis. src.ctf.fs needs the folders that
 * hold a `metadata` file; they are searched for below the given folder. A
 * damaged trace is refused with one line, within seconds (ctf_input.c).
 */
#ifndef DGR_ANALYSIS_CTF_INPUT_H
#define DGR_ANALYSIS_CTF_INPUT_H

#include <stdbool.h>

#include "host_events.h"

/* True when path is a folder with a CTF `metadata` file somewhere below it. */
bool ctf_input_is_trace(const char *path);

/* A trace read that yields nothing for this long is stopped (seconds). */
#define CTF_STALL_S 10

struct ctf_read_opts {
	bool verbose;	      /* show libbabeltrace2's own log lines (warnings) on stderr */
	unsigned int stall_s; /* 0: CTF_STALL_S */
};

/*
 * Reads every trace below path into h. The trace folders are checked first
 * (ctf_check.h); then a child process runs the babeltrace2 graph and sends the
 * events over a pipe, and is stopped when it sends nothing for the stall
 * limit. Event times are nanoseconds from the clock's origin (LTTng's
 * monotonic clock class carries the offset that puts it on the real-time
 * axis). Returns 0, or a negative DGR_E_* code with errbuf (one line naming
 * the trace) filled: -DGR_E_INVAL for a trace that is damaged or that
 * babeltrace2 refuses, -DGR_E_TIMEOUT for a stalled read, -DGR_E_SYS or
 * -DGR_E_NOMEM. Events read before a failure have been fed to h. opts may be
 * NULL.
 */
int ctf_input_read(const char *path, struct host_analysis *h, const struct ctf_read_opts *opts,
		   char *errbuf);

#endif
