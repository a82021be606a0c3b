// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the threads of a host without UST events (analysis/verdict/wire_threads.c)
 * and of its stalls from the wire (sc_add_wire_bell), on small synthetic sequences.
 */
#include <string.h>

#include "kernel_sched.h"
#include "stall_cause.h"
#include "wire_threads.h"
#include "../unit/tap.h"

#define US 1000ull
#define MS 1000000ull

static struct kernel_sched k;
static struct wire_threads wt;

static void fresh(void)
{
	ks_free(&k);
	ks_init(&k);
	wt_free(&wt);
	wt_init(&wt);
}

static void net(uint64_t ts, uint8_t dir, int32_t pid, uint32_t len, const char *dev)
{
	struct ks_net e = { .ts = ts, .dir = dir, .pid = pid, .len = len };

	e.dev = dev ? ks_intern(&k, dev) : 0;
	ks_add_net(&k, &e);
}

static void sw(uint64_t ts, int32_t prev, int64_t state, int16_t prev_prio, int32_t next,
	       const char *next_comm, int16_t next_prio)
{
	struct ks_event e = { .ts = ts,
			      .kind = KS_SWITCH,
			      .pid = prev,
			      .next_pid = next,
			      .arg = state,
			      .prev_prio = prev_prio,
			      .next_prio = next_prio };

	e.name = ks_intern(&k, next_comm);
	ks_add(&k, &e);
}

/*
 * Ten doorbell frames 10 ms apart, 60 bytes; the host (pid 100, seen as tid 7) sent each 3 us
 * after the capture's time; the emulator (pid 200) sent a 1500-byte frame 1 us after each;
 * another thread (pid 300) a 60-byte frame 400 us before each. The first `copies` data frames
 * (arrival 500 us before their doorbell) were copied to user space by the host 100 us before
 * its doorbell; another process (pid 400) copies 2 ms after each doorbell, outside the windows.
 */
static void ten_bells(uint32_t frame_len, unsigned int copies)
{
	unsigned int i;

	ks_map_pid(&k, 100, 7);
	sw(0, 0, 0, 120, 100, "ocpi-host", 120);
	for (i = 0; i < 10; i++) {
		uint64_t t = 20 * MS + i * 10 * MS;

		net(t - 400 * US, KS_NET_TX, 300, 60, "eth0");
		if (i < copies) {
			net(t - 100 * US, KS_NET_RX_COPY, 100, 8192, NULL);
		}
		net(t + 1 * US, KS_NET_TX, 200, 1500, "veth1");
		net(t + 3 * US, KS_NET_TX, 100, 60, "veth0");
		net(t + 2 * MS, KS_NET_RX_COPY, 400, 100, NULL);
		wt_add_bell(&wt, t - 500 * US, t, frame_len);
	}
}

static void test_sender(void)
{
	fresh();
	ten_bells(60, 0);
	TAP_EQ_I(wt_find(&wt, &k), 0, "wt_find returns 0");
	tap_ok(wt.sender.found, "the sender is found");
	TAP_EQ_I(wt.sender.pid, 100,
		 "the sender: the thread whose 60-byte sends fall on the doorbells");
	TAP_EQ_I(wt.sender.tid, 7, "its tid as the recorder saw it (perf_tid)");
	TAP_EQ_U(wt.sender.matched, 10, "it matched all ten doorbells");
	TAP_EQ_U(wt.sender.runner_up, 0, "the other 60-byte sender, farther, matched none");
	tap_ok(!strcmp(ks_name(&k, wt.sender.dev), "veth0"), "the device of its sends");
	TAP_EQ_I(wt.offset_ns, -3000, "the clocks' offset: capture - kernel, the median");
	TAP_EQ_U(wt.tx_events, 30, "every send counted");
	TAP_EQ_U(k.unordered, 0, "the events were in time order");

	tap_ok(!wt.clocks_apart, "the kernel trace and the capture overlap");

	/* a capture on the epoch, a kernel trace from boot: apart, nothing found */
	fresh();
	sw(0, 0, 0, 120, 100, "ocpi-host", 120);
	net(20 * MS + 3 * US, KS_NET_TX, 100, 60, "veth0");
	wt_add_bell(&wt, 1796000000ull * 1000000000ull, 1796000000ull * 1000000000ull + 20 * US,
		    60);
	wt_find(&wt, &k);
	tap_ok(wt.clocks_apart && !wt.sender.found,
	       "a kernel trace from boot: clocks apart, no sender");

	/* without the frame's length the nearest send of any length counts: the emulator's */
	fresh();
	ten_bells(0, 0);
	wt_find(&wt, &k);
	TAP_EQ_I(wt.sender.pid, 200, "without a length, the nearest send in time wins");
}

static void test_receiver(unsigned int copies, bool found)
{
	fresh();
	ten_bells(60, copies);
	wt_find(&wt, &k);
	if (!copies) {
		tap_ok(!wt.receiver.found && wt.receiver.runner_up == 0,
		       "no copy in any window: no receiver, no candidate");
		return;
	}
	tap_ok(wt.receiver.found == found,
	       found ? "a thread that copied in more than half the windows is the receiver"
		     : "a thread that copied in half the windows or fewer is not");
	TAP_EQ_U(wt.receiver.matched, copies, "the windows it copied in");
	if (found) {
		/* the copy is at t - 100 us on the kernel's axis: capture time + 3 us - 3 us */
		TAP_EQ_U(wt.copy_ts[0], 20 * MS - 100 * US, "the first bell's copy time");
		TAP_EQ_U(wt.copy_ts[9], 0, "a window without its copy: none");
		TAP_EQ_U(wt.rx_copy_events, copies + 10, "every copy counted");
	}
}

/*
 * Ten bells as ten_bells' (arrival 500 us before the doorbell frame), the host's sends 3 us
 * after the capture's time except the first, 1 us after (offset -3 us, spread 2 us: the
 * windows start 12 us before the arrival); the host copies each of the first six data frames
 * at the arrival + copy_at on the kernel's axis (negative: before it, as a host already awake
 * reading the last frame of a burst is, by less than the capture's tap-to-xmit time).
 */
static void bells_with_copy(int64_t copy_at)
{
	unsigned int i;

	ks_map_pid(&k, 100, 7);
	sw(0, 0, 0, 120, 100, "ocpi-host", 120);
	for (i = 0; i < 10; i++) {
		uint64_t t = 20 * MS + i * 10 * MS, arrival_k = t - 500 * US + 3 * US;

		if (i < 6) {
			net((uint64_t)((int64_t)arrival_k + copy_at), KS_NET_RX_COPY, 100, 1500,
			    NULL);
		}
		net(t + (i ? 3 : 1) * US, KS_NET_TX, 100, 60, "veth0");
		wt_add_bell(&wt, t - 500 * US, t, 60);
	}
}

static void test_receiver_slack(void)
{
	fresh();
	bells_with_copy(-2000);
	wt_find(&wt, &k);
	TAP_EQ_I(wt.offset_ns, -3000, "slack: the median offset");
	TAP_EQ_U(wt.rx_slack_ns, 12 * US, "the windows' slack: 10 us and the sends' 2 us spread");
	tap_ok(wt.receiver.found && wt.receiver.matched == 6,
	       "copies 2 us before the arrival the median offset gives: the receiver is found");
	TAP_EQ_U(wt.copy_ts[0], 20 * MS - 500 * US + 1 * US,
		 "its copy in the slack is the bell's copy (the last one before the arrival)");

	fresh();
	bells_with_copy(-12000);
	wt_find(&wt, &k);
	tap_ok(wt.receiver.found, "a copy at the slack's start is in the window");
	fresh();
	bells_with_copy(-12001);
	wt_find(&wt, &k);
	tap_ok(!wt.receiver.found && wt.receiver.matched == 0,
	       "a copy 1 ns before the slack's start is not: no receiver");
}

/*
 * A step of the real-time clock in the middle of a run: forty bells 10 ms apart, the host's
 * sends 3 us after the capture's time; from the 21st on the capture's clock is 50 us ahead
 * (the kernel's is not). The host copies each completing frame 1 us after its arrival. Each
 * bell takes the offset of its neighbours' sends, so every window holds its copy; the run's
 * one median would put half of them 50 us off.
 */
static void test_clock_step(void)
{
	unsigned int i;

	fresh();
	sw(0, 0, 0, 120, 100, "ocpi-host", 120);
	for (i = 0; i < 40; i++) {
		uint64_t t_k = 20 * MS + i * 10 * MS, step = i < 20 ? 0 : 50 * US;

		net(t_k - 500 * US + 1 * US, KS_NET_RX_COPY, 100, 1500, NULL);
		net(t_k + 3 * US, KS_NET_TX, 100, 60, "veth0");
		wt_add_bell(&wt, t_k - 500 * US + step, t_k + step, 60);
	}
	wt_find(&wt, &k);
	tap_ok(wt_bell_offset(&wt, 19) == -3000 && wt_bell_offset(&wt, 20) == 47000 &&
		   wt_bell_offset(&wt, 0) == -3000 && wt_bell_offset(&wt, 39) == 47000,
	       "a clock step: each bell's offset is its side's (-3 us before, +47 us after)");
	TAP_EQ_U(wt.rx_slack_ns, 10 * US, "the slack is the floor: no send strays from its bell's");
	TAP_EQ_U(wt.receiver.matched, 40, "every window holds its copy");
	TAP_EQ_U(wt.copy_ts[30], 20 * MS + 300 * MS - 500 * US + 1 * US,
		 "a bell after the step: its copy, on the kernel's axis");
}

/*
 * The host's thread (pid 100) on CPU 0 preempted by a real-time task for 5 ms while one data
 * frame waited: the one wire stall, in the kernel stage (arrival -> the receiver's copy), is
 * the receiving thread runnable while busy ran, a higher-priority task.
 */
static void test_wire_stall(void)
{
	struct stall_cause sc;
	unsigned int i;

	fresh();
	sc_init(&sc);
	sw(0, 0, 0, 120, 100, "ocpi-host", 120);
	sw(50 * MS, 100, 0x100, 120, 200, "busy", 49);
	sw(55 * MS, 200, 1, 49, 100, "ocpi-host", 120);
	wt.receiver.found = wt.sender.found = true;
	wt.receiver.pid = wt.sender.pid = 100;
	for (i = 0; i < 9; i++) {
		uint64_t a = (uint64_t)i * 5 * MS + 1 * MS;

		TAP_EQ_I(sc_add_wire_bell(&sc, a, a + 10 * US, a + 20 * US, 100, 100), 0,
			 "a bell added");
	}
	sc_add_wire_bell(&sc, 50 * MS + 100 * US, 55 * MS, 55 * MS + 10 * US, 100, 100);
	sc.wire = &wt;
	TAP_EQ_I(sc_analyse(&sc, 0, NULL, &k), 0, "sc_analyse returns 0");
	TAP_EQ_U(sc.p50_ns, 20 * US, "p50: arrival -> doorbell frame");
	TAP_EQ_U(sc.stalls_total, 1, "one stall");
	TAP_EQ_I(sc.stalls[0].stage, SC_STAGE_KERNEL, "it waited before the receiver's copy");
	TAP_EQ_I(sc.stalls[0].tid, 100, "in the receiving thread");
	TAP_EQ_I(sc.stalls[0].cause, SC_CAUSE_HIGHER_PRIO, "cause: a higher-priority task");
	tap_ok(!strcmp(ks_name(&k, sc.stalls[0].w.c[0].name), "busy"), "culprit: busy");
	tap_ok(strstr(sc.causes[0].text,
		      "receiving thread (ocpi-host) was runnable while CPU 0 ran "
		      "busy") != NULL,
	       "the cause's text names the host's thread and the culprit");
	sc_free(&sc);

	/* without the copy, the whole window is the doorbell's stage, in the sending thread */
	sc_init(&sc);
	for (i = 0; i < 9; i++) {
		uint64_t a = (uint64_t)i * 5 * MS + 1 * MS;

		sc_add_wire_bell(&sc, a, 0, a + 20 * US, 0, 100);
	}
	sc_add_wire_bell(&sc, 50 * MS + 100 * US, 0, 55 * MS + 10 * US, 0, 100);
	sc.wire = &wt;
	sc_analyse(&sc, 0, NULL, &k);
	TAP_EQ_I(sc.stalls[0].stage, SC_STAGE_DOORBELL, "no copy: the doorbell's stage");
	TAP_EQ_I(sc.stalls[0].cause, SC_CAUSE_HIGHER_PRIO, "the same cause in the sending thread");
	sc_free(&sc);
}

int main(void)
{
	test_sender();
	test_receiver(0, false);
	test_receiver(6, true);
	test_receiver(5, false);
	test_receiver_slack();
	test_clock_step();
	test_wire_stall();
	ks_free(&k);
	wt_free(&wt);
	return tap_done();
}
