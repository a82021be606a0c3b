/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The run facts latency-report needs from a dgrdma-capture run.json (or the
 * command line): buffer counts, buffer size and stream rate, from which the
 * tolerable latency (N_c + N_p) * S / R follows (docs/protocol.md).
 *
 * run.json is parsed with jansson and checked against the dgrdma-run/2 schema
 * (docs/run-json.md, docs/tracepoints.md, the checks in docs/reliability.md),
 * or the dgrdma-run/1 one: a file that breaks it is refused with the key and
 * the value named, never read in part.
 */
#ifndef DGR_ANALYSIS_RUN_INFO_H
#define DGR_ANALYSIS_RUN_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dgrdma/stats.h>

#include "fpga_counters.h"

/* The data path of a run: RX is FPGA -> host (the ADC), TX host -> FPGA (the DAC). */
enum run_path {
	RUN_PATH_UNKNOWN = 0,
	RUN_PATH_RX,
	RUN_PATH_TX,
};

#define RUN_INFO_MAX_PORTS  34 /* a --bind and 16 --peers, twice over */
#define RUN_INFO_PATH_LEN   256
#define RUN_INFO_ADDR_LEN   32
#define RUN_INFO_STATUS_LEN 24
#define RUN_INFO_KERNEL_LEN 128

/* What run.json says of a part of the run folder ("capture", "trace"). */
enum run_part_state {
	RUN_PART_UNSAID = 0,   /* no such key (a run.json written by hand) */
	RUN_PART_NOT_RECORDED, /* null: dgrdma-capture --no-pcap, --no-trace */
	RUN_PART_RECORDED,     /* an object: recorded at path */
	RUN_PART_ELSEWHERE,    /* an object with path null: a trace sent to a given relayd */
};

#define RUN_INFO_MAX_TRACE_PIDS 15 /* dgrdma-capture's --trace-pid limit */
#define RUN_INFO_LOST_LEN	256

struct run_part {
	enum run_part_state state;
	char path[RUN_INFO_PATH_LEN]; /* RUN_PART_RECORDED: relative to the folder */
	bool unreadable;	      /* trace.readable false: dgrdma-capture found it unreadable */
	/* "lost": why dgrdma-capture's recording of the part ended before the run did ("": it
	 * did not); such a part holds less of the run than the folder says */
	char lost[RUN_INFO_LOST_LEN];
	/* the trace's "trace_pids": processes recorded besides the command (--trace-pid) */
	uint32_t trace_pids[RUN_INFO_MAX_TRACE_PIDS];
	unsigned int n_trace_pids;
};

struct run_info {
	uint64_t host_buffers, fpga_buffers, buffer_size; /* 0: unknown */
	uint64_t rate_bytes;				  /* bytes per second; 0: unknown */
	/* how the recorded command ended (run.json's "exit_status", "interrupted") */
	bool exit_known;
	int64_t exit_status;
	bool interrupted;
	bool incident; /* "incident": a flight recorder's window, cut at both ends */
	/*
	 * The roles the recorded command gives (a dgrdma-host, dgrdma-ctl or
	 * dgrdma-fpga command): the data path, the UDP ports it used, and the host's own
	 * UDP address when the command names it ("" unknown).
	 */
	enum run_path path;
	uint16_t udp_ports[RUN_INFO_MAX_PORTS];
	unsigned int n_udp_ports;
	char host_addr[RUN_INFO_ADDR_LEN];
	/*
	 * The losses the recorded command counted itself (run.json's "losses",
	 * from its --summary-json): dgrdma-host's status and ramp-check loss, or
	 * dgrdma-fpga's counters.
	 */
	bool host_summary_known;
	char host_status[RUN_INFO_STATUS_LEN];
	char host_kernel[RUN_INFO_KERNEL_LEN]; /* host.kernel: the recorded machine's, "" unknown */
	uint64_t host_samples_lost;
	bool fpga_known;
	struct fpga_counters fpga;
	uint32_t command_pid; /* the recorded command's pid (its events' vpid); 0 unknown */
	/*
	 * The tracepoint provider of the recorded command's events ("dgrdma:" for
	 * dgrdma-host and dgrdma-ctl, "dgrdma_fpga:" for dgrdma-fpga), NULL when
	 * the command names none of them
	 */
	const char *command_provider;
	/*
	 * The parts of the run folder (run.json's "capture" and "trace"), and
	 * the run's real-time span (clocks.start/end, ns since the epoch; 0
	 * unknown): set from each run.json read, never kept from before.
	 */
	struct run_part capture, trace;
	struct run_part kernel; /* "kernel": dgrdma-capture --kernel's trace (perf's CTF) */
	uint64_t realtime_start_ns, realtime_end_ns;
	/*
	 * How far (realtime - monotonic) moved between clocks.start and clocks.end,
	 * and the two readings' uncertainty: NTP's slewing moves both clocks
	 * alike, so only a step of the real-time clock (clock_settime: an NTP
	 * step, a VM's clock set by its host) moves it, and the capture's times
	 * (real time) then part from the trace's (monotonic) by that much
	 */
	bool realtime_moved_known;
	int64_t realtime_moved_ns;
	uint64_t realtime_moved_uncertainty_ns;
};

/* A move of the real-time clock beyond the readings' uncertainty and this is a step. */
#define RUN_REALTIME_STEP_NS 1000

#define RUN_INFO_FORMAT		 "dgrdma-run/2" /* the format dgrdma-capture writes */
#define RUN_INFO_FORMAT_1	 "dgrdma-run/1" /* the first, still read (run_info_v1.c) */
#define RUN_INFO_MAX_BUFFERS	 65535u
#define RUN_INFO_MAX_BUFFER_SIZE (1024u * 1024 * 1024)
#define RUN_INFO_MAX_RATE	 1e12 /* samples/s */
#define RUN_INFO_MAX_FILE	 (16u << 20)

/*
 * Reads the facts of a run.json: "stream" {"sample_rate" (samples/s, 4 bytes
 * each), "fpga_buffers", "host_buffers", "buffer_size", "rate_bytes"}, else the
 * same of its "settings", the recorded tool's own (docs/run-json.md; a
 * "sample_rate" of 0 is no rate), how the command ended ("exit_status",
 * "interrupted"), the parts it recorded ("capture" and "trace": null, or
 * their "path", a string of 1..255 bytes or, for the trace only, null; the
 * trace's "readable" and "trace_pids", at most 15 pids), the run's real-time
 * span (clocks.start/end), and from the settings its roles: the provider of
 * its "tool", the data "path" (rx, tx), with "transport" udp the UDP ports of
 * its "local", "peer" and "peers" addresses, and the host's address
 * (dgrdma-host's "local", dgrdma-fpga's "peer") when it is an IPv4 address
 * other than 0.0.0.0. A dgrdma-run/1 file has no settings: they are read
 * from its recorded "command" by its one conversion step (run_info_v1.h).
 * Values already set in *ri are kept (the command line wins). Returns 0,
 * -DGR_E_SYS when the file cannot be read (a folder, no permission, larger
 * than RUN_INFO_MAX_FILE), or -DGR_E_INVAL when it is no valid dgrdma-run/2
 * or dgrdma-run/1 document; errbuf (DGR_ERRBUF_SIZE) then starts with path
 * and names the key and value. *ri is changed only on success.
 */
int run_info_read(const char *path, struct run_info *ri, char *errbuf);

/*
 * Whether after holds any of the tolerable latency's four facts (host and FPGA
 * buffers, buffer size, rate) that before did not: what a run_info_read() from
 * before to after took from run.json (how the command ended is no such fact).
 */
bool run_info_facts_added(const struct run_info *before, const struct run_info *after);

/*
 * The same on run.json's text (len bytes, need not be NUL-terminated); errbuf
 * names the key ("stream.sample_rate: ...") or the line and column of a syntax
 * error, without a path.
 */
int run_info_parse(const char *text, size_t len, struct run_info *ri, char *errbuf);

/*
 * The largest tolerable latency (10^18 ns, 31.7 years): a larger product of the
 * facts (65535 + 65535 buffers of 1 GiB at 4 bytes/s) is taken as this, so
 * sums with capture times and signed margins cannot overflow.
 */
#define RUN_INFO_MAX_TOLERABLE_NS DGR_TOLERABLE_MAX_NS

/*
 * Reads the counters of an object holding any of the keys above (other keys
 * are ignored: the emulator's summary has many). Returns 0, or -DGR_E_INVAL
 * with errbuf naming the key (a value that is no whole number 0..2^53, no
 * counter at all, more trailing underruns than underruns); *fc is changed only
 * on success.
 */
int fpga_counters_parse(const char *text, size_t len, struct fpga_counters *fc, char *errbuf);

/* The same from a file; -DGR_E_SYS when it cannot be read. errbuf starts with path. */
int fpga_counters_read(const char *path, struct fpga_counters *fc, char *errbuf);

#endif
