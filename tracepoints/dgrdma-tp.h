/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LTTng-UST provider "dgrdma": the host stack's tracepoints.
 *
 * Code that places tracepoints includes this header (with $(TP_CFLAGS)) and writes
 *
 *	DGR_TP(frame_rx, conn, frame_seq, bytes, msgs, ack_start, ack_count);
 *
 * With -DDGR_NO_TRACE every DGR_TP() compiles to nothing (its arguments are type-checked
 * but never evaluated) and no LTTng header is needed. Otherwise a DGR_TP() whose event is
 * not enabled in any session costs one predicted branch.
 *
 * Every event and field is described in docs/tracepoints.md, which is the authority.
 * The probes are built by tracepoints/dgrdma-tp.c (libdgrtp.a).
 */

#ifndef DGRDMA_TP_WRAPPER_H
#define DGRDMA_TP_WRAPPER_H

#include <stdint.h>

/*
 * doorbell_sent's readings of the other threads' side of its buffer, one
 * argument (lttng-ust takes at most ten an event); its fields are the event's
 * last four, in this order.
 */
struct dgr_tp_bell_sides {
	uint64_t since_release_ns, held_ns;
	int32_t consumer_tid;
	uint64_t since_complete_ns;
};

#ifdef DGR_NO_TRACE
/* Swallows the arguments so that variables used only for tracing stay "used". */
static inline void dgr_tp_discard(int unused, ...)
{
	(void)unused;
}
#define DGR_TP(event, ...)                                                                         \
	do {                                                                                       \
		if (0) {                                                                           \
			dgr_tp_discard(0, __VA_ARGS__);                                            \
		}                                                                                  \
	} while (0)
#define DGR_TP_ENABLED(event) 0
#else
#define DGR_TP(event, ...)    lttng_ust_tracepoint(dgrdma, event, __VA_ARGS__)
#define DGR_TP_ENABLED(event) lttng_ust_tracepoint_enabled(dgrdma, event)
#endif

#endif /* DGRDMA_TP_WRAPPER_H */

#ifndef DGR_NO_TRACE

#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER dgrdma

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "dgrdma-tp.h"

#if !defined(DGRDMA_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define DGRDMA_TP_H

#include <stdint.h>
#include <lttng/tracepoint.h>

/* The LTTng event DSL below is laid out by hand. */
/* clang-format off */
#include <dgrdma/stats.h>

/*
 * A thread of the stack started; its scheduling as read back (not as requested).
 * role: enum dgr_thread_role (dgrdma/stats.h): 0 rx, 1 tx, 2 consumer, 3 control, 4 producer.
 */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma, thread_start,
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

/* A DG-RDMA frame was received and decoded. */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma, frame_rx,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint16_t, frame_seq, uint32_t, bytes, uint16_t, msgs,
			  uint16_t, ack_start, uint8_t, ack_count),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint16_t, frame_seq, frame_seq)
		lttng_ust_field_integer(uint32_t, bytes, bytes)
		lttng_ust_field_integer(uint16_t, msgs, msgs)
		lttng_ust_field_integer(uint16_t, ack_start, ack_start)
		lttng_ust_field_integer(uint8_t, ack_count, ack_count)))

/* A DG-RDMA frame was handed to the socket (retransmit = 1 for a resend). */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma, frame_tx,
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

/*
 * RX path: every message of a transaction has arrived; its buffer is full.
 * arrival_ns: the kernel's receive time of the completing frame on
 * CLOCK_MONOTONIC, LTTng's clock (the trace reader puts it on the events' time
 * axis), to join with the same frame in a packet capture.
 */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma, txn_complete,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint32_t, txn_id, uint16_t, buffer, uint32_t, bytes,
			  uint8_t, opcode, uint32_t, flag_addr, uint16_t, frame_seq, uint64_t,
			  wait_receive_ns, uint64_t, arrival_ns),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint32_t, txn_id, txn_id)
		lttng_ust_field_integer(uint16_t, buffer, buffer)
		lttng_ust_field_integer(uint32_t, bytes, bytes)
		lttng_ust_field_integer(uint8_t, opcode, opcode)
		lttng_ust_field_integer_hex(uint32_t, flag_addr, flag_addr)
		lttng_ust_field_integer(uint16_t, frame_seq, frame_seq)
		lttng_ust_field_integer(uint64_t, wait_receive_ns, wait_receive_ns)
		lttng_ust_field_integer(uint64_t, arrival_ns, arrival_ns)))

LTTNG_UST_TRACEPOINT_EVENT_CLASS(dgrdma, buffer_class,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint16_t, buffer, uint32_t, txn_id),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint16_t, buffer, buffer)
		lttng_ust_field_integer(uint32_t, txn_id, txn_id)))

/* The consumer took a full buffer. */
LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(dgrdma, buffer_class, dgrdma, buffer_acquire,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint16_t, buffer, uint32_t, txn_id))

/*
 * The consumer gave the buffer back (its doorbell can now be queued). held_ns:
 * how long it held the buffer, from its clock reading when it took it to the
 * one when it gave it back, so that the acquire's time is this event's time
 * minus held_ns without buffer_acquire being recorded (dgrdma-capture's default
 * leaves buffer_acquire out: one event less before the doorbell leaves). Added
 * last: readers of the older three-field layout still find theirs.
 */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma, buffer_release,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint16_t, buffer, uint32_t, txn_id, uint64_t, held_ns),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint16_t, buffer, buffer)
		lttng_ust_field_integer(uint32_t, txn_id, txn_id)
		lttng_ust_field_integer(uint64_t, held_ns, held_ns)))

/* A doorbell answering txn_id was queued for the transmit path. */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma, doorbell_queued,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint16_t, buffer, uint32_t, txn_id,
			  uint32_t, flag_addr),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint16_t, buffer, buffer)
		lttng_ust_field_integer(uint32_t, txn_id, txn_id)
		lttng_ust_field_integer_hex(uint32_t, flag_addr, flag_addr)))

/*
 * The frame carrying that doorbell was handed to the socket: fired when the
 * send call returned, which took send_call_ns. The kernel sends (and a capture
 * on this host records) the frame inside that call, so the hand-over is the
 * event's time minus send_call_ns. latency_ns: the doorbell's in-host latency
 * as the stack measured it, from the kernel's receive of the frame that
 * completed the transaction (txn_complete's arrival_ns) to the send call's
 * return (dgrdma-host's latency_from_arrival_ns sample of this doorbell); a
 * field of its own so that an LTTng trigger's filter can read it. Added last:
 * readers of the older six-field layout still find theirs.
 * since_release_ns, held_ns, consumer_tid: the consumer's side of the same
 * buffer (its release was since_release_ns before the send call's return, after
 * holding the buffer held_ns; consumer_tid its thread, 0 when unknown), so that
 * the default recording needs no event on the consumer's thread
 * (docs/tracepoints.md). Added after latency_ns, for the same reason.
 * since_complete_ns: the stack's reading of the transaction's completion
 * (txn_complete's time) was that long before the send call's return, so that
 * the default recording needs no event on the receive thread either; 0: not
 * given (the preload library fires its own txn_complete). Added last.
 */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma, doorbell_sent,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint16_t, buffer, uint32_t, txn_id,
			  uint32_t, flag_addr, uint16_t, frame_seq, uint32_t, send_call_ns,
			  uint64_t, latency_ns, const struct dgr_tp_bell_sides *, sides),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint16_t, buffer, buffer)
		lttng_ust_field_integer(uint32_t, txn_id, txn_id)
		lttng_ust_field_integer_hex(uint32_t, flag_addr, flag_addr)
		lttng_ust_field_integer(uint16_t, frame_seq, frame_seq)
		lttng_ust_field_integer(uint32_t, send_call_ns, send_call_ns)
		lttng_ust_field_integer(uint64_t, latency_ns, latency_ns)
		lttng_ust_field_integer(uint64_t, since_release_ns, sides->since_release_ns)
		lttng_ust_field_integer(uint64_t, held_ns, sides->held_ns)
		lttng_ust_field_integer(int32_t, consumer_tid, sides->consumer_tid)
		lttng_ust_field_integer(uint64_t, since_complete_ns, sides->since_complete_ns)))

/* TX path: a doorbell (a returned credit) arrived from the FPGA. */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma, doorbell_rx,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint16_t, buffer, uint32_t, flag_addr,
			  uint16_t, frame_seq),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint16_t, buffer, buffer)
		lttng_ust_field_integer_hex(uint32_t, flag_addr, flag_addr)
		lttng_ust_field_integer(uint16_t, frame_seq, frame_seq)))

/* TX path: the last frame of a transaction was handed to the socket. */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma, txn_sent,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint32_t, txn_id, uint16_t, buffer, uint32_t, bytes,
			  uint16_t, frame_seq),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint32_t, txn_id, txn_id)
		lttng_ust_field_integer(uint16_t, buffer, buffer)
		lttng_ust_field_integer(uint32_t, bytes, bytes)
		lttng_ust_field_integer(uint16_t, frame_seq, frame_seq)))

LTTNG_UST_TRACEPOINT_EVENT_CLASS(dgrdma, ack_class,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint16_t, ack_start, uint8_t, ack_count),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint16_t, ack_start, ack_start)
		lttng_ust_field_integer(uint8_t, ack_count, ack_count)))

/* ACKs of our frames, as received / as sent. */
LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(dgrdma, ack_class, dgrdma, ack_rx,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint16_t, ack_start, uint8_t, ack_count))
LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(dgrdma, ack_class, dgrdma, ack_tx,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint16_t, ack_start, uint8_t, ack_count))

/* A frame is resent; attempt counts from 1. */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma, retransmit,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint16_t, frame_seq, uint16_t, attempt),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint16_t, frame_seq, frame_seq)
		lttng_ust_field_integer(uint16_t, attempt, attempt)))

/* A received frame was rejected; reason is the positive DGR_E_* code. */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma, malformed,
	LTTNG_UST_TP_ARGS(uint16_t, conn, int32_t, reason, uint32_t, bytes),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(int32_t, reason, reason)
		lttng_ust_field_integer(uint32_t, bytes, bytes)))

/* The kernel dropped packets for this socket (new drops since the last report, total). */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma, socket_drop,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint64_t, drops, uint64_t, total),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint64_t, drops, drops)
		lttng_ust_field_integer(uint64_t, total, total)))

/*
 * Periodic snapshot of a connection's counters: one u64 field per member of
 * struct dgr_conn_stats, same names, same order (generated from DGR_CONN_STATS_FIELDS).
 */
#define DGRDMA_TP_STATS_FIELD(name) lttng_ust_field_integer(uint64_t, name, stats->name)
LTTNG_UST_TRACEPOINT_EVENT(dgrdma, counters,
	LTTNG_UST_TP_ARGS(uint16_t, conn, const struct dgr_conn_stats *, stats),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		DGR_CONN_STATS_FIELDS(DGRDMA_TP_STATS_FIELD)))

/*
 * The connection's stream facts as configured: direction (enum dgr_direction: 0 rx, 1 tx,
 * 2 both), host buffers (H), their size (S) and the FPGA's buffers (E) as the host was told.
 * Fired when the connection starts and with every counters snapshot, so that a live view
 * attaching late has them within one period; latency-report takes the tolerable latency's
 * facts from it when the options and run.json do not give them.
 */
LTTNG_UST_TRACEPOINT_EVENT(dgrdma, stream_config,
	LTTNG_UST_TP_ARGS(uint16_t, conn, uint8_t, direction, uint16_t, buffers,
			  uint32_t, buffer_size, uint16_t, peer_buffers),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint16_t, conn, conn)
		lttng_ust_field_integer(uint8_t, direction, direction)
		lttng_ust_field_integer(uint16_t, buffers, buffers)
		lttng_ust_field_integer(uint32_t, buffer_size, buffer_size)
		lttng_ust_field_integer(uint16_t, peer_buffers, peer_buffers)))

/* clang-format on */

#endif /* DGRDMA_TP_H */

#include <lttng/tracepoint-event.h>

#endif /* DGR_NO_TRACE */
