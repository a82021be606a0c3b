#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# latency-report reads a set of capture files as one capture: a generated capture
# split at every kind of boundary (between the fragments of a transaction, between a
# transaction and its doorbell, in chunks of a few frames as dumpcap's ring writes
# them), given as files in any order, as a folder, on standard input and compressed
# with gzip, gives byte for byte the whole file's JSON but the input list.
# make check: compute only
set -u
. "$DGR_SRC/test/lib/tap.sh"
GEN="$DGR_BUILD/bin/dgrdma-gen"
LR="$DGR_BUILD/bin/latency-report"
for t in editcap gzip jq; do
	if ! command -v "$t" >/dev/null; then
		skip "capture sets" "$t not installed"
		done_testing
		exit 0
	fi
done
tmp=$(mktemp -d "$DGR_BUILD/capture-sets.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Two transactions coalesced per frame over UDP, fragmented: frames end mid-transaction.
"$GEN" -o "$tmp/whole.pcapng" -e "$tmp/whole.exp.json" --list-frames "$tmp/frames" \
	--transport udp --mtu 8970 --txns 300 --bytes 12000 --buffers 16 --coalesce-txns 2 \
	--coalesce-doorbells 2 2>"$tmp/gen.err" || bail "dgrdma-gen: $(cat "$tmp/gen.err")"
"$LR" --json --no-progress "$tmp/whole.pcapng" >"$tmp/whole.json" 2>"$tmp/whole.err" ||
	bail "latency-report on the whole capture: $(cat "$tmp/whole.err")"
jq 'del(.inputs)' "$tmp/whole.json" >"$tmp/whole.cmp"
frames=$(wc -l <"$tmp/frames")

# same NAME ARGS...: latency-report ARGS gives the whole capture's JSON but the inputs.
same() {
	local name="$1"
	shift
	if ! "$LR" --json --no-progress "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"; then
		not_ok "$name: latency-report exits 0"
		diag "$(cat "$tmp/$name.err")"
		return
	fi
	if jq 'del(.inputs)' "$tmp/$name.json" | cmp -s - "$tmp/whole.cmp"; then
		ok "$name: the whole capture's answer"
	else
		not_ok "$name: the whole capture's answer"
		diag "$(jq 'del(.inputs)' "$tmp/$name.json" | diff - "$tmp/whole.cmp" | head -20)"
	fi
}

# split NAME K: the capture cut after frame K, in two files.
split() {
	local name="$1" k="$2"
	editcap -r "$tmp/whole.pcapng" "$tmp/$name.1.pcapng" "1-$k" &&
		editcap -r "$tmp/whole.pcapng" "$tmp/$name.2.pcapng" "$((k + 1))-$frames" ||
		bail "editcap -r at $k"
	same "$name (cut after frame $k)" "$tmp/$name.1.pcapng" "$tmp/$name.2.pcapng"
}

# the frames list: "index kind sender frame_seq txn:seq/num..." (test/gen/README.md)
mid=$(awk '$2 == "data" && $NF ~ /:1\/2$/ { print $1; exit }' "$tmp/frames")
bell=$(awk 'prev == "data" && $2 == "doorbell" { print $1 - 1; exit } { prev = $2 }' \
	"$tmp/frames")
[ -n "$mid" ] && [ -n "$bell" ] || bail "no boundary of each kind in the frames list"
split mid-transaction "$mid"
split before-doorbell "$bell"

# dumpcap's ring: chunks of 5 frames cut every kind of boundary many times
mkdir "$tmp/ring"
editcap -c 5 "$tmp/whole.pcapng" "$tmp/ring/run.pcapng" || bail "editcap -c 5"
n=$(find "$tmp/ring" -name 'run_*.pcapng' | wc -l)
check_eq "$((n > 100))" 1 "the ring holds over 100 files ($n)"
same "ring folder" "$tmp/ring"
mapfile -t files < <(find "$tmp/ring" -name 'run_*.pcapng' | sort -r)
same "ring files given in reverse order" "${files[@]}"

# standard input, plain and compressed; a compressed file
same "standard input" - <"$tmp/whole.pcapng"
gzip -c "$tmp/whole.pcapng" >"$tmp/whole.pcapng.gz"
same "a .pcapng.gz file" "$tmp/whole.pcapng.gz"
same "gzip on standard input" - <"$tmp/whole.pcapng.gz"
"$GEN" -o "$tmp/whole.pcap" -e "$tmp/pcap.exp.json" --format pcap-ns --transport udp \
	--mtu 8970 --txns 300 --bytes 12000 --buffers 16 --coalesce-txns 2 \
	--coalesce-doorbells 2 2>/dev/null || bail "dgrdma-gen --format pcap-ns"
gzip -c "$tmp/whole.pcap" >"$tmp/whole.pcap.gz"
same "a .pcap.gz file" "$tmp/whole.pcap.gz"
mkdir "$tmp/gzring"
editcap -c 50 "$tmp/whole.pcapng" "$tmp/gzring/run.pcapng" && gzip "$tmp/gzring"/* ||
	bail "editcap -c 50, gzip"
same "a folder of compressed files" "$tmp/gzring"

# what is refused, named
editcap -r "$tmp/whole.pcapng" "$tmp/a.pcapng" 1-100 300-400 &&
	editcap -r "$tmp/whole.pcapng" "$tmp/b.pcapng" 101-299 ||
	bail "editcap -r"
"$LR" --json --no-progress "$tmp/a.pcapng" "$tmp/b.pcapng" >/dev/null 2>"$tmp/overlap.err"
check_eq "$?" 2 "files overlapping in time: exit 2"
if grep -q "b.pcapng starts .* before the last frame of .*a.pcapng.*mergecap" "$tmp/overlap.err"; then
	ok "files overlapping in time: the error names both and mergecap"
else
	not_ok "files overlapping in time: the error names both and mergecap"
	diag "$(cat "$tmp/overlap.err")"
fi
"$LR" --json --no-progress - "$tmp/a.pcapng" </dev/null >/dev/null 2>"$tmp/stdin2.err"
check_eq "$?" 2 "standard input among other captures: exit 2"
check_eq "$(grep -c 'standard input (-) must be the only capture (got 2)' "$tmp/stdin2.err")" 1 \
	"standard input among other captures: said so"
done_testing
