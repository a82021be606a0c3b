// SPDX-License-Identifier: GPL-2.0-or-later
/* The stream's threads of a host without UST events (see wire_threads.h). */
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "wire_threads.h"

struct pid_count {
	int32_t pid;
	uint64_t n;
	uint32_t dev;
};

void wt_init(struct wire_threads *wt)
{
	memset(wt, 0, sizeof(*wt));
}

void wt_free(struct wire_threads *wt)
{
	free(wt->bells);
	free(wt->copy_ts);
	free(wt->bell_off);
	memset(wt, 0, sizeof(*wt));
}

int wt_add_bell(struct wire_threads *wt, uint64_t arrival, uint64_t sent, uint32_t frame_len)
{
	if (wt->n == wt->cap) {
		size_t cap = wt->cap ? wt->cap * 2 : 1024;
		struct wt_bell *nb = realloc(wt->bells, cap * sizeof(*nb));

		if (!nb) {
			return -DGR_E_NOMEM;
		}
		wt->bells = nb;
		wt->cap = cap;
	}
	wt->bells[wt->n].arrival = arrival;
	wt->bells[wt->n].sent = sent;
	wt->bells[wt->n].frame_len = frame_len;
	wt->n++;
	return 0;
}

/* The first packet event at or after ts (n_net when none). */
static size_t net_from(const struct kernel_sched *k, uint64_t ts)
{
	size_t lo = 0, hi = k->n_net;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->net[mid].ts < ts) {
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return lo;
}

static void count_pid(struct pid_count *c, unsigned int *n, int32_t pid, uint32_t dev)
{
	unsigned int i;

	for (i = 0; i < *n; i++) {
		if (c[i].pid == pid) {
			c[i].n++;
			return;
		}
	}
	if (*n < WT_MAX_PIDS) {
		c[*n].pid = pid;
		c[*n].n = 1;
		c[*n].dev = dev;
		(*n)++;
	}
}

/* The send of k nearest to a doorbell frame at ts (kernel axis) of length len; NULL none. */
static const struct ks_net *nearest_send(const struct kernel_sched *k, uint64_t ts, uint32_t len)
{
	const struct ks_net *best = NULL;
	uint64_t best_d = 0;
	size_t i;

	for (i = net_from(k, ts > WT_WINDOW_NS ? ts - WT_WINDOW_NS : 0);
	     i < k->n_net && k->net[i].ts <= ts + WT_WINDOW_NS; i++) {
		const struct ks_net *e = &k->net[i];
		uint64_t d = e->ts > ts ? e->ts - ts : ts - e->ts;

		if (e->dir != KS_NET_TX || (len && e->len != len)) {
			continue;
		}
		if (!best || d < best_d) {
			best = e;
			best_d = d;
		}
	}
	return best;
}

/* Fills t with the candidate of most doorbells when it has more than half of them. */
static void pick(const struct kernel_sched *k, struct pid_count *c, unsigned int n, size_t bells,
		 struct wt_thread *t)
{
	unsigned int i, best = 0;

	memset(t, 0, sizeof(*t));
	for (i = 1; i < n; i++) {
		if (c[i].n > c[best].n) {
			best = i;
		}
	}
	for (i = 0; i < n; i++) {
		if (i != best && c[i].n > t->runner_up) {
			t->runner_up = c[i].n;
		}
	}
	if (!n || c[best].n * 2 <= bells) {
		t->matched = n ? c[best].n : 0;
		return;
	}
	t->found = true;
	t->pid = c[best].pid;
	t->tid = ks_local_pid(k, c[best].pid);
	t->matched = c[best].n;
	t->dev = c[best].dev;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median of the known (not INT64_MIN) offsets of bells [from, to); none: INT64_MIN. */
static int64_t local_median(const int64_t *d, size_t from, size_t to)
{
	int64_t v[2 * WT_LOCAL_BELLS + 1];
	size_t n = 0, i, j;

	for (i = from; i < to && n < sizeof(v) / sizeof(v[0]); i++) {
		if (d[i] == INT64_MIN) {
			continue;
		}
		for (j = n++; j > 0 && v[j - 1] > d[i]; j--) {
			v[j] = v[j - 1];
		}
		v[j] = d[i];
	}
	return n ? v[(n + 1) / 2 - 1] : INT64_MIN;
}

/*
 * The sender; the clocks' offset as the median of its matches' (capture - kernel), and each
 * bell's own, the median of the matches of the WT_LOCAL_BELLS bells on each side (a step of
 * the real-time clock during the run moves the capture's times, not the kernel's); the
 * receive windows' slack: the matches' largest difference above their bell's offset, plus
 * the floor.
 */
static int find_sender(struct wire_threads *wt, const struct kernel_sched *k)
{
	struct pid_count c[WT_MAX_PIDS];
	unsigned int n = 0;
	int64_t *d = NULL, *sorted = NULL;
	uint64_t spread = 0;
	size_t i, nd = 0;
	int rc = 0;

	for (i = 0; i < wt->n; i++) {
		const struct ks_net *e = nearest_send(k, wt->bells[i].sent, wt->bells[i].frame_len);

		if (e) {
			count_pid(c, &n, e->pid, e->dev);
		}
	}
	pick(k, c, n, wt->n, &wt->sender);
	if (!wt->sender.found) {
		return 0;
	}
	d = malloc(wt->n * sizeof(*d));
	sorted = malloc(wt->n * sizeof(*sorted));
	wt->bell_off = malloc(wt->n * sizeof(*wt->bell_off));
	if (!d || !sorted || !wt->bell_off) {
		rc = -DGR_E_NOMEM;
		goto out;
	}
	for (i = 0; i < wt->n; i++) {
		const struct ks_net *e = nearest_send(k, wt->bells[i].sent, wt->bells[i].frame_len);

		d[i] = INT64_MIN;
		if (e && e->pid == wt->sender.pid) {
			d[i] = (int64_t)(wt->bells[i].sent - e->ts);
			sorted[nd++] = d[i];
		}
	}
	qsort(sorted, nd, sizeof(*sorted), cmp_i64);
	wt->offset_ns = nd ? sorted[(nd + 1) / 2 - 1] : 0;
	for (i = 0; i < wt->n; i++) {
		size_t from = i > WT_LOCAL_BELLS ? i - WT_LOCAL_BELLS : 0;
		size_t to = wt->n - i > WT_LOCAL_BELLS ? i + WT_LOCAL_BELLS + 1 : wt->n;
		int64_t m = local_median(d, from, to);

		wt->bell_off[i] = m == INT64_MIN ? wt->offset_ns : m;
		if (d[i] != INT64_MIN && d[i] > wt->bell_off[i] &&
		    (uint64_t)(d[i] - wt->bell_off[i]) > spread) {
			spread = (uint64_t)(d[i] - wt->bell_off[i]);
		}
	}
	wt->rx_slack_ns = WT_RX_SLACK_NS + (spread < WT_WINDOW_NS ? spread : WT_WINDOW_NS);
out:
	free(d);
	free(sorted);
	return rc;
}

int64_t wt_bell_offset(const struct wire_threads *wt, size_t i)
{
	return wt->bell_off ? wt->bell_off[i] : wt->offset_ns;
}

/* A bell's receive window on the kernel's axis: [*from, *to], *strict the arrival itself. */
static void rx_window(const struct wire_threads *wt, size_t i, uint64_t *from, uint64_t *strict,
		      uint64_t *to)
{
	uint64_t off = (uint64_t)wt_bell_offset(wt, i);

	*strict = wt->bells[i].arrival - off;
	*from = *strict > wt->rx_slack_ns ? *strict - wt->rx_slack_ns : 0;
	*to = wt->bells[i].sent - off;
}

/*
 * The receiver: a thread that copied a datagram between each data frame's arrival (less the
 * slack of the clocks' offset) and its doorbell.
 */
static int find_receiver(struct wire_threads *wt, const struct kernel_sched *k)
{
	struct pid_count c[WT_MAX_PIDS];
	unsigned int n = 0, j;
	size_t i, e;

	for (i = 0; i < wt->n; i++) {
		uint64_t from, strict, to;
		int32_t seen[WT_MAX_PIDS];
		unsigned int n_seen = 0;

		rx_window(wt, i, &from, &strict, &to);
		for (e = net_from(k, from); e < k->n_net && k->net[e].ts <= to; e++) {
			if (k->net[e].dir != KS_NET_RX_COPY) {
				continue;
			}
			for (j = 0; j < n_seen && seen[j] != k->net[e].pid; j++) {
			}
			if (j == n_seen && n_seen < WT_MAX_PIDS) {
				seen[n_seen++] = k->net[e].pid;
				count_pid(c, &n, k->net[e].pid, 0);
			}
		}
	}
	pick(k, c, n, wt->n, &wt->receiver);
	if (!wt->receiver.found) {
		return 0;
	}
	wt->copy_ts = calloc(wt->n, sizeof(*wt->copy_ts));
	if (!wt->copy_ts) {
		return -DGR_E_NOMEM;
	}
	for (i = 0; i < wt->n; i++) {
		uint64_t from, strict, to;

		rx_window(wt, i, &from, &strict, &to);
		/* the first copy from the arrival on; else the last one of the slack before it */
		for (e = net_from(k, from); e < k->n_net && k->net[e].ts <= to; e++) {
			if (k->net[e].dir != KS_NET_RX_COPY || k->net[e].pid != wt->receiver.pid) {
				continue;
			}
			wt->copy_ts[i] = k->net[e].ts;
			if (k->net[e].ts >= strict) {
				break;
			}
		}
	}
	return 0;
}

int wt_find(struct wire_threads *wt, const struct kernel_sched *k)
{
	size_t i;

	for (i = 0; i < k->n_net; i++) {
		if (k->net[i].dir == KS_NET_TX) {
			wt->tx_events++;
		} else {
			wt->rx_copy_events++;
		}
	}
	if (!wt->n) {
		return 0;
	}
	if (k->n || k->n_net) {
		/* the span of every event kept, the scheduler's and the packets' */
		uint64_t first = k->n ? k->first_ts : UINT64_MAX, last = k->n ? k->last_ts : 0;

		if (k->n_net && k->net[0].ts < first) {
			first = k->net[0].ts;
		}
		if (k->n_net && k->net[k->n_net - 1].ts > last) {
			last = k->net[k->n_net - 1].ts;
		}
		wt->clocks_apart = wt->bells[wt->n - 1].sent < first || wt->bells[0].arrival > last;
	}
	if (find_sender(wt, k) < 0 || find_receiver(wt, k) < 0) {
		return -DGR_E_NOMEM;
	}
	return 0;
}

static void print_thread(struct dgr_pr *p, const char *key, const char *label,
			 const struct wt_thread *t, const struct kernel_sched *k, const char *how,
			 uint64_t events, size_t bells)
{
	dgr_pr_obj_begin(p, key, label);
	dgr_pr_bool(p, "found", "found", t->found);
	if (t->found) {
		dgr_pr_str(p, "comm", "comm", ks_comm_of(k, t->pid));
		dgr_pr_i64(p, "tid", "tid", t->tid);
		dgr_pr_i64(p, "kernel_pid", "kernel pid", t->pid);
		if (t->dev) {
			dgr_pr_str(p, "device", "device", ks_name(k, t->dev));
		}
	}
	dgr_pr_u64(p, "doorbells_matched", "doorbells it matched", t->matched);
	dgr_pr_u64(p, "doorbells", "of doorbells", bells);
	dgr_pr_u64(p, "runner_up_matched", "next thread matched", t->runner_up);
	dgr_pr_u64(p, "events", "its kind of kernel events", events);
	dgr_pr_str(p, "how", "how", how);
	dgr_pr_obj_end(p);
}

void wt_print(struct dgr_pr *p, const struct wire_threads *wt, const struct kernel_sched *k)
{
	dgr_pr_str(p, "source", "stalls from", "wire");
	dgr_pr_obj_begin(p, "threads",
			 "the stream's threads, found from the capture and the kernel trace");
	print_thread(p, "doorbell_sender", "doorbell sender", &wt->sender, k,
		     "net:net_dev_xmit of the doorbell frame's length nearest each doorbell frame "
		     "of the capture (within 1 ms)",
		     wt->tx_events, wt->n);
	print_thread(
	    p, "data_receiver", "data receiver", &wt->receiver, k,
	    "skb:skb_copy_datagram_iovec between each data frame's arrival and its doorbell",
	    wt->rx_copy_events, wt->n);
	dgr_pr_bool(p, "clocks_apart", "the kernel trace's times apart from the capture's",
		    wt->clocks_apart);
	dgr_pr_i64(p, "clock_offset_ns",
		   "clock offset, capture - kernel trace (ns, median of the sender's frames)",
		   wt->offset_ns);
	dgr_pr_u64(p, "rx_slack_ns",
		   "the data receiver's windows start this long before the arrival (ns: 10 us and "
		   "the sender's matches' spread above their median)",
		   wt->rx_slack_ns);
	dgr_pr_obj_end(p);
}
