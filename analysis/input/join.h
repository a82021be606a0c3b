/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Joins the wire's and the trace's RX doorbells on one time axis, giving for
 * each doorbell seen in both the time spent between the capture point and
 * the stack on each side:
 *   wire -> stack = txn_complete (trace) - completing frame (capture)
 *   stack -> wire = doorbell frame (capture) - hand-over (trace: doorbell_sent
 *                   minus its send_call_ns, the start of the send call)
 * Pairing (docs/analysis.md): both series in order of doorbell time (read
 * through a bounded heap, the series being nearly in that order; a side too
 * far out of it is sorted whole in memory); each wire
 * doorbell takes the unused trace doorbell nearest in time after the previous
 * pair (of the same transaction id when both sides give ids), if both its
 * doorbell and its completion lie within the window of the wire's. Doorbells
 * leave in order, so pairs never cross.
 * A part can be negative when the capture point sees a frame before the
 * trace's time of it (traces without send_call_ns take doorbell_sent, which
 * fires when the send call returned, after a capture on this host saw the
 * frame): such parts are recorded as 0 and counted.
 * The clocks' agreement: when the trace gives each completion its kernel
 * arrival (txn_complete's arrival_ns, put on the trace's time axis by the
 * reader), the offset between the completing frame's time in the capture and
 * that arrival in the trace,
 *   offset = arrival (trace) - completing frame (capture),
 * both readings of the kernel's one receive timestamp of the frame when the
 * capture is taken on the receiving interface, so what is left is the error
 * of putting the trace's monotonic clock on the capture's real-time axis (the
 * offset LTTng recorded at the session's start, against the stack's own
 * real-minus-monotonic reading) and any clock adjustment during the run.
 * |offset| is recorded.
 */
#ifndef DGR_ANALYSIS_JOIN_H
#define DGR_ANALYSIS_JOIN_H

#include <stdbool.h>
#include <stdint.h>

#include "stats.h"

#define JOIN_WINDOW_NS 1000000ull /* default pairing window: 1 ms */

struct join_result {
	uint64_t joined;
	uint64_t negative_w2s, negative_s2w; /* parts below 0, recorded as 0 */
	uint64_t arrival_offsets;	     /* pairs whose trace has the kernel arrival */
	uint64_t trace_arrival_first;	     /* of them: the trace's arrival before the capture's */
	uint64_t sides_in_memory; /* sides too far out of doorbell order, sorted whole in memory */
	/*
	 * Wire doorbells left out, by why: no trace doorbell (of its transaction,
	 * when paired by id) within the window of its doorbell time; the nearest
	 * one's completion outside the window; the trace's doorbells used up.
	 * And the first one left out: its doorbell time and transaction id.
	 */
	uint64_t unjoined_no_bell, unjoined_complete, unjoined_host_used_up;
	uint64_t first_unjoined_bell, first_unjoined_txn;
	bool by_txn; /* paired by transaction id (both sides give it) */
};

/* The series a join appends to: its two parts and the clocks' offsets. */
struct join_series {
	struct series w2s, s2w, arrival_offset;
};

void join_series_init(struct join_series *js);
void join_series_free(struct join_series *js);

/*
 * One side's doorbells: lat, samples (t = transaction complete, value =
 * latency); the others NULL, or one sample per sample of lat, in the same
 * order, with as value:
 *   handed   (trace) complete -> the doorbell handed to the kernel;
 *   arrival  (trace) the completing frame's kernel arrival, absolute;
 *   txn      the transaction's id: when both sides give it, a pair must have
 *            the same id (identity, not only time, so a burst of doorbells
 *            close in time cannot pair the wrong transactions).
 */
struct join_side {
	const struct series *lat, *handed, *arrival, *txn;
};

/*
 * Appends the two parts (t = wire transaction time) to out->w2s and out->s2w,
 * and with host->arrival the |offset| of the clocks to out->arrival_offset;
 * res counts. A side series whose length differs from its lat is ignored.
 */
void join_wire_host(const struct join_side *wire, const struct join_side *host, uint64_t window_ns,
		    struct join_series *out, struct join_result *res);

#endif
