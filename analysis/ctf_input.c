// SPDX-License-Identifier: GPL-2.0-or-later
/* LTTng trace input through libbabeltrace2 (see ctf_input.h). */
#include <babeltrace2/babeltrace.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dgrdma/wire.h>

#include "ctf_input.h"

#define MAX_TRACE_DIRS 64

struct trace_dirs {
	char *dir[MAX_TRACE_DIRS];
	unsigned int n;
};

/* Collects the folders below path (depth <= 8) holding a `metadata` file. */
static void find_metadata(const char *path, int depth, struct trace_dirs *t)
{
	char sub[4096];
	struct stat st;
	struct dirent *de;
	DIR *d;

	if (depth > 8 || t->n == MAX_TRACE_DIRS) {
		return;
	}
	snprintf(sub, sizeof(sub), "%s/metadata", path);
	if (stat(sub, &st) == 0 && S_ISREG(st.st_mode)) {
		t->dir[t->n] = strdup(path);
		if (t->dir[t->n]) {
			t->n++;
		}
		return;
	}
	d = opendir(path);
	if (!d) {
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
	t->n = 0;
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

struct sink_ctx {
	struct host_analysis *h;
	struct host_event ev;
	char name[256];
	uint64_t errors;
};

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

/* Copies an event's integer fields into ctx->ev and feeds it. */
static void handle_event(struct sink_ctx *ctx, const bt_message *msg)
{
	const bt_event *ev = bt_message_event_borrow_event_const(msg);
	const bt_event_class *ec = bt_event_borrow_class_const(ev);
	const bt_field *payload = bt_event_borrow_payload_field_const(ev);
	const bt_clock_snapshot *cs;
	int64_t ns = 0;
	const char *name = bt_event_class_get_name(ec);

	ctx->ev.name = name ? name : "";
	ctx->ev.nfields = 0;
	if (bt_message_event_borrow_stream_class_default_clock_class_const(msg)) {
		cs = bt_message_event_borrow_default_clock_snapshot_const(msg);
		if (bt_clock_snapshot_get_ns_from_origin(cs, &ns) !=
		    BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK) {
			ctx->errors++;
		}
	}
	ns += ctx->h->time_offset_ns;
	ctx->ev.ts = ns > 0 ? (uint64_t)ns : 0;
	/* payload fields, then the context fields (vpid, vtid) that LTTng adds */
	add_fields(&ctx->ev, payload);
	add_fields(&ctx->ev, bt_event_borrow_common_context_field_const(ev));
	ha_event(ctx->h, &ctx->ev);
}

static bt_graph_simple_sink_component_consume_func_status consume(bt_message_iterator *it,
								  void *data)
{
	struct sink_ctx *ctx = data;
	bt_message_array_const msgs;
	uint64_t count, i;

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
		if (bt_message_get_type(msgs[i]) == BT_MESSAGE_TYPE_EVENT) {
			handle_event(ctx, msgs[i]);
		}
		bt_message_put_ref(msgs[i]);
	}
	return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

/* Appends the current thread's libbabeltrace2 error causes to errbuf. */
static void take_bt_error(char *errbuf, const char *what)
{
	const bt_error *err = bt_current_thread_take_error();
	size_t len;

	snprintf(errbuf, DGR_ERRBUF_SIZE, "%s", what);
	if (!err) {
		return;
	}
	if (bt_error_get_cause_count(err) > 0) {
		const bt_error_cause *c = bt_error_borrow_cause_by_index(err, 0);

		len = strlen(errbuf);
		snprintf(errbuf + len, DGR_ERRBUF_SIZE - len, ": %s",
			 bt_error_cause_get_message(c));
	}
	bt_error_release(err);
}

int ctf_input_read(const char *path, struct host_analysis *h, char *errbuf)
{
	struct trace_dirs t = { .n = 0 };
	struct sink_ctx *ctx = NULL;
	const bt_plugin *ctf = NULL, *utils = NULL;
	bt_graph *g = NULL;
	bt_value *params = NULL, *inputs = NULL;
	const bt_component_source *src = NULL;
	const bt_component_filter *mux = NULL;
	const bt_component_sink *sink = NULL;
	bt_graph_run_status rs;
	uint64_t i, nports;
	int ret = 0;

	find_metadata(path, 0, &t);
	if (t.n == 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: no CTF trace (no 'metadata' file) below it",
			 path);
		return -DGR_E_INVAL;
	}
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "out of memory");
		ret = -DGR_E_NOMEM;
		goto end;
	}
	ctx->h = h;
	if (bt_plugin_find("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, &ctf) !=
		BT_PLUGIN_FIND_STATUS_OK ||
	    bt_plugin_find("utils", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, &utils) !=
		BT_PLUGIN_FIND_STATUS_OK) {
		take_bt_error(errbuf, "libbabeltrace2: the 'ctf' and 'utils' plugins are needed "
				      "(Debian package babeltrace2)");
		ret = -DGR_E_SYS;
		goto end;
	}
	g = bt_graph_create(0);
	params = bt_value_map_create();
	if (!g || !params ||
	    bt_value_map_insert_empty_array_entry(params, "inputs", &inputs) !=
		BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "out of memory");
		ret = -DGR_E_NOMEM;
		goto end;
	}
	for (i = 0; i < t.n; i++) {
		if (bt_value_array_append_string_element(inputs, t.dir[i]) !=
		    BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "out of memory");
			ret = -DGR_E_NOMEM;
			goto end;
		}
	}
	if (bt_graph_add_source_component(
		g, bt_plugin_borrow_source_component_class_by_name_const(ctf, "fs"), "src", params,
		BT_LOGGING_LEVEL_ERROR, &src) != BT_GRAPH_ADD_COMPONENT_STATUS_OK ||
	    bt_graph_add_filter_component(
		g, bt_plugin_borrow_filter_component_class_by_name_const(utils, "muxer"), "mux",
		NULL, BT_LOGGING_LEVEL_ERROR, &mux) != BT_GRAPH_ADD_COMPONENT_STATUS_OK ||
	    bt_graph_add_simple_sink_component(g, "sink", NULL, consume, NULL, ctx, &sink) !=
		BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
		take_bt_error(errbuf, "cannot read the trace");
		ret = -DGR_E_INVAL;
		goto end;
	}
	nports = bt_component_source_get_output_port_count(src);
	for (i = 0; i < nports; i++) {
		if (bt_graph_connect_ports(
			g, bt_component_source_borrow_output_port_by_index_const(src, i),
			bt_component_filter_borrow_input_port_by_index_const(mux, i),
			NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
			take_bt_error(errbuf, "cannot connect the trace's streams");
			ret = -DGR_E_INVAL;
			goto end;
		}
	}
	if (bt_graph_connect_ports(g, bt_component_filter_borrow_output_port_by_index_const(mux, 0),
				   bt_component_sink_borrow_input_port_by_index_const(sink, 0),
				   NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
		take_bt_error(errbuf, "cannot connect the muxer");
		ret = -DGR_E_INVAL;
		goto end;
	}
	do {
		rs = bt_graph_run(g);
		if (rs == BT_GRAPH_RUN_STATUS_AGAIN) {
			usleep(1000);
		}
	} while (rs == BT_GRAPH_RUN_STATUS_AGAIN);
	if (rs != BT_GRAPH_RUN_STATUS_OK) {
		take_bt_error(errbuf, "reading the trace failed");
		ret = -DGR_E_INVAL;
	}
end:
	bt_value_put_ref(params);
	bt_graph_put_ref(g);
	bt_plugin_put_ref(ctf);
	bt_plugin_put_ref(utils);
	free_dirs(&t);
	free(ctx);
	return ret;
}
