/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a DG-RDMA message is to the analysis, one rule for latency-report and
 * the Wireshark plugin: which messages are doorbells, and which a receiver
 * drops as malformed (docs/analysis.md, "Transactions and doorbells").
 */
#ifndef DGR_ENGINE_MSG_RULES_H
#define DGR_ENGINE_MSG_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dgrdma/wire.h>

/* No receiver has more than a 32-bit address space (data_addr is 32 bits). */
#define ENG_ADDR_SPACE (UINT64_C(1) << 32)

/*
 * True when m is a doorbell: a flag-only message (num_msgs_in_txn 0,
 * data_len 0) whose flag word says nothing but "valid" (opcode 0, length 0,
 * no EOF or truncation). Any other flag word makes a flag-only message a
 * zero-length data transaction carrying a message in a buffer (a
 * discontinuity, an EOF).
 */
static inline bool eng_is_doorbell(const struct dgr_msg *m)
{
	struct dgr_flag_word fw;

	/* inline: every message of every frame asks, and most are data */
	if (!dgr_msg_is_flag_only(m) || !dgr_msg_has_flag(m)) {
		return false;
	}
	dgr_flag_decode(m->flag_value, &fw);
	return fw.opcode == 0 && fw.length == 0 && !fw.eof && !fw.truncated;
}

/*
 * The receiver's checks on one message (dgr_msg_validate() without the
 * FPGA's fragment-length rule), with the memory size mem_size, or, when it is
 * 0 (unknown), the 32-bit address space: data or a flag that runs past 2^32
 * is malformed whatever the receiver. Returns 0 or the negative DGR_E_* code
 * of dgr_msg_validate(), with errbuf (DGR_ERRBUF_SIZE bytes, or NULL) filled.
 */
int eng_msg_check(const struct dgr_msg *m, uint64_t mem_size, char *errbuf);

/*
 * The receiver's check of a whole frame, as the stack's receive path does it:
 * a frame with one bad message is dropped whole, none of its messages taken.
 * f is a parsed frame (dgr_frame_parse()) whose cursor is at its first
 * message; it is not moved. Every message must decode (dgr_frame_next_msg())
 * and pass eng_msg_check() with mem_size. When captured is less than the
 * frame's length (a capture cut by its snap length: f's buffer then holds the
 * captured bytes followed by zeros), the messages whose header lies past
 * `captured` cannot be checked and are not. Returns 0, or the negative DGR_E_* code of the
 * first bad message.
 */
int eng_frame_check(const struct dgr_frame *f, size_t captured, uint64_t mem_size);

/*
 * What OpenCPI's FPGA frame parser (dgrdma_frame_parser, release-2.4.5) makes
 * of an ACK-only frame of len bytes (the DG-RDMA frame, padding included when
 * captured) that it accepts (docs/protocol.md, "No ACK-only frame toward an
 * FPGA"). It does not end an ACK-only frame at its header: the rest of what it
 * was given is read as more 16-byte frame headers (6 bytes skipped, then 10)
 * as long as a byte follows each one. Over raw Ethernet it is given the
 * payload padded to 46 bytes, so zero padding is read as a frame 0, which near
 * the 16-bit wrap costs the sender's own frame 0 (ENG_ACK_TRAP_PADDING). Over
 * UDP it is given the frame exactly: a 10-byte frame ends in its header and is
 * ignored as truncated, a frame_seq the window never skips
 * (ENG_ACK_TRAP_TRUNCATED); 11..26 bytes leave too little to read on.
 */
enum eng_ack_trap {
	ENG_ACK_TRAP_NONE = 0,
	ENG_ACK_TRAP_PADDING,	/* the rest is read as a frame header (frame 0 if zero) */
	ENG_ACK_TRAP_TRUNCATED, /* the whole frame is ignored: a hole */
};

/* The ethernet minimum payload, which a NIC pads a shorter frame to. */
#define ENG_ETH_MIN_PAYLOAD 46

/* What an FPGA makes of an ACK-only frame of len bytes, over UDP (udp) or raw Ethernet. */
enum eng_ack_trap eng_ack_only_trap(bool udp, size_t len);

#endif
