// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dgrdma-host: the tuning guide's test application over libdgrdma.
 *
 *   dgrdma-host rx   receive a stream into the buffer pool, check the ramp, sink it
 *   dgrdma-host tx   send a ramp or a file as fast as credits allow or at a rate
 *   (rx and tx take --peer several times: one connection per remote endpoint)
 *   dgrdma-host perf sweep message sizes (2..32 KiB) tx, rx or both at once, one row per size
 *
 * docs/stack.md describes every option; usage() lists them; host.h lists the files.
 */
#include <stdio.h>
#include <string.h>

#include "dgrdma-version.h"
#include "host.h"
#include "opts.h"

int main(int argc, char **argv)
{
	struct host_cfg cfg;
	char err[DGR_ERRBUF_SIZE] = "";
	char prog[32];
	int rc;

	memset(&cfg, 0, sizeof(cfg));
	dgr_conn_opts_init(&cfg.co);
	cfg.max_drop_rate = -1;
	cfg.idle_timeout_ns = 5000000000ull;
	cfg.perf_direction = DGR_DIR_TX;
	cfg.perf_worker = DGR_WORKER_PERFTEST; /* docs/fpga.md section 4 */
	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		host_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? DGR_EXIT_USAGE : DGR_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("dgrdma-host (dgrdma-tools) %s\n", DGR_VERSION);
		return DGR_EXIT_OK;
	}
	if (strcmp(argv[1], "--list-options") == 0) {
		dgr_opts_list_argv(&host_options, argc, argv, stdout);
		return DGR_EXIT_OK;
	}
	cfg.mode = argv[1];
	if (strcmp(cfg.mode, "rx") == 0) {
		cfg.co.direction = DGR_DIR_RX;
	} else if (strcmp(cfg.mode, "tx") == 0 || strcmp(cfg.mode, "perf") == 0) {
		cfg.co.direction = DGR_DIR_TX;
	} else {
		fprintf(stderr, "dgrdma-host: '%s' is not a mode: rx, tx or perf\n", cfg.mode);
		return DGR_EXIT_USAGE;
	}
	/* getopt's own messages (an unknown option, a missing value) name the mode */
	snprintf(prog, sizeof(prog), "dgrdma-host %s", cfg.mode);
	argv[1] = prog;
	rc = host_parse_args(argc - 1, argv + 1, &cfg, err);
	if (rc < 0) {
		fprintf(stderr, "dgrdma-host: %s\n", err);
		return DGR_EXIT_USAGE;
	}
	if (rc == DGR_OPTS_STOP) {
		if (cfg.stop == 'h') {
			host_usage(stdout);
		} else if (cfg.stop == OPT_VERSION) {
			printf("dgrdma-host (dgrdma-tools) %s\n", DGR_VERSION);
		} else {
			dgr_opts_list_argv(&host_options, argc, argv, stdout);
		}
		return DGR_EXIT_OK;
	}
	if (host_acks_notice(&cfg)) {
		fprintf(stderr, "dgrdma-host: note: %s\n", host_acks_notice(&cfg));
	}
	host_catch_signals();
	if (strcmp(cfg.mode, "perf") == 0) {
		return host_run_perf(&cfg);
	}
	return host_run_stream(&cfg);
}
