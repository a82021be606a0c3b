/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The raw ceiling of a link for the stack's benchmark: a minimal sender and
 * receiver of same-sized 0xF042 frames with batched system calls and no
 * protocol at all (the transport of libdgrdma, nothing above it).
 *
 *   stk-rawpair send TRANSPORT --frame BYTES --seconds S
 *   stk-rawpair recv TRANSPORT --seconds S
 * recv prints one JSON line: frames, bytes, seconds, gbit_s (first to last frame),
 * cpu_s; send prints frames, bytes and cpu_s. cpu_s is the process's user + system
 * time (getrusage), which includes the kernel work done in its system calls and
 * the softirq work that runs in its context (on veth, the sender's).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <dgrdma/transport.h>

#include "cli.h"
#include "transport_opts.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* User + system CPU time of this process, in seconds. */
static double cpu_seconds(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0) {
		return 0.0;
	}
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		DGR_TRANSPORT_LONGOPTS,
		{ "frame", required_argument, NULL, 'f' },
		{ "seconds", required_argument, NULL, 's' },
		{ 0, 0, 0, 0 },
	};
	struct dgr_transport_opts to;
	struct dgr_transport *t = NULL;
	char err[DGR_ERRBUF_SIZE];
	uint64_t frame = 0, dur_ns = 5000000000ull;
	bool send_mode;
	int opt;

	if (argc < 2 || (strcmp(argv[1], "send") && strcmp(argv[1], "recv"))) {
		fprintf(stderr,
			"usage: stk-rawpair send|recv TRANSPORT [--frame N] [--seconds S]\n");
		return 2;
	}
	send_mode = strcmp(argv[1], "send") == 0;
	dgr_transport_opts_init(&to);
	to.dcp = false;
	while ((opt = getopt_long(argc - 1, argv + 1, "", opts, NULL)) != -1) {
		int rc = dgr_transport_parse_opt(&to, opt, optarg, err);

		if (rc == 0 && opt == 'f') {
			rc = dgr_parse_u64("--frame", optarg, 16, 65535, false, &frame, err);
		} else if (rc == 0 && opt == 's') {
			rc = dgr_parse_seconds("--seconds", optarg, 3600, &dur_ns, err);
		} else if (rc == 0) {
			snprintf(err, sizeof(err), "unknown option");
			rc = -1;
		}
		if (rc < 0) {
			fprintf(stderr, "stk-rawpair: %s\n", err);
			return 2;
		}
	}
	if (dgr_transport_opts_finish(&to, send_mode, err) < 0 ||
	    dgr_transport_open(&to, &t, err) < 0) {
		fprintf(stderr, "stk-rawpair: %s\n", err);
		return 2;
	}
	if (send_mode) {
		struct dgr_tx_pkt pkts[64] = { 0 };
		uint8_t *buf;
		uint64_t end = now_ns() + dur_ns, sent = 0;

		if (!frame || frame > dgr_transport_frame_cap(t)) {
			frame = dgr_transport_frame_cap(t);
		}
		buf = calloc(1, frame);
		for (int i = 0; i < 64; i++) {
			pkts[i].data = buf;
			pkts[i].len = frame;
			pkts[i].proto = DGR_PROTO_DGRDMA;
			pkts[i].dst = NULL;
		}
		while (now_ns() < end) {
			int n = dgr_transport_send(t, pkts, 64, err);

			if (n < 0) {
				fprintf(stderr, "stk-rawpair: %s\n", err);
				return 1;
			}
			sent += (uint64_t)n;
		}
		free(buf);
		printf("{\"frames\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"cpu_s\":%.3f}\n", sent,
		       sent * frame, cpu_seconds());
	} else {
		struct dgr_rx_pkt in[64];
		uint64_t frames = 0, bytes = 0, first = 0, last = 0,
			 deadline = now_ns() + dur_ns + 5000000000ull;

		for (;;) {
			int n = dgr_transport_recv(t, in, 64, 500, err);
			uint64_t ts = now_ns();

			if (n < 0) {
				fprintf(stderr, "stk-rawpair: %s\n", err);
				return 1;
			}
			if (n == 0 && (frames || ts > deadline)) {
				break;
			}
			for (int i = 0; i < n; i++) {
				bytes += in[i].len;
			}
			if (n && !frames) {
				first = ts;
			}
			frames += (uint64_t)n;
			last = ts;
		}
		printf("{\"frames\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"seconds\":%.6f,"
		       "\"gbit_s\":%.3f,\"cpu_s\":%.3f}\n",
		       frames, bytes, (double)(last - first) / 1e9,
		       last > first ? (double)bytes * 8 / (double)(last - first) : 0.0,
		       cpu_seconds());
	}
	dgr_transport_close(t);
	return 0;
}
