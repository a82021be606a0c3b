/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One data fragment through the engine, one sequence for latency-report and
 * the Wireshark plugin: the sender's reassembler (reasm_feed.h) decides what
 * the fragment is; a fragment of a new transaction into a buffer gives up the
 * transaction waiting there for its doorbell (dm_feed_msg(): the rule of
 * docs/analysis.md), and a completed transaction with a flag write waits for
 * its doorbell in the peer's matcher (dm_feed_txn()). The callers only count
 * or record what eng_feed_data() reports.
 */
#ifndef DGR_ENGINE_DATA_FEED_H
#define DGR_ENGINE_DATA_FEED_H

#include <stdint.h>

#include <dgrdma/reassembly.h>
#include <dgrdma/wire.h>

#include "doorbell_match.h"
#include "reasm_feed.h"

enum eng_data_kind {
	ENG_DATA_PARTIAL,	 /* accepted; its transaction is still incomplete */
	ENG_DATA_COMPLETE,	 /* completed its transaction (done is filled) */
	ENG_DATA_DUPLICATE,	 /* seen before, or after its transaction completed */
	ENG_DATA_AFTER_GIVEN_UP, /* of a transaction given up: ignored */
	ENG_DATA_NO_ROOM,	 /* the reassembler is full even after giving up half */
	ENG_DATA_REFUSED,	 /* the reassembler refused it (err: -DGR_E_*) */
};

struct eng_data_result {
	enum eng_data_kind kind;
	int err;		  /* ENG_DATA_REFUSED: the reassembler's code */
	struct dgr_txn_info done; /* ENG_DATA_COMPLETE */
	/*
	 * The matcher's answer: DM_UNMATCHED when a waiting transaction was given
	 * up (by this fragment or by this completed transaction), else DM_NONE.
	 */
	struct dm_result bell;
	int buffer; /* ENG_DATA_COMPLETE with a flag write: its buffer, or -1 */
};

/*
 * Feeds fragment m, captured at ts (ns) in the frame the caller calls ref, to
 * the sender's reassembler r and the matcher dm of the data this sender
 * sends. Fills *res; never fails (what it refuses is reported). Inline: once
 * per fragment, and a layer of calls on latency-report's path per frame.
 */
static inline void eng_feed_data(struct eng_reasm *r, struct dm_matcher *dm,
				 const struct dgr_msg *m, uint64_t ts, uint64_t ref,
				 struct eng_data_result *res)
{
	int rc;

	res->err = 0;
	res->bell.kind = DM_NONE;
	res->buffer = -1;
	rc = eng_reasm_add(r, m, ts, ref, &res->done);
	switch (rc) {
	case -DGR_E_NOSPACE:
		res->kind = ENG_DATA_NO_ROOM;
		return;
	case DGR_REASM_DUPLICATE:
	case ENG_REASM_AFTER_COMPLETE:
		res->kind = ENG_DATA_DUPLICATE;
		return;
	case ENG_REASM_AFTER_GIVEN_UP:
		res->kind = ENG_DATA_AFTER_GIVEN_UP;
		return;
	case DGR_REASM_COMPLETE:
		res->kind = ENG_DATA_COMPLETE;
		if (res->done.flag_addr != DGR_NO_FLAG) {
			res->buffer = dm_feed_txn(dm, res->done.flag_addr, res->done.txn_id, ts,
						  ref, &res->bell);
		}
		return;
	default:
		break;
	}
	if (rc < 0) {
		res->kind = ENG_DATA_REFUSED;
		res->err = rc;
		return;
	}
	res->kind = ENG_DATA_PARTIAL;
	if (m->flag_addr != DGR_NO_FLAG) {
		/* a newer transaction into a buffer gives up the one waiting there */
		(void)dm_feed_msg(dm, m->flag_addr, m->txn_id, &res->bell);
	}
}

#endif
