#!/bin/bash
# Run every test suite of stackmap, each as one step, and end with the line
# "N passed, N failed". Exit status: 0 only if every suite passed.
# Usage: tests/run-tests.sh [SUITE ...]   (default: all, in the order below)
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2

declare -A SUITES=(
	[map-unit]="make -C tests/kmod check"
	[decoder-unit]="make -C tests/decoder check"
	[plugin-unit]="make -C tests/plugin check"
	[install]="tests/test_install.sh"
	[vm-harness]="tests/vm/selftest.sh"
	[vm-e2e]="tests/vm/test_e2e.sh"
	[vm-frontend]="tests/vm/test_frontend.sh"
	[vm-modes]="tests/vm/test_modes.sh"
	[decoder-badinput]="tests/decoder/test_badinput.sh"
	[vm-module]="tests/vm/test_module.sh"
	[vm-lifecycle]="tests/vm/test_lifecycle.sh"
	[bench-quick]="tests/bench/run.sh --quick"
	[fuzz-smoke]="make -C tests/fuzz run SECONDS=\${FUZZ_SECONDS:-15} && make -C tests/fuzz regress"
)
ORDER=(map-unit decoder-unit plugin-unit install vm-harness vm-e2e decoder-badinput vm-frontend vm-modes vm-module vm-lifecycle bench-quick fuzz-smoke)

main() {
	local passed=0 failed=0 names=("$@") name start rc
	((${#names[@]})) || names=("${ORDER[@]}")
	for name in "${names[@]}"; do
		if [[ -z ${SUITES[$name]:-} ]]; then
			echo "run-tests: unknown suite $name (have: ${ORDER[*]})" >&2
			return 2
		fi
		echo "=== suite $name: ${SUITES[$name]}"
		start=$SECONDS
		bash -c "${SUITES[$name]}"
		rc=$?
		if ((rc == 0)); then
			passed=$((passed + 1))
			echo "=== suite $name: PASS ($((SECONDS - start)) s)"
		else
			failed=$((failed + 1))
			echo "=== suite $name: FAIL (exit $rc, $((SECONDS - start)) s)"
		fi
	done
	echo "suites: $passed passed, $failed failed"
	((failed == 0))
}

main "$@"
