#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dgrdma-tune check against the fake-root fixtures: JSON checked field by field
# with jq, exit statuses, --regime/--relevant, the text form, and this host.
set -u
. "$DGR_SRC/test/lib/tap.sh"
TUNE="$DGR_BUILD/bin/dgrdma-tune"
FX="$DGR_SRC/test/tune/fixtures"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# run NAME ARGS...: check --json under fixture NAME into $out/NAME.json, status in $out/NAME.rc
run() {
	local name=$1
	shift
	"$TUNE" check --json --root "$FX/$name" "$@" >"$out/$name.json" 2>"$out/$name.err"
	echo $? >"$out/$name.rc"
	items_load "$name"
}
# items_load NAME: every field of every item of $out/NAME.json, as get gives it, read by one
# jq into ITEMS["NAME<US>ID<US>SUBJECT<US>FIELD"] (the first item of an id and subject wins),
# so that get starts no process (a jq per field was 182 starts, 28 ms of CPU each). A report
# that jq cannot read this way is not kept: get then runs its own jq, with its error.
declare -A ITEMS=() ITEMS_OF=()
items_load() {
	local k v key
	for key in "${!ITEMS[@]}"; do
		[[ $key == "$1"$'\x1f'* ]] && unset 'ITEMS[$key]'
	done
	unset 'ITEMS_OF[$1]'
	# jq's exit status comes last, alone (not `wait $!`: see json_load in test/lib/json.sh)
	while IFS= read -r -d '' k; do
		IFS= read -r -d '' v || {
			[ "$k" = 0 ] && ITEMS_OF[$1]=1
			break
		}
		[ -n "${ITEMS["$1"$'\x1f'"$k"]+set}" ] || ITEMS["$1"$'\x1f'"$k"]=$v
	done < <(jq -j '.items[] | select((.id | type) == "string" and ((.subject // "") | type) == "string")
		| "\(.id)\u001f\(.subject // "")\u001f" as $item | to_entries[]
		| $item + .key + "\u0000" + (.value | if type == "array" then join(",") else tostring end)
		+ "\u0000"' "$out/$1.json" 2>/dev/null; printf '%s\0' "$?")
}
# get NAME ID SUBJECT FIELD: one field of the first item with that id and subject
get() {
	if [ -n "${ITEMS_OF[$1]:-}" ]; then
		local v=${ITEMS["$1"$'\x1f'"$2"$'\x1f'"$3"$'\x1f'"$4"]-null}
		printf '%s\n' "$v"
		return
	fi
	jq -r --arg id "$2" --arg s "$3" --arg f "$4" \
		'[.items[] | select(.id == $id and ((.subject // "") == $s))][0][$f]
		 | if type == "array" then join(",") else tostring end' "$out/$1.json"
}
# item NAME ID SUBJECT STATUS CURRENT: checks status and current of one item
item() {
	check_eq "$(get "$1" "$2" "$3" status)" "$4" "$1: $2${3:+ ($3)} status $4"
	check_eq "$(get "$1" "$2" "$3" current)" "$5" "$1: $2${3:+ ($3)} current"
}

# ---- well-tuned: every item ok or info, exit 0 ----
run well-tuned --if eth0 --data-path /data/run --regime jitter-bound
check_eq "$(cat "$out/well-tuned.rc")" 0 "well-tuned: exit status 0"
check_eq "$(jq -r '.root' "$out/well-tuned.json")" "$FX/well-tuned" "well-tuned: root echoed"
check_eq "$(jq -r '.regime' "$out/well-tuned.json")" jitter-bound "well-tuned: regime echoed"
check_eq "$(jq -c '[.items[] | select(.status == "fix" or .status == "unknown") | .id]' \
	"$out/well-tuned.json")" "[]" "well-tuned: nothing to fix, nothing unknown"
item well-tuned net.core.rmem_default "" ok 50000000
check_eq "$(get well-tuned net.core.rmem_default "" recommended)" ">= 50000000" \
	"well-tuned: rmem_default recommended"
check_eq "$(get well-tuned net.core.rmem_default "" fix)" null "well-tuned: rmem_default no fix"
item well-tuned net.core.wmem_max "" ok 50000000
item well-tuned nic.ring.rx eth0 ok "4096 (max 4096)"
item well-tuned nic.ring.tx eth0 ok "4096 (max 4096)"
item well-tuned nic.pause eth0 ok "autoneg off, rx off, tx off"
item well-tuned nic.coalesce eth0 ok \
	"rx-usecs 50, rx-frames 0, tx-usecs 50, tx-frames 0, adaptive-rx off, adaptive-tx off"
item well-tuned vm.dirty_background_bytes "" ok 192000
item well-tuned cpuset.shield "" ok "cgroup v2: /dgrdma cpus 2-3 (partition isolated)"
item well-tuned kernel.cmdline.isolcpus "" ok "isolcpus=2-3 nohz_full=2-3"
item well-tuned kernel.preempt "" ok \
	"full (PREEMPT_DYNAMIC build default, /boot/config-5.15.0-52-lowlatency; 5.15.0-52-lowlatency)"
item well-tuned kernel.hz "" ok "1000 (/boot/config-5.15.0-52-lowlatency)"
item well-tuned rt.priority "" ok "RLIMIT_RTPRIO soft 99 hard 99, CAP_SYS_NICE no"
item well-tuned kernel.sched_rt_runtime_us "" info "950000 (RT tasks throttled to this per period)"
# from Linux 6.12 on each CPU's fair server throttles, and the setting bounds admission only
cp -r "$FX/well-tuned" "$out/fx612" && printf '6.12.0-1-amd64\n' >"$out/fx612/proc/sys/kernel/osrelease"
"$TUNE" check --json --root "$out/fx612" >"$out/fx612.json" 2>"$out/fx612.err"
check_eq "$(jq -r '.items[] | select(.id == "kernel.sched_rt_runtime_us") | .current' "$out/fx612.json")" \
	"950000 (bounds real-time admission; the throttling is each CPU's fair server since Linux 6.12)" \
	"well-tuned on Linux 6.12: kernel.sched_rt_runtime_us bounds admission, the fair server throttles"
item well-tuned dmcrypt.devices "" ok none
item well-tuned dmcrypt.output /data/run ok "ext4 on 8:3, not a device-mapper device"
item well-tuned cpu.governor "" ok "performance on 2 of 2 CPUs"
item well-tuned cpu.turbo "" ok "off (intel_pstate/no_turbo 1)"
check_eq "$(get well-tuned nic.pause eth0 regimes)" "jitter-bound,throughput-bound" \
	"well-tuned: nic.pause regimes"
check_eq "$(get well-tuned cpu.governor "" relevant)" false \
	"well-tuned: cpu.governor not relevant when jitter-bound"
check_eq "$(get well-tuned kernel.preempt "" relevant)" true \
	"well-tuned: kernel.preempt relevant when jitter-bound"
check_eq "$(jq -c '.summary' "$out/well-tuned.json")" \
	'{"ok":18,"fix":0,"unknown":0,"info":1,"relevant_fix":0,"hidden":0}' "well-tuned: summary"

# ---- untuned: the Debian defaults, exit 1 ----
run untuned --if eth0
check_eq "$(cat "$out/untuned.rc")" 1 "untuned: exit status 1 (something to fix)"
item untuned net.core.rmem_default "" fix 212992
check_eq "$(get untuned net.core.rmem_default "" fix)" \
	"sysctl -w net.core.rmem_default=50000000" "untuned: rmem_default fix command"
check_eq "$(get untuned net.core.rmem_default "" runtime)" true "untuned: rmem fix is runtime"
item untuned net.core.wmem_max "" fix 212992
item untuned nic.ring.rx eth0 fix "512 (max 4096)"
check_eq "$(get untuned nic.ring.rx eth0 fix)" "ethtool -G eth0 rx 4096" "untuned: ring fix"
check_eq "$(get untuned nic.ring.rx eth0 recommended)" "4096 (the maximum)" \
	"untuned: ring recommended"
item untuned nic.pause eth0 fix "autoneg off, rx on, tx on"
item untuned nic.coalesce eth0 fix \
	"rx-usecs 50, rx-frames 0, tx-usecs 50, tx-frames 0, adaptive-rx on, adaptive-tx off"
item untuned vm.dirty_background_bytes "" fix "0 (dirty_background_ratio 10% active)"
item untuned cpuset.shield "" fix "cgroup v2: no shielded set"
item untuned kernel.cmdline.isolcpus "" info none
item untuned kernel.preempt "" fix \
	"voluntary (PREEMPT_DYNAMIC build default, /boot/config-6.1.0-13-amd64; 6.1.0-13-amd64)"
check_eq "$(get untuned kernel.preempt "" fix)" \
	"add preempt=full to the kernel command line (reboot)" "untuned: preempt fix"
check_eq "$(get untuned kernel.preempt "" runtime)" false "untuned: preempt needs a reboot"
item untuned kernel.hz "" fix "250 (/boot/config-6.1.0-13-amd64)"
item untuned rt.priority "" fix "RLIMIT_RTPRIO soft 0 hard 0, CAP_SYS_NICE no"
item untuned cpu.governor "" fix "powersave on 1 of 2 CPUs, schedutil on 1 of 2 CPUs"
item untuned cpu.turbo "" fix "on (cpufreq/boost 1)"
check_eq "$(jq -c '.summary' "$out/untuned.json")" \
	'{"ok":1,"fix":15,"unknown":0,"info":2,"relevant_fix":15,"hidden":0}' "untuned: summary"

# --regime throughput-bound --relevant keeps only what matters there
run untuned --if eth0 --regime throughput-bound --relevant
check_eq "$(jq -r '[.items[].id] | join(" ")' "$out/untuned.json")" \
	"nic.pause nic.coalesce dmcrypt.devices cpu.governor cpu.turbo" \
	"untuned: throughput-bound items only"
check_eq "$(jq -c '.summary | [.fix, .relevant_fix, .hidden]' "$out/untuned.json")" "[4,4,13]" \
	"untuned: throughput-bound counts"
run untuned --regime healthy --relevant
check_eq "$(jq -r '[.items[].id] | join(" ")' "$out/untuned.json")" \
	"net.core.rmem_default net.core.rmem_max net.core.wmem_default net.core.wmem_max nic vm.dirty_background_bytes" \
	"untuned: healthy items only"
item untuned nic "" unknown "unknown (no --if IFACE given; interfaces: eth0)"

# ---- cgroup v1 (cset shield layout), an RT kernel, a missing file ----
run cgroup-v1
item cgroup-v1 cpuset.shield "" ok "cgroup v1: /user cpus 8-11 (cset shield layout)"
item cgroup-v1 net.core.wmem_max "" unknown "unknown (/proc/sys/net/core/wmem_max missing)"
item cgroup-v1 kernel.preempt "" ok "rt (/sys/kernel/realtime; 3.10.0-1160.rt56.1131.el7.x86_64)"
item cgroup-v1 kernel.hz "" ok "1000 (/proc/config.gz)"
item cgroup-v1 rt.priority "" ok "RLIMIT_RTPRIO soft unlimited hard unlimited, CAP_SYS_NICE no"
item cgroup-v1 kernel.sched_rt_runtime_us "" info "-1 (RT tasks never throttled)"
item cgroup-v1 cpu.governor "" unknown \
	"unknown (/sys/devices/system/cpu missing or not readable)"
check_eq "$(cat "$out/cgroup-v1.rc")" 0 "cgroup-v1: unknowns alone do not make exit 1"

# ---- cgroup v2, nested root partition, preempt=full on the command line ----
run cgroup-v2
item cgroup-v2 cpuset.shield "" ok "cgroup v2: /machine.slice/rt cpus 4-7 (partition root)"
item cgroup-v2 kernel.preempt "" ok "full (preempt= on the command line; 6.1.0-13-amd64)"
item cgroup-v2 rt.priority "" ok "RLIMIT_RTPRIO soft 0 hard 99, CAP_SYS_NICE yes"
item cgroup-v2 kernel.cmdline.isolcpus "" info none

# ---- dm-crypt with same_cpu_crypt, output on LVM over the crypt device ----
run dmcrypt-same-cpu --output /data/run/iq.bin
item dmcrypt-same-cpu dmcrypt.devices "" info "dm_crypt-0 (dm-0)"
item dmcrypt-same-cpu kernel.preempt "" ok "full (debugfs sched/preempt; 6.1.0-13-amd64)"
item dmcrypt-same-cpu dmcrypt.same_cpu_crypt dm_crypt-0 ok \
	"on (flags: same_cpu_crypt allow_discards)"
item dmcrypt-same-cpu dmcrypt.output /data/run/iq.bin fix \
	"ext4 on vg-data (254:1), encrypted by dm_crypt-0"
check_eq "$(get dmcrypt-same-cpu dmcrypt.output /data/run/iq.bin fix)" \
	"write the stream to an unencrypted disk" "dmcrypt-same-cpu: output fix"
check_eq "$(jq '[.items[] | select(.id == "dmcrypt.same_cpu_crypt")] | length' \
	"$out/dmcrypt-same-cpu.json")" 1 "dmcrypt-same-cpu: the LVM volume is not a crypt device"
if grep -q aaaaaaaa "$out/dmcrypt-same-cpu.json"; then
	not_ok "dmcrypt-same-cpu: the key does not appear in the output"
else
	ok "dmcrypt-same-cpu: the key does not appear in the output"
fi

# ---- dm-crypt without same_cpu_crypt; a crypt device whose table is unreadable ----
run dmcrypt-no-flag --output /data/x
item dmcrypt-no-flag dmcrypt.devices "" info "dm_crypt-0 (dm-0), swap_crypt (dm-2)"
item dmcrypt-no-flag cpuset.shield "" ok "cgroup v1: /rt cpus 2-3 (cpu_exclusive)"
item dmcrypt-no-flag dmcrypt.same_cpu_crypt dm_crypt-0 fix "off (flags: allow_discards)"
check_eq "$(get dmcrypt-no-flag dmcrypt.same_cpu_crypt dm_crypt-0 fix)" \
	"cryptsetup refresh --perf-same_cpu_crypt dm_crypt-0 (repeat its other --perf-* flags)" \
	"dmcrypt-no-flag: cryptsetup refresh command"
item dmcrypt-no-flag dmcrypt.same_cpu_crypt swap_crypt unknown \
	"unknown (no table fixture dgrdma-tune/dm/swap_crypt)"
item dmcrypt-no-flag dmcrypt.output /data/x fix "ext4 on dm_crypt-0 (254:0), encrypted by dm_crypt-0"
run dmcrypt-no-flag --output /scratch/run
item dmcrypt-no-flag dmcrypt.output /scratch/run ok "xfs on 8:4, not a device-mapper device"
run dmcrypt-no-flag --output /run/user/x
item dmcrypt-no-flag dmcrypt.output /run/user/x ok "tmpfs (memory, no disk)"

# ---- a bond with two slaves: each slave checked ----
run bond --if bond0
item bond nic.bond bond0 info "slaves enp10s0f0 enp10s0f1"
item bond nic.ring.rx enp10s0f0 fix "512 (max 4096)"
item bond nic.ring.tx enp10s0f0 fix "512 (max 4096)"
item bond nic.ring.rx enp10s0f1 ok "4096 (max 4096)"
item bond nic.pause enp10s0f0 ok "autoneg off, rx off, tx off"
item bond nic.pause enp10s0f1 fix "autoneg off, rx on, tx off"
check_eq "$(jq '[.items[] | select(.subject == "bond0" and (.id | startswith("nic.ring")))] | length' \
	"$out/bond.json")" 0 "bond: no ring item for the bond itself"
item bond rt.priority "" unknown "unknown (/proc/self/limits missing)"
item bond kernel.preempt "" ok "full (uname -v; release unknown)"
item bond dmcrypt.devices "" unknown "unknown (/sys/block not readable)"
run bond --if veth0
item bond nic.ring.rx veth0 unknown \
	"unknown (Operation not supported: the driver does not expose these parameters)"
item bond nic.coalesce veth0 unknown \
	"unknown (Operation not supported: the driver does not expose these parameters)"
run bond --if eth9
item bond nic.ring.rx eth9 unknown "unknown (no such interface)"

# ---- the text form comes from the same print layer ----
"$TUNE" check --root "$FX/untuned" --if eth0 --regime jitter-bound >"$out/untuned.txt"
check_eq "$(grep -c '^\[' "$out/untuned.txt")" 18 "text: one header line per item"
check "text: status and id" grep -qx '\[fix    \] net.core.rmem_default' "$out/untuned.txt"
check "text: fix line" grep -qx '    fix          sysctl -w net.core.rmem_default=50000000' \
	"$out/untuned.txt"
check "text: relevance line" grep -qx '    relevant     no' "$out/untuned.txt"
check "text: subject in the header" grep -qx '\[fix    \] nic.ring.rx (eth0)' "$out/untuned.txt"
check_eq "$(grep -c '^  [a-z]' "$out/untuned.txt")" 13 "text: to-fix list holds the 13 relevant fixes"
check "text: to-fix line with subject" grep -qx \
	'  nic.ring.rx                eth0       ethtool -G eth0 rx 4096' "$out/untuned.txt"
check_eq "$(tail -1 "$out/untuned.txt")" \
	"summary: 1 ok, 15 to fix, 0 unknown, 2 info; 13 to fix that matter here; 0 hidden as not relevant" \
	"text: summary line"

# ---- hostile fixture contents: judged unknown with a reason, never a crash ----
h="$out/hostile"
mkdir -p "$h/proc/sys/net/core" "$h/proc/sys/vm" "$h/proc/self" "$h/proc/sys/kernel" \
	"$h/sys/class/net/eth0" "$h/dgrdma-tune/ethtool" "$h/dgrdma-tune/dm" \
	"$h/sys/block/dm-0/dm" "$h/sys/fs/cgroup/a" "$h/boot"
printf 'abc\n' >"$h/proc/sys/net/core/rmem_default"
printf '99999999999999999999999\n' >"$h/proc/sys/net/core/rmem_max"
printf '\n' >"$h/proc/sys/net/core/wmem_default"
head -c 3000 /dev/zero | tr '\0' 7 >"$h/proc/sys/net/core/wmem_max"
printf -- '-5\n' >"$h/proc/sys/vm/dirty_background_bytes"
printf 'Max realtime priority     0    0\n' >"$h/proc/self/limits"
printf 'Name: x\n' >"$h/proc/self/status"
printf 'garbage line\n22 1 8:2\n' >"$h/proc/self/mountinfo"
printf 'ring.rx_max 99999999999\nring.rx -1\nring.tx_max 4096\nring.tx x\npause.autoneg\ncoalesce.error EBOGUS\n' \
	>"$h/dgrdma-tune/ethtool/eth0"
printf 'dm\n' >"$h/sys/block/dm-0/dm/name"
printf '0 10 crypt\n' >"$h/dgrdma-tune/dm/dm"
printf 'cpuset\n' >"$h/sys/fs/cgroup/cgroup.controllers"
printf 'root invalid (Cpu list not exclusive)\n' >"$h/sys/fs/cgroup/a/cpuset.cpus.partition"
printf '4.19.0\n' >"$h/proc/sys/kernel/osrelease"
head -c 100000 /dev/urandom >"$h/boot/config-4.19.0"
head -c 9000 /dev/zero | tr '\0' 'x' >"$h/proc/cmdline"
"$TUNE" check --json --root "$h" --if eth0 --output relative/path >"$out/hostile.json" 2>"$out/hostile.err"
rc=$?
check "hostile: exit status 0 or 1 (no crash)" test "$rc" -le 1
check "hostile: valid JSON" bash -c "jq -e . '$out/hostile.json' >/dev/null"
cp "$out/hostile.json" "$out/h.json"
items_load h
run() { :; }
item h net.core.rmem_default "" unknown "unknown (not a number: 'abc')"
item h net.core.rmem_max "" unknown "unknown (not a number: '99999999999999999999')"
item h net.core.wmem_default "" unknown "unknown (not a number: '')"
item h vm.dirty_background_bytes "" fix "0 (dirty_background_ratio unknown: /proc/sys/vm/dirty_background_ratio missing)"
item h nic.ring.rx eth0 unknown "unknown (fixture ring.rx_max is not a number)"
item h nic.pause eth0 unknown "unknown (fixture has no pause.autoneg)"
item h nic.coalesce eth0 unknown "unknown (Input/output error)"
item h rt.priority "" unknown "unknown (no CapEff in /proc/self/status)"
item h cpuset.shield "" fix "cgroup v2: no shielded set"
item h kernel.preempt "" unknown \
	"unknown (no kernel config (/boot/config-RELEASE, /proc/config.gz) and no PREEMPT in uname -v)"
item h dmcrypt.devices dm-0 unknown "unknown (unreadable table fixture for dm)"
printf '0 10 crypt aes KEY 0 8:3 0 2 same_cpu_crypt\n' >"$h/dgrdma-tune/dm/dm"
"$TUNE" check --json --root "$h" >"$out/h.json"
items_load h
item h dmcrypt.same_cpu_crypt dm ok "on (flags: same_cpu_crypt)"

# ---- this host: valid JSON, every item judged, unknowns explained ----
"$TUNE" check --json --if lo >"$out/host.json" 2>"$out/host.err"
rc=$?
check "host: exit status 0 or 1" test "$rc" -le 1
check_eq "$(jq -r '[.items[].id] | map(select(. == "net.core.rmem_max" or . == "kernel.preempt"
	or . == "cpuset.shield" or . == "dmcrypt.devices" or . == "cpu.governor")) | length' \
	"$out/host.json")" 5 "host: the main items are present"
check_eq "$(jq '[.items[] | select(.status as $s | ["ok","fix","unknown","info"] | index($s) | not)] | length' \
	"$out/host.json")" 0 "host: every status is one of ok/fix/unknown/info"
check_eq "$(jq '[.items[] | select(.status == "unknown" and (.current | startswith("unknown (") | not))] | length' \
	"$out/host.json")" 0 "host: every unknown says why"
check_eq "$(get_host=$(jq -r '.items[] | select(.id == "net.core.rmem_max") | .current' "$out/host.json"); echo "$get_host")" \
	"$(cat /proc/sys/net/core/rmem_max)" "host: rmem_max read from /proc"
done_testing
