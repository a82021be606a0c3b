// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of latency-report --plot-columns (analysis/output/plot_columns.c): doorbells in
 * any order, before the run's origin too, and latencies over seven decades go into at most 4 N
 * bins; each written column's count, min and max are exactly those of the doorbells of its
 * span (from_s..to_s, checked here against every doorbell), its p50 and p99 within 1/64 of the
 * exact nearest-rank ones; the histogram holds every doorbell; one instant is one column.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loglin_hist.h"
#include "plot_columns.h"
#include "../unit/tap.h"

#define N_BELLS 100000
#define COLUMNS 50

struct bell {
	int64_t t;
	uint64_t v;
};

static uint64_t rng_state = 88172645463325252ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* [-]S.NNNNNNNNN as ns; the parse ends at the next ',' or the line's end */
static int64_t parse_ns(const char *s)
{
	int neg = *s == '-';
	uint64_t sec, frac;

	if (sscanf(s + neg, "%" SCNu64 ".%9" SCNu64, &sec, &frac) != 2) {
		return INT64_MIN;
	}
	return (neg ? -1 : 1) * (int64_t)(sec * 1000000000u + frac);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int within(uint64_t got, uint64_t want)
{
	uint64_t d = got > want ? got - want : want - got;

	return d * 64 <= want;
}

/* Checks the rows of text against bells[0..n): returns the faults found, counts the rows. */
static unsigned int check_rows(char *text, const struct bell *bells, size_t n, unsigned int *rows,
			       uint64_t *total)
{
	uint64_t *vals = malloc(n * sizeof(*vals));
	unsigned int faults = 0;
	char *line, *save = NULL;

	*rows = 0;
	*total = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		uint64_t mn, p50, p99, mx, cnt, k = 0;
		double t;
		int64_t from, to;
		char *f;
		size_t i;

		if (!strncmp(line, "time_s", 6)) {
			continue;
		}
		(*rows)++;
		if (sscanf(line, "%lf,%" SCNu64 ",%" SCNu64 ",%" SCNu64 ",%" SCNu64 ",%" SCNu64 ",",
			   &t, &mn, &p50, &p99, &mx, &cnt) != 6) {
			faults++;
			continue;
		}
		f = strrchr(line, ',');
		to = parse_ns(f + 1);
		*f = '\0';
		from = parse_ns(strrchr(line, ',') + 1);
		for (i = 0; i < n; i++) {
			if (bells[i].t >= from && bells[i].t < to) {
				vals[k++] = bells[i].v;
			}
		}
		*total += cnt;
		if (k != cnt || k == 0) {
			faults++;
			continue;
		}
		qsort(vals, k, sizeof(*vals), cmp_u64);
		if (mn != vals[0] || mx != vals[k - 1] ||
		    !within(p50, vals[(500 * k + 999) / 1000 - 1]) ||
		    !within(p99, vals[(990 * k + 999) / 1000 - 1])) {
			faults++;
		}
	}
	free(vals);
	return faults;
}

int main(void)
{
	struct bell *bells = calloc(N_BELLS, sizeof(*bells));
	struct plot_columns pc;
	char *text = NULL, *hist = NULL;
	size_t size = 0, hsize = 0, i;
	unsigned int rows, bad = 0;
	uint64_t total = 0, sum = 0, lo, hi, cnt;
	FILE *fp;
	char *line, *save = NULL;

	/* the bucket rule with 32 per power of two: each bucket's range maps back to it */
	for (i = 0; i < LLH_BUCKETS_BITS(PC_SUB_BITS); i++) {
		unsigned int k = (unsigned int)i;

		if (llh_bucket_bits(llh_bucket_lo_bits(k, PC_SUB_BITS), PC_SUB_BITS) != k ||
		    llh_bucket_bits(llh_bucket_hi_bits(k, PC_SUB_BITS), PC_SUB_BITS) != k ||
		    (k + 1 < LLH_BUCKETS_BITS(PC_SUB_BITS) &&
		     llh_bucket_lo_bits(k + 1, PC_SUB_BITS) !=
			 llh_bucket_hi_bits(k, PC_SUB_BITS) + 1)) {
			bad++;
		}
	}
	TAP_EQ_U(bad, 0,
		 "32 buckets per power of two: every bucket's range maps to it, none apart");
	TAP_EQ_U(llh_bucket_hi_bits(LLH_BUCKETS_BITS(PC_SUB_BITS) - 1, PC_SUB_BITS), UINT64_MAX,
		 "the last bucket ends at UINT64_MAX");

	/* 100000 doorbells over -2..7 s in random order, latencies 100 ns .. 1 s (7 decades) */
	tap_ok(pc_init(&pc, COLUMNS) == 0, "pc_init(%d)", COLUMNS);
	for (i = 0; i < N_BELLS; i++) {
		bells[i].t = (int64_t)(rng() % 9000000000ull) - 2000000000;
		bells[i].v = 100ull << (rng() % 24);
		bells[i].v += rng() % bells[i].v;
		pc_add(&pc, bells[i].t, bells[i].v);
	}
	TAP_EQ_U(pc.n, N_BELLS, "every doorbell taken");
	tap_ok(pc.jhi - pc.jlo < (int64_t)pc.cap && pc.cap == 4 * COLUMNS,
	       "the bins in use stay within 4 N (%" PRId64 " of %u, each %llu ns)",
	       pc.jhi - pc.jlo + 1, pc.cap, 1ull << pc.shift);
	tap_ok(pc.jhi - pc.jlo >= 2 * COLUMNS, "and span more than 2 N bins (2 to 4 a column)");
	fp = open_memstream(&text, &size);
	TAP_EQ_I(pc_write_columns(&pc, fp), 0, "pc_write_columns");
	fclose(fp);
	fp = open_memstream(&hist, &hsize);
	TAP_EQ_I(pc_write_histogram(&pc, fp), 0, "pc_write_histogram");
	fclose(fp);
	TAP_EQ_U(check_rows(text, bells, N_BELLS, &rows, &total), 0,
		 "each column: count, min, max of the doorbells of its span; p50, p99 within 1/64");
	tap_ok(rows <= COLUMNS && rows >= COLUMNS - 1, "%u columns of %d", rows, COLUMNS);
	TAP_EQ_U(total, N_BELLS, "the columns hold every doorbell once");
	bad = 0;
	for (line = strtok_r(hist, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%" SCNu64 ",%" SCNu64 ",%" SCNu64, &lo, &hi, &cnt) != 3) {
			continue;
		}
		sum += cnt;
		if (llh_bucket_bits(lo, PC_SUB_BITS) != llh_bucket_bits(hi, PC_SUB_BITS)) {
			bad++;
		}
	}
	TAP_EQ_U(sum, N_BELLS, "the histogram holds every doorbell");
	TAP_EQ_U(bad, 0, "each of its rows is one bucket");
	pc_free(&pc);
	free(text);
	free(hist);
	text = NULL;

	/* one instant: one column, exact where the values are few */
	tap_ok(pc_init(&pc, PC_COLUMNS_MIN) == 0, "pc_init(%d)", PC_COLUMNS_MIN);
	for (i = 0; i < 3; i++) {
		bells[i].t = 1000;
		bells[i].v = 50 + i;
		pc_add(&pc, bells[i].t, bells[i].v);
	}
	fp = open_memstream(&text, &size);
	TAP_EQ_I(pc_write_columns(&pc, fp), 0, "pc_write_columns");
	fclose(fp);
	TAP_EQ_S(strchr(text, '\n') + 1, "0.000001000,50,51,52,52,3,0.000001000,0.000001001\n",
		 "three doorbells at one time: one column, below 64 ns a bucket per ns");
	pc_free(&pc);
	free(text);
	free(bells);
	return tap_done();
}
