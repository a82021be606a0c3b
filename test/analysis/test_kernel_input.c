// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel trace's reader (analysis/input/kernel_input.c) on one scripted
 * scenario written as perf's CTF and as LTTng's kernel tracer's
 * (kernel_ctf.c): both read into the same events, the same pid map and the
 * same attribution of a stall; LTTng's conventions (tid fields, prio minus
 * MAX_RT_PRIO, rwbs bits, the tid context) converted; babeltrace2 itself
 * reads both; the tracer told by the trace's env, else by its names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dgrdma/wire.h>

#include "host_events.h"
#include "kernel_ctf.h"
#include "kernel_input.h"
#include "trace_module.h"
#include "kernel_sched.h"
#include "stall_cause.h"
#include "../unit/tap.h"

#define MS 1000000ull
/* the clock class's offset: 2026-12-04 on the epoch, as LTTng measures it at a session's start */
#define EPOCH_NS (1796342400ull * 1000000000ull + 123456789ull)

/* the tasks: the consumer runs in a PID namespace (tid 12 there) */
static const struct kctf_task idle1 = { 0, 0, 0, "swapper/1", 120 };
static const struct kctf_task idle0 = { 0, 0, 0, "swapper/0", 120 };
static const struct kctf_task consumer = { 5012, 12, 5010, "consumer", 120 };
static const struct kctf_task kworker = { 300, 0, 300, "kworker/u4:2", 120 };
/* a SCHED_FIFO task of rt priority 50: kernel priority 99 - 50 = 49 (LTTng writes -51) */
static const struct kctf_task rtbusy = { 400, 0, 400, "rtbusy", 49 };
static const struct kctf_task shell = { 400, 0, 400, "bash", 49 };

/*
 * CPU 1: the consumer runs, is preempted at 11 ms by the flusher (writeback,
 * a block write), which sleeps at 11.4 ms for rtbusy (woken there after a
 * migration from CPU 0, renamed from bash by its exec), which runs a NET_RX
 * softirq 11.8 - 12.0 ms and sleeps at 12.2 ms: the consumer runnable 1.2 ms.
 */
static const struct kctf_event scenario[] = {
	{ 0, KCTF_SWITCH, 1, &idle1, &idle1, &consumer, 0, NULL },
	{ 1 * MS, KCTF_SWITCH, 0, &idle0, &idle0, &shell, 0, NULL },
	{ 1 * MS + 1000, KCTF_EXEC, 0, &rtbusy, &rtbusy, NULL, 0, "/usr/local/bin/rtbusy" },
	{ 2 * MS, KCTF_SWITCH, 0, &rtbusy, &rtbusy, &idle0, 1, NULL },
	{ 10 * MS, KCTF_IRQ_ENTRY, 0, &idle0, NULL, NULL, 24, "virtio0-input.0" },
	{ 10 * MS + 2000, KCTF_IRQ_EXIT, 0, &idle0, NULL, NULL, 24, NULL },
	{ 10 * MS + 500000, KCTF_WAKING, 1, &consumer, &kworker, NULL, 1, NULL },
	{ 10 * MS + 501000, KCTF_WAKEUP, 1, &consumer, &kworker, NULL, 1, NULL },
	{ 11 * MS, KCTF_SWITCH, 1, &consumer, &consumer, &kworker, 0x100, NULL },
	{ 11 * MS + 100, KCTF_WRITEBACK_START, 1, &kworker, NULL, NULL, 0, NULL },
	{ 11 * MS + 200, KCTF_BLOCK_ISSUE, 1, &kworker, NULL, NULL, 1, NULL },
	{ 11 * MS + 300, KCTF_WRITEBACK_WRITTEN, 1, &kworker, NULL, NULL, 0, NULL },
	{ 11 * MS + 380000, KCTF_MIGRATE, 1, &kworker, &rtbusy, NULL, 1, NULL },
	{ 11 * MS + 390000, KCTF_WAKEUP, 1, &kworker, &rtbusy, NULL, 1, NULL },
	{ 11 * MS + 400000, KCTF_SWITCH, 1, &kworker, &kworker, &rtbusy, 1, NULL },
	{ 11 * MS + 500000, KCTF_BLOCK_COMPLETE, 0, &idle0, NULL, NULL, 1, NULL },
	{ 11 * MS + 600000, KCTF_BLOCK_ISSUE, 0, &idle0, NULL, NULL, 0, NULL },
	{ 11 * MS + 800000, KCTF_SOFTIRQ_ENTRY, 1, &rtbusy, NULL, NULL, 3, NULL },
	{ 11 * MS + 810000, KCTF_NAPI_POLL, 1, &rtbusy, NULL, NULL, 0, "eth0" },
	{ 12 * MS, KCTF_SOFTIRQ_EXIT, 1, &rtbusy, NULL, NULL, 3, NULL },
	{ 12 * MS + 200000, KCTF_SWITCH, 1, &rtbusy, &rtbusy, &consumer, 1, NULL },
	{ 12 * MS + 250000, KCTF_SKB_COPY, 1, &consumer, NULL, NULL, 8192, NULL },
	{ 12 * MS + 300000, KCTF_NET_XMIT, 1, &consumer, NULL, NULL, 1042, "eth0" },
	{ 12 * MS + 400000, KCTF_WAKEUP_NEW, 1, &consumer, &kworker, NULL, 0, NULL },
	{ 30 * MS, KCTF_SWITCH, 1, &consumer, &consumer, &idle1, 1, NULL },
};
#define N_SCENARIO (sizeof(scenario) / sizeof(scenario[0]))

static char root[64];

/* Writes the scenario into root/name; returns the folder (static) or NULL. */
static const char *write_trace(const char *name, enum kctf_flavour fl, const char *tracer)
{
	static char dir[128];
	struct kctf_opts o = { .flavour = fl, .tracer_name = tracer, .clock_offset_ns = EPOCH_NS };

	snprintf(dir, sizeof(dir), "%s/%s", root, name);
	if (mkdir(dir, 0700) != 0 || kctf_write(dir, &o, scenario, N_SCENARIO) != 0) {
		return NULL;
	}
	return dir;
}

/* Reads a trace back on the scenario's axis (the clock's offset taken off). */
static int read_trace(const char *dir, struct kernel_sched *k, char *errbuf)
{
	ks_init(k);
	return dir ? kernel_graph_read(dir, -(int64_t)EPOCH_NS, KIN_NS_FROM_ORIGIN, k, errbuf)
		   : -DGR_E_INVAL;
}

static const struct ks_event *find(const struct kernel_sched *k, uint8_t kind, uint64_t ts)
{
	size_t i;

	for (i = 0; i < k->n; i++) {
		if (k->ev[i].kind == kind && k->ev[i].ts == ts) {
			return &k->ev[i];
		}
	}
	return NULL;
}

/* Every field of two readings' events, names as strings; the first difference in why. */
static bool same_events(const struct kernel_sched *a, const struct kernel_sched *b, char *why)
{
	size_t i;

	if (a->n != b->n || a->n_net != b->n_net || a->n_map != b->n_map) {
		sprintf(why, "counts %zu/%zu events, %zu/%zu net, %zu/%zu maps", a->n, b->n,
			a->n_net, b->n_net, a->n_map, b->n_map);
		return false;
	}
	for (i = 0; i < a->n; i++) {
		const struct ks_event *x = &a->ev[i], *y = &b->ev[i];

		if (x->ts != y->ts || x->kind != y->kind || x->cpu != y->cpu || x->pid != y->pid ||
		    x->next_pid != y->next_pid || x->arg != y->arg ||
		    x->prev_prio != y->prev_prio || x->next_prio != y->next_prio ||
		    x->running != y->running || x->running_known != y->running_known ||
		    strcmp(ks_name(a, x->name), ks_name(b, y->name)) ||
		    strcmp(ks_name(a, x->prev_name), ks_name(b, y->prev_name))) {
			sprintf(why, "event %zu (kind %u at %llu)", i, x->kind,
				(unsigned long long)x->ts);
			return false;
		}
	}
	for (i = 0; i < a->n_net; i++) {
		if (a->net[i].ts != b->net[i].ts || a->net[i].pid != b->net[i].pid ||
		    a->net[i].len != b->net[i].len || a->net[i].dir != b->net[i].dir ||
		    strcmp(ks_name(a, a->net[i].dev), ks_name(b, b->net[i].dev))) {
			sprintf(why, "packet event %zu", i);
			return false;
		}
	}
	for (i = 0; i < a->n_map; i++) {
		if (a->map[i].global != b->map[i].global || a->map[i].local != b->map[i].local) {
			sprintf(why, "pid map %zu", i);
			return false;
		}
	}
	return true;
}

static void check_lttng_conventions(const struct kernel_sched *k)
{
	const struct ks_event *e;

	e = find(k, KS_SWITCH, 11 * MS + 400000);
	tap_ok(e && e->pid == 300 && e->next_pid == 400 && e->next_prio == 49 &&
		   e->prev_prio == 120 && e->arg == 1 && !strcmp(ks_name(k, e->name), "rtbusy"),
	       "LTTng sched_switch: prev_tid/next_tid, prio + 100 (rtbusy -51 -> 49), prev_state");
	e = find(k, KS_SWITCH, 11 * MS);
	tap_ok(e && e->arg == 0x100 && !strcmp(ks_name(k, e->prev_name), "consumer"),
	       "LTTng sched_switch: preempted (TASK_REPORT_MAX), prev_comm from char[16]");
	e = find(k, KS_WAKEUP, 11 * MS + 390000);
	tap_ok(e && e->pid == 400 && e->arg == 1 && e->next_prio == 49 && e->running == 300,
	       "LTTng sched_wakeup: tid, target_cpu, prio + 100, the waker from the tid context");
	e = find(k, KS_MIGRATE, 11 * MS + 380000);
	TAP_EQ_I(e ? e->arg : -2, 1, "LTTng sched_migrate_task: dest_cpu");
	e = find(k, KS_EXEC, 1 * MS + 1000);
	tap_ok(e && e->pid == 400 && !strcmp(ks_name(k, e->name), "rtbusy"),
	       "LTTng sched_process_exec: tid, the comm from filename");
	e = find(k, KS_BLOCK_ISSUE, 11 * MS + 200);
	tap_ok(e && e->pid == 300 && e->arg == KS_BLOCK_WRITE,
	       "LTTng block_rq_issue: rwbs RWBS_FLAG_WRITE|SYNC is a write, by the tid context");
	e = find(k, KS_BLOCK_ISSUE, 11 * MS + 600000);
	TAP_EQ_I(e ? e->arg : -1, 0, "LTTng block_rq_issue: rwbs READ|RAHEAD is no write");
	e = find(k, KS_SOFTIRQ_ENTRY, 11 * MS + 800000);
	tap_ok(e && e->arg == 3 && e->cpu == 1,
	       "LTTng irq_softirq_entry: vec 3 (NET_RX), the CPU from the packet's cpu_id");
	e = find(k, KS_IRQ_ENTRY, 10 * MS);
	tap_ok(e && e->arg == 24 && !strcmp(ks_name(k, e->name), "virtio0-input.0"),
	       "LTTng irq_handler_entry: irq and name");
	e = find(k, KS_WRITEBACK, 11 * MS + 100);
	TAP_EQ_I(e ? e->pid : -1, 300, "LTTng writeback_start: the flusher from the tid context");
	tap_ok(k->n_net == 2 && k->net[0].dir == KS_NET_RX_COPY && k->net[0].len == 8192 &&
		   k->net[0].pid == 5012 && k->net[1].dir == KS_NET_TX && k->net[1].len == 1042 &&
		   !strcmp(ks_name(k, k->net[1].dev), "eth0"),
	       "LTTng skb_copy_datagram_iovec and net_dev_xmit: length, device, the tid context");
	TAP_EQ_I(ks_global_pid(k, 12), 5012, "LTTng vtid context: the consumer's tid 12 is 5012");
	TAP_EQ_U(k->n, N_SCENARIO - 3, "every event but napi_poll and the packet events replayed");
}

static struct ha_doorbell bell(uint64_t ts, uint64_t wait)
{
	struct ha_doorbell d;

	memset(&d, 0, sizeof(d));
	d.ts = ts;
	d.wait = wait;
	d.work = 5000;
	d.send = 1000;
	d.latency = wait + 6000;
	d.has_wait_receive = true;
	d.wait_receive = 1000;
	return d;
}

/* The stall of a doorbell that waited 2 ms for the consumer at 11 ms, attributed with k. */
static int attribute(const struct kernel_sched *k, struct stall_cause *sc)
{
	static struct host_analysis h;
	struct ha_doorbell d;
	unsigned int i;

	memset(&h, 0, sizeof(h));
	h.threads[0] = (struct ha_thread){ .role = 0, .tid = 11 };
	h.threads[1] = (struct ha_thread){ .role = 2, .tid = 12 };
	h.n_threads = 2;
	sc_init(sc);
	for (i = 0; i < 20; i++) {
		d = bell(1 * MS + i * MS, i == 10 ? 2 * MS : 3000);
		sc_add_bell(sc, &d);
	}
	return sc_analyse(sc, 0, &h, k);
}

/* Two windows' shares and culprits, names as strings. */
static bool same_window(const struct kernel_sched *ka, const struct ks_window *a,
			const struct kernel_sched *kb, const struct ks_window *b)
{
	unsigned int i;

	if (memcmp(a->ns, b->ns, sizeof(a->ns)) || a->n_c != b->n_c || a->prio != b->prio ||
	    a->cpu != b->cpu || a->migrations != b->migrations || a->other_ns != b->other_ns) {
		return false;
	}
	for (i = 0; i < a->n_c; i++) {
		const struct ks_culprit *x = &a->c[i], *y = &b->c[i];

		if (x->kind != y->kind || x->pid != y->pid || x->tid != y->tid ||
		    x->prio != y->prio || x->cpu != y->cpu || x->ns != y->ns ||
		    x->writeback != y->writeback || x->block != y->block ||
		    x->block_write != y->block_write ||
		    strcmp(ks_name(ka, x->name), ks_name(kb, y->name))) {
			return false;
		}
	}
	return true;
}

static void check_attribution(const struct kernel_sched *perf, const struct kernel_sched *lttng)
{
	struct stall_cause a, b;
	unsigned int i;
	bool same;

	attribute(perf, &a);
	attribute(lttng, &b);
	TAP_EQ_U(b.stalls_total, 1, "LTTng: one stall");
	TAP_EQ_U(b.n_stalls ? b.stalls[0].cause : 0, SC_CAUSE_HIGHER_PRIO,
		 "LTTng: higher-priority-task (needs the priority converted)");
	TAP_EQ_U(b.n_stalls ? b.stalls[0].w.ns[KS_ST_RUNNABLE] : 0, 1200000,
		 "LTTng: the consumer runnable 1.2 ms of its window");
	tap_ok(b.n_causes == 1 && strstr(b.causes[0].text, "rtbusy") &&
		   strstr(b.causes[0].text, "kworker/u4:2 (writeback)"),
	       "LTTng: the cause in words: %s", b.n_causes ? b.causes[0].text : "(none)");
	same = a.n_stalls == b.n_stalls && a.n_causes == b.n_causes;
	for (i = 0; same && i < a.n_causes; i++) {
		same = !strcmp(a.causes[i].text, b.causes[i].text) &&
		       a.causes[i].stall_ns == b.causes[i].stall_ns;
	}
	for (i = 0; same && i < a.n_stalls; i++) {
		same = same_window(perf, &a.stalls[i].w, lttng, &b.stalls[i].w) &&
		       a.stalls[i].cause == b.stalls[i].cause && a.stalls[i].tid == b.stalls[i].tid;
	}
	tap_ok(same, "perf's and LTTng's trace of the scenario: the same stalls, windows, culprits "
		     "and causes");
	sc_free(&a);
	sc_free(&b);
}

/* babeltrace2's own reading: one line an event (skipped without the program). */
static void check_babeltrace2(const char *dir, const char *what)
{
	char cmd[256], line[4096];
	unsigned int lines = 0;
	FILE *p;

	if (system("babeltrace2 --version >/dev/null 2>&1") != 0) {
		tap_skip("babeltrace2 is not installed");
		return;
	}
	snprintf(cmd, sizeof(cmd), "babeltrace2 '%s' 2>/dev/null", dir);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		lines++;
	}
	TAP_EQ_I(p ? pclose(p) : -1, 0, "babeltrace2 reads %s", what);
	TAP_EQ_U(lines, N_SCENARIO, "babeltrace2 prints every event of %s", what);
}

/*
 * The clock's own reading: the epoch offset of LTTng's clock class (or of
 * dgrdma-capture's rewritten perf clock) taken off, whatever it is.
 */
static void check_clock_reading(const char *dir, const struct kernel_sched *want, const char *what)
{
	struct kernel_sched k;
	char errbuf[DGR_ERRBUF_SIZE], why[160] = "";

	ks_init(&k);
	tap_ok(kernel_graph_read(dir, 0, KIN_CLOCK_READING, &k, errbuf) == 0 &&
		   same_events(want, &k, why) && k.first_ts == 0 && k.last_ts == 30 * MS,
	       "%s on the clock's reading: CLOCK_MONOTONIC without the class's offset %s", what,
	       why);
	ks_free(&k);
}

/* Hostile: every payload integer of an LTTng trace as text. Read as absent, nothing else. */
static void check_ints_as_text(void)
{
	struct kctf_opts o = { .flavour = KCTF_LTTNG,
			       .clock_offset_ns = EPOCH_NS,
			       .ints_as_text = true };
	struct kernel_sched k;
	char errbuf[DGR_ERRBUF_SIZE], dir[128];
	const struct ks_event *e;
	int rc = -1;

	snprintf(dir, sizeof(dir), "%s/ints-as-text", root);
	if (mkdir(dir, 0700) == 0 && kctf_write(dir, &o, scenario, N_SCENARIO) == 0) {
		rc = read_trace(dir, &k, errbuf);
	} else {
		ks_init(&k);
	}
	TAP_EQ_I(rc, 0, "LTTng payload integers written as text: read %s", rc ? errbuf : "");
	e = find(&k, KS_SWITCH, 11 * MS);
	tap_ok(e && e->pid == 0 && e->next_pid == 0 && e->prev_prio == -1 && e->next_prio == -1 &&
		   e->running == 5012 && !strcmp(ks_name(&k, e->name), "kworker/u4:2"),
	       "their tids and priorities unknown (0, -1), the comms and the tid context kept");
	e = find(&k, KS_BLOCK_ISSUE, 11 * MS + 200);
	TAP_EQ_I(e ? e->arg : -1, 0, "an rwbs of text \"33\" is no write (no W)");
	ks_free(&k);
}

static void check_flavour_choice(const struct kernel_sched *lttng)
{
	struct kernel_sched k;
	char errbuf[DGR_ERRBUF_SIZE], why[160] = "";
	const char *dir;
	int rc;

	dir = write_trace("lttng-no-env", KCTF_LTTNG, "");
	rc = read_trace(dir, &k, errbuf);
	tap_ok(rc == 0 && same_events(lttng, &k, why),
	       "an LTTng trace without tracer_name: told by its names, read the same %s", why);
	ks_free(&k);
	/* perf's names under lttng-modules' env: LTTng's table finds no sched_switch */
	dir = write_trace("perf-as-lttng", KCTF_PERF, "lttng-modules");
	rc = read_trace(dir, &k, errbuf);
	tap_ok(rc == -DGR_E_INVAL && strstr(errbuf, "no sched_switch event"),
	       "the env's tracer_name decides the names: %s", errbuf);
	ks_free(&k);
}

int main(void)
{
	struct kernel_sched perf, lttng;
	char errbuf[DGR_ERRBUF_SIZE], why[160] = "", cmd[128];
	const char *dir;

	snprintf(root, sizeof(root), "/tmp/test_kernel_input.XXXXXX");
	if (!mkdtemp(root)) {
		tap_ok(false, "a temporary folder");
		return tap_done();
	}
	dir = write_trace("perf", KCTF_PERF, NULL);
	tap_ok(dir && read_trace(dir, &perf, errbuf) == 0, "perf's CTF of the scenario read %s",
	       dir ? errbuf : "(not written)");
	check_babeltrace2(dir, "perf's CTF");
	dir = write_trace("lttng", KCTF_LTTNG, NULL);
	tap_ok(dir && read_trace(dir, &lttng, errbuf) == 0,
	       "LTTng's kernel CTF of the scenario read %s", dir ? errbuf : "(not written)");
	check_babeltrace2(dir, "LTTng's kernel CTF");
	check_clock_reading(dir, &lttng, "LTTng's kernel CTF");
	tap_ok(same_events(&perf, &lttng, why),
	       "both read into the same events, packet events and pid map %s", why);
	check_lttng_conventions(&lttng);
	check_attribution(&perf, &lttng);
	check_flavour_choice(&lttng);
	check_ints_as_text();
	ks_free(&perf);
	ks_free(&lttng);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0) {
		fprintf(stderr, "# could not remove %s\n", root);
	}
	return tap_done();
}
