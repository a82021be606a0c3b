/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * UDP transport: one socket and one port for DG-RDMA and DCP; the 2-byte pad
 * at the start of each datagram says which (transport.h). Works without
 * privileges on any IPv4 address, 127.0.0.1 included. With peer_only several
 * transports share the port, each connected to its peer.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "transport_priv.h"

#ifndef SO_RXQ_OVFL
#define SO_RXQ_OVFL 40
#endif

#define UDP_SLOT_SIZE 65536 /* any datagram the peer may send */

/* Returns 0, or -DGR_E_SYS with errbuf naming the address and errno text. */
static int udp_open(struct dgr_transport *t, char *errbuf)
{
	const struct dgr_transport_opts *o = &t->opts;
	char addr[64];
	struct dgr_addr b;
	socklen_t sl;
	int one = 1;
	int rc;

	b.in = o->bind_addr;
	dgr_addr_str(DGR_TRANSPORT_UDP, &b, addr, sizeof(addr));
	t->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (t->fd < 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "UDP socket: %s", strerror(errno));
		return -DGR_E_SYS;
	}
	/* kernel drop counter and receive time on every datagram; best effort */
	(void)setsockopt(t->fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof(one));
	(void)setsockopt(t->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	rc = dgr_transport_sockopts(t, t->fd, false, errbuf);
	if (rc < 0) {
		return rc;
	}
	if (o->peer_only && setsockopt(t->fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) != 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "UDP SO_REUSEPORT: %s", strerror(errno));
		return -DGR_E_SYS;
	}
	if (o->broadcast && setsockopt(t->fd, SOL_SOCKET, SO_BROADCAST, &one, sizeof(one)) != 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "UDP SO_BROADCAST: %s", strerror(errno));
		return -DGR_E_SYS;
	}
	if (bind(t->fd, (const struct sockaddr *)&o->bind_addr, sizeof(o->bind_addr)) != 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "--bind %s: %s%s", addr, strerror(errno),
			 errno == EADDRINUSE ? " (another endpoint uses this port: give another "
					       "--bind ADDR:PORT)"
					     : "");
		return -DGR_E_SYS;
	}
	/* the connected socket of a shared port gets its peer's datagrams (transport.h) */
	if (o->peer_only &&
	    connect(t->fd, (const struct sockaddr *)&o->peer.in, sizeof(o->peer.in)) != 0) {
		char peer[64];

		snprintf(errbuf, DGR_ERRBUF_SIZE, "--peer %s: connect: %s",
			 dgr_addr_str(DGR_TRANSPORT_UDP, &o->peer, peer, sizeof(peer)),
			 strerror(errno));
		return -DGR_E_SYS;
	}
	sl = sizeof(t->local.in);
	if (getsockname(t->fd, (struct sockaddr *)&t->local.in, &sl) != 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "getsockname: %s", strerror(errno));
		return -DGR_E_SYS;
	}
	t->mtu = o->mtu ? o->mtu : DGR_TRANSPORT_DEFAULT_UDP_MTU;
	t->frame_cap = dgr_frame_cap_udp(t->mtu);
	t->slot_size = UDP_SLOT_SIZE;
	return dgr_transport_alloc_batches(t, errbuf);
}

/* A datagram's pad says its protocol; one with an unknown pad comes whole, DGR_PROTO_INVALID. */
static bool udp_rx_fill(struct dgr_transport *t, unsigned int i, bool dcp, struct dgr_rx_pkt *p)
{
	const uint8_t *d = t->rx_buf + (size_t)i * t->slot_size;
	size_t len = t->rx_msgs[i].msg_len;
	int kind;

	(void)dcp; /* one socket: the pad tells */
	dgr_transport_read_cmsgs(t, i, p);
	p->src.in = t->rx_names[i].in;
	memset(p->src.mac, 0, sizeof(p->src.mac));
	p->data = d;
	p->len = len;
	p->proto = DGR_PROTO_INVALID;
	/* the pad rule of the codec, shared with the analysis tools and the dissector */
	kind = dgr_udp_demux(d, len, &p->data, &p->len);
	if (kind < 0 || kind == DGR_UDP_UNKNOWN) {
		p->data = d;
		p->len = len;
		return true;
	}
	p->proto = kind == DGR_UDP_DCP ? DGR_PROTO_DCP : DGR_PROTO_DGRDMA;
	return true;
}

static const uint8_t pad_dgrdma[2] = { 0x00, 0x00 };
static const uint8_t pad_dcp[2] = { (DGR_UDP_PAD_DCP >> 8) & 0xff, DGR_UDP_PAD_DCP & 0xff };

/* Returns the only socket: both protocols share it. */
static int udp_tx_fd(const struct dgr_transport *t, enum dgr_proto proto)
{
	(void)proto;
	return t->fd;
}

/* Returns 1: the pad that says the protocol. */
static unsigned int udp_tx_prefix(enum dgr_proto proto, struct iovec *iov)
{
	iov[0].iov_base = (void *)(proto == DGR_PROTO_DCP ? pad_dcp : pad_dgrdma);
	iov[0].iov_len = DGR_UDP_PAD_LEN;
	return 1;
}

/* The peer's IPv4 address and port, whatever the protocol. */
static void udp_fill_dst(const struct dgr_transport *t, const struct dgr_addr *a,
			 enum dgr_proto proto, union dgr_sockaddr *sa, socklen_t *len)
{
	(void)proto;
	if (!a) {
		a = &t->peer;
	}
	memset(sa, 0, sizeof(*sa));
	sa->in = a->in;
	sa->in.sin_family = AF_INET;
	*len = sizeof(sa->in);
}

/* Reads the drops column of the socket's /proc/net/udp line; returns 0 or -1. */
static int udp_proc_drops(int fd, uint64_t *drops)
{
	struct stat st;
	char line[512];
	FILE *f;
	int rc = -1;

	if (fstat(fd, &st) != 0) {
		return -1;
	}
	f = fopen("/proc/self/net/udp", "re");
	if (!f) {
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long inode, d;
		char ptr[32];

		/* sl local rem st tx:rx tr:when retrnsmt uid timeout inode ref pointer drops */
		if (sscanf(line, "%*s %*s %*s %*s %*s %*s %*s %*s %*s %llu %*s %31s %llu", &inode,
			   ptr, &d) == 3 &&
		    inode == (unsigned long long)st.st_ino) {
			*drops = d;
			rc = 0;
			break;
		}
	}
	fclose(f);
	return rc;
}

/* Returns 0 with *drops set. */
static int udp_drops(struct dgr_transport *t, uint64_t *drops, char *errbuf)
{
	uint64_t proc = 0;

	(void)errbuf;
	/*
	 * SO_RXQ_OVFL only tells on datagrams queued after a drop; the
	 * socket's line in /proc/net/udp has the count at any time.
	 */
	(void)udp_proc_drops(t->fd, &proc);
	*drops = __atomic_load_n(&t->ovfl_last, __ATOMIC_RELAXED);
	if (proc > *drops) {
		*drops = proc;
	}
	return 0;
}

const struct dgr_transport_ops dgr_transport_udp_ops = {
	.open = udp_open,
	.close = NULL,
	.ring_take = NULL,
	.rx_fill = udp_rx_fill,
	.tx_fd = udp_tx_fd,
	.tx_prefix = udp_tx_prefix,
	.fill_dst = udp_fill_dst,
	.drops = udp_drops,
};
