// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dgrdma-fpga: a software FPGA endpoint (the HDL container of an X310 or a
 * Zynq board) for DG-RDMA and DCP. Command line, start-up print and exit
 * summary; the work is in loop.c. See docs/fpga.md and dgrdma-fpga(1).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "cli.h"
#include "opts.h"
#include "transport_opts.h"
#include "dgrdma-version.h"
#include "emu.h"
#include "loop.h"

enum {
	OPT_MODE = 0x100,
	OPT_RATE,
	OPT_DECIMATION,
	OPT_BUFFERS,
	OPT_BUFFER_SIZE,
	OPT_HOST_BUFFERS,
	OPT_FPGA_MEMORY,
	OPT_RDL,
	OPT_COALESCE,
	OPT_DURATION,
	OPT_IDLE,
	OPT_ID,
	OPT_PEER_ID,
	OPT_MAX_ACKS,
	OPT_ACK_WAIT,
	OPT_ACK_WINDOW,
	OPT_MAX_ACK_COUNT,
	OPT_RESTART_SEQ1,
	OPT_DROP_RECEIVED,
	OPT_PACING,
	OPT_CLOCK,
	OPT_CLOCK_FREEZE,
	OPT_TIMER_SLACK,
	OPT_TICK,
	OPT_SEED,
	OPT_DROP_FRAMES,
	OPT_CORRUPT,
	OPT_DB_DELAY,
	OPT_DRAIN,
	OPT_CHECK_RAMP,
	OPT_TX_RUN,
	OPT_TX_MESSAGES,
	OPT_TX_BEATS,
	OPT_TX_GAP,
	OPT_SUMMARY_JSON,
	OPT_READY_FILE,
	OPT_JSON,
	OPT_QUIET,
	OPT_COUNTERS_MS,
	OPT_LIST_PROPS,
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
#define DECIMAL(i, n, u, ...)                                                                      \
	{                                                                                          \
		.id = (i), .name = (n), .type = DGR_OPT_DECIMAL, .metavar = "P", .lo = 0, .hi = 1, \
		.usage = (u), __VA_ARGS__                                                          \
	}
#define CHOICE(i, n, mv, vals, u, ...)                                                             \
	{                                                                                          \
		.id = (i), .name = (n), .type = DGR_OPT_CHOICE, .metavar = (mv), .values = (vals), \
		.usage = (u), __VA_ARGS__                                                          \
	}

/* dgrdma-fpga's options: the parser, --help (the rows' text in order) and --list-options. */
static const struct dgr_opt fpga_opts[] = {
	{ .type = DGR_OPT_TEXT,
	  .usage = "Usage: dgrdma-fpga (--if IFACE --peer MAC | --udp --bind ADDR:PORT [--peer "
		   "ADDR:PORT])\n"
		   "                   [--mode adc|dac|perftest] [options]\n"
		   "A software FPGA endpoint for DG-RDMA and DCP (docs/fpga.md).\n\n"
		   "Workers and streams:\n",
	  .man = "Values follow their option or are joined with\n"
		 ".B =\n"
		 ".RB ( \\-\\-sample\\-rate=20M ).\n"
		 "The transport options\n"
		 ".RB ( \\-\\-if \", \" \\-\\-peer \", \" \\-\\-udp \", \" \\-\\-bind \", \" "
		 "\\-\\-mtu \", \" \\-\\-rcvbuf \", \" \\-\\-sndbuf \", \" \\-\\-busy\\-poll \", "
		 "\" \\-\\-batch \", \" \\-\\-no\\-rx\\-ring )\n"
		 "are those of every dgrdma-tools program (docs/cli.md).\n"
		 ".SS Workers and streams\n" },
	CHOICE(OPT_MODE, "mode", "M", "adc|dac|perftest",
	       "  --mode M                adc (ADC source, default), dac (DAC sink), perftest\n",
	       .man = ".BR adc \" (ADC source, default), \" dac \" (DAC sink) or \" perftest .\n"),
	{ .id = OPT_RATE,
	  .name = "sample-rate",
	  .aliases = { "rate" }, /* until 0.2 */
	  .type = DGR_OPT_RATE,
	  .metavar = "R",
	  .lo = 1,
	  .hi = 1e10,
	  .usage =
	      "  --sample-rate R         samples/s of the ADC or DAC, 1..1e10, e.g. 200e6 or 200M\n"
	      "                          (default 10M; old name --rate, an alias until 0.2)\n",
	  .man = "Samples per second of the ADC or DAC, 1..1e10 (default 10e6): 200e6, 2.5e8, or "
		 "with k, M\n"
		 "or G for 1e3, 1e6, 1e9 (200M). The old name\n"
		 ".B \\-\\-rate\n"
		 "is an alias until 0.2.\n" },
	COUNT(OPT_DECIMATION, "decimation", "N", 1, 200000000,
	      "  --decimation N          rate = 200e6 / N, 1..200000000\n",
	      .man = "Sets the sample rate to 200e6 / N, 1..200000000.\n"),
	{ .id = OPT_BUFFER_SIZE,
	  .name = "buffer-size",
	  .type = DGR_OPT_SIZE,
	  .metavar = "S",
	  .min = 64,
	  .max = 65536,
	  .usage = "  --buffer-size S         bytes per buffer, 64..65536, multiple of 16 (default "
		   "16384)\n",
	  .man = "Bytes per buffer, 64..65536, a multiple of 16 (default 16384); the same on both "
		 "ends.\n" },
	{ .id = OPT_BUFFERS,
	  .name = "buffers",
	  .aliases = { "fpga-buffers" }, /* the name the other tools use */
	  .type = DGR_OPT_COUNT,
	  .metavar = "E",
	  .min = FPGA_MIN_BUFFERS,
	  .max = FPGA_MAX_LOCAL_BUFFERS,
	  .usage = "  --buffers E             emulator buffers per port, 2..8 (default min(8, "
		   "memory/S));\n"
		   "  --fpga-buffers E        the same (the name the other tools use)\n",
	  .man = "Emulator buffers per port (the FPGA's buffers: the other tools call them\n"
		 ".BR \\-\\-fpga\\-buffers ),\n"
		 "2..8 (default\n"
		 ".BR \\-\\-fpga\\-memory \" / S,\"\n"
		 "at most 8: 65536 / S with the default memory);\n"
		 "up to 64 with\n"
		 ".BI \\-\\-fpga\\-memory \" BYTES\"\n"
		 "above 65536 (the mux workaround).\n" },
	COUNT(OPT_HOST_BUFFERS, "host-buffers", "H", 1, FPGA_MAX_HOST_BUFFERS,
	      "  --host-buffers H        host buffers per port, 1..255 (default 64)\n",
	      .man = "The host's buffers per port, 1..255 (default 64).\n"),
	{ .id = OPT_FPGA_MEMORY,
	  .name = "fpga-memory",
	  .type = DGR_OPT_SIZE,
	  .metavar = "BYTES",
	  .min = 65536,
	  .max = 4194304,
	  .usage =
	      "  --fpga-memory BYTES     buffer memory per port, 65536..4194304 (default 65536;\n"
	      "                          more models the mux workaround and allows up to 64 "
	      "buffers)\n",
	  .man = "Buffer memory per port, 65536..4194304 (default 65536); more models the mux "
		 "workaround and\n"
		 "allows up to 64 buffers.\n" },
	CHOICE(OPT_RDL, "report-data-loss", "B", "true|false",
	       "  --report-data-loss B    true (default) or false: discontinuity after drops\n",
	       .man = ".B true\n"
		      "(default) or\n"
		      ".BR false :\n"
		      "send a discontinuity message (a whole buffer) after each drop period.\n"),
	ROW(OPT_IDLE, "idle", DGR_OPT_FLAG, NULL,
	    "  --idle                  start no worker: wait for DCP control operations\n",
	    .man = "Start no worker: wait for DCP control operations.\n"),
	{ .id = OPT_DURATION,
	  .name = "duration",
	  .type = DGR_OPT_SECONDS,
	  .metavar = "SEC",
	  .hi = 1e6,
	  .usage = "  --duration SEC          stop after SEC seconds, 0..1e6 (default 0: until "
		   "SIGINT)\n",
	  .man = "Stop after SEC seconds, 0..1e6 (default 0: until SIGINT/SIGTERM or a DCP release "
		 "of\n"
		 "worker 4).\n" },
	COUNT(OPT_DRAIN, "drain-ms", "N", 0, 60000,
	      "  --drain-ms N            after stopping, wait at most N ms for doorbells, 0..60000 "
	      "(500)\n",
	      .man = "After stopping, wait at most N ms for the port to empty and the host's "
		     "doorbells, 0..60000\n"
		     "(default 500).\n"),
	ROW(OPT_CHECK_RAMP, "check-ramp", DGR_OPT_FLAG, NULL,
	    "  --check-ramp            dac: count samples that break a 32-bit ramp\n",
	    .man = "dac: the DAC ramp check: count the samples that break a 32-bit ramp.\n"),
	ROW(OPT_TX_RUN, "tx-run", DGR_OPT_FLAG, NULL,
	    "  --tx-run                perftest: generate tx messages from the start\n",
	    .man = "perftest: generate tx messages from the start (a perftest property at start, "
		   "as the next\n"
		   "three).\n"),
	COUNT(OPT_TX_MESSAGES, "tx-messages", "N", 0, UINT32_MAX,
	      "  --tx-messages N         perftest: tx messages, 0..4294967295 (default 0)\n",
	      .man = "perftest: tx messages, 0..4294967295 (default 0).\n"),
	COUNT(
	    OPT_TX_BEATS, "tx-beats", "N", 1, 16384,
	    "  --tx-beats N            perftest: 4-byte words per message, 1..S/4 (default S/4)\n",
	    .man = "perftest: 4-byte words per message, 1..S/4 (default S/4).\n"),
	COUNT(OPT_TX_GAP, "tx-message-gap", "N", 0, UINT32_MAX,
	      "  --tx-message-gap N      perftest: 125 MHz cycles between messages (default 0)\n"
	      "DG-RDMA (dgrdma_config):\n",
	      .man = "perftest: 125 MHz cycles between messages (default 0).\n"),
	{ .type = DGR_OPT_TEXT, .man = ".SS DG\\-RDMA (dgrdma_config)\n" },
	COUNT(OPT_ID, "id", "N", 0, 65535,
	      "  --id N                  local_src_id: frame offset 2 of its frames, 0..65535\n"
	      "                          (default 1)\n",
	      .man = DGR_OPT_MAN_WITH_NEXT),
	COUNT(OPT_PEER_ID, "peer-id", "N", 0, 65535,
	      "  --peer-id N             remote_dst_id: frame offset 0 of its frames, 0..65535\n"
	      "                          (default 0)\n",
	      .man = "The endpoint ids (dgrdma_config): the emulator's own, local_src_id, at frame "
		     "offset 2 of its\n"
		     "frames (default 1), and the host's, remote_dst_id, at frame offset 0 "
		     "(default 0);\n"
		     "0..65535.\n"),
	COUNT(OPT_COALESCE, "coalesce-us", "N", 0, 1000000,
	      "  --coalesce-us N         hold a partly filled frame N us, 0..1000000 (default 0)\n",
	      .man = "Hold a partly filled frame N microseconds (coalesce_wait_d), 0..1000000 "
		     "(default 0).\n"),
	COUNT(OPT_MAX_ACKS, "max-acks", "N", 0, 255,
	      "  --max-acks N            max_acks_outstanding, 0..255 (default 8; 0: only "
	      "ack_wait)\n",
	      .man = DGR_OPT_MAN_WITH_NEXT),
	COUNT(OPT_ACK_WAIT, "ack-wait-us", "N", 0, 1000000,
	      "  --ack-wait-us N         ack_wait in us, 0..1000000 (default 100; 0: off)\n",
	      .man = "ACK generation: at most N ACKs outstanding (max_acks_outstanding, 0..255, "
		     "default 8; 0: only\n"
		     "the wait), and the wait before an ACK (ack_wait, 0..1000000 us, default 100; "
		     "0: off).\n"),
	COUNT(OPT_ACK_WINDOW, "ack-window", "N", 1, FPGA_ACK_MAX_WIDTH,
	      "  --ack-window N          ack_tracker_bitfield_width, 1..64 (default 32)\n",
	      .man = DGR_OPT_MAN_WITH_NEXT),
	COUNT(OPT_MAX_ACK_COUNT, "max-ack-count", "N", 1, 255,
	      "  --max-ack-count N       ack_tracker_max_ack_count, 1..255, <= window (default "
	      "12)\n",
	      .man = "The ACK tracker's window (ack_tracker_bitfield_width, 1..64, default 32) and "
		     "the most frames\n"
		     "one ACK covers (ack_tracker_max_ack_count, 1..255, at most the window, "
		     "default 12).\n"),
	CHOICE(OPT_RESTART_SEQ1, "restart-on-seq1", "B", "true|false",
	       "  --restart-on-seq1 B     true (default) or false: frame_seq 1 outside the window\n"
	       "                          starts a new host connection (the real FPGA rejects it\n"
	       "                          until its DG-RDMA state is reset)\n"
	       "Timing:\n",
	       .man = "true (default): a frame_seq 1 outside the window starts a new host "
		      "connection; false: it is\n"
		      "rejected, as the real FPGA does until its DG-RDMA state is reset.\n"),
	{ .type = DGR_OPT_TEXT,
	  .man = ".SS Timing and determinism\nSee docs/fpga.md section 6.\n" },
	CHOICE(OPT_PACING, "pacing", "sleep|busy", "sleep|busy",
	       "  --pacing sleep|busy     wait for the clock by sleeping (default) or spinning\n",
	       .man = "Wait for the clock by sleeping (default) or spinning.\n"),
	CHOICE(OPT_CLOCK, "clock", "real|virtual", "real|virtual",
	       "  --clock real|virtual    CLOCK_MONOTONIC (default) or a virtual clock\n",
	       .man = "CLOCK_MONOTONIC (default) or a virtual clock.\n"),
	CHOICE(OPT_CLOCK_FREEZE, "clock-freeze", "B", "true|false",
	       "  --clock-freeze B        true (default) or false: a real clock's ADC/DAC freezes\n"
	       "                          while the emulator did not run, instead of dropping\n",
	       .man =
		   "true (default): when the emulator did not run for longer than the FPGA's "
		   "memory absorbs,\n"
		   "the ADC or DAC clock freezes instead of dropping or underrunning (docs/fpga.md "
		   "section 6);\n"
		   "false: it drops and underruns as an FPGA whose stream stopped while its clock "
		   "ran on.\n"),
	CHOICE(OPT_TIMER_SLACK, "timer-slack-us", "N|auto", "auto",
	       "  --timer-slack-us N|auto how late a sleep may end, 0..1000 (0: 1 ns); auto\n"
	       "                          (default): 50, or an eighth of the time the FPGA's\n"
	       "                          memory holds at --sample-rate when that is less\n",
	       .man = "How late a sleep may end, 0..1000 us (0: 1 ns). auto (default): 50, or an\n"
		      "eighth of the time the FPGA's memory holds at \\-\\-sample\\-rate when that "
		      "is less.\n"),
	COUNT(
	    OPT_TICK, "tick-us", "N", 1, 1000000,
	    "  --tick-us N             virtual clock step per loop iteration, 1..1000000 (default "
	    "10)\n",
	    .man = "The virtual clock's step per loop iteration, 1..1000000 us (default 10).\n"),
	COUNT(OPT_SEED, "seed", "N", 0, UINT64_MAX,
	      "  --seed N                seed of every random choice (default: from the time; "
	      "printed)\n"
	      "Fault injection:\n",
	      .man = "The seed of every random choice (default: from the time; printed).\n"),
	{ .type = DGR_OPT_TEXT, .man = ".SS Fault injection\n" },
	DECIMAL(OPT_DROP_FRAMES, "drop-frames",
		"  --drop-frames P         do not send a data frame with probability P, 0..1\n",
		.man = "Do not send a data frame with probability P, 0..1.\n"),
	DECIMAL(OPT_CORRUPT, "corrupt",
		"  --corrupt P             send a data frame malformed with probability P, 0..1\n",
		.man = "Send a data frame malformed with probability P, 0..1.\n"),
	DECIMAL(OPT_DROP_RECEIVED, "drop-received",
		"  --drop-received P       lose a received DG-RDMA frame with probability P, 0..1\n"
		"                          (before the ACK tracker, as the wire would)\n",
		.man = "Lose a received DG-RDMA frame with probability P, 0..1, before the ACK "
		       "tracker, as the wire\n"
		       "would.\n"),
	COUNT(OPT_DB_DELAY, "doorbell-delay-us", "N", 0, 10000000,
	      "  --doorbell-delay-us N   delay TX-path doorbells N us, 0..10000000\n"
	      "Output:\n",
	      .man = "Delay the TX path's doorbells N us, 0..10000000.\n"),
	{ .type = DGR_OPT_TEXT, .man = ".SS Output\n" },
	ROW(OPT_SUMMARY_JSON, "summary-json", DGR_OPT_STRING, "PATH",
	    "  --summary-json PATH     write every counter and property as JSON at exit\n",
	    .man = "Write every counter and property as JSON at exit.\n"),
	ROW(OPT_READY_FILE, "ready-file", DGR_OPT_STRING, "PATH",
	    "  --ready-file PATH       create PATH, holding the pid, once the sockets are\n"
	    "                          bound (start the host side then); removed at start\n"
	    "                          and at exit\n",
	    .man = "Create PATH, holding the process id, once the sockets are bound (written\n"
		   "whole, renamed into place): a script starts the host side (dgrdma-host tx\n"
		   "into the DAC, perf into the perftest worker) when PATH exists. Removed at\n"
		   "start and at exit.\n"),
	ROW(OPT_JSON, "json", DGR_OPT_FLAG, NULL,
	    "  --json                  print the exit summary as JSON\n",
	    .man = "Print the exit summary as JSON.\n"),
	ROW(OPT_QUIET, "quiet", DGR_OPT_FLAG, NULL,
	    "  --quiet                 no start-up print and no text summary\n",
	    .man = "No start-up print and no text summary.\n"),
	COUNT(OPT_COUNTERS_MS, "counters-ms", "N", 0, 60000,
	      "  --counters-ms N         counters tracepoint period, 0..60000 (default 100, 0 "
	      "off)\n",
	      .man = "The counters tracepoint's period, 0..60000 ms (default 100; 0: off).\n"),
	ROW(OPT_LIST_PROPS, "list-properties", DGR_OPT_FLAG, NULL,
	    "  --list-properties       print the DCP property map (markdown) and exit\n",
	    .man = "Print the DCP property map as a markdown table and exit.\n"),
	{ .id = 'h',
	  .name = "help",
	  .short_name = 'h',
	  .type = DGR_OPT_FLAG,
	  .usage = "  -h, --help              this help\n",
	  .man = "Every option with its range.\n" },
	ROW(OPT_VERSION, "version", DGR_OPT_FLAG, NULL,
	    "  --version               the version of dgrdma-tools\n",
	    .man = "The version of dgrdma-tools.\n"),
	ROW(OPT_LIST_OPTIONS, "list-options", DGR_OPT_FLAG, NULL,
	    "  --list-options [--json] every option with its type and range, one a line\n"
	    "                          (--json: one JSON object)\n",
	    .man =
		"Every option with its old names, the type of its value and its range, one a line\n"
		"(tab-separated: name, type, subcommands, accepted words); with\n"
		".BR \\-\\-json ,\n"
		"one JSON object; with\n"
		".BR \\-\\-man ,\n"
		"this OPTIONS section in roff (docs/cli.md). The bash completion is made from "
		"it.\n"),
	DGR_TRANSPORT_OPT_ROWS("4 x its buffers, at least 4 MiB"),
	{ .type = DGR_OPT_TEXT,
	  .usage = "\n"
		   "Exit status (docs/cli.md): 0 the run ended (--duration, SIGINT); 2 bad usage;\n"
		   "3 the run failed (could not start, --summary-json not written).\n" },
};
#undef CHOICE
#undef DECIMAL
#undef COUNT
#undef ROW

static const struct dgr_opt_table fpga_options = {
	.tool = "dgrdma-fpga",
	.opts = fpga_opts,
	.nopts = sizeof(fpga_opts) / sizeof(fpga_opts[0]),
};

struct cli {
	struct fpga_config cfg;
	struct dgr_transport_opts topts;
	bool buffers_given;
	bool seed_given;
	bool list_props;
	int stop; /* 'h', OPT_VERSION or OPT_LIST_OPTIONS: main prints it */
	bool tx_run;
	uint32_t tx_messages, tx_beats, tx_gap;
	bool tx_beats_given;
	int64_t timer_slack_us; /* -1: auto */
};

/* The table's handler (opts.h): one option's checked value into the struct cli ctx. */
static int fpga_option(void *ctx, const struct dgr_opt *o, const char *given, const char *arg,
		       const union dgr_opt_value *v, char *errbuf)
{
	struct cli *c = ctx;
	struct fpga_config *cfg = &c->cfg;
	uint32_t u32 = (uint32_t)v->u;
	int rc;

	(void)given;
	rc = dgr_transport_parse_opt(&c->topts, o->id, arg, errbuf);
	if (rc != 0) {
		return rc < 0 ? rc : 0;
	}
	switch (o->id) {
	case OPT_MODE:
		if (strcmp(arg, "adc") == 0) {
			cfg->mode = FPGA_MODE_ADC;
		} else if (strcmp(arg, "dac") == 0) {
			cfg->mode = FPGA_MODE_DAC;
		} else if (strcmp(arg, "perftest") == 0) {
			cfg->mode = FPGA_MODE_PERFTEST;
		} else {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--mode: '%s' is not one of adc, dac, perftest", arg);
		}
		break;
	case OPT_RATE:
		cfg->rate = v->d;
		break;
	case OPT_DECIMATION:
		cfg->rate = 200e6 / (double)v->u;
		break;
	case OPT_BUFFERS:
		cfg->nbuffers = u32;
		c->buffers_given = true;
		break;
	case OPT_BUFFER_SIZE:
		if (u32 % 16 != 0) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--buffer-size: '%s' is not a multiple of 16", arg);
		}
		cfg->buffer_size = u32;
		break;
	case OPT_HOST_BUFFERS:
		cfg->host_buffers = u32;
		break;
	case OPT_FPGA_MEMORY:
		cfg->fpga_memory = u32;
		break;
	case OPT_RDL:
	case OPT_RESTART_SEQ1:
	case OPT_CLOCK_FREEZE:
		if (strcmp(arg, "true") != 0 && strcmp(arg, "false") != 0) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--%s: '%s' is not true or false", o->name, arg);
		}
		if (o->id == OPT_RDL) {
			cfg->report_data_loss = arg[0] == 't';
		} else if (o->id == OPT_RESTART_SEQ1) {
			cfg->restart_on_seq1 = arg[0] == 't';
		} else {
			cfg->clock_freeze = arg[0] == 't';
		}
		break;
	case OPT_COALESCE:
		cfg->coalesce_us = u32;
		break;
	case OPT_DURATION:
		cfg->duration_ns = v->u;
		break;
	case OPT_IDLE:
		cfg->idle = true;
		break;
	case OPT_ID:
		cfg->local_src_id = u32;
		break;
	case OPT_PEER_ID:
		cfg->remote_dst_id = u32;
		break;
	case OPT_MAX_ACKS:
		cfg->max_acks = u32;
		break;
	case OPT_ACK_WINDOW:
		cfg->ack_width = u32;
		break;
	case OPT_MAX_ACK_COUNT:
		cfg->max_ack_count = u32;
		break;
	case OPT_DROP_RECEIVED:
		cfg->drop_rx = v->d;
		break;
	case OPT_ACK_WAIT:
		cfg->ack_wait_us = u32;
		break;
	case OPT_PACING:
		if (strcmp(arg, "sleep") != 0 && strcmp(arg, "busy") != 0) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--pacing: '%s' is not sleep or busy", arg);
		}
		cfg->pacing_busy = arg[0] == 'b';
		break;
	case OPT_TIMER_SLACK:
		if (strcmp(arg, "auto") == 0) {
			c->timer_slack_us = -1;
		} else {
			uint64_t us;

			rc = dgr_parse_u64("--timer-slack-us", arg, 0, 1000, false, &us, errbuf);
			if (rc < 0) {
				return rc;
			}
			c->timer_slack_us = (int64_t)us;
		}
		break;
	case OPT_CLOCK:
		if (strcmp(arg, "real") != 0 && strcmp(arg, "virtual") != 0) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--clock: '%s' is not real or virtual", arg);
		}
		cfg->virtual_clock = arg[0] == 'v';
		break;
	case OPT_TICK:
		cfg->tick_ns = v->u * 1000u;
		break;
	case OPT_SEED:
		cfg->seed = v->u;
		c->seed_given = true;
		break;
	case OPT_DROP_FRAMES:
		cfg->drop_frames = v->d;
		break;
	case OPT_CORRUPT:
		cfg->corrupt = v->d;
		break;
	case OPT_DB_DELAY:
		cfg->doorbell_delay_us = u32;
		break;
	case OPT_DRAIN:
		cfg->drain_ms = u32;
		break;
	case OPT_CHECK_RAMP:
		cfg->check_ramp = true;
		break;
	case OPT_TX_RUN:
		c->tx_run = true;
		break;
	case OPT_TX_MESSAGES:
		c->tx_messages = u32;
		break;
	case OPT_TX_BEATS:
		c->tx_beats = u32;
		c->tx_beats_given = true;
		break;
	case OPT_TX_GAP:
		c->tx_gap = u32;
		break;
	case OPT_SUMMARY_JSON:
		cfg->summary_json = arg;
		break;
	case OPT_READY_FILE:
		cfg->ready_file = arg;
		break;
	case OPT_JSON:
		cfg->json = true;
		break;
	case OPT_QUIET:
		cfg->quiet = true;
		break;
	case OPT_COUNTERS_MS:
		cfg->counters_ms = u32;
		break;
	case OPT_LIST_PROPS:
		c->list_props = true;
		break;
	default: /* --help, --version, --list-options: main prints */
		c->stop = o->id;
		return DGR_OPTS_STOP;
	}
	return 0;
}

/* Derived values and the checks between options. */
static int finish_config(struct cli *c, char *errbuf)
{
	struct fpga_config *cfg = &c->cfg;
	uint32_t max_e = FPGA_MAX_BUFFERS;

	if (cfg->fpga_memory > FPGA_PORT_MEMORY) {
		max_e = FPGA_MAX_LOCAL_BUFFERS;
	}
	if (!c->buffers_given) {
		cfg->nbuffers = cfg->fpga_memory / cfg->buffer_size;
		if (cfg->nbuffers > max_e) {
			cfg->nbuffers = max_e;
		}
	}
	if (cfg->nbuffers < FPGA_MIN_BUFFERS || cfg->nbuffers > max_e) {
		snprintf(errbuf, DGR_ERRBUF_SIZE,
			 "--buffers: %u is out of range %u..%u (at most 8 unless --fpga-memory "
			 "exceeds 65536)",
			 cfg->nbuffers, FPGA_MIN_BUFFERS, max_e);
		return -DGR_E_INVAL;
	}
	if ((uint64_t)cfg->nbuffers * cfg->buffer_size > cfg->fpga_memory) {
		snprintf(errbuf, DGR_ERRBUF_SIZE,
			 "--buffers: %u x %u bytes exceed the FPGA's %u bytes per port (raise "
			 "--fpga-memory to model the mux workaround)",
			 cfg->nbuffers, cfg->buffer_size, cfg->fpga_memory);
		return -DGR_E_INVAL;
	}
	if (cfg->max_ack_count > cfg->ack_width) {
		snprintf(errbuf, DGR_ERRBUF_SIZE,
			 "--max-ack-count: %u exceeds the window (--ack-window %u): the HDL "
			 "requires max_ack_count <= bitfield_width",
			 cfg->max_ack_count, cfg->ack_width);
		return -DGR_E_INVAL;
	}
	cfg->rate_sps = (uint64_t)llround(cfg->rate);
	if (c->tx_beats_given && c->tx_beats > cfg->buffer_size / 4) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "--tx-beats: %u is out of range 1..%u",
			 c->tx_beats, cfg->buffer_size / 4);
		return -DGR_E_INVAL;
	}
	/*
	 * Timer slack lets the kernel end the loop's sleeps a little late and so
	 * batch its wake-ups (1 ns: every buffer wakes it; 50 us cut its CPU time
	 * by a quarter at 250 MS/s, docs/fpga.md). A buffer sent late must not be
	 * what fills the FPGA's memory, so auto keeps it to an eighth of the time
	 * that memory holds at the rate.
	 */
	if (c->timer_slack_us >= 0) {
		cfg->timer_slack_ns = c->timer_slack_us ? (uint64_t)c->timer_slack_us * 1000u : 1u;
	} else {
		cfg->timer_slack_ns = 50000u;
		if (cfg->rate > 0) {
			double hold_ns = (double)cfg->nbuffers * cfg->buffer_size /
					 DGR_SAMPLE_BYTES / cfg->rate * 1e9;

			if (hold_ns / 8 < (double)cfg->timer_slack_ns) {
				cfg->timer_slack_ns =
				    hold_ns / 8 < 1 ? 1u : (uint64_t)(hold_ns / 8);
			}
		}
	}
	if (!c->seed_given) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		cfg->seed = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	}
	return 0;
}

/* The start-up print (on stderr with --json, so stdout stays one JSON document). */
static void print_config(const struct fpga_emu *e, const struct cli *c, FILE *out)
{
	char local[64] = "-", peer[64] = "(learned from the first packet)";
	struct dgr_addr a;

	if (e->tr) {
		dgr_transport_local_addr(e->tr, &a);
		dgr_addr_str(e->kind, &a, local, sizeof(local));
		if (c->topts.have_peer) {
			dgr_addr_str(e->kind, dgr_transport_peer(e->tr), peer, sizeof(peer));
		}
	}
	fprintf(out, "dgrdma-fpga: mode %s, %s %s -> %s, mtu %u (frames up to %u bytes)\n",
		fpga_mode_name(e->cfg.mode), e->kind == DGR_TRANSPORT_UDP ? "udp" : "ether", local,
		peer, e->mtu, e->frame_cap);
	fprintf(out,
		"  rate %.0f samples/s, buffers %u x %u bytes (FPGA memory %u), host buffers %u\n",
		e->cfg.rate, e->cfg.nbuffers, e->cfg.buffer_size, e->cfg.fpga_memory,
		e->cfg.host_buffers);
	fprintf(out,
		"  report_data_loss %s, coalesce %u us, local_src_id %u, remote_dst_id %u, acks "
		"max %u wait %u us, window %u (runs of at most %u)\n",
		e->cfg.report_data_loss ? "true" : "false", e->cfg.coalesce_us, e->cfg.local_src_id,
		e->cfg.remote_dst_id, e->cfg.max_acks, e->cfg.ack_wait_us, e->cfg.ack_width,
		e->cfg.max_ack_count);
	fprintf(out,
		"  clock %s, pacing %s (timer slack %.3f us), seed %llu, drop-frames %g, corrupt "
		"%g, drop-received %g, doorbell delay %u us, duration %.3f s%s\n",
		e->cfg.virtual_clock ? "virtual" : "real", e->cfg.pacing_busy ? "busy" : "sleep",
		(double)e->cfg.timer_slack_ns / 1e3, (unsigned long long)e->cfg.seed,
		e->cfg.drop_frames, e->cfg.corrupt, e->cfg.drop_rx, e->cfg.doorbell_delay_us,
		(double)e->cfg.duration_ns / 1e9, e->cfg.idle ? ", idle (waiting for DCP)" : "");
	fflush(out);
}

static void on_signal(int sig)
{
	(void)sig;
	fpga_stop_signal++;
}

static int write_summary_json(const struct fpga_emu *e, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "dgrdma-fpga: --summary-json: cannot write '%s': %s\n", path,
			strerror(errno));
		return -1;
	}
	fpga_print_props(e, f, true);
	if (fclose(f) != 0) {
		fprintf(stderr, "dgrdma-fpga: --summary-json: '%s': %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static void defaults(struct cli *c)
{
	struct fpga_config *cfg = &c->cfg;

	memset(c, 0, sizeof(*c));
	c->timer_slack_us = -1;
	dgr_transport_opts_init(&c->topts);
	cfg->mode = FPGA_MODE_ADC;
	cfg->rate = 10e6;
	cfg->buffer_size = FPGA_DEFAULT_BUFFER_SIZE;
	cfg->host_buffers = FPGA_DEFAULT_HOST_BUFFERS;
	cfg->fpga_memory = FPGA_PORT_MEMORY;
	cfg->report_data_loss = true;
	cfg->local_src_id = 1;
	cfg->remote_dst_id = 0;
	cfg->max_acks = 8;
	cfg->ack_wait_us = 100;
	cfg->ack_width = FPGA_ACK_DEFAULT_WIDTH;
	cfg->max_ack_count = FPGA_ACK_DEFAULT_MAX_COUNT;
	cfg->restart_on_seq1 = true;
	cfg->clock_freeze = true;
	cfg->tick_ns = 10000;
	cfg->drain_ms = 500;
	cfg->counters_ms = 100;
}

int main(int argc, char **argv)
{
	static struct fpga_emu emu;
	struct fpga_emu *e = &emu;
	char errbuf[DGR_ERRBUF_SIZE] = "";
	char diag[1024];
	struct sigaction sa;
	struct cli c;
	int rc, status = DGR_EXIT_FAILED;

	defaults(&c);
	rc = dgr_opts_parse(&fpga_options, argc, argv, -1, DGR_OPTS_NO_OPERANDS, fpga_option, &c,
			    NULL, errbuf);
	if (rc < 0) {
		fprintf(stderr, "dgrdma-fpga: %s\n", errbuf);
		return DGR_EXIT_USAGE;
	}
	if (rc == DGR_OPTS_STOP) {
		if (c.stop == 'h') {
			dgr_opts_usage(&fpga_options, stdout);
		} else if (c.stop == OPT_VERSION) {
			printf("dgrdma-fpga (dgrdma-tools) %s\n", DGR_VERSION);
		} else {
			dgr_opts_list_argv(&fpga_options, argc, argv, stdout);
		}
		return DGR_EXIT_OK;
	}
	if (finish_config(&c, errbuf) < 0) {
		fprintf(stderr, "dgrdma-fpga: %s\n", errbuf);
		return DGR_EXIT_USAGE;
	}
	if (c.list_props) {
		fpga_print_prop_table(stdout);
		return DGR_EXIT_OK;
	}
	if (dgr_transport_opts_finish(&c.topts, false, errbuf) < 0) {
		fprintf(stderr, "dgrdma-fpga: %s\n", errbuf);
		return DGR_EXIT_USAGE;
	}
	if (c.topts.kind == DGR_TRANSPORT_NONE) {
		fprintf(stderr, "dgrdma-fpga: no transport: give --if IFACE --peer MAC or --udp "
				"--bind ADDR:PORT (see --help)\n");
		return DGR_EXIT_USAGE;
	}
	e->cfg = c.cfg;
	e->rng = e->cfg.seed ? e->cfg.seed : 0x9E3779B97F4A7C15ull;
	fpga_acktrack_init(&e->ack, e->cfg.ack_width, e->cfg.max_ack_count);
	fpga_txnrecord_init(&e->txns);
	fpga_adc_init(&e->adc, e->cfg.rate, 0, e->cfg.report_data_loss);
	fpga_dac_init(&e->dac, e->cfg.check_ramp);
	fpga_perftest_init(&e->pt);
	e->pt.tx_run = c.tx_run;
	e->pt.tx_messages = c.tx_messages;
	e->pt.tx_beats = c.tx_beats_given ? c.tx_beats : e->cfg.buffer_size / 4;
	e->pt.tx_message_gap = c.tx_gap;
	if (fpga_producer_init(&e->prod, e->cfg.buffer_size, e->cfg.nbuffers, e->cfg.host_buffers,
			       errbuf) < 0 ||
	    fpga_consumer_init(&e->cons, e->cfg.buffer_size, e->cfg.nbuffers, e->cfg.host_buffers,
			       errbuf) < 0) {
		fprintf(stderr, "dgrdma-fpga: %s\n", errbuf);
		goto out;
	}
	c.topts.dcp = true;
	/* a file of an earlier run must not say ready before these sockets are bound */
	if (e->cfg.ready_file && dgr_ready_file_clear(e->cfg.ready_file, errbuf) < 0) {
		fprintf(stderr, "dgrdma-fpga: %s\n", errbuf);
		goto out;
	}
	{
		/*
		 * The host may send E buffers back to back into the input port: the
		 * socket must hold them (a lost frame locks the stream).
		 */
		uint64_t want = 4ull * e->cfg.nbuffers * e->cfg.buffer_size;
		char warn[DGR_ERRBUF_SIZE];

		want = want < (4u << 20) ? (4u << 20) : want;
		rc = dgr_transport_open_sized(&c.topts, (int)want, &e->tr, errbuf, warn);
		if (rc == 0 && warn[0]) {
			fprintf(stderr, "dgrdma-fpga: warning: %s\n", warn);
		}
	}
	if (rc < 0) {
		fprintf(stderr, "dgrdma-fpga: %s\n", errbuf);
		goto out;
	}
	e->kind = dgr_transport_kind_of(e->tr);
	e->have_peer = c.topts.have_peer;
	e->mtu = dgr_transport_mtu(e->tr);
	e->frame_cap = (uint32_t)dgr_transport_frame_cap(e->tr);
	if (fpga_tx_init(e, errbuf) < 0) {
		fprintf(stderr, "dgrdma-fpga: %s\n", errbuf);
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	prctl(PR_SET_TIMERSLACK, (unsigned long)e->cfg.timer_slack_ns, 0, 0, 0);
	if (!e->cfg.quiet) {
		print_config(e, &c, e->cfg.json ? stderr : stdout);
	}
	if (e->cfg.ready_file && dgr_ready_file_write(e->cfg.ready_file, errbuf) < 0) {
		fprintf(stderr, "dgrdma-fpga: %s\n", errbuf);
		goto out;
	}
	fpga_run(e);
	status = DGR_EXIT_OK;
	if (fpga_rx_diagnosis(e, diag, sizeof(diag))) {
		fprintf(stderr, "dgrdma-fpga: diagnosis: %s\n", diag);
	}
	if (e->cfg.json) {
		fpga_print_props(e, stdout, true);
	} else if (!e->cfg.quiet) {
		printf("dgrdma-fpga: summary after %.3f s\n", (double)(e->now_ns - e->t0_ns) / 1e9);
		fpga_print_props(e, stdout, false);
		if (e->freeze.count > 0) {
			printf("dgrdma-fpga: the emulator was not running %" PRIu64
			       " time%s, so it froze its FPGA clocks for %.1f ms in all (longest "
			       "%.1f ms): real hardware never stops (docs/fpga.md section 6)\n",
			       e->freeze.count, e->freeze.count == 1 ? "" : "s",
			       (double)e->freeze.total_ns / 1e6, (double)e->freeze.max_ns / 1e6);
		}
	}
	if (e->cfg.summary_json && write_summary_json(e, e->cfg.summary_json) < 0) {
		status = DGR_EXIT_FAILED;
	}
out:
	if (e->cfg.ready_file) {
		(void)dgr_ready_file_clear(e->cfg.ready_file, errbuf);
	}
	fpga_tx_free(e);
	dgr_transport_close(e->tr);
	fpga_producer_free(&e->prod);
	fpga_consumer_free(&e->cons);
	return status;
}
