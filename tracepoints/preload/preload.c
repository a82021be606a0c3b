// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libdgrdma-preload.so: an LD_PRELOAD tracer for a DG-RDMA host that cannot be
 * rebuilt with the stack's tracepoints (OpenCPI's runtime: raw packet sockets
 * on the ethertype, or UDP; recvmsg and sendmsg).
 *
 * It interposes the libc socket calls, recognises DG-RDMA sockets (packet
 * sockets on ETH_P_ALL or the DG-RDMA / DCP ethertypes; UDP sockets bound,
 * connected or sending to port 18078 or a port of DGR_PRELOAD_UDP_PORTS) and
 * hands each frame that passes to flow.c. Everything else goes straight to
 * libc.
 *
 * The application must see exactly what it would without the tracer. The one
 * thing the tracer adds is SO_TIMESTAMPNS (the kernel's receive time of each
 * frame) on the sockets it recognises; it supplies the control-message room
 * for it and removes its message before the application sees the result.
 * The kernel writes the timestamp first, so the application's own messages
 * land, and are truncated (MSG_CTRUNC), exactly where they would have been in
 * its own buffer. Where that cannot be kept (the application sets a
 * timestamp option itself, or passes more control room than the tracer's
 * shadow buffers hold), the tracer gives its option up and takes the time
 * the receive call returned. docs/tracepoints.md, "Tracing an unmodified
 * host", has the rest.
 */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <dgrdma/clock.h>
#include <dgrdma/contract.h>
#include <dgrdma/proto.h>
#include <dgrdma/wire.h>

#include "flow.h"

#define PL_EXPORT	__attribute__((visibility("default")))
#define PL_MAX_FD	65536
#define PL_MAX_PORTS	16
#define PL_CTL_MAX	1024 /* largest application control buffer the shadow holds */
#define PL_TS_SPACE	CMSG_SPACE(sizeof(struct timespec))
#define PL_MMSG_MAX	64	     /* messages of one recvmmsg the shadow holds */
#define PL_MMSG_CTL	256	     /* control room per message in that shadow */
#define PL_GATHER_MAX	(65536 + 64) /* largest frame decoded from scattered pieces */
#define PL_CLOCK_RESYNC 1024	     /* receive calls between readings of the clock offset */

enum pl_kind {
	PL_UDP_MAYBE,  /* a UDP socket whose ports are not known yet */
	PL_UDP,	       /* a UDP socket on a DG-RDMA port */
	PL_PACKET_RAW, /* packet socket, SOCK_RAW: the Ethernet header comes with each frame */
	PL_PACKET_DGRAM,
};

struct pl_sock {
	enum pl_kind kind;
	uint16_t ethertype; /* packet sockets: the protocol bound (host order); 0 = all */
	bool ts_own;	    /* the tracer enabled SO_TIMESTAMPNS and hides it */
	bool app_ts;	    /* the application set a timestamp option itself */
	struct pl_flow *flow;
	struct pl_sock *next_free;
};

/* The libc functions wrapped, resolved with dlsym(RTLD_NEXT). */
static int (*real_socket)(int, int, int);
static int (*real_bind)(int, const struct sockaddr *, socklen_t);
static int (*real_connect)(int, const struct sockaddr *, socklen_t);
static int (*real_close)(int);
static int (*real_setsockopt)(int, int, int, const void *, socklen_t);
static int (*real_getsockopt)(int, int, int, void *, socklen_t *);
static ssize_t (*real_recv)(int, void *, size_t, int);
static ssize_t (*real_recvfrom)(int, void *, size_t, int, struct sockaddr *, socklen_t *);
static ssize_t (*real_recvmsg)(int, struct msghdr *, int);
static int (*real_recvmmsg)(int, struct mmsghdr *, unsigned int, int, struct timespec *);
static ssize_t (*real_send)(int, const void *, size_t, int);
static ssize_t (*real_sendto)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
static ssize_t (*real_sendmsg)(int, const struct msghdr *, int);
static int (*real_sendmmsg)(int, struct mmsghdr *, unsigned int, int);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_write)(int, const void *, size_t);

static struct pl_sock *pl_fds[PL_MAX_FD];
static pthread_mutex_t pl_alloc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pl_sock *pl_free_socks;
static uint16_t pl_next_conn;
static uint16_t pl_ports[PL_MAX_PORTS] = { DGR_UDP_PORT };
static unsigned int pl_nports = 1;
/* DCP writes to these property addresses are doorbells (DGR_PRELOAD_DCP_DOORBELLS) */
static uint32_t pl_dcp_bell_lo = DGR_DCP_DOORBELL_ADDR, pl_dcp_bell_hi = DGR_DCP_DOORBELL_ADDR;
static int64_t pl_real_minus_mono;

/*
 * Per-thread room, allocated at a thread's first traced call (not in static TLS, which glibc
 * takes from every thread's stack) and freed when the thread ends.
 */
struct pl_scratch {
	uint8_t gather[PL_GATHER_MAX];
	struct mmsghdr mmsg[PL_MMSG_MAX];
	union {
		char buf[PL_MMSG_MAX][PL_MMSG_CTL + PL_TS_SPACE];
		struct cmsghdr align;
	} ctl;
};

static __thread struct pl_scratch *pl_scratch;
static __thread unsigned int pl_recv_calls;
static pthread_key_t pl_scratch_key;

#define RESOLVE(name)                                                                              \
	do {                                                                                       \
		if (!real_##name) {                                                                \
			*(void **)&real_##name = dlsym(RTLD_NEXT, #name);                          \
		}                                                                                  \
	} while (0)

static void resolve_all(void)
{
	RESOLVE(socket);
	RESOLVE(bind);
	RESOLVE(connect);
	RESOLVE(close);
	RESOLVE(setsockopt);
	RESOLVE(getsockopt);
	RESOLVE(recv);
	RESOLVE(recvfrom);
	RESOLVE(recvmsg);
	RESOLVE(recvmmsg);
	RESOLVE(send);
	RESOLVE(sendto);
	RESOLVE(sendmsg);
	RESOLVE(sendmmsg);
	RESOLVE(read);
	RESOLVE(write);
}

/*
 * A setting the library cannot use, said once on standard error (the program's own socket calls
 * are not touched; a misspelt port would otherwise leave its stream untraced without a word).
 * dgrdma-capture --preload refuses such values before it starts the program.
 */
static void warn_setting(const char *name, const char *value, const char *what)
{
	char line[512];
	int saved = errno;
	int n = snprintf(line, sizeof(line), "libdgrdma-preload: %s='%s': %s\n", name, value, what);

	if (n > 0 && real_write) {
		(void)real_write(STDERR_FILENO, line,
				 (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	}
	errno = saved;
}

/* One number of a setting, the whole of [s, stop): decimal, 0x hex or 0 octal, as strtoul's base 0.
 */
static bool setting_number(const char *s, const char *stop, int base, unsigned long max,
			   unsigned long *v)
{
	char *end;

	if (s == stop || *s < '0' || *s > '9') {
		return false;
	}
	errno = 0;
	*v = strtoul(s, &end, base);
	return end == stop && errno == 0 && *v <= max;
}

/*
 * DGR_PRELOAD_DCP_DOORBELLS: the DCP property addresses whose writes are doorbells, ADDR or
 * LO:HI (0..0xFFFFFF, as latency-report's --dcp-doorbells); a bad value is said and leaves
 * the default, the doorbell property of worker 0.
 */
static void read_dcp_doorbells(void)
{
	const char *s = getenv("DGR_PRELOAD_DCP_DOORBELLS");
	const char *colon, *end;
	unsigned long lo, hi;

	if (!s || !*s) {
		return;
	}
	colon = strchr(s, ':');
	end = s + strlen(s);
	if (!setting_number(s, colon ? colon : end, 0, 0xFFFFFF, &lo) ||
	    (colon && !setting_number(colon + 1, end, 0, 0xFFFFFF, &hi))) {
		warn_setting(
		    "DGR_PRELOAD_DCP_DOORBELLS", s,
		    "not ADDR or LO:HI (0..0xFFFFFF); DCP writes to 0x100018 are the doorbells");
		return;
	}
	if (!colon) {
		hi = lo;
	}
	if (lo > hi) {
		warn_setting("DGR_PRELOAD_DCP_DOORBELLS", s,
			     "LO above HI; DCP writes to 0x100018 are the doorbells");
		return;
	}
	pl_dcp_bell_lo = (uint32_t)lo;
	pl_dcp_bell_hi = (uint32_t)hi;
}

/*
 * DGR_PRELOAD_UDP_PORTS: more UDP ports, comma-separated (1..65535, at most PL_MAX_PORTS);
 * a bad entry is said and skipped, the others taken.
 */
static void read_ports(void)
{
	const char *all = getenv("DGR_PRELOAD_UDP_PORTS");
	const char *s = all, *comma;
	unsigned long v;
	char why[96];
	int entry = 0;

	while (s && *s) {
		entry++;
		comma = strchr(s, ',');
		if (!comma) {
			comma = s + strlen(s);
		}
		if (!setting_number(s, comma, 10, 65535, &v) || v == 0) {
			snprintf(why, sizeof(why), "entry %d is not a port (1..65535), skipped",
				 entry);
			warn_setting("DGR_PRELOAD_UDP_PORTS", all, why);
		} else if (pl_nports == PL_MAX_PORTS) {
			snprintf(why, sizeof(why),
				 "more than %d ports besides %d, the rest skipped",
				 PL_MAX_PORTS - 1, DGR_UDP_PORT);
			warn_setting("DGR_PRELOAD_UDP_PORTS", all, why);
			return;
		} else {
			pl_ports[pl_nports++] = (uint16_t)v;
		}
		s = *comma ? comma + 1 : comma;
	}
}

static void clock_resync(void)
{
	__atomic_store_n(&pl_real_minus_mono, dgr_clock_real_minus_mono(), __ATOMIC_RELAXED);
}

/* The calling thread's scratch room, or NULL when memory ran out. */
static struct pl_scratch *scratch(void)
{
	if (!pl_scratch) {
		pl_scratch = malloc(sizeof(*pl_scratch));
		if (pl_scratch) {
			(void)pthread_setspecific(pl_scratch_key, pl_scratch);
		}
	}
	return pl_scratch;
}

__attribute__((constructor)) static void pl_init(void)
{
	(void)pthread_key_create(&pl_scratch_key, free);
	resolve_all();
	read_ports();
	read_dcp_doorbells();
	clock_resync();
}

static struct pl_sock *lookup(int fd)
{
	if (fd < 0 || fd >= PL_MAX_FD) {
		return NULL;
	}
	return __atomic_load_n(&pl_fds[fd], __ATOMIC_ACQUIRE);
}

static bool port_wanted(uint16_t port)
{
	for (unsigned int i = 0; i < pl_nports; i++) {
		if (pl_ports[i] == port) {
			return true;
		}
	}
	return false;
}

/* The port of an IPv4 or IPv6 address, 0 when none. */
static uint16_t addr_port(const struct sockaddr *sa, socklen_t len)
{
	if (!sa) {
		return 0;
	}
	if (sa->sa_family == AF_INET && len >= (socklen_t)sizeof(struct sockaddr_in)) {
		return ntohs(((const struct sockaddr_in *)sa)->sin_port);
	}
	if (sa->sa_family == AF_INET6 && len >= (socklen_t)sizeof(struct sockaddr_in6)) {
		return ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
	}
	return 0;
}

static bool ethertype_wanted(uint16_t et)
{
	return et == ETH_P_ALL || et == DGR_ETHERTYPE_DGRDMA || et == DGR_ETHERTYPE_DCP;
}

/* Turns SO_TIMESTAMPNS on for the tracer, unless the application set a timestamp option. */
static void own_timestamps(int fd, struct pl_sock *s)
{
	int one = 1;

	if (s->app_ts || s->ts_own) {
		return;
	}
	s->ts_own = real_setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)) == 0;
}

/* Gives SO_TIMESTAMPNS back (the calls that follow take the time of the return). */
static void drop_timestamps(int fd, struct pl_sock *s)
{
	int zero = 0;

	if (s->ts_own) {
		(void)real_setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &zero, sizeof(zero));
		s->ts_own = false;
	}
}

/* The UDP socket fd turned out to be on a DG-RDMA port: trace it from now on. */
static void recognise_udp(int fd, struct pl_sock *s)
{
	s->kind = PL_UDP;
	own_timestamps(fd, s);
}

static void untrack(int fd);

/* Starts watching fd; a failure only leaves it untraced. */
static void track(int fd, enum pl_kind kind, uint16_t ethertype)
{
	struct pl_sock *s;
	uint16_t conn;

	if (fd < 0 || fd >= PL_MAX_FD) {
		return;
	}
	untrack(fd); /* a socket closed behind the tracer's back (dup2, close_range) */
	pthread_mutex_lock(&pl_alloc_lock);
	conn = pl_next_conn++;
	s = pl_free_socks;
	if (s) {
		pl_free_socks = s->next_free;
		pl_flow_reset(s->flow, conn);
	} else {
		s = calloc(1, sizeof(*s));
		if (s) {
			s->flow = pl_flow_new(conn);
			if (!s->flow) {
				free(s);
				s = NULL;
			}
		}
	}
	pthread_mutex_unlock(&pl_alloc_lock);
	if (!s) {
		return;
	}
	s->kind = kind;
	s->ethertype = ethertype;
	s->ts_own = false;
	s->app_ts = false;
	s->next_free = NULL;
	if (kind != PL_UDP_MAYBE) {
		own_timestamps(fd, s);
	}
	__atomic_store_n(&pl_fds[fd], s, __ATOMIC_RELEASE);
}

/* Stops watching fd (closed); its state is kept for the next socket (never freed: see below). */
static void untrack(int fd)
{
	struct pl_sock *s;

	if (fd < 0 || fd >= PL_MAX_FD) {
		return;
	}
	s = __atomic_exchange_n(&pl_fds[fd], NULL, __ATOMIC_ACQ_REL);
	if (!s) {
		return;
	}
	pl_flow_close(s->flow);
	/* another thread may still be inside a call on it: reused, never freed */
	pthread_mutex_lock(&pl_alloc_lock);
	s->next_free = pl_free_socks;
	pl_free_socks = s;
	pthread_mutex_unlock(&pl_alloc_lock);
}

/*
 * The DG-RDMA frame (want DGR_ETHERTYPE_DGRDMA) or the DCP packet (DGR_ETHERTYPE_DCP)
 * inside what a socket of kind s carried (len bytes at p), or NULL: an Ethernet header of
 * another ethertype, a UDP datagram of the other protocol or shorter than its pad.
 */
static const uint8_t *body_of(const struct pl_sock *s, const uint8_t *p, size_t len,
			      uint16_t ethertype, uint16_t want, size_t *body_len)
{
	const uint8_t *body;
	size_t n;

	switch (s->kind) {
	case PL_PACKET_RAW:
		if (len < DGR_ETH_HDR_LEN || (uint16_t)(p[12] << 8 | p[13]) != want) {
			return NULL;
		}
		*body_len = len - DGR_ETH_HDR_LEN;
		return p + DGR_ETH_HDR_LEN;
	case PL_PACKET_DGRAM:
		if (ethertype != want) {
			return NULL;
		}
		*body_len = len;
		return p;
	case PL_UDP:
		if (dgr_udp_demux(p, len, &body, &n) !=
		    (want == DGR_ETHERTYPE_DCP ? DGR_UDP_DCP : DGR_UDP_DGRDMA)) {
			return NULL;
		}
		*body_len = n;
		return body;
	default:
		return NULL;
	}
}

/*
 * The bytes of iov[0..n) up to len, in one piece: in place, or gathered into the thread's
 * scratch room (NULL when there is none).
 */
static const uint8_t *flatten(const struct iovec *iov, size_t n, size_t len, size_t *out_len)
{
	struct pl_scratch *sc;
	size_t done = 0;

	if (n == 0) {
		return NULL;
	}
	if (n == 1 || iov[0].iov_len >= len) {
		*out_len = len < iov[0].iov_len ? len : iov[0].iov_len;
		return iov[0].iov_base;
	}
	sc = scratch();
	if (!sc) {
		return NULL;
	}
	for (size_t i = 0; i < n && done < len && done < sizeof(sc->gather); i++) {
		size_t k = iov[i].iov_len;

		if (k > len - done) {
			k = len - done;
		}
		if (k > sizeof(sc->gather) - done) {
			k = sizeof(sc->gather) - done;
		}
		memcpy(sc->gather + done, iov[i].iov_base, k);
		done += k;
	}
	*out_len = done;
	return sc->gather;
}

/* The ethertype of a packet-socket address, else the socket's. */
static uint16_t ll_ethertype(const struct pl_sock *s, const void *name, socklen_t namelen)
{
	const struct sockaddr_ll *ll = name;

	if (ll && namelen >= (socklen_t)sizeof(*ll) && ll->sll_family == AF_PACKET) {
		return ntohs(ll->sll_protocol);
	}
	return s->ethertype;
}

/* An IPv4 or IPv6 address as a peer (an IPv4-mapped IPv6 one as IPv4); len 0 when neither. */
static void ip_peer(const void *name, socklen_t namelen, struct pl_peer *peer)
{
	static const uint8_t v4mapped[12] = { [10] = 0xFF, [11] = 0xFF };
	const struct sockaddr *sa = name;

	peer->len = 0;
	if (!sa || namelen < (socklen_t)sizeof(sa->sa_family)) {
		return;
	}
	if (sa->sa_family == AF_INET && namelen >= (socklen_t)sizeof(struct sockaddr_in)) {
		memcpy(peer->addr, &((const struct sockaddr_in *)name)->sin_addr, 4);
		peer->len = 4;
	} else if (sa->sa_family == AF_INET6 && namelen >= (socklen_t)sizeof(struct sockaddr_in6)) {
		const uint8_t *a = ((const struct sockaddr_in6 *)name)->sin6_addr.s6_addr;

		if (!memcmp(a, v4mapped, sizeof(v4mapped))) {
			memcpy(peer->addr, a + 12, 4);
			peer->len = 4;
		} else {
			memcpy(peer->addr, a, 16);
			peer->len = 16;
		}
	}
}

/*
 * The other end of what a socket of kind s carried (len bytes at p, with the
 * call's address name): the source (src) or the destination MAC of a raw
 * frame's Ethernet header, the packet or UDP socket's address otherwise; len 0
 * when the call does not say (flow.c then takes the connected address).
 */
static void frame_peer(const struct pl_sock *s, const uint8_t *p, size_t len, const void *name,
		       socklen_t namelen, bool src, struct pl_peer *peer)
{
	const struct sockaddr_ll *ll = name;

	peer->len = 0;
	switch (s->kind) {
	case PL_PACKET_RAW:
		if (len >= DGR_ETH_HDR_LEN) {
			memcpy(peer->addr, p + (src ? 6 : 0), 6);
			peer->len = 6;
		}
		break;
	case PL_PACKET_DGRAM:
		if (ll && namelen >= (socklen_t)sizeof(*ll) && ll->sll_family == AF_PACKET &&
		    ll->sll_halen == 6) {
			memcpy(peer->addr, ll->sll_addr, 6);
			peer->len = 6;
		}
		break;
	case PL_UDP:
		ip_peer(name, namelen, peer);
		break;
	default:
		break;
	}
}

/* True when a packet socket's address says the frame is one this host sent (not received). */
static bool outgoing(const void *name, socklen_t namelen)
{
	const struct sockaddr_ll *ll = name;

	return ll && namelen >= (socklen_t)sizeof(*ll) && ll->sll_family == AF_PACKET &&
	       ll->sll_pkttype == PACKET_OUTGOING;
}

static void on_received(struct pl_sock *s, const struct msghdr *h, size_t len, uint64_t arrival_ns,
			uint64_t now_ns)
{
	const struct iovec *iov = h->msg_iov;
	size_t n = h->msg_iovlen;
	uint16_t ethertype = ll_ethertype(s, h->msg_name, h->msg_namelen);
	const uint8_t *p, *frame;
	struct pl_peer from;
	size_t plen, flen;

	if (outgoing(h->msg_name, h->msg_namelen)) {
		return; /* another program's frame, seen on its way out */
	}
	p = flatten(iov, n, len, &plen);
	frame = p ? body_of(s, p, plen, ethertype, DGR_ETHERTYPE_DGRDMA, &flen) : NULL;
	if (frame) {
		frame_peer(s, p, plen, h->msg_name, h->msg_namelen, true, &from);
		pl_flow_rx(s->flow, frame, flen, &from, arrival_ns ? arrival_ns : now_ns, now_ns);
	}
}

/*
 * What a send call is about to hand over (called before it: see pl_flow_tx()),
 * to address name (NULL: the socket's own).
 */
static void on_send(struct pl_sock *s, const struct iovec *iov, size_t n, const void *name,
		    socklen_t namelen)
{
	uint16_t ethertype = ll_ethertype(s, name, namelen);
	const uint8_t *p, *frame;
	size_t plen, flen, len = 0;

	for (size_t i = 0; i < n; i++) {
		len += iov[i].iov_len;
	}
	p = flatten(iov, n, len, &plen);
	if (!p) {
		return;
	}
	frame = body_of(s, p, plen, ethertype, DGR_ETHERTYPE_DGRDMA, &flen);
	if (frame) {
		int err = errno; /* as the application left it, for the call to come */

		pl_flow_tx(s->flow, frame, flen);
		errno = err;
	} else if ((frame = body_of(s, p, plen, ethertype, DGR_ETHERTYPE_DCP, &flen))) {
		int err = errno;
		struct pl_peer to;

		frame_peer(s, p, plen, name, namelen, false, &to);
		pl_flow_dcp_tx(s->flow, frame, flen, pl_dcp_bell_lo, pl_dcp_bell_hi, &to);
		errno = err;
	}
}

/* A socket the tracer decodes (recognised), or NULL. */
static struct pl_sock *traced(int fd)
{
	struct pl_sock *s = lookup(fd);

	return s && s->kind != PL_UDP_MAYBE ? s : NULL;
}

/* A UDP socket not yet recognised sends to or binds to addr: recognise it when the port is ours. */
static struct pl_sock *maybe_recognise(int fd, const struct sockaddr *addr, socklen_t len)
{
	struct pl_sock *s = lookup(fd);

	if (s && s->kind == PL_UDP_MAYBE && port_wanted(addr_port(addr, len))) {
		recognise_udp(fd, s);
	}
	return s && s->kind != PL_UDP_MAYBE ? s : NULL;
}

/*
 * Takes the tracer's timestamp message out of the control data the kernel
 * wrote to ctl (used bytes), copies the application's messages to app (room
 * bytes) and returns their length. *arrival gets the timestamp (CLOCK_MONOTONIC),
 * 0 when there was none. *flags gains MSG_CTRUNC when the application's
 * messages did not fit (only when the kernel wrote no timestamp).
 */
static size_t hide_timestamp(const char *ctl, size_t used, void *app, size_t room,
			     uint64_t *arrival, int *flags)
{
	struct msghdr m = { .msg_control = (void *)ctl, .msg_controllen = used };
	struct cmsghdr *c = used >= sizeof(struct cmsghdr) ? CMSG_FIRSTHDR(&m) : NULL;
	size_t skip = 0, keep;

	*arrival = 0;
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS &&
	    c->cmsg_len >= CMSG_LEN(sizeof(struct timespec))) {
		struct timespec ts;

		memcpy(&ts, CMSG_DATA(c), sizeof(ts));
		*arrival = (uint64_t)((int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec -
				      __atomic_load_n(&pl_real_minus_mono, __ATOMIC_RELAXED));
		skip = used < PL_TS_SPACE ? used : PL_TS_SPACE;
	}
	keep = used - skip;
	if (keep > room) {
		keep = room;
		*flags |= MSG_CTRUNC;
	}
	if (keep) {
		memcpy(app, ctl + skip, keep);
	}
	return keep;
}

/* The kernel's receive time in the application's own SCM_TIMESTAMPNS message, 0 if none. */
static uint64_t app_timestamp(const struct msghdr *msg)
{
	struct cmsghdr *c;

	if (!msg->msg_control || msg->msg_controllen < sizeof(struct cmsghdr)) {
		return 0;
	}
	for (c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR((struct msghdr *)msg, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS &&
		    c->cmsg_len >= CMSG_LEN(sizeof(struct timespec))) {
			struct timespec ts;

			memcpy(&ts, CMSG_DATA(c), sizeof(ts));
			return (uint64_t)((int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec -
					  __atomic_load_n(&pl_real_minus_mono, __ATOMIC_RELAXED));
		}
	}
	return 0;
}

static void count_recv_call(void)
{
	if (++pl_recv_calls % PL_CLOCK_RESYNC == 0) {
		clock_resync();
	}
}

/* recvmsg on a traced socket whose timestamps the tracer owns: with the shadow control buffer. */
static ssize_t recvmsg_shadowed(int fd, struct pl_sock *s, struct msghdr *msg, int flags,
				uint64_t *arrival)
{
	union {
		char buf[PL_CTL_MAX + PL_TS_SPACE];
		struct cmsghdr align;
	} ctl;
	size_t room = msg->msg_control ? msg->msg_controllen : 0;
	struct msghdr m = *msg;
	ssize_t ret;

	(void)s;
	m.msg_control = ctl.buf;
	m.msg_controllen = room + PL_TS_SPACE;
	ret = real_recvmsg(fd, &m, flags);
	if (ret < 0) {
		return ret;
	}
	msg->msg_namelen = m.msg_namelen;
	msg->msg_flags = m.msg_flags;
	msg->msg_controllen = hide_timestamp(ctl.buf, m.msg_controllen, msg->msg_control, room,
					     arrival, &msg->msg_flags);
	return ret;
}

/*
 * The common receive path: recvmsg semantics on a traced socket. Keeps errno
 * as the kernel left it.
 */
static ssize_t traced_recvmsg(int fd, struct pl_sock *s, struct msghdr *msg, int flags)
{
	uint64_t arrival = 0, now;
	ssize_t ret;
	int err;

	if (flags & MSG_ERRQUEUE) {
		return real_recvmsg(fd, msg, flags);
	}
	if (s->ts_own && msg->msg_control && msg->msg_controllen > PL_CTL_MAX) {
		drop_timestamps(fd, s); /* more room than the shadow holds: give the option up */
	}
	if (s->ts_own) {
		ret = recvmsg_shadowed(fd, s, msg, flags, &arrival);
	} else {
		ret = real_recvmsg(fd, msg, flags);
		if (ret >= 0 && s->app_ts) {
			arrival = app_timestamp(msg);
		}
	}
	err = errno;
	if (ret >= 0 && !(flags & MSG_PEEK)) {
		now = dgr_clock_ns(CLOCK_MONOTONIC);
		count_recv_call();
		on_received(s, msg, (size_t)ret, arrival, now);
	}
	errno = err;
	return ret;
}

PL_EXPORT int socket(int domain, int type, int protocol)
{
	int fd, base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC), err;
	uint16_t et = ntohs((uint16_t)protocol);

	RESOLVE(socket);
	fd = real_socket(domain, type, protocol);
	if (fd < 0) {
		return fd;
	}
	err = errno;
	if (domain == AF_PACKET && (base == SOCK_RAW || base == SOCK_DGRAM) &&
	    (protocol == 0 || ethertype_wanted(et))) {
		track(fd, base == SOCK_RAW ? PL_PACKET_RAW : PL_PACKET_DGRAM, et);
	} else if ((domain == AF_INET || domain == AF_INET6) && base == SOCK_DGRAM &&
		   (protocol == 0 || protocol == IPPROTO_UDP)) {
		track(fd, PL_UDP_MAYBE, 0);
	}
	errno = err;
	return fd;
}

PL_EXPORT int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	struct pl_sock *s = lookup(fd);
	int ret, err;

	RESOLVE(bind);
	ret = real_bind(fd, addr, len);
	err = errno;
	if (ret == 0 && s) {
		if (s->kind == PL_PACKET_RAW || s->kind == PL_PACKET_DGRAM) {
			const struct sockaddr_ll *ll = (const struct sockaddr_ll *)addr;

			if (len >= (socklen_t)sizeof(*ll) && ll->sll_protocol) {
				s->ethertype = ntohs(ll->sll_protocol);
			}
		} else if (s->kind == PL_UDP_MAYBE && port_wanted(addr_port(addr, len))) {
			recognise_udp(fd, s);
		}
	}
	errno = err;
	return ret;
}

PL_EXPORT int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	int ret, err;

	RESOLVE(connect);
	ret = real_connect(fd, addr, len);
	err = errno;
	if (ret == 0) {
		struct pl_sock *s = lookup(fd);

		if (s) {
			struct pl_peer peer;

			/* AF_UNSPEC (disconnect) forgets the address */
			ip_peer(addr, len, &peer);
			pl_flow_connect(s->flow, &peer);
		}
		(void)maybe_recognise(fd, addr, len);
	}
	errno = err;
	return ret;
}

PL_EXPORT int close(int fd)
{
	RESOLVE(close);
	if (lookup(fd)) {
		untrack(fd);
	}
	return real_close(fd);
}

static bool timestamp_option(int level, int name)
{
	return level == SOL_SOCKET &&
	       (name == SO_TIMESTAMP || name == SO_TIMESTAMPNS || name == SO_TIMESTAMPING
#ifdef SO_TIMESTAMP_NEW
		|| name == SO_TIMESTAMP_NEW || name == SO_TIMESTAMPNS_NEW ||
		name == SO_TIMESTAMPING_NEW
#endif
	       );
}

PL_EXPORT int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	struct pl_sock *s = lookup(fd);

	RESOLVE(setsockopt);
	if (s && timestamp_option(level, name)) {
		/* the application's own timestamps: its messages are its to see */
		s->app_ts = true;
		s->ts_own = false;
	}
	return real_setsockopt(fd, level, name, val, len);
}

PL_EXPORT int getsockopt(int fd, int level, int name, void *val, socklen_t *len)
{
	struct pl_sock *s = lookup(fd);
	int ret;

	RESOLVE(getsockopt);
	ret = real_getsockopt(fd, level, name, val, len);
	if (ret == 0 && s && s->ts_own && timestamp_option(level, name) && val && len) {
		memset(val, 0, *len); /* off, as the application left it */
	}
	return ret;
}

PL_EXPORT ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	struct pl_sock *s;

	RESOLVE(recvmsg);
	s = traced(fd);
	if (!s || !msg) {
		return real_recvmsg(fd, msg, flags);
	}
	return traced_recvmsg(fd, s, msg, flags);
}

PL_EXPORT ssize_t recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *addr,
			   socklen_t *addrlen)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct pl_sock *s;
	ssize_t ret;

	RESOLVE(recvfrom);
	RESOLVE(recvmsg);
	s = traced(fd);
	if (!s || (addr && !addrlen)) {
		return real_recvfrom(fd, buf, len, flags, addr, addrlen);
	}
	if (addr) {
		m.msg_name = addr;
		m.msg_namelen = *addrlen;
	}
	ret = traced_recvmsg(fd, s, &m, flags);
	if (ret >= 0 && addr) {
		*addrlen = m.msg_namelen;
	}
	return ret;
}

PL_EXPORT ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	RESOLVE(recv);
	if (!traced(fd)) {
		return real_recv(fd, buf, len, flags);
	}
	return recvfrom(fd, buf, len, flags, NULL, NULL);
}

PL_EXPORT ssize_t read(int fd, void *buf, size_t len)
{
	ssize_t ret;

	RESOLVE(read);
	/* read() of 0 bytes returns at once on a socket; recvmsg would take a datagram */
	if (len == 0 || !traced(fd)) {
		return real_read(fd, buf, len);
	}
	ret = recvfrom(fd, buf, len, 0, NULL, NULL);
	if (ret < 0 && errno == ENOTSOCK) {
		/* no longer the socket the tracer saw: closed behind its back */
		untrack(fd);
		return real_read(fd, buf, len);
	}
	return ret;
}

PL_EXPORT int recvmmsg(int fd, struct mmsghdr *vec, unsigned int vlen, int flags,
		       struct timespec *timeout)
{
	struct pl_scratch *sc = NULL;
	struct pl_sock *s;
	bool shadow;
	uint64_t now, arrival;
	int ret, err;

	RESOLVE(recvmmsg);
	s = traced(fd);
	if (!s || !vec || (flags & MSG_ERRQUEUE)) {
		return real_recvmmsg(fd, vec, vlen, flags, timeout);
	}
	if (s->ts_own && vlen <= PL_MMSG_MAX) {
		sc = scratch();
	}
	shadow = sc != NULL;
	for (unsigned int i = 0; shadow && i < vlen; i++) {
		shadow =
		    !vec[i].msg_hdr.msg_control || vec[i].msg_hdr.msg_controllen <= PL_MMSG_CTL;
	}
	if (s->ts_own && !shadow) {
		drop_timestamps(fd, s); /* cannot hide it here: give it up for this socket */
	}
	if (!shadow) {
		ret = real_recvmmsg(fd, vec, vlen, flags, timeout);
		err = errno;
		if (ret > 0 && !(flags & MSG_PEEK)) {
			now = dgr_clock_ns(CLOCK_MONOTONIC);
			count_recv_call();
			for (int i = 0; i < ret; i++) {
				struct msghdr *h = &vec[i].msg_hdr;

				on_received(s, h, vec[i].msg_len, s->app_ts ? app_timestamp(h) : 0,
					    now);
			}
		}
		errno = err;
		return ret;
	}
	for (unsigned int i = 0; i < vlen; i++) {
		size_t room = vec[i].msg_hdr.msg_control ? vec[i].msg_hdr.msg_controllen : 0;

		sc->mmsg[i].msg_hdr = vec[i].msg_hdr;
		sc->mmsg[i].msg_hdr.msg_control = sc->ctl.buf[i];
		sc->mmsg[i].msg_hdr.msg_controllen = room + PL_TS_SPACE;
		sc->mmsg[i].msg_len = vec[i].msg_len;
	}
	ret = real_recvmmsg(fd, sc->mmsg, vlen, flags, timeout);
	err = errno;
	if (ret > 0) {
		now = dgr_clock_ns(CLOCK_MONOTONIC);
		count_recv_call();
		for (int i = 0; i < ret; i++) {
			struct msghdr *h = &vec[i].msg_hdr, *sh = &sc->mmsg[i].msg_hdr;
			size_t room = h->msg_control ? h->msg_controllen : 0;

			vec[i].msg_len = sc->mmsg[i].msg_len;
			h->msg_namelen = sh->msg_namelen;
			h->msg_flags = sh->msg_flags;
			h->msg_controllen =
			    hide_timestamp(sc->ctl.buf[i], sh->msg_controllen, h->msg_control, room,
					   &arrival, &h->msg_flags);
			if (!(flags & MSG_PEEK)) {
				on_received(s, h, vec[i].msg_len, arrival, now);
			}
		}
	}
	errno = err;
	return ret;
}

PL_EXPORT ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	struct pl_sock *s;

	RESOLVE(sendmsg);
	s = msg ? maybe_recognise(fd, msg->msg_name, msg->msg_namelen) : NULL;
	if (s) {
		on_send(s, msg->msg_iov, msg->msg_iovlen, msg->msg_name, msg->msg_namelen);
	}
	return real_sendmsg(fd, msg, flags);
}

PL_EXPORT ssize_t sendto(int fd, const void *buf, size_t len, int flags,
			 const struct sockaddr *addr, socklen_t addrlen)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct pl_sock *s;

	RESOLVE(sendto);
	s = maybe_recognise(fd, addr, addrlen);
	if (s) {
		on_send(s, &iov, 1, addr, addrlen);
	}
	return real_sendto(fd, buf, len, flags, addr, addrlen);
}

PL_EXPORT ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	RESOLVE(send);
	if (!traced(fd)) {
		return real_send(fd, buf, len, flags);
	}
	return sendto(fd, buf, len, flags, NULL, 0);
}

PL_EXPORT ssize_t write(int fd, const void *buf, size_t len)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct pl_sock *s;

	RESOLVE(write);
	s = traced(fd);
	if (s) {
		on_send(s, &iov, 1, NULL, 0);
	}
	return real_write(fd, buf, len);
}

PL_EXPORT int sendmmsg(int fd, struct mmsghdr *vec, unsigned int vlen, int flags)
{
	struct pl_sock *s;

	RESOLVE(sendmmsg);
	s = vec && vlen ? maybe_recognise(fd, vec[0].msg_hdr.msg_name, vec[0].msg_hdr.msg_namelen)
			: NULL;
	/* the kernel takes at most UIO_MAXIOV (1024) messages a call */
	for (unsigned int i = 0; s && i < vlen && i < 1024; i++) {
		struct msghdr *h = &vec[i].msg_hdr;

		on_send(s, h->msg_iov, h->msg_iovlen, h->msg_name, h->msg_namelen);
	}
	return real_sendmmsg(fd, vec, vlen, flags);
}
