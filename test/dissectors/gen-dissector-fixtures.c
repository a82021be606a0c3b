// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writes the small, deterministic captures the dissector suites check
 * (nanosecond pcap, Ethernet or IPv4/UDP), and a large one for the benchmark.
 * Valid frames are built with the project's frame builder (dgr_fb_*);
 * malformed ones are built valid and then broken on purpose, one fault per
 * frame. Expected values are in the suites next to this file.
 *
 *   gen-dissector-fixtures DIR     basic, malformed, dcp, dcp-doorbell(-index), udp,
 *                                  udp-other, padded, wrap
 *   gen-dissector-fixtures --bench FILE MB [FRAG]   a ~MB megabyte RX-path capture
 *                                            of FRAG-byte fragments (1024, MTU 1500)
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dgrdma/dcp.h>
#include <dgrdma/host.h> /* DGR_DCP_DOORBELL_ADDR */
#include <dgrdma/proto.h>
#include <dgrdma/wire.h>

#define HOST_ID	       1
#define FPGA_ID	       2
#define DATA_FLAG_BASE 0x00010000u /* consumer (host) flags, one per buffer */
#define BELL_FLAG_BASE 0x00000100u /* producer (FPGA) flags, one per buffer */
#define FRAME_CAP      9000

static const uint8_t host_mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static const uint8_t fpga_mac[6] = { 0x02, 0, 0, 0, 0, 0x02 };

struct pcap_out {
	FILE *f;
	uint64_t t_ns; /* timestamp of the next record */
	const char *path;
	int err;
};

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4); /* pcap headers: host order, magic tells the reader */
}

static int pcap_open(struct pcap_out *o, const char *path, uint32_t linktype)
{
	uint8_t h[24];

	o->f = fopen(path, "wb");
	o->path = path;
	o->t_ns = 1000000000ull; /* 1 s after the epoch: easy to read */
	o->err = 0;
	if (!o->f) {
		fprintf(stderr, "gen-dissector-fixtures: %s: %s\n", path, strerror(errno));
		return -1;
	}
	put32(h, 0xa1b23c4du); /* nanosecond resolution */
	h[4] = 2;
	h[5] = 0;
	h[6] = 4;
	h[7] = 0;
	put32(h + 8, 0);
	put32(h + 12, 0);
	put32(h + 16, 65535);
	put32(h + 20, linktype);
	if (fwrite(h, sizeof(h), 1, o->f) != 1) {
		o->err = -1;
	}
	return 0;
}

static void pcap_record(struct pcap_out *o, const uint8_t *pkt, size_t len)
{
	uint8_t h[16];

	put32(h, (uint32_t)(o->t_ns / 1000000000ull));
	put32(h + 4, (uint32_t)(o->t_ns % 1000000000ull));
	put32(h + 8, (uint32_t)len);
	put32(h + 12, (uint32_t)len);
	if (fwrite(h, sizeof(h), 1, o->f) != 1 || fwrite(pkt, len, 1, o->f) != 1) {
		o->err = -1;
	}
}

static int pcap_close(struct pcap_out *o)
{
	if (fclose(o->f) != 0 || o->err) {
		fprintf(stderr, "gen-dissector-fixtures: %s: write failed\n", o->path);
		return -1;
	}
	return 0;
}

/* Ethernet frame around payload; from_fpga picks the addresses. */
static void eth_write(struct pcap_out *o, int from_fpga, uint16_t ethertype, const uint8_t *p,
		      size_t len)
{
	uint8_t pkt[DGR_ETH_HDR_LEN + FRAME_CAP];

	memcpy(pkt, from_fpga ? host_mac : fpga_mac, 6);
	memcpy(pkt + 6, from_fpga ? fpga_mac : host_mac, 6);
	pkt[12] = (uint8_t)(ethertype >> 8);
	pkt[13] = (uint8_t)ethertype;
	memcpy(pkt + DGR_ETH_HDR_LEN, p, len);
	pcap_record(o, pkt, DGR_ETH_HDR_LEN + len);
}

/* IPv4/UDP on 127.0.0.1 (linktype RAW), with the 2-byte DG-RDMA pad. */
static void udp_write(struct pcap_out *o, uint16_t sport, uint16_t dport, const uint8_t *p,
		      size_t len)
{
	uint8_t pkt[28 + DGR_UDP_PAD_LEN + FRAME_CAP];
	size_t ulen = 8 + DGR_UDP_PAD_LEN + len;
	size_t tot = 20 + ulen;
	uint32_t sum = 0;
	int i;

	memset(pkt, 0, 28 + DGR_UDP_PAD_LEN);
	pkt[0] = 0x45;
	pkt[2] = (uint8_t)(tot >> 8);
	pkt[3] = (uint8_t)tot;
	pkt[8] = 64;
	pkt[9] = 17;
	pkt[12] = 127;
	pkt[15] = 1;
	pkt[16] = 127;
	pkt[19] = 1;
	for (i = 0; i < 20; i += 2) {
		sum += (uint32_t)(pkt[i] << 8 | pkt[i + 1]);
	}
	while (sum >> 16) {
		sum = (sum & 0xffff) + (sum >> 16);
	}
	pkt[10] = (uint8_t)(~sum >> 8);
	pkt[11] = (uint8_t)~sum;
	pkt[20] = (uint8_t)(sport >> 8);
	pkt[21] = (uint8_t)sport;
	pkt[22] = (uint8_t)(dport >> 8);
	pkt[23] = (uint8_t)dport;
	pkt[24] = (uint8_t)(ulen >> 8);
	pkt[25] = (uint8_t)ulen; /* checksum 0: none */
	memcpy(pkt + 28 + DGR_UDP_PAD_LEN, p, len);
	pcap_record(o, pkt, tot);
}

/* A frame under construction. */
struct frame {
	struct dgr_frame_builder fb;
	uint8_t buf[FRAME_CAP];
};

static void frame_start(struct frame *f, uint16_t src, uint16_t dst, uint16_t seq,
			uint16_t ack_start, uint8_t ack_count)
{
	struct dgr_frame_hdr h = { .dst_id = dst,
				   .src_id = src,
				   .frame_seq = seq,
				   .ack_start = ack_start,
				   .ack_count = ack_count };

	if (dgr_fb_init(&f->fb, f->buf, sizeof(f->buf), &h) != 0) {
		abort();
	}
}

/* One message (a whole transaction or one fragment of it). */
static void frame_msg(struct frame *f, uint32_t txn, uint32_t flag_addr, uint32_t flag_value,
		      uint16_t num_msgs, uint16_t msg_seq, uint32_t data_addr, uint16_t data_len)
{
	static uint8_t data[FRAME_CAP];
	struct dgr_msg m;

	memset(&m, 0, sizeof(m));
	m.txn_id = txn;
	m.flag_addr = flag_addr;
	m.flag_value = flag_value;
	m.num_msgs_in_txn = num_msgs;
	m.msg_seq = msg_seq;
	m.data_addr = data_addr;
	m.data_len = data_len;
	memset(data, (int)(txn & 0xff), data_len);
	if (dgr_fb_add(&f->fb, &m, data_len ? data : NULL, data_len) != 0) {
		abort();
	}
}

static size_t frame_end(struct frame *f)
{
	return dgr_fb_finish(&f->fb);
}

/* A whole data transaction of len bytes into buffer b (RX path, FPGA -> host). */
static void data_txn(struct frame *f, uint32_t txn, unsigned int b, uint16_t len)
{
	frame_msg(f, txn, DATA_FLAG_BASE + 4 * b, dgr_flag_encode(len, false, false, 0), 1, 1,
		  b * 0x8000u, len);
}

/* A doorbell (host -> FPGA) freeing buffer b. */
static void doorbell(struct frame *f, uint32_t txn, unsigned int b)
{
	frame_msg(f, txn, BELL_FLAG_BASE + 4 * b, DGR_DOORBELL_VALUE, 0, 1, 0, 0);
}

static void emit(struct pcap_out *o, struct frame *f, int from_fpga, uint64_t dt_ns)
{
	size_t len = frame_end(f);

	o->t_ns += dt_ns;
	eth_write(o, from_fpga, DGR_ETHERTYPE_DGRDMA, f->buf, len);
}

/*
 * basic.pcap: RX path, 4 consumer buffers. Frame numbers, as the suites
 * expect them:
 *  1 FPGA seq1: txn1 -> buf0                     (t = 1.000000000)
 *  2 FPGA seq2: txn2 fragment 1/2 -> buf1        (+10 us)
 *  3 FPGA seq3: txn2 fragment 2/2, txn3 -> buf2  (+10 us) coalesced
 *  4 host seq1: doorbell buf0, ACK 1+3           (+80 us)  latency 100 us
 *  5 host seq2: doorbells buf1, buf2             (+150 us) latency 230 us each
 *  6 FPGA seq5: txn4 -> buf3 (seq 4 missing)     (+50 us)
 *  7 FPGA seq5 again (duplicate)                 (+1 us)
 *  8 FPGA seq6: txn5 -> buf0                     (+9 us)
 *  9 FPGA seq7: txn6 -> buf0 (txn5 unmatched)    (+10 us)
 * 10 host seq3: doorbell buf0 -> txn6            (+40 us) latency 40 us
 * 11 host seq4: doorbell buf3 -> txn4            (+7 us)  latency 67 us
 * 12 host seq5: doorbell buf2: orphan            (+1 us)
 * 13 FPGA seq8: txn7 fragment 1/3, never completed (+1 us)
 * 14 FPGA seq9: ACK-only frame acknowledging host seq 1..5 (+1 us); it takes a
 *    frame_seq like every frame (docs/protocol.md), so frame 15 is no gap
 * 15 FPGA seq10: txn8, flag-only but its flag word is a discontinuity
 *    (opcode 4): a zero-length data transaction into buf1, not a doorbell (+1 us)
 * 16 host seq6: doorbell buf1 -> txn8          (+29 us) latency 29 us
 */
static int gen_basic(const char *dir)
{
	char path[4096];
	struct pcap_out o;
	struct frame f;

	snprintf(path, sizeof(path), "%s/basic.pcap", dir);
	if (pcap_open(&o, path, 1) != 0) {
		return -1;
	}
	frame_start(&f, FPGA_ID, HOST_ID, 1, 0, 0);
	data_txn(&f, 1, 0, 64);
	emit(&o, &f, 1, 0);

	frame_start(&f, FPGA_ID, HOST_ID, 2, 0, 0);
	frame_msg(&f, 2, DATA_FLAG_BASE + 4, dgr_flag_encode(96, false, false, 0), 2, 1, 0x8000,
		  64);
	emit(&o, &f, 1, 10000);

	frame_start(&f, FPGA_ID, HOST_ID, 3, 0, 0);
	frame_msg(&f, 2, DATA_FLAG_BASE + 4, dgr_flag_encode(96, false, false, 0), 2, 2, 0x8040,
		  32);
	data_txn(&f, 3, 2, 20);
	emit(&o, &f, 1, 10000);

	frame_start(&f, HOST_ID, FPGA_ID, 1, 1, 3);
	doorbell(&f, 1, 0);
	emit(&o, &f, 0, 80000);

	frame_start(&f, HOST_ID, FPGA_ID, 2, 0, 0);
	doorbell(&f, 2, 1);
	doorbell(&f, 3, 2);
	emit(&o, &f, 0, 150000);

	frame_start(&f, FPGA_ID, HOST_ID, 5, 0, 0);
	data_txn(&f, 4, 3, 16);
	emit(&o, &f, 1, 50000);
	o.t_ns += 1000;
	eth_write(&o, 1, DGR_ETHERTYPE_DGRDMA, f.buf, f.fb.len);

	frame_start(&f, FPGA_ID, HOST_ID, 6, 0, 0);
	data_txn(&f, 5, 0, 16);
	emit(&o, &f, 1, 9000);

	frame_start(&f, FPGA_ID, HOST_ID, 7, 0, 0);
	data_txn(&f, 6, 0, 16);
	emit(&o, &f, 1, 10000);

	frame_start(&f, HOST_ID, FPGA_ID, 3, 0, 0);
	doorbell(&f, 4, 0);
	emit(&o, &f, 0, 40000);

	frame_start(&f, HOST_ID, FPGA_ID, 4, 0, 0);
	doorbell(&f, 5, 3);
	emit(&o, &f, 0, 7000);

	frame_start(&f, HOST_ID, FPGA_ID, 5, 0, 0);
	doorbell(&f, 6, 2);
	emit(&o, &f, 0, 1000);

	frame_start(&f, FPGA_ID, HOST_ID, 8, 0, 0);
	frame_msg(&f, 7, DATA_FLAG_BASE + 4, dgr_flag_encode(48, false, false, 0), 3, 1, 0x8000,
		  16);
	emit(&o, &f, 1, 1000);

	frame_start(&f, FPGA_ID, HOST_ID, 9, 1, 5); /* ACK-only frames are numbered too */
	emit(&o, &f, 1, 1000);

	frame_start(&f, FPGA_ID, HOST_ID, 10, 0, 0);
	frame_msg(&f, 8, DATA_FLAG_BASE + 4,
		  dgr_flag_encode(0, false, false, DGR_OPCODE_DISCONTINUITY), 0, 1, 0, 0);
	emit(&o, &f, 1, 1000);

	frame_start(&f, HOST_ID, FPGA_ID, 6, 0, 0);
	doorbell(&f, 8, 1);
	emit(&o, &f, 0, 29000);
	return pcap_close(&o);
}

/* Writes a valid one-message frame into f, for the malformed cases to break. */
static size_t one_msg_frame(struct frame *f, uint16_t seq, uint32_t txn, uint16_t len)
{
	frame_start(f, FPGA_ID, HOST_ID, seq, 0, 0);
	data_txn(f, txn, 0, len);
	return frame_end(f);
}

/*
 * malformed.pcap, one fault per frame (frame number: fault):
 *  1 6-byte DG-RDMA payload (frame header cut)
 *  2 frame flags 0x02
 *  3 flags say messages follow, 12 bytes of message header
 *  4 data_len 200 with 16 bytes present
 *  5 two messages, non-zero alignment padding
 *  6 data_addr 0x2 (not word aligned)
 *  7 flag value 0x00000100 (bit 0 clear)
 *  8 data_addr 0x20000 (out of range with buffer_memory_size 65536)
 *  9 txn 50 fragment 1/2; 10 txn 50 fragment 2 claiming num_msgs 3
 * 11 message type 5
 * 12 DCP: 4-byte payload
 * 13 DCP: length field 30, 14 bytes present
 * 14 DCP: write type with length 12
 * 15 DCP: NOP response with marker 0x41
 * 16 data_addr 0xFFFFFFF0 with 32 bytes: past 2^32 (malformed with any memory size)
 */
static int gen_malformed(const char *dir)
{
	char path[4096];
	struct pcap_out o;
	struct frame f;
	uint8_t raw[64];
	size_t len;

	snprintf(path, sizeof(path), "%s/malformed.pcap", dir);
	if (pcap_open(&o, path, 1) != 0) {
		return -1;
	}
	len = one_msg_frame(&f, 1, 1, 16);
	o.t_ns += 1000;
	eth_write(&o, 1, DGR_ETHERTYPE_DGRDMA, f.buf, 6);

	len = one_msg_frame(&f, 2, 2, 16);
	f.buf[DGR_FRAME_OFF_FLAGS] = 2;
	o.t_ns += 1000;
	eth_write(&o, 1, DGR_ETHERTYPE_DGRDMA, f.buf, len);

	one_msg_frame(&f, 3, 3, 16);
	o.t_ns += 1000;
	eth_write(&o, 1, DGR_ETHERTYPE_DGRDMA, f.buf, DGR_FRAME_HDR_LEN + 12);

	len = one_msg_frame(&f, 4, 4, 16);
	dgr_put_le16(f.buf + DGR_FRAME_HDR_LEN + DGR_MSG_OFF_DATA_LEN, 200);
	o.t_ns += 1000;
	eth_write(&o, 1, DGR_ETHERTYPE_DGRDMA, f.buf, len);

	frame_start(&f, FPGA_ID, HOST_ID, 5, 0, 0);
	data_txn(&f, 5, 0, 4);
	data_txn(&f, 6, 1, 4);
	len = frame_end(&f);
	f.buf[DGR_FRAME_HDR_LEN + DGR_MSG_HDR_LEN + 4 + 1] = 0xAA; /* inside the 4-byte gap */
	o.t_ns += 1000;
	eth_write(&o, 1, DGR_ETHERTYPE_DGRDMA, f.buf, len);

	len = one_msg_frame(&f, 6, 7, 16);
	dgr_put_le32(f.buf + DGR_FRAME_HDR_LEN + DGR_MSG_OFF_DATA_ADDR, 0x2);
	o.t_ns += 1000;
	eth_write(&o, 1, DGR_ETHERTYPE_DGRDMA, f.buf, len);

	len = one_msg_frame(&f, 7, 8, 16);
	dgr_put_le32(f.buf + DGR_FRAME_HDR_LEN + DGR_MSG_OFF_FLAG_VALUE, 0x100);
	o.t_ns += 1000;
	eth_write(&o, 1, DGR_ETHERTYPE_DGRDMA, f.buf, len);

	len = one_msg_frame(&f, 8, 9, 16);
	dgr_put_le32(f.buf + DGR_FRAME_HDR_LEN + DGR_MSG_OFF_DATA_ADDR, 0x20000);
	o.t_ns += 1000;
	eth_write(&o, 1, DGR_ETHERTYPE_DGRDMA, f.buf, len);

	frame_start(&f, FPGA_ID, HOST_ID, 9, 0, 0);
	frame_msg(&f, 50, DATA_FLAG_BASE, dgr_flag_encode(32, false, false, 0), 2, 1, 0, 16);
	emit(&o, &f, 1, 1000);
	frame_start(&f, FPGA_ID, HOST_ID, 10, 0, 0);
	frame_msg(&f, 50, DATA_FLAG_BASE, dgr_flag_encode(32, false, false, 0), 3, 2, 16, 16);
	emit(&o, &f, 1, 1000);

	len = one_msg_frame(&f, 11, 11, 16);
	f.buf[DGR_FRAME_HDR_LEN + DGR_MSG_OFF_TYPE] = 5;
	o.t_ns += 1000;
	eth_write(&o, 1, DGR_ETHERTYPE_DGRDMA, f.buf, len);

	memset(raw, 0, sizeof(raw));
	raw[1] = 4;
	o.t_ns += 1000;
	eth_write(&o, 0, DGR_ETHERTYPE_DCP, raw, 4);

	{
		struct dcp_packet p;

		memset(&p, 0, sizeof(p));
		p.kind = DCP_KIND_WRITE;
		p.tag = 1;
		p.addr = 0x40000;
		p.data = 1;
		len = (size_t)dcp_encode(raw, sizeof(raw), &p);
		raw[1] = 30;
		o.t_ns += 1000;
		eth_write(&o, 0, DGR_ETHERTYPE_DCP, raw, len);

		len = (size_t)dcp_encode(raw, sizeof(raw), &p);
		raw[1] = 12;
		o.t_ns += 1000;
		eth_write(&o, 0, DGR_ETHERTYPE_DCP, raw, 12);

		memset(&p, 0, sizeof(p));
		p.kind = DCP_KIND_NOP_RESP;
		p.tag = 2;
		p.nop_id = 0x12345678;
		memcpy(p.mac, fpga_mac, 6);
		p.marker = 0x41;
		len = (size_t)dcp_encode(raw, sizeof(raw), &p);
		raw[DCP_NOP_RESP_OFF_MARKER] = 0x41;
		o.t_ns += 1000;
		eth_write(&o, 1, DGR_ETHERTYPE_DCP, raw, len);
	}
	{
		/* no receiver has a 33-bit address space: malformed whatever the memory size */
		len = one_msg_frame(&f, 12, 12, 32);
		dgr_put_le32(f.buf + DGR_FRAME_HDR_LEN + DGR_MSG_OFF_DATA_ADDR, 0xFFFFFFF0u);
		o.t_ns += 1000;
		eth_write(&o, 1, DGR_ETHERTYPE_DGRDMA, f.buf, len);
	}
	return pcap_close(&o);
}

static void dcp_emit(struct pcap_out *o, int from_fpga, enum dcp_kind kind, uint8_t tag,
		     uint32_t addr, uint32_t data, uint8_t low, uint64_t dt_ns)
{
	struct dcp_packet p;
	uint8_t raw[64];
	int len;

	memset(&p, 0, sizeof(p));
	p.kind = kind;
	p.tag = tag;
	p.addr = addr;
	p.data = data;
	p.low = low;
	p.nop_id = 0xC0FFEE01;
	memcpy(p.mac, fpga_mac, 6);
	p.marker = DCP_NOP_MARKER;
	len = dcp_encode(raw, sizeof(raw), &p);
	if (len < 0) {
		abort();
	}
	o->t_ns += dt_ns;
	eth_write(o, from_fpga, DGR_ETHERTYPE_DCP, raw, (size_t)len);
}

/*
 * dcp.pcap:
 *  1 NOP request tag 1 (host)        2 NOP response tag 1 (+20 us)
 *  3 write 0x40010=1 tag 2           4 write response tag 2 (+50 us)
 *  5 read 0x4004 (start, worker 0) tag 3   6 read response 0x1234 tag 3 (+30 us)
 *  7 read 0x40020 tag 4 (never answered)
 *  8 write response tag 9 (unknown tag)
 *  9 write 0x40000 tag 5             10 write response tag 5 code 3 (error) (+70 us)
 */
static int gen_dcp(const char *dir)
{
	char path[4096];
	struct pcap_out o;

	snprintf(path, sizeof(path), "%s/dcp.pcap", dir);
	if (pcap_open(&o, path, 1) != 0) {
		return -1;
	}
	dcp_emit(&o, 0, DCP_KIND_NOP, 1, 0, 0, 0, 0);
	dcp_emit(&o, 1, DCP_KIND_NOP_RESP, 1, 0, 0, 0, 20000);
	dcp_emit(&o, 0, DCP_KIND_WRITE, 2, 0x40010, 1, 0xF, 1000);
	dcp_emit(&o, 1, DCP_KIND_WRITE_RESP, 2, 0, 0, 0, 50000);
	dcp_emit(&o, 0, DCP_KIND_READ, 3, dcp_control_addr(0, DCP_CTL_START), 0, 0xF, 1000);
	dcp_emit(&o, 1, DCP_KIND_READ_RESP, 3, 0, 0x1234, 0, 30000);
	dcp_emit(&o, 0, DCP_KIND_READ, 4, 0x40020, 0, 0xF, 1000);
	dcp_emit(&o, 1, DCP_KIND_WRITE_RESP, 9, 0, 0, 0, 1000);
	dcp_emit(&o, 0, DCP_KIND_WRITE, 5, 0x40000, 7, 0xF, 1000);
	dcp_emit(&o, 1, DCP_KIND_WRITE_RESP, 5, 0, 0, DCP_RESP_ERROR, 70000);
	return pcap_close(&o);
}

/*
 * dcp-doorbell.pcap: data by DG-RDMA (FPGA -> host), doorbells as DCP
 * property writes to 0x80000 + 4 * buffer (host -> FPGA), one address per
 * buffer:
 *  1 FPGA seq1 txn1 -> buf0   2 FPGA seq2 txn2 -> buf1 (+5 us)
 *  3 DCP write 0x80000 (+45 us): doorbell for txn1, latency 50 us
 *  4 write response (+10 us)
 *  5 DCP write 0x80004 (+10 us): doorbell for txn2, latency 65 us
 *  6 write response (+10 us)
 * dcp-doorbell-index.pcap: the same, the doorbells written as the buffer
 * index (0, then 1) to the one doorbell property DGR_DCP_DOORBELL_ADDR.
 */
static int gen_dcp_doorbell(const char *dir, const char *name, int per_address)
{
	char path[4096];
	struct pcap_out o;
	struct frame f;
	unsigned int b;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (pcap_open(&o, path, 1) != 0) {
		return -1;
	}
	frame_start(&f, FPGA_ID, HOST_ID, 1, 0, 0);
	data_txn(&f, 1, 0, 64);
	emit(&o, &f, 1, 0);
	frame_start(&f, FPGA_ID, HOST_ID, 2, 0, 0);
	data_txn(&f, 2, 1, 64);
	emit(&o, &f, 1, 5000);
	for (b = 0; b < 2; b++) {
		dcp_emit(&o, 0, DCP_KIND_WRITE, (uint8_t)(b + 1),
			 per_address ? 0x80000u + 4 * b : DGR_DCP_DOORBELL_ADDR,
			 per_address ? 1 : b, 0xF, b ? 10000 : 45000);
		dcp_emit(&o, 1, DCP_KIND_WRITE_RESP, (uint8_t)(b + 1), 0, 0, 0, 10000);
	}
	return pcap_close(&o);
}

/*
 * udp.pcap (IPv4, 127.0.0.1): FPGA emulator port 18078, host port 40000.
 *  1 emulator -> host: txn1 -> buf0    2 host -> emulator: doorbell (+25 us)
 */
static int gen_udp(const char *dir)
{
	char path[4096];
	struct pcap_out o;
	struct frame f;
	size_t len;

	snprintf(path, sizeof(path), "%s/udp.pcap", dir);
	if (pcap_open(&o, path, 228) != 0) {
		return -1;
	}
	frame_start(&f, FPGA_ID, HOST_ID, 1, 0, 0);
	data_txn(&f, 1, 0, 32);
	len = frame_end(&f);
	udp_write(&o, DGR_UDP_PORT, 40000, f.buf, len);
	frame_start(&f, HOST_ID, FPGA_ID, 1, 1, 1);
	doorbell(&f, 1, 0);
	len = frame_end(&f);
	o.t_ns += 25000;
	udp_write(&o, 40000, DGR_UDP_PORT, f.buf, len);
	return pcap_close(&o);
}

/*
 * udp-other.pcap: the same exchange as udp.pcap on ports 5000/6000, for
 * "Decode As" and the heuristic.
 */
static int gen_udp_other(const char *dir)
{
	char path[4096];
	struct pcap_out o;
	struct frame f;
	size_t len;

	snprintf(path, sizeof(path), "%s/udp-other.pcap", dir);
	if (pcap_open(&o, path, 228) != 0) {
		return -1;
	}
	frame_start(&f, FPGA_ID, HOST_ID, 1, 0, 0);
	data_txn(&f, 1, 0, 32);
	len = frame_end(&f);
	udp_write(&o, 5000, 6000, f.buf, len);
	frame_start(&f, HOST_ID, FPGA_ID, 1, 1, 1);
	doorbell(&f, 1, 0);
	len = frame_end(&f);
	o.t_ns += 25000;
	udp_write(&o, 6000, 5000, f.buf, len);
	return pcap_close(&o);
}

/*
 * padded.pcap: short frames as a receiver captures them, zero padded to the
 * 60-byte Ethernet minimum: 1 data txn, 2 doorbell (+12 us), 3 DCP write,
 * 4 DCP write response.
 */
static int gen_padded(const char *dir)
{
	char path[4096];
	struct pcap_out o;
	struct frame f;
	uint8_t raw[DGR_ETH_MIN_PAYLOAD];
	size_t len;
	struct dcp_packet p;

	snprintf(path, sizeof(path), "%s/padded.pcap", dir);
	if (pcap_open(&o, path, 1) != 0) {
		return -1;
	}
	frame_start(&f, FPGA_ID, HOST_ID, 1, 0, 0);
	data_txn(&f, 1, 0, 4);
	len = frame_end(&f);
	memset(f.buf + len, 0, DGR_ETH_MIN_PAYLOAD - len);
	eth_write(&o, 1, DGR_ETHERTYPE_DGRDMA, f.buf, DGR_ETH_MIN_PAYLOAD);
	frame_start(&f, HOST_ID, FPGA_ID, 1, 1, 1);
	doorbell(&f, 1, 0);
	len = frame_end(&f);
	memset(f.buf + len, 0, DGR_ETH_MIN_PAYLOAD - len);
	o.t_ns += 12000;
	eth_write(&o, 0, DGR_ETHERTYPE_DGRDMA, f.buf, DGR_ETH_MIN_PAYLOAD);
	memset(&p, 0, sizeof(p));
	p.kind = DCP_KIND_WRITE;
	p.tag = 7;
	p.addr = 0x40100;
	p.data = 0xdeadbeef;
	p.low = 0xF;
	memset(raw, 0, sizeof(raw));
	if (dcp_encode(raw, sizeof(raw), &p) < 0) {
		abort();
	}
	o.t_ns += 1000;
	eth_write(&o, 0, DGR_ETHERTYPE_DCP, raw, sizeof(raw));
	memset(&p, 0, sizeof(p));
	p.kind = DCP_KIND_WRITE_RESP;
	p.tag = 7;
	memset(raw, 0, sizeof(raw));
	if (dcp_encode(raw, sizeof(raw), &p) < 0) {
		abort();
	}
	o.t_ns += 9000;
	eth_write(&o, 1, DGR_ETHERTYPE_DCP, raw, sizeof(raw));
	return pcap_close(&o);
}

/*
 * wrap.pcap: frame_seq across the 16-bit wrap, FPGA -> host, one txn each:
 * seq 65534, 65535, 0, 1 (no gap), 3 (gap of 1), 2 (late), 3 (duplicate of
 * frame 5).
 */
static int gen_wrap(const char *dir)
{
	static const uint16_t seqs[] = { 65534, 65535, 0, 1, 3, 2, 3 };
	char path[4096];
	struct pcap_out o;
	struct frame f;
	unsigned int i;

	snprintf(path, sizeof(path), "%s/wrap.pcap", dir);
	if (pcap_open(&o, path, 1) != 0) {
		return -1;
	}
	for (i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
		frame_start(&f, FPGA_ID, HOST_ID, seqs[i], 0, 0);
		data_txn(&f, 100 + i, i % 4, 16);
		emit(&o, &f, 1, 1000);
	}
	return pcap_close(&o);
}

/*
 * Benchmark capture: RX path, 16 consumer buffers of 8192 bytes, each
 * transaction sent as 8192 / frag fragments of frag bytes (one frame each:
 * 1024 fits an MTU of 1500, 8192 one of 9000), one doorbell per transaction
 * 20 us after it completes, ACKs piggy-backed on the doorbells. Deterministic.
 */
static int gen_bench(const char *path, unsigned long mb, unsigned int frag)
{
	struct pcap_out o;
	struct frame f;
	uint64_t bytes = 0;
	uint32_t txn = 1;
	uint16_t seq_fpga = 1;
	uint16_t seq_host = 1;
	uint16_t nfrag = (uint16_t)(8192u / frag);

	if (pcap_open(&o, path, 1) != 0) {
		return -1;
	}
	while (bytes < (uint64_t)mb * 1000000ull && !o.err) {
		unsigned int b = (txn - 1) % 16;
		uint16_t k;

		for (k = 1; k <= nfrag; k++) {
			frame_start(&f, FPGA_ID, HOST_ID, seq_fpga++, 0, 0);
			frame_msg(&f, txn, DATA_FLAG_BASE + 4 * b,
				  dgr_flag_encode(8192, false, false, 0), nfrag, k,
				  b * 8192u + (k - 1u) * frag, (uint16_t)frag);
			emit(&o, &f, 1, 1000);
			bytes += DGR_ETH_HDR_LEN + f.fb.len + 16;
		}
		frame_start(&f, HOST_ID, FPGA_ID, seq_host++, (uint16_t)(seq_fpga - nfrag),
			    (uint8_t)nfrag);
		doorbell(&f, txn, b);
		emit(&o, &f, 0, 20000);
		bytes += DGR_ETH_HDR_LEN + f.fb.len + 16;
		txn++;
	}
	printf("%u transactions, %u frames\n", txn - 1, (txn - 1) * (nfrag + 1u));
	return pcap_close(&o);
}

int main(int argc, char **argv)
{
	if ((argc == 4 || argc == 5) && strcmp(argv[1], "--bench") == 0) {
		char *end;
		unsigned long mb = strtoul(argv[3], &end, 10);
		unsigned long frag = 1024;

		if (*end || mb < 1 || mb > 100000) {
			fprintf(stderr, "gen-dissector-fixtures: --bench MB: 1..100000, got '%s'\n",
				argv[3]);
			return 2;
		}
		if (argc == 5) {
			frag = strtoul(argv[4], &end, 10);
			if (*end ||
			    (frag != 1024 && frag != 2048 && frag != 4096 && frag != 8192)) {
				fprintf(stderr,
					"gen-dissector-fixtures: --bench FRAG: 1024, 2048, 4096 or "
					"8192 bytes, got '%s'\n",
					argv[4]);
				return 2;
			}
		}
		return gen_bench(argv[2], mb, (unsigned int)frag) == 0 ? 0 : 1;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: gen-dissector-fixtures DIR\n"
				"       gen-dissector-fixtures --bench FILE MB [FRAG]\n");
		return 2;
	}
	if (gen_basic(argv[1]) || gen_malformed(argv[1]) || gen_dcp(argv[1]) ||
	    gen_dcp_doorbell(argv[1], "dcp-doorbell.pcap", 1) ||
	    gen_dcp_doorbell(argv[1], "dcp-doorbell-index.pcap", 0) || gen_udp(argv[1]) ||
	    gen_udp_other(argv[1]) || gen_padded(argv[1]) || gen_wrap(argv[1])) {
		return 1;
	}
	return 0;
}
