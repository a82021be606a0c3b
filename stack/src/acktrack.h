/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Frame sequence bookkeeping, both sides of a connection:
 *  - dgr_dupfilter: the receiver's duplicate-frame filter (a bit window over
 *    the last DGR_SEQ_WINDOW frame_seqs, like the FPGA's ACK tracker);
 *  - dgr_ackq: the frame_seqs still to acknowledge, turned into runs of
 *    consecutive numbers (ack_start, ack_count);
 *  - dgr_rtq: the sender's unacknowledged frames, kept for retransmission.
 * Pure state, no clocks or sockets: unit-tested in test/unit/stack.
 */
#ifndef DGR_ACKTRACK_H
#define DGR_ACKTRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DGR_SEQ_WINDOW 1024u

enum dgr_seq_verdict {
	DGR_SEQ_NEW = 0, /* first time seen: process it */
	DGR_SEQ_DUP = 1, /* seen within the window: drop it (but acknowledge again) */
	DGR_SEQ_OLD = 2, /* older than the window: cannot tell, drop it as a duplicate */
};

struct dgr_dupfilter {
	bool started;
	uint16_t highest;
	uint64_t bits[DGR_SEQ_WINDOW / 64];
};

void dgr_dupfilter_init(struct dgr_dupfilter *d);

/* Records seq; returns DGR_SEQ_NEW, DGR_SEQ_DUP or DGR_SEQ_OLD. */
enum dgr_seq_verdict dgr_dupfilter_accept(struct dgr_dupfilter *d, uint16_t seq);

#define DGR_ACKQ_SIZE 1024u

struct dgr_ackq {
	uint16_t q[DGR_ACKQ_SIZE];
	unsigned int head;
	unsigned int count;
	uint64_t overflow; /* seqs not queued because the queue was full */
};

void dgr_ackq_init(struct dgr_ackq *a);

/* Queues seq for acknowledgement (counted in overflow when full). */
void dgr_ackq_push(struct dgr_ackq *a, uint16_t seq);

/*
 * Takes the longest run of consecutive seqs (at most 255) from the head.
 * Returns its length (0 when nothing is pending) and sets *start.
 */
unsigned int dgr_ackq_take_run(struct dgr_ackq *a, uint16_t *start);

/* Seqs waiting. */
static inline unsigned int dgr_ackq_pending(const struct dgr_ackq *a)
{
	return a->count;
}

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

#endif
