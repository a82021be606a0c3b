// SPDX-License-Identifier: GPL-2.0-or-later
/* FPGA buffer occupancy on the TX path (see occupancy.h). */
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "headroom.h"
#include "occupancy.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The starts (t) or the ends (t + value) of a series, in increasing order:
 * read in the series' order (nearly sorted already: doorbells are recorded
 * as they come) through a min-heap of OCC_SORT_WINDOW values, so the memory
 * stays fixed. When a first pass finds a value further out of order than the
 * heap can mend, the values are read whole and sorted in memory instead.
 */
#define OCC_SORT_WINDOW 65536u
struct sorted_values {
	const struct series *s;
	bool ends;
	struct series_cursor cur;
	uint64_t *heap;
	size_t n_heap;
	uint64_t *all; /* every value, sorted (when the heap cannot order them) */
	size_t i_all;
	bool failed; /* the series' file could not be read back */
};

static void sv_rewind(struct sorted_values *v)
{
	series_cursor_init(&v->cur, v->s, 0);
	v->n_heap = 0;
	v->i_all = 0;
}

static bool sv_read(struct sorted_values *v, uint64_t *out)
{
	struct sample x;

	if (!series_next(&v->cur, &x)) {
		v->failed |= v->cur.err != 0;
		return false;
	}
	*out = v->ends ? sat_add_u64(x.t, x.value) : x.t;
	return true;
}

static void u64_heap_push(uint64_t *h, size_t *n, uint64_t x)
{
	size_t i = (*n)++;

	while (i && x < h[(i - 1) / 2]) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = x;
}

static uint64_t u64_heap_pop(uint64_t *h, size_t *n)
{
	uint64_t top = h[0], last = h[--(*n)];
	size_t i = 0;

	for (;;) {
		size_t k = 2 * i + 1;

		if (k >= *n) {
			break;
		}
		if (k + 1 < *n && h[k + 1] < h[k]) {
			k++;
		}
		if (h[k] >= last) {
			break;
		}
		h[i] = h[k];
		i = k;
	}
	if (*n) {
		h[i] = last;
	}
	return top;
}

/* The next value in increasing order. Returns false at the end, or when the file cannot be read. */
static bool sv_next(struct sorted_values *v, uint64_t *out)
{
	uint64_t x;

	if (v->all) {
		if (v->i_all >= v->s->n) {
			return false;
		}
		*out = v->all[v->i_all++];
		return true;
	}
	while (v->n_heap < OCC_SORT_WINDOW && sv_read(v, &x)) {
		u64_heap_push(v->heap, &v->n_heap, x);
	}
	if (v->failed || !v->n_heap) {
		return false;
	}
	*out = u64_heap_pop(v->heap, &v->n_heap);
	return true;
}

/* Reads every value into all and sorts them. Returns 0, -DGR_E_NOMEM or -DGR_E_SYS. */
static int sv_sort_all(struct sorted_values *v)
{
	size_t i;

	v->all = malloc((v->s->n ? v->s->n : 1) * sizeof(*v->all));
	if (!v->all) {
		return -DGR_E_NOMEM;
	}
	for (i = 0; i < v->s->n; i++) {
		if (!sv_read(v, &v->all[i])) {
			return -DGR_E_SYS;
		}
	}
	qsort(v->all, v->s->n, sizeof(*v->all), cmp_u64);
	return 0;
}

/* Opens the values; returns 0, -DGR_E_NOMEM or -DGR_E_SYS. */
static int sv_open(struct sorted_values *v, const struct series *s, bool ends)
{
	uint64_t x, prev = 0;
	bool ordered = true;

	memset(v, 0, sizeof(*v));
	v->s = s;
	v->ends = ends;
	sv_rewind(v);
	if (s->n <= OCC_SORT_WINDOW) {
		return sv_sort_all(v); /* no more than the heap would hold: one sort, one read */
	}
	v->heap = malloc(OCC_SORT_WINDOW * sizeof(*v->heap));
	if (!v->heap) {
		return -DGR_E_NOMEM;
	}
	/* the heap gives each value once all before it in the order have come: check it does */
	while (ordered && v->n_heap < OCC_SORT_WINDOW && sv_read(v, &x)) {
		u64_heap_push(v->heap, &v->n_heap, x);
	}
	while (ordered && v->n_heap) {
		x = u64_heap_pop(v->heap, &v->n_heap);
		ordered = x >= prev;
		prev = x;
		if (sv_read(v, &x)) {
			ordered &= x >= prev;
			u64_heap_push(v->heap, &v->n_heap, x);
		}
	}
	if (v->failed) {
		return -DGR_E_SYS;
	}
	sv_rewind(v);
	return ordered ? 0 : sv_sort_all(v);
}

static void sv_close(struct sorted_values *v)
{
	free(v->heap);
	free(v->all);
}

/* The starts and the ends, merged: each pass of the sweep reads both from the beginning. */
struct sweep {
	struct sorted_values start, end;
	uint64_t s, e; /* the next start and end */
	bool has_s, has_e;
};

static void sweep_begin(struct sweep *w)
{
	sv_rewind(&w->start);
	sv_rewind(&w->end);
	w->has_s = sv_next(&w->start, &w->s);
	w->has_e = sv_next(&w->end, &w->e);
}

/*
 * The next event of the merge: a start (true) or an end (false) at *t; an
 * end and a start at the same instant give the start first. Returns false
 * when both are used up.
 */
static bool sweep_next(struct sweep *w, bool *is_start, uint64_t *t)
{
	if (!w->has_s && !w->has_e) {
		return false;
	}
	*is_start = w->has_s && (!w->has_e || w->s <= w->e);
	if (*is_start) {
		*t = w->s;
		w->has_s = sv_next(&w->start, &w->s);
	} else {
		*t = w->e;
		w->has_e = sv_next(&w->end, &w->e);
	}
	return true;
}

static bool sweep_failed(const struct sweep *w)
{
	return w->start.failed || w->end.failed;
}

/*
 * Sweeps the sorted starts and ends: the level changes at each; the time
 * spent at each level is added while it lies inside [lo, hi]. An end and a
 * start at the same instant count the start first (a buffer refilled the
 * moment it was freed never leaves the queue empty).
 */
int occupancy_compute(const struct series *tx, uint64_t buffers, struct occupancy *o)
{
	struct sweep *w;
	uint64_t lo = 0, hi = 0, prev, t, level = 0, empty_since = 0, j;
	double weighted = 0;
	size_t n = tx->n;
	bool is_start, first = true;
	int ret;

	memset(o, 0, sizeof(*o));
	if (n == 0) {
		o->buffers = buffers ? buffers : 1;
		return 0;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		return -DGR_E_NOMEM;
	}
	ret = sv_open(&w->start, tx, false);
	if (!ret) {
		ret = sv_open(&w->end, tx, true);
	}
	if (ret) {
		goto out;
	}
	/* the max outstanding first: it is the buffer count when none is given */
	sweep_begin(w);
	while (w->has_s && sweep_next(w, &is_start, &t)) {
		if (!is_start) {
			level--;
			continue;
		}
		if (first) {
			lo = t; /* the first transaction, unless the queue fills */
			first = false;
		}
		hi = t; /* the last transaction sent */
		if (++level > o->max) {
			o->max = level;
		}
	}
	o->buffers = buffers ? buffers : o->max;
	/* the window opens when the queue is first full (the start-up fill is no shortage) */
	sweep_begin(w);
	level = 0;
	while (w->has_s && sweep_next(w, &is_start, &t)) {
		if (!is_start) {
			level--;
		} else if (++level >= o->buffers) {
			lo = t;
			break;
		}
	}
	o->window_ns = hi - lo;
	level = 0;
	prev = lo;
	sweep_begin(w);
	while (sweep_next(w, &is_start, &t)) {
		uint64_t a = prev > lo ? prev : lo, b = t < hi ? t : hi;

		if (b > a) {
			weighted += (double)level * (double)(b - a);
			if (level == 0) {
				o->empty_ns += b - a;
			}
			if (2 * level <= o->buffers) {
				o->low_ns += b - a;
			}
		}
		prev = t;
		if (is_start) {
			if (level == 0 && t > lo && t <= hi) {
				/* an empty spell inside the window ends */
				uint64_t len = t - (empty_since > lo ? empty_since : lo);

				o->empty_episodes++;
				if (len > o->longest_empty_ns) {
					o->longest_empty_ns = len;
				}
			}
			level++;
		} else {
			level--;
			if (level == 0) {
				empty_since = t;
			}
		}
	}
	o->mean = o->window_ns ? weighted / (double)o->window_ns : (double)o->max;
	/*
	 * Refills: with N credits, the send into the slot that doorbell j freed is
	 * send j + N (both in time order); its delay is the host's answer time.
	 */
	sweep_begin(w);
	for (j = 0; w->has_s && j < o->buffers; j++) {
		w->has_s = sv_next(&w->start, &w->s);
	}
	for (; o->buffers < n && w->has_s && w->has_e;) {
		uint64_t s = w->s, e = w->e;

		if (e >= lo && e <= hi && s >= e) {
			o->refills++;
			if (s - e > o->worst_refill_ns) {
				o->worst_refill_ns = s - e;
			}
		}
		w->has_s = sv_next(&w->start, &w->s);
		w->has_e = sv_next(&w->end, &w->e);
	}
	ret = sweep_failed(w) ? -DGR_E_SYS : 0;
out:
	sv_close(&w->start);
	sv_close(&w->end);
	free(w);
	if (ret) {
		memset(o, 0, sizeof(*o));
	}
	return ret;
}
