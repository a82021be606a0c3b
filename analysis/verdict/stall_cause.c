// SPDX-License-Identifier: GPL-2.0-or-later
/* Why each stall happened (see stall_cause.h; the rule in docs/analysis.md). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dgrdma/wire.h>

#include "classify.h"
#include "loglin_hist.h"
#include "spill_file.h"
#include "stall_cause.h"
#include "stats.h"

#define SC_TEXT_STALLS	 10 /* stalls the text lists (JSON: all kept) */
#define SC_TEXT_CULPRITS 4  /* culprits named per stall or cause in the text */

int sc_init(struct stall_cause *sc)
{
	memset(sc, 0, sizeof(*sc));
	sc->spill_fd = -1;
	return 0;
}

void sc_free(struct stall_cause *sc)
{
	unsigned int i;

	for (i = 0; sc->stalls && i < sc->n_stalls; i++) {
		free(sc->stalls[i].runs);
	}
	free(sc->bells);
	free(sc->stalls);
	if (sc->spill_fd >= 0) {
		close(sc->spill_fd);
	}
	sc_init(sc);
}

static int by_complete(const void *a, const void *b)
{
	const struct sc_bell *x = a, *y = b;

	return x->complete < y->complete ? -1 : x->complete > y->complete;
}

/*
 * Sorts the window and moves its first half to the file (glibc's qsort is a
 * merge sort: equal completions keep the order they came in, as one sort of
 * them all would). Returns 0, or -DGR_E_SYS (nothing moved; no file again).
 */
static int spill_half(struct stall_cause *sc)
{
	size_t half = sc->n_win / 2;

	if (sc->spill_failed) {
		return -DGR_E_SYS;
	}
	if (sc->spill_fd < 0) {
		sc->spill_fd = spill_file_open();
		if (sc->spill_fd < 0) {
			sc->spill_failed = true;
			return -DGR_E_SYS;
		}
	}
	qsort(sc->bells, sc->n_win, sizeof(sc->bells[0]), by_complete);
	if (spill_file_append(sc->spill_fd, sc->bells, half * sizeof(sc->bells[0]))) {
		sc->spill_failed = true;
		return -DGR_E_SYS;
	}
	sc->spilled_last_complete = sc->bells[half - 1].complete;
	memmove(sc->bells, sc->bells + half, (sc->n_win - half) * sizeof(sc->bells[0]));
	sc->n_win -= half;
	sc->n_spilled += half;
	return 0;
}

static int push_bell(struct stall_cause *sc, const struct sc_bell *b)
{
	if (sc->n_win == sc->cap_bells && (sc->cap_bells < SC_BELL_WINDOW || spill_half(sc) < 0)) {
		size_t cap = sc->cap_bells ? sc->cap_bells * 2 : 1024;
		struct sc_bell *nb = realloc(sc->bells, cap * sizeof(*nb));

		if (!nb) {
			return -DGR_E_NOMEM;
		}
		sc->bells = nb;
		sc->cap_bells = cap;
	}
	if (sc->n_spilled && b->complete < sc->spilled_last_complete) {
		sc->unordered = true;
	}
	if (!sc->n_bells || b->arrival < sc->first_arrival) {
		sc->first_arrival = b->arrival;
	}
	sc->bells[sc->n_win++] = *b;
	sc->n_bells++;
	return 0;
}

/* The doorbell of d: its stage boundaries and threads. */
static void bell_of(struct sc_bell *b, const struct ha_doorbell *d)
{
	memset(b, 0, sizeof(*b));
	b->complete = d->ts;
	b->sent = d->ts + d->latency;
	b->arrival = d->ts;
	if (d->has_wait_receive && d->wait_receive <= d->ts) {
		b->arrival = d->ts - d->wait_receive;
	}
	/* parts missing: host_events gives 0 for all three */
	if (d->wait + d->work + d->send == d->latency && (d->wait || d->work || d->send)) {
		b->acquire = d->ts + d->wait;
		b->release = b->acquire + d->work;
	}
	b->conn = d->conn;
	/* the thread that fired each stage's ending event: who was late there */
	b->tid[SC_STAGE_KERNEL] = d->tid_complete;
	b->tid[SC_STAGE_QUEUED] = d->tid_acquire;
	b->tid[SC_STAGE_CONSUMER] = d->tid_acquire;
	b->tid[SC_STAGE_DOORBELL] = d->tid_sent;
}

static int add_bell(struct stall_cause *sc, const struct sc_bell *b, bool had_arrival)
{
	if (push_bell(sc, b) < 0) {
		return -DGR_E_NOMEM;
	}
	if (sc->n_bells == 1) {
		sc->all_had_arrival = true;
	}
	sc->all_had_arrival &= had_arrival;
	return 0;
}

int sc_add_bell(struct stall_cause *sc, const struct ha_doorbell *d)
{
	struct sc_bell b;

	bell_of(&b, d);
	return add_bell(sc, &b, d->has_wait_receive);
}

int sc_add_wire_bell(struct stall_cause *sc, uint64_t arrival, uint64_t copy, uint64_t sent,
		     int32_t tid_rx, int32_t tid_tx)
{
	struct ha_doorbell d;
	struct sc_bell b;

	if (copy < arrival || copy > sent) {
		copy = arrival;
	}
	memset(&d, 0, sizeof(d));
	d.ts = arrival;
	d.latency = sent - arrival;
	d.has_wait_receive = true; /* the arrival is the capture's */
	bell_of(&b, &d);
	/* no consumer's events: the kernel (until the copy), then the doorbell's stage */
	b.complete = copy;
	b.acquire = copy;
	b.release = copy;
	b.tid[SC_STAGE_KERNEL] = tid_rx;
	b.tid[SC_STAGE_DOORBELL] = tid_tx;
	return add_bell(sc, &b, true);
}

const char *sc_stage_label(enum sc_stage s)
{
	static const char *const n[SC_STAGE_COUNT] = { "kernel", "stack", "consumer", "doorbell" };

	return (unsigned int)s < SC_STAGE_COUNT ? n[s] : "?";
}

const char *sc_stage_text(enum sc_stage s)
{
	static const char *const n[SC_STAGE_COUNT] = {
		"in the kernel before the stack read it",
		"in the stack before the consumer took it",
		"in the consumer",
		"before the doorbell left",
	};

	return (unsigned int)s < SC_STAGE_COUNT ? n[s] : "?";
}

const char *sc_cause_label(enum sc_cause c)
{
	static const char *const n[SC_CAUSE_COUNT] = {
		[SC_CAUSE_NONE] = "not-attributed",
		[SC_CAUSE_UNSEEN] = "thread-not-in-kernel-trace",
		[SC_CAUSE_STOPPED] = "stopped",
		[SC_CAUSE_HIGHER_PRIO] = "higher-priority-task",
		[SC_CAUSE_RT_THROTTLED] = "rt-throttled",
		[SC_CAUSE_WRITEBACK] = "writeback",
		[SC_CAUSE_OTHER_TASK] = "other-task",
		[SC_CAUSE_SOFTIRQ] = "softirq",
		[SC_CAUSE_IRQ] = "irq",
		[SC_CAUSE_WAKEUP] = "late-wakeup",
		[SC_CAUSE_BLOCKED] = "blocked",
		[SC_CAUSE_RUNNING] = "own-work",
	};

	return (unsigned int)c < SC_CAUSE_COUNT ? n[c] : "?";
}

void sc_culprit_name(const struct kernel_sched *k, const struct ks_culprit *c, char *buf,
		     size_t size)
{
	switch (c->kind) {
	case KS_CULPRIT_IRQ:
		snprintf(buf, size, "IRQ %d %s", c->pid, ks_name(k, c->name));
		break;
	case KS_CULPRIT_SOFTIRQ:
		snprintf(buf, size, "%s softirq", ks_softirq_name(c->pid));
		break;
	case KS_CULPRIT_IDLE:
		snprintf(buf, size, "nothing (idle)");
		break;
	default:
		snprintf(buf, size, "%s%s", ks_name(k, c->name),
			 c->writeback	  ? " (writeback)"
			 : c->block_write ? " (block writes)"
			 : c->block	  ? " (block I/O)"
					  : "");
		break;
	}
}

static uint64_t bell_total(const struct stall_cause *sc, const struct sc_bell *b)
{
	return b->sent - (sc->from_arrival ? b->arrival : b->complete);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int by_duration_desc(const void *a, const void *b)
{
	const struct sc_stall *x = a, *y = b;

	if (x->duration != y->duration) {
		return x->duration < y->duration ? 1 : -1;
	}
	return x->start < y->start ? -1 : x->start > y->start;
}

/* The longest stage of the worst doorbell, and its interval. */
static void stage_of(const struct sc_bell *b, struct sc_stall *s)
{
	uint64_t len[SC_STAGE_COUNT] = { 0 }, from[SC_STAGE_COUNT], to[SC_STAGE_COUNT];
	unsigned int i, best = SC_STAGE_KERNEL;

	from[SC_STAGE_KERNEL] = b->arrival;
	to[SC_STAGE_KERNEL] = b->complete;
	if (b->acquire) {
		from[SC_STAGE_QUEUED] = b->complete;
		to[SC_STAGE_QUEUED] = b->acquire;
		from[SC_STAGE_CONSUMER] = b->acquire;
		to[SC_STAGE_CONSUMER] = b->release;
		from[SC_STAGE_DOORBELL] = b->release;
		to[SC_STAGE_DOORBELL] = b->sent;
	} else {
		/* without the consumer's events the stack's part is one stage */
		from[SC_STAGE_QUEUED] = b->complete;
		to[SC_STAGE_QUEUED] = b->sent;
		from[SC_STAGE_CONSUMER] = to[SC_STAGE_CONSUMER] = 0;
		from[SC_STAGE_DOORBELL] = to[SC_STAGE_DOORBELL] = 0;
	}
	for (i = 0; i < SC_STAGE_COUNT; i++) {
		len[i] = to[i] > from[i] ? to[i] - from[i] : 0;
		if (len[i] > len[best]) {
			best = i;
		}
	}
	s->stage = (enum sc_stage)best;
	s->stage_start = from[best];
	s->stage_end = to[best];
}

/*
 * The thread of the stall's stage: the one whose event ended it (its vtid
 * context), else the stack's thread of that role (thread_start): rx,
 * consumer (worker) or tx.
 */
static void thread_of(const struct host_analysis *h, const struct sc_bell *b, struct sc_stall *s)
{
	static const uint8_t role_of[SC_STAGE_COUNT] = { 0, 2, 2, 1 };
	const struct ha_thread *any = NULL;
	unsigned int conn = b->conn, i;

	s->role = role_of[s->stage];
	if (b->tid[s->stage] > 0) {
		s->thread_known = true;
		s->tid = b->tid[s->stage];
		/* its role, when thread_start named it */
		for (i = 0; h && i < h->n_threads; i++) {
			if (!h->threads[i].fpga && h->threads[i].tid == s->tid) {
				s->role = h->threads[i].role;
				break;
			}
		}
		return;
	}
	for (i = 0; h && i < h->n_threads; i++) {
		const struct ha_thread *t = &h->threads[i];

		if (t->fpga || t->role != s->role) {
			continue;
		}
		if (t->conn == conn) {
			any = t;
			break;
		}
		if (!any) {
			any = t;
		}
	}
	if (any) {
		s->thread_known = true;
		s->tid = any->tid;
	}
}

static bool kworker_named(const struct kernel_sched *k, const struct ks_culprit *c)
{
	return !strncmp(ks_name(k, c->name), "kworker", 7);
}

/* True when a task of normal priority (kernel priority 100 or more) held the CPU in w. */
static bool normal_task_ran(const struct ks_window *w)
{
	for (unsigned int i = 0; i < w->n_c; i++) {
		if (w->c[i].kind == KS_CULPRIT_TASK && w->c[i].prio >= 100) {
			return true;
		}
	}
	return false;
}

static enum sc_cause cause_of(const struct kernel_sched *k, const struct ks_window *w)
{
	uint64_t wait = w->ns[KS_ST_RUNNABLE] + w->ns[KS_ST_MIGRATED] + w->ns[KS_ST_INTERRUPTED];
	uint64_t best = wait;
	enum sc_cause c = SC_CAUSE_OTHER_TASK;
	const struct ks_culprit *top = w->n_c ? &w->c[0] : NULL;

	if (w->ns[KS_ST_STOPPED] > best) {
		best = w->ns[KS_ST_STOPPED];
		c = SC_CAUSE_STOPPED;
	}
	if (w->ns[KS_ST_BLOCKED] > best) {
		best = w->ns[KS_ST_BLOCKED];
		c = SC_CAUSE_BLOCKED;
	}
	if (w->ns[KS_ST_RUNNING] > best) {
		best = w->ns[KS_ST_RUNNING];
		c = SC_CAUSE_RUNNING;
	}
	if (w->ns[KS_ST_UNKNOWN] > best || best == 0) {
		return SC_CAUSE_UNSEEN;
	}
	if (c != SC_CAUSE_OTHER_TASK) {
		return c;
	}
	if (!top) {
		return SC_CAUSE_UNSEEN;
	}
	/*
	 * A runnable real-time thread gives way to a normal task only when the kernel throttles
	 * real-time tasks (950 ms of each second by default: kernel.sched_rt_runtime_us, since
	 * Linux 6.12 the fair server's share); whatever that task did, the throttling let it run.
	 * Its CPU may idle in the rest of the throttled time; idle alone is a late wake-up (a
	 * deep C-state's exit).
	 */
	if (w->prio >= 0 && w->prio < 100 &&
	    ((top->kind == KS_CULPRIT_TASK && top->prio >= 100) ||
	     (top->kind == KS_CULPRIT_IDLE && normal_task_ran(w)))) {
		return SC_CAUSE_RT_THROTTLED;
	}
	switch (top->kind) {
	case KS_CULPRIT_IDLE:
		return SC_CAUSE_WAKEUP;
	case KS_CULPRIT_IRQ:
		return SC_CAUSE_IRQ;
	case KS_CULPRIT_SOFTIRQ:
		return SC_CAUSE_SOFTIRQ;
	default:
		break;
	}
	/*
	 * a disk writer: writeback events, block writes issued (dd's fsync, a flusher), or a
	 * kworker's block I/O; a process that only reads the disk is another task at work
	 */
	if (top->writeback || top->block_write || (top->block && kworker_named(k, top))) {
		return SC_CAUSE_WRITEBACK;
	}
	if (w->prio >= 0 && top->prio >= 0 && top->prio < w->prio) {
		return SC_CAUSE_HIGHER_PRIO;
	}
	return SC_CAUSE_OTHER_TASK;
}

/* Adds a stall's culprits to its cause's sum. */
static void sum_culprits(struct sc_cause_sum *g, const struct ks_window *w)
{
	unsigned int i, j;

	for (i = 0; i < w->n_c; i++) {
		const struct ks_culprit *c = &w->c[i];

		for (j = 0; j < g->n_c; j++) {
			if (g->c[j].kind == c->kind && g->c[j].pid == c->pid &&
			    g->c[j].cpu == c->cpu && g->c[j].name == c->name) {
				g->c[j].ns += c->ns;
				break;
			}
		}
		if (j == g->n_c && g->n_c < KS_MAX_CULPRITS) {
			g->c[g->n_c++] = *c;
		}
	}
}

static int culprit_desc(const void *a, const void *b)
{
	const struct ks_culprit *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

static int cause_desc(const void *a, const void *b)
{
	const struct sc_cause_sum *x = a, *y = b;

	return x->stall_ns < y->stall_ns ? 1 : x->stall_ns > y->stall_ns ? -1 : 0;
}

/* "CPU 1 ran kworker/u4:2 (writeback) 62%, dd 21%, NET_RX softirq 8%" into buf. */
static void culprit_list(const struct kernel_sched *k, const struct ks_culprit *c, unsigned int n,
			 uint64_t window_ns, char *buf, size_t size)
{
	size_t len = 0;
	unsigned int i;
	int last_cpu = -1;

	buf[0] = '\0';
	for (i = 0; i < n && i < SC_TEXT_CULPRITS && len < size; i++) {
		char name[160];
		double share = window_ns ? 100.0 * (double)c[i].ns / (double)window_ns : 0;

		sc_culprit_name(k, &c[i], name, sizeof(name));
		if (last_cpu == (int)c[i].cpu) {
			len += (size_t)snprintf(buf + len, size - len, ", %s %.0f%%", name, share);
		} else {
			len += (size_t)snprintf(buf + len, size - len, "%sCPU %u ran %s %.0f%%",
						i ? ", " : "", (unsigned int)c[i].cpu, name, share);
		}
		last_cpu = (int)c[i].cpu;
	}
}

/*
 * "rx thread" (the stack's role), or for the wire's stalls of a host without
 * UST events the thread found: "receiving thread (ocpi-style-host)".
 */
static void thread_words(const struct stall_cause *sc, uint8_t role, char *buf, size_t size)
{
	const struct wt_thread *t;

	if (!sc->wire) {
		snprintf(buf, size, "%s thread", ha_role_name(role));
		return;
	}
	t = role == 0 ? &sc->wire->receiver : &sc->wire->sender;
	snprintf(buf, size, "%s thread (%s)", role == 0 ? "receiving" : "doorbell-sending",
		 t->found && sc->k ? ks_comm_of(sc->k, t->pid) : "not found");
}

/* More stalls were found than the SC_MAX_STALLS kept: the causes are those of the worst. */
static bool some_not_kept(const struct stall_cause *sc)
{
	return sc->stalls_total > sc->n_stalls;
}

/* The sentence of one cause. */
static void cause_text(const struct stall_cause *sc, struct sc_cause_sum *g)
{
	char list[256], role[96];
	double share =
	    sc->stall_ns_kept ? 100.0 * (double)g->stall_ns / (double)sc->stall_ns_kept : 0;
	bool cut = some_not_kept(sc);
	int n = snprintf(g->text, sizeof(g->text),
			 "%" PRIu64 " of %s%u stall%s (%.0f%% of %sstall time): ", g->stalls,
			 cut ? "the worst " : "", sc->n_stalls, sc->n_stalls == 1 ? "" : "s", share,
			 cut ? "their " : "");
	size_t len = n > 0 ? (size_t)n : 0;

	if (len >= sizeof(g->text)) {
		return;
	}
	thread_words(sc, g->role, role, sizeof(role));
	culprit_list(sc->k, g->c, g->n_c, g->window_ns, list, sizeof(list));
	switch (g->cause) {
	case SC_CAUSE_NONE:
		/* the role tells one group from another: causes group by (cause, role) */
		snprintf(g->text + len, sizeof(g->text) - len,
			 "the %s, not attributed (no kernel trace: latency-report --kernel-trace "
			 "DIR)",
			 role);
		break;
	case SC_CAUSE_UNSEEN:
		if (sc->wire && !(g->role == 0 ? sc->wire->receiver : sc->wire->sender).found) {
			uint64_t events =
			    g->role == 0 ? sc->wire->rx_copy_events : sc->wire->tx_events;

			snprintf(
			    g->text + len, sizeof(g->text) - len,
			    "the %s: no thread's %s matched more than half the doorbells (%s)",
			    role, g->role == 0 ? "copies" : "sends",
			    sc->wire->clocks_apart
				? "the kernel trace's times are not the capture's: its clock is "
				  "not on the epoch, as dgrdma-capture --kernel puts it"
			    : events ? "see threads"
				     : "the kernel trace has none: dgrdma-capture --kernel "
				       "records them");
			break;
		}
		snprintf(g->text + len, sizeof(g->text) - len,
			 "the %s has no event in the kernel trace during the stall", role);
		break;
	case SC_CAUSE_STOPPED:
		snprintf(g->text + len, sizeof(g->text) - len,
			 "the %s was stopped (SIGSTOP or a debugger): stopped, no kernel "
			 "cause",
			 role);
		break;
	case SC_CAUSE_BLOCKED:
		snprintf(g->text + len, sizeof(g->text) - len, "the %s was blocked, %s", role,
			 ks_blocked_label(g->blocked_state));
		break;
	case SC_CAUSE_RUNNING:
		snprintf(g->text + len, sizeof(g->text) - len,
			 "the %s was running: its own work took the time", role);
		break;
	case SC_CAUSE_WAKEUP:
		snprintf(g->text + len, sizeof(g->text) - len,
			 "the %s was runnable while its CPU was idle (a late wake-up): %s", role,
			 list);
		break;
	case SC_CAUSE_RT_THROTTLED:
		snprintf(g->text + len, sizeof(g->text) - len,
			 "the %s, at real-time priority, was held back by the kernel's real-time "
			 "throttling while %s",
			 role, list);
		break;
	default:
		snprintf(g->text + len, sizeof(g->text) - len, "the %s was runnable while %s", role,
			 list);
		break;
	}
}

/* Groups the kept stalls by (cause, role), ranked by stall time. */
static void rank_causes(struct stall_cause *sc)
{
	unsigned int i, j;

	sc->n_causes = 0;
	for (i = 0; i < sc->n_stalls; i++) {
		const struct sc_stall *s = &sc->stalls[i];
		struct sc_cause_sum *g = NULL;

		for (j = 0; j < sc->n_causes; j++) {
			if (sc->causes[j].cause == s->cause && sc->causes[j].role == s->role) {
				g = &sc->causes[j];
				break;
			}
		}
		if (!g) {
			if (sc->n_causes == SC_MAX_CAUSES) {
				continue;
			}
			g = &sc->causes[sc->n_causes++];
			memset(g, 0, sizeof(*g));
			g->cause = s->cause;
			g->role = s->role;
			g->blocked_state = s->w.blocked_state;
		}
		g->stalls++;
		g->stall_ns += s->duration;
		g->window_ns += s->stage_end - s->stage_start;
		if (s->attributed) {
			sum_culprits(g, &s->w);
		}
	}
	qsort(sc->causes, sc->n_causes, sizeof(sc->causes[0]), cause_desc);
	for (j = 0; j < sc->n_causes; j++) {
		qsort(sc->causes[j].c, sc->causes[j].n_c, sizeof(sc->causes[j].c[0]), culprit_desc);
		cause_text(sc, &sc->causes[j]);
	}
}

/* Reads the doorbells in order of completion: the file's, then the window's. */
#define SC_CURSOR_BLOCK 256u
struct bell_cursor {
	const struct stall_cause *sc;
	uint64_t i;	    /* the next doorbell's index */
	uint64_t buf_first; /* buf holds doorbells buf_first .. + buf_n */
	size_t buf_n;
	int err; /* a read of the file failed (-errno; 0: none) */
	struct sc_bell buf[SC_CURSOR_BLOCK];
};

static void cursor_init(struct bell_cursor *c, const struct stall_cause *sc)
{
	memset(c, 0, sizeof(*c));
	c->sc = sc;
}

/* Returns the next doorbell, or NULL at the end or when the file cannot be read (c->err). */
static const struct sc_bell *cursor_next(struct bell_cursor *c)
{
	const struct stall_cause *sc = c->sc;
	const struct sc_bell *b;

	if (c->err || c->i >= sc->n_bells) {
		return NULL;
	}
	if (c->i >= sc->n_spilled) {
		b = &sc->bells[c->i - sc->n_spilled];
	} else {
		if (c->i >= c->buf_first + c->buf_n) {
			uint64_t want = sc->n_spilled - c->i;

			if (want > SC_CURSOR_BLOCK) {
				want = SC_CURSOR_BLOCK;
			}
			c->err = spill_file_read(sc->spill_fd, c->i * sizeof(c->buf[0]), c->buf,
						 (size_t)want * sizeof(c->buf[0]));
			if (c->err) {
				return NULL;
			}
			c->buf_first = c->i;
			c->buf_n = (size_t)want;
		}
		b = &c->buf[c->i - c->buf_first];
	}
	c->i++;
	return b;
}

/*
 * Puts every doorbell in order of completion: the window sorted after the
 * file's, or, when one came too far out of order, all of them read back into
 * memory and sorted. Returns 0, -DGR_E_NOMEM or -DGR_E_SYS.
 */
static int order_bells(struct stall_cause *sc)
{
	struct sc_bell *all;

	if (!sc->unordered) {
		qsort(sc->bells, sc->n_win, sizeof(sc->bells[0]), by_complete);
		return 0;
	}
	all = malloc((size_t)sc->n_bells * sizeof(*all));
	if (!all) {
		return -DGR_E_NOMEM;
	}
	if (spill_file_read(sc->spill_fd, 0, all, (size_t)sc->n_spilled * sizeof(*all))) {
		free(all);
		return -DGR_E_SYS;
	}
	memcpy(all + sc->n_spilled, sc->bells, sc->n_win * sizeof(*all));
	qsort(all, (size_t)sc->n_bells, sizeof(*all), by_complete);
	free(sc->bells);
	sc->bells = all;
	sc->n_win = sc->cap_bells = (size_t)sc->n_bells;
	sc->n_spilled = 0;
	return 0;
}

/*
 * The doorbells' p50 (nearest rank ceil(0.5 n)): exact up to the exact limit,
 * else from a log-linear histogram. Returns 0, -DGR_E_NOMEM or -DGR_E_SYS.
 */
static int bells_p50(struct stall_cause *sc)
{
	struct bell_cursor *c = malloc(sizeof(*c));
	const struct sc_bell *b;
	struct loglin_hist hist = { 0 };
	uint64_t *v = NULL;
	size_t n = 0;
	int ret = -DGR_E_NOMEM;

	if (!c) {
		return ret;
	}
	sc->p50_from_histogram = sc->n_bells > stats_exact_limit();
	if (sc->p50_from_histogram ? llh_init(&hist) < 0
				   : !(v = malloc((size_t)sc->n_bells * sizeof(*v)))) {
		goto out;
	}
	cursor_init(c, sc);
	while ((b = cursor_next(c))) {
		if (sc->p50_from_histogram) {
			llh_add(&hist, bell_total(sc, b));
		} else {
			v[n++] = bell_total(sc, b);
		}
	}
	if (c->err) {
		ret = -DGR_E_SYS;
		goto out;
	}
	if (sc->p50_from_histogram) {
		sc->p50_ns = llh_percentile(&hist, 500);
	} else {
		qsort(v, n, sizeof(*v), cmp_u64);
		sc->p50_ns = v[(n + 1) / 2 - 1];
	}
	ret = 0;
out:
	if (sc->p50_from_histogram) {
		llh_free(&hist);
	}
	free(v);
	free(c);
	return ret;
}

/*
 * Keeps the stall s among the worst SC_MAX_STALLS in *all (by_duration_desc):
 * up to twice that many are held, then sorted and cut. Returns 0 or -DGR_E_NOMEM.
 */
static int keep_stall(struct sc_stall **all, size_t *n_all, const struct sc_stall *s)
{
	if (!*all) {
		*all = malloc(2 * SC_MAX_STALLS * sizeof(**all));
		if (!*all) {
			return -DGR_E_NOMEM;
		}
	}
	if (*n_all == 2 * SC_MAX_STALLS) {
		qsort(*all, *n_all, sizeof(**all), by_duration_desc);
		*n_all = SC_MAX_STALLS;
	}
	(*all)[(*n_all)++] = *s;
	return 0;
}

int sc_analyse(struct stall_cause *sc, uint64_t tolerable_ns, const struct host_analysis *h,
	       const struct kernel_sched *k)
{
	struct bell_cursor *c = NULL;
	const struct sc_bell *b;
	struct sc_bell worst;
	struct sc_stall *all = NULL, st;
	size_t i, n_all = 0;
	uint64_t run = 0; /* doorbells above the threshold in a row */
	bool cause_lanes[SC_CAUSE_COUNT] = { false };
	int ret;

	sc->k = k;
	sc->tolerable_ns = tolerable_ns;
	sc->from_arrival = sc->all_had_arrival;
	if (!sc->n_bells) {
		return 0;
	}
	ret = order_bells(sc);
	if (!ret) {
		ret = bells_p50(sc);
	}
	if (ret) {
		return ret;
	}
	sc->threshold_ns = sat_mul_u64(sc->p50_ns, CLASSIFY_SELF_RATIO);
	if (tolerable_ns && tolerable_ns / 2 < sc->threshold_ns) {
		sc->threshold_ns = tolerable_ns / 2;
	}
	ret = -DGR_E_NOMEM;
	c = malloc(sizeof(*c));
	if (!c) {
		goto out;
	}
	cursor_init(c, sc);
	memset(&worst, 0, sizeof(worst));
	for (;;) {
		b = cursor_next(c);
		if (b && bell_total(sc, b) > sc->threshold_ns) {
			/* the first of the run's longest */
			if (!run || bell_total(sc, b) > bell_total(sc, &worst)) {
				worst = *b;
			}
			run++;
			continue;
		}
		if (run) {
			memset(&st, 0, sizeof(st));
			st.start = sc->from_arrival ? worst.arrival : worst.complete;
			st.duration = bell_total(sc, &worst);
			st.sent = worst.sent;
			st.doorbells = run;
			stage_of(&worst, &st);
			thread_of(h, &worst, &st);
			if (keep_stall(&all, &n_all, &st) < 0) {
				goto out;
			}
			sc->stalls_total++;
			sc->stall_ns_total += st.duration;
			run = 0;
		}
		if (!b) {
			break;
		}
	}
	if (c->err) {
		ret = -DGR_E_SYS;
		goto out;
	}
	if (n_all) {
		qsort(all, n_all, sizeof(all[0]), by_duration_desc);
	}
	sc->n_stalls = n_all < SC_MAX_STALLS ? (unsigned int)n_all : SC_MAX_STALLS;
	/* the stall time the causes share is that of the stalls kept */
	sc->stall_ns_kept = 0;
	for (i = 0; i < sc->n_stalls; i++) {
		sc->stall_ns_kept += all[i].duration;
	}
	sc->stalls = all;
	all = NULL;
	for (i = 0; i < sc->n_stalls; i++) {
		struct sc_stall *s = &sc->stalls[i];

		if (!k) {
			s->cause = SC_CAUSE_NONE;
			continue;
		}
		if (!s->thread_known) {
			s->cause = SC_CAUSE_UNSEEN;
			continue;
		}
		ks_window(k, ks_global_pid(k, s->tid), s->stage_start, s->stage_end, &s->w);
		s->attributed = true;
		s->cause = cause_of(k, &s->w);
		/* the worst few, and each cause's worst (the stalls are worst first) */
		if (i < SC_LANES_STALLS || !cause_lanes[s->cause]) {
			cause_lanes[s->cause] = true;
			s->runs = malloc(KS_MAX_RUNS * sizeof(*s->runs));
			if (!s->runs) {
				goto out;
			}
			s->n_runs = ks_cpu_runs(k, s->stage_start, s->stage_end, s->runs,
						&s->runs_truncated);
		}
	}
	rank_causes(sc);
	ret = 0;
out:
	free(c);
	free(all);
	return ret;
}

static void print_culprits(struct dgr_pr *p, const struct kernel_sched *k,
			   const struct ks_culprit *c, unsigned int n, uint64_t window_ns)
{
	static const char *const kinds[] = { "?", "task", "irq", "softirq", "idle" };
	unsigned int i;

	dgr_pr_arr_begin(p, "culprits", NULL);
	for (i = 0; i < n && dgr_pr_is_json(p); i++) {
		char name[160];

		sc_culprit_name(k, &c[i], name, sizeof(name));
		dgr_pr_obj_begin(p, NULL, NULL);
		dgr_pr_str(p, "kind", NULL, c[i].kind < 5 ? kinds[c[i].kind] : "?");
		dgr_pr_str(p, "name", NULL, name);
		if (c[i].kind == KS_CULPRIT_TASK) {
			dgr_pr_str(p, "comm", NULL, ks_name(k, c[i].name));
			dgr_pr_i64(p, "pid", NULL, c[i].tid);
			dgr_pr_i64(p, "kernel_pid", NULL, c[i].pid);
			dgr_pr_i64(p, "prio", NULL, c[i].prio);
			dgr_pr_bool(p, "writeback", NULL, c[i].writeback);
			dgr_pr_bool(p, "block_io", NULL, c[i].block);
			dgr_pr_bool(p, "block_writes", NULL, c[i].block_write);
		} else if (c[i].kind != KS_CULPRIT_IDLE) {
			dgr_pr_i64(p, c[i].kind == KS_CULPRIT_IRQ ? "irq" : "vector", NULL,
				   c[i].pid);
		}
		dgr_pr_u64(p, "cpu", NULL, c[i].cpu);
		dgr_pr_ns(p, "ns", NULL, c[i].ns);
		dgr_pr_dbl(p, "share", NULL, window_ns ? (double)c[i].ns / (double)window_ns : 0,
			   3);
		dgr_pr_obj_end(p);
	}
	dgr_pr_arr_end(p);
}

/*
 * Who held each CPU during the stall's window, as offsets from its start: the
 * lanes of dgrdma-plot's stall-lanes plot (Trace Compass's Resources view).
 */
static void print_runs(struct dgr_pr *p, const struct stall_cause *sc, const struct sc_stall *s)
{
	static const char *const kinds[] = { "?", "task", "irq", "softirq", "idle" };
	int32_t late = ks_global_pid(sc->k, s->tid);
	size_t i;

	dgr_pr_u64(p, "cpus", NULL, (uint64_t)sc->k->max_cpu + 1);
	dgr_pr_bool(p, "cpu_runs_truncated", NULL, s->runs_truncated);
	dgr_pr_arr_begin(p, "cpu_runs", NULL);
	for (i = 0; i < s->n_runs; i++) {
		const struct ks_run *r = &s->runs[i];
		char name[160];

		sc_culprit_name(sc->k, &r->who, name, sizeof(name));
		dgr_pr_obj_begin(p, NULL, NULL);
		dgr_pr_u64(p, "cpu", NULL, r->who.cpu);
		dgr_pr_ns(p, "from_ns", NULL, r->from - s->stage_start);
		dgr_pr_ns(p, "to_ns", NULL, r->to - s->stage_start);
		dgr_pr_str(p, "kind", NULL, r->who.kind < 5 ? kinds[r->who.kind] : "?");
		dgr_pr_str(p, "name", NULL, name);
		if (r->who.kind == KS_CULPRIT_TASK) {
			dgr_pr_i64(p, "pid", NULL, r->who.tid);
			dgr_pr_i64(p, "prio", NULL, r->who.prio);
			dgr_pr_bool(p, "late_thread", NULL, r->who.pid == late);
		}
		dgr_pr_obj_end(p);
	}
	dgr_pr_arr_end(p);
}

/* One stall: JSON object, or two text lines. */
static void print_stall(struct dgr_pr *p, const struct stall_cause *sc, const struct sc_stall *s,
			uint64_t origin)
{
	uint64_t win = s->stage_end - s->stage_start;
	unsigned int i;

	if (!dgr_pr_is_json(p)) {
		char list[256] = "", states[256] = "", who[96];
		size_t len = 0;

		for (i = 0; s->attributed && i < KS_ST_COUNT; i++) {
			if (s->w.ns[i] && win) {
				len += (size_t)snprintf(states + len, sizeof(states) - len,
							"%s%s %.0f%%", len ? ", " : "",
							ks_state_label((enum ks_state)i),
							100.0 * (double)s->w.ns[i] / (double)win);
				if (len >= sizeof(states)) {
					break;
				}
			}
		}
		if (s->attributed) {
			culprit_list(sc->k, s->w.c, s->w.n_c, win, list, sizeof(list));
		}
		dgr_pr_text_line(p, "- at %.3f s: %.3f ms, %" PRIu64 " doorbell%s, waited %s",
				 (double)(s->start - origin) / 1e9, (double)s->duration / 1e6,
				 s->doorbells, s->doorbells == 1 ? "" : "s",
				 sc->wire && s->stage == SC_STAGE_KERNEL
				     ? "in the kernel before the host's thread copied it"
				     : sc_stage_text(s->stage));
		thread_words(sc, s->role, who, sizeof(who));
		if (s->attributed) {
			dgr_pr_text_line(p, "    %s (tid %d): %s%s%s; cause: %s", who, s->tid,
					 states, list[0] ? "; " : "", list,
					 sc_cause_label(s->cause));
		} else {
			dgr_pr_text_line(p, "    %s: cause: %s", who, sc_cause_label(s->cause));
		}
		return;
	}
	dgr_pr_obj_begin(p, NULL, NULL);
	dgr_pr_u64(p, "start_ns", NULL, s->start);
	dgr_pr_ns(p, "offset_ns", NULL, s->start - origin);
	if (sc->csv_origin_known) {
		/* the doorbell's time_s in the CSV (host_doorbells.csv): where dgrdma-plot marks it
		 */
		dgr_pr_dbl(p, "doorbell_time_s", NULL,
			   s->sent >= sc->csv_origin_ns
			       ? (double)(s->sent - sc->csv_origin_ns) / 1e9
			       : -(double)(sc->csv_origin_ns - s->sent) / 1e9,
			   9);
	}
	dgr_pr_ns(p, "duration_ns", NULL, s->duration);
	dgr_pr_u64(p, "doorbells", NULL, s->doorbells);
	dgr_pr_str(p, "stage", NULL, sc_stage_label(s->stage));
	dgr_pr_ns(p, "stage_ns", NULL, win);
	dgr_pr_str(p, "thread", NULL, ha_role_name(s->role));
	if (s->thread_known) {
		dgr_pr_i64(p, "tid", NULL, s->tid);
		if (sc->wire && sc->k) {
			/* the host's thread found from the capture: its name in the kernel trace */
			dgr_pr_str(p, "comm", NULL,
				   ks_comm_of(sc->k, ks_global_pid(sc->k, s->tid)));
		}
	}
	dgr_pr_str(p, "cause", NULL, sc_cause_label(s->cause));
	if (s->attributed) {
		dgr_pr_obj_begin(p, "shares", NULL);
		for (i = 0; i < KS_ST_COUNT; i++) {
			dgr_pr_dbl(p, ks_state_label((enum ks_state)i), NULL,
				   win ? (double)s->w.ns[i] / (double)win : 0, 3);
		}
		dgr_pr_obj_end(p);
		if (s->w.ns[KS_ST_BLOCKED]) {
			dgr_pr_str(p, "blocked_on", NULL, ks_blocked_label(s->w.blocked_state));
		}
		dgr_pr_u64(p, "migrations", NULL, s->w.migrations);
		dgr_pr_i64(p, "cpu", NULL, s->w.cpu);
		dgr_pr_i64(p, "prio", NULL, s->w.prio);
		print_culprits(p, sc->k, s->w.c, s->w.n_c, win);
		if (s->runs) {
			print_runs(p, sc, s);
		}
	}
	dgr_pr_obj_end(p);
}

/* See stall_cause.h. */
const char *sc_series_words(const struct stall_cause *sc)
{
	if (sc->wire) {
		return "on the wire";
	}
	return sc->from_arrival ? "from the frame's kernel arrival" : "from txn_complete";
}

void sc_print(struct dgr_pr *p, const struct stall_cause *sc)
{
	uint64_t origin = sc->first_arrival;
	unsigned int i;

	dgr_pr_obj_begin(p, "stall_causes", "Why the stalls happened");
	if (sc->wire) {
		dgr_pr_str(p, "series", "doorbell latency from",
			   "the data frame's arrival to its doorbell frame, on the wire (capture)");
		wt_print(p, sc->wire, sc->k);
	} else {
		dgr_pr_str(p, "series", "doorbell latency from",
			   sc->from_arrival ? "the frame's kernel arrival" : "txn_complete");
	}
	dgr_pr_ns(p, "p50_ns", "p50", sc->p50_ns);
	if (sc->p50_from_histogram) {
		/* above the exact limit, as the latency series say it (absent: exact) */
		dgr_pr_str(p, "percentiles", "p50 from", "log-linear histogram");
		dgr_pr_dbl(p, "percentile_relative_error", "relative error at most", LLH_REL_ERROR,
			   6);
		dgr_pr_u64(p, "exact_limit", "exact up to (doorbells)", stats_exact_limit());
	}
	dgr_pr_ns(p, "threshold_ns", "stall threshold (min(10 x p50, T/2))", sc->threshold_ns);
	dgr_pr_u64(p, "count", "stalls", sc->stalls_total);
	dgr_pr_ns(p, "stall_time_ns", "stall time", sc->stall_ns_total);
	/* the causes below are those of the stalls kept (the text says so when some were not) */
	if (dgr_pr_is_json(p) || some_not_kept(sc)) {
		dgr_pr_u64(p, "kept", "the worst, kept (the causes below are theirs)",
			   sc->n_stalls);
		dgr_pr_ns(p, "kept_stall_time_ns", "their stall time", sc->stall_ns_kept);
	}
	dgr_pr_str(p, "kernel_trace", "kernel trace", sc->k ? sc->kernel_path : "none");
	if (sc->k) {
		dgr_pr_u64(p, "kernel_events", "kernel events", sc->k->n);
	}
	dgr_pr_arr_begin(p, "causes", "causes, by stall time:");
	for (i = 0; i < sc->n_causes; i++) {
		const struct sc_cause_sum *g = &sc->causes[i];

		if (!dgr_pr_is_json(p)) {
			dgr_pr_text_line(p, "- %s", g->text);
			continue;
		}
		dgr_pr_obj_begin(p, NULL, NULL);
		dgr_pr_str(p, "cause", NULL, sc_cause_label(g->cause));
		dgr_pr_str(p, "thread", NULL, ha_role_name(g->role));
		dgr_pr_u64(p, "stalls", NULL, g->stalls);
		dgr_pr_ns(p, "stall_time_ns", NULL, g->stall_ns);
		dgr_pr_dbl(p, "stall_time_share", NULL,
			   sc->stall_ns_kept ? (double)g->stall_ns / (double)sc->stall_ns_kept : 0,
			   3);
		dgr_pr_str(p, "text", NULL, g->text);
		print_culprits(p, sc->k, g->c, g->n_c, g->window_ns);
		dgr_pr_obj_end(p);
	}
	if (!sc->n_causes && !dgr_pr_is_json(p)) {
		dgr_pr_text_line(p, "- none: no doorbell stalled");
	}
	dgr_pr_arr_end(p);
	dgr_pr_arr_begin(p, "stalls", "stalls, worst first:");
	for (i = 0; i < sc->n_stalls; i++) {
		if (!dgr_pr_is_json(p) && i == SC_TEXT_STALLS) {
			char not_kept[48] = "";

			if (some_not_kept(sc)) {
				snprintf(not_kept, sizeof(not_kept),
					 ", and %" PRIu64 " smaller not kept",
					 sc->stalls_total - sc->n_stalls);
			}
			dgr_pr_text_line(p, "- ... %u more (--json lists them)%s",
					 sc->n_stalls - SC_TEXT_STALLS, not_kept);
			break;
		}
		print_stall(p, sc, &sc->stalls[i], origin);
	}
	dgr_pr_arr_end(p);
	dgr_pr_obj_end(p);
}
