// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dgrdma-wire: the wire codec from the command line.
 *   dgrdma-wire plan --size BYTES [--mtu N] [--udp] [--used N]
 *       how a transaction is fragmented into frames
 *   dgrdma-wire decode [--udp] [--mem-size N] [HEX...]
 *       decode DG-RDMA frames given as hex (arguments or one per stdin line)
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "cli.h"
#include "opts.h"
#include "dgrdma-version.h"

#define MAX_FRAME 65536

enum {
	OPT_SIZE = 0x100,
	OPT_MTU,
	OPT_UDP,
	OPT_USED,
	OPT_MEM_SIZE,
	OPT_VERSION,
	OPT_LIST_OPTIONS,
};

/* The subcommands, bits of a row's subcommands. */
enum { CMD_PLAN, CMD_DECODE };
#define PLAN   (1u << CMD_PLAN)
#define DECODE (1u << CMD_DECODE)

/* --size's range, written out in --help: the longest a flag word says */
_Static_assert(DGR_FLAGW_MAX_LEN == 2097151, "--help says --size 0..2097151");

/* dgrdma-wire's options: the parser, --help (the rows' text in order) and --list-options. */
static const struct dgr_opt wire_opts[] = {
	{ .type = DGR_OPT_TEXT,
	  .usage = "Usage: dgrdma-wire plan --size BYTES [--mtu N] [--udp] [--used N]\n"
		   "       dgrdma-wire decode [--udp] [--mem-size BYTES] [HEX...]\n"
		   "\n"
		   "plan    print the fragments and frames of one transaction\n" },
	{ .id = OPT_SIZE,
	  .name = "size",
	  .type = DGR_OPT_COUNT,
	  .metavar = "BYTES",
	  .max = DGR_FLAGW_MAX_LEN,
	  .subcommands = PLAN,
	  .usage = "  --size BYTES   transaction data length, 0..2097151\n",
	  .man = "plan: the transaction's data length, 0..2097151 (required).\n" },
	{ .id = OPT_MTU,
	  .name = "mtu",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 64,
	  .max = 65535,
	  .subcommands = PLAN,
	  .usage = "  --mtu N        interface MTU, 64..65535 (default 9000)\n",
	  .man = "plan: the interface MTU, 64..65535 (default 9000).\n" },
	{ .id = OPT_UDP,
	  .name = "udp",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --udp          frames travel in UDP (frame = MTU - 30)\n",
	  .man = "plan: frames travel in UDP (frame = MTU \\- 30); decode: each input is a UDP "
		 "payload, its\n"
		 "2-byte pad first.\n" },
	{ .id = OPT_USED,
	  .name = "used",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .max = 65535,
	  .subcommands = PLAN,
	  .usage = "  --used N       bytes already used in the current frame (default 0: new "
		   "frame)\n"
		   "decode  decode frames given as hex strings, or one per line on stdin\n"
		   "  --udp          input is a UDP payload (2-byte pad first)\n",
	  .man = "plan: bytes of the current frame that already hold other messages, 0..65535 "
		 "(default 0: a\n"
		 "new frame); a frame with others holds at least its header and one message "
		 "header.\n" },
	{ .id = OPT_MEM_SIZE,
	  .name = "mem-size",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .min = 1,
	  .max = UINT32_MAX + 1ull,
	  .subcommands = DECODE,
	  .usage = "  --mem-size N   check addresses against a receiver memory of N bytes\n",
	  .man = "decode: check addresses against a receiver memory of N bytes, 1..4294967296.\n" },
	{ .id = 'h',
	  .name = "help",
	  .short_name = 'h',
	  .type = DGR_OPT_FLAG,
	  .usage = "  -h, --help     this text\n",
	  .man = "The usage text.\n" },
	{ .id = OPT_VERSION,
	  .name = "version",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --version      the version of dgrdma-tools\n",
	  .man = "The version of dgrdma-tools.\n" },
	{ .id = OPT_LIST_OPTIONS,
	  .name = "list-options",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --list-options every option with its type and range, one a line (with\n"
		   "                 --json: one JSON object)\n",
	  .man = DGR_OPTS_MAN_LIST_OPTIONS },
	{ .type = DGR_OPT_TEXT,
	  .usage = "\n"
		   "Exit status (docs/cli.md): 0 done; 1 decode: a frame that does not decode\n"
		   "(plan: no plan); 2 bad usage.\n" },
};
#undef PLAN
#undef DECODE

static const char *const wire_subcommands[] = { "plan", "decode" };
static const char *const wire_subcommand_article[] = { "a plan", "a decode" };

static const struct dgr_opt_table wire_options = {
	.tool = "dgrdma-wire",
	.opts = wire_opts,
	.nopts = sizeof(wire_opts) / sizeof(wire_opts[0]),
	.subcommands = wire_subcommands,
	.subcommand_article = wire_subcommand_article,
	.nsubcommands = 2,
	.man_tail = ".PP\n"
		    "Options take\n"
		    ".B \\-\\-opt=value\n"
		    "too; an option of the other command is refused by name\n"
		    ".RI ( \"plan: \\-\\-mem\\-size is a decode option\" ).\n",
};

/* A command line, as the table's handler reads it. */
struct wire_cli {
	uint64_t size, mtu, used, mem_size;
	bool udp;
	int stop; /* 'h', OPT_VERSION or OPT_LIST_OPTIONS: main prints it */
};

/* The table's handler (opts.h): one option's checked value into the struct wire_cli ctx. */
static int wire_option(void *ctx, const struct dgr_opt *o, const char *given, const char *arg,
		       const union dgr_opt_value *v, char *errbuf)
{
	struct wire_cli *c = ctx;

	(void)given;
	(void)arg;
	(void)errbuf;
	switch (o->id) {
	case OPT_SIZE:
		c->size = v->u;
		break;
	case OPT_MTU:
		c->mtu = v->u;
		break;
	case OPT_UDP:
		c->udp = true;
		break;
	case OPT_USED:
		c->used = v->u;
		break;
	case OPT_MEM_SIZE:
		c->mem_size = v->u;
		break;
	default:
		c->stop = o->id;
		return DGR_OPTS_STOP;
	}
	return 0;
}

static void usage(FILE *out)
{
	dgr_opts_usage(&wire_options, out);
}

/* dgrdma-wire plan: the fragments and frames of one transaction. Returns the exit status. */
static int cmd_plan(const struct wire_cli *c)
{
	uint64_t size = c->size, mtu = c->mtu, used = c->used;
	bool udp = c->udp;
	static uint8_t frame[MAX_FRAME];
	uint8_t *data = NULL;
	struct dgr_frame_builder fb;
	struct dgr_frame_hdr hdr = { .src_id = 1, .dst_id = 2, .frame_seq = 1 };
	struct dgr_txn txn;
	struct dgr_txn_cursor cur;
	size_t cap;
	int rc, frames = 0, ret = 1;

	if (size == UINT64_MAX) {
		fprintf(stderr, "dgrdma-wire plan: --size is required\n");
		return 2;
	}
	cap = udp ? dgr_frame_cap_udp((unsigned int)mtu) : dgr_frame_cap_ether((unsigned int)mtu);
	if (used > cap) {
		fprintf(stderr, "dgrdma-wire: invalid --used %" PRIu64 ": expected 0..%zu\n", used,
			cap);
		return 2;
	}
	data = calloc(1, size ? size : 1);
	if (!data) {
		fprintf(stderr, "dgrdma-wire: out of memory\n");
		return 1;
	}
	if (dgr_fb_init(&fb, frame, cap, &hdr) < 0) {
		fprintf(stderr, "dgrdma-wire: MTU %" PRIu64 " cannot hold a message\n", mtu);
		goto out;
	}
	if (used > DGR_FRAME_HDR_LEN) {
		/* Model a frame that already holds another transaction's message. */
		struct dgr_msg filler = { .txn_id = 0,
					  .flag_addr = DGR_NO_FLAG,
					  .flag_value = DGR_NO_FLAG,
					  .num_msgs_in_txn = 1,
					  .msg_seq = 1 };

		if (used < DGR_FRAME_HDR_LEN + DGR_MSG_HDR_LEN) {
			fprintf(stderr,
				"dgrdma-wire: invalid --used %" PRIu64 ": expected 0 or %d..%zu\n",
				used, DGR_FRAME_HDR_LEN + DGR_MSG_HDR_LEN, cap);
			goto out;
		}
		filler.data_len = (uint16_t)(used - DGR_FRAME_HDR_LEN - DGR_MSG_HDR_LEN);
		if (dgr_fb_add(&fb, &filler, NULL, 0) < 0) {
			goto out;
		}
	}
	txn = (struct dgr_txn){ .txn_id = 1,
				.data_addr = 0,
				.flag_addr = 0x100000,
				.flag_value = dgr_flag_encode((uint32_t)size, false, false, 0),
				.data = data,
				.len = (uint32_t)size };
	rc = dgr_txn_plan(&cur, &txn, &fb);
	if (rc < 0) {
		fprintf(stderr, "dgrdma-wire: %s\n", dgr_strerror(rc));
		goto out;
	}
	printf("transaction %" PRIu64 " bytes, frame capacity %zu bytes (%s MTU %" PRIu64
	       "), %u message(s)%s\n",
	       size, cap, udp ? "UDP" : "Ethernet", mtu, cur.num_msgs ? cur.num_msgs : 1,
	       cur.started_fresh ? ", starting in a new frame" : "");
	printf("%6s %6s %10s %8s %8s\n", "frame", "msg", "data_addr", "data_len", "frame_len");
	for (;;) {
		unsigned int before = fb.msgs;

		rc = dgr_fb_add_txn(&fb, &cur);
		if (rc < 0) {
			fprintf(stderr, "dgrdma-wire: %s\n", dgr_strerror(rc));
			goto out;
		}
		if (fb.msgs > before) {
			struct dgr_frame f;
			struct dgr_msg m;
			size_t len = dgr_fb_finish(&fb);

			dgr_frame_parse(&f, frame, len, NULL);
			while (dgr_frame_next_msg(&f, &m, NULL) > 0) {
				if (m.txn_id == txn.txn_id) {
					printf("%6d %6u %#10x %8u %8zu\n", frames + 1, m.msg_seq,
					       m.data_addr, m.data_len, len);
				}
			}
			frames++;
		}
		if (rc == 1) {
			break;
		}
		hdr.frame_seq++;
		dgr_fb_init(&fb, frame, cap, &hdr);
	}
	printf("%d frame(s)\n", frames);
	ret = 0;
out:
	free(data);
	return ret;
}

/*
 * Hex digits (spaces and ':' between them allowed) into out[0..cap). Returns 0 with *len set,
 * or -1 with why: the first character that is no hex digit, an odd count, or too many bytes.
 */
static int hex_to_bytes(const char *s, uint8_t *out, size_t cap, size_t *len, char *why,
			size_t why_size)
{
	const char *start = s;
	size_t n = 0;
	int hi = -1;

	for (; *s; s++) {
		int v;

		if (isspace((unsigned char)*s) || *s == ':') {
			continue;
		}
		if (!isxdigit((unsigned char)*s)) {
			snprintf(why, why_size, "character %zu ('%c') is not a hex digit",
				 (size_t)(s - start) + 1, isprint((unsigned char)*s) ? *s : '?');
			return -1;
		}
		v = isdigit((unsigned char)*s) ? *s - '0' : (tolower((unsigned char)*s) - 'a' + 10);
		if (hi < 0) {
			hi = v;
		} else {
			if (n == cap) {
				snprintf(why, why_size, "longer than %zu bytes", cap);
				return -1;
			}
			out[n++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	if (hi >= 0) {
		snprintf(why, why_size, "an odd number of hex digits (%zu)", 2 * n + 1);
		return -1;
	}
	*len = n;
	return 0;
}

static int decode_one(const char *hex, bool udp, uint64_t mem_size)
{
	static uint8_t buf[MAX_FRAME];
	char err[DGR_ERRBUF_SIZE];
	const uint8_t *frame = buf;
	size_t len, flen;
	struct dgr_frame f;
	struct dgr_msg m;
	int rc;

	if (hex_to_bytes(hex, buf, sizeof(buf), &len, err, sizeof(err)) < 0) {
		fprintf(stderr, "dgrdma-wire: not a frame in hex: %s: '%.40s%s'\n", err, hex,
			strlen(hex) > 40 ? "..." : "");
		return 1;
	}
	flen = len;
	if (udp && dgr_udp_unwrap(buf, len, &frame, &flen) < 0) {
		printf("malformed: %s\n", dgr_strerror(DGR_E_UDP_SHORT));
		return 1;
	}
	rc = dgr_frame_parse(&f, frame, flen, err);
	if (rc < 0) {
		printf("malformed: %s\n", err);
		return 1;
	}
	printf("frame dst_id=%u src_id=%u frame_seq=%u ack_start=%u ack_count=%u flags=%u%s\n",
	       f.hdr.dst_id, f.hdr.src_id, f.hdr.frame_seq, f.hdr.ack_start, f.hdr.ack_count,
	       f.hdr.flags, f.hdr.flags ? "" : " (ACK only)");
	while ((rc = dgr_frame_next_msg(&f, &m, err)) > 0) {
		struct dgr_flag_word fw;

		printf("  msg txn_id=%u flag_addr=%#x flag_value=%#x num_msgs=%u msg_seq=%u "
		       "data_addr=%#x data_len=%u next=%u%s\n",
		       m.txn_id, m.flag_addr, m.flag_value, m.num_msgs_in_txn, m.msg_seq,
		       m.data_addr, m.data_len, m.has_nextmsg,
		       dgr_msg_is_flag_only(&m) ? " (doorbell)" : "");
		if (dgr_msg_has_flag(&m) && !dgr_msg_is_flag_only(&m)) {
			dgr_flag_decode(m.flag_value, &fw);
			printf("    flag length=%u eof=%d truncated=%d opcode=%u\n", fw.length,
			       fw.eof, fw.truncated, fw.opcode);
		}
		if (dgr_msg_validate(&m, mem_size, true, err) < 0) {
			printf("    invalid: %s\n", err);
			rc = -1;
			break;
		}
	}
	if (rc < 0) {
		if (rc != -1) {
			printf("malformed: %s\n", err);
		}
		return 1;
	}
	return 0;
}

/*
 * dgrdma-wire decode: each of the n frames in hex (none: one a line of stdin). Returns the
 * exit status.
 */
static int cmd_decode(const struct wire_cli *c, char **hex, int n)
{
	int bad = 0;
	char *line = NULL;
	size_t size = 0;

	if (n > 0) {
		for (int i = 0; i < n; i++) {
			bad |= decode_one(hex[i], c->udp, c->mem_size);
		}
		return bad;
	}
	/* a line whole, however long: cut, its rest was decoded as a frame of its own */
	while (getline(&line, &size, stdin) >= 0) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[strspn(line, " \t")] == '\0') {
			continue;
		}
		bad |= decode_one(line, c->udp, c->mem_size);
	}
	free(line);
	return bad;
}

int main(int argc, char **argv)
{
	struct wire_cli c = { .size = UINT64_MAX, .mtu = 9000 };
	char errbuf[DGR_ERRBUF_SIZE] = "";
	int cmd = -1, next = 0, rc;

	if (argc < 2) {
		usage(stderr);
		return DGR_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "plan")) {
		cmd = CMD_PLAN;
	} else if (!strcmp(argv[1], "decode")) {
		cmd = CMD_DECODE;
	}
	if (cmd >= 0) {
		/* getopt's own messages (an unknown option, a missing value) name the command */
		argv[1] =
		    cmd == CMD_PLAN ? (char *)"dgrdma-wire plan" : (char *)"dgrdma-wire decode";
		rc = dgr_opts_parse(&wire_options, argc - 1, argv + 1, cmd,
				    cmd == CMD_PLAN ? DGR_OPTS_NO_OPERANDS : 0, wire_option, &c,
				    &next, errbuf);
	} else {
		/* no command: --help, --version, --list-options, else an unknown command */
		rc = dgr_opts_parse(&wire_options, argc, argv, -1,
				    DGR_OPTS_NO_OPERANDS | DGR_OPTS_OWN_MESSAGES, wire_option, &c,
				    NULL, errbuf);
		if (rc != DGR_OPTS_STOP) {
			fprintf(stderr,
				"dgrdma-wire: unknown command '%s' (expected plan or decode)\n",
				argv[1]);
			usage(stderr);
			return DGR_EXIT_USAGE;
		}
	}
	if (rc < 0) {
		fprintf(stderr, "dgrdma-wire: %s\n", errbuf);
		return DGR_EXIT_USAGE;
	}
	if (rc == DGR_OPTS_STOP) {
		if (c.stop == 'h') {
			usage(stdout);
		} else if (c.stop == OPT_VERSION) {
			printf("dgrdma-wire (dgrdma-tools) %s\n", DGR_VERSION);
		} else {
			dgr_opts_list_argv(&wire_options, argc, argv, stdout);
		}
		return DGR_EXIT_OK;
	}
	if (cmd == CMD_PLAN) {
		return cmd_plan(&c);
	}
	return cmd_decode(&c, argv + 1 + next, argc - 1 - next);
}
