#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Scenario "TX path": dgrdma-host tx into the emulator's DAC (dgrdma-fpga --mode dac, 16 KiB
# emulator buffers, 0.25 MS/s: one buffer every 16 ms; 16 of them for the sustained run, 240 ms
# of slack, 4 for the starved one; 1 MS/s already underran here under load). A host sending as fast as credits allow keeps the DAC fed:
# num_underruns 0, every sample in ramp order. A host sending at half the DAC's rate cannot:
# underruns are counted. The last buffer carries EOF, which stops the DAC cleanly (no teardown
# over-report), so num_underruns counts only real underruns.
. "$DGR_SRC/test/scenarios/lib.sh"
scn_init tx-path "$@"

BYTES=$((2 * 1024 * 1024))
# The emulator runs until the host has ended (SCN_FPGA_STOP=1: then SIGINT, after the EOF buffer
# stopped its DAC): with --duration 4 a fresh-clone run on a loaded machine ended the emulator
# 7 buffers before the end of a sustained stream that had started late.
SCN_FPGA_STOP=1
FPGA_OPTS=(--mode dac --rate 250e3 --buffers 4 --buffer-size 16384 --host-buffers 64 --check-ramp)

# Sustained: the host refills each emulator buffer as soon as its doorbell returns. With 16
# emulator buffers (240 ms of slack): with 4 (48 ms), a fresh-clone run beside two busy loops
# underran 78 samples once, the host held off its CPU that long.
HOST_OPTS=(--buffers 64 --buffer-size 16384 --fpga-buffers 16 --bytes "$BYTES" --rate 0 --idle-timeout 10)
run="$SCN_OUT/sustained"
FPGA_OPTS_4=("${FPGA_OPTS[@]}")
FPGA_OPTS=(--mode dac --rate 250e3 --buffers 16 --buffer-size 16384 --fpga-memory 262144 --host-buffers 64
	--check-ramp)
scn_run_tx "$run"
FPGA_OPTS=("${FPGA_OPTS_4[@]}")
check_eq "$SCN_HOST_RC/$SCN_FPGA_RC" 0/0 "sustained: dgrdma-host tx and dgrdma-fpga exit 0"
check_eq "$(jnum "$run/fpga.json" samples_consumed)" $((BYTES / 4)) "sustained: the DAC consumed all $((BYTES / 4)) samples"
check_eq "$(jnum "$run/fpga.json" eof_seen)" true "sustained: the EOF buffer stopped the DAC"
check_eq "$(jnum "$run/fpga.json" ramp_errors)" 0 "sustained: samples in ramp order"
check_eq "$(jnum "$run/fpga.json" num_underruns)/$(jnum "$run/fpga.json" underrun_periods)" 0/0 \
	"sustained: num_underruns 0"

# Not sustained: the host paces itself at 0.125 MS/s, half the DAC's rate.
HOST_OPTS=(--buffers 64 --buffer-size 16384 --fpga-buffers 4 --bytes $((BYTES / 4)) --rate 125000 --idle-timeout 10)
run="$SCN_OUT/starved"
scn_run_tx "$run"
check_eq "$SCN_HOST_RC/$SCN_FPGA_RC" 0/0 "starved: dgrdma-host tx and dgrdma-fpga exit 0"
check_eq "$(jnum "$run/fpga.json" samples_consumed)" $((BYTES / 16)) "starved: the DAC consumed all $((BYTES / 16)) samples"
check_eq "$(jnum "$run/fpga.json" eof_seen)" true "starved: the EOF buffer stopped the DAC"
under=$(jnum "$run/fpga.json" num_underruns)
diag "starved: num_underruns $under in $(jnum "$run/fpga.json" underrun_periods) periods," \
	"trailing $(jnum "$run/fpga.json" trailing_underruns), samples_consumed $(jnum "$run/fpga.json" samples_consumed)"
check "starved: underruns counted ($under)" test "${under:-0}" -gt 0
check_eq "$(jnum "$run/fpga.json" trailing_underruns)" 0 "starved: no teardown underrun (EOF)"
done_testing
