// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-report's command line: the options' defaults and its option table
 * (stack/cli/opts.h), from which come the parser, --help, --list-options and the
 * bash completion; each bad value is named with its accepted range (docs/cli.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/dcp.h>
#include <dgrdma/host.h>
#include <dgrdma/wire.h>

#include "cli.h"
#include "opts.h"

#include "csv_output.h"
#include "ctf_input.h"
#include "host_events.h"
#include "join.h"
#include "live.h"
#include "pcap_input.h"
#include "plot_columns.h"
#include "report.h"
#include "wire_analysis.h"
#include "latency-report.h"

#include "dgrdma-version.h"

/* The options' defaults, before lr_parse_args() (latency-report.h). */
void lr_options_init(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->interval_ns = 100000000ull;
	o->doorbell_rows = UINT64_MAX;
	o->live_interval_ns = 1000000000ull;
	o->join_window_ns = JOIN_WINDOW_NS;
	o->adv.root = "/";
	o->progress = true;
	o->wa.reasm_timeout_ns = 1000000000ull;
	o->wa.dcp_doorbells = true;
	/* the emulator's `doorbell` property (docs/fpga.md): worker 0, offset 0x18 */
	o->wa.dcp_bell_lo = o->wa.dcp_bell_hi = DGR_DCP_DOORBELL_ADDR;
}

enum {
	OPT_JSON = 0x100,
	OPT_BRIEF,
	OPT_CSV,
	OPT_PLOT_COLUMNS,
	OPT_DOORBELL_ROWS,
	OPT_INTERVAL,
	OPT_EXACT_LIMIT,
	OPT_LIVE,
	OPT_LIVE_INTERVAL,
	OPT_LIVE_IF,
	OPT_LIVE_FILTER,
	OPT_LIVE_PCAP,
	OPT_LIVE_FOLLOW,
	OPT_HOST,
	OPT_FPGA_COUNTERS,
	OPT_KERNEL_TRACE,
	OPT_UDP_PORT,
	OPT_PATH,
	OPT_DCP_DOORBELLS,
	OPT_REASM_TIMEOUT,
	OPT_HOST_BUFFERS,
	OPT_FPGA_BUFFERS,
	OPT_BUFFER_SIZE,
	OPT_SAMPLE_RATE,
	OPT_TOLERABLE_US,
	OPT_TRACE_OFFSET_NS,
	OPT_PID,
	OPT_JOIN_WINDOW_US,
	OPT_ADVISE,
	OPT_ADVISE_IF,
	OPT_ADVISE_ROOT,
	OPT_TRACE_STALL,
	OPT_VERBOSE,
	OPT_FAIL_ON,
	OPT_NO_PROGRESS,
	OPT_VERSION,
	OPT_LIST_OPTIONS,
};

#define ROW(i, n, t, mv, u, ...)                                                                   \
	{                                                                                          \
		.id = (i), .name = (n), .type = (t), .metavar = (mv), .usage = (u), __VA_ARGS__    \
	}
#define COUNT(i, n, mv, lo_, hi_, u, ...)                                                          \
	{                                                                                          \
		.id = (i), .name = (n), .type = DGR_OPT_COUNT, .metavar = (mv), .min = (lo_),      \
		.max = (hi_), .usage = (u), __VA_ARGS__                                            \
	}
#define DECIMAL(i, n, mv, lo_, hi_, u, ...)                                                        \
	{                                                                                          \
		.id = (i), .name = (n), .type = DGR_OPT_DECIMAL, .metavar = (mv), .lo = (lo_),     \
		.hi = (hi_), .usage = (u), __VA_ARGS__                                             \
	}

/* latency-report's options: the parser, --help (the rows' text in order) and --list-options. */
static const struct dgr_opt lr_opts[] = {
	{ .type = DGR_OPT_TEXT,
	  .usage =
	      "usage: latency-report [options] [--] INPUT...\n"
	      "       latency-report --live [options] RUN-FOLDER|URL...\n"
	      "  INPUT is a capture (pcap/pcapng, or gzip of one), an LTTng trace folder, or a\n"
	      "  dgrdma-capture run folder (trace/, capture.pcapng, run.json: both, joined on one\n"
	      "  axis; the parts are the ones run.json's capture.path and trace.path name).\n"
	      "  Several captures, or a folder of them (dumpcap's ring), are read as one, in the\n"
	      "  order of their first frame; - reads one from standard input. A flight\n"
	      "  recorder's folder (dgrdma-capture --flight-recorder: incident-NNN/ in it), the\n"
	      "  only INPUT: one line per incident, then each incident's report.\n"
	      "  RUN-FOLDER is a running dgrdma-capture --live's, URL an LTTng live session's\n"
	      "  (see --live; up to 8, followed together).\n"
	      "options:\n" },
	ROW(OPT_JSON, "json", DGR_OPT_FLAG, NULL,
	    "  --json                 write the report as JSON to standard output\n",
	    .man = "Write the report as JSON on standard output (contract in docs/analysis.md).\n"),
	ROW(OPT_BRIEF, "brief", DGR_OPT_FLAG, NULL,
	    "  --brief                only the summary: verdict, why, headroom, losses, run\n"
	    "                         status, findings, first actions (--json: its keys only)\n",
	    .man =
		"Only the summary: verdict, why, headroom, losses, run status, findings and first\n"
		"actions (with \\-\\-json: the \"summary\" object alone).\n"),
	ROW(OPT_CSV, "csv", DGR_OPT_STRING, "DIR",
	    "  --csv DIR              write doorbells.csv, intervals.csv, host_doorbells.csv,\n"
	    "                         drops.csv into DIR (for dgrdma-plot)\n",
	    .man = "Write doorbells.csv, intervals.csv, host_doorbells.csv and drops.csv into DIR "
		   "(for dgrdma-plot).\n"),
	COUNT(
	    OPT_PLOT_COLUMNS, "plot-columns", "N", PC_COLUMNS_MIN, PC_COLUMNS_MAX,
	    "  --plot-columns N       with --csv: also columns-SERIES.csv (each latency series\n"
	    "                         cut into N columns over the run: min, p50, p99, max,\n"
	    "                         count; p50 and p99 within 1/64) and histogram-SERIES.csv,\n"
	    "                         SERIES rx, tx, host, arrival; memory bounded, whatever the\n"
	    "                         run's length; 10..10000\n",
	    .man =
		"With \\-\\-csv: also write, for each latency series SERIES (rx and tx on the "
		"wire, host:\n"
		"in-host from the completion, arrival: in-host from the kernel's arrival),\n"
		"columns\\-SERIES.csv, the series cut into N columns over its span (time_s, "
		"min_ns,\n"
		"p50_ns, p99_ns, max_ns, doorbells, from_s, to_s: min and max exact, p50 and p99 "
		"within\n"
		"1/64, the doorbells of from_s..to_s), and histogram\\-SERIES.csv (lo_ns, hi_ns,\n"
		"doorbells: 32 buckets per power of two), 10..10000. The memory they take depends "
		"on N,\n"
		"never on the run's length (docs/analysis.md, \"Plots of long runs\"); "
		"dgrdma-plot draws\n"
		"a long run from them.\n"),
	COUNT(
	    OPT_DOORBELL_ROWS, "doorbell-rows", "N", 0, 1ull << 40,
	    "  --doorbell-rows N      with --csv: doorbells.csv and host_doorbells.csv keep their\n"
	    "                         rows only while each series in them has at most N\n"
	    "                         doorbells, else just their header line (0: never a row),\n"
	    "                         0..2^40 (default: every row)\n",
	    .man = "With \\-\\-csv: doorbells.csv and host_doorbells.csv keep their rows only "
		   "while each\n"
		   "series in them has at most N doorbells; past N the file is cut back to its "
		   "header line\n"
		   "and takes no more rows (0: never a row), 0..2^40 (default: every row). With\n"
		   "\\-\\-plot-columns, an hour's run then writes kilobytes instead of "
		   "gigabytes.\n"),
	DECIMAL(OPT_INTERVAL, "interval", "MS", 1, 60000,
		"  --interval MS          interval of intervals.csv, 1..60000 ms (default 100)\n",
		.man = "Interval of intervals.csv, 1..60000 ms (default 100).\n"),
	COUNT(OPT_EXACT_LIMIT, "exact-limit", "N", 1, 1ull << 32,
	      "  --exact-limit N        exact percentiles up to N doorbells per series, above\n"
	      "                         them a log-linear histogram within 0.049%, 1..2^32\n"
	      "                         (default 1000000)\n",
	      .man = "Exact (sorted) percentiles for a latency series of at most N doorbells, "
		     "1..2^32 (default\n"
		     "1000000); above N, p50..p99.9 come from a log-linear histogram within a "
		     "relative error of\n"
		     "1/2048 (0.049%), and the report says so in the series (\\fBpercentiles\\fR,\n"
		     "\\fBpercentile_relative_error\\fR, \\fBexact_limit\\fR). Count, min, max, "
		     "mean, the log2 histogram\n"
		     "and the time above the tolerable latency stay exact.\n"),
	ROW(OPT_LIVE, "live", DGR_OPT_FLAG, NULL,
	    "  --live                 INPUT is the run folder of a running dgrdma-capture --live,\n"
	    "                         or an LTTng live URL,\n"
	    "                         net://RELAYD[:PORT]/host/HOSTNAME/SESSION (dgrdma-capture\n"
	    "                         --live prints it): follow the running session through\n"
	    "                         lttng-relayd, print the in-host doorbell latency of every\n"
	    "                         interval and of the run so far, the drop rate and the\n"
	    "                         verdict so far (--json: one JSON object per line), and the\n"
	    "                         final report when the session ends or on Ctrl-C (a run\n"
	    "                         folder's with run.json's facts, exit 2 unless it shows\n"
	    "                         the trace whole); several (up to 8): per session and\n"
	    "                         together\n",
	    .man =
		"INPUT is the run folder of a running\n"
		".B dgrdma-capture \\-\\-live\n"
		"(its live.url is read, waited for up to 30 s), or the URL of an LTTng live "
		"session served by\n"
		"lttng-relayd (what dgrdma-capture \\-\\-live prints). The session is followed "
		"while it is recorded (babeltrace2's "
		"src.ctf.lttng-live):\n"
		"every \\-\\-live-interval, the in-host doorbell latency of the interval and of "
		"the run so far\n"
		"(count, p50, p99, p99.9, max; from the frame's arrival when the trace carries "
		"it), the drop\n"
		"rates of the host's ramp check and the emulator's counters, and the verdict so "
		"far with its\n"
		"reason and headroom; on a terminal the lines are redrawn in place, with a "
		"sparkline of the\n"
		"p99 of the last 30 intervals and two log2 histograms of the in-host latency on "
		"the same bins\n"
		"(the interval's doorbells and the run's). With\n"
		".BR \\-\\-json ,\n"
		"one JSON object per line (JSON Lines:\n"
		".B kind\n"
		"\"interval\"), the last line the final report\n"
		".RB ( kind\n"
		"\"final\"). When the session is destroyed, or on SIGINT or SIGTERM, the final "
		"report follows,\n"
		"the same as latency-report run afterwards on the run folder. Given the run "
		"folder, the view\n"
		"waits for the run.json dgrdma-capture writes when the run ends (while it runs; up "
		"to 60 s when\n"
		"this process cannot see it), and judges by its\n"
		"facts and run status as offline; when it says a part of the recording ended "
		"before the run\n"
		"did (a session daemon that died, say), or does not come, the final report says "
		"so and the\n"
		"exit status is 2. Given a URL, the session's end does not tell a finished run "
		"from one cut\n"
		"short, and the facts come from the options (\\-\\-host-buffers, "
		"\\-\\-buffer-size,\n"
		"\\-\\-fpga-buffers, \\-\\-sample-rate) and the trace. A viewer sees the events "
		"sent after it attached: start it "
		"before the\n"
		"command (dgrdma-capture \\-\\-live-wait). Not with \\-\\-csv or a capture. Up "
		"to 8 URLs: the\n"
		"sessions are followed at once (several hosts recorded into one relayd with "
		"dgrdma-capture\n"
		"\\-\\-relayd), each interval reported per session and together (counts summed, "
		"percentiles of\n"
		"all the hosts' doorbells, the worst verdict; JSON: the together numbers at the "
		"top level,\n"
		"\\fBhosts\\fR one object per session), then one final report per session. "
		"lttng-relayd serves\n"
		"one viewer per session.\n"),
	DECIMAL(OPT_LIVE_INTERVAL, "live-interval", "S", 0.1, 3600,
		"  --live-interval S      seconds between --live reports, 0.1..3600 (default 1)\n",
		.man = "Seconds between \\-\\-live reports, 0.1..3600 (default 1). A separate "
		       "option because\n"
		       "\\-\\-interval is the CSV series' bin, in milliseconds.\n"),
	ROW(OPT_LIVE_IF, "live-if", DGR_OPT_STRING, "IFACE",
	    "  --live-if IFACE        --live: also capture on IFACE (libpcap) and report the\n"
	    "                         doorbell latency on the wire, joined with the trace as for\n"
	    "                         a run folder; with several URLs, once per URL in order\n",
	    .man = "With \\-\\-live: also capture on IFACE (libpcap, immediate mode) and report "
		   "the doorbell\n"
		   "latency on the wire every interval, the verdict judged and the final report "
		   "joined as for a\n"
		   "run folder. With several URLs, once per URL in the same order (each session's "
		   "wire reported\n"
		   "with it, and the hosts' together). Needs CAP_NET_RAW and CAP_NET_ADMIN.\n"),
	ROW(OPT_LIVE_FILTER, "live-filter", DGR_OPT_STRING, "EXPR",
	    "  --live-filter EXPR     the capture filter of --live-if (default: udp port 18078 or\n"
	    "                         ether proto 0xf040 or ether proto 0xf042); one for all, or\n"
	    "                         one per --live-if in order\n",
	    .man = "The capture filter of \\-\\-live\\-if (default: udp port 18078 or ether proto "
		   "0xf040 or ether\n"
		   "proto 0xf042): one for every \\-\\-live\\-if, or one per \\-\\-live\\-if in "
		   "the same order\n"
		   "(sessions captured on one interface told apart by their addresses).\n"),
	ROW(OPT_LIVE_PCAP, "live-pcap", DGR_OPT_STRING, "FILE",
	    "  --live-pcap FILE       write what --live-if captured to FILE (pcap), to report on\n"
	    "                         it again offline; one per --live-if in order\n",
	    .man = "Write what \\-\\-live\\-if captured to FILE (pcap), so that latency-report can "
		   "be run on the trace\n"
		   "and it afterwards; one per \\-\\-live\\-if, in the same order.\n"),
	ROW(OPT_LIVE_FOLLOW, "live-follow", DGR_OPT_STRING, "FILE",
	    "  --live-follow FILE     --live: the wire too, from the capture FILE (pcap or\n"
	    "                         pcapng) read as it is written, e.g. the run folder's\n"
	    "                         capture.pcapng that dgrdma-capture --live records; with\n"
	    "                         several URLs, once per URL in the same order\n",
	    .man = "With \\-\\-live, instead of \\-\\-live\\-if: the wire from the capture FILE "
		   "(pcap or pcapng) read\n"
		   "as another program writes it (with several URLs: once per URL, in the same "
		   "order; each\n"
		   "session's wire is reported with it, and the hosts' together), such as the run "
		   "folder's\n"
		   "capture.pcapng that\n"
		   ".B dgrdma-capture \\-\\-live\n"
		   "records (the file need not exist yet). Every whole record is read as it is "
		   "written (a record\n"
		   "the writer is in the middle of is read again from its start 50 ms later); when "
		   "the session\n"
		   "ends the file is read to its end and must end on a whole record (exit 2 "
		   "otherwise, or for a\n"
		   "file that is not a capture). The final report equals latency-report's on the "
		   "trace and the\n"
		   "finished file.\n"),
	ROW(OPT_HOST, "host", DGR_OPT_STRING, "ADDR",
	    "  --host ADDR            this MAC, IPv4[:port], IPv6 or [IPv6]:port is the host\n"
	    "                         (repeatable, up to 16)\n",
	    .man = "This MAC, IPv4 address, IPv4:port, IPv6 address or [IPv6]:port is the host\n"
		   "(repeatable, up to 16). Without it the host is\n"
		   "the side sending DCP requests, else the data path decides (\\-\\-path).\n"),
	ROW(OPT_FPGA_COUNTERS, "fpga-counters", DGR_OPT_STRING, "FILE",
	    "  --fpga-counters FILE   the FPGA's own loss counters (num_dropped_samps,\n"
	    "                         dropped_samples, dropped_open, num_underruns, ...): the\n"
	    "                         emulator's --summary-json, or the hardware's registers\n"
	    "                         (a run folder's fpga-counters.json is read by itself)\n",
	    .man =
		"The FPGA's own loss counters, by their VHDL names (num_dropped_samps, "
		"dropped_samples,\n"
		"dropped_open, num_underruns, underrun_periods, trailing_underruns): dgrdma-fpga\n"
		"\\-\\-summary-json, or a file of the hardware's registers. A run folder's "
		"fpga-counters.json is\n"
		"read without this option. They join the losses table.\n"),
	ROW(OPT_KERNEL_TRACE, "kernel-trace", DGR_OPT_STRING, "DIR",
	    "  --kernel-trace DIR     the kernel's scheduling trace of the run (perf data convert\n"
	    "                         --to-ctf of perf record -a -k CLOCK_MONOTONIC, or the\n"
	    "                         folder of an LTTng kernel session's metadata; a run\n"
	    "                         folder's run.json kernel.path is read by itself): every\n"
	    "                         stall is given its cause\n",
	    .man = "The kernel's scheduling trace of the run: the CTF that \\fBperf data convert "
		   "\\-\\-to\\-ctf DIR\\fR\n"
		   "writes from \\fBperf record \\-a \\-k CLOCK_MONOTONIC\\fR of the sched, irq, "
		   "block and writeback\n"
		   "tracepoints, or the same events recorded by LTTng's kernel tracer "
		   "(lttng\\-modules; the folder\n"
		   "that holds its metadata, with the tid context). A run folder's run.json "
		   "kernel.path is read\n"
		   "without this option. Every stall of\n"
		   "the in-host doorbells is then given its cause: what the thread of the stage "
		   "where it waited did\n"
		   "(running, runnable and who ran on its CPU, blocked, stopped, migrated), and "
		   "the causes ranked by\n"
		   "stall time (\"stall_causes\"); \\-\\-advise lists their cures first. Needs the "
		   "run's LTTng trace,\n"
		   "or, for a host without UST events (OpenCPI's own), the run's packet capture: "
		   "the stalls are then\n"
		   "the capture's doorbells (\"source\": \"wire\"), and the host's threads are "
		   "found from the kernel\n"
		   "trace's net:net_dev_xmit and skb:skb_copy_datagram_iovec events "
		   "(dgrdma\\-capture \\-\\-kernel\n"
		   "records them); \"threads\" says which and how.\n"),
	ROW(OPT_UDP_PORT, "udp-port", DGR_OPT_STRING, "LIST",
	    "  --udp-port LIST        UDP ports that carry DG-RDMA and DCP besides 18078,\n"
	    "                         comma-separated, 1..65535 (a run folder adds its "
	    "command's)\n",
	    .man = "UDP ports that carry DG-RDMA and DCP besides 18078, comma-separated, 1..65535 "
		   "(repeatable).\n"
		   "A run folder adds the ports of its recorded command's \\-\\-bind and "
		   "\\-\\-peer.\n"),
	{ .id = OPT_PATH,
	  .name = "path",
	  .type = DGR_OPT_CHOICE,
	  .metavar = "rx|tx",
	  .values = "rx|tx",
	  .usage =
	      "  --path rx|tx           the data path of a connection no --host or DCP request\n"
	      "                         decides: rx, the data sender is the FPGA (default), or "
	      "tx,\n"
	      "                         the host (a run folder: its command's path)\n",
	  .man = "The data path of a connection no \\-\\-host or DCP request decides: rx, the side "
		 "sending\n"
		 "data is the FPGA (default), or tx, the side sending data is the host. A run "
		 "folder's\n"
		 "recorded command gives it (dgrdma-host rx|tx, dgrdma-fpga \\-\\-mode) unless "
		 "this is given.\n" },
	ROW(OPT_DCP_DOORBELLS, "dcp-doorbells", DGR_OPT_STRING, "ADDR",
	    "  --dcp-doorbells ADDR   DCP writes to property address ADDR are doorbells, the data\n"
	    "                         being the buffer index (default 0x100018, the emulator's\n"
	    "                         `doorbell` property of worker 0)\n"
	    "  --dcp-doorbells LO:HI  DCP writes to LO..HI are doorbells, one address per buffer;\n"
	    "                         'off': no DCP doorbells\n",
	    .man =
		"DCP writes to property address ADDR are doorbells whose data is the buffer index\n"
		"(default 0x100018, the emulator's \\fBdoorbell\\fR property); with LO:HI every "
		"buffer has\n"
		"its own address in the range; \\fBoff\\fR: none.\n"),
	DECIMAL(OPT_REASM_TIMEOUT, "reasm-timeout", "MS", 1, 3600000,
		"  --reasm-timeout MS     incomplete transactions expire after MS ms of capture "
		"time,\n"
		"                         1..3600000 (default 1000)\n",
		.man = "Incomplete transactions expire after MS ms of capture time, 1..3600000 "
		       "(default 1000).\n"),
	COUNT(OPT_HOST_BUFFERS, "host-buffers", "N", 1, 65535,
	      "  --host-buffers N       host (consumer) buffers, 1..65535\n",
	      .man = DGR_OPT_MAN_WITH_NEXT),
	COUNT(OPT_FPGA_BUFFERS, "fpga-buffers", "N", DGR_FPGA_BUFFERS_MIN, DGR_FPGA_BUFFERS_MAX,
	      "  --fpga-buffers N       FPGA (producer) buffers, 2..64\n",
	      .man = DGR_OPT_MAN_WITH_NEXT),
	/* written as dgrdma-host takes it: 32768 or 32K */
	{ .id = OPT_BUFFER_SIZE,
	  .name = "buffer-size",
	  .type = DGR_OPT_SIZE,
	  .metavar = "BYTES",
	  .min = 1,
	  .max = DGR_MAX_BUFFER_SIZE,
	  .usage =
	      "  --buffer-size BYTES    buffer size, 1..2097152 (suffixes K, M allowed: 32K)\n",
	  .man = DGR_OPT_MAN_WITH_NEXT },
	{ .id = OPT_SAMPLE_RATE,
	  .name = "sample-rate",
	  .type = DGR_OPT_RATE,
	  .metavar = "SPS",
	  .lo = 1,
	  .hi = 1e10,
	  .usage =
	      "  --sample-rate SPS      stream rate in samples/s (4 bytes each), 1..1e10, e.g. "
	      "200e6\n"
	      "                         or 200M\n",
	  .man =
	      "Run facts for the tolerable latency (N_c + N_p) x S / R; also read from run.json's\n"
	      "settings, the recorded tool's own (an old dgrdma-run/1 file's from its recorded "
	      "command). BYTES takes K and M (32K), SPS 200e6 or 200M,\n"
	      "as in\n"
	      ".BR dgrdma-host (1);\n"
	      "N_c 1..65535, N_p 2..64 (the range of \\-\\-fpga\\-buffers in every tool).\n"
	      "Without them the tolerable latency is estimated from the capture, else from the\n"
	      "trace: the pool its stream_config gives at the rate its counters moved.\n" },
	DECIMAL(
	    OPT_TOLERABLE_US, "tolerable-us", "US", 1, 1e9,
	    "  --tolerable-us US      tolerable doorbell latency, overrides the above, 1..1e9\n",
	    .man = "The tolerable doorbell latency, 1..1e9, overriding the facts.\n"),
	DECIMAL(OPT_TRACE_OFFSET_NS, "trace-offset-ns", "NS", -1e18, 1e18,
		"  --trace-offset-ns NS   add NS to trace times before joining (+-1e18)\n",
		.man =
		    "Add NS to trace times before joining them with the capture, \\-1e18..1e18.\n"),
	/* up to the kernel's largest pid_max */
	COUNT(OPT_PID, "pid", "PID", 1, 4194304,
	      "  --pid PID              only the trace events of process PID (its vpid context;\n"
	      "                         repeatable, up to 16): leaves out other processes that\n"
	      "                         traced into the same per-user buffers meanwhile\n",
	      .man = "Only the trace events of process PID (their vpid context; repeatable, up to "
		     "16). dgrdma-capture\n"
		     "records every process of the user that traces meanwhile (per-user buffers); "
		     "run.json's\n"
		     "command_pid is the recorded command's. The events left out are counted "
		     "(other_pids). Without\n"
		     "--pid, host.processes counts the processes whose transactions are in the "
		     "report, and the text\n"
		     "report adds a note naming them when they are several.\n"),
	DECIMAL(OPT_JOIN_WINDOW_US, "join-window-us", "US", 1, 1e7,
		"  --join-window-us US    pair wire and trace doorbells at most US apart, 1..1e7\n"
		"                         (default 1000)\n",
		.man = "Pair wire and trace doorbells at most US apart, 1..1e7 (default 1000).\n"),
	ROW(OPT_ADVISE, "advise", DGR_OPT_FLAG, NULL,
	    "  --advise               after the verdict, list this host's settings the tuning\n"
	    "                         guide would change for the regime (dgrdma-tune check)\n",
	    .man = "After the verdict, list this host's settings that the tuning guide would "
		   "change for the\n"
		   "regime found (libdgrtune, as \\fBdgrdma-tune check\\fR).\n"),
	ROW(OPT_ADVISE_IF, "advise-if", DGR_OPT_STRING, "IFACE",
	    "  --advise-if IFACE      interface for the NIC checks of --advise\n",
	    .man = "Interface for the NIC checks of \\-\\-advise.\n"),
	ROW(OPT_ADVISE_ROOT, "advise-root", DGR_OPT_STRING, "DIR",
	    "  --advise-root DIR      check a fake root instead of / (implies --advise)\n",
	    .man = "Check a fake root instead of / (implies \\-\\-advise).\n"),
	COUNT(OPT_TRACE_STALL, "trace-stall", "S", 1, 3600,
	      "  --trace-stall S        stop reading a trace that yields no event for S seconds,\n"
	      "                         1..3600 (default 10): babeltrace2 can loop on a damaged "
	      "one\n",
	      .man = "Stop reading a trace that yields no event for S seconds, 1..3600 (default "
		     "10). The trace is\n"
		     "checked before libbabeltrace2 reads it and the read runs in a child process: "
		     "babeltrace2 can\n"
		     "loop forever on a damaged trace.\n"),
	ROW(OPT_VERBOSE, "verbose", DGR_OPT_FLAG, NULL,
	    "  --verbose              show libbabeltrace2's own warnings and errors\n",
	    .man = "Show libbabeltrace2's own warnings and errors (otherwise one line gives its "
		   "root cause).\n"),
	ROW(OPT_FAIL_ON, "fail-on", DGR_OPT_STRING, "LIST",
	    "  --fail-on LIST         exit 1 when the verdict is one of LIST (comma-separated:\n"
	    "                         jitter-bound, throughput-bound, unknown, not-healthy for\n"
	    "                         all three, loss for any loss the inputs show)\n",
	    .man = "Exit 1 when the verdict is one of LIST, comma-separated: jitter-bound, "
		   "throughput-bound,\n"
		   "unknown, not-healthy (all three), loss (any loss the inputs show: "
		   "discontinuities or\n"
		   "incomplete transactions on the wire, samples lost or dropped in the trace's "
		   "counters, socket\n"
		   "drops, DAC underruns, an FPGA TX queue that ran empty).\n"),
	ROW(OPT_NO_PROGRESS, "no-progress", DGR_OPT_FLAG, NULL,
	    "  --no-progress          no progress line on stderr\n",
	    .man = "No progress line on standard error.\n"),
	{ .id = 'h',
	  .name = "help",
	  .short_name = 'h',
	  .type = DGR_OPT_FLAG,
	  .usage = "  -h, --help             this text\n",
	  .man = "The usage text: every option with its range.\n" },
	ROW(OPT_VERSION, "version", DGR_OPT_FLAG, NULL,
	    "  --version              the version of dgrdma-tools\n",
	    .man = "The version of dgrdma-tools.\n"),
	ROW(OPT_LIST_OPTIONS, "list-options", DGR_OPT_FLAG, NULL,
	    "  --list-options         every option with its type and range, one a line (with\n"
	    "                         --json: one JSON object)\n",
	    .man = "Every option with the type of its value and its range, one a line "
		   "(tab-separated: name,\n"
		   "type, subcommands, accepted words); with\n"
		   ".BR \\-\\-json ,\n"
		   "one JSON object; with\n"
		   ".BR \\-\\-man ,\n"
		   "this OPTIONS section in roff (docs/cli.md). The bash completion is made from "
		   "it.\n"),
	{ .type = DGR_OPT_TEXT,
	  .usage =
	      "An option's value follows it (--interval 10) or is joined with '=' "
	      "(--interval=10).\n"
	      "Without buffer counts, size and rate (options or run.json), the tolerable latency\n"
	      "is estimated from the capture: buffers seen x largest transaction / data rate;\n"
	      "else from the trace: the pool its stream_config gives at its counters' data rate.\n"
	      "Exit status: 0 report written; 1 a --fail-on finding; 2 bad usage or input that\n"
	      "cannot be read; 3 the run failed (run.json: the recorded command stalled or gave "
	      "up).\n" },
};
#undef DECIMAL
#undef COUNT
#undef ROW

static const struct dgr_opt_table lr_options = {
	.tool = "latency-report",
	.opts = lr_opts,
	.nopts = sizeof(lr_opts) / sizeof(lr_opts[0]),
	.man_tail = ".PP\n"
		    "Values follow their option or are joined with\n"
		    ".B =\n"
		    ".RB ( \\-\\-interval=10 );\n"
		    ".B \\-\\-\n"
		    "ends the options.\n",
};

/*
 * --udp-port LIST: comma-separated ports 1..65535, added to 18078. Returns 0, or
 * -DGR_E_INVAL with errbuf naming the bad port.
 */
static int parse_udp_ports(const char *list, struct wa_opts *wa, char *errbuf)
{
	char word[16];
	const char *p = list;
	uint64_t port;
	int rc;

	for (;;) {
		size_t n = strcspn(p, ",");

		if (n == 0 || n >= sizeof(word)) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--udp-port: '%s' is not a comma-separated list of "
					      "ports 1..65535",
					      list);
		}
		memcpy(word, p, n);
		word[n] = '\0';
		rc = dgr_parse_u64("--udp-port", word, 1, 65535, false, &port, errbuf);
		if (rc < 0) {
			return rc;
		}
		if (wa_opts_add_udp_port(wa, (uint16_t)port) < 0) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL, "--udp-port: at most %d ports",
					      WA_MAX_UDP_PORTS);
		}
		if (p[n] == '\0') {
			return 0;
		}
		p += n + 1;
	}
}

/* --dcp-doorbells ADDR or LO:HI, 0 <= LO <= HI <= 0xFFFFFF. Returns 0, or -1 when bad. */
static int parse_range(const char *s, uint32_t *lo, uint32_t *hi)
{
	char *end;
	unsigned long a, b;

	errno = 0;
	a = strtoul(s, &end, 0);
	if (errno || end == s || (*end != ':' && *end != '\0')) {
		return -1;
	}
	if (*end == '\0') {
		b = a;
	} else {
		b = strtoul(end + 1, &end, 0);
	}
	if (errno || *end || a > 0xFFFFFF || b > 0xFFFFFF || a > b) {
		return -1;
	}
	*lo = (uint32_t)a;
	*hi = (uint32_t)b;
	return 0;
}

/* ctx of the table's handler: the options read, and the option that ends the reading */
struct lr_parse {
	struct options *o;
	int stop; /* 'h', OPT_VERSION or OPT_LIST_OPTIONS */
};

/* Appends s to list (n of LIVE_MAX_HOSTS) or names the limit; why: "one per URL". */
static int live_add(const char **list, unsigned int *n, const char *s, const char *given,
		    const char *why, char *errbuf)
{
	if (*n == LIVE_MAX_HOSTS) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s: at most %d (%s)", given,
				      LIVE_MAX_HOSTS, why);
	}
	list[(*n)++] = s;
	return 0;
}

/*
 * The table's handler (opts.h): one option's value, checked against its row's range, into
 * the struct options. Returns 0, DGR_OPTS_STOP (--help, --version, --list-options) or
 * -DGR_E_INVAL with errbuf.
 */
static int lr_option(void *ctx, const struct dgr_opt *opt, const char *given, const char *val,
		     const union dgr_opt_value *v, char *errbuf)
{
	struct lr_parse *p = ctx;
	struct options *o = p->o;
	int n;

	switch (opt->id) {
	case 'h':
	case OPT_VERSION:
	case OPT_LIST_OPTIONS:
		p->stop = opt->id;
		return DGR_OPTS_STOP;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_BRIEF:
		o->brief = true;
		break;
	case OPT_LIVE:
		o->live = true;
		break;
	case OPT_NO_PROGRESS:
		o->progress = false;
		break;
	case OPT_ADVISE:
		o->advise = true;
		break;
	case OPT_VERBOSE:
		o->ctf.verbose = true;
		break;
	case OPT_CSV:
	case OPT_PLOT_COLUMNS:
	case OPT_DOORBELL_ROWS:
		if (o->n_csv_values == LR_MAX_CSV_VALUES) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "%s: --csv, --plot-columns and --doorbell-rows are "
					      "given more than %d times in all",
					      given, LR_MAX_CSV_VALUES);
		}
		o->csv_values[o->n_csv_values++] = val;
		if (opt->id == OPT_CSV) {
			o->csv_dir = val;
		} else if (opt->id == OPT_PLOT_COLUMNS) {
			o->plot_columns = (unsigned int)v->u;
		} else {
			o->doorbell_rows = v->u;
		}
		break;
	case OPT_FAIL_ON:
		return report_parse_fail_on(val, &o->fail_on, errbuf);
	case OPT_ADVISE_IF:
		o->adv.iface = val;
		break;
	case OPT_ADVISE_ROOT:
		o->adv.root = val;
		o->advise = true;
		break;
	case OPT_EXACT_LIMIT:
		stats_set_exact_limit(v->u);
		break;
	case OPT_INTERVAL:
		o->interval_ns = (uint64_t)(v->d * 1e6);
		break;
	case OPT_LIVE_IF:
		return live_add(o->live_if, &o->n_live_if, val, given, "one per URL", errbuf);
	case OPT_LIVE_FILTER:
		return live_add(o->live_filter, &o->n_live_filter, val, given, "one per --live-if",
				errbuf);
	case OPT_LIVE_PCAP:
		return live_add(o->live_pcap, &o->n_live_pcap, val, given, "one per --live-if",
				errbuf);
	case OPT_LIVE_FOLLOW:
		return live_add(o->live_follow, &o->n_live_follow, val, given, "one per URL",
				errbuf);
	case OPT_LIVE_INTERVAL:
		o->live_interval_ns = (uint64_t)(v->d * 1e9);
		break;
	case OPT_HOST:
		if (o->wa.n_hosts == WA_MAX_HOSTS) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL, "--host: at most %d",
					      WA_MAX_HOSTS);
		}
		n = pcap_input_parse_addr(val, &o->wa.hosts[o->wa.n_hosts]);
		if (n < 0) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--host: '%s' is not a MAC (aa:bb:cc:dd:ee:ff), an "
					      "IPv4 address, IPv4:port, an IPv6 address or "
					      "[IPv6]:port",
					      val);
		}
		o->wa.host_len[o->wa.n_hosts++] = (unsigned int)n;
		break;
	case OPT_FPGA_COUNTERS:
		o->fpga_counters = val;
		break;
	case OPT_KERNEL_TRACE:
		o->kernel_trace = val;
		break;
	case OPT_UDP_PORT:
		return parse_udp_ports(val, &o->wa, errbuf);
	case OPT_PATH:
		if (strcmp(val, "rx") != 0 && strcmp(val, "tx") != 0) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--path: '%s' is not rx (data FPGA->host) or tx "
					      "(data host->FPGA)",
					      val);
		}
		o->wa.undecided_path = val[0] == 't' ? WA_TX : WA_RX;
		o->path_given = true;
		break;
	case OPT_DCP_DOORBELLS:
		if (strcmp(val, "off") == 0) {
			o->wa.dcp_doorbells = false;
		} else if (parse_range(val, &o->wa.dcp_bell_lo, &o->wa.dcp_bell_hi) < 0) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--dcp-doorbells: '%s' is not ADDR or LO:HI with 0 "
					      "<= LO <= HI <= 0xFFFFFF, or 'off'",
					      val);
		} else {
			o->wa.dcp_doorbells = true;
		}
		break;
	case OPT_REASM_TIMEOUT:
		o->wa.reasm_timeout_ns = (uint64_t)(v->d * 1e6);
		break;
	case OPT_HOST_BUFFERS:
		o->run.host_buffers = v->u;
		break;
	case OPT_FPGA_BUFFERS:
		o->run.fpga_buffers = v->u;
		break;
	case OPT_BUFFER_SIZE:
		o->run.buffer_size = v->u;
		break;
	case OPT_SAMPLE_RATE:
		o->run.rate_bytes = (uint64_t)(v->d * DGR_SAMPLE_BYTES);
		break;
	case OPT_TOLERABLE_US:
		o->tolerable_ns = (uint64_t)(v->d * 1e3);
		break;
	case OPT_JOIN_WINDOW_US:
		o->join_window_ns = (uint64_t)(v->d * 1e3);
		break;
	case OPT_TRACE_OFFSET_NS:
		o->trace_offset_ns = (int64_t)v->d;
		break;
	case OPT_TRACE_STALL:
		o->ctf.stall_s = (unsigned int)v->u;
		break;
	case OPT_PID:
		if (o->n_pids == HA_MAX_PIDS) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL, "--pid: at most %d",
					      HA_MAX_PIDS);
		}
		o->pids[o->n_pids++] = (uint32_t)v->u;
		break;
	}
	return 0;
}

/* The checks of options together, once all were read: 0, or -DGR_E_INVAL with errbuf. */
static int check_together(const struct options *o, char *errbuf)
{
	if (o->n_inputs == 0) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "no INPUT given");
	}
	if (!o->live && (o->n_live_if || o->n_live_filter || o->n_live_pcap || o->n_live_follow)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--live-if, --live-filter, --live-pcap and --live-follow go "
				      "with --live");
	}
	if ((o->plot_columns || o->doorbell_rows != UINT64_MAX) && !o->csv_dir) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--plot-columns and --doorbell-rows go with --csv DIR (the "
				      "folder they write into)");
	}
	if (o->n_live_if && o->n_live_follow) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--live-if and --live-follow are two sources of the same "
				      "wire: give one");
	}
	if ((o->n_live_filter || o->n_live_pcap) && !o->n_live_if) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--live-filter and --live-pcap need --live-if");
	}
	if (o->n_live_filter > 1 && o->n_live_filter != o->n_live_if) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--live-filter: give one for every --live-if, or one per "
				      "--live-if in the same order (got %u for %u)",
				      o->n_live_filter, o->n_live_if);
	}
	if (o->n_live_pcap && o->n_live_pcap != o->n_live_if) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--live-pcap: give one file per --live-if, in the same "
				      "order (got %u for %u)",
				      o->n_live_pcap, o->n_live_if);
	}
	if (o->live) {
		struct ctf_live_url u;
		char why[DGR_ERRBUF_SIZE];

		if (o->n_inputs > LIVE_MAX_HOSTS) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--live follows 1..%d sessions (got %u URLs)",
					      LIVE_MAX_HOSTS, o->n_inputs);
		}
		for (unsigned int k = 0; k < o->n_inputs; k++) {
			/* a run folder of dgrdma-capture --live: its live.url is read when
			 * followed, the folder waited for (the view may start with the recording)
			 */
			if (!lr_live_is_folder(o->inputs[k]) &&
			    ctf_live_url_parse(o->inputs[k], &u, why) < 0) {
				return dgr_errbuf_set(errbuf, DGR_E_INVAL, "--live: %s", why);
			}
		}
		if (o->n_live_if && o->n_live_if != o->n_inputs) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--live-if: give one interface per URL, in the same "
					      "order (got %u for %u URLs)",
					      o->n_live_if, o->n_inputs);
		}
		if (o->n_live_follow && o->n_live_follow != o->n_inputs) {
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL,
			    "--live-follow: give one capture per URL, in the same "
			    "order (got %u for %u URLs)",
			    o->n_live_follow, o->n_inputs);
		}
		if (o->csv_dir) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--csv is not available with --live (record the run, "
					      "then write the series from its folder)");
		}
	}
	return 0;
}

/* See latency-report.h. */
int lr_parse_args(int argc, char **argv, struct options *o, char *errbuf)
{
	struct lr_parse p = { .o = o };
	/* getopt_long moves the operands behind the options: argv stays as given (lr_offline) */
	char **args = calloc((size_t)argc + 1, sizeof(*args));
	int next = argc;
	int rc;

	if (!args) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	memcpy(args, argv, (size_t)argc * sizeof(*args));
	rc = dgr_opts_parse(&lr_options, argc, args, -1, DGR_OPTS_OWN_MESSAGES, lr_option, &p,
			    &next, errbuf);
	if (rc == DGR_OPTS_STOP) {
		if (p.stop == 'h') {
			dgr_opts_usage(&lr_options, stdout);
		} else if (p.stop == OPT_VERSION) {
			printf("latency-report (dgrdma-tools) %s\n", DGR_VERSION);
		} else {
			dgr_opts_list_argv(&lr_options, argc, argv, stdout);
		}
		rc = LR_ARGS_DONE;
		goto out;
	}
	if (rc < 0) {
		goto out;
	}
	for (int i = next; i < argc; i++) {
		if (o->n_inputs == MAX_INPUTS) {
			rc = dgr_errbuf_set(errbuf, DGR_E_INVAL, "at most %d inputs", MAX_INPUTS);
			goto out;
		}
		o->inputs[o->n_inputs++] = args[i];
	}
	rc = check_together(o, errbuf);
out:
	free(args);
	return rc;
}
