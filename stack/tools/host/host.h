/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dgrdma-host's private header: the configuration, the state of a connection,
 * and what the files of the tool give each other. One file a job:
 *
 *   main.c     the modes (main)
 *   clock.c    the clock (host_now_ns, host_sleep_until)
 *   signals.c  SIGINT and SIGTERM (host_interrupted)
 *   options.c  the option table: usage() and the command line (host_parse_args)
 *   io.c       the rx consumer's sinks and the tx producer's sources
 *   report.c   the --stats-interval lines and the summary (text and --json)
 *   stream.c   rx and tx with one connection per --peer (host_run_stream)
 *   perf.c     the perftest sweep (host_run_perf)
 */
#ifndef DGR_HOST_TOOL_H
#define DGR_HOST_TOOL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <dgrdma/host.h>

#include "cli.h"
#include "print.h"

#define HOST_MAX_PEERS 16 /* --peer given more than once: one connection each */

enum sink_kind { SINK_NULL, SINK_FILE, SINK_MEMCPY };
enum source_kind { SOURCE_RAMP, SOURCE_FILE };

enum {
	OPT_DURATION = 0x100,
	OPT_IDLE,
	OPT_BUFFERS,
	OPT_BUFSIZE,
	OPT_FPGA_BUFFERS,
	OPT_ID,
	OPT_PEER_ID,
	OPT_COALESCE,
	OPT_ACKS,
	OPT_RETRANSMIT,
	OPT_PEER_WINDOW,
	OPT_RT_ATTEMPTS,
	OPT_INCOMPLETE,
	OPT_DOORBELL,
	OPT_STRICT,
	OPT_SINK,
	OPT_FSYNC,
	OPT_DIRECT,
	OPT_DELAY,
	OPT_STALL,
	OPT_NO_RAMP,
	OPT_SOURCE,
	OPT_BYTES,
	OPT_RATE,
	OPT_CSV,
	OPT_COUNT,
	OPT_MEMCPY,
	OPT_DIRECTION,
	OPT_PERF_WORKER,
	OPT_SCHED,
	OPT_SCHED_RX,
	OPT_SCHED_TX,
	OPT_SCHED_WORKER,
	OPT_SCHED_CONTROL,
	OPT_CPU,
	OPT_CPU_RX,
	OPT_CPU_TX,
	OPT_CPU_WORKER,
	OPT_CPU_CONTROL,
	OPT_BUSY_WAIT,
	OPT_NO_INLINE_DOORBELLS,
	OPT_DOORBELL_BATCH,
	OPT_DOORBELL_HOLD_US,
	OPT_RX_HOLDOFF_US,
	OPT_STATS_INTERVAL,
	OPT_SUMMARY_JSON,
	OPT_READY_FILE,
	OPT_JSON,
	OPT_QUIET,
	OPT_MAX_DROP,
	OPT_PORT_BASE,
	OPT_DROP_RX,
	OPT_SEED,
	OPT_PEER_KIND,
	OPT_VERSION,
	OPT_LIST_OPTIONS,
};

struct host_cfg {
	const char *mode;
	struct dgr_conn_opts co;
	uint64_t duration_ns; /* 0: until the stream ends */
	uint64_t idle_timeout_ns;
	enum sink_kind sink;
	const char *sink_path;
	bool fsync_each;
	bool direct;
	uint64_t consumer_delay_ns;
	bool stall;	   /* --consumer-stall given */
	uint64_t stall_at; /* before consuming the stream's buffer number stall_at */
	uint64_t stall_ns; /* the consumer waits this long, once */
	enum source_kind source;
	const char *source_path;
	uint64_t total_bytes; /* tx: bytes to send (0: until --duration) */
	uint64_t rate_sps;    /* tx: samples/s (0: as fast as credits allow) */
	const char *summary_json;
	const char *ready_file; /* rx, tx: created once every connection receives */
	bool json;
	bool quiet;
	double max_drop_rate; /* < 0: none */
	bool csv;
	uint64_t perf_count;		   /* perf: messages per size */
	bool perf_memcpy;		   /* perf: copy every message in or out */
	enum dgr_direction perf_direction; /* perf: tx, rx or both at once */
	unsigned int perf_worker;	   /* perf: DCP worker index of the FPGA's perftest */
	const char *peers[HOST_MAX_PEERS]; /* --peer, in order */
	unsigned int npeers;
	uint16_t peer_ids[HOST_MAX_PEERS]; /* --peer-id: one for all, or one per --peer */
	unsigned int npeer_ids;
	int stop; /* 'h', OPT_VERSION or OPT_LIST_OPTIONS: the option read asked to print it */
};

/* State shared by the callbacks (worker thread) and main. */
struct host_run {
	struct host_cfg *cfg;
	unsigned int index;	 /* the connection's: the n-th --peer */
	char path[4096];	 /* its sink or source file */
	int fd;			 /* file sink or source */
	uint8_t *scratch;	 /* memcpy sink target */
	uint64_t produced_bytes; /* tx */
	uint32_t ramp_next;
	uint64_t start_ns;
	bool source_eof;
	uint64_t sink_errors;
	char sink_err[256];
	struct dgr_conn *conn;
	uint64_t last_bytes;
	uint64_t last_ns;
	uint64_t consumed;   /* rx: buffers the consume callback has seen */
	uint64_t stalled_ns; /* rx: how long the --consumer-stall wait lasted (0: not yet) */
};

/*
 * How a connection's run ended, from the best to the worst: several connections
 * report the worst of theirs.
 */
enum host_status {
	HOST_ENDED,    /* the stream ended: EOF consumed, or every buffer sent and credited */
	HOST_DURATION, /* rx: --duration passed */
	HOST_STALLED,  /* no progress for --idle-timeout, or tx credits missing after --duration */
	HOST_INTERRUPTED, /* SIGINT or SIGTERM */
	HOST_FAILED,	  /* the connection or a callback failed */
};

/* Returns the status's name in the summary and the messages ("ended", "stalled", ...). */
const char *host_status_name(enum host_status s);

struct summary {
	enum host_status status;
	const char *error;
	double seconds;
	double drop_rate;
	unsigned int incomplete;
	uint64_t unanswered;	  /* tx: buffers sent whose doorbell never came */
	struct dgr_seq_state seq; /* the frame numbering when the run ended */
	/* rx: no frame of the peer's accepted in the whole run (what was heard instead) */
	bool heard_nothing;
	char listened_on[IF_NAMESIZE + 24]; /* "127.0.0.1:18079" or "veth0 aa:bb:cc:dd:ee:ff" */
	char peer[24];
	char last_foreign[24]; /* the last packet's source from another address ("": none) */
};

/* One connection of a stream run: one per --peer, each with its own threads. */
struct host_conn {
	struct host_run r;
	struct dgr_conn *c;
	struct dgr_conn_opts co;
	struct summary sm;
	char err[2 * DGR_ERRBUF_SIZE]; /* room for the addresses of heard_nothing() */
	bool running;
	uint64_t last_progress;
	uint64_t last_progress_ns;
	uint64_t end_ns;
	int status;
	bool ids_warned;
	bool seq_taken; /* sm.seq holds the state at the stall */
};

/* Set by SIGINT and SIGTERM: every loop of the tool ends soon after. */
extern volatile sig_atomic_t host_interrupted;
/* Sets host_interrupted on SIGINT and SIGTERM; ignores SIGPIPE. */
void host_catch_signals(void);

/* CLOCK_MONOTONIC in ns. */
uint64_t host_now_ns(void);
/* Sleeps until host_now_ns() reaches t. */
void host_sleep_until(uint64_t t);

/* dgrdma-host's option table (options.c): the parser, --help and --list-options. */
extern const struct dgr_opt_table host_options;

/* Lists every option with its accepted range on f (--help, from host_options). */
void host_usage(FILE *f);
/*
 * What dgrdma-host says on stderr when --acks meets an FPGA peer (no ACK-only
 * frames are sent instead), or NULL when there is nothing to say.
 */
const char *host_acks_notice(const struct host_cfg *cfg);

/*
 * Parses argv (argv[0] names the mode) into cfg. Returns 0, DGR_OPTS_STOP with cfg->stop
 * set when --help, --version or --list-options was read (main prints it), or -1 with err.
 */
int host_parse_args(int argc, char **argv, struct host_cfg *cfg, char *err);
/*
 * The options of connection i: its peer, the peer's id, its tracepoint index.
 * Returns 0, or -1 with err filled.
 */
int host_conn_options(struct host_cfg *cfg, unsigned int i, struct dgr_conn_opts *co, char *err);

/*
 * The consumer of an rx connection (dgr_consume_fn, ctx a struct host_run): the ramp
 * check and the sink. Returns 0, or -DGR_E_SYS when the sink fails (the run stops).
 */
int host_consume(void *ctx, const struct dgr_buffer_view *b);
/*
 * The producer of a tx connection (dgr_produce_fn, ctx a struct host_run): the ramp
 * or the --source file, paced by --sample-rate. Returns 1, 0 at the end, -DGR_E_SYS.
 */
int host_produce(void *ctx, struct dgr_buffer_view *b);
/*
 * Opens the connection's sink or source file (PATH, or PATH.N with several peers).
 * Returns 0, or -1 with err filled.
 */
int host_open_files(struct host_run *r, char *err);

/*
 * One line per interval on stderr, through the print layer: "stats: name: value ..."
 * in text, one JSON object per line with --json. Written with one call, so the lines
 * of several connections' control threads do not interleave.
 */
void host_on_stats(void *ctx, struct dgr_conn *c);
/* The summary: one connection's, or the totals and one per connection. */
void host_print_run(struct dgr_pr *p, struct host_cfg *cfg, struct host_conn *h, unsigned int n);

/*
 * Runs the stream (rx or tx) with every --peer, one connection each, all at
 * once. Returns the exit status: 0 when every connection ended cleanly and
 * met --max-drop-rate, 1 otherwise, 2 when one could not start.
 */
int host_run_stream(struct host_cfg *cfg);
/* Runs the perftest sweep (perf.c). Returns the exit status. */
int host_run_perf(struct host_cfg *cfg);

#endif /* DGR_HOST_TOOL_H */
