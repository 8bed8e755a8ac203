#!/bin/bash
# Make the real recordings tests/decoder/test_identity.sh reads, once, on
# the Debian 6.1 kernel (tests/vm/guest/views.sh), into
# tests/fixtures/traces/ (views.dat, kstack.dat), where they are kept: the
# function tracer's code patching can stall a loaded TCG guest for a
# minute (a soft lockup), too flaky and slow for every make check.
# Needs `make` to have built the module.  -smp 1: no cross-CPU patching.
set -euo pipefail

# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"
vm_kernel_setup "$PROG" "$ROOT/build/vm-views"
rm -rf "$OUT"
mkdir -p "$OUT"
run_guest views --smp 1 --timeout 300
mkdir -p "$ROOT/tests/fixtures/traces"
cp "$OUT/views.dat" "$OUT/kstack.dat" "$ROOT/tests/fixtures/traces/"
ls -l "$ROOT/tests/fixtures/traces/"
