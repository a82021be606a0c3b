/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A DCP request of the connection's caller (dgr_conn_dcp(), dgrdma/host.h):
 * handed to the tx thread, its answer taken by the rx thread (dgr_rx_dcp())
 * and handed back, with the retries of dgr_dcp_attempts().
 */
#include <sched.h>
#include <stdio.h>

#include "conn_priv.h"

/* Hands a DCP response to the waiting dgr_conn_dcp() when it is the one awaited. */
void dgr_rx_dcp(struct dgr_conn *c, const uint8_t *buf, size_t len)
{
	uint32_t want = __atomic_load_n(&c->dcp_want, __ATOMIC_ACQUIRE);
	struct dcp_packet p;

	if (dcp_decode(buf, len, &p, NULL) < 0) {
		DGR_ADD(c->st.malformed_dcp, 1);
		return;
	}
	if (!dcp_is_response(p.kind)) {
		DGR_ADD(c->st.dcp_unexpected, 1); /* a host answers no request */
		return;
	}
	if (!(p.tag & DGR_DCP_TAG_CALLER)) {
		return; /* the answer to one of our DCP doorbells */
	}
	if (!want || (DGR_DCP_WANT | p.tag) != want) {
		DGR_ADD(c->st.dcp_unexpected, 1); /* a late answer to an earlier try, or junk */
		return;
	}
	/* claim it: a duplicate answer (after a resend) then finds nothing awaited */
	if (!__atomic_compare_exchange_n(&c->dcp_want, &want, 0, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		return;
	}
	c->dcp_resp = p;
	__atomic_store_n(&c->dcp_have, 1, __ATOMIC_RELEASE);
	dgr_event_notify(&c->ev_dcp);
}

/* One DCP request of dgr_conn_dcp() in flight: what its send and wait need. */
struct dcp_call {
	struct dgr_conn *c;
	struct dgr_dcp_out out;
	struct dcp_packet *resp;
};

/* Hands the request to the tx thread. Returns 0, or -DGR_E_STATE when the connection stops. */
static int dcp_call_send(void *ctx)
{
	struct dcp_call *q = ctx;
	struct dgr_conn *c = q->c;

	/* one request is out at a time and the ring holds 4: a full ring is transient */
	while (!dgr_spsc_push(&c->dcp_out, &q->out)) {
		dgr_event_notify(&c->ev_tx);
		if (dgr_conn_stopping(c)) {
			return -DGR_E_STATE;
		}
		sched_yield();
	}
	dgr_event_notify(&c->ev_tx);
	return 0;
}

/* Waits for the rx thread's answer: 1 with *resp, 0 at the deadline, -DGR_E_STATE when stopping. */
static int dcp_call_wait(void *ctx, uint64_t deadline)
{
	struct dcp_call *q = ctx;
	struct dgr_conn *c = q->c;

	for (;;) {
		uint32_t seen = dgr_event_prepare(&c->ev_dcp);
		uint64_t now;

		if (__atomic_load_n(&c->dcp_have, __ATOMIC_ACQUIRE)) {
			dgr_event_cancel(&c->ev_dcp);
			*q->resp = c->dcp_resp;
			return 1;
		}
		if (dgr_conn_stopping(c)) {
			dgr_event_cancel(&c->ev_dcp);
			return -DGR_E_STATE;
		}
		now = dgr_now_ns();
		if (now >= deadline) {
			dgr_event_cancel(&c->ev_dcp);
			return 0;
		}
		dgr_event_wait(&c->ev_dcp, seen, deadline - now);
	}
}

/* Returns 0 with *resp, -DGR_E_TIMEOUT or -DGR_E_STATE (see host.h). */
int dgr_conn_dcp(struct dgr_conn *c, const struct dcp_packet *req, struct dcp_packet *resp,
		 unsigned int timeout_ms, unsigned int retries, char *errbuf)
{
	struct dcp_call q = { .c = c, .resp = resp };
	struct dcp_packet r = *req;
	int len;
	int rc;

	if (!c->th_started[DGR_T_TX] || dgr_conn_stopping(c)) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "DCP request: the connection is not running");
		return -DGR_E_STATE;
	}
	r.tag = (uint8_t)(DGR_DCP_TAG_CALLER | (c->dcp_next_tag++ & (DGR_DCP_TAG_CALLER - 1)));
	len = dcp_encode(q.out.buf, sizeof(q.out.buf), &r);
	if (len < 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "DCP request: cannot encode it");
		return len;
	}
	q.out.len = (uint8_t)len;
	__atomic_store_n(&c->dcp_have, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&c->dcp_want, DGR_DCP_WANT | r.tag, __ATOMIC_RELEASE);
	rc = dgr_dcp_attempts(retries, timeout_ms, dcp_call_send, dcp_call_wait, &q);
	if (rc == 0) {
		return 0;
	}
	__atomic_store_n(&c->dcp_want, 0, __ATOMIC_RELEASE);
	if (rc == -DGR_E_TIMEOUT) {
		snprintf(errbuf, DGR_ERRBUF_SIZE,
			 "no answer to the DCP %s of 0x%06x after %u attempts of %u ms (is the "
			 "peer's DCP server running?)",
			 dcp_kind_name(r.kind), r.addr, retries + 1, timeout_ms);
		return rc;
	}
	snprintf(errbuf, DGR_ERRBUF_SIZE, "DCP request: the connection stopped");
	return -DGR_E_STATE;
}
