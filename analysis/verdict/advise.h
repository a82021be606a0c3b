/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --advise: after the verdict, check this host's settings with libdgrtune
 * (issue 9, stack/tune/tune.h) and list the ones the tuning guide would change
 * for the regime found, through latency-report's print layer.
 */
#ifndef DGR_ANALYSIS_ADVISE_H
#define DGR_ANALYSIS_ADVISE_H

#include "print.h"
#include "classify.h"
#include "stall_cause.h"

struct advise_opts {
	const char *root;  /* "/" or a fake root (tests) */
	const char *iface; /* interface for the NIC checks, or NULL */
	/* the recorded machine's kernel release (run.json host.kernel), NULL or "": root's */
	const char *kernel_release;
};

/*
 * Prints "advice": first, when sc (may be NULL) found causes of stalls, the
 * cure of each cause in the order of the causes (by stall time), each saying
 * which cause it addresses, with the exact command; then the host settings
 * that differ from the guide's recommendation and matter for regime r and
 * that no cause named already. Returns the number of items, or a negative
 * DGR_E_* code with errbuf filled.
 */
int advise_print(struct dgr_pr *p, enum regime r, const struct advise_opts *o,
		 const struct stall_cause *sc, char *errbuf);

#endif
