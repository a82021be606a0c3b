/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The contract between the host and the FPGA (docs/fpga.md), in one place: the
 * workers of the OpenCPI image and their indices in the DCP address space, the
 * properties both ends name by offset (the doorbell, the perftest registers),
 * the results of a control operation, and the port memories' bases. The stack,
 * dgrdma-ctl, the emulator, latency-report and the dissector use these names.
 */
#ifndef DGRDMA_CONTRACT_H
#define DGRDMA_CONTRACT_H

#ifdef __cplusplus
extern "C" {
#endif

/* The workers, by their index in the DCP address space (dcp_property_addr()). */
enum dgr_worker {
	DGR_WORKER_CONFIG = 0,	 /* dgrdma_config_dev: the endpoint; the doorbell property */
	DGR_WORKER_ADC = 1,	 /* data_src_qadc_csts */
	DGR_WORKER_DAC = 2,	 /* data_sink_qdac_csts */
	DGR_WORKER_PERFTEST = 3, /* perftest.hdl */
	DGR_WORKER_EMULATOR = 4, /* dgrdma-fpga only: its configuration, clock and pacing */
	DGR_WORKER_COUNT
};

/*
 * The doorbell property of dgrdma_config (offset 0x18) and its DCP address,
 * dcp_property_addr(DGR_WORKER_CONFIG, DGR_PROP_DOORBELL): a DCP write of the
 * buffer index releases that buffer.
 */
#define DGR_PROP_DOORBELL     0x18u
#define DGR_DCP_DOORBELL_ADDR 0x100018u

/* perftest.hdl's properties (worker DGR_WORKER_PERFTEST), by offset. */
#define DGR_PERFTEST_TX_RUN		   0x00u /* bool: generate tx messages */
#define DGR_PERFTEST_TX_BEATS		   0x04u /* 4-byte words per tx message */
#define DGR_PERFTEST_TX_MESSAGES	   0x08u /* tx messages to send */
#define DGR_PERFTEST_TX_MESSAGE_GAP	   0x0Cu /* 125 MHz cycles between tx messages */
#define DGR_PERFTEST_RX_MESSAGES	   0x10u /* u64: messages received */
#define DGR_PERFTEST_RX_BYTES		   0x18u /* u64: bytes received */
#define DGR_PERFTEST_RX_LAST_MESSAGE_BYTES 0x20u
#define DGR_PERFTEST_TX_MESSAGES_SENT	   0x28u /* u64: tx messages generated */
#define DGR_PERFTEST_TX_BYTES_SENT	   0x30u /* u64 */

/* The result word a read of a control register (start, stop, ...) answers with. */
#define DGR_OCCP_SUCCESS 0xC0DE4201u
#define DGR_OCCP_ERROR	 0xC0DE4202u

/*
 * Port memories, on both ends: the RX path's (data FPGA -> host) at 0, the TX
 * path's at 0x40000000, each N buffers then DGR_PORT_FLAGS flag words. A port
 * memory fits below the next base; a base is at most 4 GiB minus that span.
 */
#define DGR_PORT_BASE_RX  0x00000000u
#define DGR_PORT_BASE_TX  0x40000000u
#define DGR_PORT_SPAN	  (DGR_PORT_BASE_TX - DGR_PORT_BASE_RX)
#define DGR_PORT_BASE_MAX 0xC0000000u
#define DGR_PORT_FLAGS	  256u

#ifdef __cplusplus
}
#endif

#endif /* DGRDMA_CONTRACT_H */
