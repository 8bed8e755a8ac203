#!/bin/bash
# Bad-input matrix for fgdecode on real recordings, run with the ASan/UBSan
# build (tests/decoder/fgdecode_san). Each case has an expected outcome:
#   error   exit 1 and a "fgdecode: FILE: ..." line on stderr
#   decode  exit 0 (or 3 with --strict) and output that marks what it could
#           not resolve
#   either  error or decode (truncation and flipped bytes: whether the damage
#           is detected depends on where it falls), never anything else
# and every case must end without a sanitizer report, signal or hang.
# Usage: test_badinput.sh [TRACE.dat]   (default: build/vm-e2e-6.1/trace.dat,
# which vm-e2e@6.1 leaves behind)
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FG=$ROOT/tests/decoder/fgdecode_san
TRACE=${1:-$ROOT/build/vm-e2e-6.1/trace.dat}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=tests/decoder/check_lib.sh
. "$ROOT/tests/decoder/check_lib.sh"

# libtracecmd's own leaks (tests/decoder/libtracecmd.supp); fgdecode leaves
# the handle of a trace with truncated data unfreed on purpose
# (decoder/pipeline/read.c, open_file()).
{ cat "$ROOT/tests/decoder/libtracecmd.supp"; echo 'leak:open_file'; } >"$TMP/lsan.supp"
export LSAN_OPTIONS="suppressions=$TMP/lsan.supp"
# Full unwinding, so the suppression can see libtracecmd's frames.
export ASAN_OPTIONS="exitcode=90:fast_unwind_on_malloc=0" UBSAN_OPTIONS="exitcode=91:print_stacktrace=1"

# run_case NAME EXPECT FILE [fgdecode options...]
run_case() {
	local name=$1 expect=$2 file=$3 rc why=""
	shift 3
	timeout 120 "$FG" "$@" "$file" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if grep -qE 'Sanitizer|runtime error' "$TMP/err"; then
		why="sanitizer report: $(grep -m1 -E 'Sanitizer|runtime error' "$TMP/err")"
	elif ((rc == 124)); then
		why="hung (killed after 120 s)"
	elif ((rc > 3)); then
		why="exit $rc"
	elif ((rc == 1)) && ! grep -q "^fgdecode: " "$TMP/err"; then
		why="exit 1 without a 'fgdecode: ...' line"
	elif [[ $expect == error && $rc != 1 ]]; then
		why="expected an error, got exit $rc"
	elif [[ $expect == decode && $rc == 1 ]]; then
		why="expected a decode, got: $(grep -m1 '^fgdecode: ' "$TMP/err")"
	fi
	check "$name" "$why" "exit $rc"
}

# flip FILE OUT SEED COUNT: OUT is FILE with COUNT bytes of its second half
# replaced by pseudo-random values (deterministic for SEED).
flip() {
	local size
	size=$(stat -c %s "$1")
	cp "$1" "$2"
	gawk -v seed="$3" -v n="$4" -v size="$size" 'BEGIN {
		srand(seed)
		for (i = 0; i < n; i++)
			printf "%d %d\n", int(size / 2 + rand() * (size / 2 - 1)), int(rand() * 256)
	}' | while read -r off val; do
		printf '%b' "$(printf '\\%03o' "$val")" | dd of="$2" bs=1 seek="$off" conv=notrunc status=none
	done
}

matrix_files() {
	run_case missing-file error "$TMP/does-not-exist"
	run_case directory error "$TMP"
	: >"$TMP/empty"
	run_case empty-file error "$TMP/empty"
	head -c 65536 /dev/urandom >"$TMP/random"
	run_case random-bytes error "$TMP/random"
	printf 'tracing\n%.0s' {1..200} >"$TMP/text"
	run_case text-file error "$TMP/text"
}

matrix_truncated() {
	local label=$1 file=$2 size off
	size=$(stat -c %s "$file")
	for off in 8 16 64 512 4096 $((size / 10)) $((size / 4)) $((size / 2)) \
		$((size * 3 / 4)) $((size * 9 / 10)) $((size - 4096)) $((size - 1)); do
		head -c "$off" "$file" >"$TMP/trunc"
		run_case "$label-truncated-at-$off" either "$TMP/trunc" --cookies
	done
}

# A trace cut in its tail.  Version 7: the options after the data gone (118 bytes: the strings section and the
# options that place the CPU data) decodes exactly as the whole file; a cut inside the last CPU's data decodes the
# whole chunks before it, warned, printing only lines the whole file prints; once a CPU's data is gone entirely
# the other CPUs' cannot be told apart and the file is refused, saying why.  Version 6: the whole pages of a cut
# CPU's data are kept.  At least one cut of each file must end inside the data and decode.
matrix_cut_tail() {
	local label=$1 file=$2 size cut inside=0 name
	shift 2
	size=$(stat -c %s "$file")
	timeout 120 "$FG" "$file" >"$TMP/whole" 2>/dev/null
	for cut in "$@"; do
		name=$label-last-$cut-bytes-cut
		head -c "$((size - cut))" "$file" >"$TMP/cut"
		timeout 120 "$FG" "$TMP/cut" >"$TMP/out" 2>"$TMP/err"
		if grep -q "; not decodable: " "$TMP/err"; then
			run_case "$name" error "$TMP/cut"
			expect_message "$name" ": truncated: the file ends at byte $((size - cut)), before "
		elif grep -q "the cut ends inside CPU" "$TMP/err"; then
			run_case "$name" decode "$TMP/cut"
			expect_message "$name" "warning: $TMP/cut: truncated at byte $((size - cut)): "
			expect_lines_of "$name" "$TMP/out" "$TMP/whole"
			inside=$((inside + 1))
		else
			run_case "$name" decode "$TMP/cut"
			expect_same "$name" "$TMP/out" "$TMP/whole"
		fi
	done
	check "$label-cut-inside-the-data" "$( ((inside)) || echo "no cut ended inside a CPU's data and decoded")" \
		"$inside cuts decoded"
}

# expect_same NAME OUT WHOLE: the cut file's output is the whole file's.
expect_same() {
	local why=""
	cmp -s "$2" "$3" || why="output differs from the whole file's: $(diff "$2" "$3" | head -n 2 | tr '\n' ' ')"
	check "$1" "$why" "output identical to the whole file's"
}

# expect_lines_of NAME OUT WHOLE: every line of OUT is a line of WHOLE, but the markers of what the cut took: a
# stack record, or a definition that CPU recorded later than another CPU's use of the cookie.
expect_lines_of() {
	local extra why=""
	extra=$(grep -v -e '<no stack: ' -e '<unknown cookie ' "$2" | sort | comm -23 - <(sort "$3") | head -n 1)
	[[ -z $extra && $(wc -l <"$2") -lt $(wc -l <"$3") ]] ||
		why="${extra:+a line the whole file lacks: $extra}${extra:-not fewer lines than the whole file}"
	check "$1" "$why" "$(wc -l <"$2") of $(wc -l <"$3") lines, all the whole file's"
}

# Every prefix of the first 100 bytes: an error naming what is missing, never an abort (libtracecmd 3.1.6 freed
# twice on a version 7 file cut inside its first section offset, bytes 29-36).
matrix_prefixes() {
	local label=$1 file=$2 off
	for ((off = 0; off <= 100; off++)); do
		head -c "$off" "$file" >"$TMP/prefix"
		run_case "$label-prefix-$off" error "$TMP/prefix"
	done
}

# expect_message NAME PATTERN: the last case's stderr ($TMP/err) has PATTERN.
expect_message() {
	local why=""
	grep -q "$2" "$TMP/err" || why="expected '$2', got: $(head -n1 "$TMP/err")"
	check "$1" "$why" "says: $2"
}

# Files that are not trace.dat files where one is expected, and the reverse: a message that says what they are.
matrix_kinds() {
	printf '# generation 5 entries 0/16 frames 0/64 bytes 100\n' >"$TMP/listing"
	run_case listing-as-trace error "$TMP/listing"
	expect_message listing-as-trace "a stack_map listing, not a trace.dat: read it with fgdecode map"
	timeout 60 "$FG" map "$TRACE" >/dev/null 2>"$TMP/err"
	expect_message trace-as-listing "a trace.dat, not a stack_map listing"
	cat "$TRACE" | timeout 60 "$FG" /dev/stdin >/dev/null 2>"$TMP/err"
	expect_message pipe "not seekable"
}

# A string option whose NUL is lost: libtracecmd 1.3 strdup()s a UNAME and
# strtok_r()s a TRACECLOCK, reading past the option (what fuzz_tracedat found,
# under ASan, for a UNAME in a version 7 file; a version 6 file's option list
# is read the same way).  fgdecode refuses the file first, naming the option;
# also when the file is cut after its data (CUT bytes off its end), whose
# salvaged copy keeps the option.
# string_option_without_nul LABEL FILE ID TEXT [CUT]: the option ID whose
# string starts with TEXT
string_option_without_nul() {
	local label=$1 file=$2 want=$3 text=$4 cut=${5:-0} at id size
	# The option's id and size are the 6 bytes before its string (no python3 in the trixie root this also
	# runs in: grep, od and dd).
	at=$(grep -obUaF "$text" "$file" | head -n1 | cut -d: -f1)
	id=$(od -An -tu2 -j $((${at:-6} - 6)) -N2 "$file" | tr -d ' ')
	size=$(od -An -tu4 -j $((${at:-6} - 4)) -N4 "$file" | tr -d ' ')
	if [[ -z $at || $id != "$want" || $(od -An -tu1 -j $((at + size - 1)) -N1 "$file" | tr -d ' ') != 0 ]]; then
		check "$label" "no option $want starting \"$text\" found"
		return
	fi
	head -c $(($(stat -c %s "$file") - cut)) "$file" >"$TMP/string"
	printf X | dd of="$TMP/string" bs=1 seek=$((at + size - 1)) conv=notrunc status=none
	run_case "$label" error "$TMP/string"
	expect_message "$label" "^fgdecode: $TMP/string: corrupt: offset $at: option $id: $size bytes with no NUL ending its string$"
}

# A version 7 file whose top BUFFER option lost the NUL of its clock and
# what follows it (page size, CPU count and table): libtracecmd 1.3's
# handle_buffer_option() strdup()ed the clock past the option (what
# fuzz_tracedat found in a 108-byte file).  The option is the last one
# naming the clock: its data is the offset (8 bytes) and the name "" before
# the clock, its id and size the 6 bytes before that.
buffer_clock_without_nul() {
	local label=$1 file=$2 clock at id size
	clock=$(trace-cmd dump --options -i "$file" 2>/dev/null | sed -n 's/^"\(.*\)" \[clock\]$/\1/p' | tail -n1)
	at=$(grep -obUaF "$clock" "$file" | tail -n1 | cut -d: -f1)
	id=$(od -An -tu2 -j $((${at:-15} - 15)) -N2 "$file" | tr -d ' ')
	size=$(od -An -tu4 -j $((${at:-15} - 13)) -N4 "$file" | tr -d ' ')
	if [[ -z $clock || -z $at || $id != 3 ]]; then
		check "$label" "no BUFFER option with a clock found"
		return
	fi
	cp "$file" "$TMP/clock"
	# From the clock's NUL to the option's end: no NUL left.
	head -c $((size - 9 - ${#clock})) /dev/zero | tr '\0' X |
		dd of="$TMP/clock" bs=1 seek=$((at + ${#clock})) conv=notrunc status=none
	run_case "$label" error "$TMP/clock"
	expect_message "$label" "^fgdecode: $TMP/clock: corrupt: offset $at: option 3: buffer clock: $((size - 9)) bytes with no NUL ending its string$"
}

matrix_string_options() {
	string_option_without_nul uname-without-nul "$TRACE" 5 'Linux '
	string_option_without_nul v6-uname-without-nul "$TMP/v6.dat" 5 'Linux '
	string_option_without_nul cut-v7-uname-without-nul "$TRACE" 5 'Linux ' 118
	string_option_without_nul traceclock-without-nul "$TRACE" 4 'local '
	string_option_without_nul v6-traceclock-without-nul "$TMP/v6.dat" 4 'local '
	buffer_clock_without_nul buffer-clock-without-nul "$TRACE"
}

matrix_flipped() {
	local label=$1 file=$2 seed
	for seed in 1 2 3 4 5 6; do
		flip "$file" "$TMP/flip" "$seed" 40
		run_case "$label-40-bytes-flipped-seed-$seed" either "$TMP/flip" --cookies --strict
	done
}

# A data page whose header claims more than a page (commit 0x7ffffff, with
# the "lost events stored after the data" flags): libtraceevent 1.7's
# kbuffer_load_subbuffer() reads past the page and crashes any reader
# (trace-cmd report too).  fgdecode must say so in one line instead.  The
# libtracecmd handle it was inside is abandoned, so leaks are not checked.
matrix_page_header() {
	local off
	off=$(trace-cmd dump --flyrecord -i "$TMP/v6.dat" 2>&1 | awk '/offset, size of cpu 0\]/ { print $1 }')
	[[ $off =~ ^[0-9]+$ ]] || { check page-header "no CPU 0 offset in trace-cmd dump"; return; }
	cp "$TMP/v6.dat" "$TMP/page"
	# the 8-byte commit word after the page's 8-byte time stamp, little-endian
	printf '\377\377\377\307\000\000\000\000' | dd of="$TMP/page" bs=1 seek=$((off + 8)) conv=notrunc status=none
	LSAN_OPTIONS="$LSAN_OPTIONS:detect_leaks=0" run_case v6-page-commit-past-the-page either "$TMP/page" --cookies
}

# --vmlinux and --modules: a file or directory that cannot serve is an error
# naming it and saying why (/bin/ls: "not a vmlinux: ET_DYN with no symbol
# table" where it is stripped, "not a vmlinux of the recorded kernel" where
# not); a directory without the recorded modules is one warning, and decodes.
matrix_symbols() {
	run_case vmlinux-missing error "$TRACE" --vmlinux "$TMP/no-vmlinux"
	expect_message vmlinux-missing "^fgdecode: $TMP/no-vmlinux: No such file or directory$"
	run_case vmlinux-not-elf error "$TRACE" --vmlinux "$TMP/text"
	expect_message vmlinux-not-elf "^fgdecode: $TMP/text: not an ELF file$"
	run_case vmlinux-of-another-program error "$TRACE" --vmlinux /bin/ls
	expect_message vmlinux-of-another-program "^fgdecode: /bin/ls: not a vmlinux"
	run_case modules-dir-missing error "$TRACE" --modules "$TMP/no-modules"
	expect_message modules-dir-missing "^fgdecode: $TMP/no-modules: cannot search it for modules$"
	mkdir -p "$TMP/no-ko"
	run_case modules-dir-without-modules decode "$TRACE" --modules "$TMP/no-ko"
	expect_message modules-dir-without-modules \
		"^fgdecode: warning: $TMP/no-ko: \(none of the recorded modules ([1-9][0-9]*) is under it\|the recording names no module\)"
}

# --stack-map LISTING: a listing that cannot be read or parsed is an error
# naming it; one of another generation decodes (it resolves nothing).
matrix_stack_map() {
	run_case stack-map-missing error "$TRACE" --stack-map "$TMP/no-listing"
	run_case stack-map-directory error "$TRACE" --stack-map "$TMP"
	run_case stack-map-empty error "$TRACE" --stack-map "$TMP/empty"
	run_case stack-map-random-bytes error "$TRACE" --stack-map "$TMP/random"
	printf '# generation 5 entries 1/16 frames 0/64 bytes 100\nslot 1 generation 5 hits 2 depth 0\n' >"$TMP/listing-0.1"
	run_case stack-map-of-stackmap-0.1 error "$TRACE" --stack-map "$TMP/listing-0.1"
	printf '# generation 5 entries 1/16 frames 0/64 bytes 100\nslot 1 generation 5 hits 2 depth 0 owner 1 a:b flags 0x8\n' >"$TMP/listing-flags"
	run_case stack-map-unknown-flags error "$TRACE" --stack-map "$TMP/listing-flags"
	printf '# generation 5 entries 1/16 frames 1/64 bytes 100\nslot 1 generation 5 hits 2 depth 2 owner 1 a:b flags 0x0\n 0xffffffff81000000 x\n' >"$TMP/listing-cut"
	run_case stack-map-cut-in-a-stack error "$TRACE" --stack-map "$TMP/listing-cut"
	printf '# generation 4294967295 entries 1/16 frames 1/64 bytes 100\nslot 1 generation 4294967295 hits 2 depth 1 owner 65535 ? flags 0x1\n 0xffffffff81000000 x\n' >"$TMP/listing-other"
	run_case stack-map-of-another-generation decode "$TRACE" --stack-map "$TMP/listing-other" --cookies
}

# --weight FIELD: a field the events do not have, or one that is not a
# number, is an error naming the event; a numeric field decodes.
matrix_weight() {
	run_case weight-unknown-field error "$TRACE" --folded --weight bytes_alloc
	run_case weight-string-field error "$TRACE" --folded --weight prev_comm
	run_case weight-numeric-field decode "$TRACE" --top 3 --weight prev_state
	grep -q "^fgdecode: weight: sum of prev_state, [0-9]* over [1-9][0-9]* events with a stack$" "$TMP/err" ||
		check weight-numeric-field "no weight summary line"
}

# --off-cpu: a real trace with sched_switch stacks decodes (charging
# intervals); one whose data is damaged may fail but must not crash.
matrix_off_cpu() {
	run_case off-cpu-real-trace decode "$TRACE" --off-cpu --task-root --folded
	grep -q "^fgdecode: off-cpu: [0-9.]* [mun]*s ([1-9][0-9]* ns) in [1-9][0-9]* intervals\?," "$TMP/err" ||
		check off-cpu-real-trace "no off-cpu summary line"
	flip "$TMP/v6.dat" "$TMP/flip" 7 40
	run_case off-cpu-40-bytes-flipped either "$TMP/flip" --off-cpu --top 5
	run_case off-cpu-json-40-bytes-flipped either "$TMP/flip" --off-cpu --json
	head -c $(($(stat -c %s "$TMP/v6.dat") / 2)) "$TMP/v6.dat" >"$TMP/trunc"
	run_case off-cpu-truncated-at-half either "$TMP/trunc" --off-cpu --top 5
	run_case off-cpu-json-truncated-at-half either "$TMP/trunc" --off-cpu --json
	run_case wakers-without-sched-waking error "$TRACE" --off-cpu --wakers --folded
}

# fgdecode diff BASE NEW (the file run_case adds is NEW): a trace against
# itself changes nothing; a damaged or missing side may fail, naming it.
matrix_diff() {
	run_case diff-with-itself decode "$TRACE" diff --folded "$TRACE"
	gawk '$(NF - 1) != $NF { bad++ } END { exit !(NR > 0 && !bad) }' "$TMP/out" ||
		check diff-with-itself "some stack's weights differ, or no stack"
	run_case diff-new-missing error "$TMP/does-not-exist" diff "$TRACE"
	run_case diff-base-not-a-trace error "$TRACE" diff "$TMP/random"
	run_case diff-new-truncated-at-half either "$TMP/trunc" diff --off-cpu --folded "$TMP/v6.dat"
	run_case diff-new-flipped either "$TMP/flip" diff --weight prev_state "$TMP/v6.dat"
}

main() {
	[[ -x $FG ]] || { echo "test_badinput: build tests/decoder first (make -C tests/decoder)"; exit 2; }
	[[ -f $TRACE ]] || { echo "test_badinput: no real trace at $TRACE (run tests/vm/test_e2e.sh)"; exit 2; }
	run_case real-trace decode "$TRACE" --cookies --strict
	trace-cmd convert --file-version 6 -i "$TRACE" -o "$TMP/v6.dat" >/dev/null 2>&1 ||
		{ echo "test_badinput: trace-cmd convert to v6 failed"; exit 2; }
	run_case real-trace-v6 decode "$TMP/v6.dat" --cookies --strict
	matrix_files
	matrix_prefixes v7 "$TRACE"
	matrix_prefixes v6 "$TMP/v6.dat"
	matrix_kinds
	matrix_string_options
	matrix_truncated v7 "$TRACE"
	matrix_cut_tail v7 "$TRACE" 118 300 1000 2000 4096 40000
	matrix_cut_tail v6 "$TMP/v6.dat" 1 118 4096 10000
	matrix_truncated v6 "$TMP/v6.dat"
	matrix_flipped v6 "$TMP/v6.dat"
	matrix_page_header
	matrix_symbols
	matrix_stack_map
	matrix_weight
	matrix_off_cpu
	matrix_diff
	check_summary badinput
}

main "$@"
