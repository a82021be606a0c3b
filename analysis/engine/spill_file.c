// SPDX-License-Identifier: GPL-2.0-or-later
/* The temporary file of bounded structures (see spill_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <dgrdma/wire.h>

#include "spill_file.h"

int spill_file_open(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int n = snprintf(path, sizeof(path), "%s/latency-report-spill-XXXXXX",
			 dir && *dir ? dir : "/tmp");
	int fd;

	if (n < 0 || (size_t)n >= sizeof(path)) {
		return -DGR_E_SYS;
	}
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		return -DGR_E_SYS;
	}
	unlink(path);
	return fd;
}

int spill_file_append(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR) {
			continue;
		}
		if (w <= 0) {
			return -DGR_E_SYS;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int spill_file_read(int fd, uint64_t off, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, (char *)buf + got, n - got, (off_t)(off + got));

		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r <= 0) {
			return r < 0 ? -errno : -EIO;
		}
		got += (size_t)r;
	}
	return 0;
}
