// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-report's own parts (analysis/latency-report/): the command line
 * (options.c), what the offline report and the live view judge alike
 * (judge.c), the offline pipeline (offline.c), the live view (live_view.c)
 * and main (main.c), the only one that ends the program.
 */
#ifndef LATENCY_REPORT_H
#define LATENCY_REPORT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "advise.h"
#include "ctf_input.h"
#include "host_events.h"
#include "join.h"
#include "live.h"
#include "report.h"
#include "run_info.h"
#include "vicious.h"
#include "wire_analysis.h"

#define MAX_INPUTS	  4096 /* a ring of capture files given one by one; a folder holds any number */
#define LR_MAX_CSV_VALUES 16 /* --csv, --plot-columns and --doorbell-rows given, all together */

struct options {
	bool json;
	bool brief;		   /* --brief: the summary screen only */
	bool live;		   /* INPUT is an LTTng live URL, followed as it is written */
	uint64_t live_interval_ns; /* --live-interval */
	/* --live-if: the wire too, captured on these interfaces (one per URL, in order) */
	const char *live_if[LIVE_MAX_HOSTS];
	const char *live_filter[LIVE_MAX_HOSTS]; /* --live-filter: one for all, or one each */
	const char *live_pcap[LIVE_MAX_HOSTS];	 /* --live-pcap: the frames captured, saved */
	unsigned int n_live_if, n_live_filter, n_live_pcap;
	/* --live-follow: the wire too, from captures being written (one per URL, in order) */
	const char *live_follow[LIVE_MAX_HOSTS];
	unsigned int n_live_follow;
	const char *csv_dir;
	unsigned int plot_columns; /* --plot-columns N (0: none) */
	uint64_t doorbell_rows;	   /* --doorbell-rows N (UINT64_MAX: every row) */
	/*
	 * The values of --csv, --plot-columns and --doorbell-rows as the parser read them, pointers
	 * into argv (a word of their own, or the part after '=' of the option's word), however the
	 * option was spelt: an incident's report is run without them (incidents.c).
	 */
	const char *csv_values[LR_MAX_CSV_VALUES];
	unsigned int n_csv_values;
	uint64_t interval_ns;
	bool progress;
	struct wa_opts wa;
	bool path_given; /* --path: run.json's data path is not used */
	struct run_info run;
	const char *fpga_counters; /* --fpga-counters FILE */
	const char *kernel_trace;  /* --kernel-trace DIR */
	uint64_t tolerable_ns;
	int64_t trace_offset_ns;
	uint32_t pids[HA_MAX_PIDS];
	unsigned int n_pids;
	uint64_t join_window_ns;
	bool advise;
	unsigned int fail_on; /* FAIL_ON_* */
	struct advise_opts adv;
	struct ctf_read_opts ctf;
	const char *inputs[MAX_INPUTS];
	unsigned int n_inputs;
};

/* The options' defaults, before lr_parse_args(). */
void lr_options_init(struct options *o);

/*
 * Reads the command line into o with latency-report's option table (options.c; argv is
 * left as given). Returns 0 to go on, LR_ARGS_DONE when --help, --version or
 * --list-options was printed (the program ends with status 0), or -DGR_E_INVAL (bad
 * usage: errbuf names the argument and the accepted range) or -DGR_E_NOMEM with errbuf.
 */
#define LR_ARGS_DONE 1
int lr_parse_args(int argc, char **argv, struct options *o, char *errbuf);

/* Whether the options give any of the tolerable latency's facts. */
bool lr_facts_from_options(const struct options *o);

/*
 * The run's facts (rep->run: run's, which are the options' then run.json's,
 * then the trace's) and the tolerable latency: --tolerable-us, else buffers x
 * size / rate, else estimated (wa). Live and offline call it with what they
 * have read, so that both judge by the same facts.
 */
void lr_set_tolerable(struct report *rep, const struct options *o, const struct run_info *run,
		      bool from_options, bool facts_from_run_json, const struct wire_analysis *wa,
		      const struct host_analysis *ha);

/*
 * The verdict: on the wire series with the most doorbells (wa: NULL without a
 * capture), else the host's (ha: NULL without a trace). Returns 0,
 * -DGR_E_NOMEM when memory runs out, or -DGR_E_SYS when a series' temporary
 * file cannot be read back (lr_report_error() says which).
 */
int lr_decide(struct report *rep, const struct wire_analysis *wa, const struct host_analysis *ha);

/*
 * Completes the report of what was read (wa, ha: NULL when absent): the
 * tolerable latency, the vicious cycle (vc, fed from wa's transactions), the
 * wire and the trace on one axis (into js) and the verdict.
 * Returns 0 or lr_decide()'s negative code.
 */
int lr_build_report(struct report *rep, const struct options *o, const struct run_info *run,
		    bool from_options, bool facts_from_run_json, struct wire_analysis *wa,
		    struct host_analysis *ha, struct vicious *vc, struct join_series *js);

/* What a negative code of the report's computation (lr_decide, report_print) means. */
const char *lr_report_error(int rc);

/*
 * latency-report INPUT...: reads the captures, traces and run folders of o
 * (a flight recorder's folder: each incident; argv: the command line, for
 * those) and prints the report. Returns the exit status (DGR_EXIT_*).
 */
int lr_offline(struct options *o, int argc, char **argv);

/*
 * --live RUN-FOLDER (live_folder.c): dgrdma-capture --live's output folder,
 * followed through its live.url; once the session ended, its run.json. The
 * waits: live.url is written once the capture's session is up; run.json after
 * its relayd's stop (at most 10 s) and --kernel's conversion (waited for as long
 * as dgrdma-capture runs when it is seen, else LR_LIVE_RUN_JSON_WAIT_S).
 */
#define LR_STR_(x)		#x
#define LR_STR(x)		LR_STR_(x)
#define LR_LIVE_URL_WAIT_S	30
#define LR_LIVE_RUN_JSON_WAIT_S 60

/*
 * Whether a --live INPUT names a run folder: it has no "://" (a URL has); the
 * folder may not exist yet when the view starts with the recording.
 */
bool lr_live_is_folder(const char *input);

/*
 * The live URL of run folder DIR, from its live.url (the folder and the file
 * waited for at most LR_LIVE_URL_WAIT_S, or until *stop), into url (size
 * bytes); *capture_pid: the recording dgrdma-capture's pid, from the session's
 * name, when this process sees it running (0: not seen, another PID namespace
 * or another name). Returns 0, or -DGR_E_INVAL (not a folder, a finished run,
 * no live.url, not a URL in it) or -DGR_E_SYS with errbuf.
 */
int lr_live_folder_url(const char *dir, char *url, size_t size, long *capture_pid,
		       volatile sig_atomic_t *stop, char *errbuf);

/* Whether what a live view read holds the whole run. */
enum lr_whole {
	LR_WHOLE_UNKNOWN = -1, /* a URL (its end says nothing), an interrupted view, no run.json */
	LR_WHOLE_NO = 0,       /* run.json says a part ended before the run did */
	LR_WHOLE_YES = 1,
};

/*
 * Once DIR's session ended: its run.json (waited for while dgrdma-capture
 * capture_pid runs and a second after, or at most LR_LIVE_RUN_JSON_WAIT_S
 * when capture_pid is 0; until *stop; tell: say on stderr after a second
 * that it is waited for) read into ri, which holds the options' facts
 * (they come first, as offline). *whole: LR_WHOLE_YES, LR_WHOLE_NO (a part
 * ended before the run did) or LR_WHOLE_UNKNOWN (no run.json), why saying so
 * for the last two. *facts_from_run_json: whether run.json gave any of the
 * four facts. Returns 0, or -DGR_E_INVAL with errbuf for a run.json that
 * cannot be read.
 */
int lr_live_folder_run(const char *dir, long capture_pid, struct run_info *ri,
		       bool *facts_from_run_json, int *whole, volatile sig_atomic_t *stop,
		       bool tell, char *why, size_t why_size, char *errbuf);

/*
 * latency-report --live URL...: follows the sessions until they end or
 * SIGINT or SIGTERM, then prints each one's final report. Returns the exit
 * status.
 */
int lr_live(const struct options *o);

#endif
