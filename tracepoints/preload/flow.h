/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What libdgrdma-preload makes of the frames an unmodified host sends and
 * receives: one flow per recognised socket, decoded with the project's codec
 * and reassembler, turned into the "dgrdma" provider's events
 * (tracepoints/dgrdma-tp.h) so that latency-report's in-host analysis reads a
 * traced program as it reads dgrdma-host.
 *
 * The host's memory layout is unknown here, so a buffer is named by the order
 * in which its flag address was first seen (docs/tracepoints.md, "Tracing an
 * unmodified host"); a doorbell answers the oldest completed transaction not
 * yet answered, as on the wire (docs/protocol.md section 3).
 *
 * Memory is allocated by pl_flow_new() only; decoding never allocates. Every
 * call locks the flow, so a host may receive and send on one socket from
 * different threads.
 */
#ifndef DGR_PRELOAD_FLOW_H
#define DGR_PRELOAD_FLOW_H

#include <stddef.h>
#include <stdint.h>

struct pl_flow;

/*
 * Creates a flow for connection number conn (the conn field of its events).
 * Returns NULL when memory runs out.
 */
struct pl_flow *pl_flow_new(uint16_t conn);

/* Forgets every transaction and buffer of the flow and renumbers it conn (socket reused). */
void pl_flow_reset(struct pl_flow *f, uint16_t conn);

/*
 * One DG-RDMA frame (frame header onwards, len bytes) the host received.
 * arrival_ns: the kernel's receive time on CLOCK_MONOTONIC, or the time the
 * receive call returned when the kernel's is not known; now_ns: that return.
 */
void pl_flow_rx(struct pl_flow *f, const uint8_t *frame, size_t len, uint64_t arrival_ns,
		uint64_t now_ns);

/*
 * One DG-RDMA frame the host is about to hand to the kernel. The events fire
 * now, before the send call: their time is the hand-over itself, so it lies
 * before the frame's time on the wire whatever the scheduler does (a time read
 * after the call would not: the thread may be preempted between the call's
 * return and the event). doorbell_sent's send_call_ns is therefore 0, and its
 * latency_ns runs from the arrival of the frame that completed the answered
 * transaction to now (0 when the doorbell answers none known).
 */
void pl_flow_tx(struct pl_flow *f, const uint8_t *frame, size_t len);

/*
 * One DCP packet (after the ethertype, len bytes) the host is about to hand
 * to the kernel. A write request to an address in [bell_lo, bell_hi] is a
 * doorbell sent as a DCP property write (docs/fpga.md, the doorbell property): its
 * doorbell_sent fires as pl_flow_tx()'s do, with the address as flag_addr
 * and frame_seq 0. Any other packet is left alone.
 */
void pl_flow_dcp_tx(struct pl_flow *f, const uint8_t *pkt, size_t len, uint32_t bell_lo,
		    uint32_t bell_hi);

#endif
