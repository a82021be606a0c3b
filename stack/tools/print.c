/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text and JSON from the same calls (print.h). */
#include <inttypes.h>
#include <math.h>

#include <dgrdma/cli.h>

#include "print.h"

static void indent(struct pr *p)
{
	for (int i = 1; i < p->depth; i++) {
		fputs("  ", p->f);
	}
}

/* Writes the separator and key of the next member. */
static void member(struct pr *p, const char *key)
{
	if (p->json) {
		if (!p->first[p->depth]) {
			fputc(',', p->f);
		}
		p->first[p->depth] = false;
		if (key && !p->is_array[p->depth]) {
			fputc('"', p->f);
			for (const char *c = key; *c; c++) {
				if (*c == '"' || *c == '\\') {
					fputc('\\', p->f);
				}
				fputc(*c, p->f);
			}
			fputs("\":", p->f);
		}
		return;
	}
	if (p->is_line[p->depth]) {
		if (!p->first[p->depth]) {
			fputs("  ", p->f);
		}
		p->first[p->depth] = false;
		fprintf(p->f, "%s: ", key ? key : "-");
		return;
	}
	indent(p);
	if (key) {
		fprintf(p->f, "%s: ", key);
	} else {
		fputs("- ", p->f);
	}
}

/* Starts the document. */
void pr_begin(struct pr *p, FILE *f, bool json)
{
	p->f = f;
	p->json = json;
	p->depth = 0;
	p->first[0] = true;
	p->is_array[0] = false;
	if (json) {
		fputc('{', f);
	}
	p->depth = 1;
	p->first[1] = true;
	p->is_array[1] = false;
	p->is_line[0] = false;
	p->is_line[1] = false;
}

/* Ends the document. */
void pr_end(struct pr *p)
{
	if (p->json) {
		fputs("}\n", p->f);
	}
	fflush(p->f);
	p->depth = 0;
}

static void open_nested(struct pr *p, const char *key, bool array)
{
	member(p, key);
	if (p->json) {
		fputc(array ? '[' : '{', p->f);
	} else {
		fputc('\n', p->f);
	}
	if (p->depth + 1 < PR_MAX_DEPTH) {
		p->depth++;
	}
	p->first[p->depth] = true;
	p->is_array[p->depth] = array;
	p->is_line[p->depth] = false;
}

static void close_nested(struct pr *p, bool array)
{
	if (p->json) {
		fputc(array ? ']' : '}', p->f);
	}
	if (p->depth > 1) {
		p->depth--;
	}
}

/* Opens a nested object. */
void pr_obj_begin(struct pr *p, const char *key)
{
	open_nested(p, key, false);
}

/* Closes it. */
void pr_obj_end(struct pr *p)
{
	close_nested(p, false);
}

/* Opens an array. */
void pr_arr_begin(struct pr *p, const char *key)
{
	open_nested(p, key, true);
}

/* Closes it. */
void pr_arr_end(struct pr *p)
{
	close_nested(p, true);
}

/* Opens an object printed on one line in text. */
void pr_line_begin(struct pr *p, const char *key)
{
	member(p, key);
	if (p->json) {
		fputc('{', p->f);
	}
	if (p->depth + 1 < PR_MAX_DEPTH) {
		p->depth++;
	}
	p->first[p->depth] = true;
	p->is_array[p->depth] = false;
	p->is_line[p->depth] = true;
}

/* Closes it (text: ends the line). */
void pr_line_end(struct pr *p)
{
	if (!p->json) {
		fputc('\n', p->f);
	}
	close_nested(p, false);
}

static void end_line(struct pr *p)
{
	if (!p->json && !p->is_line[p->depth]) {
		fputc('\n', p->f);
	}
}

/* Prints an unsigned value. */
void pr_u64(struct pr *p, const char *key, uint64_t v)
{
	member(p, key);
	fprintf(p->f, "%" PRIu64, v);
	end_line(p);
}

/* Prints a signed value. */
void pr_i64(struct pr *p, const char *key, int64_t v)
{
	member(p, key);
	fprintf(p->f, "%" PRId64, v);
	end_line(p);
}

/* Text: a member whose value is a duration (dgr_format_duration). */
static void text_duration(struct pr *p, const char *key, double ns)
{
	char buf[64];

	dgr_format_duration(buf, sizeof(buf), ns);
	pr_str(p, key, buf);
}

/* Prints a duration in ns: an integer in JSON, with a unit in text. */
void pr_ns(struct pr *p, const char *key, uint64_t ns)
{
	if (p->json) {
		pr_u64(p, key, ns);
		return;
	}
	text_duration(p, key, (double)ns);
}

/* Prints a signed duration in ns (a margin): an integer in JSON, with a unit in text. */
void pr_ns_signed(struct pr *p, const char *key, int64_t ns)
{
	if (p->json) {
		pr_i64(p, key, ns);
		return;
	}
	text_duration(p, key, (double)ns);
}

/* Prints a mean duration in ns: %.9g in JSON (as pr_dbl), with a unit in text. */
void pr_ns_mean(struct pr *p, const char *key, double ns)
{
	if (p->json) {
		pr_dbl(p, key, ns, 0);
		return;
	}
	text_duration(p, key, ns);
}

/* Prints a double. */
void pr_dbl(struct pr *p, const char *key, double v, int decimals)
{
	member(p, key);
	if (p->json) {
		if (isfinite(v)) {
			fprintf(p->f, "%.9g", v);
		} else {
			fputs("null", p->f);
		}
	} else {
		fprintf(p->f, "%.*f", decimals, v);
	}
	end_line(p);
}

/* Prints a string (JSON-escaped). */
void pr_str(struct pr *p, const char *key, const char *v)
{
	member(p, key);
	if (!p->json) {
		fputs(v, p->f);
		end_line(p);
		return;
	}
	fputc('"', p->f);
	for (const unsigned char *c = (const unsigned char *)v; *c; c++) {
		if (*c == '"' || *c == '\\') {
			fprintf(p->f, "\\%c", *c);
		} else if (*c < 0x20) {
			fprintf(p->f, "\\u%04x", *c);
		} else {
			fputc(*c, p->f);
		}
	}
	fputc('"', p->f);
}

/* Prints a boolean. */
void pr_bool(struct pr *p, const char *key, bool v)
{
	member(p, key);
	fputs(v ? "true" : "false", p->f);
	end_line(p);
}
