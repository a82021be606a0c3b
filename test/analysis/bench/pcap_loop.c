// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pcap-loop: the bare libpcap read loop over a capture file, the physical
 * limit of latency-report's capture input (make bench-read, issue 34 item 4).
 *
 *   pcap-loop CAPTURE
 *
 * Opens CAPTURE as latency-report opens a plain file (analysis/input/
 * capture_set.c: fopen, a 256 KiB stdio buffer, pcap_fopen_offline with
 * nanosecond timestamps) and reads every record with pcap_next_ex(), touching
 * nothing of the frame but its header. Prints "FRAMES CAPTURED_BYTES" on
 * standard output, so that the benchmark can check both read the same records.
 *
 * Exit status: 0, or 2 (bad usage, or a capture libpcap cannot read to its
 * end) with the reason on standard error.
 */
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>

#define READ_BUFFER (256 * 1024) /* latency-report's (capture_set.c) */

static char read_buffer[READ_BUFFER];

int main(int argc, char **argv)
{
	char perr[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	uint64_t frames = 0, bytes = 0;
	pcap_t *pc;
	FILE *fp;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: pcap-loop CAPTURE\n");
		return 2;
	}
	fp = fopen(argv[1], "rb");
	if (!fp) {
		fprintf(stderr, "pcap-loop: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	(void)setvbuf(fp, read_buffer, _IOFBF, sizeof(read_buffer));
	pc = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, perr);
	if (!pc) {
		fclose(fp);
		fprintf(stderr, "pcap-loop: %s: %s\n", argv[1], perr);
		return 2;
	}
	while ((rc = pcap_next_ex(pc, &h, &data)) == 1) {
		frames++;
		bytes += h->caplen;
	}
	if (rc == PCAP_ERROR) {
		fprintf(stderr, "pcap-loop: %s: %s\n", argv[1], pcap_geterr(pc));
		pcap_close(pc);
		return 2;
	}
	pcap_close(pc);
	printf("%" PRIu64 " %" PRIu64 "\n", frames, bytes);
	return 0;
}
