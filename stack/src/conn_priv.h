/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Private state of a connection, shared by its threads:
 *   rx.c      receive thread: decode, duplicate filter, reassembly, copy, flag write
 *   worker.c  consumer (RX path) and/or producer (TX path)
 *   tx.c      transmit thread: doorbells and data into frames, ACKs, retransmission
 *   conn.c    set-up, control thread, counters, shutdown
 * Hand-offs are SPSC rings plus the flags in the port memory (store-release).
 */
#ifndef DGR_CONN_PRIV_H
#define DGR_CONN_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <dgrdma/host.h>
#include <dgrdma/ramp.h>
#include <dgrdma/reassembly.h>

#include "acktrack.h"
#include "ring.h"

/* tracepoints/dgrdma-tp.h: DGR_TP() compiles to nothing with -DDGR_NO_TRACE */
#include "dgrdma-tp.h"

/* One latency series: count, sum, min, max of all; the first cap values kept. */
struct dgr_lat_series {
	uint64_t *v;
	uint64_t cap;
	uint64_t count;
	uint64_t sum;
	uint64_t min;
	uint64_t max;
};

/* What the receive thread records about a completed transaction. */
struct dgr_buf_meta {
	uint32_t txn_id;
	uint32_t flag_value;
	uint32_t bytes;
	uint16_t frame_seq;
	uint64_t t_arrival; /* the kernel received the completing frame */
	uint64_t t_complete;
};

/* Consumer -> tx: a released buffer whose doorbell must go out. */
struct dgr_doorbell_req {
	uint16_t buffer;
	uint32_t txn_id; /* the data transaction it answers */
	uint64_t t_arrival;
	uint64_t t_complete;
	uint64_t t_acquire; /* the consumer took the buffer */
	uint64_t t_release; /* the consumer gave it back */
};

/* Producer -> tx: a filled local buffer to send into remote buffer remote. */
struct dgr_txn_req {
	uint16_t local;
	uint16_t remote;
	uint32_t len;
	uint32_t flag_value;
};

/* Caller -> tx: an encoded DCP request of dgr_conn_dcp(). */
struct dgr_dcp_out {
	uint8_t buf[16];
	uint8_t len;
};

/* DCP tags: the stack's own doorbell writes use 0x00..0x7F, dgr_conn_dcp() 0x80..0xFF. */
#define DGR_DCP_TAG_CALLER 0x80u
/* dcp_want holds this bit when a response is awaited (the tag in the low byte). */
#define DGR_DCP_WANT 0x100u

/* Rx -> tx: a peer frame to acknowledge (real: it had messages; not an ACK-only frame). */
enum { DGR_ACKEV_TO_ACK = 1, DGR_ACKEV_TO_ACK_REAL = 2 };
struct dgr_ack_ev {
	uint8_t kind;
	uint8_t count;
	uint16_t start;
};

/*
 * One port memory (docs/fpga.md section 2): nbuf buffers of size bytes, then
 * DGR_PORT_FLAGS flags. The RX path's holds the FPGA's data and its full
 * flags; the TX path's holds the producer's buffers and the credit flags.
 */
struct dgr_port {
	enum dgr_direction path; /* DGR_DIR_RX or DGR_DIR_TX */
	uint32_t base;		 /* address on the wire */
	uint8_t *mem;		 /* nbuf * size + flag area */
	size_t mem_size;
	uint32_t *flags; /* DGR_PORT_FLAGS flags after the buffers */
};

struct dgr_conn {
	struct dgr_conn_opts o;
	struct dgr_transport *t;
	struct dgr_port port[2]; /* the RX path's and/or the TX path's */
	unsigned int nports;
	struct dgr_port *rxp; /* RX path (consumer), NULL on a TX connection */
	struct dgr_port *txp; /* TX path (producer), NULL on an RX connection */
	unsigned int nbuf;    /* local buffers (H) per port */
	uint32_t size;	      /* S */
	struct dgr_buf_meta *meta;
	struct dgr_reasm *reasm;
	struct dgr_ramp ramp;
	const char *warning;
	char warnbuf[DGR_ERRBUF_SIZE];

	struct dgr_spsc doorbells;  /* consumer -> tx */
	struct dgr_spsc txns;	    /* producer -> tx */
	struct dgr_spsc acks;	    /* rx -> tx */
	struct dgr_spsc dcp_out;    /* dgr_conn_dcp() -> tx: requests to send */
	struct dgr_event ev_worker; /* both workers wait on it (a DGR_DIR_BOTH connection) */
	struct dgr_event ev_tx;
	struct dgr_event ev_done;
	/*
	 * The transmit state (tx.c), owned by whoever holds tx_lock: the
	 * transmit thread for each pass, or the consumer sending its doorbell
	 * inline (dgr_tx_inline). NULL before the transmit thread starts and
	 * after it ends.
	 */
	pthread_mutex_t tx_lock;
	struct tx_state *txs;
	struct dgr_seq_state seq_last; /* under tx_lock: as the transmit thread ended */
	uint32_t rx_highest;	       /* atomic: 0x10000 | the peer's highest frame_seq taken */
	struct dgr_addr last_foreign;  /* rx thread: the last packet's source not the peer's */
	uint32_t conflict_seq; /* atomic: 0x10000 | the last frame_seq that came twice, unlike */
	uint32_t flagless_seq; /* atomic: 0x10000 | the last frame with a write without flag */

	/* progress (single writer each) */
	uint64_t completed;   /* rx path: transactions completed (rx thread) */
	uint64_t consumed;    /* rx path: buffers released (consumer) */
	uint64_t credits;     /* tx path: doorbells received (rx thread) */
	uint64_t local_freed; /* tx path: local buffers sent and reusable (tx thread) */
	uint64_t produced;    /* tx path: transactions handed to tx (producer) */
	/* rx path: when the first and the latest transaction completed (rx thread; 0: none) */
	uint64_t t_first_complete, t_last_complete;

	uint64_t injected_drops; /* rx thread: frames dropped by rx_drop_ppm */
	/*
	 * The peer's ACKs, cumulative (rx thread writes, tx thread reads): the
	 * end (start + count) of the latest run, with bit 16 set once one came.
	 */
	uint32_t peer_ack_end;
	bool tx_window_blocked; /* atomic: the tx thread waits for the peer's ACK window */
	/* the ids of the last frame dropped for its ids (rx thread; for the diagnosis) */
	uint32_t wrong_ids; /* atomic: dst_id << 16 | src_id */
	struct dgr_conn_stats st;
	struct dgr_thread_stats ts[DGR_T_COUNT];
	struct dgr_sched_info si[DGR_T_COUNT];
	pthread_t th[DGR_T_COUNT];
	bool th_started[DGR_T_COUNT];
	int sched_reported; /* threads that applied their scheduling (atomic) */
	int sched_error;    /* first refusal (atomic), text in errbuf */

	int stop;	 /* atomic: threads leave their loops */
	int ended;	 /* atomic: the stream ended (every path: EOF consumed, all credited) */
	int paths_ended; /* atomic: bit 1 << DGR_DIR_RX / DGR_DIR_TX per path that ended */
	int result;	 /* atomic: first error of a thread */
	char errbuf[DGR_ERRBUF_SIZE];
	pthread_mutex_t err_lock; /* error text only (slow path) */

	/* dgr_conn_dcp(): the awaited response (rx thread -> the caller) */
	uint32_t dcp_want; /* atomic: DGR_DCP_WANT | tag, 0 when nothing is awaited */
	int dcp_have;	   /* atomic: dcp_resp holds the awaited response */
	struct dcp_packet dcp_resp;
	struct dgr_event ev_dcp;
	uint8_t dcp_next_tag; /* the caller's */

	dgr_consume_fn consume;
	dgr_produce_fn produce;
	void *ctx;

	/* in-host doorbell latency (tx thread writes, read after stop) */
	struct dgr_lat_series lat;	   /* from the completion */
	struct dgr_lat_series lat_arrival; /* from the kernel's arrival of the frame */
	uint64_t lat_wait_receive_sum;	   /* arrival -> complete */
	uint64_t lat_window_max;	   /* atomic: largest since dgr_conn_latency_window() */
	uint64_t lat_window_max_arrival;   /* the same from arrival */
	uint64_t lat_wait_consumer_sum;	   /* complete -> acquire */
	uint64_t lat_consumer_work_sum;	   /* acquire -> release */
	uint64_t lat_wait_send_sum;	   /* release -> handed to the socket */
};

/* State of the receive path (owned by the receive thread). */
struct dgr_rx_ctx {
	struct dgr_conn *c;
	struct dgr_dupfilter dup;
	uint64_t sig[DGR_SEQ_WINDOW]; /* the headers' signature of each frame_seq taken */
	bool notify_worker;
	bool notify_tx;
};

/* Hands a received DCP packet to a waiting dgr_conn_dcp() when it answers it (rx thread,
 * dcp_call.c). */
void dgr_rx_dcp(struct dgr_conn *c, const uint8_t *buf, size_t len);

/*
 * Processes one received DG-RDMA frame: decode, duplicate filter,
 * reassembly, copy, flag write, counters. Used by the receive thread and by
 * the fuzz harness (test/integration/stack/fuzz/).
 */
void dgr_rx_frame(struct dgr_rx_ctx *x, const uint8_t *buf, size_t len, uint64_t now,
		  uint64_t arrival);

/*
 * Consumer side, after queueing a doorbell: sends the queued transmit work
 * from the calling thread if the transmit state is free (no wake-up of the
 * transmit thread). Returns true when nothing is left for the transmit
 * thread (or the connection failed), false when it must be notified.
 */
bool dgr_tx_inline(struct dgr_conn *c);

/* The transmit state's part of st (tx.c; with tx_lock held and c->txs set). */
void dgr_tx_seq_state(const struct tx_state *s, struct dgr_seq_state *st);

/* Whether the consumer sends doorbells itself (dgr_tx_inline) on this connection. */
static inline bool dgr_inline_doorbells(const struct dgr_conn *c)
{
	/* on a connection that also sends data the pass could fragment the producer's frames */
	return c->o.inline_doorbells && !c->o.coalesce_wait_us && !c->o.busy_wait && !c->txp;
}

void *dgr_rx_thread(void *arg);
void *dgr_tx_thread(void *arg);
void *dgr_worker_thread(void *arg);
void *dgr_worker2_thread(void *arg); /* the producer of a DGR_DIR_BOTH connection */

/* thread.c: what every thread of a connection shares. */

/* Applies and reports a thread's scheduling; returns false when it was refused. */
bool dgr_thread_begin(struct dgr_conn *c, int t);

/* Records the first error and stops every thread. */
void dgr_conn_fail(struct dgr_conn *c, int code, const char *msg);

/* True once the connection is asked to stop. */
static inline bool dgr_conn_stopping(struct dgr_conn *c)
{
	return __atomic_load_n(&c->stop, __ATOMIC_ACQUIRE) != 0;
}

/* Marks a path (DGR_DIR_RX or DGR_DIR_TX) ended; the stream ends with its last path. */
void dgr_conn_mark_ended(struct dgr_conn *c, enum dgr_direction path);

/* Stores the calling thread's CPU time so far (user and system) in ts. */
void dgr_thread_cpu(struct dgr_thread_stats *ts);

/* Counts a malformed frame or message by reason (positive DGR_E_* code). */
void dgr_count_malformed(struct dgr_conn *c, int reason, uint32_t bytes);

#endif
