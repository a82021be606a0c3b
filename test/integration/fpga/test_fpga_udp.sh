#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-fpga against the minimal test host over UDP on 127.0.0.1: complete
# ramp below capacity, drops found by the host equal to the FPGA's counters
# with a slowed consumer, the vicious cycle with report_data_loss on and not
# off, DCP doorbells, DAC underruns, DCP read-back of every property, fault
# injection, bad arguments, and docs/fpga.md in step with the code.
# make check: slow
set -u
. "$DGR_SRC/test/integration/fpga/common.inc"
trap fpga_cleanup EXIT
fpga_ports
FPGA_T=("${FPGA_UDP[@]}")
HOST_T=("${HOST_UDP[@]}")
FPGA_RUN=()
HOST_RUN=()

# identity: every sample produced was sent, dropped (counted or not) or kept
accounted() {
	local j="$1"
	echo $(($(val "$j" samples_sent) + $(val "$j" dropped_samples) + \
		$(val "$j" dropped_before_ready) + $(val "$j" dropped_open) + \
		$(val "$j" samples_unsent)))
}

# 1. Below capacity: 1 MS/s, 255 host buffers of 16 KiB (1 s of slack: a loaded machine
#    may stall a process for a few hundred ms without it being a drop).
run_pair ok "--rate 1e6 --duration 1 --quiet --drain-ms 3000 --host-buffers 255" \
	"--idle 3 --buffers 255"
j="$WORK/ok.json" h="$WORK/ok.host"
check_eq "$(val "$j" dropped_samples)/$(val "$j" num_dropped_samps)" "0/0" \
	"below capacity: no drops (dropped_samples/num_dropped_samps)"
check_eq "$(val "$h" lost)/$(val "$h" gap_periods)" "0/0" "below capacity: the ramp is complete"
check_eq "$(val "$h" samples)" "$(val "$j" samples_produced)" \
	"below capacity: the host received every sample produced"
check_eq "$(val "$h" first_sample)" 0 "below capacity: the ramp starts at 0"
check_eq "$(val "$h" eof)" 1 "below capacity: the stream ends with EOF"
check_eq "$(val "$h" transactions)" "$(val "$j" transactions_sent)" \
	"below capacity: transactions received = transactions_sent"
check_eq "$(val "$h" doorbells)" "$(val "$j" doorbells_received)" \
	"below capacity: every doorbell received (doorbells_received)"
check_eq "$(val "$h" flag_index_errors)/$(val "$h" bad_msgs)/$(val "$h" bad_frames)" "0/0/0" \
	"below capacity: flags at the documented addresses, nothing malformed"
check_eq "$(val "$j" discontinuities_sent)" 0 "below capacity: no discontinuity"

# 2. Doorbells as DCP property writes.
run_pair dcpdb "--rate 1e6 --duration 0.5 --quiet --drain-ms 3000 --host-buffers 255" \
	"--idle 3 --dcp-doorbells --buffers 255"
j="$WORK/dcpdb.json" h="$WORK/dcpdb.host"
check_eq "$(val "$j" doorbells_received_dcp)" "$(val "$h" doorbells)" \
	"dcp doorbells: all accepted as DCP writes"
check_eq "$(val "$j" doorbells_received)" "$(val "$h" doorbells)" \
	"dcp doorbells: counted in doorbells_received"
check_eq "$(val "$h" lost)/$(val "$j" dropped_samples)" "0/0" "dcp doorbells: no loss"

# 3./4. A consumer at half the ADC rate (4 ms per 2 ms buffer), report_data_loss off and
#       on; 8 host buffers, so drops begin early (12 buffers of slack, 25 ms).
slow="--rate 2e6 --duration 1 --quiet --drain-ms 4000 --host-buffers 8"
run_pair rdloff "$slow --report-data-loss false" "--idle 3 --consumer-delay-us 4000 --buffers 8"
run_pair rdlon "$slow --report-data-loss true" "--idle 3 --consumer-delay-us 4000 --buffers 8"
j="$WORK/rdloff.json" h="$WORK/rdloff.host"
check "slow consumer, rdl=false: the FPGA dropped samples" [ "$(val "$j" dropped_samples)" -gt 0 ]
check_eq "$(val "$h" lost)" "$(val "$j" dropped_samples)" \
	"slow consumer, rdl=false: samples lost in the ramp = dropped_samples"
check_eq "$(val "$h" gap_periods)" "$(val "$j" num_dropped_samps)" \
	"slow consumer, rdl=false: gaps in the ramp = num_dropped_samps"
check_eq "$(val "$h" samples)" "$(val "$j" samples_sent)" \
	"slow consumer, rdl=false: the host got every sample sent"
check_eq "$(accounted "$j")" "$(val "$j" samples_produced)" \
	"slow consumer, rdl=false: sent + dropped + open + unsent = produced"
check_eq "$(val "$j" discontinuities_sent)/$(val "$h" discontinuities)" "0/0" \
	"slow consumer, rdl=false: no discontinuity"
off_sent=$(val "$j" samples_sent)
j="$WORK/rdlon.json" h="$WORK/rdlon.host"
check "slow consumer, rdl=true: discontinuities sent" [ "$(val "$j" discontinuities_sent)" -gt 0 ]
check_eq "$(val "$h" discontinuities)" "$(val "$j" discontinuities_sent)" \
	"slow consumer, rdl=true: the host got every discontinuity"
check_eq "$(val "$h" samples)" "$(val "$j" samples_sent)" \
	"slow consumer, rdl=true: the host got every sample sent"
check_eq "$(accounted "$j")" "$(val "$j" samples_produced)" \
	"slow consumer, rdl=true: sent + dropped + open + unsent = produced"
# Drop periods that end after the host's last sample are invisible in the ramp:
# lost in gaps + samples after the last one = dropped_samples + dropped_open + unsent.
tail=$(($(val "$j" samples_produced) - 1 - $(val "$h" last_sample)))
check_eq "$(($(val "$h" lost) + tail))" \
	"$(($(val "$j" dropped_samples) + $(val "$j" dropped_open) + $(val "$j" samples_unsent)))" \
	"slow consumer, rdl=true: ramp gaps + unseen tail = dropped_samples + open + unsent"
on_sent=$(val "$j" samples_sent)
check "vicious cycle: rdl=true delivers $on_sent samples, rdl=false $off_sent (over 4 times)" \
	[ $((on_sent * 4)) -lt "$off_sent" ]
check "vicious cycle: rdl=true: most transactions are discontinuities ($(val "$j" \
	discontinuities_sent) of $(val "$j" transactions_sent))" \
	[ $(($(val "$j" discontinuities_sent) * 2)) -gt "$(val "$j" transactions_sent)" ]

# 5. DAC: supplied ahead of need (with EOF) vs under-supplied at half rate. 32 buffers
#    (the mux workaround's memory) hold 0.5 s of samples at 250 kS/s, so a stalled
#    test host on a loaded machine does not look like an underrun.
dac_run() {
	local name="$1" hargs="$2" fargs="${3:-}" hp
	# shellcheck disable=SC2086
	"$FPGA" "${FPGA_T[@]}" --mode dac --rate 2.5e5 --duration 2.5 --quiet --check-ramp \
		--fpga-memory 524288 --buffers 32 $fargs \
		--summary-json "$WORK/$name.json" >"$WORK/$name.out" 2>&1 &
	hp=$!
	FPGA_PIDS+=("$hp")
	dgr_wait_listening "$hp" dgrdma-fpga "${FPGA_T[@]}"
	# shellcheck disable=SC2086
	"$THOST" "${HOST_T[@]}" --timeout 5 --fpga-buffers 32 $hargs tx >"$WORK/$name.host" 2>&1
	wait "$hp"
	check_eq "$?" 0 "$name: dgrdma-fpga exits 0"
	val_use "$WORK/$name.json" "$WORK/$name.host"
	local lines
	mapfile -t lines <"$WORK/$name.host"
	diag "$name host: $(printf '%s ' "${lines[@]}")"
	diag "$name: $(json_object "${JSON_FILES[$WORK/$name.json]}" num_underruns \
		samp_count_before_first_underrun underrun_periods trailing_underruns samples_consumed \
		buffers_filled)"
}
dac_run dacok "--tx-buffers 100 --eof"
j="$WORK/dacok.json" h="$WORK/dacok.host"
check_eq "$(val "$j" num_underruns)" 0 "dac, supply ahead of need: no underrun"
check_eq "$(val "$j" samples_consumed)" $((100 * 4096)) "dac: every sample consumed"
check_eq "$(val "$j" eof_seen)" true "dac: EOF stopped the DAC before teardown"
check_eq "$(val "$j" ramp_errors)" 0 "dac: the host's ramp arrived intact"
check_eq "$(val "$h" doorbells)" 100 "dac: one doorbell per buffer back to the host"
check_eq "$(val "$j" doorbells_sent)" 100 "dac: doorbells_sent 100"
dac_run dacslow "--tx-buffers 50 --rate 1.25e5"
j="$WORK/dacslow.json"
check "dac, under-supplied at half rate: underruns" [ "$(val "$j" num_underruns)" -gt 0 ]
check "dac: underruns since the last data are the teardown part" \
	[ "$(val "$j" trailing_underruns)" -gt 0 ]
check "dac: samp_count_before_first_underrun <= samples_consumed" \
	[ "$(val "$j" samp_count_before_first_underrun)" -le "$(val "$j" samples_consumed)" ]
# The guide's TX-path trap: a large coalesce_wait holds the doorbells of all 4 buffers
# (65 ms of samples) for 100 ms in one frame, so the host cannot refill in time.
dac_run dacco "--tx-buffers 50 --eof --fpga-buffers 4" "--buffers 4 --coalesce-us 100000"
j="$WORK/dacco.json"
check "dac, coalesce_wait_d 100 ms: underruns although the host supplies ahead" \
	[ "$(val "$j" num_underruns)" -gt 0 ]
check "dac, coalesce_wait_d 100 ms: doorbells coalesced ($(val "$j" doorbells_sent) in $(val "$j" \
	frames_tx) frames)" [ "$(val "$j" frames_tx)" -lt "$(val "$j" doorbells_sent)" ]

# 5a. --ready-file: the DAC's file holds its pid once its socket is bound (a stale one is
#     replaced), the host started on it supplies every buffer, and the file is gone at exit.
echo stale >"$WORK/ready"
"$FPGA" "${FPGA_T[@]}" --mode dac --rate 2.5e5 --duration 2.5 --quiet --fpga-memory 524288 \
	--buffers 32 --ready-file "$WORK/ready" --summary-json "$WORK/ready.json" >"$WORK/ready.out" 2>&1 &
fp=$!
FPGA_PIDS+=("$fp")
dgr_wait_ready_file "$WORK/ready" "$fp"
check_eq "$(cat "$WORK/ready")" "$fp" "--ready-file holds the emulator's pid (the stale file replaced)"
check_eq "$(dgr_receiving_sockets "$fp")" 1 "--ready-file: when it appears, the socket is bound"
"$THOST" "${HOST_T[@]}" --timeout 5 --fpga-buffers 32 --tx-buffers 20 --eof tx >"$WORK/ready.host" 2>&1
wait "$fp"
check_eq "$?" 0 "--ready-file: dgrdma-fpga exits 0"
val_use "$WORK/ready.json"
check_eq "$(val "$WORK/ready.json" samples_consumed)" $((20 * 4096)) \
	"--ready-file: every sample of the host started on it consumed"
check "--ready-file: removed at exit" test ! -e "$WORK/ready"

# 6. Driven over DCP: idle start, DCP start/stop of the ADC, then every property read
#    back over DCP equals the exit summary (except the DCP request counters themselves).
"$FPGA" "${FPGA_T[@]}" --idle --rate 1e6 --quiet --drain-ms 100 \
	--summary-json "$WORK/dcp.json" >"$WORK/dcp.out" 2>&1 &
fp=$!
FPGA_PIDS+=("$fp")
"$THOST" "${HOST_T[@]}" --idle 2 rx >"$WORK/dcp.host" 2>&1 &
hp=$!
dgr_wait_listening "$fp" dgrdma-fpga "${FPGA_T[@]}"
dgr_wait_listening "$hp" fpga-test-host "${HOST_T[@]}"
ctl() { "$THOST" "${CTL_UDP[@]}" "$@"; }
ctl read $((0x8000)) >"$WORK/ctl1" # initialize of worker 1 was done at start: expect error word
ctl read $((0x8004)) >"$WORK/ctl2" # start worker 1 (ADC)
val_use "$WORK/ctl2"
check_eq "$(val "$WORK/ctl2" value)" $((0xC0DE4201)) "dcp control: start of the ADC succeeds"
nap 0.5
ctl read $((0x8008)) >"$WORK/ctl3" # stop
val_use "$WORK/ctl3"
check_eq "$(val "$WORK/ctl3" value)" $((0xC0DE4201)) "dcp control: stop of the ADC succeeds"
wait "$hp"
val_use "$WORK/dcp.host"
check_eq "$(val "$WORK/dcp.host" eof)" 1 "dcp control: the stop ends the stream with EOF"
"$FPGA" --list-properties >"$WORK/props.md"
ctl dump "$WORK/props.md" >"$WORK/dump.txt"
ctl read $((0x14000 + 0x0C)) >/dev/null # release of worker 4: the emulator exits
wait "$fp"
check_eq "$?" 0 "dcp: a release of the emulator worker ends the process with status 0"
val_use "$WORK/dump.txt" "$WORK/dcp.json"
check_eq "$(val "$WORK/dump.txt" dcp_read_errors)" 0 "dcp read-back: every property readable"
mism=0
n=0
while read -r name value; do
	[ "$name" = dcp_read_errors ] && continue
	case "$name" in dcp_requests | dcp_errors) continue ;; esac
	n=$((n + 1))
	val_to want "$WORK/dcp.json" "$name"
	[ "$want" = true ] && want=1
	[ "$want" = false ] && want=0
	case "$want" in -*) want=$(printf '%u' "$want") ;; esac
	if [ "$value" != "$want" ]; then
		mism=$((mism + 1))
		diag "  $name: dcp $value, summary $want"
	fi
done <"$WORK/dump.txt"
check_eq "$mism" 0 "dcp read-back: $n properties equal the summary"
check "dcp read-back: the samples of the run are there" \
	[ "$(val "$WORK/dcp.json" samples_sent)" -gt 0 ]

# 7. Fault injection: every data frame dropped (the stream locks up once the host
#    buffers are spent, as the guide describes), or every frame malformed.
run_pair drop "--rate 1e6 --duration 0.3 --quiet --drain-ms 0 --drop-frames 1 --seed 7" "--idle 1"
check_eq "$(val "$WORK/drop.host" frames)" 0 "drop-frames 1: the host receives no frame"
check_eq "$(val "$WORK/drop.json" transactions_sent)" 64 \
	"drop-frames 1: 64 transactions (one per host buffer), then no doorbell: lock-up"
run_pair corrupt "--rate 1e6 --duration 0.3 --quiet --drain-ms 0 --corrupt 1 --seed 7" "--idle 1"
check_eq "$(val "$WORK/corrupt.host" bad_frames)" "$(val "$WORK/corrupt.json" frames_corrupted_injected)" \
	"corrupt 1: the host rejects every corrupted frame"
check_eq "$(val "$WORK/corrupt.host" transactions)" 0 "corrupt 1: no transaction completes"

# 8. Bad arguments name the option and the range.
bad() {
	local want="$1"
	shift
	"$FPGA" --udp "$@" >"$WORK/bad.out" 2>&1
	local rc=$?
	if [ $rc -eq 2 ] && grep -q -- "$want" "$WORK/bad.out"; then
		ok "bad argument $*: exit 2 naming $want"
	else
		not_ok "bad argument $*: exit $rc, $(cat "$WORK/bad.out")"
	fi
}
bad "--rate: '0' is out of range 1..1e10" --rate 0
bad "--rate: '440m' is not a number (accepted: 1..1e10 samples/s; e.g. 200e6 or 200M)" --rate 440m
bad "--buffers" --buffers 9
bad "--buffers" --buffer-size 32768 --buffers 4
bad "--report-data-loss: 'yes'" --report-data-loss yes
bad "--drop-frames: '2' is out of range 0..1" --drop-frames 2
bad "--mode: 'foo'" --mode foo
bad "--buffer-size" --buffer-size 100
bad "--timer-slack-us: '2000' is out of range 0..1000" --timer-slack-us 2000

# 8a. Timer slack: auto is 50 us, or an eighth of the time the FPGA's memory holds at the rate
#     (64 KiB at 1e9 samples/s: 16.384 us / 8); the process runs with it (/proc timerslack_ns).
slack() { # WANT_NS [options]
	local want=$1
	shift
	local ready="$WORK/slack.ready"
	rm -f "$ready"
	# the emulator sets its slack before it writes its ready file
	"$FPGA" --udp --bind 127.0.0.1:0 --duration 10 --drain-ms 0 --quiet --ready-file "$ready" "$@" \
		>/dev/null 2>&1 &
	local p=$!
	dgr_wait_ready_file "$ready" "$p"
	if [ "$(id -u)" = 0 ]; then
		check_eq "$(cat /proc/$p/timerslack_ns 2>/dev/null)" "$want" "timer slack $* -> $want ns"
	else
		skip "not root: /proc/PID/timerslack_ns of another process needs CAP_SYS_NICE"
	fi
	kill $p 2>/dev/null
	wait $p 2>/dev/null
}
slack 50000
slack 2048 --rate 1e9
slack 2048 --rate 1G # the decimal suffix: the same rate
check_eq "$(val "$WORK/drop.json" timer_slack_ns)" 50000 \
	"the summary (DCP property timer_slack_ns) says which slack the run had"

slack 1 --timer-slack-us 0
slack 200000 --timer-slack-us 200 --rate 1e9
"$FPGA" --if nosuch0 --peer 00:11:22:33:44:55 >"$WORK/bad.out" 2>&1
check_eq "$?/$(grep -c 'nosuch0: no such interface' "$WORK/bad.out")" "3/1" \
	"a missing interface is named (exit 3: the run could not start)"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$FPGA" --if lo \
		--peer 00:11:22:33:44:55 >"$WORK/bad.out" 2>&1
	check_eq "$?/$(grep -c 'CAP_NET_RAW' "$WORK/bad.out")" "3/1" \
		"raw Ethernet without privilege names CAP_NET_RAW and the fix (exit 3)"
else
	skip "not root: cannot drop privileges to test the CAP_NET_RAW message"
fi

# 8b. No --peer: the emulator learns its host from the first packet (a DCP NOP); the
#     samples of the ADC before that are dropped before ready, so the ramp starts there.
"$FPGA" --udp --bind "127.0.0.1:$PF" --rate 1e6 --duration 1 --quiet --drain-ms 3000 \
	--host-buffers 255 --summary-json "$WORK/np.json" >"$WORK/np.out" 2>&1 &
fp=$!
FPGA_PIDS+=("$fp")
dgr_wait_listening "$fp" dgrdma-fpga --udp
"$THOST" "${HOST_UDP[@]}" --hello --idle 3 --buffers 255 rx >"$WORK/np.host" 2>&1
wait "$fp"
check_eq "$?" 0 "no --peer: dgrdma-fpga exits 0"
val_use "$WORK/np.json" "$WORK/np.host"
check "no --peer: samples dropped before the port was ready ($(val "$WORK/np.json" \
	dropped_before_ready))" [ "$(val "$WORK/np.json" dropped_before_ready)" -gt 0 ]
check_eq "$(val "$WORK/np.host" first_sample)" "$(val "$WORK/np.json" dropped_before_ready)" \
	"no --peer: the host's ramp starts at dropped_before_ready"
check_eq "$(val "$WORK/np.host" lost)/$(val "$WORK/np.json" dropped_samples)" "0/0" \
	"no --peer: no drop after ready (1 s of slack), none in dropped_samples"

# 9. Deterministic mode: a virtual clock (100 us per loop iteration) and a fixed seed
#    give exact counts and the same summary twice (no host answers: the drops are exact too).
for i in 1 2; do
	"$FPGA" "${FPGA_T[@]}" --clock virtual --tick-us 100 --rate 1e7 --duration 0.1 \
		--drop-frames 0.5 --seed 42 --quiet --summary-json "$WORK/virt$i.json" >/dev/null 2>&1
done
j="$WORK/virt1.json"
val_use "$j"
check_eq "$(val "$j" samples_produced)/$(val "$j" elapsed_ns)" "1000000/100000000" \
	"virtual clock: exactly 1e7 x 0.1 s samples in 100 ms of virtual time"
check_eq "$(val "$j" transactions_sent)" 64 "virtual clock: 64 host buffers filled, then back pressure"
check_eq "$(val "$j" dropped_open)" $((1000000 - 64 * 4096 - 4 * 4096)) \
	"virtual clock: the rest dropped (64 host + 4 local buffers kept)"
check_eq "$(jq -c 'del(.run_ns, .cpu_user_ns, .cpu_sys_ns)' "$WORK/virt1.json" | md5sum)" \
	"$(jq -c 'del(.run_ns, .cpu_user_ns, .cpu_sys_ns)' "$WORK/virt2.json" | md5sum)" \
	"virtual clock + --seed 42: two runs give the same summary"
check "virtual clock + --seed: frames dropped by injection ($(val "$j" frames_dropped_injected))" \
	[ "$(val "$j" frames_dropped_injected)" -gt 0 ]

# 10. docs/fpga.md carries the property map of the code.
sed -n '/<!-- property-map-begin -->/,/<!-- property-map-end -->/p' "$DGR_SRC/docs/fpga.md" |
	sed '1d;$d' >"$WORK/doc-table.md"
if cmp -s "$WORK/doc-table.md" "$WORK/props.md"; then
	ok "docs/fpga.md property map equals dgrdma-fpga --list-properties"
else
	not_ok "docs/fpga.md property map differs from --list-properties"
	diff "$WORK/doc-table.md" "$WORK/props.md" | head -20 | sed 's/^/# /'
fi
done_testing
