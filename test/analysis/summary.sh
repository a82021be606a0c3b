#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# latency-report's summary screen (docs/analysis.md, "The summary screen"): the text report opens
# with it and then the details; --brief prints only it, as text or JSON; its verdict, reason,
# losses and first actions are the full report's own, on generated captures of each regime.
# make check: compute only
set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/lib/report_text.sh"
GEN="$DGR_BUILD/bin/dgrdma-gen"
LR="$DGR_BUILD/bin/latency-report"
tmp=$(mktemp -d "$DGR_BUILD/analysis-summary.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The facts that make the tolerable latency known: 4 FPGA buffers at 100 MS/s of 4-byte samples.
FACTS=(--fpga-buffers 4 --sample-rate 100e6)

for profile in healthy jitter throughput; do
	cap=$tmp/$profile.pcapng
	if ! "$GEN" -o "$cap" -e "$tmp/$profile.expect.json" --profile "$profile" --txns 2000 \
		--seq-start 100 2>"$tmp/gen.err"; then
		bail "dgrdma-gen --profile $profile: $(head -c 300 "$tmp/gen.err")"
	fi
	"$LR" --no-progress "${FACTS[@]}" "$cap" >"$tmp/$profile.txt" 2>"$tmp/$profile.err"
	check_eq "$?" 0 "$profile: the text report exits 0"
	"$LR" --no-progress --json "${FACTS[@]}" "$cap" >"$tmp/$profile.json"
	"$LR" --no-progress --brief "${FACTS[@]}" "$cap" >"$tmp/$profile.brief.txt"
	check_eq "$?" 0 "$profile: --brief exits 0"
	"$LR" --no-progress --brief --json "${FACTS[@]}" "$cap" >"$tmp/$profile.brief.json"
	check_eq "$?" 0 "$profile: --brief --json exits 0"
	label=$(jq -r .regime.label "$tmp/$profile.json")

	# the answer first: "Summary", its verdict, then "Details" and the full report
	check_eq "$(sed -n '1p;2p' "$tmp/$profile.txt" | paste -sd '|')" "Summary|  verdict: $label" \
		"$profile: the text report opens with the summary and the verdict ($label)"
	check_eq "$(grep -n -m1 '^Details$' "$tmp/$profile.txt" | cut -d: -f1)" \
		"$(($(wc -l <"$tmp/$profile.brief.txt") + 1))" \
		"$profile: the details start right after the summary, which is --brief's output"
	check_eq "$(head -n "$(wc -l <"$tmp/$profile.brief.txt")" "$tmp/$profile.txt" | md5sum)" \
		"$(md5sum <"$tmp/$profile.brief.txt")" "$profile: --brief prints the full report's summary, line for line"
	check_eq "$(grep -c 'nearest-rank' "$tmp/$profile.brief.txt")" 0 \
		"$profile: no percentile header before the answer"
	# --advise's cures by cause: a capture alone has no trace to find the causes in, said under
	# the heading (it stood over nothing)
	check_eq "$("$LR" --no-progress --advise --brief "${FACTS[@]}" "$cap" 2>/dev/null | first_cure_by_cause)" \
		"    - none: no trace to find the stalls' causes in" \
		"$profile: --advise says why it has no cure by cause"
	# (an empty "path_from_trace: " and a disagreements heading over nothing were printed)
	check_eq "$(empty_lines "$tmp/$profile.txt")" 0 \
		"$profile: the text has no empty value and no heading over nothing (path, DCP responses, disagreements)"

	# --brief --json: the summary's keys only, with the full JSON report's values
	check_eq "$(jq -c 'keys' "$tmp/$profile.brief.json")" '["summary"]' \
		"$profile: --brief --json holds the summary only"
	check_eq "$(jq -n -c --slurpfile b "$tmp/$profile.brief.json" --slurpfile f "$tmp/$profile.json" '
		$b[0].summary as $s | $f[0] as $r |
		[$s.verdict == $r.regime.label, $s.summary == $r.regime.summary,
		 $s.reason == $r.regime.reason, $s.any_loss == $r.losses.any,
		 $s.actions == $r.regime.mitigations[:3],
		 ($s.headroom_rate_factor // null) == (if $r.regime.headroom.known then $r.regime.headroom.rate_factor else null end)]')" \
		'[true,true,true,true,true,true]' \
		"$profile: --brief --json: verdict, summary, reason, loss, first actions and headroom are the full report's"
	check "$profile: the full JSON report has no summary object (its content is unchanged)" \
		jq -e 'has("summary") | not' "$tmp/$profile.json"
done

check_eq "$(jq -r .summary.verdict "$tmp/healthy.brief.json") $(jq -r .summary.verdict "$tmp/jitter.brief.json") $(jq -r .summary.verdict "$tmp/throughput.brief.json")" \
	"healthy jitter-bound throughput-bound" "each profile's summary gives its regime"
# dgrdma-gen's host sends ACK-only frames to the FPGA: a finding with a cure, so even a healthy
# verdict's actions start with that cure and never say "none needed" beside it (a real run of the
# stack, which sends none, says "none needed": test/scenarios/healthy.sh)
check_eq "$(jq -r '[.summary.findings[0], .summary.actions[0], (.summary.actions | map(select(startswith("none needed"))) | length)] | join("|")' "$tmp/healthy.brief.json")" \
	"$(jq -r '"\(.ack_only_to_fpga.padded) ACK-only frames to the FPGA, which its frame parser misreads (full report: \"ACK-only frames to the FPGA\")"' "$tmp/healthy.json")|send no ACK-only frame to the FPGA: its frame parser misreads them (dgrdma-host --peer-kind fpga, the default; another host: carry ACKs only on frames with messages)|0" \
	"healthy with the ACK-only finding: its cure is the first action, no 'none needed' beside it"
check_eq "$(jq -r '.summary.losses' "$tmp/healthy.brief.json")" "none" "healthy: no loss in the summary"

# a capture with losses: every third frame left out, and discontinuities
"$GEN" -o "$tmp/lossy.pcapng" -e "$tmp/lossy.expect.json" --txns 300 --mtu 1500 --drop-every 50 \
	--discontinuity-every 25 --seq-start 100 2>"$tmp/gen.err" || bail "dgrdma-gen lossy: $(head -c 300 "$tmp/gen.err")"
"$LR" --no-progress --json "${FACTS[@]}" "$tmp/lossy.pcapng" >"$tmp/lossy.json"
"$LR" --no-progress --brief "${FACTS[@]}" "$tmp/lossy.pcapng" >"$tmp/lossy.brief.txt"
want=$(jq -r '"  losses: \(.losses.wire_discontinuities) discontinuities on the wire (the ADC dropped), \(.losses.wire_incomplete_transactions) incomplete transactions on the wire"' "$tmp/lossy.json")
check_eq "$(grep '^  losses: ' "$tmp/lossy.brief.txt")" "$want" \
	"a lossy capture: the summary's loss line has the loss account's numbers"
check "a lossy capture: both losses are there" jq -e '.losses.wire_discontinuities > 0 and .losses.wire_incomplete_transactions > 0' "$tmp/lossy.json"

# --brief is a flag: a value is refused, by name
"$LR" --brief=yes "$tmp/healthy.pcapng" >/dev/null 2>"$tmp/flag.err"
check_eq "$? $(cat "$tmp/flag.err")" "2 latency-report: --brief takes no value" "--brief=yes: exit 2, the option named"
done_testing
