// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the statistics (nearest-rank percentiles, histogram, time above
 * the tolerable latency) and of the regime classifier on generated series.
 */
#include <string.h>

#include "../../analysis/classify.h"
#include "../../analysis/stats.h"
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

int main(void)
{
	test_percentiles();
	test_time_above();
	test_regimes();
	test_no_doorbells();
	return tap_done();
}
