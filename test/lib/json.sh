# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Reads a JSON file's values with one jq start into a bash associative array, then looks them
# up without a process (sourced; docs/development.md, Tests). A jq start costs about 28 ms of
# CPU on this VM, and the suites ran one per value read: 2459 in a make check.
#
#   json_load NAME FILE     NAME[PATH]=TYPE+VALUE for every value of FILE (one jq)
#   json_get NAME PATH      prints what `jq -r PATH FILE` prints for a scalar
#   json_value NAME PATH    the same into JSON_VALUE, without a subshell
#   json_file FILE PATH     the same, FILE loaded on first use and kept
#
# PATH is jq's: `.a.b`, `.list[2]`, `.["odd key"]`; `.` is the whole document. As with jq -r,
# a missing key or index, or a key of null, prints "null"; a string prints raw (spaces and
# newlines kept); numbers print as jq prints them. An object or an array prints nothing and
# fails (status 2): read those with jq itself. A key of a number, a string or a boolean fails
# (status 5), as jq does.

# Each value is stored with its type's letter first (s string, n number, b boolean, z null,
# o object, a array), so that a string "null" is not a null and a container is known as one.
# The path and the value come out NUL-terminated: bash cannot hold a NUL, so a string with
# one is refused by jq (json_load fails) rather than cut.
JSON_JQ_PROGRAM='
def seg: if type == "number" then "[\(.)]"
	elif test("^[A-Za-z_][A-Za-z0-9_]*$") then ".\(.)"
	else "[\(tojson)]" end;
([], paths) as $p | getpath($p) as $v
| ("." + ($p | map(seg) | join("")) | sub("^\\.\\."; ".")) + "\u0000"
+ (if ($v | type) == "string" then
	(if ($v | test("\u0000")) then error("a string holds a NUL") else "s" + $v end)
	elif ($v | type) == "number" then "n" + ($v | tojson)
	elif ($v | type) == "boolean" then "b" + ($v | tojson)
	elif ($v | type) == "null" then "z"
	elif ($v | type) == "object" then "o"
	else "a" end) + "\u0000"'

declare -gA JSON_FILES=()
JSON_FILES_N=0

# json_load NAME FILE: fills the global associative array NAME; 0, or jq's status (NAME then
# holds what was read before the error).
# shellcheck disable=SC2034 # json_load_arr is a name reference: the caller's array is filled
json_load() {
	local -n json_load_arr=$1
	local k v rc=1
	declare -gA "$1"
	json_load_arr=()
	# jq's exit status comes as the last record, alone: bash's `wait $!` on a process
	# substitution fails now and then, silently, on a loaded machine (2 in 3000 here)
	while IFS= read -r -d '' k; do
		IFS= read -r -d '' v || {
			rc=$k
			break
		}
		json_load_arr[$k]=$v
	done < <(jq -j "$JSON_JQ_PROGRAM" "$2"; printf '%s\0' "$?")
	return "$rc"
}

# json_value NAME PATH: sets JSON_VALUE to what json_get prints (without its newline), in the
# caller's shell: no subshell for a loop's lookups. Same statuses.
json_value() {
	local -n json_value_arr=$1
	local p=$2 parent t
	JSON_VALUE=""
	if [[ -v json_value_arr[$p] ]]; then
		t=${json_value_arr[$p]}
		case "$t" in
		s* | n* | b*) JSON_VALUE=${t:1} ;;
		z) JSON_VALUE=null ;;
		*)
			echo "json_get: $p is an object or an array" >&2
			return 2
			;;
		esac
		return 0
	fi
	# Missing: jq gives null when the nearest value above is an object, an array or null.
	parent=$p
	while [[ $parent =~ ^(.*)(\.[A-Za-z_][A-Za-z0-9_]*|\[[0-9]+\]|\[\"([^\"\\]|\\.)*\"\])$ ]]; do
		parent=${BASH_REMATCH[1]}
		[ -z "$parent" ] && parent=.
		if [[ -v json_value_arr[$parent] ]]; then
			case "${json_value_arr[$parent]}" in
			o | a | z) break ;;
			*)
				echo "json_get: $parent is not an object or an array" >&2
				return 5
				;;
			esac
		fi
		[ "$parent" = . ] && break
	done
	JSON_VALUE=null
}

# json_get NAME PATH: prints the value at PATH (see the top); 0, 2 for an object or an array,
# 5 for a key of a scalar other than null.
json_get() {
	json_value "$@" || return
	printf '%s\n' "$JSON_VALUE"
}

# json_file FILE PATH: json_get on FILE, read with one jq the first time it is asked for.
json_file() {
	local n=${JSON_FILES[$1]:-}
	if [ -z "$n" ]; then
		JSON_FILES_N=$((JSON_FILES_N + 1))
		n=json_file_$JSON_FILES_N
		json_load "$n" "$1" || return
		JSON_FILES[$1]=$n
	fi
	json_get "$n" "$2"
}

# json_use FILE...: reads each FILE again into what json_file keeps; call it in the suite's own
# shell (not inside $(...), whose loads are lost) once a file is written or rewritten. A file
# jq cannot read is not kept: json_file then runs jq on it, with jq's error, each time.
json_use() {
	local f n
	for f in "$@"; do
		n=${JSON_FILES[$f]:-}
		if [ -z "$n" ]; then
			JSON_FILES_N=$((JSON_FILES_N + 1))
			n=json_file_$JSON_FILES_N
		fi
		unset 'JSON_FILES[$f]'
		json_load "$n" "$f" 2>/dev/null && JSON_FILES[$f]=$n
	done
	return 0
}

# json_object NAME KEY...: what `jq -c '{KEY, ...}'` prints for top-level scalar KEYs.
json_object() {
	local -n json_object_arr=$1
	local k t out="" sep=""
	shift
	for k in "$@"; do
		t=${json_object_arr[.$k]:-z}
		case "$t" in
		s*)
			t=${t:1}
			t=${t//\\/\\\\}
			t=${t//\"/\\\"}
			t=${t//$'\n'/\\n}
			t=${t//$'\t'/\\t}
			t=${t//$'\r'/\\r}
			t=\"$t\"
			;;
		n* | b*) t=${t:1} ;;
		z) t=null ;;
		*) return 2 ;;
		esac
		out+="$sep\"$k\":$t"
		sep=,
	done
	printf '{%s}\n' "$out"
}

# json_exprs NAME FILE KEY EXPR [KEY EXPR]...: NAME[KEY] = what `jq -rc EXPR FILE` prints
# (without its last newline), for every EXPR in one jq start: for a file read with several
# filters at one place. An EXPR that fails gives "", as the jq of its own printed nothing; so
# does every EXPR of a file jq cannot read.
# shellcheck disable=SC2034 # json_exprs_arr is a name reference: the caller's array is filled
json_exprs() {
	local -n json_exprs_arr=$1
	local file=$2 prog="" v i=0 keys=()
	declare -gA "$1"
	json_exprs_arr=()
	shift 2
	while [ $# -ge 2 ]; do
		keys+=("$1")
		json_exprs_arr[$1]=""
		prog+="${prog:+, }(try ([$2] | map(if type == \"string\" then . else tojson end)"
		prog+=" | join(\"\\n\")) catch \"\") + \"\\u0000\""
		shift 2
	done
	while IFS= read -r -d '' v; do
		json_exprs_arr[${keys[i]}]=$v
		i=$((i + 1))
	done < <(jq -j "$prog" "$file" 2>/dev/null)
}
