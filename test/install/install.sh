#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make install / uninstall / install-user into a DESTDIR: every tool, man page, header,
# library, the pkg-config file and the Wireshark plugin land under PREFIX (the plugin in
# PREFIX's lib/wireshark/plugins/X.Y when PREFIX is not Wireshark's); the installed tools
# run and print the build's version; a program builds and runs against the installed
# libdgrdma with pkg-config; uninstall leaves nothing behind.
. "$DGR_SRC/test/lib/tap.sh"

D=$(mktemp -d "${TMPDIR:-/tmp}/dgrdma-install.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
PREFIX=/opt/dgrt
P="$D/root$PREFIX"
MAKE=(make -C "$DGR_SRC" --no-print-directory SAN="${SAN:-0}")
wsver=$(pkg-config --modversion wireshark | cut -d. -f1,2)

"${MAKE[@]}" install DESTDIR="$D/root" PREFIX="$PREFIX" >"$D/install.log" 2>&1
check_eq "$?" 0 "make install DESTDIR=... PREFIX=$PREFIX succeeds"
# the version this build wrote (make install rebuilds what the tree changed since)
version=$(sed -n 's/^#define DGR_VERSION "\(.*\)"$/\1/p' "$DGR_BUILD/gen/dgrdma-version.h")
tools="dgrdma-host dgrdma-ctl dgrdma-wire dgrdma-fpga dgrdma-capture dgrdma-tune latency-report dgrdma-plot dgrdma-clocks"
missing=""
for t in $tools; do
	[ -x "$P/bin/$t" ] || missing="$missing bin/$t"
	[ -f "$P/share/man/man1/$t.1" ] || missing="$missing man1/$t.1"
done
for f in lib/libdgrdma.a lib/libdgrdma.so.0 lib/libdgrdma.so lib/pkgconfig/libdgrdma.pc \
	include/dgrdma/wire.h include/dgrdma/cli.h share/dgrdma-tools/plot/common.gp \
	"lib/wireshark/plugins/$wsver/epan/dgrdma.so" share/dgrdma-tools/profiles/DG-RDMA/preferences \
	share/dgrdma-tools/profiles/DG-RDMA/recent share/dgrdma-tools/profiles/DG-RDMA/colorfilters \
	share/dgrdma-tools/profiles/DG-RDMA/io_graphs; do
	[ -e "$P/$f" ] || missing="$missing $f"
done
check_eq "${missing# }" "" "every tool, man page, library, header, template, the plugin and the DG-RDMA profile under PREFIX"
check_eq "$(find "$D/root" -path "$D/root$PREFIX" -prune -o -type f -print)" "" \
	"nothing is written outside DESTDIR/PREFIX (the plugin included)"

got=""
for t in $tools dgrdma-clocks; do
	line=$("$P/bin/$t" --version 2>&1)
	[ "$line" = "$t (dgrdma-tools) $version" ] || got="$got [$line]"
done
check_eq "${got# }" "" "each installed tool prints '<tool> (dgrdma-tools) $version' with --version"
"$P/bin/dgrdma-plot" --help >/dev/null 2>&1
check_eq "$?" 0 "the installed dgrdma-plot finds its templates under PREFIX/share"

# a program against the installed library, found with pkg-config
cat >"$D/api.c" <<'CEOF'
#include <stdio.h>
#include <dgrdma/cli.h>
int main(void)
{
	char err[DGR_ERRBUF_SIZE];
	uint64_t v = 0;
	int rc = dgr_parse_u64("--buffer-size", "32K", 64, 1u << 21, true, &v, err);
	printf("%d %llu\n", rc, (unsigned long long)v);
	return rc != 0;
}
CEOF
PC=(env PKG_CONFIG_PATH="$P/lib/pkgconfig" pkg-config --define-prefix)
check_eq "$("${PC[@]}" --modversion libdgrdma)" "$version" "pkg-config: libdgrdma has the build's version"
# shellcheck disable=SC2046 # pkg-config prints separate flags
cc -o "$D/api" "$D/api.c" $("${PC[@]}" --cflags --libs libdgrdma) >"$D/cc.log" 2>&1
check_eq "$?" 0 "a program compiles and links with pkg-config --cflags --libs libdgrdma"
check_eq "$(LD_LIBRARY_PATH="$P/lib" "$D/api" 2>&1)" "0 32768" \
	"and runs against the installed libdgrdma.so.0"

"${MAKE[@]}" uninstall DESTDIR="$D/root" PREFIX="$PREFIX" >"$D/uninstall.log" 2>&1
check_eq "$?" 0 "make uninstall with the same DESTDIR and PREFIX succeeds"
check_eq "$(find "$D/root" -type f -o -type l | sed "s|$D/root||")" "" \
	"make uninstall removes every file install wrote"
check_eq "$(ls -d "$P/include/dgrdma" "$P/share/dgrdma-tools" "$P/lib/wireshark" 2>/dev/null)" "" \
	"and the project's own folders (include/dgrdma, share/dgrdma-tools, lib/wireshark/...)"

# the personal plugin folder: HOME's ~/.local/lib/wireshark/plugins/X.Y/epan
mkdir -p "$D/home"
HOME="$D/home" "${MAKE[@]}" install-user >"$D/user.log" 2>&1
check_eq "$?/$(find "$D/home" -type f | sed "s|$D/home/||" | sort | paste -sd' ')" \
	"0/.config/wireshark/profiles/DG-RDMA/colorfilters .config/wireshark/profiles/DG-RDMA/io_graphs \
.config/wireshark/profiles/DG-RDMA/preferences .config/wireshark/profiles/DG-RDMA/recent .local/lib/wireshark/plugins/$wsver/epan/dgrdma.so" \
	"make install-user puts the plugin and the DG-RDMA profile in the personal folders, nothing else"
HOME="$D/home" "${MAKE[@]}" uninstall-user >>"$D/user.log" 2>&1
check_eq "$?/$(find "$D/home" -type f | wc -l)" "0/0" "make uninstall-user removes them"

[ "$TAP_FAILED" = 0 ] || diag "$(tail -20 "$D/install.log" "$D/uninstall.log" "$D/user.log" "$D/cc.log" 2>/dev/null)"
done_testing
