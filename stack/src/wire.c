// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DG-RDMA wire codec: decode and encode of frames, messages and flag words,
 * and the fragmentation of transactions. See docs/protocol.md.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <dgrdma/wire.h>

static const struct {
	const char *id;
	const char *text;
} error_names[DGR_E__COUNT] = {
	[DGR_OK] = { "ok", "success" },
	[DGR_E_INVAL] = { "invalid_argument", "invalid argument" },
	[DGR_E_TRUNC_FRAME_HDR] = { "truncated_frame_header", "truncated frame header" },
	[DGR_E_TRUNC_MSG_HDR] = { "truncated_message_header", "truncated message header" },
	[DGR_E_MSG_PAST_END] = { "message_past_end", "message past end of frame" },
	[DGR_E_PADDING] = { "bad_padding", "alignment padding not zero" },
	[DGR_E_ALIGN] = { "bad_alignment", "bad alignment" },
	[DGR_E_NUM_MSGS] = { "num_msgs_inconsistent", "num_msgs_in_txn inconsistent" },
	[DGR_E_ADDR_RANGE] = { "address_out_of_range", "address out of range" },
	[DGR_E_FLAG_WORD] = { "bad_flag_word", "flag word without valid bit" },
	[DGR_E_MSG_TYPE] = { "bad_message_type", "unknown message type" },
	[DGR_E_FRAME_FLAGS] = { "bad_frame_flags", "unknown frame flags" },
	[DGR_E_NOSPACE] = { "no_space", "does not fit in the frame" },
	[DGR_E_TOO_LONG] = { "too_long", "length too large for the protocol" },
	[DGR_E_UDP_SHORT] = { "udp_too_short", "UDP payload shorter than the pad" },
	[DGR_E_DCP_SHORT] = { "dcp_too_short", "DCP packet too short" },
	[DGR_E_DCP_LENGTH] = { "dcp_bad_length", "DCP length field inconsistent" },
	[DGR_E_DCP_TYPE] = { "dcp_bad_type", "unknown DCP type/length" },
	[DGR_E_SYS] = { "system_error", "operating system error" },
	[DGR_E_PERM] = { "permission_denied", "missing privilege" },
	[DGR_E_TIMEOUT] = { "timeout", "timed out" },
	[DGR_E_NOMEM] = { "out_of_memory", "out of memory" },
	[DGR_E_STATE] = { "bad_state", "not valid in this state" },
};

static int norm_err(int err)
{
	if (err < 0) {
		err = -err;
	}
	return err < DGR_E__COUNT ? err : -1;
}

/* See wire.h. */
const char *dgr_strerror(int err)
{
	int e = norm_err(err);

	return e < 0 ? "unknown error" : error_names[e].text;
}

/* See wire.h. */
const char *dgr_error_id(int err)
{
	int e = norm_err(err);

	return e < 0 ? "unknown" : error_names[e].id;
}

/* Fills errbuf (if any) and returns -err, so callers can "return fail(...)". */
__attribute__((format(printf, 3, 4))) static int fail(char *errbuf, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (errbuf) {
		n = snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: ", dgr_strerror(err));
		if (n > 0 && n < DGR_ERRBUF_SIZE) {
			va_start(ap, fmt);
			vsnprintf(errbuf + n, (size_t)(DGR_ERRBUF_SIZE - n), fmt, ap);
			va_end(ap);
		}
	}
	return -err;
}

static size_t align_msg_offset(size_t off)
{
	size_t rel = off - DGR_FRAME_HDR_LEN;

	return DGR_FRAME_HDR_LEN + ((rel + DGR_MSG_ALIGN - 1) & ~(size_t)(DGR_MSG_ALIGN - 1));
}

/* See wire.h. */
void dgr_frame_hdr_write(uint8_t *buf, const struct dgr_frame_hdr *hdr)
{
	dgr_put_le16(buf + DGR_FRAME_OFF_DST_ID, hdr->dst_id);
	dgr_put_le16(buf + DGR_FRAME_OFF_SRC_ID, hdr->src_id);
	dgr_put_le16(buf + DGR_FRAME_OFF_SEQ, hdr->frame_seq);
	dgr_put_le16(buf + DGR_FRAME_OFF_ACK_START, hdr->ack_start);
	buf[DGR_FRAME_OFF_ACK_COUNT] = hdr->ack_count;
	buf[DGR_FRAME_OFF_FLAGS] = hdr->flags;
}

/* See wire.h. */
int dgr_frame_parse(struct dgr_frame *f, const uint8_t *buf, size_t len, char *errbuf)
{
	memset(f, 0, sizeof(*f));
	if (!buf || len < DGR_FRAME_HDR_LEN) {
		return fail(errbuf, DGR_E_TRUNC_FRAME_HDR, "%zu bytes, need %d", len,
			    DGR_FRAME_HDR_LEN);
	}
	dgr_frame_hdr_read(buf, &f->hdr);
	if (f->hdr.flags > DGR_FRAME_FLAG_MSGS) {
		return fail(errbuf, DGR_E_FRAME_FLAGS, "flags 0x%02x at offset %d", f->hdr.flags,
			    DGR_FRAME_OFF_FLAGS);
	}
	f->buf = buf;
	f->len = len;
	f->next_off = f->hdr.flags == DGR_FRAME_FLAG_MSGS ? DGR_FRAME_HDR_LEN : 0;
	return 0;
}

/* Reads the 24-byte message header at buf + off into *m. */
static inline void msg_hdr_read(const uint8_t *buf, size_t off, struct dgr_msg *m)
{
	const uint8_t *p = buf + off;

	m->txn_id = dgr_get_le32(p + DGR_MSG_OFF_TXN_ID);
	m->flag_addr = dgr_get_le32(p + DGR_MSG_OFF_FLAG_ADDR);
	m->flag_value = dgr_get_le32(p + DGR_MSG_OFF_FLAG_VALUE);
	m->num_msgs_in_txn = dgr_get_le16(p + DGR_MSG_OFF_NUM_MSGS);
	m->msg_seq = dgr_get_le16(p + DGR_MSG_OFF_MSG_SEQ);
	m->data_addr = dgr_get_le32(p + DGR_MSG_OFF_DATA_ADDR);
	m->data_len = dgr_get_le16(p + DGR_MSG_OFF_DATA_LEN);
	m->msg_type = p[DGR_MSG_OFF_TYPE];
	m->has_nextmsg = p[DGR_MSG_OFF_NEXTMSG];
	m->offset = off;
	m->data = NULL;
}

/* See wire.h. */
int dgr_frame_next_msg(struct dgr_frame *f, struct dgr_msg *m, char *errbuf)
{
	size_t off = f->next_off;
	size_t data_end;

	if (off == 0) {
		return 0;
	}
	f->next_off = 0;
	if (off > f->len || f->len - off < DGR_MSG_HDR_LEN) {
		return fail(errbuf, DGR_E_TRUNC_MSG_HDR,
			    "message %u header at offset %zu needs %d bytes, frame has %zu",
			    f->msg_count + 1, off, DGR_MSG_HDR_LEN, f->len);
	}
	msg_hdr_read(f->buf, off, m);
	m->data = f->buf + off + DGR_MSG_HDR_LEN;

	if (m->msg_type != 0) {
		return fail(errbuf, DGR_E_MSG_TYPE, "msg_type %u at offset %zu", m->msg_type,
			    off + DGR_MSG_OFF_TYPE);
	}
	data_end = off + DGR_MSG_HDR_LEN + m->data_len;
	if (data_end > f->len) {
		return fail(errbuf, DGR_E_MSG_PAST_END,
			    "message at offset %zu has data_len %u, ends at %zu, frame has %zu",
			    off, m->data_len, data_end, f->len);
	}
	if (m->has_nextmsg > 1) {
		return fail(errbuf, DGR_E_MSG_TYPE, "has_nextmsg %u at offset %zu", m->has_nextmsg,
			    off + DGR_MSG_OFF_NEXTMSG);
	}
	f->msg_count++;
	if (m->has_nextmsg) {
		size_t next = align_msg_offset(data_end);

		/* The gap must be zero; only check bytes that exist. */
		for (size_t i = data_end; i < next && i < f->len; i++) {
			if (f->buf[i] != 0) {
				return fail(errbuf, DGR_E_PADDING,
					    "byte 0x%02x at offset %zu between messages", f->buf[i],
					    i);
			}
		}
		/* A missing next header is reported by the next call. */
		f->next_off = next;
	}
	return 1;
}

/*
 * dgr_msg_validate()'s checks, inline: dgr_frame_decode() runs them on every
 * message of a capture with constant strict_lengths and errbuf, which fold away.
 */
static inline __attribute__((always_inline)) int
msg_validate(const struct dgr_msg *m, uint64_t mem_size, bool strict_lengths, char *errbuf)
{
	bool flag_only = m->num_msgs_in_txn == 0;
	unsigned int parts = dgr_msg_txn_parts(m);

	if (flag_only && m->data_len != 0) {
		return fail(errbuf, DGR_E_NUM_MSGS,
			    "txn %u: num_msgs_in_txn 0 (flag-only) but data_len %u", m->txn_id,
			    m->data_len);
	}
	if (!flag_only && (m->msg_seq == 0 || m->msg_seq > parts)) {
		return fail(errbuf, DGR_E_NUM_MSGS, "txn %u: msg_seq %u outside 1..%u", m->txn_id,
			    m->msg_seq, parts);
	}
	if (dgr_msg_has_flag(m)) {
		if ((m->flag_addr & 3u) != 0) {
			return fail(errbuf, DGR_E_ALIGN,
				    "txn %u: flag_addr 0x%08x not word aligned", m->txn_id,
				    m->flag_addr);
		}
		if ((m->flag_value & DGR_FLAGW_VALID) == 0) {
			return fail(errbuf, DGR_E_FLAG_WORD, "txn %u: flag_value 0x%08x", m->txn_id,
				    m->flag_value);
		}
	}
	if (m->data_len != 0 && (m->data_addr & 3u) != 0) {
		return fail(errbuf, DGR_E_ALIGN, "txn %u: data_addr 0x%08x not word aligned",
			    m->txn_id, m->data_addr);
	}
	if (strict_lengths && !flag_only) {
		bool final = m->msg_seq == parts;
		unsigned int align = final ? DGR_FINAL_ALIGN : DGR_FRAG_ALIGN;

		if (m->data_len % align != 0) {
			return fail(
			    errbuf, DGR_E_ALIGN,
			    "txn %u: %s fragment %u/%u has data_len %u, not a multiple of %u",
			    m->txn_id, final ? "final" : "non-final", m->msg_seq, parts,
			    m->data_len, align);
		}
	}
	if (mem_size != 0) {
		if (m->data_len != 0 && (uint64_t)m->data_addr + m->data_len > mem_size) {
			return fail(errbuf, DGR_E_ADDR_RANGE,
				    "txn %u: data 0x%08x+%u beyond memory of %llu bytes", m->txn_id,
				    m->data_addr, m->data_len, (unsigned long long)mem_size);
		}
		if (dgr_msg_has_flag(m) && (uint64_t)m->flag_addr + 4 > mem_size) {
			return fail(errbuf, DGR_E_ADDR_RANGE,
				    "txn %u: flag_addr 0x%08x beyond memory of %llu bytes",
				    m->txn_id, m->flag_addr, (unsigned long long)mem_size);
		}
	}
	return 0;
}

/* See wire.h. */
int dgr_msg_validate(const struct dgr_msg *m, uint64_t mem_size, bool strict_lengths, char *errbuf)
{
	return msg_validate(m, mem_size, strict_lengths, errbuf);
}

/* True when a byte of buf[from, to) is not zero. */
static bool any_nonzero(const uint8_t *buf, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		if (buf[i] != 0) {
			return true;
		}
	}
	return false;
}

/* See wire.h. */
int dgr_frame_decode(struct dgr_decoded_frame *d, const uint8_t *buf, size_t len, size_t captured,
		     uint64_t mem_size, struct dgr_decoded_msg *msgs, unsigned int max)
{
	size_t off = DGR_FRAME_HDR_LEN;
	bool more;

	if (!d || (!buf && captured > 0) || captured > len || (!msgs && max > 0)) {
		return -DGR_E_INVAL;
	}
	memset(d, 0, sizeof(*d));
	d->len = len;
	d->captured = captured;
	d->msgs = msgs;
	if (len < DGR_FRAME_HDR_LEN) {
		d->hdr_err = -DGR_E_TRUNC_FRAME_HDR;
		d->refusal = d->hdr_err;
		d->end = DGR_DECODE_END_NO_HEADER;
		return 0;
	}
	if (captured < DGR_FRAME_HDR_LEN) {
		d->end = DGR_DECODE_END_HEADER_CUT;
		return 0;
	}
	dgr_frame_hdr_read(buf, &d->hdr);
	if (d->hdr.flags > DGR_FRAME_FLAG_MSGS) {
		d->hdr_err = -DGR_E_FRAME_FLAGS;
		d->refusal = d->hdr_err;
	}
	more = d->hdr.flags != DGR_FRAME_FLAG_ACK_ONLY;
	while (more) {
		struct dgr_decoded_msg *dm;
		size_t data_end;

		if (captured < len && (off > captured || captured - off < DGR_MSG_HDR_LEN)) {
			/* the snap length cut it: nothing to check, nothing refused */
			d->end = DGR_DECODE_END_SNAP_CUT;
			d->end_off = off;
			break;
		}
		if (off > len || len - off < DGR_MSG_HDR_LEN) {
			d->end = DGR_DECODE_END_TRUNC_HDR;
			d->end_off = off;
			if (!d->refusal) {
				d->refusal = -DGR_E_TRUNC_MSG_HDR;
			}
			break;
		}
		if (d->nmsgs == max) {
			d->end = DGR_DECODE_END_NO_ROOM;
			d->end_off = off;
			break;
		}
		dm = &msgs[d->nmsgs++];
		msg_hdr_read(buf, off, &dm->m);
		dm->refusal = 0;
		dm->pad_nonzero = false;
		data_end = off + DGR_MSG_HDR_LEN + dm->m.data_len;
		if (data_end <= captured) {
			dm->m.data = buf + off + DGR_MSG_HDR_LEN;
		}
		/* the codec's order (dgr_frame_next_msg()), then the receiver's checks */
		if (dm->m.msg_type != 0) {
			dm->refusal = -DGR_E_MSG_TYPE;
		}
		if (data_end > len) {
			if (!dm->refusal) {
				dm->refusal = -DGR_E_MSG_PAST_END;
			}
			d->end = DGR_DECODE_END_PAST_END;
		}
		if (!dm->refusal && dm->m.has_nextmsg > 1) {
			dm->refusal = -DGR_E_MSG_TYPE;
		}
		more = dm->m.has_nextmsg != 0 && data_end <= len;
		if (more) {
			size_t next = align_msg_offset(data_end);

			dm->pad_nonzero =
			    any_nonzero(buf, data_end, next < captured ? next : captured);
			if (dm->pad_nonzero && !dm->refusal) {
				dm->refusal = -DGR_E_PADDING;
			}
			off = next;
		}
		if (!dm->refusal) {
			dm->refusal = msg_validate(&dm->m, mem_size, false, NULL);
		}
		if (dm->refusal && !d->refusal) {
			d->refusal = dm->refusal;
		}
	}
	return (int)d->nmsgs;
}

/* See wire.h. */
void dgr_flag_decode(uint32_t value, struct dgr_flag_word *fw)
{
	fw->valid = (value & DGR_FLAGW_VALID) != 0;
	fw->length = (value >> DGR_FLAGW_LEN_SHIFT) & DGR_FLAGW_LEN_MASK;
	fw->eof = (value & DGR_FLAGW_EOF) != 0;
	fw->truncated = (value & DGR_FLAGW_TRUNC) != 0;
	fw->opcode = (uint8_t)(value >> DGR_FLAGW_OPCODE_SHIFT);
}

/* See wire.h. */
uint32_t dgr_flag_encode(uint32_t length, bool eof, bool truncated, uint8_t opcode)
{
	if (length > DGR_FLAGW_MAX_LEN) {
		return 0;
	}
	return DGR_FLAGW_VALID | (length << DGR_FLAGW_LEN_SHIFT) | (eof ? DGR_FLAGW_EOF : 0) |
	       (truncated ? DGR_FLAGW_TRUNC : 0) | ((uint32_t)opcode << DGR_FLAGW_OPCODE_SHIFT);
}

/* See wire.h. */
int dgr_fb_init(struct dgr_frame_builder *fb, uint8_t *buf, size_t cap,
		const struct dgr_frame_hdr *hdr)
{
	if (!buf || !hdr || cap < DGR_FRAME_HDR_LEN + DGR_MSG_HDR_LEN) {
		return -DGR_E_NOSPACE;
	}
	fb->buf = buf;
	fb->cap = cap;
	fb->len = DGR_FRAME_HDR_LEN;
	fb->last_msg = 0;
	fb->msgs = 0;
	fb->gather = false;
	fb->buf_len = DGR_FRAME_HDR_LEN;
	fb->buf_start = 0;
	fb->niov = 0;
	dgr_frame_hdr_write(buf, hdr);
	buf[DGR_FRAME_OFF_FLAGS] = DGR_FRAME_FLAG_ACK_ONLY;
	return 0;
}

static long room_after(size_t used, size_t cap)
{
	size_t start = used == DGR_FRAME_HDR_LEN ? used : align_msg_offset(used);
	size_t room;

	if (start + DGR_MSG_HDR_LEN > cap) {
		return -1;
	}
	room = cap - start - DGR_MSG_HDR_LEN;
	return (long)(room > 0xFFFF ? 0xFFFF : room);
}

/* See wire.h. */
long dgr_fb_room(const struct dgr_frame_builder *fb)
{
	return room_after(fb->len, fb->cap);
}

/* See wire.h. */
long dgr_frame_room_empty(size_t cap)
{
	return room_after(DGR_FRAME_HDR_LEN, cap);
}

/* See wire.h. */
int dgr_fb_add(struct dgr_frame_builder *fb, const struct dgr_msg *m, const uint8_t *data,
	       size_t src_len)
{
	long room = dgr_fb_room(fb);
	size_t start, gap, at;
	uint8_t *p;
	size_t copy;

	if (room < 0 || m->data_len > (unsigned long)room) {
		return -DGR_E_NOSPACE;
	}
	if (src_len > 0 && !data) {
		return -DGR_E_INVAL;
	}
	/* start: the header's offset on the wire; at: in buf (the same unless gathering) */
	start = fb->msgs == 0 ? DGR_FRAME_HDR_LEN : align_msg_offset(fb->len);
	gap = start - fb->len;
	at = fb->buf_len + gap;
	/* Zero the alignment gap and set has_nextmsg on the previous message. */
	if (gap > 0) {
		memset(fb->buf + fb->buf_len, 0, gap);
	}
	if (fb->msgs > 0) {
		fb->buf[fb->last_msg + DGR_MSG_OFF_NEXTMSG] = 1;
	}
	p = fb->buf + at;
	dgr_put_le32(p + DGR_MSG_OFF_TXN_ID, m->txn_id);
	dgr_put_le32(p + DGR_MSG_OFF_FLAG_ADDR, m->flag_addr);
	dgr_put_le32(p + DGR_MSG_OFF_FLAG_VALUE, m->flag_value);
	dgr_put_le16(p + DGR_MSG_OFF_NUM_MSGS, m->num_msgs_in_txn);
	dgr_put_le16(p + DGR_MSG_OFF_MSG_SEQ, m->msg_seq);
	dgr_put_le32(p + DGR_MSG_OFF_DATA_ADDR, m->data_addr);
	dgr_put_le16(p + DGR_MSG_OFF_DATA_LEN, m->data_len);
	p[DGR_MSG_OFF_TYPE] = 0;
	p[DGR_MSG_OFF_NEXTMSG] = 0;
	copy = src_len < m->data_len ? src_len : m->data_len;
	fb->buf_len = at + DGR_MSG_HDR_LEN;
	/* two pieces for this message, and one left for the buf span after it */
	if (fb->gather && copy > 0 && fb->niov + 3 <= DGR_FB_MAX_IOV) {
		fb->iov[fb->niov].iov_base = fb->buf + fb->buf_start;
		fb->iov[fb->niov].iov_len = fb->buf_len - fb->buf_start;
		fb->iov[fb->niov + 1].iov_base = (void *)data;
		fb->iov[fb->niov + 1].iov_len = copy;
		fb->niov += 2;
		fb->buf_start = fb->buf_len;
	} else if (copy) {
		memcpy(fb->buf + fb->buf_len, data, copy);
		fb->buf_len += copy;
	}
	if (copy < m->data_len) {
		memset(fb->buf + fb->buf_len, 0, m->data_len - copy);
		fb->buf_len += m->data_len - copy;
	}
	fb->last_msg = at;
	fb->len = start + DGR_MSG_HDR_LEN + m->data_len;
	fb->msgs++;
	fb->buf[DGR_FRAME_OFF_FLAGS] = DGR_FRAME_FLAG_MSGS;
	return 0;
}

/* See wire.h. */
void dgr_fb_gather(struct dgr_frame_builder *fb)
{
	fb->gather = true;
}

/* See wire.h. */
unsigned int dgr_fb_iov(const struct dgr_frame_builder *fb, struct iovec *iov)
{
	unsigned int n = fb->niov;

	memcpy(iov, fb->iov, n * sizeof(*iov));
	if (fb->buf_len > fb->buf_start || n == 0) {
		iov[n].iov_base = fb->buf + fb->buf_start;
		iov[n].iov_len = fb->buf_len - fb->buf_start;
		n++;
	}
	return n;
}

/* See wire.h. */
size_t dgr_fb_finish(struct dgr_frame_builder *fb)
{
	if (fb->msgs > 0) {
		fb->buf[fb->last_msg + DGR_MSG_OFF_NEXTMSG] = 0;
	}
	fb->buf[DGR_FRAME_OFF_FLAGS] = fb->msgs ? DGR_FRAME_FLAG_MSGS : DGR_FRAME_FLAG_ACK_ONLY;
	return fb->len;
}

/* See wire.h. */
void dgr_fb_set_ack(struct dgr_frame_builder *fb, uint16_t ack_start, uint8_t ack_count)
{
	dgr_put_le16(fb->buf + DGR_FRAME_OFF_ACK_START, ack_start);
	fb->buf[DGR_FRAME_OFF_ACK_COUNT] = ack_count;
}

static uint32_t round_up4(uint32_t n)
{
	return (n + 3u) & ~3u;
}

/* Largest non-final fragment that fits a room: a multiple of 16. */
static uint32_t frag_size(long room)
{
	if (room < (long)DGR_FRAG_ALIGN) {
		return 0;
	}
	uint32_t r = (uint32_t)(room > (long)DGR_MAX_DATA_LEN ? (long)DGR_MAX_DATA_LEN : room);

	return r & ~(uint32_t)(DGR_FRAG_ALIGN - 1);
}

/* True when the rest of a transaction (rem bytes) fits a room as its final fragment. */
static bool fits_final(uint32_t rem, long room)
{
	return room >= 0 && (((uint64_t)rem + 3u) & ~(uint64_t)3) <= (uint64_t)room;
}

/* See wire.h. */
int dgr_txn_count_msgs(uint32_t len, long first_room, long frame_room, bool *starts_fresh)
{
	uint32_t per = frag_size(frame_room);
	uint64_t rem = len;
	uint64_t final_max;
	uint64_t n = 0;

	*starts_fresh = false;
	if (fits_final(len, first_room)) {
		return 1;
	}
	if (frame_room < 0 || per < DGR_FRAG_ALIGN) {
		return -DGR_E_NOSPACE;
	}
	if (frag_size(first_room) >= DGR_FRAG_ALIGN) {
		rem -= frag_size(first_room);
		n = 1;
	} else {
		*starts_fresh = true;
	}
	/* rem fits as a final fragment once rem <= final_max. */
	final_max = (uint64_t)frame_room & ~(uint64_t)3;
	if (rem > final_max) {
		n += (rem - final_max + per - 1) / per;
	}
	n++;
	if (n > 0xFFFF) {
		return -DGR_E_TOO_LONG;
	}
	return (int)n;
}

/* See wire.h. */
int dgr_txn_plan(struct dgr_txn_cursor *c, const struct dgr_txn *t,
		 const struct dgr_frame_builder *fb)
{
	bool fresh = false;
	int n;

	memset(c, 0, sizeof(*c));
	if (!t || (t->len > 0 && !t->data)) {
		return -DGR_E_INVAL;
	}
	c->txn = t;
	c->first_room = dgr_fb_room(fb);
	c->frame_room = dgr_frame_room_empty(fb->cap);
	if (t->len == 0 && t->flag_addr != DGR_NO_FLAG) {
		/* flag-only transaction: one message, num_msgs_in_txn 0 */
		c->num_msgs = 0;
		c->fresh_pending = c->first_room < 0;
		c->started_fresh = c->fresh_pending;
		c->next_seq = 1;
		return 0;
	}
	n = dgr_txn_count_msgs(t->len, c->first_room, c->frame_room, &fresh);
	if (n < 0) {
		return n;
	}
	c->num_msgs = (uint16_t)n;
	c->fresh_pending = fresh;
	c->started_fresh = fresh;
	c->next_seq = 1;
	return 0;
}

/* See wire.h. */
int dgr_fb_add_txn(struct dgr_frame_builder *fb, struct dgr_txn_cursor *c)
{
	const struct dgr_txn *t = c->txn;
	unsigned int parts = c->num_msgs < 2 ? 1u : c->num_msgs;

	if (c->fresh_pending) {
		if (fb->msgs > 0) {
			return 0;
		}
		c->fresh_pending = false;
	}
	while (c->next_seq <= parts) {
		struct dgr_msg m;
		uint32_t rem = t->len - c->sent;
		uint32_t chunk;
		uint32_t wire_len;
		long room = dgr_fb_room(fb);
		int rc;

		if (c->next_seq == parts) {
			chunk = rem;
			wire_len = round_up4(rem);
		} else if (c->next_seq == 1 && !c->started_fresh) {
			chunk = frag_size(c->first_room);
			wire_len = chunk;
		} else {
			chunk = frag_size(c->frame_room);
			wire_len = chunk;
		}
		if (room < 0 || wire_len > (uint32_t)room) {
			/* An empty frame always has room for its planned fragment. */
			return fb->msgs == 0 ? -DGR_E_NOSPACE : 0;
		}
		m.txn_id = t->txn_id;
		m.flag_addr = t->flag_addr;
		m.flag_value = t->flag_value;
		m.num_msgs_in_txn = c->num_msgs;
		m.msg_seq = c->next_seq;
		m.data_addr = t->data_addr + c->sent;
		m.data_len = (uint16_t)wire_len;
		rc = dgr_fb_add(fb, &m, chunk ? t->data + c->sent : NULL, chunk);
		if (rc < 0) {
			return rc;
		}
		c->sent += chunk;
		c->next_seq++;
	}
	return 1;
}

/* See wire.h. */
int dgr_udp_unwrap(const uint8_t *payload, size_t len, const uint8_t **frame, size_t *frame_len)
{
	if (!payload || len < DGR_UDP_PAD_LEN) {
		return -DGR_E_UDP_SHORT;
	}
	*frame = payload + DGR_UDP_PAD_LEN;
	*frame_len = len - DGR_UDP_PAD_LEN;
	return 0;
}

/* See wire.h. */
int dgr_udp_demux(const uint8_t *payload, size_t len, const uint8_t **body, size_t *body_len)
{
	if (!payload || len < DGR_UDP_PAD_LEN) {
		return -DGR_E_UDP_SHORT;
	}
	*body = payload + DGR_UDP_PAD_LEN;
	*body_len = len - DGR_UDP_PAD_LEN;
	switch ((unsigned int)payload[0] << 8 | payload[1]) {
	case 0:
		return DGR_UDP_DGRDMA;
	case DGR_ETHERTYPE_DCP:
		return DGR_UDP_DCP;
	default:
		return DGR_UDP_UNKNOWN;
	}
}
