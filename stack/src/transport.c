/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Transport front end (dgrdma/transport.h): the options' checks, batched
 * receive and send over the socket(s) that the kind opened. What differs
 * between UDP and raw Ethernet is behind the kind's ops table
 * (transport_priv.h), chosen once at open.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <dgrdma/clock.h>

#include "ring.h"
#include "transport_priv.h"

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
		t->ops = &dgr_transport_udp_ops;
		break;
	case DGR_TRANSPORT_ETHER:
		t->ops = &dgr_transport_ether_ops;
		break;
	default:
		break;
	}
	if (t->ops) {
		rc = t->ops->open(t, errbuf);
	} else {
		rc = dgr_errbuf_set(errbuf, DGR_E_INVAL, "no transport selected (--if or --udp)");
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
	if (t->ops && t->ops->close) {
		t->ops->close(t);
	}
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
		out = t->ops->ring_take(t, pkts, max); /* cheap: no system call */
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
		if (t->ops->rx_fill(t, i, i >= (unsigned int)n, &pkts[out])) {
			out++;
		}
	}
	return (int)out;
}

/* Receive calls between two readings of the clocks' offset (a realtime step shows within it). */
#define DGR_CLOCK_RESYNC 1024

static void clock_resync(struct dgr_transport *t)
{
	t->real_minus_mono = dgr_clock_real_minus_mono();
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
		int fd = t->ops->tx_fd(t, proto);
		unsigned int k = 0;
		int r;

		if (fd < 0) {
			return dgr_errbuf_set(errbuf, DGR_E_STATE, "DCP channel not opened");
		}
		while (done + k < n && k < t->batch && pkts[done + k].proto == proto) {
			const struct dgr_tx_pkt *p = &pkts[done + k];
			struct msghdr *h = &t->tx_msgs[k].msg_hdr;
			struct iovec *iov = &t->tx_iov[(1 + DGR_TX_PKT_MAX_IOV) * k];
			unsigned int pieces = p->iovcnt;
			unsigned int first;
			socklen_t sl;

			if (pieces > DGR_TX_PKT_MAX_IOV) {
				return dgr_errbuf_set(errbuf, DGR_E_INVAL,
						      "send: a packet of %u pieces (at most %d)",
						      pieces, DGR_TX_PKT_MAX_IOV);
			}

			t->ops->fill_dst(t, p->dst, proto, &t->tx_names[k], &sl);
			memset(h, 0, sizeof(*h));
			h->msg_name = &t->tx_names[k];
			h->msg_namelen = sl;
			first = t->ops->tx_prefix(proto, iov);
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

/* Returns 0 with *drops set, or -DGR_E_SYS. */
int dgr_transport_drops(struct dgr_transport *t, uint64_t *drops, char *errbuf)
{
	return t->ops->drops(t, drops, errbuf);
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
