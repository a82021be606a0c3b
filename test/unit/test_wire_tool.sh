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

out=$("$W" plan --size 10 --mtu 20 2>&1)
rc=$?
check_eq "$rc" "2" "a bad --mtu exits 2"
check_eq "$out" "dgrdma-wire: --mtu: '20' is out of range 64..65535" "a bad --mtu names the option and the range"
out=$("$W" bogus 2>&1 | head -1)
check_eq "$out" "dgrdma-wire: unknown command 'bogus' (expected plan or decode)" "an unknown command is named"
done_testing
