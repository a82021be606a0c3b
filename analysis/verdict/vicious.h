/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The vicious cycle as its own finding (the Ethernet tuning guide, seed 000,
 * "Vicious Cycle"; docs/analysis.md): once the ADC source drops samples it
 * spends a whole buffer on a discontinuity message, which shrinks the pool
 * of buffers for samples and with it the tolerable latency, so more samples
 * are dropped. On the wire (RX data) that is the first discontinuity
 * followed by discontinuities taking a large share of the transactions,
 * and the sample rate falling after it.
 */
#ifndef DGR_ANALYSIS_VICIOUS_H
#define DGR_ANALYSIS_VICIOUS_H

#include <stdbool.h>
#include <stdint.h>

/* A cycle: at least this many discontinuities ... */
#define VICIOUS_MIN_DISCONTINUITIES 3
/* ... taking at least this share (percent) of the transactions from the first one on. */
#define VICIOUS_MIN_SHARE_PCT 50

struct vicious {
	/* fed */
	uint64_t first_ts, last_ts;	    /* first and last data transaction */
	uint64_t first_drop_ts;		    /* the first discontinuity (0: none) */
	uint64_t bytes_before, txns_before; /* sample data before the first drop */
	uint64_t bytes_after, txns_after;   /* all transactions from the first drop on */
	uint64_t discontinuities;	    /* from the first drop on (all of them) */
	uint64_t run, longest_run;	    /* consecutive discontinuities */
	/* vicious_finish */
	bool found;			/* the cycle, by the thresholds above */
	double share;			/* discontinuities / transactions from the first drop */
	double rate_before, rate_after; /* sample bytes/s before and after the first drop */
	uint64_t tolerable_ns,
	    tolerable_after_ns; /* T, and T x (1 - share): the pool left for samples */
};

/* Feeds one completed RX data transaction (time order): its time, data bytes, flag opcode. */
void vicious_txn(struct vicious *v, uint64_t ts, uint64_t bytes, unsigned int opcode);

/* Decides, with the tolerable latency (0: unknown). */
void vicious_finish(struct vicious *v, uint64_t tolerable_ns);

#endif
