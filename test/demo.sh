#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make demo: the main job. Until the end-to-end loop lands this shows how the
# codec frames the tuning guide's buffer sizes at both MTUs.
set -euo pipefail
W="$DGR_BUILD/bin/dgrdma-wire"
for mtu in 9000 1500; do
	for size in 16384 32768; do
		echo "== one $size-byte buffer at MTU $mtu"
		"$W" plan --size "$size" --mtu "$mtu" | sed -n '1p;$p'
	done
done
