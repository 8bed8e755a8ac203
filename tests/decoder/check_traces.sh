#!/bin/bash
# The checks a recording made by another trace-cmd gets, with the fgdecode, plugin and trace-cmd of the machine
# this runs on (tests/test_userland.sh runs it on the host and in a trixie root, on traces trixie's trace-cmd
# 3.3.1 recorded in the guest):
#   - fgdecode resolves every cookie: C cookies, C resolved, 0 stale, 0 unknown (C > 0)
#   - its event lines are trace-cmd report's, with plugins and with -N (tests/decoder/test_identity.sh)
#   - trace-cmd report with the plugin prints fgdecode's stack under every event (tests/plugin/check_report.sh)
#   - the file without its last 118 bytes decodes with a warning that it is truncated; a version 7 file (whose
#     last bytes are the options written after the data) exactly as the whole file does (that trace-cmd's
#     layout of the sections after the data: lib/tracedat_salvage.c), unless it stores a map snapshot, the last
#     thing in the file and the first the cut takes
# Usage: tests/decoder/check_traces.sh TRACE.dat...   (after make decoder plugin and make -C tests/decoder all)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WHERE="$(. /etc/os-release && echo "${VERSION_CODENAME:-?}"), trace-cmd $(dpkg-query -W -f '${Version}' trace-cmd 2>/dev/null || echo '?')"

fail() {
	echo "check_traces: $1: $2 ($WHERE)" >&2
	exit 1
}

# all_resolved TRACE: fgdecode's summary counts every cookie resolved.
all_resolved() {
	local summary
	summary=$("$ROOT/decoder/fgdecode" --cookies "$1" 2>&1 >/dev/null | grep '^fgdecode: .* cookies') ||
		fail "$1" "fgdecode failed or printed no summary"
	gawk '{
		for (i = 2; i <= NF; i++) v[$(i + 1)] = $i + 0
		if (!(v["cookies,"] > 0 && v["resolved,"] == v["cookies,"] && v["stale,"] == 0 && v["unknown,"] == 0)) exit 1
	}' <<<"$summary" || fail "$1" "not every cookie resolved: $summary"
	echo "check_traces: $(basename "$1"): $summary"
}

# cut_tail TRACE: TRACE less its last 118 bytes says it is truncated and, version 7, prints what TRACE prints.
cut_tail() {
	local tmp size
	tmp=$(mktemp -d)
	size=$(stat -c %s "$1")
	head -c "$((size - 118))" "$1" >"$tmp/cut.dat"
	"$ROOT/decoder/fgdecode" "$1" >"$tmp/whole" 2>/dev/null
	"$ROOT/decoder/fgdecode" "$tmp/cut.dat" >"$tmp/cut" 2>"$tmp/err" ||
		fail "$1" "less its last 118 bytes: $(head -n 1 "$tmp/err")"
	grep -q ": truncated at byte $((size - 118)): " "$tmp/err" || fail "$1" "less its last 118 bytes: no warning"
	if [[ $(head -c 11 "$1" | tail -c 1) == 7 ]] && ! "$ROOT/record/stackmap-snapshot" show "$1" >/dev/null 2>&1; then
		cmp -s "$tmp/cut" "$tmp/whole" || fail "$1" "less its last 118 bytes: not decoded as the whole file"
	fi
	rm -rf "$tmp"
}

for trace in "$@"; do
	all_resolved "$trace"
	cut_tail "$trace"
	"$ROOT/tests/decoder/test_identity.sh" "$trace" || fail "$trace" "fgdecode's event lines are not trace-cmd report's"
	"$ROOT/tests/plugin/check_report.sh" "$trace" || fail "$trace" "trace-cmd report with the plugin and fgdecode disagree"
done
echo "check_traces: $# traces ok ($WHERE)"
