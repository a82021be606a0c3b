// SPDX-License-Identifier: GPL-2.0-or-later
/* Wire + trace join (see join.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "join.h"

struct pair {
	uint64_t complete, bell;
	uint64_t handed;  /* trace: the doorbell handed to the kernel; wire: = bell */
	uint64_t arrival; /* trace: the completing frame's kernel arrival, 0 unknown */
	uint64_t txn;	  /* the transaction's id */
	uint64_t seq;	  /* its place in the side's series (equal times keep that order) */
};

void join_series_init(struct join_series *js)
{
	series_init(&js->w2s);
	series_init(&js->s2w);
	series_init(&js->arrival_offset);
}

void join_series_free(struct join_series *js)
{
	series_free(&js->w2s);
	series_free(&js->s2w);
	series_free(&js->arrival_offset);
}

/* Doorbell time, then completion, then the series' order: the order of a stable sort. */
static bool before(const struct pair *x, const struct pair *y)
{
	if (x->bell != y->bell) {
		return x->bell < y->bell;
	}
	if (x->complete != y->complete) {
		return x->complete < y->complete;
	}
	return x->seq < y->seq;
}

static int cmp_bell(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	return before(x, y) ? -1 : before(y, x);
}

/* s's series that has one sample per doorbell, else NULL */
static const struct series *parallel(const struct join_side *s, const struct series *x)
{
	return x && x->n == s->lat->n ? x : NULL;
}

/*
 * One side's doorbells in order of doorbell time, read from its series (in
 * the order the doorbells were recorded: nearly that order already) through a
 * min-heap of JOIN_SORT_WINDOW, so its memory stays fixed. A side with a
 * doorbell further out of order than that is read whole and sorted in memory
 * instead (all): the same order, memory not bounded.
 */
#define JOIN_SORT_WINDOW 65536u
struct pair_stream {
	const struct series *lat, *handed, *arrival, *txn;
	struct series_cursor c[4]; /* lat, handed, arrival, txn */
	uint64_t read;		   /* doorbells read from the series */
	struct pair *heap;
	size_t n_heap;
	struct pair *all; /* the whole side, sorted (when the heap cannot order it) */
	size_t i_all;
	bool failed; /* a series' file could not be read */
};

static void ps_rewind(struct pair_stream *ps)
{
	series_cursor_init(&ps->c[0], ps->lat, 0);
	series_cursor_init(&ps->c[1], ps->handed ? ps->handed : ps->lat, 0);
	series_cursor_init(&ps->c[2], ps->arrival ? ps->arrival : ps->lat, 0);
	series_cursor_init(&ps->c[3], ps->txn ? ps->txn : ps->lat, 0);
	ps->read = 0;
	ps->n_heap = 0;
}

/* The next doorbell in the series' order. Returns false at the end or on a read error. */
static bool ps_read(struct pair_stream *ps, struct pair *p)
{
	struct sample x, y = { 0, 0 };

	if (!series_next(&ps->c[0], &x)) {
		ps->failed |= ps->c[0].err != 0;
		return false;
	}
	p->complete = x.t;
	p->bell = x.t + x.value;
	p->handed = ps->handed && series_next(&ps->c[1], &y) ? x.t + y.value : p->bell;
	p->arrival = ps->arrival && series_next(&ps->c[2], &y) ? y.value : 0;
	p->txn = ps->txn && series_next(&ps->c[3], &y) ? y.value : 0;
	p->seq = ps->read++;
	ps->failed |= ps->c[1].err || ps->c[2].err || ps->c[3].err;
	return !ps->failed;
}

static void heap_push(struct pair *h, size_t *n, const struct pair *p)
{
	size_t i = (*n)++;

	while (i && before(p, &h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = *p;
}

static void heap_pop(struct pair *h, size_t *n, struct pair *out)
{
	struct pair last = h[--(*n)];
	size_t i = 0;

	*out = h[0];
	for (;;) {
		size_t k = 2 * i + 1;

		if (k >= *n) {
			break;
		}
		if (k + 1 < *n && before(&h[k + 1], &h[k])) {
			k++;
		}
		if (!before(&h[k], &last)) {
			break;
		}
		h[i] = h[k];
		i = k;
	}
	if (*n) {
		h[i] = last;
	}
}

/*
 * The next doorbell in order of doorbell time, through the heap. Sets
 * *late when the doorbell read is before one already given out (the heap
 * could not order the side). Returns false at the end or on a read error.
 */
static bool ps_heap_next(struct pair_stream *ps, struct pair *out, const struct pair *last,
			 bool *late)
{
	struct pair p;

	while (ps->n_heap < JOIN_SORT_WINDOW && ps_read(ps, &p)) {
		if (last && before(&p, last)) {
			*late = true;
		}
		heap_push(ps->heap, &ps->n_heap, &p);
	}
	if (ps->failed || !ps->n_heap) {
		return false;
	}
	heap_pop(ps->heap, &ps->n_heap, out);
	return true;
}

/*
 * Opens side's stream: a first pass through the heap checks that it orders
 * the side; if it cannot, the side is read whole and sorted. Returns 0, or
 * -1 when memory runs out or a series' file cannot be read.
 */
/* Reads the whole side into all and sorts it. Returns 0, or -1 (memory, or a file's read). */
static int ps_sort_all(struct pair_stream *ps)
{
	size_t i;

	ps->all = malloc((ps->lat->n ? ps->lat->n : 1) * sizeof(*ps->all));
	if (!ps->all) {
		return -1;
	}
	for (i = 0; i < ps->lat->n; i++) {
		if (!ps_read(ps, &ps->all[i])) {
			return -1;
		}
	}
	qsort(ps->all, ps->lat->n, sizeof(*ps->all), cmp_bell);
	return 0;
}

static int ps_open(struct pair_stream *ps, const struct join_side *side, uint64_t *in_memory)
{
	struct pair prev, p;
	bool late = false, any = false;

	memset(ps, 0, sizeof(*ps));
	ps->lat = side->lat;
	ps->handed = parallel(side, side->handed);
	ps->arrival = parallel(side, side->arrival);
	ps->txn = parallel(side, side->txn);
	ps_rewind(ps);
	if (ps->lat->n <= JOIN_SORT_WINDOW) {
		return ps_sort_all(ps); /* no more than the heap would hold: one sort, one read */
	}
	ps->heap = malloc(JOIN_SORT_WINDOW * sizeof(*ps->heap));
	if (!ps->heap) {
		return -1;
	}
	while (!late && ps_heap_next(ps, &p, any ? &prev : NULL, &late)) {
		prev = p;
		any = true;
	}
	if (ps->failed) {
		return -1;
	}
	ps_rewind(ps);
	if (!late) {
		return 0;
	}
	(*in_memory)++;
	return ps_sort_all(ps);
}

static void ps_close(struct pair_stream *ps)
{
	free(ps->heap);
	free(ps->all);
}

/* The side's next doorbell in order of doorbell time. Returns false at the end or on an error. */
static bool ps_next(struct pair_stream *ps, struct pair *out)
{
	bool late = false;

	if (ps->all) {
		if (ps->i_all >= ps->lat->n) {
			return false;
		}
		*out = ps->all[ps->i_all++];
		return true;
	}
	return ps_heap_next(ps, out, NULL, &late);
}

/*
 * The host side's doorbells the pairing may still look at: indexes base ..
 * base + n - 1 in a ring, read from the stream as the pairing asks for them
 * and let go once it has passed them (at most the doorbells of a pairing
 * window or two).
 */
struct pair_window {
	struct pair_stream *ps;
	struct pair *p;
	size_t cap, first, n;
	uint64_t base;
	bool failed;
};

/* Host doorbell k (k >= the window's base), or NULL past the end, on an error or out of memory. */
static const struct pair *pw_at(struct pair_window *w, uint64_t k)
{
	while (k >= w->base + w->n) {
		if (w->n == w->cap) {
			size_t cap = w->cap ? 2 * w->cap : 256, i;
			struct pair *np = malloc(cap * sizeof(*np));

			if (!np) {
				w->failed = true;
				return NULL;
			}
			for (i = 0; i < w->n; i++) {
				np[i] = w->p[(w->first + i) % w->cap];
			}
			free(w->p);
			w->p = np;
			w->cap = cap;
			w->first = 0;
		}
		if (!ps_next(w->ps, &w->p[(w->first + w->n) % w->cap])) {
			w->failed |= w->ps->failed;
			return NULL;
		}
		w->n++;
	}
	return &w->p[(w->first + (size_t)(k - w->base)) % w->cap];
}

/* Lets go of the host doorbells before index k (all of them read already). */
static void pw_drop_before(struct pair_window *w, uint64_t k)
{
	while (w->n && w->base < k) {
		w->first = (w->first + 1) % w->cap;
		w->n--;
		w->base++;
	}
}

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* The part b - a, clamped at 0; counts negatives. */
static uint64_t part(uint64_t a, uint64_t b, uint64_t *negative)
{
	if (b < a) {
		(*negative)++;
		return 0;
	}
	return b - a;
}

/*
 * The host doorbell (index >= next) for wire doorbell w: nearest in time, of
 * the same transaction when by_txn; both its doorbell and its completion
 * within the window. *old: the host doorbells before it are a window older
 * than every wire doorbell from w on (the wire's are sorted), so they are
 * never looked at again. Returns its index, or n when there is none (or the
 * host's doorbells cannot be read: h->failed); *complete_out is set when the
 * one found was left out for its completion.
 */
static uint64_t pick(struct pair_window *h, uint64_t n, uint64_t next, uint64_t *old,
		     const struct pair *w, bool by_txn, uint64_t window_ns, bool *complete_out)
{
	const struct pair *hk, *hb = NULL;
	uint64_t k, best = n;

	/*
	 * The host doorbells a window before w's are too old for it and every later one.
	 * From next on: those before it are passed already (and let go).
	 */
	if (*old < next) {
		*old = next;
	}
	while (*old < n && (hk = pw_at(h, *old)) && hk->bell + window_ns < w->bell) {
		(*old)++;
	}
	k = next > *old ? next : *old;
	pw_drop_before(h, k);
	if (by_txn) {
		/* the host doorbells up to a window after w's */
		for (; k < n && (hk = pw_at(h, k)) && hk->bell <= w->bell + window_ns; k++) {
			if (hk->txn == w->txn &&
			    (!hb || absdiff(hk->bell, w->bell) < absdiff(hb->bell, w->bell))) {
				best = k;
				hb = hk;
			}
		}
	} else {
		/* the host doorbells up to the wire's, then the nearest of the two around it */
		const struct pair *next_k;

		if (k >= n || !(hb = pw_at(h, k))) {
			return n;
		}
		while (k + 1 < n && (next_k = pw_at(h, k + 1)) && next_k->bell <= w->bell) {
			k++;
			hb = next_k;
		}
		best = k;
		if (k + 1 < n && (next_k = pw_at(h, k + 1)) &&
		    absdiff(next_k->bell, w->bell) < absdiff(hb->bell, w->bell)) {
			best = k + 1;
			hb = next_k;
		}
	}
	if (h->failed || !hb || absdiff(hb->bell, w->bell) > window_ns) {
		return n;
	}
	if (absdiff(hb->complete, w->complete) > window_ns) {
		*complete_out = true;
		return n;
	}
	return best;
}

void join_wire_host(const struct join_side *wire, const struct join_side *host, uint64_t window_ns,
		    struct join_series *out, struct join_result *res)
{
	struct pair_stream *ws = calloc(2, sizeof(*ws)), *hs = ws ? ws + 1 : NULL;
	struct pair_window hw = { 0 };
	struct pair w;
	const bool by_txn = parallel(wire, wire->txn) && parallel(host, host->txn);
	const bool with_arrival = parallel(host, host->arrival) != NULL;
	uint64_t n = host->lat->n, next = 0; /* first host doorbell not used and not passed */
	uint64_t old = 0;

	memset(res, 0, sizeof(*res));
	if (!ws || ps_open(ws, wire, &res->sides_in_memory) ||
	    ps_open(hs, host, &res->sides_in_memory)) {
		goto end;
	}
	hw.ps = hs;
	res->by_txn = by_txn;
	while (ps_next(ws, &w)) {
		bool complete_out = false;
		uint64_t best =
		    next < n ? pick(&hw, n, next, &old, &w, by_txn, window_ns, &complete_out) : n;
		const struct pair *hb;

		if (hw.failed) {
			break;
		}
		if (best == n) {
			if (next >= n) {
				res->unjoined_host_used_up++;
			} else if (complete_out) {
				res->unjoined_complete++;
			} else {
				res->unjoined_no_bell++;
			}
			if (res->unjoined_no_bell + res->unjoined_complete +
				res->unjoined_host_used_up ==
			    1) {
				res->first_unjoined_bell = w.bell;
				res->first_unjoined_txn = w.txn;
			}
			continue;
		}
		hb = pw_at(&hw, best);
		next = best + 1;
		series_add(&out->w2s, w.complete,
			   part(w.complete, hb->complete, &res->negative_w2s));
		series_add(&out->s2w, w.complete, part(hb->handed, w.bell, &res->negative_s2w));
		if (with_arrival && hb->arrival) {
			res->arrival_offsets++;
			if (hb->arrival < w.complete) {
				res->trace_arrival_first++;
			}
			series_add(&out->arrival_offset, w.complete,
				   absdiff(hb->arrival, w.complete));
		}
		res->joined++;
	}
end:
	if (ws) {
		ps_close(ws);
		ps_close(hs);
	}
	free(hw.p);
	free(ws);
}
