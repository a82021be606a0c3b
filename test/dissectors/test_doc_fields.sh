#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every Wireshark display-filter field and preference name the documentation writes
# (README.md and docs/, names that start with dgrdma. or dcp.) exists in tshark with the
# plugin loaded: a field in `tshark -G fields` (expert info included) or a preference in
# `tshark -G defaultprefs`. File names (dgrdma.so, dcp.c, ...) are not names.
# make check: compute only
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/dissectors/lib-tshark.sh"

if ! command -v tshark >/dev/null; then
	skip "tshark is not installed"
	done_testing
	exit 0
fi
dissector_setup || exit 1
ts -G fields 2>"$DT/fields.err" | awk -F'\t' '$1 == "F" || $1 == "P" { print $3 }' |
	sort -u >"$DT/fields"
ts -G defaultprefs 2>"$DT/prefs.err" | sed -n 's/^#\{0,1\}\([a-z0-9_]*\.[a-z0-9_.]*\):.*/\1/p' |
	sort -u >"$DT/prefs"
check "tshark lists the plugin's fields ($(grep -c '^dgrdma\.' "$DT/fields") dgrdma.*)" \
	grep -qx dgrdma.analysis.doorbell_latency "$DT/fields"
check "and its preferences" grep -qx dgrdma.analyze "$DT/prefs"

cd "$DGR_SRC" || exit 1
# name FILE:LINE, every dgrdma.* and dcp.* name written in the docs
mapfile -t docs < <(find docs -name '*.md' | sort)
grep -noE '\b(dgrdma|dcp)\.[A-Za-z0-9_.]*[A-Za-z0-9_]' README.md "${docs[@]}" | grep -vE '\.(c|h|so|md|1|pc|json|sh|gp|map|mk|txt|conf|py)$' |
	awk -F: '{ print $3 " " $1 ":" $2 }' | sort -k1,1 >"$DT/written"
n=$(cut -d' ' -f1 "$DT/written" | sort -u | wc -l)
check "the docs write Wireshark names ($n distinct)" test "$n" -gt 20
unknown=$(cut -d' ' -f1 "$DT/written" | sort -u | comm -23 - "$DT/fields" | comm -23 - "$DT/prefs")
where=""
for u in $unknown; do
	where="$where $(awk -v u="$u" '$1 == u { print $1 " (" $2 ")"; exit }' "$DT/written")"
done
check_eq "${where# }" "" "every dgrdma.* and dcp.* name in README.md and docs/ is a field or a preference"
# the check itself: a name that does not exist is found
printf 'dgrdma.expert.alignment\n' | comm -23 - "$DT/fields" | comm -23 - "$DT/prefs" >"$DT/neg"
check_eq "$(cat "$DT/neg")" "dgrdma.expert.alignment" "a name the plugin does not register is reported"
done_testing
