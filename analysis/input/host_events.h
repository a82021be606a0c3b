/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * In-host analysis of the stack's and the emulator's LTTng events (schema in
 * docs/tracepoints.md), independent of how they are read (ctf_input.c reads
 * them with libbabeltrace2; the unit tests feed synthetic sequences).
 *
 * In-host doorbell latency: dgrdma:txn_complete -> dgrdma:doorbell_sent for
 * the same (conn, buffer, txn_id), in parts: complete -> acquire (waiting
 * for the consumer), acquire -> buffer_release (the consumer's work),
 * release -> doorbell_sent (waiting for the sender thread); the acquire is
 * buffer_release's time minus its held_ns, or in traces before that field
 * the buffer_acquire event. Without the txn_complete (dgrdma-capture's
 * default since 5 December), the completion is doorbell_sent's time minus its
 * since_complete_ns, the arrival that minus latency_ns. TX path:
 * dgrdma:txn_sent -> dgrdma:doorbell_rx for the same (conn, buffer), the
 * credit round trip. Also: threads' scheduling settings, counter snapshots
 * turned into drop rates, socket drops, malformed frames, retransmits, and
 * the doorbell with the largest latency_ns of doorbell_sent (the stack's own
 * measure, from the completing frame's arrival; traces before that field
 * have none).
 */
#ifndef DGR_ANALYSIS_HOST_EVENTS_H
#define DGR_ANALYSIS_HOST_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "stats.h"

#define HE_MAX_FIELDS	    64
#define HA_MAX_THREADS	    64
#define HA_MAX_COUNTER_SRCS 64
#define HA_TABLE_SIZE	    16384 /* outstanding transactions tracked (power of 2) */

struct he_field {
	const char *name;
	uint64_t value; /* two's complement for signed fields */
};

/* One event: "provider:name", its time (ns on the run's axis) and integer fields. */
struct host_event {
	const char *name;
	uint64_t ts;
	unsigned int nfields;
	struct he_field f[HE_MAX_FIELDS];
};

/* The field of a reading of the trace's clock, put on the events' time axis by the reader. */
#define HE_ARRIVAL_FIELD "arrival_ns"

/* Returns true and sets *v when the event has the field. */
bool he_get(const struct host_event *ev, const char *name, uint64_t *v);

struct ha_thread {
	bool fpga;
	uint8_t role;
	uint16_t conn;
	uint32_t vpid; /* its process (LTTng vpid context), 0 when absent */
	int32_t tid, policy, priority, nice;
	uint64_t cpuset;
};

/* A transaction waiting for its doorbell, keyed by process, connection, buffer, id. */
struct ha_key {
	uint32_t vpid; /* from LTTng's vpid context; 0 when absent */
	uint32_t txn_id;
	uint16_t conn;
	uint16_t buffer;
	uint8_t tx;   /* TX path (txn_sent -> doorbell_rx): keyed without txn_id */
	uint8_t used; /* 0: empty slot */
};

struct ha_pending {
	struct ha_key key;
	uint64_t t_complete, t_acquire, t_release;
	uint64_t wait_receive; /* txn_complete's wait_receive_ns */
	bool has_wait_receive; /* the event had that field (older traces do not) */
	uint64_t arrival;      /* txn_complete's arrival_ns on the time axis; 0 unknown */
	int32_t tid_complete, tid_acquire; /* the events' vtid context; 0 unknown */
};

/* One matched in-host doorbell (RX path), as on_doorbell gets it. */
struct ha_doorbell {
	uint64_t ts; /* txn_complete */
	uint64_t latency;
	unsigned int conn, buffer;
	uint64_t wait, work, send; /* parts; 0 when the acquire/release events are missing */
	bool has_wait_receive;
	uint64_t wait_receive; /* kernel arrival of the completing frame -> txn_complete */
	/* the threads (vtid context; 0 unknown) that read the frame, took the buffer, sent the bell
	 */
	int32_t tid_complete, tid_acquire, tid_sent;
};

/*
 * The doorbell_sent with the largest latency_ns field (the stack's in-host
 * latency from the completing frame's kernel arrival; docs/tracepoints.md),
 * whether its txn_complete is in the trace or not (a flight recorder's
 * snapshot may begin after it).
 */
struct ha_worst_bell {
	bool seen; /* a doorbell_sent carried latency_ns */
	uint64_t latency_ns;
	uint64_t ts; /* the doorbell_sent event's time */
	uint32_t vpid, txn_id;
	uint16_t conn, buffer, frame_seq;
	bool completion_in_trace; /* matched with its txn_complete */
};

/*
 * The stretch of a run in which a cumulative byte counter moved: from its last
 * reading before it first moved (t0, b0) to the reading of its last move (t1, b1).
 */
struct ha_rate_span {
	bool read, moved;
	uint64_t t0, b0, t1, b1;
};

/* Last counter snapshot of one source (host connection or emulator). */
struct ha_counter_src {
	bool fpga;
	uint16_t conn;
	uint32_t vpid; /* the process (LTTng vpid context), 0 when absent */
	bool seen;
	uint64_t delivered, lost; /* cumulative */
	uint64_t last_ts;
	struct ha_rate_span data[2]; /* the host's data_bytes_rx, data_bytes_tx */
	/*
	 * host: the snapshot's txns_completed, doorbells_sent, discontinuities
	 * (has_answers: it had them), and the first such snapshot's discontinuities
	 */
	bool has_answers, answers_first_read;
	uint64_t completed, bells, discontinuities, discontinuities_first;
};

struct ha_counts {
	uint64_t events, txn_complete, doorbell_queued, doorbell_sent, acquires, releases;
	uint64_t matched, unmatched, orphans, table_overflow, parts_missing, discontinuities;
	uint64_t txn_sent, doorbell_rx, tx_matched, tx_orphans;
	uint64_t frames_rx, frames_tx, retransmits, malformed, socket_drops;
	uint64_t fpga_txn_sent, fpga_doorbell_rx, fpga_discontinuities, fpga_underruns;
	uint64_t fpga_drop_periods, fpga_dropped_samples;
	uint64_t counter_snapshots;
	uint64_t bells_with_latency; /* doorbell_sent events that carried latency_ns */
	/* of txn_complete: completions taken from doorbell_sent's since_complete_ns */
	uint64_t completions_derived;
	uint64_t unknown_events;
	uint64_t other_pids;  /* left out: not of the processes in only_pids */
	uint64_t chosen_pids; /* kept: of the processes in only_pids (their provider's) */
};

#define HA_MAX_PIDS 16

/*
 * The stream's facts as the trace records them (dgrdma:stream_config,
 * dgrdma_fpga:stream_config; docs/tracepoints.md): the first connection's of
 * the host, the first emulator's. 0: not in the trace.
 */
struct ha_facts {
	bool host;		/* a dgrdma:stream_config was read */
	uint64_t host_buffers;	/* H */
	uint64_t buffer_size;	/* S */
	uint64_t peer_buffers;	/* E as the host was told */
	bool fpga;		/* a dgrdma_fpga:stream_config was read */
	uint64_t fpga_buffers;	/* E, the emulator's own */
	uint64_t fpga_rate_sps; /* its sample rate */
	uint64_t fpga_buffer_size;
	uint64_t fpga_host_buffers; /* H as the emulator was told */
};

struct host_analysis {
	struct ha_pending *tab; /* RX: (vpid, conn, buffer, txn_id); TX: (vpid, conn, buffer) */
	struct series lat, wait, work, send; /* t = txn_complete time */
	struct series recv, lat_arrival;     /* the same, from txn_complete's wait_receive_ns */
	/*
	 * complete -> the send call that carried the doorbell began (doorbell_sent
	 * minus its send_call_ns; older traces lack it: = lat); one per sample of
	 * lat, in the same order
	 */
	struct series lat_handed;
	/*
	 * the receive call's return -> the doorbell's send call (the stack's or the
	 * preload library's clock reading after the call that read the completing
	 * frame, arrival_ns + wait_receive_ns): the one interval whose both ends a
	 * traced host and an untraced one under the library read at the same place;
	 * only doorbells whose txn_complete had both fields
	 */
	struct series lat_read_handed;
	/*
	 * the completing frame's kernel arrival (txn_complete's arrival_ns) as the
	 * value, absolute; one per sample of lat, in the same order, when every
	 * doorbell had it (older traces do not)
	 */
	struct series arrival;
	struct series lat_txn;	 /* the transaction's id, one per sample of lat */
	struct series tx_credit; /* t = txn_sent time */
	struct ha_worst_bell worst_bell;
	struct ha_counts c;
	struct ha_facts facts;
	struct ha_thread threads[HA_MAX_THREADS];
	unsigned int n_threads;
	struct ha_counter_src srcs[HA_MAX_COUNTER_SRCS];
	unsigned int n_srcs;
	uint64_t first_ts, last_ts;
	/*
	 * bytes of stream files past their index (ctf_check_dir): packets a session
	 * sent without their index entries, read by libbabeltrace2 all the same
	 */
	uint64_t trace_unindexed_bytes;
	int64_t time_offset_ns; /* added to event times by the reader (--trace-offset-ns) */
	/*
	 * where the trace's clock puts its reading 0 (ns from origin, before
	 * time_offset_ns): a CLOCK_MONOTONIC time t of another trace (the
	 * kernel's) is at t + clock_origin_ns + time_offset_ns on this axis
	 */
	int64_t clock_origin_ns;
	bool clock_origin_known;
	/* when n_only_pids > 0: only events whose vpid context is one of these count */
	uint32_t only_pids[HA_MAX_PIDS];
	unsigned int n_only_pids;
	/*
	 * when not NULL: only_pids applies to the events whose name starts with
	 * this provider prefix ("dgrdma:"); the others count from every process
	 */
	const char *only_pids_provider;
	/*
	 * The processes whose transactions count (vpid of txn_complete and
	 * txn_sent): more than one means hosts mixed in one analysis, since
	 * per-user buffers record every process of the user. Up to HA_MAX_PIDS;
	 * host_pids_more says there were more.
	 */
	uint32_t host_pids[HA_MAX_PIDS];
	unsigned int n_host_pids;
	bool host_pids_more;
	uint64_t *origin; /* when not NULL and 0: set to the first event's time */
	/* per matched in-host doorbell: ts = complete; parts may be 0 if missing */
	void (*on_doorbell)(void *ctx, const struct ha_doorbell *d);
	/* per counter snapshot: cumulative delivered and lost samples */
	void (*on_drops)(void *ctx, uint64_t ts, const char *source, unsigned int conn,
			 uint32_t vpid, uint64_t delivered, uint64_t lost);
	void *ctx;
};

/* Returns 0, or -DGR_E_NOMEM when memory runs out. */
int ha_init(struct host_analysis *h);
void ha_free(struct host_analysis *h);
/* Feeds one event (events must come in time order). */
void ha_event(struct host_analysis *h, const struct host_event *ev);
/* Transactions completed but never answered (at the end of the trace). */
uint64_t ha_pending_count(const struct host_analysis *h);
/*
 * Whether the trace recorded no txn_complete but doorbell_sent gave the
 * completions: transactions never answered are not in it. Then *pending and
 * *discontinuities are the host connections' last counter snapshots'
 * (txns_completed - doorbells_sent, discontinuities: since the connection
 * started, or with window, a flight recorder's incident, since the window's
 * first snapshot), and true; false when the trace holds txn_complete events or
 * no such snapshot.
 */
bool ha_unanswered_from_counters(const struct host_analysis *h, bool window, uint64_t *pending,
				 uint64_t *discontinuities);

/*
 * The host's data rate in bytes/s (dir 0: received, 1: sent) from its counters
 * snapshots, over the stretch in which each connection's data bytes moved
 * (struct ha_rate_span), summed over connections: the stream's rate to within
 * one snapshot interval (100 ms) of the stream's start. 0 when no connection's
 * bytes moved between two readings.
 */
uint64_t ha_data_rate(const struct host_analysis *h, int dir);

/* Names for thread settings: "rx", "tx", ...; "SCHED_OTHER", "SCHED_FIFO", ... */
const char *ha_role_name(uint8_t role);
const char *ha_policy_name(int32_t policy);

#endif
