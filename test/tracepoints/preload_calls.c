// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * preload-calls PORT_HOST PORT_FPGA: an application whose every socket call result
 * is printed, one line a call (return value, errno, msg_flags, control data, address, bytes),
 * so that test_preload.sh can compare a run under libdgrdma-preload.so with one without it:
 * the lines must be the same. The "host" socket is bound to 127.0.0.1:PORT_HOST (given as a
 * DG-RDMA port, so the tracer decodes it), the "FPGA" socket to PORT_FPGA. The FPGA sends
 * data transactions of one message with a flag; the host answers each with a doorbell. Every
 * receive call of libc is used, with and without control room, with a control buffer too
 * small (MSG_CTRUNC), with the application's own IP_PKTINFO and, last, its own
 * SO_TIMESTAMPNS (whose value differs run to run: only its type and length are printed).
 * Before the host's socket closes, doorbells as DCP property writes leave on UDP sockets of
 * their own (a control plane's): one connected to the FPGA's address, one to 127.0.0.2,
 * where no stream comes from; after it closes, one more to the FPGA's (PORT_FPGA must be a
 * DG-RDMA port to the tracer too, for them to be traced).
 * At the end it prints "frames_sent N doorbells_sent N txns_sent N" for the trace's counts
 * (the flag-only doorbells: the DCP writes are not counted there).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <dgrdma/contract.h>
#include <dgrdma/dcp.h>
#include <dgrdma/proto.h>
#include <dgrdma/wire.h>

static unsigned int call_no;
static unsigned int frames_sent, doorbells_sent, txns_sent;
static uint16_t fpga_seq = 1, host_seq = 1;
static uint32_t txn_id = 100;

static void hex(const char *tag, const void *p, size_t n)
{
	const uint8_t *b = p;

	printf(" %s=", tag);
	for (size_t i = 0; i < n; i++) {
		printf("%02x", b[i]);
	}
}

/* Control messages: type, level, length, and data except for timestamps (they differ). */
static void print_cmsgs(struct msghdr *m)
{
	struct cmsghdr *c;

	printf(" controllen=%zu", m->msg_controllen);
	if (!m->msg_control || m->msg_controllen < sizeof(struct cmsghdr)) {
		return;
	}
	for (c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
		printf(" cmsg=%d/%d/%zu", c->cmsg_level, c->cmsg_type, (size_t)c->cmsg_len);
		if (!(c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) &&
		    c->cmsg_len <= m->msg_controllen && c->cmsg_len >= CMSG_LEN(0)) {
			hex("data", CMSG_DATA(c), c->cmsg_len - CMSG_LEN(0));
		}
	}
}

static void result(const char *what, long ret, int err)
{
	printf("%u %s ret=%ld errno=%d", ++call_no, what, ret, ret < 0 ? err : 0);
}

/* A datagram from the FPGA: one data transaction of 64 bytes with a flag, after hdr bytes. */
static size_t fpga_frame(uint8_t *buf, size_t cap, size_t hdr)
{
	struct dgr_frame_hdr fh = { .dst_id = 1, .src_id = 2, .frame_seq = fpga_seq++ };
	struct dgr_frame_builder fb;
	uint8_t data[64];
	struct dgr_msg m = { .txn_id = txn_id,
			     .flag_addr = 0x10000 + 4 * (txn_id % 4),
			     .flag_value = dgr_flag_encode(64, false, false, 0),
			     .num_msgs_in_txn = 1,
			     .msg_seq = 1,
			     .data_addr = 0x1000 * (txn_id % 4),
			     .data_len = 64 };

	txn_id++;
	memset(data, (int)txn_id, sizeof(data));
	memset(buf, 0, hdr);
	if (dgr_fb_init(&fb, buf + hdr, cap - hdr, &fh) < 0 || dgr_fb_add(&fb, &m, data, 64) < 0) {
		return 0;
	}
	return hdr + dgr_fb_finish(&fb);
}

/* The host's doorbell frame for the buffer of flag index idx, acknowledging ack. */
static size_t doorbell_frame(uint8_t *buf, size_t cap, size_t hdr, uint16_t ack, uint32_t idx)
{
	struct dgr_frame_hdr fh = {
		.dst_id = 2, .src_id = 1, .frame_seq = host_seq++, .ack_start = ack, .ack_count = 1
	};
	struct dgr_frame_builder fb;
	struct dgr_msg m = { .txn_id = 5000 + idx,
			     .flag_addr = 0x20000 + 4 * idx,
			     .flag_value = DGR_DOORBELL_VALUE };

	memset(buf, 0, hdr);
	if (dgr_fb_init(&fb, buf + hdr, cap - hdr, &fh) < 0 || dgr_fb_add(&fb, &m, NULL, 0) < 0) {
		return 0;
	}
	return hdr + dgr_fb_finish(&fb);
}

struct link {
	int host, fpga;
	int dcp, dcp_other; /* DCP sockets: connected to the FPGA's address; to 127.0.0.2 */
	size_t hdr;	    /* bytes before the frame: the UDP pad */
	struct sockaddr_storage to_host, to_fpga;
	socklen_t to_len;
};

/*
 * A doorbell as a DCP write of idx to the doorbell property, on a DCP socket (to: NULL for
 * the connected address); how names the line.
 */
static void dcp_doorbell(int fd, const struct sockaddr_in *to, const char *how, uint32_t idx)
{
	struct dcp_packet p = { .kind = DCP_KIND_WRITE,
				.low = 0xF,
				.tag = (uint8_t)idx,
				.addr = DGR_DCP_DOORBELL_ADDR,
				.data = idx };
	uint8_t buf[64] = { DGR_ETHERTYPE_DCP >> 8, DGR_ETHERTYPE_DCP & 0xFF };
	int n = dcp_encode(buf + DGR_UDP_PAD_LEN, sizeof(buf) - DGR_UDP_PAD_LEN, &p);
	long r;

	if (n < 0) {
		r = n;
	} else if (to) {
		r = sendto(fd, buf, DGR_UDP_PAD_LEN + (size_t)n, 0, (const struct sockaddr *)to,
			   sizeof(*to));
	} else {
		r = send(fd, buf, DGR_UDP_PAD_LEN + (size_t)n, 0);
	}
	result(how, r, errno);
	printf("\n");
}

static void fpga_send(struct link *l)
{
	uint8_t buf[256];
	size_t n = fpga_frame(buf, sizeof(buf), l->hdr);
	ssize_t r;

	r = sendto(l->fpga, buf, n, 0, (struct sockaddr *)&l->to_host, l->to_len);
	result("fpga-sendto", (long)r, errno);
	printf("\n");
	txns_sent++;
}

static void host_doorbell(struct link *l, const char *how, uint32_t idx)
{
	uint8_t buf[256];
	size_t n = doorbell_frame(buf, sizeof(buf), l->hdr, (uint16_t)(fpga_seq - 1), idx);
	struct iovec iov[2] = { { buf, 20 }, { buf + 20, n - 20 } };
	struct msghdr m = {
		.msg_name = &l->to_fpga, .msg_namelen = l->to_len, .msg_iov = iov, .msg_iovlen = 2
	};
	struct mmsghdr mm = { .msg_hdr = m };
	long r;

	if (!strcmp(how, "sendmsg")) {
		r = sendmsg(l->host, &m, 0);
	} else if (!strcmp(how, "sendmmsg")) {
		r = sendmmsg(l->host, &mm, 1, 0);
	} else {
		r = sendto(l->host, buf, n, 0, (struct sockaddr *)&l->to_fpga, l->to_len);
	}
	result(how, r, errno);
	printf("\n");
	frames_sent++;
	doorbells_sent++;
}

/* recvmsg with control room ctl (0: none) and name room; prints everything it returned. */
static void host_recvmsg(struct link *l, size_t ctl, int flags)
{
	union {
		char b[4096];
		struct cmsghdr align;
	} c;
	uint8_t buf[256];
	struct sockaddr_storage from;
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr m = { .msg_name = &from,
			    .msg_namelen = sizeof(from),
			    .msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = ctl ? c.b : NULL,
			    .msg_controllen = ctl };
	ssize_t r;

	memset(c.b, 0xaa, sizeof(c.b));
	memset(&from, 0, sizeof(from));
	r = recvmsg(l->host, &m, flags);
	result("recvmsg", (long)r, errno);
	printf(" flags=%#x namelen=%u", m.msg_flags, m.msg_namelen);
	if (r >= 0) {
		print_cmsgs(&m);
		hex("data", buf, (size_t)r);
		hex("after", c.b + m.msg_controllen,
		    8); /* bytes past the control data: untouched */
	}
	printf("\n");
}

static void host_recv_plain(struct link *l, const char *how)
{
	uint8_t buf[256];
	struct sockaddr_storage from;
	socklen_t fl = sizeof(from);
	ssize_t r;

	memset(&from, 0, sizeof(from));
	if (!strcmp(how, "recv")) {
		r = recv(l->host, buf, sizeof(buf), 0);
	} else if (!strcmp(how, "recvfrom")) {
		r = recvfrom(l->host, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
	} else if (!strcmp(how, "recv-short")) {
		r = recv(l->host, buf, 16, MSG_TRUNC); /* returns the whole length, copies 16 */
	} else {
		r = read(l->host, buf, sizeof(buf));
	}
	result(how, (long)r, errno);
	printf(" fromlen=%u", (unsigned int)fl);
	if (r >= 0) {
		hex("data", buf, (size_t)r < sizeof(buf) ? (size_t)r : 16);
	}
	printf("\n");
}

static void host_recvmmsg(struct link *l, unsigned int n, size_t ctl)
{
	union {
		char b[4][128];
		struct cmsghdr align;
	} c;
	uint8_t buf[4][256];
	struct iovec iov[4];
	struct mmsghdr mm[4];
	int r;

	memset(mm, 0, sizeof(mm));
	for (unsigned int i = 0; i < n; i++) {
		iov[i] = (struct iovec){ buf[i], sizeof(buf[i]) };
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
		mm[i].msg_hdr.msg_control = ctl ? c.b[i] : NULL;
		mm[i].msg_hdr.msg_controllen = ctl;
	}
	r = recvmmsg(l->host, mm, n, MSG_DONTWAIT, NULL);
	result("recvmmsg", r, errno);
	for (int i = 0; i < r; i++) {
		printf(" [len=%u flags=%#x", mm[i].msg_len, mm[i].msg_hdr.msg_flags);
		print_cmsgs(&mm[i].msg_hdr);
		hex("data", buf[i], mm[i].msg_len);
		printf("]");
	}
	printf("\n");
}

static void getopt_ts(struct link *l)
{
	int v = 7;
	socklen_t len = sizeof(v);
	int r = getsockopt(l->host, SOL_SOCKET, SO_TIMESTAMPNS, &v, &len);

	result("getsockopt-timestampns", r, errno);
	printf(" value=%d len=%u\n", v, (unsigned int)len);
}

/* The sequence of calls, the same for both transports. */
static void exercise(struct link *l, const char *pktinfo_name, int pktinfo_level, int pktinfo)
{
	struct timeval tv = { .tv_sec = 0, .tv_usec = 20000 };
	struct sockaddr_in other;
	int one = 1;
	long r;

	getopt_ts(l);
	r = setsockopt(l->host, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	result("setsockopt-rcvtimeo", r, errno);
	printf("\n");
	host_recvmsg(l, 0, 0); /* nothing there: EAGAIN after the timeout */
	for (int i = 0; i < 3; i++) {
		fpga_send(l);
		host_recvmsg(l, 0, i == 0 ? MSG_PEEK : 0);
		if (i == 0) {
			host_recvmsg(l, 64, 0);
		}
		host_doorbell(l, i == 0 ? "sendmsg" : i == 1 ? "sendmmsg" : "sendto", (uint32_t)i);
	}
	fpga_send(l);
	host_recv_plain(l, "recv");
	fpga_send(l);
	host_recv_plain(l, "recvfrom");
	fpga_send(l);
	host_recv_plain(l, "read");
	fpga_send(l);
	host_recv_plain(l, "recv-short");
	host_doorbell(l, "sendto", 3);
	r = (long)read(l->host, NULL, 0);
	result("read-0", r, errno);
	printf("\n");
	/* the application's own control messages */
	if (pktinfo_name) {
		r = setsockopt(l->host, pktinfo_level, pktinfo, &one, sizeof(one));
		result(pktinfo_name, r, errno);
		printf("\n");
	}
	fpga_send(l);
	host_recvmsg(l, 0, 0);
	fpga_send(l);
	host_recvmsg(l, 20, 0); /* too small for the application's message: MSG_CTRUNC */
	fpga_send(l);
	host_recvmsg(l, 512, 0);
	for (int i = 0; i < 3; i++) {
		fpga_send(l);
	}
	host_recvmmsg(l, 4, 128);
	fpga_send(l);
	host_recvmmsg(l, 2, 0);
	host_recvmmsg(l, 2, 0); /* nothing left: EAGAIN */
	getopt_ts(l);
	/* more control room than the tracer shadows: it gives its timestamps up from here on */
	fpga_send(l);
	host_recvmsg(l, 4000, 0);
	fpga_send(l);
	host_recvmsg(l, 0, 0);
	getopt_ts(l);
	/* the application's own timestamps */
	r = setsockopt(l->host, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	result("setsockopt-timestampns", r, errno);
	printf("\n");
	getopt_ts(l);
	fpga_send(l);
	host_recvmsg(l, 512, 0);
	fpga_send(l);
	host_recvmsg(l, 0, 0);
	/* DCP-write doorbells on sockets of their own (opened before the host's closes: fds) */
	l->dcp = socket(AF_INET, SOCK_DGRAM, 0);
	l->dcp_other = socket(AF_INET, SOCK_DGRAM, 0);
	r = connect(l->dcp, (struct sockaddr *)&l->to_fpga, l->to_len);
	result("dcp-connect", r, errno);
	printf("\n");
	dcp_doorbell(l->dcp, NULL, "dcp-send", 0);
	other = *(struct sockaddr_in *)&l->to_fpga;
	other.sin_addr.s_addr = htonl(INADDR_LOOPBACK + 1);
	dcp_doorbell(l->dcp_other, &other, "dcp-sendto-other", 1);
	r = close(l->host);
	result("close", r, errno);
	printf("\n");
	r = (long)recv(l->host, NULL, 0, 0);
	result("recv-closed", r, errno);
	printf("\n");
	dcp_doorbell(l->dcp, NULL, "dcp-send-closed", 2);
	close(l->dcp);
	close(l->dcp_other);
	close(l->fpga);
}

static int udp_link(struct link *l, int port_host, int port_fpga)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };

	l->hdr = DGR_UDP_PAD_LEN;
	l->host = socket(AF_INET, SOCK_DGRAM, 0);
	l->fpga = socket(AF_INET, SOCK_DGRAM, 0);
	if (l->host < 0 || l->fpga < 0) {
		return -1;
	}
	a.sin_port = htons((uint16_t)port_host);
	memcpy(&l->to_host, &a, sizeof(a));
	if (bind(l->host, (struct sockaddr *)&a, sizeof(a)) < 0) {
		return -1;
	}
	a.sin_port = htons((uint16_t)port_fpga);
	memcpy(&l->to_fpga, &a, sizeof(a));
	l->to_len = sizeof(a);
	return bind(l->fpga, (struct sockaddr *)&a, sizeof(a));
}

int main(int argc, char **argv)
{
	struct link l;

	if (argc < 3) {
		fprintf(stderr, "usage: preload-calls PORT_HOST PORT_FPGA\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (udp_link(&l, atoi(argv[1]), atoi(argv[2])) < 0) {
		perror("udp sockets");
		return 3;
	}
	exercise(&l, "ip-pktinfo", IPPROTO_IP, IP_PKTINFO);
	printf("frames_sent %u doorbells_sent %u txns_sent %u\n", frames_sent, doorbells_sent,
	       txns_sent);
	return 0;
}
