/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The emulator's event loop (loop.c). */
#ifndef DGRDMA_FPGA_LOOP_H
#define DGRDMA_FPGA_LOOP_H

#include <signal.h>

#include "emu.h"

/* Set by the signal handler: 1 stop and drain, 2 or more stop now. */
extern volatile sig_atomic_t fpga_stop_signal;

/*
 * True when the loop may sleep until deadline_ns without waking for arriving
 * packets: they would change nothing before then (streaming ADC, a credit for
 * the next buffer, nothing waiting for one, deadline at most 1 ms away).
 */
bool fpga_packets_can_wait(const struct fpga_emu *e, uint64_t deadline_ns);

/*
 * Runs until --duration, a signal or a DCP release of the emulator worker,
 * then stops the workers and drains the output port for at most --drain-ms.
 * Returns 0.
 */
int fpga_run(struct fpga_emu *e);

#endif
