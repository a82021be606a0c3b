// SPDX-License-Identifier: GPL-2.0-or-later
/* dgr_tune_print(): a check report as text or JSON, through the print layer. */
#include <inttypes.h>
#include <stdio.h>

#include "print.h"
#include "tune_priv.h"

static void print_regimes(struct dgr_pr *p, unsigned int mask)
{
	static const enum dgr_tune_regime all[] = { DGR_REGIME_HEALTHY, DGR_REGIME_JITTER,
						    DGR_REGIME_THROUGHPUT };
	size_t i;
	bool first = true;

	dgr_pr_arr_begin(p, "regimes", NULL);
	dgr_pr_text(p, "    %-12s ", "matters in");
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (mask & (1u << all[i])) {
			dgr_pr_str(p, NULL, NULL, dgr_tune_regime_name(all[i]));
			dgr_pr_text(p, "%s%s", first ? "" : ", ", dgr_tune_regime_name(all[i]));
			first = false;
		}
	}
	dgr_pr_text(p, "\n");
	dgr_pr_arr_end(p);
}

/* One field of an item: in JSON always (null when empty), in text a line when it has a value. */
static void print_field(struct dgr_pr *p, const char *key, const char *value)
{
	dgr_pr_str(p, key, NULL, value);
	if (value[0]) {
		dgr_pr_text(p, "    %-12s %s\n", key, value);
	}
}

static void print_item(struct dgr_pr *p, const struct dgr_tune_item *it,
		       enum dgr_tune_regime regime)
{
	dgr_pr_obj_begin(p, NULL, NULL);
	dgr_pr_text(p, "[%-7s] %s", dgr_tune_status_name(it->status), it->id);
	dgr_pr_str(p, "id", NULL, it->id);
	dgr_pr_str(p, "subject", NULL, it->subject);
	if (it->subject[0]) {
		dgr_pr_text(p, " (%s)", it->subject);
	}
	dgr_pr_text(p, "\n");
	dgr_pr_str(p, "status", NULL, dgr_tune_status_name(it->status));
	print_field(p, "current", it->current);
	print_field(p, "recommended", it->recommended);
	print_field(p, "why", it->why);
	print_field(p, "fix", it->fix);
	dgr_pr_bool(p, "runtime", NULL, it->fix_runtime);
	if (it->fix[0] && !it->fix_runtime) {
		dgr_pr_text(p, "    %-12s %s\n", "applies", "after a reboot or by hand");
	}
	print_regimes(p, it->regimes);
	if (regime != DGR_REGIME_ANY) {
		bool relevant = dgr_tune_item_relevant(it, regime);

		dgr_pr_bool(p, "relevant", NULL, relevant);
		dgr_pr_text(p, "    %-12s %s\n", "relevant", relevant ? "yes" : "no");
	}
	dgr_pr_obj_end(p);
}

/* Returns the number of printed items with status FIX that matter for the regime. */
int dgr_tune_print(FILE *out, const struct dgr_tune_report *report, const char *root,
		   enum dgr_tune_regime regime, unsigned int flags)
{
	unsigned int count[4] = { 0 };
	unsigned int hidden = 0, todo_head = 0;
	struct dgr_pr p;
	size_t i;
	int fixes = 0;

	dgr_pr_begin(&p, out,
		     DGR_PR_TEXT_FREE | DGR_PR_EMPTY_NULL |
			 ((flags & DGR_TUNE_PRINT_JSON) ? DGR_PR_JSON : 0));
	dgr_pr_str(&p, "root", NULL, root && root[0] ? root : "/");
	dgr_pr_str(&p, "regime", NULL, dgr_tune_regime_name(regime));
	dgr_pr_text(&p, "dgrdma-tune check: root %s, regime %s\n", root && root[0] ? root : "/",
		    dgr_tune_regime_name(regime));
	dgr_pr_arr_begin(&p, "items", NULL);
	for (i = 0; i < report->n; i++) {
		const struct dgr_tune_item *it = &report->items[i];
		bool relevant = dgr_tune_item_relevant(it, regime);

		if (!relevant && (flags & DGR_TUNE_PRINT_RELEVANT)) {
			hidden++;
			continue;
		}
		print_item(&p, it, regime);
		count[it->status & 3]++;
		if (it->status == DGR_TUNE_FIX && relevant) {
			fixes++;
		}
	}
	dgr_pr_arr_end(&p);
	/* Text only: what to do, readable in five seconds (JSON readers filter on "status"). */
	for (i = 0; i < report->n && fixes > 0; i++) {
		const struct dgr_tune_item *it = &report->items[i];

		if (it->status != DGR_TUNE_FIX || !dgr_tune_item_relevant(it, regime)) {
			continue;
		}
		if (todo_head++ == 0) {
			dgr_pr_text(&p, "to fix:\n");
		}
		dgr_pr_text(&p, "  %-26s %-10s %s\n", it->id, it->subject, it->fix);
	}
	dgr_pr_obj_begin(&p, "summary", NULL);
	dgr_pr_u64(&p, "ok", NULL, count[DGR_TUNE_OK]);
	dgr_pr_u64(&p, "fix", NULL, count[DGR_TUNE_FIX]);
	dgr_pr_u64(&p, "unknown", NULL, count[DGR_TUNE_UNKNOWN]);
	dgr_pr_u64(&p, "info", NULL, count[DGR_TUNE_INFO]);
	dgr_pr_u64(&p, "relevant_fix", NULL, (uint64_t)fixes);
	dgr_pr_u64(&p, "hidden", NULL, hidden);
	dgr_pr_obj_end(&p);
	dgr_pr_text(&p,
		    "summary: %u ok, %u to fix, %u unknown, %u info; %d to fix that matter here; "
		    "%u hidden as not relevant\n",
		    count[DGR_TUNE_OK], count[DGR_TUNE_FIX], count[DGR_TUNE_UNKNOWN],
		    count[DGR_TUNE_INFO], fixes, hidden);
	dgr_pr_end(&p);
	return fixes;
}
