# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Helpers for the dissector suites (sourced): run tshark with the plugin from
# the build folder. tshark ignores WIRESHARK_PLUGIN_DIR as root, so as root it
# runs as nobody (setpriv) on a private copy of the plugin and the captures.
# Other suites that read a capture with tshark take tshark_sys from here.

# The plugin's version folder (plugins/X.Y/epan), named as dissectors/module.mk names it.
WS_PLUGIN_VER=$(pkg-config --modversion wireshark 2>/dev/null | cut -s -d. -f1,2)

# A tshark start is most of a dissector suite's CPU, and half of that start's page faults are
# the heap its registration fills. glibc's malloc madvising its heap for transparent huge
# pages, grown 32 MB at a time so that whole 2 MB pages fit, halves them (21 600 -> 10 600)
# and takes 0.40-0.50 s of CPU a start instead of 0.55-0.75 s (basic.pcap, 15 runs, the least
# and the median; the system tshark as root, without the plugin: 0.45-0.54 s instead of
# 0.62-0.77 s, 3 runs). Without THP or with ASan's malloc, nothing changes.
# TS_HEAP: GLIBC_TUNABLES for that heap.
TS_HEAP="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1:glibc.malloc.top_pad=33554432"

# tshark_sys ARGS...: the system tshark as the suite's user (a capture read without the plugin),
# with that heap.
tshark_sys() {
	GLIBC_TUNABLES=$TS_HEAP tshark "$@"
}

# dissector_setup: creates $DT (work folder readable by nobody) with plugins/.
dissector_setup() {
	DT=$(mktemp -d "${TMPDIR:-/tmp}/dgrdma-dissector.XXXXXX") || return 1
	trap 'rm -rf "$DT"' EXIT
	chmod 755 "$DT"
	mkdir -p "$DT/plugins/$WS_PLUGIN_VER/epan" "$DT/home"
	cp "$DGR_BUILD/plugins/$WS_PLUGIN_VER/epan/dgrdma.so" "$DT/plugins/$WS_PLUGIN_VER/epan/"
	chmod -R a+rX "$DT"
	chmod 777 "$DT/home"
	# what the suite writes from here on is readable by the tshark user without a chmod each
	# (a process start: 45 of them in test_dissector_analysis.sh)
	umask 022
	if [ "$(id -u)" = 0 ]; then
		TS_PREFIX=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	else
		TS_PREFIX=()
	fi
	# In a SAN=1 build the plugin itself carries ASan+UBSan: the system tshark must load
	# their runtimes first.
	TS_ENV=()
	if [ "${SAN:-0}" = 1 ]; then
		TS_ENV=(LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
			ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
			UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1)
	fi
	TS_LEAN=("GLIBC_TUNABLES=$TS_HEAP")
	# Each start also reads 4 MB of name-resolution tables (manuf, enterprises.tsv, services,
	# wka): 50-80 ms of CPU. No suite resolves a name (the plugin prints addresses with
	# address_to_str; a suite's output is the same without them), so tshark gets its data
	# folder without them (WIRESHARK_DATA_DIR, honoured as not root).
	local ws_data f links=()
	ws_data="$(pkg-config --variable=prefix wireshark 2>/dev/null)/share/wireshark"
	if [ -f "$ws_data/manuf" ]; then
		mkdir "$DT/data"
		for f in "$ws_data"/*; do
			case ${f##*/} in
			manuf | enterprises.tsv | services | wka) ;;
			*) links+=("$f") ;;
			esac
		done
		ln -s "${links[@]}" "$DT/data/"
		TS_LEAN+=("WIRESHARK_DATA_DIR=$DT/data")
	fi
}

# ts ARGS...: tshark with the plugin, from inside $DT.
ts() {
	(cd "$DT" && "${TS_PREFIX[@]}" env "${TS_ENV[@]}" "${TS_LEAN[@]}" HOME="$DT/home" \
		WIRESHARK_PLUGIN_DIR="$DT/plugins" tshark "$@")
}

# Each tshark start with the plugin costs about half a second of CPU, so a suite reads a capture
# once for each set of options: fetch KEY FILE [TSHARK-OPTION...] -- FIELD... runs tshark over
# FILE with FETCH_OPTS (a suite's options for every run, e.g. -2), then the options, and writes
# the fields, one frame a line (frame.number first, tab-separated), to $DT/KEY.fields, their
# names to $DT/KEY.fieldnames, and what follows them (the tables of its -z taps, after a line of
# "=") to $DT/KEY.tap.
FETCH_OPTS=()
fetch() {
	local key=$1 file=$2 opts=() f args=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	shift
	for f in "$@"; do
		args+=(-e "$f")
	done
	ts "${FETCH_OPTS[@]}" -r "$file" "${opts[@]}" -T fields -e frame.number "${args[@]}" \
		>"$DT/$key.out" || return 1
	: >"$DT/$key.tap"
	awk -v tap="$DT/$key.tap" '/^====/ {t = 1} t {print >tap; next} {print}' "$DT/$key.out" \
		>"$DT/$key.fields"
	printf '%s\n' "$@" >"$DT/$key.fieldnames"
}

# publish FILE...: make files readable by the tshark user (files written before
# dissector_setup, or with modes of their own).
publish() {
	chmod a+r "$@"
}

# Relative times ("0.000031819") to integer nanoseconds, one per line; a
# comma-separated field gives one line per value.
to_ns() {
	tr ',' '\n' | awk 'NF { split($1, p, "."); f = substr(p[2] "000000000", 1, 9);
		printf "%d\n", p[1] * 1000000000 + f }'
}
