// SPDX-License-Identifier: GPL-2.0-or-later
/* The item list of a report, and the names of statuses, regimes and profiles. */
#include <stdlib.h>
#include <string.h>

#include "tune_priv.h"

/* Returns the new zeroed item, or NULL when out of memory. */
struct dgr_tune_item *tune_add(struct dgr_tune_report *r, const char *id, unsigned int regimes)
{
	struct dgr_tune_item *it;

	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 32;
		struct dgr_tune_item *p = realloc(r->items, cap * sizeof(*p));

		if (!p) {
			return NULL;
		}
		r->items = p;
		r->cap = cap;
	}
	it = &r->items[r->n++];
	memset(it, 0, sizeof(*it));
	tune_set(it->id, "%s", id);
	it->regimes = regimes;
	it->status = DGR_TUNE_INFO;
	return it;
}

/* Sets current to "unknown (why)" and the status to UNKNOWN. */
void tune_unknown(struct dgr_tune_item *it, const char *why)
{
	tune_set(it->current, "unknown (%s)", why);
	it->status = DGR_TUNE_UNKNOWN;
}

/* Frees the items and zeroes the report; safe on a zeroed report. */
void dgr_tune_report_free(struct dgr_tune_report *report)
{
	free(report->items);
	memset(report, 0, sizeof(*report));
}

/* Returns true when the item matters for the regime (always for ANY). */
bool dgr_tune_item_relevant(const struct dgr_tune_item *item, enum dgr_tune_regime regime)
{
	if (regime == DGR_REGIME_ANY) {
		return true;
	}
	return (item->regimes & (1u << regime)) != 0;
}

static const char *const regime_names[] = { "any", "healthy", "jitter-bound", "throughput-bound" };

/* Returns the regime's name, "?" when out of range. Never NULL. */
const char *dgr_tune_regime_name(enum dgr_tune_regime regime)
{
	if ((unsigned int)regime >= sizeof(regime_names) / sizeof(regime_names[0])) {
		return "?";
	}
	return regime_names[regime];
}

/* Returns 0, or -DGR_E_INVAL for a name other than the three verdicts. */
int dgr_tune_regime_parse(const char *name, enum dgr_tune_regime *out)
{
	unsigned int i;

	for (i = 1; i < sizeof(regime_names) / sizeof(regime_names[0]); i++) {
		if (strcmp(name, regime_names[i]) == 0) {
			*out = (enum dgr_tune_regime)i;
			return 0;
		}
	}
	return -DGR_E_INVAL;
}

/* Returns "ok", "fix", "unknown", "info", or "?". Never NULL. */
const char *dgr_tune_status_name(enum dgr_tune_status status)
{
	switch (status) {
	case DGR_TUNE_OK:
		return "ok";
	case DGR_TUNE_FIX:
		return "fix";
	case DGR_TUNE_UNKNOWN:
		return "unknown";
	case DGR_TUNE_INFO:
		return "info";
	}
	return "?";
}

static const char *const profile_names[] = { "rx", "rx-dmcrypt", "tx" };

/* Returns the profile's name, "?" when out of range. Never NULL. */
const char *dgr_tune_profile_name(enum dgr_tune_profile profile)
{
	if ((unsigned int)profile >= sizeof(profile_names) / sizeof(profile_names[0])) {
		return "?";
	}
	return profile_names[profile];
}

/* Returns 0, or -DGR_E_INVAL for an unknown profile name. */
int dgr_tune_profile_parse(const char *name, enum dgr_tune_profile *out)
{
	unsigned int i;

	for (i = 0; i < sizeof(profile_names) / sizeof(profile_names[0]); i++) {
		if (strcmp(name, profile_names[i]) == 0) {
			*out = (enum dgr_tune_profile)i;
			return 0;
		}
	}
	return -DGR_E_INVAL;
}
