// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DCP codec: control packets of the HDL container (ethertype 0xF040).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <dgrdma/contract.h>
#include <dgrdma/dcp.h>

/* The contract's doorbell address is dcp_property_addr(DGR_WORKER_CONFIG, DGR_PROP_DOORBELL). */
_Static_assert(DGR_DCP_DOORBELL_ADDR ==
		   (((DGR_WORKER_CONFIG + 1u) << DCP_PROPERTY_WORKER_SHIFT) | DGR_PROP_DOORBELL),
	       "DGR_DCP_DOORBELL_ADDR is not worker 0's doorbell property");
_Static_assert(DGR_PORT_BASE_MAX == 0x100000000ull - DGR_PORT_SPAN,
	       "a port memory at DGR_PORT_BASE_MAX must end below 4 GiB");

static uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static uint32_t get_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static int dcp_fail(char *errbuf, int err, const char *what, size_t a, size_t b)
{
	if (errbuf) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: %s (%zu, %zu)", dgr_strerror(err), what, a,
			 b);
	}
	return -err;
}

static int kind_for(uint8_t type, uint16_t length, enum dcp_kind *kind)
{
	switch (type) {
	case DCP_TYPE_NOP:
		*kind = DCP_KIND_NOP;
		return length == DCP_LEN_NOP;
	case DCP_TYPE_WRITE:
		*kind = DCP_KIND_WRITE;
		return length == DCP_LEN_WRITE;
	case DCP_TYPE_READ:
		*kind = DCP_KIND_READ;
		return length == DCP_LEN_READ;
	default:
		if (length == DCP_LEN_WRITE_RESP) {
			*kind = DCP_KIND_WRITE_RESP;
		} else if (length == DCP_LEN_READ_RESP) {
			*kind = DCP_KIND_READ_RESP;
		} else if (length == DCP_LEN_NOP_RESP) {
			*kind = DCP_KIND_NOP_RESP;
		} else {
			return 0;
		}
		return 1;
	}
}

/* See dcp.h. */
int dcp_decode(const uint8_t *buf, size_t len, struct dcp_packet *p, char *errbuf)
{
	uint8_t te;

	memset(p, 0, sizeof(*p));
	if (!buf || len < DCP_LEN_WRITE_RESP) {
		return dcp_fail(errbuf, DGR_E_DCP_SHORT, "bytes, need", len, DCP_LEN_WRITE_RESP);
	}
	p->length = get_be16(buf + DCP_OFF_LENGTH);
	if (p->length < DCP_LEN_WRITE_RESP || p->length > len) {
		return dcp_fail(errbuf, DGR_E_DCP_LENGTH, "length field vs bytes", p->length, len);
	}
	te = buf[DCP_OFF_TYPE];
	p->type = (uint8_t)((te & DCP_TYPE_MASK) >> DCP_TYPE_SHIFT);
	p->low = te & DCP_LOW_MASK;
	p->uncached = p->type != DCP_TYPE_RESPONSE && (te & DCP_UNCACHED) != 0;
	p->tag = buf[DCP_OFF_TAG];
	if (!kind_for(p->type, p->length, &p->kind)) {
		return dcp_fail(errbuf, DGR_E_DCP_TYPE, "type and length", p->type, p->length);
	}
	switch (p->kind) {
	case DCP_KIND_WRITE:
		p->addr = get_be32(buf + DCP_OFF_ADDR) & DCP_ADDR_MASK;
		p->data = get_be32(buf + DCP_OFF_DATA);
		break;
	case DCP_KIND_READ:
	case DCP_KIND_NOP:
		p->addr = get_be32(buf + DCP_OFF_ADDR) & DCP_ADDR_MASK;
		break;
	case DCP_KIND_READ_RESP:
		p->data = get_be32(buf + DCP_OFF_ADDR);
		break;
	case DCP_KIND_NOP_RESP:
		p->nop_id = get_be32(buf + DCP_NOP_RESP_OFF_ID);
		memcpy(p->mac, buf + DCP_NOP_RESP_OFF_MAC, 6);
		p->marker = buf[DCP_NOP_RESP_OFF_MARKER];
		break;
	case DCP_KIND_WRITE_RESP:
		break;
	}
	return 0;
}

static uint16_t kind_length(enum dcp_kind k, uint8_t *type)
{
	switch (k) {
	case DCP_KIND_NOP:
		*type = DCP_TYPE_NOP;
		return DCP_LEN_NOP;
	case DCP_KIND_WRITE:
		*type = DCP_TYPE_WRITE;
		return DCP_LEN_WRITE;
	case DCP_KIND_READ:
		*type = DCP_TYPE_READ;
		return DCP_LEN_READ;
	case DCP_KIND_WRITE_RESP:
		*type = DCP_TYPE_RESPONSE;
		return DCP_LEN_WRITE_RESP;
	case DCP_KIND_READ_RESP:
		*type = DCP_TYPE_RESPONSE;
		return DCP_LEN_READ_RESP;
	case DCP_KIND_NOP_RESP:
		*type = DCP_TYPE_RESPONSE;
		return DCP_LEN_NOP_RESP;
	}
	return 0;
}

/* See dcp.h. */
int dcp_encode(uint8_t *buf, size_t cap, const struct dcp_packet *p)
{
	uint8_t type = 0;
	uint16_t length = kind_length(p->kind, &type);
	uint8_t te;

	if (length == 0 || !buf || cap < length) {
		return -DGR_E_NOSPACE;
	}
	memset(buf, 0, length);
	put_be16(buf + DCP_OFF_LENGTH, length);
	te = (uint8_t)((type << DCP_TYPE_SHIFT) | (p->low & DCP_LOW_MASK));
	if (type != DCP_TYPE_RESPONSE && p->uncached) {
		te |= DCP_UNCACHED;
	}
	buf[DCP_OFF_TYPE] = te;
	buf[DCP_OFF_TAG] = p->tag;
	switch (p->kind) {
	case DCP_KIND_WRITE:
		put_be32(buf + DCP_OFF_ADDR, p->addr & DCP_ADDR_MASK);
		put_be32(buf + DCP_OFF_DATA, p->data);
		break;
	case DCP_KIND_READ:
	case DCP_KIND_NOP:
		put_be32(buf + DCP_OFF_ADDR, p->addr & DCP_ADDR_MASK);
		break;
	case DCP_KIND_READ_RESP:
		put_be32(buf + DCP_OFF_ADDR, p->data);
		break;
	case DCP_KIND_NOP_RESP:
		put_be32(buf + DCP_NOP_RESP_OFF_ID, p->nop_id);
		memcpy(buf + DCP_NOP_RESP_OFF_MAC, p->mac, 6);
		buf[DCP_NOP_RESP_OFF_MARKER] = p->marker;
		break;
	case DCP_KIND_WRITE_RESP:
		break;
	}
	return length;
}

/* See dcp.h. */
const char *dcp_kind_name(enum dcp_kind k)
{
	switch (k) {
	case DCP_KIND_NOP:
		return "nop";
	case DCP_KIND_WRITE:
		return "write";
	case DCP_KIND_READ:
		return "read";
	case DCP_KIND_WRITE_RESP:
		return "write response";
	case DCP_KIND_READ_RESP:
		return "read response";
	case DCP_KIND_NOP_RESP:
		return "nop response";
	}
	return "unknown";
}

/* See dcp.h. */
const char *dcp_resp_code_name(uint8_t code)
{
	switch (code) {
	case DCP_RESP_OK:
		return "ok";
	case DCP_RESP_WORKER_TIMEOUT:
		return "worker timeout";
	case DCP_RESP_WORKER_BUSY:
		return "worker busy";
	case DCP_RESP_ERROR:
		return "error";
	case DCP_RESP_ETHER_TIMEOUT:
		return "ethernet timeout";
	default:
		return "unknown";
	}
}

/* See dcp.h. */
void dcp_addr_decode(uint32_t addr, struct dcp_addr *a)
{
	addr &= DCP_ADDR_MASK;
	a->worker = -1;
	a->offset = addr;
	if (addr < DCP_ADMIN_END) {
		a->space = DCP_SPACE_ADMIN;
	} else if (addr < DCP_CONTROL_BASE) {
		a->space = DCP_SPACE_UNMAPPED;
	} else if (addr < DCP_CONTROL_END) {
		a->space = DCP_SPACE_CONTROL;
		a->worker = (int)((addr >> DCP_CONTROL_WORKER_SHIFT) & DCP_WORKER_MASK) - 1;
		a->offset = addr & DCP_CONTROL_REG_MASK;
	} else {
		a->space = DCP_SPACE_PROPERTY;
		a->worker = (int)((addr >> DCP_PROPERTY_WORKER_SHIFT) & DCP_WORKER_MASK) - 1;
		a->offset = addr & DCP_PROPERTY_OFF_MASK;
	}
}

/* See dcp.h. */
uint32_t dcp_control_addr(unsigned int worker, uint32_t reg)
{
	return ((worker + 1) << DCP_CONTROL_WORKER_SHIFT) | (reg & DCP_CONTROL_REG_MASK);
}

/* See dcp.h. */
uint32_t dcp_property_addr(unsigned int worker, uint32_t offset)
{
	return (((worker + 1) & DCP_WORKER_MASK) << DCP_PROPERTY_WORKER_SHIFT) |
	       (offset & DCP_PROPERTY_OFF_MASK);
}

/* See dcp.h. */
const char *dcp_control_op_name(uint32_t reg)
{
	switch (reg) {
	case DCP_CTL_INITIALIZE:
		return "initialize";
	case DCP_CTL_START:
		return "start";
	case DCP_CTL_STOP:
		return "stop";
	case DCP_CTL_RELEASE:
		return "release";
	case DCP_CTL_TEST:
		return "test";
	case DCP_CTL_BEFORE_QUERY:
		return "before-query";
	case DCP_CTL_AFTER_CONFIG:
		return "after-configure";
	case DCP_CTL_STATUS:
		return "status";
	case DCP_CTL_RESET:
		return "reset";
	default:
		return NULL;
	}
}

/* See dcp.h. */
int dgr_dcp_attempts(unsigned int retries, unsigned int timeout_ms, int (*send)(void *ctx),
		     int (*wait)(void *ctx, uint64_t deadline_ns), void *ctx)
{
	for (unsigned int attempt = 0; attempt <= retries; attempt++) {
		struct timespec ts;
		uint64_t deadline;
		int rc = send(ctx);

		if (rc < 0) {
			return rc;
		}
		/* each attempt has its own deadline, from when it was sent */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		deadline = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec +
			   (uint64_t)timeout_ms * 1000000ull;
		rc = wait(ctx, deadline);
		if (rc != 0) {
			return rc < 0 ? rc : 0;
		}
	}
	return -DGR_E_TIMEOUT;
}
