// SPDX-License-Identifier: GPL-2.0-or-later
/* The property map of dgrdma-ctl --props (prop_map.h). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/proto.h>
#include <dgrdma/wire.h>

#include "cli.h"
#include "prop_map.h"

/* the cells a row needs: worker, offset, DCP address, name, type, access (meaning may follow) */
#define ROW_CELLS 6

struct cell {
	const char *s;
	size_t len;
};

/* The types of --list-properties: an 8-byte one is read as two words. */
static const struct {
	const char *name;
	bool two_words;
} prop_types[] = {
	{ "bool", false }, { "u8", false },  { "u16", false }, { "u32", false }, { "u64", true },
	{ "i8", false },   { "i16", false }, { "i32", false }, { "i64", true },
};

static bool cell_is(const struct cell *c, const char *word)
{
	return c->len == strlen(word) && memcmp(c->s, word, c->len) == 0;
}

/* Splits line[0..len) at '|' into trimmed cells. Returns their number, at most max. */
static size_t split_cells(const char *line, size_t len, struct cell *cells, size_t max)
{
	size_t n = 0, i = 0;

	while (i < len && isspace((unsigned char)line[i])) {
		i++;
	}
	if (i == len || line[i] != '|') {
		return 0;
	}
	i++;
	while (i < len && n < max) {
		size_t start = i, end;

		while (i < len && line[i] != '|') {
			i++;
		}
		if (i == len) {
			break; /* text after the last '|' is no cell */
		}
		end = i;
		while (start < end && isspace((unsigned char)line[start])) {
			start++;
		}
		while (end > start && isspace((unsigned char)line[end - 1])) {
			end--;
		}
		cells[n].s = line + start;
		cells[n].len = end - start;
		n++;
		i++;
	}
	return n;
}

/*
 * A name of a worker or property: a letter or '_', then letters, digits and '_',
 * 1..DGR_PROP_NAME_MAX - 1 in all. Not a digit first: a worker named "0" would be
 * worker 0 too in WORKER.NAME, and a property "1a" an address in dgrdma-ctl read 1a.
 */
static bool is_name(const char *s, size_t len)
{
	if (len == 0 || len >= DGR_PROP_NAME_MAX || isdigit((unsigned char)s[0])) {
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '_') {
			return false;
		}
	}
	return true;
}

/* Reads one row's cells into p. Returns 0, or -DGR_E_INVAL with err naming the cell. */
static int parse_row(const struct cell *c, size_t ncells, struct dgr_prop *p, const char *where,
		     char *err)
{
	unsigned long worker = 0;
	uint64_t addr = 0;
	char hex[24];
	size_t i = 0, k;

	memset(p, 0, sizeof(*p));
	if (ncells < ROW_CELLS) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "%s: %zu cells, a property row has %d: | worker | offset | DCP address | "
			 "`name` | type | access | meaning |",
			 where, ncells, ROW_CELLS + 1);
		return -DGR_E_INVAL;
	}
	/* "0 dgrdma_config": the index, then the name */
	while (i < c[0].len && isdigit((unsigned char)c[0].s[i]) && worker <= DGR_PROP_WORKER_MAX) {
		worker = worker * 10 + (unsigned long)(c[0].s[i++] - '0');
	}
	k = i;
	while (k < c[0].len && c[0].s[k] == ' ') {
		k++;
	}
	if (worker > DGR_PROP_WORKER_MAX || (i < c[0].len && c[0].s[i] != ' ') || k == i ||
	    !is_name(c[0].s + k, c[0].len - k)) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "%s: worker '%.*s' is not 'INDEX NAME' (INDEX 0..%d, NAME a letter or _, "
			 "then letters, digits and _)",
			 where, (int)c[0].len, c[0].s, DGR_PROP_WORKER_MAX);
		return -DGR_E_INVAL;
	}
	p->worker = (unsigned int)worker;
	memcpy(p->worker_name, c[0].s + k, c[0].len - k);

	/* "0x" and hexadecimal digits: the options' number parser, held to hexadecimal */
	snprintf(hex, sizeof(hex), "%.*s", (int)c[2].len, c[2].s);
	if (c[2].len < 3 || c[2].len >= sizeof(hex) || hex[0] != '0' ||
	    (hex[1] != 'x' && hex[1] != 'X') ||
	    dgr_parse_u64("DCP address", hex, 0, DCP_ADDR_MASK, false, &addr, NULL) < 0 ||
	    addr % 4) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "%s: DCP address '%.*s' is not a word-aligned hexadecimal address "
			 "0x0..0x%06x",
			 where, (int)c[2].len, c[2].s, (unsigned int)(DCP_ADDR_MASK & ~3u));
		return -DGR_E_INVAL;
	}
	p->addr = (uint32_t)addr;

	if (c[3].len < 3 || c[3].s[0] != '`' || c[3].s[c[3].len - 1] != '`' ||
	    !is_name(c[3].s + 1, c[3].len - 2)) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "%s: name '%.*s' is not `NAME` (in backquotes: a letter or _, then "
			 "letters, digits and _, at most %d)",
			 where, (int)c[3].len, c[3].s, DGR_PROP_NAME_MAX - 1);
		return -DGR_E_INVAL;
	}
	memcpy(p->name, c[3].s + 1, c[3].len - 2);

	for (k = 0; k < sizeof(prop_types) / sizeof(prop_types[0]); k++) {
		if (cell_is(&c[4], prop_types[k].name)) {
			break;
		}
	}
	if (k == sizeof(prop_types) / sizeof(prop_types[0])) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "%s: type '%.*s' is not bool, u8, u16, u32, u64, i8, i16, i32 or i64",
			 where, (int)c[4].len, c[4].s);
		return -DGR_E_INVAL;
	}
	p->is_u64 = prop_types[k].two_words;
	snprintf(p->type, sizeof(p->type), "%s", prop_types[k].name);
	if (p->is_u64 && addr + 4 > DCP_ADDR_MASK) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "%s: a %s at 0x%06" PRIx64
			 ": its second word is past the last DCP address",
			 where, prop_types[k].name, addr);
		return -DGR_E_INVAL;
	}

	if (!cell_is(&c[5], "RO") && !cell_is(&c[5], "RW") && !cell_is(&c[5], "WO")) {
		snprintf(err, DGR_ERRBUF_SIZE, "%s: access '%.*s' is not RO, RW or WO", where,
			 (int)c[5].len, c[5].s);
		return -DGR_E_INVAL;
	}
	p->write_only = cell_is(&c[5], "WO");
	memcpy(p->access, c[5].s, 2);
	return 0;
}

/* A row that contradicts an earlier one. Returns 0, or -DGR_E_INVAL with err. */
static int check_against(const struct dgr_prop_map *m, const struct dgr_prop *p, const char *where,
			 char *err)
{
	for (unsigned int i = 0; i < m->n; i++) {
		const struct dgr_prop *q = &m->props[i];

		if (q->worker == p->worker && strcmp(q->worker_name, p->worker_name) != 0) {
			snprintf(err, DGR_ERRBUF_SIZE, "%s: worker %u is named %s, on line %u %s",
				 where, p->worker, p->worker_name, q->line, q->worker_name);
			return -DGR_E_INVAL;
		}
		if (q->worker != p->worker && strcmp(q->worker_name, p->worker_name) == 0) {
			snprintf(err, DGR_ERRBUF_SIZE,
				 "%s: worker name %s is worker %u's, on line %u, and %u's here",
				 where, p->worker_name, q->worker, q->line, p->worker);
			return -DGR_E_INVAL;
		}
		if (q->worker == p->worker && strcmp(q->name, p->name) == 0) {
			snprintf(err, DGR_ERRBUF_SIZE,
				 "%s: worker %u's property %s is also on line %u", where, p->worker,
				 p->name, q->line);
			return -DGR_E_INVAL;
		}
	}
	return 0;
}

/* See prop_map.h. */
int dgr_prop_map_parse(struct dgr_prop_map *m, const char *text, size_t len, const char *source,
		       char *err)
{
	struct cell cells[ROW_CELLS + 1];
	unsigned int line_no = 0;
	size_t pos = 0;
	char where[DGR_ERRBUF_SIZE / 2];
	int rc;

	m->n = 0;
	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t line_len = nl ? (size_t)(nl - line) : len - pos;
		size_t ncells;

		pos += line_len + (nl ? 1 : 0);
		line_no++;
		ncells = split_cells(line, line_len, cells, ROW_CELLS + 1);
		if (ncells == 0 || cells[0].len == 0 || !isdigit((unsigned char)cells[0].s[0])) {
			continue; /* the header, the separator, any text: not a row */
		}
		snprintf(where, sizeof(where), "%s line %u", source, line_no);
		if (m->n == DGR_PROP_MAP_MAX) {
			snprintf(err, DGR_ERRBUF_SIZE, "%s: more than %d properties", where,
				 DGR_PROP_MAP_MAX);
			return -DGR_E_INVAL;
		}
		rc = parse_row(cells, ncells, &m->props[m->n], where, err);
		if (rc == 0) {
			rc = check_against(m, &m->props[m->n], where, err);
		}
		if (rc < 0) {
			return rc;
		}
		m->props[m->n++].line = line_no;
	}
	if (m->n == 0) {
		snprintf(
		    err, DGR_ERRBUF_SIZE,
		    "%s: no property rows (expected the table of dgrdma-fpga --list-properties)",
		    source);
		return -DGR_E_INVAL;
	}
	return 0;
}

/* See prop_map.h. */
int dgr_prop_map_load(struct dgr_prop_map *m, const char *path, char *err)
{
	char source[DGR_ERRBUF_SIZE / 4];
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t len;
	int rc;

	snprintf(source, sizeof(source), "--props %s", path);
	if (!f) {
		snprintf(err, DGR_ERRBUF_SIZE, "%s: %s", source, strerror(errno));
		return -DGR_E_SYS;
	}
	text = malloc(DGR_PROP_MAP_FILE_MAX + 1);
	if (!text) {
		snprintf(err, DGR_ERRBUF_SIZE, "%s: out of memory", source);
		rc = -DGR_E_NOMEM;
		goto out;
	}
	len = fread(text, 1, DGR_PROP_MAP_FILE_MAX + 1, f);
	if (ferror(f)) {
		snprintf(err, DGR_ERRBUF_SIZE, "%s: %s", source, strerror(errno));
		rc = -DGR_E_SYS;
		goto out;
	}
	if (len > DGR_PROP_MAP_FILE_MAX) {
		snprintf(err, DGR_ERRBUF_SIZE, "%s: larger than %u bytes: not a property table",
			 source, DGR_PROP_MAP_FILE_MAX);
		rc = -DGR_E_INVAL;
		goto out;
	}
	rc = dgr_prop_map_parse(m, text, len, source, err);
out:
	free(text);
	fclose(f);
	return rc;
}

/* Whether w names worker p's: its index or its name. */
static bool worker_is(const struct dgr_prop *p, const char *w, size_t len)
{
	char index[16];

	snprintf(index, sizeof(index), "%u", p->worker);
	return (strlen(index) == len && memcmp(w, index, len) == 0) ||
	       (strlen(p->worker_name) == len && memcmp(w, p->worker_name, len) == 0);
}

/* See prop_map.h. */
const struct dgr_prop *dgr_prop_map_find(const struct dgr_prop_map *m, const char *s, char *err)
{
	const char *dot = strchr(s, '.');
	const char *name = dot ? dot + 1 : s;
	const struct dgr_prop *found = NULL;
	char others[DGR_ERRBUF_SIZE / 2] = "";
	size_t used = 0;
	unsigned int held = 0;

	for (unsigned int i = 0; i < m->n; i++) {
		const struct dgr_prop *p = &m->props[i];

		if (strcmp(p->name, name) != 0 || (dot && !worker_is(p, s, (size_t)(dot - s)))) {
			continue;
		}
		held++;
		if (!found) {
			found = p;
		}
		if (used < sizeof(others)) {
			int w = snprintf(others + used, sizeof(others) - used, "%s%u %s",
					 held > 1 ? ", " : "", p->worker, p->worker_name);

			used += w > 0 ? (size_t)w : 0;
		}
	}
	if (held > 1) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "'%s' is a property of several workers (%s): give WORKER.%s", s, others,
			 name);
		return NULL;
	}
	if (!found) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "'%s' is neither an address nor a property of the --props map", s);
	}
	return found;
}

/* See prop_map.h. */
int dgr_prop_map_worker(const struct dgr_prop_map *m, const char *name, unsigned int *worker)
{
	for (unsigned int i = 0; i < m->n; i++) {
		if (strcmp(m->props[i].worker_name, name) == 0) {
			*worker = m->props[i].worker;
			return 0;
		}
	}
	return -1;
}
