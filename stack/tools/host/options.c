// SPDX-License-Identifier: GPL-2.0-or-later
/* dgrdma-host's command line: usage() and the option table. */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/transport.h>

#include "opts.h"
#include "transport_opts.h"
#include "dgrdma-version.h"
#include "host.h"

enum { MODE_RX = 1, MODE_TX = 2, MODE_PERF = 4 };

/* Rows of an option: FLAG, COUNT (min..max), SIZE, SECS (up to hi s), a STRING or CHOICE. */
#define FLAG(i, n, m, u, ...)                                                                      \
	{                                                                                          \
		.id = (i), .name = (n), .type = DGR_OPT_FLAG, .subcommands = (m), .usage = (u),    \
		__VA_ARGS__                                                                        \
	}
#define COUNT(i, n, mv, lo_, hi_, m, u, ...)                                                       \
	{                                                                                          \
		.id = (i), .name = (n), .type = DGR_OPT_COUNT, .metavar = (mv), .min = (lo_),      \
		.max = (hi_), .subcommands = (m), .usage = (u), __VA_ARGS__                        \
	}
#define SECS(i, n, hi_, u, ...)                                                                    \
	{                                                                                          \
		.id = (i), .name = (n), .type = DGR_OPT_SECONDS, .metavar = "SEC", .hi = (hi_),    \
		.usage = (u), __VA_ARGS__                                                          \
	}
#define STRING(i, n, mv, m, u, ...)                                                                \
	{                                                                                          \
		.id = (i), .name = (n), .type = DGR_OPT_STRING, .metavar = (mv),                   \
		.subcommands = (m), .usage = (u), __VA_ARGS__                                      \
	}
#define CHOICE(i, n, mv, vals, m, u, ...)                                                          \
	{                                                                                          \
		.id = (i), .name = (n), .type = DGR_OPT_CHOICE, .metavar = (mv), .values = (vals), \
		.subcommands = (m), .usage = (u), __VA_ARGS__                                      \
	}
#define TEXT(u, ...)                                                                               \
	{                                                                                          \
		.type = DGR_OPT_TEXT, .usage = (u), __VA_ARGS__                                    \
	}

/* dgrdma-host's options: the parser, --help (the rows' text in order) and --list-options. */
static const struct dgr_opt host_opts[] = {
	TEXT("Usage: dgrdma-host rx|tx|perf [OPTIONS]\n"
	     "\n"
	     "  rx    receive the FPGA's stream (ADC -> host), check its sample ramp, sink it\n"
	     "  tx    send a stream to the FPGA (host -> DAC) as credits allow or at\n"
	     "        --sample-rate\n"
	     "  perf  throughput per message size 2..32 KiB, tx, rx or both at once (a table,\n"
	     "        or --csv)\n"
	     "\n",
	     .man =
		 ".B dgrdma-host \\-\\-help\n"
		 "lists every option with its range. A value follows its option or is joined with\n"
		 ".B =\n"
		 ".RB ( \\-\\-buffers=255 ).\n"
		 "An option of another mode is refused by name\n"
		 ".RB ( \"rx: \\-\\-bytes is a tx option\" ).\n"
		 "Option names are those of every dgrdma-tools program (docs/cli.md).\n"),
	DGR_TRANSPORT_OPT_ROWS("twice the buffer pool, 8..256 MiB"),
	TEXT("  --peer (rx, tx) may be given up to 16 times: one connection per peer, all at\n"
	     "                         once, each receiving only its peer's frames (a socket\n"
	     "                         filter on the source MAC, or SO_REUSEPORT + connect)\n"
	     "\n"
	     "Stream and buffers:\n",
	     .man = ".PP\n"
		    "rx and tx take\n"
		    ".B \\-\\-peer\n"
		    "up to 16 times: one connection per peer, all at once, each receiving only its "
		    "peer's frames\n"
		    "(a socket filter on the source MAC, or SO_REUSEPORT + connect); with\n"
		    ".BR \\-\\-udp ,\n"
		    "the default port is 18078.\n"
		    ".SS Stream and buffers\n"),
	SECS(OPT_DURATION, "duration", 86400 * 365,
	     "  --duration SEC         stop after SEC seconds (default: when the stream ends)\n",
	     .man = "Stop after SEC seconds, up to a year (default: when the stream ends).\n"),
	SECS(OPT_IDLE, "idle-timeout", 86400,
	     "  --idle-timeout SEC     give up when nothing completes for SEC (also before the\n"
	     "                         first transaction), 0..86400 (default 5; 0 = never)\n",
	     .man = "Give up when nothing completes for SEC, also before the first transaction, "
		    "0..86400\n"
		    "(default 5; 0: never).\n"),
	COUNT(OPT_BUFFERS, "buffers", "N", 1, DGR_MAX_BUFFERS, 0,
	      "  --buffers N            host buffers, 1..255 (default 64)\n",
	      .man = DGR_OPT_MAN_WITH_NEXT),
	{ .id = OPT_BUFSIZE,
	  .name = "buffer-size",
	  .type = DGR_OPT_SIZE,
	  .metavar = "BYTES",
	  .min = 64,
	  .max = DGR_MAX_BUFFER_SIZE,
	  .usage =
	      "  --buffer-size BYTES    bytes per buffer, 64..2M, multiple of 16 (default 16K)\n",
	  .man = DGR_OPT_MAN_WITH_NEXT },
	COUNT(OPT_FPGA_BUFFERS, "fpga-buffers", "N", DGR_FPGA_BUFFERS_MIN, DGR_FPGA_BUFFERS_MAX, 0,
	      "  --fpga-buffers N       the FPGA's buffers, 2..64 (default 4)\n",
	      .man = "Host buffers (1..255, default 64), bytes per buffer (64..2M, a multiple of "
		     "16, default 16K),\n"
		     "FPGA buffers (2..64, default 4).\n"
		     "Sizes take the binary suffixes K, M and G (32K is 32768).\n"),
	COUNT(OPT_ID, "id", "N", 0, 65535, 0,
	      "  --id N / --peer-id N   endpoint ids, 0..65535 (default 0 / 1); with several\n"
	      "                         --peer, one --peer-id for all or one per --peer\n",
	      .man = DGR_OPT_MAN_WITH_NEXT),
	COUNT(OPT_PEER_ID, "peer-id", "N", 0, 65535, 0, NULL,
	      .man = "The endpoint ids, 0..65535 (default 0 and 1); with several\n"
		     ".BR \\-\\-peer ,\n"
		     "one\n"
		     ".B \\-\\-peer\\-id\n"
		     "for all or one per\n"
		     ".BR \\-\\-peer .\n"),
	{ .id = OPT_COALESCE,
	  .name = "coalesce-us",
	  .aliases = { "coalesce-wait" }, /* until 0.2 */
	  .type = DGR_OPT_COUNT,
	  .metavar = "USEC",
	  .max = 1000000,
	  .usage = "  --coalesce-us USEC     hold a partly filled frame, 0..1000000 (default 0;\n"
		   "                         old name --coalesce-wait, an alias until 0.2)\n",
	  .man = "Frame coalescing: hold a partly filled frame USEC microseconds, 0..1000000 "
		 "(default 0). The\n"
		 "old name\n"
		 ".B \\-\\-coalesce\\-wait\n"
		 "is an alias until 0.2.\n" },
	CHOICE(OPT_PEER_KIND, "peer-kind", "fpga|host", "fpga|host", 0,
	       "  --peer-kind fpga|host  what --peer is (default fpga): toward an FPGA no\n"
	       "                         ACK-only frame is sent (OpenCPI's parser reads its\n"
	       "                         padding as frame 0 and loses the real one at the\n"
	       "                         16-bit wrap); a dgrdma-host peer also gets them\n",
	       .man = "What the peer is (default fpga). Toward an FPGA no ACK-only frame is ever "
		      "sent, with\n"
		      ".B \\-\\-acks\n"
		      "too (the ACKs ride only on frames with messages, and dgrdma-host says so on "
		      "stderr):\n"
		      "OpenCPI's frame parser reads the zero padding of an ACK-only frame as a "
		      "frame 0, and near the\n"
		      "16-bit frame_seq wrap it then drops the host's real frame 0 as a duplicate, "
		      "its doorbells\n"
		      "never written: the FPGA stops writing flags for good. A dgrdma-host peer "
		      "(host) also gets\n"
		      "ACK-only frames, which its retransmission needs when no data flows back.\n"),
	FLAG(OPT_ACKS, "acks", 0,
	     "  --acks                 acknowledge the peer's frames (off, as in OpenCPI);\n"
	     "                         toward an FPGA only on frames with messages\n",
	     .man = "ACK generation: acknowledge the peer's frames (off by default, as in "
		    "OpenCPI); toward an FPGA\n"
		    "only on frames with messages (see\n"
		    ".BR \\-\\-peer\\-kind ).\n"),
	COUNT(OPT_RETRANSMIT, "retransmit", "MSEC", 1, 60000, 0,
	      "  --retransmit MSEC      resend unacknowledged frames after MSEC, 1..60000 (off;\n"
	      "                         the FPGA never skips a lost frame: without it one\n"
	      "                         frame lost towards the FPGA locks its receive path)\n",
	      .man = "Retransmission of unacknowledged frames after MSEC, 1..60000 (default off). "
		     "The FPGA never\n"
		     "skips a lost frame: without it one frame lost towards the FPGA locks its "
		     "receive path.\n"),
	COUNT(OPT_PEER_WINDOW, "peer-window", "N", 0, DGR_MAX_PEER_WINDOW, 0,
	      "  --peer-window N        send no frame N or more past the oldest one the FPGA has\n"
	      "                         not acknowledged (its ack_tracker_bitfield_width),\n"
	      "                         0..32768 (default 32; 0: no limit)\n",
	      .man = DGR_OPT_MAN_WITH_NEXT),
	COUNT(OPT_RT_ATTEMPTS, "retransmit-attempts", "N", 1, 255, 0,
	      "  --retransmit-attempts N  resends before giving up, 1..255 (default 5)\n",
	      .man =
		  "Send no frame N or more past the oldest one the FPGA has not acknowledged (its\n"
		  "ack_tracker_bitfield_width), 0..32768 (default 32; 0: no limit); resends of one "
		  "frame before\n"
		  "giving up, 1..255 (default 5).\n"),
	COUNT(OPT_INCOMPLETE, "incomplete-timeout", "MSEC", 1, 600000, 0,
	      "  --incomplete-timeout MSEC  forget incomplete transactions, 1..600000 (1000)\n",
	      .man = "Forget an incomplete transaction after MSEC, 1..600000 (default 1000).\n"),
	CHOICE(OPT_DOORBELL, "doorbell", "flag|dcp[:ADDR]", "flag|dcp|dcp:", 0,
	       "  --doorbell flag|dcp[:ADDR] doorbells as flag-only transactions (default) or DCP\n"
	       "                         writes of the buffer index to ADDR (default 0x100018,\n"
	       "                         property doorbell of worker 0, docs/fpga.md)\n",
	       .man = "The doorbell form: flag-only transactions (default) or DCP writes of the "
		      "buffer index to ADDR\n"
		      "(default 0x100018, the property doorbell of worker 0, docs/fpga.md); a DCP "
		      "ADDR is a\n"
		      "multiple of 4: one 32-bit word.\n"),
	FLAG(OPT_STRICT, "strict", 0,
	     "  --strict               enforce the FPGA's fragment length rules on input\n",
	     .man = "Enforce the FPGA's fragment length rules on input.\n"),
	COUNT(OPT_PORT_BASE, "port-base", "ADDR", 0, DGR_PORT_BASE_MAX, 0,
	      "  --port-base ADDR       port memory base address (default rx 0, tx 0x40000000)\n"
	      "Fault injection:\n",
	      .man =
		  "The port memory's base address, 0..0xC0000000 (default rx 0, tx 0x40000000).\n"),
	{ .type = DGR_OPT_TEXT, .man = ".SS Fault injection\n" },
	{ .id = OPT_DROP_RX,
	  .name = "drop-frames",
	  .aliases = { "drop-rx" }, /* until 0.2 */
	  .type = DGR_OPT_DECIMAL,
	  .metavar = "P",
	  .lo = 0,
	  .hi = 1,
	  .usage =
	      "  --drop-frames P        drop received DG-RDMA frames with probability P, 0..1\n"
	      "                         (old name --drop-rx, an alias until 0.2)\n",
	  .man = "Drop received DG-RDMA frames with probability P, 0..1 (the old name\n"
		 ".B \\-\\-drop\\-rx\n"
		 "is an alias until 0.2).\n" },
	COUNT(OPT_SEED, "seed", "N", 1, UINT64_MAX, 0,
	      "  --seed N               seed of --drop-frames, 1..2^64-1 (default fixed)\n"
	      "\n"
	      "rx:\n",
	      .man = "The seed of\n"
		     ".BR \\-\\-drop\\-frames ,\n"
		     "1..2^64-1 (default fixed: the same frames are dropped each run).\n"),
	{ .type = DGR_OPT_TEXT, .man = ".SS rx\n" },
	CHOICE(OPT_SINK, "sink", "null|memcpy|file:PATH", "null|memcpy|file:", MODE_RX,
	       "  --sink null|memcpy|file:PATH  what the consumer does (default null); with\n"
	       "                         several --peer, connection N writes PATH.N\n",
	       .man = DGR_OPT_MAN_WITH_NEXT),
	FLAG(OPT_FSYNC, "fsync", MODE_RX,
	     "  --fsync                fsync the file after every buffer\n",
	     .man = DGR_OPT_MAN_WITH_NEXT),
	FLAG(OPT_DIRECT, "direct", MODE_RX,
	     "  --direct               open the file with OPT_DIRECT (buffer size multiple of "
	     "4096)\n",
	     .man = DGR_OPT_MAN_WITH_NEXT),
	COUNT(OPT_DELAY, "consumer-delay-us", "N", 0, 10000000, MODE_RX,
	      "  --consumer-delay-us N  extra per-buffer work, 0..10000000 us\n",
	      .man = "What the consumer does with each buffer: nothing (null, the default), copy "
		     "it (memcpy) or\n"
		     "write it to the file PATH (with several\n"
		     ".BR \\-\\-peer ,\n"
		     "connection N writes PATH.N); fsync the file after every buffer; open the "
		     "file with O_DIRECT\n"
		     "(the buffer size a multiple of 4096); and an extra fixed cost per buffer, "
		     "0..10000000 us.\n"),
	STRING(
	    OPT_STALL, "consumer-stall", "BUF:MS", MODE_RX,
	    "  --consumer-stall BUF:MS  once, before consuming the stream's buffer number BUF\n"
	    "                         (0..2^32-1, from 0, discontinuities included), wait MS\n"
	    "                         (1..600000) milliseconds: a single disturbance for tests\n",
	    .man = "Once, before consuming the stream's buffer number BUF (counted from 0; "
		   "discontinuity messages\n"
		   "and the EOF buffer count too), the consumer waits MS milliseconds while it "
		   "holds that buffer:\n"
		   "a single, repeatable disturbance for tests (the vicious-cycle scenario), "
		   "instead of stopping\n"
		   "the process from outside. BUF 0..2^32-1, MS 1..600000; keep\n"
		   ".B \\-\\-idle\\-timeout\n"
		   "above MS. The summary reports it under consumer_stall (at_buffer, "
		   "requested_ns, stalled_ns).\n"),
	FLAG(OPT_NO_RAMP, "no-ramp-check", 0,
	     "  --no-ramp-check        do not check the sample ramp\n"
	     "tx:\n",
	     .man = "rx: do not check the received samples' ramp.\n"),
	{ .type = DGR_OPT_TEXT, .man = ".SS tx\n" },
	CHOICE(OPT_SOURCE, "source", "ramp|file:PATH", "ramp|file:", MODE_TX,
	       "  --source ramp|file:PATH  data to send (default ramp)\n",
	       .man = "The data sent: the ramp (default) or the file PATH.\n"),
	{ .id = OPT_BYTES,
	  .name = "bytes",
	  .type = DGR_OPT_SIZE,
	  .metavar = "N",
	  .min = 1,
	  .max = 1ull << 50,
	  .subcommands = MODE_TX,
	  .usage =
	      "  --bytes N              stop after N bytes (K, M, G suffixes); last buffer has "
	      "EOF\n",
	  .man =
	      "Stop after N bytes, 1..2^50 (K, M and G suffixes); the last buffer carries EOF.\n" },
	{ .id = OPT_RATE,
	  .name = "sample-rate",
	  .aliases = { "rate" }, /* until 0.2 */
	  .type = DGR_OPT_RATE,
	  .metavar = "SPS",
	  .lo = 0,
	  .hi = 1e11,
	  .subcommands = MODE_TX,
	  .usage =
	      "  --sample-rate SPS      samples (4 bytes) per second, e.g. 100e6 or 100M, 0..1e11\n"
	      "                         (default 0: as fast as credits allow; old name --rate,\n"
	      "                         an alias until 0.2)\n"
	      "perf (against the FPGA's perftest; --buffer-size is the peer's, default 16K):\n",
	  .man = "Samples (4 bytes) per second, 0..1e11 (0, the default: as fast as credits "
		 "allow). Rates are\n"
		 "decimal: 200e6, 2.5e8, or with k, M or G for 1e3, 1e6, 1e9 (200M). The old name\n"
		 ".B \\-\\-rate\n"
		 "is an alias until 0.2.\n" },
	{ .type = DGR_OPT_TEXT,
	  .man = ".SS perf\nAgainst the FPGA's perftest worker;\n.B \\-\\-buffer\\-size\nis the "
		 "peer's (default 16K).\n" },
	CHOICE(OPT_DIRECTION, "direction", "tx|rx|both", "tx|rx|both", MODE_PERF,
	       "  --direction tx|rx|both host -> FPGA (default), FPGA -> host (started over DCP),\n"
	       "                         or both at once on one connection\n",
	       .man = DGR_OPT_MAN_WITH_NEXT),
	COUNT(OPT_COUNT, "count", "N", 1, 1ull << 32, MODE_PERF,
	      "  --count N              messages per message size 2K..--buffer-size, per\n"
	      "                         direction, 1..4294967296 (default 16384)\n",
	      .man = DGR_OPT_MAN_WITH_NEXT),
	FLAG(OPT_MEMCPY, "memcpy", MODE_PERF,
	     "  --memcpy               copy each message from a source buffer (tx) or out of\n"
	     "                         the pool (rx): software load\n",
	     .man = DGR_OPT_MAN_WITH_NEXT),
	COUNT(OPT_PERF_WORKER, "perftest-worker", "N", 0, 62, MODE_PERF,
	      "  --perftest-worker N    DCP worker index of the perftest, 0..62 (default 3)\n",
	      .man = DGR_OPT_MAN_WITH_NEXT),
	FLAG(
	    OPT_CSV, "csv", MODE_PERF,
	    "  --csv                  CSV instead of a table\n"
	    "\n"
	    "Mitigations (each refusal by the OS is an error):\n",
	    .man =
		"perf: the direction(s) (tx: host to FPGA, the default; rx: FPGA to host, started "
		"over DCP;\n"
		"both at once on one connection), messages per message size "
		"(2K..\\-\\-buffer\\-size) and\n"
		"direction, 1..4294967296 (default 16384), copying each message in (tx) or out "
		"(rx), the DCP\n"
		"worker index of the perftest, 0..62 (default 3), CSV output instead of a table:\n"
		"message_size, messages, seconds, mbyte_s (the sum of the directions), msample_s,\n"
		"memcpy, direction, then tx_ and rx_ messages, bytes, seconds and mbyte_s.\n"),
	{ .type = DGR_OPT_TEXT,
	  .man = ".SS Mitigations\nA refusal by the OS of any of these is an error.\n" },
	STRING(OPT_SCHED, "sched", "POLICY", 0,
	       "  --sched POLICY         all data threads: fifo:N, rr:N (1..99), nice:N (-20..19), "
	       "other\n",
	       .man = "The scheduling policy of every data thread: fifo:N, rr:N (N 1..99), nice:N "
		      "(N \\-20..19) or\n"
		      "other.\n"),
	STRING(OPT_SCHED_RX, "sched-rx", "POLICY", 0,
	       "  --sched-rx/--sched-tx/--sched-worker/--sched-control POLICY  one thread\n",
	       .man = DGR_OPT_MAN_WITH_NEXT),
	STRING(OPT_SCHED_TX, "sched-tx", "POLICY", 0, NULL, .man = DGR_OPT_MAN_WITH_NEXT),
	STRING(OPT_SCHED_WORKER, "sched-worker", "POLICY", 0, NULL, .man = DGR_OPT_MAN_WITH_NEXT),
	STRING(OPT_SCHED_CONTROL, "sched-control", "POLICY", 0, NULL,
	       .man = "The policy of one thread (fifo:N, rr:N, nice:N, other), as\n"
		      ".B \\-\\-sched\n"
		      "gives it to every data thread.\n"),
	STRING(OPT_CPU, "cpu", "LIST", 0,
	       "  --cpu LIST             all data threads on CPUs LIST (e.g. 2-3)\n",
	       .man = "The CPUs of every data thread (LIST: 2\\-3, 0,2).\n"),
	STRING(OPT_CPU_RX, "cpu-rx", "LIST", 0,
	       "  --cpu-rx/--cpu-tx/--cpu-worker/--cpu-control LIST  one thread\n",
	       .man = DGR_OPT_MAN_WITH_NEXT),
	STRING(OPT_CPU_TX, "cpu-tx", "LIST", 0, NULL, .man = DGR_OPT_MAN_WITH_NEXT),
	STRING(OPT_CPU_WORKER, "cpu-worker", "LIST", 0, NULL, .man = DGR_OPT_MAN_WITH_NEXT),
	STRING(OPT_CPU_CONTROL, "cpu-control", "LIST", 0, NULL,
	       .man = "The CPUs of one thread, as\n"
		      ".B \\-\\-cpu\n"
		      "gives them to every data thread.\n"),
	FLAG(OPT_BUSY_WAIT, "busy-wait", 0,
	     "  --busy-wait            stack threads spin instead of sleeping\n",
	     .man = "The stack's threads spin instead of sleeping.\n"),
	FLAG(OPT_NO_INLINE_DOORBELLS, "no-inline-doorbells", 0,
	     "  --no-inline-doorbells  rx: the transmit thread sends every doorbell (default:\n"
	     "                         the consumer sends its own when that thread is idle)\n",
	     .man = DGR_OPT_MAN_WITH_NEXT),
	COUNT(OPT_DOORBELL_BATCH, "doorbell-batch", "N", 1, 255, 0,
	      "  --doorbell-batch N     rx: a consumer behind sends up to N doorbells in one\n"
	      "                         frame, 1..255 (default 16; 1: each alone)\n",
	      .man = DGR_OPT_MAN_WITH_NEXT),
	COUNT(OPT_DOORBELL_HOLD_US, "doorbell-hold-us", "US", 1, 1000000, 0,
	      "  --doorbell-hold-us US  rx: hold no doorbell longer than US, and none after a\n"
	      "                         buffer whose work took longer, 1..1000000 (default 50)\n",
	      .man = "rx: the transmit thread sends every doorbell (by default the consumer sends "
		     "its own while that\n"
		     "thread is idle); a consumer behind sends up to N doorbells in one frame, "
		     "1..255 (default 16; 1:\n"
		     "each alone); no doorbell is held longer than US, nor after a buffer whose "
		     "work took longer,\n"
		     "1..1000000 (default 50).\n"),
	COUNT(OPT_RX_HOLDOFF_US, "rx-holdoff-us", "US", 0, 1000, 0,
	      "  --rx-holdoff-us US     after a batch of frames, the receive thread sleeps US\n"
	      "                         on a timer instead of waking per frame (interrupt\n"
	      "                         moderation), 0..1000 (default 0: off)\n"
	      "\n"
	      "Output (rx and tx; perf prints its table):\n",
	      .man = "After a receive that returned two frames or more finds nothing, the receive "
		     "thread sleeps US\n"
		     "microseconds (plus its timer slack) on a timer before it waits on the socket "
		     "again, as a\n"
		     "NIC's interrupt moderation does: fewer wake-ups for the sender's kernel and "
		     "the receive\n"
		     "thread, up to US more receive latency at high rates. 0..1000, default 0 "
		     "(off); counted in\n"
		     "rx_holdoffs.\n"),
	{ .type = DGR_OPT_TEXT, .man = ".SS Output\nrx and tx; perf prints its table.\n" },
	SECS(OPT_STATS_INTERVAL, "stats-interval", 3600,
	     "  --stats-interval SEC   print counters every SEC seconds on stderr, one line\n"
	     "                         each (one JSON object per line with --json)\n",
	     .man = "Periodic counters on stderr every SEC seconds, up to 3600, one line per "
		    "interval (one JSON\n"
		    "object per line with\n"
		    ".BR \\-\\-json ).\n"),
	STRING(OPT_SUMMARY_JSON, "summary-json", "PATH", MODE_RX | MODE_TX,
	       "  --summary-json PATH    write the final summary as JSON to PATH\n",
	       .man = "The final summary as JSON into PATH.\n"),
	/* perf drives the emulator's perftest worker itself: nothing waits on a ready file */
	STRING(OPT_READY_FILE, "ready-file", "PATH", MODE_RX | MODE_TX,
	       "  --ready-file PATH      (rx, tx) create PATH, holding the pid, once every\n"
	       "                         connection receives (sockets bound, threads running):\n"
	       "                         start the FPGA side then; removed at start and at exit\n",
	       .man =
		   "rx, tx: create PATH, holding the process id, once every connection receives\n"
		   "(its sockets bound, its threads running), written whole (renamed into place).\n"
		   "A script starts the FPGA side when PATH exists: started earlier, the\n"
		   "emulator's first burst (every host buffer, sent without waiting) may be lost,\n"
		   "and with it the stream. PATH is removed at start and at exit.\n"),
	FLAG(OPT_JSON, "json", MODE_RX | MODE_TX,
	     "  --json                 print the summary as JSON on stdout\n",
	     .man = "The summary as JSON on stdout.\n"),
	FLAG(OPT_QUIET, "quiet", MODE_RX | MODE_TX,
	     "  --quiet                no summary on stdout\n", .man = "No summary on stdout.\n"),
	{ .id = OPT_MAX_DROP,
	  .name = "max-drop-rate",
	  .type = DGR_OPT_DECIMAL,
	  .metavar = "R",
	  .lo = 0,
	  .hi = 1,
	  .subcommands = MODE_RX | MODE_TX,
	  .usage = "  --max-drop-rate R      exit 1 when the drop rate exceeds R (0..1)\n",
	  .man = "The exit status threshold: exit 1 when the drop rate exceeds R, 0..1.\n" },
	{ .id = 'h',
	  .name = "help",
	  .short_name = 'h',
	  .type = DGR_OPT_FLAG,
	  .usage = "  -h, --help             this text\n",
	  .man = "Every option with its range.\n" },
	FLAG(OPT_VERSION, "version", 0, "  --version              the version of dgrdma-tools\n",
	     .man = "The version of dgrdma-tools.\n"),
	FLAG(OPT_LIST_OPTIONS, "list-options", 0,
	     "  --list-options [--json]  every option with its type, range and modes, one a\n"
	     "                         line (--json: one JSON object)\n",
	     .man = "Every option with its old names, the type of its value, its range, its modes "
		    "and its help,\n"
		    "one a line (tab-separated: name, type, modes, accepted words); with\n"
		    ".BR \\-\\-json ,\n"
		    "one JSON object; with\n"
		    ".BR \\-\\-man ,\n"
		    "this OPTIONS section in roff (docs/cli.md). The bash completion is made from "
		    "it.\n"),
	TEXT("\n"
	     "An option of another mode is refused. Exit status (docs/cli.md): 0 the run ended\n"
	     "as asked; 1 --max-drop-rate exceeded; 2 bad usage; 3 the run failed (could not\n"
	     "start, stalled, left transactions incomplete, interrupted).\n"),
};
#undef TEXT
#undef CHOICE
#undef STRING
#undef SECS
#undef COUNT
#undef FLAG

static const char *const host_modes[] = { "rx", "tx", "perf" };
static const char *const host_mode_articles[] = { "an rx", "a tx", "a perf" };

/* See host.h. */
const struct dgr_opt_table host_options = {
	.tool = "dgrdma-host",
	.opts = host_opts,
	.nopts = sizeof(host_opts) / sizeof(host_opts[0]),
	.subcommands = host_modes,
	.subcommand_article = host_mode_articles,
	.nsubcommands = 3,
};

/* See host.h. */
void host_usage(FILE *f)
{
	dgr_opts_usage(&host_options, f);
}

/* Checks --peer and --peer-id, and every peer's address. Returns 0 or -1 with err. */
static int check_peers(struct host_cfg *cfg, char *err)
{
	struct dgr_transport_opts to = cfg->co.transport;

	if (cfg->npeers == 0) {
		/* the transport's own message: which address --peer needs */
		return dgr_transport_opts_finish(&to, true, err) < 0 ? -1 : 0;
	}
	if (cfg->npeers > 1 && strcmp(cfg->mode, "perf") == 0) {
		snprintf(err, DGR_ERRBUF_SIZE, "--peer: perf measures one peer (given %u)",
			 cfg->npeers);
		return -1;
	}
	if (cfg->npeer_ids > 1 && cfg->npeer_ids != cfg->npeers) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "--peer-id: given %u times for %u --peer (give one for all, or one per "
			 "--peer, in order)",
			 cfg->npeer_ids, cfg->npeers);
		return -1;
	}
	for (unsigned int i = 0; i < cfg->npeers; i++) {
		to = cfg->co.transport;
		if (dgr_transport_parse_opt(&to, DGR_OPT_PEER, cfg->peers[i], err) < 0 ||
		    dgr_transport_opts_finish(&to, true, err) < 0) {
			return -1;
		}
		for (unsigned int j = 0; j < i; j++) {
			struct dgr_transport_opts other = cfg->co.transport;

			(void)dgr_transport_parse_opt(&other, DGR_OPT_PEER, cfg->peers[j], err);
			(void)dgr_transport_opts_finish(&other, true, err);
			if (dgr_addr_equal(to.kind, &to.peer, &other.peer)) {
				snprintf(err, DGR_ERRBUF_SIZE, "--peer: %s is given twice",
					 cfg->peers[i]);
				return -1;
			}
		}
	}
	return 0;
}

/* --sched*, --cpu*: k 0 is every data thread, else the thread k - 1 (the worker's two). */
static bool thread_selected(int k, int t)
{
	return (k == 0 && t != DGR_T_CONTROL) || t == k - 1 ||
	       (k - 1 == DGR_T_WORKER && t == DGR_T_WORKER2);
}

/* The options whose value the table's types do not say alone. Returns 0 or -DGR_E_INVAL. */
static int parse_form(struct host_cfg *cfg, int id, const char *arg, char *err)
{
	struct dgr_conn_opts *co = &cfg->co;
	uint64_t v;

	switch (id) {
	case OPT_DOORBELL:
		if (strcmp(arg, "flag") == 0) {
			co->doorbell_mode = DGR_DOORBELL_FLAG;
		} else if (strcmp(arg, "dcp") == 0) {
			co->doorbell_mode = DGR_DOORBELL_DCP;
			co->doorbell_dcp_addr = DGR_DCP_DOORBELL_ADDR;
		} else if (strncmp(arg, "dcp:", 4) == 0) {
			if (dgr_parse_u64("--doorbell dcp", arg + 4, 0, DCP_ADDR_MASK, false, &v,
					  err) < 0) {
				return -DGR_E_INVAL;
			}
			if (v % 4) {
				return dgr_errbuf_set(
				    err, DGR_E_INVAL,
				    "--doorbell: dcp:%s is not a multiple of 4 (a "
				    "DCP write sets one 32-bit word)",
				    arg + 4);
			}
			co->doorbell_mode = DGR_DOORBELL_DCP;
			co->doorbell_dcp_addr = (uint32_t)v;
		} else {
			return dgr_errbuf_set(err, DGR_E_INVAL,
					      "--doorbell: '%s' is not flag or dcp:ADDR", arg);
		}
		return 0;
	case OPT_SINK:
		if (strcmp(arg, "null") == 0) {
			cfg->sink = SINK_NULL;
		} else if (strcmp(arg, "memcpy") == 0) {
			cfg->sink = SINK_MEMCPY;
		} else if (strncmp(arg, "file:", 5) == 0 && arg[5]) {
			cfg->sink = SINK_FILE;
			cfg->sink_path = arg + 5;
		} else {
			return dgr_errbuf_set(err, DGR_E_INVAL,
					      "--sink: '%s' is not null, memcpy or file:PATH", arg);
		}
		return 0;
	case OPT_STALL: {
		char buf_arg[32];
		const char *colon = strchr(arg, ':');
		size_t n = colon ? (size_t)(colon - arg) : 0;

		if (!colon || n == 0 || n >= sizeof(buf_arg)) {
			return dgr_errbuf_set(err, DGR_E_INVAL,
					      "--consumer-stall: '%s' is not BUF:MS (e.g. 50:1000)",
					      arg);
		}
		memcpy(buf_arg, arg, n);
		buf_arg[n] = '\0';
		if (dgr_parse_u64("--consumer-stall BUF", buf_arg, 0, UINT32_MAX, false,
				  &cfg->stall_at, err) < 0 ||
		    dgr_parse_u64("--consumer-stall MS", colon + 1, 1, 600000, false, &v, err) <
			0) {
			return -DGR_E_INVAL;
		}
		cfg->stall = true;
		cfg->stall_ns = v * 1000000ull;
		return 0;
	}
	case OPT_SOURCE:
		if (strcmp(arg, "ramp") == 0) {
			cfg->source = SOURCE_RAMP;
		} else if (strncmp(arg, "file:", 5) == 0 && arg[5]) {
			cfg->source = SOURCE_FILE;
			cfg->source_path = arg + 5;
		} else {
			return dgr_errbuf_set(err, DGR_E_INVAL,
					      "--source: '%s' is not ramp or file:PATH", arg);
		}
		return 0;
	case OPT_DIRECTION:
		if (strcmp(arg, "tx") == 0) {
			cfg->perf_direction = DGR_DIR_TX;
		} else if (strcmp(arg, "rx") == 0) {
			cfg->perf_direction = DGR_DIR_RX;
		} else if (strcmp(arg, "both") == 0) {
			cfg->perf_direction = DGR_DIR_BOTH;
		} else {
			return dgr_errbuf_set(err, DGR_E_INVAL,
					      "--direction: '%s' is not tx, rx or both", arg);
		}
		return 0;
	case OPT_PEER_KIND:
		if (strcmp(arg, "fpga") == 0) {
			co->peer_kind = DGR_PEER_FPGA;
		} else if (strcmp(arg, "host") == 0) {
			co->peer_kind = DGR_PEER_HOST;
		} else {
			return dgr_errbuf_set(err, DGR_E_INVAL,
					      "--peer-kind: '%s' is not fpga or host", arg);
		}
		return 0;
	case OPT_SCHED:
	case OPT_SCHED_RX:
	case OPT_SCHED_TX:
	case OPT_SCHED_WORKER:
	case OPT_SCHED_CONTROL: {
		static const char *const names[] = { "--sched", "--sched-rx", "--sched-tx",
						     "--sched-worker", "--sched-control" };
		int k = id - OPT_SCHED;
		struct dgr_sched sc = co->sched[k == 0 ? DGR_T_RX : k - 1];

		if (dgr_parse_sched(names[k], arg, &sc, err) < 0) {
			return -DGR_E_INVAL;
		}
		for (int t = 0; t < DGR_T_COUNT; t++) {
			if (thread_selected(k, t)) {
				uint64_t cpus = co->sched[t].cpuset;

				co->sched[t] = sc;
				co->sched[t].cpuset = cpus;
			}
		}
		return 0;
	}
	case OPT_CPU:
	case OPT_CPU_RX:
	case OPT_CPU_TX:
	case OPT_CPU_WORKER:
	case OPT_CPU_CONTROL: {
		static const char *const names[] = { "--cpu", "--cpu-rx", "--cpu-tx",
						     "--cpu-worker", "--cpu-control" };
		int k = id - OPT_CPU;
		uint64_t mask;

		if (dgr_parse_cpulist(names[k], arg, &mask, err) < 0) {
			return -DGR_E_INVAL;
		}
		for (int t = 0; t < DGR_T_COUNT; t++) {
			if (thread_selected(k, t)) {
				co->sched[t].cpuset = mask;
			}
		}
		return 0;
	}
	default:
		return 0;
	}
}

/* The table's handler (opts.h): stores one option's checked value into the host_cfg ctx. */
static int host_option(void *ctx, const struct dgr_opt *o, const char *given, const char *arg,
		       const union dgr_opt_value *val, char *err)
{
	struct host_cfg *cfg = ctx;
	struct dgr_conn_opts *co = &cfg->co;
	uint64_t v = val->u;
	int rc;

	(void)given;
	if (o->id == DGR_OPT_PEER) {
		/* one connection per --peer: resolved per connection (conn_options) */
		if (cfg->npeers == HOST_MAX_PEERS) {
			return dgr_errbuf_set(err, DGR_E_INVAL, "--peer: at most %d peers",
					      HOST_MAX_PEERS);
		}
		cfg->peers[cfg->npeers++] = arg;
		return 0;
	}
	rc = dgr_transport_parse_opt(&co->transport, o->id, arg, err);
	if (rc != 0) {
		return rc < 0 ? rc : 0;
	}
	switch (o->id) {
	case OPT_DURATION:
		cfg->duration_ns = v;
		break;
	case OPT_IDLE:
		cfg->idle_timeout_ns = v;
		break;
	case OPT_BUFFERS:
		co->buffers = (uint32_t)v;
		break;
	case OPT_BUFSIZE:
		if (v % 16) {
			return dgr_errbuf_set(err, DGR_E_INVAL,
					      "--buffer-size: %" PRIu64 " is not a multiple of 16",
					      v);
		}
		co->buffer_size = (uint32_t)v;
		break;
	case OPT_FPGA_BUFFERS:
		co->peer_buffers = (uint32_t)v;
		break;
	case OPT_ID:
		co->id = (uint16_t)v;
		break;
	case OPT_PEER_ID:
		if (cfg->npeer_ids == HOST_MAX_PEERS) {
			return dgr_errbuf_set(err, DGR_E_INVAL, "--peer-id: at most %d ids",
					      HOST_MAX_PEERS);
		}
		cfg->peer_ids[cfg->npeer_ids++] = (uint16_t)v;
		break;
	case OPT_COALESCE:
		co->coalesce_wait_us = (uint32_t)v;
		break;
	case OPT_ACKS:
		co->acks = true;
		break;
	case OPT_RETRANSMIT:
		co->retransmit_ms = (uint32_t)v;
		break;
	case OPT_PEER_WINDOW:
		co->peer_window = (uint32_t)v;
		break;
	case OPT_RT_ATTEMPTS:
		co->retransmit_attempts = (uint32_t)v;
		break;
	case OPT_INCOMPLETE:
		co->incomplete_ms = (uint32_t)v;
		break;
	case OPT_STRICT:
		co->strict_lengths = true;
		break;
	case OPT_FSYNC:
		cfg->fsync_each = true;
		break;
	case OPT_DIRECT:
		cfg->direct = true;
		break;
	case OPT_DELAY:
		cfg->consumer_delay_ns = v * 1000;
		break;
	case OPT_NO_RAMP:
		co->check_ramp = false;
		break;
	case OPT_BYTES:
		cfg->total_bytes = v;
		break;
	case OPT_RATE:
		cfg->rate_sps = (uint64_t)val->d;
		break;
	case OPT_CSV:
		cfg->csv = true;
		break;
	case OPT_COUNT:
		cfg->perf_count = v;
		break;
	case OPT_MEMCPY:
		cfg->perf_memcpy = true;
		break;
	case OPT_PERF_WORKER:
		cfg->perf_worker = (unsigned int)v;
		break;
	case OPT_BUSY_WAIT:
		co->busy_wait = true;
		break;
	case OPT_NO_INLINE_DOORBELLS:
		co->inline_doorbells = false;
		break;
	case OPT_DOORBELL_BATCH:
		co->doorbell_batch = (uint32_t)v;
		break;
	case OPT_DOORBELL_HOLD_US:
		co->doorbell_hold_us = (uint32_t)v;
		break;
	case OPT_RX_HOLDOFF_US:
		co->rx_holdoff_us = (uint32_t)v;
		break;
	case OPT_STATS_INTERVAL:
		co->stats_interval_ns = v;
		break;
	case OPT_SUMMARY_JSON:
		cfg->summary_json = arg;
		break;
	case OPT_READY_FILE:
		cfg->ready_file = arg;
		break;
	case OPT_JSON:
		cfg->json = true;
		break;
	case OPT_QUIET:
		cfg->quiet = true;
		break;
	case OPT_MAX_DROP:
		cfg->max_drop_rate = val->d;
		break;
	case OPT_PORT_BASE:
		co->set_port_base = true;
		co->port_base = (uint32_t)v;
		break;
	case OPT_DROP_RX:
		co->rx_drop_ppm = (uint32_t)(val->d * 1e6 + 0.5);
		break;
	case OPT_SEED:
		co->rx_drop_seed = v;
		break;
	case 'h':
	case OPT_VERSION:
	case OPT_LIST_OPTIONS:
		cfg->stop = o->id;
		return DGR_OPTS_STOP;
	default:
		return parse_form(cfg, o->id, arg, err);
	}
	return 0;
}

/* See host.h. */
int host_parse_args(int argc, char **argv, struct host_cfg *cfg, char *err)
{
	int mode = strcmp(cfg->mode, "rx") == 0 ? 0 : strcmp(cfg->mode, "tx") == 0 ? 1 : 2;
	int rc;

	rc = dgr_opts_parse(&host_options, argc, argv, mode, DGR_OPTS_NO_OPERANDS, host_option, cfg,
			    NULL, err);
	if (rc != 0) {
		return rc < 0 ? -1 : rc;
	}
	if (cfg->direct && cfg->co.buffer_size % 4096) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "--direct needs --buffer-size a multiple of 4096 (OPT_DIRECT alignment)");
		return -1;
	}
	if ((cfg->fsync_each || cfg->direct) && cfg->sink != SINK_FILE) {
		snprintf(err, DGR_ERRBUF_SIZE, "--fsync and --direct need --sink file:PATH");
		return -1;
	}
	return check_peers(cfg, err);
}

/* See host.h. */
const char *host_acks_notice(const struct host_cfg *cfg)
{
	if (!cfg->co.acks || cfg->co.peer_kind != DGR_PEER_FPGA) {
		return NULL;
	}
	return "--acks toward an FPGA (--peer-kind fpga, the default): the ACKs ride only on "
	       "frames with messages, no ACK-only frame is sent. OpenCPI's frame parser reads "
	       "an ACK-only frame's padding as a frame 0, which near the 16-bit frame_seq wrap "
	       "makes it drop our real frame 0 and stop writing flags; and it ignores the ACKs "
	       "it receives (docs/protocol.md). Give --peer-kind host for a dgrdma-host peer.";
}

/* See host.h. */
int host_conn_options(struct host_cfg *cfg, unsigned int i, struct dgr_conn_opts *co, char *err)
{
	*co = cfg->co;
	co->conn_index = (uint16_t)i;
	co->peer_id = cfg->npeer_ids == 0 ? 1 : cfg->peer_ids[cfg->npeer_ids == 1 ? 0 : i];
	/* several peers share the interface or the port: each socket sees its peer only */
	co->transport.peer_only = cfg->npeers > 1;
	if (dgr_transport_parse_opt(&co->transport, DGR_OPT_PEER, cfg->peers[i], err) < 0 ||
	    dgr_transport_opts_finish(&co->transport, true, err) < 0) {
		return -1;
	}
	return 0;
}
