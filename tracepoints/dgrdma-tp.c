// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probes of the LTTng-UST provider "dgrdma" (host stack). Linked once into every program or
 * shared library that places DGR_TP() calls (libdgrtp.a, or its -fPIC twin in libdgrdma.so).
 */

#ifdef DGR_NO_TRACE
#error "the provider is not built when tracing is compiled out"
#endif

#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "dgrdma-tp.h"
