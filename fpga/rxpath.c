// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Frames and DCP packets in. A DG-RDMA frame goes through the ACK tracker
 * (duplicates and out-of-range frames are dropped, as the VHDL does), then
 * each message is decoded and validated by the shared codec. Flag-only
 * writes to the RX-path flag area are doorbells; messages into the TX-path
 * port memory are copied to the input buffers and fed to the shared
 * reassembler, whose COMPLETE fills the buffer (docs/fpga.md section 2).
 */
#include <string.h>

#include "dgrdma-fpga-tp.h"
#include "emu.h"
#include "loop.h"

/* See emu.h. */
void fpga_rx_doorbell(struct fpga_emu *e, unsigned int buffer, uint32_t flag_addr,
		      uint16_t frame_seq, bool via_dcp)
{
	if (e->cfg.mode == FPGA_MODE_DAC) {
		e->cnt.doorbells_rejected++; /* the DAC has no output port */
		return;
	}
	if (fpga_producer_doorbell(&e->prod, buffer) < 0) {
		return;
	}
	if (via_dcp) {
		e->cnt.doorbells_received_dcp++;
	}
	DGR_FPGA_TP(doorbell_rx, (uint16_t)e->cfg.id, (uint16_t)buffer, flag_addr, frame_seq);
}

/* A message into the RX-path memory: only a doorbell is valid there. */
static void rx_path_msg(struct fpga_emu *e, const struct dgr_msg *m, uint16_t seq)
{
	uint32_t flags = e->cfg.nbuffers * e->cfg.buffer_size;

	if (!dgr_msg_is_flag_only(m) || m->flag_addr < flags ||
	    m->flag_addr >= flags + FPGA_FLAG_AREA_BYTES || (m->flag_addr - flags) % 4 != 0 ||
	    !(m->flag_value & DGR_FLAGW_VALID)) {
		e->cnt.doorbells_rejected++;
		e->cnt.messages_rejected++;
		return;
	}
	fpga_rx_doorbell(e, (m->flag_addr - flags) / 4, m->flag_addr, seq, false);
}

/* A message into the TX-path memory: data for the input port. */
static void tx_path_msg(struct fpga_emu *e, const struct dgr_msg *m, uint16_t seq)
{
	struct dgr_msg r = *m;
	struct dgr_txn_info done;
	uint32_t data_end = e->cons.nlocal * FPGA_MAX_BUFFER_SIZE;
	int rc;

	if (e->cfg.mode == FPGA_MODE_ADC) {
		e->cnt.messages_rejected++; /* the ADC has no input port */
		return;
	}
	r.data_addr -= FPGA_TX_PATH_BASE;
	if (r.flag_addr != DGR_NO_FLAG) {
		r.flag_addr -= FPGA_TX_PATH_BASE;
	}
	if (dgr_msg_validate(&r, fpga_consumer_mem_size(&e->cons), true, NULL) < 0 ||
	    (r.data_len > 0 && r.data_addr + r.data_len > data_end)) {
		e->cnt.messages_rejected++;
		return;
	}
	rc = dgr_reasm_add(e->reasm, &r, e->now_ns, seq, &done);
	if (rc < 0 || rc == DGR_REASM_DUPLICATE) {
		e->cnt.reasm_errors++;
		return;
	}
	if (r.data_len > 0) {
		memcpy(e->cons.mem + r.data_addr, r.data, r.data_len);
	}
	if (rc == DGR_REASM_COMPLETE) {
		e->cnt.transactions_rx++;
		if (done.flag_addr != DGR_NO_FLAG &&
		    fpga_consumer_complete(&e->cons, done.data_addr, done.flag_addr,
					   done.flag_value) < 0) {
			e->cnt.messages_rejected++;
		}
	}
}

/*
 * A new host connection: frame_seq 1 outside the ACK window (as a new
 * dgrdma-host connection sends), or a DCP reset of the dgrdma_config worker
 * (a host that receives first, before any frame of its own). Its state
 * starts afresh: ACK tracker, incomplete transactions, input buffers, host
 * buffers all empty and the next transaction into host buffer 0.
 */
void fpga_dgrdma_restart(struct fpga_emu *e)
{
	e->cnt.peer_restarts++;
	fpga_acktrack_init(&e->ack);
	if (e->reasm) {
		dgr_reasm_expire(e->reasm, UINT64_MAX, NULL, NULL);
	}
	fpga_consumer_reset(&e->cons);
	e->dac.started = false;
	e->dac.eof_seen = false;
	e->prod.host_free = e->prod.nhost;
	e->prod.expect_doorbell = 0;
	e->prod.txns_committed = 0;
}

static void rx_frame(struct fpga_emu *e, const uint8_t *buf, size_t len)
{
	struct dgr_frame f;
	struct dgr_msg m;
	int rc;

	if (dgr_frame_parse(&f, buf, len, NULL) < 0) {
		e->cnt.frame_parser_reject++;
		return;
	}
	e->cnt.frames_rx++;
	e->cnt.bytes_rx += len;
	if (f.hdr.dst_id != (uint16_t)e->cfg.id) {
		e->cnt.frames_wrong_id++;
	}
	if (f.hdr.flags == DGR_FRAME_FLAG_ACK_ONLY) {
		e->cnt.ack_only_rx++; /* the FPGA ignores ACK-only frames */
		DGR_FPGA_TP(frame_rx, (uint16_t)e->cfg.id, f.hdr.frame_seq, (uint32_t)len, 0,
			    f.hdr.ack_start, f.hdr.ack_count);
		return;
	}
	if (f.hdr.frame_seq == 1 && e->ack.have_base &&
	    (unsigned int)dgr_seq_diff(1, e->ack.base_seqno) >= FPGA_ACK_WINDOW) {
		fpga_dgrdma_restart(e);
	}
	if (fpga_acktrack_rx(&e->ack, f.hdr.frame_seq, e->now_ns) != FPGA_ACK_ACCEPT) {
		return;
	}
	while ((rc = dgr_frame_next_msg(&f, &m, NULL)) == 1) {
		e->cnt.messages_rx++;
		if (m.data_addr >= FPGA_TX_PATH_BASE ||
		    (m.flag_addr != DGR_NO_FLAG && m.flag_addr >= FPGA_TX_PATH_BASE)) {
			tx_path_msg(e, &m, f.hdr.frame_seq);
		} else {
			rx_path_msg(e, &m, f.hdr.frame_seq);
		}
	}
	if (rc < 0) {
		e->cnt.frame_parser_reject++;
	}
	DGR_FPGA_TP(frame_rx, (uint16_t)e->cfg.id, f.hdr.frame_seq, (uint32_t)len,
		    (uint16_t)f.msg_count, f.hdr.ack_start, f.hdr.ack_count);
}

/* See emu.h. */
void fpga_rx_packet(struct fpga_emu *e, const struct dgr_rx_pkt *pkt)
{
	uint8_t resp[DCP_LEN_NOP_RESP + 8];
	uint64_t doorbells = e->prod.doorbells;
	int n;

	if (!e->have_peer && e->tr && pkt->proto != DGR_PROTO_INVALID) {
		dgr_transport_set_peer(e->tr, &pkt->src);
		e->have_peer = true;
		e->peer_ns = e->now_ns;
	}
	switch (pkt->proto) {
	case DGR_PROTO_DGRDMA:
		rx_frame(e, pkt->data, pkt->len);
		break;
	case DGR_PROTO_DCP:
		n = fpga_dcp_handle(e, pkt->data, pkt->len, resp, sizeof(resp));
		if (n > 0 && e->tr) {
			struct dgr_tx_pkt out = {
				.data = resp,
				.len = (size_t)n,
				.proto = DGR_PROTO_DCP,
				.dst = &pkt->src,
			};
			char errbuf[DGR_ERRBUF_SIZE];

			if (dgr_transport_send(e->tr, &out, 1, errbuf) != 1) {
				e->cnt.send_errors++;
			}
		}
		break;
	default:
		e->cnt.packets_invalid++;
		break;
	}
	if (e->prod.doorbells != doorbells) {
		fpga_adc_packet_instant(e);
	}
}

/* See emu.h. */
int fpga_rx_poll(struct fpga_emu *e)
{
	struct dgr_rx_pkt pkts[DGR_TRANSPORT_DEFAULT_BATCH];
	char errbuf[DGR_ERRBUF_SIZE];
	int total = 0;

	for (int round = 0; round < 4; round++) {
		int n = dgr_transport_recv(e->tr, pkts, DGR_TRANSPORT_DEFAULT_BATCH, 0, errbuf);

		if (n <= 0) {
			break;
		}
		for (int i = 0; i < n; i++) {
			fpga_rx_packet(e, &pkts[i]);
			/* an urgent ACK goes out at once, as the VHDL's: it keeps the window moving
			 */
			if (fpga_acktrack_pending(&e->ack) >= e->cfg.max_acks) {
				fpga_tx_service(e, false);
			}
		}
		total += n;
		if (n < DGR_TRANSPORT_DEFAULT_BATCH) {
			break;
		}
	}
	return total;
}
