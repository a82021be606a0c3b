#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# latency-report on generated captures: every count and every per-doorbell latency
# must equal the answers dgrdma-gen wrote (test/gen/README.md).
# make check: compute only
# make check: slow
set -u
. "$DGR_SRC/test/lib/tap.sh"
GEN="$DGR_BUILD/bin/dgrdma-gen"
LR="$DGR_BUILD/bin/latency-report"
tmp=$(mktemp -d "$DGR_BUILD/analysis-scen.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

KEYS="transactions doorbells matched unmatched_transactions orphan_doorbells discontinuities incomplete_transactions pending_at_end"
STATS="count min p50 p90 p99 p999 max mean"
KEYS_JSON=$(printf '"%s",' $KEYS)
KEYS_JSON="[${KEYS_JSON%,}]"
# compared(WIRE_DIR; FRAMES): "name=value" of the counts of KEYS, each latency statistic, the
# malformed frames and FRAMES
COMPARED='def compared($d; $frames): ($d | to_entries[] | select(.key | IN($keys[])) | "\(.key)=\(.value)"),
	($d.latency_ns | to_entries[] | "latency.\(.key)=\(.value)"), "malformed_frames=\(.malformed_frames)",
	"frames=\($frames)";'

# scenario NAME EXTRA-LATENCY-REPORT-ARGS -- GENERATOR-ARGS...
scenario() {
	local name="$1" lrargs="$2" ext="pcapng" a
	shift 2
	for a in "$@"; do
		case "$a" in pcap | pcap-ns) ext=pcap ;; esac
	done
	local cap="$tmp/$name.$ext" exp="$tmp/$name.json" out="$tmp/$name.out.json"
	if ! "$GEN" -o "$cap" -e "$exp" "$@" 2>"$tmp/$name.gen.err"; then
		not_ok "$name: generator ran"
		diag "$(cat "$tmp/$name.gen.err")"
		return
	fi
	# shellcheck disable=SC2086
	if ! "$LR" --json --no-progress --csv "$tmp/$name.csv" $lrargs "$cap" >"$out" 2>"$tmp/$name.err"; then
		not_ok "$name: latency-report exits 0"
		diag "$(cat "$tmp/$name.err")"
		return
	fi
	local got="" want="" bad="" line seq_got="" seq_want="" lat_want="" lat_n="" rc=""
	# one jq for both files (they were nine, then two): the "name=value" lines of everything
	# compared, sorted, the answers' then ("<"-marked) the report's, then "@name=value" lines of
	# the other values; a file jq cannot read fails the checks below through "@rc="
	while IFS= read -r line; do
		case $line in
		@seq=*) seq_want=${line#@seq=} ;;
		@seq_got=*) seq_got=${line#@seq_got=} ;;
		@lat=*) lat_want=${line#@lat=} ;;
		@n=*) lat_n=${line#@n=} ;;
		@rc=*) rc=${line#@rc=} ;;
		\<*) got+=${line#<}$'\n' ;;
		*) want+=$line$'\n' ;;
		esac
	done < <(
		jq -n -r --argjson keys "$KEYS_JSON" --slurpfile e "$exp" --slurpfile o "$out" \
			--arg names "^(${KEYS// /|}|malformed_frames|frames|latency\.(${STATS// /|}))=" "$COMPARED"'
		$e[0] as $x | $o[0] as $y | ($x.wire | keys[0]) as $dir
		| ($x.wire[$dir].latency_ns.count | tostring) as $count
		| ([compared($x.wire[$dir]; $x.frames)] | sort[]),
		"@seq=\($x.sequence.gaps) \($x.sequence.frames_missing) \($x.sequence.duplicates) \($x.sequence.late) \($x.messages_after_given_up) \($x.duplicate_messages)",
		"@lat=\($x.wire[$dir].latencies_ns | map(tostring) | join(" "))",
		"@n=\($x.wire[$dir].latencies_ns | length)",
		([compared($y.wire[$dir]; $y.capture.frames) | select(test($names))
		  | select($count != "0" or startswith("latency.") == false)]
		 + (if $count == "0" then ["latency.count=0"] else [] end) | sort[] | "<\(.)"),
		"@seq_got=\($y.capture | "\(.sequence_gaps) \(.frames_missing) \(.duplicate_frames) \(.late_frames) \(.messages_after_given_up) \(.duplicate_messages)")"'
		echo "@rc=$?"
	)
	if [ "$rc" != 0 ]; then
		want+="jq exit status $rc"$'\n'
		seq_want+=" (jq exit status $rc)"
	fi
	[ "$got" = "$want" ] || bad=$(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | tr '\n' ' ')
	check_eq "${bad:-none}" "none" "$name: counts and latency statistics equal the expected answers"
	# sequence analysis: every frame numbered (ACK-only included); only capture loss is a gap,
	# a frame captured after later ones of its sender is late; fragments of a transaction
	# already given up are ignored and counted
	check_eq "$seq_got" "$seq_want" "$name: frame_seq gaps, frames missing, duplicate frames, late frames, messages after given up, duplicate messages as expected"
	# every per-doorbell latency, in capture order
	got=$(awk -F, 'NR > 1 { printf "%s ", $2 }' "$tmp/$name.csv/doorbells.csv")
	want=${lat_want:+$lat_want }
	if [ "$got" = "$want" ]; then
		ok "$name: all $lat_n per-doorbell latencies equal, in order"
	else
		not_ok "$name: per-doorbell latencies equal, in order"
		diag "got:  ${got:0:300}"
		diag "want: ${want:0:300}"
	fi
}

scenario basic "" --txns 60 --buffers 8
scenario fragmented "" --txns 40 --buffers 4 --bytes 20000 --mtu 9000
scenario fragmented-mtu1500 "" --txns 30 --buffers 6 --bytes 16384 --mtu 1500
scenario coalesced-txns "" --txns 64 --buffers 8 --bytes 512 --coalesce-txns 4
scenario coalesced-doorbells "" --txns 64 --buffers 8 --coalesce-doorbells 4
scenario coalesced-both "" --txns 90 --buffers 16 --bytes 1000 --coalesce-txns 6 --coalesce-doorbells 5
scenario udp "" --transport udp --txns 50 --buffers 8 --bytes 4000 --mtu 9000
scenario udp-fragmented "" --transport udp --txns 30 --buffers 4 --bytes 12000 --mtu 1500
scenario vlan "" --vlan 42 --txns 40 --buffers 8
scenario vlan-udp "" --vlan 7 --transport udp --txns 40 --buffers 8
scenario tx-direction "" --dir tx --txns 50 --buffers 8
scenario tx-udp-host-option "--host 10.0.0.1" --dir tx --transport udp --txns 40 --buffers 8
scenario pcap-us "" --format pcap --txns 50 --buffers 8
scenario pcap-ns "" --format pcap-ns --txns 50 --buffers 8
scenario pcapng-ns "" --format pcapng --txns 50 --buffers 8 --latency-ns 1234
scenario capture-loss "" --txns 200 --buffers 8 --drop-every 7
scenario capture-loss-fragmented "" --txns 120 --buffers 8 --bytes 20000 --drop-every 5
scenario discontinuities "" --txns 100 --buffers 8 --discontinuity-every 9
scenario malformed "" --txns 80 --buffers 8 --malformed-every 5
scenario snaplen-128 "" --snaplen 128 --txns 60 --buffers 8 --bytes 20000
# Coalesced doorbells cut by the snap (coalesced *transactions* cut by the snap hide whole
# buffers from the capture, which rank-based buffer identity cannot survive: docs/analysis.md).
scenario snaplen-coalesced-doorbells "" --snaplen 128 --txns 60 --buffers 8 --bytes 20000 --coalesce-doorbells 4
scenario dcp-doorbells "" --doorbell dcp --txns 50 --buffers 8
scenario dcp-doorbells-coalesced "" --doorbell dcp --txns 48 --buffers 8 --coalesce-doorbells 4
scenario dcp-doorbells-per-address "--dcp-doorbells 0x41000:0x41FFF" --doorbell dcp --dcp-doorbell-per-address --txns 48 --buffers 8 --coalesce-doorbells 4
scenario multi-conn "" --conns 3 --txns 40 --buffers 8
scenario multi-conn-tx "" --conns 2 --dir tx --txns 40 --buffers 4 --coalesce-doorbells 2
scenario everything "" --format pcap --transport udp --vlan 100 --conns 2 --txns 150 --buffers 8 --bytes 6000 --mtu 1500 --coalesce-doorbells 2 --discontinuity-every 11 --malformed-every 13 --drop-every 17 --profile jitter
scenario throughput-profile "" --txns 100 --buffers 8 --profile throughput
scenario dcp-over-udp "" --transport udp --doorbell dcp --txns 60 --buffers 8 --coalesce-doorbells 2
scenario seq-wrap "" --txns 70000 --buffers 8 --bytes 64 --period-ns 2000 --latency-ns 1000

# Capture loss of each kind, the frames chosen from the generator's own frame list
# (--list-frames: index kind sender frame_seq txn:msg_seq/num_msgs...); 24 transactions of 3
# fragments into 4 buffers: transactions 9 and 13 both fill buffer 0.
"$GEN" -o "$tmp/list.pcapng" -e "$tmp/list.json" --txns 24 --buffers 4 --bytes 20000 \
	--list-frames "$tmp/list.txt" >/dev/null
frame_of() { awk -v m="$1" '{for (i = 5; i <= NF; i++) if ($i == m) {print $1; exit}}' "$tmp/list.txt"; }
bell9=$(awk '$2 == "doorbell" && $5 == "9:1/0" {print $1}' "$tmp/list.txt")
frag13=$(frame_of 13:2/3)
frag10=$(frame_of 10:2/3)
scenario loss-doorbell "" --txns 24 --buffers 4 --bytes 20000 --drop-frames "$bell9"
scenario loss-fragment "" --txns 24 --buffers 4 --bytes 20000 --drop-frames "$frag10"
scenario loss-doorbell-then-fragment "" --txns 24 --buffers 4 --bytes 20000 --drop-frames "$bell9,$frag13"
# The issue's case: the doorbell of transaction 9 and a fragment of 13 (the next into the same
# buffer) lost. Transaction 9 is given up at 13's first fragment; it is never paired with the
# doorbell of transaction 17 (a false latency of a whole buffer cycle): every matched latency
# stays within the generator's base 10 us + 2 us of noise.
check_eq "$(jq -r '.wire.rx | "\(.unmatched_transactions) \(.latency_ns.max <= 12000)"' \
	"$tmp/loss-doorbell-then-fragment.out.json")" "1 true" \
	"lost doorbell then lost fragment on one buffer: 1 unmatched, no false latency"
# Frames captured late (--late-frames I:J: frame I right after frame J, at J's time), from the
# same frame list: the last fragment of 10 after the first of 11 (10 completes later; a gap,
# then the late frame); the middle fragment of 10 after 10's doorbell (the doorbell finds 10
# incomplete: an orphan; 10 completes after it and is given up as unmatched at 14's first
# fragment, the next into its buffer); the doorbell of 9 after 10's middle fragment (another
# sender: nothing is late, the latency grows).
bell10=$(awk '$2 == "doorbell" && $5 == "10:1/0" {print $1}' "$tmp/list.txt")
frag103=$(frame_of 10:3/3)
scenario late-fragment "" --txns 24 --buffers 4 --bytes 20000 --late-frames "$frag103:$(frame_of 11:1/3)"
scenario late-fragment-after-doorbell "" --txns 24 --buffers 4 --bytes 20000 --late-frames "$frag10:$bell10"
scenario late-doorbell "" --txns 24 --buffers 4 --bytes 20000 --late-frames "$bell9:$frag10"
check_eq "$(jq -r '.wire.rx | "\(.orphan_doorbells) \(.unmatched_transactions)"' \
	"$tmp/late-fragment-after-doorbell.out.json")" "1 1" \
	"a fragment after its transaction's doorbell: the doorbell an orphan, the transaction unmatched"
# A fragment more than 1.5 s after its transaction's first (1 ms between transactions): the
# transaction was given up (reassembly timeout 1 s), the fragment is ignored and counted, not
# the start of a new incomplete transaction.
"$GEN" -o "$tmp/list3.pcapng" -e "$tmp/list3.json" --txns 2000 --buffers 4 --bytes 20000 \
	--period-ns 1000000 --list-frames "$tmp/list3.txt" >/dev/null
late=$(awk '$5 == "20:2/3" {print $1}' "$tmp/list3.txt"):$(awk '$5 == "1700:1/3" {print $1}' "$tmp/list3.txt")
scenario late-after-given-up "" --txns 2000 --buffers 4 --bytes 20000 --period-ns 1000000 --late-frames "$late"
check_eq "$(jq -r '"\(.capture.messages_after_given_up) \(.wire.rx.incomplete_transactions)"' \
	"$tmp/late-after-given-up.out.json")" "1 1" \
	"a fragment 1.7 s late: ignored (messages_after_given_up 1), its transaction incomplete once"
# between 1 and 1.5 s the give-up is the analysers' timing: the generator refuses to guess
late=$(awk '$5 == "20:2/3" {print $1}' "$tmp/list3.txt"):$(awk '$5 == "1250:1/3" {print $1}' "$tmp/list3.txt")
"$GEN" -o "$tmp/amb.pcapng" -e "$tmp/amb.json" --txns 2000 --buffers 4 --bytes 20000 \
	--period-ns 1000000 --late-frames "$late" >/dev/null 2>"$tmp/amb.err"
check_eq "$? $(grep -c 'between 1 and 1.5 s the analysers may or may not have given it up' "$tmp/amb.err") $([ -e "$tmp/amb.pcapng" ] && echo kept || echo removed)" \
	"2 1 removed" "dgrdma-gen --late-frames 1.2 s late: exit 2, the reason, no capture left"
# bad --late-frames lists: exit 2, the pair named
for bad in "5|is not a list of I:J pairs" "5:3|'5:3' needs 1 <= I < J <=" "5:99999|'5:99999' needs 1 <= I < J <=" \
	"5:9,5:10|frame 5 is in two pairs" "5:9,9:12|frame 9 is in two pairs" "a:b|is not a comma-separated list of I:J"; do
	"$GEN" -o "$tmp/bad.pcapng" -e "$tmp/bad.json" --late-frames "${bad%%|*}" >/dev/null 2>"$tmp/bad.err"
	check_eq "$? $(grep -cF -- "${bad#*|}" "$tmp/bad.err")" "2 1" "dgrdma-gen --late-frames ${bad%%|*}: exit 2, '${bad#*|}'"
done

# Cooked captures (tshark -i any: Linux cooked v1 names the sender only): raw Ethernet with the
# link addresses unknown, endpoints by id; UDP by its IP addresses; DCP doorbells; TX (no address
# tells the host there: --path tx, as for any bare capture)
scenario cooked "" --link sll --txns 60 --buffers 8 --bytes 20000 --conns 2
scenario cooked-udp "" --link sll --transport udp --txns 40 --profile jitter
scenario cooked-dcp "" --link sll --doorbell dcp --txns 60 --coalesce-doorbells 2
scenario cooked-tx "--path tx" --link sll --dir tx --txns 40 --conns 2 --drop-every 11

# UDP over IPv6 (the stack speaks IPv4 only, other software may not): endpoints by IPv6 address
# and port, as the plugin keys them; fragments, DCP doorbells, two connections with capture loss
# in a cooked capture, and a TX run whose host is given as [IPv6]:port
scenario udp6 "" --transport udp6 --txns 40 --buffers 8 --bytes 12000 --mtu 1500
scenario udp6-dcp "" --transport udp6 --doorbell dcp --txns 48 --buffers 8 --coalesce-doorbells 2
scenario udp6-cooked-loss "" --link sll --transport udp6 --conns 2 --txns 60 --drop-every 9
scenario udp6-tx-host "--host [fd00::1]:40000" --transport udp6 --dir tx --txns 40 --vlan 5

# UDP datagrams longer than the path's MTU, sent as IP fragments (--ip-mtu): put back together
# as the receiver's kernel does, in IPv4 and IPv6, with whole datagrams lost to the capture
scenario ip-fragments "" --transport udp --ip-mtu 1500 --txns 40 --bytes 8192 --drop-every 7
scenario ip6-fragments "" --transport udp6 --ip-mtu 1280 --txns 30 --doorbell dcp --coalesce-doorbells 2
# 40 datagrams of 8 KiB (8192 + 24 + 10 + 8 + 2 bytes of UDP) in 6 fragments of at most 1480
check_eq "$(jq -r '.capture | "\(.ip_fragments) \(.ip_datagrams_reassembled) \(.ip_fragments_given_up) \(.ip_fragments_refused)"' "$tmp/ip-fragments.out.json")" \
	"$(jq -r '(.wire.rx.transactions * 6) as $f | "\($f) \(.wire.rx.transactions) 0 0"' "$tmp/ip-fragments.json")" \
	"ip-fragments: 6 fragments per data datagram counted, each datagram put together once"

# Frames sent twice (--resend-frames I: the sender sends data frame I again right after itself,
# with the next frame_seq, as after a lost ACK): each resent message is a duplicate, of a
# transaction still incomplete (the middle fragment of 10) or already complete (its last);
# nothing else changes, and no frame_seq is missing. With the first copy lost in the capture
# the second is the one seen: no duplicate, and one frame missing. Coalesced: a frame with the
# end of one transaction and the start of the next, both messages repeated.
scenario resend-middle "" --txns 24 --buffers 4 --bytes 20000 --resend-frames "$frag10"
scenario resend-last "" --txns 24 --buffers 4 --bytes 20000 --resend-frames "$frag103"
check_eq "$(jq -r '"\(.capture.duplicate_messages) \(.capture.sequence_gaps) \(.wire.rx.matched)"' "$tmp/resend-last.out.json")" \
	"1 0 24" "a completing fragment sent twice: one duplicate message, no gap, every transaction matched"
scenario resend-first-lost "" --txns 24 --buffers 4 --bytes 20000 --drop-frames "$frag10" --resend-frames "$frag10"
check_eq "$(jq -r '"\(.capture.duplicate_messages) \(.capture.frames_missing) \(.wire.rx.matched)"' "$tmp/resend-first-lost.out.json")" \
	"0 1 24" "a resent frame whose first copy the capture lost: no duplicate, one frame missing, nothing unmatched"
scenario resend-coalesced "" --txns 30 --buffers 4 --bytes 3000 --mtu 1500 --coalesce-txns 2 --resend-frames 5,12,19
# bad --resend-frames lists: exit 2, the frame named
for bad in "$bell10|frame $bell10 is not a data frame" "0|frame 0 is not a data frame" "99999|frame 99999 is not a data frame" \
	"$frag10,$frag10|frame $frag10 named twice" "5;6|is not a comma-separated list of frame indices"; do
	"$GEN" -o "$tmp/bad.pcapng" -e "$tmp/bad.json" --txns 24 --buffers 4 --bytes 20000 \
		--resend-frames "${bad%%|*}" >/dev/null 2>"$tmp/bad.err"
	check_eq "$? $(grep -cF -- "${bad#*|}" "$tmp/bad.err")" "2 1" "dgrdma-gen --resend-frames ${bad%%|*}: exit 2, '${bad#*|}'"
done

# A lost frame that carried the end of one transaction and the start of the next (two
# transactions of 3000 bytes share frames).
"$GEN" -o "$tmp/list2.pcapng" -e "$tmp/list2.json" --txns 24 --buffers 4 --bytes 3000 --mtu 1500 \
	--coalesce-txns 2 --list-frames "$tmp/list2.txt" >/dev/null
both=$(awk '$2 == "data" && NF >= 6 && $5 ~ /^9:/ && $6 ~ /^10:/ {print $1; exit}' "$tmp/list2.txt")
if [ -n "$both" ]; then
	scenario loss-end-and-start "" --txns 24 --buffers 4 --bytes 3000 --mtu 1500 --coalesce-txns 2 \
		--drop-frames "$both"
	check_eq "$(jq -r '.wire.rx.incomplete_transactions' "$tmp/loss-end-and-start.out.json")" 2 \
		"the lost frame leaves both transactions it carried incomplete"
else
	not_ok "dgrdma-gen laid out no frame carrying the end of transaction 9 and the start of 10"
	diag "$(head -40 "$tmp/list2.txt")"
fi

# The verdict end to end, on generated captures of each latency shape (tolerable latency
# estimated from the capture, and given as run facts).
for prof in healthy:healthy jitter:jitter-bound throughput:throughput-bound; do
	"$GEN" -o "$tmp/v.pcapng" -e "$tmp/v.json" --txns 1000 --buffers 16 --profile "${prof%%:*}" >/dev/null
	got=$("$LR" --json --no-progress "$tmp/v.pcapng" | jq -r '.regime.label')
	got2=$("$LR" --json --no-progress --host-buffers 16 --buffer-size 8192 --sample-rate 102400000 \
		"$tmp/v.pcapng" | jq -r '.regime.label')
	check_eq "$got $got2" "${prof#*:} ${prof#*:}" "generated ${prof%%:*} capture: verdict ${prof#*:} (estimated and given tolerable latency)"
done

# RX and TX on one connection (the same MACs and ids): two captures merged in time order.
if command -v mergecap >/dev/null; then
	"$GEN" -o "$tmp/m_rx.pcapng" -e "$tmp/m_rx.json" --txns 60 --buffers 8 --bytes 20000 >/dev/null
	# the TX run numbers its frames from 20001: one sender's frames of the merged capture
	# must not repeat a frame_seq (a repeated one is a duplicate, dropped)
	"$GEN" -o "$tmp/m_tx.pcapng" -e "$tmp/m_tx.json" --dir tx --txns 50 --buffers 4 --seed 9 \
		--period-ns 33000 --seq-start 20001 >/dev/null
	mergecap -w "$tmp/m_both.pcapng" "$tmp/m_rx.pcapng" "$tmp/m_tx.pcapng"
	"$LR" --json --no-progress "$tmp/m_both.pcapng" >"$tmp/m_both.out" 2>&1
	sel='[.transactions, .doorbells, .matched, .unmatched_transactions, .orphan_doorbells, .latency_ns.min, .latency_ns.p50, .latency_ns.max, .latency_ns.mean] | join(" ")'
	check_eq "$(jq -r "\"\\(.wire.rx | $sel) / \\(.wire.tx | $sel) / \\(.capture.connections)\"" "$tmp/m_both.out")" \
		"$(jq -n -r --slurpfile r "$tmp/m_rx.json" --slurpfile t "$tmp/m_tx.json" \
			"\"\\(\$r[0].wire.rx | $sel) / \\(\$t[0].wire.tx | $sel)\"") / 1" \
		"RX and TX interleaved on one connection: each direction as in its own capture"
else
	skip "mergecap not installed"
fi

# --dcp-doorbells off: the DCP writes are not doorbells; every transaction waits or is superseded.
"$GEN" -o "$tmp/off.pcapng" -e "$tmp/off.json" --doorbell dcp --txns 48 --buffers 8 >/dev/null
"$LR" --json --no-progress --dcp-doorbells off "$tmp/off.pcapng" >"$tmp/off.out" 2>&1
check_eq "$(jq -r '(.wire.rx | [.transactions, .doorbells, .unmatched_transactions, .pending_at_end]) + (.dcp | [.write, .doorbells]) | join(" ")' "$tmp/off.out")" \
	"48 0 40 8 48 0" "--dcp-doorbells off: 48 DCP writes, no doorbell, 40 unmatched + 8 waiting"
"$LR" --dcp-doorbells 5:1 "$tmp/off.pcapng" >/dev/null 2>"$tmp/off.err"
check_eq "$? $(grep -c "'5:1' is not ADDR or LO:HI" "$tmp/off.err")" "2 1" "a bad --dcp-doorbells is named, exit status 2"
done_testing
