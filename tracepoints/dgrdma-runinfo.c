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
#include "opts.h"
#include "run_info.h"
#include "run_schema.h"
#include "run_writer.h"

#define PROG "dgrdma-runinfo"

enum { CMD_WRITE = 1, CMD_CHECK = 2, CMD_FIELDS = 4 };
enum {
	OPT_OUT = 0x100,
	OPT_UPDATE,
	OPT_SETTINGS_FROM,
	OPT_LOSSES_FROM,
	OPT_VERSION,
	OPT_LIST_OPTIONS
};

/* dgrdma-runinfo's options: the parser, --help (the rows' text in order) and --list-options. */
static const struct dgr_opt runinfo_opts[] = {
	{ .type = DGR_OPT_TEXT,
	  .usage =
	      "usage: " PROG " write --out FILE [OPTIONS] [KEY=TEXT | KEY:=JSON]...\n"
	      "       " PROG " check FILE\n"
	      "       " PROG " fields\n"
	      "  write: run.json from the facts given, each checked against run.json's table\n"
	      "  of fields (type, range); refused (exit 2, naming the field and what it\n"
	      "  accepts) rather than written wrong. KEY=TEXT: a string field's value, one\n"
	      "  more element of an array, else JSON text (4096, true, null); KEY:=JSON: the\n"
	      "  whole value as JSON text. Arguments are taken in order: a later one wins.\n" },
	{ .id = OPT_OUT,
	  .name = "out",
	  .type = DGR_OPT_STRING,
	  .metavar = "FILE",
	  .subcommands = CMD_WRITE,
	  .usage = "  --out FILE            the file to write (through FILE.tmp, renamed)\n",
	  .man = "the file to write, through\n"
		 ".IR FILE .tmp,\n"
		 "renamed when complete.\n" },
	{ .id = OPT_UPDATE,
	  .name = "update",
	  .type = DGR_OPT_STRING,
	  .metavar = "FILE",
	  .subcommands = CMD_WRITE,
	  .usage = "  --update FILE         start from FILE, a run.json this program wrote\n",
	  .man = "start from FILE, a run.json of format dgrdma-run/2 (dgrdma-capture adds an "
		 "incident's\n"
		 "settings once the command has written them).\n" },
	{ .id = OPT_SETTINGS_FROM,
	  .name = "settings-from",
	  .type = DGR_OPT_STRING,
	  .metavar = "FILE",
	  .subcommands = CMD_WRITE,
	  .usage =
	      "  --settings-from FILE  settings: the settings of the command's --summary-json\n"
	      "                        (null when FILE is empty, missing or has none)\n",
	  .man = ".BR settings :\n"
		 "the\n"
		 ".B settings\n"
		 "object of the recorded command's\n"
		 ".B \\-\\-summary\\-json\n"
		 "FILE; null when FILE is empty, missing, no JSON object, or has no settings.\n" },
	{ .id = OPT_LOSSES_FROM,
	  .name = "losses-from",
	  .type = DGR_OPT_STRING,
	  .metavar = "FILE",
	  .subcommands = CMD_WRITE,
	  .usage = "  --losses-from FILE    losses: the losses of the command's --summary-json\n"
		   "                        (null when FILE is empty or missing)\n"
		   "  check: reads FILE as latency-report does; exit 0, or 2 with the reason.\n"
		   "  fields: every field of run.json: key, type, range or values, flags.\n",
	  .man =
	      ".BR losses :\n"
	      "from the same file,\n"
	      ".B summary\n"
	      "(FILE),\n"
	      ".B host\n"
	      "(dgrdma-host's status, samples_lost, drop_rate, incomplete_transactions,\n"
	      "buffers_unanswered, and of its counters discontinuities, socket_drops, "
	      "frames_missing,\n"
	      "retransmit_giveups) or\n"
	      ".B fpga\n"
	      "(dgrdma-fpga's counters); null when FILE is empty, missing or no JSON object.\n" },
	{ .id = 'h',
	  .name = "help",
	  .short_name = 'h',
	  .type = DGR_OPT_FLAG,
	  .usage = "  -h, --help            this text\n",
	  .man = "the usage text.\n" },
	{ .id = OPT_VERSION,
	  .name = "version",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --version             the version of dgrdma-tools\n",
	  .man = "the version of dgrdma-tools.\n" },
	{ .id = OPT_LIST_OPTIONS,
	  .name = "list-options",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --list-options        every option with its type and command, one a line\n"
		   "                        (with --json: one JSON object)\n",
	  .man = DGR_OPTS_MAN_LIST_OPTIONS },
};

static const char *const runinfo_commands[] = { "write", "check", "fields" };
static const char *const runinfo_command_articles[] = { "a write", "a check", "a fields" };

static const struct dgr_opt_table runinfo_options = {
	.tool = PROG,
	.opts = runinfo_opts,
	.nopts = sizeof(runinfo_opts) / sizeof(runinfo_opts[0]),
	.subcommands = runinfo_commands,
	.subcommand_article = runinfo_command_articles,
	.nsubcommands = 3,
	.man_tail =
	    ".PP\n"
	    ".B check\n"
	    ".I FILE\n"
	    "reads FILE as latency-report does.\n"
	    ".B fields\n"
	    "prints every field of the table, one a line: its key, its type (string, whole, "
	    "number,\n"
	    "bool, strings, wholes, clock, object, map, tool-object), its range or its "
	    "values, and\n"
	    ".BR null ,\n"
	    ".BR empty-is-null ,\n"
	    ".BR required ,\n"
	    ".B computed\n"
	    "where they apply.\n",
};

static void usage(FILE *out)
{
	dgr_opts_usage(&runinfo_options, out);
}

/*
 * One argument of a command line, in order: an option of write (its row's id and value) or
 * an operand (id 0). write applies them once the whole line was read, so that --help
 * anywhere writes nothing.
 */
struct runinfo_arg {
	int id;
	const char *value;
};

/* What the command line gives: its arguments in order, and what main prints instead. */
struct runinfo_args {
	struct runinfo_arg *args;
	int nargs;
	int stop; /* 'h', OPT_VERSION or OPT_LIST_OPTIONS */
};

/* The table's handler (opts.h): records each option and operand in order. */
static int runinfo_option(void *ctx, const struct dgr_opt *o, const char *given, const char *arg,
			  const union dgr_opt_value *v, char *errbuf)
{
	struct runinfo_args *a = ctx;

	(void)given;
	(void)v;
	(void)errbuf;
	if (o && (o->id == 'h' || o->id == OPT_VERSION || o->id == OPT_LIST_OPTIONS)) {
		a->stop = o->id;
		return DGR_OPTS_STOP;
	}
	a->args[a->nargs++] = (struct runinfo_arg){ o ? o->id : 0, arg };
	return 0;
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

/* Writes run.json from args, in order. Returns the exit status, the error printed. */
static int cmd_write(const struct runinfo_args *a)
{
	char errbuf[DGR_ERRBUF_SIZE];
	struct run_writer w = { NULL };
	const char *out = NULL;
	char *text = NULL;
	int i, ret, status = DGR_EXIT_USAGE;

	if (run_writer_init(&w, errbuf) < 0) {
		fprintf(stderr, PROG ": %s\n", errbuf);
		return DGR_EXIT_FAILED;
	}
	for (i = 0; i < a->nargs; i++) {
		const char *v = a->args[i].value;

		switch (a->args[i].id) {
		case OPT_OUT:
			out = v;
			ret = 0;
			break;
		case OPT_UPDATE:
			ret = run_writer_load(&w, v, errbuf);
			break;
		case OPT_SETTINGS_FROM:
			ret = run_writer_settings_from(&w, v, errbuf);
			break;
		case OPT_LOSSES_FROM:
			ret = run_writer_losses_from(&w, v, errbuf);
			break;
		default:
			ret = run_writer_set(&w, v, errbuf);
			break;
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

/* Reads the one FILE of args as latency-report does. Returns the exit status. */
static int cmd_check(const struct runinfo_args *a)
{
	char errbuf[DGR_ERRBUF_SIZE];
	struct run_info ri;

	if (a->nargs != 1) {
		fprintf(stderr, PROG ": check: one FILE\n");
		return DGR_EXIT_USAGE;
	}
	memset(&ri, 0, sizeof(ri));
	if (run_info_read(a->args[0].value, &ri, errbuf) < 0) {
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
	char errbuf[DGR_ERRBUF_SIZE];
	struct runinfo_args a = { NULL, 0, 0 };
	int cmd = -1, status = DGR_EXIT_USAGE, rc;

	if (argc < 2) {
		usage(stderr);
		return DGR_EXIT_USAGE;
	}
	for (int k = 0; k < 3; k++) {
		if (!strcmp(argv[1], runinfo_commands[k])) {
			cmd = k;
		}
	}
	if (cmd < 0 && argv[1][0] != '-') {
		fprintf(stderr, PROG ": '%s' is not a command: write, check, fields\n", argv[1]);
		usage(stderr);
		return DGR_EXIT_USAGE;
	}
	a.args = calloc((size_t)argc, sizeof(*a.args));
	if (!a.args) {
		fprintf(stderr, PROG ": out of memory\n");
		return DGR_EXIT_FAILED;
	}
	/* a command's line is read after its name ("write --out F": argv from "write") */
	rc = dgr_opts_parse(&runinfo_options, cmd < 0 ? argc : argc - 1, cmd < 0 ? argv : argv + 1,
			    cmd, DGR_OPTS_INTERLEAVED | DGR_OPTS_OWN_MESSAGES, runinfo_option, &a,
			    NULL, errbuf);
	if (rc < 0 && cmd < 0) {
		/* before a command, as before the table: what is not an option is no command */
		fprintf(stderr, PROG ": '%s' is not a command: write, check, fields\n", argv[1]);
		usage(stderr);
		goto out;
	}
	if (rc < 0) {
		fprintf(stderr, PROG ": %s\n", errbuf);
		status = rc == -DGR_E_INVAL ? DGR_EXIT_USAGE : DGR_EXIT_FAILED;
		goto out;
	}
	if (rc == DGR_OPTS_STOP) {
		if (a.stop == 'h') {
			usage(stdout);
		} else if (a.stop == OPT_VERSION) {
			printf(PROG " (dgrdma-tools) %s\n", DGR_VERSION);
		} else {
			dgr_opts_list_argv(&runinfo_options, argc, argv, stdout);
		}
		status = DGR_EXIT_OK;
		goto out;
	}
	if (cmd < 0 || (cmd == 2 && a.nargs > 0)) {
		/* an option without a command, or fields with arguments */
		fprintf(stderr, PROG ": '%s' is not a command: write, check, fields\n", argv[1]);
		usage(stderr);
		goto out;
	}
	if (cmd == 0) {
		status = cmd_write(&a);
	} else if (cmd == 1) {
		status = cmd_check(&a);
	} else {
		print_fields();
		status = DGR_EXIT_OK;
	}
out:
	free(a.args);
	return status;
}
