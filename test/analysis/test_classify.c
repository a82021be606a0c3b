// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the statistics (nearest-rank percentiles, histogram, time above
 * the tolerable latency) and of the regime classifier on generated series.
 */
#include <string.h>

#include "classify.h"
#include "headroom.h"
#include "occupancy.h"
#include "run_info.h"
#include "vicious.h"
#include "stats.h"
#include "../unit/tap.h"

/* splitmix64, for deterministic noise */
static uint64_t state = 7;

static uint64_t noise(uint64_t n)
{
	uint64_t z = (state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return (z ^ (z >> 31)) % n;
}

static void test_percentiles(void)
{
	struct series s;
	struct summary sum;
	unsigned int i;

	series_init(&s);
	for (i = 100; i >= 1; i--) {
		series_add(&s, i, i);
	}
	series_summarise(&s, 0, 0, &sum);
	TAP_EQ_U(sum.count, 100, "count");
	TAP_EQ_U(sum.min, 1, "min");
	TAP_EQ_U(sum.p50, 50, "p50 of 1..100 is 50 (rank ceil(0.5*100))");
	TAP_EQ_U(sum.p90, 90, "p90 is 90");
	TAP_EQ_U(sum.p99, 99, "p99 is 99");
	TAP_EQ_U(sum.p999, 100, "p99.9 of 100 values is the max (rank ceil(99.9))");
	TAP_EQ_U(sum.max, 100, "max");
	tap_ok(sum.mean == 50.5, "mean 50.5");
	TAP_EQ_U(sum.hist[0], 1, "histogram bin [0,2) holds 1");
	TAP_EQ_U(sum.hist[6], 37, "histogram bin [64,128) holds 64..100");
	series_free(&s);

	series_init(&s);
	for (i = 1; i <= 1001; i++) {
		series_add(&s, i, i);
	}
	series_summarise(&s, 0, 0, &sum);
	TAP_EQ_U(sum.p50, 501, "p50 of 1..1001 is 501 (rank ceil(500.5))");
	TAP_EQ_U(sum.p999, 1000, "p99.9 of 1..1001 is 1000 (rank ceil(999.999))");
	series_free(&s);
}

static void test_time_above(void)
{
	struct series s;
	struct summary sum;

	series_init(&s);
	/* tolerable 100: intervals [t+100, t+v]: [1100,1300], [1200,1400] overlap -> 300;
	 * [5100,5150] -> 50 */
	series_add(&s, 1000, 300);
	series_add(&s, 1100, 300);
	series_add(&s, 5000, 150);
	series_add(&s, 6000, 50);
	series_summarise(&s, 10000, 100, &sum);
	TAP_EQ_U(sum.above_tolerable, 3, "3 doorbells above the tolerable latency");
	tap_ok(sum.time_above_fraction > 0.0349 && sum.time_above_fraction < 0.0351,
	       "time above tolerable is 350 of 10000 ns (%f)", sum.time_above_fraction);
	TAP_EQ_I(sum.margin_ns, 100 - 300, "margin = tolerable - p99.9");
	series_free(&s);
}

enum shape { HEALTHY, JITTER, THROUGHPUT };

/* Series shaped as the tuning guide's figures, base latency 10 us. */
static void make_series(struct series *s, enum shape shape, unsigned int n)
{
	uint64_t base = 10000;
	unsigned int i;

	series_init(s);
	for (i = 0; i < n; i++) {
		uint64_t v = base + noise(base / 5);

		if (shape == JITTER && i % 200 >= 100 && i % 200 < 104) {
			v = base * 150 + noise(base * 50); /* short bursts of 1.5-2 ms */
		} else if (shape == THROUGHPUT) {
			v = i < 20 ? base + base * 60 * i / 20 : base * 60 + noise(base * 6);
		}
		series_add(s, (uint64_t)i * 20000, v);
	}
}

static void check_regime(enum shape shape, uint64_t tolerable, enum regime want, const char *what)
{
	struct series s;
	struct summary sum;
	struct classification c;

	make_series(&s, shape, 2000);
	series_summarise(&s, 2000ull * 20000, tolerable, &sum);
	classify(&s, &sum, tolerable, &c);
	tap_ok(c.regime == want, "%s: %s (got %s: %s)", what, regime_label(want),
	       regime_label(c.regime), c.reason);
	tap_ok(strlen(c.reason) > 20 && regime_mitigations(c.regime, 0)[0] != NULL,
	       "%s: a reason and mitigations", what);
	series_free(&s);
}

static void test_regimes(void)
{
	struct series s;
	struct summary sum;
	struct classification c;

	/* tolerable 1 ms: 8 buffers of 8 KiB at ~65 MB/s */
	check_regime(HEALTHY, 1000000, REGIME_HEALTHY, "healthy series, tolerable 1 ms");
	check_regime(JITTER, 1000000, REGIME_JITTER, "jitter series, tolerable 1 ms");
	check_regime(THROUGHPUT, 1000000, REGIME_THROUGHPUT, "throughput series, tolerable 1 ms");
	check_regime(HEALTHY, 0, REGIME_HEALTHY, "healthy series, no tolerable latency");
	check_regime(JITTER, 0, REGIME_JITTER, "jitter series, no tolerable latency");
	check_regime(THROUGHPUT, 0, REGIME_THROUGHPUT, "throughput series, no tolerable latency");

	/* the boundary: p50 exactly half the tolerable is not yet throughput-bound */
	series_init(&s);
	for (unsigned int i = 0; i < 100; i++) {
		series_add(&s, i, 500);
	}
	series_summarise(&s, 100, 1000, &sum);
	classify(&s, &sum, 1000, &c);
	tap_ok(c.regime == REGIME_HEALTHY, "p50 == tolerable/2 and max <= tolerable: healthy (%s)",
	       c.reason);
	series_add(&s, 100, 501);
	series_summarise(&s, 100, 1000, &sum);
	classify(&s, &sum, 1000, &c);
	TAP_EQ_U(c.high_count, 1, "one doorbell above tolerable/2");
	TAP_EQ_U(c.episodes, 1, "one high episode");
	tap_ok(strstr(c.reason, ": 1 high episode (longest 1 doorbell, 0.99% of doorbells)") !=
		   NULL,
	       "the reason counts it in the singular (%s)", c.reason);
	series_free(&s);

	/* jitter episodes counted */
	make_series(&s, JITTER, 1000);
	series_summarise(&s, 0, 1000000, &sum);
	classify(&s, &sum, 1000000, &c);
	TAP_EQ_U(c.episodes, 5, "jitter series of 1000: 5 high episodes");
	TAP_EQ_U(c.longest_episode, 4, "each 4 doorbells long");
	series_free(&s);

	series_init(&s);
	series_add(&s, 0, 5);
	series_summarise(&s, 0, 0, &sum);
	classify(&s, &sum, 0, &c);
	tap_ok(c.regime == REGIME_UNKNOWN, "fewer than %d doorbells: unknown",
	       CLASSIFY_MIN_SAMPLES);
	series_free(&s);
}

/* No doorbell at all: the reason tells a stream that never started from a stalled host. */
static void test_no_doorbells(void)
{
	struct classification c;

	memset(&c, 0xff, sizeof(c));
	classify_no_doorbells(0, &c);
	tap_ok(c.regime == REGIME_UNKNOWN, "no doorbells: unknown");
	TAP_EQ_S(c.reason,
		 "no data transaction in the capture or the trace: the stream never started (the "
		 "FPGA did not send, or sent its first burst before the host received and got no "
		 "doorbell back: start it once dgrdma-host --ready-file exists)",
		 "no data either: the stream never started, and how to start it");
	classify_no_doorbells(64, &c);
	TAP_EQ_S(c.reason,
		 "64 data transactions and no doorbell for them: the host released no buffer (a "
		 "stalled consumer, or doorbells not recorded)",
		 "data but no doorbell: the host released nothing");
}

/*
 * Tolerable latency at every edge of latency-report's option ranges (host 1..65535, FPGA
 * 0..65535, size 1..2 MiB, rate 1..1e10 samples/s) and run.json's (size up to 1 GiB, rate up
 * to 1e12 samples/s): saturated at the cap, never 0 (unknown), never wrapped.
 */
static void test_tolerable_edges(void)
{
	struct run_info ri;

	memset(&ri, 0, sizeof(ri));
	ri.host_buffers = 65535;
	ri.fpga_buffers = 65535;
	ri.buffer_size = 2u << 20;
	ri.rate_bytes = 4; /* --sample-rate 1 */
	TAP_EQ_U(
	    headroom_tolerable_ns(&ri), RUN_INFO_MAX_TOLERABLE_NS,
	    "65535 + 65535 buffers of 2 MiB at 1 sample/s (6.9e19 ns): the cap, not an overflow");
	ri.buffer_size = RUN_INFO_MAX_BUFFER_SIZE;
	TAP_EQ_U(headroom_tolerable_ns(&ri), RUN_INFO_MAX_TOLERABLE_NS,
		 "the same with 1 GiB buffers");
	ri.host_buffers = 1;
	ri.fpga_buffers = 0;
	ri.buffer_size = 1;
	ri.rate_bytes = 40000000000ull; /* --sample-rate 1e10 */
	TAP_EQ_U(headroom_tolerable_ns(&ri), 1,
		 "1 buffer of 1 byte at 1e10 samples/s (0.025 ns): 1 ns, not 0 (unknown)");
	ri.rate_bytes = 4000000000000ull; /* run.json's 1e12 samples/s */
	TAP_EQ_U(headroom_tolerable_ns(&ri), 1, "the same at run.json's 1e12 samples/s");
	ri.host_buffers = 255;
	ri.fpga_buffers = 0;
	ri.buffer_size = 32768;
	ri.rate_bytes = 800000000;
	TAP_EQ_U(headroom_tolerable_ns(&ri), 10444800,
		 "the guide's example: 255 x 32 KiB at 800 MB/s = 10.4448 ms");
	ri.rate_bytes = 0;
	TAP_EQ_U(headroom_tolerable_ns(&ri), 0, "an unknown rate: unknown");
	TAP_EQ_U(sat_mul_u64(UINT64_MAX / 2 + 1, 2), UINT64_MAX, "sat_mul_u64 saturates");
	TAP_EQ_U(sat_mul_u64(1ull << 31, 1ull << 32), 1ull << 63, "sat_mul_u64 below the edge");
	TAP_EQ_U(sat_add_u64(UINT64_MAX, 1), UINT64_MAX, "sat_add_u64 saturates");
}

/* Headroom at the edges and on the example. */
static void test_headroom(void)
{
	struct headroom h;
	struct wa_dir_stats st;
	struct run_info ri;

	/* (64 + 4) x 16 KiB at 20 MS/s: T = 13.926 ms; a worst stall of 2.9 ms */
	headroom_compute(68, 16384, 80000000, 2900000, &h);
	tap_ok(h.known && h.rate_factor > 4.80 && h.rate_factor < 4.81,
	       "68 x 16 KiB, 80 MB/s, worst 2.9 ms: lossless up to 4.80x (%f)", h.rate_factor);
	TAP_EQ_U(h.buffers_needed, 15,
		 "the worst stall needs ceil(2.9 ms x 80 MB/s / 16 KiB) = 15");
	tap_ok(h.worst_of_tolerable > 0.2082 && h.worst_of_tolerable < 0.2083,
	       "2.9 ms is 20.8%% of the tolerable 13.93 ms (%f)", h.worst_of_tolerable);
	headroom_compute(65535 + 65535, 1u << 30, 4, UINT64_MAX, &h);
	tap_ok(h.known && h.buffers_needed == 69 && h.rate_factor > 1907 && h.rate_factor < 1908,
	       "largest pool of 1 GiB buffers, 4 B/s, a 2^64 ns stall: 69 buffers needed, 1907x, "
	       "no overflow (needs %" PRIu64 ", factor %g)",
	       h.buffers_needed, h.rate_factor);
	headroom_compute(1, 1, 4000000000000ull, UINT64_MAX, &h);
	TAP_EQ_U(h.buffers_needed, HEADROOM_MAX_BUFFERS,
		 "1-byte buffers at 4e12 B/s for 1.8e19 ns: buffers needed saturate");
	headroom_compute(1, 1, 4, 1, &h);
	tap_ok(h.known && h.rate_factor > 2.4999e8 && h.rate_factor < 2.5001e8 &&
		   h.buffers_needed == 1,
	       "a 1 ns stall: lossless up to 2.5e8x, 1 buffer (%g)", h.rate_factor);
	headroom_compute(8, 0, 4, 1000, &h);
	tap_ok(!h.known && h.worst_ns == 1000, "no buffer size: unknown, the stall kept");

	memset(&ri, 0, sizeof(ri));
	memset(&st, 0, sizeof(st));
	st.buffers = 8;
	st.max_txn_bytes = 8192;
	st.transactions = 100;
	st.data_bytes = 819200;
	st.first_ts = 1000;
	st.last_ts = 1000 + 2000000; /* 409.6 MB/s */
	headroom_for_run(&ri, &st, 0, 40000, &h);
	tap_ok(h.known && h.estimated && h.rate_bytes == 409600000 && h.buffers == 8,
	       "from the capture alone: 8 buffers seen, 8 KiB, 409.6 MB/s, estimated");
	TAP_EQ_U(headroom_estimate_tolerable(&st), 160000, "estimated T = 8 x 8 KiB / 409.6 MB/s");
	st.data_bytes = 1;
	st.first_ts = 0;
	st.last_ts = UINT64_MAX;
	TAP_EQ_U(headroom_estimate_tolerable(&st), RUN_INFO_MAX_TOLERABLE_NS,
		 "1 byte over 1.8e19 ns: the estimate saturates at the cap");
	ri.host_buffers = 16;
	ri.fpga_buffers = 4;
	ri.buffer_size = 16384;
	ri.rate_bytes = 8000000;
	headroom_for_run(&ri, &st, 0, 80000000, &h);
	tap_ok(h.known && !h.estimated && h.buffers == 20 && h.buffers_needed == 40,
	       "run facts win: 20 buffers; an 80 ms stall at 8 MB/s needs 40 of 16 KiB");
	headroom_for_run(&ri, &st, 1000, 80000000, &h);
	tap_ok(h.known && !h.rate_estimated && h.rate_bytes == 8000000,
	       "a rate given wins over the trace's estimate");
	ri.rate_bytes = 0;
	st.data_bytes = 819200;
	st.first_ts = 1000;
	st.last_ts = 1000 + 2000000;
	headroom_for_run(&ri, &st, 4000000, 80000000, &h);
	tap_ok(h.known && h.estimated && !h.rate_estimated && h.buffers == 8,
	       "no rate given: the capture's own estimate before the trace's");
	headroom_for_run(&ri, NULL, 4000000, 80000000, &h);
	tap_ok(h.known && h.rate_estimated && !h.estimated && h.buffers == 20 &&
		   h.rate_bytes == 4000000 && h.buffers_needed == 20,
	       "no capture: the facts' 20 buffers at the trace's 4 MB/s (an 80 ms stall needs 20)");
	ri.buffer_size = 0;
	headroom_for_run(&ri, NULL, 4000000, 80000000, &h);
	tap_ok(!h.known && !h.rate_estimated, "no buffer size: no headroom from a rate alone");
}

/* Shapes and the one-line summary. */
static void test_shape_summary(void)
{
	struct series s;
	struct summary sum;
	struct classification c;
	struct lat_shape sh;
	struct headroom h;
	char line[512];
	unsigned int i;

	/* 500 doorbells of 100 us, 5 stalls of 3 doorbells up to 6.8 ms; T = 32 ms */
	series_init(&s);
	for (i = 0; i < 500; i++) {
		uint64_t v = 100000;

		if (i % 100 >= 50 && i % 100 < 53) {
			v = i % 100 == 51 ? 6800000 : 2000000;
		}
		series_add(&s, (uint64_t)i * 1000000, v);
	}
	series_summarise(&s, 500000000, 32000000, &sum);
	classify(&s, &sum, 32000000, &c);
	classify_shape(&s, &sum, 32000000, &sh);
	tap_ok(c.regime == REGIME_HEALTHY && sh.kind == SHAPE_SPIKY && sh.spikes == 5 &&
		   sh.spike_doorbells == 15 && sh.largest_ns == 6800000,
	       "healthy with 5 stalls of 3 doorbells up to 6.8 ms: spiky (%s, %" PRIu64 ")",
	       shape_label(sh.kind), sh.spikes);
	headroom_compute(68, 16384, 34816000, sh.largest_ns, &h); /* T = 32 ms */
	classify_summary(line, sizeof(line), &c, &sh, &h, 32000000, NULL);
	TAP_EQ_S(line,
		 "healthy; 5 stalls up to 6.800 ms, 21.2% of the tolerable latency; lossless up to "
		 "about 4.71x this rate",
		 "the summary a user reads first");
	/* the same stalls against T = 0.147 ms: 46 times it, in digits (%.3g wrote 4.63e+03%) */
	classify_summary(line, sizeof(line), &c, &sh, NULL, 147000, NULL);
	TAP_EQ_S(
	    line,
	    "healthy; 5 stalls up to 6.800 ms, 4626% of the tolerable latency; headroom unknown "
	    "(no buffer count, size and rate)",
	    "a share past 1000%% in digits, not in exponent form");
	headroom_compute(68, 16384, 34816000 / 250, sh.largest_ns, &h);
	classify_summary(line, sizeof(line), &c, &sh, &h, 32000000, NULL);
	tap_ok(strstr(line, "; lossless up to about 1176x this rate") != NULL,
	       "a headroom past 1000x in digits, not in exponent form (%s)", line);
	series_free(&s);

	make_series(&s, THROUGHPUT, 1000);
	series_summarise(&s, 0, 1000000, &sum);
	classify(&s, &sum, 1000000, &c);
	classify_shape(&s, &sum, 1000000, &sh);
	tap_ok(sh.kind == SHAPE_PLATEAU, "throughput series: a plateau");
	headroom_compute(8, 8192, 65536000, sum.max, &h);
	classify_summary(line, sizeof(line), &c, &sh, &h, 1000000, NULL);
	tap_ok(strstr(line, "throughput-bound; latency on a plateau (p50 ") != NULL &&
		   strstr(line, "% of the tolerable latency); lossless up to about 1.5") != NULL,
	       "plateau summary: %s", line);
	headroom_compute(4, 8192, 65536000, sum.max, &h);
	classify_summary(line, sizeof(line), &c, &sh, &h, 1000000, NULL);
	tap_ok(strstr(line, "; the worst stall needs 6 buffers at this rate (has 4): lossless only "
			    "up to about 0.76x this rate") != NULL,
	       "with half the pool: the buffers needed (%s)", line);
	series_free(&s);

	/* TX: a worst refill within the slack, but the queue ran empty (late refills in a row) */
	{
		struct occupancy occ;

		memset(&occ, 0, sizeof(occ));
		occ.buffers = 4;
		occ.window_ns = 2000000000;
		occ.empty_episodes = 1;
		occ.empty_ns = occ.longest_empty_ns = 81000;
		occ.mean = 3.9;
		c.regime = REGIME_JITTER;
		headroom_compute(3, 16384, 20000000, 2371000, &h);
		h.ran_empty = true;
		classify_summary(line, sizeof(line), &c, NULL, &h, 0, &occ);
		tap_ok(strstr(line,
			      "; no headroom: the queue ran empty at this rate (the worst refill "
			      "alone would allow about 1.04x)") != NULL &&
			   strstr(line, "lossless up to") == NULL,
		       "TX, the queue ran empty: no headroom claimed (%s)", line);
	}

	make_series(&s, HEALTHY, 1000);
	series_summarise(&s, 0, 0, &sum);
	classify(&s, &sum, 0, &c);
	classify_shape(&s, &sum, 0, &sh);
	classify_summary(line, sizeof(line), &c, &sh, NULL, 0, NULL);
	tap_ok(sh.kind == SHAPE_STEADY &&
		   strstr(line, "healthy; steady (no doorbell above ") != NULL &&
		   strstr(line, "; headroom unknown (no buffer count, size and rate)") != NULL,
	       "steady, no facts: %s", line);
	series_free(&s);

	/* a high p50 (100 ms) and one doorbell past T/2 = 200 ms but below 10 x p50: a stall */
	series_init(&s);
	for (i = 0; i < 100; i++) {
		series_add(&s, i, i == 50 ? 300000000 : 100000000);
	}
	series_summarise(&s, 0, 400000000, &sum);
	classify(&s, &sum, 400000000, &c);
	classify_shape(&s, &sum, 400000000, &sh);
	tap_ok(c.regime == REGIME_JITTER && sh.kind == SHAPE_SPIKY && sh.spikes == 1 &&
		   sh.spike_threshold_ns == 200000000,
	       "p50 100 ms, one doorbell of 300 ms, T 400 ms: jitter-bound and spiky (1 stall past "
	       "T/2), not steady (%s)",
	       shape_label(sh.kind));
	series_free(&s);

	/* saturating thresholds: latencies near 2^64 ns do not wrap the 10 x p50 products */
	series_init(&s);
	for (i = 0; i < 20; i++) {
		series_add(&s, i, UINT64_MAX - 20 + i);
	}
	series_summarise(&s, 0, 0, &sum);
	classify(&s, &sum, 0, &c);
	classify_shape(&s, &sum, 0, &sh);
	tap_ok(c.regime == REGIME_HEALTHY && c.high_threshold_ns == UINT64_MAX && sh.spikes == 0,
	       "latencies of 2^64 - 20 ns: thresholds saturate, healthy against itself (%s)",
	       c.reason);
	series_free(&s);
}

/*
 * A TX series: n transactions, one sent every period_ns, each outstanding for hold_ns (the
 * DAC's queue ahead of it plus its own play time); stall: from transaction k on, the next
 * sends come stall_ns later.
 */
static void make_tx(struct series *s, unsigned int n, uint64_t period_ns, uint64_t hold_ns,
		    unsigned int k, uint64_t stall_ns)
{
	uint64_t t = 1000;
	unsigned int i;

	series_init(s);
	for (i = 0; i < n; i++) {
		if (i == k) {
			t += stall_ns;
		}
		series_add(s, t, hold_ns);
		t += period_ns;
	}
}

static void test_tx_regimes(void)
{
	struct series s;
	struct occupancy o;
	struct classification c;

	/* the DAC plays a buffer in 16 ms; the host refills 1 us after each doorbell */
	make_tx(&s, 200, 16000000, 64000000 - 1000, 0, 0);
	occupancy_compute(&s, 4, &o);
	classify_tx(&o, s.n, false, 0, &c);
	tap_ok(c.regime == REGIME_HEALTHY && o.empty_episodes == 0 && o.max == 4 && o.low_ns == 0,
	       "TX queue kept full: healthy (%s)", c.reason);
	tap_ok(o.refills == 196 && o.worst_refill_ns == 1000,
	       "each of 196 doorbells answered 1 us later (%" PRIu64 ", %" PRIu64 ")", o.refills,
	       o.worst_refill_ns);
	tap_ok(o.window_ns == 199ull * 16000000 - 3ull * 16000000,
	       "the window opens when the queue is first full (%" PRIu64 ")", o.window_ns);
	classify_tx(&o, s.n, true, 2, &c);
	tap_ok(c.regime == REGIME_JITTER, "full queue but underruns reported: jitter-bound (%s)",
	       c.reason);
	series_free(&s);

	/* a host stall of 200 ms before transaction 100: empty for 16 + 200 - 64 = 152 ms */
	make_tx(&s, 200, 16000000, 64000000 - 1000, 100, 200000000);
	occupancy_compute(&s, 4, &o);
	classify_tx(&o, s.n, false, 0, &c);
	tap_ok(c.regime == REGIME_JITTER && o.empty_episodes == 1 &&
		   o.longest_empty_ns == 152001000,
	       "one stall of 200 ms with 64 ms queued: empty once for 152 ms, jitter-bound (%s)",
	       c.reason);
	TAP_EQ_U(o.worst_refill_ns, 200001000,
		 "the host's worst answer to a doorbell: 200 ms + 1 us");
	series_free(&s);

	/* a producer at half the DAC's rate: each buffer played (16 ms) then 16 ms empty */
	make_tx(&s, 200, 32000000, 16000000, 0, 0);
	occupancy_compute(&s, 4, &o);
	classify_tx(&o, s.n, false, 0, &c);
	tap_ok(c.regime == REGIME_THROUGHPUT && o.empty_episodes == 199 && o.max == 1 &&
		   o.mean > 0.49 && o.mean < 0.51,
	       "a producer at half the DAC's rate: empty between every buffer, throughput-bound "
	       "(%s)",
	       c.reason);
	series_free(&s);

	/* the boundary: exactly half the time at most half full is not yet throughput-bound */
	series_init(&s);
	series_add(&s, 0, 100);	 /* two outstanding over [0, 100) */
	series_add(&s, 0, 200);	 /* one over [100, 200) */
	series_add(&s, 200, 10); /* the last send closes the window at 200 */
	occupancy_compute(&s, 2, &o);
	TAP_EQ_U(o.low_ns, 100, "at most 1 of 2 buffers for 100 of 200 ns");
	classify_tx(&o, 10, false, 0, &c);
	tap_ok(c.regime == REGIME_HEALTHY, "low exactly half the time: not throughput-bound (%s)",
	       c.reason);
	classify_tx(&o, 9, false, 0, &c);
	tap_ok(c.regime == REGIME_UNKNOWN, "fewer than 10 TX doorbells: unknown");
	series_free(&s);
}

/*
 * 200 000 TX doorbells (past the 65536 the occupancy sorts at a time) recorded in
 * order, out of order by up to 99 places, and reversed whole: the same occupancy.
 */
static void test_tx_long_any_order(void)
{
	const unsigned int n = 200000;
	struct series s[3];
	struct occupancy o[3];
	unsigned int k, j;
	bool same = true;

	for (k = 0; k < 3; k++) {
		series_init(&s[k]);
		for (j = 0; j < n; j++) {
			unsigned int i = k == 0	  ? j
					 : k == 1 ? j - j % 100 + 99 - j % 100
						  : n - 1 - j;
			/* a buffer held 4 periods, 7 of every 1000 held 60 (stalls) */
			uint64_t hold = i % 1000 < 7 ? 60000000ull : 4000000ull - 1000;

			series_add(&s[k], 1000000ull * i, hold + i % 13);
		}
		TAP_EQ_U(occupancy_compute(&s[k], 0, &o[k]), 0, "%u TX doorbells, order %u", n, k);
	}
	for (k = 1; k < 3; k++) {
		same &= !memcmp(&o[k], &o[0], sizeof(o[0]));
	}
	tap_ok(same && o[0].max >= 4 && o[0].refills > 0 && o[0].empty_episodes == 0,
	       "the same occupancy in any order (max %" PRIu64 ", %" PRIu64
	       " refills, worst %" PRIu64 " ns)",
	       o[0].max, o[0].refills, o[0].worst_refill_ns);
	for (k = 0; k < 3; k++) {
		series_free(&s[k]);
	}
}

/* The vicious cycle: a cascade, isolated drops, none; thresholds at their edges. */
static void test_vicious(void)
{
	struct vicious v;
	unsigned int i;

	/* 100 sample buffers of 16 KiB at 1 ms, then every transaction a discontinuity */
	memset(&v, 0, sizeof(v));
	for (i = 0; i < 200; i++) {
		vicious_txn(&v, 1000000ull * (i + 1), i < 100 ? 16384 : 0, i < 100 ? 0 : 4);
	}
	vicious_finish(&v, 20000000);
	tap_ok(v.found && v.discontinuities == 100 && v.longest_run == 100 && v.share == 1.0,
	       "a cascade: found, 100 discontinuities in a row, all after the first drop");
	tap_ok(v.rate_before > 16384e3 * 0.99 && v.rate_before < 16384e3 * 1.01 &&
		   v.rate_after == 0,
	       "the sample rate falls from 16.4 MB/s to 0 (%g, %g)", v.rate_before, v.rate_after);
	TAP_EQ_U(v.tolerable_after_ns, 0, "no pool left for samples: T x (1 - 1) = 0");
	TAP_EQ_U(v.first_drop_ts, 101000000, "the first drop: transaction 101");

	/* isolated drops: one discontinuity in 20 */
	memset(&v, 0, sizeof(v));
	for (i = 0; i < 200; i++) {
		vicious_txn(&v, 1000ull * i, i % 20 == 19 ? 0 : 8192, i % 20 == 19 ? 4 : 0);
	}
	vicious_finish(&v, 1000000);
	tap_ok(!v.found && v.discontinuities == 10 && v.longest_run == 1,
	       "one discontinuity in 20: not a cycle (share %.3f)", v.share);

	/* the edges: 3 discontinuities making exactly half of the transactions from the first */
	memset(&v, 0, sizeof(v));
	vicious_txn(&v, 1, 8192, 0);
	vicious_txn(&v, 2, 0, 4);
	vicious_txn(&v, 3, 8192, 0);
	vicious_txn(&v, 4, 0, 4);
	vicious_txn(&v, 5, 8192, 0);
	vicious_txn(&v, 6, 0, 4);
	vicious_txn(&v, 7, 8192, 0);
	vicious_finish(&v, 0);
	tap_ok(v.found && v.share == 0.5 && v.tolerable_after_ns == 0,
	       "3 discontinuities, half the transactions from the first: found (T unknown)");
	memset(&v, 0, sizeof(v));
	vicious_txn(&v, 1, 0, 4);
	vicious_txn(&v, 2, 0, 4);
	vicious_finish(&v, RUN_INFO_MAX_TOLERABLE_NS);
	tap_ok(!v.found && v.tolerable_after_ns == 0,
	       "2 discontinuities: fewer than %d, not a cycle", VICIOUS_MIN_DISCONTINUITIES);
	memset(&v, 0, sizeof(v));
	vicious_txn(&v, 5, 8192, 0);
	vicious_finish(&v, RUN_INFO_MAX_TOLERABLE_NS);
	tap_ok(!v.found && v.tolerable_after_ns == RUN_INFO_MAX_TOLERABLE_NS,
	       "no drop: no cycle, the whole (largest) tolerable latency left");
}

/*
 * A verdict holds under a step of every latency when each compared value stands farther than
 * the step can move it and its reference: with a tolerable latency, p50 and p99.9 against the
 * threshold and max against the tolerable; judged against itself, with references that are
 * 10 x a latency and move 11 times (21 for max against 2 x 10 x p50).
 */
static void test_holds_under_step(void)
{
	struct summary sum = { .min = 1000, .p50 = 2000, .p999 = 4000, .max = 8000 };

	/* T 10 us, threshold 5 us: p999 1 us from it is the nearest */
	tap_ok(classify_holds_under_step(&sum, 10000, 5000, 999),
	       "tolerable 10 us: a step of 999 ns cannot move p99.9 (4 us) past 5 us");
	tap_ok(!classify_holds_under_step(&sum, 10000, 5000, 1000),
	       "a step of 1 us can (p99.9 1 us from the threshold)");
	/* no T, threshold 10 x p50 = 20 us: p50 8 us from 10 x min, which moves 11 steps */
	tap_ok(classify_holds_under_step(&sum, 0, 20000, 727),
	       "judged against itself: 727 ns x 11 < 8 us, p50 to 10 x min");
	tap_ok(!classify_holds_under_step(&sum, 0, 20000, 728),
	       "728 ns x 11 > 8 us: the verdict may rest on the step");
	tap_ok(!classify_holds_under_step(&sum, 10000, 0, 0), "no threshold: it cannot be said");
}

int main(void)
{
	test_percentiles();
	test_time_above();
	test_regimes();
	test_no_doorbells();
	test_tolerable_edges();
	test_headroom();
	test_shape_summary();
	test_tx_regimes();
	test_tx_long_any_order();
	test_vicious();
	test_holds_under_step();
	return tap_done();
}
