// SPDX-License-Identifier: GPL-2.0-or-later
/* dgr_tune_print(): a check report as text or JSON, through the print layer. */
#include <inttypes.h>
#include <stdio.h>

#include "print.h"
#include "tune_priv.h"

static void print_regimes(struct pr *p, unsigned int mask)
{
	static const enum dgr_tune_regime all[] = { DGR_REGIME_HEALTHY, DGR_REGIME_JITTER,
						    DGR_REGIME_THROUGHPUT };
	size_t i;
	bool first = true;

	pr_open_arr(p, "regimes");
	pr_text(p, "    %-12s ", "matters in");
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (mask & (1u << all[i])) {
			pr_string(p, PR_JSON, NULL, "", dgr_tune_regime_name(all[i]));
			pr_text(p, "%s%s", first ? "" : ", ", dgr_tune_regime_name(all[i]));
			first = false;
		}
	}
	pr_text(p, "\n");
	pr_close_arr(p);
}

static void print_item(struct pr *p, const struct dgr_tune_item *it, enum dgr_tune_regime regime)
{
	pr_open_obj(p, NULL);
	pr_text(p, "[%-7s] %s", dgr_tune_status_name(it->status), it->id);
	pr_string(p, PR_JSON, "id", "", it->id);
	pr_string(p, PR_ANY, "subject", " (%s)", it->subject);
	pr_text(p, "\n");
	pr_string(p, PR_JSON, "status", "", dgr_tune_status_name(it->status));
	pr_string(p, PR_ANY, "current", "    current      %s\n", it->current);
	pr_string(p, PR_ANY, "recommended", "    recommended  %s\n", it->recommended);
	pr_string(p, PR_ANY, "why", "    why          %s\n", it->why);
	pr_string(p, PR_ANY, "fix", "    fix          %s\n", it->fix);
	pr_bool(p, PR_JSON, "runtime", "", it->fix_runtime);
	if (it->fix[0] && !it->fix_runtime) {
		pr_text(p, "    %-12s %s\n", "applies", "after a reboot or by hand");
	}
	print_regimes(p, it->regimes);
	if (regime != DGR_REGIME_ANY) {
		pr_bool(p, PR_ANY, "relevant", "    relevant     %s\n",
			dgr_tune_item_relevant(it, regime));
	}
	pr_close_obj(p);
}

/* Returns the number of printed items with status FIX that matter for the regime. */
int dgr_tune_print(FILE *out, const struct dgr_tune_report *report, const char *root,
		   enum dgr_tune_regime regime, unsigned int flags)
{
	unsigned int count[4] = { 0 };
	unsigned int hidden = 0, todo_head = 0;
	struct pr p;
	size_t i;
	int fixes = 0;

	pr_init(&p, out, (flags & DGR_TUNE_PRINT_JSON) != 0);
	pr_open_obj(&p, NULL);
	pr_string(&p, PR_ANY, "root", "dgrdma-tune check: root %s", root && root[0] ? root : "/");
	pr_string(&p, PR_ANY, "regime", ", regime %s", dgr_tune_regime_name(regime));
	pr_text(&p, "\n");
	pr_open_arr(&p, "items");
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
	pr_close_arr(&p);
	/* Text only: what to do, readable in five seconds (JSON readers filter on "status"). */
	for (i = 0; i < report->n && fixes > 0; i++) {
		const struct dgr_tune_item *it = &report->items[i];

		if (it->status != DGR_TUNE_FIX || !dgr_tune_item_relevant(it, regime)) {
			continue;
		}
		if (todo_head++ == 0) {
			pr_text(&p, "to fix:\n");
		}
		pr_text(&p, "  %-26s %-10s %s\n", it->id, it->subject, it->fix);
	}
	pr_open_obj(&p, "summary");
	pr_uint(&p, PR_ANY, "ok", "summary: %" PRIu64 " ok", count[DGR_TUNE_OK]);
	pr_uint(&p, PR_ANY, "fix", ", %" PRIu64 " to fix", count[DGR_TUNE_FIX]);
	pr_uint(&p, PR_ANY, "unknown", ", %" PRIu64 " unknown", count[DGR_TUNE_UNKNOWN]);
	pr_uint(&p, PR_ANY, "info", ", %" PRIu64 " info", count[DGR_TUNE_INFO]);
	pr_uint(&p, PR_ANY, "relevant_fix", "; %" PRIu64 " to fix that matter here",
		(uint64_t)fixes);
	pr_uint(&p, PR_ANY, "hidden", "; %" PRIu64 " hidden as not relevant", hidden);
	pr_text(&p, "\n");
	pr_close_obj(&p);
	pr_close_obj(&p);
	pr_end(&p);
	return fixes;
}
