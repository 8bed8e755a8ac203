#!/bin/bash
# Run libFuzzer harnesses and report executions and crashes per target.
# Usage: run-fuzz.sh SECONDS TARGET...     fuzz each TARGET for SECONDS
#        run-fuzz.sh --regress TARGET...   replay regress/TARGET/* only
# Exit: 0 when no target crashed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")" || exit 2

# Extra libFuzzer flags and ASAN_OPTIONS per target. libtracecmd allocates
# whatever sizes a trace.dat's headers claim (3 GB seen) and copes with a
# failed allocation: let such an allocation fail instead of reporting an
# out-of-memory crash that is not fgdecode's. It also loses such buffers on
# some of its error paths (a 3.9 GB "leak" once, not reproducible on its own):
# leak checking stays on for the other targets, whose parsers are ours, and
# ASan/UBSan still stop fuzz_tracedat on any memory error.
target_flags() {
	case $1 in
	fuzz_tracedat) echo "-rss_limit_mb=6000 -malloc_limit_mb=6000 -detect_leaks=0" ;;
	esac
}

target_asan_options() {
	case $1 in
	fuzz_tracedat) echo "allocator_may_return_null=1:detect_leaks=0" ;;
	esac
}

fuzz_one() {
	local target=$1 seconds=$2 log execs flags
	mkdir -p "crashes/$target" "corpus/$target"
	log=$(mktemp)
	read -r -a flags <<<"$(target_flags "$target")"
	ASAN_OPTIONS=$(target_asan_options "$target") "./$target" -max_total_time="$seconds" -print_final_stats=1 \
		${flags[@]+"${flags[@]}"} -artifact_prefix="crashes/$target/" "corpus/$target" >"$log" 2>&1
	local rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	if ((rc != 0)); then
		echo "fuzz: $target: CRASH after ${execs:-?} executions; input in crashes/$target/"
		grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -n 5
		rm -f "$log"
		return 1
	fi
	echo "fuzz: $target: ${execs:-?} executions in ${seconds}s, 0 crashes, corpus $(find "corpus/$target" -type f | wc -l) inputs"
	rm -f "$log"
}

regress_one() {
	local target=$1 files
	files=$(find "regress/$target" -type f 2>/dev/null | wc -l)
	if ((files == 0)); then
		echo "fuzz: $target: no regression inputs"
		return 0
	fi
	ASAN_OPTIONS=$(target_asan_options "$target") "./$target" "regress/$target"/* >/dev/null 2>&1 || {
		echo "fuzz: $target: a regression input crashes again"
		return 1
	}
	echo "fuzz: $target: $files regression inputs replayed, 0 crashes"
}

main() {
	local failed=0 target
	if [[ $1 == --regress ]]; then
		shift
		for target in "$@"; do regress_one "$target" || failed=1; done
	else
		local seconds=$1
		shift
		for target in "$@"; do fuzz_one "$target" "$seconds" || failed=1; done
	fi
	return $failed
}

main "$@"
