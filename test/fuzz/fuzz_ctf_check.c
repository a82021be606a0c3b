// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the trace reader's checks (analysis/input/ctf_check.c), which
 * see a trace's files before libbabeltrace2 does: the metadata (packetized or
 * text), the TSDL text alone, a stream file's start and an LTTng index against
 * its stream size. The first byte chooses; for the index the next 8 bytes are
 * the stream size (bit 2 of the first byte: a stream longer than its index
 * allowed). Besides memory safety it checks the contract: a refusal fills
 * errbuf, an accepted index names back-to-back packets ending at the stream
 * size, or inside it when a longer stream is allowed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "ctf_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require_message(int rc, const char *err)
{
	if (rc < 0 &&
	    (rc != -DGR_E_INVAL || err[0] == '\0' || !memchr(err, '\0', DGR_ERRBUF_SIZE))) {
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[DGR_ERRBUF_SIZE];
	struct ctf_meta_facts mf;
	uint64_t offs[64], stream_size = 0, end = 0;
	unsigned int streams;
	long n;
	int rc;

	if (size < 1) {
		return 0;
	}
	err[0] = '\0';
	switch (data[0] % 4) {
	case 0:
		rc = ctf_check_metadata(data + 1, size - 1, &mf, err);
		require_message(rc, err);
		if (rc == 0 && mf.text_len > size) {
			abort();
		}
		break;
	case 1:
		rc = ctf_check_tsdl((const char *)data + 1, size - 1, &streams, err);
		require_message(rc, err);
		break;
	case 2:
		memset(&mf, 0, sizeof(mf));
		mf.packetized = data[0] & 0x10;
		mf.big_endian = data[0] & 0x20;
		rc = ctf_check_stream_start(data + 1, size - 1, size - 1, &mf, err);
		require_message(rc, err);
		break;
	default:
		if (size < 9) {
			return 0;
		}
		memcpy(&stream_size, data + 1, 8);
		stream_size >>= data[0] >> 2; /* small sizes too */
		n = ctf_check_index(data + 9, size - 9, stream_size, offs, 64,
				    (data[0] & 4) ? &end : NULL, err);
		require_message(n < 0 ? (int)n : 0, err);
		if (n > 0 && offs[0] != 0) {
			abort();
		}
		if (n >= 0 && (data[0] & 4) && end > stream_size) {
			abort(); /* the packets end inside the stream */
		}
		for (long i = 1; i < n && i < 64; i++) {
			if (offs[i] <= offs[i - 1] || offs[i] >= stream_size) {
				abort();
			}
		}
		break;
	}
	return 0;
}
