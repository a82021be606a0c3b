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
 * A doorbell sent as a DCP property write may leave on a socket of its own
 * (OpenCPI's control plane has its own driver): it answers the transactions
 * of the flows that received DG-RDMA frames from the peer the write goes to
 * (pl_flow_dcp_tx()).
 *
 * Memory is allocated by pl_flow_new() only, and a flow is never freed
 * (another thread may still be in a call on it, and a DCP doorbell looks
 * through every flow); decoding never allocates. Every call locks the flow,
 * and never holds two flows' locks at once, so a host may receive and send on
 * one socket, or on a data socket and a DCP socket, from different threads.
 */
#ifndef DGR_PRELOAD_FLOW_H
#define DGR_PRELOAD_FLOW_H

#include <stddef.h>
#include <stdint.h>

struct pl_flow;

/*
 * Who a frame comes from or goes to: a MAC address (len 6; raw Ethernet) or an
 * IPv4 (4) or IPv6 (16) address (UDP, the port left out); len 0 when the call
 * does not say.
 */
struct pl_peer {
	uint8_t len;
	uint8_t addr[16];
};

/*
 * Creates a flow for connection number conn (the conn field of its events).
 * Returns NULL when memory runs out.
 */
struct pl_flow *pl_flow_new(uint16_t conn);

/*
 * Forgets every transaction, buffer and peer of the flow and renumbers it
 * conn (socket reused).
 */
void pl_flow_reset(struct pl_flow *f, uint16_t conn);

/*
 * The socket closed: its flow matches no peer until pl_flow_reset(), so a
 * DCP doorbell never answers a stream that has ended.
 */
void pl_flow_close(struct pl_flow *f);

/*
 * The address the socket is connected to (UDP connect()), taken as the peer
 * of the frames whose call names none; len 0 forgets it.
 */
void pl_flow_connect(struct pl_flow *f, const struct pl_peer *peer);

/*
 * One DG-RDMA frame (frame header onwards, len bytes) the host received from
 * from (len 0: the connected address, else not known). A well-formed
 * frame makes its sender one of the flow's peers (the first 4 kept).
 * arrival_ns: the kernel's receive time on CLOCK_MONOTONIC, or the time the
 * receive call returned when the kernel's is not known; now_ns: that return.
 */
void pl_flow_rx(struct pl_flow *f, const uint8_t *frame, size_t len, const struct pl_peer *from,
		uint64_t arrival_ns, uint64_t now_ns);

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
 * to the kernel on the socket of flow f, to peer to (len 0: the connected
 * address, else not known). A write request to an address in
 * [bell_lo, bell_hi] is a doorbell sent as a DCP property write (docs/fpga.md,
 * the doorbell property): its doorbell_sent fires as pl_flow_tx()'s do, with
 * the address as flag_addr and frame_seq 0. Any other packet is left alone.
 *
 * The doorbell answers the oldest completed transaction not yet answered
 * (earliest arrival) among the flows that have to as a peer, f among them
 * when f knows no peer; with to not known, among f's own. Its event then
 * carries that flow's conn. When none of them owes a doorbell it answers
 * nothing: txn_id 0xFFFFFFFF, buffer 0xFFFF, f's conn (latency-report counts
 * it among the orphan doorbells).
 */
void pl_flow_dcp_tx(struct pl_flow *f, const uint8_t *pkt, size_t len, uint32_t bell_lo,
		    uint32_t bell_hi, const struct pl_peer *to);

#endif
