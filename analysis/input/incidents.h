/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A flight recorder's folder (dgrdma-capture --flight-recorder): its
 * incident-NNN run folders, summarised one line each and then reported one
 * by one (docs/analysis.md, "Incidents").
 */
#ifndef DGR_ANALYSIS_INCIDENTS_H
#define DGR_ANALYSIS_INCIDENTS_H

#include <stdbool.h>

/*
 * Whether folder dir is a flight recorder's: it holds at least one incident-NNN
 * folder (NNN: 3 or more digits), or the whole run's record (record/, a trace).
 */
bool incidents_dir_is(const char *dir);

/*
 * Reports every incident of dir in the order of their numbers: one line each
 * (the trigger, the verdict in short, any loss), then each incident's report,
 * by this same program (self, e.g. /proc/self/exe) run on the incident's
 * folder with the command line argv (argc words), in which argv[input] is
 * dir; json: one JSON document with the summaries and each report. The whole
 * run's record (dir/record, when there) is reported first, with argv as it is
 * (its --csv: the drops over the whole run); the incidents' reports without
 * --csv, --plot-columns and --doorbell-rows, found in argv by their values
 * (csv_values, n_csv_values: pointers into argv, as the parser read them). csv_dir (argv's --csv,
 * or NULL): also write there incidents.csv, each incident's number, time on the whole run's axis
 * and trigger. Returns the exit status: the highest of the reports' (0 when none), or
 * DGR_EXIT_USAGE / DGR_EXIT_FAILED with a message on stderr when dir cannot be listed, a report
 * cannot be run or read, or incidents.csv cannot be written.
 */
int incidents_report(const char *dir, const char *self, int argc, char **argv, int input,
		     const char *const *csv_values, unsigned int n_csv_values, bool json,
		     const char *csv_dir);

#endif
