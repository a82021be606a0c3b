// SPDX-License-Identifier: GPL-2.0-or-later
/* Connections of DG-RDMA endpoints (see conn_table.h). */
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "conn_table.h"

/* Where an address keeps its port: after the IP address; 0 for the kinds without one. */
static size_t port_at(const struct eng_addr *a)
{
	return a->kind == ENG_ADDR_IPV4 ? 4 : a->kind == ENG_ADDR_IPV6 ? 16 : 0;
}

/* An address of this kind with these n bytes, the rest (port included) zero. */
static void addr_set(struct eng_addr *a, enum eng_addr_kind kind, const uint8_t *bytes, size_t n)
{
	memset(a, 0, sizeof(*a));
	a->kind = (uint8_t)kind;
	memcpy(a->b, bytes, n);
}

void eng_addr_ipv4(struct eng_addr *a, const uint8_t ip[4], uint16_t port)
{
	addr_set(a, ENG_ADDR_IPV4, ip, 4);
	eng_addr_set_port(a, port);
}

void eng_addr_ipv6(struct eng_addr *a, const uint8_t ip[16], uint16_t port)
{
	addr_set(a, ENG_ADDR_IPV6, ip, 16);
	eng_addr_set_port(a, port);
}

void eng_addr_set_port(struct eng_addr *a, uint16_t port)
{
	size_t at = port_at(a);

	if (at) {
		a->b[at] = (uint8_t)(port >> 8);
		a->b[at + 1] = (uint8_t)port;
	}
}

uint16_t eng_addr_port(const struct eng_addr *a)
{
	size_t at = port_at(a);
	uint16_t port = 0;

	if (at) {
		port = (uint16_t)(a->b[at] << 8 | a->b[at + 1]);
	}
	return port;
}

int eng_conns_init(struct eng_conns *t)
{
	memset(t, 0, sizeof(*t));
	t->conn = calloc(ENG_MAX_CONNS, sizeof(*t->conn));
	return t->conn ? 0 : -DGR_E_NOMEM;
}

void eng_conns_free(struct eng_conns *t)
{
	free(t->conn);
	t->conn = NULL;
	t->n = 0;
}

static int ep_cmp(const struct eng_endpoint *a, const struct eng_endpoint *b)
{
	int c = memcmp(&a->addr, &b->addr, sizeof(a->addr));

	if (c) {
		return c;
	}
	return (int)a->id - (int)b->id;
}

static bool conn_is(const struct eng_conn *c, const struct eng_endpoint *a,
		    const struct eng_endpoint *b)
{
	return !ep_cmp(&c->side[0], a) && !ep_cmp(&c->side[1], b);
}

int eng_conn_find_any(struct eng_conns *t, const struct eng_endpoint *src,
		      const struct eng_endpoint *dst, bool carries_msgs, int *from)
{
	const struct eng_endpoint *a = src, *b = dst;
	struct eng_conn *c;
	unsigned int i;
	int swap = ep_cmp(src, dst) > 0;

	if (swap) {
		a = dst;
		b = src;
	}
	*from = swap;
	for (i = 0; i < t->n; i++) {
		if (conn_is(&t->conn[i], a, b)) {
			goto found;
		}
	}
	if (t->n == ENG_MAX_CONNS) {
		t->overflow++;
		return -1;
	}
	i = t->n++;
	c = &t->conn[i];
	memset(c, 0, sizeof(*c));
	c->side[0] = *a;
	c->side[1] = *b;
found:
	t->last = i;
	if (carries_msgs) {
		t->conn[i].msg_frames[swap]++;
	}
	return (int)i;
}

int eng_conn_for_dcp(const struct eng_conns *t, const struct eng_addr *req_src,
		     const struct eng_addr *req_dst, int *data_side)
{
	unsigned int i;
	int k;

	for (i = 0; i < t->n; i++) {
		const struct eng_conn *c = &t->conn[i];

		for (k = 0; k < 2; k++) {
			if (c->msg_frames[k] &&
			    !memcmp(&c->side[k].addr, req_dst, sizeof(*req_dst)) &&
			    !memcmp(&c->side[1 - k].addr, req_src, sizeof(*req_src))) {
				*data_side = k;
				return (int)i;
			}
		}
	}
	return -1;
}
