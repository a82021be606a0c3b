// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The output port of the emulated FPGA (the RX path): E local buffers used in
 * order, each sent into the next host buffer as soon as that one is known to
 * be empty, and freed at once (as the FPGA frees its buffer without waiting
 * for the doorbell). Layout: docs/fpga.md section 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/prefault.h>

#include "model.h"

/* See model.h. */
int fpga_producer_init(struct fpga_producer *p, uint32_t size, unsigned int nlocal,
		       unsigned int nhost, char *errbuf)
{
	memset(p, 0, sizeof(*p));
	if (size < 4 || size % 4 != 0 || nlocal < 1 || nlocal > FPGA_MAX_LOCAL_BUFFERS ||
	    nhost < 1 || nhost > FPGA_MAX_HOST_BUFFERS) {
		if (errbuf) {
			snprintf(errbuf, DGR_ERRBUF_SIZE,
				 "producer: size %u, %u local, %u host buffers out of range", size,
				 nlocal, nhost);
		}
		return -DGR_E_INVAL;
	}
	p->mem = calloc(nlocal, size);
	if (!p->mem) {
		if (errbuf) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "producer: cannot allocate %u x %u bytes",
				 nlocal, size);
		}
		return -DGR_E_NOMEM;
	}
	/*
	 * Touched now, not by the ADC's first pass: 1024 page faults of a 4 MiB
	 * port made this VM's emulator 15 ms late at the start of a stream.
	 */
	dgr_prefault(p->mem, (size_t)nlocal * size);
	p->size = size;
	p->nlocal = nlocal;
	p->nhost = nhost;
	p->host_free = nhost;
	return 0;
}

/* See model.h. */
void fpga_producer_free(struct fpga_producer *p)
{
	free(p->mem);
	p->mem = NULL;
}

/* See model.h. */
unsigned int fpga_producer_free_local(const struct fpga_producer *p)
{
	return p->nlocal - p->complete - (p->filling ? 1u : 0u);
}

/* See model.h. */
uint8_t *fpga_producer_begin(struct fpga_producer *p)
{
	if (p->filling) {
		return p->mem + (size_t)p->fill_idx * p->size;
	}
	if (fpga_producer_free_local(p) == 0) {
		return NULL;
	}
	p->fill_idx = (p->send_idx + p->complete) % p->nlocal;
	p->filling = true;
	p->fill_bytes = 0;
	return p->mem + (size_t)p->fill_idx * p->size;
}

/* See model.h. */
int fpga_producer_commit(struct fpga_producer *p, uint32_t bytes, uint8_t opcode, bool eof,
			 uint64_t first_sample)
{
	struct fpga_slot *s;

	if (!p->filling && !fpga_producer_begin(p)) {
		return -DGR_E_STATE;
	}
	s = &p->slot[p->fill_idx];
	s->bytes = bytes;
	s->opcode = opcode;
	s->eof = eof;
	s->first_sample = first_sample;
	p->filling = false;
	p->fill_bytes = 0;
	p->complete++;
	return 0;
}

/* See model.h. */
bool fpga_producer_peek(const struct fpga_producer *p, uint32_t txn_id, struct dgr_txn *t,
			const struct fpga_slot **slot, unsigned int *host_buffer)
{
	const struct fpga_slot *s;
	unsigned int hb;

	if (p->complete == 0 || p->host_free == 0) {
		return false;
	}
	s = &p->slot[p->send_idx];
	hb = (unsigned int)(p->txns_committed % p->nhost);
	t->txn_id = txn_id;
	t->data_addr = DGR_PORT_BASE_RX + hb * p->size;
	t->flag_addr = fpga_flag_addr(DGR_PORT_BASE_RX, p->nhost, p->size, hb);
	t->flag_value = dgr_flag_encode(s->bytes, s->eof, false, s->opcode);
	t->data = s->bytes ? p->mem + (size_t)p->send_idx * p->size : NULL;
	t->len = s->bytes;
	*slot = s;
	*host_buffer = hb;
	return true;
}

/* See model.h. */
void fpga_producer_sent(struct fpga_producer *p)
{
	p->send_idx = (p->send_idx + 1) % p->nlocal;
	p->complete--;
	p->host_free--;
	p->txns_committed++;
}

/* See model.h. */
void fpga_producer_restart(struct fpga_producer *p)
{
	p->host_free = p->nhost;
	p->expect_doorbell = 0;
	p->txns_committed = 0;
}

/* See model.h. */
int fpga_producer_doorbell(struct fpga_producer *p, unsigned int index)
{
	int rc = 0;

	if (p->host_free >= p->nhost) {
		p->doorbells_unexpected++;
		return -DGR_E_STATE;
	}
	p->doorbells++;
	if (index != p->expect_doorbell) {
		p->doorbells_out_of_order++;
		rc = 1;
	}
	p->expect_doorbell = (p->expect_doorbell + 1) % p->nhost;
	p->host_free++;
	return rc;
}
