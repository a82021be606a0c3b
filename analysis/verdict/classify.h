/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The regime classifier: healthy, jitter-bound or throughput-bound, as the
 * OpenCPI Ethernet tuning guide defines them. Method and thresholds are in
 * docs/analysis.md ("Regime"); the numbers that decided are put in a one-line
 * reason, with the mitigations the guide recommends for the regime.
 */
#ifndef DGR_ANALYSIS_CLASSIFY_H
#define DGR_ANALYSIS_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "headroom.h"
#include "occupancy.h"
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
 * Whether classify()'s verdict on sum (with tolerable_ns and the high_threshold_ns it set)
 * stands however each latency is off by up to step_ns (a capture's step back): every value
 * it compared lies farther from what it was compared with than such a step can move the
 * two. Judged against itself, the references are CLASSIFY_SELF_RATIO x min and x p50, which
 * move that many times as far. Returns false without a threshold.
 */
bool classify_holds_under_step(const struct summary *sum, uint64_t tolerable_ns,
			       uint64_t high_threshold_ns, uint64_t step_ns);

/*
 * The TX path's regime, from the FPGA's buffer occupancy (occupancy.h) and
 * the underrun periods the emulator's or hardware's counters reported
 * (underruns_known false: none in the input). matched is the number of TX
 * doorbells the occupancy was computed from. Thresholds in docs/analysis.md
 * ("Regime on the TX path"). Always fills *c.
 */
void classify_tx(const struct occupancy *o, uint64_t matched, bool underruns_known,
		 uint64_t underruns, struct classification *c);

/*
 * The shape of a latency series (docs/analysis.md, "Headroom and shape"):
 * steady, spiky (runs of doorbells above CLASSIFY_SELF_RATIO x p50, or half
 * the tolerable latency when that is lower: the stalls, counted with the
 * largest), or a plateau (p50 above half the
 * tolerable latency, or without one at least CLASSIFY_SELF_RATIO x min).
 */
enum latency_shape {
	SHAPE_NONE = 0, /* not judged (too few doorbells, or the TX path) */
	SHAPE_STEADY,
	SHAPE_SPIKY,
	SHAPE_PLATEAU,
};

struct lat_shape {
	enum latency_shape kind;
	uint64_t spike_threshold_ns; /* min(CLASSIFY_SELF_RATIO x p50, tolerable / 2) */
	uint64_t spikes;	     /* runs of consecutive doorbells above it */
	uint64_t spike_doorbells;    /* doorbells above it */
	uint64_t largest_ns;	     /* the latest doorbell of the largest spike */
	uint64_t p50_ns;	     /* the typical latency (the plateau's level) */
};

/* Fills *sh for a series (time order) and its summary; tolerable_ns 0: unknown. */
void classify_shape(const struct series *s, const struct summary *sum, uint64_t tolerable_ns,
		    struct lat_shape *sh);

/* "steady", "spiky", "plateau" or "none". */
const char *shape_label(enum latency_shape k);

/*
 * The verdict in one line a user can act on, e.g. "healthy; 5 stalls up to
 * 6.8 ms, 21% of the tolerable latency; lossless up to about 4.8x this rate".
 * occ is the TX occupancy when the verdict is the TX path's (else NULL).
 */
void classify_summary(char *buf, size_t size, const struct classification *c,
		      const struct lat_shape *sh, const struct headroom *h, uint64_t tolerable_ns,
		      const struct occupancy *occ);

/*
 * When no doorbell was matched at all, says why the verdict is unknown from
 * the data transactions seen (capture and trace together): with none, the
 * stream never started; with some, the host released no buffer.
 */
void classify_no_doorbells(uint64_t data_transactions, struct classification *c);

/*
 * When no data transaction was found on the ports analysed but a bare
 * capture has datagrams on other UDP ports that decode as DG-RDMA or DCP
 * (ports: their comma-separated list): the stream was not found on the ports
 * analysed, which says where it is instead of "never started".
 */
void classify_not_on_ports(uint64_t datagrams, const char *ports, struct classification *c);

/* "healthy", "jitter-bound", "throughput-bound" or "unknown". */
const char *regime_label(enum regime r);

/*
 * The guide's mitigations for a regime, NULL-terminated; path_tx selects the
 * transmit-path list (FPGA buffers, coalesce wait) for jitter-bound runs.
 */
const char *const *regime_mitigations(enum regime r, int path_tx);

#endif
