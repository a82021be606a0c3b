// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel preemption model and HZ. The guide's low-latency kernel is
 * CONFIG_PREEMPT=y with CONFIG_HZ_1000; PREEMPT_RT is stronger still. Sources,
 * best first: the running kernel's config (/boot/config-RELEASE or
 * /proc/config.gz), the PREEMPT_DYNAMIC mode (debugfs sched/preempt, else
 * preempt= on the command line), /sys/kernel/realtime, and uname -v
 * (/proc/sys/kernel/version) when no config can be read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "tune_priv.h"

struct kconfig {
	char source[96]; /* where it was read; "" when no config was found */
	bool rt, full, voluntary, none, dynamic;
	long hz;
};

static void kconfig_line(struct kconfig *k, const char *line)
{
	if (strcmp(line, "CONFIG_PREEMPT_RT=y") == 0) {
		k->rt = true;
	} else if (strcmp(line, "CONFIG_PREEMPT=y") == 0) {
		k->full = true;
	} else if (strcmp(line, "CONFIG_PREEMPT_VOLUNTARY=y") == 0) {
		k->voluntary = true;
	} else if (strcmp(line, "CONFIG_PREEMPT_NONE=y") == 0) {
		k->none = true;
	} else if (strcmp(line, "CONFIG_PREEMPT_DYNAMIC=y") == 0) {
		k->dynamic = true;
	} else if (strncmp(line, "CONFIG_HZ=", 10) == 0) {
		k->hz = strtol(line + 10, NULL, 10);
	}
}

/* Reads the config of the running kernel; false when none is readable. */
static bool kconfig_read(const char *root, const char *release, struct kconfig *k)
{
	char rel[128], full[4096], line[256];
	gzFile gz;

	memset(k, 0, sizeof(k[0]));
	/* gzopen reads plain text too, so one loop serves both files. */
	snprintf(rel, sizeof(rel), "/boot/config-%s", release);
	if (tune_path(root, rel, full, sizeof(full)) < 0) {
		return false;
	}
	gz = gzopen(full, "rb");
	if (!gz) {
		snprintf(rel, sizeof(rel), "/proc/config.gz");
		if (tune_path(root, rel, full, sizeof(full)) < 0) {
			return false;
		}
		gz = gzopen(full, "rb");
	}
	if (!gz) {
		return false;
	}
	while (gzgets(gz, line, sizeof(line))) {
		line[strcspn(line, "\n")] = '\0';
		kconfig_line(k, line);
	}
	gzclose(gz);
	snprintf(k->source, sizeof(k->source), "%s", rel);
	return true;
}

/* The active PREEMPT_DYNAMIC mode, from debugfs "none voluntary (full)" or preempt=. */
static const char *dynamic_mode(const char *root, char *from, size_t from_size)
{
	static const char *const modes[] = { "none", "voluntary", "full" };
	char text[4096], why[128], *p;
	size_t i;

	if (tune_read(root, "/sys/kernel/debug/sched/preempt", text, sizeof(text), why,
		      sizeof(why)) > 0) {
		for (i = 0; i < 3; i++) {
			char want[16];

			snprintf(want, sizeof(want), "(%s)", modes[i]);
			if (strstr(text, want)) {
				snprintf(from, from_size, "debugfs sched/preempt");
				return modes[i];
			}
		}
	}
	if (tune_read(root, "/proc/cmdline", text, sizeof(text), why, sizeof(why)) > 0) {
		for (p = strstr(text, "preempt="); p; p = strstr(p + 1, "preempt=")) {
			if (p != text && p[-1] != ' ') {
				continue;
			}
			for (i = 0; i < 3; i++) {
				size_t n = strlen(modes[i]);

				if (strncmp(p + 8, modes[i], n) == 0 &&
				    (p[8 + n] == ' ' || p[8 + n] == '\0')) {
					snprintf(from, from_size, "preempt= on the command line");
					return modes[i];
				}
			}
		}
	}
	return NULL;
}

static int check_preempt(const struct dgr_tune_opts *o, struct dgr_tune_report *r,
			 const char *release, const char *version, const struct kconfig *k)
{
	struct dgr_tune_item *it;
	char from[160] = "", why[96];
	const char *mode = NULL;
	int64_t realtime = 0;
	bool have_k = k->source[0] != '\0';

	it = tune_add(r, "kernel.preempt", DGR_TUNE_R_JITTER);
	if (!it) {
		return -DGR_E_NOMEM;
	}
	tune_set(it->recommended, "full (CONFIG_PREEMPT, lowlatency kernel) or rt");
	tune_set(it->why, "guide \"Using a Low-Latency Kernel\": a preemptible kernel runs the "
			  "doorbell thread sooner");
	if (tune_read_i64(o->root, "/sys/kernel/realtime", &realtime, why, sizeof(why)) == 0 &&
	    realtime == 1) {
		mode = "rt";
		snprintf(from, sizeof(from), "/sys/kernel/realtime");
	} else if (have_k && k->rt) {
		mode = "rt";
		snprintf(from, sizeof(from), "CONFIG_PREEMPT_RT, %s", k->source);
	} else if ((have_k && k->dynamic) || (!have_k && strstr(version, "PREEMPT_DYNAMIC"))) {
		mode = dynamic_mode(o->root, from, sizeof(from));
		if (!mode && have_k) {
			mode = k->full	      ? "full"
			       : k->voluntary ? "voluntary"
			       : k->none      ? "none"
					      : NULL;
			snprintf(from, sizeof(from), "PREEMPT_DYNAMIC build default, %s",
				 k->source);
		}
		if (!mode) {
			tune_unknown(it, "PREEMPT_DYNAMIC kernel, mode not readable: no config, "
					 "no debugfs, no preempt=");
			return 0;
		}
	} else if (have_k) {
		mode = k->full ? "full" : k->voluntary ? "voluntary" : k->none ? "none" : NULL;
		snprintf(from, sizeof(from), "%s", k->source);
	} else if (strstr(version, "PREEMPT_RT")) {
		mode = "rt";
		snprintf(from, sizeof(from), "uname -v");
	} else if (strstr(version, "PREEMPT")) {
		mode = "full";
		snprintf(from, sizeof(from), "uname -v");
	}
	if (!mode) {
		tune_unknown(it, "no kernel config (/boot/config-RELEASE, /proc/config.gz) and no "
				 "PREEMPT in uname -v");
		return 0;
	}
	tune_set(it->current, "%s (%s; %s)", mode, from, release);
	if (strcmp(mode, "full") == 0 || strcmp(mode, "rt") == 0) {
		it->status = DGR_TUNE_OK;
	} else {
		it->status = DGR_TUNE_FIX;
		if ((have_k && k->dynamic) || strstr(version, "PREEMPT_DYNAMIC")) {
			tune_set(it->fix, "add preempt=full to the kernel command line (reboot)");
		} else {
			tune_set(it->fix, "boot a low-latency kernel: apt install "
					  "linux-image-lowlatency (reboot)");
		}
	}
	return 0;
}

static int check_hz(struct dgr_tune_report *r, const struct kconfig *k)
{
	struct dgr_tune_item *it;

	it = tune_add(r, "kernel.hz", DGR_TUNE_R_JITTER);
	if (!it) {
		return -DGR_E_NOMEM;
	}
	tune_set(it->recommended, ">= 1000 (CONFIG_HZ_1000)");
	tune_set(it->why, "guide \"Using a Low-Latency Kernel\": CONFIG_HZ_1000 makes timer "
			  "interrupts, and so rescheduling, more frequent");
	if (!k->source[0] || k->hz <= 0) {
		tune_unknown(it, k->source[0] ? "no CONFIG_HZ in the kernel config"
					      : "no kernel config (/boot/config-RELEASE, "
						"/proc/config.gz)");
		return 0;
	}
	tune_set(it->current, "%ld (%s)", k->hz, k->source);
	if (k->hz >= 1000) {
		it->status = DGR_TUNE_OK;
	} else {
		it->status = DGR_TUNE_FIX;
		tune_set(it->fix, "boot a kernel with CONFIG_HZ_1000, e.g. linux-image-lowlatency "
				  "(reboot)");
	}
	return 0;
}

/* Returns 0 or -DGR_E_NOMEM. */
int tune_check_kernel(const struct dgr_tune_opts *o, struct dgr_tune_report *r)
{
	char release[128] = "", version[256] = "", why[128];
	struct kconfig k;
	int rc;

	if (tune_read(o->root, "/proc/sys/kernel/osrelease", release, sizeof(release), why,
		      sizeof(why)) < 0) {
		snprintf(release, sizeof(release), "release unknown");
	}
	if (tune_read(o->root, "/proc/sys/kernel/version", version, sizeof(version), why,
		      sizeof(why)) < 0) {
		version[0] = '\0';
	}
	if (!kconfig_read(o->root, release, &k)) {
		memset(&k, 0, sizeof(k));
	}
	rc = check_preempt(o, r, release, version, &k);
	return rc < 0 ? rc : check_hz(r, &k);
}
