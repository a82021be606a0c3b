// SPDX-License-Identifier: GPL-2.0-or-later
/* FPGA buffer occupancy on the TX path (see occupancy.h). */
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "headroom.h"
#include "occupancy.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Sweeps the sorted starts and ends: the level changes at each; the time
 * spent at each level is added while it lies inside [lo, hi]. An end and a
 * start at the same instant count the start first (a buffer refilled the
 * moment it was freed never leaves the queue empty).
 */
int occupancy_compute(const struct series *tx, uint64_t buffers, struct occupancy *o)
{
	struct series_cursor cur;
	struct sample x;
	uint64_t *start, *end, lo, hi, prev, level = 0, empty_since = 0;
	double weighted = 0;
	size_t i = 0, j = 0, n = tx->n;

	memset(o, 0, sizeof(*o));
	if (n == 0) {
		o->buffers = buffers ? buffers : 1;
		return 0;
	}
	start = malloc(2 * n * sizeof(*start));
	if (!start) {
		return -DGR_E_NOMEM;
	}
	end = start + n;
	series_cursor_init(&cur, tx, 0);
	for (i = 0; i < n && series_next(&cur, &x); i++) {
		start[i] = x.t;
		end[i] = sat_add_u64(x.t, x.value);
	}
	if (i < n) {
		free(start);
		return -DGR_E_SYS; /* the series' file could not be read back */
	}
	qsort(start, n, sizeof(*start), cmp_u64);
	qsort(end, n, sizeof(*end), cmp_u64);
	/* the max outstanding first: it is the buffer count when none is given */
	for (i = 0, j = 0; i < n;) {
		if (start[i] <= end[j]) {
			level++;
			i++;
			if (level > o->max) {
				o->max = level;
			}
		} else {
			level--;
			j++;
		}
	}
	o->buffers = buffers ? buffers : o->max;
	/* the window opens when the queue is first full (the start-up fill is no shortage) */
	lo = start[0];
	for (i = 0, j = 0, level = 0; i < n;) {
		if (start[i] <= end[j]) {
			if (++level >= o->buffers) {
				lo = start[i];
				break;
			}
			i++;
		} else {
			level--;
			j++;
		}
	}
	hi = start[n - 1];
	o->window_ns = hi - lo;
	level = 0;
	prev = lo;
	for (i = 0, j = 0; i < n || j < n;) {
		bool is_start = i < n && start[i] <= end[j];
		uint64_t t = is_start ? start[i] : end[j];
		uint64_t a = prev > lo ? prev : lo, b = t < hi ? t : hi;

		if (b > a) {
			weighted += (double)level * (double)(b - a);
			if (level == 0) {
				o->empty_ns += b - a;
			}
			if (2 * level <= o->buffers) {
				o->low_ns += b - a;
			}
		}
		prev = t;
		if (is_start) {
			if (level == 0 && t > lo && t <= hi) {
				/* an empty spell inside the window ends */
				uint64_t len = t - (empty_since > lo ? empty_since : lo);

				o->empty_episodes++;
				if (len > o->longest_empty_ns) {
					o->longest_empty_ns = len;
				}
			}
			level++;
			i++;
		} else {
			level--;
			j++;
			if (level == 0) {
				empty_since = t;
			}
		}
	}
	o->mean = o->window_ns ? weighted / (double)o->window_ns : (double)o->max;
	/*
	 * Refills: with N credits, the send into the slot that doorbell j freed is
	 * send j + N (both in time order); its delay is the host's answer time.
	 */
	for (j = 0; o->buffers < n && j < n - o->buffers; j++) {
		uint64_t s = start[j + o->buffers];

		if (end[j] >= lo && end[j] <= hi && s >= end[j]) {
			o->refills++;
			if (s - end[j] > o->worst_refill_ns) {
				o->worst_refill_ns = s - end[j];
			}
		}
	}
	free(start);
	return 0;
}
