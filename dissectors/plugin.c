// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Plugin entry points: Wireshark loads dgrdma.so from <plugindir>/4.0/epan/,
 * checks plugin_want_major/minor against its own version and calls
 * plugin_register(), which hands over the two protocols.
 */
#include <epan/packet.h>
#include <epan/proto.h>
#include <epan/tap.h>
#include <ws_symbol_export.h>
#include <ws_version.h>

#include "dgrdma-dissectors.h"

#define DGRDMA_PLUGIN_VERSION "0.1.0"

WS_DLL_PUBLIC_DEF const gchar plugin_version[] = DGRDMA_PLUGIN_VERSION;
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;

WS_DLL_PUBLIC void plugin_register(void);

static void dgrdma_plugin_register_protoinfo(void)
{
	proto_register_dcp();
	proto_register_dgrdma();
}

static void dgrdma_plugin_register_handoff(void)
{
	proto_reg_handoff_dcp();
	proto_reg_handoff_dgrdma();
}

void plugin_register(void)
{
	static proto_plugin plug;

	plug.register_protoinfo = dgrdma_plugin_register_protoinfo;
	plug.register_handoff = dgrdma_plugin_register_handoff;
	proto_register_plugin(&plug);
	dgrdma_register_stats_tree();
}
