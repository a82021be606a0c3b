#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-fpga against dgrdma-host and dgrdma-ctl over UDP on 127.0.0.1
# (host_checks.inc: ramp, drops = counters, vicious cycle, DAC underruns, DCP read-back).
# make check: slow
set -u
. "$DGR_SRC/test/integration/fpga/common.inc"
. "$DGR_SRC/test/integration/fpga/host_checks.inc"
trap fpga_cleanup EXIT
if [ ! -x "$DHOST" ] || [ ! -x "$DCTL" ]; then
	skip "dgrdma-host or dgrdma-ctl not built"
	done_testing
	exit 0
fi
fpga_ports
FPGA_T=("${FPGA_UDP[@]}")
HOST_T=("${HOST_UDP[@]}")
CTL_T=("${CTL_UDP[@]}")
FPGA_RUN=()
HOST_RUN=()
LINK=udp
dh_suite
done_testing
