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
# one awk for every field (a grep each was 144 processes)
missing=$(awk -v fields="$fields" '
	{ doc = doc $0 "\n" }
	END {
		n = split(fields, line, "\n")
		for (i = 1; i <= n; i++) {
			split(line[i], word, " ")
			key = word[1]
			leaf = key
			sub(/.*\./, "", leaf)
			if (!index(doc, "`" leaf "`") && !index(doc, "`" key "`")) {
				missing = missing " " key
			}
		}
		print missing
	}' "$DGR_SRC/docs/run-json.md" "$DGR_SRC/docs/tracepoints.md")
check_eq "${missing# }" "" "each of the table's $n fields is named in docs/run-json.md or docs/tracepoints.md"

# the paths of the old files, array indexes and the insides of maps and tools' objects left out;
# one jq for all the files, which knows the table's fields (a grep a path was 270 processes)
known=$(awk '{ print $1 }' <<<"$fields" | jq -R . | jq -s .)
opaque=$(awk '$2 == "map" || $2 == "tool-object" || $2 == "clock" { print $1 }' <<<"$fields" | jq -R . | jq -s .)
unknown=$(jq -r --argjson known "$known" --argjson opaque "$opaque" '
	(input_filename | sub(".*/"; "")) as $file
	| [paths] | map(map(select(type == "string")) | join("."))
	| unique[] | select(. != "")
	| select(. as $p | $opaque | any(. as $o | $p | startswith($o + ".")) | not)
	| select(. as $p | $known | index([$p]) | not)
	| "\($file):\(.)"' "$DGR_SRC"/test/tracepoints/runjson-jq/*.json | tr '\n' ' ')
check_eq "${unknown% }" "" "every path of the jq writer's run.json files is a field of the table"
done_testing
