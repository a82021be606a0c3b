#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The one version of dgrdma-tools, printed on stdout: `git describe` of a release tag
# (v0.1.0 -> 0.1.0, with -N-gHASH and -dirty after it) in a git checkout that has one;
# otherwise VERSION, with +gHASH in a checkout without a tag; VERSION alone in a tarball.
cd "$(dirname "$0")/.." || exit 1
base=$(cat VERSION 2>/dev/null || echo 0.0.0)
if desc=$(git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null); then
	echo "${desc#v}"
elif hash=$(git rev-parse --short HEAD 2>/dev/null); then
	dirty=""
	git diff --quiet HEAD -- 2>/dev/null || dirty=".dirty"
	echo "$base+g$hash$dirty"
else
	echo "$base"
fi
