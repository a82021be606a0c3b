// SPDX-License-Identifier: GPL-2.0-or-later
/* dgrdma-host rx and tx: one connection per --peer, watched until the stream ends. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host.h"

/* Frames with other ids before the first good one that prove an id mismatch. */
#define IDS_MISMATCH_FRAMES 8

/*
 * Says so once, within a poll (100 ms) of the 8th frame, when every frame of
 * the stream was dropped for its endpoint ids: a run that stays empty for a
 * reason the user can fix.
 */
static void warn_ids(const struct host_cfg *cfg, struct host_conn *h,
		     const struct dgr_conn_stats *s)
{
	uint16_t dst, src;

	if (h->ids_warned || s->frames_accepted > 0 ||
	    s->malformed_unknown_id < IDS_MISMATCH_FRAMES ||
	    !dgr_conn_wrong_ids(h->c, &dst, &src)) {
		return;
	}
	h->ids_warned = true;
	fprintf(stderr,
		"dgrdma-host: %s%" PRIu64 " frames dropped, none accepted: they carry dst_id %u "
		"(offset 0) and src_id %u (offset 2), this host expects dst_id %u (--id) and "
		"src_id %u (--peer-id). Run with --id %u --peer-id %u, or set the FPGA's "
		"remote_dst_id to %u and local_src_id to %u\n",
		cfg->npeers > 1 ? "peer: " : "", s->malformed_unknown_id, dst, src, h->co.id,
		h->co.peer_id, dst, src, h->co.id, h->co.peer_id);
}

/*
 * Why a stream that took frames of the peer's made no progress for
 * --idle-timeout, from the counters that show it (err: size bytes);
 * one that took none is told by heard_nothing().
 */
static void stall_reason(const struct host_conn *h, const struct dgr_conn_stats *s, char *err,
			 size_t size)
{
	uint64_t injected = dgr_conn_injected_drops(h->c);

	if (h->co.peer_window && s->frames_unacked >= h->co.peer_window) {
		snprintf(err, size,
			 "the FPGA acknowledged none of our last %" PRIu64
			 " frames: one was lost and its ACK window (%u) waits for it for "
			 "ever (it would reject any further frame); %s",
			 s->frames_unacked, h->co.peer_window,
			 h->co.retransmit_ms ? "retransmission gave up (--retransmit-attempts)"
					     : "run with --retransmit MSEC");
	} else if (s->frames_missing > 0 && injected >= s->frames_missing) {
		/* the test's own loss: no setting of the host or the network to blame */
		snprintf(err, size,
			 "no transaction completed within --idle-timeout: %" PRIu64
			 " frames from the FPGA are missing, every one dropped on arrival by this "
			 "host's --drop-frames (%" PRIu64
			 " dropped in all); their transactions stay "
			 "incomplete and the FPGA does not send them again",
			 s->frames_missing, injected);
	} else if (s->frames_missing > 0) {
		snprintf(err, size,
			 "no transaction completed within --idle-timeout: %" PRIu64
			 " frames from the FPGA never arrived (gaps in its frame_seq; socket "
			 "drops %" PRIu64 "), their transactions stay incomplete and the FPGA "
			 "does not send them again (%s)",
			 s->frames_missing, s->socket_drops,
			 s->socket_drops
			     ? "the socket's buffer overflowed: raise --rcvbuf"
			     : "lost before this host's socket: the NIC's rings (ethtool -S), "
			       "the link, or the sender");
	} else if (s->frames_out_of_window > 0) {
		snprintf(err, size,
			 "no transaction completed within --idle-timeout; %" PRIu64
			 " frames far ahead of the stream were dropped (forged or from another "
			 "connection)",
			 s->frames_out_of_window);
	} else if (s->frames_conflicting > 0 || s->writes_without_flag > 0) {
		struct dgr_seq_state q;

		dgr_conn_seq_state(h->c, &q);
		snprintf(err, size,
			 "no transaction completed within --idle-timeout, no frame is missing, "
			 "but frames that are not the FPGA's were taken (forged?): %" PRIu64
			 " frame_seqs came twice with other contents (the last %u), %" PRIu64
			 " writes without a flag (the last in frame_seq %u)",
			 s->frames_conflicting, q.conflict_seq, s->writes_without_flag,
			 q.flagless_seq);
	} else if (h->co.direction == DGR_DIR_RX && s->txns_completed == h->co.buffers &&
		   s->doorbells_sent >= s->txns_completed && s->frames_unacked == 0) {
		/*
		 * One transaction per credit and not one more, though every doorbell
		 * reached the FPGA (it acknowledged their frames): it did not take them
		 * as doorbells, which a flag area other than ours explains.
		 */
		snprintf(err, size,
			 "the FPGA sent one transaction per host buffer (%u) and stopped though it "
			 "acked all %" PRIu64 " doorbells: their flags (from 0x%x, --fpga-buffers "
			 "%u x --buffer-size) miss its flag area? --fpga-buffers must be the "
			 "FPGA's buffer count",
			 h->co.buffers, s->doorbells_sent, h->co.peer_buffers * h->co.buffer_size,
			 h->co.peer_buffers);
	} else {
		snprintf(err, size,
			 "no transaction completed within --idle-timeout and no frame is missing: "
			 "the FPGA stopped sending (%" PRIu64 " frames received, %" PRIu64
			 " malformed, %" PRIu64 " from other addresses)",
			 s->frames_rx, s->malformed_frames, s->frames_foreign);
	}
}

/*
 * An RX connection that accepted no frame of the peer's in the whole run
 * (after dgr_conn_stop()): fills sm's addresses and says in h->err where it
 * listened and what it heard instead: packets from other addresses, frames
 * of the peer's with other endpoint ids or malformed, or nothing at all.
 */
static void heard_nothing(struct host_conn *h, const struct dgr_conn_stats *s)
{
	struct dgr_transport *t = dgr_conn_transport(h->c);
	enum dgr_transport_kind kind = dgr_transport_kind_of(t);
	struct summary *sm = &h->sm;
	struct dgr_addr a;
	char local[24];
	uint16_t dst, src;
	int n;

	sm->heard_nothing = true;
	dgr_transport_local_addr(t, &a);
	dgr_addr_str(kind, &a, local, sizeof(local));
	if (kind == DGR_TRANSPORT_UDP) {
		snprintf(sm->listened_on, sizeof(sm->listened_on), "%s", local);
	} else {
		snprintf(sm->listened_on, sizeof(sm->listened_on), "%s %s", h->co.transport.ifname,
			 local);
	}
	dgr_addr_str(kind, dgr_transport_peer(t), sm->peer, sizeof(sm->peer));
	sm->last_foreign[0] = '\0';
	if (dgr_conn_last_foreign(h->c, &a)) {
		dgr_addr_str(kind, &a, sm->last_foreign, sizeof(sm->last_foreign));
	}
	n = snprintf(
	    h->err, sizeof(h->err),
	    "no DG-RDMA frame from --peer %s was accepted in the whole run (%.1f s) on %s: ",
	    sm->peer, sm->seconds, sm->listened_on);
	if (n < 0 || (size_t)n >= sizeof(h->err)) {
		sm->error = h->err;
		return;
	}
	if (s->frames_rx > 0 && dgr_conn_wrong_ids(h->c, &dst, &src)) {
		snprintf(h->err + n, sizeof(h->err) - (size_t)n,
			 "every frame (%" PRIu64 ") was dropped for its endpoint ids: dst_id %u "
			 "src_id %u, expected %u (--id) and %u (--peer-id)",
			 s->malformed_unknown_id, dst, src, h->co.id, h->co.peer_id);
	} else if (s->frames_foreign > 0) {
		snprintf(h->err + n, sizeof(h->err) - (size_t)n,
			 "heard only %" PRIu64 " packets from other addresses (the last from %s): "
			 "is --peer the FPGA's address%s?",
			 s->frames_foreign, sm->last_foreign,
			 kind == DGR_TRANSPORT_UDP ? " (and port)" : "");
	} else if (s->malformed_frames > 0) {
		snprintf(h->err + n, sizeof(h->err) - (size_t)n,
			 "heard only %" PRIu64 " malformed frames from it", s->malformed_frames);
	} else {
		/* the FPGA waits for doorbells of a first burst that was lost, or never sent */
		snprintf(h->err + n, sizeof(h->err) - (size_t)n,
			 "heard nothing at all. Is the FPGA started and sending here? One started "
			 "before this host received lost its first burst and waits for doorbells "
			 "that never come (start it once --ready-file exists)");
	}
	sm->error = h->err;
}

/*
 * Why a TX stream got no credit back for --idle-timeout, with our frames the
 * peer has not acknowledged when there are some (err: DGR_ERRBUF_SIZE bytes).
 */
static void no_credit_reason(const struct dgr_seq_state *q, char *err)
{
	int n = snprintf(err, DGR_ERRBUF_SIZE, "no credit returned within --idle-timeout");

	if (q->rtq_outstanding > 0 && n > 0 && n < DGR_ERRBUF_SIZE) {
		snprintf(err + n, (size_t)(DGR_ERRBUF_SIZE - n),
			 "; %u of our frames unacknowledged from frame_seq %u (sent again %u "
			 "times, %.1f ms ago), the peer acknowledged %s%u",
			 q->rtq_outstanding, q->rtq_oldest_seq, q->rtq_oldest_attempts,
			 (double)q->rtq_oldest_age_ns / 1e6,
			 q->peer_acked ? "every frame before " : "nothing: next ",
			 q->peer_acked ? q->peer_ack_end : q->send_oldest);
	}
}

/* Checks one running connection; returns true when it has finished (sm.status set). */
static bool conn_check(struct host_cfg *cfg, struct host_conn *h, uint64_t t)
{
	struct dgr_conn_stats s;
	uint64_t progress;
	int rc = dgr_conn_wait(h->c, 0);

	if (rc < 0) {
		h->sm.status = HOST_FAILED;
		snprintf(h->err, sizeof(h->err), "%s",
			 h->r.sink_err[0] ? h->r.sink_err : "run failed");
		h->sm.error = h->err;
		return true;
	}
	if (rc == 1) {
		return true;
	}
	if (host_interrupted) {
		h->sm.status = HOST_INTERRUPTED;
		return true;
	}
	if (cfg->duration_ns && cfg->co.direction == DGR_DIR_RX &&
	    t - h->r.start_ns >= cfg->duration_ns) {
		h->sm.status = HOST_DURATION;
		return true;
	}
	if (cfg->duration_ns && cfg->co.direction == DGR_DIR_TX &&
	    t - h->r.start_ns >= cfg->duration_ns + cfg->idle_timeout_ns) {
		h->sm.status = HOST_STALLED;
		h->sm.error = "the FPGA did not return every credit in time";
		return true;
	}
	dgr_conn_get_stats(h->c, &s);
	warn_ids(cfg, h, &s);
	progress = s.txns_completed + s.buffers_consumed + s.txns_sent + s.doorbells_received;
	if (progress != h->last_progress) {
		h->last_progress = progress;
		h->last_progress_ns = t;
	} else if (cfg->idle_timeout_ns && t - h->last_progress_ns >= cfg->idle_timeout_ns) {
		h->sm.status = HOST_STALLED;
		dgr_conn_seq_state(h->c, &h->sm.seq); /* as it stalled */
		h->seq_taken = true;
		if (cfg->co.direction != DGR_DIR_RX) {
			if (h->co.peer_window && s.frames_unacked >= h->co.peer_window) {
				stall_reason(h, &s, h->err, sizeof(h->err));
			} else {
				no_credit_reason(&h->sm.seq, h->err);
			}
			h->sm.error = h->err;
		} else if (s.frames_accepted > 0) {
			stall_reason(h, &s, h->err, sizeof(h->err));
			h->sm.error = h->err;
		}
		return true;
	}
	return false;
}

/*
 * Stops a finished connection and judges it: its exit status (DGR_EXIT_OK, DGR_EXIT_FINDING
 * for --max-drop-rate exceeded, DGR_EXIT_FAILED for a run that did not end as asked),
 * messages on stderr.
 */
/*
 * A stream that ended with retransmission on: its last frames (an RX
 * stream's last doorbells) may still wait for the peer's ACK, and stopping
 * now would stop resending them: the peer, which never skips a hole, would
 * wait for them for ever (issue 29's soak: 21 of 200 streams with frames lost
 * both ways). Waits until they are acknowledged or given up, at most as long
 * as every attempt takes.
 */
static void drain_retransmissions(struct host_conn *h)
{
	uint64_t limit =
	    (uint64_t)h->co.retransmit_ms * 1000000ull * (h->co.retransmit_attempts + 2u);
	uint64_t start = host_now_ns();
	struct dgr_seq_state q;

	for (;;) {
		dgr_conn_seq_state(h->c, &q);
		if (q.rtq_outstanding == 0 || host_now_ns() - start >= limit || host_interrupted) {
			return;
		}
		host_sleep_until(host_now_ns() + 1000000ull);
	}
}

static int conn_finish(struct host_cfg *cfg, struct host_conn *h)
{
	struct dgr_conn_stats s;
	struct summary *sm = &h->sm;
	char who[32] = "";
	int status = 0;

	if (sm->status == HOST_ENDED && h->co.retransmit_ms) {
		drain_retransmissions(h);
	}
	if (!h->seq_taken) {
		dgr_conn_seq_state(h->c, &sm->seq);
	}
	dgr_conn_stop(h->c);
	h->running = false;
	if (cfg->npeers > 1) {
		snprintf(who, sizeof(who), "peer %u: ", h->r.index);
	}
	sm->seconds = (double)(h->end_ns - h->r.start_ns) / 1e9;
	sm->incomplete = dgr_conn_foreach_incomplete(h->c, NULL, NULL);
	dgr_conn_get_stats(h->c, &s);
	if (cfg->co.direction == DGR_DIR_RX && s.frames_accepted == 0 &&
	    sm->status != HOST_FAILED) {
		/* a run that received nothing failed, whether it stalled or ran its --duration */
		if (sm->status < HOST_STALLED) {
			sm->status = HOST_STALLED;
		}
		heard_nothing(h, &s);
	}
	if (cfg->co.direction == DGR_DIR_RX) {
		uint64_t total = s.samples_received + s.samples_lost;

		sm->drop_rate = total ? (double)s.samples_lost / (double)total : 0.0;
	} else {
		sm->unanswered =
		    s.txns_sent > s.doorbells_received ? s.txns_sent - s.doorbells_received : 0;
		sm->drop_rate = s.txns_sent ? (double)sm->unanswered / (double)s.txns_sent : 0.0;
	}
	if (cfg->max_drop_rate >= 0 && sm->drop_rate > cfg->max_drop_rate) {
		status = DGR_EXIT_FINDING;
	}
	if (sm->status != HOST_ENDED && sm->status != HOST_DURATION) {
		status = DGR_EXIT_FAILED;
	}
	if (sm->incomplete + s.incomplete_timed_out > 0 && !cfg->co.retransmit_ms &&
	    sm->status != HOST_DURATION) {
		status = DGR_EXIT_FAILED;
	}
	if (sm->error) {
		fprintf(stderr, "dgrdma-host: %s%s: %s\n", who, host_status_name(sm->status),
			sm->error);
	}
	if (s.frames_conflicting > 0 || s.writes_without_flag > 0) {
		/* the evidence of frames not the peer's, and what they cost */
		fprintf(
		    stderr,
		    "dgrdma-host: %swarning: frames not the peer's were taken (forged?): %" PRIu64
		    " frame_seqs came twice with other contents (the last %u; both taken), %" PRIu64
		    " writes without a flag (the last in frame_seq %u); samples lost by the "
		    "ramp: %" PRIu64 "\n",
		    who, s.frames_conflicting, sm->seq.conflict_seq, s.writes_without_flag,
		    sm->seq.flagless_seq, s.samples_lost);
	}
	if (sm->incomplete + s.incomplete_timed_out > 0) {
		fprintf(stderr,
			"dgrdma-host: %s%u transactions still incomplete, %" PRIu64
			" timed out (frames lost; retransmission %s)\n",
			who, sm->incomplete, s.incomplete_timed_out,
			cfg->co.retransmit_ms ? "on" : "off");
	}
	return status;
}

/* See host.h. */
int host_run_stream(struct host_cfg *cfg)
{
	struct host_conn *h;
	unsigned int n = cfg->npeers;
	unsigned int i = 0;
	char err[DGR_ERRBUF_SIZE] = "";
	int status = 0;

	h = calloc(n, sizeof(*h));
	if (!h) {
		fprintf(stderr, "dgrdma-host: out of memory\n");
		return DGR_EXIT_FAILED;
	}
	for (i = 0; i < n; i++) {
		h[i].r.fd = -1;
	}
	/* a file of an earlier run must not say ready before these sockets are bound */
	if (cfg->ready_file && dgr_ready_file_clear(cfg->ready_file, err) < 0) {
		goto ready_failed;
	}
	for (i = 0; i < n; i++) {
		struct host_conn *c = &h[i];

		c->r.cfg = cfg;
		c->r.index = i;
		c->sm.status = HOST_ENDED;
		if (host_conn_options(cfg, i, &c->co, err) < 0 || host_open_files(&c->r, err) < 0) {
			goto start_failed;
		}
		c->co.on_stats = host_on_stats;
		c->co.stats_ctx = &c->r;
		if (dgr_conn_open(&c->co, &c->c, err) < 0) {
			goto start_failed;
		}
		if (dgr_conn_warning(c->c)) {
			fprintf(stderr, "dgrdma-host: warning: %s\n", dgr_conn_warning(c->c));
		}
	}
	for (i = 0; i < n; i++) {
		struct host_conn *c = &h[i];

		c->r.start_ns = host_now_ns();
		c->r.last_ns = c->r.start_ns;
		c->r.conn = c->c;
		if (dgr_conn_start(c->c, host_consume, host_produce, &c->r, err) < 0) {
			goto start_failed;
		}
		c->running = true;
		c->last_progress_ns = c->r.start_ns;
	}
	if (cfg->ready_file && dgr_ready_file_write(cfg->ready_file, err) < 0) {
		goto ready_failed;
	}
	for (;;) {
		unsigned int running = 0;
		uint64_t t;

		for (unsigned int k = 0; k < n; k++) {
			running += h[k].running;
		}
		if (running == 0) {
			break;
		}
		/* sleep on the first connection still running (any may end meanwhile) */
		for (unsigned int k = 0; k < n; k++) {
			if (h[k].running) {
				(void)dgr_conn_wait(h[k].c, 100);
				break;
			}
		}
		t = host_now_ns();
		for (unsigned int k = 0; k < n; k++) {
			if (h[k].running && conn_check(cfg, &h[k], t)) {
				h[k].end_ns = host_now_ns();
				int st = conn_finish(cfg, &h[k]);

				status = st > status ? st : status; /* a failure over a finding */
			}
		}
	}
	if (!cfg->quiet) {
		struct dgr_pr p;

		dgr_pr_begin(&p, stdout, DGR_PR_TEXT_KEYS | (cfg->json ? DGR_PR_JSON : 0));
		host_print_run(&p, cfg, h, n);
		dgr_pr_end(&p);
	}
	if (cfg->summary_json) {
		FILE *f = fopen(cfg->summary_json, "w");
		struct dgr_pr p;

		if (!f) {
			fprintf(stderr, "dgrdma-host: --summary-json %s: %s\n", cfg->summary_json,
				strerror(errno));
			status = DGR_EXIT_FAILED;
		} else {
			dgr_pr_begin(&p, f, DGR_PR_JSON);
			host_print_run(&p, cfg, h, n);
			dgr_pr_end(&p);
			if (fclose(f) != 0) {
				fprintf(stderr, "dgrdma-host: --summary-json %s: %s\n",
					cfg->summary_json, strerror(errno));
				status = DGR_EXIT_FAILED;
			}
		}
	}
	goto out;
start_failed:
	if (n > 1) {
		fprintf(stderr, "dgrdma-host: peer %u (%s): %s\n", i, cfg->peers[i], err);
	} else {
		fprintf(stderr, "dgrdma-host: %s\n", err);
	}
	status = DGR_EXIT_FAILED;
	goto out;
ready_failed:
	fprintf(stderr, "dgrdma-host: %s\n", err);
	status = DGR_EXIT_FAILED;
out:
	if (cfg->ready_file) {
		(void)dgr_ready_file_clear(cfg->ready_file, err);
	}
	for (unsigned int k = 0; k < n; k++) {
		dgr_conn_close(h[k].c);
		if (h[k].r.fd >= 0) {
			close(h[k].r.fd);
		}
		free(h[k].r.scratch);
	}
	free(h);
	return status;
}
