/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The regime classifier: healthy, jitter-bound or throughput-bound, as the
 * OpenCPI Ethernet tuning guide defines them. Method and thresholds are in
 * docs/analysis.md ("Regime"); the numbers that decided are put in a one-line
 * reason, with the mitigations the guide recommends for the regime.
 */
#ifndef DGR_ANALYSIS_CLASSIFY_H
#define DGR_ANALYSIS_CLASSIFY_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

enum regime {
	REGIME_UNKNOWN = 0, /* too few doorbells to judge */
	REGIME_HEALTHY,
	REGIME_JITTER,
	REGIME_THROUGHPUT,
};

/* Thresholds (documented in docs/analysis.md). */
#define CLASSIFY_MIN_SAMPLES   10 /* fewer doorbells: "unknown" */
#define CLASSIFY_HIGH_FRACTION 2  /* high = latency > tolerable / 2 */
#define CLASSIFY_SELF_RATIO    10 /* without a tolerable latency: 10 x reference */

struct classification {
	enum regime regime;
	char reason[256];
	uint64_t high_threshold_ns; /* the latency above which a doorbell is "high" */
	uint64_t high_count;	    /* doorbells above it */
	uint64_t episodes;	    /* runs of consecutive high doorbells */
	uint64_t longest_episode;   /* doorbells in the longest run */
};

/*
 * Classifies a latency series (in time order) with its summary. tolerable_ns
 * 0 means unknown: the series is then judged against itself (see
 * docs/analysis.md). Always fills *c.
 */
void classify(const struct series *s, const struct summary *sum, uint64_t tolerable_ns,
	      struct classification *c);

/*
 * When no doorbell was matched at all, says why the verdict is unknown from
 * the data transactions seen (capture and trace together): with none, the
 * stream never started; with some, the host released no buffer.
 */
void classify_no_doorbells(uint64_t data_transactions, struct classification *c);

/* "healthy", "jitter-bound", "throughput-bound" or "unknown". */
const char *regime_label(enum regime r);

/*
 * The guide's mitigations for a regime, NULL-terminated; path_tx selects the
 * transmit-path list (FPGA buffers, coalesce wait) for jitter-bound runs.
 */
const char *const *regime_mitigations(enum regime r, int path_tx);

#endif
