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

#include <dgrdma/cli.h>
#include <dgrdma/host.h>

/* Returns 0 or -DGR_E_INVAL naming opt and the accepted forms. */
int dgr_parse_sched(const char *opt, const char *s, struct dgr_sched *sc, char *errbuf)
{
	int64_t v;
	char o[64];

	if (!s) {
		s = "";
	}
	if (strcmp(s, "other") == 0) {
		sc->policy = SCHED_OTHER;
		sc->priority = 0;
		sc->set_nice = false;
		return 0;
	}
	if (strncmp(s, "fifo:", 5) == 0 || strncmp(s, "rr:", 3) == 0) {
		bool fifo = s[0] == 'f';

		snprintf(o, sizeof(o), "%s %s", opt, fifo ? "fifo" : "rr");
		if (dgr_parse_i64(o, s + (fifo ? 5 : 3), 1, 99, &v, errbuf) < 0) {
			return -DGR_E_INVAL;
		}
		sc->policy = fifo ? SCHED_FIFO : SCHED_RR;
		sc->priority = (int)v;
		return 0;
	}
	if (strncmp(s, "nice:", 5) == 0) {
		snprintf(o, sizeof(o), "%s nice", opt);
		if (dgr_parse_i64(o, s + 5, -20, 19, &v, errbuf) < 0) {
			return -DGR_E_INVAL;
		}
		sc->policy = SCHED_OTHER;
		sc->priority = 0;
		sc->nice = (int)v;
		sc->set_nice = true;
		return 0;
	}
	snprintf(errbuf, DGR_ERRBUF_SIZE,
		 "%s: '%s' is not fifo:N or rr:N (N 1..99), nice:N (N -20..19) or other", opt, s);
	return -DGR_E_INVAL;
}

/* Returns 0 with *mask set, or -DGR_E_INVAL naming opt. */
int dgr_parse_cpulist(const char *opt, const char *s, uint64_t *mask, char *errbuf)
{
	uint64_t m = 0;
	const char *p = s;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	if (!s || !*s) {
		goto bad;
	}
	while (*p) {
		char *end;
		long a, b;

		a = strtol(p, &end, 10);
		if (end == p || a < 0 || a > 63) {
			goto bad;
		}
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			b = strtol(p, &end, 10);
			if (end == p || b < a || b > 63) {
				goto bad;
			}
			p = end;
		}
		for (long c = a; c <= b; c++) {
			if (ncpu > 0 && c >= ncpu) {
				snprintf(
				    errbuf, DGR_ERRBUF_SIZE,
				    "%s: CPU %ld does not exist (this machine has CPUs 0..%ld)",
				    opt, c, ncpu - 1);
				return -DGR_E_INVAL;
			}
			m |= 1ull << c;
		}
		if (*p == ',') {
			p++;
			if (!*p) {
				goto bad;
			}
		} else if (*p) {
			goto bad;
		}
	}
	*mask = m;
	return 0;
bad:
	snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: '%s' is not a CPU list like 0,2-3 (CPUs 0..63)", opt,
		 s ? s : "");
	return -DGR_E_INVAL;
}

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
