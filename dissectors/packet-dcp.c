// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DCP (OpenCPI DWORD Control Packet) dissector, ethertype 0xF040, big-endian.
 * Classification (kind from type and length) comes from the project's codec
 * (dcp_decode on a tvb_memcpy copy); every field is shown with tvb accessors.
 * Requests and responses are matched by tag per conversation and direction
 * (dcp.response_in, dcp.response_to, dcp.time); the dcp,srt table gives
 * service response times by operation. Writes into the configured doorbell
 * address range are fed to the DG-RDMA doorbell analysis.
 */
#include <epan/conversation.h>
#include <epan/expert.h>
#include <epan/packet.h>
#include <epan/prefs.h>
#include <epan/proto_data.h>
#include <epan/srt_table.h>
#include <epan/tap.h>

#include <dgrdma/dcp.h>
#include <dgrdma/contract.h> /* DGR_DCP_DOORBELL_ADDR */
#include <dgrdma/proto.h>

#include "dgrdma-doorbell-analysis.h"
#include "dgrdma-dissectors.h"

static int proto_dcp = -1;
static int dcp_tap = -1;

static int hf_pli = -1;
static int hf_dmh01 = -1;
static int hf_dmh2 = -1;
static int hf_reserved = -1;
static int hf_uncached = -1;
static int hf_op = -1;
static int hf_byte_enables = -1;
static int hf_response_code = -1;
static int hf_kind = -1;
static int hf_tag = -1;
static int hf_addr = -1;
static int hf_value = -1;
static int hf_worker = -1;
static int hf_workeraddrspace = -1;
static int hf_workeraddr = -1;
static int hf_control_op = -1;
static int hf_nop_id = -1;
static int hf_nop_mac = -1;
static int hf_nop_marker = -1;
static int hf_padding = -1;
static int hf_response_in = -1;
static int hf_response_to = -1;
static int hf_time = -1;
static int hf_doorbell = -1;

static gint ett_dcp = -1;
static gint ett_dmh2 = -1;
static gint ett_addr = -1;

static expert_field ei_short = EI_INIT;
static expert_field ei_length = EI_INIT;
static expert_field ei_type = EI_INIT;
static expert_field ei_unknown_tag = EI_INIT;
static expert_field ei_error_response = EI_INIT;
static expert_field ei_unanswered = EI_INIT;
static expert_field ei_nop_marker = EI_INIT;

static dissector_handle_t dcp_handle;

/* Preferences. */
static range_t *pref_doorbell_range = NULL;

/* One request and, once seen, its response. */
struct dcp_exchange {
	enum dcp_kind kind;
	guint32 req_frame;
	nstime_t req_ts;
	guint32 resp_frame;
	nstime_t resp_ts;
};

/* Conversation state: outstanding requests by (requester direction, tag). */
struct dcp_conv {
	address first_src;
	wmem_map_t *pending;
};

/* What a response frame needs for the srt tap (replayed on every pass). */
struct dcp_tap_info {
	enum dcp_kind req_kind;
	nstime_t req_ts;
};

static const value_string op_vals[] = {
	{ DCP_TYPE_NOP, "NOP" },
	{ DCP_TYPE_WRITE, "Write" },
	{ DCP_TYPE_READ, "Read" },
	{ DCP_TYPE_RESPONSE, "Response" },
	{ 0, NULL },
};

static const value_string kind_vals[] = {
	{ DCP_KIND_NOP, "NOP request (discovery)" },
	{ DCP_KIND_WRITE, "Write request" },
	{ DCP_KIND_READ, "Read request" },
	{ DCP_KIND_WRITE_RESP, "Write response" },
	{ DCP_KIND_READ_RESP, "Read response" },
	{ DCP_KIND_NOP_RESP, "NOP response" },
	{ 0, NULL },
};

static const value_string response_code_vals[] = {
	{ DCP_RESP_OK, "OK" },
	{ DCP_RESP_WORKER_TIMEOUT, "Worker timeout" },
	{ DCP_RESP_WORKER_BUSY, "Worker busy" },
	{ DCP_RESP_ERROR, "Error" },
	{ DCP_RESP_ETHER_TIMEOUT, "Ethernet timeout" },
	{ 0, NULL },
};

static const value_string space_vals[] = {
	{ DCP_SPACE_ADMIN, "Admin" },
	{ DCP_SPACE_CONTROL, "Worker control" },
	{ DCP_SPACE_PROPERTY, "Worker property" },
	{ DCP_SPACE_UNMAPPED, "Unmapped" },
	{ 0, NULL },
};

static const value_string control_op_vals[] = {
	{ DCP_CTL_INITIALIZE, "initialize" },
	{ DCP_CTL_START, "start" },
	{ DCP_CTL_STOP, "stop" },
	{ DCP_CTL_RELEASE, "release" },
	{ DCP_CTL_TEST, "test" },
	{ DCP_CTL_BEFORE_QUERY, "before query" },
	{ DCP_CTL_AFTER_CONFIG, "after configure" },
	{ DCP_CTL_STATUS, "status" },
	{ DCP_CTL_RESET, "reset" },
	{ 0, NULL },
};

static int *const request_bits[] = {
	&hf_reserved, &hf_uncached, &hf_op, &hf_byte_enables, NULL,
};

static int *const response_bits[] = {
	&hf_reserved,
	&hf_op,
	&hf_response_code,
	NULL,
};

/* SRT table rows, one per request kind. */
#define DCP_SRT_NOP   0
#define DCP_SRT_WRITE 1
#define DCP_SRT_READ  2
#define DCP_SRT_ROWS  3

static int dcp_srt_row(enum dcp_kind k)
{
	switch (k) {
	case DCP_KIND_WRITE:
		return DCP_SRT_WRITE;
	case DCP_KIND_READ:
		return DCP_SRT_READ;
	default:
		return DCP_SRT_NOP;
	}
}

static void dcp_srt_init(struct register_srt *srt, GArray *srt_array)
{
	srt_stat_table *table;

	table = init_srt_table("DCP operations", NULL, srt_array, DCP_SRT_ROWS, "Operation",
			       "dcp.op", NULL);
	(void)srt;
	init_srt_table_row(table, DCP_SRT_NOP, "NOP");
	init_srt_table_row(table, DCP_SRT_WRITE, "Write");
	init_srt_table_row(table, DCP_SRT_READ, "Read");
}

static tap_packet_status dcp_srt_packet(void *pss, packet_info *pinfo, epan_dissect_t *edt,
					const void *prv, tap_flags_t flags)
{
	srt_data_t *data = (srt_data_t *)pss;
	const struct dcp_tap_info *info = (const struct dcp_tap_info *)prv;
	srt_stat_table *table;

	(void)edt;
	(void)flags;
	table = g_array_index(data->srt_array, srt_stat_table *, 0);
	add_srt_table_data(table, dcp_srt_row(info->req_kind), &info->req_ts, pinfo);
	return TAP_PACKET_REDRAW;
}

/*
 * What identifies the buffer a DCP doorbell frees: with one doorbell
 * property (the emulator's and the stack's DGR_DCP_DOORBELL_ADDR) the value
 * written is the buffer index; with a range of addresses, the address is
 * (one per buffer, ranked like flag addresses). As latency-report does.
 */
static guint32 dcp_doorbell_identity(const struct dcp_packet *p)
{
	if (pref_doorbell_range->nranges == 1 &&
	    pref_doorbell_range->ranges[0].low == pref_doorbell_range->ranges[0].high) {
		return p->data;
	}
	return p->addr;
}

static struct dcp_conv *dcp_conv_get(packet_info *pinfo, guint *dir)
{
	conversation_t *conv = find_or_create_conversation(pinfo);
	struct dcp_conv *c = (struct dcp_conv *)conversation_get_proto_data(conv, proto_dcp);

	if (!c) {
		c = wmem_new0(wmem_file_scope(), struct dcp_conv);
		copy_address_wmem(wmem_file_scope(), &c->first_src, &pinfo->src);
		c->pending = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
		conversation_add_proto_data(conv, proto_dcp, c);
	}
	*dir = addresses_equal(&pinfo->src, &c->first_src) ? 0 : 1;
	return c;
}

/* First pass: pairs requests and responses; later passes read the result. */
static struct dcp_exchange *dcp_match(packet_info *pinfo, const struct dcp_packet *p)
{
	struct dcp_exchange *ex;
	struct dcp_conv *c;
	guint dir = 0;
	guint key;

	ex = (struct dcp_exchange *)p_get_proto_data(wmem_file_scope(), pinfo, proto_dcp, 0);
	if (ex || PINFO_FD_VISITED(pinfo)) {
		return ex;
	}
	c = dcp_conv_get(pinfo, &dir);
	if (!dcp_is_response(p->kind)) {
		key = (dir << 8) | p->tag;
		ex = wmem_new0(wmem_file_scope(), struct dcp_exchange);
		ex->kind = p->kind;
		ex->req_frame = pinfo->num;
		ex->req_ts = pinfo->abs_ts;
		wmem_map_insert(c->pending, GUINT_TO_POINTER(key), ex);
	} else {
		key = ((guint)!dir << 8) | p->tag;
		ex = (struct dcp_exchange *)wmem_map_remove(c->pending, GUINT_TO_POINTER(key));
		if (!ex) {
			return NULL;
		}
		ex->resp_frame = pinfo->num;
		ex->resp_ts = pinfo->abs_ts;
	}
	p_add_proto_data(wmem_file_scope(), pinfo, proto_dcp, 0, ex);
	return ex;
}

static void dcp_add_address(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo, guint32 addr,
			    proto_item *addr_item)
{
	struct dcp_addr a;
	proto_tree *atree = proto_item_add_subtree(addr_item, ett_addr);
	proto_item *ti;

	(void)tree;
	(void)pinfo;
	dcp_addr_decode(addr, &a);
	ti = proto_tree_add_uint(atree, hf_workeraddrspace, tvb, DCP_OFF_ADDR, 4, a.space);
	proto_item_set_generated(ti);
	if (a.worker >= 0) {
		ti = proto_tree_add_uint(atree, hf_worker, tvb, DCP_OFF_ADDR, 4, (guint32)a.worker);
		proto_item_set_generated(ti);
	}
	ti = proto_tree_add_uint(atree, hf_workeraddr, tvb, DCP_OFF_ADDR, 4, a.offset);
	proto_item_set_generated(ti);
	if (a.space == DCP_SPACE_CONTROL && dcp_control_op_name(a.offset)) {
		ti = proto_tree_add_uint(atree, hf_control_op, tvb, DCP_OFF_ADDR, 4, a.offset);
		proto_item_set_generated(ti);
		col_append_fstr(pinfo->cinfo, COL_INFO, " (%s worker %d)",
				dcp_control_op_name(a.offset), a.worker);
	}
}

static void dcp_add_matching(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo, proto_item *top,
			     const struct dcp_packet *p, const struct dcp_exchange *ex)
{
	proto_item *ti;

	if (!dcp_is_response(p->kind)) {
		if (ex && ex->resp_frame) {
			ti = proto_tree_add_uint(tree, hf_response_in, tvb, 0, 0, ex->resp_frame);
			proto_item_set_generated(ti);
		} else if (PINFO_FD_VISITED(pinfo)) {
			expert_add_info_format(pinfo, top, &ei_unanswered,
					       "No response to this request (tag %u)", p->tag);
		}
		return;
	}
	if (!ex) {
		expert_add_info_format(pinfo, top, &ei_unknown_tag,
				       "Response with tag %u matches no outstanding request",
				       p->tag);
		return;
	}
	{
		nstime_t delta;

		ti = proto_tree_add_uint(tree, hf_response_to, tvb, 0, 0, ex->req_frame);
		proto_item_set_generated(ti);
		nstime_delta(&delta, &ex->resp_ts, &ex->req_ts);
		ti = proto_tree_add_time(tree, hf_time, tvb, 0, 0, &delta);
		proto_item_set_generated(ti);
	}
}

static int dissect_dcp(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	guint8 copy[DCP_LEN_NOP_RESP];
	guint captured = tvb_captured_length(tvb);
	guint copy_len = MIN(captured, (guint)sizeof(copy));
	char errbuf[DGR_ERRBUF_SIZE];
	struct dcp_packet p;
	struct dcp_exchange *ex;
	proto_tree *dtree;
	proto_item *top;
	proto_item *ti;
	int rc;

	(void)data;
	col_set_str(pinfo->cinfo, COL_PROTOCOL, "DCP");
	col_clear(pinfo->cinfo, COL_INFO);
	top = proto_tree_add_item(tree, proto_dcp, tvb, 0, -1, ENC_NA);
	dtree = proto_item_add_subtree(top, ett_dcp);

	tvb_memcpy(tvb, copy, 0, copy_len);
	/* The codec sees the reported length so a snapped capture is not "short". */
	errbuf[0] = '\0';
	rc = dcp_decode(copy, MIN(tvb_reported_length(tvb), copy_len), &p, errbuf);
	if (rc == -DGR_E_DCP_SHORT) {
		proto_tree_add_expert_format(dtree, pinfo, &ei_short, tvb, 0, -1, "%s", errbuf);
		col_set_str(pinfo->cinfo, COL_INFO, "Malformed DCP packet");
		return (int)captured;
	}
	ti = proto_tree_add_item(dtree, hf_pli, tvb, DCP_OFF_LENGTH, 2, ENC_BIG_ENDIAN);
	if (rc == -DGR_E_DCP_LENGTH) {
		expert_add_info_format(pinfo, ti, &ei_length, "%s", errbuf);
		col_set_str(pinfo->cinfo, COL_INFO, "Malformed DCP packet (length)");
		return (int)captured;
	}
	proto_tree_add_item(dtree, hf_dmh01, tvb, DCP_OFF_PAD, 2, ENC_BIG_ENDIAN);
	if (rc == -DGR_E_DCP_TYPE) {
		ti = proto_tree_add_item(dtree, hf_dmh2, tvb, DCP_OFF_TYPE, 1, ENC_NA);
		expert_add_info_format(pinfo, ti, &ei_type, "%s", errbuf);
		proto_tree_add_item(dtree, hf_tag, tvb, DCP_OFF_TAG, 1, ENC_NA);
		col_set_str(pinfo->cinfo, COL_INFO, "Malformed DCP packet (type/length)");
		return p.length;
	}
	proto_tree_add_bitmask(dtree, tvb, DCP_OFF_TYPE, hf_dmh2, ett_dmh2,
			       dcp_is_response(p.kind) ? response_bits : request_bits, ENC_NA);
	ti = proto_tree_add_uint(dtree, hf_kind, tvb, DCP_OFF_TYPE, 1, p.kind);
	proto_item_set_generated(ti);
	proto_tree_add_item(dtree, hf_tag, tvb, DCP_OFF_TAG, 1, ENC_NA);
	col_add_fstr(pinfo->cinfo, COL_INFO, "%s tag %u", val_to_str_const(p.kind, kind_vals, "?"),
		     p.tag);

	switch (p.kind) {
	case DCP_KIND_WRITE:
	case DCP_KIND_READ:
	case DCP_KIND_NOP:
		ti = proto_tree_add_item(dtree, hf_addr, tvb, DCP_OFF_ADDR, 4, ENC_BIG_ENDIAN);
		col_append_fstr(pinfo->cinfo, COL_INFO, " addr 0x%06x", p.addr);
		if (p.kind != DCP_KIND_NOP) {
			dcp_add_address(dtree, tvb, pinfo, p.addr, ti);
		}
		if (p.kind == DCP_KIND_WRITE) {
			proto_tree_add_item(dtree, hf_value, tvb, DCP_OFF_DATA, 4, ENC_BIG_ENDIAN);
			col_append_fstr(pinfo->cinfo, COL_INFO, " value 0x%08x", p.data);
		}
		break;
	case DCP_KIND_READ_RESP:
		proto_tree_add_item(dtree, hf_value, tvb, DCP_OFF_ADDR, 4, ENC_BIG_ENDIAN);
		col_append_fstr(pinfo->cinfo, COL_INFO, " value 0x%08x", p.data);
		break;
	case DCP_KIND_NOP_RESP:
		proto_tree_add_item(dtree, hf_nop_id, tvb, DCP_NOP_RESP_OFF_ID, 4, ENC_BIG_ENDIAN);
		proto_tree_add_item(dtree, hf_nop_mac, tvb, DCP_NOP_RESP_OFF_MAC, 6, ENC_NA);
		ti = proto_tree_add_item(dtree, hf_nop_marker, tvb, DCP_NOP_RESP_OFF_MARKER, 1,
					 ENC_NA);
		if (p.marker != DCP_NOP_MARKER) {
			expert_add_info_format(pinfo, ti, &ei_nop_marker,
					       "NOP response marker 0x%02x, expected 0x%02x",
					       p.marker, DCP_NOP_MARKER);
		}
		break;
	case DCP_KIND_WRITE_RESP:
		break;
	}
	if (dcp_is_response(p.kind) && p.low != DCP_RESP_OK) {
		expert_add_info_format(pinfo, top, &ei_error_response, "DCP error response: %s",
				       val_to_str_const(p.low, response_code_vals, "unknown code"));
		col_append_fstr(pinfo->cinfo, COL_INFO, " [%s]",
				val_to_str_const(p.low, response_code_vals, "unknown code"));
	}
	ex = dcp_match(pinfo, &p);
	dcp_add_matching(dtree, tvb, pinfo, top, &p, ex);
	if (ex && dcp_is_response(p.kind) && ex->resp_frame == pinfo->num &&
	    have_tap_listener(dcp_tap)) {
		struct dcp_tap_info *info = wmem_new(pinfo->pool, struct dcp_tap_info);

		info->req_kind = ex->kind;
		info->req_ts = ex->req_ts;
		tap_queue_packet(dcp_tap, pinfo, info);
	}

	if (p.kind == DCP_KIND_WRITE && pref_doorbell_range && pref_doorbell_range->nranges &&
	    value_is_in_range(pref_doorbell_range, p.addr)) {
		const struct dgr_an_msg *an;

		ti = proto_tree_add_boolean(dtree, hf_doorbell, tvb, DCP_OFF_ADDR, 4, TRUE);
		proto_item_set_generated(ti);
		col_append_str(pinfo->cinfo, COL_INFO, " Doorbell");
		if (dgrdma_analysis_enabled()) {
			an = PINFO_FD_VISITED(pinfo)
				 ? dgr_an_dcp_doorbell_result(pinfo)
				 : dgr_an_dcp_doorbell(pinfo, dcp_doorbell_identity(&p));
			if (an) {
				dgrdma_add_analysis_tree(dtree, tvb, pinfo, top, an);
			}
			const struct dgr_an_event *queued = NULL;

			dgr_an_queue_events(dgr_an_dcp_frame(pinfo), pinfo, dgrdma_tap_id(),
					    &queued);
		}
	}
	if ((guint)p.length < tvb_reported_length(tvb)) {
		proto_tree_add_item(dtree, hf_padding, tvb, p.length, -1, ENC_NA);
	}
	proto_item_set_len(top, p.length);
	return tvb_reported_length(tvb) > p.length ? (int)p.length : (int)tvb_reported_length(tvb);
}

int dcp_proto_id(void)
{
	return proto_dcp;
}

void proto_register_dcp(void)
{
	static hf_register_info hf[] = {
		{ &hf_pli,
		  { "Length", "dcp.pli", FT_UINT16, BASE_DEC, NULL, 0x0,
		    "Payload length indicator: bytes of the packet, counting this field", HFILL } },
		{ &hf_dmh01,
		  { "Pad", "dcp.dmh01", FT_UINT16, BASE_HEX, NULL, 0x0, "Bytes 2-3 (zero)",
		    HFILL } },
		{ &hf_dmh2,
		  { "Type/etc", "dcp.dmh2", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_reserved,
		  { "Reserved", "dcp.reserved", FT_BOOLEAN, 8, NULL, DCP_RESERVED, NULL, HFILL } },
		{ &hf_uncached,
		  { "Uncached", "dcp.uncached", FT_BOOLEAN, 8, NULL, DCP_UNCACHED,
		    "Bit 6 of a request (\"discovery\" in the Lua dissector)", HFILL } },
		{ &hf_op,
		  { "Operation", "dcp.op", FT_UINT8, BASE_DEC, VALS(op_vals), DCP_TYPE_MASK, NULL,
		    HFILL } },
		{ &hf_byte_enables,
		  { "Byte enables", "dcp.byte_enables", FT_UINT8, BASE_HEX, NULL, DCP_LOW_MASK,
		    NULL, HFILL } },
		{ &hf_response_code,
		  { "Response code", "dcp.response_code", FT_UINT8, BASE_DEC,
		    VALS(response_code_vals), DCP_LOW_MASK, NULL, HFILL } },
		{ &hf_kind,
		  { "Type", "dcp.type", FT_UINT8, BASE_DEC, VALS(kind_vals), 0x0,
		    "Packet type from the operation bits and the length", HFILL } },
		{ &hf_tag, { "Tag", "dcp.tag", FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL } },
		{ &hf_addr,
		  { "Address", "dcp.addr", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_value,
		  { "Value", "dcp.value", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_worker,
		  { "Worker", "dcp.worker", FT_UINT32, BASE_DEC, NULL, 0x0, "0-based worker index",
		    HFILL } },
		{ &hf_workeraddrspace,
		  { "Address space", "dcp.workeraddrspace", FT_UINT32, BASE_DEC, VALS(space_vals),
		    0x0, NULL, HFILL } },
		{ &hf_workeraddr,
		  { "Offset in space", "dcp.workeraddr", FT_UINT32, BASE_HEX, NULL, 0x0,
		    "Control register or property offset", HFILL } },
		{ &hf_control_op,
		  { "Control operation", "dcp.control_op", FT_UINT32, BASE_HEX,
		    VALS(control_op_vals), 0x0, NULL, HFILL } },
		{ &hf_nop_id,
		  { "Device id", "dcp.nop.id", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_nop_mac,
		  { "Device MAC", "dcp.nop.mac", FT_ETHER, BASE_NONE, NULL, 0x0, NULL, HFILL } },
		{ &hf_nop_marker,
		  { "Marker", "dcp.nop.marker", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
		{ &hf_padding,
		  { "Ethernet padding", "dcp.padding", FT_BYTES, BASE_NONE, NULL, 0x0, NULL,
		    HFILL } },
		{ &hf_response_in,
		  { "Response in", "dcp.response_in", FT_FRAMENUM, BASE_NONE,
		    FRAMENUM_TYPE(FT_FRAMENUM_RESPONSE), 0x0, NULL, HFILL } },
		{ &hf_response_to,
		  { "Response to", "dcp.response_to", FT_FRAMENUM, BASE_NONE,
		    FRAMENUM_TYPE(FT_FRAMENUM_REQUEST), 0x0, NULL, HFILL } },
		{ &hf_time,
		  { "Response time", "dcp.time", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
		    "Time from the request to this response", HFILL } },
		{ &hf_doorbell,
		  { "Doorbell", "dcp.doorbell", FT_BOOLEAN, BASE_NONE, NULL, 0x0,
		    "Write into the doorbell address range (preference)", HFILL } },
	};
	static gint *ett[] = { &ett_dcp, &ett_dmh2, &ett_addr };
	static ei_register_info ei[] = {
		{ &ei_short,
		  { "dcp.expert.malformed.short", PI_MALFORMED, PI_ERROR, "DCP packet too short",
		    EXPFILL } },
		{ &ei_length,
		  { "dcp.expert.malformed.length", PI_MALFORMED, PI_ERROR,
		    "DCP length field disagrees with the packet", EXPFILL } },
		{ &ei_type,
		  { "dcp.expert.malformed.type", PI_MALFORMED, PI_ERROR,
		    "Unknown DCP type and length combination", EXPFILL } },
		{ &ei_unknown_tag,
		  { "dcp.expert.unknown_tag", PI_SEQUENCE, PI_WARN, "DCP response with unknown tag",
		    EXPFILL } },
		{ &ei_error_response,
		  { "dcp.expert.error_response", PI_RESPONSE_CODE, PI_WARN, "DCP error response",
		    EXPFILL } },
		{ &ei_unanswered,
		  { "dcp.expert.unanswered", PI_SEQUENCE, PI_WARN, "DCP request without response",
		    EXPFILL } },
		{ &ei_nop_marker,
		  { "dcp.expert.nop_marker", PI_PROTOCOL, PI_WARN,
		    "NOP response marker is not 0x40", EXPFILL } },
	};
	module_t *module;
	expert_module_t *expert;

	proto_dcp = proto_register_protocol("OpenCPI DWORD Control Packet", "DCP", "dcp");
	proto_register_field_array(proto_dcp, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
	expert = expert_register_protocol(proto_dcp);
	expert_register_field_array(expert, ei, array_length(ei));

	module = prefs_register_protocol(proto_dcp, NULL);
	{
		char *dflt = g_strdup_printf("0x%x", DGR_DCP_DOORBELL_ADDR);

		range_convert_str(wmem_epan_scope(), &pref_doorbell_range, dflt, DCP_ADDR_MASK);
		g_free(dflt);
	}
	prefs_register_range_preference(
	    module, "doorbell_addresses", "Doorbell property addresses",
	    "DCP writes to these addresses are doorbells (a stack or emulator configured to "
	    "send buffer-release doorbells as DCP property writes). One address (default: "
	    "0x100018, worker 0's doorbell property): the value written is the buffer index. "
	    "Several: each address is one buffer. Empty: none.",
	    &pref_doorbell_range, DCP_ADDR_MASK);

	dcp_tap = register_tap("dcp");
	dcp_handle = register_dissector("dcp", dissect_dcp, proto_dcp);
	register_srt_table(proto_dcp, NULL, 1, dcp_srt_packet, dcp_srt_init, NULL);
}

void proto_reg_handoff_dcp(void)
{
	dissector_add_uint("ethertype", DGR_ETHERTYPE_DCP, dcp_handle);
}
