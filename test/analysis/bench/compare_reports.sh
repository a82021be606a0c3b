#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare_reports.sh OLD NEW: two latency-report builds must say the same thing, byte for byte,
# on captures of every kind dgrdma-gen writes (links, transports, IP fragments, snap cuts,
# loss, TX and RX, pcap and pcapng, malformed and reordered frames), a capture set, standard
# input, a gzip, and cut or damaged files. For each input and option set it compares standard
# output, standard error, the exit status and every file of --csv DIR. Used before and after a
# change to the reading path (docs/performance/analysis.md); not part of make check (the
# suites check the answers themselves). Needs DGR_BUILD for dgrdma-gen.
# Prints the differences and "N inputs, N runs, N files compared, N differ"; exits 1 on any.
set -u
old="${1:?usage: compare_reports.sh OLD_LATENCY_REPORT NEW_LATENCY_REPORT}"
new="${2:?usage: compare_reports.sh OLD_LATENCY_REPORT NEW_LATENCY_REPORT}"
old=$(realpath "$old") new=$(realpath "$new")
GEN="${DGR_BUILD:?}/bin/dgrdma-gen"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# gen NAME OPTIONS...: a capture $tmp/NAME from dgrdma-gen
gen() {
	local name="$1"
	shift
	"$GEN" -o "$tmp/$name" -e "$tmp/$name.expect.json" --seed 7 "$@" >/dev/null ||
		{ echo "compare: dgrdma-gen $* failed" >&2; exit 2; }
	inputs+=("$tmp/$name")
}

inputs=()
gen eth1500.pcap --format pcap-ns --mtu 1500 --txns 300 --bytes 32768 --buffers 64
gen eth9000.pcapng --mtu 9000 --txns 300 --bytes 32768 --buffers 64
gen eth-us.pcap --format pcap --mtu 1500 --txns 200 --bytes 5000
gen udp4.pcap --format pcap-ns --transport udp --mtu 1500 --txns 200 --bytes 16384
gen udp6-vlan.pcapng --transport udp6 --vlan 42 --conns 3 --mtu 1500 --txns 150 --bytes 8192
gen udp4-frag.pcapng --transport udp --ip-mtu 1500 --mtu 9000 --txns 100 --bytes 32768
gen udp6-frag.pcap --format pcap-ns --transport udp6 --ip-mtu 1400 --mtu 8000 --txns 100
gen snap128.pcap --format pcap-ns --snaplen 128 --mtu 9000 --txns 300 --bytes 8000
gen snap64.pcapng --snaplen 64 --mtu 1500 --txns 200 --bytes 8192
gen sll-snap200.pcap --format pcap-ns --link sll --transport udp --snaplen 200 --txns 200
gen udp-snap300.pcapng --transport udp6 --snaplen 300 --mtu 1500 --txns 80
gen loss97.pcap --format pcap-ns --drop-every 97 --mtu 1500 --txns 300 --bytes 16384
gen dcp-jitter.pcapng --doorbell dcp --coalesce-doorbells 4 --coalesce-txns 2 --profile jitter \
	--txns 400 --bytes 2048 --buffers 16
gen dcp-per-address.pcap --format pcap-ns --transport udp --doorbell dcp \
	--dcp-doorbell-per-address --txns 200 --buffers 8
gen tx.pcapng --dir tx --mtu 1500 --txns 200 --bytes 16384
gen tx-udp-loss.pcap --format pcap-ns --dir tx --transport udp --drop-every 50 --txns 200
gen hostile.pcapng --conns 4 --malformed-every 7 --discontinuity-every 9 --resend-frames 20 \
	--late-frames 30:34 --drop-frames 40,41,77 --mtu 1500 --txns 100 --bytes 4096
gen lockup.pcap --format pcap-ns --fpga-lockup --seq-start 65500 --txns 300 --bytes 1024 \
	--buffers 8
gen wrap.pcapng --seq-start 65000 --coalesce-txns 4 --txns 2000 --bytes 256 --mtu 1500
gen throughput.pcap --format pcap-ns --profile throughput --conns 2 --txns 500 --bytes 4096

# Damaged inputs: a record cut in the middle, a header cut short, garbage, an empty file.
head -c 70000 "$tmp/eth1500.pcap" >"$tmp/cut-record.pcap"
inputs+=("$tmp/cut-record.pcap")
head -c 20 "$tmp/eth1500.pcap" >"$tmp/cut-header.pcap"
inputs+=("$tmp/cut-header.pcap")
head -c 5000 /dev/urandom >"$tmp/garbage.pcap"
inputs+=("$tmp/garbage.pcap")
: >"$tmp/empty.pcap"
inputs+=("$tmp/empty.pcap")
gzip -1 -c "$tmp/udp4.pcap" >"$tmp/udp4.pcap.gz"
inputs+=("$tmp/udp4.pcap.gz")

# The option sets each input is read with; the last two add the columns and a port hint.
optsets=(
	""
	"--json"
	"--brief"
	"--csv OUT"
	"--json --csv OUT --plot-columns 100 --udp-port 4000"
	"--csv OUT --doorbell-rows 10 --interval 7 --exact-limit 50"
)

runs=0 files=0 differ=0
# one NAME ARGS...: both builds with ARGS (OUT is the csv folder, the same path for both)
one() {
	local name="$1" b f
	shift
	for b in old new; do
		rm -rf "$tmp/OUT"
		mkdir "$tmp/OUT"
		(cd "$tmp" && "${!b}" --no-progress "$@" >"$tmp/res.$b.out" 2>"$tmp/res.$b.err" \
			<"$tmp/stdin")
		echo $? >"$tmp/res.$b.rc"
		rm -rf "$tmp/OUT.$b"
		mv "$tmp/OUT" "$tmp/OUT.$b"
	done
	runs=$((runs + 1))
	for f in out err rc; do
		files=$((files + 1))
		if ! cmp -s "$tmp/res.old.$f" "$tmp/res.new.$f"; then
			differ=$((differ + 1))
			echo "DIFFER: $name: $* ($f)"
			diff "$tmp/res.old.$f" "$tmp/res.new.$f" | head -5
		fi
	done
	if ! diff -r -q "$tmp/OUT.old" "$tmp/OUT.new" >/dev/null; then
		differ=$((differ + 1))
		echo "DIFFER: $name: $* (csv folder)"
		diff -r "$tmp/OUT.old" "$tmp/OUT.new" | head -5
	fi
	files=$((files + $(find "$tmp/OUT.new" -type f | wc -l)))
}

: >"$tmp/stdin"
for in in "${inputs[@]}"; do
	for o in "${optsets[@]}"; do
		# shellcheck disable=SC2086 # the option set is split on purpose
		one "${in##*/}" ${o//OUT/$tmp/OUT} "$in"
	done
done
# Two files as one capture set, and standard input.
for o in "${optsets[@]}"; do
	# shellcheck disable=SC2086
	one "set" ${o//OUT/$tmp/OUT} "$tmp/eth-us.pcap" "$tmp/throughput.pcap"
done
cp "$tmp/udp6-vlan.pcapng" "$tmp/stdin"
for o in "${optsets[@]}"; do
	# shellcheck disable=SC2086
	one "stdin" ${o//OUT/$tmp/OUT} -
done
echo "$((${#inputs[@]} + 2)) inputs, $runs runs, $files files compared, $differ differ"
[ "$differ" = 0 ]
