/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's view of a run: scheduling, interrupt and I/O events of a
 * kernel trace (perf's or LTTng's, read by kernel_input.c; the unit tests
 * feed synthetic sequences), kept in time order, and what one thread did
 * during a window of time: running, runnable (and who ran instead on its
 * CPU: tasks, IRQs, softirqs), blocked (on what, from sched_switch's
 * prev_state), stopped, or runnable after a migration. docs/analysis.md,
 * "Why a stall happened".
 */
#ifndef DGR_ANALYSIS_KERNEL_SCHED_H
#define DGR_ANALYSIS_KERNEL_SCHED_H

#include <stdbool.h>
#include <stdint.h>

enum ks_kind {
	KS_SWITCH = 1,	   /* pid: prev, arg: prev_state; next_pid, name: next_comm */
	KS_WAKEUP,	   /* pid woken on CPU arg (sched_wakeup, sched_waking) */
	KS_MIGRATE,	   /* pid moved to CPU arg */
	KS_IRQ_ENTRY,	   /* arg: irq number, name: handler name */
	KS_IRQ_EXIT,	   /* arg: irq number */
	KS_SOFTIRQ_ENTRY,  /* arg: vector */
	KS_SOFTIRQ_EXIT,   /* arg: vector */
	KS_BLOCK_ISSUE,	   /* pid (the issuer, common_pid), arg: KS_BLOCK_WRITE for a write */
	KS_BLOCK_COMPLETE, /* pid (common_pid) */
	KS_WRITEBACK,	   /* pid (common_pid): any writeback:* event */
	KS_EXEC,	   /* pid exec'd: name is its new comm (sched_process_exec) */
};

/* One kernel event, pids as the kernel's tracepoint fields give them (global). */
struct ks_event {
	uint64_t ts; /* ns on the run's time axis */
	uint8_t kind;
	uint16_t cpu;
	int32_t pid;
	int32_t next_pid;
	int64_t arg;
	int16_t prev_prio, next_prio; /* kernel priorities: lower is more urgent */
	uint32_t name;		      /* ks_intern id: next_comm, the woken comm, the IRQ's name */
	uint32_t prev_name;	      /* prev_comm */
	/*
	 * The task the event fired in (its common_pid), when the reader gives it: a
	 * replay that believes another task on that CPU has missed a switch (perf
	 * drops one now and then) and takes this one from here. KS_WAKEUP: next_prio
	 * is then the woken task's priority.
	 */
	int32_t running;
	bool running_known;
};

/* arg of KS_BLOCK_ISSUE: the request writes (block_rq_issue's rwbs holds 'W') */
#define KS_BLOCK_WRITE 0x1

/* prev_state of sched_switch (kernels 4.14 and later: 1 << index of "SDTtXZPI"; R+ preempted) */
#define KS_STATE_SLEEPING 0x1
#define KS_STATE_DISK	  0x2
#define KS_STATE_STOPPED  0x4
#define KS_STATE_TRACED	  0x8

#define KS_MAX_CPUS 256

struct ks_pidmap {
	int32_t global, local;
};

struct ks_pidname {
	int32_t pid;
	uint32_t name; /* ks_intern id */
};

struct ks_pidflags {
	int32_t pid;
	bool writeback, block, block_write;
};

/*
 * A packet event in the context of the thread that caused it: a send
 * (net:net_dev_xmit: the device and the frame's length) or a copy of a
 * received datagram into user space (skb:skb_copy_datagram_iovec: its length).
 * They find the stream's threads of a host without UST events (wire_threads.h).
 */
enum ks_net_dir {
	KS_NET_TX = 1,
	KS_NET_RX_COPY,
};

struct ks_net {
	uint64_t ts;
	int32_t pid; /* global (common_pid) */
	uint32_t len;
	uint32_t dev; /* ks_intern id of the device's name (0: none, a copy) */
	uint16_t cpu;
	uint8_t dir;
};

struct kernel_sched {
	struct ks_event *ev;
	size_t n, cap;
	char **names; /* interned strings; id 0 is "" */
	uint32_t n_names, cap_names;
	/* the pid as the trace's readers see it (perf_tid) of each global pid seen */
	struct ks_pidmap *map;
	size_t n_map, cap_map;
	struct ks_pidflags *flags; /* what the pids did: writeback, block I/O */
	size_t n_flags, cap_flags;
	struct ks_net *net; /* the packet events, in time order (not replayed) */
	size_t n_net, cap_net;
	/*
	 * Each pid's latest name in the trace (open addressing, pid 0: empty slot): a
	 * replay that has to take a task whose switch is missing gets its name from
	 * here when it has not seen the task itself.
	 */
	struct ks_pidname *pid_names;
	size_t n_pid_names, cap_pid_names; /* cap: 0 or a power of two */
	uint64_t unordered;		   /* events older than the one before them (dropped) */
	uint64_t first_ts, last_ts;
	unsigned int max_cpu; /* highest CPU seen */
};

/* What a thread was doing, as shares of a window (ns each; they add up to the window). */
enum ks_state {
	KS_ST_UNKNOWN = 0, /* no event of the thread yet */
	KS_ST_RUNNING,
	KS_ST_INTERRUPTED, /* running, but its CPU was in an IRQ or softirq handler */
	KS_ST_RUNNABLE,	   /* woken or preempted, not on a CPU */
	KS_ST_MIGRATED,	   /* runnable after a move to another CPU */
	KS_ST_BLOCKED,	   /* asleep (prev_state S, D, ...) */
	KS_ST_STOPPED,	   /* SIGSTOP or a tracer (prev_state T or t) */
	KS_ST_COUNT,
};

enum ks_culprit_kind {
	KS_CULPRIT_TASK = 1,
	KS_CULPRIT_IRQ,
	KS_CULPRIT_SOFTIRQ,
	KS_CULPRIT_IDLE, /* nothing ran: the CPU was idle while the thread waited */
};

#define KS_MAX_CULPRITS 16

/* Who had the thread's CPU while it waited (runnable, migrated or interrupted). */
struct ks_culprit {
	uint8_t kind;
	int32_t pid;	  /* task: global pid; irq: number; softirq: vector */
	int32_t tid;	  /* task: the pid readers of the trace see (perf_tid), else pid */
	uint32_t name;	  /* ks_intern id (task's comm, IRQ handler) */
	int16_t prio;	  /* task: kernel priority */
	uint16_t cpu;	  /* where it ran */
	bool writeback;	  /* task: did writeback in the trace */
	bool block;	  /* task: issued block I/O in the trace */
	bool block_write; /* task: issued block writes in the trace (a disk writer) */
	uint64_t ns;
};

struct ks_window {
	uint64_t start, end;
	uint64_t ns[KS_ST_COUNT];
	int64_t blocked_state; /* prev_state of the longest blocked stretch */
	uint64_t migrations;
	int16_t prio; /* the thread's own kernel priority, -1 unknown */
	int cpu;      /* the CPU it last ran on or was queued on in the window, -1 unknown */
	struct ks_culprit c[KS_MAX_CULPRITS];
	unsigned int n_c;
	uint64_t other_ns; /* culprit time past KS_MAX_CULPRITS */
};

/* Returns 0, or -DGR_E_NOMEM when memory runs out. */
int ks_init(struct kernel_sched *k);
void ks_free(struct kernel_sched *k);

/* The id of string s (copied once). Returns it, or UINT32_MAX when memory runs out. */
uint32_t ks_intern(struct kernel_sched *k, const char *s);

/* The string of id (id from ks_intern; "" for an unknown id). */
const char *ks_name(const struct kernel_sched *k, uint32_t id);

/*
 * Appends an event (in time order: an older one is counted in unordered and
 * dropped; the CPU must be below KS_MAX_CPUS, else dropped and counted too).
 * Returns 0, or -DGR_E_NOMEM when memory runs out.
 */
int ks_add(struct kernel_sched *k, const struct ks_event *e);

/*
 * Appends a packet event (in time order: an older one is counted in unordered
 * and dropped). Returns 0, or -DGR_E_NOMEM when memory runs out.
 */
int ks_add_net(struct kernel_sched *k, const struct ks_net *e);

/* The comm of global pid at its latest sched_switch, wake-up or exec in the trace ("" unseen). */
const char *ks_comm_of(const struct kernel_sched *k, int32_t pid);

/* The ks_intern id of pid's latest name in the trace; 0 ("") when it has none. */
uint32_t ks_name_of_pid(const struct kernel_sched *k, int32_t pid);

/*
 * Records that global pid is seen as local by the trace's readers (perf's
 * perf_tid in a PID namespace). Returns 0, or -DGR_E_NOMEM when memory runs out.
 */
int ks_map_pid(struct kernel_sched *k, int32_t global, int32_t local);

/* The global pid of a reader's (local) pid: the mapped one, else local itself. */
int32_t ks_global_pid(const struct kernel_sched *k, int32_t local);
/* The local pid of a global pid: the mapped one, else global itself. */
int32_t ks_local_pid(const struct kernel_sched *k, int32_t global);

/*
 * Fills *w with what the thread with global pid did during [start, end):
 * the time in each state and who held its CPU while it waited, culprits
 * sorted by time, largest first. Returns 0 (always: an unseen thread's
 * window is all unknown).
 */
int ks_window(const struct kernel_sched *k, int32_t pid, uint64_t start, uint64_t end,
	      struct ks_window *w);

/* Who held one CPU from .from to .to (a run of the Resources view's lane). */
struct ks_run {
	uint64_t from, to;
	struct ks_culprit who; /* kind, pid, name, prio, flags of the holder (ns unused) */
};

#define KS_MAX_RUNS 2000 /* runs kept per window (ks_cpu_runs) */

/*
 * Fills runs (room for KS_MAX_RUNS) with who held each CPU during
 * [start, end): tasks, IRQ and softirq handlers, idle, in time order per CPU,
 * clipped to the window; a CPU's time before its first event in the trace is
 * left out (unknown). Returns the number of runs; *truncated is set when
 * the window had more than KS_MAX_RUNS.
 */
size_t ks_cpu_runs(const struct kernel_sched *k, uint64_t start, uint64_t end, struct ks_run *runs,
		   bool *truncated);

/* "running", "runnable", ... */
const char *ks_state_label(enum ks_state s);
/* "NET_RX", "TIMER", ... (Linux's softirq vectors), "?" past them. */
const char *ks_softirq_name(int64_t vec);
/* "sleeping", "disk (uninterruptible)", ... for a blocked prev_state. */
const char *ks_blocked_label(int64_t prev_state);

#endif
