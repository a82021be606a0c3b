/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DCP (DWORD Control Packet) codec: the control plane of an OpenCPI HDL
 * container over Ethernet (ethertype 0xF040). Big-endian. See
 * docs/protocol.md for the layout and the address space.
 *
 * Return contract as in wire.h: 0 or a length on success, a negative
 * DGR_E_* code on failure, errbuf (DGR_ERRBUF_SIZE bytes or NULL) filled on
 * failure. No allocation, no reads past the given buffer.
 */
#ifndef DGRDMA_DCP_H
#define DGRDMA_DCP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dgrdma/proto.h>
#include <dgrdma/wire.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a DCP packet is, from its type bits and its length. */
enum dcp_kind {
	DCP_KIND_NOP,	     /* request, 10 bytes: discovery */
	DCP_KIND_WRITE,	     /* request, 14 bytes */
	DCP_KIND_READ,	     /* request, 10 bytes */
	DCP_KIND_WRITE_RESP, /* response, 6 bytes */
	DCP_KIND_READ_RESP,  /* response, 10 bytes: carries data */
	DCP_KIND_NOP_RESP,   /* response, 18 bytes: id, MAC, marker */
};

struct dcp_packet {
	enum dcp_kind kind;
	uint16_t length; /* the length field: bytes of the packet */
	uint8_t type;	 /* DCP_TYPE_* */
	uint8_t low;	 /* byte enables (requests) or response code (responses) */
	bool uncached;	 /* bit 6 of requests */
	uint8_t tag;
	uint32_t addr;	 /* write and read requests */
	uint32_t data;	 /* write request and read response */
	uint32_t nop_id; /* NOP response */
	uint8_t mac[6];	 /* NOP response */
	uint8_t marker;	 /* NOP response, DCP_NOP_MARKER */
};

/*
 * Decodes a DCP packet from the Ethernet payload buf[0..len). len may exceed
 * the length field (minimum-size Ethernet padding) but not fall short of it.
 * Returns 0, or -DGR_E_DCP_SHORT, -DGR_E_DCP_LENGTH, -DGR_E_DCP_TYPE.
 */
int dcp_decode(const uint8_t *buf, size_t len, struct dcp_packet *p, char *errbuf);

/*
 * Encodes *p (kind, tag and the fields its kind uses; length and type are
 * derived from kind) into buf of cap bytes. Returns the packet length, or
 * -DGR_E_NOSPACE.
 */
int dcp_encode(uint8_t *buf, size_t cap, const struct dcp_packet *p);

/* True when the kind is a response. */
static inline bool dcp_is_response(enum dcp_kind k)
{
	return k == DCP_KIND_WRITE_RESP || k == DCP_KIND_READ_RESP || k == DCP_KIND_NOP_RESP;
}

/* Names: "nop", "write", ...; "ok", "worker timeout", ...; never NULL. */
const char *dcp_kind_name(enum dcp_kind k);
const char *dcp_resp_code_name(uint8_t code);

/* The part of the 24-bit address space an address falls in. */
enum dcp_space {
	DCP_SPACE_ADMIN,    /* below 0x1000 */
	DCP_SPACE_CONTROL,  /* 0x4000..0x3FFFF */
	DCP_SPACE_PROPERTY, /* 0x40000 and above */
	DCP_SPACE_UNMAPPED, /* 0x1000..0x3FFF */
};

struct dcp_addr {
	enum dcp_space space;
	int worker;	 /* 0-based worker index; -1 for admin/unmapped or an invalid field */
	uint32_t offset; /* register (control) or property offset; admin: the address */
};

/* Splits a DCP address into space, worker and offset. */
void dcp_addr_decode(uint32_t addr, struct dcp_addr *a);

/* Builds the address of a worker's control register or property offset. */
uint32_t dcp_control_addr(unsigned int worker, uint32_t reg);
uint32_t dcp_property_addr(unsigned int worker, uint32_t offset);

/* Name of a control register ("start", "stop", ...), or NULL if none. */
const char *dcp_control_op_name(uint32_t reg);

/*
 * The one retry rule of a DCP request (dgrdma-ctl, dgr_conn_dcp): up to
 * 1 + retries attempts; each sends the request (send: returns 0 or a negative
 * code) and waits for its answer until timeout_ms after it (wait: returns 1
 * when the answer came, 0 at deadline_ns on CLOCK_MONOTONIC, or a negative
 * code). Returns 0 when answered, -DGR_E_TIMEOUT when no attempt was, or the
 * first negative code of send or wait.
 */
int dgr_dcp_attempts(unsigned int retries, unsigned int timeout_ms, int (*send)(void *ctx),
		     int (*wait)(void *ctx, uint64_t deadline_ns), void *ctx);

#ifdef __cplusplus
}
#endif

#endif
