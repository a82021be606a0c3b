/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counters of one DG-RDMA connection, as the host stack keeps them and the
 * `dgrdma:counters` tracepoint records them.
 *
 * The field list is an X-macro so that every consumer (the struct, the JSON
 * and text printers, the tracepoint) walks the same names in the same order:
 *
 *   #define X(name) printf("%s=%" PRIu64 "\n", #name, s->name);
 *   DGR_CONN_STATS_FIELDS(X)
 *   #undef X
 *
 * Stable: fields are only ever appended, never renamed or reordered.
 * All counters are uint64_t and count since the connection was opened, except
 * the two gauges marked "gauge".
 */
#ifndef DGRDMA_STATS_H
#define DGRDMA_STATS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* clang-format off */
#define DGR_CONN_STATS_FIELDS(X)                                                              \
	X(frames_rx)                 /* DG-RDMA frames received (after the transport) */     \
	X(frames_tx)                 /* DG-RDMA frames handed to the socket, retransmits too */ \
	X(bytes_rx)                  /* frame bytes received (frame header included) */      \
	X(bytes_tx)                  /* frame bytes sent */                                  \
	X(msgs_rx)                   /* messages decoded and accepted */                     \
	X(msgs_tx)                   /* messages sent */                                     \
	X(data_bytes_rx)             /* payload bytes written into the buffer pool */        \
	X(data_bytes_tx)             /* payload bytes sent */                                \
	X(txns_completed)            /* data transactions completed (flag written) */        \
	X(txns_sent)                 /* data transactions sent (TX path) */                  \
	X(doorbells_sent)            /* buffer-release doorbells sent to the peer */         \
	X(doorbells_received)        /* doorbells (flag-only transactions) received */       \
	X(acks_sent)                 /* frames sent that acknowledge peer frames */          \
	X(acks_received)             /* frames received with ack_count > 0 */                \
	X(duplicate_frames)          /* frames dropped by the duplicate filter */            \
	X(duplicate_msgs)            /* fragments the reassembler had already seen */        \
	X(malformed_frames)          /* frames or messages dropped as malformed, all reasons */ \
	X(malformed_trunc_frame_hdr) /* shorter than a frame header */                       \
	X(malformed_trunc_msg_hdr)   /* message header cut by the end of the frame */        \
	X(malformed_msg_past_end)    /* message data past the end of the frame */            \
	X(malformed_padding)         /* non-zero alignment padding */                        \
	X(malformed_msg_type)        /* unknown message type */                              \
	X(malformed_frame_flags)     /* frame flags byte not 0 or 1 */                       \
	X(malformed_align)           /* address or fragment length misaligned */             \
	X(malformed_num_msgs)        /* num_msgs_in_txn / msg_seq inconsistent */            \
	X(malformed_flag_word)       /* flag value without its valid bit */                  \
	X(malformed_udp_pad)         /* UDP payload with an unknown 2-byte pad */            \
	X(malformed_unknown_id)      /* frame for another endpoint id */                     \
	X(out_of_range)              /* data or flag address outside the buffer pool */      \
	X(reasm_overflow)            /* fragment dropped: too many incomplete transactions */ \
	X(incomplete_timed_out)      /* transactions expired before completing */            \
	X(retransmits)               /* frames sent again after the retransmit timeout */    \
	X(retransmit_giveups)        /* frames abandoned after the last retransmit attempt */ \
	X(socket_drops)              /* kernel drops (PACKET_STATISTICS / SO_RXQ_OVFL) */    \
	X(buffers_in_use)            /* gauge: pool buffers filled and not yet released */    \
	X(occupancy_hwm)             /* high-water mark of buffers_in_use */                 \
	X(unexpected_flags)          /* flag writes to an address that is no buffer's flag */ \
	X(credit_stalls)             /* TX path: times the producer waited for a credit */   \
	X(buffers_consumed)          /* buffers released by the consumer */                  \
	X(samples_received)          /* 4-byte samples checked by the ramp check */          \
	X(samples_lost)              /* samples missing according to the ramp */             \
	X(discontinuities)           /* discontinuity messages (opcode 4) received */        \
	X(ramp_gaps)                 /* places where the ramp jumped (runs of lost samples) */ \
	X(eof_received)              /* buffers with the EOF bit set */                      \
	X(tx_ring_full)              /* gauge-like: times the doorbell/TX ring was full */ \
	X(doorbells_inline)          /* of doorbells_sent, sent by the consumer itself */ \
	X(doorbells_held)            /* held back by a consumer behind, to leave in a group */ \
	X(rx_holdoffs)               /* --rx-holdoff-us sleeps of the receive thread */      \
	X(frames_tx_gathered)        /* frames sent from their pieces, data not copied (zero-copy) */ \
	X(frames_accepted)         /* frames taken whole (ids, checks, duplicate filter passed) */ \
	X(frames_missing)          /* gauge: peer frame_seqs skipped and never arrived */ \
	X(frames_out_of_window)    /* frame_seq far ahead of the stream: dropped, not taken */ \
	X(frames_foreign)          /* packets from another address than --peer, dropped */ \
	X(malformed_dcp)           /* DCP packets that did not decode */ \
	X(dcp_unexpected)          /* DCP packets decoded but answering nothing awaited */ \
	X(frames_unacked)          /* gauge: our frames the peer has not acknowledged */ \
	X(send_window_waits)       /* times a frame waited for the peer's ACK window */ \
	X(frames_conflicting)      /* a frame_seq taken again with other contents: taken too */ \
	X(writes_without_flag)     /* RX path: data written by a message without a flag */
/* clang-format on */

struct dgr_conn_stats {
#define DGR_STATS_X_MEMBER(name) uint64_t name;
	DGR_CONN_STATS_FIELDS(DGR_STATS_X_MEMBER)
#undef DGR_STATS_X_MEMBER
};

/* Number of fields of struct dgr_conn_stats. */
enum {
#define DGR_STATS_X_COUNT(name) DGR_STATS_IDX_##name,
	DGR_CONN_STATS_FIELDS(DGR_STATS_X_COUNT)
#undef DGR_STATS_X_COUNT
	    DGR_CONN_STATS_NFIELDS
};

/* Field names in declaration order; DGR_CONN_STATS_NFIELDS entries. */
extern const char *const dgr_conn_stats_names[DGR_CONN_STATS_NFIELDS];

/*
 * The one nearest-rank percentile of the project: the value of rank ceil(p * n)
 * (1-based, computed in integers) of sorted[0..n), p = per_mille / 1000 in
 * 1..1000; n > 0. The stack's summary, latency-report and the dissector's tap
 * use it. Returns that value.
 */
uint64_t dgr_percentile_nearest_rank(const uint64_t *sorted, size_t n, unsigned int per_mille);

/*
 * The largest tolerable latency, 10^18 ns (31.7 years): a larger product is
 * taken as this, so sums with capture times and signed margins cannot overflow.
 */
#define DGR_TOLERABLE_MAX_NS 1000000000000000000ull

/*
 * The one tolerable-latency formula of the project, (N_c + N_p) x S / R
 * (docs/protocol.md): host_buffers + fpga_buffers buffers of buffer_size
 * bytes at rate_bytes_s bytes per second (a double: the host measures it).
 * dgrdma-host's summary and latency-report use it. Returns the latency in ns,
 * in [1, DGR_TOLERABLE_MAX_NS], or 0 when host_buffers, buffer_size or the
 * rate is 0 (or the rate is not a finite positive number).
 */
uint64_t dgr_tolerable_latency_ns(uint64_t host_buffers, uint64_t fpga_buffers,
				  uint64_t buffer_size, double rate_bytes_s);

/* Roles of the stack's threads (the thread_start tracepoint's role field). */
enum dgr_thread_role {
	DGR_ROLE_RX = 0,
	DGR_ROLE_TX = 1,
	DGR_ROLE_CONSUMER = 2,
	DGR_ROLE_CONTROL = 3,
	DGR_ROLE_PRODUCER = 4,
};

/* Name of a role: "rx", "tx", "consumer", "control", "producer"; never NULL. */
const char *dgr_thread_role_name(enum dgr_thread_role role);

/*
 * Per-thread counters: what one thread did and what it cost. cpu_ns comes
 * from getrusage(RUSAGE_THREAD) user + system time.
 */
struct dgr_thread_stats {
	uint64_t loops;	     /* iterations of the thread's main loop */
	uint64_t items;	     /* frames (rx, tx) or buffers (consumer, producer) handled */
	uint64_t bytes;	     /* bytes handled */
	uint64_t syscalls;   /* batched system calls made on the data path */
	uint64_t idle_waits; /* times the thread blocked or backed off for lack of work */
	uint64_t cpu_user_ns;
	uint64_t cpu_sys_ns;
};

#ifdef __cplusplus
}
#endif

#endif
