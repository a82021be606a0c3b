// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of latency-report --live's interval accounting (analysis/live.c):
 * each interval holds exactly the doorbells and counter changes since the
 * last, the run so far all of them, with series_summarise's nearest ranks.
 */
#include <string.h>

#include "../../analysis/host_events.h"
#include "../../analysis/live.h"
#include "../../analysis/stats.h"
#include "../unit/tap.h"

/* A host counter source with these cumulative totals. */
static void set_counters(struct host_analysis *h, bool fpga, uint64_t delivered, uint64_t lost)
{
	struct ha_counter_src *s = &h->srcs[fpga ? 1 : 0];

	s->fpga = fpga;
	s->seen = true;
	s->delivered = delivered;
	s->lost = lost;
	if (h->n_srcs < 2) {
		h->n_srcs = 2;
	}
}

static void test_quantiles_match_summary(void)
{
	struct series s;
	struct summary sum;
	struct quantiles q;
	unsigned int i;

	series_init(&s);
	for (i = 1; i <= 2000; i++) {
		series_add(&s, i, (i * 7919u) % 3001u);
	}
	series_summarise(&s, 0, 0, &sum);
	series_quantiles(&s, 0, s.n, &q);
	tap_ok(q.count == sum.count && q.p50 == sum.p50 && q.p99 == sum.p99 && q.p999 == sum.p999 &&
		   q.max == sum.max,
	       "the whole range gives series_summarise's count, p50, p99, p99.9, max");
	series_quantiles(&s, 1000, 1000, &q);
	tap_ok(q.count == 0 && q.max == 0, "an empty range: all 0");
	series_quantiles(&s, 10, 5, &q);
	tap_ok(q.count == 0, "a reversed range: empty");
	series_quantiles(&s, 0, s.n + 1, &q);
	tap_ok(q.count == 0, "a range past the end: empty, not read");
	series_free(&s);
}

static void test_intervals(void)
{
	struct host_analysis h;
	struct live_acc a;
	struct live_interval iv;
	unsigned int i;

	if (ha_init(&h)) {
		tap_ok(0, "ha_init");
		return;
	}
	live_init(&a);

	/* interval 1: nothing yet */
	live_close(&a, &h, &iv);
	tap_ok(iv.index == 1 && iv.lat.count == 0 && iv.lat_run.count == 0 && !iv.has_arrival &&
		   !iv.host_counters && !iv.fpga_counters,
	       "first interval without events: empty, no counters");

	/* interval 2: latencies 1..100 us */
	for (i = 1; i <= 100; i++) {
		series_add(&h.lat, i, i * 1000ull);
	}
	h.c.events = 300;
	set_counters(&h, false, 1000, 0);
	live_close(&a, &h, &iv);
	tap_ok(iv.index == 2 && iv.lat.count == 100 && iv.lat.p50 == 50000 && iv.lat.p99 == 99000 &&
		   iv.lat.p999 == 100000 && iv.lat.max == 100000,
	       "interval 2: its 100 doorbells, nearest ranks (p50 50 us, p99 99 us, max 100 us)");
	tap_ok(iv.events == 300 && iv.events_run == 300, "interval 2: 300 events");
	tap_ok(iv.host_counters && iv.host.delivered == 1000 && iv.host.lost == 0 &&
		   iv.host.rate == 0.0,
	       "interval 2: 1000 samples delivered, none lost");

	/* interval 3: one stall of 5 ms among 9 quick doorbells, 10 samples lost of 1010 */
	for (i = 0; i < 9; i++) {
		series_add(&h.lat, 200 + i, 2000);
	}
	series_add(&h.lat, 300, 5000000);
	h.c.events = 340;
	set_counters(&h, false, 2000, 10);
	set_counters(&h, true, 500, 0);
	live_close(&a, &h, &iv);
	tap_ok(iv.lat.count == 10 && iv.lat.p50 == 2000 && iv.lat.max == 5000000 &&
		   iv.lat.p99 == 5000000,
	       "interval 3: only its 10 doorbells (p50 2 us, p99 = max = the 5 ms stall)");
	tap_ok(iv.lat_run.count == 110 && iv.lat_run.max == 5000000 && iv.lat_run.p50 == 46000,
	       "interval 3: the run so far, 110 doorbells (p50 46 us: rank 55 of the sorted run)");
	tap_ok(iv.events == 40 && iv.events_run == 340, "interval 3: 40 events, 340 in the run");
	tap_ok(iv.host.delivered == 1000 && iv.host.lost == 10 && iv.host.rate == 10.0 / 1010.0 &&
		   iv.host_run.delivered == 2000 && iv.host_run.lost == 10 &&
		   iv.host_run.rate == 10.0 / 2010.0,
	       "interval 3: drop rate 10 of 1010 samples, run 10 of 2010");
	tap_ok(iv.fpga_counters && iv.fpga.delivered == 500 && iv.fpga_run.delivered == 500,
	       "interval 3: the emulator's first counter snapshot");

	/* interval 4: the source restarted (a new process): its totals are new */
	set_counters(&h, false, 300, 1);
	series_add(&h.lat_arrival, 400, 7000);
	live_close(&a, &h, &iv);
	tap_ok(iv.host.delivered == 300 && iv.host.lost == 1,
	       "interval 4: counters lower than before count as a restart, not a negative change");
	tap_ok(iv.lat.count == 0 && iv.lat_run.count == 110,
	       "interval 4: no new doorbell, the run so far unchanged");
	tap_ok(iv.has_arrival && iv.arrival.count == 1 && iv.arrival.p50 == 7000 &&
		   iv.arrival_run.count == 1,
	       "interval 4: latency from arrival, once the trace carries it");
	ha_free(&h);
}

static void test_together(void)
{
	struct host_analysis a, b;
	const struct host_analysis *hs[2] = { &a, &b };
	struct live_acc acc[2];
	struct live_interval per[2], all;
	size_t lat_from[2], arrival_from[2];
	unsigned int i;

	if (ha_init(&a) || ha_init(&b)) {
		tap_ok(0, "ha_init");
		return;
	}
	live_init(&acc[0]);
	live_init(&acc[1]);
	/* interval 1: host a 1..10 us, host b 100 and 200 us */
	for (i = 1; i <= 10; i++) {
		series_add(&a.lat, i, i * 1000ull);
	}
	series_add(&b.lat, 1, 100000);
	series_add(&b.lat, 2, 200000);
	set_counters(&a, false, 900, 100);
	a.c.events = 30;
	b.c.events = 6;
	for (i = 0; i < 2; i++) {
		lat_from[i] = acc[i].lat_mark;
		arrival_from[i] = acc[i].arrival_mark;
		live_close(&acc[i], hs[i], &per[i]);
	}
	live_together(hs, lat_from, arrival_from, per, 2, &all);
	tap_ok(all.lat.count == 12 && all.lat_run.count == 12 && all.lat.max == 200000 &&
		   all.lat.p50 == 6000 && all.lat.p99 == 200000,
	       "together: the union of both hosts' doorbells (12, p50 6 us at rank 6, max 200 us)");
	tap_ok(all.events == 36 && all.host_counters && all.host.lost == 100 &&
		   all.host.rate == 0.1 && !all.fpga_counters,
	       "together: events and drops summed (100 of 1000 samples)");
	tap_ok(!all.has_arrival, "together: from arrival only when every host's trace has it");

	/* interval 2: only host b, one 1 ms doorbell */
	series_add(&b.lat, 3, 1000000);
	for (i = 0; i < 2; i++) {
		lat_from[i] = acc[i].lat_mark;
		arrival_from[i] = acc[i].arrival_mark;
		live_close(&acc[i], hs[i], &per[i]);
	}
	live_together(hs, lat_from, arrival_from, per, 2, &all);
	tap_ok(all.lat.count == 1 && all.lat.p50 == 1000000 && all.lat_run.count == 13 &&
		   all.lat_run.max == 1000000,
	       "together, interval 2: its one doorbell; the run so far all 13");
	ha_free(&a);
	ha_free(&b);
}

static void test_sparkline(void)
{
	const uint64_t v[5] = { 0, 1, 4, 8, 7 };
	const uint64_t big[2] = { UINT64_MAX, UINT64_MAX / 2 };
	char buf[64];

	live_sparkline(buf, sizeof(buf), v, 5);
	tap_ok(!strcmp(buf, " \u2581\u2584\u2588\u2587"),
	       "sparkline: a space for no doorbell, eighths of the largest rounded up: '%s'", buf);
	live_sparkline(buf, 8, v, 5);
	tap_ok(!strcmp(buf, " \u2581\u2584"),
	       "sparkline: stops whole when the buffer is full: '%s'", buf);
	live_sparkline(buf, sizeof(buf), big, 2);
	tap_ok(!strcmp(buf, "\u2588\u2584"), "sparkline: values near 2^64 do not overflow: '%s'",
	       buf);
}

int main(void)
{
	test_quantiles_match_summary();
	test_intervals();
	test_together();
	test_sparkline();
	return tap_done();
}
