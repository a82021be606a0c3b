#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs every ```sh block of README.md, in order, so the tour cannot rot.
# `make demo` runs as test/demo.sh (a shorter stream), also with knobs before it and a pipe
# after it. The blocks run in a folder of this suite's own: build/bin/ points at the programs
# in $DGR_BUILD, every other build/ path (build/demo, build/my-run: a user's own runs) at the
# suite's folder, so that make check never touches what a user ran.
# make check: slow
set -u
. "$DGR_SRC/test/lib/tap.sh"
cd "$DGR_SRC" || exit 1

work=$(mktemp -d "$DGR_BUILD/readme.XXXXXX")
trap 'rm -rf "$work"' EXIT
awk -v dir="$work" '
	/^```sh$/ { n++; inblock = 1; file = sprintf("%s/block%02d.sh", dir, n); next }
	/^```/ { inblock = 0; next }
	inblock { print > file }
' README.md

for block in "$work"/block*.sh; do
	# A block with a plain `make demo` (run only to feed the next block's tools) streams
	# 2 MS/s: a tenth of the default's capture to write, report and plot. The piped demos keep
	# the default rate, which their verdicts need (throughput-bound).
	rate=()
	if grep -qx 'make demo' "$block"; then
		rate=(DEMO_RATE=2e6)
	fi
	# build/bin/ first, then the other build/ paths, through placeholders so that neither
	# replacement sees the other's output; `make demo` last (its replacement holds $DGR_BUILD).
	# A `make demo` with a pipe keeps its output for the pipe: `VAR=... make demo | grep ...`.
	demo="DEMO_SECONDS=2 DEMO_DIR=$work/build/demo DGR_BUILD=$DGR_BUILD DGR_SRC=$DGR_SRC $DGR_SRC/test/demo.sh"
	sed -i -e "s#\\bbuild/bin/#@BIN@/#g" -e "s#\\bbuild/#@WORK@/build/#g" \
		-e "s#@BIN@#$DGR_BUILD/bin#g" -e "s#@WORK@#$work#g" \
		-e "s#^make demo\$#$demo >/dev/null#" \
		-e "s#^\\(\\([A-Z_]*='[^']*' \\)*\\)make demo |#\\1$demo |#" \
		"$block"
	first=$(grep -v '^\s*$' "$block" | head -1)
	if env "${rate[@]}" bash -e -o pipefail "$block" >"$block.out" 2>&1; then
		ok "README block runs: $first"
	else
		not_ok "README block runs: $first"
		sed 's/^/# /' "$block.out" | tail -20
	fi
done
[ "$TAP_N" -ge 3 ] || not_ok "README has at least three runnable blocks (found $TAP_N)"
done_testing
