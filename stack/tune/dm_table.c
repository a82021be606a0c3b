// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Device-mapper tables. On the host: the DM_TABLE_STATUS ioctl on
 * /dev/mapper/control (root only, as `dmsetup table` needs); under a fake root:
 * the fixture ROOT/dgrdma-tune/dm/NAME holding one `dmsetup table` line.
 * Only the target type and the crypt optional flags are kept: a crypt table
 * carries the key, which is wiped and never copied out.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/dm-ioctl.h>

#include "tune_priv.h"

#define DM_BUF_SIZE 16384

/*
 * Fills out->flags and out->same_cpu_crypt from the parameters of one crypt
 * target. Returns 0, or -DGR_E_INVAL when the five fixed parameters or the
 * optional-parameter count are missing.
 */
int tune_dm_parse_crypt(const char *params, struct tune_dm_table *out)
{
	char copy[1024], *tok, *save = NULL, *end;
	long nopt = 0;
	int i = 0, ret = -DGR_E_INVAL;
	size_t len = 0;

	out->flags[0] = '\0';
	out->same_cpu_crypt = false;
	snprintf(copy, sizeof(copy), "%s", params);
	/* cipher key iv_offset device offset [#opt_params opt...] */
	for (tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save), i++) {
		if (i < 4) {
			continue;
		}
		if (i == 4) {
			ret = 0; /* the five fixed parameters are there */
			continue;
		}
		if (i == 5) {
			nopt = strtol(tok, &end, 10);
			if (*end || nopt < 0) {
				ret = -DGR_E_INVAL;
				break;
			}
			continue;
		}
		if (i - 5 > nopt) {
			break;
		}
		if (strcmp(tok, "same_cpu_crypt") == 0) {
			out->same_cpu_crypt = true;
		}
		if (len + strlen(tok) + 2 < sizeof(out->flags)) {
			len += (size_t)snprintf(out->flags + len, sizeof(out->flags) - len, "%s%s",
						len ? " " : "", tok);
		}
	}
	explicit_bzero(copy, sizeof(copy));
	return ret;
}

/* Fills out from "start length target params..." */
/* Returns 0, or -DGR_E_INVAL for a line that is not a table (or a bad crypt table). */
static int parse_table_line(const char *line, struct tune_dm_table *out)
{
	unsigned long long start, length;
	char target[16];
	int off = 0;

	memset(out, 0, sizeof(*out));
	if (sscanf(line, "%llu %llu %15s %n", &start, &length, target, &off) < 3) {
		return -DGR_E_INVAL;
	}
	memcpy(out->target, target, sizeof(target));
	if (strcmp(target, "crypt") == 0) {
		return tune_dm_parse_crypt(line + off, out);
	}
	return 0;
}

static int dm_fixture(const char *root, const char *dm_name, struct tune_dm_table *out, char *why,
		      size_t why_size)
{
	char path[256], text[1024];
	int rc;

	snprintf(path, sizeof(path), "/dgrdma-tune/dm/%s", dm_name);
	rc = tune_read(root, path, text, sizeof(text), why, why_size);
	if (rc < 0) {
		snprintf(why, why_size, "no table fixture dgrdma-tune/dm/%s", dm_name);
		return rc;
	}
	rc = parse_table_line(text, out);
	explicit_bzero(text, sizeof(text));
	if (rc < 0) {
		snprintf(why, why_size, "unreadable table fixture for %s", dm_name);
		return rc;
	}
	return 0;
}

/*
 * Reads the first target of a DM_TABLE_STATUS answer (struct dm_ioctl, then
 * dm_target_spec + parameters at data_start). Returns 0, or a negative code
 * with why set when the answer is full, empty or inconsistent.
 */
int tune_dm_parse_status(const void *answer, size_t size, struct tune_dm_table *out, char *why,
			 size_t why_size)
{
	const struct dm_ioctl *dmi = answer;
	const struct dm_target_spec *spec;
	const char *params;
	size_t end;

	memset(out, 0, sizeof(*out));
	if (size < sizeof(*dmi) || dmi->data_size > size) {
		snprintf(why, why_size, "DM_TABLE_STATUS: short answer");
		return -DGR_E_INVAL;
	}
	if (dmi->flags & DM_BUFFER_FULL_FLAG) {
		snprintf(why, why_size, "DM_TABLE_STATUS: table larger than %zu bytes", size);
		return -DGR_E_NOSPACE;
	}
	if (dmi->target_count == 0) {
		snprintf(why, why_size, "DM_TABLE_STATUS: no table loaded");
		return -DGR_E_SYS;
	}
	if (dmi->data_start < sizeof(*dmi) || dmi->data_start % 8 ||
	    (size_t)dmi->data_start + sizeof(*spec) >= dmi->data_size) {
		snprintf(why, why_size, "DM_TABLE_STATUS: target outside the answer");
		return -DGR_E_INVAL;
	}
	/* The first target decides: a crypt device has one crypt target. */
	spec = (const struct dm_target_spec *)((const char *)answer + dmi->data_start);
	params = (const char *)(spec + 1);
	end = dmi->data_size - dmi->data_start - sizeof(*spec);
	if (!memchr(spec->target_type, '\0', sizeof(spec->target_type)) ||
	    !memchr(params, '\0', end)) {
		snprintf(why, why_size, "DM_TABLE_STATUS: unterminated target");
		return -DGR_E_INVAL;
	}
	snprintf(out->target, sizeof(out->target), "%.15s", spec->target_type);
	if (strcmp(out->target, "crypt") == 0 && tune_dm_parse_crypt(params, out) < 0) {
		snprintf(why, why_size, "DM_TABLE_STATUS: unreadable crypt table");
		return -DGR_E_INVAL;
	}
	return 0;
}

static int dm_ioctl_table(const char *dm_name, struct tune_dm_table *out, char *why,
			  size_t why_size)
{
	static _Alignas(8) char buf[DM_BUF_SIZE];
	struct dm_ioctl *dmi = (struct dm_ioctl *)buf;
	int fd, ret = 0;

	memset(out, 0, sizeof(*out));
	if (strlen(dm_name) >= DM_NAME_LEN) {
		snprintf(why, why_size, "device name too long");
		return -DGR_E_INVAL;
	}
	fd = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		if (errno == EACCES || errno == EPERM) {
			snprintf(
			    why, why_size,
			    "/dev/mapper/control: needs root (CAP_SYS_ADMIN) to read the table");
			return -DGR_E_PERM;
		}
		snprintf(why, why_size, "/dev/mapper/control: %s", strerror(errno));
		return -DGR_E_SYS;
	}
	memset(buf, 0, sizeof(buf));
	dmi->version[0] = DM_VERSION_MAJOR;
	dmi->data_size = sizeof(buf);
	dmi->data_start = sizeof(*dmi);
	dmi->flags = DM_STATUS_TABLE_FLAG;
	memcpy(dmi->name, dm_name, strlen(dm_name));
	if (ioctl(fd, DM_TABLE_STATUS, dmi) < 0) {
		if (errno == EACCES || errno == EPERM) {
			snprintf(why, why_size,
				 "DM_TABLE_STATUS: needs CAP_SYS_ADMIN (run as root)");
			ret = -DGR_E_PERM;
		} else {
			snprintf(why, why_size, "DM_TABLE_STATUS: %s", strerror(errno));
			ret = -DGR_E_SYS;
		}
		goto out;
	}
	ret = tune_dm_parse_status(buf, sizeof(buf), out, why, why_size);
out:
	explicit_bzero(buf, sizeof(buf));
	close(fd);
	return ret;
}

/* Returns 0, or negative with the reason in why. */
int tune_dm_table(const char *root, const char *dm_name, struct tune_dm_table *out, char *why,
		  size_t why_size)
{
	if (!tune_root_is_host(root)) {
		return dm_fixture(root, dm_name, out, why, why_size);
	}
	return dm_ioctl_table(dm_name, out, why, why_size);
}
