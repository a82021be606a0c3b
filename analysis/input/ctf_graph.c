// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace reader's child (see trace_module.h): runs the babeltrace2 graph
 * (src.ctf.fs or src.ctf.lttng-live -> flt.utils.muxer -> a simple sink) and
 * writes each event to ctf_input.c over a pipe, as compact records: an event
 * class (its name and integer field names) once, then per event the class id,
 * the time and the field values. Part of the trace reader's module.
 */
#include <babeltrace2/babeltrace.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <dgrdma/wire.h>

#include "ctf_input.h"
#include "host_events.h"
#include "trace_module.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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

/*
 * Asks the relay daemon for its sessions: babeltrace2 2.0 ends quietly on a
 * session it does not have, which would read as a run without events.
 * Returns 0, or -DGR_E_INVAL (no such session, or no way to ask) with errbuf
 * filled.
 */
static int live_session_check(const bt_plugin *ctf, const struct ctf_live_url *u, char *errbuf)
{
	const bt_component_class_source *cls =
	    bt_plugin_borrow_source_component_class_by_name_const(ctf, "lttng-live");
	bt_query_executor *qe = NULL;
	bt_value *params = NULL;
	const bt_value *res = NULL;
	char have[160] = "";
	uint64_t i, n;
	int ret = -DGR_E_INVAL;

	params = bt_value_map_create();
	if (!cls || !params ||
	    bt_value_map_insert_string_entry(params, "url", u->relay) !=
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
		if (!strcmp(bt_value_string_get(h), u->hostname) &&
		    !strcmp(bt_value_string_get(sn), u->session)) {
			ret = 0;
			goto end;
		}
		snprintf(have + len, sizeof(have) - len, "%s%s/%s", len ? ", " : "",
			 bt_value_string_get(h), bt_value_string_get(sn));
	}
	snprintf(errbuf, DGR_ERRBUF_SIZE,
		 "the relay daemon has no session %.50s of host %.40s (%s%.90s)", u->session,
		 u->hostname, have[0] ? "it has: " : "it has none", have);
end:
	bt_value_put_ref(res);
	bt_value_put_ref(params);
	bt_query_executor_put_ref(qe);
	return ret;
}

/*
 * Runs the graph over the trace folders dirs[0..n_dirs), or over the live
 * session at live_url (live: its parts) when not NULL; returns 0, or
 * -DGR_E_INVAL (the trace or the session cannot be read, or libbabeltrace2
 * lacks a plugin) with errbuf filled.
 */
static int run_graph(char *const *dirs, unsigned int n_dirs, const char *live_url,
		     const struct ctf_live_url *live, struct sink_ctx *ctx, bool verbose,
		     char *errbuf)
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
	for (i = 0; i < n_dirs; i++) {
		if (bt_value_array_append_string_element(inputs, dirs[i]) !=
		    BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "out of memory");
			goto end;
		}
	}
	if (live_url) {
		if (live_session_check(ctf, live, errbuf) < 0) {
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

void ctf_graph_child(int fd, char *const *dirs, unsigned int n_dirs, const char *live_url,
		     const struct ctf_live_url *live, bool verbose)
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
	if (run_graph(dirs, n_dirs, live_url, live, ctx, verbose, errbuf) == 0) {
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
