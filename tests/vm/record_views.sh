#!/bin/bash
# Make the real recordings tests/decoder/test_identity.sh reads, once, on
# the Debian 6.1 kernel (tests/vm/guest/views.sh), into
# tests/fixtures/traces/ (views.dat, kstack.dat), where they are kept: the
# function tracer's code patching can stall a loaded TCG guest for a
# minute (a soft lockup), too flaky and slow for every make check.
# Needs `make` to have built the module.  -smp 1: no cross-CPU patching.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/vm/kernel.sh
. "$ROOT/tests/vm/kernel.sh"
vm_kernel_setup record_views "$ROOT/build/vm-views"
rm -rf "$OUT"
mkdir -p "$OUT"
"$ROOT/tests/vm/run-vm.sh" --module "$KO" ${VM_ARGS[@]+"${VM_ARGS[@]}"} --smp 1 \
	--guest-script "$ROOT/tests/vm/guest/views.sh" --share "$OUT" --timeout 300 ||
	{ echo "record_views: guest run failed (see $OUT/console.log)" >&2; exit 1; }
mkdir -p "$ROOT/tests/fixtures/traces"
cp "$OUT/views.dat" "$OUT/kstack.dat" "$ROOT/tests/fixtures/traces/"
ls -l "$ROOT/tests/fixtures/traces/"
