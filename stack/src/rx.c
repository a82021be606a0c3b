/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The receive thread: batched receive, frame decode (wire.c), duplicate
 * filter, reassembly (reassembly.c), the one copy into the port memory, and
 * the store-release flag write that hands a full buffer to the consumer
 * (RX path) or returns a credit to the producer (TX path).
 */
#include <string.h>
#include <time.h>

#include "conn_priv.h"

/* Counts one malformed frame or message by its reason (positive DGR_E_* code). */
void dgr_count_malformed(struct dgr_conn *c, int reason, uint32_t bytes)
{
	struct dgr_conn_stats *s = &c->st;

	switch (reason) {
	case DGR_E_TRUNC_FRAME_HDR:
		DGR_ADD(s->malformed_trunc_frame_hdr, 1);
		break;
	case DGR_E_TRUNC_MSG_HDR:
		DGR_ADD(s->malformed_trunc_msg_hdr, 1);
		break;
	case DGR_E_MSG_PAST_END:
		DGR_ADD(s->malformed_msg_past_end, 1);
		break;
	case DGR_E_PADDING:
		DGR_ADD(s->malformed_padding, 1);
		break;
	case DGR_E_MSG_TYPE:
		DGR_ADD(s->malformed_msg_type, 1);
		break;
	case DGR_E_FRAME_FLAGS:
		DGR_ADD(s->malformed_frame_flags, 1);
		break;
	case DGR_E_ALIGN:
		DGR_ADD(s->malformed_align, 1);
		break;
	case DGR_E_NUM_MSGS:
		DGR_ADD(s->malformed_num_msgs, 1);
		break;
	case DGR_E_FLAG_WORD:
		DGR_ADD(s->malformed_flag_word, 1);
		break;
	case DGR_E_UDP_SHORT:
		DGR_ADD(s->malformed_udp_pad, 1);
		break;
	case DGR_E_INVAL:
		DGR_ADD(s->malformed_unknown_id, 1);
		break;
	case DGR_E_ADDR_RANGE:
		/* counted apart: out_of_range, not malformed_frames */
		DGR_ADD(s->out_of_range, 1);
		DGR_TP(malformed, c->o.conn_index, reason, bytes);
		return;
	default:
		break;
	}
	DGR_ADD(s->malformed_frames, 1);
	DGR_TP(malformed, c->o.conn_index, reason, bytes);
}

static void push_ack_ev(struct dgr_rx_ctx *x, uint8_t kind, uint16_t start, uint8_t count)
{
	struct dgr_ack_ev ev = { .kind = kind, .count = count, .start = start };

	/* full ring: the ACK is lost, as on the wire; the peer retransmits */
	(void)dgr_spsc_push(&x->c->acks, &ev);
	x->notify_tx = true;
}

/*
 * The port memory an address falls in: the only port of a one-way connection
 * (whose validation then rejects addresses outside it), or on both paths the
 * one whose range holds it (NULL when neither does).
 */
static struct dgr_port *port_of(struct dgr_conn *c, uint32_t addr)
{
	if (c->nports == 1) {
		return &c->port[0];
	}
	for (unsigned int i = 0; i < c->nports; i++) {
		if (addr - c->port[i].base < c->port[i].mem_size) {
			return &c->port[i];
		}
	}
	return NULL;
}

static void complete_txn(struct dgr_rx_ctx *x, struct dgr_port *p, const struct dgr_txn_info *d,
			 uint16_t seq, uint64_t now, uint64_t arrival)
{
	struct dgr_conn *c = x->c;
	uint32_t flag_off;
	unsigned int idx;

	if (d->flag_addr == DGR_NO_FLAG) {
		return; /* a write without flag: data only */
	}
	flag_off = d->flag_addr - p->base - c->nbuf * c->size;
	if (d->flag_addr - p->base < c->nbuf * c->size || flag_off / 4 >= DGR_PORT_FLAGS) {
		DGR_ADD(c->st.unexpected_flags, 1);
		return;
	}
	idx = flag_off / 4;
	if (p->path == DGR_DIR_RX) {
		struct dgr_flag_word fw;
		uint64_t in_use;

		if (idx >= c->nbuf) {
			DGR_ADD(c->st.unexpected_flags, 1);
			return;
		}
		if (__atomic_load_n(&p->flags[idx], __ATOMIC_ACQUIRE) != 0) {
			/* the producer overran a buffer the consumer still holds */
			DGR_ADD(c->st.unexpected_flags, 1);
			return;
		}
		c->meta[idx].txn_id = d->txn_id;
		c->meta[idx].flag_value = d->flag_value;
		c->meta[idx].bytes = d->bytes;
		c->meta[idx].frame_seq = seq;
		c->meta[idx].t_arrival = arrival;
		c->meta[idx].t_complete = now;
		/*
		 * The event before the flag: once the flag is set, a consumer already
		 * awake takes the buffer and may ring its doorbell before this thread
		 * runs again, so a trace would hold the doorbell before its
		 * transaction (a preempted receive thread, seen under load).
		 */
		dgr_flag_decode(d->flag_value, &fw);
		DGR_TP(txn_complete, c->o.conn_index, d->txn_id, (uint16_t)idx, d->bytes, fw.opcode,
		       d->flag_addr, seq, now - arrival, arrival);
		__atomic_store_n(&p->flags[idx], d->flag_value, __ATOMIC_RELEASE);
		if (c->t_first_complete == 0) {
			c->t_first_complete = now;
		}
		c->t_last_complete = now;
		DGR_ADD(c->completed, 1);
		DGR_ADD(c->st.txns_completed, 1);
		in_use = c->completed - __atomic_load_n(&c->consumed, __ATOMIC_ACQUIRE);
		if (in_use > c->st.occupancy_hwm) {
			DGR_ADD(c->st.occupancy_hwm, in_use - c->st.occupancy_hwm);
		}
		x->notify_worker = true;
		return;
	}
	/* TX path: a doorbell from the FPGA returns the credit of its buffer idx */
	if (idx >= c->o.peer_buffers) {
		DGR_ADD(c->st.unexpected_flags, 1);
		return;
	}
	__atomic_store_n(&p->flags[idx], d->flag_value, __ATOMIC_RELEASE);
	DGR_ADD(c->st.doorbells_received, 1);
	__atomic_store_n(&c->credits, c->credits + 1, __ATOMIC_RELEASE);
	DGR_TP(doorbell_rx, c->o.conn_index, (uint16_t)idx, d->flag_addr, seq);
	x->notify_worker = true;
}

/*
 * Resolves a message's port and checks it against that port's memory (the
 * addresses made port-relative in *m). Returns the port, or NULL with *reason
 * (a positive DGR_E_* code).
 */
static struct dgr_port *check_msg(struct dgr_conn *c, struct dgr_msg *m, int *reason)
{
	struct dgr_port *p;
	int r;

	/* data says where a message goes; a flag-only one, its flag */
	if (m->data_len == 0 && m->flag_addr == DGR_NO_FLAG) {
		p = &c->port[0]; /* neither: nothing to write anywhere */
	} else {
		p = port_of(c, m->data_len != 0 ? m->data_addr : m->flag_addr);
	}
	if (!p) {
		*reason = DGR_E_ADDR_RANGE;
		return NULL;
	}
	if (m->data_len != 0) {
		m->data_addr -= p->base;
	}
	if (m->flag_addr != DGR_NO_FLAG) {
		m->flag_addr -= p->base;
	}
	r = dgr_msg_validate(m, p->mem_size, c->o.strict_lengths, NULL);
	if (r < 0) {
		*reason = -r;
		return NULL;
	}
	return p;
}

/*
 * Checks every message of a frame before anything of it is taken: a frame
 * with one bad message is dropped whole, its frame_seq not recorded (a forged
 * or damaged frame must not take the number of the real one). Returns 0, or a
 * positive DGR_E_* reason.
 */
static int check_frame(struct dgr_conn *c, const struct dgr_frame *frame)
{
	struct dgr_frame f = *frame;
	struct dgr_msg m;
	int reason = 0;
	int rc;

	while ((rc = dgr_frame_next_msg(&f, &m, NULL)) == 1) {
		if (!check_msg(c, &m, &reason)) {
			return reason;
		}
	}
	return rc < 0 ? -rc : 0;
}

/* A frame for other endpoint ids: counted, its ids kept for the diagnosis. */
static void wrong_ids(struct dgr_conn *c, const struct dgr_frame_hdr *h, size_t len)
{
	__atomic_store_n(&c->wrong_ids, (uint32_t)h->dst_id << 16 | h->src_id, __ATOMIC_RELAXED);
	dgr_count_malformed(c, DGR_E_INVAL, (uint32_t)len);
}

/* The peer's ACK run: cumulative, published for the transmit thread (dgr_sendwin). */
static void peer_acked(struct dgr_rx_ctx *x, const struct dgr_frame_hdr *h)
{
	struct dgr_conn *c = x->c;

	DGR_ADD(c->st.acks_received, 1);
	DGR_TP(ack_rx, c->o.conn_index, h->ack_start, h->ack_count);
	__atomic_store_n(&c->peer_ack_end, 0x10000u | (uint16_t)(h->ack_start + h->ack_count),
			 __ATOMIC_RELEASE);
	if (c->o.retransmit_ms || __atomic_load_n(&c->tx_window_blocked, __ATOMIC_RELAXED)) {
		x->notify_tx = true;
	}
}

/*
 * What tells two frames of one frame_seq apart (FNV-1a): the flags, the length
 * and every message header, not the ACK fields (a sender may stamp newer ACKs
 * on a frame it sends again) nor the data (the headers suffice and cost little).
 */
static uint64_t frame_sig(const struct dgr_frame *frame, size_t len)
{
	struct dgr_frame f = *frame;
	struct dgr_msg m;
	uint64_t h = 0xcbf29ce484222325ull;
	uint32_t v[8];

	v[0] = frame->hdr.flags;
	v[1] = (uint32_t)len;
	for (unsigned int k = 0; k < 2; k++) {
		h = (h ^ v[k]) * 0x100000001b3ull;
	}
	if (frame->hdr.flags == DGR_FRAME_FLAG_ACK_ONLY) {
		return h;
	}
	while (dgr_frame_next_msg(&f, &m, NULL) == 1) {
		v[0] = m.txn_id;
		v[1] = m.flag_addr;
		v[2] = m.flag_value;
		v[3] = (uint32_t)m.num_msgs_in_txn << 16 | m.msg_seq;
		v[4] = m.data_addr;
		v[5] = m.data_len;
		v[6] = m.msg_type;
		v[7] = m.has_nextmsg;
		for (unsigned int k = 0; k < 8; k++) {
			h = (h ^ v[k]) * 0x100000001b3ull;
		}
	}
	return h;
}

/*
 * Processes one received DG-RDMA frame (receive thread context); arrival is
 * when the kernel received it (0: unknown, taken as now). Every frame takes a
 * frame_seq, ACK-only frames included: the duplicate filter covers them all,
 * and a frame is recorded there only once it was checked whole.
 */
void dgr_rx_frame(struct dgr_rx_ctx *x, const uint8_t *buf, size_t len, uint64_t now,
		  uint64_t arrival)
{
	struct dgr_conn *c = x->c;
	struct dgr_frame f;
	struct dgr_msg m;
	enum dgr_seq_verdict verdict;
	bool conflicting = false;
	bool ack_only;
	uint64_t sig;
	int rc;
	uint16_t msgs = 0;

	/* a realtime clock step can put the kernel's stamp ahead of now */
	if (arrival == 0 || arrival > now) {
		arrival = now;
	}

	rc = dgr_frame_parse(&f, buf, len, NULL);
	if (rc < 0) {
		dgr_count_malformed(c, -rc, (uint32_t)len);
		return;
	}
	DGR_ADD(c->st.frames_rx, 1);
	DGR_ADD(c->st.bytes_rx, len);
	if (f.hdr.dst_id != c->o.id || f.hdr.src_id != c->o.peer_id) {
		wrong_ids(c, &f.hdr, len);
		return;
	}
	ack_only = f.hdr.flags == DGR_FRAME_FLAG_ACK_ONLY;
	if (!ack_only) {
		int reason = check_frame(c, &f);

		if (reason) {
			dgr_count_malformed(c, reason, (uint32_t)len);
			return;
		}
	}
	verdict = dgr_dupfilter_check(&x->dup, f.hdr.frame_seq);
	if (verdict == DGR_SEQ_AHEAD) {
		DGR_ADD(c->st.frames_out_of_window, 1);
		return;
	}
	sig = frame_sig(&f, len);
	if (verdict == DGR_SEQ_DUP && sig != x->sig[f.hdr.frame_seq % DGR_SEQ_WINDOW]) {
		/*
		 * A frame_seq taken before, with other contents: not a copy sent
		 * again. One of the two was not the peer's (forged, or another
		 * sender's), and no receiver can tell which: the second is taken too,
		 * so that a forged frame that took the real one's number does not
		 * cost the real frame's transaction (issue 29: one forged frame
		 * stalled a stream for good). Counted and named.
		 */
		DGR_ADD(c->st.frames_conflicting, 1);
		__atomic_store_n(&c->conflict_seq, 0x10000u | f.hdr.frame_seq, __ATOMIC_RELAXED);
		conflicting = true;
	} else if (verdict != DGR_SEQ_NEW) {
		DGR_ADD(c->st.duplicate_frames, 1);
		if (c->o.acks && !ack_only) {
			/* acknowledge again: our earlier ACK may have been lost */
			push_ack_ev(x, DGR_ACKEV_TO_ACK_REAL, f.hdr.frame_seq, 1);
		}
		return;
	}
	if (conflicting) {
		if (ack_only) {
			return;
		}
		goto messages; /* its number is taken: nothing more to record or acknowledge */
	}
	dgr_dupfilter_record(&x->dup, f.hdr.frame_seq);
	x->sig[f.hdr.frame_seq % DGR_SEQ_WINDOW] = sig;
	__atomic_store_n(&c->rx_highest, 0x10000u | x->dup.highest, __ATOMIC_RELAXED);
	DGR_ADD(c->st.frames_accepted, 1);
	__atomic_store_n(&c->st.frames_missing, x->dup.missing, __ATOMIC_RELAXED);
	if (f.hdr.ack_count > 0) {
		peer_acked(x, &f.hdr);
	}
	if (c->o.acks) {
		push_ack_ev(x, ack_only ? DGR_ACKEV_TO_ACK : DGR_ACKEV_TO_ACK_REAL, f.hdr.frame_seq,
			    1);
	}
	if (ack_only) {
		DGR_TP(frame_rx, c->o.conn_index, f.hdr.frame_seq, (uint32_t)len, 0,
		       f.hdr.ack_start, f.hdr.ack_count);
		return;
	}
messages:
	while (dgr_frame_next_msg(&f, &m, NULL) == 1) {
		struct dgr_txn_info done;
		struct dgr_port *p;
		int reason;
		int r;

		msgs++;
		p = check_msg(c, &m, &reason); /* passed check_frame(): resolves the port */
		if (m.flag_addr != DGR_NO_FLAG) {
			m.flag_addr += p->base; /* the reassembler reports wire addresses */
		}
		r = dgr_reasm_add(c->reasm, &m, now, f.hdr.frame_seq, &done);
		if (r == DGR_REASM_DUPLICATE) {
			DGR_ADD(c->st.duplicate_msgs, 1);
			continue;
		}
		if (r < 0) {
			if (r == -DGR_E_NOSPACE) {
				DGR_ADD(c->st.reasm_overflow, 1);
			} else {
				dgr_count_malformed(c, -r, m.data_len);
			}
			continue;
		}
		DGR_ADD(c->st.msgs_rx, 1);
		if (m.data_len && m.flag_addr == DGR_NO_FLAG && p->path == DGR_DIR_RX) {
			/* an FPGA's RX stream ends every write with its buffer's flag */
			DGR_ADD(c->st.writes_without_flag, 1);
			__atomic_store_n(&c->flagless_seq, 0x10000u | f.hdr.frame_seq,
					 __ATOMIC_RELAXED);
		}
		if (m.data_len) {
			memcpy(p->mem + m.data_addr, m.data, m.data_len);
			DGR_ADD(c->st.data_bytes_rx, m.data_len);
		}
		if (r == DGR_REASM_COMPLETE) {
			complete_txn(x, p, &done, f.hdr.frame_seq, now, arrival);
		}
	}
	DGR_TP(frame_rx, c->o.conn_index, f.hdr.frame_seq, (uint32_t)len, msgs, f.hdr.ack_start,
	       f.hdr.ack_count);
}

static void on_expired(const struct dgr_txn_info *txn, void *ctx)
{
	struct dgr_conn *c = ctx;

	(void)txn;
	DGR_ADD(c->st.incomplete_timed_out, 1);
}

/*
 * --rx-holdoff-us: the receive thread sleeps on a timer instead of waiting on
 * the socket, as a NIC's interrupt moderation (rx-usecs) does. A thread
 * waiting on the socket is woken by the sender's kernel for each burst (on a
 * VM a wake-up can cost a hypercall on both sides); asleep on a timer, the
 * kernel just queues the frames and the thread takes them all at once.
 */
static void rx_holdoff(unsigned int us)
{
	struct timespec ts = { .tv_sec = us / 1000000u, .tv_nsec = (long)(us % 1000000u) * 1000 };

	nanosleep(&ts, NULL);
}

/* Thread body: returns NULL. */
void *dgr_rx_thread(void *arg)
{
	struct dgr_conn *c = arg;
	struct dgr_rx_pkt pkts[DGR_TRANSPORT_MAX_BATCH];
	struct dgr_thread_stats *ts = &c->ts[DGR_T_RX];
	struct dgr_rx_ctx x = { .c = c };
	char err[DGR_ERRBUF_SIZE];
	uint64_t last_expire = dgr_now_ns();
	uint64_t incomplete_ns = (uint64_t)c->o.incomplete_ms * 1000000ull;
	int timeout = c->o.busy_wait ? 0 : 20;
	int last_n = 0;
	uint64_t rnd = c->o.rx_drop_seed ? c->o.rx_drop_seed : 0x9E3779B97F4A7C15ull;
	const struct dgr_addr *peer = dgr_transport_peer(c->t);
	enum dgr_transport_kind kind = dgr_transport_kind_of(c->t);

	dgr_dupfilter_init(&x.dup);
	if (!dgr_thread_begin(c, DGR_T_RX)) {
		return NULL;
	}
	while (!dgr_conn_stopping(c)) {
		/* frames came in a batch: the traffic is dense, look without waiting */
		bool holdoff = c->o.rx_holdoff_us && timeout != 0 && last_n >= 2;
		int n = dgr_transport_recv(c->t, pkts, DGR_TRANSPORT_MAX_BATCH,
					   holdoff ? 0 : timeout, err);
		uint64_t now;

		if (n == 0 && holdoff) {
			rx_holdoff(c->o.rx_holdoff_us);
			DGR_ADD(c->st.rx_holdoffs, 1);
			last_n = 0; /* then wait on the socket if nothing came meanwhile */
			continue;
		}
		last_n = n;
		now = dgr_now_ns();
		DGR_ADD(ts->loops, 1);
		if (n < 0) {
			dgr_conn_fail(c, n, err);
			break;
		}
		if (n == 0) {
			DGR_ADD(ts->idle_waits, 1);
		} else {
			DGR_ADD(ts->syscalls, 1);
		}
		x.notify_worker = false;
		x.notify_tx = false;
		for (int i = 0; i < n; i++) {
			DGR_ADD(ts->items, 1);
			DGR_ADD(ts->bytes, pkts[i].len);
			if (peer && !dgr_addr_equal(kind, &pkts[i].src, peer)) {
				/* not our peer's: never trusted, whatever ids it carries */
				DGR_ADD(c->st.frames_foreign, 1);
				c->last_foreign = pkts[i].src; /* read after the thread ended */
				continue;
			}
			if (c->o.rx_drop_ppm && pkts[i].proto == DGR_PROTO_DGRDMA) {
				/* xorshift64: fault injection, as a lossy link would drop */
				rnd ^= rnd << 13;
				rnd ^= rnd >> 7;
				rnd ^= rnd << 17;
				if (rnd % 1000000u < c->o.rx_drop_ppm) {
					DGR_ADD(c->injected_drops, 1);
					continue;
				}
			}
			if (pkts[i].proto == DGR_PROTO_DGRDMA) {
				dgr_rx_frame(&x, pkts[i].data, pkts[i].len, now,
					     pkts[i].arrival_ns);
			} else if (pkts[i].proto == DGR_PROTO_INVALID) {
				dgr_count_malformed(c, DGR_E_UDP_SHORT, (uint32_t)pkts[i].len);
			}
			if (pkts[i].proto == DGR_PROTO_DCP) {
				/* an answer to dgr_conn_dcp(), or to a DCP doorbell (ignored) */
				dgr_rx_dcp(c, pkts[i].data, pkts[i].len);
			}
		}
		if (x.notify_worker) {
			dgr_event_notify(&c->ev_worker);
		}
		if (x.notify_tx) {
			dgr_event_notify(&c->ev_tx);
		}
		if (incomplete_ns && now - last_expire >= incomplete_ns / 4) {
			last_expire = now;
			dgr_reasm_expire(c->reasm, now - incomplete_ns, on_expired, c);
		}
	}
	dgr_thread_cpu(ts);
	return NULL;
}
