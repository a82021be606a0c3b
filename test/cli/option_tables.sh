#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make check: compute only
# One option table per tool (stack/cli/opts.h): for every tool with a table, its
# --list-options, its --help, its man page's OPTIONS section (dgrdma-gen, not installed: its
# README's option list), its bash completion and its parser agree. An option in one is in all;
# every such man page says its OPTIONS come from the table and is what --list-options --man
# writes (make man-options); the parser takes every listed option (and old
# name) with a valid value and refuses an out-of-range one naming the option as given and
# the range; an option of another subcommand is refused by name. The bash tools (dgrdma-plot,
# dgrdma-capture) read their tables through dgrdma-opts and are checked like the C tools (the
# parser's checks run the scripts, which read what dgrdma-opts hands them); each script has a
# case for every option of its table, and dgrdma-capture's COMMAND is passed on untouched.
# Nothing here opens a socket: --help after the option ends the parse before any run.
# make check: slow
. "$DGR_SRC/test/lib/tap.sh"

B="$DGR_BUILD/bin"
TABLE_TOOLS=(dgrdma-host dgrdma-ctl dgrdma-fpga latency-report dgrdma-clocks dgrdma-wire
	dgrdma-tune dgrdma-gen dgrdma-runinfo dgrdma-plot dgrdma-capture)
declare -A MAN=([dgrdma-host]=stack/man/dgrdma-host.1 [dgrdma-ctl]=stack/man/dgrdma-ctl.1
	[dgrdma-wire]=stack/man/dgrdma-wire.1 [dgrdma-tune]=stack/tune/dgrdma-tune.1
	[dgrdma-gen]=test/gen/README.md
	[dgrdma-fpga]=fpga/dgrdma-fpga.1 [latency-report]=analysis/latency-report/latency-report.1
	[dgrdma-clocks]=tracepoints/dgrdma-clocks.1 [dgrdma-capture]=tracepoints/dgrdma-capture.1
	[dgrdma-runinfo]=tracepoints/dgrdma-runinfo.1
	[dgrdma-plot]=analysis/dgrdma-plot.1)
require_built "$B" "${TABLE_TOOLS[@]}" dgrdma-opts
command -v jq >/dev/null || {
	skip "jq is not installed: --list-options --json cannot be read"
	done_testing
	exit 0
}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

# options_in [TOOL]: every --name in the text on stdin, sorted, once each; an option named
# after another tool ("output of dgrdma-fpga --list-properties") is that tool's, not TOOL's
options_in() {
	sed -E "s/(dgrdma-[a-z]+|latency-report) --([a-z])/\1 @@\2/g; s/${1:-@} @@/${1:-@} --/g" |
		grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
}
# Other programs' options a tool's text names where options_in cannot tell (a line break
# between the program and its option, "the emulator's --summary-json", "perf data convert
# --to-ctf", "the recorded command's --bind"): not the tool's own.
declare -A FOREIGN=([latency-report]="--bind --peer --relayd --summary-json --to-ctf"
	[dgrdma-runinfo]="--summary-json"
	[dgrdma-plot]="--csv --direction --plot-columns"
	[dgrdma-capture]="--bind --buffers --csv --peer --to-ctf --tracefile-count --tracefile-size --udp")
# own TOOL LISTED: the --names on stdin without TOOL's FOREIGN ones, "--opt" (of "--opt=value"),
# "--man" (of "--list-options --man") and, for a tool whose table (LISTED) has no --json, the --json of "--list-options --json"
own() {
	local not="${FOREIGN[$1]:-} --opt --man"
	grep -qx -- --json <<<"$2" || not+=" --json"
	grep -vxF -f <(tr ' ' '\n' <<<"$not")
}
# man_options PAGE TOOL: every --name of PAGE's OPTIONS section (roff's \- read as -); a tool
# without a man page (dgrdma-gen, not installed) has its options in its README's first code
# block
man_options() {
	case $1 in
	*.md) sed -n '/^```$/,/^```$/p' "$DGR_SRC/$1" | sed -n '1,/^```$/p' | sed '1d' ;;
	*) sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' "$DGR_SRC/$1" | sed 's/\\-/-/g' ;;
	esac | options_in "$2"
}
# has FILE TEXT...: FILE holds one of the TEXTs (grep -qF, read by bash: this runs per option);
# a TEXT that starts with a newline is at the start of a line, the first one included
has() {
	local txt="" t
	IFS= read -r -d '' txt <"$1"
	shift
	for t; do
		[[ $'\n'$txt == *"$t"* ]] && return 0
	done
	return 1
}
# same WHAT A B DESC: the two sorted lists A and B are equal; else names what only one has
same() {
	local only_a="" only_b=""
	# (equal lists have nothing only in one: comm and paste only for lists that differ)
	if [ "$2" != "$3" ]; then
		only_a=$(comm -23 <(echo "$2") <(echo "$3") | paste -sd' ')
		only_b=$(comm -13 <(echo "$2") <(echo "$3") | paste -sd' ')
	fi
	check_eq "only in $1: [$only_a] [$only_b]" "only in $1: [] []" "$4"
}

# example TOOL OPTION METAVAR: a valid value of a string option, by the option (where its
# value's name says too little) or by the name of its value
example() {
	case $1:$2 in
	latency-report:udp-port) echo 18079 && return ;;
	latency-report:dcp-doorbells) echo 0x100018:0x10001f && return ;;
	latency-report:fail-on) echo loss && return ;;
	dgrdma-tune:root) echo "$T" && return ;;
	dgrdma-capture:relayd) echo net://127.0.0.1 && return ;;
	dgrdma-gen:late-frames) echo 1:2 && return ;;
	esac
	case $3 in
	IFACE) echo lo ;;
	PEER | ADDR | "ADDR[:PORT]") echo 127.0.0.1 ;;
	BUF:MS) echo 1:1 ;;
	POLICY) echo other ;;
	LIST | "I,J,...") echo 0 ;;
	PATH | FILE | DIR) echo "$T/file" ;;
	EXPR) echo "udp port 18078" ;;
	WxH) echo 1200x700 ;;
	CSV) echo "$T/file.csv" ;;
	TEXT) echo "a title" ;;
	NAME) echo a-session ;;
	*) return 1 ;;
	esac
}

# What the checks below read of a tool's --list-options --json, in one jq (a jq start is about
# 30 ms of CPU): NUL-ended fields, in this order: whether it has options, its option names and
# old names (a line each), its subcommands (a line each), per subcommand (or once, for a tool
# without) the names it takes, then a line per option for the parser's checks: name, old
# names, type, metavar, min, max, values, subcommands ("-" for none, or for all of them)
table_filter='def lines: map(. + "\n") | add // "";
	.subcommands as $all |
	(.options | length > 0 | tostring),
	([.options[] | ("--" + .name), (.aliases[] | "--" + .)] | lines),
	(try (.subcommands | lines) catch ""),
	((try (if (.subcommands | length) > 0 then .subcommands[] else "" end) catch "") as $s |
	 [.options[] | select($s == "" or (.subcommands | index($s))) | ("--" + .name), (.aliases[] | "--" + .)] | lines),
	([.options[] |
	  [.name, (if .aliases == [] then "-" else (.aliases | join(",")) end), .type,
	   (.metavar // "-"), (.min // "-" | tostring), (.max // "-" | tostring),
	   ((.values // ["-"]) | map(select(endswith(":") | not)) | join(",")),
	   (if .subcommands == $all then "-" else (.subcommands | join(",")) end)] | @tsv] | lines)
	| . + "\u0000"'
generated=""
for tool in "${TABLE_TOOLS[@]}"; do
	json=$("$B/$tool" --list-options --json)
	# (jq's exit status: the last record)
	mapfile -d '' -t tf < <(jq -j "$table_filter" <<<"$json"; printf '%s\0' "$?")
	check_eq "${tf[-1]} ${tf[0]:-}" "0 true" "$tool --list-options --json is one JSON object with options"
	listed=$("$B/$tool" --list-options | cut -f1 | sort -u)
	# (a here-string ends the text with a newline: its own is taken off)
	names=${tf[1]:-}
	check_eq "$(sort -u <<<"${names%$'\n'}")" \
		"$listed" "$tool: --list-options and --list-options --json name the same options"
	same "--list-options / --help" "$listed" "$("$B/$tool" --help | options_in "$tool" | own "$tool" "$listed")" \
		"$tool: every option of its table is in --help, and --help names no other"
	same "--list-options / man" "$listed" "$(man_options "${MAN[$tool]}" "$tool" | own "$tool" "$listed")" \
		"$tool: every option of its table is in its man page's OPTIONS, which names no other"
	# a page that says its OPTIONS come from the table holds exactly what the table writes
	# (make man-options: mk/man-options.sh)
	if grep -qxF '.\" OPTIONS: generated from the option table (make man-options)' \
		"$DGR_SRC/${MAN[$tool]}"; then
		generated+=" $tool"
		check_eq "$(sed -n '/^\.SH OPTIONS$/,/^\.SH [^O]/p' "$DGR_SRC/${MAN[$tool]}" | sed '$d')" \
			"$("$B/$tool" --list-options --man)" \
			"$tool: its man page's OPTIONS section is the one its table writes (make man-options)"
	fi

	# the completion made at build time offers, per subcommand, exactly its options
	comp="$DGR_BUILD/completion/$tool"
	subs=${tf[2]:-}
	subs=${subs%$'\n'}
	fn="_${tool//-/_}"
	f=3
	for sub in ${subs:-""}; do
		want=${tf[f]:-}
		want=$(sort -u <<<"${want%$'\n'}")
		f=$((f + 1))
		# shellcheck disable=SC1090 # the completion the build made
		got=$(source "$comp" && COMP_WORDS=("$tool" ${sub:+"$sub"} --) &&
			COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) && "$fn" && printf '%s\n' "${COMPREPLY[@]}" |
			sort -u)
		same "--list-options / completion" "$want" "$got" \
			"$tool${sub:+ $sub}: the bash completion offers exactly the options of the table"
	done
	# after "--" the words are operands: no option is offered there (dgrdma-capture: COMMAND,
	# completed as a command; the others: files)
	# shellcheck disable=SC1090 # the completion the build made
	got=$(cd "$T" && source "$comp" && COMP_WORDS=("$tool" -- ech) && COMP_CWORD=2 && "$fn" &&
		printf '%s\n' "${COMPREPLY[@]}" | grep -c -- '^--')
	check_eq "$got" 0 "$tool: the bash completion offers no option after '--'"
	if [ "$tool" = dgrdma-capture ]; then
		# shellcheck disable=SC1090 # the completion the build made
		got=$(cd "$T" && source "$comp" && COMP_WORDS=("$tool" --no-pcap -- ech) && COMP_CWORD=3 &&
			"$fn" && printf '%s\n' "${COMPREPLY[@]}" | sort -u | grep -cx echo)
		check_eq "$got" 1 "dgrdma-capture: after '--' the completion offers commands (COMMAND)"
	fi

	# the parser: each option with a valid value, then out of its range
	bad_accept="" bad_refuse="" bad_mode="" n=0
	all_subs=$(paste -sd, <<<"$subs")
	while IFS=$'\t' read -r name aliases type metavar min max values osubs; do
		# (tab-separated: read would join empty fields, so "-" stands for none or all)
		[ "$osubs" = - ] && osubs=$all_subs
		sub=${osubs%%,*}
		case $type in
		flag) val=() ;;
		count | size) val=("$min") ;;
		seconds | decimal | rate) val=("$min") ;;
		choice) val=("${values%%,*}") ;;
		string)
			if ! v=$(example "$tool" "$name" "$metavar"); then
				bad_accept+=" --$name (no example for $metavar: add one to this test)"
				continue
			fi
			val=("$v")
			;;
		esac
		[ "$aliases" = - ] && aliases=""
		for given in $name ${aliases//,/ }; do
			n=$((n + 1))
			"$B/$tool" ${sub:+"$sub"} "--$given" "${val[@]}" --help >"$T/out" 2>"$T/err"
			rc=$?
			if [ $rc != 0 ]; then
				bad_accept+=" --$given ${val[*]} (exit $rc: $(head -1 "$T/err"))"
			elif [ "$type" != flag ] && ! has "$T/out" $'\nUsage' $'\nusage'; then
				bad_accept+=" --$given ${val[*]} (no --help after it)"
			fi
			bad=""
			case $type in
			count | size)
				# (a count over the whole 64 bits, --seed 0..2^64-1, has no value outside)
				if [ "$min" != 0 ]; then
					bad=$((min - 1))
				elif [ ${#max} -le 15 ]; then
					bad=$((max + 1))
				fi
				# jq holds numbers as doubles: a range up to 2^64-1 is checked by its start
				if [ ${#max} -gt 15 ]; then range="$min.."; else range="$min..$max"; fi
				;;
			seconds | decimal | rate)
				# a whole number in bash (awk's "%.17g" prints it the same), any other
				# through awk
				if [[ $max =~ ^[0-9]{1,15}$ ]]; then
					bad=$((10#$max * 2 + 1))
				else
					bad=$(awk -v m="$max" 'BEGIN { printf "%.17g", m * 2 + 1 }')
				fi
				range=""
				;;
			esac
			if [ -n "$bad" ]; then
				"$B/$tool" ${sub:+"$sub"} "--$given" "$bad" --help >"$T/out" 2>"$T/err"
				rc=$?
				if [ $rc != 2 ] || ! has "$T/err" "$tool: --$given: '$bad' is out of range $range"; then
					bad_refuse+=" --$given $bad (exit $rc: $(head -1 "$T/err"))"
				fi
			fi
		done
		# an option of other subcommands is refused by name in one it does not belong to
		for other in $subs; do
			case ",$osubs," in
			*",$other,"*) ;;
			*)
				# (no --help here: it would end the parse before the check)
				"$B/$tool" "$other" "--$name" "${val[@]}" >"$T/out" 2>"$T/err" </dev/null
				rc=$?
				# (dgrdma-tune's words: "dgrdma-tune apply: option '--regime' belongs
				# to 'check'")
				if [ $rc != 2 ] || ! has "$T/err" "$tool: $other: --$name is " \
					"$tool $other: option '--$name' belongs to "; then
					bad_mode+=" $other --$name (exit $rc)"
				fi
				;;
			esac
		done
	done < <(printf '%s' "${tf[-2]:-}")
	check_eq "$bad_accept" "" "$tool: the parser takes each of its $n option names with a valid value"
	check_eq "$bad_refuse" "" \
		"$tool: a value out of range is refused (exit 2), naming the option as given and its range"
	check_eq "$bad_mode" "" "$tool: an option of another subcommand is refused by name"
done

# every table tool's man page is generated from its table (dgrdma-gen has none: its README)
check_eq "$(for tool in "${TABLE_TOOLS[@]}"; do
	case ${MAN[$tool]} in *.1) echo "$tool" ;; esac
done | sort | paste -sd' ')" "$(tr ' ' '\n' <<<"$generated" | sed '/^$/d' | sort | paste -sd' ')" \
	"the man page of every tool with a table has its OPTIONS generated from the table"

# every page that says so is checked above: none is missed by the list of tools
check_eq "$(grep -rlxF --include='*.1' --exclude-dir=build \
	'.\" OPTIONS: generated from the option table (make man-options)' "$DGR_SRC" |
	xargs -n1 basename | sed 's/\.1$//' | sort | paste -sd' ')" \
	"$(tr ' ' '\n' <<<"$generated" | sed '/^$/d' | sort | paste -sd' ')" \
	"every man page whose OPTIONS come from its table is checked against the table"

# dgrdma-plot reads its table through dgrdma-opts: the records it is handed (name, name as
# given, checked value; an operand with an empty name) and a case of the script for each option
check_eq "$("$B/dgrdma-opts" dgrdma-plot parse --out=d --stalls 4 in --tolerable-us 1e3 --log \
	-- -x | tr '\0' '|')" "output|--out|d|stalls|--stalls|4|tolerable-us|--tolerable-us|1000|log|--log||||in|||-x|" \
	"dgrdma-opts hands dgrdma-plot its options in order, values checked and converted, then the operands"
"$B/dgrdma-opts" dgrdma-plot parse --out d --stalls 6 >"$T/out" 2>"$T/err"
check_eq "$?:$(cat "$T/err")" "2:dgrdma-plot: --stalls: '6' is out of range 1..5" \
	"dgrdma-opts refuses a bad value with exit 2, naming the option and its range"
check_eq "$("$B/dgrdma-opts" dgrdma-capture parse -B 4 --buffer-size=8 --ring-file-size 64k \
	--sample-rate 200M cmd --json -- x | tr '\0' '|')" \
	"pcap-buffer|--pcap-buffer|4|pcap-buffer|--buffer-size|8|ring-file-size|--ring-file-size|65536|sample-rate|--sample-rate|200000000|||cmd|||--json|||--|||x|" \
	"dgrdma-opts hands dgrdma-capture its options up to COMMAND, sizes in bytes, and COMMAND untouched"
check_eq "$("$B/dgrdma-opts" dgrdma-capture parse --no-pcap -- -x --help | tr '\0' '|')" \
	"no-pcap|--no-pcap||||-x|||--help|" "after --, dgrdma-capture's COMMAND may start with a dash"
for tool in dgrdma-plot dgrdma-capture; do
	case $tool in
	dgrdma-plot) script=analysis/dgrdma-plot ;;
	dgrdma-capture) script=tracepoints/dgrdma-capture ;;
	esac
	unhandled=""
	IFS= read -r -d '' text <"$DGR_SRC/$script"
	for name in $("$B/$tool" --list-options --json | jq -r '.options[].name'); do
		# a line of blanks then "NAME)" (grep -E "^\s+NAME\)", in bash: a grep per option)
		[[ $'\n'$text =~ $'\n'[[:blank:]]+"$name)" ]] || unhandled+=" $name"
	done
	check_eq "$unhandled" "" "$tool handles every option of its table (a case of its loop over the records)"
done

# dgrdma-opts' exit status is the last record of what the bash tools read (not `wait $!`, which
# fails now and then on a loaded machine): a usage error is exit 2 with "Try --help", any other
# status is named with the program that ended so, exit 3. A copy of each tool beside a stand-in
# dgrdma-opts (found first: beside the script) that exits with the status given.
mkdir -p "$T/opts-status"
cp "$B/dgrdma-plot" "$B/dgrdma-capture" "$T/opts-status/"
for st in 2 5; do
	printf '#!/bin/sh\nexit %s\n' "$st" >"$T/opts-status/dgrdma-opts"
	chmod +x "$T/opts-status/dgrdma-opts"
	for tool in dgrdma-plot dgrdma-capture; do
		err=$("$T/opts-status/$tool" --version 2>&1 >/dev/null)
		rc=$?
		if [ "$st" = 2 ]; then
			want="2|Try '$tool --help'."
		else
			want="3|$tool: dgrdma-opts ($T/opts-status/dgrdma-opts) ended with status 5"
		fi
		check_eq "$rc|$err" "$want" "$tool: dgrdma-opts ending with status $st is exit ${want%%|*}, said so"
	done
done

done_testing
