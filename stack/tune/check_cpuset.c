// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpusets: which cgroup version holds the cpuset controller, whether a
 * shielded set exists (v2: a cgroup whose cpuset.cpus.partition is "isolated"
 * or "root"; v1: an exclusive cpuset, or cset's user/system shield layout) and
 * its CPUs; isolcpus= and nohz_full= on the kernel command line.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "tune_priv.h"

#define V2_BASE "/sys/fs/cgroup"
#define V1_BASE "/sys/fs/cgroup/cpuset"

struct shield {
	char path[128]; /* relative to the hierarchy, e.g. "/user" */
	char cpus[64];
	char how[48];
};

static bool read_small(const char *root, const char *dir, const char *file, char *buf, size_t size)
{
	char path[512], why[128];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return tune_read(root, path, buf, size, why, sizeof(why)) > 0;
}

/* v2: depth-first search for a partition root below the top. */
static bool find_v2(const char *root, const char *dir, const char *rel, int depth, struct shield *s)
{
	char full[512], sub[512], subrel[256], part[64];
	struct dirent *de;
	DIR *d;
	bool found = false;

	if (depth > 3 || tune_path(root, dir, full, sizeof(full)) < 0) {
		return false;
	}
	d = opendir(full);
	if (!d) {
		return false;
	}
	while (!found && (de = readdir(d)) != NULL) {
		if ((de->d_type != DT_DIR && de->d_type != DT_UNKNOWN) || de->d_name[0] == '.') {
			continue;
		}
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		snprintf(subrel, sizeof(subrel), "%s/%s", rel, de->d_name);
		if (read_small(root, sub, "cpuset.cpus.partition", part, sizeof(part)) &&
		    (strcmp(part, "isolated") == 0 || strcmp(part, "root") == 0)) {
			snprintf(s->path, sizeof(s->path), "%s", subrel);
			if (!read_small(root, sub, "cpuset.cpus.effective", s->cpus,
					sizeof(s->cpus)) &&
			    !read_small(root, sub, "cpuset.cpus", s->cpus, sizeof(s->cpus))) {
				snprintf(s->cpus, sizeof(s->cpus), "?");
			}
			snprintf(s->how, sizeof(s->how), "partition %s", part);
			found = true;
		} else {
			found = find_v2(root, sub, subrel, depth + 1, s);
		}
	}
	closedir(d);
	return found;
}

/* v1: an exclusive child cpuset, else cset shield's "user" beside "system". */
static bool find_v1(const char *root, struct shield *s)
{
	char full[512], sub[512], val[64];
	struct dirent *de;
	DIR *d;
	bool found = false;

	if (tune_path(root, V1_BASE, full, sizeof(full)) < 0) {
		return false;
	}
	d = opendir(full);
	if (!d) {
		return false;
	}
	while (!found && (de = readdir(d)) != NULL) {
		if ((de->d_type != DT_DIR && de->d_type != DT_UNKNOWN) || de->d_name[0] == '.') {
			continue;
		}
		snprintf(sub, sizeof(sub), V1_BASE "/%s", de->d_name);
		if (read_small(root, sub, "cpuset.cpu_exclusive", val, sizeof(val)) &&
		    strcmp(val, "1") == 0 &&
		    read_small(root, sub, "cpuset.cpus", s->cpus, sizeof(s->cpus))) {
			snprintf(s->path, sizeof(s->path), "/%.120s", de->d_name);
			snprintf(s->how, sizeof(s->how), "cpu_exclusive");
			found = true;
		}
	}
	closedir(d);
	if (!found && tune_exists(root, V1_BASE "/system") &&
	    read_small(root, V1_BASE "/user", "cpuset.cpus", s->cpus, sizeof(s->cpus))) {
		snprintf(s->path, sizeof(s->path), "/user");
		snprintf(s->how, sizeof(s->how), "cset shield layout");
		found = true;
	}
	return found;
}

static int check_shield(const struct dgr_tune_opts *o, struct dgr_tune_report *r)
{
	struct dgr_tune_item *it;
	struct shield s;
	char ctrl[256], why[128];
	const char *ver = NULL;
	bool found = false;

	it = tune_add(r, "cpuset.shield", DGR_TUNE_R_JITTER);
	if (!it) {
		return -DGR_E_NOMEM;
	}
	tune_set(it->recommended, "a shielded cpuset holding the stream threads");
	tune_set(it->why, "guide \"Using cpusets\": reserve cores for the DG-RDMA threads so other "
			  "tasks cannot delay doorbells");
	memset(&s, 0, sizeof(s));
	if (tune_read(o->root, V2_BASE "/cgroup.controllers", ctrl, sizeof(ctrl), why,
		      sizeof(why)) >= 0 &&
	    strstr(ctrl, "cpuset")) {
		ver = "v2";
		found = find_v2(o->root, V2_BASE, "", 0, &s);
	} else if (tune_exists(o->root, V1_BASE "/cpuset.cpus")) {
		ver = "v1";
		found = find_v1(o->root, &s);
	}
	if (!ver) {
		tune_unknown(it, "no cpuset controller under /sys/fs/cgroup (v1 or v2)");
		return 0;
	}
	if (found) {
		tune_set(it->current, "cgroup %s: %s cpus %s (%s)", ver, s.path, s.cpus, s.how);
		it->status = DGR_TUNE_OK;
		return 0;
	}
	tune_set(it->current, "cgroup %s: no shielded set", ver);
	it->status = DGR_TUNE_FIX;
	it->fix_runtime = true;
	if (strcmp(ver, "v1") == 0) {
		tune_set(it->fix, "cset shield --cpu N-M --kthread on; run the stream with cset "
				  "shield --exec");
	} else {
		tune_set(it->fix,
			 "a cgroup with cpuset.cpus=N-M and cpuset.cpus.partition=isolated, "
			 "then move the stream into it");
	}
	return 0;
}

/* Copies the value of "name=" from the command line, or returns false. */
static bool cmdline_param(const char *cmdline, const char *name, char *out, size_t size)
{
	size_t len = strlen(name);
	const char *p = cmdline;

	while ((p = strstr(p, name)) != NULL) {
		if ((p == cmdline || p[-1] == ' ') && p[len] == '=') {
			size_t n = strcspn(p + len + 1, " ");

			snprintf(out, size, "%.*s", (int)n, p + len + 1);
			return true;
		}
		p += len;
	}
	return false;
}

static int check_cmdline(const struct dgr_tune_opts *o, struct dgr_tune_report *r)
{
	struct dgr_tune_item *it;
	char cmdline[4096], why[128], iso[64], nohz[64];
	bool has_iso, has_nohz;

	it = tune_add(r, "kernel.cmdline.isolcpus", DGR_TUNE_R_JITTER);
	if (!it) {
		return -DGR_E_NOMEM;
	}
	tune_set(it->recommended, "isolcpus= and nohz_full= for the stream CPUs, or a cpuset");
	tune_set(it->why, "guide \"Using cpusets\": the older isolcpus feature gave much the same "
			  "result as a shield");
	if (tune_read(o->root, "/proc/cmdline", cmdline, sizeof(cmdline), why, sizeof(why)) < 0) {
		tune_unknown(it, why);
		return 0;
	}
	has_iso = cmdline_param(cmdline, "isolcpus", iso, sizeof(iso));
	has_nohz = cmdline_param(cmdline, "nohz_full", nohz, sizeof(nohz));
	if (!has_iso && !has_nohz) {
		tune_set(it->current, "none");
		it->status = DGR_TUNE_INFO;
		tune_set(it->fix, "add isolcpus=N-M nohz_full=N-M to the kernel command line "
				  "(reboot)");
		return 0;
	}
	tune_set(it->current, "isolcpus=%s nohz_full=%s", has_iso ? iso : "(none)",
		 has_nohz ? nohz : "(none)");
	it->status = DGR_TUNE_OK;
	return 0;
}

/* Returns 0 or -DGR_E_NOMEM. */
int tune_check_cpuset(const struct dgr_tune_opts *o, struct dgr_tune_report *r)
{
	int rc = check_shield(o, r);

	return rc < 0 ? rc : check_cmdline(o, r);
}
