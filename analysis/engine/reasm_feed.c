// SPDX-License-Identifier: GPL-2.0-or-later
/* The reassembly feed rule of latency-report and the plugin (reasm_feed.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "reasm_feed.h"

#define WORDS (ENG_FINISHED_WINDOW / 64)

int eng_reasm_init(struct eng_reasm *e, unsigned int max, uint64_t timeout_ns,
		   dgr_reasm_cb given_up, void *ctx, char *errbuf)
{
	memset(e, 0, sizeof(*e));
	e->reasm = dgr_reasm_new_growing(max, errbuf); /* few wait: a small table */
	e->finished.complete = calloc(WORDS, sizeof(uint64_t));
	e->finished.given_up = calloc(WORDS, sizeof(uint64_t));
	if (!e->reasm || !e->finished.complete || !e->finished.given_up) {
		if (e->reasm && errbuf) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "out of memory");
		}
		eng_reasm_free(e);
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
	free(e->finished.complete);
	free(e->finished.given_up);
	e->finished.complete = e->finished.given_up = NULL;
}

static void bit_set(uint64_t *b, uint32_t id, int on)
{
	uint32_t i = id % ENG_FINISHED_WINDOW;

	if (on) {
		b[i / 64] |= 1ull << (i % 64);
	} else {
		b[i / 64] &= ~(1ull << (i % 64));
	}
}

/* Clears the bits of ids from, from + 1, ... (n of them; at most the whole window). */
static void clear_range(uint64_t *b, uint32_t from, uint32_t n)
{
	uint32_t i = from % ENG_FINISHED_WINDOW;

	if (n >= ENG_FINISHED_WINDOW) {
		memset(b, 0, WORDS * sizeof(uint64_t));
		return;
	}
	while (n && i % 64) { /* up to a word's start */
		b[i / 64] &= ~(1ull << (i % 64));
		i = (i + 1) % ENG_FINISHED_WINDOW;
		n--;
	}
	while (n >= 64) { /* whole words */
		b[i / 64] = 0;
		i = (i + 64) % ENG_FINISHED_WINDOW;
		n -= 64;
	}
	while (n) {
		b[i / 64] &= ~(1ull << (i % 64));
		i++;
		n--;
	}
}

/* Records id as finished (complete, or given up), moving the window up to it if it is newer. */
static void finish(struct eng_finished *f, uint32_t id, int complete)
{
	if (!f->any) {
		f->any = 1;
		f->max = id;
	} else if ((int32_t)(id - f->max) > 0) {
		uint32_t gap = id - f->max;

		/* the ids between leave the window's other end: not finished */
		clear_range(f->complete, f->max + 1, gap);
		clear_range(f->given_up, f->max + 1, gap);
		f->max = id;
	} else if (!eng_finished_in_window(f, id)) {
		return; /* older than the window: not remembered */
	}
	bit_set(complete ? f->complete : f->given_up, id, 1);
	bit_set(complete ? f->given_up : f->complete, id, 0);
}

/* The caller's callback, after remembering the transaction as given up. */
static void on_given_up(const struct dgr_txn_info *t, void *ctx)
{
	struct eng_reasm *e = ctx;

	finish(&e->finished, t->txn_id, 0);
	if (e->given_up) {
		e->given_up(t, e->ctx);
	}
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
	dgr_reasm_expire(e->reasm, before, on_given_up, e);
}

/* See reasm_feed.h. */
void eng_reasm_expire(struct eng_reasm *e, uint64_t ts)
{
	if (ts > e->timeout_ns) {
		dgr_reasm_expire(e->reasm, ts - e->timeout_ns, on_given_up, e);
	}
	e->next_expire_ts = ts + e->timeout_ns / 2 + 1;
}

/* See reasm_feed.h. */
int eng_reasm_added(struct eng_reasm *e, const struct dgr_msg *m, uint64_t ts, uint64_t ref,
		    struct dgr_txn_info *done, int rc)
{
	if (rc == -DGR_E_NOSPACE) {
		give_up_older_half(e);
		rc = dgr_reasm_add(e->reasm, m, ts, ref, done);
	}
	if (rc == DGR_REASM_COMPLETE) {
		finish(&e->finished, done->txn_id, 1);
	}
	return rc;
}
