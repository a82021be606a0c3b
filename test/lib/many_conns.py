#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Test helper: many_conns.py N OUT writes a pcap of N ACK-only DG-RDMA frames over raw
Ethernet, frame i sent from DG-RDMA id 1000 + i to id 1: N connections, one frame each (for
the analysis engine's limit of 256 connections, analysis/engine/conn_table.h)."""
import struct
import sys


def main():
    n, path = int(sys.argv[1]), sys.argv[2]
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i in range(n):
            # src id, dst id, frame_seq, ack_start, ack_count, flags (0: ACK only), pad
            hdr = struct.pack("<HHHHBB", 1000 + i, 1, 1, 0, 0, 0) + bytes(2)
            frame = bytes.fromhex("020000000001020000000110f042") + hdr + bytes(34)
            f.write(struct.pack("<IIII", 1, i, len(frame), len(frame)) + frame)


if __name__ == "__main__":
    main()
