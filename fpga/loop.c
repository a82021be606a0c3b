// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The emulator's event loop, one thread: receive what is waiting, advance the
 * workers to the clock (the ADC produces the samples due by now, the DAC
 * consumes the slots due by now), put complete buffers and doorbells on the
 * wire, then sleep until the next thing is due (the current buffer full, a
 * doorbell's delay, a coalesced frame, an ACK) or a packet arrives.
 */
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <dgrdma/stats.h> /* DGR_ROLE_PRODUCER: the emulator thread's role */

#include "dgrdma-fpga-tp.h"
#include "emu.h"
#include "loop.h"

volatile sig_atomic_t fpga_stop_signal;

/* When the next sample-driven event is due (the buffer being filled or drained). */
static uint64_t worker_deadline(const struct fpga_emu *e)
{
	uint64_t d = UINT64_MAX;

	if (e->cfg.mode == FPGA_MODE_ADC && fpga_worker_operating(e, DGR_WORKER_ADC) &&
	    !e->adc.stopped && e->adc.dropping && e->have_peer &&
	    fpga_producer_free_local(&e->prod) > 0) {
		/* a buffer is free again: the drop period ends at the next sample */
		d = fpga_sample_due_ns(e->cfg.rate, e->adc_start_ns, e->adc.next_sample + 1);
	} else if (e->cfg.mode == FPGA_MODE_ADC && fpga_worker_operating(e, DGR_WORKER_ADC) &&
		   !e->adc.stopped && !e->adc.dropping && e->have_peer) {
		uint64_t left =
		    (e->prod.size - (e->prod.filling ? e->prod.fill_bytes : 0)) / DGR_SAMPLE_BYTES;

		d = fpga_sample_due_ns(e->cfg.rate, e->adc_start_ns, e->adc.next_sample + left);
	}
	if (e->cfg.mode == FPGA_MODE_DAC && fpga_worker_operating(e, DGR_WORKER_DAC) &&
	    e->dac.started && !e->dac.eof_seen && fpga_consumer_ready(&e->cons)) {
		d = fpga_sample_due_ns(e->cfg.rate, e->dac_start_ns,
				       e->dac_pos + fpga_consumer_rest_samples(&e->cons));
	}
	if (e->cfg.mode == FPGA_MODE_PERFTEST && fpga_worker_operating(e, DGR_WORKER_PERFTEST) &&
	    fpga_perftest_tx_pending(&e->pt) && fpga_producer_free_local(&e->prod) > 0) {
		d = e->pt.next_tx_ns;
	}
	return d;
}

/*
 * See loop.h. The ADC streams with a credit for its next buffer and nothing
 * waits for one, so a doorbell only adds a credit, which the next buffer (at
 * d) is the first to use, and no drop can start before d. Not waking for each
 * doorbell cut the emulator's CPU time from 4.7-4.8 s to 3.76 s for 5 s of
 * 200 MS/s (docs/fpga.md). Bounded to 1 ms so that DCP requests and ACKs still
 * go out promptly at low rates.
 */
bool fpga_packets_can_wait(const struct fpga_emu *e, uint64_t d)
{
	return e->cfg.mode == FPGA_MODE_ADC && fpga_worker_operating(e, DGR_WORKER_ADC) &&
	       !e->adc.stopped && !e->adc.dropping && e->have_peer && !e->stopping &&
	       e->prod.complete == 0 && e->prod.host_free > 0 && e->dbq_len == 0 && d > e->now_ns &&
	       d - e->now_ns <= 1000000ull;
}

static void thread_start_tp(const struct fpga_emu *e)
{
	struct sched_param sp = { 0 };
	cpu_set_t set;
	uint64_t mask = 0;
	int policy = sched_getscheduler(0);

	sched_getparam(0, &sp);
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		for (int i = 0; i < 64; i++) {
			if (CPU_ISSET(i, &set)) {
				mask |= 1ull << i;
			}
		}
	}
	DGR_FPGA_TP(thread_start, (uint8_t)DGR_ROLE_PRODUCER, (uint16_t)e->cfg.local_src_id,
		    (int32_t)gettid(), (int32_t)policy, (int32_t)sp.sched_priority,
		    (int32_t)getpriority(PRIO_PROCESS, 0), mask);
}

static void stream_config_tp(const struct fpga_emu *e)
{
	DGR_FPGA_TP(stream_config, (uint16_t)e->cfg.local_src_id, (uint8_t)e->cfg.mode,
		    e->cfg.rate_sps, e->cfg.nbuffers, e->cfg.buffer_size, e->cfg.host_buffers);
}

/* The counters, and the stream's facts beside them for a live view that attached late. */
static void counters_tp(const struct fpga_emu *e)
{
	stream_config_tp(e);
	DGR_FPGA_TP(counters, e->adc.next_sample, e->adc.dropped_samples,
		    (uint64_t)e->adc.num_dropped_samps, e->cnt.discontinuities_sent,
		    e->cnt.transactions_sent, e->prod.doorbells, e->dac.num_underruns,
		    e->cnt.frames_rx, e->cnt.frames_tx);
}

static void begin_stop(struct fpga_emu *e)
{
	e->stopping = true;
	e->stop_ns = e->now_ns;
	fpga_workers_stop(e);
}

/*
 * Everything the port held has gone out and every host buffer has come back
 * (so the counters include the last doorbells), and no doorbell waits.
 */
static bool drained(const struct fpga_emu *e)
{
	return e->prod.complete == 0 && !e->adc.eof_pending && e->dbq_len == 0 &&
	       fpga_producer_in_flight(&e->prod) == 0;
}

/* Samples the ADC put in buffers that have not gone out (yet). */
static void update_unsent(struct fpga_emu *e)
{
	if (e->cfg.mode == FPGA_MODE_ADC) {
		e->cnt.samples_unsent =
		    e->adc.samples_committed - e->cnt.samples_sent +
		    (e->prod.filling ? e->prod.fill_bytes / DGR_SAMPLE_BYTES : 0);
	}
}

/* See loop.h. */
int fpga_run(struct fpga_emu *e)
{
	uint64_t end_ns, drain_ns = (uint64_t)e->cfg.drain_ms * 1000000ull;
	uint64_t period = (uint64_t)e->cfg.counters_ms * 1000000ull;

	e->t0_ns = fpga_clock_now(e);
	end_ns = e->cfg.duration_ns ? e->t0_ns + e->cfg.duration_ns : UINT64_MAX;
	e->next_counters_ns = e->t0_ns + period;
	thread_start_tp(e);
	stream_config_tp(e);
	fpga_start_workers(e);
	for (;;) {
		uint64_t d, t;

		fpga_clock_now(e);
		if (e->tr) {
			fpga_rx_poll(e);
		}
		if (!e->stopping &&
		    (e->now_ns >= end_ns || fpga_stop_signal || e->exit_requested)) {
			begin_stop(e);
		}
		fpga_worker_step(e, DGR_WORKER_ADC);
		fpga_worker_step(e, DGR_WORKER_DAC);
		fpga_worker_step(e, DGR_WORKER_PERFTEST);
		fpga_tx_doorbells(e);
		fpga_tx_producer(e);
		fpga_tx_service(e, e->stopping);
		update_unsent(e);
		if (period && e->now_ns >= e->next_counters_ns) {
			counters_tp(e);
			e->next_counters_ns = e->now_ns + period;
		}
		if (e->stopping &&
		    (drained(e) || e->now_ns - e->stop_ns >= drain_ns || fpga_stop_signal > 1)) {
			break;
		}
		d = worker_deadline(e);
		t = fpga_tx_next_deadline(e);
		if (t < d) {
			d = t;
		}
		if (!e->stopping && end_ns < d) {
			d = end_ns;
		}
		if (e->stopping && e->stop_ns + drain_ns < d) {
			d = e->stop_ns + drain_ns;
		}
		if (fpga_stop_signal && !e->stopping) {
			d = e->now_ns;
		}
		fpga_wait(e, d, !fpga_packets_can_wait(e, d));
	}
	/* send what the tracker still owes and the last frames */
	if (e->ack.bitfield) {
		fpga_tx_service(e, true);
	}
	update_unsent(e);
	counters_tp(e);
	{
		struct rusage ru;

		if (getrusage(RUSAGE_SELF, &ru) == 0) {
			e->cpu_user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000ull +
					 (uint64_t)ru.ru_utime.tv_usec * 1000u;
			e->cpu_sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000ull +
					(uint64_t)ru.ru_stime.tv_usec * 1000u;
		}
		e->run_ns = e->now_ns - e->t0_ns;
	}
	return 0;
}
