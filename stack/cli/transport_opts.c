/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The transport's command-line options (transport_opts.h). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "transport_opts.h"

static int set_kind(struct dgr_transport_opts *o, enum dgr_transport_kind k, const char *opt,
		    char *errbuf)
{
	if (o->kind != DGR_TRANSPORT_NONE && o->kind != k) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "%s: --if (raw Ethernet) and --udp exclude each other", opt);
	}
	o->kind = k;
	return 0;
}

/* Returns 1 (consumed), 0 (not a transport option) or -DGR_E_INVAL. */
int dgr_transport_parse_opt(struct dgr_transport_opts *o, int opt, const char *arg, char *errbuf)
{
	uint64_t v;
	int rc;

	switch (opt) {
	case DGR_OPT_IF:
		if (!arg || !*arg || strlen(arg) >= sizeof(o->ifname)) {
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL,
			    "--if: '%s' is not an interface name (1..%zu characters)",
			    arg ? arg : "", sizeof(o->ifname) - 1);
		}
		rc = set_kind(o, DGR_TRANSPORT_ETHER, "--if", errbuf);
		if (rc < 0) {
			return rc;
		}
		snprintf(o->ifname, sizeof(o->ifname), "%s", arg);
		return 1;
	case DGR_OPT_UDP:
		rc = set_kind(o, DGR_TRANSPORT_UDP, "--udp", errbuf);
		return rc < 0 ? rc : 1;
	case DGR_OPT_PEER:
		if (!arg || strlen(arg) >= sizeof(o->peer_arg)) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL, "--peer: value too long");
		}
		snprintf(o->peer_arg, sizeof(o->peer_arg), "%s", arg);
		return 1;
	case DGR_OPT_BIND:
		if (dgr_parse_inet(arg, DGR_UDP_PORT, &o->bind_addr) < 0) {
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL,
			    "--bind: '%s' is not ADDR[:PORT] (IPv4 address, port 0..65535)",
			    arg ? arg : "");
		}
		return 1;
	case DGR_OPT_MTU:
		rc = dgr_parse_u64("--mtu", arg, 64, 65535, false, &v, errbuf);
		if (rc < 0) {
			return rc;
		}
		o->mtu = (unsigned int)v;
		return 1;
	case DGR_OPT_RCVBUF:
	case DGR_OPT_SNDBUF:
		rc = dgr_parse_u64(opt == DGR_OPT_RCVBUF ? "--rcvbuf" : "--sndbuf", arg, 4096,
				   1024ull * 1024 * 1024, true, &v, errbuf);
		if (rc < 0) {
			return rc;
		}
		if (opt == DGR_OPT_RCVBUF) {
			o->rcvbuf = (int)v;
		} else {
			o->sndbuf = (int)v;
		}
		return 1;
	case DGR_OPT_BUSY_POLL:
		rc = dgr_parse_u64("--busy-poll", arg, 0, 1000000, false, &v, errbuf);
		if (rc < 0) {
			return rc;
		}
		o->busy_poll_us = (unsigned int)v;
		return 1;
	case DGR_OPT_NO_RX_RING:
		o->no_rx_ring = true;
		return 1;
	case DGR_OPT_BATCH:
		rc = dgr_parse_u64("--batch", arg, 1, DGR_TRANSPORT_MAX_BATCH, false, &v, errbuf);
		if (rc < 0) {
			return rc;
		}
		o->batch = (unsigned int)v;
		return 1;
	default:
		return 0;
	}
}
