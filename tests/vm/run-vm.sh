#!/bin/bash
# Boot a Debian kernel under qemu (TCG) with a busybox initramfs, run a guest script there, and return its exit
# code: the installed one by default, or one unpacked under a root (--kernel-root, tests/kernels.sh); an arm64 one
# under qemu-system-aarch64 with --arch arm64.
# See tests/vm/README.md.
set -euo pipefail

PROG=run-vm
MARKER=STACKMAP-GUEST-EXIT
SETUP_MARKER=STACKMAP-GUEST-SETUP-FAILED
HARNESS_FAIL=125
# Kernel reports that fail a run: BUG: (KASAN, KCSAN, KFENCE, might_sleep, soft lockup ...), oopses, WARN()s, and
# the checkers that print neither: lockdep's and RCU's own "WARNING: <what>" titles, UBSAN, hung tasks and RCU
# stalls. The guest scripts print on the same console: they must not print these words.
# arm64 spells its backtraces "Call trace:".
SPLAT_RE='BUG:|Oops|WARNING: CPU|Kernel panic|Call [Tt]race:|lockdep|soft lockup|UBSAN:'
SPLAT_RE+='|WARNING: (possible |inconsistent lock|suspicious RCU|lock held|held lock|bad (unlock|contention)|Nested lock)'
SPLAT_RE+='|WARNING: (chain_key|.* still has locks held|.*-unsafe lock order)|INFO: (task .* blocked|.*detected'
SPLAT_RE+=' (expedited )?stalls|.*self-detected stall|trying to register non-static)|list_(add|del) corruption'
# Entry points of the virtio + 9p stack; their dependencies come from modules.dep.
BASE_MODULES=(virtio_pci 9pnet_virtio 9p)
TRACE_CMD=/usr/bin/trace-cmd
# --userland DIR: the guest's trace-cmd and its libraries (the loader and libc too) come from the Debian root DIR
# (tests/roots.sh; trixie's trace-cmd 3.3.1) instead of the host.
USERLAND=""
# --program PATH (repeatable): another program copied to the guest at PATH with the libraries its ldd lists, from
# --userland's root or the host, as trace-cmd is (tests/bench/run.sh's peers part: perf and bpftrace).
PROGRAMS=()
# The helpers every guest script sources (step, die, stat_of, workload), installed as /guest-common.sh.
GUEST_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/guest/lib.sh
# ko_unpack (the only function of kernel.sh used here; sourcing it defines functions and nothing else).
# shellcheck source=tests/vm/kernel.sh
. "$(dirname "$GUEST_LIB")/../kernel.sh"

MODULES=() EXTRAS=() GUEST_SCRIPT="" SHARE="" TIMEOUT=300 SMP=2 MEM=1G KVER="" VERBOSE=0 APPEND="" HUNG_RETRIES=1
# --kcsan-module MOD: KCSAN's reports fail the run only when a racing access is in module MOD's functions; the
# others (races the kernel itself has, such as ktime_get_mono_fast_ns / timekeeping_update on 6.1) are counted and
# printed (check_console). Any other report fails the run as always.
KCSAN_MODULE=""
# One TCG thread for all vCPUs unless --tcg-thread multi (or STACKMAP_TCG_THREAD=multi): bookworm's QEMU 7.2 with
# a thread per vCPU trapped on stale breakpoints while the kernel patched its text (tcg_patch_int3 below).
TCG_THREAD=${STACKMAP_TCG_THREAD:-single}
# --qemu-root DIR (or STACKMAP_QEMU_ROOT): run the qemu-system-x86_64 of the Debian root DIR (tests/roots.sh run;
# trixie's QEMU 10) instead of the host's, with the kernel's, the work and the share directories bound in.
QEMU_ROOT=${STACKMAP_QEMU_ROOT:-}
# --stop-on-report SECS: stop the guest SECS seconds after the console first shows a kernel report (SPLAT_RE),
# for a run meant to fail on one (tests/vm/test_debug.sh's broken modules), whose guest may hang after it.
# 0 (the default): the guest runs until it powers off or the timeout.
STOP_ON_REPORT=0
# --kernel-root DIR: DIR/boot/vmlinuz-KVER and DIR/lib/modules/KVER instead of /boot and /lib/modules.
# KIMAGE and KMODDIR: the image booted and the directory of its modules.
KROOT="" KIMAGE="" KMODDIR=""
BZIMAGE=""
# --timeout-scale N (default $STACKMAP_VM_TIMEOUT_SCALE, else 1) multiplies --timeout: a debug kernel (KASAN,
# lockdep) runs the same guest script about 13 times slower under TCG; its tests keep their own timeouts.
TIMEOUT_SCALE=${STACKMAP_VM_TIMEOUT_SCALE:-1}
# --icount: qemu's -icount shift=0,sleep=off, the guest's clock counting instructions (1 ns each; an idle vCPU
# jumps to its next timer), so that a benchmark's figures do not move with the host's load. One TCG thread.
ICOUNT=0
# --arch arm64: an arm64 kernel under qemu-system-aarch64 (the virt machine); busybox, trace-cmd, its libraries
# and the loader then come from --userland DIR, an arm64 root (tests/kernels.sh unpacks one), and libraries are
# found by their ELF NEEDED names there (the host cannot run that root's ldd). x86_64 (the default): the host's.
ARCH=x86_64
WORK="" STEP=args REPORTED=0 GUEST_CODE=""

usage() {
	cat <<EOF
usage: $0 [--module PATH.ko ...] --guest-script PATH [--share DIR] [--timeout SECONDS]
          [--smp N] [--tcg-thread single|multi] [--mem SIZE] [--kver KVER] [--kernel-root DIR] [--bzimage FILE] [--timeout-scale N]
          [--extra FILE ...] [--userland DIR] [--program PATH ...] [--qemu-root DIR] [--append KERNEL-PARAMS] [--hung-retries N]
          [--stop-on-report SECS] [--icount] [--arch x86_64|arm64] [--verbose]
EOF
	REPORTED=1
	exit 2
}

# One-line failure message, console tail, harness exit code.
fail() {
	local step=$1 why=$2
	echo "$PROG: $step failed: $why" >&2
	if [[ -n $SHARE && -s $SHARE/console.log ]]; then
		echo "---- tail of $SHARE/console.log ----" >&2
		tail -n 40 "$SHARE/console.log" | tr -d '\r' >&2
		echo "---- end of console ----" >&2
		echo "$PROG: $step failed: $why" >&2
	fi
	REPORTED=1
	exit "$HARNESS_FAIL"
}

# Any unexpected failure under set -e lands here with the step it happened in.
# shellcheck disable=SC2317 # called through the EXIT trap
on_exit() {
	local rc=$?
	[[ -z $WORK ]] || rm -rf "$WORK"
	if ((rc != 0 && !REPORTED)); then
		echo "$PROG: $STEP failed: a command exited with status $rc (see above)" >&2
		exit "$HARNESS_FAIL"
	fi
}

parse_args() {
	while (($#)); do
		case $1 in
		--module) MODULES+=("${2:?--module needs a path}"); shift 2 ;;
		--guest-script) GUEST_SCRIPT=${2:?}; shift 2 ;;
		--share) SHARE=${2:?}; shift 2 ;;
		--timeout) TIMEOUT=${2:?}; shift 2 ;;
		--smp) SMP=${2:?}; shift 2 ;;
		--tcg-thread)
			case ${2:-} in single | multi) TCG_THREAD=$2 ;; *) usage ;; esac
			shift 2 ;;
		--mem) MEM=${2:?}; shift 2 ;;
		--kver) KVER=${2:?}; shift 2 ;;
		--kernel-root) KROOT=${2:?--kernel-root needs a directory}; shift 2 ;;
		--userland) USERLAND=${2:?--userland needs a directory}; shift 2 ;;
		--program) PROGRAMS+=("${2:?--program needs a path}"); shift 2 ;;
		--qemu-root) QEMU_ROOT=${2:?--qemu-root needs a directory}; shift 2 ;;
		--extra)
			shift
			while (($#)) && [[ $1 != --* ]]; do EXTRAS+=("$1"); shift; done ;;
		--verbose) VERBOSE=1; shift ;;
		--append) APPEND=${2:?--append needs kernel parameters}; shift 2 ;;
		--hung-retries) HUNG_RETRIES=${2:?}; shift 2 ;;
		--stop-on-report) STOP_ON_REPORT=${2:?}; shift 2 ;;
		--bzimage) BZIMAGE=${2:?--bzimage needs a file}; shift 2 ;;
		--timeout-scale) TIMEOUT_SCALE=${2:?}; shift 2 ;;
		--kcsan-module) KCSAN_MODULE=${2:?}; shift 2 ;;
		--icount) ICOUNT=1; shift ;;
		--arch)
			case ${2:-} in x86_64 | arm64) ARCH=$2 ;; *) usage ;; esac
			shift 2 ;;
		-h | --help) usage ;;
		*) echo "$PROG: unknown argument: $1" >&2; usage ;;
		esac
	done
	[[ -n $GUEST_SCRIPT ]] || usage
	[[ $TIMEOUT =~ ^[0-9]+$ ]] || fail args "--timeout must be a number of seconds"
	[[ $TIMEOUT_SCALE =~ ^[1-9][0-9]*$ ]] || fail args "--timeout-scale must be a positive integer"
	TIMEOUT=$((TIMEOUT * TIMEOUT_SCALE))
	# icount needs the single-threaded TCG (qemu refuses it with a thread per vCPU).
	((!ICOUNT)) || TCG_THREAD=single
	if [[ $ARCH == arm64 ]]; then
		[[ -n $USERLAND ]] || fail args "--arch arm64 needs --userland DIR (an arm64 root with busybox and trace-cmd)"
		[[ -z $BZIMAGE && -z $QEMU_ROOT ]] || fail args "--bzimage and --qemu-root are x86_64's"
	fi
}

check_inputs() {
	local f
	[[ -r $GUEST_SCRIPT ]] || fail args "guest script not readable: $GUEST_SCRIPT"
	for f in ${MODULES[@]+"${MODULES[@]}"} ${EXTRAS[@]+"${EXTRAS[@]}"}; do
		[[ -r $f ]] || fail args "not readable: $f"
	done
}

# --bzimage FILE: boot FILE itself, a kernel with virtio and 9p built in (tests/kernels/debug-kernel.sh), so no
# base modules are loaded and neither modules.dep nor modules.builtin is read. KVER only names it in messages:
# the release string the boot header points to (bytes 0x20e-0x20f: its offset - 0x200).
use_bzimage() {
	local off
	[[ -r $BZIMAGE ]] || fail kver "--bzimage $BZIMAGE missing or unreadable"
	[[ $(dd if="$BZIMAGE" bs=1 skip=514 count=4 status=none) == HdrS ]] || fail kver "$BZIMAGE is not a bzImage"
	off=$(od -An -tu2 -j526 -N2 "$BZIMAGE" | tr -d ' ')
	KVER=$(dd if="$BZIMAGE" bs=1 skip=$((off + 512)) count=64 status=none | tr '\0' '\n' | head -n1 | cut -d' ' -f1)
	BASE_MODULES=()
}

# KVER: the newest ROOT/boot/vmlinuz-* (the host itself may run another kernel, so not uname -r); ROOT is /
# unless --kernel-root. Its modules: ROOT/lib/modules/KVER.
pick_kver() {
	local boot=$KROOT/boot
	[[ -z $BZIMAGE ]] || { use_bzimage; KIMAGE=$BZIMAGE; return 0; }
	if [[ -z $KVER ]]; then
		KVER=$(find "$boot/" -maxdepth 1 -name 'vmlinuz-*' -printf '%f\n' | sed 's/^vmlinuz-//' | sort -V | tail -n 1)
	fi
	[[ -n $KVER ]] || fail kver "no $boot/vmlinuz-* installed"
	KIMAGE=$boot/vmlinuz-$KVER KMODDIR=$KROOT/lib/modules/$KVER
	[[ -r $KIMAGE ]] || fail kver "$KIMAGE missing or unreadable"
	[[ -r $KMODDIR/modules.dep ]] || fail kver "$KMODDIR/modules.dep missing"
}

setup_dirs() {
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/run-vm.XXXXXX")
	if [[ -z $SHARE ]]; then
		SHARE=$(mktemp -d "${TMPDIR:-/tmp}/run-vm-share.XXXXXX")
	fi
	mkdir -p "$SHARE"
	SHARE=$(cd "$SHARE" && pwd)
	local tcg=", one TCG thread for all vCPUs"
	[[ $TCG_THREAD == single ]] || tcg=", a TCG thread per vCPU"
	((!ICOUNT)) || tcg+=", -icount shift=0,sleep=off"
	if [[ -n $QEMU_ROOT ]]; then
		local -a QEMU
		qemu_argv
		tcg+=", $("${QEMU[@]}" --version | head -n 1) of $QEMU_ROOT"
	fi
	echo "$PROG: kernel $KVER ($KIMAGE), share dir $SHARE$tcg" >&2
	rm -f "$SHARE/guest-status" "$SHARE/console.log"
}

# Path of a module name in a modules.dep-like FILE ("9p" -> kernel/fs/9p/9p.ko[.xz]).
modpath() {
	awk -F: -v n="$1" '{ b = $1; sub(/.*\//, "", b); sub(/\.ko(\.(xz|zst|gz))?$/, "", b);
		gsub(/-/, "_", b); if (b == n) { print $1; exit } }' "$2"
}

# Load order for the base modules: each module's dependencies (modules.dep lists them deepest last, so reversed),
# then the module itself, first occurrence wins. A module built into the kernel (modules.builtin; 6.12 has
# virtio_pci built in) is skipped: it is in no modules.dep line, nor are its built-in dependencies.
module_order() {
	local dep=$KMODDIR/modules.dep builtin=$KMODDIR/modules.builtin name path
	for name in ${BASE_MODULES[@]+"${BASE_MODULES[@]}"}; do
		if [[ -r $builtin && -n $(modpath "$name" "$builtin") ]]; then
			echo "$PROG: $name is built into $KVER" >&2
			continue
		fi
		path=$(modpath "$name" "$dep")
		[[ -n $path ]] || { echo "$PROG: $name not in $dep" >&2; return 1; }
		grep -m1 "^$path:" "$dep" | cut -d: -f2 | tr ' ' '\n' | sed '/^$/d' | tac
		echo "$path"
	done | awk '!seen[$0]++'
}

# Copy one kernel module into DIR as NAME.ko, decompressing on the host (kernel.sh: ko_unpack).
copy_kmod() {
	local name
	name=$(basename "$1" | sed -E 's/\.ko(\.(xz|zst|gz))?$//')
	ko_unpack "$KMODDIR/$1" "$2/$name.ko" || return 1
	echo "$name"
}

# Only the binary and /bin/sh: /init creates the other applet links with `busybox --install -s` at boot, one
# process instead of ~270 host-side ln forks (1 s).
add_busybox() {
	local root=$1 src=/bin/busybox
	# Another architecture's guest runs its own root's (busybox-static).
	[[ $ARCH == x86_64 ]] || src=$USERLAND/bin/busybox
	install -D -m755 "$src" "$root/bin/busybox"
	ln -s busybox "$root/bin/sh"
}

# needed_libs ROOT FILE: the ldd-like "NAME => PATH" lines of FILE's libraries, found by their ELF NEEDED names
# (recursively) in the arm64 root ROOT's library directories, paths relative to ROOT; "NAME => not found" for one
# missing. For a root whose ldd the host cannot run.
needed_libs() {
	local root=$1 todo=("$2") seen=" " f n p d
	while ((${#todo[@]})); do
		f=${todo[0]} todo=("${todo[@]:1}")
		for n in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			[[ $seen != *" $n "* ]] || continue
			seen+="$n "
			p=""
			for d in /lib/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu /lib /usr/lib; do
				[[ ! -e $root$d/$n ]] || { p=$d/$n; break; }
			done
			if [[ -z $p ]]; then echo "	$n => not found"; continue; fi
			echo "	$n => $p"
			todo+=("$root$p")
		done
	done
}

# A program (trace-cmd, and each --program) plus every library ldd lists, at the same paths, and the dynamic
# loader: the host's, or with --userland those of that root (ldd run inside it, or for arm64 needed_libs; its
# symlinks are relative, so cp -L stays inside it). A library two programs share is copied once.
add_program() {
	local root=$1 prog=$2 lib libs loader=/lib64/ld-linux-x86-64.so.2
	if [[ $ARCH == arm64 ]]; then
		libs=$(needed_libs "$USERLAND" "$USERLAND$prog")
		loader=/lib/ld-linux-aarch64.so.1
	elif [[ -n $USERLAND ]]; then
		libs=$("$(dirname "$GUEST_LIB")/../../roots.sh" run "$USERLAND" -- ldd "$prog")
	else
		libs=$(ldd "$prog")
	fi
	if grep 'not found' <<<"$libs" >&2; then return 1; fi
	install -D -m755 "$USERLAND$prog" "$root$prog"
	for lib in $(awk '/=> \//{ print $3 }' <<<"$libs") $loader; do
		[[ ! -e $root$lib ]] || continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$USERLAND$lib" "$root$lib"
	done
}

add_base_modules() {
	local root=$1 path
	mkdir -p "$root/lib/modules/vm"
	: >"$root/etc/vm-modules"
	module_order >"$WORK/order"
	while read -r path; do
		copy_kmod "$path" "$root/lib/modules/vm" >>"$root/etc/vm-modules"
	done <"$WORK/order"
}

write_init() {
	cat >"$1/init" <<EOF
#!/bin/sh
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
/bin/busybox mount -t proc proc /proc
/bin/busybox --install -s
setup_failed() { echo; echo "$SETUP_MARKER: \$1"; poweroff -f; sleep 10; }
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev || setup_failed devtmpfs
exec </dev/console >/dev/console 2>&1
mount -t debugfs debugfs /sys/kernel/debug || setup_failed debugfs
mount -t tracefs tracefs /sys/kernel/tracing || setup_failed tracefs
mkdir -p /tmp /share
for m in \$(cat /etc/vm-modules); do insmod /lib/modules/vm/\$m.ko || setup_failed "insmod \$m"; done
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 host0 /share || setup_failed "9p mount"
cd /share
SHARE=/share MODDIR=/stackmap /bin/sh /guest.sh
rc=\$?
echo \$rc >/share/guest-status
sync
echo
echo "$MARKER: \$rc"
poweroff -f
sleep 10
EOF
	chmod 755 "$1/init"
}

add_run_files() {
	local root=$1 f
	mkdir -p "$root/stackmap" "$root/extra"
	for f in ${MODULES[@]+"${MODULES[@]}"}; do cp "$f" "$root/stackmap/"; done
	for f in ${EXTRAS[@]+"${EXTRAS[@]}"}; do cp "$f" "$root/extra/"; done
	cp "$GUEST_SCRIPT" "$root/guest.sh"
	cp "$GUEST_LIB" "$root/guest-common.sh"
	write_init "$root"
}

build_initramfs() {
	local root=$WORK/root
	mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,share,usr/bin,usr/sbin}
	STEP="initramfs (busybox)"; add_busybox "$root"
	STEP="initramfs (trace-cmd and its libraries)"; add_program "$root" "$TRACE_CMD"
	local p
	for p in ${PROGRAMS[@]+"${PROGRAMS[@]}"}; do
		STEP="initramfs ($p and its libraries)"; add_program "$root" "$p"
	done
	STEP="initramfs (virtio/9p modules of $KVER)"; add_base_modules "$root"
	STEP="initramfs (modules, extras, guest script)"; add_run_files "$root"
	STEP="initramfs (cpio)"
	(cd "$root" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet) >"$WORK/initramfs.cpio"
}

# QEMU: the command that runs qemu-system-x86_64, the host's or --qemu-root's (the kernel image's directory,
# the work and the share directories bound at their own paths; tests/roots.sh run execs all the way down, so
# the timeout's signal reaches qemu).
qemu_argv() {
	QEMU=(qemu-system-x86_64)
	[[ $ARCH == x86_64 ]] || QEMU=(qemu-system-aarch64)
	[[ -n $QEMU_ROOT ]] || return 0
	# The image may be a link (7.x: boot/vmlinuz-KVER to the modules directory): its target's directory too.
	QEMU=("$(dirname "$GUEST_LIB")/../../roots.sh" run "$QEMU_ROOT" --bind "$(dirname "$KIMAGE")"
		--bind "$(dirname "$(realpath "$KIMAGE")")")
	[[ -z $WORK ]] || QEMU+=(--bind "$WORK")
	[[ -z $SHARE ]] || QEMU+=(--bind "$SHARE")
	QEMU+=(-- qemu-system-x86_64)
}

# stop_on_report PID: with --stop-on-report, TERM the timeout around qemu (PID) STOP_ON_REPORT seconds after
# the console shows a kernel report, and leave $WORK/stopped behind; return when qemu is gone.
stop_on_report() {
	while kill -0 "$1" 2>/dev/null; do
		if tr -d '\r' <"$SHARE/console.log" 2>/dev/null | grep -a -q -E "$SPLAT_RE"; then
			sleep "$STOP_ON_REPORT"
			echo "$PROG: a kernel report on the console: guest stopped ${STOP_ON_REPORT}s after it" >&2
			: >"$WORK/stopped"
			kill -TERM "$1" 2>/dev/null || true
			return 0
		fi
		sleep 2
	done
}

# One boot; returns qemu's status (124/137: killed by the timeout).
boot_once() {
	# watchdog_thresh=30: a soft lockup is reported after 60 s, not 20 s. Under TCG on a busy 2-core host
	# the vCPU threads can be starved long enough for false reports at the default; real hangs still show.
	# no5lvl: 4-level paging, as most machines run. -cpu max offers LA57, and on 6.1 with KASAN an interrupt
	# during boot can then be reported as a wild access (BUG: KASAN: wild-memory-access in do_raw_spin_lock,
	# from handle_edge_irq over identify_cpu(), no module loaded; seen in two CI runs): identify_cpu()
	# clears boot_cpu_data.x86_capability with interrupts on, so pgtable_l5_enabled(), which is
	# cpu_feature_enabled(X86_FEATURE_LA57) there, reads false for a moment, and KASAN's shadow bounds,
	# computed from it, leave the 5-level direct map (0xff11...) outside.  A kernel bug, not ours.
	local append="loglevel=5 panic=-1 oops=panic softlockup_panic=1 watchdog_thresh=30"
	local -a QEMU cmd machine=(-cpu max)
	if [[ $ARCH == arm64 ]]; then
		# arm64: the virt machine, its PL011 console. pauth-impdef=on: Debian's arm64 kernels sign return
		# addresses (CONFIG_ARM64_PTR_AUTH_KERNEL), and TCG's default QARMA5 pointer authentication made
		# them run 2.5-4.4 times slower (the shared NOTES); the implementation-defined algorithm is cheap.
		machine=(-M virt -cpu "max,pauth-impdef=on")
		append="console=ttyAMA0 $append"
	else
		append="console=ttyS0 $append no5lvl"
	fi
	append+=" $APPEND"
	qemu_argv
	cmd=(timeout -k 5 "$TIMEOUT" "${QEMU[@]}" -accel "tcg,thread=$TCG_THREAD" "${machine[@]}" -m "$MEM"
		-smp "$SMP" -nographic -no-reboot -nic none -kernel "$KIMAGE"
		-initrd "$WORK/initramfs.cpio"
		-append "$append" -virtfs "local,path=$SHARE,mount_tag=host0,security_model=none")
	((!ICOUNT)) || cmd+=(-icount shift=0,sleep=off)
	local rc=0 qpid wpid
	rm -f "$WORK/stopped"
	if ((STOP_ON_REPORT)); then
		"${cmd[@]}" </dev/null >"$SHARE/console.log" 2>&1 &
		qpid=$!
		stop_on_report "$qpid" &
		wpid=$!
		wait "$qpid" || rc=$?
		kill "$wpid" 2>/dev/null || true
		wait "$wpid" 2>/dev/null || true
	elif ((VERBOSE)); then
		"${cmd[@]}" </dev/null 2>&1 | tee "$SHARE/console.log" >&2 || rc=${PIPESTATUS[0]}
	else
		"${cmd[@]}" </dev/null >"$SHARE/console.log" 2>&1 || rc=$?
	fi
	return "$rc"
}

# tcg_patch_int3: the console shows the other face of the TCG patching
# problem: "Oops: int3" where the byte before RIP (the Code: line's byte
# before <..>) is no longer 0xcc, that is a vCPU trapped on a breakpoint that
# text_poke_bp() had already replaced, so poke_int3_handler() did not claim
# it.  Seen on 6.12 at ftrace call sites (do_sys_openat2+0x1, attached and
# detached every 3 s) and at a tracepoint's jump label (ttwu_do_activate's
# trace_sched_wakeup, enabled and disabled every 1.5 s), on a loaded host.
# Our module never writes kernel text; ftrace, jump labels and static calls
# do.  A real int3 oops (a breakpoint still in the text) is not retried.
tcg_patch_int3() {
	tr -d '\r' <"$SHARE/console.log" | gawk '
		/Oops: int3/ { oops = 1; next }
		oops && /Code: / {
			for (i = 2; i <= NF; i++)
				if ($i ~ /^<..>$/) { stale = i > 2 && $(i - 1) != "cc"; exit }
			exit
		}
		END { exit !stale }'
}

# Boot, and boot again (HUNG_RETRIES times) when the guest hung: under TCG,
# patching kernel text (enabling a tracepoint or an ftrace hook) sometimes
# never completes when the host is loaded, even with no module of ours
# loaded, or traps on its own breakpoint (tcg_patch_int3).  A real hang hangs
# again and still fails; each retry is reported.
run_qemu() {
	local rc attempt=0
	while :; do
		rc=0
		boot_once || rc=$?
		# Stopped on a report: check_console names it.
		[[ ! -e $WORK/stopped ]] || return 0
		case $rc in
		0)
			if tcg_patch_int3 && ((attempt < HUNG_RETRIES)); then
				attempt=$((attempt + 1))
				mv "$SHARE/console.log" "$SHARE/console.int3-$attempt.log"
				echo "$PROG: guest oopsed on a breakpoint no longer in the text (TCG text patching, $(grep -a -m1 'RIP: 0010:' "$SHARE/console.int3-$attempt.log" | tr -d '\r' | sed 's/.*RIP: 0010://')); booting again ($attempt of $HUNG_RETRIES), console kept in console.int3-$attempt.log" >&2
				continue
			fi
			return 0 ;;
		124 | 137)
			if ((attempt < HUNG_RETRIES)); then
				attempt=$((attempt + 1))
				mv "$SHARE/console.log" "$SHARE/console.hung-$attempt.log"
				echo "$PROG: guest hung after ${TIMEOUT}s; booting again ($attempt of $HUNG_RETRIES), console kept in console.hung-$attempt.log" >&2
				continue
			fi
			fail qemu "timeout after ${TIMEOUT}s (guest hung)"
			;;
		*) fail qemu "qemu exited with status $rc" ;;
		esac
	done
}

# splat_summary FILE LINE: LINE (the first kernel report in console FILE) on one line with, from the lines
# after it, the first RIP and the first four frames of the first call trace (without "? " guesses and bare
# addresses), so that the failure's one line says where the kernel was.
splat_summary() {
	gawk -v title="$2" '
		!seen { if (index($0, title)) { seen = 1; trace = /Call [Tt]race:/ } next }
		{ sub(/^\[ *[0-9.]+\] /, "") }
		done { next }
		!rip && /^RIP: [0-9a-f]+:/ { rip = $2; sub(/^[0-9a-f]+:/, "", rip) }
		!rip && /^pc : / { rip = $3 }
		/^Call [Tt]race:/ { trace = 1; next }
		trace && (/^ *<\/?(TASK|IRQ|NMI|EOI|SOFTIRQ)>/ || /^ *\? / || /^ +0x[0-9a-f]+$/) { next }
		trace && /^ +[A-Za-z_.][A-Za-z0-9_.]*\+0x/ && n < 4 { sub(/^ +/, ""); frames = frames (n++ ? " < " : "") $1; next }
		trace { trace = 0; done = 1 }
		END {
			s = title
			if (rip != "") s = s "; RIP " rip
			if (n) s = s "; call trace " frames
			print s
		}' "$1"
}

# kcsan_filter MOD IN OUT: IN without the KCSAN reports (from "BUG: KCSAN:" to the closing "====" line) in which
# neither racing access is in module MOD (the first frame under each access line: what KCSAN's own report filter,
# kernel/kcsan/report.c skip_report(), matches), into OUT; prints "COUNT x HEADER" for each kind of report left out.
kcsan_filter() {
	gawk -v mod="[$1]" -v out="$3" '
		function flush(i) {
			if (ours)
				for (i = 1; i <= nb; i++) print buf[i] >out
			else
				left[hdr]++
			nb = inrep = 0
		}
		/^BUG: KCSAN: / { inrep = 1; ours = want = nb = 0; hdr = $0 }
		inrep {
			buf[++nb] = $0
			if (/^(read|write|race)/ && /:$/) want = 1
			else if (want && /^ /) { if (index($0, mod)) ours = 1; want = 0 }
			else if (/^=+$/) flush()
			next
		}
		{ print >out }
		END {
			if (inrep) flush()
			for (h in left) printf "%d x %s\n", left[h], h
		}' "$2"
}

# The guest's exit code from the console marker, after checking the console for kernel splats.
check_console() {
	local log=$SHARE/console.log clean=$WORK/console.txt splat code status left
	STEP=console
	tr -d '\r' <"$log" >"$clean"
	if [[ -n $KCSAN_MODULE ]]; then
		left=$(kcsan_filter "$KCSAN_MODULE" "$clean" "$clean.kcsan") && mv "$clean.kcsan" "$clean"
		[[ -z $left ]] || echo "$PROG: KCSAN reports with neither access in $KCSAN_MODULE, not counted as failures:" \
			"$(sort -rn <<<"$left" | tr '\n' ';' | sed 's/;$//; s/;/; /g')" >&2
	fi
	splat=$(grep -a -m1 -E "$SETUP_MARKER" "$clean" || true)
	[[ -z $splat ]] || fail guest-setup "${splat#"$SETUP_MARKER: "}"
	splat=$(grep -a -m1 -E "$SPLAT_RE" "$clean" || true)
	[[ -z $splat ]] || fail kernel "console shows: $(splat_summary "$clean" "$splat")"
	code=$(grep -a -o -E "$MARKER: [0-9]+" "$clean" | tail -n 1 | awk '{ print $2 }' || true)
	[[ -n $code ]] || fail marker "no '$MARKER' line on the console"
	status=$(cat "$SHARE/guest-status" 2>/dev/null || true)
	[[ $status == "$code" ]] || fail share "guest-status '$status' does not match console exit code $code"
	GUEST_CODE=$code
}

# One guest at a time on this machine: under TCG, two guests on 2 cores
# starve each other's vCPUs until kernel-text patching livelocks (README).
# Held until this script exits; STACKMAP_VM_LOCK names another lock file.
take_vm_lock() {
	local lock=${STACKMAP_VM_LOCK:-/tmp/stackmap-qemu.lock}
	exec {VM_LOCK_FD}>>"$lock"
	if ! flock -n "$VM_LOCK_FD"; then
		echo "$PROG: waiting for another guest to finish ($lock)" >&2
		flock "$VM_LOCK_FD"
	fi
}

elapsed() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'
}

main() {
	parse_args "$@"
	check_inputs
	STEP=kver; pick_kver
	STEP=setup; setup_dirs
	local t0=$EPOCHREALTIME t1 t2 t3
	build_initramfs
	t1=$EPOCHREALTIME
	STEP=lock; take_vm_lock
	t2=$EPOCHREALTIME
	STEP=qemu; run_qemu
	t3=$EPOCHREALTIME
	check_console
	echo "$PROG: guest exit code $GUEST_CODE (initramfs $(elapsed "$t0" "$t1") s, waited $(elapsed "$t1" "$t2") s" \
		"for the lock, qemu $(elapsed "$t2" "$t3") s)" >&2
	REPORTED=1
	exit "$GUEST_CODE"
}

trap on_exit EXIT
main "$@"
