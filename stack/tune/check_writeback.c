// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Dirty-page writeback: vm.dirty_background_bytes small (guide: 192000) so the
 * kernel writes back in small steps instead of long bursts that hold the CPUs.
 * dirty_background_bytes and _ratio are counterparts: the non-zero one is active.
 */
#include <inttypes.h>
#include <stdio.h>

#include "tune_priv.h"

/* Returns 0 or -DGR_E_NOMEM. */
int tune_check_writeback(const struct dgr_tune_opts *o, struct dgr_tune_report *r)
{
	struct dgr_tune_item *it;
	char why[128];
	int64_t bytes, ratio;

	it = tune_add(r, "vm.dirty_background_bytes", DGR_TUNE_R_HEALTHY | DGR_TUNE_R_JITTER);
	if (!it) {
		return -DGR_E_NOMEM;
	}
	tune_set(it->recommended, "%llu (1..%llu)", TUNE_DIRTY_BG_BYTES, TUNE_DIRTY_BG_BYTES);
	tune_set(it->why, "guide \"Increasing Write Frequency\": large writeback bursts take the "
			  "CPUs and delay doorbells");
	if (tune_read_i64(o->root, "/proc/sys/vm/dirty_background_bytes", &bytes, why,
			  sizeof(why)) < 0) {
		tune_unknown(it, why);
		return 0;
	}
	if (bytes > 0) {
		tune_set(it->current, "%" PRId64, bytes);
	} else if (tune_read_i64(o->root, "/proc/sys/vm/dirty_background_ratio", &ratio, why,
				 sizeof(why)) == 0) {
		tune_set(it->current, "0 (dirty_background_ratio %" PRId64 "%% active)", ratio);
	} else {
		tune_set(it->current, "0 (dirty_background_ratio unknown: %s)", why);
	}
	if (bytes > 0 && bytes <= (int64_t)TUNE_DIRTY_BG_BYTES) {
		it->status = DGR_TUNE_OK;
	} else {
		it->status = DGR_TUNE_FIX;
		it->fix_runtime = true;
		tune_set(it->fix, "sysctl -w vm.dirty_background_bytes=%llu", TUNE_DIRTY_BG_BYTES);
	}
	return 0;
}
