// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Time for the emulator: CLOCK_MONOTONIC (real-time mode) or a virtual clock
 * that advances a fixed tick per loop iteration (deterministic mode), the
 * pacing of sample streams by that clock, and the pacing error: how long
 * samples waited past their due time because production runs in steps.
 */
#include <errno.h>
#include <poll.h>
#include <time.h>

#include <dgrdma/clock.h>

#include "emu.h"

/* See emu.h. */
uint64_t fpga_clock_now(struct fpga_emu *e)
{
	if (e->cfg.virtual_clock) {
		return e->now_ns;
	}
	e->now_ns = dgr_clock_ns(CLOCK_MONOTONIC);
	return e->now_ns;
}

/* See emu.h. */
uint64_t fpga_samples_due(double rate, uint64_t start_ns, uint64_t now_ns)
{
	if (now_ns <= start_ns) {
		return 0;
	}
	/* long double keeps the product exact to well below one sample for days of run time */
	return (uint64_t)((long double)(now_ns - start_ns) * (long double)rate / 1e9L);
}

/* See emu.h. */
uint64_t fpga_sample_due_ns(double rate, uint64_t start_ns, uint64_t k)
{
	return start_ns + (uint64_t)((long double)k * 1e9L / (long double)rate);
}

/*
 * See emu.h. The pacing error of a step is how late its last sample is
 * produced compared with the clock: production happens in steps (a buffer,
 * or what a late wake-up owes), and a step that is late hands its buffer to
 * the wire late, where the hardware would have sent it on time.
 */
void fpga_pacing_step(struct fpga_pacing *pc, double rate, uint64_t start_ns, uint64_t from,
		      uint64_t to, uint64_t now_ns)
{
	uint64_t last_due, late;

	pc->elapsed_ns = now_ns - start_ns;
	pc->expected_samples = fpga_samples_due(rate, start_ns, now_ns);
	pc->error_samples = (int64_t)to - (int64_t)pc->expected_samples;
	if (to <= from) {
		return;
	}
	pc->steps++;
	last_due = fpga_sample_due_ns(rate, start_ns, to - 1);
	late = now_ns > last_due ? now_ns - last_due : 0;
	if (late > pc->late_max_ns) {
		pc->late_max_ns = late;
	}
	pc->late_sum += (double)late;
	pc->late_samples++;
	pc->late_mean_ns = (uint64_t)(pc->late_sum / (double)pc->late_samples);
}

/* See emu.h. */
void fpga_wait(struct fpga_emu *e, uint64_t deadline_ns, bool wake_on_packet)
{
	struct pollfd pfd[2];
	int fds[2];
	unsigned int n = 0;
	uint64_t now;
	struct timespec ts;

	if (e->cfg.virtual_clock) {
		e->now_ns += e->cfg.tick_ns;
		return;
	}
	now = dgr_clock_ns(CLOCK_MONOTONIC);
	if (deadline_ns <= now) {
		return;
	}
	e->pace.waits++;
	if (e->cfg.pacing_busy) {
		return; /* the loop spins: it polls the socket and the clock again */
	}
	if (e->tr && wake_on_packet) {
		n = dgr_transport_fds(e->tr, fds);
	}
	for (unsigned int i = 0; i < n; i++) {
		pfd[i].fd = fds[i];
		pfd[i].events = POLLIN;
		pfd[i].revents = 0;
	}
	ts.tv_sec = (time_t)((deadline_ns - now) / 1000000000ull);
	ts.tv_nsec = (long)((deadline_ns - now) % 1000000000ull);
	if (ppoll(pfd, n, &ts, NULL) < 0 && errno != EINTR) {
		return;
	}
}

/* See emu.h: xorshift64*, seeded by --seed, so fault injection repeats exactly. */
uint64_t fpga_rand(struct fpga_emu *e)
{
	uint64_t x = e->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	e->rng = x;
	return x * 0x2545F4914F6CDD1Dull;
}

/* See emu.h. */
double fpga_rand_unit(struct fpga_emu *e)
{
	return (double)(fpga_rand(e) >> 11) / 9007199254740992.0;
}
