/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host stack on UDP loopback against a minimal in-process FPGA peer
 * written with the codec: doorbell ordering when transactions complete out
 * of order, buffer-pool accounting, doorbell coalescing, and the counters of
 * malformed, duplicate and out-of-range input.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <dgrdma/dcp.h>
#include <dgrdma/host.h>
#include <dgrdma/ramp.h>
#include <dgrdma/transport.h>
#include <dgrdma/wire.h>

#include "../tap.h"

#define NBUF	  8
#define BSIZE	  1024
#define PEER_BUFS 4

struct peer {
	struct dgr_transport *t;
	uint16_t seq;
	uint32_t txn;
};

static int release_ok;

static int blocking_consume(void *ctx, const struct dgr_buffer_view *b)
{
	(void)ctx;
	(void)b;
	while (!__atomic_load_n(&release_ok, __ATOMIC_ACQUIRE)) {
		usleep(1000);
	}
	return 0;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int open_pair(struct dgr_conn_opts *co, struct dgr_conn **c, struct peer *p)
{
	struct dgr_transport_opts po;
	struct dgr_addr a;
	char err[DGR_ERRBUF_SIZE];

	memset(p, 0, sizeof(*p));
	p->seq = 1;
	p->txn = 1;
	dgr_transport_opts_init(&po);
	po.kind = DGR_TRANSPORT_UDP;
	dgr_parse_inet("127.0.0.1:0", 0, &po.bind_addr);
	po.rcvbuf = 1 << 20;
	if (dgr_transport_open(&po, &p->t, err) < 0) {
		tap_diag("peer: %s", err);
		return -1;
	}
	co->transport.kind = DGR_TRANSPORT_UDP;
	dgr_parse_inet("127.0.0.1:0", 0, &co->transport.bind_addr);
	dgr_transport_local_addr(p->t, &co->transport.peer);
	co->transport.have_peer = true;
	co->transport.rcvbuf = 1 << 20;
	co->buffers = NBUF;
	co->buffer_size = BSIZE;
	co->peer_buffers = PEER_BUFS;
	if (dgr_conn_open(co, c, err) < 0) {
		tap_diag("conn: %s", err);
		return -1;
	}
	dgr_transport_local_addr(dgr_conn_transport(*c), &a);
	dgr_transport_set_peer(p->t, &a);
	return 0;
}

/* One transaction in one frame; returns the frame length. */
static size_t txn_frame(struct peer *p, uint8_t *buf, size_t cap, uint16_t dst_id,
			uint32_t data_addr, uint32_t flag_addr, uint32_t flag_value,
			const uint8_t *data, uint32_t len)
{
	struct dgr_frame_builder fb;
	struct dgr_frame_hdr h = { .src_id = 1, .dst_id = dst_id, .frame_seq = p->seq++ };
	struct dgr_txn t = { .txn_id = p->txn++,
			     .data_addr = data_addr,
			     .flag_addr = flag_addr,
			     .flag_value = flag_value,
			     .data = data,
			     .len = len };
	struct dgr_txn_cursor cur;

	dgr_fb_init(&fb, buf, cap, &h);
	dgr_txn_plan(&cur, &t, &fb);
	if (dgr_fb_add_txn(&fb, &cur) != 1) {
		return 0;
	}
	return dgr_fb_finish(&fb);
}

static void peer_send(struct peer *p, const uint8_t *buf, size_t len)
{
	struct dgr_tx_pkt pkt = { .data = buf, .len = len, .proto = DGR_PROTO_DGRDMA };
	char err[DGR_ERRBUF_SIZE];

	if (dgr_transport_send(p->t, &pkt, 1, err) != 1) {
		tap_diag("peer send: %s", err);
	}
}

static uint32_t data_flag(unsigned int i)
{
	(void)i;
	return dgr_flag_encode(BSIZE, false, false, DGR_OPCODE_SAMPLES);
}

/* Sends buffer i of the stream (samples i * BSIZE/4 ...). */
static void send_buffer(struct peer *p, unsigned int i, bool eof)
{
	uint8_t data[BSIZE];
	uint8_t frame[2048];
	size_t len;

	dgr_ramp_fill(data, BSIZE, i * (BSIZE / 4));
	len =
	    txn_frame(p, frame, sizeof(frame), 0, (i % NBUF) * BSIZE, NBUF * BSIZE + 4 * (i % NBUF),
		      eof ? dgr_flag_encode(BSIZE, true, false, 0) : data_flag(i), data, BSIZE);
	peer_send(p, frame, len);
}

struct doorbells {
	uint32_t flag_addr[64];
	unsigned int n;
	unsigned int frames;
};

/* Collects doorbells at the peer until want arrived or 5 s passed. */
static void collect_doorbells(struct peer *p, struct doorbells *d, unsigned int want)
{
	uint64_t end = mono_ms() + 5000;
	char err[DGR_ERRBUF_SIZE];

	while (d->n < want && mono_ms() < end) {
		struct dgr_rx_pkt in[16];
		int n = dgr_transport_recv(p->t, in, 16, 100, err);

		for (int i = 0; i < n; i++) {
			struct dgr_frame f;
			struct dgr_msg m;
			bool any = false;

			if (dgr_frame_parse(&f, in[i].data, in[i].len, NULL) < 0) {
				continue;
			}
			while (dgr_frame_next_msg(&f, &m, NULL) == 1) {
				if (dgr_msg_is_flag_only(&m) && d->n < 64) {
					d->flag_addr[d->n++] = m.flag_addr;
					any = true;
				}
			}
			d->frames += any;
		}
	}
}

static bool wait_stat(struct dgr_conn *c, size_t off, uint64_t want)
{
	uint64_t end = mono_ms() + 5000;
	struct dgr_conn_stats s;

	do {
		dgr_conn_get_stats(c, &s);
		if (*(uint64_t *)((char *)&s + off) >= want) {
			return true;
		}
		usleep(1000);
	} while (mono_ms() < end);
	return false;
}

#define WAIT_STAT(c, field, want) wait_stat(c, offsetof(struct dgr_conn_stats, field), want)

static void test_order_and_pool(void)
{
	struct dgr_conn_opts co;
	struct dgr_conn *c = NULL;
	struct peer p;
	struct doorbells d = { 0 };
	struct dgr_conn_stats s;
	char err[DGR_ERRBUF_SIZE];
	static const unsigned int order[NBUF] = { 1, 0, 3, 2, 5, 4, 7, 6 };
	bool in_order = true;

	dgr_conn_opts_init(&co);
	if (open_pair(&co, &c, &p) < 0) {
		tap_ok(0, "open a connection and a peer on 127.0.0.1");
		return;
	}
	release_ok = 0;
	TAP_EQ_I(dgr_conn_start(c, blocking_consume, NULL, NULL, err), 0, "threads start");
	for (unsigned int k = 0; k < NBUF; k++) {
		send_buffer(&p, order[k], false);
	}
	tap_ok(WAIT_STAT(c, txns_completed, NBUF), "8 transactions complete, out of order");
	dgr_conn_get_stats(c, &s);
	TAP_EQ_U(s.buffers_in_use, NBUF, "all 8 buffers in use while the consumer holds one");
	TAP_EQ_U(s.occupancy_hwm, NBUF, "occupancy high-water mark 8");
	TAP_EQ_U(s.doorbells_sent, 0, "no doorbell before the consumer releases");
	__atomic_store_n(&release_ok, 1, __ATOMIC_RELEASE);
	collect_doorbells(&p, &d, NBUF);
	TAP_EQ_U(d.n, NBUF, "8 doorbells come back");
	for (unsigned int i = 0; i < d.n; i++) {
		in_order &= d.flag_addr[i] == PEER_BUFS * BSIZE + 4 * i;
	}
	tap_ok(in_order, "doorbells in buffer order 0..7 (flag_addr = E*S + 4i) though "
			 "transactions completed 1,0,3,2,...");
	tap_ok(WAIT_STAT(c, doorbells_sent, NBUF), "doorbells_sent counts 8");
	dgr_conn_get_stats(c, &s);
	TAP_EQ_U(s.buffers_in_use, 0, "no buffer in use after the releases");
	TAP_EQ_U(s.buffers_consumed, NBUF, "8 buffers consumed");
	TAP_EQ_U(s.samples_received, NBUF * BSIZE / 4, "2048 samples checked");
	TAP_EQ_U(s.samples_lost, 0, "no sample lost: the ramp is continuous in buffer order");
	dgr_conn_close(c);
	dgr_transport_close(p.t);
}

static int nop_consume(void *ctx, const struct dgr_buffer_view *b)
{
	(void)ctx;
	(void)b;
	return 0;
}

static void test_coalescing(void)
{
	struct dgr_conn_opts co;
	struct dgr_conn *c = NULL;
	struct peer p;
	struct doorbells d = { 0 };
	char err[DGR_ERRBUF_SIZE];
	struct dgr_latency_summary l;
	const struct dgr_latency_dist *fc;

	dgr_conn_opts_init(&co);
	co.coalesce_wait_us = 1000000; /* 1 s: every doorbell of the burst shares a frame */
	if (open_pair(&co, &c, &p) < 0) {
		tap_ok(0, "open a connection and a peer on 127.0.0.1");
		return;
	}
	TAP_EQ_I(dgr_conn_start(c, nop_consume, NULL, NULL, err), 0, "threads start");
	for (unsigned int k = 0; k < NBUF; k++) {
		send_buffer(&p, k, k == NBUF - 1);
	}
	collect_doorbells(&p, &d, NBUF);
	TAP_EQ_U(d.n, NBUF, "8 doorbells with coalesce_wait 1 s");
	TAP_EQ_U(d.frames, 1, "all in one frame");
	TAP_EQ_I(dgr_conn_wait(c, 5000), 1, "the EOF buffer ends the stream");
	dgr_conn_stop(c);
	dgr_conn_latency(c, &l);
	fc = &l.from_complete;
	TAP_EQ_U(fc->count, NBUF, "8 in-host latencies measured");
	{
		struct dgr_conn_stats s;

		dgr_conn_get_stats(c, &s);
		TAP_EQ_U(s.doorbells_inline, 0,
			 "with coalesce_wait the transmit thread sends every doorbell");
	}
	tap_ok(l.mean_wait_consumer + l.mean_consumer_work + l.mean_wait_send > fc->mean - 1.0 &&
		   l.mean_wait_consumer + l.mean_consumer_work + l.mean_wait_send < fc->mean + 1.0,
	       "the breakdown adds up to the mean (%.0f + %.0f + %.0f = %.0f ns)",
	       l.mean_wait_consumer, l.mean_consumer_work, l.mean_wait_send, fc->mean);
	tap_ok(fc->min <= fc->p50 && fc->p50 <= fc->p90 && fc->p90 <= fc->p99 &&
		   fc->p99 <= fc->p999 && fc->p999 <= fc->max,
	       "percentiles ordered");
	TAP_EQ_U(l.from_arrival.count, NBUF, "8 latencies from the kernel's arrival");
	tap_ok(l.from_arrival.mean > fc->mean + l.mean_wait_receive - 1.0 &&
		   l.from_arrival.mean < fc->mean + l.mean_wait_receive + 1.0,
	       "from arrival = receive wait + from completion (%.0f = %.0f + %.0f ns)",
	       l.from_arrival.mean, l.mean_wait_receive, fc->mean);
	tap_ok(l.from_arrival.min >= fc->min && l.from_arrival.max >= fc->max &&
		   l.from_arrival.p50 >= fc->p50,
	       "no doorbell is later from completion than from arrival");
	dgr_conn_close(c);
	dgr_transport_close(p.t);
}

/*
 * Opens a connection with options co and a peer, sends NBUF buffers one at a
 * time, each after the doorbell of the one before came back (the transmit
 * thread idle in between), the last with EOF, and closes both. Fills the
 * doorbells the peer saw and the connection's final counters. Returns false
 * when the pair could not be opened.
 */
static bool stream_one_by_one(struct dgr_conn_opts *co, const char *label, struct doorbells *d,
			      struct dgr_conn_stats *s)
{
	struct dgr_conn *c = NULL;
	struct dgr_thread_stats ts;
	struct peer p;
	char err[DGR_ERRBUF_SIZE];
	uint64_t end = mono_ms() + 5000;

	if (open_pair(co, &c, &p) < 0) {
		tap_ok(0, "%sopen a connection and a peer on 127.0.0.1", label);
		return false;
	}
	TAP_EQ_I(dgr_conn_start(c, nop_consume, NULL, NULL, err), 0, "%sthreads start", label);
	/* the transmit thread has started and gone to sleep */
	do {
		dgr_conn_get_thread_stats(c, DGR_T_TX, &ts);
		usleep(1000);
	} while (ts.idle_waits == 0 && mono_ms() < end);
	for (unsigned int k = 0; k < NBUF; k++) {
		send_buffer(&p, k, k == NBUF - 1);
		collect_doorbells(&p, d, k + 1);
	}
	TAP_EQ_I(dgr_conn_wait(c, 5000), 1, "%sthe EOF buffer ends the stream", label);
	dgr_conn_stop(c);
	dgr_conn_get_stats(c, s);
	dgr_conn_close(c);
	dgr_transport_close(p.t);
	return true;
}

static void test_inline_doorbells(void)
{
	struct dgr_conn_opts co;
	struct doorbells d = { 0 };
	struct dgr_conn_stats s;
	bool in_order = true;

	dgr_conn_opts_init(&co);
	tap_ok(co.inline_doorbells, "inline doorbells are on by default");
	if (!stream_one_by_one(&co, "", &d, &s)) {
		return;
	}
	TAP_EQ_U(d.n, NBUF, "8 doorbells come back");
	TAP_EQ_U(d.frames, NBUF, "one frame each (no coalescing)");
	for (unsigned int i = 0; i < d.n; i++) {
		in_order &= d.flag_addr[i] == PEER_BUFS * BSIZE + 4 * i;
	}
	tap_ok(in_order, "in buffer order");
	TAP_EQ_U(s.doorbells_sent, NBUF, "doorbells_sent counts 8");
	/* the transmit thread's 20 ms timer may take the state at the same instant once */
	tap_ok(s.doorbells_inline >= NBUF - 1 && s.doorbells_inline <= NBUF,
	       "the consumer sent them itself while the transmit thread slept (%" PRIu64 " of 8)",
	       s.doorbells_inline);

	memset(&d, 0, sizeof(d));
	dgr_conn_opts_init(&co);
	co.inline_doorbells = false;
	if (!stream_one_by_one(&co, "inline off: ", &d, &s)) {
		return;
	}
	TAP_EQ_U(d.n, NBUF, "inline off: 8 doorbells come back");
	TAP_EQ_U(s.doorbells_sent, NBUF, "inline off: doorbells_sent counts 8");
	TAP_EQ_U(s.doorbells_inline, 0, "inline off: the transmit thread sent every one");
}

/*
 * A consumer behind: all NBUF buffers complete while it is blocked in its
 * first; released, it finds each following buffer full and holds its
 * doorbells back in groups of co.doorbell_batch (the last, EOF, is not held).
 */
static void behind_by_all(unsigned int batch, unsigned int hold_us, dgr_consume_fn consume,
			  unsigned int want_held, unsigned int want_frames)
{
	struct dgr_conn_opts co;
	struct dgr_conn *c = NULL;
	struct doorbells d = { 0 };
	struct dgr_conn_stats s;
	struct peer p;
	char err[DGR_ERRBUF_SIZE];
	bool in_order = true;

	dgr_conn_opts_init(&co);
	co.doorbell_batch = batch;
	co.doorbell_hold_us = hold_us;
	if (open_pair(&co, &c, &p) < 0) {
		tap_ok(0, "batch %u: open a connection and a peer on 127.0.0.1", batch);
		return;
	}
	__atomic_store_n(&release_ok, 0, __ATOMIC_RELEASE);
	TAP_EQ_I(dgr_conn_start(c, consume, NULL, NULL, err), 0, "batch %u: threads start", batch);
	for (unsigned int k = 0; k < NBUF; k++) {
		send_buffer(&p, k, k == NBUF - 1);
	}
	tap_ok(WAIT_STAT(c, txns_completed, NBUF), "batch %u: 8 transactions complete", batch);
	__atomic_store_n(&release_ok, 1, __ATOMIC_RELEASE);
	collect_doorbells(&p, &d, NBUF);
	TAP_EQ_I(dgr_conn_wait(c, 5000), 1, "batch %u: the EOF buffer ends the stream", batch);
	dgr_conn_stop(c);
	dgr_conn_get_stats(c, &s);
	TAP_EQ_U(d.n, NBUF, "batch %u: 8 doorbells come back", batch);
	for (unsigned int i = 0; i < d.n; i++) {
		in_order &= d.flag_addr[i] == PEER_BUFS * BSIZE + 4 * i;
	}
	tap_ok(in_order, "batch %u: in buffer order", batch);
	TAP_EQ_U(s.doorbells_held, want_held, "batch %u: the consumer held %u back", batch,
		 want_held);
	if (want_held) {
		/* the transmit thread's 20 ms timer may take a group apart at the same instant once
		 */
		tap_ok(d.frames >= want_frames && d.frames <= want_frames + 1,
		       "batch %u: %u frames of doorbells (want %u)", batch, d.frames, want_frames);
	} else {
		/*
		 * nothing held: the consumer hands each doorbell over at once, and how many the
		 * transmit thread finds queued together is its scheduling's (a loaded fresh-clone
		 * run had all 8 in one frame); no more frames than doorbells in any case
		 */
		tap_ok(d.frames >= 1 && d.frames <= NBUF,
		       "batch %u: %u frames of doorbells (1..%u: none held, so the transmit thread "
		       "decides)",
		       batch, d.frames, NBUF);
	}
	dgr_conn_close(c);
	dgr_transport_close(p.t);
}

/* blocking_consume, then 2 ms on every buffer: longer than a 1 ms hold */
static int slow_consume(void *ctx, const struct dgr_buffer_view *b)
{
	blocking_consume(ctx, b);
	usleep(2000);
	return 0;
}

static void test_doorbell_batch(void)
{
	struct dgr_conn_opts co;

	dgr_conn_opts_init(&co);
	tap_ok(co.doorbell_batch == 16 && co.doorbell_hold_us == 50,
	       "doorbell batch 16 and hold 50 us by default");
	/* a 1 s hold: the groups do not depend on how fast this machine runs the consumer */
	behind_by_all(16, 1000000, blocking_consume, NBUF - 1, 1);
	behind_by_all(3, 1000000, blocking_consume, 5, 3);
	behind_by_all(1, 1000000, blocking_consume, 0, NBUF);
	/* a consumer slower than the hold sends each doorbell at once, behind or not */
	behind_by_all(16, 1000, slow_consume, 0, NBUF);
}

static void test_hostile(void)
{
	struct dgr_conn_opts co;
	struct dgr_conn *c = NULL;
	struct peer p;
	struct dgr_conn_stats s;
	char err[DGR_ERRBUF_SIZE];
	uint8_t frame[2048];
	uint8_t data[64];
	size_t len;
	struct dgr_addr me;
	int raw;

	dgr_conn_opts_init(&co);
	if (open_pair(&co, &c, &p) < 0) {
		tap_ok(0, "open a connection and a peer on 127.0.0.1");
		return;
	}
	TAP_EQ_I(dgr_conn_start(c, nop_consume, NULL, NULL, err), 0, "threads start");
	memset(data, 0, sizeof(data));
	/* 5 frames shorter than a header */
	for (int i = 0; i < 5; i++) {
		peer_send(&p, frame, 4);
	}
	/* 3 frames with flags 7 */
	for (int i = 0; i < 3; i++) {
		len =
		    txn_frame(&p, frame, sizeof(frame), 0, 0, NBUF * BSIZE, data_flag(0), data, 64);
		frame[DGR_FRAME_OFF_FLAGS] = 7;
		peer_send(&p, frame, len);
	}
	/* 4 frames for another endpoint id */
	for (int i = 0; i < 4; i++) {
		len =
		    txn_frame(&p, frame, sizeof(frame), 9, 0, NBUF * BSIZE, data_flag(0), data, 64);
		peer_send(&p, frame, len);
	}
	/* 2 frames whose message header is cut */
	for (int i = 0; i < 2; i++) {
		txn_frame(&p, frame, sizeof(frame), 0, 0, NBUF * BSIZE, data_flag(0), data, 64);
		peer_send(&p, frame, DGR_FRAME_HDR_LEN + 10);
	}
	/* 6 messages writing past the pool */
	for (int i = 0; i < 6; i++) {
		len = txn_frame(&p, frame, sizeof(frame), 0, NBUF * BSIZE + 1024 - 32, NBUF * BSIZE,
				data_flag(0), data, 64);
		peer_send(&p, frame, len);
	}
	/* 3 repeats of one frame: 1 new, then duplicates; here it is a flag to a non-buffer */
	len = txn_frame(&p, frame, sizeof(frame), 0, 0, NBUF * BSIZE + 4 * 200, data_flag(0), data,
			64);
	for (int i = 0; i < 4; i++) {
		peer_send(&p, frame, len);
	}
	/* 2 UDP datagrams with an unknown pad from the peer, 3 from another port */
	dgr_transport_local_addr(dgr_conn_transport(c), &me);
	{
		static const uint8_t bad[12] = { 0x12, 0x34 };
		int fds[2];

		dgr_transport_fds(p.t, fds);
		for (int i = 0; i < 2; i++) {
			sendto(fds[0], bad, sizeof(bad), 0, (struct sockaddr *)&me.in,
			       sizeof(me.in));
		}
		raw = socket(AF_INET, SOCK_DGRAM, 0);
		for (int i = 0; i < 3; i++) {
			sendto(raw, bad, sizeof(bad), 0, (struct sockaddr *)&me.in, sizeof(me.in));
		}
		close(raw);
	}
	/* then a valid EOF buffer: the stack still works */
	send_buffer(&p, 0, true);
	TAP_EQ_I(dgr_conn_wait(c, 5000), 1, "the stream still ends after the hostile input");
	dgr_conn_stop(c);
	dgr_conn_get_stats(c, &s);
	TAP_EQ_U(s.malformed_trunc_frame_hdr, 5, "5 truncated frame headers");
	TAP_EQ_U(s.malformed_frame_flags, 3, "3 bad frame flags");
	TAP_EQ_U(s.malformed_unknown_id, 4, "4 frames for another endpoint");
	TAP_EQ_U(s.malformed_trunc_msg_hdr, 2, "2 cut message headers");
	TAP_EQ_U(s.malformed_udp_pad, 2, "2 unknown UDP pads");
	TAP_EQ_U(s.frames_foreign, 3, "3 datagrams from another port than --peer: dropped");
	TAP_EQ_U(s.malformed_frames, 16, "16 malformed in total");
	TAP_EQ_U(s.out_of_range, 6, "6 out-of-range writes dropped");
	TAP_EQ_U(s.duplicate_frames, 3, "3 duplicate frames");
	TAP_EQ_U(s.unexpected_flags, 1, "1 flag write to a non-buffer flag");
	TAP_EQ_U(s.txns_completed, 1, "exactly 1 transaction completed (the EOF buffer)");
	dgr_conn_close(c);
	dgr_transport_close(p.t);
}

/* Producer of the tests: total buffers of the ramp, the last with EOF. */
struct test_prod {
	unsigned int n, total;
	uint32_t ramp;
};

static int test_produce(void *ctx, struct dgr_buffer_view *b)
{
	struct test_prod *tp = ctx;

	if (tp->n == tp->total) {
		return 0;
	}
	tp->ramp = dgr_ramp_fill(b->data, BSIZE, tp->ramp);
	b->len = BSIZE;
	b->opcode = DGR_OPCODE_SAMPLES;
	b->eof = ++tp->n == tp->total;
	return 1;
}

#define TXB DGR_PORT_BASE_TX

/*
 * Both paths on one connection: the peer streams 4 buffers into the RX path
 * while the host's producer sends 6 into the TX path (4 FPGA buffers, so 2
 * wait for credits the peer returns); every message lands in its port.
 */
static void test_both_paths(void)
{
	struct dgr_conn_opts co;
	struct dgr_conn *c = NULL;
	struct peer p;
	struct dgr_conn_stats s;
	struct test_prod tp = { .total = 6 };
	char err[DGR_ERRBUF_SIZE];
	unsigned int rx_doorbells = 0, tx_data = 0, bad_addr = 0, ramp_ok = 0;
	uint8_t frame[2048];
	uint8_t data[64];
	uint64_t end;
	size_t len;

	dgr_conn_opts_init(&co);
	co.direction = DGR_DIR_BOTH;
	if (open_pair(&co, &c, &p) < 0) {
		tap_ok(0, "open a connection and a peer on 127.0.0.1");
		return;
	}
	TAP_EQ_I(dgr_conn_start(c, nop_consume, test_produce, &tp, err), 0,
		 "both paths: consumer and producer threads start");
	tap_ok(dgr_conn_thread_used(c, DGR_T_WORKER2) &&
		   strcmp(dgr_conn_thread_name(c, DGR_T_WORKER2), "producer") == 0 &&
		   strcmp(dgr_conn_thread_name(c, DGR_T_WORKER), "consumer") == 0,
	       "thread names: consumer and producer");
	for (unsigned int k = 0; k < 4; k++) {
		send_buffer(&p, k, k == 3);
	}
	/* data in the RX path with its flag in the TX path, and data in neither: refused */
	memset(data, 0, sizeof(data));
	len = txn_frame(&p, frame, sizeof(frame), 0, 0, TXB + NBUF * BSIZE, data_flag(0), data, 64);
	peer_send(&p, frame, len);
	len = txn_frame(&p, frame, sizeof(frame), 0, 0x20000000, TXB + NBUF * BSIZE, data_flag(0),
			data, 64);
	peer_send(&p, frame, len);
	end = mono_ms() + 5000;
	while ((rx_doorbells < 4 || tx_data < tp.total) && mono_ms() < end) {
		struct dgr_rx_pkt in[16];
		int n = dgr_transport_recv(p.t, in, 16, 100, err);

		for (int i = 0; i < n; i++) {
			struct dgr_frame f;
			struct dgr_msg m;

			if (dgr_frame_parse(&f, in[i].data, in[i].len, NULL) < 0) {
				continue;
			}
			while (dgr_frame_next_msg(&f, &m, NULL) == 1) {
				unsigned int j;
				uint32_t want[BSIZE / 4];

				if (dgr_msg_is_flag_only(&m)) {
					rx_doorbells +=
					    m.flag_addr == PEER_BUFS * BSIZE + 4 * rx_doorbells;
					bad_addr += m.flag_addr >= TXB;
					continue;
				}
				j = tx_data % PEER_BUFS;
				if (m.data_addr != TXB + j * BSIZE ||
				    m.flag_addr != TXB + PEER_BUFS * BSIZE + 4 * j ||
				    m.data_len != BSIZE) {
					bad_addr++;
					continue;
				}
				dgr_ramp_fill((uint8_t *)want, BSIZE, tx_data * (BSIZE / 4));
				ramp_ok += memcmp(m.data, want, BSIZE) == 0;
				tx_data++;
				/* the FPGA consumed it: a doorbell to the host's credit flag j */
				len = txn_frame(&p, frame, sizeof(frame), 0, 0,
						TXB + NBUF * BSIZE + 4 * j, DGR_DOORBELL_VALUE,
						NULL, 0);
				peer_send(&p, frame, len);
			}
		}
	}
	TAP_EQ_U(rx_doorbells, 4, "RX path: 4 doorbells to E*S + 4i at base 0, in order");
	TAP_EQ_U(tx_data, 6, "TX path: 6 buffers at 0x40000000 + j*S, j = k mod 4");
	TAP_EQ_U(ramp_ok, 6, "TX path: each holds its part of the ramp");
	TAP_EQ_U(bad_addr, 0, "no message of one path used the other's addresses");
	TAP_EQ_I(dgr_conn_wait(c, 5000), 1, "the stream ends when both paths have ended");
	dgr_conn_stop(c);
	dgr_conn_get_stats(c, &s);
	TAP_EQ_U(s.txns_completed, 4, "4 RX transactions completed");
	TAP_EQ_U(s.data_bytes_rx, 4 * BSIZE, "RX data bytes");
	TAP_EQ_U(s.samples_received, 4 * BSIZE / 4, "RX ramp: 1024 samples");
	TAP_EQ_U(s.samples_lost, 0, "RX ramp: none lost");
	TAP_EQ_U(s.doorbells_sent, 4, "4 doorbells sent");
	TAP_EQ_U(s.txns_sent, 6, "6 TX transactions sent");
	TAP_EQ_U(s.data_bytes_tx, 6 * BSIZE, "TX data bytes");
	TAP_EQ_U(s.doorbells_received, 6, "6 credits returned");
	TAP_EQ_U(s.out_of_range, 2, "the 2 messages across or outside the ports: out of range");
	TAP_EQ_U(s.buffers_in_use, 0, "no buffer in use on either path");
	dgr_conn_close(c);
	dgr_transport_close(p.t);
}

struct dcp_peer {
	struct peer *p;
	unsigned int ignore; /* requests left unanswered first */
	unsigned int requests;
	uint8_t tags[8];
	uint32_t addr;
	int stop;
};

/* The peer's DCP server: answers reads with ~addr, after ignoring the first ones. */
static void *dcp_peer_thread(void *arg)
{
	struct dcp_peer *d = arg;
	char err[DGR_ERRBUF_SIZE];

	while (!__atomic_load_n(&d->stop, __ATOMIC_ACQUIRE)) {
		struct dgr_rx_pkt in[16];
		int n = dgr_transport_recv(d->p->t, in, 16, 20, err);

		for (int i = 0; i < n; i++) {
			struct dcp_packet q, r;
			uint8_t buf[32];
			struct dgr_tx_pkt out = { .data = buf, .proto = DGR_PROTO_DCP };
			int len;

			if (in[i].proto != DGR_PROTO_DCP ||
			    dcp_decode(in[i].data, in[i].len, &q, NULL) < 0 ||
			    q.kind != DCP_KIND_READ) {
				continue;
			}
			if (d->requests < 8) {
				d->tags[d->requests] = q.tag;
			}
			d->requests++;
			d->addr = q.addr;
			if (d->ignore > 0) {
				d->ignore--;
				continue;
			}
			memset(&r, 0, sizeof(r));
			r.kind = DCP_KIND_READ_RESP;
			r.low = DCP_RESP_OK;
			r.tag = q.tag;
			r.data = ~q.addr;
			len = dcp_encode(buf, sizeof(buf), &r);
			out.len = (size_t)len;
			dgr_transport_send(d->p->t, &out, 1, err);
		}
	}
	return NULL;
}

static void test_dcp_requests(void)
{
	struct dgr_conn_opts co;
	struct dgr_conn *c = NULL;
	struct peer p;
	struct dcp_peer d = { .p = &p, .ignore = 1 };
	struct dcp_packet q = { .kind = DCP_KIND_READ, .low = 0xF, .addr = 0x400028 };
	struct dcp_packet r;
	char err[DGR_ERRBUF_SIZE];
	pthread_t th;

	dgr_conn_opts_init(&co);
	if (open_pair(&co, &c, &p) < 0) {
		tap_ok(0, "open a connection and a peer on 127.0.0.1");
		return;
	}
	TAP_EQ_I(dgr_conn_dcp(c, &q, &r, 100, 0, err), -DGR_E_STATE,
		 "dgr_conn_dcp before the start is refused");
	TAP_EQ_I(dgr_conn_start(c, nop_consume, NULL, NULL, err), 0, "threads start");
	pthread_create(&th, NULL, dcp_peer_thread, &d);
	TAP_EQ_I(dgr_conn_dcp(c, &q, &r, 200, 2, err), 0,
		 "a DCP read on the connection is answered (after one resend)");
	TAP_EQ_U(r.kind, DCP_KIND_READ_RESP, "a read response");
	TAP_EQ_U(r.data, ~0x400028u, "with the peer's data");
	TAP_EQ_U(d.requests, 2, "the peer saw the request twice (the first went unanswered)");
	/* the stack's DCP doorbells use tags 0x00..0x7f, so they never answer a request */
	tap_ok(d.tags[0] == d.tags[1] && d.tags[0] >= 0x80,
	       "both with the same tag, in the caller's range 0x80..0xff (0x%02x)", d.tags[0]);
	d.ignore = 100;
	d.requests = 0;
	q.addr = 0x400010;
	TAP_EQ_I(dgr_conn_dcp(c, &q, &r, 50, 2, err), -DGR_E_TIMEOUT, "no answer: a timeout");
	tap_ok(strstr(err, "3 attempts") != NULL && strstr(err, "0x400010") != NULL,
	       "named with the attempts and the address: %s", err);
	__atomic_store_n(&d.stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	TAP_EQ_U(d.requests, 3, "after 3 attempts");
	dgr_conn_close(c);
	dgr_transport_close(p.t);
}

static void test_bad_options(void)
{
	struct dgr_conn_opts co;
	struct dgr_conn *c = NULL;
	char err[DGR_ERRBUF_SIZE];

	dgr_conn_opts_init(&co);
	co.transport.kind = DGR_TRANSPORT_UDP;
	dgr_parse_inet("127.0.0.1:0", 0, &co.transport.bind_addr);
	co.buffers = 256;
	TAP_EQ_I(dgr_conn_open(&co, &c, err), -DGR_E_INVAL, "256 buffers refused");
	tap_ok(strstr(err, "--buffers") && strstr(err, "1..255"), "named with its range: %s", err);
	co.buffers = 4;
	co.buffer_size = 1000;
	TAP_EQ_I(dgr_conn_open(&co, &c, err), -DGR_E_INVAL, "buffer size 1000 refused");
	co.buffer_size = 1024;
	co.transport.kind = DGR_TRANSPORT_ETHER;
	strcpy(co.transport.ifname, "stknone0");
	TAP_EQ_I(dgr_conn_open(&co, &c, err), -DGR_E_INVAL, "an absent interface is refused");
	tap_ok(strstr(err, "stknone0") && strstr(err, "no such interface"), "and named: %s", err);
}

int main(void)
{
	test_order_and_pool();
	test_coalescing();
	test_inline_doorbells();
	test_doorbell_batch();
	test_hostile();
	test_both_paths();
	test_dcp_requests();
	test_bad_options();
	return tap_done();
}
