/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private helpers of libdgrtune: root-prefixed file access, the item list,
 * the NIC and device-mapper data sources, and one entry point per check. */
#ifndef DGR_TUNE_PRIV_H
#define DGR_TUNE_PRIV_H

#include "tune.h"

/*
 * Report fields are fixed-size on purpose: snprintf cutting a long value (a
 * path, a kernel release) to its field is the intended bound, so GCC's
 * -Wformat-truncation (which clang does not have) is off in this library.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

/* ---- rootfs.c: every read goes through the root prefix ---- */

/* True when the root is the running host ("/" or NULL). */
bool tune_root_is_host(const char *root);

/* Joins root and an absolute path into buf. Returns 0 or -DGR_E_TOO_LONG. */
int tune_path(const char *root, const char *path, char *buf, size_t size);

/*
 * Reads a small text file under root into buf (NUL-terminated, trailing
 * newline removed). Returns its length, or a negative code with a short reason
 * ("missing", "permission denied", ...) in why.
 */
int tune_read(const char *root, const char *path, char *buf, size_t size, char *why,
	      size_t why_size);

/* Reads a file holding one signed integer. Returns 0 or negative (why set). */
int tune_read_i64(const char *root, const char *path, int64_t *out, char *why, size_t why_size);

/* True when ROOT/path exists. */
bool tune_exists(const char *root, const char *path);

/* Writes text to ROOT/path (no creation). Returns 0, -DGR_E_PERM or -DGR_E_SYS. */
int tune_write(const char *root, const char *path, const char *text, char *errbuf);

/* ---- findings.c ---- */

/* Appends a zeroed item with id and regimes set. Returns it, or NULL (no memory). */
struct dgr_tune_item *tune_add(struct dgr_tune_report *r, const char *id, unsigned int regimes);

/* printf into a fixed item field. */
#define tune_set(field, ...) snprintf((field), sizeof(field), __VA_ARGS__)

/* Marks an item unknown with the reason: current = "unknown (why)". */
void tune_unknown(struct dgr_tune_item *it, const char *why);

/* ---- ethtool_src.c: NIC parameters from SIOCETHTOOL or a fixture ---- */

struct tune_rings {
	uint32_t rx_max, rx, tx_max, tx;
};
struct tune_pause {
	uint32_t autoneg, rx, tx;
};
struct tune_coalesce {
	uint32_t rx_usecs, rx_frames, tx_usecs, tx_frames, adaptive_rx, adaptive_tx;
};

/*
 * Each returns 0, or a negative code with the reason in why (e.g. "Operation
 * not supported (interface has no ring parameters)").
 */
int tune_eth_rings(const char *root, const char *ifname, struct tune_rings *out, char *why,
		   size_t why_size);
int tune_eth_pause(const char *root, const char *ifname, struct tune_pause *out, char *why,
		   size_t why_size);
int tune_eth_coalesce(const char *root, const char *ifname, struct tune_coalesce *out, char *why,
		      size_t why_size);
/* Sets ring sizes (0 keeps the current one). Returns 0, -DGR_E_PERM or -DGR_E_SYS. */
int tune_eth_set_rings(const char *root, const char *ifname, uint32_t rx, uint32_t tx,
		       char *errbuf);

/* Turns pause frames off (autoneg, rx, tx). Returns 0, -DGR_E_PERM or -DGR_E_SYS. */
int tune_eth_pause_off(const char *root, const char *ifname, char *errbuf);

/*
 * Lists the slaves of a bond (ROOT/sys/class/net/IF/bonding/slaves) into
 * names[max][IFNAMSIZ]. Returns the count, 0 when ifname is not a bond.
 */
int tune_bond_slaves(const char *root, const char *ifname, char (*names)[16], int max);

/* ---- dm_table.c: device-mapper tables from DM_TABLE_STATUS or a fixture ---- */

struct tune_dm_table {
	char target[16];     /* first target type, e.g. "crypt" */
	bool same_cpu_crypt; /* crypt optional parameter present */
	char flags[128];     /* crypt optional parameters, space separated; "" if none */
};

/* Returns 0, or negative with the reason in why. Never keeps key material. */
int tune_dm_table(const char *root, const char *dm_name, struct tune_dm_table *out, char *why,
		  size_t why_size);

/* Reads the first target of a DM_TABLE_STATUS answer. Returns 0 or negative (why set). */
int tune_dm_parse_status(const void *answer, size_t size, struct tune_dm_table *out, char *why,
			 size_t why_size);

/* Parses the parameters of one crypt target into out (flags only). Returns 0 or -DGR_E_INVAL. */
int tune_dm_parse_crypt(const char *params, struct tune_dm_table *out);

/* ---- checks: each appends its items; returns 0 or -DGR_E_NOMEM ---- */
int tune_check_sockbuf(const struct dgr_tune_opts *o, struct dgr_tune_report *r);
int tune_check_writeback(const struct dgr_tune_opts *o, struct dgr_tune_report *r);
int tune_check_nic(const struct dgr_tune_opts *o, struct dgr_tune_report *r);
int tune_check_cpuset(const struct dgr_tune_opts *o, struct dgr_tune_report *r);
int tune_check_kernel(const struct dgr_tune_opts *o, struct dgr_tune_report *r);
int tune_check_rt(const struct dgr_tune_opts *o, struct dgr_tune_report *r);
int tune_check_dmcrypt(const struct dgr_tune_opts *o, struct dgr_tune_report *r);
int tune_check_cpufreq(const struct dgr_tune_opts *o, struct dgr_tune_report *r);

/* Guide values shared by check and apply. */
#define TUNE_SOCKBUF_BYTES  50000000ull
#define TUNE_DIRTY_BG_BYTES 192000ull

#endif /* DGR_TUNE_PRIV_H */
