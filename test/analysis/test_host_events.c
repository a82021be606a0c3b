// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the in-host event analysis (analysis/input/host_events.c) on synthetic
 * event sequences of the tracepoint schema, and of the wire/trace join.
 */
#include <stdarg.h>
#include <string.h>

#include "host_events.h"
#include "join.h"
#include "../unit/tap.h"

static struct host_analysis h;

/* ev("dgrdma:txn_complete", ts, "conn", 0, "buffer", 1, ..., NULL) */
static void ev(const char *name, uint64_t ts, ...)
{
	struct host_event e;
	const char *field;
	va_list ap;

	memset(&e, 0, sizeof(e));
	e.name = name;
	e.ts = ts;
	va_start(ap, ts);
	while ((field = va_arg(ap, const char *)) != NULL) {
		e.f[e.nfields].name = field;
		e.f[e.nfields].value = va_arg(ap, uint64_t);
		e.nfields++;
	}
	va_end(ap);
	ha_event(&h, &e);
}

#define U(x) ((uint64_t)(x))

static uint64_t cb_count, cb_last_wait, cb_last_work, cb_last_send, drops_lost;
static struct ha_doorbell cb_last;

static void on_bell(void *ctx, const struct ha_doorbell *d)
{
	(void)ctx;
	cb_count++;
	cb_last = *d;
	cb_last_wait = d->wait;
	cb_last_work = d->work;
	cb_last_send = d->send;
}

static void on_drops(void *ctx, uint64_t ts, const char *source, unsigned int conn, uint32_t vpid,
		     uint64_t delivered, uint64_t lost)
{
	(void)vpid;
	(void)ctx;
	(void)ts;
	(void)source;
	(void)conn;
	(void)delivered;
	drops_lost = lost;
}

static void test_rx_parts(void)
{
	struct summary sum;

	tap_ok(ha_init(&h) == 0, "init");
	h.on_doorbell = on_bell;
	h.on_drops = on_drops;
	ev("dgrdma:thread_start", 10, "role", U(0), "conn", U(0), "tid", U(1234), "policy", U(1),
	   "priority", U(50), "nice", U(0), "cpuset", U(0xC), NULL);
	ev("dgrdma:txn_complete", 1000, "conn", U(0), "txn_id", U(1), "buffer", U(0), "bytes",
	   U(8192), "opcode", U(0), "flag_addr", U(0x100000), "frame_seq", U(3), NULL);
	ev("dgrdma:buffer_acquire", 1500, "conn", U(0), "buffer", U(0), "txn_id", U(1), NULL);
	ev("dgrdma:txn_complete", 1600, "conn", U(0), "txn_id", U(2), "buffer", U(1), "bytes",
	   U(8192), "opcode", U(0), "flag_addr", U(0x100004), "frame_seq", U(4), NULL);
	ev("dgrdma:buffer_release", 4000, "conn", U(0), "buffer", U(0), "txn_id", U(1), NULL);
	ev("dgrdma:doorbell_queued", 4100, "conn", U(0), "buffer", U(0), "txn_id", U(1),
	   "flag_addr", U(0xF000), NULL);
	ev("dgrdma:doorbell_sent", 4500, "conn", U(0), "buffer", U(0), "txn_id", U(1), "flag_addr",
	   U(0xF000), "frame_seq", U(9), NULL);
	TAP_EQ_U(cb_count, 1, "one in-host doorbell reported");
	TAP_EQ_U(cb_last_wait, 500, "wait for the consumer 500 ns");
	TAP_EQ_U(cb_last_work, 2500, "consumer work 2500 ns");
	TAP_EQ_U(cb_last_send, 500, "wait for the sender 500 ns");
	tap_ok(!cb_last.has_wait_receive && h.recv.n == 0 && h.lat_arrival.n == 0,
	       "a txn_complete without wait_receive_ns: no latency from arrival");
	/* buffer 1 answered without acquire/release events: latency only; its send call took 1.2 us
	 */
	ev("dgrdma:doorbell_sent", 9600, "conn", U(0), "buffer", U(1), "txn_id", U(2), "flag_addr",
	   U(0xF004), "frame_seq", U(10), "send_call_ns", U(1200), NULL);
	/* a doorbell for a transaction the trace never saw complete */
	ev("dgrdma:doorbell_sent", 9700, "conn", U(0), "buffer", U(2), "txn_id", U(3), "flag_addr",
	   U(0xF008), "frame_seq", U(11), NULL);
	/* same (conn, buffer, txn_id) on another connection is another transaction */
	ev("dgrdma:txn_complete", 9800, "conn", U(1), "txn_id", U(1), "buffer", U(0), "bytes",
	   U(16), "opcode", U(4), "flag_addr", U(0x100000), "frame_seq", U(3), NULL);
	TAP_EQ_U(h.c.matched, 2, "2 matched");
	TAP_EQ_U(h.c.discontinuities, 1, "the opcode-4 completion is a discontinuity");
	TAP_EQ_U(h.c.orphans, 1, "1 orphan doorbell");
	TAP_EQ_U(h.c.parts_missing, 1, "1 doorbell without its parts");
	TAP_EQ_U(ha_pending_count(&h), 1, "connection 1's transaction still waiting");
	series_summarise(&h.lat, 0, 0, &sum);
	tap_ok(sum.count == 2 && sum.min == 3500 && sum.max == 8000,
	       "in-host latencies 3500 and 8000 ns");
	tap_ok(h.lat_handed.n == 2 && h.lat_handed.s[0].value == 3500 &&
		   h.lat_handed.s[1].value == 6800,
	       "to the hand-over: 3500 ns without send_call_ns, 8000 - 1200 ns with it");
	tap_ok(!h.worst_bell.seen && h.c.bells_with_latency == 0,
	       "doorbell_sent of the older layout (no latency_ns): no latest doorbell");
	TAP_EQ_U(h.n_threads, 1, "one thread seen");
	tap_ok(h.threads[0].policy == 1 && h.threads[0].priority == 50 &&
		   h.threads[0].tid == 1234 && h.threads[0].cpuset == 0xC,
	       "thread settings recorded (SCHED_FIFO 50, cpus 2-3)");
	tap_ok(!strcmp(ha_policy_name(h.threads[0].policy), "SCHED_FIFO"), "policy named");
}

static void test_tx_and_counters(void)
{
	struct summary sum;

	ev("dgrdma:txn_sent", 20000, "conn", U(0), "txn_id", U(5), "buffer", U(3), "bytes", U(64),
	   "frame_seq", U(1), NULL);
	ev("dgrdma:doorbell_rx", 20900, "conn", U(0), "buffer", U(3), "flag_addr", U(0xF00C),
	   "frame_seq", U(2), NULL);
	ev("dgrdma:doorbell_rx", 21000, "conn", U(0), "buffer", U(4), "flag_addr", U(0xF010),
	   "frame_seq", U(3), NULL);
	series_summarise(&h.tx_credit, 0, 0, &sum);
	tap_ok(sum.count == 1 && sum.min == 900, "TX credit latency 900 ns");
	TAP_EQ_U(h.c.tx_orphans, 1, "TX doorbell without a transaction");
	ev("dgrdma:counters", 30000, "conn", U(0), "samples_received", U(1000), "samples_lost",
	   U(10), NULL);
	ev("dgrdma_fpga:counters", 30001, "samples_produced", U(5000), "dropped_samples", U(50),
	   "num_dropped_samps", U(2), NULL);
	ev("dgrdma_fpga:drop_period", 30002, "start_sample", U(100), "count", U(50), NULL);
	ev("dgrdma:socket_drop", 30003, "conn", U(0), "drops", U(7), "total", U(7), NULL);
	ev("dgrdma:socket_drop", 30004, "conn", U(0), "drops", U(3), "total", U(10), NULL);
	ev("other:event", 30005, NULL);
	TAP_EQ_U(h.n_srcs, 2, "two counter sources (host conn 0, fpga)");
	TAP_EQ_U(h.srcs[0].lost, 10, "host lost samples");
	TAP_EQ_U(h.srcs[1].delivered, 4950, "fpga delivered samples: 5000 produced - 50 dropped");
	TAP_EQ_U(drops_lost, 50, "drops callback with the emulator's dropped samples");
	TAP_EQ_U(h.c.fpga_drop_periods, 1, "drop period counted");
	TAP_EQ_U(h.c.socket_drops, 10, "socket drops summed");
	TAP_EQ_U(h.c.unknown_events, 1, "unknown provider counted");
	TAP_EQ_U(h.first_ts, 10, "first event time");
	TAP_EQ_U(h.last_ts, 30005, "last event time");
	ha_free(&h);
}

static void test_table_churn(void)
{
	unsigned int i;
	int ok = 1;

	/* many transactions through the open-addressing table, erased out of order */
	ha_init(&h);
	for (i = 0; i < 3 * HA_TABLE_SIZE; i++) {
		ev("dgrdma:txn_complete", 100 + i, "conn", U(i % 3), "txn_id", U(i), "buffer",
		   U(i % 255), NULL);
		if (i >= 100) {
			uint64_t t = i - 100;

			ev("dgrdma:doorbell_sent", 200 + i, "conn", U(t % 3), "buffer", U(t % 255),
			   "txn_id", U(t), NULL);
		}
	}
	for (i = 3 * HA_TABLE_SIZE - 100; i < 3 * HA_TABLE_SIZE; i++) {
		ev("dgrdma:doorbell_sent", 1000000 + i, "conn", U(i % 3), "buffer", U(i % 255),
		   "txn_id", U(i), NULL);
	}
	ok = h.c.matched == 3 * HA_TABLE_SIZE && h.c.orphans == 0 && ha_pending_count(&h) == 0;
	tap_ok(ok,
	       "%u transactions through the table: all matched, none left (matched %" PRIu64
	       ", orphans %" PRIu64 ")",
	       3 * HA_TABLE_SIZE, h.c.matched, h.c.orphans);
	ha_free(&h);
}

static void test_join(void)
{
	struct series wire, host, handed, recv, wtxn, htxn;
	struct join_series js;
	struct join_result jr;
	struct join_side ws = { .lat = &wire }, hs = { .lat = &host };

	series_init(&wire);
	series_init(&host);
	series_init(&handed);
	series_init(&recv);
	series_init(&wtxn);
	series_init(&htxn);
	join_series_init(&js);
	/* wire: frame completing the txn at 1000, doorbell frame at 9000 */
	series_add(&wire, 1000, 8000);
	series_add(&wire, 20000, 8000);
	series_add(&wire, 40000, 5000);
	series_add(&wire, 60000, 1000);
	/* host: complete 1400, sent 8700; the second doorbell is missing from the trace */
	series_add(&host, 1400, 7300);
	series_add(&host, 40100, 4600);
	/* sent 200 ns after the wire saw it (a capture point inside sendmsg) */
	series_add(&host, 60100, 1100);
	join_wire_host(&ws, &hs, 5000, &js, &jr);
	TAP_EQ_U(jr.joined, 3, "three doorbells joined, the one missing from the trace skipped");
	tap_ok(jr.unjoined_no_bell == 1 && jr.unjoined_complete == 0 &&
		   jr.unjoined_host_used_up == 0 && jr.first_unjoined_bell == 28000 && !jr.by_txn,
	       "the one left out: no trace doorbell within the window, its doorbell time 28000");
	tap_ok(js.w2s.n == 3 && js.w2s.s[0].value == 400 && js.w2s.s[1].value == 100 &&
		   js.w2s.s[2].value == 100,
	       "wire -> stack 400, 100 and 100 ns");
	tap_ok(js.s2w.n == 3 && js.s2w.s[0].value == 300 && js.s2w.s[1].value == 300 &&
		   js.s2w.s[2].value == 0,
	       "stack -> wire 300, 300, and 0 for the negative part");
	TAP_EQ_U(jr.negative_s2w, 1, "one negative stack -> wire part counted");
	TAP_EQ_U(js.arrival_offset.n, 0, "no arrivals given: no clock offsets");
	join_series_free(&js);
	join_series_init(&js);
	join_wire_host(&ws, &hs, 100, &js, &jr);
	TAP_EQ_U(jr.joined, 0, "a 100 ns window pairs nothing");
	TAP_EQ_U(jr.unjoined_no_bell, 4, "all four left out for their doorbell times");

	/* the send calls began 1000, 900 and 300 ns before doorbell_sent fired */
	series_add(&handed, 1400, 6300);
	series_add(&handed, 40100, 3700);
	series_add(&handed, 60100, 800);
	hs.handed = &handed;
	join_series_free(&js);
	join_series_init(&js);
	join_wire_host(&ws, &hs, 5000, &js, &jr);
	tap_ok(jr.joined == 3 && js.s2w.n == 3 && js.s2w.s[0].value == 1300 &&
		   js.s2w.s[1].value == 1200 && js.s2w.s[2].value == 100 && jr.negative_s2w == 0,
	       "stack -> wire from the hand-over: 1300, 1200 and 100 ns, none negative");
	tap_ok(js.w2s.n == 3 && js.w2s.s[0].value == 400,
	       "wire -> stack unchanged by the hand-over times");
	hs.handed = NULL;

	/* the kernel's arrival of the completing frame: 1001, 39997 and 60000 */
	series_add(&recv, 1400, 1001);
	series_add(&recv, 40100, 39997);
	series_add(&recv, 60100, 60000);
	hs.arrival = &recv;
	join_series_free(&js);
	join_series_init(&js);
	join_wire_host(&ws, &hs, 5000, &js, &jr);
	tap_ok(jr.arrival_offsets == 3 && js.arrival_offset.n == 3 &&
		   js.arrival_offset.s[0].value == 1 && js.arrival_offset.s[1].value == 3 &&
		   js.arrival_offset.s[2].value == 0,
	       "clock offsets |capture - trace arrival|: 1, 3 and 0 ns");
	TAP_EQ_U(jr.trace_arrival_first, 1, "one trace arrival before the capture's time");
	recv.n = 2;
	join_series_free(&js);
	join_series_init(&js);
	join_wire_host(&ws, &hs, 5000, &js, &jr);
	tap_ok(jr.joined == 3 && jr.arrival_offsets == 0 && js.arrival_offset.n == 0,
	       "arrivals not given for every doorbell: no offsets (%" PRIu64 ")",
	       jr.arrival_offsets);
	hs.arrival = NULL;

	/*
	 * Transaction ids. A burst: the trace's doorbells for wire transactions 20 and 21
	 * leave 100 ns apart, and the trace missed 20's; by time alone wire 20 would take
	 * the trace's 21 (the nearest), and 21 would be left without a pair.
	 */
	series_free(&wire);
	series_free(&host);
	series_init(&wire);
	series_init(&host);
	series_add(&wire, 1000, 5000); /* txn 20: doorbell 6000 */
	series_add(&wire, 2000, 4100); /* txn 21: doorbell 6100 */
	series_add(&host, 2300, 3850); /* txn 21: doorbell 6150 */
	series_add(&wtxn, 1000, 20);
	series_add(&wtxn, 2000, 21);
	series_add(&htxn, 2300, 21);
	join_series_free(&js);
	join_series_init(&js);
	join_wire_host(&ws, &hs, 5000, &js, &jr);
	tap_ok(jr.joined == 1 && js.w2s.n == 1 && js.w2s.s[0].t == 1000,
	       "by time alone: wire txn 20 takes the trace's 21 (the wrong one)");
	ws.txn = &wtxn;
	hs.txn = &htxn;
	join_series_free(&js);
	join_series_init(&js);
	join_wire_host(&ws, &hs, 5000, &js, &jr);
	tap_ok(jr.joined == 1 && js.w2s.n == 1 && js.w2s.s[0].t == 2000 && js.w2s.s[0].value == 300,
	       "with ids: wire txn 21 pairs with the trace's 21 (wire -> stack 300 ns)");
	htxn.s[0].value = 22;
	join_series_free(&js);
	join_series_init(&js);
	join_wire_host(&ws, &hs, 5000, &js, &jr);
	TAP_EQ_U(jr.joined, 0, "with ids: no transaction in common, no pair");
	tap_ok(jr.by_txn && jr.unjoined_no_bell == 2 && jr.first_unjoined_txn == 20,
	       "paired by id: both left out, the first is transaction 20");

	/*
	 * The trace's completion 6000 ns after the wire's (window 5000) though its doorbell is
	 * 300 ns off; then a second wire doorbell when the trace has no more.
	 */
	series_free(&wire);
	series_free(&host);
	series_init(&wire);
	series_init(&host);
	ws.txn = hs.txn = NULL;
	series_add(&wire, 1000, 8000);	/* doorbell 9000 */
	series_add(&host, 7000, 1700);	/* doorbell 8700, completion 6000 after the wire's */
	series_add(&wire, 20000, 1000); /* doorbell 21000 */
	join_series_free(&js);
	join_series_init(&js);
	join_wire_host(&ws, &hs, 5000, &js, &jr);
	tap_ok(jr.joined == 0 && jr.unjoined_complete == 1 && jr.unjoined_no_bell == 1,
	       "a completion outside the window is said so; the other has no trace doorbell near");
	series_free(&host);
	series_init(&host);
	series_add(&host, 1100, 7700); /* doorbell 8800: joins the first */
	join_series_free(&js);
	join_series_init(&js);
	join_wire_host(&ws, &hs, 5000, &js, &jr);
	tap_ok(jr.joined == 1 && jr.unjoined_host_used_up == 1 && jr.first_unjoined_bell == 21000,
	       "the trace's one doorbell used: the second wire doorbell is left out for it");

	join_series_free(&js);
	series_free(&wire);
	series_free(&host);
	series_free(&handed);
	series_free(&recv);
	series_free(&wtxn);
	series_free(&htxn);
}

static void test_vpid(void)
{
	ha_init(&h);
	/* two processes with the same (conn, buffer, txn_id) */
	ev("dgrdma:txn_complete", 100, "conn", U(0), "buffer", U(0), "txn_id", U(1), "vpid", U(11),
	   NULL);
	ev("dgrdma:txn_complete", 150, "conn", U(0), "buffer", U(0), "txn_id", U(1), "vpid", U(22),
	   NULL);
	ev("dgrdma:doorbell_sent", 300, "conn", U(0), "buffer", U(0), "txn_id", U(1), "vpid", U(22),
	   NULL);
	ev("dgrdma:doorbell_sent", 700, "conn", U(0), "buffer", U(0), "txn_id", U(1), "vpid", U(11),
	   NULL);
	tap_ok(
	    h.c.matched == 2 && h.c.unmatched == 0 && h.lat.n == 2 && h.lat.s[0].value == 150 &&
		h.lat.s[1].value == 600,
	    "the same transaction key in two processes (vpid) is two transactions: 150 and 600 ns");
	ha_free(&h);
}

/* txn_complete's wait_receive_ns: the latency from the kernel's arrival and its receive part */
static void test_rx_from_arrival(void)
{
	struct summary sum;

	tap_ok(ha_init(&h) == 0, "init");
	h.on_doorbell = on_bell;
	ev("dgrdma:txn_complete", 1000, "conn", U(0), "txn_id", U(1), "buffer", U(0), "bytes",
	   U(8192), "opcode", U(0), "flag_addr", U(0x100000), "frame_seq", U(3), "wait_receive_ns",
	   U(700), "arrival_ns", U(310), NULL);
	ev("dgrdma:txn_complete", 1200, "conn", U(0), "txn_id", U(2), "buffer", U(1), "bytes",
	   U(8192), "opcode", U(0), "flag_addr", U(0x100004), "frame_seq", U(4), "wait_receive_ns",
	   U(0), NULL);
	ev("dgrdma:doorbell_sent", 4500, "conn", U(0), "buffer", U(0), "txn_id", U(1), "flag_addr",
	   U(0xF000), "frame_seq", U(9), NULL);
	tap_ok(cb_last.has_wait_receive && cb_last.wait_receive == 700 && cb_last.latency == 3500,
	       "the doorbell carries its frame's 700 ns wait for the receive thread");
	ev("dgrdma:doorbell_sent", 5200, "conn", U(0), "buffer", U(1), "txn_id", U(2), "flag_addr",
	   U(0xF004), "frame_seq", U(10), NULL);
	series_summarise(&h.lat_arrival, 0, 0, &sum);
	tap_ok(sum.count == 2 && sum.min == 4000 && sum.max == 4200,
	       "from arrival: 700 + 3500 and 0 + 4000 ns (got %" PRIu64 "..%" PRIu64 ")", sum.min,
	       sum.max);
	series_summarise(&h.recv, 0, 0, &sum);
	tap_ok(sum.count == 2 && sum.min == 0 && sum.max == 700, "receive waits 0 and 700 ns");
	tap_ok(h.arrival.n == 1 && h.arrival.s[0].t == 1000 && h.arrival.s[0].value == 310,
	       "the kernel arrival (arrival_ns 310) kept for the one doorbell that had it");
	tap_ok(h.lat_read_handed.n == 1 && h.lat_read_handed.s[0].value == 4500 - (310 + 700),
	       "from the receive call's return (arrival 310 + wait 700) to the hand-over at 4500: "
	       "3490 ns, for the one doorbell whose frame had an arrival");
	ev("dgrdma:txn_complete", 6000, "conn", U(0), "txn_id", U(3), "buffer", U(2), "bytes",
	   U(8192), "opcode", U(0), "flag_addr", U(0x100008), "frame_seq", U(5), "wait_receive_ns",
	   U(400), "arrival_ns", U(5000), NULL);
	ev("dgrdma:doorbell_sent", 9000, "conn", U(0), "buffer", U(2), "txn_id", U(3), "flag_addr",
	   U(0xF008), "frame_seq", U(11), "send_call_ns", U(1000), NULL);
	tap_ok(h.lat_read_handed.n == 2 && h.lat_read_handed.s[1].value == 9000 - 1000 - 5400,
	       "read at 5000 + 400, the send call begun at 9000 - 1000: 2600 ns");
	ha_free(&h);
}

/*
 * The default trace since buffer_release carries held_ns: no buffer_acquire,
 * the acquire's time is the release's time minus held_ns, on the releasing
 * thread; a trace of both (--all-events) gives the same parts.
 */
static void test_release_held(void)
{
	tap_ok(ha_init(&h) == 0, "init");
	h.on_doorbell = on_bell;
	cb_count = 0;
	ev("dgrdma:txn_complete", 1000, "conn", U(0), "txn_id", U(1), "buffer", U(0), "bytes",
	   U(8192), "opcode", U(0), "flag_addr", U(0x100000), "frame_seq", U(3), "vtid", U(11),
	   NULL);
	ev("dgrdma:buffer_release", 4000, "conn", U(0), "buffer", U(0), "txn_id", U(1), "held_ns",
	   U(2500), "vtid", U(12), NULL);
	ev("dgrdma:doorbell_sent", 4500, "conn", U(0), "buffer", U(0), "txn_id", U(1), "flag_addr",
	   U(0xF000), "frame_seq", U(9), "vtid", U(13), NULL);
	TAP_EQ_U(cb_count, 1, "held_ns: one in-host doorbell reported");
	tap_ok(cb_last_wait == 500 && cb_last_work == 2500 && cb_last_send == 500,
	       "held_ns: wait 500, work 2500, send 500 ns without buffer_acquire (got %" PRIu64
	       ", %" PRIu64 ", %" PRIu64 ")",
	       cb_last_wait, cb_last_work, cb_last_send);
	tap_ok(cb_last.tid_complete == 11 && cb_last.tid_acquire == 12 && cb_last.tid_sent == 13,
	       "held_ns: the consumer's thread is the releasing one");
	TAP_EQ_U(h.c.parts_missing, 0, "held_ns: no parts missing");
	/* held_ns longer than the trace's time so far: no acquire invented */
	ev("dgrdma:txn_complete", 5000, "conn", U(0), "txn_id", U(2), "buffer", U(1), "bytes",
	   U(8192), "opcode", U(0), "flag_addr", U(0x100004), "frame_seq", U(4), NULL);
	ev("dgrdma:buffer_release", 6000, "conn", U(0), "buffer", U(1), "txn_id", U(2), "held_ns",
	   U(7000), NULL);
	ev("dgrdma:doorbell_sent", 6500, "conn", U(0), "buffer", U(1), "txn_id", U(2), "flag_addr",
	   U(0xF004), "frame_seq", U(10), NULL);
	TAP_EQ_U(h.c.parts_missing, 1,
		 "held_ns past the trace's start: parts missing, not made up");
	/* both forms in one trace: buffer_acquire's time and held_ns agree */
	ev("dgrdma:txn_complete", 8000, "conn", U(0), "txn_id", U(3), "buffer", U(2), "bytes",
	   U(8192), "opcode", U(0), "flag_addr", U(0x100008), "frame_seq", U(5), NULL);
	ev("dgrdma:buffer_acquire", 8300, "conn", U(0), "buffer", U(2), "txn_id", U(3), NULL);
	ev("dgrdma:buffer_release", 9000, "conn", U(0), "buffer", U(2), "txn_id", U(3), "held_ns",
	   U(700), NULL);
	ev("dgrdma:doorbell_sent", 9100, "conn", U(0), "buffer", U(2), "txn_id", U(3), "flag_addr",
	   U(0xF008), "frame_seq", U(11), NULL);
	tap_ok(cb_count == 3 && cb_last_wait == 300 && cb_last_work == 700 && cb_last_send == 100,
	       "buffer_acquire and held_ns together: wait 300, work 700, send 100 ns");
	ha_free(&h);
}

/*
 * The default trace since doorbell_sent carries the consumer's side: no event
 * on the consumer's thread; the release since_release_ns before the doorbell,
 * the acquire held_ns before that, on consumer_tid. consumer_tid 0 (the preload
 * library's) is no side; a buffer_release of the same buffer wins.
 */
static void test_consumer_side_in_doorbell(void)
{
	tap_ok(ha_init(&h) == 0, "init");
	h.on_doorbell = on_bell;
	cb_count = 0;
	ev("dgrdma:txn_complete", 1000, "conn", U(0), "txn_id", U(1), "buffer", U(0), "vtid", U(11),
	   NULL);
	ev("dgrdma:doorbell_sent", 4500, "conn", U(0), "buffer", U(0), "txn_id", U(1), "frame_seq",
	   U(9), "since_release_ns", U(500), "held_ns", U(2500), "consumer_tid", U(12), "vtid",
	   U(13), NULL);
	tap_ok(cb_count == 1 && cb_last_wait == 500 && cb_last_work == 2500 && cb_last_send == 500,
	       "doorbell_sent's fields: wait 500, work 2500, send 500 ns (got %" PRIu64 ", %" PRIu64
	       ", %" PRIu64 ")",
	       cb_last_wait, cb_last_work, cb_last_send);
	tap_ok(cb_last.tid_complete == 11 && cb_last.tid_acquire == 12 && cb_last.tid_sent == 13,
	       "doorbell_sent's fields: the consumer's thread is consumer_tid, not the sender");
	TAP_EQ_U(h.c.parts_missing, 0, "doorbell_sent's fields: no parts missing");
	/* consumer_tid 0: the side was not seen */
	ev("dgrdma:txn_complete", 5000, "conn", U(0), "txn_id", U(2), "buffer", U(1), NULL);
	ev("dgrdma:doorbell_sent", 6000, "conn", U(0), "buffer", U(1), "txn_id", U(2),
	   "since_release_ns", U(0), "held_ns", U(0), "consumer_tid", U(0), NULL);
	TAP_EQ_U(h.c.parts_missing, 1, "consumer_tid 0 (not seen): parts missing, not made up");
	/* a hold reaching before the trace's time: no acquire invented */
	ev("dgrdma:txn_complete", 7000, "conn", U(0), "txn_id", U(3), "buffer", U(2), NULL);
	ev("dgrdma:doorbell_sent", 8000, "conn", U(0), "buffer", U(2), "txn_id", U(3),
	   "since_release_ns", U(100), "held_ns", U(9000), "consumer_tid", U(12), NULL);
	TAP_EQ_U(h.c.parts_missing, 2, "held_ns reaching before the trace's start: parts missing");
	/* with buffer_release (--all-events) that event's times are the ones taken */
	ev("dgrdma:txn_complete", 10000, "conn", U(0), "txn_id", U(4), "buffer", U(3), NULL);
	ev("dgrdma:buffer_release", 10800, "conn", U(0), "buffer", U(3), "txn_id", U(4), "held_ns",
	   U(600), "vtid", U(12), NULL);
	ev("dgrdma:doorbell_sent", 11000, "conn", U(0), "buffer", U(3), "txn_id", U(4),
	   "since_release_ns", U(150), "held_ns", U(650), "consumer_tid", U(12), NULL);
	tap_ok(cb_count == 4 && cb_last_wait == 200 && cb_last_work == 600 && cb_last_send == 200,
	       "buffer_release and doorbell_sent's fields together: buffer_release's wait 200, "
	       "work 600, send 200 ns");
	ha_free(&h);
}

/* The last sample of a series (none spilled in these tests). */
static struct sample last_of(const struct series *s)
{
	return s->s[s->n - 1];
}

/*
 * The default trace since doorbell_sent carries since_complete_ns: no
 * txn_complete; the completion since_complete_ns before the doorbell, the
 * frame's arrival latency_ns before it, the receive thread's wait between.
 * A txn_complete of the same transaction wins; a completion before the trace's
 * first event, or since_complete_ns 0 (the preload library's), gives none.
 */
static void test_completion_in_doorbell(void)
{
	uint64_t pending, disc;

	tap_ok(ha_init(&h) == 0, "init");
	h.on_doorbell = on_bell;
	cb_count = 0;
	ev("dgrdma:thread_start", 100, "role", U(0), "conn", U(0), "tid", U(11), NULL);
	ev("dgrdma:doorbell_sent", 10000, "conn", U(0), "buffer", U(0), "txn_id", U(1), "frame_seq",
	   U(9), "send_call_ns", U(200), "latency_ns", U(3500), "since_release_ns", U(500),
	   "held_ns", U(2000), "consumer_tid", U(12), "since_complete_ns", U(3000), "vpid", U(42),
	   "vtid", U(13), NULL);
	tap_ok(
	    cb_count == 1 && cb_last.ts == 7000 && cb_last.latency == 3000 &&
		cb_last.has_wait_receive && cb_last.wait_receive == 500,
	    "since_complete_ns: completion at 7000, latency 3000, wait_receive 500 ns (got %" PRIu64
	    ", %" PRIu64 ", %" PRIu64 ")",
	    cb_last.ts, cb_last.latency, cb_last.wait_receive);
	tap_ok(last_of(&h.arrival).t == 7000 && last_of(&h.arrival).value == 6500 &&
		   last_of(&h.lat_arrival).value == 3500 && last_of(&h.recv).value == 500,
	       "since_complete_ns: arrival 6500 (the doorbell minus latency_ns), from arrival 3500 "
	       "ns");
	tap_ok(cb_last_wait == 500 && cb_last_work == 2000 && cb_last_send == 500 &&
		   cb_last.tid_complete == 0 && cb_last.tid_acquire == 12 && cb_last.tid_sent == 13,
	       "since_complete_ns: wait 500, work 2000, send 500 ns; the receive thread unnamed");
	tap_ok(h.c.txn_complete == 1 && h.c.completions_derived == 1 && h.c.matched == 1 &&
		   h.c.orphans == 0 && h.n_host_pids == 1 && h.host_pids[0] == 42 &&
		   h.worst_bell.completion_in_trace,
	       "since_complete_ns: one transaction completed and matched, of process 42");
	/* with the event (--all-events, older traces) the event's times are the ones taken */
	ev("dgrdma:txn_complete", 11000, "conn", U(0), "txn_id", U(2), "buffer", U(1),
	   "wait_receive_ns", U(100), "arrival_ns", U(10900), "vpid", U(42), NULL);
	ev("dgrdma:doorbell_sent", 12000, "conn", U(0), "buffer", U(1), "txn_id", U(2),
	   "latency_ns", U(1150), "since_complete_ns", U(950), "vpid", U(42), NULL);
	tap_ok(cb_count == 2 && cb_last.ts == 11000 && cb_last.wait_receive == 100 &&
		   h.c.txn_complete == 2 && h.c.completions_derived == 1,
	       "txn_complete and since_complete_ns together: the event's completion");
	/* a completion before the trace's first event (a snapshot's start): an orphan */
	ev("dgrdma:doorbell_sent", 13000, "conn", U(0), "buffer", U(2), "txn_id", U(3),
	   "latency_ns", U(12950), "since_complete_ns", U(12950), "vpid", U(42), NULL);
	/* since_complete_ns 0: not given (the preload library's) */
	ev("dgrdma:doorbell_sent", 14000, "conn", U(0), "buffer", U(3), "txn_id", U(4),
	   "latency_ns", U(500), "since_complete_ns", U(0), "vpid", U(42), NULL);
	tap_ok(cb_count == 2 && h.c.orphans == 2 && h.c.txn_complete == 2,
	       "before the trace, or since_complete_ns 0: orphans, no completion made up");
	tap_ok(!ha_unanswered_from_counters(&h, false, &pending, &disc),
	       "with txn_complete events, the waiting ones are the trace's");
	ha_free(&h);
	/* no txn_complete at all: the unanswered are the counters' */
	tap_ok(ha_init(&h) == 0, "init");
	ev("dgrdma:thread_start", 100, "role", U(0), "conn", U(0), "tid", U(11), NULL);
	ev("dgrdma:doorbell_sent", 10000, "conn", U(0), "buffer", U(0), "txn_id", U(1),
	   "latency_ns", U(3500), "since_complete_ns", U(3000), NULL);
	tap_ok(!ha_unanswered_from_counters(&h, false, &pending, &disc),
	       "no counters snapshot: nothing from the counters");
	ev("dgrdma:counters", 20000, "conn", U(0), "samples_received", U(10), "samples_lost", U(0),
	   "txns_completed", U(5), "doorbells_sent", U(3), "discontinuities", U(1), NULL);
	tap_ok(
	    ha_unanswered_from_counters(&h, false, &pending, &disc) && pending == 2 && disc == 1,
	    "no txn_complete: waiting 2 (completed 5 - doorbells 3), discontinuities 1, from the "
	    "counters (got %" PRIu64 ", %" PRIu64 ")",
	    pending, disc);
	ev("dgrdma:counters", 30000, "conn", U(0), "samples_received", U(20), "samples_lost", U(0),
	   "txns_completed", U(9), "doorbells_sent", U(8), "discontinuities", U(4), NULL);
	tap_ok(
	    ha_unanswered_from_counters(&h, false, &pending, &disc) && pending == 1 && disc == 4,
	    "the whole run: the last snapshot's, 1 waiting and 4 discontinuities since the start");
	tap_ok(ha_unanswered_from_counters(&h, true, &pending, &disc) && pending == 1 && disc == 3,
	       "an incident's window: 3 discontinuities within it (4 - the first snapshot's 1)");
	ha_free(&h);
	/* two processes in one trace: a derived completion's receive thread is its own process's */
	tap_ok(ha_init(&h) == 0, "init");
	h.on_doorbell = on_bell;
	ev("dgrdma:thread_start", 100, "role", U(0), "conn", U(0), "tid", U(11), "vpid", U(42),
	   NULL);
	ev("dgrdma:thread_start", 110, "role", U(0), "conn", U(0), "tid", U(21), "vpid", U(43),
	   NULL);
	ev("dgrdma:doorbell_sent", 10000, "conn", U(0), "buffer", U(0), "txn_id", U(1),
	   "latency_ns", U(3500), "since_complete_ns", U(3000), "vpid", U(43), NULL);
	TAP_EQ_U(cb_last.tid_complete, 21,
		 "vpid 43's doorbell: vpid 43's rx thread (21), not 42's");
	ev("dgrdma:doorbell_sent", 11000, "conn", U(0), "buffer", U(1), "txn_id", U(2),
	   "latency_ns", U(3500), "since_complete_ns", U(3000), "vpid", U(44), NULL);
	TAP_EQ_U(cb_last.tid_complete, 0, "a process without thread_start: no thread made up");
	ha_free(&h);
}

/* doorbell_sent's latency_ns: the largest kept, with its doorbell, matched or not. */
static void test_bell_latency_field(void)
{
	const struct ha_worst_bell *w = &h.worst_bell;

	tap_ok(ha_init(&h) == 0, "init");
	ev("dgrdma:txn_complete", 1000, "conn", U(0), "txn_id", U(1), "buffer", U(0), "bytes",
	   U(8192), "opcode", U(0), "flag_addr", U(0x100000), "frame_seq", U(3), "vpid", U(42),
	   NULL);
	ev("dgrdma:doorbell_sent", 4500, "conn", U(0), "buffer", U(0), "txn_id", U(1), "flag_addr",
	   U(0xF000), "frame_seq", U(9), "send_call_ns", U(300), "latency_ns", U(5000), "vpid",
	   U(42), NULL);
	tap_ok(w->seen && w->latency_ns == 5000 && w->txn_id == 1 && w->frame_seq == 9 &&
		   w->completion_in_trace && w->vpid == 42 && w->ts == 4500,
	       "the first doorbell with latency_ns is the latest so far, matched");
	/* its completion lies before the trace (a snapshot's start): still the latest */
	ev("dgrdma:doorbell_sent", 6000, "conn", U(1), "buffer", U(3), "txn_id", U(7), "flag_addr",
	   U(0xF00C), "frame_seq", U(12), "send_call_ns", U(300), "latency_ns", U(300000000),
	   "vpid", U(42), NULL);
	/* a smaller one later, and an equal one, change nothing */
	ev("dgrdma:txn_complete", 6100, "conn", U(0), "txn_id", U(2), "buffer", U(1), "bytes",
	   U(8192), "opcode", U(0), "flag_addr", U(0x100004), "frame_seq", U(4), "vpid", U(42),
	   NULL);
	ev("dgrdma:doorbell_sent", 6500, "conn", U(0), "buffer", U(1), "txn_id", U(2), "flag_addr",
	   U(0xF004), "frame_seq", U(13), "send_call_ns", U(300), "latency_ns", U(900), "vpid",
	   U(42), NULL);
	ev("dgrdma:doorbell_sent", 7000, "conn", U(0), "buffer", U(2), "txn_id", U(9), "flag_addr",
	   U(0xF008), "frame_seq", U(14), "send_call_ns", U(300), "latency_ns", U(300000000),
	   "vpid", U(42), NULL);
	tap_ok(
	    w->latency_ns == 300000000 && w->conn == 1 && w->buffer == 3 && w->txn_id == 7 &&
		w->frame_seq == 12 && !w->completion_in_trace && w->ts == 6000,
	    "the latest is the 300 ms orphan (completion not in the trace), the first of equals");
	TAP_EQ_U(h.c.bells_with_latency, 4, "four doorbells carried latency_ns");
	TAP_EQ_U(h.c.matched, 2, "matching by (conn, buffer, txn_id) unchanged: 2 matched");
	TAP_EQ_U(h.c.orphans, 2, "and 2 orphans");
	ha_free(&h);
}

/*
 * The data rate from the counters snapshots: from the last reading before the bytes moved
 * to the reading of their last move, summed over connections; the emulator's are not the host's.
 */
static void test_data_rate(void)
{
	TAP_EQ_U(ha_init(&h), 0, "init");
	/* conn 0: idle at 100 and 200 ms, 1 MB at 300, 3 MB at 400 and 500 ms (stopped) */
	ev("dgrdma:counters", 100000000, "conn", U(0), "samples_received", U(0), "samples_lost",
	   U(0), "data_bytes_rx", U(0), "data_bytes_tx", U(0), NULL);
	TAP_EQ_U(ha_data_rate(&h, 0), 0, "one reading: no rate");
	ev("dgrdma:counters", 200000000, "conn", U(0), "samples_received", U(0), "samples_lost",
	   U(0), "data_bytes_rx", U(0), "data_bytes_tx", U(0), NULL);
	ev("dgrdma:counters", 300000000, "conn", U(0), "samples_received", U(1), "samples_lost",
	   U(0), "data_bytes_rx", U(1000000), "data_bytes_tx", U(0), NULL);
	ev("dgrdma:counters", 400000000, "conn", U(0), "samples_received", U(2), "samples_lost",
	   U(0), "data_bytes_rx", U(3000000), "data_bytes_tx", U(0), NULL);
	ev("dgrdma:counters", 500000000, "conn", U(0), "samples_received", U(2), "samples_lost",
	   U(0), "data_bytes_rx", U(3000000), "data_bytes_tx", U(0), NULL);
	TAP_EQ_U(ha_data_rate(&h, 0), 15000000,
		 "3 MB from the last idle reading (200 ms) to the last move (400 ms): 15 MB/s");
	TAP_EQ_U(ha_data_rate(&h, 1), 0, "nothing sent: no TX rate");
	/* conn 1 from its first reading (already moving), and an emulator whose bytes do not count
	 */
	ev("dgrdma:counters", 250000000, "conn", U(1), "samples_received", U(1), "samples_lost",
	   U(0), "data_bytes_rx", U(500000), "data_bytes_tx", U(0), NULL);
	ev("dgrdma:counters", 350000000, "conn", U(1), "samples_received", U(1), "samples_lost",
	   U(0), "data_bytes_rx", U(1500000), "data_bytes_tx", U(0), NULL);
	ev("dgrdma_fpga:counters", 350000001, "samples_produced", U(5000), "dropped_samples", U(0),
	   "data_bytes_rx", U(0), "data_bytes_tx", U(99000000), NULL);
	TAP_EQ_U(ha_data_rate(&h, 0), 25000000, "two connections: 15 + 10 MB/s");
	TAP_EQ_U(ha_data_rate(&h, 1), 0, "the emulator's counters are not the host's rate");
	ha_free(&h);
}

int main(void)
{
	test_rx_parts();
	test_tx_and_counters();
	test_table_churn();
	test_join();
	test_vpid();
	test_rx_from_arrival();
	test_bell_latency_field();
	test_release_held();
	test_consumer_side_in_doorbell();
	test_data_rate();
	test_completion_in_doorbell();
	return tap_done();
}
