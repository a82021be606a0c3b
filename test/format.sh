#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The C sources are formatted as .clang-format says (DEVELOPERS.md: "applied"):
# `make format` fixes what this reports.
# make check: compute only
. "$DGR_SRC/test/lib/tap.sh"
cd "$DGR_SRC" || exit 1
if ! command -v clang-format >/dev/null; then
	skip "clang-format is not installed (make deps)"
	done_testing
	exit 0
fi
if ! files=$(git ls-files '*.c' '*.h' 2>/dev/null) || [ -z "$files" ]; then
	skip "not a git checkout: no list of the project's sources"
	done_testing
	exit 0
fi
# one run over every file; its messages start with FILE:LINE:COLUMN
# shellcheck disable=SC2086
out=$(clang-format --dry-run --Werror $files 2>&1)
rc=$?
bad=$(echo "$out" | sed -n 's/^\([^:]*\.[ch]\):[0-9]*:[0-9]*: .*/\1/p' | sort -u)
if [ "$rc" -ne 0 ] && [ -z "$bad" ]; then
	bad="(clang-format failed: $(echo "$out" | head -1))"
fi
for f in $bad; do
	diag "not formatted: $f"
done
check_eq "$(echo -n "$bad" | grep -c .)" 0 "every C source and header is clang-formatted ($(echo "$files" | wc -l) files)"
done_testing
