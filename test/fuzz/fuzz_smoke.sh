#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Short runs of the fuzz harnesses of the codec and of the parsed text (make fuzz runs them
# longer): the decoders, the option values, run.json, dgrdma-ctl's property map, the trace
# pre-checks, latency-report's frame decoder (analysis/input/frame_decode.c, its views checked)
# and its whole capture path (seeds/capture/long-frame-cut: a 70000-byte frame cut short, which
# overran the snap-length scratch buffer before it was bounded).
# Each run executes every seed, then mutates for a fixed number of inputs (libFuzzer's -runs
# counts the seeds too), the same work on any machine: they ran 5 s each before (-max_total_time),
# 7 x 5 s of CPU on a quiet machine and fewer inputs on a busy one. Each count is where an 8 s run
# of the harness (4 December, 2 CPUs) had gained 95% of the coverage it gained over its seeds,
# rounded up:
# decoder 15.7k runs, text 8.6k (23.8k since it also parses --sched, --cpu, a MAC and an address:
# 5 December, three runs of 8 s with their seeds, coverage 168 -> 251-252), dcp 1.5k, run.json 121k, trace-checks 23k, capture 353,
# frame-decode 260k; dgrdma-ctl's --props map 894 (5 December: coverage 279 -> 341 in 8 s, 338 at
# run 894); past it a smoke run finds little more, and `make fuzz` is for finding more.
# make check: compute only
# make check: slow
# make check: filler
set -u
. "$DGR_SRC/test/lib/tap.sh"
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
smoke() { # NAME HARNESS SEEDS MAX_LEN RUNS
	local name=$1 harness=$2 seeds=$3 max_len=$4 runs=$5
	mkdir -p "$corpus/$name"
	if "$harness" -runs="$runs" -max_len="$max_len" "$corpus/$name" \
		"$seeds" >"$corpus/$name.log" 2>&1; then
		ok "$name fuzz harness ran $(grep -o 'Done [0-9]* runs' "$corpus/$name.log" | cut -d' ' -f2) inputs without a crash"
	else
		not_ok "$name fuzz harness found a crash"
		tail -30 "$corpus/$name.log" | sed 's/^/# /'
	fi
}
smoke decoder "$DGR_BUILD/fuzz/fuzz_decode" "$DGR_SRC/test/fuzz/seeds/decode" 9100 20000
smoke text "$DGR_BUILD/fuzz/fuzz_text" "$DGR_SRC/test/fuzz/seeds/text" 4096 25000
smoke dcp "$DGR_BUILD/fuzz/fuzz_dcp" "$DGR_SRC/test/fuzz/seeds/dcp" 64 2000
smoke run.json "$DGR_BUILD/fuzz/fuzz_run_json" "$DGR_SRC/test/fuzz/seeds/run-json" 8192 125000
smoke trace-checks "$DGR_BUILD/fuzz/fuzz_ctf_check" "$DGR_SRC/test/fuzz/seeds/ctf-check" 24576 25000
smoke capture "$DGR_BUILD/fuzz/fuzz_capture" "$DGR_SRC/test/fuzz/seeds/capture" 70100 400
smoke frame-decode "$DGR_BUILD/fuzz/fuzz_frame_decode" "$DGR_SRC/test/fuzz/seeds/frame-decode" 9100 270000
smoke prop-map "$DGR_BUILD/fuzz/fuzz_prop_map" "$DGR_SRC/test/fuzz/seeds/prop-map" 65536 1000
done_testing
