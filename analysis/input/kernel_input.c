// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel trace input (see kernel_input.h): the folder is checked here, then
 * read by kernel_graph.c in the trace reader's module, loaded on this first
 * need (trace_module.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <dgrdma/wire.h>

#include "kernel_input.h"
#include "trace_module.h"

int kernel_input_read(const char *path, int64_t offset_ns, enum kin_axis axis,
		      struct kernel_sched *k, char *errbuf)
{
	const struct trace_module *m;
	char meta[4096];
	struct stat st;
	int ret;

	if (stat(path, &st) != 0) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "the kernel trace %s: %s", path,
				      strerror(errno));
	}
	if (!S_ISDIR(st.st_mode)) {
		return dgr_errbuf_set(
		    errbuf, DGR_E_INVAL,
		    "the kernel trace %s: not a folder (give the folder perf data "
		    "convert --to-ctf wrote, or LTTng's kernel/ folder holding metadata)",
		    path);
	}
	snprintf(meta, sizeof(meta), "%s/metadata", path);
	if (stat(meta, &st) != 0 || !S_ISREG(st.st_mode)) {
		return dgr_errbuf_set(
		    errbuf, DGR_E_INVAL,
		    "the kernel trace %s: no CTF metadata file in it (perf data "
		    "convert --to-ctf DIR writes one; LTTng writes it in kernel/)",
		    path);
	}
	ret = trace_module_load(&m, errbuf);
	if (ret < 0) {
		return ret;
	}
	return m->kernel_read(path, offset_ns, axis, k, errbuf);
}
