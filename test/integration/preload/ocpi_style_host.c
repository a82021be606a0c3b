// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ocpi-style-host: a small DG-RDMA consumer written the way OpenCPI's runtime
 * (OsEther.cc and the datagram2 driver) talks to an FPGA, independent of this
 * project's code: no libdgrdma, only a raw packet socket and its own framing
 * after docs/protocol.md.
 *
 *   - socket(PF_PACKET, SOCK_RAW, htons(0xF042)) bound to the interface;
 *   - recvmsg() with SO_RCVTIMEO;
 *   - one sendmsg() per doorbell frame, frame_seq from 1, ACKs piggy-backed on
 *     the doorbells (no ACK-only frame);
 *   - each data transaction with a flag is consumed at once and answered with a
 *     flag-only doorbell to the FPGA's flag of that buffer (docs/fpga.md section 2),
 *     or, with dcp, a DCP write of the buffer's index to the doorbell property
 *     (0x100018) in a frame of ethertype 0xF040 on the same socket, or, with
 *     dcp-socket, that write on a second packet socket bound to 0xF040 alone, as
 *     a control plane with a driver of its own sends it (the FPGA's DCP
 *     responses are left unread there: the kernel drops them once its queue is
 *     full, and nothing here waits on them).
 *
 * usage: ocpi-style-host IFACE PEER_MAC HOST_BUFFERS BUFFER_SIZE FPGA_BUFFERS IDLE_MS
 *        [dcp|dcp-socket]
 * It stops after IDLE_MS without a frame (once one has come) and prints "key value" lines:
 * frames_rx, txns_completed, doorbells_sent, bad_frames.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define ETHERTYPE_DGRDMA 0xF042
#define ETHERTYPE_DCP	 0xF040
#define DCP_DOORBELL	 0x100018u /* the doorbell property of worker 0 */
#define ETH_HLEN_	 14
#define FRAME_HDR	 10
#define MSG_HDR		 24
#define NO_FLAG		 0xFFFFFFFFu
#define MAX_FRAME	 65536
#define TXN_SLOTS	 1024
#define RCV_TIMEOUT_MS	 100

struct txn_slot {
	uint32_t txn_id;
	uint16_t seen;
	uint8_t used;
};

struct host {
	int fd;
	int dcp_fd; /* the socket of the DCP writes: fd, or one bound to 0xF040 */
	struct sockaddr_ll peer, dcp_peer;
	uint8_t my_mac[6], peer_mac[6];
	uint32_t nbuf, size, fpga_bufs;
	int dcp;	    /* doorbells as DCP writes */
	uint8_t dcp_tag;    /* the next DCP request's tag */
	uint16_t seq;	    /* next frame_seq we send, from 1 */
	uint32_t txn;	    /* next txn_id of our doorbells, from 1 */
	uint16_t ack_start; /* first received frame_seq not acknowledged yet */
	uint8_t ack_count;
	unsigned long frames_rx, txns_completed, doorbells_sent, bad_frames;
	struct txn_slot slots[TXN_SLOTS];
};

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static int parse_mac(const char *s, uint8_t *mac)
{
	unsigned int b[6];

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6) {
		return -1;
	}
	for (int i = 0; i < 6; i++) {
		mac[i] = (uint8_t)b[i];
	}
	return 0;
}

/*
 * Sends pkt (64 bytes: the minimum frame, padded) to the FPGA with the Ethernet header of
 * ethertype filled in, on the data socket or (ETHERTYPE_DCP) the DCP one; returns 0 or -1.
 */
static int send_pkt(struct host *h, uint8_t *pkt, uint16_t ethertype)
{
	int dcp = ethertype == ETHERTYPE_DCP;
	struct iovec iov = { .iov_base = pkt, .iov_len = 64 };
	struct msghdr msg = { .msg_name = dcp ? &h->dcp_peer : &h->peer,
			      .msg_namelen = sizeof(h->peer),
			      .msg_iov = &iov,
			      .msg_iovlen = 1 };

	memcpy(pkt, h->peer_mac, 6);
	memcpy(pkt + 6, h->my_mac, 6);
	pkt[12] = (uint8_t)(ethertype >> 8);
	pkt[13] = (uint8_t)ethertype;
	if (sendmsg(dcp ? h->dcp_fd : h->fd, &msg, 0) < 0) {
		perror("sendmsg");
		return -1;
	}
	h->doorbells_sent++;
	return 0;
}

/* Sends the doorbell of host buffer idx in a frame of its own; returns 0 or -1. */
static int send_doorbell(struct host *h, uint32_t idx)
{
	uint8_t pkt[64] = { 0 };
	uint8_t *f = pkt + ETH_HLEN_, *m = f + FRAME_HDR;

	put16(f + 0, 1); /* dst_id: the FPGA's (its local_src_id, 1 by default) */
	put16(f + 2, 0); /* src_id: ours (the FPGA's remote_dst_id, 0 by default) */
	put16(f + 4, h->seq);
	put16(f + 6, h->ack_count ? h->ack_start : 0);
	f[8] = h->ack_count;
	f[9] = 1;
	put32(m + 0, h->txn);
	put32(m + 4, h->fpga_bufs * h->size + 4 * idx);
	put32(m + 8, 1);
	put16(m + 12, 0);
	put16(m + 14, 1);
	if (send_pkt(h, pkt, ETHERTYPE_DGRDMA) < 0) {
		return -1;
	}
	h->seq++;
	h->txn++;
	h->ack_start = (uint16_t)(h->ack_start + h->ack_count);
	h->ack_count = 0;
	return 0;
}

static void put32be(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* Sends the doorbell of host buffer idx as a DCP property write; returns 0 or -1. */
static int send_dcp_doorbell(struct host *h, uint32_t idx)
{
	uint8_t pkt[64] = { 0 };
	uint8_t *d = pkt + ETH_HLEN_;

	d[1] = 14;	     /* length 14, big-endian, then 2 bytes of pad */
	d[4] = 1 << 4 | 0xF; /* a write, every byte enabled */
	d[5] = h->dcp_tag++;
	put32be(d + 6, DCP_DOORBELL);
	put32be(d + 10, idx);
	return send_pkt(h, pkt, ETHERTYPE_DCP);
}

/* A message arrived: counts its transaction's fragments; -1 on a send failure. */
static int on_message(struct host *h, uint32_t txn_id, uint32_t flag_addr, uint16_t num_msgs)
{
	struct txn_slot *s = &h->slots[txn_id % TXN_SLOTS];
	uint32_t flags_at = h->nbuf * h->size;

	if (!s->used || s->txn_id != txn_id) {
		s->used = 1;
		s->txn_id = txn_id;
		s->seen = 0;
	}
	s->seen++;
	if (s->seen < (num_msgs < 2 ? 1 : num_msgs)) {
		return 0;
	}
	s->used = 0;
	h->txns_completed++;
	if (flag_addr == NO_FLAG || flag_addr < flags_at || (flag_addr - flags_at) / 4 >= h->nbuf) {
		return 0;
	}
	/* the consumer takes the buffer at once and gives it back */
	return h->dcp ? send_dcp_doorbell(h, (flag_addr - flags_at) / 4)
		      : send_doorbell(h, (flag_addr - flags_at) / 4);
}

static int on_frame(struct host *h, const uint8_t *f, size_t len)
{
	size_t off = FRAME_HDR;
	uint16_t seq;

	if (len < FRAME_HDR) {
		h->bad_frames++;
		return 0;
	}
	h->frames_rx++;
	seq = get16(f + 4);
	if (h->ack_count == 0) {
		h->ack_start = seq;
	}
	if (seq == (uint16_t)(h->ack_start + h->ack_count) && h->ack_count < 255) {
		h->ack_count++;
	}
	if (f[9] == 0) {
		return 0;
	}
	while (off + MSG_HDR <= len) {
		const uint8_t *m = f + off;
		uint16_t dlen = get16(m + 20);

		if (off + MSG_HDR + dlen > len) {
			h->bad_frames++;
			return 0;
		}
		if (on_message(h, get32(m), get32(m + 4), get16(m + 12)) < 0) {
			return -1;
		}
		if (!m[23]) {
			break;
		}
		off += MSG_HDR + dlen;
		off = FRAME_HDR + (((off - FRAME_HDR) + 7) & ~(size_t)7);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static uint8_t buf[MAX_FRAME];
	struct host *h;
	struct ifreq ifr;
	struct timeval tv = { .tv_sec = 0, .tv_usec = RCV_TIMEOUT_MS * 1000 };
	unsigned long idle_ms, waited = 0;
	int rc = 1;

	if (argc != 7 && (argc != 8 || (strcmp(argv[7], "dcp") && strcmp(argv[7], "dcp-socket")))) {
		fprintf(stderr, "usage: ocpi-style-host IFACE PEER_MAC HOST_BUFFERS BUFFER_SIZE "
				"FPGA_BUFFERS IDLE_MS [dcp|dcp-socket]\n");
		return 2;
	}
	h = calloc(1, sizeof(*h));
	if (!h || parse_mac(argv[2], h->peer_mac) < 0) {
		fprintf(stderr, "ocpi-style-host: bad PEER_MAC '%s'\n", argv[2]);
		return 2;
	}
	h->nbuf = (uint32_t)strtoul(argv[3], NULL, 0);
	h->size = (uint32_t)strtoul(argv[4], NULL, 0);
	h->fpga_bufs = (uint32_t)strtoul(argv[5], NULL, 0);
	idle_ms = strtoul(argv[6], NULL, 0);
	h->dcp = argc == 8;
	h->seq = 1;
	h->txn = 1;
	h->fd = socket(PF_PACKET, SOCK_RAW, htons(ETHERTYPE_DGRDMA));
	if (h->fd < 0) {
		perror("socket(PF_PACKET)");
		return 3;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", argv[1]);
	if (ioctl(h->fd, SIOCGIFHWADDR, &ifr) < 0) {
		perror("SIOCGIFHWADDR");
		return 3;
	}
	memcpy(h->my_mac, ifr.ifr_hwaddr.sa_data, 6);
	h->peer.sll_family = AF_PACKET;
	h->peer.sll_protocol = htons(ETHERTYPE_DGRDMA);
	h->peer.sll_ifindex = (int)if_nametoindex(argv[1]);
	h->peer.sll_halen = 6;
	memcpy(h->peer.sll_addr, h->peer_mac, 6);
	if (bind(h->fd, (struct sockaddr *)&h->peer, sizeof(h->peer)) < 0 ||
	    setsockopt(h->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0) {
		perror("bind/SO_RCVTIMEO");
		return 3;
	}
	h->dcp_fd = h->fd;
	h->dcp_peer = h->peer;
	if (h->dcp && !strcmp(argv[7], "dcp-socket")) {
		h->dcp_peer.sll_protocol = htons(ETHERTYPE_DCP);
		h->dcp_fd = socket(PF_PACKET, SOCK_RAW, htons(ETHERTYPE_DCP));
		if (h->dcp_fd < 0 ||
		    bind(h->dcp_fd, (struct sockaddr *)&h->dcp_peer, sizeof(h->dcp_peer)) < 0) {
			perror("DCP socket");
			return 3;
		}
	}
	for (;;) {
		struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
		struct sockaddr_ll from;
		struct msghdr msg = { .msg_name = &from,
				      .msg_namelen = sizeof(from),
				      .msg_iov = &iov,
				      .msg_iovlen = 1 };
		ssize_t n = recvmsg(h->fd, &msg, 0);

		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			waited += RCV_TIMEOUT_MS;
			if (h->frames_rx && waited >= idle_ms) {
				break;
			}
			continue;
		}
		if (n < 0) {
			perror("recvmsg");
			goto out;
		}
		waited = 0;
		if (from.sll_pkttype == PACKET_OUTGOING || n < ETH_HLEN_) {
			continue;
		}
		if (on_frame(h, buf + ETH_HLEN_, (size_t)n - ETH_HLEN_) < 0) {
			goto out;
		}
	}
	rc = 0;
out:
	printf("frames_rx %lu\ntxns_completed %lu\ndoorbells_sent %lu\nbad_frames %lu\n",
	       h->frames_rx, h->txns_completed, h->doorbells_sent, h->bad_frames);
	return rc;
}
