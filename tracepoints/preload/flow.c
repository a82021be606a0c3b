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
	uint16_t conn;
	struct dgr_reasm *reasm;
	struct pl_answer fifo[PL_FIFO_SIZE];
	unsigned int fifo_head, fifo_count;
	struct pl_flag_map rx_data;   /* flags of the data the host receives: its buffers */
	struct pl_flag_map tx_data;   /* flags of the data the host sends: the FPGA's buffers */
	struct pl_flag_map rx_credit; /* flags of the doorbells the host receives (TX path) */
	bool sent_any;
	uint16_t last_tx_seq;
};

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
	pthread_mutex_unlock(&f->lock);
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

void pl_flow_rx(struct pl_flow *f, const uint8_t *frame, size_t len, uint64_t arrival_ns,
		uint64_t now_ns)
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
 * A doorbell (to flag_addr, in the frame numbered seq; 0 for a DCP write): it
 * answers the oldest transaction completed and not yet answered.
 */
static void doorbell_out(struct pl_flow *f, uint32_t flag_addr, uint16_t seq)
{
	struct pl_answer a = { .txn_id = PL_UNANSWERED, .buffer = PL_NO_BUFFER };
	uint64_t latency_ns = 0;

	if (f->fifo_count) {
		a = f->fifo[f->fifo_head];
		f->fifo_head = (f->fifo_head + 1) & (PL_FIFO_SIZE - 1);
		f->fifo_count--;
	}
	/*
	 * fired before the send call: the event's time is the hand-over (send_call_ns
	 * 0), and the latency runs to it; 0 when the doorbell answers nothing known
	 */
	if (a.arrival_ns && DGR_TP_ENABLED(doorbell_sent)) {
		uint64_t now = dgr_clock_ns(CLOCK_MONOTONIC);

		latency_ns = now > a.arrival_ns ? now - a.arrival_ns : 0;
	}
	DGR_TP(doorbell_sent, f->conn, a.buffer, a.txn_id, flag_addr, seq, 0, latency_ns);
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

void pl_flow_dcp_tx(struct pl_flow *f, const uint8_t *pkt, size_t len, uint32_t bell_lo,
		    uint32_t bell_hi)
{
	struct dcp_packet p;

	if (dcp_decode(pkt, len, &p, NULL) < 0 || p.kind != DCP_KIND_WRITE || p.addr < bell_lo ||
	    p.addr > bell_hi) {
		return; /* not a doorbell: a property access of the host's own */
	}
	pthread_mutex_lock(&f->lock);
	doorbell_out(f, p.addr, 0);
	pthread_mutex_unlock(&f->lock);
}
