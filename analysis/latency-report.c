// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-report: doorbell latency on the wire (from a capture) and in the
 * host (from an LTTng trace), joined on one axis for a run folder, with a
 * verdict (healthy, jitter-bound, throughput-bound) and the tuning guide's
 * mitigations. See docs/analysis.md and latency-report(1).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <dgrdma/dcp.h>
#include <dgrdma/host.h>
#include <dgrdma/wire.h>

#include "cli.h"
#include "print.h"
#include "advise.h"
#include "capture_set.h"
#include "classify.h"
#include "csv_output.h"
#include "ctf_input.h"
#include "headroom.h"
#include "host_events.h"
#include "join.h"
#include "kernel_input.h"
#include "kernel_sched.h"
#include "live.h"
#include "pcap_input.h"
#include "report.h"
#include "incidents.h"
#include "run_folder.h"
#include "run_info.h"
#include "stall_cause.h"
#include "vicious.h"
#include "wire_analysis.h"

#include "dgrdma-version.h"

#define MAX_INPUTS 4096 /* a ring of capture files given one by one; a folder holds any number */

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

static void usage(FILE *fp)
{
	fprintf(
	    fp,
	    "usage: latency-report [options] [--] INPUT...\n"
	    "       latency-report --live [options] URL...\n"
	    "  INPUT is a capture (pcap/pcapng, or gzip of one), an LTTng trace folder, or a\n"
	    "  dgrdma-capture run folder (trace/, capture.pcapng, run.json: both, joined on one\n"
	    "  axis; the parts are the ones run.json's capture.path and trace.path name).\n"
	    "  Several captures, or a folder of them (dumpcap's ring), are read as one, in the\n"
	    "  order of their first frame; - reads one from standard input. A flight\n"
	    "  recorder's folder (dgrdma-capture --flight-recorder: incident-NNN/ in it), the\n"
	    "  only INPUT: one line per incident, then each incident's report.\n"
	    "  URL is an LTTng live session's (see --live; up to 8, followed together).\n"
	    "options:\n"
	    "  --json                 write the report as JSON to standard output\n"
	    "  --brief                only the summary: verdict, why, headroom, losses, run\n"
	    "                         status, findings, first actions (--json: its keys only)\n"
	    "  --csv DIR              write doorbells.csv, intervals.csv, host_doorbells.csv,\n"
	    "                         drops.csv into DIR (for dgrdma-plot)\n"
	    "  --interval MS          interval of intervals.csv, 1..60000 ms (default 100)\n"
	    "  --exact-limit N        exact percentiles up to N doorbells per series, above\n"
	    "                         them a log-linear histogram within 0.049%%, 1..2^32\n"
	    "                         (default 1000000)\n"
	    "  --live                 INPUT is an LTTng live URL,\n"
	    "                         net://RELAYD[:PORT]/host/HOSTNAME/SESSION (dgrdma-capture\n"
	    "                         --live prints it): follow the running session through\n"
	    "                         lttng-relayd, print the in-host doorbell latency of every\n"
	    "                         interval and of the run so far, the drop rate and the\n"
	    "                         verdict so far (--json: one JSON object per line), and the\n"
	    "                         final report when the session ends or on Ctrl-C; several\n"
	    "                         URLs (up to 8): per session and together\n"
	    "  --live-interval S      seconds between --live reports, 0.1..3600 (default 1)\n"
	    "  --live-if IFACE        --live: also capture on IFACE (libpcap) and report the\n"
	    "                         doorbell latency on the wire, joined with the trace as for\n"
	    "                         a run folder; with several URLs, once per URL in order\n"
	    "  --live-filter EXPR     the capture filter of --live-if (default: udp port 18078 or\n"
	    "                         ether proto 0xf040 or ether proto 0xf042); one for all, or\n"
	    "                         one per --live-if in order\n"
	    "  --live-pcap FILE       write what --live-if captured to FILE (pcap), to report on\n"
	    "                         it again offline; one per --live-if in order\n"
	    "  --live-follow FILE     --live: the wire too, from the capture FILE (pcap or\n"
	    "                         pcapng) read as it is written, e.g. the run folder's\n"
	    "                         capture.pcapng that dgrdma-capture --live records; with\n"
	    "                         several URLs, once per URL in the same order\n"
	    "  --host ADDR            this MAC, IPv4[:port], IPv6 or [IPv6]:port is the host\n"
	    "                         (repeatable, up to 16)\n"
	    "  --fpga-counters FILE   the FPGA's own loss counters (num_dropped_samps,\n"
	    "                         dropped_samples, dropped_open, num_underruns, ...): the\n"
	    "                         emulator's --summary-json, or the hardware's registers\n"
	    "                         (a run folder's fpga-counters.json is read by itself)\n"
	    "  --kernel-trace DIR     the kernel's scheduling trace of the run (perf data convert\n"
	    "                         --to-ctf of perf record -a -k CLOCK_MONOTONIC; a run\n"
	    "                         folder's run.json kernel.path is read by itself): every\n"
	    "                         stall is given its cause\n"
	    "  --udp-port LIST        UDP ports that carry DG-RDMA and DCP besides 18078,\n"
	    "                         comma-separated, 1..65535 (a run folder adds its command's)\n"
	    "  --path rx|tx           the data path of a connection no --host or DCP request\n"
	    "                         decides: rx, the data sender is the FPGA (default), or tx,\n"
	    "                         the host (a run folder: its command's path)\n"
	    "  --dcp-doorbells ADDR   DCP writes to property address ADDR are doorbells, the data\n"
	    "                         being the buffer index (default 0x100018, the emulator's\n"
	    "                         `doorbell` property of worker 0)\n"
	    "  --dcp-doorbells LO:HI  DCP writes to LO..HI are doorbells, one address per buffer;\n"
	    "                         'off': no DCP doorbells\n"
	    "  --reasm-timeout MS     incomplete transactions expire after MS ms of capture time,\n"
	    "                         1..3600000 (default 1000)\n"
	    "  --host-buffers N       host (consumer) buffers, 1..65535\n"
	    "  --fpga-buffers N       FPGA (producer) buffers, 2..64\n"
	    "  --buffer-size BYTES    buffer size, 1..2097152 (suffixes K, M allowed: 32K)\n"
	    "  --sample-rate SPS      stream rate in samples/s (4 bytes each), 1..1e10, e.g. "
	    "200e6\n"
	    "                         or 200M\n"
	    "  --tolerable-us US      tolerable doorbell latency, overrides the above, 1..1e9\n"
	    "  --trace-offset-ns NS   add NS to trace times before joining (+-1e18)\n"
	    "  --pid PID              only the trace events of process PID (its vpid context;\n"
	    "                         repeatable, up to 16): leaves out other processes that\n"
	    "                         traced into the same per-user buffers meanwhile\n"
	    "  --join-window-us US    pair wire and trace doorbells at most US apart, 1..1e7\n"
	    "                         (default 1000)\n"
	    "  --advise               after the verdict, list this host's settings the tuning\n"
	    "                         guide would change for the regime (dgrdma-tune check)\n"
	    "  --advise-if IFACE      interface for the NIC checks of --advise\n"
	    "  --advise-root DIR      check a fake root instead of / (implies --advise)\n"
	    "  --trace-stall S        stop reading a trace that yields no event for S seconds,\n"
	    "                         1..3600 (default 10): babeltrace2 can loop on a damaged one\n"
	    "  --verbose              show libbabeltrace2's own warnings and errors\n"
	    "  --fail-on LIST         exit 1 when the verdict is one of LIST (comma-separated:\n"
	    "                         jitter-bound, throughput-bound, unknown, not-healthy for\n"
	    "                         all three, loss for any loss the inputs show)\n"
	    "  --no-progress          no progress line on stderr\n"
	    "  -h, --help             this text\n"
	    "  --version              the version of dgrdma-tools\n"
	    "An option's value follows it (--interval 10) or is joined with '=' (--interval=10).\n"
	    "Without buffer counts, size and rate (options or run.json), the tolerable latency\n"
	    "is estimated from the capture: buffers seen x largest transaction / data rate.\n"
	    "Exit status: 0 report written; 1 a --fail-on finding; 2 bad usage or input that\n"
	    "cannot be read; 3 the run failed (run.json: the recorded command stalled or gave "
	    "up).\n");
}

/* --udp-port LIST: comma-separated ports 1..65535, added to 18078; a bad one is named. */
static int parse_udp_ports(const char *list, struct wa_opts *wa)
{
	char errbuf[DGR_ERRBUF_SIZE], word[16];
	const char *p = list;
	uint64_t port;

	for (;;) {
		size_t n = strcspn(p, ",");

		if (n == 0 || n >= sizeof(word)) {
			fprintf(stderr,
				"latency-report: --udp-port: '%s' is not a comma-separated list of "
				"ports 1..65535\n",
				list);
			return -1;
		}
		memcpy(word, p, n);
		word[n] = '\0';
		if (dgr_parse_u64("--udp-port", word, 1, 65535, false, &port, errbuf) < 0) {
			fprintf(stderr, "latency-report: %s\n", errbuf);
			return -1;
		}
		if (wa_opts_add_udp_port(wa, (uint16_t)port) < 0) {
			fprintf(stderr, "latency-report: --udp-port: at most %d ports\n",
				WA_MAX_UDP_PORTS);
			return -1;
		}
		if (p[n] == '\0') {
			return 0;
		}
		p += n + 1;
	}
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

/* A decimal option value in [lo, hi]; a bad one is named on stderr with the range. */
static int parse_num(const char *opt, const char *s, double lo, double hi, double *v)
{
	char errbuf[DGR_ERRBUF_SIZE];

	if (dgr_parse_f64(opt, s, lo, hi, v, errbuf) < 0) {
		fprintf(stderr, "latency-report: %s\n", errbuf);
		return -1;
	}
	return 0;
}

/* A whole-number option value in [lo, hi], named on stderr when bad. */
static int parse_count(const char *opt, const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
	char errbuf[DGR_ERRBUF_SIZE];

	if (dgr_parse_u64(opt, s, lo, hi, false, v, errbuf) < 0) {
		fprintf(stderr, "latency-report: %s\n", errbuf);
		return -1;
	}
	return 0;
}

static int parse_range(const char *s, uint32_t *lo, uint32_t *hi)
{
	char *end;
	unsigned long a, b;

	errno = 0;
	a = strtoul(s, &end, 0);
	if (errno || end == s || (*end != ':' && *end != '\0')) {
		return -1;
	}
	if (*end == '\0') {
		b = a;
	} else {
		b = strtoul(end + 1, &end, 0);
	}
	if (errno || *end || a > 0xFFFFFF || b > 0xFFFFFF || a > b) {
		return -1;
	}
	*lo = (uint32_t)a;
	*hi = (uint32_t)b;
	return 0;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	char errbuf[DGR_ERRBUF_SIZE];
	int i;
	double v;

	bool options_end = false;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		const char *eq = a[0] == '-' && a[1] == '-' ? strchr(a, '=') : NULL;
		char name[64];
		bool takes = true;

		if (eq && !options_end) {
			/* --opt=value: the value joined to the option, as getopt_long takes it */
			size_t n = (size_t)(eq - a);

			snprintf(name, sizeof(name), "%.*s", (int)(n < sizeof(name) ? n : 0), a);
			a = name;
			val = eq + 1;
			takes = false;
			if (!strcmp(a, "--json") || !strcmp(a, "--brief") ||
			    !strcmp(a, "--no-progress") || !strcmp(a, "--live") ||
			    !strcmp(a, "--advise") || !strcmp(a, "--help") ||
			    !strcmp(a, "--version")) {
				fprintf(stderr, "latency-report: %s takes no value\n", a);
				return -1;
			}
		}
		if (options_end || !strcmp(a, "-") || a[0] != '-') {
			if (o->n_inputs == MAX_INPUTS) {
				fprintf(stderr, "latency-report: at most %d inputs\n", MAX_INPUTS);
				return -1;
			}
			o->inputs[o->n_inputs++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			options_end = true;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "--version")) {
			printf("latency-report (dgrdma-tools) %s\n", DGR_VERSION);
			exit(0);
		} else if (!strcmp(a, "--json")) {
			o->json = true;
			takes = false;
		} else if (!strcmp(a, "--brief")) {
			o->brief = true;
			takes = false;
		} else if (!strcmp(a, "--live")) {
			o->live = true;
			takes = false;
		} else if (!strcmp(a, "--no-progress")) {
			o->progress = false;
			takes = false;
		} else if (!strcmp(a, "--advise")) {
			o->advise = true;
			takes = false;
		} else if (!strcmp(a, "--verbose")) {
			o->ctf.verbose = true;
			takes = false;
		} else if (a[0] == '-' && a[1] == '-' && !val) {
			fprintf(stderr, "latency-report: %s needs a value (see --help)\n", a);
			return -1;
		} else if (!strcmp(a, "--csv")) {
			o->csv_dir = val;
		} else if (!strcmp(a, "--fail-on")) {
			if (report_parse_fail_on(val, &o->fail_on, errbuf) < 0) {
				fprintf(stderr, "latency-report: %s\n", errbuf);
				return -1;
			}
		} else if (!strcmp(a, "--advise-if")) {
			o->adv.iface = val;
		} else if (!strcmp(a, "--advise-root")) {
			o->adv.root = val;
			o->advise = true;
		} else if (!strcmp(a, "--exact-limit")) {
			uint64_t v64;

			if (parse_count(a, val, 1, 1ull << 32, &v64)) {
				return -1;
			}
			stats_set_exact_limit(v64);
		} else if (!strcmp(a, "--interval")) {
			if (parse_num(a, val, 1, 60000, &v)) {
				return -1;
			}
			o->interval_ns = (uint64_t)(v * 1e6);
		} else if (!strcmp(a, "--live-if")) {
			if (o->n_live_if == LIVE_MAX_HOSTS) {
				fprintf(stderr,
					"latency-report: --live-if: at most %d (one per URL)\n",
					LIVE_MAX_HOSTS);
				return -1;
			}
			o->live_if[o->n_live_if++] = val;
		} else if (!strcmp(a, "--live-filter")) {
			if (o->n_live_filter == LIVE_MAX_HOSTS) {
				fprintf(stderr,
					"latency-report: --live-filter: at most %d (one per "
					"--live-if)\n",
					LIVE_MAX_HOSTS);
				return -1;
			}
			o->live_filter[o->n_live_filter++] = val;
		} else if (!strcmp(a, "--live-pcap")) {
			if (o->n_live_pcap == LIVE_MAX_HOSTS) {
				fprintf(
				    stderr,
				    "latency-report: --live-pcap: at most %d (one per --live-if)\n",
				    LIVE_MAX_HOSTS);
				return -1;
			}
			o->live_pcap[o->n_live_pcap++] = val;
		} else if (!strcmp(a, "--live-follow")) {
			if (o->n_live_follow == LIVE_MAX_HOSTS) {
				fprintf(stderr,
					"latency-report: --live-follow: at most %d (one per URL)\n",
					LIVE_MAX_HOSTS);
				return -1;
			}
			o->live_follow[o->n_live_follow++] = val;
		} else if (!strcmp(a, "--live-interval")) {
			if (parse_num(a, val, 0.1, 3600, &v)) {
				return -1;
			}
			o->live_interval_ns = (uint64_t)(v * 1e9);
		} else if (!strcmp(a, "--host")) {
			int n;

			if (o->wa.n_hosts == WA_MAX_HOSTS) {
				fprintf(stderr, "latency-report: --host: at most %d\n",
					WA_MAX_HOSTS);
				return -1;
			}
			n = pcap_input_parse_addr(val, &o->wa.hosts[o->wa.n_hosts]);
			if (n < 0) {
				fprintf(stderr,
					"latency-report: --host: '%s' is not a MAC "
					"(aa:bb:cc:dd:ee:ff), "
					"an IPv4 address, IPv4:port, an IPv6 address or "
					"[IPv6]:port\n",
					val);
				return -1;
			}
			o->wa.host_len[o->wa.n_hosts++] = (unsigned int)n;
		} else if (!strcmp(a, "--fpga-counters")) {
			o->fpga_counters = val;
		} else if (!strcmp(a, "--kernel-trace")) {
			o->kernel_trace = val;
		} else if (!strcmp(a, "--udp-port")) {
			if (parse_udp_ports(val, &o->wa)) {
				return -1;
			}
		} else if (!strcmp(a, "--path")) {
			if (strcmp(val, "rx") != 0 && strcmp(val, "tx") != 0) {
				fprintf(
				    stderr,
				    "latency-report: --path: '%s' is not rx (data FPGA->host) or "
				    "tx (data host->FPGA)\n",
				    val);
				return -1;
			}
			o->wa.undecided_path = val[0] == 't' ? WA_TX : WA_RX;
			o->path_given = true;
		} else if (!strcmp(a, "--dcp-doorbells")) {
			if (!strcmp(val, "off")) {
				o->wa.dcp_doorbells = false;
			} else if (parse_range(val, &o->wa.dcp_bell_lo, &o->wa.dcp_bell_hi)) {
				fprintf(stderr,
					"latency-report: --dcp-doorbells: '%s' is not ADDR or "
					"LO:HI with "
					"0 <= LO <= HI <= 0xFFFFFF, or 'off'\n",
					val);
				return -1;
			} else {
				o->wa.dcp_doorbells = true;
			}
		} else if (!strcmp(a, "--reasm-timeout")) {
			if (parse_num(a, val, 1, 3600000, &v)) {
				return -1;
			}
			o->wa.reasm_timeout_ns = (uint64_t)(v * 1e6);
		} else if (!strcmp(a, "--host-buffers")) {
			if (parse_count(a, val, 1, 65535, &o->run.host_buffers)) {
				return -1;
			}
		} else if (!strcmp(a, "--fpga-buffers")) {
			if (parse_count(a, val, DGR_FPGA_BUFFERS_MIN, DGR_FPGA_BUFFERS_MAX,
					&o->run.fpga_buffers)) {
				return -1;
			}
		} else if (!strcmp(a, "--buffer-size")) {
			/* written as dgrdma-host takes it: 32768 or 32K */
			if (dgr_parse_u64(a, val, 1, DGR_MAX_BUFFER_SIZE, true, &o->run.buffer_size,
					  errbuf) < 0) {
				fprintf(stderr, "latency-report: %s\n", errbuf);
				return -1;
			}
		} else if (!strcmp(a, "--sample-rate")) {
			if (dgr_parse_rate(a, val, 1, 1e10, &v, errbuf) < 0) {
				fprintf(stderr, "latency-report: %s\n", errbuf);
				return -1;
			}
			o->run.rate_bytes = (uint64_t)(v * DGR_SAMPLE_BYTES);
		} else if (!strcmp(a, "--tolerable-us")) {
			if (parse_num(a, val, 1, 1e9, &v)) {
				return -1;
			}
			o->tolerable_ns = (uint64_t)(v * 1e3);
		} else if (!strcmp(a, "--join-window-us")) {
			if (parse_num(a, val, 1, 1e7, &v)) {
				return -1;
			}
			o->join_window_ns = (uint64_t)(v * 1e3);
		} else if (!strcmp(a, "--trace-offset-ns")) {
			if (parse_num(a, val, -1e18, 1e18, &v)) {
				return -1;
			}
			o->trace_offset_ns = (int64_t)v;
		} else if (!strcmp(a, "--trace-stall")) {
			uint64_t sec;

			if (parse_count(a, val, 1, 3600, &sec)) {
				return -1;
			}
			o->ctf.stall_s = (unsigned int)sec;
		} else if (!strcmp(a, "--pid")) {
			uint64_t pid;

			/* the kernel's largest pid_max */
			if (parse_count(a, val, 1, 4194304, &pid)) {
				return -1;
			}
			if (o->n_pids == HA_MAX_PIDS) {
				fprintf(stderr, "latency-report: --pid: at most %d\n", HA_MAX_PIDS);
				return -1;
			}
			o->pids[o->n_pids++] = (uint32_t)pid;
		} else {
			fprintf(stderr, "latency-report: unknown option '%s' (see --help)\n", a);
			return -1;
		}
		if (takes) {
			i++;
		}
	}
	if (o->n_inputs == 0) {
		fprintf(stderr, "latency-report: no INPUT given\n");
		return -1;
	}
	if (!o->live && (o->n_live_if || o->n_live_filter || o->n_live_pcap || o->n_live_follow)) {
		fprintf(stderr, "latency-report: --live-if, --live-filter, --live-pcap and "
				"--live-follow go with --live\n");
		return -1;
	}
	if (o->n_live_if && o->n_live_follow) {
		fprintf(stderr,
			"latency-report: --live-if and --live-follow are two sources of the "
			"same wire: give one\n");
		return -1;
	}
	if ((o->n_live_filter || o->n_live_pcap) && !o->n_live_if) {
		fprintf(stderr, "latency-report: --live-filter and --live-pcap need --live-if\n");
		return -1;
	}
	if (o->n_live_filter > 1 && o->n_live_filter != o->n_live_if) {
		fprintf(stderr,
			"latency-report: --live-filter: give one for every --live-if, or one per "
			"--live-if in the same order (got %u for %u)\n",
			o->n_live_filter, o->n_live_if);
		return -1;
	}
	if (o->n_live_pcap && o->n_live_pcap != o->n_live_if) {
		fprintf(stderr,
			"latency-report: --live-pcap: give one file per --live-if, in the same "
			"order (got %u for %u)\n",
			o->n_live_pcap, o->n_live_if);
		return -1;
	}
	if (o->live) {
		struct ctf_live_url u;
		unsigned int k;

		if (o->n_inputs > LIVE_MAX_HOSTS) {
			fprintf(stderr,
				"latency-report: --live follows 1..%d sessions (got %u URLs)\n",
				LIVE_MAX_HOSTS, o->n_inputs);
			return -1;
		}
		for (k = 0; k < o->n_inputs; k++) {
			if (ctf_live_url_parse(o->inputs[k], &u, errbuf) < 0) {
				fprintf(stderr, "latency-report: --live: %s\n", errbuf);
				return -1;
			}
		}
		if (o->n_live_if && o->n_live_if != o->n_inputs) {
			fprintf(stderr,
				"latency-report: --live-if: give one interface per URL, in the "
				"same order (got %u for %u URLs)\n",
				o->n_live_if, o->n_inputs);
			return -1;
		}
		if (o->n_live_follow && o->n_live_follow != o->n_inputs) {
			fprintf(stderr,
				"latency-report: --live-follow: give one capture per URL, in the "
				"same order (got %u for %u URLs)\n",
				o->n_live_follow, o->n_inputs);
			return -1;
		}
		if (o->csv_dir) {
			fprintf(stderr,
				"latency-report: --csv is not available with --live (record "
				"the run, then write the series from its folder)\n");
			return -1;
		}
	}
	return 0;
}

/* The callbacks of the analyses, fanned out to the CSV writer. */
struct app {
	struct csv_out csv;
	bool csv_on;
	struct vicious vc; /* the vicious cycle finding, from the RX data transactions */
	int64_t trace_offset_ns;
	struct stall_cause *sc; /* the in-host doorbells, for the stalls' causes (NULL: none) */
	bool sc_nomem;
};

static void app_bell(void *ctx, const struct wa_bell_event *ev)
{
	struct app *a = ctx;

	if (a->csv_on) {
		csv_bell(&a->csv, ev);
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

/* Whether the options give any of the tolerable latency's facts. */
static bool facts_from_options(const struct options *o)
{
	return o->run.host_buffers || o->run.fpga_buffers || o->run.buffer_size ||
	       o->run.rate_bytes;
}

/*
 * The facts the trace records (dgrdma:stream_config, dgrdma_fpga:stream_config)
 * into the ones ri does not know: the options and run.json come first. The
 * FPGA's buffers and rate are the emulator's own when it was traced, else
 * the buffers the host was told. Returns whether any fact came from the trace.
 */
static bool take_trace_facts(const struct host_analysis *ha, struct run_info *ri,
			     struct report *rep)
{
	static const struct ha_facts none;
	const struct ha_facts *f = ha ? &ha->facts : &none;
	const uint64_t rate = f->fpga ? f->fpga_rate_sps * DGR_SAMPLE_BYTES : 0;
	/* fact: in ri (0 unknown); own: the process's own record of it; fill: the trace's best */
	const struct {
		const char *what;
		uint64_t *fact;
		uint64_t own, fill;
	} facts[] = {
		{ "host buffers", &ri->host_buffers, f->host ? f->host_buffers : 0,
		  f->host ? f->host_buffers : f->fpga_host_buffers },
		{ "buffer size", &ri->buffer_size, f->host ? f->buffer_size : 0,
		  f->host ? f->buffer_size : f->fpga_buffer_size },
		{ "FPGA buffers", &ri->fpga_buffers, f->fpga ? f->fpga_buffers : 0,
		  f->fpga ? f->fpga_buffers : f->peer_buffers },
		{ "rate, bytes/s", &ri->rate_bytes, rate, rate },
	};
	bool took = false;
	size_t i;

	rep->n_facts_disagree = 0;
	for (i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		if (*facts[i].fact && facts[i].own && *facts[i].fact != facts[i].own) {
			snprintf(rep->facts_disagree[rep->n_facts_disagree++],
				 sizeof(rep->facts_disagree[0]),
				 "%s: %" PRIu64
				 " given, but the trace's stream_config says %" PRIu64,
				 facts[i].what, *facts[i].fact, facts[i].own);
		} else if (!*facts[i].fact && facts[i].fill) {
			*facts[i].fact = facts[i].fill;
			took = true;
		}
	}
	return took;
}

/*
 * The run's facts (rep->run: the options', then run.json's, then the trace's)
 * and the tolerable latency: --tolerable-us, else buffers x size / rate, else
 * estimated (wa). Live and offline call it with what they have read, so that
 * both judge by the same facts.
 */
static void set_tolerable(struct report *rep, const struct options *o, bool from_options,
			  bool facts_from_run_json, const struct wire_analysis *wa,
			  const struct host_analysis *ha)
{
	static const char *const sources[8] = {
		"none",	 "options",	      "run.json",	    "options and run.json",
		"trace", "options and trace", "run.json and trace", "options, run.json and trace",
	};
	bool from_trace;

	rep->run = o->run;
	from_trace = take_trace_facts(ha, &rep->run, rep);
	rep->tolerable_source = "none";
	if (o->tolerable_ns) {
		rep->tolerable_ns[WA_RX] = rep->tolerable_ns[WA_TX] = o->tolerable_ns;
		rep->tolerable_source = "options";
	} else if (headroom_tolerable_ns(&rep->run)) {
		rep->tolerable_ns[WA_RX] = rep->tolerable_ns[WA_TX] =
		    headroom_tolerable_ns(&rep->run);
		rep->tolerable_source =
		    sources[(from_options || (!facts_from_run_json && !from_trace) ? 1 : 0) |
			    (facts_from_run_json ? 2 : 0) | (from_trace ? 4 : 0)];
	} else if (wa) {
		rep->tolerable_ns[WA_RX] = headroom_estimate_tolerable(&wa->dir[WA_RX]);
		rep->tolerable_ns[WA_TX] = headroom_estimate_tolerable(&wa->dir[WA_TX]);
		if (rep->tolerable_ns[WA_RX] || rep->tolerable_ns[WA_TX]) {
			rep->tolerable_source = "estimated";
		}
	}
	rep->host_tolerable_ns = rep->tolerable_ns[WA_RX];
}

/*
 * The verdict: on the wire series with the most doorbells (wa: NULL without a
 * capture), else the host's (ha: NULL without a trace). Returns 0, or -1 when
 * memory runs out.
 */
static int decide(struct report *rep, const struct wire_analysis *wa,
		  const struct host_analysis *ha)
{
	const struct series *s = NULL;
	const struct wa_dir_stats *st = NULL;
	uint64_t tol = 0, span = 0, data = 0;
	bool tx = false;
	int d;

	rep->verdict_series = "none";
	if (wa) {
		d = wa->lat[WA_TX].n > wa->lat[WA_RX].n ? WA_TX : WA_RX;
		if (wa->lat[d].n) {
			s = &wa->lat[d];
			st = &wa->dir[d];
			tol = rep->tolerable_ns[d];
			span = wa->last_ts > wa->first_ts ? wa->last_ts - wa->first_ts : 0;
			rep->verdict_series = d == WA_TX ? "wire.tx" : "wire.rx";
			tx = d == WA_TX;
		}
		data += wa->dir[WA_RX].transactions + wa->dir[WA_TX].transactions;
	}
	if (!s && ha && ha->tx_credit.n > ha->lat.n) {
		/* a TX trace: sent -> credit back is the buffer's time at the FPGA */
		s = &ha->tx_credit;
		tol = rep->tolerable_ns[WA_TX];
		span = ha->last_ts > ha->first_ts ? ha->last_ts - ha->first_ts : 0;
		rep->verdict_series = "host.tx";
		tx = true;
	}
	if (!s && ha && ha->lat.n) {
		/*
		 * From the kernel's arrival when every doorbell has it: the frame's
		 * wait for the receive thread is latency the FPGA sees too.
		 */
		bool arrival = ha->lat_arrival.n == ha->lat.n;

		s = arrival ? &ha->lat_arrival : &ha->lat;
		tol = rep->host_tolerable_ns;
		span = ha->last_ts > ha->first_ts ? ha->last_ts - ha->first_ts : 0;
		rep->verdict_series = arrival ? "host.rx.latency_from_arrival" : "host.rx";
	}
	if (ha) {
		data += ha->c.txn_complete + ha->c.txn_sent;
	}
	return report_verdict(rep, s, span, tol, tx, st, data);
}

/*
 * Completes the report of what was read (wa, ha: NULL when absent): the
 * tolerable latency, the vicious cycle (vc, fed from wa's transactions), the
 * wire and the trace on one axis (into js) and the verdict.
 * Returns 0, or -1 when memory runs out.
 */
static int build_report(struct report *rep, const struct options *o, bool from_options,
			bool facts_from_run_json, struct wire_analysis *wa,
			struct host_analysis *ha, struct vicious *vc, struct join_series *js)
{
	set_tolerable(rep, o, from_options, facts_from_run_json, wa, ha);
	if (wa) {
		vicious_finish(vc, rep->tolerable_ns[WA_RX]);
		rep->vicious = vc;
	}
	rep->wire = wa;
	rep->host = ha;
	report_check_apart(rep);
	if (wa && ha) {
		struct join_result jr;
		const struct join_side wire = { .lat = &wa->lat[WA_RX],
						.txn = &wa->lat_txn[WA_RX] };
		const struct join_side host = { .lat = &ha->lat,
						.handed = &ha->lat_handed,
						.arrival = &ha->arrival,
						.txn = &ha->lat_txn };

		join_wire_host(&wire, &host, o->join_window_ns, js, &jr);
		rep->joined = jr.joined;
		rep->negative_w2s = jr.negative_w2s;
		rep->negative_s2w = jr.negative_s2w;
		rep->arrival_offsets = jr.arrival_offsets;
		rep->trace_arrival_first = jr.trace_arrival_first;
		rep->wire_to_stack = &js->w2s;
		rep->stack_to_wire = &js->s2w;
		rep->arrival_offset = &js->arrival_offset;
	}
	return decide(rep, wa, ha);
}

/* ---- --live: the view of running sessions ------------------------------------------------ */

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
	const struct series *wire[LIVE_MAX_HOSTS];
	size_t lat_from[LIVE_MAX_HOSTS], arrival_from[LIVE_MAX_HOSTS], wire_from[LIVE_MAX_HOSTS];
	struct live_interval per[LIVE_MAX_HOSTS];
	bool wires = v->n > 0;
	double t = elapsed_s(&v->start);
	unsigned int i;

	for (i = 0; i < v->n; i++) {
		struct live_host *h = &v->hosts[i];

		hs[i] = &h->ha;
		lat_from[i] = h->acc.lat_mark;
		arrival_from[i] = h->acc.arrival_mark;
		wire[i] = &h->wa.lat[WA_RX];
		wire_from[i] = h->wire_mark;
		wires = wires && h->wa_on;
		/* the facts the trace has brought so far, by the final report's rules */
		h->rep.so_far = true;
		set_tolerable(&h->rep, v->o, facts_from_options(v->o), false,
			      h->wa_on ? &h->wa : NULL, &h->ha);
		if (live_close(&h->acc, &h->ha, &h->iv) ||
		    (h->wa_on &&
		     live_close_wire(&h->wire_mark, &h->acc.wire_h, &h->wa.lat[WA_RX], &h->iv)) ||
		    decide(&h->rep, h->wa_on ? &h->wa : NULL, &h->ha)) {
			return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
		}
		per[i] = h->iv;
		if (i == 0 || regime_rank(h->rep.verdict.regime) >
				  regime_rank(v->worst->rep.verdict.regime)) {
			v->worst = h;
		}
	}
	if (v->n > 1 && live_together(hs, lat_from, arrival_from, wires ? wire : NULL, wire_from,
				      per, v->n, &v->together)) {
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
 * calls for, or -1 with errbuf filled.
 */
static int live_final(const struct options *o, struct live_host *h, bool many, char *errbuf)
{
	struct dgr_pr pr;

	if (h->wa_on) {
		wa_finish(&h->wa);
	}
	h->rep.so_far = false;
	if (build_report(&h->rep, o, facts_from_options(o), false, h->wa_on ? &h->wa : NULL, &h->ha,
			 &h->vc, &h->js)) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "out of memory");
		return -1;
	}
	if (o->json) {
		/* JSON Lines: the final reports are the last lines */
		dgr_pr_begin(&pr, stdout, DGR_PR_JSON | DGR_PR_YES_NO | DGR_PR_FIXED_POINT);
		dgr_pr_str(&pr, "kind", NULL, "final");
		if (many) {
			dgr_pr_str(&pr, "url", NULL, h->url);
		}
	} else {
		if (many) {
			printf("Session %s\n", h->url);
		}
		dgr_pr_begin(&pr, stdout, DGR_PR_JSON_PRETTY | DGR_PR_YES_NO | DGR_PR_FIXED_POINT);
	}
	if (o->brief) {
		report_print_summary(&pr, &h->rep);
	} else if (report_print(&pr, &h->rep)) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "out of memory");
		return -1;
	}
	if (o->advise && advise_print(&pr, h->rep.verdict.regime, &o->adv, NULL, errbuf) < 0) {
		return -1;
	}
	dgr_pr_end(&pr);
	return report_exit_status(&h->rep, o->fail_on);
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
static int run_live(const struct options *o)
{
	struct host_analysis *hs[LIVE_MAX_HOSTS];
	char errbuf[DGR_ERRBUF_SIZE];
	struct ctf_live_opts lo = { 0 };
	struct sigaction sa, old_int, old_term;
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
	set_tolerable(&facts, o, facts_from_options(o), false, NULL, NULL);
	for (i = 0; i < v->n; i++) {
		struct live_host *h = &v->hosts[i];

		h->url = o->inputs[i];
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
	/* no SA_RESTART: the reader's poll returns at once and sees the flag */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	rc = ctf_input_live(o->inputs, hs, v->n, &o->ctf, &lo, errbuf);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
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
	if (!o->json) {
		printf("%s\n", lo.stopped ? "Interrupted: the report on the run so far"
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
	return ret;
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
 */
static int host_setup(struct host_analysis *ha, const struct options *o, struct app *app,
		      const uint32_t *pids, unsigned int n, const char *provider)
{
	if (ha_init(ha)) {
		return -1;
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

/* Reads the traces into ha; origin: the CSV origin, set to the first event (no capture). */
static int read_host(const char *const *traces, unsigned int n, struct host_analysis *ha,
		     const struct options *o, uint64_t *origin, char *errbuf)
{
	unsigned int i;

	ha->origin = origin;
	for (i = 0; i < n; i++) {
		if (ctf_input_read(traces[i], ha, &o->ctf, errbuf)) {
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct options o;
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
	struct kernel_sched ks;
	char kernel_path[PATH_MAX] = "";
	const char *kpath = NULL;
	bool ks_on = false;
	uint32_t pids[HA_MAX_PIDS];
	unsigned int n_traces = 0, n_folders = 0, n_pids = 0, i;
	bool facts_given, facts_from_run_json = false, wa_on = false, ha_on = false;
	uint64_t origin = 0;
	/* until the report is written, a failure is the input's (docs/analysis.md, "Exit status")
	 */
	int ret = DGR_EXIT_USAGE;

	memset(&o, 0, sizeof(o));
	o.interval_ns = 100000000ull;
	o.live_interval_ns = 1000000000ull;
	o.join_window_ns = JOIN_WINDOW_NS;
	o.adv.root = "/";
	o.progress = true;
	o.wa.reasm_timeout_ns = 1000000000ull;
	o.wa.dcp_doorbells = true;
	/* the emulator's `doorbell` property (docs/fpga.md): worker 0, offset 0x18 */
	o.wa.dcp_bell_lo = o.wa.dcp_bell_hi = DGR_DCP_DOORBELL_ADDR;
	if (parse_args(argc, argv, &o)) {
		/* the message above names the argument; the whole usage would push it away */
		return DGR_EXIT_USAGE;
	}
	if (o.live) {
		return run_live(&o);
	}
	if (o.n_inputs == 1 && is_dir(o.inputs[0]) && incidents_dir_is(o.inputs[0])) {
		/* a flight recorder's folder: every incident, each a run folder */
		for (i = 1; i < (unsigned int)argc && argv[i] != o.inputs[0]; i++) {
		}
		return incidents_report(o.inputs[0], "/proc/self/exe", argc, argv, (int)i, o.json);
	}
	facts_given = facts_from_options(&o);
	memset(&app, 0, sizeof(app));
	memset(&rep, 0, sizeof(rep));
	join_series_init(&js);
	sc_init(&sc);
	app.sc = &sc;
	app.trace_offset_ns = o.trace_offset_ns;
	o.wa.on_bell = app_bell;
	o.wa.on_txn = app_txn;
	o.wa.ctx = &app;

	/* sort the inputs: captures, traces, run folders (their parts, plus run.json) */
	folders = calloc(o.n_inputs, sizeof(*folders));
	if (!folders) {
		fprintf(stderr, "latency-report: out of memory\n");
		goto out_inputs;
	}
	for (i = 0; i < o.n_inputs; i++) {
		const char *in = o.inputs[i];

		if (is_dir(in) && run_folder_is(in)) {
			struct run_folder *rf = &folders[n_folders];
			struct stat st;
			bool has_run_json;

			snprintf(path, sizeof(path), "%s/run.json", in);
			/* any entry: a broken link or a link loop is refused, not taken as none */
			has_run_json = lstat(path, &st) == 0;
			if (has_run_json) {
				struct run_info before = o.run;

				if (run_info_read(path, &o.run, errbuf) < 0) {
					fprintf(stderr, "latency-report: %s\n", errbuf);
					goto out_inputs;
				}
				/* the four facts only: how the command ended is no fact of the
				 * formula */
				facts_from_run_json |= before.host_buffers != o.run.host_buffers ||
						       before.fpga_buffers != o.run.fpga_buffers ||
						       before.buffer_size != o.run.buffer_size ||
						       before.rate_bytes != o.run.rate_bytes;
				take_run_roles(&o);
			}
			snprintf(fpga_path, sizeof(fpga_path), "%s/fpga-counters.json", in);
			if (!o.fpga_counters && lstat(fpga_path, &st) == 0) {
				o.fpga_counters = fpga_path;
			}
			if (run_folder_resolve(in, has_run_json ? &o.run : NULL, rf, errbuf) < 0) {
				fprintf(stderr, "latency-report: %s\n", errbuf);
				goto out_inputs;
			}
			n_folders++;
			/* dgrdma-capture --kernel's trace, relative to the folder */
			if (has_run_json && o.run.kernel.state == RUN_PART_RECORDED &&
			    !kernel_path[0]) {
				snprintf(kernel_path, sizeof(kernel_path), "%s%s%s",
					 o.run.kernel.path[0] == '/' ? "" : in,
					 o.run.kernel.path[0] == '/' ? "" : "/", o.run.kernel.path);
			}
			if (rf->capture.read &&
			    (rf->capture.set
				 ? capture_set_add_dir(&cset, rf->capture.path, errbuf)
				 : capture_set_add(&cset, rf->capture.path, errbuf)) < 0) {
				fprintf(stderr, "latency-report: %s\n", errbuf);
				goto out_inputs;
			}
			/* a ring that dropped the run's start: what began before is no loss */
			o.wa.start_cut |= rf->capture.read && rf->capture.start_dropped;
			/* a flight recorder's incident: its window ends mid-run too */
			o.wa.end_cut |= rf->capture.read && has_run_json && o.run.incident;
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
	if (o.fpga_counters && fpga_counters_read(o.fpga_counters, &fpga, errbuf) < 0) {
		fprintf(stderr, "latency-report: --fpga-counters: %s\n", errbuf);
		ret = DGR_EXIT_USAGE;
		goto out_inputs;
	}

	if (cset.n && wa_init(&wa, &o.wa, errbuf) == 0) {
		wa_on = true;
	} else if (cset.n) {
		fprintf(stderr, "latency-report: %s\n", errbuf);
		goto out;
	}
	if (n_traces) {
		rep.host_pids_from = host_pids(&o, pids, &n_pids);
		/*
		 * run.json's processes: the command's own provider only (the
		 * emulator of a host's run is another process by nature)
		 */
		if (host_setup(&ha, &o, &app, pids, n_pids,
			       rep.host_pids_from == HOST_PIDS_RUN_JSON ? o.run.command_provider
									: NULL)) {
			fprintf(stderr, "latency-report: out of memory\n");
			goto out;
		}
		ha_on = true;
	}
	if (o.csv_dir) {
		if (csv_open(&app.csv, o.csv_dir, o.interval_ns, wa_on ? &wa.first_ts : &origin,
			     errbuf)) {
			fprintf(stderr, "latency-report: %s\n", errbuf);
			ret = DGR_EXIT_FAILED; /* an output, not an input */
			goto out;
		}
		app.csv_on = true;
	}
	if (wa_on) {
		int rc = capture_set_read(&cset, &wa, o.progress, errbuf);

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
	if (n_traces && read_host(traces, n_traces, &ha, &o, wa_on ? NULL : &origin, errbuf)) {
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
		if (host_setup(&ha, &o, &app, NULL, 0, NULL)) {
			fprintf(stderr, "latency-report: out of memory\n");
			goto out;
		}
		ha_on = true;
		if (read_host(traces, n_traces, &ha, &o, wa_on ? NULL : &origin, errbuf)) {
			fprintf(stderr, "latency-report: %s\n", errbuf);
			ret = 2;
			goto out;
		}
	}

	kpath = o.kernel_trace ? o.kernel_trace : kernel_path[0] ? kernel_path : NULL;
	if (kpath && !ha_on) {
		fprintf(stderr,
			"latency-report: the kernel trace %s needs the run's LTTng trace too (the "
			"stalls and their stages come from the stack's events)\n",
			kpath);
		goto out;
	}
	if (kpath) {
		int64_t off = ha.time_offset_ns + (ha.clock_origin_known ? ha.clock_origin_ns : 0);

		if (ks_init(&ks)) {
			fprintf(stderr, "latency-report: out of memory\n");
			goto out;
		}
		ks_on = true;
		if (kernel_input_read(kpath, off, &ks, errbuf) < 0) {
			fprintf(stderr, "latency-report: %s\n", errbuf);
			goto out;
		}
	}
	if (app.sc_nomem) {
		fprintf(stderr, "latency-report: out of memory\n");
		goto out;
	}

	rep.inputs = o.inputs;
	rep.n_inputs = o.n_inputs;
	rep.folders = folders;
	rep.n_folders = n_folders;
	if (build_report(&rep, &o, facts_given, facts_from_run_json, wa_on ? &wa : NULL,
			 ha_on ? &ha : NULL, &app.vc, &js)) {
		fprintf(stderr, "latency-report: out of memory\n");
		goto out;
	}
	for (i = 0; i < rep.n_apart; i++) {
		fprintf(stderr, "latency-report: warning: %s\n", rep.apart[i]);
	}
	if (ha_on) {
		sc.kernel_path = kpath;
		sc.csv_origin_known = true;
		sc.csv_origin_ns = wa_on ? wa.first_ts : origin;
		if (sc_analyse(&sc, rep.host_tolerable_ns, &ha, ks_on ? &ks : NULL) < 0) {
			fprintf(stderr, "latency-report: out of memory\n");
			goto out;
		}
		rep.stalls = sc.n_bells ? &sc : NULL;
	}
	if (o.fpga_counters) {
		rep.fpga = &fpga;
		rep.fpga_source = o.fpga_counters;
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
			 (o.json ? DGR_PR_JSON : 0));
	if (o.brief) {
		report_print_summary(&pr, &rep);
	} else if (report_print(&pr, &rep)) {
		fprintf(stderr, "latency-report: out of memory\n");
		goto out;
	}
	if (partial[0]) {
		dgr_pr_obj_begin(&pr, "partial_input", "PARTIAL INPUT");
		dgr_pr_u64(&pr, "frames_read", "frames read", wa.frames);
		dgr_pr_str(&pr, "error", NULL, partial);
		dgr_pr_obj_end(&pr);
	}
	if (ha_on && sc.n_bells && !o.brief) {
		sc_print(&pr, &sc);
	}
	if (o.advise &&
	    advise_print(&pr, rep.verdict.regime, &o.adv, ha_on ? &sc : NULL, errbuf) < 0) {
		fprintf(stderr, "latency-report: --advise: %s\n", errbuf);
		goto out;
	}
	if (dgr_pr_end(&pr) < 0) {
		fprintf(stderr, "latency-report: standard output: %s\n", strerror(errno));
		goto out;
	}
	ret = partial[0] ? DGR_EXIT_USAGE : report_exit_status(&rep, o.fail_on);
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
	join_series_free(&js);
out_inputs:
	capture_set_free(&cset);
	free(folders);
	return ret;
}
