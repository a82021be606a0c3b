/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sample ramp checker and generator (ramp.h). */
#include <stdbool.h>
#include <string.h>

#include <dgrdma/wire.h>

#include <dgrdma/ramp.h>

/* Resets the checker. */
void dgr_ramp_init(struct dgr_ramp *r)
{
	memset(r, 0, sizeof(*r));
}

static void on_jump(struct dgr_ramp *r, uint32_t v, uint64_t at)
{
	int32_t d = (int32_t)(v - r->next);

	if (d > 0) {
		if (r->gaps < DGR_RAMP_GAPS_KEPT) {
			r->gap[r->gaps].at_sample = at;
			r->gap[r->gaps].expected = r->next;
			r->gap[r->gaps].got = v;
		}
		r->gaps++;
		r->lost += (uint32_t)d;
	} else {
		r->backwards++;
	}
}

/* Loads sample i (little-endian on the wire; this host is little-endian too). */
static inline uint32_t sample_at(const uint8_t *data, uint32_t i)
{
	uint32_t v;

	memcpy(&v, data + 4 * (size_t)i, sizeof(v));
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return v;
}

#define RAMP_BLOCK 64 /* samples compared per block */

/*
 * Four samples at a time in a GCC vector (SSE2 on x86-64, plain code where
 * there is no SIMD): -O2 left the scalar form of this loop unvectorized, and
 * the ramp check was the consumer's largest cost (docs/performance/stack.md).
 */
typedef uint32_t ramp_vec __attribute__((vector_size(16)));

/* True when the RAMP_BLOCK samples at data are next, next + 1, ... */
static inline bool block_matches(const uint8_t *data, uint32_t next)
{
	ramp_vec want = { next, next + 1, next + 2, next + 3 };
	const ramp_vec step = { 4, 4, 4, 4 };
	ramp_vec diff = { 0, 0, 0, 0 };

	for (uint32_t k = 0; k < RAMP_BLOCK; k += 4) {
		ramp_vec got;

		memcpy(&got, data + 4 * (size_t)k, sizeof(got));
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
		for (int j = 0; j < 4; j++) {
			got[j] = __builtin_bswap32(got[j]);
		}
#endif
		diff |= got ^ want;
		want += step;
	}
	return (diff[0] | diff[1] | diff[2] | diff[3]) == 0;
}

/* Checks the samples of one buffer. */
void dgr_ramp_check(struct dgr_ramp *r, const uint8_t *data, uint32_t len)
{
	uint32_t n = len / DGR_SAMPLE_BYTES;
	uint32_t next;
	uint32_t i = 0;

	if (n == 0) {
		return;
	}
	if (!r->started) {
		r->started = true;
		r->first = sample_at(data, 0);
		r->next = r->first;
	}
	next = r->next;
	while (i < n) {
		uint32_t v;

		/* fast path: whole blocks that match, compared without branches */
		while (n - i >= RAMP_BLOCK && block_matches(data + 4 * (size_t)i, next)) {
			i += RAMP_BLOCK;
			next += RAMP_BLOCK;
		}
		while (i < n && sample_at(data, i) == next) {
			next++;
			i++;
			if ((i & (RAMP_BLOCK - 1)) == 0 && n - i >= RAMP_BLOCK) {
				break; /* back to whole blocks */
			}
		}
		if (i == n || sample_at(data, i) == next) {
			continue;
		}
		v = sample_at(data, i);
		r->next = next;
		on_jump(r, v, r->samples + i);
		next = v + 1;
		i++;
	}
	r->next = next;
	r->samples += n;
}

/* Returns the value after the last one written. */
uint32_t dgr_ramp_fill(uint8_t *data, uint32_t len, uint32_t first)
{
	uint32_t n = len / DGR_SAMPLE_BYTES;
	uint32_t i = 0;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* four samples per store: -O2 leaves the one-sample loop scalar */
	ramp_vec four = { first, first + 1, first + 2, first + 3 };
	const ramp_vec step = { 4, 4, 4, 4 };

	for (; i + 4 <= n; i += 4) {
		memcpy(data + 4 * (size_t)i, &four, sizeof(four));
		four += step;
	}
#endif
	for (; i < n; i++) {
		uint32_t v = first + i;

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
		v = __builtin_bswap32(v);
#endif
		memcpy(data + 4 * (size_t)i, &v, sizeof(v));
	}
	return first + n;
}
