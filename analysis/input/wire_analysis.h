/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * On-the-wire analysis of DG-RDMA and DCP frames: connections, directions,
 * transaction reassembly (the project's reassembler), doorbell matching
 * (doorbell_match.c), counters, and the per-doorbell latency series. Fed one
 * decoded frame at a time (frame_decode.h) by pcap_input.c, wa_feed_frame();
 * knows nothing of file formats or link layers.
 *
 * Connections: the engine's table (engine/conn_table.h), which the plugin
 * keys its records with too.
 * Direction: per connection, the side that is the host is decided once, at
 * the first data transaction or doorbell: a --host address, else a side seen
 * sending DCP requests (the host is the DCP master), else the data path
 * decides (wa_opts.undecided_path: --path, or the path of run.json's recorded
 * command; by default the side that sends data is the FPGA, the RX path).
 * RX: data FPGA->host, doorbells host->FPGA; TX: the reverse.
 */
#ifndef DGR_ANALYSIS_WIRE_ANALYSIS_H
#define DGR_ANALYSIS_WIRE_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>

#include <dgrdma/dcp.h>
#include <dgrdma/reassembly.h>
#include <dgrdma/wire.h>

#include "doorbell_match.h"
#include "frame_decode.h"
#include "ip_defrag.h"
#include "conn_table.h"
#include "data_feed.h"
#include "msg_rules.h"
#include "reasm_feed.h"
#include "seq_track.h"
#include "snap_cut.h"
#include "stats.h"

#define WA_MAX_HOSTS 16
/* The longest frame a snap-cut capture's record is read as (a DG-RDMA frame is far shorter). */
#define WA_FRAME_MAX	 (65536 + 64)
#define WA_MAX_UDP_PORTS 64

enum wa_dir { WA_RX = 0, WA_TX = 1 };

/* Counters of one direction (aggregated over connections, or of one connection). */
struct wa_dir_stats {
	uint64_t transactions, doorbells, matched, unmatched, orphans, discontinuities;
	uint64_t incomplete, pending_at_end, data_bytes, writes_without_flag;
	uint64_t begun_before; /* wa_opts.start_cut: begun before the capture, not lost */
	uint64_t cut_at_end;   /* wa_opts.end_cut: cut by the capture's end, not lost */
	uint64_t order_violations, ordinal_mismatch, addr_overflow;
	uint64_t max_txn_bytes;
	unsigned int buffers; /* distinct flag addresses (the larger kind) */
	uint64_t first_ts, last_ts;
};

/* A matched (or unmatched/orphan) doorbell, for CSV output. */
struct wa_bell_event {
	enum wa_dir dir;
	unsigned int conn;
	int kind; /* DM_MATCHED, DM_UNMATCHED, DM_ORPHAN */
	uint32_t buffer;
	uint64_t ts;	    /* doorbell frame (orphan, matched) or superseding transaction */
	uint64_t txn_ts;    /* completion of the transaction (matched, unmatched) */
	uint64_t latency;   /* matched */
	uint32_t frame_len; /* the doorbell frame's length on the wire (matched, orphan; else 0) */
};

/* A completed data transaction, for the per-interval CSV series. */
struct wa_txn_event {
	enum wa_dir dir;
	unsigned int conn;
	uint64_t ts;
	uint32_t bytes;
	uint8_t opcode;
};

struct wa_side_state {
	struct eng_reasm reasm; /* data this side sends (reasm.reasm NULL until data) */
	bool data_seen;		/* a data message of this side was seen */
	bool begun;		/* wa_opts.start_cut: begun_txn began before the capture */
	uint32_t begun_txn;
	bool done_seen;		    /* a transaction of this side completed */
	uint32_t last_done_txn;	    /* the txn_id of the last one */
	struct dm_matcher *matcher; /* data this side sends, doorbells the other side sends */
	struct wa_dir_stats st;
};

/* How a connection's host side was decided (the rules in the header comment, in order). */
enum wa_host_rule {
	WA_HOST_BY_ADDRESS, /* a --host address (or run.json's host address) */
	WA_HOST_BY_DCP,	    /* the side seen sending DCP requests */
	WA_HOST_BY_PATH,    /* neither: the data path (--path, run.json's command, else RX) */
};

/*
 * ACK-only frames the host sent to the FPGA that OpenCPI's frame parser
 * misreads (eng_ack_only_trap(), docs/protocol.md), and the lock-up they cause
 * at the 16-bit wrap when the capture shows it: the host's frame 0 (with
 * doorbells) after such a frame, acknowledged by the FPGA, the FPGA's data
 * stopping within the credits it had, and the host's later doorbells having
 * no effect.
 */
struct wa_ack_trap {
	uint64_t padded;    /* ENG_ACK_TRAP_PADDING: the padding read as a frame 0 */
	uint64_t truncated; /* ENG_ACK_TRAP_TRUNCATED (UDP, 10 bytes): a frame_seq hole */
	uint64_t first_ref; /* the first such frame */
	bool frame0;	    /* the host's newest frame 0 with messages came after a padded one */
	uint64_t frame0_ref;
	uint32_t frame0_doorbells;
	bool frame0_acked; /* a frame of the FPGA acknowledged frame_seq 0 near it (before it,
			    * when the padding's frame 0 was taken first) */
	uint64_t ack0_ref; /* the FPGA's first frame acknowledging frame_seq 0 at this wrap */
	uint64_t acked_ref;
	uint64_t data_after;	       /* data transactions the FPGA finished sending after it */
	uint64_t doorbells_after;      /* doorbells the host sent from it on */
	uint64_t doorbells_after_data; /* of them, after the FPGA's last data */
	bool eof_after;		       /* an EOF transaction after it: the stream ended */
	bool lockup;		       /* wa_finish(): the capture shows the lock-up */
};

/* The analysis of a connection of the engine's table (same index, same sides). */
struct wa_conn {
	int host_side; /* -1 until decided */
	enum wa_host_rule host_rule;
	struct wa_side_state s[2];
	struct eng_seq *seq[2];	     /* frame_seq of the frames side k sends; NULL until one */
	struct eng_snap_cut snap[2]; /* the last frame side k sent, if the snap length cut it */
	struct wa_ack_trap trap;
};

struct wa_opts {
	uint64_t reasm_timeout_ns; /* incomplete transactions older than this expire */
	unsigned int reasm_max;	   /* outstanding transactions per connection and side */
	/*
	 * DCP writes to [lo, hi] are doorbells. lo == hi: one doorbell property,
	 * the written data is the buffer index (the project's emulator); a range:
	 * one address per buffer, the address identifies it.
	 */
	bool dcp_doorbells;
	uint32_t dcp_bell_lo, dcp_bell_hi;
	/*
	 * The capture's start was dropped (a ring that overwrote its first files):
	 * the transaction a sender's first captured message belongs to, when that
	 * message is not its first fragment, began before the capture and is
	 * counted as begun_before, not as incomplete (no loss).
	 */
	bool start_cut;
	/*
	 * The capture's end was cut (a flight recorder's incident): a transaction
	 * still incomplete at the end and newer than the side's last completed
	 * one was cut by the end, counted as cut_at_end, not as incomplete.
	 */
	bool end_cut;
	struct eng_addr hosts[WA_MAX_HOSTS]; /* --host */
	unsigned int host_len[WA_MAX_HOSTS]; /* bytes compared: 6 (MAC, IP:port) or 4 (IP) */
	unsigned int n_hosts;
	/* the data path of a connection no address or DCP decides: WA_RX (the FPGA sends data) */
	enum wa_dir undecided_path;
	/*
	 * UDP ports that carry DG-RDMA and DCP (either end) besides DGR_UDP_PORT,
	 * which always does: WA_MAX_UDP_PORTS ports in all (wa_opts_add_udp_port).
	 */
	uint16_t udp_ports[WA_MAX_UDP_PORTS - 1];
	unsigned int n_udp_ports;
	void (*on_bell)(void *ctx, const struct wa_bell_event *ev);
	void (*on_txn)(void *ctx, const struct wa_txn_event *ev);
	void *ctx;
};

struct wa_dcp_stats {
	uint64_t frames, nop, write, read, write_resp, read_resp, nop_resp;
	uint64_t resp_by_code[16];
	uint64_t doorbells, doorbells_without_conn;
};

/*
 * A UDP port the analysis was not given that carried datagrams which decode
 * as DG-RDMA (a frame with messages the engine accepts) or DCP: the stack and
 * the emulator take any port (--bind), so a bare capture of them needs
 * --udp-port, and the report says which.
 */
#define WA_MAX_PORT_HINTS 8
struct wa_port_hint {
	uint16_t port;
	uint64_t datagrams;
};

struct wire_analysis {
	struct wa_opts o;
	uint32_t frame_len; /* the Ethernet length of the frame being fed (wa_feed_frame) */
	struct dgr_decoded_msg
	    *decoded;		  /* the messages of the frame being fed (dgr_frame_decode) */
	unsigned int decoded_max; /* their room, grown to the largest frame's */
	struct eng_conns table;	  /* the connections (table.n of them) */
	struct wa_conn *conns;	  /* the analysis of each, ENG_MAX_CONNS entries */
	unsigned int conns_ready; /* entries of conns set up (conn_get()) */
	struct eng_addr dcp_hosts[WA_MAX_HOSTS]; /* senders of DCP requests */
	unsigned int n_dcp_hosts;
	/* frames */
	uint64_t frames, dgrdma_frames, ack_only_frames, other_frames, truncated_frames;
	uint64_t msgs, snap_cut_frames, duplicate_msgs, reasm_overflow;
	uint64_t snap_fragments;	   /* first fragments found in cut bytes (eng_snap_cut) */
	uint64_t snap_hidden_txns;	   /* whole transactions in cut bytes */
	uint64_t snap_cut_doorbell_frames; /* cut after a doorbell: later doorbells unseen */
	uint64_t msgs_after_given_up; /* fragments of a transaction the feed gave up: ignored */
	uint64_t malformed_frames, malformed_by_reason[DGR_E__COUNT];
	/* UDP datagrams on ports not given that decode as ours (counted in other_frames too) */
	uint64_t other_port_datagrams;
	struct wa_port_hint port_hints[WA_MAX_PORT_HINTS];
	unsigned int n_port_hints;
	/* IP fragments (pcap_input.c puts them together); .slot NULL until the first */
	struct ip_defrag ip_defrag;
	struct eng_seq_counts seq; /* sequence analysis, over every sender (wa_finish) */
	uint64_t first_ts, last_ts;
	/*
	 * The capture's clock (wa_frame_time): frames stamped earlier than the
	 * frame before them, the largest such step back, and frames whose
	 * timestamp cannot be (a sub-second part of a second or more, a time
	 * past 2554 that ns do not hold).
	 */
	uint64_t ts_backwards, ts_largest_step_back, ts_impossible;
	uint64_t ts_prev, ts_frames;
	struct wa_dcp_stats dcp;
	/* results, per direction, aggregated over connections */
	struct wa_dir_stats dir[2];
	struct series lat[2];
	struct series lat_txn[2]; /* the matched transaction's id, one per sample of lat */
	/* ACK-only frames to an FPGA, over every connection (wa_finish) */
	uint64_t ack_trap_padded, ack_trap_truncated, ack_trap_first_ref;
	int ack_trap_lockup_conn; /* the first connection that shows the lock-up, or -1 */
	bool finished;
};

/* Sets up an analysis. Returns 0, or -DGR_E_NOMEM with errbuf filled. */
int wa_init(struct wire_analysis *w, const struct wa_opts *o, char *errbuf);

/* Whether UDP port carries DG-RDMA or DCP for these options: DGR_UDP_PORT or one added. */
bool wa_opts_udp_port_ours(const struct wa_opts *o, uint16_t port);

/*
 * Adds port to the UDP ports of o (nothing when it is already ours). Returns 0,
 * or -DGR_E_NOSPACE when o already has WA_MAX_UDP_PORTS ports.
 */
int wa_opts_add_udp_port(struct wa_opts *o, uint16_t port);

/* The UDP ports that carry DG-RDMA and DCP for this analysis, as frame_decode() takes them. */
struct fd_ports wa_udp_ports(const struct wire_analysis *w);
void wa_free(struct wire_analysis *w);

/*
 * Feeds one decoded frame (frame_decode(), ts and ref set: the time from
 * wa_frame_time() and the caller's frame number, not 0), the one call per
 * captured frame: DG-RDMA and DCP are analysed; an IP fragment kept for
 * reassembly only counts (the fragment that completes a datagram comes as the
 * datagram, FD_DGRDMA or FD_DCP); a foreign UDP datagram whose payload the
 * stack would take on its port (pad 0 and a DG-RDMA frame with messages that
 * eng_frame_check() accepts, or pad 0xF040 and a DCP packet that decodes)
 * names both its ports as candidates for --udp-port, the first
 * WA_MAX_PORT_HINTS counted, and counts as other. Malformed frames are
 * counted, never fatal.
 */
void wa_feed_frame(struct wire_analysis *w, const struct frame_decoded *f);

/*
 * The time in ns of a captured frame stamped sec and nsec (the capture
 * reader's timestamp, at nanosecond precision), one call per captured frame
 * in capture order: counts a timestamp that goes back from the previous
 * frame's and one that cannot be (nsec outside 0..999999999, sec negative or
 * too large for ns in 64 bits: such a time is taken as it adds up, saturated).
 * Inline: per frame, the call would cost as much as the work.
 */
static inline uint64_t wa_frame_time(struct wire_analysis *w, int64_t sec, int64_t nsec)
{
	const uint64_t max_sec = UINT64_MAX / 1000000000ull - 1;
	uint64_t ts;

	/* as unsigned, a negative value is above both limits: one test each */
	if ((uint64_t)nsec <= 999999999 && (uint64_t)sec <= max_sec) {
		/* every frame of a sane capture: max_sec leaves room for the nanoseconds */
		ts = (uint64_t)sec * 1000000000ull + (uint64_t)nsec;
	} else {
		w->ts_impossible++;
		sec = sec < 0 ? 0 : sec;
		nsec = nsec < 0 ? 0 : nsec;
		ts = (uint64_t)sec > max_sec ? UINT64_MAX : (uint64_t)sec * 1000000000ull;
		ts = ts > UINT64_MAX - (uint64_t)nsec ? UINT64_MAX : ts + (uint64_t)nsec;
	}
	if (w->ts_frames && ts < w->ts_prev) {
		w->ts_backwards++;
		if (w->ts_prev - ts > w->ts_largest_step_back) {
			w->ts_largest_step_back = w->ts_prev - ts;
		}
	}
	w->ts_prev = ts;
	w->ts_frames++;
	return ts;
}

/* Whether the verdict on the wire rests on timestamps wa_frame_time() found wrong. */
bool wa_times_suspect(const struct wire_analysis *w);

/* Ends the capture: counts incomplete and still-waiting transactions, fills dir[]. */
void wa_finish(struct wire_analysis *w);

/* "rx" or "tx". */
const char *wa_dir_name(enum wa_dir d);

#endif
