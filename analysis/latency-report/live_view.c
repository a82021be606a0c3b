// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-report --live: the view of running sessions, an interval at a
 * time (text redrawn in place on a terminal, or one JSON object a line),
 * then each session's final report (docs/analysis.md, "Live").
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <dgrdma/wire.h>

#include "cli.h"
#include "print.h"

#include "advise.h"
#include "classify.h"
#include "ctf_input.h"
#include "host_events.h"
#include "join.h"
#include "live.h"
#include "pcap_input.h"
#include "report.h"
#include "vicious.h"
#include "wire_analysis.h"
#include "latency-report.h"

static volatile sig_atomic_t live_stop;

#define LIVE_SPARK 30 /* intervals in the terminal's sparkline */

static void on_stop_signal(int sig)
{
	(void)sig;
	live_stop = 1;
}

/* One followed session. */
struct live_host {
	const char *url;
	/* --live RUN-FOLDER: the folder, its live.url's URL, and at the end its run.json */
	const char *folder;
	char folder_url[sizeof(((struct ctf_live_url *)0)->relay) + 80 + 128];
	struct run_info run;
	bool facts_from_run_json;
	int whole;	      /* enum lr_whole */
	bool run_json_waited; /* the folder's session ended: its run.json was waited for */
	long capture_pid;     /* the folder's dgrdma-capture, when seen running (0: not) */
	char whole_why[RUN_INFO_LOST_LEN + 256];
	struct host_analysis ha;
	bool ha_on;
	struct live_acc acc;
	struct report rep; /* the run's facts; the verdict so far is judged into it */
	struct live_interval iv;
	/* --live-if: the wire, captured live (the first session only); or --live-follow */
	struct pcap_live *cap;
	struct pcap_follow *follow;
	struct wire_analysis wa;
	bool wa_on;
	size_t wire_mark;
	struct vicious vc;
	struct join_series js;
};

struct live_view {
	const struct options *o;
	struct live_host *hosts;
	unsigned int n;
	struct live_interval together; /* n > 1 */
	const struct live_host *worst; /* the host with the worst verdict so far */
	bool tty;		       /* text on a terminal: the view is redrawn in place */
	unsigned int drawn;	       /* lines of the view on the terminal */
	/* the terminal's sparkline: p99 of the last intervals, oldest first */
	uint64_t recent[LIVE_SPARK];
	unsigned int n_recent;
	struct timespec start;
};

static double elapsed_s(const struct timespec *since)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - since->tv_sec) + (double)(now.tv_nsec - since->tv_nsec) / 1e9;
}

/* From the newest event read to now (event times are on the real-time axis), 0 if unknown. */
static uint64_t lag_ns(const struct host_analysis *ha)
{
	struct timespec now;
	uint64_t t;

	clock_gettime(CLOCK_REALTIME, &now);
	t = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
	return ha->last_ts && t > ha->last_ts ? t - ha->last_ts : 0;
}

/* The largest lag of the view's hosts. */
static uint64_t view_lag_ns(const struct live_view *v)
{
	uint64_t lag = 0;
	unsigned int i;

	for (i = 0; i < v->n; i++) {
		uint64_t l = lag_ns(&v->hosts[i].ha);

		lag = l > lag ? l : lag;
	}
	return lag;
}

/* Verdicts from the least to the most worrying, for "the worst host". */
static int regime_rank(enum regime r)
{
	switch (r) {
	case REGIME_HEALTHY:
		return 1;
	case REGIME_JITTER:
		return 2;
	case REGIME_THROUGHPUT:
		return 3;
	default:
		return 0;
	}
}

static void json_quantiles(struct dgr_pr *p, const char *key, const struct quantiles *q)
{
	dgr_pr_obj_begin(p, key, NULL);
	dgr_pr_u64(p, "count", NULL, q->count);
	if (q->count) {
		dgr_pr_u64(p, "p50", NULL, q->p50);
		dgr_pr_u64(p, "p99", NULL, q->p99);
		dgr_pr_u64(p, "p999", NULL, q->p999);
		dgr_pr_u64(p, "max", NULL, q->max);
	}
	dgr_pr_obj_end(p);
}

static void json_drops(struct dgr_pr *p, const char *key, bool known, const struct live_drops *now,
		       const struct live_drops *run)
{
	const struct live_drops *d[2] = { now, run };
	const char *keys[2] = { "interval", "run" };
	unsigned int i;

	dgr_pr_obj_begin(p, key, NULL);
	dgr_pr_bool(p, "known", NULL, known);
	for (i = 0; known && i < 2; i++) {
		dgr_pr_obj_begin(p, keys[i], NULL);
		dgr_pr_u64(p, "delivered", NULL, d[i]->delivered);
		dgr_pr_u64(p, "lost", NULL, d[i]->lost);
		dgr_pr_dbl(p, "rate", NULL, d[i]->rate, 8);
		dgr_pr_obj_end(p);
	}
	dgr_pr_obj_end(p);
}

/* The latency and drops of an interval (one host's, or several together). */
static void json_interval(struct dgr_pr *p, const struct live_interval *iv)
{
	dgr_pr_u64(p, "events", NULL, iv->events);
	dgr_pr_u64(p, "events_run", NULL, iv->events_run);
	dgr_pr_obj_begin(p, "host_rx", NULL);
	json_quantiles(p, "interval", &iv->lat);
	json_quantiles(p, "run", &iv->lat_run);
	dgr_pr_obj_end(p);
	if (iv->has_arrival) {
		dgr_pr_obj_begin(p, "host_rx_from_arrival", NULL);
		json_quantiles(p, "interval", &iv->arrival);
		json_quantiles(p, "run", &iv->arrival_run);
		dgr_pr_obj_end(p);
	}
	if (iv->has_wire) {
		dgr_pr_obj_begin(p, "wire_rx", NULL);
		json_quantiles(p, "interval", &iv->wire);
		json_quantiles(p, "run", &iv->wire_run);
		dgr_pr_obj_end(p);
	}
	dgr_pr_obj_begin(p, "drops", NULL);
	json_drops(p, "host", iv->host_counters, &iv->host, &iv->host_run);
	json_drops(p, "fpga", iv->fpga_counters, &iv->fpga, &iv->fpga_run);
	dgr_pr_obj_end(p);
}

/* A host's verdict so far; url: which host (several hosts), else NULL. */
static void json_regime(struct dgr_pr *p, const struct report *rep, const char *url)
{
	dgr_pr_obj_begin(p, "regime", NULL);
	if (url) {
		dgr_pr_str(p, "url", NULL, url);
	}
	dgr_pr_str(p, "label", NULL, regime_label(rep->verdict.regime));
	dgr_pr_str(p, "series", NULL, rep->verdict_series);
	dgr_pr_str(p, "reason", NULL, rep->verdict.reason);
	dgr_pr_str(p, "summary", NULL, rep->summary);
	dgr_pr_obj_end(p);
}

static void json_headroom(struct dgr_pr *p, const struct headroom *h)
{
	dgr_pr_obj_begin(p, "headroom", NULL);
	dgr_pr_bool(p, "known", NULL, h->known);
	if (h->known) {
		dgr_pr_dbl(p, "rate_factor", NULL, h->rate_factor, 3);
		dgr_pr_dbl(p, "lossless_rate_bytes", NULL, h->lossless_rate_bytes, 0);
		dgr_pr_u64(p, "buffers_needed", NULL, h->buffers_needed);
	}
	dgr_pr_obj_end(p);
}

/*
 * One JSON Lines object for the interval: one host's numbers, or with
 * several the hosts together, the worst verdict and "hosts", one each.
 */
static void live_json(struct live_view *v, double t)
{
	const struct live_host *one = &v->hosts[0];
	struct dgr_pr p;
	unsigned int i;

	dgr_pr_begin(&p, stdout, DGR_PR_JSON | DGR_PR_YES_NO | DGR_PR_FIXED_POINT);
	dgr_pr_str(&p, "kind", NULL, "interval");
	dgr_pr_u64(&p, "interval", NULL, one->iv.index);
	dgr_pr_dbl(&p, "elapsed_s", NULL, t, 3);
	dgr_pr_u64(&p, "lag_ns", NULL, view_lag_ns(v));
	if (v->n == 1) {
		json_interval(&p, &one->iv);
		json_regime(&p, &one->rep, NULL);
		json_headroom(&p, &one->rep.headroom);
		dgr_pr_end(&p);
		return;
	}
	json_interval(&p, &v->together);
	json_regime(&p, &v->worst->rep, v->worst->url);
	dgr_pr_arr_begin(&p, "hosts", NULL);
	for (i = 0; i < v->n; i++) {
		const struct live_host *h = &v->hosts[i];

		dgr_pr_obj_begin(&p, NULL, NULL);
		dgr_pr_str(&p, "url", NULL, h->url);
		dgr_pr_u64(&p, "lag_ns", NULL, lag_ns(&h->ha));
		json_interval(&p, &h->iv);
		json_regime(&p, &h->rep, NULL);
		json_headroom(&p, &h->rep.headroom);
		dgr_pr_obj_end(&p);
	}
	dgr_pr_arr_end(&p);
	dgr_pr_end(&p);
}

/* Appends "1953 doorbells, p50 12.345 us, p99 ..., p99.9 ..., max ..." to line. */
static void text_quantiles(char *line, size_t size, const struct quantiles *q)
{
	char a[32], b[32], c[32], d[32];
	size_t len = strlen(line);

	if (!q->count) {
		snprintf(line + len, size - len, "no doorbell");
		return;
	}
	dgr_format_duration(a, sizeof(a), (double)q->p50);
	dgr_format_duration(b, sizeof(b), (double)q->p99);
	dgr_format_duration(c, sizeof(c), (double)q->p999);
	dgr_format_duration(d, sizeof(d), (double)q->max);
	snprintf(line + len, size - len, "%" PRIu64 " doorbells, p50 %s, p99 %s, p99.9 %s, max %s",
		 q->count, a, b, c, d);
}

/*
 * Prints a line of the view. On a terminal it overwrites the old one and is
 * cut to the terminal's width: a wrapped line would break the redraw.
 */
static void view_line(struct live_view *v, const char *line)
{
	struct winsize ws;
	size_t len = strlen(line);

	if (v->tty) {
		if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 &&
		    len > (size_t)ws.ws_col - 1) {
			len = (size_t)ws.ws_col - 1;
		}
		fputs("\033[2K", stdout);
	}
	printf("%.*s\n", (int)len, line);
	v->drawn++;
}

/* "interval ...", "run so far ...", "drops ..." of one interval (a host's, or together). */
static void text_interval(struct live_view *v, const struct live_interval *iv, double t,
			  const char *who)
{
	const bool arrival = iv->has_arrival;
	char line[1024];
	size_t len;

	snprintf(line, sizeof(line), "interval %u (%.1f s, %" PRIu64 " events)%s: ", iv->index, t,
		 iv->events, who);
	text_quantiles(line, sizeof(line), arrival ? &iv->arrival : &iv->lat);
	view_line(v, line);
	snprintf(line, sizeof(line), "  run so far: ");
	text_quantiles(line, sizeof(line), arrival ? &iv->arrival_run : &iv->lat_run);
	len = strlen(line);
	snprintf(line + len, sizeof(line) - len, "%s",
		 arrival ? " (from the frame's arrival)" : "");
	view_line(v, line);
	if (iv->has_wire) {
		snprintf(line, sizeof(line), "  on the wire: ");
		text_quantiles(line, sizeof(line), &iv->wire);
		view_line(v, line);
		snprintf(line, sizeof(line), "  on the wire, run so far: ");
		text_quantiles(line, sizeof(line), &iv->wire_run);
		view_line(v, line);
	}
	snprintf(line, sizeof(line), "  drops:");
	if (iv->host_counters) {
		len = strlen(line);
		snprintf(line + len, sizeof(line) - len, " host %.4f%% (run %.4f%%)",
			 100.0 * iv->host.rate, 100.0 * iv->host_run.rate);
	}
	if (iv->fpga_counters) {
		len = strlen(line);
		snprintf(line + len, sizeof(line) - len, " fpga %.4f%% (run %.4f%%)",
			 100.0 * iv->fpga.rate, 100.0 * iv->fpga_run.rate);
	}
	if (!iv->host_counters && !iv->fpga_counters) {
		len = strlen(line);
		snprintf(line + len, sizeof(line) - len, " no counter snapshot yet");
	}
	view_line(v, line);
}

/*
 * The terminal's histograms: the interval's doorbells and the run's by
 * latency, on the run's bins (so that they line up), from the kernel's
 * arrival when the trace carries it, as the lines above.
 */
static void text_histograms(struct live_view *v, const struct live_interval *iv)
{
	const uint64_t *now = iv->has_arrival ? iv->arrival_hist : iv->hist;
	const uint64_t *run = iv->has_arrival ? iv->arrival_hist_run : iv->hist_run;
	char bars[LIVE_HISTOGRAM_SIZE], line[LIVE_HISTOGRAM_SIZE + 64];
	unsigned int lo = 0, hi = 0;

	if (!live_histogram_range(run, &lo, &hi)) {
		view_line(v, "  doorbells by latency: none yet");
		view_line(v, "");
		return;
	}
	live_histogram(bars, sizeof(bars), now, lo, hi);
	snprintf(line, sizeof(line), "  interval's doorbells by latency: %s", bars);
	view_line(v, line);
	live_histogram(bars, sizeof(bars), run, lo, hi);
	snprintf(line, sizeof(line), "  run's doorbells by latency:      %s (log2 bins)", bars);
	view_line(v, line);
}

/* The interval's lines; on a terminal they replace the previous ones. */
static void live_text(struct live_view *v, double t)
{
	const struct live_interval *iv = v->n > 1 ? &v->together : &v->hosts[0].iv;
	char line[1024], who[64] = "";
	unsigned int i;

	if (v->tty && v->drawn) {
		printf("\033[%uA\r", v->drawn);
	}
	v->drawn = 0;
	if (v->n > 1) {
		snprintf(who, sizeof(who), ", %u sessions together", v->n);
	}
	text_interval(v, iv, t, who);
	snprintf(line, sizeof(line), "  %sverdict so far: %s (%s)", v->n > 1 ? "worst " : "",
		 v->worst->rep.summary, v->worst->rep.verdict.reason);
	view_line(v, line);
	for (i = 0; v->n > 1 && i < v->n; i++) {
		const struct live_host *h = &v->hosts[i];
		const bool arrival = h->iv.has_arrival;
		size_t len;

		snprintf(line, sizeof(line), "  %s: run so far ", h->url);
		text_quantiles(line, sizeof(line), arrival ? &h->iv.arrival_run : &h->iv.lat_run);
		len = strlen(line);
		snprintf(line + len, sizeof(line) - len, "; %s", h->rep.summary);
		view_line(v, line);
	}
	if (v->tty) {
		/* a person watching sees the trend, not only the last number */
		const struct quantiles *q = iv->has_arrival ? &iv->arrival : &iv->lat;
		char spark[LIVE_SPARK * 4 + 1], top[32];
		uint64_t max = 0;

		if (v->n_recent == LIVE_SPARK) {
			memmove(v->recent, v->recent + 1, (LIVE_SPARK - 1) * sizeof(v->recent[0]));
			v->n_recent--;
		}
		v->recent[v->n_recent++] = q->p99;
		for (i = 0; i < v->n_recent; i++) {
			max = v->recent[i] > max ? v->recent[i] : max;
		}
		live_sparkline(spark, sizeof(spark), v->recent, v->n_recent);
		dgr_format_duration(top, sizeof(top), (double)max);
		snprintf(line, sizeof(line), "  p99 of the last %u intervals: %s (top %s)",
			 v->n_recent, spark, top);
		view_line(v, line);
		text_histograms(v, iv);
	}
}

/* ctf_input_live's tick: close the interval, judge the run so far, print. */
static int live_tick(void *ctx, char *errbuf)
{
	struct live_view *v = ctx;
	const struct host_analysis *hs[LIVE_MAX_HOSTS];
	const struct live_acc *accs[LIVE_MAX_HOSTS];
	const struct series *wire[LIVE_MAX_HOSTS];
	size_t lat_from[LIVE_MAX_HOSTS], arrival_from[LIVE_MAX_HOSTS], wire_from[LIVE_MAX_HOSTS];
	struct live_interval per[LIVE_MAX_HOSTS];
	bool wires = v->n > 0;
	double t = elapsed_s(&v->start);
	unsigned int i;

	for (i = 0; i < v->n; i++) {
		struct live_host *h = &v->hosts[i];

		hs[i] = &h->ha;
		accs[i] = &h->acc;
		lat_from[i] = h->acc.lat_mark;
		arrival_from[i] = h->acc.arrival_mark;
		wire[i] = &h->wa.lat[WA_RX];
		wire_from[i] = h->wire_mark;
		wires = wires && h->wa_on;
		/* the facts the trace has brought so far, by the final report's rules */
		h->rep.so_far = true;
		lr_set_tolerable(&h->rep, v->o, &v->o->run, lr_facts_from_options(v->o), false,
				 h->wa_on ? &h->wa : NULL, &h->ha);
		if (live_close(&h->acc, &h->ha, &h->iv) ||
		    (h->wa_on &&
		     live_close_wire(&h->wire_mark, &h->acc.wire_h, &h->wa.lat[WA_RX], &h->iv)) ||
		    lr_decide(&h->rep, h->wa_on ? &h->wa : NULL, &h->ha)) {
			return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
		}
		per[i] = h->iv;
		if (i == 0 || regime_rank(h->rep.verdict.regime) >
				  regime_rank(v->worst->rep.verdict.regime)) {
			v->worst = h;
		}
	}
	if (v->n > 1 && live_together(hs, accs, lat_from, arrival_from, wires ? wire : NULL,
				      wire_from, per, v->n, &v->together)) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	if (v->o->json) {
		live_json(v, t);
	} else {
		live_text(v, t);
	}
	if (fflush(stdout)) {
		return dgr_errbuf_set(errbuf, DGR_E_SYS, "standard output: %s", strerror(errno));
	}
	return 0;
}

/*
 * The final report of one followed session, as latency-report prints it
 * offline (many: several sessions, each named). Returns the exit status it
 * calls for, or a negative DGR_E_* code with errbuf filled.
 */
static int live_final(const struct options *o, struct live_host *h, bool many, char *errbuf)
{
	struct dgr_pr pr;
	int rc, ret;

	if (h->wa_on) {
		wa_finish(&h->wa);
	}
	h->rep.so_far = false;
	/* a folder's run.json, once read: its facts and how the run ended, as offline */
	rc = lr_build_report(&h->rep, o, h->run_json_waited ? &h->run : &o->run,
			     lr_facts_from_options(o), h->facts_from_run_json,
			     h->wa_on ? &h->wa : NULL, &h->ha, &h->vc, &h->js);
	if (rc) {
		return dgr_errbuf_set(errbuf, -rc, "%s", lr_report_error(rc));
	}
	if (o->json) {
		/* JSON Lines: the final reports are the last lines */
		dgr_pr_begin(&pr, stdout, DGR_PR_JSON | DGR_PR_YES_NO | DGR_PR_FIXED_POINT);
		dgr_pr_str(&pr, "kind", NULL, "final");
		if (many) {
			dgr_pr_str(&pr, "url", NULL, h->url);
		}
		dgr_pr_str(&pr, "whole_run", NULL,
			   h->whole == LR_WHOLE_YES  ? "yes"
			   : h->whole == LR_WHOLE_NO ? "no"
						     : "unknown");
		dgr_pr_str(&pr, "whole_run_why", NULL, h->whole_why);
	} else {
		if (many) {
			printf("Session %s\n", h->url);
		}
		if (h->run_json_waited && h->whole != LR_WHOLE_YES) {
			printf("Not known to be the whole run: %s\n", h->whole_why);
		}
		dgr_pr_begin(&pr, stdout, DGR_PR_JSON_PRETTY | DGR_PR_YES_NO | DGR_PR_FIXED_POINT);
	}
	if (o->brief) {
		report_print_summary(&pr, &h->rep);
	} else if ((rc = report_print(&pr, &h->rep)) != 0) {
		return dgr_errbuf_set(errbuf, -rc, "%s", lr_report_error(rc));
	}
	if (o->advise) {
		rc = advise_print(&pr, h->rep.verdict.regime, &o->adv, NULL, errbuf);
		if (rc < 0) {
			return rc;
		}
	}
	dgr_pr_end(&pr);
	ret = report_exit_status(&h->rep, o->fail_on);
	/*
	 * Given the folder, a report not known to hold the whole run is no answer on the run, as
	 * offline (exit 2); given a URL, that is not known (the option's contract).
	 */
	return h->run_json_waited && h->whole != LR_WHOLE_YES && ret < DGR_EXIT_USAGE
		   ? DGR_EXIT_USAGE
		   : ret;
}

/* The wire analysis' transactions: the vicious cycle's input, as offline. */
static void live_txn(void *ctx, const struct wa_txn_event *ev)
{
	struct live_host *h = ctx;

	if (ev->dir == WA_RX) {
		vicious_txn(&h->vc, ev->ts, ev->bytes, ev->opcode);
	}
}

/*
 * ctf_input_live's other descriptors: the frames every session's capture
 * (--live-if) has since the last call, or (--live-follow, on the first
 * session's timer) every session's capture file has been written.
 */
static int live_capture(void *ctx, char *errbuf)
{
	struct live_view *v = ctx;
	unsigned int i;
	int n = 0;

	for (i = 0; i < v->n && n >= 0; i++) {
		if (v->hosts[i].cap) {
			n = pcap_input_live_read(v->hosts[i].cap, errbuf);
		} else if (v->hosts[i].follow) {
			n = pcap_input_follow_read(v->hosts[i].follow, errbuf);
		}
	}
	return n < 0 ? n : 0;
}

/*
 * The wire of session i: its --live-if capture (with its --live-filter and
 * --live-pcap) or its --live-follow one. Returns 0 or a DGR_E_* code.
 */
static int live_wire_open(const struct options *o, struct live_host *h, unsigned int i,
			  char *errbuf)
{
	struct wa_opts wo = o->wa;
	int rc;

	wo.on_bell = NULL;
	wo.on_txn = live_txn;
	wo.ctx = h;
	rc = wa_init(&h->wa, &wo, errbuf);
	if (rc < 0) {
		return rc;
	}
	h->wa_on = true;
	h->rep.wire = &h->wa;
	if (o->n_live_follow) {
		return pcap_input_follow_open(o->live_follow[i], &h->wa, &h->follow, errbuf);
	}
	return pcap_input_live_open(o->live_if[i],
				    o->n_live_filter ? o->live_filter[o->n_live_filter > 1 ? i : 0]
						     : "udp port 18078 or ether proto 0xf040 or "
						       "ether proto 0xf042",
				    o->n_live_pcap ? o->live_pcap[i] : NULL, &h->wa, &h->cap,
				    errbuf);
}

/*
 * latency-report --live URL...: follows the sessions until they end or
 * SIGINT or SIGTERM, then prints each one's final report. Returns the exit
 * status.
 */
int lr_live(const struct options *o)
{
	struct host_analysis *hs[LIVE_MAX_HOSTS];
	const char *urls[LIVE_MAX_HOSTS];
	char errbuf[DGR_ERRBUF_SIZE];
	struct ctf_live_opts lo = { 0 };
	struct sigaction sa, old_int, old_term;
	bool handlers_set = false;
	struct report facts;
	struct live_view *v = calloc(1, sizeof(*v));
	unsigned int i;
	int ret = DGR_EXIT_USAGE, rc;

	if (!v || !(v->hosts = calloc(o->n_inputs, sizeof(*v->hosts)))) {
		fprintf(stderr, "latency-report: out of memory\n");
		goto out;
	}
	v->o = o;
	v->n = o->n_inputs;
	v->tty = !o->json && isatty(STDOUT_FILENO);
	/* the facts are the options' only: run.json is written when the run ends */
	memset(&facts, 0, sizeof(facts));
	facts.run = o->run;
	facts.host_pids_from = o->n_pids ? HOST_PIDS_OPTIONS : HOST_PIDS_ALL;
	lr_set_tolerable(&facts, o, &o->run, lr_facts_from_options(o), false, NULL, NULL);
	for (i = 0; i < v->n; i++) {
		struct live_host *h = &v->hosts[i];

		h->url = o->inputs[i];
		h->whole = LR_WHOLE_UNKNOWN;
		snprintf(h->whole_why, sizeof(h->whole_why), "%s",
			 "given a URL, the session's end does not tell whether the run had ended "
			 "(give the run folder: latency-report --live RUN-FOLDER)");
		if (lr_live_is_folder(o->inputs[i])) {
			h->folder = o->inputs[i];
			if (lr_live_folder_url(h->folder, h->folder_url, sizeof(h->folder_url),
					       &h->capture_pid, &live_stop, errbuf) < 0) {
				fprintf(stderr, "latency-report: %s\n", errbuf);
				goto out;
			}
			h->url = h->folder_url;
		}
		urls[i] = h->url;
		if (ha_init(&h->ha)) {
			fprintf(stderr, "latency-report: out of memory\n");
			goto out;
		}
		h->ha_on = true;
		h->ha.time_offset_ns = o->trace_offset_ns;
		memcpy(h->ha.only_pids, o->pids, sizeof(o->pids));
		h->ha.n_only_pids = o->n_pids;
		h->rep = facts;
		h->rep.host = &h->ha;
		h->rep.inputs = &h->url;
		h->rep.n_inputs = 1;
		live_init(&h->acc);
		join_series_init(&h->js);
		hs[i] = &h->ha;
	}
	for (i = 0; (o->n_live_if || o->n_live_follow) && i < v->n; i++) {
		rc = live_wire_open(o, &v->hosts[i], i, errbuf);
		if (rc < 0) {
			fprintf(stderr, "latency-report: %s\n", errbuf);
			goto out;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &v->start);
	lo.tick_ns = o->live_interval_ns;
	lo.on_tick = live_tick;
	lo.ctx = v;
	lo.stop = &live_stop;
	for (i = 0; i < v->n; i++) {
		if (v->hosts[i].cap) {
			lo.extra_fds[lo.n_extra++] = pcap_input_live_fd(v->hosts[i].cap);
		}
	}
	if (v->hosts[0].follow) {
		lo.extra_fds[lo.n_extra++] = pcap_input_follow_fd(v->hosts[0].follow);
	}
	lo.on_extra = lo.n_extra ? live_capture : NULL;
	/*
	 * No SA_RESTART: the reader's poll returns at once and sees the flag.
	 * Kept until the report is out: a Ctrl-C just after the session ended
	 * must not lose the final report (the default action would end the
	 * process with the report still in stdout's buffer).
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	handlers_set = true;
	rc = ctf_input_live(urls, hs, v->n, &o->ctf, &lo, errbuf);
	if (rc == 0 && v->hosts[0].cap) {
		/* the frames that came before the sessions' end */
		rc = live_capture(v, errbuf);
	}
	for (i = 0; rc == 0 && i < v->n; i++) {
		/*
		 * To the file's end: dgrdma-capture stops dumpcap before it
		 * destroys the session, so a session that ended has a whole
		 * capture; an interrupted view takes the records written so far.
		 */
		if (v->hosts[i].follow) {
			rc = pcap_input_follow_finish(v->hosts[i].follow, !lo.stopped, errbuf);
			rc = rc < 0 ? rc : 0;
		}
	}
	if (rc == 0) {
		/* the last, partial interval: its run so far is the final report's */
		rc = live_tick(v, errbuf);
	}
	if (rc) {
		fprintf(stderr, "latency-report: %s\n", errbuf);
		ret = rc == -DGR_E_SYS ? DGR_EXIT_FAILED : DGR_EXIT_USAGE;
		goto out;
	}
	for (i = 0; i < v->n; i++) {
		struct live_host *h = &v->hosts[i];

		if (lo.stopped) {
			/* whole stays LR_WHOLE_UNKNOWN, as set up */
			snprintf(h->whole_why, sizeof(h->whole_why), "%s",
				 "the view was interrupted before the session ended");
			continue;
		}
		if (!h->folder) {
			continue;
		}
		h->run = o->run;
		h->run_json_waited = true;
		rc = lr_live_folder_run(h->folder, h->capture_pid, &h->run, &h->facts_from_run_json,
					&h->whole, &live_stop, !o->json, h->whole_why,
					sizeof(h->whole_why), errbuf);
		if (rc < 0) {
			fprintf(stderr, "latency-report: %s\n", errbuf);
			goto out;
		}
		if (h->whole != LR_WHOLE_YES) {
			fprintf(stderr, "latency-report: %s: not known to be the whole run: %s\n",
				h->folder, h->whole_why);
		}
	}
	if (!o->json) {
		bool from_url = false;

		for (i = 0; i < v->n; i++) {
			from_url |= !v->hosts[i].folder;
		}
		printf("%s\n",
		       lo.stopped ? "Interrupted: the report on the run so far"
		       : from_url ? "The session ended: the report (given a URL, the session's end "
				    "does not tell whether the run had ended)"
				  : "The session ended: the report");
	}
	ret = DGR_EXIT_OK;
	for (i = 0; i < v->n; i++) {
		rc = pcap_input_live_close(v->hosts[i].cap, errbuf);
		v->hosts[i].cap = NULL;
		if (rc < 0) {
			/* an output that cannot be written */
			fprintf(stderr, "latency-report: %s\n", errbuf);
			ret = DGR_EXIT_FAILED;
			goto out;
		}
	}
	for (i = 0; i < v->n; i++) {
		rc = live_final(o, &v->hosts[i], v->n > 1, errbuf);
		if (rc < 0) {
			fprintf(stderr, "latency-report: %s\n", errbuf);
			ret = DGR_EXIT_USAGE;
			goto out;
		}
		ret = rc > ret ? rc : ret;
	}
	if (fflush(stdout)) {
		fprintf(stderr, "latency-report: standard output: %s\n", strerror(errno));
		ret = DGR_EXIT_FAILED;
	}
out:
	for (i = 0; v && v->hosts && i < v->n; i++) {
		struct live_host *h = &v->hosts[i];

		pcap_input_live_close(h->cap, errbuf);
		pcap_input_follow_close(h->follow);
		if (h->wa_on) {
			wa_free(&h->wa);
		}
		if (h->ha_on) {
			ha_free(&h->ha);
		}
		live_free(&h->acc);
		join_series_free(&h->js);
	}
	if (v) {
		free(v->hosts);
	}
	free(v);
	if (handlers_set) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
	}
	return ret;
}
