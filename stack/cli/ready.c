/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --ready-file: how a script learns that a tool receives (cli.h). A
 * sender started earlier loses its first frames: the emulator's first burst
 * fills every host buffer without waiting, and if it is lost no doorbell comes
 * back and the stream never starts. A sleep only guesses how long set-up takes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* See cli.h. */
int dgr_ready_file_clear(const char *path, char *errbuf)
{
	if (unlink(path) != 0 && errno != ENOENT) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "--ready-file %s: cannot remove it: %s", path,
			 strerror(errno));
		return -DGR_E_SYS;
	}
	return 0;
}

/* See cli.h. */
int dgr_ready_file_write(const char *path, char *errbuf)
{
	char tmp[4096];
	char pid[32];
	int len;
	int fd = -1;
	int rc = -DGR_E_SYS;

	if (snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid()) >= (int)sizeof(tmp)) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "--ready-file: path too long (%zu bytes)",
			 strlen(path));
		return -DGR_E_INVAL;
	}
	len = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "--ready-file %s: %s", path, strerror(errno));
		goto out;
	}
	if (write(fd, pid, (size_t)len) != len) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "--ready-file %s: write: %s", path,
			 strerror(errno));
		goto out;
	}
	if (close(fd) != 0) {
		fd = -1;
		snprintf(errbuf, DGR_ERRBUF_SIZE, "--ready-file %s: close: %s", path,
			 strerror(errno));
		goto out;
	}
	fd = -1;
	/* rename() is atomic: a script that sees the file sees it whole */
	if (rename(tmp, path) != 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "--ready-file %s: %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (fd >= 0) {
		close(fd);
	}
	if (rc < 0) {
		(void)unlink(tmp);
	}
	return rc;
}
