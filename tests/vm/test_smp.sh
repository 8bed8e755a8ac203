#!/bin/bash
# Races that need vCPUs running at the same time (#22): the pairing suite (a migration stress among its modes)
# and the module suite on the newest kernel, each vCPU a host thread (multi-threaded TCG), under trixie's QEMU
# 10 (tests/roots.sh qemu trixie; run-vm.sh --qemu-root).  Every other guest runs one TCG thread for all its
# vCPUs: bookworm's QEMU 7.2 with a thread per vCPU trapped on stale breakpoints while the kernel patched its
# text (run-vm.sh's tcg_patch_int3).  Their results go to build/vm-smp-pairing-newest and
# build/vm-smp-module-newest.
# Usage: tests/vm/test_smp.sh   (root, like every guest test)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
QEMU_ROOT=$("$ROOT/tests/roots.sh" qemu trixie) || { echo "test_smp: no trixie root with QEMU" >&2; exit 1; }
export STACKMAP_QEMU_ROOT=$QEMU_ROOT STACKMAP_TCG_THREAD=multi STACKMAP_KERNEL=newest
OUT=$ROOT/build/vm-smp-pairing "$ROOT/tests/vm/test_pairing.sh"
OUT=$ROOT/build/vm-smp-module "$ROOT/tests/vm/test_module.sh"
echo "test_smp: pairing and module suites passed on the newest kernel with a TCG thread per vCPU ($("$ROOT/tests/roots.sh" run "$QEMU_ROOT" -- qemu-system-x86_64 --version | head -n 1))"
