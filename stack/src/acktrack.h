/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Frame sequence bookkeeping, both sides of a connection. Every frame takes
 * the next frame_seq, ACK-only frames included (docs/protocol.md section 2):
 *  - dgr_dupfilter: the receiver's duplicate-frame filter (a bit window over
 *    the last DGR_SEQ_WINDOW frame_seqs), asked before a frame is taken and
 *    written only once the frame was accepted whole;
 *  - dgr_ackq: the frame_seqs still to acknowledge, turned into runs of
 *    consecutive numbers (ack_start, ack_count);
 *  - dgr_sendwin: the sender's frames not yet acknowledged by the peer, whose
 *    ACK window (the FPGA's, 32 frames) a sender must not overrun;
 *  - dgr_rtq: the sender's unacknowledged frames, kept for retransmission.
 * Pure state, no clocks or sockets: unit-tested in test/unit/stack.
 */
#ifndef DGR_ACKTRACK_H
#define DGR_ACKTRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DGR_SEQ_WINDOW 1024u

/* Consecutive frame_seqs far ahead that move the window to them (a real jump, not junk). */
#define DGR_SEQ_RESYNC 8u

enum dgr_seq_verdict {
	DGR_SEQ_NEW = 0,   /* first time seen: process it */
	DGR_SEQ_DUP = 1,   /* seen within the window: drop it (but acknowledge again) */
	DGR_SEQ_OLD = 2,   /* older than the window: cannot tell, drop it as a duplicate */
	DGR_SEQ_AHEAD = 3, /* DGR_SEQ_WINDOW or more ahead of the stream: drop it */
};

struct dgr_dupfilter {
	bool started;
	uint16_t highest;
	uint64_t bits[DGR_SEQ_WINDOW / 64];
	uint64_t missing; /* frame_seqs skipped by the stream and not (yet) arrived */
	/* far-ahead frames: a run of DGR_SEQ_RESYNC consecutive ones moves the window */
	uint16_t ahead_last;
	unsigned int ahead_run;
};

void dgr_dupfilter_init(struct dgr_dupfilter *d);

/*
 * The verdict for seq, changing nothing (a frame is checked whole before it
 * is taken): DGR_SEQ_NEW, DGR_SEQ_DUP, DGR_SEQ_OLD or DGR_SEQ_AHEAD. A run of
 * DGR_SEQ_RESYNC consecutive far-ahead seqs makes the last of them NEW.
 */
enum dgr_seq_verdict dgr_dupfilter_check(struct dgr_dupfilter *d, uint16_t seq);

/*
 * Records seq, which dgr_dupfilter_check() called NEW. The first frame seen
 * starts the window; when it is less than DGR_SEQ_WINDOW past 1 the stream is
 * taken as numbered from 1 (frame 0 before it) and frames 1..seq-1 count as
 * missing until they come (a first frame lost is a gap like any other).
 */
void dgr_dupfilter_record(struct dgr_dupfilter *d, uint16_t seq);

#define DGR_ACKQ_SIZE 1024u

/*
 * The frames to acknowledge, as the FPGA's ACK tracker does it: an ACK is the
 * run of consecutive frames from base (the oldest not yet acknowledged), at
 * most 255 long, so every ACK is cumulative (its end acknowledges everything
 * before it) and a hole is never skipped: the sender's retransmission fills it.
 */
struct dgr_ackq {
	bool started;
	uint16_t base;			   /* oldest frame_seq not yet acknowledged */
	uint64_t bits[DGR_ACKQ_SIZE / 64]; /* bit i: frame base + i received */
	uint64_t real[DGR_ACKQ_SIZE / 64]; /* bit i: and it had messages (not ACK-only) */
	bool reack;			   /* a frame before base came again: say so once more */
	uint64_t overflow;		   /* seqs DGR_ACKQ_SIZE or more past base, not recorded */
};

void dgr_ackq_init(struct dgr_ackq *a);

/*
 * Records a received frame. The first one sets base: 1 when it is less than
 * DGR_ACKQ_SIZE past 1 (frames are numbered from 1, as the FPGA's base starts
 * at 1: the frames before it are holes to fill), else its own seq (a peer that
 * numbered frames before we listened). real is false for an
 * ACK-only frame, acknowledged with the next run but never the reason for an
 * ACK-only frame of our own (no ACK ping-pong). A frame before base (a
 * retransmission of one already acknowledged) asks for the ACK to be sent again.
 */
void dgr_ackq_push(struct dgr_ackq *a, uint16_t seq, bool real);

/*
 * Takes the run of consecutive frames from base (at most 255). Returns its
 * length (0 when nothing is acknowledgeable) and sets *start; advances base.
 * With nothing new but a frame seen again, returns the run (base - 1, 1).
 */
unsigned int dgr_ackq_take_run(struct dgr_ackq *a, uint16_t *start);

/* Frames acknowledgeable now (the run from base, at most 255). */
unsigned int dgr_ackq_pending(const struct dgr_ackq *a);

/* Frames received and not yet acknowledged, past the run from base (behind a hole). */
unsigned int dgr_ackq_waiting(const struct dgr_ackq *a);

/*
 * Whether an ACK-only frame is due: the run from base holds a frame with
 * messages, or a frame came again and must be acknowledged again.
 */
bool dgr_ackq_due(const struct dgr_ackq *a);

/*
 * The sender's frames not yet acknowledged: [oldest, next). The peer's ACKs
 * are cumulative (the FPGA's tracker never skips a hole), so the end of any
 * run acknowledges everything before it too, and a lost ACK costs nothing.
 */
struct dgr_sendwin {
	uint16_t next;	 /* frame_seq of the next frame sent */
	uint16_t oldest; /* oldest frame not acknowledged (== next: none) */
};

/* Frames numbered from 1. */
static inline void dgr_sendwin_init(struct dgr_sendwin *w)
{
	w->next = 1;
	w->oldest = 1;
}

/* Frames sent and not acknowledged. */
static inline unsigned int dgr_sendwin_unacked(const struct dgr_sendwin *w)
{
	return (uint16_t)(w->next - w->oldest);
}

/*
 * Takes the next frame_seq, or returns false when window is not 0 and a
 * frame numbered next would lie outside a peer window of that many frames
 * from the oldest unacknowledged one (the FPGA rejects it).
 */
bool dgr_sendwin_take(struct dgr_sendwin *w, unsigned int window, uint16_t *seq);

/*
 * The peer acknowledged frames before end (start + count of its run).
 * Returns how many frames that newly acknowledged (0 for an old or a bogus run).
 */
unsigned int dgr_sendwin_ack(struct dgr_sendwin *w, uint16_t end);

/* One frame kept by the sender until it is acknowledged. */
struct dgr_rtq_slot {
	uint8_t *buf;
	uint32_t len;
	uint16_t seq;
	uint16_t msgs;
	uint8_t attempts; /* retransmissions so far */
	bool done;	  /* acknowledged or given up */
	uint64_t sent_ns;
};

struct dgr_rtq {
	struct dgr_rtq_slot *slot;
	uint8_t *mem;
	uint32_t cap;
	size_t frame_cap;
	uint64_t head; /* oldest slot not yet released */
	uint64_t tail; /* next slot to fill */
};

/* Allocates cap slots of frame_cap bytes. Returns 0 or -DGR_E_NOMEM. */
int dgr_rtq_init(struct dgr_rtq *q, uint32_t cap, size_t frame_cap);
void dgr_rtq_free(struct dgr_rtq *q);

/* Buffer for the next frame, or NULL when every slot is outstanding. */
uint8_t *dgr_rtq_reserve(struct dgr_rtq *q);

/* Commits the reserved slot as a sent frame. */
void dgr_rtq_commit(struct dgr_rtq *q, uint16_t seq, uint32_t len, uint16_t msgs, uint64_t now_ns);

/* Releases every committed slot (no retransmission: frames are gone once sent). */
void dgr_rtq_release_all(struct dgr_rtq *q);

/* Marks frames start..start+count-1 acknowledged; returns how many were newly acknowledged. */
unsigned int dgr_rtq_ack(struct dgr_rtq *q, uint16_t start, unsigned int count);

/*
 * Finds frames unacknowledged for timeout_ns: each due frame that has had
 * fewer than max_attempts resends is stamped (attempts++, sent_ns = now) and
 * returned in due[] (at most max_due); the others are given up (done).
 * Returns the number of due frames; *giveups gets the number given up.
 */
unsigned int dgr_rtq_due(struct dgr_rtq *q, uint64_t now_ns, uint64_t timeout_ns,
			 unsigned int max_attempts, struct dgr_rtq_slot **due, unsigned int max_due,
			 unsigned int *giveups);

/* Frames committed and not yet acknowledged or given up. */
uint64_t dgr_rtq_outstanding(const struct dgr_rtq *q);

/* The oldest frame neither acknowledged nor given up, or NULL. */
const struct dgr_rtq_slot *dgr_rtq_oldest(const struct dgr_rtq *q);

#endif
