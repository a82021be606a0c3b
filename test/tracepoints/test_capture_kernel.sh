#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-capture --kernel (issue 33, item 1): the kernel's side of a run, recorded with perf on
# CLOCK_MONOTONIC and converted to CTF in kernel/ on the UST trace's clock.
# - Where the kernel's events cannot be recorded (nobody, through setpriv; mapped root in a user
#   namespace), exit 3 naming kernel.perf_event_paranoid and CAP_PERFMON (and tracefs when it
#   is unreadable), and COMMAND never runs; --kernel-backend lttng without lttng-modules, exit 3
#   naming them.
# - In `ip netns exec` (a /sys without tracefs) with --no-trace: recorded, offset from dgrdma-clocks.
# - dgrdma-capture killed by SIGKILL: its perf ends too.
# - A real run of dgrdma-host fed by dgrdma-fpga over UDP on 127.0.0.1: run.json's kernel
#   object, kernel/ read by babeltrace2 alone and muxed with the UST trace, and the clocks lined
#   up: every UST event of the host's consumer and receive threads falls inside an interval where
#   the kernel trace has that thread scheduled in (sched_switch next_pid .. prev_pid on a CPU),
#   for at least 95% of them.
# make check: slow

set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/tracepoints/lttng-env.sh"
tp_isolate "$@" || { not_ok "private lttng run folder"; done_testing; exit 1; }

tp_capture_suite 32000

require_built "$DGR_BUILD/bin" dgrdma-capture dgrdma-host dgrdma-fpga
if [ "$(id -u)" != 0 ] || ! grep -qE '^ *0 +0 +4294967295' /proc/self/uid_map; then
	skip "recording the kernel's events needs root (this suite runs as uid $(id -u) or in a user namespace)"
	done_testing
	exit 0
fi
if ! command -v perf >/dev/null || ! command -v babeltrace2 >/dev/null || ! command -v setpriv >/dev/null; then
	skip "perf (linux-perf), babeltrace2 or setpriv is not installed (make deps)"
	done_testing
	exit 0
fi

# ---- where nothing can be recorded ---------------------------------------------------------
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
chmod 0711 "$WORK"
mkdir -m 0777 "$WORK/nobody"
# nobody runs copies: it may not be able to go through the folders above the build (a CI clone
# in a mktemp folder of mode 0700); dgrdma-opts, dgrdma-clocks and dgrdma-runinfo must be beside
# dgrdma-capture
mkdir -m 0755 "$WORK/bin"
cp "$CAPTURE" "$DGR_BUILD/bin/dgrdma-opts" "$DGR_BUILD/bin/dgrdma-clocks" \
	"$DGR_BUILD/bin/dgrdma-runinfo" "$WORK/bin/"
chmod 0755 "$WORK/bin/dgrdma-capture" "$WORK/bin/dgrdma-opts" "$WORK/bin/dgrdma-clocks" \
	"$WORK/bin/dgrdma-runinfo"
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$WORK/bin/dgrdma-capture" --kernel --no-trace --no-pcap -o "$WORK/nobody/run" -- touch "$WORK/nobody/ran" \
	>/dev/null 2>"$WORK/nobody.err"
status=$?
sed 's/^/# nobody: /' "$WORK/nobody.err"
check_eq "$status" 3 "as nobody: --kernel exits 3 (set-up failure)"
check "as nobody: COMMAND did not run" test ! -e "$WORK/nobody/ran"
if [ "$paranoid" != -1 ]; then
	check "as nobody: names kernel.perf_event_paranoid=$paranoid, the sysctl and CAP_PERFMON" \
		grep -q "kernel.perf_event_paranoid is $paranoid; allow with: sysctl kernel.perf_event_paranoid=-1, or run as root / with CAP_PERFMON" "$WORK/nobody.err"
else
	skip "kernel.perf_event_paranoid is -1 here: nobody may record"
fi
if setpriv --reuid=65534 --regid=65534 --clear-groups test -r /sys/kernel/tracing/events/sched/sched_switch/id; then
	skip "tracefs is readable by nobody here"
else
	check "as nobody: names the unreadable tracefs and how to mount it" \
		grep -q "tracefs is not mounted on /sys/kernel/tracing or not readable; mount it (mount -t tracefs nodev /sys/kernel/tracing)" "$WORK/nobody.err"
fi

if [ "$paranoid" != -1 ] && unshare --user --map-root-user true 2>/dev/null; then
	unshare --user --map-root-user "$CAPTURE" --kernel --kernel-backend perf --no-trace --no-pcap \
		-o "$WORK/userns" -- touch "$WORK/userns-ran" >/dev/null 2>"$WORK/userns.err"
	status=$?
	sed 's/^/# userns: /' "$WORK/userns.err"
	check_eq "$status" 3 "mapped root in a user namespace: exit 3"
	check "user namespace: says its capabilities do not count, names the sysctl" \
		grep -q "kernel.perf_event_paranoid is $paranoid and this is a user namespace (its capabilities do not count for perf); allow with: sysctl kernel.perf_event_paranoid=-1" "$WORK/userns.err"
	check "user namespace: COMMAND did not run" test ! -e "$WORK/userns-ran"
else
	skip "no user namespace here, or kernel.perf_event_paranoid is -1"
	skip "no user namespace here, or kernel.perf_event_paranoid is -1"
	skip "no user namespace here, or kernel.perf_event_paranoid is -1"
fi

# ---- argument errors -----------------------------------------------------------------------
"$CAPTURE" --kernel-backend ftrace --no-trace --no-pcap -- true 2>"$WORK/arg.err"
check_eq "$?" 2 "--kernel-backend ftrace: bad usage"
check "--kernel-backend ftrace: names the accepted backends" \
	grep -q "'ftrace' is not auto, perf or lttng" "$WORK/arg.err"
"$CAPTURE" --kernel --kernel-buffer 0 --no-trace --no-pcap -- true 2>"$WORK/arg.err"
check_eq "$?" 2 "--kernel-buffer 0: bad usage"
check "--kernel-buffer 0: names the range" grep -q "'0' is out of range 1..1024" "$WORK/arg.err"

if ! tp_lttng_setup; then
	skip "$TP_LTTNG_WHY"
	done_testing
	exit 0
fi

if lttng list --kernel >/dev/null 2>&1; then
	skip "LTTng's kernel tracer works here"
else
	"$CAPTURE" --kernel-backend lttng --no-trace --no-pcap -o "$WORK/lttngk" -- touch "$WORK/lttngk-ran" \
		2>"$WORK/lttngk.err"
	status=$?
	sed 's/^/# lttng backend: /' "$WORK/lttngk.err"
	check_eq "$status" 3 "--kernel-backend lttng without lttng-modules: exit 3"
	check "--kernel-backend lttng: names lttng-modules" grep -q "needs lttng-modules loaded" "$WORK/lttngk.err"
	check "--kernel-backend lttng: COMMAND did not run" test ! -e "$WORK/lttngk-ran"
fi

# ---- inside `ip netns exec` (a fresh /sys without tracefs), without the UST trace ----------------
NS=kcap$$
if ip netns add "$NS" 2>/dev/null; then
	ip netns exec "$NS" "$CAPTURE" --kernel --no-trace --no-pcap -o "$WORK/netns" -- sleep 0.3 \
		>/dev/null 2>"$WORK/netns.err"
	status=$?
	ip netns del "$NS"
	sed 's/^/# netns: /' "$WORK/netns.err"
	check_eq "$status" 0 "in ip netns exec: --kernel --no-trace records (tracefs mounted there)"
	check_eq "$(jq -c '.kernel | [.backend, .clock_offset_from, .samples > 0]' "$WORK/netns/run.json")" \
		'["perf","clocks",true]' "in ip netns exec: perf, offset from dgrdma-clocks, events recorded"
	check_eq "$(jq -r '.trace' "$WORK/netns/run.json")" null "in ip netns exec: no UST trace"
else
	skip "ip netns add failed"
	skip "ip netns add failed"
	skip "ip netns add failed"
fi

# ---- dgrdma-capture killed by SIGKILL: perf (system-wide) does not outlive it ------------------
# (COMMAND, in a session of its own, ends by itself: a sleep of 30 s)
"$CAPTURE" --kernel --no-trace --no-pcap -o "$WORK/killed" -- sleep 30 >/dev/null 2>&1 &
cap=$!
perf_pid=""
for ((n = 0; n < 1200; n++)); do
	grep -q "^perf acknowledged" "$WORK/killed/kernel.log" 2>/dev/null && break
	kill -0 "$cap" 2>/dev/null || break
	nap 0.1
done
perf_pid=$(sed -n 's/^perf pid \([0-9]*\)$/\1/p' "$WORK/killed/kernel.log" 2>/dev/null)
check "SIGKILL: perf was recording (pid ${perf_pid:-none})" test -n "$perf_pid"
kill -KILL "$cap"
wait "$cap" 2>/dev/null
# perf stops with its workload, which ends with dgrdma-capture (polled every second by tail)
for ((n = 0; n < 600; n++)); do
	[ -n "$perf_pid" ] && kill -0 "$perf_pid" 2>/dev/null || break
	nap 0.1
done
check "SIGKILL: perf ended with dgrdma-capture" test -n "$perf_pid" -a ! -e "/proc/${perf_pid:-0}"

# ---- perf ended during the run: the kernel's trace is lost, and said so --------------------------
# (the command waits for the test's go, given once perf is gone)
lost=$WORK/perf-lost
"$CAPTURE" --kernel --no-trace --no-pcap -o "$lost" -- bash -c \
	'touch "$1.ready"; until [ -e "$1.go" ]; do sleep 0.05; done' _ "$lost" >/dev/null 2>&1 &
cap=$!
for ((n = 0; n < 1200; n++)); do
	[ -e "$lost.ready" ] || ! kill -0 "$cap" 2>/dev/null && break
	nap 0.05
done
perf_pid=$(sed -n 's/^perf pid \([0-9]*\)$/\1/p' "$lost/kernel.log" 2>/dev/null)
[ -z "$perf_pid" ] || tp_kill_gone "$perf_pid"
touch "$lost.go"
wait "$cap"
check_eq "$? $(jq -r '.kernel.lost' "$lost/run.json" 2>/dev/null)" \
	"3 perf record ended during the run (killed by SIGKILL)" \
	"perf killed during the run: exit 3 and run.json's kernel.lost say so (perf pid ${perf_pid:-none})"

# ---- a real run ------------------------------------------------------------------------------
RUN=$WORK/run
# --if lo without a capture: the interface of net_dev_xmit's filter. The events: the default's of
# the host (thread_start, doorbell_sent, counters, stream_config) and txn_complete, which the
# default leaves out: the receive thread's only event per buffer, for the alignment below
HOST_EVENTS=dgrdma:thread_start,dgrdma:txn_complete,dgrdma:doorbell_sent,dgrdma:counters,dgrdma:stream_config
env --default-signal=INT "$CAPTURE" -o "$RUN" --kernel --no-pcap --if lo --events "$HOST_EVENTS" -- "$DHOST" rx --udp \
	--bind "127.0.0.1:$PORT_H" --peer "127.0.0.1:$PORT_F" --rcvbuf 16M --idle-timeout 2 \
	--ready-file "$WORK/ready" --summary-json "$WORK/host.json" --quiet 2>"$WORK/capture.err" &
CAP_PID=$!
for ((n = 0; n < 600; n++)); do
	[ -e "$WORK/ready" ] && break
	kill -0 "$CAP_PID" 2>/dev/null || break
	nap 0.1
done
"$DFPGA" --udp --bind "127.0.0.1:$PORT_F" --peer "127.0.0.1:$PORT_H" --mode adc --rate 10e6 \
	--duration 2 --quiet &
FPGA_PID=$!
wait "$FPGA_PID"
check_eq "$?" 0 "dgrdma-fpga ran its 2 s"
FPGA_PID=""
wait "$CAP_PID"
check_eq "$?" 0 "dgrdma-capture --kernel ran dgrdma-host to its end"
CAP_PID=""
sed 's/^/# /' "$WORK/capture.err"

check_eq "$(jq -c '.kernel | [.backend, .path, .clock, .perf_data, .clock_offset_from]' "$RUN/run.json")" \
	'["perf","kernel","monotonic","kernel.perf.data","trace"]' "run.json kernel: perf, kernel/, monotonic, offset from the trace"
check_eq "$(jq -c '.kernel.events | map(select(. == "sched:sched_switch" or . == "sched:sched_wakeup"
	or . == "irq:softirq_entry" or . == "block:block_rq_issue")) | length' "$RUN/run.json")" 4 \
	"run.json kernel.events holds sched_switch, sched_wakeup, softirq_entry, block_rq_issue"
check_eq "$(jq -r '.kernel.lost_events | type' "$RUN/run.json")" number "run.json kernel.lost_events is a count"
check_eq "$(jq -r '.kernel.xmit_device' "$RUN/run.json")" lo \
	"run.json kernel.xmit_device: net_dev_xmit kept to the captured interface (lo)"
check_eq "$(jq '.kernel.clock_offset.sec > 1000000000 and .kernel.clock_offset.nsec < 1000000000' "$RUN/run.json")" \
	true "run.json kernel.clock_offset is the UST clock's offset (seconds since the epoch at boot)"
"$DGR_BUILD/bin/latency-report" "$RUN" >/dev/null 2>"$WORK/lr.err"
check_eq "$?" 0 "latency-report reads the run folder (run.json with its kernel object)"
sed 's/^/# latency-report: /' "$WORK/lr.err" | head -n5
# the kernel trace as text, read once for the counts below
babeltrace2 "$RUN/kernel" >"$WORK/kernel.txt" 2>"$WORK/bt.err"
switches=$(grep -c ' sched:sched_switch: ' "$WORK/kernel.txt")
check "babeltrace2 reads kernel/: $switches sched_switch events" test "$switches" -gt 0
xmits=$(grep ' net:net_dev_xmit: ' "$WORK/kernel.txt" | grep -c 'name = "lo"')
others=$(grep ' net:net_dev_xmit: ' "$WORK/kernel.txt" | grep -vc 'name = "lo"')
check_eq "$others" 0 "kernel/: every net_dev_xmit is lo's ($xmits of them; perf's --filter)"
check "kernel/: the stream's sends on lo are there ($xmits)" test "$xmits" -gt 0
ust=$(dirname "$(find "$RUN/trace" -name metadata -print -quit)")
babeltrace2 --clock-seconds "$ust" "$RUN/kernel" >"$WORK/both.txt" 2>"$WORK/bt.err"
check_eq "$?" 0 "babeltrace2 muxes the UST trace and kernel/ on one time axis"

# The host's threads: their UST events must fall where the kernel has them on a CPU. sched_switch's
# prev_pid/next_pid are the kernel's (global) tids; perf_tid and UST's vtid are this PID
# namespace's: the map between them comes from the switches a thread made itself.
host_pid=$(jq -r .command_pid "$RUN/run.json")
python3 - "$WORK/both.txt" "$host_pid" >"$WORK/align.txt" <<'PY'
import bisect, re, sys

path, host_pid = sys.argv[1], sys.argv[2]
line_re = re.compile(r'^\[(\d+)\.(\d{9})\] \([^)]*\) (?:\S+ )?([a-z_]+:[a-z_]+): \{ cpu_id = (\d+) \}, (.*)$')
field = lambda body, name: (re.search(r'\b' + name + r' = (-?\d+)', body) or [None, None])[1]
running = {}   # cpu -> (global tid, since)
intervals = {}  # global tid -> [(start, end)]
ns_to_global = {}
roles = {}     # vtid -> role
ust = []       # (t, vtid)
last_t = 0
for line in open(path):
    m = line_re.match(line)
    if not m:
        continue
    t = int(m.group(1)) * 1000000000 + int(m.group(2))
    last_t = max(last_t, t)
    name, cpu, body = m.group(3), int(m.group(4)), m.group(5)
    if name == 'sched:sched_switch':
        prev, nxt, ptid = int(field(body, 'prev_pid')), int(field(body, 'next_pid')), int(field(body, 'perf_tid'))
        if ptid:
            ns_to_global[ptid] = prev
        if cpu in running:
            g, since = running[cpu]
            intervals.setdefault(g, []).append((since, t))
        running[cpu] = (nxt, t)
    elif name.startswith('dgrdma:') and field(body, 'vpid') == host_pid:
        vtid = int(field(body, 'vtid'))
        if name == 'dgrdma:thread_start':
            roles[vtid] = int(field(body, 'role'))
        ust.append((t, vtid))
for g, since in running.values():
    intervals.setdefault(g, []).append((since, last_t + 1))
for role, label in ((2, 'consumer'), (0, 'rx')):
    tids = [v for v, r in roles.items() if r == role]
    if not tids:
        print('%s 0 0 no-thread' % label)
        continue
    vtid = tids[0]
    g = ns_to_global.get(vtid)
    spans = sorted(intervals.get(g, []))
    starts = [s for s, _ in spans]
    inside = total = 0
    for t, v in ust:
        if v != vtid:
            continue
        total += 1
        i = bisect.bisect_right(starts, t) - 1
        if i >= 0 and spans[i][0] <= t <= spans[i][1]:
            inside += 1
    print('%s %d %d tid=%d global=%s intervals=%d' % (label, inside, total, vtid, g, len(spans)))
PY
sed 's/^/# alignment: /' "$WORK/align.txt"
for role in consumer rx; do
	read -r _ inside total _ < <(grep "^$role " "$WORK/align.txt")
	inside=${inside:-0} total=${total:-0}
	check "the $role thread's UST events lie where the kernel has it on a CPU: $inside of $total (>= 95%, >= 50 events)" \
		test "$total" -ge 50 -a $((inside * 100)) -ge $((total * 95))
done

done_testing
