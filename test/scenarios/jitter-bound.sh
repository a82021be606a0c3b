#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Scenario "jitter-bound": the healthy stream (2 MS/s, 64 + 4 x 16 KiB buffers: tolerable
# latency 139 ms) while a disturber steals the host stack's CPU in bursts: every 0.6 s a
# SCHED_FIFO busy loop runs 100 ms on CPU 0, where the stack's threads are pinned (--cpu 0).
# Doorbells are late only during the bursts: latency-report says "jitter-bound" and lists the
# jitter mitigations. Then one mitigation, the stack pinned to CPU 1 (the disturber is kept on
# CPU 0; the emulator runs on CPU 1 in both runs), same disturbance: p99.9 must be lower; both values are printed. Timing-dependent,
# needs root (real-time priority) and 2 CPUs: make scenarios only.
. "$DGR_SRC/test/scenarios/lib.sh"
scn_init jitter-bound "$@"

if [ "$(nproc)" -lt 2 ]; then
	skip "needs 2 CPUs (one for the disturber, one for the mitigation), this machine has $(nproc)"
	done_testing
	exit 0
fi
if ! chrt -f 1 true 2>/dev/null; then
	skip "the disturber needs real-time priority (chrt -f): run as root"
	done_testing
	exit 0
fi

RATE=2e6
# disturber: bursts of a FIFO busy loop on CPU 0. timeout runs at a higher real-time priority
# and on any CPU, so each burst ends even if this loop is killed in the middle of one.
disturber() {
	while :; do
		chrt -f 51 timeout 0.1 chrt -f 50 taskset -c 0 bash -c 'while :; do :; done'
		sleep 0.5
	done
}
start_disturber() {
	disturber &
	DISTURBER=$!
	SCN_BG_PIDS+=("$DISTURBER")
}

# The emulator stays on CPU 1 in both runs: a veth transmits on the sender's CPU, so an
# emulator on CPU 0 would have its frames wait behind the disturber too (the first try here
# showed 1 s stalls in the "mitigated" run for that reason).
SCN_FPGA_PREFIX=(taskset -c 1)
p999=()
for variant in pinned-with-disturber pinned-away; do
	case "$variant" in
	pinned-with-disturber) cpu=0 ;;
	pinned-away) cpu=1 ;;
	esac
	HOST_OPTS=(--buffers 64 --buffer-size 16384 --fpga-buffers 4 --idle-timeout 10 --cpu "$cpu")
	FPGA_OPTS=(--rate "$RATE" --duration 4 --buffers 4 --buffer-size 16384 --host-buffers 64)
	run="$SCN_OUT/$variant"
	SCN_DURING_RUN=start_disturber
	scn_run_rx "$run" capture
	kill "$DISTURBER" 2>/dev/null
	wait "$DISTURBER" 2>/dev/null
	scn_report "$run" "$RATE" 64 16384 4
	check_eq "$SCN_HOST_RC/$SCN_FPGA_RC" 0/0 "$variant: dgrdma-host rx and dgrdma-fpga exit 0"
	check_eq "$(jq -r '.threads.rx.cpus' "$run/host.json")" "$(printf '0x%x' $((1 << cpu)))" \
		"$variant: the stack's receive thread ran on CPU $cpu only"
	p999+=("$(jq -r '.wire.rx.latency_ns.p999' "$run/report.json")")
	diag "$variant: $(jq -r '.regime.label + ": " + .regime.reason' "$run/report.json")"
	diag "$variant: wire latency p50 $(jq -r '.wire.rx.latency_ns.p50' "$run/report.json") ns," \
		"p99.9 ${p999[-1]} ns, max $(jq -r '.wire.rx.latency_ns.max' "$run/report.json") ns;" \
		"emulator dropped_samples $(jnum "$run/fpga.json" dropped_samples)"
done

run="$SCN_OUT/pinned-with-disturber"
check_eq "$(jq -r '.regime.label' "$run/report.json")" jitter-bound "disturbed: latency-report verdict jitter-bound"
check "disturbed: the report recommends cpusets" \
	jq -e '.regime.mitigations | any(test("cpuset"))' "$run/report.json"
check "disturbed: the report recommends real-time priority" \
	jq -e '.regime.mitigations | any(test("SCHED_FIFO"))' "$run/report.json"
diag "p99.9 with the stack on the disturber's CPU: ${p999[0]} ns; pinned away from it: ${p999[1]} ns"
check "mitigation (stack pinned away from the disturber) lowers p99.9: ${p999[0]} -> ${p999[1]} ns" \
	test "${p999[1]}" -lt "${p999[0]}"
done_testing
