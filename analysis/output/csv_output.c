// SPDX-License-Identifier: GPL-2.0-or-later
/* CSV series for plotting (see csv_output.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dgrdma/wire.h>

#include "csv_output.h"

#define BELLS_HEADER "time_s,latency_ns,dir,conn,buffer"
#define HOST_HEADER  "time_s,latency_ns,conn,buffer,wait_ns,work_ns,send_ns,wait_receive_ns"

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
	c->dir = dir;
	c->row_limit = UINT64_MAX;
	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "--csv: cannot create %s: %s", dir,
			 strerror(errno));
		return -DGR_E_SYS;
	}
	c->bells = open_one(dir, "doorbells.csv", BELLS_HEADER, errbuf);
	if (c->bells) {
		c->intervals = open_one(dir, "intervals.csv",
					"time_s,dir,transactions,data_bytes,throughput_MBps,"
					"discontinuities,doorbells,max_latency_ns",
					errbuf);
	}
	if (c->intervals) {
		c->host = open_one(dir, "host_doorbells.csv", HOST_HEADER, errbuf);
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

static const char *const series_name[CSV_SERIES] = { "rx", "tx", "host", "arrival" };

int csv_plot_columns(struct csv_out *c, unsigned int columns, uint64_t row_limit)
{
	unsigned int i;

	c->row_limit = row_limit;
	for (i = 0; columns && i < CSV_SERIES; i++) {
		c->cols[i] = malloc(sizeof(*c->cols[i]));
		if (!c->cols[i] || pc_init(c->cols[i], columns) < 0) {
			free(c->cols[i]);
			c->cols[i] = NULL;
			return -DGR_E_NOMEM;
		}
	}
	return 0;
}

/*
 * Counts a doorbell of series s, whose rows go to fp (header: its header line's length).
 * Returns whether its row is written: past the row limit the file is cut back to its header.
 */
static bool row_wanted(struct csv_out *c, enum csv_series s, FILE *fp, bool *cut, long header)
{
	if (*cut) {
		return false;
	}
	if (++c->series_n[s] <= c->row_limit) {
		return true;
	}
	*cut = true;
	if ((fflush(fp) || ftruncate(fileno(fp), header) || fseek(fp, 0, SEEK_END)) && !c->error) {
		c->error = errno;
	}
	return false;
}

static int64_t rel_ns(const struct csv_out *c, uint64_t ts)
{
	uint64_t o = c->origin ? *c->origin : 0;

	return ts >= o ? (int64_t)(ts - o) : -(int64_t)(o - ts);
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
	if (c->cols[ev->dir]) {
		pc_add(c->cols[ev->dir], rel_ns(c, ev->ts), ev->latency);
	}
	if (row_wanted(c, (enum csv_series)ev->dir, c->bells, &c->bells_cut,
		       (long)sizeof(BELLS_HEADER))) {
		fprintf(c->bells, "%.9f,%" PRIu64 ",%s,%u,%u\n", rel_s(c, ev->ts), ev->latency,
			wa_dir_name(ev->dir), ev->conn, ev->buffer);
	}
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
	int64_t t = rel_ns(c, d->ts + d->latency);

	if (c->cols[CSV_HOST]) {
		pc_add(c->cols[CSV_HOST], t, d->latency);
		if (d->has_wait_receive) {
			pc_add(c->cols[CSV_ARRIVAL], t, d->latency + d->wait_receive);
		}
	}
	if (!row_wanted(c, CSV_HOST, c->host, &c->host_cut, (long)sizeof(HOST_HEADER))) {
		return;
	}
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

/*
 * Writes series s's columns-SERIES.csv and histogram-SERIES.csv. Returns 0, -DGR_E_SYS or
 * -DGR_E_NOMEM with errbuf (may be NULL).
 */
static int write_columns(struct csv_out *c, enum csv_series s, char *errbuf)
{
	const char *what[2] = { "columns", "histogram" };
	unsigned int i;
	FILE *fp;
	int rc = 0;

	for (i = 0; i < 2 && rc == 0; i++) {
		char name[64], path[4096];

		snprintf(name, sizeof(name), "%s-%s.csv", what[i], series_name[s]);
		snprintf(path, sizeof(path), "%s/%s", c->dir, name);
		fp = fopen(path, "w");
		if (!fp) {
			rc = -DGR_E_SYS;
		} else {
			rc = i == 0 ? pc_write_columns(c->cols[s], fp)
				    : pc_write_histogram(c->cols[s], fp);
			if ((ferror(fp) | fclose(fp)) && rc == 0) {
				rc = -DGR_E_SYS;
			}
		}
		if (rc && errbuf) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "--plot-columns: %.170s: %.60s", path,
				 rc == -DGR_E_NOMEM ? "out of memory" : strerror(errno));
		}
	}
	return rc;
}

int csv_close(struct csv_out *c, char *errbuf)
{
	FILE **f[] = { &c->bells, &c->intervals, &c->host, &c->drops };
	unsigned int i;
	int ret = 0;

	for (i = 0; i < CSV_SERIES; i++) {
		if (c->cols[i] && c->drops && ret == 0) {
			ret = write_columns(c, (enum csv_series)i, errbuf);
		}
		if (c->cols[i]) {
			pc_free(c->cols[i]);
			free(c->cols[i]);
			c->cols[i] = NULL;
		}
	}

	if (c->intervals) {
		flush_interval(c, WA_RX);
		flush_interval(c, WA_TX);
	}
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (*f[i] && (ferror(*f[i]) | fclose(*f[i]) | (c->error != 0))) {
			if (c->error) {
				errno = c->error;
			}
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
