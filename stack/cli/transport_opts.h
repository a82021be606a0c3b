/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The transport's command-line options, the same in every tool (--if, --peer,
 * --udp, --bind, --mtu, --rcvbuf, --sndbuf, --busy-poll, --no-rx-ring,
 * --batch): getopt_long entries, the usage lines, and the parser that fills
 * the library's struct dgr_transport_opts (dgrdma/transport.h).
 * Part of the tools' internal archive (stack/cli/): never installed.
 */
#ifndef DGR_CLI_TRANSPORT_OPTS_H
#define DGR_CLI_TRANSPORT_OPTS_H

#include <getopt.h>

#include <dgrdma/transport.h>

/* Long options every tool accepts for the transport; see DGR_TRANSPORT_USAGE. */
enum {
	DGR_OPT_IF = 0x7100,
	DGR_OPT_PEER,
	DGR_OPT_UDP,
	DGR_OPT_BIND,
	DGR_OPT_MTU,
	DGR_OPT_RCVBUF,
	DGR_OPT_SNDBUF,
	DGR_OPT_BUSY_POLL,
	DGR_OPT_BATCH,
	DGR_OPT_NO_RX_RING,
};

/* Entries for a getopt_long option table (put before the terminating zero entry). */
#define DGR_TRANSPORT_LONGOPTS                                                                     \
	{ "if", required_argument, NULL, DGR_OPT_IF },                                             \
	    { "peer", required_argument, NULL, DGR_OPT_PEER },                                     \
	    { "udp", no_argument, NULL, DGR_OPT_UDP },                                             \
	    { "bind", required_argument, NULL, DGR_OPT_BIND },                                     \
	    { "mtu", required_argument, NULL, DGR_OPT_MTU },                                       \
	    { "rcvbuf", required_argument, NULL, DGR_OPT_RCVBUF },                                 \
	    { "sndbuf", required_argument, NULL, DGR_OPT_SNDBUF },                                 \
	    { "busy-poll", required_argument, NULL, DGR_OPT_BUSY_POLL },                           \
	    { "no-rx-ring", no_argument, NULL, DGR_OPT_NO_RX_RING },                               \
	{                                                                                          \
		"batch", required_argument, NULL, DGR_OPT_BATCH                                    \
	}

/*
 * Lines for usage(); rcvbuf_default says what the tool asks for without --rcvbuf (each sizes
 * it for its own buffers: dgrdma-host twice its pool, 8..256 MiB).
 */
#define DGR_TRANSPORT_USAGE DGR_TRANSPORT_USAGE_WITH("a 4 MiB ring; sockets: the system's")
#define DGR_TRANSPORT_USAGE_WITH(rcvbuf_default)                                                   \
	"Transport (raw Ethernet or UDP):\n"                                                       \
	"  --if IFACE            raw Ethernet on IFACE (ethertypes 0xF042, 0xF040)\n"              \
	"  --peer MAC            peer MAC address (aa:bb:cc:dd:ee:ff) with --if\n"                 \
	"  --udp                 UDP instead of raw Ethernet (no privileges needed)\n"             \
	"  --bind ADDR[:PORT]    local IPv4 address and port with --udp (default 0.0.0.0:18078)\n" \
	"  --peer ADDR[:PORT]    peer IPv4 address and port with --udp (default port 18078)\n"     \
	"  --mtu N               frame size limit, 64..65535 (default: interface MTU, UDP 9000)\n" \
	"  --rcvbuf BYTES        socket receive buffer (SO_RCVBUFFORCE, else SO_RCVBUF);\n"        \
	"                        with --if the size of the receive ring (default:\n"               \
	"                        " rcvbuf_default ")\n"                                            \
	"  --no-rx-ring          with --if, receive with recvmmsg instead of a\n"                  \
	"                        PACKET_RX_RING (one more copy per frame)\n"                       \
	"  --sndbuf BYTES        socket send buffer (SO_SNDBUFFORCE, else SO_SNDBUF)\n"            \
	"  --busy-poll USEC      busy-poll the socket (SO_BUSY_POLL) and spin instead of "         \
	"sleeping\n"                                                                               \
	"  --batch N             packets per recvmmsg/sendmmsg, 1..1024 (default 64)\n"

/*
 * Handles one getopt_long result. Returns 1 when opt was a transport option
 * and arg was valid, 0 when opt is not a transport option (the caller handles
 * it), or a negative DGR_E_INVAL with errbuf naming the option and the
 * accepted range.
 */
int dgr_transport_parse_opt(struct dgr_transport_opts *o, int opt, const char *arg, char *errbuf);

#endif
