#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-host perf against the emulator's perftest worker over UDP on 127.0.0.1
# (no privileges): both directions at once on one connection, a second
# connection to the same emulator (a table), then FPGA -> host alone with
# --memcpy and 8 KiB buffers; every message and byte counted by both ends; the
# errors of --direction and --perftest-worker.
. "$DGR_SRC/test/integration/stack/lib.sh"
trap 'kill $(jobs -p) 2>/dev/null; stk_cleanup_tmp' EXIT
T=$STK_TMP
COUNT=512
HEADER="message_size,messages,seconds,mbyte_s,msample_s,memcpy,direction,tx_messages,tx_bytes,tx_seconds,tx_mbyte_s,rx_messages,rx_bytes,rx_seconds,rx_mbyte_s"

stk_ports 20
FPGA_T=(--udp --rcvbuf 4M --bind "127.0.0.1:$STK_P1" --peer "127.0.0.1:$STK_P2")
HOST_T=(--udp --rcvbuf 4M --bind "127.0.0.1:$STK_P2" --peer "127.0.0.1:$STK_P1")
"$FPGA" "${FPGA_T[@]}" --mode perftest --duration 120 --quiet --summary-json "$T/fpga.json" &
f=$!
stk_wait_udp $STK_P1 || diag "the emulator's port is not open"

# --- both directions at once: 2, 4, 8, 16 KiB (the emulator's 16 KiB buffers), 512 each way
"$HOST" perf "${HOST_T[@]}" --direction both --count $COUNT --csv --idle-timeout 10 \
	>"$T/both.csv" 2>"$T/both.err"
check_eq "$?" 0 "perf --direction both exits 0"
check_eq "$(head -1 "$T/both.csv")" "$HEADER" "CSV header: the old columns, then direction and each direction's"
check_eq "$(tail -n +2 "$T/both.csv" | cut -d, -f1,2,7,8,9,12,13 | tr '\n' ' ')" \
	"2048,$COUNT,both,$COUNT,$((2048 * COUNT)),$COUNT,$((2048 * COUNT)) 4096,$COUNT,both,$COUNT,$((4096 * COUNT)),$COUNT,$((4096 * COUNT)) 8192,$COUNT,both,$COUNT,$((8192 * COUNT)),$COUNT,$((8192 * COUNT)) 16384,$COUNT,both,$COUNT,$((16384 * COUNT)),$COUNT,$((16384 * COUNT)) " \
	"one row per size: $COUNT messages and their bytes sent and received, counted by the host"
rows_ok=$(tail -n +2 "$T/both.csv" | awk -F, '$4 > 0 && $11 > 0 && $15 > 0 &&
	($4 - $11 - $15) < 0.2 && ($4 - $11 - $15) > -0.2 { n++ } END { print n + 0 }')
check_eq "$rows_ok" 4 "every row has a tx and an rx rate, and mbyte_s is their sum"

# --- the table, on the same emulator (a new connection: its endpoint is reset over DCP)
"$HOST" perf "${HOST_T[@]}" --direction both --count 64 --idle-timeout 10 >"$T/table.txt" 2>&1
check_eq "$?" 0 "perf --direction both as a table, a second connection to the emulator, exits 0"
check "the table heads both rates and their sum" \
	grep -q "size.*messages.*seconds.*tx MB/s.*rx MB/s.*sum MB/s.*sum MS/s.*(both directions, memcpy off)" "$T/table.txt"
check_eq "$(grep -cE '^ +(2048|4096|8192|16384) +64 ' "$T/table.txt")" 4 "one table row per size"

kill -INT $f
wait $f
check_eq "$?" 0 "the emulator exits 0"
J="$T/fpga.json"
sent=$(($(csv_sum "$T/both.csv" tx_messages) + 4 * 64))
sentb=$(($(csv_sum "$T/both.csv" tx_bytes) + 64 * (2048 + 4096 + 8192 + 16384)))
got=$(($(csv_sum "$T/both.csv" rx_messages) + 4 * 64))
gotb=$(($(csv_sum "$T/both.csv" rx_bytes) + 64 * (2048 + 4096 + 8192 + 16384)))
check_eq "$(jq_get "$J" '"\(.rx_messages)/\(.rx_bytes)"')" "$sent/$sentb" \
	"host -> FPGA: the perftest received every message and byte the host sent ($sent, $sentb)"
check_eq "$(jq_get "$J" '"\(.tx_messages_sent)/\(.tx_bytes_sent)"')" "$got/$gotb" \
	"FPGA -> host: the host received every message and byte the perftest sent ($got, $gotb)"
check_eq "$(jq_get "$J" .peer_restarts)" 2 "two host connections, each reset over DCP"
check_eq "$(jq_get "$J" '"\(.messages_rejected)/\(.frame_parser_reject)/\(.doorbells_out_of_order)/\(.doorbells_unexpected)"')" \
	0/0/0/0 "the emulator rejected nothing and every doorbell freed the buffer it expected"

# --- FPGA -> host alone, copying every message out, 8 KiB buffers on both ends
"$FPGA" "${FPGA_T[@]}" --mode perftest --buffer-size 8192 --duration 120 --quiet \
	--summary-json "$T/fpga8.json" &
f=$!
stk_wait_udp $STK_P1 || diag "the emulator's port is not open"
"$HOST" perf "${HOST_T[@]}" --direction rx --memcpy --count $COUNT --buffer-size 8K \
	--fpga-buffers 8 --csv --idle-timeout 10 >"$T/rx.csv" 2>"$T/rx.err"
check_eq "$?" 0 "perf --direction rx --memcpy --buffer-size 8K exits 0"
check_eq "$(tail -n +2 "$T/rx.csv" | cut -d, -f1,6,7,8,12,13 | tr '\n' ' ')" \
	"2048,on,rx,0,$COUNT,$((2048 * COUNT)) 4096,on,rx,0,$COUNT,$((4096 * COUNT)) 8192,on,rx,0,$COUNT,$((8192 * COUNT)) " \
	"sizes up to --buffer-size 8K, rx only: $COUNT messages each, nothing sent"
kill -INT $f
wait $f
J="$T/fpga8.json"
check_eq "$(jq_get "$J" '"\(.tx_messages_sent)/\(.tx_bytes_sent)/\(.rx_messages)"')" \
	"$((3 * COUNT))/$(csv_sum "$T/rx.csv" rx_bytes)/0" \
	"the perftest sent exactly what the host received, and received nothing"

# --- errors name the option and the accepted values
"$HOST" perf "${HOST_T[@]}" --direction sideways >/dev/null 2>"$T/err"
check_eq "$?" 2 "--direction sideways: exit 2"
check "named with the accepted values" grep -q -- "--direction: 'sideways' is not tx, rx or both" "$T/err"
"$HOST" perf "${HOST_T[@]}" --perftest-worker 63 >/dev/null 2>"$T/err"
check_eq "$?" 2 "--perftest-worker 63: exit 2"
check "named with its range" grep -q -- "--perftest-worker: '63' is out of range 0..62" "$T/err"
"$HOST" rx "${HOST_T[@]}" --direction both >/dev/null 2>"$T/err"
check_eq "$?" 2 "--direction with rx: exit 2"
check "said to be a perf option" grep -qx "dgrdma-host: rx: --direction is a perf option" "$T/err"
# the DAC worker (2) has no writable tx_messages: the FPGA's error answer is reported
"$FPGA" "${FPGA_T[@]}" --mode perftest --duration 30 --quiet &
f=$!
stk_wait_udp $STK_P1 || diag "the emulator's port is not open"
"$HOST" perf "${HOST_T[@]}" --direction rx --perftest-worker 2 --count 4 --idle-timeout 3 \
	>/dev/null 2>"$T/err"
check_eq "$?" 3 "a worker that is not a perftest: exit 3 (the run failed)"
check "the FPGA's refusal is named with the worker" grep -q "answered 'error' .*perftest worker 2" "$T/err"
kill -INT $f
wait $f
done_testing
