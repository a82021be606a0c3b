#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# latency-report on other link layers (Linux cooked v1/v2, raw IPv4) with exact answers, and
# on hostile input: damaged frames, a cut file, files that are no capture, bad options.
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
for seed in $(seq 1 10); do
	python3 "$RELINK" corrupt "$seed" "$tmp/eth.pcap" "$tmp/bad$seed.pcap"
done
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

# a file cut in the middle of a record: what was read is reported, with a warning
size=$(stat -c %s "$tmp/eth.pcap")
head -c $((size / 2 + 7)) "$tmp/eth.pcap" >"$tmp/cut.pcap"
"$LR" --json --no-progress "$tmp/cut.pcap" >"$tmp/cut.out" 2>"$tmp/cut.err"
check_eq "$? $(grep -c 'warning' "$tmp/cut.err") $(jq '.capture.frames > 0' "$tmp/cut.out")" "0 1 true" \
	"a cut capture: exit 0, one warning, the frames before the cut reported"

: >"$tmp/empty.pcap"
"$LR" "$tmp/empty.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c 'empty.pcap: not a pcap/pcapng capture or a trace folder' "$tmp/err")" "2 1" "an empty file is named and refused"
"$LR" "$tmp/missing.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c 'missing.pcap: No such file' "$tmp/err")" "2 1" "a missing file is named"
python3 "$RELINK" linktype 105 "$tmp/eth.pcap" "$tmp/wifi.pcap"
"$LR" "$tmp/wifi.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c 'link type IEEE802_11 (105) carries no DG-RDMA' "$tmp/err")" "2 1" "an unsupported link type is named"
mkdir -p "$tmp/notrace"
"$LR" "$tmp/notrace" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c 'neither a trace folder nor a run folder' "$tmp/err")" "2 1" "a folder without trace or capture is refused"
"$LR" --interval 0 "$tmp/eth.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c -- "--interval: '0' is out of range 1..60000" "$tmp/err")" "2 1" "an --interval out of range names the range"
"$LR" --interval 10x "$tmp/eth.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c -- "--interval: '10x' is not a number (accepted: 1..60000)" "$tmp/err")" "2 1" \
	"an --interval that is no number is called so, with the range"
"$LR" --buffer-size 3M "$tmp/eth.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c -- "--buffer-size: '3M' is out of range 1..2097152" "$tmp/err")" "2 1" \
	"--buffer-size takes dgrdma-host's suffixes and names its range"
"$LR" /dev/null >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c -- "/dev/null: not a regular file" "$tmp/err")" "2 1" "a device as input is named as not a regular file"
"$LR" --host 1.2.3 "$tmp/eth.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c -- "--host: '1.2.3' is not a MAC" "$tmp/err")" "2 1" "a bad --host is named"
"$LR" --bogus "$tmp/eth.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c "unknown option '--bogus'" "$tmp/err")" "2 1" "an unknown option is named"
"$LR" --csv /proc/nonexistent/x "$tmp/eth.pcap" >/dev/null 2>"$tmp/err"
check_eq "$? $(grep -c -- '--csv: cannot create /proc/nonexistent/x' "$tmp/err")" "2 1" "an unwritable --csv folder is named"
check_eq "$("$LR" --help | grep -c -- '--dcp-doorbells')" 2 "usage lists every option (--dcp-doorbells)"
done_testing
