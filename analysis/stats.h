/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Latency series and their statistics: count, min, nearest-rank percentiles
 * (rank = ceil(p * n), 1-based, on the sorted values), max, mean, a log2
 * histogram, and the fraction of the run spent above a tolerable latency.
 *
 * A series keeps every (time, value) pair: 16 bytes per doorbell (not per
 * capture byte: a 1 GB capture of 32 KiB buffers holds about 30 000).
 *
 * Percentiles are exact (sorted) while the series, or the range asked for,
 * holds at most the exact limit of values (stats_exact_limit(), default
 * STATS_EXACT_LIMIT); above it they come from a log-linear histogram
 * (loglin_hist.h) within a relative error of LLH_REL_ERROR, and the result says
 * so (from_histogram). Sorting needs 16 bytes per value more; the histogram a
 * fixed 440 KiB. Everything else (count, min, max, mean, log2 bins, the time
 * above the tolerable latency) is exact at any size.
 */
#ifndef DGR_ANALYSIS_STATS_H
#define DGR_ANALYSIS_STATS_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

struct sample {
	uint64_t t;	/* when the interval started (transaction complete), ns */
	uint64_t value; /* latency, ns */
};

struct series {
	struct sample *s;
	size_t n, cap;
};

/* a million values: a 16 MB sort; above, the histogram's bounded percentiles */
#define STATS_EXACT_LIMIT 1000000u

#define HIST_BINS 40 /* bin k: [2^k, 2^(k+1)) ns; bin 0 also holds 0 */

struct summary {
	uint64_t count, min, p50, p90, p99, p999, max;
	double mean;
	/* p50..p999 from the log-linear histogram (count > the exact limit), else exact */
	bool from_histogram;
	uint64_t hist[HIST_BINS];
	/* with a tolerable latency (0: unknown) */
	uint64_t tolerable_ns;
	uint64_t above_tolerable;   /* samples with value > tolerable */
	double time_above_fraction; /* union of [t + tolerable, t + value] / run span */
	int64_t margin_ns;	    /* tolerable - p999 (negative: exceeded) */
};

/*
 * The most values whose percentiles are computed exactly (sorted), for every
 * series of the program; 0 sets the default STATS_EXACT_LIMIT. Returns the
 * limit in force after the call.
 */
uint64_t stats_set_exact_limit(uint64_t limit);
/* Returns the exact limit in force. */
uint64_t stats_exact_limit(void);

void series_init(struct series *s);
void series_free(struct series *s);
/* Appends a sample. Returns 0, or -1 when memory runs out (the sample is lost). */
int series_add(struct series *s, uint64_t t, uint64_t value);

/* The nearest-rank statistics of part of a series (a live interval, or the run so far). */
struct quantiles {
	uint64_t count, p50, p99, p999, max;
	bool from_histogram; /* p50..p999 within LLH_REL_ERROR, as struct summary's */
};

/*
 * Fills *q for the samples s->s[from..to) (all 0 when the range is empty),
 * with the ranks series_summarise uses. Returns 0, or -1 when memory for
 * sorting runs out.
 */
int series_quantiles(const struct series *s, size_t from, size_t to, struct quantiles *q);

/*
 * Adds the samples s->s[from..to) to hist[HIST_BINS], the log2 bins of
 * struct summary (nothing when the range is empty or past the end).
 */
void series_histogram(const struct series *s, size_t from, size_t to, uint64_t *hist);

/*
 * Computes the summary of a series. span_ns is the run's duration (for the
 * time-above fraction); tolerable_ns 0 leaves those fields at 0.
 * Returns 0, or -1 when memory for sorting runs out.
 */
int series_summarise(const struct series *s, uint64_t span_ns, uint64_t tolerable_ns,
		     struct summary *out);

#endif
