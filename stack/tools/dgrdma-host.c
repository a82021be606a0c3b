/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dgrdma-host: the tuning guide's test application over libdgrdma.
 *
 *   dgrdma-host rx   receive a stream into the buffer pool, check the ramp, sink it
 *   dgrdma-host tx   send a ramp or a file as fast as credits allow or at a rate
 *   (rx and tx take --peer several times: one connection per remote endpoint)
 *   dgrdma-host perf sweep message sizes (2..32 KiB) tx, rx or both at once, one row per size
 *
 * docs/stack.md describes every option; usage() lists them.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <dgrdma/cli.h>
#include <dgrdma/host.h>
#include <dgrdma/ramp.h>
#include <dgrdma/transport.h>

#include "dgrdma-version.h"
#include <dgrdma/print.h>

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
	OPT_VERSION,
	OPT_END, /* one past the last: the size of struct host_cfg.given */
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
	const char *given[OPT_END - OPT_DURATION]; /* per option: its name as given, or NULL */
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

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ull),
			       .tv_nsec = (long)(t % 1000000000ull) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
	}
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: dgrdma-host rx|tx|perf [OPTIONS]\n"
		"\n"
		"  rx    receive the FPGA's stream (ADC -> host), check its sample ramp, sink it\n"
		"  tx    send a stream to the FPGA (host -> DAC) as credits allow or at\n"
		"        --sample-rate\n"
		"  perf  throughput per message size 2..32 KiB, tx, rx or both at once (a table,\n"
		"        or --csv)\n"
		"\n");
	fputs(DGR_TRANSPORT_USAGE_WITH("twice the buffer pool, 8..256 MiB"), f);
	fprintf(
	    f,
	    "  --peer (rx, tx) may be given up to 16 times: one connection per peer, all at\n"
	    "                         once, each receiving only its peer's frames (a socket\n"
	    "                         filter on the source MAC, or SO_REUSEPORT + connect)\n"
	    "\n"
	    "Stream and buffers:\n"
	    "  --duration SEC         stop after SEC seconds (default: when the stream ends)\n"
	    "  --idle-timeout SEC     give up when nothing completes for SEC (also before the\n"
	    "                         first transaction), 0..86400 (default 5; 0 = never)\n"
	    "  --buffers N            host buffers, 1..255 (default 64)\n"
	    "  --buffer-size BYTES    bytes per buffer, 64..2M, multiple of 16 (default 16K)\n"
	    "  --fpga-buffers N       the FPGA's buffers, 2..64 (default 4)\n"
	    "  --id N / --peer-id N   endpoint ids, 0..65535 (default 0 / 1); with several\n"
	    "                         --peer, one --peer-id for all or one per --peer\n"
	    "  --coalesce-us USEC     hold a partly filled frame, 0..1000000 (default 0;\n"
	    "                         old name --coalesce-wait, an alias until 0.2)\n"
	    "  --acks                 acknowledge the FPGA's frames (off, as in OpenCPI)\n"
	    "  --retransmit MSEC      resend unacknowledged frames after MSEC, 1..60000 (off;\n"
	    "                         the FPGA never skips a lost frame: without it one\n"
	    "                         frame lost towards the FPGA locks its receive path)\n"
	    "  --peer-window N        send no frame N or more past the oldest one the FPGA has\n"
	    "                         not acknowledged (its ack_tracker_bitfield_width),\n"
	    "                         0..32768 (default 32; 0: no limit)\n"
	    "  --retransmit-attempts N  resends before giving up, 1..255 (default 5)\n"
	    "  --incomplete-timeout MSEC  forget incomplete transactions, 1..600000 (1000)\n"
	    "  --doorbell flag|dcp[:ADDR] doorbells as flag-only transactions (default) or DCP\n"
	    "                         writes of the buffer index to ADDR (default 0x100018,\n"
	    "                         property doorbell of worker 0, docs/fpga.md)\n"
	    "  --strict               enforce the FPGA's fragment length rules on input\n"
	    "  --port-base ADDR       port memory base address (default rx 0, tx 0x40000000)\n"
	    "Fault injection:\n"
	    "  --drop-frames P        drop received DG-RDMA frames with probability P, 0..1\n"
	    "                         (old name --drop-rx, an alias until 0.2)\n"
	    "  --seed N               seed of --drop-frames, 1..2^64-1 (default fixed)\n"
	    "\n"
	    "rx:\n"
	    "  --sink null|memcpy|file:PATH  what the consumer does (default null); with\n"
	    "                         several --peer, connection N writes PATH.N\n"
	    "  --fsync                fsync the file after every buffer\n"
	    "  --direct               open the file with OPT_DIRECT (buffer size multiple of "
	    "4096)\n"
	    "  --consumer-delay-us N  extra per-buffer work, 0..10000000 us\n"
	    "  --consumer-stall BUF:MS  once, before consuming the stream's buffer number BUF\n"
	    "                         (0..2^32-1, from 0, discontinuities included), wait MS\n"
	    "                         (1..600000) milliseconds: a single disturbance for tests\n"
	    "  --no-ramp-check        do not check the sample ramp\n"
	    "tx:\n"
	    "  --source ramp|file:PATH  data to send (default ramp)\n"
	    "  --bytes N              stop after N bytes (K, M, G suffixes); last buffer has EOF\n"
	    "  --sample-rate SPS      samples (4 bytes) per second, e.g. 100e6 or 100M, 0..1e11\n"
	    "                         (default 0: as fast as credits allow; old name --rate,\n"
	    "                         an alias until 0.2)\n"
	    "perf (against the FPGA's perftest; --buffer-size is the peer's, default 16K):\n"
	    "  --direction tx|rx|both host -> FPGA (default), FPGA -> host (started over DCP),\n"
	    "                         or both at once on one connection\n"
	    "  --count N              messages per message size 2K..--buffer-size, per\n"
	    "                         direction, 1..4294967296 (default 16384)\n"
	    "  --memcpy               copy each message from a source buffer (tx) or out of\n"
	    "                         the pool (rx): software load\n"
	    "  --perftest-worker N    DCP worker index of the perftest, 0..62 (default 3)\n"
	    "  --csv                  CSV instead of a table\n"
	    "\n"
	    "Mitigations (each refusal by the OS is an error):\n"
	    "  --sched POLICY         all data threads: fifo:N, rr:N (1..99), nice:N (-20..19), "
	    "other\n"
	    "  --sched-rx/--sched-tx/--sched-worker/--sched-control POLICY  one thread\n"
	    "  --cpu LIST             all data threads on CPUs LIST (e.g. 2-3)\n"
	    "  --cpu-rx/--cpu-tx/--cpu-worker/--cpu-control LIST  one thread\n"
	    "  --busy-wait            stack threads spin instead of sleeping\n"
	    "  --no-inline-doorbells  rx: the transmit thread sends every doorbell (default:\n"
	    "                         the consumer sends its own when that thread is idle)\n"
	    "  --doorbell-batch N     rx: a consumer behind sends up to N doorbells in one\n"
	    "                         frame, 1..255 (default 16; 1: each alone)\n"
	    "  --doorbell-hold-us US  rx: hold no doorbell longer than US, and none after a\n"
	    "                         buffer whose work took longer, 1..1000000 (default 50)\n"
	    "  --rx-holdoff-us US     after a batch of frames, the receive thread sleeps US\n"
	    "                         on a timer instead of waking per frame (interrupt\n"
	    "                         moderation), 0..1000 (default 0: off)\n"
	    "\n"
	    "Output (rx and tx; perf prints its table):\n"
	    "  --stats-interval SEC   print counters every SEC seconds on stderr, one line\n"
	    "                         each (one JSON object per line with --json)\n"
	    "  --summary-json PATH    write the final summary as JSON to PATH\n"
	    "  --ready-file PATH      (rx, tx) create PATH, holding the pid, once every\n"
	    "                         connection receives (sockets bound, threads running):\n"
	    "                         start the FPGA side then; removed at start and at exit\n"
	    "  --json                 print the summary as JSON on stdout\n"
	    "  --quiet                no summary on stdout\n"
	    "  --max-drop-rate R      exit 1 when the drop rate exceeds R (0..1)\n"
	    "  -h, --help             this text\n"
	    "  --version              the version of dgrdma-tools\n"
	    "\n"
	    "An option of another mode is refused. Exit status (docs/cli.md): 0 the run ended\n"
	    "as asked; 1 --max-drop-rate exceeded; 2 bad usage; 3 the run failed (could not\n"
	    "start, stalled, left transactions incomplete, interrupted).\n");
}

static const struct option long_opts[] = {
	DGR_TRANSPORT_LONGOPTS,
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "idle-timeout", required_argument, NULL, OPT_IDLE },
	{ "buffers", required_argument, NULL, OPT_BUFFERS },
	{ "buffer-size", required_argument, NULL, OPT_BUFSIZE },
	{ "fpga-buffers", required_argument, NULL, OPT_FPGA_BUFFERS },
	{ "id", required_argument, NULL, OPT_ID },
	{ "peer-id", required_argument, NULL, OPT_PEER_ID },
	{ "coalesce-us", required_argument, NULL, OPT_COALESCE },
	{ "coalesce-wait", required_argument, NULL, OPT_COALESCE }, /* alias until 0.2 */
	{ "acks", no_argument, NULL, OPT_ACKS },
	{ "retransmit", required_argument, NULL, OPT_RETRANSMIT },
	{ "peer-window", required_argument, NULL, OPT_PEER_WINDOW },
	{ "retransmit-attempts", required_argument, NULL, OPT_RT_ATTEMPTS },
	{ "incomplete-timeout", required_argument, NULL, OPT_INCOMPLETE },
	{ "doorbell", required_argument, NULL, OPT_DOORBELL },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "sink", required_argument, NULL, OPT_SINK },
	{ "fsync", no_argument, NULL, OPT_FSYNC },
	{ "direct", no_argument, NULL, OPT_DIRECT },
	{ "consumer-delay-us", required_argument, NULL, OPT_DELAY },
	{ "consumer-stall", required_argument, NULL, OPT_STALL },
	{ "no-ramp-check", no_argument, NULL, OPT_NO_RAMP },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "bytes", required_argument, NULL, OPT_BYTES },
	{ "sample-rate", required_argument, NULL, OPT_RATE },
	{ "rate", required_argument, NULL, OPT_RATE }, /* alias until 0.2 */
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "memcpy", no_argument, NULL, OPT_MEMCPY },
	{ "direction", required_argument, NULL, OPT_DIRECTION },
	{ "perftest-worker", required_argument, NULL, OPT_PERF_WORKER },
	{ "sched", required_argument, NULL, OPT_SCHED },
	{ "sched-rx", required_argument, NULL, OPT_SCHED_RX },
	{ "sched-tx", required_argument, NULL, OPT_SCHED_TX },
	{ "sched-worker", required_argument, NULL, OPT_SCHED_WORKER },
	{ "sched-control", required_argument, NULL, OPT_SCHED_CONTROL },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "cpu-rx", required_argument, NULL, OPT_CPU_RX },
	{ "cpu-tx", required_argument, NULL, OPT_CPU_TX },
	{ "cpu-worker", required_argument, NULL, OPT_CPU_WORKER },
	{ "cpu-control", required_argument, NULL, OPT_CPU_CONTROL },
	{ "busy-wait", no_argument, NULL, OPT_BUSY_WAIT },
	{ "no-inline-doorbells", no_argument, NULL, OPT_NO_INLINE_DOORBELLS },
	{ "doorbell-batch", required_argument, NULL, OPT_DOORBELL_BATCH },
	{ "doorbell-hold-us", required_argument, NULL, OPT_DOORBELL_HOLD_US },
	{ "rx-holdoff-us", required_argument, NULL, OPT_RX_HOLDOFF_US },
	{ "stats-interval", required_argument, NULL, OPT_STATS_INTERVAL },
	{ "summary-json", required_argument, NULL, OPT_SUMMARY_JSON },
	{ "ready-file", required_argument, NULL, OPT_READY_FILE },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "max-drop-rate", required_argument, NULL, OPT_MAX_DROP },
	{ "port-base", required_argument, NULL, OPT_PORT_BASE },
	{ "drop-frames", required_argument, NULL, OPT_DROP_RX },
	{ "drop-rx", required_argument, NULL, OPT_DROP_RX }, /* alias until 0.2 */
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ 0, 0, 0, 0 },
};

/* The modes an option applies to: given to another mode, it is refused by name. */
enum { MODE_RX = 1, MODE_TX = 2, MODE_PERF = 4 };
static const struct {
	int opt;
	unsigned int modes;
	const char *what; /* the modes, for the refusal */
} mode_options[] = {
	{ OPT_SINK, MODE_RX, "an rx" },
	{ OPT_FSYNC, MODE_RX, "an rx" },
	{ OPT_DIRECT, MODE_RX, "an rx" },
	{ OPT_DELAY, MODE_RX, "an rx" },
	{ OPT_STALL, MODE_RX, "an rx" },
	{ OPT_SOURCE, MODE_TX, "a tx" },
	{ OPT_BYTES, MODE_TX, "a tx" },
	{ OPT_RATE, MODE_TX, "a tx" },
	{ OPT_DIRECTION, MODE_PERF, "a perf" },
	{ OPT_PERF_WORKER, MODE_PERF, "a perf" },
	{ OPT_COUNT, MODE_PERF, "a perf" },
	{ OPT_MEMCPY, MODE_PERF, "a perf" },
	{ OPT_CSV, MODE_PERF, "a perf" },
	/* perf drives the emulator's perftest worker itself: nothing waits on a ready file */
	{ OPT_READY_FILE, MODE_RX | MODE_TX, "an rx and tx" },
	{ OPT_SUMMARY_JSON, MODE_RX | MODE_TX, "an rx and tx" },
	{ OPT_JSON, MODE_RX | MODE_TX, "an rx and tx" },
	{ OPT_QUIET, MODE_RX | MODE_TX, "an rx and tx" },
	{ OPT_MAX_DROP, MODE_RX | MODE_TX, "an rx and tx" },
};

/*
 * Refuses an option given to a mode it does not apply to, by the name it was given
 * ("rx: --bytes is a tx option"). Returns 0 or -1 with err.
 */
static int check_mode_options(const struct host_cfg *cfg, char *err)
{
	unsigned int mode = strcmp(cfg->mode, "rx") == 0   ? MODE_RX
			    : strcmp(cfg->mode, "tx") == 0 ? MODE_TX
							   : MODE_PERF;

	for (size_t i = 0; i < sizeof(mode_options) / sizeof(mode_options[0]); i++) {
		const char *name = cfg->given[mode_options[i].opt - OPT_DURATION];

		if (name && !(mode_options[i].modes & mode)) {
			snprintf(err, DGR_ERRBUF_SIZE, "%s: --%s is %s option", cfg->mode, name,
				 mode_options[i].what);
			return -1;
		}
	}
	return 0;
}

static int parse_u(const char *opt, const char *arg, uint64_t min, uint64_t max, bool sizes,
		   uint64_t *v, char *err)
{
	return dgr_parse_u64(opt, arg, min, max, sizes, v, err);
}

/* Checks --peer and --peer-id, and every peer's address. Returns 0 or -1 with err. */
static int check_peers(struct host_cfg *cfg, char *err)
{
	struct dgr_transport_opts to = cfg->co.transport;

	if (cfg->npeers == 0) {
		/* the transport's own message: which address --peer needs */
		return dgr_transport_opts_finish(&to, true, err) < 0 ? -1 : 0;
	}
	if (cfg->npeers > 1 && strcmp(cfg->mode, "perf") == 0) {
		snprintf(err, DGR_ERRBUF_SIZE, "--peer: perf measures one peer (given %u)",
			 cfg->npeers);
		return -1;
	}
	if (cfg->npeer_ids > 1 && cfg->npeer_ids != cfg->npeers) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "--peer-id: given %u times for %u --peer (give one for all, or one per "
			 "--peer, in order)",
			 cfg->npeer_ids, cfg->npeers);
		return -1;
	}
	for (unsigned int i = 0; i < cfg->npeers; i++) {
		to = cfg->co.transport;
		if (dgr_transport_parse_opt(&to, DGR_OPT_PEER, cfg->peers[i], err) < 0 ||
		    dgr_transport_opts_finish(&to, true, err) < 0) {
			return -1;
		}
		for (unsigned int j = 0; j < i; j++) {
			struct dgr_transport_opts other = cfg->co.transport;

			(void)dgr_transport_parse_opt(&other, DGR_OPT_PEER, cfg->peers[j], err);
			(void)dgr_transport_opts_finish(&other, true, err);
			if (dgr_addr_equal(to.kind, &to.peer, &other.peer)) {
				snprintf(err, DGR_ERRBUF_SIZE, "--peer: %s is given twice",
					 cfg->peers[i]);
				return -1;
			}
		}
	}
	return 0;
}

/* Parses argv into cfg. Returns 0, or -1 with err filled. */
static int parse_args(int argc, char **argv, struct host_cfg *cfg, char *err)
{
	struct dgr_conn_opts *co = &cfg->co;
	uint64_t v;
	int opt;
	int rc;

	int longindex = -1;
	char optname[40];

	while ((opt = getopt_long(argc, argv, "h", long_opts, &longindex)) != -1) {
		/* the name as given, for a value's error: an alias is named as the user wrote it */
		snprintf(optname, sizeof(optname), "--%s",
			 longindex >= 0 ? long_opts[longindex].name : "?");
		if (opt >= OPT_DURATION && opt < OPT_END && longindex >= 0) {
			cfg->given[opt - OPT_DURATION] = long_opts[longindex].name;
		}
		longindex = -1;
		if (opt == DGR_OPT_PEER) {
			/* one connection per --peer: resolved per connection (conn_options) */
			if (cfg->npeers == HOST_MAX_PEERS) {
				snprintf(err, DGR_ERRBUF_SIZE, "--peer: at most %d peers",
					 HOST_MAX_PEERS);
				return -1;
			}
			cfg->peers[cfg->npeers++] = optarg;
			continue;
		}
		rc = dgr_transport_parse_opt(&co->transport, opt, optarg, err);
		if (rc < 0) {
			return -1;
		}
		if (rc == 1) {
			continue;
		}
		switch (opt) {
		case OPT_DURATION:
			if (dgr_parse_seconds("--duration", optarg, 86400 * 365, &cfg->duration_ns,
					      err) < 0) {
				return -1;
			}
			break;
		case OPT_IDLE:
			if (dgr_parse_seconds("--idle-timeout", optarg, 86400,
					      &cfg->idle_timeout_ns, err) < 0) {
				return -1;
			}
			break;
		case OPT_BUFFERS:
			if (parse_u("--buffers", optarg, 1, DGR_MAX_BUFFERS, false, &v, err) < 0) {
				return -1;
			}
			co->buffers = (unsigned int)v;
			break;
		case OPT_BUFSIZE:
			if (parse_u("--buffer-size", optarg, 64, DGR_MAX_BUFFER_SIZE, true, &v,
				    err) < 0) {
				return -1;
			}
			if (v % 16) {
				snprintf(err, DGR_ERRBUF_SIZE,
					 "--buffer-size: %" PRIu64 " is not a multiple of 16", v);
				return -1;
			}
			co->buffer_size = (uint32_t)v;
			break;
		case OPT_FPGA_BUFFERS:
			if (parse_u("--fpga-buffers", optarg, DGR_FPGA_BUFFERS_MIN,
				    DGR_FPGA_BUFFERS_MAX, false, &v, err) < 0) {
				return -1;
			}
			co->peer_buffers = (unsigned int)v;
			break;
		case OPT_ID:
		case OPT_PEER_ID:
			if (parse_u(opt == OPT_ID ? "--id" : "--peer-id", optarg, 0, 65535, false,
				    &v, err) < 0) {
				return -1;
			}
			if (opt == OPT_ID) {
				co->id = (uint16_t)v;
			} else if (cfg->npeer_ids == HOST_MAX_PEERS) {
				snprintf(err, DGR_ERRBUF_SIZE, "--peer-id: at most %d ids",
					 HOST_MAX_PEERS);
				return -1;
			} else {
				cfg->peer_ids[cfg->npeer_ids++] = (uint16_t)v;
			}
			break;
		case OPT_COALESCE:
			if (parse_u(optname, optarg, 0, 1000000, false, &v, err) < 0) {
				return -1;
			}
			co->coalesce_wait_us = (unsigned int)v;
			break;
		case OPT_ACKS:
			co->acks = true;
			break;
		case OPT_RETRANSMIT:
			if (parse_u("--retransmit", optarg, 1, 60000, false, &v, err) < 0) {
				return -1;
			}
			co->retransmit_ms = (unsigned int)v;
			break;
		case OPT_PEER_WINDOW:
			if (parse_u("--peer-window", optarg, 0, DGR_MAX_PEER_WINDOW, false, &v,
				    err) < 0) {
				return -1;
			}
			co->peer_window = (unsigned int)v;
			break;
		case OPT_RT_ATTEMPTS:
			if (parse_u("--retransmit-attempts", optarg, 1, 255, false, &v, err) < 0) {
				return -1;
			}
			co->retransmit_attempts = (unsigned int)v;
			break;
		case OPT_INCOMPLETE:
			if (parse_u("--incomplete-timeout", optarg, 1, 600000, false, &v, err) <
			    0) {
				return -1;
			}
			co->incomplete_ms = (unsigned int)v;
			break;
		case OPT_DOORBELL:
			if (strcmp(optarg, "flag") == 0) {
				co->doorbell_mode = DGR_DOORBELL_FLAG;
			} else if (strcmp(optarg, "dcp") == 0) {
				co->doorbell_mode = DGR_DOORBELL_DCP;
				co->doorbell_dcp_addr = DGR_DCP_DOORBELL_ADDR;
			} else if (strncmp(optarg, "dcp:", 4) == 0) {
				if (parse_u("--doorbell dcp", optarg + 4, 0, DCP_ADDR_MASK, false,
					    &v, err) < 0) {
					return -1;
				}
				if (v % 4) {
					snprintf(err, DGR_ERRBUF_SIZE,
						 "--doorbell: dcp:%s is not a multiple of 4 (a DCP "
						 "write sets one 32-bit word)",
						 optarg + 4);
					return -1;
				}
				co->doorbell_mode = DGR_DOORBELL_DCP;
				co->doorbell_dcp_addr = (uint32_t)v;
			} else {
				snprintf(err, DGR_ERRBUF_SIZE,
					 "--doorbell: '%s' is not flag or dcp:ADDR", optarg);
				return -1;
			}
			break;
		case OPT_STRICT:
			co->strict_lengths = true;
			break;
		case OPT_SINK:
			if (strcmp(optarg, "null") == 0) {
				cfg->sink = SINK_NULL;
			} else if (strcmp(optarg, "memcpy") == 0) {
				cfg->sink = SINK_MEMCPY;
			} else if (strncmp(optarg, "file:", 5) == 0 && optarg[5]) {
				cfg->sink = SINK_FILE;
				cfg->sink_path = optarg + 5;
			} else {
				snprintf(err, DGR_ERRBUF_SIZE,
					 "--sink: '%s' is not null, memcpy or file:PATH", optarg);
				return -1;
			}
			break;
		case OPT_FSYNC:
			cfg->fsync_each = true;
			break;
		case OPT_DIRECT:
			cfg->direct = true;
			break;
		case OPT_DELAY:
			if (parse_u("--consumer-delay-us", optarg, 0, 10000000, false, &v, err) <
			    0) {
				return -1;
			}
			cfg->consumer_delay_ns = v * 1000;
			break;
		case OPT_STALL: {
			char buf_arg[32];
			const char *colon = strchr(optarg, ':');
			size_t n = colon ? (size_t)(colon - optarg) : 0;

			if (!colon || n == 0 || n >= sizeof(buf_arg)) {
				snprintf(err, DGR_ERRBUF_SIZE,
					 "--consumer-stall: '%s' is not BUF:MS (e.g. 50:1000)",
					 optarg);
				return -1;
			}
			memcpy(buf_arg, optarg, n);
			buf_arg[n] = '\0';
			if (parse_u("--consumer-stall BUF", buf_arg, 0, UINT32_MAX, false,
				    &cfg->stall_at, err) < 0 ||
			    parse_u("--consumer-stall MS", colon + 1, 1, 600000, false, &v, err) <
				0) {
				return -1;
			}
			cfg->stall = true;
			cfg->stall_ns = v * 1000000ull;
			break;
		}
		case OPT_NO_RAMP:
			co->check_ramp = false;
			break;
		case OPT_SOURCE:
			if (strcmp(optarg, "ramp") == 0) {
				cfg->source = SOURCE_RAMP;
			} else if (strncmp(optarg, "file:", 5) == 0 && optarg[5]) {
				cfg->source = SOURCE_FILE;
				cfg->source_path = optarg + 5;
			} else {
				snprintf(err, DGR_ERRBUF_SIZE,
					 "--source: '%s' is not ramp or file:PATH", optarg);
				return -1;
			}
			break;
		case OPT_BYTES:
			if (parse_u("--bytes", optarg, 1, 1ull << 50, true, &v, err) < 0) {
				return -1;
			}
			cfg->total_bytes = v;
			break;
		case OPT_RATE: {
			double d;

			if (dgr_parse_rate(optname, optarg, 0, 1e11, &d, err) < 0) {
				return -1;
			}
			cfg->rate_sps = (uint64_t)d;
			break;
		}
		case OPT_CSV:
			cfg->csv = true;
			break;
		case OPT_COUNT:
			if (parse_u("--count", optarg, 1, 1ull << 32, false, &v, err) < 0) {
				return -1;
			}
			cfg->perf_count = v;
			break;
		case OPT_MEMCPY:
			cfg->perf_memcpy = true;
			break;
		case OPT_DIRECTION:
			if (strcmp(optarg, "tx") == 0) {
				cfg->perf_direction = DGR_DIR_TX;
			} else if (strcmp(optarg, "rx") == 0) {
				cfg->perf_direction = DGR_DIR_RX;
			} else if (strcmp(optarg, "both") == 0) {
				cfg->perf_direction = DGR_DIR_BOTH;
			} else {
				snprintf(err, DGR_ERRBUF_SIZE,
					 "--direction: '%s' is not tx, rx or both", optarg);
				return -1;
			}
			break;
		case OPT_PERF_WORKER:
			if (parse_u("--perftest-worker", optarg, 0, 62, false, &v, err) < 0) {
				return -1;
			}
			cfg->perf_worker = (unsigned int)v;
			break;
		case OPT_SCHED:
		case OPT_SCHED_RX:
		case OPT_SCHED_TX:
		case OPT_SCHED_WORKER:
		case OPT_SCHED_CONTROL: {
			static const char *const names[] = { "--sched", "--sched-rx", "--sched-tx",
							     "--sched-worker", "--sched-control" };
			int k = opt - OPT_SCHED;
			struct dgr_sched sc = co->sched[k == 0 ? DGR_T_RX : k - 1];

			if (dgr_parse_sched(names[k], optarg, &sc, err) < 0) {
				return -1;
			}
			for (int t = 0; t < DGR_T_COUNT; t++) {
				if ((k == 0 && t != DGR_T_CONTROL) || t == k - 1 ||
				    (k - 1 == DGR_T_WORKER && t == DGR_T_WORKER2)) {
					uint64_t cpus = co->sched[t].cpuset;

					co->sched[t] = sc;
					co->sched[t].cpuset = cpus;
				}
			}
			break;
		}
		case OPT_CPU:
		case OPT_CPU_RX:
		case OPT_CPU_TX:
		case OPT_CPU_WORKER:
		case OPT_CPU_CONTROL: {
			static const char *const names[] = { "--cpu", "--cpu-rx", "--cpu-tx",
							     "--cpu-worker", "--cpu-control" };
			int k = opt - OPT_CPU;
			uint64_t mask;

			if (dgr_parse_cpulist(names[k], optarg, &mask, err) < 0) {
				return -1;
			}
			for (int t = 0; t < DGR_T_COUNT; t++) {
				if ((k == 0 && t != DGR_T_CONTROL) || t == k - 1 ||
				    (k - 1 == DGR_T_WORKER && t == DGR_T_WORKER2)) {
					co->sched[t].cpuset = mask;
				}
			}
			break;
		}
		case OPT_BUSY_WAIT:
			co->busy_wait = true;
			break;
		case OPT_NO_INLINE_DOORBELLS:
			co->inline_doorbells = false;
			break;
		case OPT_DOORBELL_BATCH:
			if (parse_u("--doorbell-batch", optarg, 1, 255, false, &v, err) < 0) {
				return -1;
			}
			co->doorbell_batch = (unsigned int)v;
			break;
		case OPT_DOORBELL_HOLD_US:
			if (parse_u("--doorbell-hold-us", optarg, 1, 1000000, false, &v, err) < 0) {
				return -1;
			}
			co->doorbell_hold_us = (unsigned int)v;
			break;
		case OPT_RX_HOLDOFF_US:
			if (parse_u("--rx-holdoff-us", optarg, 0, 1000, false, &v, err) < 0) {
				return -1;
			}
			co->rx_holdoff_us = (unsigned int)v;
			break;
		case OPT_STATS_INTERVAL:
			if (dgr_parse_seconds("--stats-interval", optarg, 3600,
					      &co->stats_interval_ns, err) < 0) {
				return -1;
			}
			break;
		case OPT_SUMMARY_JSON:
			cfg->summary_json = optarg;
			break;
		case OPT_READY_FILE:
			cfg->ready_file = optarg;
			break;
		case OPT_JSON:
			cfg->json = true;
			break;
		case OPT_QUIET:
			cfg->quiet = true;
			break;
		case OPT_MAX_DROP:
			if (dgr_parse_f64("--max-drop-rate", optarg, 0, 1, &cfg->max_drop_rate,
					  err) < 0) {
				return -1;
			}
			break;
		case OPT_PORT_BASE:
			if (parse_u("--port-base", optarg, 0, DGR_PORT_BASE_MAX, false, &v, err) <
			    0) {
				return -1;
			}
			co->set_port_base = true;
			co->port_base = (uint32_t)v;
			break;
		case OPT_DROP_RX: {
			double d;

			if (dgr_parse_f64(optname, optarg, 0, 1, &d, err) < 0) {
				return -1;
			}
			co->rx_drop_ppm = (uint32_t)(d * 1e6 + 0.5);
			break;
		}
		case OPT_SEED:
			if (parse_u("--seed", optarg, 1, UINT64_MAX, false, &v, err) < 0) {
				return -1;
			}
			co->rx_drop_seed = v;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case OPT_VERSION:
			printf("dgrdma-host (dgrdma-tools) %s\n", DGR_VERSION);
			exit(0);
		default:
			/* getopt has named the option on stderr */
			snprintf(err, DGR_ERRBUF_SIZE, "%s: see --help", cfg->mode);
			return -1;
		}
	}
	if (optind < argc) {
		snprintf(err, DGR_ERRBUF_SIZE, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (check_mode_options(cfg, err) < 0) {
		return -1;
	}
	if (cfg->direct && cfg->co.buffer_size % 4096) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "--direct needs --buffer-size a multiple of 4096 (OPT_DIRECT alignment)");
		return -1;
	}
	if ((cfg->fsync_each || cfg->direct) && cfg->sink != SINK_FILE) {
		snprintf(err, DGR_ERRBUF_SIZE, "--fsync and --direct need --sink file:PATH");
		return -1;
	}
	return check_peers(cfg, err);
}

/* ---- rx: the consumer's sinks ---- */

static int consume(void *ctx, const struct dgr_buffer_view *b)
{
	struct host_run *r = ctx;
	struct host_cfg *cfg = r->cfg;

	if (cfg->stall && r->consumed++ == cfg->stall_at) {
		/* the single disturbance: the buffer is held, the pool fills behind it */
		uint64_t t0 = now_ns();

		sleep_until(t0 + cfg->stall_ns);
		r->stalled_ns = now_ns() - t0;
	}
	switch (cfg->sink) {
	case SINK_NULL:
		break;
	case SINK_MEMCPY:
		memcpy(r->scratch, b->data, b->len);
		__asm__ volatile("" : : "r"(r->scratch) : "memory");
		break;
	case SINK_FILE: {
		size_t done = 0;

		if (cfg->direct && b->len % 4096) {
			/* a short final buffer cannot be written with OPT_DIRECT */
			int fl = fcntl(r->fd, F_GETFL);

			(void)fcntl(r->fd, F_SETFL, fl & ~O_DIRECT);
		}
		while (done < b->len) {
			ssize_t n = write(r->fd, b->data + done, b->len - done);

			if (n < 0) {
				if (errno == EINTR) {
					continue;
				}
				snprintf(r->sink_err, sizeof(r->sink_err), "%.200s: write: %s",
					 r->path, strerror(errno));
				return -DGR_E_SYS;
			}
			done += (size_t)n;
		}
		if (cfg->fsync_each && fsync(r->fd) != 0) {
			snprintf(r->sink_err, sizeof(r->sink_err), "%.200s: fsync: %s", r->path,
				 strerror(errno));
			return -DGR_E_SYS;
		}
		break;
	}
	}
	if (cfg->consumer_delay_ns) {
		sleep_until(now_ns() + cfg->consumer_delay_ns);
	}
	return 0;
}

/* ---- tx: the producer's sources ---- */

static int produce(void *ctx, struct dgr_buffer_view *b)
{
	struct host_run *r = ctx;
	struct host_cfg *cfg = r->cfg;
	uint32_t len = b->len;

	if (r->source_eof || interrupted) {
		return 0;
	}
	if (cfg->total_bytes && r->produced_bytes + len >= cfg->total_bytes) {
		len = (uint32_t)(cfg->total_bytes - r->produced_bytes);
		b->eof = true;
	}
	if (cfg->duration_ns && now_ns() - r->start_ns >= cfg->duration_ns) {
		len = 0;
		b->eof = true;
	}
	if (cfg->source == SOURCE_RAMP) {
		len -= len % DGR_SAMPLE_BYTES;
		r->ramp_next = dgr_ramp_fill(b->data, len, r->ramp_next);
	} else {
		uint32_t got = 0;

		while (got < len) {
			ssize_t n = read(r->fd, b->data + got, len - got);

			if (n < 0 && errno == EINTR) {
				continue;
			}
			if (n < 0) {
				snprintf(r->sink_err, sizeof(r->sink_err), "%.200s: read: %s",
					 r->path, strerror(errno));
				return -DGR_E_SYS;
			}
			if (n == 0) {
				b->eof = true;
				break;
			}
			got += (uint32_t)n;
		}
		len = got;
	}
	b->len = len;
	b->opcode = DGR_OPCODE_SAMPLES;
	r->produced_bytes += len;
	if (b->eof) {
		r->source_eof = true;
	}
	if (cfg->rate_sps) {
		/* pacing: buffer k leaves when k buffers' worth of samples are due */
		uint64_t due =
		    r->start_ns + (uint64_t)((double)(r->produced_bytes / DGR_SAMPLE_BYTES) * 1e9 /
					     (double)cfg->rate_sps);

		sleep_until(due);
	}
	return 1;
}

/* ---- output ---- */

static const char *policy_name(int p)
{
	return p == SCHED_FIFO ? "fifo" : p == SCHED_RR ? "rr" : "other";
}

/*
 * One line per interval on stderr, through the print layer: "stats: name: value ..."
 * in text, one JSON object per line with --json. Written with one call, so the lines
 * of several connections' control threads do not interleave.
 */
static void on_stats(void *ctx, struct dgr_conn *c)
{
	struct host_run *r = ctx;
	struct dgr_conn_stats s;
	struct dgr_pr p;
	char *line = NULL;
	size_t len = 0;
	FILE *mem;
	uint64_t t = now_ns();
	uint64_t bytes, lat_max, lat_max_arrival;
	double dt;

	dgr_conn_get_stats(c, &s);
	dgr_conn_latency_window(c, &lat_max, &lat_max_arrival);
	bytes = r->cfg->co.direction == DGR_DIR_RX ? s.data_bytes_rx : s.data_bytes_tx;
	dt = (double)(t - r->last_ns) / 1e9;
	mem = open_memstream(&line, &len);
	if (!mem) {
		return;
	}
	dgr_pr_begin(&p, mem, DGR_PR_TEXT_KEYS | (r->cfg->json ? DGR_PR_JSON : 0));
	dgr_pr_line_begin(&p, "stats");
	if (r->cfg->npeers > 1) {
		dgr_pr_u64(&p, "peer", NULL, r->index);
	}
	dgr_pr_dbl(&p, "t_s", NULL, (double)(t - r->start_ns) / 1e9, 1);
	dgr_pr_dbl(&p, "mbyte_s", NULL, dt > 0 ? (double)(bytes - r->last_bytes) / dt / 1e6 : 0.0,
		   1);
	dgr_pr_u64(&p, "txns_completed", NULL, s.txns_completed);
	dgr_pr_u64(&p, "txns_sent", NULL, s.txns_sent);
	dgr_pr_u64(&p, "doorbells_sent", NULL, s.doorbells_sent);
	dgr_pr_u64(&p, "doorbells_received", NULL, s.doorbells_received);
	dgr_pr_u64(&p, "buffers_in_use", NULL, s.buffers_in_use);
	dgr_pr_u64(&p, "occupancy_hwm", NULL, s.occupancy_hwm);
	dgr_pr_u64(&p, "samples_lost", NULL, s.samples_lost);
	dgr_pr_u64(&p, "malformed_frames", NULL, s.malformed_frames);
	dgr_pr_u64(&p, "duplicate_frames", NULL, s.duplicate_frames);
	dgr_pr_u64(&p, "socket_drops", NULL, s.socket_drops);
	dgr_pr_u64(&p, "retransmits", NULL, s.retransmits);
	/* the interval's largest doorbell latency, from completion and from arrival */
	dgr_pr_dbl(&p, "doorbell_max_ms", NULL, (double)lat_max / 1e6, 3);
	dgr_pr_dbl(&p, "doorbell_max_from_arrival_ms", NULL, (double)lat_max_arrival / 1e6, 3);
	dgr_pr_line_end(&p);
	dgr_pr_end(&p);
	if (fclose(mem) == 0) {
		fwrite(line, 1, len, stderr);
	}
	free(line);
	r->last_bytes = bytes;
	r->last_ns = t;
}

struct incomplete_list {
	struct dgr_pr *p;
	unsigned int n;
};

static void print_incomplete(void *ctx, uint32_t txn_id, uint32_t bytes, uint16_t seen,
			     uint16_t num)
{
	struct incomplete_list *l = ctx;

	if (l->n++ >= 16) {
		return;
	}
	dgr_pr_obj_begin(l->p, NULL, NULL);
	dgr_pr_u64(l->p, "txn_id", NULL, txn_id);
	dgr_pr_u64(l->p, "bytes_seen", NULL, bytes);
	dgr_pr_u64(l->p, "msgs_seen", NULL, seen);
	dgr_pr_u64(l->p, "num_msgs", NULL, num);
	dgr_pr_obj_end(l->p);
}

struct summary {
	const char *status;
	const char *error;
	double seconds;
	double drop_rate;
	unsigned int incomplete;
	uint64_t unanswered; /* tx: buffers sent whose doorbell never came */
};

/* The members of one latency distribution, in the summary's order. */
static void print_dist(struct dgr_pr *p, const struct dgr_latency_dist *d)
{
	dgr_pr_u64(p, "count", NULL, d->count);
	dgr_pr_ns(p, "min", NULL, d->min);
	dgr_pr_ns(p, "p50", NULL, d->p50);
	dgr_pr_ns(p, "p90", NULL, d->p90);
	dgr_pr_ns(p, "p99", NULL, d->p99);
	dgr_pr_ns(p, "p999", NULL, d->p999);
	dgr_pr_ns(p, "max", NULL, d->max);
	dgr_pr_ns_mean(p, "mean", NULL, d->mean);
}

static void print_latency(struct dgr_pr *p, const struct dgr_latency_summary *l)
{
	dgr_pr_obj_begin(p, "latency_ns", NULL);
	print_dist(p, &l->from_complete);
	dgr_pr_u64(p, "stored", NULL, l->from_complete.stored);
	dgr_pr_ns_mean(p, "mean_wait_consumer", NULL, l->mean_wait_consumer);
	dgr_pr_ns_mean(p, "mean_consumer_work", NULL, l->mean_consumer_work);
	dgr_pr_ns_mean(p, "mean_wait_send", NULL, l->mean_wait_send);
	dgr_pr_ns_mean(p, "mean_wait_receive", NULL, l->mean_wait_receive);
	dgr_pr_obj_end(p);
	/* the same doorbells from the kernel's arrival of the completing frame */
	dgr_pr_obj_begin(p, "latency_from_arrival_ns", NULL);
	print_dist(p, &l->from_arrival);
	dgr_pr_obj_end(p);
}

/*
 * RX: the latency the buffers tolerate at the stream's rate, (N_c + N_p) x S / R
 * (docs/protocol.md), and how far the doorbells stayed inside it. The rate is
 * taken over the stream's span (first to last completion), which needs two
 * transactions.
 */
static void print_tolerable(struct dgr_pr *p, const struct dgr_conn_opts *co, struct dgr_conn *c,
			    uint64_t bytes, uint64_t transactions,
			    const struct dgr_latency_summary *l)
{
	uint64_t first, last;
	double rate = 0, tolerable = 0;

	dgr_conn_stream_span(c, &first, &last);
	if (transactions >= 2 && last > first) {
		/* the bytes of the transactions after the first, over the time they took */
		rate = (double)bytes * (double)(transactions - 1) / (double)transactions /
		       ((double)(last - first) / 1e9);
		tolerable = (double)(co->buffers + co->peer_buffers) * co->buffer_size / rate * 1e9;
	}
	dgr_pr_obj_begin(p, "tolerable_latency", NULL);
	dgr_pr_u64(p, "host_buffers", NULL, co->buffers);
	dgr_pr_u64(p, "fpga_buffers", NULL, co->peer_buffers);
	dgr_pr_u64(p, "buffer_size", NULL, co->buffer_size);
	dgr_pr_dbl(p, "stream_rate_mbyte_s", NULL, rate / 1e6, 1);
	dgr_pr_ns(p, "latency_ns", NULL, (uint64_t)tolerable);
	if (tolerable > 0) {
		/* from the kernel's arrival: what the FPGA waits for, as far as the host can see */
		dgr_pr_ns_signed(p, "margin_p999_ns", NULL,
				 (int64_t)tolerable - (int64_t)l->from_arrival.p999);
		dgr_pr_ns_signed(p, "margin_max_ns", NULL,
				 (int64_t)tolerable - (int64_t)l->from_arrival.max);
	}
	dgr_pr_obj_end(p);
}

static void print_summary(struct dgr_pr *p, struct host_run *r, struct dgr_conn *c,
			  const struct summary *sm)
{
	struct host_cfg *cfg = r->cfg;
	struct dgr_conn_stats s;
	struct dgr_latency_summary l;
	const struct dgr_ramp *ramp = dgr_conn_ramp(c);
	struct incomplete_list il = { .p = p };
	bool rx = cfg->co.direction == DGR_DIR_RX;
	uint64_t bytes;
	int rb, sb;

	dgr_conn_get_stats(c, &s);
	dgr_conn_latency(c, &l);
	bytes = rx ? s.data_bytes_rx : s.data_bytes_tx;
	dgr_pr_str(p, "mode", NULL, cfg->mode);
	dgr_pr_str(p, "status", NULL, sm->status);
	if (sm->error) {
		dgr_pr_str(p, "error", NULL, sm->error);
	}
	if (dgr_conn_warning(c)) {
		dgr_pr_str(p, "warning", NULL, dgr_conn_warning(c));
	}
	dgr_pr_dbl(p, "duration_s", NULL, sm->seconds, 3);
	dgr_pr_u64(p, "transactions", NULL, rx ? s.txns_completed : s.txns_sent);
	dgr_pr_u64(p, "doorbells_sent", NULL, s.doorbells_sent);
	dgr_pr_u64(p, "doorbells_sent_by_consumer", NULL, s.doorbells_inline);
	dgr_pr_u64(p, "doorbells_received", NULL, s.doorbells_received);
	dgr_pr_u64(p, "bytes", NULL, bytes);
	dgr_pr_dbl(p, "rate_mbyte_s", NULL,
		   sm->seconds > 0 ? (double)bytes / sm->seconds / 1e6 : 0.0, 1);
	dgr_pr_dbl(p, "rate_msample_s", NULL,
		   sm->seconds > 0 ? (double)bytes / DGR_SAMPLE_BYTES / sm->seconds / 1e6 : 0.0, 2);
	dgr_pr_u64(p, "samples_received", NULL, s.samples_received);
	dgr_pr_u64(p, "samples_lost", NULL, s.samples_lost);
	dgr_pr_dbl(p, "drop_rate", NULL, sm->drop_rate, 6);
	dgr_pr_u64(p, "malformed_frames", NULL, s.malformed_frames);
	dgr_pr_u64(p, "incomplete_transactions", NULL, sm->incomplete + s.incomplete_timed_out);
	if (!rx) {
		dgr_pr_u64(p, "buffers_unanswered", NULL, sm->unanswered);
	}
	dgr_pr_u64(p, "frames_dropped_injected", NULL, dgr_conn_injected_drops(c));
	if (rx && cfg->stall) {
		dgr_pr_obj_begin(p, "consumer_stall", NULL);
		dgr_pr_u64(p, "at_buffer", NULL, cfg->stall_at);
		dgr_pr_ns(p, "requested_ns", NULL, cfg->stall_ns);
		dgr_pr_ns(p, "stalled_ns", NULL, r->stalled_ns);
		dgr_pr_obj_end(p);
	}
	print_latency(p, &l);
	if (rx) {
		print_tolerable(p, &cfg->co, c, bytes, s.txns_completed, &l);
		dgr_pr_obj_begin(p, "ramp", NULL);
		dgr_pr_u64(p, "first_value", NULL, ramp->first);
		dgr_pr_u64(p, "gaps", NULL, ramp->gaps);
		dgr_pr_u64(p, "backwards", NULL, ramp->backwards);
		dgr_pr_arr_begin(p, "first_gaps", NULL);
		for (uint64_t i = 0; i < ramp->gaps && i < DGR_RAMP_GAPS_KEPT; i++) {
			dgr_pr_obj_begin(p, NULL, NULL);
			dgr_pr_u64(p, "at_sample", NULL, ramp->gap[i].at_sample);
			dgr_pr_u64(p, "expected", NULL, ramp->gap[i].expected);
			dgr_pr_u64(p, "got", NULL, ramp->gap[i].got);
			dgr_pr_u64(p, "lost", NULL,
				   (uint32_t)(ramp->gap[i].got - ramp->gap[i].expected));
			dgr_pr_obj_end(p);
		}
		dgr_pr_arr_end(p);
		dgr_pr_obj_end(p);
	}
	dgr_pr_arr_begin(p, "incomplete", NULL);
	dgr_conn_foreach_incomplete(c, print_incomplete, &il);
	dgr_pr_arr_end(p);
	dgr_pr_obj_begin(p, "transport", NULL);
	dgr_pr_str(p, "kind", NULL,
		   dgr_transport_kind_of(dgr_conn_transport(c)) == DGR_TRANSPORT_UDP ? "udp"
										     : "ether");
	dgr_pr_u64(p, "mtu", NULL, dgr_transport_mtu(dgr_conn_transport(c)));
	dgr_pr_u64(p, "frame_cap", NULL, dgr_transport_frame_cap(dgr_conn_transport(c)));
	dgr_transport_bufsizes(dgr_conn_transport(c), &rb, &sb);
	dgr_pr_i64(p, "rcvbuf", NULL, rb);
	dgr_pr_i64(p, "sndbuf", NULL, sb);
	dgr_pr_str(p, "receive", NULL,
		   dgr_transport_has_rx_ring(dgr_conn_transport(c)) ? "ring" : "recvmmsg");
	dgr_pr_obj_end(p);
	dgr_pr_obj_begin(p, "threads", NULL);
	for (int t = 0; t < DGR_T_COUNT; t++) {
		struct dgr_sched_info si;
		struct dgr_thread_stats ts;
		char cpus[24];

		if (!dgr_conn_thread_used(c, t)) {
			continue;
		}
		dgr_conn_get_sched(c, t, &si);
		dgr_conn_get_thread_stats(c, t, &ts);
		snprintf(cpus, sizeof(cpus), "0x%" PRIx64, si.cpuset);
		dgr_pr_obj_begin(p, dgr_conn_thread_name(c, t), NULL);
		dgr_pr_i64(p, "tid", NULL, si.tid);
		dgr_pr_str(p, "policy", NULL, policy_name(si.policy));
		dgr_pr_i64(p, "priority", NULL, si.priority);
		dgr_pr_i64(p, "nice", NULL, si.nice);
		dgr_pr_str(p, "cpus", NULL, cpus);
		dgr_pr_u64(p, "items", NULL, ts.items);
		dgr_pr_u64(p, "loops", NULL, ts.loops);
		dgr_pr_u64(p, "idle_waits", NULL, ts.idle_waits);
		dgr_pr_ns(p, "cpu_user_ns", NULL, ts.cpu_user_ns);
		dgr_pr_ns(p, "cpu_sys_ns", NULL, ts.cpu_sys_ns);
		dgr_pr_ns_mean(
		    p, "cpu_ns_per_item", NULL,
		    ts.items ? (double)(ts.cpu_user_ns + ts.cpu_sys_ns) / (double)ts.items : 0.0);
		dgr_pr_obj_end(p);
	}
	dgr_pr_obj_end(p);
	dgr_pr_obj_begin(p, "counters", NULL);
	for (int i = 0; i < DGR_CONN_STATS_NFIELDS; i++) {
		dgr_pr_u64(p, dgr_conn_stats_names[i], NULL, ((const uint64_t *)&s)[i]);
	}
	dgr_pr_obj_end(p);
}

/* Opens the connection's sink or source file (PATH, or PATH.N with several peers). */
static int open_files(struct host_run *r, char *err)
{
	struct host_cfg *cfg = r->cfg;
	const char *base = cfg->co.direction == DGR_DIR_RX ? cfg->sink_path : cfg->source_path;

	r->fd = -1;
	if (base && cfg->npeers > 1 && cfg->co.direction == DGR_DIR_RX) {
		snprintf(r->path, sizeof(r->path), "%s.%u", base, r->index);
	} else if (base) {
		snprintf(r->path, sizeof(r->path), "%s", base);
	}
	if (cfg->co.direction == DGR_DIR_RX && cfg->sink == SINK_FILE) {
		int fl = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (cfg->direct ? O_DIRECT : 0);

		r->fd = open(r->path, fl, 0644);
		if (r->fd < 0) {
			snprintf(err, DGR_ERRBUF_SIZE, "--sink file:%s: %s", r->path,
				 strerror(errno));
			return -1;
		}
	}
	if (cfg->co.direction == DGR_DIR_TX && cfg->source == SOURCE_FILE) {
		r->fd = open(r->path, O_RDONLY | O_CLOEXEC);
		if (r->fd < 0) {
			snprintf(err, DGR_ERRBUF_SIZE, "--source file:%s: %s", r->path,
				 strerror(errno));
			return -1;
		}
	}
	if (cfg->sink == SINK_MEMCPY) {
		r->scratch = malloc(cfg->co.buffer_size);
		if (!r->scratch) {
			snprintf(err, DGR_ERRBUF_SIZE, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* One connection of a stream run: one per --peer, each with its own threads. */
struct host_conn {
	struct host_run r;
	struct dgr_conn *c;
	struct dgr_conn_opts co;
	struct summary sm;
	char err[DGR_ERRBUF_SIZE];
	bool running;
	uint64_t last_progress;
	uint64_t last_progress_ns;
	uint64_t end_ns;
	int status;
	bool ids_warned;
};

/* Frames with other ids before the first good one that prove an id mismatch. */
#define IDS_MISMATCH_FRAMES 8

/*
 * Says so once, within a poll (100 ms) of the 8th frame, when every frame of
 * the stream was dropped for its endpoint ids: a run that stays empty for a
 * reason the user can fix.
 */
static void warn_ids(const struct host_cfg *cfg, struct host_conn *h,
		     const struct dgr_conn_stats *s)
{
	uint16_t dst, src;

	if (h->ids_warned || s->frames_accepted > 0 ||
	    s->malformed_unknown_id < IDS_MISMATCH_FRAMES ||
	    !dgr_conn_wrong_ids(h->c, &dst, &src)) {
		return;
	}
	h->ids_warned = true;
	fprintf(stderr,
		"dgrdma-host: %s%" PRIu64 " frames dropped, none accepted: they carry dst_id %u "
		"(offset 0) and src_id %u (offset 2), this host expects dst_id %u (--id) and "
		"src_id %u (--peer-id). Run with --id %u --peer-id %u, or set the FPGA's "
		"remote_dst_id to %u and local_src_id to %u\n",
		cfg->npeers > 1 ? "peer: " : "", s->malformed_unknown_id, dst, src, h->co.id,
		h->co.peer_id, dst, src, h->co.id, h->co.peer_id);
}

/*
 * Why an RX stream made no progress for --idle-timeout, from the counters that
 * show it (err: DGR_ERRBUF_SIZE bytes).
 */
static void stall_reason(const struct host_conn *h, const struct dgr_conn_stats *s, char *err)
{
	uint16_t dst, src;

	if (s->frames_rx == 0 && s->frames_foreign > 0) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "no DG-RDMA frame came from --peer within --idle-timeout, and %" PRIu64
			 " packets from other addresses were dropped: is --peer the FPGA's "
			 "address (and port)?",
			 s->frames_foreign);
	} else if (s->frames_rx == 0) {
		/* the FPGA waits for doorbells of a first burst that was lost, or never sent */
		snprintf(err, DGR_ERRBUF_SIZE,
			 "no DG-RDMA frame arrived within --idle-timeout: is the FPGA started "
			 "and sending here? One started before this host received lost its "
			 "first burst and waits for doorbells that never come (start it once "
			 "--ready-file exists)");
	} else if (s->frames_accepted == 0 && dgr_conn_wrong_ids(h->c, &dst, &src)) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "every frame (%" PRIu64 ") was dropped for its endpoint ids: dst_id %u "
			 "src_id %u, expected %u (--id) and %u (--peer-id)",
			 s->malformed_unknown_id, dst, src, h->co.id, h->co.peer_id);
	} else if (h->co.peer_window && s->frames_unacked >= h->co.peer_window) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "the FPGA acknowledged none of our last %" PRIu64
			 " frames: one was lost and its ACK window (%u) waits for it for "
			 "ever (it would reject any further frame); %s",
			 s->frames_unacked, h->co.peer_window,
			 h->co.retransmit_ms ? "retransmission gave up (--retransmit-attempts)"
					     : "run with --retransmit MSEC");
	} else if (s->frames_missing > 0) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "no transaction completed within --idle-timeout: %" PRIu64
			 " frames from the FPGA never arrived (gaps in its frame_seq; socket "
			 "drops %" PRIu64 "), their transactions stay incomplete and the FPGA "
			 "does not send them again (raise --rcvbuf and the NIC rings)",
			 s->frames_missing, s->socket_drops);
	} else if (s->frames_out_of_window > 0) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "no transaction completed within --idle-timeout; %" PRIu64
			 " frames far ahead of the stream were dropped (forged or from another "
			 "connection)",
			 s->frames_out_of_window);
	} else {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "no transaction completed within --idle-timeout and no frame is missing: "
			 "the FPGA stopped sending (%" PRIu64 " frames received, %" PRIu64
			 " malformed, %" PRIu64 " from other addresses)",
			 s->frames_rx, s->malformed_frames, s->frames_foreign);
	}
}

/* The options of connection i: its peer, the peer's id, its tracepoint index. */
static int conn_options(struct host_cfg *cfg, unsigned int i, struct dgr_conn_opts *co, char *err)
{
	*co = cfg->co;
	co->conn_index = (uint16_t)i;
	co->peer_id = cfg->npeer_ids == 0 ? 1 : cfg->peer_ids[cfg->npeer_ids == 1 ? 0 : i];
	/* several peers share the interface or the port: each socket sees its peer only */
	co->transport.peer_only = cfg->npeers > 1;
	if (dgr_transport_parse_opt(&co->transport, DGR_OPT_PEER, cfg->peers[i], err) < 0 ||
	    dgr_transport_opts_finish(&co->transport, true, err) < 0) {
		return -1;
	}
	return 0;
}

/* Checks one running connection; returns true when it has finished (sm.status set). */
static bool conn_check(struct host_cfg *cfg, struct host_conn *h, uint64_t t)
{
	struct dgr_conn_stats s;
	uint64_t progress;
	int rc = dgr_conn_wait(h->c, 0);

	if (rc < 0) {
		h->sm.status = "failed";
		snprintf(h->err, sizeof(h->err), "%s",
			 h->r.sink_err[0] ? h->r.sink_err : "run failed");
		h->sm.error = h->err;
		return true;
	}
	if (rc == 1) {
		return true;
	}
	if (interrupted) {
		h->sm.status = "interrupted";
		return true;
	}
	if (cfg->duration_ns && cfg->co.direction == DGR_DIR_RX &&
	    t - h->r.start_ns >= cfg->duration_ns) {
		h->sm.status = "duration";
		return true;
	}
	if (cfg->duration_ns && cfg->co.direction == DGR_DIR_TX &&
	    t - h->r.start_ns >= cfg->duration_ns + cfg->idle_timeout_ns) {
		h->sm.status = "stalled";
		h->sm.error = "the FPGA did not return every credit in time";
		return true;
	}
	dgr_conn_get_stats(h->c, &s);
	warn_ids(cfg, h, &s);
	progress = s.txns_completed + s.buffers_consumed + s.txns_sent + s.doorbells_received;
	if (progress != h->last_progress) {
		h->last_progress = progress;
		h->last_progress_ns = t;
	} else if (cfg->idle_timeout_ns && t - h->last_progress_ns >= cfg->idle_timeout_ns) {
		h->sm.status = "stalled";
		if (cfg->co.direction != DGR_DIR_RX) {
			if (h->co.peer_window && s.frames_unacked >= h->co.peer_window) {
				stall_reason(h, &s, h->err);
				h->sm.error = h->err;
			} else {
				h->sm.error = "no credit returned within --idle-timeout";
			}
		} else {
			stall_reason(h, &s, h->err);
			h->sm.error = h->err;
		}
		return true;
	}
	return false;
}

/*
 * Stops a finished connection and judges it: its exit status (DGR_EXIT_OK, DGR_EXIT_FINDING
 * for --max-drop-rate exceeded, DGR_EXIT_FAILED for a run that did not end as asked),
 * messages on stderr.
 */
static int conn_finish(struct host_cfg *cfg, struct host_conn *h)
{
	struct dgr_conn_stats s;
	struct summary *sm = &h->sm;
	char who[32] = "";
	int status = 0;

	dgr_conn_stop(h->c);
	h->running = false;
	if (cfg->npeers > 1) {
		snprintf(who, sizeof(who), "peer %u: ", h->r.index);
	}
	sm->seconds = (double)(h->end_ns - h->r.start_ns) / 1e9;
	sm->incomplete = dgr_conn_foreach_incomplete(h->c, NULL, NULL);
	dgr_conn_get_stats(h->c, &s);
	if (cfg->co.direction == DGR_DIR_RX) {
		uint64_t total = s.samples_received + s.samples_lost;

		sm->drop_rate = total ? (double)s.samples_lost / (double)total : 0.0;
	} else {
		sm->unanswered =
		    s.txns_sent > s.doorbells_received ? s.txns_sent - s.doorbells_received : 0;
		sm->drop_rate = s.txns_sent ? (double)sm->unanswered / (double)s.txns_sent : 0.0;
	}
	if (cfg->max_drop_rate >= 0 && sm->drop_rate > cfg->max_drop_rate) {
		status = DGR_EXIT_FINDING;
	}
	if (strcmp(sm->status, "ended") != 0 && strcmp(sm->status, "duration") != 0) {
		status = DGR_EXIT_FAILED;
	}
	if (sm->incomplete + s.incomplete_timed_out > 0 && !cfg->co.retransmit_ms &&
	    strcmp(sm->status, "duration") != 0) {
		status = DGR_EXIT_FAILED;
	}
	if (sm->error) {
		fprintf(stderr, "dgrdma-host: %s%s: %s\n", who, sm->status, sm->error);
	}
	if (sm->incomplete + s.incomplete_timed_out > 0) {
		fprintf(stderr,
			"dgrdma-host: %s%u transactions still incomplete, %" PRIu64
			" timed out (frames lost; retransmission %s)\n",
			who, sm->incomplete, s.incomplete_timed_out,
			cfg->co.retransmit_ms ? "on" : "off");
	}
	return status;
}

/* The status of several connections: "ended" when all ended, else the first other one. */
static const char *total_status(const struct host_conn *h, unsigned int n)
{
	static const char *const worst_first[] = { "failed", "interrupted", "stalled", "duration" };

	for (size_t k = 0; k < sizeof(worst_first) / sizeof(worst_first[0]); k++) {
		for (unsigned int i = 0; i < n; i++) {
			if (strcmp(h[i].sm.status, worst_first[k]) == 0) {
				return worst_first[k];
			}
		}
	}
	return "ended";
}

/*
 * The totals of several connections at the top level (the keys of one
 * connection's summary where they add up; latency over all doorbells), then
 * one summary per connection under "connections".
 */
static void print_totals(struct dgr_pr *p, struct host_cfg *cfg, struct host_conn *h,
			 unsigned int n)
{
	struct dgr_conn *conns[HOST_MAX_PEERS];
	struct dgr_conn_stats s, sum;
	struct dgr_latency_summary l;
	bool rx = cfg->co.direction == DGR_DIR_RX;
	double seconds = 0, rate = 0, lost = 0, total = 0;
	uint64_t incomplete = 0, unanswered = 0, injected = 0, gaps = 0, backwards = 0;
	uint64_t *sv = (uint64_t *)&s, *sumv = (uint64_t *)&sum;

	memset(&sum, 0, sizeof(sum));
	for (unsigned int i = 0; i < n; i++) {
		const struct dgr_ramp *ramp = dgr_conn_ramp(h[i].c);

		conns[i] = h[i].c;
		dgr_conn_get_stats(h[i].c, &s);
		for (int k = 0; k < DGR_CONN_STATS_NFIELDS; k++) {
			sumv[k] += sv[k];
		}
		/* a high-water mark does not add up: the largest */
		sum.occupancy_hwm -= s.occupancy_hwm;
		if (s.occupancy_hwm > sum.occupancy_hwm) {
			sum.occupancy_hwm = s.occupancy_hwm;
		}
		seconds = h[i].sm.seconds > seconds ? h[i].sm.seconds : seconds;
		if (h[i].sm.seconds > 0) {
			rate += (double)(rx ? s.data_bytes_rx : s.data_bytes_tx) / h[i].sm.seconds;
		}
		incomplete += h[i].sm.incomplete + s.incomplete_timed_out;
		unanswered += h[i].sm.unanswered;
		injected += dgr_conn_injected_drops(h[i].c);
		gaps += ramp->gaps;
		backwards += ramp->backwards;
	}
	if (rx) {
		lost = (double)sum.samples_lost;
		total = (double)(sum.samples_received + sum.samples_lost);
	} else {
		lost = (double)unanswered;
		total = (double)sum.txns_sent;
	}
	(void)dgr_conn_latency_merged(conns, n, &l);
	dgr_pr_str(p, "mode", NULL, cfg->mode);
	dgr_pr_str(p, "status", NULL, total_status(h, n));
	for (unsigned int i = 0; i < n; i++) {
		if (h[i].sm.error) {
			dgr_pr_str(p, "error", NULL,
				   h[i].sm.error); /* the first connection's that failed */
			break;
		}
	}
	dgr_pr_dbl(p, "duration_s", NULL, seconds, 3);
	dgr_pr_u64(p, "transactions", NULL, rx ? sum.txns_completed : sum.txns_sent);
	dgr_pr_u64(p, "doorbells_sent", NULL, sum.doorbells_sent);
	dgr_pr_u64(p, "doorbells_sent_by_consumer", NULL, sum.doorbells_inline);
	dgr_pr_u64(p, "doorbells_received", NULL, sum.doorbells_received);
	dgr_pr_u64(p, "bytes", NULL, rx ? sum.data_bytes_rx : sum.data_bytes_tx);
	dgr_pr_dbl(p, "rate_mbyte_s", NULL, rate / 1e6, 1);
	dgr_pr_dbl(p, "rate_msample_s", NULL, rate / DGR_SAMPLE_BYTES / 1e6, 2);
	dgr_pr_u64(p, "samples_received", NULL, sum.samples_received);
	dgr_pr_u64(p, "samples_lost", NULL, sum.samples_lost);
	dgr_pr_dbl(p, "drop_rate", NULL, total > 0 ? lost / total : 0.0, 6);
	dgr_pr_u64(p, "malformed_frames", NULL, sum.malformed_frames);
	dgr_pr_u64(p, "incomplete_transactions", NULL, incomplete);
	if (!rx) {
		dgr_pr_u64(p, "buffers_unanswered", NULL, unanswered);
	}
	dgr_pr_u64(p, "frames_dropped_injected", NULL, injected);
	print_latency(p, &l);
	if (rx) {
		dgr_pr_obj_begin(p, "ramp", NULL);
		dgr_pr_u64(p, "gaps", NULL, gaps);
		dgr_pr_u64(p, "backwards", NULL, backwards);
		dgr_pr_obj_end(p);
	}
	dgr_pr_obj_begin(p, "counters", NULL);
	for (int i = 0; i < DGR_CONN_STATS_NFIELDS; i++) {
		dgr_pr_u64(p, dgr_conn_stats_names[i], NULL, sumv[i]);
	}
	dgr_pr_obj_end(p);
	dgr_pr_arr_begin(p, "connections", NULL);
	for (unsigned int i = 0; i < n; i++) {
		dgr_pr_obj_begin(p, NULL, NULL);
		dgr_pr_u64(p, "index", NULL, i);
		dgr_pr_str(p, "peer", NULL, cfg->peers[i]);
		dgr_pr_u64(p, "peer_id", NULL, h[i].co.peer_id);
		print_summary(p, &h[i].r, h[i].c, &h[i].sm);
		dgr_pr_obj_end(p);
	}
	dgr_pr_arr_end(p);
}

/* The summary: one connection's, or the totals and one per connection. */
static void print_run(struct dgr_pr *p, struct host_cfg *cfg, struct host_conn *h, unsigned int n)
{
	if (n == 1) {
		print_summary(p, &h[0].r, h[0].c, &h[0].sm);
	} else {
		print_totals(p, cfg, h, n);
	}
}

/*
 * Runs the stream (rx or tx) with every --peer, one connection each, all at
 * once. Returns the exit status: 0 when every connection ended cleanly and
 * met --max-drop-rate, 1 otherwise, 2 when one could not start.
 */
static int run_stream(struct host_cfg *cfg)
{
	struct host_conn *h;
	unsigned int n = cfg->npeers;
	unsigned int i = 0;
	char err[DGR_ERRBUF_SIZE] = "";
	int status = 0;

	h = calloc(n, sizeof(*h));
	if (!h) {
		fprintf(stderr, "dgrdma-host: out of memory\n");
		return DGR_EXIT_FAILED;
	}
	for (i = 0; i < n; i++) {
		h[i].r.fd = -1;
	}
	/* a file of an earlier run must not say ready before these sockets are bound */
	if (cfg->ready_file && dgr_ready_file_clear(cfg->ready_file, err) < 0) {
		goto ready_failed;
	}
	for (i = 0; i < n; i++) {
		struct host_conn *c = &h[i];

		c->r.cfg = cfg;
		c->r.index = i;
		c->sm.status = "ended";
		if (conn_options(cfg, i, &c->co, err) < 0 || open_files(&c->r, err) < 0) {
			goto start_failed;
		}
		c->co.on_stats = on_stats;
		c->co.stats_ctx = &c->r;
		if (dgr_conn_open(&c->co, &c->c, err) < 0) {
			goto start_failed;
		}
		if (dgr_conn_warning(c->c)) {
			fprintf(stderr, "dgrdma-host: warning: %s\n", dgr_conn_warning(c->c));
		}
	}
	for (i = 0; i < n; i++) {
		struct host_conn *c = &h[i];

		c->r.start_ns = now_ns();
		c->r.last_ns = c->r.start_ns;
		c->r.conn = c->c;
		if (dgr_conn_start(c->c, consume, produce, &c->r, err) < 0) {
			goto start_failed;
		}
		c->running = true;
		c->last_progress_ns = c->r.start_ns;
	}
	if (cfg->ready_file && dgr_ready_file_write(cfg->ready_file, err) < 0) {
		goto ready_failed;
	}
	for (;;) {
		unsigned int running = 0;
		uint64_t t;

		for (unsigned int k = 0; k < n; k++) {
			running += h[k].running;
		}
		if (running == 0) {
			break;
		}
		/* sleep on the first connection still running (any may end meanwhile) */
		for (unsigned int k = 0; k < n; k++) {
			if (h[k].running) {
				(void)dgr_conn_wait(h[k].c, 100);
				break;
			}
		}
		t = now_ns();
		for (unsigned int k = 0; k < n; k++) {
			if (h[k].running && conn_check(cfg, &h[k], t)) {
				h[k].end_ns = now_ns();
				int st = conn_finish(cfg, &h[k]);

				status = st > status ? st : status; /* a failure over a finding */
			}
		}
	}
	if (!cfg->quiet) {
		struct dgr_pr p;

		dgr_pr_begin(&p, stdout, DGR_PR_TEXT_KEYS | (cfg->json ? DGR_PR_JSON : 0));
		print_run(&p, cfg, h, n);
		dgr_pr_end(&p);
	}
	if (cfg->summary_json) {
		FILE *f = fopen(cfg->summary_json, "w");
		struct dgr_pr p;

		if (!f) {
			fprintf(stderr, "dgrdma-host: --summary-json %s: %s\n", cfg->summary_json,
				strerror(errno));
			status = DGR_EXIT_FAILED;
		} else {
			dgr_pr_begin(&p, f, DGR_PR_JSON);
			print_run(&p, cfg, h, n);
			dgr_pr_end(&p);
			if (fclose(f) != 0) {
				fprintf(stderr, "dgrdma-host: --summary-json %s: %s\n",
					cfg->summary_json, strerror(errno));
				status = DGR_EXIT_FAILED;
			}
		}
	}
	goto out;
start_failed:
	if (n > 1) {
		fprintf(stderr, "dgrdma-host: peer %u (%s): %s\n", i, cfg->peers[i], err);
	} else {
		fprintf(stderr, "dgrdma-host: %s\n", err);
	}
	status = DGR_EXIT_FAILED;
	goto out;
ready_failed:
	fprintf(stderr, "dgrdma-host: %s\n", err);
	status = DGR_EXIT_FAILED;
out:
	if (cfg->ready_file) {
		(void)dgr_ready_file_clear(cfg->ready_file, err);
	}
	for (unsigned int k = 0; k < n; k++) {
		dgr_conn_close(h[k].c);
		if (h[k].r.fd >= 0) {
			close(h[k].r.fd);
		}
		free(h[k].r.scratch);
	}
	free(h);
	return status;
}

/*
 * perf: the perftest measurement of the AXI guide over DG-RDMA, host -> FPGA
 * (tx), FPGA -> host (rx) or both at once on one connection (DGR_DIR_BOTH).
 * Message sizes 2, 4, 8, 16, 32 KiB (up to --buffer-size, which must match
 * the peer's buffers), --count messages each, one phase per size: a phase
 * starts both streams together (the producer is released; the FPGA's
 * perftest is told over DCP, on the connection, to send count messages of
 * tx_beats = size / 4 words) and ends when both have finished. A direction's
 * time runs from the phase start to its last message consumed at the far end
 * (tx: the FPGA's doorbell for it came back; rx: the host consumed it).
 * --memcpy: tx copies each message from a source buffer, rx copies each one
 * out (software load); without it the buffers go out and are taken as they
 * are. docs/stack.md, "dgrdma-host perf".
 */
#define PERF_SIZES	 5
#define PERF_POLL_NS	 100000ull /* how often the end of the tx stream is looked for */
#define PERF_DCP_TIMEOUT 200u	   /* ms per attempt */
#define PERF_DCP_RETRIES 5u

struct perf_run {
	struct host_cfg *cfg;
	uint32_t sizes[PERF_SIZES];
	unsigned int nsizes;
	uint64_t count;
	bool tx, rx;
	uint8_t *source;  /* tx --memcpy */
	uint8_t *scratch; /* rx --memcpy */

	/* main -> producer: the phases it may send (under lock) */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int released;
	bool abort;

	/* producer thread */
	unsigned int prod_phase;
	uint64_t prod_in_phase;
	uint64_t tx_msgs[PERF_SIZES], tx_bytes[PERF_SIZES];

	/* consumer thread; rx_phase is read by main (atomic) */
	unsigned int rx_phase;
	uint64_t rx_in_phase;
	uint64_t rx_msgs[PERF_SIZES], rx_bytes[PERF_SIZES];
	uint64_t rx_done_ns[PERF_SIZES];
	uint64_t rx_eofs;
	uint64_t rx_unexpected; /* messages of no phase or of the wrong size */
	uint64_t rx_total;	/* atomic: messages consumed */

	/* main */
	uint64_t start_ns[PERF_SIZES];
	uint64_t tx_done_ns[PERF_SIZES];
	unsigned int phases_done;
};

static int produce_perf(void *ctx, struct dgr_buffer_view *b)
{
	struct perf_run *p = ctx;
	unsigned int ph = p->prod_phase;

	if (ph >= p->nsizes) {
		return 0;
	}
	if (p->prod_in_phase == 0) {
		/* wait until main starts this phase (both directions together) */
		pthread_mutex_lock(&p->lock);
		while (p->released <= ph && !p->abort) {
			pthread_cond_wait(&p->cond, &p->lock);
		}
		pthread_mutex_unlock(&p->lock);
		if (p->abort) {
			return 0;
		}
	}
	b->len = p->sizes[ph];
	b->opcode = DGR_OPCODE_SAMPLES;
	if (p->cfg->perf_memcpy) {
		memcpy(b->data, p->source, b->len);
	}
	p->tx_msgs[ph]++;
	p->tx_bytes[ph] += b->len;
	if (++p->prod_in_phase == p->count) {
		p->prod_in_phase = 0;
		p->prod_phase++;
		b->eof = p->prod_phase == p->nsizes;
	}
	return 1;
}

static int consume_perf(void *ctx, const struct dgr_buffer_view *b)
{
	struct perf_run *p = ctx;
	unsigned int ph = p->rx_phase;

	if (ph >= p->nsizes || b->len != p->sizes[ph] || b->opcode != DGR_OPCODE_SAMPLES) {
		p->rx_unexpected++;
		return 0;
	}
	if (p->cfg->perf_memcpy) {
		memcpy(p->scratch, b->data, b->len);
		__asm__ volatile("" : : "r"(p->scratch) : "memory");
	}
	p->rx_msgs[ph]++;
	p->rx_bytes[ph] += b->len;
	p->rx_eofs += b->eof;
	__atomic_store_n(&p->rx_total, p->rx_total + 1, __ATOMIC_RELAXED);
	if (++p->rx_in_phase == p->count) {
		p->rx_done_ns[ph] = now_ns();
		p->rx_in_phase = 0;
		__atomic_store_n(&p->rx_phase, ph + 1, __ATOMIC_RELEASE);
	}
	return 0;
}

/* One DCP write or read of the FPGA's perftest worker. Returns 0 or < 0 with err. */
static int perf_dcp(struct dgr_conn *c, const struct host_cfg *cfg, enum dcp_kind kind,
		    uint32_t offset, uint32_t data, uint32_t *out, char *err)
{
	struct dcp_packet q, r;
	uint32_t addr = dcp_property_addr(cfg->perf_worker, offset);
	int rc;

	memset(&q, 0, sizeof(q));
	q.kind = kind;
	q.low = 0xF;
	q.addr = addr;
	q.data = data;
	rc = dgr_conn_dcp(c, &q, &r, PERF_DCP_TIMEOUT, PERF_DCP_RETRIES, err);
	if (rc < 0) {
		return rc;
	}
	if (r.low != DCP_RESP_OK || (kind == DCP_KIND_READ && r.kind != DCP_KIND_READ_RESP)) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "the FPGA answered '%s' to the DCP %s of 0x%06x (perftest worker %u, "
			 "--perftest-worker; its buffers smaller than --buffer-size?)",
			 dcp_resp_code_name(r.low), dcp_kind_name(kind), addr, cfg->perf_worker);
		return -DGR_E_STATE;
	}
	if (out) {
		*out = r.data;
	}
	return 0;
}

/*
 * Resets the FPGA's DG-RDMA endpoint (the reset control operation of worker
 * 0: a new host connection, whose first transaction goes into host buffer 0),
 * reads the perftest's tx_messages_sent and arms its tx side. Returns the
 * messages sent before, or < 0 with err.
 */
static int64_t perf_rx_arm(struct perf_run *p, struct dgr_conn *c, char *err)
{
	const struct host_cfg *cfg = p->cfg;
	struct dcp_packet q, r;
	uint32_t lo, hi;
	uint64_t sent;

	memset(&q, 0, sizeof(q));
	q.kind = DCP_KIND_READ; /* a read performs the operation and returns its result */
	q.low = 0xF;
	q.addr = dcp_control_addr(0, DCP_CTL_RESET);
	if (dgr_conn_dcp(c, &q, &r, PERF_DCP_TIMEOUT, PERF_DCP_RETRIES, err) < 0) {
		return -1;
	}
	if (r.low != DCP_RESP_OK || r.data != DGR_OCCP_SUCCESS) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "the FPGA refused the reset of its DG-RDMA worker 0 ('%s', 0x%08x): "
			 "without it the FPGA's first message of this connection may not go "
			 "into host buffer 0; restart the FPGA before --direction rx or both",
			 dcp_resp_code_name(r.low), r.data);
		return -1;
	}

	/* the low word's read latches the high word (docs/fpga.md section 4) */
	if (perf_dcp(c, cfg, DCP_KIND_READ, DGR_PERFTEST_TX_MESSAGES_SENT, 0, &lo, err) < 0 ||
	    perf_dcp(c, cfg, DCP_KIND_READ, DGR_PERFTEST_TX_MESSAGES_SENT + 4, 0, &hi, err) < 0) {
		return -1;
	}
	sent = (uint64_t)hi << 32 | lo;
	if (sent + p->nsizes * p->count > UINT32_MAX) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "--count: %u sizes x %" PRIu64 " messages after the %" PRIu64
			 " the FPGA already sent exceed its 32-bit tx_messages",
			 p->nsizes, p->count, sent);
		return -1;
	}
	if (perf_dcp(c, cfg, DCP_KIND_WRITE, DGR_PERFTEST_TX_MESSAGES, (uint32_t)sent, NULL, err) <
		0 ||
	    perf_dcp(c, cfg, DCP_KIND_WRITE, DGR_PERFTEST_TX_RUN, 1, NULL, err) < 0) {
		return -1;
	}
	return (int64_t)sent;
}

/*
 * Runs the phases. Returns 0 when all completed, 1 when the run stopped
 * (stall, interrupt, failure; err says why).
 */
static int perf_phases(struct perf_run *p, struct dgr_conn *c, uint64_t rx_base, char *err)
{
	const struct host_cfg *cfg = p->cfg;
	uint64_t progress = 0, last_progress_ns = now_ns();

	for (unsigned int k = 0; k < p->nsizes; k++) {
		bool tx_done = !p->tx, rx_done = !p->rx;

		if (p->rx && perf_dcp(c, cfg, DCP_KIND_WRITE, DGR_PERFTEST_TX_BEATS,
				      p->sizes[k] / 4, NULL, err) < 0) {
			return 1;
		}
		p->start_ns[k] = now_ns();
		pthread_mutex_lock(&p->lock);
		p->released = k + 1;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
		if (p->rx && perf_dcp(c, cfg, DCP_KIND_WRITE, DGR_PERFTEST_TX_MESSAGES,
				      (uint32_t)(rx_base + (k + 1) * p->count), NULL, err) < 0) {
			return 1;
		}
		while (!tx_done || !rx_done) {
			struct dgr_conn_stats s;
			uint64_t t, now_progress;
			int rc;

			sleep_until(now_ns() + PERF_POLL_NS);
			t = now_ns();
			dgr_conn_get_stats(c, &s);
			if (!tx_done && s.doorbells_received >= (k + 1) * p->count) {
				p->tx_done_ns[k] = t;
				tx_done = true;
			}
			if (!rx_done && __atomic_load_n(&p->rx_phase, __ATOMIC_ACQUIRE) > k) {
				rx_done = true;
			}
			rc = dgr_conn_wait(c, 0);
			if (rc < 0) {
				snprintf(err, DGR_ERRBUF_SIZE, "the connection failed (%d)", rc);
				return 1;
			}
			if (interrupted) {
				snprintf(err, DGR_ERRBUF_SIZE, "interrupted");
				return 1;
			}
			now_progress = s.doorbells_received + s.txns_sent +
				       __atomic_load_n(&p->rx_total, __ATOMIC_RELAXED);
			if (now_progress != progress) {
				progress = now_progress;
				last_progress_ns = t;
			} else if (cfg->idle_timeout_ns &&
				   t - last_progress_ns >= cfg->idle_timeout_ns) {
				snprintf(
				    err, DGR_ERRBUF_SIZE,
				    "%u-byte messages: no progress within --idle-timeout (%s%s)",
				    p->sizes[k], tx_done ? "" : "tx credits missing",
				    rx_done   ? ""
				    : tx_done ? "rx messages missing"
					      : ", rx messages missing");
				return 1;
			}
		}
		p->phases_done = k + 1;
	}
	return 0;
}

/* Releases a producer waiting for its next phase: it ends its stream. */
static void perf_abort(struct perf_run *p)
{
	pthread_mutex_lock(&p->lock);
	p->abort = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

static double perf_rate(uint64_t bytes, uint64_t from, uint64_t to)
{
	return to > from ? (double)bytes / ((double)(to - from) / 1e9) / 1e6 : 0.0;
}

static void perf_print(const struct perf_run *p)
{
	const struct host_cfg *cfg = p->cfg;
	const char *mc = cfg->perf_memcpy ? "on" : "off";
	const char *dir = p->tx && p->rx ? "both" : p->tx ? "tx" : "rx";

	if (cfg->csv) {
		printf("message_size,messages,seconds,mbyte_s,msample_s,memcpy,direction,"
		       "tx_messages,tx_bytes,tx_seconds,tx_mbyte_s,rx_messages,rx_bytes,rx_seconds,"
		       "rx_mbyte_s\n");
	} else if (p->tx && p->rx) {
		printf("%8s %10s %9s %10s %10s %10s %10s  (both directions, memcpy %s)\n", "size",
		       "messages", "seconds", "tx MB/s", "rx MB/s", "sum MB/s", "sum MS/s", mc);
	} else {
		printf("%8s %10s %9s %10s %10s  (%s, memcpy %s)\n", "size", "messages", "seconds",
		       "MB/s", "MS/s", dir, mc);
	}
	for (unsigned int i = 0; i < p->nsizes; i++) {
		bool done = i < p->phases_done;
		uint64_t tx_end = done && p->tx ? p->tx_done_ns[i] : p->start_ns[i];
		uint64_t rx_end = done && p->rx ? p->rx_done_ns[i] : p->start_ns[i];
		uint64_t end = tx_end > rx_end ? tx_end : rx_end;
		double tx_s = (double)(tx_end - p->start_ns[i]) / 1e9;
		double rx_s = (double)(rx_end - p->start_ns[i]) / 1e9;
		double sec = (double)(end - p->start_ns[i]) / 1e9;
		double tx_mb = perf_rate(p->tx_bytes[i], p->start_ns[i], tx_end);
		double rx_mb = perf_rate(p->rx_bytes[i], p->start_ns[i], rx_end);
		double sum = tx_mb + rx_mb;

		if (cfg->csv) {
			printf("%u,%" PRIu64 ",%.6f,%.1f,%.2f,%s,%s,%" PRIu64 ",%" PRIu64
			       ",%.6f,%.1f,%" PRIu64 ",%" PRIu64 ",%.6f,%.1f\n",
			       p->sizes[i], p->count, sec, sum, sum / 4, mc, dir, p->tx_msgs[i],
			       p->tx_bytes[i], tx_s, tx_mb, p->rx_msgs[i], p->rx_bytes[i], rx_s,
			       rx_mb);
		} else if (p->tx && p->rx) {
			printf("%8u %10" PRIu64 " %9.3f %10.1f %10.1f %10.1f %10.2f\n", p->sizes[i],
			       p->count, sec, tx_mb, rx_mb, sum, sum / 4);
		} else {
			printf("%8u %10" PRIu64 " %9.3f %10.1f %10.2f\n", p->sizes[i], p->count,
			       sec, sum, sum / 4);
		}
	}
}

static int run_perf(struct host_cfg *cfg)
{
	static const uint32_t all[PERF_SIZES] = { 2048, 4096, 8192, 16384, 32768 };
	struct perf_run p = { .cfg = cfg };
	struct dgr_conn *c = NULL;
	struct dgr_conn_opts co = cfg->co;
	char err[DGR_ERRBUF_SIZE] = "";
	int64_t rx_base = 0;
	int rc, status = DGR_EXIT_FAILED;

	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.cond, NULL);
	p.tx = cfg->perf_direction != DGR_DIR_RX;
	p.rx = cfg->perf_direction != DGR_DIR_TX;
	for (unsigned int i = 0; i < PERF_SIZES; i++) {
		if (all[i] <= co.buffer_size) {
			p.sizes[p.nsizes++] = all[i];
		}
	}
	if (p.nsizes == 0) {
		fprintf(stderr, "dgrdma-host perf: --buffer-size must be at least 2048\n");
		status = DGR_EXIT_USAGE;
		goto out;
	}
	p.count = cfg->perf_count ? cfg->perf_count : 16384;
	p.source = malloc(co.buffer_size);
	p.scratch = malloc(co.buffer_size);
	if (!p.source || !p.scratch) {
		fprintf(stderr, "dgrdma-host perf: out of memory\n");
		goto out;
	}
	dgr_ramp_fill(p.source, co.buffer_size, 0);
	if (conn_options(cfg, 0, &co, err) < 0) {
		fprintf(stderr, "dgrdma-host perf: %s\n", err);
		goto out;
	}
	co.direction = cfg->perf_direction;
	co.eof_continues = true; /* every rx phase ends with an EOF message */
	co.on_stats = NULL;
	rc = dgr_conn_open(&co, &c, err);
	if (rc == 0) {
		rc = dgr_conn_start(c, p.rx ? consume_perf : NULL, p.tx ? produce_perf : NULL, &p,
				    err);
	}
	if (rc == 0 && p.rx) {
		rx_base = perf_rx_arm(&p, c, err);
		rc = rx_base < 0 ? -1 : 0;
	}
	if (rc < 0) {
		fprintf(stderr, "dgrdma-host perf: %s\n", err);
		goto out;
	}
	status = perf_phases(&p, c, (uint64_t)rx_base, err) ? DGR_EXIT_FAILED : DGR_EXIT_OK;
	perf_abort(&p);
	dgr_conn_stop(c);
	if (status != 0) {
		fprintf(stderr, "dgrdma-host perf: the sweep did not complete: %s\n", err);
	}
	if (p.rx) {
		struct dgr_conn_stats s;

		dgr_conn_get_stats(c, &s);
		if (p.rx_unexpected || s.samples_lost || s.ramp_gaps ||
		    (status == 0 && p.rx_eofs != p.nsizes)) {
			fprintf(stderr,
				"dgrdma-host perf: the FPGA's messages: %" PRIu64
				" unexpected (no phase, wrong size), %" PRIu64
				" samples lost in %" PRIu64 " ramp gaps, %" PRIu64
				" EOFs for %u phases\n",
				p.rx_unexpected, s.samples_lost, s.ramp_gaps, p.rx_eofs, p.nsizes);
			status = DGR_EXIT_FAILED;
		}
	}
	perf_print(&p);
out:
	perf_abort(&p); /* a producer waiting for its phase lets the connection stop */
	dgr_conn_close(c);
	free(p.source);
	free(p.scratch);
	pthread_cond_destroy(&p.cond);
	pthread_mutex_destroy(&p.lock);
	return status;
}

int main(int argc, char **argv)
{
	struct host_cfg cfg;
	char err[DGR_ERRBUF_SIZE] = "";
	char prog[32];
	struct sigaction sa;

	memset(&cfg, 0, sizeof(cfg));
	dgr_conn_opts_init(&cfg.co);
	cfg.max_drop_rate = -1;
	cfg.idle_timeout_ns = 5000000000ull;
	cfg.perf_direction = DGR_DIR_TX;
	cfg.perf_worker = DGR_WORKER_PERFTEST; /* docs/fpga.md section 4 */
	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? DGR_EXIT_USAGE : DGR_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("dgrdma-host (dgrdma-tools) %s\n", DGR_VERSION);
		return DGR_EXIT_OK;
	}
	cfg.mode = argv[1];
	if (strcmp(cfg.mode, "rx") == 0) {
		cfg.co.direction = DGR_DIR_RX;
	} else if (strcmp(cfg.mode, "tx") == 0 || strcmp(cfg.mode, "perf") == 0) {
		cfg.co.direction = DGR_DIR_TX;
	} else {
		fprintf(stderr, "dgrdma-host: '%s' is not a mode: rx, tx or perf\n", cfg.mode);
		return DGR_EXIT_USAGE;
	}
	/* getopt's own messages (an unknown option, a missing value) name the mode */
	snprintf(prog, sizeof(prog), "dgrdma-host %s", cfg.mode);
	argv[1] = prog;
	if (parse_args(argc - 1, argv + 1, &cfg, err) < 0) {
		fprintf(stderr, "dgrdma-host: %s\n", err);
		return DGR_EXIT_USAGE;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (strcmp(cfg.mode, "perf") == 0) {
		return run_perf(&cfg);
	}
	return run_stream(&cfg);
}
