// SPDX-License-Identifier: GPL-2.0-or-later
/* dgrdma-host's clock: CLOCK_MONOTONIC in ns, and sleeping until a time on it (host.h). */
#include <errno.h>
#include <time.h>

#include "host.h"

/* See host.h. */
uint64_t host_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* See host.h. */
void host_sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ull),
			       .tv_nsec = (long)(t % 1000000000ull) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
	}
}
