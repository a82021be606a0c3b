#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# libdgrdma.so exports exactly the public API: every function and variable declared in
# stack/include/dgrdma/*.h that the library defines, and nothing else. Internal functions
# that share the dgr_ prefix stay local (the version script from mk/exports.sh decides).
. "$DGR_SRC/test/lib/tap.sh"

SO="$DGR_BUILD/lib/libdgrdma.so"
A="$DGR_BUILD/lib/libdgrdma.a"
require_built "$DGR_BUILD/lib" libdgrdma.so
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

"$DGR_SRC/mk/exports.sh" cc -std=gnu11 -D_GNU_SOURCE | sed -n 's/^\t\([a-z_][a-z0-9_]*\);$/\1/p' |
	sort -u >"$T/api"
check "the public headers declare an API ($(wc -l <"$T/api") names)" test "$(wc -l <"$T/api")" -gt 50
# exported: defined dynamic symbols with the library's version
nm -D --defined-only "$SO" | awk '$3 ~ /@@LIBDGRDMA_0$/ { sub(/@@.*/, "", $3); print $3 }' |
	sort -u >"$T/exported"
# everything the library defines globally (the static archive has no version script)
nm --defined-only -g "$A" | awk 'NF == 3 && $2 ~ /[TDRBV]/ { print $3 }' | sort -u >"$T/defined"

check_eq "$(comm -23 "$T/exported" "$T/api" | tr '\n' ' ')" "" \
	"nothing is exported that no public header declares"
check_eq "$(nm -D --defined-only "$SO" | awk '$2 ~ /[TDRBV]/ && $3 !~ /@@LIBDGRDMA_0$/ { print $3 }' | tr '\n' ' ')" "" \
	"every exported symbol carries the version LIBDGRDMA_0"
check_eq "$(comm -12 "$T/api" "$T/defined" | comm -23 - "$T/exported" | tr '\n' ' ')" "" \
	"every public function the library defines is exported"
internal=$(comm -23 "$T/defined" "$T/api" | grep -c '^dgr_')
check "internal dgr_ functions exist in the archive ($internal) and none is exported" \
	test "$internal" -gt 0 -a -z "$(comm -23 "$T/defined" "$T/api" | grep '^dgr_' | comm -12 - "$T/exported")"
done_testing
