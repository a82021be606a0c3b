// SPDX-License-Identifier: GPL-2.0-or-later
/* dgrdma-host's command line: usage() and the option table. */
#include <getopt.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/transport.h>

#include "transport_opts.h"
#include "dgrdma-version.h"
#include "host.h"

/* See host.h. */
void host_usage(FILE *f)
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
	    "  --peer-kind fpga|host  what --peer is (default fpga): toward an FPGA no\n"
	    "                         ACK-only frame is sent (OpenCPI's parser reads its\n"
	    "                         padding as frame 0 and loses the real one at the\n"
	    "                         16-bit wrap); a dgrdma-host peer also gets them\n"
	    "  --acks                 acknowledge the peer's frames (off, as in OpenCPI);\n"
	    "                         toward an FPGA only on frames with messages\n"
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
	{ "peer-kind", required_argument, NULL, OPT_PEER_KIND },
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

/* How a row of value_options stores its value. */
enum value_kind {
	VK_FLAG,     /* no value: the bool field becomes the row's flag */
	VK_UNSIGNED, /* dgr_parse_u64 in min..max (sizes: K, M, G), times scale */
	VK_SECONDS,  /* dgr_parse_seconds up to max seconds, in ns */
	VK_STRING,   /* the value as given (a path) */
};

/* The options that only store a value; the others are the cases of host_parse_args. */
static const struct value_option {
	int opt;
	enum value_kind kind;
	size_t field; /* offsetof(struct host_cfg, ...) */
	size_t size;  /* sizeof the field */
	uint64_t min, max;
	bool sizes;
	uint64_t scale; /* VK_UNSIGNED: stored as value * scale (0: 1) */
	bool flag;	/* VK_FLAG: the value stored */
} value_options[] = {
#define FIELD(m) .field = offsetof(struct host_cfg, m), .size = sizeof(((struct host_cfg *)0)->m)
#define FLAG(o, m, v)                                                                              \
	{                                                                                          \
		.opt = (o), .kind = VK_FLAG, FIELD(m), .flag = (v)                                 \
	}
#define UNSIGNED(o, m, lo, hi)                                                                     \
	{                                                                                          \
		.opt = (o), .kind = VK_UNSIGNED, FIELD(m), .min = (lo), .max = (hi)                \
	}
#define SECONDS(o, m, hi)                                                                          \
	{                                                                                          \
		.opt = (o), .kind = VK_SECONDS, FIELD(m), .max = (hi)                              \
	}
#define STRING(o, m)                                                                               \
	{                                                                                          \
		.opt = (o), .kind = VK_STRING, FIELD(m)                                            \
	}
	SECONDS(OPT_DURATION, duration_ns, 86400 * 365),
	SECONDS(OPT_IDLE, idle_timeout_ns, 86400),
	UNSIGNED(OPT_BUFFERS, co.buffers, 1, DGR_MAX_BUFFERS),
	UNSIGNED(OPT_FPGA_BUFFERS, co.peer_buffers, DGR_FPGA_BUFFERS_MIN, DGR_FPGA_BUFFERS_MAX),
	UNSIGNED(OPT_COALESCE, co.coalesce_wait_us, 0, 1000000),
	FLAG(OPT_ACKS, co.acks, true),
	UNSIGNED(OPT_RETRANSMIT, co.retransmit_ms, 1, 60000),
	UNSIGNED(OPT_PEER_WINDOW, co.peer_window, 0, DGR_MAX_PEER_WINDOW),
	UNSIGNED(OPT_RT_ATTEMPTS, co.retransmit_attempts, 1, 255),
	UNSIGNED(OPT_INCOMPLETE, co.incomplete_ms, 1, 600000),
	FLAG(OPT_STRICT, co.strict_lengths, true),
	FLAG(OPT_FSYNC, fsync_each, true),
	FLAG(OPT_DIRECT, direct, true),
	{ .opt = OPT_DELAY,
	  .kind = VK_UNSIGNED,
	  FIELD(consumer_delay_ns),
	  .max = 10000000,
	  .scale = 1000 },
	FLAG(OPT_NO_RAMP, co.check_ramp, false),
	{ .opt = OPT_BYTES,
	  .kind = VK_UNSIGNED,
	  FIELD(total_bytes),
	  .min = 1,
	  .max = 1ull << 50,
	  .sizes = true },
	FLAG(OPT_CSV, csv, true),
	UNSIGNED(OPT_COUNT, perf_count, 1, 1ull << 32),
	FLAG(OPT_MEMCPY, perf_memcpy, true),
	UNSIGNED(OPT_PERF_WORKER, perf_worker, 0, 62),
	FLAG(OPT_BUSY_WAIT, co.busy_wait, true),
	FLAG(OPT_NO_INLINE_DOORBELLS, co.inline_doorbells, false),
	UNSIGNED(OPT_DOORBELL_BATCH, co.doorbell_batch, 1, 255),
	UNSIGNED(OPT_DOORBELL_HOLD_US, co.doorbell_hold_us, 1, 1000000),
	UNSIGNED(OPT_RX_HOLDOFF_US, co.rx_holdoff_us, 0, 1000),
	SECONDS(OPT_STATS_INTERVAL, co.stats_interval_ns, 3600),
	STRING(OPT_SUMMARY_JSON, summary_json),
	STRING(OPT_READY_FILE, ready_file),
	FLAG(OPT_JSON, json, true),
	FLAG(OPT_QUIET, quiet, true),
	UNSIGNED(OPT_SEED, co.rx_drop_seed, 1, UINT64_MAX),
#undef STRING
#undef SECONDS
#undef UNSIGNED
#undef FLAG
#undef FIELD
};

/* Stores v in an unsigned field of size bytes (the table's are 64 or 32 bits wide). */
static void store_unsigned(void *field, size_t size, uint64_t v)
{
	uint32_t u = (uint32_t)v;

	if (size == sizeof(uint64_t)) {
		memcpy(field, &v, sizeof(v));
	} else {
		memcpy(field, &u, sizeof(u));
	}
}

/*
 * Applies opt when value_options has a row for it (name: as the user gave it).
 * Returns 1 when it did, 0 when opt has no row, -1 with err for a bad value.
 */
static int parse_value_option(struct host_cfg *cfg, int opt, const char *name, const char *arg,
			      char *err)
{
	const struct value_option *o = NULL;
	char *field;
	uint64_t v;

	for (size_t i = 0; i < sizeof(value_options) / sizeof(value_options[0]); i++) {
		if (value_options[i].opt == opt) {
			o = &value_options[i];
			break;
		}
	}
	if (!o) {
		return 0;
	}
	field = (char *)cfg + o->field;
	switch (o->kind) {
	case VK_FLAG:
		memcpy(field, &o->flag, sizeof(bool));
		break;
	case VK_UNSIGNED:
		if (parse_u(name, arg, o->min, o->max, o->sizes, &v, err) < 0) {
			return -1;
		}
		store_unsigned(field, o->size, o->scale ? v * o->scale : v);
		break;
	case VK_SECONDS:
		if (dgr_parse_seconds(name, arg, (double)o->max, &v, err) < 0) {
			return -1;
		}
		memcpy(field, &v, sizeof(v));
		break;
	case VK_STRING:
		memcpy(field, &arg, sizeof(arg));
		break;
	}
	return 1;
}

/* See host.h. */
int host_parse_args(int argc, char **argv, struct host_cfg *cfg, char *err)
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
		if (rc == 0) {
			rc = parse_value_option(cfg, opt, optname, optarg, err);
		}
		if (rc < 0) {
			return -1;
		}
		if (rc == 1) {
			continue;
		}
		switch (opt) {
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
		case OPT_RATE: {
			double d;

			if (dgr_parse_rate(optname, optarg, 0, 1e11, &d, err) < 0) {
				return -1;
			}
			cfg->rate_sps = (uint64_t)d;
			break;
		}
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
		case OPT_PEER_KIND:
			if (strcmp(optarg, "fpga") == 0) {
				co->peer_kind = DGR_PEER_FPGA;
			} else if (strcmp(optarg, "host") == 0) {
				co->peer_kind = DGR_PEER_HOST;
			} else {
				snprintf(err, DGR_ERRBUF_SIZE,
					 "--peer-kind: '%s' is not fpga or host", optarg);
				return -1;
			}
			break;
		case OPT_DROP_RX: {
			double d;

			if (dgr_parse_f64(optname, optarg, 0, 1, &d, err) < 0) {
				return -1;
			}
			co->rx_drop_ppm = (uint32_t)(d * 1e6 + 0.5);
			break;
		}
		case 'h':
			host_usage(stdout);
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

/* See host.h. */
const char *host_acks_notice(const struct host_cfg *cfg)
{
	if (!cfg->co.acks || cfg->co.peer_kind != DGR_PEER_FPGA) {
		return NULL;
	}
	return "--acks toward an FPGA (--peer-kind fpga, the default): the ACKs ride only on "
	       "frames with messages, no ACK-only frame is sent. OpenCPI's frame parser reads "
	       "an ACK-only frame's padding as a frame 0, which near the 16-bit frame_seq wrap "
	       "makes it drop our real frame 0 and stop writing flags; and it ignores the ACKs "
	       "it receives (docs/protocol.md). Give --peer-kind host for a dgrdma-host peer.";
}

/* See host.h. */
int host_conn_options(struct host_cfg *cfg, unsigned int i, struct dgr_conn_opts *co, char *err)
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
