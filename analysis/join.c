// SPDX-License-Identifier: GPL-2.0-or-later
/* Wire + trace join (see join.h). */
#include <stdlib.h>
#include <string.h>

#include "join.h"

struct pair {
	uint64_t complete, bell;
	uint64_t handed; /* trace: the doorbell handed to the kernel; wire: = bell */
};

static int cmp_bell(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->bell != y->bell) {
		return x->bell < y->bell ? -1 : 1;
	}
	return x->complete < y->complete ? -1 : (x->complete > y->complete);
}

/* handed: NULL, or a series with one sample per sample of s, in the same order */
static struct pair *to_pairs(const struct series *s, const struct series *handed)
{
	struct pair *p = malloc((s->n ? s->n : 1) * sizeof(*p));
	size_t i;

	if (!p) {
		return NULL;
	}
	for (i = 0; i < s->n; i++) {
		p[i].complete = s->s[i].t;
		p[i].bell = s->s[i].t + s->s[i].value;
		p[i].handed = handed ? s->s[i].t + handed->s[i].value : p[i].bell;
	}
	qsort(p, s->n, sizeof(*p), cmp_bell);
	return p;
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

void join_wire_host(const struct series *wire, const struct series *host,
		    const struct series *host_handed, uint64_t window_ns, struct series *w2s,
		    struct series *s2w, struct join_result *res)
{
	struct pair *w = to_pairs(wire, NULL);
	struct pair *h =
	    to_pairs(host, host_handed && host_handed->n == host->n ? host_handed : NULL);
	size_t i, next = 0; /* first host doorbell not used and not passed */

	memset(res, 0, sizeof(*res));
	if (!w || !h) {
		goto end;
	}
	for (i = 0; i < wire->n; i++) {
		size_t k = next, best;

		/* the host doorbells up to the wire's, then the nearest of the two around it */
		while (k + 1 < host->n && h[k + 1].bell <= w[i].bell) {
			k++;
		}
		if (k >= host->n) {
			break;
		}
		best = k;
		if (k + 1 < host->n &&
		    absdiff(h[k + 1].bell, w[i].bell) < absdiff(h[k].bell, w[i].bell)) {
			best = k + 1;
		}
		if (absdiff(h[best].bell, w[i].bell) > window_ns ||
		    absdiff(h[best].complete, w[i].complete) > window_ns) {
			continue;
		}
		next = best + 1;
		series_add(w2s, w[i].complete,
			   part(w[i].complete, h[best].complete, &res->negative_w2s));
		series_add(s2w, w[i].complete, part(h[best].handed, w[i].bell, &res->negative_s2w));
		res->joined++;
	}
end:
	free(w);
	free(h);
}
