/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPSC ring allocation, futex events and the clock (ring.h). */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <dgrdma/clock.h>
#include <dgrdma/wire.h>

#include "ring.h"

/* Returns 0, -DGR_E_INVAL (cap 0 or too large) or -DGR_E_NOMEM. */
int dgr_spsc_init(struct dgr_spsc *r, uint32_t cap, uint32_t elem)
{
	uint32_t c = 1;

	if (cap == 0 || cap > (1u << 24) || elem == 0) {
		return -DGR_E_INVAL;
	}
	while (c < cap) {
		c <<= 1;
	}
	memset(r, 0, sizeof(*r));
	r->slots = calloc(c, elem);
	if (!r->slots) {
		return -DGR_E_NOMEM;
	}
	r->elem = elem;
	r->mask = c - 1;
	return 0;
}

/* Frees the slots (the ring may be zeroed memory). */
void dgr_spsc_free(struct dgr_spsc *r)
{
	free(r->slots);
	r->slots = NULL;
}

static long futex(uint32_t *addr, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, addr, op, val, ts, NULL, 0);
}

/* Wakes all sleepers when there are any. */
void dgr_event_notify(struct dgr_event *ev)
{
	__atomic_add_fetch(&ev->seq, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&ev->sleepers, __ATOMIC_SEQ_CST)) {
		futex(&ev->seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
	}
}

/* Sleeps while seq == seen, at most timeout_ns (0: no limit). */
void dgr_event_wait(struct dgr_event *ev, uint32_t seen, uint64_t timeout_ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(timeout_ns / 1000000000ull);
	ts.tv_nsec = (long)(timeout_ns % 1000000000ull);
	if (__atomic_load_n(&ev->seq, __ATOMIC_SEQ_CST) == seen) {
		futex(&ev->seq, FUTEX_WAIT_PRIVATE, seen, timeout_ns ? &ts : NULL);
	}
	__atomic_sub_fetch(&ev->sleepers, 1, __ATOMIC_SEQ_CST);
}

/* Returns CLOCK_MONOTONIC in nanoseconds. */
uint64_t dgr_now_ns(void)
{
	return dgr_clock_ns(CLOCK_MONOTONIC);
}
