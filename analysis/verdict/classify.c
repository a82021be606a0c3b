// SPDX-License-Identifier: GPL-2.0-or-later
/* The regime classifier (see classify.h and docs/analysis.md). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "classify.h"

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

static const char *const mit_healthy_tx[] = {
	"none needed: the host keeps the FPGA's buffers full",
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

/* the guide's TX throughput-bound: the PC cannot supply data as fast as the DAC takes it */
static const char *const mit_throughput_tx[] = {
	"build with compiler optimisations (ocpiadmin install platform --optimize)",
	"use larger buffers (32 KiB) and large transactions rather than many small ones",
	"reduce the DAC's sample rate, or interpolate on the FPGA",
	"use a faster producer: less work per buffer, data ready in memory rather than read "
	"from disk, or a faster host",
	"isolate the stack's threads on their own cores with cpusets (cset shield)",
	NULL,
};

static const char *const mit_none[] = { NULL };

const char *const *regime_mitigations(enum regime r, int path_tx)
{
	switch (r) {
	case REGIME_HEALTHY:
		return path_tx ? mit_healthy_tx : mit_healthy;
	case REGIME_JITTER:
		return path_tx ? mit_jitter_tx : mit_jitter_rx;
	case REGIME_THROUGHPUT:
		return path_tx ? mit_throughput_tx : mit_throughput;
	default:
		return mit_none;
	}
}

static void count_episodes(const struct series *s, uint64_t high, struct classification *c)
{
	struct series_cursor cur;
	struct sample x;
	uint64_t run = 0;

	series_cursor_init(&cur, s, 0);
	while (series_next(&cur, &x)) {
		if (x.value > high) {
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

/* See classify.h. */
void classify_not_on_ports(uint64_t datagrams, const char *ports, struct classification *c)
{
	c->regime = REGIME_UNKNOWN;
	snprintf(c->reason, sizeof(c->reason),
		 "the stream was not found on the ports analysed: %" PRIu64
		 " UDP datagrams on other ports (%s) decode as DG-RDMA or DCP; analyse them "
		 "with --udp-port %s",
		 datagrams, ports, ports);
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
		c->high_threshold_ns = sat_mul_u64(sum->p50, CLASSIFY_SELF_RATIO);
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
				 " high episode%s (longest %" PRIu64
				 " doorbell%s, %.2f%% of doorbells)",
				 p50, hi, p999, mx, c->episodes, c->episodes == 1 ? "" : "s",
				 c->longest_episode, c->longest_episode == 1 ? "" : "s", frac);
		} else {
			c->regime = REGIME_HEALTHY;
			snprintf(c->reason, sizeof(c->reason),
				 "p99.9 %s <= %s (half the tolerable %s) and max %s <= tolerable",
				 p999, hi, ref, mx);
		}
		return;
	}
	/* judged against itself: the minimum is the service time without queueing */
	if (sum->p50 >= sat_mul_u64(CLASSIFY_SELF_RATIO, sum->min)) {
		c->regime = REGIME_THROUGHPUT;
		snprintf(
		    c->reason, sizeof(c->reason),
		    "no tolerable latency; p50 %s >= %d x min %s: doorbells queue most of the time",
		    p50, CLASSIFY_SELF_RATIO, ref);
	} else if (sum->p999 > c->high_threshold_ns ||
		   sum->max > sat_mul_u64(2, c->high_threshold_ns)) {
		c->regime = REGIME_JITTER;
		snprintf(
		    c->reason, sizeof(c->reason),
		    "no tolerable latency; p50 %s but p99.9 %s, max %s > %s (%d x p50): %" PRIu64
		    " high episode%s, longest %" PRIu64 " doorbell%s",
		    p50, p999, mx, hi, CLASSIFY_SELF_RATIO, c->episodes,
		    c->episodes == 1 ? "" : "s", c->longest_episode,
		    c->longest_episode == 1 ? "" : "s");
	} else {
		c->regime = REGIME_HEALTHY;
		snprintf(c->reason, sizeof(c->reason),
			 "no tolerable latency; p50 %s < %d x min %s and max %s <= %d x p50", p50,
			 CLASSIFY_SELF_RATIO, ref, mx, 2 * CLASSIFY_SELF_RATIO);
	}
}

/* A fraction of a duration, in percent (0 when the whole is 0). */
/* The distance between a and b, as a double (a step may be compared with ten of them). */
static double distance(uint64_t a, uint64_t b)
{
	return a > b ? (double)(a - b) : (double)(b - a);
}

/* See classify.h: the comparisons of classify(), each with its margin. */
bool classify_holds_under_step(const struct summary *sum, uint64_t tolerable_ns,
			       uint64_t high_threshold_ns, uint64_t step_ns)
{
	double step = (double)step_ns, k = CLASSIFY_SELF_RATIO;
	uint64_t high = high_threshold_ns;

	if (!high) {
		return false;
	}
	if (tolerable_ns) {
		return distance(sum->p50, high) > step && distance(sum->p999, high) > step &&
		       distance(sum->max, tolerable_ns) > step;
	}
	return distance(sum->p50, sat_mul_u64(CLASSIFY_SELF_RATIO, sum->min)) > (k + 1) * step &&
	       distance(sum->p999, high) > (k + 1) * step &&
	       distance(sum->max, sat_mul_u64(2, high)) > (2 * k + 1) * step;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/*
 * A share or a factor to DIGITS significant digits, never in exponent form (printf's %.3g
 * wrote a stall 46 times the tolerable latency as "4.63e+03%"): whole from 1000 on, "<0.001"
 * below that.
 */
static void num_text(char *buf, size_t size, double v, int digits)
{
	if (v >= 1000.0) {
		snprintf(buf, size, "%.0f", v);
	} else if (v > 0.0 && v < 0.001) {
		snprintf(buf, size, "<0.001");
	} else {
		snprintf(buf, size, "%.*g", digits, v);
	}
}

void classify_tx(const struct occupancy *o, uint64_t matched, bool underruns_known,
		 uint64_t underruns, struct classification *c)
{
	char longest[32], under[80] = "";

	memset(c, 0, sizeof(*c));
	if (matched < CLASSIFY_MIN_SAMPLES) {
		c->regime = REGIME_UNKNOWN;
		snprintf(c->reason, sizeof(c->reason),
			 "%" PRIu64 " matched TX doorbells, fewer than the %d needed to judge",
			 matched, CLASSIFY_MIN_SAMPLES);
		return;
	}
	c->episodes = o->empty_episodes;
	if (underruns_known) {
		snprintf(under, sizeof(under), "; the DAC reported %" PRIu64 " underrun periods",
			 underruns);
	}
	dgr_format_duration(longest, sizeof(longest), (double)o->longest_empty_ns);
	if (o->low_ns > o->window_ns - o->low_ns) {
		c->regime = REGIME_THROUGHPUT;
		snprintf(c->reason, sizeof(c->reason),
			 "FPGA queue at most half full (%" PRIu64 " of %" PRIu64
			 " buffers) %.1f%% of the time, empty %.1f%% (%" PRIu64
			 " times): the host supplies data slower than the DAC consumes it%s",
			 o->buffers / 2, o->buffers, pct(o->low_ns, o->window_ns),
			 pct(o->empty_ns, o->window_ns), o->empty_episodes, under);
	} else if (o->empty_episodes || (underruns_known && underruns)) {
		c->regime = REGIME_JITTER;
		snprintf(c->reason, sizeof(c->reason),
			 "FPGA buffers mostly full (mean %.1f of %" PRIu64
			 ") but the queue ran empty %" PRIu64 " times (longest %s, %.2f%% of the "
			 "time)%s",
			 o->mean, o->buffers, o->empty_episodes, longest,
			 pct(o->empty_ns, o->window_ns), under);
	} else {
		c->regime = REGIME_HEALTHY;
		snprintf(c->reason, sizeof(c->reason),
			 "FPGA buffers kept full: mean %.1f of %" PRIu64
			 ", never empty while the host sent%s",
			 o->mean, o->buffers, underruns_known ? " and no underrun reported" : "");
	}
}

const char *shape_label(enum latency_shape k)
{
	switch (k) {
	case SHAPE_STEADY:
		return "steady";
	case SHAPE_SPIKY:
		return "spiky";
	case SHAPE_PLATEAU:
		return "plateau";
	default:
		return "none";
	}
}

void classify_shape(const struct series *s, const struct summary *sum, uint64_t tolerable_ns,
		    struct lat_shape *sh)
{
	struct series_cursor cur;
	struct sample x;
	uint64_t run_max = 0;
	bool in_spike = false;

	memset(sh, 0, sizeof(*sh));
	if (sum->count < CLASSIFY_MIN_SAMPLES) {
		return;
	}
	sh->p50_ns = sum->p50;
	sh->spike_threshold_ns = sat_mul_u64(sum->p50, CLASSIFY_SELF_RATIO);
	/* past half the tolerable latency is a stall too (the regime's "high"), however high p50 */
	if (tolerable_ns && tolerable_ns / CLASSIFY_HIGH_FRACTION < sh->spike_threshold_ns) {
		sh->spike_threshold_ns = tolerable_ns / CLASSIFY_HIGH_FRACTION;
	}
	series_cursor_init(&cur, s, 0);
	while (series_next(&cur, &x)) {
		uint64_t v = x.value;

		if (v > sh->spike_threshold_ns) {
			sh->spike_doorbells++;
			if (!in_spike) {
				sh->spikes++;
				in_spike = true;
				run_max = 0;
			}
			if (v > run_max) {
				run_max = v;
			}
			if (run_max > sh->largest_ns) {
				sh->largest_ns = run_max;
			}
		} else {
			in_spike = false;
		}
	}
	if (tolerable_ns ? sum->p50 > tolerable_ns / CLASSIFY_HIGH_FRACTION
			 : sum->p50 >= sat_mul_u64(CLASSIFY_SELF_RATIO, sum->min)) {
		sh->kind = SHAPE_PLATEAU;
	} else {
		sh->kind = sh->spikes ? SHAPE_SPIKY : SHAPE_STEADY;
	}
}

/* "; lossless up to about 4.8x this rate" or why it is not known. */
static void append_headroom(char *buf, size_t size, size_t *len, const struct headroom *h)
{
	char x[24];
	int n;

	if (*len >= size) {
		return;
	}
	if (h && h->known) {
		num_text(x, sizeof(x), h->rate_factor, h->rate_factor >= 1.0 ? 3 : 2);
	}
	if (!h || !h->known) {
		n = snprintf(buf + *len, size - *len,
			     "; headroom unknown (no buffer count, size and rate)");
	} else if (h->ran_empty && h->rate_factor >= 1.0) {
		n = snprintf(buf + *len, size - *len,
			     "; no headroom: the queue ran empty at this rate (the worst refill "
			     "alone would allow about %sx)",
			     x);
	} else if (h->rate_factor >= 1.0) {
		n = snprintf(buf + *len, size - *len, "; lossless up to about %sx this rate%s", x,
			     h->estimated || h->rate_estimated ? " (estimated)" : "");
	} else {
		n = snprintf(buf + *len, size - *len,
			     "; the worst stall needs %" PRIu64
			     " buffers at this rate (has %" PRIu64
			     "): lossless only up to about %sx this rate%s",
			     h->buffers_needed, h->buffers, x,
			     h->estimated || h->rate_estimated ? " (estimated)" : "");
	}
	if (n > 0) {
		*len += (size_t)n;
	}
}

void classify_summary(char *buf, size_t size, const struct classification *c,
		      const struct lat_shape *sh, const struct headroom *h, uint64_t tolerable_ns,
		      const struct occupancy *occ)
{
	char a[32], b[32], share[24];
	size_t len;
	int n;

	n = snprintf(buf, size, "%s", regime_label(c->regime));
	len = n > 0 ? (size_t)n : 0;
	if (len >= size) {
		return;
	}
	if (occ) {
		dgr_format_duration(a, sizeof(a), (double)occ->longest_empty_ns);
		if (c->regime == REGIME_UNKNOWN) {
			return;
		}
		if (occ->empty_episodes) {
			n = snprintf(
			    buf + len, size - len,
			    "; FPGA queue empty %" PRIu64
			    " times, longest %s (%.2f%% of the time); mean %.1f of %" PRIu64
			    " FPGA buffers full",
			    occ->empty_episodes, a, pct(occ->empty_ns, occ->window_ns), occ->mean,
			    occ->buffers);
		} else {
			n = snprintf(buf + len, size - len,
				     "; FPGA queue never empty; mean %.1f of %" PRIu64
				     " FPGA buffers full",
				     occ->mean, occ->buffers);
		}
		if (n > 0) {
			len += (size_t)n;
		}
		/* the TX headroom, only when it was measured (the host's worst refill) */
		if (h && h->known) {
			append_headroom(buf, size, &len, h);
		}
		return;
	}
	if (!sh || sh->kind == SHAPE_NONE) {
		return;
	}
	if (sh->kind == SHAPE_PLATEAU) {
		dgr_format_duration(b, sizeof(b), (double)sh->p50_ns);
		if (tolerable_ns) {
			num_text(share, sizeof(share), pct(sh->p50_ns, tolerable_ns), 3);
			n = snprintf(
			    buf + len, size - len,
			    "; latency on a plateau (p50 %s, %s%% of the tolerable latency)", b,
			    share);
		} else {
			n = snprintf(buf + len, size - len, "; latency on a plateau (p50 %s)", b);
		}
	} else if (sh->kind == SHAPE_SPIKY) {
		dgr_format_duration(a, sizeof(a), (double)sh->largest_ns);
		if (tolerable_ns) {
			num_text(share, sizeof(share), pct(sh->largest_ns, tolerable_ns), 3);
			n = snprintf(buf + len, size - len,
				     "; %" PRIu64
				     " stall%s up to %s, %s%% of the tolerable latency",
				     sh->spikes, sh->spikes == 1 ? "" : "s", a, share);
		} else {
			n = snprintf(buf + len, size - len, "; %" PRIu64 " stall%s up to %s",
				     sh->spikes, sh->spikes == 1 ? "" : "s", a);
		}
	} else {
		dgr_format_duration(b, sizeof(b), (double)sh->spike_threshold_ns);
		n = snprintf(buf + len, size - len, "; steady (no doorbell above %s)", b);
	}
	if (n > 0) {
		len += (size_t)n;
	}
	append_headroom(buf, size, &len, h);
}
