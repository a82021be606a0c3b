/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dgrdma-opts: the option tables of the bash tools (dgrdma-plot, dgrdma-capture), served to
 * the scripts. Internal: the scripts run it, a user has no need to.
 *
 *   dgrdma-opts TOOL parse ARGS...   read ARGS with TOOL's table (dgr_opts_parse: the ranges,
 *                                    abbreviations and error words of the C tools) and write
 *                                    the options read, in order, as NUL-terminated records
 *                                    of three fields: the option's name (without "--"), the
 *                                    name as given ("--out"), its value checked and converted
 *                                    (a count or a size as a whole number, sizes in bytes;
 *                                    seconds in ns; a decimal or a rate in %.15g; a flag's
 *                                    empty); then each operand as a record "", "", OPERAND
 *                                    (dgrdma-capture: its options end at the first operand,
 *                                    COMMAND, or at "--").
 *                                    --help, --version and --list-options end the reading:
 *                                    their record is the last. A bad command line: the error
 *                                    on stderr ("TOOL: --stalls: '9' is out of range 1..5")
 *                                    and exit 2 (the records before it are to be dropped).
 *   dgrdma-opts TOOL help            TOOL's --help
 *   dgrdma-opts TOOL list [--json|--man]
 *                                    TOOL's --list-options (docs/cli.md)
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "cli.h"
#include "capture_opts.h"
#include "opts.h"
#include "plot_opts.h"

/* A tool whose table dgrdma-opts serves, and how its command line is read. */
struct bash_tool {
	const struct dgr_opt_table *table;
	unsigned int flags; /* dgr_opts_parse's */
	/*
	 * The options end at the first operand (dgrdma-capture's COMMAND, whose own options are
	 * not the tool's), not only at "--": getopt's order as POSIX asks it.
	 */
	bool command_follows;
};

static const struct bash_tool bash_tools[] = {
	{ &dgr_plot_options, DGR_OPTS_OWN_MESSAGES, false },
	{ &dgr_capture_options, DGR_OPTS_OWN_MESSAGES, true },
};

/* Writes one record: three fields, each ended by a NUL. */
static void record(const char *name, const char *given, const char *value)
{
	fputs(name, stdout);
	fputc('\0', stdout);
	fputs(given, stdout);
	fputc('\0', stdout);
	fputs(value, stdout);
	fputc('\0', stdout);
}

/*
 * arg is one of the forms of o->values (a form ending in ':' takes any text after it).
 * Returns 0, or -DGR_E_INVAL with errbuf naming the option as given and every form.
 */
static int check_choice(const struct dgr_opt *o, const char *given, const char *arg, char *errbuf)
{
	char forms[256] = "";
	const char *p = o->values;
	size_t len = 0;

	while (*p) {
		size_t n = strcspn(p, "|");
		bool last = p[n] == '\0';

		if ((n > 0 && p[n - 1] == ':' && strncmp(arg, p, n) == 0) ||
		    (strlen(arg) == n && strncmp(arg, p, n) == 0)) {
			return 0;
		}
		if (len < sizeof(forms)) {
			len += (size_t)snprintf(forms + len, sizeof(forms) - len, "%s%.*s",
						len == 0 ? ""
						: last	 ? " or "
							 : ", ",
						(int)n, p);
		}
		p += n + (last ? 0 : 1);
	}
	return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s: '%s' is not %s", given, arg, forms);
}

/*
 * The table's handler (opts.h): writes the option's record. Returns 0, DGR_OPTS_STOP or
 * -DGR_E_INVAL for a CHOICE value that is none of its forms.
 */
static int on_option(void *ctx, const struct dgr_opt *o, const char *given, const char *arg,
		     const union dgr_opt_value *v, char *errbuf)
{
	char value[64] = "";
	int rc;

	(void)ctx;
	if (!o) {
		record("", "", arg);
		return 0;
	}
	switch (o->type) {
	case DGR_OPT_COUNT:
	case DGR_OPT_SIZE:
	case DGR_OPT_SECONDS:
		snprintf(value, sizeof(value), "%" PRIu64, v->u);
		break;
	case DGR_OPT_DECIMAL:
	case DGR_OPT_RATE:
		snprintf(value, sizeof(value), "%.15g", v->d);
		break;
	case DGR_OPT_CHOICE:
		rc = check_choice(o, given, arg, errbuf);
		if (rc < 0) {
			return rc;
		}
		break;
	default:
		break;
	}
	record(o->name, given,
	       o->type == DGR_OPT_CHOICE || o->type == DGR_OPT_STRING ? arg : value);
	if (strcmp(o->name, "help") == 0 || strcmp(o->name, "version") == 0 ||
	    strcmp(o->name, "list-options") == 0) {
		return DGR_OPTS_STOP;
	}
	return 0;
}

static const struct bash_tool *find_tool(const char *name)
{
	for (size_t i = 0; i < sizeof(bash_tools) / sizeof(bash_tools[0]); i++) {
		if (strcmp(bash_tools[i].table->tool, name) == 0) {
			return &bash_tools[i];
		}
	}
	return NULL;
}

static void usage(FILE *f)
{
	fputs("usage: dgrdma-opts TOOL parse ARGS...\n"
	      "       dgrdma-opts TOOL help\n"
	      "       dgrdma-opts TOOL list [--json|--man]\n"
	      "  the option table of a bash tool, for the tool itself (docs/cli.md); TOOL:",
	      f);
	for (size_t i = 0; i < sizeof(bash_tools) / sizeof(bash_tools[0]); i++) {
		fprintf(f, " %s", bash_tools[i].table->tool);
	}
	fputc('\n', f);
}

int main(int argc, char **argv)
{
	char errbuf[DGR_ERRBUF_SIZE] = "";
	const struct bash_tool *tool;
	int first = 0;
	int rc;

	if (argc < 3) {
		usage(stderr);
		return DGR_EXIT_USAGE;
	}
	tool = find_tool(argv[1]);
	if (!tool) {
		fprintf(stderr, "dgrdma-opts: '%s' is not a tool with a table here\n", argv[1]);
		usage(stderr);
		return DGR_EXIT_USAGE;
	}
	if (strcmp(argv[2], "help") == 0 && argc == 3) {
		dgr_opts_usage(tool->table, stdout);
		return DGR_EXIT_OK;
	}
	if (strcmp(argv[2], "list") == 0) {
		/* argv from "list": --json, --man where the tool's argv had them */
		dgr_opts_list_argv(tool->table, argc - 2, argv + 2, stdout);
		return DGR_EXIT_OK;
	}
	if (strcmp(argv[2], "parse") != 0) {
		usage(stderr);
		return DGR_EXIT_USAGE;
	}
	/* the tool's argv: its name, then ARGS */
	argv[2] = argv[1];
	if (tool->command_follows && setenv("POSIXLY_CORRECT", "1", 1) != 0) {
		fprintf(stderr, "dgrdma-opts: out of memory\n");
		return DGR_EXIT_FAILED;
	}
	rc = dgr_opts_parse(tool->table, argc - 2, argv + 2, -1, tool->flags, on_option, NULL,
			    &first, errbuf);
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", tool->table->tool, errbuf);
		return DGR_EXIT_USAGE;
	}
	if (rc == 0) {
		for (int i = first + 2; i < argc; i++) {
			record("", "", argv[i]);
		}
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "dgrdma-opts: cannot write the options\n");
		return DGR_EXIT_FAILED;
	}
	return DGR_EXIT_OK;
}
