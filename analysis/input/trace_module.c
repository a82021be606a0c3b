// SPDX-License-Identifier: GPL-2.0-or-later
/* The trace reader's module's entry points (see trace_module.h). */
#include "dgrdma-version.h"
#include "trace_module.h"

/* the one symbol trace_loader.c looks up */
extern const struct trace_module dgr_trace_module;
const struct trace_module dgr_trace_module = {
	.version = DGR_VERSION,
	.ctf_child = ctf_graph_child,
	.kernel_read = kernel_graph_read,
};
