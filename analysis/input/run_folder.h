/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The parts of a dgrdma-capture run folder (docs/analysis.md, "Run
 * folders"): which capture and which trace latency-report reads, from
 * run.json's "capture.path" and "trace.path" (relative to the folder), else
 * the names dgrdma-capture gives them. A part that run.json says was recorded,
 * or that is there under its name, must be readable: otherwise the folder is
 * refused with the part and its path named. A part that was not recorded is
 * left out with a line saying why, never silently.
 */
#ifndef DGR_ANALYSIS_RUN_FOLDER_H
#define DGR_ANALYSIS_RUN_FOLDER_H

#include <limits.h>
#include <stdbool.h>

#include "run_info.h"

#define RUN_FOLDER_WHY_LEN 160

/* One part of a run folder: read from path, or left out for the reason why. */
struct run_folder_part {
	bool read;
	char path[PATH_MAX];
	char why[RUN_FOLDER_WHY_LEN]; /* when not read: why, for the report */
	/*
	 * The capture only: a folder of capture files read as one capture
	 * (dgrdma-capture --ring-files: dumpcap's ring, files PREFIX_NNNNN_DATE).
	 * ring_first: the lowest file number kept (0: no ring names); above 1, the
	 * ring dropped the run's start.
	 */
	bool set;
	unsigned int set_files;
	unsigned long ring_first, ring_last;
	bool start_dropped;
};

struct run_folder {
	const char *dir;
	bool has_run_json;
	struct run_folder_part capture, trace;
};

/*
 * Whether folder dir is a run folder: it holds a run.json, a capture.pcapng,
 * a capture.pcap or a trace entry (any kind of entry: a broken one is still
 * the part, to be refused by run_folder_resolve). Otherwise it is taken as a
 * trace folder.
 */
bool run_folder_is(const char *dir);

/*
 * Decides the parts of the run folder dir into *rf. ri: its run.json's facts
 * (run_info_read), or NULL when it has none; then, as for a run.json without
 * the "capture" or "trace" key, the parts are the ones under dgrdma-capture's
 * names (capture.pcapng, else capture.pcap; trace, else the folder itself when
 * a CTF metadata file lies below it). Returns 0, or -DGR_E_INVAL / -DGR_E_SYS
 * with errbuf (DGR_ERRBUF_SIZE) naming the part and its path and saying why
 * it cannot be read: missing, a folder or a file where the other is wanted,
 * empty, a symbolic link loop, no permission, not a capture, no CTF metadata.
 * A capture part that is a folder is a set of capture files (a ring): it must
 * hold at least one, and rf->capture says how many and which ring numbers.
 */
int run_folder_resolve(const char *dir, const struct run_info *ri, struct run_folder *rf,
		       char *errbuf);

#endif
