/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dgrdma-host: the tuning guide's test application over libdgrdma.
 *
 *   dgrdma-host rx   receive a stream into the buffer pool, check the ramp, sink it
 *   dgrdma-host tx   send a ramp or a file as fast as credits allow or at a rate
 *   dgrdma-host perf sweep buffer sizes (2..32 KiB) over tx, one row per size
 *
 * docs/stack.md describes every option; usage() lists them.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
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

#include "print.h"

enum sink_kind { SINK_NULL, SINK_FILE, SINK_MEMCPY };
enum source_kind { SOURCE_RAMP, SOURCE_FILE };

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
	bool json;
	bool quiet;
	double max_drop_rate; /* < 0: none */
	bool csv;
	uint64_t perf_count; /* perf: messages per size */
	bool perf_memcpy;    /* perf: copy every message from a source buffer */
};

/* State shared by the callbacks (worker thread) and main. */
struct host_run {
	struct host_cfg *cfg;
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
	fprintf(
	    f,
	    "Usage: dgrdma-host rx|tx|perf [OPTIONS]\n"
	    "\n"
	    "  rx    receive the FPGA's stream (ADC -> host), check its sample ramp, sink it\n"
	    "  tx    send a stream to the FPGA (host -> DAC) as credits allow or at --rate\n"
	    "  perf  tx throughput per message size 2..32 KiB (a table, or --csv)\n"
	    "\n" DGR_TRANSPORT_USAGE "\n"
	    "Stream and buffers:\n"
	    "  --duration SEC         stop after SEC seconds (default: when the stream ends)\n"
	    "  --idle-timeout SEC     give up when nothing completes for SEC (also before the\n"
	    "                         first transaction), 0..86400 (default 5; 0 = never)\n"
	    "  --buffers N            host buffers, 1..255 (default 64)\n"
	    "  --buffer-size BYTES    bytes per buffer, 64..2M, multiple of 16 (default 16K)\n"
	    "  --fpga-buffers N       the FPGA's buffers, 1..64 (default 4)\n"
	    "  --id N / --peer-id N   endpoint ids, 0..65535 (default 0 / 1)\n"
	    "  --coalesce-wait USEC   hold a partly filled frame, 0..1000000 (default 0)\n"
	    "  --acks                 acknowledge the FPGA's frames (off, as in OpenCPI)\n"
	    "  --retransmit MSEC      resend unacknowledged frames after MSEC, 1..60000 (off)\n"
	    "  --retransmit-attempts N  resends before giving up, 1..255 (default 5)\n"
	    "  --incomplete-timeout MSEC  forget incomplete transactions, 1..600000 (1000)\n"
	    "  --doorbell flag|dcp[:ADDR] doorbells as flag-only transactions (default) or DCP\n"
	    "                         writes of the buffer index to ADDR (default 0x100018,\n"
	    "                         property doorbell of worker 0, docs/fpga.md)\n"
	    "  --strict               enforce the FPGA's fragment length rules on input\n"
	    "  --port-base ADDR       port memory base address (default rx 0, tx 0x40000000)\n"
	    "Fault injection:\n"
	    "  --drop-rx P            drop received DG-RDMA frames with probability P, 0..1\n"
	    "  --seed N               seed of --drop-rx, 1..2^64-1 (default fixed)\n"
	    "\n"
	    "rx:\n"
	    "  --sink null|memcpy|file:PATH  what the consumer does (default null)\n"
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
	    "  --rate SPS             samples (4 bytes) per second, e.g. 100e6, 0..1e11\n"
	    "                         (default 0: as fast as credits allow)\n"
	    "perf (TX path; --buffer-size is the peer's, default 16K; try 32K):\n"
	    "  --count N              messages per message size 2K..--buffer-size (16384)\n"
	    "  --memcpy               copy each message from a source buffer (software load)\n"
	    "  --csv                  CSV instead of a table\n"
	    "\n"
	    "Mitigations (each refusal by the OS is an error):\n"
	    "  --sched POLICY         all data threads: fifo:N, rr:N (1..99), nice:N (-20..19), "
	    "other\n"
	    "  --sched-rx/--sched-tx/--sched-worker/--sched-control POLICY  one thread\n"
	    "  --cpu LIST             all data threads on CPUs LIST (e.g. 2-3)\n"
	    "  --cpu-rx/--cpu-tx/--cpu-worker/--cpu-control LIST  one thread\n"
	    "  --busy-wait            stack threads spin instead of sleeping\n"
	    "\n"
	    "Output:\n"
	    "  --stats-interval SEC   print counters every SEC seconds\n"
	    "  --summary-json PATH    write the final summary as JSON to PATH\n"
	    "  --json                 print the summary as JSON on stdout\n"
	    "  --quiet                no summary on stdout\n"
	    "  --max-drop-rate R      exit 1 when the drop rate exceeds R (0..1)\n"
	    "  -h, --help             this text\n");
}

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
	OPT_STATS_INTERVAL,
	OPT_SUMMARY_JSON,
	OPT_JSON,
	OPT_QUIET,
	OPT_MAX_DROP,
	OPT_PORT_BASE,
	OPT_DROP_RX,
	OPT_SEED,
};

static const struct option long_opts[] = {
	DGR_TRANSPORT_LONGOPTS,
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "idle-timeout", required_argument, NULL, OPT_IDLE },
	{ "buffers", required_argument, NULL, OPT_BUFFERS },
	{ "buffer-size", required_argument, NULL, OPT_BUFSIZE },
	{ "fpga-buffers", required_argument, NULL, OPT_FPGA_BUFFERS },
	{ "id", required_argument, NULL, OPT_ID },
	{ "peer-id", required_argument, NULL, OPT_PEER_ID },
	{ "coalesce-wait", required_argument, NULL, OPT_COALESCE },
	{ "acks", no_argument, NULL, OPT_ACKS },
	{ "retransmit", required_argument, NULL, OPT_RETRANSMIT },
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
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "memcpy", no_argument, NULL, OPT_MEMCPY },
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
	{ "stats-interval", required_argument, NULL, OPT_STATS_INTERVAL },
	{ "summary-json", required_argument, NULL, OPT_SUMMARY_JSON },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "max-drop-rate", required_argument, NULL, OPT_MAX_DROP },
	{ "port-base", required_argument, NULL, OPT_PORT_BASE },
	{ "drop-rx", required_argument, NULL, OPT_DROP_RX },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "help", no_argument, NULL, 'h' },
	{ 0, 0, 0, 0 },
};

static int parse_u(const char *opt, const char *arg, uint64_t min, uint64_t max, bool sizes,
		   uint64_t *v, char *err)
{
	return dgr_parse_u64(opt, arg, min, max, sizes, v, err);
}

/* Parses argv into cfg. Returns 0, or -1 with err filled. */
static int parse_args(int argc, char **argv, struct host_cfg *cfg, char *err)
{
	struct dgr_conn_opts *co = &cfg->co;
	uint64_t v;
	int opt;
	int rc;

	while ((opt = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
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
			if (parse_u("--fpga-buffers", optarg, 1, 64, false, &v, err) < 0) {
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
			} else {
				co->peer_id = (uint16_t)v;
			}
			break;
		case OPT_COALESCE:
			if (parse_u("--coalesce-wait", optarg, 0, 1000000, false, &v, err) < 0) {
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
			char *end;
			double d;

			errno = 0;
			d = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(d >= 0 && d <= 1e11)) {
				snprintf(err, DGR_ERRBUF_SIZE,
					 "--rate: '%s' is out of range 0..1e11 samples/s", optarg);
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
				if ((k == 0 && t != DGR_T_CONTROL) || t == k - 1) {
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
				if ((k == 0 && t != DGR_T_CONTROL) || t == k - 1) {
					co->sched[t].cpuset = mask;
				}
			}
			break;
		}
		case OPT_BUSY_WAIT:
			co->busy_wait = true;
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
		case OPT_JSON:
			cfg->json = true;
			break;
		case OPT_QUIET:
			cfg->quiet = true;
			break;
		case OPT_MAX_DROP: {
			char *end;

			errno = 0;
			cfg->max_drop_rate = strtod(optarg, &end);
			if (errno || end == optarg || *end || cfg->max_drop_rate < 0 ||
			    cfg->max_drop_rate > 1) {
				snprintf(err, DGR_ERRBUF_SIZE,
					 "--max-drop-rate: '%s' is out of range 0..1", optarg);
				return -1;
			}
			break;
		}
		case OPT_PORT_BASE:
			if (parse_u("--port-base", optarg, 0, 0xC0000000u, false, &v, err) < 0) {
				return -1;
			}
			co->set_port_base = true;
			co->port_base = (uint32_t)v;
			break;
		case OPT_DROP_RX: {
			char *end;
			double d;

			errno = 0;
			d = strtod(optarg, &end);
			if (errno || end == optarg || *end || d < 0 || d > 1) {
				snprintf(err, DGR_ERRBUF_SIZE,
					 "--drop-rx: '%s' is out of range 0..1", optarg);
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
		default:
			snprintf(err, DGR_ERRBUF_SIZE, "unknown option (see --help)");
			return -1;
		}
	}
	if (optind < argc) {
		snprintf(err, DGR_ERRBUF_SIZE, "unexpected argument '%s'", argv[optind]);
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
	if (dgr_transport_opts_finish(&co->transport, true, err) < 0) {
		return -1;
	}
	return 0;
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
				snprintf(r->sink_err, sizeof(r->sink_err), "%s: write: %s",
					 cfg->sink_path, strerror(errno));
				return -DGR_E_SYS;
			}
			done += (size_t)n;
		}
		if (cfg->fsync_each && fsync(r->fd) != 0) {
			snprintf(r->sink_err, sizeof(r->sink_err), "%s: fsync: %s", cfg->sink_path,
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
				snprintf(r->sink_err, sizeof(r->sink_err), "%s: read: %s",
					 cfg->source_path, strerror(errno));
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

static void on_stats(void *ctx, struct dgr_conn *c)
{
	struct host_run *r = ctx;
	struct dgr_conn_stats s;
	uint64_t t = now_ns();
	uint64_t bytes;
	double dt;

	dgr_conn_get_stats(c, &s);
	bytes = r->cfg->co.direction == DGR_DIR_RX ? s.data_bytes_rx : s.data_bytes_tx;
	dt = (double)(t - r->last_ns) / 1e9;
	fprintf(stderr,
		"[%7.1f s] %8.1f MB/s  txns %" PRIu64 "/%" PRIu64 "  doorbells %" PRIu64 "/%" PRIu64
		"  in-use %" PRIu64 " (hwm %" PRIu64 ")  lost %" PRIu64 "  malformed %" PRIu64
		"  dup %" PRIu64 "  drops %" PRIu64 "  rtx %" PRIu64 "\n",
		(double)(t - r->start_ns) / 1e9,
		dt > 0 ? (double)(bytes - r->last_bytes) / dt / 1e6 : 0.0, s.txns_completed,
		s.txns_sent, s.doorbells_sent, s.doorbells_received, s.buffers_in_use,
		s.occupancy_hwm, s.samples_lost, s.malformed_frames, s.duplicate_frames,
		s.socket_drops, s.retransmits);
	r->last_bytes = bytes;
	r->last_ns = t;
}

struct incomplete_list {
	struct pr *p;
	unsigned int n;
};

static void print_incomplete(void *ctx, uint32_t txn_id, uint32_t bytes, uint16_t seen,
			     uint16_t num)
{
	struct incomplete_list *l = ctx;

	if (l->n++ >= 16) {
		return;
	}
	pr_obj_begin(l->p, NULL);
	pr_u64(l->p, "txn_id", txn_id);
	pr_u64(l->p, "bytes_seen", bytes);
	pr_u64(l->p, "msgs_seen", seen);
	pr_u64(l->p, "num_msgs", num);
	pr_obj_end(l->p);
}

struct summary {
	const char *status;
	const char *error;
	double seconds;
	double drop_rate;
	unsigned int incomplete;
	uint64_t unanswered; /* tx: buffers sent whose doorbell never came */
};

static void print_summary(struct pr *p, struct host_run *r, struct dgr_conn *c,
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
	pr_str(p, "mode", cfg->mode);
	pr_str(p, "status", sm->status);
	if (sm->error) {
		pr_str(p, "error", sm->error);
	}
	if (dgr_conn_warning(c)) {
		pr_str(p, "warning", dgr_conn_warning(c));
	}
	pr_dbl(p, "duration_s", sm->seconds, 3);
	pr_u64(p, "transactions", rx ? s.txns_completed : s.txns_sent);
	pr_u64(p, "doorbells_sent", s.doorbells_sent);
	pr_u64(p, "doorbells_received", s.doorbells_received);
	pr_u64(p, "bytes", bytes);
	pr_dbl(p, "rate_mbyte_s", sm->seconds > 0 ? (double)bytes / sm->seconds / 1e6 : 0.0, 1);
	pr_dbl(p, "rate_msample_s",
	       sm->seconds > 0 ? (double)bytes / DGR_SAMPLE_BYTES / sm->seconds / 1e6 : 0.0, 2);
	pr_u64(p, "samples_received", s.samples_received);
	pr_u64(p, "samples_lost", s.samples_lost);
	pr_dbl(p, "drop_rate", sm->drop_rate, 6);
	pr_u64(p, "malformed_frames", s.malformed_frames);
	pr_u64(p, "incomplete_transactions", sm->incomplete + s.incomplete_timed_out);
	if (!rx) {
		pr_u64(p, "buffers_unanswered", sm->unanswered);
	}
	pr_u64(p, "frames_dropped_injected", dgr_conn_injected_drops(c));
	if (rx && cfg->stall) {
		pr_obj_begin(p, "consumer_stall");
		pr_u64(p, "at_buffer", cfg->stall_at);
		pr_u64(p, "requested_ns", cfg->stall_ns);
		pr_u64(p, "stalled_ns", r->stalled_ns);
		pr_obj_end(p);
	}
	pr_obj_begin(p, "latency_ns");
	pr_u64(p, "count", l.count);
	pr_u64(p, "min", l.min);
	pr_u64(p, "p50", l.p50);
	pr_u64(p, "p90", l.p90);
	pr_u64(p, "p99", l.p99);
	pr_u64(p, "p999", l.p999);
	pr_u64(p, "max", l.max);
	pr_dbl(p, "mean", l.mean, 0);
	pr_u64(p, "stored", l.stored);
	pr_dbl(p, "mean_wait_consumer", l.mean_wait_consumer, 0);
	pr_dbl(p, "mean_consumer_work", l.mean_consumer_work, 0);
	pr_dbl(p, "mean_wait_send", l.mean_wait_send, 0);
	pr_obj_end(p);
	if (rx) {
		pr_obj_begin(p, "ramp");
		pr_u64(p, "first_value", ramp->first);
		pr_u64(p, "gaps", ramp->gaps);
		pr_u64(p, "backwards", ramp->backwards);
		pr_arr_begin(p, "first_gaps");
		for (uint64_t i = 0; i < ramp->gaps && i < DGR_RAMP_GAPS_KEPT; i++) {
			pr_obj_begin(p, NULL);
			pr_u64(p, "at_sample", ramp->gap[i].at_sample);
			pr_u64(p, "expected", ramp->gap[i].expected);
			pr_u64(p, "got", ramp->gap[i].got);
			pr_u64(p, "lost", (uint32_t)(ramp->gap[i].got - ramp->gap[i].expected));
			pr_obj_end(p);
		}
		pr_arr_end(p);
		pr_obj_end(p);
	}
	pr_arr_begin(p, "incomplete");
	dgr_conn_foreach_incomplete(c, print_incomplete, &il);
	pr_arr_end(p);
	pr_obj_begin(p, "transport");
	pr_str(p, "kind",
	       dgr_transport_kind_of(dgr_conn_transport(c)) == DGR_TRANSPORT_UDP ? "udp" : "ether");
	pr_u64(p, "mtu", dgr_transport_mtu(dgr_conn_transport(c)));
	pr_u64(p, "frame_cap", dgr_transport_frame_cap(dgr_conn_transport(c)));
	dgr_transport_bufsizes(dgr_conn_transport(c), &rb, &sb);
	pr_i64(p, "rcvbuf", rb);
	pr_i64(p, "sndbuf", sb);
	pr_obj_end(p);
	pr_obj_begin(p, "threads");
	for (int t = 0; t < DGR_T_COUNT; t++) {
		struct dgr_sched_info si;
		struct dgr_thread_stats ts;
		char cpus[24];

		dgr_conn_get_sched(c, t, &si);
		dgr_conn_get_thread_stats(c, t, &ts);
		snprintf(cpus, sizeof(cpus), "0x%" PRIx64, si.cpuset);
		pr_obj_begin(p, dgr_conn_thread_name(c, t));
		pr_i64(p, "tid", si.tid);
		pr_str(p, "policy", policy_name(si.policy));
		pr_i64(p, "priority", si.priority);
		pr_i64(p, "nice", si.nice);
		pr_str(p, "cpus", cpus);
		pr_u64(p, "items", ts.items);
		pr_u64(p, "loops", ts.loops);
		pr_u64(p, "idle_waits", ts.idle_waits);
		pr_u64(p, "cpu_user_ns", ts.cpu_user_ns);
		pr_u64(p, "cpu_sys_ns", ts.cpu_sys_ns);
		pr_dbl(p, "cpu_ns_per_item",
		       ts.items ? (double)(ts.cpu_user_ns + ts.cpu_sys_ns) / (double)ts.items : 0.0,
		       0);
		pr_obj_end(p);
	}
	pr_obj_end(p);
	pr_obj_begin(p, "counters");
	for (int i = 0; i < DGR_CONN_STATS_NFIELDS; i++) {
		pr_u64(p, dgr_conn_stats_names[i], ((const uint64_t *)&s)[i]);
	}
	pr_obj_end(p);
}

static int open_files(struct host_run *r, char *err)
{
	struct host_cfg *cfg = r->cfg;

	r->fd = -1;
	if (cfg->co.direction == DGR_DIR_RX && cfg->sink == SINK_FILE) {
		int fl = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (cfg->direct ? O_DIRECT : 0);

		r->fd = open(cfg->sink_path, fl, 0644);
		if (r->fd < 0) {
			snprintf(err, DGR_ERRBUF_SIZE, "--sink file:%s: %s", cfg->sink_path,
				 strerror(errno));
			return -1;
		}
	}
	if (cfg->co.direction == DGR_DIR_TX && cfg->source == SOURCE_FILE) {
		r->fd = open(cfg->source_path, O_RDONLY | O_CLOEXEC);
		if (r->fd < 0) {
			snprintf(err, DGR_ERRBUF_SIZE, "--source file:%s: %s", cfg->source_path,
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

/*
 * Runs one stream (rx or tx). Returns the exit status: 0 when the run ended
 * cleanly and met --max-drop-rate, 1 otherwise, 2 when it could not start.
 */
static int run_stream(struct host_cfg *cfg)
{
	struct host_run r = { .cfg = cfg };
	struct dgr_conn *c = NULL;
	char err[DGR_ERRBUF_SIZE] = "";
	struct summary sm = { .status = "ended" };
	struct dgr_conn_stats s;
	uint64_t last_progress_ns, last_progress = 0, end_ns;
	int status = 0;
	int rc;

	cfg->co.on_stats = on_stats;
	cfg->co.stats_ctx = &r;
	if (open_files(&r, err) < 0) {
		fprintf(stderr, "dgrdma-host: %s\n", err);
		status = 2;
		goto out;
	}
	rc = dgr_conn_open(&cfg->co, &c, err);
	if (rc < 0) {
		fprintf(stderr, "dgrdma-host: %s\n", err);
		status = 2;
		goto out;
	}
	if (dgr_conn_warning(c)) {
		fprintf(stderr, "dgrdma-host: warning: %s\n", dgr_conn_warning(c));
	}
	r.start_ns = now_ns();
	r.last_ns = r.start_ns;
	r.conn = c;
	rc = dgr_conn_start(c, consume, produce, &r, err);
	if (rc < 0) {
		fprintf(stderr, "dgrdma-host: %s\n", err);
		status = 2;
		goto out;
	}
	last_progress_ns = r.start_ns;
	for (;;) {
		uint64_t t, progress;

		rc = dgr_conn_wait(c, 100);
		t = now_ns();
		if (rc != 0) {
			break;
		}
		if (interrupted) {
			sm.status = "interrupted";
			break;
		}
		if (cfg->duration_ns && cfg->co.direction == DGR_DIR_RX &&
		    t - r.start_ns >= cfg->duration_ns) {
			sm.status = "duration";
			break;
		}
		if (cfg->duration_ns && cfg->co.direction == DGR_DIR_TX &&
		    t - r.start_ns >= cfg->duration_ns + cfg->idle_timeout_ns) {
			sm.status = "stalled";
			sm.error = "the FPGA did not return every credit in time";
			break;
		}
		dgr_conn_get_stats(c, &s);
		progress =
		    s.txns_completed + s.buffers_consumed + s.txns_sent + s.doorbells_received;
		if (progress != last_progress) {
			last_progress = progress;
			last_progress_ns = t;
		} else if (cfg->idle_timeout_ns && t - last_progress_ns >= cfg->idle_timeout_ns) {
			sm.status = "stalled";
			sm.error = cfg->co.direction == DGR_DIR_RX
				       ? "no transaction completed within --idle-timeout "
					 "(lost frames leave transactions incomplete)"
				       : "no credit returned within --idle-timeout";
			break;
		}
	}
	end_ns = now_ns();
	if (rc < 0) {
		sm.status = "failed";
		snprintf(err, sizeof(err), "%s", r.sink_err[0] ? r.sink_err : "run failed");
		sm.error = err;
	}
	dgr_conn_stop(c);
	sm.seconds = (double)(end_ns - r.start_ns) / 1e9;
	sm.incomplete = dgr_conn_foreach_incomplete(c, NULL, NULL);
	dgr_conn_get_stats(c, &s);
	if (cfg->co.direction == DGR_DIR_RX) {
		uint64_t total = s.samples_received + s.samples_lost;

		sm.drop_rate = total ? (double)s.samples_lost / (double)total : 0.0;
	} else {
		sm.unanswered =
		    s.txns_sent > s.doorbells_received ? s.txns_sent - s.doorbells_received : 0;
		sm.drop_rate = s.txns_sent ? (double)sm.unanswered / (double)s.txns_sent : 0.0;
	}
	if (strcmp(sm.status, "ended") != 0 && strcmp(sm.status, "duration") != 0) {
		status = 1;
	}
	if (cfg->max_drop_rate >= 0 && sm.drop_rate > cfg->max_drop_rate) {
		status = 1;
	}
	if (sm.incomplete + s.incomplete_timed_out > 0 && !cfg->co.retransmit_ms &&
	    strcmp(sm.status, "duration") != 0) {
		status = 1;
	}
	if (sm.error) {
		fprintf(stderr, "dgrdma-host: %s: %s\n", sm.status, sm.error);
	}
	if (sm.incomplete + s.incomplete_timed_out > 0) {
		fprintf(stderr,
			"dgrdma-host: %u transactions still incomplete, %" PRIu64
			" timed out (frames lost; retransmission %s)\n",
			sm.incomplete, s.incomplete_timed_out,
			cfg->co.retransmit_ms ? "on" : "off");
	}
	if (!cfg->quiet) {
		struct pr p;

		pr_begin(&p, stdout, cfg->json);
		print_summary(&p, &r, c, &sm);
		pr_end(&p);
	}
	if (cfg->summary_json) {
		FILE *f = fopen(cfg->summary_json, "w");
		struct pr p;

		if (!f) {
			fprintf(stderr, "dgrdma-host: --summary-json %s: %s\n", cfg->summary_json,
				strerror(errno));
			status = status ? status : 1;
		} else {
			pr_begin(&p, f, true);
			print_summary(&p, &r, c, &sm);
			pr_end(&p);
			if (fclose(f) != 0) {
				fprintf(stderr, "dgrdma-host: --summary-json %s: %s\n",
					cfg->summary_json, strerror(errno));
				status = status ? status : 1;
			}
		}
	}
out:
	dgr_conn_close(c);
	if (r.fd >= 0) {
		close(r.fd);
	}
	free(r.scratch);
	return status;
}

/*
 * perf: the perftest measurement of the AXI guide over DG-RDMA on the TX
 * path. One stream; message sizes 2, 4, 8, 16, 32 KiB (up to --buffer-size,
 * which must match the peer's buffers), --count messages each (or --bytes per
 * size); with --memcpy each message is copied from a source buffer (software
 * load), without it the buffer is sent as it is. Throughput per size is
 * measured from the first message of a size to the first of the next (the
 * producer runs at the rate credits come back).
 */
#define PERF_SIZES 5

struct perf_run {
	struct host_cfg *cfg;
	uint32_t sizes[PERF_SIZES];
	unsigned int nsizes;
	unsigned int phase;
	uint64_t in_phase;
	uint64_t per_phase;
	uint64_t phase_start[PERF_SIZES + 1];
	uint8_t *source;
};

static int produce_perf(void *ctx, struct dgr_buffer_view *b)
{
	struct perf_run *p = ctx;

	if (interrupted || p->phase >= p->nsizes) {
		return 0;
	}
	if (p->in_phase == 0) {
		p->phase_start[p->phase] = now_ns();
	}
	b->len = p->sizes[p->phase];
	b->opcode = DGR_OPCODE_SAMPLES;
	if (p->cfg->perf_memcpy) {
		memcpy(b->data, p->source, b->len);
	}
	if (++p->in_phase == p->per_phase) {
		p->in_phase = 0;
		p->phase++;
		b->eof = p->phase == p->nsizes;
	}
	return 1;
}

static int run_perf(struct host_cfg *cfg)
{
	static const uint32_t all[PERF_SIZES] = { 2048, 4096, 8192, 16384, 32768 };
	struct perf_run p = { .cfg = cfg };
	struct dgr_conn *c = NULL;
	struct dgr_conn_opts co = cfg->co;
	char err[DGR_ERRBUF_SIZE];
	int rc, status = 0;

	for (unsigned int i = 0; i < PERF_SIZES; i++) {
		if (all[i] <= co.buffer_size) {
			p.sizes[p.nsizes++] = all[i];
		}
	}
	if (p.nsizes == 0) {
		fprintf(stderr, "dgrdma-host perf: --buffer-size must be at least 2048\n");
		return 2;
	}
	p.per_phase = cfg->perf_count ? cfg->perf_count : 16384;
	p.source = malloc(co.buffer_size);
	if (!p.source) {
		fprintf(stderr, "dgrdma-host perf: out of memory\n");
		return 2;
	}
	dgr_ramp_fill(p.source, co.buffer_size, 0);
	co.direction = DGR_DIR_TX;
	co.on_stats = NULL;
	rc = dgr_conn_open(&co, &c, err);
	if (rc == 0) {
		rc = dgr_conn_start(c, NULL, produce_perf, &p, err);
	}
	if (rc < 0) {
		fprintf(stderr, "dgrdma-host perf: %s\n", err);
		dgr_conn_close(c);
		free(p.source);
		return 2;
	}
	while ((rc = dgr_conn_wait(c, 100)) == 0 && !interrupted) {
	}
	p.phase_start[p.nsizes] = now_ns();
	dgr_conn_stop(c);
	if (rc != 1) {
		fprintf(stderr, "dgrdma-host perf: the stream did not complete\n");
		status = 1;
	}
	if (cfg->csv) {
		printf("message_size,messages,seconds,mbyte_s,msample_s,memcpy\n");
	} else {
		printf("%8s %10s %9s %10s %10s  (memcpy %s)\n", "size", "messages", "seconds",
		       "MB/s", "MS/s", cfg->perf_memcpy ? "on" : "off");
	}
	for (unsigned int i = 0; i < p.nsizes; i++) {
		double sec = p.phase_start[i + 1] > p.phase_start[i]
				 ? (double)(p.phase_start[i + 1] - p.phase_start[i]) / 1e9
				 : 0.0;
		double bytes = (double)p.per_phase * p.sizes[i];

		if (i >= p.phase || sec <= 0) {
			sec = 0;
		}
		if (cfg->csv) {
			printf("%u,%" PRIu64 ",%.6f,%.1f,%.2f,%s\n", p.sizes[i], p.per_phase, sec,
			       sec > 0 ? bytes / sec / 1e6 : 0.0,
			       sec > 0 ? bytes / 4 / sec / 1e6 : 0.0,
			       cfg->perf_memcpy ? "on" : "off");
		} else {
			printf("%8u %10" PRIu64 " %9.3f %10.1f %10.2f\n", p.sizes[i], p.per_phase,
			       sec, sec > 0 ? bytes / sec / 1e6 : 0.0,
			       sec > 0 ? bytes / 4 / sec / 1e6 : 0.0);
		}
	}
	dgr_conn_close(c);
	free(p.source);
	return status;
}

int main(int argc, char **argv)
{
	struct host_cfg cfg;
	char err[DGR_ERRBUF_SIZE] = "";
	struct sigaction sa;

	memset(&cfg, 0, sizeof(cfg));
	dgr_conn_opts_init(&cfg.co);
	cfg.max_drop_rate = -1;
	cfg.idle_timeout_ns = 5000000000ull;
	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	cfg.mode = argv[1];
	if (strcmp(cfg.mode, "rx") == 0) {
		cfg.co.direction = DGR_DIR_RX;
	} else if (strcmp(cfg.mode, "tx") == 0 || strcmp(cfg.mode, "perf") == 0) {
		cfg.co.direction = DGR_DIR_TX;
	} else {
		fprintf(stderr, "dgrdma-host: '%s' is not a mode: rx, tx or perf\n", cfg.mode);
		return 2;
	}
	if (parse_args(argc - 1, argv + 1, &cfg, err) < 0) {
		fprintf(stderr, "dgrdma-host: %s\n", err);
		return 2;
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
