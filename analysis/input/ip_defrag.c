// SPDX-License-Identifier: GPL-2.0-or-later
/* IP fragments put back together (see ip_defrag.h). */
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "ip_defrag.h"

#define BLOCKS ((IP_DEFRAG_MAX + 7) / 8)

struct ip_defrag_slot {
	bool used;
	struct ip_defrag_key key;
	uint64_t first_ts;
	uint32_t frags;	      /* fragments kept */
	uint32_t total;	      /* payload length, from the last fragment; 0 until then */
	uint32_t max_end;     /* the furthest byte any fragment reached */
	uint32_t blocks_have; /* distinct 8-byte blocks received */
	uint8_t *buf;	      /* IP_DEFRAG_MAX bytes, kept for the slot's next datagram */
	uint64_t seen[(BLOCKS + 63) / 64];
};

int ip_defrag_init(struct ip_defrag *d)
{
	memset(d, 0, sizeof(*d));
	d->slot = calloc(IP_DEFRAG_SLOTS, sizeof(*d->slot));
	return d->slot ? 0 : -DGR_E_NOMEM;
}

static void slot_clear(struct ip_defrag_slot *s)
{
	uint8_t *buf = s->buf;

	memset(s, 0, sizeof(*s));
	s->buf = buf;
}

static void slot_give_up(struct ip_defrag *d, struct ip_defrag_slot *s)
{
	d->c.given_up += s->frags;
	slot_clear(s);
}

void ip_defrag_finish(struct ip_defrag *d)
{
	unsigned int i;

	for (i = 0; d->slot && i < IP_DEFRAG_SLOTS; i++) {
		if (d->slot[i].used) {
			slot_give_up(d, &d->slot[i]);
		}
	}
}

void ip_defrag_free(struct ip_defrag *d)
{
	unsigned int i;

	if (!d->slot) {
		return;
	}
	ip_defrag_finish(d);
	for (i = 0; i < IP_DEFRAG_SLOTS; i++) {
		free(d->slot[i].buf);
	}
	free(d->slot);
	d->slot = NULL;
}

static bool key_eq(const struct ip_defrag_key *a, const struct ip_defrag_key *b)
{
	return a->version == b->version && a->proto == b->proto && a->id == b->id &&
	       !memcmp(a->src, b->src, sizeof(a->src)) && !memcmp(a->dst, b->dst, sizeof(a->dst));
}

/* The slot of datagram k, or a new one (free, else the oldest given up); expires old ones. */
static struct ip_defrag_slot *slot_for(struct ip_defrag *d, const struct ip_defrag_key *k,
				       uint64_t ts)
{
	struct ip_defrag_slot *found = NULL, *free_slot = NULL, *oldest = NULL;
	unsigned int i;

	for (i = 0; i < IP_DEFRAG_SLOTS; i++) {
		struct ip_defrag_slot *s = &d->slot[i];

		if (s->used && ts > s->first_ts && ts - s->first_ts > IP_DEFRAG_TIMEOUT_NS) {
			slot_give_up(d, s);
		}
		if (!s->used) {
			if (!free_slot) {
				free_slot = s;
			}
			continue;
		}
		if (key_eq(&s->key, k)) {
			found = s;
		}
		if (!oldest || s->first_ts < oldest->first_ts) {
			oldest = s;
		}
	}
	if (found) {
		return found;
	}
	if (!free_slot) {
		slot_give_up(d, oldest);
		free_slot = oldest;
	}
	if (!free_slot->buf) {
		free_slot->buf = malloc(IP_DEFRAG_MAX);
		if (!free_slot->buf) {
			return NULL;
		}
	}
	free_slot->used = true;
	free_slot->key = *k;
	free_slot->first_ts = ts;
	return free_slot;
}

int ip_defrag_add(struct ip_defrag *d, const struct ip_defrag_key *k, size_t off,
		  const uint8_t *data, size_t len, bool more, uint64_t ts, const uint8_t **out,
		  size_t *out_len)
{
	struct ip_defrag_slot *s;
	size_t b;

	d->c.fragments++;
	if (off + len > IP_DEFRAG_MAX || (more && (len == 0 || len % 8))) {
		/* past the largest datagram, or a middle fragment not a whole number of blocks */
		d->c.bad++;
		return -DGR_E_INVAL;
	}
	s = slot_for(d, k, ts);
	if (!s) {
		d->c.given_up++;
		return -DGR_E_NOMEM;
	}
	if ((s->total && off + len > s->total) || (!more && s->total && off + len != s->total) ||
	    (!more && s->max_end > off + len)) {
		/* past the end the last fragment gave, or an end before bytes already seen */
		d->c.bad++;
		return -DGR_E_INVAL;
	}
	if (off + len > s->max_end) {
		s->max_end = (uint32_t)(off + len);
	}
	memcpy(s->buf + off, data, len);
	s->frags++;
	if (!more) {
		s->total = (uint32_t)(off + len);
	}
	for (b = off / 8; b < (off + len + 7) / 8; b++) {
		uint64_t bit = 1ull << (b % 64);

		if (!(s->seen[b / 64] & bit)) {
			s->seen[b / 64] |= bit;
			s->blocks_have++;
		}
	}
	if (!s->total || s->blocks_have != (s->total + 7) / 8) {
		return 0;
	}
	d->c.datagrams++;
	*out = s->buf;
	*out_len = s->total;
	slot_clear(s); /* the bytes stay in buf until the slot's next datagram */
	return 1;
}
