// SPDX-License-Identifier: GPL-2.0-or-later
/* --advise through libdgrtune (see advise.h). */
#include <string.h>

#include <dgrdma/tune.h>

#include "advise.h"

static enum dgr_tune_regime to_tune_regime(enum regime r)
{
	switch (r) {
	case REGIME_HEALTHY:
		return DGR_REGIME_HEALTHY;
	case REGIME_JITTER:
		return DGR_REGIME_JITTER;
	case REGIME_THROUGHPUT:
		return DGR_REGIME_THROUGHPUT;
	default:
		return DGR_REGIME_ANY;
	}
}

int advise_print(struct dgr_pr *p, enum regime r, const struct advise_opts *o, char *errbuf)
{
	struct dgr_tune_opts to = { .root = o->root, .iface = o->iface, .output_path = NULL };
	struct dgr_tune_report rep;
	enum dgr_tune_regime tr = to_tune_regime(r);
	size_t i;
	int n = 0, rc;

	memset(&rep, 0, sizeof(rep));
	rc = dgr_tune_check(&to, &rep, errbuf);
	if (rc < 0) {
		dgr_tune_report_free(&rep);
		return rc;
	}
	dgr_pr_obj_begin(p, "advice",
			 "Host settings to change for this regime (dgrdma-tune check)");
	dgr_pr_str(p, "root", NULL, o->root);
	dgr_pr_str(p, "regime", NULL, dgr_tune_regime_name(tr));
	dgr_pr_arr_begin(p, "items", NULL);
	for (i = 0; i < rep.n; i++) {
		const struct dgr_tune_item *it = &rep.items[i];

		if (it->status != DGR_TUNE_FIX || !dgr_tune_item_relevant(it, tr)) {
			continue;
		}
		n++;
		if (dgr_pr_is_json(p)) {
			dgr_pr_obj_begin(p, NULL, NULL);
			dgr_pr_str(p, "id", NULL, it->id);
			dgr_pr_str(p, "subject", NULL, it->subject);
			dgr_pr_str(p, "current", NULL, it->current);
			dgr_pr_str(p, "recommended", NULL, it->recommended);
			dgr_pr_str(p, "why", NULL, it->why);
			dgr_pr_str(p, "fix", NULL, it->fix);
			dgr_pr_obj_end(p);
		} else {
			dgr_pr_text_line(p, "- %s%s%s: %s, recommended %s", it->id,
					 it->subject[0] ? " " : "", it->subject, it->current,
					 it->recommended);
			if (it->fix[0]) {
				dgr_pr_text_line(p, "    fix: %s", it->fix);
			}
		}
	}
	dgr_pr_arr_end(p);
	dgr_pr_u64(p, "count", "settings to change", (uint64_t)n);
	dgr_pr_obj_end(p);
	dgr_tune_report_free(&rep);
	return n;
}
