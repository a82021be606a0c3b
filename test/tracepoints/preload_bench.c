// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * preload-bench PORT_HOST PORT_FPGA ITERATIONS REPEAT: the cost of libdgrdma-preload.so per
 * wrapped call (make bench-preload runs it with and without the library in one run).
 * Two UDP sockets on 127.0.0.1: the "FPGA" sends a frame holding one data transaction with a
 * flag (sendto), the "host" receives it (recvmsg with control room, as OpenCPI does) and
 * answers with a doorbell frame (sendmsg), which the FPGA receives (recv): four wrapped
 * calls an iteration, every one on a socket the library decodes when PORT_HOST is one of its
 * ports. Prints the medians over REPEAT loops of the time per call and of the process's CPU
 * time per call (user + system: less disturbed by other programs on a busy machine):
 * "ns_per_call=N cpu_ns_per_call=N".
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <dgrdma/proto.h>
#include <dgrdma/wire.h>

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* A frame after the 2-byte UDP pad: one message (data_len bytes, flag or doorbell). */
static size_t make_frame(uint8_t *buf, size_t cap, uint16_t seq, uint32_t txn, uint32_t data_len)
{
	struct dgr_frame_hdr fh = { .dst_id = 1, .src_id = 0, .frame_seq = seq };
	struct dgr_frame_builder fb;
	static const uint8_t data[1024];
	struct dgr_msg m = { .txn_id = txn,
			     .flag_addr =
				 data_len ? 0x10000 + 4 * (txn % 8) : 0x20000 + 4 * (txn % 8),
			     .flag_value = data_len ? dgr_flag_encode(data_len, false, false, 0)
						    : DGR_DOORBELL_VALUE,
			     .num_msgs_in_txn = data_len ? 1 : 0,
			     .msg_seq = 1,
			     .data_addr = data_len ? 0x1000 * (txn % 8) : 0,
			     .data_len = (uint16_t)data_len };

	memset(buf, 0, DGR_UDP_PAD_LEN);
	if (dgr_fb_init(&fb, buf + DGR_UDP_PAD_LEN, cap - DGR_UDP_PAD_LEN, &fh) < 0 ||
	    dgr_fb_add(&fb, &m, data_len ? data : NULL, data_len) < 0) {
		return 0;
	}
	return DGR_UDP_PAD_LEN + dgr_fb_finish(&fb);
}

int main(int argc, char **argv)
{
	struct sockaddr_in h = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in f = h;
	uint8_t frame[1200], db[64], in[2048];
	union {
		char b[256];
		struct cmsghdr align;
	} ctl;
	uint64_t *ns, *cpu;
	long iters, repeat;
	int hs, fs;

	if (argc != 5) {
		fprintf(stderr, "usage: preload-bench PORT_HOST PORT_FPGA ITERATIONS REPEAT\n");
		return 2;
	}
	iters = atol(argv[3]);
	repeat = atol(argv[4]);
	if (iters < 1 || repeat < 1 || repeat > 101) {
		fprintf(stderr, "preload-bench: ITERATIONS >= 1, REPEAT 1..101\n");
		return 2;
	}
	h.sin_port = htons((uint16_t)atoi(argv[1]));
	f.sin_port = htons((uint16_t)atoi(argv[2]));
	hs = socket(AF_INET, SOCK_DGRAM, 0);
	fs = socket(AF_INET, SOCK_DGRAM, 0);
	if (hs < 0 || fs < 0 || bind(hs, (struct sockaddr *)&h, sizeof(h)) < 0 ||
	    bind(fs, (struct sockaddr *)&f, sizeof(f)) < 0) {
		perror("preload-bench: sockets");
		return 3;
	}
	ns = calloc((size_t)repeat, sizeof(*ns));
	cpu = calloc((size_t)repeat, sizeof(*cpu));
	if (!ns || !cpu) {
		return 3;
	}
	/* built once: the loop measures the calls, not the encoding */
	size_t n = make_frame(frame, sizeof(frame), 1, 1, 1024);
	size_t d = make_frame(db, sizeof(db), 1, 1, 0);

	for (long r = 0; r < repeat; r++) {
		uint64_t t0 = clock_ns(CLOCK_MONOTONIC), c0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);

		for (long i = 0; i < iters; i++) {
			uint16_t seq = (uint16_t)(r * iters + i + 1);
			struct iovec iov = { in, sizeof(in) }, div = { db, d };
			struct msghdr m = { .msg_iov = &iov,
					    .msg_iovlen = 1,
					    .msg_control = ctl.b,
					    .msg_controllen = sizeof(ctl.b) };
			struct msghdr s = { .msg_name = &f,
					    .msg_namelen = sizeof(f),
					    .msg_iov = &div,
					    .msg_iovlen = 1 };

			/* every frame takes the next frame_seq, as on a real link */
			dgr_put_le16(frame + DGR_UDP_PAD_LEN + DGR_FRAME_OFF_SEQ, seq);
			dgr_put_le16(db + DGR_UDP_PAD_LEN + DGR_FRAME_OFF_SEQ, seq);
			if (sendto(fs, frame, n, 0, (struct sockaddr *)&h, sizeof(h)) < 0 ||
			    recvmsg(hs, &m, 0) < 0 || sendmsg(hs, &s, 0) < 0 ||
			    recv(fs, in, sizeof(in), 0) < 0) {
				perror("preload-bench: a call failed");
				return 3;
			}
		}
		ns[r] = clock_ns(CLOCK_MONOTONIC) - t0;
		cpu[r] = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - c0;
	}
	qsort(ns, (size_t)repeat, sizeof(*ns), cmp_u64);
	qsort(cpu, (size_t)repeat, sizeof(*cpu), cmp_u64);
	printf("ns_per_call=%.1f cpu_ns_per_call=%.1f iterations=%ld repeat=%ld\n",
	       (double)ns[repeat / 2] / (double)iters / 4.0,
	       (double)cpu[repeat / 2] / (double)iters / 4.0, iters, repeat);
	return 0;
}
