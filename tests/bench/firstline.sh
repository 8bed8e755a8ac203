#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# B10, time to first line with a full vmlinux: fgdecode --vmlinux/--modules
# on the vm-e2e trace against Debian's own -dbg vmlinux (633 MB, DWARF 5),
# beside eu-addr2line -f -i and addr2line -f -i given the same distinct
# vmlinux addresses (at address - 1, the lookup address fgdecode uses), each
# cold (page cache dropped before the run) and warm (median of 3).
#
#   tests/bench/firstline.sh TRACE.dat [--prefix P] [--append FILE]
#
# "first" is the wall time from the start until the tool's first answer
# reaches the reader (fgdecode: its first "=>" line; the addr2lines: their
# first line), "total" until it exits.  tests/decoder/test_dbg.sh fetches
# the -dbg files and lists the addresses (build/decoder-dbg/); it runs first.
# Prints "key value" lines (seconds); nothing judges a timing.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TRACE=${1:?usage: firstline.sh TRACE.dat [--prefix P] [--append FILE]}
shift
PREFIX=b10_ APPEND=/dev/stdout
while (($#)); do
	case $1 in
	--prefix) PREFIX=${2:?}; shift 2 ;;
	--append) APPEND=${2:?}; shift 2 ;;
	*) echo "firstline: unknown option $1" >&2; exit 2 ;;
	esac
done

"$ROOT/tests/decoder/test_dbg.sh" "$TRACE" >&2
DBG=$ROOT/build/decoder-dbg
REL=$(trace-cmd report --uname -i "$TRACE" 2>/dev/null | gawk 'NR == 2 { print $3 }')
D=${STACKMAP_CACHE:-/var/cache/stackmap}/debuginfo/$REL/usr/lib/debug
VMLINUX=$D/boot/vmlinux-$REL
MODDIR=$D/lib/modules/$REL
mapfile -t LOOKUPS < <(cut -d' ' -f2 "$DBG/vmlinux.lookups")
FG=$ROOT/decoder/fgdecode

now() { date +%s.%N; }

drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# run_one PATTERN CMD...: "FIRST TOTAL" seconds: until the first output line
# matching PATTERN, and until CMD exits.
run_one() {
	local pattern=$1 start first end
	shift
	start=$(now)
	first=$({ "$@" 2>/dev/null || true; } | { grep -m1 -E "$pattern" >/dev/null || true; now; cat >/dev/null; })
	end=$(now)
	gawk -v s="$start" -v f="$first" -v e="$end" 'BEGIN { printf "%.3f %.3f\n", f - s, e - s }'
}

# measure NAME PATTERN CMD...: NAME_first_cold, NAME_total_cold and the
# medians of three warm runs.
measure() {
	local name=$1 pattern=$2 cold i
	shift 2
	drop_caches
	cold=$(run_one "$pattern" "$@")
	for i in 1 2 3; do run_one "$pattern" "$@"; done | sort -n >"$DBG/warm.$name"
	{
		echo "${PREFIX}${name}_first_cold_s ${cold% *}"
		echo "${PREFIX}${name}_total_cold_s ${cold#* }"
		echo "${PREFIX}${name}_first_warm_s $(sed -n 2p "$DBG/warm.$name" | cut -d' ' -f1)"
		echo "${PREFIX}${name}_total_warm_s $(sort -k2 -n "$DBG/warm.$name" | sed -n 2p | cut -d' ' -f2)"
	} >>"$APPEND"
}

echo "${PREFIX}addresses ${#LOOKUPS[@]}" >>"$APPEND"
echo "${PREFIX}events $("$FG" "$TRACE" 2>&1 >/dev/null | gawk '$2 == "" || $3 != "events," { next } { print $2 }')" >>"$APPEND"
measure fgdecode '=>' "$FG" --vmlinux "$VMLINUX" --modules "$MODDIR" "$TRACE"
measure eu_addr2line . eu-addr2line -f -i -e "$VMLINUX" "${LOOKUPS[@]}"
measure addr2line . addr2line -f -i -e "$VMLINUX" "${LOOKUPS[@]}"
