#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# latency-report --plot-columns N (docs/analysis.md, "Plots of long runs"): on generated jitter
# runs (one connection, and four whose doorbells interleave), each series' columns hold every
# doorbell once; each column's count, min and max are those of the doorbells of its span
# (from_s..to_s, computed here from doorbells.csv), its p50 and p99 within 1/64 of the exact
# nearest-rank ones; the histogram holds every doorbell in its bucket; --doorbell-rows cuts
# the per-doorbell rows without changing the columns; bad values are refused, named.
# make check: compute only
set -u
. "$DGR_SRC/test/lib/tap.sh"
GEN="$DGR_BUILD/bin/dgrdma-gen"
LR="$DGR_BUILD/bin/latency-report"
tmp=$(mktemp -d "$DGR_BUILD/analysis-plot-columns.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# exact_columns CSV COLUMNS DIR: for each row of COLUMNS, the doorbells of DIR (rx or tx) in
# CSV whose time lies in from_s..to_s: "count min max p50 p99" (nearest rank), a line each
exact_columns() {
	awk -F, -v d="$3" 'NR == FNR { if (FNR > 1) { from[FNR - 1] = $7; to[FNR - 1] = $8; n = FNR - 1 }; next }
		FNR > 1 && $3 == d {
			# the column whose span holds the doorbell (spans are in order: binary search)
			lo = 1; hi = n
			while (lo < hi) { m = int((lo + hi + 1) / 2); if ($1 + 0 >= from[m] + 0) lo = m; else hi = m - 1 }
			if ($1 + 0 >= from[lo] + 0 && $1 + 0 < to[lo] + 0) print lo, $2; else print 0, $2
		}' "$2" "$1" | sort -k1,1n -k2,2n |
		awk 'function flush() { if (c == "") return
				r50 = int((500 * k + 999) / 1000); r99 = int((990 * k + 999) / 1000)
				print c, k, v[1], v[k], v[r50 < 1 ? 1 : r50], v[r99 < 1 ? 1 : r99] }
			$1 != c { flush(); c = $1; k = 0 }
			{ v[++k] = $2 }
			END { flush() }'
}

# compare COLUMNS EXACT: the faults of COLUMNS' rows against EXACT's lines, one line each
compare() {
	awk -F'[, ]' 'NR == FNR { if (FNR > 1) { n[FNR - 1] = $6; mn[FNR - 1] = $2; mx[FNR - 1] = $5
			p50[FNR - 1] = $3; p99[FNR - 1] = $4; rows = FNR - 1 }; next }
		function off(got, want) { d = got - want; return (d < 0 ? -d : d) * 64 > want }
		$1 == 0 { print "a doorbell outside every column'"'"'s span"; next }
		{ seen[$1] = 1
		  if (n[$1] != $2) print "column " $1 ": " n[$1] " doorbells, " $2 " in its span"
		  if (mn[$1] != $3 || mx[$1] != $4) print "column " $1 ": min/max " mn[$1] "/" mx[$1] ", exact " $3 "/" $4
		  if (off(p50[$1], $5) || off(p99[$1], $6)) print "column " $1 ": p50/p99 " p50[$1] "/" p99[$1] ", exact " $5 "/" $6 }
		END { for (c = 1; c <= rows; c++) if (!(c in seen)) print "column " c ": no doorbell in its span" }' "$1" "$2"
}

# check_series NAME CSVDIR DIR DOORBELLS COLUMNS: the columns-DIR.csv of CSVDIR against its
# doorbells.csv
check_series() {
	local cols="$2/columns-$3.csv" faults
	check_eq "$(head -1 "$cols")" "time_s,min_ns,p50_ns,p99_ns,max_ns,doorbells,from_s,to_s" "$1: the columns' header"
	check_eq "$(awk -F, 'NR > 1 { n++; s += $6 } END { print s + 0, (n <= '"$5"' && n >= '"$5"' / 2) }' "$cols")" "$4 1" \
		"$1: the columns hold all $4 doorbells, in $5/2..$5 non-empty columns"
	check_eq "$(awk -F, 'NR > 2 && ($7 + 0 < prev_to + 0 || $1 + 0 <= prev_t + 0) { b++ }
		NR > 1 { prev_to = $8; prev_t = $1; if ($7 + 0 >= $8 + 0) b++ } END { print b + 0 }' "$cols")" 0 \
		"$1: the columns' spans and times in order, none overlapping"
	exact_columns "$2/doorbells.csv" "$cols" "$3" >"$tmp/exact"
	faults=$(compare "$cols" "$tmp/exact" | head -5)
	check_eq "$faults" "" "$1: each column's count, min and max exact, p50 and p99 within 1/64"
	# the histogram: each bucket's count is that of the doorbells in its range
	check_eq "$(awk -F, 'NR == FNR { if (FNR > 1) { lo[FNR] = $1; hi[FNR] = $2; want[FNR] = $3; n = FNR }; next }
		FNR > 1 && $3 == "'"$3"'" { for (i = 2; i <= n; i++) if ($2 + 0 >= lo[i] + 0 && $2 + 0 <= hi[i] + 0) { got[i]++; break }
			if (i > n) out++ }
		END { for (i = 2; i <= n; i++) if (got[i] != want[i]) bad++; print bad + 0, out + 0 }' \
		"$2/histogram-$3.csv" "$2/doorbells.csv")" "0 0" "$1: the histogram holds each doorbell in its bucket"
}

# one connection, the jitter profile: 3 of 50 doorbells 100-150x the base latency
"$GEN" -o "$tmp/j.pcapng" -e "$tmp/j.json" --profile jitter --txns 20000 --no-latency-list \
	2>"$tmp/gen.err" || bail "dgrdma-gen: $(head -c 300 "$tmp/gen.err")"
"$LR" --no-progress --json --csv "$tmp/j" --plot-columns 100 "$tmp/j.pcapng" >"$tmp/j.report"
check_eq "$?" 0 "--plot-columns 100: exit 0"
check_eq "$(jq -r .wire.rx.matched "$tmp/j.report") $(($(wc -l <"$tmp/j/doorbells.csv") - 1))" "20000 20000" \
	"20000 doorbells matched, each a row of doorbells.csv"
check_series "one connection" "$tmp/j" rx 20000 100
check_eq "$(wc -l <"$tmp/j/columns-tx.csv") $(wc -l <"$tmp/j/columns-host.csv") $(wc -l <"$tmp/j/histogram-arrival.csv")" "1 1 1" \
	"series without doorbells: the header line only"

# four connections on the TX path, their doorbells interleaved, 10 columns
"$GEN" -o "$tmp/c.pcapng" -e "$tmp/c.json" --dir tx --conns 4 --profile jitter --txns 5000 \
	--no-latency-list 2>"$tmp/gen.err" || bail "dgrdma-gen: $(head -c 300 "$tmp/gen.err")"
"$LR" --no-progress --json --csv "$tmp/c" --plot-columns=10 "$tmp/c.pcapng" >"$tmp/c.report"
check_eq "$?" 0 "four connections, --plot-columns=10: exit 0"
check_series "four connections (TX)" "$tmp/c" tx "$(jq -r .wire.tx.matched "$tmp/c.report")" 10

# --doorbell-rows: the rows while each series has at most N, then the header only; the columns
# are the same
for n in 20000 19999 0; do
	"$LR" --no-progress --json --csv "$tmp/r$n" --plot-columns 100 --doorbell-rows "$n" "$tmp/j.pcapng" >/dev/null
	check_eq "$?" 0 "--doorbell-rows $n: exit 0"
done
check_eq "$(wc -l <"$tmp/r20000/doorbells.csv") $(wc -l <"$tmp/r19999/doorbells.csv") $(wc -l <"$tmp/r0/doorbells.csv")" \
	"20001 1 1" "--doorbell-rows 20000 keeps the 20000 rows; 19999 and 0: the header only"
check_eq "$(head -1 "$tmp/r0/doorbells.csv")" "time_s,latency_ns,dir,conn,buffer" "a cut file keeps its header"
check "the columns and the histogram do not depend on the rows kept" \
	cmp -s "$tmp/j/columns-rx.csv" "$tmp/r0/columns-rx.csv"
check "the histogram does not depend on the rows kept" cmp -s "$tmp/j/histogram-rx.csv" "$tmp/r19999/histogram-rx.csv"
check_eq "$(wc -l <"$tmp/r0/intervals.csv")" "$(wc -l <"$tmp/j/intervals.csv")" "intervals.csv keeps its rows"

# a flight recorder's folder: --plot-columns and --doorbell-rows go with --csv, which the
# incidents' own reports do not get (docs/analysis.md, "Incidents"): they are not refused there
mkdir -p "$tmp/rec/incident-001"
"$GEN" -o "$tmp/rec/incident-001/capture.pcapng" -e "$tmp/rec.json" --txns 200 2>"$tmp/gen.err" ||
	bail "dgrdma-gen: $(head -c 300 "$tmp/gen.err")"
"$LR" --no-progress --csv "$tmp/rec-csv" --plot-columns 100 --doorbell-rows=10 "$tmp/rec" >"$tmp/rec.out" 2>"$tmp/rec.err"
check_eq "$? $(grep -c '^== incident-001 ' "$tmp/rec.out") $(wc -c <"$tmp/rec.err")" "0 1 0" \
	"a flight recorder's folder with --plot-columns and --doorbell-rows: each incident reported, no error"
# the same options abbreviated (the table's parser takes them so): the incident's report still
# runs without them, so the folder holds what the full names gave it, no incident's CSVs
"$LR" --no-progress --cs "$tmp/rec-abbr" --plot-col 100 --doorbell-r=10 "$tmp/rec" >"$tmp/rec-abbr.out" 2>"$tmp/rec-abbr.err"
check_eq "$? $(wc -c <"$tmp/rec-abbr.err") $(cd "$tmp/rec-abbr" 2>/dev/null && ls | tr '\n' ' ')" \
	"0 0 $(cd "$tmp/rec-csv" && ls | tr '\n' ' ')" \
	"the same options abbreviated (--cs, --plot-col, --doorbell-r=): the same folder, no incident's CSVs in it"

# bad values, named with their range
for bad in "--plot-columns 9" "--plot-columns 10001" "--plot-columns many" "--doorbell-rows -1" "--doorbell-rows 1.5"; do
	# shellcheck disable=SC2086 # the option and its value, two words
	"$LR" --no-progress --csv "$tmp/bad" $bad "$tmp/j.pcapng" >/dev/null 2>"$tmp/bad.err"
	rc=$?
	if [ "$rc" = 2 ] && grep -q -- "${bad%% *}" "$tmp/bad.err" && grep -qE '10\.\.10000|0\.\.1099511627776|number' "$tmp/bad.err"; then
		ok "$bad: refused, exit 2, named"
	else
		not_ok "$bad: refused, exit 2, named (exit $rc: $(head -c 200 "$tmp/bad.err"))"
	fi
done
"$LR" --no-progress --plot-columns 100 "$tmp/j.pcapng" >/dev/null 2>"$tmp/bad.err"
check_eq "$? $(grep -c -- '--plot-columns and --doorbell-rows go with --csv' "$tmp/bad.err")" "2 1" \
	"--plot-columns without --csv: refused, exit 2, says why"
done_testing
