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

unsigned int llh_bucket_bits(uint64_t v, unsigned int sub_bits)
{
	uint64_t sub = 1ull << sub_bits;
	unsigned int e, shift;

	if (v < 2 * sub) {
		return (unsigned int)v;
	}
	e = 63u - (unsigned int)__builtin_clzll(v); /* >= sub_bits + 1 */
	shift = e - sub_bits;
	/* v >> shift lies in [sub, 2 sub) */
	return (unsigned int)(2 * sub + (e - sub_bits - 1) * sub + ((v >> shift) - sub));
}

uint64_t llh_bucket_lo_bits(unsigned int i, unsigned int sub_bits)
{
	unsigned int sub = 1u << sub_bits, octave;

	if (i < 2 * sub) {
		return i;
	}
	octave = (i - 2 * sub) / sub; /* 0: [2^(sub_bits + 1), 2^(sub_bits + 2)) */
	return (uint64_t)(sub + (i - 2 * sub) % sub) << (octave + 1);
}

uint64_t llh_bucket_hi_bits(unsigned int i, unsigned int sub_bits)
{
	unsigned int sub = 1u << sub_bits, shift;

	if (i < 2 * sub) {
		return i;
	}
	shift = (i - 2 * sub) / sub + 1;
	return llh_bucket_lo_bits(i, sub_bits) + ((1ull << shift) - 1);
}

unsigned int llh_bucket(uint64_t v)
{
	return llh_bucket_bits(v, LLH_SUB_BITS);
}

uint64_t llh_bucket_lo(unsigned int i)
{
	return llh_bucket_lo_bits(i, LLH_SUB_BITS);
}

uint64_t llh_bucket_hi(unsigned int i)
{
	return llh_bucket_hi_bits(i, LLH_SUB_BITS);
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
