// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Frames out. Frames are built in place in a pool allocated once (no
 * per-frame allocation), packed by the shared codec (dgr_txn_plan and
 * dgr_fb_add_txn: the FPGA's fragmentation rules), held for coalesce_wait_d
 * when partly filled, given the pending ACK run of the tracker, and handed
 * to the transport in sendmmsg batches of up to FPGA_TX_FRAMES.
 */
#include <stdlib.h>
#include <string.h>

#include <dgrdma/prefault.h>

#include "dgrdma-fpga-tp.h"
#include "emu.h"

/* See emu.h. */
int fpga_tx_init(struct fpga_emu *e, char *errbuf)
{
	e->frames = calloc(FPGA_TX_FRAMES, e->frame_cap);
	if (!e->frames) {
		if (errbuf) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "cannot allocate %u frames of %u bytes",
				 FPGA_TX_FRAMES, e->frame_cap);
		}
		return -DGR_E_NOMEM;
	}
	/* the faults of fresh pages at set-up, not in the first frames */
	dgr_prefault(e->frames, (size_t)FPGA_TX_FRAMES * e->frame_cap);
	e->next_seq = 1;
	e->next_txn = 1;
	return 0;
}

/* See emu.h. */
void fpga_tx_free(struct fpga_emu *e)
{
	free(e->frames);
	e->frames = NULL;
}

static void flush_frames(struct fpga_emu *e)
{
	struct dgr_tx_pkt pkts[FPGA_TX_FRAMES] = { 0 };
	char errbuf[DGR_ERRBUF_SIZE];
	int n;

	if (e->nframes == 0) {
		return;
	}
	for (unsigned int i = 0; i < e->nframes; i++) {
		pkts[i].data = e->frames + (size_t)i * e->frame_cap;
		pkts[i].len = e->frame_len[i];
		pkts[i].proto = DGR_PROTO_DGRDMA;
		pkts[i].dst = NULL;
		if (e->tx_tap) {
			e->tx_tap(e->tx_tap_ctx, pkts[i].data, pkts[i].len);
		}
	}
	if (e->tr && e->have_peer) {
		n = dgr_transport_send(e->tr, pkts, e->nframes, errbuf);
		if (n < 0) {
			e->cnt.send_errors += e->nframes;
		} else {
			e->cnt.send_errors += e->nframes - (unsigned int)n;
		}
	} else if (e->tr) {
		e->cnt.send_errors += e->nframes;
	}
	e->nframes = 0;
}

static void open_frame(struct fpga_emu *e)
{
	struct dgr_frame_hdr hdr = {
		.dst_id = (uint16_t)e->cfg.remote_dst_id,
		.src_id = (uint16_t)e->cfg.local_src_id,
		.frame_seq = e->next_seq,
	};

	e->next_seq++;
	dgr_fb_init(&e->fb, e->frames + (size_t)e->nframes * e->frame_cap, e->frame_cap, &hdr);
	e->fb_open = true;
	e->fb_first_ns = 0;
}

static uint16_t open_seq(const struct fpga_emu *e)
{
	return dgr_get_le16(e->fb.buf + DGR_FRAME_OFF_SEQ);
}

static void finish_frame(struct fpga_emu *e)
{
	uint16_t ack_start;
	uint8_t ack_count;
	size_t len;
	uint8_t *buf = e->fb.buf;
	unsigned int msgs = e->fb.msgs;

	fpga_acktrack_take(&e->ack, &ack_start, &ack_count, e->now_ns);
	dgr_fb_set_ack(&e->fb, ack_start, ack_count);
	len = dgr_fb_finish(&e->fb);
	e->fb_open = false;
	if (msgs > 0 && e->cfg.drop_frames > 0 && fpga_rand_unit(e) < e->cfg.drop_frames) {
		e->cnt.frames_dropped_injected++;
		return; /* its frame_seq is spent: the host sees the gap */
	}
	if (msgs > 0 && e->cfg.corrupt > 0 && fpga_rand_unit(e) < e->cfg.corrupt) {
		/* the first message claims more data than the frame holds */
		dgr_put_le16(buf + DGR_FRAME_HDR_LEN + DGR_MSG_OFF_DATA_LEN, 0xFFFF);
		e->cnt.frames_corrupted_injected++;
	}
	DGR_FPGA_TP(frame_tx, (uint16_t)e->cfg.local_src_id, dgr_get_le16(buf + DGR_FRAME_OFF_SEQ),
		    (uint32_t)len, (uint16_t)msgs, ack_start, ack_count, (uint8_t)0);
	e->frame_len[e->nframes] = len;
	e->nframes++;
	e->cnt.frames_tx++;
	e->cnt.bytes_tx += len;
	if (e->nframes == FPGA_TX_FRAMES) {
		flush_frames(e);
	}
}

/* See emu.h. */
int fpga_tx_txn(struct fpga_emu *e, const struct dgr_txn *t, uint8_t opcode, unsigned int buffer)
{
	struct dgr_txn_cursor c;
	int rc;

	if (!e->fb_open) {
		open_frame(e);
	}
	rc = dgr_txn_plan(&c, t, &e->fb);
	if (rc < 0) {
		return rc;
	}
	for (;;) {
		unsigned int before = e->fb.msgs;

		rc = dgr_fb_add_txn(&e->fb, &c);
		if (rc < 0) {
			return rc;
		}
		if (before == 0 && e->fb.msgs > 0) {
			e->fb_first_ns = e->now_ns;
		}
		if (rc == 1) {
			break;
		}
		finish_frame(e);
		open_frame(e);
	}
	DGR_FPGA_TP(txn_sent, (uint16_t)e->cfg.local_src_id, t->txn_id, (uint16_t)buffer, t->len,
		    opcode, open_seq(e));
	if (dgr_fb_room(&e->fb) < DGR_FRAG_ALIGN) {
		finish_frame(e);
	}
	return 0;
}

/* See emu.h. */
unsigned int fpga_tx_producer(struct fpga_emu *e)
{
	const struct fpga_slot *s;
	struct dgr_txn t;
	unsigned int hb, n = 0;

	while (fpga_producer_peek(&e->prod, e->next_txn, &t, &s, &hb)) {
		if (fpga_tx_txn(e, &t, s->opcode, hb) < 0) {
			e->cnt.send_errors++;
		}
		if (s->opcode == DGR_OPCODE_DISCONTINUITY) {
			e->cnt.discontinuities_sent++;
			DGR_FPGA_TP(discontinuity, t.txn_id, (uint16_t)hb);
		} else {
			e->cnt.samples_sent += s->bytes / DGR_SAMPLE_BYTES;
		}
		if (s->eof) {
			e->cnt.eof_sent++;
		}
		e->cnt.transactions_sent++;
		e->next_txn++;
		fpga_producer_sent(&e->prod);
		n++;
	}
	return n;
}

/* See emu.h. */
void fpga_tx_queue_doorbell(struct fpga_emu *e, unsigned int buffer)
{
	struct fpga_db *d;

	if (e->dbq_len == FPGA_DB_QUEUE) {
		fpga_tx_doorbells(e); /* cannot happen with E <= 64 buffers; stay safe */
		if (e->dbq_len == FPGA_DB_QUEUE) {
			return;
		}
	}
	d = &e->dbq[(e->dbq_head + e->dbq_len) % FPGA_DB_QUEUE];
	d->due_ns = e->now_ns + (uint64_t)e->cfg.doorbell_delay_us * 1000u;
	d->buffer = buffer;
	e->dbq_len++;
}

/* See emu.h. */
void fpga_tx_doorbells(struct fpga_emu *e)
{
	while (e->dbq_len > 0 && e->dbq[e->dbq_head].due_ns <= e->now_ns) {
		unsigned int j = e->dbq[e->dbq_head].buffer;
		struct dgr_txn t = {
			.txn_id = e->next_txn++,
			.data_addr = DGR_PORT_BASE_TX,
			.flag_addr =
			    fpga_flag_addr(DGR_PORT_BASE_TX, e->cfg.host_buffers, e->cons.size, j),
			.flag_value = DGR_DOORBELL_VALUE,
			.data = NULL,
			.len = 0,
		};

		if (fpga_tx_txn(e, &t, DGR_OPCODE_SAMPLES, j) < 0) {
			e->cnt.send_errors++;
		}
		e->cnt.doorbells_sent++;
		e->dbq_head = (e->dbq_head + 1) % FPGA_DB_QUEUE;
		e->dbq_len--;
	}
}

/* See emu.h. */
void fpga_tx_service(struct fpga_emu *e, bool force_flush)
{
	uint64_t wait_ns = (uint64_t)e->cfg.ack_wait_us * 1000u;

	if (fpga_acktrack_due(&e->ack, e->cfg.max_acks, wait_ns, e->now_ns)) {
		if (!e->fb_open) {
			open_frame(e); /* an ACK-only frame */
		}
		finish_frame(e);
	}
	if (e->fb_open && e->fb.msgs > 0 &&
	    (force_flush || e->cfg.coalesce_us == 0 ||
	     e->now_ns - e->fb_first_ns >= (uint64_t)e->cfg.coalesce_us * 1000u)) {
		finish_frame(e);
	}
	flush_frames(e);
}

/* See emu.h. */
uint64_t fpga_tx_next_deadline(const struct fpga_emu *e)
{
	uint64_t d = UINT64_MAX;

	if (e->fb_open && e->fb.msgs > 0) {
		d = e->fb_first_ns + (uint64_t)e->cfg.coalesce_us * 1000u;
	}
	if (e->dbq_len > 0 && e->dbq[e->dbq_head].due_ns < d) {
		d = e->dbq[e->dbq_head].due_ns;
	}
	if (e->ack.timer_running && e->cfg.ack_wait_us != 0 && fpga_acktrack_pending(&e->ack) > 0) {
		uint64_t a = e->ack.timer_ns + (uint64_t)e->cfg.ack_wait_us * 1000u;

		if (a < d) {
			d = a;
		}
	}
	return d;
}

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
	DGR_FPGA_TP(doorbell_rx, (uint16_t)e->cfg.local_src_id, (uint16_t)buffer, flag_addr,
		    frame_seq);
}
