/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The scheduling options of the tools (--sched, --cpu and their per-thread
 * forms): text into the library's struct dgr_sched and CPU masks
 * (dgrdma/host.h applies them).
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dgrdma/host.h>

#include "cli.h"

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
