/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One declarative option table per tool: each row names an option, its old names
 * (aliases), the type of its value with the accepted range, the subcommands it belongs
 * to and its lines of --help. From the table come the parser (getopt_long built from
 * it; every value checked against the row's range, named as the user gave it), --help
 * (the rows' text in order), --list-options [--json] (machine-readable) and, at build
 * time, the bash completion (mk/completion.sh reads --list-options).
 *
 * Part of the tools' internal archive (stack/cli/, libdgrcli.a): never installed.
 */
#ifndef DGR_CLI_OPTS_H
#define DGR_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The type of an option's value: how the generic parser checks it. */
enum dgr_opt_type {
	DGR_OPT_TEXT,	 /* no option: a row of --help text only (a heading, a note) */
	DGR_OPT_FLAG,	 /* no value */
	DGR_OPT_COUNT,	 /* a whole number, dgr_parse_u64 in min..max */
	DGR_OPT_SIZE,	 /* a size, dgr_parse_u64 with K, M, G in min..max */
	DGR_OPT_SECONDS, /* seconds with fraction, dgr_parse_seconds up to hi, in ns */
	DGR_OPT_DECIMAL, /* a decimal number, dgr_parse_f64 in lo..hi */
	DGR_OPT_RATE,	 /* a sample rate, dgr_parse_rate in lo..hi */
	DGR_OPT_CHOICE,	 /* one of the forms in values, checked by the tool's handler */
	DGR_OPT_STRING,	 /* text (a path, an address, a list): checked by the handler */
};

/* A parsed value, as the row's type gives it. */
union dgr_opt_value {
	uint64_t u; /* COUNT, SIZE; SECONDS in ns */
	double d;   /* DECIMAL, RATE */
};

/* One option (or, with type DGR_OPT_TEXT and no name, a row of --help text). */
struct dgr_opt {
	int id;			/* what the handler is called with (getopt's val) */
	const char *name;	/* the long name without "--" */
	const char *aliases[3]; /* old names, until NULL */
	char short_name;	/* e.g. 'h', or 0 */
	enum dgr_opt_type type;
	const char *metavar;	  /* the value's name in --help ("N", "SEC") */
	uint64_t min, max;	  /* COUNT, SIZE */
	double lo, hi;		  /* SECONDS (hi only), DECIMAL, RATE */
	const char *values;	  /* CHOICE: the forms, separated by '|' ("null|memcpy|file:") */
	unsigned int subcommands; /* bit i: the tool's subcommand i; 0: every one */
	const char *usage; /* its lines of --help, verbatim; NULL when another row's say it */
	const char *man;   /* its paragraph of the man page's OPTIONS (roff); NULL: its --help;
			    * DGR_OPT_MAN_WITH_NEXT: none, its term stands over the next row's;
			    * a DGR_OPT_TEXT row: roff between the options (".SS" heading, ".PP")
			    */
};

/*
 * The man field of an option whose term shares the next option's paragraph (".TQ": the
 * man page describes --id and --peer-id together). Told by its being empty.
 */
#define DGR_OPT_MAN_WITH_NEXT ""

/* A tool's table. */
struct dgr_opt_table {
	const char *tool; /* "dgrdma-host" */
	const struct dgr_opt *opts;
	size_t nopts;
	const char *const *subcommands;	       /* "rx", "tx", ...: NULL when the tool has none */
	const char *const *subcommand_article; /* "an rx", "a tx", ... for the refusals */
	size_t nsubcommands;
	const char *man_tail; /* roff after the options of the man page's OPTIONS, or NULL */
};

/* What the handler and dgr_opts_parse return besides 0 and errors: stop reading, done. */
#define DGR_OPTS_STOP 1

/*
 * Called for every option read, in order, with its row, the name as the user gave it
 * ("--rate" for the alias of --sample-rate), its text (NULL for a flag) and its value
 * checked against the row's range; with DGR_OPTS_INTERLEAVED also for every operand, in
 * order, with o and given NULL and arg the operand. Returns 0, DGR_OPTS_STOP (--help,
 * --version: the caller prints, nothing else is read) or a negative DGR_E_* with errbuf.
 */
typedef int (*dgr_opt_handler)(void *ctx, const struct dgr_opt *o, const char *given,
			       const char *arg, const union dgr_opt_value *v, char *errbuf);

/* Flags of dgr_opts_parse. */
#define DGR_OPTS_NO_OPERANDS 1u /* an argument that is no option is refused */
/*
 * Options before, between and after operands, each operand handed to the handler where it
 * stands; an argument of '-' and a digit ("-1") is an operand, and '--' makes every
 * argument after it one (dgrdma-ctl: "write ADDR -1").
 */
#define DGR_OPTS_INTERLEAVED 2u
/*
 * The parser's own words for an unknown option, a missing value and a value given to a flag
 * ("unknown option '--bogus' (see --help)", "--csv needs a value (see --help)", "--json
 * takes no value") in errbuf, instead of getopt's messages on stderr (latency-report's).
 */
#define DGR_OPTS_OWN_MESSAGES 4u

/* The man text of a --list-options row of a tool with commands (dgrdma-wire, dgrdma-tune). */
#define DGR_OPTS_MAN_LIST_OPTIONS                                                                  \
	"every option with its old names, the type of its value, its range and its command, "      \
	"one\n"                                                                                    \
	"a line (tab-separated: name, type, commands, accepted words); with\n"                     \
	".BR \\-\\-json ,\n"                                                                       \
	"one JSON object; with\n"                                                                  \
	".BR \\-\\-man ,\n"                                                                        \
	"this OPTIONS section in roff (docs/cli.md). The bash completion is made from it.\n"

/*
 * Reads argv (argv[0] is the program, or "PROGRAM SUBCOMMAND" for getopt's own messages)
 * with the table: builds getopt_long's options from the rows, checks each value against
 * its row's range (the error names the option as given and the range, the words of
 * cli.h) and calls handler. subcommand is the index of the tool's subcommand in force
 * (-1: none): an option of another subcommand is then refused by the name it was given
 * ("rx: --bytes is a tx option"), once every option was read, in the order of the table.
 * With DGR_OPTS_NO_OPERANDS an operand is refused ("unexpected argument 'x'") before
 * that. Returns 0 with *next (if not NULL) the index of the first operand,
 * DGR_OPTS_STOP when the handler said so, -DGR_E_INVAL with errbuf for bad usage
 * ("SUBCOMMAND: see --help" after getopt's own message on stderr, with context the
 * subcommand's name; "see --help" without), or -DGR_E_NOMEM.
 */
int dgr_opts_parse(const struct dgr_opt_table *t, int argc, char **argv, int subcommand,
		   unsigned int flags, dgr_opt_handler handler, void *ctx, int *next, char *errbuf);

/* Writes --help: every row's usage text, in the table's order. */
void dgr_opts_usage(const struct dgr_opt_table *t, FILE *f);

/*
 * Writes --list-options: with json, one JSON object {"tool", "subcommands", "options":
 * [{"name", "aliases", "short", "type", "metavar", "min", "max", "values",
 * "subcommands", "help"}]} (docs/cli.md); without, one line per option for scripts
 * (mk/completion.sh): "--NAME TYPE SUBCOMMANDS VALUES" separated by tabs, SUBCOMMANDS
 * "-" for all (else joined by ','), VALUES the CHOICE forms joined by '|' or "-", and
 * each alias on a line of its own.
 */
void dgr_opts_list(const struct dgr_opt_table *t, bool json, FILE *f);

/*
 * Writes the man page's OPTIONS section in roff, from ".SH OPTIONS" to the end of the
 * table's man_tail: for every option, in the table's order, a ".TP" term (its names, the
 * short one and the aliases, each with its metavar) and its man paragraph (the row's --help
 * lines, squeezed into one, when it has none); the terms of rows whose man is
 * DGR_OPT_MAN_WITH_NEXT stand over the next one's paragraph (".TQ"); a DGR_OPT_TEXT row's
 * man text (a ".SS" heading, a ".PP" note, the section's first paragraph) is written where
 * the row stands. mk/man-options.sh puts it into a page.
 */
void dgr_opts_man(const struct dgr_opt_table *t, FILE *f);

/*
 * Writes --list-options as argv asks: the man page's OPTIONS (dgr_opts_man) when it holds
 * "--man", else dgr_opts_list, as JSON when it holds "--json".
 */
void dgr_opts_list_argv(const struct dgr_opt_table *t, int argc, char **argv, FILE *f);

/* True when argv holds "--json" (for --list-options, whatever option read it). */
bool dgr_opts_argv_has(int argc, char **argv, const char *word);

#endif
