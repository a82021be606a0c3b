/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Messages a snap length cut, one rule for latency-report and the Wireshark
 * plugin (docs/analysis.md, "Truncated frames").
 *
 * A sender fills a frame in order and starts a new frame for every further
 * fragment of a transaction (docs/protocol.md), so the cut bytes after the
 * last message header a snapped frame shows hold whole transactions and at
 * most the first fragment of one more, whose later fragments come in the
 * sender's next frames. When the sender's next frame with messages follows
 * with no frame_seq lost or late in between (ACK-only frames may come
 * between) and starts with fragment 2 of a transaction, its fragment 1 was
 * in the cut bytes: the engine feeds it as received at the cut frame's time.
 * It never completes its transaction (fragment 2 comes later), so no latency
 * depends on when it is fed. Its data length is the rest of the frame when
 * its header was the first one cut, else unknown (0). Whole data
 * transactions in the cut bytes show as skipped transaction ids and are
 * counted: their buffers are unknown, so a capture with any is not the whole
 * capture's answer (a larger snap length is).
 */
#ifndef DGR_ENGINE_SNAP_CUT_H
#define DGR_ENGINE_SNAP_CUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dgrdma/wire.h>

/* One sender's state: the last frame with messages, if the snap length cut it. */
struct eng_snap_cut {
	bool pending;	  /* that frame had message headers beyond its captured bytes */
	bool data;	  /* its last message shown was data (not a doorbell) */
	uint32_t txn_id;  /* the transaction of that message */
	uint32_t rest;	  /* bytes after the first cut header's 24 bytes */
	uint64_t ts, ref; /* its capture time and the caller's reference */
};

/* What the cut bytes before a frame's first message held (eng_snap_cut_first()). */
struct eng_snap_found {
	bool fragment1;	      /* msg: fragment 1 of the first message's transaction */
	struct dgr_msg msg;   /* fragment1: the message to feed */
	uint64_t ts, ref;     /* fragment1: the cut frame's time and reference */
	uint32_t hidden_txns; /* whole data transactions in the cut bytes */
};

/*
 * A frame of the sender with a readable header: in_order is false when its
 * frame_seq is not the next one of the sender (frames lost, late or
 * repeated), which forgets a pending cut.
 */
static inline void eng_snap_cut_frame(struct eng_snap_cut *s, bool in_order)
{
	if (!in_order) {
		s->pending = false;
	}
}

/*
 * The first message m of a frame of the sender, after eng_snap_cut_frame().
 * Fills *f with what the cut bytes before it held and forgets the pending
 * cut. Returns true when they held anything (f->fragment1 or hidden_txns).
 */
bool eng_snap_cut_first(struct eng_snap_cut *s, const struct dgr_msg *m, struct eng_snap_found *f);

/*
 * The end of a frame with messages: last is the last message it showed (NULL:
 * none), cut_at the offset of the first message header beyond its captured
 * bytes (0: none), len its length on the wire, ts and ref its capture time
 * and the caller's reference.
 */
void eng_snap_cut_end(struct eng_snap_cut *s, const struct dgr_msg *last, size_t cut_at, size_t len,
		      uint64_t ts, uint64_t ref);

#endif
