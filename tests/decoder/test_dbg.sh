#!/bin/bash
# The real-debuginfo end-to-end test: a trace recorded on a Debian kernel in
# the guest, symbolized with fgdecode against Debian's own -dbg package of
# that kernel, checked address by address against eu-addr2line.
#
# Usage: tests/decoder/test_dbg.sh [TRACE.dat]
#   without TRACE: build/vm-e2e-$STACKMAP_KERNEL/trace.dat (the vm-e2e suite's
#   recording on that kernel, as tests/run-tests.sh runs it per kernel);
#   output in build/decoder-dbg[-$STACKMAP_KERNEL]
#   An arm64 trace is symbolized on this host the same way (libdw and
#   eu-addr2line read any ELF machine), its -dbg package fetched through
#   the arm64 kernel's apt state: the arm64 fixture, by hand,
#     STACKMAP_KERNEL=6.12-arm64 tests/decoder/test_dbg.sh \
#         tests/fixtures/traces/arm64/views.dat
#   (1.03 GB download, 6.6 GB unpacked; the vmlinux and 9p modules kept).
#
# The kernel release is the trace's uname (trace-cmd report --uname).  The
# package linux-image-RELEASE-dbg is downloaded once (apt-get download,
# 859 MB for 6.1.0-57) and only the vmlinux and the modules the trace's
# stacks name are extracted into $STACKMAP_CACHE/debuginfo/RELEASE (default
# /var/cache/stackmap); the .deb is removed afterwards.
#
# For every distinct address of the trace's stacks (every frame is a return
# address, looked up at address - 1, except one at a function's first byte,
# an interrupted instruction looked up at itself: events.h; as fgdecode does):
#   - the inline chain (names and file:line, innermost first) fgdecode
#     prints with --vmlinux/--modules equals eu-addr2line -f -i's at the same
#     link-time address (vmlinux: address - KASLR offset; module: offset in
#     its section, eu-addr2line -j SECTION);
#   - the physical frame's name, offset, size and module equal those fgdecode
#     prints without debug info (the recorded kallsyms).
# File names are equal, or fgdecode's is eu-addr2line's without its leading
# build directories (libdw's line table file vs eu-addr2line's joined
# include directory; counted and reported).  Any other difference fails.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FG=$ROOT/decoder/fgdecode
if (($#)); then
	TRACE=$1
	OUT=$ROOT/build/decoder-dbg
else
	TRACE=$ROOT/build/vm-e2e-${STACKMAP_KERNEL:?usage: test_dbg.sh TRACE.dat, or STACKMAP_KERNEL=NAME}/trace.dat
	OUT=$ROOT/build/decoder-dbg-$STACKMAP_KERNEL
fi

say() { echo "test_dbg: $*"; }
fail() {
	echo "test_dbg: $1 failed: $2" >&2
	exit 1
}

[[ -s $TRACE ]] || fail setup "no trace $TRACE (run the vm-e2e suite first)"
REL=$(trace-cmd report --uname -i "$TRACE" 2>/dev/null | gawk 'NR == 2 { print $3 }')
[[ -n $REL ]] || fail setup "$TRACE: no uname"
CACHE=${STACKMAP_CACHE:-/var/cache/stackmap}/debuginfo/$REL
DBG=$CACHE/usr/lib/debug
VMLINUX=$DBG/boot/vmlinux-$REL
MODDIR=$DBG/lib/modules/$REL
rm -rf "$OUT"
mkdir -p "$OUT" "$CACHE"

# Without debug info: the recorded kallsyms' frames (address -> frame).
"$FG" --no-summary "$TRACE" >"$OUT/plain.txt"
gawk '$1 == "=>" && $NF ~ /^\([0-9a-f]+\)$/ { a = substr($NF, 2, length($NF) - 2); $NF = ""; sub(/^ *=> /, ""); sub(/ +$/, ""); print a, $0 }' \
	"$OUT/plain.txt" | sort -u >"$OUT/plain.frames"
mapfile -t MODS < <(gawk '{ for (i = 3; i <= NF; i++) if ($i ~ /^\[.*\]$/) print substr($i, 2, length($i) - 2) }' \
	"$OUT/plain.frames" | sort -u)

# find_ko NAME: the first NAME.ko under MODDIR ('-' and '_' alike), or
# nothing.  find stops at the first (-quit): a reader that stops early
# (head, grep -q) would kill a find with more to print, and pipefail would
# take that for "missing".
find_ko() {
	find "$MODDIR" -name "$(sed 's/[-_]/[-_]/g' <<<"$1").ko" -print -quit 2>/dev/null
}

# download PACKAGE: apt-get download into CACHE, in the kernel's build root when it has one (the host's apt
# state does not see trixie-backports: tests/kernels.sh newest), through its own apt state for an arm64 kernel
# (the host's knows no arm64 package: tests/kernels.sh apt-config).
download() {
	local br="" conf=""
	if [[ -n ${STACKMAP_KERNEL:-} ]]; then
		conf=$("$ROOT/tests/kernels.sh" apt-config "$STACKMAP_KERNEL")
		[[ -n $conf ]] || br=$("$ROOT/tests/kernels.sh" build-root "$STACKMAP_KERNEL")
	fi
	if [[ -n $conf ]]; then
		chown _apt "$CACHE" 2>/dev/null || true
		(cd "$CACHE" && APT_CONFIG=$conf apt-get download "$1")
	elif [[ -n $br ]]; then
		"$ROOT/tests/roots.sh" run "$br" --bind "$CACHE" -- \
			bash -c 'cd "$1" && apt-get download -q -o APT::Sandbox::User=root "$2"' download "$CACHE" "$1"
	else
		(cd "$CACHE" && apt-get download "$1")
	fi
}

# fetch: the vmlinux and the modules of MODS, extracted once.
fetch() {
	# 7.x packages keep the vmlinux in lib/modules/REL/ and point boot/vmlinux-REL at it: both are taken.
	local m patterns=("./usr/lib/debug/*/vmlinux*") missing=0 deb start=$SECONDS
	for m in "${MODS[@]}"; do
		[[ -n $(find_ko "$m") ]] || missing=1
		patterns+=("./usr/lib/debug/lib/modules/$REL/*/$(sed 's/[-_]/[-_]/g' <<<"$m").ko")
	done
	[[ -s $VMLINUX && $missing == 0 ]] && return 0
	download "linux-image-$REL-dbg" >/dev/null 2>"$OUT/apt.err" ||
		fail fetch "apt-get download linux-image-$REL-dbg: $(tail -n 1 "$OUT/apt.err")"
	deb=$(ls "$CACHE"/linux-image-"$REL"-dbg_*.deb)
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$CACHE" --wildcards "${patterns[@]}" ||
		fail fetch "extracting ${patterns[*]} from $deb"
	rm -f "$deb"
	say "fetched linux-image-$REL-dbg: vmlinux and ${#MODS[@]} modules in $((SECONDS - start)) s"
}
fetch
[[ -s $VMLINUX ]] || fail fetch "no $VMLINUX"

# With debug info.
"$FG" --vmlinux "$VMLINUX" --modules "$MODDIR" "$TRACE" >"$OUT/dbg.txt" 2>"$OUT/dbg.err" ||
	fail fgdecode "exit $?: $(head -n 1 "$OUT/dbg.err")"
grep -q 'not used\|ignored\|skipp' "$OUT/dbg.err" && fail fgdecode "a debug file was not used: $(cat "$OUT/dbg.err")"
# Each address once: "ADDR<TAB>PHYSICAL FRAME<TAB>CHAIN" where CHAIN is
# "name file:line;..." innermost first, the physical frame last.
gawk -F'\t' -v OFS='\t' '
	function flush() { chain = "" }
	/^    => .* \(inlined\) / {
		l = $0; sub(/^    => /, "", l); n = l; sub(/ \(inlined\).*/, "", n)
		f = l; sub(/.* \(inlined\) /, "", f); chain = chain n " " f ";"; next }
	/^    => / && / \([0-9a-f]+\) / {
		l = $0; sub(/^    => /, "", l)
		match(l, / \([0-9a-f]+\)/); a = substr(l, RSTART + 2, RLENGTH - 3)
		phys = substr(l, 1, RSTART - 1); f = substr(l, RSTART + RLENGTH + 1)
		n = phys; sub(/\+0x.*/, "", n)
		if (f == "") f = "??:0"
		print a, phys, chain n " " f ";"; flush(); next }
	{ flush() }' "$OUT/dbg.txt" | sort -u >"$OUT/dbg.frames"
n=$(wc -l <"$OUT/dbg.frames")
((n > 0)) || fail fgdecode "no frames in $OUT/dbg.txt"
(($(cut -f1 "$OUT/dbg.frames" | uniq -d | wc -l) == 0)) || fail fgdecode "an address printed two ways"

# Names: equal to the recorded kallsyms' frame.
bad=$(join -t $'\t' <(sed 's/ /\t/' "$OUT/plain.frames") <(cut -f1,2 "$OUT/dbg.frames") |
	gawk -F'\t' '$2 != $3 { print $1 ": kallsyms " $2 ", with debug info " $3; n++ } END { exit n > 0 }') ||
	fail names "$(head -n 3 <<<"$bad")"

# eu-addr2line at the same lookup addresses: vmlinux ones first.
ktext=$(trace-cmd report -f -i "$TRACE" 2>/dev/null | gawk '$2 == "_text" && !seen++ { print $1 }')
ltext=$(nm "$VMLINUX" | gawk '$3 == "_text" && !seen++ { print $1 }')
[[ -n $ktext && -n $ltext ]] || fail kaslr "no _text in the trace's kallsyms or in $VMLINUX"
bias=$((0x$ktext - 0x$ltext))

# eu_chains FILE [SECTION] < "ADDR LOOKUP" lines: "ADDR<TAB>CHAIN" lines.
eu_chains() {
	local file=$1 sect=${2:-} lookups addrs
	mapfile -t addrs < <(cut -d' ' -f1 "$OUT/q")
	mapfile -t lookups < <(cut -d' ' -f2 "$OUT/q")
	((${#lookups[@]})) || return 0
	eu-addr2line -a -f -i -e "$file" ${sect:+-j "$sect"} "${lookups[@]}" |
		gawk -v OFS='\t' -v list="${addrs[*]}" '
		BEGIN { split(list, A, " ") }
		/^0x[0-9a-f]+$/ { if (i) print A[i], chain; i++; chain = ""; next }
		{ n = $1; getline f; c = f; sub(/:[0-9]+$/, "", c); if (f ~ /:[0-9]+:[0-9]+$/) f = c
		  chain = chain n " " f ";" }
		END { if (i) print A[i], chain }'
}
: >"$OUT/eu.frames"
# At address - 1, but a function's first byte (an interrupted instruction,
# events.h) at itself, as fgdecode does.
gawk -F'\t' '$2 !~ / \[[^]]+\]$/ { print $1, ($2 ~ /\+0x0\//) }' "$OUT/dbg.frames" |
	while read -r a ip; do printf '%s 0x%x\n' "$a" $((0x$a - bias - 1 + ip)); done >"$OUT/q"
eu_chains "$VMLINUX" >>"$OUT/eu.frames"
nv=$(wc -l <"$OUT/q")
cp "$OUT/q" "$OUT/vmlinux.lookups"	# "ADDR LOOKUP" lines, for tests/bench/firstline.sh

# Module addresses: the frame's symbol in the .ko gives section and offset.
nm_=0
for m in "${MODS[@]}"; do
	ko=$(find_ko "$m")
	[[ -n $ko ]] || fail modules "no $m.ko under $MODDIR"
	readelf -SW "$ko" | gawk '/^ *\[ *[0-9]+\]/ { sub(/^ *\[ */, ""); sub(/\]/, ""); print $1, $2 }' >"$OUT/sections"
	readelf -sW "$ko" | gawk '$4 == "FUNC" { print $8, $7, $2 }' >"$OUT/syms"
	for sect in $(cut -d' ' -f2 "$OUT/syms" | grep -E '^[0-9]+$' | sort -u); do
		gawk -F'\t' -v m="[$m]" -v want="$sect" -v syms="$OUT/syms" '
			BEGIN { while ((getline l < syms) > 0) { split(l, s, " "); ndx[s[1]] = s[2]; val[s[1]] = s[3] } }
			index($2, " " m) {
				name = $2; sub(/\+0x.*/, "", name); off = $2; sub(/^[^+]*\+/, "", off); sub(/\/.*/, "", off)
				if (ndx[name] != want) next
				printf "%s 0x%x\n", $1, strtonum("0x" val[name]) + strtonum(off) - (strtonum(off) != 0) }' "$OUT/dbg.frames" >"$OUT/q"
		[[ -s $OUT/q ]] || continue
		name=$(gawk -v i="$sect" '$1 == i { print $2 }' "$OUT/sections")
		eu_chains "$ko" "$name" >>"$OUT/eu.frames"
		nm_=$((nm_ + $(wc -l <"$OUT/q")))
	done
done
sort -u -o "$OUT/eu.frames" "$OUT/eu.frames"
((nv + nm_ == n)) || fail coverage "$n addresses, $nv in vmlinux and $nm_ in modules placed for eu-addr2line"

# Compare the chains: names equal; files equal or a path suffix.
join -t $'\t' <(cut -f1,3 "$OUT/dbg.frames") "$OUT/eu.frames" | gawk -F'\t' -v out="$OUT/diff.txt" '
	function same_file(ours, theirs) {
		if (ours == theirs) return 1
		if (length(theirs) > length(ours) && substr(theirs, length(theirs) - length(ours)) == "/" ours) { suffix++; return 1 }
		return 0 }
	{
		na = split($2, o, ";"); nb = split($3, t, ";"); ok = na == nb
		# The physical frame is named from kallsyms (checked above): compare its file:line only.
		for (i = 1; ok && i < na; i++) {
			split(o[i], x, " "); split(t[i], y, " ")
			if (i < na - 1 && x[1] != y[1]) ok = 0
			fx = x[2]; fy = y[2]; lx = fx; ly = fy; sub(/.*:/, "", lx); sub(/.*:/, "", ly); sub(/:[0-9]+$/, "", fx); sub(/:[0-9]+$/, "", fy)
			if (lx != ly || !same_file(fx, fy)) ok = 0
		}
		if (ok) good++; else { bad++; print $1 ": fgdecode " $2 " eu-addr2line " $3 > out }
	}
	END { printf "%d %d %d\n", good, bad, suffix }' >"$OUT/result"
read -r good bad suffix <"$OUT/result"
((good == n && bad == 0)) || fail compare "$good of $n addresses agree with eu-addr2line; first: $(head -n 1 "$OUT/diff.txt" 2>/dev/null)"
say "$REL: all $n distinct addresses ($nv vmlinux, $nm_ in ${#MODS[@]} modules) agree with eu-addr2line -f -i (file:line and inline chains; $suffix file names as eu-addr2line's without its build directory prefix), and name every frame as the recorded kallsyms do"
