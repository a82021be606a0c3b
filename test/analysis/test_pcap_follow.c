// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of following a capture file while it is written (pcap_input.c's
 * pcap_input_follow_*, latency-report --live --live-follow): captures from
 * dgrdma-gen (pcapng, pcap with ns and with us timestamps) are written piece
 * by piece, cut anywhere (in the header, a record's header, its data), and
 * read after every piece; the wire analysis must end equal to the offline
 * read of the whole file, doorbell for doorbell.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dgrdma/contract.h>

#include "cli.h"
#include "pcap_input.h"
#include "wire_analysis.h"
#include "../unit/tap.h"

static char dir[] = "/tmp/dgr-follow.XXXXXX";

static void opts(struct wa_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->reasm_timeout_ns = 1000000000ull;
	o->dcp_doorbells = true;
	o->dcp_bell_lo = o->dcp_bell_hi = DGR_DCP_DOORBELL_ADDR;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf = NULL;
	long n;

	if (!fp) {
		return NULL;
	}
	if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) > 0 && fseek(fp, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, fp) == (size_t)n) {
		*len = (size_t)n;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(fp);
	return buf;
}

/* Same frames, same doorbells and latencies (time and value, in order). */
static bool same_analysis(const struct wire_analysis *a, const struct wire_analysis *b)
{
	unsigned int d;
	size_t i;

	if (a->frames != b->frames || a->dgrdma_frames != b->dgrdma_frames ||
	    a->malformed_frames != b->malformed_frames) {
		return false;
	}
	for (d = 0; d < 2; d++) {
		if (a->dir[d].transactions != b->dir[d].transactions ||
		    a->dir[d].doorbells != b->dir[d].doorbells ||
		    a->dir[d].matched != b->dir[d].matched || a->lat[d].n != b->lat[d].n) {
			return false;
		}
		for (i = 0; i < a->lat[d].n; i++) {
			if (a->lat[d].s[i].t != b->lat[d].s[i].t ||
			    a->lat[d].s[i].value != b->lat[d].s[i].value) {
				return false;
			}
		}
	}
	return true;
}

/* Follows a copy of the capture at path written piece by piece; compares with the offline read. */
static void follow_in_pieces(const char *path, const char *name)
{
	char errbuf[DGR_ERRBUF_SIZE], out[256];
	struct wire_analysis offline, live;
	struct pcap_follow *f = NULL;
	struct wa_opts o;
	unsigned char *buf;
	size_t len = 0, at = 0, piece;
	uint32_t lcg = 12345;
	int n, fed = 0, mid = -1, pieces = 0, bad = 0;
	FILE *fp;

	opts(&o);
	buf = slurp(path, &len);
	if (!buf || wa_init(&offline, &o, errbuf) || wa_init(&live, &o, errbuf)) {
		tap_ok(0, "%s: set-up (%s)", name, path);
		free(buf);
		return;
	}
	pcap_input_read(path, &offline, false, errbuf);
	wa_finish(&offline);
	snprintf(out, sizeof(out), "%s/%s.follow", dir, name);
	if (pcap_input_follow_open(out, &live, &f, errbuf) < 0) {
		tap_ok(0, "%s: pcap_input_follow_open: %s", name, errbuf);
		goto out;
	}
	n = pcap_input_follow_read(f, errbuf);
	tap_ok(n == 0, "%s: before the file exists, nothing and no error (%d)", name, n);
	fp = fopen(out, "wb");
	if (!fp) {
		tap_ok(0, "%s: create %s", name, out);
		goto out;
	}
	while (at < len) {
		/* pieces of 1..2999 bytes: cuts land in the header, record headers and data */
		lcg = lcg * 1103515245u + 12345u;
		piece = 1 + (lcg >> 16) % 2999;
		piece = piece > len - at ? len - at : piece;
		if (fwrite(buf + at, 1, piece, fp) != piece || fflush(fp)) {
			bad++;
			break;
		}
		at += piece;
		pieces++;
		n = pcap_input_follow_read(f, errbuf);
		if (n < 0) {
			bad++;
			break;
		}
		fed += n;
		if (mid < 0 && at >= len / 2) {
			mid = fed;
		}
	}
	fclose(fp);
	tap_ok(!bad, "%s: %d pieces of %zu bytes read as written, no error (%s)", name, pieces, len,
	       bad ? errbuf : "");
	tap_ok(mid > 0 && (uint64_t)mid < offline.frames,
	       "%s: half-way through the file, part of the frames fed (%d of %" PRIu64 ")", name,
	       mid, offline.frames);
	n = pcap_input_follow_finish(f, true, errbuf);
	fed += n > 0 ? n : 0;
	wa_finish(&live);
	tap_ok(n >= 0 && (uint64_t)fed == offline.frames,
	       "%s: finished, every frame fed once (%d of %" PRIu64 ")", name, fed, offline.frames);
	tap_ok(
	    offline.lat[WA_RX].n > 0 && same_analysis(&offline, &live),
	    "%s: the analysis equals the offline read of the whole file (%zu doorbell latencies)",
	    name, offline.lat[WA_RX].n);
out:
	pcap_input_follow_close(f);
	wa_free(&offline);
	wa_free(&live);
	free(buf);
}

/* A file that ends on a cut record: an error once its writer is done, not before. */
static void follow_cut(const char *path)
{
	char errbuf[DGR_ERRBUF_SIZE] = "", out[256];
	struct wire_analysis w;
	struct pcap_follow *f = NULL;
	struct wa_opts o;
	unsigned char *buf;
	size_t len = 0;
	int n, m;
	FILE *fp;

	opts(&o);
	buf = slurp(path, &len);
	snprintf(out, sizeof(out), "%s/cut.pcapng", dir);
	fp = fopen(out, "wb");
	if (!buf || !fp || wa_init(&w, &o, errbuf)) {
		tap_ok(0, "cut: set-up");
		if (fp) {
			fclose(fp);
		}
		free(buf);
		return;
	}
	fwrite(buf, 1, len - 7, fp);
	fclose(fp);
	pcap_input_follow_open(out, &w, &f, errbuf);
	n = pcap_input_follow_finish(f, false, errbuf);
	tap_ok(n > 0,
	       "cut: an interrupted view reads the whole records (%d) and leaves the cut one", n);
	m = pcap_input_follow_finish(f, true, errbuf);
	tap_ok(m == -DGR_E_INVAL && strstr(errbuf, "only the first") &&
		   strstr(errbuf, "cut or damaged"),
	       "cut: the writer done, a file cut in a record is an error: '%s'", errbuf);
	pcap_input_follow_close(f);
	wa_free(&w);

	/* not a capture at all; a file that never holds a whole header */
	snprintf(out, sizeof(out), "%s/text", dir);
	fp = fopen(out, "w");
	if (fp) {
		fputs("not a capture, but text\n", fp);
		fclose(fp);
	}
	wa_init(&w, &o, errbuf);
	n = pcap_input_follow_open(out, &w, &f, errbuf);
	tap_ok(n == -DGR_E_INVAL && !f && strstr(errbuf, "not a pcap or pcapng capture"),
	       "a file there already that is not a capture: named at once: '%s'", errbuf);
	f = NULL;
	snprintf(out, sizeof(out), "%s/text-later", dir);
	pcap_input_follow_open(out, &w, &f, errbuf);
	fp = fopen(out, "w");
	if (fp) {
		fputs("written after\n", fp);
		fclose(fp);
	}
	n = pcap_input_follow_read(f, errbuf);
	tap_ok(n == -DGR_E_INVAL && strstr(errbuf, "not a pcap or pcapng capture"),
	       "a file written after it is followed that is not a capture: named: '%s'", errbuf);
	pcap_input_follow_close(f);
	snprintf(out, sizeof(out), "%s/short.pcap", dir);
	fp = fopen(out, "wb");
	if (fp) {
		fwrite(buf, 1, 10, fp);
		fclose(fp);
	}
	pcap_input_follow_open(out, &w, &f, errbuf);
	n = pcap_input_follow_read(f, errbuf);
	m = pcap_input_follow_finish(f, true, errbuf);
	tap_ok(n == 0 && m == -DGR_E_INVAL && strstr(errbuf, "no capture"),
	       "a header never finished: no error while written, then named: '%s'", errbuf);
	pcap_input_follow_close(f);
	wa_free(&w);
	free(buf);
}

int main(void)
{
	static const char *const formats[3] = { "pcapng", "pcap-ns", "pcap" };
	const char *build = getenv("DGR_BUILD");
	char cmd[1024], path[256];
	unsigned int i;

	if (!build) {
		tap_skip("DGR_BUILD is not set (run through test/run-suites.sh): no dgrdma-gen");
		return tap_done();
	}
	if (!mkdtemp(dir)) {
		tap_ok(0, "mkdtemp: %s", strerror(errno));
		return tap_done();
	}
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/gen.%s", dir, formats[i]);
		snprintf(cmd, sizeof(cmd),
			 "'%s/bin/dgrdma-gen' -o '%s' -e /dev/null --format %s --txns 400 "
			 "--buffers 8 --bytes 12000 --mtu 1500 --profile jitter > /dev/null",
			 build, path, formats[i]);
		if (system(cmd) != 0) {
			tap_ok(0, "dgrdma-gen --format %s", formats[i]);
			continue;
		}
		follow_in_pieces(path, formats[i]);
	}
	snprintf(path, sizeof(path), "%s/gen.pcapng", dir);
	follow_cut(path);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0) {
		tap_ok(0, "remove %s", dir);
	}
	return tap_done();
}
