/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dgrdma-capture's option table (stack/cli/opts.h). dgrdma-capture is a bash script: it reads
 * its command line through dgrdma-opts (stack/tools/dgrdma-opts.c), which parses it with this
 * table up to COMMAND and hands the script the checked options (docs/cli.md).
 */
#ifndef DGR_CAPTURE_OPTS_H
#define DGR_CAPTURE_OPTS_H

#include "opts.h"

/* The option ids of the table (getopt's val): what dgrdma-opts reports is the row's name. */
enum {
	CAP_OPT_OUTPUT = 256,
	CAP_OPT_IF,
	CAP_OPT_FILTER,
	CAP_OPT_SNAPLEN,
	CAP_OPT_RING_FILES,
	CAP_OPT_RING_FILE_SIZE,
	CAP_OPT_RING_DURATION,
	CAP_OPT_TRACE_FILE_SIZE,
	CAP_OPT_TRACE_FILE_COUNT,
	CAP_OPT_LONG,
	CAP_OPT_FLIGHT_RECORDER,
	CAP_OPT_INCIDENT_LATENCY_US,
	CAP_OPT_INCIDENT_AFTER,
	CAP_OPT_MAX_INCIDENTS,
	CAP_OPT_NO_EVENT_TRIGGERS,
	CAP_OPT_PCAP_BUFFER,
	CAP_OPT_EVENT_RATE,
	CAP_OPT_DRAIN_MS,
	CAP_OPT_SUBBUF_SIZE,
	CAP_OPT_NUM_SUBBUF,
	CAP_OPT_EVENTS,
	CAP_OPT_ALL_EVENTS,
	CAP_OPT_ONLY_COMMAND,
	CAP_OPT_TRACE_PID,
	CAP_OPT_SESSION,
	CAP_OPT_KEEP_SESSIOND,
	CAP_OPT_NO_TRACE,
	CAP_OPT_LIVE,
	CAP_OPT_RELAYD,
	CAP_OPT_RELAYD_LIVE_PORT,
	CAP_OPT_LIVE_WAIT,
	CAP_OPT_LIVE_TIMER_MS,
	CAP_OPT_PRELOAD,
	CAP_OPT_NO_PCAP,
	CAP_OPT_KERNEL,
	CAP_OPT_KERNEL_BACKEND,
	CAP_OPT_KERNEL_BUFFER,
	CAP_OPT_SAMPLE_RATE,
	CAP_OPT_FPGA_BUFFERS,
	CAP_OPT_JSON,
	CAP_OPT_HELP,
	CAP_OPT_VERSION,
	CAP_OPT_LIST_OPTIONS,
};

/* dgrdma-capture's options, in the order of its --help. */
extern const struct dgr_opt_table dgr_capture_options;

#endif
