/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dgrdma-plot's options: the rows of its --help, its --list-options, its man page's OPTIONS
 * and its bash completion. The script reads them through dgrdma-opts (docs/cli.md); what a
 * range cannot say (--kind's words, --size's WxH, an empty name) the script checks.
 */
#include "plot_opts.h"

static const struct dgr_opt plot_opts[] = {
	{ .usage =
	      "usage: dgrdma-plot [options] INPUT...\n"
	      "       dgrdma-plot --live [options] RUN-FOLDER|URL...\n"
	      "  INPUT: a folder of CSVs from `latency-report --csv DIR` (the only INPUT then), a\n"
	      "         dgrdma-capture run folder, captures (pcap/pcapng) and a trace folder\n"
	      "         (latency-report is run on them first, reading them as one run).\n"
	      "  RUN-FOLDER, URL: a running dgrdma-capture --live's run folder, or an LTTng live\n"
	      "         session's URL, as latency-report --live takes them (up to 8).\n"
	      "options:\n" },
	{ .id = PLOT_OPT_OUTPUT,
	  .name = "output",
	  .aliases = { "out" },
	  .short_name = 'o',
	  .type = DGR_OPT_STRING,
	  .metavar = "DIR",
	  .usage = "  -o, --output DIR     where the plots go (default ./plots; the old name --out "
		   "is an\n"
		   "                       alias until 0.2)\n",
	  .man = "Where the plots go (default ./plots). The old name\n"
		 ".B \\-\\-out\n"
		 "is an alias until 0.2.\n" },
	{ .id = PLOT_OPT_KIND,
	  .name = "kind",
	  .type = DGR_OPT_STRING,
	  .metavar = "LIST",
	  .usage = "  --kind LIST          comma-separated: "
		   "latency,drops,histogram,ccdf,rate,throughput,lanes\n"
		   "                       or all (default all; kinds without data are skipped "
		   "with a note;\n"
		   "                       lanes: the worst stalls, one lane per CPU showing who "
		   "ran, from\n"
		   "                       latency-report's stall causes with a kernel trace)\n",
	  .man = "Comma-separated kinds: latency, drops, histogram, ccdf, rate, throughput, lanes, "
		 "or all\n"
		 "(default). Kinds without data are skipped with a note (lanes needs "
		 "latency-report's stall\n"
		 "causes with a kernel trace in the report).\n" },
	{ .id = PLOT_OPT_MAX_POINTS,
	  .name = "max-points",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 1,
	  .max = 100000000,
	  .usage =
	      "  --max-points N       a series of more than N doorbells makes the latency plot "
	      "draw every\n"
	      "                       series per pixel column (min-max band, p99, p50: the "
	      "columns of\n"
	      "                       latency-report --plot-columns), and the histogram and "
	      "CCDF come from\n"
	      "                       its buckets; 1..100000000 (default 100000)\n",
	  .man = "A series of more than N doorbells makes the latency plot draw every series per "
		 "pixel column\n"
		 "(min\\-max band, p99, p50, from latency-report's \\-\\-plot-columns), and the "
		 "histogram and\n"
		 "CCDF come from its buckets; 1..100000000 (default 100000).\n" },
	{ .id = PLOT_OPT_STALLS,
	  .name = "stalls",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 1,
	  .max = 5,
	  .usage =
	      "  --stalls N           the worst stalls the lanes plot draws, 1..5 (default 3)\n",
	  .man = "The worst stalls the lanes plot draws, 1..5 (default 3; latency-report gives the "
		 "lanes of\n"
		 "the worst 5, and of each cause's worst stall).\n" },
	{ .id = PLOT_OPT_STALL_CAUSE,
	  .name = "stall-cause",
	  .type = DGR_OPT_CHOICE,
	  .metavar = "CAUSE",
	  .values = "stopped|higher-priority-task|rt-throttled|writeback|other-task|softirq|irq|"
		    "late-wakeup|blocked|own-work",
	  .usage = "  --stall-cause CAUSE  the lanes plot draws the worst stalls of that cause "
		   "only: stopped,\n"
		   "                       higher-priority-task, rt-throttled, writeback, "
		   "other-task, softirq,\n"
		   "                       irq, late-wakeup, blocked or own-work (latency-report "
		   "keeps the lanes\n"
		   "                       of each cause's worst stall)\n",
	  .man = "The lanes plot draws the worst stalls of that cause only (stopped, "
		 "higher-priority-task,\n"
		 "rt-throttled, writeback, other-task, softirq, irq, late-wakeup, blocked or "
		 "own-work): a cause\n"
		 "whose stalls are not among the worst 5 still gets its worst stall drawn.\n" },
	{ .id = PLOT_OPT_FORMAT,
	  .name = "format",
	  .type = DGR_OPT_CHOICE,
	  .metavar = "FMT",
	  .values = "png|svg|both",
	  .usage = "  --format FMT         png, svg or both (default both; PNG via pngcairo)\n",
	  .man = "Output formats: png, svg or both (default both; PNG through pngcairo).\n" },
	{ .id = PLOT_OPT_LOG,
	  .name = "log",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --log                logarithmic latency axis on the latency plot and count "
		   "axis on the\n"
		   "                       histogram (default: when the values span more than two "
		   "decades)\n",
	  .man = "Logarithmic latency axis (latency plot) and count axis (histogram). Without\n"
		 ".B \\-\\-log\n"
		 "or\n"
		 ".BR \\-\\-linear ,\n"
		 "an axis is logarithmic when its values span more than two decades.\n" },
	{ .id = PLOT_OPT_LINEAR,
	  .name = "linear",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --linear             linear axes there, whatever the values span\n",
	  .man = "Linear axes there, whatever the values span.\n" },
	{ .id = PLOT_OPT_SIZE,
	  .name = "size",
	  .type = DGR_OPT_STRING,
	  .metavar = "WxH",
	  .usage = "  --size WxH           image size in pixels, 640..7680 x 400..4320 (default "
		   "1200x700)\n",
	  .man = "Image size in pixels, 640..7680 by 400..4320 (default 1200x700; a smaller image "
		 "has no room for every label). Title lines are wrapped to\n"
		 "the width.\n" },
	{ .id = PLOT_OPT_TOLERABLE_US,
	  .name = "tolerable-us",
	  .type = DGR_OPT_DECIMAL,
	  .metavar = "US",
	  .lo = 0,
	  .hi = 1e9,
	  .usage = "  --tolerable-us US    draw the tolerable latency, 0..1e9 (default: from "
		   "latency-report's\n"
		   "                       report)\n",
	  .man = "The tolerable latency line, 0..1e9 microseconds (default: from latency-report's "
		 "report;\n"
		 "with\n"
		 ".BR \\-\\-live ,\n"
		 "latency-report takes 1..1e9).\n" },
	{ .id = PLOT_OPT_PERF,
	  .name = "perf",
	  .type = DGR_OPT_STRING,
	  .metavar = "CSV",
	  .usage = "  --perf CSV           a `dgrdma-host perf` CSV for throughput vs buffer size "
		   "(repeatable;\n"
		   "                       columns found by name: buffer_size, buffer_bytes or "
		   "message_size\n"
		   "                       (dgrdma-host perf --csv), and throughput_MBps, MBps or "
		   "mbyte_s;\n"
		   "                       rows of --direction both also draw tx_mbyte_s and "
		   "rx_mbyte_s)\n",
	  .man = "A dgrdma-host perf CSV (columns buffer_size or buffer_bytes, throughput_MBps or "
		 "MBps;\n"
		 "rows of \\fBperf \\-\\-direction both\\fR add a series per direction from "
		 "tx_mbyte_s and rx_mbyte_s);\n"
		 "repeatable, one series each (three for a both-directions CSV).\n" },
	{ .id = PLOT_OPT_TITLE,
	  .name = "title",
	  .type = DGR_OPT_STRING,
	  .metavar = "TEXT",
	  .usage =
	      "  --title TEXT         prefix of every plot title (default: the input's name)\n",
	  .man = "Prefix of the plot titles (default: the input's name).\n" },
	{ .id = PLOT_OPT_INTERVAL,
	  .name = "interval",
	  .type = DGR_OPT_DECIMAL,
	  .metavar = "MS",
	  .lo = 1,
	  .hi = 60000,
	  .usage = "  --interval MS        interval of the per-interval series when latency-report "
		   "is run,\n"
		   "                       1..60000 (default 10 ms)\n",
	  .man = "Interval of the per-interval series when latency-report is run, 1..60000 ms, as\n"
		 "latency-report's\n"
		 ".B \\-\\-interval\n"
		 "takes it (default 10).\n" },
	{ .id = PLOT_OPT_LATENCY_REPORT,
	  .name = "latency-report",
	  .type = DGR_OPT_STRING,
	  .metavar = "PATH",
	  .usage = "  --latency-report P   the latency-report to run (default: beside this script, "
		   "or in PATH)\n",
	  .man = "The latency-report to run (default: beside this script, or in PATH).\n" },
	{ .id = PLOT_OPT_LIVE,
	  .name = "live",
	  .type = DGR_OPT_FLAG,
	  .usage =
	      "  --live               follow the live sessions URL... with `latency-report "
	      "--live --json`\n"
	      "                       and redraw DIR/latency-live.png (and/or .svg): each "
	      "interval's\n"
	      "                       in-host doorbell latency (p50, p99, max; and on the wire "
	      "with\n"
	      "                       --live-if or --live-follow) and the verdict so far, every "
	      "interval; each image is\n"
	      "                       written to a temporary file and renamed, so that a viewer "
	      "never sees\n"
	      "                       a half-written one; the final plot when the sessions end "
	      "or on\n"
	      "                       Ctrl-C (or SIGTERM); the exit status is latency-report's\n",
	  .man =
	      "Follow the live sessions URL... (as\n"
	      ".B latency-report \\-\\-live\n"
	      "takes them, up to 8; several are drawn together, as latency-report reports them) "
	      "and redraw\n"
	      "latency-live.png/.svg every interval (see above). Not with \\-\\-kind, \\-\\-perf "
	      "or\n"
	      "\\-\\-interval. Needs jq.\n" },
	{ .id = PLOT_OPT_LIVE_INTERVAL,
	  .name = "live-interval",
	  .type = DGR_OPT_DECIMAL,
	  .metavar = "S",
	  .lo = 0.1,
	  .hi = 3600,
	  .usage = "  --live-interval S    with --live: seconds between redraws (latency-report's\n"
		   "                       --live-interval), 0.1..3600 (default 1)\n",
	  .man =
	      "With \\-\\-live: seconds between redraws (latency-report's \\-\\-live\\-interval), "
	      "0.1..3600\n"
	      "(default 1).\n" },
	{ .id = PLOT_OPT_LIVE_IF,
	  .name = "live-if",
	  .type = DGR_OPT_STRING,
	  .metavar = "IFACE",
	  .usage = "  --live-if IFACE      with --live: also the latency on the wire, captured on "
		   "IFACE\n"
		   "                       (latency-report's --live-if; needs CAP_NET_RAW; with "
		   "several URLs\n"
		   "                       once per URL, in the same order: the hosts' wire "
		   "together)\n",
	  .man = "With \\-\\-live: also the doorbell latency on the wire, captured on IFACE "
		 "(latency-report's\n"
		 "\\-\\-live\\-if; needs CAP_NET_RAW and CAP_NET_ADMIN; with several URLs once per "
		 "URL, in the\n"
		 "same order, the hosts' wire drawn together).\n" },
	{ .id = PLOT_OPT_LIVE_FOLLOW,
	  .name = "live-follow",
	  .type = DGR_OPT_STRING,
	  .metavar = "FILE",
	  .usage = "  --live-follow FILE   with --live: also the latency on the wire, from the "
		   "capture FILE\n"
		   "                       read as it is written (latency-report's --live-follow; "
		   "with several\n"
		   "                       URLs once per URL, in the same order: the hosts' wire "
		   "together)\n",
	  .man =
	      "With \\-\\-live: also the doorbell latency on the wire, from the capture FILE read "
	      "as it is\n"
	      "written, such as the run folder's capture.pcapng (latency-report's "
	      "\\-\\-live\\-follow; with\n"
	      "several URLs once per URL, in the same order, the hosts' wire drawn together).\n" },
	{ .id = PLOT_OPT_HELP,
	  .name = "help",
	  .short_name = 'h',
	  .type = DGR_OPT_FLAG,
	  .usage = "  -h, --help           this text\n",
	  .man = "The usage text: every option with its range.\n" },
	{ .id = PLOT_OPT_VERSION,
	  .name = "version",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --version            the version of dgrdma-tools\n",
	  .man = "The version of dgrdma-tools.\n" },
	{ .id = PLOT_OPT_LIST_OPTIONS,
	  .name = "list-options",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --list-options       every option with its type, one a line (with --json: "
		   "one JSON\n"
		   "                       object; with --man: the man page's OPTIONS)\n",
	  .man = "Every option with its old names, the type of its value and its range, one\n"
		 "a line (tab-separated: name, type, commands, accepted words); with\n"
		 ".BR \\-\\-json ,\n"
		 "one JSON object; with\n"
		 ".BR \\-\\-man ,\n"
		 "this OPTIONS section in roff (docs/cli.md). The bash completion is made from "
		 "it.\n" },
	{ .usage =
	      "A value follows its option (--kind latency) or is joined with '=' "
	      "(--kind=latency).\n"
	      "Exit status (docs/cli.md): 0 plots written; 2 bad usage or an input that cannot "
	      "be\n"
	      "read; 3 the run failed (latency-report says so: the plots are drawn), gnuplot "
	      "or\n"
	      "latency-report failed, no output folder. With --live, latency-report --live's "
	      "status\n"
	      "(0; 2 a session that cannot be followed; 3 a failed run), or 3 when gnuplot "
	      "fails.\n" },
};

/* See plot_opts.h. */
const struct dgr_opt_table dgr_plot_options = {
	.tool = "dgrdma-plot",
	.opts = plot_opts,
	.nopts = sizeof(plot_opts) / sizeof(plot_opts[0]),
	.man_tail = ".PP\n"
		    "Values follow their option or are joined with\n"
		    ".B =\n"
		    ".RB ( \\-\\-kind=latency,drops );\n"
		    ".B \\-\\-\n"
		    "ends the options (an INPUT that starts with a dash).\n",
};
