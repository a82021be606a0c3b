/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Transport front end (dgrdma/transport.h): option parsing shared by every
 * tool, batched receive and send over the socket(s) that transport_udp.c or
 * transport_ether.c opened.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <dgrdma/cli.h>

#include "ring.h"
#include "transport_priv.h"

#ifndef SO_RXQ_OVFL
#define SO_RXQ_OVFL 40
#endif

/* Sets defaults; see the header. */
void dgr_transport_opts_init(struct dgr_transport_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->kind = DGR_TRANSPORT_NONE;
	o->bind_addr.sin_family = AF_INET;
	o->bind_addr.sin_addr.s_addr = htonl(INADDR_ANY);
	o->bind_addr.sin_port = htons(DGR_UDP_PORT);
	o->batch = DGR_TRANSPORT_DEFAULT_BATCH;
	o->dcp = true;
}

/* Returns 0 with mac filled, or -DGR_E_INVAL. */
int dgr_parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int v[6];
	char sep1, sep2, sep3, sep4, sep5;
	char extra;
	int i;

	if (!s || sscanf(s, "%2x%c%2x%c%2x%c%2x%c%2x%c%2x%c", &v[0], &sep1, &v[1], &sep2, &v[2],
			 &sep3, &v[3], &sep4, &v[4], &sep5, &v[5], &extra) != 11) {
		return -DGR_E_INVAL;
	}
	if (strlen(s) != 17) {
		return -DGR_E_INVAL;
	}
	if ((sep1 != ':' && sep1 != '-') || sep2 != sep1 || sep3 != sep1 || sep4 != sep1 ||
	    sep5 != sep1) {
		return -DGR_E_INVAL;
	}
	for (i = 0; i < 6; i++) {
		mac[i] = (uint8_t)v[i];
	}
	return 0;
}

/* Returns 0 with *sa filled, or -DGR_E_INVAL. */
int dgr_parse_inet(const char *s, uint16_t default_port, struct sockaddr_in *sa)
{
	char host[64];
	const char *colon;
	unsigned long port = default_port;
	char *end = NULL;
	size_t hlen;

	if (!s) {
		return -DGR_E_INVAL;
	}
	colon = strchr(s, ':');
	hlen = colon ? (size_t)(colon - s) : strlen(s);
	if (hlen == 0 || hlen >= sizeof(host)) {
		return -DGR_E_INVAL;
	}
	memcpy(host, s, hlen);
	host[hlen] = '\0';
	if (colon) {
		errno = 0;
		port = strtoul(colon + 1, &end, 10);
		if (errno || end == colon + 1 || *end || port > 65535) {
			return -DGR_E_INVAL;
		}
	}
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, host, &sa->sin_addr) != 1) {
		return -DGR_E_INVAL;
	}
	return 0;
}

/* Returns buf holding the address text. */
const char *dgr_addr_str(enum dgr_transport_kind kind, const struct dgr_addr *a, char *buf,
			 size_t cap)
{
	char ip[INET_ADDRSTRLEN];

	if (kind == DGR_TRANSPORT_UDP) {
		inet_ntop(AF_INET, &a->in.sin_addr, ip, sizeof(ip));
		snprintf(buf, cap, "%s:%u", ip, ntohs(a->in.sin_port));
	} else {
		snprintf(buf, cap, "%02x:%02x:%02x:%02x:%02x:%02x", a->mac[0], a->mac[1], a->mac[2],
			 a->mac[3], a->mac[4], a->mac[5]);
	}
	return buf;
}

/* Returns true when a and b name the same peer. */
bool dgr_addr_equal(enum dgr_transport_kind kind, const struct dgr_addr *a,
		    const struct dgr_addr *b)
{
	if (kind == DGR_TRANSPORT_UDP) {
		return a->in.sin_addr.s_addr == b->in.sin_addr.s_addr &&
		       a->in.sin_port == b->in.sin_port;
	}
	return memcmp(a->mac, b->mac, 6) == 0;
}

static int set_kind(struct dgr_transport_opts *o, enum dgr_transport_kind k, const char *opt,
		    char *errbuf)
{
	if (o->kind != DGR_TRANSPORT_NONE && o->kind != k) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "%s: --if (raw Ethernet) and --udp exclude each other", opt);
	}
	o->kind = k;
	return 0;
}

/* Returns 1 (consumed), 0 (not a transport option) or -DGR_E_INVAL. */
int dgr_transport_parse_opt(struct dgr_transport_opts *o, int opt, const char *arg, char *errbuf)
{
	uint64_t v;
	int rc;

	switch (opt) {
	case DGR_OPT_IF:
		if (!arg || !*arg || strlen(arg) >= sizeof(o->ifname)) {
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL,
			    "--if: '%s' is not an interface name (1..%zu characters)",
			    arg ? arg : "", sizeof(o->ifname) - 1);
		}
		rc = set_kind(o, DGR_TRANSPORT_ETHER, "--if", errbuf);
		if (rc < 0) {
			return rc;
		}
		snprintf(o->ifname, sizeof(o->ifname), "%s", arg);
		return 1;
	case DGR_OPT_UDP:
		rc = set_kind(o, DGR_TRANSPORT_UDP, "--udp", errbuf);
		return rc < 0 ? rc : 1;
	case DGR_OPT_PEER:
		if (!arg || strlen(arg) >= sizeof(o->peer_arg)) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL, "--peer: value too long");
		}
		snprintf(o->peer_arg, sizeof(o->peer_arg), "%s", arg);
		return 1;
	case DGR_OPT_BIND:
		if (dgr_parse_inet(arg, DGR_UDP_PORT, &o->bind_addr) < 0) {
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL,
			    "--bind: '%s' is not ADDR[:PORT] (IPv4 address, port 0..65535)",
			    arg ? arg : "");
		}
		return 1;
	case DGR_OPT_MTU:
		rc = dgr_parse_u64("--mtu", arg, 64, 65535, false, &v, errbuf);
		if (rc < 0) {
			return rc;
		}
		o->mtu = (unsigned int)v;
		return 1;
	case DGR_OPT_RCVBUF:
	case DGR_OPT_SNDBUF:
		rc = dgr_parse_u64(opt == DGR_OPT_RCVBUF ? "--rcvbuf" : "--sndbuf", arg, 4096,
				   1024ull * 1024 * 1024, true, &v, errbuf);
		if (rc < 0) {
			return rc;
		}
		if (opt == DGR_OPT_RCVBUF) {
			o->rcvbuf = (int)v;
		} else {
			o->sndbuf = (int)v;
		}
		return 1;
	case DGR_OPT_BUSY_POLL:
		rc = dgr_parse_u64("--busy-poll", arg, 0, 1000000, false, &v, errbuf);
		if (rc < 0) {
			return rc;
		}
		o->busy_poll_us = (unsigned int)v;
		return 1;
	case DGR_OPT_NO_RX_RING:
		o->no_rx_ring = true;
		return 1;
	case DGR_OPT_BATCH:
		rc = dgr_parse_u64("--batch", arg, 1, DGR_TRANSPORT_MAX_BATCH, false, &v, errbuf);
		if (rc < 0) {
			return rc;
		}
		o->batch = (unsigned int)v;
		return 1;
	default:
		return 0;
	}
}

/* Returns 0, or -DGR_E_INVAL naming the problem. */
int dgr_transport_opts_finish(struct dgr_transport_opts *o, bool peer_required, char *errbuf)
{
	if (o->kind == DGR_TRANSPORT_NONE) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "no transport: give --if IFACE --peer MAC (raw Ethernet) or "
				      "--udp --bind ADDR:PORT --peer ADDR:PORT");
	}
	if (o->kind == DGR_TRANSPORT_ETHER && !o->ifname[0]) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "--if: an interface name is required");
	}
	o->have_peer = false;
	memset(&o->peer, 0, sizeof(o->peer));
	if (o->peer_arg[0]) {
		if (o->kind == DGR_TRANSPORT_ETHER) {
			if (dgr_parse_mac(o->peer_arg, o->peer.mac) < 0) {
				return dgr_errbuf_set(
				    errbuf, DGR_E_INVAL,
				    "--peer: '%s' is not a MAC address (aa:bb:cc:dd:ee:ff) "
				    "as raw Ethernet (--if) needs",
				    o->peer_arg);
			}
		} else if (dgr_parse_inet(o->peer_arg, DGR_UDP_PORT, &o->peer.in) < 0 ||
			   o->peer.in.sin_port == 0) {
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL,
			    "--peer: '%s' is not ADDR[:PORT] (IPv4 address, port 1..65535) "
			    "as --udp needs",
			    o->peer_arg);
		}
		o->have_peer = true;
	} else if (peer_required) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "--peer is required (%s)",
				      o->kind == DGR_TRANSPORT_ETHER ? "the peer's MAC address"
								     : "the peer's ADDR:PORT");
	}
	if (o->peer_only && !o->have_peer) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "receiving from one peer only needs --peer (the peer's %s)",
				      o->kind == DGR_TRANSPORT_ETHER ? "MAC address" : "ADDR:PORT");
	}
	if (o->kind == DGR_TRANSPORT_UDP && o->mtu && dgr_frame_cap_udp(o->mtu) < 64) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--mtu: %u leaves no room for a frame over UDP", o->mtu);
	}
	return 0;
}

/* Returns 0 or -DGR_E_NOMEM. */
int dgr_transport_alloc_batches(struct dgr_transport *t, char *errbuf)
{
	unsigned int i;
	unsigned int b = t->batch;

	t->rx_buf = aligned_alloc(64, b * t->slot_size);
	t->rx_msgs = calloc(b, sizeof(*t->rx_msgs));
	t->rx_iov = calloc(b, sizeof(*t->rx_iov));
	t->rx_names = calloc(b, sizeof(*t->rx_names));
	t->rx_ctrl = calloc(b, DGR_RX_CTRL_SIZE);
	t->tx_msgs = calloc(b, sizeof(*t->tx_msgs));
	t->tx_iov = calloc((1 + DGR_TX_PKT_MAX_IOV) * (size_t)b, sizeof(*t->tx_iov));
	t->tx_names = calloc(b, sizeof(*t->tx_names));
	if (!t->rx_buf || !t->rx_msgs || !t->rx_iov || !t->rx_names || !t->rx_ctrl || !t->tx_msgs ||
	    !t->tx_iov || !t->tx_names) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM,
				      "out of memory for %u receive slots of %zu bytes", b,
				      t->slot_size);
	}
	for (i = 0; i < b; i++) {
		t->rx_iov[i].iov_base = t->rx_buf + (size_t)i * t->slot_size;
		t->rx_iov[i].iov_len = t->slot_size;
		t->rx_msgs[i].msg_hdr.msg_iov = &t->rx_iov[i];
		t->rx_msgs[i].msg_hdr.msg_iovlen = 1;
		t->rx_msgs[i].msg_hdr.msg_name = &t->rx_names[i];
	}
	return 0;
}

/* Returns 0 or a negative code with errbuf naming the option, errno text and fix. */
int dgr_transport_sockopts(struct dgr_transport *t, int fd, bool skip_rcvbuf, char *errbuf)
{
	const struct dgr_transport_opts *o = &t->opts;
	int v;
	int eff;
	socklen_t sl = sizeof(eff);
	int i;

	for (i = 0; i < 2; i++) {
		int want = i == 0 ? o->rcvbuf : o->sndbuf;
		int force = i == 0 ? SO_RCVBUFFORCE : SO_SNDBUFFORCE;
		int plain = i == 0 ? SO_RCVBUF : SO_SNDBUF;
		const char *name = i == 0 ? "--rcvbuf" : "--sndbuf";
		const char *sysctl = i == 0 ? "net.core.rmem_max" : "net.core.wmem_max";

		if (want == 0 || (i == 0 && skip_rcvbuf)) {
			continue;
		}
		v = want;
		if (setsockopt(fd, SOL_SOCKET, force, &v, sizeof(v)) != 0) {
			int err = errno;

			if (err != EPERM) {
				return dgr_errbuf_set(errbuf, DGR_E_SYS, "%s %d: setsockopt: %s",
						      name, want, strerror(err));
			}
			if (setsockopt(fd, SOL_SOCKET, plain, &v, sizeof(v)) != 0) {
				return dgr_errbuf_set(errbuf, DGR_E_SYS, "%s %d: setsockopt: %s",
						      name, want, strerror(errno));
			}
			sl = sizeof(eff);
			if (getsockopt(fd, SOL_SOCKET, plain, &eff, &sl) == 0 && eff / 2 < want) {
				return dgr_errbuf_set(
				    errbuf, DGR_E_PERM,
				    "%s %d refused: the forced size needs CAP_NET_ADMIN (%s) "
				    "and the plain one is capped at %d by %s; run as root, "
				    "`setcap cap_net_raw,cap_net_admin+ep PROGRAM`, or "
				    "`sysctl -w %s=%d`",
				    name, want, strerror(err), eff / 2, sysctl, sysctl, want);
			}
		}
	}
	if (o->busy_poll_us) {
		v = (int)o->busy_poll_us;
		if (setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &v, sizeof(v)) != 0) {
			int err = errno;

			return dgr_errbuf_set(
			    errbuf, err == EPERM ? DGR_E_PERM : DGR_E_SYS,
			    "--busy-poll %u: SO_BUSY_POLL: %s%s", o->busy_poll_us, strerror(err),
			    err == EPERM ? " (needs CAP_NET_ADMIN: run as root or "
					   "`setcap cap_net_raw,cap_net_admin+ep PROGRAM`; "
					   "or set `sysctl -w net.core.busy_read=USEC` and "
					   "drop --busy-poll)"
					 : "");
		}
	}
	sl = sizeof(eff);
	if (!skip_rcvbuf && getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &eff, &sl) == 0) {
		t->rcvbuf_eff = eff;
	}
	sl = sizeof(eff);
	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &eff, &sl) == 0) {
		t->sndbuf_eff = eff;
	}
	return 0;
}

/* Returns 0 with *out set, or a negative code (see the header). */
int dgr_transport_open(const struct dgr_transport_opts *o, struct dgr_transport **out, char *errbuf)
{
	struct dgr_transport *t;
	int rc;

	t = calloc(1, sizeof(*t));
	if (!t) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	t->opts = *o;
	t->kind = o->kind;
	t->fd = -1;
	t->dcp_fd = -1;
	t->batch = o->batch ? o->batch : DGR_TRANSPORT_DEFAULT_BATCH;
	if (t->batch > DGR_TRANSPORT_MAX_BATCH) {
		t->batch = DGR_TRANSPORT_MAX_BATCH;
	}
	if (o->have_peer) {
		t->peer = o->peer;
	}
	switch (o->kind) {
	case DGR_TRANSPORT_UDP:
		rc = dgr_transport_udp_open(t, errbuf);
		break;
	case DGR_TRANSPORT_ETHER:
		rc = dgr_transport_ether_open(t, errbuf);
		break;
	default:
		rc = dgr_errbuf_set(errbuf, DGR_E_INVAL, "no transport selected (--if or --udp)");
		break;
	}
	if (rc < 0) {
		dgr_transport_close(t);
		return rc;
	}
	*out = t;
	return 0;
}

/* Frees everything (NULL accepted). */
void dgr_transport_close(struct dgr_transport *t)
{
	if (!t) {
		return;
	}
	if (t->fd >= 0) {
		close(t->fd);
	}
	if (t->dcp_fd >= 0) {
		close(t->dcp_fd);
	}
	dgr_rx_ring_free(&t->ring);
	free(t->rx_buf);
	free(t->rx_msgs);
	free(t->rx_iov);
	free(t->rx_names);
	free(t->rx_ctrl);
	free(t->tx_msgs);
	free(t->tx_iov);
	free(t->tx_names);
	free(t);
}

/* One non-blocking recvmmsg on fd into slots [first, first+max); returns count, 0 or -errno. */
static int recv_batch(struct dgr_transport *t, int fd, unsigned int first, unsigned int max)
{
	unsigned int i;
	int n;

	for (i = first; i < first + max; i++) {
		struct msghdr *h = &t->rx_msgs[i].msg_hdr;

		h->msg_namelen = sizeof(t->rx_names[i]);
		h->msg_control = t->rx_ctrl + (size_t)i * DGR_RX_CTRL_SIZE;
		h->msg_controllen = DGR_RX_CTRL_SIZE;
		h->msg_flags = 0;
	}
	n = recvmmsg(fd, &t->rx_msgs[first], max, MSG_DONTWAIT, NULL);
	if (n < 0) {
		/* ECONNREFUSED: a connected UDP socket (peer_only) got an ICMP port unreachable */
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ||
		    errno == ECONNREFUSED) {
			return 0;
		}
		return -errno;
	}
	return n;
}

/* Reads slot i's control messages: the kernel's drop count and receive time. */
static void read_cmsgs(struct dgr_transport *t, unsigned int i, struct dgr_rx_pkt *p)
{
	struct msghdr *h = &t->rx_msgs[i].msg_hdr;
	struct cmsghdr *c;

	p->arrival_ns = 0;
	for (c = CMSG_FIRSTHDR(h); c; c = CMSG_NXTHDR(h, c)) {
		if (c->cmsg_level != SOL_SOCKET) {
			continue;
		}
		if (c->cmsg_type == SO_RXQ_OVFL) {
			uint32_t ovfl;

			memcpy(&ovfl, CMSG_DATA(c), sizeof(ovfl));
			__atomic_store_n(&t->ovfl_last, ovfl, __ATOMIC_RELAXED);
		} else if (c->cmsg_type == SO_TIMESTAMPNS) {
			struct timespec ts;

			memcpy(&ts, CMSG_DATA(c), sizeof(ts));
			p->arrival_ns = dgr_transport_arrival(t, ts.tv_sec, ts.tv_nsec);
		}
	}
}

static void fill_udp_pkt(struct dgr_transport *t, unsigned int i, struct dgr_rx_pkt *p)
{
	const uint8_t *d = t->rx_buf + (size_t)i * t->slot_size;
	size_t len = t->rx_msgs[i].msg_len;
	int kind;

	read_cmsgs(t, i, p);
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
		return;
	}
	p->proto = kind == DGR_UDP_DCP ? DGR_PROTO_DCP : DGR_PROTO_DGRDMA;
}

/*
 * Non-blocking pass over the socket(s); returns packets or -errno. DG-RDMA
 * frames come from the receive ring (in place) or from recvmmsg into the
 * slots from 0; DCP packets go to the slots after them. The DCP socket (raw
 * Ethernet) is read when want_dcp is set (poll said readable) and otherwise
 * every 64th pass, so a busy data path pays no extra system call for the
 * quiet control plane.
 */
static int recv_once(struct dgr_transport *t, struct dgr_rx_pkt *pkts, unsigned int max,
		     bool want_data, bool want_dcp)
{
	unsigned int i;
	unsigned int out = 0;
	int n = 0;
	int nd = 0;

	if (t->ring.map) {
		out = dgr_rx_ring_take(t, pkts, max); /* cheap: no system call */
	} else if (want_data) {
		n = recv_batch(t, t->fd, 0, max);
		if (n < 0) {
			return n;
		}
	}
	if (t->dcp_fd >= 0 && ++t->dcp_skip >= 64) {
		want_dcp = true;
	}
	if (out + (unsigned int)n < max && t->dcp_fd >= 0 && want_dcp) {
		t->dcp_skip = 0;
		nd = recv_batch(t, t->dcp_fd, (unsigned int)n, max - out - (unsigned int)n);
		if (nd < 0) {
			return nd;
		}
	}
	for (i = 0; i < (unsigned int)(n + nd); i++) {
		struct dgr_rx_pkt *p = &pkts[out];

		if (t->kind == DGR_TRANSPORT_UDP) {
			fill_udp_pkt(t, i, p);
			out++;
			continue;
		}
		if (t->rx_names[i].ll.sll_pkttype == PACKET_OUTGOING) {
			continue; /* our own frame, seen on the way out */
		}
		read_cmsgs(t, i, p);
		p->data = t->rx_buf + (size_t)i * t->slot_size;
		p->len = t->rx_msgs[i].msg_len;
		p->proto = i < (unsigned int)n ? DGR_PROTO_DGRDMA : DGR_PROTO_DCP;
		memset(&p->src, 0, sizeof(p->src));
		memcpy(p->src.mac, t->rx_names[i].ll.sll_addr, 6);
		out++;
	}
	return (int)out;
}

/* Receive calls between two readings of the clocks' offset (a realtime step shows within it). */
#define DGR_CLOCK_RESYNC 1024

static void clock_resync(struct dgr_transport *t)
{
	struct timespec r, m;

	clock_gettime(CLOCK_REALTIME, &r);
	clock_gettime(CLOCK_MONOTONIC, &m);
	t->real_minus_mono = ((int64_t)r.tv_sec - (int64_t)m.tv_sec) * 1000000000ll +
			     ((int64_t)r.tv_nsec - (int64_t)m.tv_nsec);
}

/* Returns packets received (0 on timeout) or -DGR_E_SYS. */
int dgr_transport_recv(struct dgr_transport *t, struct dgr_rx_pkt *pkts, unsigned int max,
		       int timeout_ms, char *errbuf)
{
	struct pollfd pfd[2];
	unsigned int nfds = 0;
	uint64_t deadline = 0;
	bool want_data = true;
	bool want_dcp = false;
	int n;

	if (max > t->batch) {
		max = t->batch;
	}
	if (max == 0) {
		return 0;
	}
	if (t->clock_age++ % DGR_CLOCK_RESYNC == 0) {
		clock_resync(t);
	}
	for (;;) {
		n = recv_once(t, pkts, max, want_data, want_dcp);
		if (n < 0) {
			return dgr_errbuf_set(errbuf, DGR_E_SYS, "receive: %s", strerror(-n));
		}
		if (n > 0 || timeout_ms == 0) {
			return n;
		}
		if (t->opts.busy_poll_us) {
			uint64_t now = dgr_now_ns();

			if (deadline == 0) {
				deadline = timeout_ms < 0 ? UINT64_MAX
							  : now + (uint64_t)timeout_ms * 1000000ull;
			}
			if (now >= deadline) {
				return 0;
			}
			continue;
		}
		if (nfds == 0) {
			pfd[nfds].fd = t->fd;
			pfd[nfds++].events = POLLIN;
			if (t->dcp_fd >= 0) {
				pfd[nfds].fd = t->dcp_fd;
				pfd[nfds++].events = POLLIN;
			}
		}
		n = poll(pfd, nfds, timeout_ms);
		if (n < 0 && errno != EINTR) {
			return dgr_errbuf_set(errbuf, DGR_E_SYS, "poll: %s", strerror(errno));
		}
		if (n <= 0) {
			return 0;
		}
		want_data = (pfd[0].revents & POLLIN) != 0;
		want_dcp = nfds > 1 && (pfd[1].revents & POLLIN) != 0;
		timeout_ms = 0; /* something is readable: take it, do not wait again */
	}
}

static const uint8_t pad_dgrdma[2] = { 0x00, 0x00 };
static const uint8_t pad_dcp[2] = { (DGR_UDP_PAD_DCP >> 8) & 0xff, DGR_UDP_PAD_DCP & 0xff };

/* Fills the destination address for a packet of proto to a (the peer when NULL). */
void dgr_transport_fill_dst(const struct dgr_transport *t, const struct dgr_addr *a,
			    enum dgr_proto proto, union dgr_sockaddr *sa, socklen_t *len)
{
	if (!a) {
		a = &t->peer;
	}
	memset(sa, 0, sizeof(*sa));
	if (t->kind == DGR_TRANSPORT_UDP) {
		sa->in = a->in;
		sa->in.sin_family = AF_INET;
		*len = sizeof(sa->in);
		return;
	}
	sa->ll.sll_family = AF_PACKET;
	sa->ll.sll_protocol =
	    htons(proto == DGR_PROTO_DCP ? DGR_ETHERTYPE_DCP : DGR_ETHERTYPE_DGRDMA);
	sa->ll.sll_ifindex = t->ifindex;
	sa->ll.sll_halen = 6;
	memcpy(sa->ll.sll_addr, a->mac, 6);
	*len = sizeof(sa->ll);
}

static bool lost_not_failed(int err)
{
	/* the datagram is gone, as a frame lost on the wire would be */
	return err == ENOBUFS || err == ECONNREFUSED || err == EHOSTUNREACH || err == ENETUNREACH ||
	       err == EMSGSIZE;
}

/* Returns packets sent (lost-on-send counted as sent), or -DGR_E_SYS / -DGR_E_STATE. */
int dgr_transport_send(struct dgr_transport *t, const struct dgr_tx_pkt *pkts, unsigned int n,
		       char *errbuf)
{
	unsigned int done = 0;

	while (done < n) {
		enum dgr_proto proto = pkts[done].proto;
		int fd = t->fd;
		unsigned int k = 0;
		int r;

		if (t->kind == DGR_TRANSPORT_ETHER && proto == DGR_PROTO_DCP) {
			fd = t->dcp_fd;
			if (fd < 0) {
				return dgr_errbuf_set(errbuf, DGR_E_STATE,
						      "DCP channel not opened");
			}
		}
		while (done + k < n && k < t->batch && pkts[done + k].proto == proto) {
			const struct dgr_tx_pkt *p = &pkts[done + k];
			struct msghdr *h = &t->tx_msgs[k].msg_hdr;
			struct iovec *iov = &t->tx_iov[(1 + DGR_TX_PKT_MAX_IOV) * k];
			unsigned int pieces = p->iovcnt;
			unsigned int first = 0;
			socklen_t sl;

			if (pieces > DGR_TX_PKT_MAX_IOV) {
				return dgr_errbuf_set(errbuf, DGR_E_INVAL,
						      "send: a packet of %u pieces (at most %d)",
						      pieces, DGR_TX_PKT_MAX_IOV);
			}

			dgr_transport_fill_dst(t, p->dst, proto, &t->tx_names[k], &sl);
			memset(h, 0, sizeof(*h));
			h->msg_name = &t->tx_names[k];
			h->msg_namelen = sl;
			if (t->kind == DGR_TRANSPORT_UDP) {
				iov[0].iov_base =
				    (void *)(proto == DGR_PROTO_DCP ? pad_dcp : pad_dgrdma);
				iov[0].iov_len = DGR_UDP_PAD_LEN;
				first = 1;
			}
			if (pieces > 0) {
				memcpy(iov + first, p->iov, pieces * sizeof(*iov));
			} else {
				iov[first].iov_base = (void *)p->data;
				iov[first].iov_len = p->len;
				pieces = 1;
			}
			h->msg_iov = iov;
			h->msg_iovlen = first + pieces;
			k++;
		}
		r = sendmmsg(fd, t->tx_msgs, k, 0);
		if (r < 0) {
			if (errno == EINTR) {
				continue;
			}
			if (lost_not_failed(errno)) {
				done++;
				continue;
			}
			if (done == 0) {
				return dgr_errbuf_set(errbuf, DGR_E_SYS, "send: %s",
						      strerror(errno));
			}
			return (int)done;
		}
		done += (unsigned int)r;
	}
	return (int)done;
}

/* Returns the largest frame the transport carries. */
size_t dgr_transport_frame_cap(const struct dgr_transport *t)
{
	return t->frame_cap;
}

/* Returns the MTU in use. */
unsigned int dgr_transport_mtu(const struct dgr_transport *t)
{
	return t->mtu;
}

/* Returns the transport kind. */
enum dgr_transport_kind dgr_transport_kind_of(const struct dgr_transport *t)
{
	return t->kind;
}

/* Fills *a with the local address. */
void dgr_transport_local_addr(const struct dgr_transport *t, struct dgr_addr *a)
{
	*a = t->local;
}

/* Returns the default destination. */
const struct dgr_addr *dgr_transport_peer(const struct dgr_transport *t)
{
	return &t->peer;
}

/* Sets the default destination. */
void dgr_transport_set_peer(struct dgr_transport *t, const struct dgr_addr *peer)
{
	t->peer = *peer;
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

/* Returns 0 with *drops set, or -DGR_E_SYS. */
int dgr_transport_drops(struct dgr_transport *t, uint64_t *drops, char *errbuf)
{
	if (t->kind == DGR_TRANSPORT_UDP) {
		uint64_t proc = 0;

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

/* Reports the effective socket buffer sizes. */
void dgr_transport_bufsizes(const struct dgr_transport *t, int *rcvbuf, int *sndbuf)
{
	*rcvbuf = t->rcvbuf_eff;
	*sndbuf = t->sndbuf_eff;
}

/* True with a receive ring. */
bool dgr_transport_has_rx_ring(const struct dgr_transport *t)
{
	return t->ring.map != NULL;
}

/* Returns how many descriptors were written to fds. */
unsigned int dgr_transport_fds(const struct dgr_transport *t, int fds[2])
{
	unsigned int n = 0;

	fds[n++] = t->fd;
	if (t->dcp_fd >= 0) {
		fds[n++] = t->dcp_fd;
	}
	return n;
}

/* net.core.rmem_max, the largest SO_RCVBUF without CAP_NET_ADMIN; 0 when unreadable. */
static int read_rmem_max(void)
{
	FILE *f = fopen("/proc/sys/net/core/rmem_max", "r");
	long v = 0;

	if (!f) {
		return 0;
	}
	if (fscanf(f, "%ld", &v) != 1 || v < 0 || v > INT32_MAX) {
		v = 0;
	}
	fclose(f);
	return (int)v;
}

/* Returns 0 with *out set, or a negative code (see the header). */
int dgr_transport_open_sized(const struct dgr_transport_opts *o, int want_rcvbuf,
			     struct dgr_transport **out, char *errbuf, char *warnbuf)
{
	struct dgr_transport_opts topts = *o;
	char first[DGR_ERRBUF_SIZE];
	int rc;

	if (warnbuf) {
		warnbuf[0] = '\0';
	}
	if (o->rcvbuf != 0 || want_rcvbuf <= 0) {
		return dgr_transport_open(o, out, errbuf);
	}
	topts.rcvbuf = want_rcvbuf;
	rc = dgr_transport_open(&topts, out, errbuf);
	if (rc != -DGR_E_PERM) {
		return rc;
	}
	/* The size, or the socket itself? The smaller sizes tell. */
	snprintf(first, sizeof(first), "%s", errbuf ? errbuf : "refused");
	topts.rcvbuf = read_rmem_max();
	if (topts.rcvbuf >= want_rcvbuf) {
		topts.rcvbuf = 0;
	}
	rc = topts.rcvbuf ? dgr_transport_open(&topts, out, errbuf) : -DGR_E_PERM;
	if (rc == -DGR_E_PERM) {
		topts.rcvbuf = 0;
		rc = dgr_transport_open(&topts, out, errbuf);
	}
	if (rc == 0 && warnbuf) {
		/* errbuf texts are short; cut the reason if it ever is not */
		if (topts.rcvbuf) {
			snprintf(warnbuf, DGR_ERRBUF_SIZE,
				 "receive buffer limited to net.core.rmem_max (%d bytes): %.180s",
				 topts.rcvbuf, first);
		} else {
			snprintf(warnbuf, DGR_ERRBUF_SIZE,
				 "receive buffer left at the system default: %.190s", first);
		}
	}
	return rc;
}
