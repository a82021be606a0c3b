// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run.json facts (see run_info.h). jansson parses (strict RFC 8259: no NaN or
 * Infinity, no duplicate keys with JSON_REJECT_DUPLICATES, nesting bounded at
 * 2048 levels, integers that overflow refused); the schema of dgrdma-run/2 (and 1) is
 * checked here, one key at a time, and the first bad key is named.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <dgrdma/proto.h>
#include <dgrdma/wire.h>

#include "cli.h"
#include "run_info.h"
#include "run_info_v1.h"
#include "run_schema.h"

/* A whole number in [min, max] (an integral real such as 2e3 counts). */
static int get_whole(const json_t *v, const char *key, uint64_t min, uint64_t max, uint64_t *out,
		     char *errbuf)
{
	char d[64];
	double x;

	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);

		if (i < 0 || (uint64_t)i < min || (uint64_t)i > max) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "%s: %s is out of range %" PRIu64 "..%" PRIu64, key,
					      run_json_describe(v, d, sizeof(d)), min, max);
		}
		*out = (uint64_t)i;
		return 0;
	}
	if (!json_is_real(v)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "%s: %s, expected a whole number %" PRIu64 "..%" PRIu64, key,
				      run_json_describe(v, d, sizeof(d)), min, max);
	}
	x = json_real_value(v);
	if (x < (double)min || x > (double)max) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "%s: %s is out of range %" PRIu64 "..%" PRIu64, key,
				      run_json_describe(v, d, sizeof(d)), min, max);
	}
	if (x != floor(x)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "%s: %s is not a whole number (accepted: %" PRIu64
				      "..%" PRIu64 ")",
				      key, run_json_describe(v, d, sizeof(d)), min, max);
	}
	*out = (uint64_t)x;
	return 0;
}

/* A number in (0, max]. */
static int get_positive(const json_t *v, const char *key, double max, double *out, char *errbuf)
{
	char d[64];
	double x;

	if (!json_is_number(v)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s: %s, expected a number in (0, %g]",
				      key, run_json_describe(v, d, sizeof(d)), max);
	}
	x = json_number_value(v);
	if (!(x > 0 && x <= max)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s: %s is out of range (0, %g]", key,
				      run_json_describe(v, d, sizeof(d)), max);
	}
	*out = x;
	return 0;
}

struct key_rule {
	const char *key;
	unsigned int types;
	bool required;
};

#define MAX_RULES 32

/*
 * The rules of the fields directly below parent ("" the top level) in run.json's one
 * table (run_schema.c): their names, types (any type with any_type: the reader's own
 * checks of the value follow) and whether they are required. Returns their number.
 */
static size_t table_rules(const char *parent, bool any_type, struct key_rule *rules)
{
	size_t i, n = 0, plen = strlen(parent);

	for (i = 0; i < run_field_count && n < MAX_RULES; i++) {
		const char *key = run_fields[i].key;

		if (plen ? strncmp(key, parent, plen) != 0 || key[plen] != '.' ||
			       strchr(key + plen + 1, '.')
			 : strchr(key, '.') != NULL) {
			continue;
		}
		rules[n].key = plen ? key + plen + 1 : key;
		rules[n].types = any_type ? ~0u : run_field_types(&run_fields[i]);
		rules[n].required = (run_fields[i].flags & RUN_F_REQUIRED) != 0;
		n++;
	}
	return n;
}

/*
 * Checks that obj holds only the keys of rules, with their types, and the
 * required ones. where: the object's path for messages ("" at the top).
 */
static int check_keys(const json_t *obj, const char *where, const struct key_rule *rules, size_t n,
		      const char *fmt, char *errbuf)
{
	const char *key;
	json_t *v;
	char d[64], t[96];
	size_t i;

	json_object_foreach((json_t *)obj, key, v)
	{
		for (i = 0; i < n && strcmp(rules[i].key, key) != 0; i++) {
		}
		if (i == n) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "%s%s%.60s: unknown key (not in %s%s%s)", where,
					      *where ? "." : "", key, *where ? "" : "the ",
					      *where ? where : fmt, *where ? "" : " top level");
		}
		if (!(run_json_type_bit(v) & rules[i].types)) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s%s%s: %s, expected %s", where,
					      *where ? "." : "", key,
					      run_json_describe(v, d, sizeof(d)),
					      run_json_type_names(rules[i].types, t, sizeof(t)));
		}
	}
	for (i = 0; i < n; i++) {
		if (rules[i].required && !json_object_get(obj, rules[i].key)) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "%s%s%s: missing (a %s file has it)", where,
					      *where ? "." : "", rules[i].key, fmt);
		}
	}
	return 0;
}

/* A clock pair's KEY_sec/KEY_nsec in ns (checked: check_clocks); 0 when absent or past 2554. */
static uint64_t pair_ns(const json_t *pair, const char *key)
{
	char k[32];
	uint64_t sec, nsec;

	if (!pair || json_is_null(pair)) {
		return 0;
	}
	snprintf(k, sizeof(k), "%s_sec", key);
	sec = (uint64_t)json_integer_value(json_object_get(pair, k));
	snprintf(k, sizeof(k), "%s_nsec", key);
	nsec = (uint64_t)json_integer_value(json_object_get(pair, k));
	/* past 2554 a time in ns overflows: unknown */
	return sec < UINT64_MAX / 1000000000ull - 1 ? sec * 1000000000ull + nsec : 0;
}

/*
 * How far realtime - monotonic moved between clocks.start and clocks.end: the real-time
 * span (out's, read already) less the monotonic one.
 */
static void realtime_moved(const json_t *clocks, struct run_info *out)
{
	const json_t *a = clocks ? json_object_get(clocks, "start") : NULL;
	const json_t *b = clocks ? json_object_get(clocks, "end") : NULL;
	uint64_t ma = pair_ns(a, "monotonic"), mb = pair_ns(b, "monotonic");

	if (!out->realtime_start_ns || !out->realtime_end_ns || !ma || !mb) {
		return;
	}
	out->realtime_moved_known = true;
	out->realtime_moved_ns =
	    (int64_t)(out->realtime_end_ns - out->realtime_start_ns) - (int64_t)(mb - ma);
	out->realtime_moved_uncertainty_ns =
	    (uint64_t)json_integer_value(json_object_get(a, "uncertainty_ns")) +
	    (uint64_t)json_integer_value(json_object_get(b, "uncertainty_ns"));
}

static int check_clocks(const json_t *clocks, const char *fmt, char *errbuf)
{
	struct key_rule rules[MAX_RULES];
	size_t n = table_rules("clocks", false, rules);
	const json_t *v;

	if (check_keys(clocks, "clocks", rules, n, fmt, errbuf) < 0) {
		return -DGR_E_INVAL;
	}
	/* dgrdma-clocks' pairs, or null: the table's check (run_schema.c), the writer's */
	if ((v = json_object_get(clocks, "start")) &&
	    run_field_check(run_field_find("clocks.start", NULL), v, "clocks.start", false,
			    errbuf) < 0) {
		return -DGR_E_INVAL;
	}
	if ((v = json_object_get(clocks, "end")) &&
	    run_field_check(run_field_find("clocks.end", NULL), v, "clocks.end", false, errbuf) <
		0) {
		return -DGR_E_INVAL;
	}
	return 0;
}

/*
 * run.json's "capture" or "trace" (key) into *part: not recorded (null), or
 * recorded at its "path" (a string; the trace's may be null: sent to a given
 * relayd), with the trace's "readable". Other keys are dgrdma-capture's facts
 * of the recording, not read here.
 */
static int read_part(const json_t *root, const char *key, struct run_part *part, char *errbuf)
{
	const json_t *obj = json_object_get(root, key), *v;
	bool trace = !strcmp(key, "trace");
	char d[64];
	const char *s;

	memset(part, 0, sizeof(*part));
	if (!obj) {
		return 0;
	}
	if (json_is_null(obj)) {
		part->state = RUN_PART_NOT_RECORDED;
		return 0;
	}
	v = json_object_get(obj, "readable");
	if (trace && v && !json_is_boolean(v) && !json_is_null(v)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "%s.readable: %s, expected true/false or null", key,
				      run_json_describe(v, d, sizeof(d)));
	}
	part->unreadable = trace && json_is_false(v);
	v = json_object_get(obj, "lost");
	if (v && !json_is_string(v) && !json_is_null(v)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s.lost: %s, expected a string or null",
				      key, run_json_describe(v, d, sizeof(d)));
	}
	snprintf(part->lost, sizeof(part->lost), "%s",
		 json_is_string(v) ? json_string_value(v) : "");
	v = json_object_get(obj, "trace_pids");
	if (trace && v) {
		char name[48];
		size_t i;
		uint64_t pid;

		if (!json_is_array(v) || json_array_size(v) > RUN_INFO_MAX_TRACE_PIDS) {
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL,
			    "trace.trace_pids: %s, expected an array of at most %d "
			    "pids",
			    json_is_array(v) ? "a longer array"
					     : run_json_describe(v, d, sizeof(d)),
			    RUN_INFO_MAX_TRACE_PIDS);
		}
		for (i = 0; i < json_array_size(v); i++) {
			snprintf(name, sizeof(name), "trace.trace_pids[%zu]", i);
			if (get_whole(json_array_get(v, i), name, 1, 4194304, &pid, errbuf)) {
				return -DGR_E_INVAL;
			}
			part->trace_pids[part->n_trace_pids++] = (uint32_t)pid;
		}
	}
	v = json_object_get(obj, "path");
	if (!v) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "%s.path: missing (a recorded %s has its path in the folder)",
				      key, key);
	}
	if (trace && json_is_null(v)) {
		part->state = RUN_PART_ELSEWHERE;
		return 0;
	}
	if (!json_is_string(v)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s.path: %s, expected a string%s", key,
				      run_json_describe(v, d, sizeof(d)), trace ? " or null" : "");
	}
	s = json_string_value(v);
	if (json_string_length(v) == 0 || json_string_length(v) >= sizeof(part->path) ||
	    strlen(s) != json_string_length(v)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "%s.path: a string of %zu bytes%s, expected 1..%zu bytes",
				      key, json_string_length(v),
				      strlen(s) != json_string_length(v) ? " with a NUL in it" : "",
				      sizeof(part->path) - 1);
	}
	part->state = RUN_PART_RECORDED;
	snprintf(part->path, sizeof(part->path), "%s", s);
	return 0;
}

/* The facts of "stream" into *ri (fields still 0 only). */
static int read_stream(const json_t *stream, struct run_info *ri, const char *fmt, char *errbuf)
{
	struct key_rule rules[MAX_RULES];
	size_t n = table_rules("stream", true, rules);
	const json_t *v;
	uint64_t u;
	double x;

	if (check_keys(stream, "stream", rules, n, fmt, errbuf) < 0) {
		return -DGR_E_INVAL;
	}
	if ((v = json_object_get(stream, "host_buffers"))) {
		if (get_whole(v, "stream.host_buffers", 1, RUN_INFO_MAX_BUFFERS, &u, errbuf)) {
			return -DGR_E_INVAL;
		}
		ri->host_buffers = ri->host_buffers ? ri->host_buffers : u;
	}
	if ((v = json_object_get(stream, "fpga_buffers"))) {
		if (get_whole(v, "stream.fpga_buffers", 0, RUN_INFO_MAX_BUFFERS, &u, errbuf)) {
			return -DGR_E_INVAL;
		}
		ri->fpga_buffers = ri->fpga_buffers ? ri->fpga_buffers : u;
	}
	if ((v = json_object_get(stream, "buffer_size"))) {
		if (get_whole(v, "stream.buffer_size", 1, RUN_INFO_MAX_BUFFER_SIZE, &u, errbuf)) {
			return -DGR_E_INVAL;
		}
		ri->buffer_size = ri->buffer_size ? ri->buffer_size : u;
	}
	if (json_object_get(stream, "rate_bytes") && json_object_get(stream, "sample_rate")) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "stream: both rate_bytes and sample_rate (give one)");
	}
	if ((v = json_object_get(stream, "rate_bytes"))) {
		if (get_positive(v, "stream.rate_bytes", RUN_INFO_MAX_RATE * DGR_SAMPLE_BYTES, &x,
				 errbuf)) {
			return -DGR_E_INVAL;
		}
		ri->rate_bytes = ri->rate_bytes ? ri->rate_bytes : (uint64_t)x;
	}
	if ((v = json_object_get(stream, "sample_rate"))) {
		if (get_positive(v, "stream.sample_rate", RUN_INFO_MAX_RATE, &x, errbuf)) {
			return -DGR_E_INVAL;
		}
		ri->rate_bytes = ri->rate_bytes ? ri->rate_bytes : (uint64_t)(x * DGR_SAMPLE_BYTES);
	}
	return 0;
}

/*
 * Adds the port of an address ADDR[:PORT] (default 18078) to ri's UDP ports;
 * with host, also records ADDR:PORT as the host's address when ADDR is a
 * specific one (not 0.0.0.0) and none is known yet. where names the value.
 */
static int take_udp_addr(struct run_info *ri, const char *where, const char *val, bool host,
			 char *errbuf)
{
	const char *colon = strchr(val, ':');
	uint64_t port = DGR_UDP_PORT;
	unsigned int i;

	if (colon && dgr_parse_u64(where, colon + 1, 1, 65535, false, &port, errbuf) < 0) {
		return -DGR_E_INVAL;
	}
	for (i = 0; i < ri->n_udp_ports && ri->udp_ports[i] != port; i++) {
	}
	if (i == ri->n_udp_ports && ri->n_udp_ports < RUN_INFO_MAX_PORTS) {
		ri->udp_ports[ri->n_udp_ports++] = (uint16_t)port;
	}
	if (host && !ri->host_addr[0] && strncmp(val, "0.0.0.0", 7) != 0 &&
	    (colon ? (size_t)(colon - val) : strlen(val)) + 7 < sizeof(ri->host_addr)) {
		snprintf(ri->host_addr, sizeof(ri->host_addr), "%.*s:%u",
			 colon ? (int)(colon - val) : (int)strlen(val), val, (unsigned int)port);
	}
	return 0;
}

/*
 * The UDP addresses of the settings: the tool's "local" one, its "peer" (the
 * emulator's) or "peers" (each {"address"}, dgrdma-host's). The host's own
 * address is dgrdma-host's local one, or the emulator's peer.
 */
static int read_addresses(const json_t *s, bool fpga, struct run_info *ri, char *errbuf)
{
	const json_t *v, *peers = json_object_get(s, "peers");
	char where[48], d[64];
	size_t i;

	if ((v = json_object_get(s, "local")) &&
	    take_udp_addr(ri, "settings.local", json_string_value(v), !fpga, errbuf) < 0) {
		return -DGR_E_INVAL;
	}
	if ((v = json_object_get(s, "peer")) &&
	    take_udp_addr(ri, "settings.peer", json_string_value(v), fpga, errbuf) < 0) {
		return -DGR_E_INVAL;
	}
	for (i = 0; peers && i < json_array_size(peers); i++) {
		v = json_array_get(peers, i);
		snprintf(where, sizeof(where), "settings.peers[%zu].address", i);
		v = json_is_object(v) ? json_object_get(v, "address") : NULL;
		if (!json_is_string(v)) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s: %s, expected a string",
					      where,
					      v ? run_json_describe(v, d, sizeof(d)) : "missing");
		}
		if (take_udp_addr(ri, where, json_string_value(v), fpga, errbuf) < 0) {
			return -DGR_E_INVAL;
		}
	}
	return 0;
}

/*
 * The recorded tool's settings (its --summary-json's "settings", or the
 * conversion of a format-1 command line) into *ri: the tracepoint provider of
 * its "tool", its data "path", with "transport" udp its addresses, and the
 * facts of the tolerable latency (fields still 0 only; a sample_rate of 0,
 * dgrdma-host tx as fast as credits allow, is no rate). Other keys are the
 * tool's and not read here.
 */
static int read_settings(const json_t *s, struct run_info *ri, char *errbuf)
{
	static const struct {
		const char *key;
		uint64_t min, max;
		size_t field;
	} sizes[] = {
		{ "host_buffers", 1, RUN_INFO_MAX_BUFFERS,
		  offsetof(struct run_info, host_buffers) },
		{ "fpga_buffers", 0, RUN_INFO_MAX_BUFFERS,
		  offsetof(struct run_info, fpga_buffers) },
		{ "buffer_size", 1, RUN_INFO_MAX_BUFFER_SIZE,
		  offsetof(struct run_info, buffer_size) },
	};
	static const struct key_rule types[] = {
		{ "tool", RUN_T_STRING, false },
		{ "path", RUN_T_STRING, false },
		{ "transport", RUN_T_STRING, false },
		{ "local", RUN_T_STRING, false },
		{ "peer", RUN_T_STRING, false },
		{ "peers", RUN_T_ARRAY, false },
		{ "host_buffers", ~0u, false },
		{ "fpga_buffers", ~0u, false },
		{ "buffer_size", ~0u, false },
		{ "sample_rate", RUN_T_INTEGER | RUN_T_REAL, false },
	};
	const char *tool = "", *path = NULL;
	char key[48], d[64], t[96];
	const json_t *v;
	uint64_t u;
	double x;
	size_t i;
	bool fpga;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		v = json_object_get(s, types[i].key);
		if (v && !(run_json_type_bit(v) & types[i].types)) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL, "settings.%s: %s, expected %s",
					      types[i].key, run_json_describe(v, d, sizeof(d)),
					      run_json_type_names(types[i].types, t, sizeof(t)));
		}
	}
	if ((v = json_object_get(s, "tool"))) {
		tool = json_string_value(v);
	}
	fpga = !strcmp(tool, "dgrdma-fpga");
	ri->command_provider = fpga ? "dgrdma_fpga:"
			       : !strcmp(tool, "dgrdma-host") || !strcmp(tool, "dgrdma-ctl")
				   ? "dgrdma:"
				   : NULL;
	if ((v = json_object_get(s, "path"))) {
		path = json_string_value(v);
		if (strcmp(path, "rx") != 0 && strcmp(path, "tx") != 0) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "settings.path: '%.40s' is not rx or tx", path);
		}
	}
	ri->path = !path ? RUN_PATH_UNKNOWN : path[0] == 'r' ? RUN_PATH_RX : RUN_PATH_TX;
	v = json_object_get(s, "transport");
	if (v && !strcmp(json_string_value(v), "udp") && read_addresses(s, fpga, ri, errbuf) < 0) {
		return -DGR_E_INVAL;
	}
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t *field = (uint64_t *)((char *)ri + sizes[i].field);

		if (!(v = json_object_get(s, sizes[i].key))) {
			continue;
		}
		snprintf(key, sizeof(key), "settings.%s", sizes[i].key);
		if (get_whole(v, key, sizes[i].min, sizes[i].max, &u, errbuf)) {
			return -DGR_E_INVAL;
		}
		*field = *field ? *field : u;
	}
	if ((v = json_object_get(s, "sample_rate"))) {
		x = json_number_value(v);
		if (!(x >= 0 && x <= RUN_INFO_MAX_RATE)) {
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL, "settings.sample_rate: %s is out of range 0..%g",
			    run_json_describe(v, d, sizeof(d)), RUN_INFO_MAX_RATE);
		}
		ri->rate_bytes = ri->rate_bytes ? ri->rate_bytes : (uint64_t)(x * DGR_SAMPLE_BYTES);
	}
	return 0;
}

/*
 * The recorded command line (kept for people to read): an array of at least one
 * string. Returns 0 or -DGR_E_INVAL naming the element.
 */
static int check_command(const json_t *cmd, char *errbuf)
{
	size_t i, n = json_array_size(cmd);
	char d[64];

	if (n == 0) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "command: an empty array (the recorded command is missing)");
	}
	for (i = 0; i < n; i++) {
		if (!json_is_string(json_array_get(cmd, i))) {
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL, "command[%zu]: %s, expected a string", i,
			    run_json_describe(json_array_get(cmd, i), d, sizeof(d)));
		}
	}
	return 0;
}

/*
 * The JSON object in text (len bytes): a new reference, or NULL with errbuf
 * naming the syntax error's line and column or what the top level is instead.
 */
static json_t *load_object(const char *text, size_t len, char *errbuf)
{
	json_error_t jerr;
	json_t *root;
	char d[64];

	root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
	if (!root) {
		dgr_errbuf_set(errbuf, DGR_E_INVAL, "invalid JSON at line %d, column %d: %s",
			       jerr.line, jerr.column, jerr.text);
		return NULL;
	}
	if (!json_is_object(root)) {
		dgr_errbuf_set(errbuf, DGR_E_INVAL, "the top level is %s, expected an object",
			       run_json_describe(root, d, sizeof(d)));
		json_decref(root);
		return NULL;
	}
	return root;
}

static int read_fpga_counters(const json_t *obj, const char *where, struct fpga_counters *fc,
			      char *errbuf);

/* run.json's "losses" (dgrdma-capture, from the command's --summary-json) into *ri. */
static int read_losses(const json_t *losses, struct run_info *ri, const char *fmt, char *errbuf)
{
	static const struct key_rule rules[] = {
		{ "summary", RUN_T_STRING, false },
		{ "host", RUN_T_OBJECT, false },
		{ "fpga", RUN_T_OBJECT, false },
	};
	static const struct key_rule host_rules[] = {
		{ "status", RUN_T_STRING, false },
		{ "samples_lost", RUN_T_INTEGER | RUN_T_REAL, false },
		{ "drop_rate", RUN_T_INTEGER | RUN_T_REAL, false },
		{ "incomplete_transactions", RUN_T_INTEGER | RUN_T_REAL, false },
		{ "buffers_unanswered", RUN_T_INTEGER | RUN_T_REAL, false },
		{ "discontinuities", RUN_T_INTEGER | RUN_T_REAL, false },
		{ "socket_drops", RUN_T_INTEGER | RUN_T_REAL, false },
		{ "frames_missing", RUN_T_INTEGER | RUN_T_REAL, false },
		{ "retransmit_giveups", RUN_T_INTEGER | RUN_T_REAL, false },
	};
	const json_t *host, *fpga, *v;
	uint64_t u;

	if (check_keys(losses, "losses", rules, sizeof(rules) / sizeof(rules[0]), fmt, errbuf) <
	    0) {
		return -DGR_E_INVAL;
	}
	host = json_object_get(losses, "host");
	if (host) {
		if (check_keys(host, "losses.host", host_rules,
			       sizeof(host_rules) / sizeof(host_rules[0]), fmt, errbuf) < 0) {
			return -DGR_E_INVAL;
		}
		v = json_object_get(host, "samples_lost");
		if (v && get_whole(v, "losses.host.samples_lost", 0, 1ull << 53, &u, errbuf)) {
			return -DGR_E_INVAL;
		}
		ri->host_samples_lost = v ? u : 0;
		v = json_object_get(host, "status");
		snprintf(ri->host_status, sizeof(ri->host_status), "%s",
			 v ? json_string_value(v) : "");
		ri->host_summary_known = true;
	}
	fpga = json_object_get(losses, "fpga");
	if (fpga) {
		if (read_fpga_counters(fpga, "losses.fpga", &ri->fpga, errbuf) < 0) {
			return -DGR_E_INVAL;
		}
		ri->fpga_known = true;
	}
	return 0;
}

/*
 * The tracepoint provider of the recorded program, from its name alone
 * (command[0]'s last component): dgrdma-host and dgrdma-ctl fire "dgrdma:",
 * dgrdma-fpga "dgrdma_fpga:"; any other program NULL. The arguments are not
 * read: a run without settings has no facts from them.
 */
static const char *provider_of_program(const json_t *command)
{
	const char *prog = json_string_value(json_array_get(command, 0)), *base;

	if (!prog) {
		return NULL;
	}
	base = strrchr(prog, '/');
	base = base ? base + 1 : prog;
	if (!strcmp(base, "dgrdma-fpga")) {
		return "dgrdma_fpga:";
	}
	if (!strcmp(base, "dgrdma-host") || !strcmp(base, "dgrdma-ctl")) {
		return "dgrdma:";
	}
	return NULL;
}

int run_info_parse(const char *text, size_t len, struct run_info *ri, char *errbuf)
{
	struct key_rule top[MAX_RULES];
	size_t ntop = table_rules("", false, top);
	struct run_info out = *ri;
	json_t *root, *v, *converted = NULL;
	const char *format, *fmt;
	bool v1;
	char d[64];
	uint64_t u;
	size_t i;
	int ret = -DGR_E_INVAL;

	for (i = 0; i < len && strchr(" \t\r\n", text[i]) && text[i] != '\0'; i++) {
	}
	if (i == len) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "empty (no JSON in it)");
	}
	root = load_object(text, len, errbuf);
	if (!root) {
		return -DGR_E_INVAL;
	}
	/* the messages name the format the file says it has, else the first */
	v = json_object_get(root, "format");
	fmt = json_is_string(v) && !strcmp(json_string_value(v), RUN_INFO_FORMAT)
		  ? RUN_INFO_FORMAT
		  : RUN_INFO_FORMAT_1;
	v1 = strcmp(fmt, RUN_INFO_FORMAT) != 0;
	if (check_keys(root, "", top, ntop, fmt, errbuf) < 0) {
		goto end;
	}
	format = json_string_value(json_object_get(root, "format"));
	if (strcmp(format, RUN_INFO_FORMAT) != 0 && strcmp(format, RUN_INFO_FORMAT_1) != 0) {
		dgr_errbuf_set(errbuf, DGR_E_INVAL,
			       "format: '%.60s' is not %s or %s (the formats this latency-report "
			       "reads)",
			       format, RUN_INFO_FORMAT, RUN_INFO_FORMAT_1);
		goto end;
	}
	if (v1 && json_object_get(root, "settings")) {
		dgr_errbuf_set(errbuf, DGR_E_INVAL,
			       "settings: unknown key (not in the %s top level; %s has it)",
			       RUN_INFO_FORMAT_1, RUN_INFO_FORMAT);
		goto end;
	}
	v = json_object_get(root, "command_pid");
	if (v && !json_is_null(v)) {
		if (get_whole(v, "command_pid", 1, 4194304, &u, errbuf)) {
			goto end;
		}
		out.command_pid = (uint32_t)u;
	}
	v = json_object_get(root, "exit_status");
	if (v && get_whole(v, "exit_status", 0, 255, &u, errbuf)) {
		goto end;
	}
	if (v && !out.exit_known) {
		out.exit_known = true;
		out.exit_status = (int64_t)u;
	}
	v = json_object_get(root, "interrupted");
	out.interrupted = out.interrupted || json_is_true(v);
	out.incident = out.incident || json_is_object(json_object_get(root, "incident"));
	v = json_object_get(root, "warnings");
	for (i = 0; v && i < json_array_size(v); i++) {
		if (!json_is_string(json_array_get(v, i))) {
			dgr_errbuf_set(errbuf, DGR_E_INVAL, "warnings[%zu]: %s, expected a string",
				       i, run_json_describe(json_array_get(v, i), d, sizeof(d)));
			goto end;
		}
	}
	if ((v = json_object_get(root, "clocks")) && check_clocks(v, fmt, errbuf)) {
		goto end;
	}
	/* host.kernel: the recorded machine's release (a string in the schema; format 1 not held)
	 */
	v = json_object_get(json_object_get(root, "host"), "kernel");
	snprintf(out.host_kernel, sizeof(out.host_kernel), "%s",
		 json_is_string(v) ? json_string_value(v) : "");
	v = json_object_get(root, "clocks");
	out.realtime_start_ns = pair_ns(v ? json_object_get(v, "start") : NULL, "realtime");
	out.realtime_end_ns = pair_ns(v ? json_object_get(v, "end") : NULL, "realtime");
	realtime_moved(v, &out);
	if (read_part(root, "capture", &out.capture, errbuf) ||
	    read_part(root, "trace", &out.trace, errbuf) ||
	    read_part(root, "kernel", &out.kernel, errbuf)) {
		goto end;
	}
	if ((v = json_object_get(root, "losses")) && !json_is_null(v) &&
	    read_losses(v, &out, fmt, errbuf)) {
		goto end;
	}
	/* the stream's facts first (dgrdma-capture's own options), then the tool's settings */
	if ((v = json_object_get(root, "stream")) && read_stream(v, &out, fmt, errbuf)) {
		goto end;
	}
	if (check_command(json_object_get(root, "command"), errbuf) < 0) {
		goto end;
	}
	/*
	 * every other field run.json's table knows, where a format-2 file has it (format 1's
	 * writers are older than the table: their recording's facts were never checked)
	 */
	if (!v1 && run_schema_check(root, false, errbuf) < 0) {
		goto end;
	}
	if (v1) {
		/* the one conversion step: format 1 recorded no settings, only argv */
		if (run_info_v1_settings(json_object_get(root, "command"), &converted, errbuf) <
		    0) {
			goto end;
		}
		v = converted;
	} else {
		v = json_object_get(root, "settings");
	}
	out.command_provider = NULL;
	out.path = RUN_PATH_UNKNOWN;
	if (v && !json_is_null(v) && read_settings(v, &out, errbuf) < 0) {
		goto end;
	}
	if (!out.command_provider && (!v || json_is_null(v))) {
		/* no settings (no --summary-json): the program recorded still says whose events */
		out.command_provider = provider_of_program(json_object_get(root, "command"));
	}
	*ri = out;
	ret = 0;
end:
	json_decref(converted);
	json_decref(root);
	return ret;
}

/*
 * Reads a whole regular file of at most RUN_INFO_MAX_FILE bytes into *text
 * (malloc'd, the caller frees) and *len. Returns 0, -DGR_E_SYS or
 * -DGR_E_NOMEM with errbuf naming path.
 */
static int load_file(const char *path, char **text, size_t *len, char *errbuf)
{
	struct stat st;
	FILE *fp = NULL;
	int ret = -DGR_E_SYS;

	*text = NULL;
	fp = fopen(path, "r");
	if (!fp) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.180s: %s", path, strerror(errno));
		goto end;
	}
	if (fstat(fileno(fp), &st) != 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.180s: %s", path, strerror(errno));
		goto end;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.180s: is a folder, not a file", path);
		goto end;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > (off_t)RUN_INFO_MAX_FILE) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.180s: not a regular file of at most %u MiB",
			 path, RUN_INFO_MAX_FILE >> 20);
		goto end;
	}
	*text = malloc((size_t)st.st_size + 1);
	if (!*text) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.180s: out of memory", path);
		ret = -DGR_E_NOMEM;
		goto end;
	}
	*len = fread(*text, 1, (size_t)st.st_size + 1, fp);
	if (ferror(fp) || *len > (size_t)st.st_size) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.180s: read error or file growing", path);
		free(*text);
		*text = NULL;
		goto end;
	}
	ret = 0;
end:
	if (fp) {
		fclose(fp);
	}
	return ret;
}

/* A parser of a whole file's text into *out (run_info_parse, fpga_counters_parse). */
typedef int (*text_parser)(const char *text, size_t len, void *out, char *errbuf);

/* Reads path whole and parses it; errbuf starts with path. Returns the parser's result. */
static int read_and_parse(const char *path, text_parser parse, void *out, char *errbuf)
{
	char msg[DGR_ERRBUF_SIZE];
	char *text;
	size_t len;
	int ret;

	ret = load_file(path, &text, &len, errbuf);
	if (ret < 0) {
		return ret;
	}
	ret = parse(text, len, out, msg);
	if (ret < 0) {
		/* a long path keeps its end, the file's name: room for the message is 190 */
		size_t pl = strlen(path);
		const char *tail = pl > 60 ? path + pl - 57 : path;

		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s%s: %.190s", tail == path ? "" : "...", tail,
			 msg);
	}
	free(text);
	return ret;
}

static int parse_run_info(const char *text, size_t len, void *out, char *errbuf)
{
	return run_info_parse(text, len, out, errbuf);
}

/* See run_info.h. */
bool run_info_facts_added(const struct run_info *before, const struct run_info *after)
{
	return before->host_buffers != after->host_buffers ||
	       before->fpga_buffers != after->fpga_buffers ||
	       before->buffer_size != after->buffer_size || before->rate_bytes != after->rate_bytes;
}

int run_info_read(const char *path, struct run_info *ri, char *errbuf)
{
	return read_and_parse(path, parse_run_info, ri, errbuf);
}

/*
 * The FPGA's counters of obj (other keys ignored) into *fc; where prefixes
 * the key in messages ("" or "losses.fpga"). Returns 0 or -DGR_E_INVAL.
 */
static int read_fpga_counters(const json_t *obj, const char *where, struct fpga_counters *fc,
			      char *errbuf)
{
	struct fpga_counters out;
	char name[96], names[160] = "";
	size_t i;

	memset(&out, 0, sizeof(out));
	for (i = 0; i < fpga_counter_count; i++) {
		const struct fpga_counter_def *d = &fpga_counter_defs[i];
		const json_t *v = json_object_get(obj, d->key);

		if (!v) {
			continue;
		}
		snprintf(name, sizeof(name), "%s%s%s", where, *where ? "." : "", d->key);
		/* 2^53: the largest count a JSON number carries exactly */
		if (get_whole(v, name, 0, 1ull << 53, (uint64_t *)((char *)&out + d->field),
			      errbuf)) {
			return -DGR_E_INVAL;
		}
		out.has_dac |= d->dac;
		out.has_adc |= !d->dac;
	}
	if (!out.has_adc && !out.has_dac) {
		for (i = 0; i < fpga_counter_count; i++) {
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? ", " : "", fpga_counter_defs[i].key);
		}
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s%snone of the FPGA's counters (%s)",
				      where, *where ? ": " : "", names);
	}
	if (out.trailing_underruns > out.num_underruns) {
		return dgr_errbuf_set(
		    errbuf, DGR_E_INVAL,
		    "%s%strailing_underruns: %" PRIu64 " is more than num_underruns %" PRIu64,
		    where, *where ? "." : "", out.trailing_underruns, out.num_underruns);
	}
	*fc = out;
	return 0;
}

int fpga_counters_parse(const char *text, size_t len, struct fpga_counters *fc, char *errbuf)
{
	json_t *root = load_object(text, len, errbuf);
	int ret;

	if (!root) {
		return -DGR_E_INVAL;
	}
	ret = read_fpga_counters(root, "", fc, errbuf);
	json_decref(root);
	return ret;
}

static int parse_fpga_counters(const char *text, size_t len, void *out, char *errbuf)
{
	return fpga_counters_parse(text, len, out, errbuf);
}

int fpga_counters_read(const char *path, struct fpga_counters *fc, char *errbuf)
{
	return read_and_parse(path, parse_fpga_counters, fc, errbuf);
}
