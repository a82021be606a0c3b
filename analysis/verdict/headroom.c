// SPDX-License-Identifier: GPL-2.0-or-later
/* Headroom of a run, in arithmetic that cannot overflow (see headroom.h). */
#include <math.h>
#include <string.h>

#include <dgrdma/stats.h>

#include "headroom.h"

uint64_t sat_mul_u64(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

uint64_t sat_add_u64(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* A non-negative double as a count in [lo, hi] (NaN and beyond hi: hi). */
static uint64_t clamp_u64(double v, uint64_t lo, uint64_t hi)
{
	if (!(v < (double)hi)) {
		return hi;
	}
	if (v < (double)lo) {
		return lo;
	}
	return (uint64_t)v;
}

void headroom_compute(uint64_t buffers, uint64_t buffer_size, uint64_t rate_bytes,
		      uint64_t worst_ns, struct headroom *h)
{
	double pool, tolerable_s;

	memset(h, 0, sizeof(*h));
	h->worst_ns = worst_ns;
	if (!buffers || !buffer_size || !rate_bytes || !worst_ns) {
		return;
	}
	h->known = true;
	h->buffers = buffers;
	h->buffer_size = buffer_size;
	h->rate_bytes = rate_bytes;
	/* in double: 2^32 x 2^30 bytes at most, exact enough, and no product wraps */
	pool = (double)buffers * (double)buffer_size;
	h->lossless_rate_bytes = pool / ((double)worst_ns / 1e9);
	h->rate_factor = h->lossless_rate_bytes / (double)rate_bytes;
	h->buffers_needed =
	    clamp_u64(ceil((double)worst_ns / 1e9 * (double)rate_bytes / (double)buffer_size), 1,
		      HEADROOM_MAX_BUFFERS);
	tolerable_s = pool / (double)rate_bytes;
	h->worst_of_tolerable = (double)worst_ns / 1e9 / tolerable_s;
}

void headroom_for_run(const struct run_info *ri, const struct wa_dir_stats *st,
		      uint64_t rate_estimate, uint64_t worst_ns, struct headroom *h)
{
	uint64_t span;

	if (ri->host_buffers && ri->buffer_size && ri->rate_bytes) {
		headroom_compute(ri->host_buffers + ri->fpga_buffers, ri->buffer_size,
				 ri->rate_bytes, worst_ns, h);
		return;
	}
	span = st && st->last_ts > st->first_ts ? st->last_ts - st->first_ts : 0;
	if (!st || !span || st->transactions < 2) {
		if (ri->host_buffers && ri->buffer_size && rate_estimate) {
			headroom_compute(ri->host_buffers + ri->fpga_buffers, ri->buffer_size,
					 rate_estimate, worst_ns, h);
			h->rate_estimated = h->known;
			return;
		}
		headroom_compute(0, 0, 0, worst_ns, h);
		return;
	}
	headroom_compute(st->buffers, st->max_txn_bytes,
			 clamp_u64((double)st->data_bytes / ((double)span / 1e9), 0, UINT64_MAX),
			 worst_ns, h);
	h->estimated = h->known;
}

uint64_t headroom_estimate_tolerable(const struct wa_dir_stats *st)
{
	uint64_t span = st->last_ts > st->first_ts ? st->last_ts - st->first_ts : 0;
	double rate;

	if (!st->buffers || !st->max_txn_bytes || !span || st->transactions < 2 ||
	    !st->data_bytes) {
		return 0;
	}
	rate = (double)st->data_bytes / ((double)span / 1e9);
	return clamp_u64((double)st->buffers * (double)st->max_txn_bytes * 1e9 / rate, 1,
			 RUN_INFO_MAX_TOLERABLE_NS);
}

uint64_t headroom_tolerable_ns(const struct run_info *ri)
{
	return dgr_tolerable_latency_ns(ri->host_buffers, ri->fpga_buffers, ri->buffer_size,
					(double)ri->rate_bytes);
}
