// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the command-line numbers every tool parses
 * (stack/cli/cli.h). The input is taken as one NUL-terminated string for each.
 * run.json has its own harness (fuzz_run_json.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[DGR_ERRBUF_SIZE];
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
	free(s);
	return 0;
}
