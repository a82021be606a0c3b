// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel's scheduling view of a run (see kernel_sched.h). */
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "kernel_sched.h"

#define KS_PREEMPTED 0x100 /* prev_state of a preempted task (TASK_REPORT_MAX, "R+") */

int ks_init(struct kernel_sched *k)
{
	memset(k, 0, sizeof(*k));
	return ks_intern(k, "") == 0 ? 0 : -DGR_E_NOMEM;
}

void ks_free(struct kernel_sched *k)
{
	uint32_t i;

	for (i = 0; i < k->n_names; i++) {
		free(k->names[i]);
	}
	free(k->names);
	free(k->ev);
	free(k->map);
	free(k->pid_names);
	free(k->flags);
	free(k->net);
	memset(k, 0, sizeof(*k));
}

/* Grows an array to hold one more element. Returns 0, or -1 when memory runs out. */
static int grow(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *p;

	if (n < *cap) {
		return 0;
	}
	ncap = *cap ? *cap * 2 : 256;
	p = realloc(*arr, ncap * size);
	if (!p) {
		return -DGR_E_NOMEM;
	}
	*arr = p;
	*cap = ncap;
	return 0;
}

uint32_t ks_intern(struct kernel_sched *k, const char *s)
{
	size_t cap = k->cap_names;
	uint32_t i;
	char *copy;

	/* names are few (comms, IRQ handlers): the newest first finds a repeat quickly */
	for (i = k->n_names; i > 0; i--) {
		if (!strcmp(k->names[i - 1], s)) {
			return i - 1;
		}
	}
	if (k->n_names == UINT32_MAX - 1 ||
	    grow((void **)&k->names, &cap, k->n_names, sizeof(*k->names))) {
		return UINT32_MAX;
	}
	k->cap_names = (uint32_t)cap;
	copy = strdup(s);
	if (!copy) {
		return UINT32_MAX;
	}
	k->names[k->n_names] = copy;
	return k->n_names++;
}

const char *ks_name(const struct kernel_sched *k, uint32_t id)
{
	return id < k->n_names ? k->names[id] : "";
}

static struct ks_pidflags *flags_of(struct kernel_sched *k, int32_t pid, bool add)
{
	size_t i;

	for (i = 0; i < k->n_flags; i++) {
		if (k->flags[i].pid == pid) {
			return &k->flags[i];
		}
	}
	if (!add || grow((void **)&k->flags, &k->cap_flags, k->n_flags, sizeof(*k->flags))) {
		return NULL;
	}
	memset(&k->flags[k->n_flags], 0, sizeof(k->flags[0]));
	k->flags[k->n_flags].pid = pid;
	return &k->flags[k->n_flags++];
}

static size_t pid_slot(size_t cap, int32_t pid)
{
	/* Fibonacci hashing: consecutive pids spread over the table */
	return (size_t)(((uint32_t)pid * 2654435769u) & (uint32_t)(cap - 1));
}

/* Records name (not 0) as pid's latest. Returns 0, or -DGR_E_NOMEM. */
static int note_pid_name(struct kernel_sched *k, int32_t pid, uint32_t name)
{
	size_t i;

	if (pid <= 0 || name == 0) {
		return 0;
	}
	if (2 * (k->n_pid_names + 1) > k->cap_pid_names) {
		size_t cap = k->cap_pid_names ? 2 * k->cap_pid_names : 1024, j;
		struct ks_pidname *t = calloc(cap, sizeof(*t));

		if (!t) {
			return -DGR_E_NOMEM;
		}
		for (j = 0; j < k->cap_pid_names; j++) {
			if (k->pid_names[j].pid) {
				for (i = pid_slot(cap, k->pid_names[j].pid); t[i].pid;
				     i = (i + 1) & (cap - 1)) {
				}
				t[i] = k->pid_names[j];
			}
		}
		free(k->pid_names);
		k->pid_names = t;
		k->cap_pid_names = cap;
	}
	for (i = pid_slot(k->cap_pid_names, pid); k->pid_names[i].pid && k->pid_names[i].pid != pid;
	     i = (i + 1) & (k->cap_pid_names - 1)) {
	}
	if (!k->pid_names[i].pid) {
		k->pid_names[i].pid = pid;
		k->n_pid_names++;
	}
	k->pid_names[i].name = name;
	return 0;
}

uint32_t ks_name_of_pid(const struct kernel_sched *k, int32_t pid)
{
	size_t i;

	if (pid <= 0 || !k->cap_pid_names) {
		return 0;
	}
	for (i = pid_slot(k->cap_pid_names, pid); k->pid_names[i].pid;
	     i = (i + 1) & (k->cap_pid_names - 1)) {
		if (k->pid_names[i].pid == pid) {
			return k->pid_names[i].name;
		}
	}
	return 0;
}

int ks_add(struct kernel_sched *k, const struct ks_event *e)
{
	struct ks_pidflags *f;

	if (e->cpu >= KS_MAX_CPUS || (k->n && e->ts < k->last_ts)) {
		k->unordered++;
		return 0;
	}
	if (e->kind == KS_BLOCK_ISSUE || e->kind == KS_WRITEBACK) {
		f = flags_of(k, e->pid, true);
		if (!f) {
			return -DGR_E_NOMEM;
		}
		if (e->kind == KS_WRITEBACK) {
			f->writeback = true;
		} else {
			f->block = true;
			f->block_write |= (e->arg & KS_BLOCK_WRITE) != 0;
		}
	}
	if (e->kind == KS_SWITCH) {
		if (note_pid_name(k, e->pid, e->prev_name) ||
		    note_pid_name(k, e->next_pid, e->name)) {
			return -DGR_E_NOMEM;
		}
	} else if ((e->kind == KS_WAKEUP || e->kind == KS_EXEC) &&
		   note_pid_name(k, e->pid, e->name)) {
		return -DGR_E_NOMEM;
	}
	if (grow((void **)&k->ev, &k->cap, k->n, sizeof(*k->ev))) {
		return -DGR_E_NOMEM;
	}
	k->ev[k->n++] = *e;
	if (k->n == 1) {
		k->first_ts = e->ts;
	}
	k->last_ts = e->ts;
	if (e->cpu > k->max_cpu) {
		k->max_cpu = e->cpu;
	}
	return 0;
}

int ks_add_net(struct kernel_sched *k, const struct ks_net *e)
{
	if (k->n_net && e->ts < k->net[k->n_net - 1].ts) {
		k->unordered++;
		return 0;
	}
	if (grow((void **)&k->net, &k->cap_net, k->n_net, sizeof(*k->net))) {
		return -DGR_E_NOMEM;
	}
	k->net[k->n_net++] = *e;
	return 0;
}

const char *ks_comm_of(const struct kernel_sched *k, int32_t pid)
{
	return ks_name(k, ks_name_of_pid(k, pid));
}

int ks_map_pid(struct kernel_sched *k, int32_t global, int32_t local)
{
	size_t i;

	for (i = k->n_map; i > 0; i--) {
		if (k->map[i - 1].global == global) {
			k->map[i - 1].local = local;
			return 0;
		}
	}
	if (grow((void **)&k->map, &k->cap_map, k->n_map, sizeof(*k->map))) {
		return -DGR_E_NOMEM;
	}
	k->map[k->n_map].global = global;
	k->map[k->n_map].local = local;
	k->n_map++;
	return 0;
}

int32_t ks_global_pid(const struct kernel_sched *k, int32_t local)
{
	size_t i;

	for (i = 0; i < k->n_map; i++) {
		if (k->map[i].local == local) {
			return k->map[i].global;
		}
	}
	return local;
}

int32_t ks_local_pid(const struct kernel_sched *k, int32_t global)
{
	size_t i;

	for (i = 0; i < k->n_map; i++) {
		if (k->map[i].global == global) {
			return k->map[i].local;
		}
	}
	return global;
}

/* What each CPU is doing while the events are replayed. */
struct cpu_now {
	int32_t pid; /* -1: not known yet */
	uint32_t name;
	int16_t prio;
	bool in_irq;
	int32_t irq;
	uint32_t irq_name;
	int64_t softirq; /* -1: none */
};

/* A task's name and priority as the events last gave them (a missed switch's task). */
#define KS_SEEN 64
struct seen_task {
	int32_t pid;
	uint32_t name;
	int16_t prio; /* -1 unknown */
};

/* The replay of one thread's window. */
struct replay {
	const struct kernel_sched *k;
	struct ks_window *w;
	struct cpu_now cpu[KS_MAX_CPUS];
	struct seen_task seen[KS_SEEN]; /* pid 0 slots: empty */
	unsigned int seen_next;		/* the slot the next new task takes */
	enum ks_state st;
	int cpu_of; /* -1 unknown */
	bool moved; /* migrated since it last ran */
	int64_t blocked_state;
	uint64_t blocked_by[10]; /* ns blocked per prev_state bit */
};

static void add_culprit(struct replay *r, const struct ks_culprit *c, uint64_t ns)
{
	struct ks_window *w = r->w;
	unsigned int i;

	for (i = 0; i < w->n_c; i++) {
		struct ks_culprit *x = &w->c[i];

		if (x->kind == c->kind && x->pid == c->pid && x->cpu == c->cpu &&
		    x->name == c->name) {
			x->ns += ns;
			return;
		}
	}
	if (w->n_c == KS_MAX_CULPRITS) {
		w->other_ns += ns;
		return;
	}
	w->c[w->n_c] = *c;
	w->c[w->n_c].ns = ns;
	w->n_c++;
}

/* Who holds CPU c now; false when not known. */
static bool holder(const struct replay *r, int c, struct ks_culprit *out)
{
	const struct cpu_now *n = &r->cpu[c];

	memset(out, 0, sizeof(*out));
	out->cpu = (uint16_t)c;
	if (n->in_irq) {
		out->kind = KS_CULPRIT_IRQ;
		out->pid = n->irq;
		out->tid = n->irq;
		out->name = n->irq_name;
		return true;
	}
	if (n->softirq >= 0) {
		out->kind = KS_CULPRIT_SOFTIRQ;
		out->pid = (int32_t)n->softirq;
		out->tid = out->pid;
		return true;
	}
	if (n->pid < 0) {
		return false;
	}
	if (n->pid == 0) {
		out->kind = KS_CULPRIT_IDLE;
		return true;
	}
	out->kind = KS_CULPRIT_TASK;
	out->pid = n->pid;
	out->tid = ks_local_pid(r->k, n->pid);
	out->name = n->name;
	out->prio = n->prio;
	{
		struct ks_pidflags *f = flags_of((struct kernel_sched *)r->k, n->pid, false);

		if (f) {
			out->writeback = f->writeback;
			out->block = f->block;
			out->block_write = f->block_write;
		}
	}
	return true;
}

static unsigned int state_bit(int64_t state)
{
	unsigned int b;

	for (b = 0; b < 10; b++) {
		if (state & ((int64_t)1 << b)) {
			return b;
		}
	}
	return 0;
}

/* Adds [from, to) clipped to the window to the thread's current state. */
static void account(struct replay *r, uint64_t from, uint64_t to)
{
	struct ks_window *w = r->w;
	struct ks_culprit c;
	uint64_t ns;

	if (from < w->start) {
		from = w->start;
	}
	if (to > w->end) {
		to = w->end;
	}
	if (to <= from) {
		return;
	}
	ns = to - from;
	switch (r->st) {
	case KS_ST_RUNNING:
		if (r->cpu_of >= 0 && holder(r, r->cpu_of, &c) &&
		    (c.kind == KS_CULPRIT_IRQ || c.kind == KS_CULPRIT_SOFTIRQ)) {
			w->ns[KS_ST_INTERRUPTED] += ns;
			add_culprit(r, &c, ns);
		} else {
			w->ns[KS_ST_RUNNING] += ns;
		}
		break;
	case KS_ST_RUNNABLE:
	case KS_ST_MIGRATED:
		w->ns[r->st] += ns;
		if (r->cpu_of >= 0 && holder(r, r->cpu_of, &c)) {
			add_culprit(r, &c, ns);
		}
		break;
	case KS_ST_BLOCKED:
		w->ns[KS_ST_BLOCKED] += ns;
		r->blocked_by[state_bit(r->blocked_state)] += ns;
		break;
	default:
		w->ns[r->st] += ns;
		break;
	}
}

static void apply_switch(struct replay *r, int32_t pid, const struct ks_event *e)
{
	struct cpu_now *n = &r->cpu[e->cpu];
	unsigned int i;

	/* a task's priority as it leaves the CPU: chrt after its switch-in changed it */
	for (i = 0; i < r->w->n_c; i++) {
		if (r->w->c[i].kind == KS_CULPRIT_TASK && r->w->c[i].pid == e->pid &&
		    r->w->c[i].cpu == e->cpu) {
			r->w->c[i].prio = e->prev_prio;
		}
	}

	if (e->pid == pid) {
		r->w->prio = e->prev_prio;
		r->cpu_of = e->cpu;
		if (e->arg == 0 || (e->arg & KS_PREEMPTED)) {
			r->st = KS_ST_RUNNABLE;
		} else if (e->arg & (KS_STATE_STOPPED | KS_STATE_TRACED)) {
			r->st = KS_ST_STOPPED;
		} else {
			r->st = KS_ST_BLOCKED;
			r->blocked_state = e->arg;
		}
	}
	n->pid = e->next_pid;
	n->name = e->name;
	n->prio = e->next_prio;
	if (e->next_pid == pid) {
		r->st = KS_ST_RUNNING;
		r->cpu_of = e->cpu;
		r->moved = false;
		r->w->prio = e->next_prio;
	}
}

static struct seen_task *seen_of(struct replay *r, int32_t pid)
{
	unsigned int i;

	for (i = 0; i < KS_SEEN; i++) {
		if (r->seen[i].pid == pid) {
			return &r->seen[i];
		}
	}
	return NULL;
}

static void note_seen(struct replay *r, int32_t pid, uint32_t name, int16_t prio)
{
	struct seen_task *t = seen_of(r, pid);

	if (pid <= 0) {
		return;
	}
	if (!t) {
		t = &r->seen[r->seen_next];
		r->seen_next = (r->seen_next + 1) % KS_SEEN;
		t->pid = pid;
		t->name = 0;
		t->prio = -1;
	}
	if (name) {
		t->name = name;
	}
	if (prio >= 0) {
		t->prio = prio;
	}
}

/*
 * The event fired in another task than the one the replay has on its CPU: the
 * switch between them is missing from the trace. That task runs from here (its
 * name and priority as last seen; the thread watched, if it was the one
 * believed running, is from here in a state not known).
 */
static void resync(struct replay *r, int32_t pid, const struct ks_event *e)
{
	struct cpu_now *n = &r->cpu[e->cpu];
	const struct seen_task *t;

	if (!e->running_known || n->pid < 0 || e->running == n->pid) {
		return;
	}
	if (n->pid == pid && r->st == KS_ST_RUNNING) {
		r->st = KS_ST_UNKNOWN;
	}
	t = seen_of(r, e->running);
	n->pid = e->running;
	/* a task the replay has not kept (64 are): its latest name in the trace */
	n->name = t && t->name ? t->name : ks_name_of_pid(r->k, e->running);
	n->prio = t ? t->prio : -1;
	if (e->running == pid) {
		r->st = KS_ST_RUNNING;
		r->cpu_of = e->cpu;
		r->moved = false;
	}
}

static void apply(struct replay *r, int32_t pid, const struct ks_event *e)
{
	struct cpu_now *n = &r->cpu[e->cpu];
	bool inside = e->ts >= r->w->start && e->ts < r->w->end;

	resync(r, pid, e);
	switch (e->kind) {
	case KS_SWITCH:
		note_seen(r, e->pid, e->prev_name, e->prev_prio);
		note_seen(r, e->next_pid, e->name, e->next_prio);
		apply_switch(r, pid, e);
		break;
	case KS_WAKEUP:
		if (e->running_known) {
			note_seen(r, e->pid, e->name, e->next_prio);
		}
		if (e->pid == pid && r->st != KS_ST_RUNNING && e->arg >= 0 &&
		    e->arg < KS_MAX_CPUS) {
			r->st = r->moved ? KS_ST_MIGRATED : KS_ST_RUNNABLE;
			r->cpu_of = (int)e->arg;
		}
		break;
	case KS_MIGRATE:
		if (e->pid == pid && e->arg >= 0 && e->arg < KS_MAX_CPUS) {
			r->cpu_of = (int)e->arg;
			r->w->migrations += inside;
			if (r->st != KS_ST_RUNNING) {
				r->moved = true;
				if (r->st == KS_ST_RUNNABLE) {
					r->st = KS_ST_MIGRATED;
				}
			}
		}
		break;
	case KS_IRQ_ENTRY:
		n->in_irq = true;
		n->irq = (int32_t)e->arg;
		n->irq_name = e->name;
		break;
	case KS_IRQ_EXIT:
		n->in_irq = false;
		break;
	case KS_SOFTIRQ_ENTRY:
		n->softirq = e->arg;
		break;
	case KS_SOFTIRQ_EXIT:
		n->softirq = -1;
		break;
	case KS_EXEC:
		note_seen(r, e->pid, e->name, -1);
		/* the comm changes at exec: sched_switch gave the one before */
		if (n->pid == e->pid) {
			n->name = e->name;
		}
		break;
	default:
		break;
	}
}

static int by_time_desc(const void *a, const void *b)
{
	const struct ks_culprit *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

int ks_window(const struct kernel_sched *k, int32_t pid, uint64_t start, uint64_t end,
	      struct ks_window *w)
{
	struct replay *r;
	uint64_t prev = start, stop;
	unsigned int b, best = 0;
	size_t i;

	memset(w, 0, sizeof(*w));
	w->start = start;
	w->end = end;
	w->prio = -1;
	w->cpu = -1;
	r = calloc(1, sizeof(*r));
	if (!r) {
		/* an analysis without memory for the replay: all unknown */
		w->ns[KS_ST_UNKNOWN] = end > start ? end - start : 0;
		return 0;
	}
	r->k = k;
	r->w = w;
	r->st = KS_ST_UNKNOWN;
	r->cpu_of = -1;
	for (i = 0; i < KS_MAX_CPUS; i++) {
		r->cpu[i].pid = -1;
		r->cpu[i].softirq = -1;
	}
	/* past the trace's last event nothing is known */
	stop = k->n && k->last_ts < end ? k->last_ts : end;
	for (i = 0; i < k->n && k->ev[i].ts < stop; i++) {
		account(r, prev, k->ev[i].ts);
		apply(r, pid, &k->ev[i]);
		prev = k->ev[i].ts > prev ? k->ev[i].ts : prev;
	}
	account(r, prev, stop);
	if (stop < end) {
		w->ns[KS_ST_UNKNOWN] += end - (stop > start ? stop : start);
	}
	for (b = 1; b < 10; b++) {
		if (r->blocked_by[b] > r->blocked_by[best]) {
			best = b;
		}
	}
	w->blocked_state = r->blocked_by[best] ? (int64_t)1 << best : 0;
	w->cpu = r->cpu_of;
	qsort(w->c, w->n_c, sizeof(w->c[0]), by_time_desc);
	free(r);
	return 0;
}

static bool same_holder(const struct ks_culprit *a, const struct ks_culprit *b)
{
	return a->kind == b->kind && a->pid == b->pid && a->name == b->name;
}

/* The run of CPU c since since, closed at to (clipped to [start, end)), into runs. */
static void close_run(const struct ks_culprit *who, uint64_t since, uint64_t to, uint64_t start,
		      uint64_t end, struct ks_run *runs, size_t *n, bool *truncated)
{
	uint64_t from = since > start ? since : start;

	if (to > end) {
		to = end;
	}
	if (!who->kind || to <= from) {
		return;
	}
	if (*n == KS_MAX_RUNS) {
		*truncated = true;
		return;
	}
	runs[*n].from = from;
	runs[*n].to = to;
	runs[*n].who = *who;
	(*n)++;
}

static int by_cpu_then_time(const void *a, const void *b)
{
	const struct ks_run *x = a, *y = b;

	if (x->who.cpu != y->who.cpu) {
		return x->who.cpu < y->who.cpu ? -1 : 1;
	}
	return x->from < y->from ? -1 : x->from > y->from;
}

size_t ks_cpu_runs(const struct kernel_sched *k, uint64_t start, uint64_t end, struct ks_run *runs,
		   bool *truncated)
{
	struct replay *r;
	struct ks_window w;
	struct ks_culprit *now = NULL;
	uint64_t *since = NULL;
	size_t i, n = 0;
	unsigned int c;

	*truncated = false;
	r = calloc(1, sizeof(*r));
	now = calloc(KS_MAX_CPUS, sizeof(*now));
	since = calloc(KS_MAX_CPUS, sizeof(*since));
	if (!r || !now || !since) {
		goto out;
	}
	memset(&w, 0, sizeof(w));
	r->k = k;
	r->w = &w; /* the replay's thread: none (pid -1 matches no event) */
	r->cpu_of = -1;
	for (i = 0; i < KS_MAX_CPUS; i++) {
		r->cpu[i].pid = -1;
		r->cpu[i].softirq = -1;
	}
	for (i = 0; i < k->n && k->ev[i].ts < end; i++) {
		const struct ks_event *e = &k->ev[i];
		struct ks_culprit h;

		apply(r, -1, e);
		w.n_c = 0;
		if (!holder(r, e->cpu, &h)) {
			continue;
		}
		if (!same_holder(&h, &now[e->cpu])) {
			close_run(&now[e->cpu], since[e->cpu], e->ts, start, end, runs, &n,
				  truncated);
			now[e->cpu] = h;
			since[e->cpu] = e->ts;
		} else if (h.kind == KS_CULPRIT_TASK) {
			now[e->cpu].prio = h.prio;
		}
	}
	/* up to the window's end, or the trace's last event when it ends before */
	for (c = 0; c < KS_MAX_CPUS; c++) {
		close_run(&now[c], since[c], k->n && k->last_ts < end ? k->last_ts : end, start,
			  end, runs, &n, truncated);
	}
	qsort(runs, n, sizeof(runs[0]), by_cpu_then_time);
out:
	free(r);
	free(now);
	free(since);
	return n;
}

const char *ks_state_label(enum ks_state s)
{
	static const char *const names[KS_ST_COUNT] = {
		[KS_ST_UNKNOWN] = "unknown",	     [KS_ST_RUNNING] = "running",
		[KS_ST_INTERRUPTED] = "interrupted", [KS_ST_RUNNABLE] = "runnable",
		[KS_ST_MIGRATED] = "migrated",	     [KS_ST_BLOCKED] = "blocked",
		[KS_ST_STOPPED] = "stopped",
	};

	return (unsigned int)s < KS_ST_COUNT ? names[s] : "?";
}

const char *ks_softirq_name(int64_t vec)
{
	/* include/linux/interrupt.h, the order of the softirq_to_name table */
	static const char *const names[] = { "HI",	 "TIMER",   "NET_TX", "NET_RX",	 "BLOCK",
					     "IRQ_POLL", "TASKLET", "SCHED",  "HRTIMER", "RCU" };

	return vec >= 0 && vec < (int64_t)(sizeof(names) / sizeof(names[0])) ? names[vec] : "?";
}

const char *ks_blocked_label(int64_t prev_state)
{
	if (prev_state & KS_STATE_SLEEPING) {
		return "sleeping (waiting for an event: a lock, a condition, a socket, a timer)";
	}
	if (prev_state & KS_STATE_DISK) {
		return "uninterruptible (usually disk I/O or a page fault)";
	}
	if (prev_state & 0x40) {
		return "parked";
	}
	if (prev_state & 0x80) {
		return "idle kernel thread";
	}
	return "blocked";
}
