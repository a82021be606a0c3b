// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dgrdma-clocks: reads CLOCK_MONOTONIC and CLOCK_REALTIME back to back and prints the pair,
 * so that an LTTng trace (monotonic clock) and a packet capture (realtime) can be placed on
 * one time axis. dgrdma-capture stores its output in run.json (docs/tracepoints.md).
 *
 * Method: monotonic, realtime, monotonic; the realtime reading is paired with the midpoint
 * of the two monotonic readings and the half-gap is the uncertainty. The tightest of
 * several tries is kept.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <dgrdma/clock.h>
#include <dgrdma/wire.h>

#include "cli.h"
#include "opts.h"
#include "print.h"
#include "dgrdma-version.h"

#define TRIES	 16 /* more than the library's: run once per run, at its start and end */
#define NS_PER_S UINT64_C(1000000000)

/*
 * The pair as text, or as JSON with seconds and nanoseconds apart: every value stays below
 * 2^53, so any JSON reader (jq and its doubles included) keeps the nanoseconds exact.
 */
static void print_pair(const struct dgr_clock_pair *pair, bool json)
{
	time_t secs = (time_t)(pair->realtime_ns / NS_PER_S);
	char iso[32] = "", stamp[48];
	struct dgr_pr p;
	struct tm tm;

	if (gmtime_r(&secs, &tm)) {
		strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%S", &tm);
	}
	snprintf(stamp, sizeof(stamp), "%s.%09" PRIu64 "Z", iso, pair->realtime_ns % NS_PER_S);
	dgr_pr_begin(&p, stdout, DGR_PR_TEXT_FREE | (json ? DGR_PR_JSON : 0));
	dgr_pr_u64(&p, "monotonic_sec", NULL, pair->monotonic_ns / NS_PER_S);
	dgr_pr_u64(&p, "monotonic_nsec", NULL, pair->monotonic_ns % NS_PER_S);
	dgr_pr_u64(&p, "realtime_sec", NULL, pair->realtime_ns / NS_PER_S);
	dgr_pr_u64(&p, "realtime_nsec", NULL, pair->realtime_ns % NS_PER_S);
	dgr_pr_u64(&p, "uncertainty_ns", NULL, pair->uncertainty_ns);
	dgr_pr_str(&p, "realtime_iso8601", NULL, stamp);
	dgr_pr_text(
	    &p, "monotonic_ns %" PRIu64 "\nrealtime_ns %" PRIu64 "\nuncertainty_ns %" PRIu64 "\n",
	    pair->monotonic_ns, pair->realtime_ns, pair->uncertainty_ns);
	dgr_pr_end(&p);
}

enum { OPT_JSON = 0x100, OPT_VERSION, OPT_LIST_OPTIONS };

/* dgrdma-clocks' options: the parser, --help (the rows' text in order) and --list-options. */
static const struct dgr_opt clocks_opts[] = {
	{ .type = DGR_OPT_TEXT,
	  .usage = "usage: dgrdma-clocks [--json]\n"
		   "  Prints CLOCK_MONOTONIC and CLOCK_REALTIME read back to back (ns), and the\n"
		   "  uncertainty of the pairing (ns).\n" },
	{ .id = OPT_JSON,
	  .name = "json",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --json   one JSON object: monotonic_sec, monotonic_nsec, realtime_sec,\n"
		   "           realtime_nsec, uncertainty_ns, realtime_iso8601\n",
	  .man = "one JSON object:\n"
		 ".BR monotonic_sec ,\n"
		 ".BR monotonic_nsec ,\n"
		 ".BR realtime_sec ,\n"
		 ".BR realtime_nsec ,\n"
		 ".B uncertainty_ns\n"
		 "and\n"
		 ".B realtime_iso8601\n"
		 "(seconds and nanoseconds apart, so that every number stays exact in a JSON "
		 "double).\n" },
	{ .id = 'h',
	  .name = "help",
	  .short_name = 'h',
	  .type = DGR_OPT_FLAG,
	  .usage = "  -h, --help  this text\n",
	  .man = "the usage text.\n" },
	{ .id = OPT_VERSION,
	  .name = "version",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --version   the version of dgrdma-tools\n",
	  .man = "the version of dgrdma-tools.\n" },
	{ .id = OPT_LIST_OPTIONS,
	  .name = "list-options",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --list-options  every option with its type, one a line (with --json:\n"
		   "                  one JSON object)\n",
	  .man = "every option with the type of its value, one a line (tab-separated: name, type,\n"
		 "subcommands, accepted words); with\n"
		 ".BR \\-\\-json ,\n"
		 "one JSON object; with\n"
		 ".BR \\-\\-man ,\n"
		 "this OPTIONS section in roff (docs/cli.md). The bash completion is made from "
		 "it.\n" },
};

static const struct dgr_opt_table clocks_options = {
	.tool = "dgrdma-clocks",
	.opts = clocks_opts,
	.nopts = sizeof(clocks_opts) / sizeof(clocks_opts[0]),
};

/* ctx of the table's handler */
struct clocks_cli {
	bool json;
	int stop; /* 'h', OPT_VERSION or OPT_LIST_OPTIONS: main prints it */
};

/* The table's handler (opts.h). Returns 0, or DGR_OPTS_STOP for what main prints. */
static int clocks_option(void *ctx, const struct dgr_opt *o, const char *given, const char *arg,
			 const union dgr_opt_value *v, char *errbuf)
{
	struct clocks_cli *c = ctx;

	(void)given;
	(void)arg;
	(void)v;
	(void)errbuf;
	if (o->id == OPT_JSON) {
		c->json = true;
		return 0;
	}
	c->stop = o->id;
	return DGR_OPTS_STOP;
}

int main(int argc, char **argv)
{
	char errbuf[DGR_ERRBUF_SIZE] = "";
	struct dgr_clock_pair pair;
	struct clocks_cli c = { 0 };
	int rc;

	rc = dgr_opts_parse(&clocks_options, argc, argv, -1,
			    DGR_OPTS_NO_OPERANDS | DGR_OPTS_OWN_MESSAGES, clocks_option, &c, NULL,
			    errbuf);
	if (rc < 0) {
		fprintf(stderr, "dgrdma-clocks: %s\n", errbuf);
		return DGR_EXIT_USAGE;
	}
	if (rc == DGR_OPTS_STOP) {
		if (c.stop == 'h') {
			dgr_opts_usage(&clocks_options, stdout);
		} else if (c.stop == OPT_VERSION) {
			printf("dgrdma-clocks (dgrdma-tools) %s\n", DGR_VERSION);
		} else {
			dgr_opts_list_argv(&clocks_options, argc, argv, stdout);
		}
		return DGR_EXIT_OK;
	}
	dgr_clock_pair_read(&pair, TRIES);
	print_pair(&pair, c.json);
	return DGR_EXIT_OK;
}
