/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the host stack's receive path (stack/src/rx.c):
 * every input is a sequence of frames (2-byte little-endian length, then the
 * bytes) fed through dgr_rx_frame() of a connection with both paths (RX
 * and TX port memories) of 4 buffers of 256 bytes (threads not started),
 * with ACKs and retransmission on. ASan
 * and UBSan report any write outside the pool or any undefined behaviour,
 * and the harness aborts when a frame that was not taken (malformed, for
 * other ids, a duplicate, far ahead) changed the sequence state: a frame's
 * frame_seq is recorded only once the frame was accepted whole.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conn_priv.h"

static struct dgr_conn *conn;
static struct dgr_rx_ctx rx;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct dgr_conn_opts o;
	char err[DGR_ERRBUF_SIZE];

	(void)argc;
	(void)argv;
	dgr_conn_opts_init(&o);
	o.transport.kind = DGR_TRANSPORT_UDP;
	dgr_parse_inet("127.0.0.1:0", 0, &o.transport.bind_addr);
	o.direction = DGR_DIR_BOTH; /* both port memories: every dispatch of rx.c */
	o.buffers = 4;
	o.buffer_size = 256;
	o.peer_buffers = 2;
	o.acks = true;
	o.retransmit_ms = 100;
	o.latency_samples = 16;
	if (dgr_conn_open(&o, &conn, err) < 0) {
		abort();
	}
	rx.c = conn;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t now = 1000;
	struct dgr_ack_ev ev;

	dgr_dupfilter_init(&rx.dup);
	while (size >= 2) {
		size_t len = (size_t)(data[0] | (data[1] << 8));

		data += 2;
		size -= 2;
		if (len > size) {
			len = size;
		}
		struct dgr_dupfilter before = rx.dup;
		uint64_t taken = conn->st.frames_accepted;

		dgr_rx_frame(&rx, data, len, now, now);
		if (conn->st.frames_accepted == taken &&
		    (before.started != rx.dup.started || before.highest != rx.dup.highest ||
		     before.missing != rx.dup.missing ||
		     memcmp(before.bits, rx.dup.bits, sizeof(before.bits)) != 0)) {
			abort(); /* a frame not taken changed the duplicate filter */
		}
		data += len;
		size -= len;
		now += 1000;
	}
	/* what the consumer and the tx thread would do: free the buffers, drain the ACKs */
	for (unsigned int i = 0; i < conn->nports; i++) {
		memset(conn->port[i].flags, 0, 4 * DGR_PORT_FLAGS);
	}
	while (dgr_spsc_pop(&conn->acks, &ev)) {
	}
	dgr_reasm_expire(conn->reasm, UINT64_MAX, NULL, NULL);
	return 0;
}
