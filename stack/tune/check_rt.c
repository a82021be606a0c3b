// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Real-time scheduling: can the stream run as SCHED_FIFO 99 (the guide's
 * `chrt --fifo 99`)? That needs RLIMIT_RTPRIO >= 99 or CAP_SYS_NICE, read from
 * /proc/self/limits and /proc/self/status. kernel.sched_rt_runtime_us is
 * reported for context (the guide found no effect from changing it).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune_priv.h"

#define CAP_SYS_NICE_BIT 23

/* Parses "Max realtime priority  SOFT  HARD" (numbers or "unlimited", = -1). */
static bool rtprio_limits(const char *limits, long *soft, long *hard)
{
	const char *p = strstr(limits, "Max realtime priority");
	char s[32], h[32];

	if (!p || sscanf(p + strlen("Max realtime priority"), "%31s %31s", s, h) != 2) {
		return false;
	}
	*soft = strcmp(s, "unlimited") == 0 ? -1 : strtol(s, NULL, 10);
	*hard = strcmp(h, "unlimited") == 0 ? -1 : strtol(h, NULL, 10);
	return true;
}

static bool cap_eff(const char *status, uint64_t *caps)
{
	const char *p = strstr(status, "CapEff:");

	if (!p) {
		return false;
	}
	*caps = strtoull(p + 7, NULL, 16);
	return true;
}

static void fmt_limit(char *buf, size_t size, long v)
{
	if (v < 0) {
		snprintf(buf, size, "unlimited");
	} else {
		snprintf(buf, size, "%ld", v);
	}
}

static int check_priority(const struct dgr_tune_opts *o, struct dgr_tune_report *r)
{
	struct dgr_tune_item *it;
	char text[4096], why[128], s[16], h[16];
	long soft, hard;
	uint64_t caps;
	bool cap;

	it = tune_add(r, "rt.priority", DGR_TUNE_R_JITTER);
	if (!it) {
		return -DGR_E_NOMEM;
	}
	tune_set(it->recommended, "RLIMIT_RTPRIO >= 99 or CAP_SYS_NICE");
	tune_set(it->why, "guide \"Increasing Realtime Priority\": chrt --fifo 99 helped together "
			  "with same_cpu_crypt on dm-crypt hosts");
	if (tune_read(o->root, "/proc/self/limits", text, sizeof(text), why, sizeof(why)) < 0) {
		tune_unknown(it, why);
		return 0;
	}
	if (!rtprio_limits(text, &soft, &hard)) {
		tune_unknown(it, "no \"Max realtime priority\" in /proc/self/limits");
		return 0;
	}
	if (tune_read(o->root, "/proc/self/status", text, sizeof(text), why, sizeof(why)) < 0 ||
	    !cap_eff(text, &caps)) {
		tune_unknown(it, "no CapEff in /proc/self/status");
		return 0;
	}
	cap = (caps >> CAP_SYS_NICE_BIT) & 1u;
	fmt_limit(s, sizeof(s), soft);
	fmt_limit(h, sizeof(h), hard);
	tune_set(it->current, "RLIMIT_RTPRIO soft %s hard %s, CAP_SYS_NICE %s", s, h,
		 cap ? "yes" : "no");
	if (cap || soft < 0 || soft >= 99) {
		it->status = DGR_TUNE_OK;
		return 0;
	}
	it->status = DGR_TUNE_FIX;
	it->fix_runtime = true;
	if (hard < 0 || hard >= 99) {
		tune_set(it->fix, "ulimit -r 99 in the shell that starts the stream");
	} else {
		tune_set(it->fix, "\"@GROUP - rtprio 99\" in /etc/security/limits.conf, or setcap "
				  "cap_sys_nice+ep on the stream binary");
	}
	return 0;
}

int dgr_tune_fair_server_release(const char *release)
{
	int major, minor;

	if (!release || sscanf(release, "%d.%d", &major, &minor) != 2) {
		return -1;
	}
	return major > 6 || (major == 6 && minor >= 12);
}

int dgr_tune_fair_server_kernel(const char *root)
{
	char release[128], why[64];

	if (tune_read(root, "/proc/sys/kernel/osrelease", release, sizeof(release), why,
		      sizeof(why)) < 0) {
		return -1;
	}
	return dgr_tune_fair_server_release(release);
}

static int check_rt_runtime(const struct dgr_tune_opts *o, struct dgr_tune_report *r)
{
	struct dgr_tune_item *it;
	char why[128];
	int64_t v;

	it = tune_add(r, "kernel.sched_rt_runtime_us", DGR_TUNE_R_JITTER);
	if (!it) {
		return -DGR_E_NOMEM;
	}
	tune_set(it->recommended, "950000 (default) or -1; no change needed");
	tune_set(it->why, "guide \"Increasing Realtime Priority\": changing the RT throttling "
			  "sysctls showed no significant effect");
	if (tune_read_i64(o->root, "/proc/sys/kernel/sched_rt_runtime_us", &v, why, sizeof(why)) <
	    0) {
		tune_unknown(it, why);
		return 0;
	}
	if (dgr_tune_fair_server_kernel(o->root) == 1) {
		/* Linux 6.12 on: each CPU's fair server throttles, this bounds admission only */
		tune_set(it->current,
			 "%" PRId64 " (bounds real-time admission; the throttling is each CPU's "
			 "fair server since Linux 6.12)",
			 v);
	} else if (v < 0) {
		tune_set(it->current, "%" PRId64 " (RT tasks never throttled)", v);
	} else {
		tune_set(it->current, "%" PRId64 " (RT tasks throttled to this per period)", v);
	}
	it->status = DGR_TUNE_INFO;
	return 0;
}

/* Returns 0 or -DGR_E_NOMEM. */
int tune_check_rt(const struct dgr_tune_opts *o, struct dgr_tune_report *r)
{
	int rc = check_priority(o, r);

	return rc < 0 ? rc : check_rt_runtime(o, r);
}
