/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IP fragments put back together, so that latency-report reads a UDP datagram
 * sent in fragments as its receiver does (the kernel reassembles before the
 * socket sees it) and as Wireshark does. IPv4 and IPv6 alike: fragments of
 * one datagram share the addresses, the protocol and the id; the datagram is
 * whole when the last fragment (no "more fragments") has given its length
 * and every 8-byte block below it has arrived, in any order.
 *
 * Bounded: IP_DEFRAG_SLOTS datagrams at once (a new one takes the oldest
 * slot when all are busy) and IP_DEFRAG_TIMEOUT_NS after its first fragment
 * (capture time; Linux's ipfrag_time), after which its fragments are given up.
 */
#ifndef DGR_ANALYSIS_IP_DEFRAG_H
#define DGR_ANALYSIS_IP_DEFRAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IP_DEFRAG_SLOTS	     64
#define IP_DEFRAG_MAX	     65535 /* bytes of a datagram's payload (no jumbograms) */
#define IP_DEFRAG_TIMEOUT_NS 30000000000ull

struct ip_defrag_key {
	uint8_t version; /* 4 or 6 */
	uint8_t proto;	 /* the protocol the fragments carry (UDP) */
	uint32_t id;	 /* IPv4: 16 bits; IPv6: the fragment header's 32 */
	uint8_t src[16], dst[16];
};

struct ip_defrag_counts {
	uint64_t fragments; /* fragments fed */
	uint64_t datagrams; /* datagrams put back together */
	uint64_t given_up;  /* fragments of datagrams never completed (age, room, the end) */
	uint64_t bad;	    /* fragments past IP_DEFRAG_MAX, or after their datagram's end */
};

struct ip_defrag_slot;

struct ip_defrag {
	struct ip_defrag_slot *slot; /* IP_DEFRAG_SLOTS */
	struct ip_defrag_counts c;
};

/* Sets up an empty table. Returns 0, or -DGR_E_NOMEM when memory runs out. */
int ip_defrag_init(struct ip_defrag *d);

/* Frees the table; the datagrams still incomplete count as given up first. */
void ip_defrag_free(struct ip_defrag *d);

/* Counts the fragments of datagrams still incomplete as given up (the capture's end). */
void ip_defrag_finish(struct ip_defrag *d);

/*
 * Feeds a fragment of len bytes at byte offset off of the datagram k, seen at
 * ts; more: the "more fragments" flag. Returns 1 when it completes the
 * datagram, with *out and *out_len the whole payload (valid until the next
 * call); 0 when it is kept; -DGR_E_INVAL when it is refused (counted in c.bad),
 * -DGR_E_NOMEM when no memory was left for its datagram (counted in c.given_up).
 */
int ip_defrag_add(struct ip_defrag *d, const struct ip_defrag_key *k, size_t off,
		  const uint8_t *data, size_t len, bool more, uint64_t ts, const uint8_t **out,
		  size_t *out_len);

#endif
