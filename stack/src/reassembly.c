// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Transaction reassembly (see dgrdma/reassembly.h).
 *
 * Outstanding transactions live in an open-addressing hash table keyed by
 * txn_id, sized at twice max_outstanding so probes stay short; deletion
 * shifts entries back instead of leaving tombstones, so a long run never
 * degrades. A transaction of one message never enters the table. A growing
 * reassembler (dgr_reasm_new_growing()) starts with a small table and doubles
 * it as transactions wait, up to the size the other allocates at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/prefault.h>
#include <dgrdma/reassembly.h>

struct reasm_entry {
	struct dgr_txn_info info;
	uint64_t seen[DGR_REASM_SEQ_TRACKED / 64]; /* msg_seq bitmap */
	uint64_t serial;			   /* arrival order of the first fragment */
	uint8_t used;
};

struct dgr_reasm {
	struct reasm_entry *slots;
	uint32_t *scratch; /* slot indices, for oldest-first walks without allocating */
	unsigned int mask;
	unsigned int count;
	unsigned int max;
	unsigned int full_cap; /* the table's size at max: mask + 1 unless growing */
	uint64_t serial;
};

#define REASM_GROWING_CAP 16u /* a growing table's first size: a stream keeps a few open */

static unsigned int hash_slot(uint32_t txn_id, unsigned int mask)
{
	/* Fibonacci hashing: consecutive ids spread over the table. */
	return (unsigned int)((txn_id * 2654435761u) & mask);
}

static unsigned int slot_of(const struct dgr_reasm *r, uint32_t txn_id)
{
	return hash_slot(txn_id, r->mask);
}

/* The table's size for max_outstanding (1..65536): at most half full. */
static unsigned int full_cap_of(unsigned int max_outstanding)
{
	unsigned int cap = 4;

	while (cap < 2 * max_outstanding) {
		cap *= 2;
	}
	return cap;
}

/* A reassembler for max_outstanding with a table of cap slots; NULL when memory ran out. */
static struct dgr_reasm *reasm_create(unsigned int max_outstanding, unsigned int cap, char *errbuf)
{
	struct dgr_reasm *r = NULL;

	if (max_outstanding < 1 || max_outstanding > 65536) {
		if (errbuf) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "max_outstanding %u outside 1..65536",
				 max_outstanding);
		}
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		goto nomem;
	}
	r->full_cap = full_cap_of(max_outstanding);
	if (!cap || cap > r->full_cap) {
		cap = r->full_cap;
	}
	r->slots = calloc(cap, sizeof(*r->slots));
	r->scratch = calloc(cap, sizeof(*r->scratch));
	if (!r->slots || !r->scratch) {
		goto nomem;
	}
	r->mask = cap - 1;
	r->max = max_outstanding;
	return r;
nomem:
	dgr_reasm_free(r);
	if (errbuf) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "out of memory for %u transactions",
			 max_outstanding);
	}
	return NULL;
}

/* See reassembly.h. */
struct dgr_reasm *dgr_reasm_new(unsigned int max_outstanding, char *errbuf)
{
	struct dgr_reasm *r = reasm_create(max_outstanding, 0, errbuf);

	if (r) {
		/* ids hash over the whole table: the first transactions would meet fresh page
		 * after page */
		dgr_prefault(r->slots, (r->mask + 1u) * sizeof(*r->slots));
	}
	return r;
}

/* See reassembly.h. */
struct dgr_reasm *dgr_reasm_new_growing(unsigned int max_outstanding, char *errbuf)
{
	return reasm_create(max_outstanding, REASM_GROWING_CAP, errbuf);
}

/* See reassembly.h. */
void dgr_reasm_free(struct dgr_reasm *r)
{
	if (!r) {
		return;
	}
	free(r->slots);
	free(r->scratch);
	free(r);
}

static struct reasm_entry *find(const struct dgr_reasm *r, uint32_t txn_id)
{
	unsigned int i = slot_of(r, txn_id);

	while (r->slots[i].used) {
		if (r->slots[i].info.txn_id == txn_id) {
			return &r->slots[i];
		}
		i = (i + 1) & r->mask;
	}
	return NULL;
}

static void remove_slot(struct dgr_reasm *r, unsigned int hole)
{
	unsigned int i = hole;

	r->slots[hole].used = 0;
	r->count--;
	/* Backward-shift: move later entries of the probe run into the hole. */
	for (;;) {
		unsigned int home;

		i = (i + 1) & r->mask;
		if (!r->slots[i].used) {
			return;
		}
		home = slot_of(r, r->slots[i].info.txn_id);
		/* Entry at i may move to hole if hole lies cyclically in [home, i). */
		if (((i - home) & r->mask) >= ((i - hole) & r->mask)) {
			r->slots[hole] = r->slots[i];
			r->slots[i].used = 0;
			hole = i;
		}
	}
}

static void info_from_msg(struct dgr_txn_info *info, const struct dgr_msg *m, uint64_t ts,
			  uint64_t ref)
{
	info->txn_id = m->txn_id;
	info->flag_addr = m->flag_addr;
	info->flag_value = m->flag_value;
	info->data_addr = m->data_addr;
	info->bytes = m->data_len;
	info->num_msgs = m->num_msgs_in_txn;
	info->msgs_seen = 1;
	info->first_ts = ts;
	info->last_ts = ts;
	info->first_ref = ref;
	info->last_ref = ref;
}

static bool test_and_set_seen(struct reasm_entry *e, uint16_t seq)
{
	uint64_t bit;
	unsigned int word;

	if (seq == 0 || seq > DGR_REASM_SEQ_TRACKED) {
		return false;
	}
	word = (seq - 1u) / 64u;
	bit = 1ull << ((seq - 1u) % 64u);
	if (e->seen[word] & bit) {
		return true;
	}
	e->seen[word] |= bit;
	return false;
}

/*
 * Doubles a growing table (every entry hashed again into the new one), so that it stays
 * at most half full. Returns 0, or -DGR_E_NOMEM when memory ran out (the table is kept).
 */
static int grow(struct dgr_reasm *r)
{
	unsigned int cap = 2 * (r->mask + 1), i, j;
	struct reasm_entry *slots;
	uint32_t *scratch;

	if (cap > r->full_cap) {
		return 0; /* max_outstanding fits already */
	}
	slots = calloc(cap, sizeof(*slots));
	scratch = calloc(cap, sizeof(*scratch));
	if (!slots || !scratch) {
		free(slots);
		free(scratch);
		return -DGR_E_NOMEM;
	}
	for (i = 0; i <= r->mask; i++) {
		if (!r->slots[i].used) {
			continue;
		}
		j = hash_slot(r->slots[i].info.txn_id, cap - 1);
		while (slots[j].used) {
			j = (j + 1) & (cap - 1);
		}
		slots[j] = r->slots[i];
	}
	free(r->slots);
	free(r->scratch);
	r->slots = slots;
	r->scratch = scratch;
	r->mask = cap - 1;
	return 0;
}

/* See reassembly.h. */
int dgr_reasm_fragment_check(const struct dgr_txn_info *txn, const struct dgr_msg *m)
{
	unsigned int parts = dgr_msg_txn_parts(m);

	if (parts > 1 && (m->msg_seq == 0 || m->msg_seq > parts)) {
		return -DGR_E_NUM_MSGS;
	}
	if (txn->num_msgs != m->num_msgs_in_txn || txn->flag_addr != m->flag_addr ||
	    txn->flag_value != m->flag_value) {
		return -DGR_E_NUM_MSGS;
	}
	return 0;
}

/* See reassembly.h. */
int dgr_reasm_add(struct dgr_reasm *r, const struct dgr_msg *m, uint64_t ts, uint64_t ref,
		  struct dgr_txn_info *done)
{
	unsigned int parts = dgr_msg_txn_parts(m);
	struct reasm_entry *e = r->count ? find(r, m->txn_id) : NULL;
	unsigned int i;

	if (parts > 1 && (m->msg_seq == 0 || m->msg_seq > parts)) {
		return -DGR_E_NUM_MSGS;
	}
	if (e) {
		if (dgr_reasm_fragment_check(&e->info, m) != 0) {
			return -DGR_E_NUM_MSGS;
		}
		if (test_and_set_seen(e, m->msg_seq)) {
			return DGR_REASM_DUPLICATE;
		}
		e->info.msgs_seen++;
		e->info.bytes += m->data_len;
		if (m->data_addr < e->info.data_addr) {
			e->info.data_addr = m->data_addr;
		}
		e->info.last_ts = ts;
		e->info.last_ref = ref;
		if (e->info.msgs_seen < parts) {
			return DGR_REASM_PARTIAL;
		}
		*done = e->info;
		remove_slot(r, (unsigned int)(e - r->slots));
		return DGR_REASM_COMPLETE;
	}
	if (parts == 1) {
		info_from_msg(done, m, ts, ref);
		return DGR_REASM_COMPLETE;
	}
	if (r->count >= r->max) {
		return -DGR_E_NOSPACE;
	}
	if (2 * (r->count + 1) > r->mask + 1 && grow(r) < 0) {
		return -DGR_E_NOSPACE;
	}
	i = slot_of(r, m->txn_id);
	while (r->slots[i].used) {
		i = (i + 1) & r->mask;
	}
	e = &r->slots[i];
	memset(e, 0, sizeof(*e));
	e->used = 1;
	e->serial = r->serial++;
	info_from_msg(&e->info, m, ts, ref);
	test_and_set_seen(e, m->msg_seq);
	r->count++;
	return DGR_REASM_PARTIAL;
}

static int cmp_serial_ctx(const void *a, const void *b, void *ctx)
{
	const struct reasm_entry *slots = ctx;
	uint64_t sa = slots[*(const uint32_t *)a].serial;
	uint64_t sb = slots[*(const uint32_t *)b].serial;

	return sa < sb ? -1 : sa > sb;
}

/* Fills r->scratch with the used slots (optionally only those older than before_ts), oldest first.
 */
static unsigned int collect(const struct dgr_reasm *r, bool filter, uint64_t before_ts)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i <= r->mask; i++) {
		if (r->slots[i].used && (!filter || r->slots[i].info.first_ts < before_ts)) {
			r->scratch[n++] = i;
		}
	}
	qsort_r(r->scratch, n, sizeof(*r->scratch), cmp_serial_ctx, r->slots);
	return n;
}

/* See reassembly.h. */
unsigned int dgr_reasm_expire(struct dgr_reasm *r, uint64_t before_ts, dgr_reasm_cb cb, void *ctx)
{
	unsigned int n;

	if (r->count == 0) {
		return 0;
	}
	n = collect(r, true, before_ts);
	for (unsigned int k = 0; k < n; k++) {
		const struct dgr_txn_info *info = &r->slots[r->scratch[k]].info;

		if (cb) {
			cb(info, ctx);
		}
		/* Removal shifts slots: keep the id and look it up again below. */
		r->scratch[k] = info->txn_id;
	}
	for (unsigned int k = 0; k < n; k++) {
		struct reasm_entry *e = find(r, r->scratch[k]);

		if (e) {
			remove_slot(r, (unsigned int)(e - r->slots));
		}
	}
	return n;
}

/* See reassembly.h. */
unsigned int dgr_reasm_foreach_incomplete(const struct dgr_reasm *r, dgr_reasm_cb cb, void *ctx)
{
	unsigned int n = collect(r, false, 0);

	for (unsigned int k = 0; k < n; k++) {
		cb(&r->slots[r->scratch[k]].info, ctx);
	}
	return n;
}

/* See reassembly.h. */
unsigned int dgr_reasm_outstanding(const struct dgr_reasm *r)
{
	return r->count;
}
