#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make install / uninstall / install-user into a DESTDIR: every tool, man page, header,
# library, the pkg-config file and the Wireshark plugin land under PREFIX (the plugin in
# PREFIX's lib/wireshark/plugins/X.Y when PREFIX is not Wireshark's); the installed tools
# run and print the build's version, latency-report reads a trace with its trace reader from
# PREFIX/lib/dgrdma-tools; a program builds and runs against the installed
# libdgrdma with pkg-config (the codec and the UDP transport on 127.0.0.1); nothing of the
# tools' internal archives (stack/cli: cli.h, print.h, transport_opts.h; stack/tune: tune.h,
# libdgrtune) is installed or exported; uninstall leaves nothing behind.
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
tools="dgrdma-host dgrdma-ctl dgrdma-wire dgrdma-fpga dgrdma-capture dgrdma-tune latency-report dgrdma-plot dgrdma-clocks dgrdma-runinfo"
missing=""
for t in $tools; do
	[ -x "$P/bin/$t" ] || missing="$missing bin/$t"
	[ -f "$P/share/man/man1/$t.1" ] || missing="$missing man1/$t.1"
done
for f in lib/libdgrdma.a lib/libdgrdma.so.0 lib/libdgrdma.so lib/pkgconfig/libdgrdma.pc \
	include/dgrdma/wire.h include/dgrdma/transport.h share/dgrdma-tools/plot/common.gp \
	"lib/wireshark/plugins/$wsver/epan/dgrdma.so" share/dgrdma-tools/profiles/DG-RDMA/preferences \
	share/dgrdma-tools/profiles/DG-RDMA/recent share/dgrdma-tools/profiles/DG-RDMA/colorfilters \
	share/dgrdma-tools/profiles/DG-RDMA/io_graphs share/bash-completion/completions/dgrdma-host \
	share/bash-completion/completions/dgrdma-ctl share/bash-completion/completions/dgrdma-fpga \
	share/bash-completion/completions/latency-report share/bash-completion/completions/dgrdma-clocks \
	share/bash-completion/completions/dgrdma-wire share/bash-completion/completions/dgrdma-tune \
	share/bash-completion/completions/dgrdma-plot share/bash-completion/completions/dgrdma-capture \
	libexec/dgrdma-tools/dgrdma-opts lib/dgrdma-tools/dgrdma-trace.so; do
	[ -e "$P/$f" ] || missing="$missing $f"
done
check_eq "${missing# }" "" "every tool, man page, library, header, template, the plugin, the DG-RDMA profile, the bash completion and the trace reader under PREFIX"
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
"$P/bin/dgrdma-plot" --stalls 9 >/dev/null 2>"$D/err"
check_eq "$?:$(head -1 "$D/err")" "2:dgrdma-plot: --stalls: '9' is out of range 1..5" \
	"the installed dgrdma-plot reads its options with its table (PREFIX/libexec/dgrdma-tools/dgrdma-opts)"
"$P/bin/latency-report" --json --no-progress \
	"$DGR_SRC/test/analysis/fixtures/trace-doorbell-sent-6-fields/trace" >"$D/trace.json" 2>"$D/err"
check_eq "$?:$(jq -c '[.host.events, .host.rx.doorbells]' "$D/trace.json" 2>/dev/null)" "0:[25,1]" \
	"the installed latency-report reads a trace with its trace reader (PREFIX/lib/dgrdma-tools/dgrdma-trace.so)"
check_eq "$(ldd "$P/bin/latency-report" | grep -c babeltrace)" 0 "latency-report itself does not link libbabeltrace2"

# nothing of the tools' internal archives: no header, no archive, no symbol
check_eq "$(cd "$P" && find include lib -name 'cli.h' -o -name 'print.h' -o -name 'tune.h' \
	-o -name 'tune_priv.h' -o -name 'transport_opts.h' -o -name 'libdgrcli*' -o -name 'libdgrtune*' |
	sort | tr '\n' ' ')" "" "no header or archive of the tools' helpers (cli, print, tune) is installed"
check_eq "$(ls "$P/include/dgrdma" | tr '\n' ' ')" \
	"clock.h contract.h dcp.h host.h prefault.h proto.h ramp.h reassembly.h stats.h transport.h wire.h " \
	"the installed headers are the protocol library's: codec, DCP, reassembler, transport, connection"
# the tools' helpers' functions and option codes: dgr_parse_*, dgr_pr_*, dgr_ready_file_*,
# dgr_transport_parse_opt, dgr_tune_*, dgr_format_duration
helpers='dgr_(parse_(u64|i64|f64|rate|seconds|sched|cpulist)|pr_[a-z_]+|ready_file_[a-z]+|transport_parse_opt|tune_[a-z_]+|format_duration)$'
check_eq "$(nm -D --defined-only "$P/lib/libdgrdma.so.0" | awk '{ print $3 }' | sed 's/@.*//' |
	grep -E "$helpers" | tr '\n' ' ')" "" "libdgrdma.so.0 exports none of the tools' helpers"
check_eq "$(nm --defined-only -g "$P/lib/libdgrdma.a" 2>/dev/null | awk 'NF == 3 { print $3 }' |
	grep -E "$helpers" | tr '\n' ' ')" "" "libdgrdma.a defines none of them"
check_eq "$(grep -lE 'getopt|DGR_OPT_|dgr_pr_|dgr_parse_u64' "$P"/include/dgrdma/*.h | tr '\n' ' ')" "" \
	"no installed header holds getopt tables, option codes, the print layer or the number parsers"

# a program against the installed library, found with pkg-config: it builds a DG-RDMA frame
# with the codec, sends it to itself over the UDP transport on 127.0.0.1, receives it and
# decodes it
cat >"$D/api.c" <<'CEOF'
#include <stdio.h>
#include <string.h>
#include <dgrdma/transport.h>
#include <dgrdma/wire.h>
int main(void)
{
	char err[DGR_ERRBUF_SIZE] = "";
	struct dgr_transport_opts o;
	struct dgr_transport *t = NULL;
	struct dgr_frame_hdr hdr = { .dst_id = 1, .src_id = 2, .frame_seq = 5 };
	struct dgr_frame_builder fb;
	struct dgr_msg m = { .txn_id = 7, .flag_addr = DGR_NO_FLAG, .flag_value = DGR_NO_FLAG,
			     .num_msgs_in_txn = 1, .data_addr = 0x40, .data_len = 8 };
	static const unsigned char data[8] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4 };
	unsigned char buf[256];
	struct dgr_addr self;
	struct dgr_tx_pkt tx = { .proto = DGR_PROTO_DGRDMA };
	struct dgr_rx_pkt rx;
	struct dgr_frame f;
	int n = 0;

	dgr_transport_opts_init(&o);
	o.kind = DGR_TRANSPORT_UDP;
	if (dgr_parse_inet("127.0.0.1:0", 0, &o.bind_addr) < 0 ||
	    dgr_transport_opts_finish(&o, false, err) < 0 || dgr_transport_open(&o, &t, err) < 0) {
		fprintf(stderr, "open: %s\n", err);
		return 1;
	}
	dgr_transport_local_addr(t, &self);
	dgr_transport_set_peer(t, &self);
	if (dgr_fb_init(&fb, buf, sizeof(buf), &hdr) < 0 || dgr_fb_add(&fb, &m, data, 8) < 0) {
		return 1;
	}
	tx.data = buf;
	tx.len = dgr_fb_finish(&fb);
	if (dgr_transport_send(t, &tx, 1, err) != 1) {
		fprintf(stderr, "send: %s\n", err);
		return 1;
	}
	while (n == 0) {
		n = dgr_transport_recv(t, &rx, 1, 5000, err);
		if (n == 0) {
			fprintf(stderr, "receive: nothing within 5 s\n");
			return 1;
		}
	}
	if (n < 0 || dgr_frame_parse(&f, rx.data, rx.len, err) < 0 ||
	    dgr_frame_next_msg(&f, &m, err) != 1) {
		fprintf(stderr, "receive/decode: %s\n", err);
		return 1;
	}
	printf("frame %u from %u to %u: txn %u, %u bytes at 0x%x, %02x%02x%02x%02x, %s\n",
	       f.hdr.frame_seq, f.hdr.src_id, f.hdr.dst_id, m.txn_id, m.data_len, m.data_addr,
	       m.data[0], m.data[1], m.data[2], m.data[3],
	       dgr_addr_equal(DGR_TRANSPORT_UDP, &rx.src, &self) ? "from itself" : "from elsewhere");
	dgr_transport_close(t);
	return 0;
}
CEOF
PC=(env PKG_CONFIG_PATH="$P/lib/pkgconfig" pkg-config --define-prefix)
check_eq "$("${PC[@]}" --modversion libdgrdma)" "$version" "pkg-config: libdgrdma has the build's version"
# shellcheck disable=SC2046 # pkg-config prints separate flags
cc -o "$D/api" "$D/api.c" $("${PC[@]}" --cflags --libs libdgrdma) >"$D/cc.log" 2>&1
check_eq "$?" 0 "a program compiles and links with pkg-config --cflags --libs libdgrdma"
check_eq "$(LD_LIBRARY_PATH="$P/lib" "$D/api" 2>&1)" \
	"frame 5 from 2 to 1: txn 7, 8 bytes at 0x40, deadbeef, from itself" \
	"and runs against the installed libdgrdma.so.0: a frame built, sent, received and decoded"
check_eq "$(LD_LIBRARY_PATH="$P/lib" ldd "$D/api" | grep -c libdgrdma.so.0)" 1 \
	"the program uses the shared library"

"${MAKE[@]}" uninstall DESTDIR="$D/root" PREFIX="$PREFIX" >"$D/uninstall.log" 2>&1
check_eq "$?" 0 "make uninstall with the same DESTDIR and PREFIX succeeds"
check_eq "$(find "$D/root" -type f -o -type l | sed "s|$D/root||")" "" \
	"make uninstall removes every file install wrote"
check_eq "$(ls -d "$P/include/dgrdma" "$P/share/dgrdma-tools" "$P/lib/wireshark" \
	"$P/libexec/dgrdma-tools" "$P/lib/dgrdma-tools" 2>/dev/null)" "" \
	"and the project's own folders (include/dgrdma, share/dgrdma-tools, lib/wireshark/..., libexec/dgrdma-tools, lib/dgrdma-tools)"

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
