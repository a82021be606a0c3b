/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Memory the analysis is about to write, mapped in one system call instead of
 * one page fault per page. A page fault costs about 10 us on the project's
 * virtual machines, a page populated with MADV_POPULATE_WRITE about 0.7 us
 * (docs/performance/analysis.md, "Reading at the bare loop's pace"): the
 * tables a capture's first frames write (the connections, a matcher, a
 * latency series as it grows; the plugin's frame_seq table of frames) cost
 * more in faults than in the work done on them.
 */
#ifndef DGR_ENGINE_POPULATE_H
#define DGR_ENGINE_POPULATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * Maps in the whole pages of the len bytes at p (writable, private memory of
 * the caller's). Returns nothing: a kernel without MADV_POPULATE_WRITE (before
 * Linux 5.14) refuses it, and the pages then come one fault at a time, as
 * without this call.
 */
static inline void eng_populate(void *p, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t hi = ((uintptr_t)p + len) & ~(page - 1);

#ifdef MADV_POPULATE_WRITE
	if (hi > lo) {
		(void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
	}
#else
	(void)lo;
	(void)hi;
#endif
}

#endif
