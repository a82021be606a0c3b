// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for latency-report's capture path: link layers (Ethernet
 * with VLAN tags, Linux cooked v1/v2, raw IP, BSD loopback), UDP over IPv4
 * and IPv6 with the pad rule and IP fragments put back together, DG-RDMA and
 * DCP, and the analysis engine behind them, fed frame by frame as
 * pcap_input_read() does and then finished as at the end of a capture.
 *
 * Input: one byte selecting the link type, then records of
 *	caplen (3 bytes, little-endian) | bytes the wire had beyond it (3) |
 *	time step in us (1) | caplen bytes.
 * (3 bytes: frames longer than 64 KiB, which link types other than Ethernet allow.)
 * Each frame is copied to a buffer of exactly caplen bytes, so that a read
 * past the captured bytes is an ASan error.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "pcap_input.h"
#include "wire_analysis.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifndef DLT_IPV6
#define DLT_IPV6 229
#endif

static const int link_types[] = { DLT_EN10MB, DLT_LINUX_SLL, DLT_LINUX_SLL2, DLT_RAW,
				  DLT_IPV4,   DLT_NULL,	     DLT_LOOP,	     DLT_IPV6 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char errbuf[DGR_ERRBUF_SIZE];
	struct wire_analysis w;
	struct wa_opts o;
	struct pcap_pkthdr h;
	uint64_t ref = 0;
	size_t at = 1;
	int dlt;

	if (size < 1) {
		return 0;
	}
	dlt = link_types[data[0] % (sizeof(link_types) / sizeof(link_types[0]))];
	memset(&o, 0, sizeof(o));
	if (wa_init(&w, &o, errbuf) < 0) {
		return 0;
	}
	memset(&h, 0, sizeof(h));
	while (at + 7 <= size) {
		size_t cap =
		    (size_t)data[at] | (size_t)data[at + 1] << 8 | (size_t)data[at + 2] << 16;
		size_t extra =
		    (size_t)data[at + 3] | (size_t)data[at + 4] << 8 | (size_t)data[at + 5] << 16;
		uint8_t *frame;

		h.ts.tv_usec += data[at + 6];
		if (h.ts.tv_usec >= 1000000) {
			h.ts.tv_sec++;
			h.ts.tv_usec -= 1000000;
		}
		at += 7;
		if (cap > size - at) {
			cap = size - at;
		}
		frame = malloc(cap ? cap : 1);
		if (!frame) {
			break;
		}
		memcpy(frame, data + at, cap);
		h.caplen = (bpf_u_int32)cap;
		h.len = (bpf_u_int32)(cap + extra);
		pcap_input_feed(&w, dlt, &h, frame, ++ref);
		free(frame);
		at += cap;
	}
	wa_finish(&w);
	wa_free(&w);
	return 0;
}
