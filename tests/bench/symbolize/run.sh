#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Symbolization benchmark: fgdecode's symbolizer (symbench) against binutils
# `addr2line -f -i` and `eu-addr2line -f -i`, on the same distinct addresses
# of a large synthetic program with inlined code, in the same run.
#
#   tests/bench/symbolize/run.sh [--quick] [--keep] [--prefix P] [--append FILE]
#
# Builds a C program (FILES files x FUNCS functions, always_inline chains,
# -O2 -g, linked at a kernel address like a vmlinux), picks ADDRS distinct
# instruction addresses of its text at random (fixed seed), runs the three
# tools under /usr/bin/time -v and prints "key value" lines (figures on
# standard output, progress on standard error): per-address time, first
# lookup (index build), peak RSS, wall-time ratios, and how many addresses
# agree with eu-addr2line (every frame's function and file:line) and with
# addr2line.  --quick: a small program and 500 addresses (under a minute).
# --prefix P: P before every key; --append FILE: figures appended to FILE
# instead of standard output (tests/bench/run.sh: --prefix b8_).
# Then B3: fgdecode on two traces whose stacks lie in the program, each
# distinct stack used once and ten times (repeat.c), with and without
# --vmlinux: the extra time DWARF costs should grow with distinct stacks, not
# with events (keys b3_*, whatever --prefix says).
# Nothing here judges a timing; exit 1 only when something fails to run.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
QUICK=0
KEEP=0
PREFIX=""
APPEND=/dev/stdout
usage() {
	echo "usage: $0 [--quick] [--keep] [--prefix P] [--append FILE]" >&2
	exit 2
}
while (($#)); do
	case $1 in
	--quick) QUICK=1 ;;
	--keep) KEEP=1 ;;
	--prefix) (($# > 1)) || usage; PREFIX=$2; shift ;;
	--append) (($# > 1)) || usage; APPEND=$2; shift ;;
	*) usage ;;
	esac
	shift
done
# Sizes; FILES, FUNCS and ADDRS in the environment override them.
if ((QUICK)); then
	FILES=${FILES:-8} FUNCS=${FUNCS:-20} ADDRS=${ADDRS:-500}
else
	FILES=${FILES:-100} FUNCS=${FUNCS:-80} ADDRS=${ADDRS:-10000}
fi
LINK=0xffffffff81000000
WORK=$(mktemp -d /tmp/symbench.XXXXXX)
((KEEP)) || trap 'rm -rf "$WORK"' EXIT

log() {
	echo "symbolize: $*" >&2
}
trap 'log "failed at line $LINENO"' ERR

build_program() {
	local i
	for ((i = 0; i < FILES; i++)); do
		awk -v file="$i" -v files="$FILES" -v funcs="$FUNCS" -f "$HERE/gen.awk" >"$WORK/f$i.c"
	done
	# One object per file, in parallel, then a vmlinux-like link.
	(cd "$WORK" && find . -maxdepth 1 -name 'f*.c' -printf '%f\0' | xargs -0 -P "$(nproc)" -n 4 \
		gcc -c -O2 -g -mcmodel=kernel -fno-pic -fno-asynchronous-unwind-tables)
	(cd "$WORK" && gcc -nostdlib -static -no-pie -Wl,-Ttext-segment=$LINK \
		-Wl,-e,bench_entry -Wl,--build-id=none -o prog.elf f*.o)
	nm "$WORK/prog.elf" >"$WORK/kallsyms"
}

# Distinct instruction addresses of the text, a random sample (fixed seed).
pick_addresses() {
	objdump -d --no-show-raw-insn "$WORK/prog.elf" |
		awk '/^ *ffffffff[0-9a-f]+:/ { sub(":", "", $1); print "0x" $1 }' |
		sort -u | awk 'BEGIN { srand(42) } { printf "%.12f %s\n", rand(), $0 }' |
		sort -n | awk -v n="$ADDRS" 'NR <= n { print $2 }' >"$WORK/addrs"
}

# "$1_rss_kb N" from /usr/bin/time -v output file $2.
rss_figure() {
	awk -v p="$1" '/Maximum resident set size/ { printf "%s_rss_kb %d\n", p, $NF }' "$2"
}

# Run "$@" under /usr/bin/time -v into $WORK/t.$1 (after shifting the
# name); print "$1_wall_s S" (wall time by the shell's microsecond clock)
# and "$1_rss_kb N".  Standard input and output are the command's.
timed() {
	local name=$1 t0 t1
	shift
	t0=$EPOCHREALTIME
	/usr/bin/time -v -o "$WORK/t.$name" "$@"
	t1=$EPOCHREALTIME
	echo "${name}_wall_s $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')" >&3
	rss_figure "$name" "$WORK/t.$name" >&3
}

# addr2line -a -f -i output -> "ADDR NAME FILE:LINE;..." (column and
# discriminator dropped, " inlined at ..." dropped from names).
normalize() {
	awk '
	function flush() { if (addr != "") print addr " " chain }
	/^0x[0-9a-f]+$/ { flush(); addr = sprintf("0x%016s", substr($0, 3)); chain = ""; want = "name"; next }
	want == "name" { name = $1; want = "loc"; next }
	want == "loc" {
		loc = $1
		if (split(loc, p, ":") == 3)
			loc = p[1] ":" p[2]
		chain = chain name " " loc ";"; want = "name"; next
	}
	END { flush() }' | sed 's/0x0*\(ffffffff\)/0x\1/'
}

# How many lines of $1 and $2 are the same, address by address.
agree() {
	paste -d '\n' "$1" "$2" | awk 'NR % 2 { a = $0; next } $0 == a { n++ } END { print n + 0 }'
}

run_tools() {
	log "symbench (index)"
	timed ours "$HERE/symbench" "$WORK/prog.elf" "$WORK/kallsyms" \
		"$WORK/addrs" "$WORK/ours.txt" | sed 's/^/ours_/'
	log "symbench --naive (libdw calls per address)"
	timed naive "$HERE/symbench" --naive "$WORK/prog.elf" "$WORK/kallsyms" \
		"$WORK/addrs" "$WORK/naive.txt" |
		grep -E '^(first_ms|per_addr_us|warm_per_addr_us) ' | sed 's/^/naive_/'
	log "addr2line"
	timed binutils addr2line -a -f -i -e "$WORK/prog.elf" \
		<"$WORK/addrs" >"$WORK/binutils.raw"
	log "eu-addr2line"
	DEBUGINFOD_URLS='' timed eu eu-addr2line -a -f -i -e "$WORK/prog.elf" \
		<"$WORK/addrs" >"$WORK/eu.raw"
}

report() {
	local n=$ADDRS f=$WORK/figures
	{
		echo "functions $((FILES * FUNCS))"
		echo "debug_bytes $(size -A "$WORK/prog.elf" | awk '$1 ~ /^\.debug_/ { s += $2 } END { print s }')"
		run_tools 3>&1
		normalize <"$WORK/eu.raw" >"$WORK/eu.txt"
		normalize <"$WORK/binutils.raw" >"$WORK/binutils.txt"
		echo "agree_eu_addr2line $(agree "$WORK/ours.txt" "$WORK/eu.txt")"
		# eu-addr2line -i takes the inline chain at the start of the
		# line-table row, not at the address: past a function's end
		# (padding) it prints the frames of the function before.
		echo "eu_differs_outside_functions $(paste -d '\n' "$WORK/ours.txt" "$WORK/eu.txt" |
			awk 'NR % 2 { a = $0; next } $0 != a && a ~ /^0x[0-9a-f]+ \?\? [^;]*;$/ { n++ } END { print n + 0 }')"
		echo "agree_addr2line $(agree "$WORK/ours.txt" "$WORK/binutils.txt")"
		echo "agree_naive $(agree "$WORK/ours.txt" "$WORK/naive.txt")"
	} >"$f"
	awk -v n="$n" '
	{ v[$1] = $2; print }
	function ratio(a, b) { return b > 0 ? sprintf("%.1f", a / b) : "n/a" }
	END {
		printf "binutils_per_addr_us %.3f\n", v["binutils_wall_s"] * 1e6 / n
		printf "eu_per_addr_us %.3f\n", v["eu_wall_s"] * 1e6 / n
		printf "ratio_wall_vs_addr2line %s\n", ratio(v["binutils_wall_s"], v["ours_wall_s"])
		printf "ratio_wall_vs_eu_addr2line %s\n", ratio(v["eu_wall_s"], v["ours_wall_s"])
		printf "ratio_per_addr_vs_addr2line %s\n", ratio(v["binutils_wall_s"] * 1e6 / n, v["ours_per_addr_us"])
		printf "ratio_warm_per_addr_vs_addr2line %s\n", ratio(v["binutils_wall_s"] * 1e6 / n, v["ours_warm_per_addr_us"])
		printf "ratio_per_addr_vs_naive %s\n", ratio(v["naive_per_addr_us"], v["ours_per_addr_us"])
		printf "ratio_warm_per_addr_vs_naive %s\n", ratio(v["naive_warm_per_addr_us"], v["ours_warm_per_addr_us"])
	}' "$f" | sed "s/^/$PREFIX/" >>"$APPEND"
}

# Median wall time of 3 runs of "$@" (output discarded), in seconds.
median3() {
	local i t0 t1
	for i in 1 2 3; do
		t0=$EPOCHREALTIME
		"$@" >/dev/null 2>&1 || return 1
		t1=$EPOCHREALTIME
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }'
	done | sort -n | sed -n 2p
}

# B3: DWARF cost at 1x and 10x repetition of the same distinct stacks.
measure_repeat() {
	local fg=$HERE/../../../decoder/fgdecode stacks r plain dwarf
	[[ -x $fg ]] || { log "B3: build decoder/fgdecode first"; return 1; }
	stacks=$( ((QUICK)) && echo 100 || echo 2000)
	echo "b3_stacks $stacks" >>"$APPEND"
	for r in 1 10; do
		log "B3: $stacks stacks x $r"
		"$HERE/repeat" "$WORK/addrs" "$WORK/kallsyms" "$stacks" "$r" "$WORK/r$r.dat" || return 1
		plain=$(median3 "$fg" "$WORK/r$r.dat") || return 1
		dwarf=$(median3 "$fg" --vmlinux "$WORK/prog.elf" "$WORK/r$r.dat") || return 1
		echo "b3_x${r}_plain_s $plain" >>"$APPEND"
		echo "b3_x${r}_dwarf_s $dwarf" >>"$APPEND"
	done
}

make -s -C "$HERE" >&2
log "work directory $WORK, $FILES files x $FUNCS functions, $ADDRS addresses"
build_program
pick_addresses
ADDRS=$(wc -l <"$WORK/addrs")
report
measure_repeat
