#!/bin/bash
# The module's lifecycle on a real kernel (guest/lifecycle.sh does the guest
# side): bad input to every control file, a map too large to allocate, 20
# load/record/reset/unload cycles (generations strictly increase; no vmalloc
# or slab growth), stacks at function entry, a recording into an instance, and a function glob whose
# module is unloaded (dropped and reported; the other globs stay on).
# One vCPU: this test patches kernel text the most (20 reloads), and under
# TCG cross-CPU text patching is what occasionally hangs a guest (run-vm.sh).
# Needs `make` to have built kmod/stackmap.ko and decoder/fgdecode.
set -euo pipefail

# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"
# The kernel (STACKMAP_KERNEL, default the one kmod/stackmap.ko was built for): KO, VM_ARGS, OUT, KERNEL_LABEL.
vm_kernel_setup "$PROG" "${OUT:-$ROOT/build/vm-lifecycle}"
# Growth allowed over 19 cycles; one leaked map would be 2.7 MB of vmalloc.
MAX_VMALLOC_GROWTH_KB=512
MAX_SLAB_GROWTH_KB=1024
# KASAN keeps freed slab objects in its quarantine (up to 1/32 of RAM, 32 MB
# in a 1 GiB guest) before they return: the debug kernel showed 1104 kB of
# SUnreclaim growth with nothing leaked.  The vmalloc bound, which a leaked
# map would break, stays.
if kernel_config_has KASAN; then
	MAX_SLAB_GROWTH_KB=4096
fi

check_badinput() {
	[[ $(cat "$OUT/badinput/result" 2>/dev/null) == ok ]] || fail badinput "guest checks did not complete"
	say "badinput: every bad write refused, nothing changed, oversized map refused"
}

check_reload() {
	local gens growth
	gens=$(tr '\n' ' ' <"$OUT/reload/generations")
	gawk '{ for (i = 1; i <= NF; i++) { if (i > 1 && $i <= $(i - 1)) exit 1 } if (NF != 40) exit 1 }' \
		<<<"$gens" || fail reload "generations not strictly increasing over 20 loads and resets: $gens"
	growth=$(gawk 'NR == FNR { for (i = 1; i < NF; i += 2) a[$i] = $(i + 1); next }
		{ for (i = 1; i < NF; i += 2) printf "%s %d ", $i, $(i + 1) - a[$i] }' \
		"$OUT/reload/mem_after_first" "$OUT/reload/mem_after_last")
	gawk -v v="$MAX_VMALLOC_GROWTH_KB" -v s="$MAX_SLAB_GROWTH_KB" '{
		for (i = 1; i < NF; i += 2) {
			if ($i == "VmallocUsed:" && $(i + 1) > v) exit 1
			if ($i == "SUnreclaim:" && $(i + 1) > s) exit 1
		} }' <<<"$growth" || fail reload "memory grew over 19 cycles (kB): $growth"
	say "reload: 40 generations strictly increasing; growth over 19 cycles (kB): $growth"
}

# Where a function_entry stack starts in do_sys_openat2: the return address of its ftrace call site, which is
# each architecture's (kmod/stackmap_function.c), as offsets accepted, one a line.
#   x86-64  "call __fentry__" (5 bytes) first: +0x5.  With X86_KERNEL_IBT (6.12) a function whose address may be
#           taken starts with endbr64, and the call site moves to +0x4 (the frame to +0x9); do_sys_openat2 is
#           static and gets none from gcc: both are accepted there.
#   arm64   the patchable function entry "mov x9, x30; bl ftrace_caller" first: +0x8.  With ARM64_BTI_KERNEL a
#           function whose address may be taken starts with a BTI landing pad (+0xc): both are accepted there.
entry_frame_offsets() {
	case $(vm_arg --arch) in
	"" | x86_64)
		echo 0x5
		! kernel_config_has X86_KERNEL_IBT || echo 0x9 ;;
	arm64)
		echo 0x8
		! kernel_config_has ARM64_BTI_KERNEL || echo 0xc ;;
	*) fail functions "no ftrace call-site offset known for $(vm_arg --arch)" ;;
	esac
}

# Each function_entry stack starts at do_sys_openat2+OFFSET (entry_frame_offsets) and its next frame is the
# parent the event names.
check_functions() {
	local at
	at=$(entry_frame_offsets | paste -sd' ')
	decode functions "$OUT/functions"
	all_resolved functions "$OUT/functions/summary.txt"
	gawk -v at="$at" '
	BEGIN { n = split(at, offs, " ") }
	# The last event of a CPU may have lost its stack to the end of the recording.
	/function_entry:/ { parent = $NF; getline l
		if (l ~ /^    <no stack: the recording of this CPU ends here>$/) next
		events++; getline f0; getline f1
		ok = 0; for (i = 1; i <= n; i++) if (index(f0, "=> do_sys_openat2+" offs[i] "/0x") == 5) { ok = 1; seen[offs[i]]++ }
		if (!ok) { print "first frame: " f0; bad++ }
		split(f1, p, /[ +]/); if (p[6] != parent) { print "parent " parent " vs " f1; bad++ } }
	END { if (!events || bad) exit 1; s = ""; for (o in seen) s = s " " o
		printf "test_lifecycle: functions: %d function_entry stacks start at do_sys_openat2+{%s } under their parent\n", events, s }' \
		"$OUT/functions/decoded.txt" || fail functions "stacks do not start at the hooked function"
}

# Stock trace-cmd report: every cookie used in the instance is defined there.
check_instance() {
	trace-cmd report -i "$OUT/instance/trace.dat" >"$OUT/instance/report.txt" 2>/dev/null ||
		fail instance "trace-cmd report failed"
	gawk '$1 == "inst:" && /stack_cookie:/ { match($0, /cookie=(0x[0-9a-f]+)/, m); used[m[1]] = 1 }
		$1 == "inst:" && /stack_define:/ { match($0, /cookie=(0x[0-9a-f]+)/, m); def[m[1]] = 1 }
		END { for (c in used) if (!(c in def)) n++
			if (!length(used) || n) { printf "%d cookies used, %d not defined\n", length(used), n; exit 1 }
			printf "test_lifecycle: instance: %d cookies used in the instance, all defined there\n", length(used) }' \
		"$OUT/instance/report.txt" || fail instance "undefined cookies in an instance recording"
}

# A module glob whose module goes away: dropped at the next change, reported in the functions file, the
# stats and the kernel log; the other globs' functions still record (do_sys_openat2 and vfs_read).
check_modglob() {
	local dir=$OUT/modglob want n f
	if [[ -e $dir/skipped ]]; then
		say "modglob: not run: $KERNEL_LABEL has no dummy.ko"
		return
	fi
	want=$'do_sys_openat2\nvfs_read\n# dropped dummy_dev_*: matches no function any more'
	[[ $(cat "$dir/functions.txt") == "$want" ]] || fail modglob "functions file: $(tr '\n' '|' <"$dir/functions.txt")"
	[[ $(cat "$dir/param.txt") == do_sys_openat2,vfs_read ]] || fail modglob "functions parameter: $(cat "$dir/param.txt")"
	[[ $(gawk '$1 == "functions_dropped" { print $2 }' "$dir/stats.txt") == 1 ]] ||
		fail modglob "stats: $(grep functions_dropped "$dir/stats.txt")"
	grep -q 'function glob dummy_dev_\* matches no function any more' "$dir/dmesg.txt" || fail modglob "nothing in the kernel log"
	trace-cmd report -i "$dir/trace.dat" -F stackmap:function_entry >"$dir/report.txt" 2>/dev/null
	for f in do_sys_openat2 vfs_read; do
		n=$(grep -c -E "function_entry: +$f <-" "$dir/report.txt" || true)
		((n > 0)) || fail modglob "no function_entry of $f after the glob was dropped"
		echo -n "$f $n "
	done
	echo
	say "modglob: dummy_dev_* dropped (functions file, stats, kernel log); the other globs recorded"
}

# Hooks on the capture path: the stacks they ask for from inside a capture are dropped and counted, and the
# recording decodes with resolved stacks.  unwind_next_frame is x86's unwinder step; arm64's (kunwind_next) is
# inline in a noinstr walk, so there stack_trace_save alone is hooked.  Not every cookie need resolve: on the
# debug kernel KASAN and lockdep call stack_trace_save() at every allocation and lock, and the flood of
# function_entry events overwrites the buffer (and definitions with it) many times over.
check_capture() {
	local dir=$OUT/capture rec lookups resolved
	[[ -s $dir/functions.txt ]] || fail capture "neither stack_trace_save nor unwind_next_frame could be hooked"
	rec=$(stat_value dropped_recursion "$dir/stats.txt")
	lookups=$(stat_value lookups "$dir/stats.txt")
	((rec > 0)) || fail capture "no capture recursion was counted (hooked: $(paste -sd' ' "$dir/functions.txt"))"
	decode capture "$dir"
	resolved=$(grep -o '[0-9]* resolved' "$dir/summary.txt" | gawk '{ print $1 }')
	((resolved > 0)) || fail capture "no stack resolved: $(head -n1 "$dir/summary.txt")"
	say "capture: $(paste -sd' ' "$dir/functions.txt") hooked: $rec stacks asked for by captures" \
		"dropped, $lookups lookups; $(grep -o '[0-9]* cookies, [0-9]* resolved, [0-9]* stale, [0-9]* unknown' "$dir/summary.txt")"
}

rm -rf "$OUT"
mkdir -p "$OUT/modules"
DUMMY=()
if kernel_module dummy "$OUT/modules/dummy.ko"; then
	DUMMY=(--module "$OUT/modules/dummy.ko")
fi
run_guest lifecycle ${DUMMY[@]+"${DUMMY[@]}"} --timeout 420 --smp 1
check_badinput
check_reload
check_functions
check_instance
check_capture
check_modglob
say "ok on kernel $KERNEL_LABEL ($OUT)"
