/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interval accounting of latency-report --live: what changed in the in-host
 * analysis since the last interval (doorbells, counter snapshots) and the
 * run so far, as nearest-rank statistics (stats.h) and drop rates. It reads
 * the analysis only, so it is unit-tested without a trace (test_live.c).
 */
#ifndef DGR_ANALYSIS_LIVE_H
#define DGR_ANALYSIS_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host_events.h"
#include "loglin_hist.h"
#include "stats.h"

/* Hosts followed at once (as many as ctf_input.h's CTF_LIVE_MAX_SESSIONS). */
#define LIVE_MAX_HOSTS 8

/* Samples lost / (delivered + lost) of one kind of counter (0 when none counted). */
struct live_drops {
	uint64_t delivered, lost;
	double rate;
};

/* Where the open interval began. */
struct live_acc {
	size_t lat_mark, arrival_mark; /* first sample of h->lat, h->lat_arrival */
	struct live_drops host0, fpga0;
	uint64_t events0;
	unsigned int closed;
	/* the run's log2 histograms so far (stats.h's bins), added to at every close */
	uint64_t hist_run[HIST_BINS], arrival_hist_run[HIST_BINS];
	/*
	 * Every value of the run so far, added at every close: past the exact
	 * limit the run's quantiles come from these, not from reading the whole
	 * series again at every interval (allocated at the first close).
	 */
	struct loglin_hist lat_h, arrival_h, wire_h;
};

struct live_interval {
	unsigned int index; /* 1 for the first interval */
	uint64_t events, events_run;
	/* txn_complete -> doorbell_sent */
	struct quantiles lat, lat_run;
	uint64_t hist[HIST_BINS], hist_run[HIST_BINS]; /* log2 bins, as struct summary's */
	/* from the kernel's arrival of the completing frame (traces that carry it) */
	bool has_arrival;
	struct quantiles arrival, arrival_run;
	uint64_t arrival_hist[HIST_BINS], arrival_hist_run[HIST_BINS];
	/* the host's ramp check and the emulator's dropped samples (counter snapshots) */
	bool host_counters, fpga_counters;
	struct live_drops host, host_run, fpga, fpga_run;
	/* on the wire, RX (a live capture: latency-report --live-if) */
	bool has_wire;
	struct quantiles wire, wire_run;
};

void live_init(struct live_acc *a);
/* Frees what live_close allocated (a is then as live_init leaves it). */
void live_free(struct live_acc *a);

/*
 * Closes the open interval on the state of h: the doorbells and counter
 * snapshots since the last call, and the run so far; opens the next one.
 * Returns 0, or -DGR_E_NOMEM when memory for sorting runs out (*out is then partly
 * filled and the interval stays open).
 */
int live_close(struct live_acc *a, const struct host_analysis *h, struct live_interval *out);

/*
 * Adds the wire's doorbell latency to an interval just closed: s is the wire
 * analysis' RX series, *mark where the interval began in it (advanced to its
 * end), run_h the histogram of the run's wire values (a's wire_h, as lat_h).
 * Returns 0, or -DGR_E_NOMEM when memory runs out.
 */
int live_close_wire(size_t *mark, struct loglin_hist *run_h, const struct series *s,
		    struct live_interval *out);

/*
 * Several hosts together (latency-report --live URL URL...): per[0..n) are
 * the hosts' intervals just closed, lat_from[i] and arrival_from[i] where
 * host i's interval began in h[i]->lat and h[i]->lat_arrival (its marks
 * before live_close), acc[i] its accumulator after live_close. Counts, events,
 * drops and histograms are summed; the
 * quantiles are those of the union of the hosts' doorbells (the run's, past the
 * exact limit, from the hosts' run histograms merged), from the kernel's
 * arrival when every host's trace carries it. wire (NULL: no wire) holds each
 * host's wire RX series and wire_from[i] where its interval began (the mark
 * before live_close_wire): the wire's quantiles are then those of the union
 * too. Returns 0, -DGR_E_NOMEM when memory runs out, or -DGR_E_INVAL when n is
 * over LIVE_MAX_HOSTS.
 */
int live_together(const struct host_analysis *const *h, const struct live_acc *const *acc,
		  const size_t *lat_from, const size_t *arrival_from,
		  const struct series *const *wire, const size_t *wire_from,
		  const struct live_interval *per, unsigned int n, struct live_interval *out);

/*
 * Writes a sparkline of v[0..n) into buf (NUL-terminated; stops when full):
 * one UTF-8 block per value, U+2581..U+2588 in eighths of the largest value
 * (rounded up, so any doorbell shows), a space for 0 (no doorbell).
 */
void live_sparkline(char *buf, size_t size, const uint64_t *v, unsigned int n);

/* Room for any line of live_histogram: 3-byte blocks, brackets, two edges. */
#define LIVE_HISTOGRAM_SIZE (HIST_BINS * 3 + 2 * 3 + 2 * 32 + 4)

/*
 * The bins a histogram (hist[HIST_BINS], log2 bins) uses: *lo the first
 * that holds a sample, *hi the last. Returns false for an empty histogram.
 */
bool live_histogram_range(const uint64_t *hist, unsigned int *lo, unsigned int *hi);

/*
 * Writes bins lo..hi of hist (log2 bins) into buf as one line of text: the
 * lower edge of bin lo, the bins as live_sparkline's blocks between U+2595
 * and U+258F (a space for an empty bin), the upper edge of bin hi:
 * "16.384 us ▕ ▃█ ▁▏ 1.049 ms". Several histograms drawn
 * over the same lo..hi line up bin for bin. NUL-terminated; "" when
 * lo > hi, hi >= HIST_BINS or the line does not fit (LIVE_HISTOGRAM_SIZE
 * always does).
 */
void live_histogram(char *buf, size_t size, const uint64_t *hist, unsigned int lo, unsigned int hi);

#endif
