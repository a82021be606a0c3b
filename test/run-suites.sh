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
# Suites run DGR_JOBS at a time (default 2, the machine's cores), and up to DGR_JOBS_IDLE more
# (default 2) while the CPUs stand idle (the pool, below). Suites that only compute
# (a script with the line "# make check: compute only") start first. Every other suite
# streams, captures or traces: as root it runs isolated, in namespaces of its own (network,
# mount with a private /run/lttng, /run/netns and /dev/shm, PID), so that two suites never share a port,
# a network namespace name, a session daemon or a trace, and every process a suite leaves
# behind (a session daemon, a relayd) ends with it. Without the rights to isolate, such
# suites run one at a time after the others. A suite with the line "# make check: alone"
# runs by itself at the end (isolated when it can be): one whose checks name every task that
# disturbed it (the stall-cause scenario), where another suite's would be among them. Suites must not depend on timing luck: they run beside others.
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
jobs_max=${DGR_JOBS:-2}
[[ $jobs_max =~ ^[1-9][0-9]?$ ]] || { echo "DGR_JOBS: '$jobs_max' is out of range 1..99" >&2; exit 2; }

passed=0
cpu_user=0
cpu_sys=0
failed=0
skipped=0
failed_names=()
times=()
started_at=$(date +%s.%N)

# True when suites can run in namespaces of their own (root, and unshare allowed).
can_isolate() {
	[ "$(id -u)" = 0 ] && command -v ip >/dev/null &&
		unshare --pid --fork --mount --propagation private --net true 2>/dev/null
}

# isolated SUITE: runs SUITE in new PID, mount and network namespaces: loopback up, a private
# /run/lttng and /dev/shm (a session daemon of its own), a private /run/netns (the suite's
# `ip netns` names are its own), /proc of its own PID namespace. When
# the suite ends, the kernel ends every process it left in its PID namespace.
isolated() {
	mkdir -p /run/lttng /run/netns
	# shellcheck disable=SC2016 # the inner script's own variables
	exec unshare --pid --fork --kill-child --mount --propagation private --net -- bash -c '
		mount -t proc proc /proc &&
			mount -t tmpfs -o mode=0755 tmpfs /run/lttng &&
			mount -t tmpfs -o mode=0755 tmpfs /run/netns &&
			mount -t tmpfs -o mode=1777 tmpfs /dev/shm &&
			ip link set lo up || { echo "isolation failed"; exit 99; }
		exec "$0"' "$1"
}

# run_suite SUITE LOG ISOLATE: runs it under the timeout; writes "rc start end user sys" to
# LOG.result: user and sys are the CPU seconds of the suite's processes (bash's `times` for the
# subshell that waited on it; a process left to the end of a PID namespace is not counted)
run_suite() {
	local start end rc out
	start=$(date +%s.%N)
	out=$(
		if [ "$3" = 1 ]; then
			timeout --kill-after=10 "${DGR_SUITE_TIMEOUT:-600}" bash -c "$(declare -f isolated); isolated \"\$1\"" \
				isolated "$1" >"$2" 2>&1 {SUITE_ENDED_FD}>&-
		else
			timeout --kill-after=10 "${DGR_SUITE_TIMEOUT:-600}" "$1" >"$2" 2>&1 {SUITE_ENDED_FD}>&-
		fi
		echo "$?"
		times
	)
	rc=$(head -1 <<<"$out")
	end=$(date +%s.%N)
	# times' last line: the children's user and system time, as 1m2.345s
	echo "$rc $start $end $(tail -1 <<<"$out" | awk '{ for (i = 1; i <= 2; i++) {
		split($i, t, "m"); sub(/s$/, "", t[2]); printf "%.2f ", t[1] * 60 + t[2] } }')" >"$2.result"
	echo >&"$SUITE_ENDED_FD"
}

# suite_name SUITE: its path under the source or build folder
suite_name() {
	local name="${1#"$DGR_SRC"/}"
	echo "${name#"$DGR_BUILD"/}"
}

log_of() {
	echo "$logdir/$(suite_name "$1" | tr '/ ' '__').log"
}

# report SUITE LOG: its line (and its failures, skips), added to the totals
report() {
	local name log=$2 rc start end user sys p s f note secs
	name=$(suite_name "$1")
	read -r rc start end user sys <"$log.result"
	p=$(grep -cE '^ok [0-9]+' "$log" | head -1)
	s=$(grep -cE '^ok [0-9]+.*# *SKIP' "$log" | head -1)
	f=$(grep -cE '^not ok [0-9]+' "$log" | head -1)
	p=$((p - s))
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
	secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
	times+=("$secs $name")
	cpu_user=$(awk -v a="$cpu_user" -v b="${user:-0}" 'BEGIN { print a + b }')
	cpu_sys=$(awk -v a="$cpu_sys" -v b="${sys:-0}" 'BEGIN { print a + b }')
	printf '%-48s %4d passed %3d failed %3d skipped %7ss  cpu %s+%ss%s\n' "$name" "$p" "$f" "$s" \
		"$secs" "${user:-?}" "${sys:-?}" "$note"
	if [ "$f" -gt 0 ]; then
		failed_names+=("$name")
		grep -E '^not ok|^#' "$log" | grep -vE '^# *(ok|info)' | head -40 | sed 's/^/    /'
		echo "    (full log: $log)"
	fi
	grep -E '^ok [0-9]+.*# *SKIP' "$log" | sed 's/^/    /'
}

# kind SUITE: compute, alone or isolated (see above)
kind() {
	if [ -f "$1" ] && grep -qx '# make check: compute only' "$1" 2>/dev/null; then
		echo compute
	elif [ -f "$1" ] && grep -qx '# make check: alone' "$1" 2>/dev/null; then
		echo alone
	elif [ "$isolate" = 1 ]; then
		echo isolated
	else
		echo alone
	fi
}

# The queue: the suites marked "# make check: slow" first (the longest take over a minute:
# started last, one of them would end the run alone), then the compute suites, then the others.
isolate=0
can_isolate && isolate=1
compute=()
others=()
alone=()
for suite in "$@"; do
	# the pattern names the suite's path in the tree, not the folder the tree is in
	if [ -n "$only" ] && [[ "$(suite_name "$suite")" != *"$only"* ]]; then
		continue
	fi
	case $(kind "$suite") in
	alone) alone+=("$suite") ;;
	compute) compute+=("$suite") ;;
	*) others+=("$suite") ;;
	esac
done
later=("${compute[@]}" "${others[@]}")
queue=()
for suite in "${later[@]}"; do
	grep -qx '# make check: slow' "$suite" 2>/dev/null && queue+=("$suite")
done
for suite in "${later[@]}"; do
	grep -qx '# make check: slow' "$suite" 2>/dev/null || queue+=("$suite")
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
reap() {
	local pid
	for pid in "${!running[@]}"; do
		if ! kill -0 "$pid" 2>/dev/null; then
			wait "$pid" 2>/dev/null
			report "${running[$pid]}" "$(log_of "${running[$pid]}")"
			unset "running[$pid]"
		fi
	done
}
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
	run_suite "$1" "$(log_of "$1")" "$2" &
	running[$!]=$1
}

for suite in "${queue[@]}"; do
	pool_run "$suite" "$([ "$(kind "$suite")" = isolated ] && echo 1 || echo 0)"
done
# the tail: from the last start of the pool to the end (fewer suites than CPUs, then the alone ones)
tail_cpu=$(cpu_now)
tail_start=$(date +%s.%N)
while [ "${#running[@]}" -gt 0 ]; do
	wait -n 2>/dev/null
	reap
done
for suite in "${alone[@]}"; do
	run_suite "$suite" "$(log_of "$suite")" "$isolate"
	report "$suite" "$(log_of "$suite")"
done

if [ "${#times[@]}" -gt 0 ]; then
	echo "slowest suites ($(awk -v a="$started_at" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }') s in all, $jobs_max at a time and $idle_starts started beside them on idle CPUs$([ "$isolate" = 1 ] && echo ", isolated")):"
	printf '%s\n' "${times[@]}" | sort -rn | head -8 | awk '{ printf "  %7.1fs  %s\n", $1, $2 }'
	echo "CPU of the suites: ${cpu_user} s user + ${cpu_sys} s system"
	echo "CPU idle: $(idle_since "$run_cpu")% of the run, $(idle_since "$tail_cpu")% of its last" \
		"$(awk -v a="$tail_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }') s" \
		"(after the last suite of the pool started; the machine's, other work included)"
fi
if [ "${#failed_names[@]}" -gt 0 ]; then
	echo "failed suites: ${failed_names[*]}"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
