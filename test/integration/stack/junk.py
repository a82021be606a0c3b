#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Sends hostile packets at a receiving dgrdma-host while a real stream runs (flood.sh).

Every kind is sent COUNT times, shuffled, spread over SECONDS, and built so that the host must
drop it for exactly one reason, so each counter of the host can be compared with COUNT:

  trunc     a DG-RDMA frame of 6 bytes                      malformed_trunc_frame_hdr
  flags     frame flags 7                                   malformed_frame_flags
  ids       the peer's frame with other endpoint ids        malformed_unknown_id
  flagword  frame_seq near the stream, flag without bit 0   malformed_flag_word
  address   frame_seq near the stream, data far outside     out_of_range
  ahead     a valid frame 16000..26000 ahead of the stream  frames_out_of_window
  replay    a valid frame far behind the stream             duplicate_frames
  dcp       a DCP packet whose length field lies            malformed_dcp
  foreign   a valid frame from another address              frames_foreign
  pad       (UDP) a datagram with an unknown 2-byte pad     malformed_udp_pad

The peer's own address is forged: a raw IPv4 socket over UDP (root), an AF_PACKET socket with
the peer's source MAC on Ethernet (root, in the peer's namespace). Prints the counts as JSON.
"""
import argparse
import json
import random
import socket
import struct
import time

ETH_DGRDMA = 0xF042
ETH_DCP = 0xF040


def frame(dst_id, src_id, seq, msgs=b"", flags=1):
    return struct.pack("<HHHHBB", dst_id, src_id, seq, 0, 0, flags) + msgs


def msg(txn, flag_addr, flag_value, num_msgs, data_addr, data):
    hdr = struct.pack("<IIIHHIHBB", txn, flag_addr, flag_value, num_msgs, 1, data_addr,
                      len(data), 0, 0)
    return hdr + data


def kinds(a, rnd):
    """kind -> function returning (payload, proto) for one packet of that kind."""
    flags_at = a.buffers * a.buffer_size  # the host's flag of buffer 0 (RX path, base 0)
    good_flag = 1 | (a.buffer_size << 1)  # valid, a full buffer of samples
    doorbell = msg(1, flags_at, good_flag, 1, 0, bytes(64))
    near = lambda: rnd.randint(1, 4000)
    ahead = iter(rnd.sample(range(16000, 26000, 2), a.count))  # never two consecutive
    replay = iter(rnd.sample(range(45000, 60000, 2), a.count))
    k = {
        "trunc": lambda: (b"\x00" * 6, "dgrdma"),
        "flags": lambda: (frame(a.id, a.peer_id, near(), flags=7), "dgrdma"),
        "ids": lambda: (frame(a.id + 7, a.peer_id + 7, near(), doorbell), "dgrdma"),
        "flagword": lambda: (frame(a.id, a.peer_id, near(),
                                   msg(2, flags_at, 2, 0, 0, b"")), "dgrdma"),
        "address": lambda: (frame(a.id, a.peer_id, near(),
                                  msg(3, flags_at, good_flag, 1, 0x3FFF0000, bytes(64))),
                            "dgrdma"),
        "ahead": lambda: (frame(a.id, a.peer_id, next(ahead), doorbell), "dgrdma"),
        "replay": lambda: (frame(a.id, a.peer_id, next(replay), doorbell), "dgrdma"),
        "dcp": lambda: (struct.pack(">HH", 200, 0) + bytes(8), "dcp"),
        "foreign": lambda: (frame(a.id, a.peer_id, near(), doorbell), "foreign"),
    }
    if a.udp:
        k["pad"] = lambda: (b"\x12\x34" + bytes(10), "pad")
    return k


class UdpSender:
    def __init__(self, a):
        self.dst = (a.udp.split(":")[0], int(a.udp.split(":")[1]))
        self.src = (a.spoof.split(":")[0], int(a.spoof.split(":")[1]))
        self.raw = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
        self.other = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.other.bind(("127.0.0.1", 0))

    def send(self, payload, proto):
        if proto == "foreign":
            self.other.sendto(b"\x00\x00" + payload, self.dst)
            return
        pad = {"dgrdma": b"\x00\x00", "dcp": b"\xf0\x40", "pad": b"\x12\x34"}[proto]
        data = pad + payload if proto != "pad" else payload
        udp = struct.pack("!HHHH", self.src[1], self.dst[1], 8 + len(data), 0) + data
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                         socket.inet_aton(self.src[0]), socket.inet_aton(self.dst[0]))
        self.raw.sendto(ip + udp, self.dst)


class EtherSender:
    def __init__(self, a):
        self.s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        self.s.bind((a.ifname, 0))
        self.dst = bytes.fromhex(a.dst_mac.replace(":", ""))
        self.src = bytes.fromhex(a.src_mac.replace(":", ""))
        self.foreign = bytes.fromhex("020000000099")

    def send(self, payload, proto):
        src = self.foreign if proto == "foreign" else self.src
        ethertype = ETH_DCP if proto == "dcp" else ETH_DGRDMA
        self.s.send(self.dst + src + struct.pack("!H", ethertype) + payload)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--udp", help="the host's ADDR:PORT")
    p.add_argument("--spoof", help="the peer's ADDR:PORT (UDP)")
    p.add_argument("--if", dest="ifname", help="interface (Ethernet)")
    p.add_argument("--dst-mac", help="the host's MAC")
    p.add_argument("--src-mac", help="the peer's MAC")
    p.add_argument("--id", type=int, default=0, help="the host's endpoint id")
    p.add_argument("--peer-id", type=int, default=1, help="the peer's endpoint id")
    p.add_argument("--buffers", type=int, default=64)
    p.add_argument("--buffer-size", type=int, default=16384)
    p.add_argument("--count", type=int, default=200, help="packets of each kind")
    p.add_argument("--seconds", type=float, default=1.0, help="spread over this long")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    if bool(a.udp) == bool(a.ifname):
        p.error("give --udp ADDR:PORT --spoof ADDR:PORT, or --if IFACE --dst-mac --src-mac")
    rnd = random.Random(a.seed)
    sender = UdpSender(a) if a.udp else EtherSender(a)
    k = kinds(a, rnd)
    plan = [name for name in k for _ in range(a.count)]
    rnd.shuffle(plan)
    gap = a.seconds / len(plan)
    for name in plan:
        sender.send(*k[name]())
        time.sleep(gap)
    print(json.dumps({name: a.count for name in k}))


if __name__ == "__main__":
    main()
