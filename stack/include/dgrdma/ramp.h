/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sample-counter ramp of docs/fpga.md section 1: sample k carries the
 * little-endian uint32 k. The checker counts samples received and lost and
 * remembers where the first gaps were; the generator writes the ramp.
 */
#ifndef DGR_RAMP_H
#define DGR_RAMP_H

#include <stdbool.h>
#include <stdint.h>

#define DGR_RAMP_GAPS_KEPT 16

struct dgr_ramp_gap {
	uint64_t at_sample; /* samples received before the gap */
	uint32_t expected;  /* value that should have come */
	uint32_t got;	    /* value that came */
};

struct dgr_ramp {
	bool started;
	uint32_t first;	    /* first value seen (samples lost before the stream started) */
	uint32_t next;	    /* value expected next */
	uint64_t samples;   /* samples checked */
	uint64_t lost;	    /* samples missing (forward jumps) */
	uint64_t gaps;	    /* forward jumps */
	uint64_t backwards; /* values that went backwards (repeated or corrupted data) */
	struct dgr_ramp_gap gap[DGR_RAMP_GAPS_KEPT];
};

void dgr_ramp_init(struct dgr_ramp *r);

/* Checks len bytes (a multiple of 4; a trailing partial sample is ignored). */
void dgr_ramp_check(struct dgr_ramp *r, const uint8_t *data, uint32_t len);

/* Writes samples first, first+1, ... into len bytes; returns the next value. */
uint32_t dgr_ramp_fill(uint8_t *data, uint32_t len, uint32_t first);

#endif
