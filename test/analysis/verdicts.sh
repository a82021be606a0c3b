#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# latency-report's verdicts a user acts on (issue 19): the tolerable latency at the edges of the
# option ranges, TX generated captures judged on FPGA buffer occupancy, the summary line, the
# run's status and losses, and the exit statuses of latency-report and dgrdma-plot
# (docs/analysis.md, "Exit status").
set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/lib/json.sh"
LR="$DGR_BUILD/bin/latency-report"
PLOT="$DGR_BUILD/bin/dgrdma-plot"
GEN="$DGR_BUILD/bin/dgrdma-gen"
tmp=$(mktemp -d "$DGR_BUILD/analysis-verdicts.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$GEN" -o "$tmp/rx.pcapng" -e "$tmp/rx.json" --txns 400 --buffers 8 >/dev/null
"$GEN" -o "$tmp/jit.pcapng" -e "$tmp/jit.json" --txns 400 --buffers 8 --profile jitter >/dev/null

# The issue's command line with each value at the top of its range (--fpga-buffers is 2..64 since
# issue 21): the product (3.4e19 ns) saturates at 1e18 ns instead of wrapping into an estimate.
"$LR" --json --no-progress --sample-rate 1 --host-buffers 65535 --fpga-buffers 64 --buffer-size 2M \
	"$tmp/rx.pcapng" >"$tmp/max.json" 2>"$tmp/err"
check_eq "$? $(jq -r '[.run.tolerable_source, .wire.rx.latency_ns.tolerable == 1e18, .regime.headroom.buffers_needed] | join(" ")' "$tmp/max.json")" \
	"0 options true 1" "largest pool at 1 sample/s: T saturates at 1e18 ns (no estimate), 1 buffer needed"
# the other corner: 1 + 2 buffers of 1 byte at 1e10 samples/s is 0.075 ns, read as 1 ns (not unknown)
"$LR" --json --no-progress --sample-rate 1e10 --host-buffers 1 --fpga-buffers 2 --buffer-size 1 \
	"$tmp/rx.pcapng" >"$tmp/min.json" 2>"$tmp/err"
check_eq "$? $(jq -r '[.run.tolerable_source, .wire.rx.latency_ns.tolerable, .regime.label] | join(" ")' "$tmp/min.json")" \
	"0 options 1 throughput-bound" "smallest pool at 1e10 samples/s: T is 1 ns (not unknown), every doorbell past it"
check_eq "$(jq -r '.regime.headroom | [.known, .buffers_needed > 1e5, .rate_factor < 1e-5] | join(" ")' "$tmp/min.json")" \
	"true true true" "smallest pool: hundreds of thousands of 1-byte buffers needed, a factor far below 1, no overflow"

# RX: shape, headroom and the summary, in text and JSON from the same code
"$LR" --json --no-progress --host-buffers 8 --fpga-buffers 2 --buffer-size 8192 --sample-rate 100e6 \
	"$tmp/jit.pcapng" >"$tmp/jit.out"
"$LR" --no-progress --host-buffers 8 --fpga-buffers 2 --buffer-size 8192 --sample-rate 100e6 \
	"$tmp/jit.pcapng" >"$tmp/jit.txt"
want_max=$(jq -r '.wire.rx.latency_ns.max' "$tmp/jit.json")
# a report's several values in one jq (json_exprs, test/lib/json.sh)
json_exprs JIT "$tmp/jit.out" \
	shape '.regime | [.label, .shape.kind, .shape.stalls, .shape.largest_stall_ns, .headroom.worst_stall_ns] | join(" ")' \
	summary .regime.summary
check_eq "${JIT[shape]}" \
	"jitter-bound spiky 8 $want_max $want_max" "generated jitter: spiky, 8 stalls (dgrdma-gen's bursts, 1 in 50), the largest = the max latency"
# T = (8 + 2) x 8 KiB / 400 MB/s = 204.8 us; 81920 B / worst = lossless rate
check_eq "$(jq -r --argjson w "$want_max" '.regime.headroom | [.buffers, .rate_bytes, (.lossless_rate_bytes - 81920e9 / $w | fabs < 1), .buffers_needed == ($w * 400e6 / 8192e9 | ceil)] | join(" ")' "$tmp/jit.out")" \
	"10 400000000 true true" "headroom: (N_c + N_p) x S / worst, and ceil(worst x R / S) buffers"
check_eq "$(grep -c "^  summary: ${JIT[summary]}$" "$tmp/jit.txt")" 1 "the text report carries the same summary line"
check "summary: ${JIT[summary]}" \
	grep -q '^jitter-bound; 8 stalls up to [0-9.]* ms, [0-9.]*% of the tolerable latency; the worst stall needs [0-9]* buffers at this rate (has 10): lossless only up to about 0.[0-9]*x this rate$' <<<"${JIT[summary]}"

# TX generated captures, judged on the FPGA's buffer occupancy. dgrdma-gen's producer never refills
# a buffer before its doorbell: doorbells held 60 x the producer's period keep all 8 buffers
# queued (the DAC is the bottleneck: healthy on TX, though the latency is high); doorbells back
# within half a period leave the queue empty between transactions (a producer slower than the DAC).
"$GEN" -o "$tmp/txq.pcapng" -e "$tmp/txq.json" --dir tx --txns 400 --buffers 8 --profile throughput >/dev/null
"$GEN" -o "$tmp/txs.pcapng" -e "$tmp/txs.json" --dir tx --txns 400 --buffers 8 --profile healthy >/dev/null
"$LR" --json --no-progress "$tmp/txq.pcapng" >"$tmp/txq.out"
"$LR" --json --no-progress "$tmp/txs.pcapng" >"$tmp/txs.out"
json_exprs TXQ "$tmp/txq.out" \
	regime '[.regime.series, .regime.label, .regime.tx.fpga_buffers, .regime.tx.max_outstanding, .regime.tx.empty_episodes] | join(" ")' \
	p50 '.wire.tx.latency_ns | .p50 > .tolerable / 2'
json_exprs TXS "$tmp/txs.out" \
	regime '[.regime.series, .regime.label, .regime.tx.max_outstanding, .regime.tx.empty_episodes] | join(" ")' \
	cures '[.regime.mitigations[] | select(test("faster producer"))] | length' \
	shape '[.regime | has("shape"), .headroom.known] | join(" ")'
check_eq "${TXQ[regime]}" \
	"wire.tx healthy 8 8 0" "TX, doorbells held by a full queue: healthy, 8 of 8 buffers, never empty"
check_eq "${TXQ[p50]}" true \
	"TX, the same capture: p50 above half the (estimated) tolerable latency, which RX rules call throughput-bound"
check_eq "${TXS[regime]}" \
	"wire.tx throughput-bound 1 399" "TX, each doorbell back before the next send: throughput-bound, empty between all 400"
check_eq "${TXS[cures]}" 1 \
	"TX throughput-bound: the guide's cure is a faster producer, not a faster consumer"
check_eq "${TXS[shape]}" "false false" \
	"TX: no latency shape (the latency is the DAC's queue), no headroom without the DAC's rate"
# with the rate: the host's worst answer to a doorbell against the N - 1 buffers still queued
"$LR" --json --no-progress --sample-rate 100e6 --host-buffers 8 --buffer-size 8192 --fpga-buffers 8 \
	"$tmp/txq.pcapng" >"$tmp/txq-r.out"
check_eq "$(jq -r '.regime | [.headroom.known, .headroom.buffers, .headroom.worst_stall_ns == .tx.worst_refill_ns, .tx.refills > 300] | join(" ")' "$tmp/txq-r.out")" \
	"true 7 true true" "TX with the rate: headroom from the worst refill, 7 buffers of slack"

# The vicious cycle: isolated discontinuities (1 in 20) are drops, not a cycle; every other
# transaction a discontinuity is (half the pool spent on them), with the guide's cure first.
"$GEN" -o "$tmp/d20.pcapng" -e "$tmp/d20.json" --txns 200 --discontinuity-every 20 >/dev/null
"$GEN" -o "$tmp/d2.pcapng" -e "$tmp/d2.json" --txns 200 --discontinuity-every 2 >/dev/null
"$LR" --json --no-progress "$tmp/d20.pcapng" >"$tmp/d20.out"
"$LR" --json --no-progress "$tmp/d2.pcapng" >"$tmp/d2.out"
check_eq "$(jq -r '.regime.vicious_cycle | [.found, .discontinuities, .longest_run] | join(" ")' "$tmp/d20.out")" \
	"false 10 1" "one discontinuity in 20: 10 drops, no vicious cycle"
json_exprs D2 "$tmp/d2.out" \
	cycle '.regime.vicious_cycle | [.found, .discontinuities, .transactions_after, .tolerable_after_ns < .tolerable_ns] | join(" ")' \
	cures '[(.regime.mitigations[0] | test("^send no ACK-only frame to the FPGA")), (.regime.mitigations[1] | test("^set report_data_loss=false")), ([.regime.mitigations[] | select(test("none needed"))] | length)] | join(" ")'
check_eq "${D2[cycle]}" \
	"true 100 199 true" "every other transaction a discontinuity: the vicious cycle, the tolerable latency left for samples shrunk"
# (dgrdma-gen's host sends ACK-only frames to the FPGA: that finding's cure goes before it)
check_eq "${D2[cures]}" \
	"true true 0" "the cure comes first after the ACK-only finding's, and no 'none needed' beside it"

# Exit statuses: 0 report, 1 a --fail-on finding, 2 bad usage or unreadable input, 3 a failed run.
"$LR" --no-progress "$tmp/jit.pcapng" >/dev/null
check_eq "$?" 0 "a jitter-bound capture without --fail-on: exit 0"
"$LR" --no-progress --fail-on jitter-bound "$tmp/jit.pcapng" >/dev/null
check_eq "$?" 1 "--fail-on jitter-bound on a jitter-bound capture: exit 1"
"$LR" --no-progress --fail-on throughput-bound,unknown "$tmp/jit.pcapng" >/dev/null
check_eq "$?" 0 "--fail-on throughput-bound,unknown on a jitter-bound capture: exit 0"
"$LR" --no-progress --fail-on not-healthy "$tmp/rx.pcapng" >/dev/null
check_eq "$?" 0 "--fail-on not-healthy on a healthy capture: exit 0"
"$GEN" -o "$tmp/disc.pcapng" -e "$tmp/disc.json" --txns 200 --discontinuity-every 50 >/dev/null
"$LR" --no-progress --fail-on loss "$tmp/disc.pcapng" >/dev/null
check_eq "$?" 1 "--fail-on loss with discontinuities on the wire: exit 1"
"$LR" --no-progress --fail-on loss "$tmp/rx.pcapng" >/dev/null
check_eq "$?" 0 "--fail-on loss without any: exit 0"
"$LR" --no-progress --fail-on sometimes "$tmp/rx.pcapng" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c "'sometimes' is not jitter-bound, throughput-bound, unknown, not-healthy or loss" "$tmp/err")" \
	"2 1" "a bad --fail-on word is named with the accepted ones, exit 2"
"$LR" --no-progress "$tmp/none.pcapng" >/dev/null 2>&1
check_eq "$?" 2 "a missing input: exit 2"

# A run folder whose recorded command failed (dgrdma-host exits 3 when it stalls): reported with
# what it has, marked failed, exit 3; the same for dgrdma-plot, which still draws it.
mkdir -p "$tmp/failed" "$tmp/ended"
cp "$tmp/jit.pcapng" "$tmp/failed/capture.pcapng"
cp "$tmp/jit.pcapng" "$tmp/ended/capture.pcapng"
run_json() { # EXIT_STATUS INTERRUPTED: a dgrdma-run/1 run.json of a dgrdma-host rx
	printf '{"format": "dgrdma-run/1", "command": ["dgrdma-host", "rx"], "exit_status": %s, "interrupted": %s}\n' "$1" "$2"
}
run_json 3 false >"$tmp/failed/run.json"
run_json 0 false >"$tmp/ended/run.json"
"$LR" --json --no-progress "$tmp/failed" >"$tmp/failed.out"
check_eq "$? $(jq -r '[.status.run, .status.exit_status] | join(" ")' "$tmp/failed.out")" "3 failed 3" \
	"a run whose command exited 3: status failed, exit 3"
check "the failed run's summary says so first" grep -q '^RUN FAILED (the recorded command exited 3); jitter-bound; ' \
	<<<"$(jq -r .regime.summary "$tmp/failed.out")"
"$LR" --json --no-progress "$tmp/ended" >"$tmp/ended.out"
check_eq "$? $(jq -r '.status.run' "$tmp/ended.out")" "0 ok" "the same run ended normally: status ok, exit 0"
# dgrdma-host's 1 is a finding (--max-drop-rate exceeded): the stream ran to its end
run_json 1 false >"$tmp/ended/run.json"
"$LR" --json --no-progress "$tmp/ended" >"$tmp/finding.out"
check_eq "$? $(jq -r '.status.run' "$tmp/finding.out") $(jq -r '.status.reason' "$tmp/finding.out" | grep -c 'max-drop-rate')" "0 ok 1" \
	"a command that exited 1 (a finding): status ok, the reason names --max-drop-rate, exit 0"
"$LR" --json --no-progress "$tmp/jit.pcapng" >"$tmp/cap.out"
check_eq "$(jq -r '.status.run' "$tmp/cap.out")" unknown "a capture alone: the run's status is unknown"
run_json 3 true >"$tmp/ended/run.json"
"$LR" --json --no-progress "$tmp/ended" >"$tmp/int.out"
check_eq "$? $(jq -r '.status.run' "$tmp/int.out")" "0 interrupted" "a capture the user interrupted: status interrupted, exit 0"
if command -v gnuplot >/dev/null; then
	"$PLOT" -o "$tmp/fplot" --kind latency --format svg "$tmp/failed" >/dev/null 2>"$tmp/err"
	check_eq "$? $(grep -c 'RUN FAILED' "$tmp/fplot/latency.svg") $(grep -c 'the run failed' "$tmp/err")" "3 1 1" \
		"dgrdma-plot on the failed run: the plot drawn and marked, the failure on stderr, exit 3"
	"$PLOT" -o "$tmp/nplot" --kind latency --format svg "$tmp/none.pcapng" >/dev/null 2>&1
	check_eq "$?" 2 "dgrdma-plot on a missing input: exit 2"
else
	skip "gnuplot not installed (make deps)"
fi
done_testing
