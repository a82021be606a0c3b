// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for dgrdma-ctl's property map (stack/cli/prop_map.c): any
 * text to dgr_prop_map_parse(). Properties checked (__builtin_trap otherwise):
 * a refusal says why; every accepted property has a word-aligned 24-bit
 * address (a u64's second word too), a worker 0..62, names that
 * dgr_prop_map_find() resolves back to it by WORKER.NAME, and its line; the
 * text is read only within its length (no NUL after it).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/proto.h>
#include <dgrdma/wire.h>

#include "cli.h"
#include "prop_map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct dgr_prop_map map;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[DGR_ERRBUF_SIZE], name[2 * DGR_PROP_NAME_MAX + 2];
	/* a copy of exactly size bytes: a read past the text is an ASan error */
	char *text = malloc(size ? size : 1);
	int rc;

	if (!text) {
		return 0;
	}
	memcpy(text, data, size);
	err[0] = '\0';
	rc = dgr_prop_map_parse(&map, text, size, "--props fuzz", err);
	if (rc < 0) {
		if (rc != -DGR_E_INVAL || err[0] == '\0' || map.n > DGR_PROP_MAP_MAX) {
			__builtin_trap();
		}
		free(text);
		return 0;
	}
	if (map.n == 0 || map.n > DGR_PROP_MAP_MAX) {
		__builtin_trap();
	}
	for (unsigned int i = 0; i < map.n; i++) {
		const struct dgr_prop *p = &map.props[i];
		const struct dgr_prop *q;

		if (p->addr % 4 || p->addr > DCP_ADDR_MASK ||
		    (p->is_u64 && p->addr + 4 > DCP_ADDR_MASK) || p->worker > DGR_PROP_WORKER_MAX ||
		    !p->name[0] || !p->worker_name[0] || p->line == 0 ||
		    (i && p->line <= map.props[i - 1].line) ||
		    p->write_only != (strcmp(p->access, "WO") == 0)) {
			__builtin_trap();
		}
		snprintf(name, sizeof(name), "%s.%s", p->worker_name, p->name);
		q = dgr_prop_map_find(&map, name, err);
		if (q != p) {
			__builtin_trap();
		}
		snprintf(name, sizeof(name), "%u.%s", p->worker, p->name);
		q = dgr_prop_map_find(&map, name, err);
		if (q != p) {
			__builtin_trap();
		}
	}
	free(text);
	return 0;
}
