// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dm-crypt: the device-mapper devices of /sys/block/dm-*, which of them are
 * crypt targets and whether same_cpu_crypt is set, and whether the --output
 * path sits on one (through its mount in /proc/self/mountinfo and the dm
 * slaves chain). The table comes from DM_TABLE_STATUS (root) or a fixture;
 * without it a CRYPT- uuid (cryptsetup's convention) still identifies the
 * device, but its flags are unknown.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tune_priv.h"

#define MAX_DM 64

enum tri { NO = 0, YES = 1, UNKNOWN = -1 };

struct dmdev {
	char kname[32]; /* dm-0 */
	char name[128]; /* dm/name, e.g. dm_crypt-0 */
	char dev[32];	/* MAJ:MIN */
	enum tri crypt;
	enum tri same_cpu;
	char flags[128];
	char why[160]; /* why crypt or same_cpu is unknown */
};

struct dmlist {
	struct dmdev d[MAX_DM];
	int n;
};

static void read_dev(const char *root, struct dmdev *d)
{
	char path[128], uuid[160], why[128];
	struct tune_dm_table t;

	snprintf(path, sizeof(path), "/sys/block/%s/dm/name", d->kname);
	if (tune_read(root, path, d->name, sizeof(d->name), why, sizeof(why)) <= 0) {
		memcpy(d->name, d->kname, sizeof(d->kname));
	}
	snprintf(path, sizeof(path), "/sys/block/%s/dev", d->kname);
	if (tune_read(root, path, d->dev, sizeof(d->dev), why, sizeof(why)) <= 0) {
		d->dev[0] = '\0';
	}
	d->crypt = UNKNOWN;
	d->same_cpu = UNKNOWN;
	if (tune_dm_table(root, d->name, &t, d->why, sizeof(d->why)) == 0) {
		d->crypt = strcmp(t.target, "crypt") == 0 ? YES : NO;
		if (d->crypt == YES) {
			d->same_cpu = t.same_cpu_crypt ? YES : NO;
			snprintf(d->flags, sizeof(d->flags), "%s", t.flags);
		}
		return;
	}
	snprintf(path, sizeof(path), "/sys/block/%s/dm/uuid", d->kname);
	if (tune_read(root, path, uuid, sizeof(uuid), why, sizeof(why)) > 0) {
		/* cryptsetup names its devices CRYPT-...; LVM uses LVM-... */
		d->crypt = strncmp(uuid, "CRYPT-", 6) == 0 ? YES : NO;
	}
}

static int cmp_dm(const void *a, const void *b)
{
	const struct dmdev *x = a, *y = b;
	size_t lx = strlen(x->kname), ly = strlen(y->kname);

	/* dm-2 before dm-10 */
	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x->kname, y->kname);
}

/* Lists dm devices; returns false when /sys/block is unreadable. */
static bool list_dm(const char *root, struct dmlist *l, char *why, size_t why_size)
{
	char full[4096];
	struct dirent *de;
	DIR *dir;

	l->n = 0;
	if (tune_path(root, "/sys/block", full, sizeof(full)) < 0 || !(dir = opendir(full))) {
		snprintf(why, why_size, "/sys/block not readable");
		return false;
	}
	while ((de = readdir(dir)) != NULL && l->n < MAX_DM) {
		if (strncmp(de->d_name, "dm-", 3) != 0) {
			continue;
		}
		memset(&l->d[l->n], 0, sizeof(l->d[0]));
		snprintf(l->d[l->n].kname, sizeof(l->d[0].kname), "%.31s", de->d_name);
		read_dev(root, &l->d[l->n]);
		l->n++;
	}
	closedir(dir);
	qsort(l->d, (size_t)l->n, sizeof(l->d[0]), cmp_dm);
	return true;
}

static struct dmdev *find_by_kname(struct dmlist *l, const char *kname)
{
	int i;

	for (i = 0; i < l->n; i++) {
		if (strcmp(l->d[i].kname, kname) == 0) {
			return &l->d[i];
		}
	}
	return NULL;
}

/*
 * Whether dm device d or anything below it (its slaves, recursively) is a
 * crypt device; *hit names the crypt device found.
 */
static enum tri crypt_below(const char *root, struct dmlist *l, struct dmdev *d, int depth,
			    struct dmdev **hit)
{
	char full[4096], rel[128];
	struct dirent *de;
	enum tri res = d->crypt;
	DIR *dir;

	if (d->crypt == YES) {
		*hit = d;
		return YES;
	}
	if (depth > 8) {
		return res;
	}
	snprintf(rel, sizeof(rel), "/sys/block/%s/slaves", d->kname);
	if (tune_path(root, rel, full, sizeof(full)) < 0 || !(dir = opendir(full))) {
		return res;
	}
	while ((de = readdir(dir)) != NULL) {
		struct dmdev *s = find_by_kname(l, de->d_name);
		enum tri t;

		if (!s) {
			continue;
		}
		t = crypt_below(root, l, s, depth + 1, hit);
		if (t == YES) {
			res = YES;
			break;
		}
		if (t == UNKNOWN) {
			res = UNKNOWN;
		}
	}
	closedir(dir);
	return res;
}

static int devices_item(struct dgr_tune_report *r, struct dmlist *l, bool listed, const char *why)
{
	struct dgr_tune_item *it;
	size_t len = 0;
	int i, ncrypt = 0;

	it = tune_add(r, "dmcrypt.devices", DGR_TUNE_R_JITTER | DGR_TUNE_R_THROUGHPUT);
	if (!it) {
		return -DGR_E_NOMEM;
	}
	tune_set(it->recommended, "none: do not write the stream to a dm-crypt disk");
	tune_set(it->why, "guide \"Setting the dmcrypt same_cpu_crypt Flag\": encryption makes "
			  "disk writes much longer; avoiding dm-crypt is best");
	if (!listed) {
		tune_unknown(it, why);
		return 0;
	}
	for (i = 0; i < l->n; i++) {
		if (l->d[i].crypt != YES) {
			continue;
		}
		ncrypt++;
		if (len < sizeof(it->current)) {
			len += (size_t)snprintf(it->current + len, sizeof(it->current) - len,
						"%s%s (%s)", len ? ", " : "", l->d[i].name,
						l->d[i].kname);
		}
	}
	for (i = 0; i < l->n && ncrypt == 0; i++) {
		if (l->d[i].crypt == UNKNOWN) {
			tune_set(it->subject, "%s", l->d[i].kname);
			tune_unknown(it, l->d[i].why);
			return 0;
		}
	}
	if (ncrypt == 0) {
		tune_set(it->current, "none");
		it->status = DGR_TUNE_OK;
	} else {
		it->status = DGR_TUNE_INFO;
	}
	return 0;
}

static int flag_items(struct dgr_tune_report *r, struct dmlist *l)
{
	struct dgr_tune_item *it;
	int i;

	for (i = 0; i < l->n; i++) {
		struct dmdev *d = &l->d[i];

		if (d->crypt != YES) {
			continue;
		}
		it = tune_add(r, "dmcrypt.same_cpu_crypt",
			      DGR_TUNE_R_JITTER | DGR_TUNE_R_THROUGHPUT);
		if (!it) {
			return -DGR_E_NOMEM;
		}
		tune_set(it->subject, "%s", d->name);
		tune_set(it->recommended, "on");
		tune_set(it->why, "guide \"Setting the dmcrypt same_cpu_crypt Flag\": keeps "
				  "encryption on the writing CPU (with RT priority, on dm-crypt "
				  "hosts)");
		if (d->same_cpu == UNKNOWN) {
			tune_unknown(it, d->why);
			continue;
		}
		tune_set(it->current, "%s (flags: %s)", d->same_cpu == YES ? "on" : "off",
			 d->flags[0] ? d->flags : "none");
		if (d->same_cpu == YES) {
			it->status = DGR_TUNE_OK;
		} else {
			it->status = DGR_TUNE_FIX;
			it->fix_runtime = true;
			tune_set(it->fix,
				 "cryptsetup refresh --perf-same_cpu_crypt %s (repeat its "
				 "other --perf-* flags)",
				 d->name);
		}
	}
	return 0;
}

/* The mount that holds path: longest matching mount point in mountinfo. */
static bool mount_of(const char *root, const char *path, char *dev, size_t dev_size, char *fstype,
		     size_t fs_size, char *why, size_t why_size)
{
	static char text[1 << 20];
	char *line, *save = NULL;
	size_t best = 0;
	bool found = false;

	if (tune_read(root, "/proc/self/mountinfo", text, sizeof(text), why, why_size) < 0) {
		return false;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char mdev[32], mpoint[1024], fs[32];
		const char *sep = strstr(line, " - ");
		size_t len;

		if (!sep || sscanf(line, "%*s %*s %31s %*s %1023s", mdev, mpoint) != 2 ||
		    sscanf(sep + 3, "%31s", fs) != 1) {
			continue;
		}
		len = strlen(mpoint);
		if (strcmp(mpoint, "/") == 0) {
			len = 0;
		} else if (strncmp(path, mpoint, len) != 0 ||
			   (path[len] != '/' && path[len] != '\0')) {
			continue;
		}
		if (!found || len >= best) {
			best = len;
			found = true;
			snprintf(dev, dev_size, "%s", mdev);
			snprintf(fstype, fs_size, "%s", fs);
		}
	}
	if (!found) {
		snprintf(why, why_size, "no mount holds %s", path);
	}
	return found;
}

static int output_item(const struct dgr_tune_opts *o, struct dgr_tune_report *r, struct dmlist *l,
		       bool listed)
{
	struct dgr_tune_item *it;
	struct dmdev *hit = NULL, *top = NULL;
	char abs[PATH_MAX], dev[32], fs[32], why[160];
	enum tri t;
	int i;

	it = tune_add(r, "dmcrypt.output", DGR_TUNE_R_JITTER | DGR_TUNE_R_THROUGHPUT);
	if (!it) {
		return -DGR_E_NOMEM;
	}
	tune_set(it->subject, "%s", o->output_path);
	tune_set(it->recommended, "an unencrypted disk");
	tune_set(it->why, "guide \"First-pass solutions\": avoid writing to a disk encrypted with "
			  "dmcrypt");
	/* On the host resolve symlinks; under a fake root the path is taken as written. */
	if (tune_root_is_host(o->root) && realpath(o->output_path, abs)) {
		/* resolved */
	} else if (o->output_path[0] == '/') {
		snprintf(abs, sizeof(abs), "%s", o->output_path);
	} else {
		char cwd[PATH_MAX / 2];

		if (!getcwd(cwd, sizeof(cwd))) {
			tune_unknown(it, "current folder unknown");
			return 0;
		}
		snprintf(abs, sizeof(abs), "%s/%.2000s", cwd, o->output_path);
	}
	if (!mount_of(o->root, abs, dev, sizeof(dev), fs, sizeof(fs), why, sizeof(why))) {
		tune_unknown(it, why);
		return 0;
	}
	if (strcmp(fs, "tmpfs") == 0 || strcmp(fs, "ramfs") == 0) {
		tune_set(it->current, "%s (memory, no disk)", fs);
		it->status = DGR_TUNE_OK;
		return 0;
	}
	if (strncmp(dev, "0:", 2) == 0) {
		tune_set(why, "%s on %s has no single block device", fs, dev);
		tune_unknown(it, why);
		return 0;
	}
	for (i = 0; listed && i < l->n; i++) {
		if (strcmp(l->d[i].dev, dev) == 0) {
			top = &l->d[i];
		}
	}
	if (!listed) {
		tune_unknown(it, "/sys/block not readable");
		return 0;
	}
	if (!top) {
		tune_set(it->current, "%s on %s, not a device-mapper device", fs, dev);
		it->status = DGR_TUNE_OK;
		return 0;
	}
	t = crypt_below(o->root, l, top, 0, &hit);
	if (t == YES) {
		tune_set(it->current, "%s on %s (%s), encrypted by %s", fs, top->name, dev,
			 hit->name);
		it->status = DGR_TUNE_FIX;
		tune_set(it->fix, "write the stream to an unencrypted disk");
	} else if (t == NO) {
		tune_set(it->current, "%s on %s (%s), no crypt below it", fs, top->name, dev);
		it->status = DGR_TUNE_OK;
	} else {
		tune_set(why, "%s on %s: a device below it is unreadable", fs, top->name);
		tune_unknown(it, why);
	}
	return 0;
}

/* Returns 0 or -DGR_E_NOMEM. */
int tune_check_dmcrypt(const struct dgr_tune_opts *o, struct dgr_tune_report *r)
{
	static struct dmlist l;
	char why[128];
	bool listed;
	int rc;

	listed = list_dm(o->root, &l, why, sizeof(why));
	rc = devices_item(r, &l, listed, why);
	if (rc == 0) {
		rc = flag_items(r, &l);
	}
	if (rc == 0 && o->output_path) {
		rc = output_item(o, r, &l, listed);
	}
	return rc;
}
