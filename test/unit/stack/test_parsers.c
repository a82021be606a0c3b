/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ramp checker, the SPSC ring, and the command-line parsers every tool
 * shares: numbers, transport options, scheduling and CPU lists; --ready-file.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dgrdma/host.h>
#include <dgrdma/ramp.h>
#include <dgrdma/stats.h>
#include <dgrdma/transport.h>

#include "cli.h"
#include "transport_opts.h"
#include "../tap.h"
#include "ring.h"

static void test_ramp(void)
{
	uint8_t buf[4096];
	struct dgr_ramp r;
	uint32_t next;

	dgr_ramp_init(&r);
	next = dgr_ramp_fill(buf, sizeof(buf), 0);
	TAP_EQ_U(next, 1024, "fill writes 1024 samples");
	dgr_ramp_check(&r, buf, sizeof(buf));
	tap_ok(r.samples == 1024 && r.lost == 0 && r.gaps == 0,
	       "a clean ramp: 1024 samples, 0 lost");
	/* next buffer starts 100 samples later: 100 lost at sample 1024 */
	dgr_ramp_fill(buf, sizeof(buf), 1124);
	dgr_ramp_check(&r, buf, sizeof(buf));
	tap_ok(r.lost == 100 && r.gaps == 1 && r.gap[0].at_sample == 1024 &&
		   r.gap[0].expected == 1024 && r.gap[0].got == 1124,
	       "a jump of 100 is 100 lost samples at sample 1024");
	/* a gap inside a buffer */
	dgr_ramp_fill(buf, 2048, 2148);
	dgr_ramp_fill(buf + 2048, 2048, 2148 + 512 + 7);
	dgr_ramp_check(&r, buf, sizeof(buf));
	tap_ok(r.lost == 107 && r.gaps == 2 && r.gap[1].at_sample == 2048 + 512,
	       "a gap of 7 in the middle of a buffer (lost %llu)", (unsigned long long)r.lost);
	/* wrap of the 32-bit counter is not a gap */
	dgr_ramp_init(&r);
	dgr_ramp_fill(buf, sizeof(buf), 0xFFFFFF00u);
	dgr_ramp_check(&r, buf, sizeof(buf));
	tap_ok(r.lost == 0 && r.first == 0xFFFFFF00u && r.next == 0x300,
	       "the ramp wraps at 2^32 without a gap");
	/* backwards (repeated buffer) is counted apart */
	dgr_ramp_fill(buf, sizeof(buf), 0x300 - 1024);
	dgr_ramp_check(&r, buf, sizeof(buf));
	tap_ok(r.backwards == 1 && r.lost == 0, "a repeated buffer is one backwards step, no loss");
}

/* The checker's rules one sample at a time: the reference for the blocked checker. */
struct ramp_ref {
	bool started;
	uint32_t next;
	uint64_t lost, gaps, backwards;
};

static void ramp_ref_sample(struct ramp_ref *m, uint32_t v)
{
	if (!m->started) {
		m->started = true;
		m->next = v;
	}
	if (v != m->next) {
		int32_t d = (int32_t)(v - m->next);

		if (d > 0) {
			m->gaps++;
			m->lost += (uint32_t)d;
		} else {
			m->backwards++;
		}
	}
	m->next = v + 1;
}

/*
 * Random ramps with jumps at every offset (inside a 4-sample vector, at block
 * edges, in the scalar tail), checked in random pieces from unaligned
 * addresses: the blocked checker must agree with the one-sample reference.
 */
static void test_ramp_against_reference(void)
{
	static uint8_t raw[4 * 4096 + 8];
	uint64_t x = 0x9E3779B97F4A7C15ull;
	unsigned int bad = 0, trials = 3000;

	for (unsigned int t = 0; t < trials; t++) {
		struct ramp_ref m = { 0 };
		struct dgr_ramp r;
		uint32_t n, v, pos = 0;
		unsigned int shift;
		uint8_t *buf;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		n = (uint32_t)(x % 4097);
		shift = (unsigned int)(x >> 20) % 4;
		buf = raw + shift;
		v = (uint32_t)(x >> 32);
		for (uint32_t i = 0; i < n; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			if (x % 97 == 0) {
				v += (uint32_t)(x >> 40) % 300; /* forward jump (0: none) */
			} else if (x % 89 == 0) {
				v -= (uint32_t)(x >> 40) % 50; /* backwards */
			}
			memcpy(buf + 4 * (size_t)i, &v, 4);
			ramp_ref_sample(&m, v);
			v++;
		}
		dgr_ramp_init(&r);
		while (pos < n) {
			uint32_t piece;

			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			piece = 1 + (uint32_t)(x % 700);
			if (piece > n - pos) {
				piece = n - pos;
			}
			dgr_ramp_check(&r, buf + 4 * (size_t)pos, 4 * piece);
			pos += piece;
		}
		if (r.samples != n || r.lost != m.lost || r.gaps != m.gaps ||
		    r.backwards != m.backwards || (n && r.next != m.next)) {
			if (bad++ < 3) {
				tap_diag(
				    "trial %u: n %u lost %llu/%llu gaps %llu/%llu back %llu/%llu",
				    t, n, (unsigned long long)r.lost, (unsigned long long)m.lost,
				    (unsigned long long)r.gaps, (unsigned long long)m.gaps,
				    (unsigned long long)r.backwards,
				    (unsigned long long)m.backwards);
			}
		}
	}
	TAP_EQ_U(bad, 0,
		 "the blocked ramp check agrees with the one-sample reference on %u "
		 "random ramps with jumps",
		 trials);
}

/*
 * The four-sample fill against one little-endian word at a time: random
 * lengths (partial samples and scalar tails included), starts (the 2^32 wrap
 * included) and unaligned addresses; the bytes around the span are untouched.
 */
static void test_ramp_fill_against_reference(void)
{
	static uint8_t got[4 * 1100 + 16], want[4 * 1100 + 16];
	uint64_t x = 0xD1B54A32D192ED03ull;
	unsigned int bad = 0, trials = 2000;

	for (unsigned int t = 0; t < trials; t++) {
		uint32_t len, first, next;
		unsigned int shift;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		len = (uint32_t)(x % (4 * 1100 + 1));
		shift = (unsigned int)(x >> 16) % 8;
		first = t % 5 == 0 ? 0xFFFFFFF0u + (uint32_t)(x >> 24) % 32 : (uint32_t)(x >> 32);
		memset(got, 0xA5, sizeof(got));
		memset(want, 0xA5, sizeof(want));
		next = dgr_ramp_fill(got + shift, len, first);
		for (uint32_t i = 0; i < len / 4; i++) {
			uint32_t v = first + i;
			uint8_t *w = want + shift + 4 * (size_t)i;

			w[0] = (uint8_t)v;
			w[1] = (uint8_t)(v >> 8);
			w[2] = (uint8_t)(v >> 16);
			w[3] = (uint8_t)(v >> 24);
		}
		if (memcmp(got, want, sizeof(got)) != 0 || next != first + len / 4) {
			if (bad++ < 3) {
				tap_diag("trial %u: len %u first %u shift %u", t, len, first,
					 shift);
			}
		}
	}
	TAP_EQ_U(bad, 0,
		 "the four-sample fill writes exactly the one-sample ramp on %u random spans",
		 trials);
}

static void test_ring(void)
{
	struct dgr_spsc r;
	uint32_t v, sum = 0;
	int pushed = 0;

	TAP_EQ_I(dgr_spsc_init(&r, 5, sizeof(uint32_t)), 0, "ring of 5 rounds up to 8");
	for (uint32_t i = 0; i < 10; i++) {
		pushed += dgr_spsc_push(&r, &i);
	}
	TAP_EQ_I(pushed, 8, "8 pushes fit, 2 are refused");
	while (dgr_spsc_pop(&r, &v)) {
		sum = sum * 10 + v;
	}
	TAP_EQ_U(sum, 1234567, "pops return 0..7 in order");
	dgr_spsc_free(&r);
}

static void test_cli(void)
{
	char err[DGR_ERRBUF_SIZE];
	uint64_t v = 0;
	uint64_t ns = 0;

	TAP_EQ_I(dgr_parse_u64("--buffers", "255", 1, 255, false, &v, err), 0, "255 buffers ok");
	TAP_EQ_I(dgr_parse_u64("--buffers", "256", 1, 255, false, &v, err), -DGR_E_INVAL,
		 "256 buffers refused");
	tap_ok(strcmp(err, "--buffers: '256' is out of range 1..255") == 0,
	       "the error names the option and the range: %s", err);
	TAP_EQ_I(dgr_parse_u64("--buffer-size", "32K", 64, 2 << 20, true, &v, err), 0, "32K");
	TAP_EQ_U(v, 32768, "32K is 32768");
	TAP_EQ_I(dgr_parse_u64("--buffers", "-1", 1, 255, false, &v, err), -DGR_E_INVAL,
		 "negative refused");
	TAP_EQ_I(dgr_parse_u64("--buffers", "12x", 1, 255, false, &v, err), -DGR_E_INVAL,
		 "trailing junk refused");
	TAP_EQ_I(dgr_parse_seconds("--duration", "2.5", 100, &ns, err), 0, "2.5 s");
	TAP_EQ_U(ns, 2500000000ull, "2.5 s in ns");
}

/* A value that is no number is called so, with what is accepted; one out of range gets the range.
 */
static void test_cli_messages(void)
{
	char err[DGR_ERRBUF_SIZE];
	uint64_t v = 0;
	int64_t i = 0;
	uint64_t ns = 0;

	dgr_parse_u64("--buffers", "many", 1, 255, false, &v, err);
	TAP_EQ_S(err, "--buffers: 'many' is not a number (accepted: 1..255)", "a word for a count");
	dgr_parse_u64("--buffers", "-1", 1, 255, false, &v, err);
	TAP_EQ_S(err, "--buffers: '-1' is out of range 1..255", "a negative count");
	dgr_parse_u64("--buffer-size", "3Q", 64, 1024, true, &v, err);
	TAP_EQ_S(
	    err,
	    "--buffer-size: '3Q' is not a number (accepted: 64..1024; suffixes K, M, G allowed)",
	    "an unknown size suffix");
	dgr_parse_u64("--buffer-size", "4K", 64, 1024, true, &v, err);
	TAP_EQ_S(err, "--buffer-size: '4K' is out of range 64..1024 (suffixes K, M, G allowed)",
		 "a size above the range, with its suffix");
	dgr_parse_u64("--bytes", "99999999999999999999", 1, 100, false, &v, err);
	TAP_EQ_S(err, "--bytes: '99999999999999999999' is out of range 1..100", "above 2^64");
	dgr_parse_u64("--buffers", "", 1, 255, false, &v, err);
	TAP_EQ_S(err, "--buffers: '' is not a number (accepted: 1..255)", "an empty value");
	TAP_EQ_I(dgr_parse_i64("--nice", "-20", -20, 19, &i, err), 0, "nice -20");
	TAP_EQ_I((int)i, -20, "-20 read");
	dgr_parse_i64("--nice", "-x", -20, 19, &i, err);
	TAP_EQ_S(err, "--nice: '-x' is not a number (accepted: -20..19)", "a minus sign alone");
	dgr_parse_i64("--nice", "-21", -20, 19, &i, err);
	TAP_EQ_S(err, "--nice: '-21' is out of range -20..19", "below the signed range");
	dgr_parse_seconds("--duration", "soon", 100, &ns, err);
	TAP_EQ_S(err, "--duration: 'soon' is not a number (accepted: 0..100 seconds)",
		 "a word for seconds");
	dgr_parse_seconds("--duration", "nan", 100, &ns, err);
	TAP_EQ_S(err, "--duration: 'nan' is not a number (accepted: 0..100 seconds)",
		 "NaN is no duration");
	TAP_EQ_I(dgr_parse_u64("--buffers", "7", 1, 255, false, &v, NULL), 0, "errbuf may be NULL");
	TAP_EQ_I(dgr_parse_u64("--buffers", "0", 1, 255, false, &v, NULL), -DGR_E_INVAL,
		 "and an error is still returned without it");
	dgr_parse_u64("--pid", "1.5", 1, 4194304, false, &v, err);
	TAP_EQ_S(err, "--pid: '1.5' is not a whole number (accepted: 1..4194304)",
		 "a count with a fraction");
	dgr_parse_u64("--buffer-size", "2.5K", 64, 1024, true, &v, err);
	TAP_EQ_S(err,
		 "--buffer-size: '2.5K' is not a whole number (accepted: 64..1024; suffixes K, M, "
		 "G allowed)",
		 "a size with a fraction");
}

/* Decimal values (probabilities, drop rates, times in ms or us): dgr_parse_f64. */
static void test_cli_f64(void)
{
	static const struct {
		const char *s;
		double want;
	} good[] = {
		{ "0", 0 },	      { "1", 1 },    { "0.02", 0.02 },
		{ "2.5e-4", 2.5e-4 }, { ".5", 0.5 }, { "1e0", 1 },
	};
	static const struct {
		const char *s, *msg;
	} bad[] = {
		{ "2", "--p: '2' is out of range 0..1" },
		{ "-0.1", "--p: '-0.1' is out of range 0..1" },
		{ "1e400", "--p: '1e400' is out of range 0..1" },
		{ "x", "--p: 'x' is not a number (accepted: 0..1)" },
		{ "0.5x", "--p: '0.5x' is not a number (accepted: 0..1)" },
		{ "", "--p: '' is not a number (accepted: 0..1)" },
		{ "nan", "--p: 'nan' is not a number (accepted: 0..1)" },
		{ "inf", "--p: 'inf' is not a number (accepted: 0..1)" },
		{ "0x1p-1", "--p: '0x1p-1' is not a number (accepted: 0..1)" },
		{ " 0.5", "--p: ' 0.5' is not a number (accepted: 0..1)" },
	};
	char err[DGR_ERRBUF_SIZE];
	double v;

	for (size_t k = 0; k < sizeof(good) / sizeof(good[0]); k++) {
		v = -1;
		TAP_EQ_I(dgr_parse_f64("--p", good[k].s, 0, 1, &v, err), 0, "f64 '%s' accepted",
			 good[k].s);
		tap_ok(v == good[k].want, "f64 '%s' reads %g", good[k].s, v);
	}
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		v = 7;
		TAP_EQ_I(dgr_parse_f64("--p", bad[k].s, 0, 1, &v, err), -DGR_E_INVAL,
			 "f64 '%s' refused", bad[k].s);
		TAP_EQ_S(err, bad[k].msg, "f64 '%s': the message", bad[k].s);
		tap_ok(v == 7, "f64 '%s': the value is left as it was", bad[k].s);
	}
	/* bounds print plainly below 1e7, with an exponent above */
	dgr_parse_f64("--interval", "0", 1, 3600000, &v, err);
	TAP_EQ_S(err, "--interval: '0' is out of range 1..3600000", "a plain bound");
	dgr_parse_f64("--trace-offset-ns", "2e18", -1e18, 1e18, &v, err);
	TAP_EQ_S(err, "--trace-offset-ns: '2e18' is out of range -1e18..1e18", "exponent bounds");
	TAP_EQ_I(dgr_parse_f64("--trace-offset-ns", "-5e17", -1e18, 1e18, &v, NULL), 0,
		 "a negative value in a signed range, errbuf NULL");
	tap_ok(v == -5e17, "-5e17 read");
	TAP_EQ_I(dgr_parse_f64("--p", NULL, 0, 1, &v, err), -DGR_E_INVAL, "a NULL value refused");
}

/* The one duration format of the tools' text output (dgrdma-host, latency-report). */
static void test_format_duration(void)
{
	char buf[64];

	dgr_format_duration(buf, sizeof(buf), 850);
	TAP_EQ_S(buf, "850 ns", "below a microsecond: whole ns");
	dgr_format_duration(buf, sizeof(buf), 20590);
	TAP_EQ_S(buf, "20.590 us", "microseconds with three decimals");
	dgr_format_duration(buf, sizeof(buf), 2228081);
	TAP_EQ_S(buf, "2.228 ms", "milliseconds");
	dgr_format_duration(buf, sizeof(buf), 1.5e9);
	TAP_EQ_S(buf, "1.500 s", "seconds");
	dgr_format_duration(buf, sizeof(buf), -1296000);
	TAP_EQ_S(buf, "-1.296 ms", "a negative margin keeps its sign and its unit");
}

/* Rates are decimal: 200M is 200e6 samples/s, as MS/s is. */
static void test_cli_rate(void)
{
	static const struct {
		const char *s;
		double want;
	} good[] = {
		{ "200e6", 200e6 }, { "200M", 200e6 }, { "2.5e8", 2.5e8 }, { "440M", 440e6 },
		{ "1.5G", 1.5e9 },  { "500k", 500e3 }, { "500K", 500e3 },  { ".5M", 5e5 },
		{ "0", 0 },	    { "1e11", 1e11 },
	};
	static const struct {
		const char *s;
		const char *err;
	} bad[] = {
		{ "fast", "--rate: 'fast' is not a number (accepted: 0..1e11 samples/s; e.g. 200e6 "
			  "or 200M)" },
		{ "200m", "--rate: '200m' is not a number (accepted: 0..1e11 samples/s; e.g. 200e6 "
			  "or 200M)" },
		{ "200MM", "--rate: '200MM' is not a number (accepted: 0..1e11 samples/s; e.g. "
			   "200e6 or 200M)" },
		{ "0x10", "--rate: '0x10' is not a number (accepted: 0..1e11 samples/s; e.g. 200e6 "
			  "or 200M)" },
		{ "inf", "--rate: 'inf' is not a number (accepted: 0..1e11 samples/s; e.g. 200e6 "
			 "or 200M)" },
		{ "",
		  "--rate: '' is not a number (accepted: 0..1e11 samples/s; e.g. 200e6 or 200M)" },
		{ "101G", "--rate: '101G' is out of range 0..1e11 samples/s (e.g. 200e6 or 200M)" },
		{ "-1", "--rate: '-1' is out of range 0..1e11 samples/s (e.g. 200e6 or 200M)" },
		{ "1e400",
		  "--rate: '1e400' is out of range 0..1e11 samples/s (e.g. 200e6 or 200M)" },
	};
	char err[DGR_ERRBUF_SIZE];
	double v;

	for (size_t k = 0; k < sizeof(good) / sizeof(good[0]); k++) {
		v = -1;
		TAP_EQ_I(dgr_parse_rate("--rate", good[k].s, 0, 1e11, &v, err), 0, "rate %s",
			 good[k].s);
		tap_ok(v == good[k].want, "%s is %g samples/s (got %g)", good[k].s, good[k].want,
		       v);
	}
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		TAP_EQ_I(dgr_parse_rate("--rate", bad[k].s, 0, 1e11, &v, err), -DGR_E_INVAL,
			 "rate '%s' refused", bad[k].s);
		TAP_EQ_S(err, bad[k].err, "and explained");
	}
	dgr_parse_rate("--rate", "0", 1, 1e10, &v, err);
	TAP_EQ_S(err, "--rate: '0' is out of range 1..1e10 samples/s (e.g. 200e6 or 200M)",
		 "the range of the emulator's --rate");
	dgr_parse_rate("--sample-rate", "3", 2.5e8, 4e8, &v, err);
	TAP_EQ_S(err,
		 "--sample-rate: '3' is out of range 2.5e8..4e8 samples/s (e.g. 200e6 or 200M)",
		 "fractional mantissas in the range");
}

static void test_transport_opts(void)
{
	struct dgr_transport_opts o;
	char err[DGR_ERRBUF_SIZE];

	dgr_transport_opts_init(&o);
	TAP_EQ_I(dgr_transport_opts_finish(&o, true, err), -DGR_E_INVAL, "no transport refused");
	TAP_EQ_I(dgr_transport_parse_opt(&o, DGR_OPT_UDP, NULL, err), 1, "--udp");
	TAP_EQ_I(dgr_transport_parse_opt(&o, DGR_OPT_IF, "eth0", err), -DGR_E_INVAL,
		 "--if after --udp refused");
	TAP_EQ_I(dgr_transport_parse_opt(&o, DGR_OPT_BIND, "127.0.0.1:7000", err), 1, "--bind");
	TAP_EQ_I(dgr_transport_parse_opt(&o, DGR_OPT_BIND, "127.0.0.1:70000", err), -DGR_E_INVAL,
		 "--bind port 70000 refused");
	TAP_EQ_I(dgr_transport_parse_opt(&o, DGR_OPT_PEER, "aa:bb:cc:dd:ee:ff", err), 1,
		 "--peer stored");
	TAP_EQ_I(dgr_transport_opts_finish(&o, true, err), -DGR_E_INVAL,
		 "a MAC as UDP peer is rejected before anything starts");
	tap_ok(strstr(err, "--peer") != NULL, "the error names --peer: %s", err);
	dgr_transport_parse_opt(&o, DGR_OPT_PEER, "10.1.2.3", err);
	TAP_EQ_I(dgr_transport_opts_finish(&o, true, err), 0, "an IPv4 peer without port");
	TAP_EQ_U(ntohs(o.peer.in.sin_port), DGR_UDP_PORT, "defaults to port 18078");
	TAP_EQ_I(dgr_transport_parse_opt(&o, DGR_OPT_BATCH, "0", err), -DGR_E_INVAL,
		 "--batch 0 refused");
	TAP_EQ_I(dgr_transport_parse_opt(&o, 'x', NULL, err), 0, "other options are not taken");

	dgr_transport_opts_init(&o);
	dgr_transport_parse_opt(&o, DGR_OPT_IF, "veth0", err);
	dgr_transport_parse_opt(&o, DGR_OPT_PEER, "02:00:00:00:00:1g", err);
	TAP_EQ_I(dgr_transport_opts_finish(&o, true, err), -DGR_E_INVAL, "bad MAC rejected");
	dgr_transport_parse_opt(&o, DGR_OPT_PEER, "02:00:00:00:00:1f", err);
	TAP_EQ_I(dgr_transport_opts_finish(&o, true, err), 0, "good MAC accepted");
	TAP_EQ_U(o.peer.mac[5], 0x1f, "MAC bytes parsed");
	tap_ok(!o.no_rx_ring, "raw Ethernet receives through a ring by default");
	TAP_EQ_I(dgr_transport_parse_opt(&o, DGR_OPT_NO_RX_RING, NULL, err), 1, "--no-rx-ring");
	tap_ok(o.no_rx_ring, "--no-rx-ring selects recvmmsg");
}

static void test_sched(void)
{
	struct dgr_sched sc;
	char err[DGR_ERRBUF_SIZE];
	uint64_t mask = 0;

	memset(&sc, 0, sizeof(sc));
	TAP_EQ_I(dgr_parse_sched("--sched", "fifo:50", &sc, err), 0, "fifo:50");
	tap_ok(sc.policy == SCHED_FIFO && sc.priority == 50, "is SCHED_FIFO 50");
	TAP_EQ_I(dgr_parse_sched("--sched", "rr:100", &sc, err), -DGR_E_INVAL, "rr:100 refused");
	tap_ok(strstr(err, "1..99") != NULL, "the error names 1..99: %s", err);
	TAP_EQ_I(dgr_parse_sched("--sched", "nice:-20", &sc, err), 0, "nice:-20");
	tap_ok(sc.set_nice && sc.nice == -20 && sc.policy == SCHED_OTHER, "is nice -20");
	TAP_EQ_I(dgr_parse_sched("--sched", "idle", &sc, err), -DGR_E_INVAL, "idle refused");
	TAP_EQ_I(dgr_parse_cpulist("--cpu", "0-1", &mask, err), 0, "CPU list 0-1");
	TAP_EQ_U(mask, 3, "is mask 0x3");
	TAP_EQ_I(dgr_parse_cpulist("--cpu", "0,", &mask, err), -DGR_E_INVAL, "0, refused");
	TAP_EQ_I(dgr_parse_cpulist("--cpu", "63", &mask, err), -DGR_E_INVAL,
		 "a CPU the machine lacks is refused");
}

/* --ready-file: the file holds the pid and a newline, a stale one is replaced, errors name it */
static void test_ready_file(void)
{
	char dir[] = "/tmp/dgr-ready-XXXXXX";
	char path[256], missing[300], msg[400], want[32], got[64] = "", err[DGR_ERRBUF_SIZE] = "";
	char longpath[5000];
	struct stat st;
	FILE *f;
	size_t n = 0;

	if (!mkdtemp(dir)) {
		tap_ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/ready", dir);
	snprintf(want, sizeof(want), "%ld\n", (long)getpid());
	TAP_EQ_I(dgr_ready_file_clear(path, err), 0,
		 "ready_file_clear: a missing file is no error");
	f = fopen(path, "w");
	if (f) {
		fputs("stale\n", f);
		fclose(f);
	}
	TAP_EQ_I(dgr_ready_file_write(path, err), 0, "ready_file_write over a stale file");
	f = fopen(path, "r");
	if (f) {
		n = fread(got, 1, sizeof(got) - 1, f);
		fclose(f);
	}
	got[n] = '\0';
	TAP_EQ_S(got, want, "the ready file holds the pid and a newline");
	TAP_EQ_I(dgr_ready_file_clear(path, err), 0, "ready_file_clear removes it");
	tap_ok(stat(path, &st) != 0 && errno == ENOENT, "the ready file is gone");

	snprintf(missing, sizeof(missing), "%s/no/ready", dir);
	TAP_EQ_I(dgr_ready_file_write(missing, err), -DGR_E_SYS, "a missing folder: -DGR_E_SYS");
	snprintf(msg, sizeof(msg), "--ready-file %s: No such file or directory", missing);
	TAP_EQ_S(err, msg, "the message names the option, the path and the reason");

	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[sizeof(longpath) - 1] = '\0';
	TAP_EQ_I(dgr_ready_file_write(longpath, err), -DGR_E_INVAL,
		 "a path too long: -DGR_E_INVAL");
	TAP_EQ_S(err, "--ready-file: path too long (4999 bytes)", "the message says so");

	/* a folder in the way cannot be removed as a stale file */
	snprintf(path, sizeof(path), "%s/taken", dir);
	mkdir(path, 0755);
	TAP_EQ_I(dgr_ready_file_clear(path, err), -DGR_E_SYS,
		 "ready_file_clear on a folder: -DGR_E_SYS");
	tap_ok(strncmp(err, "--ready-file ", 13) == 0 && strstr(err, "cannot remove it") != NULL,
	       "the message names the option and what failed: %s", err);
	/* the rename fails (a folder has the name): the temporary file goes */
	TAP_EQ_I(dgr_ready_file_write(path, err), -DGR_E_SYS,
		 "ready_file_write onto a folder: -DGR_E_SYS");
	snprintf(msg, sizeof(msg), "%s.%ld.tmp", path, (long)getpid());
	tap_ok(stat(msg, &st) != 0 && errno == ENOENT, "no temporary file is left behind");
	rmdir(path);
	rmdir(dir);
}

/* The project's shared small rules (dgrdma/stats.h): the percentile and the tolerable latency. */
static void test_shared_rules(void)
{
	const uint64_t v[] = { 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 };

	TAP_EQ_U(dgr_percentile_nearest_rank(v, 10, 500), 50, "p50 of 10: rank 5");
	TAP_EQ_U(dgr_percentile_nearest_rank(v, 10, 990), 100, "p99 of 10: rank ceil(9.9) = 10");
	TAP_EQ_U(dgr_percentile_nearest_rank(v, 10, 1), 10, "p0.1 of 10: rank 1, never 0");
	TAP_EQ_U(dgr_percentile_nearest_rank(v, 1, 999), 10, "one sample: itself");
	/* 8 + 2 buffers of 8 KiB at 400 MB/s: 204.8 us */
	TAP_EQ_U(dgr_tolerable_latency_ns(8, 2, 8192, 400e6), 204800, "(8 + 2) x 8192 / 400 MB/s");
	TAP_EQ_U(dgr_tolerable_latency_ns(0, 2, 8192, 400e6), 0, "no host buffers: unknown");
	TAP_EQ_U(dgr_tolerable_latency_ns(8, 2, 8192, 0), 0, "no rate: unknown");
	TAP_EQ_U(dgr_tolerable_latency_ns(8, 2, 8192, -1), 0, "a negative rate: unknown");
	TAP_EQ_U(dgr_tolerable_latency_ns(65535, 64, 1u << 30, 4), DGR_TOLERABLE_MAX_NS,
		 "the largest pool at 4 bytes/s: saturates at 10^18 ns");
	TAP_EQ_U(dgr_tolerable_latency_ns(1, 0, 1, 4e10), 1,
		 "1 byte at 4e10 bytes/s: 1 ns, never 0");
}

int main(void)
{
	test_ramp();
	test_shared_rules();
	test_ramp_against_reference();
	test_ramp_fill_against_reference();
	test_ring();
	test_cli();
	test_cli_messages();
	test_cli_rate();
	test_cli_f64();
	test_format_duration();
	test_transport_opts();
	test_sched();
	test_ready_file();
	return tap_done();
}
