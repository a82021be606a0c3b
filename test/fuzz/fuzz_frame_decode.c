// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the capture input's decoder (analysis/input/frame_decode.c)
 * alone, with the properties of its result checked: every view lies inside
 * the captured bytes and captures no more than the wire had, and a fragment's
 * bytes, decoded as the datagram they would complete, obey the same.
 *
 * Input: one byte selecting the link type, two bytes of a UDP port given
 * (big-endian), three bytes the wire had beyond the captured ones
 * (little-endian), then the captured frame, copied to a buffer of exactly its
 * length so that a read past it is an ASan error.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/dlt.h>

#include "frame_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int link_types[] = { DLT_EN10MB, DLT_LINUX_SLL, DLT_LINUX_SLL2, DLT_RAW,
				  DLT_IPV4,   DLT_NULL,	     DLT_LOOP,	     DLT_IPV6 };

/* Stops the run (a crash libFuzzer reports) when a view leaves buf[0..cap). */
static void check_view(const struct frame_decoded *f, const uint8_t *buf, size_t cap)
{
	if (f->kind == FD_MALFORMED && f->reason >= 0) {
		__builtin_trap(); /* a reason is a negative DGR_E_* code */
	}
	if (f->kind != FD_DGRDMA && f->kind != FD_DCP && f->kind != FD_IP_FRAGMENT &&
	    !(f->kind == FD_FOREIGN_UDP && f->foreign_whole)) {
		return;
	}
	if (f->payload.cap > f->payload.len || f->payload.p < buf || f->payload.p > buf + cap ||
	    f->payload.cap > (size_t)(buf + cap - f->payload.p)) {
		__builtin_trap();
	}
	if (f->kind == FD_IP_FRAGMENT && f->payload.cap != f->payload.len) {
		__builtin_trap(); /* a fragment is whole or not one */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct frame_decoded f;
	uint16_t given;
	struct fd_ports ports = { &given, 1 };
	size_t cap, extra;
	uint8_t *frame;
	int dlt;

	if (size < 6) {
		return 0;
	}
	dlt = link_types[data[0] % (sizeof(link_types) / sizeof(link_types[0]))];
	given = (uint16_t)(data[1] << 8 | data[2]);
	extra = (size_t)data[3] | (size_t)data[4] << 8 | (size_t)data[5] << 16;
	cap = size - 6;
	frame = malloc(cap ? cap : 1);
	if (!frame) {
		return 0;
	}
	memcpy(frame, data + 6, cap);
	frame_decode(&f, dlt, frame, cap, cap + extra, &ports);
	check_view(&f, frame, cap);
	if (f.kind == FD_IP_FRAGMENT) {
		/* its bytes as if they were the whole datagram */
		const uint8_t *p = f.payload.p;

		frame_decode_datagram(&f, p, f.payload.len, &ports);
		check_view(&f, frame, cap);
	}
	free(frame);
	return 0;
}
