// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dgrdma-runinfo: writes a run folder's run.json for dgrdma-capture, through run.json's
 * one writer (analysis/input/run_writer.c), and reads one as latency-report does
 * (analysis/input/run_info.c). The fields, their types and ranges are one table
 * (analysis/input/run_schema.c); docs/run-json.md.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "cli.h"
#include "dgrdma-version.h"
#include "run_info.h"
#include "run_schema.h"
#include "run_writer.h"

#define PROG "dgrdma-runinfo"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: " PROG " write --out FILE [OPTIONS] [KEY=TEXT | KEY:=JSON]...\n"
		"       " PROG " check FILE\n"
		"       " PROG " fields\n"
		"  write: run.json from the facts given, each checked against run.json's table\n"
		"  of fields (type, range); refused (exit 2, naming the field and what it\n"
		"  accepts) rather than written wrong. KEY=TEXT: a string field's value, one\n"
		"  more element of an array, else JSON text (4096, true, null); KEY:=JSON: the\n"
		"  whole value as JSON text. Arguments are taken in order: a later one wins.\n"
		"  --out FILE            the file to write (through FILE.tmp, renamed)\n"
		"  --update FILE         start from FILE, a run.json this program wrote\n"
		"  --settings-from FILE  settings: the settings of the command's --summary-json\n"
		"                        (null when FILE is empty, missing or has none)\n"
		"  --losses-from FILE    losses: the losses of the command's --summary-json\n"
		"                        (null when FILE is empty or missing)\n"
		"  check: reads FILE as latency-report does; exit 0, or 2 with the reason.\n"
		"  fields: every field of run.json: key, type, range or values, flags.\n"
		"  -h, --help            this text\n"
		"  --version             the version of dgrdma-tools\n");
}

/* The value of option name in argv[*i] ("--out FILE" or "--out=FILE"), or NULL. */
static const char *option_value(int argc, char **argv, int *i, const char *name, bool *bad)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n) != 0) {
		return NULL;
	}
	if (argv[*i][n] == '=') {
		return argv[*i] + n + 1;
	}
	if (argv[*i][n] != '\0') {
		return NULL;
	}
	if (*i + 1 >= argc) {
		fprintf(stderr, PROG ": %s: a file is missing\n", name);
		*bad = true;
		return NULL;
	}
	return argv[++*i];
}

/* Writes text to path through path.tmp. Returns 0 or -DGR_E_SYS with errbuf. */
static int write_file(const char *path, const char *text, char *errbuf)
{
	char tmp[4096];
	FILE *fp;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp)) {
		return dgr_errbuf_set(errbuf, DGR_E_SYS, "%.180s: the name is too long", path);
	}
	fp = fopen(tmp, "w");
	if (!fp) {
		return dgr_errbuf_set(errbuf, DGR_E_SYS, "%.180s: %s", tmp, strerror(errno));
	}
	if (fputs(text, fp) == EOF || fputc('\n', fp) == EOF) {
		fclose(fp);
		remove(tmp);
		return dgr_errbuf_set(errbuf, DGR_E_SYS, "%.180s: %s", tmp, strerror(errno));
	}
	if (fclose(fp) != 0 || rename(tmp, path) != 0) {
		remove(tmp);
		return dgr_errbuf_set(errbuf, DGR_E_SYS, "%.180s: %s", path, strerror(errno));
	}
	return 0;
}

static int cmd_write(int argc, char **argv)
{
	char errbuf[DGR_ERRBUF_SIZE];
	struct run_writer w = { NULL };
	const char *out = NULL, *v;
	char *text = NULL;
	bool bad = false;
	int i, ret, status = DGR_EXIT_USAGE;

	if (run_writer_init(&w, errbuf) < 0) {
		fprintf(stderr, PROG ": %s\n", errbuf);
		return DGR_EXIT_FAILED;
	}
	for (i = 2; i < argc; i++) {
		ret = 0;
		if ((v = option_value(argc, argv, &i, "--out", &bad))) {
			out = v;
		} else if ((v = option_value(argc, argv, &i, "--update", &bad))) {
			ret = run_writer_load(&w, v, errbuf);
		} else if ((v = option_value(argc, argv, &i, "--settings-from", &bad))) {
			ret = run_writer_settings_from(&w, v, errbuf);
		} else if ((v = option_value(argc, argv, &i, "--losses-from", &bad))) {
			ret = run_writer_losses_from(&w, v, errbuf);
		} else if (bad) {
			goto end;
		} else if (!strncmp(argv[i], "--", 2)) {
			fprintf(stderr, PROG ": write: '%s' is not an option\n", argv[i]);
			goto end;
		} else {
			ret = run_writer_set(&w, argv[i], errbuf);
		}
		if (bad) {
			goto end;
		}
		if (ret < 0) {
			fprintf(stderr, PROG ": %s\n", errbuf);
			status = ret == -DGR_E_INVAL ? DGR_EXIT_USAGE : DGR_EXIT_FAILED;
			goto end;
		}
	}
	if (!out) {
		fprintf(stderr, PROG ": write: --out FILE is missing\n");
		goto end;
	}
	ret = run_writer_finish(&w, &text, errbuf);
	if (ret < 0) {
		fprintf(stderr, PROG ": %s: not written: %s\n", out, errbuf);
		status = ret == -DGR_E_INVAL ? DGR_EXIT_USAGE : DGR_EXIT_FAILED;
		goto end;
	}
	if (write_file(out, text, errbuf) < 0) {
		fprintf(stderr, PROG ": %s\n", errbuf);
		status = DGR_EXIT_FAILED;
		goto end;
	}
	status = DGR_EXIT_OK;
end:
	free(text);
	run_writer_free(&w);
	return status;
}

static int cmd_check(int argc, char **argv)
{
	char errbuf[DGR_ERRBUF_SIZE];
	struct run_info ri;

	if (argc != 3) {
		fprintf(stderr, PROG ": check: one FILE\n");
		return DGR_EXIT_USAGE;
	}
	memset(&ri, 0, sizeof(ri));
	if (run_info_read(argv[2], &ri, errbuf) < 0) {
		fprintf(stderr, PROG ": %s\n", errbuf);
		return DGR_EXIT_USAGE;
	}
	return DGR_EXIT_OK;
}

static void print_fields(void)
{
	static const char *const types[] = {
		[RUN_F_STRING] = "string",   [RUN_F_WHOLE] = "whole",
		[RUN_F_NUMBER] = "number",   [RUN_F_BOOL] = "bool",
		[RUN_F_STRINGS] = "strings", [RUN_F_WHOLES] = "wholes",
		[RUN_F_CLOCK] = "clock",     [RUN_F_OBJECT] = "object",
		[RUN_F_MAP] = "map",	     [RUN_F_TOOL_OBJECT] = "tool-object",
	};
	size_t i, k;

	for (i = 0; i < run_field_count; i++) {
		const struct run_field *f = &run_fields[i];

		printf("%s %s", f->key, types[f->type]);
		if (f->type == RUN_F_WHOLE || f->type == RUN_F_WHOLES) {
			printf(" %.0f..%.0f", f->min, f->max);
		} else if (f->type == RUN_F_NUMBER) {
			printf(" %s%.15g,%.15g]", (f->flags & RUN_F_ABOVE_MIN) ? "(" : "[", f->min,
			       f->max);
		}
		for (k = 0; f->choices && f->choices[k]; k++) {
			printf("%s%s", k ? "|" : " ", f->choices[k]);
		}
		printf("%s%s%s%s\n", (f->flags & RUN_F_NULL) ? " null" : "",
		       (f->flags & RUN_F_EMPTY_NULL) ? " empty-is-null" : "",
		       (f->flags & RUN_F_REQUIRED) ? " required" : "",
		       (f->flags & RUN_F_DERIVED) ? " computed" : "");
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return DGR_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return DGR_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf(PROG " (dgrdma-tools) %s\n", DGR_VERSION);
		return DGR_EXIT_OK;
	}
	if (!strcmp(argv[1], "write")) {
		return cmd_write(argc, argv);
	}
	if (!strcmp(argv[1], "check")) {
		return cmd_check(argc, argv);
	}
	if (!strcmp(argv[1], "fields") && argc == 2) {
		print_fields();
		return DGR_EXIT_OK;
	}
	fprintf(stderr, PROG ": '%s' is not a command: write, check, fields\n", argv[1]);
	usage(stderr);
	return DGR_EXIT_USAGE;
}
