/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How latency-report and the Wireshark plugin feed a sender's fragments to
 * the project's reassembler (dgrdma/reassembly.h), one rule for both:
 *
 * - capture time: an incomplete transaction whose first fragment is older
 *   than the timeout is given up (its fragments were lost to the capture);
 *   checked every half timeout, so a transaction is given up between one and
 *   one and a half timeouts after its first fragment;
 * - room: when the reassembler is full, the older half of the incomplete
 *   transactions (by first fragment) is given up at once, so a capture that
 *   lost many frames keeps finding the transactions that follow.
 *
 * Given-up transactions are reported to the caller's callback, which counts
 * them as incomplete (latency-report) or marks them (the plugin).
 *
 * Finished transactions are remembered, so a fragment arriving after its
 * transaction completed or was given up does not start a new incomplete one
 * (which would be given up later and counted a second time): the ids of the
 * last ENG_FINISHED_WINDOW transaction ids below the highest finished one
 * (transaction ids count up per sender). Both tools ask this first
 * (data_feed.h); the plugin keeps every transaction of a capture for the GUI
 * besides, to say whether a repeat fits the transaction it repeats.
 */
#ifndef DGR_ENGINE_REASM_FEED_H
#define DGR_ENGINE_REASM_FEED_H

#include <stdint.h>

#include <dgrdma/reassembly.h>

#define ENG_REASM_MAX		  4096		/* incomplete transactions per sender */
#define ENG_REASM_DEFAULT_TIMEOUT 1000000000ull /* ns: latency-report --reasm-timeout 1000 */

#define ENG_FINISHED_WINDOW 65536u /* transaction ids remembered as finished, a power of 2 */

/* What eng_reasm_add() returns besides dgr_reasm_add()'s codes. */
enum {
	ENG_REASM_AFTER_COMPLETE = 16, /* a fragment of a transaction already complete */
	ENG_REASM_AFTER_GIVEN_UP = 17, /* a fragment of a transaction given up */
};

/* Finished transaction ids: two bits per id of the window ending at max. */
struct eng_finished {
	uint64_t *complete, *given_up; /* ENG_FINISHED_WINDOW bits each, indexed by id */
	uint32_t max;		       /* the highest id finished */
	int any;		       /* 0: none finished yet */
};

struct eng_reasm {
	struct dgr_reasm *reasm;
	struct eng_finished finished;
	uint64_t timeout_ns; /* 0: never given up by age */
	uint64_t next_expire_ts;
	dgr_reasm_cb given_up; /* called for each transaction given up */
	void *ctx;
};

/*
 * Sets up *e with a reassembler of max incomplete transactions. Returns 0, or
 * -DGR_E_NOMEM with errbuf (DGR_ERRBUF_SIZE, may be NULL) filled.
 */
int eng_reasm_init(struct eng_reasm *e, unsigned int max, uint64_t timeout_ns,
		   dgr_reasm_cb given_up, void *ctx, char *errbuf);

/* Frees the reassembler; *e may be zeroed or set up. */
void eng_reasm_free(struct eng_reasm *e);

/* Gives up the transactions older than the timeout at ts (eng_reasm_add()'s age rule). */
void eng_reasm_expire(struct eng_reasm *e, uint64_t ts);

/* eng_reasm_add() after dgr_reasm_add() said rc: the room rule, a finished transaction. */
int eng_reasm_added(struct eng_reasm *e, const struct dgr_msg *m, uint64_t ts, uint64_t ref,
		    struct dgr_txn_info *done, int rc);

/* Whether transaction id lies in the window of finished ids (max - WINDOW, max]. */
static inline int eng_finished_in_window(const struct eng_finished *f, uint32_t id)
{
	return f->any && f->max - id < ENG_FINISHED_WINDOW;
}

/* The bit of transaction id in a window's bits (complete or given_up). */
static inline int eng_finished_bit(const uint64_t *b, uint32_t id)
{
	uint32_t i = id % ENG_FINISHED_WINDOW;

	return (int)(b[i / 64] >> (i % 64) & 1);
}

/*
 * Feeds one fragment captured at ts (ns) with the caller's ref, after the age
 * and room rules above. Returns ENG_REASM_AFTER_COMPLETE or
 * ENG_REASM_AFTER_GIVEN_UP for a fragment of a finished transaction (not
 * fed), else what dgr_reasm_add() returns (with *done filled on
 * DGR_REASM_COMPLETE); -DGR_E_NOSPACE only when giving up the older half made
 * no room. Inline, the path of every fragment; the rest out of line.
 */
static inline int eng_reasm_add(struct eng_reasm *e, const struct dgr_msg *m, uint64_t ts,
				uint64_t ref, struct dgr_txn_info *done)
{
	const struct eng_finished *f = &e->finished;
	int rc;

	if (e->timeout_ns && ts >= e->next_expire_ts) {
		eng_reasm_expire(e, ts);
	}
	if (eng_finished_in_window(f, m->txn_id)) {
		if (eng_finished_bit(f->complete, m->txn_id)) {
			return ENG_REASM_AFTER_COMPLETE;
		}
		if (eng_finished_bit(f->given_up, m->txn_id)) {
			return ENG_REASM_AFTER_GIVEN_UP;
		}
	}
	rc = dgr_reasm_add(e->reasm, m, ts, ref, done);
	if (rc == -DGR_E_NOSPACE || rc == DGR_REASM_COMPLETE) {
		rc = eng_reasm_added(e, m, ts, ref, done, rc);
	}
	return rc;
}

#endif
