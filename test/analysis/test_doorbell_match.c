// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the doorbell matcher (analysis/doorbell_match.c): the rule of docs/analysis.md. */
#include "../../analysis/doorbell_match.h"
#include "../unit/tap.h"

#define DATA(b) (0x00100000u + 4u * (b))
#define BELL(b) (0x0000F000u + 4u * (b))

static struct dm_matcher m;

static void test_in_order(void)
{
	struct dm_result r;
	unsigned int i;
	int ok = 1;

	dm_init(&m);
	for (i = 0; i < 12; i++) {
		dm_feed_txn(&m, DATA(i % 4), 1000 * i, i, &r);
		ok &= r.kind == DM_NONE;
		dm_feed_doorbell(&m, BELL(i % 4), 1000 * i + 100 + i, &r);
		ok &= r.kind == DM_MATCHED && r.latency == 100 + i && r.txn_ref == i &&
		      r.buffer == i % 4;
	}
	tap_ok(ok, "in order: every doorbell matches its transaction with the exact latency");
	TAP_EQ_U(m.c.matched, 12, "in order: 12 matched");
	TAP_EQ_U(dm_buffers(&m), 4, "in order: 4 buffers from 4 distinct addresses per kind");
	TAP_EQ_U(m.c.order_violations + m.c.ordinal_mismatch, 0, "in order: cross-checks clean");
	TAP_EQ_U(dm_pending_count(&m), 0, "in order: nothing waiting at the end");
}

static void test_outstanding(void)
{
	struct dm_result r;
	unsigned int i;

	/* all four buffers filled before the first doorbell: doorbell k answers txn k */
	dm_init(&m);
	for (i = 0; i < 4; i++) {
		dm_feed_txn(&m, DATA(i), 10 * i, i, &r);
	}
	for (i = 0; i < 4; i++) {
		dm_feed_doorbell(&m, BELL(i), 1000 + i, &r);
		TAP_EQ_U(r.latency, 1000 + i - 10 * i, "outstanding: doorbell %u latency", i);
	}
	TAP_EQ_U(m.c.ordinal_mismatch, 0, "outstanding: k-th doorbell answers k-th transaction");
}

static void test_unmatched_and_orphan(void)
{
	struct dm_result r;

	dm_init(&m);
	dm_feed_txn(&m, DATA(0), 100, 1, &r);
	dm_feed_txn(&m, DATA(1), 200, 2, &r);
	/* buffer 0 refilled before its doorbell: its doorbell is missing from the capture */
	dm_feed_txn(&m, DATA(0), 300, 3, &r);
	tap_ok(r.kind == DM_UNMATCHED && r.txn_ref == 1 && r.txn_ts == 100,
	       "a newer transaction into a waiting buffer makes the older unmatched");
	dm_feed_doorbell(&m, BELL(0), 350, &r);
	tap_ok(r.kind == DM_MATCHED && r.txn_ref == 3 && r.latency == 50,
	       "the doorbell then answers the newer transaction");
	dm_feed_doorbell(&m, BELL(0), 400, &r);
	tap_ok(r.kind == DM_ORPHAN, "a second doorbell for the buffer is an orphan");
	TAP_EQ_U(m.c.unmatched, 1, "1 unmatched");
	TAP_EQ_U(dm_pending_count(&m), 1, "buffer 1 still waiting");
	TAP_EQ_U(m.c.order_violations, 0, "matches stayed in completion order");
	dm_feed_doorbell(&m, BELL(1), 500, &r);
	tap_ok(r.kind == DM_MATCHED && r.txn_ref == 2 && r.latency == 300,
	       "buffer 1's doorbell matches its transaction");
	TAP_EQ_U(m.c.order_violations, 1,
		 "answering an older transaction after a newer one is an order violation");
	TAP_EQ_U(m.c.orphans, 1, "1 orphan");

	/* a doorbell address ranked beyond every data address answers nothing */
	dm_init(&m);
	dm_feed_txn(&m, DATA(0), 100, 1, &r);
	dm_feed_doorbell(&m, BELL(0), 200, &r);
	dm_feed_doorbell(&m, BELL(1), 300, &r);
	tap_ok(r.kind == DM_ORPHAN && r.buffer == 1,
	       "a doorbell ranked beyond every data address is an orphan");
}

static void test_rank_by_value(void)
{
	struct dm_result r;

	/* data addresses appear out of order; pending state follows the address */
	dm_init(&m);
	dm_feed_txn(&m, DATA(2), 10, 12, &r);
	dm_feed_txn(&m, DATA(0), 20, 10, &r);
	dm_feed_txn(&m, DATA(1), 30, 11, &r);
	dm_feed_doorbell(&m, BELL(0), 100, &r);
	tap_ok(r.kind == DM_MATCHED && r.txn_ref == 10 && r.buffer == 0,
	       "ascending value: lowest doorbell address answers lowest data address");
	dm_feed_doorbell(&m, BELL(1), 110, &r);
	tap_ok(r.kind == DM_MATCHED && r.txn_ref == 11 && r.buffer == 1, "rank 1 answers rank 1");
	dm_feed_doorbell(&m, BELL(2), 120, &r);
	tap_ok(r.kind == DM_MATCHED && r.txn_ref == 12 && r.latency == 110,
	       "an address whose rank shifted kept its waiting transaction");
}

static void test_overflow(void)
{
	struct dm_result r;
	unsigned int i;
	int rc;

	dm_init(&m);
	for (i = 0; i < DM_MAX_BUFFERS; i++) {
		dm_feed_txn(&m, DATA(i), i, i, &r);
	}
	rc = dm_feed_txn(&m, DATA(DM_MAX_BUFFERS), 5, 5, &r);
	TAP_EQ_I(rc, -1, "address beyond DM_MAX_BUFFERS is refused");
	TAP_EQ_U(m.c.addr_overflow, 1, "and counted");
	rc = dm_feed_doorbell(&m, BELL(DM_MAX_BUFFERS - 1), 5000, &r);
	tap_ok(rc == 0 && r.kind == DM_MATCHED && r.txn_ref == 0,
	       "the first doorbell address seen has rank 0: it answers buffer 0");
}

int main(void)
{
	test_in_order();
	test_outstanding();
	test_unmatched_and_orphan();
	test_rank_by_value();
	test_overflow();
	return tap_done();
}
