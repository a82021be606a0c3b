# SPDX-License-Identifier: GPL-2.0-or-later
# Variables for the parts that place tracepoints (stack/, fpga/, test/). Include this file at
# the top of your module.mk (it is guarded), because module.mk fragments are read in
# alphabetical order and prerequisites are expanded when read:
#
#	include tracepoints/tp-vars.mk
#	CFLAGS_stack += $(TP_CFLAGS)
#	$(LIBDGRDMA_SO): ... $(TP_HOST_PIC_OBJS)       # link with $(TP_LIBS)
#	$(BUILD)/bin/dgrdma-host: ... $(LIBDGRTP_A)    # link with $(TP_LIBS)
#	$(BUILD)/bin/dgrdma-fpga: ... $(LIBDGRTP_A)    # link with $(TP_LIBS)
#
# TP_CFLAGS         include path for dgrdma-tp.h / dgrdma-fpga-tp.h (+ lttng-ust's cflags)
# TP_LIBS           what a program or shared library with probes links: -llttng-ust ... -ldl
# LIBDGRTP_A        static library with both providers' probes; the linker pulls in only the
#                   provider whose tracepoints the program uses
# TP_HOST_OBJS      probes of provider dgrdma (non-PIC object)
# TP_HOST_PIC_OBJS  the same built with -fPIC, for libdgrdma.so
# TP_FPGA_OBJS      probes of provider dgrdma_fpga (non-PIC object)
# TP_FPGA_PIC_OBJS  the same with -fPIC
# Build with CFLAGS=-DDGR_NO_TRACE (in your own flags) to compile every DGR_TP() out; then
# neither TP_LIBS nor the probe objects are needed.

ifndef TP_VARS_INCLUDED
TP_VARS_INCLUDED := 1
TP_CFLAGS := -Itracepoints $(shell $(PKG_CONFIG) --cflags lttng-ust)
TP_LIBS := $(shell $(PKG_CONFIG) --libs lttng-ust) -ldl
TP_HOST_OBJS := $(call objs,tracepoints/dgrdma-tp.c)
TP_HOST_PIC_OBJS := $(call pic_objs,tracepoints/dgrdma-tp.c)
TP_FPGA_OBJS := $(call objs,tracepoints/dgrdma-fpga-tp.c)
TP_FPGA_PIC_OBJS := $(call pic_objs,tracepoints/dgrdma-fpga-tp.c)
LIBDGRTP_A := $(BUILD)/lib/libdgrtp.a
endif
