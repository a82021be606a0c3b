// SPDX-License-Identifier: GPL-2.0-or-later
/* One captured frame decoded once (see frame_decode.h). */
#include <string.h>

#include <pcap/dlt.h>

#include <dgrdma/wire.h>

#include "frame_decode.h"

#define ETHERTYPE_IPV4	   0x0800
#define ETHERTYPE_IPV6	   0x86DD
#define ETHERTYPE_VLAN	   0x8100
#define ETHERTYPE_QINQ	   0x88A8
#define ETHERTYPE_QINQ_OLD 0x9100
#define ETH_HDR_LEN	   14
#define SLL_HDR_LEN	   16
#define SLL2_HDR_LEN	   20
#define LOOPBACK_HDR_LEN   4
#define IPPROTO_UDP_NUM	   17
#define IP4_MIN_HDR_LEN	   20
#define IP6_HDR_LEN	   40
#define UDP_HDR_LEN	   8
/* IPv6 extension headers skipped on the way to UDP */
#define IP6_NH_HOP_BY_HOP 0
#define IP6_NH_ROUTING	  43
#define IP6_NH_DST_OPTS	  60
#define IP6_NH_FRAGMENT	  44

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

bool fd_port_ours(const struct fd_ports *ports, uint16_t port)
{
	unsigned int i;

	if (port == DGR_UDP_PORT) {
		return true;
	}
	for (i = 0; ports && i < ports->n; i++) {
		if (ports->port[i] == port) {
			return true;
		}
	}
	return false;
}

bool fd_link_supported(int dlt)
{
	return dlt == DLT_EN10MB || dlt == DLT_LINUX_SLL || dlt == DLT_LINUX_SLL2 ||
	       dlt == DLT_RAW || dlt == DLT_IPV4 || dlt == DLT_IPV6 || dlt == DLT_NULL ||
	       dlt == DLT_LOOP;
}

static void set_view(struct fd_view *v, const uint8_t *p, size_t cap, size_t len)
{
	v->p = p;
	v->cap = cap;
	v->len = len;
}

static void other(struct frame_decoded *f)
{
	f->kind = FD_OTHER;
}

static void malformed(struct frame_decoded *f, int reason)
{
	f->kind = FD_MALFORMED;
	f->reason = reason;
}

/*
 * A UDP datagram at u (cap bytes captured, cap >= 8) inside an IP packet
 * whose payload (UDP header and data) is avail bytes long by the IP header,
 * at most wire_left of them on the wire.
 */
static void decode_udp(struct frame_decoded *f, const uint8_t *u, size_t cap, size_t avail,
		       size_t wire_left, const struct fd_ports *ports)
{
	const uint8_t *body;
	size_t body_cap, len;
	uint16_t ulen = be16(u + 4);
	int kind;

	f->udp = true;
	f->sport = be16(u);
	f->dport = be16(u + 2);
	if (!fd_port_ours(ports, f->sport) && !fd_port_ours(ports, f->dport)) {
		/* the stack takes any port: the analysis says which ones carry what looks like ours
		 */
		f->kind = FD_FOREIGN_UDP;
		f->foreign_whole = ulen >= UDP_HDR_LEN && ulen <= avail && cap >= ulen;
		if (f->foreign_whole) {
			set_view(&f->payload, u + UDP_HDR_LEN, (size_t)ulen - UDP_HDR_LEN,
				 (size_t)ulen - UDP_HDR_LEN);
		}
		return;
	}
	if (avail > wire_left) {
		avail = wire_left;
	}
	if (ulen < UDP_HDR_LEN || ulen > avail) {
		malformed(f, -DGR_E_UDP_SHORT);
		return;
	}
	eng_addr_set_port(&f->src, f->sport);
	eng_addr_set_port(&f->dst, f->dport);
	cap -= UDP_HDR_LEN;
	len = (size_t)ulen - UDP_HDR_LEN;
	if (cap > len) {
		cap = len;
	}
	/* the codec's pad rule: pad 0 carries DG-RDMA, 0xF040 DCP, any other neither */
	kind = dgr_udp_demux(u + UDP_HDR_LEN, cap, &body, &body_cap);
	if (kind < 0) {
		malformed(f, -DGR_E_UDP_SHORT);
		return;
	}
	if (kind == DGR_UDP_UNKNOWN) {
		other(f); /* the stack drops it too */
		return;
	}
	f->kind = kind == DGR_UDP_DCP ? FD_DCP : FD_DGRDMA;
	set_view(&f->payload, body, body_cap, len - DGR_UDP_PAD_LEN);
}

/*
 * An IP fragment of a UDP datagram: len bytes at data, all captured when
 * captured. One cut by the snap length cannot be put back: an other frame.
 */
static void decode_fragment(struct frame_decoded *f, const uint8_t *data, size_t len, bool captured)
{
	if (!captured) {
		other(f);
		return;
	}
	f->kind = FD_IP_FRAGMENT;
	set_view(&f->payload, data, len, len);
}

static void decode_ipv4(struct frame_decoded *f, const uint8_t *p, size_t cap, size_t len,
			const struct fd_ports *ports)
{
	size_t ihl, tot;
	uint16_t frag;

	if (cap < IP4_MIN_HDR_LEN || (p[0] >> 4) != 4 || p[9] != IPPROTO_UDP_NUM) {
		other(f);
		return;
	}
	ihl = (size_t)(p[0] & 0x0F) * 4;
	tot = be16(p + 2);
	frag = be16(p + 6);
	if (ihl < IP4_MIN_HDR_LEN || cap < ihl || tot < ihl) {
		other(f);
		return;
	}
	f->net = FD_NET_IPV4;
	eng_addr_ipv4(&f->src, p + 12, 0);
	eng_addr_ipv4(&f->dst, p + 16, 0);
	if (frag & 0x3FFF) {
		/* more fragments, or an offset: the datagram is put back together first */
		memset(&f->frag.key, 0, sizeof(f->frag.key));
		f->frag.key.version = 4;
		f->frag.key.proto = IPPROTO_UDP_NUM;
		f->frag.key.id = be16(p + 4);
		memcpy(f->frag.key.src, p + 12, 4);
		memcpy(f->frag.key.dst, p + 16, 4);
		f->frag.off = (size_t)(frag & 0x1FFF) * 8;
		f->frag.more = (frag & 0x2000) != 0;
		decode_fragment(f, p + ihl, tot - ihl, cap >= tot);
		return;
	}
	if (cap < ihl + UDP_HDR_LEN || tot < ihl + UDP_HDR_LEN) {
		other(f);
		return;
	}
	decode_udp(f, p + ihl, cap - ihl, tot - ihl, len - ihl, ports);
}

static void decode_ipv6(struct frame_decoded *f, const uint8_t *p, size_t cap, size_t len,
			const struct fd_ports *ports)
{
	size_t off = IP6_HDR_LEN, payload, frag_off;
	uint8_t next;
	uint16_t frag_field = 0;
	uint32_t frag_id = 0;
	bool fragment = false;

	if (cap < IP6_HDR_LEN || (p[0] >> 4) != 6) {
		other(f);
		return;
	}
	payload = be16(p + 4);
	next = p[6];
	while (next == IP6_NH_HOP_BY_HOP || next == IP6_NH_ROUTING || next == IP6_NH_DST_OPTS ||
	       next == IP6_NH_FRAGMENT) {
		if (cap < off + 8) {
			other(f);
			return;
		}
		if (next == IP6_NH_FRAGMENT) {
			fragment = true;
			frag_field = be16(p + off + 2);
			frag_id = be32(p + off + 4);
			next = p[off];
			off += 8;
			break; /* what follows is the fragmentable part */
		}
		next = p[off];
		off += ((size_t)p[off + 1] + 1) * 8;
	}
	if (next != IPPROTO_UDP_NUM || IP6_HDR_LEN + payload < off) {
		other(f);
		return;
	}
	f->net = FD_NET_IPV6;
	eng_addr_ipv6(&f->src, p + 8, 0);
	eng_addr_ipv6(&f->dst, p + 24, 0);
	frag_off = frag_field & 0xFFF8;
	if (fragment && (frag_off || (frag_field & 1))) {
		memset(&f->frag.key, 0, sizeof(f->frag.key));
		f->frag.key.version = 6;
		f->frag.key.proto = IPPROTO_UDP_NUM;
		f->frag.key.id = frag_id;
		memcpy(f->frag.key.src, p + 8, 16);
		memcpy(f->frag.key.dst, p + 24, 16);
		f->frag.off = frag_off;
		f->frag.more = (frag_field & 1) != 0;
		decode_fragment(f, p + off, IP6_HDR_LEN + payload - off,
				cap >= IP6_HDR_LEN + payload);
		return;
	}
	if (cap < off + UDP_HDR_LEN || IP6_HDR_LEN + payload < off + UDP_HDR_LEN) {
		other(f);
		return;
	}
	decode_udp(f, p + off, cap - off, IP6_HDR_LEN + payload - off, len - off, ports);
}

/* An IP packet of either version (DLT_RAW, loopback): the version nibble decides. */
static void decode_ip(struct frame_decoded *f, const uint8_t *p, size_t cap, size_t len,
		      const struct fd_ports *ports)
{
	if (cap >= 1 && (p[0] >> 4) == 6) {
		decode_ipv6(f, p, cap, len, ports);
	} else {
		decode_ipv4(f, p, cap, len, ports);
	}
}

/*
 * After the link layer: an ethertype and its payload (f's addresses are the
 * link's). Inline in each link's decoder: once per frame, a call costs as much.
 */
static inline __attribute__((always_inline)) void decode_ethertype(struct frame_decoded *f,
								   uint16_t type, const uint8_t *p,
								   size_t cap, size_t len,
								   const struct fd_ports *ports)
{
	f->ethertype = type;
	switch (type) {
	case DGR_ETHERTYPE_DGRDMA:
		f->kind = FD_DGRDMA;
		set_view(&f->payload, p, cap, len);
		break;
	case DGR_ETHERTYPE_DCP:
		f->kind = FD_DCP;
		set_view(&f->payload, p, cap, len);
		break;
	case ETHERTYPE_IPV4:
		decode_ipv4(f, p, cap, len, ports);
		break;
	case ETHERTYPE_IPV6:
		decode_ipv6(f, p, cap, len, ports);
		break;
	default:
		other(f);
		break;
	}
}

static void decode_ether(struct frame_decoded *f, const uint8_t *p, size_t cap, size_t len,
			 const struct fd_ports *ports)
{
	size_t off = 12;
	uint16_t type;

	if (cap < ETH_HDR_LEN) {
		other(f);
		return;
	}
	eng_addr_mac(&f->dst, p);
	eng_addr_mac(&f->src, p + 6);
	type = be16(p + off);
	while (type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ || type == ETHERTYPE_QINQ_OLD) {
		off += 4;
		if (cap < off + 2) {
			other(f);
			return;
		}
		if (!f->vlan_tags++) {
			f->vlan_id = be16(p + off - 2) & 0x0FFF;
		}
		type = be16(p + off);
	}
	off += 2;
	decode_ethertype(f, type, p + off, cap - off, len - off, ports);
}

/* Linux cooked capture: only the sender's address is known, so both are left unknown. */
static void decode_sll(struct frame_decoded *f, const uint8_t *p, size_t cap, size_t len, bool v2,
		       const struct fd_ports *ports)
{
	size_t hdr = v2 ? SLL2_HDR_LEN : SLL_HDR_LEN;

	if (cap < hdr) {
		other(f);
		return;
	}
	decode_ethertype(f, be16(p + (v2 ? 0 : 14)), p + hdr, cap - hdr, len - hdr, ports);
}

/* An Ethernet frame's length from a capture's record of it (cooked: its header for Ethernet's). */
static uint32_t ether_frame_len(size_t hdr, size_t len)
{
	if (len < hdr || len - hdr + ETH_HDR_LEN > UINT32_MAX) {
		return 0;
	}
	return (uint32_t)(len - hdr + ETH_HDR_LEN);
}

static void clear(struct frame_decoded *f)
{
	f->kind = FD_OTHER;
	f->reason = 0;
	f->vlan_tags = 0;
	f->vlan_id = 0;
	f->ethertype = 0;
	f->net = FD_NET_NONE;
	memset(&f->src, 0, sizeof(f->src));
	memset(&f->dst, 0, sizeof(f->dst));
	f->udp = false;
	f->sport = 0;
	f->dport = 0;
	set_view(&f->payload, NULL, 0, 0);
	f->foreign_whole = false;
	f->frame_len = 0;
}

void frame_decode(struct frame_decoded *f, int dlt, const uint8_t *data, size_t caplen, size_t len,
		  const struct fd_ports *ports)
{
	clear(f);
	if (len < caplen) {
		len = caplen;
	}
	switch (dlt) {
	case DLT_EN10MB:
		f->link = FD_LINK_ETHERNET;
		f->frame_len = ether_frame_len(ETH_HDR_LEN, len);
		decode_ether(f, data, caplen, len, ports);
		break;
	case DLT_LINUX_SLL:
		f->link = FD_LINK_SLL;
		f->frame_len = ether_frame_len(SLL_HDR_LEN, len);
		decode_sll(f, data, caplen, len, false, ports);
		break;
	case DLT_LINUX_SLL2:
		f->link = FD_LINK_SLL2;
		f->frame_len = ether_frame_len(SLL2_HDR_LEN, len);
		decode_sll(f, data, caplen, len, true, ports);
		break;
	case DLT_NULL:
	case DLT_LOOP:
		f->link = FD_LINK_LOOPBACK;
		if (caplen < LOOPBACK_HDR_LEN) {
			other(f);
		} else {
			decode_ip(f, data + LOOPBACK_HDR_LEN, caplen - LOOPBACK_HDR_LEN,
				  len - LOOPBACK_HDR_LEN, ports);
		}
		break;
	case DLT_IPV4:
		f->link = FD_LINK_RAW;
		decode_ipv4(f, data, caplen, len, ports);
		break;
	case DLT_IPV6:
		f->link = FD_LINK_RAW;
		decode_ipv6(f, data, caplen, len, ports);
		break;
	default: /* DLT_RAW: either version */
		f->link = FD_LINK_RAW;
		decode_ip(f, data, caplen, len, ports);
		break;
	}
}

void frame_decode_datagram(struct frame_decoded *f, const uint8_t *data, size_t len,
			   const struct fd_ports *ports)
{
	f->reason = 0;
	set_view(&f->payload, NULL, 0, 0);
	if (len < UDP_HDR_LEN) {
		other(f); /* no room for a UDP header */
		return;
	}
	decode_udp(f, data, len, len, len, ports);
}
