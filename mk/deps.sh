#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Dependency check and installer for dgrdma-tools (Debian 12).
#   mk/deps.sh check      what a plain `make` needs (compiler, pkg-config, the -dev packages);
#                         on failure prints the apt-get line, exits 1
#   mk/deps.sh check-all  also what `make check` and `make demo` run (tshark, lttng, gnuplot,
#                         clang for the fuzzers, clang-format and shellcheck for the lint suites,
#                         Wireshark's window under Xvfb with xdotool and ImageMagick's import
#                         for test_dissector_gui.sh)
#   mk/deps.sh install    installs everything with apt-get as root, otherwise prints the line
set -u

BUILD_PACKAGES="build-essential pkg-config liblttng-ust-dev libbabeltrace2-dev libpcap-dev \
libwireshark-dev wireshark-dev zlib1g-dev libjansson-dev"
CHECK_PACKAGES="lttng-tools babeltrace2 tshark gnuplot-nox iproute2 ethtool clang llvm \
libclang-rt-14-dev libcap2-bin jq xxd python3 procps util-linux clang-format shellcheck man-db \
linux-perf wireshark-qt xvfb xdotool x11-utils imagemagick-6.q16 fonts-dejavu-core inotify-tools"
PACKAGES="$BUILD_PACKAGES $CHECK_PACKAGES"
BUILD_PKGCONFIG_MODULES="lttng-ust babeltrace2 libpcap wireshark zlib jansson"
BUILD_COMMANDS="cc pkg-config"
CHECK_COMMANDS="clang tshark dumpcap editcap lttng lttng-sessiond babeltrace2 gnuplot ip ethtool jq xxd \
setpriv setcap python3 clang-format shellcheck man perf wireshark Xvfb xdotool xwininfo import inotifywait"

apt_line() {
	echo "apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $1"
}

# check_set COMMANDS PKGCONFIG_MODULES PACKAGES WHAT
check_set() {
	missing=""
	for c in $1; do
		command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
	done
	if command -v pkg-config >/dev/null 2>&1; then
		for m in $2; do
			pkg-config --exists "$m" 2>/dev/null || missing="$missing $m(pkg-config)"
		done
	fi
	if [ -n "$missing" ]; then
		echo "dgrdma-tools: missing dependencies $4:$missing" >&2
		echo "Install them with 'make deps' as root, or run:" >&2
		echo "  $(apt_line "$3")" >&2
		return 1
	fi
	return 0
}

check() {
	check_set "$BUILD_COMMANDS" "$BUILD_PKGCONFIG_MODULES" "$BUILD_PACKAGES" "to build"
}

check_all() {
	check || return 1
	check_set "$CHECK_COMMANDS" "" "$PACKAGES" "for make check and make demo"
}

install() {
	# Skip the network (and, as a normal user, the advice to become root) when everything is
	# already there.
	if check_all >/dev/null 2>&1; then
		echo "dgrdma-tools: all dependencies present: nothing to install"
		return 0
	fi
	if [ "$(id -u)" != 0 ]; then
		echo "dgrdma-tools: 'make deps' needs root to install packages. Run as root:" >&2
		echo "  $(apt_line "$PACKAGES")" >&2
		return 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	# tshark asks whether non-root users may capture; answer for it.
	echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections 2>/dev/null || true
	# shellcheck disable=SC2086 # a list of package names
	apt-get update && apt-get install -y --no-install-recommends $PACKAGES || return 1
	check_all
}

case "${1:-check}" in
check) check ;;
check-all) check_all ;;
install) install ;;
line) apt_line "$PACKAGES" ;;
*) echo "usage: $0 check|check-all|install|line" >&2; exit 2 ;;
esac
