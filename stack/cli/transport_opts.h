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

#include "opts.h"

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
	DGR_TU_HEAD DGR_TU_IF DGR_TU_PEER_MAC DGR_TU_UDP DGR_TU_BIND DGR_TU_PEER_UDP DGR_TU_MTU    \
	DGR_TU_RCVBUF(rcvbuf_default)                                                              \
	DGR_TU_NO_RX_RING DGR_TU_SNDBUF DGR_TU_BUSY_POLL DGR_TU_BATCH

/* The usage lines one by one: the option tables' rows (DGR_TRANSPORT_OPT_ROWS) use them too. */
#define DGR_TU_HEAD	"Transport (raw Ethernet or UDP):\n"
#define DGR_TU_IF	"  --if IFACE            raw Ethernet on IFACE (ethertypes 0xF042, 0xF040)\n"
#define DGR_TU_PEER_MAC "  --peer MAC            peer MAC address (aa:bb:cc:dd:ee:ff) with --if\n"
#define DGR_TU_UDP	"  --udp                 UDP instead of raw Ethernet (no privileges needed)\n"
#define DGR_TU_BIND                                                                                \
	"  --bind ADDR[:PORT]    local IPv4 address and port with --udp (default 0.0.0.0:18078)\n"
#define DGR_TU_PEER_UDP                                                                            \
	"  --peer ADDR[:PORT]    peer IPv4 address and port with --udp (default port 18078)\n"
#define DGR_TU_MTU                                                                                 \
	"  --mtu N               frame size limit, 64..65535 (default: interface MTU, UDP 9000)\n"
#define DGR_TU_RCVBUF(rcvbuf_default)                                                              \
	"  --rcvbuf BYTES        socket receive buffer (SO_RCVBUFFORCE, else SO_RCVBUF);\n"        \
	"                        with --if the size of the receive ring (default:\n"               \
	"                        " rcvbuf_default ")\n"
#define DGR_TU_NO_RX_RING                                                                          \
	"  --no-rx-ring          with --if, receive with recvmmsg instead of a\n"                  \
	"                        PACKET_RX_RING (one more copy per frame)\n"
#define DGR_TU_SNDBUF                                                                              \
	"  --sndbuf BYTES        socket send buffer (SO_SNDBUFFORCE, else SO_SNDBUF)\n"
#define DGR_TU_BUSY_POLL                                                                           \
	"  --busy-poll USEC      busy-poll the socket (SO_BUSY_POLL) and spin instead of "         \
	"sleeping\n"
#define DGR_TU_BATCH "  --batch N             packets per recvmmsg/sendmmsg, 1..1024 (default 64)\n"

/*
 * The transport rows' paragraphs of the man pages' OPTIONS (opts.h's man field), the same
 * in dgrdma-host's, dgrdma-ctl's and dgrdma-fpga's pages.
 */
#define DGR_TM_HEAD ".SS Transport (raw Ethernet or UDP)\n"
#define DGR_TM_IF                                                                                  \
	"Raw Ethernet on IFACE (ethertypes 0xF042 and 0xF040; needs CAP_NET_RAW), toward the "     \
	"peer's\n"                                                                                 \
	"MAC address\n"                                                                            \
	".RB ( \\-\\-peer ).\n"
#define DGR_TM_PEER                                                                                \
	"The peer: with\n"                                                                         \
	".BR \\-\\-if ,\n"                                                                         \
	"its MAC address (aa:bb:cc:dd:ee:ff); with\n"                                              \
	".BR \\-\\-udp ,\n"                                                                        \
	"its IPv4 ADDR[:PORT] (default port 18078).\n"
#define DGR_TM_UDP                                                                                 \
	"UDP instead of raw Ethernet (no privileges needed), from the local address of\n"          \
	".B \\-\\-bind\n"                                                                          \
	"to the peer's.\n"
#define DGR_TM_BIND "The local IPv4 address and port with\n.B \\-\\-udp\n(default 0.0.0.0:18078).\n"
#define DGR_TM_MTU                                                                                 \
	"The frame size limit, 64..65535 (default: the interface's MTU; over UDP 9000).\n"
#define DGR_TM_RCVBUF(rcvbuf_default)                                                              \
	"The socket receive buffer, 4K..1G (SO_RCVBUFFORCE when permitted, else SO_RCVBUF); "      \
	"with\n"                                                                                   \
	".B \\-\\-if\n"                                                                            \
	"the size of the receive ring. Without it: " rcvbuf_default ".\n"
#define DGR_TM_NO_RX_RING                                                                          \
	"With\n"                                                                                   \
	".BR \\-\\-if ,\n"                                                                         \
	"receive with recvmmsg instead of a PACKET_RX_RING (one more copy per frame).\n"
#define DGR_TM_SNDBUF                                                                              \
	"The socket send buffer, 4K..1G (SO_SNDBUFFORCE when permitted, else SO_SNDBUF).\n"
#define DGR_TM_BUSY_POLL                                                                           \
	"Busy-poll the socket (SO_BUSY_POLL) for USEC, 0..1000000, and spin instead of "           \
	"sleeping.\n"
#define DGR_TM_BATCH "Packets per recvmmsg/sendmmsg call, 1..1024 (default 64).\n"

/*
 * The transport's rows of a tool's option table (opts.h), with the ranges
 * dgr_transport_parse_opt checks and the usage lines above; rcvbuf_default as for
 * DGR_TRANSPORT_USAGE_WITH. --peer is a string (a MAC or ADDR[:PORT]) the transport
 * resolves.
 */
#define DGR_TRANSPORT_OPT_ROWS(rcvbuf_default)                                                     \
	{ .type = DGR_OPT_TEXT, .usage = DGR_TU_HEAD, .man = DGR_TM_HEAD },                        \
	    { .id = DGR_OPT_IF,                                                                    \
	      .name = "if",                                                                        \
	      .type = DGR_OPT_STRING,                                                              \
	      .metavar = "IFACE",                                                                  \
	      .usage = DGR_TU_IF,                                                                  \
	      .man = DGR_TM_IF },                                                                  \
	    { .id = DGR_OPT_PEER,                                                                  \
	      .name = "peer",                                                                      \
	      .type = DGR_OPT_STRING,                                                              \
	      .metavar = "PEER",                                                                   \
	      .usage = DGR_TU_PEER_MAC,                                                            \
	      .man = DGR_TM_PEER },                                                                \
	    { .id = DGR_OPT_UDP,                                                                   \
	      .name = "udp",                                                                       \
	      .type = DGR_OPT_FLAG,                                                                \
	      .usage = DGR_TU_UDP,                                                                 \
	      .man = DGR_TM_UDP },                                                                 \
	    { .id = DGR_OPT_BIND,                                                                  \
	      .name = "bind",                                                                      \
	      .type = DGR_OPT_STRING,                                                              \
	      .metavar = "ADDR[:PORT]",                                                            \
	      .usage = DGR_TU_BIND DGR_TU_PEER_UDP,                                                \
	      .man = DGR_TM_BIND },                                                                \
	    { .id = DGR_OPT_MTU,                                                                   \
	      .name = "mtu",                                                                       \
	      .type = DGR_OPT_COUNT,                                                               \
	      .metavar = "N",                                                                      \
	      .min = 64,                                                                           \
	      .max = 65535,                                                                        \
	      .usage = DGR_TU_MTU,                                                                 \
	      .man = DGR_TM_MTU },                                                                 \
	    { .id = DGR_OPT_RCVBUF,                                                                \
	      .name = "rcvbuf",                                                                    \
	      .type = DGR_OPT_SIZE,                                                                \
	      .metavar = "BYTES",                                                                  \
	      .min = 4096,                                                                         \
	      .max = 1024ull * 1024 * 1024,                                                        \
	      .usage = DGR_TU_RCVBUF(rcvbuf_default),                                              \
	      .man = DGR_TM_RCVBUF(rcvbuf_default) },                                              \
	    { .id = DGR_OPT_NO_RX_RING,                                                            \
	      .name = "no-rx-ring",                                                                \
	      .type = DGR_OPT_FLAG,                                                                \
	      .usage = DGR_TU_NO_RX_RING,                                                          \
	      .man = DGR_TM_NO_RX_RING },                                                          \
	    { .id = DGR_OPT_SNDBUF,                                                                \
	      .name = "sndbuf",                                                                    \
	      .type = DGR_OPT_SIZE,                                                                \
	      .metavar = "BYTES",                                                                  \
	      .min = 4096,                                                                         \
	      .max = 1024ull * 1024 * 1024,                                                        \
	      .usage = DGR_TU_SNDBUF,                                                              \
	      .man = DGR_TM_SNDBUF },                                                              \
	    { .id = DGR_OPT_BUSY_POLL,                                                             \
	      .name = "busy-poll",                                                                 \
	      .type = DGR_OPT_COUNT,                                                               \
	      .metavar = "USEC",                                                                   \
	      .min = 0,                                                                            \
	      .max = 1000000,                                                                      \
	      .usage = DGR_TU_BUSY_POLL,                                                           \
	      .man = DGR_TM_BUSY_POLL },                                                           \
	{                                                                                          \
		.id = DGR_OPT_BATCH, .name = "batch", .type = DGR_OPT_COUNT, .metavar = "N",       \
		.min = 1, .max = DGR_TRANSPORT_MAX_BATCH, .usage = DGR_TU_BATCH,                   \
		.man = DGR_TM_BATCH                                                                \
	}

/*
 * Handles one getopt_long result. Returns 1 when opt was a transport option
 * and arg was valid, 0 when opt is not a transport option (the caller handles
 * it), or a negative DGR_E_INVAL with errbuf naming the option and the
 * accepted range.
 */
int dgr_transport_parse_opt(struct dgr_transport_opts *o, int opt, const char *arg, char *errbuf);

#endif
