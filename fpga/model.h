/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The emulated FPGA's workers as pure logic: no sockets, no clocks. Time is
 * passed in (ns) and samples are counted, so every behaviour is unit-tested
 * with exact values (test/unit/fpga/).
 *
 *  - producer.c: the output port (FPGA -> host, the RX path): E local buffers
 *    filled in order, credits for the H host buffers, doorbells;
 *  - consumer.c: the input port (host -> FPGA, the TX path): E local buffers
 *    filled by the host's transactions, released in order with doorbells;
 *  - adc.c, dac.c, perftest.c: the workers on those ports;
 *  - acktrack.c, txnrecord.c: the DG-RDMA ACK tracker and transaction record
 *    of the dgrdma_config worker's frame parser.
 *
 * Memory layout and data format: docs/fpga.md sections 1 and 2.
 */
#ifndef DGRDMA_FPGA_MODEL_H
#define DGRDMA_FPGA_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dgrdma/contract.h>
#include <dgrdma/wire.h>

/* Port memories: DGR_PORT_BASE_RX and _TX, DGR_PORT_FLAGS flags each (dgrdma/contract.h). */
#define FPGA_FLAG_AREA_BYTES (4u * DGR_PORT_FLAGS)

#define FPGA_DEFAULT_BUFFER_SIZE  16384u
#define FPGA_DEFAULT_HOST_BUFFERS 64u
#define FPGA_PORT_MEMORY	  65536u /* the FPGA's buffer memory per external port */
#define FPGA_MIN_BUFFERS	  2u
#define FPGA_MAX_BUFFERS	  8u
#define FPGA_MAX_LOCAL_BUFFERS	  64u /* with --fpga-memory (the mux workaround) */
#define FPGA_MAX_HOST_BUFFERS	  255u
#define FPGA_MAX_MSG_DATA	  16384u /* the HDL parser's largest message data */

/* Address of flag index i of a port memory of n buffers of size bytes at base. */
static inline uint32_t fpga_flag_addr(uint32_t base, unsigned int n, uint32_t size, unsigned int i)
{
	return base + n * size + 4u * i;
}

/* What one local buffer holds once it is complete. */
struct fpga_slot {
	uint32_t bytes; /* bytes of data (the flag word's length) */
	uint8_t opcode; /* DGR_OPCODE_* */
	bool eof;	/* last transaction of the stream */
	uint64_t first_sample;
};

/* ---- producer.c: the output port ---- */

struct fpga_producer {
	uint32_t size;	     /* S: bytes per buffer, both ends */
	unsigned int nlocal; /* E: local buffers */
	unsigned int nhost;  /* H: host buffers */
	uint8_t *mem;	     /* nlocal * size bytes: the local buffer memory */
	struct fpga_slot slot[FPGA_MAX_LOCAL_BUFFERS];
	unsigned int fill_idx; /* local buffer being filled (when filling) */
	bool filling;
	uint32_t fill_bytes;
	unsigned int send_idx;	      /* oldest complete local buffer */
	unsigned int complete;	      /* complete local buffers waiting for a host buffer */
	unsigned int host_free;	      /* credits: host buffers known to be empty */
	uint64_t txns_committed;      /* transactions handed to the wire (k of docs/fpga.md) */
	unsigned int expect_doorbell; /* host buffer index the next doorbell should name */
	/* counters */
	uint64_t doorbells;
	uint64_t doorbells_out_of_order;
	uint64_t doorbells_unexpected; /* more doorbells than buffers in flight: ignored */
};

/* Sets up a producer with its own memory. Returns 0 or -DGR_E_INVAL/-DGR_E_NOMEM. */
int fpga_producer_init(struct fpga_producer *p, uint32_t size, unsigned int nlocal,
		       unsigned int nhost, char *errbuf);
void fpga_producer_free(struct fpga_producer *p);

/* Local buffers neither filling nor complete. */
unsigned int fpga_producer_free_local(const struct fpga_producer *p);

/*
 * Starts filling the next free local buffer. Returns its data, or NULL when
 * every local buffer is busy (back pressure).
 */
uint8_t *fpga_producer_begin(struct fpga_producer *p);

/* Marks the buffer being filled (or, if none, a free one) complete. Returns 0 or -DGR_E_STATE. */
int fpga_producer_commit(struct fpga_producer *p, uint32_t bytes, uint8_t opcode, bool eof,
			 uint64_t first_sample);

/*
 * The next transaction that may go on the wire (a complete local buffer and
 * a free host buffer). Fills *t (data points into the local memory) and
 * *slot. Returns true when there is one; fpga_producer_sent() must follow.
 */
bool fpga_producer_peek(const struct fpga_producer *p, uint32_t txn_id, struct dgr_txn *t,
			const struct fpga_slot **slot, unsigned int *host_buffer);

/* The peeked transaction is on the wire: the local buffer is free at once. */
void fpga_producer_sent(struct fpga_producer *p);

/*
 * A doorbell for host buffer index: one host buffer is free again. Returns 0,
 * 1 when the index was not the one expected (counted, still frees one), or
 * -DGR_E_STATE when no host buffer was in flight (counted, ignored).
 */
int fpga_producer_doorbell(struct fpga_producer *p, unsigned int index);

/*
 * A new host: every host buffer is free and the next transaction goes into host
 * buffer 0 (the local buffers and the counters stay).
 */
void fpga_producer_restart(struct fpga_producer *p);

/* Host buffers in flight (sent, not yet released by a doorbell). */
static inline unsigned int fpga_producer_in_flight(const struct fpga_producer *p)
{
	return p->nhost - p->host_free;
}

/* ---- adc.c: data_src_qadc_csts ---- */

struct fpga_adc {
	double rate;	   /* samples/s, for timestamps */
	uint64_t start_ns; /* clock of sample 0 */
	bool report_data_loss;
	bool ready_seen; /* the output port has been ready once */
	bool dropping;
	bool stopped;
	bool eof_pending;     /* stopped, EOF not yet committed */
	uint64_t next_sample; /* k of the next sample = samples produced */
	uint64_t drop_start;  /* first sample of the open drop period */
	/* hardware properties */
	uint32_t num_dropped_samps; /* drop periods, saturating 32-bit counter */
	uint64_t dropped_samples;   /* samples of closed periods after the first ready */
	uint64_t first_drop_ns, last_drop_ns;
	uint64_t first_drop_sample, last_drop_sample;
	/* emulator counters */
	uint64_t drop_periods; /* not saturating */
	uint64_t dropped_before_ready;
	uint64_t discontinuities;   /* committed */
	uint64_t samples_committed; /* samples in buffers handed to the port */
	uint64_t dropped_open;	    /* samples of the period still open at stop (never counted) */
};

void fpga_adc_init(struct fpga_adc *a, double rate, uint64_t start_ns, bool report_data_loss);

/* Timestamp (ns) of sample k from the ADC clock. */
uint64_t fpga_adc_sample_ns(const struct fpga_adc *a, uint64_t k);

/*
 * Produces n samples into the producer: fills buffers with the ramp, drops
 * when no local buffer is free, ends drop periods (and with report_data_loss
 * spends a whole buffer on a discontinuity) when one frees. port_ready false
 * drops everything as "before ready" until the first ready.
 */
void fpga_adc_produce(struct fpga_adc *a, struct fpga_producer *p, uint64_t n, bool port_ready);

/*
 * Stops the ADC: an open drop period stays uncounted by the hardware
 * properties (they count when ready returns), the buffer being filled is
 * committed with EOF. If no local buffer is free, the EOF waits: call
 * fpga_adc_flush_eof() until it returns true.
 */
void fpga_adc_stop(struct fpga_adc *a, struct fpga_producer *p);

/*
 * A start (again): the ramp continues where it stopped, its clock now puts
 * sample 0 at start_ns, at rate samples/s.
 */
void fpga_adc_start(struct fpga_adc *a, uint64_t start_ns, double rate);
bool fpga_adc_flush_eof(struct fpga_adc *a, struct fpga_producer *p);

/* Samples dropped in the open drop period (0 when not dropping). */
uint64_t fpga_adc_open_drop(const struct fpga_adc *a);

/* ---- consumer.c: the input port ---- */

#define FPGA_MAX_BUFFER_SIZE 65536u /* input buffers are allocated at this size */

struct fpga_consumer {
	uint32_t size;	     /* the layout in use (learned from the host, see below) */
	uint32_t cfg_size;   /* --buffer-size */
	unsigned int nlocal; /* E */
	unsigned int nhost;  /* H: the host's producer buffers (its flag area) */
	uint8_t *mem;	     /* nlocal * FPGA_MAX_BUFFER_SIZE */
	struct fpga_slot slot[FPGA_MAX_LOCAL_BUFFERS];
	bool full[FPGA_MAX_LOCAL_BUFFERS];
	unsigned int cons_idx; /* next buffer to consume, in order */
	uint32_t cons_off;     /* bytes of it consumed */
	/* counters */
	uint64_t buffers_filled;
	uint64_t filled_twice;	 /* host wrote a buffer not yet released: counted, overwritten */
	uint64_t bad_flag_index; /* flag address outside the E buffers */
	uint64_t size_changes;	 /* layouts learned from the host's first transaction */
};

int fpga_consumer_init(struct fpga_consumer *c, uint32_t size, unsigned int nlocal,
		       unsigned int nhost, char *errbuf);
void fpga_consumer_free(struct fpga_consumer *c);

/* Port-relative bytes a host may write: E buffers of the largest size + flags. */
static inline uint64_t fpga_consumer_mem_size(const struct fpga_consumer *c)
{
	return (uint64_t)c->nlocal * FPGA_MAX_BUFFER_SIZE + FPGA_FLAG_AREA_BYTES;
}

/*
 * A complete host transaction (lowest data_addr, flag) wrote flag_value to
 * port-relative flag_addr. Returns the buffer index, or -DGR_E_ADDR_RANGE
 * when the flag does not name one of the E buffers. The buffer size is not
 * on the wire: when the flag does not fit the layout in use, no buffer is
 * full and the transaction is for buffer 0 (data_addr 0), the layout is
 * learned from it: size = flag_addr / E (a multiple of 16, 64..65536). This
 * is how one emulator serves dgrdma-host perf's sweep over buffer sizes.
 */
int fpga_consumer_complete(struct fpga_consumer *c, uint32_t data_addr, uint32_t flag_addr,
			   uint32_t flag_value);

/* A new connection from the host: every buffer empty, buffer 0 next, configured size. */
void fpga_consumer_reset(struct fpga_consumer *c);

/* The buffer at cons_idx, when it is full. */
static inline bool fpga_consumer_ready(const struct fpga_consumer *c)
{
	return c->full[c->cons_idx];
}

/* Samples left in the buffer at cons_idx (0 when it is not full, or holds no samples). */
uint64_t fpga_consumer_rest_samples(const struct fpga_consumer *c);

/* Releases the buffer at cons_idx; returns its index (for the doorbell). */
unsigned int fpga_consumer_release(struct fpga_consumer *c);

/* ---- dac.c: data_sink_qdac_csts ---- */

struct fpga_dac {
	bool started;  /* first data arrived: the DAC clock runs */
	bool eof_seen; /* stopped cleanly by an EOF buffer */
	bool underrunning;
	uint64_t clock_samples; /* sample slots since the first data */
	uint64_t samples_consumed;
	uint64_t buffers_consumed;
	uint64_t num_underruns; /* underrun sample slots (hardware property) */
	uint64_t samp_count_before_first_underrun;
	bool any_underrun;
	uint64_t underrun_periods;
	uint64_t trailing_underruns; /* underruns since the last data: the teardown part */
	uint32_t last_sample;	     /* value of the last sample consumed */
	uint64_t ramp_errors;	     /* samples that broke the host's ramp (if it sends one) */
	bool check_ramp;
};

void fpga_dac_init(struct fpga_dac *d, bool check_ramp);
/* A new host: the DAC waits for its first data again (an EOF seen is forgotten). */
void fpga_dac_restart(struct fpga_dac *d);

/*
 * Advances the DAC clock by n sample slots, consuming from the consumer.
 * Calls release(ctx, buffer) for each buffer it frees (the doorbell). Before
 * the first data nothing is counted.
 */
void fpga_dac_consume(struct fpga_dac *d, struct fpga_consumer *c, uint64_t n,
		      void (*release)(void *ctx, unsigned int buffer), void *ctx);

/* ---- perftest.c: perftest.hdl ---- */

#define FPGA_PERFTEST_CLOCK_HZ 125000000.0 /* the control clock tx_message_gap counts */

struct fpga_perftest {
	/* properties */
	bool tx_run;
	uint32_t tx_beats; /* 4-byte words per message */
	uint32_t tx_messages;
	uint32_t tx_message_gap; /* clock cycles between messages */
	uint64_t rx_messages;
	uint64_t rx_bytes;
	uint32_t rx_last_message_bytes;
	uint64_t tx_messages_sent; /* committed to the port */
	uint64_t tx_bytes_sent;
	uint64_t next_tx_ns; /* gap: earliest time of the next message */
	uint32_t pattern;    /* next word of the data pattern */
};

void fpga_perftest_init(struct fpga_perftest *pt);

/* Commits as many tx messages as free local buffers and the gap allow at now_ns. */
void fpga_perftest_tx(struct fpga_perftest *pt, struct fpga_producer *p, uint64_t now_ns);

/* Consumes every full input buffer at once; release(ctx, buffer) for each. */
void fpga_perftest_rx(struct fpga_perftest *pt, struct fpga_consumer *c,
		      void (*release)(void *ctx, unsigned int buffer), void *ctx);

/* True when tx_run is set and messages remain. */
bool fpga_perftest_tx_pending(const struct fpga_perftest *pt);

/* ---- acktrack.c: the ACK tracker of the dgrdma_config worker ---- */

/*
 * The HDL's dgrdma_ack_tracker, state for state (docs/fpga.md section 11):
 * base_seqno starts at 1; a frame is accepted when (frame_seq - base_seqno)
 * mod 2^16 <= width - 1 and its bit is clear, and only then processed; a
 * frame processed without error is enqueued (its bit set); an ACK is the run
 * of set bits from base_seqno, at most max_ack_count long, and sending it
 * advances base_seqno. A frame that never arrives is never skipped.
 */
#define FPGA_ACK_DEFAULT_WIDTH	   32u /* zed_ether: ack_tracker_bitfield_width */
#define FPGA_ACK_DEFAULT_MAX_COUNT 12u /* zed_ether: ack_tracker_max_ack_count */
#define FPGA_ACK_MAX_WIDTH	   64u

struct fpga_acktrack {
	uint32_t width;		/* ack_tracker_bitfield_width (1..64) */
	uint32_t max_ack_count; /* ack_tracker_max_ack_count (1..width, <= 255) */
	uint16_t base_seqno;	/* oldest frame_seq not yet acknowledged */
	uint64_t bitfield;	/* bit i: frame base_seqno + i enqueued */
	bool timer_running;	/* ack_wait counts from timer_ns */
	uint64_t timer_ns;
	/* the HDL's counters */
	uint64_t ack_tracker_total_acks_sent; /* frame_seqs acknowledged */
	uint64_t tx_acks_sent;		      /* frames sent carrying an acknowledgement */
	uint64_t pkts_enqueued;		      /* frames processed whole and recorded */
	uint64_t reject_out_of_range;
	uint64_t reject_already_set;
	uint64_t accepted_by_peek; /* frames the window accepted */
	uint64_t high_watermark;   /* largest frame_seq - base_seqno enqueued */
	/* the frame parser's debug registers, frozen at the first rejected ACK-only frame */
	uint32_t rej_ack;      /* 1 once an ACK-only frame was rejected */
	uint32_t dbg_bitfield; /* the window then, base_seqno in bit 31 (the HDL's order) */
	uint32_t dbg_base_seqno;
	uint32_t rej_seqno;
};

enum fpga_ack_verdict {
	FPGA_ACK_ACCEPT = 0,
	FPGA_ACK_DUPLICATE = 1,	   /* reject_already_set */
	FPGA_ACK_OUT_OF_RANGE = 2, /* reject_out_of_range */
};

/* Resets the tracker (base_seqno 1, counters 0) with the given window and run limit. */
void fpga_acktrack_init(struct fpga_acktrack *a, uint32_t width, uint32_t max_ack_count);

/* The parser's question for a received frame_seq. Returns an fpga_ack_verdict (counted). */
int fpga_acktrack_peek(struct fpga_acktrack *a, uint16_t seq);

/*
 * A rejected frame with no messages: the first one freezes the debug
 * registers (bitfield, base_seqno, rej_seqno) and sets rej_ack.
 */
void fpga_acktrack_reject_ack_only(struct fpga_acktrack *a, uint16_t seq);

/*
 * An accepted frame was processed whole: its bit is set. real is false for
 * an ACK-only frame, which is acknowledged with the next run but does not
 * start the ack_wait timer itself (docs/fpga.md section 11).
 */
void fpga_acktrack_enqueue(struct fpga_acktrack *a, uint16_t seq, bool real, uint64_t now_ns);

/* The run an ACK would carry now: consecutive set bits from base_seqno, at most max_ack_count. */
unsigned int fpga_acktrack_pending(const struct fpga_acktrack *a);

/*
 * Whether an urgent ACK is due: the run reached max_acks_outstanding (when
 * not 0), or ack_wait_ns (when not 0) passed since the timer started.
 */
bool fpga_acktrack_due(const struct fpga_acktrack *a, unsigned int max_acks_outstanding,
		       uint64_t ack_wait_ns, uint64_t now_ns);

/*
 * Takes the pending run for a frame being sent: sets *start (base_seqno) and
 * *count (0 when nothing is pending) and advances base_seqno past the run.
 */
void fpga_acktrack_take(struct fpga_acktrack *a, uint16_t *start, uint8_t *count, uint64_t now_ns);

/* ---- txnrecord.c: the transaction record of the frame parser ---- */

/*
 * The HDL's dgrdma_txn_record: transaction ids are expected to rise by one
 * from 1 across everything received; a message whose txn_id is not within
 * FPGA_TXN_IN_FLIGHT of the next flag to write is dropped and counted; the
 * flag of a transaction is written once all its messages arrived and every
 * earlier transaction's flag was written (in order). A message without a flag
 * (0xFFFFFFFF) still takes its place in that order.
 */
#define FPGA_TXN_IN_FLIGHT 64u

struct fpga_txn_entry {
	bool used;
	bool complete;
	uint16_t msgs_remaining;
	uint32_t flag_addr;
	uint32_t flag_value;
	uint32_t data_addr; /* lowest data_addr of its messages */
	uint16_t frame_seq; /* frame of its last message */
	bool unusable;	    /* a message of it failed the emulator's checks: no flag effect */
};

struct fpga_txnrecord {
	uint32_t next_flag_txn_id; /* the transaction whose flag is written next */
	struct fpga_txn_entry e[FPGA_TXN_IN_FLIGHT];
	unsigned int nused; /* entries recorded, complete or not */
	/* counters (the HDL's debug outputs, not connected to properties there) */
	uint64_t txn_id_out_of_range; /* messages dropped: txn_id outside the record */
	uint64_t txn_errors;	      /* messages disagreeing with their transaction's record */
	uint64_t flags_written;
	uint64_t waiting_max; /* most transactions held back behind an incomplete one */
};

void fpga_txnrecord_init(struct fpga_txnrecord *r);

/*
 * Records one message of frame frame_seq (usable: it passed the emulator's
 * checks). Returns 0, or -DGR_E_STATE when its txn_id is outside
 * the record (dropped and counted).
 */
int fpga_txnrecord_msg(struct fpga_txnrecord *r, const struct dgr_msg *m, uint16_t frame_seq,
		       bool usable);

/*
 * Takes the next flag write when its transaction is complete and every
 * earlier one was written. Returns true and fills *out, or false.
 */
bool fpga_txnrecord_next_flag(struct fpga_txnrecord *r, struct fpga_txn_entry *out);

/* Transactions recorded and waiting (complete or not) behind the next flag. */
unsigned int fpga_txnrecord_waiting(const struct fpga_txnrecord *r);

#endif
