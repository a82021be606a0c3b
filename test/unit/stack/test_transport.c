/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The UDP transport on 127.0.0.1: batched send and receive, the 2-byte pad
 * selecting DG-RDMA or DCP, datagrams with an unknown pad, the kernel drop
 * counter (SO_RXQ_OVFL), bind errors, and peer_only: two transports on one
 * port, each receiving only its peer's datagrams.
 */
#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <dgrdma/transport.h>

#include "../tap.h"

/* Options of a UDP transport on 127.0.0.1, ephemeral port. */
static void loopback_opts(struct dgr_transport_opts *o)
{
	dgr_transport_opts_init(o);
	o->kind = DGR_TRANSPORT_UDP;
	dgr_parse_inet("127.0.0.1:0", 0, &o->bind_addr);
}

/* Opens o; NULL (with the error as a TAP diagnostic) when it fails. */
static struct dgr_transport *open_or_diag(const struct dgr_transport_opts *o)
{
	struct dgr_transport *t = NULL;
	char err[DGR_ERRBUF_SIZE];

	if (dgr_transport_open(o, &t, err) < 0) {
		tap_diag("open: %s", err);
		return NULL;
	}
	return t;
}

static struct dgr_transport *open_udp(int rcvbuf)
{
	struct dgr_transport_opts o;

	loopback_opts(&o);
	o.rcvbuf = rcvbuf;
	return open_or_diag(&o);
}

/* Receives until n packets came or 2 s of silence; returns how many. */
static unsigned int drain(struct dgr_transport *t, struct dgr_rx_pkt *keep, unsigned int n,
			  unsigned int *dgrdma, unsigned int *dcp, unsigned int *invalid)
{
	unsigned int got = 0;
	char err[DGR_ERRBUF_SIZE];

	for (;;) {
		struct dgr_rx_pkt in[64];
		int r = dgr_transport_recv(t, in, 64, got < n ? 2000 : 0, err);

		if (r <= 0) {
			return got;
		}
		for (int i = 0; i < r; i++) {
			if (in[i].proto == DGR_PROTO_DGRDMA) {
				(*dgrdma)++;
				if (in[i].len != 100 + (size_t)(in[i].data[0])) {
					tap_diag("bad length %zu", in[i].len);
				}
			} else if (in[i].proto == DGR_PROTO_DCP) {
				(*dcp)++;
			} else {
				(*invalid)++;
			}
			if (keep && got < n) {
				keep[got] = in[i];
			}
			got++;
		}
	}
}

/* A peer_only transport on 127.0.0.1:port (0: ephemeral) connected to peer. */
static struct dgr_transport *open_peer_only(uint16_t port, const struct dgr_addr *peer)
{
	struct dgr_transport_opts o;

	loopback_opts(&o);
	o.bind_addr.sin_port = htons(port);
	o.peer = *peer;
	o.have_peer = true;
	o.peer_only = true;
	return open_or_diag(&o);
}

/* Counts packets by their first byte (1 or 2) until 2 s of silence. */
static void count_from(struct dgr_transport *t, const struct dgr_addr *want_src, unsigned int *n1,
		       unsigned int *n2, unsigned int *wrong_src)
{
	char err[DGR_ERRBUF_SIZE];

	for (;;) {
		struct dgr_rx_pkt in[64];
		int r = dgr_transport_recv(t, in, 64, *n1 + *n2 < 10 ? 2000 : 100, err);

		if (r <= 0) {
			return;
		}
		for (int i = 0; i < r; i++) {
			*n1 += in[i].data[0] == 1;
			*n2 += in[i].data[0] == 2;
			*wrong_src += !dgr_addr_equal(DGR_TRANSPORT_UDP, &in[i].src, want_src);
		}
	}
}

/* Two connections on one UDP port, each seeing only its peer (peer_only). */
static void test_peer_only(void)
{
	struct dgr_transport *p1 = open_udp(1 << 20), *p2 = open_udp(1 << 20);
	struct dgr_transport *a1 = NULL, *a2 = NULL, *plain = NULL;
	struct dgr_transport_opts o;
	struct dgr_addr p1a, p2a, a1a;
	struct dgr_tx_pkt pkts[10] = { 0 };
	uint8_t one[10][16], two[10][16];
	unsigned int n1 = 0, n2 = 0, wrong = 0;
	char err[DGR_ERRBUF_SIZE];
	struct dgr_rx_pkt in[4];

	if (!p1 || !p2) {
		tap_ok(0, "two peers on 127.0.0.1");
		goto out;
	}
	dgr_transport_local_addr(p1, &p1a);
	dgr_transport_local_addr(p2, &p2a);
	a1 = open_peer_only(0, &p1a);
	if (a1) {
		dgr_transport_local_addr(a1, &a1a);
		a2 = open_peer_only(ntohs(a1a.in.sin_port), &p2a);
	}
	if (!a1 || !a2) {
		tap_ok(0, "two peer_only transports share one port");
		goto out;
	}
	tap_ok(1, "two peer_only transports share one port (SO_REUSEPORT)");
	dgr_transport_opts_init(&o);
	o.kind = DGR_TRANSPORT_UDP;
	o.bind_addr = a1a.in;
	TAP_EQ_I(dgr_transport_open(&o, &plain, err), -DGR_E_SYS,
		 "a transport without peer_only cannot join the port");
	for (int i = 0; i < 10; i++) {
		memset(one[i], 1, sizeof(one[i]));
		memset(two[i], 2, sizeof(two[i]));
	}
	dgr_transport_set_peer(p1, &a1a);
	dgr_transport_set_peer(p2, &a1a);
	for (int i = 0; i < 10; i++) {
		pkts[i] =
		    (struct dgr_tx_pkt){ .data = one[i], .len = 16, .proto = DGR_PROTO_DGRDMA };
	}
	dgr_transport_send(p1, pkts, 10, err);
	for (int i = 0; i < 10; i++) {
		pkts[i].data = two[i];
	}
	dgr_transport_send(p2, pkts, 10, err);
	count_from(a1, &p1a, &n1, &n2, &wrong);
	TAP_EQ_U(n1 * 100 + n2 * 10 + wrong, 1000, "the first gets peer 1's 10 packets, only them");
	n1 = n2 = wrong = 0;
	count_from(a2, &p2a, &n1, &n2, &wrong);
	TAP_EQ_U(n1 * 100 + n2 * 10 + wrong, 100, "the second gets peer 2's 10 packets, only them");
	/* peer 1 goes away: the ICMP port unreachable is a lost packet, not an error */
	dgr_transport_close(p1);
	p1 = NULL;
	pkts[0].data = one[0];
	TAP_EQ_I(dgr_transport_send(a1, pkts, 1, err), 1, "a send to a closed port counts as sent");
	TAP_EQ_I(dgr_transport_recv(a1, in, 4, 200, err), 0,
		 "the refused port shows on receive as nothing received, not an error");
	dgr_transport_opts_init(&o);
	o.kind = DGR_TRANSPORT_UDP;
	o.peer_only = true;
	TAP_EQ_I(dgr_transport_opts_finish(&o, false, err), -DGR_E_INVAL, "peer_only needs a peer");
	tap_ok(strstr(err, "--peer") != NULL, "named: %s", err);
out:
	dgr_transport_close(plain);
	dgr_transport_close(a1);
	dgr_transport_close(a2);
	dgr_transport_close(p1);
	dgr_transport_close(p2);
}

int main(void)
{
	struct dgr_transport *a = open_udp(1 << 20), *b = open_udp(1 << 20), *c;
	struct dgr_addr aa, ba;
	struct dgr_tx_pkt pkts[200] = { 0 };
	uint8_t bufs[200][400];
	unsigned int dg = 0, dc = 0, inv = 0;
	char err[DGR_ERRBUF_SIZE];
	uint64_t drops = 0;
	int raw;

	if (!a || !b) {
		tap_ok(0, "two UDP transports on 127.0.0.1");
		return tap_done();
	}
	dgr_transport_local_addr(a, &aa);
	dgr_transport_local_addr(b, &ba);
	tap_ok(ntohs(aa.in.sin_port) != 0, "bound to an ephemeral port");
	dgr_transport_set_peer(a, &ba);
	for (int i = 0; i < 200; i++) {
		memset(bufs[i], 0, sizeof(bufs[i]));
		bufs[i][0] = (uint8_t)i;
		pkts[i].data = bufs[i];
		pkts[i].len = 100 + (size_t)i;
		pkts[i].proto = i % 10 == 9 ? DGR_PROTO_DCP : DGR_PROTO_DGRDMA;
		pkts[i].dst = NULL;
	}
	TAP_EQ_I(dgr_transport_send(a, pkts, 200, err), 200, "200 packets in batches");
	TAP_EQ_U(drain(b, NULL, 200, &dg, &dc, &inv), 200, "200 received");
	TAP_EQ_U(dg, 180, "180 DG-RDMA frames (pad 0x0000), payload lengths exact");
	TAP_EQ_U(dc, 20, "20 DCP packets (pad 0xF040)");
	TAP_EQ_U(inv, 0, "none invalid");

	raw = socket(AF_INET, SOCK_DGRAM, 0);
	{
		static const uint8_t bad[8] = { 0xAB, 0xCD, 1, 2, 3, 4, 5, 6 };
		static const uint8_t one[1] = { 0 };

		sendto(raw, bad, sizeof(bad), 0, (struct sockaddr *)&ba.in, sizeof(ba.in));
		sendto(raw, one, sizeof(one), 0, (struct sockaddr *)&ba.in, sizeof(ba.in));
	}
	dg = dc = inv = 0;
	TAP_EQ_U(drain(b, NULL, 2, &dg, &dc, &inv), 2, "2 foreign datagrams received");
	TAP_EQ_U(inv, 2, "unknown pad and 1-byte datagram are DGR_PROTO_INVALID");

	/* a receiver with the smallest buffer that does not read: the kernel drops */
	c = open_udp(4096);
	if (c) {
		struct dgr_addr ca;
		unsigned int got;

		dgr_transport_local_addr(c, &ca);
		dgr_transport_set_peer(a, &ca);
		for (int i = 0; i < 200; i++) {
			pkts[i].proto = DGR_PROTO_DGRDMA;
		}
		dgr_transport_send(a, pkts, 200, err);
		dg = dc = inv = 0;
		got = drain(c, NULL, 200, &dg, &dc, &inv);
		TAP_EQ_I(dgr_transport_drops(c, &drops, err), 0, "drop counter readable");
		tap_ok(got < 200, "a 4 KiB receive buffer cannot hold 200 datagrams (%u kept)",
		       got);
		TAP_EQ_U(drops + got, 200, "SO_RXQ_OVFL drops + received = 200 sent");
		dgr_transport_close(c);
	}
	{
		struct dgr_transport_opts o;
		struct dgr_transport *d = NULL;

		dgr_transport_opts_init(&o);
		o.kind = DGR_TRANSPORT_UDP;
		o.bind_addr = ba.in;
		TAP_EQ_I(dgr_transport_open(&o, &d, err), -DGR_E_SYS, "binding a used port fails");
		tap_ok(strstr(err, "Address already in use") != NULL, "with the errno text: %s",
		       err);
	}
	close(raw);
	dgr_transport_close(a);
	dgr_transport_close(b);
	test_peer_only();
	return tap_done();
}
