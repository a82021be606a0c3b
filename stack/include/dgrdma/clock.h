/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CLOCK_MONOTONIC and CLOCK_REALTIME read as one pair, for putting a trace's
 * monotonic times and a capture's or socket's real times on one axis. One
 * bare pair of readings (realtime, then monotonic) is off by however long
 * the thread was preempted between them, tens of ms on a busy machine; the
 * pair is bracketed instead (monotonic, realtime, monotonic: realtime with the
 * midpoint) and the tightest of several tries kept. Inline, so that the
 * preload library and the tools need nothing more than this header.
 */
#ifndef DGRDMA_CLOCK_H
#define DGRDMA_CLOCK_H

#include <stdint.h>
#include <time.h>

#define DGR_CLOCK_TRIES 8 /* tries of a pair: one preempted try costs nothing */

struct dgr_clock_pair {
	uint64_t monotonic_ns;	 /* the midpoint of the two monotonic readings */
	uint64_t realtime_ns;	 /* read between them */
	uint64_t uncertainty_ns; /* half the gap between the two monotonic readings */
};

static inline uint64_t dgr_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Fills *best with the tightest of tries (at least 1) bracketed readings. */
static inline void dgr_clock_pair_read(struct dgr_clock_pair *best, unsigned int tries)
{
	best->uncertainty_ns = UINT64_MAX;
	for (unsigned int i = 0; i < tries || i == 0; i++) {
		uint64_t before = dgr_clock_ns(CLOCK_MONOTONIC);
		uint64_t real = dgr_clock_ns(CLOCK_REALTIME);
		uint64_t after = dgr_clock_ns(CLOCK_MONOTONIC);
		uint64_t half = (after - before) / 2;

		if (half < best->uncertainty_ns) {
			best->monotonic_ns = before + half;
			best->realtime_ns = real;
			best->uncertainty_ns = half;
		}
	}
}

/* CLOCK_REALTIME - CLOCK_MONOTONIC in ns, from the tightest of DGR_CLOCK_TRIES pairs. */
static inline int64_t dgr_clock_real_minus_mono(void)
{
	struct dgr_clock_pair p;

	dgr_clock_pair_read(&p, DGR_CLOCK_TRIES);
	return (int64_t)(p.realtime_ns - p.monotonic_ns);
}

#endif
