/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dgrdma-capture's options: the rows of its --help, its --list-options, its man page's OPTIONS
 * and its bash completion. The script reads them through dgrdma-opts (docs/cli.md); what a
 * range cannot say (a power of two, --session's and --events' characters, --relayd's URL, the
 * options that go together) the script checks.
 */
#include "capture_opts.h"

static const struct dgr_opt capture_opts[] = {
	{ .usage = "usage: dgrdma-capture [OPTIONS] -- COMMAND [ARGS...]\n"
		   "\n"
		   "Records a run of COMMAND into one folder: trace/ (LTTng CTF), capture.pcapng, "
		   "run.json\n"
		   "(with --kernel also kernel/, the kernel's events in CTF).\n"
		   "\n" },
	{ .id = CAP_OPT_OUTPUT,
	  .name = "output",
	  .short_name = 'o',
	  .type = DGR_OPT_STRING,
	  .metavar = "DIR",
	  .usage =
	      "  -o, --output DIR       run folder to create (must not exist or be empty;\n"
	      "                         default: dgrdma-run-YYYYmmdd-HHMMSS; not an empty name)\n",
	  .man = "Run folder to create; it must not exist or be empty. Default\n"
		 ".BR dgrdma-run-YYYYmmdd-HHMMSS ;\n"
		 "an empty name is refused.\n" },
	{ .id = CAP_OPT_IF,
	  .name = "if",
	  .short_name = 'i',
	  .type = DGR_OPT_STRING,
	  .metavar = "IFACE",
	  .usage = "  -i, --if IFACE         capture interface (default: inferred from COMMAND's\n"
		   "                         --if / --udp --bind / --peer flags)\n",
	  .man = "Capture interface (default: inferred).\n" },
	{ .id = CAP_OPT_FILTER,
	  .name = "filter",
	  .short_name = 'f',
	  .type = DGR_OPT_STRING,
	  .metavar = "EXPR",
	  .usage = "  -f, --filter EXPR      capture filter (default: inferred; raw Ethernet:\n"
		   "                         \"ether proto 0xf040 or ether proto 0xf042\"; UDP: "
		   "the ports)\n",
	  .man = "Capture filter, pcap syntax (default: inferred).\n" },
	{ .id = CAP_OPT_SNAPLEN,
	  .name = "snaplen",
	  .short_name = 's',
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 0,
	  .max = 262144ull,
	  .usage =
	      "  -s, --snaplen N        bytes kept per packet, 0 = whole packet (0..262144, "
	      "default 0;\n"
	      "                         with --long the headers-only length of the transport)\n",
	  .man =
	      "Bytes kept per packet, 0..262144; 0 (default) keeps whole packets. With\n"
	      ".B \\-\\-long\n"
	      "and no\n"
	      ".BR \\-\\-snaplen ,\n"
	      "the headers-only length of the transport (docs/tracepoints.md): 150 for UDP over\n"
	      "IPv4, 170 for UDP over IPv6, 124 for raw Ethernet (a VLAN tag included), each with\n"
	      "room for 4 doorbells in a frame.\n" },
	{ .id = CAP_OPT_RING_FILES,
	  .name = "ring-files",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 2,
	  .max = 100000ull,
	  .usage =
	      "      --ring-files N     keep the capture in a ring of N files (2..100000): "
	      "dumpcap's\n"
	      "                         -b files:N, the files in capture/; needs --ring-file-size\n"
	      "                         or --ring-duration\n",
	  .man = "Keep the capture in a ring of N files (2..100000), dumpcap's own\n"
		 ".BR \"\\-b files:\" N,\n"
		 "in the folder\n"
		 ".I capture/\n"
		 "of the run folder (dumpcap names them\n"
		 ".IR capture_NNNNN_YYYYmmddHHMMSS.pcapng );\n"
		 "the oldest is overwritten. Needs\n"
		 ".B \\-\\-ring\\-file\\-size\n"
		 "or\n"
		 ".BR \\-\\-ring\\-duration .\n"
		 "latency-report reads the folder as one capture and says when the ring dropped\n"
		 "the run's start.\n" },
	{ .id = CAP_OPT_RING_FILE_SIZE,
	  .name = "ring-file-size",
	  .type = DGR_OPT_SIZE,
	  .metavar = "SIZE",
	  .min = 65536,
	  .max = 1073741824ull,
	  .usage = "      --ring-file-size SIZE  switch to the next ring file after SIZE bytes "
		   "(64k..1G;\n"
		   "                         k/M/G suffix; dumpcap's -b filesize, in its kB of "
		   "1000 bytes)\n",
	  .man = "Move to the next ring file after SIZE bytes (64k..1G, k/M/G suffixes of 1024;\n"
		 "dumpcap's\n"
		 ".BR \"\\-b filesize\" ,\n"
		 "in its kB of 1000 bytes, rounded up).\n" },
	{ .id = CAP_OPT_RING_DURATION,
	  .name = "ring-duration",
	  .type = DGR_OPT_COUNT,
	  .metavar = "S",
	  .min = 1,
	  .max = 86400ull,
	  .usage =
	      "      --ring-duration S  switch to the next ring file after S seconds (1..86400;\n"
	      "                         dumpcap's -b duration)\n",
	  .man = "Move to the next ring file after S seconds (1..86400; dumpcap's\n"
		 ".BR \"\\-b duration\" ).\n"
		 "Without\n"
		 ".B \\-\\-ring\\-file\\-size\n"
		 "the ring has no byte bound.\n" },
	{ .id = CAP_OPT_TRACE_FILE_SIZE,
	  .name = "trace-file-size",
	  .type = DGR_OPT_SIZE,
	  .metavar = "SIZE",
	  .min = 65536,
	  .max = 4294967296ull,
	  .usage =
	      "      --trace-file-size SIZE  keep each trace file of the channel within SIZE "
	      "bytes\n"
	      "                         (64k..4G, at least the sub-buffer size; k/M/G suffix;\n"
	      "                         LTTng's --tracefile-size)\n",
	  .man = "Keep each trace file of the channel within SIZE bytes (64k..4G, at least the\n"
		 "sub-buffer size; LTTng's\n"
		 ".BR \\-\\-tracefile\\-size ).\n"
		 "Goes with\n"
		 ".BR \\-\\-trace\\-file\\-count ;\n"
		 "not with\n"
		 ".BR \\-\\-live .\n" },
	{ .id = CAP_OPT_TRACE_FILE_COUNT,
	  .name = "trace-file-count",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 1,
	  .max = 65535ull,
	  .usage =
	      "      --trace-file-count N  keep at most N trace files per CPU (1..65535, with\n"
	      "                         --trace-file-size; LTTng's --tracefile-count): the oldest\n"
	      "                         are overwritten. With --flight-recorder both bound the\n"
	      "                         whole run's record (record/; default 32M and 8)\n",
	  .man = "Keep at most N trace files per CPU (1..65535; LTTng's\n"
		 ".BR \\-\\-tracefile\\-count ):\n"
		 "the oldest are overwritten. With\n"
		 ".B \\-\\-flight\\-recorder\n"
		 "both options bound the whole run's record\n"
		 ".RI ( record/ ,\n"
		 "each of its two channels; default 32M and 8) instead.\n" },
	{ .id = CAP_OPT_LONG,
	  .name = "long",
	  .type = DGR_OPT_FLAG,
	  .usage =
	      "      --long             a long run within a stated disk bound: a headers-only\n"
	      "                         snap length from the transport (UDP over IPv4 150, over\n"
	      "                         IPv6 170, Ethernet 124), --ring-files 16\n"
	      "                         --ring-file-size 64M, --trace-file-size 64M\n"
	      "                         --trace-file-count 4; options given win. The bound is\n"
	      "                         printed and recorded in run.json (\"bounds\")\n",
	  .man = "A long run within a stated disk bound: the headers-only snap length of the\n"
		 "transport,\n"
		 ".B \\-\\-ring\\-files 16 \\-\\-ring\\-file\\-size 64M\n"
		 "and\n"
		 ".B \\-\\-trace\\-file\\-size 64M \\-\\-trace\\-file\\-count 4\n"
		 "(options given win). The bound (capture: files x (size + one packet + 1088\n"
		 "bytes); trace: CPUs x count x (size + its index) + 1 MiB of metadata; 1 MiB for\n"
		 "run.json and the logs) is printed when the recording starts and written to\n"
		 "run.json's\n"
		 ".BR bounds .\n"
		 "What a headers-only capture loses: the payload (no ramp or payload check on the\n"
		 "capture).\n" },
	{ .id = CAP_OPT_FLIGHT_RECORDER,
	  .name = "flight-recorder",
	  .type = DGR_OPT_COUNT,
	  .metavar = "S",
	  .min = 1,
	  .max = 3600ull,
	  .usage =
	      "      --flight-recorder S  keep only the last S seconds (1..3600): the trace in\n"
	      "                         memory (an LTTng snapshot session sized for S + the\n"
	      "                         seconds after at --event-rate), the capture in a ring of\n"
	      "                         1 s files; on a trigger write the last S seconds and the\n"
	      "                         --incident-after seconds into incident-NNN/ (a run folder\n"
	      "                         with its run.json). Triggers: SIGUSR1 to this program, "
	      "and\n"
	      "                         LTTng triggers on the drop events (dgrdma:socket_drop,\n"
	      "                         dgrdma:txn_complete with opcode 4, "
	      "dgrdma_fpga:drop_period,\n"
	      "                         dgrdma_fpga:discontinuity) that snapshot the session.\n"
	      "                         The whole run's counters and drop events are recorded\n"
	      "                         to disk in record/, within --trace-file-size x\n"
	      "                         --trace-file-count per CPU and channel\n",
	  .man =
	      "Keep only the last S seconds (1..3600): the trace in memory (an LTTng snapshot "
	      "session in\n"
	      "overwrite mode, sized for S plus the seconds after at\n"
	      ".BR \\-\\-event\\-rate ),\n"
	      "the capture in a ring of 1 s files in\n"
	      ".IR .ring/ .\n"
	      "On a trigger, write the last S seconds and the\n"
	      ".B \\-\\-incident\\-after\n"
	      "seconds into\n"
	      ".IR incident-NNN/ ,\n"
	      "a run folder with its own run.json. Triggers: SIGUSR1, and LTTng triggers\n"
	      ".RB ( \"lttng add-trigger\" ,\n"
	      "action snapshot-session) on dgrdma:socket_drop, dgrdma:txn_complete with opcode 4,\n"
	      "dgrdma_fpga:drop_period and dgrdma_fpga:discontinuity. Needs inotifywait\n"
	      "(inotify-tools) for the LTTng triggers. With the trace, the whole run's record goes "
	      "to disk\n"
	      "all along in\n"
	      ".IR record/ :\n"
	      "a second, ordinary LTTng session of the counter snapshots (dgrdma:counters,\n"
	      "dgrdma_fpga:counters) in one channel and the drop events above in another, each "
	      "channel's\n"
	      "files bounded per CPU by\n"
	      ".B \\-\\-trace\\-file\\-size\n"
	      "and\n"
	      ".B \\-\\-trace\\-file\\-count\n"
	      "(default 32M and 8; the bound in run.json's\n"
	      ".BR flight_recorder.record ).\n"
	      "Not with\n"
	      ".BR \\-\\-long ,\n"
	      ".BR \\-\\-ring\\-files ,\n"
	      ".B \\-\\-live\n"
	      "or\n"
	      ".BR \\-\\-kernel .\n"
	      ".B latency-report DIR\n"
	      "summarises the incidents and reports each, and with\n"
	      ".B \\-\\-csv\n"
	      "gives the drops of the whole run from the record;\n"
	      ".B dgrdma-plot DIR\n"
	      "draws them with the incidents marked.\n" },
	{ .id = CAP_OPT_INCIDENT_LATENCY_US,
	  .name = "incident-latency-us",
	  .type = DGR_OPT_COUNT,
	  .metavar = "US",
	  .min = 1,
	  .max = 10000000ull,
	  .usage = "      --incident-latency-us US  also a trigger on a doorbell whose in-host\n"
		   "                         latency (dgrdma:doorbell_sent's latency_ns, from the\n"
		   "                         completing frame's arrival) exceeds US microseconds\n"
		   "                         (1..10000000: 1 us..10 s)\n",
	  .man =
	      "With\n"
	      ".BR \\-\\-flight\\-recorder :\n"
	      "also an LTTng trigger on a doorbell whose in-host latency exceeds US microseconds\n"
	      "(1..10000000, that is 1 us..10 s): an event rule on dgrdma:doorbell_sent with the "
	      "filter\n"
	      ".BR \"latency_ns > US x 1000\" ;\n"
	      "latency_ns is the stack's own measure, from the kernel's receive of the frame that "
	      "completed\n"
	      "the transaction to the return of the send call that carried the doorbell (see\n"
	      "docs/tracepoints.md). Its incidents say\n"
	      ".B LTTng trigger: a doorbell latency above US us\n"
	      "in run.json's\n"
	      ".BR incident.trigger ,\n"
	      "and are limited by\n"
	      ".B \\-\\-incident\\-after\n"
	      "and\n"
	      ".B \\-\\-max\\-incidents\n"
	      "like the others; run.json's\n"
	      ".B flight_recorder.incident_latency_us\n"
	      "records the bound. The trigger's action runs once, and the trigger is added again "
	      "after each\n"
	      "incident it caused (a stall's many late doorbells make one snapshot); past\n"
	      ".B \\-\\-max\\-incidents\n"
	      "its next firing is counted and it is left spent. Choose the bound above the p99.9 "
	      "of\n"
	      "latency-report's latency from arrival. Not with\n"
	      ".B \\-\\-no\\-event\\-triggers\n"
	      "or\n"
	      ".BR \\-\\-no\\-trace .\n" },
	{ .id = CAP_OPT_INCIDENT_AFTER,
	  .name = "incident-after",
	  .type = DGR_OPT_COUNT,
	  .metavar = "S",
	  .min = 0,
	  .max = 600ull,
	  .usage = "      --incident-after S seconds kept after a trigger (0..600, default 2)\n",
	  .man = "Seconds kept after a trigger (0..600, default 2).\n" },
	{ .id = CAP_OPT_MAX_INCIDENTS,
	  .name = "max-incidents",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 1,
	  .max = 10000ull,
	  .usage = "      --max-incidents N  at most N incidents (1..10000, default 10); later\n"
		   "                         triggers are counted in run.json, not written\n",
	  .man = "At most N incidents (1..10000, default 10); later triggers are counted in "
		 "run.json's\n"
		 ".B flight_recorder.triggers_past_limit\n"
		 "and not written.\n" },
	{ .id = CAP_OPT_NO_EVENT_TRIGGERS,
	  .name = "no-event-triggers",
	  .type = DGR_OPT_FLAG,
	  .usage = "      --no-event-triggers  with --flight-recorder: SIGUSR1 only\n",
	  .man = "With\n"
		 ".BR \\-\\-flight\\-recorder :\n"
		 "SIGUSR1 is the only trigger.\n" },
	{ .id = CAP_OPT_PCAP_BUFFER,
	  .name = "pcap-buffer",
	  .aliases = { "buffer-size" },
	  .short_name = 'B',
	  .type = DGR_OPT_COUNT,
	  .metavar = "MIB",
	  .min = 1,
	  .max = 4096ull,
	  .usage =
	      "  -B, --pcap-buffer MIB  dumpcap kernel buffer in MiB (1..4096, default 512); the "
	      "old\n"
	      "                         name --buffer-size is an alias until 0.2 (in every other\n"
	      "                         tool --buffer-size is the DG-RDMA buffer size in bytes)\n",
	  .man = "dumpcap's kernel buffer, 1..4096 MiB (default 512). The old name\n"
		 ".B \\-\\-buffer\\-size\n"
		 "is an alias until 0.2 and prints a note: in every other dgrdma-tools program\n"
		 ".B \\-\\-buffer\\-size\n"
		 "is the DG-RDMA buffer size in bytes, as it will be here.\n" },
	{ .id = CAP_OPT_EVENT_RATE,
	  .name = "event-rate",
	  .short_name = 'r',
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 1,
	  .max = 1000000000ull,
	  .usage = "  -r, --event-rate N     expected events per second, sizes the sub-buffers\n"
		   "                         (1..1000000000, default 1000000)\n",
	  .man = "Expected events per second, 1..1e9 (default 1000000); sizes the sub-buffers.\n" },
	{ .id = CAP_OPT_DRAIN_MS,
	  .name = "drain-ms",
	  .type = DGR_OPT_COUNT,
	  .metavar = "MS",
	  .min = 1,
	  .max = 60000ull,
	  .usage = "      --drain-ms MS      time the ring must absorb at that rate (1..60000, "
		   "default 500)\n",
	  .man = "How long each per-CPU ring must absorb that rate, 1..60000 ms (default 500).\n" },
	{ .id = CAP_OPT_SUBBUF_SIZE,
	  .name = "subbuf-size",
	  .type = DGR_OPT_SIZE,
	  .metavar = "SIZE",
	  .min = 4096,
	  .max = 1073741824ull,
	  .usage = "      --subbuf-size SIZE LTTng sub-buffer size (4k..1G, power of two; k/M/G "
		   "suffix;\n"
		   "                         default computed, see docs/tracepoints.md)\n",
	  .man =
	      "LTTng sub-buffer size, a power of two from 4k to 1G (k, M, G suffixes). Default:\n"
	      "the next power of two of rate x 64 bytes x drain / num-subbuf.\n" },
	{ .id = CAP_OPT_NUM_SUBBUF,
	  .name = "num-subbuf",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 2,
	  .max = 1024ull,
	  .usage = "      --num-subbuf N     LTTng sub-buffers per ring (2..1024, power of two, "
		   "default 8)\n",
	  .man = "Sub-buffers per ring, a power of two, 2..1024 (default 8).\n" },
	{ .id = CAP_OPT_EVENTS,
	  .name = "events",
	  .type = DGR_OPT_STRING,
	  .metavar = "LIST",
	  .usage =
	      "      --events LIST      LTTng events to enable, comma-separated patterns, all\n"
	      "                         of them (e.g. \"dgrdma:*\"); default: every event of both\n"
	      "                         providers but the per-frame ones (frame_rx, frame_tx,\n"
	      "                         ack_rx, ack_tx), which cost the stream its rate, and\n"
	      "                         the consumer's buffer_acquire, buffer_release and\n"
	      "                         doorbell_queued and the receive thread's txn_complete\n"
	      "                         (kept with --preload), which doorbell_sent's fields\n"
	      "                         replace (docs/tracepoints.md)\n",
	  .man =
	      "LTTng events to enable, exactly these, comma-separated patterns of [A-Za-z0-9_:*]\n"
	      "(e.g.\n"
	      ".B dgrdma:*\n"
	      "records only the host stack). The default is every event of both providers but the\n"
	      "per-frame ones (frame_rx, frame_tx, ack_rx, ack_tx), which cost the recorded "
	      "stream\n"
	      "its rate, and the consumer's buffer_acquire, buffer_release and doorbell_queued,\n"
	      "fired before each doorbell: doorbell_sent's since_release_ns, held_ns and\n"
	      "consumer_tid give their times and thread; and the receive thread's txn_complete,\n"
	      "whose time doorbell_sent's since_complete_ns gives (with\n"
	      ".B \\-\\-preload\n"
	      "the default keeps txn_complete: the library's doorbell_sent does not carry it).\n" },
	{ .id = CAP_OPT_ALL_EVENTS,
	  .name = "all-events",
	  .type = DGR_OPT_FLAG,
	  .usage = "      --all-events       every event, the per-frame ones, the consumer's\n"
		   "                         three and txn_complete too (= --events 'dgrdma*')\n",
	  .man = "Every event of both providers, the per-frame ones, buffer_acquire,\n"
		 "buffer_release, doorbell_queued and txn_complete too (the same as\n"
		 ".BR \"\\-\\-events dgrdma*\" ).\n" },
	{ .id = CAP_OPT_ONLY_COMMAND,
	  .name = "only-command",
	  .type = DGR_OPT_FLAG,
	  .usage = "      --only-command     record COMMAND's process only (and the --trace-pid "
		   "ones), not\n"
		   "                         every process of the user: a second dgrdma-host of "
		   "the user then\n"
		   "                         stays out of this run's trace. COMMAND starts once "
		   "its pid is\n"
		   "                         tracked; a process it forks (timeout, sh -c) is not "
		   "recorded\n",
	  .man = "Record COMMAND's process only (and the\n"
		 ".B \\-\\-trace\\-pid\n"
		 "ones), not every process of the user: a second dgrdma-host of the same user then "
		 "stays\n"
		 "out of this run's trace. COMMAND starts once its pid is tracked, so its first "
		 "events are\n"
		 "recorded; a process it forks (timeout, sh \\-c) is not.\n" },
	{ .id = CAP_OPT_TRACE_PID,
	  .name = "trace-pid",
	  .type = DGR_OPT_COUNT,
	  .metavar = "PID",
	  .min = 1,
	  .max = 4194304ull,
	  .usage = "      --trace-pid PID    with --only-command: also record process PID, e.g. an "
		   "emulator\n"
		   "                         started apart (repeatable, up to 15; 1..4194304)\n",
	  .man =
	      "With \\-\\-only\\-command: also record process PID, e.g. an emulator started apart\n"
	      "(repeatable, up to 15; 1..4194304).\n" },
	{ .id = CAP_OPT_SESSION,
	  .name = "session",
	  .type = DGR_OPT_STRING,
	  .metavar = "NAME",
	  .usage = "      --session NAME     LTTng session name (default dgrdma-capture-PID)\n",
	  .man = "LTTng session name (default dgrdma-capture-PID).\n" },
	{ .id = CAP_OPT_KEEP_SESSIOND,
	  .name = "keep-sessiond",
	  .type = DGR_OPT_FLAG,
	  .usage = "      --keep-sessiond    leave a session daemon this tool started running\n",
	  .man = "Leave a session daemon this tool started running.\n" },
	{ .id = CAP_OPT_NO_TRACE,
	  .name = "no-trace",
	  .type = DGR_OPT_FLAG,
	  .usage = "      --no-trace         no LTTng trace\n",
	  .man = "No LTTng trace.\n" },
	{ .id = CAP_OPT_LIVE,
	  .name = "live",
	  .type = DGR_OPT_FLAG,
	  .usage =
	      "      --live             a live session: an lttng-relayd of this tool's own, on\n"
	      "                         127.0.0.1 with free ports of its own, receives the trace\n"
	      "                         (written into trace/ as usual) and serves it to\n"
	      "                         'latency-report --live URL' while the command runs; the "
	      "URL\n"
	      "                         is printed, written to live.url and recorded in run.json\n",
	  .man = "Record a live session: an lttng-relayd of this tool's own, listening on "
		 "127.0.0.1 on three\n"
		 "free ports (control, data, live), receives the trace, writes it into trace/ (as\n"
		 "trace/HOSTNAME/SESSION-DATE/ust/...) and serves it to viewers while COMMAND "
		 "runs. The live URL,\n"
		 "net://127.0.0.1:PORT/host/HOSTNAME/SESSION, is printed on stderr, written to "
		 "live.url in the run\n"
		 "folder and recorded in run.json's\n"
		 ".BR live ;\n"
		 "follow it with\n"
		 ".BR \"latency-report \\-\\-live URL\" .\n"
		 "The relayd is stopped after the session, once its viewers have read to the end "
		 "(at most\n"
		 "10 s). Its log is relayd.log.\n" },
	{ .id = CAP_OPT_RELAYD,
	  .name = "relayd",
	  .type = DGR_OPT_STRING,
	  .metavar = "URL",
	  .usage =
	      "      --relayd URL       send the trace to the lttng-relayd at URL instead\n"
	      "                         (net://HOST[:CTRL_PORT[:DATA_PORT]]; implies --live); the\n"
	      "                         trace then stays there\n",
	  .man = "Send the trace to the lttng-relayd at URL, net://HOST[:CTRL_PORT[:DATA_PORT]], "
		 "instead of\n"
		 "starting one (implies \\-\\-live). The trace then stays with that relayd "
		 "(run.json's trace.path is\n"
		 "null); the live URL printed and \\-\\-live-wait use its live port, "
		 "\\-\\-relayd-live-port\n"
		 "(default 5344, lttng-relayd's own).\n" },
	{ .id = CAP_OPT_RELAYD_LIVE_PORT,
	  .name = "relayd-live-port",
	  .type = DGR_OPT_COUNT,
	  .metavar = "PORT",
	  .min = 1,
	  .max = 65535ull,
	  .usage =
	      "      --relayd-live-port PORT  that relayd's live port, for the URL printed and\n"
	      "                         --live-wait (1..65535, default 5344, lttng-relayd's own)\n",
	  .man =
	      "The live port of the relayd given with \\-\\-relayd, 1..65535 (default 5344).\n" },
	{ .id = CAP_OPT_LIVE_WAIT,
	  .name = "live-wait",
	  .type = DGR_OPT_COUNT,
	  .metavar = "S",
	  .min = 1,
	  .max = 3600ull,
	  .usage = "      --live-wait S      wait up to S seconds (1..3600) for a live viewer to "
		   "attach\n"
		   "                         before starting COMMAND: a viewer attaching later "
		   "misses the\n"
		   "                         events already sent (the threads' settings, the first "
		   "counters)\n",
	  .man = "Wait up to S seconds (1..3600) for a live viewer to attach before starting "
		 "COMMAND (implies\n"
		 "\\-\\-live): a viewer sees only the events sent after it attached, so one "
		 "started later misses\n"
		 "the threads' settings and the first counter snapshots. Without a viewer by then, "
		 "COMMAND\n"
		 "starts anyway and run.json's warnings say so.\n" },
	{ .id = CAP_OPT_LIVE_TIMER_MS,
	  .name = "live-timer-ms",
	  .type = DGR_OPT_COUNT,
	  .metavar = "MS",
	  .min = 1,
	  .max = 60000ull,
	  .usage =
	      "      --live-timer-ms MS how often the live session hands its events to the relayd\n"
	      "                         (1..60000, default 100)\n",
	  .man = "How often the live session hands its sub-buffers to the relayd, 1..60000 ms "
		 "(default 100): the\n"
		 "delay an event can wait before a viewer sees it.\n" },
	{ .id = CAP_OPT_PRELOAD,
	  .name = "preload",
	  .type = DGR_OPT_FLAG,
	  .usage =
	      "      --preload          run COMMAND with libdgrdma-preload.so in LD_PRELOAD: the\n"
	      "                         in-host events of a host built without the tracepoints\n"
	      "                         (OpenCPI's ocpirun); the library is looked for in ../lib\n"
	      "                         beside this program, or where DGR_PRELOAD_LIB says\n",
	  .man =
	      "Run COMMAND with\n"
	      ".B libdgrdma-preload.so\n"
	      "in\n"
	      ".BR LD_PRELOAD :\n"
	      "a host built without the tracepoints (OpenCPI's\n"
	      ".BR ocpirun ,\n"
	      "dgrdma-host built with -DDGR_NO_TRACE) gives the in-host events all the same "
	      "(docs/tracepoints.md,\n"
	      "\"Tracing an unmodified host\"). The library is looked for in ../lib beside "
	      "dgrdma-capture, or\n"
	      "where the environment variable DGR_PRELOAD_LIB says; exit status 3 when it is "
	      "not there.\n"
	      "The library's own settings, DGR_PRELOAD_UDP_PORTS (more UDP ports: PORT[,PORT...], "
	      "1..65535, at\n"
	      "most 15) and DGR_PRELOAD_DCP_DOORBELLS (ADDR or LO:HI up to 0xFFFFFF), are checked "
	      "first: a\n"
	      "value the library could not use is exit status 2, naming it.\n" },
	{ .id = CAP_OPT_NO_PCAP,
	  .name = "no-pcap",
	  .type = DGR_OPT_FLAG,
	  .usage = "      --no-pcap          no packet capture\n",
	  .man = "No packet capture.\n" },
	{ .id = CAP_OPT_KERNEL,
	  .name = "kernel",
	  .type = DGR_OPT_FLAG,
	  .usage =
	      "      --kernel           also record the kernel's side of the run (scheduling, IRQs "
	      "and\n"
	      "                         softirqs, block I/O, writeback, NAPI polls) on the "
	      "trace's\n"
	      "                         clock, into kernel/ (CTF): LTTng's kernel tracer where\n"
	      "                         lttng-modules is loaded, else perf record, system-wide\n",
	  .man = "Also record the kernel's side of the run into\n"
		 ".IR kernel/ ,\n"
		 "in CTF that\n"
		 ".BR babeltrace2 (1)\n"
		 "reads beside the UST trace, on the same time axis: who ran on each CPU "
		 "(sched_switch,\n"
		 "sched_wakeup, sched_waking, sched_wakeup_new, sched_migrate_task), hardware and "
		 "soft\n"
		 "interrupts (irq_handler_entry/exit, softirq_entry/exit), block requests\n"
		 "(block_rq_issue/complete), writeback (writeback_start/written) and the network "
		 "receive path\n"
		 "(napi_poll, one event per NAPI poll). Where LTTng's kernel tracer works "
		 "(lttng-modules loaded,\n"
		 ".B lttng list \\-\\-kernel\n"
		 "succeeds) a second LTTng session records them; otherwise\n"
		 ".B perf record \\-a \\-k CLOCK_MONOTONIC\n"
		 "records every CPU's tracepoints into kernel.perf.data, converted after the run "
		 "with\n"
		 ".B perf data convert \\-\\-to\\-ctf\n"
		 "into kernel/, its clock class given the UST trace's UUID and offset. run.json's\n"
		 ".B kernel\n"
		 "object names the backend, the events, the clock, the path and the events lost. "
		 "Where neither\n"
		 "backend can record (not root and kernel.perf_event_paranoid above \\-1 without "
		 "CAP_PERFMON, in a\n"
		 "user namespace, tracefs unreadable), dgrdma-capture exits 3 before COMMAND "
		 "starts, naming the\n"
		 "setting or capability that would allow it.\n" },
	{ .id = CAP_OPT_KERNEL_BACKEND,
	  .name = "kernel-backend",
	  .type = DGR_OPT_CHOICE,
	  .metavar = "B",
	  .values = "auto|perf|lttng",
	  .usage =
	      "      --kernel-backend B auto, perf or lttng (default auto: lttng when 'lttng list\n"
	      "                         --kernel' works, else perf)\n",
	  .man = ".BR auto \" (default), \" perf \" or \" lttng\n"
		 "(implies \\-\\-kernel): auto takes LTTng's kernel tracer when it works, else "
		 "perf; lttng fails\n"
		 "(exit 3) where lttng-modules are not loaded.\n" },
	{ .id = CAP_OPT_KERNEL_BUFFER,
	  .name = "kernel-buffer",
	  .type = DGR_OPT_COUNT,
	  .metavar = "MIB",
	  .min = 1,
	  .max = 1024ull,
	  .usage = "      --kernel-buffer MIB  perf's ring per CPU in MiB (1..1024, default 16)\n",
	  .man = "perf's ring per CPU, 1..1024 MiB (default 16; implies \\-\\-kernel). A run that "
		 "lost kernel\n"
		 "events says so in run.json's warnings.\n" },
	{ .id = CAP_OPT_SAMPLE_RATE,
	  .name = "sample-rate",
	  .type = DGR_OPT_RATE,
	  .metavar = "SPS",
	  .lo = 1,
	  .hi = 1e+10,
	  .usage = "      --sample-rate SPS  the stream's rate in samples/s (e.g. 200e6 or 200M, "
		   "1..1e10) and\n",
	  .man = "The stream's rate in samples/s (1..1e10: 200e6, 2.5e8 or 200M) and the FPGA's "
		 "buffer count\n"
		 "(2..64), recorded in run.json's\n"
		 ".B stream\n"
		 "so that\n"
		 ".BR latency-report (1)\n"
		 "can compute the tolerable latency (N_c + N_p) x S / R of the run; the host's "
		 "buffer count and\n"
		 "size come from COMMAND's \\-\\-buffers and \\-\\-buffer\\-size.\n" },
	{ .id = CAP_OPT_FPGA_BUFFERS,
	  .name = "fpga-buffers",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 2,
	  .max = 64ull,
	  .usage = "      --fpga-buffers N   the FPGA's buffer count (2..64), recorded in "
		   "run.json's \"stream\"\n"
		   "                         for latency-report's tolerable latency (the host's "
		   "buffers come\n"
		   "                         from COMMAND's --buffers and --buffer-size)\n",
	  .man = "The FPGA's buffer count (2..64), recorded in run.json's\n"
		 ".B stream\n"
		 "with\n"
		 ".B \\-\\-sample\\-rate\n"
		 "(above).\n" },
	{ .id = CAP_OPT_JSON,
	  .name = "json",
	  .type = DGR_OPT_FLAG,
	  .usage = "      --json             print run.json on stdout at the end (summary "
		   "otherwise on stderr)\n",
	  .man = "Print run.json on stdout at the end instead of the summary.\n" },
	{ .id = CAP_OPT_HELP,
	  .name = "help",
	  .short_name = 'h',
	  .type = DGR_OPT_FLAG,
	  .usage = "  -h, --help             this text\n",
	  .man = "Usage.\n" },
	{ .id = CAP_OPT_VERSION,
	  .name = "version",
	  .type = DGR_OPT_FLAG,
	  .usage = "      --version          the version of dgrdma-tools\n",
	  .man = "The version of dgrdma-tools.\n" },
	{ .id = CAP_OPT_LIST_OPTIONS,
	  .name = "list-options",
	  .type = DGR_OPT_FLAG,
	  .usage =
	      "      --list-options     every option with its type, one a line (with --json: one\n"
	      "                         JSON object; with --man: the man page's OPTIONS)\n",
	  .man = DGR_OPTS_MAN_LIST_OPTIONS },
	{ .usage =
	      "\n"
	      "A value follows its option (--output DIR) or is joined with '=' (--output=DIR).\n"
	      "Exit status (docs/cli.md): COMMAND's status (128+N if killed by signal N); 2 bad "
	      "usage;\n"
	      "3 set-up failure (no recording could start; with --kernel also when the kernel's "
	      "events\n"
	      "cannot be recorded: the message names the setting or capability that allows "
	      "it);\n"
	      "3 also when a part of the recording ended before the run did (run.json's "
	      "capture.lost,\n"
	      "trace.lost or kernel.lost say why; exit_status keeps COMMAND's).\n" },
};

/* See capture_opts.h. */
const struct dgr_opt_table dgr_capture_options = {
	.tool = "dgrdma-capture",
	.opts = capture_opts,
	.nopts = sizeof(capture_opts) / sizeof(capture_opts[0]),
	.man_tail = ".PP\n"
		    "Values follow their option or are joined with\n"
		    ".B =\n"
		    ".RB ( \\-\\-output=run1 );\n"
		    ".B \\-\\-\n"
		    "ends the options.\n",
};
