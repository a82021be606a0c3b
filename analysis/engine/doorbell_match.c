// SPDX-License-Identifier: GPL-2.0-or-later
/* The doorbell matcher; the rule is stated in doorbell_match.h and docs/analysis.md. */
#include <string.h>

#include "doorbell_match.h"

void dm_init(struct dm_matcher *m)
{
	memset(m, 0, sizeof(*m));
}

/* Index of the first element >= v in a sorted array of n. */
static unsigned int lower_bound(const uint32_t *a, unsigned int n, uint32_t v)
{
	unsigned int lo = 0, hi = n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (a[mid] < v) {
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return lo;
}

/*
 * Finds or inserts v in the sorted table; pending (when not NULL) is kept
 * parallel. Returns the rank, or -1 when the table is full.
 */
static int rank_of(uint32_t *a, struct dm_pending *pending, unsigned int *n, uint32_t v)
{
	unsigned int i = lower_bound(a, *n, v);

	if (i < *n && a[i] == v) {
		return (int)i;
	}
	if (*n == DM_MAX_BUFFERS) {
		return -1;
	}
	memmove(&a[i + 1], &a[i], (*n - i) * sizeof(a[0]));
	a[i] = v;
	if (pending) {
		memmove(&pending[i + 1], &pending[i], (*n - i) * sizeof(pending[0]));
		memset(&pending[i], 0, sizeof(pending[0]));
	}
	(*n)++;
	return (int)i;
}

/* Gives up the transaction waiting in p: its doorbell is missing. */
static void give_up(struct dm_matcher *m, struct dm_pending *p, struct dm_result *res)
{
	m->c.unmatched++;
	res->kind = DM_UNMATCHED;
	res->txn_ts = p->ts;
	res->txn_ref = p->ref;
	res->txn_id = p->txn_id;
	p->waiting = false;
}

int dm_feed_msg_lookup(struct dm_matcher *m, uint32_t flag_addr, uint32_t txn_id,
		       struct dm_result *res)
{
	unsigned int b = m->hint;
	struct dm_pending *p;

	res->kind = DM_NONE;
	/* every fragment of a transaction names the same address: try the last one first */
	if (b >= m->n_data || m->data_addr[b] != flag_addr) {
		b = lower_bound(m->data_addr, m->n_data, flag_addr);
		if (b == m->n_data || m->data_addr[b] != flag_addr) {
			/* an address not seen complete yet: nothing can wait there */
			return -1;
		}
		m->hint_prev = m->hint;
		m->hint = b;
	}
	p = &m->pending[b];
	res->buffer = (uint32_t)b;
	if (p->waiting && (int32_t)(txn_id - p->txn_id) > 0) {
		memset(res, 0, sizeof(*res));
		res->buffer = b;
		give_up(m, p, res);
	}
	return (int)b;
}

int dm_feed_txn(struct dm_matcher *m, uint32_t flag_addr, uint32_t txn_id, uint64_t ts,
		uint64_t ref, struct dm_result *res)
{
	int b = rank_of(m->data_addr, m->pending, &m->n_data, flag_addr);
	struct dm_pending *p;

	memset(res, 0, sizeof(*res));
	m->c.transactions++;
	if (b < 0) {
		m->c.addr_overflow++;
		return -1;
	}
	p = &m->pending[b];
	res->buffer = (uint32_t)b;
	if (p->waiting) {
		/* a newer transaction into b before any doorbell for b */
		give_up(m, p, res);
	}
	p->waiting = true;
	p->txn_id = txn_id;
	p->ts = ts;
	p->ref = ref;
	p->ordinal = m->c.transactions;
	return b;
}

int dm_feed_doorbell(struct dm_matcher *m, uint32_t flag_addr, uint64_t ts, struct dm_result *res)
{
	int b = rank_of(m->bell_addr, NULL, &m->n_bell, flag_addr);
	struct dm_pending *p;

	memset(res, 0, sizeof(*res));
	m->c.doorbells++;
	if (b < 0) {
		m->c.addr_overflow++;
		return -1;
	}
	res->buffer = (uint32_t)b;
	if ((unsigned int)b >= m->n_data || !m->pending[b].waiting) {
		m->c.orphans++;
		res->kind = DM_ORPHAN;
		return b;
	}
	p = &m->pending[b];
	p->waiting = false;
	m->c.matched++;
	res->kind = DM_MATCHED;
	res->txn_ts = p->ts;
	res->txn_ref = p->ref;
	res->txn_id = p->txn_id;
	res->latency = ts >= p->ts ? ts - p->ts : 0;
	if (p->ordinal < m->last_matched_ordinal) {
		m->c.order_violations++;
	}
	if (p->ordinal != m->c.doorbells) {
		m->c.ordinal_mismatch++;
	}
	m->last_matched_ordinal = p->ordinal;
	return b;
}

unsigned int dm_pending_count(const struct dm_matcher *m)
{
	unsigned int i, n = 0;

	for (i = 0; i < m->n_data; i++) {
		n += m->pending[i].waiting ? 1u : 0u;
	}
	return n;
}

unsigned int dm_buffers(const struct dm_matcher *m)
{
	return m->n_data > m->n_bell ? m->n_data : m->n_bell;
}
