/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Thread scheduling knobs: real-time policy and priority, nice, CPU
 * affinity. Refusals are errors that name the OS error and the fix.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <dgrdma/host.h>

static const char *policy_name(int p)
{
	return p == SCHED_FIFO ? "SCHED_FIFO" : p == SCHED_RR ? "SCHED_RR" : "SCHED_OTHER";
}

/* Returns 0, or -DGR_E_PERM/-DGR_E_SYS with the OS error and the fix in errbuf. */
int dgr_sched_apply_self(const struct dgr_sched *sc, const char *who, char *errbuf)
{
	int err;

	if (sc->cpuset) {
		cpu_set_t set;

		CPU_ZERO(&set);
		for (int c = 0; c < 64; c++) {
			if (sc->cpuset & (1ull << c)) {
				CPU_SET(c, &set);
			}
		}
		err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
		if (err) {
			snprintf(errbuf, DGR_ERRBUF_SIZE,
				 "%s thread: CPU affinity 0x%llx refused: %s (check the CPUs exist "
				 "and are allowed: `taskset -p $$`, cgroup cpuset)",
				 who, (unsigned long long)sc->cpuset, strerror(err));
			return -DGR_E_SYS;
		}
	}
	if (sc->policy == SCHED_FIFO || sc->policy == SCHED_RR) {
		struct sched_param sp = { .sched_priority = sc->priority };

		err = pthread_setschedparam(pthread_self(), sc->policy, &sp);
		if (err) {
			snprintf(
			    errbuf, DGR_ERRBUF_SIZE,
			    "%s thread: %s priority %d refused: %s (needs CAP_SYS_NICE or an "
			    "RLIMIT_RTPRIO of %d: run as root, `setcap cap_sys_nice+ep PROGRAM`, "
			    "or `ulimit -r %d`; in a container also check "
			    "kernel.sched_rt_runtime_us)",
			    who, policy_name(sc->policy), sc->priority, strerror(err), sc->priority,
			    sc->priority);
			return err == EPERM ? -DGR_E_PERM : -DGR_E_SYS;
		}
	}
	if (sc->set_nice) {
		pid_t tid = (pid_t)syscall(SYS_gettid);

		if (setpriority(PRIO_PROCESS, (id_t)tid, sc->nice) != 0) {
			err = errno;
			snprintf(
			    errbuf, DGR_ERRBUF_SIZE,
			    "%s thread: nice %d refused: %s (a negative nice needs CAP_SYS_NICE "
			    "or RLIMIT_NICE: run as root, `setcap cap_sys_nice+ep PROGRAM`, or "
			    "raise `ulimit -e`)",
			    who, sc->nice, strerror(err));
			return err == EPERM || err == EACCES ? -DGR_E_PERM : -DGR_E_SYS;
		}
	}
	return 0;
}

/* Fills si with the calling thread's tid, policy, priority, nice and CPU mask. */
void dgr_sched_read_self(struct dgr_sched_info *si)
{
	struct sched_param sp;
	cpu_set_t set;
	int policy = SCHED_OTHER;

	memset(si, 0, sizeof(*si));
	si->started = true;
	si->tid = (int)syscall(SYS_gettid);
	if (pthread_getschedparam(pthread_self(), &policy, &sp) == 0) {
		si->policy = policy;
		si->priority = sp.sched_priority;
	}
	errno = 0;
	si->nice = getpriority(PRIO_PROCESS, (id_t)si->tid);
	if (pthread_getaffinity_np(pthread_self(), sizeof(set), &set) == 0) {
		for (int c = 0; c < 64; c++) {
			if (CPU_ISSET(c, &set)) {
				si->cpuset |= 1ull << c;
			}
		}
	}
}
