// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the text the tools parse: command-line numbers
 * (dgrdma/cli.h, every tool's options) and the run facts latency-report
 * reads from a run folder's run.json (analysis/run_info.c). The input is
 * taken as one NUL-terminated string for each.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/cli.h>

#include "run_info.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[DGR_ERRBUF_SIZE];
	struct run_info ri;
	char *s = malloc(size + 1);
	uint64_t u;
	int64_t i;
	double d;

	if (!s) {
		return 0;
	}
	memcpy(s, data, size);
	s[size] = '\0';
	(void)dgr_parse_u64("--n", s, 0, UINT64_MAX, true, &u, err);
	(void)dgr_parse_u64("--n", s, 1, 255, false, &u, NULL);
	(void)dgr_parse_i64("--n", s, INT64_MIN, INT64_MAX, &i, err);
	(void)dgr_parse_seconds("--n", s, 31536000, &u, err);
	(void)dgr_parse_rate("--n", s, 0, 1e11, &d, err);
	(void)dgr_parse_f64("--n", s, -1e18, 1e18, &d, err);
	(void)dgr_parse_f64("--n", s, 0, 1, &d, NULL);
	memset(&ri, 0, sizeof(ri));
	run_info_parse(s, &ri);
	(void)run_info_tolerable_ns(&ri);
	free(s);
	return 0;
}
