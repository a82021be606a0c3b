/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The FPGA's own loss counters: what they are called, what they mean, where
 * they are kept. One table for run.json's reader (run_info.c) and the report.
 */
#ifndef DGRDMA_ANALYSIS_FPGA_COUNTERS_H
#define DGRDMA_ANALYSIS_FPGA_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The FPGA's own loss counters, by their VHDL names (docs/fpga.md): the ADC's
 * drop detector (num_dropped_samps periods, dropped_samples in closed periods,
 * and the emulator's dropped_open, the period still open at stop) and the
 * DAC's underruns (num_underruns slots, underrun_periods, trailing_underruns
 * since the last data: teardown). From dgrdma-fpga --summary-json, or a file
 * of the same keys made from the hardware's registers (dgrdma-ctl read).
 */
struct fpga_counters {
	bool has_adc, has_dac; /* which counters the file has */
	uint64_t num_dropped_samps, dropped_samples, dropped_open;
	uint64_t num_underruns, underrun_periods, trailing_underruns;
};

/* One of the FPGA's counters: its name (the VHDL's, also the JSON key), label and place. */
struct fpga_counter_def {
	const char *key;
	const char *label;
	size_t field; /* offsetof(struct fpga_counters, ...) */
	bool dac;     /* the DAC's (else the ADC's) */
};

/* Every counter, the ADC's first, in the order reports list them. */
extern const struct fpga_counter_def fpga_counter_defs[];
extern const size_t fpga_counter_count;

/* Returns counter d's value in fc. */
uint64_t fpga_counter_value(const struct fpga_counters *fc, const struct fpga_counter_def *d);

#endif
