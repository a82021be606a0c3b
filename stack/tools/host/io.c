// SPDX-License-Identifier: GPL-2.0-or-later
/* dgrdma-host's data: the rx consumer's sinks and the tx producer's sources. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dgrdma/ramp.h>
#include "host.h"

/* See host.h. */
int host_consume(void *ctx, const struct dgr_buffer_view *b)
{
	struct host_run *r = ctx;
	struct host_cfg *cfg = r->cfg;

	if (cfg->stall && r->consumed++ == cfg->stall_at) {
		/* the single disturbance: the buffer is held, the pool fills behind it */
		uint64_t t0 = host_now_ns();

		host_sleep_until(t0 + cfg->stall_ns);
		r->stalled_ns = host_now_ns() - t0;
	}
	switch (cfg->sink) {
	case SINK_NULL:
		break;
	case SINK_MEMCPY:
		memcpy(r->scratch, b->data, b->len);
		__asm__ volatile("" : : "r"(r->scratch) : "memory");
		break;
	case SINK_FILE: {
		size_t done = 0;

		if (cfg->direct && b->len % 4096) {
			/* a short final buffer cannot be written with OPT_DIRECT */
			int fl = fcntl(r->fd, F_GETFL);

			(void)fcntl(r->fd, F_SETFL, fl & ~O_DIRECT);
		}
		while (done < b->len) {
			ssize_t n = write(r->fd, b->data + done, b->len - done);

			if (n < 0) {
				if (errno == EINTR) {
					continue;
				}
				snprintf(r->sink_err, sizeof(r->sink_err), "%.200s: write: %s",
					 r->path, strerror(errno));
				return -DGR_E_SYS;
			}
			done += (size_t)n;
		}
		if (cfg->fsync_each && fsync(r->fd) != 0) {
			snprintf(r->sink_err, sizeof(r->sink_err), "%.200s: fsync: %s", r->path,
				 strerror(errno));
			return -DGR_E_SYS;
		}
		break;
	}
	}
	if (cfg->consumer_delay_ns) {
		host_sleep_until(host_now_ns() + cfg->consumer_delay_ns);
	}
	return 0;
}

/* See host.h. */
int host_produce(void *ctx, struct dgr_buffer_view *b)
{
	struct host_run *r = ctx;
	struct host_cfg *cfg = r->cfg;
	uint32_t len = b->len;

	if (r->source_eof || host_interrupted) {
		return 0;
	}
	if (cfg->total_bytes && r->produced_bytes + len >= cfg->total_bytes) {
		len = (uint32_t)(cfg->total_bytes - r->produced_bytes);
		b->eof = true;
	}
	if (cfg->duration_ns && host_now_ns() - r->start_ns >= cfg->duration_ns) {
		len = 0;
		b->eof = true;
	}
	if (cfg->source == SOURCE_RAMP) {
		len -= len % DGR_SAMPLE_BYTES;
		r->ramp_next = dgr_ramp_fill(b->data, len, r->ramp_next);
	} else {
		uint32_t got = 0;

		while (got < len) {
			ssize_t n = read(r->fd, b->data + got, len - got);

			if (n < 0 && errno == EINTR) {
				continue;
			}
			if (n < 0) {
				snprintf(r->sink_err, sizeof(r->sink_err), "%.200s: read: %s",
					 r->path, strerror(errno));
				return -DGR_E_SYS;
			}
			if (n == 0) {
				b->eof = true;
				break;
			}
			got += (uint32_t)n;
		}
		len = got;
	}
	b->len = len;
	b->opcode = DGR_OPCODE_SAMPLES;
	r->produced_bytes += len;
	if (b->eof) {
		r->source_eof = true;
	}
	if (cfg->rate_sps) {
		/* pacing: buffer k leaves when k buffers' worth of samples are due */
		uint64_t due =
		    r->start_ns + (uint64_t)((double)(r->produced_bytes / DGR_SAMPLE_BYTES) * 1e9 /
					     (double)cfg->rate_sps);

		host_sleep_until(due);
	}
	return 1;
}

/* See host.h. */
int host_open_files(struct host_run *r, char *err)
{
	struct host_cfg *cfg = r->cfg;
	const char *base = cfg->co.direction == DGR_DIR_RX ? cfg->sink_path : cfg->source_path;

	r->fd = -1;
	if (base && cfg->npeers > 1 && cfg->co.direction == DGR_DIR_RX) {
		snprintf(r->path, sizeof(r->path), "%s.%u", base, r->index);
	} else if (base) {
		snprintf(r->path, sizeof(r->path), "%s", base);
	}
	if (cfg->co.direction == DGR_DIR_RX && cfg->sink == SINK_FILE) {
		int fl = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (cfg->direct ? O_DIRECT : 0);

		r->fd = open(r->path, fl, 0644);
		if (r->fd < 0) {
			dgr_errbuf_set(err, DGR_E_SYS, "--sink file:%s: %s", r->path,
				       strerror(errno));
			return -1;
		}
	}
	if (cfg->co.direction == DGR_DIR_TX && cfg->source == SOURCE_FILE) {
		r->fd = open(r->path, O_RDONLY | O_CLOEXEC);
		if (r->fd < 0) {
			dgr_errbuf_set(err, DGR_E_SYS, "--source file:%s: %s", r->path,
				       strerror(errno));
			return -1;
		}
	}
	if (cfg->sink == SINK_MEMCPY) {
		r->scratch = malloc(cfg->co.buffer_size);
		if (!r->scratch) {
			snprintf(err, DGR_ERRBUF_SIZE, "out of memory");
			return -1;
		}
	}
	return 0;
}
