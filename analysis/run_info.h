/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The run facts latency-report needs from a dgrdma-capture run.json (or the
 * command line): buffer counts, buffer size and stream rate, from which the
 * tolerable latency (N_c + N_p) * S / R follows (docs/protocol.md).
 */
#ifndef DGR_ANALYSIS_RUN_INFO_H
#define DGR_ANALYSIS_RUN_INFO_H

#include <stdbool.h>
#include <stdint.h>

struct run_info {
	uint64_t host_buffers, fpga_buffers, buffer_size; /* 0: unknown */
	uint64_t rate_bytes;				  /* bytes per second; 0: unknown */
	/* how the recorded command ended (dgrdma-capture's "exit_status", "interrupted") */
	bool exit_known;
	int64_t exit_status;
	bool interrupted;
};

/*
 * Reads the numeric keys "host_buffers", "fpga_buffers", "buffer_size",
 * "sample_rate" (samples/s, 4 bytes each) and "rate_bytes" wherever they
 * appear in a JSON file (dgrdma-capture writes "sample_rate" and
 * "fpga_buffers" in run.json's "stream"), else the options --buffers, --fpga-buffers,
 * --buffer-size and --rate of the recorded command (dgrdma-capture's
 * "command" array of dgrdma-host); values already set in *ri are kept (the
 * command line wins). Also how the recorded command ended: "exit_status" and
 * "interrupted" (dgrdma-capture's run.json). Returns 0, or -1 when the file cannot be read.
 */
int run_info_read(const char *path, struct run_info *ri);

/* The same on run.json's text (NUL-terminated); values outside the limits below are ignored. */
void run_info_parse(const char *text, struct run_info *ri);

#define RUN_INFO_MAX_BUFFERS	 65535u
#define RUN_INFO_MAX_BUFFER_SIZE (1024u * 1024 * 1024)
#define RUN_INFO_MAX_RATE	 1e12 /* samples/s */

/*
 * The largest tolerable latency (10^18 ns, 31.7 years): a larger product of the
 * facts (65535 + 65535 buffers of 1 GiB at 4 bytes/s) is taken as this, so
 * sums with capture times and signed margins cannot overflow.
 */
#define RUN_INFO_MAX_TOLERABLE_NS 1000000000000000000ull

/*
 * Tolerable latency in ns, in [1, RUN_INFO_MAX_TOLERABLE_NS], or 0 when
 * something it needs is unknown.
 */
uint64_t run_info_tolerable_ns(const struct run_info *ri);

#endif
