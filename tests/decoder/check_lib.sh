# shellcheck shell=bash
# The PASS/FAIL bookkeeping of the decoder's shell suites: the counters PASSED and FAILED (set to 0 here) and
# check, one counted line a check. Sourced by tests/decoder/test_pprof.sh, tests/decoder/test_cross_arch.sh and
# tests/arm64/test_decode.sh.

PASSED=0 FAILED=0

# check NAME WHY: a PASS line when WHY is empty, else a FAIL line with it, counted in PASSED and FAILED.
check() {
	local name=$1 why=$2
	if [[ -z $why ]]; then
		PASSED=$((PASSED + 1))
		echo "PASS $name"
	else
		FAILED=$((FAILED + 1))
		echo "FAIL $name: $why"
	fi
}
