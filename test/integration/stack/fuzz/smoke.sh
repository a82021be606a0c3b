#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A short run of the stack's receive-path fuzz harness (make fuzz-stack runs it longer).
set -u
. "$DGR_SRC/test/lib/tap.sh"
F="$DGR_BUILD/fuzz/fuzz_stack_rx"
if [ ! -x "$F" ]; then
	skip "fuzz_stack_rx not built (clang with libFuzzer missing)"
	done_testing
	exit 0
fi
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
if "$F" -max_total_time="${FUZZ_SMOKE_SECONDS:-5}" -max_len=9100 "$corpus" >"$corpus/log" 2>&1; then
	ok "stack receive-path fuzz harness ran $(grep -o 'Done [0-9]* runs' "$corpus/log" | cut -d' ' -f2) inputs without a finding"
else
	not_ok "stack receive-path fuzz harness found a crash"
	tail -30 "$corpus/log" | sed 's/^/# /'
fi
done_testing
