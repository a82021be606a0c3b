#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# latency-report's percentiles past the exact limit (--exact-limit, docs/analysis.md,
# "Statistics"): on a generated jitter run, a limit below the doorbell count gives p50..p99.9
# from the log-linear histogram within 1/2048 of the exact ones, says so in the JSON and the
# text, and leaves every other statistic and the verdict's counts as the exact run's; the
# default limit keeps the report exact with none of the three keys; bad values are refused.
# make check: compute only
set -u
. "$DGR_SRC/test/lib/tap.sh"
GEN="$DGR_BUILD/bin/dgrdma-gen"
LR="$DGR_BUILD/bin/latency-report"
tmp=$(mktemp -d "$DGR_BUILD/analysis-percentiles.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
FACTS=(--fpga-buffers 4 --sample-rate 100e6)

"$GEN" -o "$tmp/j.pcapng" -e "$tmp/j.expect.json" --profile jitter --txns 3000 2>"$tmp/gen.err" ||
	bail "dgrdma-gen: $(head -c 300 "$tmp/gen.err")"
"$LR" --no-progress --json "${FACTS[@]}" "$tmp/j.pcapng" >"$tmp/exact.json"
check_eq "$?" 0 "default limit: exit 0"
"$LR" --no-progress --json "${FACTS[@]}" --exact-limit 2999 "$tmp/j.pcapng" >"$tmp/hist.json"
check_eq "$?" 0 "--exact-limit 2999 (3000 doorbells): exit 0"
"$LR" --no-progress "${FACTS[@]}" --exact-limit=2999 "$tmp/j.pcapng" >"$tmp/hist.txt"
check_eq "$?" 0 "--exact-limit=2999, text: exit 0"

L=.wire.rx.latency_ns
check_eq "$(jq -c "$L | [.percentiles, .percentile_relative_error, .exact_limit]" "$tmp/exact.json")" \
	"[null,null,null]" "exact: none of the histogram's keys"
check_eq "$(jq -c "$L | [.percentiles, .percentile_relative_error, .exact_limit]" "$tmp/hist.json")" \
	'["log-linear histogram",0.000488,2999]' "past the limit: the method, its bound and the limit said"
within=$(jq -r --slurpfile e "$tmp/exact.json" "$L"' as $h | $e[0]'"$L"' as $x |
	[("p50", "p90", "p99", "p999") | . as $k |
	 (($h[$k] - $x[$k]) | if . < 0 then -. else . end) * 2048 <= $x[$k]] | all' "$tmp/hist.json")
check_eq "$within" true "p50, p90, p99, p99.9 within 1/2048 of the exact ones"
check_eq "$(jq -c "$L | [.count, .min, .max, .mean, .above_tolerable, .time_above_tolerable_fraction, .histogram]" "$tmp/hist.json")" \
	"$(jq -c "$L | [.count, .min, .max, .mean, .above_tolerable, .time_above_tolerable_fraction, .histogram]" "$tmp/exact.json")" \
	"count, min, max, mean, above T, time above T, log2 histogram: the exact run's"
check_eq "$(jq -c '.regime | [.label, .high_episodes, .longest_episode, .high_doorbells]' "$tmp/hist.json")" \
	"$(jq -c '.regime | [.label, .high_episodes, .longest_episode, .high_doorbells]' "$tmp/exact.json")" \
	"the verdict and its episode counts: the exact run's"
check_eq "$(grep -cE '^ +(percentiles: log-linear histogram|relative error at most: 0\.000488|exact up to \(doorbells\): 2999)$' "$tmp/hist.txt")" 3 \
	"the text report says the method, the bound and the limit"
for bad in 0 4294967297 1.5 many; do
	"$LR" --no-progress --exact-limit "$bad" "$tmp/j.pcapng" >/dev/null 2>"$tmp/bad.err"
	rc=$?
	if [ "$rc" = 2 ] && grep -q -- "--exact-limit" "$tmp/bad.err" && grep -q "1\.\.4294967296\|number" "$tmp/bad.err"; then
		ok "--exact-limit $bad: refused, exit 2, named"
	else
		not_ok "--exact-limit $bad: refused, exit 2, named (exit $rc: $(head -c 200 "$tmp/bad.err"))"
	fi
done
done_testing
