#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fuzz the dgrdma plugin: randomly mutated copies of every fixture (editcap -E,
# link/IP headers kept so the frames still reach the plugin), concatenated per
# fixture and dissected in full (-2 -V, both taps, every preference that
# enables a code path) by the system tshark with the ASan+UBSan build of the
# plugin (LD_PRELOAD of the sanitizer runtimes). Seeds are fixed: the run is
# repeatable. DGR_FUZZ_COPIES (default 12) copies per fixture and rate.
# make check: compute only
source "$DGR_SRC/test/lib/tap.sh"
source "$DGR_SRC/test/dissectors/lib-tshark.sh"

if ! command -v tshark >/dev/null || ! command -v editcap >/dev/null; then
	skip "tshark/editcap not installed (apt-get install tshark)"
	done_testing
	exit 0
fi
dissector_setup || exit 1
"$DGR_BUILD/test/dissectors/gen-dissector-fixtures" "$DT" || exit 1
COPIES=${DGR_FUZZ_COPIES:-12}

ASAN_PLUGIN="$DGR_BUILD/plugins-asan/$WS_PLUGIN_VER/epan/dgrdma.so"
ASAN_RT=$(gcc -print-file-name=libasan.so 2>/dev/null)
UBSAN_RT=$(gcc -print-file-name=libubsan.so 2>/dev/null)
SAN_ENV=()
if [ -f "$ASAN_PLUGIN" ] && [ -f "$ASAN_RT" ] && [ -f "$UBSAN_RT" ]; then
	cp "$ASAN_PLUGIN" "$DT/plugins/$WS_PLUGIN_VER/epan/dgrdma.so"
	chmod a+r "$DT/plugins/$WS_PLUGIN_VER/epan/dgrdma.so"
	SAN_ENV=(LD_PRELOAD="$ASAN_RT $UBSAN_RT" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1)
	publish "$DT/basic.pcap"
	# (Not "tshark -G plugins": it starts extcap helpers, which hang under LD_PRELOAD.)
	if (cd "$DT" && "${TS_PREFIX[@]}" env "${SAN_ENV[@]}" HOME="$DT/home" \
		WIRESHARK_PLUGIN_DIR="$DT/plugins" tshark -r basic.pcap -c 1 2>&1) |
		grep -q 'DG-RDMA'; then
		ok "ASan+UBSan plugin loads into the system tshark"
	else
		not_ok "ASan+UBSan plugin loads into the system tshark"
	fi
else
	diag "no ASan plugin or sanitizer runtime: fuzzing the plain build"
	skip "ASan plugin not built or libasan not found"
fi

# fuzz FIXTURE HEADER_BYTES: mutates COPIES copies at three rates, dissects them.
fuzz() {
	local fix=$1 keep=$2 rate seed files=()
	for rate in 0.01 0.05 0.3; do
		for seed in $(seq 1 "$COPIES"); do
			editcap -E "$rate" -o "$keep" --seed "$seed" "$DT/$fix" \
				"$DT/mut-$rate-$seed.pcap" >/dev/null 2>&1 || return 1
			files+=("$DT/mut-$rate-$seed.pcap")
		done
	done
	mergecap -a -F pcap -w "$DT/fuzz-$fix" "${files[@]}" || return 1
	rm -f "${files[@]}"
	publish "$DT/fuzz-$fix"
	(cd "$DT" && "${TS_PREFIX[@]}" env "${SAN_ENV[@]}" HOME="$DT/home" \
		WIRESHARK_PLUGIN_DIR="$DT/plugins" tshark -2 -V -r "fuzz-$fix" \
		-o dgrdma.buffer_memory_size:65536 -o dcp.doorbell_addresses:0x40000-0x8ffff \
		--enable-heuristic dgrdma_udp -z dgrdma,latency -z dcp,srt \
		>"$DT/fuzz.out" 2>"$DT/fuzz.err")
}

specs="basic.pcap:14 malformed.pcap:14 dcp.pcap:14 dcp-doorbell.pcap:14 udp.pcap:28
udp-other.pcap:28 padded.pcap:14 dcp-doorbell-index.pcap:14 wrap.pcap:14"
# A realistic stream too, when the analysis part's generator is built.
if [ -x "$DGR_BUILD/bin/dgrdma-gen" ]; then
	"$DGR_BUILD/bin/dgrdma-gen" --format pcap-ns --txns 12 --conns 2 --coalesce-txns 3 \
		--bytes 3000 --coalesce-doorbells 2 -o "$DT/gen.pcap" -e "$DT/gen.json" >/dev/null &&
		specs="$specs gen.pcap:14"
	"$DGR_BUILD/bin/dgrdma-gen" --format pcap-ns --txns 12 --doorbell dcp \
		-o "$DT/gen-dcp.pcap" -e "$DT/gen-dcp.json" >/dev/null && specs="$specs gen-dcp.pcap:14"
fi
for spec in $specs; do
	fix=${spec%%:*}
	keep=${spec##*:}
	fuzz "$fix" "$keep"
	rc=$?
	frames=$(grep -c '^Frame [0-9]*:' "$DT/fuzz.out")
	if [ "$rc" = 0 ] && ! grep -qE 'AddressSanitizer|runtime error|Dissector bug' \
		"$DT/fuzz.out" "$DT/fuzz.err"; then
		ok "$fix: $frames mutated frames dissected, no crash, sanitizer report or dissector bug"
	else
		not_ok "$fix: mutated copies (exit $rc)"
		grep -E 'AddressSanitizer|runtime error|Dissector bug|ERROR|#[0-9]' \
			"$DT/fuzz.out" "$DT/fuzz.err" | head -20 | sed 's/^/# /'
	fi
done

done_testing
