# SPDX-License-Identifier: GPL-2.0-or-later
"""One CSV row of bench-stack's results from a case's best run.

result_row.py VARIANT MTU CEILING_GBIT CEILING_RUNS BEST_SPS RAW_NS_PER_BYTE HOST_JSON FPGA_JSON

HOST_JSON is dgrdma-host's --summary-json, FPGA_JSON dgrdma-fpga's. The CPU cost per
byte adds the host's threads and the emulator (both ends on this machine), per byte of
frames received: the yardstick of the raw pair, whose sender and receiver are counted
the same way (stk-rawpair's cpu_s), so cpu_per_byte_vs_raw says how much more CPU the
protocol, the emulator's sample generation and the host's copy and check cost per byte.
"""
import json
import sys


def cpu_s(thread):
    return (thread["cpu_user_ns"] + thread["cpu_sys_ns"]) / 1e9


def main(argv):
    variant, mtu, ceiling, ceiling_runs, best, raw_cost, host_path, fpga_path = argv[1:9]
    ceiling = float(ceiling)
    raw_cost = float(raw_cost)
    with open(host_path) as f:
        d = json.load(f)
    with open(fpga_path) as f:
        fpga = json.load(f)
    threads = d["threads"]
    frames = d["counters"]["frames_rx"]
    host_cpu = sum(cpu_s(t) for t in threads.values())
    fpga_cpu = cpu_s(fpga)
    gbit = d["rate_mbyte_s"] * 8 / 1e3
    cost = (host_cpu + fpga_cpu) * 1e9 / max(1, d["counters"]["bytes_rx"])
    row = [
        variant, mtu, ceiling, ceiling_runs, round(int(best) / 1e6, 1),
        round(gbit, 3), round(gbit / ceiling, 3), d["drop_rate"],
        round(cpu_s(threads["rx"]), 3), round(cpu_s(threads["consumer"]), 3),
        round(cpu_s(threads["tx"]), 3), frames,
        round(frames / max(1e-9, host_cpu)),
        round(host_cpu * 1e9 / max(1, frames)),
        round(cpu_s(threads["rx"]) * 1e9 / max(1, frames)),
        round(fpga_cpu, 3), round(fpga["pacing_late_max_ns"] / 1e6, 1),
        round(d["latency_ns"]["p99"] / 1e3, 1),
        round(d["latency_from_arrival_ns"]["p99"] / 1e3, 1),
        raw_cost, round(cost, 4), round(cost / raw_cost, 2) if raw_cost > 0 else "",
    ]
    print(",".join(str(x) for x in row))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
