// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Frames and DCP packets in, as the HDL's frame parser: the ACK tracker's
 * window decides first (rejected frames are dropped whole, ACK-only ones
 * included), each message's data is written and its transaction recorded,
 * and the transaction record releases flag writes strictly in transaction
 * order: flag-only writes to the RX-path flag area are doorbells, flags in
 * the TX-path port memory fill input buffers (docs/fpga.md sections 2, 5).
 * A frame processed whole is enqueued in the tracker, to be acknowledged.
 */
#include <stdio.h>
#include <string.h>

#include "dgrdma-fpga-tp.h"
#include "emu.h"

/* A message into the RX-path memory: only a doorbell is usable there. */
static bool rx_path_msg_ok(struct fpga_emu *e, const struct dgr_msg *m)
{
	uint32_t flags = e->cfg.nbuffers * e->cfg.buffer_size;

	if (!dgr_msg_is_flag_only(m) || m->flag_addr < flags ||
	    m->flag_addr >= flags + FPGA_FLAG_AREA_BYTES || (m->flag_addr - flags) % 4 != 0 ||
	    !(m->flag_value & DGR_FLAGW_VALID)) {
		e->cnt.doorbells_rejected++;
		if (dgr_msg_is_flag_only(m) &&
		    (m->flag_addr < flags || m->flag_addr >= flags + FPGA_FLAG_AREA_BYTES) &&
		    !e->flags_outside_area++) {
			e->first_outside_flag = m->flag_addr;
		}
		return false;
	}
	return true;
}

/* A message into the TX-path memory: data for the input port, written at once. */
static bool tx_path_msg_ok(struct fpga_emu *e, const struct dgr_msg *m)
{
	struct dgr_msg r = *m;
	uint32_t data_end = e->cons.nlocal * FPGA_MAX_BUFFER_SIZE;

	if (e->cfg.mode == FPGA_MODE_ADC) {
		return false; /* the ADC has no input port */
	}
	r.data_addr -= DGR_PORT_BASE_TX;
	if (r.flag_addr != DGR_NO_FLAG) {
		r.flag_addr -= DGR_PORT_BASE_TX;
	}
	if (dgr_msg_validate(&r, fpga_consumer_mem_size(&e->cons), true, NULL) < 0 ||
	    (r.data_len > 0 && r.data_addr + r.data_len > data_end)) {
		return false;
	}
	if (r.data_len > 0) {
		memcpy(e->cons.mem + r.data_addr, r.data, r.data_len);
	}
	return true;
}

/* The flag write of a transaction the record released (in transaction order). */
static void write_flag(struct fpga_emu *e, const struct fpga_txn_entry *t)
{
	uint32_t flags = e->cfg.nbuffers * e->cfg.buffer_size;

	if (t->flag_addr == DGR_NO_FLAG && t->flag_value == DGR_NO_FLAG) {
		e->cnt.flags_none++; /* the HDL writes it to the top word: nothing listens there */
		return;
	}
	if (t->unusable) {
		e->cnt.flags_unusable++;
		return;
	}
	if (t->flag_addr >= DGR_PORT_BASE_TX) {
		e->cnt.transactions_rx++;
		if (fpga_consumer_complete(&e->cons, t->data_addr - DGR_PORT_BASE_TX,
					   t->flag_addr - DGR_PORT_BASE_TX, t->flag_value) < 0) {
			e->cnt.messages_rejected++;
		}
		return;
	}
	fpga_rx_doorbell(e, (t->flag_addr - flags) / 4, t->flag_addr, t->frame_seq, false);
}

/* One message of an accepted frame: its data written, its transaction recorded. */
static void rx_msg(struct fpga_emu *e, const struct dgr_msg *m, uint16_t seq)
{
	struct fpga_txn_entry t;
	bool ok;

	e->cnt.messages_rx++;
	if (m->data_addr >= DGR_PORT_BASE_TX ||
	    (m->flag_addr != DGR_NO_FLAG && m->flag_addr >= DGR_PORT_BASE_TX)) {
		ok = tx_path_msg_ok(e, m);
	} else {
		ok = rx_path_msg_ok(e, m);
	}
	if (!ok) {
		e->cnt.messages_rejected++;
	}
	/* the record orders every transaction, usable or not, as the HDL's does */
	if (fpga_txnrecord_msg(&e->txns, m, seq, ok) < 0) {
		return;
	}
	while (fpga_txnrecord_next_flag(&e->txns, &t)) {
		write_flag(e, &t);
	}
}

/*
 * A data message the HDL's parser refuses: no data (with messages in the
 * transaction) or more than 16 KiB. The frame is abandoned and not enqueued.
 */
static bool hdl_refuses(const struct dgr_msg *m)
{
	return m->num_msgs_in_txn != 0 && (m->data_len == 0 || m->data_len > FPGA_MAX_MSG_DATA);
}

/*
 * What reaches the HDL's frame parser of a DG-RDMA frame. Over raw Ethernet the
 * payload is at least 46 bytes: a shorter frame arrives zero-padded (a NIC
 * pads it; veth does not, so the emulator does). Over UDP the FPGA's UDP
 * receiver trims the payload to the UDP length: no padding reaches the parser.
 */
#define FPGA_ETH_MIN_PAYLOAD 46
/*
 * The parser takes a frame header as 16 bytes of its stream: 6 it skips (the
 * source MAC, or the source IP address and port over UDP), then the 10-byte
 * DG-RDMA header.
 */
#define FPGA_PARSER_HDR_BYTES 16

enum rx_next {
	RX_DONE,    /* the rest of the stream is consumed (RX_WAIT_TLAST, RX_ERROR_WAIT_TLAST) */
	RX_READ_ON, /* an accepted ACK-only frame: the next 16 bytes are read as a header */
};

/* A host frame rejected on the frame_seq an ACK-only frame's padding took: it is lost. */
static void note_padding_loss(struct fpga_emu *e, const struct dgr_frame *f)
{
	struct dgr_frame copy = *f;
	struct dgr_msg m;
	char line[1024];

	if (!e->pad.marked || f->hdr.frame_seq != e->pad.seq) {
		return;
	}
	e->cnt.frames_lost_to_padding++;
	if (e->pad.lost) {
		return;
	}
	e->pad.lost = true;
	e->pad.lost_seq = f->hdr.frame_seq;
	e->pad.lost_txn = dgr_frame_next_msg(&copy, &m, NULL) == 1 ? m.txn_id : 0;
	if (!e->pad.reported && fpga_rx_diagnosis(e, line, sizeof(line))) {
		e->pad.reported = true;
		fprintf(stderr, "dgrdma-fpga: %s\n", line);
	}
}

/* A frame whose header ends the stream: ignored, never peeked: its frame_seq a hole. */
static void note_truncated(struct fpga_emu *e, const uint8_t *buf, size_t n)
{
	char line[1024];

	e->cnt.frames_truncated++;
	if (e->pad.truncated) {
		return;
	}
	e->pad.truncated = true;
	e->pad.truncated_seq = n >= DGR_FRAME_HDR_LEN ? dgr_get_le16(buf + DGR_FRAME_OFF_SEQ) : 0;
	if (!e->pad.reported && n >= DGR_FRAME_HDR_LEN &&
	    fpga_rx_diagnosis(e, line, sizeof(line))) {
		e->pad.reported = true;
		fprintf(stderr, "dgrdma-fpga: %s\n", line);
	}
}

/* Keeps the connection's frame 1 (accepted), to know a retransmission of it. */
static void frame1_keep(struct fpga_emu *e, const uint8_t *buf, size_t len)
{
	e->frame1.seen = true;
	e->frame1.at_ns = e->now_ns;
	e->frame1.len = len;
	memcpy(e->frame1.head, buf, len < FPGA_FRAME1_HEAD ? len : FPGA_FRAME1_HEAD);
}

/*
 * True when a frame_seq 1 outside the window repeats the connection's own
 * frame 1 byte for byte, within FPGA_FRAME1_REPEAT_NS of it: the host sent it
 * again because its ACK came late. Taking it for a new connection would reset
 * the buffers under a running stream (seen under load: doorbells out of
 * order, the host's buffers filled three ahead).
 */
static bool frame1_repeated(const struct fpga_emu *e, const uint8_t *buf, size_t len)
{
	return e->frame1.seen && e->frame1.len == len &&
	       e->now_ns - e->frame1.at_ns < FPGA_FRAME1_REPEAT_NS &&
	       memcmp(e->frame1.head, buf, len < FPGA_FRAME1_HEAD ? len : FPGA_FRAME1_HEAD) == 0;
}

/*
 * One frame header and what follows it, buf holding the rest of the parser's
 * stream (len bytes, more than a header). padding: read after an accepted
 * ACK-only frame, from its rest. Returns what the parser does next.
 */
static enum rx_next rx_frame(struct fpga_emu *e, const uint8_t *buf, size_t len, bool padding)
{
	struct dgr_frame f;
	struct dgr_msg m;
	int verdict;
	int rc;

	if (dgr_frame_parse(&f, buf, len, NULL) < 0) {
		e->cnt.frame_parser_reject++;
		return RX_DONE;
	}
	if (!padding) {
		/* counted only: the HDL's receive path reads no id */
		if (f.hdr.dst_id != (uint16_t)e->cfg.local_src_id) {
			e->cnt.frames_wrong_id++;
		}
		if (e->cfg.restart_on_seq1 && f.hdr.frame_seq == 1 &&
		    (uint16_t)(1 - e->ack.base_seqno) > e->ack.width - 1) {
			if (frame1_repeated(e, buf, len)) {
				e->cnt.frame1_repeats++; /* rejected below, as the HDL does */
			} else {
				fpga_dgrdma_restart(e);
			}
		}
	}
	verdict = fpga_acktrack_peek(&e->ack, f.hdr.frame_seq);
	if (verdict != FPGA_ACK_ACCEPT) {
		/* dropped whole (ACK-only: its ACKs too), counted by RX_ERROR_WAIT_TLAST */
		e->cnt.frame_parser_reject++;
		if (f.hdr.flags == DGR_FRAME_FLAG_ACK_ONLY) {
			fpga_acktrack_reject_ack_only(&e->ack, f.hdr.frame_seq);
		}
		if (!padding) {
			note_padding_loss(e, &f);
		}
		DGR_FPGA_TP(frame_rejected, (uint16_t)e->cfg.local_src_id, f.hdr.frame_seq,
			    (uint8_t)verdict, e->ack.base_seqno);
		return RX_DONE;
	}
	if (!padding && f.hdr.frame_seq == 1) {
		frame1_keep(e, buf, len);
	}
	if (padding) {
		/* a frame_seq the host never sent is marked received: its own frame will be lost */
		e->cnt.padding_frames_accepted++;
		e->pad.marked = true;
		e->pad.seq = f.hdr.frame_seq;
		e->pad.base = e->ack.base_seqno;
	}
	if (f.hdr.flags == DGR_FRAME_FLAG_ACK_ONLY) {
		if (!padding) {
			e->cnt.ack_only_rx++;
		}
		fpga_acktrack_enqueue(&e->ack, f.hdr.frame_seq, false, e->now_ns);
		DGR_FPGA_TP(frame_rx, (uint16_t)e->cfg.local_src_id, f.hdr.frame_seq, (uint32_t)len,
			    0, f.hdr.ack_start, f.hdr.ack_count);
		/* RX_GEN_ACK -> RX_IDLE -> RX_FRAME_HDR: no RX_WAIT_TLAST, the rest is read on */
		return RX_READ_ON;
	}
	while ((rc = dgr_frame_next_msg(&f, &m, NULL)) == 1) {
		if (hdl_refuses(&m)) {
			rc = -DGR_E_TOO_LONG;
			break;
		}
		rx_msg(e, &m, f.hdr.frame_seq);
	}
	if (rc < 0) {
		/* the parser abandons the frame: never enqueued, its frame_seq stays a hole */
		e->cnt.frame_parser_reject++;
		return RX_DONE;
	}
	fpga_acktrack_enqueue(&e->ack, f.hdr.frame_seq, true, e->now_ns);
	DGR_FPGA_TP(frame_rx, (uint16_t)e->cfg.local_src_id, f.hdr.frame_seq, (uint32_t)len,
		    (uint16_t)f.msg_count, f.hdr.ack_start, f.hdr.ack_count);
	return RX_DONE;
}

/*
 * A received DG-RDMA frame as the HDL's parser sees it: padded to the Ethernet
 * minimum (raw Ethernet) or exactly as sent (UDP), then header after header
 * for as long as accepted ACK-only frames let it read on (docs/fpga.md
 * section 11).
 */
static void rx_dgrdma(struct fpga_emu *e, const uint8_t *data, size_t len)
{
	uint8_t padded[FPGA_ETH_MIN_PAYLOAD];
	const uint8_t *buf = data;
	size_t n = len;

	e->cnt.frames_rx++;
	e->cnt.bytes_rx += len;
	if (e->cfg.drop_rx > 0 && fpga_rand_unit(e) < e->cfg.drop_rx) {
		e->cnt.frames_rx_dropped_injected++; /* lost on the wire before the tracker */
		return;
	}
	if (e->kind != DGR_TRANSPORT_UDP && len < FPGA_ETH_MIN_PAYLOAD) {
		memset(padded, 0, sizeof(padded));
		memcpy(padded, data, len);
		buf = padded;
		n = sizeof(padded);
	}
	for (size_t off = 0;; off += FPGA_PARSER_HDR_BYTES) {
		/* RX_FRAME_HDR ignores a header whose last beat ends the stream (TLAST) */
		if (n - off <= DGR_FRAME_HDR_LEN) {
			if (off == 0) {
				note_truncated(e, buf, n);
			}
			return;
		}
		if (off > 0) {
			e->cnt.padding_frames_rx++;
		}
		if (rx_frame(e, buf + off, n - off, off > 0) != RX_READ_ON) {
			return;
		}
	}
}

/* See emu.h. */
bool fpga_rx_diagnosis(const struct fpga_emu *e, char *buf, size_t cap)
{
	if (e->pad.lost) {
		snprintf(
		    buf, cap,
		    "the host's frame %u was dropped: the padding of an ACK-only frame was "
		    "read as a frame %u and accepted (base_seqno %u, within the window of the "
		    "16-bit wrap), so the host's own frame %u was rejected and acknowledged all "
		    "the same; its transaction %u never reached the transaction record, which "
		    "writes flags in transaction order: no flag after transaction %u is "
		    "written (next_flag_txn_id %u, %u waiting) and the ADC drops. The HDL's "
		    "frame parser does this (docs/fpga.md section 11): the host must send no "
		    "ACK-only frame to an FPGA (dgrdma-host --peer-kind fpga)",
		    e->pad.lost_seq, e->pad.seq, e->pad.base, e->pad.lost_seq, e->pad.lost_txn,
		    e->txns.next_flag_txn_id - 1u, e->txns.next_flag_txn_id, e->txns.nused);
		return true;
	}
	if (e->pad.truncated) {
		snprintf(
		    buf, cap,
		    "%llu frames of the host ended at their 10-byte header (ACK-only frames "
		    "over UDP), the first frame %u: the HDL's frame parser ignores such a frame "
		    "as truncated, never enqueued, a hole its window never skips: no ACK gets "
		    "past it (base_seqno %u), the host can send only 31 frames beyond it and "
		    "every later frame is rejected out of range (%llu so far) (docs/fpga.md "
		    "section 11); the host must send no ACK-only frame to an FPGA (dgrdma-host "
		    "--peer-kind fpga)",
		    (unsigned long long)e->cnt.frames_truncated, e->pad.truncated_seq,
		    e->ack.base_seqno, (unsigned long long)e->ack.reject_out_of_range);
		return true;
	}
	if (e->flags_outside_area) {
		uint32_t flags = e->cfg.nbuffers * e->cfg.buffer_size;

		snprintf(buf, cap,
			 "%llu doorbells of the host were outside the flag area, the first to "
			 "0x%x: this FPGA's flag area is 0x%x..0x%x (%u buffers of %u bytes): the "
			 "host counts another number of FPGA buffers (tell it this one's: "
			 "dgrdma-host --fpga-buffers %u) or another buffer size; each transaction "
			 "it did not answer holds a buffer",
			 (unsigned long long)e->flags_outside_area, e->first_outside_flag, flags,
			 flags + FPGA_FLAG_AREA_BYTES - 1, e->cfg.nbuffers, e->cfg.buffer_size,
			 e->cfg.nbuffers);
		return true;
	}
	return false;
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
		rx_dgrdma(e, pkt->data, pkt->len);
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
			if (fpga_acktrack_due(&e->ack, e->cfg.max_acks, 0, e->now_ns)) {
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
