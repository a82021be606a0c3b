/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Frame sequence analysis of one sender, one rule for latency-report and the
 * Wireshark plugin. Every frame a sender sends takes the next frame_seq,
 * ACK-only frames included, from 1, wrapping through 0 (docs/protocol.md,
 * section 2), so every frame with a readable header is fed.
 *
 * Serial comparison (RFC 1982) against the highest frame_seq seen: the next
 * number is normal; a jump is a gap (the numbers skipped are missing); a
 * lower or equal number is a duplicate when a frame of the last half of the
 * number space carried it, else late (a retransmission or reordering).
 */
#ifndef DGR_ENGINE_SEQ_TRACK_H
#define DGR_ENGINE_SEQ_TRACK_H

#include <stdbool.h>
#include <stdint.h>

enum eng_seq_status {
	ENG_SEQ_FIRST = 1, /* first frame of this sender */
	ENG_SEQ_NEXT,
	ENG_SEQ_GAP,
	ENG_SEQ_DUPLICATE,
	ENG_SEQ_LATE,
};

struct eng_seq_result {
	enum eng_seq_status status;
	uint32_t missing; /* ENG_SEQ_GAP: frame_seqs skipped */
	uint64_t dup_of;  /* ENG_SEQ_DUPLICATE: ref of the frame that carried it first */
};

struct eng_seq_counts {
	uint64_t frames, gaps, missing, duplicates, late;
};

struct eng_seq {
	int seen;
	uint16_t highest;
	struct eng_seq_counts c;
	/*
	 * Per frame_seq, one bit: carried by a frame in the last half-window.
	 * 8 KiB, which stays in the cache: a table of refs written at every
	 * frame (512 KiB, all of it every 65536 frames) does not.
	 */
	uint64_t held[65536 / 64];
	/* per frame_seq held: the ref of the frame carrying it; NULL when not kept */
	uint64_t *ref;
};

/*
 * Allocates a tracker; with_refs: it keeps each frame_seq's ref too (512 KiB
 * more), for eng_seq_ref() and eng_seq_result.dup_of, which are 0 without.
 * Returns NULL when memory runs out.
 */
struct eng_seq *eng_seq_new(bool with_refs);
void eng_seq_free(struct eng_seq *s);

/*
 * A sender of this many frames writes most of its table of refs (one page
 * per 512 frame_seqs): it is mapped in at once (populate.h) rather than page
 * by page.
 */
#define ENG_SEQ_POPULATE_AT 4096u

/* Maps in the pages of s's table of refs (eng_populate()). */
void eng_seq_populate(struct eng_seq *s);

/* eng_seq_feed() for every case but the next number in order. */
void eng_seq_feed_slow(struct eng_seq *s, uint16_t frame_seq, uint64_t ref,
		       struct eng_seq_result *r);

/* Feeds one frame's frame_seq; ref (not 0) is the caller's frame reference. */
static inline void eng_seq_feed(struct eng_seq *s, uint16_t frame_seq, uint64_t ref,
				struct eng_seq_result *r)
{
	/* the common case, inline: the next number of a sender already seen */
	if (s->seen && frame_seq == (uint16_t)(s->highest + 1)) {
		s->c.frames++;
		s->highest = frame_seq;
		s->held[frame_seq / 64] |= 1ull << (frame_seq % 64);
		if (s->ref) {
			if (s->c.frames == ENG_SEQ_POPULATE_AT) {
				eng_seq_populate(s);
			}
			s->ref[frame_seq] = ref;
		}
		r->status = ENG_SEQ_NEXT;
		r->missing = 0;
		r->dup_of = 0;
		return;
	}
	eng_seq_feed_slow(s, frame_seq, ref, r);
}

/* The ref of the frame that carried frame_seq recently (for ACK coverage), or 0. */
uint64_t eng_seq_ref(const struct eng_seq *s, uint16_t frame_seq);

#endif
