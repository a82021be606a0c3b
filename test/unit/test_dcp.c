// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the DCP codec: every packet kind, byte layout, address space, errors. */
#include <dgrdma/dcp.h>

#include "tap.h"

static void round_trip(const char *what, const struct dcp_packet *p, int want_len,
		       const uint8_t *want_bytes)
{
	uint8_t buf[64];
	struct dcp_packet q;
	int len = dcp_encode(buf, sizeof(buf), p);

	TAP_EQ_I(len, want_len, "%s: encodes to %d bytes", what, want_len);
	if (want_bytes) {
		tap_ok(memcmp(buf, want_bytes, (size_t)want_len) == 0, "%s: exact bytes", what);
	}
	TAP_EQ_I(dcp_decode(buf, (size_t)len, &q, NULL), 0, "%s: decodes", what);
	tap_ok(q.kind == p->kind && q.tag == p->tag && q.addr == p->addr && q.data == p->data &&
		   q.nop_id == p->nop_id && memcmp(q.mac, p->mac, 6) == 0 &&
		   q.marker == p->marker && q.low == p->low && q.uncached == p->uncached,
	       "%s: round-trips", what);
}

static void test_kinds(void)
{
	struct dcp_packet w = { .kind = DCP_KIND_WRITE,
				.low = 0xF,
				.tag = 0x42,
				.addr = 0x104008,
				.data = 0xDEADBEEF };
	static const uint8_t wb[] = { 0x00, 0x0E, 0x00, 0x00, 0x1F, 0x42, 0x00,
				      0x10, 0x40, 0x08, 0xDE, 0xAD, 0xBE, 0xEF };
	struct dcp_packet r = {
		.kind = DCP_KIND_READ, .low = 0xF, .tag = 7, .addr = 0x20, .uncached = true
	};
	static const uint8_t rb[] = { 0x00, 0x0A, 0x00, 0x00, 0x6F, 0x07, 0x00, 0x00, 0x00, 0x20 };
	struct dcp_packet n = { .kind = DCP_KIND_NOP, .tag = 1 };
	struct dcp_packet rr = {
		.kind = DCP_KIND_READ_RESP, .low = DCP_RESP_OK, .tag = 7, .data = 0x01020304
	};
	struct dcp_packet wr = { .kind = DCP_KIND_WRITE_RESP, .low = DCP_RESP_ERROR, .tag = 0x42 };
	struct dcp_packet nr = { .kind = DCP_KIND_NOP_RESP,
				 .tag = 1,
				 .nop_id = 0xCAFE0001,
				 .mac = { 2, 0, 0, 0, 0, 9 },
				 .marker = DCP_NOP_MARKER };
	static const uint8_t nrb[] = { 0x00, 0x12, 0x00, 0x00, 0x30, 0x01, 0xCA, 0xFE, 0x00,
				       0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x09, 0x00, 0x40 };

	round_trip("write request", &w, DCP_LEN_WRITE, wb);
	round_trip("uncached read request", &r, DCP_LEN_READ, rb);
	round_trip("NOP (discovery)", &n, DCP_LEN_NOP, NULL);
	round_trip("read response", &rr, DCP_LEN_READ_RESP, NULL);
	round_trip("write response with error code", &wr, DCP_LEN_WRITE_RESP, NULL);
	round_trip("NOP response", &nr, DCP_LEN_NOP_RESP, nrb);
}

static void test_errors(void)
{
	uint8_t buf[64] = { 0x00, 0x0E, 0x00, 0x00, 0x10, 0x01 };
	struct dcp_packet p;
	char err[DGR_ERRBUF_SIZE];

	TAP_EQ_I(dcp_decode(buf, 5, &p, err), -DGR_E_DCP_SHORT, "5 bytes is too short");
	TAP_EQ_I(dcp_decode(buf, 10, &p, err), -DGR_E_DCP_LENGTH,
		 "length field 14 with 10 bytes present");
	tap_ok(strstr(err, "length") != NULL, "length error has a message (%s)", err);
	buf[1] = 0x0C;
	TAP_EQ_I(dcp_decode(buf, 14, &p, err), -DGR_E_DCP_TYPE, "write of 12 bytes is unknown");
	buf[1] = 0x04;
	TAP_EQ_I(dcp_decode(buf, 14, &p, err), -DGR_E_DCP_LENGTH, "length field below 6");
	buf[1] = 0x07;
	buf[4] = 0x30;
	TAP_EQ_I(dcp_decode(buf, 14, &p, err), -DGR_E_DCP_TYPE, "response of 7 bytes is unknown");
	buf[1] = 0x0E;
	buf[4] = 0x10;
	TAP_EQ_I(dcp_decode(buf, 60, &p, err), 0, "Ethernet padding after the packet is ignored");
	TAP_EQ_I(dcp_encode(buf, 13, &(struct dcp_packet){ .kind = DCP_KIND_WRITE }),
		 -DGR_E_NOSPACE, "encoding a write into 13 bytes fails");
}

static void test_addresses(void)
{
	struct dcp_addr a;

	dcp_addr_decode(0x0FFC, &a);
	tap_ok(a.space == DCP_SPACE_ADMIN && a.worker == -1 && a.offset == 0xFFC, "admin space");
	dcp_addr_decode(0x2000, &a);
	tap_ok(a.space == DCP_SPACE_UNMAPPED, "0x2000 is unmapped");
	dcp_addr_decode(dcp_control_addr(2, DCP_CTL_START), &a);
	tap_ok(a.space == DCP_SPACE_CONTROL && a.worker == 2 && a.offset == DCP_CTL_START,
	       "control space: worker 2 start at 0x%x", dcp_control_addr(2, DCP_CTL_START));
	TAP_EQ_U(dcp_control_addr(0, DCP_CTL_STOP), 0x4008, "worker 0 stop is 0x4008");
	dcp_addr_decode(dcp_property_addr(3, 0x10), &a);
	tap_ok(a.space == DCP_SPACE_PROPERTY && a.worker == 3 && a.offset == 0x10,
	       "property space: worker 3 offset 0x10");
	TAP_EQ_U(dcp_property_addr(0, 0), 0x100000, "worker 0 properties start at 0x100000");
	dcp_addr_decode(0x40000, &a);
	tap_ok(a.space == DCP_SPACE_PROPERTY && a.worker == -1,
	       "0x40000 is property space with no valid worker");
	tap_ok(strcmp(dcp_control_op_name(DCP_CTL_AFTER_CONFIG), "after-configure") == 0 &&
		   dcp_control_op_name(0x1C) == NULL,
	       "control operation names");
	tap_ok(strcmp(dcp_resp_code_name(DCP_RESP_WORKER_BUSY), "worker busy") == 0 &&
		   strcmp(dcp_resp_code_name(9), "unknown") == 0,
	       "response code names");
}

int main(void)
{
	test_kinds();
	test_errors();
	test_addresses();
	return tap_done();
}
