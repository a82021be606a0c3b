// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the capture input's decoder (analysis/input/frame_decode.c):
 * frames laid out byte by byte here, for every link type, VLAN tags, IPv4 and
 * IPv6 (extension headers, fragments), UDP on our ports and on others, the
 * pad rule, frames the snap length cut, and what is too short to tell.
 */
#include "frame_decode.h"
#include "../unit/tap.h"

#include <string.h>

#include <pcap/dlt.h>

#include <dgrdma/wire.h>

static uint8_t buf[2048];

static size_t put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
	return 2;
}

/* An Ethernet header from 02:00:00:00:00:02 to 02:00:00:00:00:01 of this type. */
static size_t eth(uint8_t *p, uint16_t type)
{
	static const uint8_t macs[12] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2 };

	memcpy(p, macs, sizeof(macs));
	return 12 + put16(p + 12, type);
}

/* An IPv4 header, 10.0.1.2 -> 10.0.0.1, total length tot, fragment field frag. */
static size_t ipv4(uint8_t *p, uint8_t proto, uint16_t tot, uint16_t id, uint16_t frag)
{
	static const uint8_t addrs[8] = { 10, 0, 1, 2, 10, 0, 0, 1 };

	memset(p, 0, 20);
	p[0] = 0x45;
	put16(p + 2, tot);
	put16(p + 4, id);
	put16(p + 6, frag);
	p[8] = 64;
	p[9] = proto;
	memcpy(p + 12, addrs, sizeof(addrs));
	return 20;
}

/* An IPv6 header, fd00::1:2 -> fd00::1, payload length plen, next header next. */
static size_t ipv6(uint8_t *p, uint16_t plen, uint8_t next)
{
	memset(p, 0, 40);
	p[0] = 0x60;
	put16(p + 4, plen);
	p[6] = next;
	p[7] = 64;
	p[8] = 0xfd;
	p[22] = 1;
	p[23] = 2;
	p[24] = 0xfd;
	p[39] = 1;
	return 40;
}

static size_t udp(uint8_t *p, uint16_t sport, uint16_t dport, uint16_t ulen)
{
	put16(p, sport);
	put16(p + 2, dport);
	put16(p + 4, ulen);
	put16(p + 6, 0);
	return 8;
}

/* A UDP payload of n bytes: the pad, then bytes 0xAB. */
static size_t payload(uint8_t *p, uint16_t pad, size_t n)
{
	memset(p, 0xAB, n);
	put16(p, pad);
	return n;
}

static struct frame_decoded f;

static void decode(int dlt, size_t cap, size_t len, const struct fd_ports *ports)
{
	memset(&f, 0x5A, sizeof(f)); /* every field the decoder fills must be filled */
	f.ts = 7;
	f.ref = 9;
	frame_decode(&f, dlt, buf, cap, len, ports);
}

static void link_layers(void)
{
	size_t n = eth(buf, DGR_ETHERTYPE_DGRDMA);

	memset(buf + n, 0, 46);
	decode(DLT_EN10MB, 60, 60, NULL);
	TAP_EQ_U(f.kind, FD_DGRDMA, "Ethernet 0xF042: DG-RDMA");
	tap_ok(f.link == FD_LINK_ETHERNET && f.net == FD_NET_NONE && !f.udp &&
		   f.ethertype == DGR_ETHERTYPE_DGRDMA && f.vlan_tags == 0,
	       "Ethernet 0xF042: link Ethernet, no network layer, no UDP, the ethertype");
	tap_ok(f.payload.p == buf + 14 && f.payload.cap == 46 && f.payload.len == 46,
	       "Ethernet: the payload after the 14-byte header, 46 bytes");
	tap_ok(f.src.kind == ENG_ADDR_MAC && f.src.b[5] == 2 && f.dst.kind == ENG_ADDR_MAC &&
		   f.dst.b[5] == 1,
	       "Ethernet: the addresses are the MACs, source and destination");
	TAP_EQ_U(f.frame_len, 60, "Ethernet: the frame's length");
	tap_ok(f.ts == 7 && f.ref == 9, "the caller's time and number are left as they were");

	decode(DLT_EN10MB, 40, 100, NULL);
	tap_ok(f.kind == FD_DGRDMA && f.payload.cap == 26 && f.payload.len == 86,
	       "Ethernet cut by the snap length: 26 bytes captured of 86");
	TAP_EQ_U(f.frame_len, 100, "a cut frame's length is the wire's");

	decode(DLT_EN10MB, 40, 30, NULL);
	tap_ok(f.payload.cap == 26 && f.payload.len == 26,
	       "a wire length below the captured one is the captured one");

	n = eth(buf, 0x88A8);
	n += put16(buf + n, 5);
	n += put16(buf + n, 0x8100);
	n += put16(buf + n, 7);
	n += put16(buf + n, DGR_ETHERTYPE_DCP);
	decode(DLT_EN10MB, 64, 64, NULL);
	tap_ok(f.kind == FD_DCP && f.vlan_tags == 2 && f.vlan_id == 5 && f.payload.p == buf + 22 &&
		   f.payload.cap == 42,
	       "two VLAN tags (802.1ad 5, 802.1Q 7), then 0xF040: DCP after 22 bytes, outer id 5");
	decode(DLT_EN10MB, 17, 64, NULL);
	TAP_EQ_U(f.kind, FD_OTHER, "a VLAN tag cut before its ethertype: other");
	decode(DLT_EN10MB, 13, 13, NULL);
	tap_ok(f.kind == FD_OTHER && f.frame_len == 0,
	       "13 bytes of Ethernet: other, no Ethernet length");

	eth(buf, 0x0806);
	decode(DLT_EN10MB, 60, 60, NULL);
	TAP_EQ_U(f.kind, FD_OTHER, "ARP: other");

	memset(buf, 0x11, 16);
	put16(buf + 14, DGR_ETHERTYPE_DGRDMA);
	decode(DLT_LINUX_SLL, 60, 60, NULL);
	tap_ok(f.kind == FD_DGRDMA && f.link == FD_LINK_SLL && f.payload.p == buf + 16 &&
		   f.src.kind == ENG_ADDR_UNKNOWN && f.src.b[0] == 0 &&
		   f.dst.kind == ENG_ADDR_UNKNOWN,
	       "Linux cooked v1: DG-RDMA after 16 bytes, addresses unknown and zero");
	TAP_EQ_U(f.frame_len, 58, "Linux cooked v1: the Ethernet length (60 - 16 + 14)");
	decode(DLT_LINUX_SLL, 15, 60, NULL);
	TAP_EQ_U(f.kind, FD_OTHER, "Linux cooked v1 shorter than its header: other");

	memset(buf, 0x11, 20);
	put16(buf, DGR_ETHERTYPE_DCP);
	decode(DLT_LINUX_SLL2, 40, 40, NULL);
	tap_ok(f.kind == FD_DCP && f.link == FD_LINK_SLL2 && f.payload.p == buf + 20 &&
		   f.frame_len == 34,
	       "Linux cooked v2: DCP after 20 bytes, Ethernet length 34");
}

static void udp_over_ipv4(void)
{
	static const uint16_t given[] = { 5000 };
	struct fd_ports ports = { given, 1 };
	size_t n = eth(buf, 0x0800);

	n += ipv4(buf + n, 17, 20 + 8 + 30, 1, 0);
	n += udp(buf + n, 40000, DGR_UDP_PORT, 8 + 30);
	payload(buf + n, 0, 30);
	decode(DLT_EN10MB, n + 30, n + 30, NULL);
	TAP_EQ_U(f.kind, FD_DGRDMA, "IPv4 UDP to 18078, pad 0: DG-RDMA");
	tap_ok(f.net == FD_NET_IPV4 && f.udp && f.sport == 40000 && f.dport == DGR_UDP_PORT,
	       "IPv4 UDP: network layer IPv4, the ports");
	tap_ok(f.payload.p == buf + n + 2 && f.payload.cap == 28 && f.payload.len == 28,
	       "IPv4 UDP: the frame after the 2-byte pad");
	tap_ok(f.src.kind == ENG_ADDR_IPV4 && f.src.b[3] == 2 && eng_addr_port(&f.src) == 40000 &&
		   eng_addr_port(&f.dst) == DGR_UDP_PORT && f.dst.b[3] == 1,
	       "IPv4 UDP: the addresses are the IP addresses with their ports");

	decode(DLT_EN10MB, n + 10, n + 30, NULL);
	tap_ok(f.kind == FD_DGRDMA && f.payload.cap == 8 && f.payload.len == 28,
	       "IPv4 UDP cut by the snap length: 8 bytes captured of 28");

	payload(buf + n, 0xF040, 30);
	decode(DLT_EN10MB, n + 30, n + 30, NULL);
	TAP_EQ_U(f.kind, FD_DCP, "pad 0xF040: DCP");
	payload(buf + n, 0x1234, 30);
	decode(DLT_EN10MB, n + 30, n + 30, NULL);
	TAP_EQ_U(f.kind, FD_OTHER, "any other pad: other");

	udp(buf + n - 8, 40000, DGR_UDP_PORT, 8 + 40);
	payload(buf + n, 0, 30);
	decode(DLT_EN10MB, n + 30, n + 30, NULL);
	tap_ok(f.kind == FD_MALFORMED && f.reason == -DGR_E_UDP_SHORT,
	       "a UDP length past the IP packet on our port: malformed, UDP_SHORT");
	udp(buf + n - 8, 40000, DGR_UDP_PORT, 9);
	decode(DLT_EN10MB, n + 30, n + 30, NULL);
	tap_ok(f.kind == FD_MALFORMED && f.reason == -DGR_E_UDP_SHORT,
	       "one byte of UDP payload on our port (no room for the pad): malformed, UDP_SHORT");

	udp(buf + n - 8, 5001, 5000, 8 + 30);
	decode(DLT_EN10MB, n + 30, n + 30, NULL);
	tap_ok(f.kind == FD_FOREIGN_UDP && f.foreign_whole && f.sport == 5001 && f.dport == 5000,
	       "UDP on ports not ours: foreign, whole, its ports");
	tap_ok(f.payload.p == buf + n && f.payload.len == 30 && f.payload.cap == 30,
	       "foreign UDP: the whole UDP payload, pad included");
	decode(DLT_EN10MB, n + 29, n + 30, NULL);
	tap_ok(f.kind == FD_FOREIGN_UDP && !f.foreign_whole && f.payload.p == NULL,
	       "foreign UDP cut by the snap length: not whole, no payload");
	decode(DLT_EN10MB, n + 30, n + 30, &ports);
	tap_ok(f.kind == FD_DGRDMA && eng_addr_port(&f.dst) == 5000,
	       "the same datagram with port 5000 given: DG-RDMA");
	tap_ok(fd_port_ours(&ports, 5000) && fd_port_ours(&ports, DGR_UDP_PORT) &&
		   !fd_port_ours(&ports, 5001) && fd_port_ours(NULL, DGR_UDP_PORT),
	       "ours: 18078 always, and the ports given");

	ipv4(buf + 14, 6, 20 + 8 + 30, 1, 0);
	decode(DLT_EN10MB, n + 30, n + 30, NULL);
	TAP_EQ_U(f.kind, FD_OTHER, "IPv4 TCP: other");
	ipv4(buf + 14, 17, 20 + 7, 1, 0);
	decode(DLT_EN10MB, n + 30, n + 30, NULL);
	TAP_EQ_U(f.kind, FD_OTHER, "an IPv4 packet too short for a UDP header: other");
	buf[14] = 0x44;
	decode(DLT_EN10MB, n + 30, n + 30, NULL);
	TAP_EQ_U(f.kind, FD_OTHER, "an IPv4 header length below 20: other");

	/* BSD loopback and raw IP: the same packet without Ethernet */
	n = 4;
	memset(buf, 0, 4);
	buf[0] = 2;
	n += ipv4(buf + n, 17, 20 + 8 + 30, 1, 0);
	n += udp(buf + n, 40000, DGR_UDP_PORT, 8 + 30);
	payload(buf + n, 0, 30);
	decode(DLT_NULL, n + 30, n + 30, NULL);
	tap_ok(f.kind == FD_DGRDMA && f.link == FD_LINK_LOOPBACK && f.frame_len == 0 &&
		   f.payload.p == buf + n + 2,
	       "BSD loopback: IPv4 UDP after the 4-byte family, no Ethernet length");
	decode(DLT_NULL, 3, 3, NULL);
	TAP_EQ_U(f.kind, FD_OTHER, "BSD loopback shorter than its family: other");
	memmove(buf, buf + 4, n + 30 - 4);
	decode(DLT_RAW, n + 26, n + 26, NULL);
	tap_ok(f.kind == FD_DGRDMA && f.link == FD_LINK_RAW && f.net == FD_NET_IPV4,
	       "raw IP, version 4: DG-RDMA");
}

static void fragments(void)
{
	size_t n = eth(buf, 0x0800), whole_len = 8 + 30;
	uint8_t whole[64];

	udp(whole, 40000, DGR_UDP_PORT, (uint16_t)whole_len);
	payload(whole + 8, 0, 30);
	/* the first 24 bytes of the datagram, more fragments to come */
	n += ipv4(buf + n, 17, 20 + 24, 77, 0x2000);
	memcpy(buf + n, whole, 24);
	decode(DLT_EN10MB, n + 24, n + 24, NULL);
	TAP_EQ_U(f.kind, FD_IP_FRAGMENT, "IPv4 with more fragments: a fragment");
	tap_ok(f.frag.key.version == 4 && f.frag.key.proto == 17 && f.frag.key.id == 77 &&
		   f.frag.key.src[3] == 2 && f.frag.key.dst[3] == 1 && f.frag.off == 0 &&
		   f.frag.more,
	       "the fragment's key (version, protocol, id, addresses), offset 0, more");
	tap_ok(f.payload.p == buf + n && f.payload.cap == 24 && f.payload.len == 24,
	       "the fragment's bytes: the IP payload");
	decode(DLT_EN10MB, n + 23, n + 24, NULL);
	TAP_EQ_U(f.kind, FD_OTHER, "a fragment cut by the snap length: other");

	ipv4(buf + 14, 17, 20 + 14, 77, 3);
	memcpy(buf + n, whole + 24, 14);
	decode(DLT_EN10MB, n + 14, n + 14, NULL);
	tap_ok(f.kind == FD_IP_FRAGMENT && f.frag.off == 24 && !f.frag.more,
	       "the last fragment: offset 3 blocks of 8, no more");
	frame_decode_datagram(&f, whole, whole_len, NULL);
	tap_ok(f.kind == FD_DGRDMA && f.payload.p == whole + 10 && f.payload.len == 28 &&
		   eng_addr_port(&f.src) == 40000 && f.src.b[3] == 2 && f.frame_len == n + 14,
	       "the datagram it completes: DG-RDMA with the fragment's addresses and length");
	frame_decode_datagram(&f, whole, 7, NULL);
	TAP_EQ_U(f.kind, FD_OTHER, "a datagram shorter than a UDP header: other");

	/* IPv6: hop-by-hop options, then a fragment header with offset 8 */
	n = eth(buf, 0x86DD);
	n += ipv6(buf + n, 8 + 8 + 16, 0);
	memset(buf + n, 0, 8);
	buf[n] = 44;
	n += 8;
	buf[n] = 17;
	buf[n + 1] = 0;
	put16(buf + n + 2, 8);
	put16(buf + n + 4, 0x1234);
	put16(buf + n + 6, 0x5678);
	n += 8;
	memset(buf + n, 0xCD, 16);
	decode(DLT_EN10MB, n + 16, n + 16, NULL);
	tap_ok(f.kind == FD_IP_FRAGMENT && f.net == FD_NET_IPV6 && f.frag.key.version == 6 &&
		   f.frag.key.id == 0x12345678 && f.frag.off == 8 && !f.frag.more &&
		   f.payload.p == buf + n && f.payload.len == 16,
	       "IPv6 after hop-by-hop options: a fragment, 32-bit id, offset 8, its 16 bytes");
	tap_ok(f.frag.key.src[0] == 0xfd && f.frag.key.src[15] == 2 && f.frag.key.dst[15] == 1,
	       "the IPv6 fragment's key holds both addresses");
}

static void udp_over_ipv6(void)
{
	size_t n = 0;

	n += ipv6(buf, 8 + 8 + 20, 60);
	memset(buf + n, 0, 8);
	buf[n] = 17;
	n += 8;
	n += udp(buf + n, DGR_UDP_PORT, 40000, 8 + 20);
	payload(buf + n, 0xF040, 20);
	decode(DLT_RAW, n + 20, n + 20, NULL);
	tap_ok(f.kind == FD_DCP && f.net == FD_NET_IPV6 && f.payload.p == buf + n + 2 &&
		   f.payload.len == 18,
	       "raw IP, version 6, destination options then UDP from 18078: DCP");
	tap_ok(f.src.kind == ENG_ADDR_IPV6 && f.src.b[15] == 2 &&
		   eng_addr_port(&f.src) == DGR_UDP_PORT,
	       "IPv6 UDP: the IPv6 addresses with their ports");
	decode(DLT_IPV6, n + 20, n + 20, NULL);
	TAP_EQ_U(f.kind, FD_DCP, "DLT_IPV6: the same");
	decode(DLT_RAW, 47, n + 20, NULL);
	TAP_EQ_U(f.kind, FD_OTHER, "an extension header cut by the snap length: other");
	buf[6] = 6;
	decode(DLT_RAW, n + 20, n + 20, NULL);
	TAP_EQ_U(f.kind, FD_OTHER, "IPv6 TCP: other");
}

int main(void)
{
	tap_ok(fd_link_supported(DLT_EN10MB) && fd_link_supported(DLT_LINUX_SLL2) &&
		   fd_link_supported(DLT_RAW) && !fd_link_supported(105),
	       "link types: Ethernet, cooked v2 and raw IP taken apart, 802.11 not");
	link_layers();
	udp_over_ipv4();
	fragments();
	udp_over_ipv6();
	return tap_done();
}
