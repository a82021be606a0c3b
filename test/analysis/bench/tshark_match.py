#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The 'typical alternative' latency-report is benchmarked against (make bench-analysis):
`tshark -T fields -e frame.time_epoch -e eth.src -e eth.dst -e data.data` piped into this
script, which does the same doorbell matching as analysis/engine/doorbell_match.c on raw-Ethernet
DG-RDMA captures (reassembly by message count, doorbells = flag-only with flag word 1,
buffers ranked by ascending flag address, per connection and direction).
Prints: transactions doorbells matched unmatched orphans latency_sum_ns."""
import bisect
import struct
import sys

HDR = struct.Struct("<IIIHHIHBB")
state = {}  # (data_src, data_dst) -> dict


def side(key):
    s = state.get(key)
    if s is None:
        s = state[key] = {"parts": {}, "data": [], "bell": [], "wait": {}}
    return s


tx = bells = matched = unmatched = orphans = lat_sum = 0
for line in sys.stdin:
    f = line.rstrip("\n").split("\t")
    if len(f) < 4 or not f[3]:
        continue
    sec, _, frac = f[0].partition(".")
    ts = int(sec) * 1000000000 + int((frac + "000000000")[:9])
    src, dst = f[1], f[2]
    b = bytes.fromhex(f[3].replace(":", ""))
    if len(b) < 10 or b[9] != 1:
        continue
    off = 10
    while off + 24 <= len(b):
        txn, faddr, fval, nmsgs, seq, daddr, dlen, mtype, nxt = HDR.unpack_from(b, off)
        if nmsgs == 0 and dlen == 0 and fval == 1:
            s = side((dst, src))  # a doorbell answers data sent the other way
            bells += 1
            r = bisect.bisect_left(s["bell"], faddr)
            if r == len(s["bell"]) or s["bell"][r] != faddr:
                s["bell"].insert(r, faddr)
            if r < len(s["data"]) and s["data"][r] in s["wait"]:
                matched += 1
                lat_sum += ts - s["wait"].pop(s["data"][r])
            else:
                orphans += 1
        else:
            s = side((src, dst))
            need = max(nmsgs, 1)
            got = s["parts"].get(txn, 0) + 1
            if got >= need:
                s["parts"].pop(txn, None)
                tx += 1
                r = bisect.bisect_left(s["data"], faddr)
                if r == len(s["data"]) or s["data"][r] != faddr:
                    s["data"].insert(r, faddr)
                if faddr in s["wait"]:
                    unmatched += 1
                s["wait"][faddr] = ts
            else:
                s["parts"][txn] = got
        if not nxt:
            break
        off = 10 + ((off + 24 + dlen - 10 + 7) & ~7)
print(tx, bells, matched, unmatched, orphans, lat_sum)
