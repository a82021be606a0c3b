// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of run.json's reading (analysis/run_info.c): a dgrdma-run/2 file's
 * facts come from its "settings" (the recorded tools' own --summary-json), never
 * from the recorded command line; a dgrdma-run/1 file goes through the one
 * conversion step that reads its command line, where the rate has both names
 * (--sample-rate, the old --rate) and 0 ("as fast as credits allow") is no rate.
 */
#include <stdio.h>
#include <string.h>

#include <dgrdma/cli.h>

#include "../../analysis/run_info.h"
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
	TAP_EQ_S(err, "command: --sample-rate: '2e12' is out of range 0..1e12 samples/s (e.g. 200e6 or 200M)",
		 "format 1: the refusal names the option and its range");
}

int main(void)
{
	test_format1_rates();
	return tap_done();
}
