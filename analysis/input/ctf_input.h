/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Trace input: reads an LTTng (CTF) trace with libbabeltrace2's C API
 * (src.ctf.fs -> flt.utils.muxer -> a simple sink; in the trace reader's
 * module, trace_module.h, which only the read functions load) and feeds
 * every event, in time order, to the in-host analysis. src.ctf.fs needs the
 * folders that hold a `metadata` file; they are searched for below the given
 * folder. A damaged trace is refused with one line, within seconds
 * (ctf_input.c).
 */
#ifndef DGR_ANALYSIS_CTF_INPUT_H
#define DGR_ANALYSIS_CTF_INPUT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "host_events.h"

/* True when path is a folder with a CTF `metadata` file somewhere below it. */
bool ctf_input_is_trace(const char *path);

/*
 * The same with the reason when not: returns 0 when a `metadata` file lies
 * below path, else -DGR_E_INVAL with errbuf (DGR_ERRBUF_SIZE) saying so and
 * naming the first folder below path that could not be opened, and why.
 */
int ctf_input_find(const char *path, char *errbuf);

/* A trace read that yields nothing for this long is stopped (seconds). */
#define CTF_STALL_S 10

struct ctf_read_opts {
	bool verbose;	      /* show libbabeltrace2's own log lines (warnings) on stderr */
	unsigned int stall_s; /* 0: CTF_STALL_S */
};

/*
 * Reads every trace below path into h. The trace folders are checked first
 * (ctf_check.h); then a child process runs the babeltrace2 graph and sends the
 * events over a pipe, and is stopped when it sends nothing for the stall
 * limit. Event times are nanoseconds from the clock's origin (LTTng's
 * monotonic clock class carries the offset that puts it on the real-time
 * axis). Returns 0, or a negative DGR_E_* code with errbuf (one line naming
 * the trace) filled: -DGR_E_INVAL for a trace that is damaged or that
 * babeltrace2 refuses, -DGR_E_TIMEOUT for a stalled read, -DGR_E_SYS or
 * -DGR_E_NOMEM. Events read before a failure have been fed to h. opts may be
 * NULL.
 */
int ctf_input_read(const char *path, struct host_analysis *h, const struct ctf_read_opts *opts,
		   char *errbuf);

/* The parts of an LTTng live URL, net://RELAYD[:PORT]/host/HOSTNAME/SESSION. */
struct ctf_live_url {
	char relay[128]; /* net://RELAYD[:PORT] */
	char hostname[64];
	char session[128];
};

/* Splits url into *u. Returns 0, or -DGR_E_INVAL with errbuf naming the accepted form. */
int ctf_live_url_parse(const char *url, struct ctf_live_url *u, char *errbuf);

/* Live sessions followed at once (latency-report --live URL...). */
#define CTF_LIVE_MAX_SESSIONS 8

/* How a live read reports while it runs (latency-report --live). */
struct ctf_live_opts {
	uint64_t tick_ns; /* on_tick every tick_ns of wall-clock time */
	/* returns 0, or a negative DGR_E_* code with errbuf filled, which ends the read */
	int (*on_tick)(void *ctx, char *errbuf);
	void *ctx;
	/*
	 * when not NULL: other descriptors to watch (live captures, a timer),
	 * extra_fds[0..n_extra); on_extra is called when any is readable
	 */
	int extra_fds[CTF_LIVE_MAX_SESSIONS];
	unsigned int n_extra;
	int (*on_extra)(void *ctx, char *errbuf);
	volatile sig_atomic_t *stop; /* set (by a signal handler): end the read, no error */
	bool stopped;		     /* out: the read ended because of *stop */
};

/*
 * Follows the LTTng live sessions at urls[0..n) (through lttng-relayd, with
 * babeltrace2's src.ctf.lttng-live, one reader process each) into
 * hs[0..n), calling live->on_tick on the way, until every session is
 * destroyed or *live->stop is set. Each relay daemon is asked first whether
 * it has the session. Returns 0, or a negative DGR_E_* code with errbuf
 * filled (naming the URL): -DGR_E_INVAL for a bad URL or count, a relayd
 * that cannot be reached or has no such session, or a read that fails;
 * -DGR_E_TIMEOUT when a reader stalls; on_tick's code.
 */
int ctf_input_live(const char *const *urls, struct host_analysis *const *hs, unsigned int n,
		   const struct ctf_read_opts *opts, struct ctf_live_opts *live, char *errbuf);

#endif
