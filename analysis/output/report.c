// SPDX-License-Identifier: GPL-2.0-or-later
/* latency-report's report, text and JSON from one print layer (see report.h). */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "loglin_hist.h"
#include "report.h"
#include "stall_cause.h"

static const struct report *cur_report; /* for reusing the verdict's summary */

static int print_latency(struct dgr_pr *p, const char *key, const char *title,
			 const struct series *s, uint64_t span_ns, uint64_t tolerable_ns)
{
	const struct report *r = cur_report;
	struct summary sum;
	unsigned int k, body, last = 0;
	int rc;

	if (r && s == r->verdict_s && span_ns == r->verdict_span &&
	    tolerable_ns == r->verdict_tol) {
		sum = r->verdict_sum; /* sorting a large series once is enough */
	} else {
		rc = series_summarise(s, span_ns, tolerable_ns, &sum);
		if (rc) {
			return rc;
		}
	}
	dgr_pr_obj_begin(p, key, title);
	dgr_pr_u64(p, "count", NULL, sum.count);
	if (sum.from_histogram) {
		/* above the exact limit: say so, with the bound (absent: exact) */
		dgr_pr_str(p, "percentiles", "percentiles", "log-linear histogram");
		dgr_pr_dbl(p, "percentile_relative_error", "relative error at most", LLH_REL_ERROR,
			   6);
		dgr_pr_u64(p, "exact_limit", "exact up to (doorbells)", stats_exact_limit());
	}
	if (sum.count) {
		dgr_pr_ns(p, "min", NULL, sum.min);
		dgr_pr_ns(p, "p50", NULL, sum.p50);
		dgr_pr_ns(p, "p90", NULL, sum.p90);
		dgr_pr_ns(p, "p99", NULL, sum.p99);
		dgr_pr_ns(p, "p999", "p99.9", sum.p999);
		dgr_pr_ns(p, "max", NULL, sum.max);
		dgr_pr_ns_mean(p, "mean", NULL, sum.mean);
	}
	if (tolerable_ns && sum.count) {
		dgr_pr_ns(p, "tolerable", "tolerable latency", tolerable_ns);
		dgr_pr_u64(p, "above_tolerable", "doorbells above it", sum.above_tolerable);
		dgr_pr_dbl(p, "time_above_tolerable_fraction", "fraction of time above it",
			   sum.time_above_fraction, 6);
		dgr_pr_ns_signed(p, "margin_ns", "margin (tolerable - p99.9)", sum.margin_ns);
	}
	if (sum.count) {
		for (k = 0; k < HIST_BINS; k++) {
			if (sum.hist[k]) {
				last = k;
			}
		}
		/* the empty bins below the body are left out, also those between it and
		 * latencies of 0 (parts of a latency recorded as 0 when below it) */
		for (body = 1; body < last && !sum.hist[body]; body++) {
		}
		dgr_pr_arr_begin(p, "histogram", "histogram (log2 bins):");
		for (k = 0; k <= last; k++) {
			uint64_t lo = k ? 1ull << k : 0, hi = 1ull << (k + 1);

			if (!sum.hist[k] && k < body) {
				continue;
			}
			if (dgr_pr_is_json(p)) {
				dgr_pr_obj_begin(p, NULL, NULL);
				dgr_pr_u64(p, "lo_ns", NULL, lo);
				dgr_pr_u64(p, "hi_ns", NULL, hi);
				dgr_pr_u64(p, "count", NULL, sum.hist[k]);
				dgr_pr_obj_end(p);
			} else {
				char a[32], b[32], bar[41];
				unsigned int w = (unsigned int)(40 * sum.hist[k] / sum.count);

				dgr_format_duration(a, sizeof(a), (double)lo);
				dgr_format_duration(b, sizeof(b), (double)hi);
				memset(bar, '#', w);
				bar[w] = '\0';
				dgr_pr_text_line(p, "[%10s, %10s) %8" PRIu64 " %s", a, b,
						 sum.hist[k], bar);
			}
		}
		dgr_pr_arr_end(p);
	}
	dgr_pr_obj_end(p);
	return 0;
}

static void print_dir_counts(struct dgr_pr *p, const struct wa_dir_stats *st)
{
	dgr_pr_u64(p, "transactions", "data transactions", st->transactions);
	dgr_pr_u64(p, "doorbells", NULL, st->doorbells);
	dgr_pr_u64(p, "matched", NULL, st->matched);
	dgr_pr_u64(p, "unmatched_transactions", "unmatched transactions (doorbell not captured)",
		   st->unmatched);
	dgr_pr_u64(p, "orphan_doorbells", "orphan doorbells", st->orphans);
	dgr_pr_u64(p, "discontinuities", "discontinuities (opcode 4)", st->discontinuities);
	dgr_pr_u64(p, "incomplete_transactions", "incomplete transactions", st->incomplete);
	if (st->begun_before) {
		dgr_pr_u64(p, "begun_before_capture",
			   "begun before the capture's start (its ring dropped it; no loss)",
			   st->begun_before);
	}
	if (st->cut_at_end) {
		dgr_pr_u64(p, "cut_at_end",
			   "cut by the capture's end (an incident's window; no loss)",
			   st->cut_at_end);
	}
	dgr_pr_u64(p, "pending_at_end", "waiting at the end", st->pending_at_end);
	dgr_pr_u64(p, "buffers", "buffers (distinct flag addresses)", st->buffers);
	dgr_pr_u64(p, "data_bytes", "data bytes", st->data_bytes);
	dgr_pr_u64(p, "max_transaction_bytes", "largest transaction, bytes", st->max_txn_bytes);
	dgr_pr_u64(p, "writes_without_flag", "writes without flag", st->writes_without_flag);
	dgr_pr_u64(p, "order_violations", "cross-check: matches out of buffer order",
		   st->order_violations);
	dgr_pr_u64(p, "ordinal_mismatches", "cross-check: k-th doorbell != k-th transaction",
		   st->ordinal_mismatch);
}

/* "MAC/id N", "IP:PORT/id N", "[IPv6]:PORT/id N", or "id N" when the address is unknown (a cooked
 * capture's). */
static void fmt_addr(char *buf, size_t size, const struct eng_endpoint *e)
{
	const uint8_t *b = e->addr.b;

	switch (e->addr.kind) {
	case ENG_ADDR_MAC:
		snprintf(buf, size, "%02x:%02x:%02x:%02x:%02x:%02x/id %u", b[0], b[1], b[2], b[3],
			 b[4], b[5], e->id);
		break;
	case ENG_ADDR_IPV4:
		snprintf(buf, size, "%u.%u.%u.%u:%u/id %u", b[0], b[1], b[2], b[3],
			 eng_addr_port(&e->addr), e->id);
		break;
	case ENG_ADDR_IPV6: {
		char ip[INET6_ADDRSTRLEN];

		inet_ntop(AF_INET6, b, ip, sizeof(ip));
		snprintf(buf, size, "[%s]:%u/id %u", ip, eng_addr_port(&e->addr), e->id);
		break;
	}
	default:
		snprintf(buf, size, "id %u", e->id);
		break;
	}
}

/*
 * UDP datagrams on ports the analysis was not given that decode as DG-RDMA or
 * DCP (counted as other frames): the ports to give with --udp-port.
 */
static void print_port_hints(struct dgr_pr *p, const struct wire_analysis *w)
{
	char list[WA_MAX_PORT_HINTS * 6 + 1] = "";
	unsigned int i;

	dgr_pr_u64(p, "other_port_datagrams",
		   "UDP datagrams on other ports that decode as DG-RDMA or DCP",
		   w->other_port_datagrams);
	dgr_pr_arr_begin(p, "other_ports", NULL);
	for (i = 0; i < w->n_port_hints; i++) {
		if (dgr_pr_is_json(p)) {
			dgr_pr_line_begin(p, NULL);
			dgr_pr_u64(p, "port", NULL, w->port_hints[i].port);
			dgr_pr_u64(p, "datagrams", NULL, w->port_hints[i].datagrams);
			dgr_pr_line_end(p);
		}
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%u", i ? "," : "",
			 (unsigned int)w->port_hints[i].port);
	}
	dgr_pr_arr_end(p);
	if (w->n_port_hints) {
		dgr_pr_text_line(p,
				 "note: analyse them with --udp-port %s (the stack and the "
				 "emulator take any port: --bind)",
				 list);
	}
}

/* The capture's clock: timestamps that go back or cannot be (wa_frame_time). */
static void print_capture_times(struct dgr_pr *p, const struct wire_analysis *w)
{
	char step[32];

	dgr_pr_u64(p, "timestamps_backwards", "frames stamped earlier than the frame before them",
		   w->ts_backwards);
	dgr_pr_ns(p, "largest_step_back_ns", "largest step back", w->ts_largest_step_back);
	dgr_pr_u64(p, "timestamps_impossible", "frames with an impossible timestamp",
		   w->ts_impossible);
	if (w->ts_backwards) {
		dgr_format_duration(step, sizeof(step), (double)w->ts_largest_step_back);
		dgr_pr_text_line(
		    p,
		    "note: the capture's timestamps go back %" PRIu64
		    " times (by up to %s): a latency across a step back is wrong "
		    "by up to that (below 0 it counts as 0); frames stamped on "
		    "several CPUs (microseconds), merged captures or a clock set back?",
		    w->ts_backwards, step);
	}
	if (w->ts_impossible) {
		dgr_pr_text_line(p,
				 "note: %" PRIu64 " frames have a timestamp that cannot be (a "
				 "sub-second part of a second or more): their times are wrong",
				 w->ts_impossible);
	}
}

/*
 * ACK-only frames the host sent to the FPGA that its frame parser misreads
 * (docs/analysis.md, "ACK-only frames to an FPGA"): the finding, and the
 * lock-up at the 16-bit wrap where the capture shows it.
 */
static void print_ack_trap(struct dgr_pr *p, const struct wire_analysis *w)
{
	const struct wa_ack_trap *t =
	    w->ack_trap_lockup_conn >= 0 ? &w->conns[w->ack_trap_lockup_conn].trap : NULL;
	char finding[1024] = "";
	size_t n = 0;

	if (!w->ack_trap_padded && !w->ack_trap_truncated && !dgr_pr_is_json(p)) {
		return;
	}
	if (w->ack_trap_padded) {
		n += (size_t)snprintf(
		    finding + n, sizeof(finding) - n,
		    "%" PRIu64 " ACK-only frames of the host to the FPGA (the first: frame %" PRIu64
		    ") carry a zero padding up to the 46-byte Ethernet minimum, which OpenCPI's "
		    "frame parser reads as a frame 0: within 32 frames of the 16-bit frame_seq "
		    "wrap "
		    "it accepts it, then drops the host's real frame 0 as a duplicate while "
		    "acknowledging it, so the doorbells in it never reach its transaction record, "
		    "which writes flags in order: the FPGA's flags stop for good and the ADC "
		    "drops. ",
		    w->ack_trap_padded, w->ack_trap_first_ref);
	}
	if (w->ack_trap_truncated && n < sizeof(finding)) {
		n += (size_t)snprintf(
		    finding + n, sizeof(finding) - n,
		    "%" PRIu64 " ACK-only frames of the host to the FPGA over UDP are 10 bytes "
		    "long: OpenCPI's frame parser ignores them as truncated, frame_seq holes its "
		    "window never skips, and 31 frames later rejects every frame. ",
		    w->ack_trap_truncated);
	}
	if (n && n < sizeof(finding)) {
		snprintf(finding + n, sizeof(finding) - n,
			 "Send no ACK-only frame to an FPGA (dgrdma-host --peer-kind fpga, the "
			 "default; docs/protocol.md).");
	}
	dgr_pr_obj_begin(p, "ack_only_to_fpga",
			 "ACK-only frames to the FPGA, misread by its frame parser");
	dgr_pr_u64(p, "padded", "padded: the padding read as a frame 0", w->ack_trap_padded);
	dgr_pr_u64(p, "truncated", "10 bytes over UDP: ignored, a frame_seq hole",
		   w->ack_trap_truncated);
	dgr_pr_str(p, "finding", NULL, finding);
	dgr_pr_obj_begin(p, "lockup", "the lock-up at the wrap");
	dgr_pr_bool(p, "shown", "shown in the capture", t != NULL);
	if (t) {
		dgr_pr_u64(p, "connection", NULL, (uint64_t)w->ack_trap_lockup_conn);
		dgr_pr_u64(p, "frame0", "the host's frame 0 (frame)", t->frame0_ref);
		dgr_pr_u64(p, "frame0_doorbells", "its doorbells", t->frame0_doorbells);
		dgr_pr_bool(p, "frame0_acked", "acknowledged by the FPGA", t->frame0_acked);
		dgr_pr_u64(p, "acked_in", "in frame", t->frame0_acked ? t->acked_ref : 0);
		dgr_pr_u64(p, "data_transactions_after",
			   "data transactions of the FPGA after it (its credits then)",
			   t->data_after);
		dgr_pr_u64(p, "doorbells_after", "doorbells of the host from it on",
			   t->doorbells_after);
		dgr_pr_u64(p, "doorbells_without_effect",
			   "doorbells after the FPGA's last data (no effect)",
			   t->doorbells_after_data);
	}
	dgr_pr_obj_end(p);
	dgr_pr_obj_end(p);
}

static int print_wire(struct dgr_pr *p, const struct report *r)
{
	const struct wire_analysis *w = r->wire;
	uint64_t span = w->last_ts > w->first_ts ? w->last_ts - w->first_ts : 0;
	int rc;
	unsigned int i, k;
	int d;

	dgr_pr_obj_begin(p, "capture", "Capture");
	dgr_pr_u64(p, "frames", NULL, w->frames);
	dgr_pr_u64(p, "dgrdma_frames", "DG-RDMA frames", w->dgrdma_frames);
	dgr_pr_u64(p, "ack_only_frames", "ACK-only frames", w->ack_only_frames);
	dgr_pr_u64(p, "dcp_frames", "DCP frames", w->dcp.frames);
	dgr_pr_u64(p, "other_frames", "other frames", w->other_frames);
	print_port_hints(p, w);
	if (w->ip_defrag.c.fragments) {
		/* UDP sent in IP fragments: put together as its receiver's kernel does */
		dgr_pr_u64(p, "ip_fragments", "IP fragments (frames)", w->ip_defrag.c.fragments);
		dgr_pr_u64(p, "ip_datagrams_reassembled", "datagrams put together from them",
			   w->ip_defrag.c.datagrams);
		dgr_pr_u64(p, "ip_fragments_given_up", "fragments of datagrams never completed",
			   w->ip_defrag.c.given_up);
		dgr_pr_u64(p, "ip_fragments_refused",
			   "fragments refused (past 65535 bytes or the end)", w->ip_defrag.c.bad);
	}
	dgr_pr_u64(p, "truncated_frames", "frames cut by the snap length", w->truncated_frames);
	dgr_pr_u64(p, "snap_cut_frames", "frames whose later messages were cut",
		   w->snap_cut_frames);
	dgr_pr_u64(p, "snap_cut_fragments",
		   "first fragments found in cut bytes (by their second, next frame)",
		   w->snap_fragments);
	dgr_pr_u64(p, "snap_hidden_transactions",
		   "transactions wholly in cut bytes (not analysed: use a larger snap length)",
		   w->snap_hidden_txns);
	dgr_pr_u64(p, "snap_cut_doorbell_frames",
		   "frames cut after a doorbell (later doorbells not analysed: use a larger snap "
		   "length)",
		   w->snap_cut_doorbell_frames);
	dgr_pr_u64(p, "messages", NULL, w->msgs);
	dgr_pr_u64(p, "duplicate_messages", "duplicate messages", w->duplicate_msgs);
	dgr_pr_u64(p, "messages_after_given_up",
		   "messages of transactions already given up (ignored)", w->msgs_after_given_up);
	dgr_pr_u64(p, "sequence_gaps", "frame_seq gaps", w->seq.gaps);
	dgr_pr_u64(p, "frames_missing", "frames missing in gaps", w->seq.missing);
	dgr_pr_u64(p, "duplicate_frames", "duplicate frame_seqs", w->seq.duplicates);
	dgr_pr_u64(p, "late_frames", "late frames", w->seq.late);
	dgr_pr_u64(p, "reassembly_overflow", "fragments dropped (reassembly full)",
		   w->reasm_overflow);
	dgr_pr_u64(p, "connections", NULL, w->table.n);
	if (w->table.overflow) {
		/* not analysed: the engine tracks ENG_MAX_CONNS connections */
		dgr_pr_u64(p, "frames_beyond_connection_limit",
			   "frames of connections beyond the limit (not analysed)",
			   w->table.overflow);
	}
	dgr_pr_ns(p, "span_ns", "span", span);
	print_capture_times(p, w);
	dgr_pr_obj_end(p);
	print_ack_trap(p, w);

	dgr_pr_obj_begin(p, "wire", "On the wire (doorbell latency at the capture point)");
	for (d = 0; d < 2; d++) {
		const struct wa_dir_stats *st = &w->dir[d];

		if (!st->transactions && !st->doorbells) {
			continue;
		}
		dgr_pr_obj_begin(p, wa_dir_name((enum wa_dir)d),
				 d == WA_RX ? "RX path (data FPGA->host, doorbells host->FPGA)"
					    : "TX path (data host->FPGA, doorbells FPGA->host)");
		print_dir_counts(p, st);
		rc = print_latency(p, "latency_ns", "doorbell latency:", &w->lat[d], span,
				   r->tolerable_ns[d]);
		if (rc) {
			return rc;
		}
		dgr_pr_obj_end(p);
	}
	dgr_pr_obj_end(p);

	dgr_pr_arr_begin(p, "connections", "Connections");
	for (i = 0; i < w->table.n; i++) {
		const struct wa_conn *c = &w->conns[i];
		char a[64], b[64], t[32];

		fmt_addr(a, sizeof(a), &w->table.conn[i].side[0]);
		fmt_addr(b, sizeof(b), &w->table.conn[i].side[1]);
		snprintf(t, sizeof(t), "connection %u", i);
		dgr_pr_obj_begin(p, NULL, t);
		dgr_pr_u64(p, "index", NULL, i);
		dgr_pr_str(p, "a", NULL, a);
		dgr_pr_str(p, "b", NULL, b);
		dgr_pr_str(p, "host", NULL,
			   c->host_side < 0    ? "unknown"
			   : c->host_side == 0 ? "a"
					       : "b");
		if (c->host_side >= 0) {
			dgr_pr_str(p, "host_by", "host decided by",
				   c->host_rule == WA_HOST_BY_ADDRESS ? "address"
				   : c->host_rule == WA_HOST_BY_DCP   ? "dcp"
								      : "path");
		}
		for (k = 0; k < 2; k++) {
			const struct wa_side_state *s = &c->s[k];
			enum wa_dir dir;

			if (!s->matcher) {
				continue;
			}
			dir = c->host_side == (int)k ? WA_TX : WA_RX;
			dgr_pr_obj_begin(p, wa_dir_name(dir), dir == WA_RX ? "rx" : "tx");
			print_dir_counts(p, &s->st);
			dgr_pr_obj_end(p);
		}
		dgr_pr_obj_end(p);
	}
	dgr_pr_arr_end(p);

	dgr_pr_obj_begin(p, "dcp", "DCP (control plane)");
	dgr_pr_u64(p, "frames", NULL, w->dcp.frames);
	dgr_pr_u64(p, "nop", "NOP (discovery) requests", w->dcp.nop);
	dgr_pr_u64(p, "write", "write requests", w->dcp.write);
	dgr_pr_u64(p, "read", "read requests", w->dcp.read);
	dgr_pr_u64(p, "write_responses", "write responses", w->dcp.write_resp);
	dgr_pr_u64(p, "read_responses", "read responses", w->dcp.read_resp);
	dgr_pr_u64(p, "nop_responses", "NOP responses", w->dcp.nop_resp);
	dgr_pr_obj_begin(p, "responses_by_code", "responses by code");
	for (k = 0; k < 16; k++) {
		if (w->dcp.resp_by_code[k]) {
			char name[32];

			snprintf(name, sizeof(name), "%s", dcp_resp_code_name((uint8_t)k));
			dgr_pr_u64(p, name, NULL, w->dcp.resp_by_code[k]);
		}
	}
	dgr_pr_obj_end(p);
	dgr_pr_u64(p, "doorbells", "doorbell writes", w->dcp.doorbells);
	dgr_pr_u64(p, "doorbells_without_connection", "doorbell writes without a data connection",
		   w->dcp.doorbells_without_conn);
	dgr_pr_obj_end(p);
	return 0;
}

/* Whose events count (--pid, run.json's processes, every process), and what was left out. */
static void print_host_pids_from(struct dgr_pr *p, const struct report *r)
{
	static const char *const from[] = { "all", "--pid", "run.json", "all" };
	const struct host_analysis *h = r->host;
	char pids[HA_MAX_PIDS * 12 + 8] = "", prov[32] = "trace";
	unsigned int i;

	dgr_pr_str(p, "processes_from", "processes chosen by", from[r->host_pids_from]);
	if (h->n_only_pids && h->only_pids_provider) {
		/* "dgrdma:" -> "dgrdma": the provider whose events the choice applies to */
		snprintf(prov, sizeof(prov), "%.*s", (int)strcspn(h->only_pids_provider, ":"),
			 h->only_pids_provider);
		dgr_pr_str(p, "only_pids_provider", "for the events of", prov);
	}
	dgr_pr_arr_begin(p, "only_pids", NULL);
	for (i = 0; i < h->n_only_pids; i++) {
		if (dgr_pr_is_json(p)) {
			dgr_pr_u64(p, NULL, NULL, h->only_pids[i]);
		}
		snprintf(pids + strlen(pids), sizeof(pids) - strlen(pids), "%s%u", i ? ", " : "",
			 (unsigned int)h->only_pids[i]);
	}
	dgr_pr_arr_end(p);
	if (r->host_pids_from == HOST_PIDS_RUN_JSON) {
		dgr_pr_text_line(p,
				 "note: only the %s events of this run's processes count (vpid %s: "
				 "run.json's command_pid%s); %" PRIu64
				 " events of other processes left out (--pid PID chooses others)",
				 prov, pids, h->n_only_pids > 1 ? " and trace_pids" : "",
				 h->c.other_pids);
	} else if (r->host_pids_from == HOST_PIDS_ALL_COMMAND_SILENT) {
		dgr_pr_text_line(
		    p,
		    "note: run.json's command_pid %u has no event in the trace (a command "
		    "run through a wrapper, e.g. timeout, traces under its child's pid): "
		    "the events of every process count",
		    (unsigned int)r->run.command_pid);
	}
}

/*
 * The processes whose transactions were counted, and a note when they are
 * several: per-user buffers record every process of the user, so a second
 * dgrdma-host of the same user mixes into this run's numbers.
 */
static void print_host_processes(struct dgr_pr *p, const struct report *r)
{
	const struct host_analysis *h = r->host;
	char pids[HA_MAX_PIDS * 12 + 8] = "";
	unsigned int i;
	/* the host's transactions are of the chosen processes only (--pid, run.json's) */
	bool chosen = h->n_only_pids > 0 &&
		      (!h->only_pids_provider || !strcmp(h->only_pids_provider, "dgrdma:"));

	dgr_pr_u64(p, "processes", "processes whose transactions count", h->n_host_pids);
	print_host_pids_from(p, r);
	if (h->n_host_pids < 2 || chosen) {
		return;
	}
	for (i = 0; i < h->n_host_pids; i++) {
		snprintf(pids + strlen(pids), sizeof(pids) - strlen(pids), "%s%u", i ? ", " : "",
			 (unsigned int)h->host_pids[i]);
	}
	dgr_pr_text_line(p,
			 "note: these numbers mix the transactions of %u%s processes (vpid %s%s): "
			 "the trace records every process of the user; --pid PID keeps one",
			 h->n_host_pids, h->host_pids_more ? "+" : "", pids,
			 h->host_pids_more ? ", ..." : "");
}

/*
 * The latest doorbell (the one with the largest latency; JSON latest_doorbell)
 * as the stack measured it (doorbell_sent's latency_ns),
 * absent for traces before that field: the one a flight recorder's
 * --incident-latency-us trigger fired on, even when its completion lies
 * before the snapshot.
 */
static void print_worst_bell(struct dgr_pr *p, const struct host_analysis *h)
{
	const struct ha_worst_bell *w = &h->worst_bell;

	if (!w->seen) {
		return;
	}
	dgr_pr_obj_begin(p, "latest_doorbell",
			 "the doorbell with the largest latency (the stack's latency_ns, from the "
			 "kernel's arrival):");
	dgr_pr_ns(p, "latency_ns", "latency", w->latency_ns);
	dgr_pr_dbl(p, "at_s", "at (s into the trace)",
		   (double)(w->ts >= h->first_ts ? w->ts - h->first_ts : 0) / 1e9, 6);
	dgr_pr_u64(p, "conn", NULL, w->conn);
	dgr_pr_u64(p, "buffer", NULL, w->buffer);
	dgr_pr_u64(p, "txn_id", NULL, w->txn_id);
	dgr_pr_u64(p, "frame_seq", "doorbell frame_seq", w->frame_seq);
	dgr_pr_u64(p, "vpid", NULL, w->vpid);
	dgr_pr_bool(p, "completion_in_trace", "its completion in the trace",
		    w->completion_in_trace);
	dgr_pr_u64(p, "doorbells_with_latency", "doorbells carrying latency_ns",
		   h->c.bells_with_latency);
	dgr_pr_obj_end(p);
}

static int print_host(struct dgr_pr *p, const struct report *r)
{
	const struct host_analysis *h = r->host;
	uint64_t span = h->last_ts > h->first_ts ? h->last_ts - h->first_ts : 0;
	uint64_t pending, discontinuities;
	bool from_counters;
	int rc;
	unsigned int i;

	dgr_pr_obj_begin(p, "host", "In the host (from the trace)");
	dgr_pr_u64(p, "events", NULL, h->c.events);
	if (h->trace_unindexed_bytes) {
		/* only then, so that a live view's host object equals the offline one */
		dgr_pr_u64(p, "trace_unindexed_bytes", "bytes of the trace past its index",
			   h->trace_unindexed_bytes);
		dgr_pr_text_line(p, "note: the session sent its last packets without their index "
				    "entries (its session daemon ended first); they were read from "
				    "the stream files");
	}
	print_host_processes(p, r);
	dgr_pr_obj_begin(p, "rx", "RX path: transaction complete -> doorbell handed to the socket");
	dgr_pr_u64(p, "transactions", "transactions completed", h->c.txn_complete);
	dgr_pr_u64(p, "completions_from_doorbells",
		   "of them, completion taken from doorbell_sent (no txn_complete)",
		   h->c.completions_derived);
	dgr_pr_u64(p, "doorbells", "doorbells sent", h->c.doorbell_sent);
	dgr_pr_u64(p, "matched", NULL, h->c.matched);
	dgr_pr_u64(p, "unmatched_transactions", "completed again without a doorbell",
		   h->c.unmatched);
	dgr_pr_u64(p, "orphan_doorbells", "doorbells without a completion", h->c.orphans);
	/*
	 * a trace without txn_complete holds only the answered transactions: the
	 * others, and which were discontinuities, are the stack's counters'
	 */
	from_counters = ha_unanswered_from_counters(h, r->run.incident, &pending, &discontinuities);
	if (!from_counters) {
		pending = ha_pending_count(h);
		discontinuities = h->c.discontinuities;
	}
	dgr_pr_u64(p, "discontinuities", "discontinuities (opcode 4)", discontinuities);
	dgr_pr_u64(p, "pending_at_end", "waiting at the end", pending);
	dgr_pr_bool(p, "unanswered_from_counters",
		    "waiting and discontinuities from the last counters snapshot", from_counters);
	if (from_counters) {
		dgr_pr_text_line(p,
				 "note: the trace has no txn_complete (dgrdma-capture's default): "
				 "transactions never answered are not in it (the capture lists "
				 "them); their count is the stack's counters'");
	}
	dgr_pr_u64(p, "parts_missing", "doorbells without acquire/release events",
		   h->c.parts_missing);
	rc = print_latency(p, "latency_ns", "in-host doorbell latency:", &h->lat, span,
			   r->host_tolerable_ns);
	rc = rc ? rc
		: print_latency(p, "wait_ns", "complete -> consumer acquires:", &h->wait, span, 0);
	rc = rc ? rc
		: print_latency(p, "work_ns", "acquire -> release (consumer work):", &h->work, span,
				0);
	rc = rc ? rc : print_latency(p, "send_ns", "release -> doorbell sent:", &h->send, span, 0);
	rc = rc ? rc
		: print_latency(p, "wait_receive_ns",
				"kernel arrival -> complete (receive thread):", &h->recv, span, 0);
	rc = rc ? rc
		: print_latency(p, "latency_from_arrival_ns",
				"doorbell latency from kernel arrival:", &h->lat_arrival, span,
				r->host_tolerable_ns);
	/* to the send call's start: the one end a traced host and the preload library share */
	rc = rc ? rc
		: print_latency(p, "latency_to_handover_ns",
				"complete -> the doorbell's send call begins:", &h->lat_handed,
				span, 0);
	if (rc) {
		return rc;
	}
	/*
	 * Every completion taken from doorbell_sent is its receive call's return: the series
	 * is the one above, point for point, so the text says so instead of printing it twice
	 */
	if (!dgr_pr_is_json(p) && h->c.completions_derived == h->c.txn_complete &&
	    h->lat_read_handed.n == h->lat_handed.n && h->lat_handed.n > 0) {
		dgr_pr_text_line(p, "receive call returns -> the doorbell's send call begins: the "
				    "series above (each completion was taken from doorbell_sent, "
				    "at its receive call's return)");
	} else {
		rc = print_latency(p, "read_to_handover_ns",
				   "receive call returns -> the doorbell's send call begins:",
				   &h->lat_read_handed, span, 0);
		if (rc) {
			return rc;
		}
	}
	print_worst_bell(p, h);
	dgr_pr_obj_end(p);
	dgr_pr_obj_begin(p, "tx", "TX path: transaction sent -> doorbell (credit) back");
	dgr_pr_u64(p, "transactions", "transactions sent", h->c.txn_sent);
	dgr_pr_u64(p, "doorbells", "doorbells received", h->c.doorbell_rx);
	dgr_pr_u64(p, "matched", NULL, h->c.tx_matched);
	dgr_pr_u64(p, "orphan_doorbells", "doorbells without a transaction", h->c.tx_orphans);
	rc = print_latency(p, "latency_ns", "credit latency:", &h->tx_credit, span, 0);
	if (rc) {
		return rc;
	}
	dgr_pr_obj_end(p);
	dgr_pr_obj_begin(p, "events_seen", "other events");
	dgr_pr_u64(p, "frames_rx", NULL, h->c.frames_rx);
	dgr_pr_u64(p, "frames_tx", NULL, h->c.frames_tx);
	dgr_pr_u64(p, "retransmits", NULL, h->c.retransmits);
	dgr_pr_u64(p, "malformed", NULL, h->c.malformed);
	dgr_pr_u64(p, "socket_drops", NULL, h->c.socket_drops);
	dgr_pr_u64(p, "counter_snapshots", "counter snapshots", h->c.counter_snapshots);
	dgr_pr_u64(p, "fpga_transactions_sent", "emulator: transactions sent", h->c.fpga_txn_sent);
	dgr_pr_u64(p, "fpga_doorbells_received", "emulator: doorbells received",
		   h->c.fpga_doorbell_rx);
	dgr_pr_u64(p, "fpga_discontinuities", "emulator: discontinuities",
		   h->c.fpga_discontinuities);
	dgr_pr_u64(p, "fpga_drop_periods", "emulator: drop periods", h->c.fpga_drop_periods);
	dgr_pr_u64(p, "fpga_underruns", "emulator: underruns", h->c.fpga_underruns);
	dgr_pr_u64(p, "table_overflow", "transactions not tracked (table full)",
		   h->c.table_overflow);
	dgr_pr_u64(p, "unknown_events", "events of no known kind", h->c.unknown_events);
	dgr_pr_u64(p, "other_pids", "events of other processes (--pid)", h->c.other_pids);
	dgr_pr_obj_end(p);
	dgr_pr_arr_begin(p, "counters", "drops from counter snapshots (last values)");
	for (i = 0; i < h->n_srcs; i++) {
		const struct ha_counter_src *s = &h->srcs[i];
		double pct = s->delivered + s->lost
				 ? 100.0 * (double)s->lost / (double)(s->delivered + s->lost)
				 : 0.0;

		dgr_pr_line_begin(p, NULL);
		dgr_pr_str(p, "source", NULL, s->fpga ? "fpga" : "host");
		dgr_pr_u64(p, "conn", NULL, s->conn);
		dgr_pr_u64(p, "vpid", NULL, s->vpid);
		dgr_pr_u64(p, "delivered_samples", "delivered samples", s->delivered);
		dgr_pr_u64(p, "lost_samples", "lost samples", s->lost);
		dgr_pr_dbl(p, "drop_percent", "drop %", pct, 4);
		dgr_pr_line_end(p);
	}
	dgr_pr_arr_end(p);
	dgr_pr_arr_begin(p, "threads", "threads (scheduling settings seen)");
	for (i = 0; i < h->n_threads; i++) {
		const struct ha_thread *t = &h->threads[i];

		if (dgr_pr_is_json(p)) {
			dgr_pr_obj_begin(p, NULL, NULL);
			dgr_pr_str(p, "provider", NULL, t->fpga ? "dgrdma_fpga" : "dgrdma");
			dgr_pr_str(p, "role", NULL, ha_role_name(t->role));
			dgr_pr_u64(p, "conn", NULL, t->conn);
			dgr_pr_i64(p, "tid", NULL, t->tid);
			dgr_pr_str(p, "policy", NULL, ha_policy_name(t->policy));
			dgr_pr_i64(p, "priority", NULL, t->priority);
			dgr_pr_i64(p, "nice", NULL, t->nice);
			dgr_pr_u64(p, "cpuset", NULL, t->cpuset);
			dgr_pr_obj_end(p);
		} else {
			dgr_pr_text_line(
			    p, "%s %-8s conn %u tid %d %s prio %d nice %d cpus 0x%" PRIx64,
			    t->fpga ? "fpga" : "host", ha_role_name(t->role), t->conn, t->tid,
			    ha_policy_name(t->policy), t->priority, t->nice, t->cpuset);
		}
	}
	dgr_pr_arr_end(p);
	if (r->wire_to_stack) {
		dgr_pr_obj_begin(p, "joined", "Wire and trace on one axis (RX doorbells)");
		dgr_pr_u64(p, "doorbells", "doorbells joined", r->joined);
		dgr_pr_u64(p, "negative_wire_to_stack",
			   "wire -> stack parts below 0 (recorded as 0)", r->negative_w2s);
		dgr_pr_u64(
		    p, "negative_stack_to_wire",
		    "stack -> wire parts below 0 (capture point before the tracepoint; recorded "
		    "as 0)",
		    r->negative_s2w);
		dgr_pr_str(p, "paired_by", "paired by", r->join.by_txn ? "transaction id" : "time");
		dgr_pr_obj_begin(p, "unjoined", "wire doorbells not joined");
		dgr_pr_u64(p, "no_trace_doorbell",
			   "no trace doorbell (of its transaction) within the window",
			   r->join.unjoined_no_bell);
		dgr_pr_u64(p, "completion_outside",
			   "the nearest one's completion outside the window",
			   r->join.unjoined_complete);
		dgr_pr_u64(p, "trace_used_up", "the trace's doorbells used up",
			   r->join.unjoined_host_used_up);
		if (r->join.unjoined_no_bell + r->join.unjoined_complete +
		    r->join.unjoined_host_used_up) {
			/* the text: on the capture's axis (the JSON keeps the capture's clock) */
			if (dgr_pr_is_json(p) || !r->wire ||
			    r->join.first_unjoined_bell < r->wire->first_ts) {
				dgr_pr_u64(p, "first_bell_ns", "the first one's doorbell time (ns)",
					   r->join.first_unjoined_bell);
			} else {
				dgr_pr_dbl(
				    p, "first_bell_ns",
				    "the first one's doorbell (s into the capture)",
				    (double)(r->join.first_unjoined_bell - r->wire->first_ts) / 1e9,
				    6);
			}
			dgr_pr_u64(p, "first_txn", "its transaction", r->join.first_unjoined_txn);
		}
		dgr_pr_obj_end(p);
		rc = print_latency(p, "wire_to_stack_ns",
				   "wire -> stack (kernel receive path, last frame to complete):",
				   r->wire_to_stack, 0, 0);
		rc = rc ? rc
			: print_latency(p, "stack_to_wire_ns",
					"stack -> wire (kernel send path, from the doorbell handed "
					"to the socket to the wire):",
					r->stack_to_wire, 0, 0);
		if (rc) {
			return rc;
		}
		if (r->arrival_offsets) {
			dgr_pr_u64(p, "arrival_offsets",
				   "doorbells with the kernel arrival in the trace",
				   r->arrival_offsets);
			dgr_pr_u64(p, "trace_arrival_before_capture",
				   "of them, the trace's arrival before the capture's time",
				   r->trace_arrival_first);
			rc =
			    print_latency(p, "capture_vs_trace_arrival_ns",
					  "clocks: |capture time - kernel arrival in the trace| of "
					  "the completing frame:",
					  r->arrival_offset, 0, 0);
			if (rc) {
				return rc;
			}
		}
		dgr_pr_obj_end(p);
	}
	dgr_pr_obj_end(p);
	return 0;
}
/* A run fact: 0 is unknown, which the text says (the JSON keeps 0, see run_info.h). */
static void print_fact(struct dgr_pr *p, const char *key, const char *label, uint64_t v,
		       const char *unknown)
{
	if (v == 0 && !dgr_pr_is_json(p)) {
		dgr_pr_str(p, key, label, unknown);
		return;
	}
	dgr_pr_u64(p, key, label, v);
}

static int judge(struct report *r, const struct series *s, uint64_t span_ns, uint64_t tolerable_ns,
		 bool tx, const struct wa_dir_stats *st, uint64_t data_transactions)
{
	const struct host_analysis *h = r->host;
	unsigned int i;
	int rc;

	r->underruns_known = false;
	for (i = 0; h && i < h->n_threads; i++) {
		r->underruns_known = r->underruns_known || h->threads[i].fpga;
	}
	r->underruns = h ? h->c.fpga_underruns : 0;
	if (!s && !data_transactions && r->wire && r->wire->n_port_hints) {
		char ports[WA_MAX_PORT_HINTS * 6 + 1] = "";

		for (i = 0; i < r->wire->n_port_hints; i++) {
			snprintf(ports + strlen(ports), sizeof(ports) - strlen(ports), "%s%u",
				 i ? "," : "", (unsigned int)r->wire->port_hints[i].port);
		}
		classify_not_on_ports(r->wire->other_port_datagrams, ports, &r->verdict);
		snprintf(r->summary, sizeof(r->summary), "%s", regime_label(r->verdict.regime));
		return 0;
	}
	if (!s && !data_transactions && r->so_far) {
		memset(&r->verdict, 0, sizeof(r->verdict));
		r->verdict.regime = REGIME_UNKNOWN;
		snprintf(r->verdict.reason, sizeof(r->verdict.reason),
			 "no data transaction yet: the stream has not started so far");
		snprintf(r->summary, sizeof(r->summary), "%s", regime_label(r->verdict.regime));
		return 0;
	}
	if (!s) {
		classify_no_doorbells(data_transactions, &r->verdict);
		snprintf(r->summary, sizeof(r->summary), "%s", regime_label(r->verdict.regime));
		return 0;
	}
	/* the same summary the report prints: computed (and sorted) once */
	rc = series_summarise(s, span_ns, tolerable_ns, &r->verdict_sum);
	if (rc) {
		return rc;
	}
	r->verdict_s = s;
	r->verdict_span = span_ns;
	r->verdict_tol = tolerable_ns;
	r->verdict_tx = tx;
	if (tx) {
		/* the FPGA's buffers: the run's facts, else the distinct flag addresses seen */
		rc = occupancy_compute(
		    s, r->run.fpga_buffers ? r->run.fpga_buffers : (st ? st->buffers : 0), &r->occ);
		if (rc) {
			return rc;
		}
		classify_tx(&r->occ, s->n, r->underruns_known, r->underruns, &r->verdict);
		/*
		 * The DAC plays the N - 1 buffers still queued while the host answers a
		 * doorbell: its worst answer is the TX path's stall.
		 */
		headroom_compute(r->occ.buffers - 1,
				 r->run.buffer_size ? r->run.buffer_size
						    : (st ? st->max_txn_bytes : 0),
				 r->run.rate_bytes ? r->run.rate_bytes : r->rate_estimate[WA_TX],
				 r->occ.worst_refill_ns, &r->headroom);
		/* no rate given: the one the trace's counters moved at (judge.c) */
		r->headroom.rate_estimated = r->headroom.known && !r->run.rate_bytes;
		r->headroom.ran_empty = r->headroom.known && r->occ.empty_episodes > 0;
		classify_summary(r->summary, sizeof(r->summary), &r->verdict, NULL, &r->headroom,
				 tolerable_ns, &r->occ);
		return 0;
	}
	classify(s, &r->verdict_sum, tolerable_ns, &r->verdict);
	classify_shape(s, &r->verdict_sum, tolerable_ns, &r->shape);
	headroom_for_run(&r->run, st, r->rate_estimate[tx ? WA_TX : WA_RX], r->verdict_sum.max,
			 &r->headroom);
	classify_summary(r->summary, sizeof(r->summary), &r->verdict, &r->shape, &r->headroom,
			 tolerable_ns, NULL);
	return 0;
}

/*
 * The capture's steps back cannot move the verdict: no impossible time, and the verdict holds
 * however each latency is off by the largest step back (classify_holds_under_step()). A capture
 * taken on several CPUs stamps frames out of order by microseconds (5.3 us over loopback here;
 * 167 us on the demo's veth pair, whose jitter-bound verdict stood 66 ms and more from its
 * thresholds); a clock set back or captures merged unsorted step further. The TX path's verdict
 * (the FPGA's occupancy) keeps a step of at most 1% of its threshold.
 */
static bool steps_cannot_move_verdict(const struct report *r)
{
	uint64_t high = r->verdict.high_threshold_ns, step = r->wire->ts_largest_step_back;

	if (r->wire->ts_impossible || !high) {
		return false;
	}
	if (r->verdict_tx) {
		return step <= high / 100;
	}
	return classify_holds_under_step(&r->verdict_sum, r->verdict_tol, high, step);
}

int report_verdict(struct report *r, const struct series *s, uint64_t span_ns,
		   uint64_t tolerable_ns, bool tx, const struct wa_dir_stats *st,
		   uint64_t data_transactions)
{
	char reason[512], line[sizeof(r->summary) + 64];
	int rc;

	rc = judge(r, s, span_ns, tolerable_ns, tx, st, data_transactions);
	if (rc) {
		return rc;
	}
	if (r->vicious && r->vicious->found) {
		size_t len = strlen(r->summary);

		snprintf(r->summary + len, sizeof(r->summary) - len,
			 "; VICIOUS CYCLE: %.0f%% of the transactions after the first drop were "
			 "discontinuities",
			 100.0 * r->vicious->share);
	}
	if (r->wire && wa_times_suspect(r->wire) && !strncmp(r->verdict_series, "wire", 4) &&
	    !steps_cannot_move_verdict(r)) {
		/* the verdict rests on the capture's times: say that they are wrong */
		snprintf(reason, sizeof(reason),
			 "ON BAD TIMESTAMPS (the capture's: back in time %" PRIu64
			 ", impossible %" PRIu64 "); %.200s",
			 r->wire->ts_backwards, r->wire->ts_impossible, r->verdict.reason);
		snprintf(r->verdict.reason, sizeof(r->verdict.reason), "%.255s", reason);
	}
	/* a failed run says so first: its doorbells and counters stop where it stalled */
	if (!strcmp(report_run_status(r, reason, sizeof(reason)), "failed")) {
		snprintf(line, sizeof(line),
			 "RUN FAILED (the recorded command exited %" PRId64 "); %.400s",
			 r->run.exit_status, r->summary);
		snprintf(r->summary, sizeof(r->summary), "%.500s", line);
	}
	return 0;
}

/* The guide's cure for the vicious cycle, before the regime's mitigations. */
static const char *const vicious_cure[] = {
	"set report_data_loss=false on the ADC source: no discontinuity message after a drop, so "
	"no buffer is spent on one (the guide's 'Stopping the Vicious Cycle')",
	"or give the stream more buffers so one drop does not exhaust them: more FPGA buffers "
	"(the demux/mux workaround over several ports) and host buffers (up to 255)",
	NULL,
};

/* regime.vicious_cycle: the first drop, the discontinuities after it, the pool they took. */
static void print_vicious(struct dgr_pr *p, const struct vicious *v)
{
	const uint64_t origin = v->first_ts;

	dgr_pr_obj_begin(p, "vicious_cycle",
			 "Vicious cycle (discontinuities after the first drop)");
	dgr_pr_bool(p, "found", NULL, v->found);
	dgr_pr_u64(p, "discontinuities", NULL, v->discontinuities);
	if (v->first_drop_ts) {
		dgr_pr_ns(p, "first_drop_ns", "first drop, into the stream",
			  v->first_drop_ts - origin);
		dgr_pr_u64(p, "transactions_after", "transactions from it on", v->txns_after);
		dgr_pr_dbl(p, "share", "share of them that were discontinuities", v->share, 4);
		dgr_pr_u64(p, "longest_run", "most discontinuities in a row", v->longest_run);
		dgr_pr_dbl(p, "rate_before_bytes", "sample rate before, bytes/s", v->rate_before,
			   0);
		dgr_pr_dbl(p, "rate_after_bytes", "sample rate after, bytes/s", v->rate_after, 0);
		if (v->tolerable_ns) {
			dgr_pr_ns(p, "tolerable_ns", "tolerable latency", v->tolerable_ns);
			dgr_pr_ns(p, "tolerable_after_ns", "left for samples after (x (1 - share))",
				  v->tolerable_after_ns);
		}
	}
	dgr_pr_obj_end(p);
}

/* regime.headroom (see headroom.h). */
static void print_headroom(struct dgr_pr *p, const struct headroom *h)
{
	dgr_pr_obj_begin(p, "headroom", "Headroom");
	dgr_pr_bool(p, "known", NULL, h->known);
	dgr_pr_ns(p, "worst_stall_ns", "worst stall (max latency)", h->worst_ns);
	if (h->known) {
		dgr_pr_bool(p, "estimated", "pool and rate estimated from the capture",
			    h->estimated);
		dgr_pr_bool(p, "rate_estimated", "rate estimated from the trace's counters",
			    h->rate_estimated);
		dgr_pr_bool(p, "ran_empty", "TX: the FPGA's queue ran empty at this rate",
			    h->ran_empty);
		dgr_pr_u64(p, "buffers", "buffers (N_c + N_p)", h->buffers);
		dgr_pr_u64(p, "buffer_size", "buffer size, bytes", h->buffer_size);
		dgr_pr_u64(p, "rate_bytes", "rate, bytes/s", h->rate_bytes);
		dgr_pr_dbl(p, "lossless_rate_bytes", "lossless up to, bytes/s",
			   h->lossless_rate_bytes, 0);
		dgr_pr_dbl(p, "rate_factor", "that is, x this rate", h->rate_factor, 3);
		dgr_pr_u64(p, "buffers_needed", "buffers the worst stall needs at this rate",
			   h->buffers_needed);
		dgr_pr_dbl(p, "worst_of_tolerable", "worst stall, fraction of the tolerable",
			   h->worst_of_tolerable, 4);
	}
	dgr_pr_obj_end(p);
}

/* regime.shape, regime.headroom or regime.tx: what the verdict adds. */
static void print_verdict_details(struct dgr_pr *p, const struct report *r)
{
	const struct headroom *h = &r->headroom;
	const struct lat_shape *sh = &r->shape;

	if (r->verdict_tx && r->verdict_s) {
		const struct occupancy *o = &r->occ;

		dgr_pr_obj_begin(p, "tx", "FPGA buffer occupancy (TX path, from the doorbells)");
		dgr_pr_u64(p, "fpga_buffers", "FPGA buffers", o->buffers);
		dgr_pr_dbl(p, "mean_outstanding", "mean buffers outstanding", o->mean, 2);
		dgr_pr_u64(p, "max_outstanding", "most outstanding at once", o->max);
		dgr_pr_ns(p, "window_ns", "while the host sent", o->window_ns);
		dgr_pr_ns(p, "low_ns", "at most half full for", o->low_ns);
		dgr_pr_ns(p, "empty_ns", "empty for", o->empty_ns);
		dgr_pr_u64(p, "empty_episodes", "times it ran empty", o->empty_episodes);
		dgr_pr_ns(p, "longest_empty_ns", "longest empty", o->longest_empty_ns);
		if (r->underruns_known) {
			dgr_pr_u64(p, "underrun_periods", "underrun periods (emulator trace)",
				   r->underruns);
		}
		dgr_pr_u64(p, "refills", "doorbells answered by a send", o->refills);
		dgr_pr_ns(p, "worst_refill_ns", "longest doorbell -> send into its buffer",
			  o->worst_refill_ns);
		dgr_pr_obj_end(p);
		print_headroom(p, h);
		return;
	}
	if (sh->kind == SHAPE_NONE) {
		return;
	}
	dgr_pr_obj_begin(p, "shape", "Shape");
	dgr_pr_str(p, "kind", NULL, shape_label(sh->kind));
	dgr_pr_ns(p, "spike_threshold_ns", "a stall is a doorbell above", sh->spike_threshold_ns);
	dgr_pr_u64(p, "stalls", "stalls (runs of such doorbells)", sh->spikes);
	dgr_pr_u64(p, "stall_doorbells", "doorbells in them", sh->spike_doorbells);
	dgr_pr_ns(p, "largest_stall_ns", "largest", sh->largest_ns);
	if (r->verdict_tol) {
		dgr_pr_dbl(p, "largest_stall_of_tolerable", "largest, fraction of the tolerable",
			   (double)sh->largest_ns / (double)r->verdict_tol, 4);
	}
	dgr_pr_obj_end(p);
	print_headroom(p, h);
}

int report_parse_fail_on(const char *list, unsigned int *mask, char *errbuf)
{
	static const struct {
		const char *name;
		unsigned int bits;
	} words[] = {
		{ "jitter-bound", FAIL_ON_JITTER },
		{ "throughput-bound", FAIL_ON_THROUGHPUT },
		{ "unknown", FAIL_ON_UNKNOWN },
		{ "not-healthy", FAIL_ON_JITTER | FAIL_ON_THROUGHPUT | FAIL_ON_UNKNOWN },
		{ "loss", FAIL_ON_LOSS },
	};
	const char *w = list;

	*mask = 0;
	for (;;) {
		size_t len = strcspn(w, ","), k;

		for (k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
			if (strlen(words[k].name) == len && !strncmp(w, words[k].name, len)) {
				*mask |= words[k].bits;
				break;
			}
		}
		if (k == sizeof(words) / sizeof(words[0])) {
			snprintf(
			    errbuf, DGR_ERRBUF_SIZE,
			    "--fail-on: '%.*s' is not jitter-bound, throughput-bound, unknown, "
			    "not-healthy or loss",
			    (int)len, w);
			return -DGR_E_INVAL;
		}
		if (w[len] == '\0') {
			return 0;
		}
		w += len + 1;
	}
}

const char *report_run_status(const struct report *r, char *reason, size_t size)
{
	if (!r->run.exit_known) {
		snprintf(reason, size,
			 "no run.json with the recorded command's exit status (a capture or a "
			 "trace alone)");
		return "unknown";
	}
	if (r->run.interrupted) {
		snprintf(reason, size,
			 "dgrdma-capture was interrupted (the command exited %" PRId64 ")",
			 r->run.exit_status);
		return "interrupted";
	}
	if (r->run.exit_status == DGR_EXIT_FINDING) {
		/* the stream ran to its end; the finding is the losses shown above */
		snprintf(reason, size,
			 "the recorded command exited 1: it ran to its end with a finding "
			 "(dgrdma-host: the drop rate exceeded --max-drop-rate)");
		return "ok";
	}
	if (r->run.exit_status != 0 && r->run.host_summary_known && r->run.host_status[0]) {
		snprintf(reason, size,
			 "the recorded command exited %" PRId64
			 ": dgrdma-host's summary says '%s'; losses after the stall are not in "
			 "the counters above",
			 r->run.exit_status, r->run.host_status);
		return "failed";
	}
	if (r->run.exit_status != 0) {
		snprintf(
		    reason, size,
		    "the recorded command exited %" PRId64
		    ": it did not end its stream normally (dgrdma-host: could not start, "
		    "stalled, gave up waiting or left transactions incomplete; its summary says "
		    "which); losses after the stall are not in the counters above",
		    r->run.exit_status);
		return "failed";
	}
	snprintf(reason, size, "the recorded command exited 0");
	return "ok";
}

/* What the inputs say was lost (see the "losses" object). */
struct losses {
	uint64_t discontinuities, incomplete, host_lost, fpga_lost, socket_drops;
	uint64_t underrun_periods, queue_empty;
	/* the FPGA's counters: drops in closed periods, underrun slots before the teardown */
	uint64_t counter_drops, counter_underruns;
	uint64_t summary_lost; /* the host's own summary (run.json's losses.host) */
};

static void count_losses(const struct report *r, struct losses *l)
{
	unsigned int i;

	memset(l, 0, sizeof(*l));
	if (r->wire) {
		l->discontinuities = r->wire->dir[WA_RX].discontinuities;
		l->incomplete = r->wire->dir[WA_RX].incomplete + r->wire->dir[WA_TX].incomplete;
	}
	if (r->host) {
		for (i = 0; i < r->host->n_srcs; i++) {
			if (r->host->srcs[i].fpga) {
				l->fpga_lost += r->host->srcs[i].lost;
			} else {
				l->host_lost += r->host->srcs[i].lost;
			}
		}
		l->socket_drops = r->host->c.socket_drops;
		l->underrun_periods = r->host->c.fpga_underruns;
	}
	if (r->verdict_tx && r->verdict_s) {
		l->queue_empty = r->occ.empty_episodes;
	}
	if (r->run.host_summary_known) {
		l->summary_lost = r->run.host_samples_lost;
	}
	if (r->fpga) {
		l->counter_drops = r->fpga->dropped_samples;
		l->counter_underruns = r->fpga->num_underruns - r->fpga->trailing_underruns;
	}
}

static bool any_loss(const struct losses *l)
{
	return l->discontinuities || l->incomplete || l->host_lost || l->fpga_lost ||
	       l->socket_drops || l->underrun_periods || l->queue_empty || l->counter_drops ||
	       l->counter_underruns || l->summary_lost;
}

int report_exit_status(const struct report *r, unsigned int fail_on)
{
	struct losses l;
	char reason[512];
	enum regime g = r->verdict.regime;

	if (!strcmp(report_run_status(r, reason, sizeof(reason)), "failed")) {
		return DGR_EXIT_FAILED;
	}
	count_losses(r, &l);
	if (((fail_on & FAIL_ON_JITTER) && g == REGIME_JITTER) ||
	    ((fail_on & FAIL_ON_THROUGHPUT) && g == REGIME_THROUGHPUT) ||
	    ((fail_on & FAIL_ON_UNKNOWN) && g == REGIME_UNKNOWN) ||
	    ((fail_on & FAIL_ON_LOSS) && any_loss(&l))) {
		return DGR_EXIT_FINDING;
	}
	return DGR_EXIT_OK;
}

/* One string of an array: a JSON string, or a "- " line of text. */
static void arr_item(struct dgr_pr *p, const char *text)
{
	if (dgr_pr_is_json(p)) {
		dgr_pr_str(p, NULL, NULL, text);
	} else {
		dgr_pr_text_line(p, "- %s", text);
	}
}

/*
 * Where the sources of losses disagree, why (docs/analysis.md, "Run status,
 * losses and exit status"); and whether the account is complete.
 */
static void print_disagreements(struct dgr_pr *p, const struct report *r, const struct losses *l,
				bool failed)
{
	bool host_counters = false, fpga_counters = false;
	char buf[512];
	unsigned int i;

	for (i = 0; r->host && i < r->host->n_srcs; i++) {
		host_counters = host_counters || !r->host->srcs[i].fpga;
		fpga_counters = fpga_counters || r->host->srcs[i].fpga;
	}
	dgr_pr_bool(p, "complete", "the account is complete", !failed);
	dgr_pr_arr_begin(p, "disagreements", "where the sources disagree, and why:");
	if (failed && r->fpga && (r->fpga->dropped_open || r->fpga->dropped_samples)) {
		snprintf(
		    buf, sizeof(buf),
		    "the run failed: the FPGA's ADC dropped %" PRIu64
		    " samples in the period still open at its stop (dropped_open: the stall's "
		    "loss, and whatever it produced after the host stopped), beyond the %" PRIu64
		    " of closed periods",
		    r->fpga->dropped_open, r->fpga->dropped_samples);
		arr_item(p, buf);
	} else if (failed && r->fpga && l->counter_underruns) {
		snprintf(buf, sizeof(buf),
			 "the run failed: the FPGA's DAC ran short %" PRIu64
			 " sample slots before its teardown",
			 l->counter_underruns);
		arr_item(p, buf);
	} else if (failed && r->fpga) {
		arr_item(p, "the run failed, and the FPGA's counters show no drop and no underrun: "
			    "they were read before the stall cost anything, or the stall ended the "
			    "stream before the FPGA lost a sample");
	} else if (failed) {
		snprintf(
		    buf, sizeof(buf),
		    "the run failed: whatever was lost after it stalled (an ADC dropping while "
		    "the FPGA's window was locked, a DAC starving) is in none of the counts above; "
		    "give the FPGA's counters (--fpga-counters: the emulator's dropped_open or the "
		    "hardware's num_dropped_samps)");
		arr_item(p, buf);
	}
	if (r->fpga && r->fpga->has_adc && r->wire &&
	    r->fpga->num_dropped_samps != l->discontinuities) {
		snprintf(buf, sizeof(buf),
			 "the FPGA counted %" PRIu64 " drop periods (num_dropped_samps), the wire "
			 "shows %" PRIu64 " discontinuities: a discontinuity goes out only when a "
			 "buffer frees after the period (report_data_loss), and the capture may "
			 "have started late or missed frames",
			 r->fpga->num_dropped_samps, l->discontinuities);
		arr_item(p, buf);
	}
	if (r->fpga && r->fpga->has_adc && host_counters && l->counter_drops > l->host_lost) {
		snprintf(buf, sizeof(buf),
			 "the FPGA dropped %" PRIu64 " samples in closed periods, the host's ramp "
			 "check saw %" PRIu64
			 " lost: periods closed after the last sample the host "
			 "received cannot show in its ramp",
			 l->counter_drops, l->host_lost);
		arr_item(p, buf);
	}
	if (host_counters && fpga_counters && l->fpga_lost > l->host_lost) {
		snprintf(buf, sizeof(buf),
			 "the emulator dropped %" PRIu64
			 " samples, the host's ramp check saw %" PRIu64
			 " lost: the check sees a gap only when later samples arrive, so a stream "
			 "that did not recover (a vicious cycle, a stall) shows less",
			 l->fpga_lost, l->host_lost);
		arr_item(p, buf);
	}
	if (fpga_counters && l->discontinuities && !l->fpga_lost) {
		snprintf(buf, sizeof(buf),
			 "%" PRIu64 " discontinuities on the wire but no dropped sample in the "
			 "emulator's counters: it counts a drop period when the period ends",
			 l->discontinuities);
		arr_item(p, buf);
	}
	if (r->vicious && r->vicious->found && !l->host_lost && host_counters) {
		arr_item(
		    p, "a vicious cycle and no loss in the host's ramp check: after the first drop "
		       "hardly a sample arrived to show the gap");
	}
	dgr_pr_arr_end(p);
}

/* The run's status and every loss the inputs show, in one place. */
static void print_status_and_losses(struct dgr_pr *p, const struct report *r)
{
	struct losses l;
	char reason[512];
	const char *st = report_run_status(r, reason, sizeof(reason));

	dgr_pr_obj_begin(p, "status", "Run status");
	dgr_pr_str(p, "run", "run", st);
	dgr_pr_str(p, "reason", NULL, reason);
	if (r->run.exit_known) {
		dgr_pr_i64(p, "exit_status", "recorded command's exit status", r->run.exit_status);
	}
	dgr_pr_obj_end(p);
	count_losses(r, &l);
	dgr_pr_obj_begin(p, "losses", "Losses (every source the inputs have)");
	dgr_pr_bool(p, "any", "any loss", any_loss(&l));
	if (r->wire) {
		dgr_pr_u64(p, "wire_discontinuities",
			   "discontinuities on the wire (RX: the ADC dropped)", l.discontinuities);
		dgr_pr_u64(p, "wire_incomplete_transactions",
			   "incomplete transactions on the wire (a frame lost)", l.incomplete);
	}
	if (r->host) {
		dgr_pr_u64(p, "host_lost_samples", "samples the host's ramp check lost",
			   l.host_lost);
		dgr_pr_u64(p, "fpga_dropped_samples",
			   "samples the emulator dropped (closed drop periods only)", l.fpga_lost);
		dgr_pr_u64(p, "socket_drops", "frames the kernel dropped", l.socket_drops);
		dgr_pr_u64(p, "underrun_periods", "DAC underrun periods (emulator)",
			   l.underrun_periods);
	}
	if (r->verdict_tx && r->verdict_s) {
		dgr_pr_u64(p, "fpga_queue_empty", "times the FPGA's TX queue ran empty (wire)",
			   l.queue_empty);
	}
	if (r->run.host_summary_known) {
		dgr_pr_u64(p, "host_summary_samples_lost",
			   "samples the host's ramp check lost (its summary, run.json)",
			   l.summary_lost);
		dgr_pr_str(p, "host_summary_status", "the host's status (its summary, run.json)",
			   r->run.host_status[0] ? r->run.host_status : "unknown");
	}
	if (r->fpga) {
		dgr_pr_obj_begin(p, "fpga_counters", "the FPGA's own counters");
		dgr_pr_str(p, "source", "from", r->fpga_source);
		for (size_t i = 0; i < fpga_counter_count; i++) {
			const struct fpga_counter_def *d = &fpga_counter_defs[i];

			if (d->dac ? r->fpga->has_dac : r->fpga->has_adc) {
				dgr_pr_u64(p, d->key, d->label, fpga_counter_value(r->fpga, d));
			}
		}
		dgr_pr_obj_end(p);
	}
	print_disagreements(p, r, &l, !strcmp(st, "failed"));
	dgr_pr_obj_end(p);
}

/* A time span [lo, hi] of a part, for report_check_apart. */
struct part_span {
	const char *name;
	uint64_t lo, hi;
};

static void fmt_span(char *buf, size_t size, const struct part_span *s)
{
	time_t t = (time_t)(s->lo / 1000000000ull);
	struct tm tm;
	char when[32] = "?";
	char len[32];

	if (gmtime_r(&t, &tm)) {
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
	dgr_format_duration(len, sizeof(len), (double)(s->hi - s->lo));
	snprintf(buf, size, "%s (from %s, %s)", s->name, when, len);
}

void report_check_apart(struct report *r)
{
	struct part_span sp[3];
	unsigned int n = 0, i, k;

	r->n_apart = 0;
	r->clock_step[0] = '\0';
	if (r->run.realtime_moved_known &&
	    (uint64_t)llabs(r->run.realtime_moved_ns) >
		r->run.realtime_moved_uncertainty_ns + RUN_REALTIME_STEP_NS) {
		snprintf(r->clock_step, sizeof(r->clock_step),
			 "the real-time clock was stepped by %+.3f us during the run (run.json's "
			 "clocks at its start and end): the capture's times (real time) and the "
			 "trace's (monotonic) disagree by up to that much, and so may their joins",
			 (double)r->run.realtime_moved_ns / 1e3);
	}
	if (r->wire && r->wire->frames) {
		sp[n++] = (struct part_span){ "the capture", r->wire->first_ts, r->wire->last_ts };
	}
	if (r->host && r->host->c.events) {
		sp[n++] = (struct part_span){ "the trace", r->host->first_ts, r->host->last_ts };
	}
	if (r->run.realtime_start_ns && r->run.realtime_end_ns >= r->run.realtime_start_ns) {
		sp[n++] = (struct part_span){ "run.json's clocks", r->run.realtime_start_ns,
					      r->run.realtime_end_ns };
	}
	for (i = 0; i < n; i++) {
		for (k = i + 1; k < n && r->n_apart < REPORT_MAX_APART; k++) {
			char a[100], b[100];

			if (sp[i].hi >= sp[k].lo && sp[k].hi >= sp[i].lo) {
				continue;
			}
			fmt_span(a, sizeof(a), &sp[i]);
			fmt_span(b, sizeof(b), &sp[k]);
			snprintf(r->apart[r->n_apart++], sizeof(r->apart[0]),
				 "%s and %s do not overlap in time: parts of different runs?", a,
				 b);
		}
	}
}

static void print_folder_part(struct dgr_pr *p, const char *key, const struct run_folder_part *part)
{
	dgr_pr_obj_begin(p, key, key);
	dgr_pr_bool(p, "read", NULL, part->read);
	if (part->read) {
		dgr_pr_str(p, "path", NULL, part->path);
		if (part->set) {
			dgr_pr_u64(p, "files", "files (read as one capture)", part->set_files);
		}
		if (part->set && part->ring_first) {
			dgr_pr_u64(p, "ring_first", "first ring file kept", part->ring_first);
			dgr_pr_u64(p, "ring_last", "last ring file", part->ring_last);
			dgr_pr_bool(p, "start_dropped", "the ring dropped the run's start",
				    part->start_dropped);
		}
		if (part->start_dropped) {
			dgr_pr_str(
			    p, "start_dropped_note", "NOTE",
			    "the capture ring overwrote the run's first files: the capture "
			    "starts mid-run; transactions begun before it are not losses, and "
			    "the doorbells of those transactions are orphans");
		}
	} else {
		dgr_pr_str(p, "why", "left out", part->why);
	}
	dgr_pr_obj_end(p);
}

/* The run folders' parts, read or left out and why; the parts that do not belong together. */
static void print_folders(struct dgr_pr *p, const struct report *r)
{
	unsigned int i;

	if (r->n_folders) {
		dgr_pr_arr_begin(p, "run_folders", "Run folders");
		for (i = 0; i < r->n_folders; i++) {
			const struct run_folder *f = &r->folders[i];

			dgr_pr_obj_begin(p, NULL, f->dir);
			if (dgr_pr_is_json(p)) {
				/* the text's heading is the path already */
				dgr_pr_str(p, "path", NULL, f->dir);
			}
			dgr_pr_bool(p, "run_json", "run.json", f->has_run_json);
			print_folder_part(p, "capture", &f->capture);
			print_folder_part(p, "trace", &f->trace);
			dgr_pr_obj_end(p);
		}
		dgr_pr_arr_end(p);
	}
	dgr_pr_arr_begin(p, "parts_apart", "Parts that do not belong together");
	for (i = 0; i < r->n_apart; i++) {
		arr_item(p, r->apart[i]);
	}
	dgr_pr_arr_end(p);
}

/* The cure of the ACK-only finding (section "ACK-only frames to an FPGA"). */
static const char ack_only_cure[] =
    "send no ACK-only frame to the FPGA: its frame parser misreads them (dgrdma-host "
    "--peer-kind fpga, the default; another host: carry ACKs only on frames with messages)";

/*
 * The capture read the other way round from the trace (lr_decide): which side
 * is the FPGA is wrong there, so are its findings about frames to the FPGA.
 */
static bool reversed_capture(const struct report *r)
{
	return r->path_from_trace && r->path_from_trace[0];
}

/* See report.h. */
unsigned int report_actions(const struct report *r, const char **out, unsigned int max)
{
	const bool ack_trap = r->wire &&
			      (r->wire->ack_trap_padded || r->wire->ack_trap_truncated) &&
			      !reversed_capture(r);
	const bool vicious = r->vicious && r->vicious->found;
	const char *const *mit;
	unsigned int n = 0;

	/* the findings' cures first: a lock-up at the wrap outweighs any latency */
	if (ack_trap && n < max) {
		out[n++] = ack_only_cure;
	}
	for (mit = vicious_cure; vicious && *mit && n < max; mit++) {
		out[n++] = *mit;
	}
	/* "none needed" does not stand beside a finding that needs an action */
	mit = regime_mitigations(r->verdict.regime, r->verdict_tx);
	if ((vicious || ack_trap) && r->verdict.regime == REGIME_HEALTHY) {
		mit = regime_mitigations(REGIME_UNKNOWN, 0);
	}
	for (; *mit && n < max; mit++) {
		out[n++] = *mit;
	}
	return n;
}

/* The loss account in one line: "none", or each source that lost something. */
static void fmt_losses(char *buf, size_t size, const struct losses *l)
{
	const struct {
		uint64_t v;
		const char *what;
	} src[] = {
		{ l->discontinuities, "discontinuities on the wire (the ADC dropped)" },
		{ l->incomplete, "incomplete transactions on the wire" },
		{ l->host_lost, "samples lost in the host's ramp check" },
		{ l->fpga_lost, "samples the emulator dropped" },
		{ l->counter_drops, "samples the FPGA's counters dropped" },
		{ l->socket_drops, "frames the kernel dropped" },
		{ l->underrun_periods, "DAC underrun periods" },
		{ l->counter_underruns, "DAC underruns in the FPGA's counters" },
		{ l->queue_empty, "times the FPGA's TX queue ran empty" },
		{ l->summary_lost, "samples lost in the host's summary" },
	};
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(src) / sizeof(src[0]) && len < size; i++) {
		if (src[i].v) {
			len += (size_t)snprintf(buf + len, size - len, "%s%" PRIu64 " %s",
						len ? ", " : "", src[i].v, src[i].what);
		}
	}
	if (!len) {
		snprintf(buf, size, "none");
	}
}

/* The findings beside the verdict, in the order a user should read them; returns how many. */
static unsigned int summary_findings(const struct report *r, char out[][200], unsigned int max)
{
	const struct wire_analysis *w = r->wire;
	unsigned int n = 0;

	/* a capture read the other way round has the FPGA's side wrong: no ACK-only finding */
	const bool fpga_side = w && !reversed_capture(r);

	if (fpga_side && w->ack_trap_lockup_conn >= 0 && n < max) {
		snprintf(out[n++], sizeof(out[0]),
			 "the FPGA locked up at the frame_seq wrap: ACK-only frames to it "
			 "(full report: \"ACK-only frames to the FPGA\")");
	} else if (fpga_side && (w->ack_trap_padded || w->ack_trap_truncated) && n < max) {
		snprintf(out[n++], sizeof(out[0]),
			 "%" PRIu64 " ACK-only frames to the FPGA, which its frame parser "
			 "misreads (full report: \"ACK-only frames to the FPGA\")",
			 w->ack_trap_padded + w->ack_trap_truncated);
	}
	if (r->vicious && r->vicious->found && n < max) {
		snprintf(out[n++], sizeof(out[0]),
			 "a vicious cycle: %" PRIu64 " discontinuities after the first drop "
			 "took buffers from the samples",
			 r->vicious->discontinuities);
	}
	if (w && w->malformed_frames && n < max) {
		snprintf(out[n++], sizeof(out[0]),
			 "%" PRIu64 " malformed frames (counted, skipped)", w->malformed_frames);
	}
	if (reversed_capture(r) && n < max) {
		snprintf(out[n++], sizeof(out[0]),
			 "the trace's host %s the data, but the capture was read the other way "
			 "round (no --host or DCP told the host's side): --path %s reads it; the "
			 "verdict is the trace's",
			 !strcmp(r->path_from_trace, "tx") ? "sent" : "received",
			 r->path_from_trace);
	}
	if (w && w->snap_cut_doorbell_frames && n < max) {
		/* their doorbells' transactions read as unmatched: not a loss, a short snap */
		snprintf(out[n++], sizeof(out[0]),
			 "%" PRIu64 " frames cut by the snap length after a doorbell: the "
			 "doorbells after it were not seen (a larger snap length sees them)",
			 w->snap_cut_doorbell_frames);
	}
	if (w && !w->dir[WA_RX].transactions && !w->dir[WA_TX].transactions && w->n_port_hints &&
	    n < max) {
		snprintf(out[n++], sizeof(out[0]),
			 "%" PRIu64 " UDP datagrams on other ports decode as DG-RDMA or DCP "
			 "(full report: \"Capture\" names the ports)",
			 w->other_port_datagrams);
	}
	if (r->clock_step[0] && n < max) {
		snprintf(out[n++], sizeof(out[0]),
			 "the real-time clock was stepped during the run: capture and trace "
			 "times disagree (full report: \"Run facts\")");
	}
	if (r->n_apart && n < max) {
		snprintf(out[n++], sizeof(out[0]),
			 "parts of the run do not overlap in time (full report: \"Parts that do "
			 "not belong "
			 "together\")");
	}
	return n;
}

/* See report.h. */
void report_print_summary(struct dgr_pr *p, const struct report *r)
{
	const struct headroom *h = &r->headroom;
	const char *actions[REPORT_MAX_ACTIONS];
	char findings[4][200], line[1024], reason[512];
	const char *st = report_run_status(r, reason, sizeof(reason));
	struct losses l;
	unsigned int i, n;

	count_losses(r, &l);
	dgr_pr_obj_begin(p, "summary", "Summary");
	dgr_pr_str(p, "verdict", "verdict", regime_label(r->verdict.regime));
	dgr_pr_str(p, "summary", "in short", r->summary);
	dgr_pr_str(p, "reason", "why", r->verdict.reason);
	if (h->known && h->ran_empty && h->rate_factor >= 1.0) {
		snprintf(line, sizeof(line),
			 "none: the FPGA's queue ran empty at this rate (the worst refill alone "
			 "would allow %.3fx: refills late one after another emptied it)%s",
			 h->rate_factor,
			 h->rate_estimated ? ", rate estimated from the trace's counters" : "");
	} else if (h->known) {
		snprintf(line, sizeof(line),
			 "lossless up to %.3fx this rate (the worst stall needs %" PRIu64
			 " buffers, has %" PRIu64 ")%s",
			 h->rate_factor, h->buffers_needed, h->buffers,
			 h->estimated	     ? ", pool and rate estimated from the capture"
			 : h->rate_estimated ? ", rate estimated from the trace's counters"
					     : "");
	} else {
		snprintf(line, sizeof(line),
			 "unknown (needs the buffers, their size, the rate and a stall)");
	}
	dgr_pr_str(p, "headroom", "headroom", line);
	if (h->known && dgr_pr_is_json(p)) {
		dgr_pr_dbl(p, "headroom_rate_factor", NULL, h->rate_factor, 3);
	}
	fmt_losses(line, sizeof(line), &l);
	dgr_pr_str(p, "losses", "losses", line);
	if (dgr_pr_is_json(p)) {
		dgr_pr_bool(p, "any_loss", NULL, any_loss(&l));
	}
	snprintf(line, sizeof(line), "%s (%s)", st, reason);
	dgr_pr_str(p, "run", "run", line);
	for (i = 0; i < r->n_folders; i++) {
		const struct run_folder_part *c = &r->folders[i].capture;

		if (c->read && c->start_dropped) {
			/* said in the summary: the report covers the ring's part only */
			snprintf(line, sizeof(line),
				 "the ring dropped the run's start: the capture holds ring files "
				 "%lu..%lu of %s; transactions begun before it are not losses",
				 c->ring_first, c->ring_last, r->folders[i].dir);
			dgr_pr_str(p, "capture_start_dropped", "capture", line);
			break;
		}
	}
	n = summary_findings(r, findings, 4);
	dgr_pr_arr_begin(p, "findings", "findings");
	for (i = 0; i < n; i++) {
		arr_item(p, findings[i]);
	}
	dgr_pr_arr_end(p);
	if (r->stalls) {
		/* the run's causes, ranked by stall time (section "Why the stalls happened") */
		n = r->stalls->n_causes < 3 ? r->stalls->n_causes : 3;
		/* their stalls are counted on their own series, which may not be the verdict's
		 * ("in short": its count), so the line says which and how many */
		snprintf(line, sizeof(line),
			 "top causes of the stalls (%" PRIu64 " stall%s, doorbell latency %s)",
			 r->stalls->stalls_total, r->stalls->stalls_total == 1 ? "" : "s",
			 sc_series_words(r->stalls));
		dgr_pr_arr_begin(p, "causes", line);
		for (i = 0; i < n; i++) {
			arr_item(p, r->stalls->causes[i].text);
		}
		if (!n) {
			arr_item(p, "none: no doorbell stalled");
		}
		dgr_pr_arr_end(p);
	}
	n = report_actions(r, actions, 3);
	dgr_pr_arr_begin(p, "actions", "first actions");
	for (i = 0; i < n; i++) {
		arr_item(p, actions[i]);
	}
	dgr_pr_arr_end(p);
	dgr_pr_obj_end(p);
}

int report_print(struct dgr_pr *p, const struct report *r)
{
	const char *actions[REPORT_MAX_ACTIONS];
	unsigned int i, n;
	int rc;
	uint64_t malformed = r->wire ? r->wire->malformed_frames : 0;

	cur_report = r;
	if (!dgr_pr_is_json(p)) {
		/* the answer first; the JSON has it in its own keys */
		report_print_summary(p, r);
		dgr_pr_text_line(p, "Details");
	}
	if (dgr_pr_is_json(p)) {
		dgr_pr_str(p, "percentiles", NULL, "nearest-rank");
	} else {
		dgr_pr_text_line(p, "percentiles: nearest-rank (rank = ceil(p x n))");
	}
	dgr_pr_arr_begin(p, "inputs", NULL);
	if (dgr_pr_is_json(p)) {
		for (i = 0; i < r->n_inputs; i++) {
			dgr_pr_str(p, NULL, NULL, r->inputs[i]);
		}
	}
	dgr_pr_arr_end(p);
	print_folders(p, r);
	dgr_pr_obj_begin(p, "run", "Run facts");
	print_fact(p, "host_buffers", "host buffers", r->run.host_buffers, "unknown");
	print_fact(p, "fpga_buffers", "FPGA buffers", r->run.fpga_buffers, "unknown (taken as 0)");
	print_fact(p, "buffer_size", "buffer size, bytes", r->run.buffer_size, "unknown");
	print_fact(p, "rate_bytes", "rate, bytes/s", r->run.rate_bytes, "unknown");
	dgr_pr_str(p, "tolerable_source", "tolerable latency from", r->tolerable_source);
	/* JSON always (0: none), text only when the tolerable latency rests on it */
	if (dgr_pr_is_json(p) || r->rate_estimate[WA_RX]) {
		dgr_pr_u64(p, "rate_estimate_rx_bytes",
			   "rate estimated from the trace's counters (RX), bytes/s",
			   r->rate_estimate[WA_RX]);
	}
	if (dgr_pr_is_json(p) || r->rate_estimate[WA_TX]) {
		dgr_pr_u64(p, "rate_estimate_tx_bytes",
			   "rate estimated from the trace's counters (TX), bytes/s",
			   r->rate_estimate[WA_TX]);
	}
	if (r->run.realtime_moved_known) {
		dgr_pr_i64(p, "realtime_moved_ns",
			   "real time moved against monotonic during the run, ns",
			   r->run.realtime_moved_ns);
		dgr_pr_u64(p, "realtime_moved_uncertainty_ns", "give or take, ns",
			   r->run.realtime_moved_uncertainty_ns);
	}
	/* the text says it only when the clock was stepped (an empty line read as a fault) */
	if (dgr_pr_is_json(p) || r->clock_step[0]) {
		dgr_pr_str(p, "clock_step", "WARNING", r->clock_step);
	}
	dgr_pr_arr_begin(p, "trace_disagrees", "the trace's own facts disagree");
	for (i = 0; i < r->n_facts_disagree; i++) {
		arr_item(p, r->facts_disagree[i]);
	}
	dgr_pr_arr_end(p);
	dgr_pr_obj_end(p);
	rc = r->wire ? print_wire(p, r) : 0;
	rc = rc ? rc : (r->host ? print_host(p, r) : 0);
	if (rc) {
		return rc;
	}
	dgr_pr_u64(p, "malformed_frames", "Malformed frames (counted, skipped)", malformed);
	if (r->wire) {
		dgr_pr_obj_begin(p, "malformed", NULL);
		for (i = 1; i < DGR_E__COUNT; i++) {
			if (r->wire->malformed_by_reason[i]) {
				dgr_pr_u64(p, dgr_error_id((int)i), dgr_strerror((int)i),
					   r->wire->malformed_by_reason[i]);
			}
		}
		dgr_pr_obj_end(p);
	}
	print_status_and_losses(p, r);
	dgr_pr_obj_begin(p, "regime", "Regime");
	dgr_pr_str(p, "label", "verdict", regime_label(r->verdict.regime));
	dgr_pr_str(p, "summary", NULL, r->summary);
	dgr_pr_str(p, "reason", NULL, r->verdict.reason);
	dgr_pr_str(p, "series", "judged on", r->verdict_series);
	if (dgr_pr_is_json(p) || reversed_capture(r)) {
		dgr_pr_str(p, "path_from_trace", "the capture read against the trace's data path",
			   reversed_capture(r) ? r->path_from_trace : "");
	}
	dgr_pr_ns(p, "high_threshold_ns", "high latency threshold", r->verdict.high_threshold_ns);
	dgr_pr_u64(p, "high_doorbells", "doorbells above it", r->verdict.high_count);
	dgr_pr_u64(p, "high_episodes", "high-latency episodes", r->verdict.episodes);
	dgr_pr_u64(p, "longest_episode", "longest episode, doorbells", r->verdict.longest_episode);
	print_verdict_details(p, r);
	if (r->vicious) {
		print_vicious(p, r->vicious);
	}
	n = report_actions(r, actions, REPORT_MAX_ACTIONS);
	dgr_pr_arr_begin(p, "mitigations", "mitigations the tuning guide recommends:");
	for (i = 0; i < n; i++) {
		arr_item(p, actions[i]);
	}
	dgr_pr_arr_end(p);
	dgr_pr_obj_end(p);
	return 0;
}
