// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "tshark -q -z dgrdma,latency[,filter]": per connection and data direction,
 * complete transactions (with a flag write), doorbells (matched + orphans),
 * matched doorbells, unmatched transactions, orphan doorbells, transactions
 * still waiting at the end (pending), and the latency of matched doorbells
 * min/p50/p90/p99/p99.9/max/mean; DCP doorbells without a DG-RDMA connection
 * on their own line, as latency-report counts them. Percentiles are nearest-rank (the ceil(p *
 * n)-th smallest value), as latency-report computes them. Fed by the events the analysis stored on
 * the first pass (dgrdma-doorbell-analysis.c).
 */
#include <stdio.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/stat_tap_ui.h>
#include <epan/tap.h>

#include <dgrdma/stats.h>

#include "stats.h"
#include "dgrdma-doorbell-analysis.h"
#include "dgrdma-dissectors.h"

#define LATENCY_CLI "dgrdma,latency"

struct latency_row {
	char *label;
	guint64 txns;
	guint64 doorbells;
	guint64 unmatched;
	guint64 orphans;
	GArray *ns; /* guint64 doorbell latencies (never negative: the matcher clamps at 0) */
};

struct latency_tap {
	char *filter;
	guint64 dcp_no_conn;  /* DCP doorbells without a DG-RDMA connection */
	GHashTable *by_label; /* label -> row */
	GPtrArray *rows;      /* in order of first appearance */
};

static void latency_row_free(gpointer p)
{
	struct latency_row *row = (struct latency_row *)p;

	g_free(row->label);
	g_array_free(row->ns, TRUE);
	g_free(row);
}

static void latency_reset(void *tapdata)
{
	struct latency_tap *t = (struct latency_tap *)tapdata;

	g_hash_table_remove_all(t->by_label);
	g_ptr_array_set_size(t->rows, 0);
	t->dcp_no_conn = 0;
}

static tap_packet_status latency_packet(void *tapdata, packet_info *pinfo, epan_dissect_t *edt,
					const void *data, tap_flags_t flags)
{
	struct latency_tap *t = (struct latency_tap *)tapdata;
	const struct dgr_an_event *ev = (const struct dgr_an_event *)data;
	struct latency_row *row;
	const char *label = ev->conn_label ? ev->conn_label : "?";

	(void)pinfo;
	(void)edt;
	(void)flags;
	if (ev->kind == DGR_AN_EV_DCP_NO_CONN) {
		/* as latency-report: not an orphan of any connection, counted on its own */
		t->dcp_no_conn++;
		return TAP_PACKET_REDRAW;
	}
	row = (struct latency_row *)g_hash_table_lookup(t->by_label, label);
	if (!row) {
		row = g_new0(struct latency_row, 1);
		row->label = g_strdup(label);
		row->ns = g_array_new(FALSE, FALSE, sizeof(guint64));
		g_hash_table_insert(t->by_label, row->label, row);
		g_ptr_array_add(t->rows, row);
	}
	switch (ev->kind) {
	case DGR_AN_EV_TXN_COMPLETE:
		row->txns++;
		break;
	case DGR_AN_EV_DOORBELL: {
		guint64 ns = (guint64)ev->latency.secs * 1000000000 + (guint64)ev->latency.nsecs;

		row->doorbells++;
		g_array_append_val(row->ns, ns);
		break;
	}
	case DGR_AN_EV_UNMATCHED:
		row->unmatched++;
		break;
	case DGR_AN_EV_ORPHAN:
		row->orphans++;
		break;
	case DGR_AN_EV_DCP_NO_CONN:
		break; /* counted above */
	}
	return TAP_PACKET_REDRAW;
}

static gint cmp_guint64(gconstpointer a, gconstpointer b)
{
	guint64 x = *(const guint64 *)a;
	guint64 y = *(const guint64 *)b;

	return x < y ? -1 : (x > y ? 1 : 0);
}

static void print_us(guint64 ns)
{
	printf(" %12.3f", (double)ns / 1000.0);
}

static void latency_draw(void *tapdata)
{
	struct latency_tap *t = (struct latency_tap *)tapdata;
	static const guint permille[] = { 500, 900, 990, 999 };
	guint i;

	printf("\n===================================================================="
	       "================================================\n");
	printf("DG-RDMA doorbell latency (per connection, data direction; latency in "
	       "microseconds)\n");
	printf("Filter: %s\n", t->filter ? t->filter : "<none>");
	for (i = 0; i < t->rows->len; i++) {
		struct latency_row *row = (struct latency_row *)g_ptr_array_index(t->rows, i);
		guint n = row->ns->len;
		guint k;

		printf("\nConnection: %s\n", row->label);
		printf("  transactions %" G_GUINT64_FORMAT "  doorbells %" G_GUINT64_FORMAT
		       "  matched %" G_GUINT64_FORMAT "  unmatched %" G_GUINT64_FORMAT
		       "  orphans %" G_GUINT64_FORMAT "  pending %" G_GUINT64_FORMAT "\n",
		       row->txns, row->doorbells + row->orphans, row->doorbells, row->unmatched,
		       row->orphans,
		       row->txns > row->doorbells + row->unmatched
			   ? row->txns - row->doorbells - row->unmatched
			   : 0);
		if (n == 0) {
			printf("  latency: no doorbells\n");
			continue;
		}
		g_array_sort(row->ns, cmp_guint64);
		{
			const guint64 *v = (const guint64 *)(void *)row->ns->data;
			guint64 sum = 0;

			for (k = 0; k < n; k++) {
				sum += v[k];
			}
			printf("  %12s %12s %12s %12s %12s %12s %12s\n", "min", "p50", "p90", "p99",
			       "p99.9", "max", "mean");
			printf(" ");
			print_us(v[0]);
			for (k = 0; k < G_N_ELEMENTS(permille); k++) {
				/* nearest rank, latency-report's function (dgrdma/stats.h) */
				print_us(dgr_percentile_nearest_rank(v, n, permille[k]));
			}
			print_us(v[n - 1]);
			printf(" %12.3f\n", (double)sum / (double)n / 1000.0);
		}
	}
	if (t->dcp_no_conn) {
		printf("\nDCP doorbells without a DG-RDMA connection: %" G_GUINT64_FORMAT "\n",
		       t->dcp_no_conn);
	}
	printf("===================================================================="
	       "================================================\n");
}

static void latency_finish(void *tapdata)
{
	struct latency_tap *t = (struct latency_tap *)tapdata;

	g_ptr_array_free(t->rows, TRUE);
	g_hash_table_destroy(t->by_label);
	g_free(t->filter);
	g_free(t);
}

static void latency_init(const char *opt_arg, void *userdata)
{
	struct latency_tap *t;
	const char *filter = NULL;
	GString *err;

	(void)userdata;
	if (strncmp(opt_arg, LATENCY_CLI ",", strlen(LATENCY_CLI ",")) == 0) {
		filter = opt_arg + strlen(LATENCY_CLI ",");
	}
	t = g_new0(struct latency_tap, 1);
	t->filter = filter ? g_strdup(filter) : NULL;
	t->rows = g_ptr_array_new();
	t->by_label = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, latency_row_free);
	err = register_tap_listener("dgrdma", t, t->filter, 0, latency_reset, latency_packet,
				    latency_draw, latency_finish);
	if (err) {
		fprintf(stderr, "tshark: couldn't register dgrdma,latency tap: %s\n", err->str);
		g_string_free(err, TRUE);
		latency_finish(t);
	}
}

void dgrdma_register_latency_tap(void)
{
	static tap_param params[] = { { PARAM_FILTER, "filter", "Filter", NULL, TRUE } };
	static stat_tap_ui ui = {
		REGISTER_STAT_GROUP_RESPONSE_TIME,
		"DG-RDMA doorbell latency",
		LATENCY_CLI,
		latency_init,
		G_N_ELEMENTS(params),
		params,
	};

	register_stat_tap_ui(&ui, NULL);
}
