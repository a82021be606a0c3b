/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One print layer for text and JSON (as iproute2 does): the tools describe
 * their output once, as nested objects of named values, and the layer
 * writes either indented "name: value" lines or a JSON document.
 */
#ifndef DGR_TOOLS_PRINT_H
#define DGR_TOOLS_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define PR_MAX_DEPTH 8

struct pr {
	FILE *f;
	bool json;
	int depth;
	bool first[PR_MAX_DEPTH];
	bool is_array[PR_MAX_DEPTH];
	bool is_line[PR_MAX_DEPTH]; /* text: the object's members on one line */
};

/* Starts a document on f (the outermost object). */
void pr_begin(struct pr *p, FILE *f, bool json);
/* Ends the document (closes the outermost object, newline). */
void pr_end(struct pr *p);

/* Nested object / array under key (key NULL inside an array). */
void pr_obj_begin(struct pr *p, const char *key);
void pr_obj_end(struct pr *p);
void pr_arr_begin(struct pr *p, const char *key);
void pr_arr_end(struct pr *p);
/*
 * A nested object whose members the text output writes on one line
 * ("- address: A  id: N"), e.g. one line per element of a list; JSON: an
 * object like any other. Holds values only (no nested objects).
 */
void pr_line_begin(struct pr *p, const char *key);
void pr_line_end(struct pr *p);

void pr_u64(struct pr *p, const char *key, uint64_t v);
void pr_i64(struct pr *p, const char *key, int64_t v);
/* Doubles print with that many decimals in text and %.9g in JSON (non-finite: null). */
void pr_dbl(struct pr *p, const char *key, double v, int decimals);
/*
 * Durations in ns: JSON keeps the number (an integer; a mean as pr_dbl), the
 * text gives it a unit for reading ("20.590 us").
 */
void pr_ns(struct pr *p, const char *key, uint64_t ns);
void pr_ns_signed(struct pr *p, const char *key, int64_t ns);
void pr_ns_mean(struct pr *p, const char *key, double ns);
void pr_str(struct pr *p, const char *key, const char *v);
void pr_bool(struct pr *p, const char *key, bool v);

#endif
