#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every shell script of the project passes shellcheck at severity warning: the installed
# tools (dgrdma-capture, dgrdma-plot), make demo, CI and the test suites. Sourced files
# (*.inc, test/lib/*.sh) say their shell with a `# shellcheck shell=bash` line.
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
for ((i = 0; i < n && i < ${#files[@]}; i++)); do
	part=()
	for ((j = i; j < ${#files[@]}; j += n)); do
		part+=("${files[j]}")
	done
	shellcheck -x -S warning -f gcc "${part[@]}" >"$tmp/$i" 2>&1 &
	pids+=($!)
done
rc=0
for pid in "${pids[@]}"; do
	wait "$pid" || rc=$?
done
out=$(cat "$tmp"/*)
while IFS= read -r line; do
	[ -n "$line" ] && diag "$line"
done <<<"$out"
bad=$(echo "$out" | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: .*/\1/p' | sort -u | grep -c .)
if [ "$rc" -ne 0 ] && [ "$bad" = 0 ]; then
	bad="shellcheck failed: $(echo "$out" | head -1)"
fi
check_eq "$bad" 0 "every shell script passes shellcheck -S warning (${#files[@]} files)"
done_testing
