/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One captured frame decoded once: the bytes of a frame of a capture's link
 * type into what the wire analysis needs of it (struct frame_decoded), in one
 * forward pass through the link layer (Ethernet with any number of VLAN tags,
 * Linux cooked v1 and v2, BSD loopback, raw IP), the network layer (IPv4,
 * IPv6 with hop-by-hop, routing and destination options headers skipped) and
 * UDP (DG-RDMA and DCP on DGR_UDP_PORT and the ports given, split by the
 * codec's pad rule, dgr_udp_demux()).
 *
 * Pure: no allocation, no state, nothing written but the result, and never a
 * byte read outside the captured ones. An IP fragment is described, not put
 * back together (ip_defrag.c); the datagram it completes is decoded by
 * frame_decode_datagram(), with the same rules. The way of a frame through
 * the capture input: pcap_input.c (docs/analysis.md, "Capture input").
 */
#ifndef DGR_ANALYSIS_FRAME_DECODE_H
#define DGR_ANALYSIS_FRAME_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "conn_table.h"
#include "ip_defrag.h"

/* The link layer a frame came in. */
enum fd_link {
	FD_LINK_ETHERNET, /* addresses: the MACs */
	FD_LINK_SLL,	  /* Linux cooked v1: addresses unknown (the sender's only, not used) */
	FD_LINK_SLL2,	  /* Linux cooked v2: likewise */
	FD_LINK_LOOPBACK, /* BSD loopback (DLT_NULL, DLT_LOOP): a 4-byte family, then IP */
	FD_LINK_RAW,	  /* raw IP (DLT_RAW, DLT_IPV4, DLT_IPV6) */
};

/* The network layer above it. */
enum fd_net {
	FD_NET_NONE, /* none: DG-RDMA and DCP right on the ethertype */
	FD_NET_IPV4,
	FD_NET_IPV6,
};

/* What the frame is, for the wire analysis. */
enum fd_kind {
	FD_OTHER,	/* neither DG-RDMA nor DCP, or too short to tell (counted as other) */
	FD_MALFORMED,	/* a UDP datagram on our ports the stack would drop: reason */
	FD_DGRDMA,	/* a DG-RDMA frame: payload */
	FD_DCP,		/* a DCP packet: payload */
	FD_FOREIGN_UDP, /* UDP on ports neither of which is ours: sport, dport, payload */
	FD_IP_FRAGMENT, /* a whole captured IP fragment of a UDP datagram: frag, payload */
};

/* Bytes of a layer's payload: cap of them captured at p, len on the wire (cap <= len). */
struct fd_view {
	const uint8_t *p;
	size_t cap, len;
};

/* The UDP ports that carry DG-RDMA and DCP: DGR_UDP_PORT always, and these n. */
struct fd_ports {
	const uint16_t *port;
	unsigned int n;
};

struct frame_decoded {
	enum fd_kind kind;
	int reason; /* FD_MALFORMED: a negative DGR_E_* code (DGR_E_UDP_SHORT) */
	enum fd_link link;
	unsigned int vlan_tags; /* 802.1Q / 802.1ad tags skipped (Ethernet) */
	uint16_t vlan_id;	/* the outer tag's VLAN id (vlan_tags > 0) */
	uint16_t ethertype;	/* Ethernet and cooked: the type after the tags; else 0 */
	enum fd_net net;
	/*
	 * The frame's addresses: MACs on Ethernet without IP, unknown (all
	 * zero) in a cooked capture without IP, else the IP addresses, with the
	 * UDP ports once the datagram is ours (FD_DGRDMA, FD_DCP over UDP).
	 */
	struct eng_addr src, dst;
	bool udp; /* a UDP header was read: sport, dport */
	uint16_t sport, dport;
	/*
	 * FD_DGRDMA, FD_DCP: the frame or packet (after the UDP pad over UDP).
	 * FD_FOREIGN_UDP: the datagram's payload (pad included) when foreign_whole,
	 * else p NULL. FD_IP_FRAGMENT: the fragment's bytes, all captured.
	 */
	struct fd_view payload;
	bool foreign_whole; /* FD_FOREIGN_UDP: the UDP length fits the IP packet and was captured */
	struct {
		struct ip_defrag_key key;
		size_t off; /* its byte offset in the datagram */
		bool more;  /* more fragments follow */
	} frag;		    /* FD_IP_FRAGMENT */
	/* the Ethernet frame's length as the kernel's net_dev_xmit gives it (0: not Ethernet) */
	uint32_t frame_len;
	uint64_t ts, ref; /* the caller's: the capture time in ns and the frame's number */
};

/* Whether port carries DG-RDMA and DCP: DGR_UDP_PORT, or one of ports (NULL: none). */
bool fd_port_ours(const struct fd_ports *ports, uint16_t port);

/* True for the link types frame_decode() takes apart. */
bool fd_link_supported(int dlt);

/*
 * Decodes one captured frame of link type dlt (fd_link_supported(); any
 * other is read as raw IP): caplen bytes at data, len on the wire (a len
 * below caplen is taken as caplen). ports: the UDP ports that carry DG-RDMA
 * and DCP (NULL: DGR_UDP_PORT only). Fills every field of *f but ts and ref,
 * which it leaves as they are. The views point into data. Never fails: what
 * cannot be read is FD_OTHER, a datagram on our ports the stack drops
 * FD_MALFORMED.
 */
void frame_decode(struct frame_decoded *f, int dlt, const uint8_t *data, size_t caplen, size_t len,
		  const struct fd_ports *ports);

/*
 * The UDP datagram (header and payload, len bytes, all captured at data) that
 * the fragment f (FD_IP_FRAGMENT) completed, decoded into f with the same
 * rules as a datagram that came whole: its link, network layer, addresses and
 * frame_len stay the fragment's. A datagram shorter than a UDP header is
 * FD_OTHER. The views point into data.
 */
void frame_decode_datagram(struct frame_decoded *f, const uint8_t *data, size_t len,
			   const struct fd_ports *ports);

#endif
