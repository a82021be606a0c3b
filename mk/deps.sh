#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Dependency check and installer for dgrdma-tools (Debian 12).
#   mk/deps.sh check    quick check; on failure prints the apt-get line, exits 1
#   mk/deps.sh install  installs with apt-get as root, otherwise prints the line
set -u

PACKAGES="build-essential pkg-config liblttng-ust-dev lttng-tools babeltrace2 \
libbabeltrace2-dev libpcap-dev libwireshark-dev wireshark-dev tshark gnuplot-nox \
iproute2 ethtool clang llvm libclang-rt-14-dev libcap2-bin jq xxd python3 procps \
util-linux zlib1g-dev clang-format shellcheck libjansson-dev"
PKGCONFIG_MODULES="lttng-ust babeltrace2 libpcap wireshark zlib jansson"
COMMANDS="cc clang pkg-config tshark dumpcap lttng lttng-sessiond babeltrace2 gnuplot \
ip ethtool jq xxd setpriv setcap python3 clang-format shellcheck"

apt_line() {
	echo "apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $PACKAGES"
}

check() {
	missing=""
	for c in $COMMANDS; do
		command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
	done
	if command -v pkg-config >/dev/null 2>&1; then
		for m in $PKGCONFIG_MODULES; do
			pkg-config --exists "$m" 2>/dev/null || missing="$missing $m(pkg-config)"
		done
	fi
	if [ -n "$missing" ]; then
		echo "dgrdma-tools: missing dependencies:$missing" >&2
		echo "Install them with 'make deps' as root, or run:" >&2
		echo "  $(apt_line)" >&2
		return 1
	fi
	return 0
}

install() {
	if [ "$(id -u)" != 0 ]; then
		echo "dgrdma-tools: 'make deps' needs root to install packages. Run as root:" >&2
		echo "  $(apt_line)" >&2
		check >/dev/null 2>&1 && return 0
		return 1
	fi
	# Skip the network when everything is already there.
	if check >/dev/null 2>&1; then
		echo "dgrdma-tools: all dependencies present"
		return 0
	fi
	export DEBIAN_FRONTEND=noninteractive
	# tshark asks whether non-root users may capture; answer for it.
	echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections 2>/dev/null || true
	apt-get update && apt-get install -y --no-install-recommends $PACKAGES || return 1
	check
}

case "${1:-check}" in
check) check ;;
install) install ;;
line) apt_line ;;
*) echo "usage: $0 check|install|line" >&2; exit 2 ;;
esac
