/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What both kinds of transport do to their sockets (transport_priv.h): the
 * batch arrays of recvmmsg/sendmmsg, the buffer and busy-poll options, and the
 * control messages of a received datagram.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "transport_priv.h"

#ifndef SO_RXQ_OVFL
#define SO_RXQ_OVFL 40
#endif

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

/* Fills p->arrival_ns (0 without a timestamp) and the latest SO_RXQ_OVFL count. */
void dgr_transport_read_cmsgs(struct dgr_transport *t, unsigned int i, struct dgr_rx_pkt *p)
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
