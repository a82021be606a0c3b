// SPDX-License-Identifier: GPL-2.0-or-later
/* Capture input through libpcap (see pcap_input.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <dgrdma/transport.h>
#include <dgrdma/wire.h>

#include "cli.h"
#include "pcap_input.h"

bool pcap_input_is_capture(const char *path)
{
	uint8_t m[4];
	FILE *fp = fopen(path, "rb");
	bool yes = false;
	static const uint32_t magics[] = { 0xA1B2C3D4, 0xD4C3B2A1, 0xA1B23C4D, 0x4D3CB2A1,
					   0x0A0D0D0A };
	unsigned int i;

	if (!fp) {
		return false;
	}
	if (fread(m, 1, 4, fp) == 4) {
		uint32_t v =
		    (uint32_t)m[0] << 24 | (uint32_t)m[1] << 16 | (uint32_t)m[2] << 8 | m[3];

		for (i = 0; i < sizeof(magics) / sizeof(magics[0]); i++) {
			yes |= v == magics[i];
		}
	}
	fclose(fp);
	return yes;
}

/*
 * An IPv6 address, bare or as [address]:port (the stack has no IPv6, but a
 * capture of other software may). Returns 16, 18 with a port, or -DGR_E_INVAL.
 */
static int parse_ipv6(const char *s, struct eng_addr *a)
{
	char text[INET6_ADDRSTRLEN];
	uint8_t ip[16];
	const char *end;
	char *port_end;
	unsigned long port = 0;
	size_t n;

	if (s[0] != '[') {
		if (inet_pton(AF_INET6, s, ip) != 1) {
			return -DGR_E_INVAL;
		}
		eng_addr_ipv6(a, ip, 0);
		return 16;
	}
	end = strchr(s, ']');
	n = end ? (size_t)(end - s - 1) : 0;
	if (!end || n == 0 || n >= sizeof(text) || end[1] != ':' || !end[2]) {
		return -DGR_E_INVAL;
	}
	memcpy(text, s + 1, n);
	text[n] = '\0';
	errno = 0;
	port = strtoul(end + 2, &port_end, 10);
	if (inet_pton(AF_INET6, text, ip) != 1 || errno || *port_end || port == 0 || port > 65535) {
		return -DGR_E_INVAL;
	}
	eng_addr_ipv6(a, ip, (uint16_t)port);
	return 18;
}

int pcap_input_parse_addr(const char *s, struct eng_addr *a)
{
	struct sockaddr_in sa;
	uint8_t mac[6];

	/* the stack's rules (--peer): one parser for a MAC, one for an IPv4 address[:port] */
	if (dgr_parse_mac(s, mac) == 0) {
		eng_addr_mac(a, mac);
		return 6;
	}
	if (strchr(s, ':') && strchr(s, ':') != strrchr(s, ':')) {
		return parse_ipv6(s, a);
	}
	if (dgr_parse_inet(s, 0, &sa) < 0) {
		return -DGR_E_INVAL;
	}
	eng_addr_ipv4(a, (const uint8_t *)&sa.sin_addr.s_addr, ntohs(sa.sin_port));
	return strchr(s, ':') ? 6 : 4;
}

static void show_progress(FILE *fp, off_t size, struct timespec *start, struct timespec *last)
{
	struct timespec now;
	double el;
	long pos;

	clock_gettime(CLOCK_MONOTONIC, &now);
	el = (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
	if (el < 1.0 ||
	    (double)(now.tv_sec - last->tv_sec) + (double)(now.tv_nsec - last->tv_nsec) / 1e9 <
		0.25) {
		return;
	}
	*last = now;
	pos = ftell(fp);
	if (pos >= 0 && size > 0) {
		fprintf(stderr, "\rlatency-report: %5.1f%% of the capture, %.1f s",
			100.0 * (double)pos / (double)size, el);
	}
}

/*
 * An IP fragment (f: FD_IP_FRAGMENT) into the analysis's reassembly: kept
 * (f stays a fragment), refused (an other frame), or the fragment that
 * completes its datagram, which f becomes, decoded as a datagram that came
 * whole.
 */
static void put_together(struct wire_analysis *w, struct frame_decoded *f,
			 const struct fd_ports *ports)
{
	const uint8_t *whole;
	size_t whole_len;
	int rc;

	if (!w->ip_defrag.slot && ip_defrag_init(&w->ip_defrag) < 0) {
		f->kind = FD_OTHER;
		return;
	}
	rc = ip_defrag_add(&w->ip_defrag, &f->frag.key, f->frag.off, f->payload.p, f->payload.len,
			   f->frag.more, f->ts, &whole, &whole_len);
	if (rc < 0) {
		f->kind = FD_OTHER;
	} else if (rc > 0) {
		frame_decode_datagram(f, whole, whole_len, ports);
	}
}

/*
 * pcap_input_feed() with the analysis' UDP ports given: read_frame() takes
 * them once per file, and this inline, rather than a call and the ports' copy
 * per frame.
 */
static inline void feed(struct wire_analysis *w, int dlt, const struct pcap_pkthdr *h,
			const u_char *data, uint64_t ref, const struct fd_ports *ports)
{
	struct frame_decoded f;

	frame_decode(&f, dlt, data, h->caplen, h->len, ports);
	/* the reader asked libpcap for nanoseconds: tv_usec holds them */
	f.ts = wa_frame_time(w, (int64_t)h->ts.tv_sec, (int64_t)h->ts.tv_usec);
	f.ref = ref;
	if (f.kind == FD_IP_FRAGMENT) {
		put_together(w, &f, ports);
	}
	wa_feed_frame(w, &f);
}

/* See pcap_input.h. */
void pcap_input_feed(struct wire_analysis *w, int dlt, const struct pcap_pkthdr *h,
		     const u_char *data, uint64_t ref)
{
	struct fd_ports ports = wa_udp_ports(w);

	feed(w, dlt, h, data, ref, &ports);
}

/* What pcap_dispatch() hands each frame of a file to (read_frame()). */
struct read_ctx {
	struct wire_analysis *w;
	int dlt;
	uint64_t *ref;
	struct fd_ports ports; /* the analysis' options: the same for every frame */
};

static void read_frame(u_char *user, const struct pcap_pkthdr *h, const u_char *data)
{
	struct read_ctx *ctx = (struct read_ctx *)user;

	feed(ctx->w, ctx->dlt, h, data, ++*ctx->ref, &ctx->ports);
}

int pcap_input_read_pcap(pcap_t *pc, const char *path, long long size, struct wire_analysis *w,
			 bool progress, uint64_t *ref, char *errbuf)
{
	struct read_ctx ctx;
	int dlt, rc, ret = 0;
	uint64_t first = *ref;
	struct timespec start, last;
	bool shown = false;

	dlt = pcap_datalink(pc);
	if (!fd_link_supported(dlt)) {
		snprintf(errbuf, DGR_ERRBUF_SIZE,
			 "%s: link type %s (%d) carries no DG-RDMA; supported: EN10MB, LINUX_SLL, "
			 "LINUX_SLL2, RAW, IPV4, IPV6, NULL, LOOP",
			 path,
			 pcap_datalink_val_to_name(dlt) ? pcap_datalink_val_to_name(dlt) : "?",
			 dlt);
		return -DGR_E_INVAL;
	}
	progress = progress && isatty(STDERR_FILENO) && size > 0;
	clock_gettime(CLOCK_MONOTONIC, &start);
	last = start;
	ctx.w = w;
	ctx.dlt = dlt;
	ctx.ref = ref;
	ctx.ports = wa_udp_ports(w);
	/*
	 * pcap_dispatch(), not pcap_next_ex(): the same records with less of
	 * libpcap's work per record (about 65 instructions; docs/performance/
	 * analysis.md, "Reading at the bare loop's pace"). 0 at the file's end,
	 * PCAP_ERROR at a cut or damaged record (what came before it was fed).
	 */
	while ((rc = pcap_dispatch(pc, 0x10000, read_frame, (u_char *)&ctx)) > 0) {
		if (progress && rc == 0x10000) { /* every 65536 frames, as far as the file goes */
			show_progress(pcap_file(pc), (off_t)size, &start, &last);
			shown = true;
		}
	}
	if (shown) {
		fputc('\n', stderr);
	}
	if (rc == PCAP_ERROR) {
		/* a cut or damaged record: what was read before it is kept, and said so */
		char msg[2 * DGR_ERRBUF_SIZE + PATH_MAX];

		if (*ref == first) {
			snprintf(msg, sizeof(msg),
				 "%s: no frame could be read from the %lld-byte file: %s", path,
				 size, pcap_geterr(pc));
			ret = -DGR_E_INVAL;
		} else {
			snprintf(msg, sizeof(msg),
				 "%s: only the first %" PRIu64
				 " frames could be read, the rest of the %lld-byte file is cut or "
				 "damaged: %s",
				 path, *ref - first, size, pcap_geterr(pc));
			ret = PCAP_INPUT_PARTIAL;
		}
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.*s", DGR_ERRBUF_SIZE - 1, msg);
	}
	return ret;
}

int pcap_input_read(const char *path, struct wire_analysis *w, bool progress, char *errbuf)
{
	char perr[PCAP_ERRBUF_SIZE];
	struct stat st;
	uint64_t ref = 0;
	pcap_t *pc;
	int ret;

	pc = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, perr);
	if (!pc) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.100s: %.140s", path, perr);
		return -DGR_E_SYS;
	}
	ret = pcap_input_read_pcap(pc, path, stat(path, &st) == 0 ? (long long)st.st_size : -1, w,
				   progress, &ref, errbuf);
	pcap_close(pc);
	return ret;
}

/* ---- live capture (latency-report --live --live-if) ------------------------------------------ */

struct pcap_live {
	pcap_t *pc;
	pcap_dumper_t *dump; /* --live-pcap: what was captured, for an offline report after */
	int dlt;
	uint64_t ref;
	struct wire_analysis *w;
};

int pcap_input_live_open(const char *iface, const char *filter, const char *save,
			 struct wire_analysis *w, struct pcap_live **out, char *errbuf)
{
	char perr[PCAP_ERRBUF_SIZE];
	struct bpf_program prog;
	struct pcap_live *l = calloc(1, sizeof(*l));
	int ret = -DGR_E_SYS;

	*out = NULL;
	if (!l) {
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	l->w = w;
	l->pc = pcap_create(iface, perr);
	if (!l->pc) {
		dgr_errbuf_set(errbuf, DGR_E_SYS, "--live-if %.60s: %.150s", iface, perr);
		goto fail;
	}
	/* every frame handed over at once (an interval must not wait for a full block) */
	if (pcap_set_immediate_mode(l->pc, 1) || pcap_set_snaplen(l->pc, 262144) ||
	    pcap_set_buffer_size(l->pc, 64 << 20) ||
	    pcap_set_tstamp_precision(l->pc, PCAP_TSTAMP_PRECISION_NANO) ||
	    pcap_activate(l->pc) < 0) {
		dgr_errbuf_set(errbuf, DGR_E_SYS,
			       "--live-if %.60s: %.120s (capturing needs CAP_NET_RAW and "
			       "CAP_NET_ADMIN)",
			       iface, pcap_geterr(l->pc));
		goto fail;
	}
	l->dlt = pcap_datalink(l->pc);
	if (!fd_link_supported(l->dlt)) {
		ret = dgr_errbuf_set(errbuf, DGR_E_INVAL,
				     "--live-if %.60s: link type %d carries no DG-RDMA", iface,
				     l->dlt);
		goto fail;
	}
	if (pcap_compile(l->pc, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) < 0) {
		ret = dgr_errbuf_set(errbuf, DGR_E_INVAL, "--live-filter '%.80s': %.120s", filter,
				     pcap_geterr(l->pc));
		goto fail;
	}
	if (pcap_setfilter(l->pc, &prog) < 0) {
		pcap_freecode(&prog);
		dgr_errbuf_set(errbuf, DGR_E_SYS, "--live-filter: %.120s", pcap_geterr(l->pc));
		goto fail;
	}
	pcap_freecode(&prog);
	if (pcap_setnonblock(l->pc, 1, perr) < 0) {
		dgr_errbuf_set(errbuf, DGR_E_SYS, "--live-if %.60s: %.150s", iface, perr);
		goto fail;
	}
	if (save) {
		l->dump = pcap_dump_open(l->pc, save);
		if (!l->dump) {
			dgr_errbuf_set(errbuf, DGR_E_SYS, "--live-pcap %.80s: %.120s", save,
				       pcap_geterr(l->pc));
			goto fail;
		}
	}
	*out = l;
	return 0;
fail:
	if (l->pc) {
		pcap_close(l->pc);
	}
	free(l);
	return ret;
}

int pcap_input_live_fd(const struct pcap_live *l)
{
	return pcap_get_selectable_fd(l->pc);
}

int pcap_input_live_read(struct pcap_live *l, char *errbuf)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	int rc, n = 0;

	while ((rc = pcap_next_ex(l->pc, &h, &data)) == 1) {
		if (l->dump) {
			pcap_dump((u_char *)l->dump, h, data);
		}
		pcap_input_feed(l->w, l->dlt, h, data, ++l->ref);
		n++;
	}
	if (rc < 0) {
		return dgr_errbuf_set(errbuf, DGR_E_SYS, "capture: %.200s", pcap_geterr(l->pc));
	}
	return n;
}

int pcap_input_live_close(struct pcap_live *l, char *errbuf)
{
	int ret = 0;

	if (!l) {
		return 0;
	}
	if (l->dump && (pcap_dump_flush(l->dump) || ferror(pcap_dump_file(l->dump)))) {
		ret = dgr_errbuf_set(errbuf, DGR_E_SYS, "--live-pcap: cannot write the capture");
	}
	if (l->dump) {
		pcap_dump_close(l->dump);
	}
	pcap_close(l->pc);
	free(l);
	return ret;
}

/* ---- a capture file followed as it is written (latency-report --live --live-follow) ---------- */

#define FOLLOW_POLL_NS 50000000L /* how often the file is looked at */

struct pcap_follow {
	char *path;
	pcap_t *pc; /* NULL until the file holds a whole header (pcapng: and its first IDB) */
	int dlt;
	int timer;
	uint64_t ref;
	bool cut;		    /* the last read stopped at a record not whole (yet) */
	char why[PCAP_ERRBUF_SIZE]; /* why the file cannot be opened yet, or the record cut */
	struct wire_analysis *w;
};

static int follow_try_open(struct pcap_follow *f, char *errbuf);

int pcap_input_follow_open(const char *path, struct wire_analysis *w, struct pcap_follow **out,
			   char *errbuf)
{
	struct itimerspec its = { .it_interval = { 0, FOLLOW_POLL_NS },
				  .it_value = { 0, FOLLOW_POLL_NS } };
	struct pcap_follow *f = calloc(1, sizeof(*f));
	int rc;

	*out = NULL;
	if (!f || !(f->path = strdup(path))) {
		free(f);
		return dgr_errbuf_set(errbuf, DGR_E_NOMEM, "out of memory");
	}
	f->w = w;
	snprintf(f->why, sizeof(f->why), "the file was not created");
	f->timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (f->timer < 0 || timerfd_settime(f->timer, 0, &its, NULL) < 0) {
		int err = errno;

		pcap_input_follow_close(f);
		return dgr_errbuf_set(errbuf, DGR_E_SYS, "--live-follow: timer: %s", strerror(err));
	}
	/* a file there already that is not a capture is named at once */
	rc = follow_try_open(f, errbuf);
	if (rc < 0) {
		pcap_input_follow_close(f);
		return rc;
	}
	*out = f;
	return 0;
}

int pcap_input_follow_fd(const struct pcap_follow *f)
{
	return f->timer;
}

static bool capture_magic(const uint8_t *m)
{
	static const uint8_t magics[5][4] = {
		{ 0xa1, 0xb2, 0xc3, 0xd4 }, { 0xd4, 0xc3, 0xb2, 0xa1 }, /* pcap, us */
		{ 0xa1, 0xb2, 0x3c, 0x4d }, { 0x4d, 0x3c, 0xb2, 0xa1 }, /* pcap, ns */
		{ 0x0a, 0x0d, 0x0d, 0x0a },				/* pcapng SHB */
	};
	unsigned int i;

	for (i = 0; i < 5; i++) {
		if (!memcmp(m, magics[i], 4)) {
			return true;
		}
	}
	return false;
}

/*
 * Opens the capture once its header is whole. Returns 1 when open, 0 when
 * not yet (f->why says why), or a negative DGR_E_* code with errbuf filled.
 */
static int follow_try_open(struct pcap_follow *f, char *errbuf)
{
	char perr[PCAP_ERRBUF_SIZE];
	uint8_t magic[4];
	FILE *fp;

	if (f->pc) {
		return 1;
	}
	fp = fopen(f->path, "rb");
	if (!fp) {
		if (errno == ENOENT) {
			return 0;
		}
		return dgr_errbuf_set(errbuf, DGR_E_SYS, "--live-follow %.100s: %s", f->path,
				      strerror(errno));
	}
	if (fread(magic, 1, sizeof(magic), fp) < sizeof(magic)) {
		snprintf(f->why, sizeof(f->why), "not even a capture's magic number was written");
		fclose(fp);
		return 0;
	}
	if (!capture_magic(magic)) {
		fclose(fp);
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--live-follow %.100s: not a pcap or pcapng capture",
				      f->path);
	}
	rewind(fp);
	/* a header still being written fails here: tried again at the next look */
	f->pc = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, perr);
	if (!f->pc) {
		snprintf(f->why, sizeof(f->why), "%s", perr);
		fclose(fp);
		return 0;
	}
	f->dlt = pcap_datalink(f->pc);
	if (!fd_link_supported(f->dlt)) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--live-follow %.100s: link type %d carries no DG-RDMA",
				      f->path, f->dlt);
	}
	return 1;
}

/* Feeds the whole records there are; at the first that is not, goes back to its start. */
static int follow_records(struct pcap_follow *f, char *errbuf)
{
	FILE *fp = pcap_file(f->pc);
	struct pcap_pkthdr *h;
	const u_char *data;
	int rc, n = 0;

	for (;;) {
		off_t at = ftello(fp);

		if (at < 0) {
			return dgr_errbuf_set(errbuf, DGR_E_SYS, "--live-follow %.100s: %s",
					      f->path, strerror(errno));
		}
		rc = pcap_next_ex(f->pc, &h, &data);
		if (rc == 1) {
			pcap_input_feed(f->w, f->dlt, h, data, ++f->ref);
			n++;
			continue;
		}
		/*
		 * EOF (PCAP_ERROR_BREAK), or a record cut where the writer has
		 * got to (PCAP_ERROR, "truncated"): read it again from its
		 * start later. libpcap keeps no state of a record it could not
		 * read whole; the FILE's end-of-file flag is cleared.
		 */
		f->cut = rc == PCAP_ERROR;
		if (f->cut) {
			snprintf(f->why, sizeof(f->why), "%s", pcap_geterr(f->pc));
		}
		clearerr(fp);
		if (fseeko(fp, at, SEEK_SET) < 0) {
			return dgr_errbuf_set(errbuf, DGR_E_SYS, "--live-follow %.100s: %s",
					      f->path, strerror(errno));
		}
		return n;
	}
}

int pcap_input_follow_read(struct pcap_follow *f, char *errbuf)
{
	uint64_t expired;
	int rc;

	/* the timer's count is of no use: only that it woke the poll */
	if (read(f->timer, &expired, sizeof(expired)) < 0 && errno != EAGAIN) {
		return dgr_errbuf_set(errbuf, DGR_E_SYS, "--live-follow: timer: %s",
				      strerror(errno));
	}
	rc = follow_try_open(f, errbuf);
	return rc <= 0 ? rc : follow_records(f, errbuf);
}

int pcap_input_follow_finish(struct pcap_follow *f, bool writer_done, char *errbuf)
{
	struct timespec pause = { 0, FOLLOW_POLL_NS };
	int rc, n = 0, tries = writer_done ? 20 : 0;

	for (;;) {
		rc = follow_try_open(f, errbuf);
		if (rc > 0) {
			rc = follow_records(f, errbuf);
		}
		if (rc < 0) {
			return rc;
		}
		n += rc;
		if ((f->pc && !f->cut) || tries-- <= 0) {
			break;
		}
		/* the writer's last write may still be on its way */
		nanosleep(&pause, NULL);
	}
	if (!f->pc && writer_done) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--live-follow %.100s: no capture: %.150s", f->path, f->why);
	}
	if (f->cut && writer_done) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "--live-follow %.100s: only the first %" PRIu64
				      " frames could be read, the rest is cut or damaged: %.120s",
				      f->path, f->ref, f->why);
	}
	return n;
}

void pcap_input_follow_close(struct pcap_follow *f)
{
	if (!f) {
		return;
	}
	if (f->pc) {
		pcap_close(f->pc);
	}
	if (f->timer >= 0) {
		close(f->timer);
	}
	free(f->path);
	free(f);
}
