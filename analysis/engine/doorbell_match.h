/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The doorbell matcher: pairs each doorbell with the data transaction it
 * answers, for one connection and one data direction. The one copy of this
 * rule in the project (the Wireshark dissector mirrors it); docs/analysis.md
 * states it in full.
 *
 * Buffer identity comes from flag addresses. Data transactions carry the
 * consumer's flag address of the buffer they fill; doorbells carry the
 * producer's flag address of the buffer they free. Each kind is ranked among
 * its own distinct addresses by ascending value: the k-th smallest data flag
 * address and the k-th smallest doorbell flag address name buffer k. Pending
 * state is kept per address, not per rank, so a new address that shifts the
 * ranks never corrupts it (ranks are right once every buffer has been seen).
 *
 * Rule: a doorbell for buffer b answers the waiting complete transaction into
 * b; any message of a newer transaction into b (complete or not) seen while an
 * older one into b still waits makes the older one unmatched at once (its
 * doorbell is missing from the capture: a producer cannot refill b before b's
 * doorbell); a doorbell with nothing waiting is an orphan. Cross-check: buffers are
 * consumed in order, so the matched transactions must come in completion
 * order and, in a lossless capture, the k-th doorbell answers the k-th
 * completed transaction; both are counted.
 */
#ifndef DGR_ANALYSIS_DOORBELL_MATCH_H
#define DGR_ANALYSIS_DOORBELL_MATCH_H

#include <stdbool.h>
#include <stdint.h>

/* Distinct flag addresses tracked per kind; more are counted as overflow. */
#define DM_MAX_BUFFERS 1024

struct dm_counts {
	uint64_t transactions;	   /* complete data transactions fed */
	uint64_t doorbells;	   /* doorbells fed */
	uint64_t matched;	   /* doorbells paired with a transaction */
	uint64_t unmatched;	   /* transactions superseded before any doorbell */
	uint64_t orphans;	   /* doorbells with nothing waiting */
	uint64_t order_violations; /* matches older than the previous match */
	uint64_t ordinal_mismatch; /* matches where doorbell k did not answer transaction k */
	uint64_t addr_overflow;	   /* addresses beyond DM_MAX_BUFFERS (not matched) */
};

/* What the matcher concluded about one fed transaction or doorbell. */
struct dm_result {
	enum { DM_NONE, DM_MATCHED, DM_UNMATCHED, DM_ORPHAN } kind;
	uint32_t buffer;  /* rank of the address (buffer index) at that moment */
	uint64_t txn_ts;  /* matched/unmatched: completion time of the transaction */
	uint64_t txn_ref; /* matched/unmatched: caller reference of the transaction */
	uint32_t txn_id;  /* matched/unmatched: the transaction's id */
	uint64_t latency; /* matched: doorbell ts - txn_ts */
};

struct dm_pending {
	bool waiting;
	uint32_t txn_id;
	uint64_t ts;
	uint64_t ref;
	uint64_t ordinal; /* 1-based completion ordinal */
};

struct dm_matcher {
	uint32_t data_addr[DM_MAX_BUFFERS];	   /* sorted ascending */
	struct dm_pending pending[DM_MAX_BUFFERS]; /* parallel to data_addr */
	uint32_t bell_addr[DM_MAX_BUFFERS];	   /* sorted ascending */
	unsigned int n_data, n_bell;
	unsigned int hint; /* index of the data address looked up last (consecutive fragments) */
	unsigned int hint_prev; /* the one before it (two transactions' fragments interleaved) */
	uint64_t last_matched_ordinal;
	struct dm_counts c;
};

/* Resets a matcher (it lives inside the caller's connection state). */
void dm_init(struct dm_matcher *m);

/*
 * Feeds a message of a data transaction txn_id into the buffer whose consumer
 * flag address is flag_addr, accepted by the reassembler without completing
 * its transaction. A transaction into that buffer still waiting for its
 * doorbell is given up when txn_id is newer (serial comparison), so a
 * capture that lost a doorbell and then a fragment of the next transaction
 * into the buffer never pairs the old transaction with a later doorbell.
 * Sets *res (DM_UNMATCHED with the given-up transaction, else DM_NONE).
 * Returns the buffer index, or -1 when no complete transaction into that
 * address was seen yet (then nothing waits there). dm_feed_msg_lookup() is
 * the same without the inline look at the last address.
 */
int dm_feed_msg_lookup(struct dm_matcher *m, uint32_t flag_addr, uint32_t txn_id,
		       struct dm_result *res);
static inline int dm_feed_msg(struct dm_matcher *m, uint32_t flag_addr, uint32_t txn_id,
			      struct dm_result *res)
{
	unsigned int b = m->hint;

	/* inline, the common case: a later fragment into one of the two addresses
	 * looked up last, nothing older waiting there */
	if (b >= m->n_data || m->data_addr[b] != flag_addr) {
		b = m->hint_prev;
	}
	if (b < m->n_data && m->data_addr[b] == flag_addr &&
	    !(m->pending[b].waiting && (int32_t)(txn_id - m->pending[b].txn_id) > 0)) {
		res->kind = DM_NONE;
		res->buffer = b;
		return (int)b;
	}
	return dm_feed_msg_lookup(m, flag_addr, txn_id, res);
}

/*
 * Feeds a complete data transaction txn_id into the buffer whose consumer
 * flag address is flag_addr, completed at ts (any monotonic unit; ns here).
 * ref is echoed back when it is matched. Sets *res (DM_UNMATCHED when an
 * older transaction into the same buffer was superseded, else DM_NONE).
 * Returns the buffer index, or -1 when the address table is full.
 */
int dm_feed_txn(struct dm_matcher *m, uint32_t flag_addr, uint32_t txn_id, uint64_t ts,
		uint64_t ref, struct dm_result *res);

/*
 * Feeds a doorbell carrying the producer flag address flag_addr, seen at ts.
 * Sets *res to DM_MATCHED (with latency) or DM_ORPHAN.
 * Returns the buffer index, or -1 when the address table is full.
 */
int dm_feed_doorbell(struct dm_matcher *m, uint32_t flag_addr, uint64_t ts, struct dm_result *res);

/* Transactions still waiting for their doorbell (at the end of a capture). */
unsigned int dm_pending_count(const struct dm_matcher *m);

/* Buffer count seen: the larger of the two distinct address counts. */
unsigned int dm_buffers(const struct dm_matcher *m);

#endif
