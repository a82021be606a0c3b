/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.json's fields, one table for its writer (run_writer.c, dgrdma-runinfo) and its
 * reader (run_info.c): every key dgrdma-capture records, its JSON type, its range and
 * whether it may be null (docs/run-json.md, "Every field"). The reader takes its
 * top-level, clocks and stream keys from it and checks every other field it holds;
 * the writer refuses a value the table does not accept, so neither can use a name
 * or a range the other does not know.
 */
#ifndef DGR_ANALYSIS_RUN_SCHEMA_H
#define DGR_ANALYSIS_RUN_SCHEMA_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* JSON types as bits, for the checks and their messages ("a string or null"). */
enum run_json_type {
	RUN_T_OBJECT = 1,
	RUN_T_ARRAY = 2,
	RUN_T_STRING = 4,
	RUN_T_INTEGER = 8,
	RUN_T_BOOL = 16,
	RUN_T_NULL = 32,
	RUN_T_REAL = 64,
};

enum run_field_type {
	RUN_F_STRING,	   /* a string (with choices: one of them) */
	RUN_F_WHOLE,	   /* a whole number in [min, max] */
	RUN_F_NUMBER,	   /* a number in [min, max] (with RUN_F_ABOVE_MIN: (min, max]) */
	RUN_F_BOOL,	   /* true or false */
	RUN_F_STRINGS,	   /* an array of strings */
	RUN_F_WHOLES,	   /* an array of whole numbers in [min, max] */
	RUN_F_CLOCK,	   /* dgrdma-clocks' pair: monotonic_sec, ..., realtime_iso8601 */
	RUN_F_OBJECT,	   /* an object of the table's fields KEY.NAME */
	RUN_F_MAP,	   /* an object of strings or nulls under any names (sysctls) */
	RUN_F_TOOL_OBJECT, /* a tool's own object (settings, losses): run_info.c checks it */
};

#define RUN_F_NULL	 0x01u /* null is a value */
#define RUN_F_EMPTY_NULL 0x02u /* a string field given "" is written null */
#define RUN_F_OMIT_NULL	 0x04u /* a field given null is left out (stream's facts) */
#define RUN_F_REQUIRED	 0x08u /* there whenever its object is written */
#define RUN_F_DERIVED	 0x10u /* computed by the writer, never given */
#define RUN_F_ABOVE_MIN	 0x20u /* a number strictly above min */

struct run_field {
	const char *key; /* its path: "trace.subbuf_size" */
	enum run_field_type type;
	unsigned int flags;
	double min, max;	    /* RUN_F_WHOLE, RUN_F_NUMBER, RUN_F_WHOLES */
	const char *const *choices; /* RUN_F_STRING: the accepted values, NULL-terminated */
};

/* Every field, parents before their children, in the order a run.json lists them. */
extern const struct run_field run_fields[];
extern const size_t run_field_count;

/* The largest count a JSON number carries exactly (2^53). */
#define RUN_COUNT_MAX 9007199254740992.0

/*
 * The field of a key: the table's entry of that name, or the map (RUN_F_MAP) whose
 * key is a prefix ("host.sysctls.net.core.rmem_max"), *entry then pointing at the
 * entry's name in key; NULL when the table has none. entry may be NULL.
 */
const struct run_field *run_field_find(const char *key, const char **entry);

/*
 * The field's parent object in the table ("capture.ring" for "capture.ring.files"),
 * NULL at the top level.
 */
const struct run_field *run_field_parent(const struct run_field *f);

/* The JSON types the field takes, as RUN_T_* bits (RUN_T_NULL included when it may be null). */
unsigned int run_field_types(const struct run_field *f);

/*
 * Checks v against the field: type, range, choices, a clock pair's keys, an array's
 * elements (with element >= 0: only v, one element of the array). where names it in
 * the message ("trace.subbuf_size"). Returns 0 or -DGR_E_INVAL with errbuf
 * (DGR_ERRBUF_SIZE) naming where, the value and the accepted range.
 */
int run_field_check(const struct run_field *f, const json_t *v, const char *where, bool element,
		    char *errbuf);

/*
 * Checks every field of the table that root (a run.json's top level) holds below the
 * top level, with run_field_check; strict also refuses a key the table does not
 * know inside a table's object (the writer's check; old files keep keys of their
 * own). Returns 0 or -DGR_E_INVAL with errbuf naming the first bad field.
 */
int run_schema_check(const json_t *root, bool strict, char *errbuf);

/* The bit of v's JSON type (RUN_T_*). */
unsigned int run_json_type_bit(const json_t *v);

/* "a string or null": the types of the bits, into buf. Returns buf. */
const char *run_json_type_names(unsigned int types, char *buf, size_t len);

/* A short description of v for a message: "null", "a string", "-5", "1e+308". Returns buf
 * or a constant. */
const char *run_json_describe(const json_t *v, char *buf, size_t len);

#endif
