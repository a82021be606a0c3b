#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mk/man-options.sh PAGE PROGRAM: rewrites the OPTIONS section of the man page PAGE (from
# ".SH OPTIONS" to the next ".SH") with PROGRAM --list-options --man, the section its option
# table writes (stack/cli/opts.h). A page whose OPTIONS section comes from its table says so
# on a comment line of its own, which `make man-options` looks for:
#   .\" OPTIONS: generated from the option table (make man-options)
# test/cli/option_tables.sh checks that each such page's section is the table's.
set -euo pipefail

page=$1
program=$2
section=$(mktemp)
out=$(mktemp)
trap 'rm -f "$section" "$out"' EXIT

"$program" --list-options --man >"$section"
grep -qx '\.SH OPTIONS' "$page" || {
	echo "$page: no .SH OPTIONS section to replace" >&2
	exit 1
}
awk -v section="$section" '
	/^\.SH OPTIONS$/ { while ((getline line < section) > 0) print line; skip = 1; next }
	skip && /^\.SH / { skip = 0 }
	!skip { print }
' "$page" >"$out"
if ! cmp -s "$out" "$page"; then
	cat "$out" >"$page"
	echo "$page: OPTIONS written from $program --list-options --man"
fi
