// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tp-fire: fires every event of providers dgrdma and dgrdma_fpga once, with the fixed values
 * that test/tracepoints/test_tp_events.sh expects, and optionally sends UDP datagrams to
 * 127.0.0.1 (one dgrdma:frame_tx per datagram) so that dgrdma-capture can be tested without
 * the real stack.
 *
 *	tp-fire [--packets N] [--port P] [--interval-ms MS] [--ready-file PATH] [--burst N]
 *		[ignored flags]
 *
 * --burst: N more dgrdma:frame_rx events back to back (conn 9, frame_seq = i), to overflow
 * small sub-buffers on purpose.
 *
 * --ready-file: created once every event has been fired (so the process has registered
 * with LTTng), before the first datagram; tests wait for it before killing tp-fire.
 *
 * Unknown arguments are ignored on purpose: dgrdma-capture infers its capture filter from
 * the wrapped command's transport flags (--udp --bind A:P --peer A:P), which tp-fire
 * therefore accepts as well; --peer's port is where the datagrams go.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <dgrdma/stats.h>
#include "dgrdma-tp.h"
#include "dgrdma-fpga-tp.h"

static void fire_host_events(void)
{
	struct dgr_conn_stats stats;
	uint64_t k = 1000;

	DGR_TP(thread_start, 2, 7, 12345, 1, 50, -5, UINT64_C(0x8000000000000003));
	DGR_TP(frame_rx, 7, 65535, UINT32_C(4294967295), 300, 65534, 255);
	DGR_TP(frame_tx, 7, 1, 8000, 2, 3, 4, 1);
	DGR_TP(txn_complete, 7, UINT32_C(4000000000), 9, 65536, 1, UINT32_C(0xdeadbeef), 10,
	       UINT64_C(12345678901), UINT64_C(23456789012));
	DGR_TP(buffer_acquire, 7, 11, 12);
	DGR_TP(buffer_release, 7, 13, 14, UINT64_C(45678901234));
	DGR_TP(doorbell_queued, 7, 15, 16, 17);
	DGR_TP(doorbell_sent, 7, 18, 19, 20, 21, 22, UINT64_C(34567890123),
	       &(struct dgr_tp_bell_sides){ .since_release_ns = UINT64_C(5678901234),
					    .held_ns = UINT64_C(6789012345),
					    .consumer_tid = -33,
					    .since_complete_ns = UINT64_C(7890123456) });
	DGR_TP(doorbell_rx, 7, 22, 23, 24);
	DGR_TP(txn_sent, 7, 25, 26, 27, 28);
	DGR_TP(ack_rx, 7, 29, 30);
	DGR_TP(ack_tx, 7, 31, 32);
	DGR_TP(retransmit, 7, 33, 34);
	DGR_TP(malformed, 7, 22, 35);
	DGR_TP(socket_drop, 7, 36, UINT64_C(18446744073709551615));
	/* counters: the i-th field (0-based, declaration order) = 1000 + i */
#define SET_FIELD(name) stats.name = k++;
	DGR_CONN_STATS_FIELDS(SET_FIELD)
#undef SET_FIELD
	DGR_TP(counters, 7, &stats);
}

static void fire_fpga_events(void)
{
	DGR_FPGA_TP(thread_start, 4, 0, 54321, 0, 0, 19, UINT64_C(1));
	DGR_FPGA_TP(frame_rx, 0, 100, 101, 102, 103, 104);
	DGR_FPGA_TP(frame_tx, 0, 105, 106, 107, 108, 109, 0);
	DGR_FPGA_TP(txn_sent, 0, 110, 111, 112, 4, 113);
	DGR_FPGA_TP(doorbell_rx, 0, 114, 115, 116);
	DGR_FPGA_TP(drop_period, UINT64_C(10000000000), 117);
	DGR_FPGA_TP(underrun, 118);
	DGR_FPGA_TP(discontinuity, 119, 120);
	DGR_FPGA_TP(counters, 201, 202, 203, 204, 205, 206, 207, 208, 209);
}

/* Parses a decimal in [min, max]; returns 0 or -1 after naming the option on stderr. */
static int parse_num(const char *opt, const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max) {
		fprintf(stderr, "tp-fire: %s: '%s' is not an integer in [%ld, %ld]\n", opt, s, min,
			max);
		return -1;
	}
	*out = v;
	return 0;
}

/* Sends n datagrams to 127.0.0.1:port; returns 0 or -1. */
static int send_packets(long n, long port, long interval_ms)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	struct timespec pause = { interval_ms / 1000, (interval_ms % 1000) * 1000000L };
	char payload[64];
	int fd, ret = -1;
	long i;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("tp-fire: socket");
		return -1;
	}
	to.sin_port = htons((uint16_t)port);
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (i = 0; i < n; i++) {
		memset(payload, 0, sizeof(payload));
		snprintf(payload, sizeof(payload), "tp-fire %ld", i);
		if (sendto(fd, payload, sizeof(payload), 0, (struct sockaddr *)&to, sizeof(to)) <
		    0) {
			perror("tp-fire: sendto");
			goto out;
		}
		DGR_TP(frame_tx, 0, (uint16_t)i, (uint32_t)sizeof(payload), 1, 0, 0, 0);
		if (interval_ms > 0) {
			nanosleep(&pause, NULL);
		}
	}
	ret = 0;
out:
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	long packets = 0, port = 18078, interval_ms = 0, burst = 0, b;
	const char *peer, *ready_file = NULL;
	bool stream_config = false;
	FILE *ready;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--packets") && i + 1 < argc) {
			if (parse_num("--packets", argv[++i], 0, 100000000, &packets)) {
				return 2;
			}
		} else if (!strcmp(argv[i], "--port") && i + 1 < argc) {
			if (parse_num("--port", argv[++i], 1, 65535, &port)) {
				return 2;
			}
		} else if (!strcmp(argv[i], "--interval-ms") && i + 1 < argc) {
			if (parse_num("--interval-ms", argv[++i], 0, 60000, &interval_ms)) {
				return 2;
			}
		} else if (!strcmp(argv[i], "--burst") && i + 1 < argc) {
			if (parse_num("--burst", argv[++i], 0, 1000000000, &burst)) {
				return 2;
			}
		} else if (!strcmp(argv[i], "--stream-config")) {
			/* apart: a trace with them gives latency-report the run's facts */
			stream_config = true;
		} else if (!strcmp(argv[i], "--ready-file") && i + 1 < argc) {
			ready_file = argv[++i];
		} else if (!strcmp(argv[i], "--peer") && i + 1 < argc) {
			peer = strrchr(argv[++i], ':');
			if (peer && parse_num("--peer", peer + 1, 1, 65535, &port)) {
				return 2;
			}
		}
	}
	fire_host_events();
	fire_fpga_events();
	if (stream_config) {
		DGR_TP(stream_config, 7, 1, 255, UINT32_C(2097152), 64);
		DGR_FPGA_TP(stream_config, 0, 2, UINT64_C(10000000000), 8, UINT32_C(65536), 37);
	}
	for (b = 0; b < burst; b++) {
		DGR_TP(frame_rx, 9, (uint16_t)b, 64, 1, 0, 0);
	}
	if (ready_file) {
		ready = fopen(ready_file, "w");
		if (!ready) {
			perror("tp-fire: --ready-file");
			return 1;
		}
		fclose(ready);
	}
	if (packets > 0 && send_packets(packets, port, interval_ms)) {
		return 1;
	}
	return 0;
}
