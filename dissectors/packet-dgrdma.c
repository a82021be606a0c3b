// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DG-RDMA (OpenCPI datagram RDMA) dissector: ethertype 0xF042 and UDP port
 * 18078 (2-byte pad, then the frame). Decodes each frame once with the
 * codec (dgr_frame_decode(): the header, every message with its offset and
 * the refusal a receiver drops it with), builds the tree from that decode,
 * flags what a receiver would reject, and feeds the same decode to the
 * doorbell analysis (dgrdma-doorbell-analysis.c), shown as generated fields.
 * Field abbreviations of the OpenCPI Lua dissector are kept. See
 * docs/dissector.md.
 */
#include <epan/expert.h>
#include <epan/packet.h>
#include <epan/prefs.h>
#include <epan/tap.h>

#include <dgrdma/proto.h>
#include <dgrdma/wire.h>

#include "msg_rules.h"
#include "dgrdma-doorbell-analysis.h"
#include "dgrdma-dissectors.h"

static int proto_dgrdma = -1;
static int dgrdma_tap = -1;

static int hf_udp_pad = -1;
static int hf_src_id = -1;
static int hf_dst_id = -1;
static int hf_frameseq = -1;
static int hf_ackstart = -1;
static int hf_ackcount = -1;
static int hf_flags = -1;
static int hf_message = -1;
static int hf_padding = -1;
static int hf_txnid = -1;
static int hf_flagaddr = -1;
static int hf_flagvalue = -1;
static int hf_flag_valid = -1;
static int hf_flag_length = -1;
static int hf_flag_eof = -1;
static int hf_flag_truncated = -1;
static int hf_flag_opcode = -1;
static int hf_msgsintxn = -1;
static int hf_msgseq = -1;
static int hf_dataaddr = -1;
static int hf_datalen = -1;
static int hf_type = -1;
static int hf_nextmsg = -1;
static int hf_payload = -1;
static int hf_doorbell = -1;
static int hf_an = -1;
static int hf_an_seq_first = -1;
static int hf_an_seq_gap = -1;
static int hf_an_duplicate_of = -1;
static int hf_an_seq_late = -1;
static int hf_an_acked_in = -1;
static int hf_an_acks_found = -1;
static int hf_an_acks_first = -1;
static int hf_an_acks_last = -1;
static int hf_an_txn_first = -1;
static int hf_an_txn_complete_in = -1;
static int hf_an_txn_fragments = -1;
static int hf_an_txn_missing = -1;
static int hf_an_txn_bytes = -1;
static int hf_an_buffer = -1;
static int hf_an_doorbell_in = -1;
static int hf_an_unmatched = -1;
static int hf_an_overtaken_in = -1;
static int hf_an_duplicate_fragment = -1;
static int hf_an_doorbell_buffer = -1;
static int hf_an_doorbell_for = -1;
static int hf_an_doorbell_txn = -1;
static int hf_an_doorbell_latency = -1;
static int hf_an_doorbell_late = -1;
static int hf_an_orphan = -1;
static int hf_an_no_connection = -1;

static gint ett_dgrdma = -1;
static gint ett_message = -1;
static gint ett_flag = -1;
static gint ett_analysis = -1;
static gint ett_frame_analysis = -1;

static expert_field ei_frame_hdr_short = EI_INIT;
static expert_field ei_frame_flags = EI_INIT;
static expert_field ei_udp_short = EI_INIT;
static expert_field ei_msg_hdr_trunc = EI_INIT;
static expert_field ei_msg_past_end = EI_INIT;
static expert_field ei_padding = EI_INIT;
static expert_field ei_align = EI_INIT;
static expert_field ei_msg_type = EI_INIT;
static expert_field ei_num_msgs = EI_INIT;
static expert_field ei_flag_word = EI_INIT;
static expert_field ei_addr_range = EI_INIT;
static expert_field ei_seq_gap = EI_INIT;
static expert_field ei_seq_dup = EI_INIT;
static expert_field ei_seq_late = EI_INIT;
static expert_field ei_txn_incomplete = EI_INIT;
static expert_field ei_txn_unmatched = EI_INIT;
static expert_field ei_txn_inconsistent = EI_INIT;
static expert_field ei_dup_fragment = EI_INIT;
static expert_field ei_doorbell_orphan = EI_INIT;
static expert_field ei_doorbell_late = EI_INIT;
static expert_field ei_doorbell_no_connection = EI_INIT;
static expert_field ei_ack_only_to_fpga = EI_INIT;

static dissector_handle_t dgrdma_eth_handle;
static dissector_handle_t dgrdma_udp_handle;
static dissector_handle_t dcp_handle;

/* Preferences (read-only while dissecting). */
/* TRUE: offset 0 is the sender, as the public Lua dissector reads it (OpenCPI: the receiver) */
static gboolean pref_lua_field_order = FALSE;
static guint pref_mem_size = 0;
static gboolean pref_strict_lengths = TRUE;
static gboolean pref_analyze = TRUE;
static gboolean pref_host_sends_data = FALSE; /* the data path: FALSE rx, TRUE tx */
/* a doorbell later than this is late (dgrdma.analysis.doorbell_late); 0: no judgement */
static guint pref_tolerable_latency_us = 0;

static const value_string frame_flags_vals[] = {
	{ DGR_FRAME_FLAG_ACK_ONLY, "ACK only" },
	{ DGR_FRAME_FLAG_MSGS, "Messages follow" },
	{ 0, NULL },
};

static const value_string opcode_vals[] = {
	{ DGR_OPCODE_SAMPLES, "Samples" },
	{ DGR_OPCODE_TIME, "Time" },
	{ DGR_OPCODE_SAMPLE_INTERVAL, "Sample interval" },
	{ DGR_OPCODE_FLUSH, "Flush" },
	{ DGR_OPCODE_DISCONTINUITY, "Discontinuity" },
	{ DGR_OPCODE_METADATA, "Metadata" },
	{ 0, NULL },
};

static const value_string msg_type_vals[] = {
	{ 0, "Write" },
	{ 0, NULL },
};

static int *const flag_word_fields[] = {
	&hf_flag_valid, &hf_flag_length, &hf_flag_eof, &hf_flag_truncated, &hf_flag_opcode, NULL,
};

/*
 * Whether the tree is shown (a detail pane, -V, PDML, and -T fields too:
 * tshark shows the tree for it): labels are only decorated then. A tree built
 * for filters alone is not, and formatting text for it was a quarter of the
 * plugin's cost (docs/performance/dissector.md).
 */
static gboolean dgrdma_tree_shown(proto_tree *tree)
{
	return tree && PTREE_DATA(tree)->visible;
}

/*
 * An item's label, formatted here and set once with proto_item_set_text():
 * -T fields shows the tree, so every label is built though none is printed,
 * and proto_item_append_text() (the label filled, then printf per part)
 * cost as much as a message's ten header fields (docs/performance/dissector.md).
 */
struct dgrdma_label {
	char text[ITEM_LABEL_LENGTH];
	gsize len;
};

static void dgrdma_label_str(struct dgrdma_label *l, const char *s)
{
	while (*s && l->len + 1 < sizeof(l->text)) {
		l->text[l->len++] = *s++;
	}
	l->text[l->len] = '\0';
}

static void dgrdma_label_uint(struct dgrdma_label *l, guint32 v)
{
	char digits[11];
	int i = (int)sizeof(digits) - 1;

	digits[i] = '\0';
	do {
		digits[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	dgrdma_label_str(l, &digits[i]);
}

/* v as 0x%08x */
static void dgrdma_label_hex32(struct dgrdma_label *l, guint32 v)
{
	static const char hex[] = "0123456789abcdef";
	char digits[11];
	int i;

	digits[0] = '0';
	digits[1] = 'x';
	for (i = 0; i < 8; i++) {
		digits[2 + i] = hex[(v >> (28 - 4 * i)) & 0xF];
	}
	digits[10] = '\0';
	dgrdma_label_str(l, digits);
}

/* Whether the flag word's sub-fields are wanted: shown, or one of them in a filter or -e. */
static gboolean dgrdma_flag_fields_wanted(proto_tree *tree)
{
	int *const *f;

	if (dgrdma_tree_shown(tree)) {
		return TRUE;
	}
	for (f = flag_word_fields; tree && *f; f++) {
		if (proto_field_is_referenced(tree, **f)) {
			return TRUE;
		}
	}
	return FALSE;
}

/*
 * The flag word, and with split its sub-fields (proto_tree_add_uint() and
 * _boolean() apply each field's bitmask), as proto_tree_add_bitmask() with
 * BMT_NO_APPEND adds them at a third of its cost: the sub-fields carry the
 * word's meaning, so the value's label is not decorated.
 */
static void dgrdma_add_flag_word(proto_tree *tree, tvbuff_t *tvb, int offset, guint32 value,
				 gboolean split)
{
	proto_item *ti = proto_tree_add_uint(tree, hf_flagvalue, tvb, offset, 4, value);
	proto_tree *ftree;

	if (!split) {
		return;
	}
	ftree = proto_item_add_subtree(ti, ett_flag);
	proto_tree_add_boolean(ftree, hf_flag_valid, tvb, offset, 4, value);
	proto_tree_add_uint(ftree, hf_flag_length, tvb, offset, 4, value);
	proto_tree_add_boolean(ftree, hf_flag_eof, tvb, offset, 4, value);
	proto_tree_add_boolean(ftree, hf_flag_truncated, tvb, offset, 4, value);
	proto_tree_add_uint(ftree, hf_flag_opcode, tvb, offset, 4, value);
}

/* Expert info for a dgr_msg_validate() failure, with its precise text. */
static void dgrdma_validate(packet_info *pinfo, proto_item *item, const struct dgr_msg *m)
{
	char errbuf[DGR_ERRBUF_SIZE];
	expert_field *ei;
	int rc;

	errbuf[0] = '\0';
	/* with no memory size given, the 32-bit address space (engine/msg_rules.h) */
	rc = dgr_msg_validate(m, pref_mem_size ? pref_mem_size : ENG_ADDR_SPACE,
			      pref_strict_lengths, errbuf);
	switch (-rc) {
	case 0:
		return;
	case DGR_E_ALIGN:
		ei = &ei_align;
		break;
	case DGR_E_FLAG_WORD:
		ei = &ei_flag_word;
		break;
	case DGR_E_ADDR_RANGE:
		ei = &ei_addr_range;
		break;
	default:
		ei = &ei_num_msgs;
		break;
	}
	expert_add_info_format(pinfo, item, ei, "%s", errbuf[0] ? errbuf : dgr_strerror(rc));
}

static void dgrdma_add_frame_analysis(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo,
				      const struct dgr_an_frame *fr, proto_item *seq_item)
{
	proto_tree *atree;
	proto_item *ti;

	ti = proto_tree_add_item(tree, hf_an, tvb, 0, 0, ENC_NA);
	proto_item_set_generated(ti);
	atree = proto_item_add_subtree(ti, ett_frame_analysis);
	switch (fr->seq_status) {
	case DGR_AN_SEQ_FIRST:
		ti = proto_tree_add_boolean(atree, hf_an_seq_first, tvb, 0, 0, TRUE);
		proto_item_set_generated(ti);
		break;
	case DGR_AN_SEQ_GAP:
		ti = proto_tree_add_uint(atree, hf_an_seq_gap, tvb, 0, 0, fr->gap);
		proto_item_set_generated(ti);
		expert_add_info_format(pinfo, seq_item, &ei_seq_gap,
				       "Frame sequence gap: %u frame(s) missing before this one",
				       fr->gap);
		break;
	case DGR_AN_SEQ_DUPLICATE:
		ti = proto_tree_add_uint(atree, hf_an_duplicate_of, tvb, 0, 0, fr->dup_of);
		proto_item_set_generated(ti);
		expert_add_info_format(pinfo, seq_item, &ei_seq_dup,
				       "Duplicate frame_seq (first seen in frame %u)", fr->dup_of);
		break;
	case DGR_AN_SEQ_LATE:
		ti = proto_tree_add_boolean(atree, hf_an_seq_late, tvb, 0, 0, TRUE);
		proto_item_set_generated(ti);
		expert_add_info(pinfo, seq_item, &ei_seq_late);
		break;
	default:
		break;
	}
	if (fr->acked_in) {
		ti = proto_tree_add_uint(atree, hf_an_acked_in, tvb, 0, 0, fr->acked_in);
		proto_item_set_generated(ti);
	}
	if (fr->ack_found) {
		ti = proto_tree_add_uint(atree, hf_an_acks_found, tvb, 0, 0, fr->ack_found);
		proto_item_set_generated(ti);
		ti = proto_tree_add_uint(atree, hf_an_acks_first, tvb, 0, 0, fr->ack_first);
		proto_item_set_generated(ti);
		ti = proto_tree_add_uint(atree, hf_an_acks_last, tvb, 0, 0, fr->ack_last);
		proto_item_set_generated(ti);
	}
}

/*
 * A doorbell later than the tolerable latency preference (the time the
 * buffers cover at the stream's rate: latency-report's tolerable latency)
 * is late: a generated flag and an expert warning on its latency.
 */
static void dgrdma_judge_latency(proto_tree *atree, tvbuff_t *tvb, packet_info *pinfo,
				 proto_item *latency_item, const nstime_t *latency)
{
	guint64 latency_ns;
	guint64 tolerable_ns = (guint64)pref_tolerable_latency_us * G_GUINT64_CONSTANT(1000);
	proto_item *ti;

	if (!tolerable_ns) {
		return;
	}
	latency_ns =
	    (guint64)latency->secs * G_GUINT64_CONSTANT(1000000000) + (guint64)latency->nsecs;
	if (latency_ns <= tolerable_ns) {
		return;
	}
	ti = proto_tree_add_boolean(atree, hf_an_doorbell_late, tvb, 0, 0, TRUE);
	proto_item_set_generated(ti);
	/* one summary per preference value: the expert dialog groups all late doorbells */
	expert_add_info_format(pinfo, latency_item, &ei_doorbell_late,
			       "Late doorbell: above the tolerable latency of %u us",
			       pref_tolerable_latency_us);
}

/* Generated fields of one message's analysis. */
static void dgrdma_add_msg_analysis(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo,
				    proto_item *msg_item, const struct dgr_an_msg *an)
{
	const struct dgr_an_txn *txn = an->txn;
	proto_tree *atree;
	proto_item *ti;

	ti = proto_tree_add_item(tree, hf_an, tvb, 0, 0, ENC_NA);
	proto_item_set_generated(ti);
	atree = proto_item_add_subtree(ti, ett_analysis);

	if (an->is_doorbell) {
		ti = proto_tree_add_uint(atree, hf_an_doorbell_buffer, tvb, 0, 0,
					 an->doorbell_buffer);
		proto_item_set_generated(ti);
		if (an->no_connection) {
			/* as latency-report: not an orphan of a connection, a doorbell of none */
			ti = proto_tree_add_boolean(atree, hf_an_no_connection, tvb, 0, 0, TRUE);
			proto_item_set_generated(ti);
			expert_add_info(pinfo, msg_item, &ei_doorbell_no_connection);
			return;
		}
		if (!an->answers) {
			ti = proto_tree_add_boolean(atree, hf_an_orphan, tvb, 0, 0, TRUE);
			proto_item_set_generated(ti);
			expert_add_info(pinfo, msg_item, &ei_doorbell_orphan);
			return;
		}
		ti = proto_tree_add_uint(atree, hf_an_doorbell_for, tvb, 0, 0,
					 an->answers->complete_frame);
		proto_item_set_generated(ti);
		ti = proto_tree_add_uint(atree, hf_an_doorbell_txn, tvb, 0, 0, an->answers->txn_id);
		proto_item_set_generated(ti);
		ti = proto_tree_add_time(atree, hf_an_doorbell_latency, tvb, 0, 0,
					 &an->answers->doorbell_latency);
		proto_item_set_generated(ti);
		dgrdma_judge_latency(atree, tvb, pinfo, ti, &an->answers->doorbell_latency);
		return;
	}
	if (!txn) {
		return;
	}
	if (an->inconsistent) {
		expert_add_info(pinfo, msg_item, &ei_txn_inconsistent);
	}
	if (an->duplicate_fragment) {
		ti = proto_tree_add_boolean(atree, hf_an_duplicate_fragment, tvb, 0, 0, TRUE);
		proto_item_set_generated(ti);
		expert_add_info(pinfo, msg_item, &ei_dup_fragment);
	}
	ti = proto_tree_add_uint(atree, hf_an_txn_first, tvb, 0, 0, txn->first_frame);
	proto_item_set_generated(ti);
	ti = proto_tree_add_uint(atree, hf_an_txn_fragments, tvb, 0, 0, txn->msgs_seen);
	proto_item_set_generated(ti);
	if (txn->complete_frame) {
		ti = proto_tree_add_uint(atree, hf_an_txn_complete_in, tvb, 0, 0,
					 txn->complete_frame);
		proto_item_set_generated(ti);
		ti = proto_tree_add_uint(atree, hf_an_txn_bytes, tvb, 0, 0, txn->bytes);
		proto_item_set_generated(ti);
	} else if (PINFO_FD_VISITED(pinfo)) {
		guint parts = txn->num_msgs < 2 ? 1u : txn->num_msgs;

		ti = proto_tree_add_uint(atree, hf_an_txn_missing, tvb, 0, 0,
					 parts - txn->msgs_seen);
		proto_item_set_generated(ti);
		expert_add_info_format(pinfo, msg_item, &ei_txn_incomplete,
				       "Transaction %u never completed (%u of %u fragments seen)",
				       txn->txn_id, txn->msgs_seen, parts);
	}
	if (!an->completes || txn->flag_addr == DGR_NO_FLAG) {
		return;
	}
	ti = proto_tree_add_uint(atree, hf_an_buffer, tvb, 0, 0, txn->buffer);
	proto_item_set_generated(ti);
	if (txn->doorbell_frame) {
		ti = proto_tree_add_uint(atree, hf_an_doorbell_in, tvb, 0, 0, txn->doorbell_frame);
		proto_item_set_generated(ti);
	} else if (txn->overtaken_in) {
		ti = proto_tree_add_boolean(atree, hf_an_unmatched, tvb, 0, 0, TRUE);
		proto_item_set_generated(ti);
		ti = proto_tree_add_uint(atree, hf_an_overtaken_in, tvb, 0, 0, txn->overtaken_in);
		proto_item_set_generated(ti);
		expert_add_info_format(pinfo, msg_item, &ei_txn_unmatched,
				       "Transaction %u unmatched: frame %u completed a newer "
				       "transaction into buffer %u before any doorbell",
				       txn->txn_id, txn->overtaken_in, txn->buffer);
	}
}

/*
 * After a message the analysis fed (first pass): tells the engine where the
 * sender's frame ended, and whether the snap length cut the message headers
 * after it (end: the offset after its data).
 */
static void dgrdma_snap_end(tvbuff_t *tvb, packet_info *pinfo, struct dgr_an_conn *conn,
			    struct dgr_an_frame *fr, const struct dgr_msg *m, guint end,
			    gboolean more)
{
	guint frame_len = tvb_reported_length(tvb);
	guint next =
	    DGR_FRAME_HDR_LEN +
	    ((end - DGR_FRAME_HDR_LEN + DGR_MSG_ALIGN - 1) / DGR_MSG_ALIGN) * DGR_MSG_ALIGN;

	if (!more) {
		dgr_an_snap_end(conn, fr, pinfo, m, 0, frame_len);
	} else if (tvb_captured_length(tvb) < frame_len &&
		   next + DGR_MSG_HDR_LEN > tvb_captured_length(tvb)) {
		dgr_an_snap_end(conn, fr, pinfo, m, next, frame_len);
	}
}

/*
 * Adds one message the codec decoded (dm, at offset; NULL when the decode
 * ended before it) to the tree, and to the analysis; returns the offset after
 * it, or -1 when the rest of the frame cannot be decoded. *analysable turns
 * FALSE at the first message a receiver refuses (dm->refusal: the engine's
 * rule, as in latency-report): the frame is decoded, not analysed.
 */
static int dgrdma_dissect_message(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, int offset,
				  guint index, const struct dgr_decoded_msg *dm,
				  struct dgr_an_conn *conn, struct dgr_an_frame *fr,
				  const struct dgr_an_event **queued, gboolean *more,
				  gboolean *analysable)
{
	guint frame_len = tvb_reported_length(tvb);
	const struct dgr_msg *m;
	const struct dgr_an_msg *an = NULL;
	gboolean is_doorbell;
	proto_tree *mtree;
	proto_item *mi;
	proto_item *ti;

	*more = FALSE;
	if (frame_len - (guint)offset < DGR_MSG_HDR_LEN) {
		mi = proto_tree_add_item(tree, hf_message, tvb, offset, -1, ENC_NA);
		expert_add_info_format(pinfo, mi, &ei_msg_hdr_trunc,
				       "Message header cut by the end of the frame: %u of %u bytes",
				       frame_len - (guint)offset, DGR_MSG_HDR_LEN);
		return -1;
	}
	if (!dm || dm->m.offset != (size_t)offset) {
		/* past the captured bytes: Wireshark's own exception, as reading it would raise */
		tvb_ensure_bytes_exist(tvb, offset, DGR_MSG_HDR_LEN);
		return -1;
	}
	m = &dm->m;

	/*
	 * The fields are added from the decoded values (the header is in the
	 * tvb): proto_tree_add_uint() costs two thirds of proto_tree_add_item(),
	 * which reads and decodes the bytes again.
	 */
	mi = proto_tree_add_item(tree, hf_message, tvb, offset, DGR_MSG_HDR_LEN, ENC_NA);
	mtree = proto_item_add_subtree(mi, ett_message);
	proto_tree_add_uint(mtree, hf_txnid, tvb, offset + DGR_MSG_OFF_TXN_ID, 4, m->txn_id);
	proto_tree_add_uint(mtree, hf_flagaddr, tvb, offset + DGR_MSG_OFF_FLAG_ADDR, 4,
			    m->flag_addr);
	dgrdma_add_flag_word(mtree, tvb, offset + DGR_MSG_OFF_FLAG_VALUE, m->flag_value,
			     m->flag_value != DGR_NO_FLAG && dgrdma_flag_fields_wanted(mtree));
	proto_tree_add_uint(mtree, hf_msgsintxn, tvb, offset + DGR_MSG_OFF_NUM_MSGS, 2,
			    m->num_msgs_in_txn);
	proto_tree_add_uint(mtree, hf_msgseq, tvb, offset + DGR_MSG_OFF_MSG_SEQ, 2, m->msg_seq);
	proto_tree_add_uint(mtree, hf_dataaddr, tvb, offset + DGR_MSG_OFF_DATA_ADDR, 4,
			    m->data_addr);
	proto_tree_add_uint(mtree, hf_datalen, tvb, offset + DGR_MSG_OFF_DATA_LEN, 2, m->data_len);
	ti = proto_tree_add_uint(mtree, hf_type, tvb, offset + DGR_MSG_OFF_TYPE, 1, m->msg_type);
	if (m->msg_type != 0) {
		expert_add_info_format(pinfo, ti, &ei_msg_type, "Unknown message type %u",
				       m->msg_type);
	}
	proto_tree_add_uint(mtree, hf_nextmsg, tvb, offset + DGR_MSG_OFF_NEXTMSG, 1,
			    m->has_nextmsg);
	is_doorbell = eng_is_doorbell(m);
	if (is_doorbell) {
		ti = proto_tree_add_boolean(mtree, hf_doorbell, tvb, offset, 0, TRUE);
		proto_item_set_generated(ti);
		col_append_fstr(pinfo->cinfo, COL_INFO, " Doorbell(%u)", m->txn_id);
	} else {
		col_append_fstr(pinfo->cinfo, COL_INFO, " Txn(%u %u/%u)", m->txn_id, m->msg_seq,
				dgr_msg_txn_parts(m));
	}
	if (dgrdma_tree_shown(tree)) {
		/* "Message 1: txn 5 fragment 1/8, 1024 bytes" or "... (doorbell, flag 0x...)" */
		struct dgrdma_label l = { .len = 0 };

		dgrdma_label_str(&l, "Message ");
		dgrdma_label_uint(&l, index + 1);
		dgrdma_label_str(&l, ": txn ");
		dgrdma_label_uint(&l, m->txn_id);
		if (is_doorbell) {
			dgrdma_label_str(&l, " (doorbell, flag ");
			dgrdma_label_hex32(&l, m->flag_addr);
			dgrdma_label_str(&l, ")");
		} else {
			dgrdma_label_str(&l, " fragment ");
			dgrdma_label_uint(&l, m->msg_seq);
			dgrdma_label_str(&l, "/");
			dgrdma_label_uint(&l, dgr_msg_txn_parts(m));
			dgrdma_label_str(&l, ", ");
			dgrdma_label_uint(&l, m->data_len);
			dgrdma_label_str(&l, " bytes");
		}
		proto_item_set_text(mi, "%s", l.text);
	}
	offset += DGR_MSG_HDR_LEN;
	if ((guint)offset + m->data_len > frame_len) {
		/* A receiver drops the message: no analysis. */
		ti = proto_tree_add_item(mtree, hf_payload, tvb, offset, -1, ENC_NA);
		expert_add_info_format(pinfo, ti, &ei_msg_past_end,
				       "Message data runs past the end of the frame: data_len %u, "
				       "%u bytes left",
				       m->data_len, frame_len - (guint)offset);
		return -1;
	}
	proto_item_set_len(mi, DGR_MSG_HDR_LEN + m->data_len);
	dgrdma_validate(pinfo, mi, m);
	/*
	 * What the codec refuses (the type, has_nextmsg, the padding after the
	 * data, dgr_msg_validate() with the memory size) is dropped by a receiver
	 * and ends the analysis of the frame, as in latency-report.
	 */
	if (dm->refusal) {
		*analysable = FALSE;
	}

	/*
	 * Analyse before adding the payload: in a capture cut by a snap length
	 * the payload item throws, but the header is complete and counts.
	 */
	if (pref_analyze && *analysable) {
		if (conn) {
			an = dgr_an_message(conn, fr, pinfo, m, is_doorbell);
			dgrdma_snap_end(tvb, pinfo, conn, fr, m, (guint)offset + m->data_len,
					m->has_nextmsg != 0);
		} else {
			an = dgr_an_frame_msg(fr, index);
		}
		dgr_an_queue_events(fr, pinfo, dgrdma_tap, queued);
		if (an) {
			dgrdma_add_msg_analysis(mtree, tvb, pinfo, mi, an);
		}
	}
	*more = m->has_nextmsg != 0;
	if (m->data_len) {
		proto_tree_add_item(mtree, hf_payload, tvb, offset, m->data_len, ENC_NA);
	}
	return offset + m->data_len;
}

/* Dissects one DG-RDMA frame filling tvb. Returns the bytes it used. */
static int dgrdma_dissect_frame(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
				proto_item *top)
{
	guint frame_len = tvb_reported_length(tvb);
	guint captured = tvb_captured_length(tvb);
	struct dgr_decoded_frame d;
	struct dgr_decoded_msg *msgs;
	unsigned int max_msgs;
	guint16 sender;
	guint16 receiver;
	guint16 frame_seq;
	guint16 ack_start;
	guint8 ack_count;
	guint8 flags;
	struct dgr_an_frame *fr = NULL;
	struct dgr_an_conn *conn = NULL;
	proto_item *seq_item;
	proto_item *ti;
	gboolean more;
	gboolean analysable = TRUE;
	guint index = 0;
	const struct dgr_an_event *queued = NULL;
	int offset;

	if (frame_len < DGR_FRAME_HDR_LEN) {
		proto_tree_add_expert_format(
		    tree, pinfo, &ei_frame_hdr_short, tvb, 0, -1,
		    "Frame shorter than the %u-byte frame header: %u bytes", DGR_FRAME_HDR_LEN,
		    frame_len);
		col_set_str(pinfo->cinfo, COL_INFO, "Malformed DG-RDMA frame header");
		return (int)frame_len;
	}
	/* a header the snap length cut: Wireshark's own exception, as reading it would raise */
	tvb_ensure_bytes_exist(tvb, 0, DGR_FRAME_HDR_LEN);
	/*
	 * The one decode of the frame (the codec's, with the engine's memory
	 * size: engine/msg_rules.h): the tree and the analysis are built from it.
	 */
	if (captured > frame_len) {
		captured = frame_len;
	}
	max_msgs = dgr_frame_max_msgs(captured);
	msgs = wmem_alloc_array(pinfo->pool, struct dgr_decoded_msg, max_msgs);
	dgr_frame_decode(&d, tvb_get_ptr(tvb, 0, (gint)captured), frame_len, captured,
			 pref_mem_size ? pref_mem_size : ENG_ADDR_SPACE, msgs, max_msgs);
	sender = pref_lua_field_order ? d.hdr.dst_id : d.hdr.src_id;
	receiver = pref_lua_field_order ? d.hdr.src_id : d.hdr.dst_id;
	frame_seq = d.hdr.frame_seq;
	ack_start = d.hdr.ack_start;
	ack_count = d.hdr.ack_count;
	flags = d.hdr.flags;

	/* from the decoded values: cheaper than proto_tree_add_item() (dgrdma_dissect_message()) */
	proto_tree_add_uint(tree, hf_src_id, tvb,
			    pref_lua_field_order ? DGR_FRAME_OFF_DST_ID : DGR_FRAME_OFF_SRC_ID, 2,
			    sender);
	proto_tree_add_uint(tree, hf_dst_id, tvb,
			    pref_lua_field_order ? DGR_FRAME_OFF_SRC_ID : DGR_FRAME_OFF_DST_ID, 2,
			    receiver);
	seq_item = proto_tree_add_uint(tree, hf_frameseq, tvb, DGR_FRAME_OFF_SEQ, 2, frame_seq);
	proto_tree_add_uint(tree, hf_ackstart, tvb, DGR_FRAME_OFF_ACK_START, 2, ack_start);
	proto_tree_add_uint(tree, hf_ackcount, tvb, DGR_FRAME_OFF_ACK_COUNT, 1, ack_count);
	ti = proto_tree_add_uint(tree, hf_flags, tvb, DGR_FRAME_OFF_FLAGS, 1, flags);
	if (flags != DGR_FRAME_FLAG_ACK_ONLY && flags != DGR_FRAME_FLAG_MSGS) {
		expert_add_info_format(pinfo, ti, &ei_frame_flags,
				       "Frame flags 0x%02x: expected 0 (ACK only) or 1 "
				       "(messages follow)",
				       flags);
	}
	if (dgrdma_tree_shown(tree)) {
		/* "OpenCPI DG-RDMA, 256 -> 1, Seq 5" */
		struct dgrdma_label l = { .len = 0 };

		dgrdma_label_str(&l,
				 proto_get_protocol_long_name(find_protocol_by_id(proto_dgrdma)));
		dgrdma_label_str(&l, ", ");
		dgrdma_label_uint(&l, sender);
		dgrdma_label_str(&l, " -> ");
		dgrdma_label_uint(&l, receiver);
		dgrdma_label_str(&l, ", Seq ");
		dgrdma_label_uint(&l, frame_seq);
		proto_item_set_text(top, "%s", l.text);
	}
	col_add_fstr(pinfo->cinfo, COL_INFO, "%u -> %u Seq=%u", sender, receiver, frame_seq);
	if (ack_count) {
		col_append_fstr(pinfo->cinfo, COL_INFO, " Ack=%u+%u", ack_start, ack_count);
	}
	if (flags == DGR_FRAME_FLAG_ACK_ONLY) {
		col_append_str(pinfo->cinfo, COL_INFO, " ACK only");
	}

	if (pref_analyze) {
		fr = dgr_an_frame_get(pinfo, sender, receiver, flags == DGR_FRAME_FLAG_MSGS, &conn);
		if (conn) {
			/*
			 * Every frame takes a frame_seq, ACK-only frames and frames a
			 * receiver rejects included: the sender numbered them all.
			 */
			dgr_an_frame_seq(conn, fr, pinfo, frame_seq);
		}
		if (flags > DGR_FRAME_FLAG_MSGS || (fr && fr->seq_status == DGR_AN_SEQ_DUPLICATE)) {
			/*
			 * A receiver rejects the whole frame (a bad flags byte; a
			 * frame_seq its duplicate filter has seen): decode it, analyse
			 * nothing more, as latency-report.
			 */
			conn = NULL;
		}
		if (conn) {
			dgr_an_frame_ack(conn, fr, pinfo, ack_start, ack_count);
		}
		if (conn && flags == DGR_FRAME_FLAG_ACK_ONLY &&
		    dgr_an_receiver_is_fpga(conn, fr, pref_host_sends_data)) {
			fr->ack_trap = (guint8)eng_ack_only_trap(pinfo->ptype == PT_UDP, frame_len);
		}
		if (fr && fr->ack_trap == ENG_ACK_TRAP_PADDING) {
			expert_add_info_format(
			    pinfo, ti, &ei_ack_only_to_fpga,
			    "ACK-only frame of %u bytes to an FPGA: its frame parser reads the "
			    "padding after the header as a frame 0; near the 16-bit frame_seq wrap "
			    "it "
			    "accepts it and drops the sender's real frame 0, and writes no flag "
			    "after "
			    "it (docs/protocol.md)",
			    frame_len);
		} else if (fr && fr->ack_trap == ENG_ACK_TRAP_TRUNCATED) {
			expert_add_info_format(pinfo, ti, &ei_ack_only_to_fpga,
					       "ACK-only frame of %u bytes over UDP to an FPGA: "
					       "its frame parser ignores "
					       "it as truncated, a frame_seq hole its window never "
					       "skips: 31 frames later "
					       "it rejects every frame (docs/protocol.md)",
					       frame_len);
		}
		if (conn && flags == DGR_FRAME_FLAG_MSGS && d.refusal) {
			/*
			 * The engine's frame rule, as in latency-report: a receiver drops
			 * a frame with one bad message whole, so none of its messages is
			 * analysed (a frame the snap length cut: up to its captured end).
			 */
			analysable = FALSE;
		}
	}

	offset = DGR_FRAME_HDR_LEN;
	more = flags != DGR_FRAME_FLAG_ACK_ONLY;
	while (more) {
		int aligned = DGR_FRAME_HDR_LEN +
			      (((offset - DGR_FRAME_HDR_LEN) + DGR_MSG_ALIGN - 1) / DGR_MSG_ALIGN) *
				  DGR_MSG_ALIGN;

		if (aligned > offset) {
			gint avail = MIN(aligned, (int)frame_len) - offset;

			ti = proto_tree_add_item(tree, hf_padding, tvb, offset, avail, ENC_NA);
			/* the decode checked these bytes: the previous message's gap */
			if (index > 0 && index <= d.nmsgs && msgs[index - 1].pad_nonzero) {
				expert_add_info(pinfo, ti, &ei_padding);
				analysable = FALSE;
			}
			if (aligned > (int)frame_len) {
				expert_add_info_format(pinfo, ti, &ei_msg_hdr_trunc,
						       "Message header cut by the end of the "
						       "frame: nothing after the padding");
				break;
			}
			offset = aligned;
		}
		offset = dgrdma_dissect_message(tvb, pinfo, tree, offset, index,
						index < d.nmsgs ? &msgs[index] : NULL, conn, fr,
						&queued, &more, &analysable);
		if (offset < 0) {
			offset = (int)frame_len;
			break;
		}
		index++;
	}

	if (fr) {
		if (fr->seq_status != DGR_AN_SEQ_NOT_TRACKED || fr->acked_in || fr->ack_found) {
			dgrdma_add_frame_analysis(tree, tvb, pinfo, fr, seq_item);
		}
		dgr_an_queue_events(fr, pinfo, dgrdma_tap, &queued);
	}
	return offset;
}

static int dissect_dgrdma_eth(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	proto_item *ti;
	proto_tree *dtree;
	int used;

	(void)data;
	col_set_str(pinfo->cinfo, COL_PROTOCOL, "DG-RDMA");
	col_clear(pinfo->cinfo, COL_INFO);
	ti = proto_tree_add_item(tree, proto_dgrdma, tvb, 0, -1, ENC_NA);
	dtree = proto_item_add_subtree(ti, ett_dgrdma);
	used = dgrdma_dissect_frame(tvb, pinfo, dtree, ti);
	proto_item_set_len(ti, used);
	return used;
}

static int dissect_dgrdma_udp(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	proto_item *ti;
	proto_tree *dtree;
	tvbuff_t *frame_tvb;
	guint8 pad[DGR_UDP_PAD_LEN];
	const guint8 *body;
	size_t body_len;

	/*
	 * The codec's pad rule (dgr_udp_demux): pad 0 carries DG-RDMA, 0xF040 DCP,
	 * any other pad neither (the stack drops it; latency-report counts it as
	 * another frame): not ours.
	 */
	if (tvb_captured_length(tvb) >= DGR_UDP_PAD_LEN) {
		int kind;

		tvb_memcpy(tvb, pad, 0, DGR_UDP_PAD_LEN);
		kind = dgr_udp_demux(pad, sizeof(pad), &body, &body_len);
		if (kind == DGR_UDP_UNKNOWN) {
			return 0;
		}
		if (kind == DGR_UDP_DCP && dcp_handle) {
			return DGR_UDP_PAD_LEN +
			       call_dissector(dcp_handle,
					      tvb_new_subset_remaining(tvb, DGR_UDP_PAD_LEN), pinfo,
					      tree);
		}
	}
	(void)data;
	col_set_str(pinfo->cinfo, COL_PROTOCOL, "DG-RDMA");
	col_clear(pinfo->cinfo, COL_INFO);
	ti = proto_tree_add_item(tree, proto_dgrdma, tvb, 0, -1, ENC_NA);
	dtree = proto_item_add_subtree(ti, ett_dgrdma);
	if (tvb_reported_length(tvb) < DGR_UDP_PAD_LEN) {
		proto_tree_add_expert(dtree, pinfo, &ei_udp_short, tvb, 0, -1);
		return (int)tvb_captured_length(tvb);
	}
	proto_tree_add_item(dtree, hf_udp_pad, tvb, 0, DGR_UDP_PAD_LEN, ENC_LITTLE_ENDIAN);
	frame_tvb = tvb_new_subset_remaining(tvb, DGR_UDP_PAD_LEN);
	return DGR_UDP_PAD_LEN + dgrdma_dissect_frame(frame_tvb, pinfo, dtree, ti);
}

/*
 * Heuristic for UDP on other ports (disabled by default): zero pad, frame
 * flags 0 or 1, and a first message header that is consistent.
 */
static gboolean dissect_dgrdma_heur(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	guint len = tvb_captured_length(tvb);
	const int f = DGR_UDP_PAD_LEN;
	guint8 flags;

	if (len < DGR_UDP_PAD_LEN + DGR_FRAME_HDR_LEN || tvb_get_letohs(tvb, 0) != 0) {
		return FALSE;
	}
	flags = tvb_get_guint8(tvb, f + DGR_FRAME_OFF_FLAGS);
	if (flags > DGR_FRAME_FLAG_MSGS) {
		return FALSE;
	}
	if (flags == DGR_FRAME_FLAG_ACK_ONLY) {
		if (len != DGR_UDP_PAD_LEN + DGR_FRAME_HDR_LEN) {
			return FALSE;
		}
	} else {
		const int mo = f + DGR_FRAME_HDR_LEN;
		guint16 num;
		guint16 seq;

		if (len < (guint)mo + DGR_MSG_HDR_LEN ||
		    tvb_get_guint8(tvb, mo + DGR_MSG_OFF_TYPE) != 0 ||
		    tvb_get_guint8(tvb, mo + DGR_MSG_OFF_NEXTMSG) > 1) {
			return FALSE;
		}
		num = tvb_get_letohs(tvb, mo + DGR_MSG_OFF_NUM_MSGS);
		seq = tvb_get_letohs(tvb, mo + DGR_MSG_OFF_MSG_SEQ);
		if (seq > num && !(num == 0 && seq <= 1)) {
			return FALSE;
		}
		if ((guint)mo + DGR_MSG_HDR_LEN + tvb_get_letohs(tvb, mo + DGR_MSG_OFF_DATA_LEN) >
		    tvb_reported_length(tvb)) {
			return FALSE;
		}
	}
	dissect_dgrdma_udp(tvb, pinfo, tree, data);
	return TRUE;
}

int dgrdma_proto_id(void)
{
	return proto_dgrdma;
}

gboolean dgrdma_analysis_enabled(void)
{
	return pref_analyze;
}

void dgrdma_add_analysis_tree(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo, proto_item *item,
			      const struct dgr_an_msg *an)
{
	dgrdma_add_msg_analysis(tree, tvb, pinfo, item, an);
}

int dgrdma_tap_id(void)
{
	return dgrdma_tap;
}

void proto_register_dgrdma(void)
{
	static hf_register_info hf[] = {
		{ &hf_udp_pad,
		  { "UDP pad", "dgrdma.udp_pad", FT_UINT16, BASE_HEX, NULL, 0x0,
		    "Two bytes before the frame in a UDP payload", HFILL } },
		{ &hf_src_id,
		  { "Source ID", "dgrdma.src_id", FT_UINT16, BASE_DEC, NULL, 0x0,
		    "Sender's endpoint id: offset 2, as OpenCPI's HDL and C++ driver (offset 0 "
		    "with the lua_field_order preference)",
		    HFILL } },
		{ &hf_dst_id,
		  { "Destination ID", "dgrdma.dst_id", FT_UINT16, BASE_DEC, NULL, 0x0,
		    "Receiver's endpoint id: offset 0, as OpenCPI's HDL and C++ driver (offset 2 "
		    "with the lua_field_order preference)",
		    HFILL } },
		{ &hf_frameseq,
		  { "Frame sequence", "dgrdma.frameseq", FT_UINT16, BASE_DEC, NULL, 0x0, NULL,
		    HFILL } },
		{ &hf_ackstart,
		  { "ACK start", "dgrdma.ackstart", FT_UINT16, BASE_DEC, NULL, 0x0,
		    "First frame_seq acknowledged", HFILL } },
		{ &hf_ackcount,
		  { "ACK count", "dgrdma.ackcount", FT_UINT8, BASE_DEC, NULL, 0x0,
		    "Number of consecutive frame_seqs acknowledged", HFILL } },
		{ &hf_flags,
		  { "Flags", "dgrdma.flags", FT_UINT8, BASE_HEX, VALS(frame_flags_vals), 0x0, NULL,
		    HFILL } },
		{ &hf_message,
		  { "Message", "dgrdma.message", FT_NONE, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_padding,
		  { "Alignment padding", "dgrdma.padding", FT_BYTES, BASE_NONE, NULL, 0x0,
		    "Zero bytes up to the next 8-byte boundary", HFILL } },
		{ &hf_txnid,
		  { "Transaction ID", "dgrdma.transactionid", FT_UINT32, BASE_DEC, NULL, 0x0, NULL,
		    HFILL } },
		{ &hf_flagaddr,
		  { "Flag address", "dgrdma.flagaddr", FT_UINT32, BASE_HEX, NULL, 0x0, NULL,
		    HFILL } },
		{ &hf_flagvalue,
		  { "Flag value", "dgrdma.flagvalue", FT_UINT32, BASE_HEX, NULL, 0x0, NULL,
		    HFILL } },
		{ &hf_flag_valid,
		  { "Valid", "dgrdma.flag.valid", FT_BOOLEAN, 32, NULL, DGR_FLAGW_VALID,
		    "Bit 0, always 1 in a flag word", HFILL } },
		{ &hf_flag_length,
		  { "Message length", "dgrdma.flag.length", FT_UINT32, BASE_DEC, NULL,
		    DGR_FLAGW_LEN_MASK << DGR_FLAGW_LEN_SHIFT, NULL, HFILL } },
		{ &hf_flag_eof,
		  { "EOF", "dgrdma.flag.eof", FT_BOOLEAN, 32, NULL, DGR_FLAGW_EOF, NULL, HFILL } },
		{ &hf_flag_truncated,
		  { "Truncated", "dgrdma.flag.truncated", FT_BOOLEAN, 32, NULL, DGR_FLAGW_TRUNC,
		    NULL, HFILL } },
		{ &hf_flag_opcode,
		  { "Opcode", "dgrdma.flag.opcode", FT_UINT32, BASE_DEC, VALS(opcode_vals),
		    0xFFu << DGR_FLAGW_OPCODE_SHIFT, "Opcode of the message in the buffer",
		    HFILL } },
		{ &hf_msgsintxn,
		  { "Messages in transaction", "dgrdma.msgsintransaction", FT_UINT16, BASE_DEC,
		    NULL, 0x0, "num_msgs_in_txn (0: flag-only)", HFILL } },
		{ &hf_msgseq,
		  { "Message sequence", "dgrdma.msgsequence", FT_UINT16, BASE_DEC, NULL, 0x0, NULL,
		    HFILL } },
		{ &hf_dataaddr,
		  { "Data address", "dgrdma.dataaddr", FT_UINT32, BASE_HEX, NULL, 0x0, NULL,
		    HFILL } },
		{ &hf_datalen,
		  { "Data length", "dgrdma.datalen", FT_UINT16, BASE_DEC, NULL, 0x0, NULL,
		    HFILL } },
		{ &hf_type,
		  { "Message type", "dgrdma.type", FT_UINT8, BASE_DEC, VALS(msg_type_vals), 0x0,
		    NULL, HFILL } },
		{ &hf_nextmsg,
		  { "Next message", "dgrdma.nextmsg", FT_UINT8, BASE_DEC, NULL, 0x0,
		    "1 if another message follows in this frame", HFILL } },
		{ &hf_payload,
		  { "Payload", "dgrdma.payload", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_doorbell,
		  { "Doorbell", "dgrdma.doorbell", FT_BOOLEAN, BASE_NONE, NULL, 0x0,
		    "Flag-only transaction (num_msgs_in_txn 0, data_len 0) whose flag word is only "
		    "'valid' (opcode 0, length 0)",
		    HFILL } },
		{ &hf_an,
		  { "Analysis", "dgrdma.analysis", FT_NONE, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_an_seq_first,
		  { "First frame of this sender", "dgrdma.analysis.seq_first", FT_BOOLEAN,
		    BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_an_seq_gap,
		  { "Frames missing before this one", "dgrdma.analysis.seq_gap", FT_UINT32,
		    BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_an_duplicate_of,
		  { "Duplicate of frame", "dgrdma.analysis.duplicate_of", FT_FRAMENUM, BASE_NONE,
		    FRAMENUM_TYPE(FT_FRAMENUM_DUP_ACK), 0x0, NULL, HFILL } },
		{ &hf_an_seq_late,
		  { "Late frame (after a higher frame_seq)", "dgrdma.analysis.seq_late", FT_BOOLEAN,
		    BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_an_acked_in,
		  { "Acknowledged in frame", "dgrdma.analysis.acked_in", FT_FRAMENUM, BASE_NONE,
		    FRAMENUM_TYPE(FT_FRAMENUM_ACK), 0x0, NULL, HFILL } },
		{ &hf_an_acks_found,
		  { "Frames acknowledged (seen in capture)", "dgrdma.analysis.acks_found",
		    FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_an_acks_first,
		  { "First frame acknowledged", "dgrdma.analysis.acks_first", FT_FRAMENUM,
		    BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_an_acks_last,
		  { "Last frame acknowledged", "dgrdma.analysis.acks_last", FT_FRAMENUM, BASE_NONE,
		    NULL, 0x0, NULL, HFILL } },
		{ &hf_an_txn_first,
		  { "Transaction started in frame", "dgrdma.analysis.txn_first", FT_FRAMENUM,
		    BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_an_txn_complete_in,
		  { "Transaction completed in frame", "dgrdma.analysis.txn_complete_in",
		    FT_FRAMENUM, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_an_txn_fragments,
		  { "Fragments seen", "dgrdma.analysis.txn_fragments", FT_UINT16, BASE_DEC, NULL,
		    0x0, NULL, HFILL } },
		{ &hf_an_txn_missing,
		  { "Fragments missing", "dgrdma.analysis.txn_missing", FT_UINT16, BASE_DEC, NULL,
		    0x0, NULL, HFILL } },
		{ &hf_an_txn_bytes,
		  { "Transaction bytes", "dgrdma.analysis.txn_bytes", FT_UINT32, BASE_DEC, NULL,
		    0x0, NULL, HFILL } },
		{ &hf_an_buffer,
		  { "Consumer buffer", "dgrdma.analysis.buffer", FT_UINT32, BASE_DEC, NULL, 0x0,
		    "Rank of the flag address among this sender's data flag addresses", HFILL } },
		{ &hf_an_doorbell_in,
		  { "Doorbell in frame", "dgrdma.analysis.doorbell_in", FT_FRAMENUM, BASE_NONE,
		    FRAMENUM_TYPE(FT_FRAMENUM_RESPONSE), 0x0, NULL, HFILL } },
		{ &hf_an_unmatched,
		  { "Unmatched (overtaken before its doorbell)", "dgrdma.analysis.unmatched",
		    FT_BOOLEAN, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_an_overtaken_in,
		  { "Overtaken in frame", "dgrdma.analysis.overtaken_in", FT_FRAMENUM, BASE_NONE,
		    NULL, 0x0, NULL, HFILL } },
		{ &hf_an_duplicate_fragment,
		  { "Duplicate fragment", "dgrdma.analysis.duplicate_fragment", FT_BOOLEAN,
		    BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_an_doorbell_buffer,
		  { "Doorbell buffer", "dgrdma.analysis.doorbell_buffer", FT_UINT32, BASE_DEC, NULL,
		    0x0, "Rank of the flag address among this sender's doorbell flag addresses",
		    HFILL } },
		{ &hf_an_doorbell_for,
		  { "Doorbell for frame", "dgrdma.analysis.doorbell_for", FT_FRAMENUM, BASE_NONE,
		    FRAMENUM_TYPE(FT_FRAMENUM_REQUEST), 0x0,
		    "Frame that completed the transaction this doorbell answers", HFILL } },
		{ &hf_an_doorbell_txn,
		  { "Doorbell for transaction", "dgrdma.analysis.doorbell_txn", FT_UINT32, BASE_DEC,
		    NULL, 0x0, NULL, HFILL } },
		{ &hf_an_doorbell_latency,
		  { "Doorbell latency", "dgrdma.analysis.doorbell_latency", FT_RELATIVE_TIME,
		    BASE_NONE, NULL, 0x0,
		    "Time from the frame completing the transaction to this doorbell", HFILL } },
		{ &hf_an_doorbell_late,
		  { "Late doorbell (above the tolerable latency)", "dgrdma.analysis.doorbell_late",
		    FT_BOOLEAN, BASE_NONE, NULL, 0x0,
		    "The doorbell latency is above the tolerable latency preference", HFILL } },
		{ &hf_an_orphan,
		  { "Orphan doorbell", "dgrdma.analysis.orphan", FT_BOOLEAN, BASE_NONE, NULL, 0x0,
		    "No complete, unanswered transaction was waiting for this doorbell", HFILL } },
		{ &hf_an_no_connection,
		  { "DCP doorbell without a DG-RDMA connection", "dgrdma.analysis.no_connection",
		    FT_BOOLEAN, BASE_NONE, NULL, 0x0,
		    "No connection has sent data from this DCP write's destination to its source "
		    "(latency-report: dcp.doorbells_without_connection)",
		    HFILL } },
	};
	static gint *ett[] = {
		&ett_dgrdma, &ett_message, &ett_flag, &ett_analysis, &ett_frame_analysis,
	};
	static ei_register_info ei[] = {
		{ &ei_frame_hdr_short,
		  { "dgrdma.expert.malformed.frame_header", PI_MALFORMED, PI_ERROR,
		    "Frame shorter than the DG-RDMA frame header", EXPFILL } },
		{ &ei_frame_flags,
		  { "dgrdma.expert.malformed.frame_flags", PI_MALFORMED, PI_ERROR,
		    "Frame flags not 0 (ACK only) or 1 (messages follow)", EXPFILL } },
		{ &ei_udp_short,
		  { "dgrdma.expert.malformed.udp_pad", PI_MALFORMED, PI_ERROR,
		    "UDP payload shorter than the 2-byte pad", EXPFILL } },
		{ &ei_msg_hdr_trunc,
		  { "dgrdma.expert.malformed.message_header", PI_MALFORMED, PI_ERROR,
		    "Message header cut by the end of the frame", EXPFILL } },
		{ &ei_msg_past_end,
		  { "dgrdma.expert.malformed.past_end", PI_MALFORMED, PI_ERROR,
		    "Message data runs past the end of the frame", EXPFILL } },
		{ &ei_padding,
		  { "dgrdma.expert.malformed.padding", PI_MALFORMED, PI_WARN,
		    "Alignment padding between messages is not zero", EXPFILL } },
		{ &ei_align,
		  { "dgrdma.alignment", PI_PROTOCOL, PI_WARN,
		    "Address or fragment length breaks the alignment rules", EXPFILL } },
		{ &ei_msg_type,
		  { "dgrdma.unknown_type", PI_PROTOCOL, PI_WARN, "Unknown message type",
		    EXPFILL } },
		{ &ei_num_msgs,
		  { "dgrdma.num_msgs", PI_PROTOCOL, PI_WARN,
		    "num_msgs_in_txn and msg_seq are inconsistent", EXPFILL } },
		{ &ei_flag_word,
		  { "dgrdma.flag_word", PI_PROTOCOL, PI_WARN,
		    "Flag value without bit 0 (valid) set", EXPFILL } },
		{ &ei_addr_range,
		  { "dgrdma.address_range", PI_PROTOCOL, PI_WARN,
		    "Data or flag address beyond the buffer memory size", EXPFILL } },
		{ &ei_seq_gap,
		  { "dgrdma.expert.seq_gap", PI_SEQUENCE, PI_WARN, "Frame sequence gap",
		    EXPFILL } },
		{ &ei_seq_dup,
		  { "dgrdma.expert.seq_duplicate", PI_SEQUENCE, PI_WARN, "Duplicate frame_seq",
		    EXPFILL } },
		{ &ei_seq_late,
		  { "dgrdma.expert.seq_late", PI_SEQUENCE, PI_NOTE,
		    "Frame arrived after a higher frame_seq (retransmission or reordering)",
		    EXPFILL } },
		{ &ei_txn_incomplete,
		  { "dgrdma.expert.txn_incomplete", PI_SEQUENCE, PI_WARN,
		    "Transaction never completed", EXPFILL } },
		{ &ei_txn_unmatched,
		  { "dgrdma.expert.txn_unmatched", PI_SEQUENCE, PI_WARN,
		    "Transaction overtaken by a newer one into the same buffer before any doorbell",
		    EXPFILL } },
		{ &ei_txn_inconsistent,
		  { "dgrdma.expert.txn_inconsistent", PI_PROTOCOL, PI_WARN,
		    "Fragment disagrees with earlier fragments of its transaction "
		    "(num_msgs_in_txn, "
		    "msg_seq or flag); a receiver drops it",
		    EXPFILL } },
		{ &ei_dup_fragment,
		  { "dgrdma.expert.duplicate_fragment", PI_SEQUENCE, PI_NOTE,
		    "Fragment already seen for this transaction", EXPFILL } },
		{ &ei_doorbell_orphan,
		  { "dgrdma.expert.doorbell_orphan", PI_SEQUENCE, PI_WARN,
		    "Doorbell with no visible transaction waiting for it", EXPFILL } },
		{ &ei_doorbell_late,
		  { "dgrdma.expert.doorbell_late", PI_SEQUENCE, PI_WARN,
		    "Late doorbell: latency above the tolerable latency", EXPFILL } },
		{ &ei_doorbell_no_connection,
		  { "dgrdma.expert.doorbell_no_connection", PI_SEQUENCE, PI_WARN,
		    "DCP doorbell with no DG-RDMA connection whose data it could answer",
		    EXPFILL } },
		{ &ei_ack_only_to_fpga,
		  { "dgrdma.expert.ack_only_to_fpga", PI_PROTOCOL, PI_WARN,
		    "ACK-only frame to an FPGA: its frame parser misreads it", EXPFILL } },
	};
	module_t *module;
	expert_module_t *expert;

	proto_dgrdma = proto_register_protocol("OpenCPI DG-RDMA", "DG-RDMA", "dgrdma");
	dgr_an_proto = proto_dgrdma;
	proto_register_field_array(proto_dgrdma, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
	expert = expert_register_protocol(proto_dgrdma);
	expert_register_field_array(expert, ei, array_length(ei));

	module = prefs_register_protocol(proto_dgrdma, NULL);
	prefs_register_bool_preference(
	    module, "lua_field_order", "Offset 0 is the sender (the Lua dissector's order)",
	    "Read offset 0 as src_id and offset 2 as dst_id, as the public Lua dissector does. "
	    "Default: OpenCPI's HDL and C++ driver, offset 0 dst_id (the receiver), offset 2 "
	    "src_id (the sender).",
	    &pref_lua_field_order);
	prefs_register_obsolete_preference(module, "offset0_is_destination");
	prefs_register_uint_preference(
	    module, "buffer_memory_size", "Receiver buffer memory size (bytes)",
	    "Flag data_addr + data_len or flag_addr + 4 beyond this size. 0 disables the check.",
	    10, &pref_mem_size);
	prefs_register_bool_preference(
	    module, "strict_fragment_lengths", "Check FPGA fragment lengths",
	    "Non-final fragments must carry a multiple of 16 bytes, final ones a multiple of 4.",
	    &pref_strict_lengths);
	prefs_register_bool_preference(
	    module, "analyze", "Analyze sequences, transactions and doorbells",
	    "Track frame_seq, transaction state and doorbell latency (dgrdma.analysis.*).",
	    &pref_analyze);
	prefs_register_bool_preference(
	    module, "host_sends_data", "The host sends the data (TX path)",
	    "Which side is the FPGA, for the warning on ACK-only frames sent to one: by default "
	    "the side that sends data transactions (the RX path, as latency-report --path rx); "
	    "checked, the side that sends doorbells (--path tx).",
	    &pref_host_sends_data);
	prefs_register_uint_preference(
	    module, "reasm_timeout", "Give up incomplete transactions after (ms)",
	    "An incomplete transaction whose first fragment is older than this (capture time) "
	    "is given up as never completed, as latency-report --reasm-timeout does "
	    "(default 1000; 0: never).",
	    10, &dgr_an_reasm_timeout_ms);
	prefs_register_uint_preference(
	    module, "tolerable_latency", "Tolerable doorbell latency (us)",
	    "A doorbell later than this is late (dgrdma.analysis.doorbell_late, an expert "
	    "warning): the time the host and FPGA buffers cover at the stream's rate, "
	    "latency-report's tolerable latency. 0: no judgement (default).",
	    10, &pref_tolerable_latency_us);

	dgrdma_tap = register_tap("dgrdma");
	dgrdma_eth_handle = register_dissector("dgrdma.eth", dissect_dgrdma_eth, proto_dgrdma);
	dgrdma_udp_handle = register_dissector("dgrdma.udp", dissect_dgrdma_udp, proto_dgrdma);
	dgrdma_register_latency_tap();
}

void proto_reg_handoff_dgrdma(void)
{
	dissector_add_uint("ethertype", DGR_ETHERTYPE_DGRDMA, dgrdma_eth_handle);
	dcp_handle = find_dissector("dcp");
	dissector_add_uint_with_preference("udp.port", DGR_UDP_PORT, dgrdma_udp_handle);
	heur_dissector_add("udp", dissect_dgrdma_heur, "DG-RDMA over UDP (any port)", "dgrdma_udp",
			   proto_dgrdma, HEURISTIC_DISABLE);
}
