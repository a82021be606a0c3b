/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LTTng-UST provider "dgrdma_fpga": the FPGA emulator's tracepoints.
 *
 *	DGR_FPGA_TP(drop_period, start_sample, count);
 *
 * With -DDGR_NO_TRACE every DGR_FPGA_TP() compiles to nothing (arguments type-checked,
 * never evaluated). Events and fields: docs/tracepoints.md. Probes: tracepoints/dgrdma-fpga-tp.c.
 */

#ifndef DGRDMA_FPGA_TP_WRAPPER_H
#define DGRDMA_FPGA_TP_WRAPPER_H

#ifdef DGR_NO_TRACE
/* Swallows the arguments so that variables used only for tracing stay "used". */
static inline void dgr_fpga_tp_discard(int unused, ...)
{
	(void)unused;
}
#define DGR_FPGA_TP(event, ...)                                                                    \
	do {                                                                                       \
		if (0) {                                                                           \
			dgr_fpga_tp_discard(0, __VA_ARGS__);                                       \
		}                                                                                  \
	} while (0)
#define DGR_FPGA_TP_ENABLED(event) 0
#else
#define DGR_FPGA_TP(event, ...)	   lttng_ust_tracepoint(dgrdma_fpga, event, __VA_ARGS__)
#define DGR_FPGA_TP_ENABLED(event) lttng_ust_tracepoint_enabled(dgrdma_fpga, event)
#endif

#endif /* DGRDMA_FPGA_TP_WRAPPER_H */

#ifndef DGR_NO_TRACE

#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER dgrdma_fpga

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "dgrdma-fpga-tp.h"

#if !defined(DGRDMA_FPGA_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define DGRDMA_FPGA_TP_H

#include <stdint.h>
#include <lttng/tracepoint.h>

/* The LTTng event DSL below is laid out by hand. */
/* clang-format off */

/* An emulator thread started (role as in provider dgrdma: 0 rx, 1 tx, 3 control, 4 producer). */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma_fpga, thread_start,
	LTTNG_UST_TP_ARGS(uint8_t, role, uint16_t, conn, int32_t, tid, int32_t, policy,
			  int32_t, priority, int32_t, nice, uint64_t, cpuset),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint8_t, role, role)
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(int32_t, tid, tid)
		lttng_ust_field_integer(int32_t, policy, policy)
		lttng_ust_field_integer(int32_t, priority, priority)
		lttng_ust_field_integer(int32_t, nice, nice)
		lttng_ust_field_integer_hex(uint64_t, cpuset, cpuset)))

LTTNG_UST_TRACEPOINT_EVENT(dgrdma_fpga, frame_rx,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint16_t, frame_seq, uint32_t, bytes, uint16_t, msgs,
			  uint16_t, ack_start, uint8_t, ack_count),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint16_t, frame_seq, frame_seq)
		lttng_ust_field_integer(uint32_t, bytes, bytes)
		lttng_ust_field_integer(uint16_t, msgs, msgs)
		lttng_ust_field_integer(uint16_t, ack_start, ack_start)
		lttng_ust_field_integer(uint8_t, ack_count, ack_count)))

LTTNG_UST_TRACEPOINT_EVENT(dgrdma_fpga, frame_tx,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint16_t, frame_seq, uint32_t, bytes, uint16_t, msgs,
			  uint16_t, ack_start, uint8_t, ack_count, uint8_t, retransmit),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint16_t, frame_seq, frame_seq)
		lttng_ust_field_integer(uint32_t, bytes, bytes)
		lttng_ust_field_integer(uint16_t, msgs, msgs)
		lttng_ust_field_integer(uint16_t, ack_start, ack_start)
		lttng_ust_field_integer(uint8_t, ack_count, ack_count)
		lttng_ust_field_integer(uint8_t, retransmit, retransmit)))

/* The ACK tracker's window rejected a frame (verdict 1: already set, 2: out of range). */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma_fpga, frame_rejected,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint16_t, frame_seq, uint8_t, verdict,
			  uint16_t, base_seqno),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint16_t, frame_seq, frame_seq)
		lttng_ust_field_integer(uint8_t, verdict, verdict)
		lttng_ust_field_integer(uint16_t, base_seqno, base_seqno)))

/* The emulated FPGA sent the last frame of a transaction towards the host. */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma_fpga, txn_sent,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint32_t, txn_id, uint16_t, buffer, uint32_t, bytes,
			  uint8_t, opcode, uint16_t, frame_seq),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint32_t, txn_id, txn_id)
		lttng_ust_field_integer(uint16_t, buffer, buffer)
		lttng_ust_field_integer(uint32_t, bytes, bytes)
		lttng_ust_field_integer(uint8_t, opcode, opcode)
		lttng_ust_field_integer(uint16_t, frame_seq, frame_seq)))

/* A doorbell from the host freed a buffer of the emulated FPGA. */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma_fpga, doorbell_rx,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint16_t, buffer, uint32_t, flag_addr,
			  uint16_t, frame_seq),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint16_t, buffer, buffer)
		lttng_ust_field_integer_hex(uint32_t, flag_addr, flag_addr)
		lttng_ust_field_integer(uint16_t, frame_seq, frame_seq)))

/* The ADC source had no free buffer: count samples from start_sample were dropped. */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma_fpga, drop_period,
	LTTNG_UST_TP_ARGS(uint64_t, start_sample, uint64_t, count),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, start_sample, start_sample)
		lttng_ust_field_integer(uint64_t, count, count)))

/* The DAC sink ran out of data at this sample. */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma_fpga, underrun,
	LTTNG_UST_TP_ARGS(uint64_t, sample),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, sample, sample)))

/* A transaction was sent with its discontinuity flag set (data was lost before it). */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma_fpga, discontinuity,
	LTTNG_UST_TP_ARGS(uint32_t, txn_id, uint16_t, buffer),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint32_t, txn_id, txn_id)
		lttng_ust_field_integer(uint16_t, buffer, buffer)))

/*
 * The emulator's stream facts: mode (0 adc, 1 dac, 2 perftest), the sample rate in
 * samples/s (rounded, its rate_sps property), its buffers per port (E), their size and the
 * host's buffers (H) it was told. Fired when it starts and with every counters snapshot.
 */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma_fpga, stream_config,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint8_t, mode, uint64_t, rate_sps, uint32_t, buffers,
			  uint32_t, buffer_size, uint32_t, host_buffers),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint8_t, mode, mode)
		lttng_ust_field_integer(uint64_t, rate_sps, rate_sps)
		lttng_ust_field_integer(uint32_t, buffers, buffers)
		lttng_ust_field_integer(uint32_t, buffer_size, buffer_size)
		lttng_ust_field_integer(uint32_t, host_buffers, host_buffers)))

/* Periodic snapshot of the emulator's hardware-style counters (its DCP properties). */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma_fpga, counters,
	LTTNG_UST_TP_ARGS(uint64_t, samples_produced, uint64_t, dropped_samples,
			  uint64_t, num_dropped_samps, uint64_t, discontinuities_sent,
			  uint64_t, transactions_sent, uint64_t, doorbells_received,
			  uint64_t, num_underruns, uint64_t, frames_rx, uint64_t, frames_tx),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, samples_produced, samples_produced)
		lttng_ust_field_integer(uint64_t, dropped_samples, dropped_samples)
		lttng_ust_field_integer(uint64_t, num_dropped_samps, num_dropped_samps)
		lttng_ust_field_integer(uint64_t, discontinuities_sent, discontinuities_sent)
		lttng_ust_field_integer(uint64_t, transactions_sent, transactions_sent)
		lttng_ust_field_integer(uint64_t, doorbells_received, doorbells_received)
		lttng_ust_field_integer(uint64_t, num_underruns, num_underruns)
		lttng_ust_field_integer(uint64_t, frames_rx, frames_rx)
		lttng_ust_field_integer(uint64_t, frames_tx, frames_tx)))

/* clang-format on */

#endif /* DGRDMA_FPGA_TP_H */

#include <lttng/tracepoint-event.h>

#endif /* DGR_NO_TRACE */
