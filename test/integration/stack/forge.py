#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Forges one frame into a running stream from its sender's own address (forged.sh, issue 29).

Watches the sender's DG-RDMA frames until AFTER of them went by, then sends the host one
well-formed frame from the sender's address (UDP: its ADDR:PORT through a raw IPv4 socket;
Ethernet: its MAC, from its own namespace) carrying a frame_seq AHEAD past the last one seen
(new to the host when it arrives, and taken before the sender's real frame of that number,
however late this script is: the order of the issue) and a 256-byte write without a flag at
DATA_ADDR. Prints {"seq": N, "data_addr": A} (JSON).
Needs root (raw sockets).
"""
import argparse
import json
import os
import socket
import struct

ETH_P_ALL = 0x0003
ETH_DGRDMA = 0xF042
PACKET_OUTGOING = 4
NO_FLAG = 0xFFFFFFFF


def forged_frame(a, seq):
    data = bytes(range(256))
    msg = struct.pack("<IIIHHIHBB", a.txn_id, NO_FLAG, NO_FLAG, 1, 1, a.data_addr, len(data),
                      0, 0) + data
    return struct.pack("<HHHHBB", a.id, a.peer_id, seq, 0, 0, 1) + msg


def udp_seq(pkt, src, dst):
    """The frame_seq of a DG-RDMA datagram src -> dst in an Ethernet frame of lo, or None."""
    if len(pkt) < 14 + 20 + 8 + 2 + 10 or struct.unpack("!H", pkt[12:14])[0] != 0x0800:
        return None
    ihl = (pkt[14] & 0x0F) * 4
    if pkt[14 + 9] != 17:
        return None
    ip_src, ip_dst = socket.inet_ntoa(pkt[26:30]), socket.inet_ntoa(pkt[30:34])
    sport, dport = struct.unpack("!HH", pkt[14 + ihl:14 + ihl + 4])
    if (ip_src, sport) != src or (ip_dst, dport) != dst:
        return None
    payload = pkt[14 + ihl + 8:]
    if payload[:2] != b"\x00\x00":
        return None
    return struct.unpack("<H", payload[2 + 4:2 + 6])[0]


def ready(a):
    """Tells the test that frames sent from now on are seen: the file holds this pid."""
    if a.ready_file:
        with open(a.ready_file + ".tmp", "w") as f:
            f.write("%d\n" % os.getpid())
        os.rename(a.ready_file + ".tmp", a.ready_file)


def main():
    try:
        forge()
    except socket.timeout:
        raise SystemExit("forge.py: no frame of the sender's came within --timeout")


def forge():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--udp", help="the host's ADDR:PORT")
    p.add_argument("--spoof", help="the sender's ADDR:PORT (UDP)")
    p.add_argument("--if", dest="ifname", help="the sender's interface (Ethernet)")
    p.add_argument("--dst-mac", help="the host's MAC")
    p.add_argument("--id", type=int, default=0, help="the host's endpoint id")
    p.add_argument("--peer-id", type=int, default=1, help="the sender's endpoint id")
    p.add_argument("--after", type=int, default=200, help="frames of the sender's to let by")
    p.add_argument("--ahead", type=int, default=200,
                   help="frame_seq = the last seen + AHEAD (1..1000: inside the host's window)")
    p.add_argument("--data-addr", type=lambda v: int(v, 0), required=True)
    p.add_argument("--txn-id", type=lambda v: int(v, 0), default=0x7FFF0000)
    p.add_argument("--ready-file", help="created once the sniffing socket is bound")
    p.add_argument("--timeout", type=float, default=20.0,
                   help="give up (exit 1) when no frame comes for this long")
    a = p.parse_args()
    if bool(a.udp) == bool(a.ifname):
        p.error("give --udp ADDR:PORT --spoof ADDR:PORT, or --if IFACE --dst-mac MAC")
    seen = 0
    last = None
    if a.udp:
        dst = (a.udp.split(":")[0], int(a.udp.split(":")[1]))
        src = (a.spoof.split(":")[0], int(a.spoof.split(":")[1]))
        sniff = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        sniff.settimeout(a.timeout)
        sniff.bind(("lo", 0))
        ready(a)
        while seen < a.after:
            pkt, addr = sniff.recvfrom(70000)
            if addr[2] == PACKET_OUTGOING:
                continue  # lo shows every datagram twice
            seq = udp_seq(pkt, src, dst)
            if seq is not None:
                seen += 1
                last = seq
        seq = (last + a.ahead) & 0xFFFF
        data = b"\x00\x00" + forged_frame(a, seq)
        udp = struct.pack("!HHHH", src[1], dst[1], 8 + len(data), 0) + data
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                         socket.inet_aton(src[0]), socket.inet_aton(dst[0]))
        raw = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
        raw.sendto(ip + udp, dst)
    else:
        # only a socket of every protocol sees the frames its host sends
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        s.settimeout(a.timeout)
        s.bind((a.ifname, 0))
        ready(a)
        own = s.getsockname()[4]
        while seen < a.after:
            pkt, addr = s.recvfrom(70000)
            if (addr[2] != PACKET_OUTGOING or len(pkt) < 14 + 10 or
                    struct.unpack("!H", pkt[12:14])[0] != ETH_DGRDMA):
                continue
            seen += 1
            last = struct.unpack("<H", pkt[14 + 4:14 + 6])[0]
        seq = (last + a.ahead) & 0xFFFF
        dst_mac = bytes.fromhex(a.dst_mac.replace(":", ""))
        s.send(dst_mac + own + struct.pack("!H", ETH_DGRDMA) + forged_frame(a, seq))
    print(json.dumps({"seq": seq, "data_addr": a.data_addr,
                      "frame_len": len(forged_frame(a, seq))}))


if __name__ == "__main__":
    main()
