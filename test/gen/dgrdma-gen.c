// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dgrdma-gen: deterministic DG-RDMA/DCP capture generator with expected answers.
 *
 * It writes a pcap or pcapng capture of a simulated stream (a producer sending
 * buffers as DG-RDMA transactions, a consumer answering with doorbells) and a
 * JSON file with what an analyser must find in it: counts and every
 * per-doorbell latency in ns. It is deliberately independent of the code under
 * test: frame bytes are laid out here with explicit little-endian code (not
 * with stack/src/wire.c), and the expected answers come from the simulation's
 * ground truth (true buffer indices, known message visibility), not from
 * decoding. See test/gen/README.md for the options and the model.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "cli.h"
#include "opts.h"
#include "dgrdma-version.h"

#define ETH_HDR	  14
#define SLL_HDR	  16 /* Linux cooked v1: what tshark -i any writes */
#define VLAN_HDR  4
#define IP_HDR	  20
#define IP6_HDR	  40
#define UDP_HDR	  8
#define UDP_PAD	  2
#define FRAME_HDR 10
#define MSG_HDR	  24
#define MAX_CONNS 8
#define NO_FLAG	  0xFFFFFFFFu

enum fmt { FMT_PCAP_US, FMT_PCAP_NS, FMT_PCAPNG };
enum transport { TR_ETHER, TR_UDP, TR_UDP6 };
enum profile { PROF_HEALTHY, PROF_JITTER, PROF_THROUGHPUT };
enum fkind {
	FK_DATA,
	FK_DOORBELL,
	FK_ACK,
	FK_DCP_DOORBELL,
	FK_DCP_RESP,
	FK_DCP_NOP,
	FK_DCP_NOP_RESP,
	FK_MALFORMED
};

struct opts {
	enum fmt fmt;
	enum transport transport;
	unsigned int vlan;
	unsigned int snaplen;
	unsigned int ip_mtu; /* --ip-mtu: UDP datagrams longer are sent as IP fragments; 0: none */
	bool tx;
	unsigned int conns;
	unsigned int txns;
	unsigned int buffers;
	unsigned int bytes;
	unsigned int mtu;
	unsigned int coalesce_txns;
	unsigned int coalesce_doorbells;
	bool dcp_doorbells;
	bool dcp_per_address;
	bool cooked; /* --link sll: a Linux cooked header (the sender's address only) */
	unsigned int discontinuity_every;
	unsigned int malformed_every;
	unsigned int drop_every;
	enum profile profile;
	uint64_t period_ns;
	uint64_t latency_ns;
	uint64_t seed;
	bool no_expect_list;
	const char *drop_frames;   /* --drop-frames: comma-separated frame indices */
	const char *late_frames;   /* --late-frames: I:J,... frame I captured right after frame J */
	const char *resend_frames; /* --resend-frames: I,... frame I sent again, a new frame_seq */
	unsigned int seq_start;	   /* --seq-start: every sender's first frame_seq (default 1) */
	const char *list_frames;   /* --list-frames: file to describe every frame in */
	bool fpga_lockup; /* --fpga-lockup: the FPGA takes no credit from the host's frame 0 on */
	const char *out;
	const char *expect;
};

/* Bytes of the link header: Ethernet or Linux cooked, and the VLAN tag. */
static size_t link_hdr_len(const struct opts *o)
{
	return (o->cooked ? SLL_HDR : ETH_HDR) + (o->vlan ? VLAN_HDR : 0);
}

/* Bytes between the link header and the DG-RDMA frame: IP, UDP and the pad, or none. */
static size_t net_hdr_len(const struct opts *o)
{
	switch (o->transport) {
	case TR_UDP:
		return IP_HDR + UDP_HDR + UDP_PAD;
	case TR_UDP6:
		return IP6_HDR + UDP_HDR + UDP_PAD;
	default:
		return 0;
	}
}

/* One message as laid out in a frame. */
struct gmsg {
	uint32_t txn_id;
	uint32_t flag_addr;
	uint32_t flag_value;
	uint16_t num_msgs;
	uint16_t msg_seq;
	uint32_t data_addr;
	uint16_t data_len;
	uint32_t gtxn; /* global index of the transaction or doorbell record */
	uint16_t off;  /* offset of the header in the DG-RDMA frame */
};

/* One frame, described; its bytes are produced when it is written. */
struct gframe {
	uint64_t ts; /* ns */
	uint64_t order;
	uint32_t first_msg;
	uint16_t nmsgs;
	uint16_t dgr_len; /* DG-RDMA frame length (header + messages) */
	uint8_t conn;
	uint8_t kind;
	uint8_t from_host;
	uint8_t malformed_kind;
	uint16_t seq; /* frame_seq: numbered in capture order (number_frames()) */
	uint16_t ack_start;
	uint32_t abs_seq; /* the sender's frame count when it opened the frame, from 0 */
	uint32_t ack_abs; /* abs_seq of the first peer frame acknowledged */
	uint8_t ack_count;
	uint8_t tag;
	uint32_t dcp_addr; /* DCP doorbell: address written */
	uint32_t dcp_data; /* DCP doorbell: data written */
	uint32_t gtxn;	   /* DCP doorbell: record index */
	uint32_t index;	   /* 1-based, in the order --list-frames prints (before --late-frames) */
	uint8_t resent;	   /* a copy of frame `index` sent again (--resend-frames) */
};

/* Ground truth of one data transaction or doorbell. */
struct rec {
	uint8_t conn;
	uint8_t is_doorbell;
	uint16_t buffer;
	uint16_t parts; /* messages of a transaction */
	uint16_t seen;	/* parts seen in the capture (visible headers of kept frames) */
	uint8_t discontinuity;
	uint8_t done;
	uint8_t given_up;  /* incomplete when the analysers' reassembly timeout passed */
	uint64_t first_ts; /* capture time of its first visible message */
};

/*
 * The analysers give an incomplete transaction up 1 s (their reassembly timeout)
 * after its first fragment, checked every half timeout: by 1.5 s it is surely
 * gone, before 1 s surely not (docs/analysis.md). --late-frames must not bring a
 * fragment in between.
 */
#define REASM_TIMEOUT_NS     1000000000ull
#define REASM_SURELY_GONE_NS 1500000000ull

static struct gframe *frames;
static size_t nframes, cap_frames;
static struct gmsg *msgs;
static size_t nmsgs, cap_msgs;
static struct rec *recs;
static size_t nrecs, cap_recs;
static uint64_t order_counter;
static uint64_t first_round_end; /* every flag address has been on the wire by then */

/* The next frame, zeroed, into *f. Returns 0 or -DGR_E_NOMEM. */
static int new_frame(struct gframe **f)
{
	if (nframes == cap_frames) {
		size_t cap = cap_frames ? cap_frames * 2 : 1024;
		struct gframe *more = realloc(frames, cap * sizeof(*frames));

		if (!more) {
			return -DGR_E_NOMEM;
		}
		frames = more;
		cap_frames = cap;
	}
	memset(&frames[nframes], 0, sizeof(frames[0]));
	frames[nframes].order = order_counter++;
	frames[nframes].first_msg = (uint32_t)nmsgs;
	*f = &frames[nframes++];
	return 0;
}

/* The next message, zeroed, into *m. Returns 0 or -DGR_E_NOMEM. */
static int new_msg(struct gmsg **m)
{
	if (nmsgs == cap_msgs) {
		size_t cap = cap_msgs ? cap_msgs * 2 : 1024;
		struct gmsg *more = realloc(msgs, cap * sizeof(*msgs));

		if (!more) {
			return -DGR_E_NOMEM;
		}
		msgs = more;
		cap_msgs = cap;
	}
	memset(&msgs[nmsgs], 0, sizeof(msgs[0]));
	*m = &msgs[nmsgs++];
	return 0;
}

/* A new transaction record, its index into *r. Returns 0 or -DGR_E_NOMEM. */
static int new_rec(uint8_t conn, bool doorbell, uint16_t buffer, uint32_t *r)
{
	if (nrecs == cap_recs) {
		size_t cap = cap_recs ? cap_recs * 2 : 1024;
		struct rec *more = realloc(recs, cap * sizeof(*recs));

		if (!more) {
			return -DGR_E_NOMEM;
		}
		recs = more;
		cap_recs = cap;
	}
	memset(&recs[nrecs], 0, sizeof(recs[0]));
	recs[nrecs].conn = conn;
	recs[nrecs].is_doorbell = doorbell;
	recs[nrecs].buffer = buffer;
	*r = (uint32_t)nrecs++;
	return 0;
}

/* splitmix64: a small, well-known deterministic generator. */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint64_t rng_below(uint64_t n)
{
	return n ? rng_next() % n : 0;
}

/* ---- sender state: the frame currently being filled ---- */

struct sender {
	uint8_t conn;
	uint8_t from_host;
	uint32_t nsent; /* frames opened so far */
	struct gframe *cur;
	uint16_t len; /* bytes used in cur */
	uint16_t cap; /* DG-RDMA frame capacity */
	unsigned int frames_since_ack;
};

static uint16_t align8(uint16_t off)
{
	/* messages start 8-byte aligned counted from the end of the frame header */
	unsigned int rel = (unsigned int)(off - FRAME_HDR);

	return (uint16_t)(FRAME_HDR + ((rel + 7u) & ~7u));
}

static void sender_flush(struct sender *s)
{
	if (!s->cur) {
		return;
	}
	s->cur->dgr_len = s->len;
	s->cur = NULL;
}

/* Opens the sender's next frame. Returns 0 or -DGR_E_NOMEM. */
static int sender_open(struct sender *s, uint64_t ts, uint8_t kind)
{
	struct gframe *f;

	if (new_frame(&f) < 0) {
		return -DGR_E_NOMEM;
	}
	f->ts = ts;
	f->conn = s->conn;
	f->kind = kind;
	f->from_host = s->from_host;
	f->abs_seq = s->nsent++;
	s->cur = f;
	s->len = FRAME_HDR;
	return 0;
}

/* Room for data in the current frame after alignment and a header; -1 if none. */
static long sender_room(const struct sender *s)
{
	long r;

	if (!s->cur) {
		return -1;
	}
	r = (long)s->cap - (long)align8(s->len) - MSG_HDR;
	if (r > 65535) {
		r = 65535;
	}
	return r;
}

/* Adds a copy of m to the sender's frame. Returns 0 or -DGR_E_NOMEM. */
static int sender_add(struct sender *s, const struct gmsg *m)
{
	struct gmsg *d;
	uint16_t off = align8(s->len);

	if (new_msg(&d) < 0) {
		return -DGR_E_NOMEM;
	}
	*d = *m;
	d->off = off;
	s->cur->nmsgs++;
	s->len = (uint16_t)(off + MSG_HDR + m->data_len);
	return 0;
}

static uint32_t round_up(uint32_t v, uint32_t a)
{
	return (v + a - 1) / a * a;
}

/*
 * Plans fragment sizes of a len-byte transaction starting in the current frame
 * (room first_room, may be < 16) and continuing in empty frames (room
 * empty_room). Returns the count; sizes[] receives data_len of each.
 */
static unsigned int plan_fragments(uint32_t len, long first_room, long empty_room, uint16_t *sizes,
				   unsigned int max, bool *fresh)
{
	uint32_t left = round_up(len, 4);
	unsigned int n = 0;
	long room = first_room;

	*fresh = false;
	if (left == 0) {
		sizes[0] = 0;
		*fresh = first_room < 0;
		return 1;
	}
	if ((long)left > room && room < 16) {
		*fresh = true;
		room = empty_room;
	}
	while (left > 0 && n < max) {
		uint32_t take;

		if ((long)left <= room) {
			take = left;
		} else {
			take = (uint32_t)(room / 16 * 16);
		}
		sizes[n++] = (uint16_t)take;
		left -= take;
		room = empty_room;
	}
	return n;
}

/* ---- the simulation ---- */

struct conn_sim {
	struct sender producer; /* data sender */
	struct sender consumer; /* doorbell sender */
	uint64_t *db_time;	/* doorbell send time per transaction */
	uint64_t *comp_time;
	uint64_t t0;
	uint32_t cons_flag_base; /* consumer's flag addresses (in data transactions) */
	uint32_t prod_flag_base; /* producer's flag addresses (in doorbells) */
	uint32_t buf_size;
	unsigned int data_frames;
	uint16_t last_rx_seq;
};

static uint64_t profile_latency(const struct opts *o, unsigned int i)
{
	uint64_t base = o->latency_ns;
	uint64_t noise = rng_below(base / 5 + 1);

	switch (o->profile) {
	case PROF_HEALTHY:
		return base + noise;
	case PROF_JITTER:
		/* short, intermittent bursts of high latency: 3 of every 50 */
		if (i % 50 >= 20 && i % 50 < 23) {
			return base * 100 + rng_below(base * 50);
		}
		return base + noise;
	case PROF_THROUGHPUT:
		/* a constant bottleneck: latency climbs to a steady high value */
		if (i < 20) {
			return base + (base * 60 * i) / 20 + noise;
		}
		return base * 60 + rng_below(base * 6);
	}
	return base;
}

static uint64_t frame_wire_ns(uint16_t dgr_len)
{
	/* 10 Gbit/s: 0.8 ns per byte, plus Ethernet overhead */
	return ((uint64_t)dgr_len + 38) * 8 / 10 + 1;
}

/* An ACK-only frame. Returns 0 or -DGR_E_NOMEM. */
static int emit_ack_only(struct sender *s, uint64_t ts, uint32_t ack_abs, uint8_t ack_count)
{
	sender_flush(s);
	if (sender_open(s, ts, FK_ACK) < 0) {
		return -DGR_E_NOMEM;
	}
	s->cur->ack_abs = ack_abs;
	s->cur->ack_count = ack_count;
	sender_flush(s);
	return 0;
}

/* A malformed frame (one of three kinds). Returns 0 or -DGR_E_NOMEM. */
static int emit_malformed(struct sender *s, uint64_t ts, unsigned int which)
{
	sender_flush(s);
	if (sender_open(s, ts, FK_MALFORMED) < 0) {
		return -DGR_E_NOMEM;
	}
	s->cur->malformed_kind = (uint8_t)(which % 3);
	s->len = 48; /* bytes laid out by write_malformed() */
	sender_flush(s);
	return 0;
}

/* Simulates connection c's whole run into frames. Returns 0 or -DGR_E_NOMEM with errbuf. */
static int simulate_conn(const struct opts *o, unsigned int c, char *errbuf)
{
	struct conn_sim cs;
	uint16_t sizes[4096];
	unsigned int i, K = o->coalesce_txns, Kd = o->coalesce_doorbells;
	uint64_t last_db_raw = 0;
	unsigned int malformed_n = 0;
	uint32_t dcp_base = 0x00041000u; /* --dcp-doorbell-per-address: one address per buffer */
	int rc = -DGR_E_NOMEM;

	memset(&cs, 0, sizeof(cs));
	cs.t0 = 1000000000ull + c * 1237ull; /* 1 s, staggered per connection */
	cs.cons_flag_base = 0x00100000u;
	cs.prod_flag_base = 0x0000F000u;
	cs.buf_size = round_up(o->bytes, 16) + 16;
	cs.producer.conn = cs.consumer.conn = (uint8_t)c;
	cs.producer.from_host = o->tx;
	cs.consumer.from_host = !o->tx;
	{
		unsigned int cap = o->mtu - (unsigned int)net_hdr_len(o);
		cs.producer.cap = cs.consumer.cap = (uint16_t)cap;
	}
	cs.db_time = calloc(o->txns, sizeof(uint64_t));
	cs.comp_time = calloc(o->txns, sizeof(uint64_t));
	if (!cs.db_time || !cs.comp_time) {
		goto out;
	}

	if (c == 0 && o->transport == TR_ETHER) {
		/* discovery: the host sends a DCP NOP, the FPGA answers */
		struct gframe *f;

		if (new_frame(&f) < 0) {
			goto out;
		}
		f->ts = cs.t0 - 500000;
		f->kind = FK_DCP_NOP;
		f->from_host = 1;
		f->tag = 1;
		if (new_frame(&f) < 0) {
			goto out;
		}
		f->ts = cs.t0 - 480000;
		f->kind = FK_DCP_NOP_RESP;
		f->from_host = 0;
		f->tag = 1;
	}

	for (i = 0; i < o->txns; i += K) {
		unsigned int g_end = i + K < o->txns ? i + K : o->txns;
		uint64_t start = cs.t0 + (uint64_t)i * o->period_ns;
		uint64_t t;
		unsigned int j;

		/* a producer cannot refill buffer b before b's doorbell */
		for (j = i; j < g_end; j++) {
			if (j >= o->buffers && cs.db_time[j - o->buffers] + 1000 > start) {
				start = cs.db_time[j - o->buffers] + 1000;
			}
		}
		t = start;
		if (o->malformed_every && i > 0 && i % o->malformed_every == 0) {
			if (emit_malformed(&cs.producer, t, malformed_n++) < 0) {
				goto out;
			}
			t += 200;
		}
		if (sender_open(&cs.producer, t, FK_DATA) < 0) {
			goto out;
		}
		for (j = i; j < g_end; j++) {
			uint16_t b = (uint16_t)(j % o->buffers);
			bool disc = o->discontinuity_every && (j + 1) % o->discontinuity_every == 0;
			/* a discontinuity is a flag-only message with opcode 4, as the emulator
			 * sends it */
			uint32_t len = disc ? 0 : o->bytes;
			uint8_t opcode = disc ? 4 : 0;
			bool fresh;
			unsigned int n, k;
			uint32_t r;
			uint32_t data_off = 0;

			if (new_rec((uint8_t)c, false, b, &r) < 0) {
				goto out;
			}
			n = plan_fragments(len, sender_room(&cs.producer),
					   (long)cs.producer.cap - FRAME_HDR - MSG_HDR, sizes,
					   sizeof(sizes) / sizeof(sizes[0]), &fresh);
			recs[r].parts = (uint16_t)n;
			recs[r].discontinuity = disc;
			if (fresh) {
				sender_flush(&cs.producer);
				t += frame_wire_ns(cs.producer.len);
				if (sender_open(&cs.producer, t, FK_DATA) < 0) {
					goto out;
				}
			}
			for (k = 0; k < n; k++) {
				struct gmsg m = { 0 };

				if (k > 0) {
					/* each further fragment starts a new frame */
					sender_flush(&cs.producer);
					t += frame_wire_ns(cs.producer.len);
					cs.data_frames++;
					if (sender_open(&cs.producer, t, FK_DATA) < 0) {
						goto out;
					}
				}
				m.txn_id = j + 1;
				m.flag_addr = cs.cons_flag_base + 4u * b;
				m.flag_value =
				    1u | ((len & 0x1FFFFFu) << 1) | ((uint32_t)opcode << 24);
				m.num_msgs = (uint16_t)(len == 0 ? 0 : n);
				m.msg_seq = (uint16_t)(k + 1);
				m.data_addr = b * cs.buf_size + data_off;
				m.data_len = sizes[k];
				m.gtxn = r;
				data_off += sizes[k];
				if (sender_add(&cs.producer, &m) < 0) {
					goto out;
				}
			}
			cs.comp_time[j] = t;
		}
		sender_flush(&cs.producer);
		cs.data_frames++;
		if (cs.data_frames % 8 == 0 &&
		    emit_ack_only(&cs.consumer, t + 300, cs.producer.nsent - 8, 8) < 0) {
			goto out;
		}
		/* doorbells: in order, each after its transaction completes */
		for (j = i; j < g_end; j++) {
			uint64_t raw = cs.comp_time[j] + profile_latency(o, j);

			if (raw < last_db_raw) {
				raw = last_db_raw;
			}
			last_db_raw = raw;
			cs.db_time[j] = raw;
			/* coalesced doorbells: a group leaves with its last member */
			if ((j + 1) % Kd == 0 || j + 1 == o->txns) {
				unsigned int g0 = j + 1 - ((j % Kd) + 1), k;

				for (k = g0; k <= j; k++) {
					cs.db_time[k] = raw;
				}
				if (o->dcp_doorbells) {
					for (k = g0; k <= j; k++) {
						struct gframe *f;
						uint16_t b = (uint16_t)(k % o->buffers);
						uint32_t r;

						if (new_rec((uint8_t)c, true, b, &r) < 0 ||
						    new_frame(&f) < 0) {
							goto out;
						}
						f->ts = raw + (k - g0) * 100;
						f->conn = (uint8_t)c;
						f->kind = FK_DCP_DOORBELL;
						f->from_host = cs.consumer.from_host;
						f->tag = (uint8_t)k;
						/* the emulator's `doorbell` property: data = buffer
						 * index */
						f->dcp_addr = o->dcp_per_address ? dcp_base + 4u * b
										 : 0x00100018u;
						f->dcp_data = o->dcp_per_address ? 1u : b;
						f->gtxn = r;
						if (new_frame(&f) < 0) {
							goto out;
						}
						f->ts = raw + (k - g0) * 100 + 5000;
						f->conn = (uint8_t)c;
						f->kind = FK_DCP_RESP;
						f->from_host = cs.producer.from_host;
						f->tag = (uint8_t)k;
					}
				} else {
					if (sender_open(&cs.consumer, raw, FK_DOORBELL) < 0) {
						goto out;
					}
					cs.consumer.cur->ack_abs = cs.producer.nsent - 1;
					cs.consumer.cur->ack_count = 1;
					for (k = g0; k <= j; k++) {
						struct gmsg m = { 0 };
						uint16_t b = (uint16_t)(k % o->buffers);

						m.txn_id = k + 1;
						m.flag_addr = cs.prod_flag_base + 4u * b;
						m.flag_value = 1u;
						m.num_msgs = 0;
						m.msg_seq = 1;
						m.data_addr = 0;
						m.data_len = 0;
						if (new_rec((uint8_t)c, true, b, &m.gtxn) < 0 ||
						    sender_add(&cs.consumer, &m) < 0) {
							goto out;
						}
					}
					sender_flush(&cs.consumer);
				}
			}
		}
	}
	{
		unsigned int last = (o->txns < o->buffers ? o->txns : o->buffers) - 1;

		if (cs.db_time[last] > first_round_end) {
			first_round_end = cs.db_time[last];
		}
	}
	rc = 0;
out:
	free(cs.db_time);
	free(cs.comp_time);
	if (rc < 0) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	return 0;
}

/* ---- byte layout ---- */

static void put16le(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32le(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put16be(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32be(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint16_t ip_checksum(const uint8_t *p, size_t n)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2) {
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	}
	while (sum >> 16) {
		sum = (sum & 0xFFFF) + (sum >> 16);
	}
	return (uint16_t)~sum;
}

static void host_mac(uint8_t *m)
{
	static const uint8_t h[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };

	memcpy(m, h, 6);
}

static void fpga_mac(uint8_t *m, unsigned int conn)
{
	static const uint8_t f[6] = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x00 };

	memcpy(m, f, 6);
	m[5] = (uint8_t)(0x10 + conn);
}

/* Writes link + network headers; returns the offset of the payload. */
static size_t write_l2(uint8_t *p, const struct opts *o, const struct gframe *f, uint16_t ethertype,
		       size_t payload_len)
{
	size_t off = 12;
	uint8_t hm[6], fm[6];

	host_mac(hm);
	fpga_mac(fm, f->conn);
	if (o->cooked) {
		/* packet type (to us / outgoing, as seen on the host), ARPHRD_ETHER, the sender */
		put16be(p, f->from_host ? 4 : 0);
		put16be(p + 2, 1);
		put16be(p + 4, 6);
		memcpy(p + 6, f->from_host ? hm : fm, 6);
		put16be(p + 12, 0);
		off = 14;
	} else {
		memcpy(p, f->from_host ? fm : hm, 6);
		memcpy(p + 6, f->from_host ? hm : fm, 6);
	}
	if (o->vlan) {
		put16be(p + off, 0x8100);
		put16be(p + off + 2, (uint16_t)o->vlan);
		off += 4;
	}
	if (o->transport == TR_UDP) {
		uint8_t *ip;

		put16be(p + off, 0x0800);
		off += 2;
		ip = p + off;
		memset(ip, 0, IP_HDR);
		ip[0] = 0x45;
		put16be(ip + 2, (uint16_t)(IP_HDR + UDP_HDR + UDP_PAD + payload_len));
		ip[8] = 64;
		ip[9] = 17;
		{
			uint8_t haddr[4] = { 10, 0, 0, 1 }, faddr[4] = { 10, 0, 1, 0 };

			faddr[3] = (uint8_t)(2 + f->conn);
			memcpy(ip + 12, f->from_host ? haddr : faddr, 4);
			memcpy(ip + 16, f->from_host ? faddr : haddr, 4);
		}
		put16be(ip + 10, ip_checksum(ip, IP_HDR));
		off += IP_HDR;
	} else if (o->transport == TR_UDP6) {
		/* fd00::1 the host, fd00::1:N the FPGA of connection N - 2 */
		uint8_t haddr[16] = { 0xfd, 0, [15] = 1 }, faddr[16] = { 0xfd, 0, [13] = 1 };
		uint8_t *ip;

		faddr[15] = (uint8_t)(2 + f->conn);
		put16be(p + off, 0x86DD);
		off += 2;
		ip = p + off;
		memset(ip, 0, IP6_HDR);
		ip[0] = 0x60;
		put16be(ip + 4, (uint16_t)(UDP_HDR + UDP_PAD + payload_len));
		ip[6] = 17; /* next header: UDP */
		ip[7] = 64;
		memcpy(ip + 8, f->from_host ? haddr : faddr, 16);
		memcpy(ip + 24, f->from_host ? faddr : haddr, 16);
		off += IP6_HDR;
	}
	if (o->transport != TR_ETHER) {
		uint16_t hport = 40000, fport = 18078;

		put16be(p + off, f->from_host ? hport : fport);
		put16be(p + off + 2, f->from_host ? fport : hport);
		put16be(p + off + 4, (uint16_t)(UDP_HDR + UDP_PAD + payload_len));
		put16be(p + off + 6, 0); /* none over IPv4; over IPv6 set by udp6_checksum() */
		off += UDP_HDR;
		/* the pad: 0 before a DG-RDMA frame, 0xF040 (big-endian) before a DCP packet */
		put16be(p + off, ethertype == 0xF040 ? 0xF040 : 0);
		off += UDP_PAD;
		return off;
	}
	put16be(p + off, ethertype);
	return off + 2;
}

static void write_frame_hdr(uint8_t *p, const struct gframe *f, uint8_t flags)
{
	/* offset 0: sender's id; host id 1, FPGA id 0x100 + conn */
	uint16_t host_id = 1, fpga_id = (uint16_t)(0x100 + f->conn);

	put16le(p + 0, f->from_host ? host_id : fpga_id);
	put16le(p + 2, f->from_host ? fpga_id : host_id);
	put16le(p + 4, f->seq);
	put16le(p + 6, f->ack_start);
	p[8] = f->ack_count;
	p[9] = flags;
}

/*
 * Over IPv6 the UDP checksum is mandatory (RFC 8200): computed once the
 * payload is written, over the pseudo-header and the datagram.
 */
static void udp6_checksum(uint8_t *p, const struct opts *o)
{
	uint8_t *ip = p + link_hdr_len(o);
	uint8_t *u = ip + IP6_HDR;
	uint16_t ulen = (uint16_t)(u[4] << 8 | u[5]);
	uint32_t sum = 17u + ulen;
	uint16_t c;
	size_t i;

	for (i = 8; i < IP6_HDR; i += 2) {
		sum += (uint32_t)(ip[i] << 8 | ip[i + 1]);
	}
	for (i = 0; i < ulen; i += 2) {
		sum += (uint32_t)(u[i] << 8 | (i + 1 < ulen ? u[i + 1] : 0));
	}
	while (sum >> 16) {
		sum = (sum & 0xFFFF) + (sum >> 16);
	}
	c = (uint16_t)~sum;
	put16be(u + 6, c ? c : 0xFFFF);
}

/* Lays out a frame; returns its length on the wire (without FCS). */
static size_t build_frame(uint8_t *p, const struct opts *o, const struct gframe *f)
{
	size_t off, len;
	uint32_t i;

	switch (f->kind) {
	case FK_DATA:
	case FK_DOORBELL:
	case FK_ACK:
		off = write_l2(p, o, f, 0xF042, f->dgr_len);
		memset(p + off, 0, f->dgr_len);
		write_frame_hdr(p + off, f, f->nmsgs ? 1 : 0);
		for (i = 0; i < f->nmsgs; i++) {
			const struct gmsg *m = &msgs[f->first_msg + i];
			uint8_t *h = p + off + m->off;

			put32le(h + 0, m->txn_id);
			put32le(h + 4, m->flag_addr);
			put32le(h + 8, m->flag_value);
			put16le(h + 12, m->num_msgs);
			put16le(h + 14, m->msg_seq);
			put32le(h + 16, m->data_addr);
			put16le(h + 20, m->data_len);
			h[22] = 0;
			h[23] = i + 1 < f->nmsgs ? 1 : 0;
			/* data: a recognisable ramp, never decoded */
			if (m->data_len) {
				memset(h + MSG_HDR, (int)(m->txn_id & 0xFF), m->data_len);
			}
		}
		len = off + f->dgr_len;
		break;
	case FK_MALFORMED:
		off = write_l2(p, o, f, 0xF042, 48);
		memset(p + off, 0, 48);
		write_frame_hdr(p + off, f, 1);
		if (f->malformed_kind == 0) {
			p[off + 9] = 0x07; /* frame flags neither 0 nor 1 */
		} else {
			/* a message whose data runs far past the end of the frame */
			uint8_t *h = p + off + FRAME_HDR;

			put32le(h + 0, 0xDEAD);
			put32le(h + 4, NO_FLAG);
			put32le(h + 8, NO_FLAG);
			put16le(h + 12, 1);
			put16le(h + 14, 1);
			put16le(h + 20, (uint16_t)(f->malformed_kind == 1 ? 4000 : 14));
			h[23] = f->malformed_kind == 1 ? 0 : 1; /* kind 2: has_nextmsg past end */
		}
		len = off + 48;
		break;
	default: {
		/* DCP: ethertype 0xF040, or over UDP after the pad 0xF040 */
		uint16_t dcp_len = f->kind == FK_DCP_DOORBELL ? 14
				   : f->kind == FK_DCP_RESP   ? 6
				   : f->kind == FK_DCP_NOP    ? 10
							      : 18;

		off = write_l2(p, o, f, 0xF040, dcp_len);
		if (f->kind == FK_DCP_DOORBELL) {
			put16be(p + off, 14);
			put16be(p + off + 2, 0);
			p[off + 4] = 0x10 | 0x0F; /* write, all byte enables */
			p[off + 5] = f->tag;
			put32be(p + off + 6, f->dcp_addr);
			put32be(p + off + 10, f->dcp_data);
			len = off + 14;
		} else if (f->kind == FK_DCP_RESP) {
			put16be(p + off, 6);
			put16be(p + off + 2, 0);
			p[off + 4] = 0x30;
			p[off + 5] = f->tag;
			len = off + 6;
		} else if (f->kind == FK_DCP_NOP) {
			put16be(p + off, 10);
			put16be(p + off + 2, 0);
			p[off + 4] = 0x40; /* NOP, uncached */
			p[off + 5] = f->tag;
			put32be(p + off + 6, 0);
			len = off + 10;
		} else {
			uint8_t fm[6];

			put16be(p + off, 18);
			put16be(p + off + 2, 0);
			p[off + 4] = 0x30;
			p[off + 5] = f->tag;
			put32be(p + off + 6, 0x0C0FFEE0);
			fpga_mac(fm, f->conn);
			memcpy(p + off + 10, fm, 6);
			p[off + 16] = 0;
			p[off + 17] = 0x40;
			len = off + 18;
		}
		break;
	}
	}
	if (o->transport == TR_UDP6) {
		udp6_checksum(p, o);
	}
	if (len < 60) {
		memset(p + len, 0, 60 - len);
		len = 60;
	}
	return len;
}

/* ---- file output ---- */

static uint64_t quantise(const struct opts *o, uint64_t ts)
{
	return o->fmt == FMT_PCAP_US ? ts / 1000 * 1000 : ts;
}

/* Writes n bytes of p. Returns 0 or -DGR_E_SYS with errbuf. */
static int fw(FILE *fp, const void *p, size_t n, char *errbuf)
{
	if (n && fwrite(p, 1, n, fp) != n) {
		return dgr_errbuf_set(errbuf, DGR_E_SYS, "write failed: %s", strerror(errno));
	}
	return 0;
}

/* The capture file's header. Returns 0 or -DGR_E_SYS with errbuf. */
static int write_header(FILE *fp, const struct opts *o, uint32_t snap, char *errbuf)
{
	uint8_t h[64];

	if (o->fmt == FMT_PCAPNG) {
		/* Section Header Block */
		put32le(h, 0x0A0D0D0A);
		put32le(h + 4, 28);
		put32le(h + 8, 0x1A2B3C4D);
		put16le(h + 12, 1);
		put16le(h + 14, 0);
		put32le(h + 16, 0xFFFFFFFF);
		put32le(h + 20, 0xFFFFFFFF);
		put32le(h + 24, 28);
		if (fw(fp, h, 28, errbuf) < 0) {
			return -DGR_E_SYS;
		}
		/* Interface Description Block, Ethernet, if_tsresol = 9 (ns) */
		put32le(h, 1);
		put32le(h + 4, 32);
		put16le(h + 8, o->cooked ? 113 : 1); /* LINKTYPE_LINUX_SLL or _ETHERNET */
		put16le(h + 10, 0);
		put32le(h + 12, snap);
		put16le(h + 16, 9); /* if_tsresol */
		put16le(h + 18, 1);
		h[20] = 9;
		h[21] = h[22] = h[23] = 0;
		put16le(h + 24, 0); /* opt_endofopt */
		put16le(h + 26, 0);
		put32le(h + 28, 32);
		return fw(fp, h, 32, errbuf);
	}
	put32le(h, o->fmt == FMT_PCAP_NS ? 0xA1B23C4D : 0xA1B2C3D4);
	put16le(h + 4, 2);
	put16le(h + 6, 4);
	put32le(h + 8, 0);
	put32le(h + 12, 0);
	put32le(h + 16, snap);
	put32le(h + 20, o->cooked ? 113 : 1); /* LINKTYPE_LINUX_SLL or _ETHERNET */
	return fw(fp, h, 24, errbuf);
}

/* One record of the capture file. Returns 0 or -DGR_E_SYS with errbuf. */
static int write_record(FILE *fp, const struct opts *o, uint64_t ts, const uint8_t *p,
			uint32_t caplen, uint32_t len, char *errbuf)
{
	uint8_t h[28];

	if (o->fmt == FMT_PCAPNG) {
		uint32_t padded = (caplen + 3) & ~3u;
		uint32_t total = 32 + padded;
		static const uint8_t zero[4];

		put32le(h, 6);
		put32le(h + 4, total);
		put32le(h + 8, 0);
		put32le(h + 12, (uint32_t)(ts >> 32));
		put32le(h + 16, (uint32_t)ts);
		put32le(h + 20, caplen);
		put32le(h + 24, len);
		if (fw(fp, h, 28, errbuf) < 0 || fw(fp, p, caplen, errbuf) < 0 ||
		    fw(fp, zero, padded - caplen, errbuf) < 0) {
			return -DGR_E_SYS;
		}
		put32le(h, total);
		return fw(fp, h, 4, errbuf);
	}
	put32le(h, (uint32_t)(ts / 1000000000ull));
	if (o->fmt == FMT_PCAP_NS) {
		put32le(h + 4, (uint32_t)(ts % 1000000000ull));
	} else {
		put32le(h + 4, (uint32_t)(ts % 1000000000ull / 1000));
	}
	put32le(h + 8, caplen);
	put32le(h + 12, len);
	if (fw(fp, h, 16, errbuf) < 0) {
		return -DGR_E_SYS;
	}
	return fw(fp, p, caplen, errbuf);
}

static int cmp_frames(const void *a, const void *b)
{
	const struct gframe *x = a, *y = b;

	if (x->ts != y->ts) {
		return x->ts < y->ts ? -1 : 1;
	}
	return x->order < y->order ? -1 : (x->order > y->order);
}

/* True for the frames that carry a DG-RDMA frame header (and so a frame_seq). */
static bool has_frame_seq(const struct gframe *f)
{
	return f->kind == FK_DATA || f->kind == FK_DOORBELL || f->kind == FK_ACK ||
	       f->kind == FK_MALFORMED;
}

/*
 * Numbers every sender's frames in the order they leave (capture order), as
 * the FPGA does: every frame, ACK-only included, takes the next frame_seq from
 * 1, wrapping through 0. ACKs name the peer's frames by the same numbers.
 * Returns 0 or -DGR_E_NOMEM with errbuf.
 */
static int number_frames(const struct opts *o, char *errbuf)
{
	size_t nsenders = (size_t)o->conns * 2, i;
	uint32_t *count = calloc(nsenders, sizeof(uint32_t));
	uint32_t **rank = calloc(nsenders, sizeof(uint32_t *));
	uint32_t *total = calloc(nsenders, sizeof(uint32_t));
	int rc = -DGR_E_NOMEM;

	if (!count || !rank || !total) {
		goto out;
	}
	for (i = 0; i < nframes; i++) {
		if (has_frame_seq(&frames[i])) {
			size_t k = (size_t)frames[i].conn * 2 + frames[i].from_host;

			if (frames[i].abs_seq + 1 > total[k]) {
				total[k] = frames[i].abs_seq + 1;
			}
		}
	}
	for (i = 0; i < nsenders; i++) {
		rank[i] = malloc(((size_t)total[i] + 1) * sizeof(uint32_t));
		if (!rank[i]) {
			goto out;
		}
	}
	for (i = 0; i < nframes; i++) {
		struct gframe *f = &frames[i];
		size_t k = (size_t)f->conn * 2 + f->from_host;

		if (!has_frame_seq(f)) {
			continue;
		}
		rank[k][f->abs_seq] = count[k];
		f->seq = (uint16_t)(count[k] + o->seq_start);
		count[k]++;
	}
	for (i = 0; i < nframes; i++) {
		struct gframe *f = &frames[i];
		size_t peer = (size_t)f->conn * 2 + !f->from_host;

		if (has_frame_seq(f) && f->ack_count) {
			f->ack_start = (uint16_t)(rank[peer][f->ack_abs] + o->seq_start);
		}
	}
	rc = 0;
out:
	for (i = 0; rank && i < nsenders; i++) {
		free(rank[i]);
	}
	free(rank);
	free(count);
	free(total);
	if (rc < 0) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	return 0;
}

/*
 * --fpga-lockup: the FPGA of connection 0 locked as OpenCPI's frame parser
 * locks when the padding of the host's ACK-only frames took frame_seq 0
 * (docs/protocol.md): the host's frame numbered 0 (a doorbell frame) and every
 * later doorbell give it no credit. It sends only the transactions its credits
 * then allowed (txn_id < cut + buffers, cut the doorbell of frame 0), the host
 * answers those it receives, and nothing else follows (the host's ACK-only
 * frames after the last data neither). The frames never sent are taken out and
 * every frame is numbered again. Returns 0, -DGR_E_INVAL (no such frame 0) or -DGR_E_NOMEM
 * with errbuf.
 */
static int apply_fpga_lockup(const struct opts *o, char *errbuf)
{
	size_t i, n = 0, f0 = SIZE_MAX;
	uint32_t cut, max_fpga_abs = 0;
	uint64_t last_data_ts = 0;
	uint8_t *gone;

	for (i = 0; i < nframes; i++) {
		if (frames[i].conn == 0 && frames[i].from_host && has_frame_seq(&frames[i]) &&
		    frames[i].seq == 0) {
			f0 = i;
			break;
		}
	}
	if (f0 == SIZE_MAX || frames[f0].kind != FK_DOORBELL) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--fpga-lockup: the host's frame 0 is %s: choose another "
				      "--seq-start (see --list-frames)",
				      f0 == SIZE_MAX ? "never sent" : "not a doorbell frame");
	}
	gone = calloc(nframes, 1);
	if (!gone) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	cut = msgs[frames[f0].first_msg].txn_id;
	for (i = 0; i < nframes; i++) {
		const struct gframe *f = &frames[i];

		if (f->conn == 0 && (f->kind == FK_DATA || f->kind == FK_DOORBELL)) {
			gone[i] = msgs[f->first_msg].txn_id >= cut + o->buffers;
		}
		if (!gone[i] && f->conn == 0 && f->kind == FK_DATA) {
			last_data_ts = f->ts;
			max_fpga_abs = f->abs_seq > max_fpga_abs ? f->abs_seq : max_fpga_abs;
		}
	}
	for (i = 0; i < nframes; i++) {
		struct gframe *f = &frames[i];

		if (gone[i] ||
		    (f->conn == 0 && f->kind == FK_ACK && f->from_host && f->ts > last_data_ts)) {
			continue;
		}
		if (f->conn == 0 && f->from_host && f->ack_count && f->ack_abs > max_fpga_abs) {
			f->ack_abs = max_fpga_abs; /* what it had received */
		}
		frames[n++] = *f;
	}
	free(gone);
	nframes = n;
	return number_frames(o, errbuf);
}

/* True when frame index idx (1-based, capture order) is in the --drop-frames list. */
static bool in_drop_list(const char *list, size_t idx)
{
	const char *p = list;

	while (p && *p) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);

		if (end != p && v == idx) {
			return true;
		}
		p = *end ? end + 1 : end;
	}
	return false;
}

/* One --late-frames pair: frame `late` (1-based index) captured right after frame `after`. */
struct late_pair {
	size_t late, after;
};

/*
 * --late-frames I:J,...: frame I is captured right after frame J, at J's time,
 * its bytes (frame_seq included) unchanged: what reordering on the way, or a
 * capture point that saw it late, leaves. Returns 0, -DGR_E_INVAL (a bad list) or
 * -DGR_E_NOMEM with errbuf.
 */
static int apply_late_frames(const char *list, char *errbuf)
{
	struct late_pair *pairs = NULL, *more;
	size_t npairs = 0, k, m, n = 0;
	struct gframe *out;
	const char *p = list;
	int rc;

	while (*p) {
		char *end;
		unsigned long i = strtoul(p, &end, 10), j;

		if (end == p || *end != ':') {
			goto bad_syntax;
		}
		p = end + 1;
		j = strtoul(p, &end, 10);
		if (end == p || (*end && *end != ',')) {
			goto bad_syntax;
		}
		p = *end ? end + 1 : end;
		if (i < 1 || j <= i || j > nframes) {
			rc = dgr_errbuf_set(errbuf, DGR_E_INVAL,
					    "--late-frames: '%lu:%lu' needs 1 <= I < J <= %zu (the "
					    "frames written)",
					    i, j, nframes);
			goto fail;
		}
		for (k = 0; k < npairs; k++) {
			if (pairs[k].late == i || pairs[k].late == j || pairs[k].after == i) {
				rc = dgr_errbuf_set(errbuf, DGR_E_INVAL,
						    "--late-frames: frame %lu is in two pairs (a "
						    "frame moves once, after a frame that stays)",
						    pairs[k].late == j ? j : i);
				goto fail;
			}
		}
		more = realloc(pairs, (npairs + 1) * sizeof(*pairs));
		if (!more) {
			goto nomem;
		}
		pairs = more;
		pairs[npairs].late = i;
		pairs[npairs].after = j;
		npairs++;
	}
	out = malloc((nframes ? nframes : 1) * sizeof(*out));
	if (!out) {
		goto nomem;
	}
	for (k = 0; k < nframes; k++) {
		bool moved = false;

		for (m = 0; m < npairs; m++) {
			moved = moved || pairs[m].late == k + 1;
		}
		if (moved) {
			continue;
		}
		out[n++] = frames[k];
		for (m = 0; m < npairs; m++) {
			if (pairs[m].after == k + 1) {
				out[n] = frames[pairs[m].late - 1];
				out[n].ts = frames[k].ts;
				n++;
			}
		}
	}
	free(frames);
	frames = out;
	free(pairs);
	return 0;

bad_syntax:
	rc = dgr_errbuf_set(errbuf, DGR_E_INVAL,
			    "--late-frames: '%.160s' is not a list of I:J pairs", list);
	goto fail;
nomem:
	rc = dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
fail:
	free(pairs);
	return rc;
}

/*
 * --resend-frames I,...: data frame I is sent a second time by its sender right after
 * itself, at its time, as a new frame: the next frame_seq, every later frame of that sender
 * one further (and the peer's ACKs of them). A sender that resends after a lost ACK does
 * this; its messages reach the receiver twice. Returns 0, -DGR_E_INVAL (a bad list) or
 * -DGR_E_NOMEM with errbuf.
 */
static int apply_resend_frames(const char *list, size_t nindexed, char *errbuf)
{
	size_t *orig = NULL, *more, norig = 0, k, m, n = 0;
	struct gframe *out;
	const char *p = list;
	int rc;

	while (*p) {
		char *end;
		unsigned long i = strtoul(p, &end, 10);
		const struct gframe *f = NULL;

		if (end == p || (*end && *end != ',')) {
			rc = dgr_errbuf_set(
			    errbuf, DGR_E_INVAL,
			    "--resend-frames: '%.160s' is not a list of frame indices", list);
			goto fail;
		}
		p = *end ? end + 1 : end;
		for (k = 0; k < nframes && i >= 1 && i <= nindexed; k++) {
			if (frames[k].index == i) {
				f = &frames[k];
			}
		}
		if (!f || f->kind != FK_DATA) {
			rc = dgr_errbuf_set(
			    errbuf, DGR_E_INVAL,
			    "--resend-frames: frame %lu is not a data frame (1..%zu, "
			    "'data' in --list-frames)",
			    i, nindexed);
			goto fail;
		}
		for (k = 0; k < norig; k++) {
			if (orig[k] == i) {
				rc = dgr_errbuf_set(errbuf, DGR_E_INVAL,
						    "--resend-frames: frame %lu named twice", i);
				goto fail;
			}
		}
		more = realloc(orig, (norig + 1) * sizeof(*orig));
		if (!more) {
			goto nomem;
		}
		orig = more;
		orig[norig++] = i;
	}
	out = malloc((nframes + norig ? nframes + norig : 1) * sizeof(*out));
	if (!out) {
		goto nomem;
	}
	for (k = 0; k < nframes; k++) {
		out[n++] = frames[k];
		for (m = 0; m < norig; m++) {
			if (frames[k].index == orig[m]) {
				out[n] = frames[k];
				out[n].resent = 1;
				n++;
			}
		}
	}
	/* renumber: a frame moves one on per resent frame its sender sent before it */
	for (k = 0; k < n; k++) {
		struct gframe *f = &out[k];
		unsigned int shift = 0, ack_shift = 0;

		if (!has_frame_seq(f)) {
			continue;
		}
		for (m = 0; m < n; m++) {
			const struct gframe *r = &out[m];

			if (!r->resent) {
				continue;
			}
			if (r->conn == f->conn && r->from_host == f->from_host &&
			    (r->abs_seq < f->abs_seq || (r->abs_seq == f->abs_seq && f->resent))) {
				shift++;
			}
			if (r->conn == f->conn && r->from_host != f->from_host &&
			    r->abs_seq < f->ack_abs) {
				ack_shift++;
			}
		}
		f->seq = (uint16_t)(f->seq + shift);
		if (f->ack_count) {
			f->ack_start = (uint16_t)(f->ack_start + ack_shift);
		}
	}
	free(frames);
	frames = out;
	nframes = n;
	free(orig);
	return 0;

nomem:
	rc = dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
fail:
	free(orig);
	return rc;
}

/* --list-frames: "index kind from seq [txn_id:msg_seq/num_msgs ...]" per frame. */
static int list_frames(const char *path)
{
	static const char *const kinds[] = { "data",	 "doorbell", "ack",	     "dcp-doorbell",
					     "dcp-resp", "dcp-nop",  "dcp-nop-resp", "malformed" };
	FILE *fp = fopen(path, "w");
	size_t i;
	uint32_t k;

	if (!fp) {
		fprintf(stderr, "dgrdma-gen: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < nframes; i++) {
		const struct gframe *f = &frames[i];

		fprintf(fp, "%zu %s %s %u", i + 1,
			f->kind < sizeof(kinds) / sizeof(kinds[0]) ? kinds[f->kind] : "?",
			f->from_host ? "host" : "fpga", has_frame_seq(f) ? f->seq : 0);
		for (k = 0; k < f->nmsgs; k++) {
			const struct gmsg *m = &msgs[f->first_msg + k];

			fprintf(fp, " %u:%u/%u", m->txn_id, m->msg_seq, m->num_msgs);
		}
		fputc('\n', fp);
	}
	return fclose(fp) ? -1 : 0;
}

/* ---- expected answers: the matching rule applied to ground truth ---- */

/* Sequence analysis over every sender: gaps the capture loss leaves, frames captured late. */
struct seq_expect {
	uint64_t gaps, missing, late;
};

struct dir_expect {
	uint64_t transactions, doorbells, matched, unmatched, orphans, discontinuities;
	uint64_t incomplete, pending_at_end, after_given_up, duplicates;
	uint64_t *lat;
	size_t nlat, cap_lat;
};

/* Appends one matched doorbell's latency. Returns 0 or -DGR_E_NOMEM with errbuf. */
static int push_latency(struct dir_expect *d, uint64_t ns, char *errbuf)
{
	if (d->nlat == d->cap_lat) {
		size_t cap = d->cap_lat ? 2 * d->cap_lat : 1024;
		uint64_t *more = realloc(d->lat, cap * sizeof(uint64_t));

		if (!more) {
			return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
		}
		d->lat = more;
		d->cap_lat = cap;
	}
	d->lat[d->nlat++] = ns;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : (x > y);
}

static uint64_t nearest_rank(const uint64_t *sorted, size_t n, unsigned int per_mille)
{
	/* rank = ceil(p * n), 1-based, computed in integers (p in tenths of a percent) */
	size_t rank = (size_t)(((uint64_t)per_mille * n + 999) / 1000);

	if (rank < 1) {
		rank = 1;
	}
	return sorted[rank - 1];
}

/* Writes the expectation file (JSON). Returns 0 or -DGR_E_NOMEM with errbuf. */
static int print_expect(FILE *fp, const struct opts *o, const char *argline, uint64_t written,
			uint64_t dropped, uint64_t malformed, uint64_t dcp_frames,
			struct dir_expect *d, const struct seq_expect *sq, char *errbuf)
{
	uint64_t *sorted = NULL;
	size_t i;
	uint64_t sum = 0;

	fprintf(fp, "{\n  \"generator\": \"dgrdma-gen\",\n  \"args\": \"%s\",\n", argline);
	fprintf(fp, "  \"frames\": %" PRIu64 ",\n  \"frames_dropped\": %" PRIu64 ",\n", written,
		dropped);
	fprintf(fp, "  \"malformed_frames\": %" PRIu64 ",\n  \"dcp_frames\": %" PRIu64 ",\n",
		malformed, dcp_frames);
	fprintf(fp, "  \"messages_after_given_up\": %" PRIu64 ",\n", d->after_given_up);
	fprintf(fp, "  \"duplicate_messages\": %" PRIu64 ",\n", d->duplicates);
	fprintf(fp, "  \"buffers\": %u,\n  \"connections\": %u,\n", o->buffers, o->conns);
	fprintf(fp,
		"  \"sequence\": {\"gaps\": %" PRIu64 ", \"frames_missing\": %" PRIu64
		", \"duplicates\": 0, \"late\": %" PRIu64 "},\n",
		sq->gaps, sq->missing, sq->late);
	fprintf(fp, "  \"wire\": {\n    \"%s\": {\n", o->tx ? "tx" : "rx");
	fprintf(fp,
		"      \"transactions\": %" PRIu64 ",\n      \"doorbells\": %" PRIu64
		",\n      \"matched\": %" PRIu64 ",\n      \"unmatched_transactions\": %" PRIu64
		",\n      \"orphan_doorbells\": %" PRIu64 ",\n      \"discontinuities\": %" PRIu64
		",\n      \"incomplete_transactions\": %" PRIu64
		",\n      \"pending_at_end\": %" PRIu64 ",\n",
		d->transactions, d->doorbells, d->matched, d->unmatched, d->orphans,
		d->discontinuities, d->incomplete, d->pending_at_end);
	if (d->nlat) {
		sorted = malloc(d->nlat * sizeof(uint64_t));
		if (!sorted) {
			return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
		}
		memcpy(sorted, d->lat, d->nlat * sizeof(uint64_t));
		qsort(sorted, d->nlat, sizeof(uint64_t), cmp_u64);
		for (i = 0; i < d->nlat; i++) {
			sum += d->lat[i];
		}
		fprintf(fp,
			"      \"latency_ns\": {\"count\": %zu, \"min\": %" PRIu64
			", \"p50\": %" PRIu64 ", \"p90\": %" PRIu64 ", \"p99\": %" PRIu64
			", \"p999\": %" PRIu64 ", \"max\": %" PRIu64 ", \"mean\": %.1f},\n",
			d->nlat, sorted[0], nearest_rank(sorted, d->nlat, 500),
			nearest_rank(sorted, d->nlat, 900), nearest_rank(sorted, d->nlat, 990),
			nearest_rank(sorted, d->nlat, 999), sorted[d->nlat - 1],
			(double)sum / (double)d->nlat);
		free(sorted);
	} else {
		fprintf(fp, "      \"latency_ns\": {\"count\": 0},\n");
	}
	fprintf(fp, "      \"latencies_ns\": [");
	if (!o->no_expect_list) {
		for (i = 0; i < d->nlat; i++) {
			fprintf(fp, "%s%" PRIu64, i ? ", " : "", d->lat[i]);
		}
	}
	fprintf(fp, "]\n    }\n  }\n}\n");
	return 0;
}

/* ---- command line ---- */

/*
 * dgrdma-gen's options (stack/cli/opts.h): the parser, --help (the rows' text in order) and
 * --list-options.
 */
enum {
	OPT_OUT = 0x100,
	OPT_EXPECT,
	OPT_FORMAT,
	OPT_TRANSPORT,
	OPT_LINK,
	OPT_VLAN,
	OPT_SNAPLEN,
	OPT_IP_MTU,
	OPT_DIR,
	OPT_CONNS,
	OPT_TXNS,
	OPT_BUFFERS,
	OPT_BYTES,
	OPT_MTU,
	OPT_COALESCE_TXNS,
	OPT_COALESCE_DOORBELLS,
	OPT_DOORBELL,
	OPT_DCP_PER_ADDRESS,
	OPT_DISCONTINUITY_EVERY,
	OPT_MALFORMED_EVERY,
	OPT_DROP_EVERY,
	OPT_DROP_FRAMES,
	OPT_LATE_FRAMES,
	OPT_RESEND_FRAMES,
	OPT_SEQ_START,
	OPT_FPGA_LOCKUP,
	OPT_LIST_FRAMES,
	OPT_PROFILE,
	OPT_PERIOD_NS,
	OPT_LATENCY_NS,
	OPT_SEED,
	OPT_NO_LATENCY_LIST,
	OPT_VERSION,
	OPT_LIST_OPTIONS,
};

static const struct dgr_opt gen_opts[] = {
	{ .type = DGR_OPT_TEXT,
	  .usage = "usage: dgrdma-gen [options] -o CAPTURE -e EXPECTED.json\n" },
	{ .id = OPT_OUT,
	  .name = "out",
	  .short_name = 'o',
	  .type = DGR_OPT_STRING,
	  .metavar = "FILE",
	  .usage = "  -o, --out FILE             capture to write\n" },
	{ .id = OPT_EXPECT,
	  .name = "expect",
	  .short_name = 'e',
	  .type = DGR_OPT_STRING,
	  .metavar = "FILE",
	  .usage = "  -e, --expect FILE          expected answers (JSON) to write\n" },
	{ .id = OPT_FORMAT,
	  .name = "format",
	  .type = DGR_OPT_CHOICE,
	  .metavar = "pcap|pcap-ns|pcapng",
	  .values = "pcap|pcap-ns|pcapng",
	  .usage = "  --format pcap|pcap-ns|pcapng   file format (default pcapng, ns timestamps;\n"
		   "                             pcap has us timestamps, pcap-ns ns)\n" },
	{ .id = OPT_TRANSPORT,
	  .name = "transport",
	  .type = DGR_OPT_CHOICE,
	  .metavar = "ether|udp|udp6",
	  .values = "ether|udp|udp6",
	  .usage =
	      "  --transport ether|udp|udp6 raw Ethernet (0xF042), or UDP port 18078 over IPv4 or\n"
	      "                             IPv6 (default ether)\n" },
	{ .id = OPT_LINK,
	  .name = "link",
	  .type = DGR_OPT_CHOICE,
	  .metavar = "ether|sll",
	  .values = "ether|sll",
	  .usage = "  --link ether|sll           link header: Ethernet, or Linux cooked v1 as "
		   "tshark -i any\n"
		   "                             writes it (the sender's address only; default "
		   "ether)\n" },
	{ .id = OPT_VLAN,
	  .name = "vlan",
	  .type = DGR_OPT_COUNT,
	  .metavar = "ID",
	  .min = 1,
	  .max = 4094,
	  .usage = "  --vlan ID                  add an 802.1Q tag, 1..4094 (default none)\n" },
	{ .id = OPT_SNAPLEN,
	  .name = "snaplen",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 64,
	  .max = 65535,
	  .usage =
	      "  --snaplen N                truncate captured frames to N bytes, 64..65535\n" },
	{ .id = OPT_IP_MTU,
	  .name = "ip-mtu",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 576,
	  .max = 9000,
	  .usage =
	      "  --ip-mtu N                 send UDP datagrams longer than N bytes of IP as IP\n"
	      "                             fragments, 576..9000 (udp, udp6; default none)\n" },
	{ .id = OPT_DIR,
	  .name = "dir",
	  .type = DGR_OPT_CHOICE,
	  .metavar = "rx|tx",
	  .values = "rx|tx",
	  .usage = "  --dir rx|tx                rx: data FPGA->host; tx: data host->FPGA (default "
		   "rx)\n" },
	{ .id = OPT_CONNS,
	  .name = "conns",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 1,
	  .max = MAX_CONNS,
	  .usage =
	      "  --conns N                  connections (FPGA endpoints), 1..8 (default 1)\n" },
	{ .id = OPT_TXNS,
	  .name = "txns",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 1,
	  .max = 10000000,
	  .usage = "  --txns N                   data transactions per connection, 1..10000000 "
		   "(default 100)\n" },
	{ .id = OPT_BUFFERS,
	  .name = "buffers",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 1,
	  .max = 255,
	  .usage = "  --buffers N                consumer buffers, 1..255 (default 8)\n" },
	{ .id = OPT_BYTES,
	  .name = "bytes",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 4,
	  .max = 1048576,
	  .usage = "  --bytes N                  data bytes per transaction, 4..1048576 (default "
		   "8192)\n" },
	{ .id = OPT_MTU,
	  .name = "mtu",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 128,
	  .max = 9000,
	  .usage = "  --mtu N                    frame size, 128..9000 (default 9000)\n" },
	{ .id = OPT_COALESCE_TXNS,
	  .name = "coalesce-txns",
	  .type = DGR_OPT_COUNT,
	  .metavar = "K",
	  .min = 1,
	  .max = 64,
	  .usage =
	      "  --coalesce-txns K          K transactions share frames, 1..64 (default 1)\n" },
	{ .id = OPT_COALESCE_DOORBELLS,
	  .name = "coalesce-doorbells",
	  .type = DGR_OPT_COUNT,
	  .metavar = "K",
	  .min = 1,
	  .max = 255,
	  .usage = "  --coalesce-doorbells K     K doorbells per frame, 1..buffers (default 1)\n" },
	{ .id = OPT_DOORBELL,
	  .name = "doorbell",
	  .type = DGR_OPT_CHOICE,
	  .metavar = "dgrdma|dcp",
	  .values = "dgrdma|dcp",
	  .usage = "  --doorbell dgrdma|dcp      doorbell transport (default dgrdma)\n" },
	{ .id = OPT_DCP_PER_ADDRESS,
	  .name = "dcp-doorbell-per-address",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --dcp-doorbell-per-address DCP doorbells write 1 to 0x41000 + 4*b instead of "
		   "b to 0x100018\n" },
	{ .id = OPT_DISCONTINUITY_EVERY,
	  .name = "discontinuity-every",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 1,
	  .max = 1000000,
	  .usage = "  --discontinuity-every N    every N-th transaction is a 0-byte flag-only "
		   "opcode-4 message\n" },
	{ .id = OPT_MALFORMED_EVERY,
	  .name = "malformed-every",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 1,
	  .max = 1000000,
	  .usage =
	      "  --malformed-every N        a malformed frame before every N-th transaction\n" },
	{ .id = OPT_DROP_EVERY,
	  .name = "drop-every",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 2,
	  .max = 1000000,
	  .usage = "  --drop-every N             leave every N-th frame out of the capture "
		   "(capture loss)\n" },
	{ .id = OPT_DROP_FRAMES,
	  .name = "drop-frames",
	  .type = DGR_OPT_STRING,
	  .metavar = "I,J,...",
	  .usage =
	      "  --drop-frames I,J,...      leave these frames out (1-based, capture order)\n" },
	{ .id = OPT_LATE_FRAMES,
	  .name = "late-frames",
	  .type = DGR_OPT_STRING,
	  .metavar = "I:J,...",
	  .usage =
	      "  --late-frames I:J,...      frame I is captured right after frame J (I < J), with "
	      "J's\n"
	      "                             time: reordering, or a fragment after its transaction\n"
	      "                             was given up (indices as --list-frames prints "
	      "them)\n" },
	{ .id = OPT_RESEND_FRAMES,
	  .name = "resend-frames",
	  .type = DGR_OPT_STRING,
	  .metavar = "I,J,...",
	  .usage =
	      "  --resend-frames I,J,...    data frame I is sent again right after itself, with "
	      "the\n"
	      "                             next frame_seq: its messages arrive twice (indices as\n"
	      "                             --list-frames prints them; a copy is never "
	      "dropped)\n" },
	{ .id = OPT_SEQ_START,
	  .name = "seq-start",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .max = 65535,
	  .usage = "  --seq-start N              every sender's first frame_seq, 0..65535 (default "
		   "1)\n" },
	{ .id = OPT_FPGA_LOCKUP,
	  .name = "fpga-lockup",
	  .type = DGR_OPT_FLAG,
	  .usage =
	      "  --fpga-lockup              the FPGA of connection 0 locks at the host's frame 0 "
	      "(a\n"
	      "                             doorbell frame: pick --seq-start) as OpenCPI's does "
	      "after\n"
	      "                             the padding of an ACK-only frame took frame_seq 0: it\n"
	      "                             sends what its credits then allow, never more (RX "
	      "path)\n" },
	{ .id = OPT_LIST_FRAMES,
	  .name = "list-frames",
	  .type = DGR_OPT_STRING,
	  .metavar = "FILE",
	  .usage = "  --list-frames FILE         describe every frame: index kind sender frame_seq "
		   "txn:msg_seq/num_msgs...\n" },
	{ .id = OPT_PROFILE,
	  .name = "profile",
	  .type = DGR_OPT_CHOICE,
	  .metavar = "healthy|jitter|throughput",
	  .values = "healthy|jitter|throughput",
	  .usage = "  --profile healthy|jitter|throughput   doorbell latency shape (default "
		   "healthy)\n" },
	{ .id = OPT_PERIOD_NS,
	  .name = "period-ns",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 1,
	  .max = 1000000000,
	  .usage = "  --period-ns N              producer period between transactions (default "
		   "20000)\n" },
	{ .id = OPT_LATENCY_NS,
	  .name = "latency-ns",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 1000,
	  .max = 1000000000,
	  .usage = "  --latency-ns N             base doorbell latency (default 10000)\n" },
	{ .id = OPT_SEED,
	  .name = "seed",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .max = UINT64_MAX,
	  .usage = "  --seed N                   random seed (default 1)\n" },
	{ .id = OPT_NO_LATENCY_LIST,
	  .name = "no-latency-list",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --no-latency-list          omit the per-doorbell list from the JSON (big "
		   "runs)\n" },
	{ .id = 'h',
	  .name = "help",
	  .short_name = 'h',
	  .type = DGR_OPT_FLAG,
	  .usage = "  -h, --help                 this text\n" },
	{ .id = OPT_VERSION,
	  .name = "version",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --version                  the version of dgrdma-tools\n" },
	{ .id = OPT_LIST_OPTIONS,
	  .name = "list-options",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --list-options             every option with its type and range, one a line\n"
		   "                             (with --json: one JSON object)\n" },
};

static const struct dgr_opt_table gen_options = {
	.tool = "dgrdma-gen",
	.opts = gen_opts,
	.nopts = sizeof(gen_opts) / sizeof(gen_opts[0]),
};

static void usage(FILE *fp)
{
	dgr_opts_usage(&gen_options, fp);
}

/*
 * A frame list option's value (--drop-frames, --late-frames, --resend-frames): not empty
 * and of the characters allowed; its own parser checks the rest. Returns 0, or
 * -DGR_E_INVAL with errbuf naming the option and what it takes.
 */
static int frame_list_arg(const char *opt, const char *v, const char *allowed, const char *what,
			  char *errbuf)
{
	if (!*v || strspn(v, allowed) != strlen(v)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s: '%s' is not a comma-separated %s",
				      opt, v, what);
	}
	return 0;
}

/* ctx of the table's handler */
struct gen_parse {
	struct opts *o;
	int stop; /* 'h', OPT_VERSION or OPT_LIST_OPTIONS: main prints it */
};

/*
 * The table's handler (opts.h): one option's value, checked against its row's range, into
 * the struct opts. Returns 0, DGR_OPTS_STOP or -DGR_E_INVAL with errbuf.
 */
static int gen_option(void *ctx, const struct dgr_opt *opt, const char *given, const char *v,
		      const union dgr_opt_value *val, char *errbuf)
{
	struct gen_parse *p = ctx;
	struct opts *o = p->o;
	unsigned int u = (unsigned int)val->u;
	int rc = 0;

	switch (opt->id) {
	case OPT_OUT:
		o->out = v;
		break;
	case OPT_EXPECT:
		o->expect = v;
		break;
	case OPT_FORMAT:
		if (!strcmp(v, "pcap")) {
			o->fmt = FMT_PCAP_US;
		} else if (!strcmp(v, "pcap-ns")) {
			o->fmt = FMT_PCAP_NS;
		} else if (!strcmp(v, "pcapng")) {
			o->fmt = FMT_PCAPNG;
		} else {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--format: '%s' is not pcap, pcap-ns or pcapng", v);
		}
		break;
	case OPT_LINK:
		if (strcmp(v, "ether") != 0 && strcmp(v, "sll") != 0) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--link: '%s' is not ether or sll", v);
		}
		o->cooked = !strcmp(v, "sll");
		break;
	case OPT_TRANSPORT:
		if (!strcmp(v, "ether")) {
			o->transport = TR_ETHER;
		} else if (!strcmp(v, "udp")) {
			o->transport = TR_UDP;
		} else if (!strcmp(v, "udp6")) {
			o->transport = TR_UDP6;
		} else {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--transport: '%s' is not ether, udp or udp6", v);
		}
		break;
	case OPT_DIR:
		if (strcmp(v, "rx") != 0 && strcmp(v, "tx") != 0) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL, "--dir: '%s' is not rx or tx",
					      v);
		}
		o->tx = !strcmp(v, "tx");
		break;
	case OPT_DOORBELL:
		if (strcmp(v, "dgrdma") != 0 && strcmp(v, "dcp") != 0) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--doorbell: '%s' is not dgrdma or dcp", v);
		}
		o->dcp_doorbells = !strcmp(v, "dcp");
		break;
	case OPT_PROFILE:
		if (!strcmp(v, "healthy")) {
			o->profile = PROF_HEALTHY;
		} else if (!strcmp(v, "jitter")) {
			o->profile = PROF_JITTER;
		} else if (!strcmp(v, "throughput")) {
			o->profile = PROF_THROUGHPUT;
		} else {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--profile: '%s' is not healthy, jitter or "
					      "throughput",
					      v);
		}
		break;
	case OPT_DCP_PER_ADDRESS:
		o->dcp_per_address = true;
		break;
	case OPT_DROP_FRAMES:
		rc = frame_list_arg(given, v, "0123456789,", "list of frame indices", errbuf);
		o->drop_frames = v;
		break;
	case OPT_LATE_FRAMES:
		rc = frame_list_arg(given, v, "0123456789,:", "list of I:J frame index pairs",
				    errbuf);
		o->late_frames = v;
		break;
	case OPT_RESEND_FRAMES:
		rc = frame_list_arg(given, v, "0123456789,", "list of frame indices", errbuf);
		o->resend_frames = v;
		break;
	case OPT_LIST_FRAMES:
		o->list_frames = v;
		break;
	case OPT_FPGA_LOCKUP:
		o->fpga_lockup = true;
		break;
	case OPT_NO_LATENCY_LIST:
		o->no_expect_list = true;
		break;
	case OPT_VLAN:
		o->vlan = u;
		break;
	case OPT_SEQ_START:
		o->seq_start = u;
		break;
	case OPT_SNAPLEN:
		o->snaplen = u;
		break;
	case OPT_IP_MTU:
		o->ip_mtu = u;
		break;
	case OPT_CONNS:
		o->conns = u;
		break;
	case OPT_TXNS:
		o->txns = u;
		break;
	case OPT_BUFFERS:
		o->buffers = u;
		break;
	case OPT_BYTES:
		o->bytes = u;
		break;
	case OPT_MTU:
		o->mtu = u;
		break;
	case OPT_COALESCE_TXNS:
		o->coalesce_txns = u;
		break;
	case OPT_COALESCE_DOORBELLS:
		o->coalesce_doorbells = u;
		break;
	case OPT_DISCONTINUITY_EVERY:
		o->discontinuity_every = u;
		break;
	case OPT_MALFORMED_EVERY:
		o->malformed_every = u;
		break;
	case OPT_DROP_EVERY:
		o->drop_every = u;
		break;
	case OPT_PERIOD_NS:
		o->period_ns = val->u;
		break;
	case OPT_LATENCY_NS:
		o->latency_ns = val->u;
		break;
	case OPT_SEED:
		o->seed = val->u;
		break;
	default:
		p->stop = opt->id;
		return DGR_OPTS_STOP;
	}
	return rc;
}

/*
 * The command line into *o (argv is left as given: main records it). Returns 0, 1 when
 * --help, --version or --list-options was answered (nothing to do), or -DGR_E_INVAL (a bad
 * argument, named in errbuf) or -DGR_E_NOMEM with errbuf.
 */
static int parse_args(int argc, char **argv, struct opts *o, char *errbuf)
{
	struct gen_parse p = { .o = o };
	char **args = calloc((size_t)argc + 1, sizeof(*args));
	int rc;

	if (!args) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	memcpy(args, argv, (size_t)argc * sizeof(*args));
	rc = dgr_opts_parse(&gen_options, argc, args, -1,
			    DGR_OPTS_NO_OPERANDS | DGR_OPTS_OWN_MESSAGES, gen_option, &p, NULL,
			    errbuf);
	free(args);
	if (rc < 0) {
		return rc;
	}
	if (rc == DGR_OPTS_STOP) {
		if (p.stop == 'h') {
			usage(stdout);
		} else if (p.stop == OPT_VERSION) {
			printf("dgrdma-gen (dgrdma-tools) %s\n", DGR_VERSION);
		} else {
			dgr_opts_list_argv(&gen_options, argc, argv, stdout);
		}
		return 1;
	}
	if (!o->out || !o->expect) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "-o CAPTURE and -e EXPECTED.json are required");
	}
	if (o->coalesce_doorbells > o->buffers) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--coalesce-doorbells: %u is not in 1..%u (the buffer count)",
				      o->coalesce_doorbells, o->buffers);
	}
	if (o->coalesce_txns + o->coalesce_doorbells > o->buffers + 1) {
		return dgr_errbuf_set(
		    errbuf, DGR_E_INVAL,
		    "--coalesce-txns + --coalesce-doorbells must not exceed "
		    "buffers + 1 (%u): a producer cannot fill buffers not yet freed",
		    o->buffers + 1);
	}
	if ((o->bytes + 3) / (o->mtu - net_hdr_len(o) - 34) + 2 > 4096) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--bytes %u needs more than 4096 fragments at --mtu %u",
				      o->bytes, o->mtu);
	}
	if (o->ip_mtu && (o->transport == TR_ETHER || o->snaplen)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--ip-mtu takes --transport udp or udp6 and no --snaplen "
				      "(fragments cut short cannot be put together)");
	}
	if (o->cooked && o->vlan) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--link sll takes no --vlan (a cooked capture shows "
				      "no tag)");
	}
	if (o->fpga_lockup &&
	    (o->tx || o->dcp_doorbells || o->coalesce_txns > 1 || o->coalesce_doorbells > 1 ||
	     o->malformed_every || o->discontinuity_every)) {
		return dgr_errbuf_set(
		    errbuf, DGR_E_INVAL,
		    "--fpga-lockup takes the RX path with DG-RDMA doorbells, "
		    "one transaction or doorbell per frame, no --malformed-every or "
		    "--discontinuity-every");
	}
	if (o->dcp_doorbells && o->tx) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--doorbell dcp is an RX-path option (the host writes "
				      "the FPGA's properties)");
	}
	return 0;
}

/*
 * Writes the IP packet of frame p (len bytes, link header first) as fragments
 * of at most o->ip_mtu bytes of IP, all at ts, IP id id (IPv4: 16 bits; IPv6:
 * a fragment header after the fixed header). The UDP checksum was computed
 * over the whole datagram. Adds the records written to *written. Returns 0 or -DGR_E_SYS
 * with errbuf.
 */
static int write_fragments(FILE *fp, const struct opts *o, uint64_t ts, const uint8_t *p,
			   size_t len, uint32_t id, uint64_t *written, char *errbuf)
{
	size_t l2 = link_hdr_len(o);
	bool v6 = o->transport == TR_UDP6;
	size_t ip_hdr = v6 ? IP6_HDR : IP_HDR, frag_hdr = v6 ? 8 : 0;
	size_t payload = len - l2 - ip_hdr, step = (o->ip_mtu - ip_hdr - frag_hdr) / 8 * 8, at;
	uint8_t out[9100 + 64];

	for (at = 0; at < payload; at += step) {
		size_t part = payload - at < step ? payload - at : step;
		bool more = at + part < payload;
		uint8_t *ip = out + l2;
		size_t flen = l2 + ip_hdr + frag_hdr + part;

		memcpy(out, p, l2 + ip_hdr);
		if (v6) {
			uint8_t *fh = ip + IP6_HDR;

			put16be(ip + 4, (uint16_t)(frag_hdr + part));
			ip[6] = 44; /* next header: fragment */
			fh[0] = 17; /* then UDP */
			fh[1] = 0;
			put16be(fh + 2, (uint16_t)(at | (more ? 1 : 0)));
			put32be(fh + 4, id);
		} else {
			put16be(ip + 2, (uint16_t)(IP_HDR + part));
			put16be(ip + 4, (uint16_t)id);
			put16be(ip + 6, (uint16_t)((more ? 0x2000 : 0) | at / 8));
			put16be(ip + 10, 0);
			put16be(ip + 10, ip_checksum(ip, IP_HDR));
		}
		memcpy(out + l2 + ip_hdr + frag_hdr, p + l2 + ip_hdr + at, part);
		if (flen < 60) {
			memset(out + flen, 0, 60 - flen);
			flen = 60;
		}
		if (write_record(fp, o, ts, out, (uint32_t)flen, (uint32_t)flen, errbuf) < 0) {
			return -DGR_E_SYS;
		}
		(*written)++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = {
		.fmt = FMT_PCAPNG,
		.conns = 1,
		.txns = 100,
		.buffers = 8,
		.bytes = 8192,
		.mtu = 9000,
		.coalesce_txns = 1,
		.coalesce_doorbells = 1,
		.period_ns = 20000,
		.latency_ns = 10000,
		.seed = 1,
		.seq_start = 1,
	};
	static uint8_t pkt[70000];
	char argline[1024] = "";
	char errbuf[DGR_ERRBUF_SIZE] = "";
	FILE *cap = NULL, *exp = NULL;
	struct dir_expect d;
	struct seq_expect sq = { 0 };
	uint16_t *seq_high; /* per sender: the highest frame_seq captured (serial order) */
	uint8_t *seq_seen;  /* per sender: a frame of it was captured */
	uint8_t *kept;	    /* per frame index: the frame (not a resent copy) was captured */
	size_t nindexed;    /* frames before --resend-frames added copies */
	uint64_t written = 0, dropped = 0, malformed = 0, dcp_frames = 0;
	uint32_t *pending; /* per (conn, buffer): 1 + record of the waiting transaction, 0 none */
	uint64_t *pending_ts;
	size_t i;
	unsigned int c;
	int a, rc;

	rc = parse_args(argc, argv, &o, errbuf);
	if (rc > 0) {
		return 0; /* --help, --version or --list-options answered */
	}
	if (rc < 0) {
		fprintf(stderr, "dgrdma-gen: %s\n", errbuf);
		usage(stderr);
		return 2;
	}
	for (a = 1; a < argc; a++) {
		size_t l = strlen(argline);

		if (strchr(argv[a], '"') || strchr(argv[a], '\\')) {
			continue;
		}
		snprintf(argline + l, sizeof(argline) - l, "%s%s", a > 1 ? " " : "", argv[a]);
	}
	rng_state = o.seed;
	for (c = 0; c < o.conns; c++) {
		rc = simulate_conn(&o, c, errbuf);
		if (rc < 0) {
			goto fail;
		}
	}
	qsort(frames, nframes, sizeof(frames[0]), cmp_frames);
	rc = number_frames(&o, errbuf);
	if (rc < 0) {
		goto fail;
	}
	rc = o.fpga_lockup ? apply_fpga_lockup(&o, errbuf) : 0;
	if (rc < 0) {
		goto fail;
	}
	for (i = 0; i < nframes; i++) {
		frames[i].index = (uint32_t)(i + 1);
	}
	if (o.list_frames && list_frames(o.list_frames) < 0) {
		return 1;
	}
	nindexed = nframes;
	rc = o.late_frames ? apply_late_frames(o.late_frames, errbuf) : 0;
	if (rc < 0) {
		goto fail;
	}
	rc = o.resend_frames ? apply_resend_frames(o.resend_frames, nindexed, errbuf) : 0;
	if (rc < 0) {
		goto fail;
	}
	kept = calloc(nindexed + 1, sizeof(*kept));
	if (!kept) {
		fprintf(stderr, "dgrdma-gen: out of memory\n");
		return 1;
	}

	cap = fopen(o.out, "wb");
	if (!cap) {
		fprintf(stderr, "dgrdma-gen: %s: %s\n", o.out, strerror(errno));
		return 1;
	}
	memset(&d, 0, sizeof(d));
	pending = calloc((size_t)o.conns * o.buffers, sizeof(*pending));
	pending_ts = calloc((size_t)o.conns * o.buffers, sizeof(*pending_ts));
	seq_high = calloc((size_t)o.conns * 2, sizeof(*seq_high));
	seq_seen = calloc((size_t)o.conns * 2, sizeof(*seq_seen));
	if (!pending || !pending_ts || !seq_high || !seq_seen) {
		fprintf(stderr, "dgrdma-gen: out of memory\n");
		return 1;
	}
	rc = write_header(cap, &o, o.snaplen ? o.snaplen : 65535, errbuf);
	if (rc < 0) {
		goto fail;
	}
	for (i = 0; i < nframes; i++) {
		const struct gframe *f = &frames[i];
		size_t len = build_frame(pkt, &o, f);
		uint32_t caplen = (uint32_t)len;
		uint64_t ts = quantise(&o, f->ts);
		size_t dgr_off;
		uint32_t k;

		/* capture loss: never in the first round, so every address has been seen */
		if (!f->resent && ((o.drop_every && f->ts > first_round_end + 100000 &&
				    (f->index - 1) % o.drop_every == 0) ||
				   (o.drop_frames && in_drop_list(o.drop_frames, f->index)))) {
			dropped++;
			continue;
		}
		if (!f->resent) {
			kept[f->index] = 1;
		}
		if (has_frame_seq(f)) {
			size_t snd = (size_t)f->conn * 2 + f->from_host;
			uint16_t ahead = (uint16_t)(f->seq - seq_high[snd]);

			/*
			 * Serial order (RFC 1982): ahead by 1 is the next frame, by more a gap
			 * of the frames capture loss took; behind, a frame captured late
			 * (--late-frames). Losses before a sender's first captured frame
			 * are invisible.
			 */
			if (!seq_seen[snd]) {
				seq_seen[snd] = 1;
				seq_high[snd] = f->seq;
			} else if (ahead == 0 || ahead >= 0x8000) {
				sq.late++;
			} else {
				if (ahead > 1) {
					sq.gaps++;
					sq.missing += ahead - 1u;
				}
				seq_high[snd] = f->seq;
			}
		}
		if (o.snaplen && caplen > o.snaplen) {
			caplen = o.snaplen;
		}
		if (o.ip_mtu && len - link_hdr_len(&o) > o.ip_mtu) {
			rc = write_fragments(cap, &o, ts, pkt, len, (uint32_t)(i + 1), &written,
					     errbuf);
		} else {
			rc = write_record(cap, &o, ts, pkt, caplen, (uint32_t)len, errbuf);
			written++;
		}
		if (rc < 0) {
			goto fail;
		}
		if (f->kind == FK_MALFORMED) {
			malformed++;
			continue;
		}
		if (f->kind == FK_DCP_DOORBELL || f->kind == FK_DCP_RESP || f->kind == FK_DCP_NOP ||
		    f->kind == FK_DCP_NOP_RESP) {
			dcp_frames++;
		}
		dgr_off = link_hdr_len(&o) + net_hdr_len(&o);
		if (f->kind == FK_DCP_DOORBELL) {
			struct rec *r = &recs[f->gtxn];
			size_t slot = (size_t)r->conn * o.buffers + r->buffer;

			if (dgr_off + 14 > caplen) {
				continue;
			}
			d.doorbells++;
			if (pending[slot]) {
				d.matched++;
				rc = push_latency(&d, ts - pending_ts[slot], errbuf);
				if (rc < 0) {
					goto fail;
				}
				pending[slot] = 0;
			} else {
				d.orphans++;
			}
			continue;
		}
		for (k = 0; k < f->nmsgs; k++) {
			const struct gmsg *m = &msgs[f->first_msg + k];
			struct rec *r = &recs[m->gtxn];
			size_t slot = (size_t)r->conn * o.buffers + r->buffer;

			/* a message is visible when its whole header was captured */
			if (dgr_off + m->off + MSG_HDR > caplen) {
				break;
			}
			/*
			 * A resent message whose first copy was captured is a duplicate: of
			 * a transaction complete or not, it changes nothing.
			 */
			if (f->resent && kept[f->index]) {
				if (r->given_up) {
					d.after_given_up++;
				} else {
					d.duplicates++;
				}
				continue;
			}
			if (r->is_doorbell) {
				d.doorbells++;
				if (pending[slot]) {
					d.matched++;
					rc = push_latency(&d, ts - pending_ts[slot], errbuf);
					if (rc < 0) {
						goto fail;
					}
					pending[slot] = 0;
				} else {
					d.orphans++;
				}
				continue;
			}
			/*
			 * A fragment of a transaction given up is ignored; one that
			 * comes when the give-up time is uncertain is refused.
			 */
			if (r->given_up) {
				d.after_given_up++;
				continue;
			}
			if (r->seen && !r->done && ts - r->first_ts >= REASM_TIMEOUT_NS) {
				if (ts - r->first_ts < REASM_SURELY_GONE_NS) {
					fprintf(stderr,
						"dgrdma-gen: --late-frames: frame %u reaches "
						"transaction %u %.3f s after its first fragment: "
						"between 1 and 1.5 s the analysers may or may not "
						"have given it up; move it nearer or farther\n",
						f->index, m->txn_id,
						(double)(ts - r->first_ts) / 1e9);
					fclose(cap);
					remove(o.out);
					return 2;
				}
				r->given_up = 1;
				d.after_given_up++;
				continue;
			}
			if (!r->seen) {
				r->first_ts = ts;
			}
			r->seen++;
			/*
			 * Any message of a newer transaction into the buffer gives the
			 * waiting one up (its doorbell is missing), complete or not.
			 */
			if (pending[slot] && pending[slot] - 1 < m->gtxn) {
				d.unmatched++;
				pending[slot] = 0;
			}
			if (r->seen == r->parts) {
				r->done = 1;
				d.transactions++;
				if (r->discontinuity) {
					d.discontinuities++;
				}
				if (pending[slot]) {
					d.unmatched++;
				}
				pending[slot] = m->gtxn + 1;
				pending_ts[slot] = ts;
			}
		}
	}
	for (i = 0; i < nrecs; i++) {
		if (!recs[i].is_doorbell && recs[i].seen && !recs[i].done) {
			d.incomplete++;
		}
	}
	for (i = 0; i < (size_t)o.conns * o.buffers; i++) {
		d.pending_at_end += pending[i] ? 1 : 0;
	}
	if (fclose(cap)) {
		fprintf(stderr, "dgrdma-gen: %s: %s\n", o.out, strerror(errno));
		return 1;
	}
	exp = fopen(o.expect, "w");
	if (!exp) {
		fprintf(stderr, "dgrdma-gen: %s: %s\n", o.expect, strerror(errno));
		return 1;
	}
	rc = print_expect(exp, &o, argline, written, dropped, malformed, dcp_frames, &d, &sq,
			  errbuf);
	if (rc < 0) {
		goto fail;
	}
	if (fclose(exp)) {
		fprintf(stderr, "dgrdma-gen: %s: %s\n", o.expect, strerror(errno));
		return 1;
	}
	free(kept);
	free(pending);
	free(pending_ts);
	free(seq_high);
	free(seq_seen);
	free(d.lat);
	free(frames);
	free(msgs);
	free(recs);
	return 0;

fail:
	/* a bad --fpga-lockup, --late-frames or --resend-frames is bad usage (2); else 1 */
	fprintf(stderr, "dgrdma-gen: %s\n", errbuf);
	return rc == -DGR_E_INVAL ? 2 : 1;
}
