#!/bin/bash
# fgdecode's outputs byte for byte against those of another revision (default: the last one that changed an
# output on purpose; before it, 833e7aa, the last one before the decoder became a pipeline with one output
# interface, issue "One event stream, many outputs", which 367 runs matched byte for byte): every
# output and analysis on the fixture traces and on the vm-e2e and vm-answers recordings of each kernel found
# under build/, plus diff and map.  Standard output, standard error (the summary) and the exit status of
# each run must be the same; --pprof and --flamegraph write to standard output, so their bytes are compared
# too.  A change meant to alter an output is compared against its own parent (OUTPUTS_BASE=HEAD~1), and then
# becomes the default base: eaae936 (--pprof: a symbolic field's raw value as a NAME_raw label beside the
# printed one), with f92090d before it (--pprof: number labels without a unit of their own in "count"), whose
# differences from f16259e, the commit before both, were only the --pprof runs (9 of 243 runs here: every
# trace's --pprof -, and nosched.dat's --weight bytes_alloc --pprof -); before them 81d7ed7 (--wakers' waker
# frames as blocked frames), whose differences from its parent were only the --off-cpu --wakers runs of --top (the waker's comm in the row, "; woken by COMM", no
# longer a frame; its frames sym+off/size (addr)) and --pprof (its frames address locations, its comm the
# "waker" label), on views.dat and kstack.dat; before it a2061bb (--pprof's field labels: the --pprof runs'
# samples split by the events' field values and labelled with them), 1ab7e73 (--json's
# "printed" symbolic fields), e9a1c8b (the summary of a trace without stackmap's events), fc7707f (-T stacks without ftrace's own frames atop
# them), cdd4f3d (--json's "fields"), ab604be (--flamegraph's labels written into the file, its legend, the
# counts in its title, a module's name in its tooltips), 73dd7c1 (off-CPU units, singulars) and 22e87fb (the
# summary's events and records, --top's events, tasks and times for people, --show-defines' owner names).
#
# Usage: tests/decoder/test_outputs.sh [TRACE.dat ...]   (default: the traces named above)
# Environment: OUTPUTS_BASE=REV (a git revision), FGDECODE=PATH (the fgdecode under test, default
#              decoder/fgdecode, built by make -C decoder).
# The base is built once per revision into build/outputs-base-REV from `git archive` of that revision.
# Exit status: 0 when every run matched, 1 when one did not (the first few differences are printed), 2 on
# setup errors.  Prints how many runs it compared.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
OUTPUTS_BASE=${OUTPUTS_BASE:-eaae936}
FGDECODE=${FGDECODE:-$ROOT/decoder/fgdecode}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

die() {
	echo "test_outputs: $*" >&2
	exit 2
}

# The base revision's fgdecode, built once.
base_fgdecode() {
	local rev dir
	rev=$(git rev-parse --short=12 "$OUTPUTS_BASE^{commit}" 2>/dev/null) ||
		die "OUTPUTS_BASE=$OUTPUTS_BASE is not a revision of this clone"
	dir=$ROOT/build/outputs-base-$rev
	if [[ ! -x $dir/decoder/fgdecode ]]; then
		rm -rf "$dir" && mkdir -p "$dir"
		git archive "$rev" decoder lib include mk | tar -x -C "$dir" ||
			die "cannot extract $rev"
		make -s -C "$dir/decoder" >"$dir.log" 2>&1 || die "building fgdecode at $rev failed: $dir.log"
	fi
	echo "$dir/decoder/fgdecode"
}

[[ -x $FGDECODE ]] || die "no $FGDECODE (make -C decoder)"
BASE=$(base_fgdecode)

if (($# == 0)); then
	set -- tests/fixtures/traces/*.dat
	for f in build/vm-e2e-*/trace.dat build/vm-answers-*/{base,new,nosched}.dat; do
		[[ -f $f ]] && set -- "$@" "$f"
	done
fi

runs=0 bad=0
# same NAME ARGS...: run both fgdecodes with ARGS and compare everything they printed and their status.
same() {
	local name=$1 s
	shift
	s=0
	"$BASE" "$@" >"$TMP/b.out" 2>"$TMP/b.err" || s=$?
	echo "exit $s" >>"$TMP/b.err"
	s=0
	"$FGDECODE" "$@" >"$TMP/n.out" 2>"$TMP/n.err" || s=$?
	echo "exit $s" >>"$TMP/n.err"
	# The program's own path shows in nothing it prints but its name.
	sed -i "s|$BASE|fgdecode|g" "$TMP/b.err"
	sed -i "s|$FGDECODE|fgdecode|g" "$TMP/n.err"
	runs=$((runs + 1))
	if cmp -s "$TMP/b.out" "$TMP/n.out" && cmp -s "$TMP/b.err" "$TMP/n.err"; then
		return 0
	fi
	bad=$((bad + 1))
	((bad > 5)) && return 0
	echo "test_outputs: differs: fgdecode $name $*" >&2
	diff <(cat "$TMP/b.out" "$TMP/b.err") <(cat "$TMP/n.out" "$TMP/n.err") | head -n 6 >&2 || true
}

# Every output and analysis of fgdecode report on one trace (those a trace cannot answer, e.g. --off-cpu
# without sched_switch, must fail the same way).
REPORT_RUNS=(
	""
	"--cookies"
	"--show-defines"
	"--cookies --show-defines -N"
	"--json"
	"--folded"
	"--folded --merge"
	"--top 10"
	"--pprof -"
	"--flamegraph -"
	"--strict"
	"--weight bytes_alloc --top 5"
	"--weight bytes_req --json"
	"--weight bytes_alloc --folded"
	"--weight bytes_alloc --pprof -"
	"--weight bytes_alloc --flamegraph -"
	"--off-cpu --top 10"
	"--off-cpu --folded --task-root"
	"--off-cpu --json"
	"--off-cpu --json --wakers"
	"--off-cpu --folded --wakers"
	"--off-cpu --top 10 --wakers"
	"--off-cpu --pprof - --wakers"
	"--off-cpu --pprof -"
	"--off-cpu --flamegraph -"
	"--event sched_switch --cpu 0 --top 3"
	"--event kmalloc --json"
	"--cookies --stack-map build/vm-e2e-newest/stack_map.txt"
)

for trace in "$@"; do
	[[ -f $trace ]] || die "no $trace"
	for args in "${REPORT_RUNS[@]}"; do
		# shellcheck disable=SC2086 # args is a list of options
		same report $args "$trace"
	done
done

# diff: the answers' pairs of each kernel, every output.
for dir in build/vm-answers-*; do
	[[ -f $dir/base.dat && -f $dir/new.dat ]] || continue
	for args in "" "--folded" "--top 5" "--normalize --merge" "--weight bytes_alloc" "--off-cpu --top 5" \
		"--flamegraph -"; do
		# shellcheck disable=SC2086
		same diff diff $args "$dir/base.dat" "$dir/new.dat"
	done
done

# map: the listings vm-e2e saved, with an empty --kallsyms file (without one, map names the frames from the
# names the listing carries since the change after the pipeline: a change of output, not of the pipeline).
: >"$TMP/no-kallsyms"
for listing in build/vm-e2e-*/stack_map.txt; do
	[[ -f $listing ]] || continue
	for args in "" "--json" "--folded" "--top 5"; do
		# shellcheck disable=SC2086
		same map map --kallsyms "$TMP/no-kallsyms" $args "$listing"
	done
done

echo "test_outputs: $runs runs on $# traces compared with $OUTPUTS_BASE's fgdecode: $((runs - bad)) same, $bad differ"
((bad == 0))
