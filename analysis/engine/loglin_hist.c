// SPDX-License-Identifier: GPL-2.0-or-later
/* Log-linear latency histogram (see loglin_hist.h). */
#include <stdlib.h>
#include <string.h>

#include "loglin_hist.h"

int llh_init(struct loglin_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->counts = calloc(LLH_BUCKETS, sizeof(*h->counts));
	return h->counts ? 0 : -1;
}

void llh_free(struct loglin_hist *h)
{
	free(h->counts);
	memset(h, 0, sizeof(*h));
}

unsigned int llh_bucket(uint64_t v)
{
	unsigned int e, shift;

	if (v < 2 * LLH_SUB_COUNT) {
		return (unsigned int)v;
	}
	e = 63u - (unsigned int)__builtin_clzll(v); /* >= LLH_SUB_BITS + 1 */
	shift = e - LLH_SUB_BITS;
	/* v >> shift lies in [LLH_SUB_COUNT, 2 LLH_SUB_COUNT) */
	return 2 * LLH_SUB_COUNT + (e - LLH_SUB_BITS - 1) * LLH_SUB_COUNT +
	       (unsigned int)((v >> shift) - LLH_SUB_COUNT);
}

uint64_t llh_bucket_lo(unsigned int i)
{
	unsigned int octave, shift;

	if (i < 2 * LLH_SUB_COUNT) {
		return i;
	}
	octave = (i - 2 * LLH_SUB_COUNT) / LLH_SUB_COUNT; /* 0: [2^11, 2^12) */
	shift = octave + 1;
	return (uint64_t)(LLH_SUB_COUNT + (i - 2 * LLH_SUB_COUNT) % LLH_SUB_COUNT) << shift;
}

uint64_t llh_bucket_hi(unsigned int i)
{
	unsigned int shift;

	if (i < 2 * LLH_SUB_COUNT) {
		return i;
	}
	shift = (i - 2 * LLH_SUB_COUNT) / LLH_SUB_COUNT + 1;
	return llh_bucket_lo(i) + ((1ull << shift) - 1);
}

void llh_add(struct loglin_hist *h, uint64_t v)
{
	if (h->n == 0 || v < h->min) {
		h->min = v;
	}
	if (h->n == 0 || v > h->max) {
		h->max = v;
	}
	h->counts[llh_bucket(v)]++;
	h->n++;
}

void llh_merge(struct loglin_hist *h, const struct loglin_hist *from)
{
	unsigned int i;

	if (from->n == 0) {
		return;
	}
	if (h->n == 0 || from->min < h->min) {
		h->min = from->min;
	}
	if (h->n == 0 || from->max > h->max) {
		h->max = from->max;
	}
	for (i = 0; i < LLH_BUCKETS; i++) {
		h->counts[i] += from->counts[i];
	}
	h->n += from->n;
}

uint64_t llh_percentile(const struct loglin_hist *h, unsigned int per_mille)
{
	uint64_t rank = ((uint64_t)per_mille * h->n + 999) / 1000, seen = 0, lo, hi, mid;
	unsigned int i;

	if (h->n == 0) {
		return 0;
	}
	if (rank < 1) {
		rank = 1;
	}
	if (rank >= h->n) {
		return h->max; /* the last rank is the max, kept exactly */
	}
	if (rank == 1) {
		return h->min;
	}
	for (i = llh_bucket(h->min); i < LLH_BUCKETS; i++) {
		seen += h->counts[i];
		if (seen >= rank) {
			break;
		}
	}
	lo = llh_bucket_lo(i);
	hi = llh_bucket_hi(i);
	mid = lo + (hi - lo + 1) / 2;
	if (mid < h->min) {
		mid = h->min;
	}
	if (mid > h->max) {
		mid = h->max;
	}
	return mid;
}
