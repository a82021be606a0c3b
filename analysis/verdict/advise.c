// SPDX-License-Identifier: GPL-2.0-or-later
/* --advise through libdgrtune (see advise.h). */
#include <string.h>

#include "tune.h"
#include "advise.h"

static enum dgr_tune_regime to_tune_regime(enum regime r)
{
	switch (r) {
	case REGIME_HEALTHY:
		return DGR_REGIME_HEALTHY;
	case REGIME_JITTER:
		return DGR_REGIME_JITTER;
	case REGIME_THROUGHPUT:
		return DGR_REGIME_THROUGHPUT;
	default:
		return DGR_REGIME_ANY;
	}
}

/* The tune item of that id in rep, NULL when the check has none. */
static const struct dgr_tune_item *tune_item(const struct dgr_tune_report *rep, const char *id)
{
	size_t i;

	for (i = 0; i < rep->n; i++) {
		if (!strcmp(rep->items[i].id, id)) {
			return &rep->items[i];
		}
	}
	return NULL;
}

/* The CPUs 0..max but cpu, as a taskset list ("0,2-3") and a hex mask. */
static void other_cpus(unsigned int max, int cpu, char *list, size_t lsize, char *mask,
		       size_t msize)
{
	size_t len = 0;
	unsigned int c = 0;
	unsigned long long m = 0;

	list[0] = '\0';
	while (c <= max && len < lsize) {
		unsigned int end;

		if ((int)c == cpu) {
			c++;
			continue;
		}
		end = c;
		while (end + 1 <= max && (int)(end + 1) != cpu) {
			end++;
		}
		len += (size_t)snprintf(list + len, lsize - len, end > c ? "%s%u-%u" : "%s%u",
					len ? "," : "", c, end);
		c = end + 1;
	}
	for (c = 0; c <= max && c < 64; c++) {
		if ((int)c != cpu) {
			m |= 1ull << c;
		}
	}
	snprintf(mask, msize, "%llx", m);
	if (!list[0]) {
		snprintf(list, lsize, "(another CPU: this trace saw one)");
	}
}

struct cause_item {
	const char *id; /* the dgrdma-tune item it agrees with, or a name of its own */
	char action[384];
	char command[256];
};

/* One item of a cause's cure, printed; returns 1. */
static int print_cause_item(struct dgr_pr *p, unsigned int rank, const struct sc_cause_sum *g,
			    const struct cause_item *ci, const struct dgr_tune_report *rep)
{
	const struct dgr_tune_item *it = tune_item(rep, ci->id);

	if (dgr_pr_is_json(p)) {
		dgr_pr_obj_begin(p, NULL, NULL);
		dgr_pr_u64(p, "cause_rank", NULL, rank);
		dgr_pr_str(p, "addresses", NULL, sc_cause_label(g->cause));
		dgr_pr_str(p, "finding", NULL, g->text);
		dgr_pr_str(p, "id", NULL, ci->id);
		dgr_pr_str(p, "action", NULL, ci->action);
		dgr_pr_str(p, "fix", NULL, ci->command);
		if (it) {
			dgr_pr_str(p, "current", NULL, it->current);
			dgr_pr_str(p, "tune_status", NULL,
				   it->status == DGR_TUNE_OK ? "ok" : "change");
		}
		dgr_pr_obj_end(p);
	} else {
		dgr_pr_text_line(p, "- [cause %u: %s] %s: %s%s%s%s", rank, sc_cause_label(g->cause),
				 ci->id, ci->action, it ? " (now: " : "", it ? it->current : "",
				 it ? ")" : "");
		if (ci->command[0]) {
			dgr_pr_text_line(p, "    fix: %s", ci->command);
		}
	}
	return 1;
}

static bool kworker_culprit(const struct stall_cause *sc, const struct ks_culprit *c)
{
	return !strncmp(ks_name(sc->k, c->name), "kworker", 7);
}

/* The fix of a tune item when it needs one, else what to do with it as it is. */
static void tune_fix(const struct dgr_tune_report *rep, const char *id, const char *otherwise,
		     char *out, size_t size)
{
	const struct dgr_tune_item *it = tune_item(rep, id);

	snprintf(out, size, "%s",
		 it && it->status != DGR_TUNE_OK && it->fix[0] ? it->fix : otherwise);
}

/*
 * The cures of one cause (docs/analysis.md, "Advice from causes"), each
 * printed. Returns how many.
 */
static int cause_cures(struct dgr_pr *p, unsigned int rank, const struct sc_cause_sum *g,
		       const struct stall_cause *sc, const struct advise_opts *o,
		       const struct dgr_tune_report *rep, bool *shown_shield, bool *shown_dirty)
{
	const struct ks_culprit *c = g->n_c ? &g->c[0] : NULL;
	int cpu = c ? (int)c->cpu : -1, n = 0, fair_server;
	bool recorded_kernel;
	unsigned int max = sc->k ? sc->k->max_cpu : 0;
	char list[96], mask[24], name[160] = "";
	struct cause_item ci;

	other_cpus(max, cpu, list, sizeof(list), mask, sizeof(mask));
	if (c) {
		sc_culprit_name(sc->k, c, name, sizeof(name));
	}
	memset(&ci, 0, sizeof(ci));
	switch (g->cause) {
	case SC_CAUSE_STOPPED:
		ci.id = "none";
		snprintf(ci.action, sizeof(ci.action),
			 "nothing in the kernel to blame: the %s thread was stopped (SIGSTOP, "
			 "Ctrl-Z, a debugger, a cgroup freezer); no kernel setting changes that, "
			 "find who stopped it",
			 ha_role_name(g->role));
		return print_cause_item(p, rank, g, &ci, rep);
	case SC_CAUSE_WRITEBACK:
	case SC_CAUSE_OTHER_TASK:
		if (!*shown_shield) {
			ci.id = "cpuset.shield";
			snprintf(ci.action, sizeof(ci.action),
				 "keep CPU %d for the stream's threads: a cpuset shield (or "
				 "isolcpus=) so that %s cannot run there",
				 cpu, name[0] ? name : "other tasks");
			tune_fix(
			    rep, "cpuset.shield",
			    "cset shield --cpu N-M --kthread on; cset shield --exec -- dgrdma-host "
			    "... --cpu N-M",
			    ci.command, sizeof(ci.command));
			n += print_cause_item(p, rank, g, &ci, rep);
			*shown_shield = true;
		}
		if (g->cause == SC_CAUSE_WRITEBACK && !*shown_dirty) {
			ci.id = "vm.dirty_background_bytes";
			snprintf(
			    ci.action, sizeof(ci.action),
			    "smaller, more frequent writeback bursts (guide \"Increasing Write "
			    "Frequency\")");
			tune_fix(rep, "vm.dirty_background_bytes",
				 "sysctl -w vm.dirty_background_bytes=192000", ci.command,
				 sizeof(ci.command));
			n += print_cause_item(p, rank, g, &ci, rep);
			*shown_dirty = true;
		}
		if (c && c->kind == KS_CULPRIT_TASK) {
			bool kworker = kworker_culprit(sc, c);

			ci.id = g->cause == SC_CAUSE_WRITEBACK ? "move.disk_writer" : "move.task";
			if (!kworker) {
				snprintf(ci.action, sizeof(ci.action),
					 "move %s (pid %d) off CPU %d", name, c->tid, cpu);
				snprintf(ci.command, sizeof(ci.command), "taskset -apc %s %d", list,
					 c->tid);
			} else {
				snprintf(ci.action, sizeof(ci.action),
					 "move the process that writes to disk off CPU %d: %s does "
					 "the writeback of pages dirtied there",
					 cpu, name);
				snprintf(ci.command, sizeof(ci.command),
					 "taskset -apc %s WRITER_PID", list);
			}
			n += print_cause_item(p, rank, g, &ci, rep);
		}
		return n;
	case SC_CAUSE_HIGHER_PRIO: {
		int rt = c && c->prio >= 0 && c->prio < 100 ? 99 - c->prio : 0;

		ci.id = "rt.priority";
		snprintf(ci.action, sizeof(ci.action),
			 "run the stream's threads above %s (kernel priority %d%s): a real-time "
			 "policy and priority",
			 name[0] ? name : "the task that held the CPU", c ? c->prio : -1,
			 rt ? ", SCHED_FIFO/RR" : "");
		snprintf(ci.command, sizeof(ci.command),
			 "dgrdma-host ... --sched fifo:%d (or chrt --fifo -p %d TID)",
			 rt < 99 ? rt + 1 : 99, rt < 99 ? rt + 1 : 99);
		n += print_cause_item(p, rank, g, &ci, rep);
		if (c && c->kind == KS_CULPRIT_TASK) {
			ci.id = "move.task";
			snprintf(ci.action, sizeof(ci.action),
				 "or lower %s (pid %d) or move it off CPU %d", name, c->tid, cpu);
			snprintf(ci.command, sizeof(ci.command),
				 "chrt --other -p 0 %d; taskset -apc %s %d", c->tid, list, c->tid);
			n += print_cause_item(p, rank, g, &ci, rep);
		}
		return n;
	}
	case SC_CAUSE_RT_THROTTLED:
		if (c && c->kind == KS_CULPRIT_TASK && !kworker_culprit(sc, c)) {
			ci.id = "move.task";
			snprintf(
			    ci.action, sizeof(ci.action),
			    "move %s (pid %d) off CPU %d: the %s thread takes that CPU whole at "
			    "real-time priority, and the kernel throttles it to let %s run",
			    name, c->tid, cpu, ha_role_name(g->role), name);
			snprintf(ci.command, sizeof(ci.command), "taskset -apc %s %d", list,
				 c->tid);
			n += print_cause_item(p, rank, g, &ci, rep);
		}
		/* the recorded machine's kernel when run.json names it, else the checked root's */
		recorded_kernel = o->kernel_release && o->kernel_release[0];
		fair_server = recorded_kernel ? dgr_tune_fair_server_release(o->kernel_release)
					      : dgr_tune_fair_server_kernel(o->root);
		ci.id = "busy.rt";
		snprintf(ci.action, sizeof(ci.action),
			 "or let the %s thread sleep between frames: a real-time thread that spins "
			 "(--busy-poll, --busy-wait) leaves the CPU only when it is throttled",
			 ha_role_name(g->role));
		snprintf(
		    ci.command, sizeof(ci.command),
		    "dgrdma-host ... without --busy-poll/--busy-wait, or the spinning thread at "
		    "normal priority");
		n += print_cause_item(p, rank, g, &ci, rep);
		if (fair_server == 1) {
			ci.id = "sched.fair_server";
			snprintf(
			    ci.action, sizeof(ci.action),
			    "or turn off CPU %d's fair server, which runs normal tasks 50 ms of "
			    "each second there (Linux 6.12 on, %s %.60s; "
			    "kernel.sched_rt_runtime_us=-1 "
			    "no longer lifts it): its normal tasks and kernel threads then wait "
			    "for as long as the thread spins",
			    cpu, recorded_kernel ? "the run's" : "this",
			    recorded_kernel ? o->kernel_release : "kernel");
			snprintf(ci.command, sizeof(ci.command),
				 "echo 0 > /sys/kernel/debug/sched/fair_server/cpu%d/runtime "
				 "(debugfs; refused in lockdown)",
				 cpu);
		} else {
			ci.id = "kernel.sched_rt_runtime_us";
			snprintf(
			    ci.action, sizeof(ci.action),
			    "or lift the kernel's limit (dgrdma-tune needs no change there in "
			    "general, as the guide saw no effect; here it held the thread): "
			    "normal tasks and kernel threads of that CPU then wait for as long "
			    "as the thread spins%s",
			    fair_server < 0 ? " (on Linux 6.12 and later: CPU N's fair server, "
					      "/sys/kernel/debug/sched/fair_server/cpuN/runtime 0)"
					    : "");
			snprintf(ci.command, sizeof(ci.command),
				 "sysctl -w kernel.sched_rt_runtime_us=-1");
		}
		n += print_cause_item(p, rank, g, &ci, rep);
		return n;
	case SC_CAUSE_IRQ:
	case SC_CAUSE_SOFTIRQ:
		ci.id = "irq.affinity";
		if (c && c->kind == KS_CULPRIT_IRQ) {
			snprintf(ci.action, sizeof(ci.action), "steer IRQ %d (%s) away from CPU %d",
				 c->pid, ks_name(sc->k, c->name), cpu);
			snprintf(ci.command, sizeof(ci.command),
				 "echo %s > /proc/irq/%d/smp_affinity", mask, c->pid);
		} else {
			snprintf(ci.action, sizeof(ci.action),
				 "steer the interrupts whose %s work lands on CPU %d elsewhere "
				 "(see /proc/interrupts for the NIC's queues)",
				 name[0] ? name : "softirq", cpu);
			snprintf(ci.command, sizeof(ci.command),
				 "echo %s > /proc/irq/IRQ/smp_affinity", mask);
		}
		n += print_cause_item(p, rank, g, &ci, rep);
		ci.id = "net.rps";
		snprintf(ci.action, sizeof(ci.action),
			 "spread the receive processing (RPS) over CPUs other than %d", cpu);
		snprintf(ci.command, sizeof(ci.command),
			 "echo %s > /sys/class/net/%s/queues/rx-0/rps_cpus", mask,
			 o->iface ? o->iface : "IFACE");
		n += print_cause_item(p, rank, g, &ci, rep);
		return n;
	case SC_CAUSE_WAKEUP:
		ci.id = "busy-wait";
		snprintf(ci.action, sizeof(ci.action),
			 "the %s thread waited on an idle CPU for its wake-up: let it spin "
			 "instead of sleeping",
			 ha_role_name(g->role));
		snprintf(ci.command, sizeof(ci.command),
			 "dgrdma-host ... --busy-wait (or --busy-poll USEC)");
		return print_cause_item(p, rank, g, &ci, rep);
	case SC_CAUSE_BLOCKED:
		ci.id = "none";
		snprintf(ci.action, sizeof(ci.action),
			 "the %s thread slept (%s): no scheduler setting fixes that; look at what "
			 "it waits for (the sink's I/O, a lock)",
			 ha_role_name(g->role), ks_blocked_label(g->blocked_state));
		return print_cause_item(p, rank, g, &ci, rep);
	case SC_CAUSE_RUNNING:
		ci.id = "host.buffers";
		snprintf(ci.action, sizeof(ci.action),
			 "the %s thread's own work took the time: a faster consumer, or more "
			 "buffers to absorb it",
			 ha_role_name(g->role));
		snprintf(ci.command, sizeof(ci.command), "dgrdma-host ... --buffers 255");
		return print_cause_item(p, rank, g, &ci, rep);
	default:
		return 0;
	}
}

int advise_print(struct dgr_pr *p, enum regime r, const struct advise_opts *o,
		 const struct stall_cause *sc, char *errbuf)
{
	struct dgr_tune_opts to = { .root = o->root, .iface = o->iface, .output_path = NULL };
	struct dgr_tune_report rep;
	enum dgr_tune_regime tr = to_tune_regime(r);
	bool shown_shield = false, shown_dirty = false, healthy;
	size_t i;
	int n = 0, not_needed = 0, rc;

	memset(&rep, 0, sizeof(rep));
	rc = dgr_tune_check(&to, &rep, errbuf);
	if (rc < 0) {
		dgr_tune_report_free(&rep);
		return rc;
	}
	dgr_pr_obj_begin(p, "advice",
			 "Host settings to change for this regime (dgrdma-tune check)");
	dgr_pr_str(p, "root", NULL, o->root);
	dgr_pr_str(p, "regime", NULL, dgr_tune_regime_name(tr));
	dgr_pr_arr_begin(p, "by_cause", "for the causes of the stalls, the largest first:");
	for (i = 0; sc && i < sc->n_causes; i++) {
		n += cause_cures(p, (unsigned int)i + 1, &sc->causes[i], sc, o, &rep, &shown_shield,
				 &shown_dirty);
	}
	/* the text: why the heading has nothing under it (the JSON's array is empty) */
	if (n == 0) {
		dgr_pr_text_line(p, "- none: %s",
				 !sc		 ? "no trace to find the stalls' causes in"
				 : !sc->n_causes ? "no doorbell stalled"
				 : !sc->k	 ? "without a kernel trace no cause is attributed "
						   "(latency-report --kernel-trace DIR)"
						 : "no cause a host setting addresses");
	}
	dgr_pr_arr_end(p);
	/*
	 * A healthy run needs no setting changed: listing the guide's settings as
	 * "to change" would contradict the verdict. They are counted, not listed.
	 */
	healthy = r == REGIME_HEALTHY && n == 0;
	dgr_pr_arr_begin(p, "items", healthy ? NULL : "for the regime:");
	for (i = 0; i < rep.n; i++) {
		const struct dgr_tune_item *it = &rep.items[i];

		if (it->status != DGR_TUNE_FIX || !dgr_tune_item_relevant(it, tr)) {
			continue;
		}
		if (healthy) {
			not_needed++;
			continue;
		}
		/* said once, under the cause it addresses */
		if ((shown_shield && !strcmp(it->id, "cpuset.shield")) ||
		    (shown_dirty && !strcmp(it->id, "vm.dirty_background_bytes"))) {
			continue;
		}
		n++;
		if (dgr_pr_is_json(p)) {
			dgr_pr_obj_begin(p, NULL, NULL);
			dgr_pr_str(p, "id", NULL, it->id);
			dgr_pr_str(p, "subject", NULL, it->subject);
			dgr_pr_str(p, "current", NULL, it->current);
			dgr_pr_str(p, "recommended", NULL, it->recommended);
			dgr_pr_str(p, "why", NULL, it->why);
			dgr_pr_str(p, "fix", NULL, it->fix);
			dgr_pr_str(p, "addresses", NULL, "regime");
			dgr_pr_obj_end(p);
		} else {
			dgr_pr_text_line(p, "- %s%s%s: %s, recommended %s", it->id,
					 it->subject[0] ? " " : "", it->subject, it->current,
					 it->recommended);
			if (it->fix[0]) {
				dgr_pr_text_line(p, "    fix: %s", it->fix);
			}
		}
	}
	dgr_pr_arr_end(p);
	dgr_pr_u64(p, "count", "settings to change", (uint64_t)n);
	if (healthy) {
		dgr_pr_u64(p, "not_needed",
			   "settings that differ from the guide's, not needed here",
			   (uint64_t)not_needed);
		dgr_pr_text_line(
		    p,
		    "  the verdict is healthy and nothing stalled: no host setting needs "
		    "to change for this run (dgrdma-tune check lists the %d that differ "
		    "from the tuning guide's, for more headroom)",
		    not_needed);
	}
	dgr_pr_obj_end(p);
	dgr_tune_report_free(&rep);
	return n;
}
