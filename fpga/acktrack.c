// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ACK tracker of the DG-RDMA VHDL (dgrdma_config_dev counters): a
 * bitfield of the frame_seqs received ahead of base_seqno, duplicate and
 * out-of-range rejection, and runs of consecutive frames acknowledged either
 * urgently (max_acks_outstanding pending) or when ack_wait expires.
 */
#include <string.h>

#include "model.h"

/* See model.h. */
void fpga_acktrack_init(struct fpga_acktrack *a)
{
	memset(a, 0, sizeof(*a));
}

static void reject(struct fpga_acktrack *a, uint16_t seq)
{
	a->rej_seqno = seq;
	a->rej_ack = a->base_seqno;
}

/* See model.h. */
int fpga_acktrack_rx(struct fpga_acktrack *a, uint16_t seq, uint64_t now_ns)
{
	int d;
	unsigned int pending;

	if (!a->have_base) {
		a->have_base = true;
		a->base_seqno = seq;
		a->bitfield = 0;
	}
	d = dgr_seq_diff(seq, a->base_seqno);
	if (d < 0) {
		if (d >= -FPGA_ACK_WINDOW) {
			a->reject_already_set++;
			reject(a, seq);
			return FPGA_ACK_DUPLICATE;
		}
		a->reject_out_of_range++;
		reject(a, seq);
		return FPGA_ACK_OUT_OF_RANGE;
	}
	if (d >= FPGA_ACK_WINDOW) {
		a->reject_out_of_range++;
		reject(a, seq);
		return FPGA_ACK_OUT_OF_RANGE;
	}
	if (a->bitfield & (1ull << d)) {
		a->reject_already_set++;
		reject(a, seq);
		return FPGA_ACK_DUPLICATE;
	}
	pending = fpga_acktrack_pending(a);
	if (a->bitfield == 0) {
		a->first_pending_ns = now_ns;
	}
	a->bitfield |= 1ull << d;
	a->accepted++;
	if ((unsigned int)d == pending) {
		a->accepted_by_peek++;
	}
	if ((uint64_t)d > a->high_watermark) {
		a->high_watermark = (uint64_t)d;
	}
	return FPGA_ACK_ACCEPT;
}

/* See model.h. */
unsigned int fpga_acktrack_pending(const struct fpga_acktrack *a)
{
	if (a->bitfield == ~0ull) {
		return 64;
	}
	return (unsigned int)__builtin_ctzll(~a->bitfield);
}

/* See model.h. */
bool fpga_acktrack_due(struct fpga_acktrack *a, unsigned int max_acks, uint64_t ack_wait_ns,
		       uint64_t now_ns)
{
	if (a->bitfield == 0) {
		return false;
	}
	if (fpga_acktrack_pending(a) >= max_acks) {
		return true;
	}
	if (now_ns - a->first_pending_ns < ack_wait_ns) {
		return false;
	}
	while ((a->bitfield & 1) == 0) {
		/* A frame that never came: give it up so the later ones can be acknowledged. */
		a->bitfield >>= 1;
		a->base_seqno++;
		a->holes_skipped++;
	}
	return true;
}

/* See model.h. */
void fpga_acktrack_take(struct fpga_acktrack *a, uint16_t *start, uint8_t *count, uint64_t now_ns)
{
	unsigned int n = fpga_acktrack_pending(a);

	if (n > 255) {
		n = 255;
	}
	*start = a->base_seqno;
	*count = (uint8_t)n;
	if (n == 0) {
		*start = 0;
		return;
	}
	a->base_seqno = (uint16_t)(a->base_seqno + n);
	a->bitfield = n >= 64 ? 0 : a->bitfield >> n;
	a->ack_tracker_total_acks_sent += n;
	a->tx_acks_sent++;
	if (a->bitfield) {
		a->first_pending_ns = now_ns;
	}
}
