#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-wire: fragmentation plans, hex decoding and argument errors.
set -u
. "$DGR_SRC/test/lib/tap.sh"
W="$DGR_BUILD/bin/dgrdma-wire"

out=$("$W" plan --size 32768 --mtu 9000)
check_eq "$(echo "$out" | tail -1)" "4 frame(s)" "32 KiB at MTU 9000 takes 4 frames"
check_eq "$(echo "$out" | awk '$1 == 4 { print $4 }')" "5888" "the final fragment carries 5888 bytes"
out=$("$W" plan --size 1465 --mtu 1500)
check_eq "$(echo "$out" | awk '$1 == 2 { print $4 }')" "12" "1465 bytes at MTU 1500: final fragment 9 rounded up to 12"

# A doorbell frame: dst_id 1 (offset 0), src_id 2, seq 3, flag-only txn 7 to flag 0x100.
hex="01000200030000000001 07000000 00010000 01000000 0000 0100 00000000 0000 00 00"
out=$("$W" decode "$hex")
check_eq "$(echo "$out" | head -1)" "frame dst_id=1 src_id=2 frame_seq=3 ack_start=0 ack_count=0 flags=1" "decodes the frame header"
echo "$out" | grep -q "txn_id=7 flag_addr=0x100 flag_value=0x1 num_msgs=0 msg_seq=1 data_addr=0 data_len=0 next=0 (doorbell)"
check "decodes the doorbell message" test $? -eq 0

out=$("$W" decode --udp "0000$hex")
check_eq "$(echo "$out" | head -1 | cut -d' ' -f4)" "frame_seq=3" "decodes a UDP payload after the pad"

out=$("$W" decode "0100020003000000" 2>&1)
rc=$?
check_eq "$rc" "1" "a truncated frame exits 1"
check_eq "$out" "malformed: truncated frame header: 8 bytes, need 10" "a truncated frame is named"

out=$("$W" decode "${hex/0000 00 00/0004 00 00}" 2>&1)
echo "$out" | grep -q "^malformed: message past end of frame"
check "data_len past the end is reported" test $? -eq 0

# Hex that is no frame says why; a line of stdin is read whole however long (one of 280000
# digits was cut at 262143, and each part was refused as "not a hex string")
out=$(printf '0a0b0\n0a0bzz\n' | "$W" decode 2>&1)
check_eq "$?|$out" "1|dgrdma-wire: not a frame in hex: an odd number of hex digits (5): '0a0b0'
dgrdma-wire: not a frame in hex: character 5 ('z') is not a hex digit: '0a0bzz'" \
	"hex that is no frame: the odd digit or the character named, a line each"
out=$(head -c 280000 /dev/zero | tr '\0' 0 | "$W" decode 2>&1)
check_eq "$?|$out" "1|dgrdma-wire: not a frame in hex: longer than 65536 bytes: '0000000000000000000000000000000000000000...'" \
	"a line of 140000 bytes in hex: one refusal, too long"

out=$("$W" plan --size 10 --mtu 20 2>&1)
rc=$?
check_eq "$rc" "2" "a bad --mtu exits 2"
check_eq "$out" "dgrdma-wire: --mtu: '20' is out of range 64..65535" "a bad --mtu names the option and the range"
out=$("$W" bogus 2>&1 | head -1)
check_eq "$out" "dgrdma-wire: unknown command 'bogus' (expected plan or decode)" "an unknown command is named"
done_testing
