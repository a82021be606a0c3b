/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dgrdma-ctl: a DCP client. Discovers endpoints (NOP, unicast or broadcast), reads and writes
 * registers and named properties, and runs control operations on workers,
 * with retries on lost responses and a clear error on timeout.
 *
 * Named properties and workers come from a property map: the table that
 * `dgrdma-fpga --list-properties` prints (docs/fpga.md section 4), given
 * with --props FILE.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dgrdma/dcp.h>
#include <dgrdma/transport.h>

#include "cli.h"
#include "print.h"
#include "prop_map.h"
#include "opts.h"
#include "transport_opts.h"
#include "dgrdma-version.h"

struct ctl {
	struct dgr_transport_opts to;
	struct dgr_transport *t;
	unsigned int timeout_ms;
	unsigned int retries;
	bool json;
	uint8_t tag;
	struct dgr_prop_map map; /* --props; map.n 0: none given */
	uint64_t sent;
	uint64_t timeouts;
	bool bad_arg; /* the failure was the command's argument (exit 2), not the run (3) */
};

/* A command's argument is refused: bad usage, not a failed run. Returns -1. */
static int bad_arg(struct ctl *c)
{
	c->bad_arg = true;
	return -1;
}

enum { OPT_TIMEOUT = 0x100, OPT_RETRIES, OPT_PROPS, OPT_JSON, OPT_VERSION, OPT_LIST_OPTIONS };

/* dgrdma-ctl's options: the parser, --help (the rows' text in order) and --list-options. */
static const struct dgr_opt ctl_opts[] = {
	{ .type = DGR_OPT_TEXT,
	  .usage =
	      "Usage: dgrdma-ctl TRANSPORT [OPTIONS] COMMAND [ARGS]\n"
	      "\n"
	      "Commands:\n"
	      "  discover                 send a NOP to --peer (an endpoint or a broadcast\n"
	      "                           address) or, without --peer, to every endpoint (the\n"
	      "                           broadcast MAC with --if, 255.255.255.255:18078 with\n"
	      "                           --udp) and list, one line each, the endpoints that\n"
	      "                           answer within --timeout\n"
	      "  read ADDR|NAME           read a 32-bit word (u64 properties: both words)\n"
	      "  write ADDR|NAME VALUE    write a 32-bit word (u64 properties: both words,\n"
	      "                           the low one first)\n"
	      "  control WORKER OP        control operation: initialize, start, stop, release,\n"
	      "                           test, before-query, after-configure, status, reset\n"
	      "  start WORKER / stop WORKER  shorthands of control\n"
	      "  props                    list the property map given with --props\n"
	      "\n"
	      "ADDR is a DCP address (0x100018); NAME a property of the --props map, optionally\n"
	      "WORKER.NAME; WORKER a worker index or a worker name of the map.\n"
	      "\n" },
	DGR_TRANSPORT_OPT_ROWS("a 4 MiB ring; sockets: the system's"),
	{ .type = DGR_OPT_TEXT, .usage = "\nOptions:\n", .man = ".SS Requests\n" },
	{ .id = OPT_TIMEOUT,
	  .name = "timeout",
	  .type = DGR_OPT_COUNT,
	  .metavar = "MSEC",
	  .min = 1,
	  .max = 60000,
	  .usage =
	      "  --timeout MSEC           wait for each response (discover: for the answers),\n"
	      "                           1..60000 (default 200)\n",
	  .man =
	      "The wait for each response (discover: for the answers), 1..60000 (default 200).\n" },
	{ .id = OPT_RETRIES,
	  .name = "retries",
	  .type = DGR_OPT_COUNT,
	  .metavar = "N",
	  .max = 100,
	  .usage = "  --retries N              attempts after the first, 0..100 (default 3)\n",
	  .man = "Attempts after the first, 0..100 (default 3).\n" },
	{ .id = OPT_PROPS,
	  .name = "props",
	  .type = DGR_OPT_STRING,
	  .metavar = "FILE",
	  .usage = "  --props FILE             property map (output of dgrdma-fpga "
		   "--list-properties)\n",
	  .man = "The property map (the output of\n"
		 ".BR \"dgrdma\\-fpga \\-\\-list\\-properties\" ).\n" },
	{ .id = OPT_JSON,
	  .name = "json",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --json                   JSON output\n",
	  .man = "JSON output.\n" },
	{ .id = 'h',
	  .name = "help",
	  .short_name = 'h',
	  .type = DGR_OPT_FLAG,
	  .usage = "  -h, --help               this text\n",
	  .man = "The usage text.\n" },
	{ .id = OPT_VERSION,
	  .name = "version",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --version                the version of dgrdma-tools\n",
	  .man = "The version of dgrdma-tools.\n" },
	{ .id = OPT_LIST_OPTIONS,
	  .name = "list-options",
	  .type = DGR_OPT_FLAG,
	  .usage = "  --list-options [--json]  every option with its type and range, one a line\n"
		   "                           (--json: one JSON object)\n",
	  .man = "Every option with its type and range, one a line (tab-separated: name, type, "
		 "subcommands,\n"
		 "accepted words); with\n"
		 ".BR \\-\\-json ,\n"
		 "one JSON object; with\n"
		 ".BR \\-\\-man ,\n"
		 "this OPTIONS section in roff (docs/cli.md). The bash completion is made from "
		 "it.\n" },
	{ .type = DGR_OPT_TEXT,
	  .usage =
	      "\n"
	      "Options may come before or after the command; an argument that starts with '-'\n"
	      "and a digit (write ADDR -1) is an argument, '--' ends the options.\n"
	      "Exit status (docs/cli.md): 0 done; 2 bad usage (an unknown name, a bad value);\n"
	      "3 the request failed (no response, an error response).\n" },
};

static const struct dgr_opt_table ctl_options = {
	.tool = "dgrdma-ctl",
	.opts = ctl_opts,
	.nopts = sizeof(ctl_opts) / sizeof(ctl_opts[0]),
};

/* What the command line gives besides struct ctl: the property map, the command. */
struct ctl_args {
	struct ctl *c;
	const char *props;
	const char *args[4]; /* the command and its arguments */
	int nargs;	     /* all of them, also past the fourth */
	int stop;	     /* 'h', OPT_VERSION or OPT_LIST_OPTIONS */
};

/* The table's handler (opts.h): one option or operand into the ctl_args ctx. */
static int ctl_option(void *ctx, const struct dgr_opt *o, const char *given, const char *arg,
		      const union dgr_opt_value *v, char *err)
{
	struct ctl_args *a = ctx;
	int rc;

	(void)given;
	if (!o) {
		if (a->nargs < 4) {
			a->args[a->nargs] = arg;
		}
		a->nargs++;
		return 0;
	}
	rc = dgr_transport_parse_opt(&a->c->to, o->id, arg, err);
	if (rc != 0) {
		return rc < 0 ? rc : 0;
	}
	switch (o->id) {
	case OPT_TIMEOUT:
		a->c->timeout_ms = (unsigned int)v->u;
		break;
	case OPT_RETRIES:
		a->c->retries = (unsigned int)v->u;
		break;
	case OPT_PROPS:
		a->props = arg;
		break;
	case OPT_JSON:
		a->c->json = true;
		break;
	default: /* --help, --version, --list-options: main prints */
		a->stop = o->id;
		return DGR_OPTS_STOP;
	}
	return 0;
}

/*
 * Resolves ADDR or [WORKER.]NAME into *addr; *prop is the map's property (NULL for an address).
 * Returns 0, or -1 with err (bad usage).
 */
static int resolve_addr(struct ctl *c, const char *s, uint32_t *addr, const struct dgr_prop **prop,
			char *err)
{
	uint64_t v;

	*prop = NULL;
	/* an address is a number; WORKER.NAME may start with a worker's index */
	if (s[0] >= '0' && s[0] <= '9' && !strchr(s, '.')) {
		if (dgr_parse_u64("address", s, 0, DCP_ADDR_MASK, false, &v, err) < 0) {
			return bad_arg(c);
		}
		if (v % 4) {
			snprintf(err, DGR_ERRBUF_SIZE, "address 0x%" PRIx64 " is not word aligned",
				 v);
			return bad_arg(c);
		}
		*addr = (uint32_t)v;
		return 0;
	}
	if (c->map.n == 0) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "'%s' is neither an address nor a property of a map (give --props FILE)",
			 s);
		return bad_arg(c);
	}
	*prop = dgr_prop_map_find(&c->map, s, err);
	if (!*prop) {
		return bad_arg(c);
	}
	*addr = (*prop)->addr;
	return 0;
}

static int resolve_worker(struct ctl *c, const char *s, unsigned int *w, char *err)
{
	uint64_t v;

	if (s[0] >= '0' && s[0] <= '9') {
		if (dgr_parse_u64("worker", s, 0, DGR_PROP_WORKER_MAX, false, &v, err) < 0) {
			return bad_arg(c);
		}
		*w = (unsigned int)v;
		return 0;
	}
	if (dgr_prop_map_worker(&c->map, s, w) == 0) {
		return 0;
	}
	snprintf(err, DGR_ERRBUF_SIZE, "worker '%s' unknown (a number 0..%d, or a name of --props)",
		 s, DGR_PROP_WORKER_MAX);
	return bad_arg(c);
}

/* One request of transact() in flight: what its send and wait need. */
struct ctl_call {
	struct ctl *c;
	const struct dgr_addr *dst;
	uint8_t buf[32];
	size_t len;
	uint8_t tag;
	struct dcp_packet *resp;
	char *err;
};

/* Sends the request once. Returns 0 or a negative code with err. */
static int ctl_call_send(void *ctx)
{
	struct ctl_call *q = ctx;
	struct dgr_tx_pkt pkt = {
		.data = q->buf, .len = q->len, .proto = DGR_PROTO_DCP, .dst = q->dst
	};
	int rc = dgr_transport_send(q->c->t, &pkt, 1, q->err);

	if (rc < 0) {
		return rc;
	}
	q->c->sent++;
	return 0;
}

/* The ms left until deadline (CLOCK_MONOTONIC ns), rounded up; -1 once it has passed. */
static int ms_until(uint64_t deadline)
{
	struct timespec ts;
	uint64_t t;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	t = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return t >= deadline ? -1 : (int)((deadline - t + 999999) / 1000000);
}

/* Waits for the response with the request's tag: 1, 0 at the deadline, or a negative code. */
static int ctl_call_wait(void *ctx, uint64_t deadline)
{
	struct ctl_call *q = ctx;

	for (;;) {
		struct dgr_rx_pkt in[16];
		int ms = ms_until(deadline);
		int n;

		if (ms < 0) {
			q->c->timeouts++;
			return 0;
		}
		n = dgr_transport_recv(q->c->t, in, 16, ms, q->err);
		if (n < 0) {
			return n;
		}
		for (int i = 0; i < n; i++) {
			if (in[i].proto != DGR_PROTO_DCP ||
			    dcp_decode(in[i].data, in[i].len, q->resp, NULL) < 0 ||
			    !dcp_is_response(q->resp->kind) || q->resp->tag != q->tag) {
				continue; /* not ours: a late answer to an earlier try */
			}
			return 1;
		}
	}
}

/*
 * Sends req to dst and waits for the response with its tag, retrying
 * (dgr_dcp_attempts). Returns 0 with *resp, or -DGR_E_TIMEOUT / -DGR_E_SYS with err.
 */
static int transact(struct ctl *c, struct dcp_packet *req, const struct dgr_addr *dst,
		    struct dcp_packet *resp, char *err)
{
	struct ctl_call q = { .c = c, .dst = dst, .resp = resp, .err = err };
	int len;
	int rc;

	req->tag = c->tag++;
	q.tag = req->tag;
	len = dcp_encode(q.buf, sizeof(q.buf), req);
	if (len < 0) {
		snprintf(err, DGR_ERRBUF_SIZE, "cannot encode the request");
		return len;
	}
	q.len = (size_t)len;
	rc = dgr_dcp_attempts(c->retries, c->timeout_ms, ctl_call_send, ctl_call_wait, &q);
	if (rc == -DGR_E_TIMEOUT) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "no DCP response after %u attempts of %u ms (is the endpoint running and "
			 "reachable on this transport? raise --timeout/--retries for a slow link)",
			 c->retries + 1, c->timeout_ms);
	}
	return rc;
}

static int check_code(const struct dcp_packet *r, const char *what, char *err)
{
	if (r->low != DCP_RESP_OK) {
		snprintf(err, DGR_ERRBUF_SIZE, "%s: the endpoint answered '%s' (code %u)", what,
			 dcp_resp_code_name(r->low), r->low);
		return -1;
	}
	return 0;
}

static int read_word(struct ctl *c, uint32_t addr, uint32_t *v, char *err)
{
	struct dcp_packet req, resp;
	char what[48];

	memset(&req, 0, sizeof(req));
	req.kind = DCP_KIND_READ;
	req.low = 0xF;
	req.addr = addr;
	if (transact(c, &req, NULL, &resp, err) < 0) {
		return -1;
	}
	snprintf(what, sizeof(what), "read 0x%06x", addr);
	if (resp.kind != DCP_KIND_READ_RESP) {
		if (resp.low != DCP_RESP_OK) {
			return check_code(&resp, what, err);
		}
		snprintf(err, DGR_ERRBUF_SIZE, "%s: unexpected %s response", what,
			 dcp_kind_name(resp.kind));
		return -1;
	}
	if (check_code(&resp, what, err) < 0) {
		return -1;
	}
	*v = resp.data;
	return 0;
}

#define MAX_ENDPOINTS 256

/* discover's NOP in flight: the request (sent by ctl_call_send) and the endpoints seen. */
struct discover_call {
	struct ctl_call call; /* first: ctl_call_send takes it */
	struct dgr_pr *p;
	struct dgr_addr *seen;
	unsigned int found;
};

/* Lists one answer to the NOP, unless its sender answered before. */
static void discover_answer(struct discover_call *d, const struct dgr_rx_pkt *in,
			    const struct dcp_packet *resp)
{
	struct ctl *c = d->call.c;
	char a[64], mac[32];
	struct dgr_addr m;

	for (unsigned int k = 0; k < d->found; k++) {
		if (dgr_addr_equal(c->to.kind, &d->seen[k], &in->src)) {
			return;
		}
	}
	if (d->found == MAX_ENDPOINTS) {
		return;
	}
	d->seen[d->found++] = in->src;
	memset(&m, 0, sizeof(m));
	memcpy(m.mac, resp->mac, 6);
	dgr_pr_line_begin(d->p, NULL);
	dgr_pr_str(d->p, "address", NULL, dgr_addr_str(c->to.kind, &in->src, a, sizeof(a)));
	dgr_pr_u64(d->p, "id", NULL, resp->nop_id);
	dgr_pr_str(d->p, "mac", NULL, dgr_addr_str(DGR_TRANSPORT_ETHER, &m, mac, sizeof(mac)));
	dgr_pr_line_end(d->p);
}

/*
 * Collects the answers until the deadline: every endpoint may answer. Returns 1 when
 * one did (no more attempts), 0 when none did, or a negative code with err.
 */
static int discover_wait(void *ctx, uint64_t deadline)
{
	struct discover_call *d = ctx;
	struct ctl *c = d->call.c;

	for (;;) {
		struct dgr_rx_pkt in[16];
		struct dcp_packet resp;
		int ms = ms_until(deadline);
		int n;

		if (ms < 0) {
			break;
		}
		n = dgr_transport_recv(c->t, in, 16, ms, d->call.err);
		if (n < 0) {
			return n;
		}
		for (int i = 0; i < n; i++) {
			if (in[i].proto != DGR_PROTO_DCP ||
			    dcp_decode(in[i].data, in[i].len, &resp, NULL) < 0 ||
			    resp.kind != DCP_KIND_NOP_RESP || resp.tag != d->call.tag) {
				continue; /* our own broadcast, or not an answer to it */
			}
			discover_answer(d, &in[i], &resp);
		}
	}
	if (d->found == 0) {
		c->timeouts++;
	}
	return d->found > 0;
}

/*
 * discover: sends a NOP to --peer (unicast or a broadcast address), or
 * without --peer to every endpoint of the link (the broadcast MAC on raw
 * Ethernet, 255.255.255.255:18078 over UDP), and lists every endpoint that
 * answers within --timeout, once each, one line per endpoint. The NOP is sent
 * again (--retries, dgr_dcp_attempts) only while nobody answered.
 */
static int cmd_discover(struct ctl *c, struct dgr_pr *p, char *err)
{
	struct discover_call d = { .call = { .c = c, .err = err }, .p = p };
	struct dcp_packet req;
	struct dgr_addr bcast;
	int len;
	int rc;

	d.seen = calloc(MAX_ENDPOINTS, sizeof(*d.seen));
	if (!d.seen) {
		snprintf(err, DGR_ERRBUF_SIZE, "out of memory");
		return -1;
	}
	memset(&bcast, 0, sizeof(bcast));
	if (!c->to.have_peer) {
		if (c->to.kind == DGR_TRANSPORT_ETHER) {
			memset(bcast.mac, 0xff, 6);
		} else {
			bcast.in.sin_family = AF_INET;
			bcast.in.sin_addr.s_addr = htonl(INADDR_BROADCAST);
			bcast.in.sin_port = htons(DGR_UDP_PORT);
		}
		d.call.dst = &bcast;
	}
	memset(&req, 0, sizeof(req));
	req.kind = DCP_KIND_NOP;
	req.uncached = true;
	req.tag = c->tag++;
	d.call.tag = req.tag;
	len = dcp_encode(d.call.buf, sizeof(d.call.buf), &req);
	if (len < 0) {
		snprintf(err, DGR_ERRBUF_SIZE, "cannot encode the request");
		free(d.seen);
		return -1;
	}
	d.call.len = (size_t)len;
	dgr_pr_arr_begin(p, "endpoints", NULL);
	rc = dgr_dcp_attempts(c->retries, c->timeout_ms, ctl_call_send, discover_wait, &d);
	if (rc == -DGR_E_TIMEOUT) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "no endpoint answered the NOP after %u attempts of %u ms%s",
			 c->retries + 1, c->timeout_ms,
			 d.call.dst && c->to.kind == DGR_TRANSPORT_UDP
			     ? " (255.255.255.255 leaves by the interface of the --bind address, "
			       "else of the default route; or give --peer the subnet's broadcast "
			       "address)"
			     : "");
	}
	dgr_pr_arr_end(p);
	free(d.seen);
	return rc < 0 ? -1 : 0;
}

static int cmd_read(struct ctl *c, struct dgr_pr *p, const char *what, char *err)
{
	const struct dgr_prop *prop;
	uint32_t addr, lo, hi = 0;
	char a[16];

	if (resolve_addr(c, what, &addr, &prop, err) < 0) {
		return -1;
	}
	if (read_word(c, addr, &lo, err) < 0) {
		return -1;
	}
	if (prop && prop->is_u64 && read_word(c, addr + 4, &hi, err) < 0) {
		return -1;
	}
	snprintf(a, sizeof(a), "0x%06x", addr);
	dgr_pr_str(p, "address", NULL, a);
	if (prop) {
		dgr_pr_str(p, "name", NULL, prop->name);
	}
	dgr_pr_u64(p, "value", NULL, ((uint64_t)hi << 32) | lo);
	return 0;
}

/* The largest VALUE of a write: a u64 property takes two words, anything else one. */
static uint64_t write_max(const struct dgr_prop *prop)
{
	return prop && prop->is_u64 ? UINT64_MAX : UINT32_MAX;
}

/* One DCP write of a whole word. Returns 0, or -1 with err (no response, an error code). */
static int write_word(struct ctl *c, uint32_t addr, uint32_t data, char *err)
{
	struct dcp_packet req, resp;
	char w[48];

	memset(&req, 0, sizeof(req));
	req.kind = DCP_KIND_WRITE;
	req.low = 0xF;
	req.addr = addr;
	req.data = data;
	if (transact(c, &req, NULL, &resp, err) < 0) {
		return -1;
	}
	snprintf(w, sizeof(w), "write 0x%06x", addr);
	return check_code(&resp, w, err);
}

static int cmd_write(struct ctl *c, struct dgr_pr *p, const char *what, const char *val, char *err)
{
	const struct dgr_prop *prop;
	uint32_t addr;
	uint64_t v;
	char a[16];

	if (resolve_addr(c, what, &addr, &prop, err) < 0) {
		return -1;
	}
	/* checked before the socket opened (check_args) */
	if (dgr_parse_u64("write VALUE", val, 0, write_max(prop), false, &v, err) < 0) {
		return bad_arg(c);
	}
	/* a u64: its low word, then its high word, in address order as read_word reads them */
	if (write_word(c, addr, (uint32_t)v, err) < 0 ||
	    (prop && prop->is_u64 && write_word(c, addr + 4, (uint32_t)(v >> 32), err) < 0)) {
		return -1;
	}
	snprintf(a, sizeof(a), "0x%06x", addr);
	dgr_pr_str(p, "address", NULL, a);
	if (prop) {
		dgr_pr_str(p, "name", NULL, prop->name);
	}
	dgr_pr_u64(p, "written", NULL, v);
	return 0;
}

static const struct {
	const char *name;
	uint32_t reg;
} control_ops[] = {
	{ "initialize", DCP_CTL_INITIALIZE },
	{ "start", DCP_CTL_START },
	{ "stop", DCP_CTL_STOP },
	{ "release", DCP_CTL_RELEASE },
	{ "test", DCP_CTL_TEST },
	{ "before-query", DCP_CTL_BEFORE_QUERY },
	{ "after-configure", DCP_CTL_AFTER_CONFIG },
	{ "status", DCP_CTL_STATUS },
	{ "reset", DCP_CTL_RESET },
};

static int cmd_control(struct ctl *c, struct dgr_pr *p, const char *worker, const char *op,
		       char *err)
{
	unsigned int w;
	uint32_t result;
	char r[16];

	if (resolve_worker(c, worker, &w, err) < 0) {
		return -1;
	}
	for (size_t i = 0; i < sizeof(control_ops) / sizeof(control_ops[0]); i++) {
		if (strcmp(op, control_ops[i].name) != 0) {
			continue;
		}
		/* a read of the control register performs the operation and returns its result */
		if (read_word(c, dcp_control_addr(w, control_ops[i].reg), &result, err) < 0) {
			return -1;
		}
		snprintf(r, sizeof(r), "0x%08x", result);
		dgr_pr_u64(p, "worker", NULL, w);
		dgr_pr_str(p, "operation", NULL, op);
		dgr_pr_str(p, "result", NULL, r);
		return 0;
	}
	snprintf(err, DGR_ERRBUF_SIZE,
		 "control operation '%s' unknown: initialize, start, stop, release, test, "
		 "before-query, after-configure, status, reset",
		 op);
	return bad_arg(c);
}

/* props: the map, a line each property. */
static void print_props(const struct dgr_prop_map *m, bool json)
{
	struct dgr_pr p;

	dgr_pr_begin(&p, stdout, DGR_PR_TEXT_KEYS | (json ? DGR_PR_JSON : 0));
	dgr_pr_arr_begin(&p, "properties", NULL);
	for (unsigned int i = 0; i < m->n; i++) {
		const struct dgr_prop *q = &m->props[i];
		char a[16];

		snprintf(a, sizeof(a), "0x%06x", q->addr);
		dgr_pr_line_begin(&p, NULL);
		dgr_pr_u64(&p, "worker", NULL, q->worker);
		dgr_pr_str(&p, "worker_name", NULL, q->worker_name);
		dgr_pr_str(&p, "address", NULL, a);
		dgr_pr_str(&p, "name", NULL, q->name);
		dgr_pr_str(&p, "type", NULL, q->type);
		dgr_pr_str(&p, "access", NULL, q->access);
		dgr_pr_line_end(&p);
	}
	dgr_pr_arr_end(&p);
	dgr_pr_end(&p);
}

/*
 * Checks a command's arguments (names, addresses, the value, the operation) before any
 * socket is opened: a bad argument is bad usage, whatever the network does. Returns 0 or -1
 * with err.
 */
static int check_args(struct ctl *c, const char *cmd, const char *const *args, char *err)
{
	const struct dgr_prop *prop;
	uint32_t addr;
	unsigned int w;
	uint64_t v;

	if (strcmp(cmd, "read") == 0 || strcmp(cmd, "write") == 0) {
		if (resolve_addr(c, args[1], &addr, &prop, err) < 0) {
			return -1;
		}
	}
	if (strcmp(cmd, "read") == 0 && prop && prop->write_only) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "read %s: %s is write-only (access WO in --props): the FPGA returns no "
			 "value for it; write it instead",
			 args[1], prop->name);
		return bad_arg(c);
	}
	if (strcmp(cmd, "write") == 0 &&
	    dgr_parse_u64("write VALUE", args[2], 0, write_max(prop), false, &v, err) < 0) {
		if (args[2][0] == '-') {
			uint64_t max = write_max(prop);

			snprintf(err, DGR_ERRBUF_SIZE,
				 "write VALUE: '%s' is negative: %s is 0..%" PRIu64 " (0x%" PRIx64
				 " for all bits set)",
				 args[2], max == UINT64_MAX ? "a u64 property" : "a 32-bit word",
				 max, max);
		}
		return -1;
	}
	if (strcmp(cmd, "control") == 0 || strcmp(cmd, "start") == 0 || strcmp(cmd, "stop") == 0) {
		if (resolve_worker(c, args[1], &w, err) < 0) {
			return -1;
		}
	}
	if (strcmp(cmd, "control") == 0) {
		for (size_t i = 0; i < sizeof(control_ops) / sizeof(control_ops[0]); i++) {
			if (strcmp(args[2], control_ops[i].name) == 0) {
				return 0;
			}
		}
		snprintf(err, DGR_ERRBUF_SIZE,
			 "control operation '%s' unknown: initialize, start, stop, release, test, "
			 "before-query, after-configure, status, reset",
			 args[2]);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ctl *c = calloc(1, sizeof(struct ctl));
	char err[DGR_ERRBUF_SIZE] = "";
	const char *props = NULL;
	const char *cmd;
	const char *const *args;
	struct ctl_args cl = { 0 };
	struct dgr_pr p;
	int rc, status = 0;
	int nargs;

	if (!c) {
		fprintf(stderr, "dgrdma-ctl: out of memory\n");
		return DGR_EXIT_FAILED;
	}
	dgr_transport_opts_init(&c->to);
	c->timeout_ms = 200;
	c->retries = 3;
	/* options before and after the command; "-1" or "-0x10" is an argument (a value) */
	cl.c = c;
	rc = dgr_opts_parse(&ctl_options, argc, argv, -1, DGR_OPTS_INTERLEAVED, ctl_option, &cl,
			    NULL, err);
	if (rc < 0) {
		goto usage_error;
	}
	if (rc == DGR_OPTS_STOP) {
		if (cl.stop == 'h') {
			dgr_opts_usage(&ctl_options, stdout);
		} else if (cl.stop == OPT_VERSION) {
			printf("dgrdma-ctl (dgrdma-tools) %s\n", DGR_VERSION);
		} else {
			dgr_opts_list_argv(&ctl_options, argc, argv, stdout);
		}
		free(c);
		return DGR_EXIT_OK;
	}
	nargs = cl.nargs;
	props = cl.props;
	args = cl.args;
	if (nargs == 0) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "no command: discover, read, write, control, start, "
			 "stop or props");
		goto usage_error;
	}
	cmd = args[0];
	nargs--;
	if (props && dgr_prop_map_load(&c->map, props, err) < 0) {
		goto usage_error;
	}
	if ((strcmp(cmd, "discover") == 0 && nargs != 0) ||
	    (strcmp(cmd, "read") == 0 && nargs != 1) || (strcmp(cmd, "write") == 0 && nargs != 2) ||
	    (strcmp(cmd, "control") == 0 && nargs != 2) ||
	    ((strcmp(cmd, "start") == 0 || strcmp(cmd, "stop") == 0) && nargs != 1) ||
	    (strcmp(cmd, "props") == 0 && nargs != 0)) {
		snprintf(err, DGR_ERRBUF_SIZE, "%s: wrong number of arguments (see --help)", cmd);
		goto usage_error;
	}
	if (strcmp(cmd, "props") == 0) {
		if (!props) {
			snprintf(
			    err, DGR_ERRBUF_SIZE,
			    "props: no map to list (give --props FILE, the table of dgrdma-fpga "
			    "--list-properties)");
			goto usage_error;
		}
		print_props(&c->map, c->json);
		free(c);
		return DGR_EXIT_OK;
	}
	if (strcmp(cmd, "discover") != 0 && strcmp(cmd, "read") != 0 && strcmp(cmd, "write") != 0 &&
	    strcmp(cmd, "control") != 0 && strcmp(cmd, "start") != 0 && strcmp(cmd, "stop") != 0) {
		snprintf(err, DGR_ERRBUF_SIZE,
			 "'%s' is not a command: discover, read, write, "
			 "control, start, stop, props",
			 cmd);
		goto usage_error;
	}
	if (dgr_transport_opts_finish(&c->to, strcmp(cmd, "discover") != 0, err) < 0 ||
	    check_args(c, cmd, args, err) < 0) {
		goto usage_error;
	}
	/* discover over UDP may send to a broadcast address (SO_BROADCAST) */
	c->to.broadcast = strcmp(cmd, "discover") == 0 && c->to.kind == DGR_TRANSPORT_UDP;
	if (dgr_transport_open(&c->to, &c->t, err) < 0) {
		fprintf(stderr, "dgrdma-ctl: %s\n", err);
		free(c);
		return DGR_EXIT_FAILED;
	}
	dgr_pr_begin(&p, stdout, DGR_PR_TEXT_KEYS | (c->json ? DGR_PR_JSON : 0));
	if (strcmp(cmd, "discover") == 0) {
		rc = cmd_discover(c, &p, err);
	} else if (strcmp(cmd, "read") == 0) {
		rc = cmd_read(c, &p, args[1], err);
	} else if (strcmp(cmd, "write") == 0) {
		rc = cmd_write(c, &p, args[1], args[2], err);
	} else if (strcmp(cmd, "control") == 0) {
		rc = cmd_control(c, &p, args[1], args[2], err);
	} else {
		rc = cmd_control(c, &p, args[1], cmd, err);
	}
	dgr_pr_u64(&p, "requests_sent", NULL, c->sent);
	dgr_pr_u64(&p, "timeouts", NULL, c->timeouts);
	dgr_pr_end(&p);
	if (rc < 0) {
		fprintf(stderr, "dgrdma-ctl: %s\n", err);
		status = c->bad_arg ? DGR_EXIT_USAGE : DGR_EXIT_FAILED;
	}
	dgr_transport_close(c->t);
	free(c);
	return status;
usage_error:
	fprintf(stderr, "dgrdma-ctl: %s\n", err);
	free(c);
	return DGR_EXIT_USAGE;
}
