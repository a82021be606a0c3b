#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.json's table of fields (analysis/input/run_schema.c, printed by dgrdma-runinfo fields) and
# its documentation agree: every field is named in docs/run-json.md or docs/tracepoints.md, and
# every path of the run.json files the jq writer made (test/tracepoints/runjson-jq/) is a field
# of the table, or inside a map or a tool's own object.
# make check: compute only
. "$DGR_SRC/test/lib/tap.sh"

RUNINFO=$DGR_BUILD/bin/dgrdma-runinfo
require_built "$DGR_BUILD/bin" dgrdma-runinfo
fields=$("$RUNINFO" fields)
check_eq "$?" 0 "dgrdma-runinfo fields"
n=$(wc -l <<<"$fields")
missing=""
while read -r key _; do
	leaf=${key##*.}
	grep -qF -e "\`$leaf\`" -e "\`$key\`" "$DGR_SRC/docs/run-json.md" "$DGR_SRC/docs/tracepoints.md" ||
		missing="$missing $key"
done <<<"$fields"
check_eq "${missing# }" "" "each of the table's $n fields is named in docs/run-json.md or docs/tracepoints.md"

# the paths of the old files, array indexes and the insides of maps and tools' objects left out
unknown=""
for f in "$DGR_SRC"/test/tracepoints/runjson-jq/*.json; do
	while read -r path; do
		grep -q "^$path " <<<"$fields" || unknown="$unknown $(basename "$f"):$path"
	done < <(jq -r --argjson opaque "$(awk '$2 == "map" || $2 == "tool-object" || $2 == "clock" { print $1 }' <<<"$fields" | jq -R . | jq -s .)" '
		[paths] | map(map(select(type == "string")) | join("."))
		| unique[] | select(. != "")
		| select(. as $p | $opaque | any(. as $o | $p | startswith($o + ".")) | not)' "$f")
done
check_eq "${unknown# }" "" "every path of the jq writer's run.json files is a field of the table"
done_testing
