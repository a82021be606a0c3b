// SPDX-License-Identifier: GPL-2.0-or-later
/* In-host analysis of LTTng events (see host_events.h). */
#include <stdlib.h>
#include <string.h>

#include <dgrdma/proto.h>
#include <dgrdma/stats.h>
#include <dgrdma/wire.h>

#include "host_events.h"

bool he_get(const struct host_event *ev, const char *name, uint64_t *v)
{
	unsigned int i;

	for (i = 0; i < ev->nfields; i++) {
		if (!strcmp(ev->f[i].name, name)) {
			*v = ev->f[i].value;
			return true;
		}
	}
	return false;
}

int ha_init(struct host_analysis *h)
{
	memset(h, 0, sizeof(*h));
	h->tab = calloc(HA_TABLE_SIZE, sizeof(*h->tab));
	if (!h->tab) {
		return -DGR_E_NOMEM;
	}
	series_init(&h->lat);
	series_init(&h->wait);
	series_init(&h->work);
	series_init(&h->send);
	series_init(&h->recv);
	series_init(&h->lat_arrival);
	series_init(&h->lat_handed);
	series_init(&h->lat_read_handed);
	series_init(&h->arrival);
	series_init(&h->lat_txn);
	series_init(&h->tx_credit);
	return 0;
}

void ha_free(struct host_analysis *h)
{
	free(h->tab);
	h->tab = NULL;
	series_free(&h->lat);
	series_free(&h->wait);
	series_free(&h->work);
	series_free(&h->send);
	series_free(&h->recv);
	series_free(&h->lat_arrival);
	series_free(&h->lat_handed);
	series_free(&h->lat_read_handed);
	series_free(&h->arrival);
	series_free(&h->lat_txn);
	series_free(&h->tx_credit);
}

const char *ha_role_name(uint8_t role)
{
	return role <= DGR_ROLE_PRODUCER ? dgr_thread_role_name((enum dgr_thread_role)role)
					 : "other";
}

const char *ha_policy_name(int32_t policy)
{
	switch (policy) {
	case 0:
		return "SCHED_OTHER";
	case 1:
		return "SCHED_FIFO";
	case 2:
		return "SCHED_RR";
	case 3:
		return "SCHED_BATCH";
	case 5:
		return "SCHED_IDLE";
	case 6:
		return "SCHED_DEADLINE";
	default:
		return "unknown";
	}
}

static struct ha_key make_key(uint64_t vpid, uint64_t conn, uint64_t buffer, uint64_t txn, bool tx)
{
	struct ha_key k;

	memset(&k, 0, sizeof(k));
	k.vpid = (uint32_t)vpid;
	k.conn = (uint16_t)conn;
	k.buffer = (uint16_t)buffer;
	k.txn_id = tx ? 0 : (uint32_t)txn;
	k.tx = tx;
	k.used = 1;
	return k;
}

static bool key_eq(const struct ha_key *a, const struct ha_key *b)
{
	return a->used == b->used && a->vpid == b->vpid && a->txn_id == b->txn_id &&
	       a->conn == b->conn && a->buffer == b->buffer && a->tx == b->tx;
}

static size_t slot_of(const struct ha_key *k)
{
	uint64_t h = (uint64_t)k->vpid * 0x9E3779B97F4A7C15ull;

	h ^= ((uint64_t)k->conn << 48 | (uint64_t)k->buffer << 32 | k->txn_id) + k->tx;
	h *= 0xBF58476D1CE4E5B9ull;
	return (size_t)(h >> 50) & (HA_TABLE_SIZE - 1);
}

static struct ha_pending *find(struct host_analysis *h, const struct ha_key *key)
{
	size_t i = slot_of(key), n;

	for (n = 0; n < HA_TABLE_SIZE; n++, i = (i + 1) & (HA_TABLE_SIZE - 1)) {
		if (!h->tab[i].key.used) {
			return NULL;
		}
		if (key_eq(&h->tab[i].key, key)) {
			return &h->tab[i];
		}
	}
	return NULL;
}

static struct ha_pending *insert(struct host_analysis *h, const struct ha_key *key)
{
	size_t i = slot_of(key), n;

	for (n = 0; n < HA_TABLE_SIZE / 2; n++, i = (i + 1) & (HA_TABLE_SIZE - 1)) {
		if (!h->tab[i].key.used || key_eq(&h->tab[i].key, key)) {
			return &h->tab[i];
		}
	}
	return NULL;
}

/* Removes a slot and shifts its probe chain back (no tombstones). */
static void erase(struct host_analysis *h, struct ha_pending *p)
{
	size_t hole = (size_t)(p - h->tab), i = hole;

	h->tab[hole].key.used = 0;
	for (;;) {
		size_t home;

		i = (i + 1) & (HA_TABLE_SIZE - 1);
		if (!h->tab[i].key.used) {
			return;
		}
		home = slot_of(&h->tab[i].key);
		/* move i back into the hole when the hole lies between its home and i */
		if (((i - home) & (HA_TABLE_SIZE - 1)) >= ((i - hole) & (HA_TABLE_SIZE - 1))) {
			h->tab[hole] = h->tab[i];
			h->tab[i].key.used = 0;
			hole = i;
		}
	}
}

uint64_t ha_pending_count(const struct host_analysis *h)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < HA_TABLE_SIZE; i++) {
		if (h->tab[i].key.used && !h->tab[i].key.tx) {
			n++;
		}
	}
	return n;
}

bool ha_unanswered_from_counters(const struct host_analysis *h, bool window, uint64_t *pending,
				 uint64_t *discontinuities)
{
	bool any = false;
	unsigned int i;

	*pending = *discontinuities = 0;
	if (h->c.completions_derived == 0 || h->c.txn_complete != h->c.completions_derived) {
		return false;
	}
	for (i = 0; i < h->n_srcs; i++) {
		const struct ha_counter_src *s = &h->srcs[i];

		if (s->fpga || !s->has_answers) {
			continue;
		}
		any = true;
		*pending += s->completed > s->bells ? s->completed - s->bells : 0;
		/* a window holds the counters' moves within it, not the run's before it */
		*discontinuities +=
		    s->discontinuities - (window && s->discontinuities >= s->discontinuities_first
					      ? s->discontinuities_first
					      : 0);
	}
	return any;
}

static struct ha_counter_src *counter_src(struct host_analysis *h, bool fpga, uint16_t conn,
					  uint32_t vpid)
{
	unsigned int i;

	for (i = 0; i < h->n_srcs; i++) {
		if (h->srcs[i].fpga == fpga && h->srcs[i].conn == conn && h->srcs[i].vpid == vpid) {
			return &h->srcs[i];
		}
	}
	if (h->n_srcs == HA_MAX_COUNTER_SRCS) {
		return NULL;
	}
	h->srcs[h->n_srcs].fpga = fpga;
	h->srcs[h->n_srcs].conn = conn;
	h->srcs[h->n_srcs].vpid = vpid;
	return &h->srcs[h->n_srcs++];
}

static void rate_span_add(struct ha_rate_span *r, uint64_t ts, uint64_t bytes)
{
	if (!r->read || (!r->moved && bytes == r->b1)) {
		/* not moved yet: the stretch starts at the latest reading */
		r->t0 = r->t1 = ts;
		r->b0 = r->b1 = bytes;
		r->read = true;
		return;
	}
	if (bytes != r->b1) {
		r->moved = true;
		r->t1 = ts;
		r->b1 = bytes;
	}
}

uint64_t ha_data_rate(const struct host_analysis *h, int dir)
{
	double rate = 0;
	unsigned int i;

	for (i = 0; i < h->n_srcs; i++) {
		const struct ha_rate_span *r = &h->srcs[i].data[dir];

		if (!h->srcs[i].fpga && r->moved && r->t1 > r->t0 && r->b1 > r->b0) {
			rate += (double)(r->b1 - r->b0) * 1e9 / (double)(r->t1 - r->t0);
		}
	}
	return rate >= 1 && rate < 1e15 ? (uint64_t)rate : 0;
}

static void on_counters(struct host_analysis *h, const struct host_event *ev, bool fpga)
{
	uint64_t vpid = 0;

	uint64_t conn = 0, delivered, lost, frames, sock;
	struct ha_counter_src *s;

	h->c.counter_snapshots++;
	he_get(ev, "vpid", &vpid);
	if (fpga) {
		uint64_t produced;

		if (!he_get(ev, "samples_produced", &produced) ||
		    !he_get(ev, "dropped_samples", &lost)) {
			return;
		}
		/* produced counts the dropped samples too: delivered is what was not dropped */
		delivered = produced > lost ? produced - lost : 0;
		h->c.fpga_dropped_samples = lost;
	} else {
		if (!he_get(ev, "samples_received", &delivered) ||
		    !he_get(ev, "samples_lost", &lost)) {
			return;
		}
		he_get(ev, "conn", &conn);
	}
	if (!fpga && h->on_drops && he_get(ev, "frames_rx", &frames) &&
	    he_get(ev, "socket_drops", &sock)) {
		/* the kernel's drops, as a share of the frames: source "socket" */
		h->on_drops(h->ctx, ev->ts, "socket", (unsigned int)conn, (uint32_t)vpid, frames,
			    sock);
	}
	s = counter_src(h, fpga, (uint16_t)conn, (uint32_t)vpid);
	if (!s) {
		return;
	}
	s->seen = true;
	s->delivered = delivered;
	s->lost = lost;
	s->last_ts = ev->ts;
	if (!fpga) {
		uint64_t bytes;

		if (he_get(ev, "data_bytes_rx", &bytes)) {
			rate_span_add(&s->data[0], ev->ts, bytes);
		}
		if (he_get(ev, "data_bytes_tx", &bytes)) {
			rate_span_add(&s->data[1], ev->ts, bytes);
		}
		s->has_answers = he_get(ev, "txns_completed", &s->completed) &&
				 he_get(ev, "doorbells_sent", &s->bells) &&
				 he_get(ev, "discontinuities", &s->discontinuities);
		if (s->has_answers && !s->answers_first_read) {
			s->answers_first_read = true;
			s->discontinuities_first = s->discontinuities;
		}
	}
	if (h->on_drops) {
		h->on_drops(h->ctx, ev->ts, fpga ? "fpga" : "host", (unsigned int)conn,
			    (uint32_t)vpid, delivered, lost);
	}
}

static void on_thread(struct host_analysis *h, const struct host_event *ev, bool fpga)
{
	struct ha_thread *t;
	uint64_t v;

	if (h->n_threads == HA_MAX_THREADS) {
		return;
	}
	t = &h->threads[h->n_threads++];
	memset(t, 0, sizeof(*t));
	t->fpga = fpga;
	if (he_get(ev, "role", &v)) {
		t->role = (uint8_t)v;
	}
	if (he_get(ev, "conn", &v)) {
		t->conn = (uint16_t)v;
	}
	if (he_get(ev, "tid", &v)) {
		t->tid = (int32_t)v;
	}
	if (he_get(ev, "vpid", &v)) {
		t->vpid = (uint32_t)v;
	}
	if (he_get(ev, "policy", &v)) {
		t->policy = (int32_t)v;
	}
	if (he_get(ev, "priority", &v)) {
		t->priority = (int32_t)v;
	}
	if (he_get(ev, "nice", &v)) {
		t->nice = (int32_t)v;
	}
	if (he_get(ev, "cpuset", &v)) {
		t->cpuset = v;
	}
}

/* True when vpid is one of pids[0..n). */
static bool pid_listed(const uint32_t *pids, unsigned int n, uint64_t vpid)
{
	for (unsigned int i = 0; i < n; i++) {
		if (pids[i] == vpid) {
			return true;
		}
	}
	return false;
}

/* Keeps the doorbell_sent with the largest latency_ns (the first of equal ones). */
static void note_bell_latency(struct host_analysis *h, const struct host_event *ev, uint64_t vpid,
			      uint64_t conn, uint64_t buffer, uint64_t txn, bool matched)
{
	struct ha_worst_bell *w = &h->worst_bell;
	uint64_t latency, seq = 0;

	if (!he_get(ev, "latency_ns", &latency)) {
		return; /* a trace older than the field */
	}
	h->c.bells_with_latency++;
	if (w->seen && latency <= w->latency_ns) {
		return;
	}
	he_get(ev, "frame_seq", &seq);
	w->seen = true;
	w->latency_ns = latency;
	w->ts = ev->ts;
	w->vpid = (uint32_t)vpid;
	w->conn = (uint16_t)conn;
	w->buffer = (uint16_t)buffer;
	w->txn_id = (uint32_t)txn;
	w->frame_seq = (uint16_t)seq;
	w->completion_in_trace = matched;
}

/* Notes the process of a transaction (0: the trace has no vpid context). */
static void note_host_pid(struct host_analysis *h, uint64_t vpid)
{
	if (vpid == 0 || pid_listed(h->host_pids, h->n_host_pids, vpid)) {
		return;
	}
	if (h->n_host_pids == HA_MAX_PIDS) {
		h->host_pids_more = true;
		return;
	}
	h->host_pids[h->n_host_pids++] = (uint32_t)vpid;
}

/* dgrdma:stream_config: the first connection's facts (repeated with every snapshot). */
static void on_host_config(struct host_analysis *h, const struct host_event *ev)
{
	struct ha_facts *f = &h->facts;

	if (f->host) {
		return;
	}
	f->host = he_get(ev, "buffers", &f->host_buffers) &&
		  he_get(ev, "buffer_size", &f->buffer_size) &&
		  he_get(ev, "peer_buffers", &f->peer_buffers);
}

/* dgrdma_fpga:stream_config: the first emulator's facts. */
static void on_fpga_config(struct host_analysis *h, const struct host_event *ev)
{
	struct ha_facts *f = &h->facts;

	if (f->fpga) {
		return;
	}
	f->fpga = he_get(ev, "buffers", &f->fpga_buffers) &&
		  he_get(ev, "rate_sps", &f->fpga_rate_sps) &&
		  he_get(ev, "buffer_size", &f->fpga_buffer_size) &&
		  he_get(ev, "host_buffers", &f->fpga_host_buffers);
}

/*
 * The receive call's return (arrival_ns, which the reader puts on the events' axis, plus
 * wait_receive_ns) -> handover (the send call's start).
 */
static void add_read_to_handover(struct host_analysis *h, const struct ha_pending *p,
				 uint64_t handover)
{
	uint64_t read = p->arrival + p->wait_receive;

	if (p->arrival && handover >= read) {
		series_add(&h->lat_read_handed, p->t_complete, handover - read);
	}
}

/*
 * doorbell_sent's consumer side (traces since the default left buffer_release
 * out): the release since_release_ns before the event, the acquire held_ns
 * before that, on thread consumer_tid. A buffer_release of the same buffer
 * (--all-events, older traces) was read already and is kept; they agree within
 * the event's own cost. consumer_tid 0: a side the tracer did not see (the
 * preload library's).
 */
static void consumer_side_from_doorbell(struct ha_pending *p, const struct host_event *ev)
{
	uint64_t since, held, tid;

	if (p->t_release || !he_get(ev, "consumer_tid", &tid) || tid == 0 ||
	    !he_get(ev, "since_release_ns", &since) || !he_get(ev, "held_ns", &held) ||
	    since > ev->ts || held > ev->ts - since) {
		return;
	}
	p->t_release = ev->ts - since;
	p->t_acquire = p->t_release - held;
	/* the field is the kernel's tid as an int32_t, read back as its unsigned bits */
	p->tid_acquire = (int32_t)(uint32_t)tid;
}

/*
 * doorbell_sent's completion (traces since the default left txn_complete
 * out): the stack's reading since_complete_ns before the event, the completing
 * frame's kernel arrival latency_ns before it, the receive thread's wait the
 * difference. A completion before the trace's first event stays out, as its
 * txn_complete would have (a flight recorder's snapshot). since_complete_ns
 * 0: not given (the preload library's, which records txn_complete). Returns
 * whether *p was made.
 */
static bool completion_from_doorbell(struct host_analysis *h, struct ha_pending *p,
				     const struct host_event *ev, const struct ha_key *key)
{
	uint64_t since, latency;
	unsigned int i;

	if (!he_get(ev, "since_complete_ns", &since) || since == 0 || since > ev->ts ||
	    ev->ts - since < h->first_ts) {
		return false;
	}
	memset(p, 0, sizeof(*p));
	p->key = *key;
	p->t_complete = ev->ts - since;
	/*
	 * the receive thread's tid is not in the event: the rx thread thread_start
	 * named for this process and connection (another process's in the same
	 * trace is not it), else stall_cause's fallback by role
	 */
	for (i = 0; i < h->n_threads; i++) {
		const struct ha_thread *t = &h->threads[i];

		if (!t->fpga && t->role == 0 && t->conn == key->conn && t->vpid == key->vpid) {
			p->tid_complete = t->tid;
			break;
		}
	}
	if (he_get(ev, "latency_ns", &latency) && latency >= since && latency <= ev->ts) {
		p->has_wait_receive = true;
		p->wait_receive = latency - since;
		p->arrival = ev->ts - latency;
	}
	return true;
}

static void on_host_event(struct host_analysis *h, const struct host_event *ev, const char *n)
{
	uint64_t conn = 0, buffer = 0, txn = 0, vpid = 0, vtid = 0, v;
	struct ha_key rk, tk;
	struct ha_pending *p;

	he_get(ev, "conn", &conn);
	he_get(ev, "buffer", &buffer);
	he_get(ev, "txn_id", &txn);
	he_get(ev, "vpid", &vpid);
	he_get(ev, "vtid", &vtid);
	rk = make_key(vpid, conn, buffer, txn, false);
	tk = make_key(vpid, conn, buffer, 0, true);
	if (!strcmp(n, "txn_complete")) {
		note_host_pid(h, vpid);
		h->c.txn_complete++;
		if (he_get(ev, "opcode", &v) && v == DGR_OPCODE_DISCONTINUITY) {
			h->c.discontinuities++;
		}
		p = insert(h, &rk);
		if (!p) {
			h->c.table_overflow++;
			return;
		}
		if (p->key.used) {
			/* the same transaction completed again without a doorbell */
			h->c.unmatched++;
		}
		p->key = rk;
		p->t_complete = ev->ts;
		p->t_acquire = p->t_release = 0;
		p->tid_complete = (int32_t)vtid;
		p->tid_acquire = 0;
		p->has_wait_receive = he_get(ev, "wait_receive_ns", &p->wait_receive);
		if (!he_get(ev, HE_ARRIVAL_FIELD, &p->arrival)) {
			p->arrival = 0;
		}
	} else if (!strcmp(n, "buffer_acquire")) {
		h->c.acquires++;
		p = find(h, &rk);
		if (p) {
			p->t_acquire = ev->ts;
			p->tid_acquire = (int32_t)vtid;
		}
	} else if (!strcmp(n, "buffer_release")) {
		h->c.releases++;
		p = find(h, &rk);
		if (p) {
			p->t_release = ev->ts;
		}
		/*
		 * held_ns (traces since the default left buffer_acquire out): the
		 * consumer took the buffer held_ns before it released it, on the
		 * thread that releases it. Older traces have buffer_acquire instead.
		 */
		if (p && he_get(ev, "held_ns", &v) && v <= ev->ts) {
			p->t_acquire = ev->ts - v;
			p->tid_acquire = (int32_t)vtid;
		}
	} else if (!strcmp(n, "doorbell_queued")) {
		h->c.doorbell_queued++;
	} else if (!strcmp(n, "doorbell_sent")) {
		struct ha_doorbell d = { .conn = (unsigned int)conn,
					 .buffer = (unsigned int)buffer };
		struct ha_pending derived;
		uint64_t send_call;

		h->c.doorbell_sent++;
		/* with both, the txn_complete event wins (--all-events, older traces) */
		p = find(h, &rk);
		if (!p && completion_from_doorbell(h, &derived, ev, &rk)) {
			p = &derived;
			note_host_pid(h, vpid);
			h->c.txn_complete++;
			h->c.completions_derived++;
		}
		note_bell_latency(h, ev, vpid, conn, buffer, txn, p != NULL);
		if (!p) {
			h->c.orphans++;
			return;
		}
		h->c.matched++;
		consumer_side_from_doorbell(p, ev);
		d.ts = p->t_complete;
		d.tid_complete = p->tid_complete;
		d.tid_acquire = p->tid_acquire;
		d.tid_sent = (int32_t)vtid;
		d.latency = ev->ts >= p->t_complete ? ev->ts - p->t_complete : 0;
		series_add(&h->lat, p->t_complete, d.latency);
		series_add(&h->lat_txn, p->t_complete, txn);
		/* the hand-over to the kernel: the send call's start, not before the completion */
		if (!he_get(ev, "send_call_ns", &v)) {
			v = 0;
		}
		send_call = v < d.latency ? v : d.latency;
		series_add(&h->lat_handed, p->t_complete, d.latency - send_call);
		if (p->t_acquire && p->t_release && p->t_acquire >= p->t_complete &&
		    p->t_release >= p->t_acquire && ev->ts >= p->t_release) {
			d.wait = p->t_acquire - p->t_complete;
			d.work = p->t_release - p->t_acquire;
			d.send = ev->ts - p->t_release;
			series_add(&h->wait, p->t_complete, d.wait);
			series_add(&h->work, p->t_complete, d.work);
			series_add(&h->send, p->t_complete, d.send);
		} else {
			h->c.parts_missing++;
		}
		d.has_wait_receive = p->has_wait_receive;
		if (p->has_wait_receive) {
			d.wait_receive = p->wait_receive;
			series_add(&h->recv, p->t_complete, d.wait_receive);
			series_add(&h->lat_arrival, p->t_complete, d.latency + d.wait_receive);
			add_read_to_handover(h, p, ev->ts - send_call);
		}
		if (p->arrival) {
			series_add(&h->arrival, p->t_complete, p->arrival);
		}
		if (h->on_doorbell) {
			h->on_doorbell(h->ctx, &d);
		}
		if (p != &derived) {
			erase(h, p);
		}
	} else if (!strcmp(n, "txn_sent")) {
		note_host_pid(h, vpid);
		h->c.txn_sent++;
		p = insert(h, &tk);
		if (!p) {
			h->c.table_overflow++;
			return;
		}
		p->key = tk;
		p->t_complete = ev->ts;
	} else if (!strcmp(n, "doorbell_rx")) {
		h->c.doorbell_rx++;
		p = find(h, &tk);
		if (!p) {
			h->c.tx_orphans++;
			return;
		}
		h->c.tx_matched++;
		series_add(&h->tx_credit, p->t_complete,
			   ev->ts >= p->t_complete ? ev->ts - p->t_complete : 0);
		erase(h, p);
	} else if (!strcmp(n, "frame_rx")) {
		h->c.frames_rx++;
	} else if (!strcmp(n, "frame_tx")) {
		h->c.frames_tx++;
	} else if (!strcmp(n, "retransmit")) {
		h->c.retransmits++;
	} else if (!strcmp(n, "malformed")) {
		h->c.malformed++;
	} else if (!strcmp(n, "socket_drop")) {
		if (he_get(ev, "drops", &v)) {
			h->c.socket_drops += v;
		}
	} else if (!strcmp(n, "stream_config")) {
		on_host_config(h, ev);
	} else if (!strcmp(n, "thread_start")) {
		on_thread(h, ev, false);
	} else if (!strcmp(n, "counters")) {
		on_counters(h, ev, false);
	} else if (strcmp(n, "ack_rx") && strcmp(n, "ack_tx")) {
		h->c.unknown_events++;
	}
}

static void on_fpga_event(struct host_analysis *h, const struct host_event *ev, const char *n)
{
	if (!strcmp(n, "txn_sent")) {
		h->c.fpga_txn_sent++;
	} else if (!strcmp(n, "doorbell_rx")) {
		h->c.fpga_doorbell_rx++;
	} else if (!strcmp(n, "discontinuity")) {
		h->c.fpga_discontinuities++;
	} else if (!strcmp(n, "underrun")) {
		h->c.fpga_underruns++;
	} else if (!strcmp(n, "drop_period")) {
		h->c.fpga_drop_periods++;
	} else if (!strcmp(n, "stream_config")) {
		on_fpga_config(h, ev);
	} else if (!strcmp(n, "thread_start")) {
		on_thread(h, ev, true);
	} else if (!strcmp(n, "counters")) {
		on_counters(h, ev, true);
	} else if (strcmp(n, "frame_rx") && strcmp(n, "frame_tx")) {
		h->c.unknown_events++;
	}
}

/*
 * Whether the analysis keeps the event: every event without a filter or
 * outside the filter's provider; else, counted in c.chosen_pids or
 * c.other_pids, whether its vpid is one of only_pids.
 */
static bool wanted_pid(struct host_analysis *h, const struct host_event *ev)
{
	uint64_t vpid;

	if (h->n_only_pids == 0 ||
	    (h->only_pids_provider &&
	     strncmp(ev->name, h->only_pids_provider, strlen(h->only_pids_provider)) != 0)) {
		return true;
	}
	if (he_get(ev, "vpid", &vpid) && pid_listed(h->only_pids, h->n_only_pids, vpid)) {
		h->c.chosen_pids++;
		return true;
	}
	h->c.other_pids++;
	return false;
}

void ha_event(struct host_analysis *h, const struct host_event *ev)
{
	if (!wanted_pid(h, ev)) {
		return;
	}
	if (h->c.events == 0 || ev->ts < h->first_ts) {
		h->first_ts = ev->ts;
	}
	if (ev->ts > h->last_ts) {
		h->last_ts = ev->ts;
	}
	h->c.events++;
	if (h->origin && *h->origin == 0) {
		*h->origin = ev->ts;
	}
	if (!strncmp(ev->name, "dgrdma_fpga:", 12)) {
		on_fpga_event(h, ev, ev->name + 12);
	} else if (!strncmp(ev->name, "dgrdma:", 7)) {
		on_host_event(h, ev, ev->name + 7);
	} else {
		h->c.unknown_events++;
	}
}
