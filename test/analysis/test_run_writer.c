// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run.json's one writer (analysis/input/run_writer.c) against its one reader
 * (run_info.c), both on the one table of fields (run_schema.c):
 *  - the round trip: a value for every field of the table (made from the table, so a new
 *    field is covered the day it is added), written, read by the reader, and every
 *    field found again with the value given; the facts latency-report takes (struct
 *    run_info) equal to those written;
 *  - a format-1 file and the format-2 file the writer makes of the same facts read the
 *    same through the one conversion step;
 *  - each refusal names the field and what it accepts; nothing is written then.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dgrdma/wire.h>

#include "run_info.h"
#include "run_schema.h"
#include "run_writer.h"
#include "../unit/tap.h"

static char tmpdir[] = "/tmp/test_run_writer.XXXXXX";

/* A clock pair (dgrdma-clocks --json) shifted by sec seconds. */
static const char *clock_pair(char *buf, size_t len, long sec)
{
	snprintf(buf, len,
		 "{\"monotonic_sec\": %ld, \"monotonic_nsec\": 250000000, \"realtime_sec\": %ld, "
		 "\"realtime_nsec\": 500000000, \"uncertainty_ns\": 20, \"realtime_iso8601\": "
		 "\"x\"}",
		 1000 + sec, 1796343434 + sec);
	return buf;
}

/* A value of the field within its range, as JSON text; NULL for the writer's own fields. */
static const char *value_for(const struct run_field *f, char *buf, size_t len)
{
	static long clock_shift;
	double x;

	switch (f->type) {
	case RUN_F_STRING:
		if (f->choices) {
			snprintf(buf, len, "\"%s\"", f->choices[0]);
		} else {
			snprintf(buf, len, "\"value of %s\"", f->key);
		}
		return buf;
	case RUN_F_WHOLE:
		x = f->min + 7 <= f->max ? f->min + 7 : f->max;
		snprintf(buf, len, "%.0f", x);
		return buf;
	case RUN_F_NUMBER:
		snprintf(buf, len, "%.17g", f->max / 4 + 0.5);
		return buf;
	case RUN_F_BOOL:
		return "true";
	case RUN_F_STRINGS:
		return "[\"one\", \"two two\"]";
	case RUN_F_WHOLES:
		snprintf(buf, len, "[%.0f, %.0f]", f->min, f->min + 1);
		return buf;
	case RUN_F_CLOCK:
		return clock_pair(buf, len, clock_shift++);
	case RUN_F_MAP:
		return "{\"net.core.rmem_max\": \"4194304\", \"kernel.absent\": null}";
	case RUN_F_OBJECT:
	case RUN_F_TOOL_OBJECT:
		return NULL;
	}
	return NULL;
}

static int set(struct run_writer *w, const char *key, const char *json, char *err)
{
	char arg[1024];

	snprintf(arg, sizeof(arg), "%s:=%s", key, json);
	return run_writer_set(w, arg, err);
}

static json_t *value_at(json_t *root, const char *key)
{
	char part[128];
	const char *dot;

	while ((dot = strchr(key, '.'))) {
		snprintf(part, sizeof(part), "%.*s", (int)(dot - key), key);
		root = json_object_get(root, part);
		key = dot + 1;
	}
	return json_object_get(root, key);
}

/* Writes text to name in the test's folder; returns its path (buf). */
static const char *write_file(char *path, size_t len, const char *name, const char *text)
{
	FILE *fp;

	snprintf(path, len, "%s/%s", tmpdir, name);
	fp = fopen(path, "w");
	if (fp) {
		fputs(text, fp);
		fclose(fp);
	}
	return path;
}

static const char summary[] =
    "{\"status\": \"stopped\", \"samples_lost\": 12, \"drop_rate\": 0.001, "
    "\"incomplete_transactions\": 1, \"buffers_unanswered\": 0, \"counters\": "
    "{\"discontinuities\": 2, \"socket_drops\": 0, \"frames_missing\": 3, "
    "\"retransmit_giveups\": 0, \"other\": 7}, \"settings\": {\"tool\": \"dgrdma-host\", "
    "\"mode\": \"rx\", \"path\": \"rx\", \"transport\": \"udp\", \"local\": "
    "\"127.0.0.1:5000\", \"peers\": [{\"address\": \"127.0.0.1:5001\", \"peer_id\": 1}], "
    "\"host_buffers\": 8, \"fpga_buffers\": 4, \"buffer_size\": 16384}}";

/* Every field of the table, written and read back. */
static void test_round_trip(void)
{
	char err[DGR_ERRBUF_SIZE], buf[512], key[160];
	struct run_writer w;
	struct run_info ri;
	json_t *doc, *want, *got;
	const char *json, *spath;
	char *text = NULL, sbuf[256];
	size_t i, n_given = 0, n_same = 0;
	int rc;

	run_writer_init(&w, err);
	spath = write_file(sbuf, sizeof(sbuf), "summary.json", summary);
	rc = run_writer_settings_from(&w, spath, err);
	rc |= run_writer_losses_from(&w, spath, err);
	TAP_EQ_I(rc, 0, "settings and losses from a --summary-json");
	for (i = 0; i < run_field_count; i++) {
		const struct run_field *f = &run_fields[i];

		/* one of the two rates: the reader refuses both (test_refusals) */
		if ((f->flags & RUN_F_DERIVED) || !strcmp(f->key, "stream.rate_bytes")) {
			continue;
		}
		json = value_for(f, buf, sizeof(buf));
		if (!json) {
			continue;
		}
		rc = set(&w, f->key, json, err);
		if (rc < 0) {
			TAP_EQ_I(rc, 0, "%s:=%s is taken (%s)", f->key, json, err);
		}
	}
	rc = run_writer_finish(&w, &text, err);
	TAP_EQ_I(rc, 0, "a run.json with every field is written (%s)", rc ? err : "");
	if (rc < 0) {
		run_writer_free(&w);
		return;
	}
	memset(&ri, 0, sizeof(ri));
	rc = run_info_parse(text, strlen(text), &ri, err);
	TAP_EQ_I(rc, 0, "the reader takes it (%s)", rc ? err : "");

	doc = json_loads(text, 0, NULL);
	for (i = 0; i < run_field_count; i++) {
		const struct run_field *f = &run_fields[i];

		if ((f->flags & RUN_F_DERIVED) || !strcmp(f->key, "stream.rate_bytes")) {
			continue;
		}
		json = value_for(f, buf, sizeof(buf));
		if (!json) {
			continue;
		}
		/* incident.at and the clocks: value_for shifts each pair; the order is the table's
		 */
		want = json_loads(json, JSON_DECODE_ANY, NULL);
		got = value_at(doc, f->key);
		n_given++;
		if (f->type == RUN_F_CLOCK || json_equal(want, got)) {
			n_same++;
		} else {
			char *g = got ? json_dumps(got, JSON_ENCODE_ANY) : NULL;

			snprintf(key, sizeof(key), "%s", f->key);
			tap_ok(0, "%s: written %s, read back %s", key, json, g ? g : "(absent)");
			free(g);
		}
		json_decref(want);
	}
	TAP_EQ_U(n_same, n_given, "every one of the %zu fields given is read back with its value",
		 n_given);
	TAP_EQ_I(json_is_object(value_at(doc, "clocks.start")) &&
		     json_is_object(value_at(doc, "incident.at")),
		 1, "the clock pairs are there");
	TAP_EQ_I(json_integer_value(value_at(doc, "clocks.duration_ns")), 1000000000,
		 "clocks.duration_ns: end - start, computed by the writer");
	TAP_EQ_S(json_string_value(value_at(doc, "format")), RUN_INFO_FORMAT,
		 "format: the writer's own");
	TAP_EQ_S(json_string_value(value_at(doc, "settings.local")), "127.0.0.1:5000",
		 "settings: the summary's, as is");
	TAP_EQ_U(json_integer_value(value_at(doc, "losses.host.frames_missing")), 3,
		 "losses.host: the summary's counters picked");
	TAP_EQ_I(value_at(doc, "losses.host.other") == NULL, 1,
		 "losses.host: a counter latency-report does not show is left out");

	/* the facts latency-report takes, as the struct has them */
	TAP_EQ_U(ri.command_pid, 8, "command_pid read back");
	TAP_EQ_I(ri.exit_known && ri.exit_status == 7, 1, "exit_status read back");
	TAP_EQ_I(ri.interrupted, 1, "interrupted read back");
	TAP_EQ_I(ri.incident, 1, "incident read back");
	TAP_EQ_S(ri.capture.path, "value of capture.path", "capture.path read back");
	TAP_EQ_S(ri.trace.path, "value of trace.path", "trace.path read back");
	TAP_EQ_I(ri.trace.unreadable, 0, "trace.readable true read back");
	TAP_EQ_S(ri.trace.lost, "value of trace.lost", "trace.lost read back");
	TAP_EQ_S(ri.capture.lost, "value of capture.lost", "capture.lost read back");
	TAP_EQ_S(ri.kernel.lost, "value of kernel.lost", "kernel.lost read back");
	TAP_EQ_U(ri.trace.n_trace_pids, 2, "trace.trace_pids read back");
	TAP_EQ_U(ri.trace.trace_pids[1], 2, "trace.trace_pids[1] read back");
	TAP_EQ_S(ri.kernel.path, "value of kernel.path", "kernel.path read back");
	TAP_EQ_U(ri.realtime_start_ns, 1796343434500000000ull, "clocks.start read back");
	TAP_EQ_U(ri.realtime_end_ns, 1796343435500000000ull, "clocks.end read back");
	TAP_EQ_U(ri.host_buffers, 8, "stream.host_buffers read back");
	TAP_EQ_U(ri.fpga_buffers, 7, "stream.fpga_buffers read back (before the settings')");
	TAP_EQ_U(ri.buffer_size, 8, "stream.buffer_size read back");
	TAP_EQ_U(ri.rate_bytes, (uint64_t)((RUN_INFO_MAX_RATE / 4 + 0.5) * 4),
		 "stream.sample_rate read back");
	TAP_EQ_I(ri.path, RUN_PATH_RX, "settings.path read back");
	TAP_EQ_S(ri.host_addr, "127.0.0.1:5000", "settings.local: the host's address");
	TAP_EQ_I(ri.host_summary_known && ri.host_samples_lost == 12, 1,
		 "losses.host.samples_lost read back");
	TAP_EQ_S(ri.host_status, "stopped", "losses.host.status read back");
	json_decref(doc);
	free(text);
	run_writer_free(&w);
}

/* --update: an incident's settings added to its run.json, nothing else changed. */
static void test_update(void)
{
	char err[DGR_ERRBUF_SIZE], pair[256], pbuf[256], sbuf[256];
	struct run_writer w;
	char *text = NULL, *again = NULL;
	const char *path, *spath;
	json_t *a, *b;
	int rc;

	run_writer_init(&w, err);
	set(&w, "command", "[\"dgrdma-host\", \"rx\"]", err);
	set(&w, "incident.at", clock_pair(pair, sizeof(pair), 5), err);
	set(&w, "incident.number", "1", err);
	set(&w, "incident.trigger", "\"SIGUSR1\"", err);
	set(&w, "incident.seconds_before", "2", err);
	set(&w, "incident.seconds_after", "0", err);
	set(&w, "clocks.end", clock_pair(pair, sizeof(pair), 6), err);
	set(&w, "settings", "null", err);
	rc = run_writer_finish(&w, &text, err);
	TAP_EQ_I(rc, 0, "an incident's run.json (%s)", rc ? err : "");
	run_writer_free(&w);
	if (rc < 0) {
		return;
	}
	a = json_loads(text, 0, NULL);
	TAP_EQ_U(json_integer_value(value_at(a, "clocks.start.realtime_sec")), 1796343434 + 5 - 2,
		 "its clocks.start: incident.at less seconds_before");
	TAP_EQ_S(json_string_value(value_at(a, "clocks.start.realtime_iso8601")),
		 "2026-12-04T00:17:17Z", "its ISO time to the second");
	TAP_EQ_U(json_integer_value(value_at(a, "clocks.duration_ns")), 3000000000ull,
		 "its duration: the window, seconds_before included");

	path = write_file(pbuf, sizeof(pbuf), "incident.json", text);
	spath = write_file(sbuf, sizeof(sbuf), "summary2.json", summary);
	run_writer_init(&w, err);
	rc = run_writer_load(&w, path, err);
	rc |= run_writer_settings_from(&w, spath, err);
	rc |= run_writer_finish(&w, &again, err);
	TAP_EQ_I(rc, 0, "--update with the command's settings (%s)", rc ? err : "");
	run_writer_free(&w);
	b = again ? json_loads(again, 0, NULL) : NULL;
	TAP_EQ_S(json_string_value(value_at(b, "settings.tool")), "dgrdma-host",
		 "the settings are added");
	json_object_del(b, "settings");
	json_object_del(a, "settings");
	TAP_EQ_I(json_equal(a, b), 1, "every other field is unchanged");
	json_decref(a);
	json_decref(b);
	free(text);
	free(again);
}

/* Format 1's command line and format 2's settings of the same run read the same. */
static void test_format1(void)
{
	static const char v1[] =
	    "{\"format\": \"dgrdma-run/1\", \"command\": [\"dgrdma-host\", \"rx\", \"--udp\", "
	    "\"--bind\", \"127.0.0.1:5000\", \"--peer\", \"127.0.0.1:5001\", \"--buffers\", "
	    "\"8\", \"--fpga-buffers\", \"4\", \"--buffer-size\", \"16384\"], \"stream\": "
	    "{\"sample_rate\": 1000000}, \"capture\": {\"path\": \"capture.pcapng\", "
	    "\"snaplen\": 0}}";
	char err[DGR_ERRBUF_SIZE], sbuf[256];
	struct run_info r1, r2;
	struct run_writer w;
	const char *spath;
	char *text = NULL;
	int rc;

	memset(&r1, 0, sizeof(r1));
	memset(&r2, 0, sizeof(r2));
	rc = run_info_parse(v1, strlen(v1), &r1, err);
	TAP_EQ_I(rc, 0, "format 1: read through the conversion step (%s)", rc ? err : "");
	run_writer_init(&w, err);
	spath = write_file(sbuf, sizeof(sbuf), "summary3.json", summary);
	set(&w, "command", "[\"dgrdma-host\", \"rx\"]", err);
	run_writer_set(&w, "stream.sample_rate=1000000", err);
	run_writer_set(&w, "capture.path=capture.pcapng", err);
	run_writer_set(&w, "capture.snaplen=0", err);
	rc = run_writer_settings_from(&w, spath, err);
	rc |= run_writer_finish(&w, &text, err);
	TAP_EQ_I(rc, 0, "format 2 of the same facts written (%s)", rc ? err : "");
	rc = text ? run_info_parse(text, strlen(text), &r2, err) : -1;
	TAP_EQ_I(rc, 0, "and read");
	TAP_EQ_U(r2.host_buffers, r1.host_buffers, "host buffers alike (%lu)",
		 (unsigned long)r1.host_buffers);
	TAP_EQ_U(r2.fpga_buffers, r1.fpga_buffers, "FPGA buffers alike");
	TAP_EQ_U(r2.buffer_size, r1.buffer_size, "buffer size alike");
	TAP_EQ_U(r2.rate_bytes, r1.rate_bytes, "rate alike");
	TAP_EQ_I(r2.path, r1.path, "path alike");
	TAP_EQ_S(r2.host_addr, r1.host_addr, "host address alike");
	TAP_EQ_U(r2.n_udp_ports, r1.n_udp_ports, "UDP ports alike");
	TAP_EQ_S(r2.command_provider, r1.command_provider, "tracepoint provider alike");
	TAP_EQ_S(r2.capture.path, r1.capture.path, "capture path alike");
	free(text);
	run_writer_free(&w);
}

/* The writer takes ARG and refuses at finish with MSG, or refuses ARG itself with MSG. */
static void refused(const char *const *args, const char *msg)
{
	char err[DGR_ERRBUF_SIZE] = "";
	struct run_writer w;
	char *text = NULL;
	int rc = 0;
	size_t i;

	run_writer_init(&w, err);
	run_writer_set(&w, "command=x", err);
	for (i = 0; args[i] && rc == 0; i++) {
		rc = run_writer_set(&w, args[i], err);
	}
	if (rc == 0) {
		rc = run_writer_finish(&w, &text, err);
	}
	TAP_EQ_I(rc, -DGR_E_INVAL, "%s: refused", args[0]);
	TAP_EQ_S(err, msg, "%s: the message names the field and what it accepts", args[0]);
	TAP_EQ_I(text == NULL, 1, "%s: nothing to write", args[0]);
	free(text);
	run_writer_free(&w);
}

static void test_refusals(void)
{
#define REFUSED(msg, ...)                                                                          \
	do {                                                                                       \
		static const char *const a[] = { __VA_ARGS__, NULL };                              \
		refused(a, msg);                                                                   \
	} while (0)
	REFUSED("exit_status: 256 is out of range (accepted: a whole number 0..255)",
		"exit_status=256");
	REFUSED("trace.subbuf_size: a string, expected a whole number 1..9007199254740992",
		"trace.subbuf_size:=\"4096\"");
	REFUSED("trace.sessiond: 'maybe' is not one of 'reused', 'started, kept', 'started, "
		"stopped'",
		"trace.sessiond=maybe");
	REFUSED("stream.sample_rate: 0 is out of range (accepted: a number in (0, 1000000000000])",
		"stream.sample_rate=0");
	REFUSED("trace.bogus: not a field of run.json (dgrdma-runinfo fields lists them)",
		"trace.bogus=1");
	REFUSED("clocks.duration_ns: computed by the writer, not given", "clocks.duration_ns=5");
	REFUSED("trace.path: missing (run.json has it whenever trace is written)",
		"trace.session=s");
	REFUSED("trace.bogus: unknown key (not in trace)",
		"trace:={\"path\": \"t\", \"bogus\": 1}");
	REFUSED("clocks.start.monotonic_nsec: 1000000000 is out of range (accepted: a whole "
		"number 0..999999999)",
		"clocks.start:={\"monotonic_sec\": 1, \"monotonic_nsec\": 1000000000, "
		"\"realtime_sec\": 1, \"realtime_nsec\": 0, \"uncertainty_ns\": 0}");
	REFUSED("stream: both rate_bytes and sample_rate (give one)", "stream.sample_rate=1",
		"stream.rate_bytes=4");
	REFUSED("settings.path: 'up' is not rx or tx", "settings:={\"path\": \"up\"}");
	REFUSED("trace.trace_pids: 5000000 is out of range (accepted: a whole number 1..4194304)",
		"trace.path=t", "trace.trace_pids=5000000");
	REFUSED("command_pid: '12x' is not JSON (end of file expected near 'x')",
		"command_pid=12x");
#undef REFUSED
}

/* The reader checks a format-2 file's recording facts with the table; format 1's are older. */
static void test_reader_checks(void)
{
	static const char v2[] = "{\"format\": \"dgrdma-run/2\", \"command\": [\"x\"], "
				 "\"trace\": {\"path\": \"trace\", \"sessiond\": \"maybe\"}}";
	static const char v1[] = "{\"format\": \"dgrdma-run/1\", \"command\": [\"x\"], "
				 "\"trace\": {\"path\": \"trace\", \"sessiond\": \"maybe\"}}";
	static const char extra[] = "{\"format\": \"dgrdma-run/2\", \"command\": [\"x\"], "
				    "\"capture\": {\"path\": \"c\", \"snaplen\": -1}}";
	char err[DGR_ERRBUF_SIZE] = "";
	struct run_info ri;
	int rc;

	memset(&ri, 0, sizeof(ri));
	rc = run_info_parse(v2, strlen(v2), &ri, err);
	TAP_EQ_I(rc, -DGR_E_INVAL,
		 "reader, format 2: a value the table does not accept is refused");
	TAP_EQ_S(err,
		 "trace.sessiond: 'maybe' is not one of 'reused', 'started, kept', 'started, "
		 "stopped'",
		 "reader, format 2: the message is the writer's");
	rc = run_info_parse(extra, strlen(extra), &ri, err);
	TAP_EQ_S(err, "capture.snaplen: -1 is out of range (accepted: a whole number 0..262144)",
		 "reader, format 2: a range of the table");
	memset(&ri, 0, sizeof(ri));
	rc = run_info_parse(v1, strlen(v1), &ri, err);
	TAP_EQ_I(rc, 0, "reader, format 1: the recording's facts of older writers are not checked");
}

/* What a string, a null and an omitted fact look like written. */
static void test_values(void)
{
	char err[DGR_ERRBUF_SIZE];
	struct run_writer w;
	char *text = NULL;
	json_t *doc;
	int rc;

	run_writer_init(&w, err);
	run_writer_set(&w, "command=\xff-x", err);
	run_writer_set(&w, "command=--a=b", err);
	run_writer_set(&w, "exit_signal=", err);
	run_writer_set(&w, "trace.path=", err);
	run_writer_set(&w, "capture.filter=", err);
	run_writer_set(&w, "capture.path=p", err);
	run_writer_set(&w, "stream:={}", err);
	run_writer_set(&w, "stream.sample_rate=null", err);
	run_writer_set(&w, "stream.fpga_buffers=8", err);
	run_writer_set(&w, "warnings:=[]", err);
	run_writer_set(&w, "host.sysctls.net.core.busy_poll:=null", err);
	rc = run_writer_finish(&w, &text, err);
	TAP_EQ_I(rc, 0, "written (%s)", rc ? err : "");
	doc = text ? json_loads(text, 0, NULL) : NULL;
	TAP_EQ_S(json_string_value(json_array_get(json_object_get(doc, "command"), 0)),
		 "\xef\xbf\xbd-x", "a byte that is not UTF-8 becomes U+FFFD");
	TAP_EQ_S(json_string_value(json_array_get(json_object_get(doc, "command"), 1)), "--a=b",
		 "an argument with = is kept whole");
	TAP_EQ_I(json_is_null(json_object_get(doc, "exit_signal")), 1, "exit_signal \"\" is null");
	TAP_EQ_I(json_is_null(value_at(doc, "trace.path")), 1,
		 "trace.path \"\" is null (a trace sent to a given relayd)");
	TAP_EQ_S(json_string_value(value_at(doc, "capture.filter")), "",
		 "capture.filter \"\" stays a string");
	TAP_EQ_I(value_at(doc, "stream.sample_rate") == NULL, 1, "a null stream fact is left out");
	TAP_EQ_U(json_integer_value(value_at(doc, "stream.fpga_buffers")), 8, "a stream fact");
	TAP_EQ_I(json_is_array(json_object_get(doc, "warnings")) &&
		     json_array_size(json_object_get(doc, "warnings")) == 0,
		 1, "warnings:=[] is an empty array");
	TAP_EQ_I(json_is_null(json_object_get(value_at(doc, "host.sysctls"), "net.core.busy_poll")),
		 1, "a map entry with dots in its name, null");
	json_decref(doc);
	free(text);
	run_writer_free(&w);
}

static void cleanup(void)
{
	static const char *const names[] = { "summary.json", "incident.json", "summary2.json",
					     "summary3.json" };
	char path[256];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", tmpdir, names[i]);
		unlink(path);
	}
	rmdir(tmpdir);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_round_trip();
	test_update();
	test_format1();
	test_refusals();
	test_reader_checks();
	test_values();
	cleanup();
	return tap_done();
}
