// SPDX-License-Identifier: GPL-2.0-or-later
/* The print layer: JSON and text output from the same calls (see print.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "print.h"

/* Formats come from the callers, as in iproute2; each is a literal at the call site. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* Starts a document on out, JSON or text. */
void pr_init(struct pr *p, FILE *out, bool json)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->json = json;
}

static void json_escape(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c < 0x20) {
			fprintf(f, "\\u%04x", c);
		} else {
			fputc(c, f);
		}
	}
	fputc('"', f);
}

static void json_key(struct pr *p, const char *key)
{
	if (p->need_comma[p->depth]) {
		fputc(',', p->out);
	}
	p->need_comma[p->depth] = true;
	if (key) {
		json_escape(p->out, key);
		fputc(':', p->out);
	}
}

static void open_(struct pr *p, const char *key, char c)
{
	if (!p->json) {
		return;
	}
	json_key(p, key);
	fputc(c, p->out);
	if (p->depth < 15) {
		p->depth++;
	}
	p->need_comma[p->depth] = false;
}

static void close_(struct pr *p, char c)
{
	if (!p->json) {
		return;
	}
	fputc(c, p->out);
	if (p->depth > 0) {
		p->depth--;
	}
}

/* Opens a JSON object (key NULL inside arrays); nothing in text. */
void pr_open_obj(struct pr *p, const char *key)
{
	open_(p, key, '{');
}

/* Closes the current JSON object; nothing in text. */
void pr_close_obj(struct pr *p)
{
	close_(p, '}');
}

/* Opens a JSON array under key; nothing in text. */
void pr_open_arr(struct pr *p, const char *key)
{
	open_(p, key, '[');
}

/* Closes the current JSON array; nothing in text. */
void pr_close_arr(struct pr *p)
{
	close_(p, ']');
}

/* Prints a string: JSON key (null when empty), or fmt in text unless empty. */
void pr_string(struct pr *p, enum pr_kind kind, const char *key, const char *fmt, const char *value)
{
	if (p->json) {
		if (kind == PR_TEXT) {
			return;
		}
		json_key(p, key);
		if (value && value[0]) {
			json_escape(p->out, value);
		} else {
			fputs("null", p->out);
		}
		return;
	}
	if (kind == PR_JSON || !value || !value[0]) {
		return;
	}
	fprintf(p->out, fmt, value);
}

/* Prints an unsigned number as a JSON key or through fmt in text. */
void pr_uint(struct pr *p, enum pr_kind kind, const char *key, const char *fmt, uint64_t value)
{
	if (p->json) {
		if (kind != PR_TEXT) {
			json_key(p, key);
			fprintf(p->out, "%" PRIu64, value);
		}
		return;
	}
	if (kind != PR_JSON) {
		fprintf(p->out, fmt, value);
	}
}

/* Prints a boolean: JSON true/false, or fmt with "yes"/"no" in text. */
void pr_bool(struct pr *p, enum pr_kind kind, const char *key, const char *fmt, bool value)
{
	if (p->json) {
		if (kind != PR_TEXT) {
			json_key(p, key);
			fputs(value ? "true" : "false", p->out);
		}
		return;
	}
	if (kind != PR_JSON) {
		fprintf(p->out, fmt, value ? "yes" : "no");
	}
}

/* Prints printf-style text in text mode only. */
void pr_text(struct pr *p, const char *fmt, ...)
{
	va_list ap;

	if (p->json) {
		return;
	}
	va_start(ap, fmt);
	vfprintf(p->out, fmt, ap);
	va_end(ap);
}

/* Ends the document (a newline after JSON) and flushes. */
void pr_end(struct pr *p)
{
	if (p->json) {
		fputc('\n', p->out);
	}
	fflush(p->out);
}
