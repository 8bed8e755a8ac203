# shellcheck shell=bash
# The PASS/FAIL bookkeeping of the decoder's shell suites: the counters PASSED and FAILED (set to 0 here), check,
# one counted line a check, and check_summary, the suite's last line and exit status. Sourced by
# tests/decoder/test_badinput.sh, test_identity.sh, test_pprof.sh and test_cross_arch.sh, and
# tests/arm64/test_decode.sh.

PASSED=0 FAILED=0

# check NAME WHY [DETAIL]: "PASS NAME" ("PASS NAME (DETAIL)" with a DETAIL) when WHY is empty, else
# "FAIL NAME: WHY", counted in PASSED and FAILED.
check() {
	local name=$1 why=$2 detail=${3-}
	if [[ -z $why ]]; then
		PASSED=$((PASSED + 1))
		echo "PASS $name${detail:+ ($detail)}"
	else
		FAILED=$((FAILED + 1))
		echo "FAIL $name: $why"
	fi
}

# check_summary LABEL: "LABEL: N passed, M failed"; fails when a check failed.
check_summary() {
	echo "$1: $PASSED passed, $FAILED failed"
	((FAILED == 0))
}
