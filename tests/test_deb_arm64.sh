#!/bin/bash
# The Debian packages for arm64 (issue #39 item 4): built here with dpkg's cross support, installed and used in an
# arm64 root under qemu-user, the module built there by DKMS for Debian's arm64 kernel.
#   1. build: a copy of bookworm's fresh (amd64) root, told of arm64 (its own dpkg: dpkg --add-architecture in
#      the root, never the host's), a clean clone of HEAD in it, `DEB_HOST_ARCH=arm64 make deb` with the build
#      profile of tests/test_deb.sh (pkg.stackmap.nokshark): crossbuild-essential-arm64 and the arm64 build
#      dependencies installed, dpkg-buildpackage -a arm64, lintian (in that root) with no error or warning
#   2. install: a copy of bookworm's fresh arm64 root (tests/roots.sh fresh bookworm-arm64: debootstrap --foreign,
#      every program in it run by qemu-aarch64-static through binfmt_misc), with the headers of the 6.12-arm64
#      kernel of tests/kernels.sh: tests/deb/in_root.sh's deps, files, install and check phases, as
#      tests/test_deb.sh runs them (DKMS builds stackmap.ko there, natively under emulation, with the root's
#      gcc-12; versions, fgdecode, the plugin through trace-cmd report on the x86-64 fixture, the front end, the
#      man pages)
#   3. module: DKMS's stackmap.ko is an AArch64 ELF whose vermagic is the vermagic of the kernel's own modules
#      (the unpacked 6.12-arm64 kernel of tests/kernels.sh); DKMS also builds it for bookworm's own arm64 6.1,
#      whose headers come with dkms's Recommends (linux-headers-arm64): AArch64, vermagic of that release
#   4. decode: the packaged fgdecode and the root's trace-cmd with the installed plugin decode the arm64 fixture
#      (tests/fixtures/traces/arm64/views.dat) the 26 ways of tests/decoder/cross_arch_lib.sh, each byte for byte
#      as the committed decode/ (which the cross-compiled arm64 build made under qemu-user), standard error too
#   5. purge: apt remove stackmap restores trace-cmd; apt purge leaves the root's file list as before install
# Why cross-built and not `make deb` inside the arm64 root: under qemu-user gcc and lintian (perl) run many times
# slower than here, and the build gains nothing from emulation: dpkg-buildpackage -a arm64 links against the very
# arm64 -dev packages an arm64 build would, dpkg-shlibdeps reads their arm64 symbols files, and the packages are
# then installed and run where emulation is the point (step 2: dpkg, maintainer scripts, DKMS, fgdecode,
# trace-cmd, all arm64). It also makes `DEB_HOST_ARCH=arm64 make deb` work on an x86-64 workstation, which is how
# a board's packages are usually made.
# The module is not booted here (the x86 guest suite of test_deb.sh has no arm64 counterpart yet): vm-e2e@6.12-arm64
# records with the tree's build of the same source.
# Usage: tests/test_deb_arm64.sh   (needs root, debootstrap, qemu-user-static, and `make` for the plugin the
#        expected frame count comes from). Roots, logs and packages in $WORK/bookworm-arm64-* (KEEP=1 keeps the
#        roots). 15-20 minutes with the roots and apt's downloads cached (tests/README.md, "Packages on
#        arm64"), most of it dpkg's and DKMS's work under emulation.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${STACKMAP_ROOTS:-/var/cache/stackmap/roots}
FIXTURE=$ROOT/tests/fixtures/traces/arm64
KERNEL=6.12-arm64
# The build root's suite (amd64, the host's) and the install root's (arm64, under qemu-user).
BUILD_SUITE=bookworm
SUITE=bookworm-arm64
PROG=test_deb_arm64
# shellcheck source=tests/root_lib.sh
. "$ROOT/tests/root_lib.sh"
# WORK, REV, VERSION, TRACE, deb_frames, deb_install, deb_purge
# shellcheck source=tests/deb/deb_lib.sh
. "$ROOT/tests/deb/deb_lib.sh"
# ko_unpack
# shellcheck source=tests/vm/kernel.sh
. "$ROOT/tests/vm/kernel.sh"
# CROSS_ARCH_DECODES, cross_arch_decode
# shellcheck source=tests/decoder/cross_arch_lib.sh
. "$ROOT/tests/decoder/cross_arch_lib.sh"

fail() {
	echo "$PROG: $1: FAIL: $2" >&2
	exit 1
}

# build: the arm64 packages cross-built by `make deb` in a copy of the fresh amd64 root, into $WORK/$SUITE-debs.
build() {
	local dir=$WORK/$SUITE-build log=$WORK/$SUITE.log
	root_copy "$BUILD_SUITE" "$dir"
	root_clone "$BUILD_SUITE" "$dir" "$REV"
	root_step "$BUILD_SUITE" "$dir" "$log" arch dpkg --add-architecture arm64
	root_step "$BUILD_SUITE" "$dir" "$log" deb bash -c \
		'cd /root/stackmap && DEB_HOST_ARCH=arm64 DEB_BUILD_PROFILES=pkg.stackmap.nokshark make deb'
	rm -rf "$WORK/$SUITE-debs"
	mkdir -p "$WORK/$SUITE-debs"
	cp "$dir"/root/stackmap/build/deb-arm64/*.deb "$dir/root/stackmap/build/deb-arm64/lintian.txt" "$WORK/$SUITE-debs/" ||
		fail build "no packages in $dir/root/stackmap/build/deb-arm64"
	check_arch "$WORK/$SUITE-debs"
	echo "$PROG: build: packages: $(cd "$WORK/$SUITE-debs" && ls -- *.deb | paste -sd' ')"
	((${KEEP:-0})) || rm -rf "$dir"
}

# check_arch DIR: every package of DIR is arm64 or all, and every ELF file in the arm64 ones is AArch64.
check_arch() {
	local deb arch tmp f bad=0 n=0
	tmp=$(mktemp -d)
	for deb in "$1"/*.deb; do
		arch=$(dpkg-deb -f "$deb" Architecture)
		case $arch in
		all) continue ;;
		arm64) ;;
		*) rm -rf "$tmp"; fail build "$(basename "$deb") is for $arch" ;;
		esac
		rm -rf "$tmp/x"
		dpkg-deb -x "$deb" "$tmp/x"
		while IFS= read -r -d '' f; do
			[[ $(head -c 4 "$f" | od -An -c | tr -d ' ') == 177ELF ]] || continue
			n=$((n + 1))
			readelf -h "$f" | grep -q 'Machine: *AArch64' || { echo "$f: $(file -b "$f")"; bad=$((bad + 1)); }
		done < <(find "$tmp/x" -type f -print0)
	done
	rm -rf "$tmp"
	((bad == 0 && n > 0)) || fail build "$bad of $n ELF files in the arm64 packages are not AArch64"
	echo "$PROG: build: the $n ELF files of the arm64 packages are AArch64"
}

# check_module DIR KVER: DKMS's stackmap.ko in the root DIR is an AArch64 module for KVER with the vermagic of
# that kernel's own modules; so is every other module DKMS built there (dkms recommends linux-headers-arm64,
# bookworm's 6.1), whose kernel is not unpacked here: its vermagic names its release.
check_module() {
	local dir=$1 kver=$2 k ko out kroot ref want got kvers
	# (dkms status prints readelf's warnings about a '.comment' section on stderr: left out)
	kvers=$("$ROOT/tests/roots.sh" run "$dir" -- dkms status -m stackmap 2>/dev/null | sed -n 's/^stackmap\/[^,]*, \([^,]*\), .*: installed.*/\1/p')
	[[ $'\n'$kvers$'\n' == *$'\n'$kver$'\n'* ]] || fail module "DKMS built stackmap for '${kvers//$'\n'/ }', not for $kver"
	# The unpacked kernel: its headers are KROOT/usr/src/linux-headers-KVER.
	kroot=$("$ROOT/tests/kernels.sh" kdir "$KERNEL" 2>/dev/null) && kroot=${kroot%/usr/src/*} || kroot=""
	ref=$(find "$kroot/lib/modules/$kver/kernel" -name '*.ko*' 2>/dev/null | head -n 1)
	[[ -n $ref ]] || fail module "no module of $kver to compare vermagic with (tests/kernels.sh prepare $KERNEL)"
	for k in $kvers; do
		ko=$("$ROOT/tests/roots.sh" run "$dir" -- /root/in_root.sh module "$k") || fail module "no DKMS module for $k"
		out=$WORK/$SUITE-debs/stackmap-$k.ko
		ko_unpack "$dir$ko" "$out" || fail module "DKMS's module $ko is not a .ko, .ko.xz, .ko.zst or .ko.gz"
		readelf -h "$out" | grep -q 'Machine: *AArch64' || fail module "$ko is not an AArch64 ELF: $(file -b "$out")"
		got=$(modinfo -F vermagic "$out")
		if [[ $k == "$kver" ]]; then
			want=$(modinfo -F vermagic "$ref")
			[[ -n $got && $got == "$want" ]] ||
				fail module "vermagic of $ko is '$got', the kernel's ($(basename "$ref")) '$want'"
			want="as the kernel's $(basename "$ref")"
		else
			[[ ${got%% *} == "$k" ]] || fail module "vermagic of $ko is '$got', not of $k"
			want="(release only: that kernel is not unpacked here)"
		fi
		echo "$PROG: module: $ko: $(file -b "$out" | cut -d, -f1-2); vermagic '$got' $want"
	done
}

# decode DIR LOG: the arm64 fixture decoded in the root DIR by the packaged fgdecode and plugin, against
# the committed arm64 decode.
decode() {
	local dir=$1 log=$2 name n=0 bad=0 start=$SECONDS
	# Copies in the root's /root (bind points would leave their directories in the root's file list): the
	# fixture and the x86-64 views.dat beside it (diff's other trace, ../views.dat); an empty plugin directory
	# for TRACEEVENT_PLUGIN_DIR, so that trace-cmd report loads the installed plugin only.
	rm -rf "$dir/root/fixture" "$dir/root/decode" "$dir/root/no-plugins"
	mkdir -p "$dir/root/fixture/arm64" "$dir/root/decode" "$dir/root/no-plugins"
	cp "$FIXTURE/views.dat" "$FIXTURE/views.stack_map.txt" "$dir/root/fixture/arm64/"
	cp "$ROOT/tests/fixtures/traces/views.dat" "$dir/root/fixture/"
	cp "$ROOT/tests/decoder/cross_arch_lib.sh" "$dir/root/"
	# shellcheck disable=SC2016 # expanded by the root's bash
	root_step "$SUITE" "$dir" "$log" decode bash -c '
		set -e
		. /root/cross_arch_lib.sh
		CROSS_ARCH_FGDECODE=/usr/bin/fgdecode CROSS_ARCH_TRACECMD=/usr/bin/trace-cmd CROSS_ARCH_PLUGIN_DIR=/root/no-plugins \
			cross_arch_decode /root/decode /root/fixture/arm64/views.dat views.stack_map.txt ../views.dat
		echo "decode: $(ls /root/decode | wc -l) files, $(cat /root/decode/* | wc -c) bytes"
	'
	for name in $(awk 'NF { print $1 }' <<<"$CROSS_ARCH_DECODES") stderr; do
		n=$((n + 1))
		committed "$name" | cmp -s - "$dir/root/decode/$name" && continue
		bad=$((bad + 1))
		echo "$PROG: decode: $name differs from the committed arm64 decode:"
		committed "$name" | diff - "$dir/root/decode/$name" | head -n 6
	done
	((bad == 0)) || fail decode "$bad of $n decodes differ from tests/fixtures/traces/arm64/decode/ (< committed, > packages)"
	echo "$PROG: decode: the packaged fgdecode and plugin give the $n outputs of tests/fixtures/traces/arm64/decode/ byte for byte ($((SECONDS - start)) s)"
}

# committed NAME: the committed arm64 decode NAME.
committed() {
	if [[ -f $FIXTURE/decode/$1.xz ]]; then xz -dc "$FIXTURE/decode/$1.xz"; else cat "$FIXTURE/decode/$1"; fi
}

# install: install, check, module, decode, purge, compare the file lists in a copy of the fresh arm64 root.
install() {
	local dir=$WORK/$SUITE-install log=$WORK/$SUITE.log kver frames
	kver=$("$ROOT/tests/kernels.sh" kver "$KERNEL") || fail install "tests/kernels.sh kver $KERNEL failed"
	frames=$(deb_frames install) || exit 1
	root_copy "$SUITE" "$dir"
	# The kernel image is installed only because its headers depend on it, and is never booted here; its
	# initramfs, made under emulation by the image's postinst and again by initramfs-tools' trigger, took more
	# than 15 minutes each time (mkinitramfs spawns a process per module): update-initramfs is diverted to
	# true in this root, before anything is installed (the purge's file lists both have it).
	root_step "$SUITE" "$dir" "$log" no-initramfs sh -c \
		'dpkg-divert --local --rename --add /usr/sbin/update-initramfs && ln -s /bin/true /usr/sbin/update-initramfs'
	deb_install "$SUITE" "$dir" "$log" "$kver" "$frames" install
	check_module "$dir" "$kver"
	decode "$dir" "$log"
	deb_purge "$SUITE" "$dir" "$log" purge purge
	((${KEEP:-0})) || rm -rf "$dir"
}

main() {
	local start=$SECONDS
	((EUID == 0)) || fail all "needs root (debootstrap, chroot, binfmt_misc)"
	command -v qemu-aarch64-static >/dev/null || fail all "no qemu-aarch64-static (apt-get install qemu-user-static)"
	mkdir -p "$WORK"
	rm -f "$WORK/$SUITE.log".*
	build
	install
	echo "$PROG: PASS in $((SECONDS - start)) s"
	echo "1 passed, 0 failed"
}

main "$@"
