#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Test helper: repeat_fragment.py IN OUT FRAME SEQ [NUM_MSGS] copies record FRAME (1-based) of
a little-endian pcap of raw-Ethernet DG-RDMA (dgrdma-gen --format pcap) to the end of the
capture, 50 us after the last record, with frame_seq SEQ ("next": the one after the last frame
of the same sender) and, when given, the first message's num_msgs_in_txn set to NUM_MSGS: the
same fragment sent again after its transaction completed, or one that disagrees with it."""
import struct
import sys

ETH = 14  # raw Ethernet, no VLAN tag
SEQ_AT = ETH + 4  # frame_seq, little-endian
NUM_MSGS_AT = ETH + 10 + 12  # first message header after the 10-byte frame header


def main():
    src, dst, index, seq = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    data = open(src, "rb").read()
    assert struct.unpack_from("<I", data)[0] == 0xA1B2C3D4, "little-endian us pcap expected"
    recs, off = [], 24
    while off + 16 <= len(data):
        sec, usec, cap, length = struct.unpack_from("<IIII", data, off)
        recs.append((sec, usec, data[off + 16:off + 16 + cap], length))
        off += 16 + cap
    frame = bytearray(recs[index - 1][2])
    if seq == "next":
        # the last frame of the same sender (source MAC, ethertype) gives the next number
        last = [r[2] for r in recs if r[2][6:14] == frame[6:14]][-1]
        seq = (struct.unpack_from("<H", last, SEQ_AT)[0] + 1) & 0xFFFF
    struct.pack_into("<H", frame, SEQ_AT, int(seq))
    if len(sys.argv) > 5:
        struct.pack_into("<H", frame, NUM_MSGS_AT, int(sys.argv[5]))
    sec, usec = recs[-1][0], recs[-1][1] + 50
    recs.append((sec + usec // 1000000, usec % 1000000, bytes(frame), len(frame)))
    with open(dst, "wb") as f:
        f.write(data[:24])
        for sec, usec, pkt, length in recs:
            f.write(struct.pack("<IIII", sec, usec, len(pkt), length) + pkt)


if __name__ == "__main__":
    main()
