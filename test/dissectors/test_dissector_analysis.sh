#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The dgrdma plugin's analysis: frame_seq gaps/duplicates, ACK coverage,
# transaction state, doorbell matching and latency (to the nanosecond), DCP
# request/response matching, the dgrdma,latency and dcp,srt taps, and the
# same answers as dgrdma-gen's ground truth on generated captures.
# make check: compute only
# make check: slow
source "$DGR_SRC/test/lib/tap.sh"
source "$DGR_SRC/test/dissectors/lib-tshark.sh"

if ! command -v tshark >/dev/null || ! command -v editcap >/dev/null; then
	skip "tshark or editcap not installed (apt-get install tshark)"
	done_testing
	exit 0
fi
dissector_setup || exit 1
# (tshark starts 58 times here: dissector_setup gives it a THP heap and a lean data folder)
"$DGR_BUILD/test/dissectors/gen-dissector-fixtures" "$DT" || exit 1

# A capture is read once for each set of options (fetch, lib-tshark.sh); column and column_at
# read the fields there: a frame has a field when tshark prints a value for it, which is what a
# display filter on the field selects.

# (Each process started costs 7-10 ms of CPU here, a subshell as much: a column is one awk
# that finds FIELD's place among the fetched names, then reads it.)
# column KEY FIELD: "number|value" of the frames that have FIELD in the fetched run KEY.
column() {
	awk -F'\t' -v f="$2" -v key="$1" 'FNR == NR {if ($0 == f && !c) c = FNR + 1; next}
		c && $c != "" {printf "%s|%s ", $1, $c}
		END {if (!c) {print "column: " f " not fetched in " key >"/dev/stderr"; exit 1}}' \
		"$DT/$1.fieldnames" "$DT/$1.fields"
}

# column_at KEY FIELD FRAME...: column of FIELD in those frames only.
column_at() {
	local key=$1 field=$2
	shift 2
	awk -F'\t' -v f="$field" -v key="$key" -v frames=" $* " \
		'FNR == NR {if ($0 == f && !c) c = FNR + 1; next}
		c && $c != "" && index(frames, " " $1 " ") {printf "%s|%s ", $1, $c}
		END {if (!c) {print "column_at: " f " not fetched in " key >"/dev/stderr"; exit 1}}' \
		"$DT/$key.fieldnames" "$DT/$key.fields"
}

# latency_tap KEY FILTER: the dgrdma,latency table of the run KEY whose filter is FILTER
# ("<none>": the tap without one), when the run had several.
latency_tap() {
	awk -v want="Filter: $2" '/^DG-RDMA doorbell latency/ {block = $0 "\n"; keep = 0; on = 1; next}
		on && /^====/ {if (keep) printf "%s", block; on = 0; next}
		on {block = block $0 "\n"; if ($0 == want) keep = 1}' "$DT/$1.tap"
}

# basic.pcap: every field in two passes, with the tap; in one pass, the latencies again and
# the tap three ways (unfiltered, with a filter, and as the stats tree)
fetch basic.pcap basic.pcap -2 -z dgrdma,latency -- _ws.expert.message \
	dgrdma.analysis.doorbell_latency dgrdma.analysis.doorbell_for \
	dgrdma.analysis.doorbell_txn dgrdma.analysis.doorbell_in dgrdma.analysis.buffer \
	dgrdma.analysis.unmatched dgrdma.analysis.overtaken_in dgrdma.analysis.orphan \
	dgrdma.analysis.seq_gap dgrdma.analysis.duplicate_of dgrdma.analysis.seq_late \
	dgrdma.analysis.txn_first dgrdma.analysis.acked_in dgrdma.analysis.acks_found \
	dgrdma.analysis.acks_first dgrdma.analysis.txn_complete_in dgrdma.analysis.txn_missing \
	dgrdma.doorbell
fetch basic-1pass basic.pcap -z dgrdma,latency -z dgrdma_doorbells,tree \
	-z 'dgrdma,latency,frame.number <= 5' -- dgrdma.analysis.doorbell_latency
fetch basic-noanalysis basic.pcap -2 -o dgrdma.analyze:FALSE -- dgrdma.analysis
fetch wrap.pcap wrap.pcap -2 -z dgrdma,latency -- dgrdma.analysis.seq_gap \
	dgrdma.analysis.seq_late dgrdma.analysis.duplicate_of
fetch dcp.pcap dcp.pcap -2 -z dcp,srt -- dcp.response_in dcp.response_to dcp.time \
	_ws.expert.message
fetch dcp-doorbell.pcap dcp-doorbell.pcap -2 -o dcp.doorbell_addresses:0x80000-0x8000f \
	-z dgrdma,latency -- dgrdma.analysis.doorbell_latency dgrdma.analysis.doorbell_in
fetch dcp-doorbell-default dcp-doorbell.pcap -2 -- dcp.doorbell
fetch dcp-doorbell-index.pcap dcp-doorbell-index.pcap -2 -z dgrdma,latency -- \
	dgrdma.analysis.doorbell_latency dgrdma.analysis.doorbell_in

# --- basic.pcap (frame list in gen-dissector-fixtures.c)
check_eq "$(column basic.pcap dgrdma.analysis.doorbell_latency)" \
	"4|0.000100000 5|0.000230000,0.000230000 10|0.000040000 11|0.000067000 16|0.000029000 " \
	"doorbell latency per doorbell, two coalesced doorbells in frame 5"
check_eq "$(column basic.pcap dgrdma.analysis.doorbell_for)" "4|1 5|3,3 10|9 11|6 16|15 " \
	"doorbell_for: frame that completed the answered transaction"
check_eq "$(column basic.pcap dgrdma.analysis.doorbell_txn)" "4|1 5|2,3 10|6 11|4 16|8 " \
	"doorbell_txn: the answered transaction ids"
check_eq "$(column basic.pcap dgrdma.analysis.doorbell_in)" "1|4 3|5,5 6|11 9|10 15|16 " \
	"doorbell_in on the completing fragment"
check_eq "$(column basic.pcap dgrdma.analysis.buffer)" "1|0 3|1,2 6|3 8|0 9|0 15|1 " \
	"buffer identity from data flag address rank"
check_eq "$(column basic.pcap dgrdma.analysis.unmatched)" "8|1 " \
	"transaction overtaken before its doorbell is unmatched"
check_eq "$(column basic.pcap dgrdma.analysis.overtaken_in)" "8|9 " "overtaken_in names frame 9"
check_eq "$(column basic.pcap dgrdma.analysis.orphan)" "12|1 " "doorbell with nothing waiting is an orphan"
check_eq "$(column basic.pcap dgrdma.analysis.seq_gap)" "6|1 " "frame_seq gap of one frame"
check_eq "$(column basic.pcap dgrdma.analysis.duplicate_of)" "7|6 " "duplicate frame_seq"
check_eq "$(column basic.pcap dgrdma.analysis.seq_late)" "" \
	"the numbered ACK-only frame 14 (seq 9) and the next frame (seq 10) are in sequence"
check_eq "$(column basic.pcap dgrdma.analysis.txn_first | tr ' ' '\n' | grep -c '^7|')" 0 \
	"a frame with a duplicate frame_seq is dropped by a receiver: its messages are not analysed"
check_eq "$(column basic.pcap dgrdma.analysis.acked_in)" \
	"1|4 2|4 3|4 4|14 5|14 10|14 11|14 12|14 " "acked_in: the frame whose ACK covered it"
check_eq "$(column basic.pcap dgrdma.analysis.acks_found) $(column basic.pcap dgrdma.analysis.acks_first)" \
	"4|3 14|5  4|1 14|4 " "ACK coverage: frames acknowledged and the first of them"
check_eq "$(column basic.pcap dgrdma.analysis.txn_complete_in)" \
	"1|1 2|3 3|3,3 6|6 8|8 9|9 15|15 " "txn_complete_in on every fragment (not in the duplicate frame 7)"
check_eq "$(column basic.pcap dgrdma.analysis.txn_missing)" "13|2 " \
	"incomplete transaction: 2 fragments missing"
check_eq "$(column_at basic.pcap _ws.expert.message 13)" \
	"13|Transaction 7 never completed (1 of 3 fragments seen) " \
	"expert info: transaction never completed"
check_eq "$(column_at basic.pcap _ws.expert.message 12)" \
	"12|Doorbell with no visible transaction waiting for it " \
	"expert info: doorbell with no visible transaction"
check_eq "$(column basic-1pass dgrdma.analysis.doorbell_latency)" "4|0.000100000 5|0.000230000,0.000230000 10|0.000040000 11|0.000067000 16|0.000029000 " \
	"doorbell latency is right in a single pass too"
check_eq "$(column basic-noanalysis dgrdma.analysis)" "" \
	"analyze preference off: no analysis fields"

# --- frame_seq across the 16-bit wrap (wrap.pcap: 65534 65535 0 1 3 2 3)
check_eq "$(column wrap.pcap dgrdma.analysis.seq_gap) $(column wrap.pcap dgrdma.analysis.seq_late)" \
	"5|1  6|1 " "no gap across 65535 -> 0; a gap after 1, then the late frame"
check_eq "$(column wrap.pcap dgrdma.analysis.duplicate_of)" "7|5 " \
	"duplicate after the wrap points at the right frame"

# --- the dgrdma,latency tap: in one pass, from the run that has the stats tree below and the
# tap with a filter; in two passes, from the run of the fields
tap=$(latency_tap basic-1pass '<none>')
check_eq "$(grep -A3 '^Connection' <<<"$tap")" \
"Connection: 02:00:00:00:00:02 id 2 -> 02:00:00:00:00:01 id 1
  transactions 7  doorbells 7  matched 6  unmatched 1  orphans 1  pending 0
           min          p50          p90          p99        p99.9          max         mean
        29.000       67.000      230.000      230.000      230.000      230.000      116.000" \
	"dgrdma,latency: counts and min/p50/p90/p99/p99.9/max/mean"
tap=$(cat "$DT/basic.pcap.tap")
check_eq "$(grep -A1 '^Connection' <<<"$tap" | tail -1)" \
	"  transactions 7  doorbells 7  matched 6  unmatched 1  orphans 1  pending 0" \
	"dgrdma,latency in two passes counts each event once"
tap=$(latency_tap basic-1pass 'frame.number <= 5')
check_eq "$(grep -A1 '^Connection' <<<"$tap" | tail -1)" \
	"  transactions 3  doorbells 3  matched 3  unmatched 0  orphans 0  pending 0" \
	"dgrdma,latency with a display filter"
check_eq "$(grep '^Filter' <<<"$tap")" "Filter: frame.number <= 5" "tap prints its filter"

# --- the same events as a stats tree (GUI: Statistics > DG-RDMA Doorbells), from the run above
tree=$(cat "$DT/basic-1pass.tap")
check_eq "$(grep -E '^  (Transactions|Doorbells)' <<<"$tree" | awk '{sub(/  +[0-9.]+ +[0-9.]+% .*/, ""); print}' | tr -s ' ')" \
" Transactions (complete, with a flag) 7
 Doorbells matched, latency (ns) 6 116000.00 29000 230000
 Transactions unmatched 1
 Doorbells orphan 1" "stats tree: per-connection counts and latency average/min/max (ns)"
check_eq "$(grep -E '^ [0-9]+-' <<<"$tree" | awk '{print $1, $2}' | tr '\n' ' ')" \
	"0-9999 0 10000-99999 3 100000-999999 3 1000000-9999999 0 10000000- 0 " \
	"stats tree: latency histogram"

# --- DCP request/response matching and the dcp,srt table
check_eq "$(column dcp.pcap dcp.response_in)" "1|2 3|4 5|6 9|10 " "dcp.response_in"
check_eq "$(column dcp.pcap dcp.response_to)" "2|1 4|3 6|5 10|9 " "dcp.response_to"
check_eq "$(column dcp.pcap dcp.time)" \
	"2|0.000020000 4|0.000050000 6|0.000030000 10|0.000070000 " "dcp.time response times"
check_eq "$(column_at dcp.pcap _ws.expert.message 7 8)" \
	"7|No response to this request (tag 4) 8|Response with tag 9 matches no outstanding request " \
	"unanswered request and response with unknown tag"
srt=$(cat "$DT/dcp.pcap.tap")
check_eq "$(grep -E '^ +[0-9]+ +(NOP|Write|Read) ' <<<"$srt" | tr -s ' ')" \
" 0 NOP 1 0.000020 0.000020 0.000020 0.000020
 1 Write 2 0.000050 0.000070 0.000060 0.000120
 2 Read 1 0.000030 0.000030 0.000030 0.000030" "dcp,srt: calls and times by operation"

# --- doorbells sent as DCP property writes
# (dcp-doorbell.pcap: the run with the doorbell range 0x80000-0x8000f)
check_eq "$(column dcp-doorbell.pcap dgrdma.analysis.doorbell_latency)" \
	"3|0.000050000 5|0.000065000 " "DCP-write doorbells matched, latency to the ns"
check_eq "$(column dcp-doorbell.pcap dgrdma.analysis.doorbell_in)" "1|3 2|5 " \
	"data transactions point at their DCP doorbells"
check_eq "$(column dcp-doorbell-default dcp.doorbell)" "" \
	"writes outside the doorbell range (default 0x100018) are not doorbells"
check_eq "$(column dcp-doorbell-index.pcap dgrdma.analysis.doorbell_latency)" \
	"3|0.000050000 5|0.000065000 " \
	"default: writes of the buffer index to the doorbell property 0x100018 are doorbells"
check_eq "$(column dcp-doorbell-index.pcap dgrdma.analysis.doorbell_in)" "1|3 2|5 " \
	"buffer index written is the buffer identity"
check_eq "$(column basic.pcap dgrdma.doorbell)" "4|1 5|1,1 10|1 11|1 12|1 16|1 " \
	"flag-only message with a discontinuity flag word is data, not a doorbell"

# --- cross-check with dgrdma-gen's ground truth
GEN="$DGR_BUILD/bin/dgrdma-gen"
# (Each process started costs about 10 ms of CPU here: a value read from a file is read with the
# others of that file, in one awk or jq.)
# json_list FILE: the per-doorbell latencies (ns) of every "latencies_ns" list, one per line.
json_list() {
	awk '{s = s $0} END {while (match(s, /"latencies_ns": \[[^]]*\]/)) {
		l = substr(s, RSTART + 17, RLENGTH - 18); s = substr(s, RSTART + RLENGTH)
		gsub(/ /, "", l); n = split(l, v, ",")
		for (i = 1; i <= n; i++) if (v[i] != "") print v[i]}}' "$1"
}
# json_num FILE KEY...: the first number after each "KEY": in FILE (dgrdma-gen's answers: the
# first direction's, for a key of each direction), space-separated; "(none)" for a key not there.
json_num() {
	local file=$1
	shift
	awk -v keys="$*" '{s = s $0 "\n"} END {n = split(keys, k, " ")
		for (i = 1; i <= n; i++) {v = "(none)"
			if (match(s, "\"" k[i] "\": [0-9.]*")) v = substr(s, RSTART + length(k[i]) + 4,
				RLENGTH - length(k[i]) - 4)
			printf "%s%s", v, (i < n ? " " : "\n")}}' "$file"
}
# read_gen_run BASE: from BASE.out (the fields of the cross-check's tshark run: latencies,
# seq_gap, duplicate_of, seq_late, duplicate_fragment; then the tap), writes the tap to
# BASE.pcapng.tap and the latencies in ns, one per line, to BASE.got, and prints
# "tap sums (transactions doorbells matched unmatched orphans pending)|gaps frames-missing
# duplicates late|duplicate fragments".
read_gen_run() {
	awk -F'\t' -v got="$1.got" -v tap="$1.pcapng.tap" '
		BEGIN {printf "" >got}
		/^====/ {intap = 1}
		intap {print >tap
			if ($0 ~ /^  transactions/) {split($0, f, " "); t += f[2]; d += f[4]; m += f[6]
				u += f[8]; o += f[10]; p += f[12]}
			next}
		{n = split($1, v, ",")
			for (i = 1; i <= n; i++) if (v[i] != "") {split(v[i], q, ".")
				fr = substr(q[2] "000000000", 1, 9); printf "%d\n", q[1] * 1000000000 + fr >got}
			if ($2 != "") {g++; mi += $2}
			if ($3 != "") du++
			if ($4 != "") l++
			n = split($5, v, ","); for (i = 1; i <= n; i++) if (v[i] != "") df++}
		END {print t, d, m, u, o, p "|" sprintf("%d %d %d %d", g, mi, du, l) "|" df + 0}' "$1.out"
}
# dcp_opts GEN-ARGS: DCP_OPTS, the doorbell range for --dcp-doorbell-per-address runs
# (0x41000 + 4 b), else none.
dcp_opts() {
	DCP_OPTS=()
	case " $* " in
	*" --dcp-doorbell-per-address "*) DCP_OPTS=(-o dcp.doorbell_addresses:0x41000-0x41fff) ;;
	esac
}
if [ ! -x "$GEN" ]; then
	skip "dgrdma-gen not built (make analysis): no cross-check"
else
	n=0
	while read -r args; do
		n=$((n + 1))
		"$GEN" -o "$DT/gen$n.pcapng" -e "$DT/gen$n.json" $args >/dev/null || {
			not_ok "dgrdma-gen $args"
			continue
		}
		dcp_opts $args
		# one two-pass run for the per-frame fields (latencies, sequence, duplicate fragments)
		# and the tap, whose table follows the fields after a line of "="
		ts -2 -r "gen$n.pcapng" "${DCP_OPTS[@]}" -T fields \
			-e dgrdma.analysis.doorbell_latency -e dgrdma.analysis.seq_gap \
			-e dgrdma.analysis.duplicate_of -e dgrdma.analysis.seq_late \
			-e dgrdma.analysis.duplicate_fragment -z dgrdma,latency >"$DT/gen$n.out"
		echo "$args" >"$DT/gen$n.args"
		IFS='|' read -r sums seq dups < <(read_gen_run "$DT/gen$n")
		# the ground truth: the latencies, then the counts, in the order of the checks
		json_list "$DT/gen$n.json" >"$DT/gen$n.want"
		read -r t d m u o p gaps missing late dupmsgs < <(json_num "$DT/gen$n.json" \
			transactions doorbells matched unmatched_transactions orphan_doorbells pending_at_end \
			gaps frames_missing late duplicate_messages)
		check_eq "$(cmp -s "$DT/gen$n.got" "$DT/gen$n.want" && echo same)" same \
			"dgrdma-gen $args: every doorbell latency equals the ground truth ($(grep -c . "$DT/gen$n.want") doorbells)"
		check_eq "$sums" "$t $d $m $u $o $p" "dgrdma-gen $args: tap counts equal the ground truth"
		# Sequence analysis: every frame numbered (ACK-only included); only real capture loss
		# is a gap, nothing is a duplicate, and only frames captured after later ones of their
		# sender (--late-frames) are late.
		check_eq "$seq" "$gaps $missing 0 $late" \
			"dgrdma-gen $args: frame_seq gaps, frames missing, duplicates, late equal the ground truth"
		# messages that arrive twice (--resend-frames), none from a frame a receiver drops whole
		check_eq "$dups" "$dupmsgs" \
			"dgrdma-gen $args: duplicate fragments equal the ground truth"
	done <<'ARGS'
--txns 300 --buffers 8 --bytes 20000 --coalesce-doorbells 2
--transport udp --txns 200 --profile jitter
--dir tx --txns 100 --conns 3
--txns 300 --drop-every 13 --malformed-every 17 --coalesce-txns 3 --bytes 3000 --conns 2
--doorbell dcp --txns 100 --coalesce-doorbells 4
--doorbell dcp --dcp-doorbell-per-address --txns 100 --coalesce-doorbells 2
--txns 200 --discontinuity-every 7
--format pcap --txns 100 --profile throughput --vlan 7
--snaplen 64 --txns 50 --bytes 9000
--txns 24 --buffers 4 --bytes 20000 --late-frames 42:43
--txns 24 --buffers 4 --bytes 20000 --late-frames 41:44
--txns 2000 --buffers 4 --bytes 20000 --period-ns 1000000 --late-frames 82:7011
--txns 24 --buffers 4 --bytes 20000 --resend-frames 4,5,9
--txns 30 --buffers 4 --bytes 3000 --mtu 1500 --coalesce-txns 2 --resend-frames 5,12,19 --drop-frames 12
--txns 80 --buffers 8 --malformed-every 5
ARGS
	# More incomplete transactions at once than a sender's reassembler holds (4096; the
	# older half is then given up): each still shows as never completed, and the
	# transactions completing after that (about 3600 here) are all found and matched.
	args="--mtu 128 --bytes 200 --txns 9000 --drop-every 5"
	if "$GEN" -o "$DT/evict.pcapng" -e "$DT/evict.json" $args >/dev/null; then
		want=$(json_num "$DT/evict.json" incomplete_transactions)
		# the transactions of the frames marked never completed, and the tap, in one run
		fetch evict evict.pcapng -2 -z dgrdma,latency -- dgrdma.transactionid \
			dgrdma.analysis.txn_missing
		got=$(awk -F'\t' '$3 != "" {print $2}' "$DT/evict.fields" | tr ',' '\n' | sort -u |
			grep -c .)
		if [ "$want" -gt 4096 ]; then
			check_eq "$got" "$want" \
				"dgrdma-gen $args: all $want incomplete transactions (> 4096) never completed"
		else
			not_ok "dgrdma-gen $args: only $want incomplete transactions, 4096 not exceeded"
		fi
		sums=$(awk '/^  transactions/ {print $2, $4, $6, $8, $10, $12}' "$DT/evict.tap")
		check_eq "$sums" "$(json_num "$DT/evict.json" transactions doorbells matched \
			unmatched_transactions orphan_doorbells pending_at_end)" "dgrdma-gen $args: tap counts equal the ground truth"
	else
		not_ok "dgrdma-gen $args"
	fi
	# Percentiles: nearest rank, same as the expected answers (one connection).
	"$GEN" -o "$DT/pct.pcapng" -e "$DT/pct.json" --txns 1000 --profile jitter >/dev/null
	got=$(ts -r pct.pcapng -q -z dgrdma,latency | grep -A1 ' min ' | tail -1 |
		awk '{for (i = 1; i <= 6; i++) printf "%d ", $i * 1000 + 0.5}')
	check_eq "$got" "$(json_num "$DT/pct.json" min p50 p90 p99 p999 max) " "tap min/p50/p90/p99/p99.9/max equal the ground truth (ns)"
fi

# --- cooked captures (tshark -i any: Linux cooked v1 names a frame's sender only). Raw-Ethernet
# DG-RDMA then has no address pair: before, data and doorbells fell into two conversations and
# nothing matched; now, as in latency-report, endpoints are their ids. Captures generated with
# --link sll: every doorbell latency and the tap's counts must equal the generator's answers.
if [ -x "$GEN" ]; then
	n=0
	while read -r args; do
		n=$((n + 1))
		"$GEN" --link sll -o "$DT/cooked$n.pcapng" -e "$DT/cooked$n.json" $args >/dev/null || {
			not_ok "dgrdma-gen --link sll $args"
			continue
		}
		dcp_opts $args
		# the latencies and the tap in one two-pass run: the tap's table follows a line of "="
		ts -2 -r "cooked$n.pcapng" "${DCP_OPTS[@]}" -T fields \
			-e dgrdma.analysis.doorbell_latency -z dgrdma,latency >"$DT/cooked$n.out"
		# (read_gen_run: the latencies to cooked$n.got, the tap's sums; the other columns empty)
		IFS='|' read -r sums _ < <(read_gen_run "$DT/cooked$n")
		read -r t d m u o _ <<<"$sums"
		sums="$t $d $m $u $o"
		json_list "$DT/cooked$n.json" >"$DT/cooked$n.want"
		check_eq "$(cmp -s "$DT/cooked$n.got" "$DT/cooked$n.want" && echo same)" same \
			"cooked capture, dgrdma-gen $args: every doorbell latency equals the ground truth"
		check_eq "$sums" "$(json_num "$DT/cooked$n.json" transactions doorbells matched \
			unmatched_transactions orphan_doorbells)" \
			"cooked capture, dgrdma-gen $args: tap counts equal the ground truth"
		lr_opts=()
		[ ${#DCP_OPTS[@]} -gt 0 ] && lr_opts=(--dcp-doorbells 0x41000:0x41fff)
		check_eq "$("$DGR_BUILD/bin/latency-report" --json --no-progress "${lr_opts[@]}" \
			"$DT/cooked$n.pcapng" 2>/dev/null | jq -r '[.wire[]] | [(map(.transactions) | add),
				(map(.doorbells) | add), (map(.matched) | add),
				(map(.unmatched_transactions) | add), (map(.orphan_doorbells) | add)] | join(" ")')" \
			"$sums" "cooked capture, dgrdma-gen $args: latency-report counts the same"
	done <<'ARGS'
--txns 50 --buffers 8 --bytes 20000
--conns 3 --txns 40
--dir tx --txns 40 --conns 2
--doorbell dcp --txns 60 --coalesce-doorbells 2
ARGS
fi

# --- a cooked capture of two connections with DCP doorbells: no address and no id says which
# connection a doorbell answers, so the engine's rule (analysis/engine/conn_table.h) gives every
# one to the first connection. By hand: its 60 transactions are each matched by the first
# doorbell into their buffer, the other 60 doorbells are orphans, and the second connection's
# transactions are each given up by the next one into the same buffer (52), its last 8 (one
# per buffer) still waiting. Before the one table, the plugin gave them to another connection.
if [ -x "$GEN" ]; then
	"$GEN" --link sll --doorbell dcp --conns 2 --txns 60 -o "$DT/cooked-dcp2.pcapng" \
		-e "$DT/cooked-dcp2.json" >/dev/null || not_ok "dgrdma-gen --link sll --doorbell dcp --conns 2"
	want="60 120 60 0 60 0|60 0 0 52 0 8"
	check_eq "$(ts -r cooked-dcp2.pcapng -q -z dgrdma,latency | grep '^  transactions' |
		awk '{print $2, $4, $6, $8, $10, $12}' | paste -sd'|')" "$want" \
		"cooked capture, 2 connections, DCP doorbells: every doorbell goes to the first connection"
	check_eq "$("$DGR_BUILD/bin/latency-report" --json --no-progress "$DT/cooked-dcp2.pcapng" \
		2>/dev/null | jq -r '.connections[] | .rx | [.transactions, .doorbells, .matched,
			.unmatched_transactions, .orphan_doorbells, .pending_at_end] | join(" ")' |
		paste -sd'|')" "$want" \
		"cooked capture, 2 connections, DCP doorbells: latency-report gives them to the same connection"
fi

# --- a fragment sent again after its transaction completed (frame 5: txn 1's last of 3, again as frame 19 at
# the end with the FPGA's next frame_seq, 13), as it was or disagreeing with its transaction
# (num_msgs_in_txn 4): both are repeats, counted as latency-report's duplicate_messages; the second
# is also marked inconsistent. Before, the plugin called the second inconsistent only.
"$GEN" --txns 4 --buffers 4 --bytes 20000 --format pcap -o "$DT/rep.pcap" -e "$DT/rep.json" >/dev/null
for v in "same" "4"; do
	num_msgs=()
	[ "$v" = same ] || num_msgs=("$v")
	python3 "$DGR_SRC/test/lib/repeat_fragment.py" "$DT/rep.pcap" "$DT/rep-$v.pcap" 5 13 \
		"${num_msgs[@]}"
	fetch "rep-$v" "rep-$v.pcap" -- dgrdma.analysis.duplicate_fragment \
		dgrdma.expert.txn_inconsistent
	check_eq "$(awk -F'\t' '$2 != ""' "$DT/rep-$v.fields" | cut -f1) $(awk -F'\t' '$3 != ""' "$DT/rep-$v.fields" | grep -c .) $("$DGR_BUILD/bin/latency-report" --json --no-progress "$DT/rep-$v.pcap" | jq .capture.duplicate_messages)" \
		"19 $([ "$v" = same ] && echo 0 || echo 1) 1" \
		"a repeat after completion (num_msgs_in_txn $v): frame 19 a duplicate in both tools, inconsistent only when it disagrees"
done

# --- the engine's connection limit (256): frames of more connections are decoded, not analysed
python3 "$DGR_SRC/test/lib/many_conns.py" 300 "$DT/conns.pcap"
fetch conns conns.pcap -2 -- dgrdma.analysis.seq_first dgrdma
check_eq "$(awk -F'\t' '$2 != ""' "$DT/conns.fields" | grep -c .) $(awk -F'\t' '$3 != ""' "$DT/conns.fields" | grep -c .)" \
	"256 300" "300 connections: 256 analysed (first frame of a sender), all 300 decoded"

# --- the same latencies as latency-report (analysis/), doorbell by doorbell
LR="$DGR_BUILD/bin/latency-report"
if [ ! -x "$LR" ] || [ ! -x "$GEN" ]; then
	skip "latency-report or dgrdma-gen not built (make analysis): no cross-check"
else
	n=0
	while read -r args; do
		n=$((n + 1))
		"$GEN" -o "$DT/lr$n.pcapng" -e "$DT/lr$n.json" $args >/dev/null
		mkdir -p "$DT/lr$n"
		if ! "$LR" --no-progress --csv "$DT/lr$n" "$DT/lr$n.pcapng" >/dev/null 2>&1; then
			not_ok "latency-report on dgrdma-gen $args"
			continue
		fi
		awk -F, 'NR > 1 {print $2}' "$DT/lr$n/doorbells.csv" >"$DT/lr$n.want"
		ts -2 -r "lr$n.pcapng" -T fields -e dgrdma.analysis.doorbell_latency \
			-Y dgrdma.analysis.doorbell_latency | to_ns >"$DT/lr$n.got"
		check_eq "$(cmp -s "$DT/lr$n.got" "$DT/lr$n.want" && echo same)" same \
			"dgrdma-gen $args: doorbell latencies equal latency-report's ($(grep -c '' "$DT/lr$n.want"), ns)"
	done <<'ARGS'
--txns 200 --conns 2 --drop-every 11 --coalesce-doorbells 2
--transport udp --txns 150 --profile jitter --discontinuity-every 9
--doorbell dcp --txns 100 --coalesce-doorbells 3
--transport udp6 --txns 120 --conns 2 --drop-every 9 --coalesce-doorbells 2
--transport udp --ip-mtu 1500 --txns 60 --bytes 8192 --drop-every 9
ARGS
fi

# --- one engine: the tap and latency-report --json give the same counts and percentiles
# agree NAME FILE TSHARK-OPTIONS... -- LATENCY-REPORT-OPTIONS...: counts summed over the
# tap's connections against the sum of latency-report's directions; percentiles when the
# capture has one data direction of one connection (the tap has no aggregate row).
agree() {
	local name=$1 file=$2 tso=() lro=() t_sums t_dcp rows t_pct l_sums l_dcp l_pct
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		tso+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	lro=("$@")
	# the tap of a run above on this file (with the same options), else its own
	[ -f "$DT/$file.tap" ] || ts -r "$file" "${tso[@]}" -q -z dgrdma,latency >"$DT/$file.tap"
	if ! "$LR" --no-progress --json "${lro[@]}" "$DT/$file" >"$DT/$file.lr.json" 2>/dev/null; then
		not_ok "$name: latency-report --json runs"
		return
	fi
	# the tap: counts summed over its connections | DCP doorbells without a connection (0 when
	# it prints none) | its connection rows | the percentiles under its last "min" header (ns)
	IFS='|' read -r t_sums t_dcp rows t_pct < <(awk '
		/^  transactions/ {t += $2; d += $4; m += $6; u += $8; o += $10; p += $12; rows++}
		/^DCP doorbells without a DG-RDMA connection: / {v = substr($0, 45); if (v != "") dcp = v}
		after_min {pct = ""; for (i = 1; i <= 6; i++) pct = pct sprintf("%d ", $i * 1000 + 0.5)}
		{after_min = / min /}
		/ min / {has_min = 1}
		END {printf "%d %d %d %d %d %d|%s|%d|%s\n", t, d, m, u, o, p, (dcp == "" ? 0 : dcp),
			rows, (has_min ? pct : "(none)")}' "$DT/$file.tap")
	# latency-report: the same, summed over its directions, the percentiles of the first
	# direction with a latency
	IFS='|' read -r l_sums l_dcp l_pct < <(jq -r '(.wire // {}) as $w |
		(["transactions", "doorbells", "matched", "unmatched_transactions", "orphan_doorbells",
			"pending_at_end"] | map(. as $k | [$w[] | .[$k]] | add // 0 | tostring) | join(" ")) +
		"|" + (.dcp.doorbells_without_connection | tostring) + "|" +
		([$w[] | .latency_ns | select(.count > 0)][0] as $l | if $l == null then "(none)" else
			[$l.min, $l.p50, $l.p90, $l.p99, $l.p999, $l.max] | map(floor | "\(.) ") | add end)' \
		"$DT/$file.lr.json")
	check_eq "$t_sums" "$l_sums" \
		"$name: tap and latency-report count the same transactions, doorbells, matched, unmatched, orphans, pending"
	check_eq "$t_dcp" "$l_dcp" \
		"$name: tap and latency-report count the same DCP doorbells without a connection"
	if [ "$rows" = 1 ] && [ "$t_pct" != "(none)" ]; then
		check_eq "$t_pct" "$l_pct" \
			"$name: tap and latency-report give the same min/p50/p90/p99/p99.9/max (ns)"
	fi
}
if [ ! -x "$LR" ] || [ ! -x "$GEN" ]; then
	skip "latency-report or dgrdma-gen not built (make analysis): no agreement check"
else
	for f in basic.pcap wrap.pcap malformed.pcap udp.pcap padded.pcap dcp-doorbell-index.pcap; do
		agree "$f" "$f"
	done
	check_eq "$("$LR" --no-progress --json "$DT/malformed.pcap" | jq -r '.malformed.address_out_of_range')" \
		1 "latency-report: data past 2^32 (malformed.pcap frame 16) is malformed, memory size unknown"
	agree dcp-doorbell.pcap dcp-doorbell.pcap -o dcp.doorbell_addresses:0x80000-0x8000f -- \
		--dcp-doorbells 0x80000:0x8000f
	n=0
	while read -r args; do
		n=$((n + 1))
		# a capture the cross-check generated with the same arguments, its tap kept (dgrdma-gen
		# writes the same capture for the same arguments), else a new one
		file=$(grep -lxF -- "$args" "$DT"/gen*.args 2>/dev/null | head -1)
		if [ -n "$file" ]; then
			file=$(basename "${file%.args}.pcapng")
		else
			file="ag$n.pcapng"
			"$GEN" -o "$DT/ag$n.pcapng" -e "$DT/ag$n.json" $args >/dev/null || {
				not_ok "dgrdma-gen $args"
				continue
			}
			# its tap (one pass), and which frames are DCP and which malformed, in one run
			dcp_opts $args
			fetch "$file" "$file" "${DCP_OPTS[@]}" -z dgrdma,latency -- dcp _ws.malformed
		fi
		case " $args " in
		*" --dcp-doorbell-per-address "*)
			agree "dgrdma-gen $args" "$file" -o dcp.doorbell_addresses:0x41000-0x41fff -- \
				--dcp-doorbells 0x41000:0x41fff
			;;
		*) agree "dgrdma-gen $args" "$file" ;;
		esac
		case " $args " in
		*" --transport udp --doorbell dcp "*)
			# the pad rule: pad 0xF040 carries DCP over UDP, decoded by the dcp dissector
			[ -f "$DT/$file.fields" ] ||
				fetch "$file" "$file" -z dgrdma,latency -- dcp _ws.malformed
			check_eq "$(awk -F'\t' '$2 != ""' "$DT/$file.fields" | grep -c .) $(awk -F'\t' '$3 != ""' "$DT/$file.fields" | grep -c .)" \
				"$(json_num "$DT/${file%.pcapng}.json" dcp_frames) 0" \
				"dgrdma-gen $args: every DCP frame over UDP decoded as DCP, none malformed"
			;;
		esac
	done <<'ARGS'
--txns 300 --buffers 8 --bytes 20000 --coalesce-doorbells 2
--transport udp --txns 200 --profile jitter
--dir tx --txns 100
--txns 400 --drop-every 13 --malformed-every 17 --coalesce-txns 3 --bytes 3000
--txns 300 --drop-every 7 --mtu 1500 --bytes 6000
--doorbell dcp --txns 100 --coalesce-doorbells 4
--doorbell dcp --dcp-doorbell-per-address --txns 100 --coalesce-doorbells 2
--txns 200 --discontinuity-every 7 --profile throughput
--format pcap --txns 100 --vlan 7
--snaplen 64 --txns 50 --bytes 9000
--transport udp --snaplen 128 --txns 100 --coalesce-txns 4 --bytes 500 --drop-every 9
--txns 200 --conns 3 --drop-every 11
--transport udp --doorbell dcp --txns 100 --coalesce-doorbells 2
--transport udp6 --doorbell dcp --txns 100 --conns 2 --mtu 1500 --bytes 6000
--transport udp6 --ip-mtu 1280 --txns 60 --bytes 8192 --coalesce-doorbells 2
ARGS
fi

# --- DCP doorbells with no DG-RDMA data in the capture (only the DCP frames of a run kept): no
# connection's data could be what they answer. latency-report counts them apart
# (dcp.doorbells_without_connection), not as orphans of a connection; so do the tap and the field.
# (the DCP frames, dcp-*, picked from dgrdma-gen's frame list; the fields and the tap in one run)
"$GEN" --doorbell dcp --txns 10 -o "$DT/dcp10.pcapng" -e "$DT/dcp10.json" \
	--list-frames "$DT/dcp10.list" >/dev/null
mapfile -t dcp_frames < <(awk '$2 ~ /^dcp-/ {print $1}' "$DT/dcp10.list")
editcap -r "$DT/dcp10.pcapng" "$DT/home/dcp-only.pcapng" "${dcp_frames[@]}"
fetch home/dcp-only.pcapng home/dcp-only.pcapng -z dgrdma,latency -- \
	dgrdma.analysis.no_connection dgrdma.analysis.orphan
tap=$(cat "$DT/home/dcp-only.pcapng.tap")
check_eq "$(grep -c '^Connection' <<<"$tap") $(sed -n 's/^DCP doorbells without a DG-RDMA connection: //p' <<<"$tap") $(awk -F'\t' '$2 != "" || $3 != "" {print $2 "," $3}' "$DT/home/dcp-only.pcapng.fields" | sort | uniq -c | awk '{print $1, $2}')" \
	"0 10 10 1," "DCP doorbells without DG-RDMA data: no connection row, 10 counted apart, 10 marked, no orphan"
if [ -x "$LR" ] && [ -x "$GEN" ]; then
	agree "DCP doorbells without DG-RDMA data" home/dcp-only.pcapng
	# IP fragments: the 14th fragment that has more to follow taken out of the capture; its
	# datagram (6 fragments: 8236 bytes of UDP in at most 1480 per fragment) cannot be put
	# together by either tool, nor by a receiver's kernel
	"$GEN" --transport udp --ip-mtu 1500 --txns 30 --bytes 8192 -o "$DT/ipf.pcapng" \
		-e "$DT/ipf.json" >/dev/null
	lost=$(ts -r ipf.pcapng -Y 'ip.flags.mf == 1' -T fields -e frame.number | sed -n 14p)
	editcap "$DT/ipf.pcapng" "$DT/home/ipf-lost.pcapng" "$lost"
	# its tap, for agree and the check below
	fetch home/ipf-lost.pcapng home/ipf-lost.pcapng -z dgrdma,latency --
	agree "a capture that lost one IP fragment (frame $lost)" home/ipf-lost.pcapng
	check_eq "$("$LR" --no-progress --json "$DT/home/ipf-lost.pcapng" | jq -r '.capture | "\(.ip_fragments_given_up) \(.ip_datagrams_reassembled)"') $(awk '/^  transactions/ {print $2}' "$DT/home/ipf-lost.pcapng.tap")" \
		"5 29 29" "a lost IP fragment: its datagram's 5 other fragments given up, 29 of 30 transactions in both tools"
fi

# --- a transaction id repeated after the engine forgot it (it remembers the last 65 536 finished
# ids of a sender): txn 1's only fragment sent again after 66 000 transactions is a new
# transaction in both tools (the plugin keeps every transaction, but the engine decides), which
# then waits for a doorbell that never comes: one transaction more, pending at the end.
if [ -x "$LR" ]; then
	"$GEN" --txns 66000 --buffers 4 --bytes 16 --period-ns 2000 --latency-ns 1000 --format pcap \
		--no-latency-list -o "$DT/old.pcap" -e "$DT/old.json" --list-frames "$DT/old.list" \
		>/dev/null
	# the first data frame of txn 1, from the frame list ("index data sender seq txn:msg/num")
	first=$(awk '$2 == "data" {for (i = 5; i <= NF; i++) if ($i ~ /^1:/) {print $1; exit}}' \
		"$DT/old.list")
	python3 "$DGR_SRC/test/lib/repeat_fragment.py" "$DT/old.pcap" "$DT/home/old-rep.pcap" \
		"$first" next
	agree "txn 1 repeated after 66 000 transactions" home/old-rep.pcap
	check_eq "$("$LR" --no-progress --json "$DT/home/old-rep.pcap" | jq -r '"\(.wire.rx.transactions) \(.wire.rx.pending_at_end) \(.capture.duplicate_messages)"')" \
		"66001 1 0" "txn 1 repeated after 66 000 transactions: a new transaction, pending, no duplicate"
fi

# --- ACK-only frames to an FPGA (docs/protocol.md): dgrdma-gen's consumer (the host, on the RX
# path) sends one after every 8 data frames. Over raw Ethernet each is padded to the 46-byte
# minimum, which the FPGA's parser reads as a frame 0; over UDP a 10-byte one is ignored as
# truncated. Both tools flag every one of them (the plugin an expert warning, latency-report a
# finding), and none of the FPGA's; the capture does not show the lock-up (gen's FPGA goes on).
if [ -x "$LR" ]; then
	for tr in ether udp; do
		"$GEN" --transport "$tr" --txns 200 --seq-start 65500 -o "$DT/acks-$tr.pcapng" \
			-e "$DT/acks-$tr.json" --list-frames "$DT/acks-$tr.list" >/dev/null
		want=$(awk '$2 == "ack" && $3 == "host" {print $1}' "$DT/acks-$tr.list" | tr '\n' ' ')
		fpga_acks=$(awk '$2 == "ack" && $3 != "host"' "$DT/acks-$tr.list" | wc -l)
		# the frames the plugin warns on, with their messages, in one run
		fetch "acks-$tr" "acks-$tr.pcapng" -- dgrdma.expert.ack_only_to_fpga _ws.expert.message
		got=$(awk -F'\t' '$2 != "" {printf "%s ", $1}' "$DT/acks-$tr.fields")
		check_eq "$got" "$want" "$tr: the plugin warns on each of the host's ACK-only frames (${want%% *}..., none of the FPGA's $fpga_acks)"
		n=$(echo "$want" | wc -w)
		if [ "$tr" = ether ]; then
			msg="ACK-only frame of 46 bytes to an FPGA: its frame parser reads the padding"
			key=padded
		else
			msg="ACK-only frame of 10 bytes over UDP to an FPGA: its frame parser ignores it as truncated"
			key=truncated
		fi
		check_eq "$(awk -F'\t' '$2 != "" {print $3}' "$DT/acks-$tr.fields" | grep -c "^$msg")" "$n" "$tr: its message names what the FPGA does"
		"$LR" --no-progress --json "$DT/acks-$tr.pcapng" >"$DT/acks-$tr.report.json"
		check_eq "$(jq -r ".ack_only_to_fpga | \"\(.$key) \(.lockup.shown)\"" "$DT/acks-$tr.report.json")" \
			"$n false" "$tr: latency-report counts the same $n frames, no lock-up shown"
		check "$tr: its finding names the consequence and the first frame (${want%% *})" \
			jq -e --arg f "${want%% *}" '.ack_only_to_fpga.finding |
				(test("the first: frame " + $f) or test("10 bytes long")) and
				test("peer-kind fpga")' "$DT/acks-$tr.report.json"
	done
	check "ether: the finding: frame 0 lost at the wrap, the flags stop" \
		jq -e '.ack_only_to_fpga.finding | test("drops the host.s real frame 0") and
			test("flags stop for good")' "$DT/acks-ether.report.json"
	check "udp: the finding: truncated, a frame_seq hole" \
		jq -e '.ack_only_to_fpga.finding | test("ignores them as truncated, frame_seq holes")' \
		"$DT/acks-udp.report.json"
	# the lock-up itself (dgrdma-gen --fpga-lockup: the FPGA takes no credit from the host's
	# frame 0 on): frame 0, the FPGA's data after it and the doorbells after its last data,
	# from the frame list (the ground truth), as latency-report reads them off the capture
	"$GEN" --txns 200 --seq-start 65500 --fpga-lockup -o "$DT/lock.pcapng" -e "$DT/lock.json" \
		--list-frames "$DT/lock.list" >/dev/null
	f0=$(awk '$2 == "doorbell" && $3 == "host" && $4 == 0 {print $1}' "$DT/lock.list")
	want=$(awk -v f0="$f0" '$1 >= f0 && $2 == "doorbell" {db++; dbl++}
		$1 > f0 && $2 == "data" {data++; dbl = 0}
		END {print "true " f0 " " data " " db " " dbl}' "$DT/lock.list")
	check_eq "$("$LR" --no-progress --json "$DT/lock.pcapng" | jq -r '.ack_only_to_fpga.lockup |
		"\(.shown) \(.frame0) \(.data_transactions_after) \(.doorbells_after) \(.doorbells_without_effect)"')" \
		"$want" "lock-up at the wrap: shown, frame 0, data after it, doorbells from it on, without effect"
	"$GEN" --dir tx --txns 50 -o "$DT/acks-tx.pcapng" -e "$DT/acks-tx.json" >/dev/null
	check_eq "$(ts -r acks-tx.pcapng -o dgrdma.host_sends_data:TRUE -Y dgrdma.expert.ack_only_to_fpga | grep -c .)/$("$LR" --no-progress --json --path tx "$DT/acks-tx.pcapng" | jq .ack_only_to_fpga.padded)" \
		"0/0" "TX path: the FPGA's ACK-only frames to the host are not flagged by either tool"
fi

done_testing
