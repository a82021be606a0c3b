// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the emulator without sockets: the property map, the DCP
 * server (discovery, admin space, control operations, properties, DCP
 * doorbells), the TX path (frames decoded and reassembled by the shared
 * codec, coalescing, ACK piggy-backing, fault injection) and the RX path
 * (doorbells, data into the DAC's buffers, malformed and duplicate frames).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "../../../fpga/emu.h"
#include "../../../fpga/loop.h"

#define S 16384u
#define E 4u
#define H 8u

static struct fpga_emu emu;

static struct fpga_emu *setup(enum fpga_mode mode)
{
	struct fpga_emu *e = &emu;

	fpga_producer_free(&e->prod);
	fpga_consumer_free(&e->cons);
	fpga_tx_free(e);
	memset(e, 0, sizeof(*e));
	e->cfg.mode = mode;
	e->cfg.rate = 1e6;
	e->cfg.rate_sps = 1000000;
	e->cfg.buffer_size = S;
	e->cfg.nbuffers = E;
	e->cfg.host_buffers = H;
	e->cfg.fpga_memory = 65536;
	e->cfg.report_data_loss = true;
	e->cfg.local_src_id = 1;
	e->cfg.restart_on_seq1 = true;
	e->cfg.clock_freeze = true;
	e->cfg.max_acks = 8;
	e->cfg.ack_wait_us = 100;
	e->rng = 12345;
	fpga_producer_init(&e->prod, S, E, H, NULL);
	fpga_consumer_init(&e->cons, S, E, H, NULL);
	fpga_adc_init(&e->adc, 1e6, 0, true);
	fpga_dac_init(&e->dac, true);
	fpga_perftest_init(&e->pt);
	e->cfg.ack_width = FPGA_ACK_DEFAULT_WIDTH;
	e->cfg.max_ack_count = FPGA_ACK_DEFAULT_MAX_COUNT;
	fpga_acktrack_init(&e->ack, e->cfg.ack_width, e->cfg.max_ack_count);
	fpga_txnrecord_init(&e->txns);
	e->frame_cap = 8970;
	e->mtu = 9000;
	e->have_peer = true;
	fpga_tx_init(e, NULL);
	return e;
}

/* ---- frames the emulator sent, captured by the tap ---- */
#define MAXF 64
static uint8_t tapped[MAXF][9000];
static size_t tapped_len[MAXF];
static unsigned int ntapped;

static void tap_frame(void *ctx, const uint8_t *f, size_t len)
{
	(void)ctx;
	if (ntapped < MAXF) {
		memcpy(tapped[ntapped], f, len);
		tapped_len[ntapped] = len;
	}
	ntapped++;
}

/* ---- DCP helpers ---- */
static int dcp(struct fpga_emu *e, enum dcp_kind kind, uint32_t addr, uint32_t data, uint8_t be,
	       struct dcp_packet *resp)
{
	struct dcp_packet p = { .kind = kind, .addr = addr, .data = data, .low = be, .tag = 0x5A };
	uint8_t req[32], out[32];
	int n = dcp_encode(req, sizeof(req), &p);

	n = fpga_dcp_handle(e, req, (size_t)n, out, sizeof(out));
	if (n <= 0) {
		return -1;
	}
	return dcp_decode(out, (size_t)n, resp, NULL);
}

static uint32_t dcp_read(struct fpga_emu *e, uint32_t addr, uint8_t *code)
{
	struct dcp_packet r;

	memset(&r, 0, sizeof(r));
	dcp(e, DCP_KIND_READ, addr, 0, 0xF, &r);
	*code = r.low;
	return r.data;
}

static uint8_t dcp_write(struct fpga_emu *e, uint32_t addr, uint32_t v, uint8_t be)
{
	struct dcp_packet r;

	memset(&r, 0, sizeof(r));
	if (dcp(e, DCP_KIND_WRITE, addr, v, be, &r) < 0 || r.kind != DCP_KIND_WRITE_RESP) {
		return 0xFF;
	}
	return r.low;
}

static uint32_t paddr(const char *name)
{
	const struct fpga_prop *p = fpga_prop_by_name(name);

	return p ? dcp_property_addr(p->worker, p->offset) : 0;
}

static void test_prop_map(void)
{
	unsigned int bad_name = 0, bad_align = 0, overlap = 0, no_doc = 0;

	for (unsigned int i = 0; i < fpga_nprops; i++) {
		const struct fpga_prop *p = &fpga_props[i];
		uint32_t end = p->offset + (p->type == FPGA_PT_U64 ? 8 : 4);

		if (fpga_prop_by_name(p->name) != p) {
			bad_name++;
		}
		if (p->offset % 4 || (p->type == FPGA_PT_U64 && p->offset % 8)) {
			bad_align++;
		}
		if (!p->doc || !*p->doc) {
			no_doc++;
		}
		for (unsigned int j = 0; j < fpga_nprops; j++) {
			const struct fpga_prop *q = &fpga_props[j];

			if (j != i && q->worker == p->worker && q->offset >= p->offset &&
			    q->offset < end) {
				overlap++;
			}
		}
	}
	TAP_EQ_U(bad_name, 0, "props: every name is unique");
	TAP_EQ_U(bad_align, 0, "props: words 4-aligned, u64 8-aligned");
	TAP_EQ_U(overlap, 0, "props: no two properties overlap");
	TAP_EQ_U(no_doc, 0, "props: every property is documented");
	{
		static const char *const required[] = {
			"transactions_sent",
			"doorbells_received",
			"samples_produced",
			"dropped_samples",
			"num_dropped_samps",
			"discontinuities_sent",
			"num_underruns",
			"ack_tracker_total_acks_sent",
			"tx_acks_sent",
			"pkts_enqueued",
			"reject_out_of_range",
			"reject_already_set",
			"accepted_by_peek",
			"high_watermark",
			"bitfield",
			"base_seqno",
			"rej_seqno",
			"rej_ack",
			"frame_parser_reject",
			"coalesce_wait_d",
			"max_acks_outstanding",
			"ack_wait",
			"report_data_loss",
			"samp_count_before_first_underrun",
			"tx_run",
			"tx_beats",
			"tx_messages",
			"tx_message_gap",
			"rx_messages",
			"rx_bytes",
			"rx_last_message_bytes",
		};
		unsigned int missing = 0;

		for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
			if (!fpga_prop_by_name(required[i])) {
				missing++;
				tap_diag("missing property %s", required[i]);
			}
		}
		TAP_EQ_U(missing, 0, "props: every name of the issue and the VHDL exists");
	}
}

static void test_dcp(void)
{
	struct fpga_emu *e = setup(FPGA_MODE_ADC);
	struct dcp_packet r;
	uint8_t code;
	uint32_t v;
	uint64_t restarts;
	uint32_t state;

	memset(&r, 0, sizeof(r));
	TAP_EQ_I(dcp(e, DCP_KIND_NOP, 0, 0, 0, &r), 0, "dcp: NOP answered");
	TAP_EQ_U(r.kind, DCP_KIND_NOP_RESP, "dcp: with a NOP response");
	TAP_EQ_U(r.marker, DCP_NOP_MARKER, "dcp: marker 0x40");
	TAP_EQ_U(r.nop_id, FPGA_NOP_ID, "dcp: id");
	TAP_EQ_U(r.tag, 0x5A, "dcp: the tag is echoed");
	v = dcp_read(e, 0x0, &code);
	TAP_EQ_U(code, DCP_RESP_OK, "dcp: admin magic readable");
	TAP_EQ_U(v, 0x4F70656E, "dcp: magic1 is 'Open'");
	dcp_read(e, 0x100, &code);
	TAP_EQ_U(code, DCP_RESP_ERROR, "dcp: unknown admin address answers error");
	dcp_read(e, 0x2000, &code);
	TAP_EQ_U(code, DCP_RESP_ERROR, "dcp: unmapped address answers error");
	dcp_read(e, dcp_property_addr(9, 0), &code);
	TAP_EQ_U(code, DCP_RESP_ERROR, "dcp: property of a missing worker answers error");
	dcp_read(e, dcp_property_addr(1, 0x400), &code);
	TAP_EQ_U(code, DCP_RESP_ERROR, "dcp: unknown property offset answers error");
	TAP_EQ_U(dcp_write(e, 0x20, 0xCAFE, 0xF), DCP_RESP_OK, "dcp: admin scratch writable");
	TAP_EQ_U(dcp_write(e, 0x20, 0x1200, 0x2), DCP_RESP_OK, "dcp: byte-enable write");
	TAP_EQ_U(dcp_read(e, 0x20, &code), 0x12FE, "dcp: only byte 1 changed");

	e->adc.dropped_samples = 0x100000005ull;
	TAP_EQ_U(dcp_read(e, paddr("dropped_samples"), &code), 5, "dcp: u64 low word");
	e->adc.dropped_samples = 0x200000006ull;
	TAP_EQ_U(dcp_read(e, paddr("dropped_samples") + 4, &code), 1,
		 "dcp: u64 high word latched by the low-word read");
	TAP_EQ_U(dcp_write(e, paddr("num_dropped_samps"), 7, 0xF), DCP_RESP_ERROR,
		 "dcp: write to a read-only property answers error");
	TAP_EQ_U(e->adc.num_dropped_samps, 0, "dcp: and changes nothing");
	TAP_EQ_U(dcp_write(e, paddr("report_data_loss"), 0, 0xF), DCP_RESP_OK,
		 "dcp: report_data_loss writable");
	tap_ok(!e->adc.report_data_loss, "dcp: report_data_loss is now false");
	TAP_EQ_U(dcp_write(e, paddr("max_acks_outstanding"), 256, 0xF), DCP_RESP_ERROR,
		 "dcp: max_acks_outstanding 256 is out of range (8 bits)");
	TAP_EQ_U(dcp_write(e, paddr("tx_beats"), 9999, 0xF), DCP_RESP_ERROR,
		 "dcp: tx_beats beyond the buffer is refused");
	TAP_EQ_U(dcp_read(e, paddr("doorbell"), &code), 0, "dcp: a write-only property reads 0");

	/* control operations: the answer is OK, the word says success or error */
	v = dcp_read(e, dcp_control_addr(DGR_WORKER_ADC, DCP_CTL_START), &code);
	TAP_EQ_U(v, DGR_OCCP_ERROR, "control: start before initialize fails");
	v = dcp_read(e, dcp_control_addr(DGR_WORKER_ADC, DCP_CTL_INITIALIZE), &code);
	TAP_EQ_U(v, DGR_OCCP_SUCCESS, "control: initialize");
	TAP_EQ_U(dcp_write(e, paddr("rate_sps"), 2000000, 0xF), DCP_RESP_OK,
		 "control: rate_sps writable before start");
	TAP_EQ_U((uint64_t)e->cfg.rate, 2000000, "control: the rate follows");
	e->now_ns = 5000;
	v = dcp_read(e, dcp_control_addr(DGR_WORKER_ADC, DCP_CTL_START), &code);
	TAP_EQ_U(v, DGR_OCCP_SUCCESS, "control: start");
	TAP_EQ_U(e->adc_start_ns, 5000, "control: the ADC clock starts at start");
	TAP_EQ_U(dcp_read(e, dcp_control_addr(DGR_WORKER_ADC, DCP_CTL_STATUS), &code),
		 FPGA_WS_OPERATING, "control: status operating");
	TAP_EQ_U(dcp_write(e, paddr("rate_sps"), 3000000, 0xF), DCP_RESP_ERROR,
		 "control: rate_sps refused while operating");
	TAP_EQ_U(dcp_read(e, dcp_control_addr(DGR_WORKER_ADC, DCP_CTL_START), &code),
		 DGR_OCCP_ERROR, "control: a second start fails");
	TAP_EQ_U(dcp_write(e, dcp_control_addr(DGR_WORKER_ADC, DCP_CTL_STOP), 0, 0xF), DCP_RESP_OK,
		 "control: stop by a write");
	tap_ok(e->adc.stopped, "control: the ADC stopped");
	dcp_read(e, dcp_control_addr(DGR_WORKER_ADC, 0x30), &code);
	TAP_EQ_U(code, DCP_RESP_ERROR, "control: unknown control register answers error");
	/* reset of worker 0: a new host connection (the output port starts at host buffer 0) */
	e->prod.txns_committed = 5;
	e->prod.host_free = 1;
	e->prod.expect_doorbell = 3;
	restarts = e->cnt.peer_restarts;
	state = dcp_read(e, dcp_control_addr(DGR_WORKER_CONFIG, DCP_CTL_STATUS), &code);
	TAP_EQ_U(dcp_read(e, dcp_control_addr(DGR_WORKER_CONFIG, DCP_CTL_RESET), &code),
		 DGR_OCCP_SUCCESS, "control: reset of the dgrdma_config worker");
	tap_ok(e->prod.txns_committed == 0 && e->prod.host_free == e->prod.nhost &&
		   e->prod.expect_doorbell == 0,
	       "control: reset: every host buffer free, the next transaction into buffer 0");
	TAP_EQ_U(e->cnt.peer_restarts, restarts + 1, "control: reset counts a new host connection");
	TAP_EQ_U(dcp_read(e, dcp_control_addr(DGR_WORKER_CONFIG, DCP_CTL_STATUS), &code), state,
		 "control: the reset leaves the worker's state as it was");
	TAP_EQ_U(dcp_read(e, dcp_control_addr(DGR_WORKER_ADC, DCP_CTL_RESET), &code),
		 DGR_OCCP_ERROR, "control: no other worker has a reset");
	TAP_EQ_U(dcp_read(e, dcp_control_addr(DGR_WORKER_EMULATOR, DCP_CTL_RELEASE), &code),
		 DGR_OCCP_SUCCESS, "control: release of the emulator worker");
	TAP_EQ_U(e->exit_requested, 1, "control: asks the process to exit");

	/* a DCP doorbell frees a host buffer */
	fpga_producer_commit(&e->prod, S, 0, false, 0);
	{
		const struct fpga_slot *s;
		struct dgr_txn t;
		unsigned int hb;

		fpga_producer_peek(&e->prod, 1, &t, &s, &hb);
		fpga_producer_sent(&e->prod);
	}
	TAP_EQ_U(dcp_write(e, paddr("doorbell"), 0, 0xF), DCP_RESP_OK, "dcp doorbell: accepted");
	TAP_EQ_U(e->prod.doorbells, 1, "dcp doorbell: doorbells_received 1");
	TAP_EQ_U(e->cnt.doorbells_received_dcp, 1, "dcp doorbell: counted as DCP");
	TAP_EQ_U(fpga_producer_in_flight(&e->prod), 0, "dcp doorbell: the buffer is free");
	TAP_EQ_U(dcp_write(e, paddr("doorbell"), 999, 0xF), DCP_RESP_ERROR,
		 "dcp doorbell: an index beyond 255 answers error");
	{
		uint8_t junk[3] = { 0, 3, 0 }, out[32];

		TAP_EQ_I(fpga_dcp_handle(e, junk, 3, out, sizeof(out)), 0,
			 "dcp: a malformed packet gets no answer");
		TAP_EQ_U(e->cnt.dcp_malformed, 1, "dcp: and is counted");
	}
}

/* Decodes the tapped frames as a host would and reassembles them. */
struct host_view {
	unsigned int complete, bad, msgs, ack_frames;
	struct dgr_txn_info last;
	uint16_t first_seq, last_seq;
	uint8_t mem[H * S + 1024];
};

static void host_decode(struct host_view *hv)
{
	struct dgr_reasm *r = dgr_reasm_new(64, NULL);

	for (unsigned int i = 0; i < ntapped && i < MAXF; i++) {
		struct dgr_frame f;
		struct dgr_msg m;
		int rc;

		if (dgr_frame_parse(&f, tapped[i], tapped_len[i], NULL) < 0) {
			hv->bad++;
			continue;
		}
		if (i == 0) {
			hv->first_seq = f.hdr.frame_seq;
		}
		hv->last_seq = f.hdr.frame_seq;
		if (f.hdr.ack_count) {
			hv->ack_frames++;
		}
		while ((rc = dgr_frame_next_msg(&f, &m, NULL)) == 1) {
			struct dgr_txn_info done;

			hv->msgs++;
			if (dgr_msg_validate(&m, sizeof(hv->mem), true, NULL) < 0) {
				hv->bad++;
				continue;
			}
			memcpy(hv->mem + m.data_addr, m.data, m.data_len);
			if (dgr_reasm_add(r, &m, 0, i, &done) == DGR_REASM_COMPLETE) {
				hv->complete++;
				hv->last = done;
			}
		}
		if (rc < 0) {
			hv->bad++;
		}
	}
	dgr_reasm_free(r);
}

static struct host_view hv;

static void test_txpath(void)
{
	struct fpga_emu *e = setup(FPGA_MODE_ADC);
	unsigned int ramp_bad = 0;

	ntapped = 0;
	e->tx_tap = tap_frame;
	fpga_adc_produce(&e->adc, &e->prod, S / 4, true);
	TAP_EQ_U(fpga_tx_producer(e), 1, "tx: one buffer sent");
	fpga_tx_service(e, false);
	TAP_EQ_U(ntapped, 2, "tx: 16 KiB in two frames of at most 8970 bytes");
	memset(&hv, 0, sizeof(hv));
	host_decode(&hv);
	TAP_EQ_U(hv.bad, 0, "tx: the frames decode and validate");
	TAP_EQ_U(hv.complete, 1, "tx: the transaction reassembles");
	TAP_EQ_U(hv.last.flag_addr, H * S, "tx: flag of host buffer 0 at H*S");
	TAP_EQ_U(hv.last.bytes, S, "tx: 16384 bytes");
	TAP_EQ_U(hv.first_seq, 1, "tx: frame_seq starts at 1");
	TAP_EQ_U(hv.last_seq, 2, "tx: and counts up");
	TAP_EQ_U(dgr_get_le16(tapped[0] + DGR_FRAME_OFF_SRC_ID), 1,
		 "tx: src_id (offset 2) is local_src_id (--id)");
	TAP_EQ_U(DGR_FRAME_OFF_SRC_ID, 2, "tx: src_id is the word at offset 2, as the HDL's");
	for (uint32_t k = 0; k < S / 4; k++) {
		if (dgr_get_le32(hv.mem + 4 * k) != k) {
			ramp_bad++;
		}
	}
	TAP_EQ_U(ramp_bad, 0, "tx: the host buffer holds the ramp 0..4095");
	TAP_EQ_U(e->cnt.transactions_sent, 1, "tx: transactions_sent 1");
	TAP_EQ_U(e->cnt.samples_sent, S / 4, "tx: samples_sent 4096");
	TAP_EQ_U(e->cnt.frames_tx, 2, "tx: frames_tx 2");
	TAP_EQ_U(e->ack.tx_acks_sent, 2, "tx: tx_acks_sent 2 (every frame carries the run)");

	/* fault injection: every data frame dropped, then every one corrupted */
	e->cfg.drop_frames = 1.0;
	ntapped = 0;
	fpga_producer_doorbell(&e->prod, 0);
	fpga_adc_produce(&e->adc, &e->prod, S / 4, true);
	fpga_tx_producer(e);
	fpga_tx_service(e, false);
	TAP_EQ_U(ntapped, 0, "drop-frames 1: nothing reaches the wire");
	TAP_EQ_U(e->cnt.frames_dropped_injected, 2, "drop-frames 1: 2 frames counted");
	e->cfg.drop_frames = 0;
	e->cfg.corrupt = 1.0;
	fpga_adc_produce(&e->adc, &e->prod, S / 4, true);
	fpga_tx_producer(e);
	fpga_tx_service(e, false);
	memset(&hv, 0, sizeof(hv));
	host_decode(&hv);
	TAP_EQ_U(ntapped, 2, "corrupt 1: the frames are sent");
	TAP_EQ_U(hv.bad, 2, "corrupt 1: and each is malformed for the host");
	TAP_EQ_U(e->cnt.frames_corrupted_injected, 2, "corrupt 1: counted");
	TAP_EQ_U(dgr_get_le16(tapped[0] + DGR_FRAME_OFF_SEQ), 5,
		 "drop-frames: the dropped frames spent frame_seq 3 and 4");
}

/* Builds a host frame with one transaction into the emulator's memory. */
static size_t host_frame(uint8_t *buf, uint16_t seq, uint32_t data_addr, uint32_t flag_addr,
			 uint32_t flag_value, const uint8_t *data, uint32_t len)
{
	struct dgr_frame_hdr hdr = { .src_id = 0, .dst_id = 1, .frame_seq = seq };
	struct dgr_txn t = { .txn_id = seq,
			     .data_addr = data_addr,
			     .flag_addr = flag_addr,
			     .flag_value = flag_value,
			     .data = data,
			     .len = len };
	struct dgr_frame_builder fb;
	struct dgr_txn_cursor c;

	dgr_fb_init(&fb, buf, 9000, &hdr);
	dgr_txn_plan(&c, &t, &fb);
	dgr_fb_add_txn(&fb, &c);
	return dgr_fb_finish(&fb);
}

static void rx(struct fpga_emu *e, const uint8_t *buf, size_t len)
{
	struct dgr_rx_pkt p = { .data = buf, .len = len, .proto = DGR_PROTO_DGRDMA };

	fpga_rx_packet(e, &p);
}

static void test_rxpath(void)
{
	struct fpga_emu *e = setup(FPGA_MODE_ADC);
	static uint8_t buf[9000], data[4096];
	size_t n;

	ntapped = 0;
	e->tx_tap = tap_frame;
	fpga_producer_commit(&e->prod, S, 0, false, 0);
	fpga_tx_producer(e);
	n = host_frame(buf, 1, 0, E * S + 0, DGR_DOORBELL_VALUE, NULL, 0);
	rx(e, buf, n);
	TAP_EQ_U(e->prod.doorbells, 1, "rx: a flag-only write to E*S is a doorbell");
	TAP_EQ_U(e->cnt.frames_rx, 1, "rx: frames_rx 1");
	TAP_EQ_U(e->ack.accepted_by_peek, 1, "rx: accepted_by_peek 1");
	rx(e, buf, n);
	TAP_EQ_U(e->ack.reject_already_set, 1, "rx: the same frame again: reject_already_set");
	TAP_EQ_U(e->prod.doorbells, 1, "rx: and no second doorbell");
	TAP_EQ_U(e->cnt.frame_parser_reject, 1,
		 "rx: a rejected frame counts in frame_parser_reject (RX_ERROR_WAIT_TLAST)");
	n = host_frame(buf, 2, 0, E * S + 4 * 300, DGR_DOORBELL_VALUE, NULL, 0);
	rx(e, buf, n);
	TAP_EQ_U(e->cnt.doorbells_rejected, 1, "rx: a flag beyond the flag area is refused");
	e->kind = DGR_TRANSPORT_UDP; /* no padding: the stream ends in the header */
	rx(e, buf, 7);
	e->kind = DGR_TRANSPORT_NONE;
	TAP_EQ_U(e->cnt.frames_truncated, 1, "rx: a 7-byte frame over UDP: frames_truncated");
	TAP_EQ_U(e->cnt.frame_parser_reject, 1, "rx: ignored as the HDL does, not a reject");
	n = host_frame(buf, 3, 0, E * S + 4, DGR_DOORBELL_VALUE, NULL, 0);
	dgr_put_le16(buf + DGR_FRAME_HDR_LEN + DGR_MSG_OFF_DATA_LEN, 500);
	rx(e, buf, n);
	TAP_EQ_U(e->cnt.frame_parser_reject, 2, "rx: a message past the end: frame_parser_reject");
	n = host_frame(buf, 4, DGR_PORT_BASE_TX, DGR_PORT_BASE_TX + E * S, 1, data, 64);
	rx(e, buf, n);
	TAP_EQ_U(e->cnt.messages_rejected, 2, "rx: data for the ADC (no input port) is refused");
	/*
	 * the piggy-backed ACK: frames 1, 2 and 4 were processed whole; frame 3's bad
	 * message made the parser abandon it (never enqueued): a hole the window keeps
	 */
	fpga_producer_commit(&e->prod, S, 0, false, 0);
	fpga_tx_producer(e);
	fpga_tx_service(e, false);
	memset(&hv, 0, sizeof(hv));
	host_decode(&hv);
	TAP_EQ_U(hv.ack_frames, 1, "rx: the next data frame carries the ACK");
	TAP_EQ_U(e->ack.ack_tracker_total_acks_sent, 2, "rx: acknowledging 1..2 only");
	TAP_EQ_U(e->ack.base_seqno, 3, "rx: base_seqno waits at the abandoned frame 3");
	TAP_EQ_U(e->ack.pkts_enqueued, 3, "rx: pkts_enqueued 3 (1, 2, 4)");

	/* the DAC's input port */
	e = setup(FPGA_MODE_DAC);
	for (uint32_t i = 0; i < 1024; i++) {
		dgr_put_le32(data + 4 * i, i);
	}
	n = host_frame(buf, 1, DGR_PORT_BASE_TX + S, DGR_PORT_BASE_TX + E * S + 4,
		       dgr_flag_encode(4096, false, false, 0), data, 4096);
	rx(e, buf, n);
	TAP_EQ_U(e->cnt.transactions_rx, 1, "dac rx: a transaction into buffer 1 completes");
	tap_ok(e->cons.full[1] && e->cons.slot[1].bytes == 4096, "dac rx: buffer 1 full, 4096 B");
	TAP_EQ_U(dgr_get_le32(e->cons.mem + S + 4 * 1000), 1000, "dac rx: its data is in place");
	n = host_frame(buf, 2, DGR_PORT_BASE_TX + E * 65536 - 32, DGR_PORT_BASE_TX + E * S, 1, data,
		       64);
	rx(e, buf, n);
	TAP_EQ_U(e->cnt.messages_rejected, 1, "dac rx: data beyond the input memory refused");
	n = host_frame(buf, 3, 0, E * S, DGR_DOORBELL_VALUE, NULL, 0);
	rx(e, buf, n);
	TAP_EQ_U(e->cnt.doorbells_rejected, 1, "dac rx: the DAC takes no RX-path doorbell");
	n = host_frame(buf, 4, DGR_PORT_BASE_TX + 2 * S, DGR_PORT_BASE_TX + E * S + 4 * 9, 1, data,
		       64);
	rx(e, buf, n);
	TAP_EQ_U(e->cons.bad_flag_index, 1, "dac rx: a flag for buffer 9 of 4 is refused");

	/* a new connection with 2 KiB buffers (dgrdma-host perf's sweep), once frames were acked */
	e->now_ns += 200000;
	fpga_tx_service(e, false);
	TAP_EQ_U(e->ack.base_seqno, 5, "restart: frames 1..4 acknowledged");
	/* frame 1 sent again byte for byte (its ACK came late): a retransmission, not a restart */
	n = host_frame(buf, 1, DGR_PORT_BASE_TX + S, DGR_PORT_BASE_TX + E * S + 4,
		       dgr_flag_encode(4096, false, false, 0), data, 4096);
	rx(e, buf, n);
	TAP_EQ_U(e->cnt.peer_restarts, 0, "retransmitted frame 1: no new connection");
	TAP_EQ_U(e->cnt.frame1_repeats, 1, "retransmitted frame 1: counted in frame1_repeats");
	tap_ok(e->cons.full[1] && e->ack.base_seqno == 5,
	       "retransmitted frame 1: buffer 1 still full, the window where it was");
	n = host_frame(buf, 1, DGR_PORT_BASE_TX, DGR_PORT_BASE_TX + E * 2048,
		       dgr_flag_encode(2048, false, false, 0), data, 2048);
	rx(e, buf, n);
	TAP_EQ_U(e->cnt.peer_restarts, 1, "restart: frame_seq 1 again is a new connection");
	TAP_EQ_U(e->cons.size, 2048, "restart: the 2 KiB layout is learned from buffer 0's flag");
	tap_ok(e->cons.full[0] && !e->cons.full[1],
	       "restart: buffer 0 full, the old buffer 1 gone");
	n = host_frame(buf, 2, DGR_PORT_BASE_TX + 2048, DGR_PORT_BASE_TX + E * 2048 + 4,
		       dgr_flag_encode(2048, false, false, 0), data, 2048);
	rx(e, buf, n);
	tap_ok(e->cons.full[1], "restart: buffer 1 of the new layout fills");
	TAP_EQ_U(e->cons.size_changes, 1, "restart: one layout change");
	n = host_frame(buf, 3, DGR_PORT_BASE_TX, DGR_PORT_BASE_TX + E * 4096,
		       dgr_flag_encode(4096, false, false, 0), data, 4096);
	rx(e, buf, n);
	TAP_EQ_U(e->cons.size, 2048, "restart: no relearning while buffers are full");

	/* the same frame 1 as this connection's, but over a second later: a new connection */
	e->now_ns += 200000;
	fpga_tx_service(e, false);
	e->now_ns += FPGA_FRAME1_REPEAT_NS;
	n = host_frame(buf, 1, DGR_PORT_BASE_TX, DGR_PORT_BASE_TX + E * 2048,
		       dgr_flag_encode(2048, false, false, 0), data, 2048);
	rx(e, buf, n);
	TAP_EQ_U(e->cnt.peer_restarts, 2, "frame 1 repeated after 1 s: a new connection");
	TAP_EQ_U(e->cnt.frame1_repeats, 1, "frame 1 repeated after 1 s: not counted as a repeat");
}

static void test_coalesce(void)
{
	struct fpga_emu *e = setup(FPGA_MODE_DAC);

	ntapped = 0;
	e->tx_tap = tap_frame;
	e->cfg.coalesce_us = 100;
	fpga_tx_queue_doorbell(e, 0);
	fpga_tx_queue_doorbell(e, 1);
	fpga_tx_doorbells(e);
	fpga_tx_service(e, false);
	TAP_EQ_U(ntapped, 0, "coalesce: two doorbells held in a partly filled frame");
	TAP_EQ_U(fpga_tx_next_deadline(e), 100000, "coalesce: due after coalesce_wait_d");
	e->now_ns = 99999;
	fpga_tx_service(e, false);
	TAP_EQ_U(ntapped, 0, "coalesce: still held 1 ns before");
	e->now_ns = 100000;
	fpga_tx_service(e, false);
	TAP_EQ_U(ntapped, 1, "coalesce: one frame when the wait expires");
	memset(&hv, 0, sizeof(hv));
	host_decode(&hv);
	TAP_EQ_U(hv.msgs, 2, "coalesce: carrying both doorbells");
	TAP_EQ_U(e->cnt.doorbells_sent, 2, "coalesce: doorbells_sent 2");
	/* doorbell delay */
	e->cfg.coalesce_us = 0;
	e->cfg.doorbell_delay_us = 50;
	fpga_tx_queue_doorbell(e, 2);
	fpga_tx_doorbells(e);
	TAP_EQ_U(e->cnt.doorbells_sent, 2, "doorbell-delay: not sent at once");
	e->now_ns += 50000;
	fpga_tx_doorbells(e);
	fpga_tx_service(e, false);
	TAP_EQ_U(e->cnt.doorbells_sent, 3, "doorbell-delay: sent 50 us later");
	TAP_EQ_U(dgr_get_le32(tapped[1] + DGR_FRAME_HDR_LEN + DGR_MSG_OFF_FLAG_ADDR),
		 DGR_PORT_BASE_TX + H * S + 8, "doorbell: to the host's flag for buffer 2");
}

static void test_print(void)
{
	struct fpga_emu *e = setup(FPGA_MODE_ADC);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	e->adc.next_sample = 123456789012ull;
	fpga_print_props(e, f, true);
	fclose(f);
	tap_ok(strstr(text, "\"samples_produced\": 123456789012") != NULL,
	       "print: JSON carries 64-bit values");
	tap_ok(strstr(text, "\"report_data_loss\": true") != NULL, "print: booleans as JSON");
	tap_ok(strstr(text, "\"doorbell\"") == NULL, "print: write-only properties left out");
	free(text);
}

static void release_db(void *ctx, unsigned int buffer)
{
	fpga_tx_queue_doorbell(ctx, buffer);
}

/*
 * Hostile input: 30000 frames made from valid ones with random bytes changed
 * and random lengths, and random DCP packets, in each mode. Nothing may crash
 * (the sanitizer build checks memory), every frame is counted exactly once,
 * and the state stays within its bounds.
 */
static void test_hostile(void)
{
	static uint8_t base[9000], buf[9000], data[8192];
	uint64_t x = 0x1234567;
	unsigned int bad_state = 0, miscounted = 0;

	for (int mode = 0; mode < 3; mode++) {
		struct fpga_emu *e = setup((enum fpga_mode)mode);

		ntapped = 0;
		e->tx_tap = tap_frame;
		for (unsigned int w = 0; w < DGR_WORKER_COUNT; w++) {
			e->wstate[w] = FPGA_WS_OPERATING;
		}
		for (int i = 0; i < 10000; i++) {
			size_t n, len;
			uint64_t before;
			struct dgr_rx_pkt p = { .data = buf, .proto = DGR_PROTO_DGRDMA };

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			n = host_frame(
			    base, (uint16_t)(i + 1),
			    (x & 1) ? DGR_PORT_BASE_TX + (uint32_t)(x >> 8) % 4 * S : 0,
			    (x & 1) ? DGR_PORT_BASE_TX + E * S + 4 * (uint32_t)((x >> 4) % 4)
				    : E * S + 4 * (uint32_t)((x >> 4) % 8),
			    (x & 1) ? dgr_flag_encode(4096, false, false, 0) : DGR_DOORBELL_VALUE,
			    (x & 1) ? data : NULL, (x & 1) ? (uint32_t)(x >> 16) % 4096 : 0);
			memcpy(buf, base, n);
			for (int k = 0; k < (int)(x >> 40) % 4; k++) {
				buf[(x >> (8 * k)) % n] ^= (uint8_t)(x >> 32);
			}
			len = (x >> 20) % 8 == 0 ? (x >> 24) % (n + 8) : n;
			p.len = len;
			before = e->cnt.frames_rx;
			if ((x >> 50) % 16 == 0) {
				uint8_t out[32];

				fpga_dcp_handle(e, buf, len % 20, out, sizeof(out));
			} else {
				struct dgr_frame f;
				uint64_t rej = e->cnt.frame_parser_reject;
				bool hdr_bad = len >= DGR_FRAME_HDR_LEN &&
					       dgr_frame_parse(&f, buf, len, NULL) < 0;

				fpga_rx_packet(e, &p);
				if (e->cnt.frames_rx != before + 1 ||
				    (hdr_bad && e->cnt.frame_parser_reject != rej + 1)) {
					miscounted++;
				}
			}
			e->now_ns += 10000;
			fpga_dac_consume(&e->dac, &e->cons, 2000, release_db, e);
			fpga_perftest_rx(&e->pt, &e->cons, release_db, e);
			fpga_adc_produce(&e->adc, &e->prod, 1000, true);
			fpga_tx_producer(e);
			fpga_tx_doorbells(e);
			fpga_tx_service(e, false);
			if (e->cons.size < 64 || e->cons.size > FPGA_MAX_BUFFER_SIZE ||
			    e->cons.cons_idx >= e->cons.nlocal ||
			    e->prod.host_free > e->prod.nhost ||
			    e->prod.complete > e->prod.nlocal) {
				bad_state++;
			}
		}
	}
	TAP_EQ_U(miscounted, 0,
		 "hostile: frames_rx counts every frame once, one whose header is bad as a reject");
	TAP_EQ_U(bad_state, 0, "hostile: port state stays within bounds");
	tap_ok(emu.cnt.frame_parser_reject > 0 &&
		   emu.cnt.messages_rejected + emu.txns.txn_id_out_of_range > 0,
	       "hostile: malformed frames and messages were met (%llu, %llu)",
	       (unsigned long long)emu.cnt.frame_parser_reject,
	       (unsigned long long)(emu.cnt.messages_rejected + emu.txns.txn_id_out_of_range));
}

/*
 * Each received packet is an instant of its own for the ADC (fpga_adc_packet_instant): the
 * vicious cycle does not depend on how the emulator batches its reads. The port is full
 * (8 host + 4 local buffers) and the ADC drops, at 1 MS/s on the virtual clock.
 */
static struct fpga_emu *full_and_dropping(bool rdl)
{
	struct fpga_emu *e = setup(FPGA_MODE_ADC);
	uint64_t n = (H + E) * (S / 4) + 100;

	ntapped = 0;
	e->tx_tap = tap_frame;
	e->cfg.virtual_clock = true;
	e->cfg.report_data_loss = rdl;
	e->adc.report_data_loss = rdl;
	e->wstate[DGR_WORKER_ADC] = FPGA_WS_OPERATING;
	e->adc_start_ns = 0;
	for (uint64_t k = 0; k < n; k += 64) {
		fpga_adc_produce(&e->adc, &e->prod, n - k < 64 ? n - k : 64, true);
		fpga_tx_producer(e);
	}
	e->now_ns = n * 1000; /* the clock at the next sample: nothing more is due */
	return e;
}

/* one frame with the doorbells of host buffers 0 and 1, transactions first_txn and next */
static size_t two_doorbells_frame(uint8_t *buf, uint16_t seq, uint32_t first_txn)
{
	struct dgr_frame_hdr hdr = { .src_id = 0, .dst_id = 1, .frame_seq = seq };
	struct dgr_frame_builder fb;

	dgr_fb_init(&fb, buf, 9000, &hdr);
	for (uint32_t i = 0; i < 2; i++) {
		struct dgr_txn t = { .txn_id = first_txn + i,
				     .flag_addr = E * S + 4 * i,
				     .flag_value = DGR_DOORBELL_VALUE };
		struct dgr_txn_cursor c;

		dgr_txn_plan(&c, &t, &fb);
		dgr_fb_add_txn(&fb, &c);
	}
	return dgr_fb_finish(&fb);
}

/*
 * The HDL's transaction record: a host whose transaction ids do not rise by
 * one from 1 (here from 10) gets no flag written: its doorbells wait for
 * transactions 1..9 for ever, and the ADC never gets its buffers back.
 */
static void test_txn_order(void)
{
	static uint8_t buf[9000];
	struct fpga_emu *e = full_and_dropping(true);
	size_t n = two_doorbells_frame(buf, 1, 10);

	rx(e, buf, n);
	TAP_EQ_U(e->prod.doorbells, 0, "txn order: txn_id 10 first: no doorbell takes effect");
	TAP_EQ_U(e->txns.nused, 2, "txn order: both wait in the record");
	TAP_EQ_U(e->txns.next_flag_txn_id, 1, "txn order: the record waits for txn_id 1");
	n = two_doorbells_frame(buf, 2, 100);
	rx(e, buf, n);
	TAP_EQ_U(e->txns.txn_id_out_of_range, 2,
		 "txn order: 64 or more ahead of the next flag: dropped and counted");
	tap_ok(e->adc.dropping, "txn order: the ADC keeps dropping");
}

static void test_packet_instant(void)
{
	static uint8_t buf[9000];
	struct fpga_emu *e;
	size_t n;

	e = full_and_dropping(true);
	tap_ok(e->adc.dropping && e->adc.drop_start == (H + E) * (S / 4),
	       "instant: the full port drops from sample (8 + 4) x 4096 on");
	n = host_frame(buf, 1, 0, E * S + 0, DGR_DOORBELL_VALUE, NULL, 0);
	rx(e, buf, n);
	n = host_frame(buf, 2, 0, E * S + 4, DGR_DOORBELL_VALUE, NULL, 0);
	rx(e, buf, n); /* read in the same batch as the first: no loop step between them */
	TAP_EQ_U(e->adc.discontinuities, 2,
		 "instant: rdl true, two frames read together: two discontinuities");
	TAP_EQ_U(e->prod.complete, E,
		 "instant: each took a freed buffer: the 4 local buffers are full again");
	tap_ok(e->adc.dropping, "instant: and the ADC drops again (the cycle goes on)");
	TAP_EQ_U(e->adc.num_dropped_samps, 2, "instant: two drop periods closed");
	TAP_EQ_U(e->adc.dropped_samples, 100 + 1,
		 "instant: 100 samples, then the one at the 2nd frame");
	TAP_EQ_U(e->adc.next_sample, (H + E) * (S / 4) + 102,
		 "instant: each frame took one sample of the ADC");

	e = full_and_dropping(true);
	n = two_doorbells_frame(buf, 1, 1);
	rx(e, buf, n);
	TAP_EQ_U(e->prod.doorbells, 2, "instant: one frame with two doorbells");
	TAP_EQ_U(e->adc.discontinuities, 1,
		 "instant: frees two buffers at one instant: one discontinuity");
	tap_ok(!e->adc.dropping && e->prod.filling,
	       "instant: the other buffer takes samples: the cycle breaks");

	e = full_and_dropping(false);
	n = host_frame(buf, 1, 0, E * S + 0, DGR_DOORBELL_VALUE, NULL, 0);
	rx(e, buf, n);
	n = host_frame(buf, 2, 0, E * S + 4, DGR_DOORBELL_VALUE, NULL, 0);
	rx(e, buf, n);
	TAP_EQ_U(e->adc.discontinuities, 0, "instant: rdl false: no discontinuity");
	TAP_EQ_U(e->adc.num_dropped_samps, 1, "instant: rdl false: one drop period, closed");
	tap_ok(!e->adc.dropping && e->prod.filling, "instant: rdl false: samples flow again");
}

static void test_packets_can_wait(void)
{
	struct fpga_emu *e = setup(FPGA_MODE_ADC);
	uint64_t now = 1000000000ull;

	e->wstate[DGR_WORKER_ADC] = FPGA_WS_OPERATING;
	e->now_ns = now;
	tap_ok(fpga_packets_can_wait(e, now + 500000),
	       "wait: streaming with credits, buffer due in 0.5 ms: packets can wait");
	tap_ok(fpga_packets_can_wait(e, now + 1000000), "wait: 1 ms away: can wait");
	tap_ok(!fpga_packets_can_wait(e, now + 1000001),
	       "wait: more than 1 ms away: wake for packets (DCP, ACKs)");
	tap_ok(!fpga_packets_can_wait(e, now), "wait: nothing to sleep for at the deadline");
	e->prod.host_free = 0;
	tap_ok(!fpga_packets_can_wait(e, now + 500000),
	       "wait: no credit for the next buffer: a doorbell must be read at once");
	e->prod.host_free = H;
	e->prod.complete = 1;
	tap_ok(!fpga_packets_can_wait(e, now + 500000),
	       "wait: a complete buffer waits for a credit: wake for doorbells");
	e->prod.complete = 0;
	e->stopping = true;
	tap_ok(!fpga_packets_can_wait(e, now + 500000), "wait: not while stopping");
	e->stopping = false;
	e->wstate[DGR_WORKER_ADC] = FPGA_WS_SUSPENDED;
	tap_ok(!fpga_packets_can_wait(e, now + 500000), "wait: not when the ADC is not operating");

	e = full_and_dropping(true);
	tap_ok(!fpga_packets_can_wait(e, e->now_ns + 500000),
	       "wait: not while dropping (each packet is an instant of its own)");

	e = setup(FPGA_MODE_DAC);
	e->wstate[DGR_WORKER_DAC] = FPGA_WS_OPERATING;
	e->now_ns = now;
	tap_ok(!fpga_packets_can_wait(e, now + 500000),
	       "wait: never in DAC mode (packets are data)");
}

/* A doorbell for buffer txn % 4 in frame seq, as transaction txn. Returns the frame's length. */
static size_t doorbell_frame(uint8_t *buf, uint16_t seq, uint32_t txn)
{
	struct dgr_frame_hdr hdr = { .src_id = 0, .dst_id = 1, .frame_seq = seq };
	struct dgr_txn t = { .txn_id = txn,
			     .flag_addr = E * S + 4 * (txn % 4),
			     .flag_value = DGR_DOORBELL_VALUE };
	struct dgr_frame_builder fb;
	struct dgr_txn_cursor c;

	dgr_fb_init(&fb, buf, 9000, &hdr);
	dgr_txn_plan(&c, &t, &fb);
	dgr_fb_add_txn(&fb, &c);
	return dgr_fb_finish(&fb);
}

/*
 * The old host's pattern through the 16-bit wrap over raw Ethernet: frames
 * 65484..31, every one with seq % 4 == 2 a 10-byte ACK-only frame (padded to
 * 46 bytes by the wire), the others one doorbell each, transactions 1, 2, ...
 * The FPGA sends an ACK after every 8th frame (max_acks_outstanding 8). As the
 * HDL's parser does, an accepted ACK-only frame's padding is read as a frame 0.
 * From base_seqno 65484 (the state after 65483 frames acknowledged):
 *  - ACK-only 65486..65506: the padding's frame 0 is 36..50 past base_seqno,
 *    out of the window: 6 rejects, the first freezing rej_seqno 0;
 *  - ACK-only 65510 (base_seqno 65508): its frame 0 is 28 past, accepted and
 *    marked; the next padding header finds it set (reject_already_set);
 *  - ACK-only 65514..65534: their frame 0 is already set, 6 more;
 *  - the host's frame 0 (base_seqno 65532) is a duplicate: dropped, and its
 *    transaction never reaches the record: no flag is written after it;
 *  - ACK-only 2 (base_seqno still 65532) finds frame 0 set, ACK-only 6..30
 *    find it out of the window again (7).
 */
static void test_padding_trap(void)
{
	struct fpga_emu *e = setup(FPGA_MODE_ADC);
	static uint8_t buf[9000];
	uint64_t oor_before_frame0 = 0, set_before_frame0 = 0, dup_frame0 = 0;
	uint32_t txn = 1, frame0_txn = 0, flag_at_frame0 = 0;
	char diag[1024];
	unsigned int i = 0;
	uint16_t seq = 65484;

	e->kind = DGR_TRANSPORT_ETHER;
	e->ack.base_seqno = 65484;
	for (;; seq++, i++) {
		size_t n;

		if (seq % 4 == 2) {
			struct dgr_frame_hdr hdr = { .dst_id = 1, .frame_seq = seq };

			dgr_frame_hdr_write(buf, &hdr);
			n = DGR_FRAME_HDR_LEN;
		} else {
			n = doorbell_frame(buf, seq, txn);
			if (seq == 0) {
				frame0_txn = txn;
				flag_at_frame0 = e->txns.next_flag_txn_id;
				oor_before_frame0 = e->ack.reject_out_of_range;
				set_before_frame0 = e->ack.reject_already_set;
			}
			txn++;
		}
		rx(e, buf, n);
		if (seq == 0) {
			dup_frame0 = e->ack.reject_already_set - set_before_frame0;
		}
		if (i % 8 == 7) {
			uint16_t st;
			uint8_t cnt;

			fpga_acktrack_take(&e->ack, &st, &cnt, e->now_ns);
		}
		if (seq == 31) {
			break;
		}
	}
	TAP_EQ_U(oor_before_frame0, 6, "padding: 6 ACK-only frames' frame 0 out of the window");
	TAP_EQ_U(e->ack.rej_ack, 1, "padding: the first froze the debug registers (rej_ack 1)");
	TAP_EQ_U(e->ack.rej_seqno, 0, "padding: at rej_seqno 0");
	TAP_EQ_U(e->ack.dbg_base_seqno, 65484, "padding: with base_seqno 65484");
	TAP_EQ_U(e->cnt.padding_frames_accepted, 1,
		 "padding: ACK-only 65510's frame 0 accepted (base_seqno 65508)");
	TAP_EQ_U(e->pad.base, 65508, "padding: marked at base_seqno 65508");
	TAP_EQ_U(set_before_frame0, 7, "padding: 7 more padding frame 0s found it already set");
	TAP_EQ_U(dup_frame0, 1, "padding: the host's frame 0 is dropped as a duplicate");
	TAP_EQ_U(e->cnt.frames_lost_to_padding, 1, "padding: frames_lost_to_padding 1");
	TAP_EQ_U(e->pad.lost_txn, frame0_txn, "padding: the lost frame carried its transaction");
	TAP_EQ_U(flag_at_frame0, frame0_txn, "padding: every flag before it was written");
	TAP_EQ_U(e->txns.next_flag_txn_id, frame0_txn,
		 "padding: no flag after it is written (the record waits for it)");
	TAP_EQ_U(e->txns.nused, txn - 1 - frame0_txn, "padding: every later doorbell is held");
	TAP_EQ_U(e->ack.reject_out_of_range - oor_before_frame0, 7,
		 "padding: after the wrap, ACK-only 6..30's frame 0 is out of the window again");
	TAP_EQ_U(e->ack.reject_already_set - set_before_frame0, 2,
		 "padding: the host's frame 0 and ACK-only 2's frame 0 found it set");
	TAP_EQ_U(e->cnt.frame_parser_reject, e->ack.reject_out_of_range + e->ack.reject_already_set,
		 "padding: frame_parser_reject counts every rejected header");
	TAP_EQ_U(e->cnt.padding_frames_rx, 21 + 1,
		 "padding: 21 ACK-only frames, one read on twice");
	tap_ok(fpga_rx_diagnosis(e, diag, sizeof(diag)) && strstr(diag, "frame 0 was dropped") &&
		   strstr(diag, "padding of an ACK-only frame"),
	       "padding: the diagnosis names the cause: %s", diag);

	/* over UDP no padding reaches the parser: a 10-byte ACK-only frame ends in its header */
	e = setup(FPGA_MODE_ADC);
	e->kind = DGR_TRANSPORT_UDP;
	for (seq = 1; seq <= 40; seq++) {
		size_t n;

		if (seq == 2) {
			struct dgr_frame_hdr hdr = { .dst_id = 1, .frame_seq = seq };

			dgr_frame_hdr_write(buf, &hdr);
			n = DGR_FRAME_HDR_LEN;
		} else {
			n = doorbell_frame(buf, seq, seq > 2 ? seq - 1u : seq);
		}
		rx(e, buf, n);
	}
	TAP_EQ_U(e->cnt.frames_truncated, 1, "udp: the ACK-only frame 2 is ignored as truncated");
	TAP_EQ_U(e->cnt.padding_frames_rx, 0, "udp: no padding is read");
	TAP_EQ_U(e->ack.pkts_enqueued, 31, "udp: frames 1, 3..32 enqueued, 2 a hole");
	TAP_EQ_U(e->ack.reject_out_of_range, 8, "udp: frames 33..40 out of the window");
	TAP_EQ_U(fpga_acktrack_pending(&e->ack), 1, "udp: no ACK gets past the hole");
	tap_ok(fpga_rx_diagnosis(e, diag, sizeof(diag)) && strstr(diag, "truncated"),
	       "udp: the diagnosis names the cause: %s", diag);
}

/* An ADC streaming at 1 MS/s on the real clock (driven by hand): sample k due at k us. */
static struct fpga_emu *adc_streaming(void)
{
	struct fpga_emu *e = setup(FPGA_MODE_ADC);

	ntapped = 0;
	e->tx_tap = tap_frame;
	e->wstate[DGR_WORKER_ADC] = FPGA_WS_OPERATING;
	e->adc_start_ns = 0;
	e->now_ns = 1000000; /* 1 ms: 1000 samples due */
	fpga_worker_step(e, DGR_WORKER_ADC);
	return e;
}

/*
 * The clock freeze (docs/fpga.md section 6): an emulator that did not run for
 * 1 s catches up what its E = 4 local buffers hold (16384 samples, 16.384 ms
 * at 1 MS/s) and its ADC clock is frozen for the rest, instead of dropping what
 * the FPGA would have sent; a host that holds its buffers still causes drops,
 * and no freeze.
 */
static void test_clock_freeze(void)
{
	const uint64_t absorb = E * (S / 4) * 1000ull; /* ns the local buffers hold */
	struct fpga_emu *e = adc_streaming();

	TAP_EQ_U(e->adc.next_sample, 1000, "freeze: 1 ms at 1 MS/s: 1000 samples");
	e->now_ns += 1000000000ull; /* not running for 1 s */
	fpga_worker_step(e, DGR_WORKER_ADC);
	TAP_EQ_U(e->freeze.count, 1, "freeze: a 1 s late wake-up freezes the ADC clock once");
	TAP_EQ_U(e->freeze.total_ns, 1000000000ull - absorb,
		 "freeze: frozen for the lateness beyond what the 4 local buffers hold");
	TAP_EQ_U(e->freeze.max_ns, e->freeze.total_ns, "freeze: the longest is that one");
	TAP_EQ_U(e->adc.next_sample, 1000 + E * (S / 4),
		 "freeze: the ADC caught up 4 buffers of samples, no more");
	TAP_EQ_U(e->adc.dropped_samples + fpga_adc_open_drop(&e->adc), 0,
		 "freeze: nothing dropped");
	TAP_EQ_U(e->adc_start_ns, e->adc.start_ns,
		 "freeze: the drop timestamps' clock moved with the ADC's");
	TAP_EQ_U(e->pace.elapsed_ns, 1000000ull + absorb,
		 "freeze: elapsed_ns is the ADC's clock: the frozen second left out");
	tap_ok(e->pace.late_max_ns <= absorb,
	       "freeze: the frozen time is not pacing lateness (only what was caught up)");

	/* the boundary: lateness of exactly absorb + margin is no freeze, 1 ns more is */
	e = adc_streaming();
	e->now_ns = 1000000ull + absorb + FPGA_FREEZE_MARGIN_NS;
	fpga_worker_step(e, DGR_WORKER_ADC);
	TAP_EQ_U(e->freeze.count, 0, "freeze: late by the local buffers' time + 4 ms: no freeze");
	e = adc_streaming();
	e->now_ns = 1000000ull + absorb + FPGA_FREEZE_MARGIN_NS + 1;
	fpga_worker_step(e, DGR_WORKER_ADC);
	TAP_EQ_U(e->freeze.total_ns, FPGA_FREEZE_MARGIN_NS + 1,
		 "freeze: 1 ns later: frozen 4 ms + 1 ns");

	/* the virtual clock never freezes: the late step drops what the port cannot keep */
	e = adc_streaming();
	e->cfg.virtual_clock = true;
	e->now_ns += 1000000000ull;
	fpga_worker_step(e, DGR_WORKER_ADC);
	TAP_EQ_U(e->freeze.count, 0, "freeze: never on the virtual clock");
	tap_ok(e->adc.dropping && fpga_adc_open_drop(&e->adc) > 0,
	       "freeze: virtual clock: the late step drops (8 host + 4 local buffers kept)");

	/* --clock-freeze false: the late step drops, as an FPGA whose stream stopped */
	e = adc_streaming();
	e->cfg.clock_freeze = false;
	e->now_ns += 1000000000ull;
	fpga_worker_step(e, DGR_WORKER_ADC);
	TAP_EQ_U(e->freeze.count, 0, "freeze: never with --clock-freeze false");
	TAP_EQ_U(
	    fpga_adc_open_drop(&e->adc), 1001000 - (H + E) * (S / 4),
	    "freeze: --clock-freeze false: what the 8 host + 4 local buffers cannot keep drops");

	/*
	 * A host that holds its buffers, the emulator on time (a step every ms): drops once
	 * the 8 host and 4 local buffers are full, no freeze; then it sleeps until a packet
	 * (1 s with every buffer full): still no freeze, the samples are dropped.
	 */
	e = adc_streaming();
	for (int ms = 2; ms <= 100; ms++) {
		e->now_ns = (uint64_t)ms * 1000000ull;
		fpga_worker_step(e, DGR_WORKER_ADC);
	}
	tap_ok(e->adc.dropping && fpga_producer_free_local(&e->prod) == 0,
	       "freeze: host holding its buffers: the ADC drops");
	e->now_ns += 1000000000ull;
	fpga_worker_step(e, DGR_WORKER_ADC);
	TAP_EQ_U(e->freeze.count, 0, "freeze: a host holding its buffers causes no freeze");
	TAP_EQ_U(fpga_adc_open_drop(&e->adc), 1100000 - (H + E) * (S / 4),
		 "freeze: every sample past the 12 buffers is dropped, to the last one due");
}

/* The DAC: 4 input buffers full of samples at 1 MS/s, its clock started at 0. */
static struct fpga_emu *dac_fed(void)
{
	struct fpga_emu *e = setup(FPGA_MODE_DAC);

	e->wstate[DGR_WORKER_DAC] = FPGA_WS_OPERATING;
	for (unsigned int j = 0; j < E; j++) {
		e->cons.full[j] = true;
		e->cons.slot[j] = (struct fpga_slot){ .bytes = S, .opcode = DGR_OPCODE_SAMPLES };
	}
	e->dac_start_ns = 0;
	e->now_ns = 0;
	fpga_worker_step(e, DGR_WORKER_DAC); /* the DAC clock starts with the data */
	e->now_ns = 1000000;
	fpga_worker_step(e, DGR_WORKER_DAC);
	return e;
}

static void test_clock_freeze_dac(void)
{
	struct fpga_emu *e = dac_fed();
	const uint64_t rest = S / 4 - 1000; /* samples of buffer 0 left after 1 ms */

	TAP_EQ_U(e->dac.samples_consumed, 1000, "freeze, DAC: 1 ms consumed");
	tap_ok(e->dac_fed && e->dac_rest == rest, "freeze, DAC: the rest of buffer 0 is due next");
	e->now_ns += 1000000000ull;
	fpga_worker_step(e, DGR_WORKER_DAC);
	TAP_EQ_U(e->freeze.count, 1, "freeze, DAC: a 1 s late wake-up freezes the DAC clock");
	TAP_EQ_U(e->freeze.total_ns, 1000000000ull - rest * 1000ull,
		 "freeze, DAC: frozen for the lateness beyond the buffer it was playing");
	TAP_EQ_U(e->dac.num_underruns, 0, "freeze, DAC: no underrun");
	TAP_EQ_U(e->dac.buffers_consumed, 1,
		 "freeze, DAC: it finished that buffer, the other 3 stay its margin");

	/* a host that does not refill: underruns while the emulator sleeps, and no freeze */
	for (unsigned int j = 1; j < E; j++) {
		e->now_ns += (S / 4) * 1000ull; /* on time: a step at the end of each buffer */
		fpga_worker_step(e, DGR_WORKER_DAC);
	}
	TAP_EQ_U(e->dac.buffers_consumed, E, "freeze, DAC: on time, the 4 buffers played");
	e->now_ns += 1000000000ull;
	fpga_worker_step(e, DGR_WORKER_DAC);
	TAP_EQ_U(e->freeze.count, 1, "freeze, DAC: empty buffers for 1 s: no further freeze");
	TAP_EQ_U(e->dac.num_underruns, 1000000, "freeze, DAC: the host's 1 s are underruns");

	/* late within the buffer's rest + 4 ms: played at once, as before */
	e = dac_fed();
	e->now_ns += rest * 1000ull + FPGA_FREEZE_MARGIN_NS;
	fpga_worker_step(e, DGR_WORKER_DAC);
	TAP_EQ_U(e->freeze.count, 0, "freeze, DAC: late by its buffer's rest + 4 ms: no freeze");
}

int main(void)
{
	test_prop_map();
	test_dcp();
	test_txpath();
	test_rxpath();
	test_padding_trap();
	test_coalesce();
	test_print();
	test_hostile();
	test_packet_instant();
	test_txn_order();
	test_packets_can_wait();
	test_clock_freeze();
	test_clock_freeze_dac();
	setup(FPGA_MODE_ADC);
	fpga_producer_free(&emu.prod);
	fpga_consumer_free(&emu.cons);
	fpga_tx_free(&emu);
	return tap_done();
}
