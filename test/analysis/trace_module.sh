#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The trace reader's module (analysis/input/trace_module.h): latency-report loads
# libbabeltrace2 (through lib/dgrdma-tools/dgrdma-trace.so) only when it reads a trace; a run on
# a capture, or on a run folder without a trace, never does; a module missing or broken is
# one line naming the file and the fix, and the exit code of an unreadable trace (2).
set -u
. "$DGR_SRC/test/lib/tap.sh"
LR="$DGR_BUILD/bin/latency-report"
GEN="$DGR_BUILD/bin/dgrdma-gen"
TRACE="$DGR_SRC/test/analysis/fixtures/trace-doorbell-sent-6-fields/trace"
tmp=$(mktemp -d "$DGR_BUILD/analysis-module.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# A run of latency-report ARGS...: its exit code and what the dynamic loader opened (LD_DEBUG),
# "rc=N pcap=0|1 reader=0|1 bt=0|1 glib=0|1" (glib: any of glib, gmodule, pcre2, which
# libbabeltrace2 needs; pcap=1 shows the loader's log was read)
loaded() {
	local libs rc

	LD_DEBUG=files LD_DEBUG_OUTPUT="$tmp/ld" "$LR" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	libs=$(sed -n 's/^[[:space:]]*[0-9]*:[[:space:]]*file=\([^ ]*\) .*/\1/p' "$tmp"/ld.* | sort -u)
	rm -f "$tmp"/ld.*
	echo "rc=$rc pcap=$(grep -c '^libpcap\.so' <<<"$libs") reader=$(grep -c \
		"^$DGR_BUILD/lib/dgrdma-tools/dgrdma-trace\.so$" <<<"$libs") bt=$(grep -c \
		'^libbabeltrace2\.so' <<<"$libs") glib=$(grep -qE '^lib(glib|gmodule|pcre2)' <<<"$libs" && echo 1 || echo 0)"
}

"$GEN" -o "$tmp/cap.pcapng" -e "$tmp/cap.json" --txns 1 --buffers 16 --profile healthy >/dev/null
check_eq "$(loaded --no-progress "$tmp/cap.pcapng")" "rc=0 pcap=1 reader=0 bt=0 glib=0" \
	"a capture's run loads neither the trace reader nor libbabeltrace2, glib, gmodule, pcre2"

mkdir -p "$tmp/run"
cp "$tmp/cap.pcapng" "$tmp/run/capture.pcapng"
check_eq "$(loaded --no-progress "$tmp/run")" "rc=0 pcap=1 reader=0 bt=0 glib=0" \
	"nor does a run folder without a trace (its trace/ looked for, not read)"

check_eq "$(loaded --json --no-progress "$TRACE")" "rc=0 pcap=1 reader=1 bt=1 glib=1" \
	"a trace's run loads the trace reader beside bin/ and libbabeltrace2 with it"
check_eq "$(jq -c '[.host.events, .host.rx.doorbells]' "$tmp/out")" "[25,1]" "and reads the trace"

mkdir -p "$tmp/kernel"
check_eq "$(loaded --no-progress --kernel-trace "$tmp/kernel" "$tmp/cap.pcapng") $(grep -c \
	'no CTF metadata file in it' "$tmp/err")" "rc=2 pcap=1 reader=0 bt=0 glib=0 1" \
	"a --kernel-trace folder without metadata is refused before the reader is loaded"

# a copy of latency-report without the module beside it, then with a broken one
mkdir -p "$tmp/alone/bin"
cp "$LR" "$tmp/alone/bin/"
"$tmp/alone/bin/latency-report" --no-progress "$tmp/cap.pcapng" >/dev/null 2>"$tmp/err"
check_eq "$?" 0 "without the module, a capture is read as ever"
"$tmp/alone/bin/latency-report" --no-progress "$TRACE" >/dev/null 2>"$tmp/err"
check_eq "$?:$(cat "$tmp/err")" "2:latency-report: the trace reader cannot be loaded: \
$tmp/alone/lib/dgrdma-tools/dgrdma-trace.so: cannot open shared object file: No such file or \
directory (make, or make install, puts it there)" "and a trace is refused naming the file and the fix, exit 2"
mkdir -p "$tmp/alone/lib/dgrdma-tools"
# an interrupted copy: dlopen alone would map it and die of SIGBUS
head -c 8192 "$DGR_BUILD/lib/dgrdma-tools/dgrdma-trace.so" >"$tmp/alone/lib/dgrdma-tools/dgrdma-trace.so"
"$tmp/alone/bin/latency-report" --no-progress "$TRACE" >/dev/null 2>"$tmp/err"
check_eq "$?:$(cat "$tmp/err")" "2:latency-report: the trace reader \
$tmp/alone/lib/dgrdma-tools/dgrdma-trace.so is cut short (8192 bytes): install it again (make install)" \
	"a module cut short: refused, naming it, no crash"
echo junk >"$tmp/alone/lib/dgrdma-tools/dgrdma-trace.so"
"$tmp/alone/bin/latency-report" --no-progress "$TRACE" >/dev/null 2>"$tmp/err"
check_eq "$?:$(cat "$tmp/err")" "2:latency-report: the trace reader cannot be loaded: \
$tmp/alone/lib/dgrdma-tools/dgrdma-trace.so: file too short (make, or make install, puts it there)" \
	"a file that is no shared object: the same"
# a shared object that is not this build's module: libz, say
cp "$(ldd "$LR" | awk '/libz\.so/ { print $3 }')" "$tmp/alone/lib/dgrdma-tools/dgrdma-trace.so"
"$tmp/alone/bin/latency-report" --no-progress "$TRACE" >/dev/null 2>"$tmp/err"
check_eq "$?:$(cat "$tmp/err")" \
	"2:latency-report: $tmp/alone/lib/dgrdma-tools/dgrdma-trace.so is not the trace reader of this build ($("$LR" --version | awk '{ print $3 }')): install again (make install)" \
	"another shared object in its place is refused, by its missing entry table"

done_testing
