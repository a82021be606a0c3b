/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One print layer for latency-report: the same calls produce the readable
 * text report or the --json document (as iproute2 does). A key is the JSON
 * name; a label is the text name (NULL: use the key). Objects nest; arrays
 * hold objects or numbers.
 */
#ifndef DGR_ANALYSIS_PRINT_H
#define DGR_ANALYSIS_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <dgrdma/cli.h> /* dgr_format_duration, for the callers of this layer */

#define PR_MAX_DEPTH 16

struct pr {
	FILE *fp;
	bool json;
	bool oneline; /* JSON on one line (JSON Lines: latency-report --live --json) */
	int depth;
	bool need_comma[PR_MAX_DEPTH];
	bool in_array[PR_MAX_DEPTH];
};

void pr_init(struct pr *p, FILE *fp, bool json);
/* The same for one JSON object on one line. */
void pr_init_line(struct pr *p, FILE *fp);
/* Closes the top-level object (JSON) and ends the output with a newline. */
void pr_finish(struct pr *p);

void pr_obj_open(struct pr *p, const char *key, const char *title);
void pr_obj_close(struct pr *p);
void pr_arr_open(struct pr *p, const char *key, const char *title);
void pr_arr_close(struct pr *p);

void pr_u64(struct pr *p, const char *key, const char *label, uint64_t v);
void pr_i64(struct pr *p, const char *key, const char *label, int64_t v);
/* A number; decimals is the precision of both outputs. */
void pr_f64(struct pr *p, const char *key, const char *label, double v, int decimals);
/* A duration in ns: an integer in JSON, "12.345 us" in text. */
void pr_ns(struct pr *p, const char *key, const char *label, uint64_t ns);
/* A mean duration in ns: a number with one decimal in JSON, "12.345 us" in text. */
void pr_ns_mean(struct pr *p, const char *key, const char *label, double ns);
/* A signed duration in ns: an integer in JSON, "-1.296 ms" in text. */
void pr_ns_signed(struct pr *p, const char *key, const char *label, int64_t ns);
void pr_str(struct pr *p, const char *key, const char *label, const char *s);
void pr_bool(struct pr *p, const char *key, const char *label, bool v);
/* Text only: a free line at the current indent (nothing in JSON). */
void pr_text(struct pr *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
