// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The emulated container's DCP server: discovery NOPs, the admin space, the
 * control operations of each worker and the property space of props.c, with
 * the response codes of the protocol (an unknown address or a write to a
 * read-only property answers error). docs/fpga.md section 4.
 */
#include <string.h>
#include <time.h>

#include "emu.h"

/* Admin space (a subset of OpenCPI's): magic words, revision, worker mask, scratch. */
#define ADMIN_MAGIC1	  0x00
#define ADMIN_MAGIC2	  0x04
#define ADMIN_REVISION	  0x08
#define ADMIN_BIRTHDAY	  0x0C
#define ADMIN_WORKER_MASK 0x10
#define ADMIN_SCRATCH20	  0x20
#define ADMIN_SCRATCH24	  0x24
#define OCCP_MAGIC1	  0x4F70656Eu /* "Open" */
#define OCCP_MAGIC2	  0x43504900u /* "CPI\0" */

static int admin_read(struct fpga_emu *e, uint32_t addr, uint32_t *v)
{
	switch (addr) {
	case ADMIN_MAGIC1:
		*v = OCCP_MAGIC1;
		return 0;
	case ADMIN_MAGIC2:
		*v = OCCP_MAGIC2;
		return 0;
	case ADMIN_REVISION:
		*v = 1;
		return 0;
	case ADMIN_BIRTHDAY:
		*v = (uint32_t)(e->t0_ns / 1000000000ull);
		return 0;
	case ADMIN_WORKER_MASK:
		*v = (1u << DGR_WORKER_COUNT) - 1;
		return 0;
	case ADMIN_SCRATCH20:
		*v = e->scratch[0];
		return 0;
	case ADMIN_SCRATCH24:
		*v = e->scratch[1];
		return 0;
	default:
		return -DGR_E_ADDR_RANGE;
	}
}

static int admin_write(struct fpga_emu *e, uint32_t addr, uint32_t v)
{
	switch (addr) {
	case ADMIN_SCRATCH20:
		e->scratch[0] = v;
		return 0;
	case ADMIN_SCRATCH24:
		e->scratch[1] = v;
		return 0;
	default:
		return -DGR_E_ADDR_RANGE;
	}
}

/* Reads one word anywhere. Returns 0 or a negative code (the answer is error). */
static int read_word(struct fpga_emu *e, uint32_t addr, uint32_t *v)
{
	struct dcp_addr a;
	bool ok;

	dcp_addr_decode(addr, &a);
	switch (a.space) {
	case DCP_SPACE_ADMIN:
		return admin_read(e, a.offset, v);
	case DCP_SPACE_CONTROL:
		if (a.worker < 0 || a.worker >= DGR_WORKER_COUNT) {
			return -DGR_E_ADDR_RANGE;
		}
		/* as OCCP: the answer is OK and the word says success or error */
		*v = fpga_control_op(e, (unsigned int)a.worker, a.offset, &ok);
		return ok ? 0 : -DGR_E_ADDR_RANGE;
	case DCP_SPACE_PROPERTY:
		if (a.worker < 0 || a.worker >= DGR_WORKER_COUNT) {
			return -DGR_E_ADDR_RANGE;
		}
		return fpga_prop_read_word(e, (unsigned int)a.worker, a.offset, v);
	default:
		return -DGR_E_ADDR_RANGE;
	}
}

static uint32_t enable_mask(uint8_t be)
{
	uint32_t m = 0;

	for (int i = 0; i < 4; i++) {
		if (be & (1u << i)) {
			m |= 0xFFu << (8 * i);
		}
	}
	return m;
}

static int write_word(struct fpga_emu *e, uint32_t addr, uint32_t v, uint8_t be)
{
	struct dcp_addr a;
	uint32_t mask = enable_mask(be);
	uint32_t old = 0;
	bool ok;

	dcp_addr_decode(addr, &a);
	switch (a.space) {
	case DCP_SPACE_ADMIN:
		if (mask != 0xFFFFFFFFu) {
			admin_read(e, a.offset, &old);
		}
		return admin_write(e, a.offset, (old & ~mask) | (v & mask));
	case DCP_SPACE_CONTROL:
		/* a write performs the operation too (the answer carries no result word) */
		if (a.worker < 0 || a.worker >= DGR_WORKER_COUNT || a.offset == DCP_CTL_STATUS) {
			return -DGR_E_ADDR_RANGE;
		}
		return fpga_control_op(e, (unsigned int)a.worker, a.offset, &ok) ==
				   DGR_OCCP_SUCCESS &&
			       ok
			   ? 0
			   : -DGR_E_STATE;
	case DCP_SPACE_PROPERTY:
		if (a.worker < 0 || a.worker >= DGR_WORKER_COUNT) {
			return -DGR_E_ADDR_RANGE;
		}
		if (mask != 0xFFFFFFFFu) {
			const struct fpga_prop *p =
			    fpga_prop_find((unsigned int)a.worker, a.offset);

			if (p && p->access == FPGA_RW) {
				fpga_prop_read_word(e, (unsigned int)a.worker, a.offset, &old);
			}
		}
		return fpga_prop_write_word(e, (unsigned int)a.worker, a.offset,
					    (old & ~mask) | (v & mask));
	default:
		return -DGR_E_ADDR_RANGE;
	}
}

/* See emu.h. */
int fpga_dcp_handle(struct fpga_emu *e, const uint8_t *req, size_t len, uint8_t *out, size_t cap)
{
	struct dcp_packet p, r;
	struct dgr_addr local;
	uint32_t v = 0;
	int rc;

	if (dcp_decode(req, len, &p, NULL) < 0) {
		e->cnt.dcp_malformed++;
		return 0;
	}
	if (dcp_is_response(p.kind)) {
		e->cnt.dcp_malformed++; /* a container does not take responses */
		return 0;
	}
	memset(&r, 0, sizeof(r));
	r.tag = p.tag;
	e->cnt.dcp_requests++;
	switch (p.kind) {
	case DCP_KIND_NOP:
		r.kind = DCP_KIND_NOP_RESP;
		r.nop_id = FPGA_NOP_ID;
		if (e->tr) {
			dgr_transport_local_addr(e->tr, &local);
			memcpy(r.mac, local.mac, 6);
		}
		r.marker = DCP_NOP_MARKER;
		r.low = DCP_RESP_OK;
		break;
	case DCP_KIND_READ:
		r.kind = DCP_KIND_READ_RESP;
		rc = read_word(e, p.addr & DCP_ADDR_MASK, &v);
		r.low = rc < 0 ? DCP_RESP_ERROR : DCP_RESP_OK;
		r.data = rc < 0 ? 0 : v;
		break;
	case DCP_KIND_WRITE:
		r.kind = DCP_KIND_WRITE_RESP;
		rc = write_word(e, p.addr & DCP_ADDR_MASK, p.data, p.low);
		r.low = rc < 0 ? DCP_RESP_ERROR : DCP_RESP_OK;
		break;
	default:
		e->cnt.dcp_malformed++;
		return 0;
	}
	if (r.low != DCP_RESP_OK) {
		e->cnt.dcp_errors++;
	}
	rc = dcp_encode(out, cap, &r);
	return rc < 0 ? 0 : rc;
}
