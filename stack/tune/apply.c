// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * apply: the guide's profiles as lists of actions. Runtime actions are
 * sysctl writes and ring sizes; everything else (kernel, cpusets, dm-crypt
 * flags, pause frames, the FPGA's coalesce_wait) is listed as a manual step
 * taken from the check report, never performed.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tune_priv.h"

#define MAX_SLAVES 16

struct profile_sysctl {
	const char *name;
	uint64_t value;
};

static const struct profile_sysctl rx_sysctls[] = {
	{ "net.core.rmem_default", TUNE_SOCKBUF_BYTES },
	{ "net.core.rmem_max", TUNE_SOCKBUF_BYTES },
	{ "vm.dirty_background_bytes", TUNE_DIRTY_BG_BYTES },
	{ NULL, 0 },
};

static const struct profile_sysctl tx_sysctls[] = {
	{ "net.core.wmem_default", TUNE_SOCKBUF_BYTES },
	{ "net.core.wmem_max", TUNE_SOCKBUF_BYTES },
	{ "vm.dirty_background_bytes", TUNE_DIRTY_BG_BYTES },
	{ NULL, 0 },
};

/* Check items whose FIX or UNKNOWN becomes a manual step, per the guide's table. */
static const char *const rx_manual[] = { "cpuset.shield", "kernel.preempt", "kernel.hz",
					 "dmcrypt.output", NULL };
static const char *const rx_dmcrypt_manual[] = { "rt.priority", "dmcrypt.same_cpu_crypt",
						 "dmcrypt.output", NULL };
static const char *const tx_manual[] = { "cpuset.shield", "kernel.preempt", "kernel.hz", NULL };

static struct dgr_tune_action *plan_add(struct dgr_tune_plan *plan, enum dgr_tune_action_kind k)
{
	struct dgr_tune_action *a;

	if (plan->n == plan->cap) {
		size_t cap = plan->cap ? plan->cap * 2 : 16;
		struct dgr_tune_action *p = realloc(plan->actions, cap * sizeof(*p));

		if (!p) {
			return NULL;
		}
		plan->actions = p;
		plan->cap = cap;
	}
	a = &plan->actions[plan->n++];
	memset(a, 0, sizeof(*a));
	a->kind = k;
	return a;
}

/* "net.core.rmem_max" -> "/proc/sys/net/core/rmem_max" */
static void sysctl_path(const char *name, char *buf, size_t size)
{
	size_t i, len;

	snprintf(buf, size, "/proc/sys/%s", name);
	len = strlen(buf);
	for (i = strlen("/proc/sys/"); i < len; i++) {
		if (buf[i] == '.') {
			buf[i] = '/';
		}
	}
}

static int add_sysctl(const struct dgr_tune_opts *o, struct dgr_tune_plan *plan,
		      const struct profile_sysctl *s)
{
	struct dgr_tune_action *a = plan_add(plan, DGR_ACTION_SYSCTL);
	char path[128], why[96];
	int64_t cur;
	bool dirty = strcmp(s->name, "vm.dirty_background_bytes") == 0;

	if (!a) {
		return -DGR_E_NOMEM;
	}
	tune_set(a->target, "%s", s->name);
	a->value = s->value;
	tune_set(a->command, "sysctl -w %s=%" PRIu64, s->name, s->value);
	sysctl_path(s->name, path, sizeof(path));
	if (tune_read_i64(o->root, path, &cur, why, sizeof(why)) < 0) {
		a->needed = true;
		tune_set(a->note, "current value unknown (%s)", why);
		return 0;
	}
	/* Buffers: at least the value. Writeback: active and at most the value. */
	a->needed = dirty ? (cur <= 0 || (uint64_t)cur > s->value) : cur < (int64_t)s->value;
	tune_set(a->note, "%s %s %" PRId64, s->name, a->needed ? "is" : "is already", cur);
	return 0;
}

static int add_ring(const struct dgr_tune_opts *o, struct dgr_tune_plan *plan, const char *ifname,
		    bool rx)
{
	struct dgr_tune_action *a = plan_add(plan, DGR_ACTION_RING);
	struct tune_rings r;
	char why[160];
	uint32_t cur, max;

	if (!a) {
		return -DGR_E_NOMEM;
	}
	tune_set(a->target, "%s", ifname);
	if (tune_eth_rings(o->root, ifname, &r, why, sizeof(why)) < 0) {
		a->needed = false;
		tune_set(a->command, "ethtool -G %s %s MAX", ifname, rx ? "rx" : "tx");
		tune_set(a->note, "%s has no ring parameters to set: %s", ifname, why);
		return 0;
	}
	cur = rx ? r.rx : r.tx;
	max = rx ? r.rx_max : r.tx_max;
	if (rx) {
		a->rx = max;
	} else {
		a->tx = max;
	}
	a->needed = cur < max;
	tune_set(a->command, "ethtool -G %s %s %" PRIu32, ifname, rx ? "rx" : "tx", max);
	tune_set(a->note, "%s %s ring %s %" PRIu32 " of %" PRIu32, ifname, rx ? "RX" : "TX",
		 a->needed ? "is" : "is already", cur, max);
	return 0;
}

static int add_pause(const struct dgr_tune_opts *o, struct dgr_tune_plan *plan, const char *ifname)
{
	struct dgr_tune_action *a = plan_add(plan, DGR_ACTION_PAUSE);
	struct tune_pause p;
	char why[160];

	if (!a) {
		return -DGR_E_NOMEM;
	}
	tune_set(a->target, "%s", ifname);
	tune_set(a->command, "ethtool -A %s autoneg off rx off tx off", ifname);
	if (tune_eth_pause(o->root, ifname, &p, why, sizeof(why)) < 0) {
		tune_set(a->note, "%s has no pause parameters to set: %s", ifname, why);
		return 0;
	}
	a->needed = p.autoneg || p.rx || p.tx;
	if (a->needed) {
		tune_set(a->note, "%s pause frames: autoneg %s, rx %s, tx %s", ifname,
			 p.autoneg ? "on" : "off", p.rx ? "on" : "off", p.tx ? "on" : "off");
	} else {
		tune_set(a->note, "%s pause frames are already off", ifname);
	}
	return 0;
}

static int add_manual(struct dgr_tune_plan *plan, const struct dgr_tune_report *rep,
		      const char *const *ids)
{
	struct dgr_tune_action *a;
	size_t i, j;

	for (j = 0; ids[j]; j++) {
		for (i = 0; i < rep->n; i++) {
			const struct dgr_tune_item *it = &rep->items[i];

			if (strcmp(it->id, ids[j]) != 0 ||
			    (it->status != DGR_TUNE_FIX && it->status != DGR_TUNE_UNKNOWN)) {
				continue;
			}
			a = plan_add(plan, DGR_ACTION_MANUAL);
			if (!a) {
				return -DGR_E_NOMEM;
			}
			a->needed = true;
			tune_set(a->target, "%s", it->subject[0] ? it->subject : it->id);
			if (it->status == DGR_TUNE_FIX) {
				tune_set(a->command, "%s", it->fix);
				tune_set(a->note, "%s: %s", it->id, it->current);
			} else {
				tune_set(a->command, "check %s by hand", it->id);
				tune_set(a->note, "%s: %s", it->id, it->current);
			}
		}
	}
	return 0;
}

/* Returns the number of actions, or -DGR_E_NOMEM / -DGR_E_INVAL. */
int dgr_tune_plan_build(const struct dgr_tune_opts *opts, enum dgr_tune_profile profile,
			unsigned int only, struct dgr_tune_plan *plan, char *errbuf)
{
	const struct profile_sysctl *s;
	const char *const *manual;
	struct dgr_tune_report rep = { 0 };
	char slaves[MAX_SLAVES][16];
	struct dgr_tune_action *a;
	int i, n, rc = 0;
	bool rx = profile != DGR_PROFILE_TX;

	if (!opts || !plan || (unsigned int)profile > DGR_PROFILE_TX) {
		if (errbuf) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "dgr_tune_plan_build: bad argument");
		}
		return -DGR_E_INVAL;
	}
	plan->profile = profile;
	if (only & DGR_TUNE_ONLY_SYSCTL) {
		for (s = rx ? rx_sysctls : tx_sysctls; s->name && rc == 0; s++) {
			rc = add_sysctl(opts, plan, s);
		}
	}
	if (rc == 0 && (only & (DGR_TUNE_ONLY_RINGS | DGR_TUNE_ONLY_PAUSE)) && !opts->iface) {
		a = plan_add(plan,
			     (only & DGR_TUNE_ONLY_RINGS) ? DGR_ACTION_RING : DGR_ACTION_PAUSE);
		if (!a) {
			return -DGR_E_NOMEM;
		}
		tune_set(a->target, "IFACE");
		tune_set(a->command, "ethtool -G IFACE %s MAX", rx ? "rx" : "tx");
		tune_set(a->note, "no --if IFACE given: NIC settings not planned");
	}
	if (rc == 0 && opts->iface) {
		n = tune_bond_slaves(opts->root, opts->iface, slaves, MAX_SLAVES);
		if (n == 0) {
			snprintf(slaves[0], sizeof(slaves[0]), "%.15s", opts->iface);
			n = 1;
		}
		for (i = 0; i < n && rc == 0 && (only & DGR_TUNE_ONLY_RINGS); i++) {
			rc = add_ring(opts, plan, slaves[i], rx);
		}
		for (i = 0; i < n && rc == 0 && (only & DGR_TUNE_ONLY_PAUSE); i++) {
			rc = add_pause(opts, plan, slaves[i]);
		}
	}
	if (rc == 0 && only == DGR_TUNE_ONLY_ALL) {
		rc = dgr_tune_check(opts, &rep, errbuf);
		if (rc >= 0) {
			manual = profile == DGR_PROFILE_RX	     ? rx_manual
				 : profile == DGR_PROFILE_RX_DMCRYPT ? rx_dmcrypt_manual
								     : tx_manual;
			rc = add_manual(plan, &rep, manual);
		}
		if (rc == 0 && profile == DGR_PROFILE_RX_DMCRYPT) {
			a = plan_add(plan, DGR_ACTION_MANUAL);
			if (!a) {
				rc = -DGR_E_NOMEM;
			} else {
				a->needed = true;
				tune_set(a->target, "stream");
				tune_set(a->command,
					 "start the stream with chrt --fifo 99 COMMAND");
				tune_set(a->note,
					 "guide \"Increasing Realtime Priority\": helped with "
					 "same_cpu_crypt on dm-crypt hosts");
			}
		}
		if (rc == 0 && profile == DGR_PROFILE_TX) {
			a = plan_add(plan, DGR_ACTION_MANUAL);
			if (!a) {
				rc = -DGR_E_NOMEM;
			} else {
				a->needed = true;
				tune_set(a->target, "fpga");
				tune_set(a->command,
					 "set coalesce_wait_d to 0 for dgrdma_config_dev "
					 "in system.xml");
				tune_set(a->note, "guide \"Reducing the Coalesce Wait Parameter\": "
						  "coalesced doorbells empty the FPGA buffers");
			}
		}
		dgr_tune_report_free(&rep);
	}
	if (rc < 0) {
		if (errbuf && rc == -DGR_E_NOMEM) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "out of memory");
		}
		return rc;
	}
	return (int)plan->n;
}

/* Frees the actions and zeroes the plan; safe on a zeroed plan. */
void dgr_tune_plan_free(struct dgr_tune_plan *plan)
{
	free(plan->actions);
	memset(plan, 0, sizeof(*plan));
}

/* Returns 0, -DGR_E_PERM, -DGR_E_SYS or -DGR_E_INVAL (manual action). */
int dgr_tune_action_apply(const struct dgr_tune_opts *opts, const struct dgr_tune_action *action,
			  char *errbuf)
{
	char path[128], text[32], eb[DGR_ERRBUF_SIZE];
	int rc;

	switch (action->kind) {
	case DGR_ACTION_SYSCTL:
		sysctl_path(action->target, path, sizeof(path));
		snprintf(text, sizeof(text), "%" PRIu64 "\n", action->value);
		rc = tune_write(opts->root, path, text, eb);
		break;
	case DGR_ACTION_RING:
		rc = tune_eth_set_rings(opts->root, action->target, action->rx, action->tx, eb);
		break;
	case DGR_ACTION_PAUSE:
		rc = tune_eth_pause_off(opts->root, action->target, eb);
		break;
	default:
		snprintf(eb, sizeof(eb), "a manual step is never applied");
		rc = -DGR_E_INVAL;
		break;
	}
	if (rc < 0 && errbuf) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s", eb);
	}
	return rc;
}

/* Returns the length written, or -DGR_E_NOSPACE. */
int dgr_tune_persist_text(const struct dgr_tune_plan *plan, char *buf, size_t size)
{
	size_t i, len = 0;
	int n;

	n = snprintf(buf, size,
		     "# Written by dgrdma-tune apply --profile %s --persist\n"
		     "# (OpenCPI Ethernet transport tuning guide). Load now: sysctl --system\n",
		     dgr_tune_profile_name(plan->profile));
	if (n < 0 || (size_t)n >= size) {
		return -DGR_E_NOSPACE;
	}
	len = (size_t)n;
	for (i = 0; i < plan->n; i++) {
		const struct dgr_tune_action *a = &plan->actions[i];

		if (a->kind != DGR_ACTION_SYSCTL) {
			continue;
		}
		n = snprintf(buf + len, size - len, "%s = %" PRIu64 "\n", a->target, a->value);
		if (n < 0 || (size_t)n >= size - len) {
			return -DGR_E_NOSPACE;
		}
		len += (size_t)n;
	}
	return (int)len;
}

static int mkdir_p(const char *root, const char *rel, char *errbuf)
{
	char full[4096], *p;

	if (tune_path(root, rel, full, sizeof(full)) < 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: path too long", rel);
		return -DGR_E_TOO_LONG;
	}
	for (p = full + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			if (mkdir(full, 0755) < 0 && errno != EEXIST) {
				goto fail;
			}
			*p = '/';
		}
	}
	if (mkdir(full, 0755) < 0 && errno != EEXIST) {
		goto fail;
	}
	return 0;
fail:
	snprintf(errbuf, DGR_ERRBUF_SIZE, "mkdir %s: %s%s", full, strerror(errno),
		 errno == EACCES ? " (run as root)" : "");
	return errno == EACCES ? -DGR_E_PERM : -DGR_E_SYS;
}

/* Returns 0, -DGR_E_PERM, -DGR_E_SYS or -DGR_E_NOSPACE. Writes through a temporary file. */
int dgr_tune_persist_write(const struct dgr_tune_opts *opts, const struct dgr_tune_plan *plan,
			   char *errbuf)
{
	char text[4096], full[4096], tmp[4200], eb[DGR_ERRBUF_SIZE];
	int len, fd, rc;

	len = dgr_tune_persist_text(plan, text, sizeof(text));
	if (len < 0) {
		snprintf(eb, sizeof(eb), "persistent file text too long");
		rc = len;
		goto out;
	}
	rc = mkdir_p(opts->root, "/etc/sysctl.d", eb);
	if (rc < 0) {
		goto out;
	}
	if (tune_path(opts->root, "/" DGR_TUNE_PERSIST_FILE, full, sizeof(full)) < 0) {
		snprintf(eb, sizeof(eb), "path too long");
		rc = -DGR_E_TOO_LONG;
		goto out;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", full);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(eb, sizeof(eb), "%s: %s%s", tmp, strerror(errno),
			 errno == EACCES ? " (run as root)" : "");
		rc = errno == EACCES ? -DGR_E_PERM : -DGR_E_SYS;
		goto out;
	}
	if (write(fd, text, (size_t)len) != len || fsync(fd) < 0) {
		snprintf(eb, sizeof(eb), "%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		rc = -DGR_E_SYS;
		goto out;
	}
	close(fd);
	if (rename(tmp, full) < 0) {
		snprintf(eb, sizeof(eb), "%s: %s", full, strerror(errno));
		unlink(tmp);
		rc = -DGR_E_SYS;
	}
out:
	if (rc < 0 && errbuf) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s", eb);
	}
	return rc;
}
