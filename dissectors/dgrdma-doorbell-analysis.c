// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DG-RDMA analysis state: frame sequence tracking, transaction state and
 * doorbell matching. See dgrdma-doorbell-analysis.h and docs/dissector.md.
 *
 * State lives in the conversation (file scope) and is only written on the
 * first pass; per-frame conclusions are stored with p_add_proto_data.
 * Fragments are grouped into transactions by the project's reassembler
 * (dgrdma/reassembly.h), one per connection and sender, freed when the
 * capture file is closed.
 */
#include <stdlib.h>

#include <epan/to_str.h>
#include <epan/conversation.h>
#include <epan/proto_data.h>
#include <epan/tap.h>

#include <dgrdma/proto.h>
#include <dgrdma/reassembly.h>
#include <dgrdma/wire.h>

#include "../analysis/doorbell_match.h"
#include "../analysis/engine/reasm_feed.h"
#include "../analysis/engine/seq_track.h"
#include "dgrdma-doorbell-analysis.h"

int dgr_an_proto = -1;

/* kept per frame for the whole capture: docs/performance/dissector.md counts its bytes */
G_STATIC_ASSERT(sizeof(void *) != 8 || sizeof(struct dgr_an_frame) == 88);
G_STATIC_ASSERT(sizeof(void *) != 8 || sizeof(struct dgr_an_msg) == 24);

#define DGR_AN_KEY_DGRDMA 0
#define DGR_AN_KEY_DCP	  1

guint dgr_an_reasm_timeout_ms = 1000;

/*
 * Frames sent by one endpoint of a connection. The sequence tracker, the
 * reassembler and the doorbell matcher are the analysis engine's
 * (analysis/engine/seq_track.c, stack/src/reassembly.c,
 * analysis/doorbell_match.c), the ones latency-report runs; their refs are
 * pointers to this file's per-frame and per-transaction records.
 */
struct dgr_an_dir {
	struct eng_seq *seq;	 /* frame_seq of its frames; NULL until one */
	wmem_map_t *txns;	 /* txn_id -> struct dgr_an_txn it sent */
	struct dm_matcher *dm;	 /* its data transactions, the peer's doorbells */
	struct eng_reasm *reasm; /* its fragments -> transactions; NULL until data */
};

struct dgr_an_conv;

struct dgr_an_conn {
	struct dgr_an_conv *conv;
	struct dgr_an_dir dir[2];
	const char *label[2];	 /* data sent by endpoint d: "d -> peer" */
	guint16 first_sender_id; /* cooked captures: endpoint 0 is the first sender's id */
};

/* Per conversation (pair of link addresses/ports). */
struct dgr_an_conv {
	address first_src;
	guint32 first_srcport;
	wmem_map_t *conns;		     /* id pair (direction-0 order) -> conn */
	struct dgr_an_conn *last_data_to[2]; /* latest conn with data sent to endpoint d */
};

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

/* "ADDRESS[:PORT] id N", or "id N" when addr is NULL (a cooked capture's). */
static const char *dgr_an_endpoint(packet_info *pinfo, const address *addr, guint32 port,
				   guint16 id)
{
	if (!addr) {
		return wmem_strdup_printf(wmem_file_scope(), "id %u", id);
	}
	if (pinfo->ptype == PT_UDP || pinfo->ptype == PT_TCP) {
		return wmem_strdup_printf(wmem_file_scope(), "%s:%u id %u",
					  address_to_str(pinfo->pool, addr), port, id);
	}
	return wmem_strdup_printf(wmem_file_scope(), "%s id %u", address_to_str(pinfo->pool, addr),
				  id);
}

/*
 * Caches of the analysis, all file scope (they point into file-scope memory)
 * and cleared together when the file is closed (dgr_an_caches_kept()).
 *
 * The endpoints of the conversation the last DG-RDMA frame belonged to: a
 * capture is mostly one conversation, and find_or_create_conversation()
 * cost more than the rest of the frame's analysis.
 */
static struct {
	address a, b;
	guint32 port_a, port_b;
	port_type ptype;
	conversation_t *conversation;
	struct dgr_an_conv *conv;
} dgr_an_last;

/*
 * The frame given the last event, and that event: a frame's events are added
 * while it is dissected, so appending after the cached last one keeps a frame
 * of hundreds of doorbells linear without a tail pointer in every frame's
 * record.
 */
static struct {
	const struct dgr_an_frame *fr;
	struct dgr_an_event *last;
} dgr_an_last_event;

/*
 * A cooked capture (Linux "any", DLT_LINUX_SLL/SLL2) names only a frame's
 * sender, so raw-Ethernet DG-RDMA has no address pair to key a conversation
 * on: data and doorbells would fall into two. As latency-report (both link
 * addresses unknown), every such frame belongs to one conversation and an
 * endpoint is its id alone.
 */
static struct dgr_an_conv *dgr_an_cooked;

static gboolean dgr_an_caches_registered;

static gboolean dgr_an_caches_clear(wmem_allocator_t *allocator, wmem_cb_event_t event,
				    void *user_data)
{
	(void)allocator;
	(void)event;
	(void)user_data;
	memset(&dgr_an_last, 0, sizeof(dgr_an_last));
	memset(&dgr_an_last_event, 0, sizeof(dgr_an_last_event));
	dgr_an_cooked = NULL;
	dgr_an_caches_registered = FALSE;
	return FALSE; /* once: registered again when the next file fills a cache */
}

/* Called when a cache is filled: clears them all when the file is closed. */
static void dgr_an_caches_kept(void)
{
	if (!dgr_an_caches_registered) {
		wmem_register_callback(wmem_file_scope(), dgr_an_caches_clear, NULL);
		dgr_an_caches_registered = TRUE;
	}
}

/* The cached conversation record when this frame's endpoints are the last one's, or NULL. */
static struct dgr_an_conv *dgr_an_last_find(const packet_info *pinfo)
{
	gboolean same;

	if (!dgr_an_last.conv || pinfo->ptype != dgr_an_last.ptype) {
		return NULL;
	}
	same = (pinfo->srcport == dgr_an_last.port_a && pinfo->destport == dgr_an_last.port_b &&
		addresses_equal(&pinfo->src, &dgr_an_last.a) &&
		addresses_equal(&pinfo->dst, &dgr_an_last.b)) ||
	       (pinfo->srcport == dgr_an_last.port_b && pinfo->destport == dgr_an_last.port_a &&
		addresses_equal(&pinfo->src, &dgr_an_last.b) &&
		addresses_equal(&pinfo->dst, &dgr_an_last.a));
	if (!same) {
		return NULL;
	}
	/* as find_conversation_pinfo() does */
	if (pinfo->num > dgr_an_last.conversation->last_frame) {
		dgr_an_last.conversation->last_frame = pinfo->num;
	}
	return dgr_an_last.conv;
}

static void dgr_an_last_set(const packet_info *pinfo, conversation_t *conversation,
			    struct dgr_an_conv *c)
{
	dgr_an_caches_kept();
	copy_address_wmem(wmem_file_scope(), &dgr_an_last.a, &pinfo->src);
	copy_address_wmem(wmem_file_scope(), &dgr_an_last.b, &pinfo->dst);
	dgr_an_last.port_a = pinfo->srcport;
	dgr_an_last.port_b = pinfo->destport;
	dgr_an_last.ptype = pinfo->ptype;
	dgr_an_last.conversation = conversation;
	dgr_an_last.conv = c;
}

/* True when the frame names its sender only (a cooked capture of raw Ethernet). */
static gboolean dgr_an_is_cooked(const packet_info *pinfo)
{
	return pinfo->dst.type == AT_NONE;
}

static struct dgr_an_conv *dgr_an_cooked_conv(gboolean create)
{
	if (!dgr_an_cooked && create) {
		dgr_an_cooked = wmem_new0(wmem_file_scope(), struct dgr_an_conv);
		dgr_an_cooked->conns =
		    wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
		dgr_an_caches_kept();
	}
	return dgr_an_cooked;
}

/* The direction (0/1) of the current frame in conversation c. */
static guint dgr_an_conv_dir(const packet_info *pinfo, const struct dgr_an_conv *c)
{
	return (addresses_equal(&pinfo->src, &c->first_src) && pinfo->srcport == c->first_srcport)
		   ? 0
		   : 1;
}

/* The conversation record and the direction (0/1) of the current frame. */
static struct dgr_an_conv *dgr_an_conv_get(packet_info *pinfo, gboolean create, guint *dir)
{
	conversation_t *conv;
	struct dgr_an_conv *c;

	if (create) {
		c = dgr_an_last_find(pinfo);
		if (c) {
			*dir = dgr_an_conv_dir(pinfo, c);
			return c;
		}
		conv = find_or_create_conversation(pinfo);
	} else {
		conv = find_conversation_pinfo(pinfo, 0);
		if (!conv) {
			return NULL;
		}
	}
	c = (struct dgr_an_conv *)conversation_get_proto_data(conv, dgr_an_proto);
	if (!c) {
		if (!create) {
			return NULL;
		}
		c = wmem_new0(wmem_file_scope(), struct dgr_an_conv);
		copy_address_wmem(wmem_file_scope(), &c->first_src, &pinfo->src);
		c->first_srcport = pinfo->srcport;
		c->conns = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
		conversation_add_proto_data(conv, dgr_an_proto, c);
	}
	if (create) {
		dgr_an_last_set(pinfo, conv, c);
	}
	*dir = dgr_an_conv_dir(pinfo, c);
	return c;
}

/*
 * Returns the frame's analysis record, creating it and its connection on the
 * first pass. *conn is set on the first pass only (NULL later).
 */
struct dgr_an_frame *dgr_an_frame_get(packet_info *pinfo, guint16 sender_id, guint16 receiver_id,
				      struct dgr_an_conn **conn)
{
	struct dgr_an_frame *fr;
	struct dgr_an_conv *c;
	struct dgr_an_conn *cn;
	gboolean cooked = dgr_an_is_cooked(pinfo);
	const char *s, *r;
	guint dir = 0;
	guint32 key;

	*conn = NULL;
	fr = (struct dgr_an_frame *)p_get_proto_data(wmem_file_scope(), pinfo, dgr_an_proto,
						     DGR_AN_KEY_DGRDMA);
	if (fr || PINFO_FD_VISITED(pinfo)) {
		return fr;
	}
	if (cooked) {
		/* endpoints by id alone; endpoint 0 is the first sender seen */
		c = dgr_an_cooked_conv(TRUE);
		key = sender_id < receiver_id ? ((guint32)sender_id << 16 | receiver_id)
					      : ((guint32)receiver_id << 16 | sender_id);
		cn = (struct dgr_an_conn *)wmem_map_lookup(c->conns, GUINT_TO_POINTER(key));
		dir = cn && cn->first_sender_id != sender_id ? 1 : 0;
	} else {
		c = dgr_an_conv_get(pinfo, TRUE, &dir);
		key = dir == 0 ? ((guint32)sender_id << 16 | receiver_id)
			       : ((guint32)receiver_id << 16 | sender_id);
		cn = (struct dgr_an_conn *)wmem_map_lookup(c->conns, GUINT_TO_POINTER(key));
	}
	if (!cn) {
		cn = wmem_new0(wmem_file_scope(), struct dgr_an_conn);
		cn->conv = c;
		cn->first_sender_id = sender_id;
		dgr_an_dir_init(&cn->dir[0]);
		dgr_an_dir_init(&cn->dir[1]);
		/* a cooked capture's endpoints are their ids alone */
		s = dgr_an_endpoint(pinfo, cooked ? NULL : &pinfo->src, pinfo->srcport, sender_id);
		r = dgr_an_endpoint(pinfo, cooked ? NULL : &pinfo->dst, pinfo->destport,
				    receiver_id);
		cn->label[dir] = wmem_strdup_printf(wmem_file_scope(), "%s -> %s", s, r);
		cn->label[!dir] = wmem_strdup_printf(wmem_file_scope(), "%s -> %s", r, s);
		wmem_map_insert(c->conns, GUINT_TO_POINTER(key), cn);
	}
	fr = wmem_new0(wmem_file_scope(), struct dgr_an_frame);
	fr->frame = pinfo->num;
	fr->dir = (guint8)dir;
	fr->conn_label = cn->label[dir];
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
		d->seq = eng_seq_new();
		if (!d->seq) {
			return;
		}
		wmem_register_callback(wmem_file_scope(), dgr_an_free_cb, d->seq);
	}
	eng_seq_feed(d->seq, frame_seq, (guint64)(uintptr_t)fr, &r);
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

static void dgr_an_event_add(struct dgr_an_frame *fr, enum dgr_an_event_kind kind,
			     const char *label, const nstime_t *latency)
{
	struct dgr_an_event *ev = wmem_new0(wmem_file_scope(), struct dgr_an_event);
	struct dgr_an_event **end = &fr->events;

	ev->kind = kind;
	ev->conn_label = label;
	if (latency) {
		ev->latency = *latency;
	}
	if (dgr_an_last_event.fr == fr) {
		end = &dgr_an_last_event.last->next;
	} else {
		dgr_an_caches_kept();
		while (*end) {
			end = &(*end)->next;
		}
	}
	*end = ev;
	dgr_an_last_event.fr = fr;
	dgr_an_last_event.last = ev;
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
		dgr_an_event_add(fr, DGR_AN_EV_ORPHAN, conn->label[!bell_dir], NULL);
		return;
	}
	txn = (struct dgr_an_txn *)(uintptr_t)r.txn_ref;
	txn->doorbell_frame = pinfo->num;
	/* clamped at 0 by the matcher when capture timestamps go backwards */
	nstime_set_zero(&txn->doorbell_latency);
	txn->doorbell_latency.secs = (time_t)(r.latency / G_GUINT64_CONSTANT(1000000000));
	txn->doorbell_latency.nsecs = (int)(r.latency % G_GUINT64_CONSTANT(1000000000));
	res->answers = txn;
	dgr_an_event_add(fr, DGR_AN_EV_DOORBELL, conn->label[!bell_dir], &txn->doorbell_latency);
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
	dgr_an_event_add(fr, DGR_AN_EV_UNMATCHED, conn->label[fr->dir], NULL);
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

	if (txn) {
		txn->given_up = TRUE;
	}
}

/*
 * Feeds one fragment to the sender's reassembler (created on first use) by
 * the engine's rule, latency-report's (analysis/engine/reasm_feed.h): by
 * capture time (the reasm_timeout preference) and, when full, the older half
 * given up. Returns what eng_reasm_add() returns, or -DGR_E_SYS when no
 * reassembler could be made.
 */
static int dgr_an_reasm_add(struct dgr_an_dir *d, const struct dgr_msg *m, packet_info *pinfo,
			    struct dgr_txn_info *done)
{
	if (!d->reasm) {
		d->reasm = (struct eng_reasm *)malloc(sizeof(*d->reasm));
		if (!d->reasm) {
			return -DGR_E_SYS;
		}
		if (eng_reasm_init(d->reasm, ENG_REASM_MAX,
				   (guint64)dgr_an_reasm_timeout_ms * G_GUINT64_CONSTANT(1000000),
				   dgr_an_give_up, d, NULL) < 0) {
			free(d->reasm);
			d->reasm = NULL;
			return -DGR_E_SYS;
		}
		wmem_register_callback(wmem_file_scope(), dgr_an_reasm_free_cb, d->reasm);
	}
	return eng_reasm_add(d->reasm, m, dgr_an_ns(&pinfo->abs_ts), pinfo->num, done);
}

/*
 * Transaction state of one data fragment sent by fr->dir: the reassembler
 * decides (accepted, duplicate, inconsistent, completing); this records it.
 */
static void dgr_an_data(struct dgr_an_conn *conn, struct dgr_an_conv *c, struct dgr_an_frame *fr,
			packet_info *pinfo, const struct dgr_an_msg_in *m, struct dgr_an_msg *res)
{
	struct dgr_an_dir *d = &conn->dir[fr->dir];
	struct dgr_an_txn *txn;
	struct dgr_txn_info done;
	struct dgr_msg msg;
	int rc;

	txn = (struct dgr_an_txn *)wmem_map_lookup(d->txns, GUINT_TO_POINTER(m->txn_id));
	if (!txn) {
		txn = wmem_new0(wmem_file_scope(), struct dgr_an_txn);
		txn->txn_id = m->txn_id;
		txn->flag_addr = m->flag_addr;
		txn->flag_value = m->flag_value;
		txn->num_msgs = m->num_msgs;
		txn->first_frame = pinfo->num;
		wmem_map_insert(d->txns, GUINT_TO_POINTER(m->txn_id), txn);
	}
	res->txn = txn;
	memset(&msg, 0, sizeof(msg));
	msg.txn_id = m->txn_id;
	msg.flag_addr = m->flag_addr;
	msg.flag_value = m->flag_value;
	msg.num_msgs_in_txn = m->num_msgs;
	msg.msg_seq = m->msg_seq;
	msg.data_addr = m->data_addr;
	msg.data_len = m->data_len;
	if (txn->complete_frame) {
		/*
		 * The reassembler forgets a transaction once complete. Every
		 * fragment of it was seen, so one that fits is a duplicate.
		 */
		memset(&done, 0, sizeof(done));
		done.txn_id = txn->txn_id;
		done.flag_addr = txn->flag_addr;
		done.flag_value = txn->flag_value;
		done.num_msgs = txn->num_msgs;
		if (dgr_reasm_fragment_check(&done, &msg) == 0) {
			res->duplicate_fragment = TRUE;
		} else {
			res->inconsistent = TRUE;
		}
		return;
	}
	if (txn->given_up) {
		return;
	}
	rc = dgr_an_reasm_add(d, &msg, pinfo, &done);
	if (rc == -DGR_E_NUM_MSGS) {
		/* A receiver drops such a fragment; so does the analysis. */
		res->inconsistent = TRUE;
		return;
	}
	if (rc == DGR_REASM_DUPLICATE || rc == ENG_REASM_AFTER_COMPLETE) {
		res->duplicate_fragment = TRUE;
		return;
	}
	if (rc < 0 || rc == ENG_REASM_AFTER_GIVEN_UP) {
		/* the map above answers first; the feed's own memory says the same */
		return;
	}
	if (rc == DGR_REASM_PARTIAL && m->flag_addr != DGR_NO_FLAG) {
		/* a newer transaction into a buffer gives up the one waiting there */
		struct dm_matcher *dm = dgr_an_matcher(d);
		struct dm_result r;

		if (dm && dm_feed_msg(dm, m->flag_addr, m->txn_id, &r) >= 0) {
			dgr_an_unmatched(conn, fr, pinfo, &r);
		}
	}
	if (txn->msgs_seen == 0) {
		/* The first fragment accepted defines the transaction, as in the reassembler. */
		txn->flag_addr = m->flag_addr;
		txn->flag_value = m->flag_value;
		txn->num_msgs = m->num_msgs;
	}
	if (rc != DGR_REASM_COMPLETE) {
		txn->msgs_seen++;
		txn->bytes += m->data_len;
		return;
	}
	txn->msgs_seen = done.msgs_seen;
	txn->bytes = done.bytes;
	res->completes = TRUE;
	txn->complete_frame = pinfo->num;
	txn->complete_ts = pinfo->abs_ts;
	c->last_data_to[!fr->dir] = conn;
	if (txn->flag_addr == DGR_NO_FLAG) {
		return; /* a write without flag expects no doorbell */
	}
	dgr_an_event_add(fr, DGR_AN_EV_TXN_COMPLETE, conn->label[fr->dir], NULL);
	{
		struct dm_matcher *dm = dgr_an_matcher(d);
		struct dm_result r;
		int b;

		if (!dm) {
			return;
		}
		b = dm_feed_txn(dm, txn->flag_addr, txn->txn_id, dgr_an_ns(&pinfo->abs_ts),
				(guint64)(uintptr_t)txn, &r);
		if (b >= 0) {
			txn->buffer = (guint32)b;
		}
		dgr_an_unmatched(conn, fr, pinfo, &r);
	}
}

const struct dgr_an_msg *dgr_an_message(struct dgr_an_conn *conn, struct dgr_an_frame *fr,
					packet_info *pinfo, const struct dgr_an_msg_in *m)
{
	struct dgr_an_msg res;

	memset(&res, 0, sizeof(res));
	if (m->is_doorbell) {
		dgr_an_doorbell(conn, fr->dir, fr, pinfo, m->flag_addr, &res);
	} else {
		dgr_an_data(conn, conn->conv, fr, pinfo, m, &res);
	}
	return dgr_an_frame_add_msg(fr, &res);
}

const struct dgr_an_msg *dgr_an_dcp_doorbell(packet_info *pinfo, guint32 identity)
{
	struct dgr_an_frame *fr;
	struct dgr_an_conv *c;
	struct dgr_an_conn *conn;
	struct dgr_an_msg res;
	guint dir = 0;

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
	if (dgr_an_is_cooked(pinfo)) {
		/*
		 * No addresses, and DCP carries no endpoint ids: the data sent to
		 * endpoint 1 (the first sender's peer), as latency-report takes
		 * the data its first connection's first sender sent.
		 */
		c = dgr_an_cooked_conv(FALSE);
		dir = 1;
	} else {
		c = dgr_an_conv_get(pinfo, FALSE, &dir);
	}
	conn = c ? c->last_data_to[dir] : NULL;
	fr->dir = (guint8)dir;
	if (conn) {
		fr->conn_label = conn->label[!dir];
		dgr_an_doorbell(conn, dir, fr, pinfo, identity, &res);
	} else {
		dgr_an_event_add(fr, DGR_AN_EV_ORPHAN, "(no DG-RDMA connection)", NULL);
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
