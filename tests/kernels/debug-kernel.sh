#!/bin/bash
# Build a debug guest kernel from Debian's own source: allnoconfig plus what the qemu guest needs (virtio-pci, 9p,
# the serial console, ACPI to power off) with KASAN (inline), lockdep (PROVE_LOCKING, PROVE_RCU),
# DEBUG_ATOMIC_SLEEP, UBSAN and DEBUG_LIST, the tracing the module needs, and module signing with the lockdown LSM
# (tests/vm/test_lockdown.sh), everything built in, so tests/vm/run-vm.sh --bzimage boots it with no modules at
# all. Starting from allnoconfig rather than defconfig leaves out the drivers, file systems and network stack a
# guest never uses: 11 minutes on 2 quiet cores (1380 files) instead of 25.
#
# Usage: tests/kernels/debug-kernel.sh [--source 6.1|newest] [--checker kasan|kcsan] [--print-dir]
#   --source 6.1 (default): bookworm's linux-source-6.1, installed on the host.
#   --source newest: the linux-source-X.Y of the newest kernel (tests/kernels.sh's "newest", 7.3 in December
#     2026: tracepoint probes run preemptible there, under SRCU-fast), downloaded with the trixie build root's apt
#     (tests/roots.sh) into the cache, never installed. Built on the host all the same: a kernel tree builds its
#     own objtool and needs no newer compiler than bookworm's gcc 12.
#   --checker kcsan: the data-race detector KCSAN instead of KASAN (the two exclude each other), with its
#     interrupt watcher (races between a task and the interrupts on its own CPU, as a probe hit in an IRQ or NMI
#     races the one it interrupted); lockdep, UBSAN and the rest as with kasan (the default).
#   Builds into $STACKMAP_CACHE/debug-<source version>-<config hash> (default cache /var/cache/stackmap/kernels)
#   unless that directory is complete already, then prints the directory on stdout (nothing else goes there).
#   --print-dir only prints where the kernel is or would be, and exits 1 if it is not built.
# The directory holds: bzImage, linux/ (the configured tree with Module.symvers, for `make -C DIR/linux M=...`,
# and certs/signing_key.{pem,x509}, the module signing key its build generated), config-check.txt (each requested
# option and what .config has), build.log, and .done once complete. Runs under nice -n 19 so other guests on the
# machine keep their CPU.
set -euo pipefail

PROG=debug-kernel
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${STACKMAP_CACHE:-/var/cache/stackmap/kernels}
JOBS=${STACKMAP_KERNEL_JOBS:-2}
DEPS=(flex bison bc libssl-dev libelf-dev build-essential xz-utils)
# Set by source_6.1 / source_newest: the source package, its version and how to unpack its tarball.
SRC_PKG="" SRC_VERSION="" SRC_DEB="" SOURCE=6.1 CHECKER=kasan

# The config fragment, applied with scripts/config after allnoconfig. "NAME y" must be =y after
# olddefconfig, "NAME n" must not be set; the cache key hashes these lines (comments and blank lines stripped),
# so changing an option means a new kernel. Choices (PREEMPT, HZ_1000, NO_HZ_IDLE, UNWINDER_ORC) are set by
# naming the wanted one.
FRAGMENT='
# A 64-bit SMP qemu guest: PCI for virtio-pci (MSI-X: without it virtio-pci needs INTx routing from the ACPI _PRT,
# whose AML loop can time out under KASAN and TCG, and the 9p mount then hangs), ACPI to power off, the serial
# console, an initramfs, busybox.
64BIT y
SMP y
PCI y
PCI_MSI y
ACPI y
PRINTK y
TTY y
SERIAL_8250 y
SERIAL_8250_CONSOLE y
BLK_DEV_INITRD y
BINFMT_ELF y
BINFMT_SCRIPT y
PROC_FS y
SYSFS y
DEVTMPFS y
TMPFS y
SHMEM y
MULTIUSER y
# 9p over virtio, the share with the host (9P_FS depends on INET).
UNIX y
NET y
INET y
HYPERVISOR_GUEST y
PARAVIRT y
KVM_GUEST y
X86_X2APIC y
HIGH_RES_TIMERS y
NO_HZ_IDLE y
HZ_1000 y
PREEMPT y
PREEMPT_DYNAMIC y
RELOCATABLE y
RANDOMIZE_BASE y
VIRTIO_MENU y
VIRTIO y
VIRTIO_PCI y
NET_9P y
NET_9P_VIRTIO y
9P_FS y
# The checkers.
DEBUG_KERNEL y
KASAN y
KASAN_GENERIC y
KASAN_INLINE y
PROVE_LOCKING y
PROVE_RCU y
DEBUG_ATOMIC_SLEEP y
DEBUG_PREEMPT y
UBSAN y
UBSAN_BOUNDS y
UBSAN_SHIFT y
DEBUG_LIST y
# What the module and the tests use: tracepoints, ftrace, kallsyms, sysrq-l NMIs, perf.
FTRACE y
FUNCTION_TRACER y
DYNAMIC_FTRACE y
KPROBES y
TRACEPOINTS y
EVENT_TRACING y
STACKTRACE y
FTRACE_SYSCALLS y
DEBUG_FS y
KALLSYMS y
KALLSYMS_ALL y
MODULES y
MODULE_UNLOAD y
MAGIC_SYSRQ y
PERF_EVENTS y
UNWINDER_ORC y
DEBUG_INFO_NONE y
# Secure Boot as Debian runs it (tests/vm/test_lockdown.sh): signed modules, lockdown=integrity. The build
# generates its own signing key, certs/signing_key.pem; unsigned modules still load (tainting) without lockdown.
SECURITY y
SECURITYFS y
SECURITY_LOCKDOWN_LSM y
MODULE_SIG y
MODULE_SIG_SHA256 y
MODVERSIONS n
MODULE_SIG_FORCE n
DEBUG_INFO_DWARF5 n
IPV6 n
'

log() { echo "$PROG: $*" >&2; }
die() { log "$*"; exit 1; }

# KCSAN's lines (--checker kcsan), in place of the fragment's KASAN ones.
KCSAN_FRAGMENT='KCSAN y
KCSAN_INTERRUPT_WATCHER y'

# The fragment's lines for this source and checker. From 6.13 on, an architecture with lazy preemption (x86)
# offers PREEMPT_LAZY as the default model, and Debian's 7.x kernels use it: newest takes it instead of PREEMPT
# (both are fully preemptible kernels, CONFIG_PREEMPTION=y).
fragment_lines() {
	local lines
	lines=$(sed -e '/^#/d' -e '/^$/d' <<<"$FRAGMENT")
	[[ $SOURCE != newest ]] || lines=$(sed 's/^PREEMPT y$/PREEMPT_LAZY y/' <<<"$lines")
	[[ $CHECKER != kcsan ]] || lines=$(sed '/^KASAN/d' <<<"$lines"; echo "$KCSAN_FRAGMENT")
	echo "$lines"
}

install_missing() {
	local p missing=()
	for p in "${DEPS[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	((${#missing[@]})) || return 0
	((EUID == 0)) || die "missing ${missing[*]}; run as root (or install them) and retry"
	log "installing ${missing[*]}"
	apt-get update -q >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2
}

# source_6.1: bookworm's linux-source-6.1, installed on the host (/usr/src/linux-source-6.1.tar.xz).
source_6.1() {
	SRC_PKG=linux-source-6.1
	DEPS+=("$SRC_PKG")
	install_missing
	SRC_VERSION=$(dpkg-query -W -f='${Version}' "$SRC_PKG" 2>/dev/null) || die "$SRC_PKG is not installed"
}

# source_newest: linux-source-X.Y of tests/kernels.sh's newest kernel, its .deb downloaded once into
# CACHE/debs by the trixie build root's apt (a bookworm host's apt does not see trixie-backports).
source_newest() {
	local kver build_root
	install_missing
	kver=$("$ROOT/tests/kernels.sh" kver newest) || die "no newest kernel (tests/kernels.sh prepare newest)"
	build_root=$("$ROOT/tests/kernels.sh" build-root newest)
	SRC_PKG=linux-source-$(cut -d. -f1-2 <<<"$kver")
	SRC_DEB=$(find "$CACHE/debs" -maxdepth 1 -name "${SRC_PKG}_*.deb" 2>/dev/null | sort -V | tail -n 1)
	if [[ -z $SRC_DEB ]]; then
		log "downloading $SRC_PKG with $build_root's apt"
		mkdir -p "$CACHE/debs"
		"$ROOT/tests/roots.sh" run "$build_root" --bind "$CACHE" -- bash -c \
			'cd "$1" && apt-get download -q -o APT::Sandbox::User=root "$2"' download "$CACHE/debs" "$SRC_PKG" >&2 ||
			die "apt-get download $SRC_PKG in $build_root failed"
		SRC_DEB=$(find "$CACHE/debs" -maxdepth 1 -name "${SRC_PKG}_*.deb" | sort -V | tail -n 1)
	fi
	SRC_VERSION=$(dpkg-deb -f "$SRC_DEB" Version) || die "$SRC_DEB: not a package"
}

# debug-<source package version>-<first 12 hex of sha256(fragment)>
kernel_dir() {
	local hash
	hash=$(fragment_lines | sha256sum | cut -c1-12)
	echo "$CACHE/debug-$SRC_VERSION-$hash"
}

# unpack DIR: the source tarball into DIR/linux (from the installed package, or out of the downloaded .deb).
unpack() {
	local dir=$1
	rm -rf "$dir/linux"
	mkdir -p "$dir/linux"
	log "unpacking $SRC_PKG $SRC_VERSION"
	if [[ -n $SRC_DEB ]]; then
		dpkg-deb --fsys-tarfile "$SRC_DEB" | tar -xO "./usr/src/$SRC_PKG.tar.xz" |
			tar -xJ -C "$dir/linux" --strip-components=1
	else
		tar -xJf "/usr/src/$SRC_PKG.tar.xz" -C "$dir/linux" --strip-components=1
	fi
}

configure() {
	local tree=$1 name val
	local -a args=()
	while read -r name val; do
		case $val in
		y) args+=(-e "$name") ;;
		n) args+=(-d "$name") ;;
		*) die "fragment: bad value '$val' for $name" ;;
		esac
	done < <(fragment_lines)
	make -C "$tree" -s allnoconfig >&2
	"$tree/scripts/config" --file "$tree/.config" "${args[@]}"
	make -C "$tree" -s olddefconfig >&2
}

# olddefconfig silently drops an option whose dependencies are unmet: check every one.
check_config() {
	local tree=$1 out=$2 name val got bad=0
	: >"$out"
	while read -r name val; do
		got=$(grep -E "^CONFIG_$name=" "$tree/.config" | cut -d= -f2 || true)
		printf '%-22s want %s got %s\n' "$name" "$val" "${got:-unset}" >>"$out"
		if [[ $val == y && $got != y ]] || [[ $val == n && -n $got && $got != n ]]; then
			log "config: CONFIG_$name wanted $val, .config has ${got:-it unset}"
			bad=1
		fi
	done < <(fragment_lines)
	((!bad)) || die "config check failed (see $out)"
	log "config check: all $(fragment_lines | wc -l) options as requested ($out)"
}

build() {
	local tree=$1 dir=$2 t0=$SECONDS
	log "building bzImage modules_prepare with -j$JOBS under nice (about 11 minutes on 2 quiet cores; log $dir/build.log)"
	nice -n 19 make -C "$tree" -j"$JOBS" bzImage modules_prepare >>"$dir/build.log" 2>&1 ||
		{ tail -n 30 "$dir/build.log" >&2; die "kernel build failed (see $dir/build.log)"; }
	# modules_prepare writes no Module.symvers; the exported symbols of vmlinux are all an external module needs.
	cp "$tree/vmlinux.symvers" "$tree/Module.symvers"
	cp "$tree/arch/x86/boot/bzImage" "$dir/bzImage"
	log "built in $(((SECONDS - t0) / 60)) min $(((SECONDS - t0) % 60)) s"
}

# Object files are not needed to build an external module; drop them when the disk runs short.
maybe_prune() {
	local tree=$1 avail
	avail=$(df -P --block-size=1G "$tree" | awk 'NR == 2 { print $4 }')
	((avail < 20)) || [[ ${STACKMAP_KERNEL_PRUNE:-0} == 1 ]] || return 0
	log "pruning object files from the tree (${avail}G free)"
	find "$tree" \( -path "$tree/scripts" -o -path "$tree/tools" \) -prune -o \
		\( -name '*.o' -o -name '*.a' -o -name '.*.o.cmd' \) -type f -print0 | xargs -0 rm -f
}

main() {
	local dir tree print_dir=0
	while (($#)); do
		case $1 in
		--source) SOURCE=${2:?--source needs 6.1 or newest}; shift 2 ;;
		--checker) CHECKER=${2:?--checker needs kasan or kcsan}; shift 2 ;;
		--print-dir) print_dir=1; shift ;;
		*) die "usage: $0 [--source 6.1|newest] [--checker kasan|kcsan] [--print-dir]" ;;
		esac
	done
	[[ $SOURCE == 6.1 || $SOURCE == newest ]] || die "--source $SOURCE: have 6.1 and newest"
	[[ $CHECKER == kasan || $CHECKER == kcsan ]] || die "--checker $CHECKER: have kasan and kcsan"
	"source_$SOURCE"
	dir=$(kernel_dir)
	if ((print_dir)); then
		echo "$dir"
		[[ -e $dir/.done ]]
		return
	fi
	mkdir -p "$dir"
	exec {lock}>"$dir.lock"
	flock -n "$lock" || { log "another build of $dir is running; waiting"; flock "$lock"; }
	if [[ -e $dir/.done ]]; then
		log "up to date: $dir"
		echo "$dir"
		return 0
	fi
	tree=$dir/linux
	# An interrupted build resumes where make stopped (.configured: unpacked, configured and checked).
	if [[ ! -e $dir/.configured ]]; then
		unpack "$dir"
		configure "$tree"
		check_config "$tree" "$dir/config-check.txt"
		touch "$dir/.configured"
	else
		log "resuming the build in $tree"
	fi
	build "$tree" "$dir"
	maybe_prune "$tree"
	touch "$dir/.done"
	echo "$dir"
}

main "$@"
