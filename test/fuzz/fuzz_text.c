// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the command-line values every tool parses: numbers,
 * durations and rates (stack/cli/cli.h), --sched and --cpu
 * (stack/cli/sched_opts.c), a MAC and an IPv4 address with its port
 * (dgrdma/transport.h). The input is taken as one NUL-terminated string for
 * each. An accepted CPU list names a CPU and an accepted address is IPv4
 * (__builtin_trap otherwise).
 * run.json has its own harness (fuzz_run_json.c).
 */
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/host.h>
#include <dgrdma/transport.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[DGR_ERRBUF_SIZE];
	char *s = malloc(size + 1);
	uint64_t u;
	int64_t i;
	double d;
	struct dgr_sched sc;
	uint64_t mask = 0;
	uint8_t mac[6];
	struct sockaddr_in sa;

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
	(void)dgr_parse_sched("--sched", s, &sc, err);
	if (dgr_parse_cpulist("--cpu", s, &mask, err) == 0 && mask == 0) {
		__builtin_trap(); /* an accepted list names a CPU */
	}
	(void)dgr_parse_mac(s, mac);
	if (dgr_parse_inet(s, 18078, &sa) == 0 && sa.sin_family != AF_INET) {
		__builtin_trap();
	}
	free(s);
	return 0;
}
