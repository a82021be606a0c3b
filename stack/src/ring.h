/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Single-producer single-consumer ring and a futex-backed event: the only
 * hand-offs between the stack's threads (no locks, no allocation per item).
 */
#ifndef DGR_RING_H
#define DGR_RING_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct dgr_spsc {
	uint8_t *slots;
	uint32_t elem;		    /* bytes per element */
	uint32_t mask;		    /* capacity - 1, capacity a power of two */
	_Alignas(64) uint64_t head; /* next to pop, written by the consumer */
	_Alignas(64) uint64_t tail; /* next to push, written by the producer */
};

/* Allocates a ring of at least cap elements of elem bytes. Returns 0 or -DGR_E_NOMEM. */
int dgr_spsc_init(struct dgr_spsc *r, uint32_t cap, uint32_t elem);
void dgr_spsc_free(struct dgr_spsc *r);

/* Producer side: copies *e in; false when full. */
static inline bool dgr_spsc_push(struct dgr_spsc *r, const void *e)
{
	uint64_t t = r->tail;
	uint64_t h = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);

	if (t - h > r->mask) {
		return false;
	}
	memcpy(r->slots + (size_t)(t & r->mask) * r->elem, e, r->elem);
	__atomic_store_n(&r->tail, t + 1, __ATOMIC_RELEASE);
	return true;
}

/* Consumer side: copies the oldest element out; false when empty. */
static inline bool dgr_spsc_pop(struct dgr_spsc *r, void *e)
{
	uint64_t h = r->head;
	uint64_t t = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);

	if (h == t) {
		return false;
	}
	memcpy(e, r->slots + (size_t)(h & r->mask) * r->elem, r->elem);
	__atomic_store_n(&r->head, h + 1, __ATOMIC_RELEASE);
	return true;
}

/* Consumer side: pointer to the oldest element without removing it, or NULL. */
static inline void *dgr_spsc_peek(struct dgr_spsc *r)
{
	uint64_t h = r->head;
	uint64_t t = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);

	return h == t ? NULL : r->slots + (size_t)(h & r->mask) * r->elem;
}

/* Consumer side: drops the element dgr_spsc_peek() returned. */
static inline void dgr_spsc_drop(struct dgr_spsc *r)
{
	__atomic_store_n(&r->head, r->head + 1, __ATOMIC_RELEASE);
}

/* Elements in the ring (either side; approximate from the other). */
static inline uint64_t dgr_spsc_count(const struct dgr_spsc *r)
{
	return __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) -
	       __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
}

/*
 * Event: a sleeper waits until notified or a timeout; a notifier only makes a
 * system call when someone sleeps.
 */
struct dgr_event {
	_Alignas(64) uint32_t seq;
	uint32_t sleepers;
};

/* Wakes the sleepers, if any. */
void dgr_event_notify(struct dgr_event *ev);

/* The value to pass to dgr_event_wait(): read it before checking for work. */
static inline uint32_t dgr_event_prepare(struct dgr_event *ev)
{
	__atomic_add_fetch(&ev->sleepers, 1, __ATOMIC_SEQ_CST);
	return __atomic_load_n(&ev->seq, __ATOMIC_SEQ_CST);
}

/*
 * Sleeps until notified after prepare (returns at once if that happened
 * already) or timeout_ns passes (0: no limit); always ends the prepare.
 */
void dgr_event_wait(struct dgr_event *ev, uint32_t seen, uint64_t timeout_ns);

/* Ends a prepare without sleeping (work was found). */
static inline void dgr_event_cancel(struct dgr_event *ev)
{
	__atomic_sub_fetch(&ev->sleepers, 1, __ATOMIC_SEQ_CST);
}

/* Relaxed counter update by the counter's single writer, readable from any thread. */
#define DGR_ADD(field, n) __atomic_store_n(&(field), (field) + (n), __ATOMIC_RELAXED)
#define DGR_GET(field)	  __atomic_load_n(&(field), __ATOMIC_RELAXED)

/* CLOCK_MONOTONIC in ns. */
uint64_t dgr_now_ns(void);

#endif
