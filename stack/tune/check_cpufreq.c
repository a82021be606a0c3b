// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CPU frequency: the scaling governor of every CPU and turbo/boost. Both make
 * single-core results vary from run to run (the FreeBSD RSS experiments found
 * turbo boost skewing their numbers by up to 30%).
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "tune_priv.h"

#define CPU_DIR	 "/sys/devices/system/cpu"
#define MAX_GOVS 8

static int check_governor(const struct dgr_tune_opts *o, struct dgr_tune_report *r)
{
	struct dgr_tune_item *it;
	char full[4096], path[128], gov[MAX_GOVS][32], val[32], why[128];
	int count[MAX_GOVS] = { 0 }, ngov = 0, ncpu = 0, i;
	struct dirent *de;
	size_t len = 0;
	DIR *d;

	it = tune_add(r, "cpu.governor", DGR_TUNE_R_THROUGHPUT);
	if (!it) {
		return -DGR_E_NOMEM;
	}
	tune_set(it->recommended, "performance on every CPU");
	tune_set(it->why, "a throughput-bound host needs full single-core speed; other governors "
			  "vary the clock with the load");
	if (tune_path(o->root, CPU_DIR, full, sizeof(full)) < 0 || !(d = opendir(full))) {
		tune_unknown(it, CPU_DIR " missing or not readable");
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "cpu", 3) != 0 || !isdigit((unsigned char)de->d_name[3])) {
			continue;
		}
		snprintf(path, sizeof(path), CPU_DIR "/%.32s/cpufreq/scaling_governor", de->d_name);
		if (tune_read(o->root, path, val, sizeof(val), why, sizeof(why)) <= 0) {
			continue;
		}
		ncpu++;
		for (i = 0; i < ngov && strcmp(gov[i], val) != 0; i++) {
		}
		if (i == ngov && ngov < MAX_GOVS) {
			memcpy(gov[ngov++], val, sizeof(val));
		}
		if (i < ngov) {
			count[i]++;
		}
	}
	closedir(d);
	if (ncpu == 0) {
		tune_unknown(it, "no cpufreq scaling_governor: a VM, or no frequency driver");
		return 0;
	}
	/* Sorted output for stable text: governors in name order. */
	for (i = 0; i < ngov; i++) {
		int j, best = -1;

		for (j = 0; j < ngov; j++) {
			if (count[j] >= 0 && (best < 0 || strcmp(gov[j], gov[best]) < 0)) {
				best = j;
			}
		}
		len += (size_t)snprintf(it->current + len, sizeof(it->current) - len,
					"%s%s on %d of %d CPUs", len ? ", " : "", gov[best],
					count[best], ncpu);
		if (len >= sizeof(it->current)) {
			break;
		}
		count[best] = -1;
	}
	if (ngov == 1 && strcmp(gov[0], "performance") == 0) {
		it->status = DGR_TUNE_OK;
	} else {
		it->status = DGR_TUNE_FIX;
		it->fix_runtime = true;
		tune_set(it->fix,
			 "echo performance | tee " CPU_DIR "/cpu*/cpufreq/scaling_governor");
	}
	return 0;
}

static int check_turbo(const struct dgr_tune_opts *o, struct dgr_tune_report *r)
{
	struct dgr_tune_item *it;
	char why[128];
	int64_t v;
	bool on;

	it = tune_add(r, "cpu.turbo", DGR_TUNE_R_THROUGHPUT);
	if (!it) {
		return -DGR_E_NOMEM;
	}
	tune_set(it->recommended, "off while measuring");
	tune_set(it->why, "FreeBSD RSS experiments: turbo boost changed the clock with the number "
			  "of busy cores and skewed the results");
	if (tune_read_i64(o->root, CPU_DIR "/intel_pstate/no_turbo", &v, why, sizeof(why)) == 0) {
		on = v == 0;
		tune_set(it->current, "%s (intel_pstate/no_turbo %lld)", on ? "on" : "off",
			 (long long)v);
		tune_set(it->fix, "echo 1 > " CPU_DIR "/intel_pstate/no_turbo");
	} else if (tune_read_i64(o->root, CPU_DIR "/cpufreq/boost", &v, why, sizeof(why)) == 0) {
		on = v != 0;
		tune_set(it->current, "%s (cpufreq/boost %lld)", on ? "on" : "off", (long long)v);
		tune_set(it->fix, "echo 0 > " CPU_DIR "/cpufreq/boost");
	} else {
		tune_unknown(it, "no intel_pstate/no_turbo and no cpufreq/boost");
		return 0;
	}
	if (on) {
		it->status = DGR_TUNE_FIX;
		it->fix_runtime = true;
	} else {
		it->status = DGR_TUNE_OK;
		it->fix[0] = '\0';
	}
	return 0;
}

/* Returns 0 or -DGR_E_NOMEM. */
int tune_check_cpufreq(const struct dgr_tune_opts *o, struct dgr_tune_report *r)
{
	int rc = check_governor(o, r);

	return rc < 0 ? rc : check_turbo(o, r);
}
