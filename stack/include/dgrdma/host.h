/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The reference DG-RDMA host stack: one connection to one remote endpoint,
 * with its receive thread, transmit thread, consumer (RX path) and/or
 * producer (TX path) thread and control thread. Several remote endpoints: one
 * connection (and one transport) each.
 *
 * Memory layout and data format follow docs/fpga.md: a port memory of N
 * buffers of S bytes at offset base + i * S, then 256 flags at
 * base + N * S + 4 * i. The RX path (data FPGA -> host) uses base 0, the TX
 * path (host -> FPGA) base 0x40000000 (DGR_PORT_BASE_*, dgrdma/contract.h), on both ends.
 *
 * Errors: negative DGR_E_* codes with a DGR_ERRBUF_SIZE errbuf; the library
 * never exits. docs/stack.md describes the threads and the hand-offs.
 */
#ifndef DGRDMA_HOST_H
#define DGRDMA_HOST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <dgrdma/contract.h>
#include <dgrdma/dcp.h>
#include <dgrdma/ramp.h>
#include <dgrdma/stats.h>
#include <dgrdma/transport.h>
#include <dgrdma/wire.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DGR_MAX_BUFFERS		  255u
#define DGR_MAX_BUFFER_SIZE	  (2u * 1024 * 1024)
#define DGR_DEFAULT_BUFFERS	  64u
#define DGR_DEFAULT_BUFFER_SIZE	  16384u /* docs/fpga.md: the same default on both ends */
#define DGR_DEFAULT_PEER_BUFFERS  4u
#define DGR_DEFAULT_RETRANSMIT_MS 500u
#define DGR_DEFAULT_INCOMPLETE_MS 1000u

/* Which way the data flows on this connection. */
enum dgr_direction {
	DGR_DIR_RX = 0, /* FPGA -> host: the host consumes and sends doorbells */
	DGR_DIR_TX = 1, /* host -> FPGA: the host produces, doorbells return credits */
	/*
	 * Both paths at once on one connection (the FPGA's perftest): the RX
	 * path's memory at base 0 and the TX path's at 0x40000000, each of
	 * buffers x buffer_size, one consumer and one producer thread; the two
	 * paths share the frames (doorbells and data coalesce), the sequence
	 * numbers and the ACKs, as on one link to one FPGA.
	 */
	DGR_DIR_BOTH = 2,
};

/* How buffer-release doorbells travel (RX path). */
enum dgr_doorbell_mode {
	DGR_DOORBELL_FLAG = 0, /* DG-RDMA flag-only transaction (OpenCPI's host driver) */
	DGR_DOORBELL_DCP = 1,  /* DCP write of the buffer index to a property address */
};

/* Scheduling of one thread; what the OS refuses is an error, never ignored. */
struct dgr_sched {
	int policy;	 /* SCHED_OTHER (default), SCHED_FIFO or SCHED_RR */
	int priority;	 /* 1..99 with FIFO/RR */
	int nice;	 /* -20..19 with SCHED_OTHER */
	bool set_nice;	 /* nice was given */
	uint64_t cpuset; /* CPUs 0..63 as a bit mask; 0 = inherit */
};

/*
 * Thread indexes of dgr_conn_opts.sched and the stats. DGR_T_WORKER is the
 * consumer (RX) or the producer (TX); DGR_T_WORKER2 is the producer of a
 * DGR_DIR_BOTH connection and is not used otherwise.
 */
enum { DGR_T_RX, DGR_T_TX, DGR_T_WORKER, DGR_T_CONTROL, DGR_T_WORKER2, DGR_T_COUNT };

struct dgr_conn;

/* What is at the other end of a connection (dgr_conn_opts.peer_kind). */
enum dgr_peer_kind { DGR_PEER_FPGA, DGR_PEER_HOST };

#define DGR_DEFAULT_PEER_WINDOW 32u    /* the zed_ether FPGA's ack_tracker_bitfield_width */
#define DGR_MAX_PEER_WINDOW	32768u /* half the sequence space */

struct dgr_conn_opts {
	struct dgr_transport_opts transport;
	enum dgr_direction direction;
	uint16_t conn_index; /* the tracepoints' conn field */
	uint16_t id; /* our id: src_id (offset 2) of our frames, dst_id of the peer's; default 0 */
	uint16_t
	    peer_id; /* the FPGA's id: dst_id (offset 0) of our frames, src_id of its; default 1 */
	unsigned int buffers;	       /* H: host buffers, 1..255 */
	uint32_t buffer_size;	       /* S: bytes per buffer, 64..2 MiB, multiple of 16 */
	unsigned int peer_buffers;     /* E: the FPGA's buffers, 1..64 */
	unsigned int coalesce_wait_us; /* hold a partly filled frame this long (0: never) */
	bool acks;		       /* acknowledge the peer's frames */
	/*
	 * What the peer is. Toward an FPGA (the default) no ACK-only frame is
	 * ever sent: OpenCPI's frame parser reads an ACK-only frame's padding
	 * as more frames and, near the 16-bit frame_seq wrap, drops the real
	 * frame 0 as a duplicate (docs/protocol.md); ACKs then ride only on
	 * frames with messages. A host peer (DGR_PEER_HOST) also gets ACK-only
	 * frames, which its retransmission needs when no data flows back.
	 */
	enum dgr_peer_kind peer_kind;
	unsigned int retransmit_ms;	  /* resend unacknowledged frames after this; 0 = off */
	unsigned int retransmit_attempts; /* resends before giving up, default 5 */
	/*
	 * The peer's ACK window (the FPGA's ack_tracker_bitfield_width, 32 on
	 * zed_ether): no frame is sent that many or more frames after the oldest
	 * one the peer has not acknowledged, since the FPGA would reject it.
	 * 0: no limit (a peer that does not acknowledge). Default 32.
	 */
	unsigned int peer_window;
	unsigned int incomplete_ms; /* drop incomplete transactions older than this */
	enum dgr_doorbell_mode doorbell_mode;
	uint32_t doorbell_dcp_addr; /* DCP address written with the buffer index */
	bool strict_lengths;	    /* enforce the FPGA's fragment length rules on input */
	bool busy_wait;		    /* threads spin instead of sleeping between events */
	/*
	 * RX: without coalescing, the consumer sends its doorbell itself when
	 * the transmit thread is idle, instead of waking it (default on).
	 */
	bool inline_doorbells;
	/*
	 * RX, with inline doorbells: while the buffer after the one released is
	 * already full (the consumer is behind) and its work on that buffer took
	 * less than doorbell_hold_us, the consumer holds its doorbells back and
	 * sends them together, in one frame, when it catches up, holds
	 * doorbell_batch of them or the first is doorbell_hold_us old (as a NIC's
	 * rx-frames and rx-usecs). doorbell_batch 1 sends each alone. Defaults
	 * 16 (at most 255) and 50 us (1..1000000).
	 */
	unsigned int doorbell_batch;
	unsigned int doorbell_hold_us;
	/*
	 * When a receive returned a batch (two frames or more) and the next
	 * finds nothing, the receive thread sleeps this long on a timer (plus
	 * its timer slack) before it waits on the socket again, so the sender's
	 * kernel does not wake it for every burst: NIC interrupt moderation.
	 * Trades up to that much receive latency at high rates for CPU time.
	 * 0 (default) = off, at most 1000.
	 */
	unsigned int rx_holdoff_us;
	struct dgr_sched sched[DGR_T_COUNT];
	unsigned int latency_samples; /* in-host doorbell latencies kept, default 4 Mi */
	bool set_port_base;	      /* use port_base instead of the direction's default */
	uint32_t port_base;	      /* port memory base on the wire (e.g. host-to-host tests) */
	uint32_t rx_drop_ppm;	      /* fault injection: drop received frames, per million */
	uint64_t rx_drop_seed;	      /* seed of that choice */
	bool check_ramp; /* RX: check the sample ramp of opcode-0 buffers (default on) */
	/*
	 * RX: a buffer with EOF does not end the stream (several streams back
	 * to back on one connection, e.g. dgrdma-host perf); default off.
	 */
	bool eof_continues;
	uint64_t
	    stats_interval_ns; /* call on_stats this often from the control thread; 0 = never */
	void (*on_stats)(void *ctx, struct dgr_conn *c);
	void *stats_ctx;
};

/* Fills defaults: RX direction, 64 x 16 KiB, 4 peer buffers, ids 0/1, flag doorbells. */
void dgr_conn_opts_init(struct dgr_conn_opts *o);

/*
 * A buffer handed to the consumer (RX) or to be filled by the producer (TX).
 * The consumer callback returns 0 to go on, or a negative code to stop the run.
 */
struct dgr_buffer_view {
	uint16_t buffer; /* index in the pool */
	uint32_t txn_id;
	uint8_t *data;
	uint32_t len; /* bytes of data: min(flag word length, buffer size) */
	uint32_t flag_value;
	uint8_t opcode;
	bool eof;
	bool truncated;
};

typedef int (*dgr_consume_fn)(void *ctx, const struct dgr_buffer_view *b);

/*
 * Producer callback (TX path): fill b->data (buffer size bytes) and set
 * b->len, b->opcode and b->eof. Returns 1 to send the buffer, 0 when the
 * stream has ended (nothing to send), or a negative code to stop.
 */
typedef int (*dgr_produce_fn)(void *ctx, struct dgr_buffer_view *b);

struct dgr_conn;

/*
 * Validates the options and opens the transport and the pool. Nothing runs
 * yet. Returns 0 with *out set, or a negative code (bad option: -DGR_E_INVAL
 * naming it; -DGR_E_PERM; -DGR_E_SYS; -DGR_E_NOMEM).
 */
int dgr_conn_open(const struct dgr_conn_opts *o, struct dgr_conn **out, char *errbuf);

/*
 * Starts the threads; the consumer (RX) or producer (TX) callback runs in the
 * worker thread (DGR_DIR_BOTH: the consumer in DGR_T_WORKER, the producer in
 * DGR_T_WORKER2, concurrently, with the same ctx). Scheduling requests are
 * applied by each thread to itself before it starts work; a refusal stops
 * the connection and is returned here (-DGR_E_PERM or -DGR_E_SYS with the OS
 * error and the fix). The TX path needs produce; consume may be NULL.
 */
int dgr_conn_start(struct dgr_conn *c, dgr_consume_fn consume, dgr_produce_fn produce, void *ctx,
		   char *errbuf);

/*
 * Waits until the stream ends (EOF consumed, unless eof_continues, and/or the
 * producer's last buffer sent and credited: both on a DGR_DIR_BOTH
 * connection), a worker callback stops it, or timeout_ms passes (-1: no
 * limit). Returns 1 when the stream ended, 0 on timeout, or the negative code
 * that stopped it.
 */
int dgr_conn_wait(struct dgr_conn *c, int timeout_ms);

/*
 * Control plane on the connection: sends the DCP request req (kind, low,
 * uncached, addr, data; the tag is chosen here) to the peer through the
 * connection's transport (the transmit thread sends it, between data frames)
 * and waits for the response with its tag, resending after timeout_ms, at
 * most retries more times. For one caller thread at a time, while the
 * connection runs (between dgr_conn_start() and dgr_conn_stop()). Returns 0
 * with *resp (whatever its response code: the caller judges it),
 * -DGR_E_TIMEOUT or -DGR_E_STATE (not running, or stopped meanwhile) with
 * errbuf.
 */
int dgr_conn_dcp(struct dgr_conn *c, const struct dcp_packet *req, struct dcp_packet *resp,
		 unsigned int timeout_ms, unsigned int retries, char *errbuf);

/* Asks every thread to stop and joins them. Safe to call more than once. */
void dgr_conn_stop(struct dgr_conn *c);

/* Stops if needed and frees everything (NULL accepted). */
void dgr_conn_close(struct dgr_conn *c);

/* Copies the counters (any thread, any time). */
void dgr_conn_get_stats(struct dgr_conn *c, struct dgr_conn_stats *s);

/* Copies the per-thread counters and CPU times of thread t (DGR_T_*). */
void dgr_conn_get_thread_stats(struct dgr_conn *c, int t, struct dgr_thread_stats *s);

/* The scheduling a thread actually runs with (read back by the thread). */
struct dgr_sched_info {
	bool started;
	int tid;
	int policy;
	int priority;
	int nice;
	uint64_t cpuset;
};
void dgr_conn_get_sched(struct dgr_conn *c, int t, struct dgr_sched_info *si);

/* Distribution of one latency series, ns (percentiles by nearest rank). */
struct dgr_latency_dist {
	uint64_t count;	 /* doorbells measured */
	uint64_t stored; /* of which kept for percentiles (the first latency_samples) */
	uint64_t min, p50, p90, p99, p999, max;
	double mean;
};

/* Summary of the in-host doorbell latency (transaction complete -> doorbell sent), ns. */
struct dgr_latency_summary {
	/* from the transaction's completion in the receive thread to the doorbell sent */
	struct dgr_latency_dist from_complete;
	/* breakdown of its mean: complete -> consumer takes the buffer -> releases it -> sent */
	double mean_wait_consumer;
	double mean_consumer_work;
	double mean_wait_send;
	/*
	 * From the kernel's receive timestamp of the frame that completed the
	 * transaction to the doorbell sent: the above plus the time the frame
	 * waited for the receive thread (scheduling, wake-up), the mean of which
	 * is mean_wait_receive. Doorbells whose frame had no timestamp count
	 * from the completion.
	 */
	struct dgr_latency_dist from_arrival;
	double mean_wait_receive;
};

/* Computes the latency summary (nearest rank); call after dgr_conn_stop(). */
void dgr_conn_latency(struct dgr_conn *c, struct dgr_latency_summary *l);

/*
 * The latency summary of n connections together (after dgr_conn_stop() of
 * each): percentiles by nearest rank over the union of their stored
 * latencies, min and max over all, means weighted by the counts. Returns 0,
 * or -DGR_E_NOMEM (l then holds everything but the percentiles).
 */
int dgr_conn_latency_merged(struct dgr_conn *const *c, unsigned int n,
			    struct dgr_latency_summary *l);

/*
 * The largest doorbell latency from the completion and from the kernel's
 * arrival (ns) since the previous call (or the start), and starts a new
 * window: for periodic output while the connection runs. 0 when no doorbell
 * went out in the window.
 */
void dgr_conn_latency_window(struct dgr_conn *c, uint64_t *max_ns, uint64_t *max_from_arrival_ns);

/*
 * The span of the received stream (RX path, after dgr_conn_stop()): when the
 * first and the last transaction completed (dgr_now_ns() clock), both 0 when
 * none did. Its rate, unlike one over the whole run, leaves out the wait for
 * the stream to start and the idle time after it ended.
 */
void dgr_conn_stream_span(struct dgr_conn *c, uint64_t *first_ns, uint64_t *last_ns);

/*
 * Calls cb for every transaction still incomplete (after dgr_conn_stop()).
 * Returns how many.
 */
unsigned int dgr_conn_foreach_incomplete(struct dgr_conn *c,
					 void (*cb)(void *ctx, uint32_t txn_id, uint32_t bytes,
						    uint16_t msgs_seen, uint16_t num_msgs),
					 void *ctx);

/* The ramp checker's state (RX; read after dgr_conn_stop()). */
const struct dgr_ramp *dgr_conn_ramp(const struct dgr_conn *c);

/*
 * The endpoint ids (dst_id at offset 0, src_id at offset 2) of the last frame
 * dropped because they were not (--id, --peer-id). Returns false when no frame
 * was dropped for its ids.
 */
bool dgr_conn_wrong_ids(struct dgr_conn *c, uint16_t *dst_id, uint16_t *src_id);

/*
 * A warning about the configuration found at start (e.g. the control thread
 * shares CPUs with raised-priority data threads), or NULL.
 */
const char *dgr_conn_warning(const struct dgr_conn *c);

/*
 * The frame numbering of a connection at one moment (dgr_conn_seq_state()):
 * what a stream stalled on ACKs and retransmission is made of. Our frames:
 * the send window and the retransmission queue; the peer's: what we received
 * and what we have acknowledged (ACKs never skip a hole, docs/protocol.md).
 */
struct dgr_seq_state {
	uint16_t send_next;	      /* frame_seq of our next frame */
	uint16_t send_oldest;	      /* our oldest frame the peer has not acknowledged */
	uint32_t send_unacked;	      /* send_next - send_oldest */
	uint32_t peer_window;	      /* the peer's ACK window we keep to (0: off) */
	bool window_blocked;	      /* the transmit thread waits for that window */
	bool peer_acked;	      /* an ACK came from the peer */
	uint16_t peer_ack_end;	      /* it acknowledged every frame before this one */
	uint32_t rtq_slots;	      /* frames the retransmission queue can hold */
	uint32_t rtq_outstanding;     /* kept, neither acknowledged nor given up */
	uint16_t rtq_oldest_seq;      /* the oldest of them (rtq_outstanding > 0) */
	uint32_t rtq_oldest_attempts; /* how often it was sent again */
	uint64_t rtq_oldest_age_ns;   /* since it was last sent */
	bool rx_started;	      /* a frame of the peer's was accepted */
	uint16_t rx_highest;	      /* the highest frame_seq of the peer's accepted */
	bool ack_started;	      /* we have frames of the peer's to acknowledge */
	uint16_t ack_base;	      /* the peer's oldest frame we have not acknowledged */
	uint32_t ack_pending;	      /* frames from ack_base acknowledgeable now */
	uint32_t ack_waiting;	      /* frames received past a hole at ack_base, waiting */
	bool conflict;		      /* a frame_seq came twice with other contents */
	uint16_t conflict_seq;	      /* the last such frame_seq */
	bool flagless;		      /* RX path: a write without a flag came */
	uint16_t flagless_seq;	      /* the frame_seq of the last one */
};

/*
 * Fills st with the connection's frame numbering now (while it runs) or as the
 * transmit thread left it (after dgr_conn_stop()); zeros before it started.
 */
void dgr_conn_seq_state(struct dgr_conn *c, struct dgr_seq_state *st);

/*
 * The source of the last packet dropped because it did not come from the
 * peer (frames_foreign; read after dgr_conn_stop()). Returns false when none was.
 */
bool dgr_conn_last_foreign(const struct dgr_conn *c, struct dgr_addr *src);

/* Frames the fault injection (rx_drop_ppm) dropped so far. */
uint64_t dgr_conn_injected_drops(const struct dgr_conn *c);

/* The transport (MTU, addresses). */
struct dgr_transport *dgr_conn_transport(struct dgr_conn *c);

/* Name of a thread index: "rx", "tx", "consumer"/"producer", "control". */
const char *dgr_conn_thread_name(const struct dgr_conn *c, int t);

/* True when the connection runs thread t (DGR_T_WORKER2 only with DGR_DIR_BOTH). */
bool dgr_conn_thread_used(const struct dgr_conn *c, int t);

/*
 * Applies sc to the calling thread. Returns 0, or -DGR_E_PERM / -DGR_E_SYS
 * with errbuf holding the OS error and the fix (e.g. CAP_SYS_NICE).
 */
int dgr_sched_apply_self(const struct dgr_sched *sc, const char *who, char *errbuf);

/* Reads the calling thread's scheduling back. */
void dgr_sched_read_self(struct dgr_sched_info *si);

#ifdef __cplusplus
}
#endif

#endif
