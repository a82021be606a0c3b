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
    # the records' offsets only: the capture is copied as it is (a 66 000-transaction one has
    # 140 000 records: unpacking and packing each took 0.44 s of CPU, this 0.26 s)
    offs, off = [], 24
    while off + 16 <= len(data):
        offs.append(off)
        off += 16 + struct.unpack_from("<I", data, off + 8)[0]
    assert off == len(data), "a record runs past the end of the capture"

    def record(at):
        return data[at + 16:at + 16 + struct.unpack_from("<I", data, at + 8)[0]]

    frame = bytearray(record(offs[index - 1]))
    if seq == "next":
        # the last frame of the same sender (source MAC, ethertype) gives the next number
        last = next(r for r in map(record, reversed(offs)) if r[6:14] == frame[6:14])
        seq = (struct.unpack_from("<H", last, SEQ_AT)[0] + 1) & 0xFFFF
    struct.pack_into("<H", frame, SEQ_AT, int(seq))
    if len(sys.argv) > 5:
        struct.pack_into("<H", frame, NUM_MSGS_AT, int(sys.argv[5]))
    sec, usec = struct.unpack_from("<II", data, offs[-1])
    usec += 50
    with open(dst, "wb") as f:
        f.write(data)
        f.write(struct.pack("<IIII", sec + usec // 1000000, usec % 1000000, len(frame),
                            len(frame)) + frame)


if __name__ == "__main__":
    main()
