// SPDX-License-Identifier: GPL-2.0-or-later
/* run.json facts (see run_info.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/cli.h>

#include "run_info.h"

/* Finds "key" : number in text; returns 1 and sets *v when found. */
static int find_number(const char *text, const char *key, double *v)
{
	char pat[64];
	const char *p = text;

	snprintf(pat, sizeof(pat), "\"%s\"", key);
	while ((p = strstr(p, pat)) != NULL) {
		char *end;
		double x;

		p += strlen(pat);
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			p++;
		}
		if (*p != ':') {
			continue;
		}
		p++;
		x = strtod(p, &end);
		if (end != p) {
			*v = x;
			return 1;
		}
	}
	return 0;
}

/*
 * Finds "OPT", "VALUE" or "OPT=VALUE" in text (elements of run.json's
 * "command" array, as getopt_long takes them) and copies VALUE into val;
 * returns 1 when found.
 */
static int find_cli_value(const char *text, const char *opt, char *val, size_t len)
{
	char pat[64];
	const char *p;
	const char *close;

	snprintf(pat, sizeof(pat), "\"%s=", opt);
	p = strstr(text, pat);
	if (p) {
		p += strlen(pat);
	} else {
		snprintf(pat, sizeof(pat), "\"%s\"", opt);
		p = strstr(text, pat);
		if (!p) {
			return 0;
		}
		p += strlen(pat);
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ',') {
			p++;
		}
		if (*p != '"') {
			return 0;
		}
		p++;
	}
	close = strchr(p, '"');
	if (!close || (size_t)(close - p) >= len) {
		return 0;
	}
	memcpy(val, p, (size_t)(close - p));
	val[close - p] = '\0';
	return 1;
}

/*
 * The value of a size or count option of the recorded command, read as
 * dgrdma-host reads it (so "32K" is 32768); 0 when absent or not valid.
 */
static uint64_t cli_size(const char *text, const char *opt, uint64_t max)
{
	char val[64];
	uint64_t v;

	if (!find_cli_value(text, opt, val, sizeof(val)) ||
	    dgr_parse_u64(opt, val, 1, max, true, &v, NULL) < 0) {
		return 0;
	}
	return v;
}

/* The recorded command's --rate in samples/s ("200e6", "200M"); 0 when absent or not valid. */
static double cli_rate(const char *text)
{
	char val[64];
	double v;

	if (!find_cli_value(text, "--rate", val, sizeof(val)) ||
	    dgr_parse_rate("--rate", val, 1, RUN_INFO_MAX_RATE, &v, NULL) < 0) {
		return 0;
	}
	return v;
}

/*
 * Sets *field from key's number times scale when the field is still unknown
 * and the number is in (0, max]: anything else (a negative count, 1e300)
 * leaves it unknown.
 */
static void take_key(uint64_t *field, const char *text, const char *key, double scale, double max)
{
	double v;

	if (*field == 0 && find_number(text, key, &v) && v > 0 && v <= max) {
		*field = (uint64_t)(v * scale);
	}
}

void run_info_parse(const char *text, struct run_info *ri)
{
	double v;

	if (!ri->exit_known && find_number(text, "exit_status", &v) && v >= -1e9 && v <= 1e9) {
		ri->exit_known = true;
		ri->exit_status = (int64_t)v;
	}
	ri->interrupted = ri->interrupted || strstr(text, "\"interrupted\": true") != NULL;
	/* keys first (dgrdma-capture's "stream", a summary), then the recorded command */
	take_key(&ri->host_buffers, text, "host_buffers", 1, RUN_INFO_MAX_BUFFERS);
	take_key(&ri->fpga_buffers, text, "fpga_buffers", 1, RUN_INFO_MAX_BUFFERS);
	take_key(&ri->buffer_size, text, "buffer_size", 1, RUN_INFO_MAX_BUFFER_SIZE);
	take_key(&ri->rate_bytes, text, "rate_bytes", 1, RUN_INFO_MAX_RATE * 4);
	take_key(&ri->rate_bytes, text, "sample_rate", 4, RUN_INFO_MAX_RATE);
	if (!ri->host_buffers) {
		ri->host_buffers = cli_size(text, "--buffers", RUN_INFO_MAX_BUFFERS);
	}
	if (!ri->fpga_buffers) {
		ri->fpga_buffers = cli_size(text, "--fpga-buffers", RUN_INFO_MAX_BUFFERS);
	}
	if (!ri->buffer_size) {
		ri->buffer_size = cli_size(text, "--buffer-size", RUN_INFO_MAX_BUFFER_SIZE);
	}
	if (!ri->rate_bytes) {
		ri->rate_bytes = (uint64_t)(cli_rate(text) * 4);
	}
}

int run_info_read(const char *path, struct run_info *ri)
{
	FILE *fp = fopen(path, "r");
	char *text = NULL;
	size_t n = 0, cap = 0;
	int ret = 0;

	if (!fp) {
		return -1;
	}
	for (;;) {
		char *t;
		size_t got;

		if (cap - n < 4097) {
			cap = cap ? cap * 2 : 8192;
			if (cap > (64u << 20)) {
				ret = -1;
				goto end;
			}
			t = realloc(text, cap);
			if (!t) {
				ret = -1;
				goto end;
			}
			text = t;
		}
		got = fread(text + n, 1, cap - n - 1, fp);
		n += got;
		if (got == 0) {
			break;
		}
	}
	text[n] = '\0';
	run_info_parse(text, ri);
end:
	free(text);
	fclose(fp);
	return ret;
}

uint64_t run_info_tolerable_ns(const struct run_info *ri)
{
	double ns;

	if (!ri->host_buffers || !ri->buffer_size || !ri->rate_bytes) {
		return 0;
	}
	ns = (double)(ri->host_buffers + ri->fpga_buffers) * (double)ri->buffer_size * 1e9 /
	     (double)ri->rate_bytes;
	/* past the cap (casting it would be undefined), or below 1 ns (0 would read as unknown) */
	if (!(ns < (double)RUN_INFO_MAX_TOLERABLE_NS)) {
		return RUN_INFO_MAX_TOLERABLE_NS;
	}
	return ns < 1.0 ? 1 : (uint64_t)ns;
}
