// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the streaming percentiles (analysis/engine/loglin_hist.c) and of the
 * series of analysis/engine/stats.c: every bucket's edges, the percentiles of
 * adversarial distributions within LLH_REL_ERROR of the exact (sorted) ones,
 * merging, empty and one-value histograms, the exact limit (n = limit sorted,
 * n = limit + 1 from the histogram, everything but p50..p99.9 identical either
 * way), and a series written to its file past SERIES_MEM_SAMPLES: read back
 * whole from any sample, the same statistics as one kept in memory (its file
 * could not be made), the file unlinked; the join of wire and trace reads its
 * four parallel series from their files as from memory.
 */
#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dgrdma/stats.h>

#include "join.h"
#include "loglin_hist.h"
#include "stats.h"
#include "../unit/tap.h"

static const unsigned int per_mille[] = { 1, 100, 500, 900, 990, 999, 1000 };
#define N_PM (sizeof(per_mille) / sizeof(per_mille[0]))

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* uniform in [0, 1) */
static double rng_unit(void)
{
	return (double)(rng() >> 11) / 9007199254740992.0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* |got - exact| <= exact x LLH_REL_ERROR, in integers: 2048 |got - exact| <= exact */
static int within_bound(uint64_t got, uint64_t exact)
{
	unsigned __int128 d = got > exact ? got - exact : exact - got;

	return d * (2 * LLH_SUB_COUNT) <= (unsigned __int128)exact;
}

/* The histogram's percentiles of v[0..n) against the sorted ones; v is sorted on return. */
static void check_distribution(const char *name, uint64_t *v, size_t n)
{
	struct loglin_hist h;
	unsigned int k;
	int all = 1;
	double worst = 0;
	size_t i;

	if (!tap_ok(llh_init(&h) == 0, "%s: histogram allocated", name)) {
		return;
	}
	for (i = 0; i < n; i++) {
		llh_add(&h, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (k = 0; k < N_PM; k++) {
		uint64_t exact = dgr_percentile_nearest_rank(v, n, per_mille[k]);
		uint64_t got = llh_percentile(&h, per_mille[k]);

		if (!within_bound(got, exact)) {
			tap_diag("%s: p%.1f got %" PRIu64 ", exact %" PRIu64, name,
				 per_mille[k] / 10.0, got, exact);
			all = 0;
		}
		if (exact && fabs((double)got - (double)exact) / (double)exact > worst) {
			worst = fabs((double)got - (double)exact) / (double)exact;
		}
	}
	tap_ok(all, "%s (%zu values): p0.1..p100 within 1/2048 of exact (worst %.6f%%)", name, n,
	       100 * worst);
	TAP_EQ_U(h.n, n, "%s: count exact", name);
	TAP_EQ_U(h.min, v[0], "%s: min exact", name);
	TAP_EQ_U(llh_percentile(&h, 1000), v[n - 1], "%s: p100 is the exact max", name);
	llh_free(&h);
}

static void test_buckets(void)
{
	unsigned int i;
	int edges = 1, width = 1;

	TAP_EQ_U(llh_bucket(0), 0, "0 has bucket 0");
	TAP_EQ_U(llh_bucket(2047), 2047, "2047 ns has a bucket of its own");
	TAP_EQ_U(llh_bucket(2048), 2048, "2048 ns opens the first log-linear bucket");
	TAP_EQ_U(llh_bucket(2049), 2048, "2049 ns shares it (width 2)");
	TAP_EQ_U(llh_bucket(UINT64_MAX), LLH_BUCKETS - 1, "UINT64_MAX is in the last bucket");
	TAP_EQ_U(llh_bucket_hi(LLH_BUCKETS - 1), UINT64_MAX, "the last bucket ends at UINT64_MAX");
	for (i = 0; i < LLH_BUCKETS; i++) {
		uint64_t lo = llh_bucket_lo(i), hi = llh_bucket_hi(i);

		if (llh_bucket(lo) != i || llh_bucket(hi) != i ||
		    (i + 1 < LLH_BUCKETS && llh_bucket_lo(i + 1) != hi + 1)) {
			edges = 0;
		}
		/* width <= lo / 1024 */
		if ((hi - lo + 1) * (unsigned __int128)LLH_SUB_COUNT > (unsigned __int128)lo &&
		    hi != lo) {
			width = 0;
		}
	}
	tap_ok(edges, "all %u buckets: both edges map back, each starts where the last ended",
	       LLH_BUCKETS);
	tap_ok(width, "every bucket wider than one value is at most 1/1024 of its lower edge");
}

static void test_distributions(void)
{
	size_t n = 200000, i;
	uint64_t *v = malloc(n * sizeof(*v));

	if (!tap_ok(v != NULL, "memory for the distributions")) {
		return;
	}
	/* bimodal: 99.5% near 20 us, 0.5% near 40 ms (a stall mode above p99) */
	for (i = 0; i < n; i++) {
		v[i] = rng() % 1000 < 995 ? 20000 + rng() % 3000 : 40000000 + rng() % 5000000;
	}
	check_distribution("bimodal", v, n);
	/* heavy tail: Pareto, alpha 1.1, from 5 us */
	for (i = 0; i < n; i++) {
		v[i] = (uint64_t)(5000.0 / pow(1.0 - rng_unit(), 1.0 / 1.1));
	}
	check_distribution("Pareto tail", v, n);
	/* log-uniform over 1 ns .. 10 s */
	for (i = 0; i < n; i++) {
		v[i] = (uint64_t)exp(rng_unit() * log(1e10));
	}
	check_distribution("log-uniform 1 ns .. 10 s", v, n);
	/* constant: every percentile is the value itself */
	for (i = 0; i < n; i++) {
		v[i] = 123456789;
	}
	check_distribution("constant 123456789 ns", v, n);
	/* small values have buckets of their own: exact */
	for (i = 0; i < n; i++) {
		v[i] = rng() % 2048;
	}
	check_distribution("0 .. 2047 ns", v, n);
	/* each value on a bucket's upper edge, the worst place for the middle */
	for (i = 0; i < n; i++) {
		v[i] = llh_bucket_hi(2048 + (unsigned int)(rng() % (LLH_BUCKETS - 2048)));
	}
	check_distribution("bucket upper edges up to UINT64_MAX", v, n);
	free(v);
}

static void test_merge_and_edges(void)
{
	struct loglin_hist a, b, all;
	unsigned int k;
	int same = 1;
	uint64_t i;

	if (llh_init(&a) || llh_init(&b) || llh_init(&all)) {
		tap_ok(0, "merge: histograms allocated");
		return;
	}
	TAP_EQ_U(llh_percentile(&a, 500), 0, "empty: p50 is 0");
	for (i = 0; i < 50000; i++) {
		uint64_t x = 1000 + rng() % 100000000, y = 3 * x + 7;

		llh_add(&a, x);
		llh_add(&b, y);
		llh_add(&all, x);
		llh_add(&all, y);
	}
	llh_merge(&a, &b);
	for (k = 0; k < N_PM; k++) {
		same =
		    same && llh_percentile(&a, per_mille[k]) == llh_percentile(&all, per_mille[k]);
	}
	tap_ok(same && a.n == all.n && a.min == all.min && a.max == all.max,
	       "merge: the union's count, min, max and percentiles");
	llh_free(&b);
	if (llh_init(&b)) {
		tap_ok(0, "merge: histogram allocated");
		return;
	}
	llh_merge(&a, &b);
	TAP_EQ_U(a.n, all.n, "merging an empty histogram changes nothing");
	llh_merge(&b, &a);
	TAP_EQ_U(llh_percentile(&b, 990), llh_percentile(&all, 990),
		 "merging into an empty histogram copies it");
	llh_free(&a);
	llh_free(&b);
	llh_free(&all);

	if (llh_init(&a)) {
		return;
	}
	llh_add(&a, 987654321);
	TAP_EQ_U(llh_percentile(&a, 1), 987654321, "one value: p0.1 is the value (clamped)");
	TAP_EQ_U(llh_percentile(&a, 999), 987654321, "one value: p99.9 is the value");
	llh_add(&a, UINT64_MAX);
	TAP_EQ_U(llh_percentile(&a, 1000), UINT64_MAX, "UINT64_MAX counted and reported");
	TAP_EQ_U(llh_percentile(&a, 500), 987654321, "two values: p50 is rank 1");
	llh_free(&a);
}

/* Summaries of the same series with the limit at n (sorted) and n - 1 (histogram). */
static void test_switch_over(void)
{
	struct series s;
	struct summary ex, hi;
	struct quantiles qe, qh;
	const size_t n = 20000;
	uint64_t t = 0, *v;
	size_t i;

	series_init(&s);
	v = malloc(n * sizeof(*v));
	for (i = 0; v && i < n; i++) {
		uint64_t lat = i % 997 == 0 ? 30000000 + rng() % 1000000 : 15000 + rng() % 40000;

		t += 50000;
		if (series_add(&s, t, lat)) {
			break;
		}
		v[i] = lat;
	}
	if (!tap_ok(v && s.n == n, "switch-over: a series of %zu doorbells", n)) {
		free(v);
		series_free(&s);
		return;
	}
	TAP_EQ_U(stats_exact_limit(), STATS_EXACT_LIMIT, "the default exact limit");
	stats_set_exact_limit(n);
	tap_ok(series_summarise(&s, t, 20000000, &ex) == 0 && !ex.from_histogram,
	       "n = limit: exact percentiles");
	qsort(v, n, sizeof(*v), cmp_u64);
	TAP_EQ_U(ex.p999, dgr_percentile_nearest_rank(v, n, 999), "n = limit: p99.9 is sorted");
	tap_ok(series_quantiles(&s, 0, n, &qe) == 0 && !qe.from_histogram,
	       "n = limit: series_quantiles exact too");
	stats_set_exact_limit(n - 1);
	tap_ok(series_summarise(&s, t, 20000000, &hi) == 0 && hi.from_histogram,
	       "n = limit + 1: percentiles from the histogram, and said so");
	tap_ok(within_bound(hi.p50, ex.p50) && within_bound(hi.p90, ex.p90) &&
		   within_bound(hi.p99, ex.p99) && within_bound(hi.p999, ex.p999),
	       "n = limit + 1: p50, p90, p99, p99.9 within 1/2048 of the exact ones");
	tap_ok(hi.count == ex.count && hi.min == ex.min && hi.max == ex.max && hi.mean == ex.mean &&
		   !memcmp(hi.hist, ex.hist, sizeof(hi.hist)) &&
		   hi.above_tolerable == ex.above_tolerable &&
		   hi.time_above_fraction == ex.time_above_fraction,
	       "count, min, max, mean, log2 bins, above T and time above T identical either way");
	TAP_EQ_I(hi.margin_ns, (int64_t)20000000 - (int64_t)hi.p999,
		 "the margin is T - the reported p99.9");
	tap_ok(series_quantiles(&s, 0, n, &qh) == 0 && qh.from_histogram && qh.p50 == hi.p50 &&
		   qh.p99 == hi.p99 && qh.p999 == hi.p999 && qh.max == ex.max,
	       "series_quantiles above the limit: the summary's values, exact max");
	tap_ok(series_quantiles(&s, 1, n, &qh) == 0 && !qh.from_histogram,
	       "a range of exactly the limit is sorted");
	TAP_EQ_U(stats_set_exact_limit(0), STATS_EXACT_LIMIT, "0 restores the default");
	free(v);
	series_free(&s);
}

/* the i-th sample of the spill tests */
static struct sample nth(size_t i)
{
	struct sample x = { 1000 + 20000 * (uint64_t)i, 9000 + (i * 2654435761u) % 500000 };

	if (i % 50000 == 7) {
		x.value = 90000000; /* a stall now and then */
	}
	return x;
}

static size_t files_in(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d))) {
		n += e->d_name[0] != '.';
	}
	if (d) {
		closedir(d);
	}
	return n;
}

static int read_back(const struct series *s, size_t from)
{
	struct series_cursor *c = malloc(sizeof(*c));
	struct sample x, want;
	size_t i = from;
	int ok = c != NULL;

	if (c) {
		series_cursor_init(c, s, from);
		while (ok && series_next(c, &x)) {
			want = nth(i++);
			ok = x.t == want.t && x.value == want.value;
		}
		ok = ok && i == s->n && c->err == 0;
	}
	free(c);
	return ok;
}

static void test_spill(void)
{
	const size_t n = 4 * SERIES_MEM_SAMPLES + 12345;
	char dir[] = "/tmp/test_stats.XXXXXX", missing[64];
	struct series disk, mem;
	struct summary sd, sm;
	struct quantiles qd, qm;
	size_t i;
	int added = 1;

	if (!mkdtemp(dir)) {
		tap_ok(0, "spill: a temporary folder");
		return;
	}
	snprintf(missing, sizeof(missing), "%s/missing", dir);
	series_init(&disk);
	series_init(&mem);
	setenv("TMPDIR", dir, 1);
	for (i = 0; i < n; i++) {
		added = added && !series_add(&disk, nth(i).t, nth(i).value);
	}
	setenv("TMPDIR", missing, 1);
	for (i = 0; i < n; i++) {
		added = added && !series_add(&mem, nth(i).t, nth(i).value);
	}
	unsetenv("TMPDIR");
	tap_ok(added, "spill: %zu samples added to both series", n);
	tap_ok(disk.spilling && disk.n_spilled == 4 * SERIES_MEM_SAMPLES &&
		   disk.cap == SERIES_MEM_SAMPLES,
	       "past %u samples the series writes full blocks and keeps one block in memory",
	       SERIES_MEM_SAMPLES);
	TAP_EQ_U(files_in(dir), 0, "the file is unlinked at once (nothing left in TMPDIR)");
	tap_ok(!mem.spilling && mem.spill_failed && mem.n_spilled == 0 && mem.cap >= n,
	       "no file can be made: the samples stay in memory");
	tap_ok(read_back(&disk, 0), "read back whole, in order, from the file and memory");
	tap_ok(read_back(&disk, SERIES_MEM_SAMPLES - 1) && read_back(&disk, SERIES_MEM_SAMPLES) &&
		   read_back(&disk, 3 * SERIES_MEM_SAMPLES + 1000) &&
		   read_back(&disk, disk.n_spilled) && read_back(&disk, n - 1),
	       "read back from a block's edge, the middle, the memory part, the last sample");
	tap_ok(read_back(&mem, 0), "the in-memory series reads back the same");
	tap_ok(series_summarise(&disk, nth(n).t, 40000000, &sd) == 0 &&
		   series_summarise(&mem, nth(n).t, 40000000, &sm) == 0 &&
		   !memcmp(&sd, &sm, sizeof(sd)) && !sd.from_histogram,
	       "the same summary (exact, every field) from the file as from memory");
	tap_ok(series_quantiles(&disk, SERIES_MEM_SAMPLES - 3, n - 5, &qd) == 0 &&
		   series_quantiles(&mem, SERIES_MEM_SAMPLES - 3, n - 5, &qm) == 0 &&
		   !memcmp(&qd, &qm, sizeof(qd)) && qd.count == n - 5 - SERIES_MEM_SAMPLES + 3,
	       "the same quantiles of a range across blocks");
	stats_set_exact_limit(1000);
	tap_ok(series_summarise(&disk, nth(n).t, 40000000, &sd) == 0 &&
		   series_summarise(&mem, nth(n).t, 40000000, &sm) == 0 &&
		   !memcmp(&sd, &sm, sizeof(sd)) && sd.from_histogram,
	       "the same summary above the exact limit (histogram)");
	stats_set_exact_limit(0);
	series_free(&disk);
	series_free(&mem);
	tap_ok(disk.n == 0 && !disk.spilling && rmdir(dir) == 0, "freed; the folder removed");
}

/* n doorbells of a wire side and a host side (with handed, arrival and txn) into w[4] and h[4] */
/* The orders a side's doorbells are recorded in: the j-th recorded is doorbell order(j, n). */
static size_t in_order(size_t j, size_t n)
{
	(void)n;
	return j;
}

static size_t blocks_reversed(size_t j, size_t n)
{
	size_t b = j - j % 100, last = b + 99 < n ? b + 99 : n - 1;

	return last - (j - b);
}

static size_t all_reversed(size_t j, size_t n)
{
	return n - 1 - j;
}

static int join_sides_in(struct series *w, struct series *h, size_t n,
			 size_t (*order)(size_t, size_t))
{
	int ret = 0;
	size_t i, j;

	for (i = 0; i < 4; i++) {
		series_init(&w[i]);
		series_init(&h[i]);
	}
	for (j = 0; j < n && !ret; j++) {
		uint64_t t, lat;

		i = order(j, n);
		t = 1000 + 30000 * (uint64_t)i;
		lat = 9000 + (i * 7919) % 20000;

		/* every 1000th doorbell is missing from the trace */
		ret |= series_add(&w[0], t, lat) | series_add(&w[3], t, i + 1);
		if (i % 1000 == 999) {
			continue;
		}
		ret |= series_add(&h[0], t + 300, lat - 500) |
		       series_add(&h[1], t + 300, lat - 700) | series_add(&h[2], t + 300, t - 50) |
		       series_add(&h[3], t + 300, i + 1);
	}
	return ret;
}

static int join_sides(struct series *w, struct series *h, size_t n)
{
	return join_sides_in(w, h, n, in_order);
}

static void free_sides(struct series *w, struct series *h)
{
	size_t i;

	for (i = 0; i < 4; i++) {
		series_free(&w[i]);
		series_free(&h[i]);
	}
}

static int same_series(const struct series *a, const struct series *b)
{
	struct series_cursor *ca = malloc(sizeof(*ca)), *cb = malloc(sizeof(*cb));
	struct sample x, y;
	int same = ca && cb && a->n == b->n;

	if (same) {
		series_cursor_init(ca, a, 0);
		series_cursor_init(cb, b, 0);
		while (same && series_next(ca, &x)) {
			same = series_next(cb, &y) && x.t == y.t && x.value == y.value;
		}
	}
	free(ca);
	free(cb);
	return same;
}

static void test_join_spilled(void)
{
	const size_t n = 2 * SERIES_MEM_SAMPLES + 777;
	char dir[] = "/tmp/test_stats_join.XXXXXX", missing[64];
	struct series wd[4], hd[4], wm[4], hm[4];
	struct join_series jd, jm;
	struct join_result rd, rm;
	int ok;

	if (!mkdtemp(dir)) {
		tap_ok(0, "join: a temporary folder");
		return;
	}
	snprintf(missing, sizeof(missing), "%s/missing", dir);
	setenv("TMPDIR", dir, 1);
	ok = join_sides(wd, hd, n) == 0;
	setenv("TMPDIR", missing, 1);
	ok = ok && join_sides(wm, hm, n) == 0;
	unsetenv("TMPDIR");
	tap_ok(ok && wd[0].spilling && hd[1].spilling && !wm[0].spilling && !hm[1].spilling,
	       "join: %zu doorbells a side, in files and in memory", n);
	join_series_init(&jd);
	join_series_init(&jm);
	{
		const struct join_side ws = { .lat = &wd[0], .txn = &wd[3] };
		const struct join_side hs = {
			.lat = &hd[0], .handed = &hd[1], .arrival = &hd[2], .txn = &hd[3]
		};
		const struct join_side wsm = { .lat = &wm[0], .txn = &wm[3] };
		const struct join_side hsm = {
			.lat = &hm[0], .handed = &hm[1], .arrival = &hm[2], .txn = &hm[3]
		};

		join_wire_host(&ws, &hs, 5000, &jd, &rd);
		join_wire_host(&wsm, &hsm, 5000, &jm, &rm);
	}
	TAP_EQ_U(rd.joined, n - n / 1000, "join: every doorbell of the trace joined");
	tap_ok(!memcmp(&rd, &rm, sizeof(rd)) && same_series(&jd.w2s, &jm.w2s) &&
		   same_series(&jd.s2w, &jm.s2w) &&
		   same_series(&jd.arrival_offset, &jm.arrival_offset) &&
		   jd.arrival_offset.n == rd.joined,
	       "join: the same counts and parts from the files as from memory");
	join_series_free(&jd);
	join_series_free(&jm);
	free_sides(wd, hd);
	free_sides(wm, hm);
	rmdir(dir);
}

/* A side recorded out of doorbell order is joined as if recorded in it (sorted whole past the
 * heap). */
static void test_join_order(void)
{
	const size_t n = 2 * SERIES_MEM_SAMPLES + 777;
	static size_t (*const orders[])(size_t, size_t) = { in_order, blocks_reversed,
							    all_reversed };
	static const char *const names[] = { "in order", "reversed by blocks of 100",
					     "reversed whole" };
	static const unsigned int in_memory[] = { 0, 0, 2 };
	struct series w0[4], h0[4], w[4], h[4];
	struct join_series j0, j;
	struct join_result r0, r;
	unsigned int o;

	if (join_sides(w0, h0, n)) {
		tap_ok(0, "join order: the sides");
		return;
	}
	join_series_init(&j0);
	{
		const struct join_side ws = { .lat = &w0[0], .txn = &w0[3] };
		const struct join_side hs = {
			.lat = &h0[0], .handed = &h0[1], .arrival = &h0[2], .txn = &h0[3]
		};

		join_wire_host(&ws, &hs, 5000, &j0, &r0);
	}
	TAP_EQ_U(r0.sides_in_memory, 0,
		 "join order: sides nearly in doorbell order go through the heap");
	for (o = 1; o < 3; o++) {
		const struct join_side ws = { .lat = &w[0], .txn = &w[3] };
		const struct join_side hs = {
			.lat = &h[0], .handed = &h[1], .arrival = &h[2], .txn = &h[3]
		};

		if (join_sides_in(w, h, n, orders[o])) {
			tap_ok(0, "join order: the sides %s", names[o]);
			continue;
		}
		join_series_init(&j);
		join_wire_host(&ws, &hs, 5000, &j, &r);
		TAP_EQ_U(r.sides_in_memory, in_memory[o],
			 "join order: sides %s, %u sorted in memory", names[o], in_memory[o]);
		r.sides_in_memory = 0;
		tap_ok(r.joined == r0.joined && !memcmp(&r, &r0, sizeof(r)) &&
			   same_series(&j.w2s, &j0.w2s) && same_series(&j.s2w, &j0.s2w) &&
			   same_series(&j.arrival_offset, &j0.arrival_offset),
		       "join order: sides %s give the pairs of sides in order (%" PRIu64 ")",
		       names[o], r.joined);
		join_series_free(&j);
		free_sides(w, h);
	}
	join_series_free(&j0);
	free_sides(w0, h0);
}

int main(void)
{
	test_buckets();
	test_distributions();
	test_merge_and_edges();
	test_switch_over();
	test_spill();
	test_join_spilled();
	test_join_order();
	return tap_done();
}
