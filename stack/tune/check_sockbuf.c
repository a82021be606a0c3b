// SPDX-License-Identifier: GPL-2.0-or-later
/* Socket buffer sysctls: net.core.{r,w}mem_{default,max} (guide: 50,000,000). */
#include <inttypes.h>
#include <stdio.h>

#include "tune_priv.h"

static const struct {
	const char *name;
	const char *path;
	const char *why;
} sockbufs[] = {
	{ "net.core.rmem_default", "/proc/sys/net/core/rmem_default",
	  "guide \"Increasing PC Buffer Count\": a full socket buffer drops a frame, and a lost "
	  "frame stalls its transaction's doorbell" },
	{ "net.core.rmem_max", "/proc/sys/net/core/rmem_max",
	  "guide \"Increasing PC Buffer Count\": caps what SO_RCVBUF may ask for" },
	{ "net.core.wmem_default", "/proc/sys/net/core/wmem_default",
	  "guide \"Increasing PC Buffer Count\": bigger default send buffers, for the TX path" },
	{ "net.core.wmem_max", "/proc/sys/net/core/wmem_max",
	  "guide \"Increasing PC Buffer Count\": caps what SO_SNDBUF may ask for (TX path)" },
};

/* Returns 0 or -DGR_E_NOMEM. */
int tune_check_sockbuf(const struct dgr_tune_opts *o, struct dgr_tune_report *r)
{
	struct dgr_tune_item *it;
	char why[128];
	int64_t v;
	size_t i;

	for (i = 0; i < sizeof(sockbufs) / sizeof(sockbufs[0]); i++) {
		it = tune_add(r, sockbufs[i].name, DGR_TUNE_R_HEALTHY | DGR_TUNE_R_JITTER);
		if (!it) {
			return -DGR_E_NOMEM;
		}
		tune_set(it->recommended, ">= %llu", TUNE_SOCKBUF_BYTES);
		tune_set(it->why, "%s", sockbufs[i].why);
		if (tune_read_i64(o->root, sockbufs[i].path, &v, why, sizeof(why)) < 0) {
			tune_unknown(it, why);
			continue;
		}
		tune_set(it->current, "%" PRId64, v);
		if (v >= (int64_t)TUNE_SOCKBUF_BYTES) {
			it->status = DGR_TUNE_OK;
		} else {
			it->status = DGR_TUNE_FIX;
			it->fix_runtime = true;
			tune_set(it->fix, "sysctl -w %s=%llu", sockbufs[i].name,
				 TUNE_SOCKBUF_BYTES);
		}
	}
	return 0;
}
