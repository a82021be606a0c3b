/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dgrdma-plot's option table (stack/cli/opts.h). dgrdma-plot is a bash script: it reads its
 * command line through dgrdma-opts (stack/tools/dgrdma-opts.c), which parses it with this
 * table and hands the script the checked options (docs/cli.md).
 */
#ifndef DGR_PLOT_OPTS_H
#define DGR_PLOT_OPTS_H

#include "opts.h"

/* The option ids of the table (getopt's val): what dgrdma-opts reports is the row's name. */
enum {
	PLOT_OPT_OUTPUT = 'o',
	PLOT_OPT_HELP = 'h',
	PLOT_OPT_KIND = 256,
	PLOT_OPT_MAX_POINTS,
	PLOT_OPT_STALLS,
	PLOT_OPT_STALL_CAUSE,
	PLOT_OPT_FORMAT,
	PLOT_OPT_LOG,
	PLOT_OPT_LINEAR,
	PLOT_OPT_SIZE,
	PLOT_OPT_TOLERABLE_US,
	PLOT_OPT_PERF,
	PLOT_OPT_TITLE,
	PLOT_OPT_INTERVAL,
	PLOT_OPT_LATENCY_REPORT,
	PLOT_OPT_LIVE,
	PLOT_OPT_LIVE_INTERVAL,
	PLOT_OPT_LIVE_IF,
	PLOT_OPT_LIVE_FOLLOW,
	PLOT_OPT_VERSION,
	PLOT_OPT_LIST_OPTIONS,
};

/* dgrdma-plot's options, in the order of its --help. */
extern const struct dgr_opt_table dgr_plot_options;

#endif
