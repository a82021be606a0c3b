#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The installed library is the protocol library, and stack/ has no file cycles
# (docs/architecture.md, "Layers"):
#  - no file cycle: inside each part of stack/ (the library stack/src, the tools' archive
#    stack/cli, libdgrtune stack/tune, dgrdma-host stack/tools/host), file A -> file B when
#    an undefined symbol of A's object is defined by B's (nm); the graph has no loop (tsort);
#  - layers: the library calls nothing of stack/cli, stack/tune or the tools; stack/cli
#    calls nothing of stack/tune or the tools; the library's sources and public headers
#    include no header of stack/cli or stack/tune, and transport.h holds no getopt table;
#  - analysis/ and dissectors/ include nothing of stack/'s private code (no ../ path into
#    stack/, no header of stack/src), and nothing at all by a ../ path: each folder of
#    analysis/ is on the include path (analysis/module.mk);
#  - the analysis engine (analysis/engine/, libdgrengine.a, shared with the plugin) includes
#    only its own headers and the library's, and calls nothing of the rest of analysis/.
# make check: compute only
. "$DGR_SRC/test/lib/tap.sh"
cd "$DGR_SRC" || exit 1
OBJ="$DGR_BUILD/obj"
if [ ! -f "$OBJ/stack/src/transport.o" ]; then
	bail "$OBJ/stack/src/transport.o not built (make all)"
fi
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

export LC_ALL=C # join and comm want sort's order

# objs PART [EXCLUDE]: the objects of a part of stack/ whose source is there, one path a line
# (an object left in a build folder by a file since moved is not part of it)
objs() {
	local o name

	find "$OBJ/$1" -maxdepth 1 -name '*.o' ${2:+! -name "$2"} | sort | while read -r o; do
		name=${o##*/}
		[ -f "$DGR_SRC/$1/${name%.o}.c" ] && echo "$o"
	done
}
# defs FILE...: "symbol object" for every global symbol the objects define (one nm)
defs() {
	nm -A --defined-only -g "$@" | awk '{ f = $1; sub(/:.*/, "", f); sub(/.*\//, "", f); print $NF, f }' |
		sort -u
}
# uses FILE...: "symbol object" for every symbol the objects use and do not define
uses() {
	nm -A -u "$@" | awk '{ f = $1; sub(/:.*/, "", f); sub(/.*\//, "", f); print $NF, f }' | sort -u
}
# edges FILE...: "A B" when object A uses a symbol object B of the same list defines
edges() {
	defs "$@" >"$T/defs"
	uses "$@" | join - "$T/defs" | awk '$2 != $3 { print $2, $3 }' | sort -u
}

declare -A parts=([stack/src]="" [stack/cli]="" [stack/tune]=dgrdma-tune.o [stack/tools/host]="")
for part in stack/src stack/cli stack/tune stack/tools/host; do
	mapfile -t files < <(objs "$part" "${parts[$part]}")
	if [ "${#files[@]}" -lt 2 ]; then
		not_ok "$part: objects built (found ${#files[@]} in $OBJ/$part)"
		continue
	fi
	edges "${files[@]}" >"$T/edges"
	n=$(wc -l <"$T/edges")
	# tsort prints the loop's members on stderr and fails when the graph has one
	if loop=$(tsort "$T/edges" 2>&1 >/dev/null); then
		ok "$part: no file cycle (${#files[@]} files, $n calls between them)"
	else
		not_ok "$part: no file cycle (${#files[@]} files, $n calls between them)"
		diag "tsort: $(echo "$loop" | tr '\n' ' ')"
	fi
	check "$part: the call graph was read ($n edges)" test "$n" -gt 0
done

# layers: what a lower layer's objects use that a higher layer defines
mapfile -t lib < <(objs stack/src)
mapfile -t cli < <(objs stack/cli)
mapfile -t tune < <(objs stack/tune)
mapfile -t tools < <(find "$OBJ/stack/tools" -name '*.o' | sort)
uses "${lib[@]}" | awk '{ print $1 }' | sort -u >"$T/lib.u"
uses "${cli[@]}" | awk '{ print $1 }' | sort -u >"$T/cli.u"
defs "${lib[@]}" | awk '{ print $1 }' | sort -u >"$T/lib.d"
defs "${cli[@]}" "${tune[@]}" "${tools[@]}" | awk '{ print $1 }' | sort -u >"$T/above-lib"
defs "${tune[@]}" "${tools[@]}" | awk '{ print $1 }' | sort -u >"$T/above-cli"
check_eq "$(comm -12 "$T/lib.u" "$T/above-lib" | tr '\n' ' ')" "" \
	"the library (stack/src) calls nothing of stack/cli, stack/tune or the tools"
check_eq "$(comm -12 "$T/cli.u" "$T/above-cli" | tr '\n' ' ')" "" \
	"the tools' archive (stack/cli) calls nothing of stack/tune or the tools"
# the archive does use the library (dgr_errbuf_set, the transport options): the check reads
n=$(comm -12 "$T/cli.u" "$T/lib.d" | wc -l)
check "the tools' archive uses the library ($n symbols)" test "$n" -gt 0

# includes: the library's sources and public headers
bad=$(grep -HnE '^#[[:space:]]*include[[:space:]]*[<"](cli|print|tune|tune_priv|transport_opts)\.h[>"]' \
	stack/src/*.[ch] stack/include/dgrdma/*.h)
check_eq "$bad" "" "the library's sources and public headers include no header of stack/cli or stack/tune"
check_eq "$(grep -lE 'getopt|DGR_OPT_|LONGOPTS' stack/include/dgrdma/*.h | tr '\n' ' ')" "" \
	"no public header holds a getopt table or option codes"
check_eq "$(find stack/include/dgrdma -regextype egrep -regex '.*/(cli|print|tune|transport_opts)\.h' | tr '\n' ' ')" "" \
	"no tools' header among the public ones"

# the plugin and the analysis reach no private code of stack/
bad=$(grep -rHnE '^#[[:space:]]*include[[:space:]]*"([^"]*\.\./)+stack/|^#[[:space:]]*include[[:space:]]*"(acktrack|conn_priv|ring|transport_priv)\.h"' \
	analysis dissectors --include='*.c' --include='*.h')
check_eq "$bad" "" "analysis/ and dissectors/ include no private header of stack/ (no ../ path into it)"
check_eq "$(grep -hE -- '-I *stack/src|-iquote *stack/src' analysis/module.mk dissectors/module.mk | tr '\n' ' ')" "" \
	"analysis/ and dissectors/ are built without stack/src on their include path"

# the analysis room: headers by name, the engine a layer of its own
bad=$(grep -rHnE '^#[[:space:]]*include[[:space:]]*"\.\./' analysis dissectors --include='*.c' --include='*.h')
check_eq "$bad" "" "analysis/ and dissectors/ include nothing by a ../ path"
bad=""
while IFS=: read -r file line inc; do
	name=$(echo "$inc" | sed -E 's/^#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1/')
	[ -f "analysis/engine/$name" ] || bad="$bad $file:$line:$name"
done < <(grep -HnE '^#[[:space:]]*include[[:space:]]*"' analysis/engine/*.[ch])
check_eq "${bad# }" "" "the engine (analysis/engine/) includes only its own headers in quotes"
engine="$DGR_BUILD/lib/libdgrengine.a"
# the objects of the rest of analysis/ whose source is there (not one left by a moved file)
mapfile -t room < <(find "$OBJ/analysis" -name '*.o' ! -path "$OBJ/analysis/engine/*" | sort |
	while read -r o; do
		src=${o#"$OBJ/"}
		[ -f "$DGR_SRC/${src%.o}.c" ] && echo "$o"
	done)
if [ ! -f "$engine" ] || [ "${#room[@]}" -lt 10 ]; then
	not_ok "libdgrengine.a and the rest of analysis/ built (found ${#room[@]} objects)"
else
	uses "$engine" | awk '{ print $1 }' | sort -u >"$T/engine.u"
	defs "${room[@]}" | awk '{ print $1 }' | sort -u >"$T/room.d"
	check_eq "$(comm -12 "$T/engine.u" "$T/room.d" | tr '\n' ' ')" "" \
		"the engine (libdgrengine.a) calls nothing of the rest of analysis/ (${#room[@]} objects)"
	# the check reads: the rest of analysis/ does call the engine
	defs "$engine" | awk '{ print $1 }' | sort -u >"$T/engine.d"
	uses "${room[@]}" | awk '{ print $1 }' | sort -u >"$T/room.u"
	n=$(comm -12 "$T/room.u" "$T/engine.d" | wc -l)
	check "the rest of analysis/ calls the engine ($n symbols)" test "$n" -gt 0
fi
done_testing
