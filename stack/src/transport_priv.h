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

#define DGR_RX_CTRL_SIZE 64 /* room for one SO_RXQ_OVFL cmsg */

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

	/* send side: two iovecs per packet (UDP pad + payload) */
	struct mmsghdr *tx_msgs;
	struct iovec *tx_iov;
	union dgr_sockaddr *tx_names;

	unsigned int dcp_skip; /* receive passes since the DCP socket was last read */
	uint64_t drops_acc;    /* PACKET_STATISTICS accumulated */
	uint32_t ovfl_last;    /* SO_RXQ_OVFL latest */
	int rcvbuf_eff;
	int sndbuf_eff;
};

/* Allocates the batch arrays. Returns 0 or -DGR_E_NOMEM. */
int dgr_transport_alloc_batches(struct dgr_transport *t, char *errbuf);

/* Applies rcvbuf/sndbuf/busy-poll options to fd. Returns 0 or a negative code. */
int dgr_transport_sockopts(struct dgr_transport *t, int fd, char *errbuf);

int dgr_transport_udp_open(struct dgr_transport *t, char *errbuf);
int dgr_transport_ether_open(struct dgr_transport *t, char *errbuf);
void dgr_transport_fill_dst(const struct dgr_transport *t, const struct dgr_addr *a,
			    enum dgr_proto proto, union dgr_sockaddr *sa, socklen_t *len);

#endif
