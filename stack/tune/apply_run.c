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
static int run_action(struct dgr_pr *p, const struct dgr_tune_opts *o,
		      const struct dgr_tune_action *a, bool yes)
{
	char eb[DGR_ERRBUF_SIZE] = "";
	const char *result;
	int failed = 0;

	if (!a->needed) {
		result = "skipped";
		dgr_pr_text(p, "# skip: %s\n", a->note);
	} else if (!yes) {
		result = "planned";
		dgr_pr_text(p, "%s\n", a->command);
	} else if (dgr_tune_action_apply(o, a, eb) == 0) {
		result = "applied";
		dgr_pr_text(p, "applied: %s\n", a->command);
	} else {
		result = "failed";
		failed = 1;
		dgr_pr_text(p, "failed: %s: %s\n", a->command, eb);
	}
	dgr_pr_obj_begin(p, NULL, NULL);
	dgr_pr_str(p, "kind", NULL, kind_name(a->kind));
	dgr_pr_str(p, "target", NULL, a->target);
	dgr_pr_str(p, "command", NULL, a->command);
	dgr_pr_bool(p, "needed", NULL, a->needed);
	dgr_pr_str(p, "result", NULL, result);
	dgr_pr_str(p, "note", NULL, a->note);
	dgr_pr_str(p, "error", NULL, eb);
	dgr_pr_obj_end(p);
	return failed;
}

static int run_persist(struct dgr_pr *p, const struct dgr_tune_opts *o,
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
			dgr_pr_text(p, "# --persist: no sysctl in this plan, nothing to write\n");
		}
		return 0;
	}
	dgr_pr_obj_begin(p, "persist", NULL);
	dgr_pr_str(p, "path", NULL, "/" DGR_TUNE_PERSIST_FILE);
	if (!(flags & DGR_TUNE_APPLY_PERSIST)) {
		result = "not requested";
		dgr_pr_text(p, "# not persistent: add --persist to write /" DGR_TUNE_PERSIST_FILE
			       "\n");
	} else if (!(flags & DGR_TUNE_APPLY_YES)) {
		result = "planned";
		dgr_pr_text(p, "# would write /" DGR_TUNE_PERSIST_FILE ":\n");
		if (dgr_tune_persist_text(plan, text, sizeof(text)) > 0) {
			for (line = strtok_r(text, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save)) {
				dgr_pr_text(p, "#   %s\n", line);
			}
		}
	} else if (dgr_tune_persist_write(o, plan, eb) == 0) {
		result = "written";
		dgr_pr_text(p, "wrote /" DGR_TUNE_PERSIST_FILE "\n");
	} else {
		result = "failed";
		failed = 1;
		dgr_pr_text(p, "failed: write /" DGR_TUNE_PERSIST_FILE ": %s\n", eb);
	}
	dgr_pr_str(p, "result", NULL, result);
	dgr_pr_str(p, "error", NULL, eb);
	dgr_pr_obj_end(p);
	return failed;
}

/* Returns the number of failed actions and file writes. */
int dgr_tune_apply_run(FILE *out, const struct dgr_tune_opts *opts,
		       const struct dgr_tune_plan *plan, unsigned int flags)
{
	bool yes = (flags & DGR_TUNE_APPLY_YES) != 0, rings = false, manual_head = false;
	struct dgr_pr p;
	size_t i;
	int failed = 0;

	dgr_pr_begin(&p, out,
		     DGR_PR_TEXT_FREE | DGR_PR_EMPTY_NULL |
			 ((flags & DGR_TUNE_APPLY_JSON) ? DGR_PR_JSON : 0));
	dgr_pr_str(&p, "profile", NULL, dgr_tune_profile_name(plan->profile));
	dgr_pr_str(&p, "root", NULL, opts->root && opts->root[0] ? opts->root : "/");
	dgr_pr_str(&p, "mode", NULL, yes ? "apply" : "dry-run");
	dgr_pr_text(&p, "# dgrdma-tune apply --profile %s: %s\n",
		    dgr_tune_profile_name(plan->profile), yes ? "apply" : "dry-run");
	if (!yes) {
		dgr_pr_text(&p, "# nothing is changed; add --yes to run the commands below\n");
	}
	dgr_pr_arr_begin(&p, "actions", NULL);
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
			dgr_pr_text(&p, "# not applied (reboot or manual step):\n");
			manual_head = true;
		}
		dgr_pr_text(&p, "#   %s\n#     (%s)\n", a->command, a->note);
		dgr_pr_obj_begin(&p, NULL, NULL);
		dgr_pr_str(&p, "kind", NULL, kind_name(a->kind));
		dgr_pr_str(&p, "target", NULL, a->target);
		dgr_pr_str(&p, "command", NULL, a->command);
		dgr_pr_bool(&p, "needed", NULL, a->needed);
		dgr_pr_str(&p, "result", NULL, "manual");
		dgr_pr_str(&p, "note", NULL, a->note);
		dgr_pr_obj_end(&p);
	}
	dgr_pr_arr_end(&p);
	if (rings) {
		dgr_pr_text(&p, "# NIC settings are reset at reboot\n");
	}
	failed += run_persist(&p, opts, plan, flags);
	dgr_pr_u64(&p, "failed", NULL, (uint64_t)failed);
	dgr_pr_text(&p, "# %d failed\n", failed);
	dgr_pr_end(&p);
	return failed;
}
