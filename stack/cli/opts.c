/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The generic option parser, --help and --list-options from a tool's table (opts.h). */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "cli.h"
#include "opts.h"

static const char *const type_names[] = {
	[DGR_OPT_TEXT] = "text", [DGR_OPT_FLAG] = "flag",	[DGR_OPT_COUNT] = "count",
	[DGR_OPT_SIZE] = "size", [DGR_OPT_SECONDS] = "seconds", [DGR_OPT_DECIMAL] = "decimal",
	[DGR_OPT_RATE] = "rate", [DGR_OPT_CHOICE] = "choice",	[DGR_OPT_STRING] = "string",
};

static size_t count_names(const struct dgr_opt_table *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->nopts; i++) {
		if (t->opts[i].name) {
			n++;
			for (size_t a = 0; a < 3 && t->opts[i].aliases[a]; a++) {
				n++;
			}
		}
	}
	return n;
}

/* Checks arg against o's type and range into *v. Returns 0 or -DGR_E_INVAL with errbuf. */
static int check_value(const struct dgr_opt *o, const char *given, const char *arg,
		       union dgr_opt_value *v, char *errbuf)
{
	switch (o->type) {
	case DGR_OPT_COUNT:
	case DGR_OPT_SIZE:
		return dgr_parse_u64(given, arg, o->min, o->max, o->type == DGR_OPT_SIZE, &v->u,
				     errbuf);
	case DGR_OPT_SECONDS:
		return dgr_parse_seconds(given, arg, o->hi, &v->u, errbuf);
	case DGR_OPT_DECIMAL:
		return dgr_parse_f64(given, arg, o->lo, o->hi, &v->d, errbuf);
	case DGR_OPT_RATE:
		return dgr_parse_rate(given, arg, o->lo, o->hi, &v->d, errbuf);
	default:
		return 0;
	}
}

/* "an rx and tx": the subcommands of mask, the first with its article. */
static void subcommand_list(const struct dgr_opt_table *t, unsigned int mask, char *buf,
			    size_t size)
{
	size_t len = 0;
	size_t n = 0, k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < t->nsubcommands; i++) {
		n += (mask >> i) & 1u;
	}
	for (size_t i = 0; i < t->nsubcommands && len < size; i++) {
		if (!((mask >> i) & 1u)) {
			continue;
		}
		k++;
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					k == 1	 ? ""
					: k == n ? " and "
						 : ", ",
					k == 1 ? t->subcommand_article[i] : t->subcommands[i]);
	}
}

/* Returns 0 or -DGR_E_INVAL naming the first option (in table order) of another subcommand. */
static int check_subcommand(const struct dgr_opt_table *t, const char *const *given, int subcommand,
			    char *errbuf)
{
	char what[128];

	for (size_t i = 0; i < t->nopts; i++) {
		const struct dgr_opt *o = &t->opts[i];

		if (!given[i] || o->subcommands == 0 || ((o->subcommands >> subcommand) & 1u)) {
			continue;
		}
		subcommand_list(t, o->subcommands, what, sizeof(what));
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s: --%s is %s option",
				      t->subcommands[subcommand], given[i], what);
	}
	return 0;
}

/*
 * The error of getopt's opt ('?' or ':') in the parser's own words, the option named as the
 * user wrote it (argv[optind - 1] for a long one, optopt for a short one). Returns
 * -DGR_E_INVAL with errbuf.
 */
static int own_message(int argc, char **argv, int opt, char *errbuf)
{
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	int n = (int)strcspn(arg, "=");

	if (strncmp(arg, "--", 2) != 0) {
		if (opt == ':') {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL, "-%c needs a value (see --help)",
					      optopt);
		}
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "unknown option '-%c' (see --help)",
				      optopt);
	}
	if (opt == ':') {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%.*s needs a value (see --help)", n,
				      arg);
	}
	if (optopt != 0) {
		/* a known option, given a value it does not take */
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%.*s takes no value", n, arg);
	}
	return dgr_errbuf_set(errbuf, DGR_E_INVAL, "unknown option '%.*s' (see --help)", n, arg);
}

/* See opts.h. */
int dgr_opts_parse(const struct dgr_opt_table *t, int argc, char **argv, int subcommand,
		   unsigned int flags, dgr_opt_handler handler, void *ctx, int *next, char *errbuf)
{
	size_t nnames = count_names(t);
	struct option *lo = calloc(nnames + 1, sizeof(*lo));
	size_t *row_of = calloc(nnames + 1, sizeof(*row_of));
	const char **given = calloc(t->nopts + 1, sizeof(*given));
	char shorts[64] = "";
	size_t ns = 0, k = 0;
	int rc = 0;
	int opt;

	if (flags & DGR_OPTS_INTERLEAVED) {
		shorts[ns++] = '+'; /* getopt stops at each operand: the handler takes it */
	}
	if (flags & DGR_OPTS_OWN_MESSAGES) {
		shorts[ns++] = ':'; /* a missing value returns ':', told from an unknown '?' */
	}
	if (!lo || !row_of || !given) {
		rc = dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < t->nopts; i++) {
		const struct dgr_opt *o = &t->opts[i];
		int has_arg = o->type == DGR_OPT_FLAG ? no_argument : required_argument;

		if (!o->name) {
			continue;
		}
		lo[k] = (struct option){ o->name, has_arg, NULL, o->id };
		row_of[k++] = i;
		for (size_t a = 0; a < 3 && o->aliases[a]; a++) {
			lo[k] = (struct option){ o->aliases[a], has_arg, NULL, o->id };
			row_of[k++] = i;
		}
		if (o->short_name && ns + 3 < sizeof(shorts)) {
			shorts[ns++] = o->short_name;
			if (has_arg == required_argument) {
				shorts[ns++] = ':';
			}
			shorts[ns] = '\0';
		}
	}
	optind = 1;
	opterr = (flags & DGR_OPTS_OWN_MESSAGES) ? 0 : 1;
	for (;;) {
		const struct dgr_opt *o = NULL;
		union dgr_opt_value v = { 0 };
		char name[48];
		size_t row = 0;
		int longindex = -1;

		if ((flags & DGR_OPTS_INTERLEAVED) && optind < argc && argv[optind][0] == '-' &&
		    argv[optind][1] >= '0' && argv[optind][1] <= '9') {
			opt = -1; /* "-1", "-0x10": a value, not an option */
		} else {
			opt = getopt_long(argc, argv, shorts, lo, &longindex);
		}
		if (opt == -1 && (flags & DGR_OPTS_INTERLEAVED) && optind < argc) {
			bool rest = strcmp(argv[optind - 1], "--") == 0;

			/* an operand; after '--' every argument is one */
			do {
				rc = handler(ctx, NULL, NULL, argv[optind++], &v, errbuf);
				if (rc != 0) {
					goto out;
				}
			} while (rest && optind < argc);
			if (rest) {
				break;
			}
			continue;
		}
		if (opt == -1) {
			break;
		}
		if (longindex >= 0) {
			row = row_of[longindex];
			o = &t->opts[row];
			snprintf(name, sizeof(name), "--%s", lo[longindex].name);
			given[row] = lo[longindex].name;
		} else {
			for (size_t i = 0; i < t->nopts && opt != '?' && opt != ':'; i++) {
				if (t->opts[i].name && t->opts[i].short_name == opt) {
					row = i;
					o = &t->opts[i];
					snprintf(name, sizeof(name), "--%s", o->name);
					given[row] = o->name;
					break;
				}
			}
		}
		if (!o && (flags & DGR_OPTS_OWN_MESSAGES)) {
			rc = own_message(argc, argv, opt, errbuf);
			goto out;
		}
		if (!o) {
			/* getopt has named the option on stderr */
			if (subcommand >= 0) {
				rc = dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s: see --help",
						    t->subcommands[subcommand]);
			} else {
				rc = dgr_errbuf_set(errbuf, DGR_E_INVAL, "see --help");
			}
			goto out;
		}
		rc = check_value(o, name, optarg, &v, errbuf);
		if (rc < 0) {
			goto out;
		}
		rc = handler(ctx, o, name, o->type == DGR_OPT_FLAG ? NULL : optarg, &v, errbuf);
		if (rc != 0) {
			goto out;
		}
	}
	if ((flags & DGR_OPTS_NO_OPERANDS) && optind < argc) {
		rc = dgr_errbuf_set(errbuf, DGR_E_INVAL, "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	if (subcommand >= 0) {
		rc = check_subcommand(t, given, subcommand, errbuf);
		if (rc < 0) {
			goto out;
		}
	}
	if (next) {
		*next = optind;
	}
out:
	free(lo);
	free(row_of);
	free(given);
	return rc;
}

/* See opts.h. */
void dgr_opts_usage(const struct dgr_opt_table *t, FILE *f)
{
	for (size_t i = 0; i < t->nopts; i++) {
		if (t->opts[i].usage) {
			fputs(t->opts[i].usage, f);
		}
	}
}

/* s as a JSON string; with squeeze, every run of white space becomes one space, trimmed. */
static void json_string(FILE *f, const char *s, bool squeeze)
{
	bool space = false, started = false;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (squeeze && (c == ' ' || c == '\n' || c == '\t')) {
			space = started;
			continue;
		}
		if (space) {
			fputc(' ', f);
			space = false;
		}
		started = true;
		if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
		} else if (c < 0x20) {
			fprintf(f, "\\u%04x", c);
		} else {
			fputc(c, f);
		}
	}
	fputc('"', f);
}

/* The help of row i: its usage, or the usage of the row before it that has one. */
static const char *row_help(const struct dgr_opt_table *t, size_t i)
{
	for (size_t j = i + 1; j-- > 0;) {
		if (t->opts[j].usage) {
			return t->opts[j].usage;
		}
	}
	return NULL;
}

static void json_subcommands(const struct dgr_opt_table *t, unsigned int mask, FILE *f)
{
	bool first = true;

	fputc('[', f);
	for (size_t s = 0; s < t->nsubcommands; s++) {
		if (mask == 0 || ((mask >> s) & 1u)) {
			fprintf(f, "%s", first ? "" : ", ");
			json_string(f, t->subcommands[s], false);
			first = false;
		}
	}
	fputc(']', f);
}

static void json_option(const struct dgr_opt_table *t, size_t i, FILE *f)
{
	const struct dgr_opt *o = &t->opts[i];

	fputs("{\"name\": ", f);
	json_string(f, o->name, false);
	fputs(", \"aliases\": [", f);
	for (size_t a = 0; a < 3 && o->aliases[a]; a++) {
		fprintf(f, "%s", a ? ", " : "");
		json_string(f, o->aliases[a], false);
	}
	fputs("], \"short\": ", f);
	if (o->short_name) {
		fprintf(f, "\"%c\"", o->short_name);
	} else {
		fputs("null", f);
	}
	fprintf(f, ", \"type\": \"%s\", \"metavar\": ", type_names[o->type]);
	json_string(f, o->metavar, false);
	switch (o->type) {
	case DGR_OPT_COUNT:
	case DGR_OPT_SIZE:
		fprintf(f, ", \"min\": %" PRIu64 ", \"max\": %" PRIu64, o->min, o->max);
		break;
	case DGR_OPT_SECONDS:
		fprintf(f, ", \"min\": 0, \"max\": %.17g", o->hi);
		break;
	case DGR_OPT_DECIMAL:
	case DGR_OPT_RATE:
		fprintf(f, ", \"min\": %.17g, \"max\": %.17g", o->lo, o->hi);
		break;
	default:
		fputs(", \"min\": null, \"max\": null", f);
		break;
	}
	fputs(", \"values\": ", f);
	if (o->values) {
		const char *p = o->values;

		fputc('[', f);
		while (*p) {
			size_t n = strcspn(p, "|");

			fprintf(f, "\"%.*s\"%s", (int)n, p, p[n] ? ", " : "");
			p += n + (p[n] ? 1 : 0);
		}
		fputc(']', f);
	} else {
		fputs("null", f);
	}
	fputs(", \"subcommands\": ", f);
	json_subcommands(t, o->subcommands, f);
	fputs(", \"help\": ", f);
	json_string(f, row_help(t, i), true);
	fputc('}', f);
}

static void text_line(const struct dgr_opt_table *t, const struct dgr_opt *o, const char *name,
		      FILE *f)
{
	bool first = true;

	fprintf(f, "--%s\t%s\t", name, type_names[o->type]);
	if (o->subcommands == 0) {
		fputc('-', f);
	}
	for (size_t s = 0; s < t->nsubcommands; s++) {
		if (o->subcommands && ((o->subcommands >> s) & 1u)) {
			fprintf(f, "%s%s", first ? "" : ",", t->subcommands[s]);
			first = false;
		}
	}
	fprintf(f, "\t%s\n", o->values ? o->values : "-");
}

/* See opts.h. */
void dgr_opts_list(const struct dgr_opt_table *t, bool json, FILE *f)
{
	bool first = true;

	if (!json) {
		for (size_t i = 0; i < t->nopts; i++) {
			const struct dgr_opt *o = &t->opts[i];

			if (!o->name) {
				continue;
			}
			text_line(t, o, o->name, f);
			for (size_t a = 0; a < 3 && o->aliases[a]; a++) {
				text_line(t, o, o->aliases[a], f);
			}
		}
		return;
	}
	fputs("{\"tool\": ", f);
	json_string(f, t->tool, false);
	fputs(", \"subcommands\": ", f);
	json_subcommands(t, 0, f);
	fputs(", \"options\": [", f);
	for (size_t i = 0; i < t->nopts; i++) {
		if (!t->opts[i].name) {
			continue;
		}
		fputs(first ? "\n  " : ",\n  ", f);
		json_option(t, i, f);
		first = false;
	}
	fputs("\n]}\n", f);
}

/* s in roff: '-' as \\- (a minus, so that man pages can be searched and copied), '\\' as \\e. */
static void roff_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '-') {
			fputs("\\-", f);
		} else if (*s == '\\') {
			fputs("\\e", f);
		} else {
			fputc(*s, f);
		}
	}
}

/*
 * A row's --help lines as a man paragraph, for a row without its own: each line without its
 * indent (the option's names included), a line that roff would take as a request escaped.
 */
static void man_from_help(FILE *f, const char *usage)
{
	const char *p = usage;

	while (p && *p) {
		size_t n = strcspn(p, "\n");
		size_t indent = strspn(p, " ");

		if (indent < n) {
			fprintf(f, "%s%.*s\n", p[indent] == '.' || p[indent] == '\'' ? "\\&" : "",
				(int)(n - indent), p + indent);
		}
		p += n + (p[n] ? 1 : 0);
	}
}

/*
 * The ".TP" term of o: its names (the short one, the long one, the aliases) in bold, each
 * with its metavar in italic (.BI alternates the two).
 */
static void man_term(FILE *f, const struct dgr_opt *o)
{
	const char *names[5];
	char dashed[4][64];
	bool flag = o->type == DGR_OPT_FLAG || !o->metavar;
	size_t n = 0;

	if (o->short_name) {
		snprintf(dashed[n], sizeof(dashed[n]), "-%c", o->short_name);
		names[n] = dashed[n];
		n++;
	}
	snprintf(dashed[n], sizeof(dashed[n]), "--%s", o->name);
	names[n] = dashed[n];
	n++;
	for (size_t a = 0; a < 3 && o->aliases[a] && n < 4; a++) {
		snprintf(dashed[n], sizeof(dashed[n]), "--%s", o->aliases[a]);
		names[n] = dashed[n];
		n++;
	}
	/* an argument with a space is quoted: "\-h, \-\-help", " N" */
	fputs(flag ? (n > 1 ? ".B \"" : ".B ") : ".BI", f);
	for (size_t k = 0; k < n; k++) {
		if (flag) {
			fputs(k ? ", " : "", f);
			roff_text(f, names[k]);
			continue;
		}
		fputs(k ? " \", " : " ", f);
		roff_text(f, names[k]);
		fputs(k ? "\" \" " : " \" ", f);
		roff_text(f, o->metavar);
		fputc('"', f);
	}
	fputs(flag && n > 1 ? "\"\n" : "\n", f);
}

/* See opts.h. */
void dgr_opts_man(const struct dgr_opt_table *t, FILE *f)
{
	bool with_next = false; /* the term before stands over the paragraph to come */

	fputs(".SH OPTIONS\n", f);
	for (size_t i = 0; i < t->nopts; i++) {
		const struct dgr_opt *o = &t->opts[i];

		if (!o->name) {
			/* a heading (.SS) or a note (.PP) between options, as the row says */
			if (o->man) {
				fputs(o->man, f);
			}
			continue;
		}
		fputs(with_next ? ".TQ\n" : ".TP\n", f);
		man_term(f, o);
		with_next = o->man && o->man[0] == '\0'; /* DGR_OPT_MAN_WITH_NEXT */
		if (o->man) {
			fputs(o->man, f);
		} else {
			man_from_help(f, o->usage ? o->usage : row_help(t, i));
		}
	}
	if (t->man_tail) {
		fputs(t->man_tail, f);
	}
}

/* See opts.h. */
void dgr_opts_list_argv(const struct dgr_opt_table *t, int argc, char **argv, FILE *f)
{
	if (dgr_opts_argv_has(argc, argv, "--man")) {
		dgr_opts_man(t, f);
	} else {
		dgr_opts_list(t, dgr_opts_argv_has(argc, argv, "--json"), f);
	}
}

/* See opts.h. */
bool dgr_opts_argv_has(int argc, char **argv, const char *word)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], word) == 0) {
			return true;
		}
	}
	return false;
}
