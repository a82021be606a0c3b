/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The capture files latency-report reads as one capture (docs/analysis.md,
 * "Input"): files given, the capture files of a folder (dumpcap's ring of
 * files, `-b files:N`), standard input ("-"), each plain or compressed with
 * gzip (read through zlib: libpcap reads a FILE*). The files are read in the
 * order of their first frame's time, through one wire analysis, so a
 * transaction and its doorbell carry across file boundaries; files that
 * overlap in time are refused (two captures, not one cut in files: merge them
 * with mergecap first).
 */
#ifndef DGR_ANALYSIS_CAPTURE_SET_H
#define DGR_ANALYSIS_CAPTURE_SET_H

#include <stdbool.h>
#include <stdint.h>

#include "wire_analysis.h"

struct capture_file {
	char *path;	   /* "-": standard input */
	uint64_t first_ns; /* time of its first frame (ordering) */
	bool empty;	   /* no frame */
};

struct capture_set {
	struct capture_file *files;
	unsigned int n, cap;
};

/* True when path is a pcap or pcapng capture, plain or compressed with gzip. */
bool capture_set_is_capture(const char *path);

/*
 * Adds one capture file ("-": standard input, which must then be the only
 * one). Returns 0, or a negative DGR_E_* code with errbuf filled.
 */
int capture_set_add(struct capture_set *cs, const char *path, char *errbuf);

/*
 * Adds every capture file of folder dir (plain or gzip; other files and
 * hidden ones are skipped). Returns the number added (0: none, not an error),
 * or a negative DGR_E_* code with errbuf filled.
 */
int capture_set_add_dir(struct capture_set *cs, const char *dir, char *errbuf);

/*
 * Reads every file into w, in the order of their first frame's time.
 * Returns 0, PCAP_INPUT_PARTIAL (a file was cut or damaged: what it held up
 * to there was read, and errbuf says so; the files after it are still read),
 * or a negative DGR_E_* code with errbuf filled: a file cannot be opened or
 * read, two files overlap in time, or standard input is one of several.
 */
int capture_set_read(struct capture_set *cs, struct wire_analysis *w, bool progress, char *errbuf);

/* Frees the set (zeroed or filled). */
void capture_set_free(struct capture_set *cs);

#endif
