/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Taking a memory region's page faults at set-up instead of on the data path.
 * On a VM with shadow paging (the project's machine) the first user write to
 * each page traps even when the kernel populated it (MAP_POPULATE), and a
 * data path that meets fresh pages one after another runs several times
 * slower for tens of ms (docs/performance/stack.md). Inline, so that the
 * codec-only builds (the dissector, the fuzz harnesses) need no library.
 */
#ifndef DGRDMA_PREFAULT_H
#define DGRDMA_PREFAULT_H

#include <stddef.h>
#include <stdint.h>

#define DGR_PREFAULT_STEP 4096u /* the smallest page size: every page is written */

/* Writes each page of [mem, mem + len) once, keeping its contents. */
static inline void dgr_prefault(void *mem, size_t len)
{
	for (size_t off = 0; off < len; off += DGR_PREFAULT_STEP) {
		volatile uint8_t *b = (volatile uint8_t *)mem + off;

		*b = *b;
	}
}

#endif
