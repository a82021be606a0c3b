// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-report's command line: usage(), the options' defaults and their
 * reading, each bad value named with its accepted range (docs/cli.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/dcp.h>
#include <dgrdma/host.h>
#include <dgrdma/wire.h>

#include "cli.h"

#include "csv_output.h"
#include "ctf_input.h"
#include "host_events.h"
#include "join.h"
#include "live.h"
#include "pcap_input.h"
#include "report.h"
#include "wire_analysis.h"
#include "latency-report.h"

#include "dgrdma-version.h"

/* The options' defaults, before lr_parse_args() (latency-report.h). */
void lr_options_init(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->interval_ns = 100000000ull;
	o->live_interval_ns = 1000000000ull;
	o->join_window_ns = JOIN_WINDOW_NS;
	o->adv.root = "/";
	o->progress = true;
	o->wa.reasm_timeout_ns = 1000000000ull;
	o->wa.dcp_doorbells = true;
	/* the emulator's `doorbell` property (docs/fpga.md): worker 0, offset 0x18 */
	o->wa.dcp_bell_lo = o->wa.dcp_bell_hi = DGR_DCP_DOORBELL_ADDR;
}

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

/*
 * Reads the command line into o. Returns 0 to go on, LR_ARGS_DONE when --help
 * or --version was printed, or -1 after naming the bad argument on stderr.
 */
int lr_parse_args(int argc, char **argv, struct options *o)
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
			return LR_ARGS_DONE;
		} else if (!strcmp(a, "--version")) {
			printf("latency-report (dgrdma-tools) %s\n", DGR_VERSION);
			return LR_ARGS_DONE;
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
