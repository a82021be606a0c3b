/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sample ramp checker and generator (ramp.h). */
#include <string.h>

#include <dgrdma/wire.h>

#include <dgrdma/ramp.h>

/* Resets the checker. */
void dgr_ramp_init(struct dgr_ramp *r)
{
	memset(r, 0, sizeof(*r));
}

static void on_jump(struct dgr_ramp *r, uint32_t v, uint64_t at)
{
	int32_t d = (int32_t)(v - r->next);

	if (d > 0) {
		if (r->gaps < DGR_RAMP_GAPS_KEPT) {
			r->gap[r->gaps].at_sample = at;
			r->gap[r->gaps].expected = r->next;
			r->gap[r->gaps].got = v;
		}
		r->gaps++;
		r->lost += (uint32_t)d;
	} else {
		r->backwards++;
	}
}

/* Checks the samples of one buffer. */
void dgr_ramp_check(struct dgr_ramp *r, const uint8_t *data, uint32_t len)
{
	uint32_t n = len / DGR_SAMPLE_BYTES;
	uint32_t next;
	uint32_t i = 0;

	if (n == 0) {
		return;
	}
	if (!r->started) {
		r->started = true;
		r->first = dgr_get_le32(data);
		r->next = r->first;
	}
	next = r->next;
	while (i < n) {
		/* fast path: runs of matching samples, no branches taken */
		uint32_t v;

		while (i < n && dgr_get_le32(data + 4 * (size_t)i) == next) {
			next++;
			i++;
		}
		if (i == n) {
			break;
		}
		v = dgr_get_le32(data + 4 * (size_t)i);
		r->next = next;
		on_jump(r, v, r->samples + i);
		next = v + 1;
		i++;
	}
	r->next = next;
	r->samples += n;
}

/* Returns the value after the last one written. */
uint32_t dgr_ramp_fill(uint8_t *data, uint32_t len, uint32_t first)
{
	uint32_t n = len / DGR_SAMPLE_BYTES;

	for (uint32_t i = 0; i < n; i++) {
		dgr_put_le32(data + 4 * (size_t)i, first + i);
	}
	return first + n;
}
