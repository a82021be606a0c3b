// SPDX-License-Identifier: GPL-2.0-or-later
/* Root-prefixed file access: the only place libdgrtune touches /proc and /sys. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tune_priv.h"

/* Returns true when root names the running host ("/", "" or NULL). */
bool tune_root_is_host(const char *root)
{
	return !root || !root[0] || strcmp(root, "/") == 0;
}

/* Returns 0, or -DGR_E_TOO_LONG when buf cannot hold root + path. */
int tune_path(const char *root, const char *path, char *buf, size_t size)
{
	int n;

	if (tune_root_is_host(root)) {
		n = snprintf(buf, size, "%s", path);
	} else {
		n = snprintf(buf, size, "%s%s%s", root, path[0] == '/' ? "" : "/", path);
	}
	if (n < 0 || (size_t)n >= size) {
		return -DGR_E_TOO_LONG;
	}
	return 0;
}

static void reason(int err, const char *path, char *why, size_t why_size)
{
	if (err == ENOENT) {
		snprintf(why, why_size, "%s missing", path);
	} else if (err == EACCES || err == EPERM) {
		snprintf(why, why_size, "%s: permission denied (run as root)", path);
	} else {
		snprintf(why, why_size, "%s: %s", path, strerror(err));
	}
}

/* Returns the length read, or -DGR_E_SYS / -DGR_E_TOO_LONG with why set. */
int tune_read(const char *root, const char *path, char *buf, size_t size, char *why,
	      size_t why_size)
{
	char full[4096];
	ssize_t got;
	size_t len = 0;
	int fd, ret;

	if (tune_path(root, path, full, sizeof(full)) < 0) {
		snprintf(why, why_size, "path too long");
		return -DGR_E_TOO_LONG;
	}
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		reason(errno, path, why, why_size);
		return -DGR_E_SYS;
	}
	while (len + 1 < size) {
		got = read(fd, buf + len, size - 1 - len);
		if (got < 0) {
			if (errno == EINTR) {
				continue;
			}
			reason(errno, path, why, why_size);
			ret = -DGR_E_SYS;
			goto out;
		}
		if (got == 0) {
			break;
		}
		len += (size_t)got;
	}
	buf[len] = '\0';
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' ')) {
		buf[--len] = '\0';
	}
	ret = (int)len;
out:
	close(fd);
	return ret;
}

/* Returns 0, or a negative code with why set ("not a number" when unparsable). */
int tune_read_i64(const char *root, const char *path, int64_t *out, char *why, size_t why_size)
{
	char buf[64], *end;
	long long v;
	int rc;

	rc = tune_read(root, path, buf, sizeof(buf), why, why_size);
	if (rc < 0) {
		return rc;
	}
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || end == buf || *end) {
		snprintf(why, why_size, "not a number: '%.20s'", buf);
		return -DGR_E_INVAL;
	}
	*out = v;
	return 0;
}

/* Returns true when ROOT/path exists (stat succeeds). */
bool tune_exists(const char *root, const char *path)
{
	char full[4096];
	struct stat st;

	if (tune_path(root, path, full, sizeof(full)) < 0) {
		return false;
	}
	return stat(full, &st) == 0;
}

/* Returns 0, -DGR_E_PERM (names CAP_SYS_ADMIN / root) or -DGR_E_SYS. */
int tune_write(const char *root, const char *path, const char *text, char *errbuf)
{
	char full[4096];
	size_t len = strlen(text), done = 0;
	ssize_t w;
	int fd, err, ret = 0;

	if (tune_path(root, path, full, sizeof(full)) < 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: path too long", path);
		return -DGR_E_TOO_LONG;
	}
	fd = open(full, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		goto fail;
	}
	while (done < len) {
		w = write(fd, text + done, len - done);
		if (w < 0) {
			if (errno == EINTR) {
				continue;
			}
			err = errno;
			close(fd);
			goto fail;
		}
		done += (size_t)w;
	}
	if (close(fd) < 0) {
		err = errno;
		goto fail;
	}
	return ret;
fail:
	if (err == EACCES || err == EPERM || err == EROFS) {
		snprintf(errbuf, DGR_ERRBUF_SIZE,
			 "%s: %s: needs root (CAP_SYS_ADMIN/CAP_NET_ADMIN); run with sudo", full,
			 strerror(err));
		return -DGR_E_PERM;
	}
	snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: %s", full, strerror(err));
	return -DGR_E_SYS;
}
