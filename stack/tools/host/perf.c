// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf: the perftest measurement of the AXI guide over DG-RDMA, host -> FPGA
 * (tx), FPGA -> host (rx) or both at once on one connection (DGR_DIR_BOTH).
 * Message sizes 2, 4, 8, 16, 32 KiB (up to --buffer-size, which must match
 * the peer's buffers), --count messages each, one phase per size: a phase
 * starts both streams together (the producer is released; the FPGA's
 * perftest is told over DCP, on the connection, to send count messages of
 * tx_beats = size / 4 words) and ends when both have finished. A direction's
 * time runs from the phase start to its last message consumed at the far end
 * (tx: the FPGA's doorbell for it came back; rx: the host consumed it).
 * --memcpy: tx copies each message from a source buffer, rx copies each one
 * out (software load); without it the buffers go out and are taken as they
 * are. docs/stack.md, "dgrdma-host perf".
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host.h"

#define PERF_SIZES	 5
#define PERF_POLL_NS	 100000ull /* how often the end of the tx stream is looked for */
#define PERF_DCP_TIMEOUT 200u	   /* ms per attempt */
#define PERF_DCP_RETRIES 5u

struct perf_run {
	struct host_cfg *cfg;
	uint32_t sizes[PERF_SIZES];
	unsigned int nsizes;
	uint64_t count;
	bool tx, rx;
	uint8_t *source;  /* tx --memcpy */
	uint8_t *scratch; /* rx --memcpy */

	/* main -> producer: the phases it may send (under lock) */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int released;
	bool abort;

	/* producer thread */
	unsigned int prod_phase;
	uint64_t prod_in_phase;
	uint64_t tx_msgs[PERF_SIZES], tx_bytes[PERF_SIZES];

	/* consumer thread; rx_phase is read by main (atomic) */
	unsigned int rx_phase;
	uint64_t rx_in_phase;
	uint64_t rx_msgs[PERF_SIZES], rx_bytes[PERF_SIZES];
	uint64_t rx_done_ns[PERF_SIZES];
	uint64_t rx_eofs;
	uint64_t rx_unexpected; /* messages of no phase or of the wrong size */
	uint64_t rx_total;	/* atomic: messages consumed */

	/* main */
	uint64_t start_ns[PERF_SIZES];
	uint64_t tx_done_ns[PERF_SIZES];
	unsigned int phases_done;
};

static int produce_perf(void *ctx, struct dgr_buffer_view *b)
{
	struct perf_run *p = ctx;
	unsigned int ph = p->prod_phase;

	if (ph >= p->nsizes) {
		return 0;
	}
	if (p->prod_in_phase == 0) {
		/* wait until main starts this phase (both directions together) */
		pthread_mutex_lock(&p->lock);
		while (p->released <= ph && !p->abort) {
			pthread_cond_wait(&p->cond, &p->lock);
		}
		pthread_mutex_unlock(&p->lock);
		if (p->abort) {
			return 0;
		}
	}
	b->len = p->sizes[ph];
	b->opcode = DGR_OPCODE_SAMPLES;
	if (p->cfg->perf_memcpy) {
		memcpy(b->data, p->source, b->len);
	}
	p->tx_msgs[ph]++;
	p->tx_bytes[ph] += b->len;
	if (++p->prod_in_phase == p->count) {
		p->prod_in_phase = 0;
		p->prod_phase++;
		b->eof = p->prod_phase == p->nsizes;
	}
	return 1;
}

static int consume_perf(void *ctx, const struct dgr_buffer_view *b)
{
	struct perf_run *p = ctx;
	unsigned int ph = p->rx_phase;

	if (ph >= p->nsizes || b->len != p->sizes[ph] || b->opcode != DGR_OPCODE_SAMPLES) {
		p->rx_unexpected++;
		return 0;
	}
	if (p->cfg->perf_memcpy) {
		memcpy(p->scratch, b->data, b->len);
		__asm__ volatile("" : : "r"(p->scratch) : "memory");
	}
	p->rx_msgs[ph]++;
	p->rx_bytes[ph] += b->len;
	p->rx_eofs += b->eof;
	__atomic_store_n(&p->rx_total, p->rx_total + 1, __ATOMIC_RELAXED);
	if (++p->rx_in_phase == p->count) {
		p->rx_done_ns[ph] = host_now_ns();
		p->rx_in_phase = 0;
		__atomic_store_n(&p->rx_phase, ph + 1, __ATOMIC_RELEASE);
	}
	return 0;
}

/* One DCP write or read of the FPGA's perftest worker. Returns 0 or < 0 with err. */
static int perf_dcp(struct dgr_conn *c, const struct host_cfg *cfg, enum dcp_kind kind,
		    uint32_t offset, uint32_t data, uint32_t *out, char *err)
{
	struct dcp_packet q, r;
	uint32_t addr = dcp_property_addr(cfg->perf_worker, offset);
	int rc;

	memset(&q, 0, sizeof(q));
	q.kind = kind;
	q.low = 0xF;
	q.addr = addr;
	q.data = data;
	rc = dgr_conn_dcp(c, &q, &r, PERF_DCP_TIMEOUT, PERF_DCP_RETRIES, err);
	if (rc < 0) {
		return rc;
	}
	if (r.low != DCP_RESP_OK || (kind == DCP_KIND_READ && r.kind != DCP_KIND_READ_RESP)) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "the FPGA answered '%s' to the DCP %s of 0x%06x (perftest worker %u, "
			 "--perftest-worker; its buffers smaller than --buffer-size?)",
			 dcp_resp_code_name(r.low), dcp_kind_name(kind), addr, cfg->perf_worker);
		return -DGR_E_STATE;
	}
	if (out) {
		*out = r.data;
	}
	return 0;
}

/*
 * Resets the FPGA's DG-RDMA endpoint (the reset control operation of worker
 * 0: a new host connection, whose first transaction goes into host buffer 0),
 * reads the perftest's tx_messages_sent and arms its tx side. Returns the
 * messages sent before, or < 0 with err.
 */
static int64_t perf_rx_arm(struct perf_run *p, struct dgr_conn *c, char *err)
{
	const struct host_cfg *cfg = p->cfg;
	struct dcp_packet q, r;
	uint32_t lo, hi;
	uint64_t sent;

	memset(&q, 0, sizeof(q));
	q.kind = DCP_KIND_READ; /* a read performs the operation and returns its result */
	q.low = 0xF;
	q.addr = dcp_control_addr(0, DCP_CTL_RESET);
	if (dgr_conn_dcp(c, &q, &r, PERF_DCP_TIMEOUT, PERF_DCP_RETRIES, err) < 0) {
		return -1;
	}
	if (r.low != DCP_RESP_OK || r.data != DGR_OCCP_SUCCESS) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "the FPGA refused the reset of its DG-RDMA worker 0 ('%s', 0x%08x): "
			 "without it the FPGA's first message of this connection may not go "
			 "into host buffer 0; restart the FPGA before --direction rx or both",
			 dcp_resp_code_name(r.low), r.data);
		return -1;
	}

	/* the low word's read latches the high word (docs/fpga.md section 4) */
	if (perf_dcp(c, cfg, DCP_KIND_READ, DGR_PERFTEST_TX_MESSAGES_SENT, 0, &lo, err) < 0 ||
	    perf_dcp(c, cfg, DCP_KIND_READ, DGR_PERFTEST_TX_MESSAGES_SENT + 4, 0, &hi, err) < 0) {
		return -1;
	}
	sent = (uint64_t)hi << 32 | lo;
	if (sent + p->nsizes * p->count > UINT32_MAX) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "--count: %u sizes x %" PRIu64 " messages after the %" PRIu64
			 " the FPGA already sent exceed its 32-bit tx_messages",
			 p->nsizes, p->count, sent);
		return -1;
	}
	if (perf_dcp(c, cfg, DCP_KIND_WRITE, DGR_PERFTEST_TX_MESSAGES, (uint32_t)sent, NULL, err) <
		0 ||
	    perf_dcp(c, cfg, DCP_KIND_WRITE, DGR_PERFTEST_TX_RUN, 1, NULL, err) < 0) {
		return -1;
	}
	return (int64_t)sent;
}

/*
 * Runs the phases. Returns 0 when all completed, 1 when the run stopped
 * (stall, interrupt, failure; err says why).
 */
static int perf_phases(struct perf_run *p, struct dgr_conn *c, uint64_t rx_base, char *err)
{
	const struct host_cfg *cfg = p->cfg;
	uint64_t progress = 0, last_progress_ns = host_now_ns();

	for (unsigned int k = 0; k < p->nsizes; k++) {
		bool tx_done = !p->tx, rx_done = !p->rx;

		if (p->rx && perf_dcp(c, cfg, DCP_KIND_WRITE, DGR_PERFTEST_TX_BEATS,
				      p->sizes[k] / 4, NULL, err) < 0) {
			return 1;
		}
		p->start_ns[k] = host_now_ns();
		pthread_mutex_lock(&p->lock);
		p->released = k + 1;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
		if (p->rx && perf_dcp(c, cfg, DCP_KIND_WRITE, DGR_PERFTEST_TX_MESSAGES,
				      (uint32_t)(rx_base + (k + 1) * p->count), NULL, err) < 0) {
			return 1;
		}
		while (!tx_done || !rx_done) {
			struct dgr_conn_stats s;
			uint64_t t, now_progress;
			int rc;

			host_sleep_until(host_now_ns() + PERF_POLL_NS);
			t = host_now_ns();
			dgr_conn_get_stats(c, &s);
			if (!tx_done && s.doorbells_received >= (k + 1) * p->count) {
				p->tx_done_ns[k] = t;
				tx_done = true;
			}
			if (!rx_done && __atomic_load_n(&p->rx_phase, __ATOMIC_ACQUIRE) > k) {
				rx_done = true;
			}
			rc = dgr_conn_wait(c, 0);
			if (rc < 0) {
				snprintf(err, DGR_ERRBUF_SIZE, "the connection failed (%d)", rc);
				return 1;
			}
			if (host_interrupted) {
				snprintf(err, DGR_ERRBUF_SIZE, "interrupted");
				return 1;
			}
			now_progress = s.doorbells_received + s.txns_sent +
				       __atomic_load_n(&p->rx_total, __ATOMIC_RELAXED);
			if (now_progress != progress) {
				progress = now_progress;
				last_progress_ns = t;
			} else if (cfg->idle_timeout_ns &&
				   t - last_progress_ns >= cfg->idle_timeout_ns) {
				snprintf(
				    err, DGR_ERRBUF_SIZE,
				    "%u-byte messages: no progress within --idle-timeout (%s%s)",
				    p->sizes[k], tx_done ? "" : "tx credits missing",
				    rx_done   ? ""
				    : tx_done ? "rx messages missing"
					      : ", rx messages missing");
				return 1;
			}
		}
		p->phases_done = k + 1;
	}
	return 0;
}

/* Releases a producer waiting for its next phase: it ends its stream. */
static void perf_abort(struct perf_run *p)
{
	pthread_mutex_lock(&p->lock);
	p->abort = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

static double perf_rate(uint64_t bytes, uint64_t from, uint64_t to)
{
	return to > from ? (double)bytes / ((double)(to - from) / 1e9) / 1e6 : 0.0;
}

static void perf_print(const struct perf_run *p)
{
	const struct host_cfg *cfg = p->cfg;
	const char *mc = cfg->perf_memcpy ? "on" : "off";
	const char *dir = p->tx && p->rx ? "both" : p->tx ? "tx" : "rx";

	if (cfg->csv) {
		printf("message_size,messages,seconds,mbyte_s,msample_s,memcpy,direction,"
		       "tx_messages,tx_bytes,tx_seconds,tx_mbyte_s,rx_messages,rx_bytes,rx_seconds,"
		       "rx_mbyte_s\n");
	} else if (p->tx && p->rx) {
		printf("%8s %10s %9s %10s %10s %10s %10s  (both directions, memcpy %s)\n", "size",
		       "messages", "seconds", "tx MB/s", "rx MB/s", "sum MB/s", "sum MS/s", mc);
	} else {
		printf("%8s %10s %9s %10s %10s  (%s, memcpy %s)\n", "size", "messages", "seconds",
		       "MB/s", "MS/s", dir, mc);
	}
	for (unsigned int i = 0; i < p->nsizes; i++) {
		bool done = i < p->phases_done;
		uint64_t tx_end = done && p->tx ? p->tx_done_ns[i] : p->start_ns[i];
		uint64_t rx_end = done && p->rx ? p->rx_done_ns[i] : p->start_ns[i];
		uint64_t end = tx_end > rx_end ? tx_end : rx_end;
		double tx_s = (double)(tx_end - p->start_ns[i]) / 1e9;
		double rx_s = (double)(rx_end - p->start_ns[i]) / 1e9;
		double sec = (double)(end - p->start_ns[i]) / 1e9;
		double tx_mb = perf_rate(p->tx_bytes[i], p->start_ns[i], tx_end);
		double rx_mb = perf_rate(p->rx_bytes[i], p->start_ns[i], rx_end);
		double sum = tx_mb + rx_mb;

		if (cfg->csv) {
			printf("%u,%" PRIu64 ",%.6f,%.1f,%.2f,%s,%s,%" PRIu64 ",%" PRIu64
			       ",%.6f,%.1f,%" PRIu64 ",%" PRIu64 ",%.6f,%.1f\n",
			       p->sizes[i], p->count, sec, sum, sum / 4, mc, dir, p->tx_msgs[i],
			       p->tx_bytes[i], tx_s, tx_mb, p->rx_msgs[i], p->rx_bytes[i], rx_s,
			       rx_mb);
		} else if (p->tx && p->rx) {
			printf("%8u %10" PRIu64 " %9.3f %10.1f %10.1f %10.1f %10.2f\n", p->sizes[i],
			       p->count, sec, tx_mb, rx_mb, sum, sum / 4);
		} else {
			printf("%8u %10" PRIu64 " %9.3f %10.1f %10.2f\n", p->sizes[i], p->count,
			       sec, sum, sum / 4);
		}
	}
}

/* See host.h. */
int host_run_perf(struct host_cfg *cfg)
{
	static const uint32_t all[PERF_SIZES] = { 2048, 4096, 8192, 16384, 32768 };
	struct perf_run p = { .cfg = cfg };
	struct dgr_conn *c = NULL;
	struct dgr_conn_opts co = cfg->co;
	char err[DGR_ERRBUF_SIZE] = "";
	int64_t rx_base = 0;
	int rc, status = DGR_EXIT_FAILED;

	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.cond, NULL);
	p.tx = cfg->perf_direction != DGR_DIR_RX;
	p.rx = cfg->perf_direction != DGR_DIR_TX;
	for (unsigned int i = 0; i < PERF_SIZES; i++) {
		if (all[i] <= co.buffer_size) {
			p.sizes[p.nsizes++] = all[i];
		}
	}
	if (p.nsizes == 0) {
		fprintf(stderr, "dgrdma-host perf: --buffer-size must be at least 2048\n");
		status = DGR_EXIT_USAGE;
		goto out;
	}
	p.count = cfg->perf_count ? cfg->perf_count : 16384;
	p.source = malloc(co.buffer_size);
	p.scratch = malloc(co.buffer_size);
	if (!p.source || !p.scratch) {
		fprintf(stderr, "dgrdma-host perf: out of memory\n");
		goto out;
	}
	dgr_ramp_fill(p.source, co.buffer_size, 0);
	if (host_conn_options(cfg, 0, &co, err) < 0) {
		fprintf(stderr, "dgrdma-host perf: %s\n", err);
		goto out;
	}
	co.direction = cfg->perf_direction;
	co.eof_continues = true; /* every rx phase ends with an EOF message */
	co.on_stats = NULL;
	rc = dgr_conn_open(&co, &c, err);
	if (rc == 0) {
		rc = dgr_conn_start(c, p.rx ? consume_perf : NULL, p.tx ? produce_perf : NULL, &p,
				    err);
	}
	if (rc == 0 && p.rx) {
		rx_base = perf_rx_arm(&p, c, err);
		rc = rx_base < 0 ? -1 : 0;
	}
	if (rc < 0) {
		fprintf(stderr, "dgrdma-host perf: %s\n", err);
		goto out;
	}
	status = perf_phases(&p, c, (uint64_t)rx_base, err) ? DGR_EXIT_FAILED : DGR_EXIT_OK;
	perf_abort(&p);
	dgr_conn_stop(c);
	if (status != 0) {
		fprintf(stderr, "dgrdma-host perf: the sweep did not complete: %s\n", err);
	}
	if (p.rx) {
		struct dgr_conn_stats s;

		dgr_conn_get_stats(c, &s);
		if (p.rx_unexpected || s.samples_lost || s.ramp_gaps ||
		    (status == 0 && p.rx_eofs != p.nsizes)) {
			fprintf(stderr,
				"dgrdma-host perf: the FPGA's messages: %" PRIu64
				" unexpected (no phase, wrong size), %" PRIu64
				" samples lost in %" PRIu64 " ramp gaps, %" PRIu64
				" EOFs for %u phases\n",
				p.rx_unexpected, s.samples_lost, s.ramp_gaps, p.rx_eofs, p.nsizes);
			status = DGR_EXIT_FAILED;
		}
	}
	perf_print(&p);
out:
	perf_abort(&p); /* a producer waiting for its phase lets the connection stop */
	dgr_conn_close(c);
	free(p.source);
	free(p.scratch);
	pthread_cond_destroy(&p.cond);
	pthread_mutex_destroy(&p.lock);
	return status;
}
