// SPDX-License-Identifier: GPL-2.0-or-later
/* The FPGA's own loss counters by their VHDL names (fpga_counters.h). */
#include "fpga_counters.h"

const struct fpga_counter_def fpga_counter_defs[] = {
	{ "num_dropped_samps", "ADC drop periods (num_dropped_samps)",
	  offsetof(struct fpga_counters, num_dropped_samps), false },
	{ "dropped_samples", "ADC samples dropped in closed periods",
	  offsetof(struct fpga_counters, dropped_samples), false },
	{ "dropped_open", "ADC samples dropped in the period open at stop",
	  offsetof(struct fpga_counters, dropped_open), false },
	{ "num_underruns", "DAC underrun slots (num_underruns)",
	  offsetof(struct fpga_counters, num_underruns), true },
	{ "underrun_periods", "DAC underrun periods",
	  offsetof(struct fpga_counters, underrun_periods), true },
	{ "trailing_underruns", "DAC underrun slots after the last data",
	  offsetof(struct fpga_counters, trailing_underruns), true },
};
const size_t fpga_counter_count = sizeof(fpga_counter_defs) / sizeof(fpga_counter_defs[0]);

uint64_t fpga_counter_value(const struct fpga_counters *fc, const struct fpga_counter_def *d)
{
	return *(const uint64_t *)((const char *)fc + d->field);
}
