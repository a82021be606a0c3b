// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NIC checks for --if IFACE, or for each slave of a bond (the guide: with
 * bonding, ring sizes are set on the underlying interfaces): RX/TX ring size
 * against the maximum, pause frames, interrupt coalescing.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune_priv.h"

#define MAX_SLAVES 16

static const char *onoff(uint32_t v)
{
	return v ? "on" : "off";
}

static int check_ring(struct dgr_tune_report *r, const char *ifname, const char *dir, int rc,
		      const char *why, uint32_t cur, uint32_t max)
{
	struct dgr_tune_item *it;
	char id[32];

	snprintf(id, sizeof(id), "nic.ring.%s", dir);
	it = tune_add(r, id, DGR_TUNE_R_HEALTHY | DGR_TUNE_R_JITTER);
	if (!it) {
		return -DGR_E_NOMEM;
	}
	tune_set(it->subject, "%s", ifname);
	tune_set(it->why,
		 "guide \"Increasing PC Buffer Count\": a bigger %s ring absorbs "
		 "latency events before the NIC drops",
		 strcmp(dir, "rx") == 0 ? "RX" : "TX");
	if (rc < 0) {
		tune_set(it->recommended, "the maximum");
		tune_unknown(it, why);
		return 0;
	}
	tune_set(it->current, "%" PRIu32 " (max %" PRIu32 ")", cur, max);
	tune_set(it->recommended, "%" PRIu32 " (the maximum)", max);
	if (cur >= max) {
		it->status = DGR_TUNE_OK;
	} else {
		it->status = DGR_TUNE_FIX;
		it->fix_runtime = true;
		tune_set(it->fix, "ethtool -G %s %s %" PRIu32, ifname, dir, max);
	}
	return 0;
}

static int check_one(struct dgr_tune_report *r, const char *root, const char *ifname)
{
	struct dgr_tune_item *it;
	struct tune_rings rings = { 0 };
	struct tune_pause pause;
	struct tune_coalesce co;
	char why[160];
	int rc;

	rc = tune_eth_rings(root, ifname, &rings, why, sizeof(why));
	if (check_ring(r, ifname, "rx", rc, why, rings.rx, rings.rx_max) < 0 ||
	    check_ring(r, ifname, "tx", rc, why, rings.tx, rings.tx_max) < 0) {
		return -DGR_E_NOMEM;
	}

	it = tune_add(r, "nic.pause", DGR_TUNE_R_JITTER | DGR_TUNE_R_THROUGHPUT);
	if (!it) {
		return -DGR_E_NOMEM;
	}
	tune_set(it->subject, "%s", ifname);
	tune_set(it->recommended, "rx off, tx off");
	tune_set(it->why, "FreeBSD RSS experiments: flow control skewed the results; pause frames "
			  "stall the sender instead of showing the loss");
	if (tune_eth_pause(root, ifname, &pause, why, sizeof(why)) < 0) {
		tune_unknown(it, why);
	} else {
		tune_set(it->current, "autoneg %s, rx %s, tx %s", onoff(pause.autoneg),
			 onoff(pause.rx), onoff(pause.tx));
		if (pause.rx || pause.tx) {
			it->status = DGR_TUNE_FIX;
			it->fix_runtime = true;
			tune_set(it->fix, "ethtool -A %s autoneg off rx off tx off", ifname);
		} else {
			it->status = DGR_TUNE_OK;
		}
	}

	it = tune_add(r, "nic.coalesce", DGR_TUNE_R_JITTER | DGR_TUNE_R_THROUGHPUT);
	if (!it) {
		return -DGR_E_NOMEM;
	}
	tune_set(it->subject, "%s", ifname);
	tune_set(it->recommended, "adaptive-rx off, adaptive-tx off");
	tune_set(it->why, "adaptive interrupt coalescing changes the delivery delay with the load, "
			  "which adds doorbell jitter");
	if (tune_eth_coalesce(root, ifname, &co, why, sizeof(why)) < 0) {
		tune_unknown(it, why);
	} else {
		tune_set(it->current,
			 "rx-usecs %" PRIu32 ", rx-frames %" PRIu32 ", tx-usecs %" PRIu32
			 ", tx-frames %" PRIu32 ", adaptive-rx %s, adaptive-tx %s",
			 co.rx_usecs, co.rx_frames, co.tx_usecs, co.tx_frames,
			 onoff(co.adaptive_rx), onoff(co.adaptive_tx));
		if (co.adaptive_rx || co.adaptive_tx) {
			it->status = DGR_TUNE_FIX;
			it->fix_runtime = true;
			tune_set(it->fix, "ethtool -C %s adaptive-rx off adaptive-tx off", ifname);
		} else {
			it->status = DGR_TUNE_OK;
		}
	}
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* Names of ROOT/sys/class/net entries other than lo, sorted, at most 8. */
static void list_ifaces(const char *root, char *buf, size_t size)
{
	char full[4096], names[8][16];
	struct dirent *de;
	size_t len = 0;
	int i, n = 0;
	DIR *d;

	buf[0] = '\0';
	if (tune_path(root, "/sys/class/net", full, sizeof(full)) < 0 || !(d = opendir(full))) {
		return;
	}
	while ((de = readdir(d)) != NULL && n < 8) {
		if (de->d_name[0] == '.' || strcmp(de->d_name, "lo") == 0 ||
		    strlen(de->d_name) > 15) {
			continue;
		}
		snprintf(names[n++], sizeof(names[0]), "%s", de->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), cmp_name);
	for (i = 0; i < n && len < size; i++) {
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "", names[i]);
	}
}

/* Returns 0 or -DGR_E_NOMEM. */
int tune_check_nic(const struct dgr_tune_opts *o, struct dgr_tune_report *r)
{
	char slaves[MAX_SLAVES][16], list[MAX_SLAVES * 17];
	struct dgr_tune_item *it;
	size_t len = 0;
	int i, n;

	if (!o->iface) {
		it = tune_add(r, "nic",
			      DGR_TUNE_R_HEALTHY | DGR_TUNE_R_JITTER | DGR_TUNE_R_THROUGHPUT);
		if (!it) {
			return -DGR_E_NOMEM;
		}
		tune_set(it->recommended, "rings at maximum, pause off, adaptive coalescing off");
		tune_set(it->why,
			 "guide \"Increasing PC Buffer Count\": NIC rings; give --if IFACE");
		list_ifaces(o->root, list, sizeof(list));
		if (list[0]) {
			char why[sizeof(list) + 48];

			snprintf(why, sizeof(why), "no --if IFACE given; interfaces: %s", list);
			tune_unknown(it, why);
		} else {
			tune_unknown(it, "no --if IFACE given");
		}
		return 0;
	}
	n = tune_bond_slaves(o->root, o->iface, slaves, MAX_SLAVES);
	if (n == 0) {
		return check_one(r, o->root, o->iface);
	}
	it = tune_add(r, "nic.bond", DGR_TUNE_R_HEALTHY | DGR_TUNE_R_JITTER);
	if (!it) {
		return -DGR_E_NOMEM;
	}
	list[0] = '\0';
	for (i = 0; i < n; i++) {
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", i ? " " : "",
					slaves[i]);
	}
	tune_set(it->subject, "%s", o->iface);
	tune_set(it->current, "slaves %s", list);
	tune_set(it->recommended, "tune each slave");
	tune_set(it->why, "guide \"Increasing PC Buffer Count\": with bonding, set ring sizes on "
			  "each underlying interface");
	for (i = 0; i < n; i++) {
		if (check_one(r, o->root, slaves[i]) < 0) {
			return -DGR_E_NOMEM;
		}
	}
	return 0;
}
