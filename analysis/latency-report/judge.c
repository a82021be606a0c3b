// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What latency-report's offline report and its live view judge alike: the
 * run's facts, the tolerable latency, the wire and the trace on one axis,
 * and the series the verdict is read from.
 */

#include <inttypes.h>
#include <stdio.h>

#include <dgrdma/host.h>

#include "headroom.h"
#include "host_events.h"
#include "join.h"
#include "report.h"
#include "vicious.h"
#include "wire_analysis.h"
#include "latency-report.h"

/* Whether the options give any of the tolerable latency's facts (latency-report.h). */
bool lr_facts_from_options(const struct options *o)
{
	return o->run.host_buffers || o->run.fpga_buffers || o->run.buffer_size ||
	       o->run.rate_bytes;
}

/*
 * The facts the trace records (dgrdma:stream_config, dgrdma_fpga:stream_config)
 * into the ones ri does not know: the options and run.json come first. The
 * FPGA's buffers and rate are the emulator's own when it was traced, else
 * the buffers the host was told. Returns whether any fact came from the trace.
 */
static bool take_trace_facts(const struct host_analysis *ha, struct run_info *ri,
			     struct report *rep)
{
	static const struct ha_facts none;
	const struct ha_facts *f = ha ? &ha->facts : &none;
	const uint64_t rate = f->fpga ? f->fpga_rate_sps * DGR_SAMPLE_BYTES : 0;
	/* fact: in ri (0 unknown); own: the process's own record of it; fill: the trace's best */
	const struct {
		const char *what;
		uint64_t *fact;
		uint64_t own, fill;
	} facts[] = {
		{ "host buffers", &ri->host_buffers, f->host ? f->host_buffers : 0,
		  f->host ? f->host_buffers : f->fpga_host_buffers },
		{ "buffer size", &ri->buffer_size, f->host ? f->buffer_size : 0,
		  f->host ? f->buffer_size : f->fpga_buffer_size },
		{ "FPGA buffers", &ri->fpga_buffers, f->fpga ? f->fpga_buffers : 0,
		  f->fpga ? f->fpga_buffers : f->peer_buffers },
		{ "rate, bytes/s", &ri->rate_bytes, rate, rate },
	};
	bool took = false;
	size_t i;

	rep->n_facts_disagree = 0;
	for (i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		if (*facts[i].fact && facts[i].own && *facts[i].fact != facts[i].own) {
			snprintf(rep->facts_disagree[rep->n_facts_disagree++],
				 sizeof(rep->facts_disagree[0]),
				 "%s: %" PRIu64
				 " given, but the trace's stream_config says %" PRIu64,
				 facts[i].what, *facts[i].fact, facts[i].own);
		} else if (!*facts[i].fact && facts[i].fill) {
			*facts[i].fact = facts[i].fill;
			took = true;
		}
	}
	return took;
}

/*
 * Without the rate (no option, no run.json, no capture that shows the stream):
 * the pool the facts give and the rate the trace's counters moved at, so that a
 * trace alone, or with a capture of the stream on ports not analysed, is judged
 * against a tolerable latency as a run folder is, not by its p50 alone.
 */
static void estimate_from_trace(struct report *rep, const struct host_analysis *ha)
{
	int d;

	if (!rep->run.host_buffers || !rep->run.buffer_size) {
		return;
	}
	for (d = WA_RX; d <= WA_TX; d++) {
		rep->rate_estimate[d] = ha_data_rate(ha, d == WA_RX ? 0 : 1);
		rep->tolerable_ns[d] =
		    rep->rate_estimate[d]
			? dgr_tolerable_latency_ns(rep->run.host_buffers, rep->run.fpga_buffers,
						   rep->run.buffer_size,
						   (double)rep->rate_estimate[d])
			: 0;
		if (rep->tolerable_ns[d]) {
			rep->tolerable_source = "estimated from the trace";
		}
	}
}

/*
 * The run's facts (rep->run: run's, which are the options' then run.json's,
 * then the trace's) and the tolerable latency: --tolerable-us, else buffers x size / rate, else
 * estimated (wa), else from the facts' pool and the trace's rate (ha). Live
 * and offline call it with what they have read, so that both judge by the same
 * facts.
 */
void lr_set_tolerable(struct report *rep, const struct options *o, const struct run_info *run,
		      bool from_options, bool facts_from_run_json, const struct wire_analysis *wa,
		      const struct host_analysis *ha)
{
	static const char *const sources[8] = {
		"none",	 "options",	      "run.json",	    "options and run.json",
		"trace", "options and trace", "run.json and trace", "options, run.json and trace",
	};
	uint64_t wire_rx = wa ? headroom_estimate_tolerable(&wa->dir[WA_RX]) : 0;
	uint64_t wire_tx = wa ? headroom_estimate_tolerable(&wa->dir[WA_TX]) : 0;
	bool from_trace;

	rep->run = *run;
	from_trace = take_trace_facts(ha, &rep->run, rep);
	rep->tolerable_source = "none";
	if (o->tolerable_ns) {
		rep->tolerable_ns[WA_RX] = rep->tolerable_ns[WA_TX] = o->tolerable_ns;
		rep->tolerable_source = "options";
	} else if (headroom_tolerable_ns(&rep->run)) {
		rep->tolerable_ns[WA_RX] = rep->tolerable_ns[WA_TX] =
		    headroom_tolerable_ns(&rep->run);
		rep->tolerable_source =
		    sources[(from_options || (!facts_from_run_json && !from_trace) ? 1 : 0) |
			    (facts_from_run_json ? 2 : 0) | (from_trace ? 4 : 0)];
	} else if (wire_rx || wire_tx) {
		rep->tolerable_ns[WA_RX] = wire_rx;
		rep->tolerable_ns[WA_TX] = wire_tx;
		rep->tolerable_source = "estimated";
	} else if (ha) {
		estimate_from_trace(rep, ha);
	}
	rep->host_tolerable_ns = rep->tolerable_ns[WA_RX];
}

/*
 * The trace's data path when the capture was read the other way round: the
 * trace's host only sent data (TX credits, no RX doorbell) or only received it,
 * the capture's doorbells are all of the other path, and every connection's
 * host side was decided by the path (no --host, no DCP request told which side
 * is the host). A by-hand TX run read without --path tx was judged as an RX
 * stream of the DAC's queue. Returns "tx", "rx" or "".
 */
static const char *path_from_trace(const struct wire_analysis *wa, const struct host_analysis *ha)
{
	int trace_d, wire_d;
	unsigned int i;

	if (!wa || !ha) {
		return "";
	}
	trace_d = ha->tx_credit.n && !ha->lat.n	  ? WA_TX
		  : ha->lat.n && !ha->tx_credit.n ? WA_RX
						  : -1;
	wire_d = wa->lat[WA_TX].n && !wa->lat[WA_RX].n	 ? WA_TX
		 : wa->lat[WA_RX].n && !wa->lat[WA_TX].n ? WA_RX
							 : -1;
	if (trace_d < 0 || wire_d < 0 || trace_d == wire_d) {
		return "";
	}
	for (i = 0; i < wa->conns_ready; i++) {
		if (wa->conns[i].host_side >= 0 && wa->conns[i].host_rule != WA_HOST_BY_PATH) {
			return "";
		}
	}
	return trace_d == WA_TX ? "tx" : "rx";
}

/*
 * The verdict: on the wire series with the most doorbells (wa: NULL without a
 * capture), else the host's (ha: NULL without a trace). Returns 0,
 * -DGR_E_NOMEM or -DGR_E_SYS (report_verdict()'s codes).
 */
int lr_decide(struct report *rep, const struct wire_analysis *wa, const struct host_analysis *ha)
{
	const struct series *s = NULL;
	const struct wa_dir_stats *st = NULL;
	uint64_t tol = 0, span = 0, data = 0;
	bool tx = false;
	int d;

	rep->verdict_series = "none";
	rep->path_from_trace = path_from_trace(wa, ha);
	if (wa) {
		d = wa->lat[WA_TX].n > wa->lat[WA_RX].n ? WA_TX : WA_RX;
		/* a capture read the wrong way round judges nothing: the trace's series does */
		if (wa->lat[d].n && !rep->path_from_trace[0]) {
			s = &wa->lat[d];
			st = &wa->dir[d];
			tol = rep->tolerable_ns[d];
			span = wa->last_ts > wa->first_ts ? wa->last_ts - wa->first_ts : 0;
			rep->verdict_series = d == WA_TX ? "wire.tx" : "wire.rx";
			tx = d == WA_TX;
		}
		data += wa->dir[WA_RX].transactions + wa->dir[WA_TX].transactions;
	}
	if (!s && ha && ha->tx_credit.n > ha->lat.n) {
		/* a TX trace: sent -> credit back is the buffer's time at the FPGA */
		s = &ha->tx_credit;
		tol = rep->tolerable_ns[WA_TX];
		span = ha->last_ts > ha->first_ts ? ha->last_ts - ha->first_ts : 0;
		rep->verdict_series = "host.tx";
		tx = true;
	}
	if (!s && ha && ha->lat.n) {
		/*
		 * From the kernel's arrival when every doorbell has it: the frame's
		 * wait for the receive thread is latency the FPGA sees too.
		 */
		bool arrival = ha->lat_arrival.n == ha->lat.n;

		s = arrival ? &ha->lat_arrival : &ha->lat;
		tol = rep->host_tolerable_ns;
		span = ha->last_ts > ha->first_ts ? ha->last_ts - ha->first_ts : 0;
		rep->verdict_series = arrival ? "host.rx.latency_from_arrival" : "host.rx";
	}
	if (ha) {
		data += ha->c.txn_complete + ha->c.txn_sent;
	}
	return report_verdict(rep, s, span, tol, tx, st, data);
}

/*
 * Completes the report of what was read (wa, ha: NULL when absent): the
 * tolerable latency, the vicious cycle (vc, fed from wa's transactions), the
 * wire and the trace on one axis (into js) and the verdict.
 * Returns 0 or lr_decide()'s negative code.
 */
int lr_build_report(struct report *rep, const struct options *o, const struct run_info *run,
		    bool from_options, bool facts_from_run_json, struct wire_analysis *wa,
		    struct host_analysis *ha, struct vicious *vc, struct join_series *js)
{
	lr_set_tolerable(rep, o, run, from_options, facts_from_run_json, wa, ha);
	if (wa) {
		vicious_finish(vc, rep->tolerable_ns[WA_RX]);
		rep->vicious = vc;
	}
	rep->wire = wa;
	rep->host = ha;
	report_check_apart(rep);
	if (wa && ha) {
		struct join_result jr;
		const struct join_side wire = { .lat = &wa->lat[WA_RX],
						.txn = &wa->lat_txn[WA_RX] };
		const struct join_side host = { .lat = &ha->lat,
						.handed = &ha->lat_handed,
						.arrival = &ha->arrival,
						.txn = &ha->lat_txn };

		join_wire_host(&wire, &host, o->join_window_ns, js, &jr);
		rep->join = jr;
		rep->joined = jr.joined;
		rep->negative_w2s = jr.negative_w2s;
		rep->negative_s2w = jr.negative_s2w;
		rep->arrival_offsets = jr.arrival_offsets;
		rep->trace_arrival_first = jr.trace_arrival_first;
		rep->wire_to_stack = &js->w2s;
		rep->stack_to_wire = &js->s2w;
		rep->arrival_offset = &js->arrival_offset;
	}
	return lr_decide(rep, wa, ha);
}

/* Returns the message of a negative code of the report's computation. */
const char *lr_report_error(int rc)
{
	if (rc == -DGR_E_SYS) {
		return "a temporary file of the analysis (under TMPDIR) could not be read back";
	}
	return "out of memory";
}
