/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hostile-input sender for the stack's tests: random and malformed DG-RDMA
 * frames as fast as the transport takes them, then one valid EOF transaction
 * (repeated, same frame_seq) so the receiver ends its run cleanly.
 *
 *   stk-hostile TRANSPORT [--count N] [--seed N] [--buffers H] [--buffer-size S]
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dgrdma/transport.h>
#include <dgrdma/wire.h>

#include "cli.h"
#include "transport_opts.h"

static uint64_t rng;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A valid one-transaction frame; returns its length. */
static size_t valid_frame(uint8_t *buf, size_t cap, uint16_t seq, uint32_t txn_id,
			  uint32_t data_addr, uint32_t flag_addr, uint32_t flag_value,
			  const uint8_t *data, uint32_t len)
{
	struct dgr_frame_builder fb;
	struct dgr_frame_hdr h = { .src_id = 1, .dst_id = 0, .frame_seq = seq };
	struct dgr_txn t = { .txn_id = txn_id,
			     .data_addr = data_addr,
			     .flag_addr = flag_addr,
			     .flag_value = flag_value,
			     .data = data,
			     .len = len };
	struct dgr_txn_cursor cur;

	if (dgr_fb_init(&fb, buf, cap, &h) < 0 || dgr_txn_plan(&cur, &t, &fb) < 0) {
		return 0;
	}
	while (dgr_fb_add_txn(&fb, &cur) == 0) {
		break; /* only what fits in one frame: the rest is missing on purpose */
	}
	return dgr_fb_finish(&fb);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		DGR_TRANSPORT_LONGOPTS,
		{ "count", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "buffers", required_argument, NULL, 'b' },
		{ "buffer-size", required_argument, NULL, 'z' },
		{ 0, 0, 0, 0 },
	};
	struct dgr_transport_opts to;
	struct dgr_transport *t = NULL;
	char err[DGR_ERRBUF_SIZE];
	uint64_t count = 100000, v;
	uint32_t nbuf = 64, size = 16384;
	uint8_t *frames, *data;
	size_t cap;
	struct dgr_tx_pkt pkts[64] = { 0 };
	uint64_t sent = 0, kinds[5] = { 0 };
	uint16_t seq = 1;
	int opt;

	rng = 0x1234567887654321ull;
	dgr_transport_opts_init(&to);
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		int rc = dgr_transport_parse_opt(&to, opt, optarg, err);

		if (rc < 0) {
			fprintf(stderr, "stk-hostile: %s\n", err);
			return 2;
		}
		if (rc == 1) {
			continue;
		}
		switch (opt) {
		case 'n':
			if (dgr_parse_u64("--count", optarg, 0, 1ull << 40, false, &count, err) <
			    0) {
				fprintf(stderr, "stk-hostile: %s\n", err);
				return 2;
			}
			break;
		case 's':
			if (dgr_parse_u64("--seed", optarg, 1, UINT64_MAX, false, &rng, err) < 0) {
				fprintf(stderr, "stk-hostile: %s\n", err);
				return 2;
			}
			break;
		case 'b':
		case 'z':
			if (dgr_parse_u64(opt == 'b' ? "--buffers" : "--buffer-size", optarg, 1,
					  1 << 21, false, &v, err) < 0) {
				fprintf(stderr, "stk-hostile: %s\n", err);
				return 2;
			}
			if (opt == 'b') {
				nbuf = (uint32_t)v;
			} else {
				size = (uint32_t)v;
			}
			break;
		default:
			fprintf(stderr, "usage: stk-hostile TRANSPORT [--count N] [--seed N] "
					"[--buffers H] [--buffer-size S]\n");
			return 2;
		}
	}
	if (dgr_transport_opts_finish(&to, true, err) < 0 || dgr_transport_open(&to, &t, err) < 0) {
		fprintf(stderr, "stk-hostile: %s\n", err);
		return 2;
	}
	cap = dgr_transport_frame_cap(t);
	frames = malloc(64 * cap);
	data = calloc(1, cap);
	if (!frames || !data) {
		return 2;
	}
	while (sent < count) {
		unsigned int n = 0;

		for (; n < 64 && sent + n < count; n++) {
			uint8_t *f = frames + n * cap;
			unsigned int kind = (unsigned int)(next_rand() % 5);
			size_t len;

			switch (kind) {
			case 0: /* random bytes */
				len = next_rand() % (cap + 1);
				for (size_t i = 0; i < len; i++) {
					f[i] = (uint8_t)next_rand();
				}
				break;
			case 1: /* a plausible header, then garbage */
				len = DGR_FRAME_HDR_LEN + next_rand() % (cap - DGR_FRAME_HDR_LEN);
				for (size_t i = 0; i < len; i++) {
					f[i] = (uint8_t)next_rand();
				}
				dgr_put_le16(f, 1);
				dgr_put_le16(f + 2, 0);
				f[DGR_FRAME_OFF_FLAGS] = 1;
				break;
			case 2: /* a valid frame with flipped bytes */
				len = valid_frame(f, cap, seq++, (uint32_t)next_rand(),
						  (uint32_t)(next_rand() % nbuf) * size,
						  nbuf * size + 4 * (uint32_t)(next_rand() % 300),
						  (uint32_t)next_rand() | 1, data,
						  (uint32_t)(next_rand() % (cap / 2)) & ~3u);
				for (int k = 0; k < 4 && len; k++) {
					f[next_rand() % len] ^= (uint8_t)(1u << (next_rand() % 8));
				}
				break;
			case 3: /* a valid frame cut short */
				len = valid_frame(f, cap, seq++, (uint32_t)next_rand(), 0,
						  nbuf * size, dgr_flag_encode(64, false, false, 0),
						  data, 64);
				len = len ? next_rand() % len : 0;
				break;
			default: /* writes outside the receiver's memory */
				len = valid_frame(f, cap, seq++, (uint32_t)next_rand(),
						  (uint32_t)next_rand() & ~3u,
						  (uint32_t)next_rand() & ~3u,
						  (uint32_t)next_rand() | 1, data, 256);
				break;
			}
			kinds[kind]++;
			pkts[n].data = f;
			pkts[n].len = len;
			pkts[n].proto = DGR_PROTO_DGRDMA;
			pkts[n].dst = NULL;
		}
		if (dgr_transport_send(t, pkts, n, err) < 0) {
			fprintf(stderr, "stk-hostile: %s\n", err);
			return 1;
		}
		sent += n;
	}
	/* let the receiver drain, then one valid EOF transaction into buffer 0 */
	usleep(200000);
	{
		size_t len = valid_frame(frames, cap, (uint16_t)(seq + 1000), 0x7fffffff, 0,
					 nbuf * size, dgr_flag_encode(0, true, false, 0), NULL, 0);

		for (int i = 0; i < 5; i++) {
			pkts[0].data = frames;
			pkts[0].len = len;
			pkts[0].proto = DGR_PROTO_DGRDMA;
			pkts[0].dst = NULL;
			dgr_transport_send(t, pkts, 1, err);
			usleep(20000);
		}
	}
	printf("{\"sent\":%" PRIu64 ",\"random\":%" PRIu64 ",\"garbage_after_header\":%" PRIu64
	       ",\"flipped\":%" PRIu64 ",\"cut\":%" PRIu64 ",\"out_of_range\":%" PRIu64 "}\n",
	       sent, kinds[0], kinds[1], kinds[2], kinds[3], kinds[4]);
	dgr_transport_close(t);
	free(frames);
	free(data);
	return 0;
}
