// SPDX-License-Identifier: GPL-2.0-or-later
/* Messages a snap length cut (see snap_cut.h). */
#include <string.h>

#include "msg_rules.h"
#include "snap_cut.h"

bool eng_snap_cut_first(struct eng_snap_cut *s, const struct dgr_msg *m, struct eng_snap_found *f)
{
	uint32_t skipped;

	memset(f, 0, sizeof(*f));
	if (!s->pending) {
		return false;
	}
	s->pending = false;
	if (eng_is_doorbell(m) || !s->data || m->msg_seq > 2 ||
	    (m->msg_seq == 2 && m->num_msgs_in_txn < 2)) {
		return false; /* doorbells, or not a sender's order: nothing is inferred */
	}
	/* transaction ids count up by one per sender: the ones skipped were cut */
	skipped = m->txn_id - s->txn_id - 1;
	if (skipped >= 0x10000u) {
		return false; /* not the next ones: nothing is inferred */
	}
	f->hidden_txns = skipped;
	if (m->msg_seq == 2) {
		f->fragment1 = true;
		f->msg = *m;
		f->msg.msg_seq = 1;
		/* its header was the first one cut when no whole transaction came before it */
		f->msg.data_len = skipped == 0 && s->rest <= UINT16_MAX ? (uint16_t)s->rest : 0;
		f->msg.data = NULL;
		f->msg.has_nextmsg = 0;
		f->ts = s->ts;
		f->ref = s->ref;
	}
	return f->fragment1 || f->hidden_txns;
}

void eng_snap_cut_end(struct eng_snap_cut *s, const struct dgr_msg *last, size_t cut_at, size_t len,
		      uint64_t ts, uint64_t ref)
{
	s->pending = last && cut_at;
	if (!s->pending) {
		return;
	}
	s->data = !eng_is_doorbell(last);
	s->txn_id = last->txn_id;
	s->rest = len > cut_at + DGR_MSG_HDR_LEN ? (uint32_t)(len - cut_at - DGR_MSG_HDR_LEN) : 0;
	s->ts = ts;
	s->ref = ref;
}
