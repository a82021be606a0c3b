#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Headers-only captures: a generated capture cut with `editcap -s N` at the snap
# length that keeps every header the analysis needs (docs/analysis.md, "Truncated
# frames") gives exactly the whole capture's answer, for latency-report (its --json
# but the input list and the snap counters) and for the plugin's dgrdma,latency tap;
# the first fragments the snap cuts are found by their second (eng_snap_cut).
# make check: compute only
set -u
source "$DGR_SRC/test/lib/tap.sh"
source "$DGR_SRC/test/dissectors/lib-tshark.sh"

for t in tshark editcap jq; do
	if ! command -v "$t" >/dev/null; then
		skip "headers-only captures" "$t not installed"
		done_testing
		exit 0
	fi
done
GEN="$DGR_BUILD/bin/dgrdma-gen"
LR="$DGR_BUILD/bin/latency-report"
dissector_setup || bail "no work folder"
# shellcheck disable=SC2016
NOSNAP='del(.inputs) | del(.capture.truncated_frames, .capture.snap_cut_frames, .capture.snap_cut_fragments)'

# case NAME SNAP FRAGMENTS GEN-ARGS...: the capture cut at SNAP bytes gives the whole
# capture's answer; FRAGMENTS first fragments were found in cut bytes (any: not counted).
case_() {
	local name="$1" snap="$2" frags="$3"
	shift 3
	"$GEN" -o "$DT/$name.pcapng" -e "$DT/$name.exp.json" "$@" 2>"$DT/$name.gen.err" ||
		bail "$name: dgrdma-gen: $(cat "$DT/$name.gen.err")"
	editcap -s "$snap" "$DT/$name.pcapng" "$DT/$name.cut.pcapng" ||
		bail "$name: editcap -s $snap"
	"$LR" --json --no-progress "$DT/$name.pcapng" >"$DT/$name.json" 2>"$DT/$name.err" ||
		bail "$name: latency-report on the whole capture: $(cat "$DT/$name.err")"
	"$LR" --json --no-progress "$DT/$name.cut.pcapng" >"$DT/$name.cut.json" 2>"$DT/$name.cut.err" ||
		bail "$name: latency-report on the cut capture: $(cat "$DT/$name.cut.err")"
	# what the checks read of the cut capture's report, of dgrdma-gen's answer and whether the
	# two reports are equal but for NOSNAP's keys, in one jq (a start costs 30 ms)
	local cut cut_frags cut_incomplete exp_incomplete same
	IFS=$'\t' read -r cut cut_frags cut_incomplete exp_incomplete same < <(jq -n -r \
		--slurpfile w "$DT/$name.json" --slurpfile c "$DT/$name.cut.json" \
		--slurpfile e "$DT/$name.exp.json" "[\$c[0].capture.truncated_frames > 0,
			\$c[0].capture.snap_cut_fragments, \$c[0].wire.rx.incomplete_transactions,
			\$e[0].wire.rx.incomplete_transactions,
			((\$w[0] | $NOSNAP) == (\$c[0] | $NOSNAP))] | map(tostring) | join(\"\t\")")
	check_eq "$cut" true "$name: the snap length $snap cuts frames"
	if [ "$frags" != any ]; then
		check_eq "$cut_frags" "$frags" "$name: first fragments found in cut bytes"
	fi
	check_eq "$cut_incomplete" "$exp_incomplete" \
		"$name: incomplete transactions as dgrdma-gen's answer for the whole capture"
	if [ "$same" = true ]; then
		ok "$name: latency-report gives the whole capture's answer at snap $snap"
	else
		not_ok "$name: latency-report gives the whole capture's answer at snap $snap"
		diag "$(diff <(jq -S "$NOSNAP" "$DT/$name.json") <(jq -S "$NOSNAP" "$DT/$name.cut.json") |
			head -20)"
	fi
	ts -r "$name.pcapng" -q -z dgrdma,latency >"$DT/$name.tap" 2>&1
	ts -r "$name.cut.pcapng" -q -z dgrdma,latency >"$DT/$name.cut.tap" 2>&1
	if grep -q '^  transactions' "$DT/$name.tap" && diff "$DT/$name.tap" "$DT/$name.cut.tap" \
		>"$DT/$name.tap.diff"; then
		ok "$name: the plugin's tap gives the whole capture's answer at snap $snap"
	else
		not_ok "$name: the plugin's tap gives the whole capture's answer at snap $snap"
		diag "$(head -20 "$DT/$name.tap.diff")"
	fi
}

# Two transactions coalesced per frame: every second transaction's first fragment
# lies after the first transaction's data, beyond any headers-only snap length.
# The snap lengths are the link and network headers + the 10-byte frame header + 24
# bytes per doorbell a frame may carry (docs/analysis.md).
COMMON=(--txns 300 --bytes 12000 --buffers 16 --coalesce-txns 2)
case_ udp4 $((14 + 20 + 8 + 2 + 10 + 24)) 150 --transport udp --mtu 8970 "${COMMON[@]}"
case_ udp6 $((14 + 40 + 8 + 2 + 10 + 24)) 150 --transport udp6 --mtu 8950 "${COMMON[@]}"
case_ ether $((14 + 10 + 24)) 150 --mtu 9000 "${COMMON[@]}"
case_ vlan $((18 + 10 + 24)) 150 --vlan 7 --mtu 9000 "${COMMON[@]}"
# four doorbells to a frame: the snap length keeps all four
case_ udp4-bells4 $((14 + 20 + 8 + 2 + 10 + 4 * 24)) 150 --transport udp --mtu 8970 \
	--coalesce-doorbells 4 "${COMMON[@]}"
# capture loss: the rule infers nothing across a lost frame, cut or not
case_ udp4-loss $((14 + 20 + 8 + 2 + 10 + 24)) any --transport udp --mtu 8970 --drop-every 97 \
	"${COMMON[@]}"

# A snap length that cuts coalesced doorbells says so: the answer is not the whole one.
"$GEN" -o "$DT/bells.pcapng" -e "$DT/bells.exp.json" --transport udp --coalesce-doorbells 4 \
	"${COMMON[@]}" 2>/dev/null && editcap -s 78 "$DT/bells.pcapng" "$DT/bells.cut.pcapng" ||
	bail "bells: dgrdma-gen, editcap"
"$LR" --json --no-progress "$DT/bells.cut.pcapng" >"$DT/bells.cut.json" 2>/dev/null
check_eq "$(jq -r '.capture.snap_cut_doorbell_frames > 0' "$DT/bells.cut.json")" true \
	"snap 78 with four doorbells to a frame: frames cut after a doorbell are counted"
check_eq "$(jq -r --argjson n "$(jq .capture.snap_cut_doorbell_frames "$DT/bells.cut.json")" \
	'[.summary.findings[] | select(. == "\($n) frames cut by the snap length after a doorbell: the doorbells after it were not seen (a larger snap length sees them)")] | length' \
	<("$LR" --brief --json --no-progress "$DT/bells.cut.pcapng" 2>/dev/null))" 1 \
	"and named among the summary's findings"
done_testing
