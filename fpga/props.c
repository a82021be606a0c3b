// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The DCP property space of the emulated workers (docs/fpga.md section 4 is
 * generated from this table) and the summary, text and JSON from the same
 * loop through the print layer (stack/cli/print.h).
 */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "print.h"
#include "emu.h"

const char *const fpga_worker_names[DGR_WORKER_COUNT] = {
	[DGR_WORKER_CONFIG] = "dgrdma_config",	  [DGR_WORKER_ADC] = "data_src_qadc_csts",
	[DGR_WORKER_DAC] = "data_sink_qdac_csts", [DGR_WORKER_PERFTEST] = "perftest",
	[DGR_WORKER_EMULATOR] = "emulator",
};

static int write_plain(struct fpga_emu *e, const struct fpga_prop *p, uint32_t v);
static int write_max_acks(struct fpga_emu *e, const struct fpga_prop *p, uint32_t v);
static int write_id(struct fpga_emu *e, const struct fpga_prop *p, uint32_t v);
static int write_doorbell(struct fpga_emu *e, const struct fpga_prop *p, uint32_t v);
static int write_rate(struct fpga_emu *e, const struct fpga_prop *p, uint32_t v);
static int write_tx_beats(struct fpga_emu *e, const struct fpga_prop *p, uint32_t v);

#define F(member) offsetof(struct fpga_emu, member)
#define RO32(w, o, n, m, d)                                                                        \
	{                                                                                          \
		w, o, n, FPGA_PT_U32, FPGA_RO, F(m), NULL, d                                       \
	}
#define RO64(w, o, n, m, d)                                                                        \
	{                                                                                          \
		w, o, n, FPGA_PT_U64, FPGA_RO, F(m), NULL, d                                       \
	}
#define RW32(w, o, n, m, h, d)                                                                     \
	{                                                                                          \
		w, o, n, FPGA_PT_U32, FPGA_RW, F(m), h, d                                          \
	}
#define RWB(w, o, n, m, d)                                                                         \
	{                                                                                          \
		w, o, n, FPGA_PT_BOOL, FPGA_RW, F(m), write_plain, d                               \
	}

const struct fpga_prop fpga_props[] = {
	/* worker 0: dgrdma_config_dev */
	RW32(DGR_WORKER_CONFIG, 0x00, "coalesce_wait_d", cfg.coalesce_us, write_plain,
	     "microseconds a partly filled frame is held"),
	RO32(DGR_WORKER_CONFIG, 0x04, "mtu", mtu, "frame size limit of the transport"),
	RW32(DGR_WORKER_CONFIG, 0x08, "local_src_id", cfg.local_src_id, write_id,
	     "endpoint id sent at frame offset 2 (src_id)"),
	RW32(DGR_WORKER_CONFIG, 0x0C, "remote_dst_id", cfg.remote_dst_id, write_id,
	     "endpoint id sent at frame offset 0 (dst_id)"),
	RW32(DGR_WORKER_CONFIG, 0x10, "max_acks_outstanding", cfg.max_acks, write_max_acks,
	     "pending frames that make an ACK urgent (0..255, 0: only ack_wait)"),
	RW32(DGR_WORKER_CONFIG, 0x14, "ack_wait", cfg.ack_wait_us, write_plain,
	     "microseconds before pending frames are acknowledged (0: never by time)"),
	{ DGR_WORKER_CONFIG, DGR_PROP_DOORBELL, "doorbell", FPGA_PT_U32, FPGA_WO, F(doorbell_prop),
	  write_doorbell, "DCP doorbell: write host buffer index i to free it" },
	RO64(DGR_WORKER_CONFIG, 0x20, "ack_tracker_total_acks_sent",
	     ack.ack_tracker_total_acks_sent, "frame_seqs acknowledged"),
	RO64(DGR_WORKER_CONFIG, 0x28, "tx_acks_sent", ack.tx_acks_sent,
	     "frames sent (each carries the ACK run)"),
	RO64(DGR_WORKER_CONFIG, 0x30, "pkts_enqueued", ack.pkts_enqueued,
	     "frames processed whole and recorded for acknowledgement"),
	RO64(DGR_WORKER_CONFIG, 0x38, "reject_out_of_range", ack.reject_out_of_range,
	     "frames outside the ACK window, dropped whole"),
	RO64(DGR_WORKER_CONFIG, 0x40, "reject_already_set", ack.reject_already_set,
	     "frames seen before, dropped whole"),
	RO64(DGR_WORKER_CONFIG, 0x48, "accepted_by_peek", ack.accepted_by_peek,
	     "frames the ACK window accepted"),
	RO64(DGR_WORKER_CONFIG, 0x50, "high_watermark", ack.high_watermark,
	     "largest frame_seq - base_seqno enqueued"),
	RO32(DGR_WORKER_CONFIG, 0x58, "bitfield", ack.dbg_bitfield,
	     "window at the first rejected ACK-only frame (base_seqno in bit 31)"),
	RO32(DGR_WORKER_CONFIG, 0x5C, "ack_tracker_bitfield_width", cfg.ack_width,
	     "frames the ACK window spans (--ack-window)"),
	RO32(DGR_WORKER_CONFIG, 0x60, "base_seqno", ack.dbg_base_seqno,
	     "base_seqno at the first rejected ACK-only frame (16 bits)"),
	RO32(DGR_WORKER_CONFIG, 0x64, "rej_seqno", ack.rej_seqno,
	     "frame_seq of the first rejected ACK-only frame"),
	RO32(DGR_WORKER_CONFIG, 0x68, "rej_ack", ack.rej_ack,
	     "1 once an ACK-only frame was rejected"),
	RO32(DGR_WORKER_CONFIG, 0x6C, "ack_tracker_max_ack_count", cfg.max_ack_count,
	     "longest ACK run (--max-ack-count)"),
	RO64(DGR_WORKER_CONFIG, 0x70, "frame_parser_reject", cnt.frame_parser_reject,
	     "frames the parser dropped (window reject, bad header or message), never enqueued"),
	RO64(DGR_WORKER_CONFIG, 0x78, "frames_rx", cnt.frames_rx, "DG-RDMA frames received"),
	RO64(DGR_WORKER_CONFIG, 0x80, "frames_tx", cnt.frames_tx, "DG-RDMA frames sent"),
	RO64(DGR_WORKER_CONFIG, 0x88, "bytes_rx", cnt.bytes_rx, "DG-RDMA frame bytes received"),
	RO64(DGR_WORKER_CONFIG, 0x90, "bytes_tx", cnt.bytes_tx, "DG-RDMA frame bytes sent"),
	RO64(DGR_WORKER_CONFIG, 0x98, "transactions_sent", cnt.transactions_sent,
	     "transactions sent (data, discontinuities, EOF, doorbells excluded)"),
	RO64(DGR_WORKER_CONFIG, 0xA0, "transactions_rx", cnt.transactions_rx,
	     "host transactions completed"),
	RO64(DGR_WORKER_CONFIG, 0xA8, "doorbells_received", prod.doorbells,
	     "doorbells accepted (DG-RDMA and DCP)"),
	RO64(DGR_WORKER_CONFIG, 0xB0, "doorbells_received_dcp", cnt.doorbells_received_dcp,
	     "doorbells accepted as DCP property writes"),
	RO64(DGR_WORKER_CONFIG, 0xB8, "doorbells_out_of_order", prod.doorbells_out_of_order,
	     "doorbells naming another buffer than expected (still free one)"),
	RO64(DGR_WORKER_CONFIG, 0xC0, "doorbells_unexpected", prod.doorbells_unexpected,
	     "doorbells with no buffer in flight, ignored"),
	RO64(DGR_WORKER_CONFIG, 0xC8, "doorbells_rejected", cnt.doorbells_rejected,
	     "flag-only writes outside the doorbell flags, ignored"),
	RO64(DGR_WORKER_CONFIG, 0xD0, "doorbells_sent", cnt.doorbells_sent,
	     "doorbells sent to the host"),
	RO64(DGR_WORKER_CONFIG, 0xD8, "frames_wrong_id", cnt.frames_wrong_id,
	     "frames whose dst_id is not local_src_id (processed: the HDL reads no id)"),
	RO64(DGR_WORKER_CONFIG, 0xE0, "ack_only_rx", cnt.ack_only_rx,
	     "ACK-only frames accepted (acknowledged with the next run)"),
	RO64(DGR_WORKER_CONFIG, 0xE8, "messages_rx", cnt.messages_rx, "messages received"),
	RO64(DGR_WORKER_CONFIG, 0xF0, "messages_rejected", cnt.messages_rejected,
	     "messages failing validation or with no worker: no effect"),
	RO64(DGR_WORKER_CONFIG, 0xF8, "txn_id_out_of_range", txns.txn_id_out_of_range,
	     "messages whose txn_id is not within 64 of the next flag, dropped"),
	RO64(DGR_WORKER_CONFIG, 0x100, "frames_dropped_injected", cnt.frames_dropped_injected,
	     "data frames not sent (--drop-frames)"),
	RO64(DGR_WORKER_CONFIG, 0x108, "frames_corrupted_injected", cnt.frames_corrupted_injected,
	     "frames sent malformed (--corrupt)"),
	RO64(DGR_WORKER_CONFIG, 0x110, "txn_errors", txns.txn_errors,
	     "messages disagreeing with their transaction's record"),
	RO64(DGR_WORKER_CONFIG, 0x118, "dcp_requests", cnt.dcp_requests, "DCP requests answered"),
	RO64(DGR_WORKER_CONFIG, 0x120, "dcp_errors", cnt.dcp_errors,
	     "DCP requests answered with error"),
	RO64(DGR_WORKER_CONFIG, 0x128, "dcp_malformed", cnt.dcp_malformed,
	     "DCP packets that did not decode"),
	RO64(DGR_WORKER_CONFIG, 0x130, "packets_invalid", cnt.packets_invalid,
	     "UDP datagrams with an unknown pad"),
	RO64(DGR_WORKER_CONFIG, 0x138, "send_errors", cnt.send_errors,
	     "frames the transport refused"),
	RO64(DGR_WORKER_CONFIG, 0x140, "peer_restarts", cnt.peer_restarts,
	     "new host connections (frame_seq 1 outside the window, or DCP reset)"),
	RO64(DGR_WORKER_CONFIG, 0x148, "frames_rx_dropped_injected", cnt.frames_rx_dropped_injected,
	     "received frames lost on purpose (--drop-received)"),
	RO32(DGR_WORKER_CONFIG, 0x150, "next_flag_txn_id", txns.next_flag_txn_id,
	     "transaction whose flag is written next (flags go in txn_id order)"),
	RO32(DGR_WORKER_CONFIG, 0x154, "txns_waiting", txns.nused,
	     "transactions recorded behind the next flag to write"),
	RO64(DGR_WORKER_CONFIG, 0x158, "txns_waiting_max", txns.waiting_max,
	     "most transactions recorded at once (64: the record is full)"),
	RO64(DGR_WORKER_CONFIG, 0x160, "flags_none", cnt.flags_none,
	     "transactions without a flag (0xFFFFFFFF) released in order"),
	RO64(DGR_WORKER_CONFIG, 0x168, "flags_unusable", cnt.flags_unusable,
	     "flags of transactions with a refused message, not written"),
	RWB(DGR_WORKER_CONFIG, 0x170, "restart_on_seq1", cfg.restart_on_seq1,
	    "frame_seq 1 outside the window starts a new host connection (emulator only)"),
	RO64(DGR_WORKER_CONFIG, 0x178, "padding_frames_rx", cnt.padding_frames_rx,
	     "frame headers read from the rest (padding) of accepted ACK-only frames, as the HDL"),
	RO64(DGR_WORKER_CONFIG, 0x180, "padding_frames_accepted", cnt.padding_frames_accepted,
	     "of them, accepted by the window: a frame_seq the host never sent marked received"),
	RO64(DGR_WORKER_CONFIG, 0x188, "frames_lost_to_padding", cnt.frames_lost_to_padding,
	     "host frames rejected on a frame_seq that padding took (their flags never written)"),
	RO64(DGR_WORKER_CONFIG, 0x190, "frames_truncated", cnt.frames_truncated,
	     "frames whose header ends the stream (10 bytes over UDP): ignored as the HDL, a hole"),
	RO64(DGR_WORKER_CONFIG, 0x198, "frame1_repeats", cnt.frame1_repeats,
	     "frame_seq 1 outside the window repeating the connection's frame 1 within 1 s: "
	     "a retransmission, rejected (no new connection)"),

	/* worker 1: data_src_qadc_csts */
	RWB(DGR_WORKER_ADC, 0x00, "report_data_loss", adc.report_data_loss,
	    "send a discontinuity (a whole buffer) after each drop period"),
	RO32(DGR_WORKER_ADC, 0x04, "num_dropped_samps", adc.num_dropped_samps,
	     "drop periods, saturating 32-bit counter"),
	RO64(DGR_WORKER_ADC, 0x08, "dropped_samples", adc.dropped_samples,
	     "samples dropped in closed periods after the first ready"),
	RO64(DGR_WORKER_ADC, 0x10, "first_drop_ns", adc.first_drop_ns,
	     "clock of the first dropped sample"),
	RO64(DGR_WORKER_ADC, 0x18, "last_drop_ns", adc.last_drop_ns,
	     "clock of the last dropped sample"),
	RO64(DGR_WORKER_ADC, 0x20, "first_drop_sample", adc.first_drop_sample,
	     "k of the first dropped sample"),
	RO64(DGR_WORKER_ADC, 0x28, "last_drop_sample", adc.last_drop_sample,
	     "k of the last dropped sample"),
	RO64(DGR_WORKER_ADC, 0x30, "samples_produced", adc.next_sample,
	     "samples the ADC produced, dropped ones included"),
	RO64(DGR_WORKER_ADC, 0x38, "samples_sent", cnt.samples_sent, "samples sent to the host"),
	RO64(DGR_WORKER_ADC, 0x40, "discontinuities_sent", cnt.discontinuities_sent,
	     "discontinuity messages sent"),
	RO64(DGR_WORKER_ADC, 0x48, "drop_periods", adc.drop_periods,
	     "drop periods (not saturating)"),
	RO64(DGR_WORKER_ADC, 0x50, "dropped_before_ready", adc.dropped_before_ready,
	     "samples dropped before the port was first ready"),
	RO64(DGR_WORKER_ADC, 0x58, "samples_committed", adc.samples_committed,
	     "samples put in complete buffers"),
	RO64(DGR_WORKER_ADC, 0x60, "eof_sent", cnt.eof_sent, "transactions sent with EOF"),
	RO64(DGR_WORKER_ADC, 0x68, "dropped_open", adc.dropped_open,
	     "samples of the drop period open at stop (no hardware counter sees them)"),
	RO64(DGR_WORKER_ADC, 0x70, "samples_unsent", cnt.samples_unsent,
	     "samples in the emulator's buffers not sent (yet): no host buffer free"),

	/* worker 2: data_sink_qdac_csts */
	RO64(DGR_WORKER_DAC, 0x00, "num_underruns", dac.num_underruns,
	     "sample slots with no data (teardown included)"),
	RO64(DGR_WORKER_DAC, 0x08, "samp_count_before_first_underrun",
	     dac.samp_count_before_first_underrun, "samples consumed before the first underrun"),
	RO64(DGR_WORKER_DAC, 0x10, "samples_consumed", dac.samples_consumed,
	     "samples the DAC consumed"),
	RO64(DGR_WORKER_DAC, 0x18, "buffers_consumed", dac.buffers_consumed,
	     "buffers the DAC consumed"),
	RO64(DGR_WORKER_DAC, 0x20, "underrun_periods", dac.underrun_periods,
	     "runs of underrun slots"),
	RO64(DGR_WORKER_DAC, 0x28, "trailing_underruns", dac.trailing_underruns,
	     "underrun slots since the last data (teardown over-report)"),
	RO64(DGR_WORKER_DAC, 0x30, "ramp_errors", dac.ramp_errors, "samples that broke the ramp"),
	RO64(DGR_WORKER_DAC, 0x38, "buffers_filled", cons.buffers_filled,
	     "input buffers the host filled"),
	RO64(DGR_WORKER_DAC, 0x40, "buffers_filled_twice", cons.filled_twice,
	     "input buffers written before release"),
	{ DGR_WORKER_DAC, 0x48, "eof_seen", FPGA_PT_BOOL, FPGA_RO, F(dac.eof_seen), NULL,
	  "an EOF buffer stopped the DAC" },
	RO32(DGR_WORKER_DAC, 0x4C, "input_buffer_size", cons.size,
	     "buffer size of the input port's layout (learned from the host)"),
	RO64(DGR_WORKER_DAC, 0x50, "input_layout_changes", cons.size_changes,
	     "input layouts learned from a host's first transaction"),

	/* worker 3: perftest.hdl */
	RWB(DGR_WORKER_PERFTEST, DGR_PERFTEST_TX_RUN, "tx_run", pt.tx_run, "generate tx messages"),
	RW32(DGR_WORKER_PERFTEST, DGR_PERFTEST_TX_BEATS, "tx_beats", pt.tx_beats, write_tx_beats,
	     "4-byte words per tx message"),
	RW32(DGR_WORKER_PERFTEST, DGR_PERFTEST_TX_MESSAGES, "tx_messages", pt.tx_messages,
	     write_plain, "tx messages to send"),
	RW32(DGR_WORKER_PERFTEST, DGR_PERFTEST_TX_MESSAGE_GAP, "tx_message_gap", pt.tx_message_gap,
	     write_plain, "125 MHz clock cycles between tx messages"),
	RO64(DGR_WORKER_PERFTEST, DGR_PERFTEST_RX_MESSAGES, "rx_messages", pt.rx_messages,
	     "messages received"),
	RO64(DGR_WORKER_PERFTEST, DGR_PERFTEST_RX_BYTES, "rx_bytes", pt.rx_bytes, "bytes received"),
	RO32(DGR_WORKER_PERFTEST, DGR_PERFTEST_RX_LAST_MESSAGE_BYTES, "rx_last_message_bytes",
	     pt.rx_last_message_bytes, "bytes of the last message received"),
	RO64(DGR_WORKER_PERFTEST, DGR_PERFTEST_TX_MESSAGES_SENT, "tx_messages_sent",
	     pt.tx_messages_sent, "tx messages generated"),
	RO64(DGR_WORKER_PERFTEST, DGR_PERFTEST_TX_BYTES_SENT, "tx_bytes_sent", pt.tx_bytes_sent,
	     "tx bytes generated"),

	/* worker 4: the emulator */
	{ DGR_WORKER_EMULATOR, 0x00, "rate_sps", FPGA_PT_U64, FPGA_RW, F(cfg.rate_sps), write_rate,
	  "ADC/DAC rate in samples/s (writable while not operating)" },
	RO32(DGR_WORKER_EMULATOR, 0x08, "buffer_size", cfg.buffer_size, "bytes per buffer"),
	RO32(DGR_WORKER_EMULATOR, 0x0C, "buffers", cfg.nbuffers, "emulator buffers per port (E)"),
	RO32(DGR_WORKER_EMULATOR, 0x10, "host_buffers", cfg.host_buffers,
	     "host buffers per port (H)"),
	RO32(DGR_WORKER_EMULATOR, 0x14, "mode", cfg.mode, "0 adc, 1 dac, 2 perftest"),
	RO64(DGR_WORKER_EMULATOR, 0x18, "elapsed_ns", pace.elapsed_ns,
	     "ADC/DAC clock at the last step"),
	RO64(DGR_WORKER_EMULATOR, 0x20, "expected_samples", pace.expected_samples,
	     "rate * elapsed_ns"),
	RO64(DGR_WORKER_EMULATOR, 0x28, "pacing_late_max_ns", pace.late_max_ns,
	     "largest lateness of a production step vs the clock"),
	RO64(DGR_WORKER_EMULATOR, 0x30, "pacing_late_mean_ns", pace.late_mean_ns,
	     "mean lateness of a production step vs the clock"),
	RO64(DGR_WORKER_EMULATOR, 0x38, "pacing_steps", pace.steps, "production steps"),
	RO64(DGR_WORKER_EMULATOR, 0x40, "pacing_error_samples", pace.error_samples,
	     "produced - expected (two's complement)"),
	RO32(DGR_WORKER_EMULATOR, 0x48, "fpga_memory", cfg.fpga_memory,
	     "buffer memory per port, bytes"),
	{ DGR_WORKER_EMULATOR, 0x50, "scratch0", FPGA_PT_U32, FPGA_RW, F(scratch[0]), write_plain,
	  "free for tests (the same word as admin scratch 0x20)" },
	RO64(DGR_WORKER_EMULATOR, 0x58, "timer_slack_ns", cfg.timer_slack_ns,
	     "how late the loop's sleeps may end (--timer-slack-us)"),
	RO64(DGR_WORKER_EMULATOR, 0x60, "clock_freezes", freeze.count,
	     "late wake-ups taken as a frozen FPGA (the emulator did not run; docs/fpga.md section "
	     "6)"),
	RO64(DGR_WORKER_EMULATOR, 0x68, "frozen_ns", freeze.total_ns,
	     "ADC/DAC clock time lost to clock_freezes, in all"),
	RO64(DGR_WORKER_EMULATOR, 0x70, "frozen_max_ns", freeze.max_ns,
	     "the longest of the clock_freezes"),
};

const unsigned int fpga_nprops = sizeof(fpga_props) / sizeof(fpga_props[0]);

static void *field_ptr(const struct fpga_emu *e, const struct fpga_prop *p)
{
	return (char *)e + p->field;
}

/* See emu.h. */
const struct fpga_prop *fpga_prop_find(unsigned int worker, uint32_t offset)
{
	for (unsigned int i = 0; i < fpga_nprops; i++) {
		const struct fpga_prop *p = &fpga_props[i];

		if (p->worker != worker) {
			continue;
		}
		if (p->offset == offset || (p->type == FPGA_PT_U64 && p->offset + 4 == offset)) {
			return p;
		}
	}
	return NULL;
}

/* See emu.h. */
const struct fpga_prop *fpga_prop_by_name(const char *name)
{
	for (unsigned int i = 0; i < fpga_nprops; i++) {
		if (strcmp(fpga_props[i].name, name) == 0) {
			return &fpga_props[i];
		}
	}
	return NULL;
}

/* Fields narrower than the property (base_seqno is a uint16_t, mode an enum). */
static size_t field_size(const struct fpga_prop *p)
{
	if (p->field == offsetof(struct fpga_emu, ack.base_seqno) ||
	    p->field == offsetof(struct fpga_emu, ack.rej_seqno) ||
	    p->field == offsetof(struct fpga_emu, ack.rej_ack)) {
		return 2;
	}
	switch (p->type) {
	case FPGA_PT_BOOL:
		return sizeof(bool);
	case FPGA_PT_U64:
		return 8;
	default:
		return 4;
	}
}

/* See emu.h. */
uint64_t fpga_prop_get(const struct fpga_emu *e, const struct fpga_prop *p)
{
	const void *f = field_ptr(e, p);
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;
	bool b;

	switch (field_size(p)) {
	case 2:
		memcpy(&v16, f, 2);
		return v16;
	case 8:
		memcpy(&v64, f, 8);
		return v64;
	case sizeof(bool):
		memcpy(&b, f, sizeof(b));
		return b ? 1 : 0;
	default:
		memcpy(&v32, f, 4);
		return v32;
	}
}

static void prop_set(struct fpga_emu *e, const struct fpga_prop *p, uint64_t v)
{
	void *f = field_ptr(e, p);
	uint32_t v32 = (uint32_t)v;
	bool b = v != 0;

	switch (field_size(p)) {
	case 8:
		memcpy(f, &v, 8);
		break;
	case sizeof(bool):
		memcpy(f, &b, sizeof(b));
		break;
	default:
		memcpy(f, &v32, 4);
		break;
	}
}

static int write_plain(struct fpga_emu *e, const struct fpga_prop *p, uint32_t v)
{
	prop_set(e, p, v);
	return 0;
}

static int write_id(struct fpga_emu *e, const struct fpga_prop *p, uint32_t v)
{
	if (v > 65535) {
		return -DGR_E_INVAL;
	}
	prop_set(e, p, v);
	return 0;
}

static int write_max_acks(struct fpga_emu *e, const struct fpga_prop *p, uint32_t v)
{
	if (v > 255) {
		return -DGR_E_INVAL;
	}
	prop_set(e, p, v);
	return 0;
}

static int write_tx_beats(struct fpga_emu *e, const struct fpga_prop *p, uint32_t v)
{
	if (v < 1 || v > e->cfg.buffer_size / 4) {
		return -DGR_E_INVAL;
	}
	prop_set(e, p, v);
	return 0;
}

static int write_doorbell(struct fpga_emu *e, const struct fpga_prop *p, uint32_t v)
{
	prop_set(e, p, v);
	if (v >= DGR_PORT_FLAGS) {
		return -DGR_E_INVAL;
	}
	fpga_rx_doorbell(e, v, DGR_NO_FLAG, 0, true);
	return 0;
}

/* Validates only: fpga_prop_write_word() stores the word and updates the clocks' rate. */
static int write_rate(struct fpga_emu *e, const struct fpga_prop *p, uint32_t v)
{
	(void)p;
	(void)v;
	if (e->wstate[DGR_WORKER_ADC] == FPGA_WS_OPERATING ||
	    e->wstate[DGR_WORKER_DAC] == FPGA_WS_OPERATING) {
		return -DGR_E_STATE;
	}
	return 0;
}

/* See emu.h. */
int fpga_prop_read_word(struct fpga_emu *e, unsigned int worker, uint32_t offset, uint32_t *v)
{
	const struct fpga_prop *p = fpga_prop_find(worker, offset);
	uint64_t val;

	if (!p) {
		return -DGR_E_ADDR_RANGE;
	}
	if (p->access == FPGA_WO) {
		*v = 0;
		return 0;
	}
	val = fpga_prop_get(e, p);
	if (p->type != FPGA_PT_U64) {
		*v = (uint32_t)val;
	} else if (offset == p->offset) {
		*v = (uint32_t)val;
		e->latch_hi = (uint32_t)(val >> 32);
	} else {
		*v = e->latch_hi;
	}
	return 0;
}

/* See emu.h. */
int fpga_prop_write_word(struct fpga_emu *e, unsigned int worker, uint32_t offset, uint32_t v)
{
	const struct fpga_prop *p = fpga_prop_find(worker, offset);
	int rc;

	if (!p) {
		return -DGR_E_ADDR_RANGE;
	}
	if (p->access == FPGA_RO || !p->write) {
		return -DGR_E_PERM;
	}
	if (p->type == FPGA_PT_U64) {
		uint64_t old = fpga_prop_get(e, p);
		uint64_t nv = offset == p->offset ? (old & 0xFFFFFFFF00000000ull) | v
						  : (old & 0xFFFFFFFFull) | ((uint64_t)v << 32);

		rc = p->write(e, p, v);
		if (rc < 0) {
			return rc;
		}
		prop_set(e, p, nv);
		if (p->field == offsetof(struct fpga_emu, cfg.rate_sps)) {
			e->cfg.rate = (double)nv;
			e->adc.rate = (double)nv;
		}
		return 0;
	}
	return p->write(e, p, v);
}

/* See emu.h. */
const char *fpga_mode_name(enum fpga_mode m)
{
	switch (m) {
	case FPGA_MODE_ADC:
		return "adc";
	case FPGA_MODE_DAC:
		return "dac";
	case FPGA_MODE_PERFTEST:
		return "perftest";
	}
	return "?";
}

/* One value: a JSON member, or a line "  name  value" of the text. */
static void print_value(struct dgr_pr *pr, const char *name, const struct fpga_prop *p, uint64_t v)
{
	if (p && p->field == offsetof(struct fpga_emu, pace.error_samples)) {
		dgr_pr_i64(pr, name, NULL, (int64_t)v);
		dgr_pr_text(pr, "  %-34s %" PRId64 "\n", name, (int64_t)v);
	} else if (p && p->type == FPGA_PT_BOOL) {
		dgr_pr_bool(pr, name, NULL, v != 0);
		dgr_pr_text(pr, "  %-34s %s\n", name, v ? "true" : "false");
	} else {
		dgr_pr_u64(pr, name, NULL, v);
		dgr_pr_text(pr, "  %-34s %" PRIu64 "\n", name, v);
	}
}

/*
 * The settings the run had in force, defaults included (docs/run-json.md), in
 * JSON only (the text has the start-up print): the facts dgrdma-capture records
 * in run.json. The rate is the one at exit (a DCP write of sample_rate_sps
 * changes it); the peer is the given one or the one learned from the first
 * packet, absent when neither.
 */
static void print_settings(struct dgr_pr *pr, const struct fpga_emu *e)
{
	const struct fpga_config *c = &e->cfg;
	struct dgr_addr a;
	char buf[64];

	dgr_pr_obj_begin(pr, "settings", NULL);
	dgr_pr_str(pr, "tool", NULL, "dgrdma-fpga");
	dgr_pr_str(pr, "mode", NULL, fpga_mode_name(c->mode));
	if (c->mode != FPGA_MODE_PERFTEST) {
		dgr_pr_str(pr, "path", NULL, c->mode == FPGA_MODE_ADC ? "rx" : "tx");
	}
	dgr_pr_str(pr, "transport", NULL, e->kind == DGR_TRANSPORT_UDP ? "udp" : "ether");
	if (e->tr) {
		dgr_transport_local_addr(e->tr, &a);
		dgr_pr_str(pr, "local", NULL, dgr_addr_str(e->kind, &a, buf, sizeof(buf)));
		if (e->have_peer) {
			dgr_pr_str(
			    pr, "peer", NULL,
			    dgr_addr_str(e->kind, dgr_transport_peer(e->tr), buf, sizeof(buf)));
			dgr_pr_bool(pr, "peer_learned", NULL, e->peer_ns != 0);
		}
	}
	dgr_pr_u64(pr, "id", NULL, c->local_src_id);
	dgr_pr_u64(pr, "peer_id", NULL, c->remote_dst_id);
	dgr_pr_dbl(pr, "sample_rate", NULL, c->rate, 0);
	dgr_pr_u64(pr, "fpga_buffers", NULL, c->nbuffers);
	dgr_pr_u64(pr, "host_buffers", NULL, c->host_buffers);
	dgr_pr_u64(pr, "buffer_size", NULL, c->buffer_size);
	dgr_pr_u64(pr, "fpga_memory", NULL, c->fpga_memory);
	dgr_pr_u64(pr, "mtu", NULL, e->mtu);
	dgr_pr_u64(pr, "frame_cap", NULL, e->frame_cap);
	dgr_pr_bool(pr, "report_data_loss", NULL, c->report_data_loss);
	dgr_pr_u64(pr, "coalesce_us", NULL, c->coalesce_us);
	dgr_pr_u64(pr, "max_acks", NULL, c->max_acks);
	dgr_pr_u64(pr, "ack_wait_us", NULL, c->ack_wait_us);
	dgr_pr_u64(pr, "ack_width", NULL, c->ack_width);
	dgr_pr_u64(pr, "max_ack_count", NULL, c->max_ack_count);
	dgr_pr_bool(pr, "restart_on_seq1", NULL, c->restart_on_seq1);
	dgr_pr_ns(pr, "duration_ns", NULL, c->duration_ns);
	dgr_pr_bool(pr, "idle", NULL, c->idle);
	dgr_pr_str(pr, "clock", NULL, c->virtual_clock ? "virtual" : "real");
	dgr_pr_str(pr, "pacing", NULL, c->pacing_busy ? "busy" : "sleep");
	dgr_pr_ns(pr, "timer_slack_ns", NULL, c->timer_slack_ns);
	dgr_pr_bool(pr, "clock_freeze", NULL, c->clock_freeze && !c->virtual_clock);
	dgr_pr_ns(pr, "tick_ns", NULL, c->tick_ns);
	/* a string: a 64-bit number past 2^63 is no JSON integer most readers take */
	snprintf(buf, sizeof(buf), "%" PRIu64, c->seed);
	dgr_pr_str(pr, "seed", NULL, buf);
	dgr_pr_dbl(pr, "drop_frames", NULL, c->drop_frames, 6);
	dgr_pr_dbl(pr, "corrupt", NULL, c->corrupt, 6);
	dgr_pr_dbl(pr, "drop_received", NULL, c->drop_rx, 6);
	dgr_pr_u64(pr, "doorbell_delay_us", NULL, c->doorbell_delay_us);
	dgr_pr_u64(pr, "drain_ms", NULL, c->drain_ms);
	dgr_pr_bool(pr, "ramp_check", NULL, c->check_ramp);
	dgr_pr_u64(pr, "counters_ms", NULL, c->counters_ms);
	dgr_pr_obj_end(pr);
}

/* See emu.h. */
void fpga_print_props(const struct fpga_emu *e, FILE *out, bool json)
{
	unsigned int last_worker = DGR_WORKER_COUNT;
	struct dgr_pr pr;

	/* the text groups the properties by worker, under "[N] name" headings */
	dgr_pr_begin(&pr, out, DGR_PR_JSON_PRETTY | DGR_PR_TEXT_FREE | (json ? DGR_PR_JSON : 0));
	dgr_pr_str(&pr, "mode_name", NULL, fpga_mode_name(e->cfg.mode));
	for (unsigned int i = 0; i < fpga_nprops; i++) {
		const struct fpga_prop *p = &fpga_props[i];

		if (p->access == FPGA_WO) {
			continue;
		}
		if (p->worker != last_worker) {
			dgr_pr_text(&pr, "%s[%u] %s\n", last_worker == DGR_WORKER_COUNT ? "" : "\n",
				    p->worker, fpga_worker_names[p->worker]);
			last_worker = p->worker;
		}
		print_value(&pr, p->name, p, fpga_prop_get(e, p));
	}
	dgr_pr_text(&pr, "\n[process]\n");
	print_value(&pr, "run_ns", NULL, e->run_ns);
	print_value(&pr, "cpu_user_ns", NULL, e->cpu_user_ns);
	print_value(&pr, "cpu_sys_ns", NULL, e->cpu_sys_ns);
	print_settings(&pr, e);
	dgr_pr_end(&pr);
}

static const char *type_name(enum fpga_ptype t)
{
	return t == FPGA_PT_U64 ? "u64" : t == FPGA_PT_BOOL ? "bool" : "u32";
}

static const char *access_name(enum fpga_access a)
{
	return a == FPGA_RO ? "RO" : a == FPGA_RW ? "RW" : "WO";
}

/* See emu.h. */
void fpga_print_prop_table(FILE *out)
{
	fprintf(out, "| worker | offset | DCP address | name | type | access | meaning |\n");
	fprintf(out, "|---|---|---|---|---|---|---|\n");
	for (unsigned int i = 0; i < fpga_nprops; i++) {
		const struct fpga_prop *p = &fpga_props[i];

		fprintf(out, "| %u %s | 0x%03X | 0x%06X | `%s` | %s | %s | %s |\n", p->worker,
			fpga_worker_names[p->worker], p->offset,
			dcp_property_addr(p->worker, p->offset), p->name, type_name(p->type),
			access_name(p->access), p->doc);
	}
}
