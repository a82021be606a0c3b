/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --advise: after the verdict, check this host's settings with libdgrtune
 * (issue 9, dgrdma/tune.h) and list the ones the tuning guide would change
 * for the regime found, through latency-report's print layer.
 */
#ifndef DGR_ANALYSIS_ADVISE_H
#define DGR_ANALYSIS_ADVISE_H

#include "classify.h"
#include <dgrdma/print.h>

struct advise_opts {
	const char *root;  /* "/" or a fake root (tests) */
	const char *iface; /* interface for the NIC checks, or NULL */
};

/*
 * Prints "advice": the host settings that differ from the guide's
 * recommendation and matter for regime r. Returns the number of them, or a
 * negative DGR_E_* code with errbuf filled.
 */
int advise_print(struct dgr_pr *p, enum regime r, const struct advise_opts *o, char *errbuf);

#endif
