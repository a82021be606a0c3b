/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Headroom: what a run's worst stall says about the rate and the buffers this
 * host could take (docs/analysis.md, "Headroom and shape"). The pool of
 * (N_c + N_p) buffers of S bytes absorbs a stall of (N_c + N_p) x S / R at a
 * rate of R bytes/s, so a run whose worst doorbell took W would have lost
 * nothing up to R_max = (N_c + N_p) x S / W, and a rate R needs
 * ceil(W x R / S) buffers. All arithmetic saturates: no accepted value of the
 * facts (up to 65535 + 65535 buffers of 1 GiB, 1 to 4e12 bytes/s) and no
 * latency a capture can hold overflows.
 */
#ifndef DGR_ANALYSIS_HEADROOM_H
#define DGR_ANALYSIS_HEADROOM_H

#include <stdbool.h>
#include <stdint.h>

#include "run_info.h"
#include "wire_analysis.h"

/* buffers_needed saturates here ("at least"). */
#define HEADROOM_MAX_BUFFERS 0xFFFFFFFFull

struct headroom {
	bool known;		    /* buffers, size, rate and a worst stall were all known */
	uint64_t worst_ns;	    /* the worst stall: the latest doorbell of the series */
	uint64_t buffers;	    /* N_c + N_p */
	uint64_t buffer_size;	    /* S, bytes */
	uint64_t rate_bytes;	    /* R, bytes/s */
	double lossless_rate_bytes; /* (N_c + N_p) x S / W, bytes/s */
	double rate_factor;	    /* lossless_rate_bytes / R */
	uint64_t buffers_needed;    /* ceil(W x R / S), at most HEADROOM_MAX_BUFFERS */
	double worst_of_tolerable;  /* W / ((N_c + N_p) x S / R) */
	bool estimated;		    /* pool and rate estimated from the capture */
	bool rate_estimated;	    /* the pool given, the rate estimated from the trace */
	/*
	 * TX: the FPGA's queue ran empty at this rate, so the stream is not
	 * lossless at it, whatever the worst single refill allows (late refills
	 * one after another empty the queue where none alone would)
	 */
	bool ran_empty;
};

/*
 * Fills *h from the pool (buffers of buffer_size bytes), the stream rate and
 * the worst stall. Any of them 0: h->known is false and the rest 0 except
 * worst_ns. Never overflows (see above).
 */
void headroom_compute(uint64_t buffers, uint64_t buffer_size, uint64_t rate_bytes,
		      uint64_t worst_ns, struct headroom *h);

/*
 * The same for a run: the facts of *ri when it knows host buffers, size and
 * rate (N_c + N_p = host + FPGA buffers); else, with st (may be NULL), the
 * capture's own: buffers seen, largest transaction, achieved data rate; else
 * ri's pool at rate_estimate (bytes/s from the trace, 0: none).
 * h->estimated and h->rate_estimated say which.
 */
void headroom_for_run(const struct run_info *ri, const struct wa_dir_stats *st,
		      uint64_t rate_estimate, uint64_t worst_ns, struct headroom *h);

/*
 * Tolerable latency estimated from a capture alone: buffers seen x largest
 * transaction / achieved data rate, in ns, in [1, RUN_INFO_MAX_TOLERABLE_NS];
 * 0 when the capture does not show enough (no buffer, fewer than 2
 * transactions, no time span).
 */
uint64_t headroom_estimate_tolerable(const struct wa_dir_stats *st);

/* a x b, or UINT64_MAX when the product does not fit. */
uint64_t sat_mul_u64(uint64_t a, uint64_t b);

/* a + b, or UINT64_MAX when the sum does not fit. */
uint64_t sat_add_u64(uint64_t a, uint64_t b);

/*
 * The tolerable latency of a run's facts, (N_c + N_p) x S / R, in ns, in [1,
 * RUN_INFO_MAX_TOLERABLE_NS], or 0 when something it needs is unknown.
 */
uint64_t headroom_tolerable_ns(const struct run_info *ri);

#endif
