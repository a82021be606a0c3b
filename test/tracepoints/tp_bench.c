// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tp-bench: cost of one dgrdma:frame_rx (or dgrdma:doorbell_sent) tracepoint. Times a loop of
 * N iterations, each a few integer operations (the arguments) and one DGR_TP(); the median of R
 * repetitions is printed.
 * Built twice: normally (tp-bench) and with -DDGR_NO_TRACE (tp-bench-notrace), so that
 * test/tracepoints/bench-tracepoints.sh can compare compiled out / compiled in but not
 * enabled / enabled in one run.
 *
 *	tp-bench [--iterations N] [--repeat R] [--event frame_rx|doorbell_sent]
 * Output, one line: compiled=0|1 enabled=0|1 iterations=N ns_per_iter=X
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dgrdma-tp.h"

#ifdef DGR_NO_TRACE
#define COMPILED_IN 0
#else
#define COMPILED_IN 1
#endif

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/* The same loop around doorbell_sent (seven fields, latency_ns last). */
static uint64_t run_doorbell_loop(uint64_t iterations, uint64_t *sink)
{
	uint64_t start = now_ns(), i, acc = *sink;

	for (i = 0; i < iterations; i++) {
		uint16_t seq = (uint16_t)(acc + i);
		uint32_t txn = (uint32_t)(i & 0xFFFFFF);

		DGR_TP(doorbell_sent, 7, (uint16_t)(i & 7), txn, (uint32_t)(0xF000 + (i & 7) * 4),
		       seq, (uint32_t)(900 + (i & 63)), 20000 + (acc & 1023),
		       &(struct dgr_tp_bell_sides){ .since_release_ns = 3000 + (i & 255),
						    .held_ns = 1500 + (acc & 255),
						    .consumer_tid = 4242,
						    .since_complete_ns = 9000 + (i & 1023) });
		acc = acc * 31 + txn;
		__asm__ volatile("" : "+r"(acc) : : "memory");
	}
	*sink = acc;
	return now_ns() - start;
}

/* Returns the loop's duration in ns; *sink keeps the work from being optimised away. */
static uint64_t run_loop(uint64_t iterations, uint64_t *sink)
{
	uint64_t start = now_ns(), i, acc = *sink;

	for (i = 0; i < iterations; i++) {
		uint16_t seq = (uint16_t)(acc + i);
		uint32_t bytes = (uint32_t)(8000 + (i & 63));

		DGR_TP(frame_rx, 7, seq, bytes, 3, (uint16_t)(seq - 8), (uint8_t)(i & 7));
		acc = acc * 31 + bytes;
		__asm__ volatile("" : "+r"(acc) : : "memory");
	}
	*sink = acc;
	return now_ns() - start;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Parses a decimal in [min, max] for option opt; returns 0 or -1 (message on stderr). */
static int parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || end == s || s[0] == '-' || v < min || v > max) {
		fprintf(stderr, "tp-bench: %s: '%s' is not an integer in [%llu, %llu]\n", opt, s,
			(unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t iterations = 10000000, repeat = 5, sink = 1, r;
	uint64_t times[101];
	uint64_t (*loop)(uint64_t, uint64_t *) = run_loop;
	bool doorbell = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--iterations") && i + 1 < argc) {
			if (parse_u64("--iterations", argv[++i], 1, UINT64_C(10000000000),
				      &iterations)) {
				return 2;
			}
		} else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
			if (parse_u64("--repeat", argv[++i], 1, 101, &repeat)) {
				return 2;
			}
		} else if (!strcmp(argv[i], "--event") && i + 1 < argc &&
			   (!strcmp(argv[i + 1], "frame_rx") ||
			    !strcmp(argv[i + 1], "doorbell_sent"))) {
			doorbell = !strcmp(argv[++i], "doorbell_sent");
			loop = doorbell ? run_doorbell_loop : run_loop;
		} else {
			fprintf(stderr, "usage: tp-bench [--iterations 1..1e10] [--repeat 1..101] "
					"[--event frame_rx|doorbell_sent]\n");
			return 2;
		}
	}
	loop(iterations / 10 + 1, &sink); /* warm-up */
	for (r = 0; r < repeat; r++) {
		times[r] = loop(iterations, &sink);
	}
	qsort(times, repeat, sizeof(times[0]), cmp_u64);
	printf("compiled=%d enabled=%d iterations=%llu ns_per_iter=%.3f sink=%llu\n", COMPILED_IN,
	       (doorbell ? DGR_TP_ENABLED(doorbell_sent) : DGR_TP_ENABLED(frame_rx)) ? 1 : 0,
	       (unsigned long long)iterations, (double)times[repeat / 2] / (double)iterations,
	       (unsigned long long)(sink & 1));
	return 0;
}
