// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The input port of the emulated FPGA (the TX path): the host's transactions
 * fill E local buffers in order; the worker releases them in order and each
 * release becomes a doorbell to the host. Layout: docs/fpga.md section 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* See model.h. */
int fpga_consumer_init(struct fpga_consumer *c, uint32_t size, unsigned int nlocal,
		       unsigned int nhost, char *errbuf)
{
	memset(c, 0, sizeof(*c));
	if (size < 4 || size % 4 != 0 || size > FPGA_MAX_BUFFER_SIZE || nlocal < 1 ||
	    nlocal > FPGA_MAX_LOCAL_BUFFERS || nhost < 1 || nhost > FPGA_MAX_HOST_BUFFERS) {
		if (errbuf) {
			snprintf(errbuf, DGR_ERRBUF_SIZE,
				 "consumer: size %u, %u local, %u host buffers out of range", size,
				 nlocal, nhost);
		}
		return -DGR_E_INVAL;
	}
	c->mem = calloc(nlocal, FPGA_MAX_BUFFER_SIZE);
	if (!c->mem) {
		if (errbuf) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "consumer: cannot allocate %u x %u bytes",
				 nlocal, size);
		}
		return -DGR_E_NOMEM;
	}
	c->size = size;
	c->cfg_size = size;
	c->nlocal = nlocal;
	c->nhost = nhost;
	return 0;
}

/* See model.h. */
void fpga_consumer_free(struct fpga_consumer *c)
{
	free(c->mem);
	c->mem = NULL;
}

static bool any_full(const struct fpga_consumer *c)
{
	for (unsigned int j = 0; j < c->nlocal; j++) {
		if (c->full[j]) {
			return true;
		}
	}
	return false;
}

/* Adopts the host's buffer size from the flag of a transaction into buffer 0. */
static bool learn_size(struct fpga_consumer *c, uint32_t data_addr, uint32_t flag_addr)
{
	uint32_t size = flag_addr / c->nlocal;

	if (data_addr != 0 || flag_addr % c->nlocal != 0 || size % 16 != 0 || size < 64 ||
	    size > FPGA_MAX_BUFFER_SIZE || any_full(c) || c->cons_idx != 0) {
		return false;
	}
	c->size = size;
	c->size_changes++;
	return true;
}

/* See model.h. */
int fpga_consumer_complete(struct fpga_consumer *c, uint32_t data_addr, uint32_t flag_addr,
			   uint32_t flag_value)
{
	uint32_t flags = c->nlocal * c->size;
	struct dgr_flag_word fw;
	unsigned int j;

	if ((flag_addr < flags || (flag_addr - flags) % 4 != 0 ||
	     (flag_addr - flags) / 4 >= c->nlocal) &&
	    !learn_size(c, data_addr, flag_addr)) {
		c->bad_flag_index++;
		return -DGR_E_ADDR_RANGE;
	}
	flags = c->nlocal * c->size;
	j = (flag_addr - flags) / 4;
	dgr_flag_decode(flag_value, &fw);
	if (c->full[j]) {
		c->filled_twice++;
	}
	c->slot[j].bytes = fw.length < c->size ? fw.length : c->size;
	c->slot[j].opcode = fw.opcode;
	c->slot[j].eof = fw.eof;
	c->full[j] = true;
	c->buffers_filled++;
	return (int)j;
}

/* See model.h. */
uint64_t fpga_consumer_rest_samples(const struct fpga_consumer *c)
{
	const struct fpga_slot *s = &c->slot[c->cons_idx];

	if (!fpga_consumer_ready(c) || s->opcode != DGR_OPCODE_SAMPLES) {
		return 0;
	}
	return (s->bytes - c->cons_off) / DGR_SAMPLE_BYTES;
}

/* See model.h. */
unsigned int fpga_consumer_release(struct fpga_consumer *c)
{
	unsigned int j = c->cons_idx;

	c->full[j] = false;
	c->cons_off = 0;
	c->cons_idx = (j + 1) % c->nlocal;
	return j;
}

/* See model.h. */
void fpga_consumer_reset(struct fpga_consumer *c)
{
	memset(c->full, 0, sizeof(c->full));
	c->cons_idx = 0;
	c->cons_off = 0;
	c->size = c->cfg_size;
}
