/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A log-linear histogram of latencies, in the manner of HdrHistogram: the
 * percentiles of any number of values in a fixed 440 KiB, with a stated
 * relative error.
 *
 * Values below 2^(LLH_SUB_BITS + 1) (2048 ns) have a bucket each (exact).
 * Above, each power of two [2^e, 2^(e+1)) is cut into 2^LLH_SUB_BITS (1024)
 * buckets of width 2^(e - LLH_SUB_BITS), so a bucket is never wider than
 * 1/1024 of its lower edge. A percentile is read as its bucket's middle, which
 * is within half a width of every value in the bucket: the relative error
 * |reported - exact| / exact is at most 1/2048 (LLH_REL_ERROR, 0.049%), and
 * 0 below 2048 ns. The count, min and max are kept exactly: rank 1 is the
 * exact min, rank n the exact max, and other values are clamped to [min, max].
 *
 * The ranks are those of dgr_percentile_nearest_rank: rank ceil(p x n).
 */
#ifndef DGR_ANALYSIS_LOGLIN_HIST_H
#define DGR_ANALYSIS_LOGLIN_HIST_H

#include <stdint.h>

#define LLH_SUB_BITS  10
#define LLH_SUB_COUNT (1u << LLH_SUB_BITS)
/* exact buckets 0..2047, then 1024 per power of two 2^11 .. 2^63 */
#define LLH_BUCKETS   (2 * LLH_SUB_COUNT + (63 - LLH_SUB_BITS) * LLH_SUB_COUNT)
#define LLH_REL_ERROR (1.0 / (2.0 * LLH_SUB_COUNT))

struct loglin_hist {
	uint64_t *counts; /* LLH_BUCKETS, allocated by llh_init */
	uint64_t n, min, max;
};

/* Allocates an empty histogram. Returns 0, or -1 when memory runs out (h is then empty). */
int llh_init(struct loglin_hist *h);
void llh_free(struct loglin_hist *h);
/* Adds one value (any uint64_t). */
void llh_add(struct loglin_hist *h, uint64_t v);
/* Adds every value of from to h (the union's histogram). */
void llh_merge(struct loglin_hist *h, const struct loglin_hist *from);
/*
 * The value at nearest rank ceil(per_mille x n / 1000) (at least 1), within
 * LLH_REL_ERROR of the exact one and inside [min, max]; 0 when h is empty.
 */
uint64_t llh_percentile(const struct loglin_hist *h, unsigned int per_mille);

/* The bucket of v, and the lowest and highest value of bucket i (for the tests). */
unsigned int llh_bucket(uint64_t v);
uint64_t llh_bucket_lo(unsigned int i);
uint64_t llh_bucket_hi(unsigned int i);

/*
 * The same bucket rule with 2^sub_bits buckets per power of two (1..LLH_SUB_BITS): a
 * coarser histogram, whose bucket middle is within 1 / 2^(sub_bits + 1) of every value
 * in the bucket (latency-report's plot columns keep one per pixel column, output/
 * plot_columns.c). The buckets run 0 .. LLH_BUCKETS_BITS(sub_bits) - 1.
 */
#define LLH_BUCKETS_BITS(sub_bits) ((2u + (63u - (sub_bits))) << (sub_bits))
unsigned int llh_bucket_bits(uint64_t v, unsigned int sub_bits);
uint64_t llh_bucket_lo_bits(unsigned int i, unsigned int sub_bits);
uint64_t llh_bucket_hi_bits(unsigned int i, unsigned int sub_bits);

#endif
