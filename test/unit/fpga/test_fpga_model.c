// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the emulated workers as pure logic (fpga/model.h): the
 * output port, the ADC's drops, counters and discontinuities (and the
 * vicious cycle they cause), the DAC's underruns, perftest and the ACK
 * tracker. Virtual time only: every value asserted is exact.
 */
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "../../../fpga/model.h"

#define S   64u /* 16 samples per buffer */
#define SPB (S / DGR_SAMPLE_BYTES)

/* What a host would see: transactions sent, checked against the ramp. */
struct sink {
	uint64_t data_txns, disc_txns, eof_txns, samples, gaps, gap_samples;
	uint64_t expect;
	bool have;
	uint64_t ramp_errors; /* a buffer whose words are not consecutive */
	uint64_t data_after_disc;
	unsigned int in_flight[FPGA_MAX_HOST_BUFFERS];
	unsigned int nflight;
	uint64_t wrong_addr;
	uint64_t samples_at_stop, disc_at_stop, data_at_stop;
};

/* Sends every sendable transaction, as the TX path would. */
static void drain(struct fpga_producer *p, struct sink *k)
{
	const struct fpga_slot *s;
	struct dgr_txn t;
	unsigned int hb;
	uint64_t idx = p->txns_committed;

	while (fpga_producer_peek(p, 1, &t, &s, &hb)) {
		struct dgr_flag_word fw;

		dgr_flag_decode(t.flag_value, &fw);
		if (t.data_addr != hb * S || t.flag_addr != p->nhost * S + 4 * hb ||
		    hb != idx % p->nhost) {
			k->wrong_addr++;
		}
		if (fw.opcode == DGR_OPCODE_DISCONTINUITY) {
			k->disc_txns++;
		} else {
			for (uint32_t i = 0; i < t.len / 4; i++) {
				uint32_t v = dgr_get_le32(t.data + 4 * i);

				if (i == 0 && k->have && v != (uint32_t)k->expect) {
					k->gaps++;
					k->gap_samples += (uint32_t)(v - (uint32_t)k->expect);
				}
				if (i > 0 && v != (uint32_t)k->expect) {
					k->ramp_errors++;
				}
				k->have = true;
				k->expect = (uint64_t)v + 1;
			}
			k->samples += t.len / 4;
			if (t.len > 0 && k->disc_txns > 0) {
				k->data_after_disc++;
			}
			k->data_txns++;
		}
		if (fw.eof) {
			k->eof_txns++;
		}
		k->in_flight[(k->nflight++) % FPGA_MAX_HOST_BUFFERS] = hb;
		fpga_producer_sent(p);
		idx++;
	}
}

static void test_producer(void)
{
	struct fpga_producer p;
	const struct fpga_slot *s;
	struct dgr_txn t;
	unsigned int hb;

	TAP_EQ_I(fpga_producer_init(&p, S, 4, 2, NULL), 0, "producer: init 4 local, 2 host");
	TAP_EQ_U(fpga_producer_free_local(&p), 4, "producer: 4 free local buffers");
	tap_ok(!fpga_producer_peek(&p, 1, &t, &s, &hb), "producer: nothing to send at start");
	tap_ok(fpga_producer_begin(&p) == p.mem, "producer: first buffer at local offset 0");
	TAP_EQ_I(fpga_producer_commit(&p, S, 0, false, 0), 0, "producer: commit");
	tap_ok(fpga_producer_peek(&p, 7, &t, &s, &hb), "producer: a complete buffer can go");
	TAP_EQ_U(t.data_addr, 0, "producer: host buffer 0 at data_addr 0");
	TAP_EQ_U(t.flag_addr, 2 * S, "producer: host flag 0 at H*S");
	TAP_EQ_U(t.flag_value, dgr_flag_encode(S, false, false, 0), "producer: flag word");
	TAP_EQ_U(t.txn_id, 7, "producer: txn_id from the caller");
	fpga_producer_sent(&p);
	fpga_producer_commit(&p, S, 0, false, 16);
	fpga_producer_peek(&p, 8, &t, &s, &hb);
	TAP_EQ_U(t.data_addr, S, "producer: second transaction into host buffer 1");
	TAP_EQ_U(t.flag_addr, 2 * S + 4, "producer: host flag 1 at H*S+4");
	fpga_producer_sent(&p);
	fpga_producer_commit(&p, S, 0, false, 32);
	tap_ok(!fpga_producer_peek(&p, 9, &t, &s, &hb), "producer: no host buffer free: waits");
	TAP_EQ_I(fpga_producer_doorbell(&p, 0), 0, "producer: doorbell for buffer 0 in order");
	tap_ok(fpga_producer_peek(&p, 9, &t, &s, &hb) && hb == 0,
	       "producer: third transaction wraps to host buffer 0");
	fpga_producer_sent(&p);
	TAP_EQ_I(fpga_producer_doorbell(&p, 0), 1, "producer: doorbell naming 0 when 1 expected");
	TAP_EQ_U(p.doorbells_out_of_order, 1, "producer: out-of-order doorbell counted");
	TAP_EQ_I(fpga_producer_doorbell(&p, 0), 0, "producer: next doorbell in order again");
	TAP_EQ_I(fpga_producer_doorbell(&p, 1), -DGR_E_STATE,
		 "producer: doorbell with nothing in flight refused");
	TAP_EQ_U(p.doorbells_unexpected, 1, "producer: unexpected doorbell counted");
	TAP_EQ_U(p.doorbells, 3, "producer: 3 doorbells accepted");
	fpga_producer_free(&p);
}

static void test_adc_ramp(void)
{
	struct fpga_producer p;
	struct fpga_adc a;
	struct sink k;

	memset(&k, 0, sizeof(k));
	fpga_producer_init(&p, S, 4, 8, NULL);
	fpga_adc_init(&a, 1e6, 1000, true);
	fpga_adc_produce(&a, &p, 40, true);
	TAP_EQ_U(p.complete, 2, "adc: 40 samples fill 2 buffers of 16");
	TAP_EQ_U(p.fill_bytes, 8 * 4, "adc: 8 samples in the third");
	TAP_EQ_U(dgr_get_le32(p.mem + 16 * 4), 16, "adc: sample 16 carries value 16");
	drain(&p, &k);
	TAP_EQ_U(k.samples, 32, "adc: 32 samples sent");
	TAP_EQ_U(k.ramp_errors + k.gaps, 0, "adc: the ramp is complete");
	fpga_adc_stop(&a, &p);
	drain(&p, &k);
	TAP_EQ_U(k.eof_txns, 1, "adc: stop sends the partial buffer with EOF");
	TAP_EQ_U(k.samples, 40, "adc: the partial buffer carries the last 8 samples");
	TAP_EQ_U(a.next_sample, 40, "adc: samples_produced 40");
	TAP_EQ_U(fpga_adc_sample_ns(&a, 40), 1000 + 40000, "adc: sample 40 at start + 40 us");
	TAP_EQ_U(k.wrong_addr, 0, "adc: every transaction at its host buffer's addresses");
	fpga_producer_free(&p);
}

/* Back pressure: 2 local + 1 host buffer, no doorbell until told. */
static void test_adc_drops(bool rdl)
{
	struct fpga_producer p;
	struct fpga_adc a;
	struct sink k;
	const char *m = rdl ? "rdl=true" : "rdl=false";

	memset(&k, 0, sizeof(k));
	fpga_producer_init(&p, S, 2, 1, NULL);
	fpga_adc_init(&a, 1e9, 0, rdl);
	/* buffer 0 goes to the host; buffers 1 and 2 fill the local memory */
	fpga_adc_produce(&a, &p, SPB, true);
	drain(&p, &k);
	fpga_adc_produce(&a, &p, 2 * SPB, true);
	drain(&p, &k);
	TAP_EQ_U(a.dropping, 0, "%s: not dropping while buffers last", m);
	fpga_adc_produce(&a, &p, 100, true);
	tap_ok(a.dropping, "%s: dropping once every buffer is busy", m);
	TAP_EQ_U(a.num_dropped_samps, 0, "%s: an open drop period is not counted yet", m);
	TAP_EQ_U(fpga_adc_open_drop(&a), 100, "%s: 100 samples in the open period", m);
	/* the host frees its buffer: one local buffer goes out and frees */
	fpga_producer_doorbell(&p, 0);
	drain(&p, &k);
	fpga_adc_produce(&a, &p, 5, true);
	TAP_EQ_U(a.num_dropped_samps, 1, "%s: one drop period counted when ready returns", m);
	TAP_EQ_U(a.dropped_samples, 100, "%s: dropped_samples 100", m);
	TAP_EQ_U(a.first_drop_sample, 3 * SPB, "%s: first dropped sample is 48", m);
	TAP_EQ_U(a.first_drop_ns, 3 * SPB, "%s: its timestamp (1 ns per sample)", m);
	TAP_EQ_U(a.last_drop_sample, 3 * SPB + 99, "%s: last dropped sample is 147", m);
	if (rdl) {
		TAP_EQ_U(a.discontinuities, 1, "%s: a discontinuity took the freed buffer", m);
		tap_ok(a.dropping, "%s: so the next samples drop again (the vicious cycle)", m);
		TAP_EQ_U(a.drop_periods, 1, "%s: a second period has begun", m);
		TAP_EQ_U(fpga_adc_open_drop(&a), 5, "%s: with the 5 samples after the first", m);
	} else {
		TAP_EQ_U(a.discontinuities, 0, "%s: no discontinuity", m);
		tap_ok(!a.dropping, "%s: samples flow into the freed buffer", m);
		TAP_EQ_U(p.fill_bytes, 5 * 4, "%s: 5 samples in it", m);
		TAP_EQ_U(dgr_get_le32(p.mem + (size_t)p.fill_idx * S), 3 * SPB + 100,
			 "%s: the first kept sample carries 148", m);
	}
	fpga_producer_free(&p);
}

static void test_adc_saturation_and_ready(void)
{
	struct fpga_producer p;
	struct fpga_adc a;

	fpga_producer_init(&p, S, 2, 1, NULL);
	fpga_adc_init(&a, 1e6, 0, false);
	fpga_adc_produce(&a, &p, 1000, false);
	TAP_EQ_U(a.next_sample, 1000, "ready: samples before the first ready are produced");
	fpga_adc_produce(&a, &p, 4, true);
	TAP_EQ_U(a.dropped_before_ready, 1000, "ready: 1000 dropped before the first ready");
	TAP_EQ_U(a.dropped_samples, 0, "ready: not in dropped_samples (as the instrumented HDL)");
	TAP_EQ_U(a.num_dropped_samps, 0, "ready: not a drop period");
	TAP_EQ_U(dgr_get_le32(p.mem), 1000, "ready: the first sample kept carries 1000");
	fpga_producer_free(&p);

	fpga_producer_init(&p, S, 2, 1, NULL);
	fpga_adc_init(&a, 1e6, 0, false);
	a.num_dropped_samps = UINT32_MAX - 1;
	for (int i = 0; i < 3; i++) {
		struct sink k;

		memset(&k, 0, sizeof(k));
		fpga_adc_produce(&a, &p, 4 * SPB, true); /* fills, sends nothing, drops */
		drain(&p, &k);
		while (fpga_producer_in_flight(&p) > 0) {
			fpga_producer_doorbell(&p, p.expect_doorbell);
			drain(&p, &k);
		}
		fpga_adc_produce(&a, &p, 1, true);
	}
	TAP_EQ_U(a.num_dropped_samps, UINT32_MAX, "saturation: num_dropped_samps stops at 2^32-1");
	TAP_EQ_U(a.drop_periods, 3, "saturation: drop_periods keeps counting");
	fpga_producer_free(&p);
}

/*
 * The guide's vicious cycle: a consumer at half the ADC's rate. With
 * report_data_loss every freed buffer goes to a discontinuity once drops have
 * begun; without it every freed buffer carries samples.
 */
static void vicious(bool rdl, struct sink *k, struct fpga_adc *a)
{
	struct fpga_producer p;

	memset(k, 0, sizeof(*k));
	fpga_producer_init(&p, S, 2, 4, NULL);
	fpga_adc_init(a, 1e6, 0, rdl);
	for (unsigned int tick = 1; tick <= 800; tick++) {
		fpga_adc_produce(a, &p, SPB / 4, true); /* a buffer every 4 ticks */
		drain(&p, k);
		if (tick % 8 == 0 && fpga_producer_in_flight(&p) > 0) { /* one every 8 */
			fpga_producer_doorbell(&p, p.expect_doorbell);
			drain(&p, k);
		}
	}
	k->samples_at_stop = k->samples;
	k->disc_at_stop = k->disc_txns;
	k->data_at_stop = k->data_txns;
	/* stop, then a fast host takes everything the FPGA still holds */
	fpga_adc_stop(a, &p);
	while (fpga_producer_in_flight(&p) > 0 || p.complete > 0 || a->eof_pending) {
		if (fpga_producer_in_flight(&p) > 0) {
			fpga_producer_doorbell(&p, p.expect_doorbell);
		}
		fpga_adc_flush_eof(a, &p);
		drain(&p, k);
	}
	fpga_producer_free(&p);
}

static void test_vicious_cycle(void)
{
	struct sink on, off;
	struct fpga_adc a_on, a_off;

	vicious(true, &on, &a_on);
	vicious(false, &off, &a_off);
	TAP_EQ_U(on.data_at_stop + on.disc_at_stop, off.data_at_stop + off.disc_at_stop,
		 "vicious: both runs send one transaction per doorbell (+4 at start)");
	TAP_EQ_U(off.data_at_stop + off.disc_at_stop, 100 + 4, "vicious: 104 transactions");
	TAP_EQ_U(off.disc_txns, 0, "vicious: rdl=false sends no discontinuity");
	TAP_EQ_U(on.data_after_disc, 0,
		 "vicious: rdl=true: after the first discontinuity no sample gets through");
	tap_ok(on.disc_at_stop > 90,
	       "vicious: rdl=true: %llu of 104 transactions are discontinuities",
	       (unsigned long long)on.disc_at_stop);
	TAP_EQ_U(off.samples_at_stop, 104 * SPB, "vicious: rdl=false delivers 104 full buffers");
	tap_ok(on.samples_at_stop * 5 < off.samples_at_stop,
	       "vicious: rdl=true delivers %llu samples, rdl=false %llu (over five times more)",
	       (unsigned long long)on.samples_at_stop, (unsigned long long)off.samples_at_stop);
	/* every sample produced is delivered, dropped (counted) or in the open period at stop */
	TAP_EQ_U(on.samples + a_on.dropped_samples + fpga_adc_open_drop(&a_on), a_on.next_sample,
		 "vicious: rdl=true: delivered + dropped_samples + open period = produced");
	TAP_EQ_U(off.samples + a_off.dropped_samples + fpga_adc_open_drop(&a_off),
		 a_off.next_sample,
		 "vicious: rdl=false: delivered + dropped_samples + open period = produced");
	TAP_EQ_U(off.gap_samples, a_off.dropped_samples,
		 "vicious: rdl=false: the ramp's gaps equal dropped_samples");
	TAP_EQ_U(off.gaps, a_off.num_dropped_samps,
		 "vicious: rdl=false: the ramp's gap count equals num_dropped_samps");
	/* the host sees no sample after the first loss: only the discontinuities tell it */
	TAP_EQ_U(on.gap_samples, 0, "vicious: rdl=true: no gap is visible in the ramp");
	TAP_EQ_U(on.samples, on.expect,
		 "vicious: rdl=true: the samples delivered are exactly 0..last, then nothing");
	TAP_EQ_U(on.ramp_errors + off.ramp_errors, 0,
		 "vicious: buffers are internally consecutive");
	TAP_EQ_U(on.eof_txns + off.eof_txns, 2, "vicious: each run ends with one EOF");
	TAP_EQ_U(on.wrong_addr + off.wrong_addr, 0, "vicious: every transaction at its addresses");
}

/* A jitter: the host stalls, then catches up; the cycle breaks on its own. */
static void test_stall_recovers(void)
{
	struct fpga_producer p;
	struct fpga_adc a;
	struct sink k;

	memset(&k, 0, sizeof(k));
	fpga_producer_init(&p, S, 2, 4, NULL);
	fpga_adc_init(&a, 1e6, 0, true);
	for (unsigned int tick = 1; tick <= 400; tick++) {
		fpga_adc_produce(&a, &p, SPB / 4, true);
		drain(&p, &k);
		if (tick < 100 || tick >= 200) {
			while (fpga_producer_in_flight(&p) > 0) {
				fpga_producer_doorbell(&p, p.expect_doorbell);
				drain(&p, &k);
			}
		}
	}
	TAP_EQ_U(a.num_dropped_samps, 1, "stall: one drop period");
	TAP_EQ_U(a.discontinuities, 1, "stall: one discontinuity");
	TAP_EQ_U(k.disc_txns, 1, "stall: sent");
	TAP_EQ_U(k.gaps, 1, "stall: the host sees one gap");
	TAP_EQ_U(k.gap_samples, a.dropped_samples, "stall: of exactly dropped_samples samples");
	/*
	 * Stalled after tick 99 (396 samples, buffer 24 three quarters full): buffer
	 * 24 and 5 more (4 host + 2 local in all) hold samples up to 480.
	 */
	TAP_EQ_U(a.first_drop_sample, 24 * SPB + 6 * SPB,
		 "stall: drops begin when the slack is gone");
	/* the host releases at the end of tick 200 (sample 800): the period ends at tick 201 */
	TAP_EQ_U(a.dropped_samples, 800 - 480, "stall: and end when the host returns");
	fpga_producer_free(&p);
}

static unsigned int released[64], nreleased;

static void on_release(void *ctx, unsigned int b)
{
	(void)ctx;
	released[nreleased++ % 64] = b;
}

static void fill(struct fpga_consumer *c, unsigned int j, uint32_t first, uint32_t bytes, bool eof)
{
	for (uint32_t i = 0; i < bytes / 4; i++) {
		dgr_put_le32(c->mem + (size_t)j * S + 4 * i, first + i);
	}
	fpga_consumer_complete(c, j * S, 2 * S + 4 * j, dgr_flag_encode(bytes, eof, false, 0));
}

static void test_dac(void)
{
	struct fpga_consumer c;
	struct fpga_dac d;

	nreleased = 0;
	fpga_consumer_init(&c, S, 2, 4, NULL);
	fpga_dac_init(&d, true);
	fpga_dac_consume(&d, &c, 100, on_release, NULL);
	TAP_EQ_U(d.num_underruns, 0, "dac: nothing counted before the first data");
	TAP_EQ_I(fpga_consumer_complete(&c, 0, 2 * S + 8, 1), -DGR_E_ADDR_RANGE,
		 "dac: a flag beyond the 2 buffers is refused");
	fill(&c, 0, 0, S, false);
	fpga_dac_consume(&d, &c, 10, on_release, NULL);
	TAP_EQ_U(d.samples_consumed, 10, "dac: 10 samples consumed");
	TAP_EQ_U(nreleased, 0, "dac: buffer 0 not yet released");
	fpga_dac_consume(&d, &c, 10, on_release, NULL);
	TAP_EQ_U(nreleased, 1, "dac: buffer 0 released when consumed (a doorbell)");
	TAP_EQ_U(d.num_underruns, 4, "dac: 4 slots with no data are underruns");
	TAP_EQ_U(d.samp_count_before_first_underrun, 16, "dac: 16 samples before the first");
	fill(&c, 1, 16, S, false);
	fpga_dac_consume(&d, &c, 16, on_release, NULL);
	TAP_EQ_U(d.trailing_underruns, 0, "dac: data again: no trailing underruns");
	TAP_EQ_U(d.ramp_errors, 0, "dac: the ramp continued");
	fpga_dac_consume(&d, &c, 30, on_release, NULL);
	TAP_EQ_U(d.num_underruns, 34, "dac: the host stopped sending: 30 more (teardown)");
	TAP_EQ_U(d.trailing_underruns, 30, "dac: the teardown part is trailing_underruns");
	TAP_EQ_U(d.underrun_periods, 2, "dac: two underrun periods");
	fill(&c, 0, 40, 32, true);
	fpga_dac_consume(&d, &c, 100, on_release, NULL);
	tap_ok(d.eof_seen, "dac: an EOF buffer stops the DAC");
	TAP_EQ_U(d.num_underruns, 34, "dac: no underrun counted after EOF");
	TAP_EQ_U(d.ramp_errors, 1, "dac: the jump from 31 to 40 is one ramp error");
	TAP_EQ_U(released[2], 0, "dac: buffers released in order 0, 1, 0");
	fpga_consumer_free(&c);
}

static void test_perftest(void)
{
	struct fpga_producer p;
	struct fpga_consumer c;
	struct fpga_perftest pt;
	struct sink k;

	memset(&k, 0, sizeof(k));
	fpga_producer_init(&p, S, 2, 1, NULL);
	fpga_perftest_init(&pt);
	pt.tx_beats = 8;
	pt.tx_messages = 3;
	fpga_perftest_tx(&pt, &p, 0);
	TAP_EQ_U(pt.tx_messages_sent, 0, "perftest: nothing without tx_run");
	pt.tx_run = true;
	fpga_perftest_tx(&pt, &p, 0);
	TAP_EQ_U(pt.tx_messages_sent, 2, "perftest: back pressure after 2 local buffers");
	drain(&p, &k);
	fpga_perftest_tx(&pt, &p, 0);
	TAP_EQ_U(pt.tx_messages_sent, 3, "perftest: the third once one was sent");
	TAP_EQ_U(pt.tx_bytes_sent, 96, "perftest: 3 x 8 beats x 4 bytes");
	tap_ok(p.slot[(p.send_idx + p.complete - 1) % 2].eof, "perftest: the last message has EOF");
	tap_ok(!fpga_perftest_tx_pending(&pt), "perftest: done");
	fpga_producer_free(&p);

	nreleased = 0;
	fpga_consumer_init(&c, S, 2, 4, NULL);
	fill(&c, 0, 0, 20, false);
	fill(&c, 1, 0, 12, false);
	fpga_perftest_rx(&pt, &c, on_release, NULL);
	TAP_EQ_U(pt.rx_messages, 2, "perftest: rx_messages 2");
	TAP_EQ_U(pt.rx_bytes, 32, "perftest: rx_bytes 32");
	TAP_EQ_U(pt.rx_last_message_bytes, 12, "perftest: rx_last_message_bytes 12");
	TAP_EQ_U(nreleased, 2, "perftest: both released at once");
	fpga_consumer_free(&c);
}

/* A received frame as the parser handles it: peek, then enqueue when processed whole. */
static int rx(struct fpga_acktrack *a, uint16_t seq, bool real, uint64_t now)
{
	int v = fpga_acktrack_peek(a, seq);

	if (v == FPGA_ACK_ACCEPT) {
		fpga_acktrack_enqueue(a, seq, real, now);
	} else if (!real) {
		fpga_acktrack_reject_ack_only(a, seq);
	}
	return v;
}

/* The ACK tracker, against the HDL's rules (docs/fpga.md section 11). */
static void test_acktrack(void)
{
	struct fpga_acktrack a;
	uint16_t start;
	uint8_t count;

	fpga_acktrack_init(&a, 32, 12);
	TAP_EQ_U(a.base_seqno, 1, "ack: base_seqno starts at 1");
	TAP_EQ_I(rx(&a, 0, true, 0), FPGA_ACK_OUT_OF_RANGE,
		 "ack: frame_seq 0 after reset is out of range (0 - 1 = 65535)");
	TAP_EQ_I(rx(&a, 1, true, 0), FPGA_ACK_ACCEPT, "ack: frame 1 accepted");
	rx(&a, 2, true, 0);
	rx(&a, 3, true, 0);
	TAP_EQ_U(fpga_acktrack_pending(&a), 3, "ack: 3 pending");
	TAP_EQ_I(rx(&a, 2, true, 0), FPGA_ACK_DUPLICATE, "ack: frame 2 again: already set");
	TAP_EQ_U(a.reject_already_set, 1, "ack: reject_already_set 1");
	TAP_EQ_U(a.rej_ack, 0, "ack: a rejected frame with messages freezes nothing");
	TAP_EQ_I(rx(&a, 1 + 31, true, 0), FPGA_ACK_ACCEPT,
		 "ack: base + 31 (width - 1) is inside the window");
	TAP_EQ_I(rx(&a, 1 + 32, true, 0), FPGA_ACK_OUT_OF_RANGE, "ack: base + 32 is out of range");
	TAP_EQ_U(a.reject_out_of_range, 2, "ack: reject_out_of_range 2");
	TAP_EQ_U(a.accepted_by_peek, 4, "ack: accepted_by_peek counts every accepted frame");
	TAP_EQ_U(a.pkts_enqueued, 4, "ack: pkts_enqueued 4");
	TAP_EQ_U(a.high_watermark, 31, "ack: high_watermark 31");
	tap_ok(!fpga_acktrack_due(&a, 8, 1000, 500), "ack: not due: 3 < 8 and wait not over");
	tap_ok(fpga_acktrack_due(&a, 3, 1000, 500), "ack: due when max_acks_outstanding reached");
	tap_ok(!fpga_acktrack_due(&a, 0, 0, 1u << 30),
	       "ack: max_acks_outstanding 0 and ack_wait 0: never urgent");
	tap_ok(fpga_acktrack_due(&a, 8, 1000, 1000), "ack: due when ack_wait expires");
	fpga_acktrack_take(&a, &start, &count, 1000);
	TAP_EQ_U(start, 1, "ack: ack_start 1");
	TAP_EQ_U(count, 3, "ack: ack_count 3");
	TAP_EQ_U(a.base_seqno, 4, "ack: base_seqno 4");
	TAP_EQ_I(rx(&a, 2, true, 0), FPGA_ACK_OUT_OF_RANGE,
		 "ack: an acknowledged frame is below base: out of range");

	/* frame 4 is lost; 5 and 6 arrive: the hole is never skipped */
	rx(&a, 5, true, 2000);
	rx(&a, 6, true, 2000);
	TAP_EQ_U(fpga_acktrack_pending(&a), 0, "ack: a hole at base: nothing acknowledgeable");
	tap_ok(!fpga_acktrack_due(&a, 8, 1000, 1u << 30),
	       "ack: no ACK is ever due while the hole stays");
	fpga_acktrack_take(&a, &start, &count, 3000);
	TAP_EQ_U(count, 0, "ack: a frame sent meanwhile carries ack_count 0");
	TAP_EQ_U(a.base_seqno, 4, "ack: base_seqno stays 4");
	for (uint16_t seq = 7; seq <= 4 + 31; seq++) {
		rx(&a, seq, true, 4000);
	}
	TAP_EQ_I(rx(&a, 4 + 32, true, 4000), FPGA_ACK_OUT_OF_RANGE,
		 "ack: 32 frames past the hole every frame is rejected (the lock-up)");
	TAP_EQ_I(rx(&a, 4, true, 5000), FPGA_ACK_ACCEPT, "ack: the missing frame, sent again");
	TAP_EQ_U(fpga_acktrack_pending(&a), 12, "ack: runs are at most max_ack_count long");
	fpga_acktrack_take(&a, &start, &count, 5000);
	TAP_EQ_U(start, 4, "ack: the run starts at the filled hole");
	TAP_EQ_U(count, 12, "ack: and is 12 long");

	/* ACK-only frames: numbered, accepted, acknowledged with the next run; never alone */
	fpga_acktrack_init(&a, 32, 12);
	TAP_EQ_I(rx(&a, 1, false, 0), FPGA_ACK_ACCEPT, "ack-only: accepted by the window");
	TAP_EQ_U(fpga_acktrack_pending(&a), 1, "ack-only: recorded");
	tap_ok(!fpga_acktrack_due(&a, 8, 1000, 1u << 30),
	       "ack-only: no ACK is sent for it alone (ack_wait does not start)");
	rx(&a, 2, true, 100);
	tap_ok(fpga_acktrack_due(&a, 8, 1000, 1100), "ack-only: the next real frame starts it");
	fpga_acktrack_take(&a, &start, &count, 1100);
	TAP_EQ_U(start, 1, "ack-only: acknowledged together with the real frame");
	TAP_EQ_U(count, 2, "ack-only: run of 2");
	TAP_EQ_I(rx(&a, 0, false, 0), FPGA_ACK_OUT_OF_RANGE,
		 "ack-only: frame_seq 0 is rejected (base 3)");
	TAP_EQ_U(a.rej_ack, 1, "ack-only: the first rejected ACK-only frame sets rej_ack");
	TAP_EQ_U(a.rej_seqno, 0, "ack-only: rej_seqno 0");
	TAP_EQ_U(a.dbg_base_seqno, 3, "ack-only: base_seqno frozen at 3");
	rx(&a, 3, true, 0);
	rx(&a, 9000, false, 0);
	TAP_EQ_U(a.rej_seqno, 0, "ack-only: the registers stay frozen at the first rejection");
	TAP_EQ_U(a.dbg_bitfield, 0, "ack-only: bitfield frozen empty");

	/* near the wrap: the window 65505..65535 + 0 reaches frame_seq 0 */
	fpga_acktrack_init(&a, 32, 12);
	a.base_seqno = 65530;
	TAP_EQ_I(rx(&a, 0, false, 0), FPGA_ACK_ACCEPT,
		 "wrap: with base 65530, frame_seq 0 is inside the window");
	TAP_EQ_I(rx(&a, 0, true, 0), FPGA_ACK_DUPLICATE,
		 "wrap: an ACK-only frame numbered 0 took the real frame 0's place");
	fpga_acktrack_init(&a, 32, 12);
	a.base_seqno = 65535;
	rx(&a, 65535, true, 0);
	TAP_EQ_I(rx(&a, 0, true, 0), FPGA_ACK_ACCEPT, "wrap: 65535 then 0 in order");
	fpga_acktrack_take(&a, &start, &count, 0);
	TAP_EQ_U(count, 2, "wrap: both acknowledged across the wrap");
	TAP_EQ_U(a.base_seqno, 1, "wrap: base_seqno 1");
}

/* The transaction record: flags strictly in transaction order. */
static void test_txnrecord(void)
{
	struct fpga_txnrecord r;
	struct fpga_txn_entry t;
	struct dgr_msg m = { .num_msgs_in_txn = 0, .flag_addr = 0x100, .flag_value = 3 };

	fpga_txnrecord_init(&r);
	m.txn_id = 2;
	TAP_EQ_I(fpga_txnrecord_msg(&r, &m, 5, true), 0, "txn: txn 2 recorded");
	tap_ok(!fpga_txnrecord_next_flag(&r, &t), "txn: its flag waits for txn 1");
	m.txn_id = 1;
	m.num_msgs_in_txn = 2;
	m.data_len = 16;
	m.data_addr = 64;
	fpga_txnrecord_msg(&r, &m, 6, true);
	tap_ok(!fpga_txnrecord_next_flag(&r, &t), "txn: txn 1 has 1 of 2 messages: nothing");
	m.data_addr = 32;
	fpga_txnrecord_msg(&r, &m, 7, true);
	tap_ok(fpga_txnrecord_next_flag(&r, &t) && t.data_addr == 32 && t.frame_seq == 7,
	       "txn: txn 1 complete: its flag first, lowest data_addr 32");
	tap_ok(fpga_txnrecord_next_flag(&r, &t) && t.flag_value == 3, "txn: then txn 2's flag");
	TAP_EQ_U(r.next_flag_txn_id, 3, "txn: next_flag_txn_id 3");
	m.txn_id = 3 + FPGA_TXN_IN_FLIGHT;
	m.num_msgs_in_txn = 0;
	m.data_len = 0;
	TAP_EQ_I(fpga_txnrecord_msg(&r, &m, 8, true), -DGR_E_STATE,
		 "txn: 64 ahead of the next flag: dropped");
	TAP_EQ_U(r.txn_id_out_of_range, 1, "txn: txn_id_out_of_range 1");
	m.txn_id = 0;
	TAP_EQ_I(fpga_txnrecord_msg(&r, &m, 8, true), -DGR_E_STATE,
		 "txn: an old txn_id is out of range too");
	m.txn_id = 3;
	m.num_msgs_in_txn = 3;
	m.data_len = 16;
	fpga_txnrecord_msg(&r, &m, 9, true);
	m.flag_value = 4;
	fpga_txnrecord_msg(&r, &m, 9, true);
	TAP_EQ_U(r.txn_errors, 1, "txn: a message disagreeing with its record is counted");
}

int main(void)
{
	test_producer();
	test_adc_ramp();
	test_adc_drops(true);
	test_adc_drops(false);
	test_adc_saturation_and_ready();
	test_vicious_cycle();
	test_stall_recovers();
	test_dac();
	test_perftest();
	test_acktrack();
	test_txnrecord();
	return tap_done();
}
