/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * latency-report --plot-columns N: one latency series (its doorbells' times and latencies)
 * reduced, while it streams, to N pixel columns over the run's span: each column's min and
 * max (exact), p50 and p99 (within PC_REL_ERROR) and doorbell count, the data of dgrdma-plot's
 * latency plot of a long run (docs/analysis.md, "Plots of long runs").
 *
 * The span is known only at the end: the doorbells go into time bins of a fixed width, a
 * power of two of nanoseconds on an absolute grid (bin j holds [j w, (j + 1) w)), at most
 * 4 N of them; when a doorbell would widen the bins' range past 4 N, the width doubles and
 * each pair of bins (2j, 2j + 1) merges into bin j. Each bin keeps its count, min, max and a
 * log histogram (loglin_hist's bucket rule with 2^PC_SUB_BITS buckets per power of two, over
 * the range of buckets it holds). Memory depends on N and the latencies' spread, never on the
 * run's length: at most 4 N bins of at most LLH_BUCKETS_BITS(PC_SUB_BITS) 4-byte counts.
 *
 * At the end the span from the first to the last doorbell is cut into N columns of equal
 * width; a bin belongs to the column that holds its middle. Once the width has doubled, the
 * bins span more than 2 N widths, so that each column gets 2 to 4 bins: a doorbell is counted
 * at most half a bin (a quarter column) away from its own column. Each row says the exact
 * span of its bins (from_s, to_s): the doorbells it counts are those of that span.
 */
#ifndef DGR_ANALYSIS_PLOT_COLUMNS_H
#define DGR_ANALYSIS_PLOT_COLUMNS_H

#include <stdint.h>
#include <stdio.h>

#define PC_COLUMNS_MIN 10
#define PC_COLUMNS_MAX 10000
#define PC_SUB_BITS    5
/* a percentile read at its bucket's middle: within half a bucket, 1/64 of the value */
#define PC_REL_ERROR (1.0 / (2 << PC_SUB_BITS))

struct pc_bin {
	uint64_t n, min, max;
	unsigned int lo, len; /* counts[k]: doorbells in bucket lo + k, k < len */
	uint32_t *counts;
};

struct plot_columns {
	unsigned int columns; /* N */
	unsigned int cap;     /* 4 N bins, a ring indexed by j mod cap */
	unsigned int shift;   /* the bins' width, 2^shift ns */
	int64_t jlo, jhi;     /* the bins in use: jlo..jhi (absolute indices) */
	int64_t tmin, tmax;   /* the first and last doorbell's time, ns */
	uint64_t n;	      /* doorbells */
	struct pc_bin *bins;  /* cap */
	struct pc_bin *spare; /* cap, for the doubling */
	int nomem;	      /* a bin's histogram could not grow: the output says so */
};

/* Sets up N (PC_COLUMNS_MIN..PC_COLUMNS_MAX) columns. Returns 0, or -DGR_E_NOMEM. */
int pc_init(struct plot_columns *pc, unsigned int columns);
void pc_free(struct plot_columns *pc);
/*
 * Adds a doorbell at time t_ns (from the run's origin; before it: negative) of latency_ns.
 * Doorbells may come in any order. When memory runs out the doorbell is left out and
 * pc->nomem set (pc_write then fails).
 */
void pc_add(struct plot_columns *pc, int64_t t_ns, uint64_t latency_ns);
/*
 * Writes the header and one row per non-empty column,
 * time_s,min_ns,p50_ns,p99_ns,max_ns,doorbells,from_s,to_s (time_s: the column's middle).
 * Returns 0, or -DGR_E_NOMEM when a doorbell was left out (pc->nomem).
 */
int pc_write_columns(struct plot_columns *pc, FILE *fp);
/*
 * Writes the header and the series' histogram in the same buckets, one row per non-empty
 * bucket in order: lo_ns,hi_ns,doorbells (the bucket holds lo_ns..hi_ns). Returns 0, or
 * -DGR_E_NOMEM (pc->nomem, or no memory for the sum).
 */
int pc_write_histogram(struct plot_columns *pc, FILE *fp);

#endif
