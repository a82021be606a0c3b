// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness (make fuzz-fpga): hostile DG-RDMA frames and DCP packets
 * into the emulator's receive path (ACK tracker, codec, doorbells,
 * reassembly into the input port, layout learning, DCP server) in each mode.
 * The first input byte picks the mode and the protocol.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../fpga/emu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct fpga_emu emu[3];

static void release(void *ctx, unsigned int buffer)
{
	fpga_tx_queue_doorbell(ctx, buffer);
}

static void setup(struct fpga_emu *e, enum fpga_mode mode)
{
	memset(e, 0, sizeof(*e));
	e->cfg.mode = mode;
	e->cfg.rate = 1e6;
	e->cfg.buffer_size = 4096;
	e->cfg.nbuffers = 4;
	e->cfg.host_buffers = 8;
	e->cfg.local_src_id = 1;
	e->cfg.restart_on_seq1 = true;
	e->cfg.max_acks = 8;
	e->cfg.ack_wait_us = 100;
	e->frame_cap = 8970;
	e->rng = 1;
	fpga_producer_init(&e->prod, 4096, 4, 8, NULL);
	fpga_consumer_init(&e->cons, 4096, 4, 8, NULL);
	fpga_adc_init(&e->adc, 1e6, 0, true);
	fpga_dac_init(&e->dac, true);
	fpga_perftest_init(&e->pt);
	e->cfg.ack_width = FPGA_ACK_DEFAULT_WIDTH;
	e->cfg.max_ack_count = FPGA_ACK_DEFAULT_MAX_COUNT;
	fpga_acktrack_init(&e->ack, e->cfg.ack_width, e->cfg.max_ack_count);
	fpga_txnrecord_init(&e->txns);
	fpga_tx_init(e, NULL);
	for (unsigned int w = 0; w < DGR_WORKER_COUNT; w++) {
		e->wstate[w] = FPGA_WS_OPERATING;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;
	struct fpga_emu *e;
	uint8_t out[64];

	if (!init) {
		setup(&emu[0], FPGA_MODE_ADC);
		setup(&emu[1], FPGA_MODE_DAC);
		setup(&emu[2], FPGA_MODE_PERFTEST);
		init = true;
	}
	if (size < 1) {
		return 0;
	}
	e = &emu[data[0] % 3];
	e->now_ns += 1000;
	if (data[0] & 0x80) {
		fpga_dcp_handle(e, data + 1, size - 1, out, sizeof(out));
	} else {
		struct dgr_rx_pkt p = { .data = data + 1,
					.len = size - 1,
					.proto = DGR_PROTO_DGRDMA };

		fpga_rx_packet(e, &p);
		fpga_dac_consume(&e->dac, &e->cons, 100, release, e);
		fpga_perftest_rx(&e->pt, &e->cons, release, e);
	}
	fpga_tx_producer(e);
	fpga_tx_doorbells(e);
	fpga_tx_service(e, false);
	return 0;
}
