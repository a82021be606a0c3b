/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DG-RDMA analysis inside Wireshark: per connection and direction, frame
 * sequence tracking (gaps, duplicates, ACK coverage), transaction state
 * (fragments seen, completing frame) and doorbell matching, the same rule as
 * latency-report (see docs/dissector.md, "Doorbell matching").
 *
 * Everything is computed once, on the first pass over a capture, and stored
 * in file-scoped structures that later passes only read, so random access in
 * the GUI shows the same values. Fields that point forward (the doorbell of
 * a transaction, the frame that acknowledged this one) are complete from the
 * second pass on (tshark -2, or any GUI redisplay).
 */
#ifndef DGRDMA_DOORBELL_ANALYSIS_H
#define DGRDMA_DOORBELL_ANALYSIS_H

#include <epan/packet.h>
#include <epan/wmem_scopes.h>

#include <dgrdma/wire.h>

/*
 * What the analysis shows about a transaction sent by one endpoint to the
 * other. Which fragments arrived is the project's reassembler's job
 * (stack/src/reassembly.c); this record keeps its verdicts per txn_id for the
 * whole capture, so that fields can point forward and a fragment arriving after
 * completion is recognised as a duplicate.
 */
struct dgr_an_txn {
	guint32 txn_id;
	guint32 flag_addr;
	guint32 flag_value;
	guint16 num_msgs;  /* num_msgs_in_txn of the first fragment accepted */
	guint16 msgs_seen; /* distinct fragments accepted by the reassembler */
	guint32 bytes;	   /* data bytes of the distinct fragments */
	gboolean given_up; /* given up while incomplete (analysis/engine/reasm_feed.h) */
	guint32 first_frame;
	guint32 complete_frame; /* 0 while incomplete */
	nstime_t complete_ts;
	guint32 buffer;		/* rank of flag_addr among the data flag addresses */
	guint32 doorbell_frame; /* frame whose doorbell answered it; 0 none */
	nstime_t doorbell_latency;
	guint32 overtaken_in; /* unmatched: frame completing the newer txn */
};

/*
 * What the analysis concluded about one message of a frame. One is kept per
 * message for the whole capture: one-bit flags keep it at 24 bytes.
 */
struct dgr_an_msg {
	struct dgr_an_txn *txn;		 /* data or flag-only message with a flag: its txn */
	struct dgr_an_txn *answers;	 /* doorbell: the transaction it answers; NULL: orphan */
	guint32 doorbell_buffer;	 /* rank of the doorbell flag address */
	unsigned completes : 1;		 /* this fragment completed txn */
	unsigned duplicate_fragment : 1; /* msg_seq of txn already seen */
	unsigned inconsistent : 1;	 /* num_msgs/flag fields disagree with earlier fragments */
	unsigned is_doorbell : 1;
	unsigned
	    no_connection : 1; /* DCP doorbell: no connection's data could be what it answers */
};

enum dgr_an_seq_status {
	DGR_AN_SEQ_NOT_TRACKED = 0, /* ACK-only frame, or DCP */
	DGR_AN_SEQ_FIRST,
	DGR_AN_SEQ_NEXT,
	DGR_AN_SEQ_GAP,
	DGR_AN_SEQ_DUPLICATE,
	DGR_AN_SEQ_LATE, /* lower than the highest seen but not seen before */
};

/* Events for the dgrdma tap, decided on the first pass and replayed on retaps. */
enum dgr_an_event_kind {
	DGR_AN_EV_TXN_COMPLETE,
	DGR_AN_EV_DOORBELL,
	DGR_AN_EV_UNMATCHED,
	DGR_AN_EV_ORPHAN,
	/* a DCP doorbell no connection's data could be what it answers (latency-report's
	 * dcp.doorbells_without_connection): no connection, so no orphan of one */
	DGR_AN_EV_DCP_NO_CONN,
};

/* Allocated one by one and never moved: the tap holds pointers to them. */
struct dgr_an_event {
	enum dgr_an_event_kind kind;
	const char *conn_label;	   /* the data direction, "A -> B" (file scope) */
	nstime_t latency;	   /* DGR_AN_EV_DOORBELL */
	struct dgr_an_event *next; /* the frame's next event */
};

/*
 * Per frame, stored with p_add_proto_data and kept for the whole capture
 * (random access in the GUI): 88 bytes on 64-bit. Most frames of a stream carry one
 * fragment and no event, so events are a list (NULL for most) and only the
 * first message's result is inline.
 */
struct dgr_an_frame {
	guint32 frame;	   /* this frame's number */
	guint8 dir;	   /* 0/1: which side of its connection sent it (conn_table.h) */
	guint8 seq_status; /* enum dgr_an_seq_status */
	guint8 ack_trap;   /* ACK-only to an FPGA: enum eng_ack_trap (msg_rules.h), else 0 */
	guint32 dup_of;	   /* DUPLICATE: first frame with this frame_seq */
	guint32 gap;	   /* GAP: number of frame_seqs missing before this one */
	guint32 acked_in;  /* first frame of the peer that acknowledged this frame */
	guint32 ack_first; /* frames (of the peer) covered by this frame's ACK */
	guint32 ack_last;
	guint32 ack_found; /* how many of ack_count were seen in the capture */
	guint32 nmsgs;	   /* results per message, in order */
	const char *conn_label;
	struct dgr_an_msg msg0;
	wmem_array_t *more_msgs;     /* struct dgr_an_msg, messages 2.. (NULL until needed) */
	struct dgr_an_event *events; /* NULL: none */
};

struct dgr_an_conn;

/*
 * Returns the analysis record of this DG-RDMA frame, creating it (and its
 * connection) on the first pass, when *conn is also set (NULL on later
 * passes: nothing may be changed then). ids are the frame header's sender
 * and receiver ids; carries_msgs: its flags say messages follow. Returns NULL
 * for a frame a first pass never reached or could not analyse (no memory, or
 * a connection beyond the engine's ENG_MAX_CONNS, which latency-report does
 * not analyse either).
 */
struct dgr_an_frame *dgr_an_frame_get(packet_info *pinfo, guint16 sender_id, guint16 receiver_id,
				      gboolean carries_msgs, struct dgr_an_conn **conn);

/* First pass only: frame sequence and ACK analysis of a frame that carries messages. */
void dgr_an_frame_seq(struct dgr_an_conn *conn, struct dgr_an_frame *fr, packet_info *pinfo,
		      guint16 frame_seq);

/*
 * First pass only: whether the receiver of this frame is taken for an FPGA.
 * As latency-report without --host or DCP: on the RX path (host_sends_data
 * FALSE, the default) the FPGA is the side that has sent data transactions
 * and its peer not; on the TX path the side whose peer has. FALSE while
 * neither side has sent data.
 */
gboolean dgr_an_receiver_is_fpga(const struct dgr_an_conn *conn, const struct dgr_an_frame *fr,
				 gboolean host_sends_data);

/* First pass only: the ACK fields of a frame (any frame, ACK-only included). */
void dgr_an_frame_ack(struct dgr_an_conn *conn, struct dgr_an_frame *fr, packet_info *pinfo,
		      guint16 ack_start, guint8 ack_count);

/*
 * First pass only: feeds one message the codec decoded (dgr_frame_decode():
 * the same decode the tree is built from), is_doorbell by the engine's rule
 * (eng_is_doorbell()): transaction state, doorbell matching; appends its
 * result to the frame's. Returns the result.
 */
const struct dgr_an_msg *dgr_an_message(struct dgr_an_conn *conn, struct dgr_an_frame *fr,
					packet_info *pinfo, const struct dgr_msg *m,
					gboolean is_doorbell);

/*
 * First pass only: the end of fr's messages the analysis saw; last is the last
 * one, cut_at the offset of the first message header beyond the captured
 * bytes (0: none), frame_len the frame's length on the wire (snap_cut.h).
 */
void dgr_an_snap_end(struct dgr_an_conn *conn, struct dgr_an_frame *fr, packet_info *pinfo,
		     const struct dgr_msg *last, guint cut_at, guint frame_len);

/*
 * First pass only: a DCP property write recognised as a doorbell; identity
 * plays the part of the flag address (the written buffer index when the
 * doorbell range is one property, else the address). The connection is the most recent one whose
 * data flowed towards the sender of this DCP frame. Returns the result, stored in the DCP frame's
 * own analysis record (created here).
 */
const struct dgr_an_msg *dgr_an_dcp_doorbell(packet_info *pinfo, guint32 identity);

/* The stored result of message index i of a frame, or NULL. */
const struct dgr_an_msg *dgr_an_frame_msg(const struct dgr_an_frame *fr, guint i);

/* The stored DCP doorbell result of this frame (any pass), or NULL. */
const struct dgr_an_msg *dgr_an_dcp_doorbell_result(packet_info *pinfo);

/* The analysis record of a DCP frame that carried a doorbell, or NULL. */
const struct dgr_an_frame *dgr_an_dcp_frame(packet_info *pinfo);

/*
 * Queues the frame's stored events after *last (the last one queued; NULL:
 * none yet) to the dgrdma tap and sets *last to the frame's last event.
 * Called after each message, so that an exception later in the frame (a
 * capture cut by a snap length) loses no event.
 */
void dgr_an_queue_events(const struct dgr_an_frame *fr, packet_info *pinfo, int tap,
			 const struct dgr_an_event **last);

/* The protocol id under which analysis state is stored (set by packet-dgrdma.c). */
extern int dgr_an_proto;

/* Incomplete transactions are given up after this much capture time (0: never). */
extern guint dgr_an_reasm_timeout_ms;

#endif
