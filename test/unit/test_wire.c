// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the DG-RDMA codec: header round trips, the flag word, every
 * fragmentation edge (encode -> decode -> reassemble -> compare), and every
 * malformed input with its own error code.
 */
#include <stdlib.h>

#include <dgrdma/reassembly.h>
#include <dgrdma/wire.h>

#include "tap.h"

#define MAX_FRAMES 4096

static uint8_t frames[MAX_FRAMES][9000];
static size_t frame_lens[MAX_FRAMES];

static void test_header_round_trip(void)
{
	struct dgr_frame_hdr h = { .src_id = 0x1234,
				   .dst_id = 0xBEEF,
				   .frame_seq = 0xFFFF,
				   .ack_start = 7,
				   .ack_count = 200,
				   .flags = 1 };
	struct dgr_frame_hdr g;
	uint8_t buf[DGR_FRAME_HDR_LEN];
	static const uint8_t want[DGR_FRAME_HDR_LEN] = { 0xEF, 0xBE, 0x34, 0x12, 0xFF,
							 0xFF, 0x07, 0x00, 200,	 1 };

	dgr_frame_hdr_write(buf, &h);
	tap_ok(
	    memcmp(buf, want, sizeof(want)) == 0,
	    "frame header is little-endian, dst_id at offset 0 and src_id at 2 (the HDL's order)");
	dgr_frame_hdr_read(buf, &g);
	tap_ok(memcmp(&h, &g, sizeof(h)) == 0, "frame header round-trips");
}

static void test_flag_word(void)
{
	struct dgr_flag_word fw;
	uint32_t v = dgr_flag_encode(32768, true, false, DGR_OPCODE_DISCONTINUITY);

	TAP_EQ_U(v, 0x04410001u, "flag word: 32768 bytes, EOF, opcode 4");
	dgr_flag_decode(v, &fw);
	tap_ok(fw.valid && fw.length == 32768 && fw.eof && !fw.truncated && fw.opcode == 4,
	       "flag word decodes length, EOF, truncated, opcode");
	v = dgr_flag_encode(DGR_FLAGW_MAX_LEN, false, true, 0xFF);
	dgr_flag_decode(v, &fw);
	tap_ok(fw.length == DGR_FLAGW_MAX_LEN && fw.truncated && !fw.eof && fw.opcode == 0xFF,
	       "flag word holds the 21-bit maximum length (2 MiB - 1) and bit 23 truncated");
	TAP_EQ_U(dgr_flag_encode(DGR_FLAGW_MAX_LEN + 1, false, false, 0), 0,
		 "flag word refuses 2 MiB (does not fit 21 bits)");
	dgr_flag_decode(0x00000002u, &fw);
	tap_ok(!fw.valid, "flag word without bit 0 is not valid");
}

struct rt_result {
	int frames;
	int msgs;
	int planned_msgs;
	bool data_ok;
	bool sizes_ok;
	bool complete_once;
	int err;
};

/*
 * Encodes one transaction of len bytes into frames of cap bytes (the first
 * frame already holding `used` bytes of another message), decodes every
 * frame, validates every message strictly, reassembles, and rebuilds the
 * receiver memory.
 */
static struct rt_result round_trip(uint32_t len, size_t cap, size_t used)
{
	struct rt_result res = { 0 };
	struct dgr_frame_hdr hdr = { .src_id = 1, .dst_id = 2, .frame_seq = 1 };
	struct dgr_frame_builder fb;
	struct dgr_txn_cursor cur;
	struct dgr_txn txn;
	uint8_t *src = malloc(len + 4);
	uint8_t *mem = calloc(1, (size_t)len + 4096);
	struct dgr_reasm *r = dgr_reasm_new(16, NULL);
	int completes = 0;
	int rc;

	for (uint32_t i = 0; i < len; i++) {
		src[i] = (uint8_t)(i * 7 + 3);
	}
	dgr_fb_init(&fb, frames[0], cap, &hdr);
	if (used > DGR_FRAME_HDR_LEN) {
		struct dgr_msg filler = { .txn_id = 99,
					  .flag_addr = DGR_NO_FLAG,
					  .flag_value = DGR_NO_FLAG,
					  .num_msgs_in_txn = 1,
					  .msg_seq = 1,
					  .data_addr = (uint32_t)len + 64 };

		/* Rounded down to 4 like any final fragment. */
		filler.data_len = (uint16_t)((used - DGR_FRAME_HDR_LEN - DGR_MSG_HDR_LEN) & ~3u);
		dgr_fb_add(&fb, &filler, NULL, 0);
	}
	txn = (struct dgr_txn){ .txn_id = 5,
				.data_addr = 0,
				.flag_addr = ((uint32_t)len & ~3u) + 2048,
				.flag_value = dgr_flag_encode(len > DGR_FLAGW_MAX_LEN ? 0 : len,
							      false, false, 0),
				.data = src,
				.len = len };
	rc = dgr_txn_plan(&cur, &txn, &fb);
	if (rc < 0) {
		res.err = rc;
		goto out;
	}
	res.planned_msgs = cur.num_msgs < 2 ? 1 : cur.num_msgs;
	for (;;) {
		rc = dgr_fb_add_txn(&fb, &cur);
		if (rc < 0) {
			res.err = rc;
			goto out;
		}
		frame_lens[res.frames++] = dgr_fb_finish(&fb);
		if (rc == 1 || res.frames == MAX_FRAMES) {
			break;
		}
		hdr.frame_seq++;
		dgr_fb_init(&fb, frames[res.frames], cap, &hdr);
	}
	res.sizes_ok = true;
	for (int f = 0; f < res.frames; f++) {
		struct dgr_frame fr;
		struct dgr_msg m;
		char err[DGR_ERRBUF_SIZE];

		if (frame_lens[f] > cap ||
		    dgr_frame_parse(&fr, frames[f], frame_lens[f], err) < 0) {
			res.sizes_ok = false;
			continue;
		}
		while ((rc = dgr_frame_next_msg(&fr, &m, err)) > 0) {
			struct dgr_txn_info done;

			if ((m.offset - DGR_FRAME_HDR_LEN) % DGR_MSG_ALIGN != 0 ||
			    dgr_msg_validate(&m, m.txn_id == txn.txn_id ? (uint64_t)len + 4096 : 0,
					     true, err) < 0) {
				if (res.sizes_ok) {
					tap_diag("%s", err);
				}
				res.sizes_ok = false;
			}
			if (m.txn_id != txn.txn_id) {
				continue;
			}
			res.msgs++;
			if (m.num_msgs_in_txn != cur.num_msgs) {
				res.sizes_ok = false;
			}
			memcpy(mem + m.data_addr, m.data, m.data_len);
			rc = dgr_reasm_add(r, &m, (uint64_t)f, (uint64_t)f, &done);
			if (rc == DGR_REASM_COMPLETE) {
				completes++;
				res.complete_once = f == res.frames - 1 && done.bytes >= len &&
						    done.bytes == ((len + 3u) & ~3u);
			}
		}
		if (rc < 0) {
			res.sizes_ok = false;
		}
	}
	res.complete_once = res.complete_once && completes == 1;
	res.data_ok = memcmp(mem, src, len) == 0;
	for (uint32_t i = len; i < ((len + 3u) & ~3u); i++) {
		res.data_ok = res.data_ok && mem[i] == 0;
	}
out:
	dgr_reasm_free(r);
	free(src);
	free(mem);
	return res;
}

static void check_round_trip(const char *what, uint32_t len, size_t cap, size_t used, int want_msgs,
			     int want_frames)
{
	struct rt_result r = round_trip(len, cap, used);

	if (r.err) {
		tap_ok(0, "%s: encode failed with %s", what, dgr_strerror(r.err));
		return;
	}
	tap_ok(r.data_ok && r.sizes_ok && r.complete_once && r.msgs == r.planned_msgs,
	       "%s: %u bytes round-trip through %d frame(s), %d message(s)", what, len, r.frames,
	       r.msgs);
	if (want_msgs >= 0) {
		TAP_EQ_I(r.msgs, want_msgs, "%s: message count", what);
	}
	if (want_frames >= 0) {
		TAP_EQ_I(r.frames, want_frames, "%s: frame count", what);
	}
}

static void test_fragmentation(void)
{
	/* Room of an empty frame: cap - 10 - 24; the final fragment is rounded to 4. */
	check_round_trip("0-byte transaction", 0, 9000, 0, 1, 1);
	check_round_trip("1 byte (rounded to 4)", 1, 9000, 0, 1, 1);
	check_round_trip("MTU 9000 exactly fits", 8964, 9000, 0, 1, 1);
	check_round_trip("MTU 9000 one byte over", 8965, 9000, 0, 2, 2);
	check_round_trip("MTU 1500 exactly fits", 1464, 1500, 0, 1, 1);
	check_round_trip("MTU 1500 one byte over", 1465, 1500, 0, 2, 2);
	check_round_trip("32 KiB at MTU 9000", 32768, 9000, 0, 4, 4);
	check_round_trip("32 KiB at MTU 1500", 32768, 1500, 0, 23, 23);
	check_round_trip("16 KiB at MTU 1500 (UDP)", 16384, dgr_frame_cap_udp(1500), 0, -1, -1);
	check_round_trip("max length 2 MiB - 1 at MTU 9000", DGR_FLAGW_MAX_LEN, 9000, 0, 235, 235);
	check_round_trip("max length 2 MiB - 1 at MTU 1500", DGR_FLAGW_MAX_LEN, 1500, 0, 1441,
			 1441);
	check_round_trip("starts in a partly filled frame", 10000, 9000, 1000, 2, 2);
	check_round_trip("partly filled frame, 15 bytes left: starts fresh", 100, 9000, 9000 - 15,
			 1, 2);
	check_round_trip("coalesced behind another message", 100, 9000, 200, 1, 1);
}

static void test_count_msgs(void)
{
	bool fresh;

	TAP_EQ_I(dgr_txn_count_msgs(0, 8966, 8966, &fresh), 1, "count: 0 bytes is one message");
	TAP_EQ_I(dgr_txn_count_msgs(8964, 8966, 8966, &fresh), 1, "count: 8964 fits one");
	TAP_EQ_I(dgr_txn_count_msgs(8965, 8966, 8966, &fresh), 2, "count: 8965 needs two");
	TAP_EQ_I(dgr_txn_count_msgs(100, 8, 8966, &fresh), 1, "count: fresh frame when 8 left");
	tap_ok(fresh, "count: reports starting in a fresh frame");
	TAP_EQ_I(dgr_txn_count_msgs(100, 8966, 10, &fresh), 1,
		 "count: fits the first frame even when frames are tiny");
	TAP_EQ_I(dgr_txn_count_msgs(100, 10, 10, &fresh), -DGR_E_NOSPACE,
		 "count: frame room below 16 bytes cannot carry fragments");
	TAP_EQ_I(dgr_txn_count_msgs(0xFFFFFFFFu, 16, 16, &fresh), -DGR_E_TOO_LONG,
		 "count: more than 65535 fragments is refused");
}

static void test_builder_limits(void)
{
	uint8_t buf[64];
	struct dgr_frame_builder fb;
	struct dgr_frame_hdr hdr = { 0 };
	struct dgr_msg m = { .data_len = 31 };

	TAP_EQ_I(dgr_fb_init(&fb, buf, 33, &hdr), -DGR_E_NOSPACE,
		 "builder: 33 bytes cannot hold a header and a message");
	TAP_EQ_I(dgr_fb_init(&fb, buf, sizeof(buf), &hdr), 0, "builder: 64-byte frame");
	TAP_EQ_I(dgr_fb_room(&fb), 30, "builder: room of a 64-byte frame is 30");
	TAP_EQ_I(dgr_fb_add(&fb, &m, NULL, 0), -DGR_E_NOSPACE, "builder: 31 bytes do not fit");
	m.data_len = 30;
	TAP_EQ_I(dgr_fb_add(&fb, &m, NULL, 0), 0, "builder: 30 bytes fit exactly");
	TAP_EQ_I(dgr_fb_room(&fb), -1, "builder: full frame has no room for a header");
	TAP_EQ_U(dgr_fb_finish(&fb), 64, "builder: frame length 64");
	dgr_fb_init(&fb, buf, sizeof(buf), &hdr);
	TAP_EQ_U(dgr_fb_finish(&fb), 10, "builder: ACK-only frame is 10 bytes");
	TAP_EQ_U(buf[DGR_FRAME_OFF_FLAGS], 0, "builder: ACK-only frame has flags 0");
}

static void test_doorbells_coalesced(void)
{
	uint8_t buf[1500];
	struct dgr_frame_builder fb;
	struct dgr_frame_hdr hdr = { .src_id = 3, .dst_id = 4, .frame_seq = 9 };
	struct dgr_txn t[3];
	struct dgr_txn_cursor c;
	struct dgr_frame f;
	struct dgr_msg m;
	size_t len;
	int n = 0, ok = 1;

	dgr_fb_init(&fb, buf, sizeof(buf), &hdr);
	for (int i = 0; i < 3; i++) {
		t[i] = (struct dgr_txn){ .txn_id = (uint32_t)(10 + i),
					 .flag_addr = 0x100 + 4u * i,
					 .flag_value = DGR_DOORBELL_VALUE };
		ok &= dgr_txn_plan(&c, &t[i], &fb) == 0 && dgr_fb_add_txn(&fb, &c) == 1;
	}
	len = dgr_fb_finish(&fb);
	tap_ok(ok, "three doorbells coalesce into one frame");
	TAP_EQ_U(len, 10 + 24 * 3, "coalesced doorbells: 24 bytes each, already aligned");
	dgr_frame_parse(&f, buf, len, NULL);
	while (dgr_frame_next_msg(&f, &m, NULL) > 0) {
		ok &= dgr_msg_is_flag_only(&m) && m.num_msgs_in_txn == 0 &&
		      m.flag_addr == 0x100 + 4u * n && m.has_nextmsg == (n < 2);
		ok &= dgr_msg_validate(&m, 4096, true, NULL) == 0;
		n++;
	}
	tap_ok(ok && n == 3, "coalesced doorbells decode as three flag-only messages in order");
}

/* Builds a frame with one message whose fields the caller then corrupts. */
static size_t one_msg_frame(uint8_t *buf, uint16_t data_len, uint8_t next)
{
	struct dgr_frame_builder fb;
	struct dgr_frame_hdr hdr = { .src_id = 1, .dst_id = 2, .frame_seq = 1 };
	struct dgr_msg m = { .txn_id = 1,
			     .flag_addr = 0x1000,
			     .flag_value = 0x21,
			     .num_msgs_in_txn = 1,
			     .msg_seq = 1,
			     .data_len = data_len };
	size_t len;

	dgr_fb_init(&fb, buf, 2048, &hdr);
	dgr_fb_add(&fb, &m, NULL, 0);
	len = dgr_fb_finish(&fb);
	buf[DGR_FRAME_HDR_LEN + DGR_MSG_OFF_NEXTMSG] = next;
	return len;
}

static int decode_all(const uint8_t *buf, size_t len, char *err)
{
	struct dgr_frame f;
	struct dgr_msg m;
	int rc = dgr_frame_parse(&f, buf, len, err);

	while (rc >= 0 && (rc = dgr_frame_next_msg(&f, &m, err)) > 0) {
	}
	return rc;
}

static void expect_err(const char *what, int got, int want, const char *err)
{
	TAP_EQ_I(got, -want, "malformed: %s -> %s", what, dgr_error_id(want));
	if (got < 0) {
		tap_ok(err[0] != '\0' && strstr(err, dgr_strerror(want)) == err,
		       "malformed: %s has a message (%s)", what, err);
	}
}

static void test_malformed(void)
{
	uint8_t buf[2048];
	char err[DGR_ERRBUF_SIZE];
	size_t len;
	struct dgr_frame f;
	struct dgr_msg m;
	const uint8_t *frame;
	size_t flen;

	memset(buf, 0, sizeof(buf));
	err[0] = 0;
	expect_err("9-byte frame", decode_all(buf, 9, err), DGR_E_TRUNC_FRAME_HDR, err);

	len = one_msg_frame(buf, 16, 0);
	buf[DGR_FRAME_OFF_FLAGS] = 2;
	err[0] = 0;
	expect_err("frame flags 2", decode_all(buf, len, err), DGR_E_FRAME_FLAGS, err);

	len = one_msg_frame(buf, 16, 0);
	err[0] = 0;
	expect_err("message header cut at 20 bytes", decode_all(buf, 20, err), DGR_E_TRUNC_MSG_HDR,
		   err);

	err[0] = 0;
	expect_err("data_len 16 with 8 bytes present", decode_all(buf, len - 8, err),
		   DGR_E_MSG_PAST_END, err);

	len = one_msg_frame(buf, 16, 1);
	err[0] = 0;
	expect_err("has_nextmsg with no next header", decode_all(buf, len, err),
		   DGR_E_TRUNC_MSG_HDR, err);

	len = one_msg_frame(buf, 12, 1);
	buf[len] = 0xAA; /* the 4-byte alignment gap after 12 data bytes */
	err[0] = 0;
	expect_err("non-zero alignment padding", decode_all(buf, len + 4 + 24, err), DGR_E_PADDING,
		   err);

	len = one_msg_frame(buf, 16, 0);
	buf[DGR_FRAME_HDR_LEN + DGR_MSG_OFF_TYPE] = 3;
	err[0] = 0;
	expect_err("msg_type 3", decode_all(buf, len, err), DGR_E_MSG_TYPE, err);

	len = one_msg_frame(buf, 16, 2);
	err[0] = 0;
	expect_err("has_nextmsg 2", decode_all(buf, len, err), DGR_E_MSG_TYPE, err);

	/* Validation of well-formed messages. */
	len = one_msg_frame(buf, 16, 0);
	dgr_frame_parse(&f, buf, len, NULL);
	dgr_frame_next_msg(&f, &m, NULL);
	TAP_EQ_I(dgr_msg_validate(&m, 0x2000, true, err), 0, "valid message passes validation");

#define VALIDATE(what, field, value, mem, want)                                                    \
	do {                                                                                       \
		struct dgr_msg bad_ = m;                                                           \
		bad_.field = value;                                                                \
		err[0] = 0;                                                                        \
		expect_err(what, dgr_msg_validate(&bad_, mem, true, err), want, err);              \
	} while (0)

	VALIDATE("flag-only (num_msgs 0) carrying data", num_msgs_in_txn, 0, 0, DGR_E_NUM_MSGS);
	VALIDATE("msg_seq 0", msg_seq, 0, 0, DGR_E_NUM_MSGS);
	VALIDATE("msg_seq beyond num_msgs_in_txn", msg_seq, 2, 0, DGR_E_NUM_MSGS);
	VALIDATE("data_addr not word aligned", data_addr, 2, 0, DGR_E_ALIGN);
	VALIDATE("flag_addr not word aligned", flag_addr, 0x1002, 0, DGR_E_ALIGN);
	VALIDATE("final fragment of 13 bytes", data_len, 13, 0, DGR_E_ALIGN);
	VALIDATE("flag word without bit 0", flag_value, 0x20, 0, DGR_E_FLAG_WORD);
	VALIDATE("data beyond receiver memory", data_addr, 0x1FF4, 0x2000, DGR_E_ADDR_RANGE);
	VALIDATE("flag beyond receiver memory", flag_addr, 0x2000, 0x2000, DGR_E_ADDR_RANGE);
	{
		struct dgr_msg nf = m;

		nf.num_msgs_in_txn = 2;
		nf.data_len = 20;
		err[0] = 0;
		expect_err("non-final fragment of 20 bytes", dgr_msg_validate(&nf, 0, true, err),
			   DGR_E_ALIGN, err);
		TAP_EQ_I(dgr_msg_validate(&nf, 0, false, err), 0,
			 "non-final fragment of 20 bytes passes when lengths are not strict");
	}
	{
		struct dgr_msg nf = m;

		nf.flag_addr = DGR_NO_FLAG;
		nf.flag_value = DGR_NO_FLAG;
		TAP_EQ_I(dgr_msg_validate(&nf, 0x2000, true, err), 0,
			 "write without flag (0xFFFFFFFF) skips flag checks");
	}

	TAP_EQ_I(dgr_udp_unwrap(buf, 1, &frame, &flen), -DGR_E_UDP_SHORT,
		 "UDP payload of 1 byte is too short for the pad");
	TAP_EQ_I(dgr_udp_unwrap(buf, 12, &frame, &flen), 0, "UDP payload unwraps");
	tap_ok(frame == buf + 2 && flen == 10, "UDP frame starts after the 2-byte pad");

	/* An ACK-only frame padded to the Ethernet minimum has no messages. */
	memset(buf, 0, 64);
	buf[DGR_FRAME_OFF_ACK_COUNT] = 3;
	TAP_EQ_I(decode_all(buf, DGR_ETH_MIN_PAYLOAD, err), 0,
		 "ACK-only frame with Ethernet padding decodes with no messages");
}

static void test_error_names(void)
{
	bool distinct = true;

	for (int a = 1; a < DGR_E__COUNT; a++) {
		for (int b = a + 1; b < DGR_E__COUNT; b++) {
			distinct &= strcmp(dgr_error_id(a), dgr_error_id(b)) != 0;
		}
	}
	tap_ok(distinct, "every error code has its own identifier");
	tap_ok(strcmp(dgr_strerror(-DGR_E_MSG_PAST_END), "message past end of frame") == 0,
	       "dgr_strerror accepts negative codes");
	tap_ok(strcmp(dgr_strerror(1000), "unknown error") == 0, "unknown code is named");
}

static void test_seq_diff(void)
{
	TAP_EQ_I(dgr_seq_diff(1, 0xFFFF), 2, "sequence comparison wraps at 16 bits");
	TAP_EQ_I(dgr_seq_diff(0xFFFF, 1), -2, "sequence comparison is signed");
}

/* Joins the pieces of a gather-mode frame; returns the bytes written. */
static size_t join_iov(const struct iovec *iov, unsigned int n, uint8_t *out)
{
	size_t len = 0;

	for (unsigned int i = 0; i < n; i++) {
		memcpy(out + len, iov[i].iov_base, iov[i].iov_len);
		len += iov[i].iov_len;
	}
	return len;
}

/*
 * Builds the same frames twice, copying and in gather mode: a doorbell, then
 * transactions of lengths that need alignment gaps and a final fragment
 * rounded up to 4 (zero-filled), then many small ones (the pieces run out and
 * the builder copies). The gathered pieces must join into the same bytes.
 */
static void test_gather(void)
{
	static uint8_t src[20000], lin[9000], gat[9000], joined[9000];
	static const uint32_t lens[] = { 4,  4,	 6,  16, 30, 4096, 8190, 9,  2,	 64, 64,    64,
					 64, 64, 64, 64, 64, 64,   64,	 64, 64, 64, 17000, 3 };
	struct dgr_frame_hdr hdr = { .src_id = 1, .dst_id = 2, .frame_seq = 1 };
	struct dgr_frame_builder a, b;
	struct iovec iov[DGR_FB_MAX_IOV];
	unsigned int nframes = 0, same = 0, max_pieces = 0, copied_after_limit = 0;
	uint32_t off = 0;
	size_t la, lb, lj;
	unsigned int n;

	for (size_t i = 0; i < sizeof(src); i++) {
		src[i] = (uint8_t)(i * 13 + 1);
	}
	dgr_fb_init(&a, lin, sizeof(lin), &hdr);
	dgr_fb_init(&b, gat, sizeof(gat), &hdr);
	dgr_fb_gather(&b);
	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		struct dgr_txn t = { .txn_id = (uint32_t)k + 1,
				     .data_addr = off,
				     .flag_addr = 0x100000 + 4 * (uint32_t)k,
				     .flag_value = dgr_flag_encode(lens[k], false, false, 0),
				     .data = src,
				     .len = lens[k] };
		struct dgr_txn_cursor ca, cb;
		int ra, rb;

		off += (lens[k] + 15) & ~15u;
		dgr_txn_plan(&ca, &t, &a);
		dgr_txn_plan(&cb, &t, &b);
		for (;;) {
			ra = dgr_fb_add_txn(&a, &ca);
			rb = dgr_fb_add_txn(&b, &cb);
			if (ra != rb || ra < 0) {
				tap_ok(0, "gather: both builders take the same fragments (%d, %d)",
				       ra, rb);
				return;
			}
			if (ra == 1) {
				break;
			}
			la = dgr_fb_finish(&a);
			lb = dgr_fb_finish(&b);
			n = dgr_fb_iov(&b, iov);
			max_pieces = n > max_pieces ? n : max_pieces;
			/* every message here has data: more messages than referenced pieces were
			 * copied */
			copied_after_limit += b.msgs > b.niov / 2;
			lj = join_iov(iov, n, joined);
			nframes++;
			same += la == lb && lj == la && memcmp(lin, joined, la) == 0;
			hdr.frame_seq++;
			dgr_fb_init(&a, lin, sizeof(lin), &hdr);
			dgr_fb_init(&b, gat, sizeof(gat), &hdr);
			dgr_fb_gather(&b);
		}
	}
	la = dgr_fb_finish(&a);
	lb = dgr_fb_finish(&b);
	n = dgr_fb_iov(&b, iov);
	lj = join_iov(iov, n, joined);
	nframes++;
	same += la == lb && lj == la && memcmp(lin, joined, la) == 0;
	tap_ok(nframes >= 4 && same == nframes,
	       "gather: %u of %u frames join into the bytes the copying builder wrote", same,
	       nframes);
	tap_ok(max_pieces == DGR_FB_MAX_IOV - 1,
	       "gather: a frame of many messages uses %u pieces (the limit %d, less the one the "
	       "next message would need)",
	       max_pieces, DGR_FB_MAX_IOV);
	tap_ok(copied_after_limit > 0, "gather: past the limit the data is copied instead");
	dgr_fb_init(&b, gat, sizeof(gat), &hdr);
	TAP_EQ_U(dgr_fb_iov(&b, iov), 1, "gather off: one piece");
	tap_ok(iov[0].iov_base == gat && iov[0].iov_len == DGR_FRAME_HDR_LEN,
	       "gather off: the whole buffer");
}

/*
 * A frame of three messages: txn 1 (12 data bytes, so a 4-byte gap follows),
 * txn 2 (16 bytes), txn 3 (a doorbell). Returns its length; *off gets each
 * message's offset.
 */
static size_t three_msg_frame(uint8_t *buf, size_t *off)
{
	struct dgr_frame_builder fb;
	struct dgr_frame_hdr hdr = { .src_id = 1, .dst_id = 2, .frame_seq = 9, .ack_count = 0 };
	static const uint8_t data[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	struct dgr_msg m = {
		.flag_addr = 0x1000, .flag_value = 0x21, .num_msgs_in_txn = 1, .msg_seq = 1
	};
	unsigned int i;

	memset(buf, 0, 2048);
	dgr_fb_init(&fb, buf, 2048, &hdr);
	for (i = 0; i < 3; i++) {
		m.txn_id = i + 1;
		m.data_addr = 0x100 * (i + 1);
		m.data_len = i == 0 ? 12 : i == 1 ? 16 : 0;
		if (i == 2) {
			m.num_msgs_in_txn = 0;
			m.flag_value = DGR_FLAGW_VALID;
		}
		off[i] = fb.len == DGR_FRAME_HDR_LEN
			     ? DGR_FRAME_HDR_LEN
			     : DGR_FRAME_HDR_LEN + ((fb.len - DGR_FRAME_HDR_LEN + 7) & ~7u);
		dgr_fb_add(&fb, &m, data, m.data_len);
	}
	return dgr_fb_finish(&fb);
}

/* dgr_frame_decode() of buf[0..len), len bytes captured, no memory size. */
static int decode_once(struct dgr_decoded_frame *d, struct dgr_decoded_msg *msgs,
		       const uint8_t *buf, size_t len, size_t captured, uint64_t mem)
{
	return dgr_frame_decode(d, buf, len, captured, mem, msgs, dgr_frame_max_msgs(captured));
}

static void test_frame_decode(void)
{
	uint8_t buf[2048];
	struct dgr_decoded_msg msgs[128];
	struct dgr_decoded_frame d;
	size_t off[3], len;
	bool ok = true;
	unsigned int i;
	char err[DGR_ERRBUF_SIZE];

	len = three_msg_frame(buf, off);
	TAP_EQ_I(decode_once(&d, msgs, buf, len, len, 0), 3, "decode: three messages");
	for (i = 0; i < 3; i++) {
		ok &= msgs[i].m.offset == off[i] && msgs[i].refusal == 0 && !msgs[i].pad_nonzero &&
		      msgs[i].m.txn_id == i + 1 && msgs[i].m.data_addr == 0x100 * (i + 1);
	}
	tap_ok(ok && off[1] == 10 + 24 + 16 && off[2] == off[1] + 24 + 16,
	       "decode: each message at its offset (10, 50, 90), its fields, none refused");
	tap_ok(d.end == DGR_DECODE_END_LAST && d.refusal == 0 && d.hdr_err == 0 &&
		   d.hdr.frame_seq == 9 && d.hdr.src_id == 1 && d.hdr.dst_id == 2,
	       "decode: header, ends at the last message, a receiver takes the frame");
	tap_ok(msgs[0].m.data == buf + off[0] + 24 && msgs[0].m.data[11] == 12,
	       "decode: data points into the buffer");

	/* what a reader needs of the codec's rules, refusal by refusal */
	len = three_msg_frame(buf, off);
	buf[off[0] + DGR_MSG_OFF_TYPE] = 3;
	decode_once(&d, msgs, buf, len, len, 0);
	tap_ok(d.nmsgs == 3 && msgs[0].refusal == -DGR_E_MSG_TYPE && msgs[1].refusal == 0 &&
		   d.refusal == -DGR_E_MSG_TYPE,
	       "decode: msg_type 3 refused, the next messages still decoded, the frame refused");
	len = three_msg_frame(buf, off);
	buf[off[1] + DGR_MSG_OFF_NEXTMSG] = 2;
	decode_once(&d, msgs, buf, len, len, 0);
	tap_ok(d.nmsgs == 3 && msgs[0].refusal == 0 && msgs[1].refusal == -DGR_E_MSG_TYPE &&
		   d.refusal == -DGR_E_MSG_TYPE,
	       "decode: has_nextmsg 2 refused as the codec does, decoded on");
	len = three_msg_frame(buf, off);
	buf[off[0] + 24 + 13] = 0xAA; /* in the gap after txn 1's 12 bytes */
	decode_once(&d, msgs, buf, len, len, 0);
	tap_ok(d.nmsgs == 3 && msgs[0].pad_nonzero && msgs[0].refusal == -DGR_E_PADDING &&
		   msgs[1].refusal == 0 && d.refusal == -DGR_E_PADDING,
	       "decode: non-zero padding after a message's data refuses that message");
	len = three_msg_frame(buf, off);
	buf[off[1] + DGR_MSG_OFF_MSG_SEQ] = 2; /* msg_seq 2 of a 1-message transaction */
	decode_once(&d, msgs, buf, len, len, 0);
	tap_ok(msgs[1].refusal == -DGR_E_NUM_MSGS && d.refusal == -DGR_E_NUM_MSGS,
	       "decode: msg_seq beyond num_msgs_in_txn refused (dgr_msg_validate)");
	len = three_msg_frame(buf, off);
	buf[off[2] + DGR_MSG_OFF_FLAG_ADDR] = 0x02;
	decode_once(&d, msgs, buf, len, len, 0);
	tap_ok(msgs[2].refusal == -DGR_E_ALIGN, "decode: unaligned flag address refused");
	len = three_msg_frame(buf, off);
	buf[off[2] + DGR_MSG_OFF_FLAG_VALUE] = 0x20;
	decode_once(&d, msgs, buf, len, len, 0);
	tap_ok(msgs[2].refusal == -DGR_E_FLAG_WORD, "decode: flag word without bit 0 refused");
	len = three_msg_frame(buf, off);
	decode_once(&d, msgs, buf, len, len, 0x1004);
	tap_ok(d.refusal == 0, "decode: memory of 0x1004 bytes holds every address");
	buf[off[0] + DGR_MSG_OFF_NUM_MSGS] = 2; /* 12 bytes: a non-final fragment of 2 */
	decode_once(&d, msgs, buf, len, len, 0x1004);
	tap_ok(msgs[0].m.data_len == 12 && dgr_msg_validate(&msgs[0].m, 0, true, NULL) < 0 &&
		   msgs[0].refusal == 0,
	       "decode: the FPGA's fragment-length rule is not a receiver's refusal");
	decode_once(&d, msgs, buf, len, len, 0x1003);
	tap_ok(msgs[0].refusal == -DGR_E_ADDR_RANGE && msgs[2].refusal == -DGR_E_ADDR_RANGE &&
		   d.refusal == -DGR_E_ADDR_RANGE,
	       "decode: a flag beyond a memory of 0x1003 bytes refused");
	len = three_msg_frame(buf, off);
	decode_once(&d, msgs, buf, len - 4, len - 4, 0);
	tap_ok(d.nmsgs == 2 && d.end == DGR_DECODE_END_TRUNC_HDR && d.end_off == off[2] &&
		   d.refusal == -DGR_E_TRUNC_MSG_HDR,
	       "decode: a header the frame's end cuts ends the decode, the frame refused");
	decode_once(&d, msgs, buf, off[1] + 24 + 8, off[1] + 24 + 8, 0);
	tap_ok(d.nmsgs == 2 && d.end == DGR_DECODE_END_PAST_END &&
		   msgs[1].refusal == -DGR_E_MSG_PAST_END && d.refusal == -DGR_E_MSG_PAST_END &&
		   msgs[1].m.data == NULL,
	       "decode: data past the frame's end refused, the decode stops there");
	len = three_msg_frame(buf, off);
	buf[DGR_FRAME_OFF_FLAGS] = 2;
	decode_once(&d, msgs, buf, len, len, 0);
	tap_ok(d.hdr_err == -DGR_E_FRAME_FLAGS && d.refusal == -DGR_E_FRAME_FLAGS && d.nmsgs == 3,
	       "decode: frame flags 2 refuse the frame, its messages still decoded");
	buf[DGR_FRAME_OFF_FLAGS] = 0;
	decode_once(&d, msgs, buf, len, len, 0);
	tap_ok(d.nmsgs == 0 && d.end == DGR_DECODE_END_LAST && d.refusal == 0,
	       "decode: an ACK-only frame has no message");
	decode_once(&d, msgs, buf, 9, 9, 0);
	tap_ok(d.end == DGR_DECODE_END_NO_HEADER && d.refusal == -DGR_E_TRUNC_FRAME_HDR,
	       "decode: 9 bytes: no frame header");
	TAP_EQ_I(dgr_frame_decode(&d, buf, 60, 8, 0, msgs, 1), 0,
		 "decode: a frame header the snap length cut: no message");
	tap_ok(d.end == DGR_DECODE_END_HEADER_CUT && d.refusal == 0,
	       "decode: ... and nothing refused");

	/* the same verdict as the codec's cursor on its malformed frames */
	len = one_msg_frame(buf, 16, 1);
	decode_once(&d, msgs, buf, len, len, 0);
	TAP_EQ_I(d.refusal, decode_all(buf, len, err),
		 "decode: has_nextmsg with no next header, as the cursor says");
	len = one_msg_frame(buf, 16, 0);
	decode_once(&d, msgs, buf, 20, 20, 0);
	TAP_EQ_I(d.refusal, decode_all(buf, 20, err),
		 "decode: a header cut at 20 bytes, as the cursor says");

	/* snap lengths: nothing past the captured bytes is read, checked or refused */
	len = three_msg_frame(buf, off);
	buf[off[2] + DGR_MSG_OFF_TYPE] = 7; /* the cut third message is bad */
	decode_once(&d, msgs, buf, len, off[2] + 10, 0);
	tap_ok(d.nmsgs == 2 && d.end == DGR_DECODE_END_SNAP_CUT && d.end_off == off[2] &&
		   d.refusal == 0,
	       "decode, snap cut inside the third header: two messages, the cut one not refused");
	decode_once(&d, msgs, buf, len, off[1] + 24 + 4, 0);
	tap_ok(d.nmsgs == 2 && d.end == DGR_DECODE_END_SNAP_CUT && msgs[1].refusal == 0 &&
		   msgs[1].m.data == NULL && msgs[1].m.data_len == 16,
	       "decode, snap cut in the second message's data: its header decoded, data not "
	       "pointed to");
	len = three_msg_frame(buf, off);
	buf[off[0] + DGR_MSG_OFF_NEXTMSG] = 5;
	decode_once(&d, msgs, buf, len, off[1] + 4, 0);
	tap_ok(d.nmsgs == 1 && msgs[0].refusal == -DGR_E_MSG_TYPE && d.refusal == -DGR_E_MSG_TYPE,
	       "decode, snap cut: a bad message within the captured bytes is refused");
	len = three_msg_frame(buf, off);
	buf[off[0] + 24 + 14] = 0x55; /* gap byte 2 of 4, past the 13 captured ones */
	decode_once(&d, msgs, buf, len, off[0] + 24 + 13, 0);
	tap_ok(d.nmsgs == 1 && !msgs[0].pad_nonzero && msgs[0].refusal == 0 && d.refusal == 0,
	       "decode, snap cut in the padding: only captured padding is checked");
	decode_once(&d, msgs, buf, len, off[0] + 24 + 15, 0);
	tap_ok(msgs[0].pad_nonzero && msgs[0].refusal == -DGR_E_PADDING,
	       "decode, snap cut after the bad padding byte: refused");
	len = three_msg_frame(buf, off);
	decode_once(&d, msgs, buf, len + 100, len, 0);
	tap_ok(d.nmsgs == 3 && d.end == DGR_DECODE_END_LAST && d.refusal == 0,
	       "decode, snap cut after the last message: the whole frame");

	/* the caller's array and arguments */
	len = three_msg_frame(buf, off);
	TAP_EQ_I(dgr_frame_decode(&d, buf, len, len, 0, msgs, 2), 2,
		 "decode: room for two messages: two");
	tap_ok(d.end == DGR_DECODE_END_NO_ROOM && d.end_off == off[2],
	       "decode: ... and says where it stopped");
	tap_ok(dgr_frame_max_msgs(len) >= 3 && dgr_frame_max_msgs(0) == 1 &&
		   dgr_frame_max_msgs(10 + 24 * 5) == 5,
	       "decode: dgr_frame_max_msgs() bounds a frame's messages");
	TAP_EQ_I(dgr_frame_decode(&d, buf, 10, 20, 0, msgs, 1), -DGR_E_INVAL,
		 "decode: captured beyond len is an invalid argument");
	TAP_EQ_I(dgr_frame_decode(&d, NULL, 10, 10, 0, msgs, 1), -DGR_E_INVAL,
		 "decode: no buffer is an invalid argument");
}

int main(void)
{
	test_header_round_trip();
	test_flag_word();
	test_count_msgs();
	test_builder_limits();
	test_fragmentation();
	test_gather();
	test_doorbells_coalesced();
	test_malformed();
	test_frame_decode();
	test_error_names();
	test_seq_diff();
	return tap_done();
}
