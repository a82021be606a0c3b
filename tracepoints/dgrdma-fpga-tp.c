// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probes of the LTTng-UST provider "dgrdma_fpga" (FPGA emulator). Linked once into
 * dgrdma-fpga (libdgrtp.a).
 */

#ifdef DGR_NO_TRACE
#error "the provider is not built when tracing is compiled out"
#endif

#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "dgrdma-fpga-tp.h"
