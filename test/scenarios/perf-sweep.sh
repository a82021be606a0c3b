#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Scenario "perf sweep": dgrdma-host perf (TX path, message sizes 2 KiB .. 32 KiB) against the
# emulator's perftest worker (dgrdma-fpga --mode perftest, 2 x 32 KiB buffers), as CSV, plotted
# with dgrdma-plot --perf. Asserts every size was measured and received in full by the
# emulator; the throughput numbers are timing (make scenarios only, printed, not judged).
. "$DGR_SRC/test/scenarios/lib.sh"
scn_init perf-sweep "$@"

COUNT=2000
FPGA_OPTS=(--mode perftest --buffer-size 32768 --buffers 2 --duration 60 --drain-ms 0)
HOST_OPTS=(--buffer-size 32768 --fpga-buffers 2 --count "$COUNT" --csv --idle-timeout 10)
run="$SCN_OUT/run"
SCN_FPGA_STOP=1 # the emulator runs until stopped
scn_run_tx "$run" perf
cp "$run/host.out" "$run/perf.csv"
check_eq "$SCN_HOST_RC/$SCN_FPGA_RC" 0/0 "dgrdma-host perf and dgrdma-fpga exit 0"
check_eq "$(head -1 "$run/perf.csv" | cut -d, -f1-7)" "message_size,messages,seconds,mbyte_s,msample_s,memcpy,direction" \
	"CSV header"
check_eq "$(tail -n +2 "$run/perf.csv" | cut -d, -f1,2 | tr '\n' ' ')" \
	"2048,$COUNT 4096,$COUNT 8192,$COUNT 16384,$COUNT 32768,$COUNT " "one row per message size, $COUNT messages each"
check_eq "$(jnum "$run/fpga.json" rx_messages)" $((5 * COUNT)) "the emulator's perftest received every message"
check_eq "$(jnum "$run/fpga.json" rx_bytes)" $(((2048 + 4096 + 8192 + 16384 + 32768) * COUNT)) \
	"the emulator's perftest received every byte"
while IFS=, read -r size _ _ mbs _; do
	diag "$size bytes: $mbs MB/s"
done < <(tail -n +2 "$run/perf.csv")
"$BIN/dgrdma-plot" --out "$run/plots" --kind throughput --perf "$run/perf.csv" >"$run/plot.log" 2>&1
rc=$?
check_eq "$rc" 0 "dgrdma-plot --perf on dgrdma-host perf's CSV exits 0"
check "throughput plot written" test -s "$run/plots/throughput.png"
done_testing
