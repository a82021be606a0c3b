// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The DAC sink (data_sink_qdac_csts): consumes the TX stream at a set rate
 * from the input port's buffers. Every sample slot with no data is an
 * underrun (num_underruns counts slots, as the guide's underrun rate is a
 * share of samples). The clock starts at the first data; like the hardware it
 * keeps counting after the host has stopped sending (teardown over-report,
 * kept apart in trailing_underruns) unless an EOF buffer stopped it first.
 */
#include <string.h>

#include "dgrdma-fpga-tp.h"
#include "model.h"

/* See model.h. */
void fpga_dac_init(struct fpga_dac *d, bool check_ramp)
{
	memset(d, 0, sizeof(*d));
	d->check_ramp = check_ramp;
}

/* See model.h. */
void fpga_dac_restart(struct fpga_dac *d)
{
	d->started = false;
	d->eof_seen = false;
}

/* Checks that samples continue the ramp of the previous ones. */
static void check_samples(struct fpga_dac *d, const uint8_t *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		uint32_t v = dgr_get_le32(p + 4 * i);

		if (d->samples_consumed + i > 0 && v != d->last_sample + 1) {
			d->ramp_errors++;
		}
		d->last_sample = v;
	}
}

/* See model.h. */
void fpga_dac_consume(struct fpga_dac *d, struct fpga_consumer *c, uint64_t n,
		      void (*release)(void *ctx, unsigned int buffer), void *ctx)
{
	if (d->eof_seen) {
		return;
	}
	if (!d->started) {
		if (!fpga_consumer_ready(c)) {
			return;
		}
		d->started = true;
	}
	while (n > 0) {
		if (fpga_consumer_ready(c)) {
			struct fpga_slot *s = &c->slot[c->cons_idx];
			uint64_t avail = s->opcode == DGR_OPCODE_SAMPLES
					     ? (s->bytes - c->cons_off) / DGR_SAMPLE_BYTES
					     : 0;
			uint64_t m = n < avail ? n : avail;

			if (d->check_ramp && m > 0) {
				check_samples(
				    d, c->mem + (size_t)c->cons_idx * c->size + c->cons_off, m);
			}
			d->underrunning = false;
			d->trailing_underruns = 0;
			d->samples_consumed += m;
			d->clock_samples += m;
			c->cons_off += (uint32_t)(m * DGR_SAMPLE_BYTES);
			n -= m;
			if (m == avail) {
				bool eof = s->eof;

				d->buffers_consumed++;
				release(ctx, fpga_consumer_release(c));
				if (eof) {
					d->eof_seen = true;
					return;
				}
			}
			continue;
		}
		if (!d->underrunning) {
			d->underrunning = true;
			d->underrun_periods++;
			DGR_FPGA_TP(underrun, d->clock_samples);
		}
		if (!d->any_underrun) {
			d->any_underrun = true;
			d->samp_count_before_first_underrun = d->samples_consumed;
		}
		d->num_underruns += n;
		d->trailing_underruns += n;
		d->clock_samples += n;
		n = 0;
	}
}
