// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the transaction reassembler: any fragment order, duplicates,
 * inconsistent fragments, capacity, expiry, a growing table and a long
 * randomised run that exercises hash-table deletion.
 */
#include <stdlib.h>

#include <dgrdma/reassembly.h>

#include "tap.h"

static struct dgr_msg frag(uint32_t txn, uint16_t n, uint16_t seq, uint32_t addr, uint16_t len)
{
	struct dgr_msg m = { .txn_id = txn,
			     .flag_addr = 0x8000 + 4 * (txn % 8),
			     .flag_value = dgr_flag_encode(40, false, false, 0),
			     .num_msgs_in_txn = n,
			     .msg_seq = seq,
			     .data_addr = addr,
			     .data_len = len };

	return m;
}

static void test_orders(void)
{
	struct dgr_reasm *r = dgr_reasm_new(8, NULL);
	struct dgr_txn_info done;
	struct dgr_msg a = frag(1, 3, 1, 0, 16), b = frag(1, 3, 2, 16, 16),
		       c = frag(1, 3, 3, 32, 8);

	TAP_EQ_I(dgr_reasm_add(r, &c, 10, 100, &done), DGR_REASM_PARTIAL, "last fragment first");
	TAP_EQ_I(dgr_reasm_add(r, &a, 11, 101, &done), DGR_REASM_PARTIAL, "then the first");
	TAP_EQ_I(dgr_reasm_outstanding(r), 1, "one transaction outstanding");
	TAP_EQ_I(dgr_reasm_add(r, &b, 12, 102, &done), DGR_REASM_COMPLETE,
		 "middle fragment completes it");
	tap_ok(done.txn_id == 1 && done.bytes == 40 && done.data_addr == 0 && done.msgs_seen == 3 &&
		   done.first_ts == 10 && done.last_ts == 12 && done.first_ref == 100 &&
		   done.last_ref == 102 && done.num_msgs == 3 && done.flag_addr == 0x8004,
	       "completed transaction: bytes, lowest address, first/last timestamps and refs");
	TAP_EQ_I(dgr_reasm_outstanding(r), 0, "nothing outstanding after completion");

	a = frag(2, 1, 1, 0, 64);
	TAP_EQ_I(dgr_reasm_add(r, &a, 1, 1, &done), DGR_REASM_COMPLETE,
		 "single-message transaction completes at once");
	a = frag(3, 0, 1, 0, 0);
	TAP_EQ_I(dgr_reasm_add(r, &a, 1, 1, &done), DGR_REASM_COMPLETE,
		 "flag-only transaction (num_msgs 0) completes at once");
	TAP_EQ_U(done.num_msgs, 0, "flag-only transaction keeps num_msgs 0");
	dgr_reasm_free(r);
}

static void test_errors(void)
{
	struct dgr_reasm *r = dgr_reasm_new(2, NULL);
	struct dgr_txn_info done;
	struct dgr_msg a = frag(7, 2, 1, 0, 16);
	struct dgr_msg bad;
	char err[DGR_ERRBUF_SIZE];

	TAP_EQ_I(dgr_reasm_add(r, &a, 0, 0, &done), DGR_REASM_PARTIAL, "first of two");
	TAP_EQ_I(dgr_reasm_add(r, &a, 0, 0, &done), DGR_REASM_DUPLICATE, "same fragment again");
	bad = frag(7, 3, 2, 16, 16);
	TAP_EQ_I(dgr_reasm_add(r, &bad, 0, 0, &done), -DGR_E_NUM_MSGS,
		 "fragment with a different num_msgs_in_txn is rejected");
	bad = frag(7, 2, 2, 16, 16);
	bad.flag_addr += 4;
	TAP_EQ_I(dgr_reasm_add(r, &bad, 0, 0, &done), -DGR_E_NUM_MSGS,
		 "fragment with a different flag address is rejected");
	bad = frag(8, 2, 3, 0, 16);
	TAP_EQ_I(dgr_reasm_add(r, &bad, 0, 0, &done), -DGR_E_NUM_MSGS,
		 "msg_seq 3 of 2 is rejected");
	a = frag(8, 2, 1, 0, 16);
	TAP_EQ_I(dgr_reasm_add(r, &a, 5, 0, &done), DGR_REASM_PARTIAL, "second transaction");
	a = frag(9, 2, 1, 0, 16);
	TAP_EQ_I(dgr_reasm_add(r, &a, 6, 0, &done), -DGR_E_NOSPACE,
		 "third incomplete transaction exceeds max_outstanding 2");
	a = frag(7, 2, 2, 16, 16);
	TAP_EQ_I(dgr_reasm_add(r, &a, 0, 0, &done), DGR_REASM_COMPLETE,
		 "rejected fragments did not disturb the transaction");
	tap_ok(dgr_reasm_new(0, err) == NULL && strstr(err, "1..65536") != NULL,
	       "max_outstanding 0 is refused with the accepted range");
	dgr_reasm_free(r);
}

/* The consistency rule on its own, against a complete transaction the reassembler forgot. */
static void test_fragment_check(void)
{
	struct dgr_reasm *r = dgr_reasm_new(2, NULL);
	struct dgr_txn_info done;
	struct dgr_msg a = frag(20, 2, 1, 0, 16), b = frag(20, 2, 2, 16, 16);
	struct dgr_msg m;

	dgr_reasm_add(r, &a, 1, 1, &done);
	TAP_EQ_I(dgr_reasm_add(r, &b, 2, 2, &done), DGR_REASM_COMPLETE, "check: txn 20 complete");
	TAP_EQ_I(dgr_reasm_fragment_check(&done, &a), 0, "check: a repeated fragment 1/2 fits");
	TAP_EQ_I(dgr_reasm_fragment_check(&done, &b), 0, "check: a repeated fragment 2/2 fits");
	m = frag(20, 3, 2, 16, 16);
	TAP_EQ_I(dgr_reasm_fragment_check(&done, &m), -DGR_E_NUM_MSGS,
		 "check: another num_msgs_in_txn does not fit");
	m = b;
	m.flag_value ^= 0x100;
	TAP_EQ_I(dgr_reasm_fragment_check(&done, &m), -DGR_E_NUM_MSGS,
		 "check: another flag value does not fit");
	m = b;
	m.flag_addr += 4;
	TAP_EQ_I(dgr_reasm_fragment_check(&done, &m), -DGR_E_NUM_MSGS,
		 "check: another flag address does not fit");
	m = frag(20, 2, 3, 0, 16);
	TAP_EQ_I(dgr_reasm_fragment_check(&done, &m), -DGR_E_NUM_MSGS, "check: msg_seq 3 of 2");
	m = frag(20, 2, 0, 0, 16);
	TAP_EQ_I(dgr_reasm_fragment_check(&done, &m), -DGR_E_NUM_MSGS, "check: msg_seq 0 of 2");
	a = frag(21, 1, 7, 0, 16);
	TAP_EQ_I(dgr_reasm_add(r, &a, 3, 3, &done), DGR_REASM_COMPLETE, "check: txn 21 of one");
	TAP_EQ_I(dgr_reasm_fragment_check(&done, &a), 0,
		 "check: msg_seq is not checked in a transaction of one message");
	TAP_EQ_U(dgr_reasm_outstanding(r), 0, "check: the reassembler is untouched");
	dgr_reasm_free(r);
}

static unsigned int cb_count;
static uint32_t cb_ids[16];

static void record(const struct dgr_txn_info *t, void *ctx)
{
	(void)ctx;
	cb_ids[cb_count++ % 16] = t->txn_id;
}

static void test_expire(void)
{
	struct dgr_reasm *r = dgr_reasm_new(16, NULL);
	struct dgr_txn_info done;

	for (uint32_t id = 1; id <= 5; id++) {
		struct dgr_msg m = frag(id, 2, 1, 0, 16);

		dgr_reasm_add(r, &m, id * 100, id, &done);
	}
	cb_count = 0;
	TAP_EQ_U(dgr_reasm_foreach_incomplete(r, record, NULL), 5, "five incomplete");
	tap_ok(cb_ids[0] == 1 && cb_ids[4] == 5, "incomplete transactions are listed oldest first");
	cb_count = 0;
	TAP_EQ_U(dgr_reasm_expire(r, 300, record, NULL), 2, "two older than t=300 expire");
	tap_ok(cb_ids[0] == 1 && cb_ids[1] == 2, "expired transactions are 1 and 2");
	TAP_EQ_U(dgr_reasm_outstanding(r), 3, "three remain");
	{
		struct dgr_msg m = frag(4, 2, 2, 16, 16);

		TAP_EQ_I(dgr_reasm_add(r, &m, 1000, 0, &done), DGR_REASM_COMPLETE,
			 "a survivor still completes after expiry shifted the table");
		m = frag(1, 2, 2, 16, 16);
		TAP_EQ_I(dgr_reasm_add(r, &m, 1000, 0, &done), DGR_REASM_PARTIAL,
			 "a late fragment of an expired transaction starts it anew");
	}
	dgr_reasm_free(r);
}

/* The id of the i-th transaction of test_growing(): far apart and close, so that the rehash
 * must find each again. */
static uint32_t growing_id(uint32_t i)
{
	return i % 2 ? i * 7919u : i;
}

static uint32_t next_index;
static bool in_order;

static void check_order(const struct dgr_txn_info *t, void *ctx)
{
	(void)ctx;
	in_order &= t->txn_id == growing_id(next_index++);
}

/* A growing table doubles from 16 slots up to max's size and keeps every transaction. */
static void test_growing(void)
{
	enum { MAX = 300 };
	struct dgr_reasm *r = dgr_reasm_new_growing(MAX, NULL);
	struct dgr_txn_info done;
	struct dgr_msg m;
	bool all_partial = true, all_complete = true;

	for (uint32_t i = 0; i < MAX; i++) {
		m = frag(growing_id(i), 2, 2, 16, 8);
		all_partial &= dgr_reasm_add(r, &m, 100 + i, i, &done) == DGR_REASM_PARTIAL;
	}
	tap_ok(all_partial, "growing: 300 transactions wait through six doublings");
	TAP_EQ_U(dgr_reasm_outstanding(r), MAX, "growing: all 300 outstanding");
	m = frag(5000000, 2, 1, 0, 16);
	TAP_EQ_I(dgr_reasm_add(r, &m, 1000, 0, &done), -DGR_E_NOSPACE,
		 "growing: the 301st is refused as by a full table");
	m = frag(0, 2, 2, 16, 8);
	TAP_EQ_I(dgr_reasm_add(r, &m, 1000, 0, &done), DGR_REASM_DUPLICATE,
		 "growing: a fragment seen before the doublings is a duplicate");
	in_order = true;
	next_index = 0;
	TAP_EQ_U(dgr_reasm_foreach_incomplete(r, check_order, NULL), MAX,
		 "growing: every transaction listed");
	tap_ok(in_order, "growing: listed oldest first, in arrival order");
	for (uint32_t i = MAX; i-- > 0;) {
		m = frag(growing_id(i), 2, 1, 0, 16);
		all_complete &= dgr_reasm_add(r, &m, 2000, 0, &done) == DGR_REASM_COMPLETE &&
				done.bytes == 24 && done.first_ts == 100 + i && done.data_addr == 0;
	}
	tap_ok(all_complete, "growing: each completes with its bytes and first timestamp");
	TAP_EQ_U(dgr_reasm_outstanding(r), 0, "growing: nothing left outstanding");
	dgr_reasm_free(r);
}

/* Many transactions with fragments shuffled within a window, in a fixed or a growing table. */
static void test_random_run(bool growing)
{
	enum { TXNS = 20000, WINDOW = 64, PARTS = 5 };
	struct dgr_reasm *r =
	    growing ? dgr_reasm_new_growing(WINDOW * 2, NULL) : dgr_reasm_new(WINDOW * 2, NULL);
	struct dgr_msg *msgs = malloc(sizeof(*msgs) * TXNS * PARTS);
	struct dgr_txn_info done;
	unsigned int completes = 0, errors = 0;
	uint32_t seed = 12345;
	size_t n = 0;
	bool all_bytes = true;

	for (uint32_t t = 1; t <= TXNS; t++) {
		for (uint16_t s = 1; s <= PARTS; s++) {
			msgs[n++] = frag(t, PARTS, s, (s - 1u) * 16u, 16);
		}
	}
	/* Shuffle within windows of WINDOW messages. */
	for (size_t base = 0; base < n; base += WINDOW) {
		size_t len = n - base < WINDOW ? n - base : WINDOW;

		for (size_t i = len - 1; i > 0; i--) {
			struct dgr_msg tmp;
			size_t j;

			seed = seed * 1103515245u + 12345u;
			j = (seed >> 8) % (i + 1);
			tmp = msgs[base + i];
			msgs[base + i] = msgs[base + j];
			msgs[base + j] = tmp;
		}
	}
	for (size_t i = 0; i < n; i++) {
		int rc = dgr_reasm_add(r, &msgs[i], i, i, &done);

		if (rc == DGR_REASM_COMPLETE) {
			completes++;
			all_bytes &= done.bytes == 16 * PARTS;
		} else if (rc < 0) {
			errors++;
		}
	}
	TAP_EQ_U(completes, TXNS, "randomised run: every transaction completes once");
	TAP_EQ_U(errors, 0, "randomised run: no errors");
	tap_ok(all_bytes, "randomised run: every transaction has all its bytes");
	TAP_EQ_U(dgr_reasm_outstanding(r), 0, "randomised run: nothing left outstanding");
	free(msgs);
	dgr_reasm_free(r);
}

int main(void)
{
	test_orders();
	test_errors();
	test_fragment_check();
	test_expire();
	test_growing();
	test_random_run(false);
	test_random_run(true);
	return tap_done();
}
