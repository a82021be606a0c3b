// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for everything dgrdma-tune parses: the first input byte
 * picks one of the files the checks read under a fake root (sysctls, limits,
 * status, mountinfo, cmdline, kernel config, cgroup files, the ethtool and
 * device-mapper fixtures), the rest becomes its content; then every check runs
 * and the report is printed as JSON and as text. The crypt parser is also fed
 * the raw input.
 */
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tune_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const files[] = {
	"proc/sys/net/core/rmem_default",
	"proc/sys/vm/dirty_background_bytes",
	"proc/self/limits",
	"proc/self/status",
	"proc/self/mountinfo",
	"proc/cmdline",
	"proc/sys/kernel/version",
	"boot/config-fuzz",
	"sys/fs/cgroup/cgroup.controllers",
	"sys/fs/cgroup/a/cpuset.cpus.partition",
	"sys/fs/cgroup/cpuset/u/cpuset.cpu_exclusive",
	"sys/kernel/debug/sched/preempt",
	"dgrdma-tune/ethtool/eth0",
	"dgrdma-tune/dm/d0",
	"sys/class/net/bond0/bonding/slaves",
	"sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
};
#define NFILES (sizeof(files) / sizeof(files[0]))

static char root[64];

static void put(const char *rel, const uint8_t *data, size_t size)
{
	char path[256], *p;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		if (size && write(fd, data, size) < 0) {
			abort();
		}
		close(fd);
	}
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The fake root lives as long as the fuzzer process. */
static void cleanup(void)
{
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void setup(void)
{
	snprintf(root, sizeof(root), "/tmp/tune-fuzz-%d", (int)getpid());
	mkdir(root, 0755);
	atexit(cleanup);
	put("proc/sys/kernel/osrelease", (const uint8_t *)"fuzz\n", 5);
	put("sys/block/dm-0/dm/name", (const uint8_t *)"d0\n", 3);
	put("sys/block/dm-0/dev", (const uint8_t *)"254:0\n", 6);
	put("sys/fs/cgroup/cpuset/cpuset.cpus", (const uint8_t *)"0-3\n", 4);
	put("sys/fs/cgroup/cpuset/u/cpuset.cpus", (const uint8_t *)"2-3\n", 4);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dgr_tune_opts o = { .root = root, .iface = "bond0", .output_path = "/data/x" };
	struct dgr_tune_report rep = { 0 };
	struct tune_dm_table t;
	char text[1024];
	FILE *null;

	if (!root[0]) {
		setup();
	}
	if (size == 0) {
		return 0;
	}
	snprintf(text, sizeof(text), "%.*s", (int)(size - 1 < 1023 ? size - 1 : 1023),
		 (const char *)data + 1);
	tune_dm_parse_crypt(text, &t);
	put(files[data[0] % NFILES], data + 1, size - 1);
	if (data[0] % NFILES == 14) {
		put("dgrdma-tune/ethtool/eth1", data + 1, size - 1);
	}
	o.iface = (data[0] & 0x80) ? "eth0" : "bond0";
	null = fopen("/dev/null", "w");
	if (dgr_tune_check(&o, &rep, NULL) >= 0 && null) {
		dgr_tune_print(null, &rep, root, DGR_REGIME_JITTER, DGR_TUNE_PRINT_JSON);
		dgr_tune_print(null, &rep, root, DGR_REGIME_ANY, 0);
	}
	if (null) {
		fclose(null);
	}
	dgr_tune_report_free(&rep);
	return 0;
}
