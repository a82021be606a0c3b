// SPDX-License-Identifier: GPL-2.0-or-later
/* One data fragment through the reassembler and the matcher (see data_feed.h). */
#include "data_feed.h"

void eng_feed_data(struct eng_reasm *r, struct dm_matcher *dm, const struct dgr_msg *m, uint64_t ts,
		   uint64_t ref, struct eng_data_result *res)
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
