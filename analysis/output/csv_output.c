// SPDX-License-Identifier: GPL-2.0-or-later
/* CSV series for plotting (see csv_output.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <dgrdma/wire.h>

#include "csv_output.h"

static FILE *open_one(const char *dir, const char *name, const char *header, char *errbuf)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	if (!fp) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "--csv: %.180s: %.60s", path, strerror(errno));
		return NULL;
	}
	fprintf(fp, "%s\n", header);
	return fp;
}

int csv_open(struct csv_out *c, const char *dir, uint64_t interval_ns, const uint64_t *origin,
	     char *errbuf)
{
	memset(c, 0, sizeof(*c));
	c->interval_ns = interval_ns;
	c->origin = origin;
	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "--csv: cannot create %s: %s", dir,
			 strerror(errno));
		return -DGR_E_SYS;
	}
	c->bells = open_one(dir, "doorbells.csv", "time_s,latency_ns,dir,conn,buffer", errbuf);
	if (c->bells) {
		c->intervals = open_one(dir, "intervals.csv",
					"time_s,dir,transactions,data_bytes,throughput_MBps,"
					"discontinuities,doorbells,max_latency_ns",
					errbuf);
	}
	if (c->intervals) {
		c->host = open_one(dir, "host_doorbells.csv",
				   "time_s,latency_ns,conn,buffer,wait_ns,work_ns,send_ns,"
				   "wait_receive_ns",
				   errbuf);
	}
	if (c->host) {
		c->drops = open_one(dir, "drops.csv",
				    "time_s,source,conn,delivered,lost,drop_pct,vpid", errbuf);
	}
	if (!c->drops) {
		csv_close(c, NULL);
		return -DGR_E_SYS;
	}
	return 0;
}

static double rel_s(const struct csv_out *c, uint64_t ts)
{
	uint64_t o = c->origin ? *c->origin : 0;

	return ts >= o ? (double)(ts - o) / 1e9 : -(double)(o - ts) / 1e9;
}

static void flush_interval(struct csv_out *c, enum wa_dir d)
{
	struct csv_interval *iv = &c->cur[d];
	double secs = (double)c->interval_ns / 1e9;

	if (!iv->open) {
		return;
	}
	fprintf(c->intervals,
		"%.6f,%s,%" PRIu64 ",%" PRIu64 ",%.3f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
		(double)(iv->index * c->interval_ns) / 1e9, wa_dir_name(d), iv->transactions,
		iv->data_bytes, (double)iv->data_bytes / secs / 1e6, iv->discontinuities,
		iv->doorbells, iv->max_latency);
	c->rows++;
}

/* Moves direction d's interval to the one holding ts, writing the ones passed. */
static struct csv_interval *interval_at(struct csv_out *c, enum wa_dir d, uint64_t ts)
{
	struct csv_interval *iv = &c->cur[d];
	uint64_t o = c->origin ? *c->origin : 0;
	uint64_t idx = ts > o ? (ts - o) / c->interval_ns : 0;

	if (iv->open && idx <= iv->index) {
		return iv;
	}
	if (iv->open) {
		uint64_t next = iv->index + 1;

		flush_interval(c, d);
		/* empty intervals in between are rows too: the rate was zero there */
		while (next < idx) {
			memset(iv, 0, sizeof(*iv));
			iv->open = true;
			iv->index = next++;
			flush_interval(c, d);
		}
	}
	memset(iv, 0, sizeof(*iv));
	iv->open = true;
	iv->index = idx;
	return iv;
}

void csv_bell(struct csv_out *c, const struct wa_bell_event *ev)
{
	struct csv_interval *iv;

	if (ev->kind != DM_MATCHED) {
		return;
	}
	fprintf(c->bells, "%.9f,%" PRIu64 ",%s,%u,%u\n", rel_s(c, ev->ts), ev->latency,
		wa_dir_name(ev->dir), ev->conn, ev->buffer);
	iv = interval_at(c, ev->dir, ev->ts);
	iv->doorbells++;
	if (ev->latency > iv->max_latency) {
		iv->max_latency = ev->latency;
	}
}

void csv_txn(struct csv_out *c, const struct wa_txn_event *ev)
{
	struct csv_interval *iv = interval_at(c, ev->dir, ev->ts);

	iv->transactions++;
	iv->data_bytes += ev->bytes;
	if (ev->opcode == DGR_OPCODE_DISCONTINUITY) {
		iv->discontinuities++;
	}
}

/*
 * time_s is the doorbell's time (completion + latency), as in doorbells.csv: a doorbell is one
 * point in time in every series, whichever side measured it (docs/analysis.md, "CSV").
 */
void csv_host_doorbell(struct csv_out *c, const struct ha_doorbell *d)
{
	fprintf(c->host, "%.9f,%" PRIu64 ",%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",",
		rel_s(c, d->ts + d->latency), d->latency, d->conn, d->buffer, d->wait, d->work,
		d->send);
	/* empty: a trace of a stack without the field */
	if (d->has_wait_receive) {
		fprintf(c->host, "%" PRIu64, d->wait_receive);
	}
	fputc('\n', c->host);
}

void csv_drops(struct csv_out *c, uint64_t ts, const char *source, unsigned int conn, uint32_t vpid,
	       uint64_t delivered, uint64_t lost)
{
	double pct = delivered + lost ? 100.0 * (double)lost / (double)(delivered + lost) : 0.0;

	fprintf(c->drops, "%.9f,%s,%u,%" PRIu64 ",%" PRIu64 ",%.6f,%u\n", rel_s(c, ts), source,
		conn, delivered, lost, pct, vpid);
}

int csv_close(struct csv_out *c, char *errbuf)
{
	FILE **f[] = { &c->bells, &c->intervals, &c->host, &c->drops };
	unsigned int i;
	int ret = 0;

	if (c->intervals) {
		flush_interval(c, WA_RX);
		flush_interval(c, WA_TX);
	}
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (*f[i] && (ferror(*f[i]) | fclose(*f[i]))) {
			if (errbuf && !ret) {
				snprintf(errbuf, DGR_ERRBUF_SIZE, "--csv: write error: %s",
					 strerror(errno));
			}
			ret = -DGR_E_SYS;
		}
		*f[i] = NULL;
	}
	return ret;
}
