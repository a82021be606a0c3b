# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# Checks of latency-report's text (sourced).

# empty_lines FILE: how many lines of the report FILE print a value with nothing after it
# ("clock_step: ") or a heading over nothing (a "responses by code" or "where the sources
# disagree, and why:" whose next line is not deeper).
empty_lines() {
	awk '
		function depth(s) { match(s, /^ */); return RLENGTH }
		/: $/ { n++ }
		held != "" { if (depth($0) <= depth(held)) n++; held = "" }
		/^ *(responses by code|where the sources disagree, and why:)$/ { held = $0 }
		END { if (held != "") n++; print n + 0 }' "$1"
}

# first_cure_by_cause: the first line under --advise's "for the causes of the stalls, the
# largest first:" in the report on stdin
first_cure_by_cause() {
	awk 'found == 1 { print; found = 2 } /^  for the causes of the stalls, the largest first:$/ { found = 1 }'
}
