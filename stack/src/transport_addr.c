/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Peer addresses of both kinds of transport (dgrdma/transport.h): MACs, IPv4 ADDR:PORT. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/transport.h>

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
