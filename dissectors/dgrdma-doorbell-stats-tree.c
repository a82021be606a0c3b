// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The doorbell statistics as a Wireshark stats tree, so that the GUI has them
 * in its Statistics menu ("DG-RDMA Doorbells") and tshark as
 * "-z dgrdma_doorbells,tree": per connection (data direction) the complete
 * transactions, matched doorbells with latency count/average/min/max in
 * nanoseconds and a latency histogram, unmatched transactions and orphan
 * doorbells. Percentiles need every value: they are in "-z dgrdma,latency"
 * (dgrdma-latency-tap.c), which the GUI cannot show.
 */
#include <epan/packet.h>
#include <epan/stats_tree.h>
#include <epan/tap.h>

#include "dgrdma-doorbell-analysis.h"
#include "dgrdma-dissectors.h"

static const char *const st_root = "DG-RDMA doorbells by connection (data direction)";
static const char *const st_hist = "Doorbell latency, all connections (ns)";

static void doorbell_tree_init(stats_tree *st)
{
	stats_tree_create_node(st, st_root, 0, STAT_DT_INT, TRUE);
	stats_tree_create_range_node(st, st_hist, 0, "0-9999", "10000-99999", "100000-999999",
				     "1000000-9999999", "10000000-", NULL);
}

static tap_packet_status doorbell_tree_packet(stats_tree *st, packet_info *pinfo,
					      epan_dissect_t *edt, const void *data,
					      tap_flags_t flags)
{
	const struct dgr_an_event *ev = (const struct dgr_an_event *)data;
	const char *label = ev->conn_label ? ev->conn_label : "?";
	int root;
	int conn_node;
	gint64 ns;

	(void)pinfo;
	(void)edt;
	(void)flags;
	root = tick_stat_node(st, st_root, 0, TRUE);
	if (ev->kind == DGR_AN_EV_DCP_NO_CONN) {
		tick_stat_node(st, "DCP doorbells without a DG-RDMA connection", root, FALSE);
		return TAP_PACKET_REDRAW;
	}
	conn_node = tick_stat_node(st, label, root, TRUE);
	switch (ev->kind) {
	case DGR_AN_EV_TXN_COMPLETE:
		tick_stat_node(st, "Transactions (complete, with a flag)", conn_node, FALSE);
		break;
	case DGR_AN_EV_DOORBELL:
		ns = (gint64)ev->latency.secs * 1000000000 + ev->latency.nsecs;
		if (ns > G_MAXINT) {
			ns = G_MAXINT;
		}
		avg_stat_node_add_value_int(st, "Doorbells matched, latency (ns)", conn_node, FALSE,
					    (gint)ns);
		tick_stat_node(st, st_hist, 0, TRUE);
		stats_tree_tick_range(st, st_hist, 0, (int)ns);
		break;
	case DGR_AN_EV_UNMATCHED:
		tick_stat_node(st, "Transactions unmatched", conn_node, FALSE);
		break;
	case DGR_AN_EV_ORPHAN:
		tick_stat_node(st, "Doorbells orphan", conn_node, FALSE);
		break;
	case DGR_AN_EV_DCP_NO_CONN:
		break; /* counted above, outside any connection */
	}
	return TAP_PACKET_REDRAW;
}

static void doorbell_tree_register(void)
{
	stats_tree_register_plugin("dgrdma", "dgrdma_doorbells", "DG-RDMA Doorbells", 0,
				   doorbell_tree_packet, doorbell_tree_init, NULL);
}

void dgrdma_register_stats_tree(void)
{
	static tap_plugin plug;

	plug.register_tap_listener = doorbell_tree_register;
	tap_register_plugin(&plug);
}
