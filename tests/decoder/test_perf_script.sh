#!/bin/bash
# fgdecode --perf-script read by a real consumer of perf script's text: speedscope (its release, from the npm
# registry, checked against the registry's sha512 and cached in $STACKMAP_CACHE/speedscope), served with the file
# over HTTP on 127.0.0.1 and opened by URL in headless Chromium, driven by perf_script_browser.py, which checks that speedscope imports it as perf script output,
# finds every task, gives each task's stacks the time its samples give (every sample reached its task with its
# time and its stack), and opens exactly the call paths of fgdecode --folded --merge of the same trace (its own
# export, read back).  The ASan/UBSan build (tests/decoder/fgdecode_san) writes both.  Kept in
# build/perf-script/: the output, speedscope's export and a screenshot.
# Usage: test_perf_script.sh [TRACE.dat]   (default: build/vm-e2e-6.1/trace.dat, which vm-e2e@6.1 leaves)
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FG=$ROOT/tests/decoder/fgdecode_san
TRACE=${1:-$ROOT/build/vm-e2e-6.1/trace.dat}
OUT=$ROOT/build/perf-script
CACHE=${STACKMAP_CACHE:-/var/cache/stackmap}/speedscope
VERSION=1.25.0
INTEGRITY=sha512-cpf9HWTZf1ijLXBJrk87Ve/54tnYx6rlf0gUThvn3ook6h63hLXVOQiMf44PT+XoV503cPfvfiT5gP5vojp6Ag==
export ASAN_OPTIONS="exitcode=90" UBSAN_OPTIONS="exitcode=91:print_stacktrace=1"

# fetch: speedscope's package, once, into $CACHE/$VERSION (its integrity checked as npm does).
fetch() {
	local dir=$CACHE/$VERSION tgz=$CACHE/speedscope-$VERSION.tgz
	[[ -f $dir/package/dist/release/index.html ]] && return 0
	mkdir -p "$CACHE" || return 1
	python3 - "$tgz" "$INTEGRITY" "https://registry.npmjs.org/speedscope/-/speedscope-$VERSION.tgz" <<'EOF' || return 1
import base64, hashlib, sys, urllib.request
path, integrity, url = sys.argv[1:4]
data = urllib.request.urlopen(url, timeout=120).read()
got = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
if got != integrity:
    sys.exit(f"test_perf_script: {url}: sha512 {got}, the registry says {integrity}")
open(path, "wb").write(data)
EOF
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp" && tar -xzf "$tgz" -C "$dir.tmp" && mv "$dir.tmp" "$dir"
}

main() {
	local rc
	[[ -x $FG ]] || { echo "test_perf_script: build tests/decoder first (make -C tests/decoder)"; exit 2; }
	[[ -f $TRACE ]] || { echo "test_perf_script: no real trace at $TRACE (run tests/run-tests.sh vm-e2e@6.1)"; exit 2; }
	command -v chromium >/dev/null || { echo "test_perf_script: chromium is missing (apt-get install chromium)"; exit 2; }
	fetch || { echo "test_perf_script: cannot fetch speedscope $VERSION into $CACHE"; exit 2; }
	mkdir -p "$OUT" || exit 2
	"$FG" --no-summary --perf-script "$TRACE" >"$OUT/perf-script.txt" || { echo "test_perf_script: fgdecode --perf-script failed"; exit 1; }
	"$FG" --no-summary --folded --merge "$TRACE" >"$OUT/folded.txt" || exit 1
	echo "test_perf_script: $(grep -c '^[^[:space:]]' "$OUT/perf-script.txt") events, $(grep -c $'^\t' "$OUT/perf-script.txt") frame lines"
	python3 "$ROOT/tests/decoder/perf_script_browser.py" "$CACHE/$VERSION/package/dist/release" \
		"$OUT/perf-script.txt" "$OUT/folded.txt" "$OUT"
	rc=$?
	exit $rc
}

main "$@"
