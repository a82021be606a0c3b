#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make demo on each link it can fall back to (test/demo.sh, test/lib/netns.sh), each forced the
# way this machine allows, with a short slow stream (DEMO_SECONDS=1, 2 MS/s), all at once:
#   netns   as root: two network namespaces, with Ctrl-C once in the middle of a 30 s stream
#           (it ends early and reports), then twice (it stops at once);
#   userns  as a normal user (root: nobody, through setpriv) where user namespaces are allowed;
#   udp     as a normal user where creating a user namespace is refused: root runs the demo
#           as nobody inside a user namespace whose user.max_user_namespaces is 0 (a limit of
#           that namespace only: the machine's sysctl is not touched); not root: with the
#           documented override DGR_LINK_FORCE=udp.
# Each run must say which link it used and what it records, exit 0, write a report with a
# verdict and the plots, record the trace (every doorbell the host sent, exactly) and, where
# privileges allow, the capture; and leave no namespace, interface or process behind.
# A fourth run has the emulator fail (DEMO_FPGA_OPTS): the demo reports, names the ends that
# failed and exits 1; a fifth the host (DEMO_HOST_OPTS): the emulator is not started.
# make check: slow
set -u
. "$DGR_SRC/test/lib/tap.sh"
BIN="$DGR_BUILD/bin"
require_built "$BIN" dgrdma-host dgrdma-fpga dgrdma-capture latency-report dgrdma-plot

WORK=$(mktemp -d)
chmod 755 "$WORK"
TAG="dmt$$"
sysctl -n user.max_user_namespaces >"$WORK/max_userns" 2>/dev/null
cleanup() {
	local f
	for f in "$WORK"/*/pgid; do
		[ -f "$f" ] && kill -KILL -- "-$(<"$f")" 2>/dev/null
	done
	rm -rf "$WORK"
}
trap cleanup EXIT

NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
# The runs as nobody need to reach the tree: a checkout in a private folder (a CI clone in
# `mktemp -d`, mode 700) is copied, sources and built programs, to a folder nobody can read.
if [ "$(id -u)" = 0 ] && ! "${NOBODY[@]}" test -x "$DGR_SRC/test/demo.sh" -a -x "$BIN/dgrdma-host"; then
	mkdir -p "$WORK/tree/build"
	(cd "$DGR_SRC" && git ls-files -z 2>/dev/null | xargs -0 cp --parents -t "$WORK/tree") ||
		cp -a "$DGR_SRC/test" "$DGR_SRC/analysis" "$DGR_SRC/tracepoints" "$WORK/tree/"
	cp -a "$DGR_BUILD/bin" "$DGR_BUILD/lib" "$WORK/tree/build/"
	chmod -R a+rX "$WORK/tree"
	diag "$DGR_SRC is not readable by nobody: the runs use a copy in $WORK/tree"
	DGR_SRC="$WORK/tree"
	DGR_BUILD="$WORK/tree/build"
	BIN="$DGR_BUILD/bin"
fi
# demo_cmd DIR [SECONDS]: DEMO_CMD, the demo with a short slow stream, its run folder DIR/run,
# our namespace tag, and a private home for LTTng's per-user session daemon.
demo_cmd() {
	DEMO_CMD=(env HOME="$1/home" DEMO_SECONDS="${2:-1}" DEMO_RATE=2e6 DEMO_OUT="$1/run"
		DGR_LINK_TAG="$TAG" DGR_BUILD="$DGR_BUILD" DGR_SRC="$DGR_SRC" "$DGR_SRC/test/demo.sh")
}
# case_dir NAME [OWNER]: a folder for one run, writable by OWNER (uid).
case_dir() {
	mkdir -p "$WORK/$1/home"
	[ -n "${2:-}" ] && chown -R "$2:$2" "$WORK/$1"
	echo "$WORK/$1"
}

# leftovers: what a demo with our tag or run folder left running or configured (after up to
# 5 s: a process signalled at the end may take a moment to exit). The command lines and the
# lists are matched in bash: only pgrep and ip start per look.
leftovers() {
	local p left i args comm out
	for ((i = 0; i < 50; i++)); do
		left=""
		for p in $(pgrep -x 'dgrdma-host|dgrdma-fpga|dgrdma-capture|dumpcap'); do
			args=()
			mapfile -d '' -t args 2>/dev/null <"/proc/$p/cmdline"
			if [[ "${args[*]}" == *"$WORK/"* ]]; then
				comm=""
				read -r comm 2>/dev/null <"/proc/$p/comm"
				left="$left $p:$comm"
			fi
		done
		if [ "$EUID" = 0 ]; then
			out=$'\n'$(ip netns list 2>/dev/null)
			[[ $out == *$'\n'"$TAG-"* ]] && left="$left netns"
		fi
		out=$(ip link show 2>/dev/null)
		[[ $out =~ :\ ${TAG}[fh][@:] ]] && left="$left veth"
		[ -z "$left" ] && break
		nap 0.1
	done
	echo "${left# }"
}

# has_line_from FILE PREFIX: true when a line of FILE starts with PREFIX (grep -qs '^PREFIX'
# in bash: the waits below look ten to fifty times a second).
has_line_from() {
	local l
	[ -r "$1" ] || return 1
	while IFS= read -r l || [ -n "$l" ]; do
		[[ $l == "$2"* ]] && return 0
	done <"$1"
	return 1
}

# check_run NAME DIR RC LINK_LINE RECORD_LINE PCAP(yes|no) [any: the session daemon may be reused]
check_run() {
	local name="$1" dir="$2" rc="$3" link="$4" rec="$5" pcap="$6" run="$2/run" n_trace n_host sd
	check_eq "$rc" 0 "$name: demo exits 0"
	check "$name: says which link it used ($link)" grep -qxF "demo: link: $link" "$dir/out"
	check "$name: says what it records ($rec)" grep -qxF "demo: $rec" "$dir/out"
	check "$name: report with a verdict" grep -qE '^  verdict: [a-z-]+$' "$run/report.txt"
	# one jq per file, each value on a line (an error yields "", as a jq of its own printed
	# nothing): report.json's regime test and vpids, run.json's and host.json's facts
	local rep=() rj=() hj=()
	mapfile -t rep < <(jq -r '(try (.regime.label | type == "string") catch ""),
		(try ([.host.counters[].vpid] | unique | length) catch "")' "$run/report.json" 2>/dev/null)
	mapfile -t rj < <(jq -r '(try .exit_status catch ""), (try .command_pid catch ""),
		(try .trace.sessiond catch ""), (try (.capture.packets_captured // 0) catch ""),
		(try (.capture | tojson) catch "")' "$run/run.json" 2>/dev/null)
	mapfile -t hj < <(jq -r '(try .counters.eof_received catch ""),
		(try .counters.doorbells_sent catch "")' "$run/host.json" 2>/dev/null)
	check "$name: report.json has the regime" test "${rep[0]:-}" = true
	check "$name: latency and drop-rate plots written" test -s "$run/plots/latency.png" -a -s "$run/plots/drops.png"
	check_eq "${rj[0]:-}" 0 "$name: run.json: the host exited 0"
	check_eq "${hj[0]:-}" 1 "$name: the host received the stream's EOF"
	n_host=${hj[1]:-}
	# the host's own events (as root, other root processes' dgrdma events share the buffers)
	n_trace=$(babeltrace2 "$run/trace" 2>/dev/null | awk -v ev=' dgrdma:doorbell_sent: ' \
		-v pid="vpid = ${rj[1]:-}," 'index($0, ev) && index($0, pid) { n++ } END { print n + 0 }')
	check "$name: the trace holds every doorbell the host sent ($n_trace of $n_host)" \
		test "$n_host" -gt 0 -a "$n_trace" = "$n_host"
	check_eq "${rep[1]:-}" 2 \
		"$name: the report's counters are of the demo's host and emulator only (--pid)"
	sd=${rj[2]:-}
	[ "${7:-}" = any ] && [ "$sd" = reused ] && sd="started, stopped"
	check_eq "$sd" "started, stopped" "$name: dgrdma-capture started its session daemon and stopped it"
	if [ "$pcap" = yes ]; then
		check "$name: packets captured" test "${rj[3]:-}" -gt 0
	else
		check_eq "${rj[4]:-}" null "$name: no capture (no privileges for it)"
	fi
	check_eq "$(leftovers)" "" "$name: no namespace, interface or process left behind"
	check "$name: the host's --ready-file is removed at its exit" test ! -e "$run.ready"
	if [ "$rc" != 0 ] || [ "${rj[0]:-}" != 0 ]; then
		# its own lines and the tools' messages: the report would push them out of CI's excerpt
		diag "$name: the demo's messages:"
		grep -E '^(demo|dgrdma-[a-z]+|latency-report):' "$dir/out" | sed 's/^/#   /'
		grep -hE '^dgrdma-(host|fpga):' "$run/host.log" "$run/fpga.log" 2>/dev/null | sed 's/^/#   /'
	fi
}

if ! command -v babeltrace2 >/dev/null || ! command -v lttng-sessiond >/dev/null; then
	skip "babeltrace2 and lttng-tools are needed (make deps)"
	done_testing
	exit 0
fi

# refused_userns CMD...: runs CMD as nobody in a user + network + mount namespace of its own
# (uids 0 and 65534 mapped) whose user.max_user_namespaces is 0, with lo up and a private
# /dev/shm. The maps are written from outside, each in one write() (a second write is
# refused), once unshare has made the namespace and before the inner shell execs again: the
# exec of a mapped root gets the namespace's capabilities.
refused_userns() {
	local go pid i
	go=$(mktemp -u "$WORK/mapped.XXXXXX")
	printf '0 0 1\n65534 65534 1\n' >"$WORK/idmap"
	unshare --user --net --mount -- bash -c '
		while [ ! -e "$1" ]; do sleep 0.02; done
		shift
		exec bash -c '\''
			echo 0 >/proc/sys/user/max_user_namespaces || exit 90
			ip link set lo up || exit 91
			mount -t tmpfs -o mode=1777 tmpfs /dev/shm || exit 92
			exec setpriv --reuid=65534 --regid=65534 --clear-groups "$@"'\'' _ "$@"' _ "$go" "$@" &
	pid=$!
	for ((i = 0; i < 500; i++)); do
		[ "$(readlink "/proc/$pid/ns/user")" != "$(readlink /proc/self/ns/user)" ] && break
		nap 0.01
	done
	if cat "$WORK/idmap" >"/proc/$pid/uid_map" && cat "$WORK/idmap" >"/proc/$pid/gid_map"; then
		touch "$go"
	else
		kill "$pid"
	fi
	wait "$pid"
}

# Each run_* starts one demo in the background (they run at the same time: most of a run is
# waiting); its status goes to DIR/rc.
#
# netns (root), Ctrl-C: test/readme.sh runs the whole `make demo` as root; here the demo runs
# a 30 s stream in a process group of its own (setsid; env --default-signal, since a
# background job of a script starts with SIGINT ignored), and gets Ctrl-C (SIGINT to the
# group) once it streams: once, the stream ends early and the demo reports on what it
# recorded; twice, it stops at once.
run_netns_ctrl_c() {
	local d="$1" n="$2" i
	demo_cmd "$d" 30
	setsid env --default-signal=INT "${DEMO_CMD[@]}" >"$d/out" 2>&1 </dev/null &
	echo $! >"$d/pgid"
	for ((i = 0; i < 600; i++)); do
		has_line_from "$d/out" 'demo: streaming' && break
		nap 0.1
	done
	nap 1
	kill -INT -- "-$(<"$d/pgid")"
	if [ "$n" = 2 ]; then
		# the second once the demo has taken the first (a second sent before would be its
		# first): "unacknowledged" in rc when it never says so
		for ((i = 0; i < 3000; i++)); do
			has_line_from "$d/out" 'demo: Ctrl-C' && break
			nap 0.02
		done
		if [ "$i" = 3000 ]; then
			kill -TERM -- "-$(<"$d/pgid")"
			wait "$(<"$d/pgid")"
			echo "unacknowledged" >"$d/rc"
			return
		fi
		kill -INT -- "-$(<"$d/pgid")"
	fi
	wait "$(<"$d/pgid")"
	echo $? >"$d/rc"
}
# userns: as a normal user (root: nobody) where user namespaces are allowed.
run_userns() {
	demo_cmd "$1"
	"${AS_USER[@]}" "${DEMO_CMD[@]}" >"$1/out" 2>&1
	echo $? >"$1/rc"
}
# udp: as root, as nobody where user namespaces are refused; otherwise DGR_LINK_FORCE=udp.
run_udp() {
	demo_cmd "$1"
	if [ "$(id -u)" = 0 ]; then
		refused_userns "${DEMO_CMD[@]}" >"$1/out" 2>&1
	else
		env DGR_LINK_FORCE=udp "${DEMO_CMD[@]}" >"$1/out" 2>&1
	fi
	echo $? >"$1/rc"
}

# failed: the emulator refuses an option (DEMO_FPGA_OPTS): the host waits for nothing until
# its --idle-timeout (5 s); the demo reports, says which end failed and exits 1. Over UDP as a
# normal user (root: nobody), the lightest link.
run_failed() {
	demo_cmd "$1"
	"${AS_USER[@]}" env DGR_LINK_FORCE=udp DEMO_FPGA_OPTS="--drop-frames 2" "${DEMO_CMD[@]}" \
		>"$1/out" 2>&1
	echo $? >"$1/rc"
}
# host_refused: the host refuses an option (DEMO_HOST_OPTS): the demo does not start the
# emulator, shows the host's message and exits 1.
run_host_refused() {
	demo_cmd "$1"
	"${AS_USER[@]}" env DGR_LINK_FORCE=udp DEMO_HOST_OPTS="--buffers 300" "${DEMO_CMD[@]}" \
		>"$1/out" 2>&1
	echo $? >"$1/rc"
}

AS_USER=()
OWNER=""
if [ "$(id -u)" = 0 ]; then
	AS_USER=("${NOBODY[@]}")
	OWNER=65534
fi
HAVE_NETNS=0
[ "$(id -u)" = 0 ] && ip netns list >/dev/null 2>&1 && HAVE_NETNS=1
HAVE_USERNS=0
"${AS_USER[@]}" unshare --user --map-root-user --net true 2>/dev/null && HAVE_USERNS=1

T0=$SECONDS
jobs_=()
if [ "$HAVE_NETNS" = 1 ]; then
	run_netns_ctrl_c "$(case_dir netns)" 1 &
	jobs_+=($!)
fi
if [ "$HAVE_USERNS" = 1 ]; then
	run_userns "$(case_dir userns "$OWNER")" &
	jobs_+=($!)
fi
run_udp "$(case_dir udp "$OWNER")" &
jobs_+=($!)
run_failed "$(case_dir failed "$OWNER")" &
jobs_+=($!)
run_host_refused "$(case_dir host-refused "$OWNER")" &
jobs_+=($!)
for j in "${jobs_[@]}"; do
	wait "$j"
done
diag "the runs took $((SECONDS - T0)) s"

LINK_NETNS="two network namespaces joined by a veth pair, MTU 9000, raw Ethernet"
LINK_USERNS="veth pair in an unprivileged user+network namespace, MTU 9000, raw Ethernet"
LINK_UDP="UDP on 127.0.0.1 (no namespaces possible here)"
LINK_UDP_FORCED="UDP on 127.0.0.1 (DGR_LINK_FORCE=udp)"
REC_BOTH="recording the LTTng trace and the packet capture"
REC_TRACE="recording the LTTng trace only (capturing on lo needs privileges)"

if [ "$HAVE_NETNS" = 1 ]; then
	d="$WORK/netns"
	# as root the global session daemon may be another user's of the machine: reused
	check_run "netns, Ctrl-C once" "$d" "$(<"$d/rc")" "$LINK_NETNS" "$REC_BOTH" yes any
	check "netns, Ctrl-C once: it says the stream ends early" \
		grep -q '^demo: Ctrl-C: the stream ends early' "$d/out"
	# counted in samples, not on the clock: 30 s at the demo's 2 MS/s are 60e6 samples
	check "netns, Ctrl-C once: the emulator stopped before its 30 s of samples ($(jq -r .samples_produced "$d/run/fpga.json") of 60000000)" \
		test "$(jq -r '.samples_produced // 60000000' "$d/run/fpga.json")" -lt 60000000
	d=$(case_dir netns-2)
	run_netns_ctrl_c "$d" 2
	check_eq "$(<"$d/rc")" 130 "netns, Ctrl-C twice: the demo stops at once with status 130 ($(tail -n 3 "$d/out" | tr '\n' ' ' | head -c 400))"
	check_eq "$(leftovers)" "" "netns, Ctrl-C twice: no namespace, interface or process left behind"
else
	skip "netns and Ctrl-C: need root"
fi

if [ "$HAVE_USERNS" = 1 ]; then
	d="$WORK/userns"
	check_run userns "$d" "$(<"$d/rc")" "$LINK_USERNS" "$REC_BOTH" yes
	check "userns: it says it fell back" \
		grep -qxF "demo: not root: running in an unprivileged user+network namespace" "$d/out"
else
	skip "userns: user namespaces are refused here"
fi

d="$WORK/udp"
if [ "$(id -u)" = 0 ]; then
	check_eq "$(refused_userns sh -c 'unshare --user --map-root-user true 2>/dev/null; echo "unshare: $?"')" \
		"unshare: 1" "udp: where the demo ran, creating a user namespace is refused"
	check_eq "$(sysctl -n user.max_user_namespaces)" "$(<"$WORK/max_userns")" \
		"udp: the machine's user.max_user_namespaces is untouched"
	check_run udp "$d" "$(<"$d/rc")" "$LINK_UDP" "$REC_TRACE" no
else
	check_run "udp (DGR_LINK_FORCE)" "$d" "$(<"$d/rc")" "$LINK_UDP_FORCED" "$REC_TRACE" no
fi

d="$WORK/failed"
check_eq "$(<"$d/rc")" 1 "failed emulator: the demo exits 1"
check "failed emulator: it shows the emulator's message" \
	grep -qxF "dgrdma-fpga: --drop-frames: '2' is out of range 0..1" "$d/out"
check "failed emulator: it shows why the host stopped" \
	grep -qF "dgrdma-host: stalled: no DG-RDMA frame from --peer" "$d/out"
check "failed emulator: it says which ends failed, with their logs" grep -qxF \
	"demo: the run failed: the emulator exited with status 2 (log: $d/run/fpga.log); the host run exited with status 3 (log: $d/run/host.log)" \
	"$d/out"
check "failed emulator: the report on what was recorded is written" test -s "$d/run/report.txt"
check "failed emulator: the report says the stream never started" jq -e \
	'.regime.label == "unknown" and (.regime.reason | startswith("no data transaction in the capture or the trace: the stream never started"))' \
	"$d/run/report.json"
check_eq "$(leftovers)" "" "failed emulator: no namespace, interface or process left behind"

d="$WORK/host-refused"
check_eq "$(<"$d/rc")" 1 "refused host option: the demo exits 1"
check "refused host option: it says the host is not receiving" \
	grep -q '^demo: the host stack is not receiving (it exited' "$d/out"
check "refused host option: with the host's message" \
	grep -qxF "dgrdma-host: --buffers: '300' is out of range 1..255" "$d/out"
check_eq "$(grep -c '^demo: streaming' "$d/out")" 0 "refused host option: the emulator was not started"
check "refused host option: the host's log is in the run folder" test -s "$d/run/host.log"
done_testing
