#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# libdgrdma-preload's settings from the environment (DGR_PRELOAD_UDP_PORTS,
# DGR_PRELOAD_DCP_DOORBELLS): a value it cannot use is never ignored in silence.
# - dgrdma-capture --preload refuses it before it starts anything: exit 2, the variable, its
#   value and the accepted form named, COMMAND not run;
# - the library itself, loaded by other means (LD_PRELOAD by hand), says so once on standard
#   error, with the entry it skipped, and changes nothing else of what the program does;
# - good values pass both without a word.
# make check: compute only
. "$DGR_SRC/test/lib/tap.sh"
CAPTURE="$DGR_BUILD/bin/dgrdma-capture"
LIB="$DGR_BUILD/lib/libdgrdma-preload.so"
if [ ! -x "$CAPTURE" ] || [ ! -r "$LIB" ]; then
	skip "dgrdma-capture or libdgrdma-preload.so not built (make tracepoints)"
	done_testing
	exit 0
fi
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# capture VAR VALUE: dgrdma-capture --preload (nothing recorded) of a COMMAND that leaves a mark
n=0
capture() {
	n=$((n + 1))
	rm -f "$W/ran"
	env "$1=$2" "$CAPTURE" --preload --no-trace --no-pcap -o "$W/run$n" -- touch "$W/ran" \
		>"$W/out" 2>"$W/err"
	rc=$?
	ran=no
	[ -e "$W/ran" ] && ran=yes
}

# refused VAR VALUE TEXT: dgrdma-capture refuses VAR=VALUE before it runs anything, saying TEXT
refused() {
	capture "$1" "$2"
	if [ "$rc/$ran" = 2/no ] && grep -qF "$1='$2': $3" "$W/err"; then
		ok "dgrdma-capture refuses $1='$2' (exit 2, '$3' said, nothing run)"
	else
		not_ok "dgrdma-capture refuses $1='$2': exit $rc, command ran: $ran, $(head -1 "$W/err")"
	fi
}
for bad in "18079,abc:entry 2 ('abc')" "0:entry 1 ('0')" "70000:entry 1 ('70000')" \
	"18079,,1:entry 2 ('')" "80x:entry 1 ('80x')"; do
	refused DGR_PRELOAD_UDP_PORTS "${bad%%:*}" "${bad#*:} is not a port (1..65535"
done
refused DGR_PRELOAD_UDP_PORTS "$(seq -s, 1 16)" "16 ports, the library takes at most 15 besides 18078"
for bad in 0x20:0x10 abc 0x1000000 5: 09 :5; do
	refused DGR_PRELOAD_DCP_DOORBELLS "$bad" "not ADDR or LO:HI with LO <= HI <= 0xFFFFFF"
done
for good in "DGR_PRELOAD_UDP_PORTS=18079" "DGR_PRELOAD_UDP_PORTS=$(seq -s, 1 15)" \
	"DGR_PRELOAD_UDP_PORTS=18079,20000," "DGR_PRELOAD_DCP_DOORBELLS=0x100018" \
	"DGR_PRELOAD_DCP_DOORBELLS=0x100010:0x10001c" "DGR_PRELOAD_DCP_DOORBELLS=1048600"; do
	capture "${good%%=*}" "${good#*=}"
	if [ "$rc/$ran" = 0/yes ] && ! grep -q 'DGR_PRELOAD' "$W/err"; then
		ok "dgrdma-capture takes $good and runs the command"
	else
		not_ok "dgrdma-capture takes $good: exit $rc, command ran: $ran, $(grep DGR_PRELOAD "$W/err" | head -1)"
	fi
done

# the library alone: one line on stderr per bad entry, the program's output and status unchanged
lib() { # VAR VALUE: a program under the library, its stdout, stderr and status
	env "$1=$2" LD_PRELOAD="$LIB" /bin/sh -c 'echo out; exit 3' >"$W/out" 2>"$W/err"
	rc=$?
}
lib DGR_PRELOAD_UDP_PORTS "abc,20000,0"
check_eq "$rc/$(cat "$W/out")/$(cat "$W/err")" \
	"3/out/libdgrdma-preload: DGR_PRELOAD_UDP_PORTS='abc,20000,0': entry 1 is not a port (1..65535), skipped
libdgrdma-preload: DGR_PRELOAD_UDP_PORTS='abc,20000,0': entry 3 is not a port (1..65535), skipped" \
	"the library names each bad entry of DGR_PRELOAD_UDP_PORTS once; the program's output and status unchanged"
lib DGR_PRELOAD_UDP_PORTS "$(seq -s, 1 16)"
check_eq "$rc/$(cat "$W/err")" \
	"3/libdgrdma-preload: DGR_PRELOAD_UDP_PORTS='$(seq -s, 1 16)': more than 15 ports besides 18078, the rest skipped" \
	"the library says when DGR_PRELOAD_UDP_PORTS holds more ports than it takes"
lib DGR_PRELOAD_DCP_DOORBELLS "0x20:0x10"
check_eq "$rc/$(cat "$W/err")" \
	"3/libdgrdma-preload: DGR_PRELOAD_DCP_DOORBELLS='0x20:0x10': LO above HI; DCP writes to 0x100018 are the doorbells" \
	"the library says that DGR_PRELOAD_DCP_DOORBELLS LO:HI is reversed, and names the default it keeps"
lib DGR_PRELOAD_DCP_DOORBELLS "0x1000000"
check_eq "$rc/$(cat "$W/err")" \
	"3/libdgrdma-preload: DGR_PRELOAD_DCP_DOORBELLS='0x1000000': not ADDR or LO:HI (0..0xFFFFFF); DCP writes to 0x100018 are the doorbells" \
	"the library says that a DGR_PRELOAD_DCP_DOORBELLS address is out of range, and names the default it keeps"
lib DGR_PRELOAD_UDP_PORTS "18079,20000"
check_eq "$rc/$(cat "$W/out")/$(cat "$W/err")" "3/out/" "good ports: the library says nothing"
lib DGR_PRELOAD_DCP_DOORBELLS "0x100010:0x10001c"
check_eq "$rc/$(cat "$W/err")" "3/" "a good DCP doorbell range: the library says nothing"
done_testing
