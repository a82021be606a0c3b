/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the parts of the dgrdma Wireshark plugin share: registration entry
 * points (called by plugin.c) and the few accessors one dissector needs from
 * another. Protocol and tap ids are set once at registration.
 */
#ifndef DGRDMA_DISSECTORS_H
#define DGRDMA_DISSECTORS_H

#include <epan/packet.h>

#include "dgrdma-doorbell-analysis.h"

void proto_register_dgrdma(void);
void proto_reg_handoff_dgrdma(void);
void proto_register_dcp(void);
void proto_reg_handoff_dcp(void);

/* Registers the "-z dgrdma,latency[,filter]" statistic (dgrdma-latency-tap.c). */
void dgrdma_register_latency_tap(void);

/* Registers the "DG-RDMA Doorbells" stats tree (dgrdma-doorbell-stats-tree.c). */
void dgrdma_register_stats_tree(void);

/* Protocol and tap ids, valid after registration. */
int dgrdma_proto_id(void);
int dgrdma_tap_id(void);
int dcp_proto_id(void);

/* True when the DG-RDMA "analyze" preference is on. */
gboolean dgrdma_analysis_enabled(void);

/* Adds the dgrdma.analysis subtree of one (message or DCP doorbell) result. */
void dgrdma_add_analysis_tree(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo, proto_item *item,
			      const struct dgr_an_msg *an);

#endif
