/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Joins the wire's and the trace's RX doorbells on one time axis, giving for
 * each doorbell seen in both the time spent in the kernel on each side:
 *   wire -> stack = txn_complete (trace) - completing frame (capture)
 *   stack -> wire = doorbell frame (capture) - doorbell_sent (trace)
 * Pairing (docs/analysis.md): both series sorted by doorbell time; each wire
 * doorbell takes the latest unused trace doorbell sent at or before it whose
 * transaction completed at or after the wire transaction. Doorbells leave in
 * order, so this pairs them one to one even when the capture lost some.
 */
#ifndef DGR_ANALYSIS_JOIN_H
#define DGR_ANALYSIS_JOIN_H

#include <stdint.h>

#include "stats.h"

/*
 * wire and host: samples (t = transaction complete, value = latency).
 * Appends the two parts (t = wire transaction time) to w2s and s2w.
 * Returns the number of doorbells joined.
 */
uint64_t join_wire_host(const struct series *wire, const struct series *host, struct series *w2s,
			struct series *s2w);

#endif
