// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-report: doorbell latency on the wire (from a capture) and in the
 * host (from an LTTng trace), joined on one axis for a run folder, with a
 * verdict (healthy, jitter-bound, throughput-bound) and the tuning guide's
 * mitigations. See docs/analysis.md and latency-report(1).
 *
 * main reads the command line (options.c) and runs the offline report
 * (offline.c) or the live view (live_view.c); it is the only place the
 * program ends.
 */
#include "cli.h"

#include "latency-report.h"

int main(int argc, char **argv)
{
	struct options o;
	int rc;

	lr_options_init(&o);
	rc = lr_parse_args(argc, argv, &o);
	if (rc == LR_ARGS_DONE) {
		return 0;
	}
	if (rc) {
		/* the message above names the argument; the whole usage would push it away */
		return DGR_EXIT_USAGE;
	}
	if (o.live) {
		return lr_live(&o);
	}
	return lr_offline(&o, argc, argv);
}
