/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Duplicate filter, ACK runs and the retransmission queue (acktrack.h). */
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "acktrack.h"

_Static_assert(DGR_ACKQ_SIZE == DGR_SEQ_WINDOW, "one idea of a stream numbered from 1");

/* Empties the filter: the next seq starts the window. */
void dgr_dupfilter_init(struct dgr_dupfilter *d)
{
	memset(d, 0, sizeof(*d));
}

static void bit_set(struct dgr_dupfilter *d, uint16_t seq)
{
	unsigned int i = seq % DGR_SEQ_WINDOW;

	d->bits[i / 64] |= 1ull << (i % 64);
}

static void bit_clear(struct dgr_dupfilter *d, uint16_t seq)
{
	unsigned int i = seq % DGR_SEQ_WINDOW;

	d->bits[i / 64] &= ~(1ull << (i % 64));
}

static bool bit_test(const struct dgr_dupfilter *d, uint16_t seq)
{
	unsigned int i = seq % DGR_SEQ_WINDOW;

	return (d->bits[i / 64] >> (i % 64)) & 1u;
}

static void jump_to(struct dgr_dupfilter *d, uint16_t seq)
{
	int diff = dgr_seq_diff(seq, d->highest);

	if ((unsigned int)diff >= DGR_SEQ_WINDOW) {
		memset(d->bits, 0, sizeof(d->bits));
	} else {
		for (int k = 1; k <= diff; k++) {
			bit_clear(d, (uint16_t)(d->highest + k));
		}
	}
	d->missing += (uint64_t)(diff - 1);
	d->highest = seq;
}

/* See acktrack.h. */
enum dgr_seq_verdict dgr_dupfilter_check(struct dgr_dupfilter *d, uint16_t seq)
{
	int diff;

	if (!d->started) {
		return DGR_SEQ_NEW;
	}
	diff = dgr_seq_diff(seq, d->highest);
	if (diff > 0) {
		if ((unsigned int)diff < DGR_SEQ_WINDOW) {
			return DGR_SEQ_NEW;
		}
		if (d->ahead_run > 0 && seq == (uint16_t)(d->ahead_last + 1)) {
			d->ahead_run++;
		} else {
			d->ahead_run = 1;
		}
		d->ahead_last = seq;
		return d->ahead_run >= DGR_SEQ_RESYNC ? DGR_SEQ_NEW : DGR_SEQ_AHEAD;
	}
	if ((unsigned int)(-diff) >= DGR_SEQ_WINDOW) {
		return DGR_SEQ_OLD;
	}
	return bit_test(d, seq) ? DGR_SEQ_DUP : DGR_SEQ_NEW;
}

/*
 * Whether a stream's first frame_seq seen belongs to a stream numbered from 1
 * (the frames before it lost), rather than to a peer that numbered frames
 * before we listened (an emulator serving host after host): the sender's
 * frames 1..seq-1 are then still in its retransmission window.
 */
static bool from_one(uint16_t first)
{
	return (uint16_t)(first - 1u) < DGR_SEQ_WINDOW;
}

/* See acktrack.h. */
void dgr_dupfilter_record(struct dgr_dupfilter *d, uint16_t seq)
{
	if (!d->started && from_one(seq)) {
		/* frames 1..seq-1 are missing until they come; 0 precedes the stream */
		d->started = true;
		d->highest = 0;
		memset(d->bits, 0, sizeof(d->bits));
		bit_set(d, 0);
		jump_to(d, seq);
	} else if (!d->started) {
		d->started = true;
		d->highest = seq;
		memset(d->bits, 0, sizeof(d->bits));
	} else if (dgr_seq_diff(seq, d->highest) > 0) {
		jump_to(d, seq);
	} else if (d->missing > 0) {
		d->missing--; /* a late frame filled a gap */
	}
	d->ahead_run = 0;
	bit_set(d, seq);
}

/* Empties the queue. */
void dgr_ackq_init(struct dgr_ackq *a)
{
	memset(a, 0, sizeof(*a));
}

static bool ack_bit(const uint64_t *bits, unsigned int i)
{
	return (bits[i / 64] >> (i % 64)) & 1u;
}

/* See acktrack.h. */
void dgr_ackq_push(struct dgr_ackq *a, uint16_t seq, bool real)
{
	uint16_t i;

	if (!a->started) {
		/*
		 * Frames are numbered from 1, so a first frame not far from 1
		 * leaves 1..seq-1 to acknowledge first, as the FPGA's base starts
		 * at 1: starting at seq, the run from it would acknowledge (ACKs
		 * are cumulative) the lost frames before it, and the sender would
		 * never send them again (issue 29: frame 1 lost, the stream
		 * stalled for ever).
		 */
		a->started = true;
		a->base = from_one(seq) ? 1 : seq;
	}
	i = (uint16_t)(seq - a->base);
	if (i >= 32768u) {
		a->reack = true; /* before base: acknowledged already, the ACK was lost */
		return;
	}
	if (i >= DGR_ACKQ_SIZE) {
		a->overflow++;
		return;
	}
	i = (uint16_t)(seq % DGR_ACKQ_SIZE);
	a->bits[i / 64] |= 1ull << (i % 64);
	if (real) {
		a->real[i / 64] |= 1ull << (i % 64);
	} else {
		a->real[i / 64] &= ~(1ull << (i % 64));
	}
}

/* Length of the run from base, and whether it holds a frame with messages. */
static unsigned int run_from_base(const struct dgr_ackq *a, bool *has_real)
{
	unsigned int n = 0;

	*has_real = false;
	while (n < 255) {
		unsigned int i = (uint16_t)(a->base + n) % DGR_ACKQ_SIZE;

		if (!ack_bit(a->bits, i)) {
			break;
		}
		*has_real |= ack_bit(a->real, i);
		n++;
	}
	return n;
}

/* See acktrack.h. */
unsigned int dgr_ackq_pending(const struct dgr_ackq *a)
{
	bool has_real;

	return run_from_base(a, &has_real);
}

/* See acktrack.h. */
unsigned int dgr_ackq_waiting(const struct dgr_ackq *a)
{
	unsigned int n = 0;

	for (unsigned int k = 0; k < DGR_ACKQ_SIZE / 64; k++) {
		n += (unsigned int)__builtin_popcountll(a->bits[k]);
	}
	return n - dgr_ackq_pending(a);
}

/* See acktrack.h. */
bool dgr_ackq_due(const struct dgr_ackq *a)
{
	bool has_real;

	return run_from_base(a, &has_real) > 0 ? has_real : a->reack;
}

/* See acktrack.h. */
unsigned int dgr_ackq_take_run(struct dgr_ackq *a, uint16_t *start)
{
	bool has_real;
	unsigned int n = run_from_base(a, &has_real);

	if (n == 0) {
		if (!a->reack) {
			return 0;
		}
		a->reack = false;
		*start = (uint16_t)(a->base - 1);
		return 1;
	}
	for (unsigned int k = 0; k < n; k++) {
		unsigned int i = (uint16_t)(a->base + k) % DGR_ACKQ_SIZE;

		a->bits[i / 64] &= ~(1ull << (i % 64));
	}
	*start = a->base;
	a->base = (uint16_t)(a->base + n);
	a->reack = false;
	return n;
}

/* See acktrack.h. */
bool dgr_sendwin_take(struct dgr_sendwin *w, unsigned int window, uint16_t *seq)
{
	if (window != 0 && dgr_sendwin_unacked(w) >= window) {
		return false;
	}
	*seq = w->next++;
	return true;
}

/* See acktrack.h. */
unsigned int dgr_sendwin_ack(struct dgr_sendwin *w, uint16_t end)
{
	uint16_t newly = (uint16_t)(end - w->oldest);

	if (newly == 0 || newly > dgr_sendwin_unacked(w)) {
		return 0;
	}
	w->oldest = end;
	return newly;
}

/* Returns 0, -DGR_E_INVAL or -DGR_E_NOMEM. */
int dgr_rtq_init(struct dgr_rtq *q, uint32_t cap, size_t frame_cap)
{
	memset(q, 0, sizeof(*q));
	if (cap == 0 || frame_cap == 0) {
		return -DGR_E_INVAL;
	}
	q->slot = calloc(cap, sizeof(*q->slot));
	q->mem = aligned_alloc(64, ((size_t)cap * frame_cap + 63) & ~(size_t)63);
	if (!q->slot || !q->mem) {
		dgr_rtq_free(q);
		return -DGR_E_NOMEM;
	}
	q->cap = cap;
	q->frame_cap = frame_cap;
	/*
	 * Pre-faulted: the slots are used in turn, so without this the first pass
	 * through them pays a page fault per 4 KiB on the send path (perf: 586
	 * faults in the first 120 ms of a 200 MS/s stream).
	 */
	memset(q->mem, 0, (size_t)cap * frame_cap);
	for (uint32_t i = 0; i < cap; i++) {
		q->slot[i].buf = q->mem + (size_t)i * frame_cap;
		q->slot[i].done = true;
	}
	return 0;
}

/* Frees the slots. */
void dgr_rtq_free(struct dgr_rtq *q)
{
	free(q->slot);
	free(q->mem);
	q->slot = NULL;
	q->mem = NULL;
}

static void advance_head(struct dgr_rtq *q)
{
	while (q->head < q->tail && q->slot[q->head % q->cap].done) {
		q->head++;
	}
}

/* Returns the next slot's buffer or NULL when full. */
uint8_t *dgr_rtq_reserve(struct dgr_rtq *q)
{
	advance_head(q);
	if (q->tail - q->head >= q->cap) {
		return NULL;
	}
	return q->slot[q->tail % q->cap].buf;
}

/* Commits the slot dgr_rtq_reserve() returned. */
void dgr_rtq_commit(struct dgr_rtq *q, uint16_t seq, uint32_t len, uint16_t msgs, uint64_t now_ns)
{
	struct dgr_rtq_slot *s = &q->slot[q->tail % q->cap];

	s->seq = seq;
	s->len = len;
	s->msgs = msgs;
	s->attempts = 0;
	s->done = false;
	s->sent_ns = now_ns;
	q->tail++;
}

/* Marks every committed slot done. */
void dgr_rtq_release_all(struct dgr_rtq *q)
{
	for (uint64_t i = q->head; i < q->tail; i++) {
		q->slot[i % q->cap].done = true;
	}
	q->head = q->tail;
}

/* Returns the number of frames newly acknowledged. */
unsigned int dgr_rtq_ack(struct dgr_rtq *q, uint16_t start, unsigned int count)
{
	unsigned int newly = 0;

	advance_head(q);
	if (q->head == q->tail) {
		return 0;
	}
	/* seqs are consecutive in the queue: index = head + (seq - seq at head) */
	for (unsigned int k = 0; k < count; k++) {
		uint16_t seq = (uint16_t)(start + k);
		uint16_t off = (uint16_t)(seq - q->slot[q->head % q->cap].seq);
		struct dgr_rtq_slot *s;

		if (off >= q->tail - q->head) {
			continue;
		}
		s = &q->slot[(q->head + off) % q->cap];
		if (s->seq == seq && !s->done) {
			s->done = true;
			newly++;
		}
	}
	advance_head(q);
	return newly;
}

/* Returns the number of due frames written to due[]. */
unsigned int dgr_rtq_due(struct dgr_rtq *q, uint64_t now_ns, uint64_t timeout_ns,
			 unsigned int max_attempts, struct dgr_rtq_slot **due, unsigned int max_due,
			 unsigned int *giveups)
{
	unsigned int n = 0;

	*giveups = 0;
	for (uint64_t i = q->head; i < q->tail && n < max_due; i++) {
		struct dgr_rtq_slot *s = &q->slot[i % q->cap];

		if (s->done || now_ns - s->sent_ns < timeout_ns) {
			continue;
		}
		if (s->attempts >= max_attempts) {
			s->done = true;
			(*giveups)++;
			continue;
		}
		s->attempts++;
		s->sent_ns = now_ns;
		due[n++] = s;
	}
	advance_head(q);
	return n;
}

/* Returns the number of committed frames not yet done. */
uint64_t dgr_rtq_outstanding(const struct dgr_rtq *q)
{
	uint64_t n = 0;

	for (uint64_t i = q->head; i < q->tail; i++) {
		n += !q->slot[i % q->cap].done;
	}
	return n;
}

/* See acktrack.h. */
const struct dgr_rtq_slot *dgr_rtq_oldest(const struct dgr_rtq *q)
{
	for (uint64_t i = q->head; i < q->tail; i++) {
		if (!q->slot[i % q->cap].done) {
			return &q->slot[i % q->cap];
		}
	}
	return NULL;
}
