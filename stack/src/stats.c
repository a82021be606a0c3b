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

/* See stats.h. */
uint64_t dgr_tolerable_latency_ns(uint64_t host_buffers, uint64_t fpga_buffers,
				  uint64_t buffer_size, double rate_bytes_s)
{
	double ns;

	if (!host_buffers || !buffer_size || !(rate_bytes_s > 0) || rate_bytes_s > 1e300) {
		return 0;
	}
	ns = (double)(host_buffers + fpga_buffers) * (double)buffer_size * 1e9 / rate_bytes_s;
	/* past the cap (casting it would be undefined), or below 1 ns (0 would read as unknown) */
	if (!(ns < (double)DGR_TOLERABLE_MAX_NS)) {
		return DGR_TOLERABLE_MAX_NS;
	}
	return ns < 1.0 ? 1 : (uint64_t)ns;
}
