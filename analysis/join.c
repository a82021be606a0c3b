// SPDX-License-Identifier: GPL-2.0-or-later
/* Wire + trace join (see join.h). */
#include <stdlib.h>
#include <string.h>

#include "join.h"

struct pair {
	uint64_t complete, bell;
};

static int cmp_bell(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->bell != y->bell) {
		return x->bell < y->bell ? -1 : 1;
	}
	return x->complete < y->complete ? -1 : (x->complete > y->complete);
}

static struct pair *to_pairs(const struct series *s)
{
	struct pair *p = malloc((s->n ? s->n : 1) * sizeof(*p));
	size_t i;

	if (!p) {
		return NULL;
	}
	for (i = 0; i < s->n; i++) {
		p[i].complete = s->s[i].t;
		p[i].bell = s->s[i].t + s->s[i].value;
	}
	qsort(p, s->n, sizeof(*p), cmp_bell);
	return p;
}

uint64_t join_wire_host(const struct series *wire, const struct series *host, struct series *w2s,
			struct series *s2w)
{
	struct pair *w = to_pairs(wire), *h = to_pairs(host);
	size_t i, j = 0;
	long last_used = -1;
	uint64_t n = 0;

	if (!w || !h) {
		goto end;
	}
	for (i = 0; i < wire->n; i++) {
		long k;

		while (j < host->n && h[j].bell <= w[i].bell) {
			j++;
		}
		k = (long)j - 1;
		if (k <= last_used || h[k].complete < w[i].complete || h[k].bell < w[i].complete) {
			continue;
		}
		last_used = k;
		series_add(w2s, w[i].complete, h[k].complete - w[i].complete);
		series_add(s2w, w[i].complete, w[i].bell - h[k].bell);
		n++;
	}
end:
	free(w);
	free(h);
	return n;
}
