#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fuzz the dgrdma plugin: randomly mutated copies of every fixture (editcap -E,
# link/IP headers kept so the frames still reach the plugin), dissected in full
# (-2 -V, both taps, every preference that enables a code path) by the system
# tshark with the ASan+UBSan build of the plugin (LD_PRELOAD of the sanitizer
# runtimes). Seeds are fixed: the run is repeatable. DGR_FUZZ_COPIES (default 12)
# copies per fixture and rate: the copies of a fixture are put one after the other
# and mutated by one editcap run a rate (its random stream goes on from copy to
# copy, so each copy is mutated differently). Each tshark start costs about a
# second of CPU with the sanitizers, so every fixture's copies are dissected in one
# run, one fixture after the other; a fixture passes when each of its frames was
# dissected with no sanitizer report and no dissector bug. When that run fails,
# each fixture's copies are dissected again alone, so that the failure is named by
# fixture.
# make check: compute only
source "$DGR_SRC/test/lib/tap.sh"
source "$DGR_SRC/test/dissectors/lib-tshark.sh"

for t in tshark editcap mergecap capinfos; do
	if ! command -v "$t" >/dev/null; then
		skip "$t not installed (apt-get install tshark)"
		done_testing
		exit 0
	fi
done
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
else
	diag "no ASan plugin or sanitizer runtime: fuzzing the plain build"
fi

# dissect CAPTURE: the fuzzing run over CAPTURE (in $DT): -V in $DT/fuzz.out, stderr in
# $DT/fuzz.err; its exit status.
dissect() {
	(cd "$DT" && "${TS_PREFIX[@]}" env "${SAN_ENV[@]}" HOME="$DT/home" \
		WIRESHARK_PLUGIN_DIR="$DT/plugins" tshark -2 -V -r "$1" \
		-o dgrdma.buffer_memory_size:65536 -o dcp.doorbell_addresses:0x40000-0x8ffff \
		--enable-heuristic dgrdma_udp -z dgrdma,latency -z dcp,srt \
		>"$DT/fuzz.out" 2>"$DT/fuzz.err")
}

# mutate FIXTURE HEADER_BYTES: COPIES copies at each of three rates, in $DT/fuzz-FIXTURE.
mutate() {
	local fix=$1 keep=$2 rate i copies=() files=()
	for ((i = 0; i < COPIES; i++)); do
		copies+=("$DT/$fix")
	done
	mergecap -a -F pcap -w "$DT/copies-$fix" "${copies[@]}" || return 1
	for rate in 0.01 0.05 0.3; do
		editcap -E "$rate" -o "$keep" --seed 1 "$DT/copies-$fix" "$DT/mut-$rate-$fix" \
			>/dev/null 2>&1 || return 1
		files+=("$DT/mut-$rate-$fix")
	done
	mergecap -a -F pcap -w "$DT/fuzz-$fix" "${files[@]}" || return 1
	rm -f "$DT/copies-$fix" "${files[@]}"
}

# failed_lines FILE...: the lines that tell of a sanitizer report or a dissector bug
failed_lines() {
	grep -E 'AddressSanitizer|runtime error|Dissector bug' "$@"
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
fixtures=() mutated=()
for spec in $specs; do
	fix=${spec%%:*}
	if mutate "$fix" "${spec##*:}"; then
		mutated+=("$DT/fuzz-$fix")
	else
		diag "$fix: editcap or mergecap failed"
	fi
	fixtures+=("$fix")
done

# every fixture's copies, one after the other, in one run; FIRST[fix] LAST[fix]: its frames
declare -A FIRST=() LAST=()
n=0
while IFS=$'\t' read -r file count; do
	fix=${file##*/fuzz-}
	FIRST[$fix]=$((n + 1))
	n=$((n + count))
	LAST[$fix]=$n
done < <(capinfos -T -r -c "${mutated[@]}")
mergecap -a -F pcapng -w "$DT/fuzz-all.pcapng" "${mutated[@]}"
dissect fuzz-all.pcapng
rc=$?
all_ok=0
[ "$rc" = 0 ] && ! failed_lines "$DT/fuzz.out" "$DT/fuzz.err" >/dev/null && all_ok=1
# the frame numbers dissected, one a line
sed -n 's/^Frame \([0-9]*\):.*/\1/p' "$DT/fuzz.out" >"$DT/frames"

if [ ${#SAN_ENV[@]} -gt 0 ]; then
	# (Not "tshark -G plugins": it starts extcap helpers, which hang under LD_PRELOAD.)
	if grep -q 'DG-RDMA' "$DT/fuzz.out" || { (cd "$DT" &&
		"${TS_PREFIX[@]}" env "${SAN_ENV[@]}" HOME="$DT/home" WIRESHARK_PLUGIN_DIR="$DT/plugins" \
			tshark -r basic.pcap -c 1 2>&1) | grep -q 'DG-RDMA'; }; then
		ok "ASan+UBSan plugin loads into the system tshark"
	else
		not_ok "ASan+UBSan plugin loads into the system tshark"
	fi
else
	skip "ASan plugin not built or libasan not found"
fi

for fix in "${fixtures[@]}"; do
	if [ -z "${FIRST[$fix]:-}" ]; then
		not_ok "$fix: mutated copies (editcap or mergecap failed)"
		continue
	fi
	if [ "$all_ok" = 1 ]; then
		frames=$(awk -v a="${FIRST[$fix]}" -v b="${LAST[$fix]}" '$1 >= a && $1 <= b' "$DT/frames" |
			grep -c .)
		check_eq "$frames" "$((LAST[$fix] - FIRST[$fix] + 1))" \
			"$fix: $frames mutated frames dissected, no crash, sanitizer report or dissector bug"
		continue
	fi
	# the run of all failed: this fixture's copies alone
	dissect "fuzz-$fix"
	rc=$?
	frames=$(grep -c '^Frame [0-9]*:' "$DT/fuzz.out")
	if [ "$rc" = 0 ] && ! failed_lines "$DT/fuzz.out" "$DT/fuzz.err" >/dev/null; then
		ok "$fix: $frames mutated frames dissected, no crash, sanitizer report or dissector bug"
	else
		not_ok "$fix: mutated copies (exit $rc)"
		grep -E 'AddressSanitizer|runtime error|Dissector bug|ERROR|#[0-9]' \
			"$DT/fuzz.out" "$DT/fuzz.err" | head -20 | sed 's/^/# /'
	fi
done

done_testing
