/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The conversion of a dgrdma-run/1 run.json (analysis/input/run_info_v1.c): the only
 * place that reads a recorded command line.
 */
#ifndef DGR_ANALYSIS_RUN_INFO_V1_H
#define DGR_ANALYSIS_RUN_INFO_V1_H

#include <jansson.h>

/*
 * The "settings" a dgrdma-run/2 file would hold, read from a format-1 file's
 * "command" (an array of strings) as dgrdma-host, dgrdma-ctl and dgrdma-fpga
 * take their options: "tool" (the program's name, wrappers such as ip netns
 * exec skipped), "path" (dgrdma-host rx/tx, dgrdma-fpga --mode adc/dac, adc by
 * default), with --udp "transport" "udp", "local" (the first --bind) and "peers"
 * (each --peer as {"address"}), "host_buffers", "fpga_buffers" and "buffer_size"
 * (--buffers, --fpga-buffers, --buffer-size; dgrdma-fpga's --host-buffers,
 * --buffers), and "sample_rate" (the last --sample-rate or its old name --rate,
 * 0 included), each only when the command gives it. Returns 0 with *settings a
 * new reference, -DGR_E_INVAL with errbuf naming the option and its accepted
 * range ("command: --bind: '99999' is out of range 1..65535"), or -DGR_E_NOMEM.
 */
int run_info_v1_settings(const json_t *cmd, json_t **settings, char *errbuf);

#endif
