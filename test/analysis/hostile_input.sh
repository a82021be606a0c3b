#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# latency-report on other link layers (Linux cooked v1/v2, raw IPv4) with exact answers, and
# on hostile input: damaged frames, files cut at many offsets, files that are no capture, bad
# options, bad run.json files.
# make check: compute only
# make check: slow
set -u
. "$DGR_SRC/test/lib/tap.sh"
LR="$DGR_BUILD/bin/latency-report"
GEN="$DGR_BUILD/bin/dgrdma-gen"
RELINK="$DGR_SRC/test/analysis/relink.py"
tmp=$(mktemp -d "$DGR_BUILD/analysis-hostile.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

counts() { # JSON-FILE DIR -> "transactions doorbells matched latency-sum"
	jq -r ".wire.$2 | \"\(.transactions) \(.doorbells) \(.matched) \(.latency_ns.mean * .latency_ns.count | round)\"" "$1"
}
want_counts() {
	jq -r ".wire.$2 | \"\(.transactions) \(.doorbells) \(.matched) \(.latency_ns.mean * .latency_ns.count | round)\"" "$1"
}

"$GEN" -o "$tmp/eth.pcap" --format pcap-ns -e "$tmp/eth.json" --txns 80 --buffers 8 --bytes 12000 \
	--coalesce-doorbells 2 --discontinuity-every 9 >/dev/null
"$GEN" -o "$tmp/udp.pcap" --format pcap-ns -e "$tmp/udp.json" --transport udp --txns 80 --buffers 8 \
	--bytes 12000 >/dev/null
for kind in sll sll2; do
	python3 "$RELINK" "$kind" "$tmp/eth.pcap" "$tmp/$kind.pcap"
	"$LR" --json --no-progress "$tmp/$kind.pcap" >"$tmp/$kind.out" 2>"$tmp/err"
	check_eq "$(counts "$tmp/$kind.out" rx) $(jq -r .wire.rx.discontinuities "$tmp/$kind.out")" \
		"$(want_counts "$tmp/eth.json" rx) $(jq -r .wire.rx.discontinuities "$tmp/eth.json")" \
		"Linux cooked ($kind): the same answers as the Ethernet capture"
done
python3 "$RELINK" raw "$tmp/udp.pcap" "$tmp/raw.pcap"
"$LR" --json --no-progress "$tmp/raw.pcap" >"$tmp/raw.out" 2>"$tmp/err"
check_eq "$(counts "$tmp/raw.out" rx)" "$(want_counts "$tmp/udp.json" rx)" "raw IPv4 UDP capture: the same answers"

# damaged frames: never a crash, always a report
crashes=0
python3 "$RELINK" corrupt-each 10 "$tmp/eth.pcap" "$tmp/bad" # bad1.pcap .. bad10.pcap
for seed in $(seq 1 10); do
	"$LR" --json --no-progress "$tmp/bad$seed.pcap" >"$tmp/bad.out" 2>"$tmp/bad.err"
	rc=$?
	if [ $rc -ne 0 ] || ! jq -e '.capture.frames > 0 and .regime.label != null' "$tmp/bad.out" >/dev/null; then
		crashes=$((crashes + 1))
		diag "seed $seed: exit $rc: $(head -c 300 "$tmp/bad.err")"
	fi
done
check_eq "$crashes" 0 "10 captures with random damaged bytes: exit 0 and a complete JSON report each"
check_eq "$("$LR" --json --no-progress "$tmp/bad3.pcap" | jq '.malformed_frames > 0')" true "damaged frames are counted as malformed"

# a file cut in the middle of a record: what was read is reported and marked partial, exit 2
size=$(stat -c %s "$tmp/eth.pcap")
head -c $((size / 2 + 7)) "$tmp/eth.pcap" >"$tmp/cut.pcap"
"$LR" --json --no-progress "$tmp/cut.pcap" >"$tmp/cut.out" 2>"$tmp/cut.err"
check_eq "$? $(grep -c . "$tmp/cut.err") $(grep -c "latency-report: partial capture: $tmp/cut.pcap: only the first [0-9]* frames could be read, the rest of the $((size / 2 + 7))-byte file is cut or damaged: truncated dump file" "$tmp/cut.err")" \
	"2 1 1" "a cut capture: exit 2, one line saying how many frames were read and that the rest is cut"
check_eq "$(jq -r '[.capture.frames > 0, .partial_input.frames_read == .capture.frames, (.regime.reason | test("PARTIAL: on the [0-9]+ frames read"))] | join(" ")' "$tmp/cut.out")" \
	"true true true" "its report covers the frames read, and the report and the verdict say it is partial"
"$LR" --no-progress "$tmp/cut.pcap" 2>/dev/null | grep -q '^PARTIAL INPUT'
check_eq "$?" 0 "the text report says PARTIAL INPUT too"

# Cut at many offsets: the exit status depends only on whether the file can be read whole.
# A cut on a record boundary leaves a valid, shorter capture (exit 0, the records before it);
# any other cut gives exit 2 and one line on stderr, with a partial report when frames were read.
"$GEN" -o "$tmp/small.pcapng" -e /dev/null --txns 12 --buffers 4 --bytes 3000 >/dev/null
"$GEN" -o "$tmp/small.pcap" --format pcap-ns -e /dev/null --txns 12 --buffers 4 --bytes 3000 >/dev/null
# cut_points FILE PREFIX -> lines "OFFSET FRAMES-BEFORE BOUNDARY(1/0)"; writes the file cut at
# each OFFSET as PREFIX.OFFSET (one python for all the cuts, not a head each)
cut_points() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
bounds = {}  # offset -> frames before it
if b[:4] == b'\x0a\x0d\x0d\x0a':
    bo = '<' if b[8:12] == b'\x4d\x3c\x2b\x1a' else '>'
    off, frames, seen_idb = 0, 0, False
    while off + 8 <= len(b):
        btype, blen = struct.unpack(bo + 'II', b[off:off + 8])
        seen_idb |= btype == 1
        frames += btype in (2, 3, 6)
        off += blen
        if seen_idb:
            bounds[off] = frames
else:
    bo = '<' if b[:4] in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1') else '>'
    off, frames = 24, 0
    bounds[off] = 0
    while off + 16 <= len(b):
        off += 16 + struct.unpack(bo + 'I', b[off + 8:off + 12])[0]
        frames += 1
        bounds[off] = frames
# every byte of the file headers, 60 points spread over the rest, ten record boundaries and
# the bytes either side of them
bl = sorted(bounds)[:: max(1, len(bounds) // 10)]
cuts = sorted(set(list(range(1, 48)) + list(range(48, len(b), max(1, len(b) // 60))) +
                  bl + [o + 1 for o in bl] + [o - 1 for o in bl]))
for c in cuts:
    if c >= len(b):
        continue
    before = max([f for o, f in bounds.items() if o <= c] or [0])
    with open('%s.%d' % (sys.argv[2], c), 'wb') as out:
        out.write(b[:c])
    print(c, before, 1 if c in bounds else 0)
PY
}
# lines_in FILE: sets lines (newlines, as wc -l counts) and filled (lines with a character, as
# grep -c . counts) without a process each
lines_in() {
	local l
	lines=0 filled=0
	while IFS= read -r l; do
		lines=$((lines + 1))
		[ -n "$l" ] && filled=$((filled + 1))
	done <"$1"
	[ -n "$l" ] && filled=$((filled + 1))
	return 0
}
# latency-report on each cut (its exit status and stderr's lines noted), then one jq over all
# the reports for their frame counts
for f in small.pcap small.pcapng; do
	mkdir -p "$tmp/cuts-$f"
	cut_points "$tmp/$f" "$tmp/cuts-$f/c" >"$tmp/cuts-$f.list"
	while read -r cut frames boundary; do
		"$LR" --json --no-progress "$tmp/cuts-$f/c.$cut" >"$tmp/cuts-$f/c.$cut.out" 2>"$tmp/cuts-$f/c.$cut.err"
		rc=$?
		lines_in "$tmp/cuts-$f/c.$cut.err"
		echo "$cut $frames $boundary $rc $lines $filled"
	done <"$tmp/cuts-$f.list" >"$tmp/cuts-$f.runs"
	declare -A report=()
	while read -r name frames_read; do
		report[${name#c.}]=$frames_read
	done < <(cd "$tmp/cuts-$f" && jq -r '"\(input_filename | rtrimstr(".out")) \(.capture.frames) \(.partial_input.frames_read)"' c.*.out 2>/dev/null)
	bad=0 n=0 partial=0 whole=0
	while read -r cut frames boundary rc lines filled; do
		n=$((n + 1))
		read -r got_frames got_read <<<"${report[$cut]:-}"
		if [ "$boundary" = 1 ]; then
			whole=$((whole + 1))
			got="$rc ${got_frames:-} $lines"
			want="0 $frames 0"
		elif [ "$frames" -gt 0 ]; then
			partial=$((partial + 1))
			got="$rc ${got_frames:-} ${got_read:-} $filled"
			want="2 $frames $frames 1"
		else
			got="$rc $([ -s "$tmp/cuts-$f/c.$cut.out" ] && echo "a report" || echo 0) $filled"
			want="2 0 1"
		fi
		if [ "$got" != "$want" ]; then
			bad=$((bad + 1))
			[ "$bad" -le 5 ] && diag "$f cut at $cut (frames before: $frames, boundary: $boundary): got '$got', want '$want': $(head -c 200 "$tmp/cuts-$f/c.$cut.err")"
		fi
	done <"$tmp/cuts-$f.runs"
	unset report
	check_eq "$bad" 0 "$f cut at $n offsets: $whole on a record boundary exit 0 with the frames before; $partial partial reports exit 2; the rest exit 2 with one line"
done
# random bytes after a valid file header (the 8 files written by one python, not one each)
bad=0
python3 - "$tmp/small.pcap" "$tmp/rnd" <<'PY'
import random, sys
head = open(sys.argv[1], 'rb').read(24)
for seed in range(1, 9):
    random.seed(seed)
    open(f'{sys.argv[2]}{seed}.pcap', 'wb').write(head + bytes(random.randrange(256) for _ in range(3000)))
PY
for seed in 1 2 3 4 5 6 7 8; do
	"$LR" --no-progress "$tmp/rnd$seed.pcap" >/dev/null 2>"$tmp/rnd.err"
	rc=$?
	if [ "$rc" != 2 ] || [ "$(grep -c . "$tmp/rnd.err")" != 1 ]; then
		bad=$((bad + 1))
		diag "seed $seed: exit $rc: $(head -c 200 "$tmp/rnd.err")"
	fi
done
check_eq "$bad" 0 "8 pcap files of random bytes after a valid header: exit 2 and one line each"

: >"$tmp/empty.pcap"
"$LR" "$tmp/empty.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c 'empty.pcap: not a pcap/pcapng capture or a trace folder' "$tmp/err")" "2 1" "an empty file is named and refused, exit 2"
"$LR" "$tmp/missing.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c 'missing.pcap: No such file' "$tmp/err")" "2 1" "a missing file is named, exit 2"
# 300 ACK-only frames, each from another DG-RDMA id: 300 connections, the table keeps 256
# (analysis/engine/conn_table.h), the other 44 frames are counted and not analysed
python3 "$DGR_SRC/test/lib/many_conns.py" 300 "$tmp/conns.pcap"
check_eq "$("$LR" --json --no-progress "$tmp/conns.pcap" | jq -r '.capture | "\(.connections) \(.frames_beyond_connection_limit)"')" \
	"256 44" "300 connections: 256 analysed, the frames of the other 44 counted"
python3 "$RELINK" linktype 105 "$tmp/eth.pcap" "$tmp/wifi.pcap"
"$LR" "$tmp/wifi.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c 'link type IEEE802_11 (105) carries no DG-RDMA' "$tmp/err")" "2 1" "an unsupported link type is named, exit 2"
mkdir -p "$tmp/notrace"
"$LR" "$tmp/notrace" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c 'neither a trace folder nor a run folder' "$tmp/err")" "2 1" "a folder without trace or capture is refused, exit 2"
"$LR" --interval 0 "$tmp/eth.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c -- "--interval: '0' is out of range 1..60000" "$tmp/err")" "2 1" "an --interval out of range names the range"
"$LR" --interval 10x "$tmp/eth.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c -- "--interval: '10x' is not a number (accepted: 1..60000)" "$tmp/err")" "2 1" \
	"an --interval that is no number is called so, with the range"
"$LR" --buffer-size 3M "$tmp/eth.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c -- "--buffer-size: '3M' is out of range 1..2097152" "$tmp/err")" "2 1" \
	"--buffer-size takes dgrdma-host's suffixes and names its range"
"$LR" /dev/null >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c -- "/dev/null: not a regular file" "$tmp/err")" "2 1" "a device as input is named as not a regular file, exit 2"
"$LR" --host 1.2.3 "$tmp/eth.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c -- "--host: '1.2.3' is not a MAC" "$tmp/err")" "2 1" "a bad --host is named"
for h in '[fd00::1]:0' '[fd00::1]:65536' '[fd00::1]' 'fd00::zz' '[fd00::1]:x'; do
	"$LR" --host "$h" "$tmp/eth.pcap" >/dev/null 2>"$tmp/err"
	check_eq "$? $(grep -c -F -- "--host: '$h' is not a MAC (aa:bb:cc:dd:ee:ff), an IPv4 address, IPv4:port, an IPv6 address or [IPv6]:port" "$tmp/err")" \
		"2 1" "a bad IPv6 --host '$h' is named with the accepted forms"
done
"$LR" --bogus "$tmp/eth.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c "unknown option '--bogus'" "$tmp/err")" "2 1" "an unknown option is named"
"$LR" --csv /proc/nonexistent/x "$tmp/eth.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c -- '--csv: cannot create /proc/nonexistent/x' "$tmp/err")" "3 1" "an unwritable --csv folder is named, exit 3"
check_eq "$("$LR" --help | grep -c -- '--dcp-doorbells')" 2 "usage lists every option (--dcp-doorbells)"

# run.json: jansson and the dgrdma-run/1 schema; every bad value is named, exit 2, no report
mkdir -p "$tmp/run"
cp "$tmp/eth.pcap" "$tmp/run/capture.pcap"
head='"format": "dgrdma-run/1", "command": ["dgrdma-host", "rx"]'
bad_run_json() { # TEXT EXPECTED-MESSAGE NAME
	printf '%s' "$1" >"$tmp/run/run.json"
	"$LR" --json --no-progress "$tmp/run" >"$tmp/rj.out" 2>"$tmp/rj.err"
	local rc=$? naming=0 l
	# stderr's lines (wc -l), those naming the error (grep -cF), read by bash: 31 of these
	lines_in "$tmp/rj.err"
	while IFS= read -r l || [ -n "$l" ]; do
		[[ $l == *"run/run.json: $2"* ]] && naming=$((naming + 1))
	done <"$tmp/rj.err"
	check_eq "$rc $lines $naming $([ -s "$tmp/rj.out" ] && echo "a report" || echo 0)" \
		"2 1 1 0" "run.json $3: refused with one line naming it ($2), exit 2, no report"
}
bad_run_json 'not json' "invalid JSON at line 1, column 3: invalid token near 'not'" "that is no JSON"
bad_run_json '' "empty (no JSON in it)" "that is empty"
bad_run_json "{$head" "invalid JSON at line 1, column 59: '}' expected near end of file" "cut short"
bad_run_json 'null' "the top level is null, expected an object" "of null"
bad_run_json '[1]' "the top level is an array, expected an object" "of an array"
bad_run_json "$(printf '%200000s' '' | tr ' ' '[')" "invalid JSON at line 1, column 2049: maximum parsing depth reached" "200000 brackets deep"
bad_run_json "{$head, \"stream\": {\"fpga_buffers\": -2}}" "stream.fpga_buffers: -2 is out of range 0..65535" "with a negative count"
bad_run_json "{$head, \"stream\": {\"sample_rate\": NaN}}" "invalid JSON at line 1, column 90: invalid token near 'NaN'" "with NaN"
bad_run_json "{$head, \"stream\": {\"sample_rate\": 1e308}}" "stream.sample_rate: 1e+308 is out of range (0, 1e+12]" "with 1e308"
bad_run_json "{$head, \"stream\": {\"sample_rate\": 1e400}}" "invalid JSON at line 1, column 92: real number overflow near '1e400'" "with 1e400"
bad_run_json "{$head, \"stream\": {\"sample_rate\": \"2e6\"}}" "stream.sample_rate: a string, expected a number in (0, 1e+12]" "with a string for a number"
bad_run_json "{$head, \"stream\": {\"sample_rate\": null}}" "stream.sample_rate: null, expected a number in (0, 1e+12]" "with a null fact"
bad_run_json "{$head, \"stream\": {\"buffer_size\": 8.5}}" "stream.buffer_size: 8.5 is not a whole number (accepted: 1..1073741824)" "with a fraction for a size"
bad_run_json "{$head, \"stream\": {\"sample_rate\": 2e6, \"rate_bytes\": 8e6}}" "stream: both rate_bytes and sample_rate (give one)" "with two rates"
bad_run_json "{$head, \"stream\": {\"host_buffers\": true}}" "stream.host_buffers: true, expected a whole number 1..65535" "with true for a count"
bad_run_json "{$head, \"stream\": {\"samplerate\": 2e6}}" "stream.samplerate: unknown key (not in stream)" "with a misspelt fact"
bad_run_json "{$head, \"stream\": 7}" "stream: 7, expected an object" "with a number for an object"
bad_run_json "{$head, \"host_buffers\": 8}" "host_buffers: unknown key (not in the dgrdma-run/1 top level)" "with a fact outside \"stream\""
bad_run_json "{$head, \"stream\": {}, \"stream\": {}}" "invalid JSON at line 1, column 83: duplicate object key near '\"stream\"'" "with a key twice"
bad_run_json '{"command": ["dgrdma-host"]}' "format: missing (a dgrdma-run/1 file has it)" "without format"
bad_run_json '{"format": "dgrdma-run/1"}' "command: missing (a dgrdma-run/1 file has it)" "without command"
bad_run_json '{"format": "dgrdma-run/9", "command": ["x"]}' "format: 'dgrdma-run/9' is not dgrdma-run/2 or dgrdma-run/1" "of another format"
bad_run_json '{"format": "dgrdma-run/1", "command": ["x", 5]}' "command[1]: 5, expected a string" "with a number in the command"
bad_run_json '{"format": "dgrdma-run/1", "command": ["x", "--buffers", "lots"]}' \
	"command: --buffers: 'lots' is not a number (accepted: 1..65535; suffixes K, M, G allowed)" "with a bad --buffers in the command"
bad_run_json '{"format": "dgrdma-run/1", "command": ["x", "--rate"]}' "command: --rate is its last element (no value)" "with a --rate without value"
bad_run_json "{$head, \"command_pid\": 0}" "command_pid: 0 is out of range 1..4194304" "with pid 0"
bad_run_json "{$head, \"clocks\": {\"start\": {\"monotonic_sec\": 1, \"monotonic_nsec\": 1000000000, \"realtime_sec\": 1, \"realtime_nsec\": 0, \"uncertainty_ns\": 1}}}" \
	"clocks.start.monotonic_nsec: 1000000000 is out of range (accepted: a whole number 0..999999999)" "with a clock's nanoseconds past a second"
bad_run_json "{$head, \"losses\": {\"host\": {\"samples_lost\": -1}}}" "losses.host.samples_lost: -1 is out of range 0..9007199254740992" "with a negative loss"
bad_run_json "{$head, \"losses\": {\"fpga\": {\"num_underruns\": 1, \"trailing_underruns\": 2}}}" "losses.fpga.trailing_underruns: 2 is more than num_underruns 1" "with more trailing underruns than underruns"
bad_run_json "{$head, \"losses\": {\"fpga\": {}}}" "losses.fpga: none of the FPGA's counters" "with an FPGA summary of no counter"
bad_run_json "{$head, \"losses\": {\"guess\": 1}}" "losses.guess: unknown key (not in losses)" "with an unknown loss"
# a run folder deep in a long path: the message keeps the file's name (the path's end)
long="$tmp/$(printf 'a-long-folder-name-%.0s' 1 2 3 4 5)/run"
mkdir -p "$long"
printf 'not json' >"$long/run.json"
"$LR" --json --no-progress "$long" >/dev/null 2>"$tmp/rj.err"
check_eq "$? $(grep -cF "/run/run.json: invalid JSON at line 1, column 3: invalid token near 'not'" "$tmp/rj.err")" "2 1" \
	"run.json in a folder with a long path: the message ends with the file's name and names the error"
rm -f "$tmp/run/run.json"
mkdir "$tmp/run/run.json"
"$LR" --no-progress "$tmp/run" >/dev/null 2>"$tmp/rj.err"
check_eq "$? $(cat "$tmp/rj.err")" "2 latency-report: $tmp/run/run.json: is a folder, not a file" "a folder named run.json is refused, exit 2"
rmdir "$tmp/run/run.json"
printf '{%s, "stream": {"sample_rate": 2e6, "fpga_buffers": 2}, "command": ["dgrdma-host", "rx", "--buffers=8", "--buffer-size", "8K"]}' \
	'"format": "dgrdma-run/1"' >"$tmp/run/run.json"
"$LR" --json --no-progress "$tmp/run" >"$tmp/rj.out" 2>"$tmp/rj.err"
# (8 + 2) * 8192 B / (2e6 * 4 B/s) = 10.24 ms
check_eq "$? $(jq -r '[.run.tolerable_source, .wire.rx.latency_ns.tolerable] | join(" ")' "$tmp/rj.out")" \
	"0 run.json 10240000" "a valid run.json: its facts give the tolerable latency"
# --fpga-counters: a file that is not the FPGA's counters is named, exit 2
bad_counters() { # JSON WANT NAME
	printf '%s' "$1" >"$tmp/fc.json"
	"$LR" --no-progress --fpga-counters "$tmp/fc.json" "$tmp/eth.pcap" >/dev/null 2>"$tmp/err"
	check_eq "$? $(grep -cF -- "$2" "$tmp/err")" "2 1" "--fpga-counters $3: named, exit 2"
}
bad_counters '[1]' "fc.json: the top level is an array, expected an object" "with an array"
bad_counters '{"mode": 1}' "fc.json: none of the FPGA's counters" "with no counter"
bad_counters '{"dropped_open": -1}' "fc.json: dropped_open: -1 is out of range 0..9007199254740992" "with a negative count"
bad_counters '{"num_underruns": "3"}' 'num_underruns: a string, expected a whole number 0..9007199254740992' "with a string"
bad_counters '{"num_underruns": 3, "trailing_underruns": 4}' "trailing_underruns: 4 is more than num_underruns 3" "with more trailing underruns than underruns"
bad_counters '{"dropped_open": 1,' "fc.json: invalid JSON" "cut short"
"$LR" --no-progress --fpga-counters "$tmp/none.json" "$tmp/eth.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c 'none.json: No such file' "$tmp/err")" "2 1" "--fpga-counters with a missing file: named, exit 2"
printf '{"num_dropped_samps": 2, "dropped_samples": 300, "dropped_open": 0, "num_underruns": 0}' >"$tmp/fc.json"
"$LR" --json --no-progress --fail-on loss --fpga-counters "$tmp/fc.json" "$tmp/eth.pcap" >"$tmp/fc.out" 2>/dev/null
check_eq "$? $(jq -r '[.losses.any, .losses.fpga_counters.dropped_samples, (.losses.fpga_counters.trailing_underruns == null)] | join(" ")' "$tmp/fc.out")" \
	"1 true 300 false" "hardware-style counters: 300 dropped samples are a loss (--fail-on loss exits 1); DAC keys shown with the ADC's"
done_testing
