/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Raw Ethernet transport, as OpenCPI's datagram2-ether driver does it:
 * AF_PACKET/SOCK_DGRAM sockets bound to one interface and one ethertype each
 * (0xF042 DG-RDMA, 0xF040 DCP); the kernel writes the Ethernet header; the
 * frame size is the interface MTU (SIOCGIFMTU). With peer_only a socket
 * filter keeps only the peer's frames (several connections on one interface).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "transport_priv.h"

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23
#endif

extern char *program_invocation_name;

/*
 * peer_only: a classic BPF filter accepting only frames from the peer's MAC.
 * A SOCK_DGRAM packet socket's filter sees the packet from the network
 * header; SKF_LL_OFF reaches the Ethernet header (source MAC at 6..11). The
 * socket was made with protocol 0, so it receives nothing until bind(): no
 * frame gets in unfiltered.
 */
static int attach_peer_filter(struct dgr_transport *t, int fd, char *errbuf)
{
	const uint8_t *m = t->opts.peer.mac;
	uint32_t hi = (uint32_t)m[0] << 24 | (uint32_t)m[1] << 16 | (uint32_t)m[2] << 8 | m[3];
	uint32_t lo = (uint32_t)m[4] << 8 | m[5];
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (uint32_t)SKF_LL_OFF + 6),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, hi, 0, 3),
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, (uint32_t)SKF_LL_OFF + 10),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, lo, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0x40000), /* the whole frame */
		BPF_STMT(BPF_RET | BPF_K, 0),	    /* another sender: dropped */
	};
	struct sock_fprog prog = { .len = sizeof(code) / sizeof(code[0]), .filter = code };

	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) != 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "--if %s: SO_ATTACH_FILTER: %s", t->opts.ifname,
			 strerror(errno));
		return -DGR_E_SYS;
	}
	return 0;
}

/*
 * Creates an AF_PACKET socket that receives nothing yet: protocol 0 until
 * bind(), so no frame of another interface queues up before the bind and
 * none is queued outside the ring once it exists.
 */
static int open_socket(struct dgr_transport *t, int *fdp, char *errbuf)
{
	int one = 1;
	int fd;

	fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		int err = errno;

		if (err == EPERM || err == EACCES) {
			snprintf(errbuf, DGR_ERRBUF_SIZE,
				 "raw Ethernet (--if %s) needs the CAP_NET_RAW capability (%s): "
				 "run as root or `sudo setcap cap_net_raw,cap_net_admin+ep %s`, "
				 "or use --udp",
				 t->opts.ifname, strerror(err), program_invocation_name);
			return -DGR_E_PERM;
		}
		snprintf(errbuf, DGR_ERRBUF_SIZE, "AF_PACKET socket: %s", strerror(err));
		return -DGR_E_SYS;
	}
	*fdp = fd;
	/* our own transmissions are not input (best effort: filtered on receive too) */
	(void)setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	return 0;
}

/*
 * Binds fd to the interface and ethertype, behind the peer filter with
 * peer_only: from here on frames arrive.
 */
static int bind_socket(struct dgr_transport *t, int fd, uint16_t ethertype, char *errbuf)
{
	struct sockaddr_ll sll;

	if (t->opts.peer_only) {
		int rc = attach_peer_filter(t, fd, errbuf);

		if (rc < 0) {
			return rc;
		}
	}
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ethertype);
	sll.sll_ifindex = t->ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) != 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "--if %s: bind: %s", t->opts.ifname,
			 strerror(errno));
		return -DGR_E_SYS;
	}
	return 0;
}

/* Returns 0, -DGR_E_PERM (capability named), -DGR_E_INVAL (interface absent or down), -DGR_E_SYS.
 */
static int ether_open(struct dgr_transport *t, char *errbuf)
{
	const struct dgr_transport_opts *o = &t->opts;
	struct ifreq ifr;
	unsigned int if_mtu;
	int one = 1;
	int rc;

	t->ifindex = (int)if_nametoindex(o->ifname);
	if (t->ifindex == 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "--if %s: no such interface (see `ip link show`)",
			 o->ifname);
		return -DGR_E_INVAL;
	}
	rc = open_socket(t, &t->fd, errbuf);
	if (rc < 0) {
		return rc;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", o->ifname);
	if (ioctl(t->fd, SIOCGIFFLAGS, &ifr) != 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "--if %s: SIOCGIFFLAGS: %s", o->ifname,
			 strerror(errno));
		return -DGR_E_SYS;
	}
	if (!(ifr.ifr_flags & IFF_UP)) {
		snprintf(errbuf, DGR_ERRBUF_SIZE,
			 "--if %s: interface is down (bring it up: `ip link set %s up`)", o->ifname,
			 o->ifname);
		return -DGR_E_INVAL;
	}
	if (ioctl(t->fd, SIOCGIFMTU, &ifr) != 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "--if %s: SIOCGIFMTU: %s", o->ifname,
			 strerror(errno));
		return -DGR_E_SYS;
	}
	if_mtu = (unsigned int)ifr.ifr_mtu;
	t->mtu = if_mtu;
	if (o->mtu && o->mtu < t->mtu) {
		t->mtu = o->mtu;
	}
	if (ioctl(t->fd, SIOCGIFHWADDR, &ifr) == 0) {
		memcpy(t->local.mac, ifr.ifr_hwaddr.sa_data, 6);
	}
	t->frame_cap = dgr_frame_cap_ether(t->mtu);
	/* with a ring, --rcvbuf sizes the ring: the socket queue is not used */
	rc = dgr_transport_sockopts(t, t->fd, !o->no_rx_ring, errbuf);
	if (rc == 0 && !o->no_rx_ring) {
		rc = dgr_rx_ring_setup(t, t->fd,
				       o->rcvbuf ? (size_t)o->rcvbuf : DGR_TRANSPORT_DEFAULT_RING,
				       if_mtu, errbuf);
		t->rcvbuf_eff = (int)t->ring.map_len;
	}
	if (rc == 0 && o->no_rx_ring) {
		/* the receive time (a ring slot carries its own); best effort */
		(void)setsockopt(t->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	}
	if (rc == 0) {
		rc = bind_socket(t, t->fd, DGR_ETHERTYPE_DGRDMA, errbuf);
	}
	if (rc < 0) {
		return rc;
	}
	if (o->dcp) {
		rc = open_socket(t, &t->dcp_fd, errbuf);
		if (rc == 0) {
			rc = dgr_transport_sockopts(t, t->dcp_fd, true, errbuf);
		}
		if (rc == 0) {
			rc = bind_socket(t, t->dcp_fd, DGR_ETHERTYPE_DCP, errbuf);
		}
		if (rc < 0) {
			return rc;
		}
	}
	/* slots hold the largest frame the interface can deliver, not just --mtu */
	t->slot_size = ((size_t)if_mtu + 64 + 63) & ~(size_t)63;
	if (t->slot_size < 2048) {
		t->slot_size = 2048;
	}
	return dgr_transport_alloc_batches(t, errbuf);
}

/* Unmaps the receive ring. */
static void ether_close(struct dgr_transport *t)
{
	dgr_rx_ring_free(&t->ring);
}

/* Slots before the DCP ones hold DG-RDMA frames; our own outgoing frames are skipped. */
static bool ether_rx_fill(struct dgr_transport *t, unsigned int i, bool dcp, struct dgr_rx_pkt *p)
{
	if (t->rx_names[i].ll.sll_pkttype == PACKET_OUTGOING) {
		return false; /* our own frame, seen on the way out */
	}
	dgr_transport_read_cmsgs(t, i, p);
	p->data = t->rx_buf + (size_t)i * t->slot_size;
	p->len = t->rx_msgs[i].msg_len;
	p->proto = dcp ? DGR_PROTO_DCP : DGR_PROTO_DGRDMA;
	memset(&p->src, 0, sizeof(p->src));
	memcpy(p->src.mac, t->rx_names[i].ll.sll_addr, 6);
	return true;
}

/* Returns the socket of the protocol's ethertype (-1: no DCP socket was opened). */
static int ether_tx_fd(const struct dgr_transport *t, enum dgr_proto proto)
{
	return proto == DGR_PROTO_DCP ? t->dcp_fd : t->fd;
}

/* Returns 0: the kernel writes the Ethernet header. */
static unsigned int ether_tx_prefix(enum dgr_proto proto, struct iovec *iov)
{
	(void)proto;
	(void)iov;
	return 0;
}

/* The peer's MAC on the interface, with the protocol's ethertype. */
static void ether_fill_dst(const struct dgr_transport *t, const struct dgr_addr *a,
			   enum dgr_proto proto, union dgr_sockaddr *sa, socklen_t *len)
{
	if (!a) {
		a = &t->peer;
	}
	memset(sa, 0, sizeof(*sa));
	sa->ll.sll_family = AF_PACKET;
	sa->ll.sll_protocol =
	    htons(proto == DGR_PROTO_DCP ? DGR_ETHERTYPE_DCP : DGR_ETHERTYPE_DGRDMA);
	sa->ll.sll_ifindex = t->ifindex;
	sa->ll.sll_halen = 6;
	memcpy(sa->ll.sll_addr, a->mac, 6);
	*len = sizeof(sa->ll);
}

/* Returns 0 with *drops set (PACKET_STATISTICS accumulated: reading resets it), or -DGR_E_SYS. */
static int ether_drops(struct dgr_transport *t, uint64_t *drops, char *errbuf)
{
	for (int i = 0; i < 2; i++) {
		int fd = i == 0 ? t->fd : t->dcp_fd;
		struct tpacket_stats st;
		socklen_t sl = sizeof(st);

		if (fd < 0) {
			continue;
		}
		if (getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &st, &sl) != 0) {
			return dgr_errbuf_set(errbuf, DGR_E_SYS, "PACKET_STATISTICS: %s",
					      strerror(errno));
		}
		t->drops_acc += st.tp_drops;
	}
	*drops = t->drops_acc;
	return 0;
}

const struct dgr_transport_ops dgr_transport_ether_ops = {
	.open = ether_open,
	.close = ether_close,
	.ring_take = dgr_rx_ring_take,
	.rx_fill = ether_rx_fill,
	.tx_fd = ether_tx_fd,
	.tx_prefix = ether_tx_prefix,
	.fill_dst = ether_fill_dst,
	.drops = ether_drops,
};
