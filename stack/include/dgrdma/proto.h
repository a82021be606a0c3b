/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Wire constants of DG-RDMA and DCP, shared by every part of dgrdma-tools:
 * the codec (wire.h, dcp.h), the emulator, the analysis tools and the
 * Wireshark dissector (which decodes with the codec, dgr_frame_decode()).
 * Plain C, no dependencies. See docs/protocol.md.
 */
#ifndef DGRDMA_PROTO_H
#define DGRDMA_PROTO_H

/* Transports */
#define DGR_ETHERTYPE_DCP    0xF040
#define DGR_ETHERTYPE_DGRDMA 0xF042
#define DGR_UDP_PORT	     18078
#define DGR_UDP_PAD_LEN	     2 /* bytes before the DG-RDMA frame in a UDP payload */
#define DGR_ETH_HDR_LEN	     14
#define DGR_ETH_MIN_PAYLOAD  46 /* short frames are zero padded up to this */

/*
 * DG-RDMA frame header, little-endian, 10 bytes. Offset 0 carries the
 * sender's endpoint id (the reading of the FPGA design and of the Lua
 * dissector); docs/protocol.md explains the choice.
 */
#define DGR_FRAME_HDR_LEN	10
#define DGR_FRAME_OFF_DST_ID	0 /* OpenCPI's HDL and C++ driver: dst_id, then src_id */
#define DGR_FRAME_OFF_SRC_ID	2
#define DGR_FRAME_OFF_SEQ	4
#define DGR_FRAME_OFF_ACK_START 6
#define DGR_FRAME_OFF_ACK_COUNT 8
#define DGR_FRAME_OFF_FLAGS	9
#define DGR_FRAME_FLAG_ACK_ONLY 0x00 /* no messages follow */
#define DGR_FRAME_FLAG_MSGS	0x01 /* messages follow */

/* Message header, little-endian, 24 bytes, 8-byte aligned after the frame header. */
#define DGR_MSG_HDR_LEN	       24
#define DGR_MSG_ALIGN	       8
#define DGR_MSG_OFF_TXN_ID     0
#define DGR_MSG_OFF_FLAG_ADDR  4
#define DGR_MSG_OFF_FLAG_VALUE 8
#define DGR_MSG_OFF_NUM_MSGS   12
#define DGR_MSG_OFF_MSG_SEQ    14
#define DGR_MSG_OFF_DATA_ADDR  16
#define DGR_MSG_OFF_DATA_LEN   20
#define DGR_MSG_OFF_TYPE       22
#define DGR_MSG_OFF_NEXTMSG    23

#define DGR_NO_FLAG 0xFFFFFFFFu /* flag_addr/flag_value of a write without flag */

/* Fragmentation rules the FPGA imposes. */
#define DGR_FRAG_ALIGN	 16	/* non-final fragments carry a multiple of 16 bytes */
#define DGR_FINAL_ALIGN	 4	/* the final fragment is rounded up to 4 bytes */
#define DGR_MAX_DATA_LEN 65520u /* largest data_len that is a multiple of 16 */

/* Flag word (flag_value of a data transaction or doorbell). */
#define DGR_FLAGW_VALID	       0x00000001u
#define DGR_FLAGW_LEN_SHIFT    1
#define DGR_FLAGW_LEN_MASK     0x001FFFFFu /* 21 bits, after the shift */
#define DGR_FLAGW_EOF	       0x00400000u /* bit 22 */
#define DGR_FLAGW_TRUNC	       0x00800000u /* bit 23 */
#define DGR_FLAGW_OPCODE_SHIFT 24
#define DGR_FLAGW_MAX_LEN      0x1FFFFFu /* 2 MiB - 1 */

/* Value the host writes to a producer's flag to say "buffer empty again". */
#define DGR_DOORBELL_VALUE 0x00000001u

/* Opcodes of OpenCPI's timed-sample protocols (ComplexShortTimedSample). */
#define DGR_OPCODE_SAMPLES	   0
#define DGR_OPCODE_TIME		   1
#define DGR_OPCODE_SAMPLE_INTERVAL 2
#define DGR_OPCODE_FLUSH	   3
#define DGR_OPCODE_DISCONTINUITY   4
#define DGR_OPCODE_METADATA	   5

/* Bytes per complex sample: 16-bit I + 16-bit Q. */
#define DGR_SAMPLE_BYTES 4

/* DCP, big-endian. */
#define DCP_OFF_LENGTH 0
#define DCP_OFF_PAD    2
#define DCP_OFF_TYPE   4
#define DCP_OFF_TAG    5
#define DCP_OFF_ADDR   6 /* address of a request, data of a read response */
#define DCP_OFF_DATA   10

#define DCP_LEN_NOP		10
#define DCP_LEN_READ		10
#define DCP_LEN_WRITE		14
#define DCP_LEN_WRITE_RESP	6
#define DCP_LEN_READ_RESP	10
#define DCP_LEN_NOP_RESP	18
#define DCP_NOP_RESP_OFF_ID	6
#define DCP_NOP_RESP_OFF_MAC	10
#define DCP_NOP_RESP_OFF_MARKER 17
#define DCP_NOP_MARKER		0x40

#define DCP_TYPE_SHIFT	  4
#define DCP_TYPE_MASK	  0x30
#define DCP_TYPE_NOP	  0
#define DCP_TYPE_WRITE	  1
#define DCP_TYPE_READ	  2
#define DCP_TYPE_RESPONSE 3
#define DCP_UNCACHED	  0x40 /* bit 6 of a request ("discovery" in the Lua dissector) */
#define DCP_RESERVED	  0x80
#define DCP_LOW_MASK	  0x0F /* byte enables (requests) or response code */

#define DCP_RESP_OK		0
#define DCP_RESP_WORKER_TIMEOUT 1
#define DCP_RESP_WORKER_BUSY	2
#define DCP_RESP_ERROR		3
#define DCP_RESP_ETHER_TIMEOUT	4

/* DCP address space (24-bit byte addresses). */
#define DCP_ADDR_MASK		  0x00FFFFFFu
#define DCP_ADMIN_END		  0x1000u
#define DCP_CONTROL_BASE	  0x4000u
#define DCP_CONTROL_END		  0x40000u
#define DCP_CONTROL_WORKER_SHIFT  14
#define DCP_CONTROL_REG_MASK	  0x3FFFu
#define DCP_PROPERTY_BASE	  0x40000u
#define DCP_PROPERTY_WORKER_SHIFT 20
#define DCP_PROPERTY_OFF_MASK	  0xFFFFFu
#define DCP_WORKER_MASK		  0x3Fu

/* Control operation registers in a worker's control space. */
#define DCP_CTL_INITIALIZE   0x00
#define DCP_CTL_START	     0x04
#define DCP_CTL_STOP	     0x08
#define DCP_CTL_RELEASE	     0x0C
#define DCP_CTL_TEST	     0x10
#define DCP_CTL_BEFORE_QUERY 0x14
#define DCP_CTL_AFTER_CONFIG 0x18
#define DCP_CTL_STATUS	     0x20
#define DCP_CTL_RESET	     0x24

#endif
