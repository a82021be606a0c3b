// SPDX-License-Identifier: GPL-2.0-or-later
/* The vicious cycle finding (see vicious.h). */
#include <dgrdma/proto.h>

#include "vicious.h"

void vicious_txn(struct vicious *v, uint64_t ts, uint64_t bytes, unsigned int opcode)
{
	bool disc = opcode == DGR_OPCODE_DISCONTINUITY;

	if (v->txns_before + v->txns_after == 0) {
		v->first_ts = ts;
	}
	v->last_ts = ts;
	if (disc && !v->first_drop_ts) {
		v->first_drop_ts = ts;
	}
	if (!v->first_drop_ts) {
		v->txns_before++;
		v->bytes_before += opcode == DGR_OPCODE_SAMPLES ? bytes : 0;
		return;
	}
	v->txns_after++;
	if (disc) {
		v->discontinuities++;
		if (++v->run > v->longest_run) {
			v->longest_run = v->run;
		}
	} else {
		v->run = 0;
		v->bytes_after += opcode == DGR_OPCODE_SAMPLES ? bytes : 0;
	}
}

void vicious_finish(struct vicious *v, uint64_t tolerable_ns)
{
	double before_s, after_s;

	v->found = false;
	v->tolerable_ns = tolerable_ns;
	if (!v->first_drop_ts) {
		v->tolerable_after_ns = tolerable_ns;
		return;
	}
	v->share = (double)v->discontinuities / (double)v->txns_after;
	before_s = (double)(v->first_drop_ts - v->first_ts) / 1e9;
	after_s = (double)(v->last_ts - v->first_drop_ts) / 1e9;
	v->rate_before = before_s > 0 ? (double)v->bytes_before / before_s : 0;
	v->rate_after = after_s > 0 ? (double)v->bytes_after / after_s : 0;
	v->tolerable_after_ns = (uint64_t)((double)tolerable_ns * (1.0 - v->share));
	v->found = v->discontinuities >= VICIOUS_MIN_DISCONTINUITIES &&
		   100.0 * v->share >= VICIOUS_MIN_SHARE_PCT;
}
