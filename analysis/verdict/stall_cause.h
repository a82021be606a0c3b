/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why each stall happened (issue 33, item 2): the in-host doorbells that
 * stalled (the rule is in docs/analysis.md, "Why a stall happened"), where
 * the late transaction waited (the stage: the kernel before the stack read
 * it, the stack before the consumer took it, the consumer, before the
 * doorbell left), what the thread of that stage did meanwhile (from the
 * kernel trace, kernel_sched.h), and the run's causes ranked by stall time.
 * Printed through the print layer (text and --json from the same calls).
 */
#ifndef DGR_ANALYSIS_STALL_CAUSE_H
#define DGR_ANALYSIS_STALL_CAUSE_H

#include <stdbool.h>
#include <stdint.h>

#include "print.h"
#include "host_events.h"
#include "kernel_sched.h"
#include "wire_threads.h"

#define SC_MAX_STALLS 256 /* stalls kept (the worst); more are counted */
#define SC_MAX_CAUSES 16
/* who ran on every CPU (cpu_runs): kept for this many worst stalls, and each cause's worst */
#define SC_LANES_STALLS 5

enum sc_stage {
	SC_STAGE_KERNEL = 0, /* the frame's arrival -> the stack read it (txn_complete) */
	SC_STAGE_QUEUED,     /* complete -> the consumer took the buffer (buffer_acquire) */
	SC_STAGE_CONSUMER,   /* acquire -> release: the consumer's own work */
	SC_STAGE_DOORBELL,   /* release -> the doorbell left (doorbell_sent) */
	SC_STAGE_COUNT,
};

enum sc_cause {
	SC_CAUSE_NONE = 0,     /* no kernel trace: not attributed */
	SC_CAUSE_UNSEEN,       /* the thread has no event in the kernel trace during the stall */
	SC_CAUSE_STOPPED,      /* SIGSTOP or a tracer: nothing in the kernel to blame */
	SC_CAUSE_HIGHER_PRIO,  /* a task of higher priority held the thread's CPU */
	SC_CAUSE_RT_THROTTLED, /* a real-time thread held back while a normal task ran */
	SC_CAUSE_WRITEBACK,    /* a task doing writeback or block I/O held it (kworker, a writer) */
	SC_CAUSE_OTHER_TASK,   /* another task of the same or lower priority held it */
	SC_CAUSE_SOFTIRQ,      /* softirq handlers held it */
	SC_CAUSE_IRQ,	       /* interrupt handlers held it */
	SC_CAUSE_WAKEUP,       /* runnable on an idle CPU: the wake-up itself was late */
	SC_CAUSE_BLOCKED,      /* the thread slept (on a lock, a condition, I/O) */
	SC_CAUSE_RUNNING,      /* the thread ran: its own work took the time */
	SC_CAUSE_COUNT,
};

/* One in-host doorbell, its stage boundaries on the trace's time axis. */
struct sc_bell {
	uint64_t arrival; /* the completing frame's kernel arrival; = complete when unknown */
	uint64_t complete, acquire, release, sent; /* acquire, release 0: parts missing */
	unsigned int conn;
	int32_t tid[SC_STAGE_COUNT]; /* the thread of each stage from the events (0 unknown) */
};

struct sc_stall {
	uint64_t start;	     /* the worst doorbell's arrival (or completion) */
	uint64_t sent;	     /* when its doorbell left (the CSV's and the plot's time of it) */
	uint64_t duration;   /* its latency (from the arrival when known) */
	uint64_t doorbells;  /* consecutive doorbells above the threshold */
	enum sc_stage stage; /* the longest stage of the worst doorbell */
	uint64_t stage_start, stage_end;
	uint8_t role; /* the thread of that stage (ha_role_name) */
	bool thread_known;
	int32_t tid;	 /* as the UST trace saw it (gettid in the host's PID namespace) */
	bool attributed; /* the kernel window was computed */
	struct ks_window w;
	enum sc_cause cause;
	struct ks_run *runs; /* who held each CPU in the stage's window (the worst few only) */
	size_t n_runs;
	bool runs_truncated;
};

struct sc_cause_sum {
	enum sc_cause cause;
	uint8_t role;
	uint64_t stalls, stall_ns, window_ns;
	int64_t blocked_state;		      /* the first stall's, for SC_CAUSE_BLOCKED */
	struct ks_culprit c[KS_MAX_CULPRITS]; /* summed over its stalls, by time */
	unsigned int n_c;
	char text[512];
};

/* doorbells kept in memory (4 MiB): past them, the oldest go to a temporary file */
#define SC_BELL_WINDOW 65536u

struct stall_cause {
	/*
	 * The doorbells, to be read in order of completion: the latest in
	 * bells[] (at most SC_BELL_WINDOW, unless no temporary file can be
	 * made), the older ones in spill_fd. When the window is full it is
	 * sorted and its first half moves to the file, so a doorbell may come
	 * up to half a window out of order. One that completed before a
	 * doorbell already moved sets unordered: sc_analyse then reads them all
	 * back and sorts them in memory (the answer is the same, the memory is
	 * not bounded).
	 */
	struct sc_bell *bells;
	size_t n_win, cap_bells; /* doorbells n_spilled .. n_bells - 1 */
	uint64_t n_bells, n_spilled;
	uint64_t spilled_last_complete; /* the last doorbell moved to the file */
	uint64_t first_arrival;		/* the earliest arrival of all (the lanes' origin) */
	int spill_fd;			/* -1: none yet */
	bool spill_failed, unordered;
	bool p50_from_histogram; /* more doorbells than the exact limit (stats.h) */
	bool from_arrival;	 /* the series is arrival -> doorbell (every bell had it) */
	bool all_had_arrival;
	uint64_t p50_ns, threshold_ns, tolerable_ns;
	struct sc_stall *stalls; /* worst first */
	unsigned int n_stalls;
	uint64_t stalls_total;	      /* stalls found (n_stalls of them kept) */
	uint64_t stall_ns_total;      /* the stall time of all stalls found */
	uint64_t stall_ns_kept;	      /* of the n_stalls kept: the time the causes share */
	const struct kernel_sched *k; /* NULL: no kernel trace */
	const char *kernel_path;
	bool csv_origin_known; /* csv_origin_ns is the origin of latency-report's CSV times */
	uint64_t csv_origin_ns;
	struct sc_cause_sum causes[SC_MAX_CAUSES];
	unsigned int n_causes;
	/* the doorbells are the capture's (a host without UST events): how its threads were found
	 */
	const struct wire_threads *wire;
};

/* Returns 0, or -DGR_E_NOMEM when memory runs out. */
int sc_init(struct stall_cause *sc);
void sc_free(struct stall_cause *sc);

/*
 * Adds a matched in-host doorbell (host_analysis.on_doorbell). Returns 0, or
 * -DGR_E_NOMEM when memory runs out.
 */
int sc_add_bell(struct stall_cause *sc, const struct ha_doorbell *d);

/*
 * Adds an on-the-wire doorbell of a host without UST events, on the kernel
 * trace's axis: its data frame's arrival, the receiving thread's copy of it
 * (0 unknown), its doorbell frame; tid_rx and tid_tx are the receiving and
 * the sending thread (as the recorder saw them; 0 unknown). Its stages are
 * the kernel (arrival -> copy) and the doorbell (copy -> sent). Returns 0, or
 * -DGR_E_NOMEM when memory runs out.
 */
int sc_add_wire_bell(struct stall_cause *sc, uint64_t arrival, uint64_t copy, uint64_t sent,
		     int32_t tid_rx, int32_t tid_tx);

/*
 * Finds the stalls among the doorbells added (tolerable_ns 0: unknown), each
 * one's stage and thread (the threads of h, NULL: none known), and, with a
 * kernel trace k (NULL: none), what that thread did and the causes ranked.
 * The stall threshold's p50 is exact up to stats_exact_limit() doorbells,
 * and from a log-linear histogram above (p50_from_histogram). Returns 0,
 * -DGR_E_NOMEM when memory runs out, or -DGR_E_SYS when the doorbells'
 * temporary file cannot be read back.
 */
int sc_analyse(struct stall_cause *sc, uint64_t tolerable_ns, const struct host_analysis *h,
	       const struct kernel_sched *k);

/* "kernel", "stack", "consumer", "doorbell" and what each means. */
const char *sc_stage_label(enum sc_stage s);
const char *sc_stage_text(enum sc_stage s);
/* "stopped", "higher-priority-task", ... */
const char *sc_cause_label(enum sc_cause c);

/* A culprit in words: "kworker/u4:2 (writeback)", "NET_RX softirq", "IRQ 36 virtio1-req.0". */
void sc_culprit_name(const struct kernel_sched *k, const struct ks_culprit *c, char *buf,
		     size_t size);

/*
 * The series the stalls were found in, in words for a sentence ("on the wire", "from the
 * frame's kernel arrival", "from txn_complete"): it may not be the verdict's.
 */
const char *sc_series_words(const struct stall_cause *sc);

/* Prints "stalls" (worst first) and "causes". */
void sc_print(struct dgr_pr *p, const struct stall_cause *sc);

#endif
