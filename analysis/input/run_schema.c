// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run.json's fields (see run_schema.h). A new fact is one line of the table below, in
 * the order a run.json lists it, and its line in docs/run-json.md.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "run_info.h"
#include "run_schema.h"

#define COUNT	RUN_COUNT_MAX
#define PID_MAX 4194304.0
#define I64_MAX 9223372036854775807.0

static const char *const formats[] = { RUN_INFO_FORMAT, RUN_INFO_FORMAT_1, NULL };
static const char *const subbuf_sources[] = { "computed", "option", NULL };
static const char *const sessiond_states[] = { "reused", "started, kept", "started, stopped",
					       NULL };
static const char *const processes[] = { "user", "command", NULL };
static const char *const trace_modes[] = { "snapshot", NULL };
static const char *const inferred[] = { "udp", "ethernet", "none", NULL };
static const char *const relayds[] = { "started", "given", NULL };
static const char *const kernel_backends[] = { "perf", "lttng", NULL };
static const char *const offset_sources[] = { "trace", "clocks", NULL };

#define S(key, flags)                                                                              \
	{                                                                                          \
		key, RUN_F_STRING, flags, 0, 0, NULL                                               \
	}
#define C(key, flags, list)                                                                        \
	{                                                                                          \
		key, RUN_F_STRING, flags, 0, 0, list                                               \
	}
#define W(key, flags, min, max)                                                                    \
	{                                                                                          \
		key, RUN_F_WHOLE, flags, min, max, NULL                                            \
	}
#define N(key, flags, min, max)                                                                    \
	{                                                                                          \
		key, RUN_F_NUMBER, flags, min, max, NULL                                           \
	}
#define B(key, flags)                                                                              \
	{                                                                                          \
		key, RUN_F_BOOL, flags, 0, 0, NULL                                                 \
	}
#define SA(key, flags)                                                                             \
	{                                                                                          \
		key, RUN_F_STRINGS, flags, 0, 0, NULL                                              \
	}
#define WA(key, flags, min, max)                                                                   \
	{                                                                                          \
		key, RUN_F_WHOLES, flags, min, max, NULL                                           \
	}
#define CLK(key, flags)                                                                            \
	{                                                                                          \
		key, RUN_F_CLOCK, flags, 0, 0, NULL                                                \
	}
#define OBJ(key, flags)                                                                            \
	{                                                                                          \
		key, RUN_F_OBJECT, flags, 0, 0, NULL                                               \
	}
#define MAP(key, flags)                                                                            \
	{                                                                                          \
		key, RUN_F_MAP, flags, 0, 0, NULL                                                  \
	}
#define TOOL(key, flags)                                                                           \
	{                                                                                          \
		key, RUN_F_TOOL_OBJECT, flags, 0, 0, NULL                                          \
	}
#define NUL   RUN_F_NULL
#define EMPTY (RUN_F_NULL | RUN_F_EMPTY_NULL)
#define FACT  (RUN_F_OMIT_NULL | RUN_F_NULL)

const struct run_field run_fields[] = {
	C("format", RUN_F_REQUIRED | RUN_F_DERIVED, formats),
	SA("command", RUN_F_REQUIRED),
	W("command_pid", NUL, 1, PID_MAX),
	S("cwd", 0),
	W("exit_status", 0, 0, 255),
	S("exit_signal", EMPTY),
	B("interrupted", 0),
	S("interrupt_reason", EMPTY),
	OBJ("clocks", 0),
	CLK("clocks.start", NUL),
	CLK("clocks.end", NUL),
	W("clocks.duration_ns", NUL | RUN_F_DERIVED, 0, I64_MAX),
	W("clocks.startup_ms", NUL, 0, COUNT),
	OBJ("trace", NUL),
	S("trace.path", EMPTY | RUN_F_REQUIRED),
	S("trace.session", 0),
	S("trace.channel", 0),
	S("trace.events", 0),
	SA("trace.excluded_events", 0),
	SA("trace.contexts", 0),
	S("trace.buffers", 0),
	S("trace.clock", 0),
	W("trace.subbuf_size", 0, 1, COUNT),
	C("trace.subbuf_size_source", 0, subbuf_sources),
	W("trace.num_subbuf", 0, 1, COUNT),
	W("trace.expected_event_rate", 0, 1, 1e9),
	W("trace.event_bytes", 0, 1, COUNT),
	W("trace.drain_ms", 0, 0, COUNT),
	W("trace.ring_bytes_total", 0, 0, COUNT),
	C("trace.sessiond", 0, sessiond_states),
	W("trace.discarded_events", NUL, 0, COUNT),
	W("trace.lost_packets", NUL, 0, COUNT),
	B("trace.readable", NUL),
	S("trace.lost", EMPTY),
	C("trace.processes", 0, processes),
	WA("trace.trace_pids", 0, 1, PID_MAX),
	W("trace.tracefile_size", NUL, 1, COUNT),
	W("trace.tracefile_count", NUL, 1, 65535),
	C("trace.mode", 0, trace_modes),
	OBJ("capture", NUL),
	S("capture.path", RUN_F_REQUIRED),
	S("capture.interface", 0),
	S("capture.filter", 0),
	C("capture.inferred_from", 0, inferred),
	W("capture.snaplen", 0, 0, 262144),
	S("capture.snaplen_source", 0),
	W("capture.buffer_size_mib", 0, 1, 4096),
	OBJ("capture.ring", NUL),
	W("capture.ring.files", 0, 2, 100000),
	W("capture.ring.file_size_kb", NUL, 1, COUNT),
	W("capture.ring.duration_s", NUL, 1, 86400),
	W("capture.ring.files_written", NUL, 0, COUNT),
	W("capture.ring.files_kept", NUL, 0, COUNT),
	W("capture.ring.first_kept", NUL, 1, COUNT),
	B("capture.ring.start_dropped", 0),
	W("capture.ring.bytes", NUL, 0, COUNT),
	W("capture.packets_captured", NUL, 0, COUNT),
	W("capture.packets_received", NUL, 0, COUNT),
	W("capture.packets_dropped", NUL, 0, COUNT),
	S("capture.drop_detail", EMPTY),
	S("capture.lost", EMPTY),
	W("capture.files", 0, 0, COUNT),
	OBJ("live", NUL),
	S("live.url", 0),
	S("live.relayd_url", 0),
	C("live.relayd", 0, relayds),
	W("live.timer_ms", 0, 1, COUNT),
	OBJ("stream", 0),
	N("stream.sample_rate", FACT | RUN_F_ABOVE_MIN, 0, RUN_INFO_MAX_RATE),
	N("stream.rate_bytes", FACT | RUN_F_ABOVE_MIN, 0, RUN_INFO_MAX_RATE * 4),
	W("stream.host_buffers", FACT, 1, RUN_INFO_MAX_BUFFERS),
	W("stream.fpga_buffers", FACT, 0, RUN_INFO_MAX_BUFFERS),
	W("stream.buffer_size", FACT, 1, RUN_INFO_MAX_BUFFER_SIZE),
	OBJ("incident", NUL),
	W("incident.number", 0, 1, 10000),
	S("incident.trigger", 0),
	CLK("incident.at", 0),
	W("incident.seconds_before", 0, 1, 3600),
	W("incident.seconds_after", 0, 0, 600),
	OBJ("flight_recorder", NUL),
	W("flight_recorder.seconds", 0, 1, 3600),
	W("flight_recorder.incident_after", 0, 0, 600),
	W("flight_recorder.max_incidents", 0, 1, 10000),
	W("flight_recorder.incident_latency_us", NUL, 1, 10000000),
	W("flight_recorder.incidents", 0, 0, 10000),
	W("flight_recorder.triggers_past_limit", 0, 0, COUNT),
	W("flight_recorder.triggers_merged", 0, 0, COUNT),
	SA("flight_recorder.event_rules", 0),
	W("flight_recorder.trace_memory_bytes", NUL, 0, COUNT),
	OBJ("flight_recorder.record", NUL),
	S("flight_recorder.record.path", 0),
	SA("flight_recorder.record.events", 0),
	W("flight_recorder.record.tracefile_size", 0, 65536, COUNT),
	W("flight_recorder.record.tracefile_count", 0, 1, 65535),
	W("flight_recorder.record.bound_bytes", 0, 0, COUNT),
	W("flight_recorder.record.discarded_events", NUL, 0, COUNT),
	W("flight_recorder.record.bytes", NUL, 0, COUNT),
	OBJ("bounds", NUL),
	B("bounds.long", 0),
	W("bounds.capture_bytes", NUL, 0, COUNT),
	W("bounds.trace_bytes", NUL, 0, COUNT),
	W("bounds.disk_bytes", 0, 0, COUNT),
	TOOL("losses", NUL),
	TOOL("settings", NUL),
	OBJ("kernel", NUL),
	C("kernel.backend", 0, kernel_backends),
	SA("kernel.events", 0),
	SA("kernel.missing_events", 0),
	S("kernel.xmit_device", NUL),
	S("kernel.clock", 0),
	S("kernel.path", RUN_F_REQUIRED),
	S("kernel.perf_data", EMPTY),
	OBJ("kernel.clock_offset", NUL),
	W("kernel.clock_offset.sec", RUN_F_REQUIRED, 0, COUNT),
	W("kernel.clock_offset.nsec", RUN_F_REQUIRED, 0, 999999999),
	C("kernel.clock_offset_from", EMPTY, offset_sources),
	W("kernel.samples", NUL, 0, COUNT),
	W("kernel.lost_events", NUL, 0, COUNT),
	W("kernel.lost_chunks", NUL, 0, COUNT),
	S("kernel.lost", EMPTY),
	W("kernel.recorder_cpu_ms", NUL, 0, COUNT),
	W("kernel.data_bytes", NUL, 0, COUNT),
	W("kernel.buffer_mib_per_cpu", 0, 1, COUNT),
	OBJ("host", 0),
	S("host.hostname", 0),
	S("host.kernel", 0),
	S("host.kernel_version", 0),
	S("host.machine", 0),
	S("host.os", 0),
	S("host.cpu_model", 0),
	W("host.cpus_online", 0, 1, COUNT),
	W("host.cpus_configured", 0, 1, COUNT),
	S("host.isolated_cpus", 0),
	S("host.nohz_full", 0),
	S("host.kernel_cmdline", 0),
	W("host.mem_total_kib", NUL, 0, COUNT),
	W("host.uid", 0, 0, 4294967295.0),
	S("host.user", 0),
	S("host.lttng_version", 0),
	S("host.dumpcap_version", 0),
	MAP("host.cpu_governors", 0),
	OBJ("host.interface", NUL),
	S("host.interface.name", 0),
	W("host.interface.mtu", NUL, 0, COUNT),
	S("host.interface.driver", EMPTY),
	MAP("host.sysctls", 0),
	SA("warnings", 0),
};

const size_t run_field_count = sizeof(run_fields) / sizeof(run_fields[0]);

const struct run_field *run_field_find(const char *key, const char **entry)
{
	size_t i, n;

	for (i = 0; i < run_field_count; i++) {
		if (!strcmp(run_fields[i].key, key)) {
			if (entry) {
				*entry = NULL;
			}
			return &run_fields[i];
		}
	}
	for (i = 0; i < run_field_count; i++) {
		n = strlen(run_fields[i].key);
		if (run_fields[i].type == RUN_F_MAP && !strncmp(run_fields[i].key, key, n) &&
		    key[n] == '.' && key[n + 1] != '\0') {
			if (entry) {
				*entry = key + n + 1;
			}
			return &run_fields[i];
		}
	}
	return NULL;
}

const struct run_field *run_field_parent(const struct run_field *f)
{
	const char *dot = strrchr(f->key, '.');
	size_t i, n;

	if (!dot) {
		return NULL;
	}
	n = (size_t)(dot - f->key);
	for (i = 0; i < run_field_count; i++) {
		if (strlen(run_fields[i].key) == n && !strncmp(run_fields[i].key, f->key, n)) {
			return &run_fields[i];
		}
	}
	return NULL;
}

unsigned int run_field_types(const struct run_field *f)
{
	static const unsigned int types[] = {
		[RUN_F_STRING] = RUN_T_STRING,
		[RUN_F_WHOLE] = RUN_T_INTEGER,
		[RUN_F_NUMBER] = RUN_T_INTEGER | RUN_T_REAL,
		[RUN_F_BOOL] = RUN_T_BOOL,
		[RUN_F_STRINGS] = RUN_T_ARRAY,
		[RUN_F_WHOLES] = RUN_T_ARRAY,
		[RUN_F_CLOCK] = RUN_T_OBJECT,
		[RUN_F_OBJECT] = RUN_T_OBJECT,
		[RUN_F_MAP] = RUN_T_OBJECT,
		[RUN_F_TOOL_OBJECT] = RUN_T_OBJECT,
	};

	return types[f->type] | ((f->flags & RUN_F_NULL) ? RUN_T_NULL : 0u);
}

unsigned int run_json_type_bit(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return RUN_T_OBJECT;
	case JSON_ARRAY:
		return RUN_T_ARRAY;
	case JSON_STRING:
		return RUN_T_STRING;
	case JSON_INTEGER:
		return RUN_T_INTEGER;
	case JSON_TRUE:
	case JSON_FALSE:
		return RUN_T_BOOL;
	case JSON_NULL:
		return RUN_T_NULL;
	case JSON_REAL:
		return RUN_T_REAL;
	}
	return 0;
}

const char *run_json_type_names(unsigned int types, char *buf, size_t len)
{
	static const char *const names[] = { "an object",  "an array", "a string", "a whole number",
					     "true/false", "null",     "a number" };
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (types & (1u << i)) {
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s",
					      n ? " or " : "", names[i]);
		}
	}
	return buf;
}

const char *run_json_describe(const json_t *v, char *buf, size_t len)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return buf;
	case JSON_REAL:
		snprintf(buf, len, "%.6g", json_real_value(v));
		return buf;
	case JSON_TRUE:
		return "true";
	case JSON_FALSE:
		return "false";
	case JSON_NULL:
		return "null";
	}
	return "?";
}

/* "a whole number 1..4194304", "a number in (0, 1e+12]": the field's range in words. */
static const char *range_words(const struct run_field *f, char *buf, size_t len)
{
	if (f->type == RUN_F_NUMBER) {
		snprintf(buf, len, "a number in %s%.15g, %.15g]",
			 (f->flags & RUN_F_ABOVE_MIN) ? "(" : "[", f->min, f->max);
	} else {
		snprintf(buf, len, "a whole number %.0f..%.0f", f->min, f->max);
	}
	return buf;
}

/* A number of f's range: whole for RUN_F_WHOLE(S), in [min, max] (or (min, max]). */
static int check_number(const struct run_field *f, const json_t *v, const char *where, char *errbuf)
{
	bool whole = f->type != RUN_F_NUMBER;
	char d[64], r[96];
	double x;

	if (whole ? !json_is_integer(v) : !json_is_number(v)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s: %s, expected %s", where,
				      run_json_describe(v, d, sizeof(d)),
				      range_words(f, r, sizeof(r)));
	}
	x = json_number_value(v);
	if (x < f->min || x > f->max || ((f->flags & RUN_F_ABOVE_MIN) && x <= f->min)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s: %s is out of range (accepted: %s)",
				      where, run_json_describe(v, d, sizeof(d)),
				      range_words(f, r, sizeof(r)));
	}
	return 0;
}

/* dgrdma-clocks' pair: five whole numbers (nanoseconds below 1e9) and the ISO time. */
static int check_clock(const json_t *v, const char *where, char *errbuf)
{
	static const char *const keys[] = { "monotonic_sec", "monotonic_nsec", "realtime_sec",
					    "realtime_nsec", "uncertainty_ns" };
	const struct run_field sec = { "", RUN_F_WHOLE, 0, 0, I64_MAX, NULL };
	const struct run_field nsec = { "", RUN_F_WHOLE, 0, 0, 999999999, NULL };
	char name[160];
	const char *key;
	json_t *x;
	size_t i;

	json_object_foreach((json_t *)v, key, x)
	{
		for (i = 0; i < 5 && strcmp(keys[i], key) != 0; i++) {
		}
		if (i == 5 && strcmp(key, "realtime_iso8601") != 0) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "%s.%.60s: unknown key (not in a clock pair)", where,
					      key);
		}
	}
	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "%s.%s", where, keys[i]);
		x = json_object_get(v, keys[i]);
		if (!x) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "%s: missing (a clock pair has it)", name);
		}
		if (check_number(strstr(keys[i], "_nsec") ? &nsec : &sec, x, name, errbuf) < 0) {
			return -DGR_E_INVAL;
		}
	}
	x = json_object_get(v, "realtime_iso8601");
	if (x && !json_is_string(x)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "%s.realtime_iso8601: %s, expected a string", where,
				      run_json_describe(x, name, sizeof(name)));
	}
	return 0;
}

static int check_element(const struct run_field *f, const json_t *v, const char *where,
			 char *errbuf)
{
	char d[64];

	if (f->type == RUN_F_STRINGS) {
		if (!json_is_string(v)) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s: %s, expected a string",
					      where, run_json_describe(v, d, sizeof(d)));
		}
		return 0;
	}
	return check_number(f, v, where, errbuf);
}

int run_field_check(const struct run_field *f, const json_t *v, const char *where, bool element,
		    char *errbuf)
{
	char d[64], t[96], name[160];
	const char *key;
	json_t *x;
	size_t i;

	if (element) {
		return check_element(f, v, where, errbuf);
	}
	if ((f->type == RUN_F_WHOLE || f->type == RUN_F_NUMBER) &&
	    !(json_is_null(v) && (f->flags & RUN_F_NULL))) {
		return check_number(f, v, where, errbuf);
	}
	if (!(run_json_type_bit(v) & run_field_types(f))) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s: %s, expected %s", where,
				      run_json_describe(v, d, sizeof(d)),
				      run_json_type_names(run_field_types(f), t, sizeof(t)));
	}
	if (json_is_null(v)) {
		return 0;
	}
	switch (f->type) {
	case RUN_F_STRING:
		for (i = 0; f->choices && f->choices[i]; i++) {
			if (!strcmp(f->choices[i], json_string_value(v))) {
				return 0;
			}
		}
		if (f->choices) {
			t[0] = '\0';
			for (i = 0; f->choices[i]; i++) {
				snprintf(t + strlen(t), sizeof(t) - strlen(t), "%s'%s'",
					 i ? ", " : "", f->choices[i]);
			}
			return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s: '%.40s' is not one of %s",
					      where, json_string_value(v), t);
		}
		return 0;
	case RUN_F_WHOLE:
	case RUN_F_NUMBER:
		return check_number(f, v, where, errbuf);
	case RUN_F_STRINGS:
	case RUN_F_WHOLES:
		for (i = 0; i < json_array_size(v); i++) {
			snprintf(name, sizeof(name), "%s[%zu]", where, i);
			if (check_element(f, json_array_get(v, i), name, errbuf) < 0) {
				return -DGR_E_INVAL;
			}
		}
		return 0;
	case RUN_F_CLOCK:
		return check_clock(v, where, errbuf);
	case RUN_F_MAP:
		json_object_foreach((json_t *)v, key, x)
		{
			if (!json_is_string(x) && !json_is_null(x)) {
				return dgr_errbuf_set(
				    errbuf, DGR_E_INVAL, "%s.%.60s: %s, expected a string or null",
				    where, key, run_json_describe(x, d, sizeof(d)));
			}
		}
		return 0;
	case RUN_F_BOOL:
	case RUN_F_OBJECT:
	case RUN_F_TOOL_OBJECT:
		return 0;
	}
	return 0;
}

/* The value of a table key in root: NULL when it or an object above it is absent or null. */
static const json_t *value_at(const json_t *root, const char *key)
{
	char part[128];
	const char *dot;

	while ((dot = strchr(key, '.'))) {
		snprintf(part, sizeof(part), "%.*s", (int)(dot - key), key);
		root = json_object_get(root, part);
		if (!json_is_object(root)) {
			return NULL;
		}
		key = dot + 1;
	}
	return json_object_get(root, key);
}

/* Whether obj (the table's object field) has only keys of the table: 0, or refused. */
static int check_known_keys(const struct run_field *f, const json_t *obj, char *errbuf)
{
	char name[160];
	const char *key;
	json_t *x;

	json_object_foreach((json_t *)obj, key, x)
	{
		const struct run_field *child;
		const char *entry;

		snprintf(name, sizeof(name), "%s%s%s", f ? f->key : "", f ? "." : "", key);
		child = run_field_find(name, &entry);
		if (!child || entry || run_field_parent(child) != f) {
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL, "%.100s: unknown key (not in %s%s)", name,
			    f ? f->key : "the top level", f ? "" : " of run.json");
		}
	}
	return 0;
}

int run_schema_check(const json_t *root, bool strict, char *errbuf)
{
	size_t i;

	if (strict && check_known_keys(NULL, root, errbuf) < 0) {
		return -DGR_E_INVAL;
	}
	for (i = 0; i < run_field_count; i++) {
		const struct run_field *f = &run_fields[i];
		const json_t *v = value_at(root, f->key);

		if (!v || (!strict && !strchr(f->key, '.'))) {
			continue;
		}
		if (run_field_check(f, v, f->key, false, errbuf) < 0) {
			return -DGR_E_INVAL;
		}
		if (strict && f->type == RUN_F_OBJECT && json_is_object(v) &&
		    check_known_keys(f, v, errbuf) < 0) {
			return -DGR_E_INVAL;
		}
	}
	return 0;
}
