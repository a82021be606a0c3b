/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A flight recorder's folder (dgrdma-capture --flight-recorder): its
 * incident-NNN run folders, summarised one line each and then reported one
 * by one (docs/analysis.md, "Incidents").
 */
#ifndef DGR_ANALYSIS_INCIDENTS_H
#define DGR_ANALYSIS_INCIDENTS_H

#include <stdbool.h>

/* Whether folder dir holds at least one incident-NNN folder (NNN: 3 or more digits). */
bool incidents_dir_is(const char *dir);

/*
 * Reports every incident of dir in the order of their numbers: one line each
 * (the trigger, the verdict in short, any loss), then each incident's report,
 * by this same program (self, e.g. /proc/self/exe) run on the incident's
 * folder with the command line argv (argc words), in which argv[input] is
 * dir; json: one JSON document with the summaries and each report. Returns
 * the exit status: the highest of the incidents' reports (0 when none), or
 * DGR_EXIT_USAGE / DGR_EXIT_FAILED with a message on stderr when dir cannot be
 * listed or a report cannot be run or read.
 */
int incidents_report(const char *dir, const char *self, int argc, char **argv, int input,
		     bool json);

#endif
