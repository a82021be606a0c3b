/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Connection set-up and teardown, the control thread (socket drop counters,
 * periodic counters tracepoint and stats callback), and the read-out of
 * counters and latency (dgrdma/host.h).
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <dgrdma/prefault.h>

#include "conn_priv.h"

/* Fills the defaults documented in host.h. */
void dgr_conn_opts_init(struct dgr_conn_opts *o)
{
	memset(o, 0, sizeof(*o));
	dgr_transport_opts_init(&o->transport);
	o->direction = DGR_DIR_RX;
	o->id = 0;
	o->peer_id = 1;
	o->buffers = DGR_DEFAULT_BUFFERS;
	o->buffer_size = DGR_DEFAULT_BUFFER_SIZE;
	o->peer_buffers = DGR_DEFAULT_PEER_BUFFERS;
	o->retransmit_attempts = 5;
	o->peer_window = DGR_DEFAULT_PEER_WINDOW;
	o->incomplete_ms = DGR_DEFAULT_INCOMPLETE_MS;
	o->doorbell_mode = DGR_DOORBELL_FLAG;
	o->inline_doorbells = true;
	o->doorbell_batch = 16;
	o->doorbell_hold_us = 50;
	o->latency_samples = 4u * 1024 * 1024;
	o->check_ramp = true;
	for (int i = 0; i < DGR_T_COUNT; i++) {
		o->sched[i].policy = SCHED_OTHER;
	}
}

/* Allocates room for the first cap values of s. Returns 0 or -DGR_E_NOMEM. */
static int series_init(struct dgr_lat_series *s, uint64_t cap)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
	s->cap = cap;
	if (cap) {
		s->v = calloc(cap, sizeof(*s->v));
		if (!s->v) {
			return -DGR_E_NOMEM;
		}
	}
	return 0;
}

static int check_opts(const struct dgr_conn_opts *o, char *errbuf)
{
	if (o->buffers < 1 || o->buffers > DGR_MAX_BUFFERS) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "--buffers: %u is out of range 1..%u",
				      o->buffers, DGR_MAX_BUFFERS);
	}
	if (o->buffer_size < 64 || o->buffer_size > DGR_MAX_BUFFER_SIZE ||
	    o->buffer_size % 16 != 0) {
		return dgr_errbuf_set(
		    errbuf, DGR_E_INVAL,
		    "--buffer-size: %u is out of range 64..%u or not a multiple of 16",
		    o->buffer_size, DGR_MAX_BUFFER_SIZE);
	}
	if (o->peer_buffers < 1 || o->peer_buffers > 64) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--fpga-buffers: %u is out of range 1..64", o->peer_buffers);
	}
	if (o->doorbell_batch < 1 || o->doorbell_batch > 255) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--doorbell-batch: %u is out of range 1..255",
				      o->doorbell_batch);
	}
	if (o->doorbell_hold_us < 1 || o->doorbell_hold_us > 1000000) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--doorbell-hold-us: %u is out of range 1..1000000",
				      o->doorbell_hold_us);
	}
	if (o->rx_holdoff_us > 1000) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--rx-holdoff-us: %u is out of range 0..1000",
				      o->rx_holdoff_us);
	}
	if ((uint64_t)o->buffers * o->buffer_size + 4 * DGR_PORT_FLAGS > DGR_PORT_SPAN ||
	    (uint64_t)o->peer_buffers * o->buffer_size + 4 * DGR_PORT_FLAGS > DGR_PORT_SPAN) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--buffers x --buffer-size exceeds the 1 GiB port memory");
	}
	if (o->direction != DGR_DIR_RX && o->direction != DGR_DIR_TX &&
	    o->direction != DGR_DIR_BOTH) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "direction %d is not rx, tx or both",
				      (int)o->direction);
	}
	if (o->set_port_base && o->direction == DGR_DIR_BOTH) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--port-base: not with both directions (the paths are told "
				      "apart by their bases 0 and 0x40000000)");
	}
	if (o->set_port_base && (o->port_base % 4 != 0 || o->port_base > DGR_PORT_BASE_MAX)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--port-base: 0x%x is not a multiple of 4 in 0..0xC0000000",
				      o->port_base);
	}
	if (o->rx_drop_ppm > 1000000) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--drop-rx: %u ppm is out of range 0..1000000",
				      o->rx_drop_ppm);
	}
	if (o->peer_window > DGR_MAX_PEER_WINDOW) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--peer-window: %u is out of range 0..%u", o->peer_window,
				      DGR_MAX_PEER_WINDOW);
	}
	if (o->retransmit_ms && o->retransmit_attempts == 0) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--retransmit-attempts: 0 is out of range 1..255");
	}
	return 0;
}

/* True when the two CPU sets overlap (0 = all CPUs). */
static bool cpus_overlap(uint64_t a, uint64_t b)
{
	return a == 0 || b == 0 || (a & b) != 0;
}

static bool raised(const struct dgr_sched *s)
{
	return s->policy == SCHED_FIFO || s->policy == SCHED_RR || (s->set_nice && s->nice < 0);
}

/*
 * The CPUs a thread without its own --cpu setting runs on: the process's affinity as it was
 * started (taskset, a cpuset), the first 64 CPUs as a mask; 0 (all) when it cannot be read.
 */
static uint64_t inherited_cpus(void)
{
	cpu_set_t set;
	uint64_t mask = 0;

	if (sched_getaffinity(0, sizeof(set), &set) != 0) {
		return 0;
	}
	for (int cpu = 0; cpu < 64; cpu++) {
		if (CPU_ISSET(cpu, &set)) {
			mask |= 1ull << cpu;
		}
	}
	return mask;
}

static void check_control_cpus(struct dgr_conn *c)
{
	const struct dgr_sched *ctl = &c->o.sched[DGR_T_CONTROL];
	uint64_t ctl_cpus = ctl->cpuset ? ctl->cpuset : inherited_cpus();

	for (int t = DGR_T_RX; t < DGR_T_COUNT; t++) {
		const struct dgr_sched *d = &c->o.sched[t];

		if (t == DGR_T_CONTROL || !dgr_conn_thread_used(c, t)) {
			continue;
		}

		if (raised(d) && !raised(ctl) && cpus_overlap(d->cpuset, ctl_cpus)) {
			snprintf(c->warnbuf, sizeof(c->warnbuf),
				 "the control thread may run on the same CPUs as the %s thread, "
				 "which has a raised priority: control work (DCP, stats) can be "
				 "delayed (the OVS-DPDK lesson); give --cpu-control a CPU the data "
				 "threads do not use",
				 dgr_conn_thread_name(c, t));
			c->warning = c->warnbuf;
			return;
		}
	}
}

/* Receive buffer sized for the pool when --rcvbuf is not given (see open_transport). */
#define DEFAULT_RCVBUF_MIN (8ull << 20)
#define DEFAULT_RCVBUF_MAX (256ull << 20)

/*
 * Opens the transport. Without an explicit --rcvbuf the receive buffer is
 * sized for the pool (the tuning guide's first mitigation): a peer may send
 * every free buffer back to back, and one frame the socket drops leaves its
 * transaction incomplete for ever. Without the privilege to force that size
 * the largest unforced size (net.core.rmem_max) is used and a warning says so.
 */
static int open_transport(struct dgr_conn *c, const struct dgr_conn_opts *o, char *errbuf)
{
	uint64_t want = 2ull * c->nbuf * c->size;
	char warn[DGR_ERRBUF_SIZE];
	int rc;

	want = want < DEFAULT_RCVBUF_MIN ? DEFAULT_RCVBUF_MIN : want;
	want = want > DEFAULT_RCVBUF_MAX ? DEFAULT_RCVBUF_MAX : want;
	rc = dgr_transport_open_sized(&o->transport, (int)want, &c->t, errbuf, warn);
	/* The first warning found at start is the one reported (the CPU one comes first). */
	if (rc == 0 && warn[0] && !c->warning) {
		snprintf(c->warnbuf, sizeof(c->warnbuf), "%s", warn);
		c->warning = c->warnbuf;
	}
	return rc;
}

/* Maps one port memory, pre-faulted. Returns 0 or -DGR_E_NOMEM with errbuf. */
static int open_port(struct dgr_conn *c, struct dgr_port *p, enum dgr_direction path, uint32_t base,
		     char *errbuf)
{
	size_t map;

	p->path = path;
	p->base = base;
	p->mem_size = (size_t)c->nbuf * c->size + 4 * DGR_PORT_FLAGS;
	map = (p->mem_size + 4095) & ~(size_t)4095;
	p->mem = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
		      -1, 0);
	if (p->mem == MAP_FAILED) {
		p->mem = NULL;
		snprintf(errbuf, DGR_ERRBUF_SIZE, "port memory of %zu bytes: %s", map,
			 strerror(errno));
		return -DGR_E_NOMEM;
	}
	p->flags = (uint32_t *)(p->mem + (size_t)c->nbuf * c->size);
	/*
	 * And touched from user space: MAP_POPULATE fills the page tables from the
	 * kernel, but on a VM with shadow paging (this one) the first user access
	 * to each page still traps. A 16 MiB pool's first pass slowed the receive
	 * thread tenfold for 70 ms and dropped samples at 200 MS/s
	 * (docs/performance/stack.md). Both are needed: the prefault alone, without
	 * MAP_POPULATE, still dropped samples in 3 runs of 3.
	 */
	dgr_prefault(p->mem, map);
	return 0;
}

/* Returns 0 with *out set, or a negative code with errbuf. */
int dgr_conn_open(const struct dgr_conn_opts *o, struct dgr_conn **out, char *errbuf)
{
	struct dgr_conn *c;
	int rc;

	rc = check_opts(o, errbuf);
	if (rc < 0) {
		return rc;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "out of memory");
		return -DGR_E_NOMEM;
	}
	c->o = *o;
	pthread_mutex_init(&c->err_lock, NULL);
	pthread_mutex_init(&c->tx_lock, NULL);
	c->nbuf = o->buffers;
	c->size = o->buffer_size;
	if (o->direction != DGR_DIR_TX) {
		c->rxp = &c->port[c->nports++];
		rc = open_port(c, c->rxp, DGR_DIR_RX,
			       o->set_port_base ? o->port_base : DGR_PORT_BASE_RX, errbuf);
		if (rc < 0) {
			goto fail;
		}
	}
	if (o->direction != DGR_DIR_RX) {
		c->txp = &c->port[c->nports++];
		rc = open_port(c, c->txp, DGR_DIR_TX,
			       o->set_port_base ? o->port_base : DGR_PORT_BASE_TX, errbuf);
		if (rc < 0) {
			goto fail;
		}
	}
	c->meta = calloc(c->nbuf, sizeof(*c->meta));
	c->reasm = dgr_reasm_new(1024, errbuf);
	if (!c->meta || !c->reasm || series_init(&c->lat, o->latency_samples) < 0 ||
	    series_init(&c->lat_arrival, o->latency_samples) < 0 ||
	    dgr_spsc_init(&c->doorbells, 512, sizeof(struct dgr_doorbell_req)) < 0 ||
	    dgr_spsc_init(&c->txns, 512, sizeof(struct dgr_txn_req)) < 0 ||
	    dgr_spsc_init(&c->acks, 8192, sizeof(struct dgr_ack_ev)) < 0 ||
	    dgr_spsc_init(&c->dcp_out, 4, sizeof(struct dgr_dcp_out)) < 0) {
		rc = -DGR_E_NOMEM;
		snprintf(errbuf, DGR_ERRBUF_SIZE, "out of memory for the connection");
		goto fail;
	}
	dgr_ramp_init(&c->ramp);
	check_control_cpus(c);
	rc = open_transport(c, o, errbuf);
	if (rc < 0) {
		goto fail;
	}
	if (dgr_frame_room_empty(dgr_transport_frame_cap(c->t)) < DGR_FRAG_ALIGN) {
		rc = dgr_errbuf_set(errbuf, DGR_E_INVAL,
				    "the MTU %u leaves no room for data in a frame",
				    dgr_transport_mtu(c->t));
		goto fail;
	}
	*out = c;
	return 0;
fail:
	dgr_conn_close(c);
	return rc;
}

/* Period of the dgrdma:counters snapshots (drop rate over a run needs a fine grain). */
#define COUNTERS_PERIOD_NS 100000000ull

/* The stream's facts for the trace's readers (dgrdma:stream_config). */
static void stream_config_tp(const struct dgr_conn *c)
{
	DGR_TP(stream_config, c->o.conn_index, (uint8_t)c->o.direction, (uint16_t)c->o.buffers,
	       c->o.buffer_size, (uint16_t)c->o.peer_buffers);
}

static void *control_thread(void *arg)
{
	struct dgr_conn *c = arg;
	uint64_t last_stats = dgr_now_ns();
	uint64_t last_counters = last_stats;
	char err[DGR_ERRBUF_SIZE];

	if (!dgr_thread_begin(c, DGR_T_CONTROL)) {
		return NULL;
	}
	stream_config_tp(c);
	while (!dgr_conn_stopping(c)) {
		uint32_t seen = dgr_event_prepare(&c->ev_done);
		uint64_t drops = 0;
		uint64_t now;

		dgr_event_wait(&c->ev_done, seen, 100000000ull);
		now = dgr_now_ns();
		if (dgr_transport_drops(c->t, &drops, err) == 0 && drops > c->st.socket_drops) {
			DGR_TP(socket_drop, c->o.conn_index, drops - c->st.socket_drops, drops);
			DGR_ADD(c->st.socket_drops, drops - c->st.socket_drops);
		}
		if (now - last_counters >= COUNTERS_PERIOD_NS) {
			struct dgr_conn_stats s;

			last_counters = now;
			dgr_conn_get_stats(c, &s);
			DGR_TP(counters, c->o.conn_index, &s);
			stream_config_tp(c);
		}
		if (c->o.stats_interval_ns && c->o.on_stats &&
		    now - last_stats >= c->o.stats_interval_ns) {
			last_stats = now;
			c->o.on_stats(c->o.stats_ctx, c);
		}
	}
	dgr_thread_cpu(&c->ts[DGR_T_CONTROL]);
	return NULL;
}

/* Returns 0, or the refusal of a thread's scheduling (the connection is stopped). */
int dgr_conn_start(struct dgr_conn *c, dgr_consume_fn consume, dgr_produce_fn produce, void *ctx,
		   char *errbuf)
{
	void *(*body[DGR_T_COUNT])(void *) = { dgr_rx_thread, dgr_tx_thread, dgr_worker_thread,
					       control_thread, dgr_worker2_thread };
	int started = 0;

	if (c->th_started[0]) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "connection already started");
		return -DGR_E_STATE;
	}
	if (c->txp && !produce) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "the TX path needs a producer callback");
	}
	c->consume = consume;
	c->produce = produce;
	c->ctx = ctx;
	for (int t = 0; t < DGR_T_COUNT; t++) {
		int err;

		if (!dgr_conn_thread_used(c, t)) {
			continue;
		}
		err = pthread_create(&c->th[t], NULL, body[t], c);

		if (err) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "pthread_create: %s", strerror(err));
			dgr_conn_fail(c, -DGR_E_SYS, errbuf);
			dgr_conn_stop(c);
			return -DGR_E_SYS;
		}
		c->th_started[t] = true;
		started++;
	}
	/* every thread applies its scheduling first; a refusal fails the start */
	while (__atomic_load_n(&c->sched_reported, __ATOMIC_SEQ_CST) < started) {
		uint32_t seen = dgr_event_prepare(&c->ev_done);

		if (__atomic_load_n(&c->sched_reported, __ATOMIC_SEQ_CST) >= started) {
			dgr_event_cancel(&c->ev_done);
			break;
		}
		dgr_event_wait(&c->ev_done, seen, 100000000ull);
	}
	if (__atomic_load_n(&c->result, __ATOMIC_SEQ_CST) < 0) {
		int rc = c->result;

		dgr_conn_stop(c);
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s", c->errbuf);
		return rc;
	}
	return 0;
}

/* Returns 1 (ended), 0 (timeout) or the negative code that stopped the run. */
int dgr_conn_wait(struct dgr_conn *c, int timeout_ms)
{
	uint64_t deadline =
	    timeout_ms < 0 ? UINT64_MAX : dgr_now_ns() + (uint64_t)timeout_ms * 1000000ull;

	for (;;) {
		uint32_t seen = dgr_event_prepare(&c->ev_done);
		int res = __atomic_load_n(&c->result, __ATOMIC_SEQ_CST);
		uint64_t now;

		if (res < 0) {
			dgr_event_cancel(&c->ev_done);
			return res;
		}
		if (__atomic_load_n(&c->ended, __ATOMIC_ACQUIRE)) {
			dgr_event_cancel(&c->ev_done);
			return 1;
		}
		now = dgr_now_ns();
		if (now >= deadline) {
			dgr_event_cancel(&c->ev_done);
			return 0;
		}
		dgr_event_wait(&c->ev_done, seen,
			       deadline - now < 100000000ull ? deadline - now : 100000000ull);
	}
}

/* Stops and joins every thread; safe to call twice. */
void dgr_conn_stop(struct dgr_conn *c)
{
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
	dgr_event_notify(&c->ev_worker);
	dgr_event_notify(&c->ev_tx);
	dgr_event_notify(&c->ev_done);
	dgr_event_notify(&c->ev_dcp);
	/* the workers first, then tx drains the doorbells they queued, then the rest */
	static const int order[DGR_T_COUNT] = { DGR_T_WORKER, DGR_T_WORKER2, DGR_T_TX, DGR_T_RX,
						DGR_T_CONTROL };

	bool joined = false;

	for (int i = 0; i < DGR_T_COUNT; i++) {
		int t = order[i];

		if (c->th_started[t]) {
			pthread_join(c->th[t], NULL);
			c->th_started[t] = false;
			joined = true;
		}
	}
	if (joined) {
		/* The last snapshot equals what the caller reads from now on. */
		struct dgr_conn_stats s;

		dgr_conn_get_stats(c, &s);
		DGR_TP(counters, c->o.conn_index, &s);
	}
}

/* Frees everything (NULL accepted). */
void dgr_conn_close(struct dgr_conn *c)
{
	if (!c) {
		return;
	}
	dgr_conn_stop(c);
	dgr_transport_close(c->t);
	for (unsigned int i = 0; i < c->nports; i++) {
		if (c->port[i].mem) {
			munmap(c->port[i].mem, (c->port[i].mem_size + 4095) & ~(size_t)4095);
		}
	}
	free(c->meta);
	dgr_reasm_free(c->reasm);
	free(c->lat.v);
	free(c->lat_arrival.v);
	dgr_spsc_free(&c->doorbells);
	dgr_spsc_free(&c->txns);
	dgr_spsc_free(&c->acks);
	dgr_spsc_free(&c->dcp_out);
	pthread_mutex_destroy(&c->err_lock);
	pthread_mutex_destroy(&c->tx_lock);
	free(c);
}

/* Copies the counters with relaxed loads. */
void dgr_conn_get_stats(struct dgr_conn *c, struct dgr_conn_stats *s)
{
#define X(name) s->name = DGR_GET(c->st.name);
	DGR_CONN_STATS_FIELDS(X)
#undef X
	/* RX path: full buffers not yet released; TX path: buffers sent, not yet credited */
	s->buffers_in_use = 0;
	if (c->rxp) {
		s->buffers_in_use += DGR_GET(c->completed) - DGR_GET(c->consumed);
	}
	if (c->txp) {
		s->buffers_in_use += DGR_GET(c->produced) - DGR_GET(c->credits);
	}
}

/* Copies thread t's counters. */
void dgr_conn_get_thread_stats(struct dgr_conn *c, int t, struct dgr_thread_stats *s)
{
	const struct dgr_thread_stats *src = &c->ts[t];

	s->loops = DGR_GET(src->loops);
	s->items = DGR_GET(src->items);
	s->bytes = DGR_GET(src->bytes);
	s->syscalls = DGR_GET(src->syscalls);
	s->idle_waits = DGR_GET(src->idle_waits);
	s->cpu_user_ns = DGR_GET(src->cpu_user_ns);
	s->cpu_sys_ns = DGR_GET(src->cpu_sys_ns);
}

/* Copies thread t's scheduling as read back. */
void dgr_conn_get_sched(struct dgr_conn *c, int t, struct dgr_sched_info *si)
{
	*si = c->si[t];
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a;
	uint64_t y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static struct dgr_lat_series *series_of(struct dgr_conn *c, bool from_arrival)
{
	return from_arrival ? &c->lat_arrival : &c->lat;
}

/*
 * Fills d from one latency series of each of n connections: percentiles over
 * the union of their stored values (one series is sorted in place; several
 * are copied into one array). Returns 0, or -DGR_E_NOMEM (d then lacks the
 * percentiles).
 */
static int dist_of(struct dgr_conn *const *c, unsigned int n, bool from_arrival,
		   struct dgr_latency_dist *d)
{
	uint64_t *all = NULL;
	uint64_t at = 0;
	double sum = 0;

	memset(d, 0, sizeof(*d));
	d->min = UINT64_MAX;
	for (unsigned int i = 0; i < n; i++) {
		const struct dgr_lat_series *s = series_of(c[i], from_arrival);

		d->count += s->count;
		d->stored += s->count < s->cap ? s->count : s->cap;
		sum += (double)s->sum;
		if (s->count && s->min < d->min) {
			d->min = s->min;
		}
		if (s->count && s->max > d->max) {
			d->max = s->max;
		}
	}
	if (d->count == 0) {
		d->min = 0;
		return 0;
	}
	d->mean = sum / (double)d->count;
	if (d->stored == 0) {
		return 0;
	}
	if (n == 1) {
		all = series_of(c[0], from_arrival)->v;
	} else {
		all = malloc(d->stored * sizeof(*all));
		if (!all) {
			return -DGR_E_NOMEM;
		}
		for (unsigned int i = 0; i < n; i++) {
			const struct dgr_lat_series *s = series_of(c[i], from_arrival);
			uint64_t k = s->count < s->cap ? s->count : s->cap;

			memcpy(all + at, s->v, k * sizeof(*all));
			at += k;
		}
	}
	qsort(all, d->stored, sizeof(*all), cmp_u64);
	d->p50 = dgr_percentile_nearest_rank(all, d->stored, 500);
	d->p90 = dgr_percentile_nearest_rank(all, d->stored, 900);
	d->p99 = dgr_percentile_nearest_rank(all, d->stored, 990);
	d->p999 = dgr_percentile_nearest_rank(all, d->stored, 999);
	if (n > 1) {
		free(all);
	}
	return 0;
}

/* Fills l for the connections together (see host.h). */
int dgr_conn_latency_merged(struct dgr_conn *const *c, unsigned int n,
			    struct dgr_latency_summary *l)
{
	double wr = 0, wc = 0, cw = 0, ws = 0;
	uint64_t count;
	int rc, rc2;

	memset(l, 0, sizeof(*l));
	for (unsigned int i = 0; i < n; i++) {
		wr += (double)c[i]->lat_wait_receive_sum;
		wc += (double)c[i]->lat_wait_consumer_sum;
		cw += (double)c[i]->lat_consumer_work_sum;
		ws += (double)c[i]->lat_wait_send_sum;
	}
	rc = dist_of(c, n, false, &l->from_complete);
	rc2 = dist_of(c, n, true, &l->from_arrival);
	count = l->from_complete.count;
	if (count) {
		l->mean_wait_receive = wr / (double)count;
		l->mean_wait_consumer = wc / (double)count;
		l->mean_consumer_work = cw / (double)count;
		l->mean_wait_send = ws / (double)count;
	}
	return rc < 0 ? rc : rc2;
}

/* See host.h. */
void dgr_conn_latency_window(struct dgr_conn *c, uint64_t *max_ns, uint64_t *max_from_arrival_ns)
{
	*max_ns = __atomic_exchange_n(&c->lat_window_max, 0, __ATOMIC_RELAXED);
	*max_from_arrival_ns = __atomic_exchange_n(&c->lat_window_max_arrival, 0, __ATOMIC_RELAXED);
}

/* See host.h. */
void dgr_conn_stream_span(struct dgr_conn *c, uint64_t *first_ns, uint64_t *last_ns)
{
	*first_ns = c->t_first_complete;
	*last_ns = c->t_last_complete;
}

/* Fills l from the stored latencies (sorts them). */
void dgr_conn_latency(struct dgr_conn *c, struct dgr_latency_summary *l)
{
	/* one connection: sorted in place, nothing to allocate, cannot fail */
	(void)dgr_conn_latency_merged(&c, 1, l);
}

struct foreach_ctx {
	void (*cb)(void *, uint32_t, uint32_t, uint16_t, uint16_t);
	void *ctx;
};

static void foreach_cb(const struct dgr_txn_info *t, void *arg)
{
	struct foreach_ctx *f = arg;

	f->cb(f->ctx, t->txn_id, t->bytes, t->msgs_seen, t->num_msgs);
}

static void foreach_none(const struct dgr_txn_info *t, void *arg)
{
	(void)t;
	(void)arg;
}

/* Returns the number of incomplete transactions. */
unsigned int dgr_conn_foreach_incomplete(struct dgr_conn *c,
					 void (*cb)(void *ctx, uint32_t txn_id, uint32_t bytes,
						    uint16_t msgs_seen, uint16_t num_msgs),
					 void *ctx)
{
	struct foreach_ctx f = { .cb = cb, .ctx = ctx };

	return dgr_reasm_foreach_incomplete(c->reasm, cb ? foreach_cb : foreach_none, &f);
}

/* Returns the ramp checker. */
const struct dgr_ramp *dgr_conn_ramp(const struct dgr_conn *c)
{
	return &c->ramp;
}

/* Returns the frames dropped by fault injection. */
uint64_t dgr_conn_injected_drops(const struct dgr_conn *c)
{
	return __atomic_load_n(&c->injected_drops, __ATOMIC_RELAXED);
}

/* See host.h. */
bool dgr_conn_wrong_ids(struct dgr_conn *c, uint16_t *dst_id, uint16_t *src_id)
{
	uint32_t ids = __atomic_load_n(&c->wrong_ids, __ATOMIC_RELAXED);

	*dst_id = (uint16_t)(ids >> 16);
	*src_id = (uint16_t)ids;
	return __atomic_load_n(&c->st.malformed_unknown_id, __ATOMIC_RELAXED) > 0;
}

/* See host.h. */
void dgr_conn_seq_state(struct dgr_conn *c, struct dgr_seq_state *st)
{
	uint32_t highest = __atomic_load_n(&c->rx_highest, __ATOMIC_RELAXED);

	memset(st, 0, sizeof(*st));
	pthread_mutex_lock(&c->tx_lock);
	if (c->txs) {
		dgr_tx_seq_state(c->txs, st);
	} else {
		*st = c->seq_last;
	}
	pthread_mutex_unlock(&c->tx_lock);
	st->rx_started = (highest & 0x10000u) != 0;
	st->rx_highest = (uint16_t)highest;
	highest = __atomic_load_n(&c->conflict_seq, __ATOMIC_RELAXED);
	st->conflict = (highest & 0x10000u) != 0;
	st->conflict_seq = (uint16_t)highest;
	highest = __atomic_load_n(&c->flagless_seq, __ATOMIC_RELAXED);
	st->flagless = (highest & 0x10000u) != 0;
	st->flagless_seq = (uint16_t)highest;
}

/* See host.h. */
bool dgr_conn_last_foreign(const struct dgr_conn *c, struct dgr_addr *src)
{
	*src = c->last_foreign;
	return __atomic_load_n(&c->st.frames_foreign, __ATOMIC_RELAXED) > 0;
}

/* Returns the configuration warning or NULL. */
const char *dgr_conn_warning(const struct dgr_conn *c)
{
	return c->warning;
}

/* Returns the transport. */
struct dgr_transport *dgr_conn_transport(struct dgr_conn *c)
{
	return c->t;
}
