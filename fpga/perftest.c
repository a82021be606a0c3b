// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perftest.hdl of the AXI guide: generates tx_messages messages of tx_beats
 * 4-byte words as fast as the port allows (with tx_message_gap clock cycles
 * between them) and consumes the host's messages at once, counting them.
 */
#include <string.h>

#include "model.h"

/* See model.h. */
void fpga_perftest_init(struct fpga_perftest *pt)
{
	memset(pt, 0, sizeof(*pt));
	pt->tx_beats = FPGA_DEFAULT_BUFFER_SIZE / 4;
}

/* See model.h. */
bool fpga_perftest_tx_pending(const struct fpga_perftest *pt)
{
	return pt->tx_run && pt->tx_messages_sent < pt->tx_messages;
}

/* See model.h. */
void fpga_perftest_tx(struct fpga_perftest *pt, struct fpga_producer *p, uint64_t now_ns)
{
	while (fpga_perftest_tx_pending(pt) && now_ns >= pt->next_tx_ns) {
		uint32_t words = pt->tx_beats;
		uint8_t *buf;

		if (words > p->size / 4) {
			words = p->size / 4;
		}
		buf = fpga_producer_begin(p);
		if (!buf) {
			return; /* back pressure: perftest waits, it never drops */
		}
		for (uint32_t i = 0; i < words; i++) {
			dgr_put_le32(buf + 4 * i, pt->pattern + i);
		}
		fpga_producer_commit(p, words * 4, DGR_OPCODE_SAMPLES,
				     pt->tx_messages_sent + 1 == pt->tx_messages, pt->pattern);
		pt->tx_messages_sent++;
		pt->tx_bytes_sent += words * 4;
		pt->pattern += words;
		if (pt->tx_message_gap) {
			pt->next_tx_ns = now_ns + (uint64_t)((double)pt->tx_message_gap * 1e9 /
							     FPGA_PERFTEST_CLOCK_HZ);
		}
	}
}

/* See model.h. */
void fpga_perftest_rx(struct fpga_perftest *pt, struct fpga_consumer *c,
		      void (*release)(void *ctx, unsigned int buffer), void *ctx)
{
	while (fpga_consumer_ready(c)) {
		uint32_t bytes = c->slot[c->cons_idx].bytes;

		pt->rx_messages++;
		pt->rx_bytes += bytes;
		pt->rx_last_message_bytes = bytes;
		release(ctx, fpga_consumer_release(c));
	}
}
