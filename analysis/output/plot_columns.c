// SPDX-License-Identifier: GPL-2.0-or-later
/* A latency series per pixel column, in bounded memory (see plot_columns.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "loglin_hist.h"
#include "plot_columns.h"

#define PC_BUCKETS LLH_BUCKETS_BITS(PC_SUB_BITS)
/* buckets a bin's histogram grows by beyond the one it needs: fewer reallocations */
#define PC_SLACK 8u

int pc_init(struct plot_columns *pc, unsigned int columns)
{
	memset(pc, 0, sizeof(*pc));
	pc->columns = columns;
	pc->cap = 4 * columns;
	pc->bins = calloc(pc->cap, sizeof(*pc->bins));
	pc->spare = calloc(pc->cap, sizeof(*pc->spare));
	if (!pc->bins || !pc->spare) {
		pc_free(pc);
		return -DGR_E_NOMEM;
	}
	return 0;
}

void pc_free(struct plot_columns *pc)
{
	unsigned int i;

	for (i = 0; pc->bins && i < pc->cap; i++) {
		free(pc->bins[i].counts);
	}
	free(pc->bins);
	free(pc->spare);
	memset(pc, 0, sizeof(*pc));
}

static struct pc_bin *slot(struct pc_bin *ring, unsigned int cap, int64_t j)
{
	int64_t k = j % (int64_t)cap;

	return &ring[k < 0 ? k + (int64_t)cap : k];
}

/* Makes b's histogram hold buckets from..to. Returns 0, or -1 when memory runs out. */
static int bin_cover(struct pc_bin *b, unsigned int from, unsigned int to)
{
	unsigned int lo, hi, len;
	uint32_t *c;

	if (b->len && from >= b->lo && to < b->lo + b->len) {
		return 0;
	}
	lo = b->len && b->lo < from ? b->lo : from;
	hi = b->len && b->lo + b->len - 1 > to ? b->lo + b->len - 1 : to;
	/* room to grow on the side that grew */
	if (b->len && lo < b->lo) {
		lo = lo > PC_SLACK ? lo - PC_SLACK : 0;
	}
	if (b->len && hi > b->lo + b->len - 1) {
		hi = hi + PC_SLACK < PC_BUCKETS ? hi + PC_SLACK : PC_BUCKETS - 1;
	}
	len = hi - lo + 1;
	c = calloc(len, sizeof(*c));
	if (!c) {
		return -1;
	}
	if (b->len) {
		memcpy(c + (b->lo - lo), b->counts, b->len * sizeof(*c));
	}
	free(b->counts);
	b->counts = c;
	b->lo = lo;
	b->len = len;
	return 0;
}

/* a count of one bucket of one bin: 4 G doorbells in one bin's bucket would take years */
static void count_add(uint32_t *c, uint64_t n)
{
	*c = *c + n > UINT32_MAX ? UINT32_MAX : (uint32_t)(*c + n);
}

/* Adds src's doorbells to dst (src is left empty). Returns 0, or -1 when memory runs out. */
static int bin_merge(struct pc_bin *dst, struct pc_bin *src)
{
	unsigned int k;
	int rc = 0;

	if (src->n == 0) {
		return 0;
	}
	if (dst->n == 0) {
		free(dst->counts);
		*dst = *src;
		memset(src, 0, sizeof(*src));
		return 0;
	}
	if (bin_cover(dst, src->lo, src->lo + src->len - 1) < 0) {
		rc = -1;
		goto out;
	}
	for (k = 0; k < src->len; k++) {
		count_add(&dst->counts[src->lo + k - dst->lo], src->counts[k]);
	}
	dst->n += src->n;
	dst->min = src->min < dst->min ? src->min : dst->min;
	dst->max = src->max > dst->max ? src->max : dst->max;
out:
	free(src->counts);
	memset(src, 0, sizeof(*src));
	return rc;
}

/* Doubles the bins' width: bins 2j and 2j + 1 become bin j. */
static void widen(struct plot_columns *pc)
{
	struct pc_bin *from = pc->bins, *to = pc->spare;
	int64_t j;

	for (j = pc->jlo; j <= pc->jhi; j++) {
		if (bin_merge(slot(to, pc->cap, j >> 1), slot(from, pc->cap, j)) < 0) {
			pc->nomem = 1;
		}
	}
	pc->bins = to;
	pc->spare = from;
	pc->shift++;
	pc->jlo >>= 1;
	pc->jhi >>= 1;
}

void pc_add(struct plot_columns *pc, int64_t t_ns, uint64_t latency_ns)
{
	unsigned int k = llh_bucket_bits(latency_ns, PC_SUB_BITS);
	struct pc_bin *b;
	int64_t j;

	/* the arithmetic shift is floor(t / width), before the origin too */
	j = t_ns >> pc->shift;
	if (pc->n == 0) {
		pc->jlo = pc->jhi = j;
		pc->tmin = pc->tmax = t_ns;
	}
	while ((j > pc->jhi ? j : pc->jhi) - (j < pc->jlo ? j : pc->jlo) >= (int64_t)pc->cap) {
		widen(pc);
		j = t_ns >> pc->shift;
	}
	b = slot(pc->bins, pc->cap, j);
	if (bin_cover(b, k, k) < 0) {
		pc->nomem = 1;
		return;
	}
	pc->jlo = j < pc->jlo ? j : pc->jlo;
	pc->jhi = j > pc->jhi ? j : pc->jhi;
	pc->tmin = t_ns < pc->tmin ? t_ns : pc->tmin;
	pc->tmax = t_ns > pc->tmax ? t_ns : pc->tmax;
	count_add(&b->counts[k - b->lo], 1);
	b->min = b->n == 0 || latency_ns < b->min ? latency_ns : b->min;
	b->max = b->n == 0 || latency_ns > b->max ? latency_ns : b->max;
	b->n++;
	pc->n++;
}

/* The doorbells of several bins together: a dense histogram over every bucket. */
struct pc_sum {
	uint64_t *counts; /* PC_BUCKETS */
	unsigned int lo, hi;
	uint64_t n, min, max;
};

static void sum_add(struct pc_sum *s, const struct pc_bin *b)
{
	unsigned int k;

	if (b->n == 0) {
		return;
	}
	for (k = 0; k < b->len; k++) {
		s->counts[b->lo + k] += b->counts[k];
	}
	if (s->n == 0 || b->lo < s->lo) {
		s->lo = b->lo;
	}
	if (s->n == 0 || b->lo + b->len - 1 > s->hi) {
		s->hi = b->lo + b->len - 1;
	}
	s->min = s->n == 0 || b->min < s->min ? b->min : s->min;
	s->max = s->n == 0 || b->max > s->max ? b->max : s->max;
	s->n += b->n;
}

static void sum_clear(struct pc_sum *s)
{
	if (s->n) {
		memset(s->counts + s->lo, 0, (s->hi - s->lo + 1) * sizeof(*s->counts));
	}
	s->n = 0;
}

/* The value at nearest rank ceil(per_mille x n / 1000), as llh_percentile reads it. */
static uint64_t sum_percentile(const struct pc_sum *s, unsigned int per_mille)
{
	uint64_t rank = ((uint64_t)per_mille * s->n + 999) / 1000, seen = 0, lo, hi, mid;
	unsigned int k;

	if (rank <= 1) {
		return s->min;
	}
	if (rank >= s->n) {
		return s->max;
	}
	for (k = s->lo; k < s->hi; k++) {
		seen += s->counts[k];
		if (seen >= rank) {
			break;
		}
	}
	lo = llh_bucket_lo_bits(k, PC_SUB_BITS);
	hi = llh_bucket_hi_bits(k, PC_SUB_BITS);
	mid = lo + (hi - lo + 1) / 2;
	return mid < s->min ? s->min : mid > s->max ? s->max : mid;
}

/* t ns as seconds, exactly: [-]S.NNNNNNNNN */
static void print_seconds(FILE *fp, int64_t t)
{
	uint64_t a = t < 0 ? (uint64_t)0 - (uint64_t)t : (uint64_t)t;

	fprintf(fp, "%s%" PRIu64 ".%09" PRIu64, t < 0 ? "-" : "", a / 1000000000u, a % 1000000000u);
}

static void print_column(FILE *fp, const struct plot_columns *pc, double mid_ns,
			 const struct pc_sum *s, int64_t jfrom, int64_t jto)
{
	fprintf(fp, "%.9f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",",
		mid_ns / 1e9, s->min, sum_percentile(s, 500), sum_percentile(s, 990), s->max, s->n);
	print_seconds(fp, jfrom * ((int64_t)1 << pc->shift));
	fputc(',', fp);
	print_seconds(fp, (jto + 1) * ((int64_t)1 << pc->shift));
	fputc('\n', fp);
}

static int sum_init(struct pc_sum *s)
{
	memset(s, 0, sizeof(*s));
	s->counts = calloc(PC_BUCKETS, sizeof(*s->counts));
	return s->counts ? 0 : -DGR_E_NOMEM;
}

int pc_write_columns(struct plot_columns *pc, FILE *fp)
{
	double span, width, mid;
	int64_t j, jfrom = 0, jto = 0, w = (int64_t)1 << pc->shift;
	long col, cur = -1;
	struct pc_sum s;

	fprintf(fp, "time_s,min_ns,p50_ns,p99_ns,max_ns,doorbells,from_s,to_s\n");
	if (pc->nomem) {
		return -DGR_E_NOMEM;
	}
	if (pc->n == 0) {
		return 0;
	}
	if (sum_init(&s) < 0) {
		return -DGR_E_NOMEM;
	}
	span = (double)(pc->tmax - pc->tmin);
	width = span / pc->columns;
	for (j = pc->jlo; j <= pc->jhi; j++) {
		const struct pc_bin *b = slot(pc->bins, pc->cap, j);

		if (b->n == 0) {
			continue;
		}
		/* the column that holds the bin's middle (all in the first when the span is 0) */
		mid = (double)(j * w) + (double)w / 2;
		col = span > 0 ? (long)((mid - (double)pc->tmin) / width) : 0;
		col = col < 0 ? 0 : col >= (long)pc->columns ? (long)pc->columns - 1 : col;
		if (col != cur) {
			if (cur >= 0) {
				print_column(fp, pc, (double)pc->tmin + ((double)cur + 0.5) * width,
					     &s, jfrom, jto);
				sum_clear(&s);
			}
			cur = col;
			jfrom = j;
		}
		jto = j;
		sum_add(&s, b);
	}
	print_column(fp, pc, (double)pc->tmin + ((double)cur + 0.5) * width, &s, jfrom, jto);
	free(s.counts);
	return 0;
}

int pc_write_histogram(struct plot_columns *pc, FILE *fp)
{
	struct pc_sum s;
	unsigned int k;
	int64_t j;

	fprintf(fp, "lo_ns,hi_ns,doorbells\n");
	if (pc->nomem) {
		return -DGR_E_NOMEM;
	}
	if (pc->n == 0) {
		return 0;
	}
	if (sum_init(&s) < 0) {
		return -DGR_E_NOMEM;
	}
	for (j = pc->jlo; j <= pc->jhi; j++) {
		sum_add(&s, slot(pc->bins, pc->cap, j));
	}
	for (k = s.lo; k <= s.hi; k++) {
		if (s.counts[k]) {
			fprintf(fp, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
				llh_bucket_lo_bits(k, PC_SUB_BITS),
				llh_bucket_hi_bits(k, PC_SUB_BITS), s.counts[k]);
		}
	}
	free(s.counts);
	return 0;
}
