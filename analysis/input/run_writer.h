/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.json's writer: the facts of a recording, one field at a time, each checked
 * against run.json's table (run_schema.h) when it is given, and the whole read back
 * by run_info.c's reader before it is written. dgrdma-capture writes run.json only
 * through it (dgrdma-runinfo write, docs/run-json.md).
 */
#ifndef DGR_ANALYSIS_RUN_WRITER_H
#define DGR_ANALYSIS_RUN_WRITER_H

#include <jansson.h>

struct run_writer {
	json_t *root; /* the document so far */
};

/* An empty document. Returns 0 or -DGR_E_NOMEM. */
int run_writer_init(struct run_writer *w, char *errbuf);

/*
 * The document of an existing run.json (dgrdma-capture adds an incident's settings
 * once its command has written them): a dgrdma-run/2 file the reader takes. Returns
 * 0, -DGR_E_SYS (cannot be read) or -DGR_E_INVAL, errbuf naming path.
 */
int run_writer_load(struct run_writer *w, const char *path, char *errbuf);

/*
 * One assignment, "KEY=TEXT" or "KEY:=JSON". KEY is a field of the table
 * ("trace.subbuf_size") or an entry of a map ("host.sysctls.net.core.rmem_max").
 * TEXT is the value of a string field as is ("" is null where the field says so),
 * one more element of an array (of strings: TEXT; of numbers: the number), and for
 * every other field JSON text (4096, true, null, an object). JSON is the whole
 * value as JSON text, whatever the field (warnings:=[] writes an empty array).
 * Setting a field of an object makes that object (a null one becomes an object).
 * Returns 0, or -DGR_E_INVAL with errbuf naming the key, the value and the accepted
 * type and range (an unknown key, a field the writer computes), or -DGR_E_NOMEM.
 */
int run_writer_set(struct run_writer *w, const char *assignment, char *errbuf);

/*
 * "settings": the "settings" object of the command's --summary-json at path; null
 * when path is "", is no readable file of JSON, or holds no settings object.
 * Returns 0 or -DGR_E_NOMEM.
 */
int run_writer_settings_from(struct run_writer *w, const char *path, char *errbuf);

/*
 * "losses": from the --summary-json at path, {"summary": path} and dgrdma-host's
 * "host" losses (status, samples_lost, drop_rate, incomplete_transactions,
 * buffers_unanswered and of its counters discontinuities, socket_drops,
 * frames_missing, retransmit_giveups, those it has) or dgrdma-fpga's "fpga"
 * counters (by their VHDL names); null when path is "", is no readable file of a
 * JSON object. Returns 0 or -DGR_E_NOMEM.
 */
int run_writer_losses_from(struct run_writer *w, const char *path, char *errbuf);

/*
 * The document as run.json's text (*text malloc'd, the caller frees): "format"
 * and the computed fields (clocks.duration_ns; an incident's clocks.start, its
 * incident.at less seconds_before, when not given) filled in, the fields in the
 * table's order, then checked: every required field of a written object there, no
 * key the table does not know, and the reader (run_info_parse) takes it. Returns 0,
 * -DGR_E_INVAL with errbuf naming the first bad field, or -DGR_E_NOMEM.
 */
int run_writer_finish(struct run_writer *w, char **text, char *errbuf);

/* Frees the document. */
void run_writer_free(struct run_writer *w);

#endif
