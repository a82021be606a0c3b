/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The stream's threads of a host without UST events (OpenCPI's own, any
 * foreign host), found from the packet capture and the kernel trace: the
 * thread that sends the doorbells is the one whose net:net_dev_xmit events
 * fall on the capture's doorbell frames (same length, nearest in time); the
 * one that receives the data copies a datagram into user space
 * (skb:skb_copy_datagram_iovec) between each data frame's arrival and its
 * doorbell. The rule is in docs/analysis.md, "Stalls of a host without UST
 * events".
 */
#ifndef DGR_ANALYSIS_WIRE_THREADS_H
#define DGR_ANALYSIS_WIRE_THREADS_H

#include <stdbool.h>
#include <stdint.h>

#include "print.h"
#include "kernel_sched.h"

#define WT_WINDOW_NS 1000000ull /* a send this near a doorbell frame (either side) may be its */
#define WT_MAX_PIDS  64		/* candidate threads counted per role */
/*
 * How much earlier than the sender's median offset says a data frame's copy may lie: the
 * capture stamps a sent frame at its tap, before net_dev_xmit, so (capture - kernel) of a
 * send is the clocks' offset less that send's tap-to-xmit time, and a received frame's copy
 * can follow its arrival by less than the median of those times (a host already awake reads
 * the last frame of a burst within a microsecond or two). The window's start moves back by
 * the sends' spread above their median plus this floor (the fastest tap-to-xmit time: well
 * under 10 us).
 */
#define WT_RX_SLACK_NS 10000ull
#define WT_LOCAL_BELLS 8 /* bells on each side whose matches give a bell its clocks' offset */

/* One on-the-wire doorbell of the capture: its data frame's arrival, its own frame. */
struct wt_bell {
	uint64_t arrival;   /* the completing data frame, capture time */
	uint64_t sent;	    /* the doorbell frame, capture time */
	uint32_t frame_len; /* the doorbell frame's length on the wire (0 unknown) */
};

struct wt_thread {
	bool found;
	int32_t pid;	    /* global (the tracepoints' common_pid) */
	int32_t tid;	    /* as the recorder's PID namespace saw it (perf_tid) */
	uint32_t dev;	    /* sender: the device its matched sends went out on */
	uint64_t matched;   /* doorbells it matched */
	uint64_t runner_up; /* doorbells the next candidate thread matched */
};

struct wire_threads {
	struct wt_bell *bells;
	size_t n, cap;
	struct wt_thread sender, receiver;
	uint64_t tx_events, rx_copy_events; /* the packet events of the kernel trace */
	/*
	 * the kernel trace's events and the capture's doorbells do not overlap in
	 * time: its clock is not the capture's (perf's CLOCK_MONOTONIC from boot,
	 * converted without dgrdma-capture's offset to the epoch)
	 */
	bool clocks_apart;
	/* median of (capture - kernel) over the sender's matched frames: the clocks' skew */
	int64_t offset_ns;
	/* per bell, the median over its neighbours' matches (wt_bell_offset); NULL: none */
	int64_t *bell_off;
	/* how far a copy may precede arrival - offset_ns (WT_RX_SLACK_NS and the spread) */
	uint64_t rx_slack_ns;
	/*
	 * per bell, the receiver's first copy at or after the arrival (else its last in the
	 * rx_slack_ns before it), kernel axis (0: none)
	 */
	uint64_t *copy_ts;
};

void wt_init(struct wire_threads *wt);
void wt_free(struct wire_threads *wt);

/* Adds a matched on-the-wire doorbell (capture times). Returns 0, or -DGR_E_NOMEM. */
int wt_add_bell(struct wire_threads *wt, uint64_t arrival, uint64_t sent, uint32_t frame_len);

/*
 * Finds the sender and the receiver among the packet events of k (whose
 * times are on the capture's axis give or take WT_WINDOW_NS), the clocks'
 * offset from the sender's matches, and each bell's copy by the receiver.
 * A thread is found when it matched more than half the doorbells. Returns 0,
 * or -DGR_E_NOMEM when memory runs out.
 */
int wt_find(struct wire_threads *wt, const struct kernel_sched *k);

/*
 * Bell i's clocks' offset (capture - kernel): the median of the sender's matches among the
 * WT_LOCAL_BELLS bells on each side (so a step of the real-time clock moves it), else the
 * run's. Valid after wt_find.
 */
int64_t wt_bell_offset(const struct wire_threads *wt, size_t i);

/* Prints "source": "wire" and "threads" (how each was found) inside stall_causes. */
void wt_print(struct dgr_pr *p, const struct wire_threads *wt, const struct kernel_sched *k);

#endif
