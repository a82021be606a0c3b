// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run.json's writer (see run_writer.h). The document is a jansson tree; each value is
 * checked against run.json's table (run_schema.c) as it is set, and the finished text
 * goes through the reader (run_info.c) before anyone writes it.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dgrdma/wire.h>

#include "run_info.h"
#include "run_schema.h"
#include "run_writer.h"

#define KEY_LEN 256

int run_writer_init(struct run_writer *w, char *errbuf)
{
	w->root = json_object();
	if (!w->root) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	return 0;
}

int run_writer_load(struct run_writer *w, const char *path, char *errbuf)
{
	struct run_info ri;
	json_error_t jerr;
	json_t *root, *format;
	int ret;

	memset(&ri, 0, sizeof(ri));
	ret = run_info_read(path, &ri, errbuf);
	if (ret < 0) {
		return ret;
	}
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		return dgr_errbuf_set(errbuf, DGR_E_SYS, "%.180s: %s", path, jerr.text);
	}
	format = json_object_get(root, "format");
	if (strcmp(json_string_value(format), RUN_INFO_FORMAT) != 0) {
		json_decref(root);
		return dgr_errbuf_set(
		    errbuf, DGR_E_INVAL,
		    "%.180s: format: '%s' is not %s (the format this writer writes)", path,
		    json_string_value(format), RUN_INFO_FORMAT);
	}
	json_decref(w->root);
	w->root = root;
	return 0;
}

void run_writer_free(struct run_writer *w)
{
	json_decref(w->root);
	w->root = NULL;
}

/*
 * The object that holds field f's value (its parent's, made when absent or null), or
 * NULL when out of memory.
 */
static json_t *holder(struct run_writer *w, const struct run_field *f)
{
	const struct run_field *parent = run_field_parent(f);
	json_t *up, *obj;
	const char *name;

	if (!parent) {
		return w->root;
	}
	up = holder(w, parent);
	if (!up) {
		return NULL;
	}
	name = strrchr(parent->key, '.');
	name = name ? name + 1 : parent->key;
	obj = json_object_get(up, name);
	if (json_is_object(obj)) {
		return obj;
	}
	obj = json_object();
	if (!obj || json_object_set_new(up, name, obj) < 0) {
		return NULL;
	}
	return obj;
}

/*
 * A string of text with every byte that is not part of valid UTF-8 replaced by U+FFFD
 * (as jq's --arg did): argv is bytes, JSON is UTF-8.
 */
static json_t *utf8_string(const char *text)
{
	size_t n = strlen(text), i = 0, o = 0, k, len;
	unsigned char c;
	json_t *s = json_string(text);
	char *buf;

	if (s) {
		return s;
	}
	buf = malloc(n * 3 + 1);
	if (!buf) {
		return NULL;
	}
	while (i < n) {
		c = (unsigned char)text[i];
		len = c < 0x80	       ? 1
		      : (c >> 5) == 6  ? 2
		      : (c >> 4) == 14 ? 3
		      : (c >> 3) == 30 ? 4
				       : 0;
		for (k = 1; len && k < len; k++) {
			if (i + k >= n || ((unsigned char)text[i + k] >> 6) != 2) {
				len = 0;
			}
		}
		if (len) {
			char one[5];

			memcpy(one, text + i, len);
			one[len] = '\0';
			s = json_string(one);
			if (s) {
				json_decref(s);
				memcpy(buf + o, one, len);
				o += len;
				i += len;
				continue;
			}
		}
		memcpy(buf + o, "\xef\xbf\xbd", 3);
		o += 3;
		i++;
	}
	buf[o] = '\0';
	s = json_string(buf);
	free(buf);
	return s;
}

/* JSON text as a value (any type), or NULL with errbuf naming key. */
static json_t *parse_json(const char *key, const char *text, char *errbuf)
{
	json_error_t jerr;
	json_t *v = json_loads(text, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &jerr);

	if (!v) {
		dgr_errbuf_set(errbuf, DGR_E_INVAL, "%.100s: '%.40s' is not JSON (%s)", key, text,
			       jerr.text);
	}
	return v;
}

int run_writer_set(struct run_writer *w, const char *assignment, char *errbuf)
{
	const char *eq = strchr(assignment, '='), *text, *entry, *name;
	const struct run_field *f;
	char key[KEY_LEN];
	bool json, append;
	json_t *v = NULL, *obj, *arr;
	size_t klen;
	int ret = -DGR_E_INVAL;

	if (!eq || eq == assignment) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "'%.60s': expected KEY=TEXT or KEY:=JSON", assignment);
	}
	json = eq[-1] == ':';
	klen = (size_t)(eq - assignment) - (json ? 1 : 0);
	text = eq + 1;
	if (klen == 0 || klen >= sizeof(key)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "'%.60s': expected KEY=TEXT or KEY:=JSON", assignment);
	}
	memcpy(key, assignment, klen);
	key[klen] = '\0';
	f = run_field_find(key, &entry);
	if (!f) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "%.100s: not a field of run.json (dgrdma-runinfo fields "
				      "lists them)",
				      key);
	}
	if (f->flags & RUN_F_DERIVED) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "%.100s: computed by the writer, not given", key);
	}
	append = !json && !entry && (f->type == RUN_F_STRINGS || f->type == RUN_F_WHOLES);
	if (json) {
		v = parse_json(key, text, errbuf);
	} else if (entry || f->type == RUN_F_STRING || f->type == RUN_F_STRINGS) {
		v = (f->flags & RUN_F_EMPTY_NULL) && !*text ? json_null() : utf8_string(text);
		if (!v) {
			dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
			ret = -DGR_E_NOMEM;
		}
	} else {
		v = parse_json(key, text, errbuf);
	}
	if (!v) {
		goto end;
	}
	if (entry) {
		/* one entry of a map: a string or null */
		if (!json_is_string(v) && !json_is_null(v)) {
			char d[64];

			dgr_errbuf_set(errbuf, DGR_E_INVAL, "%.100s: %s, expected a string or null",
				       key, run_json_describe(v, d, sizeof(d)));
			goto end;
		}
	} else if (run_field_check(f, v, key, append, errbuf) < 0) {
		goto end;
	}
	if ((f->flags & RUN_F_OMIT_NULL) && json_is_null(v)) {
		obj = holder(w, f);
		name = strrchr(f->key, '.');
		if (obj) {
			json_object_del(obj, name ? name + 1 : f->key);
		}
		ret = obj ? 0 : -DGR_E_NOMEM;
		goto end;
	}
	obj = holder(w, f);
	if (entry && obj) {
		json_t *map = json_object_get(obj, strrchr(f->key, '.') + 1);

		if (!json_is_object(map)) {
			map = json_object();
			if (map && json_object_set_new(obj, strrchr(f->key, '.') + 1, map) < 0) {
				map = NULL;
			}
		}
		obj = map;
		name = entry;
	} else {
		name = strrchr(f->key, '.');
		name = name ? name + 1 : f->key;
	}
	if (!obj) {
		ret = dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
		goto end;
	}
	if (append) {
		arr = json_object_get(obj, name);
		if (!json_is_array(arr)) {
			arr = json_array();
			if (!arr || json_object_set_new(obj, name, arr) < 0) {
				ret = dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
				goto end;
			}
		}
		ret = json_array_append(arr, v) < 0 ? -DGR_E_NOMEM : 0;
	} else {
		ret = json_object_set(obj, name, v) < 0 ? -DGR_E_NOMEM : 0;
	}
	if (ret < 0) {
		dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
end:
	json_decref(v);
	return ret;
}

/* The JSON object of the file at path, or NULL (no path, unreadable, not an object). */
static json_t *load_summary(const char *path)
{
	json_error_t jerr;
	json_t *v;

	if (!path || !*path) {
		return NULL;
	}
	v = json_load_file(path, 0, &jerr);
	if (v && !json_is_object(v)) {
		json_decref(v);
		v = NULL;
	}
	return v;
}

/* Sets a top-level field of the table to v (stolen; NULL is out of memory). */
static int set_top(struct run_writer *w, const char *key, json_t *v, char *errbuf)
{
	if (!v || json_object_set_new(w->root, key, v) < 0) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	return 0;
}

int run_writer_settings_from(struct run_writer *w, const char *path, char *errbuf)
{
	json_t *summary = load_summary(path), *s;
	int ret;

	s = json_object_get(summary, "settings");
	ret = set_top(w, "settings", json_is_object(s) ? json_incref(s) : json_null(), errbuf);
	json_decref(summary);
	return ret;
}

/* Copies the keys of names that from holds (and are not null) into to. */
static int pick(json_t *to, const json_t *from, const char *const *names)
{
	const json_t *v;
	size_t i;

	for (i = 0; names[i]; i++) {
		v = json_object_get(from, names[i]);
		if (v && !json_is_null(v) && json_object_set(to, names[i], (json_t *)v) < 0) {
			return -DGR_E_NOMEM;
		}
	}
	return 0;
}

int run_writer_losses_from(struct run_writer *w, const char *path, char *errbuf)
{
	static const char *const host_keys[] = { "status",
						 "samples_lost",
						 "drop_rate",
						 "incomplete_transactions",
						 "buffers_unanswered",
						 NULL };
	static const char *const counter_keys[] = { "discontinuities", "socket_drops",
						    "frames_missing", "retransmit_giveups", NULL };
	static const char *const fpga_keys[] = { "num_dropped_samps",
						 "dropped_samples",
						 "dropped_open",
						 "num_underruns",
						 "underrun_periods",
						 "trailing_underruns",
						 NULL };
	json_t *summary = load_summary(path), *losses = NULL, *part = NULL;
	const json_t *counters;
	int ret = -DGR_E_NOMEM;

	if (!summary) {
		ret = set_top(w, "losses", json_null(), errbuf);
		goto end;
	}
	losses = json_pack("{s:s}", "summary", path);
	if (!losses) {
		goto end;
	}
	if (json_object_get(summary, "samples_lost")) {
		part = json_object();
		counters = json_object_get(summary, "counters");
		if (!part || pick(part, summary, host_keys) < 0 ||
		    (json_is_object(counters) && pick(part, counters, counter_keys) < 0) ||
		    json_object_set(losses, "host", part) < 0) {
			goto end;
		}
	}
	if (json_object_get(summary, "num_dropped_samps") ||
	    json_object_get(summary, "num_underruns")) {
		json_decref(part);
		part = json_object();
		if (!part || pick(part, summary, fpga_keys) < 0 ||
		    json_object_set(losses, "fpga", part) < 0) {
			goto end;
		}
	}
	ret = set_top(w, "losses", losses, errbuf);
	losses = NULL;
end:
	if (ret == -DGR_E_NOMEM) {
		dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	json_decref(part);
	json_decref(losses);
	json_decref(summary);
	return ret;
}

/* v's whole number (checked by the table: an integer). */
static json_int_t whole(const json_t *pair, const char *key)
{
	return json_integer_value(json_object_get(pair, key));
}

/*
 * An incident's window starts seconds_before its trigger: clocks.start is incident.at
 * moved that much earlier, its ISO time to the second (as dgrdma-capture wrote it).
 */
static int incident_start(struct run_writer *w, json_t *clocks, char *errbuf)
{
	const json_t *incident = json_object_get(w->root, "incident");
	const json_t *at = json_object_get(incident, "at");
	const json_t *before = json_object_get(incident, "seconds_before");
	json_t *start;
	char iso[40] = "";
	struct tm tm;
	time_t secs;

	if (!json_is_object(at) || !json_is_integer(before) || json_object_get(clocks, "start")) {
		return 0;
	}
	start = json_deep_copy(at);
	if (!start) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	json_object_set_new(start, "monotonic_sec",
			    json_integer(whole(at, "monotonic_sec") - json_integer_value(before)));
	json_object_set_new(start, "realtime_sec",
			    json_integer(whole(at, "realtime_sec") - json_integer_value(before)));
	secs = (time_t)whole(start, "realtime_sec");
	if (gmtime_r(&secs, &tm)) {
		strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
	json_object_set_new(start, "realtime_iso8601", json_string(iso));
	if (json_object_set_new(clocks, "start", start) < 0) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	return 0;
}

/* clocks.duration_ns: end - start on the monotonic clock, null without both. */
static int duration(json_t *clocks, char *errbuf)
{
	const json_t *start = json_object_get(clocks, "start"),
		     *end = json_object_get(clocks, "end");
	json_t *v;

	if (json_is_object(start) && json_is_object(end)) {
		v = json_integer((whole(end, "monotonic_sec") - whole(start, "monotonic_sec")) *
				     1000000000 +
				 whole(end, "monotonic_nsec") - whole(start, "monotonic_nsec"));
	} else {
		v = json_null();
	}
	if (!v || json_object_set_new(clocks, "duration_ns", v) < 0) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	return 0;
}

/*
 * A copy of obj (the object of the table's field parent, NULL the top level) with its
 * keys in the table's order, the objects below it likewise; a map's entries and a
 * tool's object keep theirs. Keys the table does not know come last (the check refuses
 * them). NULL when out of memory.
 */
static json_t *ordered(const json_t *obj, const struct run_field *parent)
{
	json_t *out = json_object(), *v;
	const char *key;
	size_t i, plen = parent ? strlen(parent->key) : 0;

	if (!out) {
		return NULL;
	}
	for (i = 0; i < run_field_count; i++) {
		const struct run_field *f = &run_fields[i];
		const char *name = parent ? f->key + plen + 1 : f->key;

		if (run_field_parent(f) != parent) {
			continue;
		}
		v = json_object_get(obj, name);
		if (!v) {
			continue;
		}
		v = f->type == RUN_F_OBJECT && json_is_object(v) ? ordered(v, f) : json_incref(v);
		if (!v || json_object_set_new(out, name, v) < 0) {
			goto fail;
		}
	}
	json_object_foreach((json_t *)obj, key, v)
	{
		if (!json_object_get(out, key) && json_object_set(out, key, v) < 0) {
			goto fail;
		}
	}
	return out;
fail:
	json_decref(out);
	return NULL;
}

/* Every required field of every object written (and at the top level) is there. */
static int check_required(const json_t *root, char *errbuf)
{
	size_t i;

	for (i = 0; i < run_field_count; i++) {
		const struct run_field *f = &run_fields[i], *parent = run_field_parent(f);
		const struct run_field *p = parent;
		const json_t *obj = root;
		const char *name = f->key;

		if (!(f->flags & RUN_F_REQUIRED)) {
			continue;
		}
		if (p) {
			/* the parent's own value, found through the fields above it */
			const struct run_field *chain[8];
			size_t n = 0;

			for (; p && n < 8; p = run_field_parent(p)) {
				chain[n++] = p;
			}
			while (n > 0 && json_is_object(obj)) {
				const char *pk = strrchr(chain[n - 1]->key, '.');

				obj = json_object_get(obj, pk ? pk + 1 : chain[n - 1]->key);
				n--;
			}
			if (!json_is_object(obj)) {
				continue;
			}
			name = strrchr(f->key, '.') + 1;
		}
		if (!json_object_get(obj, name)) {
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL,
			    "%s: missing (run.json has it whenever %s is written)", f->key,
			    parent ? parent->key : "it");
		}
	}
	return 0;
}

int run_writer_finish(struct run_writer *w, char **text, char *errbuf)
{
	struct run_info ri;
	json_t *out = NULL, *clocks;
	char msg[DGR_ERRBUF_SIZE];
	int ret;

	*text = NULL;
	if (json_object_set_new(w->root, "format", json_string(RUN_INFO_FORMAT)) < 0) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	clocks = json_object_get(w->root, "clocks");
	if (!clocks && json_object_get(w->root, "incident")) {
		clocks = json_object();
		if (!clocks || json_object_set_new(w->root, "clocks", clocks) < 0) {
			return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
		}
	}
	if (json_is_object(clocks) && ((ret = incident_start(w, clocks, errbuf)) < 0 ||
				       (ret = duration(clocks, errbuf)) < 0)) {
		return ret;
	}
	ret = check_required(w->root, errbuf);
	if (ret < 0) {
		return ret;
	}
	ret = run_schema_check(w->root, true, errbuf);
	if (ret < 0) {
		return ret;
	}
	out = ordered(w->root, NULL);
	*text = out ? json_dumps(out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	json_decref(out);
	if (!*text) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	/* what latency-report reads: the reader's own checks (settings, losses, the facts) */
	memset(&ri, 0, sizeof(ri));
	ret = run_info_parse(*text, strlen(*text), &ri, msg);
	if (ret < 0) {
		free(*text);
		*text = NULL;
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "%s", msg);
	}
	return 0;
}
