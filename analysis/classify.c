// SPDX-License-Identifier: GPL-2.0-or-later
/* The regime classifier (see classify.h and docs/analysis.md). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "classify.h"
#include "print.h"

const char *regime_label(enum regime r)
{
	switch (r) {
	case REGIME_HEALTHY:
		return "healthy";
	case REGIME_JITTER:
		return "jitter-bound";
	case REGIME_THROUGHPUT:
		return "throughput-bound";
	default:
		return "unknown";
	}
}

static const char *const mit_healthy[] = {
	"none needed: doorbell latency stays well inside the tolerable latency",
	NULL,
};

static const char *const mit_jitter_rx[] = {
	"isolate the stack's threads on their own cores with cpusets (cset shield)",
	"write dirty pages more often: lower vm.dirty_background_bytes / dirty_background_ratio",
	"use a low-latency (PREEMPT) kernel",
	"raise the stack's threads to real-time priority (SCHED_FIFO)",
	"increase the host buffer count (up to 255) with larger socket buffers "
	"(net.core.rmem_default/rmem_max) and NIC rings (ethtool -G)",
	"avoid disk writes, above all to dm-crypt volumes (else set same_cpu_crypt)",
	"set report_data_loss=false to stop the discontinuity vicious cycle",
	NULL,
};

static const char *const mit_jitter_tx[] = {
	"isolate the stack's threads on their own cores with cpusets (cset shield)",
	"write dirty pages more often: lower vm.dirty_background_bytes / dirty_background_ratio",
	"use a low-latency (PREEMPT) kernel",
	"raise the stack's threads to real-time priority (SCHED_FIFO)",
	"increase the FPGA buffer count (demux/mux over several ports)",
	"reduce the FPGA's coalesce_wait so doorbells are not held back",
	NULL,
};

static const char *const mit_throughput[] = {
	"build with compiler optimisations (ocpiadmin install platform --optimize)",
	"use larger buffers (32 KiB) and large transactions rather than many small ones",
	"reduce the data rate (decimation)",
	"use a faster consumer: less work per buffer, or a faster host",
	NULL,
};

static const char *const mit_none[] = { NULL };

const char *const *regime_mitigations(enum regime r, int path_tx)
{
	switch (r) {
	case REGIME_HEALTHY:
		return mit_healthy;
	case REGIME_JITTER:
		return path_tx ? mit_jitter_tx : mit_jitter_rx;
	case REGIME_THROUGHPUT:
		return mit_throughput;
	default:
		return mit_none;
	}
}

static void count_episodes(const struct series *s, uint64_t high, struct classification *c)
{
	uint64_t run = 0;
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->s[i].value > high) {
			c->high_count++;
			if (run++ == 0) {
				c->episodes++;
			}
			if (run > c->longest_episode) {
				c->longest_episode = run;
			}
		} else {
			run = 0;
		}
	}
}

/* See classify.h. */
void classify_no_doorbells(uint64_t data_transactions, struct classification *c)
{
	c->regime = REGIME_UNKNOWN;
	if (data_transactions == 0) {
		snprintf(c->reason, sizeof(c->reason),
			 "no data transaction in the capture or the trace: the stream never "
			 "started (the FPGA did not send, or sent its first burst before the host "
			 "received and got no doorbell back: start it once dgrdma-host "
			 "--ready-file exists)");
	} else {
		snprintf(c->reason, sizeof(c->reason),
			 "%" PRIu64 " data transactions and no doorbell for them: the host "
			 "released no buffer (a stalled consumer, or doorbells not recorded)",
			 data_transactions);
	}
}

void classify(const struct series *s, const struct summary *sum, uint64_t tolerable_ns,
	      struct classification *c)
{
	char p50[32], p999[32], mx[32], hi[32], ref[32];
	double frac;

	memset(c, 0, sizeof(*c));
	if (sum->count < CLASSIFY_MIN_SAMPLES) {
		c->regime = REGIME_UNKNOWN;
		snprintf(c->reason, sizeof(c->reason),
			 "%" PRIu64 " matched doorbells, fewer than the %d needed to judge",
			 sum->count, CLASSIFY_MIN_SAMPLES);
		return;
	}
	if (tolerable_ns) {
		c->high_threshold_ns = tolerable_ns / CLASSIFY_HIGH_FRACTION;
		dgr_format_duration(ref, sizeof(ref), (double)tolerable_ns);
	} else {
		/* no tolerable latency: ten times the typical latency is "high" */
		c->high_threshold_ns = sum->p50 * CLASSIFY_SELF_RATIO;
		dgr_format_duration(ref, sizeof(ref), (double)sum->min);
	}
	count_episodes(s, c->high_threshold_ns, c);
	frac = 100.0 * (double)c->high_count / (double)sum->count;
	dgr_format_duration(p50, sizeof(p50), (double)sum->p50);
	dgr_format_duration(p999, sizeof(p999), (double)sum->p999);
	dgr_format_duration(mx, sizeof(mx), (double)sum->max);
	dgr_format_duration(hi, sizeof(hi), (double)c->high_threshold_ns);

	if (tolerable_ns) {
		if (sum->p50 > c->high_threshold_ns) {
			c->regime = REGIME_THROUGHPUT;
			snprintf(c->reason, sizeof(c->reason),
				 "p50 %s > %s (half the tolerable %s): latency is high most of the "
				 "time (%.1f%% of doorbells)",
				 p50, hi, ref, frac);
		} else if (sum->p999 > c->high_threshold_ns || sum->max > tolerable_ns) {
			c->regime = REGIME_JITTER;
			snprintf(c->reason, sizeof(c->reason),
				 "p50 %s <= %s but p99.9 %s, max %s: %" PRIu64
				 " high episodes (longest %" PRIu64
				 " doorbells, %.2f%% of doorbells)",
				 p50, hi, p999, mx, c->episodes, c->longest_episode, frac);
		} else {
			c->regime = REGIME_HEALTHY;
			snprintf(c->reason, sizeof(c->reason),
				 "p99.9 %s <= %s (half the tolerable %s) and max %s <= tolerable",
				 p999, hi, ref, mx);
		}
		return;
	}
	/* judged against itself: the minimum is the service time without queueing */
	if (sum->p50 >= (uint64_t)CLASSIFY_SELF_RATIO * sum->min) {
		c->regime = REGIME_THROUGHPUT;
		snprintf(
		    c->reason, sizeof(c->reason),
		    "no tolerable latency; p50 %s >= %d x min %s: doorbells queue most of the time",
		    p50, CLASSIFY_SELF_RATIO, ref);
	} else if (sum->p999 > c->high_threshold_ns || sum->max > 2 * c->high_threshold_ns) {
		c->regime = REGIME_JITTER;
		snprintf(
		    c->reason, sizeof(c->reason),
		    "no tolerable latency; p50 %s but p99.9 %s, max %s > %s (%d x p50): %" PRIu64
		    " high episodes, longest %" PRIu64 " doorbells",
		    p50, p999, mx, hi, CLASSIFY_SELF_RATIO, c->episodes, c->longest_episode);
	} else {
		c->regime = REGIME_HEALTHY;
		snprintf(c->reason, sizeof(c->reason),
			 "no tolerable latency; p50 %s < %d x min %s and max %s <= %d x p50", p50,
			 CLASSIFY_SELF_RATIO, ref, mx, 2 * CLASSIFY_SELF_RATIO);
	}
}
