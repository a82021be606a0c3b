// SPDX-License-Identifier: GPL-2.0-or-later
/* dgrdma-host's output through the print layer: the --stats-interval lines and the summary. */
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/ramp.h>
#include <dgrdma/transport.h>
#include "host.h"

/* ---- output ---- */

static const char *policy_name(int p)
{
	return p == SCHED_FIFO ? "fifo" : p == SCHED_RR ? "rr" : "other";
}

/* See host.h. */
void host_on_stats(void *ctx, struct dgr_conn *c)
{
	struct host_run *r = ctx;
	struct dgr_conn_stats s;
	struct dgr_pr p;
	char *line = NULL;
	size_t len = 0;
	FILE *mem;
	uint64_t t = host_now_ns();
	uint64_t bytes, lat_max, lat_max_arrival;
	double dt;

	dgr_conn_get_stats(c, &s);
	dgr_conn_latency_window(c, &lat_max, &lat_max_arrival);
	bytes = r->cfg->co.direction == DGR_DIR_RX ? s.data_bytes_rx : s.data_bytes_tx;
	dt = (double)(t - r->last_ns) / 1e9;
	mem = open_memstream(&line, &len);
	if (!mem) {
		return;
	}
	dgr_pr_begin(&p, mem, DGR_PR_TEXT_KEYS | (r->cfg->json ? DGR_PR_JSON : 0));
	dgr_pr_line_begin(&p, "stats");
	if (r->cfg->npeers > 1) {
		dgr_pr_u64(&p, "peer", NULL, r->index);
	}
	dgr_pr_dbl(&p, "t_s", NULL, (double)(t - r->start_ns) / 1e9, 1);
	dgr_pr_dbl(&p, "mbyte_s", NULL, dt > 0 ? (double)(bytes - r->last_bytes) / dt / 1e6 : 0.0,
		   1);
	dgr_pr_u64(&p, "txns_completed", NULL, s.txns_completed);
	dgr_pr_u64(&p, "txns_sent", NULL, s.txns_sent);
	dgr_pr_u64(&p, "doorbells_sent", NULL, s.doorbells_sent);
	dgr_pr_u64(&p, "doorbells_received", NULL, s.doorbells_received);
	dgr_pr_u64(&p, "buffers_in_use", NULL, s.buffers_in_use);
	dgr_pr_u64(&p, "occupancy_hwm", NULL, s.occupancy_hwm);
	dgr_pr_u64(&p, "samples_lost", NULL, s.samples_lost);
	dgr_pr_u64(&p, "malformed_frames", NULL, s.malformed_frames);
	dgr_pr_u64(&p, "duplicate_frames", NULL, s.duplicate_frames);
	dgr_pr_u64(&p, "socket_drops", NULL, s.socket_drops);
	dgr_pr_u64(&p, "retransmits", NULL, s.retransmits);
	dgr_pr_u64(&p, "frames_tx", NULL, s.frames_tx);
	dgr_pr_u64(&p, "frames_rx", NULL, s.frames_rx);
	/* the interval's largest doorbell latency, from completion and from arrival */
	dgr_pr_dbl(&p, "doorbell_max_ms", NULL, (double)lat_max / 1e6, 3);
	dgr_pr_dbl(&p, "doorbell_max_from_arrival_ms", NULL, (double)lat_max_arrival / 1e6, 3);
	dgr_pr_line_end(&p);
	dgr_pr_end(&p);
	if (fclose(mem) == 0) {
		fwrite(line, 1, len, stderr);
	}
	free(line);
	r->last_bytes = bytes;
	r->last_ns = t;
}

struct incomplete_list {
	struct dgr_pr *p;
	unsigned int n;
};

static void print_incomplete(void *ctx, uint32_t txn_id, uint32_t bytes, uint16_t seen,
			     uint16_t num)
{
	struct incomplete_list *l = ctx;

	if (l->n++ >= 16) {
		return;
	}
	dgr_pr_line_begin(l->p, NULL);
	dgr_pr_u64(l->p, "txn_id", NULL, txn_id);
	dgr_pr_u64(l->p, "bytes_seen", NULL, bytes);
	dgr_pr_u64(l->p, "msgs_seen", NULL, seen);
	dgr_pr_u64(l->p, "num_msgs", NULL, num);
	dgr_pr_line_end(l->p);
}

/*
 * The members of one latency distribution, in the summary's order: the count, and the figures
 * only of a count above 0 (as latency-report: no minimum of nothing).
 */
static void print_dist(struct dgr_pr *p, const struct dgr_latency_dist *d)
{
	dgr_pr_u64(p, "count", NULL, d->count);
	if (!d->count) {
		return;
	}
	dgr_pr_ns(p, "min", NULL, d->min);
	dgr_pr_ns(p, "p50", NULL, d->p50);
	dgr_pr_ns(p, "p90", NULL, d->p90);
	dgr_pr_ns(p, "p99", NULL, d->p99);
	dgr_pr_ns(p, "p999", NULL, d->p999);
	dgr_pr_ns(p, "max", NULL, d->max);
	dgr_pr_ns_mean(p, "mean", NULL, d->mean);
}

static void print_latency(struct dgr_pr *p, const struct dgr_latency_summary *l)
{
	dgr_pr_obj_begin(p, "latency_ns", NULL);
	print_dist(p, &l->from_complete);
	if (l->from_complete.count) {
		dgr_pr_u64(p, "stored", NULL, l->from_complete.stored);
		dgr_pr_ns_mean(p, "mean_wait_consumer", NULL, l->mean_wait_consumer);
		dgr_pr_ns_mean(p, "mean_consumer_work", NULL, l->mean_consumer_work);
		dgr_pr_ns_mean(p, "mean_wait_send", NULL, l->mean_wait_send);
		dgr_pr_ns_mean(p, "mean_wait_receive", NULL, l->mean_wait_receive);
	}
	dgr_pr_obj_end(p);
	/* the same doorbells from the kernel's arrival of the completing frame */
	dgr_pr_obj_begin(p, "latency_from_arrival_ns", NULL);
	print_dist(p, &l->from_arrival);
	dgr_pr_obj_end(p);
}

/*
 * RX: the latency the buffers tolerate at the stream's rate, (N_c + N_p) x S / R
 * (docs/protocol.md), and how far the doorbells stayed inside it. The rate is
 * taken over the stream's span (first to last completion), which needs two
 * transactions.
 */
static void print_tolerable(struct dgr_pr *p, const struct dgr_conn_opts *co, struct dgr_conn *c,
			    uint64_t bytes, uint64_t transactions,
			    const struct dgr_latency_summary *l)
{
	uint64_t first, last;
	double rate = 0, tolerable = 0;

	dgr_conn_stream_span(c, &first, &last);
	if (transactions >= 2 && last > first) {
		/* the bytes of the transactions after the first, over the time they took */
		rate = (double)bytes * (double)(transactions - 1) / (double)transactions /
		       ((double)(last - first) / 1e9);
		tolerable = (double)dgr_tolerable_latency_ns(co->buffers, co->peer_buffers,
							     co->buffer_size, rate);
	}
	dgr_pr_obj_begin(p, "tolerable_latency", NULL);
	dgr_pr_u64(p, "host_buffers", NULL, co->buffers);
	dgr_pr_u64(p, "fpga_buffers", NULL, co->peer_buffers);
	dgr_pr_u64(p, "buffer_size", NULL, co->buffer_size);
	dgr_pr_ns(p, "stream_span_ns", NULL, last > first ? last - first : 0);
	dgr_pr_dbl(p, "stream_rate_mbyte_s", NULL, rate / 1e6, 1);
	dgr_pr_ns(p, "latency_ns", NULL, (uint64_t)tolerable);
	if (tolerable > 0) {
		/* from the kernel's arrival: what the FPGA waits for, as far as the host can see */
		dgr_pr_ns_signed(p, "margin_p999_ns", NULL,
				 (int64_t)tolerable - (int64_t)l->from_arrival.p999);
		dgr_pr_ns_signed(p, "margin_max_ns", NULL,
				 (int64_t)tolerable - (int64_t)l->from_arrival.max);
	}
	dgr_pr_obj_end(p);
}

/*
 * rx: whether the stream shows that the producer (the FPGA's ADC) dropped
 * samples. samples_lost counts only the gaps the ramp check saw in what
 * arrived; an FPGA that reports its drops sends discontinuity messages, and
 * one whose stream stopped may have dropped every sample since.
 */
static void print_producer_drops(struct dgr_pr *p, const struct dgr_conn_stats *s,
				 const struct dgr_ramp *ramp, bool ramp_checked,
				 enum host_status status)
{
	const bool stopped = status == HOST_STALLED;
	const char *dropped = "no";
	char why[256];

	if (ramp_checked && ramp->backwards && !s->discontinuities) {
		/* a producer that drops only skips ahead: going back is data out of place */
		dropped = "unknown";
		snprintf(why, sizeof(why),
			 "the sample ramp went back %" PRIu64 " times (%" PRIu64
			 " gaps): buffers reached the host out of order or were written again "
			 "before it freed them, a fault of the buffers' flow control (credits, "
			 "doorbells), not a drop; no discontinuity message",
			 ramp->backwards, ramp->gaps);
	} else if (s->discontinuities || (ramp_checked && ramp->gaps)) {
		dropped = "yes";
		snprintf(why, sizeof(why),
			 "the stream shows %" PRIu64 " drop periods reported by the producer "
			 "(discontinuity messages) and %" PRIu64
			 " gaps in the sample ramp: it dropped samples while no buffer was free",
			 s->discontinuities, ramp_checked ? ramp->gaps : 0);
	} else if (stopped) {
		dropped = "unknown";
		snprintf(why, sizeof(why),
			 "the stream stopped before its end: a producer that kept sampling dropped "
			 "every sample since, which no message reaches the host to show (the "
			 "FPGA's own counters say: latency-report on a run recorded with it)");
	} else if (!ramp_checked) {
		dropped = "unknown";
		snprintf(why, sizeof(why),
			 "no discontinuity message; the ramp was not checked (--no-ramp-check), "
			 "so a producer that does not report its drops is not seen");
	} else {
		snprintf(why, sizeof(why),
			 "no discontinuity message and no gap in the sample ramp");
	}
	dgr_pr_obj_begin(p, "producer_drops", NULL);
	dgr_pr_str(p, "dropped", NULL, dropped);
	dgr_pr_u64(p, "discontinuities", NULL, s->discontinuities);
	dgr_pr_u64(p, "ramp_gaps", NULL, ramp_checked ? ramp->gaps : 0);
	dgr_pr_str(p, "why", NULL, why);
	dgr_pr_obj_end(p);
}

/*
 * The frame numbering as the run ended (dgr_seq_state), printed when it did
 * not end as asked: a stall on ACKs or retransmission explains itself.
 * peer_ack_end, rx_highest and ack_base are left out while there is none.
 */
static void print_sequence(struct dgr_pr *p, const struct dgr_seq_state *q)
{
	dgr_pr_obj_begin(p, "sequence", NULL);
	dgr_pr_u64(p, "send_next", NULL, q->send_next);
	dgr_pr_u64(p, "send_oldest_unacked", NULL, q->send_oldest);
	dgr_pr_u64(p, "send_unacked", NULL, q->send_unacked);
	dgr_pr_u64(p, "peer_window", NULL, q->peer_window);
	dgr_pr_bool(p, "window_blocked", NULL, q->window_blocked);
	if (q->peer_acked) {
		dgr_pr_u64(p, "peer_ack_end", NULL, q->peer_ack_end);
	}
	dgr_pr_u64(p, "retransmit_queue", NULL, q->rtq_outstanding);
	dgr_pr_u64(p, "retransmit_slots", NULL, q->rtq_slots);
	if (q->rtq_outstanding > 0) {
		dgr_pr_u64(p, "retransmit_oldest", NULL, q->rtq_oldest_seq);
		dgr_pr_u64(p, "retransmit_oldest_attempts", NULL, q->rtq_oldest_attempts);
		dgr_pr_ns(p, "retransmit_oldest_age_ns", NULL, q->rtq_oldest_age_ns);
	}
	if (q->rx_started) {
		dgr_pr_u64(p, "rx_highest", NULL, q->rx_highest);
	}
	if (q->ack_started) {
		dgr_pr_u64(p, "ack_base", NULL, q->ack_base);
	}
	dgr_pr_u64(p, "ack_pending", NULL, q->ack_pending);
	dgr_pr_u64(p, "ack_waiting", NULL, q->ack_waiting);
	dgr_pr_obj_end(p);
}

static void print_summary(struct dgr_pr *p, struct host_run *r, struct dgr_conn *c,
			  const struct summary *sm)
{
	struct host_cfg *cfg = r->cfg;
	struct dgr_conn_stats s;
	struct dgr_latency_summary l;
	const struct dgr_ramp *ramp = dgr_conn_ramp(c);
	struct incomplete_list il = { .p = p };
	bool rx = cfg->co.direction == DGR_DIR_RX;
	uint64_t bytes;
	int rb, sb;

	dgr_conn_get_stats(c, &s);
	dgr_conn_latency(c, &l);
	bytes = rx ? s.data_bytes_rx : s.data_bytes_tx;
	dgr_pr_str(p, "mode", NULL, cfg->mode);
	dgr_pr_str(p, "status", NULL, host_status_name(sm->status));
	if (sm->error) {
		dgr_pr_str(p, "error", NULL, sm->error);
	}
	if (dgr_conn_warning(c)) {
		dgr_pr_str(p, "warning", NULL, dgr_conn_warning(c));
	}
	dgr_pr_dbl(p, "duration_s", NULL, sm->seconds, 3);
	dgr_pr_u64(p, "transactions", NULL, rx ? s.txns_completed : s.txns_sent);
	dgr_pr_u64(p, "doorbells_sent", NULL, s.doorbells_sent);
	dgr_pr_u64(p, "doorbells_sent_by_consumer", NULL, s.doorbells_inline);
	dgr_pr_u64(p, "doorbells_received", NULL, s.doorbells_received);
	dgr_pr_u64(p, "bytes", NULL, bytes);
	dgr_pr_dbl(p, "rate_mbyte_s", NULL,
		   sm->seconds > 0 ? (double)bytes / sm->seconds / 1e6 : 0.0, 1);
	dgr_pr_dbl(p, "rate_msample_s", NULL,
		   sm->seconds > 0 ? (double)bytes / DGR_SAMPLE_BYTES / sm->seconds / 1e6 : 0.0, 2);
	dgr_pr_u64(p, "samples_received", NULL, s.samples_received);
	dgr_pr_u64(p, "samples_lost", NULL, s.samples_lost);
	dgr_pr_dbl(p, "drop_rate", NULL, sm->drop_rate, 6);
	dgr_pr_u64(p, "malformed_frames", NULL, s.malformed_frames);
	dgr_pr_u64(p, "incomplete_transactions", NULL, sm->incomplete + s.incomplete_timed_out);
	if (!rx) {
		dgr_pr_u64(p, "buffers_unanswered", NULL, sm->unanswered);
	}
	dgr_pr_u64(p, "frames_dropped_injected", NULL, dgr_conn_injected_drops(c));
	if (rx) {
		print_producer_drops(p, &s, ramp, cfg->co.check_ramp, sm->status);
	}
	if (rx && cfg->stall) {
		dgr_pr_obj_begin(p, "consumer_stall", NULL);
		dgr_pr_u64(p, "at_buffer", NULL, cfg->stall_at);
		dgr_pr_ns(p, "requested_ns", NULL, cfg->stall_ns);
		dgr_pr_ns(p, "stalled_ns", NULL, r->stalled_ns);
		dgr_pr_obj_end(p);
	}
	if (sm->heard_nothing) {
		dgr_pr_obj_begin(p, "nothing_received", NULL);
		dgr_pr_str(p, "listened_on", NULL, sm->listened_on);
		dgr_pr_str(p, "peer", NULL, sm->peer);
		dgr_pr_u64(p, "frames_from_peer", NULL, s.frames_rx);
		dgr_pr_u64(p, "frames_wrong_ids", NULL, s.malformed_unknown_id);
		dgr_pr_u64(p, "malformed_frames", NULL, s.malformed_frames);
		dgr_pr_u64(p, "packets_from_others", NULL, s.frames_foreign);
		if (sm->last_foreign[0]) {
			dgr_pr_str(p, "last_from_other", NULL, sm->last_foreign);
		}
		dgr_pr_obj_end(p);
	}
	if (s.frames_conflicting > 0 || s.writes_without_flag > 0) {
		/* evidence of frames that are not the peer's (docs/stack.md, "Receive checks") */
		dgr_pr_obj_begin(p, "suspect_frames", NULL);
		dgr_pr_u64(p, "frames_conflicting", NULL, s.frames_conflicting);
		if (sm->seq.conflict) {
			dgr_pr_u64(p, "last_conflicting_seq", NULL, sm->seq.conflict_seq);
		}
		dgr_pr_u64(p, "writes_without_flag", NULL, s.writes_without_flag);
		if (sm->seq.flagless) {
			dgr_pr_u64(p, "last_flagless_seq", NULL, sm->seq.flagless_seq);
		}
		dgr_pr_u64(p, "samples_lost", NULL, s.samples_lost);
		dgr_pr_obj_end(p);
	}
	if (sm->status != HOST_ENDED && sm->status != HOST_DURATION) {
		print_sequence(p, &sm->seq);
	}
	print_latency(p, &l);
	if (rx) {
		print_tolerable(p, &cfg->co, c, bytes, s.txns_completed, &l);
		dgr_pr_obj_begin(p, "ramp", NULL);
		dgr_pr_u64(p, "first_value", NULL, ramp->first);
		dgr_pr_u64(p, "gaps", NULL, ramp->gaps);
		dgr_pr_u64(p, "backwards", NULL, ramp->backwards);
		dgr_pr_arr_begin(p, "first_gaps", NULL);
		for (uint64_t i = 0; i < ramp->gaps && i < DGR_RAMP_GAPS_KEPT; i++) {
			dgr_pr_line_begin(p, NULL);
			dgr_pr_u64(p, "at_sample", NULL, ramp->gap[i].at_sample);
			dgr_pr_u64(p, "expected", NULL, ramp->gap[i].expected);
			dgr_pr_u64(p, "got", NULL, ramp->gap[i].got);
			dgr_pr_u64(p, "lost", NULL,
				   (uint32_t)(ramp->gap[i].got - ramp->gap[i].expected));
			dgr_pr_line_end(p);
		}
		dgr_pr_arr_end(p);
		dgr_pr_obj_end(p);
	}
	dgr_pr_arr_begin(p, "incomplete", NULL);
	dgr_conn_foreach_incomplete(c, print_incomplete, &il);
	dgr_pr_arr_end(p);
	dgr_pr_obj_begin(p, "transport", NULL);
	dgr_pr_str(p, "kind", NULL,
		   dgr_transport_kind_of(dgr_conn_transport(c)) == DGR_TRANSPORT_UDP ? "udp"
										     : "ether");
	dgr_pr_u64(p, "mtu", NULL, dgr_transport_mtu(dgr_conn_transport(c)));
	dgr_pr_u64(p, "frame_cap", NULL, dgr_transport_frame_cap(dgr_conn_transport(c)));
	dgr_transport_bufsizes(dgr_conn_transport(c), &rb, &sb);
	dgr_pr_i64(p, "rcvbuf", NULL, rb);
	dgr_pr_i64(p, "sndbuf", NULL, sb);
	dgr_pr_str(p, "receive", NULL,
		   dgr_transport_has_rx_ring(dgr_conn_transport(c)) ? "ring" : "recvmmsg");
	dgr_pr_obj_end(p);
	dgr_pr_obj_begin(p, "threads", NULL);
	for (int t = 0; t < DGR_T_COUNT; t++) {
		struct dgr_sched_info si;
		struct dgr_thread_stats ts;
		char cpus[24];

		if (!dgr_conn_thread_used(c, t)) {
			continue;
		}
		dgr_conn_get_sched(c, t, &si);
		dgr_conn_get_thread_stats(c, t, &ts);
		snprintf(cpus, sizeof(cpus), "0x%" PRIx64, si.cpuset);
		dgr_pr_obj_begin(p, dgr_conn_thread_name(c, t), NULL);
		dgr_pr_i64(p, "tid", NULL, si.tid);
		dgr_pr_str(p, "policy", NULL, policy_name(si.policy));
		dgr_pr_i64(p, "priority", NULL, si.priority);
		dgr_pr_i64(p, "nice", NULL, si.nice);
		dgr_pr_str(p, "cpus", NULL, cpus);
		dgr_pr_u64(p, "items", NULL, ts.items);
		dgr_pr_u64(p, "loops", NULL, ts.loops);
		dgr_pr_u64(p, "idle_waits", NULL, ts.idle_waits);
		dgr_pr_ns(p, "cpu_user_ns", NULL, ts.cpu_user_ns);
		dgr_pr_ns(p, "cpu_sys_ns", NULL, ts.cpu_sys_ns);
		if (ts.items) {
			/* no figure per item of no item (the control thread's, mostly) */
			dgr_pr_ns_mean(p, "cpu_ns_per_item", NULL,
				       (double)(ts.cpu_user_ns + ts.cpu_sys_ns) / (double)ts.items);
		}
		dgr_pr_obj_end(p);
	}
	dgr_pr_obj_end(p);
	dgr_pr_obj_begin(p, "counters", NULL);
	for (int i = 0; i < DGR_CONN_STATS_NFIELDS; i++) {
		dgr_pr_u64(p, dgr_conn_stats_names[i], NULL, ((const uint64_t *)&s)[i]);
	}
	dgr_pr_obj_end(p);
}

/* See host.h. */
const char *host_status_name(enum host_status s)
{
	switch (s) {
	case HOST_ENDED:
		return "ended";
	case HOST_DURATION:
		return "duration";
	case HOST_STALLED:
		return "stalled";
	case HOST_INTERRUPTED:
		return "interrupted";
	case HOST_FAILED:
		return "failed";
	}
	return "?";
}

/* The status of several connections: the worst of theirs. */
static enum host_status total_status(const struct host_conn *h, unsigned int n)
{
	enum host_status worst = HOST_ENDED;

	for (unsigned int i = 0; i < n; i++) {
		if (h[i].sm.status > worst) {
			worst = h[i].sm.status;
		}
	}
	return worst;
}

/*
 * The totals of several connections at the top level (the keys of one
 * connection's summary where they add up; latency over all doorbells), then
 * one summary per connection under "connections".
 */
static void print_totals(struct dgr_pr *p, struct host_cfg *cfg, struct host_conn *h,
			 unsigned int n)
{
	struct dgr_conn *conns[HOST_MAX_PEERS];
	struct dgr_conn_stats s, sum;
	struct dgr_latency_summary l;
	bool rx = cfg->co.direction == DGR_DIR_RX;
	double seconds = 0, rate = 0, lost = 0, total = 0;
	uint64_t incomplete = 0, unanswered = 0, injected = 0, gaps = 0, backwards = 0;
	uint64_t *sv = (uint64_t *)&s, *sumv = (uint64_t *)&sum;

	memset(&sum, 0, sizeof(sum));
	for (unsigned int i = 0; i < n; i++) {
		const struct dgr_ramp *ramp = dgr_conn_ramp(h[i].c);

		conns[i] = h[i].c;
		dgr_conn_get_stats(h[i].c, &s);
		for (int k = 0; k < DGR_CONN_STATS_NFIELDS; k++) {
			sumv[k] += sv[k];
		}
		/* a high-water mark does not add up: the largest */
		sum.occupancy_hwm -= s.occupancy_hwm;
		if (s.occupancy_hwm > sum.occupancy_hwm) {
			sum.occupancy_hwm = s.occupancy_hwm;
		}
		seconds = h[i].sm.seconds > seconds ? h[i].sm.seconds : seconds;
		if (h[i].sm.seconds > 0) {
			rate += (double)(rx ? s.data_bytes_rx : s.data_bytes_tx) / h[i].sm.seconds;
		}
		incomplete += h[i].sm.incomplete + s.incomplete_timed_out;
		unanswered += h[i].sm.unanswered;
		injected += dgr_conn_injected_drops(h[i].c);
		gaps += ramp->gaps;
		backwards += ramp->backwards;
	}
	if (rx) {
		lost = (double)sum.samples_lost;
		total = (double)(sum.samples_received + sum.samples_lost);
	} else {
		lost = (double)unanswered;
		total = (double)sum.txns_sent;
	}
	(void)dgr_conn_latency_merged(conns, n, &l);
	dgr_pr_str(p, "mode", NULL, cfg->mode);
	dgr_pr_str(p, "status", NULL, host_status_name(total_status(h, n)));
	for (unsigned int i = 0; i < n; i++) {
		if (h[i].sm.error) {
			dgr_pr_str(p, "error", NULL,
				   h[i].sm.error); /* the first connection's that failed */
			break;
		}
	}
	dgr_pr_dbl(p, "duration_s", NULL, seconds, 3);
	dgr_pr_u64(p, "transactions", NULL, rx ? sum.txns_completed : sum.txns_sent);
	dgr_pr_u64(p, "doorbells_sent", NULL, sum.doorbells_sent);
	dgr_pr_u64(p, "doorbells_sent_by_consumer", NULL, sum.doorbells_inline);
	dgr_pr_u64(p, "doorbells_received", NULL, sum.doorbells_received);
	dgr_pr_u64(p, "bytes", NULL, rx ? sum.data_bytes_rx : sum.data_bytes_tx);
	dgr_pr_dbl(p, "rate_mbyte_s", NULL, rate / 1e6, 1);
	dgr_pr_dbl(p, "rate_msample_s", NULL, rate / DGR_SAMPLE_BYTES / 1e6, 2);
	dgr_pr_u64(p, "samples_received", NULL, sum.samples_received);
	dgr_pr_u64(p, "samples_lost", NULL, sum.samples_lost);
	dgr_pr_dbl(p, "drop_rate", NULL, total > 0 ? lost / total : 0.0, 6);
	dgr_pr_u64(p, "malformed_frames", NULL, sum.malformed_frames);
	dgr_pr_u64(p, "incomplete_transactions", NULL, incomplete);
	if (!rx) {
		dgr_pr_u64(p, "buffers_unanswered", NULL, unanswered);
	}
	dgr_pr_u64(p, "frames_dropped_injected", NULL, injected);
	print_latency(p, &l);
	if (rx) {
		dgr_pr_obj_begin(p, "ramp", NULL);
		dgr_pr_u64(p, "gaps", NULL, gaps);
		dgr_pr_u64(p, "backwards", NULL, backwards);
		dgr_pr_obj_end(p);
	}
	dgr_pr_obj_begin(p, "counters", NULL);
	for (int i = 0; i < DGR_CONN_STATS_NFIELDS; i++) {
		dgr_pr_u64(p, dgr_conn_stats_names[i], NULL, sumv[i]);
	}
	dgr_pr_obj_end(p);
	dgr_pr_arr_begin(p, "connections", NULL);
	for (unsigned int i = 0; i < n; i++) {
		dgr_pr_obj_begin(p, NULL, NULL);
		dgr_pr_u64(p, "index", NULL, i);
		dgr_pr_str(p, "peer", NULL, cfg->peers[i]);
		dgr_pr_u64(p, "peer_id", NULL, h[i].co.peer_id);
		print_summary(p, &h[i].r, h[i].c, &h[i].sm);
		dgr_pr_obj_end(p);
	}
	dgr_pr_arr_end(p);
}

static const char *sink_name(enum sink_kind k)
{
	return k == SINK_FILE ? "file" : k == SINK_MEMCPY ? "memcpy" : "null";
}

/*
 * The settings the run had in force, defaults included (docs/run-json.md):
 * the facts dgrdma-capture records in run.json, so that nobody reads them
 * back from the command line. The addresses are the transports' own (the
 * bound local address, each connection's resolved peer).
 */
static void print_settings(struct dgr_pr *p, const struct host_cfg *cfg, const struct host_conn *h,
			   unsigned int n)
{
	const struct dgr_conn_opts *co = &cfg->co;
	const struct dgr_transport *tr = dgr_conn_transport(h[0].c);
	enum dgr_transport_kind kind = dgr_transport_kind_of(tr);
	bool rx = co->direction == DGR_DIR_RX;
	struct dgr_addr a;
	char buf[64];

	dgr_pr_obj_begin(p, "settings", NULL);
	dgr_pr_str(p, "tool", NULL, "dgrdma-host");
	dgr_pr_str(p, "mode", NULL, cfg->mode);
	dgr_pr_str(p, "path", NULL, rx ? "rx" : "tx");
	dgr_pr_str(p, "transport", NULL, kind == DGR_TRANSPORT_UDP ? "udp" : "ether");
	if (kind != DGR_TRANSPORT_UDP) {
		dgr_pr_str(p, "interface", NULL, co->transport.ifname);
	}
	dgr_transport_local_addr(tr, &a);
	dgr_pr_str(p, "local", NULL, dgr_addr_str(kind, &a, buf, sizeof(buf)));
	dgr_pr_arr_begin(p, "peers", NULL);
	for (unsigned int i = 0; i < n; i++) {
		dgr_pr_line_begin(p, NULL);
		dgr_pr_str(p, "address", NULL,
			   dgr_addr_str(kind, dgr_transport_peer(dgr_conn_transport(h[i].c)), buf,
					sizeof(buf)));
		dgr_pr_u64(p, "peer_id", NULL, h[i].co.peer_id);
		dgr_pr_line_end(p);
	}
	dgr_pr_arr_end(p);
	dgr_pr_u64(p, "id", NULL, co->id);
	dgr_pr_str(p, "peer_kind", NULL, co->peer_kind == DGR_PEER_HOST ? "host" : "fpga");
	dgr_pr_u64(p, "host_buffers", NULL, co->buffers);
	dgr_pr_u64(p, "fpga_buffers", NULL, co->peer_buffers);
	dgr_pr_u64(p, "buffer_size", NULL, co->buffer_size);
	if (!rx) {
		/* 0: as fast as credits allow (no rate of the stream's own) */
		dgr_pr_u64(p, "sample_rate", NULL, cfg->rate_sps);
		dgr_pr_str(p, "source", NULL, cfg->source == SOURCE_FILE ? "file" : "ramp");
		dgr_pr_u64(p, "bytes", NULL, cfg->total_bytes);
	} else {
		dgr_pr_str(p, "sink", NULL, sink_name(cfg->sink));
		dgr_pr_bool(p, "ramp_check", NULL, co->check_ramp);
		dgr_pr_ns(p, "consumer_delay_ns", NULL, cfg->consumer_delay_ns);
	}
	dgr_pr_ns(p, "duration_ns", NULL, cfg->duration_ns);
	dgr_pr_ns(p, "idle_timeout_ns", NULL, cfg->idle_timeout_ns);
	dgr_pr_u64(p, "mtu", NULL, dgr_transport_mtu(tr));
	dgr_pr_u64(p, "batch", NULL, co->transport.batch);
	dgr_pr_u64(p, "busy_poll_us", NULL, co->transport.busy_poll_us);
	dgr_pr_u64(p, "coalesce_us", NULL, co->coalesce_wait_us);
	dgr_pr_bool(p, "acks", NULL, co->acks);
	dgr_pr_u64(p, "retransmit_ms", NULL, co->retransmit_ms);
	dgr_pr_u64(p, "retransmit_attempts", NULL, co->retransmit_attempts);
	dgr_pr_u64(p, "peer_window", NULL, co->peer_window);
	dgr_pr_u64(p, "incomplete_ms", NULL, co->incomplete_ms);
	dgr_pr_str(p, "doorbell", NULL, co->doorbell_mode == DGR_DOORBELL_DCP ? "dcp" : "flag");
	if (co->doorbell_mode == DGR_DOORBELL_DCP) {
		dgr_pr_u64(p, "doorbell_dcp_addr", NULL, co->doorbell_dcp_addr);
	}
	dgr_pr_bool(p, "strict", NULL, co->strict_lengths);
	dgr_pr_bool(p, "busy_wait", NULL, co->busy_wait);
	dgr_pr_bool(p, "inline_doorbells", NULL, co->inline_doorbells);
	dgr_pr_u64(p, "doorbell_batch", NULL, co->doorbell_batch);
	dgr_pr_u64(p, "doorbell_hold_us", NULL, co->doorbell_hold_us);
	dgr_pr_u64(p, "rx_holdoff_us", NULL, co->rx_holdoff_us);
	if (co->set_port_base) {
		dgr_pr_u64(p, "port_base", NULL, co->port_base);
	}
	dgr_pr_dbl(p, "drop_frames", NULL, (double)co->rx_drop_ppm / 1e6, 6);
	/*
	 * the seed in force (rx.c's fixed one when --seed is not given), as a
	 * string: a 64-bit number past 2^63 is no JSON integer most readers take
	 */
	snprintf(buf, sizeof(buf), "%" PRIu64,
		 co->rx_drop_seed ? co->rx_drop_seed : (uint64_t)0x9E3779B97F4A7C15ull);
	dgr_pr_str(p, "seed", NULL, buf);
	dgr_pr_obj_end(p);
}

/* See host.h. */
void host_print_run(struct dgr_pr *p, struct host_cfg *cfg, struct host_conn *h, unsigned int n)
{
	if (n == 1) {
		print_summary(p, &h[0].r, h[0].c, &h[0].sm);
	} else {
		print_totals(p, cfg, h, n);
	}
	print_settings(p, cfg, h, n);
}
