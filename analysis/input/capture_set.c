// SPDX-License-Identifier: GPL-2.0-or-later
/* The capture files latency-report reads as one capture (see capture_set.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <dgrdma/wire.h>

#include "cli.h"
#include "capture_set.h"
#include "pcap_input.h"

#define READ_BUFFER (256 * 1024) /* bytes read at once from a file or through zlib */

static char read_buffer[READ_BUFFER]; /* the plain file open (open_capture()) */

static bool is_stdin(const char *path)
{
	return !strcmp(path, "-");
}

/* True when the 4 bytes at m are a pcap or pcapng magic number. */
static bool capture_magic(const uint8_t *m)
{
	static const uint32_t magics[] = { 0xA1B2C3D4, 0xD4C3B2A1, 0xA1B23C4D, 0x4D3CB2A1,
					   0x0A0D0D0A };
	uint32_t v = (uint32_t)m[0] << 24 | (uint32_t)m[1] << 16 | (uint32_t)m[2] << 8 | m[3];
	unsigned int i;

	for (i = 0; i < sizeof(magics) / sizeof(magics[0]); i++) {
		if (v == magics[i]) {
			return true;
		}
	}
	return false;
}

bool capture_set_is_capture(const char *path)
{
	uint8_t m[4];
	struct stat st;
	gzFile gz;
	bool yes;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
		return false;
	}
	/* zlib reads a file that is not gzip as it is */
	gz = gzopen(path, "rb");
	if (!gz) {
		return false;
	}
	yes = gzread(gz, m, sizeof(m)) == (int)sizeof(m) && capture_magic(m);
	gzclose(gz);
	return yes;
}

/* A FILE* reading through zlib (fopencookie), for libpcap's pcap_fopen_offline(). */
static ssize_t gz_cookie_read(void *cookie, char *buf, size_t size)
{
	int n = gzread((gzFile)cookie, buf, size > INT32_MAX ? INT32_MAX : (unsigned int)size);

	return n < 0 ? -1 : n;
}

static int gz_cookie_close(void *cookie)
{
	return gzclose((gzFile)cookie) == Z_OK ? 0 : EOF;
}

/* Whether the file starts with gzip's magic number (1f 8b). */
static bool gzip_file(const char *path)
{
	uint8_t m[2];
	FILE *fp = fopen(path, "rb");
	bool yes;

	if (!fp) {
		return false;
	}
	yes = fread(m, 1, 2, fp) == 2 && m[0] == 0x1F && m[1] == 0x8B;
	fclose(fp);
	return yes;
}

/*
 * Opens one file of the set with nanosecond timestamps; *size is its length
 * for the progress line (-1: standard input or compressed). Returns NULL with
 * errbuf filled.
 */
static pcap_t *open_capture(const char *path, long long *size, char *errbuf)
{
	static const cookie_io_functions_t gz_io = { .read = gz_cookie_read,
						     .close = gz_cookie_close };
	char perr[PCAP_ERRBUF_SIZE];
	struct stat st;
	pcap_t *pc;
	gzFile gz;
	FILE *fp;

	*size = -1;
	if (!is_stdin(path) && !gzip_file(path)) {
		*size = stat(path, &st) == 0 ? (long long)st.st_size : -1;
		fp = fopen(path, "rb");
		if (!fp) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "%.100s: %s", path, strerror(errno));
			return NULL;
		}
		/*
		 * stdio's 4 KiB buffer costs a read() per frame or two: 2-3x slower
		 * (docs/performance.md). One file is open at a time: one buffer.
		 */
		(void)setvbuf(fp, read_buffer, _IOFBF, sizeof(read_buffer));
		pc = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, perr);
		if (!pc) {
			fclose(fp);
			snprintf(errbuf, DGR_ERRBUF_SIZE, "%.100s: %.140s", path, perr);
		}
		return pc;
	}
	if (is_stdin(path)) {
		int fd = dup(STDIN_FILENO);

		gz = fd < 0 ? NULL : gzdopen(fd, "rb");
		if (!gz && fd >= 0) {
			close(fd);
		}
	} else {
		gz = gzopen(path, "rb");
	}
	if (!gz) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.100s: %s", is_stdin(path) ? "stdin" : path,
			 strerror(errno ? errno : ENOMEM));
		return NULL;
	}
	(void)gzbuffer(gz, READ_BUFFER);
	fp = fopencookie(gz, "rb", gz_io);
	if (!fp) {
		gzclose(gz);
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.100s: out of memory", path);
		return NULL;
	}
	pc = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, perr);
	if (!pc) {
		fclose(fp);
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.100s: %.140s", is_stdin(path) ? "stdin" : path,
			 perr);
	}
	return pc;
}

int capture_set_add(struct capture_set *cs, const char *path, char *errbuf)
{
	struct capture_file *f;

	if (cs->n == cs->cap) {
		unsigned int cap = cs->cap ? 2 * cs->cap : 16;

		f = realloc(cs->files, cap * sizeof(*f));
		if (!f) {
			return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
		}
		cs->files = f;
		cs->cap = cap;
	}
	f = &cs->files[cs->n];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	cs->n++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int capture_set_add_dir(struct capture_set *cs, const char *dir, char *errbuf)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	unsigned int n = 0, cap = 0, i;
	int ret = 0;

	if (!d) {
		return dgr_errbuf_set(errbuf, DGR_E_SYS, "%s: %s", dir, strerror(errno));
	}
	while ((e = readdir(d))) {
		char *path;

		if (e->d_name[0] == '.') {
			continue;
		}
		if (asprintf(&path, "%s/%s", dir, e->d_name) < 0) {
			ret = dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
			goto out;
		}
		if (!capture_set_is_capture(path)) {
			free(path);
			continue;
		}
		if (n == cap) {
			char **more = realloc(names, (cap ? 2 * cap : 16) * sizeof(*names));

			if (!more) {
				free(path);
				ret = dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
				goto out;
			}
			names = more;
			cap = cap ? 2 * cap : 16;
		}
		names[n++] = path;
	}
	/* a stable order for files whose first frames have the same time */
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		ret = capture_set_add(cs, names[i], errbuf);
		if (ret < 0) {
			goto out;
		}
	}
	ret = (int)n;
out:
	for (i = 0; i < n; i++) {
		free(names[i]);
	}
	free(names);
	closedir(d);
	return ret;
}

/* The time of f's first frame (f->empty when it has none). Returns 0 or -DGR_E_*. */
static int first_time(struct capture_file *f, char *errbuf)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	long long size;
	pcap_t *pc = open_capture(f->path, &size, errbuf);
	int rc;

	if (!pc) {
		return -DGR_E_SYS;
	}
	rc = pcap_next_ex(pc, &h, &data);
	f->empty = rc != 1;
	if (rc == 1) {
		f->first_ns = (uint64_t)h->ts.tv_sec * 1000000000ull + (uint64_t)h->ts.tv_usec;
	}
	pcap_close(pc);
	return 0;
}

static int by_first_time(const void *a, const void *b)
{
	const struct capture_file *x = a, *y = b;

	if (x->first_ns != y->first_ns) {
		return x->first_ns < y->first_ns ? -1 : 1;
	}
	return 0;
}

int capture_set_read(struct capture_set *cs, struct wire_analysis *w, bool progress, char *errbuf)
{
	char err[DGR_ERRBUF_SIZE];
	uint64_t ref = 0, prev_last = 0;
	const char *prev = NULL;
	unsigned int i;
	int rc, ret = 0;

	for (i = 0; i < cs->n; i++) {
		if (is_stdin(cs->files[i].path) && cs->n > 1) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "standard input (-) must be the only capture (got "
					      "%u)",
					      cs->n);
		}
	}
	if (cs->n > 1) {
		for (i = 0; i < cs->n; i++) {
			rc = first_time(&cs->files[i], errbuf);
			if (rc < 0) {
				return rc;
			}
		}
		/* stable for equal times: qsort is not, so only distinct times move */
		for (i = 1; i < cs->n; i++) {
			unsigned int j = i;

			while (j > 0 && by_first_time(&cs->files[j - 1], &cs->files[j]) > 0) {
				struct capture_file t = cs->files[j];

				cs->files[j] = cs->files[j - 1];
				cs->files[j - 1] = t;
				j--;
			}
		}
	}
	for (i = 0; i < cs->n; i++) {
		struct capture_file *f = &cs->files[i];
		long long size;
		pcap_t *pc;

		if (cs->n > 1 && f->empty) {
			continue; /* nothing to read, nothing to order */
		}
		if (prev && f->first_ns < prev_last) {
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL,
			    "%.100s starts (%" PRIu64 ".%09" PRIu64 " s) before the last frame of "
			    "%.100s (%" PRIu64 ".%09" PRIu64 " s): not one capture cut into files "
			    "(merge them first: mergecap -w OUT FILE...)",
			    f->path, f->first_ns / 1000000000u, f->first_ns % 1000000000u, prev,
			    prev_last / 1000000000u, prev_last % 1000000000u);
		}
		pc = open_capture(f->path, &size, errbuf);
		if (!pc) {
			return -DGR_E_SYS;
		}
		rc = pcap_input_read_pcap(pc, is_stdin(f->path) ? "stdin" : f->path, size, w,
					  progress, &ref, err);
		pcap_close(pc);
		if (rc < 0) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "%s", err);
			return rc;
		}
		if (rc == PCAP_INPUT_PARTIAL && ret == 0) {
			/* the first one is reported; later files are still read */
			snprintf(errbuf, DGR_ERRBUF_SIZE, "%s", err);
			ret = PCAP_INPUT_PARTIAL;
		}
		prev = f->path;
		prev_last = w->last_ts;
	}
	return ret;
}

void capture_set_free(struct capture_set *cs)
{
	unsigned int i;

	for (i = 0; i < cs->n; i++) {
		free(cs->files[i].path);
	}
	free(cs->files);
	memset(cs, 0, sizeof(*cs));
}
