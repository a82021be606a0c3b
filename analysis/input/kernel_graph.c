// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel trace input (see kernel_input.h): src.ctf.fs -> flt.utils.muxer ->
 * a simple sink, in this process; part of the trace reader's module
 * (trace_module.h), kernel_input.c checks the folder first. Unlike the UST reader (ctf_input.c) it
 * needs the events' strings (comms, IRQ names), and the trace is complete
 * when read, never followed live. perf's CTF and LTTng's kernel tracer's name
 * the same tracepoints differently: one table per tracer (struct flavour).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <babeltrace2/babeltrace.h>

#include <dgrdma/wire.h>

#include "cli.h"
#include "kernel_input.h"
#include "trace_module.h"

struct kin {
	struct kernel_sched *k;
	int64_t offset_ns;
	enum kin_axis axis;
	const bt_clock_class *cc; /* the clock whose cycle 0 is at origin_ns */
	int64_t origin_ns;
	const struct flavour *fl; /* the tracer's names: its env, else its first known name */
	uint64_t switches;
	bool nomem;
};

/* An integer member of a structure field; false when absent or not an integer. */
static bool member_int(const bt_field *st, const char *name, int64_t *v)
{
	const bt_field *f;
	bt_field_class_type t;

	if (!st) {
		return false;
	}
	f = bt_field_structure_borrow_member_field_by_name_const(st, name);
	if (!f) {
		return false;
	}
	t = bt_field_get_class_type(f);
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)) {
		*v = bt_field_integer_signed_get_value(f);
		return true;
	}
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER)) {
		*v = (int64_t)bt_field_integer_unsigned_get_value(f);
		return true;
	}
	return false;
}

/* A string member's id in the name table (0, "", when absent). */
static uint32_t member_name(struct kin *in, const bt_field *st, const char *name)
{
	const bt_field *f;
	uint32_t id;

	if (!st) {
		return 0;
	}
	f = bt_field_structure_borrow_member_field_by_name_const(st, name);
	if (!f || bt_field_get_class_type(f) != BT_FIELD_CLASS_TYPE_STRING) {
		return 0;
	}
	id = ks_intern(in->k, bt_field_string_get_value(f));
	if (id == UINT32_MAX) {
		in->nomem = true;
		return 0;
	}
	return id;
}

/* The comm an exec gives: the file's base name, cut to TASK_COMM_LEN - 1 = 15 bytes. */
static uint32_t exec_comm(struct kin *in, const bt_field *st)
{
	const bt_field *f =
	    st ? bt_field_structure_borrow_member_field_by_name_const(st, "filename") : NULL;
	const char *path, *base;
	char comm[16];
	uint32_t id;

	if (!f || bt_field_get_class_type(f) != BT_FIELD_CLASS_TYPE_STRING) {
		return 0;
	}
	path = bt_field_string_get_value(f);
	base = strrchr(path, '/');
	snprintf(comm, sizeof(comm), "%s", base ? base + 1 : path);
	id = ks_intern(in->k, comm);
	if (id == UINT32_MAX) {
		in->nomem = true;
		return 0;
	}
	return id;
}

static int32_t i32(int64_t v)
{
	return v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : (int32_t)v;
}

/*
 * True when a block request writes: perf gives rwbs as text ("W", "WS", "WM",
 * "R", "RA", "FF", ...), LTTng as an integer of RWBS_FLAG_* bits, bit 0 the write.
 */
static bool rwbs_writes(const bt_field *pl)
{
	const bt_field *f =
	    pl ? bt_field_structure_borrow_member_field_by_name_const(pl, "rwbs") : NULL;
	int64_t v;

	if (f && bt_field_get_class_type(f) == BT_FIELD_CLASS_TYPE_STRING) {
		return strchr(bt_field_string_get_value(f), 'W') != NULL;
	}
	return member_int(pl, "rwbs", &v) && (v & 0x1);
}

static int16_t i16(int64_t v)
{
	return v < INT16_MIN ? INT16_MIN : v > INT16_MAX ? INT16_MAX : (int16_t)v;
}

/* An event name of one tracer and what it is: a ks_kind, or a packet event (KS_NET_*). */
struct kname {
	const char *name;
	uint8_t kind;
	uint8_t net;
};

/*
 * How one tracer names the events and fields the analysis reads
 * (docs/tracepoints.md, "Reading LTTng's kernel trace").
 */
struct flavour {
	const struct kname *names;
	size_t n_names;
	const char *writeback;		 /* the prefix of every writeback event */
	const char *prev_pid, *next_pid; /* sched_switch's tids */
	const char *task_pid;		 /* the task of a wake-up, migration, exec */
	int prio_offset; /* added to a priority to give the kernel's (LTTng: prio - MAX_RT_PRIO) */
	bool in_context; /* the running task is in the common context (LTTng), else the payload */
	const char *running; /* its global tid */
	const char *local;   /* its tid as the recorder's PID namespace sees it */
};

static const struct kname perf_names[] = {
	{ "sched:sched_switch", KS_SWITCH, 0 },
	{ "sched:sched_wakeup", KS_WAKEUP, 0 },
	{ "sched:sched_wakeup_new", KS_WAKEUP, 0 },
	{ "sched:sched_waking", KS_WAKEUP, 0 },
	{ "sched:sched_migrate_task", KS_MIGRATE, 0 },
	{ "irq:irq_handler_entry", KS_IRQ_ENTRY, 0 },
	{ "irq:irq_handler_exit", KS_IRQ_EXIT, 0 },
	{ "irq:softirq_entry", KS_SOFTIRQ_ENTRY, 0 },
	{ "irq:softirq_exit", KS_SOFTIRQ_EXIT, 0 },
	{ "block:block_rq_issue", KS_BLOCK_ISSUE, 0 },
	{ "block:block_rq_complete", KS_BLOCK_COMPLETE, 0 },
	{ "sched:sched_process_exec", KS_EXEC, 0 },
	{ "net:net_dev_xmit", 0, KS_NET_TX },
	{ "skb:skb_copy_datagram_iovec", 0, KS_NET_RX_COPY },
};

/* lttng-modules 2.13: no subsystem prefix, and softirq_* is irq_softirq_* */
static const struct kname lttng_names[] = {
	{ "sched_switch", KS_SWITCH, 0 },
	{ "sched_wakeup", KS_WAKEUP, 0 },
	{ "sched_wakeup_new", KS_WAKEUP, 0 },
	{ "sched_waking", KS_WAKEUP, 0 },
	{ "sched_migrate_task", KS_MIGRATE, 0 },
	{ "irq_handler_entry", KS_IRQ_ENTRY, 0 },
	{ "irq_handler_exit", KS_IRQ_EXIT, 0 },
	{ "irq_softirq_entry", KS_SOFTIRQ_ENTRY, 0 },
	{ "irq_softirq_exit", KS_SOFTIRQ_EXIT, 0 },
	{ "block_rq_issue", KS_BLOCK_ISSUE, 0 },
	{ "block_rq_complete", KS_BLOCK_COMPLETE, 0 },
	{ "sched_process_exec", KS_EXEC, 0 },
	{ "net_dev_xmit", 0, KS_NET_TX },
	{ "skb_copy_datagram_iovec", 0, KS_NET_RX_COPY },
};

static const struct flavour perf_flavour = {
	.names = perf_names,
	.n_names = sizeof(perf_names) / sizeof(perf_names[0]),
	.writeback = "writeback:",
	.prev_pid = "prev_pid",
	.next_pid = "next_pid",
	.task_pid = "pid",
	.prio_offset = 0,
	.in_context = false,
	.running = "common_pid",
	.local = "perf_tid",
};

static const struct flavour lttng_flavour = {
	.names = lttng_names,
	.n_names = sizeof(lttng_names) / sizeof(lttng_names[0]),
	.writeback = "writeback_",
	.prev_pid = "prev_tid",
	.next_pid = "next_tid",
	.task_pid = "tid",
	.prio_offset = 100,
	.in_context = true,
	.running = "tid",
	.local = "vtid",
};

/* A string entry of the trace's environment ("" when absent). */
static const char *env_string(const bt_event *ev, const char *name)
{
	const bt_trace *t = bt_stream_borrow_trace_const(bt_event_borrow_stream_const(ev));
	const bt_value *v = bt_trace_borrow_environment_entry_value_by_name_const(t, name);

	return v && bt_value_is_string(v) ? bt_value_string_get(v) : "";
}

/* The entry of an event name in the flavour's table, NULL for one the analysis does not use. */
static const struct kname *kname_of(const struct flavour *fl, const char *name)
{
	static const struct kname writeback = { "", KS_WRITEBACK, 0 };
	size_t i;

	for (i = 0; i < fl->n_names; i++) {
		if (!strcmp(name, fl->names[i].name)) {
			return &fl->names[i];
		}
	}
	return strncmp(name, fl->writeback, strlen(fl->writeback)) ? NULL : &writeback;
}

/*
 * The tracer that wrote the trace: its environment's tracer_name ("perf",
 * "lttng-modules"), else the first event name one table knows (perf's own
 * records, perf_comm, ..., hold no "subsystem:"); NULL until then.
 */
static const struct flavour *flavour_of(const bt_event *ev, const char *name)
{
	const char *tracer = env_string(ev, "tracer_name");

	if (!strcmp(tracer, "lttng-modules")) {
		return &lttng_flavour;
	}
	if (!strcmp(tracer, "perf")) {
		return &perf_flavour;
	}
	if (kname_of(&perf_flavour, name)) {
		return &perf_flavour;
	}
	return kname_of(&lttng_flavour, name) ? &lttng_flavour : NULL;
}

/* A priority field in the kernel's convention (perf's: 0..139, lower more urgent); -1 absent. */
static int16_t prio_of(const struct flavour *fl, const bt_field *pl, const char *name)
{
	int64_t v;

	return member_int(pl, name, &v) ? i16(v + fl->prio_offset) : -1;
}

/* A send or a copy to user space, in the thread's context (running). */
static void handle_net(struct kin *in, uint8_t dir, const struct ks_event *at, const bt_field *pl)
{
	struct ks_net e;
	int64_t v = 0;

	memset(&e, 0, sizeof(e));
	e.ts = at->ts;
	e.cpu = at->cpu;
	e.dir = dir;
	e.pid = at->running;
	member_int(pl, "len", &v);
	e.len = v < 0 ? 0 : v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	e.dev = dir == KS_NET_TX ? member_name(in, pl, "name") : 0;
	if (ks_add_net(in->k, &e) < 0) {
		in->nomem = true;
	}
}

/* The payload of a sched_switch. */
static void read_switch(struct kin *in, const bt_field *pl, struct ks_event *e)
{
	const struct flavour *fl = in->fl;
	int64_t v = 0;

	in->switches++;
	member_int(pl, fl->prev_pid, &v);
	e->pid = i32(v);
	v = 0;
	member_int(pl, fl->next_pid, &v);
	e->next_pid = i32(v);
	v = 0;
	member_int(pl, "prev_state", &v);
	e->arg = v;
	e->prev_prio = prio_of(fl, pl, "prev_prio");
	e->next_prio = prio_of(fl, pl, "next_prio");
	e->name = member_name(in, pl, "next_comm");
	e->prev_name = member_name(in, pl, "prev_comm");
}

/* The payload of the other kinds (ks_kind's comments say what each takes). */
static void read_payload(struct kin *in, const bt_field *pl, struct ks_event *e)
{
	const struct flavour *fl = in->fl;
	int64_t v = 0;

	switch (e->kind) {
	case KS_SWITCH:
		read_switch(in, pl, e);
		break;
	case KS_WAKEUP:
	case KS_MIGRATE:
		member_int(pl, fl->task_pid, &v);
		e->pid = i32(v);
		v = -1;
		member_int(pl, e->kind == KS_WAKEUP ? "target_cpu" : "dest_cpu", &v);
		e->arg = v;
		e->name = member_name(in, pl, "comm");
		e->next_prio = prio_of(fl, pl, "prio");
		break;
	case KS_IRQ_ENTRY:
	case KS_IRQ_EXIT:
		member_int(pl, "irq", &v);
		e->arg = v;
		e->name = e->kind == KS_IRQ_ENTRY ? member_name(in, pl, "name") : 0;
		break;
	case KS_SOFTIRQ_ENTRY:
	case KS_SOFTIRQ_EXIT:
		member_int(pl, "vec", &v);
		e->arg = v;
		break;
	case KS_BLOCK_ISSUE:
		e->pid = e->running;
		e->arg = rwbs_writes(pl) ? KS_BLOCK_WRITE : 0;
		break;
	case KS_EXEC:
		member_int(pl, fl->task_pid, &v);
		e->pid = i32(v);
		e->name = exec_comm(in, pl);
		break;
	default:
		e->pid = e->running;
		break;
	}
}

/*
 * The task the event fired in (perf: the payload's common_pid; LTTng: the
 * tid context), and its tid in the recorder's PID namespace mapped to it
 * (perf_tid, vtid) when they differ.
 */
static void read_running(struct kin *in, const bt_event *ev, const bt_field *pl, struct ks_event *e)
{
	const bt_field *scope =
	    in->fl->in_context ? bt_event_borrow_common_context_field_const(ev) : pl;
	int64_t running, local;

	if (!member_int(scope, in->fl->running, &running)) {
		return;
	}
	e->running = i32(running);
	e->running_known = true;
	if (member_int(scope, in->fl->local, &local) && local > 0 && local != running &&
	    ks_map_pid(in->k, i32(running), i32(local)) < 0) {
		in->nomem = true;
	}
}

/*
 * *ns (from origin) made the clock's own reading: less where its class puts
 * cycle 0 (perf's converted clock: 0, or the epoch offset dgrdma-capture
 * wrote; LTTng's: the epoch offset it measured). False when it cannot say.
 */
static bool clock_reading(struct kin *in, const bt_message *msg, int64_t *ns)
{
	const bt_clock_class *cc =
	    bt_message_event_borrow_stream_class_default_clock_class_const(msg);

	if (cc != in->cc) {
		if (bt_clock_class_cycles_to_ns_from_origin(cc, 0, &in->origin_ns) !=
		    BT_CLOCK_CLASS_CYCLES_TO_NS_FROM_ORIGIN_STATUS_OK) {
			return false;
		}
		in->cc = cc;
	}
	*ns -= in->origin_ns;
	return true;
}

static void handle_event(struct kin *in, const bt_message *msg)
{
	const bt_event *ev = bt_message_event_borrow_event_const(msg);
	const char *name = bt_event_class_get_name(bt_event_borrow_class_const(ev));
	const bt_field *pl = bt_event_borrow_payload_field_const(ev);
	const bt_packet *pk = bt_event_borrow_packet_const(ev);
	const struct kname *kn;
	struct ks_event e;
	int64_t ns, v = 0;

	if (!name) {
		return;
	}
	if (!in->fl) {
		in->fl = flavour_of(ev, name);
	}
	kn = in->fl ? kname_of(in->fl, name) : NULL;
	if (!kn || !bt_message_event_borrow_stream_class_default_clock_class_const(msg) ||
	    bt_clock_snapshot_get_ns_from_origin(
		bt_message_event_borrow_default_clock_snapshot_const(msg), &ns) !=
		BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK) {
		return;
	}
	memset(&e, 0, sizeof(e));
	e.kind = kn->kind;
	if (in->axis == KIN_CLOCK_READING && !clock_reading(in, msg, &ns)) {
		return;
	}
	ns += in->offset_ns;
	e.ts = ns > 0 ? (uint64_t)ns : 0;
	if (!pk || !member_int(bt_packet_borrow_context_field_const(pk), "cpu_id", &v) || v < 0 ||
	    v >= KS_MAX_CPUS) {
		return;
	}
	e.cpu = (uint16_t)v;
	read_running(in, ev, pl, &e);
	if (kn->net) {
		handle_net(in, kn->net, &e, pl);
		return;
	}
	read_payload(in, pl, &e);
	if (ks_add(in->k, &e) < 0) {
		in->nomem = true;
	}
}

static bt_graph_simple_sink_component_consume_func_status consume(bt_message_iterator *it,
								  void *data)
{
	struct kin *in = data;
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
		if (!in->nomem && bt_message_get_type(msgs[i]) == BT_MESSAGE_TYPE_EVENT) {
			handle_event(in, msgs[i]);
		}
		bt_message_put_ref(msgs[i]);
	}
	return in->nomem ? BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR
			 : BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

/* The first cause of the current libbabeltrace2 error after what, in errbuf. */
static int bt_fail(char *errbuf, const char *path, const char *what)
{
	const bt_error *err = bt_current_thread_take_error();
	const char *m = "";

	if (err && bt_error_get_cause_count(err) > 0) {
		m = bt_error_cause_get_message(bt_error_borrow_cause_by_index(err, 0));
	}
	dgr_errbuf_set(errbuf, DGR_E_INVAL, "the kernel trace %s: %s%s%.160s", path, what,
		       m[0] ? ": " : "", m);
	if (err) {
		bt_error_release(err);
	}
	return -DGR_E_INVAL;
}

int kernel_graph_read(const char *path, int64_t offset_ns, enum kin_axis axis,
		      struct kernel_sched *k, char *errbuf)
{
	const bt_plugin *ctf = NULL, *utils = NULL;
	bt_graph *g = NULL;
	bt_value *params = NULL, *inputs = NULL;
	const bt_component_source *src = NULL;
	const bt_component_filter *mux = NULL;
	const bt_component_sink *sink = NULL;
	struct kin in = { .k = k, .offset_ns = offset_ns, .axis = axis };
	bt_graph_run_status rs;
	uint64_t i, nports;
	int ret;

	bt_logging_set_global_level(BT_LOGGING_LEVEL_NONE);
	if (bt_plugin_find("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, &ctf) !=
		BT_PLUGIN_FIND_STATUS_OK ||
	    bt_plugin_find("utils", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, &utils) !=
		BT_PLUGIN_FIND_STATUS_OK) {
		ret = bt_fail(errbuf, path,
			      "libbabeltrace2's 'ctf' and 'utils' plugins are needed (Debian "
			      "package babeltrace2)");
		goto end;
	}
	g = bt_graph_create(0);
	params = bt_value_map_create();
	if (!g || !params ||
	    bt_value_map_insert_empty_array_entry(params, "inputs", &inputs) !=
		BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK ||
	    bt_value_array_append_string_element(inputs, path) !=
		BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK) {
		ret = dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
		goto end;
	}
	if (bt_graph_add_source_component(
		g, bt_plugin_borrow_source_component_class_by_name_const(ctf, "fs"), "src", params,
		BT_LOGGING_LEVEL_NONE, &src) != BT_GRAPH_ADD_COMPONENT_STATUS_OK ||
	    bt_graph_add_filter_component(
		g, bt_plugin_borrow_filter_component_class_by_name_const(utils, "muxer"), "mux",
		NULL, BT_LOGGING_LEVEL_NONE, &mux) != BT_GRAPH_ADD_COMPONENT_STATUS_OK ||
	    bt_graph_add_simple_sink_component(g, "sink", NULL, consume, NULL, &in, &sink) !=
		BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
		ret = bt_fail(errbuf, path, "babeltrace2 cannot open it");
		goto end;
	}
	nports = bt_component_source_get_output_port_count(src);
	for (i = 0; i < nports; i++) {
		if (bt_graph_connect_ports(
			g, bt_component_source_borrow_output_port_by_index_const(src, i),
			bt_component_filter_borrow_input_port_by_index_const(mux, i),
			NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
			ret = bt_fail(errbuf, path, "babeltrace2 cannot connect its streams");
			goto end;
		}
	}
	if (bt_graph_connect_ports(g, bt_component_filter_borrow_output_port_by_index_const(mux, 0),
				   bt_component_sink_borrow_input_port_by_index_const(sink, 0),
				   NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
		ret = bt_fail(errbuf, path, "babeltrace2 cannot connect the muxer");
		goto end;
	}
	do {
		rs = bt_graph_run(g);
		if (rs == BT_GRAPH_RUN_STATUS_AGAIN) {
			usleep(1000);
		}
	} while (rs == BT_GRAPH_RUN_STATUS_AGAIN);
	if (in.nomem) {
		ret =
		    dgr_errbuf_set(errbuf, DGR_E_NOMEM, "the kernel trace %s: out of memory", path);
		goto end;
	}
	if (rs != BT_GRAPH_RUN_STATUS_OK) {
		ret = bt_fail(errbuf, path, "babeltrace2 cannot read it");
		goto end;
	}
	if (!in.switches) {
		ret =
		    dgr_errbuf_set(errbuf, DGR_E_INVAL,
				   "the kernel trace %s has no sched_switch event (record it with "
				   "perf record -a -k CLOCK_MONOTONIC -e sched:sched_switch,... "
				   "or lttng enable-event -k sched_switch,...)",
				   path);
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
