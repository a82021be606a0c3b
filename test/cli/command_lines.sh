#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The command-line conventions of every tool (docs/cli.md): --version, --opt=value, the old
# option names kept as aliases, options of another subcommand refused by name, the exit
# statuses (2 for bad usage), and each bad command line of issue 20 with its message.
# Nothing here opens a socket: every command is refused while its options are read.
# make check: slow
. "$DGR_SRC/test/lib/tap.sh"

B="$DGR_BUILD/bin"
require_built "$B" dgrdma-host dgrdma-ctl dgrdma-wire dgrdma-fpga dgrdma-capture dgrdma-tune \
	latency-report dgrdma-plot dgrdma-clocks dgrdma-runinfo
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
# the version the build wrote (the tree may have changed since: mk/version.sh would say so)
version=$(sed -n 's/^#define DGR_VERSION "\(.*\)"$/\1/p' "$DGR_BUILD/gen/dgrdma-version.h")

# has_line FILE LINE: FILE has the line LINE (grep -qxF in bash: a process per check before).
has_line() {
	local l
	while IFS= read -r l || [ -n "$l" ]; do
		[ "$l" = "$2" ] && return 0
	done <"$1"
	return 1
}

# refused STATUS MESSAGE DESCRIPTION -- COMMAND...: COMMAND exits STATUS and its stderr has
# the line MESSAGE.
refused() {
	local want=$1 msg=$2 desc=$3 rc
	shift 4
	"$@" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
	if [ "$rc" = "$want" ] && has_line "$T/err" "$msg"; then
		ok "$desc"
	else
		not_ok "$desc"
		diag "  exit $rc (want $want); stderr: $(head -3 "$T/err")"
	fi
}

# ---- --version, one version from one place ----
for t in dgrdma-host dgrdma-ctl dgrdma-wire dgrdma-fpga dgrdma-capture dgrdma-tune \
	latency-report dgrdma-plot dgrdma-clocks dgrdma-runinfo dgrdma-gen; do
	check_eq "$("$B/$t" --version 2>&1; echo "rc=$?")" "$t (dgrdma-tools) $version
rc=0" "$t --version: the build's version (mk/version.sh), exit 0"
done
check_eq "$("$B/dgrdma-host" rx --version)" "dgrdma-host (dgrdma-tools) $version" \
	"dgrdma-host rx --version: also after the mode"
check_eq "$(cd "$T" && "$DGR_SRC/mk/version.sh")" "$("$DGR_SRC/mk/version.sh")" \
	"mk/version.sh gives the same from any folder"
check "and starts with the VERSION file's ($(cat "$DGR_SRC/VERSION"))" \
	grep -q "^$(cat "$DGR_SRC/VERSION")" <<<"$version"
mkdir -p "$T/tarball/mk" && cp "$DGR_SRC/mk/version.sh" "$T/tarball/mk/" && echo 9.8.7 >"$T/tarball/VERSION"
check_eq "$(GIT_CEILING_DIRECTORIES="$T" "$T/tarball/mk/version.sh")" "9.8.7" \
	"outside a git checkout (a tarball) the VERSION file is the version"

# ---- --opt=value everywhere: the value reaches the option's check ----
H=("$B/dgrdma-host" rx --udp --peer 127.0.0.1:9)
refused 2 "dgrdma-host: --buffers: '300' is out of range 1..255" "dgrdma-host --buffers=300" -- \
	"${H[@]}" --buffers=300
refused 2 "dgrdma-ctl: --timeout: '0' is out of range 1..60000" "dgrdma-ctl --timeout=0" -- \
	"$B/dgrdma-ctl" --udp --timeout=0 discover
refused 2 "dgrdma-fpga: --buffer-size: '7' is out of range 64..65536 (suffixes K, M, G allowed)" \
	"dgrdma-fpga --buffer-size=7" -- \
	"$B/dgrdma-fpga" --udp --buffer-size=7
refused 2 "dgrdma-wire: --mtu: '1' is out of range 64..65535" "dgrdma-wire plan --mtu=1" -- \
	"$B/dgrdma-wire" plan --size 100 --mtu=1
refused 2 "dgrdma-tune: invalid --regime 'calm': expected healthy, jitter-bound or throughput-bound" \
	"dgrdma-tune check --regime=calm" -- "$B/dgrdma-tune" check --regime=calm
refused 2 "latency-report: --interval: '0' is out of range 1..60000" "latency-report --interval=0" -- \
	"$B/latency-report" --interval=0 "$T"
refused 2 "latency-report: --json takes no value" "latency-report --json=yes is refused" -- \
	"$B/latency-report" --json=yes "$T"
refused 2 "dgrdma-capture: --snaplen: 'x' is not a number (accepted: 0..262144)" \
	"dgrdma-capture --snaplen=x" -- "$B/dgrdma-capture" --snaplen=x -- true
refused 2 "dgrdma-capture: --no-pcap takes no value" "dgrdma-capture --no-pcap=1 is refused" -- \
	"$B/dgrdma-capture" --no-pcap=1 -- true
refused 2 "dgrdma-plot: --format: 'gif' is not png, svg or both" "dgrdma-plot --format=gif" -- \
	"$B/dgrdma-plot" --format=gif "$T"
"$B/dgrdma-capture" --output="$T/run-eq" --no-trace --no-pcap -- true 2>"$T/err"
check_eq "$?/$(test -f "$T/run-eq/run.json" && echo run.json)" "0/run.json" \
	"dgrdma-capture --output=DIR records into DIR"

# ---- one name per idea; the old names are aliases (named as given) ----
refused 2 "dgrdma-host: --drop-frames: '2' is out of range 0..1" "dgrdma-host --drop-frames" -- \
	"${H[@]}" --drop-frames 2
refused 2 "dgrdma-host: --drop-rx: '2' is out of range 0..1" "dgrdma-host --drop-rx: the old name" -- \
	"${H[@]}" --drop-rx 2
refused 2 "dgrdma-host: --coalesce-us: '-1' is out of range 0..1000000" \
	"dgrdma-host --coalesce-us" -- "${H[@]}" --coalesce-us -1
refused 2 "dgrdma-host: --coalesce-wait: 'x' is not a number (accepted: 0..1000000)" \
	"dgrdma-host --coalesce-wait: the old name" -- "${H[@]}" --coalesce-wait x
refused 2 "dgrdma-host: --sample-rate: 'fast' is not a number (accepted: 0..1e11 samples/s; e.g. 200e6 or 200M)" \
	"dgrdma-host tx --sample-rate" -- "$B/dgrdma-host" tx --udp --peer 127.0.0.1:9 --sample-rate fast
# latency-report's ports and roles (issue 18): each bad value named with what is accepted
refused 2 "latency-report: --udp-port: '0' is out of range 1..65535" \
	"latency-report --udp-port 0" -- "$B/latency-report" --udp-port 0 x.pcap
refused 2 "latency-report: --udp-port: '5,,6' is not a comma-separated list of ports 1..65535" \
	"latency-report --udp-port with an empty element" -- "$B/latency-report" --udp-port 5,,6 x.pcap
refused 2 "latency-report: --udp-port: at most 64 ports" \
	"latency-report --udp-port with 64 ports besides 18078" -- "$B/latency-report" --udp-port "$(seq -s, 1 64)" x.pcap
refused 2 "latency-report: --path: 'up' is not rx (data FPGA->host) or tx (data host->FPGA)" \
	"latency-report --path up" -- "$B/latency-report" --path up x.pcap
# the FPGA-fidelity options (issue 17): each bad value named with its range
refused 2 "dgrdma-fpga: --ack-window: '0' is out of range 1..64" \
	"dgrdma-fpga --ack-window 0" -- "$B/dgrdma-fpga" --udp --ack-window 0
refused 2 "dgrdma-fpga: --ack-window: '65' is out of range 1..64" \
	"dgrdma-fpga --ack-window 65" -- "$B/dgrdma-fpga" --udp --ack-window 65
refused 2 "dgrdma-fpga: --max-ack-count: '0' is out of range 1..255" \
	"dgrdma-fpga --max-ack-count 0" -- "$B/dgrdma-fpga" --udp --max-ack-count 0
refused 2 "dgrdma-fpga: --max-ack-count: 12 exceeds the window (--ack-window 8): the HDL requires max_ack_count <= bitfield_width" \
	"dgrdma-fpga --max-ack-count above the window" -- "$B/dgrdma-fpga" --udp --ack-window 8 --max-ack-count 12
refused 2 "dgrdma-fpga: --drop-received: '2' is out of range 0..1" \
	"dgrdma-fpga --drop-received 2" -- "$B/dgrdma-fpga" --udp --drop-received 2
refused 2 "dgrdma-fpga: --restart-on-seq1: 'maybe' is not true or false" \
	"dgrdma-fpga --restart-on-seq1 maybe" -- "$B/dgrdma-fpga" --udp --restart-on-seq1 maybe
refused 2 "dgrdma-fpga: --sample-rate: '0' is out of range 1..1e10 samples/s (e.g. 200e6 or 200M)" \
	"dgrdma-fpga --sample-rate" -- \
	"$B/dgrdma-fpga" --udp --sample-rate 0
refused 2 "dgrdma-fpga: --rate: '0' is out of range 1..1e10 samples/s (e.g. 200e6 or 200M)" \
	"dgrdma-fpga --rate: the old name" -- \
	"$B/dgrdma-fpga" --udp --rate 0
refused 2 "dgrdma-fpga: --fpga-buffers: '65' is out of range 2..64" \
	"dgrdma-fpga --fpga-buffers: the name the other tools use for its --buffers" -- \
	"$B/dgrdma-fpga" --udp --fpga-buffers 65
for t in "dgrdma-host rx --udp --peer 127.0.0.1:9" "latency-report" "dgrdma-capture"; do
	read -ra cmd <<<"$t"
	cmd[0]="$B/${cmd[0]}"
	refused 2 "${t%% *}: --fpga-buffers: '1' is out of range 2..64" \
		"${t%% *} --fpga-buffers: 2..64, the same range in every tool" -- "${cmd[@]}" --fpga-buffers 1 -- true
done
"$B/dgrdma-capture" --buffer-size 8 -o "$T/run-old" --no-trace --no-pcap -- true 2>"$T/err"
check_eq "$?/$(grep -c 'note: --buffer-size is the old name of --pcap-buffer' "$T/err")" "0/1" \
	"dgrdma-capture --buffer-size (MiB) still works, with a note naming --pcap-buffer"
"$B/dgrdma-capture" --pcap-buffer 8 -o "$T/run-new" --no-trace --no-pcap -- true 2>"$T/err"
check_eq "$?/$(grep -c note "$T/err")" "0/0" "dgrdma-capture --pcap-buffer: no note"
refused 2 "dgrdma-tune: invalid --data-path '': expected a file or folder path" \
	"dgrdma-tune check --data-path (the path the stream is written to)" -- \
	"$B/dgrdma-tune" check --data-path ''
refused 2 "dgrdma-tune apply: option '--output' belongs to 'check'" \
	"dgrdma-tune --output: the old name, refused by the name given" -- \
	"$B/dgrdma-tune" apply --profile rx --output /tmp

# ---- options of another subcommand are refused, naming the subcommand ----
for o in "--bytes 1M" "--source ramp" "--sample-rate 1e6" "--rate 1e6"; do
	read -ra a <<<"$o"
	refused 2 "dgrdma-host: rx: ${a[0]} is a tx option" "dgrdma-host rx ${a[0]}: refused" -- \
		"${H[@]}" "${a[@]}"
done
refused 2 "dgrdma-host: rx: --count is a perf option" "dgrdma-host rx --count: refused" -- \
	"${H[@]}" --count 5
for o in "--sink null" "--consumer-delay-us 5" "--consumer-stall 1:1" "--fsync" "--direct"; do
	read -ra a <<<"$o"
	refused 2 "dgrdma-host: tx: ${a[0]} is an rx option" "dgrdma-host tx ${a[0]}: refused" -- \
		"$B/dgrdma-host" tx --udp --peer 127.0.0.1:9 "${a[@]}"
done
refused 2 "dgrdma-host: perf: --json is an rx and tx option" "dgrdma-host perf --json: refused" -- \
	"$B/dgrdma-host" perf --udp --peer 127.0.0.1:9 --json
refused 2 "dgrdma-host: tx: --csv is a perf option" "dgrdma-host tx --csv: refused" -- \
	"$B/dgrdma-host" tx --udp --peer 127.0.0.1:9 --csv
refused 2 "dgrdma-host rx: unrecognized option '--bogus'" "an unknown option is named with the mode" -- \
	"${H[@]}" --bogus
refused 2 "dgrdma-wire: plan: --mem-size is a decode option" "dgrdma-wire plan --mem-size: refused" -- \
	"$B/dgrdma-wire" plan --size 10 --mem-size 64
refused 2 "dgrdma-wire: decode: --size is a plan option" "dgrdma-wire decode --size=5: refused" -- \
	"$B/dgrdma-wire" decode --size=5

# ---- the bad command lines of issue 20 ----
refused 2 "dgrdma-host: --doorbell: dcp:0x1 is not a multiple of 4 (a DCP write sets one 32-bit word)" \
	"dgrdma-host --doorbell dcp:0x1 (unaligned) refused" -- "${H[@]}" --doorbell dcp:0x1
refused 2 "dgrdma-capture: --output: an empty name; give a folder, or leave --output out for dgrdma-run-DATE" \
	"dgrdma-capture --output '' refused" -- "$B/dgrdma-capture" --output '' -- true
refused 2 "dgrdma-ctl: write VALUE: '-1' is negative: a 32-bit word is 0..4294967295 (0xffffffff for all bits set)" \
	"dgrdma-ctl write ADDR -1: a negative value named, not taken for an option" -- \
	"$B/dgrdma-ctl" --udp --peer 127.0.0.1:9 --timeout 50 --retries 0 write 0x100018 -1
refused 2 "dgrdma-plot: --out needs a value (see --help)" "dgrdma-plot --out without a value" -- \
	"$B/dgrdma-plot" --out
refused 2 "dgrdma-plot: --output: an empty name (give a folder)" "dgrdma-plot --output ''" -- \
	"$B/dgrdma-plot" --output '' "$T"
refused 2 "dgrdma-ctl: read: wrong number of arguments (see --help)" "dgrdma-ctl read without ADDR" -- \
	"$B/dgrdma-ctl" --udp --peer 127.0.0.1:9 read
"$B/dgrdma-fpga" --list-properties >"$T/props.md"
refused 2 "dgrdma-ctl: read doorbell: doorbell is write-only (access WO in --props): the FPGA returns no value for it; write it instead" \
	"dgrdma-ctl read of a write-only property: named, exit 2, nothing sent" -- \
	"$B/dgrdma-ctl" --udp --peer 127.0.0.1:9 --props "$T/props.md" read doorbell
# A map row that cannot be read is refused with its line, not skipped (a later name would have
# been unknown); one name of two workers is refused as ambiguous, and taken by WORKER.NAME.
{ head -3 "$T/props.md"; echo '| 4 emulator | 0x0 | 0x500002 | `mtu` | u32 | RO | |'; } >"$T/bad-props.md"
refused 2 "dgrdma-ctl: --props $T/bad-props.md line 4: DCP address '0x500002' is not a word-aligned hexadecimal address 0x0..0xfffffc" \
	"dgrdma-ctl --props: an unaligned address refused with the map's line, nothing sent" -- \
	"$B/dgrdma-ctl" --udp --peer 127.0.0.1:9 --props "$T/bad-props.md" read mtu
{ cat "$T/props.md"; echo '| 4 emulator | 0x0 | 0x5fff00 | `mtu` | u32 | RO | |'; } >"$T/two-props.md"
refused 2 "dgrdma-ctl: 'mtu' is a property of several workers (0 dgrdma_config, 4 emulator): give WORKER.mtu" \
	"dgrdma-ctl: a name two workers hold is refused, naming both" -- \
	"$B/dgrdma-ctl" --udp --peer 127.0.0.1:9 --props "$T/two-props.md" read mtu
# WORKER.NAME with the worker's index (taken for an address before): resolved, then refused as
# write-only before anything is sent
refused 2 "dgrdma-ctl: read 0.doorbell: doorbell is write-only (access WO in --props): the FPGA returns no value for it; write it instead" \
	"dgrdma-ctl: WORKER.NAME by the worker's index" -- \
	"$B/dgrdma-ctl" --udp --peer 127.0.0.1:9 --props "$T/props.md" read 0.doorbell
"$B/dgrdma-ctl" --json --props "$T/two-props.md" props >"$T/out" 2>&1
check_eq "$?/$(jq -c '[.properties[] | select(.name == "mtu") | [.worker, .worker_name, .address, .type, .access]]' "$T/out")" \
	'0/[[0,"dgrdma_config","0x100004","u32","RO"],[4,"emulator","0x5fff00","u32","RO"]]' \
	"dgrdma-ctl props: each property with its worker, address, type and access"
refused 2 "dgrdma-ctl: props: no map to list (give --props FILE, the table of dgrdma-fpga --list-properties)" \
	"dgrdma-ctl props without --props: refused (it listed nothing, exit 0)" -- "$B/dgrdma-ctl" props
refused 2 "dgrdma-ctl: 'frob' is not a command: discover, read, write, control, start, stop, props" \
	"dgrdma-ctl: an unknown command" -- "$B/dgrdma-ctl" --udp --peer 127.0.0.1:9 frob

# ---- dgrdma-runinfo: its table's words; write reads the whole line before it writes ----
refused 2 "dgrdma-runinfo: check: --out is a write option" \
	"dgrdma-runinfo check --out: an option of write, refused by name" -- \
	"$B/dgrdma-runinfo" check --out "$T/w.json"
refused 2 "dgrdma-runinfo: --out needs a value (see --help)" \
	"dgrdma-runinfo write --out without its value" -- "$B/dgrdma-runinfo" write --out
"$B/dgrdma-runinfo" write --out "$T/w.json" format=dgrdma-run/2 --help >"$T/out" 2>&1
check_eq "$?/$(head -c 6 "$T/out")/$(test -e "$T/w.json" && echo written)" "0/usage:/" \
	"dgrdma-runinfo write ... --help: prints the usage and writes nothing"

# ---- bad usage exits 2 in every tool ----
for t in dgrdma-host dgrdma-ctl dgrdma-wire dgrdma-fpga dgrdma-capture dgrdma-tune latency-report \
	dgrdma-plot dgrdma-runinfo; do
	"$B/$t" --no-such-option >/dev/null 2>&1 </dev/null
	check_eq "$?" 2 "$t --no-such-option: exit 2"
done
# ---- every option of --help is in the tool's man page ----
# help_options TOOL: the long options that begin a line of TOOL --help ("--a/--b X" gives both)
help_options() {
	"$B/$1" --help 2>&1 | grep -E '^\s+(-[a-zA-Z], )?--[a-z]' | sed -E 's/^\s+(-[a-zA-Z], )?//' |
		awk '{ print $1 }' | tr '/' '\n' | grep -oE '^--[a-z][a-z0-9-]*' | sort -u
}
if command -v man >/dev/null; then
	for t in dgrdma-host dgrdma-ctl dgrdma-wire dgrdma-fpga dgrdma-capture dgrdma-tune \
		latency-report dgrdma-plot dgrdma-clocks dgrdma-runinfo; do
		page=$(git -C "$DGR_SRC" ls-files "*/$t.1" | head -1)
		text=$(MANWIDTH=200 man -l "$DGR_SRC/$page" 2>/dev/null | sed 's/\xe2\x80\x90/-/g')
		missing=""
		n=0
		for o in $(help_options "$t"); do
			n=$((n + 1))
			# a substring match in bash (the options are [a-z0-9-]: no regex characters)
			[[ $text == *"$o"* ]] || missing="$missing $o"
		done
		check_eq "$n:${missing# }" "$n:" "$t: the $n options of --help are in its man page ($page)"
	done
else
	skip "man is not installed: the man pages cannot be read"
fi

done_testing
