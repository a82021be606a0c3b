#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Test helper: rewrites an Ethernet pcap (as dgrdma-gen writes it) into another link type,
or damages it, so latency-report's other link layers and its robustness can be tested.
  relink.py sll|sll2|raw IN OUT         Linux cooked v1/v2, or raw IPv4 (UDP captures)
  relink.py corrupt SEED IN OUT         flip bytes inside packet data (headers kept)
  relink.py corrupt-each N IN PREFIX    corrupt with each SEED 1..N, into PREFIX<SEED>.pcap
  relink.py linktype N IN OUT           same records, another link type number
  relink.py shift SECONDS IN OUT        every timestamp moved by SECONDS (whole, may be negative)
  relink.py reverse IN OUT              the timestamps in reverse order (each one goes back)
  relink.py frac I VALUE IN OUT         record I's (1-based) sub-second field set to VALUE
  relink.py back I NS IN OUT            record I's (1-based) time NS before record I - 1's (a
                                        nanosecond pcap: a step back of NS)"""
import random
import struct
import sys


def records(data):
    magic = struct.unpack_from("<I", data)[0]
    assert magic in (0xA1B2C3D4, 0xA1B23C4D), "little-endian pcap expected"
    off = 24
    while off + 16 <= len(data):
        sec, frac, cap, length = struct.unpack_from("<IIII", data, off)
        yield sec, frac, data[off + 16:off + 16 + cap], length
        off += 16 + cap


def write(path, head, recs, linktype):
    with open(path, "wb") as f:
        f.write(head[:20] + struct.pack("<I", linktype))
        for sec, frac, pkt, length in recs:
            f.write(struct.pack("<IIII", sec, frac, len(pkt), length) + pkt)


def main():
    mode, arg, value = sys.argv[1], None, None
    if mode == "corrupt-each":
        # one python for the N copies (a start is 40 ms of CPU and a process): each the file
        # `corrupt SEED` writes
        for seed in range(1, int(sys.argv[2]) + 1):
            relink("corrupt", str(seed), None, sys.argv[3], f"{sys.argv[4]}{seed}.pcap")
        return
    if mode in ("corrupt", "linktype", "shift"):
        arg, src, dst = sys.argv[2], sys.argv[3], sys.argv[4]
    elif mode in ("frac", "back"):
        arg, value, src, dst = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
    else:
        src, dst = sys.argv[2], sys.argv[3]
    relink(mode, arg, value, src, dst)


def relink(mode, arg, value, src, dst):
    data = open(src, "rb").read()
    head = data[:24]
    out = []
    linktype = struct.unpack_from("<I", head, 20)[0]
    rng = random.Random(int(arg) if mode == "corrupt" else 0)
    stamps = [(sec, frac) for sec, frac, _, _ in records(data)]
    for k, (sec, frac, pkt, length) in enumerate(records(data)):
        if mode in ("sll", "sll2"):
            etype = pkt[12:14]
            pkttype = 0 if pkt[0:6] == bytes.fromhex("020000000001") else 4
            if mode == "sll":
                hdr = struct.pack(">HHH", pkttype, 1, 6) + pkt[6:12] + b"\0\0" + etype
            else:
                hdr = etype + b"\0\0" + struct.pack(">IHBB", 2, 1, pkttype, 6) + pkt[6:12] + b"\0\0"
            pkt, length = hdr + pkt[14:], length - 14 + len(hdr)
            linktype = 113 if mode == "sll" else 276
        elif mode == "raw":
            if pkt[12:14] != b"\x08\x00":
                continue
            pkt, length = pkt[14:], length - 14
            linktype = 101
        elif mode == "corrupt":
            pkt = bytearray(pkt)
            for _ in range(rng.randint(0, 6)):
                if len(pkt) > 14:
                    pkt[rng.randrange(14, len(pkt))] = rng.randrange(256)
            pkt = bytes(pkt)
        elif mode == "linktype":
            linktype = int(arg)
        elif mode == "shift":
            sec += int(arg)
        elif mode == "reverse":
            sec, frac = stamps[len(stamps) - 1 - k]
        elif mode == "frac" and k + 1 == arg:
            frac = value
        elif mode == "back" and k + 1 == arg:
            assert struct.unpack_from("<I", head)[0] == 0xA1B23C4D, "a nanosecond pcap expected"
            sec, frac = divmod(stamps[k - 1][0] * 10**9 + stamps[k - 1][1] - value, 10**9)
        out.append((sec, frac, pkt, length))
    write(dst, head, out, linktype)


main()
