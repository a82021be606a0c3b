/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The worker threads: on the RX path the consumer (takes full buffers in
 * buffer order, checks the ramp, runs the sink, releases the buffer and
 * queues its doorbell); on the TX path the producer (waits for a local buffer
 * and a credit, fills the buffer, hands it to the transmit thread). A
 * DGR_DIR_BOTH connection runs both, the producer in DGR_T_WORKER2.
 */
#include <string.h>

#include "conn_priv.h"

/* Waits for the worker event (or spins), at most 20 ms; t is the waiting thread. */
static void worker_wait(struct dgr_conn *c, int t, bool (*ready)(struct dgr_conn *, void *),
			void *arg)
{
	uint32_t seen;

	if (c->o.busy_wait) {
		return;
	}
	seen = dgr_event_prepare(&c->ev_worker);
	if (ready(c, arg) || dgr_conn_stopping(c)) {
		dgr_event_cancel(&c->ev_worker);
		return;
	}
	DGR_ADD(c->ts[t].idle_waits, 1);
	dgr_event_wait(&c->ev_worker, seen, 20000000ull);
}

static bool flag_set(struct dgr_conn *c, void *arg)
{
	unsigned int idx = *(unsigned int *)arg;

	return __atomic_load_n(&c->rxp->flags[idx], __ATOMIC_ACQUIRE) != 0;
}

/*
 * Whether the consumer keeps the doorbell it just queued (held so far, this
 * one included; the first released at first_ns) for the next: only while it
 * is behind (the following buffer is already full) and quick (this buffer's
 * work and the group's age below doorbell_hold_us), so a group leaves in one
 * frame, the way a transmit thread that finds several queued sends them.
 * A host that answers one buffer at a time while behind keeps an FPGA with
 * report_data_loss in the vicious cycle (docs/fpga.md): every buffer it frees
 * alone goes to a discontinuity.
 */
static bool hold_doorbell(struct dgr_conn *c, unsigned int held, unsigned int following,
			  const struct dgr_doorbell_req *db, uint64_t first_ns)
{
	uint64_t hold_ns = (uint64_t)c->o.doorbell_hold_us * 1000u;

	return dgr_inline_doorbells(c) && held < c->o.doorbell_batch &&
	       db->t_release - db->t_acquire < hold_ns && db->t_release - first_ns < hold_ns &&
	       __atomic_load_n(&c->rxp->flags[following], __ATOMIC_ACQUIRE) != 0;
}

static void consume_loop(struct dgr_conn *c)
{
	struct dgr_thread_stats *ts = &c->ts[DGR_T_WORKER];
	struct dgr_port *p = c->rxp;
	unsigned int next = 0;
	unsigned int held = 0;	    /* doorbells queued but not yet sent or handed on */
	uint64_t held_first_ns = 0; /* when the first of them was released */

	while (!dgr_conn_stopping(c)) {
		struct dgr_buffer_view v;
		struct dgr_doorbell_req db;
		struct dgr_flag_word fw;
		uint32_t flag;
		uint64_t t_acquire;
		int rc = 0;

		DGR_ADD(ts->loops, 1);
		flag = __atomic_load_n(&p->flags[next], __ATOMIC_ACQUIRE);
		if (flag == 0) {
			worker_wait(c, DGR_T_WORKER, flag_set, &next);
			continue;
		}
		t_acquire = dgr_now_ns();
		dgr_flag_decode(flag, &fw);
		memset(&v, 0, sizeof(v));
		v.buffer = (uint16_t)next;
		v.txn_id = c->meta[next].txn_id;
		v.data = p->mem + (size_t)next * c->size;
		v.len = fw.length < c->size ? fw.length : c->size;
		v.flag_value = flag;
		v.opcode = fw.opcode;
		v.eof = fw.eof;
		v.truncated = fw.truncated;
		DGR_TP(buffer_acquire, c->o.conn_index, v.buffer, v.txn_id);
		if (fw.opcode == DGR_OPCODE_SAMPLES && c->o.check_ramp) {
			dgr_ramp_check(&c->ramp, v.data, v.len);
			DGR_ADD(c->st.samples_received, v.len / DGR_SAMPLE_BYTES);
			if (c->ramp.lost != c->st.samples_lost) {
				DGR_ADD(c->st.samples_lost, c->ramp.lost - c->st.samples_lost);
			}
			if (c->ramp.gaps != c->st.ramp_gaps) {
				DGR_ADD(c->st.ramp_gaps, c->ramp.gaps - c->st.ramp_gaps);
			}
		} else if (fw.opcode == DGR_OPCODE_DISCONTINUITY) {
			DGR_ADD(c->st.discontinuities, 1);
		}
		if (fw.eof) {
			DGR_ADD(c->st.eof_received, 1);
		}
		if (c->consume) {
			rc = c->consume(c->ctx, &v);
		}
		DGR_ADD(ts->items, 1);
		DGR_ADD(ts->bytes, v.len);
		db.buffer = v.buffer;
		db.txn_id = v.txn_id;
		db.t_arrival = c->meta[next].t_arrival;
		db.t_complete = c->meta[next].t_complete;
		db.t_acquire = t_acquire;
		db.t_release = dgr_now_ns();
		__atomic_store_n(&p->flags[next], 0, __ATOMIC_RELEASE);
		/* held_ns: the trace's acquire time without buffer_acquire (docs/tracepoints.md) */
		DGR_TP(buffer_release, c->o.conn_index, v.buffer, v.txn_id,
		       db.t_release - t_acquire);
		/* at most nbuf doorbells are pending and the ring holds more: never full */
		while (!dgr_spsc_push(&c->doorbells, &db)) {
			DGR_ADD(c->st.tx_ring_full, 1);
			dgr_event_notify(&c->ev_tx);
			if (dgr_conn_stopping(c)) {
				return;
			}
		}
		__atomic_store_n(&c->consumed, c->consumed + 1, __ATOMIC_RELEASE);
		DGR_ADD(c->st.buffers_consumed, 1);
		DGR_TP(doorbell_queued, c->o.conn_index, v.buffer, v.txn_id,
		       p->base + c->o.peer_buffers * c->size + 4u * v.buffer);
		if (held++ == 0) {
			held_first_ns = db.t_release;
		}
		if (rc >= 0 && !fw.eof &&
		    hold_doorbell(c, held, (next + 1) % c->nbuf, &db, held_first_ns)) {
			DGR_ADD(c->st.doorbells_held, 1);
		} else {
			held = 0;
			if (!dgr_tx_inline(c)) {
				dgr_event_notify(&c->ev_tx);
			}
		}
		if (rc < 0) {
			dgr_conn_fail(c, rc, "the consumer stopped the run");
			return;
		}
		if (fw.eof && !c->o.eof_continues) {
			dgr_conn_mark_ended(c, DGR_DIR_RX);
		}
		next = (next + 1) % c->nbuf;
	}
}

struct produce_need {
	uint64_t k;
};

static bool can_produce(struct dgr_conn *c, void *arg)
{
	uint64_t k = ((struct produce_need *)arg)->k;

	return k < __atomic_load_n(&c->local_freed, __ATOMIC_ACQUIRE) + c->nbuf &&
	       k < __atomic_load_n(&c->credits, __ATOMIC_ACQUIRE) + c->o.peer_buffers;
}

static bool all_credited(struct dgr_conn *c, void *arg)
{
	uint64_t k = ((struct produce_need *)arg)->k;

	return __atomic_load_n(&c->credits, __ATOMIC_ACQUIRE) >= k;
}

/* The producer; t is its thread index (DGR_T_WORKER, or DGR_T_WORKER2 on both paths). */
static void produce_loop(struct dgr_conn *c, int t)
{
	struct dgr_thread_stats *ts = &c->ts[t];
	struct produce_need need = { .k = 0 };
	bool stalled = false;

	while (!dgr_conn_stopping(c)) {
		struct dgr_buffer_view v;
		struct dgr_txn_req req;
		int rc;

		DGR_ADD(ts->loops, 1);
		if (!can_produce(c, &need)) {
			if (!stalled && need.k >= __atomic_load_n(&c->credits, __ATOMIC_ACQUIRE) +
						      c->o.peer_buffers) {
				DGR_ADD(c->st.credit_stalls, 1);
				stalled = true;
			}
			worker_wait(c, t, can_produce, &need);
			continue;
		}
		stalled = false;
		memset(&v, 0, sizeof(v));
		v.buffer = (uint16_t)(need.k % c->nbuf);
		v.data = c->txp->mem + (size_t)v.buffer * c->size;
		v.len = c->size;
		rc = c->produce(c->ctx, &v);
		if (rc < 0) {
			dgr_conn_fail(c, rc, "the producer stopped the run");
			return;
		}
		if (rc == 0) {
			break;
		}
		if (v.len > c->size) {
			v.len = c->size;
		}
		req.local = v.buffer;
		req.remote = (uint16_t)(need.k % c->o.peer_buffers);
		req.len = v.len;
		req.flag_value = dgr_flag_encode(v.len, v.eof, false, v.opcode);
		while (!dgr_spsc_push(&c->txns, &req)) {
			DGR_ADD(c->st.tx_ring_full, 1);
			dgr_event_notify(&c->ev_tx);
			if (dgr_conn_stopping(c)) {
				return;
			}
		}
		need.k++;
		__atomic_store_n(&c->produced, need.k, __ATOMIC_RELEASE);
		DGR_ADD(ts->items, 1);
		DGR_ADD(ts->bytes, v.len);
		dgr_event_notify(&c->ev_tx);
		if (v.eof) {
			break;
		}
	}
	/* the stream has ended once the FPGA has released every buffer we sent */
	while (!dgr_conn_stopping(c) && !all_credited(c, &need)) {
		worker_wait(c, t, all_credited, &need);
	}
	if (!dgr_conn_stopping(c)) {
		dgr_conn_mark_ended(c, DGR_DIR_TX);
	}
}

/* Thread body: returns NULL. */
void *dgr_worker_thread(void *arg)
{
	struct dgr_conn *c = arg;

	if (!dgr_thread_begin(c, DGR_T_WORKER)) {
		return NULL;
	}
	if (c->rxp) {
		consume_loop(c);
	} else {
		produce_loop(c, DGR_T_WORKER);
	}
	dgr_thread_cpu(&c->ts[DGR_T_WORKER]);
	return NULL;
}

/* Thread body of the producer of a DGR_DIR_BOTH connection: returns NULL. */
void *dgr_worker2_thread(void *arg)
{
	struct dgr_conn *c = arg;

	if (!dgr_thread_begin(c, DGR_T_WORKER2)) {
		return NULL;
	}
	produce_loop(c, DGR_T_WORKER2);
	dgr_thread_cpu(&c->ts[DGR_T_WORKER2]);
	return NULL;
}
