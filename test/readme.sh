#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs every ```sh block of README.md, in order, so the tour cannot rot.
# `make demo` runs as test/demo.sh (a shorter stream), also with knobs before it and a pipe
# after it; paths under build/ point at $DGR_BUILD.
set -u
. "$DGR_SRC/test/lib/tap.sh"
cd "$DGR_SRC" || exit 1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk -v dir="$work" '
	/^```sh$/ { n++; inblock = 1; file = sprintf("%s/block%02d.sh", dir, n); next }
	/^```/ { inblock = 0; next }
	inblock { print > file }
' README.md

for block in "$work"/block*.sh; do
	# build/ first: the replacement of `make demo` holds $DGR_BUILD, which contains "build/".
	# A `make demo` with a pipe keeps its output for the pipe: `VAR=... make demo | grep ...`.
	sed -i -e "s#\\bbuild/#$DGR_BUILD/#g" \
		-e "s#^make demo\$#DEMO_SECONDS=2 DGR_BUILD=$DGR_BUILD DGR_SRC=$DGR_SRC $DGR_SRC/test/demo.sh >/dev/null#" \
		-e "s#^\\(\\([A-Z_]*='[^']*' \\)*\\)make demo |#\\1DEMO_SECONDS=2 DGR_BUILD=$DGR_BUILD DGR_SRC=$DGR_SRC $DGR_SRC/test/demo.sh |#" \
		"$block"
	first=$(grep -v '^\s*$' "$block" | head -1)
	if bash -e -o pipefail "$block" >"$block.out" 2>&1; then
		ok "README block runs: $first"
	else
		not_ok "README block runs: $first"
		sed 's/^/# /' "$block.out" | tail -20
	fi
done
[ "$TAP_N" -ge 3 ] || not_ok "README has at least three runnable blocks (found $TAP_N)"
done_testing
