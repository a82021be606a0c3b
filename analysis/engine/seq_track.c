// SPDX-License-Identifier: GPL-2.0-or-later
/* Frame sequence analysis of one sender (see seq_track.h). */
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "populate.h"
#include "seq_track.h"

struct eng_seq *eng_seq_new(bool with_refs)
{
	struct eng_seq *s = calloc(1, sizeof(*s));

	if (s && with_refs) {
		s->ref = calloc(65536, sizeof(*s->ref));
		if (!s->ref) {
			free(s);
			return NULL;
		}
	}
	return s;
}

void eng_seq_free(struct eng_seq *s)
{
	if (s) {
		free(s->ref);
	}
	free(s);
}

void eng_seq_populate(struct eng_seq *s)
{
	eng_populate(s->ref, 65536 * sizeof(*s->ref));
}

static void hold(struct eng_seq *s, uint16_t frame_seq, uint64_t ref)
{
	s->held[frame_seq / 64] |= 1ull << (frame_seq % 64);
	if (s->ref) {
		s->ref[frame_seq] = ref;
	}
}

static bool held(const struct eng_seq *s, uint16_t frame_seq)
{
	return s->held[frame_seq / 64] >> (frame_seq % 64) & 1;
}

void eng_seq_feed_slow(struct eng_seq *s, uint16_t frame_seq, uint64_t ref,
		       struct eng_seq_result *r)
{
	int diff, i;

	memset(r, 0, sizeof(*r));
	s->c.frames++;
	if (s->ref && s->c.frames == ENG_SEQ_POPULATE_AT) {
		eng_seq_populate(s);
	}
	if (!s->seen) {
		s->seen = 1;
		s->highest = frame_seq;
		hold(s, frame_seq, ref);
		r->status = ENG_SEQ_FIRST;
		return;
	}
	diff = dgr_seq_diff(frame_seq, s->highest);
	if (diff > 0) {
		/* forget what an earlier wrap left under the numbers passed over */
		for (i = 1; i < diff; i++) {
			uint16_t n = (uint16_t)(s->highest + i);

			s->held[n / 64] &= ~(1ull << (n % 64));
		}
		if (diff == 1) {
			r->status = ENG_SEQ_NEXT;
		} else {
			r->status = ENG_SEQ_GAP;
			r->missing = (uint32_t)(diff - 1);
			s->c.gaps++;
			s->c.missing += (uint64_t)(diff - 1);
		}
		s->highest = frame_seq;
		hold(s, frame_seq, ref);
		return;
	}
	if (held(s, frame_seq)) {
		r->status = ENG_SEQ_DUPLICATE;
		r->dup_of = s->ref ? s->ref[frame_seq] : 0;
		s->c.duplicates++;
		return;
	}
	/* a number given up as missing arrived after all */
	r->status = ENG_SEQ_LATE;
	s->c.late++;
	hold(s, frame_seq, ref);
}

uint64_t eng_seq_ref(const struct eng_seq *s, uint16_t frame_seq)
{
	return s && s->ref && held(s, frame_seq) ? s->ref[frame_seq] : 0;
}
