/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report of latency-report: everything it found, printed once through
 * the print layer (text by default, JSON with --json; same code for both).
 */
#ifndef DGR_ANALYSIS_REPORT_H
#define DGR_ANALYSIS_REPORT_H

#include <stdbool.h>

#include "cli.h"
#include "print.h"
#include "classify.h"
#include "host_events.h"
#include "join.h"
#include "run_folder.h"
#include "run_info.h"
#include "stats.h"
#include "vicious.h"
#include "wire_analysis.h"

#define REPORT_MAX_APART 3

/* Whose trace events count (host_analysis.only_pids), and why. */
enum host_pids_from {
	HOST_PIDS_ALL = 0,	      /* every process's: no --pid, no run.json command_pid */
	HOST_PIDS_OPTIONS,	      /* --pid */
	HOST_PIDS_RUN_JSON,	      /* run.json's command_pid and trace.trace_pids */
	HOST_PIDS_ALL_COMMAND_SILENT, /* every process's: the command_pid has no event */
};

struct stall_cause;

struct report {
	const char *const *inputs;
	unsigned int n_inputs;
	/* the run folders among the inputs: which parts were read, which not and why */
	const struct run_folder *folders;
	unsigned int n_folders;
	/* parts that do not belong together: their times do not overlap (report_check_apart) */
	char apart[REPORT_MAX_APART][256];
	unsigned int n_apart;
	/* the real-time clock stepped during the run (report_check_apart): what it means; "" none
	 */
	char clock_step[320];
	const struct wire_analysis *wire; /* NULL: no capture */
	const struct host_analysis *host; /* NULL: no trace */
	enum host_pids_from host_pids_from;
	struct run_info run;
	const struct fpga_counters *fpga; /* the FPGA's own counters; NULL: none given */
	const char *fpga_source;	  /* the file they came from */
	const char *tolerable_source;	  /* "options", "run.json", "trace", ..., "estimated",
					     "estimated from the trace", "none" */
	/* the trace's stream facts that differ from the ones used (options or run.json) */
	char facts_disagree[4][160];
	unsigned int n_facts_disagree;
	uint64_t tolerable_ns[2]; /* per wire direction (RX, TX) */
	uint64_t host_tolerable_ns;
	/*
	 * the data rate (bytes/s, per direction) estimated from the trace's counters
	 * when no fact and no capture gave the tolerable latency; 0 otherwise
	 */
	uint64_t rate_estimate[2];
	/* the joined decomposition, when both a capture and a trace were read */
	const struct series *wire_to_stack, *stack_to_wire;
	uint64_t joined, negative_w2s, negative_s2w;
	struct join_result join; /* the whole account of the join (join.h) */
	/* the capture's and the trace's times of a frame's arrival (join.h) */
	const struct series *arrival_offset;
	uint64_t arrival_offsets, trace_arrival_first;
	/* the verdict, and the summary it was computed from (reused when printing) */
	struct classification verdict;
	const struct series *verdict_s;
	struct summary verdict_sum;
	uint64_t verdict_span, verdict_tol;
	const char *verdict_series; /* which series decided: "wire.rx", "host", ... */
	/*
	 * "tx" or "rx": the trace's host sent (tx) or received (rx) the data, but
	 * the capture was read the other way round (its host side by the data
	 * path's default or --path): the verdict is then the trace's. "" otherwise.
	 */
	const char *path_from_trace;
	bool verdict_tx;
	/* what the verdict adds for the user (docs/analysis.md, "Headroom and shape") */
	struct lat_shape shape;	       /* RX and in-host series */
	struct headroom headroom;      /* RX and in-host series */
	struct occupancy occ;	       /* the TX path's FPGA buffer occupancy */
	bool underruns_known;	       /* the trace has the emulator's events */
	uint64_t underruns;	       /* underrun periods it reported */
	const struct vicious *vicious; /* the vicious cycle finding (NULL: no capture) */
	char summary[512];	       /* the verdict in one line */
	bool so_far; /* --live's intervals: the run goes on (no "never started") */
	/* the stalls' causes, ranked (NULL: no trace, or no in-host doorbell) */
	const struct stall_cause *stalls;
};

/* --fail-on: verdicts that make latency-report exit DGR_EXIT_FINDING. */
#define FAIL_ON_JITTER	   (1u << 0)
#define FAIL_ON_THROUGHPUT (1u << 1)
#define FAIL_ON_UNKNOWN	   (1u << 2)
#define FAIL_ON_LOSS	   (1u << 3)

/*
 * Parses --fail-on's comma-separated list (jitter-bound, throughput-bound,
 * unknown, not-healthy = all three, loss) into *mask. Returns 0, or
 * -DGR_E_INVAL with the offending word named in errbuf (DGR_ERRBUF_SIZE).
 */
int report_parse_fail_on(const char *list, unsigned int *mask, char *errbuf);

/*
 * The run's status, from how its recorded command ended (run.json): "ok",
 * "failed", "interrupted" or "unknown", with a reason.
 */
const char *report_run_status(const struct report *r, char *reason, size_t size);

/* The exit status for the report: 3 when the run failed, else 1 for a --fail-on finding, else 0. */
int report_exit_status(const struct report *r, unsigned int fail_on);

/*
 * Judges the series s (time order; NULL: no matched doorbell) and fills the
 * verdict, shape, headroom (or the TX occupancy when tx) and summary of *r
 * (r->run, r->host and r->wire must be set). st: the wire counts of the
 * series' direction (NULL for the in-host series), for an estimated
 * headroom. data_transactions: how many the inputs hold, for a verdict
 * without doorbells. Returns 0, -DGR_E_NOMEM when memory runs out, or
 * -DGR_E_SYS when a series' temporary file cannot be read back.
 */
int report_verdict(struct report *r, const struct series *s, uint64_t span_ns,
		   uint64_t tolerable_ns, bool tx, const struct wa_dir_stats *st,
		   uint64_t data_transactions);

/*
 * Names in r->apart the parts whose times do not overlap, from r->wire's
 * frames, r->host's events and the run's real-time span (r->run, run.json's
 * clocks): a capture or a trace of another run. Parts without times are
 * not compared. Also says in r->clock_step when the real-time clock was
 * stepped during the run, which parts the capture's times from the trace's.
 */
void report_check_apart(struct report *r);

/* Most mitigations report_actions gives (the vicious cycle's cure and the regime's). */
#define REPORT_MAX_ACTIONS 16

/*
 * The report's actions, most important first: the vicious cycle's cure when
 * there is one, then the verdict's mitigations. Fills out[] with up to max
 * static strings; returns how many.
 */
unsigned int report_actions(const struct report *r, const char **out, unsigned int max);

/*
 * The summary screen: verdict, its one-line reason, headroom, the loss
 * account in one line, the run's status, the findings beside the verdict and
 * the first three actions ("summary" in JSON; --brief prints only this).
 */
void report_print_summary(struct dgr_pr *p, const struct report *r);

/*
 * Prints the whole report: as text the summary screen first, then the
 * details. Returns 0, or -DGR_E_NOMEM / -DGR_E_SYS when a summary could not
 * be computed (memory, or a series' temporary file unread).
 */
int report_print(struct dgr_pr *p, const struct report *r);

#endif
