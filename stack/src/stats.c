/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Names of the connection counters and thread roles, the nearest-rank percentile (dgrdma/stats.h).
 */
#include <dgrdma/stats.h>

const char *const dgr_conn_stats_names[DGR_CONN_STATS_NFIELDS] = {
#define DGR_STATS_X_NAME(name) #name,
	DGR_CONN_STATS_FIELDS(DGR_STATS_X_NAME)
#undef DGR_STATS_X_NAME
};

/* Returns the role's name, "unknown" for a value outside the enum. */
const char *dgr_thread_role_name(enum dgr_thread_role role)
{
	switch (role) {
	case DGR_ROLE_RX:
		return "rx";
	case DGR_ROLE_TX:
		return "tx";
	case DGR_ROLE_CONSUMER:
		return "consumer";
	case DGR_ROLE_CONTROL:
		return "control";
	case DGR_ROLE_PRODUCER:
		return "producer";
	}
	return "unknown";
}

/* See stats.h. */
uint64_t dgr_percentile_nearest_rank(const uint64_t *sorted, size_t n, unsigned int per_mille)
{
	size_t rank = (size_t)(((uint64_t)per_mille * n + 999) / 1000);

	if (rank < 1) {
		rank = 1;
	}
	if (rank > n) {
		rank = n;
	}
	return sorted[rank - 1];
}
