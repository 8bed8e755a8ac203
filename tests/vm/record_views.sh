#!/bin/bash
# Make the real recordings tests/decoder/test_identity.sh reads, once, on
# the Debian 6.1 kernel (tests/vm/guest/views.sh), into
# tests/fixtures/traces/ (views.dat, kstack.dat), where they are kept: the
# function tracer's code patching can stall a loaded TCG guest for a
# minute (a soft lockup), too flaky and slow for every make check.
# Needs `make` to have built the module.  -smp 1: no cross-CPU patching.
# Usage: [STACKMAP_KERNEL=NAME] tests/vm/record_views.sh [DIR [FILE...]]
#   copies FILEs (default views.dat kstack.dat) into DIR (default
#   tests/fixtures/traces); views.stack_map.txt is the guest's own stack_map
#   listing after views.dat (symbols as the guest's kernel prints them).
#   The arm64 fixture (issue #39), what a decode on another architecture is
#   to be checked against:
#     STACKMAP_KERNEL=6.12-arm64 tests/vm/record_views.sh \
#         tests/fixtures/traces/arm64 views.dat views.stack_map.txt
set -euo pipefail

# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"
DEST=${1:-$ROOT/tests/fixtures/traces}
FILES=("${@:2}")
((${#FILES[@]})) || FILES=(views.dat kstack.dat)
vm_kernel_setup "$PROG" "$ROOT/build/vm-views"
rm -rf "$OUT"
mkdir -p "$OUT"
run_guest views --smp 1 --timeout 300
mkdir -p "$DEST"
for f in "${FILES[@]}"; do cp "$OUT/$f" "$DEST/"; done
ls -l "$DEST"
