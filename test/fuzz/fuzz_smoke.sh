#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Short runs of the fuzz harnesses of the codec and of the parsed text (make fuzz runs them
# longer): the decoders, the option values, run.json, the trace pre-checks, latency-report's
# frame decoder (analysis/input/frame_decode.c, its views checked) and its whole
# capture path (seeds/capture/long-frame-cut: a 70000-byte frame cut short, which overran the
# snap-length scratch buffer before it was bounded).
# make check: compute only
set -u
. "$DGR_SRC/test/lib/tap.sh"
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
smoke() { # NAME HARNESS SEEDS MAX_LEN
	local name=$1 harness=$2 seeds=$3 max_len=$4
	mkdir -p "$corpus/$name"
	if "$harness" -max_total_time="${FUZZ_SMOKE_SECONDS:-5}" -max_len="$max_len" "$corpus/$name" \
		"$seeds" >"$corpus/$name.log" 2>&1; then
		ok "$name fuzz harness ran $(grep -o 'Done [0-9]* runs' "$corpus/$name.log" | cut -d' ' -f2) inputs without a crash"
	else
		not_ok "$name fuzz harness found a crash"
		tail -30 "$corpus/$name.log" | sed 's/^/# /'
	fi
}
smoke decoder "$DGR_BUILD/fuzz/fuzz_decode" "$DGR_SRC/test/fuzz/seeds/decode" 9100
smoke text "$DGR_BUILD/fuzz/fuzz_text" "$DGR_SRC/test/fuzz/seeds/text" 4096
smoke dcp "$DGR_BUILD/fuzz/fuzz_dcp" "$DGR_SRC/test/fuzz/seeds/dcp" 64
smoke run.json "$DGR_BUILD/fuzz/fuzz_run_json" "$DGR_SRC/test/fuzz/seeds/run-json" 8192
smoke trace-checks "$DGR_BUILD/fuzz/fuzz_ctf_check" "$DGR_SRC/test/fuzz/seeds/ctf-check" 24576
smoke capture "$DGR_BUILD/fuzz/fuzz_capture" "$DGR_SRC/test/fuzz/seeds/capture" 70100
smoke frame-decode "$DGR_BUILD/fuzz/fuzz_frame_decode" "$DGR_SRC/test/fuzz/seeds/frame-decode" 9100
done_testing
