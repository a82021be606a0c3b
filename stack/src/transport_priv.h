/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private state of a transport, shared by transport.c, the two kinds and their helpers. */
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

struct dgr_transport;

/*
 * What differs between the kinds of transport (transport_udp.c,
 * transport_ether.c), chosen once by dgr_transport_open(). transport.c calls a
 * kind only through its table; a kind calls the shared socket helpers
 * (transport_sock.c), the addresses (transport_addr.c) and, for raw Ethernet,
 * the receive ring (transport_ring.c), never transport.c or another kind.
 */
struct dgr_transport_ops {
	/*
	 * Opens the socket(s) and sets mtu, frame_cap, local, slot_size and the
	 * batch arrays. Returns 0 or a negative DGR_E_* code with errbuf filled.
	 */
	int (*open)(struct dgr_transport *t, char *errbuf);
	/* Frees what open set up beyond the sockets and batches (NULL: nothing). */
	void (*close)(struct dgr_transport *t);
	/*
	 * Takes up to max DG-RDMA frames waiting in a receive ring, without a
	 * system call; called only when t->ring.map is set. Returns the count.
	 */
	unsigned int (*ring_take)(struct dgr_transport *t, struct dgr_rx_pkt *pkts,
				  unsigned int max);
	/*
	 * Turns received slot i (from the DCP socket when dcp) into *p. Returns
	 * false when the slot holds no packet for the caller (our own frame).
	 */
	bool (*rx_fill)(struct dgr_transport *t, unsigned int i, bool dcp, struct dgr_rx_pkt *p);
	/* The socket a packet of proto leaves by; -1 when that channel is not open. */
	int (*tx_fd)(const struct dgr_transport *t, enum dgr_proto proto);
	/*
	 * Writes what goes before a packet of proto (the UDP pad) into iov[0].
	 * Returns the iovecs written, 0 or 1.
	 */
	unsigned int (*tx_prefix)(enum dgr_proto proto, struct iovec *iov);
	/* The destination of a packet of proto to a (the configured peer when NULL). */
	void (*fill_dst)(const struct dgr_transport *t, const struct dgr_addr *a,
			 enum dgr_proto proto, union dgr_sockaddr *sa, socklen_t *len);
	/* The kernel's receive drops so far. Returns 0 or -DGR_E_SYS with errbuf. */
	int (*drops)(struct dgr_transport *t, uint64_t *drops, char *errbuf);
};

extern const struct dgr_transport_ops dgr_transport_udp_ops;
extern const struct dgr_transport_ops dgr_transport_ether_ops;

struct dgr_transport {
	enum dgr_transport_kind kind;
	const struct dgr_transport_ops *ops; /* the kind's functions, NULL until opened */
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

/* transport_sock.c: what both kinds do to their sockets. */

/* Allocates the batch arrays. Returns 0 or -DGR_E_NOMEM. */
int dgr_transport_alloc_batches(struct dgr_transport *t, char *errbuf);

/*
 * Applies rcvbuf (unless skip_rcvbuf: a ring or a quiet socket), sndbuf and
 * busy-poll options to fd. Returns 0 or a negative code.
 */
int dgr_transport_sockopts(struct dgr_transport *t, int fd, bool skip_rcvbuf, char *errbuf);

/* Reads slot i's control messages into *p: the kernel's drop count and receive time. */
void dgr_transport_read_cmsgs(struct dgr_transport *t, unsigned int i, struct dgr_rx_pkt *p);

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

/* transport_ring.c: raw Ethernet's PACKET_RX_RING. */

/*
 * Sets up the ring on fd (before bind). Returns 0 or -DGR_E_SYS /
 * -DGR_E_NOMEM with errbuf naming the option.
 */
int dgr_rx_ring_setup(struct dgr_transport *t, int fd, size_t bytes, unsigned int if_mtu,
		      char *errbuf);
/* Unmaps the ring (none accepted). */
void dgr_rx_ring_free(struct dgr_rx_ring *r);
/* Takes up to max frames from the ring, in order; returns the packets written. */
unsigned int dgr_rx_ring_take(struct dgr_transport *t, struct dgr_rx_pkt *pkts, unsigned int max);

#endif
