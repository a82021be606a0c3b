// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Decoding of an unmodified host's frames into the "dgrdma" provider's events
 * (flow.h says what and why).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dgrdma/clock.h>
#include <dgrdma/dcp.h>
#include <dgrdma/reassembly.h>
#include <dgrdma/wire.h>

#include "dgrdma-tp.h"
#include "flow.h"

#define PL_REASM_MAX  4096 /* incomplete transactions held per flow */
#define PL_FIFO_SIZE  1024 /* completed transactions awaiting their doorbell (power of 2) */
#define PL_FLAG_SLOTS 1024 /* flag addresses named per map (power of 2) */
#define PL_NO_BUFFER  0xFFFFu
#define PL_EXPIRE_NS  1000000000ull /* an incomplete transaction older than this is dropped */
#define PL_UNANSWERED 0xFFFFFFFFu   /* txn_id of a doorbell with nothing to answer */
#define PL_PEERS      4		    /* senders of DG-RDMA frames kept per flow */

/* Flag addresses numbered in the order first seen: the buffer index of a host or FPGA buffer. */
struct pl_flag_map {
	uint32_t addr[PL_FLAG_SLOTS];
	uint16_t index[PL_FLAG_SLOTS];
	uint8_t used[PL_FLAG_SLOTS];
	uint16_t count;
};

struct pl_answer {
	uint32_t txn_id;
	uint16_t buffer;
	uint64_t arrival_ns; /* of the frame that completed the transaction; 0 for none */
};

struct pl_flow {
	pthread_mutex_t lock;
	struct pl_flow *next_all; /* every flow, for the DCP doorbells (set once) */
	uint16_t conn;
	struct dgr_reasm *reasm;
	struct pl_answer fifo[PL_FIFO_SIZE];
	unsigned int fifo_head, fifo_count;
	struct pl_flag_map rx_data;   /* flags of the data the host receives: its buffers */
	struct pl_flag_map tx_data;   /* flags of the data the host sends: the FPGA's buffers */
	struct pl_flag_map rx_credit; /* flags of the doorbells the host receives (TX path) */
	bool sent_any;
	uint16_t last_tx_seq;
	struct pl_peer connected; /* the socket's connected address, len 0 if none */
	struct pl_peer peers[PL_PEERS];
	/* written under lock, read without it to pass over flows with no peer */
	uint8_t npeers;
};

/* Every flow made, newest first: flows are never freed, so the list only grows. */
static pthread_mutex_t pl_all_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pl_flow *pl_all;

/* True when addr has been named in m. */
static bool flag_known(const struct pl_flag_map *m, uint32_t addr)
{
	unsigned int slot = (addr >> 2) & (PL_FLAG_SLOTS - 1);

	for (unsigned int i = 0; i < PL_FLAG_SLOTS; i++) {
		unsigned int s = (slot + i) & (PL_FLAG_SLOTS - 1);

		if (!m->used[s]) {
			return false;
		}
		if (m->addr[s] == addr) {
			return true;
		}
	}
	return false;
}

/*
 * Whether a flag-only message is a doorbell. A zero-length data transaction (a
 * discontinuity, an empty EOF buffer) looks the same on the wire; a host tells them apart by
 * the address, which the tracer does not know. So: a doorbell carries the plain doorbell
 * value (docs/protocol.md), and goes to none of the flags the data of that direction went to.
 */
static bool is_doorbell(const struct dgr_msg *m, const struct pl_flag_map *data_flags)
{
	return dgr_msg_is_flag_only(m) && m->flag_value == DGR_DOORBELL_VALUE &&
	       !flag_known(data_flags, m->flag_addr);
}

/* Returns the buffer index of flag address addr, naming it when new; PL_NO_BUFFER when full. */
static uint16_t flag_index(struct pl_flag_map *m, uint32_t addr)
{
	unsigned int slot = (addr >> 2) & (PL_FLAG_SLOTS - 1);

	for (unsigned int i = 0; i < PL_FLAG_SLOTS; i++) {
		unsigned int s = (slot + i) & (PL_FLAG_SLOTS - 1);

		if (!m->used[s]) {
			if (m->count >= PL_FLAG_SLOTS / 2) {
				return PL_NO_BUFFER; /* keep probes short: half full at most */
			}
			m->used[s] = 1;
			m->addr[s] = addr;
			m->index[s] = m->count++;
			return m->index[s];
		}
		if (m->addr[s] == addr) {
			return m->index[s];
		}
	}
	return PL_NO_BUFFER;
}

struct pl_flow *pl_flow_new(uint16_t conn)
{
	struct pl_flow *f = calloc(1, sizeof(*f));

	if (!f) {
		return NULL;
	}
	f->reasm = dgr_reasm_new(PL_REASM_MAX, NULL);
	if (!f->reasm) {
		free(f);
		return NULL;
	}
	pthread_mutex_init(&f->lock, NULL);
	f->conn = conn;
	pthread_mutex_lock(&pl_all_lock);
	f->next_all = pl_all;
	/* published whole: pl_flow_dcp_tx() walks the list without the lock */
	__atomic_store_n(&pl_all, f, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&pl_all_lock);
	return f;
}

void pl_flow_reset(struct pl_flow *f, uint16_t conn)
{
	pthread_mutex_lock(&f->lock);
	dgr_reasm_expire(f->reasm, UINT64_MAX, NULL, NULL);
	f->conn = conn;
	f->fifo_head = f->fifo_count = 0;
	memset(&f->rx_data, 0, sizeof(f->rx_data));
	memset(&f->tx_data, 0, sizeof(f->tx_data));
	memset(&f->rx_credit, 0, sizeof(f->rx_credit));
	f->sent_any = false;
	f->last_tx_seq = 0;
	f->connected.len = 0;
	__atomic_store_n(&f->npeers, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&f->lock);
}

void pl_flow_close(struct pl_flow *f)
{
	pthread_mutex_lock(&f->lock);
	f->connected.len = 0;
	__atomic_store_n(&f->npeers, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&f->lock);
}

void pl_flow_connect(struct pl_flow *f, const struct pl_peer *peer)
{
	pthread_mutex_lock(&f->lock);
	f->connected = *peer;
	pthread_mutex_unlock(&f->lock);
}

static bool same_peer(const struct pl_peer *a, const struct pl_peer *b)
{
	return a->len && a->len == b->len && !memcmp(a->addr, b->addr, a->len);
}

/* True when f (locked) received DG-RDMA frames from peer. */
static bool has_peer(const struct pl_flow *f, const struct pl_peer *peer)
{
	for (unsigned int i = 0; i < f->npeers; i++) {
		if (same_peer(&f->peers[i], peer)) {
			return true;
		}
	}
	return false;
}

/* The sender of a frame f (locked) received: one of its peers from now on. */
static void note_peer(struct pl_flow *f, const struct pl_peer *from)
{
	if (!from->len) {
		from = &f->connected;
	}
	if (!from->len || has_peer(f, from) || f->npeers == PL_PEERS) {
		return;
	}
	f->peers[f->npeers] = *from;
	__atomic_store_n(&f->npeers, f->npeers + 1, __ATOMIC_RELAXED);
}

/* A data transaction with a flag completed: its doorbell is now owed. */
static void owe_doorbell(struct pl_flow *f, uint32_t txn_id, uint16_t buffer, uint64_t arrival_ns)
{
	if (f->fifo_count == PL_FIFO_SIZE) {
		/* the host never answers: forget the oldest, whose doorbell is orphaned */
		f->fifo_head = (f->fifo_head + 1) & (PL_FIFO_SIZE - 1);
		f->fifo_count--;
	}
	f->fifo[(f->fifo_head + f->fifo_count) & (PL_FIFO_SIZE - 1)] =
	    (struct pl_answer){ .txn_id = txn_id, .buffer = buffer, .arrival_ns = arrival_ns };
	f->fifo_count++;
}

static void rx_message(struct pl_flow *f, const struct dgr_frame *fr, const struct dgr_msg *m,
		       uint64_t arrival_ns, uint64_t now_ns)
{
	struct dgr_txn_info done;
	struct dgr_flag_word fw;
	uint16_t buffer;
	int rc;

	if (is_doorbell(m, &f->rx_data)) {
		/* a doorbell from the FPGA: the credit of one of its buffers (TX path) */
		buffer = flag_index(&f->rx_credit, m->flag_addr);
		DGR_TP(doorbell_rx, f->conn, buffer, m->flag_addr, fr->hdr.frame_seq);
		return;
	}
	rc = dgr_reasm_add(f->reasm, m, arrival_ns, fr->hdr.frame_seq, &done);
	if (rc == -DGR_E_NOSPACE) {
		dgr_reasm_expire(f->reasm, now_ns > PL_EXPIRE_NS ? now_ns - PL_EXPIRE_NS : 0, NULL,
				 NULL);
		rc = dgr_reasm_add(f->reasm, m, arrival_ns, fr->hdr.frame_seq, &done);
	}
	if (rc < 0) {
		DGR_TP(malformed, f->conn, -rc, (uint32_t)fr->len);
		return;
	}
	if (rc != DGR_REASM_COMPLETE || done.flag_addr == DGR_NO_FLAG) {
		return;
	}
	buffer = flag_index(&f->rx_data, done.flag_addr);
	dgr_flag_decode(done.flag_value, &fw);
	DGR_TP(txn_complete, f->conn, done.txn_id, buffer, done.bytes, fw.opcode, done.flag_addr,
	       fr->hdr.frame_seq, now_ns > arrival_ns ? now_ns - arrival_ns : 0, arrival_ns);
	owe_doorbell(f, done.txn_id, buffer, arrival_ns);
}

void pl_flow_rx(struct pl_flow *f, const uint8_t *frame, size_t len, const struct pl_peer *from,
		uint64_t arrival_ns, uint64_t now_ns)
{
	struct dgr_frame fr;
	struct dgr_msg m;
	uint16_t msgs = 0;
	int rc;

	pthread_mutex_lock(&f->lock);
	rc = dgr_frame_parse(&fr, frame, len, NULL);
	if (rc < 0) {
		DGR_TP(malformed, f->conn, -rc, (uint32_t)len);
		goto out;
	}
	note_peer(f, from);
	if (fr.hdr.ack_count) {
		DGR_TP(ack_rx, f->conn, fr.hdr.ack_start, fr.hdr.ack_count);
	}
	while ((rc = dgr_frame_next_msg(&fr, &m, NULL)) > 0) {
		msgs++;
		rc = dgr_msg_validate(&m, 0, false, NULL);
		if (rc < 0) {
			DGR_TP(malformed, f->conn, -rc, (uint32_t)len);
			continue;
		}
		rx_message(f, &fr, &m, arrival_ns, now_ns);
	}
	if (rc < 0) {
		DGR_TP(malformed, f->conn, -rc, (uint32_t)len);
	}
	DGR_TP(frame_rx, f->conn, fr.hdr.frame_seq, (uint32_t)len, msgs, fr.hdr.ack_start,
	       fr.hdr.ack_count);
out:
	pthread_mutex_unlock(&f->lock);
}

/*
 * A doorbell of flow conn (to flag_addr, in the frame numbered seq; 0 for a
 * DCP write) answering a (txn_id PL_UNANSWERED for none).
 */
static void doorbell_fire(uint16_t conn, const struct pl_answer *a, uint32_t flag_addr,
			  uint16_t seq)
{
	uint64_t latency_ns = 0;

	/*
	 * fired before the send call: the event's time is the hand-over (send_call_ns
	 * 0), and the latency runs to it; 0 when the doorbell answers nothing known
	 */
	if (a->arrival_ns && DGR_TP_ENABLED(doorbell_sent)) {
		uint64_t now = dgr_clock_ns(CLOCK_MONOTONIC);

		latency_ns = now > a->arrival_ns ? now - a->arrival_ns : 0;
	}
	/*
	 * the application's consumer is not seen: its side unknown (consumer_tid 0);
	 * the completion is the library's own txn_complete (since_complete_ns 0)
	 */
	DGR_TP(doorbell_sent, conn, a->buffer, a->txn_id, flag_addr, seq, 0, latency_ns,
	       &(struct dgr_tp_bell_sides){ 0 });
}

/*
 * A doorbell on f's socket (f locked): it answers the oldest transaction of f
 * completed and not yet answered.
 */
static void doorbell_out(struct pl_flow *f, uint32_t flag_addr, uint16_t seq)
{
	struct pl_answer a = { .txn_id = PL_UNANSWERED, .buffer = PL_NO_BUFFER };

	if (f->fifo_count) {
		a = f->fifo[f->fifo_head];
		f->fifo_head = (f->fifo_head + 1) & (PL_FIFO_SIZE - 1);
		f->fifo_count--;
	}
	doorbell_fire(f->conn, &a, flag_addr, seq);
}

static void tx_message(struct pl_flow *f, const struct dgr_frame *fr, const struct dgr_msg *m)
{
	struct dgr_flag_word fw;

	if (is_doorbell(m, &f->tx_data)) {
		doorbell_out(f, m->flag_addr, fr->hdr.frame_seq);
		return;
	}
	if (m->flag_addr == DGR_NO_FLAG || m->msg_seq != dgr_msg_txn_parts(m)) {
		return; /* not the last fragment of a transaction that owes a doorbell */
	}
	dgr_flag_decode(m->flag_value, &fw);
	DGR_TP(txn_sent, f->conn, m->txn_id, flag_index(&f->tx_data, m->flag_addr), fw.length,
	       fr->hdr.frame_seq);
}

void pl_flow_tx(struct pl_flow *f, const uint8_t *frame, size_t len)
{
	struct dgr_frame fr, count;
	struct dgr_msg m;
	uint16_t msgs = 0;
	uint8_t resend;

	pthread_mutex_lock(&f->lock);
	if (dgr_frame_parse(&fr, frame, len, NULL) < 0) {
		goto out; /* not ours to judge: the receiver rejects it */
	}
	/* a frame_seq not newer than the last one sent is a resend */
	resend = f->sent_any && dgr_seq_diff(fr.hdr.frame_seq, f->last_tx_seq) <= 0;
	if (!resend) {
		f->last_tx_seq = fr.hdr.frame_seq;
		f->sent_any = true;
	}
	/*
	 * The doorbells' events first: their time is the hand-over, and the frame's
	 * own events after them stay out of the latency they close. A resend's
	 * doorbells were counted when it was first sent.
	 */
	count = fr;
	while (dgr_frame_next_msg(&count, &m, NULL) > 0) {
		if (!resend) {
			tx_message(f, &fr, &m);
		}
		msgs++;
	}
	DGR_TP(frame_tx, f->conn, fr.hdr.frame_seq, (uint32_t)len, msgs, fr.hdr.ack_start,
	       fr.hdr.ack_count, resend);
	if (fr.hdr.ack_count) {
		DGR_TP(ack_tx, f->conn, fr.hdr.ack_start, fr.hdr.ack_count);
	}
out:
	pthread_mutex_unlock(&f->lock);
}

/*
 * Whether g (locked) may answer a DCP doorbell sent on own's socket to peer to
 * (len 0: not known): g received frames from to, or g is own and knows no
 * better (no peer of its own, or to not known).
 */
static bool answers_for(const struct pl_flow *g, const struct pl_flow *own,
			const struct pl_peer *to)
{
	if (!to->len) {
		return g == own;
	}
	return has_peer(g, to) || (g == own && g->npeers == 0);
}

/*
 * Of the flows that may answer a DCP doorbell on own's socket to to, the one
 * whose oldest unanswered transaction arrived first; NULL when none owes one.
 * Each flow is locked in turn, never two at once.
 */
static struct pl_flow *oldest_owing(struct pl_flow *own, const struct pl_peer *to)
{
	struct pl_flow *best = NULL, *g;
	uint64_t best_arrival = UINT64_MAX;

	for (g = __atomic_load_n(&pl_all, __ATOMIC_ACQUIRE); g; g = g->next_all) {
		if (g != own && !__atomic_load_n(&g->npeers, __ATOMIC_RELAXED)) {
			continue; /* no stream: not worth its lock */
		}
		pthread_mutex_lock(&g->lock);
		if (g->fifo_count && answers_for(g, own, to) &&
		    g->fifo[g->fifo_head].arrival_ns < best_arrival) {
			best = g;
			best_arrival = g->fifo[g->fifo_head].arrival_ns;
		}
		pthread_mutex_unlock(&g->lock);
	}
	return best;
}

void pl_flow_dcp_tx(struct pl_flow *f, const uint8_t *pkt, size_t len, uint32_t bell_lo,
		    uint32_t bell_hi, const struct pl_peer *to)
{
	const struct pl_answer none = { .txn_id = PL_UNANSWERED, .buffer = PL_NO_BUFFER };
	struct pl_peer dst;
	struct dcp_packet p;
	struct pl_flow *g;

	if (dcp_decode(pkt, len, &p, NULL) < 0 || p.kind != DCP_KIND_WRITE || p.addr < bell_lo ||
	    p.addr > bell_hi) {
		return; /* not a doorbell: a property access of the host's own */
	}
	pthread_mutex_lock(&f->lock);
	dst = to->len ? *to : f->connected;
	pthread_mutex_unlock(&f->lock);
	/*
	 * Between the search and the answer another thread may answer or close the
	 * flow found: look again until one still owes, or none does.
	 */
	while ((g = oldest_owing(f, &dst))) {
		pthread_mutex_lock(&g->lock);
		if (g->fifo_count && answers_for(g, f, &dst)) {
			doorbell_out(g, p.addr, 0);
			pthread_mutex_unlock(&g->lock);
			return;
		}
		pthread_mutex_unlock(&g->lock);
	}
	pthread_mutex_lock(&f->lock);
	doorbell_fire(f->conn, &none, p.addr, 0);
	pthread_mutex_unlock(&f->lock);
}
