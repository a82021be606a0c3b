#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-plot --live on real runs recorded live (dgrdma-capture --live around dgrdma-host rx fed
# by dgrdma-fpga over UDP on loopback, as live.sh): the image is replaced during the run, every
# copy a viewer reads is a whole image, the final plot holds every interval latency-report
# printed, and the exit status is latency-report's; Ctrl-C (SIGINT) ends it with the final
# plot; bad options and a session that cannot be followed (exit 2).
# make check: slow
set -u
. "$DGR_SRC/test/lib/tap.sh"
. "$DGR_SRC/test/tracepoints/lttng-env.sh"
tp_isolate "$@" || { not_ok "private lttng run folder"; done_testing; exit 1; }

PLOT=$DGR_BUILD/bin/dgrdma-plot
LR=$DGR_BUILD/bin/latency-report
CAPTURE=$DGR_BUILD/bin/dgrdma-capture
DHOST=$DGR_BUILD/bin/dgrdma-host
DFPGA=$DGR_BUILD/bin/dgrdma-fpga
WORK=$(mktemp -d "$DGR_BUILD/analysis-plot-live.XXXXXX")
PORT_F=$((36000 + $$ % 2000 * 2))
PORT_H=$((PORT_F + 1))
CAP_PID=""
PLOT_PID=""
cleanup() {
	[ -n "$PLOT_PID" ] && kill -TERM "$PLOT_PID" 2>/dev/null && wait "$PLOT_PID"
	[ -n "$CAP_PID" ] && kill -TERM "$CAP_PID" 2>/dev/null && wait "$CAP_PID"
	tp_lttng_teardown
	[ -n "${KEEP:-}" ] || rm -rf "$WORK"
}
trap cleanup EXIT

# bad DESCRIPTION WANTED COMMAND...: a clear error, exit 2, within 30 s.
bad() {
	local desc=$1 want=$2
	shift 2
	timeout 30 "$@" >/dev/null 2>"$WORK/bad.err"
	local st=$?
	if [ "$st" = 2 ] && grep -q -- "$want" "$WORK/bad.err"; then
		ok "$desc: exit 2, '$want'"
	else
		not_ok "$desc: exit 2, '$want' (got $st: $(head -c 300 "$WORK/bad.err"))"
	fi
}

# ---- options: checked before anything runs --------------------------------------------------------
bad "--live-interval 0" "--live-interval: '0' is out of range 0.1..3600" "$PLOT" --live --live-interval 0 net://a/host/h/s
bad "--live-interval 3601" "--live-interval: '3601' is out of range 0.1..3600" "$PLOT" --live --live-interval=3601 net://a/host/h/s
bad "--live-interval not a number" "--live-interval: 'soon' is not a number (accepted: 0.1..3600)" "$PLOT" --live --live-interval soon net://a/host/h/s
bad "--live takes no value" "--live takes no value" "$PLOT" --live=1 net://a/host/h/s
bad "--live without a URL" "--live: no URL given" "$PLOT" --live
bad "--live with nine URLs" "--live follows 1..8 sessions (got 9 URLs)" "$PLOT" --live \
	net://a/host/h/s1 net://a/host/h/s2 net://a/host/h/s3 net://a/host/h/s4 net://a/host/h/s5 \
	net://a/host/h/s6 net://a/host/h/s7 net://a/host/h/s8 net://a/host/h/s9
bad "--live-if once for two URLs" "--live-if: give one interface per URL, in the same order (got 1 for 2 URLs)" "$PLOT" --live --live-if lo net://a/host/h/s net://a/host/h/t
bad "--live-follow once for two URLs" "--live-follow: give one capture per URL, in the same order (got 1 for 2 URLs)" "$PLOT" --live --live-follow x net://a/host/h/s net://a/host/h/t
bad "--live-follow and --live-if" "two sources of the same wire" "$PLOT" --live --live-if lo --live-follow x net://a/host/h/s
bad "--live-interval without --live" "--live-interval, --live-if and --live-follow go with --live" "$PLOT" --live-interval 1 x
bad "--live-follow without --live" "--live-interval, --live-if and --live-follow go with --live" "$PLOT" --live-follow x y
bad "--kind with --live" "--kind goes without --live" "$PLOT" --live --kind latency net://a/host/h/s
bad "--interval with --live" "--interval goes without --live" "$PLOT" --live --interval 5 net://a/host/h/s
mkdir -p "$WORK/csv-folder" && : >"$WORK/csv-folder/doorbells.csv"
bad "a CSV folder and another INPUT" "$WORK/csv-folder: a folder of latency-report's CSVs is the only INPUT (got 2)" \
	"$PLOT" "$WORK/csv-folder" b
check "usage names --live, --live-interval, --live-if and --live-follow" \
	sh -c "'$PLOT' --help | grep -q -- '--live-interval S' && '$PLOT' --help | grep -q -- '--live-if IFACE' && '$PLOT' --help | grep -q -- '--live-follow FILE' && '$PLOT' --help | grep -q -- '--live   '"

if ! command -v gnuplot >/dev/null || ! command -v jq >/dev/null; then
	skip "gnuplot or jq not installed (make deps)"
	done_testing
	exit 0
fi
# several INPUTs: each must exist, the one missing is named (the first exists here)
bad "a missing second INPUT" "$WORK/no-such.pcap: no such file or folder" \
	"$PLOT" -o "$WORK/two" "$WORK/csv-folder/doorbells.csv" "$WORK/no-such.pcap"
# a session that cannot be followed: latency-report's status 2, no image
timeout 60 "$PLOT" --live -o "$WORK/none" net://127.0.0.1:1/host/h/s >/dev/null 2>"$WORK/none.err"
check_eq "$? $(grep -c 'cannot reach the relay daemon' "$WORK/none.err") $(find "$WORK/none" -type f | wc -l)" \
	"2 1 0" "an unreachable relayd: latency-report's message and exit status 2, no image"

# svg_points FILE: the points of each series of a gnuplot SVG (its gnuplot_plot_N groups), in order
svg_points() {
	python3 -c 'import sys, xml.etree.ElementTree as E
ns = "{http://www.w3.org/2000/svg}"
seen = {}
for g in E.parse(sys.argv[1]).getroot().iter(ns + "g"):
    i = g.get("id") or ""
    if i.startswith("gnuplot_plot_") and i not in seen:
        seen[i] = sum(1 for u in g.iter(ns + "use"))
print(" ".join(str(seen[k]) for k in sorted(seen)))' "$1"
}

# Ctrl-C while an interval is being redrawn: the terminal sends it to the whole process group, so
# the gnuplot of that redraw may die of it. That redraw is given up, not the view: latency-report
# (here a stand-in that prints 3 intervals, then its final report at SIGINT) ends
# with its final report, the final plot holds every interval, and the status is latency-report's.
mkdir -p "$WORK/fake/bin"
cat >"$WORK/fake/latency-report" <<'PY'
#!/usr/bin/python3
import json, signal
stop = False
def on_stop(sig, frame):
    global stop
    stop = True
signal.signal(signal.SIGINT, on_stop)
for n in (1, 2, 3):
    print(json.dumps({"kind": "interval", "elapsed_s": n, "host_rx": {"interval":
        {"count": 4, "p50": 1000 * n, "p99": 2000 * n, "max": 3000 * n}}, "regime": {"summary": "ok"}}), flush=True)
while not stop:
    signal.pause()
print('{"kind": "final"}', flush=True)
PY
# the third redraw's gnuplot: Ctrl-C reaches dgrdma-plot (its parent) and kills it (status 130)
cat >"$WORK/fake/bin/gnuplot" <<SH
#!/bin/bash
echo x >>"$WORK/fake/calls"
if [ "\$(wc -l <"$WORK/fake/calls")" = 3 ]; then
	kill -INT "\$PPID"
	exit 130
fi
exec "$(command -v gnuplot)" "\$@"
SH
chmod +x "$WORK/fake/latency-report" "$WORK/fake/bin/gnuplot"
PATH="$WORK/fake/bin:$PATH" timeout 60 "$PLOT" --live --format svg --latency-report "$WORK/fake/latency-report" \
	-o "$WORK/fake/plots" net://127.0.0.1/host/h/s >/dev/null 2>"$WORK/fake.err"
st=$?
points=$(svg_points "$WORK/fake/plots/latency-live.svg" 2>/dev/null)
check_eq "$st $(find "$WORK/fake/plots" -type f -printf '%f\n')" "0 latency-live.svg" \
	"Ctrl-C during a redraw: latency-report's status 0, the final image alone ($(head -c 200 "$WORK/fake.err"))"
check_eq "$points" "3 3 3" "Ctrl-C during a redraw: the final plot's series (p50, p99, max) hold the 3 intervals printed"

. "$DGR_SRC/test/lib/live_run.sh"
if ! live_ready; then
	skip "$LIVE_WHY"
	done_testing
	exit 0
fi

FPGA_ADDR=127.0.0.1:$PORT_F

# whole_png FILE: a PNG signature, an IHDR of 1200 x 700 and the IEND chunk last (two xxd, the
# first 24 bytes and the last 12, cut in bash: seven processes per copy before)
whole_png() {
	local head
	head=$(xxd -p -l 24 "$1") &&
		[ "${head:0:16}" = "89504e470d0a1a0a" ] &&
		[ "${head:32:16}" = "000004b0000002bc" ] &&
		[ "$(xxd -p -s -12 "$1" 2>/dev/null)" = "0000000049454e44ae426082" ]
}
# whole_svg FILE: well-formed XML whose root is <svg>
whole_svg() {
	python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
sys.exit(0 if r.tag.endswith("svg") else 1)' "$1"
}

# watch FILE CHECK PID: while PID runs, copies FILE every 50 ms as a viewer would read it;
# prints "versions copies broken": the distinct files seen (inodes: each redraw is renamed over
# the last), the copies read and how many of them CHECK refused
watch() {
	local file=$1 check=$2 pid=$3 ino last="" versions=0 copies=0 broken=0
	while kill -0 "$pid" 2>/dev/null; do
		if ino=$(stat -c %i "$file" 2>/dev/null) && cp "$file" "$WORK/copy" 2>/dev/null; then
			copies=$((copies + 1))
			"$check" "$WORK/copy" || broken=$((broken + 1))
			[ "$ino" = "$last" ] || versions=$((versions + 1))
			last=$ino
		fi
		nap 0.05
	done
	echo "$versions $copies $broken"
}

# ---- PNG, followed to the end of the session, given the run folder -------------------------------
if start_run png; then
	timeout 120 "$PLOT" --live --format png --live-interval 0.5 --tolerable-us 5000 \
		-o "$WORK/png-plots" "$WORK/png" >"$WORK/png.out" 2>"$WORK/png.err" &
	PLOT_PID=$!
	stream png 4 &
	spid=$!
	seen=$(watch "$WORK/png-plots/latency-live.png" whole_png "$PLOT_PID")
	wait "$PLOT_PID"
	check_eq "$?" 0 "--live RUN-FOLDER: latency-report's exit status 0 when the session ends and its run.json says the run is whole ($(head -c 300 "$WORK/png.err"))"
	PLOT_PID=""
	wait "$spid"
	wait "$CAP_PID"
	CAP_PID=""
	read -r versions copies broken <<<"$seen"
	diag "during the run: $versions versions of the image in $copies copies"
	if [ "$versions" -ge 3 ]; then
		ok "the PNG was replaced during the run ($versions versions seen)"
	else
		not_ok "the PNG was replaced during the run ($versions versions seen)"
	fi
	check_eq "$broken" 0 "every copy read during the run is a whole 1200x700 PNG ($copies copies)"
	F=$WORK/png-plots/latency-live.png
	if [ -f "$F" ] && whole_png "$F"; then
		ok "the final latency-live.png is a whole 1200x700 PNG"
	else
		not_ok "the final latency-live.png is a whole 1200x700 PNG"
	fi
	check_eq "$(cat "$WORK/png.out")" "$WORK/png-plots/latency-live.png" "the final image's path on standard output"
	check_eq "$(find "$WORK/png-plots" -type f | wc -l)" 1 "no temporary file left beside it"
else
	not_ok "dgrdma-capture --live wrote live.url: $(tail -2 "$WORK/png.capture.out")"
fi

# ---- SVG, every interval in the final plot; Ctrl-C ends it with the final plot -------------------
# as root, with the run folder's capture.pcapng followed (--live-follow): the wire's series too,
# the emulator on UDP port 18078 (which latency-report knows without a run.json)
follow=()
if [ "$(id -u)" = 0 ] && command -v dumpcap >/dev/null; then
	PCAP_OPTS=()
	FPGA_ADDR="127.0.$(($$ % 250 + 1)).$(($$ / 250 % 250 + 2)):18078"
	follow=(--live-follow "$WORK/svg/capture.pcapng")
fi
if start_run svg; then
	# latency-report as dgrdma-plot runs it, its JSON Lines kept (exec: the same process)
	printf '#!/bin/bash\nexec "%s" "$@" > >(tee "%s")\n' "$LR" "$WORK/svg.jsonl" >"$WORK/tee-lr"
	chmod +x "$WORK/tee-lr"
	# a background job of a script ignores SIGINT: restore it, as a terminal's Ctrl-C would find it
	env --default-signal=INT timeout 120 "$PLOT" --live --format=svg --live-interval 0.5 \
		--latency-report "$WORK/tee-lr" -o "$WORK/svg-plots" "${follow[@]}" "$URL" \
		>"$WORK/svg.out" 2>"$WORK/svg.err" &
	PLOT_PID=$!
	stream svg 6 &
	spid=$!
	for ((n = 0; n < 600; n++)); do
		[ "$(jq -s '[.[] | select(.kind == "interval" and .host_rx.interval.count > 0)] | length' \
			"$WORK/svg.jsonl" 2>/dev/null || echo 0)" -ge 4 ] && break
		nap 0.1
	done
	kill -INT "$PLOT_PID"
	wait "$PLOT_PID"
	check_eq "$?" 0 "--live ended with SIGINT: latency-report's exit status 0 ($(head -c 300 "$WORK/svg.err"))"
	PLOT_PID=""
	wait "$spid"
	wait "$CAP_PID"
	CAP_PID=""
	F=$WORK/svg-plots/latency-live.svg
	check_eq "$(tail -n 1 "$WORK/svg.jsonl" | jq -r .kind)" final "SIGINT reached latency-report, which printed its final report"
	if [ -f "$F" ] && whole_svg "$F"; then
		ok "the final latency-live.svg is well-formed SVG"
	else
		not_ok "the final latency-live.svg is well-formed SVG"
	fi
	# one point per interval with doorbells in each series of the final plot (the intervals
	# latency-report printed, the last one after SIGINT included), in the plot's order: p50, p99,
	# max of the in-host latency (from arrival when the interval had it), then of the wire's
	want=$(jq -r 'select(.kind == "interval") | (.host_rx_from_arrival // .host_rx) as $h
		| select($h.interval.count > 0) | .elapsed_s' "$WORK/svg.jsonl" | wc -l)
	expected=$(jq -s -r '[.[] | select(.kind == "interval")] as $iv
		| [(["in-host", "in-host-from-arrival"][] as $src
		    | [$iv[] | select((if .host_rx_from_arrival then "in-host-from-arrival" else "in-host" end) == $src
		                      and (.host_rx_from_arrival // .host_rx).interval.count > 0)] | length
		    | select(. > 0) | (., ., .)),
		   ([$iv[] | select((.wire_rx.interval.count // 0) > 0)] | length | select(. > 0) | (., ., .))]
		| map(tostring) | join(" ")' "$WORK/svg.jsonl")
	points=$(svg_points "$F")
	diag "$want intervals with doorbells; points per series: $points"
	if [ "$want" -ge 4 ]; then
		ok "at least 4 intervals with doorbells before SIGINT ($want)"
	else
		not_ok "at least 4 intervals with doorbells before SIGINT ($want)"
	fi
	check_eq "$points" "$expected" \
		"the final SVG's series (p50, p99, max), one point per interval with doorbells"
	if [ ${#follow[@]} -gt 0 ]; then
		check_eq "$(echo "$points" | wc -w) $(grep -c 'wire-p99' "$F" | awk '{ print ($1 > 0) }')" "6 1" \
			"--live-follow: the wire's p50, p99 and max beside the in-host ones"
	else
		check_eq "$(echo "$points" | wc -w)" 3 "three series: the in-host p50, p99 and max"
	fi
	check_eq "$(grep -c 'in-host[a-z-]*-p99' "$F" | awk '{ print ($1 > 0) }')" 1 "the p99 series is named"
else
	not_ok "second dgrdma-capture --live wrote live.url: $(tail -2 "$WORK/svg.capture.out")"
fi

done_testing
