// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of latency-report --live's interval accounting (analysis/input/live.c):
 * each interval holds exactly the doorbells and counter changes since the
 * last, the run so far all of them, with series_summarise's nearest ranks.
 */
#include <string.h>

#include "host_events.h"
#include "live.h"
#include "stats.h"
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
	char line[LIVE_HISTOGRAM_SIZE];
	unsigned int i, lo = 0, hi = 0;

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
	tap_ok(iv.hist[9] == 1 && iv.hist[10] == 1 && iv.hist[11] == 2 && iv.hist[12] == 4 &&
		   iv.hist[13] == 8 && iv.hist[14] == 16 && iv.hist[15] == 33 &&
		   iv.hist[16] == 35 && !memcmp(iv.hist, iv.hist_run, sizeof(iv.hist)),
	       "interval 2: its 100 doorbells in log2 bins (1 us in [512, 1024) ns ... 35 in "
	       "[65.536, 131.072) us), the run's the same");
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
	tap_ok(
	    iv.hist[10] == 9 && iv.hist[22] == 1 && iv.hist[16] == 0 && iv.hist_run[10] == 10 &&
		iv.hist_run[16] == 35 && iv.hist_run[22] == 1,
	    "interval 3: its histogram holds its 10 doorbells (9 in bin 10, the stall in bin 22), "
	    "the run's all 110");
	tap_ok(live_histogram_range(iv.hist_run, &lo, &hi) && lo == 9 && hi == 22,
	       "interval 3: the run's histogram spans bins 9..22");
	live_histogram(line, sizeof(line), iv.hist_run, lo, hi);
	tap_ok(!strcmp(line, "512 ns \u2595\u2581\u2583\u2581\u2581\u2582\u2584\u2588\u2588     "
			     "\u2581\u258f 8.389 ms"),
	       "interval 3: the run's histogram line: '%s'", line);
	live_histogram(line, sizeof(line), iv.hist, lo, hi);
	tap_ok(!strcmp(line, "512 ns \u2595 \u2588           \u2581\u258f 8.389 ms"),
	       "interval 3: its own histogram on the run's bins, lined up: '%s'", line);
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
	tap_ok(iv.arrival_hist[12] == 1 && iv.arrival_hist_run[12] == 1 && iv.hist_run[10] == 10 &&
		   !live_histogram_range(iv.hist, &lo, &hi),
	       "interval 4: from arrival in its own histogram; no doorbell, an empty interval "
	       "histogram; the run's kept");
	live_free(&a);
	ha_free(&h);
}

static void test_together(void)
{
	struct host_analysis a, b;
	const struct host_analysis *hs[2] = { &a, &b };
	struct live_acc acc[2];
	const struct live_acc *accs[2] = { &acc[0], &acc[1] };
	struct live_interval per[2], all;
	size_t lat_from[2], arrival_from[2], wire_from[2], wire_mark[2] = { 0, 0 };
	struct series wa, wb;
	const struct series *wires[2] = { &wa, &wb };
	unsigned int i;

	series_init(&wa);
	series_init(&wb);
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
	/* on the wire (--live-follow, one capture each): a 10, 20, 30 us, b 1 ms */
	series_add(&wa, 1, 10000);
	series_add(&wa, 2, 20000);
	series_add(&wa, 3, 30000);
	series_add(&wb, 1, 1000000);
	for (i = 0; i < 2; i++) {
		lat_from[i] = acc[i].lat_mark;
		arrival_from[i] = acc[i].arrival_mark;
		wire_from[i] = wire_mark[i];
		live_close(&acc[i], hs[i], &per[i]);
		live_close_wire(&wire_mark[i], &acc[i].wire_h, wires[i], &per[i]);
	}
	live_together(hs, accs, lat_from, arrival_from, NULL, wire_from, per, 2, &all);
	tap_ok(!all.has_wire, "together without a wire: none");
	live_together(hs, accs, lat_from, arrival_from, wires, wire_from, per, 2, &all);
	tap_ok(all.has_wire && all.wire.count == 4 && all.wire.p50 == 20000 &&
		   all.wire.max == 1000000 && all.wire_run.count == 4,
	       "together on the wire: the union of both captures' doorbells (4, p50 20 us at "
	       "rank 2, max 1 ms)");
	tap_ok(all.lat.count == 12 && all.lat_run.count == 12 && all.lat.max == 200000 &&
		   all.lat.p50 == 6000 && all.lat.p99 == 200000,
	       "together: the union of both hosts' doorbells (12, p50 6 us at rank 6, max 200 us)");
	tap_ok(all.events == 36 && all.host_counters && all.host.lost == 100 &&
		   all.host.rate == 0.1 && !all.fpga_counters,
	       "together: events and drops summed (100 of 1000 samples)");
	tap_ok(!all.has_arrival, "together: from arrival only when every host's trace has it");
	tap_ok(all.hist[12] == 4 && all.hist[16] == 1 && all.hist[17] == 1 &&
		   !memcmp(all.hist, all.hist_run, sizeof(all.hist)),
	       "together: the hosts' histograms summed (5..8 us of a, 100 and 200 us of b)");

	/* interval 2: only host b, one 1 ms doorbell; on the wire b 5 us */
	series_add(&b.lat, 3, 1000000);
	series_add(&wb, 2, 5000);
	for (i = 0; i < 2; i++) {
		lat_from[i] = acc[i].lat_mark;
		arrival_from[i] = acc[i].arrival_mark;
		wire_from[i] = wire_mark[i];
		live_close(&acc[i], hs[i], &per[i]);
		live_close_wire(&wire_mark[i], &acc[i].wire_h, wires[i], &per[i]);
	}
	live_together(hs, accs, lat_from, arrival_from, wires, wire_from, per, 2, &all);
	tap_ok(all.wire.count == 1 && all.wire.p50 == 5000 && all.wire_run.count == 5 &&
		   all.wire_run.p50 == 20000 && all.wire_run.max == 1000000,
	       "together on the wire, interval 2: b's one doorbell; the run so far all 5 (p50 "
	       "20 us)");
	tap_ok(all.lat.count == 1 && all.lat.p50 == 1000000 && all.lat_run.count == 13 &&
		   all.lat_run.max == 1000000,
	       "together, interval 2: its one doorbell; the run so far all 13");
	tap_ok(all.hist[19] == 1 && all.hist[16] == 0 && all.hist_run[19] == 1 &&
		   all.hist_run[16] == 1 && all.hist_run[12] == 4,
	       "together, interval 2: the histogram of its one doorbell; the run's of all 13");
	live_free(&acc[0]);
	live_free(&acc[1]);
	ha_free(&a);
	ha_free(&b);
	series_free(&wa);
	series_free(&wb);
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

static void test_histogram(void)
{
	uint64_t h[HIST_BINS] = { 0 }, one[HIST_BINS] = { 0 };
	char buf[LIVE_HISTOGRAM_SIZE];
	unsigned int lo = 99, hi = 99;

	tap_ok(!live_histogram_range(h, &lo, &hi) && lo == 99 && hi == 99,
	       "histogram: an empty one has no range");
	h[12] = 1;
	h[13] = 8;
	h[15] = 3;
	one[13] = 2;
	tap_ok(live_histogram_range(h, &lo, &hi) && lo == 12 && hi == 15,
	       "histogram: the range runs from the first bin with a doorbell to the last");
	live_histogram(buf, sizeof(buf), h, lo, hi);
	tap_ok(!strcmp(buf, "4.096 us \u2595\u2581\u2588 \u2583\u258f 65.536 us"),
	       "histogram: edges 2^12 and 2^16 ns, eighths of the largest bin rounded up, a "
	       "space for an empty bin: '%s'",
	       buf);
	live_histogram(buf, sizeof(buf), one, lo, hi);
	tap_ok(!strcmp(buf, "4.096 us \u2595 \u2588  \u258f 65.536 us"),
	       "histogram: another drawn on the same bins lines up: '%s'", buf);
	memset(h, 0, sizeof(h));
	h[0] = 5;
	h[HIST_BINS - 1] = 5;
	live_histogram(buf, sizeof(buf), h, 0, HIST_BINS - 1);
	tap_ok(strlen(buf) > 0 &&
		   !strncmp(buf, "0 ns \u2595\u2588 ", strlen("0 ns \u2595\u2588 ")) &&
		   strstr(buf, "\u2588\u258f 1099.512 s") &&
		   strlen(buf) == strlen("0 ns  1099.512 s") + 3 * 2 + 2 * 3 + 38,
	       "histogram: all 40 bins, from 0 ns to 2^40 ns, fit LIVE_HISTOGRAM_SIZE: '%s'", buf);
	live_histogram(buf, 20, h, 0, HIST_BINS - 1);
	tap_ok(!strcmp(buf, ""),
	       "histogram: a buffer too small gives an empty line, not a cut one");
	live_histogram(buf, sizeof(buf), h, 5, 4);
	tap_ok(!strcmp(buf, ""), "histogram: a reversed range gives an empty line");
	live_histogram(buf, sizeof(buf), h, 0, HIST_BINS);
	tap_ok(!strcmp(buf, ""), "histogram: a bin past the last gives an empty line");
}

/* Past the exact limit the run's quantiles come from the histogram kept across closes. */
static void test_run_past_limit(void)
{
	struct host_analysis h;
	struct live_acc a;
	struct live_interval iv;
	struct quantiles q;
	struct series wire;
	size_t wire_mark = 0;
	unsigned int i, k, same = 1, histogram = 0;

	if (ha_init(&h)) {
		tap_ok(0, "ha_init");
		return;
	}
	series_init(&wire);
	live_init(&a);
	stats_set_exact_limit(250);
	for (k = 0; k < 6; k++) {
		for (i = 0; i < 100; i++) {
			uint64_t v = 5000 + (k * 100 + i) * 7919ull % 400000;

			series_add(&h.lat, k * 100 + i, k == 4 && i == 7 ? 90000000 : v);
			series_add(&h.lat_arrival, k * 100 + i, v + 3000);
			series_add(&wire, k * 100 + i, v + 11 * i);
		}
		live_close(&a, &h, &iv);
		live_close_wire(&wire_mark, &a.wire_h, &wire, &iv);
		series_quantiles(&h.lat, 0, h.lat.n, &q);
		same = same && !memcmp(&q, &iv.lat_run, sizeof(q));
		series_quantiles(&h.lat_arrival, 0, h.lat_arrival.n, &q);
		same = same && !memcmp(&q, &iv.arrival_run, sizeof(q));
		series_quantiles(&wire, 0, wire.n, &q);
		same = same && !memcmp(&q, &iv.wire_run, sizeof(q)) && wire_mark == wire.n;
		histogram += iv.lat_run.from_histogram + iv.wire_run.from_histogram;
		same = same && !iv.lat.from_histogram && iv.lat.count == 100 &&
		       !iv.wire.from_histogram && iv.wire.count == 100;
	}
	tap_ok(same, "limit 250: every run's quantiles (in-host, from arrival, wire) those of the "
		     "whole series, the intervals exact");
	TAP_EQ_U(histogram, 8,
		 "the runs of 300..600 doorbells from the histograms, 100 and 200 sorted");
	TAP_EQ_U(iv.lat_run.max, 90000000, "the run's max exact");
	TAP_EQ_U(a.lat_h.n, 600, "the histogram holds each doorbell once");
	stats_set_exact_limit(0);
	live_free(&a);
	TAP_EQ_U(a.lat_h.n + (a.lat_h.counts != NULL) + (a.wire_h.counts != NULL), 0,
		 "live_free releases them");
	series_free(&wire);
	ha_free(&h);
}

/*
 * Several hosts past the exact limit: the run's quantiles of the union come from the
 * hosts' run histograms merged, and equal those of one series holding every host's
 * values; a host whose histogram misses values (none kept) makes the union read the run.
 */
static void test_together_past_limit(void)
{
	struct host_analysis h[3];
	const struct host_analysis *hs[3] = { &h[0], &h[1], &h[2] };
	struct live_acc acc[3];
	const struct live_acc *accs[3] = { &acc[0], &acc[1], &acc[2] };
	struct series wire[3], all_lat, all_arrival, all_wire;
	const struct series *wires[3] = { &wire[0], &wire[1], &wire[2] };
	size_t lat_from[3], arrival_from[3], wire_from[3], wire_mark[3] = { 0 };
	struct live_interval per[3], together;
	struct quantiles q;
	unsigned int i, k, n, same = 1, histogram = 0, exact_interval = 1;

	series_init(&all_lat);
	series_init(&all_arrival);
	series_init(&all_wire);
	for (n = 0; n < 3; n++) {
		ha_init(&h[n]);
		series_init(&wire[n]);
		live_init(&acc[n]);
	}
	stats_set_exact_limit(250);
	for (k = 0; k < 5; k++) {
		for (n = 0; n < 3; n++) {
			/* host n: 40 + 10 n doorbells an interval, spread differently */
			for (i = 0; i < 40 + 10 * n; i++) {
				uint64_t t = k * 1000 + n * 100 + i;
				uint64_t v =
				    3000 + (t * (7919ull + n * 104729)) % (200000 * (n + 1));

				series_add(&h[n].lat, t, k == 3 && n == 2 && i == 5 ? 70000000 : v);
				series_add(&all_lat, t, k == 3 && n == 2 && i == 5 ? 70000000 : v);
				series_add(&h[n].lat_arrival, t, v + 2500);
				series_add(&all_arrival, t, v + 2500);
				series_add(&wire[n], t, v + 17 * i);
				series_add(&all_wire, t, v + 17 * i);
			}
			lat_from[n] = acc[n].lat_mark;
			arrival_from[n] = acc[n].arrival_mark;
			wire_from[n] = wire_mark[n];
			live_close(&acc[n], hs[n], &per[n]);
			live_close_wire(&wire_mark[n], &acc[n].wire_h, wires[n], &per[n]);
		}
		live_together(hs, accs, lat_from, arrival_from, wires, wire_from, per, 3,
			      &together);
		series_quantiles(&all_lat, 0, all_lat.n, &q);
		same = same && !memcmp(&q, &together.lat_run, sizeof(q));
		series_quantiles(&all_arrival, 0, all_arrival.n, &q);
		same = same && !memcmp(&q, &together.arrival_run, sizeof(q));
		series_quantiles(&all_wire, 0, all_wire.n, &q);
		same = same && !memcmp(&q, &together.wire_run, sizeof(q));
		series_quantiles(&all_lat, all_lat.n - 150, all_lat.n, &q);
		exact_interval =
		    exact_interval && !memcmp(&q, &together.lat, sizeof(q)) && !q.from_histogram;
		histogram += together.lat_run.from_histogram + together.arrival_run.from_histogram +
			     together.wire_run.from_histogram;
	}
	tap_ok(same, "three hosts, limit 250: the union's run quantiles (in-host, from arrival, "
		     "wire) those of one series of every host's doorbells, at every interval");
	TAP_EQ_U(histogram, 12,
		 "the runs of 300..750 doorbells from the merged histograms, 150 sorted");
	TAP_EQ_U(together.lat_run.max, 70000000, "the union's max exact");
	tap_ok(exact_interval, "the union's intervals (150 doorbells) exact");
	/*
	 * The run is not read again: the values before the interval changed behind the
	 * union's back leave its run quantiles as the histograms have them.
	 */
	q = together.lat_run;
	for (i = 0; i < 10; i++) {
		h[0].lat.s[i].value += 90000000;
	}
	live_together(hs, accs, lat_from, arrival_from, wires, wire_from, per, 3, &together);
	tap_ok(!memcmp(&q, &together.lat_run, sizeof(q)),
	       "past the limit the union reads only the interval, not the run again");
	for (i = 0; i < 10; i++) {
		h[0].lat.s[i].value -= 90000000;
	}
	/* a host's histogram without its values (as when memory for it ran out): read the run */
	llh_free(&acc[1].lat_h);
	live_together(hs, accs, lat_from, arrival_from, wires, wire_from, per, 3, &together);
	series_quantiles(&all_lat, 0, all_lat.n, &q);
	tap_ok(!memcmp(&q, &together.lat_run, sizeof(q)) && together.lat_run.from_histogram,
	       "a host's histogram missing: the union reads the run, the same quantiles");
	stats_set_exact_limit(0);
	for (n = 0; n < 3; n++) {
		live_free(&acc[n]);
		series_free(&wire[n]);
		ha_free(&h[n]);
	}
	series_free(&all_lat);
	series_free(&all_arrival);
	series_free(&all_wire);
}

int main(void)
{
	test_quantiles_match_summary();
	test_intervals();
	test_run_past_limit();
	test_together();
	test_together_past_limit();
	test_sparkline();
	test_histogram();
	return tap_done();
}
