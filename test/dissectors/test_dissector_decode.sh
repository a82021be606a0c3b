#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The dgrdma Wireshark plugin decodes: field values of DG-RDMA (Ethernet, UDP
# on its port, Decode As, heuristic) and DCP, the field-order preference, and
# one expert info per malformed fixture (test/dissectors/gen-dissector-fixtures.c);
# every field and preference name the documentation writes is registered.
# make check: compute only
# make check: slow
source "$DGR_SRC/test/lib/tap.sh"
source "$DGR_SRC/test/dissectors/lib-tshark.sh"

if ! command -v tshark >/dev/null; then
	skip "tshark not installed (apt-get install tshark)"
	done_testing
	exit 0
fi
dissector_setup || exit 1
"$DGR_BUILD/test/dissectors/gen-dissector-fixtures" "$DT" || exit 1

# A capture is read once for each set of options (fetch, lib-tshark.sh), in two passes, every
# field the checks of that set need in one run.
FETCH_OPTS=(-2)
# fields KEY FRAME FIELD...: those fields of one frame of the run KEY, '|' separated, as
# tshark -T fields -E separator='|' prints them.
fields() {
	local key=$1 frame=$2
	shift 2
	awk -F'\t' -v frame="$frame" -v want="$*" 'FNR == NR {col[$0] = FNR + 1; next}
		$1 == frame {n = split(want, w, " ")
			for (i = 1; i <= n; i++) printf "%s%s", $col[w[i]], (i < n ? "|" : "\n")}' \
		"$DT/$key.fieldnames" "$DT/$key.fields"
}

# --- registration: the protocols (P) and fields (F) the plugin registers, from one run
ts -G fields >"$DT/registered" 2>/dev/null
protos=$(awk -F'\t' '$1 == "P" && ($3 == "dgrdma" || $3 == "dcp") {print $3}' "$DT/registered" |
	sort | tr '\n' ' ')
check_eq "$protos" "dcp dgrdma " "plugin registers the dgrdma and dcp protocols"
lua_fields="dgrdma.src_id dgrdma.dst_id dgrdma.frameseq dgrdma.ackstart dgrdma.ackcount
dgrdma.flags dgrdma.transactionid dgrdma.flagaddr dgrdma.flagvalue dgrdma.msgsintransaction
dgrdma.msgsequence dgrdma.dataaddr dgrdma.datalen dgrdma.type dgrdma.nextmsg dgrdma.payload
dcp.pli dcp.dmh01 dcp.dmh2 dcp.tag dcp.op dcp.addr dcp.value dcp.worker dcp.workeraddrspace
dcp.workeraddr"
missing=$(awk -F'\t' -v want="$lua_fields" '$1 == "F" {have[$3] = 1}
	END {n = split(want, w, /[ \n]+/); for (i = 1; i <= n; i++) if (!have[w[i]]) printf " %s", w[i]}' \
	"$DT/registered")
check_eq "$missing" "" "every Lua dissector field abbreviation is registered"

# --- the documentation's names: every Wireshark display-filter field and preference name
# README.md and docs/ write (names that start with dgrdma. or dcp.) exists in tshark with the
# plugin loaded: a field in the run above (expert info included) or a preference in
# `tshark -G defaultprefs`. File names (dgrdma.so, dcp.c, ...) are not names. (Here, not in a
# suite of its own, for the one -G fields run: a tshark start with the plugin costs 0.3 s.)
awk -F'\t' '$1 == "F" || $1 == "P" { print $3 }' "$DT/registered" | sort -u >"$DT/fields"
ts -G defaultprefs 2>"$DT/prefs.err" | sed -n 's/^#\{0,1\}\([a-z0-9_]*\.[a-z0-9_.]*\):.*/\1/p' |
	sort -u >"$DT/prefs"
check "tshark lists the plugin's fields ($(grep -c '^dgrdma\.' "$DT/fields") dgrdma.*)" \
	grep -qx dgrdma.analysis.doorbell_latency "$DT/fields"
check "and its preferences" grep -qx dgrdma.analyze "$DT/prefs"
# name FILE:LINE, every dgrdma.* and dcp.* name written in the docs
(
	cd "$DGR_SRC" || exit 1
	mapfile -t docs < <(find docs -name '*.md' | sort)
	grep -noE '\b(dgrdma|dcp)\.[A-Za-z0-9_.]*[A-Za-z0-9_]' README.md "${docs[@]}" | grep -vE '\.(c|h|so|md|1|pc|json|sh|gp|map|mk|txt|conf|py)$' |
		awk -F: '{ print $3 " " $1 ":" $2 }' | sort -k1,1
) >"$DT/written"
n=$(cut -d' ' -f1 "$DT/written" | sort -u | wc -l)
check "the docs write Wireshark names ($n distinct)" test "$n" -gt 20
unknown=$(cut -d' ' -f1 "$DT/written" | sort -u | comm -23 - "$DT/fields" | comm -23 - "$DT/prefs")
where=""
for u in $unknown; do
	where="$where $(awk -v u="$u" '$1 == u { print $1 " (" $2 ")"; exit }' "$DT/written")"
done
check_eq "${where# }" "" "every dgrdma.* and dcp.* name in README.md and docs/ is a field or a preference"
# the check itself: a name that does not exist is found
printf 'dgrdma.expert.alignment\n' | comm -23 - "$DT/fields" | comm -23 - "$DT/prefs" >"$DT/neg"
check_eq "$(cat "$DT/neg")" "dgrdma.expert.alignment" "a name the plugin does not register is reported"

# --- the runs: a capture once for each set of options
fetch basic basic.pcap -- dgrdma.src_id dgrdma.dst_id dgrdma.frameseq dgrdma.ackstart \
	dgrdma.ackcount dgrdma.flags dgrdma.transactionid dgrdma.flagaddr dgrdma.flagvalue \
	dgrdma.msgsintransaction dgrdma.msgsequence dgrdma.dataaddr dgrdma.datalen dgrdma.type \
	dgrdma.nextmsg dgrdma.flag.valid dgrdma.flag.length dgrdma.flag.eof dgrdma.flag.truncated \
	dgrdma.flag.opcode dgrdma.payload dgrdma.doorbell _ws.col.Info
fetch basic-lua-order basic.pcap -o dgrdma.lua_field_order:TRUE -- dgrdma.src_id dgrdma.dst_id
fetch udp udp.pcap -- udp.srcport dgrdma.udp_pad dgrdma.src_id dgrdma.transactionid \
	dgrdma.datalen
fetch udp-other udp-other.pcap -- dgrdma.transactionid
fetch udp-other-decode-as udp-other.pcap -d "udp.port==5000,dgrdma" -- dgrdma.transactionid \
	dgrdma.doorbell
fetch udp-other-heuristic udp-other.pcap --enable-heuristic dgrdma_udp -- dgrdma.transactionid \
	dgrdma.datalen
fetch padded padded.pcap -- dgrdma.transactionid dgrdma.doorbell dcp.pli dcp.tag dcp.addr \
	dcp.value _ws.expert.message
fetch dcp dcp.pcap -- dcp.pli dcp.dmh01 dcp.dmh2 dcp.op dcp.type dcp.tag dcp.addr \
	dcp.response_code dcp.nop.id dcp.nop.mac dcp.nop.marker dcp.byte_enables dcp.uncached \
	dcp.value dcp.workeraddrspace dcp.workeraddr dcp.worker dcp.control_op _ws.col.Info \
	_ws.expert.message
fetch malformed malformed.pcap -- _ws.expert.message dgrdma.analysis.txn_first _ws.malformed

# --- DG-RDMA over Ethernet: frame 3 of basic.pcap carries two messages
check_eq "$(fields basic 3 dgrdma.src_id dgrdma.dst_id dgrdma.frameseq dgrdma.ackstart \
	dgrdma.ackcount dgrdma.flags)" "2|1|3|0|0|0x01" "frame header fields (basic frame 3)"
check_eq "$(fields basic 3 dgrdma.transactionid dgrdma.flagaddr dgrdma.flagvalue \
	dgrdma.msgsintransaction dgrdma.msgsequence dgrdma.dataaddr dgrdma.datalen dgrdma.type \
	dgrdma.nextmsg)" \
	"2,3|0x00010004,0x00010008|0x000000c1,0x00000029|2,1|2,1|0x00008040,0x00010000|32,20|0,0|1,0" \
	"message header fields of two coalesced messages"
check_eq "$(fields basic 3 dgrdma.flag.valid dgrdma.flag.length dgrdma.flag.eof \
	dgrdma.flag.truncated dgrdma.flag.opcode)" "1,1|96,20|0,0|0,0|0,0" "flag word sub-fields"
check_eq "$(fields basic 1 dgrdma.payload)" \
	"$(printf '01%.0s' $(seq 64))" "payload bytes (64 x 0x01)"
check_eq "$(fields basic 4 dgrdma.doorbell dgrdma.flagaddr dgrdma.flagvalue \
	dgrdma.msgsintransaction dgrdma.datalen dgrdma.ackstart dgrdma.ackcount)" \
	"1|0x00000100|0x00000001|0|0|1|3" "doorbell (flag-only) message and piggy-backed ACK"
check_eq "$(fields basic 14 dgrdma.flags dgrdma.frameseq dgrdma.ackstart dgrdma.ackcount \
	dgrdma.transactionid)" "0x00|9|1|5|" "ACK-only frame has no messages (and its own frame_seq)"
check_eq "$(fields basic 5 _ws.col.Info)" \
	"1 -> 2 Seq=2 Doorbell(2) Doorbell(3)" "Info column of a frame with two doorbells"

check_eq "$(fields basic 1 dgrdma.dst_id)" "1" \
	"by default dgrdma.dst_id is offset 0, as OpenCPI's HDL and C++ driver name it"
check_eq "$(fields basic-lua-order 1 dgrdma.src_id dgrdma.dst_id)" "1|2" \
	"the lua_field_order preference reads offset 0 as the source, as the Lua dissector"

# --- DG-RDMA over UDP
check_eq "$(fields udp 1 udp.srcport dgrdma.udp_pad dgrdma.src_id dgrdma.transactionid \
	dgrdma.datalen)" "18078|0x0000|2|1|32" "UDP port 18078 with its 2-byte pad"
check_eq "$(fields udp-other 1 dgrdma.transactionid)" "" \
	"UDP on other ports is not DG-RDMA by default"
check_eq "$(fields udp-other-decode-as 2 dgrdma.transactionid dgrdma.doorbell)" "1|1" \
	"Decode As udp.port==5000,dgrdma"
check_eq "$(fields udp-other-heuristic 1 dgrdma.transactionid dgrdma.datalen)" "1|32" \
	"UDP heuristic (dgrdma_udp) when enabled"

# --- Ethernet minimum-size padding is not a message
check_eq "$(fields padded 2 dgrdma.transactionid dgrdma.doorbell _ws.expert.message)" \
	"1|1|" "doorbell zero padded to 60 bytes decodes without expert info"
check_eq "$(fields padded 3 dcp.pli dcp.tag dcp.addr dcp.value _ws.expert.message)" \
	"14|7|0x00040100|0xdeadbeef|" "padded DCP write decodes without expert info"

# --- DCP
check_eq "$(fields dcp 1 dcp.pli dcp.dmh01 dcp.dmh2 dcp.op dcp.type dcp.tag dcp.addr)" \
	"10|0x0000|0x00|0|0|1|0x00000000" "DCP NOP request"
check_eq "$(fields dcp 2 dcp.pli dcp.op dcp.type dcp.response_code dcp.nop.id \
	dcp.nop.mac dcp.nop.marker)" "18|3|5|0|0xc0ffee01|02:00:00:00:00:02|0x40" \
	"DCP NOP response: id, MAC and marker"
check_eq "$(fields dcp 3 dcp.pli dcp.op dcp.type dcp.byte_enables dcp.uncached dcp.addr \
	dcp.value dcp.workeraddrspace dcp.workeraddr dcp.worker)" \
	"14|1|1|0x0f|0|0x00040010|0x00000001|2|0x00040010|" \
	"DCP write to property space (worker bits 0: no worker, offset 0x40010)"
check_eq "$(fields dcp 5 dcp.op dcp.addr dcp.workeraddrspace dcp.worker dcp.workeraddr \
	dcp.control_op)" "2|0x00004004|1|0|0x00000004|0x00000004" \
	"DCP read of worker 0's control register 'start'"
check_eq "$(fields dcp 5 _ws.col.Info)" \
	"Read request tag 3 addr 0x004004 (start worker 0)" "control operation named in Info"
check_eq "$(fields dcp 6 dcp.pli dcp.type dcp.value dcp.response_code)" \
	"10|4|0x00001234|0" "DCP read response carries data"
check_eq "$(fields dcp 10 dcp.type dcp.response_code _ws.expert.message)" \
	"3|3|DCP error response: Error" "DCP error response code named"

# --- malformed fixtures: exactly the expected expert info per frame, read for every frame in
# one tshark run, with the buffer memory size set: frame|messages
ts -2 -r malformed.pcap -T fields -E separator='|' -e frame.number -e _ws.expert.message \
	-o dgrdma.buffer_memory_size:131072 >"$DT/malformed-experts.txt"
declare -A EXPERTS=()
while IFS='|' read -r frame messages; do
	EXPERTS[$frame]=$messages
done <"$DT/malformed-experts.txt"
expect_expert() {
	local frame=$1 want=$2 what=$3
	local got=${EXPERTS[$frame]:-}
	if [[ $got == *"$want"* ]]; then
		ok "$what"
	else
		not_ok "$what"
		diag "  frame $frame experts: '$got'; want '$want'"
	fi
}
expect_expert 1 "Frame shorter than the 10-byte frame header: 6 bytes" \
	"malformed frame header (6 bytes)"
expect_expert 2 "Frame flags 0x02: expected 0 (ACK only) or 1 (messages follow)" \
	"frame flags not 0 or 1"
expect_expert 3 "Message header cut by the end of the frame: 12 of 24 bytes" \
	"message header cut by the end of the frame"
expect_expert 4 "Message data runs past the end of the frame: data_len 200, 16 bytes left" \
	"message past end of frame"
expect_expert 5 "Alignment padding between messages is not zero" "padding not zero"
expect_expert 6 "bad alignment: txn 7: data_addr 0x00000002 not word aligned" \
	"data_addr not word aligned"
expect_expert 7 "flag word without valid bit: txn 8: flag_value 0x00000100" \
	"flag word without bit 0"
expect_expert 8 "address out of range: txn 9: data 0x00020000+16 beyond memory of 131072 bytes" \
	"data address beyond the buffer memory size preference"
expect_expert 10 "Fragment disagrees with earlier fragments of its transaction" \
	"inconsistent num_msgs_in_txn within a transaction"
expect_expert 11 "Unknown message type 5" "unknown message type"
expect_expert 12 "DCP packet too short" "DCP packet too short"
expect_expert 13 "DCP length field inconsistent: length field vs bytes (30, 14)" \
	"DCP length field larger than the packet"
expect_expert 14 "unknown DCP type/length: type and length (1, 12)" \
	"DCP type/length combination unknown"
expect_expert 15 "NOP response marker 0x41, expected 0x40" "NOP response marker"
check_eq "$(grep -c '^8|.*beyond memory' "$DT/malformed-experts.txt")" "1" \
	"in-range flag address is not flagged"
check_eq "$(fields malformed 8 _ws.expert.message | grep -c 'beyond memory')" "0" \
	"no address range check when buffer_memory_size is 0 (default)"
check_eq "$(fields malformed 16 _ws.expert.message)" \
	"address out of range: txn 12: data 0xfffffff0+32 beyond memory of 4294967296 bytes" \
	"data running past 2^32 is out of range with no memory size given"
check_eq "$(fields malformed 16 dgrdma.analysis.txn_first)" "" \
	"and it is not analysed (a receiver drops it)"
malformed=$(awk -F'\t' '$4 != "" {printf "%s ", $1}' "$DT/malformed.fields")
check_eq "$malformed" "1 2 3 4 5 12 13 14 " "frames marked malformed are exactly the broken ones"

done_testing
