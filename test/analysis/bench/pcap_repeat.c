// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pcap-repeat: a generated capture's steady part, repeated COPIES times, as
 * one longer run on standard output (make bench-memory). dgrdma-gen builds its
 * whole capture in memory; this streams a run of any length from a short one.
 *
 *   pcap-repeat CAPTURE FIRST COPIES > long.pcap
 *
 * CAPTURE is a pcap (microsecond or nanosecond) of raw-Ethernet DG-RDMA frames
 * (dgrdma-gen --format pcap-ns, the default --transport ether) between two
 * senders. Frames before FIRST (1-based: the DCP exchange) are written once;
 * frames FIRST.. to the end are written COPIES times. Copy k follows on from
 * copy k - 1 as the same run would: its times moved on by the part's length
 * (and one transaction's mean period), and per sender (Ethernet source
 * address) its frame_seq moved on by the sender's frames in the part, its
 * ack_start by the peer's, and every message's txn_id by the sender's
 * transactions in the part (its highest txn_id - its lowest + 1).
 *
 * Exit status: 0, or 2 (bad usage or an unreadable capture) with the reason on stderr.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include <dgrdma/wire.h>

#define ETH_HDR_LEN	 14
#define ETHERTYPE_DGRDMA 0xF042
#define MSG_HDR_LEN	 24
#define PCAP_MAGIC_US	 0xa1b2c3d4u
#define PCAP_MAGIC_NS	 0xa1b23c4du

#define MAX_SENDERS 2

struct rec {
	uint64_t ts_ns;
	uint32_t len, orig_len;
	uint8_t *data;
	int sender, peer; /* indices of the Ethernet source and destination; -1: not DG-RDMA */
};

struct capture {
	uint8_t mac[MAX_SENDERS][6]; /* the senders seen */
	unsigned int n_senders;
	uint64_t frames[MAX_SENDERS]; /* in the repeated part */
	uint32_t txn_lo[MAX_SENDERS], txn_hi[MAX_SENDERS];
	bool txn_seen[MAX_SENDERS];
	uint8_t ghdr[24];
	uint64_t tick_ns; /* 1000 (us) or 1 (ns) */
	struct rec *r;
	size_t n, cap;
};

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Reads every record of path into c. Returns 0, or -1 with the reason in errbuf. */
static int load(const char *path, struct capture *c, char *errbuf)
{
	FILE *f = fopen(path, "rb");
	uint8_t h[16];
	uint32_t magic;
	int ret = -1;

	if (!f) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fread(c->ghdr, 1, sizeof(c->ghdr), f) != sizeof(c->ghdr)) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: no pcap header", path);
		goto out;
	}
	magic = rd32(c->ghdr);
	if (magic != PCAP_MAGIC_US && magic != PCAP_MAGIC_NS) {
		snprintf(errbuf, DGR_ERRBUF_SIZE,
			 "%s: not a little-endian pcap (dgrdma-gen --format pcap-ns writes one)",
			 path);
		goto out;
	}
	c->tick_ns = magic == PCAP_MAGIC_NS ? 1 : 1000;
	while (fread(h, 1, sizeof(h), f) == sizeof(h)) {
		struct rec *r;

		if (c->n == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 4096;
			struct rec *n = realloc(c->r, cap * sizeof(*n));

			if (!n) {
				snprintf(errbuf, DGR_ERRBUF_SIZE, "out of memory");
				goto out;
			}
			c->r = n;
			c->cap = cap;
		}
		r = &c->r[c->n];
		r->ts_ns = (uint64_t)rd32(h) * 1000000000ull + (uint64_t)rd32(h + 4) * c->tick_ns;
		r->len = rd32(h + 8);
		r->orig_len = rd32(h + 12);
		r->data = r->len <= 262144 ? malloc(r->len ? r->len : 1) : NULL;
		if (!r->data || fread(r->data, 1, r->len, f) != r->len) {
			free(r->data);
			snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: record %zu cut or too long", path,
				 c->n + 1);
			goto out;
		}
		c->n++;
	}
	ret = 0;
out:
	fclose(f);
	return ret;
}

/* The index of mac among the senders, added when new; -1 past MAX_SENDERS. */
static int sender_of(struct capture *c, const uint8_t *mac)
{
	unsigned int i;

	for (i = 0; i < c->n_senders; i++) {
		if (!memcmp(c->mac[i], mac, 6)) {
			return (int)i;
		}
	}
	if (c->n_senders == MAX_SENDERS) {
		return -1;
	}
	memcpy(c->mac[c->n_senders], mac, 6);
	return (int)c->n_senders++;
}

static bool is_dgrdma(const struct rec *r)
{
	return r->len >= ETH_HDR_LEN + DGR_FRAME_HDR_LEN &&
	       ((unsigned int)r->data[12] << 8 | r->data[13]) == ETHERTYPE_DGRDMA;
}

/*
 * Calls fn on the txn_id of every message of a DG-RDMA frame (none for an
 * ACK-only frame); messages start 8-byte aligned after the frame header.
 */
static void each_txn_id(uint8_t *d, uint32_t len, void (*fn)(uint8_t *id, void *arg), void *arg)
{
	size_t off = 0, body = len - (ETH_HDR_LEN + DGR_FRAME_HDR_LEN);
	uint8_t *b = d + ETH_HDR_LEN + DGR_FRAME_HDR_LEN;

	if (d[ETH_HDR_LEN + 9] == 0) {
		return;
	}
	while (off + MSG_HDR_LEN <= body) {
		uint8_t *m = b + off;
		size_t data_len = (size_t)m[20] | (size_t)m[21] << 8;

		fn(m, arg);
		if (!m[23]) {
			break;
		}
		off = (off + MSG_HDR_LEN + data_len + 7) & ~(size_t)7;
	}
}

struct txn_range {
	struct capture *c;
	int sender;
};

static void note_txn(uint8_t *id, void *arg)
{
	struct txn_range *t = arg;
	struct capture *c = t->c;
	uint32_t v = rd32(id);

	if (!c->txn_seen[t->sender] || v < c->txn_lo[t->sender]) {
		c->txn_lo[t->sender] = v;
	}
	if (!c->txn_seen[t->sender] || v > c->txn_hi[t->sender]) {
		c->txn_hi[t->sender] = v;
	}
	c->txn_seen[t->sender] = true;
}

static void add_txn(uint8_t *id, void *arg)
{
	wr32(id, rd32(id) + *(const uint32_t *)arg);
}

/* Moves a frame of copy k - 1 on to copy k. */
static void next_copy(struct capture *c, struct rec *r)
{
	struct dgr_frame_hdr h;
	uint32_t add;

	if (r->sender < 0) {
		return;
	}
	dgr_frame_hdr_read(r->data + ETH_HDR_LEN, &h);
	h.frame_seq = (uint16_t)(h.frame_seq + c->frames[r->sender]);
	if (h.ack_count && r->peer >= 0) {
		h.ack_start = (uint16_t)(h.ack_start + c->frames[r->peer]);
	}
	dgr_frame_hdr_write(r->data + ETH_HDR_LEN, &h);
	add = c->txn_seen[r->sender] ? c->txn_hi[r->sender] - c->txn_lo[r->sender] + 1 : 0;
	each_txn_id(r->data, r->len, add_txn, &add);
}

/* Writes r with its time moved on by shift_ns. Returns 0, or -1 when stdout fails. */
static int put(const struct capture *c, const struct rec *r, uint64_t shift_ns)
{
	uint64_t ts = r->ts_ns + shift_ns;
	uint8_t h[16];

	wr32(h, (uint32_t)(ts / 1000000000ull));
	wr32(h + 4, (uint32_t)(ts % 1000000000ull / c->tick_ns));
	wr32(h + 8, r->len);
	wr32(h + 12, r->orig_len);
	return fwrite(h, 1, sizeof(h), stdout) == sizeof(h) &&
		       fwrite(r->data, 1, r->len, stdout) == r->len
		   ? 0
		   : -1;
}

int main(int argc, char **argv)
{
	char errbuf[DGR_ERRBUF_SIZE];
	struct capture c = { 0 };
	uint64_t first, copies, span, k;
	size_t i;
	int ret = 2;

	if (argc != 4) {
		fprintf(stderr, "usage: pcap-repeat CAPTURE FIRST COPIES > long.pcap\n");
		return 2;
	}
	if (dgr_parse_u64("FIRST", argv[2], 1, UINT32_MAX, false, &first, errbuf) < 0 ||
	    dgr_parse_u64("COPIES", argv[3], 1, 1000000, false, &copies, errbuf) < 0 ||
	    load(argv[1], &c, errbuf) < 0) {
		fprintf(stderr, "pcap-repeat: %s\n", errbuf);
		goto out;
	}
	if (first >= c.n) {
		fprintf(stderr,
			"pcap-repeat: FIRST %" PRIu64 " must be below the frame count %zu\n", first,
			c.n);
		goto out;
	}
	for (i = first - 1; i < c.n; i++) {
		struct rec *r = &c.r[i];

		r->sender = r->peer = -1;
		if (!is_dgrdma(r)) {
			continue;
		}
		r->sender = sender_of(&c, r->data + 6);
		r->peer = sender_of(&c, r->data);
		if (r->sender < 0 || r->peer < 0) {
			fprintf(stderr, "pcap-repeat: frame %zu: more than %d senders\n", i + 1,
				MAX_SENDERS);
			goto out;
		}
		c.frames[r->sender]++;
		each_txn_id(r->data, r->len, note_txn,
			    &(struct txn_range){ .c = &c, .sender = r->sender });
	}
	/* the part's length and one transaction's mean period more */
	span = c.r[c.n - 1].ts_ns - c.r[first - 1].ts_ns;
	span += span / (c.n - first + 1) + 1;
	if (fwrite(c.ghdr, 1, sizeof(c.ghdr), stdout) != sizeof(c.ghdr)) {
		goto write_failed;
	}
	for (i = 0; i + 1 < first; i++) {
		if (put(&c, &c.r[i], 0)) {
			goto write_failed;
		}
	}
	for (k = 0; k < copies; k++) {
		for (i = first - 1; i < c.n; i++) {
			if (k) {
				next_copy(&c, &c.r[i]);
			}
			if (put(&c, &c.r[i], k * span)) {
				goto write_failed;
			}
		}
	}
	if (fflush(stdout)) {
		goto write_failed;
	}
	ret = 0;
	goto out;
write_failed:
	fprintf(stderr, "pcap-repeat: standard output: %s\n", strerror(errno));
	ret = 2;
out:
	for (i = 0; i < c.n; i++) {
		free(c.r[i].data);
	}
	free(c.r);
	return ret;
}
