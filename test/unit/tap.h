/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Minimal TAP producer for the C unit tests. test/run-suites.sh counts the
 * "ok"/"not ok" lines; a test binary returns tap_done() from main.
 */
#ifndef DGR_TEST_TAP_H
#define DGR_TEST_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_count;
static int tap_failures;

__attribute__((format(printf, 2, 3))) static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond) {
		tap_failures++;
	}
	fflush(stdout);
	return cond;
}

__attribute__((format(printf, 1, 2))) static inline void tap_skip(const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	printf("ok %d - skipped # SKIP ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

__attribute__((format(printf, 1, 2))) static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failures ? 1 : 0;
}

/* Equality checks that print both values when they differ. */
#define TAP_EQ_U(got, want, ...)                                                                   \
	do {                                                                                       \
		uint64_t tap_g_ = (uint64_t)(got), tap_w_ = (uint64_t)(want);                      \
		if (!tap_ok(tap_g_ == tap_w_, __VA_ARGS__)) {                                      \
			tap_diag("  got %" PRIu64 " (0x%" PRIx64 "), want %" PRIu64 " (0x%" PRIx64 \
				 ")",                                                              \
				 tap_g_, tap_g_, tap_w_, tap_w_);                                  \
		}                                                                                  \
	} while (0)

#define TAP_EQ_I(got, want, ...)                                                                   \
	do {                                                                                       \
		int64_t tap_g_ = (int64_t)(got), tap_w_ = (int64_t)(want);                         \
		if (!tap_ok(tap_g_ == tap_w_, __VA_ARGS__)) {                                      \
			tap_diag("  got %" PRId64 ", want %" PRId64, tap_g_, tap_w_);              \
		}                                                                                  \
	} while (0)

#define TAP_EQ_S(got, want, ...)                                                                   \
	do {                                                                                       \
		const char *tap_g_ = (got), *tap_w_ = (want);                                      \
		if (!tap_ok(strcmp(tap_g_, tap_w_) == 0, __VA_ARGS__)) {                           \
			tap_diag("  got '%s', want '%s'", tap_g_, tap_w_);                         \
		}                                                                                  \
	} while (0)

#endif
