/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Packet transports for DG-RDMA and DCP, used by both ends of the link (the
 * host stack and the FPGA emulator):
 *
 *  - raw Ethernet: AF_PACKET/SOCK_DGRAM sockets bound to one interface, one
 *    for ethertype 0xF042 (DG-RDMA) and, when asked, one for 0xF040 (DCP);
 *    the kernel writes the Ethernet header; the MTU is read with SIOCGIFMTU;
 *  - UDP: one socket and one port (default 18078) for both protocols. Every
 *    datagram starts with a 2-byte big-endian pad that says what follows:
 *    0x0000 a DG-RDMA frame (as OpenCPI sends it), 0xF040 a DCP packet
 *    (this project's choice, docs/stack.md).
 *
 * Receive and send are batched (recvmmsg/sendmmsg); raw Ethernet receives
 * DG-RDMA frames through a PACKET_RX_RING shared with the kernel unless
 * --no-rx-ring asks for recvmmsg. dgr_transport_recv()
 * returns pointers into buffers the transport owns; they stay valid until the
 * next dgr_transport_recv() call on the same transport. UDP sends prepend the
 * pad with a second iovec, so payloads are never copied.
 *
 * A transport is used by at most one receiving thread and one sending thread
 * at a time (send and receive may run concurrently in two threads).
 * Errors: negative DGR_E_* codes with errbuf (DGR_ERRBUF_SIZE) filled.
 */
#ifndef DGRDMA_TRANSPORT_H
#define DGRDMA_TRANSPORT_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include <dgrdma/proto.h>
#include <dgrdma/wire.h>

#ifdef __cplusplus
extern "C" {
#endif

/* UDP pad values (big-endian on the wire) that select the protocol. */
#define DGR_UDP_PAD_DGRDMA 0x0000
#define DGR_UDP_PAD_DCP	   0xF040

/* Defaults. */
#define DGR_TRANSPORT_DEFAULT_BATCH   64
#define DGR_TRANSPORT_MAX_BATCH	      1024
#define DGR_TRANSPORT_DEFAULT_UDP_MTU 9000		 /* UDP has no interface MTU to read */
#define DGR_TRANSPORT_DEFAULT_RING    (4u * 1024 * 1024) /* receive ring without --rcvbuf */

enum dgr_transport_kind {
	DGR_TRANSPORT_NONE = 0, /* nothing selected yet */
	DGR_TRANSPORT_ETHER,
	DGR_TRANSPORT_UDP,
};

/* The protocol of a packet. */
enum dgr_proto {
	DGR_PROTO_DGRDMA = 0,
	DGR_PROTO_DCP = 1,
	DGR_PROTO_INVALID = 2, /* UDP datagram with an unknown pad or shorter than it */
};

/* Address of a peer: a MAC for raw Ethernet, an IPv4 address and port for UDP. */
struct dgr_addr {
	uint8_t mac[6];
	struct sockaddr_in in;
};

/*
 * Options of a transport; fill with dgr_transport_opts_init(), set the fields,
 * then check them with dgr_transport_opts_finish().
 */
struct dgr_transport_opts {
	enum dgr_transport_kind kind;
	char ifname[IF_NAMESIZE];     /* --if */
	struct sockaddr_in bind_addr; /* --bind (UDP); default 0.0.0.0:18078 */
	struct dgr_addr peer;	      /* --peer, resolved by dgr_transport_opts_finish() */
	bool have_peer;
	char peer_arg[64]; /* --peer as given, parsed once the kind is known */
	unsigned int mtu;  /* --mtu: 0 = interface MTU (Ethernet) or 9000 (UDP) */
	int rcvbuf;	   /* --rcvbuf bytes, 0 = system default (raw Ethernet: the ring's size) */
	bool no_rx_ring;   /* --no-rx-ring: raw Ethernet receives with recvmmsg */
	int sndbuf;	   /* --sndbuf bytes, 0 = system default */
	unsigned int busy_poll_us; /* --busy-poll: SO_BUSY_POLL and spinning receive, 0 = off */
	unsigned int batch;	   /* --batch: packets per recvmmsg/sendmmsg, 1..1024 */
	bool dcp;		   /* also open the DCP channel (Ethernet: a 0xF040 socket) */
	/*
	 * Receive only the configured peer's packets, so that several
	 * transports (one connection per remote endpoint) share one interface
	 * or one UDP port. Raw Ethernet: a classic BPF socket filter
	 * (SO_ATTACH_FILTER) on every socket accepts only frames whose source
	 * MAC is the peer's (frames queued before it was attached are
	 * discarded). UDP: SO_REUSEPORT on the bound port and connect() to the
	 * peer (Linux delivers a datagram to the connected socket of its
	 * source); every transport on the port must set it. An ICMP port
	 * unreachable (the peer's socket closed) then surfaces on receive as
	 * ECONNREFUSED, taken as a lost packet. Needs a peer; off by default.
	 */
	bool peer_only;
	bool broadcast; /* UDP: SO_BROADCAST, to send to a broadcast address */
};

/* One received packet; data points into transport-owned memory. */
struct dgr_rx_pkt {
	const uint8_t *data; /* DG-RDMA frame or DCP packet (after the UDP pad) */
	size_t len;
	enum dgr_proto proto;
	struct dgr_addr src; /* who sent it: reply here */
	/*
	 * When the kernel received it (its software timestamp), on the
	 * CLOCK_MONOTONIC axis; 0 when the kernel gave none.
	 */
	uint64_t arrival_ns;
};

/* One packet to send. */
/* Most pieces one packet can be sent from (struct dgr_tx_pkt iov). */
#define DGR_TX_PKT_MAX_IOV 16

struct dgr_tx_pkt {
	const uint8_t *data;
	size_t len;
	enum dgr_proto proto;	    /* DGR_PROTO_DGRDMA or DGR_PROTO_DCP */
	const struct dgr_addr *dst; /* NULL: the configured peer */
	/*
	 * When iovcnt > 0 (at most DGR_TX_PKT_MAX_IOV): the packet is these
	 * pieces in order (a frame built in gather mode, dgr_fb_iov()), and data
	 * and len are not used. Zero-initialize packets that do not use it.
	 */
	const struct iovec *iov;
	unsigned int iovcnt;
};

struct dgr_transport;

/* Sets the defaults (no transport selected, UDP bind 0.0.0.0:18078, batch 64). */
void dgr_transport_opts_init(struct dgr_transport_opts *o);

/*
 * Checks the options once all are parsed and resolves --peer (a MAC for raw
 * Ethernet, ADDR[:PORT] for UDP). peer_required: fail when no --peer was
 * given. Returns 0 or -DGR_E_INVAL with errbuf naming the problem. Nothing is
 * opened: bad options are rejected before anything starts.
 */
int dgr_transport_opts_finish(struct dgr_transport_opts *o, bool peer_required, char *errbuf);

/* Parses "aa:bb:cc:dd:ee:ff" (or with '-'). Returns 0 or -DGR_E_INVAL. */
int dgr_parse_mac(const char *s, uint8_t mac[6]);

/* Parses "A.B.C.D[:PORT]" (PORT 1..65535, default_port otherwise). Returns 0 or -DGR_E_INVAL. */
int dgr_parse_inet(const char *s, uint16_t default_port, struct sockaddr_in *sa);

/* Formats an address as "aa:bb:..:ff" or "A.B.C.D:PORT" into buf; returns buf. */
const char *dgr_addr_str(enum dgr_transport_kind kind, const struct dgr_addr *a, char *buf,
			 size_t cap);

/* True when two addresses are the same peer on the given transport. */
bool dgr_addr_equal(enum dgr_transport_kind kind, const struct dgr_addr *a,
		    const struct dgr_addr *b);

/*
 * Opens the transport. Errors: -DGR_E_PERM (raw sockets without CAP_NET_RAW:
 * errbuf names the capability and the setcap command), -DGR_E_INVAL (absent
 * or down interface, named), -DGR_E_SYS (errno text, e.g. address in use or
 * socket buffer refused), -DGR_E_NOMEM. *out is set on success only.
 */
int dgr_transport_open(const struct dgr_transport_opts *o, struct dgr_transport **out,
		       char *errbuf);

/*
 * Opens the transport like dgr_transport_open(), but when o->rcvbuf is 0 asks
 * for a receive buffer of want_rcvbuf bytes (the receiver's choice, e.g. sized
 * for its buffers: one frame the socket drops leaves a transaction incomplete
 * for ever). When the OS refuses that size for want of CAP_NET_ADMIN, it falls
 * back to net.core.rmem_max, then to the system default, and writes a one-line
 * warning into warnbuf (DGR_ERRBUF_SIZE bytes; "" when no fallback was needed).
 * Returns 0 or a negative code as dgr_transport_open().
 */
int dgr_transport_open_sized(const struct dgr_transport_opts *o, int want_rcvbuf,
			     struct dgr_transport **out, char *errbuf, char *warnbuf);

/* Closes the transport and frees its buffers (NULL accepted). */
void dgr_transport_close(struct dgr_transport *t);

/*
 * Receives up to max packets (max is capped at the batch size). timeout_ms:
 * -1 waits until something arrives, 0 never waits, > 0 waits at most that
 * long (with busy-poll the wait spins). Returns the number of packets (0 on
 * timeout) or -DGR_E_SYS. Packets stay valid until the next call. UDP
 * datagrams with an unknown pad come back as DGR_PROTO_INVALID (the whole
 * payload) so the caller can count them.
 */
int dgr_transport_recv(struct dgr_transport *t, struct dgr_rx_pkt *pkts, unsigned int max,
		       int timeout_ms, char *errbuf);

/*
 * Sends n packets with as few system calls as possible (sendmmsg per
 * protocol run). Blocks while the socket buffer is full. Returns the number
 * of packets sent (n unless an error stopped it) or -DGR_E_SYS when none was.
 * A packet refused with ENOBUFS/ECONNREFUSED is counted as sent-and-lost: the
 * protocol recovers as it would from a lost frame.
 */
int dgr_transport_send(struct dgr_transport *t, const struct dgr_tx_pkt *pkts, unsigned int n,
		       char *errbuf);

/* Largest DG-RDMA frame or DCP packet this transport carries (from the MTU). */
size_t dgr_transport_frame_cap(const struct dgr_transport *t);

/* The MTU in use (interface MTU or --mtu, whichever is smaller). */
unsigned int dgr_transport_mtu(const struct dgr_transport *t);

/* The kind of the transport. */
enum dgr_transport_kind dgr_transport_kind_of(const struct dgr_transport *t);

/* The local address: the interface MAC, or the bound IPv4 address and port. */
void dgr_transport_local_addr(const struct dgr_transport *t, struct dgr_addr *a);

/* The configured peer (zero when none was given). */
const struct dgr_addr *dgr_transport_peer(const struct dgr_transport *t);

/* Sets the default destination (e.g. the emulator learning its host). */
void dgr_transport_set_peer(struct dgr_transport *t, const struct dgr_addr *peer);

/*
 * Kernel receive drops so far: PACKET_STATISTICS (Ethernet, accumulated
 * because the kernel resets it on read) or, for UDP, the larger of the latest
 * SO_RXQ_OVFL count and the socket's drops in /proc/self/net/udp (SO_RXQ_OVFL
 * alone only reports on datagrams queued after the drops).
 * Call from one thread at a time. Returns 0, or -DGR_E_SYS.
 */
int dgr_transport_drops(struct dgr_transport *t, uint64_t *drops, char *errbuf);

/*
 * Effective socket buffer sizes as the kernel reports them (bytes); with a
 * receive ring, rcvbuf is the ring's size.
 */
void dgr_transport_bufsizes(const struct dgr_transport *t, int *rcvbuf, int *sndbuf);

/* True when DG-RDMA frames arrive through a PACKET_RX_RING. */
bool dgr_transport_has_rx_ring(const struct dgr_transport *t);

/* File descriptors to poll (1 or 2 entries); returns how many were written. */
unsigned int dgr_transport_fds(const struct dgr_transport *t, int fds[2]);

#ifdef __cplusplus
}
#endif

#endif
