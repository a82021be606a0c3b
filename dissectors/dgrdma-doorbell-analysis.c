// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DG-RDMA analysis state: frame sequence tracking, transaction state and
 * doorbell matching. See dgrdma-doorbell-analysis.h and docs/dissector.md.
 *
 * Connections are the engine's (analysis/engine/conn_table.h, latency-report's
 * table); their state is file scope and only written on the first pass;
 * per-frame conclusions are stored with p_add_proto_data.
 * Fragments are grouped into transactions by the project's reassembler
 * (dgrdma/reassembly.h), one per connection and sender, freed when the
 * capture file is closed.
 */
#include <stdlib.h>

#include <epan/to_str.h>
#include <epan/proto_data.h>
#include <epan/tap.h>

#include <dgrdma/proto.h>
#include <dgrdma/reassembly.h>
#include <dgrdma/wire.h>

#include "doorbell_match.h"
#include "conn_table.h"
#include "data_feed.h"
#include "reasm_feed.h"
#include "seq_track.h"
#include "snap_cut.h"
#include "dgrdma-doorbell-analysis.h"

int dgr_an_proto = -1;

/* kept per frame for the whole capture: docs/performance/dissector.md counts its bytes */
G_STATIC_ASSERT(sizeof(void *) != 8 || sizeof(struct dgr_an_frame) == 88);
G_STATIC_ASSERT(sizeof(void *) != 8 || sizeof(struct dgr_an_msg) == 24);

#define DGR_AN_KEY_DGRDMA 0
#define DGR_AN_KEY_DCP	  1
#define DGR_AN_KEY_TAIL	  2 /* packet scope: struct dgr_an_tail */

guint dgr_an_reasm_timeout_ms = 1000;

/*
 * Frames sent by one endpoint of a connection. The sequence tracker, the
 * reassembler and the doorbell matcher are the analysis engine's
 * (analysis/engine/seq_track.c, stack/src/reassembly.c,
 * analysis/engine/doorbell_match.c), the ones latency-report runs; their refs are
 * pointers to this file's per-frame and per-transaction records.
 */
struct dgr_an_dir {
	struct eng_seq *seq;	  /* frame_seq of its frames; NULL until one */
	wmem_map_t *txns;	  /* txn_id -> struct dgr_an_txn it sent */
	struct dm_matcher *dm;	  /* its data transactions, the peer's doorbells */
	struct eng_reasm *reasm;  /* its fragments -> transactions; NULL until data */
	struct eng_snap_cut snap; /* its last frame, if the snap length cut it */
};

/* A connection of the engine's table (analysis/engine/conn_table.h): its two sides. */
struct dgr_an_conn {
	struct dgr_an_dir dir[2]; /* by the table's side index */
	const char *label[2];	  /* data sent by side d: "d -> peer" */
};

/* See dgrdma-doorbell-analysis.h. */
gboolean dgr_an_receiver_is_fpga(const struct dgr_an_conn *conn, const struct dgr_an_frame *fr,
				 gboolean host_sends_data)
{
	const struct dgr_an_dir *sender = &conn->dir[fr->dir];
	const struct dgr_an_dir *receiver = &conn->dir[1 - fr->dir];

	if (host_sends_data) {
		return sender->reasm != NULL && receiver->reasm == NULL;
	}
	return receiver->reasm != NULL && sender->reasm == NULL;
}

static void dgr_an_dir_init(struct dgr_an_dir *d)
{
	memset(d, 0, sizeof(*d));
	d->txns = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
}

/* Frees engine state (malloc'd, not wmem) when the capture file is closed. */
static gboolean dgr_an_free_cb(wmem_allocator_t *allocator, wmem_cb_event_t event, void *user_data)
{
	(void)allocator;
	(void)event;
	free(user_data);
	return FALSE; /* once: the next file gets new state */
}

/* The doorbell matcher of the data d sends, made on first use; NULL when out of memory. */
static struct dm_matcher *dgr_an_matcher(struct dgr_an_dir *d)
{
	if (!d->dm) {
		d->dm = (struct dm_matcher *)malloc(sizeof(*d->dm));
		if (!d->dm) {
			return NULL;
		}
		dm_init(d->dm);
		wmem_register_callback(wmem_file_scope(), dgr_an_free_cb, d->dm);
	}
	return d->dm;
}

static guint64 dgr_an_ns(const nstime_t *t)
{
	return (guint64)t->secs * G_GUINT64_CONSTANT(1000000000) + (guint64)t->nsecs;
}

/* "ADDRESS[:PORT] id N" ([IPv6]:PORT), or "id N" when addr is NULL (a cooked capture's). */
static const char *dgr_an_endpoint(packet_info *pinfo, const address *addr, guint32 port,
				   guint16 id)
{
	if (!addr) {
		return wmem_strdup_printf(wmem_file_scope(), "id %u", id);
	}
	if (pinfo->ptype == PT_UDP || pinfo->ptype == PT_TCP) {
		return wmem_strdup_printf(wmem_file_scope(),
					  addr->type == AT_IPv6 ? "[%s]:%u id %u" : "%s:%u id %u",
					  address_to_str(pinfo->pool, addr), port, id);
	}
	return wmem_strdup_printf(wmem_file_scope(), "%s id %u", address_to_str(pinfo->pool, addr),
				  id);
}

/*
 * The analysis of the open capture file, in wmem file scope, made at its
 * first DG-RDMA frame: the engine's connection table (its own memory, freed
 * with the file's scope) and this file's record of each connection. Only the
 * handle to it is static: epan has no per-file slot for a protocol.
 */
struct dgr_an_state {
	struct eng_conns table;
	struct dgr_an_conn *conn[ENG_MAX_CONNS];
};

static struct dgr_an_state *dgr_an_state;

static gboolean dgr_an_state_free(wmem_allocator_t *allocator, wmem_cb_event_t event,
				  void *user_data)
{
	(void)allocator;
	(void)event;
	(void)user_data;
	/* callbacks run before the scope's memory is freed */
	eng_conns_free(&dgr_an_state->table);
	dgr_an_state = NULL;
	return FALSE; /* once: made again at the next file's first frame */
}

/* The open file's analysis state, made on first use; NULL when out of memory. */
static struct dgr_an_state *dgr_an_state_get(void)
{
	struct dgr_an_state *st;

	if (!dgr_an_state) {
		st = wmem_new0(wmem_file_scope(), struct dgr_an_state);
		if (eng_conns_init(&st->table) < 0) {
			wmem_free(wmem_file_scope(), st);
			return NULL;
		}
		dgr_an_state = st;
		wmem_register_callback(wmem_file_scope(), dgr_an_state_free, NULL);
	}
	return dgr_an_state;
}

/*
 * A cooked capture (Linux "any", DLT_LINUX_SLL/SLL2) names only a frame's
 * sender, so raw-Ethernet DG-RDMA has no address pair: as in latency-report,
 * both addresses are unknown and an endpoint is its id alone.
 */
static gboolean dgr_an_is_cooked(const packet_info *pinfo)
{
	return pinfo->dst.type == AT_NONE;
}

/* The engine's address of one end of the frame: MAC, or IP address and UDP port. */
static void dgr_an_addr(const packet_info *pinfo, const address *a, guint32 port,
			struct eng_addr *out)
{
	memset(out, 0, sizeof(*out));
	if (dgr_an_is_cooked(pinfo)) {
		return;
	}
	switch (a->type) {
	case AT_ETHER:
		eng_addr_mac(out, (const guint8 *)a->data);
		break;
	case AT_IPv4:
		eng_addr_ipv4(out, (const guint8 *)a->data, (guint16)port);
		break;
	case AT_IPv6:
		eng_addr_ipv6(out, (const guint8 *)a->data, (guint16)port);
		break;
	default:
		break;
	}
}

/*
 * Returns the frame's analysis record, creating it and its connection on the
 * first pass. *conn is set on the first pass only (NULL later).
 */
struct dgr_an_frame *dgr_an_frame_get(packet_info *pinfo, guint16 sender_id, guint16 receiver_id,
				      gboolean carries_msgs, struct dgr_an_conn **conn)
{
	struct dgr_an_state *st;
	struct dgr_an_frame *fr;
	struct dgr_an_conn *cn;
	struct eng_endpoint src, dst;
	gboolean cooked = dgr_an_is_cooked(pinfo);
	const char *s, *r;
	int ci, side;

	*conn = NULL;
	fr = (struct dgr_an_frame *)p_get_proto_data(wmem_file_scope(), pinfo, dgr_an_proto,
						     DGR_AN_KEY_DGRDMA);
	if (fr || PINFO_FD_VISITED(pinfo)) {
		return fr;
	}
	st = dgr_an_state_get();
	if (!st) {
		return NULL;
	}
	dgr_an_addr(pinfo, &pinfo->src, pinfo->srcport, &src.addr);
	src.id = sender_id;
	dgr_an_addr(pinfo, &pinfo->dst, pinfo->destport, &dst.addr);
	dst.id = receiver_id;
	ci = eng_conn_find(&st->table, &src, &dst, carries_msgs ? true : false, &side);
	if (ci < 0) {
		return NULL; /* beyond the table's ENG_MAX_CONNS, as latency-report: not analysed */
	}
	cn = st->conn[ci];
	if (!cn) {
		cn = wmem_new0(wmem_file_scope(), struct dgr_an_conn);
		dgr_an_dir_init(&cn->dir[0]);
		dgr_an_dir_init(&cn->dir[1]);
		s = dgr_an_endpoint(pinfo, cooked ? NULL : &pinfo->src, pinfo->srcport, sender_id);
		r = dgr_an_endpoint(pinfo, cooked ? NULL : &pinfo->dst, pinfo->destport,
				    receiver_id);
		cn->label[side] = wmem_strdup_printf(wmem_file_scope(), "%s -> %s", s, r);
		cn->label[!side] = wmem_strdup_printf(wmem_file_scope(), "%s -> %s", r, s);
		st->conn[ci] = cn;
	}
	fr = wmem_new0(wmem_file_scope(), struct dgr_an_frame);
	fr->frame = pinfo->num;
	fr->dir = (guint8)side;
	fr->conn_label = cn->label[side];
	p_add_proto_data(wmem_file_scope(), pinfo, dgr_an_proto, DGR_AN_KEY_DGRDMA, fr);
	*conn = cn;
	return fr;
}

/* Sequence analysis of the sender's frames: the engine's rule (seq_track.h). */
void dgr_an_frame_seq(struct dgr_an_conn *conn, struct dgr_an_frame *fr, packet_info *pinfo,
		      guint16 frame_seq)
{
	struct dgr_an_dir *d = &conn->dir[fr->dir];
	struct eng_seq_result r;

	(void)pinfo;
	if (!d->seq) {
		d->seq = eng_seq_new(true); /* dup_of and ACK coverage name frames */
		if (!d->seq) {
			return;
		}
		wmem_register_callback(wmem_file_scope(), dgr_an_free_cb, d->seq);
	}
	eng_seq_feed(d->seq, frame_seq, (guint64)(uintptr_t)fr, &r);
	eng_snap_cut_frame(&d->snap, r.status == ENG_SEQ_NEXT);
	switch (r.status) {
	case ENG_SEQ_FIRST:
		fr->seq_status = DGR_AN_SEQ_FIRST;
		break;
	case ENG_SEQ_NEXT:
		fr->seq_status = DGR_AN_SEQ_NEXT;
		break;
	case ENG_SEQ_GAP:
		fr->seq_status = DGR_AN_SEQ_GAP;
		fr->gap = r.missing;
		break;
	case ENG_SEQ_DUPLICATE:
		fr->seq_status = DGR_AN_SEQ_DUPLICATE;
		fr->dup_of = ((const struct dgr_an_frame *)(uintptr_t)r.dup_of)->frame;
		break;
	case ENG_SEQ_LATE:
		fr->seq_status = DGR_AN_SEQ_LATE;
		break;
	}
}

/* ACK coverage: which of the peer's frames this frame acknowledges. */
void dgr_an_frame_ack(struct dgr_an_conn *conn, struct dgr_an_frame *fr, packet_info *pinfo,
		      guint16 ack_start, guint8 ack_count)
{
	struct dgr_an_dir *peer = &conn->dir[!fr->dir];
	guint i;

	for (i = 0; i < ack_count; i++) {
		guint16 seq = (guint16)(ack_start + i);
		struct dgr_an_frame *acked =
		    (struct dgr_an_frame *)(uintptr_t)eng_seq_ref(peer->seq, seq);

		if (!acked) {
			continue;
		}
		if (!acked->acked_in) {
			acked->acked_in = pinfo->num;
		}
		if (!fr->ack_found) {
			fr->ack_first = acked->frame;
		}
		fr->ack_last = acked->frame;
		fr->ack_found++;
	}
}

/*
 * The last event of the frame being dissected, kept in packet scope: a
 * frame's events are added while it is dissected, so appending after it keeps
 * a frame of hundreds of doorbells linear without a tail pointer in every
 * frame's record.
 */
struct dgr_an_tail {
	const struct dgr_an_frame *fr;
	struct dgr_an_event *last;
};

static void dgr_an_event_add(packet_info *pinfo, struct dgr_an_frame *fr,
			     enum dgr_an_event_kind kind, const char *label,
			     const nstime_t *latency)
{
	struct dgr_an_event *ev = wmem_new0(wmem_file_scope(), struct dgr_an_event);
	struct dgr_an_event **end = &fr->events;
	struct dgr_an_tail *tail = (struct dgr_an_tail *)p_get_proto_data(
	    pinfo->pool, pinfo, dgr_an_proto, DGR_AN_KEY_TAIL);

	ev->kind = kind;
	ev->conn_label = label;
	if (latency) {
		ev->latency = *latency;
	}
	if (tail && tail->fr == fr) {
		end = &tail->last->next;
	} else {
		while (*end) {
			end = &(*end)->next;
		}
	}
	*end = ev;
	if (!tail) {
		tail = wmem_new(pinfo->pool, struct dgr_an_tail);
		p_add_proto_data(pinfo->pool, pinfo, dgr_an_proto, DGR_AN_KEY_TAIL, tail);
	}
	tail->fr = fr;
	tail->last = ev;
}

/*
 * Doorbell sent by endpoint bell_dir, matched by the engine's matcher of the
 * data the peer sends (doorbell_match.h): its buffer is the rank of its flag
 * address among the doorbell addresses.
 */
static void dgr_an_doorbell(struct dgr_an_conn *conn, guint bell_dir, struct dgr_an_frame *fr,
			    packet_info *pinfo, guint32 flag_addr, struct dgr_an_msg *res)
{
	struct dm_matcher *dm = dgr_an_matcher(&conn->dir[!bell_dir]);
	struct dgr_an_txn *txn;
	struct dm_result r;

	res->is_doorbell = TRUE;
	if (!dm || dm_feed_doorbell(dm, flag_addr, dgr_an_ns(&pinfo->abs_ts), &r) < 0) {
		return; /* more buffers than the matcher tracks: counted there, not matched */
	}
	res->doorbell_buffer = r.buffer;
	if (r.kind != DM_MATCHED) {
		dgr_an_event_add(pinfo, fr, DGR_AN_EV_ORPHAN, conn->label[!bell_dir], NULL);
		return;
	}
	txn = (struct dgr_an_txn *)(uintptr_t)r.txn_ref;
	txn->doorbell_frame = pinfo->num;
	/* clamped at 0 by the matcher when capture timestamps go backwards */
	nstime_set_zero(&txn->doorbell_latency);
	txn->doorbell_latency.secs = (time_t)(r.latency / G_GUINT64_CONSTANT(1000000000));
	txn->doorbell_latency.nsecs = (int)(r.latency % G_GUINT64_CONSTANT(1000000000));
	res->answers = txn;
	dgr_an_event_add(pinfo, fr, DGR_AN_EV_DOORBELL, conn->label[!bell_dir],
			 &txn->doorbell_latency);
}

/* A transaction the matcher gave up (its doorbell is missing): overtaken in this frame. */
static void dgr_an_unmatched(struct dgr_an_conn *conn, struct dgr_an_frame *fr, packet_info *pinfo,
			     const struct dm_result *r)
{
	struct dgr_an_txn *older;

	if (r->kind != DM_UNMATCHED) {
		return;
	}
	older = (struct dgr_an_txn *)(uintptr_t)r->txn_ref;
	older->overtaken_in = pinfo->num;
	dgr_an_event_add(pinfo, fr, DGR_AN_EV_UNMATCHED, conn->label[fr->dir], NULL);
}

/* Appends a message result to the frame; returns where it is stored. */
static const struct dgr_an_msg *dgr_an_frame_add_msg(struct dgr_an_frame *fr,
						     const struct dgr_an_msg *res)
{
	fr->nmsgs++;
	if (fr->nmsgs == 1) {
		fr->msg0 = *res;
		return &fr->msg0;
	}
	if (!fr->more_msgs) {
		fr->more_msgs = wmem_array_new(wmem_file_scope(), sizeof(struct dgr_an_msg));
	}
	wmem_array_append_one(fr->more_msgs, *res);
	return (const struct dgr_an_msg *)wmem_array_index(fr->more_msgs, fr->nmsgs - 2);
}

/* Frees a reassembler when the capture file is closed (it is malloc'd, not wmem). */
static gboolean dgr_an_reasm_free_cb(wmem_allocator_t *allocator, wmem_cb_event_t event,
				     void *user_data)
{
	(void)allocator;
	(void)event;
	eng_reasm_free((struct eng_reasm *)user_data);
	free(user_data);
	return FALSE; /* once: the next file gets new reassemblers */
}

/* A transaction the feed gave up (its first fragment too old, or no room): never completed. */
static void dgr_an_give_up(const struct dgr_txn_info *t, void *ctx)
{
	struct dgr_an_dir *d = (struct dgr_an_dir *)ctx;
	struct dgr_an_txn *txn =
	    (struct dgr_an_txn *)wmem_map_lookup(d->txns, GUINT_TO_POINTER(t->txn_id));

	if (txn && !txn->complete_frame) {
		/* a finished record stays so (a reused id gets a record of its own: dgr_an_data())
		 */
		txn->given_up = TRUE;
	}
}

/*
 * The sender's reassembler, made on first use with the engine's rule
 * (analysis/engine/reasm_feed.h, latency-report's): given up by capture time
 * (the reasm_timeout preference) and, when full, the older half. NULL when
 * memory runs out.
 */
static struct eng_reasm *dgr_an_reasm(struct dgr_an_dir *d)
{
	if (!d->reasm) {
		d->reasm = (struct eng_reasm *)malloc(sizeof(*d->reasm));
		if (!d->reasm) {
			return NULL;
		}
		if (eng_reasm_init(d->reasm, ENG_REASM_MAX,
				   (guint64)dgr_an_reasm_timeout_ms * G_GUINT64_CONSTANT(1000000),
				   dgr_an_give_up, d, NULL) < 0) {
			free(d->reasm);
			d->reasm = NULL;
			return NULL;
		}
		wmem_register_callback(wmem_file_scope(), dgr_an_reasm_free_cb, d->reasm);
	}
	return d->reasm;
}

/*
 * Transaction state of one data fragment sent by fr->dir: the engine decides
 * (eng_feed_data(), latency-report's sequence); this records it.
 */
static void dgr_an_data(struct dgr_an_conn *conn, struct dgr_an_frame *fr, packet_info *pinfo,
			const struct dgr_msg *m, guint64 ts, guint32 frame, struct dgr_an_msg *res)
{
	struct dgr_an_dir *d = &conn->dir[fr->dir];
	struct eng_data_result r;
	struct eng_reasm *reasm;
	struct dm_matcher *dm;
	struct dgr_an_txn *txn, *old;
	gboolean finished;

	old = (struct dgr_an_txn *)wmem_map_lookup(d->txns, GUINT_TO_POINTER(m->txn_id));
	finished = old && (old->complete_frame || old->given_up);
	txn = old;
	if (!old || finished) {
		/* a new transaction, unless the engine calls the fragment a repeat (below) */
		txn = wmem_new0(wmem_file_scope(), struct dgr_an_txn);
		txn->txn_id = m->txn_id;
		txn->flag_addr = m->flag_addr;
		txn->flag_value = m->flag_value;
		txn->num_msgs = m->num_msgs_in_txn;
		txn->first_frame = frame;
	}
	if (!old) {
		wmem_map_insert(d->txns, GUINT_TO_POINTER(m->txn_id), txn);
	}
	res->txn = old ? old : txn;
	reasm = dgr_an_reasm(d);
	dm = dgr_an_matcher(d);
	if (!reasm || !dm) {
		return; /* out of memory: not analysed */
	}
	eng_feed_data(reasm, dm, m, ts, (guint64)(uintptr_t)txn, &r);
	if (finished) {
		if (r.kind == ENG_DATA_PARTIAL || r.kind == ENG_DATA_COMPLETE) {
			/* the engine no longer remembers the id: a new transaction reusing it */
			wmem_map_insert(d->txns, GUINT_TO_POINTER(m->txn_id), txn);
		} else {
			txn = old;
		}
	}
	res->txn = txn;
	switch (r.kind) {
	case ENG_DATA_DUPLICATE:
		res->duplicate_fragment = TRUE;
		if (txn->complete_frame) {
			/*
			 * After its transaction completed (the engine remembers the
			 * id only): one that does not fit it is marked so as well.
			 */
			struct dgr_txn_info done;

			memset(&done, 0, sizeof(done));
			done.txn_id = txn->txn_id;
			done.flag_addr = txn->flag_addr;
			done.flag_value = txn->flag_value;
			done.num_msgs = txn->num_msgs;
			res->inconsistent = dgr_reasm_fragment_check(&done, m) != 0;
		}
		return;
	case ENG_DATA_REFUSED:
		/* a receiver drops such a fragment; so does the analysis */
		res->inconsistent = r.err == -DGR_E_NUM_MSGS;
		return;
	case ENG_DATA_AFTER_GIVEN_UP:
	case ENG_DATA_NO_ROOM:
		return;
	case ENG_DATA_PARTIAL:
		dgr_an_unmatched(conn, fr, pinfo, &r.bell);
		if (txn->msgs_seen == 0) {
			/* the first fragment accepted defines the transaction, as in the
			 * reassembler */
			txn->flag_addr = m->flag_addr;
			txn->flag_value = m->flag_value;
			txn->num_msgs = m->num_msgs_in_txn;
		}
		txn->msgs_seen++;
		txn->bytes += m->data_len;
		return;
	case ENG_DATA_COMPLETE:
		break;
	}
	txn->flag_addr = r.done.flag_addr;
	txn->flag_value = r.done.flag_value;
	txn->num_msgs = r.done.num_msgs;
	txn->msgs_seen = r.done.msgs_seen;
	txn->bytes = r.done.bytes;
	res->completes = TRUE;
	txn->complete_frame = pinfo->num;
	txn->complete_ts = pinfo->abs_ts;
	if (txn->flag_addr == DGR_NO_FLAG) {
		return; /* a write without flag expects no doorbell */
	}
	dgr_an_event_add(pinfo, fr, DGR_AN_EV_TXN_COMPLETE, conn->label[fr->dir], NULL);
	if (r.buffer >= 0) {
		txn->buffer = (guint32)r.buffer;
	}
	dgr_an_unmatched(conn, fr, pinfo, &r.bell);
}

static void dgr_an_snap_first(struct dgr_an_conn *conn, struct dgr_an_frame *fr, packet_info *pinfo,
			      const struct dgr_msg *m);

const struct dgr_an_msg *dgr_an_message(struct dgr_an_conn *conn, struct dgr_an_frame *fr,
					packet_info *pinfo, const struct dgr_msg *m,
					gboolean is_doorbell)
{
	struct dgr_an_msg res;

	memset(&res, 0, sizeof(res));
	if (fr->nmsgs == 0) {
		dgr_an_snap_first(conn, fr, pinfo, m);
	}
	if (is_doorbell) {
		dgr_an_doorbell(conn, fr->dir, fr, pinfo, m->flag_addr, &res);
	} else {
		dgr_an_data(conn, fr, pinfo, m, dgr_an_ns(&pinfo->abs_ts), pinfo->num, &res);
	}
	return dgr_an_frame_add_msg(fr, &res);
}

/* The first fragment the snap length cut from fr's sender's last frame (snap_cut.h). */
static void dgr_an_snap_first(struct dgr_an_conn *conn, struct dgr_an_frame *fr, packet_info *pinfo,
			      const struct dgr_msg *m)
{
	struct eng_snap_found f;
	struct dgr_an_msg res;

	if (!eng_snap_cut_first(&conn->dir[fr->dir].snap, m, &f) || !f.fragment1) {
		return;
	}
	memset(&res, 0, sizeof(res));
	dgr_an_data(conn, fr, pinfo, &f.msg, f.ts, (guint32)f.ref, &res);
}

void dgr_an_snap_end(struct dgr_an_conn *conn, struct dgr_an_frame *fr, packet_info *pinfo,
		     const struct dgr_msg *last, guint cut_at, guint frame_len)
{
	eng_snap_cut_end(&conn->dir[fr->dir].snap, last, cut_at, frame_len,
			 dgr_an_ns(&pinfo->abs_ts), pinfo->num);
}

const struct dgr_an_msg *dgr_an_dcp_doorbell(packet_info *pinfo, guint32 identity)
{
	struct dgr_an_state *st = dgr_an_state_get();
	struct dgr_an_frame *fr;
	struct dgr_an_conn *conn = NULL;
	struct dgr_an_msg res;
	struct eng_addr src, dst;
	int ci = -1, data_side = 0;

	fr = (struct dgr_an_frame *)p_get_proto_data(wmem_file_scope(), pinfo, dgr_an_proto,
						     DGR_AN_KEY_DCP);
	if (fr) {
		return dgr_an_frame_msg(fr, 0);
	}
	fr = wmem_new0(wmem_file_scope(), struct dgr_an_frame);
	fr->frame = pinfo->num;
	p_add_proto_data(wmem_file_scope(), pinfo, dgr_an_proto, DGR_AN_KEY_DCP, fr);
	memset(&res, 0, sizeof(res));
	res.is_doorbell = TRUE;
	/* DCP carries no endpoint ids: the engine's rule names the connection (conn_table.h) */
	dgr_an_addr(pinfo, &pinfo->src, pinfo->srcport, &src);
	dgr_an_addr(pinfo, &pinfo->dst, pinfo->destport, &dst);
	if (st) {
		ci = eng_conn_for_dcp(&st->table, &src, &dst, &data_side);
	}
	if (ci >= 0) {
		conn = st->conn[ci];
	}
	fr->dir = (guint8)(1 - data_side);
	if (conn) {
		fr->conn_label = conn->label[data_side];
		dgr_an_doorbell(conn, fr->dir, fr, pinfo, identity, &res);
	} else {
		res.no_connection = TRUE;
		dgr_an_event_add(pinfo, fr, DGR_AN_EV_DCP_NO_CONN, NULL, NULL);
	}
	return dgr_an_frame_add_msg(fr, &res);
}

const struct dgr_an_msg *dgr_an_dcp_doorbell_result(packet_info *pinfo)
{
	const struct dgr_an_frame *fr = (const struct dgr_an_frame *)p_get_proto_data(
	    wmem_file_scope(), pinfo, dgr_an_proto, DGR_AN_KEY_DCP);

	return fr ? dgr_an_frame_msg(fr, 0) : NULL;
}

const struct dgr_an_msg *dgr_an_frame_msg(const struct dgr_an_frame *fr, guint i)
{
	if (!fr || i >= fr->nmsgs) {
		return NULL;
	}
	if (i == 0) {
		return &fr->msg0;
	}
	return (const struct dgr_an_msg *)wmem_array_index(fr->more_msgs, i - 1);
}

void dgr_an_queue_events(const struct dgr_an_frame *fr, packet_info *pinfo, int tap,
			 const struct dgr_an_event **last)
{
	const struct dgr_an_event *ev;

	if (!fr) {
		return;
	}
	for (ev = *last ? (*last)->next : fr->events; ev; ev = ev->next) {
		if (have_tap_listener(tap)) {
			tap_queue_packet(tap, pinfo, ev);
		}
		*last = ev;
	}
}

/* DCP frames keep their doorbell record under the DCP key. */
const struct dgr_an_frame *dgr_an_dcp_frame(packet_info *pinfo)
{
	return (const struct dgr_an_frame *)p_get_proto_data(wmem_file_scope(), pinfo, dgr_an_proto,
							     DGR_AN_KEY_DCP);
}
