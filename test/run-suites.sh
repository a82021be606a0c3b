#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The one test driver of `make check`.
#
# Each suite is an executable (C test binary or script) that prints TAP lines:
#   ok N - description
#   not ok N - description
#   ok N - description # SKIP reason
# A suite that exits non-zero without a "not ok" line counts as one failure, and a
# suite that prints no result at all counts as one failure ("ran no test").
# A suite still running after DGR_SUITE_TIMEOUT seconds (default 600) is killed
# and counts as a failure, so a hang shows up with its log instead of stalling CI.
# The last line is exactly "N passed, N failed, N skipped"; the exit status is
# non-zero when anything failed.
#
# Suites run DGR_JOBS at a time (default: one more than the machine's CPUs, as many wait on paced
# streams and timers), and up to DGR_JOBS_IDLE more (default 2) while the CPUs stand idle (the
# pool, below). Suites that only compute
# (a script with the line "# make check: compute only") start first; a few of them, pure
# computation in a few long processes ("# make check: filler"), run at idle priority from the
# end of the test build on (the fillers, below). Every other suite
# streams, captures or traces: as root it runs isolated, in namespaces of its own (network,
# mount with a private /run/lttng, /run/netns and /dev/shm, PID), so that two suites never share a port,
# a network namespace name, a session daemon or a trace, and every process a suite leaves
# behind (a session daemon, a relayd) ends with it. Without the rights to isolate, such
# suites run one at a time before the others. A suite with the line "# make check: alone"
# runs first, by itself (isolated when it can be; only idle-priority work beside it: the test
# build, then the fillers): one
# whose checks name every task that disturbed it (the stall-cause scenario), where another
# suite's would be among them. Suites must not depend on timing luck: they run beside others.
# Each suite's line gives its time and its CPU (user+system); the slowest are listed at the end,
# with the CPU of all.
set -u

only=""
if [ "${1:-}" = "--only" ]; then
	only="$2"
	shift 2
fi

: "${DGR_BUILD:?DGR_BUILD must name the build folder}"
: "${DGR_SRC:?DGR_SRC must name the source folder}"
export DGR_BUILD DGR_SRC
logdir="$DGR_BUILD/test-logs"
mkdir -p "$logdir"

# A python3 on PATH that is a version manager's shim (pyenv's runs a dozen bash scripts before
# the interpreter: 0.35 s of CPU per start, against 0.03 s for the interpreter itself; a
# make check started python3 184 times on 5 December, udp.sh 78 of them before it read its
# summaries with jq) is resolved once: the interpreter it picks, linked as python3 in a folder
# put first on the suites' PATH (scripts run as `#!/usr/bin/env python3` find it there too).
# The same interpreter runs; only the shim's work is saved.
if py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) && [ -x "$py" ] &&
	[ "$py" != "$(command -v python3)" ]; then
	mkdir -p "$DGR_BUILD/test-path"
	ln -sfn "$py" "$DGR_BUILD/test-path/python3"
	export PATH="$DGR_BUILD/test-path:$PATH"
fi
jobs_max=${DGR_JOBS:-$(($(nproc 2>/dev/null || echo 1) + 1))}
[[ $jobs_max =~ ^[1-9][0-9]?$ ]] || { echo "DGR_JOBS: '$jobs_max' is out of range 1..99" >&2; exit 2; }

passed=0
cpu_user_ms=0
cpu_sys_ms=0
failed=0
skipped=0
failed_names=()
times=()
started_at=$EPOCHREALTIME

# True when suites can run in namespaces of their own (root, and unshare allowed).
can_isolate() {
	[ "$(id -u)" = 0 ] && command -v ip >/dev/null &&
		unshare --pid --fork --mount --propagation private --net true 2>/dev/null
}

# isolated: the command that runs a suite (its path follows) in new PID, mount and network
# namespaces: loopback up, a private /run/lttng and /dev/shm (a session daemon of its own), a
# private /run/netns (the suite's `ip netns` names are its own), /proc of its own PID namespace
# (--mount-proc). When the suite ends, the kernel ends every process it left in its PID
# namespace. timeout runs unshare itself: no shell between them.
# shellcheck disable=SC2016 # the inner script's own variables
isolated=(unshare --pid --fork --kill-child --mount-proc --mount --propagation private --net -- bash -c '
	mount -t tmpfs -o mode=0755 tmpfs /run/lttng &&
		mount -t tmpfs -o mode=0755 tmpfs /run/netns &&
		mount -t tmpfs -o mode=1777 tmpfs /dev/shm &&
		ip link set lo up || { echo "isolation failed"; exit 99; }
	exec "$0"')

# The driver's own bookkeeping starts no process (a fork and an exec cost 5 ms of CPU here;
# a date, tr, grep, head and awk per suite were 4,200 processes in a make check): times are
# bash's $EPOCHREALTIME, sums are integers of milliseconds, and one awk reads each suite's log.
#
# usec REALTIME: prints nothing; sets $usec_value to the microseconds of an $EPOCHREALTIME
usec() {
	usec_value=$((10#${1/[.,]/}))
}
# ms_of MmS.SSSs: sets $ms_value to the milliseconds of one of `times`' readings (1m2.345s)
ms_of() {
	local m=${1%%m*} s=${1#*m}
	s=${s%s}
	ms_value=$((m * 60000 + 10#${s%.*} * 1000 + 10#${s#*.}))
}
# dec1 N DIV: sets $dec_value to N/DIV with one decimal (N >= 0), as printf '%.1f' would round
dec1() {
	local tenths=$(((${1} * 10 + ${2} / 2) / ${2}))
	dec_value="$((tenths / 10)).$((tenths % 10))"
}

# secs2 MS: sets $secs_value to MS milliseconds as seconds with two decimals
secs2() {
	local cs=$((($1 + 5) / 10))
	printf -v secs_value '%d.%02d' $((cs / 100)) $((cs % 100))
}

# write_result LOG START RC: writes "rc start end user sys" to LOG.result: start and end in
# microseconds, user and sys the CPU milliseconds of the suite's processes (bash's `times` in the
# background subshell that ran the suite and waited on it alone; a process left to the end of a
# PID namespace is not counted); then wakes the pool
write_result() {
	local usage end
	usec "$EPOCHREALTIME"
	end=$usec_value
	usec "$2"
	times >"$1.times"
	# times' second line: the children's user and system time, as 1m2.345s 0m0.123s
	mapfile -t usage <"$1.times"
	read -r -a usage <<<"${usage[1]:-0m0.000s 0m0.000s}"
	ms_of "${usage[0]}"
	local user=$ms_value
	ms_of "${usage[1]}"
	echo "$3 $usec_value $end $user $ms_value" >"$1.result"
	rm -f "$1.times"
	echo >&"$SUITE_ENDED_FD"
}

# run_suite SUITE LOG ISOLATE: runs it under the timeout (in a background subshell of its own);
# writes LOG.result (write_result)
run_suite() {
	local start
	start=$EPOCHREALTIME
	if [ "$3" = 1 ]; then
		timeout --kill-after=10 "${DGR_SUITE_TIMEOUT:-600}" "${isolated[@]}" "$1" >"$2" 2>&1 {SUITE_ENDED_FD}>&-
	else
		timeout --kill-after=10 "${DGR_SUITE_TIMEOUT:-600}" "$1" >"$2" 2>&1 {SUITE_ENDED_FD}>&-
	fi
	write_result "$2" "$start" "$?"
}

# start_idle LOG COMMAND...: starts COMMAND in the background at idle priority (SCHED_IDLE,
# nice 19) in a session of its own, its output in LOG: its pid in $!, which is also its process
# group (promote_groups)
start_idle() {
	local log=$1
	shift
	# not a group leader (a background job of a shell without job control): setsid does not fork
	setsid nice -n 19 chrt --idle 0 "$@" >"$log" 2>&1 {SUITE_ENDED_FD}>&- &
}

# run_filler SUITE LOG: runs it at idle priority (start_idle; its process group in LOG.pgid),
# with no timeout: promote_fillers gives it its normal priority once the pool's queue is empty,
# and the pool kills it DGR_SUITE_TIMEOUT seconds after that (fillers_overdue). Writes LOG.result
# as run_suite does.
run_filler() {
	local start rc
	start=$EPOCHREALTIME
	start_idle "$2" "$1"
	echo "$!" >"$2.pgid"
	wait "$!"
	rc=$?
	[ -f "$logdir/.killed.$!" ] && rc=124
	rm -f "$2.pgid" "$logdir/.killed.$!"
	write_result "$2" "$start" "$rc"
}

# suite_name SUITE: sets $name_value to its path under the source or build folder
suite_name() {
	name_value="${1#"$DGR_SRC"/}"
	name_value="${name_value#"$DGR_BUILD"/}"
}

# log_of SUITE: sets $log_value to its log's path
log_of() {
	suite_name "$1"
	log_value="$logdir/${name_value//[\/ ]/_}.log"
}

# report SUITE LOG: its line (and its failures, skips), added to the totals
report() {
	local name log=$2 rc start end user sys p s f note lines line
	suite_name "$1"
	name=$name_value
	read -r rc start end user sys <"$log.result"
	# one pass over the log: "passed skipped failed", then the failure excerpt (F) and skips (S)
	mapfile -t lines < <(awk '
		/^ok [0-9]+/ { if (/^ok [0-9]+.*# *SKIP/) { s++; skip[++ns] = $0 } else { p++ } }
		/^not ok [0-9]+/ { f++ }
		(/^not ok/ || /^#/) && !/^# *(ok|info)/ && nf < 40 { fail[++nf] = $0 }
		END {
			print p + 0, s + 0, f + 0
			for (i = 1; i <= nf; i++) { print "F" fail[i] }
			for (i = 1; i <= ns; i++) { print "S" skip[i] }
		}' "$log")
	read -r p s f <<<"${lines[0]:-0 0 0}"
	note=""
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		f=$((f + 1))
		note=" (killed after ${DGR_SUITE_TIMEOUT:-600} s)"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		note=" (exit status $rc)"
	fi
	if [ $((p + s + f)) -eq 0 ]; then
		f=1
		note=" (ran no test)"
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
	dec1 $((end - start)) 1000000
	times+=("$dec_value $name")
	cpu_user_ms=$((cpu_user_ms + user))
	cpu_sys_ms=$((cpu_sys_ms + sys))
	secs2 "$user"
	user=$secs_value
	secs2 "$sys"
	printf '%-48s %4d passed %3d failed %3d skipped %7ss  cpu %s+%ss%s\n' "$name" "$p" "$f" "$s" \
		"${times[-1]%% *}" "$user" "$secs_value" "$note"
	if [ "$f" -gt 0 ]; then
		failed_names+=("$name")
		for line in "${lines[@]:1}"; do
			[ "${line:0:1}" = F ] && printf '    %s\n' "${line:1}"
		done
		echo "    (full log: $log)"
	fi
	for line in "${lines[@]:1}"; do
		[ "${line:0:1}" = S ] && printf '    %s\n' "${line:1}"
	done
}

# The markers of every script suite, read by one grep: marker[SUITE] holds its marker lines
isolate=0
can_isolate && isolate=1 && mkdir -p /run/lttng /run/netns
# Fillers need root: a task at idle priority can be given its normal priority back only so
fill=0
[ "${DGR_FILL:-1}" = 1 ] && [ "$(id -u)" = 0 ] && command -v chrt >/dev/null && fill=1
declare -A marker=()
scripts=()
for suite in "$@"; do
	[[ $suite == *.sh ]] && scripts+=("$suite")
done
if [ "${#scripts[@]}" -gt 0 ]; then
	while IFS= read -r line; do
		marker[${line%%:*}]+="${line#*:}"$'\n'
	done < <(grep -Hx '# make check: \(compute only\|alone\|slow\|filler\)' "${scripts[@]}" 2>/dev/null)
fi

# kind SUITE: sets $kind_value to filler, compute, alone or isolated (see above)
kind() {
	case ${marker[$1]:-} in
	*'# make check: filler'*) if [ "$fill" = 1 ]; then kind_value=filler; else kind_value=compute; fi ;;
	*'# make check: compute only'*) kind_value=compute ;;
	*'# make check: alone'*) kind_value=alone ;;
	*) if [ "$isolate" = 1 ]; then kind_value=isolated; else kind_value=alone; fi ;;
	esac
}

# The queue: the suites marked "# make check: slow" first (the longest take over a minute:
# started last, one of them would end the run alone), then the others; in each part the compute
# suites before the streaming ones.
compute=()
others=()
alone=()
filler=()
for suite in "$@"; do
	# the pattern names the suite's path in the tree, not the folder the tree is in
	suite_name "$suite"
	if [ -n "$only" ] && [[ "$name_value" != *"$only"* ]]; then
		continue
	fi
	kind "$suite"
	case $kind_value in
	alone) alone+=("$suite") ;;
	filler) filler+=("$suite") ;;
	compute) compute+=("$suite") ;;
	*) others+=("$suite") ;;
	esac
done
later=("${compute[@]}" "${others[@]}")
queue=()
for suite in "${later[@]}"; do
	[[ ${marker[$suite]:-} == *'# make check: slow'* ]] && queue+=("$suite")
done
for suite in "${later[@]}"; do
	[[ ${marker[$suite]:-} == *'# make check: slow'* ]] || queue+=("$suite")
done

# The pool: jobs_max suites at once, and up to jobs_idle more while the CPUs stand idle (a suite
# waiting on a paced stream, a timer or a child leaves its CPU so): one more starts after at
# least half a CPU stood idle for a whole second (two looks 0.5 s apart), so a suite just started
# has ramped up before the next look. On a busy machine no more start: the suites see the load
# of jobs_max at most, as before. Each suite is reported as soon as it ends.
jobs_idle=${DGR_JOBS_IDLE:-2}
[[ $jobs_idle =~ ^[0-9]$ ]] || { echo "DGR_JOBS_IDLE: '$jobs_idle' is out of range 0..9" >&2; exit 2; }
ncpu=$(nproc 2>/dev/null || echo 1)
cpu_total=0 cpu_idle=0 idle_looks=0 idle_starts=0 look_us=0
# cpus_idle: true when half a CPU or more stood idle since the last look, two looks in a row; a
# look is at least 0.45 s after the one before (the pool also wakes when a suite ends)
cpus_idle() {
	local _c user nice sys idle iow irq sirq steal _rest total idle_all dt di now_us
	now_us=${EPOCHREALTIME/[.,]/}
	[ $((now_us - look_us)) -ge 450000 ] || return 1
	look_us=$now_us
	read -r _c user nice sys idle iow irq sirq steal _rest </proc/stat || return 1
	total=$((user + nice + sys + idle + iow + irq + sirq + steal))
	idle_all=$((idle + iow))
	# the fillers' time (nice 19) is time the pool leaves idle
	[ "${#fillers[@]}" -gt 0 ] && idle_all=$((idle_all + nice))
	dt=$((total - cpu_total)) di=$((idle_all - cpu_idle))
	if [ "$cpu_total" -gt 0 ] && [ "$dt" -gt 0 ] && [ $((2 * ncpu * di)) -ge "$dt" ]; then
		idle_looks=$((idle_looks + 1))
	else
		idle_looks=0
	fi
	cpu_total=$total cpu_idle=$idle_all
	[ "$idle_looks" -ge 2 ]
}
# cpu_now: "total idle" jiffies of all CPUs so far (/proc/stat), for the idle share printed at the end
cpu_now() {
	local _c user nice sys idle iow irq sirq steal _rest
	read -r _c user nice sys idle iow irq sirq steal _rest </proc/stat || { echo "0 0"; return; }
	echo "$((user + nice + sys + idle + iow + irq + sirq + steal)) $((idle + iow))"
}
# idle_since "TOTAL IDLE": the percentage of CPU time idle since that cpu_now
idle_since() {
	local t0 i0 t1 i1
	read -r t0 i0 <<<"$1"
	read -r t1 i1 <<<"$(cpu_now)"
	awk -v dt=$((t1 - t0)) -v di=$((i1 - i0)) 'BEGIN { printf "%.0f", (dt > 0 ? 100 * di / dt : 0) }'
}
run_cpu=$(cpu_now)
# A suite that ends writes a line to this FIFO (run_suite), so that the pool starts the next one
# at once instead of at its next look: 40 suites take under half a second, and a look every 0.5 s
# left a slot empty for 0.25 s on average each time (about 12 s of the run).
ended_fifo="$logdir/.suite-ended.$$"
if mkfifo -m 600 "$ended_fifo" 2>/dev/null && exec {SUITE_ENDED_FD}<>"$ended_fifo"; then
	ended_wakes=1
else
	exec {SUITE_ENDED_FD}>/dev/null
	ended_wakes=0
fi
rm -f "$ended_fifo"
# wait_end_or_look: until a suite ends or half a second has passed
wait_end_or_look() {
	if [ "$ended_wakes" = 1 ]; then
		read -r -t 0.5 -u "$SUITE_ENDED_FD" _ || true
	else
		sleep 0.5
	fi
}
declare -A running=()
# reap: reports every suite of the pool and every filler that has ended
reap() {
	reap_ended running
	reap_ended fillers
}
# reap_ended ARRAY: reports the ended suites of ARRAY (pid -> suite) and takes them out of it
reap_ended() {
	local pid
	local -n jobs=$1
	for pid in "${!jobs[@]}"; do
		if ! kill -0 "$pid" 2>/dev/null; then
			wait "$pid" 2>/dev/null
			log_of "${jobs[$pid]}"
			report "${jobs[$pid]}" "$log_value"
			unset "jobs[$pid]"
		fi
	done
}

# The fillers: compute-only suites that are pure computation in a few long processes ("# make
# check: filler": lint, the fuzz smoke runs) start at idle priority once the test build has
# ended, beside the alone suites if they still run, and take the CPU time the other suites leave
# idle (many wait on paced streams, timers and children: a fifth of the CPU time stood idle while
# the pool ran). Not every compute suite: one that starts
# many processes slows the streaming suites beside it whatever its priority (plot_live.sh 17 ->
# 37 s beside four such fillers, 18 s beside six busy loops at idle priority; real_runs.sh's
# planned stalls then went otherwise). Once the pool's queue is empty they get their normal
# priority back (on a machine busy with other work they would never end), and their timeout
# starts then. Without root they are compute suites of the pool.
promoted_us=0 overdue_us=0
# filler_groups: the process groups of the fillers still running, in $groups
filler_groups() {
	local pid g
	groups=()
	for pid in "${!fillers[@]}"; do
		log_of "${fillers[$pid]}"
		{ read -r g <"$log_value.pgid"; } 2>/dev/null && groups+=("$g")
	done
}
# promote_fillers: the fillers back to their normal priority (promote_groups), their timeout
# counted from now
promote_fillers() {
	usec "$EPOCHREALTIME"
	promoted_us=$usec_value
	filler_groups
	promote_groups ${groups[@]+"${groups[@]}"}
}
# promote_groups PGID...: every process and thread of these process groups back to SCHED_OTHER
# at nice 0 (twice: a process forked meanwhile by one not yet promoted is caught the second time)
promote_groups() {
	local g p tids
	for _ in 1 2; do
		for g in "$@"; do
			for p in $(pgrep -g "$g"); do
				chrt -o -a -p 0 "$p" 2>/dev/null
				tids=("/proc/$p/task/"*)
				renice -n 0 -p "${tids[@]##*/}" >/dev/null 2>&1
			done
		done
	done
}
# fillers_overdue: a filler still running DGR_SUITE_TIMEOUT seconds after its promotion is
# ended as timeout ends a suite (TERM, KILL 10 s later) and reported as killed
fillers_overdue() {
	local g sig=TERM
	[ "$promoted_us" -gt 0 ] && [ "${#fillers[@]}" -gt 0 ] || return 0
	usec "$EPOCHREALTIME"
	[ $((usec_value - promoted_us)) -ge $((${DGR_SUITE_TIMEOUT:-600} * 1000000)) ] || return 0
	if [ "$overdue_us" -eq 0 ]; then
		overdue_us=$usec_value
	elif [ $((usec_value - overdue_us)) -ge 10000000 ]; then
		sig=KILL
	else
		return 0
	fi
	filler_groups
	for g in ${groups[@]+"${groups[@]}"}; do
		: >"$logdir/.killed.$g"
		kill -"$sig" -- "-$g" 2>/dev/null
	done
}
# on the driver's own end (an interrupt), no filler or test build is left behind
kill_fillers() {
	local g
	[ -n "$build_pid" ] && kill -KILL -- "-$build_pid" 2>/dev/null
	[ "${#fillers[@]}" -gt 0 ] || return 0
	filler_groups
	for g in ${groups[@]+"${groups[@]}"}; do
		kill -KILL -- "-$g" 2>/dev/null
	done
}
declare -A fillers=()
build_pid=""
trap kill_fillers EXIT
pool_run() { # SUITE ISOLATE
	while [ "${#running[@]}" -ge "$jobs_max" ]; do
		if [ "${#running[@]}" -lt $((jobs_max + jobs_idle)) ] && cpus_idle; then
			idle_looks=0
			idle_starts=$((idle_starts + 1))
			break
		fi
		wait_end_or_look
		reap
	done
	log_of "$1"
	run_suite "$1" "$log_value" "$2" &
	running[$!]=$1
}

# The test build (DGR_TEST_BUILD: make check's make of the test programs, which the alone suites
# do not need) and the alone suites first. As root the build runs beside them at idle priority
# (SCHED_IDLE, nice 19, a session of its own) and takes the CPU time they leave idle, two thirds
# of the machine's: they pace streams and wait on their disturbances. A SCHED_IDLE task gives its
# CPU up at once to any other that wakes, and no compiler runs at real-time priority, so no stall
# these suites must attribute is the build's. Run last, after the build, they left some 70 s of
# CPU time idle (55 s at 65% idle on 2 CPUs), and the build took 37-44 s before any suite started.
# Without root, or without alone suites, the build runs first, on its own.
test_build=${DGR_TEST_BUILD:-}
if [ -n "$test_build" ] && [ "$fill" = 1 ] && [ "${#alone[@]}" -gt 0 ]; then
	echo "test build: beside the alone suites at idle priority, its output in $logdir/test-build.log"
	start_idle "$logdir/test-build.log" bash -c "$test_build"
	build_pid=$!
elif [ -n "$test_build" ]; then
	bash -c "$test_build" {SUITE_ENDED_FD}>&- || { echo "test build failed: $test_build" >&2; exit 2; }
fi
# The fillers start once the test build has ended (fuzz_smoke.sh runs the harnesses it builds),
# beside the alone suites if they still run: what the build leaves of their idle CPU time is theirs.
start_fillers() {
	local suite
	for suite in ${filler[@]+"${filler[@]}"}; do
		log_of "$suite"
		run_filler "$suite" "$log_value" &
		fillers[$!]=$suite
	done
}
# build_ended: the test build's status in $build_rc, then the fillers if it built
build_rc=0
build_ended() {
	wait "$build_pid"
	build_rc=$?
	build_pid=""
	[ "$build_rc" = 0 ] && start_fillers
}
[ -z "$build_pid" ] && start_fillers
for suite in ${alone[@]+"${alone[@]}"}; do
	log_of "$suite"
	alone_log=$log_value
	# in a subshell of its own, as in the pool: `times` counts only this suite
	run_suite "$suite" "$alone_log" "$isolate" &
	alone_pid=$!
	while kill -0 "$alone_pid" 2>/dev/null; do
		wait_end_or_look
		[ -n "$build_pid" ] && ! kill -0 "$build_pid" 2>/dev/null && build_ended
	done
	wait "$alone_pid"
	report "$suite" "$alone_log"
done
# the pool needs the test build: it gets its normal priority back if it is still running, and a
# failed build ends make check
if [ -n "$build_pid" ]; then
	promote_groups "$build_pid"
	build_ended
fi
if [ "$build_rc" != 0 ]; then
	tail -40 "$logdir/test-build.log"
	echo "test build failed (exit $build_rc): $test_build" >&2
	echo "the whole output: $logdir/test-build.log" >&2
	exit 2
fi
for suite in "${queue[@]}"; do
	kind "$suite"
	if [ "$kind_value" = isolated ]; then pool_run "$suite" 1; else pool_run "$suite" 0; fi
done
# the tail: from the last start of the pool to the end (fewer suites than CPUs, the fillers at
# their normal priority)
tail_cpu=$(cpu_now)
tail_start=$EPOCHREALTIME
[ "${#fillers[@]}" -gt 0 ] && promote_fillers
while [ $((${#running[@]} + ${#fillers[@]})) -gt 0 ]; do
	wait_end_or_look
	reap
	fillers_overdue
done
if [ "${#times[@]}" -gt 0 ]; then
	echo "slowest suites ($(awk -v a="$started_at" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }') s in all, $jobs_max at a time and $idle_starts started beside them on idle CPUs$([ "${#filler[@]}" -gt 0 ] && echo ", ${#filler[@]} fillers at idle priority")$([ "$isolate" = 1 ] && echo ", isolated")):"
	printf '%s\n' "${times[@]}" | sort -rn | head -8 | awk '{ printf "  %7.1fs  %s\n", $1, $2 }'
	secs2 "$cpu_user_ms"
	cpu_user=$secs_value
	secs2 "$cpu_sys_ms"
	echo "CPU of the suites: $cpu_user s user + $secs_value s system"
	echo "CPU idle: $(idle_since "$run_cpu")% of the run, $(idle_since "$tail_cpu")% of its last" \
		"$(awk -v a="$tail_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }') s" \
		"(after the last suite of the pool started; the machine's, other work included)"
fi
if [ "${#failed_names[@]}" -gt 0 ]; then
	echo "failed suites: ${failed_names[*]}"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
