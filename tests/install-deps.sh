#!/bin/bash
# Install what stackmap needs to build and test, on Debian bookworm or trixie, as root:
# `apt-get update` once, then `apt-get install -y` only the missing packages.
# Usage: tests/install-deps.sh [--check]   (--check only lists what is missing)
# The 6.12 and 6.12-rt kernels make check also tests on are not installed: tests/kernels.sh downloads and
# unpacks them into a cache (the kmod-build suites), with apt-get download, dpkg-deb and depmod.
set -euo pipefail

PACKAGES=(
	build-essential pkg-config gawk dkms time
	debootstrap	# tests/roots.sh: the trixie root 7.x modules are built in, and the fresh-root test (make check-fresh)
	linux-image-amd64 linux-headers-amd64 kmod
	dwarves	# pahole: 6.12's kbuild (tests/kernels.sh) generates BTF for modules with it
	trace-cmd libtracecmd-dev libtraceevent-dev libtracefs-dev
	libdw-dev libelf-dev elfutils
	check
	protobuf-c-compiler libprotobuf-c-dev zlib1g-dev	# fgdecode --pprof: profile.proto compiled by protoc-c, gzip
	libzstd-dev	# fgdecode uncompresses a trace.dat's printk formats to check them (lib/tracedat_block.c; zlib too)
	golang-go	# go tool pprof, the consumer tests/decoder/test_pprof.sh checks --pprof with
	chromium python3	# the headless browser tests/decoder/test_flamegraph.sh drives (DevTools over a pipe)
	man-db groff-base	# tests/test_man.sh renders the man pages
	clang libclang-rt-dev
	qemu-system-x86 busybox-static cpio zstd xz-utils
	gcc-aarch64-linux-gnu qemu-system-arm	# the arm64 kernel make check boots: the module cross-built, its guest
	flex bison bc libssl-dev	# the debug kernel, tests/kernels/debug-kernel.sh
)
# What only one release has.  The debug kernel is built from bookworm's 6.1 source; trixie has no
# linux-source-6.1 (apt would take the name as a pattern and pick linux-source-6.12).
. /etc/os-release
case ${VERSION_CODENAME:-} in
bookworm) PACKAGES+=(linux-source-6.1) ;;
esac

missing_packages() {
	local p
	for p in "${PACKAGES[@]}"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
			echo "$p"
		fi
	done
}

main() {
	local missing
	mapfile -t missing < <(missing_packages)
	if ((${#missing[@]} == 0)); then
		echo "install-deps: all ${#PACKAGES[@]} packages present"
		return 0
	fi
	if [[ ${1:-} == --check ]]; then
		echo "install-deps: missing: ${missing[*]}"
		return 1
	fi
	if ((EUID != 0)); then
		echo "install-deps: missing ${missing[*]}; run as root (or install them) and retry" >&2
		return 1
	fi
	echo "install-deps: installing ${missing[*]}"
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
}

main "$@"
