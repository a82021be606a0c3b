#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A short run of the decoder fuzz harness (make fuzz runs it longer).
set -u
. "$DGR_SRC/test/lib/tap.sh"
F="$DGR_BUILD/fuzz/fuzz_decode"
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
if "$F" -max_total_time="${FUZZ_SMOKE_SECONDS:-5}" -max_len=9100 "$corpus" \
	"$DGR_SRC/test/fuzz/seeds/decode" >"$corpus/log" 2>&1; then
	ok "decoder fuzz harness ran $(grep -o 'Done [0-9]* runs' "$corpus/log" | cut -d' ' -f2) inputs without a crash"
else
	not_ok "decoder fuzz harness found a crash"
	tail -30 "$corpus/log" | sed 's/^/# /'
fi
done_testing
