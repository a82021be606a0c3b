// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LTTng trace input through libbabeltrace2 (see ctf_input.h).
 *
 * The trace is checked first (ctf_check.c). Then a child process runs the
 * babeltrace2 graph and sends each event to this process over a pipe, as
 * compact records: an event class (its name and integer field names) once,
 * then per event the class id, the time and the field values. The parent
 * feeds them to the in-host analysis and watches the pipe: a child that sends
 * nothing for the stall limit (babeltrace2 looping on a damaged trace) is
 * killed, and a child that crashes takes nothing else down. The child's
 * stderr, where libbabeltrace2 logs, goes to /dev/null unless verbose.
 */
#include <babeltrace2/babeltrace.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <dgrdma/wire.h>

#include "cli.h"
#include "ctf_check.h"
#include "ctf_input.h"

/* trace folders read as one: a rotated trace has one per chunk (and per buffer scheme) */
#define MAX_TRACE_DIRS 65536
#define PIPE_BUF_BYTES (256u * 1024)
#define NAME_MAX_LEN   255

/* Records from the child to the parent (host byte order: one machine). */
enum {
	REC_CLASS = 'C', /* u32 id, u8 nfields, u8 len + name, nfields x (u8 len + name) */
	REC_EVENT = 'E', /* u32 id, u8 has_time, i64 ns, u8 nfields, nfields x u64 */
	REC_ERROR = 'X', /* u16 len + text */
	REC_DONE = 'D',
	REC_ALIVE = 'A', /* live: the relayd answered, no event yet (for the stall watchdog) */
	REC_CLOCK = 'K', /* i64: ns from origin of the clock's cycle 0 (its offset), once */
};

/* Live: the child sends what it has at least this often (the delay it adds to an interval). */
#define LIVE_FLUSH_S 0.05
/* Live: a heartbeat when nothing else was sent for this long. */
#define LIVE_ALIVE_S 1.0

struct trace_dirs {
	char **dir;
	unsigned int n, cap;
	bool too_many; /* more than MAX_TRACE_DIRS (the rest not collected) */
	/* the first folder below the trace that could not be opened, and why ("" none) */
	char unopened[160];
	int unopened_errno;
};

/* Collects the folders below path (depth <= 8) holding a `metadata` file. */
static void find_metadata(const char *path, int depth, struct trace_dirs *t)
{
	char sub[4096];
	struct stat st;
	struct dirent *de;
	DIR *d;

	if (depth > 8 || t->too_many) {
		return;
	}
	snprintf(sub, sizeof(sub), "%s/metadata", path);
	if (stat(sub, &st) == 0 && S_ISREG(st.st_mode)) {
		if (t->n == t->cap) {
			unsigned int cap = t->cap ? 2 * t->cap : 64;
			char **n = t->n < MAX_TRACE_DIRS ? realloc(t->dir, cap * sizeof(*n)) : NULL;

			if (!n) {
				t->too_many = true;
				return;
			}
			t->dir = n;
			t->cap = cap;
		}
		t->dir[t->n] = strdup(path);
		if (t->dir[t->n]) {
			t->n++;
		}
		return;
	}
	d = opendir(path);
	if (!d) {
		if (!t->unopened[0]) {
			snprintf(t->unopened, sizeof(t->unopened), "%s", path);
			t->unopened_errno = errno;
		}
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.') {
			continue;
		}
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
			find_metadata(sub, depth + 1, t);
		}
	}
	closedir(d);
}

static void free_dirs(struct trace_dirs *t)
{
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		free(t->dir[i]);
	}
	free(t->dir);
	t->dir = NULL;
	t->n = 0;
	t->cap = 0;
}

/*
 * "PATH: no CTF trace ... below it", with the folder that could not be opened
 * (named from path on), into errbuf.
 */
static int no_trace(const char *path, const struct trace_dirs *t, char *errbuf)
{
	size_t n = strlen(path);
	const char *below = t->unopened;

	if (!t->unopened[0]) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "%.200s: no CTF trace (no 'metadata' file) below it", path);
	}
	if (!strncmp(below, path, n) && below[n] == '/') {
		below += n + 1;
	}
	return dgr_errbuf_set(errbuf, DGR_E_INVAL,
			      "%.100s: no CTF trace (no 'metadata' file) below it: %.80s: %s", path,
			      below, strerror(t->unopened_errno));
}

int ctf_input_find(const char *path, char *errbuf)
{
	struct trace_dirs t = { .n = 0 };
	int ret = 0;

	find_metadata(path, 0, &t);
	if (t.n == 0) {
		ret = no_trace(path, &t, errbuf);
	}
	free_dirs(&t);
	return ret;
}

bool ctf_input_is_trace(const char *path)
{
	struct trace_dirs t = { .n = 0 };
	struct stat st;
	bool yes;

	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		return false;
	}
	find_metadata(path, 0, &t);
	yes = t.n > 0;
	free_dirs(&t);
	return yes;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- child: the babeltrace2 graph, writing records --------------------------------------- */

struct out_buf {
	int fd;
	size_t n;
	uint8_t b[PIPE_BUF_BYTES];
};

/* Writes the buffer out; a parent gone (EPIPE) ends the child. */
static void out_flush(struct out_buf *o)
{
	size_t off = 0;

	while (off < o->n) {
		ssize_t w = write(o->fd, o->b + off, o->n - off);

		if (w < 0 && errno == EINTR) {
			continue;
		}
		if (w <= 0) {
			_exit(3);
		}
		off += (size_t)w;
	}
	o->n = 0;
}

static void out_put(struct out_buf *o, const void *p, size_t len)
{
	if (o->n + len > sizeof(o->b)) {
		out_flush(o);
	}
	memcpy(o->b + o->n, p, len);
	o->n += len;
}

static void out_u8(struct out_buf *o, uint8_t v)
{
	out_put(o, &v, 1);
}

static void out_name(struct out_buf *o, const char *s)
{
	size_t len = strnlen(s, NAME_MAX_LEN);

	out_u8(o, (uint8_t)len);
	out_put(o, s, len);
}

struct child_class {
	const bt_event_class *ec;
	unsigned int nfields;
	const char *names[HE_MAX_FIELDS];
	int arrival; /* the index of HE_ARRIVAL_FIELD, -1 none */
};

struct sink_ctx {
	bool live;
	double last_send; /* live: when the buffer was last written out */
	struct out_buf out;
	struct host_event ev;
	struct child_class *classes;
	uint32_t n_classes, cap_classes, last;
	bool clock_sent; /* REC_CLOCK written */
};

/*
 * A payload field that holds a reading of the trace's own clock (txn_complete's
 * arrival_ns, field `at` of the event: CLOCK_MONOTONIC, as LTTng's) is put on the
 * events' time axis, ns from the clock's origin, with the offset LTTng recorded
 * at the session's start; a value it cannot convert becomes 0 (unknown).
 */
static void clock_field_to_origin(struct host_event *ev, int at, const bt_message *msg)
{
	const bt_clock_class *cc;
	int64_t ns;

	if (at < 0 || ev->f[at].value == 0) {
		return;
	}
	cc = bt_message_event_borrow_stream_class_default_clock_class_const(msg);
	if (!cc ||
	    bt_clock_class_cycles_to_ns_from_origin(cc, ev->f[at].value, &ns) !=
		BT_CLOCK_CLASS_CYCLES_TO_NS_FROM_ORIGIN_STATUS_OK ||
	    ns <= 0) {
		ns = 0;
	}
	ev->f[at].value = (uint64_t)ns;
}

/*
 * Sends where the trace's clock puts its cycle 0 on the time axis: the
 * offset a kernel trace's CLOCK_MONOTONIC times need to share that axis
 * (kernel_input.c). Once per reader.
 */
static void send_clock_offset(struct sink_ctx *ctx, const bt_message *msg)
{
	const bt_clock_class *cc =
	    bt_message_event_borrow_stream_class_default_clock_class_const(msg);
	int64_t ns;

	ctx->clock_sent = true;
	if (!cc || bt_clock_class_cycles_to_ns_from_origin(cc, 0, &ns) !=
		       BT_CLOCK_CLASS_CYCLES_TO_NS_FROM_ORIGIN_STATUS_OK) {
		return;
	}
	out_u8(&ctx->out, REC_CLOCK);
	out_put(&ctx->out, &ns, 8);
}

/*
 * The id of the event's class with this field list, sent once. Returns
 * -DGR_E_NOMEM when out of memory.
 */
static int64_t class_id(struct sink_ctx *c, const bt_event_class *ec, const char *name)
{
	struct child_class *k;
	uint32_t i, j;

	for (i = 0; i < c->n_classes; i++) {
		uint32_t at = (c->last + i) % c->n_classes;

		k = &c->classes[at];
		if (k->ec != ec || k->nfields != c->ev.nfields) {
			continue;
		}
		for (j = 0; j < k->nfields && k->names[j] == c->ev.f[j].name; j++) {
		}
		if (j == k->nfields) {
			c->last = at;
			return at;
		}
	}
	if (c->n_classes == c->cap_classes) {
		uint32_t cap = c->cap_classes ? c->cap_classes * 2 : 64;
		struct child_class *nk = realloc(c->classes, cap * sizeof(*nk));

		if (!nk) {
			return -DGR_E_NOMEM;
		}
		c->classes = nk;
		c->cap_classes = cap;
	}
	k = &c->classes[c->n_classes];
	k->ec = ec;
	k->nfields = c->ev.nfields;
	k->arrival = -1;
	out_u8(&c->out, REC_CLASS);
	out_put(&c->out, &c->n_classes, 4);
	out_u8(&c->out, (uint8_t)k->nfields);
	out_name(&c->out, name);
	for (j = 0; j < k->nfields; j++) {
		k->names[j] = c->ev.f[j].name;
		out_name(&c->out, k->names[j]);
		if (!strcmp(k->names[j], HE_ARRIVAL_FIELD)) {
			k->arrival = (int)j;
		}
	}
	c->last = c->n_classes;
	return c->n_classes++;
}

/* Appends the integer members of a structure field (may be NULL) to ev. */
static void add_fields(struct host_event *ev, const bt_field *st)
{
	const bt_field_class *fc;
	uint64_t i, n;

	if (!st) {
		return;
	}
	fc = bt_field_borrow_class_const(st);
	if (bt_field_get_class_type(st) != BT_FIELD_CLASS_TYPE_STRUCTURE) {
		return;
	}
	n = bt_field_class_structure_get_member_count(fc);
	for (i = 0; i < n && ev->nfields < HE_MAX_FIELDS; i++) {
		const bt_field_class_structure_member *mem =
		    bt_field_class_structure_borrow_member_by_index_const(fc, i);
		const bt_field *f = bt_field_structure_borrow_member_field_by_index_const(st, i);
		bt_field_class_type t = bt_field_get_class_type(f);
		struct he_field *out = &ev->f[ev->nfields];

		if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER)) {
			out->value = bt_field_integer_unsigned_get_value(f);
		} else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)) {
			out->value = (uint64_t)bt_field_integer_signed_get_value(f);
		} else {
			continue;
		}
		out->name = bt_field_class_structure_member_get_name(mem);
		ev->nfields++;
	}
}

/*
 * Sends an event: its class, time (ns from origin) and integer fields.
 * Returns 0, or -DGR_E_NOMEM.
 */
static int handle_event(struct sink_ctx *ctx, const bt_message *msg)
{
	const bt_event *ev = bt_message_event_borrow_event_const(msg);
	const bt_event_class *ec = bt_event_borrow_class_const(ev);
	const char *name = bt_event_class_get_name(ec);
	int64_t ns = 0, id;
	uint8_t has_time = 0;
	uint32_t id32;
	unsigned int i;

	ctx->ev.nfields = 0;
	if (bt_message_event_borrow_stream_class_default_clock_class_const(msg) &&
	    bt_clock_snapshot_get_ns_from_origin(
		bt_message_event_borrow_default_clock_snapshot_const(msg), &ns) ==
		BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK) {
		has_time = 1;
	}
	/* payload fields, then the context fields (vpid, vtid) that LTTng adds */
	add_fields(&ctx->ev, bt_event_borrow_payload_field_const(ev));
	add_fields(&ctx->ev, bt_event_borrow_common_context_field_const(ev));
	id = class_id(ctx, ec, name ? name : "");
	if (id < 0) {
		return (int)id;
	}
	clock_field_to_origin(&ctx->ev, ctx->classes[id].arrival, msg);
	if (has_time && !ctx->clock_sent) {
		send_clock_offset(ctx, msg);
	}
	id32 = (uint32_t)id;
	out_u8(&ctx->out, REC_EVENT);
	out_put(&ctx->out, &id32, 4);
	out_u8(&ctx->out, has_time);
	out_put(&ctx->out, &ns, 8);
	out_u8(&ctx->out, (uint8_t)ctx->ev.nfields);
	for (i = 0; i < ctx->ev.nfields; i++) {
		out_put(&ctx->out, &ctx->ev.f[i].value, 8);
	}
	return 0;
}

static bt_graph_simple_sink_component_consume_func_status consume(bt_message_iterator *it,
								  void *data)
{
	struct sink_ctx *ctx = data;
	bt_message_array_const msgs;
	uint64_t count, i;
	bool nomem = false;

	switch (bt_message_iterator_next(it, &msgs, &count)) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
		break;
	default:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}
	for (i = 0; i < count; i++) {
		if (!nomem && bt_message_get_type(msgs[i]) == BT_MESSAGE_TYPE_EVENT) {
			nomem = handle_event(ctx, msgs[i]) < 0;
		}
		bt_message_put_ref(msgs[i]);
	}
	/* live: the parent reports on a clock, so events must not wait for a full buffer */
	if (ctx->live && ctx->out.n && now_s() - ctx->last_send >= LIVE_FLUSH_S) {
		out_flush(&ctx->out);
		ctx->last_send = now_s();
	}
	return nomem ? BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR
		     : BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

/*
 * Length of a babeltrace2 cause message without its debugging tail: the
 * "msg-it-addr=0x..., state=..." list after the last ": " that precedes a
 * "key=" (the sentence before it is what a user can act on).
 */
static size_t cause_len(const char *m)
{
	const char *p = m, *cut = NULL;

	while ((p = strstr(p, ": ")) != NULL) {
		const char *k = p + 2;

		while ((*k >= 'a' && *k <= 'z') || *k == '-' || *k == '_') {
			k++;
		}
		if (*k == '=' && k > p + 2) {
			cut = p;
			break;
		}
		p += 2;
	}
	return cut ? (size_t)(cut - m) : strlen(m);
}

/* Appends the root cause of the current thread's libbabeltrace2 error to what. */
static void take_bt_error(char *errbuf, const char *what)
{
	const bt_error *err = bt_current_thread_take_error();

	snprintf(errbuf, DGR_ERRBUF_SIZE, "%s", what);
	if (!err) {
		return;
	}
	if (bt_error_get_cause_count(err) > 0) {
		const char *m = bt_error_cause_get_message(bt_error_borrow_cause_by_index(err, 0));
		size_t len = strlen(errbuf);

		snprintf(errbuf + len, DGR_ERRBUF_SIZE - len, ": %.*s", (int)cause_len(m), m);
	}
	bt_error_release(err);
}

int ctf_live_url_parse(const char *url, struct ctf_live_url *u, char *errbuf)
{
	const char *p = strstr(url, "://"), *host, *sess;
	size_t scheme;

	memset(u, 0, sizeof(*u));
	scheme = p ? (size_t)(p - url) : 0;
	if (!p || !((scheme == 3 && !strncmp(url, "net", 3)) ||
		    (scheme == 4 && (!strncmp(url, "net4", 4) || !strncmp(url, "net6", 4))))) {
		goto bad;
	}
	host = strstr(p + 3, "/host/");
	if (!host || host == p + 3) {
		goto bad;
	}
	sess = strchr(host + 6, '/');
	if (!sess || sess == host + 6 || !sess[1] || strchr(sess + 1, '/') ||
	    (size_t)(host - url) >= sizeof(u->relay) ||
	    (size_t)(sess - host - 6) >= sizeof(u->hostname) ||
	    strlen(sess + 1) >= sizeof(u->session)) {
		goto bad;
	}
	memcpy(u->relay, url, (size_t)(host - url));
	memcpy(u->hostname, host + 6, (size_t)(sess - host - 6));
	snprintf(u->session, sizeof(u->session), "%s", sess + 1);
	return 0;
bad:
	return dgr_errbuf_set(errbuf, DGR_E_INVAL,
			      "'%.120s' is not an LTTng live URL (accepted: "
			      "net://RELAYD[:PORT]/host/HOSTNAME/SESSION; net4://, net6:// too)",
			      url);
}

/*
 * Asks the relay daemon for its sessions: babeltrace2 2.0 ends quietly on a
 * session it does not have, which would read as a run without events.
 * Returns 0, or -DGR_E_INVAL (no such session, or no way to ask) with errbuf
 * filled.
 */
static int live_session_check(const bt_plugin *ctf, const char *url, char *errbuf)
{
	const bt_component_class_source *cls =
	    bt_plugin_borrow_source_component_class_by_name_const(ctf, "lttng-live");
	struct ctf_live_url u;
	bt_query_executor *qe = NULL;
	bt_value *params = NULL;
	const bt_value *res = NULL;
	char have[160] = "";
	uint64_t i, n;
	int ret = -DGR_E_INVAL;

	if (ctf_live_url_parse(url, &u, errbuf) < 0) {
		return -DGR_E_INVAL;
	}
	params = bt_value_map_create();
	if (!cls || !params ||
	    bt_value_map_insert_string_entry(params, "url", u.relay) !=
		BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "libbabeltrace2 has no lttng-live source");
		goto end;
	}
	qe = bt_query_executor_create(bt_component_class_source_as_component_class_const(cls),
				      "sessions", params);
	if (!qe || bt_query_executor_query(qe, &res) != BT_QUERY_EXECUTOR_QUERY_STATUS_OK ||
	    !bt_value_is_array(res)) {
		take_bt_error(errbuf, "cannot reach the relay daemon");
		goto end;
	}
	n = bt_value_array_get_length(res);
	for (i = 0; i < n; i++) {
		const bt_value *e = bt_value_array_borrow_element_by_index_const(res, i);
		const bt_value *h = bt_value_map_borrow_entry_value_const(e, "target-hostname");
		const bt_value *sn = bt_value_map_borrow_entry_value_const(e, "session-name");
		size_t len = strlen(have);

		if (!h || !sn || !bt_value_is_string(h) || !bt_value_is_string(sn)) {
			continue;
		}
		if (!strcmp(bt_value_string_get(h), u.hostname) &&
		    !strcmp(bt_value_string_get(sn), u.session)) {
			ret = 0;
			goto end;
		}
		snprintf(have + len, sizeof(have) - len, "%s%s/%s", len ? ", " : "",
			 bt_value_string_get(h), bt_value_string_get(sn));
	}
	snprintf(errbuf, DGR_ERRBUF_SIZE,
		 "the relay daemon has no session %.50s of host %.40s (%s%.90s)", u.session,
		 u.hostname, have[0] ? "it has: " : "it has none", have);
end:
	bt_value_put_ref(res);
	bt_value_put_ref(params);
	bt_query_executor_put_ref(qe);
	return ret;
}

/*
 * Runs the graph over the trace folders, or over the live session at
 * live_url when not NULL; returns 0, or -DGR_E_INVAL (the trace or the session
 * cannot be read, or libbabeltrace2 lacks a plugin) with errbuf filled.
 */
static int run_graph(const struct trace_dirs *t, const char *live_url, struct sink_ctx *ctx,
		     bool verbose, char *errbuf)
{
	const bt_plugin *ctf = NULL, *utils = NULL;
	bt_graph *g = NULL;
	bt_value *params = NULL, *inputs = NULL;
	const bt_component_source *src = NULL;
	const bt_component_filter *mux = NULL;
	const bt_component_sink *sink = NULL;
	bt_logging_level level = verbose ? BT_LOGGING_LEVEL_WARNING : BT_LOGGING_LEVEL_NONE;
	bt_graph_run_status rs;
	uint64_t i, nports;
	int ret = -DGR_E_INVAL;

	bt_logging_set_global_level(level);
	if (bt_plugin_find("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, &ctf) !=
		BT_PLUGIN_FIND_STATUS_OK ||
	    bt_plugin_find("utils", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, &utils) !=
		BT_PLUGIN_FIND_STATUS_OK) {
		take_bt_error(errbuf, "libbabeltrace2: the 'ctf' and 'utils' plugins are needed "
				      "(Debian package babeltrace2)");
		goto end;
	}
	g = bt_graph_create(0);
	params = bt_value_map_create();
	if (!g || !params ||
	    bt_value_map_insert_empty_array_entry(params, "inputs", &inputs) !=
		BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "out of memory");
		goto end;
	}
	for (i = 0; i < t->n; i++) {
		if (bt_value_array_append_string_element(inputs, t->dir[i]) !=
		    BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "out of memory");
			goto end;
		}
	}
	if (live_url) {
		if (live_session_check(ctf, live_url, errbuf) < 0) {
			goto end;
		}
		/* "end": the session's destruction ends the read (the run is over) */
		if (bt_value_array_append_string_element(inputs, live_url) !=
			BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK ||
		    bt_value_map_insert_string_entry(params, "session-not-found-action", "end") !=
			BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "out of memory");
			goto end;
		}
	}
	if (bt_graph_add_source_component(g,
					  bt_plugin_borrow_source_component_class_by_name_const(
					      ctf, live_url ? "lttng-live" : "fs"),
					  "src", params, level,
					  &src) != BT_GRAPH_ADD_COMPONENT_STATUS_OK ||
	    bt_graph_add_filter_component(
		g, bt_plugin_borrow_filter_component_class_by_name_const(utils, "muxer"), "mux",
		NULL, level, &mux) != BT_GRAPH_ADD_COMPONENT_STATUS_OK ||
	    bt_graph_add_simple_sink_component(g, "sink", NULL, consume, NULL, ctx, &sink) !=
		BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
		take_bt_error(errbuf, live_url ? "babeltrace2 cannot follow the live session"
					       : "babeltrace2 cannot open the trace");
		goto end;
	}
	nports = bt_component_source_get_output_port_count(src);
	for (i = 0; i < nports; i++) {
		if (bt_graph_connect_ports(
			g, bt_component_source_borrow_output_port_by_index_const(src, i),
			bt_component_filter_borrow_input_port_by_index_const(mux, i),
			NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
			take_bt_error(errbuf, "babeltrace2 cannot connect the trace's streams");
			goto end;
		}
	}
	if (bt_graph_connect_ports(g, bt_component_filter_borrow_output_port_by_index_const(mux, 0),
				   bt_component_sink_borrow_input_port_by_index_const(sink, 0),
				   NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
		take_bt_error(errbuf, "babeltrace2 cannot connect the muxer");
		goto end;
	}
	do {
		rs = bt_graph_run(g);
		if (rs == BT_GRAPH_RUN_STATUS_AGAIN && ctx->live) {
			/* the relayd has nothing new: send what is held, or say we are alive */
			if (ctx->out.n || now_s() - ctx->last_send >= LIVE_ALIVE_S) {
				if (!ctx->out.n) {
					out_u8(&ctx->out, REC_ALIVE);
				}
				out_flush(&ctx->out);
				ctx->last_send = now_s();
			}
			usleep(10000);
		} else if (rs == BT_GRAPH_RUN_STATUS_AGAIN) {
			usleep(1000);
		}
	} while (rs == BT_GRAPH_RUN_STATUS_AGAIN);
	if (rs != BT_GRAPH_RUN_STATUS_OK) {
		take_bt_error(errbuf, live_url ? "reading the live session failed"
					       : "babeltrace2 cannot read the trace");
		goto end;
	}
	ret = 0;
end:
	bt_value_put_ref(params);
	bt_graph_put_ref(g);
	bt_plugin_put_ref(ctf);
	bt_plugin_put_ref(utils);
	return ret;
}

/* The child's whole life: never returns. */
static void child_main(int fd, const struct trace_dirs *t, const char *live_url, bool verbose)
{
	char errbuf[DGR_ERRBUF_SIZE];
	struct sink_ctx *ctx = calloc(1, sizeof(*ctx));
	uint16_t len;

	if (!verbose) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0) {
			dup2(null, STDERR_FILENO);
			close(null);
		}
	}
	if (!ctx) {
		_exit(3);
	}
	if (live_url) {
		/* the parent ends a live read (SIGINT) and reports: a Ctrl-C is its to handle */
		signal(SIGINT, SIG_IGN);
		ctx->live = true;
		ctx->last_send = now_s();
	}
	ctx->out.fd = fd;
	if (run_graph(t, live_url, ctx, verbose, errbuf) == 0) {
		out_u8(&ctx->out, REC_DONE);
		out_flush(&ctx->out);
		_exit(0);
	}
	len = (uint16_t)strnlen(errbuf, DGR_ERRBUF_SIZE - 1);
	out_u8(&ctx->out, REC_ERROR);
	out_put(&ctx->out, &len, 2);
	out_put(&ctx->out, errbuf, len);
	out_flush(&ctx->out);
	_exit(1);
}

/* ---- parent: records into the in-host analysis --------------------------------------------- */

struct parent_class {
	char name[NAME_MAX_LEN + 1];
	unsigned int nfields;
	char fields[HE_MAX_FIELDS][NAME_MAX_LEN + 1];
	int arrival; /* the index of HE_ARRIVAL_FIELD, -1 none: it takes --trace-offset-ns too */
};

struct reader {
	struct host_analysis *h;
	struct host_event ev;
	struct parent_class *classes;
	uint32_t n_classes, cap_classes;
	bool done;
	char child_error[DGR_ERRBUF_SIZE];
};

/* Reads a u8-length name at p (avail bytes); returns the bytes used, 0 if incomplete. */
static size_t take_name(const uint8_t *p, size_t avail, char *out)
{
	if (avail < 1 || avail < 1u + p[0]) {
		return 0;
	}
	memcpy(out, p + 1, p[0]);
	out[p[0]] = '\0';
	return 1u + p[0];
}

/*
 * Handles the complete records of buf[0..len); returns the bytes used,
 * -DGR_E_INVAL on a record that breaks the format, or -DGR_E_NOMEM (errbuf
 * filled).
 */
static long take_records(struct reader *r, const uint8_t *buf, size_t len, char *errbuf)
{
	size_t off = 0;

	while (off < len) {
		const uint8_t *p = buf + off;
		size_t avail = len - off, used = 0, u, i;
		uint32_t id;

		switch (p[0]) {
		case REC_CLASS: {
			struct parent_class *k;

			if (avail < 6) {
				return (long)off;
			}
			memcpy(&id, p + 1, 4);
			if (id != r->n_classes || p[5] > HE_MAX_FIELDS) {
				goto bad;
			}
			if (r->n_classes == r->cap_classes) {
				uint32_t cap = r->cap_classes ? r->cap_classes * 2 : 64;
				struct parent_class *nk = realloc(r->classes, cap * sizeof(*nk));

				if (!nk) {
					return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
				}
				r->classes = nk;
				r->cap_classes = cap;
			}
			k = &r->classes[r->n_classes];
			k->nfields = p[5];
			used = 6;
			u = take_name(p + used, avail - used, k->name);
			if (!u) {
				return (long)off;
			}
			used += u;
			k->arrival = -1;
			for (i = 0; i < k->nfields; i++) {
				u = take_name(p + used, avail - used, k->fields[i]);
				if (!u) {
					return (long)off;
				}
				used += u;
				if (!strcmp(k->fields[i], HE_ARRIVAL_FIELD)) {
					k->arrival = (int)i;
				}
			}
			r->n_classes++;
			break;
		}
		case REC_EVENT: {
			const struct parent_class *k;
			int64_t ns;
			unsigned int n;

			if (avail < 15) {
				return (long)off;
			}
			memcpy(&id, p + 1, 4);
			n = p[14];
			if (id >= r->n_classes || n != r->classes[id].nfields) {
				goto bad;
			}
			if (avail < 15u + 8u * n) {
				return (long)off;
			}
			k = &r->classes[id];
			memcpy(&ns, p + 6, 8);
			ns = p[5] ? ns : 0;
			ns += r->h->time_offset_ns;
			r->ev.name = k->name;
			r->ev.ts = ns > 0 ? (uint64_t)ns : 0;
			r->ev.nfields = n;
			for (i = 0; i < n; i++) {
				r->ev.f[i].name = k->fields[i];
				memcpy(&r->ev.f[i].value, p + 15 + 8 * i, 8);
			}
			if (k->arrival >= 0 && r->ev.f[k->arrival].value) {
				int64_t a =
				    (int64_t)r->ev.f[k->arrival].value + r->h->time_offset_ns;

				r->ev.f[k->arrival].value = a > 0 ? (uint64_t)a : 0;
			}
			ha_event(r->h, &r->ev);
			used = 15u + 8u * n;
			break;
		}
		case REC_ERROR: {
			uint16_t elen;

			if (avail < 3) {
				return (long)off;
			}
			memcpy(&elen, p + 1, 2);
			if (elen >= DGR_ERRBUF_SIZE) {
				goto bad;
			}
			if (avail < 3u + elen) {
				return (long)off;
			}
			memcpy(r->child_error, p + 3, elen);
			r->child_error[elen] = '\0';
			used = 3u + elen;
			break;
		}
		case REC_DONE:
			r->done = true;
			used = 1;
			break;
		case REC_ALIVE:
			used = 1;
			break;
		case REC_CLOCK: {
			int64_t ns;

			if (avail < 9) {
				return (long)off;
			}
			memcpy(&ns, p + 1, 8);
			r->h->clock_origin_ns = ns;
			r->h->clock_origin_known = true;
			used = 9;
			break;
		}
		default:
			goto bad;
		}
		off += used;
	}
	return (long)off;
bad:
	return dgr_errbuf_set(errbuf, DGR_E_INVAL,
			      "the trace reader process sent a bad record (byte %zu)", off);
}

/* Live: calls on_tick when its time has come. Returns its result. */
static int live_tick(struct ctf_live_opts *live, double *next, char *errbuf)
{
	double now = now_s(), period = (double)live->tick_ns / 1e9;

	if (now < *next) {
		return 0;
	}
	/* a late tick (a slow terminal, a loaded machine) is not made up for */
	*next = *next + period > now ? *next + period : now + period;
	return live->on_tick(live->ctx, errbuf);
}

/* One reader child and what the parent has of its records. */
struct child {
	struct reader r;
	int fd;
	pid_t pid; /* 0: not started */
	uint8_t *buf;
	size_t have;
	double last; /* when it last sent something */
	bool eof;
};

/*
 * Reads what child c has sent. Returns 0, -DGR_E_INVAL for a bad record, or
 * -DGR_E_NOMEM (errbuf filled).
 */
static int child_read(struct child *c, char *errbuf)
{
	ssize_t got = read(c->fd, c->buf + c->have, PIPE_BUF_BYTES * 2 - c->have);
	long used;

	if (got < 0 && errno == EINTR) {
		return 0;
	}
	if (got <= 0) {
		c->eof = true;
		return 0;
	}
	c->last = now_s();
	c->have += (size_t)got;
	used = take_records(&c->r, c->buf, c->have, errbuf);
	if (used < 0) {
		return (int)used;
	}
	memmove(c->buf, c->buf + used, c->have - (size_t)used);
	c->have -= (size_t)used;
	return 0;
}

/* How a reaped child ended: 0, or -DGR_E_INVAL with errbuf filled. */
static int child_outcome(const struct child *c, int status, char *errbuf)
{
	if (c->r.child_error[0]) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s", c->r.child_error);
		return -DGR_E_INVAL;
	}
	if (WIFSIGNALED(status)) {
		snprintf(errbuf, DGR_ERRBUF_SIZE,
			 "babeltrace2 crashed reading it (signal %d, %s): a damaged trace?",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
		return -DGR_E_INVAL;
	}
	if (!c->r.done || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE,
			 "the trace reader process ended early (exit status %d)",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -DGR_E_INVAL;
	}
	return 0;
}

/*
 * Reads the children's records until every one has ended, one fails or
 * stalls (or, live, until *live->stop). Returns 0, or a negative DGR_E_*
 * code with errbuf filled (without the trace's name) and *failed the index
 * of the child it is about; the children are then killed.
 */
static int read_children(struct child *c, unsigned int n, unsigned int stall_s,
			 struct ctf_live_opts *live, unsigned int *failed, char *errbuf)
{
	struct pollfd pfd[2 * CTF_LIVE_MAX_SESSIONS];
	unsigned int map[CTF_LIVE_MAX_SESSIONS];
	const unsigned int n_extra = live && live->on_extra ? live->n_extra : 0;
	double next_tick = live ? now_s() + (double)live->tick_ns / 1e9 : 0;
	unsigned int i, k, open = n;
	int ret = 0;

	*failed = 0;
	while (open > 0) {
		int wait_ms = 500, pr;

		for (i = 0, k = 0; i < n; i++) {
			if (!c[i].eof) {
				pfd[k] = (struct pollfd){ .fd = c[i].fd, .events = POLLIN };
				map[k++] = i;
			}
		}
		for (i = 0; i < n_extra; i++) {
			/* last, after the children's: pfd[k..k + n_extra) */
			pfd[k + i] = (struct pollfd){ .fd = live->extra_fds[i], .events = POLLIN };
		}
		if (live && !live->stopped) {
			double to_tick = (next_tick - now_s()) * 1e3;

			wait_ms = to_tick < 0 ? 0 : to_tick < wait_ms ? (int)to_tick + 1 : wait_ms;
		}
		pr = poll(pfd, k + n_extra, wait_ms);
		if (live && !live->stopped && live->stop && *live->stop) {
			/*
			 * SIGINT: the run so far is the report. The events the
			 * children have sent are still read, up to the pipes' end.
			 */
			live->stopped = true;
			for (i = 0; i < n; i++) {
				kill(c[i].pid, SIGKILL);
			}
		}
		if (live && !live->stopped) {
			ret = live_tick(live, &next_tick, errbuf);
			if (ret < 0) {
				goto fail;
			}
		}
		if (pr < 0 && errno != EINTR) {
			ret = dgr_errbuf_set(errbuf, DGR_E_SYS, "poll: %s", strerror(errno));
			goto fail;
		}
		for (i = 0; n_extra && !live->stopped && pr > 0 && i < n_extra; i++) {
			if (!pfd[k + i].revents) {
				continue;
			}
			/* one call reads every source */
			ret = live->on_extra(live->ctx, errbuf);
			if (ret < 0) {
				*failed = n; /* about none of the traces */
				goto fail;
			}
			break;
		}
		for (i = 0; i < k; i++) {
			struct child *ch = &c[map[i]];

			if (pr > 0 && pfd[i].revents) {
				ret = child_read(ch, errbuf);
				open -= ch->eof ? 1 : 0;
			} else if (now_s() - ch->last >= stall_s) {
				ret =
				    dgr_errbuf_set(errbuf, DGR_E_TIMEOUT,
						   "babeltrace2 made no progress for %u s and was "
						   "stopped (a damaged trace can make it loop)",
						   stall_s);
			}
			if (ret < 0) {
				*failed = map[i];
				goto fail;
			}
		}
	}
	return 0;
fail:
	for (i = 0; i < n; i++) {
		kill(c[i].pid, SIGKILL);
	}
	return ret;
}

/*
 * Reads the trace folders of paths[0] into hs[0] (n 1), or follows the live
 * sessions at the URLs paths[0..n) into hs[0..n) when live is not NULL, each
 * in a child process of its own (see ctf_input.h).
 */
static int read_traces(const char *const *paths, struct host_analysis *const *hs, unsigned int n,
		       const struct ctf_read_opts *opts, struct ctf_live_opts *live, char *errbuf)
{
	char msg[DGR_ERRBUF_SIZE];
	struct trace_dirs t = { .n = 0 };
	struct child *c = NULL;
	unsigned int i, failed = 0;
	int ret = 0, status;
	bool named = false; /* the error is about the trace failed */

	if (!live) {
		find_metadata(paths[0], 0, &t);
	}
	if (!live && t.n == 0) {
		return no_trace(paths[0], &t, errbuf);
	}
	if (t.too_many) {
		ret =
		    dgr_errbuf_set(errbuf, DGR_E_INVAL,
				   "%.150s: more than %d trace folders below it (or no memory for "
				   "their names): read a part of it, e.g. some chunks of archives/",
				   paths[0], MAX_TRACE_DIRS);
		goto end;
	}
	for (i = 0; i < t.n; i++) {
		ret = ctf_check_dir(t.dir[i], &hs[0]->trace_unindexed_bytes, msg);
		if (ret < 0) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "damaged trace: %.235s", msg);
			goto end;
		}
	}
	c = calloc(n, sizeof(*c));
	if (!c) {
		ret = dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
		goto end;
	}
	for (i = 0; i < n; i++) {
		int fds[2];

		c[i].fd = -1;
		c[i].r.h = hs[i];
		c[i].last = now_s();
		c[i].buf = malloc(PIPE_BUF_BYTES * 2);
		if (!c[i].buf) {
			ret = dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
			goto end;
		}
		if (pipe2(fds, O_CLOEXEC) != 0) {
			ret = dgr_errbuf_set(errbuf, DGR_E_SYS, "pipe: %s", strerror(errno));
			goto end;
		}
		fflush(NULL);
		c[i].pid = fork();
		if (c[i].pid < 0) {
			c[i].pid = 0;
			close(fds[0]);
			close(fds[1]);
			ret = dgr_errbuf_set(errbuf, DGR_E_SYS, "fork: %s", strerror(errno));
			goto end;
		}
		if (c[i].pid == 0) {
			close(fds[0]);
			child_main(fds[1], &t, live ? paths[i] : NULL, opts && opts->verbose);
		}
		close(fds[1]);
		c[i].fd = fds[0];
	}
	ret = read_children(c, n, opts && opts->stall_s ? opts->stall_s : CTF_STALL_S, live,
			    &failed, msg);
	named = ret < 0 && failed < n;
end:
	for (i = 0; c && i < n; i++) {
		if (c[i].pid <= 0) {
			continue;
		}
		if (ret < 0) {
			kill(c[i].pid, SIGKILL);
		}
		while (waitpid(c[i].pid, &status, 0) < 0 && errno == EINTR) {
		}
		if (ret == 0 && !(live && live->stopped)) {
			ret = child_outcome(&c[i], status, msg);
			failed = i;
			named = ret < 0;
		}
	}
	if (named) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.80s: %.170s", paths[failed], msg);
	}
	for (i = 0; c && i < n; i++) {
		if (c[i].fd >= 0) {
			close(c[i].fd);
		}
		free(c[i].buf);
		free(c[i].r.classes);
	}
	free(c);
	free_dirs(&t);
	return ret;
}

int ctf_input_read(const char *path, struct host_analysis *h, const struct ctf_read_opts *opts,
		   char *errbuf)
{
	return read_traces(&path, &h, 1, opts, NULL, errbuf);
}

int ctf_input_live(const char *const *urls, struct host_analysis *const *hs, unsigned int n,
		   const struct ctf_read_opts *opts, struct ctf_live_opts *live, char *errbuf)
{
	char msg[DGR_ERRBUF_SIZE];
	struct ctf_live_url u;
	unsigned int i;

	if (n == 0 || n > CTF_LIVE_MAX_SESSIONS) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "1..%d live sessions at a time (got %u)",
				      CTF_LIVE_MAX_SESSIONS, n);
	}
	for (i = 0; i < n; i++) {
		if (ctf_live_url_parse(urls[i], &u, msg) < 0) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "%s", msg);
			return -DGR_E_INVAL;
		}
	}
	live->stopped = false;
	return read_traces(urls, hs, n, opts, live, errbuf);
}
