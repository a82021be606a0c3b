/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Duplicate-frame filter, ACK runs and the retransmission queue (stack/src/acktrack.c). */
#include <string.h>

#include "../tap.h"
#include "acktrack.h"

/* A frame accepted whole: checked, then recorded when new (as the receive path does). */
static enum dgr_seq_verdict accept(struct dgr_dupfilter *d, uint16_t seq)
{
	enum dgr_seq_verdict v = dgr_dupfilter_check(d, seq);

	if (v == DGR_SEQ_NEW) {
		dgr_dupfilter_record(d, seq);
	}
	return v;
}

static void test_dupfilter(void)
{
	struct dgr_dupfilter d;
	int dups = 0;

	dgr_dupfilter_init(&d);
	TAP_EQ_I(accept(&d, 1), DGR_SEQ_NEW, "first frame is new");
	TAP_EQ_I(accept(&d, 1), DGR_SEQ_DUP, "the same seq again is a duplicate");
	TAP_EQ_I(accept(&d, 3), DGR_SEQ_NEW, "a jump ahead is new");
	TAP_EQ_U(d.missing, 1, "frame 2 is missing");
	TAP_EQ_I(accept(&d, 2), DGR_SEQ_NEW, "a late frame inside the window is new");
	TAP_EQ_U(d.missing, 0, "and no longer missing");
	TAP_EQ_I(accept(&d, 2), DGR_SEQ_DUP, "and a duplicate the second time");
	TAP_EQ_I(dgr_dupfilter_check(&d, 4), DGR_SEQ_NEW, "4 would be new");
	TAP_EQ_I(dgr_dupfilter_check(&d, 4), DGR_SEQ_NEW,
		 "and still is: a check records nothing (a frame refused later keeps no number)");
	TAP_EQ_I(accept(&d, (uint16_t)(3 + DGR_SEQ_WINDOW)), DGR_SEQ_AHEAD,
		 "a frame a whole window ahead is refused");
	TAP_EQ_I(accept(&d, 4), DGR_SEQ_NEW, "and the stream goes on after it");
	TAP_EQ_I(accept(&d, (uint16_t)(4 + 20000)), DGR_SEQ_AHEAD, "20000 ahead: refused");
	TAP_EQ_I(accept(&d, 5), DGR_SEQ_NEW, "the real frame 5 is still new");
	for (uint16_t k = 0; k < DGR_SEQ_RESYNC - 1; k++) {
		dups += accept(&d, (uint16_t)(30000 + k)) != DGR_SEQ_AHEAD;
	}
	TAP_EQ_I(dups, 0, "7 consecutive far-ahead frames are refused");
	TAP_EQ_I(accept(&d, (uint16_t)(30000 + DGR_SEQ_RESYNC - 1)), DGR_SEQ_NEW,
		 "the 8th moves the window (a real jump of the stream)");
	TAP_EQ_I(accept(&d, 5), DGR_SEQ_OLD, "a seq older than the window is old");
	/* a stream's first frames lost: they are missing, as any gap */
	dgr_dupfilter_init(&d);
	TAP_EQ_I(accept(&d, 3), DGR_SEQ_NEW, "first frame seen is 3");
	TAP_EQ_U(d.missing, 2, "frames 1 and 2 are missing");
	TAP_EQ_I(accept(&d, 1), DGR_SEQ_NEW, "frame 1 arriving late is new");
	TAP_EQ_I(accept(&d, 0), DGR_SEQ_DUP, "frame 0 precedes a stream numbered from 1");
	TAP_EQ_U(d.missing, 1, "frame 2 still missing");
	/* a peer that numbered frames before we listened: no gap before its first */
	dgr_dupfilter_init(&d);
	TAP_EQ_I(accept(&d, 5000), DGR_SEQ_NEW, "first frame seen is 5000");
	TAP_EQ_U(d.missing, 0, "nothing missing before it");
	/* wrap at 16 bits: 65534, 65535, 0, 1 are all new, then all duplicates */
	dgr_dupfilter_init(&d);
	dups = 0;
	for (uint32_t s = 65534; s < 65538; s++) {
		dups += accept(&d, (uint16_t)s) != DGR_SEQ_NEW;
	}
	TAP_EQ_I(dups, 0, "seqs across the 16-bit wrap are new");
	for (uint32_t s = 65534; s < 65538; s++) {
		dups += accept(&d, (uint16_t)s) == DGR_SEQ_DUP;
	}
	TAP_EQ_I(dups, 4, "and duplicates when repeated");
	/* a stream of 200000 frames with every 10th repeated: exactly 20000 duplicates */
	dgr_dupfilter_init(&d);
	dups = 0;
	for (uint32_t s = 1; s <= 200000; s++) {
		dups += accept(&d, (uint16_t)s) != DGR_SEQ_NEW;
		if (s % 10 == 0) {
			dups += accept(&d, (uint16_t)(s - 5)) == DGR_SEQ_DUP;
		}
	}
	TAP_EQ_I(dups, 20000, "200000 frames, 20000 repeats: 20000 duplicates, no false ones");
	TAP_EQ_U(d.missing, 0, "and none missing");
}

/* The sender's window: every frame numbered, none beyond the peer's ACK window. */
static void test_sendwin(void)
{
	struct dgr_sendwin w;
	uint16_t seq = 0;
	unsigned int sent = 0;

	dgr_sendwin_init(&w);
	tap_ok(dgr_sendwin_take(&w, 32, &seq) && seq == 1, "sendwin: the first frame is 1");
	while (dgr_sendwin_take(&w, 32, &seq)) {
		sent++;
	}
	TAP_EQ_U(sent, 31, "sendwin: 32 frames in flight at most (the FPGA accepts base..base+31)");
	TAP_EQ_U(dgr_sendwin_unacked(&w), 32, "sendwin: 32 unacknowledged");
	TAP_EQ_U(dgr_sendwin_ack(&w, 13), 12, "sendwin: a run ending at 13 acknowledges 1..12");
	TAP_EQ_U(dgr_sendwin_ack(&w, 9), 0, "sendwin: an older run changes nothing");
	TAP_EQ_U(dgr_sendwin_ack(&w, 40), 0, "sendwin: a run past what was sent is bogus");
	TAP_EQ_U(dgr_sendwin_ack(&w, 21), 8,
		 "sendwin: runs are cumulative: a lost ACK is covered by the next");
	tap_ok(dgr_sendwin_take(&w, 32, &seq) && seq == 33, "sendwin: then frame 33 goes");
	dgr_sendwin_init(&w);
	w.next = 65530;
	w.oldest = 65530;
	for (unsigned int k = 0; k < 10; k++) {
		dgr_sendwin_take(&w, 0, &seq);
	}
	TAP_EQ_U(seq, 3, "sendwin: numbers wrap through 0 (65530..65535, 0..3)");
	TAP_EQ_U(dgr_sendwin_ack(&w, 1), 7, "sendwin: an ACK across the wrap");
}

/* ACKs as the FPGA's tracker makes them: cumulative runs from base, holes never skipped. */
static void test_ackq(void)
{
	struct dgr_ackq a;
	uint16_t start = 0;
	unsigned int n;

	dgr_ackq_init(&a);
	TAP_EQ_U(dgr_ackq_take_run(&a, &start), 0, "empty queue: no run");
	for (uint16_t s = 1; s < 6; s++) {
		dgr_ackq_push(&a, s, true);
	}
	dgr_ackq_push(&a, 7, true);
	dgr_ackq_push(&a, 8, false);
	tap_ok(dgr_ackq_due(&a), "frames with messages: an ACK is due");
	n = dgr_ackq_take_run(&a, &start);
	tap_ok(n == 5 && start == 1, "run 1..5 (got start %u count %u)", start, n);
	TAP_EQ_U(dgr_ackq_take_run(&a, &start), 0, "6 is missing: 7..8 wait behind the hole");
	tap_ok(!dgr_ackq_due(&a), "and no ACK is due while the hole stays");
	dgr_ackq_push(&a, 6, false);
	tap_ok(dgr_ackq_due(&a), "the hole filled (by an ACK-only frame): 7 has messages: due");
	n = dgr_ackq_take_run(&a, &start);
	tap_ok(n == 3 && start == 6, "then run 6..8 (got start %u count %u)", start, n);
	dgr_ackq_push(&a, 9, false);
	TAP_EQ_U(dgr_ackq_pending(&a), 1, "an ACK-only frame is acknowledgeable");
	tap_ok(!dgr_ackq_due(&a), "but is never the reason for an ACK-only frame of ours");
	dgr_ackq_take_run(&a, &start);
	dgr_ackq_push(&a, 3, true);
	tap_ok(dgr_ackq_due(&a), "a frame acknowledged before came again: an ACK is due");
	n = dgr_ackq_take_run(&a, &start);
	tap_ok(n == 1 && start == 9, "it says again that everything before 10 arrived (%u at %u)",
	       n, start);
	/* the stream's first frames lost: the run waits for them, as the FPGA's base 1 does */
	dgr_ackq_init(&a);
	dgr_ackq_push(&a, 3, true);
	dgr_ackq_push(&a, 4, true);
	TAP_EQ_U(dgr_ackq_take_run(&a, &start), 0,
		 "first frame seen is 3: nothing acknowledged while 1 and 2 are missing");
	dgr_ackq_push(&a, 1, true);
	dgr_ackq_push(&a, 2, true);
	n = dgr_ackq_take_run(&a, &start);
	tap_ok(n == 4 && start == 1, "1 and 2 resent: run 1..4 (got start %u count %u)", start, n);
	/* a peer numbering frames before we listened: its first frame far from 1 starts base */
	dgr_ackq_init(&a);
	for (uint32_t s = 65530; s < 65530 + 300; s++) {
		dgr_ackq_push(&a, (uint16_t)s, true);
	}
	n = dgr_ackq_take_run(&a, &start);
	tap_ok(n == 255 && start == 65530, "runs stop at 255 and cross the wrap (got %u at %u)", n,
	       start);
	n = dgr_ackq_take_run(&a, &start);
	tap_ok(n == 45 && start == (uint16_t)(65530 + 255), "the rest follows (got %u at %u)", n,
	       start);
	for (unsigned int i = 0; i < DGR_ACKQ_SIZE + 7; i++) {
		dgr_ackq_push(&a, (uint16_t)(65530 + 300 + i), true);
	}
	TAP_EQ_U(a.overflow, 7, "frames 1024 or more past base are not recorded, but counted");
}

/*
 * Issue 29: the exact sequence that stalled veth.sh's "1% loss with
 * retransmission" for ever. The sender's frame 1 (the first fragment of
 * buffer 0) is lost; frames 2..4 arrive. The receiver acknowledged the run
 * from the first frame it saw (2..4), which the sender reads as cumulative:
 * everything before 5, frame 1 included, so frame 1 was never sent again,
 * buffer 0 never completed and no doorbell ever came back. The sender's and
 * the receiver's state are driven here as tx.c and rx.c drive them.
 */
static void test_first_frame_lost(void)
{
	struct dgr_sendwin w;
	struct dgr_rtq q;
	struct dgr_dupfilter d;
	struct dgr_ackq a;
	struct dgr_rtq_slot *due[8];
	unsigned int giveups = 0;
	unsigned int n, newly;
	uint16_t seq = 0, start = 0;

	dgr_sendwin_init(&w);
	dgr_rtq_init(&q, 16, 16);
	dgr_dupfilter_init(&d);
	dgr_ackq_init(&a);
	for (unsigned int k = 0; k < 4; k++) {
		dgr_rtq_reserve(&q);
		dgr_sendwin_take(&w, 0, &seq);
		dgr_rtq_commit(&q, seq, 16, 1, 0);
		if (seq == 1) {
			continue; /* lost on the wire */
		}
		accept(&d, seq);
		dgr_ackq_push(&a, seq, true);
	}
	TAP_EQ_U(d.missing, 1, "first frame lost: the receiver counts frame 1 missing");
	n = dgr_ackq_take_run(&a, &start);
	TAP_EQ_U(n, 0, "and acknowledges nothing: an ACK of 2..4 would say 1 arrived too");
	/* the sender's retransmission timer: only frame 1 unacknowledged matters */
	n = dgr_rtq_due(&q, 1000, 500, 5, due, 8, &giveups);
	tap_ok(n == 4 && due[0]->seq == 1, "after the timeout frame 1 is resent first (%u due)", n);
	TAP_EQ_I(accept(&d, 1), DGR_SEQ_NEW, "the receiver takes the resent frame 1");
	dgr_ackq_push(&a, 1, true);
	for (uint16_t s = 2; s <= 4; s++) {
		TAP_EQ_I(accept(&d, s), DGR_SEQ_DUP, "resent frame %u is a duplicate", s);
	}
	TAP_EQ_U(d.missing, 0, "nothing missing");
	n = dgr_ackq_take_run(&a, &start);
	tap_ok(n == 4 && start == 1, "the receiver acknowledges 1..4 (got start %u count %u)",
	       start, n);
	newly = dgr_sendwin_ack(&w, (uint16_t)(start + n));
	TAP_EQ_U(newly, 4, "the sender's window: 4 frames acknowledged");
	TAP_EQ_U(dgr_rtq_ack(&q, (uint16_t)(start + n - newly), newly), 4,
		 "and its retransmission queue releases all 4");
	TAP_EQ_U(dgr_rtq_outstanding(&q), 0, "nothing left to resend");
	dgr_rtq_free(&q);
}

static void test_rtq(void)
{
	struct dgr_rtq q;
	struct dgr_rtq_slot *due[16];
	unsigned int giveups = 0;
	unsigned int n;

	TAP_EQ_I(dgr_rtq_init(&q, 4, 100), 0, "retransmit queue of 4 frames");
	for (uint16_t s = 1; s <= 4; s++) {
		uint8_t *b = dgr_rtq_reserve(&q);

		tap_ok(b != NULL, "slot for frame %u", s);
		memset(b, s, 10);
		dgr_rtq_commit(&q, s, 10, 1, 1000);
	}
	tap_ok(dgr_rtq_reserve(&q) == NULL, "full when 4 frames are unacknowledged");
	TAP_EQ_U(dgr_rtq_ack(&q, 2, 2), 2, "ACK of 2..3 acknowledges two frames");
	TAP_EQ_U(dgr_rtq_ack(&q, 2, 2), 0, "the same ACK again acknowledges none");
	TAP_EQ_U(dgr_rtq_outstanding(&q), 2, "frames 1 and 4 outstanding");
	tap_ok(dgr_rtq_reserve(&q) == NULL, "still full: frame 1 holds the head");
	n = dgr_rtq_due(&q, 1000 + 499, 500, 2, due, 16, &giveups);
	TAP_EQ_U(n, 0, "nothing due before the timeout");
	n = dgr_rtq_due(&q, 1500, 500, 2, due, 16, &giveups);
	tap_ok(n == 2 && due[0]->seq == 1 && due[1]->seq == 4 && due[0]->buf[0] == 1 &&
		   due[1]->buf[9] == 4,
	       "frames 1 and 4 due at the timeout, with their bytes");
	TAP_EQ_U(due[0]->attempts, 1, "first retransmission counted");
	TAP_EQ_U(dgr_rtq_ack(&q, 1, 1), 1, "ACK of 1 after the resend");
	tap_ok(dgr_rtq_reserve(&q) != NULL, "three slots free again");
	n = dgr_rtq_due(&q, 2000, 500, 2, due, 16, &giveups);
	tap_ok(n == 1 && due[0]->seq == 4 && due[0]->attempts == 2, "frame 4 resent a second time");
	n = dgr_rtq_due(&q, 2500, 500, 2, due, 16, &giveups);
	tap_ok(n == 0 && giveups == 1, "after 2 attempts frame 4 is given up (%u)", giveups);
	TAP_EQ_U(dgr_rtq_outstanding(&q), 0, "nothing outstanding");
	/* seqs wrapping: 65535, 0, 1 */
	dgr_rtq_free(&q);
	dgr_rtq_init(&q, 8, 16);
	for (uint32_t s = 65534; s < 65538; s++) {
		dgr_rtq_reserve(&q);
		dgr_rtq_commit(&q, (uint16_t)s, 16, 1, 0);
	}
	TAP_EQ_U(dgr_rtq_ack(&q, 65535, 3), 3, "an ACK run across the wrap acknowledges 3");
	TAP_EQ_U(dgr_rtq_outstanding(&q), 1, "only 65534 left");
	dgr_rtq_release_all(&q);
	TAP_EQ_U(dgr_rtq_outstanding(&q), 0, "release_all empties the queue");
	dgr_rtq_free(&q);
}

int main(void)
{
	test_dupfilter();
	test_sendwin();
	test_ackq();
	test_first_frame_lost();
	test_rtq();
	return tap_done();
}
