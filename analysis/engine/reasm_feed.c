// SPDX-License-Identifier: GPL-2.0-or-later
/* The reassembly feed rule of latency-report and the plugin (reasm_feed.h). */
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "reasm_feed.h"

int eng_reasm_init(struct eng_reasm *e, unsigned int max, uint64_t timeout_ns,
		   dgr_reasm_cb given_up, void *ctx, char *errbuf)
{
	memset(e, 0, sizeof(*e));
	e->reasm = dgr_reasm_new(max, errbuf);
	if (!e->reasm) {
		return -DGR_E_NOMEM;
	}
	e->timeout_ns = timeout_ns;
	e->given_up = given_up;
	e->ctx = ctx;
	return 0;
}

void eng_reasm_free(struct eng_reasm *e)
{
	dgr_reasm_free(e->reasm);
	e->reasm = NULL;
}

/* The first fragments' times of the incomplete transactions. */
struct first_times {
	uint64_t *ts;
	unsigned int n, cap;
};

static void collect_first(const struct dgr_txn_info *t, void *ctx)
{
	struct first_times *f = ctx;

	if (f->n < f->cap) {
		f->ts[f->n++] = t->first_ts;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Gives up the older half of the incomplete transactions, by the time of
 * their first fragment (at least the oldest, when many share one time).
 */
static void give_up_older_half(struct eng_reasm *e)
{
	struct first_times f;
	uint64_t before;

	f.cap = dgr_reasm_outstanding(e->reasm);
	f.n = 0;
	f.ts = malloc(f.cap * sizeof(*f.ts));
	if (!f.ts || f.cap == 0) {
		free(f.ts);
		return;
	}
	dgr_reasm_foreach_incomplete(e->reasm, collect_first, &f);
	qsort(f.ts, f.n, sizeof(*f.ts), cmp_u64);
	before = f.ts[f.n / 2];
	if (before <= f.ts[0]) {
		before = f.ts[0] + 1;
	}
	free(f.ts);
	dgr_reasm_expire(e->reasm, before, e->given_up, e->ctx);
}

int eng_reasm_add(struct eng_reasm *e, const struct dgr_msg *m, uint64_t ts, uint64_t ref,
		  struct dgr_txn_info *done)
{
	int rc;

	if (e->timeout_ns && ts >= e->next_expire_ts) {
		if (ts > e->timeout_ns) {
			dgr_reasm_expire(e->reasm, ts - e->timeout_ns, e->given_up, e->ctx);
		}
		e->next_expire_ts = ts + e->timeout_ns / 2 + 1;
	}
	rc = dgr_reasm_add(e->reasm, m, ts, ref, done);
	if (rc != -DGR_E_NOSPACE) {
		return rc;
	}
	give_up_older_half(e);
	return dgr_reasm_add(e->reasm, m, ts, ref, done);
}
