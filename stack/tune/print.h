/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one print layer of dgrdma-tune (after iproute2's json_print): each call
 * names a JSON key and a text format; PR_ANY prints in both modes, PR_JSON
 * only in JSON, PR_TEXT only in text. Text and --json come from the same code.
 */
#ifndef DGR_TUNE_PRINT_H
#define DGR_TUNE_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum pr_kind { PR_ANY, PR_JSON, PR_TEXT };

struct pr {
	FILE *out;
	bool json;
	int depth;
	bool need_comma[16];
};

void pr_init(struct pr *p, FILE *out, bool json);
/* Opens an object (key NULL inside arrays or at the top) / array; JSON only. */
void pr_open_obj(struct pr *p, const char *key);
void pr_close_obj(struct pr *p);
void pr_open_arr(struct pr *p, const char *key);
void pr_close_arr(struct pr *p);
/* A string; NULL or "" is null in JSON and skipped in text. fmt has one %s. */
void pr_string(struct pr *p, enum pr_kind kind, const char *key, const char *fmt,
	       const char *value);
void pr_uint(struct pr *p, enum pr_kind kind, const char *key, const char *fmt, uint64_t value);
void pr_bool(struct pr *p, enum pr_kind kind, const char *key, const char *fmt, bool value);
/* Text only, printf-like. */
void pr_text(struct pr *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Ends the document (newline after the top JSON object). */
void pr_end(struct pr *p);

#endif /* DGR_TUNE_PRINT_H */
