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

static int cmp_bell(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->bell != y->bell) {
		return x->bell < y->bell ? -1 : 1;
	}
	return x->complete < y->complete ? -1 : (x->complete > y->complete);
}

/* s's series that has one sample per doorbell, else NULL */
static const struct series *parallel(const struct join_side *s, const struct series *x)
{
	return x && x->n == s->lat->n ? x : NULL;
}

static struct pair *to_pairs(const struct join_side *side)
{
	const struct series *s = side->lat;
	const struct series *handed = parallel(side, side->handed);
	const struct series *arrival = parallel(side, side->arrival);
	const struct series *txn = parallel(side, side->txn);
	struct pair *p = malloc((s->n ? s->n : 1) * sizeof(*p));
	struct series_cursor *c = malloc(4 * sizeof(*c)); /* lat, handed, arrival, txn */
	struct sample x, y = { 0, 0 };
	size_t i;

	if (!p || !c) {
		goto fail;
	}
	series_cursor_init(&c[0], s, 0);
	series_cursor_init(&c[1], handed ? handed : s, 0);
	series_cursor_init(&c[2], arrival ? arrival : s, 0);
	series_cursor_init(&c[3], txn ? txn : s, 0);
	for (i = 0; i < s->n; i++) {
		if (!series_next(&c[0], &x)) {
			goto fail;
		}
		p[i].complete = x.t;
		p[i].bell = x.t + x.value;
		p[i].handed = handed && series_next(&c[1], &y) ? x.t + y.value : p[i].bell;
		p[i].arrival = arrival && series_next(&c[2], &y) ? y.value : 0;
		p[i].txn = txn && series_next(&c[3], &y) ? y.value : 0;
	}
	if (c[1].err || c[2].err || c[3].err) {
		goto fail;
	}
	free(c);
	qsort(p, s->n, sizeof(*p), cmp_bell);
	return p;
fail:
	free(c);
	free(p);
	return NULL;
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
 * never looked at again. Returns its index, or n when there is none.
 */
static size_t pick(const struct pair *h, size_t n, size_t next, size_t *old, const struct pair *w,
		   bool by_txn, uint64_t window_ns)
{
	size_t k = next, best = n;

	if (by_txn) {
		/* the host doorbells from a window before w's to a window after it */
		while (*old < n && h[*old].bell + window_ns < w->bell) {
			(*old)++;
		}
		for (k = next > *old ? next : *old; k < n && h[k].bell <= w->bell + window_ns;
		     k++) {
			if (h[k].txn == w->txn &&
			    (best == n ||
			     absdiff(h[k].bell, w->bell) < absdiff(h[best].bell, w->bell))) {
				best = k;
			}
		}
	} else {
		/* the host doorbells up to the wire's, then the nearest of the two around it */
		while (k + 1 < n && h[k + 1].bell <= w->bell) {
			k++;
		}
		if (k >= n) {
			return n;
		}
		best = k;
		if (k + 1 < n && absdiff(h[k + 1].bell, w->bell) < absdiff(h[k].bell, w->bell)) {
			best = k + 1;
		}
	}
	if (best == n || absdiff(h[best].bell, w->bell) > window_ns ||
	    absdiff(h[best].complete, w->complete) > window_ns) {
		return n;
	}
	return best;
}

void join_wire_host(const struct join_side *wire, const struct join_side *host, uint64_t window_ns,
		    struct join_series *out, struct join_result *res)
{
	struct pair *w = to_pairs(wire);
	struct pair *h = to_pairs(host);
	const bool by_txn = parallel(wire, wire->txn) && parallel(host, host->txn);
	const bool with_arrival = parallel(host, host->arrival) != NULL;
	size_t i, n = host->lat->n, next = 0; /* first host doorbell not used and not passed */
	size_t old = 0;

	memset(res, 0, sizeof(*res));
	if (!w || !h) {
		goto end;
	}
	for (i = 0; i < wire->lat->n && next < n; i++) {
		size_t best = pick(h, n, next, &old, &w[i], by_txn, window_ns);

		if (best == n) {
			continue;
		}
		next = best + 1;
		series_add(&out->w2s, w[i].complete,
			   part(w[i].complete, h[best].complete, &res->negative_w2s));
		series_add(&out->s2w, w[i].complete,
			   part(h[best].handed, w[i].bell, &res->negative_s2w));
		if (with_arrival && h[best].arrival) {
			res->arrival_offsets++;
			if (h[best].arrival < w[i].complete) {
				res->trace_arrival_first++;
			}
			series_add(&out->arrival_offset, w[i].complete,
				   absdiff(h[best].arrival, w[i].complete));
		}
		res->joined++;
	}
end:
	free(w);
	free(h);
}
