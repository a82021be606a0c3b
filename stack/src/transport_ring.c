/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Raw Ethernet receive through a PACKET_RX_RING (TPACKET_V2) shared with the
 * kernel. The kernel copies each frame into the ring in softirq context; the
 * receive thread reads it in place and its only copy is the one into the
 * port memory (rx.c). recvmmsg would cost a second copy in the receiving
 * thread and a system call per batch.
 *
 * TPACKET_V2, not V3: V3 hands frames over a block at a time, when a block
 * is full or its retire timeout (at least 1 ms) expires, which would add up
 * to that timeout to every doorbell's latency at low rates. V2 hands over
 * each frame as it lands.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <dgrdma/prefault.h>

#include "transport_priv.h"

/* Room before the payload: tpacket2_hdr + sockaddr_ll, then the MAC header. */
#define RING_FRAME_OVERHEAD 128u
#define RING_MIN_BLOCK	    (64u * 1024)
#define RING_MIN_BYTES	    (1u * 1024 * 1024)
#define RING_MAX_BYTES	    (1024u * 1024 * 1024)

static struct tpacket2_hdr *ring_frame(const struct dgr_rx_ring *r, unsigned int i)
{
	unsigned int block = i / r->frames_per_block;
	unsigned int slot = i % r->frames_per_block;

	return (struct tpacket2_hdr *)(r->map + (size_t)block * r->block_size +
				       (size_t)slot * r->frame_size);
}

/*
 * Sets up the ring on fd (before bind, so no frame is queued the old way).
 * bytes is the ring size wanted; if_mtu the largest frame. Returns 0 or
 * -DGR_E_SYS / -DGR_E_NOMEM with errbuf naming the option.
 */
int dgr_rx_ring_setup(struct dgr_transport *t, int fd, size_t bytes, unsigned int if_mtu,
		      char *errbuf)
{
	struct dgr_rx_ring *r = &t->ring;
	struct tpacket_req req;
	int version = TPACKET_V2;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t block = RING_MIN_BLOCK;
	size_t frame = (RING_FRAME_OVERHEAD + if_mtu + TPACKET_ALIGNMENT - 1) &
		       ~(size_t)(TPACKET_ALIGNMENT - 1);
	size_t blocks;

	if (bytes < RING_MIN_BYTES) {
		bytes = RING_MIN_BYTES;
	}
	if (bytes > RING_MAX_BYTES) {
		bytes = RING_MAX_BYTES;
	}
	/* blocks are allocated as 2^order pages: keep them a power of two */
	while (block < frame || block < page) {
		block *= 2;
	}
	blocks = (bytes + block - 1) / block;
	if (blocks < 2) {
		blocks = 2;
	}
	if (setsockopt(fd, SOL_PACKET, PACKET_VERSION, &version, sizeof(version)) != 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "--if %s: PACKET_VERSION TPACKET_V2: %s",
			 t->opts.ifname, strerror(errno));
		return -DGR_E_SYS;
	}
	memset(&req, 0, sizeof(req));
	req.tp_block_size = (unsigned int)block;
	req.tp_block_nr = (unsigned int)blocks;
	req.tp_frame_size = (unsigned int)frame;
	req.tp_frame_nr = (unsigned int)(blocks * (block / frame));
	if (setsockopt(fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)) != 0) {
		int err = errno;

		snprintf(errbuf, DGR_ERRBUF_SIZE,
			 "--if %s: PACKET_RX_RING of %zu blocks of %zu bytes: %s (try a smaller "
			 "--rcvbuf, or --no-rx-ring)",
			 t->opts.ifname, blocks, block, strerror(err));
		return err == ENOMEM ? -DGR_E_NOMEM : -DGR_E_SYS;
	}
	r->map_len = blocks * block;
	r->map = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_LOCKED, fd, 0);
	if (r->map == MAP_FAILED) {
		/* MAP_LOCKED may exceed RLIMIT_MEMLOCK; the ring pages are kernel memory anyway */
		r->map = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	}
	if (r->map == MAP_FAILED) {
		r->map = NULL;
		snprintf(errbuf, DGR_ERRBUF_SIZE,
			 "--if %s: mmap of the receive ring (%zu bytes): %s", t->opts.ifname,
			 r->map_len, strerror(errno));
		return -DGR_E_SYS;
	}
	/* a write, not a read: giving a frame back is the receive thread's first write to a page */
	dgr_prefault(r->map, r->map_len);
	r->block_size = (unsigned int)block;
	r->frame_size = (unsigned int)frame;
	r->frames_per_block = (unsigned int)(block / frame);
	r->frame_nr = req.tp_frame_nr;
	r->head = 0;
	r->held = 0;
	return 0;
}

/* Unmaps the ring (nothing when none was set up). */
void dgr_rx_ring_free(struct dgr_rx_ring *r)
{
	if (r->map) {
		munmap(r->map, r->map_len);
		r->map = NULL;
	}
}

/*
 * Returns the frames the last call handed out to the kernel, then takes up
 * to max new ones, in order. Our own outgoing frames are returned to the
 * kernel with the rest but not reported. Returns the packets written.
 */
unsigned int dgr_rx_ring_take(struct dgr_transport *t, struct dgr_rx_pkt *pkts, unsigned int max)
{
	struct dgr_rx_ring *r = &t->ring;
	unsigned int i = r->head;
	unsigned int out = 0;
	unsigned int n;

	while (r->held > 0) {
		unsigned int j = (r->head + r->frame_nr - r->held) % r->frame_nr;

		__atomic_store_n(&ring_frame(r, j)->tp_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
		r->held--;
	}
	for (n = 0; n < max; n++) {
		struct tpacket2_hdr *h = ring_frame(r, i);
		const struct sockaddr_ll *sll;
		struct dgr_rx_pkt *p;

		if (!(__atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER)) {
			break;
		}
		i = i + 1 == r->frame_nr ? 0 : i + 1;
		r->held++;
		sll = (const struct sockaddr_ll *)((const uint8_t *)h +
						   TPACKET_ALIGN(sizeof(struct tpacket2_hdr)));
		if (sll->sll_pkttype == PACKET_OUTGOING) {
			continue;
		}
		p = &pkts[out++];
		p->data = (const uint8_t *)h + h->tp_net;
		/* a frame cut to the slot (tp_snaplen < tp_len) arrives short: malformed */
		p->len = h->tp_snaplen;
		p->proto = DGR_PROTO_DGRDMA;
		p->arrival_ns = dgr_transport_arrival(t, h->tp_sec, h->tp_nsec);
		memset(&p->src, 0, sizeof(p->src));
		memcpy(p->src.mac, sll->sll_addr, 6);
	}
	r->head = i;
	return out;
}
