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
#include <stdio.h>

#include <dgrdma/wire.h>

#include "cli.h"

#include "latency-report.h"

int main(int argc, char **argv)
{
	struct options o;
	char errbuf[DGR_ERRBUF_SIZE] = "";
	int rc;

	lr_options_init(&o);
	rc = lr_parse_args(argc, argv, &o, errbuf);
	if (rc == LR_ARGS_DONE) {
		return DGR_EXIT_OK;
	}
	if (rc < 0) {
		/* errbuf names the argument; the whole usage would push it away */
		fprintf(stderr, "latency-report: %s\n", errbuf);
		return DGR_EXIT_USAGE;
	}
	if (o.live) {
		return lr_live(&o);
	}
	return lr_offline(&o, argc, argv);
}
