// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the DCP decoder (stack/src/dcp.c) with its properties
 * checked, not only its memory safety:
 *  - dcp_decode() either fills errbuf and returns one of its documented codes,
 *    or returns 0 with a kind whose length is the packet's length field;
 *  - a decoded packet encodes back (dcp_encode) to the same bytes, apart from the
 *    bits the decoder masks (the 24-bit address, the response's uncached bit), and
 *    decodes again to the same packet;
 *  - every address decodes (dcp_addr_decode) into a space whose worker and offset
 *    rebuild it with dcp_control_addr()/dcp_property_addr();
 *  - the name functions never return NULL where dcp.h says so.
 * A broken property aborts, which libFuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/dcp.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(cond)                                                                              \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

static void check_addr(uint32_t addr)
{
	struct dcp_addr a;

	dcp_addr_decode(addr, &a);
	addr &= 0xFFFFFF;
	switch (a.space) {
	case DCP_SPACE_ADMIN:
	case DCP_SPACE_UNMAPPED:
		REQUIRE(a.worker == -1 && a.offset == addr);
		break;
	case DCP_SPACE_CONTROL:
		if (a.worker >= 0) {
			REQUIRE(dcp_control_addr((unsigned int)a.worker, a.offset) == addr);
		}
		(void)dcp_control_op_name(a.offset);
		break;
	case DCP_SPACE_PROPERTY:
		if (a.worker >= 0) {
			REQUIRE(dcp_property_addr((unsigned int)a.worker, a.offset) == addr);
		}
		break;
	default:
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[DGR_ERRBUF_SIZE];
	struct dcp_packet p, q;
	uint8_t out[32], again[32];
	uint8_t mask;
	int rc, n;

	err[0] = '\0';
	rc = dcp_decode(data, size, &p, err);
	if (rc < 0) {
		REQUIRE(rc == -DGR_E_DCP_SHORT || rc == -DGR_E_DCP_LENGTH || rc == -DGR_E_DCP_TYPE);
		REQUIRE(err[0] != '\0' && memchr(err, '\0', sizeof(err)) != NULL);
		/* without an error buffer: the same answer */
		REQUIRE(dcp_decode(data, size, &q, NULL) == rc);
		return 0;
	}
	REQUIRE(rc == 0);
	REQUIRE(p.length <= size);
	REQUIRE(dcp_kind_name(p.kind) != NULL && strcmp(dcp_kind_name(p.kind), "unknown") != 0);
	REQUIRE(dcp_resp_code_name(p.low) != NULL);

	n = dcp_encode(out, sizeof(out), &p);
	REQUIRE(n == p.length);
	REQUIRE(dcp_encode(out, (size_t)n - 1, &p) == -DGR_E_NOSPACE);
	/*
	 * length, type and tag bytes as received, apart from the reserved bit and a
	 * response's uncached bit (the decoder ignores both, the encoder writes 0)
	 */
	REQUIRE(memcmp(out + DCP_OFF_LENGTH, data + DCP_OFF_LENGTH, 2) == 0);
	REQUIRE(out[DCP_OFF_TAG] == data[DCP_OFF_TAG]);
	mask = dcp_is_response(p.kind) ? 0x3F : 0x7F;
	REQUIRE((out[DCP_OFF_TYPE] & mask) == (data[DCP_OFF_TYPE] & mask));
	REQUIRE(dcp_decode(out, (size_t)n, &q, NULL) == 0);
	REQUIRE(q.kind == p.kind && q.length == p.length && q.type == p.type && q.low == p.low &&
		q.uncached == p.uncached && q.tag == p.tag && q.addr == p.addr &&
		q.data == p.data && q.nop_id == p.nop_id && q.marker == p.marker &&
		memcmp(q.mac, p.mac, sizeof(q.mac)) == 0);
	REQUIRE(dcp_encode(again, sizeof(again), &q) == n && memcmp(again, out, (size_t)n) == 0);
	if (p.kind == DCP_KIND_WRITE || p.kind == DCP_KIND_READ || p.kind == DCP_KIND_NOP) {
		REQUIRE(p.addr <= 0xFFFFFF);
		check_addr(p.addr);
	}
	/* any 32-bit value as an address: the data word of a DCP doorbell becomes one */
	check_addr(p.data);
	return 0;
}
