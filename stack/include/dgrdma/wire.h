/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The DG-RDMA wire codec: frame headers, message headers, the flag word,
 * fragmentation of transactions into MTU-sized frames, and UDP framing.
 *
 * One codec for the whole project: the host stack, the FPGA emulator and the
 * analysis tools all decode and encode with these functions.
 *
 * Conventions (as in libpcap):
 *  - functions return 0 (or a count) on success and a negative DGR_E_* code
 *    on failure;
 *  - where an errbuf is taken it must hold DGR_ERRBUF_SIZE bytes (or be NULL);
 *    on failure it receives a one-line description with offsets;
 *  - nothing here allocates memory or reads outside the buffer it is given.
 */
#ifndef DGRDMA_WIRE_H
#define DGRDMA_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include <dgrdma/proto.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DGR_ERRBUF_SIZE 256

/* Error codes, negative on return. dgr_strerror() names each. */
enum dgr_error {
	DGR_OK = 0,
	DGR_E_INVAL = 1,	   /* bad argument from the caller */
	DGR_E_TRUNC_FRAME_HDR = 2, /* fewer than 10 bytes */
	DGR_E_TRUNC_MSG_HDR = 3,   /* a message header is cut by the end of the frame */
	DGR_E_MSG_PAST_END = 4,	   /* message data runs past the end of the frame */
	DGR_E_PADDING = 5,	   /* alignment gap between messages is not zero */
	DGR_E_ALIGN = 6,	   /* address or fragment length breaks the alignment rules */
	DGR_E_NUM_MSGS = 7,	   /* num_msgs_in_txn/msg_seq inconsistent */
	DGR_E_ADDR_RANGE = 8,	   /* data or flag address outside receiver memory */
	DGR_E_FLAG_WORD = 9,	   /* flag value without its valid bit */
	DGR_E_MSG_TYPE = 10,	   /* unknown message type */
	DGR_E_FRAME_FLAGS = 11,	   /* frame flags byte not 0 or 1 */
	DGR_E_NOSPACE = 12,	   /* encoder: does not fit in the frame/MTU */
	DGR_E_TOO_LONG = 13,	   /* length beyond what the protocol can express */
	DGR_E_UDP_SHORT = 14,	   /* UDP payload shorter than the 2-byte pad */
	DGR_E_DCP_SHORT = 15,	   /* DCP packet shorter than its header/type needs */
	DGR_E_DCP_LENGTH = 16,	   /* DCP length field disagrees with the packet */
	DGR_E_DCP_TYPE = 17,	   /* DCP type/length combination unknown */
	DGR_E_SYS = 18,		   /* operating system error; errbuf has errno text */
	DGR_E_PERM = 19,	   /* missing privilege; errbuf names capability and fix */
	DGR_E_TIMEOUT = 20,	   /* no answer in time */
	DGR_E_NOMEM = 21,	   /* allocation failed (set-up paths only) */
	DGR_E_STATE = 22,	   /* call not valid in the current state */
	DGR_E__COUNT
};

/*
 * Returns a short constant name for a DGR_E_* code (positive or negative),
 * e.g. "message past end of frame". Never NULL.
 */
const char *dgr_strerror(int err);

/*
 * Writes a message into errbuf (DGR_ERRBUF_SIZE bytes; nothing when errbuf
 * is NULL). Returns -code: `return dgr_errbuf_set(errbuf, DGR_E_INVAL, ...)`.
 */
int dgr_errbuf_set(char *errbuf, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Returns a stable identifier for a DGR_E_* code, e.g. "msg_past_end", for
 * counters, JSON and tracepoints. Never NULL.
 */
const char *dgr_error_id(int err);

/*
 * Decoded frame header. Field order and names as OpenCPI's HDL and C++ driver:
 * dst_id at offset 0 (the receiver's id: the FPGA's remote_dst_id on its
 * frames), src_id at offset 2 (the sender's: its local_src_id). The public Lua
 * dissector reads the same two words the other way round (docs/protocol.md).
 */
struct dgr_frame_hdr {
	uint16_t dst_id;
	uint16_t src_id;
	uint16_t frame_seq;
	uint16_t ack_start;
	uint8_t ack_count;
	uint8_t flags;
};

/* Decoded message header plus a pointer to its data inside the frame. */
struct dgr_msg {
	uint32_t txn_id;
	uint32_t flag_addr;
	uint32_t flag_value;
	uint16_t num_msgs_in_txn;
	uint16_t msg_seq;
	uint32_t data_addr;
	uint16_t data_len;
	uint8_t msg_type;
	uint8_t has_nextmsg;
	const uint8_t *data; /* data_len bytes, inside the frame buffer */
	size_t offset;	     /* offset of the message header in the frame */
};

/* Cursor over the messages of one received frame. */
struct dgr_frame {
	struct dgr_frame_hdr hdr;
	const uint8_t *buf;
	size_t len;
	size_t next_off; /* offset of the next message header; 0 when no more */
	unsigned int msg_count;
};

/*
 * Parses the 10-byte frame header of buf[0..len) and prepares a cursor over
 * its messages. Bytes after the last message (Ethernet minimum-size padding)
 * are ignored.
 * Returns 0, or -DGR_E_TRUNC_FRAME_HDR / -DGR_E_FRAME_FLAGS.
 */
int dgr_frame_parse(struct dgr_frame *f, const uint8_t *buf, size_t len, char *errbuf);

/*
 * Decodes the next message of a parsed frame into *m.
 * Returns 1 when a message was decoded, 0 when there are no more, or a
 * negative code: -DGR_E_TRUNC_MSG_HDR, -DGR_E_MSG_PAST_END, -DGR_E_PADDING,
 * -DGR_E_MSG_TYPE. After an error the cursor is exhausted (the rest of the
 * frame cannot be trusted).
 */
int dgr_frame_next_msg(struct dgr_frame *f, struct dgr_msg *m, char *errbuf);

/*
 * Checks the rules a receiver enforces on one message: msg_seq within
 * num_msgs_in_txn, a flag-only message carries no data, word-aligned
 * addresses, fragment lengths (non-final a multiple of 16, final of 4) when
 * strict_lengths is set, a flag word with its valid bit, and, when mem_size
 * is not 0, data_addr + data_len and flag_addr + 4 within [0, mem_size).
 * Returns 0, or -DGR_E_NUM_MSGS, -DGR_E_ALIGN, -DGR_E_FLAG_WORD,
 * -DGR_E_ADDR_RANGE.
 */
int dgr_msg_validate(const struct dgr_msg *m, uint64_t mem_size, bool strict_lengths, char *errbuf);

/*
 * A frame decoded once (dgr_frame_decode()): its header and every message,
 * each with where it starts and whether a receiver takes it, so that a
 * dissector builds its tree and its analysis from one decode.
 */
struct dgr_decoded_msg {
	struct dgr_msg m; /* header fields; m.offset its offset; m.data inside the buffer */
	int refusal;	  /* 0, or why a receiver drops it: a negative DGR_E_* code */
	bool pad_nonzero; /* the alignment gap after its data (captured bytes) is not zero */
};

/* Why a decode stopped after its last message (struct dgr_decoded_frame). */
enum dgr_decode_end {
	DGR_DECODE_END_LAST = 0,   /* the last message said no more (or an ACK-only frame) */
	DGR_DECODE_END_TRUNC_HDR,  /* the next header at end_off is cut by the frame's end */
	DGR_DECODE_END_PAST_END,   /* the last message's data runs past the frame's end */
	DGR_DECODE_END_SNAP_CUT,   /* the next header at end_off is past the captured bytes */
	DGR_DECODE_END_NO_ROOM,	   /* more messages than msgs[] holds */
	DGR_DECODE_END_NO_HEADER,  /* no frame header: fewer than 10 bytes (hdr_err) */
	DGR_DECODE_END_HEADER_CUT, /* the frame header is past the captured bytes */
};

struct dgr_decoded_frame {
	struct dgr_frame_hdr hdr;
	int hdr_err;		      /* 0, -DGR_E_TRUNC_FRAME_HDR or -DGR_E_FRAME_FLAGS */
	size_t len;		      /* the frame's length on the wire */
	size_t captured;	      /* the bytes the buffer holds (<= len) */
	struct dgr_decoded_msg *msgs; /* the caller's array */
	unsigned int nmsgs;	      /* messages decoded into msgs[] */
	enum dgr_decode_end end;      /* why the decode stopped */
	size_t end_off;		      /* TRUNC_HDR, SNAP_CUT: where the next header starts */
	int refusal; /* the frame's: 0 when a receiver takes it (what the capture holds of it) */
};

/* The most messages a frame of len bytes can hold: the size of dgr_frame_decode()'s msgs[]. */
static inline unsigned int dgr_frame_max_msgs(size_t len)
{
	return len < DGR_FRAME_HDR_LEN + DGR_MSG_HDR_LEN
		   ? 1u
		   : (unsigned int)((len - DGR_FRAME_HDR_LEN) / DGR_MSG_HDR_LEN);
}

/*
 * Decodes a frame of len bytes on the wire, of which buf holds the first
 * captured (a capture cut by its snap length holds fewer), into *d: its
 * header, and every message the structure lets it find (up to max into msgs,
 * which dgr_frame_max_msgs(captured) always makes enough), in order, with its
 * offset. A frame with a bad flags byte (hdr_err -DGR_E_FRAME_FLAGS) is
 * decoded on, as a reader shows it. Each message gets the refusal a receiver
 * drops it with (dgr_frame_next_msg(): the type, has_nextmsg, data past the
 * end, non-zero padding after its data; then dgr_msg_validate() with mem_size
 * and no fragment-length rule); the decode goes on after a refused message
 * while the frame's structure lets it (it stops after data past the end or at
 * a header the frame's end cuts). d->refusal is the frame's: the flags byte,
 * the first message refused, or a header the frame's end cuts; a frame a
 * receiver takes has 0. Bytes past captured are never read: a message header
 * beyond them ends the decode (DGR_DECODE_END_SNAP_CUT) and is neither
 * decoded nor refused, and padding is checked where captured. Returns the
 * number of messages decoded (>= 0), or -DGR_E_INVAL when buf or d is NULL
 * (with captured > 0) or captured > len. Never reads outside buf[0..captured).
 */
int dgr_frame_decode(struct dgr_decoded_frame *d, const uint8_t *buf, size_t len, size_t captured,
		     uint64_t mem_size, struct dgr_decoded_msg *msgs, unsigned int max);

/* True when the message is a flag-only transaction (a doorbell). */
static inline bool dgr_msg_is_flag_only(const struct dgr_msg *m)
{
	return m->num_msgs_in_txn == 0 && m->data_len == 0;
}

/* True when the message's transaction ends with a flag write. */
static inline bool dgr_msg_has_flag(const struct dgr_msg *m)
{
	return m->flag_addr != DGR_NO_FLAG || m->flag_value != DGR_NO_FLAG;
}

/* Number of messages that make up the transaction (a value < 2 means one). */
static inline unsigned int dgr_msg_txn_parts(const struct dgr_msg *m)
{
	return m->num_msgs_in_txn < 2 ? 1u : m->num_msgs_in_txn;
}

/* The flag word, decoded. */
struct dgr_flag_word {
	bool valid;
	uint32_t length; /* message length in bytes */
	bool eof;
	bool truncated;
	uint8_t opcode;
};

/* Decodes a flag value (any 32-bit value; see valid). */
void dgr_flag_decode(uint32_t value, struct dgr_flag_word *fw);

/*
 * Encodes a flag word. Returns the value, or 0 when length exceeds
 * DGR_FLAGW_MAX_LEN (0 is never a valid flag word: bit 0 is clear).
 */
uint32_t dgr_flag_encode(uint32_t length, bool eof, bool truncated, uint8_t opcode);

/* Writes a 10-byte frame header at buf (which must hold DGR_FRAME_HDR_LEN). */
void dgr_frame_hdr_write(uint8_t *buf, const struct dgr_frame_hdr *hdr);

/* dgr_frame_hdr_read(), below the little-endian accessors: inline, once per frame read. */

/*
 * Frame builder: packs messages into one frame of at most cap bytes (the MTU
 * for raw Ethernet, the datagram size for UDP). Not thread-safe; one per
 * sender.
 */
/*
 * Most pieces a frame built in gather mode is sent from (dgr_fb_iov()): each
 * message whose data stays in the caller's memory adds two.
 */
#define DGR_FB_MAX_IOV 16

struct dgr_frame_builder {
	uint8_t *buf;
	size_t cap;
	size_t len;	   /* bytes of the frame on the wire so far, frame header included */
	size_t last_msg;   /* offset in buf of the last message header, 0 when none */
	unsigned int msgs; /* messages added */
	/*
	 * Gather mode (dgr_fb_gather()): message data is not copied into buf but
	 * referenced, so buf holds only the headers and padding, in wire order;
	 * iov[] lists the pieces finished so far (buf spans and caller data).
	 */
	bool gather;
	size_t buf_len;	  /* bytes of buf used (== len unless in gather mode) */
	size_t buf_start; /* start of the buf span not yet in iov[] */
	struct iovec iov[DGR_FB_MAX_IOV];
	unsigned int niov;
};

/*
 * Starts a frame in buf (cap bytes) with the given header; flags is set by
 * dgr_fb_finish(). Returns 0, or -DGR_E_NOSPACE when cap cannot hold a frame
 * header plus one message header.
 */
int dgr_fb_init(struct dgr_frame_builder *fb, uint8_t *buf, size_t cap,
		const struct dgr_frame_hdr *hdr);

/*
 * Largest data_len a new message could carry in this frame right now (after
 * alignment and its 24-byte header), capped at 65535; -1 when not even a
 * message header fits.
 */
long dgr_fb_room(const struct dgr_frame_builder *fb);

/* dgr_fb_room() of an empty frame of cap bytes. */
long dgr_frame_room_empty(size_t cap);

/*
 * Appends one message: header fields from *m (data, offset, has_nextmsg are
 * ignored) and m->data_len bytes from data (may be NULL when data_len is 0).
 * Trailing bytes up to data_len beyond src_len are zero-filled, which is how
 * a final fragment is rounded up to 4 bytes without touching the source.
 * Returns 0, or -DGR_E_NOSPACE, -DGR_E_INVAL.
 */
int dgr_fb_add(struct dgr_frame_builder *fb, const struct dgr_msg *m, const uint8_t *data,
	       size_t src_len);

/*
 * Finishes the frame: clears has_nextmsg on the last message, sets the frame
 * flags (0 when no message was added: an ACK-only frame). Returns the frame
 * length in bytes.
 */
size_t dgr_fb_finish(struct dgr_frame_builder *fb);

/*
 * Gather mode from the next message on: message data stays where the caller
 * has it and the frame is sent from the pieces dgr_fb_iov() lists (no copy in
 * user space). The data must stay unchanged until the frame is sent. When the
 * pieces run out (more than DGR_FB_MAX_IOV / 2 - 1 messages with data), data
 * is copied into buf as without gather mode.
 */
void dgr_fb_gather(struct dgr_frame_builder *fb);

/*
 * The pieces of a finished frame, in wire order, written to iov (room for
 * DGR_FB_MAX_IOV). Without gather mode: one piece, buf and len. Returns the
 * number of pieces.
 */
unsigned int dgr_fb_iov(const struct dgr_frame_builder *fb, struct iovec *iov);

/* Rewrites the ACK fields of a finished or open frame (ACK piggy-backing). */
void dgr_fb_set_ack(struct dgr_frame_builder *fb, uint16_t ack_start, uint8_t ack_count);

/*
 * A transaction to send: len bytes of data to data_addr in the receiver's
 * memory, then (unless flag_addr == DGR_NO_FLAG) flag_value written to
 * flag_addr. len 0 with a flag is a doorbell (flag-only transaction).
 */
struct dgr_txn {
	uint32_t txn_id;
	uint32_t data_addr;
	uint32_t flag_addr;
	uint32_t flag_value;
	const uint8_t *data;
	uint32_t len;
};

/*
 * Fragmentation state of one transaction being written into frames. The
 * number of messages is fixed by dgr_txn_plan() from the room left in the
 * current frame and the room of an empty frame, so every fragment carries
 * the same num_msgs_in_txn.
 */
struct dgr_txn_cursor {
	const struct dgr_txn *txn;
	uint32_t sent;	    /* data bytes already written into frames */
	uint16_t num_msgs;  /* num_msgs_in_txn on the wire (0 for flag-only) */
	uint16_t next_seq;  /* msg_seq of the next fragment, 1-based */
	bool fresh_pending; /* the plan starts in a new frame not yet begun */
	bool started_fresh; /* the plan put the first fragment in a new frame */
	long first_room;    /* dgr_fb_room() of the frame the txn starts in */
	long frame_room;    /* dgr_fb_room() of an empty frame */
};

/*
 * Splits a transaction of len bytes into fragments: the first goes into a
 * frame with first_room bytes of room (see dgr_fb_room()), the others into
 * empty frames with frame_room each. Non-final fragments are multiples of 16,
 * the final one is rounded up to 4. When the whole transaction does not fit
 * the current frame and that frame has room for less than 16 data bytes, the
 * plan starts in a fresh frame and *starts_fresh is set.
 * Returns the number of messages (1 for len 0), or -DGR_E_TOO_LONG when len
 * needs more than 65535 fragments, -DGR_E_NOSPACE when an empty frame has
 * room for less than 16 data bytes.
 */
int dgr_txn_count_msgs(uint32_t len, long first_room, long frame_room, bool *starts_fresh);

/*
 * Plans the fragments of *t (which must stay valid until it is written) for a
 * sender whose current frame is fb (which may be empty; later frames have
 * the same capacity). Returns 0, -DGR_E_TOO_LONG or -DGR_E_NOSPACE. If the
 * plan wants a fresh frame, the first dgr_fb_add_txn() call returns 0 without
 * adding anything.
 */
int dgr_txn_plan(struct dgr_txn_cursor *c, const struct dgr_txn *t,
		 const struct dgr_frame_builder *fb);

/*
 * Writes as many fragments of the planned transaction into fb as fit.
 * Returns 1 when the transaction is fully written, 0 when the frame is full
 * and the caller must finish it, start a new frame and call again, or a
 * negative code.
 */
int dgr_fb_add_txn(struct dgr_frame_builder *fb, struct dgr_txn_cursor *c);

/*
 * UDP framing: the DG-RDMA frame starts DGR_UDP_PAD_LEN bytes into the UDP
 * payload. Sets *frame and *frame_len. Returns 0 or -DGR_E_UDP_SHORT.
 */
int dgr_udp_unwrap(const uint8_t *payload, size_t len, const uint8_t **frame, size_t *frame_len);

/* What a UDP payload carries, told by its 2-byte pad. */
enum dgr_udp_kind {
	DGR_UDP_DGRDMA = 0,  /* pad 0: a DG-RDMA frame */
	DGR_UDP_DCP = 1,     /* pad 0xF040 (the DCP ethertype, big-endian): a DCP packet */
	DGR_UDP_UNKNOWN = 2, /* any other pad: neither (the stack drops and counts it) */
};

/*
 * The UDP pad rule, one copy for the stack, the analysis tools and the
 * dissector: pad 0 means DG-RDMA, pad 0xF040 DCP, any other pad neither.
 * Sets *body and *body_len to what follows the pad. Returns DGR_UDP_DGRDMA,
 * DGR_UDP_DCP or DGR_UDP_UNKNOWN, or -DGR_E_UDP_SHORT when the payload is
 * shorter than the pad.
 */
int dgr_udp_demux(const uint8_t *payload, size_t len, const uint8_t **body, size_t *body_len);

/* Size of the largest DG-RDMA frame that fits an interface MTU on a transport. */
static inline size_t dgr_frame_cap_ether(unsigned int mtu)
{
	return mtu;
}

static inline size_t dgr_frame_cap_udp(unsigned int mtu)
{
	/* IPv4 header 20, UDP header 8, then the 2-byte pad */
	return mtu > 30 ? mtu - 30 : 0;
}

/* Little-endian accessors (the protocol is little-endian on every host). */
static inline uint16_t dgr_get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t dgr_get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
}

static inline void dgr_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void dgr_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Reads a 10-byte frame header from buf (which must hold DGR_FRAME_HDR_LEN). */
static inline void dgr_frame_hdr_read(const uint8_t *buf, struct dgr_frame_hdr *hdr)
{
	hdr->dst_id = dgr_get_le16(buf + DGR_FRAME_OFF_DST_ID);
	hdr->src_id = dgr_get_le16(buf + DGR_FRAME_OFF_SRC_ID);
	hdr->frame_seq = dgr_get_le16(buf + DGR_FRAME_OFF_SEQ);
	hdr->ack_start = dgr_get_le16(buf + DGR_FRAME_OFF_ACK_START);
	hdr->ack_count = buf[DGR_FRAME_OFF_ACK_COUNT];
	hdr->flags = buf[DGR_FRAME_OFF_FLAGS];
}

/* Serial-number comparison of 16-bit frame sequence numbers (RFC 1982). */
static inline int dgr_seq_diff(uint16_t a, uint16_t b)
{
	return (int16_t)(uint16_t)(a - b);
}

#ifdef __cplusplus
}
#endif

#endif
