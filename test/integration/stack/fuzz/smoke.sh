#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A short run of the stack's receive-path fuzz harness (make fuzz-stack runs it longer).
# It runs 5 s, not a fixed -runs count as test/fuzz/fuzz_smoke.sh's harnesses: with no seeds
# it still gained coverage at the end of an 8 s run (5 December, 2 CPUs: libFuzzer's cov
# 23 -> 964 and 988, 95% of that gain after 397k and 338k inputs, 6-7 s), so the count that
# rule gives would cost more CPU than the 5 s.
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
