// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel traces in CTF 1.8 as perf's converter and LTTng's kernel tracer
 * write them (kernel_ctf.h). The layouts: perf as `perf data convert
 * --to-ctf` of Debian's linux-perf 6.1 wrote them here (babeltrace2
 * --output-format=ctf-metadata); LTTng from lttng-modules 2.13's
 * include/instrumentation/events/ headers (docs/tracepoints.md cites them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_ctf.h"

enum ftype {
	FT_I32,
	FT_U32,
	FT_I64,
	FT_U64,
	FT_HEX64,
	FT_STR,	   /* a NUL-terminated string (perf's text, LTTng's ctf_string) */
	FT_TEXT16, /* LTTng's ctf_array_text of TASK_COMM_LEN bytes */
	FT_TEXT32, /* LTTng's ctf_array_text of 32 bytes (a writeback device's name) */
};

struct fld {
	enum ftype type;
	const char *name;
	int64_t v;
	const char *s;
};

#define MAX_FIELDS 24

struct buf {
	unsigned char *p;
	size_t n, cap;
	bool nomem;
};

static void put(struct buf *b, const void *src, size_t len)
{
	unsigned char *q;
	size_t cap;

	if (b->nomem) {
		return;
	}
	if (b->n + len > b->cap) {
		cap = b->cap ? b->cap * 2 : 4096;
		while (cap < b->n + len) {
			cap *= 2;
		}
		q = realloc(b->p, cap);
		if (!q) {
			b->nomem = true;
			return;
		}
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->n, src, len);
	b->n += len;
}

/* A little-endian integer of size bytes. */
static void put_le(struct buf *b, uint64_t v, unsigned int size)
{
	unsigned char le[8];
	unsigned int i;

	for (i = 0; i < size; i++) {
		le[i] = (unsigned char)(v >> (8 * i));
	}
	put(b, le, size);
}

static void put_text(struct buf *b, const char *s, size_t size)
{
	char t[32];

	memset(t, 0, sizeof(t));
	snprintf(t, size, "%s", s ? s : "");
	put(b, t, size);
}

static void put_field(struct buf *b, const struct fld *f)
{
	char num[24];

	switch (f->type) {
	case FT_I32:
	case FT_U32:
		put_le(b, (uint64_t)f->v, 4);
		break;
	case FT_I64:
	case FT_U64:
	case FT_HEX64:
		put_le(b, (uint64_t)f->v, 8);
		break;
	case FT_STR:
		if (!f->s) {
			snprintf(num, sizeof(num), "%lld", (long long)f->v);
		}
		put(b, f->s ? f->s : num, strlen(f->s ? f->s : num) + 1);
		break;
	case FT_TEXT16:
		put_text(b, f->s, 16);
		break;
	case FT_TEXT32:
		put_text(b, f->s, 32);
		break;
	}
}

static const char *const perf_names[KCTF_KINDS] = {
	[KCTF_SWITCH] = "sched:sched_switch",
	[KCTF_WAKEUP] = "sched:sched_wakeup",
	[KCTF_WAKING] = "sched:sched_waking",
	[KCTF_WAKEUP_NEW] = "sched:sched_wakeup_new",
	[KCTF_MIGRATE] = "sched:sched_migrate_task",
	[KCTF_EXEC] = "sched:sched_process_exec",
	[KCTF_IRQ_ENTRY] = "irq:irq_handler_entry",
	[KCTF_IRQ_EXIT] = "irq:irq_handler_exit",
	[KCTF_SOFTIRQ_ENTRY] = "irq:softirq_entry",
	[KCTF_SOFTIRQ_EXIT] = "irq:softirq_exit",
	[KCTF_BLOCK_ISSUE] = "block:block_rq_issue",
	[KCTF_BLOCK_COMPLETE] = "block:block_rq_complete",
	[KCTF_WRITEBACK_START] = "writeback:writeback_start",
	[KCTF_WRITEBACK_WRITTEN] = "writeback:writeback_written",
	[KCTF_NAPI_POLL] = "napi:napi_poll",
	[KCTF_NET_XMIT] = "net:net_dev_xmit",
	[KCTF_SKB_COPY] = "skb:skb_copy_datagram_iovec",
};

/* lttng-modules: the kernel's name without its subsystem; softirq_* mapped to irq_softirq_* */
static const char *const lttng_names[KCTF_KINDS] = {
	[KCTF_SWITCH] = "sched_switch",
	[KCTF_WAKEUP] = "sched_wakeup",
	[KCTF_WAKING] = "sched_waking",
	[KCTF_WAKEUP_NEW] = "sched_wakeup_new",
	[KCTF_MIGRATE] = "sched_migrate_task",
	[KCTF_EXEC] = "sched_process_exec",
	[KCTF_IRQ_ENTRY] = "irq_handler_entry",
	[KCTF_IRQ_EXIT] = "irq_handler_exit",
	[KCTF_SOFTIRQ_ENTRY] = "irq_softirq_entry",
	[KCTF_SOFTIRQ_EXIT] = "irq_softirq_exit",
	[KCTF_BLOCK_ISSUE] = "block_rq_issue",
	[KCTF_BLOCK_COMPLETE] = "block_rq_complete",
	[KCTF_WRITEBACK_START] = "writeback_start",
	[KCTF_WRITEBACK_WRITTEN] = "writeback_written",
	[KCTF_NAPI_POLL] = "napi_poll",
	[KCTF_NET_XMIT] = "net_dev_xmit",
	[KCTF_SKB_COPY] = "skb_copy_datagram_iovec",
};

static size_t add(struct fld *f, size_t n, enum ftype t, const char *name, int64_t v, const char *s)
{
	f[n] = (struct fld){ .type = t, .name = name, .v = v, .s = s };
	return n + 1;
}

/* perf's common fields: its sample's (perf_*) and the tracepoint's (common_*). */
static size_t perf_common(const struct kctf_event *e, struct fld *f)
{
	size_t n = 0;

	n = add(f, n, FT_HEX64, "perf_ip", (int64_t)0xffffffff81000000ull, NULL);
	n = add(f, n, FT_I32, "perf_tid", e->cur->vtid, NULL);
	n = add(f, n, FT_I32, "perf_pid", e->cur->pid, NULL);
	n = add(f, n, FT_U64, "perf_id", (int64_t)e->kind, NULL);
	n = add(f, n, FT_U64, "perf_period", 1, NULL);
	n = add(f, n, FT_U32, "common_type", 300 + (int64_t)e->kind, NULL);
	n = add(f, n, FT_U32, "common_flags", 1, NULL);
	n = add(f, n, FT_U32, "common_preempt_count", 0, NULL);
	return add(f, n, FT_I32, "common_pid", e->cur->tid, NULL);
}

/*
 * The payload of an event in a flavour's layout. perf: Linux 6.1's format
 * files (pid fields, the kernel's priority, rwbs as text, comms as strings);
 * LTTng: lttng-modules 2.13 (tid fields, prio - MAX_RT_PRIO, rwbs as
 * RWBS_FLAG_* bits, comms as char[16]).
 */
static size_t fields_of(const struct kctf_event *e, enum kctf_flavour fl, struct fld *f)
{
	bool lt = fl == KCTF_LTTNG;
	enum ftype comm = lt ? FT_TEXT16 : FT_STR;
	const char *pid = lt ? "tid" : "pid";
	int prio_off = lt ? -100 : 0;
	size_t n = lt ? 0 : perf_common(e, f);

	switch (e->kind) {
	case KCTF_SWITCH:
		n = add(f, n, comm, "prev_comm", 0, e->task->comm);
		n = add(f, n, FT_I32, lt ? "prev_tid" : "prev_pid", e->task->tid, NULL);
		n = add(f, n, FT_I32, "prev_prio", e->task->prio + prio_off, NULL);
		n = add(f, n, FT_I64, "prev_state", e->arg, NULL);
		n = add(f, n, comm, "next_comm", 0, e->next->comm);
		n = add(f, n, FT_I32, lt ? "next_tid" : "next_pid", e->next->tid, NULL);
		n = add(f, n, FT_I32, "next_prio", e->next->prio + prio_off, NULL);
		break;
	case KCTF_WAKEUP:
	case KCTF_WAKING:
	case KCTF_WAKEUP_NEW:
	case KCTF_MIGRATE:
		n = add(f, n, comm, "comm", 0, e->task->comm);
		n = add(f, n, FT_I32, pid, e->task->tid, NULL);
		n = add(f, n, FT_I32, "prio", e->task->prio + prio_off, NULL);
		if (e->kind == KCTF_MIGRATE) {
			n = add(f, n, FT_I32, "orig_cpu", e->cpu, NULL);
			n = add(f, n, FT_I32, "dest_cpu", e->arg, NULL);
		} else {
			n = add(f, n, FT_I32, "target_cpu", e->arg, NULL);
		}
		break;
	case KCTF_EXEC:
		n = add(f, n, FT_STR, "filename", 0, e->text);
		n = add(f, n, FT_I32, pid, e->task->tid, NULL);
		n = add(f, n, FT_I32, lt ? "old_tid" : "old_pid", e->task->tid, NULL);
		break;
	case KCTF_IRQ_ENTRY:
		n = add(f, n, FT_I32, "irq", e->arg, NULL);
		n = add(f, n, FT_STR, "name", 0, e->text);
		break;
	case KCTF_IRQ_EXIT:
		n = add(f, n, FT_I32, "irq", e->arg, NULL);
		n = add(f, n, FT_I32, "ret", 1, NULL);
		break;
	case KCTF_SOFTIRQ_ENTRY:
	case KCTF_SOFTIRQ_EXIT:
		n = add(f, n, FT_U32, "vec", e->arg, NULL);
		break;
	case KCTF_BLOCK_ISSUE:
	case KCTF_BLOCK_COMPLETE:
		n = add(f, n, FT_U32, "dev", 0x800010, NULL);
		n = add(f, n, FT_U64, "sector", 2048, NULL);
		n = add(f, n, FT_U32, "nr_sector", 8, NULL);
		if (e->kind == KCTF_BLOCK_ISSUE) {
			n = add(f, n, FT_U32, "bytes", 4096, NULL);
			if (lt) {
				n = add(f, n, FT_I32, "tid", e->cur->tid, NULL);
			}
		} else {
			n = add(f, n, FT_I32, "error", 0, NULL);
		}
		/* a synchronous write or a read ahead: RWBS_FLAG_WRITE|SYNC, READ|RAHEAD */
		if (lt) {
			n = add(f, n, FT_U32, "rwbs", e->arg ? 0x1 | 0x20 : 0x4 | 0x8, NULL);
		} else {
			n = add(f, n, FT_STR, "rwbs", 0, e->arg ? "WS" : "RA");
		}
		if (e->kind == KCTF_BLOCK_ISSUE) {
			n = add(f, n, comm, "comm", 0, e->cur->comm);
		}
		break;
	case KCTF_WRITEBACK_START:
	case KCTF_WRITEBACK_WRITTEN:
		n = add(f, n, lt ? FT_TEXT32 : FT_STR, "name", 0, "8:16");
		n = add(f, n, FT_I64, "nr_pages", 1024, NULL);
		n = add(f, n, FT_I32, "reason", 1, NULL);
		break;
	case KCTF_NAPI_POLL:
		n = add(f, n, FT_HEX64, "napi", (int64_t)0xffff888100200000ull, NULL);
		n = add(f, n, FT_STR, "dev_name", 0, e->text);
		n = add(f, n, FT_I32, "work", 1, NULL);
		n = add(f, n, FT_I32, "budget", 64, NULL);
		break;
	case KCTF_NET_XMIT:
		n = add(f, n, FT_HEX64, "skbaddr", (int64_t)0xffff888100300000ull, NULL);
		if (lt) {
			n = add(f, n, FT_I32, "rc", 0, NULL);
			n = add(f, n, FT_U32, "len", e->arg, NULL);
		} else {
			n = add(f, n, FT_U32, "len", e->arg, NULL);
			n = add(f, n, FT_I32, "rc", 0, NULL);
		}
		n = add(f, n, FT_STR, "name", 0, e->text);
		break;
	case KCTF_SKB_COPY:
		n = add(f, n, FT_HEX64, "skbaddr", (int64_t)0xffff888100400000ull, NULL);
		n = add(f, n, FT_I32, "len", e->arg, NULL);
		break;
	case KCTF_KINDS:
		break;
	}
	return n;
}

/* The payload as written: fields_of's, or with every integer as text (ints_as_text). */
static size_t payload_of(const struct kctf_event *e, const struct kctf_opts *o, struct fld *f)
{
	size_t i, n = fields_of(e, o->flavour, f);

	for (i = 0; o->ints_as_text && i < n; i++) {
		if (f[i].type != FT_STR && f[i].type != FT_TEXT16 && f[i].type != FT_TEXT32) {
			f[i].type = FT_STR;
			f[i].s = NULL;
		}
	}
	return n;
}

/* The TSDL of one field; LTTng prefixes every name with '_' (babeltrace2 strips it). */
static void tsdl_field(FILE *m, const struct fld *f, bool lt)
{
	static const char *const ints[] = {
		[FT_I32] = "size = 32; align = 8; signed = true; encoding = none; base = 10;",
		[FT_U32] = "size = 32; align = 8; signed = false; encoding = none; base = 10;",
		[FT_I64] = "size = 64; align = 8; signed = true; encoding = none; base = 10;",
		[FT_U64] = "size = 64; align = 8; signed = false; encoding = none; base = 10;",
		[FT_HEX64] = "size = 64; align = 8; signed = false; encoding = none; base = 16;",
	};
	const char *us = lt ? "_" : "";

	switch (f->type) {
	case FT_STR:
		fprintf(m, "\t\tstring { encoding = UTF8; } %s%s;\n", us, f->name);
		break;
	case FT_TEXT16:
	case FT_TEXT32:
		fprintf(
		    m,
		    "\t\tinteger { size = 8; align = 8; signed = false; encoding = UTF8; base = "
		    "10; } %s%s[%d];\n",
		    us, f->name, f->type == FT_TEXT16 ? 16 : 32);
		break;
	default:
		fprintf(m, "\t\tinteger { %s byte_order = le; } %s%s;\n", ints[f->type], us,
			f->name);
		break;
	}
}

static const unsigned char trace_uuid[16] = { 0x6b, 0x63, 0x74, 0x66, 0x2d, 0x64, 0x67, 0x72,
					      0x2d, 0x74, 0x65, 0x73, 0x74, 0x00, 0x00, 0x01 };
#define UUID_TEXT "6b637466-2d64-6772-2d74-657374000001"

static void tsdl_head(FILE *m, const struct kctf_opts *o)
{
	bool lt = o->flavour == KCTF_LTTNG;
	const char *tracer = o->tracer_name ? o->tracer_name : lt ? "lttng-modules" : "perf";
	const char *clock = lt ? "monotonic" : "perf_clock";

	fprintf(m, "/* CTF 1.8 */\n\n");
	fprintf(m, "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		   "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
		   "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		   "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n\n");
	fprintf(m,
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"" UUID_TEXT "\";\n"
		"\tbyte_order = le;\n\tpacket.header := struct {\n\t\tuint32_t magic;\n"
		"\t\tuint8_t  uuid[16];\n\t\tuint32_t stream_id;\n%s\t} align(8);\n};\n\n",
		lt ? "\t\tuint64_t stream_instance_id;\n" : "");
	/* the env blocks as each tracer writes them (lttng-modules: its session's statedump) */
	fprintf(m, "env {\n");
	if (lt) {
		fprintf(m, "\thostname = \"gen\";\n\tdomain = \"kernel\";\n\tsysname = \"Linux\";\n"
			   "\tkernel_release = \"6.1.0-28-amd64\";\n"
			   "\tkernel_version = \"#1 SMP PREEMPT_DYNAMIC Debian 6.1.119-1\";\n");
	} else {
		fprintf(m, "\thost = \"gen\";\n\tsysname = \"Linux\";\n\trelease = \"6.1.0\";\n"
			   "\tversion = \"6.1.119\";\n\tmachine = \"x86_64\";\n"
			   "\tdomain = \"kernel\";\n");
	}
	if (tracer[0]) {
		fprintf(m, "\ttracer_name = \"%s\";\n", tracer);
	}
	if (lt) {
		fprintf(m, "\ttracer_major = 2;\n\ttracer_minor = 13;\n\ttracer_patchlevel = 0;\n"
			   "\ttrace_buffering_scheme = \"global\";\n"
			   "\ttrace_name = \"dgrdma-gen-kernel\";\n"
			   "\ttrace_creation_datetime = \"20261204T120000+0000\";\n");
	}
	fprintf(m, "};\n\n");
	/* lttng-modules writes the offset in ns alone; perf's converter offset_s and offset */
	fprintf(m,
		"clock {\n\tname = \"%s\";\n\tuuid = \"" UUID_TEXT "\";\n"
		"\tdescription = \"%s\";\n\tfreq = 1000000000;\n",
		clock, lt ? "Monotonic Clock" : "perf clock");
	if (lt) {
		fprintf(m, "\toffset = %llu;\n};\n\n", (unsigned long long)o->clock_offset_ns);
	} else {
		fprintf(m,
			"\tprecision = 10;\n\toffset_s = %llu;\n\toffset = %llu;\n"
			"\tabsolute = TRUE;\n};\n\n",
			(unsigned long long)(o->clock_offset_ns / 1000000000ull),
			(unsigned long long)(o->clock_offset_ns % 1000000000ull));
	}
	fprintf(m,
		"typealias integer { size = 32; align = 8; signed = false; map = clock.%s.value; "
		"} := uint32_clock_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; map = clock.%s.value; "
		"} := uint64_clock_t;\n\n",
		clock, clock);
}

static void tsdl_stream(FILE *m, bool lt)
{
	fprintf(m, "stream {\n\tid = 0;\n");
	if (lt) {
		/* lttng-modules' large header: the extended form always, a full timestamp */
		fprintf(m, "\tevent.header := struct {\n"
			   "\t\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
			   "\t\tvariant <id> {\n"
			   "\t\t\tstruct { uint32_clock_t timestamp; } compact;\n"
			   "\t\t\tstruct { uint32_t id; uint64_clock_t timestamp; } extended;\n"
			   "\t\t} v;\n\t} align(8);\n");
		fprintf(m, "\tpacket.context := struct {\n\t\tuint64_clock_t timestamp_begin;\n"
			   "\t\tuint64_clock_t timestamp_end;\n\t\tuint64_t content_size;\n"
			   "\t\tuint64_t packet_size;\n\t\tuint64_t packet_seq_num;\n"
			   "\t\tuint64_t events_discarded;\n\t\tuint32_t cpu_id;\n\t} align(8);\n");
		/* dgrdma-capture's add-context -k -t tid -t pid -t procname -t vtid */
		fprintf(m,
			"\tevent.context := struct {\n"
			"\t\tinteger { size = 32; align = 8; signed = true; encoding = none; base "
			"= 10; } _tid;\n"
			"\t\tinteger { size = 32; align = 8; signed = true; encoding = none; base "
			"= 10; } _pid;\n"
			"\t\tinteger { size = 8; align = 8; signed = false; encoding = UTF8; base "
			"= 10; } _procname[16];\n"
			"\t\tinteger { size = 32; align = 8; signed = true; encoding = none; base "
			"= 10; } _vtid;\n"
			"\t} align(8);\n");
	} else {
		fprintf(m, "\tevent.header := struct {\n\t\tuint32_t id;\n"
			   "\t\tuint64_clock_t timestamp;\n\t} align(8);\n");
		fprintf(m, "\tpacket.context := struct {\n\t\tuint64_t timestamp_begin;\n"
			   "\t\tuint64_t timestamp_end;\n\t\tuint64_t content_size;\n"
			   "\t\tuint64_t packet_size;\n\t\tuint64_t events_discarded;\n"
			   "\t\tuint32_t cpu_id;\n\t} align(8);\n");
	}
	fprintf(m, "};\n\n");
}

/* The metadata: one event class per kind that occurs (its fields from its first event). */
static int write_metadata(const char *dir, const struct kctf_opts *o, const struct kctf_event *ev,
			  size_t n)
{
	bool lt = o->flavour == KCTF_LTTNG, seen[KCTF_KINDS] = { false };
	struct fld f[MAX_FIELDS];
	char path[4096];
	size_t i, j, nf;
	FILE *m;
	int ret;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	m = fopen(path, "w");
	if (!m) {
		return -1;
	}
	tsdl_head(m, o);
	tsdl_stream(m, lt);
	for (i = 0; i < n; i++) {
		if (seen[ev[i].kind]) {
			continue;
		}
		seen[ev[i].kind] = true;
		fprintf(m, "event {\n\tname = \"%s\";\n\tid = %d;\n\tstream_id = 0;\n",
			lt ? lttng_names[ev[i].kind] : perf_names[ev[i].kind], (int)ev[i].kind);
		fprintf(m, "\tfields := struct {\n");
		nf = payload_of(&ev[i], o, f);
		for (j = 0; j < nf; j++) {
			tsdl_field(m, &f[j], lt);
		}
		fprintf(m, "\t} align(8);\n};\n\n");
	}
	ret = ferror(m) ? -1 : 0;
	if (fclose(m) != 0) {
		ret = -1;
	}
	return ret;
}

static void put_event(struct buf *b, const struct kctf_event *e, const struct kctf_opts *o)
{
	enum kctf_flavour fl = o->flavour;
	struct fld f[MAX_FIELDS];
	size_t i, nf;

	if (fl == KCTF_LTTNG) {
		put_le(b, 65535, 2);
		put_le(b, (uint64_t)e->kind, 4);
		put_le(b, e->ts, 8);
		put_le(b, (uint64_t)(int64_t)e->cur->tid, 4);
		put_le(b, (uint64_t)(int64_t)e->cur->pid, 4);
		put_text(b, e->cur->comm, 16);
		/* vtid: the tid in the task's own PID namespace (its tid outside any) */
		put_le(b, (uint64_t)(int64_t)(e->cur->vtid ? e->cur->vtid : e->cur->tid), 4);
	} else {
		put_le(b, (uint64_t)e->kind, 4);
		put_le(b, e->ts, 8);
	}
	nf = payload_of(e, o, f);
	for (i = 0; i < nf; i++) {
		put_field(b, &f[i]);
	}
}

/* One CPU's stream: one packet holding its events. */
static int write_stream(const char *dir, const struct kctf_opts *o, const struct kctf_event *ev,
			size_t n, unsigned int cpu)
{
	bool lt = o->flavour == KCTF_LTTNG;
	struct buf events = { 0 }, pkt = { 0 };
	uint64_t first = 0, last = 0, bits;
	char path[4096];
	bool any = false;
	size_t i;
	FILE *s;
	int ret = -1;

	for (i = 0; i < n; i++) {
		if (ev[i].cpu == cpu) {
			first = any ? first : ev[i].ts;
			last = ev[i].ts;
			any = true;
			put_event(&events, &ev[i], o);
		}
	}
	if (!any) {
		return 0;
	}
	put_le(&pkt, 0xC1FC1FC1u, 4);
	put(&pkt, trace_uuid, 16);
	put_le(&pkt, 0, 4);
	if (lt) {
		put_le(&pkt, cpu, 8);
	}
	/* the header and context's size in bytes: 24 (+8) and 44 (+8) */
	bits = 8 * (pkt.n + (lt ? 52 : 44) + events.n);
	put_le(&pkt, first, 8);
	put_le(&pkt, last, 8);
	put_le(&pkt, bits, 8);
	put_le(&pkt, bits, 8);
	if (lt) {
		put_le(&pkt, 0, 8);
	}
	put_le(&pkt, 0, 8);
	put_le(&pkt, cpu, 4);
	put(&pkt, events.p, events.n);
	if (pkt.nomem || events.nomem || 8 * pkt.n != bits) {
		errno = pkt.nomem || events.nomem ? ENOMEM : EINVAL;
		goto out;
	}
	snprintf(path, sizeof(path), "%s/%s_%u", dir, lt ? "kernel" : "perf_stream", cpu);
	s = fopen(path, "wb");
	if (!s) {
		goto out;
	}
	ret = fwrite(pkt.p, 1, pkt.n, s) == pkt.n ? 0 : -1;
	if (fclose(s) != 0) {
		ret = -1;
	}
out:
	free(events.p);
	free(pkt.p);
	return ret;
}

int kctf_write(const char *dir, const struct kctf_opts *o, const struct kctf_event *ev, size_t n)
{
	unsigned int cpu, max_cpu = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		max_cpu = ev[i].cpu > max_cpu ? ev[i].cpu : max_cpu;
	}
	if (write_metadata(dir, o, ev, n) < 0) {
		return -1;
	}
	for (cpu = 0; cpu <= max_cpu; cpu++) {
		if (write_stream(dir, o, ev, n, cpu) < 0) {
			return -1;
		}
	}
	return 0;
}
