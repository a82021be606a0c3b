#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# under-load.sh COMMAND...: runs COMMAND with every CPU busy (one busy loop per online CPU, at
# the default priority), as a shared or busy machine would be; `make check-under-load` runs the
# test driver this way. A suite that fails here and passes on a quiet machine depends on
# timing luck: that is a defect of the suite (docs/development.md).
set -u
hogs=()
stop_hogs() {
	[ "${#hogs[@]}" -gt 0 ] && kill "${hogs[@]}" 2>/dev/null
	wait "${hogs[@]}" 2>/dev/null
	hogs=()
}
trap stop_hogs EXIT
trap 'exit 130' INT TERM
for ((i = 0; i < $(nproc); i++)); do
	bash -c 'while :; do :; done' &
	hogs+=($!)
done
echo "under-load: ${#hogs[@]} busy loops (pids ${hogs[*]})"
"$@"
