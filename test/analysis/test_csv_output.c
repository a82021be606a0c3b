// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of latency-report --csv (analysis/output/csv_output.c): a doorbell is one point in
 * time in every series. The wire's doorbells.csv and the trace's host_doorbells.csv both put a
 * doorbell at the doorbell's time (the trace's at its completion + latency), from the run's
 * origin, so that dgrdma-plot draws the two latencies of one doorbell at the same x.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dgrdma/wire.h>

#include "csv_output.h"
#include "doorbell_match.h"
#include "../unit/tap.h"

/* Line LINE (1: the header) of DIR/NAME into buf, without its newline; "" when absent. */
static void read_line(const char *dir, const char *name, int line, char *buf, size_t size)
{
	char path[4096];
	FILE *fp;
	int i;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "r");
	if (!fp) {
		return;
	}
	for (i = 1; i <= line; i++) {
		if (!fgets(buf, (int)size, fp)) {
			buf[0] = '\0';
			break;
		}
	}
	buf[strcspn(buf, "\n")] = '\0';
	fclose(fp);
}

int main(void)
{
	const char *base = getenv("DGR_BUILD");
	static const char *const files[] = { "doorbells.csv", "intervals.csv", "host_doorbells.csv",
					     "drops.csv" };
	char dir[4096], errbuf[DGR_ERRBUF_SIZE], line[256], path[4200];
	unsigned int i;
	const uint64_t origin = 5000000000ull;
	struct csv_out c;
	/* buffer 3: complete at origin + 1.25 s, its doorbell 2.5 ms later */
	struct wa_bell_event wire = {
		.dir = WA_RX,
		.conn = 0,
		.kind = DM_MATCHED,
		.buffer = 3,
		.ts = origin + 1252500000ull,
		.txn_ts = origin + 1250000000ull,
		.latency = 2500000ull,
	};
	struct ha_doorbell host = {
		.ts = origin + 1250010000ull,
		.latency = 2480000ull,
		.conn = 0,
		.buffer = 3,
		.wait = 2000000,
		.work = 400000,
		.send = 80000,
		.has_wait_receive = true,
		.wait_receive = 10000,
	};

	snprintf(dir, sizeof(dir), "%s/csv-output.XXXXXX", base ? base : "/tmp");
	if (!mkdtemp(dir)) {
		tap_ok(0, "mkdtemp %s", dir);
		return tap_done();
	}
	tap_ok(csv_open(&c, dir, 100000000ull, &origin, errbuf) == 0, "csv_open: %s", dir);
	csv_bell(&c, &wire);
	csv_host_doorbell(&c, &host);
	host.has_wait_receive = false;
	csv_host_doorbell(&c, &host);
	tap_ok(csv_close(&c, errbuf) == 0, "csv_close");

	read_line(dir, "doorbells.csv", 1, line, sizeof(line));
	TAP_EQ_S(line, "time_s,latency_ns,dir,conn,buffer", "doorbells.csv header");
	read_line(dir, "doorbells.csv", 2, line, sizeof(line));
	TAP_EQ_S(line, "1.252500000,2500000,rx,0,3",
		 "wire doorbell at the doorbell frame's time from the origin");
	read_line(dir, "host_doorbells.csv", 1, line, sizeof(line));
	TAP_EQ_S(line, "time_s,latency_ns,conn,buffer,wait_ns,work_ns,send_ns,wait_receive_ns",
		 "host_doorbells.csv header");
	read_line(dir, "host_doorbells.csv", 2, line, sizeof(line));
	TAP_EQ_S(line, "1.252490000,2480000,0,3,2000000,400000,80000,10000",
		 "in-host doorbell at its doorbell's time (completion 1.25001 s + 2.48 ms), not at "
		 "the completion");
	read_line(dir, "host_doorbells.csv", 3, line, sizeof(line));
	TAP_EQ_S(line, "1.252490000,2480000,0,3,2000000,400000,80000,",
		 "a trace without wait_receive: the last column empty");

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	if (rmdir(dir)) {
		tap_diag("could not remove %s", dir);
	}
	return tap_done();
}
