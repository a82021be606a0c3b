#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# latency-report --advise: the host settings (libdgrtune, issue 9) that matter for the verdict,
# checked against the tune part's fake roots (test/tune/fixtures).
set -u
. "$DGR_SRC/test/lib/tap.sh"
LR="$DGR_BUILD/bin/latency-report"
GEN="$DGR_BUILD/bin/dgrdma-gen"
FIX="$DGR_SRC/test/tune/fixtures"
tmp=$(mktemp -d "$DGR_BUILD/analysis-advise.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if [ ! -d "$FIX/untuned" ] || [ ! -d "$FIX/well-tuned" ]; then
	skip "tune fixtures missing"
	# A healthy run needs no setting changed: --advise lists none (the verdict says "none needed"),
# and counts the guide's settings that differ, for headroom
"$GEN" -o "$tmp/ok.pcapng" -e "$tmp/ok.json" --txns 1000 --buffers 16 --profile healthy >/dev/null
"$LR" --json --advise-root "$FIX/untuned" "$tmp/ok.pcapng" >"$tmp/e.json" 2>"$tmp/err"
check_eq "$(jq -r '[.regime.label, .advice.count, (.advice.items | length), .advice.not_needed > 0] | join(" ")' "$tmp/e.json")" \
	"healthy 0 0 true" "healthy capture on an untuned host: nothing to change listed, the differing settings counted"
"$LR" --advise-root "$FIX/untuned" "$tmp/ok.pcapng" >"$tmp/e.txt" 2>&1
check_eq "$(grep -c 'fix: sysctl' "$tmp/e.txt") $(grep -c 'the verdict is healthy and nothing stalled: no host setting needs to change' "$tmp/e.txt")" \
	"0 1" "and the text says why, with no fix command"
done_testing
	exit
fi
"$GEN" -o "$tmp/jitter.pcapng" -e "$tmp/j.json" --txns 1000 --buffers 16 --profile jitter >/dev/null
"$GEN" -o "$tmp/tput.pcapng" -e "$tmp/t.json" --txns 300 --buffers 8 --profile throughput >/dev/null

"$LR" --json --advise-root "$FIX/untuned" "$tmp/jitter.pcapng" >"$tmp/a.json" 2>"$tmp/err"
check_eq "$(jq -r '.regime.label, .advice.regime' "$tmp/a.json" | tr '\n' ' ')" "jitter-bound jitter-bound " \
	"jitter-bound capture: advice for the jitter-bound regime"
check_eq "$(jq -r '[.advice.items[].id] | (index("vm.dirty_background_bytes") != null) and (index("cpuset.shield") != null)' "$tmp/a.json")" \
	true "untuned host, jitter-bound: writeback and cpuset shield are listed"
check_eq "$(jq -r '.advice.count == (.advice.items | length) and .advice.count > 0' "$tmp/a.json")" true \
	"the count equals the items listed"
"$LR" --json --advise-root "$FIX/well-tuned" "$tmp/jitter.pcapng" >"$tmp/b.json" 2>"$tmp/err"
check_eq "$(jq -r '.advice.count' "$tmp/b.json")" 0 "well-tuned host, jitter-bound: nothing to change"
"$LR" --json --advise-root "$FIX/untuned" "$tmp/tput.pcapng" >"$tmp/c.json" 2>"$tmp/err"
check_eq "$(jq -r '.regime.label' "$tmp/c.json") $(jq -r '[.advice.items[].id] | index("vm.dirty_background_bytes") == null' "$tmp/c.json")" \
	"throughput-bound true" "throughput-bound: jitter-only settings (writeback) are not listed"
"$LR" --advise-root "$FIX/untuned" "$tmp/jitter.pcapng" >"$tmp/d.txt" 2>&1
check_eq "$(grep -c 'fix: sysctl -w vm.dirty_background_bytes=' "$tmp/d.txt")" 1 "the text report gives the fix command"
# A healthy run needs no setting changed: --advise lists none (the verdict says "none needed"),
# and counts the guide's settings that differ, for headroom
"$GEN" -o "$tmp/ok.pcapng" -e "$tmp/ok.json" --txns 1000 --buffers 16 --profile healthy >/dev/null
"$LR" --json --advise-root "$FIX/untuned" "$tmp/ok.pcapng" >"$tmp/e.json" 2>"$tmp/err"
check_eq "$(jq -r '[.regime.label, .advice.count, (.advice.items | length), .advice.not_needed > 0] | join(" ")' "$tmp/e.json")" \
	"healthy 0 0 true" "healthy capture on an untuned host: nothing to change listed, the differing settings counted"
"$LR" --advise-root "$FIX/untuned" "$tmp/ok.pcapng" >"$tmp/e.txt" 2>&1
check_eq "$(grep -c 'fix: sysctl' "$tmp/e.txt") $(grep -c 'the verdict is healthy and nothing stalled: no host setting needs to change' "$tmp/e.txt")" \
	"0 1" "and the text says why, with no fix command"
done_testing
