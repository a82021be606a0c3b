// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A minimal DG-RDMA host for the emulator's integration tests, built only on
 * the shared codec, reassembler and transport (it is the emulator's test
 * partner where dgrdma-host is not wanted or not there yet).
 *
 *   fpga-test-host TRANSPORT rx [options]   consume the ADC stream, check the ramp
 *                                           (--old-acks: the old host's frames, below)
 *   fpga-test-host TRANSPORT tx [options]   feed the DAC a ramp
 *   fpga-test-host TRANSPORT sink [options] count the ADC stream, doorbell at once (bench)
 *   fpga-test-host TRANSPORT read ADDR      DCP read, prints the value
 *   fpga-test-host TRANSPORT write ADDR V   DCP write
 *   fpga-test-host TRANSPORT dump FILE      DCP read of every property listed in FILE
 *                                           (the output of dgrdma-fpga --list-properties),
 *                                           printed as "name value" lines
 *
 * The layout is docs/fpga.md section 2; results are printed as "key value" lines.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dgrdma/dcp.h>
#include <dgrdma/reassembly.h>
#include <dgrdma/transport.h>
#include <dgrdma/wire.h>

#include "cli.h"
#include "transport_opts.h"

#define TX_BASE	  0x40000000u
#define FLAG_AREA 1024u
#define MAX_BUFS  255u

struct host {
	struct dgr_transport *tr;
	size_t cap;
	uint32_t size, nbuf, fpga_bufs;
	uint64_t consumer_delay_ns;
	uint64_t timeout_ns, idle_ns;
	bool dcp_doorbells;
	bool hello;
	/*
	 * --old-acks: the pattern of a host that sends ACK-only frames toward the FPGA
	 * (dgrdma-host before --peer-kind, issue #30): every doorbell goes in a frame of its
	 * own with an even frame_seq, and an ACK-only frame (10 bytes) takes each odd one
	 * between them. Frame 65535 is then ACK-only and frame 0 carries a doorbell at every
	 * wrap, so the padding trap (docs/fpga.md section 11) always costs a doorbell.
	 */
	bool old_acks;
	bool idle_from_first; /* --idle counts from the first frame, --timeout until then */
	uint16_t ack_start;   /* the peer's frames not yet acknowledged: ack_start.. */
	uint8_t ack_count;    /* ..ack_start + ack_count - 1 */
	uint64_t frames_tx, ack_only_tx;
	double rate; /* tx: samples/s supplied, 0 = as fast as doorbells allow */
	uint64_t tx_buffers;
	bool tx_eof;
	uint16_t seq;
	uint32_t txn;
	uint8_t tag;
	uint8_t *frame;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int send_txn(struct host *h, uint32_t data_addr, uint32_t flag_addr, uint32_t flag_value,
		    const uint8_t *data, uint32_t len)
{
	struct dgr_frame_hdr hdr = { .src_id = 0, .dst_id = 1 };
	struct dgr_txn t = { .txn_id = h->txn++,
			     .data_addr = data_addr,
			     .flag_addr = flag_addr,
			     .flag_value = flag_value,
			     .data = data,
			     .len = len };
	struct dgr_frame_builder fb;
	struct dgr_txn_cursor c;
	char errbuf[DGR_ERRBUF_SIZE];
	int rc;

	hdr.frame_seq = h->seq++;
	dgr_fb_init(&fb, h->frame, h->cap, &hdr);
	if (dgr_txn_plan(&c, &t, &fb) < 0) {
		return -1;
	}
	for (;;) {
		struct dgr_tx_pkt p = { .proto = DGR_PROTO_DGRDMA };

		rc = dgr_fb_add_txn(&fb, &c);
		if (rc < 0) {
			return -1;
		}
		if (rc == 1 || fb.msgs > 0) {
			p.data = h->frame;
			p.len = dgr_fb_finish(&fb);
			if (h->old_acks) {
				dgr_fb_set_ack(&fb, h->ack_start, h->ack_count);
				h->ack_start = (uint16_t)(h->ack_start + h->ack_count);
				h->ack_count = 0;
			}
			if (dgr_transport_send(h->tr, &p, 1, errbuf) != 1) {
				fprintf(stderr, "send: %s\n", errbuf);
			}
			h->frames_tx++;
		}
		if (rc == 1) {
			return 0;
		}
		hdr.frame_seq = h->seq++;
		dgr_fb_init(&fb, h->frame, h->cap, &hdr);
	}
}

/*
 * The old host's ACK-only frame: the 10-byte header alone (flags 0), acknowledging the
 * peer's frames received since the last frame sent.
 */
static void send_ack_only(struct host *h)
{
	struct dgr_frame_hdr hdr = { .src_id = 0, .dst_id = 1 };
	struct dgr_frame_builder fb;
	struct dgr_tx_pkt p = { .data = h->frame, .proto = DGR_PROTO_DGRDMA };
	char errbuf[DGR_ERRBUF_SIZE];

	hdr.frame_seq = h->seq++;
	dgr_fb_init(&fb, h->frame, h->cap, &hdr);
	p.len = dgr_fb_finish(&fb);
	dgr_fb_set_ack(&fb, h->ack_start, h->ack_count);
	h->ack_start = (uint16_t)(h->ack_start + h->ack_count);
	h->ack_count = 0;
	if (dgr_transport_send(h->tr, &p, 1, errbuf) != 1) {
		fprintf(stderr, "send: %s\n", errbuf);
	}
	h->frames_tx++;
	h->ack_only_tx++;
}

/* Notes a frame of the peer's to acknowledge (in order; a gap restarts the run). */
static void note_peer_frame(struct host *h, uint16_t seq)
{
	if (h->ack_count == 0 || (uint16_t)(h->ack_start + h->ack_count) != seq ||
	    h->ack_count == UINT8_MAX) {
		h->ack_start = seq;
		h->ack_count = 0;
	}
	h->ack_count++;
}

/* Sends a DCP request without waiting (doorbells: the rx loop counts the answers). */
static void dcp_send(struct host *h, enum dcp_kind kind, uint32_t addr, uint32_t data)
{
	struct dcp_packet p = { .kind = kind, .addr = addr, .data = data, .low = 0xF };
	uint8_t buf[32];
	char errbuf[DGR_ERRBUF_SIZE];
	struct dgr_tx_pkt out = { .data = buf, .proto = DGR_PROTO_DCP };
	int n;

	p.tag = ++h->tag;
	n = dcp_encode(buf, sizeof(buf), &p);
	if (n > 0) {
		out.len = (size_t)n;
		dgr_transport_send(h->tr, &out, 1, errbuf);
	}
}

/* One DCP request with retries; returns the response code or -1, data in *v. */
static int dcp_request(struct host *h, enum dcp_kind kind, uint32_t addr, uint32_t data,
		       uint32_t *v)
{
	struct dcp_packet p = { .kind = kind, .addr = addr, .data = data, .low = 0xF };
	uint8_t buf[32];
	char errbuf[DGR_ERRBUF_SIZE];

	for (int attempt = 0; attempt < 5; attempt++) {
		struct dgr_tx_pkt out = { .data = buf, .proto = DGR_PROTO_DCP };
		uint64_t end = now_ns() + 300000000ull;
		int n;

		p.tag = ++h->tag;
		n = dcp_encode(buf, sizeof(buf), &p);
		if (n < 0) {
			return -1;
		}
		out.len = (size_t)n;
		dgr_transport_send(h->tr, &out, 1, errbuf);
		while (now_ns() < end) {
			struct dgr_rx_pkt pk[16];
			int k = dgr_transport_recv(h->tr, pk, 16, 50, errbuf);

			for (int i = 0; i < k; i++) {
				struct dcp_packet r;

				if (pk[i].proto != DGR_PROTO_DCP ||
				    dcp_decode(pk[i].data, pk[i].len, &r, NULL) < 0 ||
				    r.tag != p.tag) {
					continue;
				}
				if (v) {
					*v = r.data;
				}
				return r.low;
			}
		}
	}
	return -1;
}

struct rx_state {
	struct dgr_reasm *reasm;
	uint8_t *mem;
	uint64_t k; /* transactions completed = next host buffer to expect */
	uint64_t complete_ns[MAX_BUFS];
	unsigned int index[MAX_BUFS];
	unsigned int queued, head; /* buffers waiting for the consumer */
	uint64_t next_release_ns;
	/* results */
	uint64_t samples, lost, gap_periods, discontinuities, transactions, doorbells, frames;
	uint64_t first_sample, flag_index_errors, bad_msgs, bad_frames, short_buffers;
	uint64_t disc_then_gap;	  /* discontinuities followed by a ramp gap, as they must be */
	uint64_t dcp_ok, dcp_err; /* answers to DCP doorbells */
	bool have_first, eof, pending_disc;
	uint32_t expect;
};

static void rx_check(struct rx_state *s, const uint8_t *p, uint32_t bytes)
{
	for (uint32_t i = 0; i + 4 <= bytes; i += 4) {
		uint32_t v = dgr_get_le32(p + i);

		if (!s->have_first) {
			s->have_first = true;
			s->first_sample = v;
		} else if (v != s->expect) {
			s->lost += (uint32_t)(v - s->expect);
			s->gap_periods++;
			if (s->pending_disc) {
				s->disc_then_gap++;
			}
		}
		s->pending_disc = false;
		s->expect = v + 1;
		s->samples++;
	}
}

static void rx_complete(struct host *h, struct rx_state *s, const struct dgr_txn_info *t)
{
	uint32_t flags = h->nbuf * h->size;
	unsigned int i = (unsigned int)(s->k % h->nbuf);
	struct dgr_flag_word fw;

	s->transactions++;
	if (t->flag_addr != flags + 4 * i) {
		/* a transaction was lost (a frame dropped): follow the flag, as a host does */
		s->flag_index_errors++;
		if (t->flag_addr < flags || (t->flag_addr - flags) / 4 >= h->nbuf) {
			s->bad_msgs++;
			return;
		}
		i = (t->flag_addr - flags) / 4;
		s->k = i;
	}
	dgr_flag_decode(t->flag_value, &fw);
	if (fw.opcode == 4) {
		s->discontinuities++;
		s->pending_disc = true;
	} else if (fw.opcode == 0) {
		uint32_t len = fw.length < h->size ? fw.length : h->size;

		if (len < h->size && !fw.eof) {
			s->short_buffers++;
		}
		rx_check(s, s->mem + (size_t)i * h->size, len);
	}
	if (fw.eof) {
		s->eof = true;
	}
	s->complete_ns[(s->head + s->queued) % MAX_BUFS] = now_ns();
	s->index[(s->head + s->queued) % MAX_BUFS] = i;
	s->queued++;
	s->k++;
}

static void rx_release(struct host *h, struct rx_state *s, uint64_t now)
{
	while (s->queued > 0) {
		uint64_t start = s->complete_ns[s->head];
		unsigned int i = s->index[s->head];

		if (s->next_release_ns > start) {
			start = s->next_release_ns;
		}
		if (now < start + h->consumer_delay_ns) {
			return;
		}
		s->next_release_ns = start + h->consumer_delay_ns;
		if (h->dcp_doorbells) {
			dcp_send(h, DCP_KIND_WRITE, dcp_property_addr(0, 0x18), i);
		} else {
			if (h->old_acks && (h->seq & 1u)) {
				send_ack_only(h);
			}
			send_txn(h, 0, h->fpga_bufs * h->size + 4 * i, DGR_DOORBELL_VALUE, NULL, 0);
		}
		s->doorbells++;
		s->head = (s->head + 1) % MAX_BUFS;
		s->queued--;
	}
}

static int run_rx(struct host *h)
{
	struct rx_state s;
	char errbuf[DGR_ERRBUF_SIZE];
	uint64_t start = now_ns(), last = start;
	uint64_t mem_size = (uint64_t)h->nbuf * h->size + FLAG_AREA;

	memset(&s, 0, sizeof(s));
	if (h->hello) {
		/* a discovery NOP: an emulator started without --peer learns this address */
		dcp_send(h, DCP_KIND_NOP, 0, 0);
	}
	s.reasm = dgr_reasm_new(1024, errbuf);
	s.mem = calloc(1, mem_size);
	if (!s.reasm || !s.mem) {
		return 1;
	}
	while (!s.eof || s.queued > 0) {
		struct dgr_rx_pkt pk[64];
		uint64_t now = now_ns();
		int n;

		/* --idle-from-first: a sender started late (a loaded machine) is waited for */
		if (now - start > h->timeout_ns || (now - last > h->idle_ns && s.queued == 0 &&
						    (s.frames > 0 || !h->idle_from_first))) {
			break;
		}
		rx_release(h, &s, now);
		n = dgr_transport_recv(h->tr, pk, 64, s.queued ? 0 : 20, errbuf);
		if (n > 0) {
			last = now_ns();
		}
		for (int j = 0; j < n; j++) {
			struct dgr_frame f;
			struct dgr_msg m;
			struct dgr_txn_info done;
			int rc;

			if (pk[j].proto == DGR_PROTO_DCP) {
				struct dcp_packet r;

				if (dcp_decode(pk[j].data, pk[j].len, &r, NULL) == 0 &&
				    r.kind == DCP_KIND_WRITE_RESP) {
					if (r.low == DCP_RESP_OK) {
						s.dcp_ok++;
					} else {
						s.dcp_err++;
					}
				}
				continue;
			}
			if (pk[j].proto != DGR_PROTO_DGRDMA) {
				continue;
			}
			if (dgr_frame_parse(&f, pk[j].data, pk[j].len, NULL) < 0) {
				s.bad_frames++;
				continue;
			}
			s.frames++;
			if (h->old_acks) {
				note_peer_frame(h, f.hdr.frame_seq);
			}
			while ((rc = dgr_frame_next_msg(&f, &m, NULL)) == 1) {
				if (dgr_msg_validate(&m, mem_size, true, NULL) < 0) {
					s.bad_msgs++;
					continue;
				}
				if (m.data_len) {
					memcpy(s.mem + m.data_addr, m.data, m.data_len);
				}
				if (dgr_reasm_add(s.reasm, &m, now_ns(), 0, &done) ==
				    DGR_REASM_COMPLETE) {
					rx_complete(h, &s, &done);
				}
			}
			if (rc < 0) {
				s.bad_frames++;
			}
		}
		if (s.queued > 0 && h->consumer_delay_ns) {
			struct timespec ts = { 0, 20000 };

			nanosleep(&ts, NULL);
		}
	}
	printf("transactions %" PRIu64 "\nsamples %" PRIu64 "\nlost %" PRIu64
	       "\ngap_periods %" PRIu64 "\ndiscontinuities %" PRIu64 "\ndisc_then_gap %" PRIu64
	       "\ndoorbells %" PRIu64 "\nframes %" PRIu64 "\nfirst_sample %" PRIu64
	       "\nlast_sample %" PRIu32 "\nflag_index_errors %" PRIu64 "\nbad_msgs %" PRIu64
	       "\nbad_frames %" PRIu64 "\nshort_buffers %" PRIu64 "\neof %d\nincomplete %u\n"
	       "dcp_ok %" PRIu64 "\ndcp_err %" PRIu64 "\nframes_tx %" PRIu64
	       "\nack_only_tx %" PRIu64 "\n",
	       s.transactions, s.samples, s.lost, s.gap_periods, s.discontinuities, s.disc_then_gap,
	       s.doorbells, s.frames, s.first_sample, s.expect - 1, s.flag_index_errors, s.bad_msgs,
	       s.bad_frames, s.short_buffers, s.eof ? 1 : 0, dgr_reasm_outstanding(s.reasm),
	       s.dcp_ok, s.dcp_err, h->frames_tx, h->ack_only_tx);
	dgr_reasm_free(s.reasm);
	free(s.mem);
	return 0;
}

/*
 * A sink that only counts (the benchmark's): every message that completes a
 * transaction (its last fragment) is answered at once with a doorbell; the
 * doorbells of one receive batch share one frame. No reassembly, no copy.
 */
static int run_sink(struct host *h)
{
	char errbuf[DGR_ERRBUF_SIZE];
	uint64_t start = 0, last = 0, bytes = 0, txns = 0, frames = 0;
	uint32_t flags_end = h->nbuf * h->size + FLAG_AREA;
	bool eof = false;

	while (!eof) {
		struct dgr_rx_pkt pk[64];
		struct dgr_frame_hdr hdr = { .src_id = 0, .dst_id = 1 };
		struct dgr_frame_builder fb;
		uint64_t now = now_ns();
		int n;

		if (start && now - last > h->idle_ns) {
			break;
		}
		n = dgr_transport_recv(h->tr, pk, 64, 20, errbuf);
		if (n <= 0) {
			continue;
		}
		if (!start) {
			start = now;
		}
		last = now_ns();
		hdr.frame_seq = h->seq; /* spent only when the frame is sent */
		dgr_fb_init(&fb, h->frame, h->cap, &hdr);
		for (int j = 0; j < n; j++) {
			struct dgr_frame f;
			struct dgr_msg m;

			if (pk[j].proto != DGR_PROTO_DGRDMA ||
			    dgr_frame_parse(&f, pk[j].data, pk[j].len, NULL) < 0) {
				continue;
			}
			frames++;
			while (dgr_frame_next_msg(&f, &m, NULL) == 1) {
				struct dgr_msg db = { .num_msgs_in_txn = 0, .msg_seq = 1 };
				uint32_t i;

				bytes += m.data_len;
				if (m.msg_seq != dgr_msg_txn_parts(&m) ||
				    m.flag_addr == DGR_NO_FLAG || m.flag_addr + 4 > flags_end ||
				    m.flag_addr < h->nbuf * h->size) {
					continue;
				}
				txns++;
				/* txn_ids rise by one from 1: the FPGA writes flags in that order
				 */
				db.txn_id = h->txn++;
				eof = eof || (m.flag_value & DGR_FLAGW_EOF);
				i = (m.flag_addr - h->nbuf * h->size) / 4;
				db.flag_addr = h->fpga_bufs * h->size + 4 * i;
				db.flag_value = DGR_DOORBELL_VALUE;
				if (dgr_fb_add(&fb, &db, NULL, 0) < 0) {
					struct dgr_tx_pkt p = { .data = h->frame,
								.proto = DGR_PROTO_DGRDMA };

					p.len = dgr_fb_finish(&fb);
					dgr_transport_send(h->tr, &p, 1, errbuf);
					h->seq++;
					hdr.frame_seq = h->seq;
					dgr_fb_init(&fb, h->frame, h->cap, &hdr);
					dgr_fb_add(&fb, &db, NULL, 0);
				}
			}
		}
		if (fb.msgs > 0) {
			struct dgr_tx_pkt p = { .data = h->frame, .proto = DGR_PROTO_DGRDMA };

			p.len = dgr_fb_finish(&fb);
			dgr_transport_send(h->tr, &p, 1, errbuf);
			h->seq++;
		}
	}
	printf("bytes %" PRIu64 "\ntransactions %" PRIu64 "\nframes %" PRIu64 "\nseconds %.6f\n",
	       bytes, txns, frames, (double)(last - start) / 1e9);
	return 0;
}

static int run_tx(struct host *h)
{
	char errbuf[DGR_ERRBUF_SIZE];
	uint8_t *buf = malloc(h->size);
	uint32_t credits = h->fpga_bufs, sample = 0;
	uint64_t sent = 0, doorbells = 0, bad = 0, start = now_ns();
	uint32_t flags = h->nbuf * h->size;

	if (!buf) {
		return 1;
	}
	while (doorbells < h->tx_buffers && now_ns() - start < h->timeout_ns) {
		struct dgr_rx_pkt pk[64];
		int n;

		if (sent < h->tx_buffers && credits > 0) {
			uint64_t due =
			    h->rate > 0
				? start + (uint64_t)((double)sent * h->size / 4 * 1e9 / h->rate)
				: 0;

			if (now_ns() >= due) {
				unsigned int j = (unsigned int)(sent % h->fpga_bufs);
				bool eof = h->tx_eof && sent + 1 == h->tx_buffers;

				for (uint32_t i = 0; i < h->size / 4; i++) {
					dgr_put_le32(buf + 4 * i, sample++);
				}
				send_txn(h, TX_BASE + j * h->size,
					 TX_BASE + h->fpga_bufs * h->size + 4 * j,
					 dgr_flag_encode(h->size, eof, false, 0), buf, h->size);
				sent++;
				credits--;
				continue;
			}
		}
		n = dgr_transport_recv(h->tr, pk, 64, 1, errbuf);
		for (int i = 0; i < n; i++) {
			struct dgr_frame f;
			struct dgr_msg m;

			if (pk[i].proto != DGR_PROTO_DGRDMA ||
			    dgr_frame_parse(&f, pk[i].data, pk[i].len, NULL) < 0) {
				continue;
			}
			while (dgr_frame_next_msg(&f, &m, NULL) == 1) {
				if (dgr_msg_is_flag_only(&m) && m.flag_addr >= TX_BASE + flags &&
				    m.flag_addr < TX_BASE + flags + FLAG_AREA) {
					doorbells++;
					credits++;
				} else {
					bad++;
				}
			}
		}
	}
	printf("sent %" PRIu64 "\ndoorbells %" PRIu64 "\nunexpected %" PRIu64 "\n", sent, doorbells,
	       bad);
	free(buf);
	return 0;
}

/* Reads every property of a --list-properties table. */
static int run_dump(struct host *h, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int errors = 0;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned int addr;
		char name[128], type[16], access[8];
		uint32_t lo = 0, hi = 0;

		if (sscanf(line, "| %*u %*s | %*x | 0x%x | `%127[^`]` | %15s | %7s |", &addr, name,
			   type, access) != 4) {
			continue;
		}
		if (strcmp(access, "WO") == 0) {
			continue;
		}
		if (dcp_request(h, DCP_KIND_READ, addr, 0, &lo) != DCP_RESP_OK) {
			errors++;
			continue;
		}
		if (strcmp(type, "u64") == 0 &&
		    dcp_request(h, DCP_KIND_READ, addr + 4, 0, &hi) != DCP_RESP_OK) {
			errors++;
			continue;
		}
		printf("%s %" PRIu64 "\n", name, ((uint64_t)hi << 32) | lo);
	}
	fclose(f);
	printf("dcp_read_errors %d\n", errors);
	return 0;
}

enum {
	O_SIZE = 0x200,
	O_NBUF,
	O_FPGA_BUFS,
	O_DELAY,
	O_TIMEOUT,
	O_IDLE,
	O_DCP_DB,
	O_RATE,
	O_TX_BUFFERS,
	O_EOF,
	O_HELLO,
	O_OLD_ACKS,
	O_IDLE_FROM_FIRST
};

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		DGR_TRANSPORT_LONGOPTS,
		{ "buffer-size", required_argument, NULL, O_SIZE },
		{ "buffers", required_argument, NULL, O_NBUF },
		{ "fpga-buffers", required_argument, NULL, O_FPGA_BUFS },
		{ "consumer-delay-us", required_argument, NULL, O_DELAY },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "idle", required_argument, NULL, O_IDLE },
		{ "dcp-doorbells", no_argument, NULL, O_DCP_DB },
		{ "rate", required_argument, NULL, O_RATE },
		{ "tx-buffers", required_argument, NULL, O_TX_BUFFERS },
		{ "eof", no_argument, NULL, O_EOF },
		{ "hello", no_argument, NULL, O_HELLO },
		{ "old-acks", no_argument, NULL, O_OLD_ACKS },
		{ "idle-from-first", no_argument, NULL, O_IDLE_FROM_FIRST },
		{ NULL, 0, NULL, 0 },
	};
	struct dgr_transport_opts to;
	struct host h = { .size = 16384,
			  .nbuf = 64,
			  .fpga_bufs = 4,
			  .seq = 1,
			  .txn = 1,
			  .timeout_ns = 30000000000ull,
			  .idle_ns = 2000000000ull };
	char errbuf[DGR_ERRBUF_SIZE];
	uint64_t v;
	int opt, rc = 1;
	const char *cmd;

	dgr_transport_opts_init(&to);
	while ((opt = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		int r = dgr_transport_parse_opt(&to, opt, optarg, errbuf);

		if (r < 0) {
			fprintf(stderr, "%s\n", errbuf);
			return 2;
		}
		if (r == 1) {
			continue;
		}
		v = strtoull(optarg ? optarg : "0", NULL, 0);
		switch (opt) {
		case O_SIZE:
			h.size = (uint32_t)v;
			break;
		case O_NBUF:
			h.nbuf = (uint32_t)v;
			break;
		case O_FPGA_BUFS:
			h.fpga_bufs = (uint32_t)v;
			break;
		case O_DELAY:
			h.consumer_delay_ns = v * 1000u;
			break;
		case O_TIMEOUT:
			h.timeout_ns = (uint64_t)(strtod(optarg, NULL) * 1e9);
			break;
		case O_IDLE:
			h.idle_ns = (uint64_t)(strtod(optarg, NULL) * 1e9);
			break;
		case O_DCP_DB:
			h.dcp_doorbells = true;
			break;
		case O_RATE:
			h.rate = strtod(optarg, NULL);
			break;
		case O_TX_BUFFERS:
			h.tx_buffers = v;
			break;
		case O_EOF:
			h.tx_eof = true;
			break;
		case O_HELLO:
			h.hello = true;
			break;
		case O_OLD_ACKS:
			h.old_acks = true;
			break;
		case O_IDLE_FROM_FIRST:
			h.idle_from_first = true;
			break;
		default:
			return 2;
		}
	}
	if (optind >= argc || h.nbuf < 1 || h.nbuf > MAX_BUFS ||
	    dgr_transport_opts_finish(&to, true, errbuf) < 0) {
		fprintf(stderr, "usage: fpga-test-host TRANSPORT rx|tx|read|write|dump ... %s\n",
			errbuf);
		return 2;
	}
	cmd = argv[optind];
	if (dgr_transport_open(&to, &h.tr, errbuf) < 0) {
		fprintf(stderr, "%s\n", errbuf);
		return 1;
	}
	h.cap = dgr_transport_frame_cap(h.tr);
	h.frame = malloc(h.cap);
	if (strcmp(cmd, "rx") == 0) {
		rc = run_rx(&h);
	} else if (strcmp(cmd, "sink") == 0) {
		rc = run_sink(&h);
	} else if (strcmp(cmd, "tx") == 0) {
		rc = run_tx(&h);
	} else if (strcmp(cmd, "read") == 0 && optind + 1 < argc) {
		uint32_t val = 0;
		int code = dcp_request(&h, DCP_KIND_READ,
				       (uint32_t)strtoul(argv[optind + 1], NULL, 0), 0, &val);

		printf("code %d\nvalue %" PRIu32 "\n", code, val);
		rc = code < 0;
	} else if (strcmp(cmd, "write") == 0 && optind + 2 < argc) {
		int code =
		    dcp_request(&h, DCP_KIND_WRITE, (uint32_t)strtoul(argv[optind + 1], NULL, 0),
				(uint32_t)strtoul(argv[optind + 2], NULL, 0), NULL);

		printf("code %d\n", code);
		rc = code < 0;
	} else if (strcmp(cmd, "dump") == 0 && optind + 1 < argc) {
		rc = run_dump(&h, argv[optind + 1]);
	} else {
		fprintf(stderr, "unknown command '%s'\n", cmd);
		rc = 2;
	}
	free(h.frame);
	dgr_transport_close(h.tr);
	return rc;
}
