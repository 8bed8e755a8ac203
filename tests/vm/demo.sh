#!/bin/bash
# `make demo`: record a real workload in a qemu guest running the Debian
# kernel with stackmap.ko attached to sched:sched_switch, bring trace.dat
# back, and print the first decoded events with their stacks.
# Needs `make` to have built kmod/stackmap.ko and decoder/fgdecode.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$ROOT/build/demo}
LINES=${LINES_SHOWN:-60}

rm -rf "$OUT"
mkdir -p "$OUT"
echo "demo: booting the guest (qemu, TCG; about 30 s)"
if ! "$ROOT/tests/vm/run-vm.sh" --module "$ROOT/kmod/stackmap.ko" \
	--guest-script "$ROOT/tests/vm/guest/e2e.sh" --share "$OUT" --timeout 300; then
	echo "demo: guest run failed (console: $OUT/console.log)" >&2
	exit 1
fi
if ! "$ROOT/decoder/fgdecode" "$OUT/trace.dat" >"$OUT/decoded.txt" 2>"$OUT/summary.txt"; then
	echo "demo: decode failed: $(head -n1 "$OUT/summary.txt")" >&2
	exit 1
fi
echo "demo: first $LINES lines of: fgdecode $OUT/trace.dat"
echo
head -n "$LINES" "$OUT/decoded.txt"
echo
cat "$OUT/summary.txt"
echo "demo: trace.dat is $(stat -c %s "$OUT/trace.dat") bytes; the module's stack_map listing is in $OUT/stack_map.txt"
