#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every shell script of the project passes shellcheck at severity warning: the installed
# tools (dgrdma-capture, dgrdma-plot), make demo, CI and the test suites. Sourced files
# (*.inc, test/lib/*.sh) say their shell with a `# shellcheck shell=bash` line.
# make check: compute only
# make check: slow
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
files=()
while read -r f; do
	case "$f" in
	*.sh | *.inc) files+=("$f") ;;
	*) [ -f "$f" ] && head -n 1 "$f" | grep -qE '^#!.*/(env )?(ba)?sh' && files+=("$f") ;;
	esac
done <<<"$tracked"
# one run over every file; -f gcc gives FILE:LINE:COLUMN: severity: text [SCnnnn]
out=$(shellcheck -x -S warning -f gcc "${files[@]}" 2>&1)
rc=$?
while IFS= read -r line; do
	[ -n "$line" ] && diag "$line"
done <<<"$out"
bad=$(echo "$out" | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: .*/\1/p' | sort -u | grep -c .)
if [ "$rc" -ne 0 ] && [ "$bad" = 0 ]; then
	bad="shellcheck failed: $(echo "$out" | head -1)"
fi
check_eq "$bad" 0 "every shell script passes shellcheck -S warning (${#files[@]} files)"
done_testing
