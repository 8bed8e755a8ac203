#!/bin/bash
# The README's two commands on a fresh machine, as a new user runs them: a copy of a fresh minbase root of
# SUITE (tests/roots.sh fresh: minbase plus make, cached), a clean clone of HEAD copied in, then as root in it
#   make demo                      must work the first time (installs what is missing, builds, boots, decodes)
#   make check SUITES="..."        the same first-run path through make check, on a few fast suites
#                                  (CHECK_SUITES, default "lib-unit kmod-build@6.1 vm-e2e@6.1" on bookworm and
#                                  "lib-unit decoder-unit plugin-unit" elsewhere, where the kernel matrix is not
#                                  ported yet: tests/kernels.sh's 6.1 is bookworm's installed kernel; empty skips it)
# Any step that only a second run or a hand-installed package would pass fails it. Each SUITE gets its own
# copy, removed at the end (KEEP=1 keeps it); apt's downloads are cached per suite in $STACKMAP_ROOTS/apt-SUITE.
# Usage: tests/test_fresh_root.sh [SUITE...]   (default: bookworm)
# Run by `make check-fresh`; takes 10-20 minutes per suite on a fresh cache (apt installs about 1.5 GB).
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${STACKMAP_ROOTS:-/var/cache/stackmap/roots}
# check_suites SUITE: what make check runs there (CHECK_SUITES, if set, everywhere).
check_suites() {
	if [[ -n ${CHECK_SUITES+set} ]]; then
		echo "$CHECK_SUITES"
	elif [[ $1 == bookworm ]]; then
		echo "lib-unit kmod-build@6.1 vm-e2e@6.1"
	else
		echo "lib-unit decoder-unit plugin-unit"
	fi
}
WORK=${WORK:-/var/tmp/stackmap-fresh}
# The commit tested (FRESH_REV=ce673ac shows that a commit before the KVER fix fails).
REV=${FRESH_REV:-HEAD}

PROG=test_fresh_root
# shellcheck source=tests/root_lib.sh
. "$ROOT/tests/root_lib.sh"

fail() {
	echo "test_fresh_root: $1: FAIL: $2" >&2
	exit 1
}

# step SUITE NAME COMMAND...: a root_step in the suite's root ($dir, logs in $log.NAME).
step() {
	local suite=$1 name=$2
	shift 2
	root_step "$suite" "$dir" "$log" "$name" "$@"
}

one_suite() {
	local suite=$1 dir log start=$SECONDS suites
	dir=$WORK/$suite log=$WORK/$suite.log
	rm -f "$log".*
	root_copy "$suite" "$dir"
	root_clone "$suite" "$dir" "$REV"
	echo "test_fresh_root: $suite: clean clone of $(git -C "$ROOT" rev-parse --short "$REV") in $dir/root/stackmap"
	step "$suite" demo bash -c 'cd /root/stackmap && make demo'
	grep -q '^demo: trace.dat is ' "$log.demo" || fail "$suite" "make demo did not reach its last line"
	suites=$(check_suites "$suite")
	if [[ -n $suites ]]; then
		step "$suite" check bash -c "cd /root/stackmap && make check SUITES='$suites'"
		grep -q '^suites: [1-9][0-9]* passed, 0 failed' "$log.check" || fail "$suite" "make check ran no suite"
	fi
	((${KEEP:-0})) || rm -rf "$dir"
	echo "test_fresh_root: $suite: PASS in $((SECONDS - start)) s"
}

main() {
	local suite suites=("$@")
	((EUID == 0)) || fail all "needs root (debootstrap, chroot)"
	((${#suites[@]})) || suites=(bookworm)
	for suite in "${suites[@]}"; do one_suite "$suite"; done
	echo "${#suites[@]} passed, 0 failed"
}

main "$@"
