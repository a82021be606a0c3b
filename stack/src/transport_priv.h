/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private state of a transport, shared by transport.c and the two kinds. */
#ifndef DGR_TRANSPORT_PRIV_H
#define DGR_TRANSPORT_PRIV_H

#include <linux/if_packet.h>
#include <sys/socket.h>

#include <dgrdma/transport.h>

union dgr_sockaddr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_ll ll;
};

/* room for the SO_RXQ_OVFL and SO_TIMESTAMPNS cmsgs of one datagram */
#define DGR_RX_CTRL_SIZE (CMSG_SPACE(sizeof(uint32_t)) + CMSG_SPACE(sizeof(struct timespec)))

/* A PACKET_RX_RING (TPACKET_V2) mapped into our memory (transport_ring.c). */
struct dgr_rx_ring {
	uint8_t *map; /* NULL: no ring, recvmmsg instead */
	size_t map_len;
	unsigned int block_size;
	unsigned int frame_size;
	unsigned int frames_per_block;
	unsigned int frame_nr;
	unsigned int head; /* next frame to look at */
	unsigned int held; /* frames before head handed out by the last take */
};

struct dgr_transport {
	enum dgr_transport_kind kind;
	struct dgr_transport_opts opts;
	int fd;	    /* DG-RDMA socket (Ethernet) or the only socket (UDP) */
	int dcp_fd; /* Ethernet DCP socket, -1 when not opened */
	int ifindex;
	unsigned int mtu;
	size_t frame_cap;
	struct dgr_addr local;
	struct dgr_addr peer;
	unsigned int batch;

	/* receive side: batch slots of slot_size bytes */
	size_t slot_size;
	uint8_t *rx_buf;
	struct mmsghdr *rx_msgs;
	struct iovec *rx_iov;
	union dgr_sockaddr *rx_names;
	uint8_t *rx_ctrl;
	struct dgr_rx_ring ring; /* raw Ethernet data socket unless --no-rx-ring */

	/* send side: two iovecs per packet (UDP pad + payload) */
	struct mmsghdr *tx_msgs;
	struct iovec *tx_iov;
	union dgr_sockaddr *tx_names;

	unsigned int dcp_skip; /* receive passes since the DCP socket was last read */
	/*
	 * CLOCK_REALTIME - CLOCK_MONOTONIC, ns: turns the kernel's receive
	 * timestamps (real time) into arrival_ns; re-read every
	 * DGR_CLOCK_RESYNC receive calls.
	 */
	int64_t real_minus_mono;
	unsigned int clock_age;
	uint64_t drops_acc; /* PACKET_STATISTICS accumulated */
	uint32_t ovfl_last; /* SO_RXQ_OVFL latest */
	int rcvbuf_eff;
	int sndbuf_eff;
};

/* Allocates the batch arrays. Returns 0 or -DGR_E_NOMEM. */
int dgr_transport_alloc_batches(struct dgr_transport *t, char *errbuf);

/*
 * Applies rcvbuf (unless skip_rcvbuf: a ring or a quiet socket), sndbuf and
 * busy-poll options to fd. Returns 0 or a negative code.
 */
int dgr_transport_sockopts(struct dgr_transport *t, int fd, bool skip_rcvbuf, char *errbuf);

/* A kernel timestamp (CLOCK_REALTIME) as arrival_ns: monotonic, 0 for none. */
static inline uint64_t dgr_transport_arrival(const struct dgr_transport *t, int64_t sec,
					     int64_t nsec)
{
	int64_t real = sec * 1000000000ll + nsec;

	if (real <= t->real_minus_mono) { /* none (0), or before the clocks' epochs met */
		return 0;
	}
	return (uint64_t)(real - t->real_minus_mono);
}

int dgr_transport_udp_open(struct dgr_transport *t, char *errbuf);
int dgr_transport_ether_open(struct dgr_transport *t, char *errbuf);
int dgr_rx_ring_setup(struct dgr_transport *t, int fd, size_t bytes, unsigned int if_mtu,
		      char *errbuf);
void dgr_rx_ring_free(struct dgr_rx_ring *r);
unsigned int dgr_rx_ring_take(struct dgr_transport *t, struct dgr_rx_pkt *pkts, unsigned int max);
void dgr_transport_fill_dst(const struct dgr_transport *t, const struct dgr_addr *a,
			    enum dgr_proto proto, union dgr_sockaddr *sa, socklen_t *len);

#endif
