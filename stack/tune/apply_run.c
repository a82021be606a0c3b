// SPDX-License-Identifier: GPL-2.0-or-later
/* dgr_tune_apply_run(): prints a plan and, with --yes, performs it. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "print.h"
#include "tune_priv.h"

static const char *kind_name(enum dgr_tune_action_kind k)
{
	switch (k) {
	case DGR_ACTION_SYSCTL:
		return "sysctl";
	case DGR_ACTION_RING:
		return "ring";
	case DGR_ACTION_MANUAL:
		return "manual";
	case DGR_ACTION_PAUSE:
		return "pause";
	}
	return "?";
}

/* Prints and (with yes) performs one runtime action; returns 1 if it failed. */
static int run_action(struct pr *p, const struct dgr_tune_opts *o, const struct dgr_tune_action *a,
		      bool yes)
{
	char eb[DGR_ERRBUF_SIZE] = "";
	const char *result;
	int failed = 0;

	if (!a->needed) {
		result = "skipped";
		pr_text(p, "# skip: %s\n", a->note);
	} else if (!yes) {
		result = "planned";
		pr_text(p, "%s\n", a->command);
	} else if (dgr_tune_action_apply(o, a, eb) == 0) {
		result = "applied";
		pr_text(p, "applied: %s\n", a->command);
	} else {
		result = "failed";
		failed = 1;
		pr_text(p, "failed: %s: %s\n", a->command, eb);
	}
	pr_open_obj(p, NULL);
	pr_string(p, PR_JSON, "kind", "", kind_name(a->kind));
	pr_string(p, PR_JSON, "target", "", a->target);
	pr_string(p, PR_JSON, "command", "", a->command);
	pr_bool(p, PR_JSON, "needed", "", a->needed);
	pr_string(p, PR_JSON, "result", "", result);
	pr_string(p, PR_JSON, "note", "", a->note);
	pr_string(p, PR_JSON, "error", "", eb);
	pr_close_obj(p);
	return failed;
}

static int run_persist(struct pr *p, const struct dgr_tune_opts *o,
		       const struct dgr_tune_plan *plan, unsigned int flags)
{
	char text[4096], eb[DGR_ERRBUF_SIZE] = "", *line, *save = NULL;
	const char *result;
	bool has_sysctl = false;
	size_t i;
	int failed = 0;

	for (i = 0; i < plan->n; i++) {
		has_sysctl |= plan->actions[i].kind == DGR_ACTION_SYSCTL;
	}
	if (!has_sysctl) {
		if (flags & DGR_TUNE_APPLY_PERSIST) {
			pr_text(p, "# --persist: no sysctl in this plan, nothing to write\n");
		}
		return 0;
	}
	pr_open_obj(p, "persist");
	pr_string(p, PR_JSON, "path", "", "/" DGR_TUNE_PERSIST_FILE);
	if (!(flags & DGR_TUNE_APPLY_PERSIST)) {
		result = "not requested";
		pr_text(p, "# not persistent: add --persist to write /" DGR_TUNE_PERSIST_FILE "\n");
	} else if (!(flags & DGR_TUNE_APPLY_YES)) {
		result = "planned";
		pr_text(p, "# would write /" DGR_TUNE_PERSIST_FILE ":\n");
		if (dgr_tune_persist_text(plan, text, sizeof(text)) > 0) {
			for (line = strtok_r(text, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save)) {
				pr_text(p, "#   %s\n", line);
			}
		}
	} else if (dgr_tune_persist_write(o, plan, eb) == 0) {
		result = "written";
		pr_text(p, "wrote /" DGR_TUNE_PERSIST_FILE "\n");
	} else {
		result = "failed";
		failed = 1;
		pr_text(p, "failed: write /" DGR_TUNE_PERSIST_FILE ": %s\n", eb);
	}
	pr_string(p, PR_JSON, "result", "", result);
	pr_string(p, PR_JSON, "error", "", eb);
	pr_close_obj(p);
	return failed;
}

/* Returns the number of failed actions and file writes. */
int dgr_tune_apply_run(FILE *out, const struct dgr_tune_opts *opts,
		       const struct dgr_tune_plan *plan, unsigned int flags)
{
	bool yes = (flags & DGR_TUNE_APPLY_YES) != 0, rings = false, manual_head = false;
	struct pr p;
	size_t i;
	int failed = 0;

	pr_init(&p, out, (flags & DGR_TUNE_APPLY_JSON) != 0);
	pr_open_obj(&p, NULL);
	pr_string(&p, PR_ANY, "profile",
		  "# dgrdma-tune apply --profile %s: ", dgr_tune_profile_name(plan->profile));
	pr_string(&p, PR_JSON, "root", "", opts->root && opts->root[0] ? opts->root : "/");
	pr_string(&p, PR_ANY, "mode", "%s\n", yes ? "apply" : "dry-run");
	if (!yes) {
		pr_text(&p, "# nothing is changed; add --yes to run the commands below\n");
	}
	pr_open_arr(&p, "actions");
	for (i = 0; i < plan->n; i++) {
		const struct dgr_tune_action *a = &plan->actions[i];

		if (a->kind == DGR_ACTION_MANUAL) {
			continue;
		}
		rings |= (a->kind == DGR_ACTION_RING || a->kind == DGR_ACTION_PAUSE) && a->needed;
		failed += run_action(&p, opts, a, yes);
	}
	for (i = 0; i < plan->n; i++) {
		const struct dgr_tune_action *a = &plan->actions[i];

		if (a->kind != DGR_ACTION_MANUAL) {
			continue;
		}
		if (!manual_head) {
			pr_text(&p, "# not applied (reboot or manual step):\n");
			manual_head = true;
		}
		pr_text(&p, "#   %s\n#     (%s)\n", a->command, a->note);
		pr_open_obj(&p, NULL);
		pr_string(&p, PR_JSON, "kind", "", kind_name(a->kind));
		pr_string(&p, PR_JSON, "target", "", a->target);
		pr_string(&p, PR_JSON, "command", "", a->command);
		pr_bool(&p, PR_JSON, "needed", "", a->needed);
		pr_string(&p, PR_JSON, "result", "", "manual");
		pr_string(&p, PR_JSON, "note", "", a->note);
		pr_close_obj(&p);
	}
	pr_close_arr(&p);
	if (rings) {
		pr_text(&p, "# NIC settings are reset at reboot\n");
	}
	failed += run_persist(&p, opts, plan, flags);
	pr_uint(&p, PR_ANY, "failed", "# %" PRIu64 " failed\n", (uint64_t)failed);
	pr_close_obj(&p);
	pr_end(&p);
	return failed;
}
