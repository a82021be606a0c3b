/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FPGA buffer occupancy on the TX path, from the doorbell pattern on the wire
 * (docs/analysis.md, "Regime on the TX path"). A data transaction the host
 * sent occupies an FPGA buffer until the doorbell that frees it comes back:
 * each matched TX doorbell of the series is the interval [t, t + latency]
 * during which its buffer was outstanding, and the number of intervals open
 * at a time is how many buffers the DAC had queued (as the host saw it, a
 * wire delay late). A host that keeps up keeps every FPGA buffer full; a host
 * too slow for the DAC leaves the queue near empty, and the DAC underruns
 * whenever it is empty.
 */
#ifndef DGR_ANALYSIS_OCCUPANCY_H
#define DGR_ANALYSIS_OCCUPANCY_H

#include <stdint.h>

#include "stats.h"

struct occupancy {
	uint64_t buffers;	   /* FPGA buffers judged against (at least 1) */
	uint64_t window_ns;	   /* from the queue first full (else the first transaction) to
				      the last transaction sent */
	uint64_t empty_ns;	   /* time in the window with nothing outstanding */
	uint64_t empty_episodes;   /* times the queue ran empty in the window */
	uint64_t longest_empty_ns; /* the longest of them */
	uint64_t low_ns;	   /* time in the window with at most buffers / 2 outstanding */
	uint64_t max;		   /* most buffers outstanding at once */
	double mean;		   /* time-weighted mean of the buffers outstanding */
	uint64_t refills;	   /* doorbells in the window whose slot was refilled */
	uint64_t worst_refill_ns;  /* the longest from a doorbell to the send into its slot */
};

/*
 * Computes the occupancy of the FPGA's buffers from the matched TX doorbells
 * (t: transaction complete at the capture point, value: doorbell latency).
 * buffers is the FPGA's buffer count (run facts, else the distinct flag
 * addresses seen); 0 is taken as the most seen outstanding at once.
 * Returns 0, -DGR_E_NOMEM when memory runs out, or -DGR_E_SYS when the
 * series' file cannot be read (*o is then zero).
 */
int occupancy_compute(const struct series *tx, uint64_t buffers, struct occupancy *o);

#endif
