/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Joins the wire's and the trace's RX doorbells on one time axis, giving for
 * each doorbell seen in both the time spent between the capture point and
 * the stack on each side:
 *   wire -> stack = txn_complete (trace) - completing frame (capture)
 *   stack -> wire = doorbell frame (capture) - hand-over (trace: doorbell_sent
 *                   minus its send_call_ns, the start of the send call)
 * Pairing (docs/analysis.md): both series sorted by doorbell time; each wire
 * doorbell takes the unused trace doorbell nearest in time after the previous
 * pair, if both its doorbell and its completion lie within the window of the
 * wire's. Doorbells leave in order, so pairs never cross.
 * A part can be negative when the capture point sees a frame before the
 * trace's time of it (traces without send_call_ns take doorbell_sent, which
 * fires when the send call returned, after a capture on this host saw the
 * frame): such parts are recorded as 0 and counted.
 */
#ifndef DGR_ANALYSIS_JOIN_H
#define DGR_ANALYSIS_JOIN_H

#include <stdint.h>

#include "stats.h"

#define JOIN_WINDOW_NS 1000000ull /* default pairing window: 1 ms */

struct join_result {
	uint64_t joined;
	uint64_t negative_w2s, negative_s2w; /* parts below 0, recorded as 0 */
};

/*
 * wire and host: samples (t = transaction complete, value = latency);
 * host_handed: NULL, or one sample per sample of host, in the same order
 * (value = complete -> hand-over to the kernel). Appends the two parts
 * (t = wire transaction time) to w2s and s2w.
 */
void join_wire_host(const struct series *wire, const struct series *host,
		    const struct series *host_handed, uint64_t window_ns, struct series *w2s,
		    struct series *s2w, struct join_result *res);

#endif
