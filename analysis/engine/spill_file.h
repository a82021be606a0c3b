/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A temporary file that a bounded structure moves its oldest records to, so
 * that its memory stays fixed however long the run (the latency series of
 * stats.h, the stall causes' doorbells of stall_cause.h). It is made in
 * $TMPDIR (else /tmp) and unlinked at once: it vanishes with the process.
 */
#ifndef DGR_ANALYSIS_SPILL_FILE_H
#define DGR_ANALYSIS_SPILL_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Makes the file. Returns its descriptor, or -DGR_E_SYS when none can be made. */
int spill_file_open(void);

/* Writes n bytes at the file's end. Returns 0, or -DGR_E_SYS (the file is then not used again). */
int spill_file_append(int fd, const void *buf, size_t n);

/*
 * Reads n bytes at offset off into buf. Returns 0, or -errno when the read
 * fails (-EIO when the file is shorter than asked).
 */
int spill_file_read(int fd, uint64_t off, void *buf, size_t n);

#endif
