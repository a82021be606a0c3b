/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Trace input: reads an LTTng (CTF) trace with libbabeltrace2's C API
 * (src.ctf.fs -> flt.utils.muxer -> a simple sink) and feeds every event,
 * in time order, to the in-host analysis. src.ctf.fs needs the folders that
 * hold a `metadata` file; they are searched for below the given folder.
 */
#ifndef DGR_ANALYSIS_CTF_INPUT_H
#define DGR_ANALYSIS_CTF_INPUT_H

#include <stdbool.h>

#include "host_events.h"

/* True when path is a folder with a CTF `metadata` file somewhere below it. */
bool ctf_input_is_trace(const char *path);

/*
 * Reads every trace below path into h. Event times are nanoseconds from the
 * clock's origin (LTTng's monotonic clock class carries the offset that puts
 * it on the real-time axis). Returns 0, or a negative DGR_E_* code with
 * errbuf filled.
 */
int ctf_input_read(const char *path, struct host_analysis *h, char *errbuf);

#endif
