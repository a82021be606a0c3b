/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Private state of a connection, shared by its threads:
 *   rx.c      receive thread: decode, duplicate filter, reassembly, copy, flag write
 *   worker.c  consumer (RX path) or producer (TX path)
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

/* What the receive thread records about a completed transaction. */
struct dgr_buf_meta {
	uint32_t txn_id;
	uint32_t flag_value;
	uint32_t bytes;
	uint16_t frame_seq;
	uint64_t t_complete;
};

/* Consumer -> tx: a released buffer whose doorbell must go out. */
struct dgr_doorbell_req {
	uint16_t buffer;
	uint32_t txn_id; /* the data transaction it answers */
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

/* Rx -> tx: ACK bookkeeping. */
enum { DGR_ACKEV_PEER_ACKED = 0, DGR_ACKEV_TO_ACK = 1 };
struct dgr_ack_ev {
	uint8_t kind;
	uint8_t count;
	uint16_t start;
};

struct dgr_conn {
	struct dgr_conn_opts o;
	struct dgr_transport *t;
	uint32_t base; /* port memory base address on the wire */
	uint8_t *mem;  /* nbuf * size + flag area */
	size_t mem_size;
	uint32_t *flags;   /* DGR_PORT_FLAGS flags after the buffers */
	unsigned int nbuf; /* local buffers (H) */
	uint32_t size;	   /* S */
	struct dgr_buf_meta *meta;
	struct dgr_reasm *reasm;
	struct dgr_ramp ramp;
	const char *warning;
	char warnbuf[DGR_ERRBUF_SIZE];

	struct dgr_spsc doorbells; /* consumer -> tx */
	struct dgr_spsc txns;	   /* producer -> tx */
	struct dgr_spsc acks;	   /* rx -> tx */
	struct dgr_event ev_worker;
	struct dgr_event ev_tx;
	struct dgr_event ev_done;

	/* progress (single writer each) */
	uint64_t completed;   /* rx path: transactions completed (rx thread) */
	uint64_t consumed;    /* rx path: buffers released (consumer) */
	uint64_t credits;     /* tx path: doorbells received (rx thread) */
	uint64_t local_freed; /* tx path: local buffers sent and reusable (tx thread) */
	uint64_t produced;    /* tx path: transactions handed to tx (producer) */

	uint64_t injected_drops; /* rx thread: frames dropped by rx_drop_ppm */
	struct dgr_conn_stats st;
	struct dgr_thread_stats ts[DGR_T_COUNT];
	struct dgr_sched_info si[DGR_T_COUNT];
	pthread_t th[DGR_T_COUNT];
	bool th_started[DGR_T_COUNT];
	int sched_reported; /* threads that applied their scheduling (atomic) */
	int sched_error;    /* first refusal (atomic), text in errbuf */

	int stop;   /* atomic: threads leave their loops */
	int ended;  /* atomic: the stream ended (EOF) */
	int result; /* atomic: first error of a thread */
	char errbuf[DGR_ERRBUF_SIZE];
	pthread_mutex_t err_lock; /* error text only (slow path) */

	dgr_consume_fn consume;
	dgr_produce_fn produce;
	void *ctx;

	/* in-host doorbell latency (tx thread writes, read after stop) */
	uint64_t *lat;
	uint64_t lat_cap;
	uint64_t lat_count;
	uint64_t lat_sum;
	uint64_t lat_min;
	uint64_t lat_max;
	uint64_t lat_wait_consumer_sum; /* complete -> acquire */
	uint64_t lat_consumer_work_sum; /* acquire -> release */
	uint64_t lat_wait_send_sum;	/* release -> handed to the socket */
};

/* State of the receive path (owned by the receive thread). */
struct dgr_rx_ctx {
	struct dgr_conn *c;
	struct dgr_dupfilter dup;
	bool notify_worker;
	bool notify_tx;
};

/*
 * Processes one received DG-RDMA frame: decode, duplicate filter,
 * reassembly, copy, flag write, counters. Used by the receive thread and by
 * the fuzz harness (test/integration/stack/fuzz/).
 */
void dgr_rx_frame(struct dgr_rx_ctx *x, const uint8_t *buf, size_t len, uint64_t now);

void *dgr_rx_thread(void *arg);
void *dgr_tx_thread(void *arg);
void *dgr_worker_thread(void *arg);

/* Applies and reports a thread's scheduling; returns false when it was refused. */
bool dgr_thread_begin(struct dgr_conn *c, int t);

/* Records the first error and stops every thread. */
void dgr_conn_fail(struct dgr_conn *c, int code, const char *msg);

/* True once the connection is asked to stop. */
static inline bool dgr_conn_stopping(struct dgr_conn *c)
{
	return __atomic_load_n(&c->stop, __ATOMIC_ACQUIRE) != 0;
}

/* Marks the stream ended and wakes dgr_conn_wait(). */
void dgr_conn_mark_ended(struct dgr_conn *c);

/* Adds CPU time of the calling thread to ts. */
void dgr_thread_cpu(struct dgr_thread_stats *ts);

/* Counts a malformed frame or message by reason (positive DGR_E_* code). */
void dgr_count_malformed(struct dgr_conn *c, int reason, uint32_t bytes);

#endif
