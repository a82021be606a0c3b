// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NIC ring, pause and coalescing parameters. On the host they come from the
 * SIOCETHTOOL ioctl (what `ethtool -g/-a/-c` use, without running ethtool);
 * under a fake root from the fixture file ROOT/dgrdma-tune/ethtool/IFACE,
 * one "key value" per line (format in docs/tune.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "tune_priv.h"

#define FIXTURE_DIR "/dgrdma-tune/ethtool/"
#define MAX_KEYS    32

struct fixture {
	int n;
	char key[MAX_KEYS][32];
	char val[MAX_KEYS][32];
};

static const struct {
	const char *name;
	int err;
} errno_names[] = {
	{ "EOPNOTSUPP", EOPNOTSUPP }, { "EPERM", EPERM },   { "ENODEV", ENODEV },
	{ "EINVAL", EINVAL },	      { "EACCES", EACCES }, { "EIO", EIO },
};

static int errno_from_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++) {
		if (strcmp(name, errno_names[i].name) == 0) {
			return errno_names[i].err;
		}
	}
	return EIO;
}

static void errno_reason(int err, char *why, size_t why_size)
{
	if (err == EOPNOTSUPP) {
		snprintf(why, why_size, "%s: the driver does not expose these parameters",
			 strerror(err));
	} else if (err == ENODEV) {
		snprintf(why, why_size, "no such interface");
	} else if (err == EPERM || err == EACCES) {
		snprintf(why, why_size, "%s: needs CAP_NET_ADMIN (run as root)", strerror(err));
	} else {
		snprintf(why, why_size, "%s", strerror(err));
	}
}

static int fixture_load(const char *root, const char *ifname, struct fixture *fx, char *why,
			size_t why_size)
{
	char path[256], text[4096], *line, *save = NULL;
	int rc;

	snprintf(path, sizeof(path), FIXTURE_DIR "%s", ifname);
	rc = tune_read(root, path, text, sizeof(text), why, why_size);
	if (rc < 0) {
		/* A missing interface reads like the ioctl's ENODEV. */
		snprintf(path, sizeof(path), "/sys/class/net/%s", ifname);
		if (!tune_exists(root, path)) {
			errno_reason(ENODEV, why, why_size);
		} else {
			snprintf(why, why_size, "no fixture dgrdma-tune/ethtool/%s", ifname);
		}
		return rc;
	}
	fx->n = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char k[32], v[32];

		if (line[0] == '#' || sscanf(line, "%31s %31s", k, v) != 2) {
			continue;
		}
		if (fx->n == MAX_KEYS) {
			break;
		}
		memcpy(fx->key[fx->n], k, sizeof(k));
		memcpy(fx->val[fx->n], v, sizeof(v));
		fx->n++;
	}
	return 0;
}

static const char *fixture_get(const struct fixture *fx, const char *key)
{
	int i;

	for (i = 0; i < fx->n; i++) {
		if (strcmp(fx->key[i], key) == 0) {
			return fx->val[i];
		}
	}
	return NULL;
}

/*
 * Fills n u32 values named group.names[i] from a fixture. Returns 0, or
 * -DGR_E_SYS with why set (group.error names an errno, or a key is missing).
 */
static int fixture_group(const char *root, const char *ifname, const char *group,
			 const char *const *names, uint32_t *vals, int n, char *why,
			 size_t why_size)
{
	struct fixture fx;
	char key[48], *end;
	const char *v;
	unsigned long x;
	int i, rc;

	rc = fixture_load(root, ifname, &fx, why, why_size);
	if (rc < 0) {
		return rc;
	}
	snprintf(key, sizeof(key), "%s.error", group);
	v = fixture_get(&fx, key);
	if (v) {
		errno_reason(errno_from_name(v), why, why_size);
		return -DGR_E_SYS;
	}
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "%s.%s", group, names[i]);
		v = fixture_get(&fx, key);
		if (!v) {
			snprintf(why, why_size, "fixture has no %s", key);
			return -DGR_E_SYS;
		}
		x = strtoul(v, &end, 10);
		if (*end || x > UINT32_MAX) {
			snprintf(why, why_size, "fixture %s is not a number", key);
			return -DGR_E_SYS;
		}
		vals[i] = (uint32_t)x;
	}
	return 0;
}

/* Runs one SIOCETHTOOL command. Returns 0 or -DGR_E_SYS with why set. */
static int eth_ioctl(const char *ifname, void *data, char *why, size_t why_size)
{
	struct ifreq ifr;
	int fd, err, ret = 0;

	if (strlen(ifname) >= IFNAMSIZ) {
		snprintf(why, why_size, "interface name longer than %d", IFNAMSIZ - 1);
		return -DGR_E_INVAL;
	}
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		errno_reason(errno, why, why_size);
		return -DGR_E_SYS;
	}
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, strlen(ifname));
	ifr.ifr_data = data;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0) {
		err = errno;
		errno_reason(err, why, why_size);
		ret = (err == EPERM || err == EACCES) ? -DGR_E_PERM : -DGR_E_SYS;
	}
	close(fd);
	return ret;
}

static const char *const ring_keys[] = { "rx_max", "rx", "tx_max", "tx" };

/* Returns 0 or negative with why set. */
int tune_eth_rings(const char *root, const char *ifname, struct tune_rings *out, char *why,
		   size_t why_size)
{
	struct ethtool_ringparam rp = { .cmd = ETHTOOL_GRINGPARAM };
	uint32_t v[4];
	int rc;

	if (!tune_root_is_host(root)) {
		rc = fixture_group(root, ifname, "ring", ring_keys, v, 4, why, why_size);
		if (rc == 0) {
			*out = (struct tune_rings){ v[0], v[1], v[2], v[3] };
		}
		return rc;
	}
	rc = eth_ioctl(ifname, &rp, why, why_size);
	if (rc == 0) {
		*out = (struct tune_rings){ rp.rx_max_pending, rp.rx_pending, rp.tx_max_pending,
					    rp.tx_pending };
	}
	return rc;
}

static const char *const pause_keys[] = { "autoneg", "rx", "tx" };

/* Returns 0 or negative with why set. */
int tune_eth_pause(const char *root, const char *ifname, struct tune_pause *out, char *why,
		   size_t why_size)
{
	struct ethtool_pauseparam pp = { .cmd = ETHTOOL_GPAUSEPARAM };
	uint32_t v[3];
	int rc;

	if (!tune_root_is_host(root)) {
		rc = fixture_group(root, ifname, "pause", pause_keys, v, 3, why, why_size);
		if (rc == 0) {
			*out = (struct tune_pause){ v[0], v[1], v[2] };
		}
		return rc;
	}
	rc = eth_ioctl(ifname, &pp, why, why_size);
	if (rc == 0) {
		*out = (struct tune_pause){ pp.autoneg, pp.rx_pause, pp.tx_pause };
	}
	return rc;
}

static const char *const coalesce_keys[] = { "rx_usecs",  "rx_frames",	 "tx_usecs",
					     "tx_frames", "adaptive_rx", "adaptive_tx" };

/* Returns 0 or negative with why set. */
int tune_eth_coalesce(const char *root, const char *ifname, struct tune_coalesce *out, char *why,
		      size_t why_size)
{
	struct ethtool_coalesce ec = { .cmd = ETHTOOL_GCOALESCE };
	uint32_t v[6];
	int rc;

	if (!tune_root_is_host(root)) {
		rc = fixture_group(root, ifname, "coalesce", coalesce_keys, v, 6, why, why_size);
		if (rc == 0) {
			*out = (struct tune_coalesce){ v[0], v[1], v[2], v[3], v[4], v[5] };
		}
		return rc;
	}
	rc = eth_ioctl(ifname, &ec, why, why_size);
	if (rc == 0) {
		*out = (struct tune_coalesce){
			ec.rx_coalesce_usecs,	     ec.rx_max_coalesced_frames,
			ec.tx_coalesce_usecs,	     ec.tx_max_coalesced_frames,
			ec.use_adaptive_rx_coalesce, ec.use_adaptive_tx_coalesce
		};
	}
	return rc;
}

/* Rewrites the lines "keys[i] ..." of a fixture file with vals[i]; other lines are kept. */
static int fixture_set(const char *root, const char *ifname, const char *const *keys,
		       const uint32_t *vals, int n, char *errbuf)
{
	char path[256], text[4096], out[4096], why[128], *line, *save = NULL;
	size_t len = 0;
	int rc, i;

	snprintf(path, sizeof(path), FIXTURE_DIR "%s", ifname);
	rc = tune_read(root, path, text, sizeof(text), why, sizeof(why));
	if (rc < 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: %s", ifname, why);
		return rc;
	}
	out[0] = '\0';
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int w = -1;

		for (i = 0; i < n && w < 0; i++) {
			size_t kl = strlen(keys[i]);

			if (strncmp(line, keys[i], kl) == 0 && line[kl] == ' ') {
				w = snprintf(out + len, sizeof(out) - len, "%s %" PRIu32 "\n",
					     keys[i], vals[i]);
			}
		}
		if (w < 0) {
			w = snprintf(out + len, sizeof(out) - len, "%s\n", line);
		}
		if (w < 0 || (size_t)w >= sizeof(out) - len) {
			snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: fixture too large", ifname);
			return -DGR_E_NOSPACE;
		}
		len += (size_t)w;
	}
	return tune_write(root, path, out, errbuf);
}

static int fixture_set_rings(const char *root, const char *ifname, uint32_t rx, uint32_t tx,
			     char *errbuf)
{
	const char *keys[2];
	uint32_t vals[2];
	int n = 0;

	if (rx) {
		keys[n] = "ring.rx";
		vals[n++] = rx;
	}
	if (tx) {
		keys[n] = "ring.tx";
		vals[n++] = tx;
	}
	return fixture_set(root, ifname, keys, vals, n, errbuf);
}

/* Returns 0, -DGR_E_PERM (names CAP_NET_ADMIN) or -DGR_E_SYS. */
int tune_eth_pause_off(const char *root, const char *ifname, char *errbuf)
{
	static const char *const keys[] = { "pause.autoneg", "pause.rx", "pause.tx" };
	static const uint32_t zeros[] = { 0, 0, 0 };
	struct ethtool_pauseparam pp = { .cmd = ETHTOOL_GPAUSEPARAM };
	struct tune_pause cur;
	char why[160];
	int rc;

	rc = tune_eth_pause(root, ifname, &cur, why, sizeof(why));
	if (rc < 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: %s", ifname, why);
		return rc;
	}
	if (!tune_root_is_host(root)) {
		return fixture_set(root, ifname, keys, zeros, 3, errbuf);
	}
	rc = eth_ioctl(ifname, &pp, why, sizeof(why));
	if (rc == 0) {
		pp.cmd = ETHTOOL_SPAUSEPARAM;
		pp.autoneg = 0;
		pp.rx_pause = 0;
		pp.tx_pause = 0;
		rc = eth_ioctl(ifname, &pp, why, sizeof(why));
	}
	if (rc < 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: ETHTOOL_SPAUSEPARAM: %s", ifname, why);
	}
	return rc;
}

/* Returns 0, -DGR_E_PERM (names CAP_NET_ADMIN), -DGR_E_INVAL or -DGR_E_SYS. */
int tune_eth_set_rings(const char *root, const char *ifname, uint32_t rx, uint32_t tx, char *errbuf)
{
	struct ethtool_ringparam rp = { .cmd = ETHTOOL_GRINGPARAM };
	struct tune_rings cur;
	char why[160];
	int rc;

	rc = tune_eth_rings(root, ifname, &cur, why, sizeof(why));
	if (rc < 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: %s", ifname, why);
		return rc;
	}
	if (rx > cur.rx_max || tx > cur.tx_max) {
		snprintf(errbuf, DGR_ERRBUF_SIZE,
			 "%s: ring size above the maximum (rx %" PRIu32 ", tx %" PRIu32 ")", ifname,
			 cur.rx_max, cur.tx_max);
		return -DGR_E_INVAL;
	}
	if (!tune_root_is_host(root)) {
		return fixture_set_rings(root, ifname, rx, tx, errbuf);
	}
	rc = eth_ioctl(ifname, &rp, why, sizeof(why));
	if (rc < 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: %s", ifname, why);
		return rc;
	}
	rp.cmd = ETHTOOL_SRINGPARAM;
	if (rx) {
		rp.rx_pending = rx;
	}
	if (tx) {
		rp.tx_pending = tx;
	}
	rc = eth_ioctl(ifname, &rp, why, sizeof(why));
	if (rc < 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: ETHTOOL_SRINGPARAM: %s", ifname, why);
	}
	return rc;
}

/* Returns the number of slaves (0 when not a bond), at most max. */
int tune_bond_slaves(const char *root, const char *ifname, char (*names)[16], int max)
{
	char path[128], text[1024], why[128], *tok, *save = NULL;
	int n = 0;

	snprintf(path, sizeof(path), "/sys/class/net/%s/bonding/slaves", ifname);
	if (tune_read(root, path, text, sizeof(text), why, sizeof(why)) < 0) {
		return 0;
	}
	for (tok = strtok_r(text, " \t\n", &save); tok && n < max;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		snprintf(names[n++], 16, "%.15s", tok);
	}
	return n;
}
