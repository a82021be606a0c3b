/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Latency series and their statistics: count, min, nearest-rank percentiles
 * (rank = ceil(p * n), 1-based, on the sorted values), max, mean, a log2
 * histogram, and the fraction of the run spent above a tolerable latency.
 *
 * A series keeps every (time, value) pair, in order: the first
 * SERIES_MEM_SAMPLES in memory, and past them, every full block of that many
 * is written to a temporary file (unlinked at once, in $TMPDIR or /tmp), so a
 * series holds at most 1 MiB of memory however long the run; its disk use is
 * 16 bytes per doorbell. When the file cannot be written the series keeps its
 * samples in memory instead. Read a series with a cursor (series_next), which
 * reads the file back in blocks; s[] holds only samples n_spilled..n-1.
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

/* 65536 samples: 1 MiB in memory per series, then written in 1 MiB blocks */
#define SERIES_MEM_SAMPLES 65536u

struct series {
	struct sample *s; /* samples n_spilled .. n - 1 */
	size_t n, cap;	  /* n: every sample added */
	size_t n_spilled; /* samples 0 .. n_spilled - 1 are in the file */
	int spill_fd;	  /* the file, when spilling */
	bool spilling, spill_failed;
};

/* Reads a series in order from one sample on (struct series_cursor c = ...). */
#define SERIES_CURSOR_BLOCK 1024u
struct series_cursor {
	const struct series *s;
	size_t i;		 /* the next sample's index */
	size_t buf_first, buf_n; /* buf holds samples buf_first .. + buf_n */
	int err;		 /* a read of the file failed (0: none) */
	struct sample buf[SERIES_CURSOR_BLOCK];
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
/* Appends a sample. Returns 0, or -DGR_E_NOMEM when memory runs out (the sample is lost). */
int series_add(struct series *s, uint64_t t, uint64_t value);
/* A cursor at sample from of s (at the end when from >= s->n). */
void series_cursor_init(struct series_cursor *c, const struct series *s, size_t from);
/*
 * Copies the cursor's sample into *out and moves on. Returns true, or false
 * at the end, or when the file cannot be read (c->err is then -errno, and
 * callers that return a status fail with -DGR_E_SYS).
 */
bool series_next(struct series_cursor *c, struct sample *out);

/* The nearest-rank statistics of part of a series (a live interval, or the run so far). */
struct quantiles {
	uint64_t count, p50, p99, p999, max;
	bool from_histogram; /* p50..p999 within LLH_REL_ERROR, as struct summary's */
};

/*
 * Fills *q for the samples s->s[from..to) (all 0 when the range is empty),
 * with the ranks series_summarise uses. Returns 0, -DGR_E_NOMEM when memory
 * for sorting runs out, or -DGR_E_SYS when the series' file cannot be read.
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
 * Returns 0, -DGR_E_NOMEM when memory for sorting runs out, or -DGR_E_SYS
 * when the series' file cannot be read.
 */
int series_summarise(const struct series *s, uint64_t span_ns, uint64_t tolerable_ns,
		     struct summary *out);

#endif
