#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The documents a newcomer walks stay whole:
#  - README.md's folder table ("## Folders") names every top-level and second-level folder
#    of the project (its tracked files): a folder has its own row (`stack/cli/`), or a
#    second-level folder is named as `name/` in its parent's row;
#  - docs/README.md, the index of the documents, links every page of docs/ and
#    docs/performance/, and every link it holds leads to a page that exists.
# make check: compute only
. "$DGR_SRC/test/lib/tap.sh"
cd "$DGR_SRC" || exit 1
if ! tracked=$(git ls-files 2>/dev/null) || [ -z "$tracked" ]; then
	skip "not a git checkout: no list of the project's folders"
	done_testing
	exit 0
fi
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

# the folder table: "| `key/` | text |" rows between "## Folders" and the next heading
awk '/^## /{ on = ($0 == "## Folders") ; next } on && /^\| `[^`]*\/` \|/' README.md >"$T/rows"
check "README.md has a folder table ($(wc -l <"$T/rows") rows)" test "$(wc -l <"$T/rows")" -gt 5
echo "$tracked" | awk -F/ 'NF > 2 { print $1 "/" $2 "/" } NF > 1 { print $1 "/" }' | sort -u >"$T/folders"
# (read in bash: a grep per folder was 90 processes)
mapfile -t rows <"$T/rows"
# row_of KEY [NAME]: true when a row of the table has KEY in its first column (and `NAME` in it)
row_of() {
	local row
	for row in "${rows[@]}"; do
		[[ $row == *"| \`$1\` |"* ]] && [[ -z ${2:-} || $row == *"\`$2\`"* ]] && return 0
	done
	return 1
}
missing=""
while read -r dir; do
	row_of "$dir" && continue
	parent=${dir%/*/}/
	name=${dir#"$parent"}
	if [ "$parent" != "$dir" ] && row_of "$parent" "$name"; then
		continue
	fi
	missing="$missing $dir"
done <"$T/folders"
check_eq "${missing# }" "" "README.md's folder table names every folder ($(wc -l <"$T/folders") top- and second-level)"

# the index of the documents
pages=$(cd docs && find . -maxdepth 2 -name '*.md' ! -path ./README.md | sed 's|^\./||' | sort)
unlinked=""
index=$(<docs/README.md)
for page in $pages; do
	[[ $index == *"]($page)"* ]] || unlinked="$unlinked $page"
done
check_eq "${unlinked# }" "" "docs/README.md links every page of docs/ and docs/performance/ ($(echo "$pages" | wc -w))"
broken=""
for link in $(grep -o '](\([^)#]*\))' docs/README.md | sed 's/^](//; s/)$//' | sort -u); do
	[ -e "docs/$link" ] || broken="$broken $link"
done
check_eq "${broken# }" "" "every link of docs/README.md leads to a page that exists"
done_testing
