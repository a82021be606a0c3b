#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Scenario "frame loss". The emulator never retransmits (docs/fpga.md section 3: it ignores the
# ACKs it receives), so retransmission can only repair the TX path, where the host is the
# sender and the emulator's ACK tracker acknowledges its frames.
#   RX, no retransmission: dgrdma-fpga --drop-frames 0.05 loses data frames; their transactions
#     never complete, their host buffers never get a doorbell, the stream locks up and the host
#     reports incomplete transactions and exits 3 within its idle timeout (no hang).
#   TX: a tc BPF classifier (the stack's test/integration/stack/bpf/drop.c, 1% of DG-RDMA
#     frames) on the emulator's ingress. With dgrdma-host tx --retransmit 10 every sample
#     reaches the DAC in ramp order (with the emulator keeping ACK holes longer than the
#     retransmit timeout: --ack-wait-us); without, the host stalls and exits 3 within its timeout.
#     Needs tc and clang -target bpf on a link this script owns (root netns; skipped otherwise).
# make check: slow
. "$DGR_SRC/test/scenarios/lib.sh"
scn_init frame-loss "$@"

# --- RX path: emulator drops frames, no retransmission possible -------------------------------
RATE=2e6
HOST_OPTS=(--buffers 64 --buffer-size 16384 --fpga-buffers 4 --idle-timeout 2 --incomplete-timeout 300)
FPGA_OPTS=(--rate "$RATE" --duration 4 --buffers 4 --buffer-size 16384 --host-buffers 64
	--drop-frames 0.05 --seed 7)
run="$SCN_OUT/rx-no-retransmit"
start=$(date +%s)
scn_run_rx "$run"
elapsed=$(($(date +%s) - start))
diag "rx: emulator frames_dropped_injected $(jnum "$run/fpga.json" frames_dropped_injected)," \
	"transactions_sent $(jnum "$run/fpga.json" transactions_sent), host transactions" \
	"$(jnum "$run/host.json" transactions), incomplete $(jnum "$run/host.json" incomplete_transactions)," \
	"timed out $(jnum "$run/host.json" incomplete_timed_out); run ${elapsed}s"
check_eq "$SCN_FPGA_RC" 0 "rx: dgrdma-fpga exits 0"
check "rx: frames were dropped ($(jnum "$run/fpga.json" frames_dropped_injected))" \
	test "$(jnum "$run/fpga.json" frames_dropped_injected)" -gt 0
check_eq "$SCN_HOST_RC" 3 "rx: dgrdma-host exits 3 (no hang)"
check_eq "$(jq -r .status "$run/host.json")" stalled "rx: the host reports a stalled stream"
inc=$(($(jnum "$run/host.json" incomplete_transactions) + $(jnum "$run/host.json" incomplete_timed_out)))
check "rx: the host reports incomplete transactions ($inc)" test "$inc" -gt 0
check "rx: fewer transactions completed than sent" \
	test "$(jnum "$run/host.json" transactions)" -lt "$(jnum "$run/fpga.json" transactions_sent)"

# --- TX path: loss on the emulator's ingress, with and without retransmission -----------------
bpf_ok=0
if [ "$SCN_MODE" != netns ]; then
	reason="TX loss needs a tc classifier on a veth in a namespace this root script owns (link: $SCN_MODE)"
elif ! command -v clang >/dev/null || ! command -v tc >/dev/null; then
	reason="no clang or tc here"
elif ! clang -O2 -target bpf -I"/usr/include/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)" \
	-DDROP_PERMILLE=10 -c "$DGR_SRC/test/integration/stack/bpf/drop.c" -o "$SCN_OUT/drop.o" \
	2>"$SCN_OUT/clang.err"; then
	reason="clang -target bpf failed: $(head -1 "$SCN_OUT/clang.err")"
elif ! "${DGR_FPGA_RUN[@]}" tc qdisc add dev "${DGR_LINK_TAG}f" clsact ||
	! "${DGR_FPGA_RUN[@]}" tc filter add dev "${DGR_LINK_TAG}f" ingress bpf da obj "$SCN_OUT/drop.o" sec classifier; then
	reason="tc clsact/bpf refused"
else
	bpf_ok=1
fi
if [ "$bpf_ok" = 1 ]; then
	BYTES=$((8 * 1024 * 1024))
	# The emulator's ACK tracker gives a missing frame up after ack_wait (default 100 us) and
	# then rejects its retransmission as old (reject_already_set): the host's shortest
	# retransmit timeout is 1 ms, so the hole must be kept longer than that: --ack-wait-us 50000.
	# --max-acks 1 acknowledges every frame at once: with ACKs held longer than the retransmit
	# timeout, duplicates completed transactions twice (docs/scenarios.md, known problems).
	FPGA_OPTS=(--mode dac --rate 20e6 --buffers 4 --buffer-size 16384 --host-buffers 64 --check-ramp --duration 5
		--ack-wait-us 50000 --max-acks 1)
	HOST_OPTS=(--buffers 64 --buffer-size 16384 --fpga-buffers 4 --bytes "$BYTES" --idle-timeout 2 --retransmit 10)
	run="$SCN_OUT/tx-retransmit"
	scn_run_tx "$run"
	rtx=$(jnum "$run/host.json" retransmits)
	diag "tx with retransmission: retransmits $rtx, giveups $(jnum "$run/host.json" retransmit_giveups)," \
		"samples_consumed $(jnum "$run/fpga.json" samples_consumed)"
	check_eq "$SCN_HOST_RC/$SCN_FPGA_RC" 0/0 "tx --retransmit: dgrdma-host tx and dgrdma-fpga exit 0"
	check "tx --retransmit: frames were lost and retransmitted ($rtx)" test "${rtx:-0}" -gt 0
	check_eq "$(jnum "$run/fpga.json" samples_consumed)" $((BYTES / 4)) "tx --retransmit: the DAC consumed every sample"
	check_eq "$(jnum "$run/fpga.json" ramp_errors)/$(jnum "$run/fpga.json" eof_seen)" 0/true \
		"tx --retransmit: in ramp order, up to the EOF"

	HOST_OPTS=(--buffers 64 --buffer-size 16384 --fpga-buffers 4 --bytes "$BYTES" --idle-timeout 2)
	run="$SCN_OUT/tx-no-retransmit"
	scn_run_tx "$run"
	diag "tx without retransmission: status $(jq -r .status "$run/host.json"), samples_consumed" \
		"$(jnum "$run/fpga.json" samples_consumed), incomplete $(jnum "$run/fpga.json" reasm_errors)"
	check_eq "$SCN_HOST_RC" 3 "tx without retransmission: dgrdma-host exits 3 (no hang)"
	check_eq "$(jq -r .status "$run/host.json")" stalled "tx without retransmission: the host reports a stalled stream"
	check "tx without retransmission: the DAC did not get every sample" \
		test "$(jnum "$run/fpga.json" samples_consumed)" -lt $((BYTES / 4))
else
	for _ in 1 2 3 4 5 6 7; do skip "$reason"; done
fi
done_testing
