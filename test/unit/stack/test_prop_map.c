/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dgrdma-ctl's property map (stack/cli/prop_map.h): the rows of
 * dgrdma-fpga --list-properties read whole, every malformed row refused with
 * its line and cell, names resolved by worker index or name, and a name two
 * workers hold refused as ambiguous.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dgrdma/wire.h>

#include "cli.h"
#include "prop_map.h"
#include "../tap.h"

static struct dgr_prop_map map;

#define HEAD                                                                                       \
	"| worker | offset | DCP address | name | type | access | meaning |\n"                     \
	"|---|---|---|---|---|---|---|\n"

static const char good[] =
    HEAD "| 0 dgrdma_config | 0x004 | 0x100004 | `mtu` | u32 | RO | frame size limit |\n"
	 "| 0 dgrdma_config | 0x018 | 0x100018 | `doorbell` | u32 | WO | frees a buffer |\n"
	 "| 0 dgrdma_config | 0x020 | 0x100020 | `acks_sent` | u64 | RO | a | b | c |\n"
	 "text between the rows\n"
	 "| 4 emulator | 0x000 | 0x500000 | `mtu` | bool | RW |  |";

/* Parses text; returns the return code and leaves the message in err. */
static int parse(const char *text, char *err)
{
	err[0] = '\0';
	return dgr_prop_map_parse(&map, text, strlen(text), "--props map.md", err);
}

/* A one-row map with row as its third line: refused with that message. */
static void refused(const char *row, const char *want, const char *what)
{
	char text[1024], err[DGR_ERRBUF_SIZE];
	int rc;

	snprintf(text, sizeof(text), HEAD "%s\n", row);
	rc = parse(text, err);
	if (!tap_ok(rc == -DGR_E_INVAL && strcmp(err, want) == 0, "refused: %s", what)) {
		tap_diag("rc %d, err '%s', want '%s'", rc, err, want);
	}
}

static void test_rows(void)
{
	char err[DGR_ERRBUF_SIZE];
	const struct dgr_prop *p;

	TAP_EQ_I(parse(good, err), 0, "the table of --list-properties is read");
	TAP_EQ_U(map.n, 4, "four rows, the header, the separator and the text left out");
	p = &map.props[2];
	tap_ok(p->worker == 0 && strcmp(p->worker_name, "dgrdma_config") == 0 &&
		   p->addr == 0x100020 && strcmp(p->name, "acks_sent") == 0 && p->is_u64 &&
		   !p->write_only && strcmp(p->type, "u64") == 0 && strcmp(p->access, "RO") == 0 &&
		   p->line == 5,
	       "a u64 row: worker, address, name, two words, access, its line; a meaning with '|'");
	tap_ok(map.props[1].write_only && !map.props[1].is_u64, "WO: write-only, one word");
	tap_ok(map.props[3].worker == 4 && map.props[3].line == 7 && !map.props[3].is_u64 &&
		   strcmp(map.props[3].type, "bool") == 0,
	       "the last row without a newline, after text: read, line 7");
	TAP_EQ_I(parse(HEAD "no rows here\n", err), -DGR_E_INVAL,
		 "a table without rows is refused");
	tap_ok(strcmp(err, "--props map.md: no property rows (expected the table of dgrdma-fpga "
			   "--list-properties)") == 0,
	       "and says what it expected");
}

static void test_refused(void)
{
	char text[DGR_PROP_MAP_MAX * 80 + 256], err[DGR_ERRBUF_SIZE];
	size_t used = 0;

	refused("| 0 dgrdma_config | 0x004 | 0x100004 | `mtu` | u32 |",
		"--props map.md line 3: 5 cells, a property row has 7: | worker | offset | DCP "
		"address | `name` | type | access | meaning |",
		"a row short of its access cell");
	refused("| 63 w | 0x0 | 0x100000 | `a` | u32 | RO | |",
		"--props map.md line 3: worker '63 w' is not 'INDEX NAME' (INDEX 0..62, NAME a "
		"letter or _, then letters, digits and _)",
		"worker 63, past the DCP address's field");
	refused("| 0 | 0x0 | 0x100000 | `a` | u32 | RO | |",
		"--props map.md line 3: worker '0' is not 'INDEX NAME' (INDEX 0..62, NAME a letter "
		"or _, then letters, digits and _)",
		"a worker without its name");
	refused("| 0x1 w | 0x0 | 0x100000 | `a` | u32 | RO | |",
		"--props map.md line 3: worker '0x1 w' is not 'INDEX NAME' (INDEX 0..62, NAME a "
		"letter or _, then letters, digits and _)",
		"a worker index in hexadecimal");
	refused("| 0 w | 0x0 | 0x1000000 | `a` | u32 | RO | |",
		"--props map.md line 3: DCP address '0x1000000' is not a word-aligned hexadecimal "
		"address 0x0..0xfffffc",
		"an address past 24 bits (was taken modulo 2^32, then cut to 24 bits on the wire)");
	refused("| 0 w | 0x0 | 0x100002 | `a` | u32 | RO | |",
		"--props map.md line 3: DCP address '0x100002' is not a word-aligned hexadecimal "
		"address 0x0..0xfffffc",
		"an address not word-aligned");
	refused("| 0 w | 0x0 | 100000 | `a` | u32 | RO | |",
		"--props map.md line 3: DCP address '100000' is not a word-aligned hexadecimal "
		"address 0x0..0xfffffc",
		"an address without 0x");
	refused("| 0 w | 0x0 | 0xfffffc | `a` | u64 | RO | |",
		"--props map.md line 3: a u64 at 0xfffffc: its second word is past the last DCP "
		"address",
		"a u64 whose second word has no address");
	refused("| 0 w | 0x0 | 0x100000 | a | u32 | RO | |",
		"--props map.md line 3: name 'a' is not `NAME` (in backquotes: a letter or _, "
		"then letters, digits and _, at most 63)",
		"a name without backquotes");
	refused("| 0 w | 0x0 | 0x100000 | `a.b` | u32 | RO | |",
		"--props map.md line 3: name '`a.b`' is not `NAME` (in backquotes: a letter or _, "
		"then letters, digits and _, at most 63)",
		"a name with a dot (WORKER.NAME could not name it)");
	/* found by fuzz_prop_map: worker 4 named "0" made 0.NAME name workers 0 and 4 */
	refused("| 4 0 | 0x0 | 0x500000 | `a` | u32 | RO | |",
		"--props map.md line 3: worker '4 0' is not 'INDEX NAME' (INDEX 0..62, NAME a "
		"letter or _, then letters, digits and _)",
		"a worker name of digits (WORKER.NAME would read it as an index)");
	refused("| 0 w | 0x0 | 0x100000 | `1a` | u32 | RO | |",
		"--props map.md line 3: name '`1a`' is not `NAME` (in backquotes: a letter or _, "
		"then letters, digits and _, at most 63)",
		"a property name that starts with a digit (dgrdma-ctl read 1a: an address)");
	refused("| 0 w | 0x0 | 0x100000 | `a` | f32 | RO | |",
		"--props map.md line 3: type 'f32' is not bool, u8, u16, u32, u64, i8, i16, i32 or "
		"i64",
		"a type dgrdma-ctl cannot read");
	refused("| 0 w | 0x0 | 0x100000 | `a` | u32 | R | |",
		"--props map.md line 3: access 'R' is not RO, RW or WO",
		"an access other than RO, RW, WO");

	TAP_EQ_I(parse(HEAD "| 0 w | 0x0 | 0x100000 | `a` | u32 | RO | |\n"
			    "| 0 w | 0x4 | 0x100004 | `a` | u32 | RO | |\n",
		       err),
		 -DGR_E_INVAL, "a worker's property twice is refused");
	tap_ok(strcmp(err, "--props map.md line 4: worker 0's property a is also on line 3") == 0,
	       "naming both lines (%s)", err);
	TAP_EQ_I(parse(HEAD "| 0 w | 0x0 | 0x100000 | `a` | u32 | RO | |\n"
			    "| 0 v | 0x4 | 0x100004 | `b` | u32 | RO | |\n",
		       err),
		 -DGR_E_INVAL, "a worker with two names is refused");
	tap_ok(strcmp(err, "--props map.md line 4: worker 0 is named v, on line 3 w") == 0,
	       "naming both (%s)", err);
	TAP_EQ_I(parse(HEAD "| 0 w | 0x0 | 0x100000 | `a` | u32 | RO | |\n"
			    "| 1 w | 0x4 | 0x200004 | `b` | u32 | RO | |\n",
		       err),
		 -DGR_E_INVAL, "a name for two workers is refused");

	used = (size_t)snprintf(text, sizeof(text), HEAD);
	for (int i = 0; i <= DGR_PROP_MAP_MAX; i++) {
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 "| 1 w | 0x0 | 0x%06x | `p%d` | u32 | RO | |\n",
					 0x200000 + 4 * i, i);
	}
	TAP_EQ_I(parse(text, err), -DGR_E_INVAL, "row %d of a map is refused, not dropped",
		 DGR_PROP_MAP_MAX + 1);
	tap_ok(strcmp(err, "--props map.md line 515: more than 512 properties") == 0, "%s", err);
}

static void test_find(void)
{
	char err[DGR_ERRBUF_SIZE];
	const struct dgr_prop *p;
	unsigned int w = 99;

	parse(good, err);
	p = dgr_prop_map_find(&map, "doorbell", err);
	tap_ok(p && p->addr == 0x100018, "NAME held by one worker");
	p = dgr_prop_map_find(&map, "mtu", err);
	tap_ok(!p && strcmp(err, "'mtu' is a property of several workers (0 dgrdma_config, 4 "
				 "emulator): give WORKER.mtu") == 0,
	       "NAME held by two workers: ambiguous, both named (%s)", err);
	p = dgr_prop_map_find(&map, "emulator.mtu", err);
	tap_ok(p && p->addr == 0x500000, "WORKER.NAME by the worker's name");
	p = dgr_prop_map_find(&map, "0.mtu", err);
	tap_ok(p && p->addr == 0x100004, "WORKER.NAME by the worker's index");
	p = dgr_prop_map_find(&map, "3.mtu", err);
	tap_ok(!p && strcmp(err,
			    "'3.mtu' is neither an address nor a property of the --props map") == 0,
	       "WORKER.NAME of another worker: unknown (%s)", err);
	tap_ok(dgr_prop_map_worker(&map, "emulator", &w) == 0 && w == 4,
	       "a worker's index by its name");
	tap_ok(dgr_prop_map_worker(&map, "nobody", &w) == -1, "an unknown worker name");
}

static void test_load(void)
{
	char err[DGR_ERRBUF_SIZE], path[] = "/tmp/test_prop_map.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f) {
		tap_ok(0, "a temporary file");
		return;
	}
	/* a row longer than the 512-byte line buffer that cut it before */
	fprintf(f, HEAD "| 2 w | 0x0 | 0x300000 | `a` | u32 | RW | %0600d |\n", 7);
	fclose(f);
	TAP_EQ_I(dgr_prop_map_load(&map, path, err), 0, "a row of 640 bytes is read whole");
	tap_ok(map.n == 1 && map.props[0].addr == 0x300000, "its property");
	unlink(path);
	TAP_EQ_I(dgr_prop_map_load(&map, path, err), -DGR_E_SYS, "a missing file");
	tap_ok(strncmp(err, "--props /tmp/test_prop_map.", 27) == 0 &&
		   strstr(err, ": No such file or directory") != NULL,
	       "names --props, the path and the reason (%s)", err);
}

int main(void)
{
	test_rows();
	test_refused();
	test_find();
	test_load();
	return tap_done();
}
