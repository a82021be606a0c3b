// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of IP fragment reassembly (analysis/input/ip_defrag.c). */
#include "ip_defrag.h"
#include "../unit/tap.h"

#include <string.h>

#include <dgrdma/wire.h>

static uint8_t datagram[4000];

static struct ip_defrag_key key(uint32_t id)
{
	struct ip_defrag_key k;

	memset(&k, 0, sizeof(k));
	k.version = 4;
	k.proto = 17;
	k.id = id;
	k.src[0] = 10;
	k.dst[0] = 10;
	k.dst[3] = 2;
	return k;
}

/* Feeds bytes [off, off + len) of datagram as a fragment of id. */
static int feed(struct ip_defrag *d, uint32_t id, size_t off, size_t len, bool more, uint64_t ts,
		const uint8_t **out, size_t *out_len)
{
	struct ip_defrag_key k = key(id);

	return ip_defrag_add(d, &k, off, datagram + off, len, more, ts, out, out_len);
}

int main(void)
{
	struct ip_defrag d;
	const uint8_t *out = NULL;
	size_t out_len = 0, i;
	int ok;

	for (i = 0; i < sizeof(datagram); i++) {
		datagram[i] = (uint8_t)(i * 7 + 3);
	}
	if (ip_defrag_init(&d) < 0) {
		tap_ok(0, "set up");
		return tap_done();
	}

	/* in order: 1480 + 1480 + 1040 */
	ok = feed(&d, 1, 0, 1480, true, 10, &out, &out_len) == 0;
	ok &= feed(&d, 1, 1480, 1480, true, 11, &out, &out_len) == 0;
	ok &= feed(&d, 1, 2960, 1040, false, 12, &out, &out_len) == 1;
	tap_ok(ok && out_len == 4000 && !memcmp(out, datagram, 4000),
	       "in order: whole at the last fragment, every byte in place");

	/* reversed, with a duplicate middle: whole at the first fragment, once */
	ok = feed(&d, 2, 2960, 1040, false, 20, &out, &out_len) == 0;
	ok &= feed(&d, 2, 1480, 1480, true, 21, &out, &out_len) == 0;
	ok &= feed(&d, 2, 1480, 1480, true, 22, &out, &out_len) == 0;
	ok &= feed(&d, 2, 0, 1480, true, 23, &out, &out_len) == 1;
	tap_ok(ok && out_len == 4000 && !memcmp(out, datagram, 4000),
	       "out of order with a duplicate: whole when the last hole fills");
	TAP_EQ_U(d.c.datagrams, 2, "two datagrams put together");

	/* interleaved datagrams of two ids */
	ok = feed(&d, 3, 0, 1480, true, 30, &out, &out_len) == 0;
	ok &= feed(&d, 4, 0, 1480, true, 30, &out, &out_len) == 0;
	ok &= feed(&d, 3, 1480, 8, false, 31, &out, &out_len) == 1 && out_len == 1488;
	ok &= feed(&d, 4, 1480, 16, false, 31, &out, &out_len) == 1 && out_len == 1496;
	tap_ok(ok, "two datagrams interleaved: each whole with its own length");

	/* refused: a middle fragment not a multiple of 8, past 65535, an end before seen bytes */
	ok = feed(&d, 5, 0, 1001, true, 40, &out, &out_len) == -DGR_E_INVAL;
	ok &= feed(&d, 6, 0, 8, true, 40, &out, &out_len) == 0;
	{
		struct ip_defrag_key k = key(6);

		ok &= ip_defrag_add(&d, &k, 65528, datagram, 16, false, 40, &out, &out_len) ==
		      -DGR_E_INVAL;
	}
	ok &= feed(&d, 7, 1480, 1480, true, 41, &out, &out_len) == 0;
	ok &= feed(&d, 7, 0, 1000, false, 41, &out, &out_len) == -DGR_E_INVAL;
	tap_ok(ok, "refused (-DGR_E_INVAL): odd middle length, past 65535 bytes, an end before "
		   "bytes seen");
	TAP_EQ_U(d.c.bad, 3, "three refusals counted");

	/* a missing fragment: given up after the timeout, counted by fragment */
	ok = feed(&d, 8, 0, 1480, true, 1000, &out, &out_len) == 0;
	ok &= feed(&d, 9, 0, 8, false, 1000 + IP_DEFRAG_TIMEOUT_NS + 1, &out, &out_len) == 1;
	tap_ok(ok, "a datagram whose first fragment is its only one is whole at once");
	/* ids 6, 7 (kept at 40/41) and 8 (at 1000) are older than the timeout by now */
	TAP_EQ_U(d.c.given_up, 3, "the fragments kept past the timeout are given up");

	/* room: more datagrams at once than slots give up the oldest */
	for (i = 0; i < IP_DEFRAG_SLOTS + 1; i++) {
		feed(&d, (uint32_t)(100 + i), 0, 8, true, 5000000000000ull + i, &out, &out_len);
	}
	TAP_EQ_U(d.c.given_up, 4, "one datagram more than the slots: the oldest given up");
	ok = feed(&d, 100 + IP_DEFRAG_SLOTS, 8, 8, false, 5000000000100ull, &out, &out_len) == 1;
	tap_ok(ok && out_len == 16, "the newest still completes");
	ip_defrag_finish(&d);
	TAP_EQ_U(d.c.given_up, 4 + IP_DEFRAG_SLOTS - 1,
		 "the end gives up what is still incomplete");
	ip_defrag_free(&d);
	return tap_done();
}
