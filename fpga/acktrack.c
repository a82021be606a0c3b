// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ACK tracker of the DG-RDMA frame parser (model.h, docs/fpga.md
 * section 5): a window of width frame_seqs from base_seqno, peeked before a
 * frame is processed and written once it was processed whole; runs of
 * consecutive frames from base_seqno acknowledged. A hole is never skipped:
 * the window waits for the missing frame, as the hardware does.
 */
#include <string.h>

#include "model.h"

/* See model.h. */
void fpga_acktrack_init(struct fpga_acktrack *a, uint32_t width, uint32_t max_ack_count)
{
	memset(a, 0, sizeof(*a));
	a->width = width;
	a->max_ack_count = max_ack_count;
	a->base_seqno = 1;
}

static uint16_t index_of(const struct fpga_acktrack *a, uint16_t seq)
{
	return (uint16_t)(seq - a->base_seqno);
}

/* See model.h. */
int fpga_acktrack_peek(struct fpga_acktrack *a, uint16_t seq)
{
	uint16_t i = index_of(a, seq);

	if (i > a->width - 1) {
		a->reject_out_of_range++;
		return FPGA_ACK_OUT_OF_RANGE;
	}
	if (a->bitfield & (1ull << i)) {
		a->reject_already_set++;
		return FPGA_ACK_DUPLICATE;
	}
	a->accepted_by_peek++;
	return FPGA_ACK_ACCEPT;
}

/* The window as the HDL's 32-bit debug register shows it: base_seqno in bit 31. */
static uint32_t debug_bitfield(const struct fpga_acktrack *a)
{
	uint32_t v = 0;

	for (unsigned int i = 0; i < 32 && i < a->width; i++) {
		if (a->bitfield & (1ull << i)) {
			v |= 1u << (31 - i);
		}
	}
	return v;
}

/* See model.h. */
void fpga_acktrack_reject_ack_only(struct fpga_acktrack *a, uint16_t seq)
{
	if (a->rej_ack) {
		return;
	}
	a->rej_ack = 1;
	a->dbg_bitfield = debug_bitfield(a);
	a->dbg_base_seqno = a->base_seqno;
	a->rej_seqno = seq;
}

/* See model.h. */
void fpga_acktrack_enqueue(struct fpga_acktrack *a, uint16_t seq, bool real, uint64_t now_ns)
{
	uint16_t i = index_of(a, seq);

	if (i > a->width - 1) {
		return; /* not peeked in this window: the caller's error, ignored */
	}
	a->bitfield |= 1ull << i;
	a->pkts_enqueued++;
	if (i > a->high_watermark) {
		a->high_watermark = i;
	}
	if (real && !a->timer_running) {
		a->timer_running = true;
		a->timer_ns = now_ns;
	}
}

/* See model.h. */
unsigned int fpga_acktrack_pending(const struct fpga_acktrack *a)
{
	unsigned int n = 0;

	while (n < a->max_ack_count && (a->bitfield >> n) & 1u) {
		n++;
	}
	return n;
}

/* See model.h. */
bool fpga_acktrack_due(const struct fpga_acktrack *a, unsigned int max_acks_outstanding,
		       uint64_t ack_wait_ns, uint64_t now_ns)
{
	unsigned int n = fpga_acktrack_pending(a);

	if (n == 0) {
		return false;
	}
	if (max_acks_outstanding != 0 && n >= max_acks_outstanding) {
		return true;
	}
	return a->timer_running && ack_wait_ns != 0 && now_ns - a->timer_ns >= ack_wait_ns;
}

/* See model.h. */
void fpga_acktrack_take(struct fpga_acktrack *a, uint16_t *start, uint8_t *count, uint64_t now_ns)
{
	unsigned int n = fpga_acktrack_pending(a);

	/* every frame sent carries the tracker's run, an empty one too (the HDL's header) */
	*start = a->base_seqno;
	*count = (uint8_t)n;
	a->base_seqno = (uint16_t)(a->base_seqno + n);
	a->bitfield = n >= 64 ? 0 : a->bitfield >> n;
	a->ack_tracker_total_acks_sent += n;
	a->tx_acks_sent++;
	/* the HDL restarts ack_wait whenever an ACK goes out */
	a->timer_running = fpga_acktrack_pending(a) > 0;
	a->timer_ns = now_ns;
}
