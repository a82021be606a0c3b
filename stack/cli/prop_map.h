/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The property map of dgrdma-ctl --props: the markdown table that
 * `dgrdma-fpga --list-properties` prints (docs/fpga.md section 4), one row a
 * property:
 *
 *   | 0 dgrdma_config | 0x018 | 0x100018 | `doorbell` | u32 | WO | meaning |
 *
 * A row is a line whose first cell starts with a digit (the worker's index);
 * the header, the separator and any other line are not rows. A row that
 * cannot be read is refused with its line number, never skipped: a property
 * left out would make a later name unknown, or resolve to another worker's.
 */
#ifndef DGRDMA_PROP_MAP_H
#define DGRDMA_PROP_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DGR_PROP_MAP_MAX  512
#define DGR_PROP_NAME_MAX 64
/* workers 0..62: the DCP address's 6-bit worker field less one */
#define DGR_PROP_WORKER_MAX 62
/* a map file larger than this is not a property table */
#define DGR_PROP_MAP_FILE_MAX (1u << 20)

struct dgr_prop {
	char name[DGR_PROP_NAME_MAX];
	char worker_name[DGR_PROP_NAME_MAX];
	unsigned int worker;
	uint32_t addr;	   /* a 24-bit DCP address, word-aligned */
	char type[8];	   /* as the map gives it: bool, u8 .. u64, i8 .. i64 */
	char access[4];	   /* RO, RW or WO */
	bool is_u64;	   /* two words: addr and addr + 4 */
	bool write_only;   /* access WO: the FPGA does not return its value */
	unsigned int line; /* its line in the map */
};

struct dgr_prop_map {
	struct dgr_prop props[DGR_PROP_MAP_MAX];
	unsigned int n;
};

/*
 * Reads the rows of text[0..len) (no NUL needed) into m, which is emptied
 * first; source names the text in messages (the --props path). Returns 0, or
 * -DGR_E_INVAL with err "SOURCE line N: ..." naming the cell and what it
 * accepts (also for no row at all, more than DGR_PROP_MAP_MAX rows, and a
 * worker's property named twice).
 */
int dgr_prop_map_parse(struct dgr_prop_map *m, const char *text, size_t len, const char *source,
		       char *err);

/*
 * dgr_prop_map_parse() of the file at path. Returns 0, -DGR_E_SYS (cannot
 * read it), or -DGR_E_INVAL (larger than DGR_PROP_MAP_FILE_MAX, or a row
 * refused), each with err naming --props and the path.
 */
int dgr_prop_map_load(struct dgr_prop_map *m, const char *path, char *err);

/*
 * The property NAME, or WORKER.NAME with WORKER a worker's index or name.
 * Returns it, or NULL with err: unknown, or NAME alone held by several
 * workers (err lists them: give WORKER.NAME).
 */
const struct dgr_prop *dgr_prop_map_find(const struct dgr_prop_map *m, const char *s, char *err);

/* The index of the worker named name. Returns 0 with *worker set, or -1 when no row names it. */
int dgr_prop_map_worker(const struct dgr_prop_map *m, const char *name, unsigned int *worker);

#endif
