// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ADC source (data_src_qadc_csts): a 32-bit sample counter ramp at a set
 * rate, dropped under back pressure, with the drop counters of the hardware
 * and the discontinuity messages of report_data_loss. docs/fpga.md section 1.
 */
#include <string.h>

#include <dgrdma/ramp.h>

#include "dgrdma-fpga-tp.h"
#include "model.h"

/* See model.h. */
void fpga_adc_init(struct fpga_adc *a, double rate, uint64_t start_ns, bool report_data_loss)
{
	memset(a, 0, sizeof(*a));
	a->rate = rate;
	a->start_ns = start_ns;
	a->report_data_loss = report_data_loss;
}

/* See model.h. */
uint64_t fpga_adc_sample_ns(const struct fpga_adc *a, uint64_t k)
{
	return a->start_ns + (uint64_t)((double)k * 1e9 / a->rate);
}

/*
 * Ready has returned: the open drop period is counted, as samp_drop_detector
 * does. Returns false for the period before the first ready (not counted).
 */
static bool end_drop_period(struct fpga_adc *a)
{
	uint64_t count = a->next_sample - a->drop_start;

	a->dropping = false;
	if (!a->ready_seen) {
		a->dropped_before_ready += count;
		a->ready_seen = true;
		return false;
	}
	if (a->num_dropped_samps != UINT32_MAX) {
		a->num_dropped_samps++;
	}
	a->drop_periods++;
	a->dropped_samples += count;
	if (a->drop_periods == 1) {
		a->first_drop_sample = a->drop_start;
		a->first_drop_ns = fpga_adc_sample_ns(a, a->drop_start);
	}
	a->last_drop_sample = a->next_sample - 1;
	a->last_drop_ns = fpga_adc_sample_ns(a, a->next_sample - 1);
	DGR_FPGA_TP(drop_period, a->drop_start, count);
	return true;
}

static void start_drop_period(struct fpga_adc *a)
{
	a->dropping = true;
	a->drop_start = a->next_sample;
}

/* See model.h. */
void fpga_adc_produce(struct fpga_adc *a, struct fpga_producer *p, uint64_t n, bool port_ready)
{
	if (a->stopped) {
		return;
	}
	if (!port_ready && !a->ready_seen) {
		if (!a->dropping) {
			start_drop_period(a);
		}
		a->next_sample += n;
		return;
	}
	if (!a->ready_seen && !a->dropping) {
		a->ready_seen = true;
	}
	while (n > 0) {
		uint8_t *buf;
		uint64_t room, m;

		if (a->dropping) {
			if (fpga_producer_free_local(p) == 0) {
				a->next_sample += n;
				return;
			}
			if (end_drop_period(a) && a->report_data_loss) {
				/* The discontinuity takes a whole buffer before the next sample. */
				fpga_producer_commit(p, 0, DGR_OPCODE_DISCONTINUITY, false,
						     a->next_sample);
				a->discontinuities++;
			}
			continue;
		}
		buf = fpga_producer_begin(p);
		if (!buf) {
			start_drop_period(a);
			continue;
		}
		room = (p->size - p->fill_bytes) / DGR_SAMPLE_BYTES;
		m = n < room ? n : room;
		/* the ramp is the sample counter's low 32 bits; m fits a buffer */
		dgr_ramp_fill(buf + p->fill_bytes, (uint32_t)(m * DGR_SAMPLE_BYTES),
			      (uint32_t)a->next_sample);
		p->fill_bytes += (uint32_t)(m * DGR_SAMPLE_BYTES);
		a->next_sample += m;
		n -= m;
		if (p->fill_bytes == p->size) {
			fpga_producer_commit(p, p->size, DGR_OPCODE_SAMPLES, false,
					     a->next_sample - p->size / DGR_SAMPLE_BYTES);
			a->samples_committed += p->size / DGR_SAMPLE_BYTES;
		}
	}
}

/* See model.h. */
uint64_t fpga_adc_open_drop(const struct fpga_adc *a)
{
	return a->dropping ? a->next_sample - a->drop_start : 0;
}

/* See model.h. */
bool fpga_adc_flush_eof(struct fpga_adc *a, struct fpga_producer *p)
{
	uint32_t bytes;

	if (!a->eof_pending) {
		return true;
	}
	if (!p->filling && fpga_producer_free_local(p) == 0) {
		return false;
	}
	bytes = p->filling ? p->fill_bytes : 0;
	fpga_producer_commit(p, bytes, DGR_OPCODE_SAMPLES, true,
			     a->next_sample - bytes / DGR_SAMPLE_BYTES);
	a->samples_committed += bytes / DGR_SAMPLE_BYTES;
	a->eof_pending = false;
	return true;
}

/* See model.h. */
void fpga_adc_start(struct fpga_adc *a, uint64_t start_ns, double rate)
{
	a->stopped = false;
	a->start_ns = start_ns;
	a->rate = rate;
}

/* See model.h. */
void fpga_adc_stop(struct fpga_adc *a, struct fpga_producer *p)
{
	if (a->stopped) {
		return;
	}
	a->stopped = true;
	a->dropped_open = fpga_adc_open_drop(a);
	a->eof_pending = true;
	fpga_adc_flush_eof(a, p);
}
