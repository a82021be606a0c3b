// SPDX-License-Identifier: GPL-2.0-or-later
/* On-the-wire analysis: connections, reassembly, doorbell matching (see wire_analysis.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "populate.h"
#include "wire_analysis.h"

const char *wa_dir_name(enum wa_dir d)
{
	return d == WA_TX ? "tx" : "rx";
}

int wa_init(struct wire_analysis *w, const struct wa_opts *o, char *errbuf)
{
	memset(w, 0, sizeof(*w));
	w->o = *o;
	if (!w->o.reasm_max) {
		w->o.reasm_max = ENG_REASM_MAX;
	}
	w->conns = calloc(ENG_MAX_CONNS, sizeof(*w->conns));
	if (!w->conns || eng_conns_init(&w->table) < 0) {
		free(w->conns);
		w->conns = NULL;
		if (errbuf) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "out of memory for the connection table");
		}
		return -DGR_E_NOMEM;
	}
	w->ack_trap_lockup_conn = -1;
	series_init(&w->lat[WA_RX]);
	series_init(&w->lat[WA_TX]);
	series_init(&w->lat_txn[WA_RX]);
	series_init(&w->lat_txn[WA_TX]);
	return 0;
}

bool wa_opts_udp_port_ours(const struct wa_opts *o, uint16_t port)
{
	struct fd_ports ports = { o->udp_ports, o->n_udp_ports };

	return fd_port_ours(&ports, port);
}

int wa_opts_add_udp_port(struct wa_opts *o, uint16_t port)
{
	if (wa_opts_udp_port_ours(o, port)) {
		return 0;
	}
	if (o->n_udp_ports == WA_MAX_UDP_PORTS - 1) {
		return -DGR_E_NOSPACE;
	}
	o->udp_ports[o->n_udp_ports++] = port;
	return 0;
}

struct fd_ports wa_udp_ports(const struct wire_analysis *w)
{
	struct fd_ports ports = { w->o.udp_ports, w->o.n_udp_ports };

	return ports;
}

void wa_free(struct wire_analysis *w)
{
	unsigned int i, k;

	if (w->conns) {
		for (i = 0; i < w->table.n; i++) {
			for (k = 0; k < 2; k++) {
				eng_reasm_free(&w->conns[i].s[k].reasm);
				free(w->conns[i].s[k].matcher);
				eng_seq_free(w->conns[i].seq[k]);
			}
		}
		free(w->conns);
	}
	eng_conns_free(&w->table);
	free(w->decoded);
	w->decoded = NULL;
	ip_defrag_free(&w->ip_defrag);
	series_free(&w->lat[WA_RX]);
	series_free(&w->lat[WA_TX]);
	series_free(&w->lat_txn[WA_RX]);
	series_free(&w->lat_txn[WA_TX]);
	w->conns = NULL;
}

bool wa_times_suspect(const struct wire_analysis *w)
{
	return w->ts_backwards > 0 || w->ts_impossible > 0;
}

static void note_time(struct wire_analysis *w, uint64_t ts)
{
	if (w->frames == 0 || ts < w->first_ts) {
		w->first_ts = ts;
	}
	if (ts > w->last_ts) {
		w->last_ts = ts;
	}
	w->frames++;
}

static bool addr_in(const struct eng_addr *set, unsigned int n, const struct eng_addr *a)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!memcmp(&set[i], a, sizeof(*a))) {
			return true;
		}
	}
	return false;
}

/*
 * The connection of a DG-RDMA frame (fd's addresses, h's endpoint ids; the
 * engine's table); sets *from to the side index of its sender. Returns NULL
 * when the table is full.
 */
static struct wa_conn *conn_get(struct wire_analysis *w, const struct frame_decoded *fd,
				const struct dgr_frame_hdr *h, int *from, unsigned int *index)
{
	int i = eng_conn_find_at(&w->table, &fd->src, h->src_id, &fd->dst, h->dst_id,
				 h->flags == DGR_FRAME_FLAG_MSGS, from);

	if (i < 0) {
		return NULL;
	}
	/* an entry is set up when its connection appears: the table's untouched pages cost
	 * nothing (a first write to a page costs about 10 us on this project's VMs) */
	while (w->conns_ready <= (unsigned int)i) {
		w->conns[w->conns_ready++].host_side = -1; /* decided at its first data */
	}
	*index = (unsigned int)i;
	return &w->conns[i];
}

/* Decides which side of connection ci is the host (not decided yet); data_side sends data. */
static void decide_host_first(struct wire_analysis *w, unsigned int ci, int data_side)
{
	struct wa_conn *c = &w->conns[ci];
	const struct eng_conn *ec = &w->table.conn[ci];
	int k;

	for (k = 0; k < 2; k++) {
		unsigned int i;

		for (i = 0; i < w->o.n_hosts; i++) {
			if (w->o.hosts[i].kind == ec->side[k].addr.kind &&
			    !memcmp(w->o.hosts[i].b, ec->side[k].addr.b, w->o.host_len[i])) {
				c->host_side = k;
				c->host_rule = WA_HOST_BY_ADDRESS;
				return;
			}
		}
	}
	for (k = 0; k < 2; k++) {
		if (addr_in(w->dcp_hosts, w->n_dcp_hosts, &ec->side[k].addr)) {
			c->host_side = k;
			c->host_rule = WA_HOST_BY_DCP;
			return;
		}
	}
	/* the data path: on RX the side sending data is the FPGA, on TX the host */
	c->host_side = w->o.undecided_path == WA_TX ? data_side : 1 - data_side;
	c->host_rule = WA_HOST_BY_PATH;
}

/* Decides which side of connection ci is the host, once; data_side is the side sending data. */
static inline void decide_host(struct wire_analysis *w, unsigned int ci, int data_side)
{
	if (w->conns[ci].host_side < 0) {
		decide_host_first(w, ci, data_side);
	}
}

static enum wa_dir dir_of(const struct wa_conn *c, int data_side)
{
	return c->host_side == data_side ? WA_TX : WA_RX;
}

/* An incomplete transaction at the end of a capture whose end was cut (wa_opts.end_cut). */
static void cut_at_end_cb(const struct dgr_txn_info *txn, void *ctx)
{
	struct wa_side_state *s = ctx;

	/* newer than the last completed one: its later fragments came after the end */
	if (!s->done_seen || (int32_t)(txn->txn_id - s->last_done_txn) > 0) {
		s->st.cut_at_end++;
	}
}

/* A transaction the feed gave up (capture loss): an incomplete one. */
static void expired_cb(const struct dgr_txn_info *txn, void *ctx)
{
	struct wa_side_state *s = ctx;

	if (s->begun && txn->txn_id == s->begun_txn) {
		/* its start lies before the capture (wa_opts.start_cut) */
		s->begun = false;
		s->st.begun_before++;
		return;
	}
	s->st.incomplete++;
}

/* The state of the data data_side sends, set up at its first use; NULL when memory ran out. */
static struct wa_side_state *side_state_new(struct wire_analysis *w, struct wa_conn *c,
					    int data_side)
{
	struct wa_side_state *s = &c->s[data_side];

	if (!s->matcher) {
		s->matcher = malloc(sizeof(*s->matcher));
		if (!s->matcher) {
			return NULL;
		}
		eng_populate(s->matcher, sizeof(*s->matcher)); /* dm_init() writes it whole */
		dm_init(s->matcher);
	}
	if (!s->reasm.reasm && eng_reasm_init(&s->reasm, w->o.reasm_max, w->o.reasm_timeout_ns,
					      expired_cb, s, NULL) < 0) {
		return NULL;
	}
	return s;
}

static inline struct wa_side_state *side_state(struct wire_analysis *w, struct wa_conn *c,
					       int data_side)
{
	struct wa_side_state *s = &c->s[data_side];

	return s->matcher && s->reasm.reasm ? s : side_state_new(w, c, data_side);
}

static void count_malformed(struct wire_analysis *w, int err)
{
	int e = err < 0 ? -err : err;

	w->malformed_frames++;
	if (e > 0 && e < DGR_E__COUNT) {
		w->malformed_by_reason[e]++;
	}
}

static void note_hint_port(struct wire_analysis *w, uint16_t port)
{
	unsigned int i;

	for (i = 0; i < w->n_port_hints; i++) {
		if (w->port_hints[i].port == port) {
			w->port_hints[i].datagrams++;
			return;
		}
	}
	if (w->n_port_hints < WA_MAX_PORT_HINTS) {
		w->port_hints[w->n_port_hints].port = port;
		w->port_hints[w->n_port_hints].datagrams = 1;
		w->n_port_hints++;
	}
}

/*
 * A UDP datagram between ports sport and dport, neither of them the
 * analysis's, whose payload decodes as DG-RDMA or DCP (udp_looks_ours()):
 * both ports become candidates for --udp-port, the first WA_MAX_PORT_HINTS of
 * them counted.
 */
static void note_other_port(struct wire_analysis *w, uint16_t sport, uint16_t dport)
{
	w->other_port_datagrams++;
	note_hint_port(w, sport);
	if (dport != sport) {
		note_hint_port(w, dport);
	}
}

/*
 * True when a UDP payload of len bytes, all captured at buf, is what the
 * stack would take on its port: pad 0 and a DG-RDMA frame with messages that
 * eng_frame_check() accepts, or pad 0xF040 and a DCP packet that decodes.
 * ACK-only frames do not count (twelve bytes with two zeros say too little).
 */
static bool udp_looks_ours(const uint8_t *buf, size_t len)
{
	const uint8_t *body;
	size_t body_len;
	struct dgr_frame f;
	struct dcp_packet d;

	switch (dgr_udp_demux(buf, len, &body, &body_len)) {
	case DGR_UDP_DGRDMA:
		return dgr_frame_parse(&f, body, body_len, NULL) == 0 &&
		       f.hdr.flags == DGR_FRAME_FLAG_MSGS && f.next_off != 0 &&
		       eng_frame_check(&f, body_len, 0) == 0;
	case DGR_UDP_DCP:
		return dcp_decode(body, body_len, &d, NULL) == 0;
	default:
		return false;
	}
}

static void on_bell_result(struct wire_analysis *w, unsigned int ci, enum wa_dir d,
			   const struct dm_result *r, uint64_t ts)
{
	struct wa_bell_event ev;

	if (r->kind == DM_NONE) {
		return;
	}
	if (r->kind == DM_MATCHED) {
		series_add(&w->lat[d], r->txn_ts, r->latency);
		series_add(&w->lat_txn[d], r->txn_ts, r->txn_id);
	}
	if (!w->o.on_bell) {
		return;
	}
	ev.dir = d;
	ev.conn = ci;
	ev.kind = r->kind;
	ev.buffer = r->buffer;
	ev.ts = ts;
	ev.txn_ts = r->txn_ts;
	ev.latency = r->latency;
	/* a doorbell's result comes while its own frame is fed */
	ev.frame_len = r->kind == DM_MATCHED || r->kind == DM_ORPHAN ? w->frame_len : 0;
	w->o.on_bell(w->o.ctx, &ev);
}

static void feed_doorbell(struct wire_analysis *w, struct wa_conn *c, unsigned int ci,
			  int bell_side, uint32_t flag_addr, uint64_t ts)
{
	int data_side = 1 - bell_side;
	struct wa_side_state *s;
	struct dm_result r;

	decide_host(w, ci, data_side);
	s = side_state(w, c, data_side);
	if (!s) {
		w->reasm_overflow++;
		return;
	}
	dm_feed_doorbell(s->matcher, flag_addr, ts, &r);
	on_bell_result(w, ci, dir_of(c, data_side), &r, ts);
}

static void feed_data_msg(struct wire_analysis *w, struct wa_conn *c, unsigned int ci, int side,
			  const struct dgr_msg *m, uint64_t ts, uint64_t ref)
{
	struct wa_side_state *s;
	struct eng_data_result res;
	struct dgr_flag_word fw;

	decide_host(w, ci, side);
	s = side_state(w, c, side);
	if (!s) {
		w->reasm_overflow++;
		return;
	}
	if (!s->data_seen) {
		/* the first message of a capture whose start was dropped may be a later fragment */
		s->data_seen = true;
		s->begun = w->o.start_cut && m->num_msgs_in_txn > 1 && m->msg_seq > 1;
		s->begun_txn = m->txn_id;
	}
	eng_feed_data(&s->reasm, s->matcher, m, ts, ref, &res);
	switch (res.kind) {
	case ENG_DATA_NO_ROOM:
		w->reasm_overflow++;
		return;
	case ENG_DATA_REFUSED:
		count_malformed(w, res.err);
		return;
	case ENG_DATA_DUPLICATE:
		/* seen before, or after its transaction completed: a repeated fragment */
		w->duplicate_msgs++;
		return;
	case ENG_DATA_AFTER_GIVEN_UP:
		/* as the plugin does: it neither restarts the transaction nor counts it again */
		w->msgs_after_given_up++;
		return;
	case ENG_DATA_PARTIAL:
		if (res.bell.kind != DM_NONE) { /* most fragments give nothing up */
			on_bell_result(w, ci, dir_of(c, side), &res.bell, ts);
		}
		return;
	case ENG_DATA_COMPLETE:
		break;
	}
	s->done_seen = true;
	s->last_done_txn = res.done.txn_id;
	s->st.data_bytes += res.done.bytes;
	if (res.done.bytes > s->st.max_txn_bytes) {
		s->st.max_txn_bytes = res.done.bytes;
	}
	if (s->st.first_ts == 0 || ts < s->st.first_ts) {
		s->st.first_ts = ts;
	}
	s->st.last_ts = ts;
	if (res.done.flag_addr == DGR_NO_FLAG) {
		s->st.writes_without_flag++;
		return;
	}
	dgr_flag_decode(res.done.flag_value, &fw);
	if (fw.valid && fw.opcode == DGR_OPCODE_DISCONTINUITY) {
		s->st.discontinuities++;
	}
	if (w->o.on_txn) {
		struct wa_txn_event ev = {
			.dir = dir_of(c, side),
			.conn = ci,
			.ts = ts,
			.bytes = res.done.bytes,
			.opcode = fw.opcode,
		};

		w->o.on_txn(w->o.ctx, &ev);
	}
	on_bell_result(w, ci, dir_of(c, side), &res.bell, ts);
}

/* An ACK-only frame side sent: the host's to the FPGA may be misread (wa_ack_trap). */
static void trap_ack_only(struct wa_conn *c, int side, bool udp, size_t len, uint64_t ref)
{
	enum eng_ack_trap t;

	if (c->host_side != side) {
		return; /* not the host's, or the host is not known yet */
	}
	t = eng_ack_only_trap(udp, len);
	if (t == ENG_ACK_TRAP_NONE) {
		return;
	}
	if (!c->trap.padded && !c->trap.truncated) {
		c->trap.first_ref = ref;
	}
	if (t == ENG_ACK_TRAP_PADDING) {
		c->trap.padded++;
	} else {
		c->trap.truncated++;
	}
}

/* The header of a frame with messages, for the lock-up at the wrap (wa_ack_trap). */
static void trap_frame(struct wa_conn *c, int side, const struct dgr_frame_hdr *h, uint64_t ref)
{
	struct wa_ack_trap *t = &c->trap;

	if (c->host_side < 0) {
		return;
	}
	bool covers0 =
	    side != c->host_side && h->ack_count && (uint16_t)(0u - h->ack_start) < h->ack_count;

	/* An ACK of the FPGA's covering frame_seq 0 near the wrap: when the padding's frame 0
	 * was taken, it can come before the host has even sent its own frame 0. One from the
	 * last wrap is forgotten once the host's frames are half way round. */
	if (side == c->host_side && h->frame_seq >= 0x4000 && h->frame_seq < 0xC000) {
		t->ack0_ref = 0;
	}
	if (covers0 && !t->ack0_ref) {
		t->ack0_ref = ref;
	}
	/* the newest wrap counts: a frame 0 lost without a doorbell in it costs nothing, and
	 * the stream goes on to the next wrap, whose frame 0 may then lock it */
	if (side == c->host_side && h->frame_seq == 0 && h->flags == DGR_FRAME_FLAG_MSGS &&
	    t->padded) {
		t->frame0 = true;
		t->frame0_ref = ref;
		t->frame0_doorbells = 0;
		t->frame0_acked = t->ack0_ref != 0;
		t->acked_ref = t->ack0_ref;
		t->data_after = 0;
		t->doorbells_after = 0;
		t->doorbells_after_data = 0;
		t->eof_after = false;
	}
	if (covers0 && t->frame0 && !t->frame0_acked) {
		t->frame0_acked = true;
		t->acked_ref = ref;
	}
}

/* One message after the host's frame 0, for the lock-up at the wrap (wa_ack_trap). */
static void trap_msg(struct wa_conn *c, int side, const struct dgr_msg *m, bool doorbell,
		     uint64_t ref)
{
	struct wa_ack_trap *t = &c->trap;

	if (!t->frame0) {
		return;
	}
	if (side == c->host_side) {
		if (doorbell) {
			t->frame0_doorbells += ref == t->frame0_ref;
			t->doorbells_after++;
			t->doorbells_after_data++;
		}
		return;
	}
	if (!doorbell && (m->num_msgs_in_txn < 2 || m->msg_seq == m->num_msgs_in_txn)) {
		t->data_after++;
		t->doorbells_after_data = 0;
		if (m->flag_addr != DGR_NO_FLAG && (m->flag_value & DGR_FLAGW_EOF)) {
			t->eof_after = true;
		}
	}
}

/*
 * Sequence analysis of the frames side sends (counted in wa_finish()).
 * Returns true when the frame repeats a frame_seq seen recently: a receiver's
 * duplicate filter drops such a frame whole, so it is not analysed further.
 */
static bool feed_seq(struct wa_conn *c, int side, uint16_t frame_seq, uint64_t ref)
{
	struct eng_seq_result r;

	if (!c->seq[side]) {
		/* the counts and the duplicate rule need no refs: the small tracker */
		c->seq[side] = eng_seq_new(false);
		if (!c->seq[side]) {
			return false;
		}
	}
	eng_seq_feed(c->seq[side], frame_seq, ref, &r);
	eng_snap_cut_frame(&c->snap[side], r.status == ENG_SEQ_NEXT);
	return r.status == ENG_SEQ_DUPLICATE;
}

/* What the cut bytes of side's last frame held before m, its next frame's first message. */
static void feed_snap_cut(struct wire_analysis *w, struct wa_conn *c, unsigned int ci, int side,
			  const struct dgr_msg *m)
{
	struct eng_snap_found f;

	if (!eng_snap_cut_first(&c->snap[side], m, &f)) {
		return;
	}
	w->snap_hidden_txns += f.hidden_txns;
	if (f.fragment1) {
		/* a message of the frame on the wire, as the whole capture counts it */
		w->snap_fragments++;
		w->msgs++;
		feed_data_msg(w, c, ci, side, &f.msg, f.ts, f.ref);
	}
}

/*
 * Room for the messages of a frame of captured bytes (dgr_frame_max_msgs()).
 * Returns false when memory ran out.
 */
static bool msgs_room(struct wire_analysis *w, size_t captured)
{
	unsigned int need = dgr_frame_max_msgs(captured);
	struct dgr_decoded_msg *m;

	if (need <= w->decoded_max) {
		return true;
	}
	m = realloc(w->decoded, need * sizeof(*m));
	if (!m) {
		return false;
	}
	w->decoded = m;
	w->decoded_max = need;
	return true;
}

/* A DG-RDMA frame (f->payload: after the UDP pad over UDP). */
static void feed_dgrdma(struct wire_analysis *w, const struct frame_decoded *fd)
{
	const uint8_t *frame = fd->payload.p;
	size_t flen = fd->payload.len, fcap = fd->payload.cap;
	uint64_t ts = fd->ts, ref = fd->ref;
	struct dgr_decoded_frame d;
	struct dgr_frame_hdr h;
	struct wa_conn *c;
	unsigned int ci = 0, i;
	int side;
	size_t cut_at = 0;

	if (fcap < DGR_FRAME_HDR_LEN) {
		if (flen < DGR_FRAME_HDR_LEN) {
			count_malformed(w, DGR_E_TRUNC_FRAME_HDR);
		} else {
			w->truncated_frames++;
		}
		return;
	}
	if (fcap < flen) {
		/*
		 * Cut by the snap length: the codec decodes the captured bytes and
		 * stops at the first message header beyond them. A frame longer
		 * than any DG-RDMA frame keeps its start.
		 */
		w->truncated_frames++;
		if (flen > WA_FRAME_MAX) {
			flen = WA_FRAME_MAX;
		}
		if (fcap > flen) {
			fcap = flen;
		}
	}
	w->dgrdma_frames++;
	/*
	 * Every frame with a header takes a frame_seq, ACK-only frames and frames
	 * a receiver rejects included: the sender numbered them all.
	 */
	dgr_frame_hdr_read(frame, &h);
	c = conn_get(w, fd, &h, &side, &ci);
	if (c && feed_seq(c, side, h.frame_seq, ref)) {
		return;
	}
	if (h.flags > DGR_FRAME_FLAG_MSGS) {
		count_malformed(w, DGR_E_FRAME_FLAGS);
		return;
	}
	if (c) {
		trap_frame(c, side, &h, ref);
	}
	if (h.flags == DGR_FRAME_FLAG_ACK_ONLY) {
		w->ack_only_frames++;
		if (c) {
			trap_ack_only(c, side, fd->udp, fd->payload.len, ref);
		}
		return;
	}
	if (!c) {
		return;
	}
	if (!msgs_room(w, fcap)) {
		w->reasm_overflow++;
		return;
	}
	/*
	 * Every message once, with the refusal a receiver drops it with; a
	 * receiver drops a frame with one bad message whole: nothing of it is
	 * analysed (the 32-bit address space when the memory size is unknown:
	 * eng_msg_check()).
	 */
	dgr_frame_decode(&d, frame, flen, fcap, ENG_ADDR_SPACE, w->decoded, w->decoded_max);
	if (d.refusal < 0) {
		count_malformed(w, d.refusal);
		return;
	}
	if (d.end == DGR_DECODE_END_SNAP_CUT) {
		/* this header and the rest lie beyond the captured bytes */
		w->snap_cut_frames++;
		cut_at = d.end_off;
	}
	for (i = 0; i < d.nmsgs; i++) {
		const struct dgr_msg *m = &d.msgs[i].m;

		if (i == 0 && c->snap[side].pending) {
			feed_snap_cut(w, c, ci, side, m);
		}
		w->msgs++;
		if (eng_is_doorbell(m)) {
			feed_doorbell(w, c, ci, side, m->flag_addr, ts);
			if (c->trap.frame0) {
				trap_msg(c, side, m, true, ref);
			}
			continue;
		}
		feed_data_msg(w, c, ci, side, m, ts, ref);
		if (c->trap.frame0) { /* only after a frame 0 that may lock the FPGA up */
			trap_msg(c, side, m, false, ref);
		}
	}
	if (cut_at || c->snap[side].pending) {
		/* else it stays not pending: nothing of this frame was cut */
		eng_snap_cut_end(&c->snap[side], d.nmsgs ? &d.msgs[d.nmsgs - 1].m : NULL, cut_at,
				 flen, ts, ref);
	}
	if (cut_at && d.nmsgs && eng_is_doorbell(&d.msgs[d.nmsgs - 1].m)) {
		w->snap_cut_doorbell_frames++;
	}
}

/* A DCP packet (f->payload: after the UDP pad over UDP). */
static void feed_dcp(struct wire_analysis *w, const struct frame_decoded *f)
{
	const struct eng_addr *src = &f->src, *dst = &f->dst;
	const uint8_t *buf = f->payload.p;
	size_t cap = f->payload.cap, len = f->payload.len;
	uint64_t ts = f->ts;
	struct dcp_packet p;
	int rc;

	w->dcp.frames++;
	if (cap < len && cap < DCP_LEN_WRITE) {
		w->truncated_frames++;
		return;
	}
	rc = dcp_decode(buf, cap < len ? cap : len, &p, NULL);
	if (rc < 0) {
		count_malformed(w, rc);
		return;
	}
	switch (p.kind) {
	case DCP_KIND_NOP:
		w->dcp.nop++;
		break;
	case DCP_KIND_WRITE:
		w->dcp.write++;
		break;
	case DCP_KIND_READ:
		w->dcp.read++;
		break;
	case DCP_KIND_WRITE_RESP:
		w->dcp.write_resp++;
		break;
	case DCP_KIND_READ_RESP:
		w->dcp.read_resp++;
		break;
	case DCP_KIND_NOP_RESP:
		w->dcp.nop_resp++;
		break;
	}
	if (dcp_is_response(p.kind)) {
		w->dcp.resp_by_code[p.low & DCP_LOW_MASK]++;
		return;
	}
	/* the host is the DCP master: its requests name it (unless the address is unknown) */
	if (src->kind != ENG_ADDR_UNKNOWN && !addr_in(w->dcp_hosts, w->n_dcp_hosts, src) &&
	    w->n_dcp_hosts < WA_MAX_HOSTS) {
		w->dcp_hosts[w->n_dcp_hosts++] = *src;
	}
	if (p.kind == DCP_KIND_WRITE && w->o.dcp_doorbells && p.addr >= w->o.dcp_bell_lo &&
	    p.addr <= w->o.dcp_bell_hi) {
		/* one doorbell property: the data names the buffer; a range: the address does */
		uint32_t identity = w->o.dcp_bell_lo == w->o.dcp_bell_hi ? p.data : p.addr;
		int ci, data_side;

		w->dcp.doorbells++;
		ci = eng_conn_for_dcp(&w->table, src, dst, &data_side);
		if (ci < 0) {
			w->dcp.doorbells_without_conn++;
			return;
		}
		feed_doorbell(w, &w->conns[ci], (unsigned int)ci, 1 - data_side, identity, ts);
	}
}

void wa_feed_frame(struct wire_analysis *w, const struct frame_decoded *f)
{
	w->frame_len = f->frame_len;
	note_time(w, f->ts);
	switch (f->kind) {
	case FD_DGRDMA:
		feed_dgrdma(w, f);
		break;
	case FD_DCP:
		feed_dcp(w, f);
		break;
	case FD_IP_FRAGMENT:
		break; /* kept until its datagram is whole: the frame counts, nothing more */
	case FD_MALFORMED:
		count_malformed(w, f->reason);
		break;
	case FD_FOREIGN_UDP:
		/* the stack takes any port: say which ones carry what looks like ours */
		if (f->foreign_whole && udp_looks_ours(f->payload.p, f->payload.len)) {
			note_other_port(w, f->sport, f->dport);
		}
		w->other_frames++;
		break;
	case FD_OTHER:
		w->other_frames++;
		break;
	}
}

static void add_stats(struct wa_dir_stats *a, const struct wa_dir_stats *b)
{
	a->transactions += b->transactions;
	a->doorbells += b->doorbells;
	a->matched += b->matched;
	a->unmatched += b->unmatched;
	a->orphans += b->orphans;
	a->discontinuities += b->discontinuities;
	a->incomplete += b->incomplete;
	a->begun_before += b->begun_before;
	a->cut_at_end += b->cut_at_end;
	a->pending_at_end += b->pending_at_end;
	a->data_bytes += b->data_bytes;
	a->writes_without_flag += b->writes_without_flag;
	a->order_violations += b->order_violations;
	a->ordinal_mismatch += b->ordinal_mismatch;
	a->addr_overflow += b->addr_overflow;
	if (b->max_txn_bytes > a->max_txn_bytes) {
		a->max_txn_bytes = b->max_txn_bytes;
	}
	if (b->buffers > a->buffers) {
		a->buffers = b->buffers;
	}
	if (b->first_ts && (!a->first_ts || b->first_ts < a->first_ts)) {
		a->first_ts = b->first_ts;
	}
	if (b->last_ts > a->last_ts) {
		a->last_ts = b->last_ts;
	}
}

/*
 * Whether connection ci shows the lock-up at the wrap: after the host's frame 0
 * with doorbells, the FPGA sent no more data transactions than it had credits
 * for (the host's buffers: it had no more), the stream did not end (no EOF),
 * and the host's last doorbells were followed by no data.
 */
static void finish_trap(struct wire_analysis *w, unsigned int ci)
{
	struct wa_conn *c = &w->conns[ci];
	struct wa_ack_trap *t = &c->trap;
	const struct wa_side_state *fpga;

	if (!t->padded && !t->truncated) {
		return;
	}
	if (!w->ack_trap_padded && !w->ack_trap_truncated) {
		w->ack_trap_first_ref = t->first_ref;
	}
	w->ack_trap_padded += t->padded;
	w->ack_trap_truncated += t->truncated;
	if (!t->frame0 || c->host_side < 0) {
		return;
	}
	fpga = &c->s[1 - c->host_side];
	t->lockup = t->frame0_doorbells > 0 && !t->eof_after && t->doorbells_after_data > 0 &&
		    fpga->matcher && t->data_after <= dm_buffers(fpga->matcher);
	if (t->lockup && w->ack_trap_lockup_conn < 0) {
		w->ack_trap_lockup_conn = (int)ci;
	}
}

void wa_finish(struct wire_analysis *w)
{
	unsigned int i;
	int k;

	if (w->finished) {
		return;
	}
	w->finished = true;
	ip_defrag_finish(&w->ip_defrag);
	for (i = 0; i < w->table.n; i++) {
		struct wa_conn *c = &w->conns[i];

		for (k = 0; k < 2; k++) {
			struct wa_side_state *s = &c->s[k];
			const struct dm_counts *mc;

			if (c->seq[k]) {
				w->seq.frames += c->seq[k]->c.frames;
				w->seq.gaps += c->seq[k]->c.gaps;
				w->seq.missing += c->seq[k]->c.missing;
				w->seq.duplicates += c->seq[k]->c.duplicates;
				w->seq.late += c->seq[k]->c.late;
			}
			if (!s->matcher) {
				continue;
			}
			s->st.incomplete += dgr_reasm_outstanding(s->reasm.reasm);
			if (w->o.end_cut && s->reasm.reasm) {
				dgr_reasm_foreach_incomplete(s->reasm.reasm, cut_at_end_cb, s);
				s->st.incomplete -= s->st.cut_at_end;
			}
			if (s->begun && s->st.incomplete) {
				/* still waiting for its first fragment: it began before the capture
				 */
				s->begun = false;
				s->st.incomplete--;
				s->st.begun_before++;
			}
			mc = &s->matcher->c;
			s->st.transactions = mc->transactions;
			s->st.doorbells = mc->doorbells;
			s->st.matched = mc->matched;
			s->st.unmatched = mc->unmatched;
			s->st.orphans = mc->orphans;
			s->st.order_violations = mc->order_violations;
			s->st.ordinal_mismatch = mc->ordinal_mismatch;
			s->st.addr_overflow = mc->addr_overflow;
			s->st.pending_at_end = dm_pending_count(s->matcher);
			s->st.buffers = dm_buffers(s->matcher);
			add_stats(&w->dir[dir_of(c, k)], &s->st);
		}
		finish_trap(w, i);
	}
}
