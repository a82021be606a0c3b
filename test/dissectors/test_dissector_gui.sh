#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The plugin in Wireshark's window, and the DG-RDMA profile (issue 35, docs/dissector.md
# "The DG-RDMA profile"), on a capture of dgrdma-gen (late doorbells, discontinuities,
# capture loss, malformed frames):
# - the profile's files parse and do what they say, read with tshark -C DG-RDMA: its
#   columns, its tolerable latency (-o overrides it), every colouring rule and I/O graph
#   filter compiles, each rule colours the frames its filter takes that no earlier rule
#   took, and the late doorbells, gaps, discontinuities and malformed frames it colours
#   are the generator's; the expert infos are the generator's too;
# - in `wireshark` (Qt) under Xvfb, with the profile: the main window opens the capture
#   with a DG-RDMA filter and no error dialog (a bad filter, which does raise one, shows
#   the check can fail), the Expert Information and I/O Graphs windows open with -z,
#   Statistics > DG-RDMA Doorbells opens from the menu, the dgrdma,latency tap (-z) prints
#   the generator's counts after the window's pass, and the table the window saves holds them.
# Screenshots: $DGR_BUILD/test-logs/dissectors-gui/*.png. Wireshark runs as nobody when
# root (root's Wireshark ignores WIRESHARK_PLUGIN_DIR).
# make check: slow
source "$DGR_SRC/test/lib/tap.sh"
source "$DGR_SRC/test/dissectors/lib-tshark.sh"

if ! command -v tshark >/dev/null; then
	skip "tshark not installed (make deps)"
	done_testing
	exit 0
fi
require_built "$DGR_BUILD/bin" dgrdma-gen
dissector_setup || exit 1
SHOTS="$DGR_BUILD/test-logs/dissectors-gui"
rm -rf "$SHOTS"
mkdir -p "$SHOTS"
PROFILE_SRC="$DGR_SRC/dissectors/profile/DG-RDMA"
mkdir -p "$DT/home/.config/wireshark/profiles"
cp -r "$PROFILE_SRC" "$DT/home/.config/wireshark/profiles/"
# Wireshark's window fills the screen of Xvfb (recent_common: the user's, not the profile's)
printf 'gui.geometry_main_x: 0\ngui.geometry_main_y: 0\ngui.geometry_main_width: 1400\ngui.geometry_main_height: 900\n' \
	>"$DT/home/.config/wireshark/recent_common"
chmod -R a+rwX "$DT/home"

# The capture: 400 transactions over 8 s (20 ms apart, so the I/O graph has points),
# jitter-bound latencies (some above the profile's 1 ms), every 50th transaction a
# discontinuity, a malformed frame before every 70th, every 97th frame lost.
CAP="$DT/run.pcapng"
"$DGR_BUILD/bin/dgrdma-gen" -o "$CAP" -e "$DT/run.json" --txns 400 --bytes 1024 \
	--period-ns 20000000 --profile jitter --discontinuity-every 50 --malformed-every 70 \
	--drop-every 97 || exit 1
gt() { jq -r "$1" "$DT/run.json"; }
late_1ms=$(gt '[.wire.rx.latencies_ns[] | select(. > 1000000)] | length')
late_15us=$(gt '[.wire.rx.latencies_ns[] | select(. > 15000)] | length')

# --- the profile, read by tshark (each start costs about half a second of CPU: a run reads
# what several checks need)
# per frame: number, late flag, gap, discontinuity opcode, doorbell latency; then the expert
# infos (two passes: unmatched is known only at the end), after the fields
ts -C DG-RDMA -2 -r "$CAP" -T fields -E separator='|' -e frame.number \
	-e dgrdma.analysis.doorbell_late -e dgrdma.analysis.seq_gap -e dgrdma.flag.opcode \
	-e dgrdma.transactionid -e dgrdma.analysis.doorbell_txn -e dgrdma.analysis.doorbell_buffer \
	-e dgrdma.analysis.doorbell_latency -z expert >"$DT/fields+expert" 2>>"$DT/tshark.err"
grep -E '^[0-9]+\|' "$DT/fields+expert" >"$DT/fields"
grep -vE '^[0-9]+\|' "$DT/fields+expert" >"$DT/expert.txt"
frames_with() { awk -F'|' -v c="$1" -v re="$2" '$c ~ re { print $1 }' "$DT/fields"; }
frames_with 2 . >"$DT/late"
frames_with 3 . >"$DT/gap"
frames_with 4 '(^|,)4(,|$)' >"$DT/discontinuity"
check_eq "$(wc -l <"$DT/late")" "$late_1ms" \
	"the profile's tolerable latency (1000 us): every doorbell above 1 ms is late ($late_1ms)"
check_eq "$(ts -C DG-RDMA -o dgrdma.tolerable_latency:15 -r "$CAP" -Y dgrdma.analysis.doorbell_late \
	2>>"$DT/tshark.err" | wc -l)" "$late_15us" \
	"-o dgrdma.tolerable_latency:15 overrides it: every doorbell above 15 us ($late_15us)"
# without the profile: the late flag of every frame, under a filter of every colouring rule and
# every I/O graph filter and field (or any frame): tshark names the part it cannot read
mapfile -t rules < <(grep '^@' "$PROFILE_SRC/colorfilters")
mapfile -t graphs < <(grep '^"' "$PROFILE_SRC/io_graphs")
all=""
for r in "${rules[@]}"; do
	all="${all:+$all || }($(cut -d@ -f3 <<<"$r"))"
done
for g in "${graphs[@]}"; do
	IFS=, read -r _ _ filter _ _ _ yfield _ <<<"$g"
	for f in "${filter//\"/}" "${yfield//\"/}"; do
		[ -z "$f" ] || all="$all || ($f)"
	done
done
ts -r "$CAP" -Y "($all) || frame" -T fields -e dgrdma.analysis.doorbell_late \
	>"$DT/noprofile" 2>>"$DT/tshark.err"
compiled=$?
check_eq "$(grep -c . "$DT/noprofile")" 0 \
	"without the profile (preference default 0) no doorbell is late"

# the columns: header names, and the first late doorbell's row against its fields (from the
# coloured rows of every frame, read once for the colours below too)
frame=$(head -1 "$DT/late")
ts -C DG-RDMA -r "$CAP" --color -T psml >"$DT/rows.psml" 2>>"$DT/tshark.err"
check_eq "$(sed -n '/<structure>/,/<\/structure>/s/.*<section>\(.*\)<\/section>.*/\1/p' "$DT/rows.psml" |
	paste -sd'|')" "No.|Time|Source|Destination|Protocol|Length|Txn|Answers txn|Buffer|Doorbell latency|Info" \
	"the profile's columns: transaction, the transaction a doorbell answers, buffer and doorbell latency"
row=$(awk -v n="${frame:-0}" '/<packet/ {k = 0; inpkt = 1; next}
	/<\/packet>/ {if (inpkt && sec[1] == n) {print sec[7] "|" sec[8] "|" sec[9] "|" sec[10]}; inpkt = 0; next}
	inpkt && /<section>/ {v = $0; sub(/.*<section>/, "", v); sub(/<\/section>.*/, "", v); sec[++k] = v}' \
	"$DT/rows.psml")
check_eq "$row" "$(awk -F'|' -v n="$frame" '$1 == n { print $5 "|" $6 "|" $7 "|" $8 }' "$DT/fields")" \
	"frame ${frame:-none}, a late doorbell: its row shows its transaction, the answered one, its buffer and latency"

# every colouring rule and every I/O graph filter and field compiles (the run without the
# profile above, whose filter has them all)
check_eq "$compiled" 0 \
	"every colouring rule (${#rules[@]}) and I/O graph (${#graphs[@]}) filter and field compiles"

# the colours: per frame "number background/foreground" (from the coloured rows above)
awk 'BEGIN { n = -1 }
	/<packet / { match($0, /background=.#[0-9a-f]+/); bg = substr($0, RSTART + 12, 7)
		match($0, /foreground=.#[0-9a-f]+/); fg = substr($0, RSTART + 12, 7); n = 0; next }
	/<section>/ && n == 0 { n = $0; gsub(/<[^>]*>| /, "", n); print n, bg "/" fg }' \
	"$DT/rows.psml" >"$DT/colours"
hexrgb() { # [r,g,b] in 0..65535 -> #rrggbb
	tr -d '[]' <<<"$1" | awk -F, '{ printf "#%02x%02x%02x\n", $1 / 257, $2 / 257, $3 / 257 }'
}
# coloured NAME: the frames the rule NAME coloured
coloured() {
	local r cols
	r=$(printf '%s\n' "${rules[@]}" | grep "^@$1@")
	cols=$(cut -d@ -f4 <<<"$r")
	awk -v c="$(hexrgb "${cols%%]*}]")/$(hexrgb "[${cols#*][}")" '$2 == c { print $1 }' "$DT/colours"
}
coloured 'DG-RDMA malformed' >"$DT/c_malformed"
check_eq "$(wc -l <"$DT/colours") $(wc -l <"$DT/c_malformed")" "$(gt .frames) $(gt .malformed_frames)" \
	"every frame has colours; the malformed ones are yellow on black ($(gt .malformed_frames))"
check_eq "$(coloured 'DG-RDMA late doorbell' | paste -sd,)" "$(paste -sd, "$DT/late")" \
	"the late doorbells are white on red ($late_1ms)"
check_eq "$(coloured 'DG-RDMA sequence gap' | paste -sd,)" \
	"$(sort "$DT/late" "$DT/c_malformed" "$DT/late" "$DT/c_malformed" "$DT/gap" | uniq -u | sort -n | paste -sd,)" \
	"the frames after a sequence gap, unless late or malformed, are orange ($(gt .sequence.gaps) gaps)"
check_eq "$(wc -l <"$DT/gap") $(wc -l <"$DT/discontinuity")" \
	"$(gt .sequence.gaps) $(gt .wire.rx.discontinuities)" \
	"the sequence gaps and discontinuities the rules colour are the generator's"
check_eq "$(coloured 'DG-RDMA discontinuity' | paste -sd,)" \
	"$(cat "$DT/late" "$DT/late" "$DT/c_malformed" "$DT/c_malformed" "$DT/gap" "$DT/gap" \
		"$DT/discontinuity" | sort | uniq -u | sort -n | paste -sd,)" \
	"the discontinuities, unless taken by an earlier rule, are yellow"

# the expert infos with the profile (from the two-pass run of the fields above)
expert_count() { awk -v s="$1" 'index($0, s) { n += $1 } END { print n + 0 }' "$DT/expert.txt"; }
check_eq "$(expert_count 'Late doorbell: above the tolerable latency of 1000 us') \
$(expert_count 'Frame sequence gap') $(expert_count 'Doorbell with no visible transaction') \
$(expert_count 'unmatched: frame')" \
	"$late_1ms $(gt .sequence.gaps) $(gt .wire.rx.orphan_doorbells) $(gt .wire.rx.unmatched_transactions)" \
	"expert infos: late doorbells, sequence gaps, orphan doorbells, unmatched transactions"
check_eq "$(awk '$2 == "Malformed" { n += $1 } END { print n + 0 }' "$DT/expert.txt")" \
	"$(gt .malformed_frames)" "expert infos: the malformed frames"

# the DG-RDMA and DCP trees, as the window's details pane shows them
ts -C DG-RDMA -r "$CAP" -V -Y "frame.number == ${frame:-0} || frame.number == 1" >"$DT/tree.txt" 2>>"$DT/tshark.err"
check "the DG-RDMA tree" grep -q '^OpenCPI DG-RDMA' "$DT/tree.txt"
check_eq "$(grep -cE '^ +\[(Doorbell latency|Late doorbell \(above the tolerable latency\)): ' "$DT/tree.txt")" 2 \
	"frame ${frame:-none}: its doorbell latency and the late flag in the analysis subtree"
check "the DCP tree (frame 1, the NOP request)" grep -q '^OpenCPI DWORD Control Packet' "$DT/tree.txt"
check_eq "$(cat "$DT/tshark.err")" "" "tshark said nothing on stderr"

# --- Wireshark's window
if ! command -v wireshark >/dev/null || ! command -v Xvfb >/dev/null ||
	! command -v xdotool >/dev/null || ! command -v import >/dev/null; then
	skip "wireshark, Xvfb, xdotool or ImageMagick's import not installed (make deps)"
	done_testing
	exit
fi
XVFB_PID="" WS_PID=""
# (waited for: the end of an isolated suite's PID namespace kills what is left before it
# removes its socket in /tmp/.X11-unix)
cleanup() {
	[ -z "$WS_PID" ] || kill "$WS_PID" 2>/dev/null
	if [ -n "$XVFB_PID" ]; then
		kill "$XVFB_PID" 2>/dev/null
		wait "$XVFB_PID" 2>/dev/null
	fi
	rm -rf "$DT"
}
trap cleanup EXIT
# A display number no other X server uses. Not Xvfb's own choice (-displayfd alone): in the
# PID namespace of an isolated suite the owner of another server's lock file is not
# visible, and Xvfb would take its display as stale.
for ((i = 0; i < 100; i++)); do
	dnum=$((100 + RANDOM % 30000))
	[ -e "/tmp/.X$dnum-lock" ] || [ -e "/tmp/.X11-unix/X$dnum" ] || break
done
exec {dfd}>"$DT/display"
# -noreset: an X server resets when its last client leaves and drops the connections then
# being set up, so a Wireshark connecting while one of wait_window's xdotool runs (the only
# other client) ends, or while the Wireshark before it goes, fails "could not connect to
# display" and aborts (status 134) before any window (most likely how CI lost the third one).
# Measured beside a loop of xprop runs: 26 of 400 xdpyinfo runs and 2 of 15 Wireshark starts
# failed so, none of 400 and 15 with -noreset.
Xvfb ":$dnum" -displayfd "$dfd" -noreset -screen 0 1400x900x24 -nolisten tcp >"$DT/xvfb.log" 2>&1 &
XVFB_PID=$!
exec {dfd}>&-
for ((i = 0; i < 600; i++)); do
	[ -s "$DT/display" ] && break
	kill -0 "$XVFB_PID" 2>/dev/null || break
	sleep 0.1
done
if [ ! -s "$DT/display" ]; then
	cat "$DT/xvfb.log"
	if kill -0 "$XVFB_PID" 2>/dev/null; then
		not_ok "Xvfb runs but was not ready within 60 s"
	else
		skip "the X server (Xvfb) cannot start here: no display for Wireshark"
	fi
	done_testing
	exit
fi
DISPLAY=":$(head -1 "$DT/display")"
export DISPLAY
diag "Xvfb on $DISPLAY"

# ws NAME ARGS...: starts Wireshark with the plugin; its output in $DT/NAME.out (by line: a
# tap's table is there when printed, not at the exit), WS_PID; WS_UPTIME, the kernel's clock
# then (ws_why reads the kernel's log from there)
ws() {
	local name=$1
	shift
	read -r WS_UPTIME _ </proc/uptime
	(cd "$DT" && exec "${TS_PREFIX[@]}" env "${TS_ENV[@]}" HOME="$DT/home" \
		WIRESHARK_PLUGIN_DIR="$DT/plugins" stdbuf -oL wireshark "$@") \
		>"$DT/$name.out" 2>&1 &
	WS_PID=$!
}
# ws_stop: ends the Wireshark started last
ws_stop() {
	kill "$WS_PID" 2>/dev/null
	wait "$WS_PID" 2>/dev/null
	WS_PID=""
}
# wait_window REGEX: the id of a visible window whose name matches, within 60 s
wait_window() {
	local i id
	for ((i = 0; i < 300; i++)); do
		id=$(windows | awk -v re="$1" '{ n = $0; sub(/^[0-9]+ /, "", n) } n ~ re { print $1; exit }')
		if [ -n "$id" ]; then
			echo "$id"
			return 0
		fi
		kill -0 "$WS_PID" 2>/dev/null || return 1
		sleep 0.2
	done
	return 1
}
# ws_why NAME: WS_WHY, why wait_window found no window for the Wireshark started last as NAME
# (for the failure's line, which CI shows: its log and screenshots stay on the machine that ran
# it; not in a subshell, which could not wait for Wireshark)
ws_why() {
	local rc
	if kill -0 "$WS_PID" 2>/dev/null; then
		WS_WHY="Wireshark runs, no such window within 60 s"
		return
	fi
	wait "$WS_PID"
	rc=$?
	WS_PID=""
	WS_WHY="Wireshark exited with status $rc before its window opened; its output ends: $(tail -c 400 "$DT/$1.out" | tr -s '\n' ' ')"
	# a fault (status 128 + 11, SIGSEGV, or 128 + 7, SIGBUS): the kernel logs the library it
	# happened in and the offset there ("segfault at ... in dgrdma.so[1a2b3,...]": addr2line
	# -e on the same build names the line), which says whose code it was
	if ((rc > 128)); then
		WS_WHY="$WS_WHY; kernel: $(dmesg 2>/dev/null | awk -v t="$WS_UPTIME" '
			/segfault at|general protection|traps:|bus error/ {
				s = $0; sub(/^\[ */, "", s); sub(/\].*/, "", s); if (s + 1 >= t) { print } }' |
			tail -c 600 | tr -s '\n' ' ')"
	fi
}
# windows: "id name" of every visible top-level window of a client (Qt's helper windows
# have no class)
windows() {
	local id
	for id in $(xdotool search --onlyvisible --class . 2>/dev/null); do
		echo "$id $(xdotool getwindowname "$id")"
	done
}
# stray_windows REGEX: the windows whose name does not match (an error dialog, a warning)
stray_windows() { windows | cut -d' ' -f2- | grep -vE "$1"; }
shot() { import -window root "$SHOTS/$1.png"; }

# A filter on a field that does not exist: Wireshark opens an error dialog, and the check
# of the window list finds it.
ws badfilter -r "$CAP" -Y dgrdma.no_such_field
if id=$(wait_window '^Wireshark$'); then
	shot bad-filter
	check_eq "$(stray_windows '^The Wireshark Network Analyzer$')" "Wireshark" \
		"a bad filter: its error dialog is a stray window (the check can fail)"
else
	ws_why badfilter
	not_ok "a bad filter: no error dialog ($WS_WHY)"
fi
ws_stop

# The capture with the profile, a DG-RDMA filter, a late doorbell selected, Expert Information
# and I/O Graphs.
base=$(basename "$CAP")
ws main -C DG-RDMA -r "$CAP" -Y 'dgrdma || dcp' -g "$frame" -z expert -z io,stat,1
if main=$(wait_window "^$base\$") && expert=$(wait_window "Expert Information · $base") &&
	iograph=$(wait_window "I/O Graphs · $base"); then
	ok "Wireshark opens the capture with the profile, the filter 'dgrdma || dcp', Expert Information and I/O Graphs"
	shot windows
	# no window manager here: the main window, mapped last at full size, covers the dialogs;
	# a raised one repaints when Qt gets to it (a pause for the pictures, no verdict on it)
	xdotool windowraise "$expert" sleep 2
	import -window "$expert" "$SHOTS/expert-info.png"
	xdotool windowraise "$iograph" sleep 2
	import -window "$iograph" "$SHOTS/io-graphs.png"
	check_eq "$(stray_windows "^($base|Wireshark · (Expert Information|I/O Graphs) · $base)\$")" "" \
		"no error or warning dialog: the plugin, the profile and the filter load in the window"
else
	shot open
	ws_why main
	not_ok "Wireshark did not open the capture and the -z windows ($WS_WHY; screenshot open.png)"
	windows | sed 's/^/# /'
fi
ws_stop

# The profile's window on a late doorbell, its DG-RDMA tree open, and
# Statistics > DG-RDMA Doorbells from the menu: its last entries are the plugins' stats
# trees, DG-RDMA Doorbells then F5 (Wireshark 4.0); Up from the first entry wraps to the last.
# (the third late doorbell selected: the list scrolls it to its last row, the two before it
# in red above it)
ws tree -C DG-RDMA -r "$CAP" -g "$(sed -n '3p' "$DT/late")" -z dgrdma,latency
if main=$(wait_window "^$base\$"); then
	# the DG-RDMA tree open (View > Expand Subtrees on its row, the third of the details pane
	# under the profile's 320-pixel packet list): for the screenshot only
	xdotool mousemove --window "$main" 150 455 click 1 key shift+Right
	import -window "$main" "$SHOTS/profile.png"
	xdotool windowfocus --sync "$main" key alt+s
	xdotool key Up Up Return
	if tree=$(wait_window "DG-RDMA Doorbells · $base"); then
		ok "Statistics > DG-RDMA Doorbells opens from the menu"
		# The window's pass over the capture runs every tap: the dgrdma,latency table (a
		# command-line statistic: Wireshark prints it to its output after each such pass)
		# comes with the counts once the pass is done.
		for ((i = 0; i < 600; i++)); do
			grep -q '^  transactions' "$DT/tree.out" && break
			sleep 0.1
		done
		check_eq "$(awk '/^  transactions/ { print $2, $4, $6, $8, $10; exit }' "$DT/tree.out")" \
			"$(gt '.wire.rx | "\(.transactions) \(.doorbells) \(.matched) \(.unmatched_transactions) \(.orphan_doorbells)"')" \
			"-z dgrdma,latency in Wireshark: transactions, doorbells, matched, unmatched, orphans as generated"
		xdotool windowraise "$tree" sleep 2
		import -window "$tree" "$SHOTS/doorbells-tree.png"
		# Save as... (the fourth in the focus chain from the tree): the table as plain text
		xdotool windowfocus --sync "$tree" key Tab Tab Tab Tab space
		if save=$(wait_window 'Save Statistics As'); then
			xdotool windowfocus --sync "$save" type --delay 20 "$DT/home/doorbells.txt"
			xdotool key Return
			for ((i = 0; i < 300; i++)); do
				[ -s "$DT/home/doorbells.txt" ] && break
				sleep 0.1
			done
			cp "$DT/home/doorbells.txt" "$SHOTS/" 2>/dev/null
		else
			shot save
			diag "no Save Statistics As window (screenshot save.png)"
		fi
		# "Topic / Item   Count  Average  Min  Max ...": the count after an item's name
		tree_count() {
			awk -v s="$1" '{ l = $0; sub(/^ +/, "", l) } index(l, s) == 1 {
				rest = substr(l, length(s) + 1); split(rest, f, " "); print f[1]; exit }' \
				"$DT/home/doorbells.txt" 2>/dev/null
		}
		check_eq "$(tree_count 'Transactions (complete, with a flag)') $(tree_count 'Doorbells matched, latency (ns)') \
$(tree_count 'Doorbells orphan') $(tree_count 'Transactions unmatched')" \
			"$(gt '.wire.rx | "\(.transactions) \(.matched) \(.orphan_doorbells) \(.unmatched_transactions)"')" \
			"the window's DG-RDMA Doorbells table, saved: transactions, matched, orphans, unmatched as generated"
		check_eq "$(awk '/^Doorbell latency, all connections/ { print $6, $8, $9; exit }' "$DT/home/doorbells.txt" 2>/dev/null)" \
			"$(gt '.wire.rx.latency_ns | "\(.count) \(.min) \(.max)"')" \
			"and its latency count, min and max in ns"
	else
		shot menu
		not_ok "Statistics > DG-RDMA Doorbells did not open (screenshot menu.png)"
	fi
	check_eq "$(stray_windows "^($base|Wireshark · DG-RDMA Doorbells · $base)\$")" "" \
		"no error or warning dialog"
else
	shot open-tree
	ws_why tree
	not_ok "Wireshark did not open the capture ($WS_WHY; screenshot open-tree.png)"
fi
ws_stop
cp "$DT"/*.out "$SHOTS/" 2>/dev/null
diag "screenshots: $SHOTS"
done_testing
