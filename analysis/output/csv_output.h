/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --csv DIR: the series dgrdma-plot draws, written while the input streams.
 *   doorbells.csv      time_s,latency_ns,dir,conn,buffer         (matched doorbells, wire)
 *   intervals.csv      time_s,dir,transactions,data_bytes,throughput_MBps,
 *                      discontinuities,doorbells,max_latency_ns  (per interval, wire)
 *   host_doorbells.csv time_s,latency_ns,conn,buffer,wait_ns,work_ns,send_ns,wait_receive_ns
 *                      (trace; wait_receive_ns empty for traces without it)
 *   drops.csv          time_s,source,conn,delivered,lost,drop_pct,vpid (trace counters,
 *                      cumulative: source host = samples received/lost by the ramp
 *                      check, fpga = samples produced/dropped by the emulator,
 *                      socket = frames received/dropped by the kernel)
 * With csv_plot_columns (--plot-columns N), per latency series (SERIES rx and tx on the wire,
 * host: in-host from the completion, arrival: in-host from the kernel's arrival):
 *   columns-SERIES.csv   time_s,min_ns,p50_ns,p99_ns,max_ns,doorbells,from_s,to_s (N pixel
 *                        columns over the series' span, plot_columns.h)
 *   histogram-SERIES.csv lo_ns,hi_ns,doorbells (the series' histogram in the same buckets)
 * and with a row limit (--doorbell-rows N) doorbells.csv and host_doorbells.csv keep their rows
 * only while each series of the file has at most N doorbells; past N the file is cut back to
 * its header line and takes no more rows (0: no rows at all).
 * time_s counts from the run's origin (first frame of the capture, else first
 * trace event). In doorbells.csv and host_doorbells.csv it is the doorbell's time
 * (the doorbell frame; in the trace the completion + latency): a doorbell is one point in
 * time in every series. Files without rows keep their header line.
 */
#ifndef DGR_ANALYSIS_CSV_OUTPUT_H
#define DGR_ANALYSIS_CSV_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "host_events.h"
#include "plot_columns.h"
#include "wire_analysis.h"

/* the latency series of the plot: rx and tx on the wire, in-host from completion and arrival */
enum csv_series { CSV_RX, CSV_TX, CSV_HOST, CSV_ARRIVAL, CSV_SERIES };

struct csv_interval {
	bool open;
	uint64_t index;
	uint64_t transactions, data_bytes, discontinuities, doorbells, max_latency;
};

struct csv_out {
	FILE *bells, *intervals, *host, *drops;
	const uint64_t *origin; /* the run's origin, ns (read when the first row is written) */
	uint64_t interval_ns;
	struct csv_interval cur[2];
	uint64_t rows;
	int error; /* errno of the first write error */
	const char *dir;
	/* --plot-columns: each series' columns (NULL: none) */
	struct plot_columns *cols[CSV_SERIES];
	/* --doorbell-rows: the rows a series may have (UINT64_MAX: all), each one's so far */
	uint64_t row_limit, series_n[CSV_SERIES];
	bool bells_cut, host_cut; /* doorbells.csv, host_doorbells.csv cut back to the header */
};

/*
 * Creates DIR (if needed) and the four files. Returns 0, or -DGR_E_SYS with
 * errbuf naming the file.
 */
int csv_open(struct csv_out *c, const char *dir, uint64_t interval_ns, const uint64_t *origin,
	     char *errbuf);
/*
 * After csv_open: columns (PC_COLUMNS_MIN..PC_COLUMNS_MAX; 0: none) pixel columns per series,
 * written at csv_close, and at most row_limit rows per series in the per-doorbell files
 * (UINT64_MAX: all). Returns 0, or -DGR_E_NOMEM.
 */
int csv_plot_columns(struct csv_out *c, unsigned int columns, uint64_t row_limit);
void csv_bell(struct csv_out *c, const struct wa_bell_event *ev);
void csv_txn(struct csv_out *c, const struct wa_txn_event *ev);
void csv_host_doorbell(struct csv_out *c, const struct ha_doorbell *d);
void csv_drops(struct csv_out *c, uint64_t ts, const char *source, unsigned int conn, uint32_t vpid,
	       uint64_t delivered, uint64_t lost);
/*
 * Flushes the open intervals, writes the columns and closes the files. Returns 0, -DGR_E_SYS
 * (a write error) or -DGR_E_NOMEM (the columns lost a doorbell), with errbuf (may be NULL).
 */
int csv_close(struct csv_out *c, char *errbuf);

#endif
