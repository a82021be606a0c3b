/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The trace reader's module: the only code that calls libbabeltrace2
 * (ctf_graph.c, kernel_graph.c), built as a shared object of the project's
 * own, dgrdma-trace.so, that latency-report loads when it first reads a trace
 * (trace_loader.c). A run on captures alone so never loads libbabeltrace2,
 * glib, gmodule and pcre2 (docs/architecture.md, "The trace reader's module").
 *
 * The module takes the kernel model's ks_intern, ks_add, ks_add_net,
 * ks_map_pid and dgr_errbuf_set from the program, which exports them
 * (analysis/input/trace_module.dynlist).
 */
#ifndef DGR_ANALYSIS_TRACE_MODULE_H
#define DGR_ANALYSIS_TRACE_MODULE_H

#include <stdbool.h>
#include <stdint.h>

#include "ctf_input.h"
#include "kernel_input.h"

/*
 * Where the module lies, from the folder above the program's: build/bin and
 * build/lib/dgrdma-tools in the build tree, PREFIX/bin and
 * PREFIX/lib/dgrdma-tools installed (analysis/module.mk).
 */
#define TRACE_MODULE_DIR  "lib/dgrdma-tools"
#define TRACE_MODULE_FILE "dgrdma-trace.so"

/* Records from the trace reader's child to ctf_input.c (host byte order: one machine). */
enum {
	REC_CLASS = 'C', /* u32 id, u8 nfields, u8 len + name, nfields x (u8 len + name) */
	REC_EVENT = 'E', /* u32 id, u8 has_time, i64 ns, u8 nfields, nfields x u64 */
	REC_ERROR = 'X', /* u16 len + text */
	REC_DONE = 'D',
	REC_ALIVE = 'A', /* live: the relayd answered, no event yet (for the stall watchdog) */
	REC_CLOCK = 'K', /* i64: ns from origin of the clock's cycle 0 (its offset), once */
};

#define PIPE_BUF_BYTES (256u * 1024)
#define NAME_MAX_LEN   255

/* Live: the child sends what it has at least this often (the delay it adds to an interval). */
#define LIVE_FLUSH_S 0.05
/* Live: a heartbeat when nothing else was sent for this long. */
#define LIVE_ALIVE_S 1.0

/* The module's entry points: its one exported symbol, dgr_trace_module, is this table. */
struct trace_module {
	/* the build's DGR_VERSION: a module of another build is refused */
	const char *version;
	/* ctf_graph_child */
	void (*ctf_child)(int fd, char *const *dirs, unsigned int n_dirs, const char *live_url,
			  const struct ctf_live_url *live, bool verbose);
	/* kernel_graph_read */
	int (*kernel_read)(const char *path, int64_t offset_ns, enum kin_axis axis,
			   struct kernel_sched *k, char *errbuf);
};

/*
 * Loads the module beside the program, once. Sets *m and returns 0, or
 * returns -DGR_E_INVAL with errbuf (DGR_ERRBUF_SIZE) naming the file, why it
 * cannot be used and the fix.
 */
int trace_module_load(const struct trace_module **m, char *errbuf);

/*
 * The trace reader's child process (ctf_input.c forks it): runs the
 * babeltrace2 graph over the trace folders dirs[0..n_dirs), or over the live
 * session at live_url (live: its parts) when not NULL, and writes the records
 * to fd. Never returns:
 * exits 0 after REC_DONE, 1 after REC_ERROR, 3 when the pipe or memory fails.
 */
void ctf_graph_child(int fd, char *const *dirs, unsigned int n_dirs, const char *live_url,
		     const struct ctf_live_url *live, bool verbose);

/*
 * kernel_input_read() once the folder is known to hold a `metadata` file:
 * the same contract.
 */
int kernel_graph_read(const char *path, int64_t offset_ns, enum kin_axis axis,
		      struct kernel_sched *k, char *errbuf);

#endif
