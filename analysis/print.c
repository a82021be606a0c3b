// SPDX-License-Identifier: GPL-2.0-or-later
/* The text/JSON print layer of latency-report (see print.h). */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "print.h"

void pr_init(struct pr *p, FILE *fp, bool json)
{
	memset(p, 0, sizeof(*p));
	p->fp = fp;
	p->json = json;
	if (json) {
		fputc('{', fp);
	}
	p->depth = 1;
}

void pr_init_line(struct pr *p, FILE *fp)
{
	pr_init(p, fp, true);
	p->oneline = true;
}

void pr_finish(struct pr *p)
{
	if (p->json) {
		fputs(p->oneline ? "}\n" : "\n}\n", p->fp);
	}
}

static void indent(const struct pr *p)
{
	int i;

	for (i = 1; i < p->depth; i++) {
		fputs(p->json ? "  " : "  ", p->fp);
	}
}

static void json_string(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			fputc('\\', fp);
			fputc(c, fp);
		} else if (c < 0x20) {
			fprintf(fp, "\\u%04x", c);
		} else {
			fputc(c, fp);
		}
	}
	fputc('"', fp);
}

/* Starts a JSON member or array element: comma, newline, indent, key. */
static void json_key(struct pr *p, const char *key)
{
	if (p->need_comma[p->depth]) {
		fputc(',', p->fp);
	}
	p->need_comma[p->depth] = true;
	if (!p->oneline) {
		fputc('\n', p->fp);
		fputs("  ", p->fp);
		indent(p);
	}
	if (!p->in_array[p->depth] && key) {
		json_string(p->fp, key);
		fputs(": ", p->fp);
	}
}

static void text_label(struct pr *p, const char *key, const char *label)
{
	indent(p);
	fprintf(p->fp, "%s: ", label ? label : key);
}

static void push(struct pr *p, bool array)
{
	if (p->depth + 1 < PR_MAX_DEPTH) {
		p->depth++;
	}
	p->need_comma[p->depth] = false;
	p->in_array[p->depth] = array;
}

void pr_obj_open(struct pr *p, const char *key, const char *title)
{
	if (p->json) {
		json_key(p, key);
		fputc('{', p->fp);
	} else if (title) {
		indent(p);
		fprintf(p->fp, "%s\n", title);
	}
	push(p, false);
}

void pr_obj_close(struct pr *p)
{
	if (p->json && !p->oneline) {
		fputc('\n', p->fp);
		p->depth--;
		fputs("  ", p->fp);
		indent(p);
		p->depth++;
	}
	if (p->json) {
		fputc('}', p->fp);
	}
	p->depth--;
}

void pr_arr_open(struct pr *p, const char *key, const char *title)
{
	if (p->json) {
		json_key(p, key);
		fputc('[', p->fp);
	} else if (title) {
		indent(p);
		fprintf(p->fp, "%s\n", title);
	}
	push(p, true);
}

void pr_arr_close(struct pr *p)
{
	if (p->json) {
		fputc(']', p->fp);
	}
	p->depth--;
}

void pr_u64(struct pr *p, const char *key, const char *label, uint64_t v)
{
	if (p->json) {
		json_key(p, key);
		fprintf(p->fp, "%" PRIu64, v);
		return;
	}
	text_label(p, key, label);
	fprintf(p->fp, "%" PRIu64 "\n", v);
}

void pr_i64(struct pr *p, const char *key, const char *label, int64_t v)
{
	if (p->json) {
		json_key(p, key);
		fprintf(p->fp, "%" PRId64, v);
		return;
	}
	text_label(p, key, label);
	fprintf(p->fp, "%" PRId64 "\n", v);
}

void pr_f64(struct pr *p, const char *key, const char *label, double v, int decimals)
{
	if (p->json) {
		json_key(p, key);
		if (isfinite(v)) {
			fprintf(p->fp, "%.*f", decimals, v);
		} else {
			fputs("null", p->fp);
		}
		return;
	}
	text_label(p, key, label);
	fprintf(p->fp, "%.*f\n", decimals, v);
}

void pr_ns(struct pr *p, const char *key, const char *label, uint64_t ns)
{
	char buf[64];

	if (p->json) {
		json_key(p, key);
		fprintf(p->fp, "%" PRIu64, ns);
		return;
	}
	dgr_format_duration(buf, sizeof(buf), (double)ns);
	text_label(p, key, label);
	fprintf(p->fp, "%s\n", buf);
}

void pr_ns_mean(struct pr *p, const char *key, const char *label, double ns)
{
	char buf[64];

	if (p->json) {
		json_key(p, key);
		fprintf(p->fp, "%.1f", ns);
		return;
	}
	dgr_format_duration(buf, sizeof(buf), ns > 0 ? (double)(uint64_t)(ns + 0.5) : 0.0);
	text_label(p, key, label);
	fprintf(p->fp, "%s\n", buf);
}

void pr_ns_signed(struct pr *p, const char *key, const char *label, int64_t ns)
{
	char buf[64];

	if (p->json) {
		json_key(p, key);
		fprintf(p->fp, "%" PRId64, ns);
		return;
	}
	dgr_format_duration(buf, sizeof(buf), (double)ns);
	text_label(p, key, label);
	fprintf(p->fp, "%s\n", buf);
}

void pr_str(struct pr *p, const char *key, const char *label, const char *s)
{
	if (p->json) {
		json_key(p, key);
		json_string(p->fp, s);
		return;
	}
	text_label(p, key, label);
	fprintf(p->fp, "%s\n", s);
}

void pr_bool(struct pr *p, const char *key, const char *label, bool v)
{
	if (p->json) {
		json_key(p, key);
		fputs(v ? "true" : "false", p->fp);
		return;
	}
	text_label(p, key, label);
	fputs(v ? "yes\n" : "no\n", p->fp);
}

void pr_text(struct pr *p, const char *fmt, ...)
{
	va_list ap;

	if (p->json) {
		return;
	}
	indent(p);
	va_start(ap, fmt);
	vfprintf(p->fp, fmt, ap);
	va_end(ap);
	fputc('\n', p->fp);
}
