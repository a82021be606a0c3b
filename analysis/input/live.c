// SPDX-License-Identifier: GPL-2.0-or-later
/* Interval accounting of latency-report --live (see live.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "cli.h"
#include "live.h"

void live_init(struct live_acc *a)
{
	memset(a, 0, sizeof(*a));
}

void live_free(struct live_acc *a)
{
	llh_free(&a->lat_h);
	llh_free(&a->arrival_h);
	llh_free(&a->wire_h);
	live_init(a);
}

/* The quantiles of the values a histogram holds (every value of the run so far). */
static void hist_quantiles(const struct loglin_hist *h, struct quantiles *q)
{
	memset(q, 0, sizeof(*q));
	q->count = h->n;
	q->p50 = llh_percentile(h, 500);
	q->p99 = llh_percentile(h, 990);
	q->p999 = llh_percentile(h, 999);
	q->max = h->max;
	q->from_histogram = true;
}

/*
 * The run's quantiles of s (its samples 0..n): its values from mark on are
 * added to *rh first (allocated when NULL); past the exact limit the
 * quantiles come from *rh when it holds every value (the values series_quantiles
 * would give: the same buckets), else from series_quantiles. Returns 0 or -DGR_E_NOMEM.
 */
static int run_quantiles(struct loglin_hist *rh, const struct series *s, size_t mark,
			 struct quantiles *q)
{
	struct series_cursor *c;
	struct sample x;

	if (!rh->counts && (mark != 0 || llh_init(rh))) {
		return series_quantiles(s, 0, s->n, q); /* missed values: never used */
	}
	c = malloc(sizeof(*c));
	if (!c) {
		return -DGR_E_NOMEM;
	}
	series_cursor_init(c, s, mark);
	while (series_next(c, &x)) {
		llh_add(rh, x.value);
	}
	free(c);
	if (s->n <= stats_exact_limit() || rh->n != s->n) {
		return series_quantiles(s, 0, s->n, q);
	}
	hist_quantiles(rh, q);
	return 0;
}

static void drops_rate(struct live_drops *d)
{
	uint64_t all = d->delivered + d->lost;

	d->rate = all ? (double)d->lost / (double)all : 0.0;
}

/*
 * Counts since the interval began. A total lower than before means a source
 * restarted its counters (a new process): its whole total is new then.
 */
static void drops_since(const struct live_drops *now, const struct live_drops *then,
			struct live_drops *out)
{
	out->delivered =
	    now->delivered >= then->delivered ? now->delivered - then->delivered : now->delivered;
	out->lost = now->lost >= then->lost ? now->lost - then->lost : now->lost;
	drops_rate(out);
}

int live_close(struct live_acc *a, const struct host_analysis *h, struct live_interval *out)
{
	unsigned int i;

	memset(out, 0, sizeof(*out));
	out->index = a->closed + 1;
	out->events_run = h->c.events;
	out->events = h->c.events - a->events0;
	if (series_quantiles(&h->lat, a->lat_mark, h->lat.n, &out->lat) ||
	    run_quantiles(&a->lat_h, &h->lat, a->lat_mark, &out->lat_run)) {
		return -DGR_E_NOMEM;
	}
	out->has_arrival = h->lat_arrival.n > 0;
	if (out->has_arrival &&
	    (series_quantiles(&h->lat_arrival, a->arrival_mark, h->lat_arrival.n, &out->arrival) ||
	     run_quantiles(&a->arrival_h, &h->lat_arrival, a->arrival_mark, &out->arrival_run))) {
		return -DGR_E_NOMEM;
	}
	for (i = 0; i < h->n_srcs; i++) {
		const struct ha_counter_src *s = &h->srcs[i];
		struct live_drops *d = s->fpga ? &out->fpga_run : &out->host_run;

		if (!s->seen) {
			continue;
		}
		*(s->fpga ? &out->fpga_counters : &out->host_counters) = true;
		d->delivered += s->delivered;
		d->lost += s->lost;
	}
	drops_rate(&out->host_run);
	drops_rate(&out->fpga_run);
	drops_since(&out->host_run, &a->host0, &out->host);
	drops_since(&out->fpga_run, &a->fpga0, &out->fpga);
	series_histogram(&h->lat, a->lat_mark, h->lat.n, out->hist);
	series_histogram(&h->lat_arrival, a->arrival_mark, h->lat_arrival.n, out->arrival_hist);
	for (i = 0; i < HIST_BINS; i++) {
		a->hist_run[i] += out->hist[i];
		a->arrival_hist_run[i] += out->arrival_hist[i];
	}
	memcpy(out->hist_run, a->hist_run, sizeof(out->hist_run));
	memcpy(out->arrival_hist_run, a->arrival_hist_run, sizeof(out->arrival_hist_run));

	a->lat_mark = h->lat.n;
	a->arrival_mark = h->lat_arrival.n;
	a->host0 = out->host_run;
	a->fpga0 = out->fpga_run;
	a->events0 = h->c.events;
	a->closed++;
	return 0;
}

int live_close_wire(size_t *mark, struct loglin_hist *run_h, const struct series *s,
		    struct live_interval *out)
{
	out->has_wire = true;
	if (series_quantiles(s, *mark, s->n, &out->wire) ||
	    run_quantiles(run_h, s, *mark, &out->wire_run)) {
		return -DGR_E_NOMEM;
	}
	*mark = s->n;
	return 0;
}

static void hist_add(uint64_t *to, const uint64_t *hist)
{
	unsigned int k;

	for (k = 0; k < HIST_BINS; k++) {
		to[k] += hist[k];
	}
}

static void drops_add(struct live_drops *to, const struct live_drops *d)
{
	to->delivered += d->delivered;
	to->lost += d->lost;
	drops_rate(to);
}

/*
 * Quantiles of the union of s[i]->s[from[i]..) (interval) and s[i]->s[0..) (run).
 * Past the exact limit the run's come from the hosts' run histograms run_h[i]
 * merged, when each holds every value of its series (live_close's run_quantiles
 * filled them): the values series_quantiles would give (the same buckets), without
 * reading the run again at every interval. Returns 0, or -DGR_E_NOMEM.
 */
static int union_quantiles(const struct series *const *s, const size_t *from,
			   const struct loglin_hist *const *run_h, unsigned int n,
			   struct quantiles *interval, struct quantiles *run)
{
	struct series all;
	struct series_cursor *c = malloc(sizeof(*c));
	struct loglin_hist merged = { .counts = NULL };
	struct sample x;
	size_t mark = 0, j, total = 0;
	unsigned int i;
	bool from_hists = true;
	int ret = c ? 0 : -1;

	for (i = 0; i < n; i++) {
		total += s[i]->n;
		from_hists = from_hists && run_h[i]->counts && run_h[i]->n == s[i]->n;
	}
	from_hists = from_hists && total > stats_exact_limit();
	/* the interval's samples last, so that one series gives both */
	series_init(&all);
	for (i = 0; i < n && !ret && !from_hists; i++) {
		series_cursor_init(c, s[i], 0);
		for (j = 0; j < from[i] && !ret && series_next(c, &x); j++) {
			ret = series_add(&all, x.t, x.value);
		}
		ret = ret || c->err;
	}
	mark = all.n;
	for (i = 0; i < n && !ret; i++) {
		series_cursor_init(c, s[i], from[i]);
		while (!ret && series_next(c, &x)) {
			ret = series_add(&all, x.t, x.value);
		}
		ret = ret || c->err;
	}
	free(c);
	if (!ret) {
		ret = series_quantiles(&all, mark, all.n, interval);
	}
	if (!ret && !from_hists) {
		ret = series_quantiles(&all, 0, all.n, run);
	} else if (!ret) {
		ret = llh_init(&merged);
		for (i = 0; i < n && !ret; i++) {
			llh_merge(&merged, run_h[i]);
		}
		if (!ret) {
			hist_quantiles(&merged, run);
		}
		llh_free(&merged);
	}
	series_free(&all);
	return ret ? -DGR_E_NOMEM : 0;
}

int live_together(const struct host_analysis *const *h, const struct live_acc *const *acc,
		  const size_t *lat_from, const size_t *arrival_from,
		  const struct series *const *wire, const size_t *wire_from,
		  const struct live_interval *per, unsigned int n, struct live_interval *out)
{
	const struct series *s[LIVE_MAX_HOSTS] = { NULL };
	const struct loglin_hist *rh[LIVE_MAX_HOSTS] = { NULL };
	bool arrival = n > 0;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	if (n > LIVE_MAX_HOSTS) {
		return -DGR_E_INVAL;
	}
	for (i = 0; i < n; i++) {
		out->index = per[i].index;
		out->events += per[i].events;
		out->events_run += per[i].events_run;
		out->host_counters |= per[i].host_counters;
		out->fpga_counters |= per[i].fpga_counters;
		drops_add(&out->host, &per[i].host);
		drops_add(&out->host_run, &per[i].host_run);
		drops_add(&out->fpga, &per[i].fpga);
		drops_add(&out->fpga_run, &per[i].fpga_run);
		hist_add(out->hist, per[i].hist);
		hist_add(out->hist_run, per[i].hist_run);
		hist_add(out->arrival_hist, per[i].arrival_hist);
		hist_add(out->arrival_hist_run, per[i].arrival_hist_run);
		arrival = arrival && per[i].has_arrival;
	}
	for (i = 0; i < n; i++) {
		s[i] = &h[i]->lat;
		rh[i] = &acc[i]->lat_h;
	}
	if (union_quantiles(s, lat_from, rh, n, &out->lat, &out->lat_run)) {
		return -DGR_E_NOMEM;
	}
	out->has_wire = wire != NULL;
	for (i = 0; i < n; i++) {
		rh[i] = &acc[i]->wire_h;
	}
	if (wire && union_quantiles(wire, wire_from, rh, n, &out->wire, &out->wire_run)) {
		return -DGR_E_NOMEM;
	}
	out->has_arrival = arrival;
	for (i = 0; arrival && i < n; i++) {
		s[i] = &h[i]->lat_arrival;
		rh[i] = &acc[i]->arrival_h;
	}
	return arrival ? union_quantiles(s, arrival_from, rh, n, &out->arrival, &out->arrival_run)
		       : 0;
}

void live_sparkline(char *buf, size_t size, const uint64_t *v, unsigned int n)
{
	static const char *const blocks[8] = { "\u2581", "\u2582", "\u2583", "\u2584",
					       "\u2585", "\u2586", "\u2587", "\u2588" };
	uint64_t max = 0;
	size_t len = 0;
	unsigned int i;

	if (size == 0) {
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		max = v[i] > max ? v[i] : max;
	}
	for (i = 0; i < n; i++) {
		/* in double: v x 8 may not fit in 64 bits */
		double eighths = max ? (double)v[i] * 8.0 / (double)max : 0.0;
		unsigned int level = (unsigned int)eighths;
		const char *c = blocks[0];

		if (v[i] == 0) {
			c = " ";
		} else {
			level = (double)level < eighths ? level + 1 : level;
			c = blocks[level > 8 ? 7 : level - 1];
		}
		if (len + strlen(c) + 1 > size) {
			break;
		}
		memcpy(buf + len, c, strlen(c) + 1);
		len += strlen(c);
	}
}

bool live_histogram_range(const uint64_t *hist, unsigned int *lo, unsigned int *hi)
{
	bool any = false;
	unsigned int k;

	for (k = 0; k < HIST_BINS; k++) {
		if (!hist[k]) {
			continue;
		}
		if (!any) {
			*lo = k;
		}
		*hi = k;
		any = true;
	}
	return any;
}

void live_histogram(char *buf, size_t size, const uint64_t *hist, unsigned int lo, unsigned int hi)
{
	char bars[HIST_BINS * 3 + 1], from[32], to[32];
	int len;

	if (size == 0) {
		return;
	}
	buf[0] = '\0';
	if (lo > hi || hi >= HIST_BINS) {
		return;
	}
	live_sparkline(bars, sizeof(bars), hist + lo, hi - lo + 1);
	dgr_format_duration(from, sizeof(from), lo ? (double)(1ull << lo) : 0.0);
	dgr_format_duration(to, sizeof(to), (double)(1ull << (hi + 1)));
	len = snprintf(buf, size, "%s \u2595%s\u258f %s", from, bars, to);
	if (len < 0 || (size_t)len >= size) {
		buf[0] = '\0';
	}
}
