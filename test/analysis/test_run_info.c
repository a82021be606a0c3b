// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of run.json's reading (analysis/input/run_info.c): a dgrdma-run/2 file's
 * facts come from its "settings" (the recorded tools' own --summary-json), never
 * from the recorded command line; a dgrdma-run/1 file goes through the one
 * conversion step that reads its command line, where the rate has both names
 * (--sample-rate, the old --rate) and 0 ("as fast as credits allow") is no rate.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "run_info.h"
#include "../unit/tap.h"

/* Parses text into a zeroed *ri; returns run_info_parse's result, errbuf kept for diag. */
static int parse(const char *text, struct run_info *ri, char *errbuf)
{
	memset(ri, 0, sizeof(*ri));
	errbuf[0] = '\0';
	return run_info_parse(text, strlen(text), ri, errbuf);
}

/* Format 1: the command line's rate under both names, and 0. */
static void test_format1_rates(void)
{
	char err[DGR_ERRBUF_SIZE];
	struct run_info ri;
	int rc;

	rc = parse("{\"format\": \"dgrdma-run/1\", \"command\": [\"dgrdma-host\", \"tx\", "
		   "\"--udp\", \"--rate\", \"0\"]}",
		   &ri, err);
	TAP_EQ_I(rc, 0, "format 1: dgrdma-host tx --rate 0 is read (%s)", err);
	TAP_EQ_U(ri.rate_bytes, 0, "format 1: --rate 0 (as fast as credits allow) is no rate");
	TAP_EQ_I(ri.path, RUN_PATH_TX, "format 1: the tx path");

	rc = parse("{\"format\": \"dgrdma-run/1\", \"command\": [\"dgrdma-host\", \"tx\", "
		   "\"--sample-rate\", \"0\"]}",
		   &ri, err);
	TAP_EQ_I(rc, 0, "format 1: --sample-rate 0 is read (%s)", err);
	TAP_EQ_U(ri.rate_bytes, 0, "format 1: --sample-rate 0 is no rate");

	rc = parse("{\"format\": \"dgrdma-run/1\", \"command\": [\"dgrdma-host\", \"tx\", "
		   "\"--sample-rate\", \"200M\"]}",
		   &ri, err);
	TAP_EQ_I(rc, 0, "format 1: --sample-rate 200M is read (%s)", err);
	TAP_EQ_U(ri.rate_bytes, 800000000, "format 1: --sample-rate 200M is 800e6 bytes/s");

	rc = parse("{\"format\": \"dgrdma-run/1\", \"command\": [\"dgrdma-fpga\", "
		   "\"--sample-rate=1e6\", \"--buffers\", \"4\"]}",
		   &ri, err);
	TAP_EQ_I(rc, 0, "format 1: dgrdma-fpga --sample-rate=1e6 is read (%s)", err);
	TAP_EQ_U(ri.rate_bytes, 4000000, "format 1: --sample-rate=1e6 is 4e6 bytes/s");
	TAP_EQ_U(ri.fpga_buffers, 4, "format 1: dgrdma-fpga's --buffers are the FPGA's");

	rc = parse("{\"format\": \"dgrdma-run/1\", \"command\": [\"dgrdma-host\", \"tx\", "
		   "\"--rate\", \"200M\"]}",
		   &ri, err);
	TAP_EQ_I(rc, 0, "format 1: the old name --rate 200M is read (%s)", err);
	TAP_EQ_U(ri.rate_bytes, 800000000, "format 1: --rate 200M is 800e6 bytes/s");

	/* getopt_long takes the last of the two names */
	rc = parse("{\"format\": \"dgrdma-run/1\", \"command\": [\"dgrdma-host\", \"tx\", "
		   "\"--rate\", \"1M\", \"--sample-rate\", \"2M\"]}",
		   &ri, err);
	TAP_EQ_I(rc, 0, "format 1: --rate then --sample-rate is read (%s)", err);
	TAP_EQ_U(ri.rate_bytes, 8000000, "format 1: the last of --rate and --sample-rate counts");

	/* the stream's facts (dgrdma-capture --sample-rate) still come first */
	rc = parse("{\"format\": \"dgrdma-run/1\", \"command\": [\"dgrdma-host\", \"tx\", "
		   "\"--rate\", \"0\"], \"stream\": {\"sample_rate\": 1e6}}",
		   &ri, err);
	TAP_EQ_I(rc, 0, "format 1: --rate 0 with stream.sample_rate is read (%s)", err);
	TAP_EQ_U(ri.rate_bytes, 4000000, "format 1: stream.sample_rate gives the rate");

	rc = parse("{\"format\": \"dgrdma-run/1\", \"command\": [\"dgrdma-host\", \"tx\", "
		   "\"--sample-rate\", \"2e12\"]}",
		   &ri, err);
	TAP_EQ_I(rc, -DGR_E_INVAL, "format 1: --sample-rate 2e12 is refused");
	TAP_EQ_S(
	    err,
	    "command: --sample-rate: '2e12' is out of range 0..1e12 samples/s (e.g. 200e6 or 200M)",
	    "format 1: the refusal names the option and its range");
}

/* Format 2: the facts are the tool's settings; the recorded command line is not read. */
static void test_format2_settings(void)
{
	char err[DGR_ERRBUF_SIZE];
	struct run_info ri;
	int rc;

	rc =
	    parse("{\"format\": \"dgrdma-run/2\", \"command\": [\"dgrdma-host\", \"tx\", "
		  "\"--rate\", \"5M\", \"--buffers\", \"9\", \"--udp\", \"--bind\", \"x:99999\"], "
		  "\"settings\": {\"tool\": \"dgrdma-host\", \"path\": \"tx\", \"transport\": "
		  "\"udp\", \"local\": \"127.0.0.1:18078\", \"peers\": [{\"address\": "
		  "\"10.0.0.2:18090\", \"peer_id\": 1}], \"host_buffers\": 8, \"fpga_buffers\": 2, "
		  "\"buffer_size\": 8192, \"sample_rate\": 0, \"acks\": false}}",
		  &ri, err);
	TAP_EQ_I(rc, 0, "format 2: a host's settings are read, its command line is not (%s)", err);
	TAP_EQ_U(ri.host_buffers, 8,
		 "format 2: settings.host_buffers, not the command's --buffers 9");
	TAP_EQ_U(ri.fpga_buffers, 2, "format 2: settings.fpga_buffers");
	TAP_EQ_U(ri.buffer_size, 8192, "format 2: settings.buffer_size");
	TAP_EQ_U(ri.rate_bytes, 0, "format 2: sample_rate 0 (as fast as credits allow) is no rate");
	TAP_EQ_I(ri.path, RUN_PATH_TX, "format 2: settings.path tx");
	TAP_EQ_S(ri.command_provider ? ri.command_provider : "(none)",
		 "dgrdma:", "format 2: dgrdma-host's events are the dgrdma provider's");
	TAP_EQ_U(ri.n_udp_ports, 2, "format 2: two UDP ports, the local one and the peer's");
	TAP_EQ_U(ri.udp_ports[0] * 100000u + ri.udp_ports[1], 18078u * 100000u + 18090u,
		 "format 2: ports 18078 and 18090");
	TAP_EQ_S(ri.host_addr, "127.0.0.1:18078", "format 2: the host's address is its local one");

	rc = parse("{\"format\": \"dgrdma-run/2\", \"command\": [\"sh\", \"-c\", \"x\"], "
		   "\"settings\": {\"tool\": \"dgrdma-fpga\", \"mode\": \"dac\", \"path\": \"tx\", "
		   "\"transport\": \"udp\", \"local\": \"10.0.0.2:18090\", \"peer\": "
		   "\"127.0.0.1:18078\", \"sample_rate\": 2e8, \"fpga_buffers\": 4, "
		   "\"host_buffers\": 16, \"buffer_size\": 16384}}",
		   &ri, err);
	TAP_EQ_I(rc, 0, "format 2: an emulator's settings are read (%s)", err);
	TAP_EQ_U(ri.rate_bytes, 800000000, "format 2: the emulator's sample_rate 2e8");
	TAP_EQ_U(ri.fpga_buffers * 100u + ri.host_buffers, 416,
		 "format 2: the emulator's own buffers are the FPGA's (4), the host's 16");
	TAP_EQ_S(ri.host_addr, "127.0.0.1:18078",
		 "format 2: the host's address is the emulator's peer");
	TAP_EQ_S(ri.command_provider ? ri.command_provider : "(none)",
		 "dgrdma_fpga:", "format 2: the emulator's provider, whatever the command line");

	rc = parse("{\"format\": \"dgrdma-run/2\", \"command\": [\"dgrdma-host\", \"rx\", "
		   "\"--buffers\", \"8\", \"--sample-rate\", \"1M\"], \"settings\": null}",
		   &ri, err);
	TAP_EQ_I(rc, 0, "format 2 without settings is read (%s)", err);
	TAP_EQ_U(ri.host_buffers + ri.rate_bytes, 0,
		 "format 2 without settings: no facts from the command line");
	TAP_EQ_I(ri.path, RUN_PATH_UNKNOWN, "format 2 without settings: the path is unknown");
	TAP_EQ_S(ri.command_provider ? ri.command_provider : "(none)", "dgrdma:",
		 "format 2 without settings: the provider of the program's name (dgrdma-host)");
	rc = parse("{\"format\": \"dgrdma-run/2\", \"command\": [\"sh\", \"-c\", "
		   "\"dgrdma-fpga --buffers 8\"], \"settings\": null}",
		   &ri, err);
	TAP_EQ_I(rc == 0 && ri.command_provider == NULL, 1,
		 "format 2 without settings, another program: no provider, its arguments not read");

	/* the recorded machine's kernel, for the cures that depend on it (--advise) */
	rc = parse("{\"format\": \"dgrdma-run/2\", \"command\": [\"x\"], \"host\": "
		   "{\"kernel\": \"6.18.44-fc\"}}",
		   &ri, err);
	TAP_EQ_I(rc, 0, "format 2 with host.kernel is read (%s)", err);
	TAP_EQ_S(ri.host_kernel, "6.18.44-fc", "format 2: host.kernel read as recorded");
	rc = parse("{\"format\": \"dgrdma-run/2\", \"command\": [\"x\"], \"host\": "
		   "{\"kernel\": 6}}",
		   &ri, err);
	TAP_EQ_S(rc == -DGR_E_INVAL ? err : "(accepted)", "host.kernel: 6, expected a string",
		 "format 2: a host.kernel that is not a string is refused, named");
	rc = parse("{\"format\": \"dgrdma-run/1\", \"command\": [\"x\"], \"host\": "
		   "{\"kernel\": 6}}",
		   &ri, err);
	TAP_EQ_I(rc == 0 && ri.host_kernel[0] == '\0', 1,
		 "format 1 (no schema): a host.kernel that is not a string is no kernel");

	rc = parse("{\"format\": \"dgrdma-run/2\", \"command\": [\"x\"], \"settings\": "
		   "{\"path\": \"up\"}}",
		   &ri, err);
	TAP_EQ_I(rc, -DGR_E_INVAL, "format 2: settings.path up is refused");
	TAP_EQ_S(err, "settings.path: 'up' is not rx or tx", "format 2: the bad path is named");
	rc = parse("{\"format\": \"dgrdma-run/2\", \"command\": [\"x\"], \"settings\": "
		   "{\"sample_rate\": -1}}",
		   &ri, err);
	TAP_EQ_S(err, "settings.sample_rate: -1 is out of range 0..1e+12",
		 "format 2: a negative sample_rate is refused with the range");
	rc = parse("{\"format\": \"dgrdma-run/2\", \"command\": [\"x\"], \"settings\": "
		   "{\"host_buffers\": 0}}",
		   &ri, err);
	TAP_EQ_S(err, "settings.host_buffers: 0 is out of range 1..65535",
		 "format 2: host_buffers 0 is refused with the range");
	rc = parse("{\"format\": \"dgrdma-run/2\", \"command\": [\"x\"], \"settings\": "
		   "{\"transport\": \"udp\", \"local\": \"1.2.3.4:0\"}}",
		   &ri, err);
	TAP_EQ_S(err, "settings.local: '0' is out of range 1..65535",
		 "format 2: a port 0 in settings.local is refused with the range");
	rc = parse("{\"format\": \"dgrdma-run/2\", \"command\": [\"x\"], \"settings\": "
		   "{\"transport\": \"udp\", \"peers\": [5]}}",
		   &ri, err);
	TAP_EQ_S(err, "settings.peers[0].address: missing, expected a string",
		 "format 2: a peer that is no object is refused");
	rc = parse("{\"format\": \"dgrdma-run/1\", \"command\": [\"x\"], \"settings\": {}}", &ri,
		   err);
	TAP_EQ_S(err,
		 "settings: unknown key (not in the dgrdma-run/1 top level; dgrdma-run/2 has it)",
		 "format 1 has no settings");
	rc = parse("{\"format\": \"dgrdma-run/2\", \"command\": [\"x\"], \"facts\": {}}", &ri, err);
	TAP_EQ_S(err, "facts: unknown key (not in the dgrdma-run/2 top level)",
		 "format 2: an unknown key names format 2");
	rc = parse("{\"format\": \"dgrdma-run/3\", \"command\": [\"x\"]}", &ri, err);
	TAP_EQ_S(err,
		 "format: 'dgrdma-run/3' is not dgrdma-run/2 or dgrdma-run/1 (the formats this "
		 "latency-report reads)",
		 "another format is refused, naming both read");
}

/* One run's facts in both formats: format 1's conversion gives what format 2's settings give. */
static void test_conversion_agrees(void)
{
	char err[DGR_ERRBUF_SIZE];
	struct run_info v1, v2;
	int rc1, rc2;

	rc1 =
	    parse("{\"format\": \"dgrdma-run/1\", \"command\": [\"ip\", \"netns\", \"exec\", "
		  "\"fpga\", \"/usr/bin/dgrdma-fpga\", \"--udp\", \"--bind\", \"10.0.0.2:18090\", "
		  "\"--peer=127.0.0.1:18078\", \"--mode\", \"dac\", \"--buffers\", \"4\", "
		  "\"--host-buffers\", \"16\", \"--buffer-size\", \"16K\", \"--rate\", \"1e6\"]}",
		  &v1, err);
	rc2 = parse("{\"format\": \"dgrdma-run/2\", \"command\": [\"x\"], \"settings\": "
		    "{\"tool\": \"dgrdma-fpga\", \"path\": \"tx\", \"transport\": \"udp\", "
		    "\"local\": \"10.0.0.2:18090\", \"peer\": \"127.0.0.1:18078\", "
		    "\"fpga_buffers\": 4, \"host_buffers\": 16, \"buffer_size\": 16384, "
		    "\"sample_rate\": 1e6}}",
		    &v2, err);
	TAP_EQ_I(rc1 * 10 + rc2, 0, "an emulator's run in format 1 and in format 2 are read");
	TAP_EQ_U(v1.fpga_buffers * 1000000u + v1.host_buffers * 1000u + v1.buffer_size / 1024,
		 v2.fpga_buffers * 1000000u + v2.host_buffers * 1000u + v2.buffer_size / 1024,
		 "the same buffers from the conversion as from the settings");
	TAP_EQ_U(v1.rate_bytes, v2.rate_bytes, "the same rate");
	TAP_EQ_I(v1.path * 10 + (v1.command_provider == v2.command_provider), v2.path * 10 + 1,
		 "the same path and provider");
	TAP_EQ_S(v1.host_addr, v2.host_addr, "the same host address");
	TAP_EQ_U(v1.n_udp_ports * 10000000u + v1.udp_ports[0] * 10u,
		 v2.n_udp_ports * 10000000u + v2.udp_ports[0] * 10u, "the same UDP ports");
}

/* literals, so that the compiler checks the arguments against them */
#define CLOCKS_FMT                                                                                 \
	"{\"format\": \"dgrdma-run/2\", \"command\": [\"true\"], \"clocks\": {\"start\": "         \
	"{\"monotonic_sec\": 100, \"monotonic_nsec\": 0, \"realtime_sec\": 1796400000, "           \
	"\"realtime_nsec\": 500, \"uncertainty_ns\": 20, \"realtime_iso8601\": \"x\"}, "           \
	"\"end\": %s}}"
#define CLOCKS_END_FMT                                                                             \
	"{\"monotonic_sec\": 102, \"monotonic_nsec\": 0, "                                         \
	"\"realtime_sec\": 1796400002, \"realtime_nsec\": %d, "                                    \
	"\"uncertainty_ns\": 30, \"realtime_iso8601\": \"x\"}"

/*
 * clocks.start and clocks.end: (realtime - monotonic) moved by 50 us between them is a step of
 * the real-time clock; unmoved, 0; without the end, unknown.
 */
static void test_realtime_moved(void)
{
	char err[DGR_ERRBUF_SIZE], text[1024];
	struct run_info ri;
	char e[256];

	snprintf(e, sizeof(e), CLOCKS_END_FMT, 50500);
	snprintf(text, sizeof(text), CLOCKS_FMT, e);
	TAP_EQ_I(parse(text, &ri, err), 0, "clocks: read (%s)", err);
	tap_ok(ri.realtime_moved_known, "clocks at start and end: the move is known");
	TAP_EQ_I(ri.realtime_moved_ns, 50000, "realtime - monotonic moved by 50 us between them");
	TAP_EQ_U(ri.realtime_moved_uncertainty_ns, 50, "give or take both readings' uncertainty");
	snprintf(e, sizeof(e), CLOCKS_END_FMT, 500);
	snprintf(text, sizeof(text), CLOCKS_FMT, e);
	TAP_EQ_I(parse(text, &ri, err), 0, "clocks: read (%s)", err);
	tap_ok(ri.realtime_moved_known && ri.realtime_moved_ns == 0, "unmoved: 0");
	snprintf(text, sizeof(text), CLOCKS_FMT, "null");
	TAP_EQ_I(parse(text, &ri, err), 0, "clocks: read (%s)", err);
	tap_ok(!ri.realtime_moved_known, "no clocks at the end: unknown");
}

int main(void)
{
	test_format1_rates();
	test_format2_settings();
	test_conversion_agrees();
	test_realtime_moved();
	return tap_done();
}
