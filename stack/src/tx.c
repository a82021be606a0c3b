/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The transmit thread: turns doorbells (RX path) and filled buffers (TX
 * path) into frames with the codec's fragmenter, holds a partly filled frame
 * for coalesce_wait, piggy-backs ACKs, keeps frames for retransmission when
 * that is on, and sends in batches (sendmmsg); without retransmission data
 * frames are sent from their pieces (the frame builder's gather mode: no copy
 * of the producer's data). On a receive-only connection the consumer may run
 * the same pass itself when the thread is idle (dgr_tx_inline). It measures the
 * in-host doorbell latency: transaction complete -> doorbell handed to the socket.
 */
#include <stdlib.h>
#include <string.h>

#include <dgrdma/dcp.h>

#include "conn_priv.h"

#define DCP_SLOTS 64

enum active_kind { ACTIVE_NONE, ACTIVE_DOORBELL, ACTIVE_DATA };

struct pend_db {
	uint16_t buffer;
	uint16_t seq;
	uint32_t txn_id;
	uint32_t flag_addr;
	uint64_t t_arrival;
	uint64_t t_complete;
	uint64_t t_acquire;
	uint64_t t_release;
};

struct tx_state {
	struct dgr_conn *c;
	struct dgr_rtq rtq;
	struct dgr_ackq ackq;
	size_t cap;
	unsigned int batch;

	struct dgr_frame_builder fb;
	bool open;
	uint16_t fseq;		/* seq of the open frame */
	uint64_t first_ns;	/* when the open frame got its first message */
	struct dgr_sendwin win; /* every frame numbered, ACK-only ones too */
	bool window_blocked;	/* the peer's ACK window is full */
	uint32_t seen_ack_end;	/* c->peer_ack_end when last taken */
	uint32_t next_txn;

	enum active_kind active;
	struct dgr_txn txn;
	struct dgr_txn_cursor cur;
	bool planned;
	struct dgr_doorbell_req db;
	struct dgr_txn_req req;

	struct dgr_tx_pkt pkts[DGR_TRANSPORT_MAX_BATCH];
	struct iovec pkt_iov[DGR_TRANSPORT_MAX_BATCH][DGR_FB_MAX_IOV];
	unsigned int npkts;
	/*
	 * Zero-copy transmit (retransmission off): data frames reference the
	 * producer's buffers, which are reusable only once their frames are
	 * handed to the socket: data transactions finished in the open frame,
	 * and in closed frames not yet sent.
	 */
	bool zero_copy;
	unsigned int freed_open;
	unsigned int freed_closed;
	struct pend_db *dbs; /* doorbells in frames not yet sent */
	unsigned int ndbs;
	unsigned int ndbs_closed; /* the first ndbs_closed are in closed frames or DCP packets */
	unsigned int dbs_cap;
	uint8_t dcp_bufs[DCP_SLOTS][16];
	unsigned int ndcp;
	uint8_t dcp_tag;
	uint64_t last_scan; /* of the retransmit queue */
};

static void series_add(struct dgr_lat_series *s, uint64_t lat)
{
	if (s->count < s->cap) {
		s->v[s->count] = lat;
	}
	s->count++;
	s->sum += lat;
	if (lat < s->min) {
		s->min = lat;
	}
	if (lat > s->max) {
		s->max = lat;
	}
}

/* Raises *max to v; the reader may reset it to 0 meanwhile (dgr_conn_latency_window()). */
static void window_max(uint64_t *max, uint64_t v)
{
	uint64_t cur = __atomic_load_n(max, __ATOMIC_RELAXED);

	while (v > cur && !__atomic_compare_exchange_n(max, &cur, v, true, __ATOMIC_RELAXED,
						       __ATOMIC_RELAXED)) {
	}
}

static void record_latency(struct dgr_conn *c, const struct pend_db *d, uint64_t sent)
{
	uint64_t from_complete = sent - d->t_complete;
	uint64_t from_arrival = sent - d->t_arrival;

	c->lat_wait_receive_sum += d->t_complete - d->t_arrival;
	c->lat_wait_consumer_sum += d->t_acquire - d->t_complete;
	c->lat_consumer_work_sum += d->t_release - d->t_acquire;
	c->lat_wait_send_sum += sent - d->t_release;
	series_add(&c->lat, from_complete);
	series_add(&c->lat_arrival, from_arrival);
	window_max(&c->lat_window_max, from_complete);
	window_max(&c->lat_window_max_arrival, from_arrival);
}

static int flush_send(struct tx_state *s)
{
	struct dgr_conn *c = s->c;
	char err[DGR_ERRBUF_SIZE];
	uint64_t start, now;
	uint32_t send_call_ns;
	int rc;

	if (s->npkts == 0) {
		return 0;
	}
	start = dgr_now_ns();
	rc = dgr_transport_send(c->t, s->pkts, s->npkts, err);
	DGR_ADD(c->ts[DGR_T_TX].syscalls, 1);
	if (rc < 0) {
		dgr_conn_fail(c, rc, err);
		return rc;
	}
	now = dgr_now_ns();
	/* the trace's stack -> wire counts from the hand-over, not from the return */
	send_call_ns = now - start > UINT32_MAX ? UINT32_MAX : (uint32_t)(now - start);
	for (unsigned int i = 0; i < s->ndbs_closed; i++) {
		struct pend_db *d = &s->dbs[i];

		record_latency(c, d, now);
		DGR_ADD(c->st.doorbells_sent, 1);
		DGR_TP(doorbell_sent, c->o.conn_index, d->buffer, d->txn_id, d->flag_addr, d->seq,
		       send_call_ns, now - d->t_arrival,
		       &(struct dgr_tp_bell_sides){
			   .since_release_ns = now - d->t_release,
			   .held_ns = d->t_release - d->t_acquire,
			   .consumer_tid = (int32_t)c->si[DGR_T_WORKER].tid,
			   .since_complete_ns = now - d->t_complete,
		       });
	}
	if (s->freed_closed) {
		/* the kernel has copied their data: the producer may refill the buffers */
		__atomic_store_n(&c->local_freed, c->local_freed + s->freed_closed,
				 __ATOMIC_RELEASE);
		s->freed_closed = 0;
		dgr_event_notify(&c->ev_worker);
	}
	memmove(s->dbs, s->dbs + s->ndbs_closed, (s->ndbs - s->ndbs_closed) * sizeof(*s->dbs));
	s->ndbs -= s->ndbs_closed;
	s->ndbs_closed = 0;
	s->npkts = 0;
	s->ndcp = 0;
	if (!c->o.retransmit_ms) {
		dgr_rtq_release_all(&s->rtq);
	}
	return 0;
}

/* Queues a packet; fb, when not NULL, is the finished frame of data (its pieces are sent). */
static int add_pkt(struct tx_state *s, const uint8_t *data, size_t len, enum dgr_proto proto,
		   const struct dgr_frame_builder *fb)
{
	struct dgr_tx_pkt *p = &s->pkts[s->npkts];

	p->data = data;
	p->len = len;
	p->proto = proto;
	p->dst = NULL;
	p->iov = NULL;
	p->iovcnt = 0;
	if (fb && fb->gather) {
		p->iov = s->pkt_iov[s->npkts];
		p->iovcnt = dgr_fb_iov(fb, s->pkt_iov[s->npkts]);
	}
	s->npkts++;
	if (s->npkts == s->batch || s->ndcp == DCP_SLOTS || s->ndbs + 512 > s->dbs_cap) {
		return flush_send(s);
	}
	return 0;
}

/* The frames_unacked gauge follows the send window (a counter moved by the difference). */
static void update_unacked(struct tx_state *s)
{
	struct dgr_conn *c = s->c;

	DGR_ADD(c->st.frames_unacked, dgr_sendwin_unacked(&s->win) - c->st.frames_unacked);
}

/*
 * The buffer and the frame_seq of the next frame: NULL when every slot waits
 * for an ACK, or when the next frame_seq lies outside the peer's ACK window
 * (the FPGA would reject it: wait until it acknowledges).
 */
static uint8_t *next_frame(struct tx_state *s, uint16_t *seq)
{
	struct dgr_conn *c = s->c;
	uint8_t *buf = dgr_rtq_reserve(&s->rtq);

	if (!buf) {
		return NULL;
	}
	if (!dgr_sendwin_take(&s->win, c->o.peer_window, seq)) {
		if (!s->window_blocked) {
			s->window_blocked = true;
			__atomic_store_n(&c->tx_window_blocked, true, __ATOMIC_RELAXED);
			DGR_ADD(c->st.send_window_waits, 1);
		}
		return NULL;
	}
	if (s->window_blocked) {
		s->window_blocked = false;
		__atomic_store_n(&c->tx_window_blocked, false, __ATOMIC_RELAXED);
	}
	update_unacked(s);
	return buf;
}

static void frame_hdr(const struct tx_state *s, struct dgr_frame_hdr *hdr, uint16_t seq)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->dst_id = s->c->o.peer_id;
	hdr->src_id = s->c->o.id;
	hdr->frame_seq = seq;
}

static bool open_frame(struct tx_state *s)
{
	struct dgr_frame_hdr hdr;
	uint8_t *buf;
	uint16_t seq;

	buf = next_frame(s, &seq);
	if (!buf) {
		return false;
	}
	frame_hdr(s, &hdr, seq);
	if (dgr_fb_init(&s->fb, buf, s->cap, &hdr) < 0) {
		return false;
	}
	if (s->zero_copy) {
		dgr_fb_gather(&s->fb);
	}
	s->fseq = seq;
	s->open = true;
	s->first_ns = 0;
	return true;
}

/* The peer's latest cumulative ACK (rx thread): frees the window and the retransmit queue. */
static void take_peer_acks(struct tx_state *s)
{
	struct dgr_conn *c = s->c;
	uint32_t end = __atomic_load_n(&c->peer_ack_end, __ATOMIC_ACQUIRE);
	unsigned int n;

	s->seen_ack_end = end;
	if (!(end & 0x10000u)) {
		return;
	}
	n = dgr_sendwin_ack(&s->win, (uint16_t)end);
	if (n == 0) {
		return;
	}
	if (c->o.retransmit_ms) {
		dgr_rtq_ack(&s->rtq, (uint16_t)(end - n), n);
	}
	update_unacked(s);
}

static void set_acks(struct tx_state *s, uint8_t *hdr_buf, struct dgr_frame_builder *fb)
{
	struct dgr_conn *c = s->c;
	uint16_t start;
	unsigned int n = dgr_ackq_take_run(&s->ackq, &start);

	if (n == 0) {
		return;
	}
	if (fb) {
		dgr_fb_set_ack(fb, start, (uint8_t)n);
	} else {
		dgr_put_le16(hdr_buf + DGR_FRAME_OFF_ACK_START, start);
		hdr_buf[DGR_FRAME_OFF_ACK_COUNT] = (uint8_t)n;
	}
	DGR_ADD(c->st.acks_sent, 1);
	DGR_TP(ack_tx, c->o.conn_index, start, (uint8_t)n);
}

static int close_frame(struct tx_state *s)
{
	struct dgr_conn *c = s->c;
	size_t len;
	uint16_t ack_start;
	uint8_t ack_count;

	if (!s->open) {
		return 0;
	}
	len = dgr_fb_finish(&s->fb);
	if (c->o.acks) {
		set_acks(s, NULL, &s->fb);
	}
	ack_start = dgr_get_le16(s->fb.buf + DGR_FRAME_OFF_ACK_START);
	ack_count = s->fb.buf[DGR_FRAME_OFF_ACK_COUNT];
	dgr_rtq_commit(&s->rtq, s->fseq, (uint32_t)len, (uint16_t)s->fb.msgs, dgr_now_ns());
	s->open = false;
	DGR_ADD(c->st.frames_tx, 1);
	DGR_ADD(c->st.bytes_tx, len);
	DGR_ADD(c->st.msgs_tx, s->fb.msgs);
	DGR_ADD(c->ts[DGR_T_TX].items, 1);
	DGR_ADD(c->ts[DGR_T_TX].bytes, len);
	DGR_TP(frame_tx, c->o.conn_index, s->fseq, (uint32_t)len, (uint16_t)s->fb.msgs, ack_start,
	       ack_count, 0);
	s->ndbs_closed = s->ndbs;
	s->freed_closed += s->freed_open;
	s->freed_open = 0;
	if (s->fb.niov > 0) {
		DGR_ADD(c->st.frames_tx_gathered, 1);
	}
	return add_pkt(s, s->fb.buf, len, DGR_PROTO_DGRDMA, &s->fb);
}

static void finish_active(struct tx_state *s)
{
	struct dgr_conn *c = s->c;

	if (s->active == ACTIVE_DOORBELL) {
		struct pend_db *d = &s->dbs[s->ndbs++];

		d->buffer = s->db.buffer;
		d->seq = s->fseq;
		d->txn_id = s->db.txn_id;
		d->flag_addr = s->txn.flag_addr;
		d->t_arrival = s->db.t_arrival;
		d->t_complete = s->db.t_complete;
		d->t_acquire = s->db.t_acquire;
		d->t_release = s->db.t_release;
	} else {
		DGR_ADD(c->st.txns_sent, 1);
		DGR_ADD(c->st.data_bytes_tx, s->txn.len);
		DGR_TP(txn_sent, c->o.conn_index, s->txn.txn_id, s->req.remote, s->txn.len,
		       s->fseq);
		/* the buffer is free once the frame with its last fragment is sent */
		s->freed_open++;
	}
	s->active = ACTIVE_NONE;
}

/* Writes the active transaction into frames. Returns 1 done, 0 blocked, < 0 error. */
static int step_active(struct tx_state *s)
{
	for (;;) {
		int r;

		if (!s->open && !open_frame(s)) {
			return 0;
		}
		if (!s->planned) {
			r = dgr_txn_plan(&s->cur, &s->txn, &s->fb);
			if (r < 0) {
				dgr_conn_fail(s->c, r,
					      "cannot fragment a transaction for this MTU");
				return r;
			}
			s->planned = true;
		}
		r = dgr_fb_add_txn(&s->fb, &s->cur);
		if (r < 0) {
			dgr_conn_fail(s->c, r, "frame builder failed");
			return r;
		}
		if (s->fb.msgs > 0 && s->first_ns == 0) {
			s->first_ns = dgr_now_ns();
		}
		if (r == 1) {
			finish_active(s);
			return 1;
		}
		r = close_frame(s);
		if (r < 0) {
			return r;
		}
	}
}

static void start_doorbell(struct tx_state *s, const struct dgr_doorbell_req *db)
{
	struct dgr_conn *c = s->c;

	s->db = *db;
	memset(&s->txn, 0, sizeof(s->txn));
	s->txn.txn_id = s->next_txn++;
	s->txn.data_addr = 0;
	s->txn.flag_addr = c->rxp->base + c->o.peer_buffers * c->size + 4u * db->buffer;
	s->txn.flag_value = DGR_DOORBELL_VALUE;
	s->active = ACTIVE_DOORBELL;
	s->planned = false;
}

static int send_dcp_doorbell(struct tx_state *s, const struct dgr_doorbell_req *db)
{
	struct dgr_conn *c = s->c;
	struct dcp_packet p;
	uint8_t *buf = s->dcp_bufs[s->ndcp++];
	struct pend_db *d = &s->dbs[s->ndbs++];
	int len;

	memset(&p, 0, sizeof(p));
	p.kind = DCP_KIND_WRITE;
	p.low = 0xF;
	p.tag = (uint8_t)(s->dcp_tag++ & (DGR_DCP_TAG_CALLER - 1)); /* the stack's tag range */
	p.addr = c->o.doorbell_dcp_addr;
	p.data = db->buffer;
	len = dcp_encode(buf, sizeof(s->dcp_bufs[0]), &p);
	d->buffer = db->buffer;
	d->seq = 0;
	d->txn_id = db->txn_id;
	d->flag_addr = c->o.doorbell_dcp_addr;
	d->t_arrival = db->t_arrival;
	d->t_complete = db->t_complete;
	d->t_acquire = db->t_acquire;
	d->t_release = db->t_release;
	s->ndbs_closed = s->ndbs;
	return add_pkt(s, buf, (size_t)len, DGR_PROTO_DCP, NULL);
}

static void start_data(struct tx_state *s, const struct dgr_txn_req *req)
{
	struct dgr_conn *c = s->c;

	s->req = *req;
	memset(&s->txn, 0, sizeof(s->txn));
	s->txn.txn_id = s->next_txn++;
	s->txn.data_addr = c->txp->base + (uint32_t)req->remote * c->size;
	s->txn.flag_addr = c->txp->base + c->o.peer_buffers * c->size + 4u * req->remote;
	s->txn.flag_value = req->flag_value;
	s->txn.data = c->txp->mem + (size_t)req->local * c->size;
	s->txn.len = req->len;
	s->active = ACTIVE_DATA;
	s->planned = false;
}

/*
 * Takes the next doorbell (RX path). Returns 1 when one was started or sent
 * (DCP), 0 when none waits, < 0 on error.
 */
static int take_doorbell(struct tx_state *s)
{
	struct dgr_conn *c = s->c;
	struct dgr_doorbell_req db;
	int r;

	if (s->ndbs + 1 >= s->dbs_cap) {
		/* never more than the pool's buffers, but stay bounded */
		r = close_frame(s);
		if (r == 0) {
			r = flush_send(s);
		}
		if (r < 0) {
			return r;
		}
	}
	if (!dgr_spsc_pop(&c->doorbells, &db)) {
		return 0;
	}
	if (c->o.doorbell_mode == DGR_DOORBELL_DCP) {
		r = send_dcp_doorbell(s, &db);
		return r < 0 ? r : 1;
	}
	start_doorbell(s, &db);
	return 1;
}

/*
 * Takes new work from the rings: doorbells first (their latency is what the
 * FPGA waits on), then the producer's buffers. Returns 1 if something was
 * done, 0 if not, < 0 on error.
 */
static int take_work(struct tx_state *s)
{
	struct dgr_conn *c = s->c;
	int did = 0;
	int r;

	for (;;) {
		struct dgr_txn_req req;

		if (s->active != ACTIVE_NONE) {
			r = step_active(s);
			if (r <= 0) {
				return r < 0 ? r : did;
			}
			did = 1;
		}
		if (c->rxp) {
			r = take_doorbell(s);
			if (r < 0) {
				return r;
			}
			if (r > 0) {
				did = 1;
				continue;
			}
		}
		if (!c->txp || !dgr_spsc_pop(&c->txns, &req)) {
			return did;
		}
		start_data(s, &req);
	}
}

/* Sends the requests of dgr_conn_dcp() waiting in the ring. Returns 1 if any, 0, or < 0. */
static int send_dcp_requests(struct tx_state *s)
{
	struct dgr_conn *c = s->c;
	struct dgr_dcp_out out;
	int did = 0;

	while (dgr_spsc_pop(&c->dcp_out, &out)) {
		uint8_t *buf = s->dcp_bufs[s->ndcp++];
		int r;

		memcpy(buf, out.buf, out.len);
		r = add_pkt(s, buf, out.len, DGR_PROTO_DCP, NULL);
		if (r < 0) {
			return r;
		}
		did = 1;
	}
	return did;
}

/*
 * ACK-only frames for the peer's frames with messages waiting (an ACK-only
 * frame of the peer's is acknowledged with them, never alone). Each takes the
 * next frame_seq, as on the FPGA, and is kept for retransmission like any
 * frame: a lost one would leave a hole the FPGA's window never skips.
 */
static int send_ack_only(struct tx_state *s)
{
	struct dgr_conn *c = s->c;

	while (dgr_ackq_due(&s->ackq)) {
		struct dgr_frame_hdr hdr;
		uint16_t seq;
		uint8_t *b = next_frame(s, &seq);
		int r;

		if (!b) {
			return 0; /* the ACKs wait for a slot or the peer's window */
		}
		frame_hdr(s, &hdr, seq);
		hdr.flags = DGR_FRAME_FLAG_ACK_ONLY;
		dgr_frame_hdr_write(b, &hdr);
		set_acks(s, b, NULL);
		dgr_rtq_commit(&s->rtq, seq, DGR_FRAME_HDR_LEN, 0, dgr_now_ns());
		DGR_ADD(c->st.frames_tx, 1);
		DGR_ADD(c->st.bytes_tx, DGR_FRAME_HDR_LEN);
		DGR_TP(frame_tx, c->o.conn_index, seq, DGR_FRAME_HDR_LEN, 0,
		       dgr_get_le16(b + DGR_FRAME_OFF_ACK_START), b[DGR_FRAME_OFF_ACK_COUNT], 0);
		r = add_pkt(s, b, DGR_FRAME_HDR_LEN, DGR_PROTO_DGRDMA, NULL);
		if (r < 0) {
			return r;
		}
	}
	return 0;
}

static int retransmit_due(struct tx_state *s, uint64_t now)
{
	struct dgr_conn *c = s->c;
	struct dgr_rtq_slot *due[64];
	unsigned int giveups = 0;
	unsigned int n;

	n = dgr_rtq_due(&s->rtq, now, (uint64_t)c->o.retransmit_ms * 1000000ull,
			c->o.retransmit_attempts, due, 64, &giveups);
	if (giveups) {
		DGR_ADD(c->st.retransmit_giveups, giveups);
	}
	for (unsigned int i = 0; i < n; i++) {
		int r;

		DGR_ADD(c->st.retransmits, 1);
		DGR_ADD(c->st.frames_tx, 1);
		DGR_ADD(c->st.bytes_tx, due[i]->len);
		DGR_TP(retransmit, c->o.conn_index, due[i]->seq, due[i]->attempts);
		DGR_TP(frame_tx, c->o.conn_index, due[i]->seq, due[i]->len, due[i]->msgs,
		       dgr_get_le16(due[i]->buf + DGR_FRAME_OFF_ACK_START),
		       due[i]->buf[DGR_FRAME_OFF_ACK_COUNT], 1);
		r = add_pkt(s, due[i]->buf, due[i]->len, DGR_PROTO_DGRDMA, NULL);
		if (r < 0) {
			return r;
		}
	}
	return (int)n;
}

static bool tx_has_work(struct dgr_conn *c)
{
	return dgr_spsc_count(&c->doorbells) || dgr_spsc_count(&c->txns) ||
	       dgr_spsc_count(&c->acks) || dgr_spsc_count(&c->dcp_out);
}

/*
 * One pass over the transmit work: ACK bookkeeping, DCP requests, doorbells
 * and data into frames, ACK-only frames, retransmissions, then one batched
 * send. Called with tx_lock held, by the transmit thread or inline by the
 * consumer. *wait_ns is lowered to the next timed event (a held frame, the
 * retransmit scan). Returns 1 if work was taken, 0 if none, < 0 on error.
 */
static int tx_service(struct tx_state *s, bool stopping, uint64_t *wait_ns)
{
	struct dgr_conn *c = s->c;
	uint64_t coalesce_ns = (uint64_t)c->o.coalesce_wait_us * 1000ull;
	uint64_t rt_ns = (uint64_t)c->o.retransmit_ms * 1000000ull;
	struct dgr_ack_ev ev;
	uint64_t now;
	int did;
	int r;

	take_peer_acks(s);
	while (dgr_spsc_pop(&c->acks, &ev)) {
		dgr_ackq_push(&s->ackq, ev.start, ev.kind == DGR_ACKEV_TO_ACK_REAL);
	}
	did = send_dcp_requests(s);
	if (did < 0) {
		return did;
	}
	r = take_work(s);
	if (r < 0) {
		return r;
	}
	did |= r;
	now = dgr_now_ns();
	if (s->open && s->fb.msgs > 0) {
		if (stopping || coalesce_ns == 0 || now - s->first_ns >= coalesce_ns) {
			r = close_frame(s);
			if (r < 0) {
				return r;
			}
		} else if (coalesce_ns - (now - s->first_ns) < *wait_ns) {
			*wait_ns = coalesce_ns - (now - s->first_ns);
		}
	}
	/* never toward an FPGA: its parser reads the padding as frames (dgr_conn_opts) */
	if (c->o.acks && c->o.peer_kind == DGR_PEER_HOST && !(s->open && s->fb.msgs > 0)) {
		r = send_ack_only(s);
		if (r < 0) {
			return r;
		}
	}
	if (rt_ns) {
		if (now - s->last_scan >= rt_ns / 8) {
			s->last_scan = now;
			r = retransmit_due(s, now);
			if (r < 0) {
				return r;
			}
		}
		if (rt_ns / 8 < *wait_ns) {
			*wait_ns = rt_ns / 8;
		}
	}
	r = flush_send(s);
	return r < 0 ? r : did;
}

/*
 * See conn_priv.h. The consumer sends its doorbell itself when it can take
 * the transmit state at once: on this 2-vCPU VM waking the transmit thread
 * for each doorbell cost more than the send (docs/performance/stack.md).
 * A frame held for coalesce_wait needs the transmit thread's timer, so this
 * is only done without coalescing, and only on a receive-only connection.
 */
bool dgr_tx_inline(struct dgr_conn *c)
{
	uint64_t wait_ns = UINT64_MAX;
	uint64_t sent_before;
	struct tx_state *s;
	bool left;
	int r;

	if (!dgr_inline_doorbells(c) || pthread_mutex_trylock(&c->tx_lock) != 0) {
		return false;
	}
	s = c->txs;
	if (!s) {
		pthread_mutex_unlock(&c->tx_lock);
		return false; /* the transmit thread has not started, or has ended */
	}
	sent_before = c->st.doorbells_sent;
	r = tx_service(s, false, &wait_ns);
	DGR_ADD(c->st.doorbells_inline, c->st.doorbells_sent - sent_before);
	left = s->active != ACTIVE_NONE || s->open || tx_has_work(c);
	pthread_mutex_unlock(&c->tx_lock);
	return r < 0 || !left;
}

static int tx_loop(struct tx_state *s)
{
	struct dgr_conn *c = s->c;

	for (;;) {
		bool stopping = dgr_conn_stopping(c);
		uint64_t wait_ns = 20000000ull;
		uint32_t seen;
		int did;

		DGR_ADD(c->ts[DGR_T_TX].loops, 1);
		pthread_mutex_lock(&c->tx_lock);
		did = tx_service(s, stopping, &wait_ns);
		pthread_mutex_unlock(&c->tx_lock);
		if (did < 0) {
			return did;
		}
		if (stopping) {
			return 0;
		}
		if (did || c->o.busy_wait) {
			continue;
		}
		seen = dgr_event_prepare(&c->ev_tx);
		/* work blocked on the peer's window waits for its ACK (the rx thread wakes us) */
		if ((tx_has_work(c) && !s->window_blocked) || dgr_spsc_count(&c->acks) ||
		    __atomic_load_n(&c->peer_ack_end, __ATOMIC_ACQUIRE) != s->seen_ack_end ||
		    dgr_conn_stopping(c)) {
			dgr_event_cancel(&c->ev_tx);
			continue;
		}
		DGR_ADD(c->ts[DGR_T_TX].idle_waits, 1);
		dgr_event_wait(&c->ev_tx, seen, wait_ns ? wait_ns : 1000);
	}
}

/* See conn_priv.h. */
void dgr_tx_seq_state(const struct tx_state *s, struct dgr_seq_state *st)
{
	const struct dgr_rtq_slot *oldest = dgr_rtq_oldest(&s->rtq);
	uint32_t end = __atomic_load_n(&s->c->peer_ack_end, __ATOMIC_ACQUIRE);

	st->send_next = s->win.next;
	st->send_oldest = s->win.oldest;
	st->send_unacked = dgr_sendwin_unacked(&s->win);
	st->peer_window = s->c->o.peer_window;
	st->window_blocked = s->window_blocked;
	st->peer_acked = (end & 0x10000u) != 0;
	st->peer_ack_end = (uint16_t)end;
	st->rtq_slots = s->rtq.cap;
	st->rtq_outstanding = (uint32_t)dgr_rtq_outstanding(&s->rtq);
	if (oldest) {
		st->rtq_oldest_seq = oldest->seq;
		st->rtq_oldest_attempts = oldest->attempts;
		st->rtq_oldest_age_ns = dgr_now_ns() - oldest->sent_ns;
	}
	st->ack_started = s->ackq.started;
	st->ack_base = s->ackq.base;
	st->ack_pending = dgr_ackq_pending(&s->ackq);
	st->ack_waiting = dgr_ackq_waiting(&s->ackq);
}

/* Thread body: returns NULL. */
void *dgr_tx_thread(void *arg)
{
	struct dgr_conn *c = arg;
	struct tx_state *s;
	uint32_t slots;

	s = calloc(1, sizeof(*s));
	if (!s) {
		dgr_conn_fail(c, -DGR_E_NOMEM, "out of memory for the transmit thread");
		(void)dgr_thread_begin(c, DGR_T_TX);
		return NULL;
	}
	s->c = c;
	s->cap = dgr_transport_frame_cap(c->t);
	s->batch = c->o.transport.batch ? c->o.transport.batch : DGR_TRANSPORT_DEFAULT_BATCH;
	dgr_sendwin_init(&s->win);
	s->next_txn = 1;
	s->zero_copy = c->o.retransmit_ms == 0; /* frames to resend must own their data */
	s->dbs_cap = 1024;
	s->dbs = calloc(s->dbs_cap, sizeof(*s->dbs));
	dgr_ackq_init(&s->ackq);
	/* enough slots for a send batch, and a retransmit window when that is on */
	slots = (uint32_t)(16u * 1024 * 1024 / s->cap);
	if (slots > 1024) {
		slots = 1024;
	}
	if (slots < s->batch + 2) {
		slots = s->batch + 2;
	}
	if (!s->dbs || dgr_rtq_init(&s->rtq, slots, s->cap) < 0) {
		dgr_conn_fail(c, -DGR_E_NOMEM, "out of memory for the transmit thread");
		(void)dgr_thread_begin(c, DGR_T_TX);
		goto out;
	}
	if (!dgr_thread_begin(c, DGR_T_TX)) {
		goto out;
	}
	s->last_scan = dgr_now_ns();
	pthread_mutex_lock(&c->tx_lock);
	c->txs = s;
	pthread_mutex_unlock(&c->tx_lock);
	(void)tx_loop(s);
	pthread_mutex_lock(&c->tx_lock);
	/* the state the stream ended (or stalled) in, for the summary */
	memset(&c->seq_last, 0, sizeof(c->seq_last));
	dgr_tx_seq_state(s, &c->seq_last);
	c->txs = NULL;
	pthread_mutex_unlock(&c->tx_lock);
	dgr_thread_cpu(&c->ts[DGR_T_TX]);
out:
	dgr_rtq_free(&s->rtq);
	free(s->dbs);
	free(s);
	return NULL;
}
