#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-tune apply: exact dry-run output per profile, --yes and --persist on a
# copied fake root, a failing write, JSON fields, and argument errors.
set -u
. "$DGR_SRC/test/lib/tap.sh"
TUNE="$DGR_BUILD/bin/dgrdma-tune"
FX="$DGR_SRC/test/tune/fixtures"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# same NAME WANT-FILE GOT-FILE: exact comparison with a diff on failure
same() {
	if diff -u "$2" "$3" >"$out/diff"; then
		ok "$1"
	else
		not_ok "$1"
		sed 's/^/# /' "$out/diff"
	fi
}

# ---- dry runs, exact text ----
"$TUNE" apply --profile rx --root "$FX/untuned" --if eth0 >"$out/got" 2>&1
check_eq "$?" 0 "rx dry run: exit 0"
cat >"$out/want" <<'WANT'
# dgrdma-tune apply --profile rx: dry-run
# nothing is changed; add --yes to run the commands below
sysctl -w net.core.rmem_default=50000000
sysctl -w net.core.rmem_max=50000000
sysctl -w vm.dirty_background_bytes=192000
ethtool -G eth0 rx 4096
ethtool -A eth0 autoneg off rx off tx off
# not applied (reboot or manual step):
#   a cgroup with cpuset.cpus=N-M and cpuset.cpus.partition=isolated, then move the stream into it
#     (cpuset.shield: cgroup v2: no shielded set)
#   add preempt=full to the kernel command line (reboot)
#     (kernel.preempt: voluntary (PREEMPT_DYNAMIC build default, /boot/config-6.1.0-13-amd64; 6.1.0-13-amd64))
#   boot a kernel with CONFIG_HZ_1000, e.g. linux-image-lowlatency (reboot)
#     (kernel.hz: 250 (/boot/config-6.1.0-13-amd64))
# NIC settings are reset at reboot
# not persistent: add --persist to write /etc/sysctl.d/90-dgrdma.conf
# 0 failed
WANT
same "rx dry run on the untuned host: exact commands" "$out/want" "$out/got"

"$TUNE" apply --profile tx --root "$FX/bond" --if bond0 --persist --dry-run >"$out/got" 2>&1
cat >"$out/want" <<'WANT'
# dgrdma-tune apply --profile tx: dry-run
# nothing is changed; add --yes to run the commands below
sysctl -w net.core.wmem_default=50000000
sysctl -w net.core.wmem_max=50000000
sysctl -w vm.dirty_background_bytes=192000
ethtool -G enp10s0f0 tx 4096
# skip: enp10s0f1 TX ring is already 4096 of 4096
# skip: enp10s0f0 pause frames are already off
ethtool -A enp10s0f1 autoneg off rx off tx off
# not applied (reboot or manual step):
#   check cpuset.shield by hand
#     (cpuset.shield: unknown (no cpuset controller under /sys/fs/cgroup (v1 or v2)))
#   check kernel.hz by hand
#     (kernel.hz: unknown (no kernel config (/boot/config-RELEASE, /proc/config.gz)))
#   set coalesce_wait_d to 0 for dgrdma_config_dev in system.xml
#     (guide "Reducing the Coalesce Wait Parameter": coalesced doorbells empty the FPGA buffers)
# NIC settings are reset at reboot
# would write /etc/sysctl.d/90-dgrdma.conf:
#   # Written by dgrdma-tune apply --profile tx --persist
#   # (OpenCPI Ethernet transport tuning guide). Load now: sysctl --system
#   net.core.wmem_default = 50000000
#   net.core.wmem_max = 50000000
#   vm.dirty_background_bytes = 192000
# 0 failed
WANT
same "tx dry run on a bond: each slave, exact commands and persistent file" "$out/want" "$out/got"
check "dry run with --persist wrote nothing" test ! -e "$FX/bond/etc"

"$TUNE" apply --profile rx-dmcrypt --root "$FX/dmcrypt-no-flag" >"$out/got" 2>&1
cat >"$out/want" <<'WANT'
# dgrdma-tune apply --profile rx-dmcrypt: dry-run
# nothing is changed; add --yes to run the commands below
# skip: net.core.rmem_default is already 50000000
# skip: net.core.rmem_max is already 50000000
# skip: vm.dirty_background_bytes is already 192000
# skip: no --if IFACE given: NIC settings not planned
# not applied (reboot or manual step):
#   "@GROUP - rtprio 99" in /etc/security/limits.conf, or setcap cap_sys_nice+ep on the stream binary
#     (rt.priority: RLIMIT_RTPRIO soft 0 hard 0, CAP_SYS_NICE no)
#   cryptsetup refresh --perf-same_cpu_crypt dm_crypt-0 (repeat its other --perf-* flags)
#     (dmcrypt.same_cpu_crypt: off (flags: allow_discards))
#   check dmcrypt.same_cpu_crypt by hand
#     (dmcrypt.same_cpu_crypt: unknown (no table fixture dgrdma-tune/dm/swap_crypt))
#   start the stream with chrt --fifo 99 COMMAND
#     (guide "Increasing Realtime Priority": helped with same_cpu_crypt on dm-crypt hosts)
# not persistent: add --persist to write /etc/sysctl.d/90-dgrdma.conf
# 0 failed
WANT
same "rx-dmcrypt dry run: same_cpu_crypt and RT steps listed, not applied" "$out/want" "$out/got"

# ---- --yes --persist on a copy of the untuned host ----
cp -a "$FX/untuned" "$out/root"
"$TUNE" apply --profile rx --root "$out/root" --if eth0 --yes --persist >"$out/got" 2>&1
check_eq "$?" 0 "rx --yes: exit 0"
check_eq "$(grep -c '^applied: ' "$out/got")" 5 "rx --yes: five actions applied"
check "rx --yes: pause line" grep -qx 'applied: ethtool -A eth0 autoneg off rx off tx off' "$out/got"
check "rx --yes: ring line" grep -qx 'applied: ethtool -G eth0 rx 4096' "$out/got"
check "rx --yes: persistent file reported" grep -qx 'wrote /etc/sysctl.d/90-dgrdma.conf' "$out/got"
check_eq "$(cat "$out/root/proc/sys/net/core/rmem_default")" 50000000 "rx --yes: rmem_default written"
check_eq "$(cat "$out/root/proc/sys/net/core/rmem_max")" 50000000 "rx --yes: rmem_max written"
check_eq "$(cat "$out/root/proc/sys/net/core/wmem_max")" 212992 "rx --yes: wmem_max untouched"
check_eq "$(cat "$out/root/proc/sys/vm/dirty_background_bytes")" 192000 "rx --yes: dirty bytes written"
check_eq "$(grep '^ring\.' "$out/root/dgrdma-tune/ethtool/eth0" | tr '\n' ' ')" \
	"ring.rx_max 4096 ring.rx 4096 ring.tx_max 4096 ring.tx 512 " "rx --yes: RX ring set, TX kept"
check_eq "$(grep '^pause\.' "$out/root/dgrdma-tune/ethtool/eth0" | tr '\n' ' ')" \
	"pause.autoneg 0 pause.rx 0 pause.tx 0 " "rx --yes: pause frames off in the fixture"
printf '%s\n' "# Written by dgrdma-tune apply --profile rx --persist" \
	"# (OpenCPI Ethernet transport tuning guide). Load now: sysctl --system" \
	"net.core.rmem_default = 50000000" "net.core.rmem_max = 50000000" \
	"vm.dirty_background_bytes = 192000" >"$out/want"
same "rx --persist: /etc/sysctl.d/90-dgrdma.conf under the root, exact" "$out/want" \
	"$out/root/etc/sysctl.d/90-dgrdma.conf"
"$TUNE" apply --profile rx --root "$out/root" --if eth0 --only sysctl >"$out/got" 2>&1
check_eq "$(grep -c '^# skip: .* is already' "$out/got")" 3 "second run: every sysctl already set"
"$TUNE" check --json --root "$out/root" --if eth0 >"$out/after.json"
check_eq "$(jq -r '.items[] | select(.id == "nic.ring.rx") | .status' "$out/after.json")" ok \
	"check after apply: RX ring ok"

# ---- --only rings, a write that fails, a veth without rings ----
cp -a "$FX/untuned" "$out/root2"
rm "$out/root2/proc/sys/net/core/rmem_max" && mkdir "$out/root2/proc/sys/net/core/rmem_max"
"$TUNE" apply --profile rx --root "$out/root2" --only sysctl --yes >"$out/got" 2>&1
check_eq "$?" 3 "failed write: exit 3 (an action failed)"
check "failed write: named with the reason" grep -q \
	'^failed: sysctl -w net.core.rmem_max=50000000: .*rmem_max: Is a directory' "$out/got"
check_eq "$(tail -1 "$out/got")" "# 1 failed" "failed write: count"
"$TUNE" apply --profile rx --root "$out/root2" --if eth0 --only rings --yes >"$out/got" 2>&1
check_eq "$(grep -c '^applied: \|^# skip' "$out/got")" 1 "--only rings: only the ring action"
check "--only rings: no manual section" bash -c "! grep -q 'not applied' '$out/got'"
cp -a "$FX/bond" "$out/root3"
"$TUNE" apply --profile rx --root "$out/root3" --if veth0 --only rings --yes >"$out/got" 2>&1
check_eq "$?" 0 "veth fixture: exit 0"
check "veth fixture: reports no ring parameters" grep -qx \
	'# skip: veth0 has no ring parameters to set: Operation not supported: the driver does not expose these parameters' \
	"$out/got"
"$TUNE" apply --profile rx --root "$out/root3" --if veth0 --only pause --yes >"$out/got" 2>&1
check "veth fixture: reports no pause parameters" grep -qx \
	'# skip: veth0 has no pause parameters to set: Operation not supported: the driver does not expose these parameters' \
	"$out/got"
"$TUNE" apply --profile tx --root "$out/root3" --if bond0 --only rings --yes >"$out/got" 2>&1
check_eq "$(grep '^applied\|^# skip' "$out/got" | tr '\n' '|')" \
	"applied: ethtool -G enp10s0f0 tx 4096|# skip: enp10s0f1 TX ring is already 4096 of 4096|" \
	"bond --yes: the slave below its maximum set, the other skipped"
check_eq "$(grep '^ring\.tx ' "$out/root3/dgrdma-tune/ethtool/enp10s0f0")" "ring.tx 4096" \
	"bond --yes: slave TX ring written"
check_eq "$(grep '^ring\.rx ' "$out/root3/dgrdma-tune/ethtool/enp10s0f0")" "ring.rx 512" \
	"bond --yes: slave RX ring kept"

"$TUNE" apply --profile rx --root "$out/root3" --if bond0 --only rings --persist >"$out/got" 2>&1
check "--persist without sysctls says so" grep -qx \
	'# --persist: no sysctl in this plan, nothing to write' "$out/got"

# without privileges: the failure names the fix (run as root), nothing is written
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	cp -a "$FX/untuned" "$out/root4"
	chmod -R a+rX "$out/root4" && chmod a+x "$out"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$TUNE" apply --profile rx \
		--root "$out/root4" --only sysctl --yes >"$out/got" 2>&1
	check_eq "$?" 3 "unprivileged --yes: exit 3"
	check "unprivileged --yes: permission named with the fix" grep -q \
		'^failed: sysctl -w net.core.rmem_default=50000000: .*Permission denied: needs root' \
		"$out/got"
	check_eq "$(cat "$out/root4/proc/sys/net/core/rmem_default")" 212992 \
		"unprivileged --yes: value unchanged"
else
	skip "needs root and setpriv to run a command as nobody"
	skip "needs root and setpriv to run a command as nobody"
	skip "needs root and setpriv to run a command as nobody"
fi

# ---- JSON of apply ----
"$TUNE" apply --profile rx --root "$FX/untuned" --if eth0 --json >"$out/a.json"
check_eq "$(jq -r '.mode' "$out/a.json")" dry-run "json: mode"
check_eq "$(jq -r '.profile' "$out/a.json")" rx "json: profile"
check_eq "$(jq -c '[.actions[] | select(.kind != "manual") | [.kind, .target, .result]]' "$out/a.json")" \
	'[["sysctl","net.core.rmem_default","planned"],["sysctl","net.core.rmem_max","planned"],["sysctl","vm.dirty_background_bytes","planned"],["ring","eth0","planned"],["pause","eth0","planned"]]' \
	"json: runtime actions"
check_eq "$(jq -r '.actions[3].note' "$out/a.json")" "eth0 RX ring is 512 of 4096" "json: ring note"
check_eq "$(jq -r '.actions[4].note' "$out/a.json")" "eth0 pause frames: autoneg off, rx on, tx on" \
	"json: pause note"
check_eq "$(jq -r '[.actions[] | select(.kind == "manual")] | length' "$out/a.json")" 3 \
	"json: three manual steps"
check_eq "$(jq -c '.persist' "$out/a.json")" \
	'{"path":"/etc/sysctl.d/90-dgrdma.conf","result":"not requested","error":null}' "json: persist"
check_eq "$(jq -r '.failed' "$out/a.json")" 0 "json: failed"

# ---- argument errors name the option and the accepted values ----
err() { # WANT-STDERR ARGS...
	local want=$1
	shift
	"$TUNE" "$@" >/dev/null 2>"$out/err"
	local rc=$?
	check_eq "$rc:$(head -1 "$out/err")" "2:$want" "error: $*"
}
err "dgrdma-tune: invalid --profile 'fast': expected rx, rx-dmcrypt or tx" apply --profile fast
err "dgrdma-tune: invalid --regime 'slow': expected healthy, jitter-bound or throughput-bound" \
	check --regime slow
err "dgrdma-tune: invalid --only 'disks': expected sysctl, rings, pause or all" apply --profile rx --only disks
err "dgrdma-tune: invalid --if 'averyveryverylongname': expected an interface name of 1..15 characters" \
	check --if averyveryverylongname
err "dgrdma-tune: invalid --root '/nonexistent/tune': expected an existing folder" \
	check --root /nonexistent/tune
err "dgrdma-tune apply: --profile is required (rx, rx-dmcrypt or tx)" apply
err "dgrdma-tune apply: --yes and --dry-run exclude each other" apply --profile rx --yes --dry-run
err "dgrdma-tune check: option '--yes' belongs to 'apply'" check --yes
err "dgrdma-tune apply: option '--regime' belongs to 'check'" apply --profile rx --regime healthy
err "dgrdma-tune check: --relevant needs --regime" check --relevant
err "dgrdma-tune: unknown command 'tune': expected check or apply" tune
err "dgrdma-tune: unexpected argument 'extra'" check extra

# usage() lists every long option of the option table
"$TUNE" --help >"$out/usage"
check_eq "$?" 0 "--help exits 0"
missing=""
for o in $(grep -o '{ "[a-z-]*", [a-z_]*_argument' "$DGR_SRC/stack/tune/dgrdma-tune.c" | cut -d'"' -f2); do
	grep -q -- "--$o" "$out/usage" || missing="$missing $o"
done
check_eq "$missing" "" "usage lists every option"
done_testing
