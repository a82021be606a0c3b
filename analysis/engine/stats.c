// SPDX-License-Identifier: GPL-2.0-or-later
/* Latency statistics (see stats.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dgrdma/stats.h>
#include <dgrdma/wire.h>

#include "loglin_hist.h"
#include "populate.h"
#include "spill_file.h"
#include "stats.h"

static uint64_t exact_limit = STATS_EXACT_LIMIT;

uint64_t stats_set_exact_limit(uint64_t limit)
{
	exact_limit = limit ? limit : STATS_EXACT_LIMIT;
	return exact_limit;
}

uint64_t stats_exact_limit(void)
{
	return exact_limit;
}

void series_init(struct series *s)
{
	memset(s, 0, sizeof(*s));
	s->spill_fd = -1;
}

void series_free(struct series *s)
{
	free(s->s);
	if (s->spilling) {
		close(s->spill_fd);
	}
	series_init(s);
}

/* Moves the samples in memory to the series' file. Returns 0, or -DGR_E_SYS (they stay in memory).
 */
static int spill(struct series *s)
{
	size_t in_mem = s->n - s->n_spilled;

	if (s->spill_failed) {
		return -DGR_E_SYS;
	}
	if (!s->spilling) {
		s->spill_fd = spill_file_open();
		if (s->spill_fd < 0) {
			s->spill_failed = true;
			return -DGR_E_SYS;
		}
		s->spilling = true;
	}
	if (spill_file_append(s->spill_fd, s->s, in_mem * sizeof(*s->s))) {
		s->spill_failed = true;
		return -DGR_E_SYS;
	}
	s->n_spilled = s->n;
	return 0;
}

int series_add(struct series *s, uint64_t t, uint64_t value)
{
	size_t in_mem = s->n - s->n_spilled;

	if (in_mem == s->cap && (s->cap < SERIES_MEM_SAMPLES || spill(s))) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		struct sample *n = malloc(cap * sizeof(*n));

		if (!n) {
			return -DGR_E_NOMEM;
		}
		/* the copy and the samples to come write it whole: mapped in at once */
		eng_populate(n, cap * sizeof(*n));
		if (s->s) {
			memcpy(n, s->s, (s->n - s->n_spilled) * sizeof(*n));
		}
		free(s->s);
		s->s = n;
		s->cap = cap;
	}
	in_mem = s->n - s->n_spilled;
	s->s[in_mem].t = t;
	s->s[in_mem].value = value;
	s->n++;
	return 0;
}

void series_cursor_init(struct series_cursor *c, const struct series *s, size_t from)
{
	c->s = s;
	c->i = from < s->n ? from : s->n;
	c->buf_first = 0;
	c->buf_n = 0;
	c->err = 0;
}

/* Reads the block of the file that holds sample c->i. Returns 0, or -errno. */
static int cursor_fill(struct series_cursor *c)
{
	const struct series *s = c->s;
	size_t want = s->n_spilled - c->i;
	int r;

	if (want > SERIES_CURSOR_BLOCK) {
		want = SERIES_CURSOR_BLOCK;
	}
	r = spill_file_read(s->spill_fd, c->i * sizeof(c->buf[0]), c->buf,
			    want * sizeof(c->buf[0]));
	if (r) {
		return r;
	}
	c->buf_first = c->i;
	c->buf_n = want;
	return 0;
}

bool series_next(struct series_cursor *c, struct sample *out)
{
	const struct series *s = c->s;

	if (c->err || c->i >= s->n) {
		return false;
	}
	if (c->i >= s->n_spilled) {
		*out = s->s[c->i - s->n_spilled];
	} else {
		if (c->i < c->buf_first || c->i >= c->buf_first + c->buf_n) {
			c->err = cursor_fill(c);
			if (c->err) {
				return false;
			}
		}
		*out = c->buf[c->i - c->buf_first];
	}
	c->i++;
	return true;
}

/*
 * LSD radix sort, 8 bits per pass, skipping passes where every value has the
 * same byte (latencies rarely use more than 5 bytes). tmp holds n values.
 * Measured 10x faster than qsort on a million latencies (docs/performance/analysis.md).
 */
static void radix_sort_u64(uint64_t *v, uint64_t *tmp, size_t n)
{
	uint64_t *src = v, *dst = tmp;
	unsigned int shift;
	size_t i;

	for (shift = 0; shift < 64; shift += 8) {
		size_t count[256] = { 0 }, pos = 0;
		unsigned int b;

		for (i = 0; i < n; i++) {
			count[(src[i] >> shift) & 0xFF]++;
		}
		if (count[(src[0] >> shift) & 0xFF] == n) {
			continue;
		}
		for (b = 0; b < 256; b++) {
			size_t c = count[b];

			count[b] = pos;
			pos += c;
		}
		for (i = 0; i < n; i++) {
			dst[count[(src[i] >> shift) & 0xFF]++] = src[i];
		}
		src = dst;
		dst = src == v ? tmp : v;
	}
	if (src != v) {
		memcpy(v, src, n * sizeof(*v));
	}
}

/*
 * The percentiles pm[0..k) (per mille) and the max of the n samples from
 * sample from on: sorted up to the exact limit, else from the log-linear
 * histogram (*from_hist set). Returns 0, -DGR_E_NOMEM, or -DGR_E_SYS (the
 * series' file unread).
 */
static int percentiles(const struct series *s, size_t from, size_t n, const unsigned int *pm,
		       unsigned int k, uint64_t *out, uint64_t *max, bool *from_hist)
{
	struct series_cursor c;
	struct sample x;
	uint64_t *v = NULL;
	struct loglin_hist h = { 0 };
	size_t i = 0;
	unsigned int j;
	int ret = -DGR_E_NOMEM;

	*from_hist = n > exact_limit;
	if (*from_hist ? llh_init(&h) != 0 : (v = malloc(2 * n * sizeof(*v))) == NULL) {
		goto out;
	}
	if (v) {
		eng_populate(v,
			     2 * n * sizeof(*v)); /* the values and the sort's room, all written */
	}
	series_cursor_init(&c, s, from);
	while (i < n && series_next(&c, &x)) {
		if (v) {
			v[i] = x.value;
		} else {
			llh_add(&h, x.value);
		}
		i++;
	}
	if (i < n) {
		ret = -DGR_E_SYS; /* the series' file could not be read back */
		goto out;
	}
	if (v) {
		radix_sort_u64(v, v + n, n);
		for (j = 0; j < k; j++) {
			out[j] = dgr_percentile_nearest_rank(v, n, pm[j]);
		}
		*max = v[n - 1];
	} else {
		for (j = 0; j < k; j++) {
			out[j] = llh_percentile(&h, pm[j]);
		}
		*max = h.max;
	}
	ret = 0;
out:
	free(v);
	llh_free(&h);
	return ret;
}

int series_quantiles(const struct series *s, size_t from, size_t to, struct quantiles *q)
{
	static const unsigned int pm[] = { 500, 990, 999 };
	size_t n = to > from && to <= s->n ? to - from : 0;
	uint64_t p[3];
	int rc;

	memset(q, 0, sizeof(*q));
	if (n == 0) {
		return 0;
	}
	rc = percentiles(s, from, n, pm, 3, p, &q->max, &q->from_histogram);
	if (rc) {
		memset(q, 0, sizeof(*q));
		return rc;
	}
	q->count = n;
	q->p50 = p[0];
	q->p99 = p[1];
	q->p999 = p[2];
	return 0;
}

static unsigned int hist_bin(uint64_t v)
{
	unsigned int k = v > 1 ? 63u - (unsigned int)__builtin_clzll(v) : 0;

	return k < HIST_BINS ? k : HIST_BINS - 1;
}

void series_histogram(const struct series *s, size_t from, size_t to, uint64_t *hist)
{
	struct series_cursor c;
	struct sample x;
	size_t i = from;

	if (to > s->n) {
		return;
	}
	series_cursor_init(&c, s, from);
	while (i < to && series_next(&c, &x)) {
		hist[hist_bin(x.value)]++;
		i++;
	}
}

/*
 * Walks every sample once: count, min, max, mean, log2 bins, the count above
 * tol and the union length of the intervals [t + tol, t + value] where
 * value > tol. Returns 0, or -DGR_E_SYS when the file cannot be read.
 */
static int exact_parts(const struct series *s, uint64_t tol, struct summary *out,
		       uint64_t *time_above)
{
	uint64_t total = 0, cs = 0, ce = 0;
	struct series_cursor c;
	struct sample x;
	double sum = 0;
	bool open = false;

	series_cursor_init(&c, s, 0);
	while (series_next(&c, &x)) {
		uint64_t a, b;

		sum += (double)x.value;
		out->hist[hist_bin(x.value)]++;
		if (out->count == 0 || x.value < out->min) {
			out->min = x.value;
		}
		if (out->count == 0 || x.value > out->max) {
			out->max = x.value;
		}
		out->count++;
		if (!tol || x.value <= tol) {
			continue;
		}
		out->above_tolerable++;
		a = x.t + tol;
		b = x.t + x.value;
		if (open && a <= ce) {
			if (b > ce) {
				ce = b;
			}
			continue;
		}
		if (open) {
			total += ce - cs;
		}
		cs = a;
		ce = b;
		open = true;
	}
	if (open) {
		total += ce - cs;
	}
	if (c.err) {
		return -DGR_E_SYS;
	}
	out->mean = sum / (double)out->count;
	*time_above = total;
	return 0;
}

int series_summarise(const struct series *s, uint64_t span_ns, uint64_t tolerable_ns,
		     struct summary *out)
{
	static const unsigned int pm[] = { 500, 900, 990, 999 };
	uint64_t p[4], max, above = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	out->tolerable_ns = tolerable_ns;
	if (s->n == 0) {
		return 0;
	}
	rc = percentiles(s, 0, s->n, pm, 4, p, &max, &out->from_histogram);
	if (rc == 0) {
		rc = exact_parts(s, tolerable_ns, out, &above);
	}
	if (rc) {
		memset(out, 0, sizeof(*out));
		return rc;
	}
	out->p50 = p[0];
	out->p90 = p[1];
	out->p99 = p[2];
	out->p999 = p[3];
	if (tolerable_ns) {
		out->margin_ns = (int64_t)tolerable_ns - (int64_t)out->p999;
		out->time_above_fraction = span_ns ? (double)above / (double)span_ns : 0.0;
		if (out->time_above_fraction > 1.0) {
			out->time_above_fraction = 1.0;
		}
	}
	return 0;
}
