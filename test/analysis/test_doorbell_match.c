// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the doorbell matcher (analysis/engine/doorbell_match.c): the rule of
 * docs/analysis.md. */
#include "doorbell_match.h"
#include "conn_table.h"
#include "msg_rules.h"
#include "reasm_feed.h"
#include "seq_track.h"
#include "../unit/tap.h"

#include <string.h>

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
		dm_feed_txn(&m, DATA(i % 4), (uint32_t)(i), 1000 * i, i, &r);
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
		dm_feed_txn(&m, DATA(i), (uint32_t)(i), 10 * i, i, &r);
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
	dm_feed_txn(&m, DATA(0), (uint32_t)(1), 100, 1, &r);
	dm_feed_txn(&m, DATA(1), (uint32_t)(2), 200, 2, &r);
	/* buffer 0 refilled before its doorbell: its doorbell is missing from the capture */
	dm_feed_txn(&m, DATA(0), (uint32_t)(3), 300, 3, &r);
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
	dm_feed_txn(&m, DATA(0), (uint32_t)(1), 100, 1, &r);
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
	dm_feed_txn(&m, DATA(2), (uint32_t)(12), 10, 12, &r);
	dm_feed_txn(&m, DATA(0), (uint32_t)(10), 20, 10, &r);
	dm_feed_txn(&m, DATA(1), (uint32_t)(11), 30, 11, &r);
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
		dm_feed_txn(&m, DATA(i), (uint32_t)(i), i, i, &r);
	}
	rc = dm_feed_txn(&m, DATA(DM_MAX_BUFFERS), (uint32_t)(5), 5, 5, &r);
	TAP_EQ_I(rc, -1, "address beyond DM_MAX_BUFFERS is refused");
	TAP_EQ_U(m.c.addr_overflow, 1, "and counted");
	rc = dm_feed_doorbell(&m, BELL(DM_MAX_BUFFERS - 1), 5000, &r);
	tap_ok(rc == 0 && r.kind == DM_MATCHED && r.txn_ref == 0,
	       "the first doorbell address seen has rank 0: it answers buffer 0");
}

/*
 * Capture loss of both a doorbell and one fragment of the next transaction
 * into the same buffer: the first fragment seen of that newer transaction
 * gives the waiting one up, so it is never paired with a later doorbell.
 */
static void test_newer_message_gives_up(void)
{
	struct dm_result r;

	dm_init(&m);
	dm_feed_txn(&m, DATA(0), 1, 100, 1, &r);
	dm_feed_txn(&m, DATA(1), 2, 200, 2, &r);
	/* doorbell for buffer 0 lost; txn 3 into buffer 0 loses its 2nd fragment */
	dm_feed_msg(&m, DATA(0), 3, &r);
	tap_ok(r.kind == DM_UNMATCHED && r.txn_ref == 1 && r.txn_ts == 100 && r.buffer == 0,
	       "a fragment of a newer transaction gives the waiting one up at once");
	dm_feed_msg(&m, DATA(0), 3, &r);
	tap_ok(r.kind == DM_NONE, "a second fragment of it gives up nothing more");
	dm_feed_msg(&m, DATA(1), 2, &r);
	tap_ok(r.kind == DM_NONE,
	       "a late fragment of the waiting transaction itself changes nothing");
	dm_feed_msg(&m, DATA(1), 1, &r);
	tap_ok(r.kind == DM_NONE, "an older txn_id never gives up a newer waiting transaction");
	dm_feed_doorbell(&m, BELL(0), 5000, &r);
	tap_ok(r.kind == DM_ORPHAN,
	       "buffer 0's next doorbell (txn 3 never completed) is an orphan");
	TAP_EQ_U(m.c.unmatched, 1, "1 unmatched");
	TAP_EQ_U(m.c.matched, 0, "no false latency");
	dm_feed_doorbell(&m, BELL(1), 600, &r);
	tap_ok(r.kind == DM_MATCHED && r.latency == 400, "buffer 1 still matches");
	TAP_EQ_I(dm_feed_msg(&m, DATA(3), 40, &r), -1,
		 "a fragment into an address no transaction completed into yet finds nothing");
	tap_ok(r.kind == DM_NONE, "and gives up nothing");
	/* serial comparison across the 32-bit wrap */
	dm_init(&m);
	dm_feed_txn(&m, DATA(0), 0xFFFFFFFFu, 10, 7, &r);
	dm_feed_msg(&m, DATA(0), 0, &r);
	tap_ok(r.kind == DM_UNMATCHED && r.txn_ref == 7, "txn_id 0 is newer than 0xFFFFFFFF");
}

static void test_seq_track(void)
{
	struct eng_seq *s = eng_seq_new(true);
	struct eng_seq_result r;
	uint32_t i;
	uint64_t ref = 1;
	int ok = 1;

	if (!s) {
		tap_ok(0, "seq tracker allocated");
		return;
	}
	eng_seq_feed(s, 1, ref++, &r);
	TAP_EQ_I(r.status, ENG_SEQ_FIRST, "first frame");
	/* 70000 frames in order, across the 16-bit wrap through 0 */
	for (i = 2; i < 70000; i++) {
		eng_seq_feed(s, (uint16_t)i, ref++, &r);
		ok &= r.status == ENG_SEQ_NEXT;
	}
	tap_ok(ok, "every frame in order is the next one, 65535 -> 0 -> 1 included");
	TAP_EQ_U(s->c.gaps + s->c.duplicates + s->c.late, 0, "no gap, duplicate or late frame");
	/* highest is now 69999 mod 65536 = 4463 */
	eng_seq_feed(s, 4466, ref++, &r);
	tap_ok(r.status == ENG_SEQ_GAP && r.missing == 2, "a jump of 3 is a gap of 2 frames");
	eng_seq_feed(s, 4466, ref++, &r);
	tap_ok(r.status == ENG_SEQ_DUPLICATE && r.dup_of == ref - 2,
	       "the same number again is a duplicate of it");
	eng_seq_feed(s, 4464, ref++, &r);
	TAP_EQ_I(r.status, ENG_SEQ_LATE, "a missing number arriving after is late");
	eng_seq_feed(s, 4464, ref++, &r);
	TAP_EQ_I(r.status, ENG_SEQ_DUPLICATE, "and then a duplicate");
	eng_seq_feed(s, 4000, ref++, &r);
	TAP_EQ_I(r.status, ENG_SEQ_DUPLICATE, "a number of this wrap seen before is a duplicate");
	tap_ok(eng_seq_ref(s, 4466) == ref - 5, "the ref of a frame_seq is kept for ACK coverage");
	TAP_EQ_U(s->c.gaps, 1, "1 gap");
	TAP_EQ_U(s->c.missing, 2, "2 missing");
	TAP_EQ_U(s->c.duplicates, 3, "3 duplicates");
	TAP_EQ_U(s->c.late, 1, "1 late");
	eng_seq_free(s);

	/* without refs: the same statuses, no refs */
	s = eng_seq_new(false);
	if (!s) {
		tap_ok(0, "seq tracker without refs allocated");
		return;
	}
	eng_seq_feed(s, 1, 1, &r);
	for (i = 2; i < 70000; i++) {
		eng_seq_feed(s, (uint16_t)i, i, &r);
	}
	eng_seq_feed(s, 4466, 1, &r);
	tap_ok(r.status == ENG_SEQ_GAP && r.missing == 2, "without refs: the gap");
	eng_seq_feed(s, 4466, 1, &r);
	tap_ok(r.status == ENG_SEQ_DUPLICATE && r.dup_of == 0, "without refs: a duplicate, of 0");
	eng_seq_feed(s, 4464, 1, &r);
	TAP_EQ_I(r.status, ENG_SEQ_LATE, "without refs: late");
	eng_seq_feed(s, 4000, 1, &r);
	TAP_EQ_I(r.status, ENG_SEQ_DUPLICATE, "without refs: a duplicate of this wrap");
	eng_seq_feed(s, 4465, 1, &r);
	TAP_EQ_I(r.status, ENG_SEQ_LATE, "without refs: a number passed over is forgotten");
	tap_ok(eng_seq_ref(s, 4466) == 0, "without refs: eng_seq_ref() is 0");
	eng_seq_free(s);
}

/* The codec's UDP pad rule, which latency-report and the dissector demultiplex with. */
static void test_udp_pad_rule(void)
{
	uint8_t dgr[12] = { 0x00, 0x00, 1 }, dcp[12] = { 0xF0, 0x40, 0 },
		other[12] = { 0x40, 0xF0 };
	const uint8_t *body = NULL;
	size_t len = 0;

	TAP_EQ_I(dgr_udp_demux(dgr, sizeof(dgr), &body, &len), DGR_UDP_DGRDMA, "pad 0: DG-RDMA");
	tap_ok(body == dgr + 2 && len == 10, "the frame starts after the pad");
	TAP_EQ_I(dgr_udp_demux(dcp, sizeof(dcp), &body, &len), DGR_UDP_DCP, "pad 0xF040: DCP");
	TAP_EQ_I(dgr_udp_demux(other, sizeof(other), &body, &len), DGR_UDP_UNKNOWN,
		 "pad 0x40F0 (0xF040 byte-swapped): neither");
	TAP_EQ_I(dgr_udp_demux(dgr, 1, &body, &len), -DGR_E_UDP_SHORT,
		 "1 byte: shorter than the pad");
}

static void test_msg_rules(void)
{
	struct dgr_msg msg = { 0 };

	msg.num_msgs_in_txn = 0;
	msg.data_len = 0;
	msg.flag_addr = 0xF000;
	msg.flag_value = 1;
	tap_ok(eng_is_doorbell(&msg), "flag-only with flag word 1 is a doorbell");
	msg.flag_value = 1u | (4u << 24);
	tap_ok(!eng_is_doorbell(&msg), "flag-only with a discontinuity opcode is data");
	msg.flag_value = 1u | (1u << 22);
	tap_ok(!eng_is_doorbell(&msg), "flag-only with EOF is data");
	memset(&msg, 0, sizeof(msg));
	msg.num_msgs_in_txn = 1;
	msg.msg_seq = 1;
	msg.flag_addr = 0x100000;
	msg.flag_value = 1;
	msg.data_addr = 0xFFFFFFF0u;
	msg.data_len = 16;
	TAP_EQ_I(eng_msg_check(&msg, 0, NULL), 0, "data ending exactly at 2^32 is valid");
	msg.data_len = 32;
	TAP_EQ_I(eng_msg_check(&msg, 0, NULL), -DGR_E_ADDR_RANGE,
		 "data running past 2^32 is malformed with the memory size unknown");
	msg.data_len = 256;
	TAP_EQ_I(eng_msg_check(&msg, 0, NULL), -DGR_E_ADDR_RANGE, "256 bytes past 0xFFFFFFF0 too");
	msg.data_addr = 0x1000;
	TAP_EQ_I(eng_msg_check(&msg, 0x1000, NULL), -DGR_E_ADDR_RANGE,
		 "a known memory size still applies");
}

/* The reassembly feed rule shared with the plugin (engine/reasm_feed.h). */
static unsigned int given_up_count;
static uint32_t given_up_ids[8];

static void count_given_up(const struct dgr_txn_info *t, void *ctx)
{
	(void)ctx;
	if (given_up_count < 8) {
		given_up_ids[given_up_count] = t->txn_id;
	}
	given_up_count++;
}

/* Fragment seq (1 or 2) of transaction txn's two, 64 bytes each, into buffer txn. */
static int half(struct eng_reasm *e, uint32_t txn, uint16_t seq, uint64_t ts)
{
	struct dgr_txn_info done;
	struct dgr_msg msg;

	memset(&msg, 0, sizeof(msg));
	msg.txn_id = txn;
	msg.flag_addr = DATA(txn);
	msg.flag_value = 1;
	msg.num_msgs_in_txn = 2;
	msg.msg_seq = seq;
	msg.data_addr = 128 * txn + 64u * (seq - 1u);
	msg.data_len = 64;
	return eng_reasm_add(e, &msg, ts, txn, &done);
}

static int first_half(struct eng_reasm *e, uint32_t txn, uint64_t ts)
{
	return half(e, txn, 1, ts);
}

static int second_half(struct eng_reasm *e, uint32_t txn, uint64_t ts)
{
	return half(e, txn, 2, ts);
}

/* Finished transactions are remembered: a late fragment neither restarts nor recounts one. */
static void test_reasm_finished(void)
{
	struct eng_reasm e;

	given_up_count = 0;
	TAP_EQ_I(eng_reasm_init(&e, 16, 1000, count_given_up, NULL, NULL), 0, "finished: set up");
	first_half(&e, 5, 0);
	TAP_EQ_I(second_half(&e, 5, 10), DGR_REASM_COMPLETE, "finished: txn 5 completes");
	TAP_EQ_I(first_half(&e, 5, 20), ENG_REASM_AFTER_COMPLETE,
		 "finished: a fragment of txn 5 after it completed is not fed again");
	TAP_EQ_U(dgr_reasm_outstanding(e.reasm), 0, "finished: nothing waits");
	first_half(&e, 6, 30);
	first_half(&e, 7, 2000); /* at 2000 ns txn 6 (30 ns) is older than the timeout */
	TAP_EQ_U(given_up_count, 1, "finished: txn 6 given up by age");
	TAP_EQ_I(second_half(&e, 6, 2100), ENG_REASM_AFTER_GIVEN_UP,
		 "finished: txn 6's late second half is refused, not a new transaction");
	first_half(&e, 8, 5000);
	TAP_EQ_U(given_up_count, 2, "finished: later only txn 7 is given up, not txn 6 again");
	TAP_EQ_U(given_up_ids[1], 7, "finished: the second given up is txn 7");
	eng_reasm_free(&e);

	/* the window: ids more than ENG_FINISHED_WINDOW below the newest are forgotten */
	TAP_EQ_I(eng_reasm_init(&e, 16, 0, count_given_up, NULL, NULL), 0, "window: set up");
	first_half(&e, 10, 0);
	second_half(&e, 10, 1);
	first_half(&e, 10 + ENG_FINISHED_WINDOW - 1, 2);
	second_half(&e, 10 + ENG_FINISHED_WINDOW - 1, 3);
	TAP_EQ_I(first_half(&e, 10, 4), ENG_REASM_AFTER_COMPLETE,
		 "window: txn 10 still remembered while the newest is 65535 ids above it");
	first_half(&e, 10 + ENG_FINISHED_WINDOW, 5);
	second_half(&e, 10 + ENG_FINISHED_WINDOW, 6);
	TAP_EQ_I(first_half(&e, 10, 7), DGR_REASM_PARTIAL,
		 "window: 65536 ids above it, txn 10 is forgotten and starts anew");
	TAP_EQ_I(first_half(&e, 11 + ENG_FINISHED_WINDOW, 8), DGR_REASM_PARTIAL,
		 "window: an id just above the newest finished is new");
	first_half(&e, 20, 9);
	TAP_EQ_I(second_half(&e, 20, 10), DGR_REASM_COMPLETE,
		 "window: an id below the window completes as usual");
	eng_reasm_free(&e);
}

static void test_reasm_feed(void)
{
	struct eng_reasm e;

	/* by age: checked every half timeout, a transaction older than the timeout is given up */
	given_up_count = 0;
	TAP_EQ_I(eng_reasm_init(&e, 16, 1000, count_given_up, NULL, NULL), 0, "feed: set up");
	TAP_EQ_I(first_half(&e, 1, 0), DGR_REASM_PARTIAL, "feed: txn 1 starts at 0 ns");
	TAP_EQ_I(first_half(&e, 2, 400), DGR_REASM_PARTIAL, "feed: txn 2 at 400 ns");
	TAP_EQ_U(given_up_count, 0, "feed: nothing given up before the next check (501 ns)");
	TAP_EQ_I(first_half(&e, 3, 1200), DGR_REASM_PARTIAL, "feed: txn 3 at 1200 ns");
	TAP_EQ_U(given_up_count, 1,
		 "feed: at 1200 ns txn 1 (first fragment older than 200 ns) given up");
	TAP_EQ_U(given_up_ids[0], 1, "feed: the one given up is txn 1");
	TAP_EQ_U(dgr_reasm_outstanding(e.reasm), 2, "feed: txns 2 and 3 still wait");
	eng_reasm_free(&e);

	/* by room: full, the older half (by first fragment) is given up and the new one taken */
	given_up_count = 0;
	TAP_EQ_I(eng_reasm_init(&e, 4, 0, count_given_up, NULL, NULL), 0, "feed: 4 slots, no age");
	first_half(&e, 10, 40);
	first_half(&e, 11, 10);
	first_half(&e, 12, 30);
	first_half(&e, 13, 20);
	TAP_EQ_I(first_half(&e, 14, 50), DGR_REASM_PARTIAL, "feed: a fifth one is taken");
	TAP_EQ_U(given_up_count, 2, "feed: the older half given up");
	tap_ok((given_up_ids[0] == 11 && given_up_ids[1] == 13) ||
		   (given_up_ids[0] == 13 && given_up_ids[1] == 11),
	       "feed: the two oldest by first fragment (11 at 10 ns, 13 at 20 ns), not by txn_id");
	TAP_EQ_U(dgr_reasm_outstanding(e.reasm), 3, "feed: 12, 10 and 14 wait");
	eng_reasm_free(&e);
}

/* The connection table (engine/conn_table.h): one rule for latency-report and the plugin. */
static void test_conn_table(void)
{
	static const uint8_t fpga[6] = { 2, 0, 0, 0, 1, 0x10 }, host[6] = { 2, 0, 0, 0, 0, 1 };
	static const uint8_t ip_a[4] = { 10, 0, 0, 1 }, ip6_a[16] = { 0xfd, [15] = 1 };
	struct eng_conns t;
	struct eng_endpoint f, h, f2, u4, u6, cooked_a, cooked_b;
	struct eng_addr none;
	int from, i, side, ok = 1;

	if (eng_conns_init(&t) < 0) {
		tap_ok(0, "conn table: set up");
		return;
	}
	memset(&f, 0, sizeof(f));
	eng_addr_mac(&f.addr, fpga);
	f.id = 256;
	memset(&h, 0, sizeof(h));
	eng_addr_mac(&h.addr, host);
	h.id = 1;
	f2 = f;
	f2.id = 257;
	TAP_EQ_I(eng_conn_find(&t, &f, &h, true, &from), 0, "conn table: first frame, index 0");
	/* side 0 is the smaller endpoint: the host's MAC (…00:01) sorts before the FPGA's */
	TAP_EQ_I(from, 1, "conn table: the FPGA (larger endpoint) is side 1");
	TAP_EQ_I(eng_conn_find(&t, &h, &f, false, &from), 0,
		 "conn table: the reverse direction, same connection");
	TAP_EQ_I(from, 0, "conn table: the host is side 0");
	TAP_EQ_I(eng_conn_find(&t, &f2, &h, true, &from), 1,
		 "conn table: another id, another connection");
	TAP_EQ_U(t.conn[0].msg_frames[1] * 10 + t.conn[0].msg_frames[0], 10,
		 "conn table: frames with messages counted per side (ACK-only not)");

	/* DCP: the request goes from the host to the FPGA; the data came the other way */
	TAP_EQ_I(eng_conn_for_dcp(&t, &h.addr, &f.addr, &side), 0,
		 "conn table: a DCP doorbell belongs to the first connection with data");
	TAP_EQ_I(side, 1, "conn table: ... whose data side is the DCP request's destination");
	TAP_EQ_I(eng_conn_for_dcp(&t, &f.addr, &h.addr, &side), -1,
		 "conn table: no connection whose data went from the request's source");

	/* addresses of different kinds never compare equal, ports count */
	memset(&u4, 0, sizeof(u4));
	eng_addr_ipv4(&u4.addr, ip_a, 18078);
	memset(&u6, 0, sizeof(u6));
	eng_addr_ipv6(&u6.addr, ip6_a, 18078);
	TAP_EQ_U(eng_addr_port(&u4.addr) + eng_addr_port(&u6.addr), 2 * 18078,
		 "conn table: IPv4 and IPv6 ports read back");
	eng_addr_set_port(&u6.addr, 40000);
	TAP_EQ_U(eng_addr_port(&u6.addr), 40000, "conn table: an IPv6 port set");
	TAP_EQ_I(eng_conn_find(&t, &u4, &u6, true, &from), 2,
		 "conn table: IPv4 to IPv6 endpoints, a third connection");

	/* cooked: both addresses unknown, endpoints by id */
	memset(&none, 0, sizeof(none));
	memset(&cooked_a, 0, sizeof(cooked_a));
	cooked_a.id = 256;
	memset(&cooked_b, 0, sizeof(cooked_b));
	cooked_b.id = 1;
	TAP_EQ_I(eng_conn_find(&t, &cooked_a, &cooked_b, true, &from), 3,
		 "conn table: a cooked capture's endpoints differ by id");
	TAP_EQ_I(eng_conn_for_dcp(&t, &none, &none, &side), 3,
		 "conn table: cooked DCP doorbell: the first connection with unknown addresses");

	/* the limit: ENG_MAX_CONNS connections, frames of more counted and not analysed */
	for (i = (int)t.n; i < ENG_MAX_CONNS; i++) {
		cooked_a.id = (uint16_t)(1000 + i);
		ok &= eng_conn_find(&t, &cooked_a, &cooked_b, false, &from) == i;
	}
	tap_ok(ok, "conn table: indexes in order of appearance up to the limit");
	cooked_a.id = 60000;
	TAP_EQ_I(eng_conn_find(&t, &cooked_a, &cooked_b, false, &from), -1,
		 "conn table: one connection more is refused");
	TAP_EQ_U(t.overflow, 1, "conn table: its frame counted");
	cooked_a.id = 256;
	TAP_EQ_I(eng_conn_find(&t, &cooked_a, &cooked_b, false, &from), 3,
		 "conn table: known connections still found when full");
	eng_conns_free(&t);
}

int main(void)
{
	test_in_order();
	test_outstanding();
	test_unmatched_and_orphan();
	test_rank_by_value();
	test_overflow();
	test_newer_message_gives_up();
	test_seq_track();
	test_msg_rules();
	test_udp_pad_rule();
	test_reasm_feed();
	test_reasm_finished();
	test_conn_table();
	return tap_done();
}
