// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-report INPUT...: the offline pipeline. The inputs are sorted
 * (captures, traces, run folders and their run.json), the capture is read
 * through the wire analysis, the traces through the in-host one, the kernel's
 * trace into the stalls' causes; the report is judged and printed once.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dgrdma/wire.h>

#include "cli.h"
#include "print.h"

#include "advise.h"
#include "capture_set.h"
#include "csv_output.h"
#include "ctf_input.h"
#include "fpga_counters.h"
#include "host_events.h"
#include "incidents.h"
#include "join.h"
#include "kernel_input.h"
#include "kernel_sched.h"
#include "pcap_input.h"
#include "report.h"
#include "run_folder.h"
#include "run_info.h"
#include "stall_cause.h"
#include "vicious.h"
#include "wire_threads.h"
#include "wire_analysis.h"
#include "latency-report.h"

/* The callbacks of the analyses, fanned out to the CSV writer. */
struct app {
	struct csv_out csv;
	bool csv_on;
	struct vicious vc; /* the vicious cycle finding, from the RX data transactions */
	int64_t trace_offset_ns;
	struct stall_cause *sc; /* the in-host doorbells, for the stalls' causes (NULL: none) */
	bool sc_nomem;
	/* the capture's doorbells, for a host without UST events (NULL: not needed) */
	struct wire_threads *wt;
};

static void app_bell(void *ctx, const struct wa_bell_event *ev)
{
	struct app *a = ctx;

	if (a->csv_on) {
		csv_bell(&a->csv, ev);
	}
	if (a->wt && ev->dir == WA_RX && ev->kind == DM_MATCHED &&
	    wt_add_bell(a->wt, ev->txn_ts, ev->ts, ev->frame_len) < 0) {
		a->sc_nomem = true;
	}
}

static void app_txn(void *ctx, const struct wa_txn_event *ev)
{
	struct app *a = ctx;

	if (ev->dir == WA_RX) {
		vicious_txn(&a->vc, ev->ts, ev->bytes, ev->opcode);
	}
	if (a->csv_on) {
		csv_txn(&a->csv, ev);
	}
}

static void app_host_bell(void *ctx, const struct ha_doorbell *d)
{
	struct app *a = ctx;

	if (a->csv_on) {
		csv_host_doorbell(&a->csv, d);
	}
	if (a->sc && sc_add_bell(a->sc, d) < 0) {
		a->sc_nomem = true;
	}
}

static void app_drops(void *ctx, uint64_t ts, const char *source, unsigned int conn, uint32_t vpid,
		      uint64_t delivered, uint64_t lost)
{
	struct app *a = ctx;

	if (a->csv_on) {
		csv_drops(&a->csv, ts, source, conn, vpid, delivered, lost);
	}
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * The roles run.json's recorded command gives, where the options gave none:
 * the data path, the UDP ports it used, the host's own address.
 */
static void take_run_roles(struct options *o)
{
	const struct run_info *ri = &o->run;
	unsigned int i;
	int n;

	if (!o->path_given && ri->path != RUN_PATH_UNKNOWN) {
		o->wa.undecided_path = ri->path == RUN_PATH_TX ? WA_TX : WA_RX;
	}
	for (i = 0; i < ri->n_udp_ports; i++) {
		/* a full table (64 ports of --udp-port) keeps the options' ports */
		(void)wa_opts_add_udp_port(&o->wa, ri->udp_ports[i]);
	}
	if (ri->host_addr[0] && o->wa.n_hosts == 0) {
		n = pcap_input_parse_addr(ri->host_addr, &o->wa.hosts[0]);
		if (n > 0) {
			o->wa.host_len[0] = (unsigned int)n;
			o->wa.n_hosts = 1;
		}
	}
}

/*
 * The processes whose trace events count, into pids[0..*n) (none: every
 * process): --pid's, else the run's (run.json's command_pid and trace_pids:
 * the per-user buffers hold every process of the user that traced meanwhile).
 */
static enum host_pids_from host_pids(const struct options *o, uint32_t *pids, unsigned int *n)
{
	const struct run_part *t = &o->run.trace;
	unsigned int i;

	*n = 0;
	if (o->n_pids) {
		memcpy(pids, o->pids, o->n_pids * sizeof(pids[0]));
		*n = o->n_pids;
		return HOST_PIDS_OPTIONS;
	}
	if (!o->run.command_pid) {
		return HOST_PIDS_ALL;
	}
	pids[(*n)++] = o->run.command_pid;
	for (i = 0; i < t->n_trace_pids && *n < HA_MAX_PIDS; i++) {
		pids[(*n)++] = t->trace_pids[i];
	}
	return HOST_PIDS_RUN_JSON;
}

/*
 * A fresh in-host analysis for main of the processes pids[0..n) (n 0: all);
 * provider: the filter applies to its events only (NULL: to every event).
 * Returns 0, or -DGR_E_NOMEM.
 */
static int host_setup(struct host_analysis *ha, const struct options *o, struct app *app,
		      const uint32_t *pids, unsigned int n, const char *provider)
{
	if (ha_init(ha)) {
		return -DGR_E_NOMEM;
	}
	ha->on_doorbell = app_host_bell;
	ha->on_drops = app_drops;
	ha->ctx = app;
	ha->time_offset_ns = o->trace_offset_ns;
	if (n) {
		memcpy(ha->only_pids, pids, n * sizeof(pids[0]));
	}
	ha->n_only_pids = n;
	ha->only_pids_provider = provider;
	return 0;
}

/*
 * Reads the traces into ha; origin: the CSV origin, set to the first event (no
 * capture). Returns 0, or ctf_input_read()'s negative code with errbuf filled.
 */
static int read_host(const char *const *traces, unsigned int n, struct host_analysis *ha,
		     const struct options *o, uint64_t *origin, char *errbuf)
{
	unsigned int i;
	int rc;

	ha->origin = origin;
	for (i = 0; i < n; i++) {
		rc = ctf_input_read(traces[i], ha, &o->ctf, errbuf);
		if (rc) {
			return rc;
		}
	}
	return 0;
}

/*
 * The stalls of a host without UST events: the capture's RX doorbells on the
 * kernel trace's axis, with the threads wt_find found (docs/analysis.md,
 * "Stalls of a host without UST events"). Returns 0, or -DGR_E_NOMEM.
 */
static int wire_stalls(struct stall_cause *sc, struct wire_threads *wt, struct kernel_sched *ks,
		       uint64_t tolerable_ns, uint64_t csv_origin)
{
	int32_t rx, tx;
	size_t i;
	int rc;

	rc = wt_find(wt, ks);
	if (rc < 0) {
		return rc;
	}
	rx = wt->receiver.found ? wt->receiver.tid : 0;
	tx = wt->sender.found ? wt->sender.tid : 0;
	for (i = 0; i < wt->n; i++) {
		const struct wt_bell *b = &wt->bells[i];
		uint64_t bell_off = (uint64_t)wt_bell_offset(wt, i);

		rc = sc_add_wire_bell(sc, b->arrival - bell_off, wt->copy_ts ? wt->copy_ts[i] : 0,
				      b->sent - bell_off, rx, tx);
		if (rc < 0) {
			return rc;
		}
	}
	sc->wire = wt;
	sc->csv_origin_known = true;
	sc->csv_origin_ns = csv_origin - (uint64_t)wt->offset_ns;
	return sc_analyse(sc, tolerable_ns, NULL, ks);
}

/*
 * latency-report INPUT...: reads the captures, traces and run folders of o
 * (a flight recorder's folder: each incident, with argv) and prints the
 * report. Returns the exit status (DGR_EXIT_*).
 */
int lr_offline(struct options *o, int argc, char **argv)
{
	struct app app;
	struct wire_analysis wa;
	struct host_analysis ha;
	struct report rep;
	struct dgr_pr pr;
	struct join_series js;
	char errbuf[DGR_ERRBUF_SIZE], partial[DGR_ERRBUF_SIZE] = "";
	char path[PATH_MAX], fpga_path[PATH_MAX];
	struct fpga_counters fpga;
	const char *traces[MAX_INPUTS];
	struct capture_set cset = { 0 };
	struct run_folder *folders = NULL;
	struct stall_cause sc;
	struct advise_opts adv;
	struct kernel_sched ks;
	struct wire_threads wt;
	bool wire_on = false;
	char kernel_path[PATH_MAX] = "";
	const char *kpath = NULL;
	bool ks_on = false;
	uint32_t pids[HA_MAX_PIDS];
	unsigned int n_traces = 0, n_folders = 0, n_pids = 0, i;
	bool facts_given, facts_from_run_json = false, wa_on = false, ha_on = false;
	uint64_t origin = 0;
	/* until the report is written, a failure is the input's (docs/analysis.md, "Exit status")
	 */
	int ret = DGR_EXIT_USAGE, rc;

	if (o->n_inputs == 1 && is_dir(o->inputs[0]) && incidents_dir_is(o->inputs[0])) {
		/* a flight recorder's folder: every incident, each a run folder */
		for (i = 1; i < (unsigned int)argc && argv[i] != o->inputs[0]; i++) {
		}
		return incidents_report(o->inputs[0], "/proc/self/exe", argc, argv, (int)i,
					o->csv_values, o->n_csv_values, o->json, o->csv_dir);
	}
	facts_given = lr_facts_from_options(o);
	memset(&app, 0, sizeof(app));
	memset(&rep, 0, sizeof(rep));
	join_series_init(&js);
	sc_init(&sc);
	wt_init(&wt);
	app.sc = &sc;
	app.trace_offset_ns = o->trace_offset_ns;
	o->wa.on_bell = app_bell;
	o->wa.on_txn = app_txn;
	o->wa.ctx = &app;

	/* sort the inputs: captures, traces, run folders (their parts, plus run.json) */
	folders = calloc(o->n_inputs, sizeof(*folders));
	if (!folders) {
		fprintf(stderr, "latency-report: out of memory\n");
		goto out_inputs;
	}
	for (i = 0; i < o->n_inputs; i++) {
		const char *in = o->inputs[i];

		if (is_dir(in) && run_folder_is(in)) {
			struct run_folder *rf = &folders[n_folders];
			struct stat st;
			bool has_run_json;

			snprintf(path, sizeof(path), "%s/run.json", in);
			/* any entry: a broken link or a link loop is refused, not taken as none */
			has_run_json = lstat(path, &st) == 0;
			if (has_run_json) {
				struct run_info before = o->run;

				if (run_info_read(path, &o->run, errbuf) < 0) {
					fprintf(stderr, "latency-report: %s\n", errbuf);
					goto out_inputs;
				}
				facts_from_run_json |= run_info_facts_added(&before, &o->run);
				take_run_roles(o);
			}
			snprintf(fpga_path, sizeof(fpga_path), "%s/fpga-counters.json", in);
			if (!o->fpga_counters && lstat(fpga_path, &st) == 0) {
				o->fpga_counters = fpga_path;
			}
			if (run_folder_resolve(in, has_run_json ? &o->run : NULL, rf, errbuf) < 0) {
				fprintf(stderr, "latency-report: %s\n", errbuf);
				goto out_inputs;
			}
			n_folders++;
			/* dgrdma-capture --kernel's trace, relative to the folder; refused when
			 * it ended before the run did */
			if (has_run_json && o->run.kernel.state == RUN_PART_RECORDED &&
			    !kernel_path[0]) {
				if (o->run.kernel.lost[0]) {
					fprintf(
					    stderr,
					    "latency-report: %s: the kernel's trace ends before "
					    "the run did (run.json's kernel.lost: %s); give it "
					    "with --kernel-trace for what it holds\n",
					    in, o->run.kernel.lost);
					goto out_inputs;
				}
				snprintf(kernel_path, sizeof(kernel_path), "%s%s%s",
					 o->run.kernel.path[0] == '/' ? "" : in,
					 o->run.kernel.path[0] == '/' ? "" : "/",
					 o->run.kernel.path);
			}
			if (rf->capture.read &&
			    (rf->capture.set
				 ? capture_set_add_dir(&cset, rf->capture.path, errbuf)
				 : capture_set_add(&cset, rf->capture.path, errbuf)) < 0) {
				fprintf(stderr, "latency-report: %s\n", errbuf);
				goto out_inputs;
			}
			/* a ring that dropped the run's start: what began before is no loss */
			o->wa.start_cut |= rf->capture.read && rf->capture.start_dropped;
			/* a flight recorder's incident: its window ends mid-run too */
			o->wa.end_cut |= rf->capture.read && has_run_json && o->run.incident;
			if (rf->trace.read) {
				traces[n_traces++] = rf->trace.path;
			}
		} else if (is_dir(in)) {
			int added;

			if (ctf_input_find(in, errbuf) < 0 &&
			    (added = capture_set_add_dir(&cset, in, errbuf)) != 0) {
				/* a folder of capture files (dumpcap's ring): one capture */
				if (added < 0) {
					fprintf(stderr, "latency-report: %s\n", errbuf);
					goto out_inputs;
				}
				continue;
			}
			if (ctf_input_find(in, errbuf) < 0) {
				const char *why = strstr(errbuf, ": no CTF trace");

				fprintf(
				    stderr,
				    "latency-report: %s: neither a trace folder nor a run folder "
				    "(no run.json, capture.pcapng, capture.pcap or trace in it; "
				    "%s)\n",
				    in, why ? why + 2 : errbuf);
				goto out_inputs;
			}
			traces[n_traces++] = in;
		} else if (!strcmp(in, "-") || (is_file(in) && capture_set_is_capture(in))) {
			/* standard input, or a capture file, plain or gzip */
			if (capture_set_add(&cset, in, errbuf) < 0) {
				fprintf(stderr, "latency-report: %s\n", errbuf);
				goto out_inputs;
			}
		} else if (access(in, F_OK) != 0) {
			fprintf(stderr, "latency-report: %s: %s\n", in, strerror(errno));
			goto out_inputs;
		} else if (!is_file(in) && !is_dir(in)) {
			/* a pipe or device: the reader needs a file it can read twice */
			fprintf(stderr,
				"latency-report: %s: not a regular file (give a stream on standard "
				"input: latency-report - < PIPE)\n",
				in);
			goto out_inputs;
		} else {
			fprintf(stderr,
				"latency-report: %s: not a pcap/pcapng capture or a trace folder\n",
				in);
			goto out_inputs;
		}
	}
	if (o->fpga_counters && fpga_counters_read(o->fpga_counters, &fpga, errbuf) < 0) {
		fprintf(stderr, "latency-report: --fpga-counters: %s\n", errbuf);
		ret = DGR_EXIT_USAGE;
		goto out_inputs;
	}

	kpath = o->kernel_trace ? o->kernel_trace : kernel_path[0] ? kernel_path : NULL;
	/* a kernel trace with a capture and no UST trace: the stalls come from the wire */
	wire_on = kpath && !n_traces && cset.n;
	app.wt = wire_on ? &wt : NULL;
	if (cset.n && wa_init(&wa, &o->wa, errbuf) == 0) {
		wa_on = true;
	} else if (cset.n) {
		fprintf(stderr, "latency-report: %s\n", errbuf);
		goto out;
	}
	if (n_traces) {
		rep.host_pids_from = host_pids(o, pids, &n_pids);
		/*
		 * run.json's processes: the command's own provider only (the
		 * emulator of a host's run is another process by nature)
		 */
		if (host_setup(&ha, o, &app, pids, n_pids,
			       rep.host_pids_from == HOST_PIDS_RUN_JSON ? o->run.command_provider
									: NULL)) {
			fprintf(stderr, "latency-report: out of memory\n");
			goto out;
		}
		ha_on = true;
	}
	if (o->csv_dir) {
		if (csv_open(&app.csv, o->csv_dir, o->interval_ns, wa_on ? &wa.first_ts : &origin,
			     errbuf)) {
			fprintf(stderr, "latency-report: %s\n", errbuf);
			ret = DGR_EXIT_FAILED; /* an output, not an input */
			goto out;
		}
		app.csv_on = true;
		if (csv_plot_columns(&app.csv, o->plot_columns, o->doorbell_rows) < 0) {
			fprintf(stderr, "latency-report: out of memory\n");
			ret = DGR_EXIT_FAILED;
			goto out;
		}
	}
	if (wa_on) {
		rc = capture_set_read(&cset, &wa, o->progress, errbuf);
		if (rc < 0) {
			fprintf(stderr, "latency-report: %s\n", errbuf);
			ret = 2;
			goto out;
		}
		if (rc == PCAP_INPUT_PARTIAL) {
			/* reported on what was read, marked partial, exit status 2 */
			fprintf(stderr, "latency-report: partial capture: %s\n", errbuf);
			snprintf(partial, sizeof(partial), "%s", errbuf);
		}
		wa_finish(&wa);
	}
	if (n_traces && read_host(traces, n_traces, &ha, o, wa_on ? NULL : &origin, errbuf)) {
		fprintf(stderr, "latency-report: %s\n", errbuf);
		ret = 2;
		goto out;
	}
	if (n_traces && rep.host_pids_from == HOST_PIDS_RUN_JSON && ha.c.chosen_pids == 0 &&
	    ha.c.other_pids) {
		/*
		 * Not one event of run.json's processes: a command run through a
		 * wrapper (timeout, sh -c) traces under its child's pid. Every
		 * process's events then count, and the report says why.
		 */
		ha_free(&ha);
		ha_on = false;
		sc_free(&sc);
		sc_init(&sc);
		rep.host_pids_from = HOST_PIDS_ALL_COMMAND_SILENT;
		if (host_setup(&ha, o, &app, NULL, 0, NULL)) {
			fprintf(stderr, "latency-report: out of memory\n");
			goto out;
		}
		ha_on = true;
		if (read_host(traces, n_traces, &ha, o, wa_on ? NULL : &origin, errbuf)) {
			fprintf(stderr, "latency-report: %s\n", errbuf);
			ret = 2;
			goto out;
		}
	}

	if (kpath && !ha_on && !wire_on) {
		fprintf(
		    stderr,
		    "latency-report: the kernel trace %s needs the run's LTTng trace or its packet "
		    "capture too (the stalls come from the stack's events, else from the "
		    "capture's doorbells)\n",
		    kpath);
		goto out;
	}
	if (kpath) {
		/*
		 * With the UST trace: the kernel clock's reading (CLOCK_MONOTONIC, the
		 * UST clock's too) at the UST clock's origin, whatever offset the kernel
		 * trace's clock class holds (0 converted by hand, the epoch offset
		 * dgrdma-capture wrote or LTTng measured). A wire-only run: dgrdma-capture
		 * put the kernel trace's clock on the epoch.
		 */
		bool reading = ha_on && ha.clock_origin_known;
		int64_t off = !ha_on ? o->trace_offset_ns
				     : ha.time_offset_ns + (reading ? ha.clock_origin_ns : 0);

		if (ks_init(&ks)) {
			fprintf(stderr, "latency-report: out of memory\n");
			goto out;
		}
		ks_on = true;
		if (kernel_input_read(kpath, off, reading ? KIN_CLOCK_READING : KIN_NS_FROM_ORIGIN,
				      &ks, errbuf) < 0) {
			fprintf(stderr, "latency-report: %s\n", errbuf);
			goto out;
		}
	}
	if (app.sc_nomem) {
		fprintf(stderr, "latency-report: out of memory\n");
		goto out;
	}

	rep.inputs = o->inputs;
	rep.n_inputs = o->n_inputs;
	rep.folders = folders;
	rep.n_folders = n_folders;
	rc = lr_build_report(&rep, o, &o->run, facts_given, facts_from_run_json, wa_on ? &wa : NULL,
			     ha_on ? &ha : NULL, &app.vc, &js);
	if (rc) {
		fprintf(stderr, "latency-report: %s\n", lr_report_error(rc));
		goto out;
	}
	for (i = 0; i < rep.n_apart; i++) {
		fprintf(stderr, "latency-report: warning: %s\n", rep.apart[i]);
	}
	if (rep.clock_step[0]) {
		fprintf(stderr, "latency-report: warning: %s\n", rep.clock_step);
	}
	if (ha_on) {
		sc.kernel_path = kpath;
		sc.csv_origin_known = true;
		sc.csv_origin_ns = wa_on ? wa.first_ts : origin;
		rc = sc_analyse(&sc, rep.host_tolerable_ns, &ha, ks_on ? &ks : NULL);
		if (rc < 0) {
			fprintf(stderr, "latency-report: %s\n", lr_report_error(rc));
			goto out;
		}
		rep.stalls = sc.n_bells ? &sc : NULL;
	} else if (wire_on) {
		sc.kernel_path = kpath;
		rc = wire_stalls(&sc, &wt, &ks, rep.tolerable_ns[WA_RX], wa.first_ts);
		if (rc < 0) {
			fprintf(stderr, "latency-report: %s\n", lr_report_error(rc));
			goto out;
		}
		rep.stalls = sc.n_bells ? &sc : NULL;
	}
	if (o->fpga_counters) {
		rep.fpga = &fpga;
		rep.fpga_source = o->fpga_counters;
	} else if (rep.run.fpga_known) {
		/* an emulator recorded by dgrdma-capture: its counters are in run.json */
		rep.fpga = &rep.run.fpga;
		rep.fpga_source = "run.json";
	}
	if (partial[0]) {
		/* first, so that a long reason cannot push it out */
		char reason[sizeof(rep.verdict.reason)];

		snprintf(reason, sizeof(reason), "%s", rep.verdict.reason);
		snprintf(rep.verdict.reason, sizeof(rep.verdict.reason),
			 "PARTIAL: on the %" PRIu64 " frames read before the capture's cut "
			 "or damage; %.180s",
			 wa.frames, reason);
	}

	/* latency-report's dialect: indented JSON, yes/no, numbers in fixed point */
	dgr_pr_begin(&pr, stdout,
		     DGR_PR_JSON_PRETTY | DGR_PR_YES_NO | DGR_PR_FIXED_POINT |
			 (o->json ? DGR_PR_JSON : 0));
	if (o->brief) {
		report_print_summary(&pr, &rep);
	} else if ((rc = report_print(&pr, &rep)) != 0) {
		fprintf(stderr, "latency-report: %s\n", lr_report_error(rc));
		goto out;
	}
	if (partial[0]) {
		dgr_pr_obj_begin(&pr, "partial_input", "PARTIAL INPUT");
		dgr_pr_u64(&pr, "frames_read", "frames read", wa.frames);
		dgr_pr_str(&pr, "error", NULL, partial);
		dgr_pr_obj_end(&pr);
	}
	if (o->json && !o->brief && ha_on && ha.clock_origin_known) {
		/*
		 * the CSVs' time axis, for the times of another clock (a flight
		 * recorder's incidents, docs/analysis.md "Incidents"): time_s is
		 * (ns from origin - origin_ns) / 1e9, and CLOCK_MONOTONIC's t is at
		 * t + monotonic_zero_ns
		 */
		dgr_pr_obj_begin(&pr, "time_axis", NULL);
		dgr_pr_i64(&pr, "origin_ns", NULL, (int64_t)(wa_on ? wa.first_ts : origin));
		dgr_pr_i64(&pr, "monotonic_zero_ns", NULL, ha.clock_origin_ns + ha.time_offset_ns);
		dgr_pr_obj_end(&pr);
	}
	if ((ha_on || wire_on) && sc.n_bells && !o->brief) {
		sc_print(&pr, &sc);
	}
	adv = o->adv;
	adv.kernel_release = o->run.host_kernel; /* the cures of the kernel the run was on */
	if (o->advise && advise_print(&pr, rep.verdict.regime, &adv, ha_on || wire_on ? &sc : NULL,
				      errbuf) < 0) {
		fprintf(stderr, "latency-report: --advise: %s\n", errbuf);
		goto out;
	}
	if (dgr_pr_end(&pr) < 0) {
		fprintf(stderr, "latency-report: standard output: %s\n", strerror(errno));
		goto out;
	}
	ret = partial[0] ? DGR_EXIT_USAGE : report_exit_status(&rep, o->fail_on);
out:
	if (app.csv_on && csv_close(&app.csv, errbuf)) {
		fprintf(stderr, "latency-report: %s\n", errbuf);
		ret = DGR_EXIT_FAILED;
	}
	if (wa_on) {
		wa_free(&wa);
	}
	if (ha_on) {
		ha_free(&ha);
	}
	if (ks_on) {
		ks_free(&ks);
	}
	sc_free(&sc);
	wt_free(&wt);
	join_series_free(&js);
out_inputs:
	capture_set_free(&cset);
	free(folders);
	return ret;
}
