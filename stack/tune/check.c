// SPDX-License-Identifier: GPL-2.0-or-later
/* dgr_tune_check(): runs every check in the order the guide presents them. */
#include <stdio.h>

#include "tune_priv.h"

typedef int (*tune_check_fn)(const struct dgr_tune_opts *, struct dgr_tune_report *);

static const tune_check_fn checks[] = {
	tune_check_sockbuf, tune_check_nic, tune_check_writeback, tune_check_cpuset,
	tune_check_kernel,  tune_check_rt,  tune_check_dmcrypt,	  tune_check_cpufreq,
};

/* Returns the number of items, or -DGR_E_INVAL / -DGR_E_NOMEM. */
int dgr_tune_check(const struct dgr_tune_opts *opts, struct dgr_tune_report *report, char *errbuf)
{
	size_t i;
	int rc;

	if (!opts || !report) {
		if (errbuf) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "dgr_tune_check: NULL argument");
		}
		return -DGR_E_INVAL;
	}
	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		rc = checks[i](opts, report);
		if (rc < 0) {
			if (errbuf) {
				snprintf(errbuf, DGR_ERRBUF_SIZE, "out of memory");
			}
			return rc;
		}
	}
	return (int)report->n;
}
