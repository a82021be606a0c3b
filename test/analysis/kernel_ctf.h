/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A writer of small kernel traces in CTF 1.8, in the form perf's converter
 * (`perf data convert --to-ctf`) or LTTng's kernel tracer (lttng-modules
 * 2.13, with the tid, pid, procname and vtid contexts) writes them, for the
 * tests of the kernel trace's reader (analysis/input/kernel_input.c):
 * docs/tracepoints.md, "Reading LTTng's kernel trace".
 */
#ifndef DGR_TEST_KERNEL_CTF_H
#define DGR_TEST_KERNEL_CTF_H

#include <stdbool.h>
#include <stdint.h>

enum kctf_flavour {
	KCTF_PERF,
	KCTF_LTTNG,
};

enum kctf_kind {
	KCTF_SWITCH,
	KCTF_WAKEUP,
	KCTF_WAKING,
	KCTF_WAKEUP_NEW,
	KCTF_MIGRATE,
	KCTF_EXEC,
	KCTF_IRQ_ENTRY,
	KCTF_IRQ_EXIT,
	KCTF_SOFTIRQ_ENTRY,
	KCTF_SOFTIRQ_EXIT,
	KCTF_BLOCK_ISSUE,
	KCTF_BLOCK_COMPLETE,
	KCTF_WRITEBACK_START,
	KCTF_WRITEBACK_WRITTEN,
	KCTF_NAPI_POLL,
	KCTF_NET_XMIT,
	KCTF_SKB_COPY,
	KCTF_KINDS,
};

/*
 * A task as the kernel knows it: global tid, its tid in its own PID namespace
 * (0 outside one: perf's perf_tid is then 0, LTTng's vtid its tid), comm.
 */
struct kctf_task {
	int32_t tid, vtid, pid;
	const char *comm;
	int prio; /* the kernel's priority (0..139, lower is more urgent) */
};

/*
 * One event: when, on which CPU, in which task's context, and its payload's
 * values (what each kind takes: kernel_ctf.c, fields_of).
 */
struct kctf_event {
	uint64_t ts; /* ns of CLOCK_MONOTONIC (the clock's cycles) */
	enum kctf_kind kind;
	unsigned int cpu;
	const struct kctf_task *cur;  /* the task the event fired in */
	const struct kctf_task *task; /* switch: prev; wake-up, migrate, exec: the task */
	const struct kctf_task *next; /* switch: next */
	int64_t arg;		      /* switch: prev_state; wake-up: target CPU; migrate: dest
					 CPU; irq: number; softirq: vector; block: write (1) or
					 read (0); net: length */
	const char *text;	      /* irq: handler; exec: file; xmit, napi: device */
};

struct kctf_opts {
	enum kctf_flavour flavour;
	/* the env's tracer_name: NULL for the flavour's own, "" for an env without one */
	const char *tracer_name;
	uint64_t clock_offset_ns; /* the clock class's offset from the origin (the epoch) */
	bool ints_as_text;	  /* hostile: every integer of the payloads written as text */
};

/*
 * Writes events (in time order) as one trace into the existing folder dir:
 * `metadata` and one stream file per CPU, one packet each. Returns 0, or -1
 * with errno set.
 */
int kctf_write(const char *dir, const struct kctf_opts *o, const struct kctf_event *ev, size_t n);

#endif
