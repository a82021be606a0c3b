// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The workers' life cycle: OpenCPI's control operations (initialize, start,
 * stop, release, ...) on each worker's state, the workers started at launch
 * and stopped at the end, each clocked worker's step to the emulator's clock
 * (frozen while the emulator did not run, docs/fpga.md section 6), and the
 * restart of the DG-RDMA endpoint for a new host (docs/fpga.md section 4).
 * The loop, the DCP server and the receive path call in here; this file
 * calls only the workers' models, the clock and the send path.
 */
#include <string.h>

#include "emu.h"

/* See emu.h. */
bool fpga_worker_operating(const struct fpga_emu *e, enum dgr_worker w)
{
	return e->wstate[w] == FPGA_WS_OPERATING;
}

static void release_doorbell(void *ctx, unsigned int buffer)
{
	fpga_tx_queue_doorbell(ctx, buffer);
}

/* See emu.h. */
bool fpga_clock_freeze(struct fpga_emu *e, uint64_t *start_ns, uint64_t next_due_ns,
		       uint64_t absorb_ns)
{
	uint64_t late, frozen;

	if (e->cfg.virtual_clock || !e->cfg.clock_freeze || e->now_ns <= next_due_ns) {
		return false;
	}
	late = e->now_ns - next_due_ns;
	if (late <= absorb_ns + FPGA_FREEZE_MARGIN_NS) {
		return false;
	}
	frozen = late - absorb_ns;
	*start_ns += frozen;
	e->freeze.count++;
	e->freeze.total_ns += frozen;
	if (frozen > e->freeze.max_ns) {
		e->freeze.max_ns = frozen;
	}
	return true;
}

/*
 * A late wake-up owes every sample due since the last step. The FPGA never
 * stops, and its host frees buffers meanwhile; the emulator that did not run
 * would drop what the host had room for. So the ADC catches up at most what
 * its E local buffers hold (which they take whatever the host does) and its
 * clock is frozen for the rest. Not while it drops with every local buffer
 * full: the host holds its buffers, those samples are lost whenever the
 * emulator looks (a sleep until the next packet is no lateness). Dropped
 * samples advance next_sample too, so a slow host never causes a freeze.
 */
static void adc_freeze(struct fpga_emu *e)
{
	uint64_t absorb;

	if (!e->have_peer || (e->adc.dropping && fpga_producer_free_local(&e->prod) == 0)) {
		return;
	}
	/* how long the samples of the E local buffers last (their due time from 0) */
	absorb = fpga_sample_due_ns(e->cfg.rate, 0,
				    (uint64_t)e->prod.nlocal * (e->prod.size / DGR_SAMPLE_BYTES));
	if (fpga_clock_freeze(e, &e->adc_start_ns,
			      fpga_sample_due_ns(e->cfg.rate, e->adc_start_ns, e->adc.next_sample),
			      absorb)) {
		e->adc.start_ns = e->adc_start_ns; /* the drop timestamps follow the clock */
	}
}

static void step_adc(struct fpga_emu *e)
{
	uint64_t from = e->adc.next_sample, due;

	if (e->adc.eof_pending) {
		fpga_adc_flush_eof(&e->adc, &e->prod);
	}
	if (!fpga_worker_operating(e, DGR_WORKER_ADC) || e->adc.stopped) {
		return;
	}
	if (!e->adc.ready_seen && e->have_peer && e->peer_ns > e->adc_start_ns) {
		/* the samples due before the peer was learned had no port to go to */
		due = fpga_samples_due(e->cfg.rate, e->adc_start_ns, e->peer_ns);
		if (due > e->adc.next_sample) {
			fpga_adc_produce(&e->adc, &e->prod, due - e->adc.next_sample, false);
		}
	}
	adc_freeze(e);
	due = fpga_samples_due(e->cfg.rate, e->adc_start_ns, e->now_ns);
	/*
	 * One buffer at a time, each sent as soon as it is complete: the hardware
	 * sends while it fills, so a late wake-up must not look like back pressure.
	 */
	while (due > e->adc.next_sample) {
		uint64_t chunk =
		    (e->prod.size - (e->prod.filling ? e->prod.fill_bytes : 0)) / DGR_SAMPLE_BYTES;
		uint64_t n = due - e->adc.next_sample;

		if (!e->have_peer || (e->adc.dropping && fpga_producer_free_local(&e->prod) == 0)) {
			chunk = n; /* nothing can be kept: drop it all at once */
		}
		from = e->adc.next_sample;
		fpga_adc_produce(&e->adc, &e->prod, n < chunk ? n : chunk, e->have_peer);
		fpga_tx_producer(e);
		/* lateness of this chunk's last sample: of the buffer it completed */
		fpga_pacing_step(&e->pace, e->cfg.rate, e->adc_start_ns, from, e->adc.next_sample,
				 e->now_ns);
	}
}

/*
 * See emu.h. The FPGA sees each frame at its own instant, and frames arrive more than a
 * sample apart (500 ns at 2 MS/s; a frame and its processing take longer): its ADC meets
 * every frame's freed buffers at a sample of its own. The emulator reads what waited in
 * batches; without this, the doorbells of two frames read together (when it woke up late)
 * would free two buffers at the same sample and break the vicious cycle where the FPGA
 * would not. So: the samples due up to now are dropped (no buffer was free before the
 * packet), the freed buffers go out, and the drop period ends at once, at the next sample,
 * which is taken now (at most one sample period early): with report_data_loss the
 * discontinuity takes the buffer, and that sample, finding none, opens a new period.
 * Doorbells in one frame still free their buffers at the same instant.
 */
void fpga_adc_packet_instant(struct fpga_emu *e)
{
	if (e->cfg.mode != FPGA_MODE_ADC || !fpga_worker_operating(e, DGR_WORKER_ADC) ||
	    e->adc.stopped || !e->adc.dropping || !e->have_peer) {
		return;
	}
	fpga_clock_now(e);
	step_adc(e);
	fpga_tx_producer(e);
	if (e->adc.dropping && fpga_producer_free_local(&e->prod) > 0) {
		fpga_adc_produce(&e->adc, &e->prod, 1, true);
		fpga_tx_producer(e);
	}
}

static void step_dac(struct fpga_emu *e)
{
	uint64_t due;

	if (!fpga_worker_operating(e, DGR_WORKER_DAC)) {
		return;
	}
	if (!e->dac.started) {
		/* the DAC clock starts now, with the first data: earlier slots are not its own */
		e->dac_pos = fpga_samples_due(e->cfg.rate, e->dac_start_ns, e->now_ns);
		fpga_dac_consume(&e->dac, &e->cons, 0, release_doorbell, e);
		goto out;
	}
	/*
	 * The FPGA plays one buffer while the host refills the others (a doorbell
	 * goes out as each is played). A late emulator sent no doorbell: consuming
	 * its backlog at once, through its other buffers, it would find them
	 * empty, and underrun. So the DAC plays the rest of the buffer it was
	 * playing (its next wake-up was due after it) and its clock freezes for
	 * the rest, the other buffers staying the margin they are. Not while it
	 * had no buffer: those slots underrun whenever the emulator looks (a sleep
	 * until the host's data is no lateness).
	 */
	if (e->dac_fed) {
		fpga_clock_freeze(e, &e->dac_start_ns,
				  fpga_sample_due_ns(e->cfg.rate, e->dac_start_ns, e->dac_pos),
				  fpga_sample_due_ns(e->cfg.rate, 0, e->dac_rest));
	}
	due = fpga_samples_due(e->cfg.rate, e->dac_start_ns, e->now_ns);
	if (due > e->dac_pos) {
		fpga_dac_consume(&e->dac, &e->cons, due - e->dac_pos, release_doorbell, e);
		fpga_pacing_step(&e->pace, e->cfg.rate, e->dac_start_ns, e->dac_pos, due,
				 e->now_ns);
		e->dac_pos = due;
	}
out:
	e->dac_fed = e->dac.started && !e->dac.eof_seen && fpga_consumer_ready(&e->cons);
	e->dac_rest = fpga_consumer_rest_samples(&e->cons);
}

/*
 * No clock freeze here: the perftest has no pacing origin (its gap counts from
 * its last message) and waits on back pressure, so a late wake-up delays it
 * without a backlog and never drops.
 */
static void step_perftest(struct fpga_emu *e)
{
	if (!fpga_worker_operating(e, DGR_WORKER_PERFTEST)) {
		return;
	}
	if (e->have_peer) {
		fpga_perftest_tx(&e->pt, &e->prod, e->now_ns);
	}
	fpga_perftest_rx(&e->pt, &e->cons, release_doorbell, e);
}

/* See emu.h. */
void fpga_worker_step(struct fpga_emu *e, enum dgr_worker w)
{
	switch (w) {
	case DGR_WORKER_ADC:
		step_adc(e);
		break;
	case DGR_WORKER_DAC:
		step_dac(e);
		break;
	case DGR_WORKER_PERFTEST:
		step_perftest(e);
		break;
	default:
		break; /* the others have no clock of their own */
	}
}

/* See emu.h. */
void fpga_workers_stop(struct fpga_emu *e)
{
	static const enum dgr_worker clocked[] = { DGR_WORKER_ADC, DGR_WORKER_DAC,
						   DGR_WORKER_PERFTEST };
	bool ok;

	for (size_t i = 0; i < sizeof(clocked) / sizeof(clocked[0]); i++) {
		if (fpga_worker_operating(e, clocked[i])) {
			/* the samples due up to the stop instant */
			fpga_worker_step(e, clocked[i]);
			fpga_control_op(e, clocked[i], DCP_CTL_STOP, &ok);
		}
	}
}

static void worker_start(struct fpga_emu *e, unsigned int w)
{
	switch (w) {
	case DGR_WORKER_ADC:
		/* the ramp continues where it stopped: the clock restarts at the next sample */
		e->adc_start_ns =
		    e->now_ns - (uint64_t)((double)e->adc.next_sample * 1e9 / e->cfg.rate);
		fpga_adc_start(&e->adc, e->adc_start_ns, e->cfg.rate);
		break;
	case DGR_WORKER_DAC:
		e->dac_start_ns = e->now_ns;
		e->dac_pos = 0;
		break;
	default:
		break;
	}
}

static void worker_stop(struct fpga_emu *e, unsigned int w)
{
	if (w == DGR_WORKER_ADC) {
		fpga_adc_stop(&e->adc, &e->prod);
	}
}

/* See emu.h. */
uint32_t fpga_control_op(struct fpga_emu *e, unsigned int w, uint32_t reg, bool *ok)
{
	enum fpga_wstate *s = &e->wstate[w];

	*ok = true;
	switch (reg) {
	case DCP_CTL_INITIALIZE:
		if (*s == FPGA_WS_EXISTS) {
			*s = FPGA_WS_INITIALIZED;
			return DGR_OCCP_SUCCESS;
		}
		break;
	case DCP_CTL_START:
		if (*s == FPGA_WS_INITIALIZED || *s == FPGA_WS_SUSPENDED) {
			*s = FPGA_WS_OPERATING;
			worker_start(e, w);
			return DGR_OCCP_SUCCESS;
		}
		break;
	case DCP_CTL_STOP:
		if (*s == FPGA_WS_OPERATING) {
			*s = FPGA_WS_SUSPENDED;
			worker_stop(e, w);
			return DGR_OCCP_SUCCESS;
		}
		break;
	case DCP_CTL_RELEASE:
		if (*s == FPGA_WS_OPERATING) {
			worker_stop(e, w);
		}
		*s = FPGA_WS_RELEASED;
		if (w == DGR_WORKER_EMULATOR) {
			e->exit_requested = 1;
		}
		return DGR_OCCP_SUCCESS;
	case DCP_CTL_TEST:
	case DCP_CTL_BEFORE_QUERY:
	case DCP_CTL_AFTER_CONFIG:
		if (*s != FPGA_WS_RELEASED) {
			return DGR_OCCP_SUCCESS;
		}
		break;
	case DCP_CTL_STATUS:
		return (uint32_t)*s;
	case DCP_CTL_RESET:
		/*
		 * Worker 0's reset restarts the DG-RDMA endpoint for a new host (its
		 * state stays: the endpoint keeps running); no other worker has one.
		 */
		if (w == DGR_WORKER_CONFIG) {
			fpga_dgrdma_restart(e);
			return DGR_OCCP_SUCCESS;
		}
		break;
	default:
		*ok = false;
		return 0;
	}
	return DGR_OCCP_ERROR;
}

/* See emu.h. */
void fpga_start_workers(struct fpga_emu *e)
{
	bool ok;

	for (unsigned int w = 0; w < DGR_WORKER_COUNT; w++) {
		fpga_control_op(e, w, DCP_CTL_INITIALIZE, &ok);
	}
	fpga_control_op(e, DGR_WORKER_CONFIG, DCP_CTL_START, &ok);
	fpga_control_op(e, DGR_WORKER_EMULATOR, DCP_CTL_START, &ok);
	if (e->cfg.idle) {
		return;
	}
	switch (e->cfg.mode) {
	case FPGA_MODE_ADC:
		fpga_control_op(e, DGR_WORKER_ADC, DCP_CTL_START, &ok);
		break;
	case FPGA_MODE_DAC:
		fpga_control_op(e, DGR_WORKER_DAC, DCP_CTL_START, &ok);
		break;
	case FPGA_MODE_PERFTEST:
		fpga_control_op(e, DGR_WORKER_PERFTEST, DCP_CTL_START, &ok);
		break;
	}
}

/* See emu.h. */
void fpga_dgrdma_restart(struct fpga_emu *e)
{
	e->cnt.peer_restarts++;
	memset(&e->pad, 0, sizeof(e->pad));
	memset(&e->frame1, 0, sizeof(e->frame1));
	fpga_acktrack_init(&e->ack, e->cfg.ack_width, e->cfg.max_ack_count);
	fpga_txnrecord_init(&e->txns);
	fpga_consumer_reset(&e->cons);
	fpga_dac_restart(&e->dac);
	fpga_producer_restart(&e->prod);
}
