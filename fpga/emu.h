/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The emulator process: configuration, the workers of model.h, the DG-RDMA
 * send and receive paths, the DCP server and the property space.
 *
 *   main.c       command line, start-up print, exit summary
 *   loop.c       the event loop: clock, workers' steps, send path, stop and drain
 *   worker.c     the workers' life cycle (control operations), their steps to the
 *                clock (frozen while the emulator did not run), the endpoint's restart
 *                for a new host
 *   pacing.c     real and virtual clocks, pacing error statistics
 *   txpath.c     frames out: pre-allocated frames, coalescing, ACK
 *                piggy-backing, fault injection, sendmmsg batches
 *   rxpath.c     frames in: ACK tracker, validation, transaction record
 *   dcp_server.c DCP requests: discovery, admin space, properties (control ops: worker.c)
 *   props.c      the property map (docs/fpga.md section 4) and its dump (stack/cli/print.h)
 */
#ifndef DGRDMA_FPGA_EMU_H
#define DGRDMA_FPGA_EMU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <dgrdma/dcp.h>
#include <dgrdma/reassembly.h>
#include <dgrdma/transport.h>
#include <dgrdma/wire.h>

#include "model.h"

enum fpga_mode {
	FPGA_MODE_ADC = 0,
	FPGA_MODE_DAC = 1,
	FPGA_MODE_PERFTEST = 2,
};

/* Control states of a worker (OpenCPI's life cycle). */
enum fpga_wstate {
	FPGA_WS_EXISTS = 0,
	FPGA_WS_INITIALIZED = 1,
	FPGA_WS_OPERATING = 2,
	FPGA_WS_SUSPENDED = 3,
	FPGA_WS_RELEASED = 4,
};

struct fpga_config {
	enum fpga_mode mode;
	double rate;	   /* samples/s (ADC, DAC) */
	uint64_t rate_sps; /* the same, rounded, as a property */
	uint32_t buffer_size;
	uint32_t nbuffers;     /* E */
	uint32_t host_buffers; /* H */
	uint32_t fpga_memory;  /* bytes of buffer memory per port */
	bool report_data_loss;
	uint32_t coalesce_us;	/* coalesce_wait_d */
	uint64_t duration_ns;	/* 0: until SIGINT/SIGTERM or DCP release */
	bool idle;		/* start nothing: wait for DCP start */
	uint32_t local_src_id;	/* offset 2 of the frames it sends (--id) */
	uint32_t remote_dst_id; /* offset 0 of the frames it sends (--peer-id) */
	uint32_t max_acks;	/* max_acks_outstanding (0: never urgent by count) */
	uint32_t ack_wait_us;
	uint32_t ack_width;	/* ack_tracker_bitfield_width */
	uint32_t max_ack_count; /* ack_tracker_max_ack_count */
	bool restart_on_seq1;	/* frame_seq 1 outside the window: a new host (docs/fpga.md) */
	double drop_rx; /* probability a received DG-RDMA frame is lost before the tracker */
	bool pacing_busy;
	bool virtual_clock;
	bool clock_freeze;	 /* a late worker's clock freezes (worker.c, fpga_clock_freeze) */
	uint64_t timer_slack_ns; /* the loop's timer slack (finish_config resolves auto) */
	uint64_t tick_ns;	 /* virtual clock step per loop iteration */
	uint64_t seed;
	double drop_frames; /* probability */
	double corrupt;	    /* probability */
	uint32_t doorbell_delay_us;
	uint32_t drain_ms;
	bool check_ramp; /* DAC: count samples that break a ramp */
	const char *summary_json;
	const char *ready_file; /* created once the sockets are bound */
	bool json;		/* summary on stdout as JSON */
	bool quiet;
	uint32_t counters_ms; /* period of the counters tracepoint, 0: off */
};

/* Counters of the emulator (the dgrdma_config worker's and its own). */
struct fpga_counters {
	uint64_t frames_rx, frames_tx, bytes_rx, bytes_tx;
	uint64_t frame_parser_reject;
	uint64_t frames_wrong_id;
	uint64_t ack_only_rx;
	uint64_t messages_rx, messages_rejected;
	uint64_t transactions_rx, transactions_sent;
	uint64_t doorbells_received_dcp, doorbells_rejected;
	uint64_t doorbells_sent;
	uint64_t discontinuities_sent;
	uint64_t samples_sent;
	uint64_t samples_unsent; /* samples in buffers not sent (yet) */
	uint64_t eof_sent;
	uint64_t flags_none;	 /* flag writes of transactions without a flag (0xFFFFFFFF) */
	uint64_t flags_unusable; /* flag writes of transactions with a refused message */
	uint64_t frames_dropped_injected, frames_corrupted_injected;
	uint64_t frames_rx_dropped_injected; /* received frames lost on purpose (--drop-received) */
	uint64_t dcp_requests, dcp_errors, dcp_malformed, packets_invalid;
	uint64_t send_errors;
	uint64_t peer_restarts;	 /* the host started a new connection (frame_seq 1 again) */
	uint64_t frame1_repeats; /* frame 1 again, byte for byte, soon after: a retransmission */
	/* the parser reading an ACK-only frame's rest as frames (docs/fpga.md section 11) */
	uint64_t padding_frames_rx;	  /* frame headers read from the rest of ACK-only frames */
	uint64_t padding_frames_accepted; /* of them, accepted: a frame_seq the host never sent */
	uint64_t frames_lost_to_padding;  /* host frames rejected on a frame_seq padding took */
	uint64_t frames_truncated;	  /* frames whose header ends the stream: ignored, a hole */
};

/*
 * The last frame_seq the padding of an ACK-only frame took in the window, and
 * what it cost: the host frame of that number dropped, with the first
 * transaction it carried (the diagnosis of fpga_rx_diagnosis()).
 */
struct fpga_padding_trap {
	bool marked;	   /* a padding frame was accepted, its frame_seq is marked */
	uint16_t seq;	   /* that frame_seq (0 for zero padding) */
	uint16_t base;	   /* base_seqno when it was accepted */
	bool lost;	   /* the host's own frame of that number was rejected since */
	uint32_t lost_txn; /* the first txn_id it carried (0: none) */
	uint16_t lost_seq;
	bool reported;		/* said on stderr once */
	bool truncated;		/* a frame ended in its header (over UDP) */
	uint16_t truncated_seq; /* the first one's frame_seq (0 when shorter than a header) */
};

/* Pacing statistics (pacing.c). */
struct fpga_pacing {
	uint64_t steps;	       /* production steps */
	uint64_t late_max_ns;  /* largest lateness of a step's last sample */
	double late_sum;       /* sum of the steps' lateness, for the mean */
	uint64_t late_samples; /* steps with samples */
	uint64_t late_mean_ns;
	uint64_t elapsed_ns;	   /* clock of the last production step since the ADC start */
	uint64_t expected_samples; /* rate * elapsed_ns, floor */
	int64_t error_samples;	   /* produced - expected */
	uint64_t waits;		   /* sleeps (or spins) between steps */
};

/*
 * The emulated FPGA's clocks taken as frozen while the emulator did not run
 * (worker.c, fpga_clock_freeze; docs/fpga.md section 6).
 */
struct fpga_freeze {
	uint64_t count;	   /* clock_freezes: late wake-ups taken as a frozen FPGA */
	uint64_t total_ns; /* frozen_ns: the clocks' time lost to them */
	uint64_t max_ns;   /* frozen_max_ns: the longest one */
};

/*
 * How far past what its memory absorbs a clocked worker may be before its
 * clock freezes: 4 times the largest timer slack the loop runs with
 * (--timer-slack-us at most 1000), far above the wake-up latency of a
 * sleeping thread. Later than that, the process was not running (preempted,
 * stopped, a VM's steal time), which real hardware never is.
 */
#define FPGA_FREEZE_MARGIN_NS 4000000ull

#define FPGA_TX_FRAMES 64   /* frames per sendmmsg batch */
#define FPGA_DB_QUEUE  1024 /* delayed doorbells */

struct fpga_db {
	uint64_t due_ns;
	uint32_t buffer;
};

/*
 * The connection's frame 1 as it arrived (its first FPGA_FRAME1_HEAD bytes):
 * a frame_seq 1 outside the window that repeats it byte for byte within
 * FPGA_FRAME1_REPEAT_NS is the host retransmitting it (its ACK was late), not
 * a new connection (docs/fpga.md section 2).
 */
#define FPGA_FRAME1_HEAD      64
#define FPGA_FRAME1_REPEAT_NS 1000000000ull
struct fpga_frame1 {
	bool seen;
	uint64_t at_ns;
	size_t len;
	uint8_t head[FPGA_FRAME1_HEAD];
};

struct fpga_emu {
	struct fpga_config cfg;
	struct fpga_counters cnt;
	struct fpga_pacing pace;
	struct fpga_freeze freeze;
	struct fpga_producer prod;
	struct fpga_consumer cons;
	struct fpga_adc adc;
	struct fpga_dac dac;
	struct fpga_perftest pt;
	struct fpga_acktrack ack;
	struct fpga_txnrecord txns;
	struct fpga_padding_trap pad;
	/* doorbells to an address outside the flag area (a host counting other buffers) */
	uint64_t flags_outside_area;
	uint32_t first_outside_flag; /* the first one's flag address */
	struct fpga_frame1 frame1;
	enum fpga_wstate wstate[DGR_WORKER_COUNT];

	/* the wire */
	struct dgr_transport *tr;
	enum dgr_transport_kind kind;
	bool have_peer;
	uint64_t peer_ns; /* when the peer was learned from its first packet (0: given) */
	uint32_t mtu;
	uint32_t frame_cap;
	uint8_t *frames; /* FPGA_TX_FRAMES * frame_cap, allocated once */
	size_t frame_len[FPGA_TX_FRAMES];
	unsigned int nframes; /* finished frames waiting for the batch send */
	struct dgr_frame_builder fb;
	bool fb_open;
	uint64_t fb_first_ns; /* when the open frame got its first message */
	uint16_t next_seq;    /* frame_seq of the next frame */
	uint32_t next_txn;    /* txn_id of the next transaction */
	struct fpga_db dbq[FPGA_DB_QUEUE];
	unsigned int dbq_head, dbq_len;
	uint64_t rng;
	/* every frame handed to the transport is shown here too (tests) */
	void (*tx_tap)(void *ctx, const uint8_t *frame, size_t len);
	void *tx_tap_ctx;

	/* clocks */
	uint64_t now_ns;
	uint64_t t0_ns; /* process start on the emulator clock */
	uint64_t adc_start_ns, dac_start_ns;
	uint64_t dac_pos;  /* DAC sample slots accounted so far */
	bool dac_fed;	   /* the DAC was playing a buffer at its last step */
	uint64_t dac_rest; /* samples of it left then: its next wake-up was due after them */
	uint64_t next_counters_ns;

	/* property reads of a u64's low word latch its high word */
	uint32_t latch_hi;
	uint32_t scratch[2];
	uint32_t doorbell_prop; /* last value written to the doorbell property */
	uint32_t exit_requested;
	bool stopping;
	uint64_t stop_ns;

	/* the process, at exit (in the summary, not DCP properties: they change as it runs) */
	uint64_t run_ns, cpu_user_ns, cpu_sys_ns;
};

/* ---- pacing.c ---- */
uint64_t fpga_clock_now(struct fpga_emu *e);
/* Samples due at now for a stream started at start_ns at rate r. */
uint64_t fpga_samples_due(double rate, uint64_t start_ns, uint64_t now_ns);
/* Time at which sample k of a stream started at start_ns is due. */
uint64_t fpga_sample_due_ns(double rate, uint64_t start_ns, uint64_t k);
/* Records a production step that produced samples [from, to) at now. */
void fpga_pacing_step(struct fpga_pacing *pc, double rate, uint64_t start_ns, uint64_t from,
		      uint64_t to, uint64_t now_ns);
/* Sleeps (or spins) until deadline_ns or, with wake_on_packet, until a transport fd is readable. */
void fpga_wait(struct fpga_emu *e, uint64_t deadline_ns, bool wake_on_packet);
uint64_t fpga_rand(struct fpga_emu *e);
double fpga_rand_unit(struct fpga_emu *e);

/* ---- txpath.c ---- */
/* Allocates the frame pool (e->frame_cap set); frame_seq and txn_id start at 1. 0 or -DGR_E_NOMEM.
 */
int fpga_tx_init(struct fpga_emu *e, char *errbuf);
/* Frees the frame pool (also when it was never allocated). */
void fpga_tx_free(struct fpga_emu *e);
/* Writes one transaction into frames (starting and finishing frames as needed). */
int fpga_tx_txn(struct fpga_emu *e, const struct dgr_txn *t, uint8_t opcode, unsigned int buffer);
/* Moves every sendable producer buffer onto the wire. Returns transactions sent. */
unsigned int fpga_tx_producer(struct fpga_emu *e);
/* Queues a doorbell for input buffer j (after --doorbell-delay-us). */
void fpga_tx_queue_doorbell(struct fpga_emu *e, unsigned int buffer);
/* Sends the doorbells that are due. */
void fpga_tx_doorbells(struct fpga_emu *e);
/* Sends an ACK when one is due, closes a coalesced frame whose wait expired, flushes. */
void fpga_tx_service(struct fpga_emu *e, bool force_flush);
/* Earliest time something in the TX path is due (UINT64_MAX: nothing). */
uint64_t fpga_tx_next_deadline(const struct fpga_emu *e);
/* A doorbell for host buffer i from either transport: a credit for the output port. */
void fpga_rx_doorbell(struct fpga_emu *e, unsigned int buffer, uint32_t flag_addr,
		      uint16_t frame_seq, bool via_dcp);

/* ---- rxpath.c ---- */
/* Receives and handles what is waiting (never blocks). Returns packets handled. */
int fpga_rx_poll(struct fpga_emu *e);
/* Handles one received packet (also used by tests with crafted input). */
void fpga_rx_packet(struct fpga_emu *e, const struct dgr_rx_pkt *pkt);
/*
 * Why the receive path stopped, when the emulator can tell: a host frame lost
 * to an ACK-only frame's padding (the flags stop at its transaction), or
 * frames the parser ignored as truncated (holes the window never skips).
 * Writes one line into buf (cap bytes). Returns true when there is one.
 */
bool fpga_rx_diagnosis(const struct fpga_emu *e, char *buf, size_t cap);

/* ---- worker.c ---- */
/* True when worker w is operating (started, not stopped or released). */
bool fpga_worker_operating(const struct fpga_emu *e, enum dgr_worker w);
/*
 * Performs control operation reg on worker w; returns an OCCP result word
 * (DGR_OCCP_SUCCESS, DGR_OCCP_ERROR, the state for DCP_CTL_STATUS); *ok is false
 * for a register that is no operation.
 */
uint32_t fpga_control_op(struct fpga_emu *e, unsigned int w, uint32_t reg, bool *ok);
/* Initializes every worker and starts those of the mode (unless --idle). */
void fpga_start_workers(struct fpga_emu *e);
/* Advances a clocked worker (ADC, DAC, perftest) to the clock; nothing for the others. */
void fpga_worker_step(struct fpga_emu *e, enum dgr_worker w);
/*
 * In real-clock mode with clock_freeze, when a clocked worker's next sample was due more than
 * absorb_ns + FPGA_FREEZE_MARGIN_NS ago, the emulator did not run: the FPGA is
 * taken as frozen for the lateness beyond absorb_ns, *start_ns moves forward by
 * that much (so absorb_ns worth of samples is caught up) and the freeze is
 * counted. Returns true when it froze.
 */
bool fpga_clock_freeze(struct fpga_emu *e, uint64_t *start_ns, uint64_t next_due_ns,
		       uint64_t absorb_ns);
/* Steps every operating clocked worker to the stop instant and stops it. */
void fpga_workers_stop(struct fpga_emu *e);
/*
 * Called after a received packet freed host buffers: while the ADC drops, the freed
 * buffers meet the ADC's next sample before the next packet is handled (each packet is an
 * instant of its own, as frames are on the wire). Does nothing otherwise.
 */
void fpga_adc_packet_instant(struct fpga_emu *e);
/*
 * A new host connection (frame_seq 1 outside the ACK window with restart_on_seq1,
 * or a DCP reset of dgrdma_config): the DG-RDMA state starts afresh (ACK tracker,
 * transaction record, input buffers, host buffers; peer_restarts + 1).
 */
void fpga_dgrdma_restart(struct fpga_emu *e);

/* ---- dcp_server.c ---- */
/* Answers one DCP request into out (cap bytes). Returns the length, 0 for no answer. */
int fpga_dcp_handle(struct fpga_emu *e, const uint8_t *req, size_t len, uint8_t *out, size_t cap);

#define FPGA_NOP_ID 0x46504741u /* "FPGA": the id answered to discovery */

/* ---- props.c ---- */
enum fpga_ptype { FPGA_PT_U32, FPGA_PT_U64, FPGA_PT_BOOL };
enum fpga_access { FPGA_RO, FPGA_RW, FPGA_WO };

struct fpga_prop {
	unsigned int worker;
	uint32_t offset;
	const char *name;
	enum fpga_ptype type;
	enum fpga_access access;
	size_t field; /* offsetof(struct fpga_emu, ...) */
	/* write hook (RW/WO): returns 0 or a negative code (the DCP answer is error) */
	int (*write)(struct fpga_emu *e, const struct fpga_prop *p, uint32_t v);
	const char *doc;
};

extern const struct fpga_prop fpga_props[];
extern const unsigned int fpga_nprops;
extern const char *const fpga_worker_names[DGR_WORKER_COUNT];

/* Property at worker/offset (offset of a u64's high word finds it too). */
const struct fpga_prop *fpga_prop_find(unsigned int worker, uint32_t offset);
const struct fpga_prop *fpga_prop_by_name(const char *name);
uint64_t fpga_prop_get(const struct fpga_emu *e, const struct fpga_prop *p);
/* DCP word access. Return 0, or -DGR_E_ADDR_RANGE (unknown), -DGR_E_PERM (read-only). */
int fpga_prop_read_word(struct fpga_emu *e, unsigned int worker, uint32_t offset, uint32_t *v);
int fpga_prop_write_word(struct fpga_emu *e, unsigned int worker, uint32_t offset, uint32_t v);

/* Every property as text lines or one JSON object, through the print layer. */
void fpga_print_props(const struct fpga_emu *e, FILE *out, bool json);
/* The property map as a markdown table (docs/fpga.md section 4). */
void fpga_print_prop_table(FILE *out);
const char *fpga_mode_name(enum fpga_mode m);

#endif
