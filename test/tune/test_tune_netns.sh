#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-tune on a real veth inside a network namespace this test creates and
# deletes: `apply --yes --only rings` must either change the ring sizes through
# ETHTOOL_SRINGPARAM or report that the veth has none; which of the two must
# agree with `ethtool -g` (an independent reader). Sysctls are never written
# here (they are global): only their dry run is checked against /proc.
set -u
. "$DGR_SRC/test/lib/tap.sh"
TUNE="$DGR_BUILD/bin/dgrdma-tune"

if [ "$(id -u)" != 0 ] && [ -z "${DGR_TUNE_IN_USERNS:-}" ]; then
	if unshare --user --map-root-user --net true 2>/dev/null; then
		DGR_TUNE_IN_USERNS=1 exec unshare --user --map-root-user --net "$0" "$@"
	fi
	skip "needs root or unprivileged user namespaces (unshare --user --net)"
	done_testing
	exit 0
fi

out=$(mktemp -d)
ns="tune$$"
va="tune$$a"
vb="tune$$b"
cleanup() {
	if [ -z "${DGR_TUNE_IN_USERNS:-}" ]; then
		ip netns del "$ns" 2>/dev/null
	fi
	rm -rf "$out"
}
trap cleanup EXIT

# in_ns CMD...: run inside the test namespace (already inside one under unshare)
if [ -n "${DGR_TUNE_IN_USERNS:-}" ]; then
	in_ns() { "$@"; }
else
	ip netns add "$ns" || { not_ok "ip netns add $ns"; done_testing; exit 1; }
	in_ns() { ip netns exec "$ns" "$@"; }
fi
in_ns ip link add "$va" type veth peer name "$vb" && in_ns ip link set "$va" up &&
	in_ns ip link set "$vb" up
check_eq "$?" 0 "veth pair $va/$vb created in the test namespace"

if in_ns ethtool -g "$va" >"$out/ethtool" 2>&1; then
	has_rings=yes
else
	has_rings=no
fi
diag "ethtool -g $va: rings $has_rings ($(head -1 "$out/ethtool"))"

in_ns "$TUNE" apply --profile rx --if "$va" --only rings --yes >"$out/apply" 2>&1
rc=$?
sed 's/^/# /' "$out/apply"
check_eq "$rc" 0 "apply --yes on the veth: exit 0"
if [ "$has_rings" = no ]; then
	check "apply --yes: reports that the veth has no ring parameters" grep -qx \
		"# skip: $va has no ring parameters to set: Operation not supported: the driver does not expose these parameters" \
		"$out/apply"
	in_ns "$TUNE" check --json --if "$va" >"$out/check.json"
	check_eq "$(jq -r '.items[] | select(.id == "nic.ring.rx") | .status + " " + .subject' "$out/check.json")" \
		"unknown $va" "check: RX ring of the veth unknown, not a pass"
	check_eq "$(jq -r '.items[] | select(.id == "nic.ring.rx") | .current' "$out/check.json")" \
		"unknown (Operation not supported: the driver does not expose these parameters)" \
		"check: the reason is the ioctl's EOPNOTSUPP"
else
	max=$(awk '/Pre-set maximums/ {m=1} m && /^RX:/ {print $2; exit}' "$out/ethtool")
	cur=$(in_ns ethtool -g "$va" | awk '/Current hardware/ {c=1} c && /^RX:/ {print $2; exit}')
	check_eq "$cur" "$max" "apply --yes: ethtool -g shows the RX ring at its maximum"
	check "apply --yes: the ring action is reported" grep -Eq \
		"^(applied: ethtool -G $va rx $max|# skip: $va RX ring is already $max of $max)$" "$out/apply"
fi

# Pause frames: the same rule, with ethtool -a as the independent reader.
if in_ns ethtool -a "$va" >"$out/ethtool-a" 2>&1; then has_pause=yes; else has_pause=no; fi
in_ns "$TUNE" apply --profile rx --if "$va" --only pause --yes >"$out/pause" 2>&1
check_eq "$?" 0 "apply --yes --only pause on the veth: exit 0"
if [ "$has_pause" = no ]; then
	check "apply --yes: reports that the veth has no pause parameters" grep -qx \
		"# skip: $va has no pause parameters to set: Operation not supported: the driver does not expose these parameters" \
		"$out/pause"
else
	check_eq "$(in_ns ethtool -a "$va" | awk '/^RX:/ {r=$2} /^TX:/ {t=$2} END {print r t}')" "offoff" \
		"apply --yes: ethtool -a shows pause frames off"
fi

in_ns "$TUNE" check --json --if "nosuch$$" >"$out/nodev.json"
check_eq "$(jq -r '.items[] | select(.id == "nic.pause") | .current' "$out/nodev.json")" \
	"unknown (no such interface)" "check: a missing interface is named"

# Sysctls: dry run only, compared with what /proc says.
in_ns "$TUNE" apply --profile tx --only sysctl >"$out/sysctl" 2>&1
want=0
for s in wmem_default wmem_max; do
	[ "$(cat /proc/sys/net/core/$s)" -lt 50000000 ] && want=$((want + 1))
done
b=$(cat /proc/sys/vm/dirty_background_bytes)
{ [ "$b" -eq 0 ] || [ "$b" -gt 192000 ]; } && want=$((want + 1))
check_eq "$(grep -c '^sysctl -w ' "$out/sysctl")" "$want" "tx dry run: the sysctls /proc says are off"
check_eq "$(grep -c '^sysctl -w \|^# skip: ' "$out/sysctl")" 3 "tx dry run: three sysctls considered"
done_testing
