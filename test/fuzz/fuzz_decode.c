// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for every decoder that faces the wire: the DG-RDMA frame
 * parser and message validation (both as raw Ethernet payload and as UDP
 * payload), the reassembler fed with what decodes, and the DCP decoder.
 * The first byte selects the memory size used for address checks. The
 * one-pass decode (dgr_frame_decode()) must give the verdict of the cursor
 * and, on a copy cut to a snap length taken from the input, read nothing past
 * the copy.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/dcp.h>
#include <dgrdma/reassembly.h>
#include <dgrdma/wire.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The receiver's verdict on a frame by the cursor: the first error, as eng_frame_check(). */
static int cursor_verdict(const uint8_t *buf, size_t len, uint64_t mem, unsigned int *nmsgs)
{
	struct dgr_frame f;
	struct dgr_msg m;
	int rc = dgr_frame_parse(&f, buf, len, NULL);

	*nmsgs = 0;
	while (rc == 0 && (rc = dgr_frame_next_msg(&f, &m, NULL)) > 0) {
		(*nmsgs)++;
		rc = dgr_msg_validate(&m, mem, false, NULL);
	}
	return rc;
}

static void decode_once(const uint8_t *buf, size_t len, uint64_t mem)
{
	unsigned int max = dgr_frame_max_msgs(len);
	struct dgr_decoded_msg *msgs = malloc(max * sizeof(*msgs));
	struct dgr_decoded_frame d;
	unsigned int n;
	size_t cut;
	uint8_t *copy;

	if (!msgs) {
		return;
	}
	dgr_frame_decode(&d, buf, len, len, mem, msgs, max);
	if (d.refusal != cursor_verdict(buf, len, mem, &n) || (d.refusal == 0 && d.nmsgs != n)) {
		abort(); /* the one-pass decode and the cursor disagree */
	}
	/* a snap length from the frame's last byte: only the copy's bytes may be read */
	cut = len > 0 ? buf[len - 1] % (len + 1) : 0;
	copy = malloc(cut ? cut : 1);
	if (copy) {
		memcpy(copy, buf, cut);
		dgr_frame_decode(&d, copy, len, cut, mem, msgs, dgr_frame_max_msgs(cut));
		free(copy);
	}
	free(msgs);
}

static void decode_frame(const uint8_t *buf, size_t len, uint64_t mem, struct dgr_reasm *r)
{
	char err[DGR_ERRBUF_SIZE];
	struct dgr_frame f;
	struct dgr_msg m;
	struct dgr_txn_info done;
	int rc;

	if (dgr_frame_parse(&f, buf, len, err) < 0) {
		return;
	}
	while ((rc = dgr_frame_next_msg(&f, &m, err)) > 0) {
		/* Touch every data byte: ASan checks the pointer and length. */
		volatile uint8_t sink = 0;

		for (size_t i = 0; i < m.data_len; i++) {
			sink ^= m.data[i];
		}
		(void)sink;
		if (dgr_msg_validate(&m, mem, true, err) == 0) {
			dgr_reasm_add(r, &m, 0, 0, &done);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dgr_reasm *r;
	const uint8_t *frame;
	size_t flen;
	struct dcp_packet p;
	uint64_t mem;

	if (size < 1) {
		return 0;
	}
	if (!r) {
		r = dgr_reasm_new(64, NULL);
	}
	mem = (uint64_t)data[0] << 12;
	data++;
	size--;
	decode_frame(data, size, mem, r);
	decode_once(data, size, mem);
	if (dgr_udp_unwrap(data, size, &frame, &flen) == 0) {
		decode_frame(frame, flen, mem, r);
		decode_once(frame, flen, mem);
	}
	dcp_decode(data, size, &p, NULL);
	if (dgr_reasm_outstanding(r) > 32) {
		dgr_reasm_expire(r, UINT64_MAX, NULL, NULL);
	}
	return 0;
}
