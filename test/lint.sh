#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every shell script of the project passes shellcheck at severity warning: the installed
# tools (dgrdma-capture, dgrdma-plot), make demo, CI and the test suites. Sourced files
# (*.inc, test/lib/*.sh) say their shell with a `# shellcheck shell=bash` line. A file that
# passed is analysed again only once it or a sourced file changed (stamps in build/lint-ok/).
# make check: compute only
# make check: slow
# make check: filler
. "$DGR_SRC/test/lib/tap.sh"
cd "$DGR_SRC" || exit 1
if ! command -v shellcheck >/dev/null; then
	skip "shellcheck is not installed (make deps)"
	done_testing
	exit 0
fi
if ! tracked=$(git ls-files 2>/dev/null) || [ -z "$tracked" ]; then
	skip "not a git checkout: no list of the project's scripts"
	done_testing
	exit 0
fi
# *.sh and *.inc, and every other file whose first line is a shell's #! (one awk reads the
# first lines: a head and a grep per file cost 10 s of CPU here)
files=()
others=()
while read -r f; do
	case "$f" in
	*.sh | *.inc) files+=("$f") ;;
	*) [ -f "$f" ] && others+=("$f") ;;
	esac
done <<<"$tracked"
if [ ${#others[@]} -gt 0 ]; then
	mapfile -t -O ${#files[@]} files < <(awk 'FNR == 1 { if ($0 ~ /^#!.*\/(env )?(ba)?sh/) print FILENAME; nextfile }' "${others[@]}")
fi
# A clean result is kept: a file that passed is not analysed again while it, every sourced
# file of the project, this script and shellcheck are the same. A stamp per file, named by
# the file's hash and path, in $DGR_BUILD/lint-ok/SIGNATURE/, where SIGNATURE hashes the rest (the
# sourced files: what a script is told depends on them, below). A fresh build folder analyses
# every file (60-75 s of CPU here); after a change to C code none; after a change to one
# script, that one; after one to a sourced file, all. --norc: no .shellcheckrc of the user's
# changes a result. The stamps are sound only if every file a script sources is hashed: the
# sourced files are those that say `# shellcheck shell=` or are not executable, and a script
# that sources a project file that is neither fails here.
# A stamp names the file's content and its path: what a script's `.` lines relative to its own
# folder find depends on where it is, so a copy of it elsewhere is analysed on its own.
declare -A hash=() stamp=() sourced=()
while read -r h f; do
	hash[$f]=$h
	k=${f//%/%25}
	stamp[$f]="$h-${k//\//%2F}"
done < <(sha256sum -- "${files[@]}")
while read -r f; do
	sourced[$f]=1
done < <(grep -l '^# shellcheck shell=' -- "${files[@]}")
for f in "${files[@]}"; do
	[ -x "$f" ] || sourced[$f]=1
done
# every literal path after `.` or `source` (from the project's folder: "$DGR_SRC/", or the
# script's: "${BASH_SOURCE[0]%/*}/", "$(dirname "$0")/"); a path with another variable is not
# followed by shellcheck either (SC1090)
unmarked=""
while IFS=: read -r f line path; do
	[ -n "${sourced[$path]:-}" ] || unmarked+="$f:$line sources $path, which neither says '# shellcheck shell=' nor is a non-executable file; "
done < <(awk '
	FNR == 1 { dir = FILENAME; sub(/\/[^\/]*$/, "", dir); if (dir == FILENAME) dir = "." }
	/^[ \t]*(\.|source)[ \t]+/ {
		p = $0
		sub(/^[ \t]*(\.|source)[ \t]+"?/, "", p)
		if (!sub(/^\$DGR_SRC\//, "", p) && !sub(/^\$\{BASH_SOURCE\[0\]%\/\*\}\//, dir "/", p) &&
		    !sub(/^\$\(dirname "\$0"\)\//, dir "/", p))
			next
		sub(/["; \t].*$/, "", p)
		if (p !~ /\$/) print FILENAME ":" FNR ":" p
	}' "${files[@]}")
sig=$(
	for f in "${files[@]}"; do
		[ -n "${sourced[$f]:-}" ] && echo "${hash[$f]} $f"
	done
	echo "${hash[test/lint.sh]} $(shellcheck --version | sed -n 's/^version: //p') ${SHELLCHECK_OPTS:-}"
)
sig=$(sha256sum <<<"$sig")
stamps="${DGR_BUILD:-build}/lint-ok/${sig%% *}"
for old in "${DGR_BUILD:-build}"/lint-ok/*; do
	[ "$old" = "$stamps" ] || rm -rf "$old"
done
mkdir -p "$stamps" || bail "cannot create $stamps"
todo=()
for f in "${files[@]}"; do
	[ -e "$stamps/${stamp[$f]}" ] || todo+=("$f")
done
# -f gcc gives FILE:LINE:COLUMN: severity: text [SCnnnn]. The files are dealt out over one
# process per CPU: with -x each script's sourced libraries are analysed again with it (0.5 s
# of CPU per script, 60 s in all), so one process would be the longest suite of make check.
# They cannot be analysed once for all: what a script is told depends on them (their names
# silence SC2154 and SC2034 in it; their arrays and functions raise SC2128, SC2178, SC2190
# and SC2033), and a run over several files follows the sources among them even without -x.
# Each writes a file of its own (lines of processes sharing a pipe could interleave).
tmp=$(mktemp -d) || bail "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
n=$(nproc 2>/dev/null || echo 1)
pids=()
for ((i = 0; i < n && i < ${#todo[@]}; i++)); do
	part=()
	for ((j = i; j < ${#todo[@]}; j += n)); do
		part+=("${todo[j]}")
	done
	shellcheck --norc -x -S warning -f gcc "${part[@]}" >"$tmp/$i" 2>&1 &
	pids+=($!)
done
rc=0
out=""
for ((i = 0; i < ${#pids[@]}; i++)); do
	wait "${pids[i]}"
	st=$?
	part_out=$(<"$tmp/$i")
	out+=${part_out:+$part_out$'\n'}
	# 0: clean, 1: something to say; anything else is shellcheck's own failure: no stamp
	if [ "$st" -gt 1 ]; then
		rc=$st
		continue
	fi
	# process i analysed todo[i], todo[i+n], ...
	for ((j = i; j < ${#todo[@]}; j += n)); do
		f=${todo[j]}
		[[ $'\n'$part_out == *$'\n'"$f:"* ]] || : >"$stamps/${stamp[$f]}"
	done
done
while IFS= read -r line; do
	[ -n "$line" ] && diag "$line"
done <<<"$out"
bad=$(echo "$out" | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: .*/\1/p' | sort -u | grep -c .)
if [ "$rc" -ne 0 ]; then
	bad="shellcheck failed (exit $rc): $(echo "$out" | head -1)"
fi
check_eq "$bad" 0 "every shell script passes shellcheck -S warning (${#files[@]} files, ${#todo[@]} analysed, the others unchanged since they passed)"
check_eq "$unmarked" "" "every project file a script sources is marked as sourced (the stamps' signature holds it)"
done_testing
