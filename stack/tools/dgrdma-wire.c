// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dgrdma-wire: the wire codec from the command line.
 *   dgrdma-wire plan --size BYTES [--mtu N] [--udp] [--used N]
 *       how a transaction is fragmented into frames
 *   dgrdma-wire decode [--udp] [--mem-size N] [HEX...]
 *       decode DG-RDMA frames given as hex (arguments or one per stdin line)
 */
#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/wire.h>

#include "cli.h"
#include "dgrdma-version.h"

#define MAX_FRAME 65536

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: dgrdma-wire plan --size BYTES [--mtu N] [--udp] [--used N]\n"
		"       dgrdma-wire decode [--udp] [--mem-size BYTES] [HEX...]\n"
		"\n"
		"plan    print the fragments and frames of one transaction\n"
		"  --size BYTES   transaction data length, 0..%u\n"
		"  --mtu N        interface MTU, 64..65535 (default 9000)\n"
		"  --udp          frames travel in UDP (frame = MTU - 30)\n"
		"  --used N       bytes already used in the current frame (default 0: new frame)\n"
		"decode  decode frames given as hex strings, or one per line on stdin\n"
		"  --udp          input is a UDP payload (2-byte pad first)\n"
		"  --mem-size N   check addresses against a receiver memory of N bytes\n"
		"  -h, --help     this text\n"
		"  --version      the version of dgrdma-tools\n"
		"\n"
		"Exit status (docs/cli.md): 0 done; 1 decode: a frame that does not decode\n"
		"(plan: no plan); 2 bad usage.\n",
		DGR_FLAGW_MAX_LEN);
}

/*
 * An option getopt refused (it has named it): one of the other command's is named so
 * ("decode: --size is a plan option"). Returns 2, the exit status of bad usage.
 */
static int bad_option(const char *cmd, const char *arg)
{
	static const char *const plan_only[] = { "--size", "--mtu", "--used" };
	static const char *const decode_only[] = { "--mem-size" };
	bool plan = strcmp(cmd, "plan") == 0;
	const char *const *other = plan ? decode_only : plan_only;
	size_t n = plan ? 1 : 3;

	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(other[i]);

		if (strncmp(arg, other[i], len) == 0 && (arg[len] == '\0' || arg[len] == '=')) {
			fprintf(stderr, "dgrdma-wire: %s: %s is a%s option\n", cmd, other[i],
				plan ? " decode" : " plan");
			return 2;
		}
	}
	fprintf(stderr, "dgrdma-wire: %s: see --help\n", cmd);
	return 2;
}

/* Parses an unsigned number in [min, max]; prints the error naming the option. */
static int parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char err[DGR_ERRBUF_SIZE];

	if (dgr_parse_u64(opt, s, min, max, false, out, err) < 0) {
		fprintf(stderr, "dgrdma-wire: %s\n", err);
		return -1;
	}
	return 0;
}

static int cmd_plan(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' }, { "mtu", required_argument, NULL, 'm' },
		{ "udp", no_argument, NULL, 'u' },	  { "used", required_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },	  { NULL, 0, NULL, 0 },
	};
	uint64_t size = UINT64_MAX, mtu = 9000, used = 0;
	bool udp = false;
	static uint8_t frame[MAX_FRAME];
	uint8_t *data = NULL;
	struct dgr_frame_builder fb;
	struct dgr_frame_hdr hdr = { .src_id = 1, .dst_id = 2, .frame_seq = 1 };
	struct dgr_txn txn;
	struct dgr_txn_cursor cur;
	size_t cap;
	int c, rc, frames = 0, ret = 1;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_u64("--size", optarg, 0, DGR_FLAGW_MAX_LEN, &size)) {
				return 2;
			}
			break;
		case 'm':
			if (parse_u64("--mtu", optarg, 64, 65535, &mtu)) {
				return 2;
			}
			break;
		case 'u':
			udp = true;
			break;
		case 'U':
			if (parse_u64("--used", optarg, 0, 65535, &used)) {
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return bad_option(argv[0] + strlen("dgrdma-wire "), argv[optind - 1]);
		}
	}
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

static int hex_to_bytes(const char *s, uint8_t *out, size_t cap, size_t *len)
{
	size_t n = 0;
	int hi = -1;

	for (; *s; s++) {
		int v;

		if (isspace((unsigned char)*s) || *s == ':') {
			continue;
		}
		if (!isxdigit((unsigned char)*s)) {
			return -1;
		}
		v = isdigit((unsigned char)*s) ? *s - '0' : (tolower((unsigned char)*s) - 'a' + 10);
		if (hi < 0) {
			hi = v;
		} else {
			if (n == cap) {
				return -1;
			}
			out[n++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	if (hi >= 0) {
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

	if (hex_to_bytes(hex, buf, sizeof(buf), &len) < 0) {
		fprintf(stderr, "dgrdma-wire: not a hex string: '%.40s'\n", hex);
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

static int cmd_decode(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "udp", no_argument, NULL, 'u' },
		{ "mem-size", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool udp = false;
	uint64_t mem_size = 0;
	int c, bad = 0;
	char line[4 * MAX_FRAME];

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'u':
			udp = true;
			break;
		case 'M':
			if (parse_u64("--mem-size", optarg, 1, UINT32_MAX + 1ull, &mem_size)) {
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return bad_option(argv[0] + strlen("dgrdma-wire "), argv[optind - 1]);
		}
	}
	if (optind < argc) {
		for (int i = optind; i < argc; i++) {
			bad |= decode_one(argv[i], udp, mem_size);
		}
		return bad;
	}
	while (fgets(line, sizeof(line), stdin)) {
		if (line[strspn(line, " \t\r\n")] == '\0') {
			continue;
		}
		bad |= decode_one(line, udp, mem_size);
	}
	return bad;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("dgrdma-wire (dgrdma-tools) %s\n", DGR_VERSION);
		return 0;
	}
	/* getopt's own messages (an unknown option, a missing value) name the command */
	if (!strcmp(argv[1], "plan")) {
		argv[1] = (char *)"dgrdma-wire plan";
		return cmd_plan(argc - 1, argv + 1);
	}
	if (!strcmp(argv[1], "decode")) {
		argv[1] = (char *)"dgrdma-wire decode";
		return cmd_decode(argc - 1, argv + 1);
	}
	fprintf(stderr, "dgrdma-wire: unknown command '%s' (expected plan or decode)\n", argv[1]);
	usage(stderr);
	return 2;
}
