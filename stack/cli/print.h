/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one print layer of every tool (after iproute2's json_print): the same
 * calls write the readable text or the --json document. A tool describes its
 * output once, as nested objects and arrays of named values.
 *
 * A value has a key (its JSON name) and a label (its text name; NULL: the
 * key). In text a value is a line "label: value" indented two spaces a level
 * (an unnamed one, in an array, "- value"); an object or array prints its
 * title, if it has one, over the first thing it holds, and indents what it
 * holds.
 *
 * The tools wrote their output in slightly different dialects before this
 * layer existed; the flags below keep each one.
 */
#ifndef DGRDMA_PRINT_H
#define DGRDMA_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DGR_PR_MAX_DEPTH 16

enum dgr_pr_flags {
	/* JSON instead of text. */
	DGR_PR_JSON = 1u << 0,
	/* JSON: one member a line, two spaces a level, "key": value (latency-report, dgrdma-fpga).
	 */
	DGR_PR_JSON_PRETTY = 1u << 1,
	/*
	 * Text: an object or array without a title is introduced by its key, a
	 * "key:" line (an element of an array: "-"), as dgrdma-host and dgrdma-ctl print;
	 * the line is written with the first thing it holds, and one that holds
	 * nothing is the line "key: none".
	 */
	DGR_PR_TEXT_KEYS = 1u << 2,
	/*
	 * Text comes only from dgr_pr_text(): objects and values are JSON only, for
	 * tools whose text is free-form (dgrdma-tune, dgrdma-fpga's property dump).
	 */
	DGR_PR_TEXT_FREE = 1u << 3,
	/* Text: booleans are "yes" and "no" (else "true" and "false"). */
	DGR_PR_YES_NO = 1u << 4,
	/*
	 * Numbers in fixed point (latency-report): JSON writes a double with the
	 * decimals the text uses (else %.9g) and a mean duration with one decimal;
	 * the text rounds a mean duration to the nanosecond.
	 */
	DGR_PR_FIXED_POINT = 1u << 5,
	/* JSON: an empty string is null (dgrdma-tune: a setting it could not read). */
	DGR_PR_EMPTY_NULL = 1u << 6,
};

struct dgr_pr {
	FILE *f;
	unsigned int flags;
	int depth;
	bool first[DGR_PR_MAX_DEPTH];
	bool is_array[DGR_PR_MAX_DEPTH];
	bool is_line[DGR_PR_MAX_DEPTH];
	/* text: each level's heading, written with the first thing the level holds */
	struct dgr_pr_heading {
		bool pending;	  /* not written yet */
		bool is_title;	  /* the title; else the TEXT_KEYS key line */
		const char *text; /* the title, or the key (NULL: an array's element, "-") */
	} heading[DGR_PR_MAX_DEPTH];
};

/* Starts a document on f (JSON: opens the outermost object); flags: enum dgr_pr_flags. */
void dgr_pr_begin(struct dgr_pr *p, FILE *f, unsigned int flags);
/*
 * Ends the document (JSON: closes the outermost object and ends the line) and
 * flushes f. Returns 0, or -DGR_E_SYS with errno set when the flush failed.
 */
int dgr_pr_end(struct dgr_pr *p);
/* Returns true when the document is JSON, for output that exists in one form only. */
bool dgr_pr_is_json(const struct dgr_pr *p);

/*
 * A nested object or array under key (NULL inside an array); title: its text heading or NULL.
 * The text writes the heading with the first thing the object holds, so that one which holds
 * nothing in text has no title over nothing (TEXT_KEYS: its key line reads "key: none"); key
 * and title must last until then.
 */
void dgr_pr_obj_begin(struct dgr_pr *p, const char *key, const char *title);
void dgr_pr_obj_end(struct dgr_pr *p);
void dgr_pr_arr_begin(struct dgr_pr *p, const char *key, const char *title);
void dgr_pr_arr_end(struct dgr_pr *p);
/*
 * An object whose members the text writes on one line ("address: A  id: N"),
 * e.g. one line per element of a list; JSON: an object like any other. Holds
 * values only.
 */
void dgr_pr_line_begin(struct dgr_pr *p, const char *key);
void dgr_pr_line_end(struct dgr_pr *p);

void dgr_pr_u64(struct dgr_pr *p, const char *key, const char *label, uint64_t v);
void dgr_pr_i64(struct dgr_pr *p, const char *key, const char *label, int64_t v);
/* A double with that many decimals in text (JSON: see DGR_PR_FIXED_POINT; not finite: null). */
void dgr_pr_dbl(struct dgr_pr *p, const char *key, const char *label, double v, int decimals);
/*
 * Durations in ns: JSON keeps the number (an integer; a mean as a double), the
 * text gives it a unit for reading ("20.590 us", dgr_format_duration()).
 */
void dgr_pr_ns(struct dgr_pr *p, const char *key, const char *label, uint64_t ns);
void dgr_pr_ns_signed(struct dgr_pr *p, const char *key, const char *label, int64_t ns);
void dgr_pr_ns_mean(struct dgr_pr *p, const char *key, const char *label, double ns);
/* A string, JSON-escaped in JSON. */
void dgr_pr_str(struct dgr_pr *p, const char *key, const char *label, const char *v);
void dgr_pr_bool(struct dgr_pr *p, const char *key, const char *label, bool v);

/* Text only, printf-like, written as is (nothing in JSON). */
void dgr_pr_text(struct dgr_pr *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Text only: one line at the current indent (nothing in JSON). */
void dgr_pr_text_line(struct dgr_pr *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#ifdef __cplusplus
}
#endif

#endif /* DGRDMA_PRINT_H */
