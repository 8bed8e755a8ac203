#!/bin/bash
# The checks a recording made by another trace-cmd gets, with the fgdecode, plugin and trace-cmd of the machine
# this runs on (tests/test_userland.sh runs it on the host and in a trixie root, on traces trixie's trace-cmd
# 3.3.1 recorded in the guest):
#   - fgdecode resolves every cookie: C cookies, C resolved, 0 stale, 0 unknown (C > 0)
#   - its event lines are trace-cmd report's, with plugins and with -N (tests/decoder/test_identity.sh)
#   - trace-cmd report with the plugin prints fgdecode's stack under every event (tests/plugin/check_report.sh)
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

for trace in "$@"; do
	all_resolved "$trace"
	"$ROOT/tests/decoder/test_identity.sh" "$trace" || fail "$trace" "fgdecode's event lines are not trace-cmd report's"
	"$ROOT/tests/plugin/check_report.sh" "$trace" || fail "$trace" "trace-cmd report with the plugin and fgdecode disagree"
done
echo "check_traces: $# traces ok ($WHERE)"
