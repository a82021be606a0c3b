/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A bounded UDP flood for the stall-cause scenario (issue 33, item 5): small
 * datagrams as fast as sendmmsg takes them to one IPv4 address and port, for
 * a number of seconds or datagrams, whichever ends first, so that the
 * receiving namespace's NET_RX softirq (steered with rps_cpus) has work on
 * the stack's CPU. Only ever aimed at a veth pair the test made itself.
 *
 *   udp-flood --to ADDR:PORT [--seconds S] [--count N] [--size BYTES]
 *
 * Prints "sent N" on standard output. Exits 0, 2 on bad usage, 3 when the
 * socket cannot be made or a send fails for another reason than a full queue.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include <dgrdma/wire.h>

#define FLOOD_BATCH 64

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: udp-flood --to ADDR:PORT [--seconds S] [--count N] [--size BYTES]\n"
		   "  --to ADDR:PORT   IPv4 address and port of the receiver (a test's own veth)\n"
		   "  --seconds S      stop after S seconds, 0.001..60 (default 1)\n"
		   "  --count N        stop after N datagrams, 1..1000000000 (default 1000000000)\n"
		   "  --size BYTES     payload bytes per datagram, 1..1472 (default 18)\n");
}

/* Parses "A.B.C.D:PORT" into *sa. Returns 0, or -DGR_E_INVAL with errbuf. */
static int parse_to(const char *s, struct sockaddr_in *sa, char *errbuf)
{
	char host[64];
	const char *colon = strrchr(s, ':');
	uint64_t port;
	int ret;

	if (!colon || (size_t)(colon - s) >= sizeof(host)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "--to: '%s' is not ADDR:PORT", s);
	}
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = '\0';
	ret = dgr_parse_u64("--to", colon + 1, 1, 65535, false, &port, errbuf);
	if (ret) {
		return ret;
	}
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, host, &sa->sin_addr) != 1) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "--to: '%s' is not an IPv4 address",
				      host);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "to", required_argument, NULL, 't' },
		{ "seconds", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'c' },
		{ "size", required_argument, NULL, 'z' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char errbuf[DGR_ERRBUF_SIZE] = "";
	char payload[1472];
	struct sockaddr_in to;
	struct mmsghdr msgs[FLOOD_BATCH];
	struct iovec iov;
	uint64_t seconds_ns = 1000000000ull, count = 1000000000ull, size = 18, sent = 0, end;
	bool have_to = false;
	int o, fd, i, rc = DGR_EXIT_OK;

	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		int ret = 0;

		switch (o) {
		case 't':
			ret = parse_to(optarg, &to, errbuf);
			have_to = true;
			break;
		case 's':
			ret = dgr_parse_seconds("--seconds", optarg, 60, &seconds_ns, errbuf);
			if (!ret && seconds_ns < 1000000) {
				ret = dgr_errbuf_set(errbuf, DGR_E_INVAL,
						     "--seconds: '%s' is out of range 0.001..60",
						     optarg);
			}
			break;
		case 'c':
			ret = dgr_parse_u64("--count", optarg, 1, 1000000000ull, false, &count,
					    errbuf);
			break;
		case 'z':
			ret = dgr_parse_u64("--size", optarg, 1, sizeof(payload), false, &size,
					    errbuf);
			break;
		case 'h':
			usage(stdout);
			return DGR_EXIT_OK;
		default:
			usage(stderr);
			return DGR_EXIT_USAGE;
		}
		if (ret) {
			fprintf(stderr, "udp-flood: %s\n", errbuf);
			return DGR_EXIT_USAGE;
		}
	}
	if (!have_to || optind != argc) {
		usage(stderr);
		return DGR_EXIT_USAGE;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		fprintf(stderr, "udp-flood: socket: %s\n", strerror(errno));
		return DGR_EXIT_FAILED;
	}
	memset(payload, 0x5a, sizeof(payload));
	iov.iov_base = payload;
	iov.iov_len = (size_t)size;
	memset(msgs, 0, sizeof(msgs));
	for (i = 0; i < FLOOD_BATCH; i++) {
		/* unconnected: the receiver's ICMP "port unreachable" does not fail the sends */
		msgs[i].msg_hdr.msg_name = &to;
		msgs[i].msg_hdr.msg_namelen = sizeof(to);
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	end = now_ns() + seconds_ns;
	while (sent < count && now_ns() < end) {
		unsigned int batch =
		    count - sent < FLOOD_BATCH ? (unsigned int)(count - sent) : FLOOD_BATCH;
		int n = sendmmsg(fd, msgs, batch, 0);

		if (n < 0) {
			if (errno == ENOBUFS || errno == EAGAIN || errno == EINTR) {
				continue;
			}
			fprintf(stderr, "udp-flood: sendmmsg: %s\n", strerror(errno));
			rc = DGR_EXIT_FAILED;
			break;
		}
		sent += (uint64_t)n;
	}
	close(fd);
	printf("sent %" PRIu64 "\n", sent);
	return rc;
}
