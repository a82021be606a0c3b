#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-fpga on raw Ethernet: two network namespaces joined by a veth pair (MTU
# 9000) as root, or one user namespace holding both ends when not root; skipped
# when neither is possible. Runs the dgrdma-host checks (host_checks.inc) and the
# test host's exact drop accounting over the link.
set -u
if [ -z "${DGR_IN_USERNS:-}" ]; then
	. "$DGR_SRC/test/lib/tap.sh"
fi
. "$DGR_SRC/test/lib/netns.sh"
DGR_LINK_TAG="fpg$$"
mode=$(dgr_link_choose)
if [ "$mode" = userns ] && [ -z "${DGR_IN_USERNS:-}" ]; then
	dgr_link_reexec "$0" "$@"
fi
. "$DGR_SRC/test/integration/fpga/common.inc"
. "$DGR_SRC/test/integration/fpga/host_checks.inc"
if [ "$mode" = udp ]; then
	skip "no network namespace here (neither root nor unshare --user --net)"
	done_testing
	exit 0
fi
cleanup() {
	fpga_cleanup
	dgr_link_down
}
trap cleanup EXIT
if ! dgr_link_up "$mode"; then
	not_ok "veth link ($mode) could not be set up"
	done_testing
	exit 1
fi
diag "link mode $mode: fpga ${DGR_FPGA_TRANSPORT[*]}, host ${DGR_HOST_TRANSPORT[*]}"
FPGA_T=("${DGR_FPGA_TRANSPORT[@]}")
HOST_T=("${DGR_HOST_TRANSPORT[@]}")
if [ "$mode" = netns ]; then
	HOST_T+=(--rcvbuf 16M) # forcing the size needs CAP_NET_ADMIN, not granted in a userns
fi
CTL_T=("${DGR_HOST_TRANSPORT[@]}")
FPGA_RUN=("${DGR_FPGA_RUN[@]}")
HOST_RUN=("${DGR_HOST_RUN[@]}")
LINK="veth($mode)"

# the test host: exact accounting with a slowed consumer, report_data_loss off
run_pair th "--rate 2e6 --duration 1 --quiet --drain-ms 4000 --host-buffers 8 \
--report-data-loss false" "--idle 3 --consumer-delay-us 4000 --buffers 8"
j="$WORK/th.json" h="$WORK/th.host"
check "$LINK test host: the ADC dropped" [ "$(val "$j" dropped_samples)" -gt 0 ]
check_eq "$(val "$h" lost)/$(val "$h" gap_periods)" \
	"$(val "$j" dropped_samples)/$(val "$j" num_dropped_samps)" \
	"$LINK test host: ramp loss/gaps = dropped_samples/num_dropped_samps"
check_eq "$(val "$h" bad_frames)/$(val "$h" flag_index_errors)" "0/0" \
	"$LINK test host: raw frames well formed, flags where documented"
check_eq "$(val "$j" mtu)" 9000 "$LINK: the emulator read the interface MTU (9000)"

# no --peer on raw Ethernet: the emulator learns the host's MAC from its first packet
"${FPGA_RUN[@]}" "$FPGA" "${FPGA_T[0]}" "${FPGA_T[1]}" --rate 1e6 --duration 1 --quiet \
	--drain-ms 3000 --host-buffers 255 --summary-json "$WORK/np.json" >"$WORK/np.out" 2>&1 &
fp=$!
FPGA_PIDS+=("$fp")
dgr_wait_listening "$fp" dgrdma-fpga "${FPGA_T[@]}"
"${HOST_RUN[@]}" "$THOST" "${HOST_T[@]}" --hello --idle 3 --buffers 255 rx >"$WORK/np.host" 2>&1
wait "$fp"
check_eq "$?" 0 "$LINK no --peer: dgrdma-fpga exits 0"
check_eq "$(val "$WORK/np.host" first_sample)" "$(val "$WORK/np.json" dropped_before_ready)" \
	"$LINK no --peer: the MAC is learned, the ramp starts at dropped_before_ready"
check "$LINK no --peer: samples delivered ($(val "$WORK/np.host" samples))" \
	[ "$(val "$WORK/np.host" samples)" -gt 0 ]

if [ -x "$DHOST" ] && [ -x "$DCTL" ]; then
	DH_PERF=0 # dgrdma-host perf runs in the UDP suite; kept out here for time
	dh_suite
else
	skip "dgrdma-host or dgrdma-ctl not built"
fi
done_testing
