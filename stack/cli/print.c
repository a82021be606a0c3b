// SPDX-License-Identifier: GPL-2.0-or-later
/* Text and JSON from the same calls (print.h). */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "cli.h"
#include "print.h"

static bool is_json(const struct dgr_pr *p)
{
	return (p->flags & DGR_PR_JSON) != 0;
}

static bool has(const struct dgr_pr *p, enum dgr_pr_flags flag)
{
	return (p->flags & flag) != 0;
}

/* Whether this call writes anything: text of a free-form tool comes from dgr_pr_text only. */
static bool silent(const struct dgr_pr *p)
{
	return !is_json(p) && has(p, DGR_PR_TEXT_FREE);
}

static void spaces(const struct dgr_pr *p, int levels)
{
	for (int i = 0; i < levels; i++) {
		fputs("  ", p->f);
	}
}

/* Text: the indent of the current level (the outermost object has none). */
static void indent(const struct dgr_pr *p)
{
	spaces(p, p->depth - 1);
}

/* The one JSON escaper: quotes, backslashes and control characters. */
static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\') {
			fprintf(f, "\\%c", *c);
		} else if (*c == '\n') {
			fputs("\\n", f);
		} else if (*c == '\t') {
			fputs("\\t", f);
		} else if (*c < 0x20) {
			fprintf(f, "\\u%04x", *c);
		} else {
			fputc(*c, f);
		}
	}
	fputc('"', f);
}

/* JSON: the separator and key of the next member (no key inside an array). */
static void json_member(struct dgr_pr *p, const char *key)
{
	bool pretty = has(p, DGR_PR_JSON_PRETTY);

	if (!p->first[p->depth]) {
		fputc(',', p->f);
	}
	p->first[p->depth] = false;
	if (pretty) {
		fputc('\n', p->f);
		spaces(p, p->depth);
	}
	if (key && !p->is_array[p->depth]) {
		json_string(p->f, key);
		fputs(pretty ? ": " : ":", p->f);
	}
}

/*
 * Text: the heading of a level, its title or (TEXT_KEYS) its key line, at its parent's
 * indent; after: what follows a key line ("" or " none").
 */
static void write_heading(struct dgr_pr *p, int level, const char *after)
{
	const struct dgr_pr_heading *h = &p->heading[level];

	spaces(p, level - 2);
	if (h->is_title) {
		fprintf(p->f, "%s\n", h->text);
	} else if (h->text) {
		fprintf(p->f, "%s:%s\n", h->text, after);
	} else {
		fprintf(p->f, "-%s\n", after);
	}
}

/*
 * Text: writes the headings of the levels that held nothing so far, the outermost first,
 * before the first thing they hold.
 */
static void write_pending_headings(struct dgr_pr *p)
{
	for (int level = 2; level <= p->depth; level++) {
		if (p->heading[level].pending) {
			p->heading[level].pending = false;
			write_heading(p, level, "");
		}
	}
}

/* Text: the name of the next value ("label: ", "- " when it has none). */
static void text_member(struct dgr_pr *p, const char *key, const char *label)
{
	const char *name = label ? label : key;

	write_pending_headings(p);

	if (p->is_line[p->depth]) {
		if (!p->first[p->depth]) {
			fputs("  ", p->f);
		}
		p->first[p->depth] = false;
		fprintf(p->f, "%s: ", name ? name : "-");
		return;
	}
	indent(p);
	if (name) {
		fprintf(p->f, "%s: ", name);
	} else {
		fputs("- ", p->f);
	}
}

/* Starts a value; returns false when this document does not print it. */
static bool value_begin(struct dgr_pr *p, const char *key, const char *label)
{
	if (silent(p)) {
		return false;
	}
	if (is_json(p)) {
		json_member(p, key);
	} else {
		text_member(p, key, label);
	}
	return true;
}

/* Ends a value: text ends the line unless the object is printed on one line. */
static void value_end(struct dgr_pr *p)
{
	if (!is_json(p) && !p->is_line[p->depth]) {
		fputc('\n', p->f);
	}
}

static void push(struct dgr_pr *p, bool array, bool line)
{
	if (p->depth + 1 < DGR_PR_MAX_DEPTH) {
		p->depth++;
	}
	p->first[p->depth] = true;
	p->is_array[p->depth] = array;
	p->is_line[p->depth] = line;
}

static void pop(struct dgr_pr *p)
{
	if (p->depth > 1) {
		p->depth--;
	}
}

/* See print.h. */
void dgr_pr_begin(struct dgr_pr *p, FILE *f, unsigned int flags)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->flags = flags;
	if (is_json(p)) {
		fputc('{', f);
	}
	p->depth = 0;
	push(p, false, false);
}

/* See print.h. */
int dgr_pr_end(struct dgr_pr *p)
{
	if (is_json(p)) {
		fputs(has(p, DGR_PR_JSON_PRETTY) ? "\n}\n" : "}\n", p->f);
	}
	p->depth = 0;
	return fflush(p->f) == 0 ? 0 : -DGR_E_SYS;
}

/* See print.h. */
bool dgr_pr_is_json(const struct dgr_pr *p)
{
	return is_json(p);
}

static void open_nested(struct dgr_pr *p, const char *key, const char *title, bool array)
{
	if (silent(p)) {
		return;
	}
	if (is_json(p)) {
		json_member(p, key);
		fputc(array ? '[' : '{', p->f);
	}
	push(p, array, false);
	/* text: the heading waits for the first thing the level holds */
	if (!is_json(p) && (title || has(p, DGR_PR_TEXT_KEYS))) {
		p->heading[p->depth] = (struct dgr_pr_heading){ .pending = true,
								.is_title = title != NULL,
								.text = title ? title : key };
	}
}

static void close_nested(struct dgr_pr *p, bool array)
{
	if (silent(p)) {
		return;
	}
	if (p->heading[p->depth].pending) {
		/* it held nothing: no title over nothing; a key line says so, under its parents' */
		p->heading[p->depth].pending = false;
		if (!p->heading[p->depth].is_title) {
			write_pending_headings(p);
			write_heading(p, p->depth, " none");
		}
	}
	if (is_json(p)) {
		/* pretty: an object's closing brace on its own line; an array's after its last
		 * element */
		if (has(p, DGR_PR_JSON_PRETTY) && !array) {
			fputc('\n', p->f);
			spaces(p, p->depth - 1);
		}
		fputc(array ? ']' : '}', p->f);
	}
	pop(p);
}

/* See print.h. */
void dgr_pr_obj_begin(struct dgr_pr *p, const char *key, const char *title)
{
	open_nested(p, key, title, false);
}

/* See print.h. */
void dgr_pr_obj_end(struct dgr_pr *p)
{
	close_nested(p, false);
}

/* See print.h. */
void dgr_pr_arr_begin(struct dgr_pr *p, const char *key, const char *title)
{
	open_nested(p, key, title, true);
}

/* See print.h. */
void dgr_pr_arr_end(struct dgr_pr *p)
{
	close_nested(p, true);
}

/* See print.h. */
void dgr_pr_line_begin(struct dgr_pr *p, const char *key)
{
	if (silent(p)) {
		return;
	}
	if (is_json(p)) {
		json_member(p, key);
		fputc('{', p->f);
	} else {
		write_pending_headings(p);
		indent(p);
		if (!key) {
			fputs("- ", p->f);
		} else if (has(p, DGR_PR_TEXT_KEYS)) {
			fprintf(p->f, "%s: ", key);
		}
	}
	push(p, false, true);
}

/* See print.h. */
void dgr_pr_line_end(struct dgr_pr *p)
{
	if (silent(p)) {
		return;
	}
	if (!is_json(p)) {
		fputc('\n', p->f);
	}
	close_nested(p, false);
}

/* See print.h. */
void dgr_pr_u64(struct dgr_pr *p, const char *key, const char *label, uint64_t v)
{
	if (value_begin(p, key, label)) {
		fprintf(p->f, "%" PRIu64, v);
		value_end(p);
	}
}

/* See print.h. */
void dgr_pr_i64(struct dgr_pr *p, const char *key, const char *label, int64_t v)
{
	if (value_begin(p, key, label)) {
		fprintf(p->f, "%" PRId64, v);
		value_end(p);
	}
}

/* See print.h. */
void dgr_pr_dbl(struct dgr_pr *p, const char *key, const char *label, double v, int decimals)
{
	if (!value_begin(p, key, label)) {
		return;
	}
	if (!is_json(p)) {
		fprintf(p->f, "%.*f", decimals, v);
	} else if (!isfinite(v)) {
		fputs("null", p->f);
	} else if (has(p, DGR_PR_FIXED_POINT)) {
		fprintf(p->f, "%.*f", decimals, v);
	} else {
		fprintf(p->f, "%.9g", v);
	}
	value_end(p);
}

/* Text: a value that is a duration, with its unit. */
static void text_duration(struct dgr_pr *p, const char *key, const char *label, double ns)
{
	char buf[64];

	dgr_format_duration(buf, sizeof(buf), ns);
	dgr_pr_str(p, key, label, buf);
}

/* See print.h. */
void dgr_pr_ns(struct dgr_pr *p, const char *key, const char *label, uint64_t ns)
{
	if (is_json(p)) {
		dgr_pr_u64(p, key, label, ns);
	} else {
		text_duration(p, key, label, (double)ns);
	}
}

/* See print.h. */
void dgr_pr_ns_signed(struct dgr_pr *p, const char *key, const char *label, int64_t ns)
{
	if (is_json(p)) {
		dgr_pr_i64(p, key, label, ns);
	} else {
		text_duration(p, key, label, (double)ns);
	}
}

/* See print.h. */
void dgr_pr_ns_mean(struct dgr_pr *p, const char *key, const char *label, double ns)
{
	bool fixed = has(p, DGR_PR_FIXED_POINT);

	if (is_json(p) && isfinite(ns)) {
		/* to 0.1 ns whatever its size: nine significant digits (%.9g) rounded a mean of
		 * a second to 10 ns, and sums of means no longer added up */
		if (value_begin(p, key, label)) {
			fprintf(p->f, "%.1f", ns);
			value_end(p);
		}
	} else if (is_json(p)) {
		dgr_pr_dbl(p, key, label, ns, 0);
	} else if (fixed) {
		text_duration(p, key, label, ns > 0 ? (double)(uint64_t)(ns + 0.5) : 0.0);
	} else {
		text_duration(p, key, label, ns);
	}
}

/* See print.h. */
void dgr_pr_str(struct dgr_pr *p, const char *key, const char *label, const char *v)
{
	if (!value_begin(p, key, label)) {
		return;
	}
	if (!is_json(p)) {
		fputs(v, p->f);
	} else if (has(p, DGR_PR_EMPTY_NULL) && (!v || !v[0])) {
		fputs("null", p->f);
	} else {
		json_string(p->f, v);
	}
	value_end(p);
}

/* See print.h. */
void dgr_pr_bool(struct dgr_pr *p, const char *key, const char *label, bool v)
{
	if (!value_begin(p, key, label)) {
		return;
	}
	if (!is_json(p) && has(p, DGR_PR_YES_NO)) {
		fputs(v ? "yes" : "no", p->f);
	} else {
		fputs(v ? "true" : "false", p->f);
	}
	value_end(p);
}

/* See print.h. */
void dgr_pr_text(struct dgr_pr *p, const char *fmt, ...)
{
	va_list ap;

	if (is_json(p)) {
		return;
	}
	write_pending_headings(p);
	va_start(ap, fmt);
	vfprintf(p->f, fmt, ap);
	va_end(ap);
}

/* See print.h. */
void dgr_pr_text_line(struct dgr_pr *p, const char *fmt, ...)
{
	va_list ap;

	if (is_json(p)) {
		return;
	}
	write_pending_headings(p);
	indent(p);
	va_start(ap, fmt);
	vfprintf(p->f, fmt, ap);
	va_end(ap);
	fputc('\n', p->f);
}
