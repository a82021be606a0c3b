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
#include <unistd.h>

#include "transport_priv.h"

#ifndef SO_RXQ_OVFL
#define SO_RXQ_OVFL 40
#endif

#define UDP_SLOT_SIZE 65536 /* any datagram the peer may send */

/* Returns 0, or -DGR_E_SYS with errbuf naming the address and errno text. */
int dgr_transport_udp_open(struct dgr_transport *t, char *errbuf)
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
