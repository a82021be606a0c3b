#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-fpga on raw Ethernet: two network namespaces joined by a veth pair (MTU
# 9000) as root, or one user namespace holding both ends when not root; skipped
# when neither is possible. Runs the dgrdma-host checks (host_checks.inc), the
# test host's exact drop accounting over the link, and the ACK-only padding lock-up
# of the old host's pattern at the 16-bit wrap (issue #30).
# make check: slow
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
. "$DGR_SRC/test/lib/capture.sh"
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
# (--duration only bounds a failure: a 1 s run that a loaded machine started its host late for
# had ended before the MAC was learned, 0 samples; the emulator is stopped once it has sent more
# than 10 frames on its interface, the stream, and the host ends 3 s after its last frame)
np_tx() { "${FPGA_RUN[@]}" cat "/sys/class/net/${FPGA_T[1]}/statistics/tx_packets"; }
np_base=$(np_tx)
"${FPGA_RUN[@]}" "$FPGA" "${FPGA_T[0]}" "${FPGA_T[1]}" --rate 1e6 --duration 60 --quiet \
	--drain-ms 3000 --host-buffers 255 --summary-json "$WORK/np.json" >"$WORK/np.out" 2>&1 &
fp=$!
FPGA_PIDS+=("$fp")
dgr_wait_listening "$fp" dgrdma-fpga "${FPGA_T[@]}"
"${HOST_RUN[@]}" "$THOST" "${HOST_T[@]}" --hello --idle 3 --idle-from-first --buffers 255 rx \
	>"$WORK/np.host" 2>&1 &
hp=$!
for ((i = 0; i < 600; i++)); do
	[ "$(np_tx)" -gt $((np_base + 10)) ] && break
	kill -0 "$fp" 2>/dev/null || break
	nap 0.1
done
kill -INT "$fp" 2>/dev/null
wait "$fp"
check_eq "$?" 0 "$LINK no --peer: dgrdma-fpga exits 0"
wait "$hp"
val_use "$WORK/np.host" "$WORK/np.json"
check_eq "$(val "$WORK/np.host" first_sample)" "$(val "$WORK/np.json" dropped_before_ready)" \
	"$LINK no --peer: the MAC is learned, the ramp starts at dropped_before_ready"
check "$LINK no --peer: samples delivered ($(val "$WORK/np.host" samples))" \
	[ "$(val "$WORK/np.host" samples)" -gt 0 ]

# The old host's pattern (fpga-test-host --old-acks): each doorbell in a frame of its own with
# an even frame_seq, an ACK-only frame of 10 bytes on each odd one. On raw Ethernet each
# ACK-only frame is padded to 46 bytes and the emulator's parser, as the HDL's, reads the
# padding as a frame 0 (docs/fpga.md section 11): rejected out of range until base_seqno is
# within 32 of the wrap, then accepted. Frame 65535 is ACK-only, so its padding's frame 0 is
# accepted, and the host's real frame 0 (a doorbell, always) is dropped as a duplicate: the
# transaction record waits on that doorbell for good, every later flag is held and the ADC
# drops. The run therefore locks up at its first wrap, every time; the host ends once nothing
# has come for 3 s after its first frame (--idle-from-first: an emulator that a loaded machine
# starts late is waited for), and the emulator is stopped then.
old_host_trap() {
	local j="$WORK/old.json" h="$WORK/old.host" r="$WORK/old.report.json" cap="" fp hp
	if [ "$mode" = netns ] && command -v dumpcap >/dev/null; then
		# the host's side, whole frames, DG-RDMA and DCP only (no neighbour discovery)
		DGR_PCAP_RUN=("${HOST_RUN[@]}")
		DGR_PCAP_OPTS=(-B 64)
		cap="$WORK/old.pcapng"
		dgr_pcap_start "$cap" "ether proto 0xf040 or ether proto 0xf042" \
			"$DGR_HOST_IF" || not_ok "$LINK old host: dumpcap did not start"
		DGR_PCAP_RUN=()
		DGR_PCAP_OPTS=()
	fi
	"${HOST_RUN[@]}" "$THOST" "${HOST_T[@]}" --old-acks --buffer-size 1024 --fpga-buffers 8 \
		--idle 3 --idle-from-first --timeout 240 rx >"$h" 2>"$WORK/old.herr" &
	hp=$!
	dgr_wait_listening "$hp" fpga-test-host "${HOST_T[@]}"
	"${FPGA_RUN[@]}" "$FPGA" "${FPGA_T[@]}" --rate 6e6 --buffer-size 1024 --mtu 1100 \
		--duration 300 --quiet --summary-json "$j" >"$WORK/old.out" 2>&1 &
	fp=$!
	FPGA_PIDS+=("$fp")
	wait "$hp"
	kill -INT "$fp" 2>/dev/null
	wait "$fp"
	check_eq "$?" 0 "$LINK old host: dgrdma-fpga exits 0"
	val_use "$j" "$h"
	local lines
	mapfile -t lines <"$h"
	diag "$LINK old host: $(dh_object "$j" ack_only_rx padding_frames_rx padding_frames_accepted \
		frames_lost_to_padding reject_out_of_range reject_already_set rej_ack rej_seqno \
		next_flag_txn_id txns_waiting txn_id_out_of_range doorbells_received dropped_samples \
		dropped_open frames_rx frames_tx); host $(printf '%s ' "${lines[@]}")"
	check "$LINK old host: the host's frames went past the wrap ($(val "$h" frames_tx))" \
		test "$(val "$h" frames_tx)" -gt 65536
	check_eq "$(val "$j" ack_only_rx)" "$(val "$h" ack_only_tx)" \
		"$LINK old host: the emulator took every ACK-only frame the host sent"
	check_eq "$(val "$j" padding_frames_accepted)/$(val "$j" frames_lost_to_padding)" 1/1 \
		"$LINK old host: one padding frame 0 accepted at the wrap, and the host's frame 0 lost to it"
	check_eq "$(val "$j" rej_ack)/$(val "$j" rej_seqno)" 1/0 \
		"$LINK old host: the debug registers froze at rej_seqno 0"
	check "$LINK old host: the other ACK-only frames' padding was rejected out of range" \
		test "$(val "$j" reject_out_of_range)" -gt 0
	# doorbell k rides on frame 2k: frame 0 of the wrap (65536) carries doorbell 32768
	check_eq "$(val "$j" next_flag_txn_id)/$(val "$j" doorbells_received)" 32768/32767 \
		"$LINK old host: the flags stopped at the doorbell of the host's frame 0 (txn 32768)"
	check_eq "$(($(val "$j" doorbells_received) + $(val "$j" frames_lost_to_padding) + \
		$(val "$j" txns_waiting) + $(val "$j" txn_id_out_of_range)))" \
		"$(val "$h" doorbells)" \
		"$LINK old host: the host's doorbells = flags written + the one lost + those held behind it"
	check "$LINK old host: later doorbells wait in the transaction record ($(val "$j" txns_waiting))" \
		test "$(val "$j" txns_waiting)" -gt 0
	check "$LINK old host: the ADC dropped ($(val "$j" dropped_samples) + $(val "$j" dropped_open) still dropping)" \
		test "$(($(val "$j" dropped_samples) + $(val "$j" dropped_open)))" -gt 0
	check "$LINK old host: the diagnosis names the lost frame 0 and the padding" \
		grep -q "diagnosis: the host's frame 0 was dropped: the padding of an ACK-only frame" \
		"$WORK/old.out"
	if [ -z "$cap" ]; then
		skip "$LINK old host: the capture needs root network namespaces and dumpcap"
		return
	fi
	dgr_pcap_stop "$cap" "$(($(val "$h" frames_tx) + $(val "$j" frames_tx)))"
	# latency-report on the host's side of the run: the finding and the lock-up itself
	"$DGR_BUILD/bin/latency-report" --no-progress --json "$cap" >"$r" 2>"$WORK/old.report.err"
	# the report's values in one jq, one a line: the finding, padded, shown and frame0_acked,
	# the two conditions (what jq -e tested), doorbells_after
	local rv=()
	mapfile -t rv < <(jq -r '.ack_only_to_fpga | (del(.finding) | tojson), (.padded | tojson),
		(.lockup | "\(.shown) \(.frame0_acked)"), (.lockup.data_transactions_after <= 64),
		(.lockup.doorbells_without_effect > 0), (.lockup.doorbells_after | tojson)' "$r")
	diag "$LINK old host capture: ${rv[0]:-}"
	check_eq "${rv[1]:-}" "$(val "$h" ack_only_tx)" \
		"$LINK old host capture: latency-report flags every short ACK-only frame sent to the FPGA"
	check_eq "${rv[2]:-}" "true true" \
		"$LINK old host capture: it shows the lock-up, the host's frame 0 acknowledged by the FPGA"
	check "$LINK old host capture: the FPGA's data stopped within the host's 64 buffers after frame 0" \
		test "${rv[3]:-}" = true
	check "$LINK old host capture: the host's doorbells after the last data had no effect" \
		test "${rv[4]:-}" = true
	check_eq "${rv[5]:-}" \
		"$(($(val "$h" doorbells) - $(val "$j" doorbells_received)))" \
		"$LINK old host capture: doorbells from frame 0 on = the host's sent - the flags written"
}
old_host_trap

if [ -x "$DHOST" ] && [ -x "$DCTL" ]; then
	DH_PERF=0 # dgrdma-host perf runs in the UDP suite; kept out here for time
	dh_suite
else
	skip "dgrdma-host or dgrdma-ctl not built"
fi
done_testing
