// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the kernel's view (analysis/verdict/kernel_sched.c) and the stalls'
 * causes (analysis/verdict/stall_cause.c) on small synthetic event sequences.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel_sched.h"
#include "loglin_hist.h"
#include "stall_cause.h"
#include "stats.h"
#include "../unit/tap.h"

static struct kernel_sched k;

static void sw(uint64_t ts, unsigned int cpu, int32_t prev, int64_t state, int16_t prev_prio,
	       int32_t next, const char *next_comm, int16_t next_prio)
{
	struct ks_event e = { .ts = ts,
			      .kind = KS_SWITCH,
			      .cpu = (uint16_t)cpu,
			      .pid = prev,
			      .next_pid = next,
			      .arg = state,
			      .prev_prio = prev_prio,
			      .next_prio = next_prio };

	e.name = ks_intern(&k, next_comm);
	ks_add(&k, &e);
}

static void ev(uint64_t ts, uint8_t kind, unsigned int cpu, int32_t pid, int64_t arg,
	       const char *name)
{
	struct ks_event e = {
		.ts = ts, .kind = kind, .cpu = (uint16_t)cpu, .pid = pid, .arg = arg
	};

	e.name = ks_intern(&k, name ? name : "");
	ks_add(&k, &e);
}

/* A 1 ns softirq on cpu at ts, fired in task running: how a lost switch's task shows. */
static void softirq_in(uint64_t ts, unsigned int cpu, int32_t running)
{
	struct ks_event e = { .ts = ts,
			      .kind = KS_SOFTIRQ_ENTRY,
			      .cpu = (uint16_t)cpu,
			      .arg = 1,
			      .running = running,
			      .running_known = true };

	ks_add(&k, &e);
	e.ts = ts + 1;
	e.kind = KS_SOFTIRQ_EXIT;
	ks_add(&k, &e);
}

static void fresh(void)
{
	ks_free(&k);
	ks_init(&k);
}

static void test_preempted_by_higher_priority(void)
{
	struct ks_window w;

	fresh();
	sw(0, 1, 0, 0, 120, 100, "consumer", 120);
	/* preempted (R+) by a task that chrt then raised to SCHED_FIFO 50 (priority 49) */
	sw(10, 1, 100, 0x100, 120, 200, "busy", 120);
	ev(70, KS_IRQ_ENTRY, 1, 0, 36, "eth0");
	ev(75, KS_IRQ_EXIT, 1, 0, 36, NULL);
	sw(90, 1, 200, 1, 49, 100, "consumer", 120);
	ev(200, KS_SOFTIRQ_ENTRY, 0, 0, 1, NULL); /* the trace goes on past the window */
	ks_window(&k, 100, 0, 100, &w);
	TAP_EQ_U(w.ns[KS_ST_RUNNING], 20, "running: 0..10 and 90..100");
	TAP_EQ_U(w.ns[KS_ST_RUNNABLE], 80, "runnable: 10..90");
	TAP_EQ_U(w.n_c, 2, "two culprits held its CPU");
	tap_ok(w.c[0].kind == KS_CULPRIT_TASK && !strcmp(ks_name(&k, w.c[0].name), "busy") &&
		   w.c[0].ns == 75 && w.c[0].prio == 49 && w.c[0].cpu == 1,
	       "the largest: busy, 75 ns on CPU 1, priority 49 (as it left the CPU)");
	tap_ok(w.c[1].kind == KS_CULPRIT_IRQ && w.c[1].pid == 36 && w.c[1].ns == 5 &&
		   !strcmp(ks_name(&k, w.c[1].name), "eth0"),
	       "then IRQ 36 eth0, 5 ns");
	TAP_EQ_I(w.prio, 120, "the thread's own priority");
	TAP_EQ_I(w.cpu, 1, "its CPU");
}

/*
 * A switch missing from the trace (perf drops one now and then): the events that fire in the
 * task that took the CPU name it, with its name and priority from its wake-up.
 */
static void test_lost_switch(void)
{
	struct ks_window w;
	struct ks_event e;

	fresh();
	sw(0, 0, 0, 0, 120, 100, "consumer", 120);
	/* the consumer is preempted by an agent at nice -10 (priority 110) */
	sw(10, 0, 100, 0x100, 120, 81, "agent", 110);
	/* a SCHED_FIFO 50 loop woken on CPU 0 ... */
	memset(&e, 0, sizeof(e));
	e.ts = 20;
	e.kind = KS_WAKEUP;
	e.cpu = 1;
	e.pid = 200;
	e.arg = 0;
	e.next_prio = 49;
	e.name = ks_intern(&k, "busy");
	e.running = 300;
	e.running_known = true;
	ks_add(&k, &e);
	/* ... takes it (the sched_switch agent -> busy is lost); a softirq fires in it */
	softirq_in(30, 0, 200);
	sw(90, 0, 200, 1, 49, 100, "consumer", 120);
	ev(200, KS_SOFTIRQ_ENTRY, 1, 0, 1, NULL);
	ks_window(&k, 100, 0, 100, &w);
	TAP_EQ_U(w.ns[KS_ST_RUNNABLE], 80, "lost switch: runnable 10..90");
	tap_ok(w.n_c >= 2 && w.c[0].kind == KS_CULPRIT_TASK && w.c[0].pid == 200 &&
		   !strcmp(ks_name(&k, w.c[0].name), "busy") && w.c[0].prio == 49 &&
		   w.c[0].ns == 59,
	       "lost switch: the largest culprit is busy (priority 49, from its wake-up), 59 ns "
	       "from the softirq that fired in it");
	tap_ok(w.c[1].pid == 81 && w.c[1].ns == 20,
	       "lost switch: the agent only until then (20 ns), not the whole window");
}

/*
 * A lost switch to a task the replay no longer keeps (it keeps the last 64 it saw; a busy
 * machine runs more): the culprit still has its name, its latest in the trace.
 */
static void test_lost_switch_to_a_forgotten_task(void)
{
	struct ks_window w;
	char comm[16];
	int i;

	fresh();
	sw(0, 1, 0, 0, 120, 500, "kdamond.0", 120);
	sw(1, 1, 500, 1, 120, 0, "swapper/1", 120);
	for (i = 0; i < 70; i++) {
		snprintf(comm, sizeof(comm), "task%d", i);
		sw((uint64_t)(10 + 2 * i), 1, 0, 0, 120, 1000 + i, comm, 120);
		sw((uint64_t)(11 + 2 * i), 1, 1000 + i, 1, 120, 0, "swapper/1", 120);
	}
	sw(1000, 0, 0, 0, 120, 100, "consumer", 120);
	sw(1010, 0, 100, 0x100, 120, 81, "agent", 110);
	/* the switch agent -> kdamond.0 is lost; a softirq fires in kdamond.0 */
	softirq_in(1030, 0, 500);
	sw(1090, 0, 500, 1, 120, 100, "consumer", 120);
	ev(2200, KS_SOFTIRQ_ENTRY, 1, 0, 1, NULL);
	ks_window(&k, 100, 1000, 1100, &w);
	tap_ok(w.n_c >= 2 && w.c[0].kind == KS_CULPRIT_TASK && w.c[0].pid == 500 &&
		   w.c[0].ns == 59 && !strcmp(ks_name(&k, w.c[0].name), "kdamond.0"),
	       "lost switch to a task 70 others pushed out of the replay's memory: named "
	       "kdamond.0, 59 ns (got pid %d '%s')",
	       w.n_c ? w.c[0].pid : 0, w.n_c ? ks_name(&k, w.c[0].name) : "");
	TAP_EQ_S(ks_comm_of(&k, 500), "kdamond.0", "ks_comm_of: its latest name");
	TAP_EQ_S(ks_comm_of(&k, 1069), "task69", "ks_comm_of: another's");
	TAP_EQ_S(ks_comm_of(&k, 4242), "", "ks_comm_of: a pid the trace never named: empty");
}

static void test_stopped_and_blocked(void)
{
	struct ks_window w;

	fresh();
	sw(0, 0, 0, 0, 120, 100, "consumer", 120);
	sw(10, 0, 100, KS_STATE_STOPPED, 120, 0, "swapper/0", 120);
	ev(60, KS_WAKEUP, 0, 100, 0, "consumer"); /* SIGCONT */
	sw(65, 0, 0, 0, 120, 100, "consumer", 120);
	sw(80, 0, 100, KS_STATE_DISK, 120, 0, "swapper/0", 120);
	ev(300, KS_SOFTIRQ_ENTRY, 1, 0, 3, NULL);
	ks_window(&k, 100, 0, 100, &w);
	TAP_EQ_U(w.ns[KS_ST_STOPPED], 50, "stopped 10..60");
	TAP_EQ_U(w.ns[KS_ST_RUNNABLE], 5, "runnable 60..65 after SIGCONT");
	TAP_EQ_U(w.ns[KS_ST_RUNNING], 25, "running 0..10 and 65..80");
	TAP_EQ_U(w.ns[KS_ST_BLOCKED], 20, "blocked 80..100");
	TAP_EQ_I(w.blocked_state, KS_STATE_DISK, "blocked uninterruptible (D)");
	tap_ok(w.n_c == 1 && w.c[0].kind == KS_CULPRIT_IDLE && w.c[0].ns == 5,
	       "while runnable its CPU was idle (a late wake-up)");
}

static void test_migrated_writeback_softirq(void)
{
	struct ks_window w;
	char name[64];

	fresh();
	sw(0, 0, 0, 0, 120, 300, "kworker/u4:2", 120);
	ev(1, KS_WRITEBACK, 0, 300, 0, NULL);
	sw(2, 1, 0, 0, 120, 100, "consumer", 120);
	sw(10, 1, 100, 0x100, 120, 0, "swapper/1", 120);
	ev(20, KS_MIGRATE, 1, 100, 0, "consumer");
	ev(40, KS_SOFTIRQ_ENTRY, 0, 0, 3, NULL);
	ev(50, KS_SOFTIRQ_EXIT, 0, 0, 3, NULL);
	sw(90, 0, 300, 1, 120, 100, "consumer", 120);
	ev(500, KS_SOFTIRQ_ENTRY, 1, 0, 1, NULL);
	ks_window(&k, 100, 0, 100, &w);
	TAP_EQ_U(w.ns[KS_ST_RUNNABLE], 10, "runnable on CPU 1 10..20");
	TAP_EQ_U(w.ns[KS_ST_MIGRATED], 70, "runnable on CPU 0 after the move, 20..90");
	TAP_EQ_U(w.migrations, 1, "one migration");
	TAP_EQ_U(w.ns[KS_ST_UNKNOWN], 2, "unknown before its first event");
	tap_ok(w.n_c == 3 && w.c[0].ns == 60 && w.c[0].writeback, "kworker 60 ns, did writeback");
	sc_culprit_name(&k, &w.c[0], name, sizeof(name));
	tap_ok(!strcmp(name, "kworker/u4:2 (writeback)"), "named '%s'", name);
	sc_culprit_name(&k, &w.c[2], name, sizeof(name));
	tap_ok(w.c[2].ns == 10 && !strcmp(name, "NET_RX softirq"), "NET_RX softirq 10 ns: '%s'",
	       name);
}

static void test_exec_renames(void)
{
	struct ks_window w;

	fresh();
	sw(0, 0, 0, 0, 120, 100, "consumer", 120);
	sw(10, 0, 100, 0x100, 120, 400, "taskset", 49);
	ev(12, KS_EXEC, 0, 400, 0, "bash");
	sw(90, 0, 400, 0x100, 49, 100, "consumer", 120);
	ev(200, KS_SOFTIRQ_ENTRY, 1, 0, 1, NULL);
	ks_window(&k, 100, 0, 100, &w);
	tap_ok(w.n_c == 2 && !strcmp(ks_name(&k, w.c[0].name), "bash") && w.c[0].ns == 78 &&
		   !strcmp(ks_name(&k, w.c[1].name), "taskset") && w.c[1].ns == 2,
	       "a task that exec'd is named by its new comm from the exec on (bash 78, taskset 2)");
}

static void test_pid_map_and_trace_end(void)
{
	struct ks_window w;

	fresh();
	ks_map_pid(&k, 5000, 12);
	TAP_EQ_I(ks_global_pid(&k, 12), 5000, "a namespace's tid 12 is the kernel's 5000");
	TAP_EQ_I(ks_global_pid(&k, 13), 13, "an unmapped pid is itself");
	sw(0, 0, 0, 0, 120, 5000, "consumer", 120);
	sw(40, 0, 5000, 0x100, 120, 0, "swapper/0", 120);
	ks_window(&k, 5000, 0, 100, &w);
	TAP_EQ_U(w.ns[KS_ST_RUNNING] + w.ns[KS_ST_UNKNOWN], 100,
		 "past the trace's last event nothing is known");
	TAP_EQ_U(w.ns[KS_ST_UNKNOWN], 60, "unknown 40..100");
	ev(30, KS_WAKEUP, 0, 1, 0, "late");
	TAP_EQ_U(k.unordered, 1, "an event older than the last is dropped and counted");
}

static struct ha_doorbell bell(uint64_t ts, uint64_t wait, uint64_t work, uint64_t send)
{
	struct ha_doorbell d;

	memset(&d, 0, sizeof(d));
	d.ts = ts;
	d.wait = wait;
	d.work = work;
	d.send = send;
	d.latency = wait + work + send;
	d.has_wait_receive = true;
	d.wait_receive = 1000;
	return d;
}

/* 20 doorbells 1 ms apart, the eleventh waiting 2 ms for the consumer, into a fresh sc. */
static void one_late_bell(struct stall_cause *sc)
{
	struct ha_doorbell d;
	uint64_t t;

	sc_init(sc);
	for (unsigned int i = 0; i < 20; i++) {
		t = 1000000 + i * 1000000ull;
		d = i == 10 ? bell(t, 2000000, 5000, 1000) : bell(t, 3000, 5000, 1000);
		sc_add_bell(sc, &d);
	}
}

/*
 * The cause of one late doorbell whose consumer (kernel priority prio) waited 1.2 ms on an idle
 * CPU, the last 0.2 ms of it (with normal_task) behind a task of normal priority.
 */
static enum sc_cause idle_cpu_cause(const struct host_analysis *h, int16_t prio, bool normal_task)
{
	struct stall_cause sc;
	enum sc_cause c;

	one_late_bell(&sc);
	fresh();
	ks_map_pid(&k, 5012, 12);
	sw(0, 1, 0, 0, 120, 5012, "consumer", prio);
	sw(11000000, 1, 5012, 0x100, prio, 0, "swapper/1", 120);
	if (normal_task) {
		sw(12000000, 1, 0, 0, 120, 303, "make", 120);
		sw(12200000, 1, 303, 1, 120, 5012, "consumer", prio);
	} else {
		sw(12200000, 1, 0, 0, 120, 5012, "consumer", prio);
	}
	sw(30000000, 1, 5012, 1, prio, 0, "swapper/1", 120);
	sc_analyse(&sc, 0, h, &k);
	c = sc.n_stalls ? sc.stalls[0].cause : SC_CAUSE_NONE;
	sc_free(&sc);
	return c;
}

static void test_stall_attribution(void)
{
	static struct host_analysis h;
	struct stall_cause sc;
	struct ha_doorbell d;
	char name[160];
	uint64_t t;
	unsigned int i;

	memset(&h, 0, sizeof(h));
	h.threads[0] = (struct ha_thread){ .role = 0, .tid = 11 };
	h.threads[1] = (struct ha_thread){ .role = 2, .tid = 12 };
	h.n_threads = 2;
	/* 20 doorbells of 10 us (1 us in the kernel, 3 + 5 + 1 in the stack) every ms */
	sc_init(&sc);
	for (i = 0; i < 20; i++) {
		d = bell(1000000 + i * 1000000ull, 3000, 5000, 1000);
		sc_add_bell(&sc, &d);
	}
	sc_analyse(&sc, 0, &h, NULL);
	TAP_EQ_U(sc.p50_ns, 10000, "p50 from the kernel's arrival: 10 us");
	TAP_EQ_U(sc.threshold_ns, 100000, "threshold 10 x p50 without T");
	TAP_EQ_U(sc.stalls_total, 0, "a clean run has no stall");
	TAP_EQ_U(sc.n_causes, 0, "and invents no cause");
	sc_free(&sc);

	/* one doorbell waits 2 ms for the consumer (tid 12, kernel pid 5012) */
	one_late_bell(&sc);
	fresh();
	ks_map_pid(&k, 5012, 12);
	sw(0, 1, 0, 0, 120, 5012, "consumer", 120);
	sw(11000000, 1, 5012, 0x100, 120, 300, "kworker/u4:2", 120);
	ev(11000100, KS_WRITEBACK, 1, 300, 0, NULL);
	sw(12200000, 1, 300, 1, 120, 5012, "consumer", 120);
	sw(30000000, 1, 5012, 1, 120, 0, "swapper/1", 120);
	sc_analyse(&sc, 0, &h, &k);
	TAP_EQ_U(sc.stalls_total, 1, "one stall");
	TAP_EQ_U(sc.stalls[0].duration, 2007000, "its duration: arrival -> doorbell");
	TAP_EQ_U(sc.stalls[0].stage, SC_STAGE_QUEUED, "waited in the stack for the consumer");
	TAP_EQ_I(sc.stalls[0].tid, 12, "the consumer thread");
	TAP_EQ_U(sc.stalls[0].cause, SC_CAUSE_WRITEBACK, "cause: writeback");
	TAP_EQ_U(sc.stalls[0].w.ns[KS_ST_RUNNABLE], 1200000, "runnable 1.2 of the 2 ms window");
	TAP_EQ_U(sc.n_causes, 1, "one cause");
	tap_ok(strstr(sc.causes[0].text, "1 of 1 stall (100% of stall time): the consumer thread "
					 "was runnable while CPU 1 ran kworker/u4:2 (writeback) "
					 "60%") != NULL,
	       "the cause in words: %s", sc.causes[0].text);
	sc_free(&sc);

	/* the same stall behind a compiler reading its files: its own block I/O, not writeback */
	one_late_bell(&sc);
	fresh();
	ks_map_pid(&k, 5012, 12);
	sw(0, 1, 0, 0, 120, 5012, "consumer", 120);
	sw(11000000, 1, 5012, 0x100, 120, 301, "cc1", 120);
	ev(11000100, KS_BLOCK_ISSUE, 1, 301, 0, NULL);
	sw(12200000, 1, 301, 1, 120, 5012, "consumer", 120);
	sw(30000000, 1, 5012, 1, 120, 0, "swapper/1", 120);
	sc_analyse(&sc, 0, &h, &k);
	TAP_EQ_U(sc.stalls[0].cause, SC_CAUSE_OTHER_TASK,
		 "a process's own block I/O: another task on the CPU, not writeback");
	sc_free(&sc);

	/* the same stall behind a disk writer (dd's fsync issues block writes): writeback */
	one_late_bell(&sc);
	fresh();
	ks_map_pid(&k, 5012, 12);
	sw(0, 1, 0, 0, 120, 5012, "consumer", 120);
	sw(11000000, 1, 5012, 0x100, 120, 302, "dd", 120);
	ev(11000100, KS_BLOCK_ISSUE, 1, 302, 0, NULL);
	ev(11000200, KS_BLOCK_ISSUE, 1, 302, KS_BLOCK_WRITE, NULL);
	sw(12200000, 1, 302, 1, 120, 5012, "consumer", 120);
	sw(30000000, 1, 5012, 1, 120, 0, "swapper/1", 120);
	sc_analyse(&sc, 0, &h, &k);
	TAP_EQ_U(sc.stalls[0].cause, SC_CAUSE_WRITEBACK,
		 "a process that issued block writes: a disk writer, writeback");
	sc_culprit_name(&k, &sc.stalls[0].w.c[0], name, sizeof(name));
	tap_ok(sc.stalls[0].w.c[0].block_write && !strcmp(name, "dd (block writes)"), "named '%s'",
	       name);
	sc_free(&sc);

	/*
	 * the consumer at real-time priority (49) held back while dd (normal, 120) ran: only the
	 * kernel's real-time throttling lets that happen, whatever dd did
	 */
	one_late_bell(&sc);
	fresh();
	ks_map_pid(&k, 5012, 12);
	sw(0, 1, 0, 0, 120, 5012, "consumer", 49);
	sw(11000000, 1, 5012, 0x100, 49, 302, "dd", 120);
	ev(11000200, KS_BLOCK_ISSUE, 1, 302, KS_BLOCK_WRITE, NULL);
	sw(12200000, 1, 302, 1, 120, 5012, "consumer", 49);
	sw(30000000, 1, 5012, 1, 49, 0, "swapper/1", 120);
	sc_analyse(&sc, 0, &h, &k);
	TAP_EQ_U(sc.stalls[0].cause, SC_CAUSE_RT_THROTTLED,
		 "a real-time consumer runnable while a normal task ran: rt-throttled");
	TAP_EQ_S(sc_cause_label(sc.stalls[0].cause), "rt-throttled", "its label");
	tap_ok(strstr(sc.causes[0].text,
		      "the consumer thread, at real-time priority, was held back by the kernel's "
		      "real-time throttling while CPU 1 ran dd (block writes) 60%") != NULL,
	       "the cause in words: %s", sc.causes[0].text);
	sc_free(&sc);

	/*
	 * on an idle CPU: a real-time consumer is throttled when a normal task had the CPU too
	 * (the kernel's window left idle in part), else it woke late (a deep C-state's exit)
	 */
	TAP_EQ_U(
	    idle_cpu_cause(&h, 49, true), SC_CAUSE_RT_THROTTLED,
	    "a real-time consumer runnable while its CPU idled and then ran make: rt-throttled");
	TAP_EQ_U(idle_cpu_cause(&h, 49, false), SC_CAUSE_WAKEUP,
		 "a real-time consumer runnable while its CPU only idled: late-wakeup");
	TAP_EQ_U(idle_cpu_cause(&h, 120, true), SC_CAUSE_WAKEUP,
		 "a normal consumer runnable while its CPU idled, then ran make: late-wakeup");

	/* with T: the threshold is T/2 when lower than 10 x p50 */
	sc_init(&sc);
	for (i = 0; i < 20; i++) {
		t = 1000000 + i * 1000000ull;
		d = i == 5 || i == 6 ? bell(t, 3000, 60000, 1000) : bell(t, 3000, 5000, 1000);
		sc_add_bell(&sc, &d);
	}
	sc_analyse(&sc, 100000, &h, NULL);
	TAP_EQ_U(sc.threshold_ns, 50000, "threshold T/2 = 50 us");
	TAP_EQ_U(sc.stalls_total, 1, "two consecutive late doorbells are one stall");
	TAP_EQ_U(sc.stalls[0].doorbells, 2, "of 2 doorbells");
	TAP_EQ_U(sc.stalls[0].stage, SC_STAGE_CONSUMER, "in the consumer's own work");
	TAP_EQ_U(sc.stalls[0].cause, SC_CAUSE_NONE, "without a kernel trace: not attributed");
	TAP_EQ_S(sc.causes[0].text,
		 "1 of 1 stall (100% of stall time): the consumer thread, not attributed (no "
		 "kernel trace: latency-report --kernel-trace DIR)",
		 "not attributed: the text names the thread (two roles' groups read apart)");
	sc_free(&sc);

	/* a late doorbell the consumer sent itself (inline): its vtid names the consumer */
	sc_init(&sc);
	for (i = 0; i < 20; i++) {
		t = 1000000 + i * 1000000ull;
		d = i == 3 ? bell(t, 3000, 5000, 900000) : bell(t, 3000, 5000, 1000);
		d.tid_sent = 12;
		sc_add_bell(&sc, &d);
	}
	sc_analyse(&sc, 0, &h, NULL);
	TAP_EQ_U(sc.stalls[0].stage, SC_STAGE_DOORBELL, "waited before the doorbell left");
	tap_ok(sc.stalls[0].tid == 12 && sc.stalls[0].role == 2,
	       "the thread that sent it (tid 12, the consumer), not the tx thread");
	sc_free(&sc);
}

/*
 * The doorbells of a long run: MANY_BELLS, 1 ms apart, of 10..16 us, with a
 * stall of 5 ms + k ns at every 1000th (k its number, so each is longer than
 * the one before); added in blocks of 100 in reverse (out of order by up to
 * 99), and with early = true one more at the end that completed before all.
 */
#define MANY_BELLS 300000u
static void many_bells(struct stall_cause *sc, bool early)
{
	struct ha_doorbell d;
	unsigned int b, j;

	sc_init(sc);
	for (b = 0; b < MANY_BELLS; b += 100) {
		for (j = 100; j-- > 0;) {
			unsigned int i = b + j;
			uint64_t t = 1000000 + i * 1000000ull;

			d = i % 1000 == 999 ? bell(t, 3000, 5000000 + i / 1000, 1000)
					    : bell(t, 3000, 5000 + i % 7, 1000);
			sc_add_bell(sc, &d);
		}
	}
	if (early) {
		d = bell(500000, 3000, 5000, 1000);
		sc_add_bell(sc, &d);
	}
}

static bool same_stalls(const struct stall_cause *a, const struct stall_cause *b)
{
	unsigned int i;

	if (a->p50_ns != b->p50_ns || a->threshold_ns != b->threshold_ns ||
	    a->stalls_total != b->stalls_total || a->n_stalls != b->n_stalls ||
	    a->stall_ns_total != b->stall_ns_total || a->stall_ns_kept != b->stall_ns_kept ||
	    a->first_arrival != b->first_arrival) {
		return false;
	}
	for (i = 0; i < a->n_stalls; i++) {
		if (a->stalls[i].start != b->stalls[i].start ||
		    a->stalls[i].duration != b->stalls[i].duration ||
		    a->stalls[i].doorbells != b->stalls[i].doorbells ||
		    a->stalls[i].stage != b->stalls[i].stage) {
			return false;
		}
	}
	return true;
}

/* past SC_BELL_WINDOW doorbells the oldest go to a temporary file: the same answer */
static void test_many_bells(void)
{
	static struct host_analysis h;
	struct stall_cause mem, file;
	const char *tmp = getenv("TMPDIR");
	char *saved = tmp ? strdup(tmp) : NULL;
	uint64_t sum = 0;
	unsigned int i;

	memset(&h, 0, sizeof(h));
	/* no temporary file can be made: every doorbell in memory, sorted at once */
	setenv("TMPDIR", "/nonexistent/dgrdma-test", 1);
	many_bells(&mem, false);
	tap_ok(mem.spill_failed && mem.n_spilled == 0 && mem.n_win == MANY_BELLS,
	       "without a temporary file all %u doorbells stay in memory", MANY_BELLS);
	TAP_EQ_U(sc_analyse(&mem, 0, &h, NULL), 0, "analysed in memory");
	if (saved) {
		setenv("TMPDIR", saved, 1);
	} else {
		unsetenv("TMPDIR");
	}
	TAP_EQ_U(mem.stalls_total, MANY_BELLS / 1000, "one stall per 1000 doorbells");
	TAP_EQ_U(mem.n_stalls, SC_MAX_STALLS, "the worst %u kept", SC_MAX_STALLS);
	TAP_EQ_U(mem.stalls[0].duration, 1000 + 5000000 + MANY_BELLS / 1000 - 1 + 3000 + 1000,
		 "the worst first: the last stall (arrival -> doorbell)");
	for (i = 0; i < SC_MAX_STALLS; i++) {
		sum += mem.stalls[i].duration;
	}
	TAP_EQ_U(mem.stall_ns_kept, sum, "the causes share the stall time of the stalls kept");
	/* stall k (the 1000th doorbell of each thousand) lasts 1000 + 5000000 + k + 3000 + 1000 */
	for (sum = 0, i = 0; i < MANY_BELLS / 1000; i++) {
		sum += 1000 + 5000000 + i + 3000 + 1000;
	}
	TAP_EQ_U(mem.stall_ns_total, sum, "the stall time is that of all %u stalls found",
		 MANY_BELLS / 1000);
	tap_ok(mem.n_causes == 1 &&
		   strncmp(mem.causes[0].text,
			   "256 of the worst 256 stalls (100% of their stall time): ", 56) == 0,
	       "past the stalls kept, a cause says it is the worst ones': %s", mem.causes[0].text);
	TAP_EQ_U(mem.p50_ns, 1000 + 3000 + 5003 + 1000, "p50 exact: 10.003 us");
	tap_ok(!mem.p50_from_histogram, "p50 exact below the exact limit");

	many_bells(&file, false);
	tap_ok(file.n_spilled > 0 && file.n_win <= SC_BELL_WINDOW && !file.unordered,
	       "with a temporary file: %llu doorbells moved to it, %zu in memory",
	       (unsigned long long)file.n_spilled, file.n_win);
	TAP_EQ_U(sc_analyse(&file, 0, &h, NULL), 0, "analysed from the file");
	tap_ok(same_stalls(&mem, &file),
	       "the same p50, threshold, stalls and stall time as all in memory");
	sc_free(&file);

	/* one doorbell out of order by more than half a window: read back and sorted */
	many_bells(&file, true);
	tap_ok(file.unordered, "a doorbell older than those in the file is seen");
	TAP_EQ_U(sc_analyse(&file, 0, &h, NULL), 0, "analysed after sorting them all");
	TAP_EQ_U(file.n_bells, MANY_BELLS + 1, "every doorbell counted");
	TAP_EQ_U(file.first_arrival, 500000 - 1000, "the earliest arrival is the late-added one's");
	tap_ok(file.p50_ns == mem.p50_ns && file.stalls_total == mem.stalls_total &&
		   file.stalls[0].duration == mem.stalls[0].duration,
	       "the same stalls with it");
	sc_free(&file);

	/* above the exact limit: p50 from the log-linear histogram, within its error */
	stats_set_exact_limit(1000);
	many_bells(&file, false);
	TAP_EQ_U(sc_analyse(&file, 0, &h, NULL), 0, "analysed with an exact limit of 1000");
	tap_ok(file.p50_from_histogram, "p50 from the histogram above the exact limit");
	tap_ok((double)(file.p50_ns > mem.p50_ns
			    ? file.p50_ns - mem.p50_ns
			    : mem.p50_ns - file.p50_ns) <= LLH_REL_ERROR * (double)mem.p50_ns,
	       "within %.3f%% of the exact p50 (%llu ns, exact %llu)", 100 * LLH_REL_ERROR,
	       (unsigned long long)file.p50_ns, (unsigned long long)mem.p50_ns);
	TAP_EQ_U(file.stalls_total, mem.stalls_total, "the same stalls");
	stats_set_exact_limit(0);
	sc_free(&file);
	sc_free(&mem);
	free(saved);
}

/* who held each CPU in a window: the lanes of the stall-lanes plot */
static void test_cpu_runs(void)
{
	static struct ks_run runs[KS_MAX_RUNS];
	bool truncated = true;
	size_t n;
	char name[160];

	fresh();
	sw(0, 0, 0, 0, 120, 10, "dd", 120);
	ev(1, KS_BLOCK_ISSUE, 0, 10, KS_BLOCK_WRITE, NULL);
	ev(100, KS_SOFTIRQ_ENTRY, 0, 0, 3, NULL);
	ev(150, KS_SOFTIRQ_EXIT, 0, 0, 3, NULL);
	sw(200, 0, 10, 1, 120, 20, "consumer", 120);
	sw(260, 1, 0, 0, 120, 30, "bash", 49);
	sw(400, 0, 20, 1, 120, 0, "swapper/0", 120);
	n = ks_cpu_runs(&k, 50, 300, runs, &truncated);
	TAP_EQ_U(n, 5, "five runs in [50, 300): dd, NET_RX, dd, consumer on CPU 0; bash on CPU 1");
	tap_ok(!truncated, "not truncated");
	sc_culprit_name(&k, &runs[0].who, name, sizeof(name));
	tap_ok(runs[0].who.cpu == 0 && runs[0].from == 50 && runs[0].to == 100 &&
		   !strcmp(name, "dd (block writes)"),
	       "CPU 0 50..100: '%s' (clipped to the window)", name);
	sc_culprit_name(&k, &runs[1].who, name, sizeof(name));
	tap_ok(runs[1].from == 100 && runs[1].to == 150 && !strcmp(name, "NET_RX softirq"),
	       "CPU 0 100..150: '%s'", name);
	tap_ok(runs[2].from == 150 && runs[2].to == 200 && runs[2].who.pid == 10,
	       "CPU 0 150..200: dd again");
	tap_ok(runs[3].from == 200 && runs[3].to == 300 && runs[3].who.pid == 20,
	       "CPU 0 200..300: the consumer, up to the window's end");
	tap_ok(runs[4].who.cpu == 1 && runs[4].from == 260 && runs[4].to == 300 &&
		   runs[4].who.pid == 30 && runs[4].who.prio == 49,
	       "CPU 1 from its first event only (before it: unknown): bash, priority 49");
}

int main(void)
{
	ks_init(&k);
	test_preempted_by_higher_priority();
	test_lost_switch();
	test_lost_switch_to_a_forgotten_task();
	test_stopped_and_blocked();
	test_migrated_writeback_softirq();
	test_exec_renames();
	test_pid_map_and_trace_end();
	test_stall_attribution();
	test_many_bells();
	test_cpu_runs();
	ks_free(&k);
	return tap_done();
}
