/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Connections, one table for latency-report and the Wireshark plugin.
 *
 * An endpoint is a link or network address (a MAC for raw Ethernet, an IP
 * address and UDP port for UDP) with the DG-RDMA endpoint id it sends from; a
 * connection is an unordered pair of endpoints, side 0 the smaller. A frame
 * belongs to the connection of its sender and receiver. In a Linux cooked
 * capture only the sender's address is known, so the caller leaves both
 * addresses unknown (all zero) and endpoints differ by id alone.
 *
 * A DCP doorbell carries no endpoint ids: it belongs to the first connection
 * (in order of appearance) whose data could be what it answers, see
 * eng_conn_for_dcp().
 */
#ifndef DGR_ENGINE_CONN_TABLE_H
#define DGR_ENGINE_CONN_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Connections tracked; frames of more are counted (overflow) and not analysed. */
#define ENG_MAX_CONNS 256
/* The largest address: an IPv6 address and a UDP port. */
#define ENG_ADDR_LEN 18

enum eng_addr_kind {
	ENG_ADDR_UNKNOWN = 0, /* a cooked capture's: all bytes zero */
	ENG_ADDR_MAC,	      /* b[0..5] */
	ENG_ADDR_IPV4,	      /* b[0..3] the address, b[4..5] the port (network order) */
	ENG_ADDR_IPV6,	      /* b[0..15] the address, b[16..17] the port */
};

/* Unused bytes are zero, so two addresses compare with memcmp. */
struct eng_addr {
	uint8_t kind; /* enum eng_addr_kind */
	uint8_t b[ENG_ADDR_LEN];
};

struct eng_endpoint {
	struct eng_addr addr;
	uint16_t id; /* the DG-RDMA endpoint id it sends from */
};

struct eng_conn {
	struct eng_endpoint side[2]; /* side[0] < side[1] */
	uint64_t msg_frames[2];	     /* frames side k sent with "messages follow" */
};

struct eng_conns {
	struct eng_conn *conn; /* ENG_MAX_CONNS entries */
	unsigned int n;
	unsigned int last; /* the connection found last: a capture is mostly one */
	uint64_t overflow; /* frames of connections beyond ENG_MAX_CONNS */
};

/* Sets the address to a MAC (6 bytes), the rest zero (inline: two per Ethernet frame). */
static inline void eng_addr_mac(struct eng_addr *a, const uint8_t mac[6])
{
	memset(a, 0, sizeof(*a));
	a->kind = ENG_ADDR_MAC;
	memcpy(a->b, mac, 6);
}
/* Sets the address to an IPv4 address (4 bytes, network order) and a port. */
void eng_addr_ipv4(struct eng_addr *a, const uint8_t ip[4], uint16_t port);
/* Sets the address to an IPv6 address (16 bytes) and a port. */
void eng_addr_ipv6(struct eng_addr *a, const uint8_t ip[16], uint16_t port);
/* Sets the UDP port of an IPv4 or IPv6 address (nothing for the other kinds). */
void eng_addr_set_port(struct eng_addr *a, uint16_t port);
/* The UDP port of an IPv4 or IPv6 address; 0 for the other kinds. */
uint16_t eng_addr_port(const struct eng_addr *a);

/* Sets up an empty table. Returns 0, or -DGR_E_NOMEM when memory runs out. */
int eng_conns_init(struct eng_conns *t);
void eng_conns_free(struct eng_conns *t);

/*
 * The connection of a frame from src to dst, created at its first frame;
 * *from is set to src's side. carries_msgs: the frame's header says messages
 * follow (eng_conn_for_dcp() needs it). Returns the connection's index (in
 * order of appearance), or -1 when the table is full (the frame is counted in
 * t->overflow). eng_conn_find_any() is the same without the inline look at
 * the last connection.
 */
int eng_conn_find_any(struct eng_conns *t, const struct eng_endpoint *src,
		      const struct eng_endpoint *dst, bool carries_msgs, int *from);

/* Whether endpoint e is address a sending from id (equality: the fixed sizes inline). */
static inline bool eng_endpoint_is(const struct eng_endpoint *e, const struct eng_addr *a,
				   uint16_t id)
{
	return e->id == id && !memcmp(&e->addr, a, sizeof(*a));
}

/*
 * eng_conn_find() of the endpoints (src, src_id) and (dst, dst_id), compared
 * where they are (a frame's decoded addresses, its header's ids) rather than
 * copied into endpoints first.
 */
static inline int eng_conn_find_at(struct eng_conns *t, const struct eng_addr *src, uint16_t src_id,
				   const struct eng_addr *dst, uint16_t dst_id, bool carries_msgs,
				   int *from)
{
	struct eng_endpoint s, d;

	/*
	 * Inline, the common case: a capture is mostly one connection, the last
	 * one found, either way round (side[0] <= side[1] already says which
	 * side src is; src == dst is side 0, as eng_conn_find_any() orders).
	 */
	if (t->n) {
		struct eng_conn *c = &t->conn[t->last];
		int swap = -1;

		if (eng_endpoint_is(&c->side[0], src, src_id) &&
		    eng_endpoint_is(&c->side[1], dst, dst_id)) {
			swap = 0;
		} else if (eng_endpoint_is(&c->side[1], src, src_id) &&
			   eng_endpoint_is(&c->side[0], dst, dst_id)) {
			swap = 1;
		}
		if (swap >= 0) {
			*from = swap;
			c->msg_frames[swap] += carries_msgs;
			return (int)t->last;
		}
	}
	memset(&s, 0, sizeof(s));
	memset(&d, 0, sizeof(d));
	s.addr = *src;
	s.id = src_id;
	d.addr = *dst;
	d.id = dst_id;
	return eng_conn_find_any(t, &s, &d, carries_msgs, from);
}

/* The connection of a frame from src to dst: the contract above eng_conn_find_any(). */
static inline int eng_conn_find(struct eng_conns *t, const struct eng_endpoint *src,
				const struct eng_endpoint *dst, bool carries_msgs, int *from)
{
	return eng_conn_find_at(t, &src->addr, src->id, &dst->addr, dst->id, carries_msgs, from);
}

/*
 * The connection a DCP doorbell write from req_src to req_dst answers: the
 * doorbell goes back to the side that sent the data, so the first connection
 * with a side at req_dst's address that has sent frames with messages and its
 * peer at req_src's. *data_side is set to that side. Returns the connection's
 * index, or -1 when there is none.
 */
int eng_conn_for_dcp(const struct eng_conns *t, const struct eng_addr *req_src,
		     const struct eng_addr *req_dst, int *data_side);

#endif
