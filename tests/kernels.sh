#!/bin/bash
# The kernels stackmap is built and tested against, by NAME:
#   6.1      Debian's installed 6.1 (/boot, /lib/modules/KVER/build): nothing is fetched
#   6.12     the newest linux-image-6.12.*+deb12-amd64 of bookworm-security
#   6.12-rt  the same for -rt-amd64 (PREEMPT_RT)
#   newest   the newest linux-image-*+deb13-amd64 of trixie-backports (7.3.4 in December 2026): its headers want
#            gcc-14 and glibc 2.38, so the module is built in a trixie root (tests/roots.sh build trixie)
#   debug    tests/kernels/debug-kernel.sh's self-built bzImage (everything built in, no modules) of Debian's
#            6.1 source (linux-source-6.1), built once per machine
#   debug-newest  the same of the newest kernel's source (linux-source-7.3 in December 2026), where tracepoint
#            probes are preemptible (SRCU-fast): built once per machine
#   kcsan    the debug kernel of the 6.1 source with the data-race detector KCSAN in place of KASAN
#            (debug-kernel.sh --checker kcsan): built once per machine, opt-in (DEBUG_KERNEL=kcsan)
#   6.12-arm64    the newest linux-image-6.12.*+deb12-arm64 of bookworm-security (6.12's version), cross-built
#            for on this host with gcc-aarch64-linux-gnu, booted under qemu-system-aarch64
#   newest-arm64  the newest *+deb13-arm64 kernel of trixie-backports (newest's version): its kbuild tools want
#            glibc 2.38, so the module is cross-built in the trixie root (gcc-14-aarch64-linux-gnu installed there)
# 6.12 and 6.12-rt are fetched with `apt-get download` and unpacked with `dpkg-deb -x` into one root per kernel
# under $STACKMAP_CACHE (default /var/cache/stackmap/kernels), never installed: /boot, /lib/modules and the
# "newest installed kernel" of the machine stay as they were. The arm64 kernels, and the arm64 busybox and
# trace-cmd their guests run, come through an apt state of their own (arm64 first, amd64 for the kbuild tools;
# $STACKMAP_CACHE/apt-arm64-SUITE: its own sources, lists and cache), never the host's.
#
# Usage: tests/kernels.sh prepare NAME...     fetch and unpack what is missing (idempotent), print what was chosen
#        tests/kernels.sh kver NAME           the kernel release (uname -r of the guest)
#        tests/kernels.sh kdir NAME           the directory to build modules against (make -C KDIR M=...)
#        tests/kernels.sh config NAME         the kernel's .config
#        tests/kernels.sh build-root NAME     the root the module is built in, if not the host (nothing printed)
#        tests/kernels.sh apt-config NAME     the APT_CONFIG of a foreign (arm64) kernel's apt state (nothing printed
#                                             for the others): APT_CONFIG=FILE apt-get download its -dbg package
#        tests/kernels.sh vm-args NAME        tests/vm/run-vm.sh arguments that boot it, one per line
#        tests/kernels.sh module NAME [MAKE-ARGS]
#                                             build stackmap.ko for it in build/kmod-NAME/ and print the .ko's path
#        tests/kernels.sh names               the NAMEs known
#        tests/kernels.sh arm64-sysroot       the arm64 -dev sysroot fgdecode and the plugin are cross-built
#                                             against and run in under qemu-user (tests/arm64/build.sh); made once
# kver/kdir/config/vm-args/module prepare NAME first if needed (quiet when it already is).
#
# Each prepared kernel is described by $STACKMAP_CACHE/NAME.env (KEY=VALUE lines: NAME, KVER, KDIR, CONFIG,
# VM_ARGS, words without spaces; ARCH=arm64 for a foreign kernel): the one place the rest of the project learns how to build for and boot a
# kernel, so another NAME only needs a prepare function that writes one (BUILD_ROOT, when present, is the root
# the module is built in). `--update` (before the command) re-resolves the newest 6.12 or trixie-backports
# kernel instead of keeping the one already prepared.
set -euo pipefail

PROG=kernels
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${STACKMAP_CACHE:-/var/cache/stackmap/kernels}
NAMES=(6.1 6.12 6.12-rt newest debug debug-newest kcsan 6.12-arm64 newest-arm64)
UPDATE=0

log() { echo "$PROG: $*" >&2; }
die() { log "$*"; exit 1; }

# get NAME KEY: a value of NAME.env.
get() {
	local f=$CACHE/$1.env k v
	[[ -r $f ]] || return 1
	while IFS='=' read -r k v; do
		[[ $k == "$2" ]] && { echo "$v"; return 0; }
	done <"$f"
	return 1
}

# write_env NAME KEY=VALUE...: atomically, so a reader sees all of it or nothing.
write_env() {
	local name=$1 tmp
	shift
	mkdir -p "$CACHE"
	tmp=$(mktemp "$CACHE/.$name.env.XXXXXX")
	printf '%s\n' "NAME=$name" "$@" >"$tmp"
	chmod 644 "$tmp"
	mv -f "$tmp" "$CACHE/$name.env"
}

# The .env still describes files that exist.
env_valid() {
	local kdir config root
	kdir=$(get "$1" KDIR) && config=$(get "$1" CONFIG) || return 1
	[[ -f $kdir/Makefile && -r $config ]] || return 1
	# An unpacked root (ROOT) must still have its modules.dep.
	root=$(get "$1" ROOT) || return 0
	[[ -s $root/lib/modules/$(get "$1" KVER)/modules.dep ]]
}

# --- 6.1: the installed Debian kernel ------------------------------------------------------------------------

prepare_6.1() {
	local kver
	kver=$(find /boot -maxdepth 1 -name 'vmlinuz-6.1.*' -printf '%f\n' | sed 's/^vmlinuz-//' | sort -V | tail -n 1)
	if [[ -z $kver ]]; then
		. /etc/os-release
		[[ ${VERSION_CODENAME:-} == bookworm ]] ||
			die "6.1: bookworm's installed kernel, and this is ${PRETTY_NAME:-not bookworm}: the 6.1 and 6.12 suites run on a bookworm host (name other suites, or run make check there)"
		die "6.1: no /boot/vmlinuz-6.1.* installed (tests/install-deps.sh installs linux-image-amd64)"
	fi
	[[ -f /lib/modules/$kver/build/Makefile ]] || die "6.1: no headers at /lib/modules/$kver/build (install linux-headers-$kver)"
	write_env 6.1 "KVER=$kver" "KDIR=/lib/modules/$kver/build" "CONFIG=/boot/config-$kver" "VM_ARGS=--kver $kver"
	log "6.1 = $kver (installed: /boot/vmlinuz-$kver, headers /lib/modules/$kver/build)"
}

# --- 6.12, 6.12-rt: bookworm-security packages, unpacked -------------------------------------------------------

# A package apt can download (has a candidate version).
available() {
	apt-cache show --no-all-versions "$1" >/dev/null 2>&1
}

# packages ABI FLAVOUR: every package one kernel needs (ABI 6.12.117+deb12, FLAVOUR amd64 or rt-amd64).
packages() {
	local abi=$1 flavour=$2 common=common
	[[ $flavour == rt-* ]] && common="common-rt"
	echo "linux-image-$abi-$flavour linux-headers-$abi-$flavour linux-headers-$abi-$common linux-kbuild-$abi"
}

# newest FLAVOUR: the newest 6.12 ABI whose four packages are all downloadable.
newest() {
	local flavour=$1 abi p ok
	for abi in $(apt-cache pkgnames linux-image-6.12. | grep -E "^linux-image-6\.12\.[0-9]+\+deb12-$flavour\$" |
		sed -E "s/^linux-image-(.*)-$flavour\$/\1/" | sort -rV); do
		ok=1
		for p in $(packages "$abi" "$flavour"); do
			available "$p" || { ok=0; break; }
		done
		((ok)) && { echo "$abi"; return 0; }
	done
	return 1
}

ensure_lists() {
	# Not `| grep -q`: grep would leave early and apt-cache fail on the closed pipe (pipefail).
	[[ -n $(apt-cache pkgnames linux-image-6.12.) ]] && return 0
	((EUID == 0)) || die "no linux-image-6.12.* in the package lists; run apt-get update as root"
	log "no linux-image-6.12.* in the package lists: apt-get update"
	apt-get update -q >&2
}

# unpack DIR DEB...: dpkg-deb -x each into DIR (never installed).
unpack() {
	local dir=$1 deb
	shift
	for deb in "$@"; do
		dpkg-deb -x "$deb" "$dir"
	done
}

prepare_612() {
	local name=$1 flavour=$2 abi kver dir debs=() pkgs p hdr common
	if ((!UPDATE)) && env_valid "$name"; then
		log "$name = $(get "$name" KVER) (already in $CACHE; --update looks for a newer one)"
		return 0
	fi
	ensure_lists
	abi=$(newest "$flavour") || die "$name: no linux-image-6.12.*+deb12-$flavour with headers and kbuild in the package lists"
	kver=$abi-$flavour
	dir=$CACHE/$kver
	read -ra pkgs <<<"$(packages "$abi" "$flavour")"
	hdr=$dir/usr/src/linux-headers-$kver
	if [[ ! -e $dir/.done ]]; then
		log "$name = $kver: downloading ${pkgs[*]}"
		rm -rf "$dir" "$dir.tmp"
		mkdir -p "$CACHE/debs" "$dir.tmp"
		# apt downloads as _apt when that user may write there (else it warns and downloads as root).
		chown _apt "$CACHE/debs" 2>/dev/null || true
		(cd "$CACHE/debs" && apt-get download -q "${pkgs[@]}") >&2 ||
			die "$name: apt-get download failed"
		for p in "${pkgs[@]}"; do
			debs+=("$(find "$CACHE/debs" -maxdepth 1 -name "${p}_*.deb" | sort -V | tail -n 1)")
		done
		unpack "$dir.tmp" "${debs[@]}"
		# The flavour's Makefile includes the common tree by absolute path (/usr/src/...-common[-rt]/Makefile).
		common=$(sed -n 's|^include /usr/src/\(linux-headers-[^/]*\)/Makefile$|\1|p' \
			"$dir.tmp/usr/src/linux-headers-$kver/Makefile")
		[[ -n $common && -d $dir.tmp/usr/src/$common ]] ||
			die "$name: unexpected $hdr/Makefile: $(head -n 3 "$dir.tmp/usr/src/linux-headers-$kver/Makefile")"
		sed -i "s|^include /usr/src/$common/Makefile\$|include $dir/usr/src/$common/Makefile|" \
			"$dir.tmp/usr/src/linux-headers-$kver/Makefile"
		# lib/modules/KVER/build points to /usr/src/... on the host; make it point into the root.
		ln -sfn "../../../usr/src/linux-headers-$kver" "$dir.tmp/lib/modules/$kver/build"
		mv "$dir.tmp" "$dir"
		dpkg-deb -f "${debs[0]}" Version >"$dir/.done"
		rm -f "${debs[@]}"
	fi
	# The package leaves modules.dep to depmod at install time: generate it in the root.
	if [[ ! -s $dir/lib/modules/$kver/modules.dep ]]; then
		depmod -b "$dir" "$kver" || die "$name: depmod -b $dir $kver failed"
	fi
	[[ -f $hdr/Makefile && -r $dir/boot/vmlinuz-$kver && -r $dir/boot/config-$kver ]] ||
		die "$name: $dir is incomplete (remove it and run again)"
	write_env "$name" "KVER=$kver" "ROOT=$dir" "KDIR=$hdr" "CONFIG=$dir/boot/config-$kver" \
		"VM_ARGS=--kernel-root $dir --kver $kver"
	log "$name = $kver (newest 6.12 $flavour in the package lists: version $(cat "$dir/.done"), unpacked in $dir)"
}

prepare_6.12() { prepare_612 6.12 amd64; }
prepare_6.12-rt() { prepare_612 6.12-rt rt-amd64; }

# --- newest: the newest kernel of trixie-backports, built for in a trixie root -------------------------------------

# in_root COMMAND...: run COMMAND in the trixie build root (tests/roots.sh), with the kernel cache and this tree
# bound at their own paths, so every path means the same inside and out.
in_root() {
	"$ROOT/tests/roots.sh" run "$BUILD_ROOT" --bind "$CACHE" --bind "$ROOT" -- "$@"
}

# newest_kver: the newest linux-image-N.N.N+deb13-amd64 of the build root's package lists whose headers are there
# too (a bookworm host's apt state does not see trixie: the root has its own).
newest_kver() {
	in_root bash -c 'for k in $(apt-cache pkgnames linux-image- | grep -E "^linux-image-[0-9]+\.[0-9.]+\+deb13-amd64\$" |
		sed -E "s/^linux-image-//" | sort -rV); do
		apt-cache show --no-all-versions "linux-headers-$k" >/dev/null 2>&1 && { echo "$k"; exit 0; }
	done; exit 1'
}

# 7.x packages split the kernel: linux-binary-KVER (the image at /usr/lib/modules/KVER/vmlinuz, nothing in /boot
# until its postinst runs), linux-modules-KVER (no modules.dep) and linux-base-KVER (config, modules.builtin).
# They are unpacked, never installed, into CACHE/KVER with the /boot and /lib/modules layout run-vm.sh reads; the
# headers are installed in the build root, whose compiler (gcc-14) and glibc (objtool) they need.
prepare_newest() {
	local kver dir debs=() p
	BUILD_ROOT=$("$ROOT/tests/roots.sh" build trixie) || die "newest: no trixie build root (tests/roots.sh build trixie)"
	if ((!UPDATE)) && env_valid newest && [[ $(get newest BUILD_ROOT) == "$BUILD_ROOT" ]]; then
		log "newest = $(get newest KVER) (already in $CACHE; --update looks for a newer one)"
		return 0
	fi
	((!UPDATE)) || in_root apt-get update -q >&2 || die "newest: apt-get update in $BUILD_ROOT failed"
	kver=$(newest_kver) || die "newest: no linux-image-*+deb13-amd64 with headers in $BUILD_ROOT's package lists"
	log "newest = $kver: installing linux-headers-$kver in $BUILD_ROOT"
	in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "linux-headers-$kver" \
		>&2 || die "newest: installing linux-headers-$kver in $BUILD_ROOT failed"
	dir=$CACHE/$kver
	if [[ ! -e $dir/.done ]]; then
		log "newest = $kver: downloading linux-binary, linux-modules and linux-base"
		rm -rf "$dir" "$dir.tmp"
		mkdir -p "$CACHE/debs" "$dir.tmp"
		in_root bash -c 'cd "$1" && shift && apt-get download -q -o APT::Sandbox::User=root "$@"' download \
			"$CACHE/debs" "linux-binary-$kver" "linux-modules-$kver" "linux-base-$kver" >&2 ||
			die "newest: apt-get download in $BUILD_ROOT failed"
		for p in binary modules base; do
			debs+=("$(find "$CACHE/debs" -maxdepth 1 -name "linux-$p-${kver}_*.deb" | sort -V | tail -n 1)")
		done
		unpack "$dir.tmp" "${debs[@]}"
		[[ -e $dir.tmp/lib ]] || ln -s usr/lib "$dir.tmp/lib"
		mkdir -p "$dir.tmp/boot"
		ln -s "../usr/lib/modules/$kver/vmlinuz" "$dir.tmp/boot/vmlinuz-$kver"
		mv "$dir.tmp" "$dir"
		dpkg-deb -f "${debs[0]}" Version >"$dir/.done"
		rm -f "${debs[@]}"
	fi
	if [[ ! -s $dir/lib/modules/$kver/modules.dep ]]; then
		depmod -b "$dir" "$kver" || die "newest: depmod -b $dir $kver failed"
	fi
	[[ -r $dir/boot/vmlinuz-$kver && -f $BUILD_ROOT/usr/src/linux-headers-$kver/Makefile ]] ||
		die "newest: $dir or $BUILD_ROOT is incomplete (remove it and run again)"
	write_env newest "KVER=$kver" "ROOT=$dir" "KDIR=$BUILD_ROOT/usr/src/linux-headers-$kver" \
		"BUILD_ROOT=$BUILD_ROOT" "CONFIG=$dir/lib/modules/$kver/config" "VM_ARGS=--kernel-root $dir --kver $kver"
	log "newest = $kver (newest of trixie-backports: version $(cat "$dir/.done"), unpacked in $dir, built for in $BUILD_ROOT)"
}

# --- 6.12-arm64, newest-arm64: Debian's arm64 kernels, cross-built for ---------------------------------------

# Debian cross-builds its arm64 kernels (their CONFIG_CC_VERSION_TEXT is "aarch64-linux-gnu-gcc-N ..."), and the
# headers' .kernelvariables set ARCH=arm64 and CROSS_COMPILE=aarch64-linux-gnu- themselves: `make -C KDIR M=...`
# needs no argument, only that compiler. The headers' scripts/ and tools/ link into linux-kbuild-ABI, whose
# programs run on the build machine: that package is amd64's. Everything comes through an apt state of this
# cache's own (arm64 first, amd64 second), so the host's sources, lists and architectures stay as they were.
ARM64_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
# The guest's busybox and trace-cmd, the same release as the host's userland (trace-cmd 3.1.6 on bookworm):
# the arm64 guests record with the trace-cmd the x86 guests run, and the host decodes what it wrote.
ARM64_USERLAND_PACKAGES="busybox-static trace-cmd libtraceevent1 libtracefs1 libzstd1 libc6"

# host_mirror SUITE: the URI the host's apt serves SUITE/main from (as tests/roots.sh's mirror()).
host_mirror() {
	apt-cache policy 2>/dev/null | awk -v s="$1/main" '$3 == s && $2 ~ /^https?:\/\// { print $2; exit }'
}

# arm64_apt SUITE: make the apt state CACHE/apt-arm64-SUITE (bookworm: the release, its updates and security
# suites; trixie: and trixie-backports, where the 7.x kernels are) and fetch its lists when it has none, when they
# are a week old (a security update removes the kernel they name from the archive), or with --update; set APT_CONF
# to its configuration file (apt_arm64 runs apt with it).
arm64_apt() {
	local suite=$1 dir=$CACHE/apt-arm64-$1 m sec
	APT_CONF=$dir/etc/apt.conf
	if ((!UPDATE)) && [[ -n $(find "$dir/.updated" -mtime -7 2>/dev/null) ]]; then return 0; fi
	m=$(host_mirror bookworm) sec=$(host_mirror bookworm-security)
	[[ -n $m ]] || die "arm64: no bookworm/main source in the host's apt configuration (apt-cache policy)"
	mkdir -p "$dir/etc" "$dir/lists/partial" "$dir/cache/archives/partial"
	{
		echo "deb [signed-by=$ARM64_KEYRING] $m $suite main"
		echo "deb [signed-by=$ARM64_KEYRING] $m $suite-updates main"
		[[ -z $sec ]] || echo "deb [signed-by=$ARM64_KEYRING] $sec $suite-security main"
		[[ $suite == bookworm ]] || echo "deb [signed-by=$ARM64_KEYRING] $m $suite-backports main"
	} >"$dir/etc/sources.list"
	cat >"$APT_CONF" <<CONF
APT::Architecture "arm64";
APT::Architectures { "arm64"; "amd64"; };
Dir::Etc::sourcelist "$dir/etc/sources.list";
Dir::Etc::sourceparts "/dev/null";
Dir::State::Lists "$dir/lists";
Dir::State::status "/dev/null";
Dir::Cache "$dir/cache";
Acquire::Languages "none";
CONF
	chown -R _apt "$dir/lists" "$dir/cache" 2>/dev/null || true
	log "arm64: apt-get update of $suite (arm64 and amd64) in $dir"
	apt_arm64 apt-get update -q >&2 || die "arm64: apt-get update of $suite in $dir failed"
	touch "$dir/.updated"
}

apt_arm64() {
	APT_CONFIG=$APT_CONF "$@"
}

# arm64_download DIR PACKAGE...: apt-get download into CACHE/debs, unpacked into DIR; prints the first .deb's
# version. PACKAGE may carry an architecture (linux-kbuild-ABI:amd64).
arm64_download() {
	local dir=$1 p deb first=""
	shift
	mkdir -p "$CACHE/debs" "$dir"
	chown _apt "$CACHE/debs" 2>/dev/null || true
	(cd "$CACHE/debs" && apt_arm64 apt-get download -q "$@") >&2 || die "arm64: apt-get download $* failed"
	for p in "$@"; do
		deb=$(find "$CACHE/debs" -maxdepth 1 \( -name "${p%:*}_*_$(arch_of "$p").deb" -o -name "${p%:*}_*_all.deb" \) |
			sort -V | tail -n 1)
		[[ -n $deb ]] || die "arm64: no .deb of $p in $CACHE/debs"
		dpkg-deb -x "$deb" "$dir"
		[[ -n $first ]] || first=$(dpkg-deb -f "$deb" Version)
		rm -f "$deb"
	done
	echo "$first"
}

# arch_of PACKAGE: the architecture of its .deb: PACKAGE's own (name:amd64), all for the -common headers, else
# arm64 (arm64_download takes an _all.deb too: the sysroot's libtirpc-common).
arch_of() {
	case $1 in
	*:*) echo "${1#*:}" ;;
	linux-headers-*-common*) echo all ;;
	*) echo arm64 ;;
	esac
}

# arm64_packages KVER: the packages of the arm64 kernel KVER (ABI-arm64), or nothing when one is missing from
# the lists: 7.x splits the image into linux-binary, linux-modules and linux-base; before that, linux-image.
arm64_packages() {
	local kver=$1 abi=${1%-arm64} p pkgs=()
	if apt_arm64 apt-cache show --no-all-versions "linux-binary-$kver" >/dev/null 2>&1; then
		pkgs=("linux-binary-$kver" "linux-modules-$kver" "linux-base-$kver")
	else
		pkgs=("linux-image-$kver")
	fi
	pkgs+=("linux-headers-$kver" "linux-headers-$abi-common" "linux-kbuild-$abi:amd64")
	for p in "${pkgs[@]}"; do
		apt_arm64 apt-cache show --no-all-versions "$p" >/dev/null 2>&1 || return 0
	done
	echo "${pkgs[*]}"
}

# arm64_userland: CACHE/userland-arm64-bookworm, the unpacked busybox-static and trace-cmd (with the libraries
# it links) the arm64 guests run (run-vm.sh --userland); made once. Prints its path.
arm64_userland() {
	local dir=$CACHE/userland-arm64-bookworm lib need
	if [[ ! -e $dir/.done ]]; then
		arm64_apt bookworm
		rm -rf "$dir.tmp"
		log "arm64 userland: downloading $ARM64_USERLAND_PACKAGES"
		# shellcheck disable=SC2086 # a list of names
		arm64_download "$dir.tmp" $ARM64_USERLAND_PACKAGES >"$dir.tmp.version"
		# Every library trace-cmd needs must be there: run-vm.sh copies them by their NEEDED names.
		for need in $(readelf -d "$dir.tmp/usr/bin/trace-cmd" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			lib=$(find "$dir.tmp/lib" "$dir.tmp/usr/lib" -name "$need" 2>/dev/null | head -n 1)
			[[ -n $lib ]] || die "arm64 userland: trace-cmd needs $need, which none of $ARM64_USERLAND_PACKAGES has"
		done
		[[ -x $dir.tmp/bin/busybox ]] || die "arm64 userland: no bin/busybox in busybox-static"
		rm -rf "$dir"
		mv "$dir.tmp" "$dir"
		mv "$dir.tmp.version" "$dir/.done"
	fi
	echo "$dir"
}

# The arm64 fgdecode and plugin (tests/arm64/build.sh) are cross-compiled on this host against a sysroot of
# bookworm's arm64 -dev packages, not built in an arm64 debootstrap root under qemu-user: the packages come through
# the apt state above (no debootstrap, no second stage under emulation, nothing of the host's apt state), the host's
# gcc-aarch64-linux-gnu is the gcc 12.2 that bookworm's own arm64 gcc is, and it compiles at the host's speed
# (seconds, where gcc under qemu-user takes minutes). The same tree is the prefix qemu-aarch64-static -L runs the
# result in, so it runs with the very libraries it was linked against. libtraceevent1-plugin: the arm64 fgdecode
# loads the same libtraceevent plugins the host's loads (its event text is trace-cmd report's with them);
# trace-cmd: the arm64 `trace-cmd report` that loads the arm64 plugin.
ARM64_DEV_PACKAGES="libc6-dev libdw-dev libelf-dev zlib1g-dev libzstd-dev libtraceevent-dev libtracefs-dev
	libtracecmd-dev libprotobuf-c-dev libtraceevent1-plugin trace-cmd"

# arm64_sysroot: CACHE/sysroot-arm64-bookworm, ARM64_DEV_PACKAGES and everything they depend on (arm64), unpacked;
# made once, under the lock, and again when ARM64_DEV_PACKAGES changes (remove it for newer packages). Prints
# its path. Absolute symlinks (libz.so -> /lib/...) are made relative, so they
# point into the sysroot for the cross linker and for qemu-user alike.
arm64_sysroot() {
	local dir=$CACHE/sysroot-arm64-bookworm fd link pkgs want
	want=$(echo $ARM64_DEV_PACKAGES) # one line
	[[ -e $dir/.done && $(cat "$dir/.request" 2>/dev/null) == "$want" ]] && { echo "$dir"; return 0; }
	mkdir -p "$CACHE"
	exec {fd}>>"$CACHE/.lock"
	flock "$fd"
	if [[ ! -e $dir/.done || $(cat "$dir/.request" 2>/dev/null) != "$want" ]]; then
		arm64_apt bookworm
		# The closure of Depends and Pre-Depends, arm64 only: what an :amd64 entry names (a Multi-Arch: foreign
		# tool such as rpcsvc-proto) has an arm64 entry too, and a <virtual> one a real provider in the list.
		# shellcheck disable=SC2086 # a list of names
		pkgs=$(apt_arm64 apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
			--no-replaces --no-enhances $ARM64_DEV_PACKAGES | grep -v -e '^ ' -e '^<' -e ':' | sort -u) ||
			die "arm64 sysroot: apt-cache depends failed"
		rm -rf "$dir.tmp"
		log "arm64 sysroot: downloading $(wc -w <<<"$pkgs") packages: $(tr '\n' ' ' <<<"$pkgs")"
		# shellcheck disable=SC2086 # a list of names
		arm64_download "$dir.tmp" $pkgs >/dev/null
		while IFS= read -r -d '' link; do
			ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$dir.tmp$(readlink "$link")")" "$link"
		done < <(find "$dir.tmp" -type l -lname '/*' -print0)
		[[ -f $dir.tmp/usr/include/tracefs/tracefs.h || -f $dir.tmp/usr/include/tracefs.h ]] ||
			die "arm64 sysroot: no tracefs.h in $dir.tmp"
		# What it holds, for whoever reports a build made against it (tests/arm64/decode-fixture.sh).
		# shellcheck disable=SC2086 # a list of names
		apt_arm64 apt-cache show --no-all-versions $pkgs |
			awk '/^Package:/ { p = $2 } /^Architecture:/ { a = $2 } /^Version:/ { v = $2 }
			     /^$/ && p != "" { print p ":" a, v; p = "" }' | sort -u >"$dir.tmp/.packages"
		echo "$want" >"$dir.tmp/.request"
		rm -rf "$dir"
		mv "$dir.tmp" "$dir"
		date -u +%F >"$dir/.done"
	fi
	exec {fd}>&-
	echo "$dir"
}

# prepare_arm64 NAME SUITE PATTERN: the newest arm64 kernel of SUITE whose release matches PATTERN (an ERE
# without the -arm64) and whose packages are all there, unpacked into CACHE/KVER; the module is built on this
# host, or with BUILD_ROOT set, in that root (the kernel's compiler installed there).
prepare_arm64() {
	local name=$1 suite=$2 pattern=$3 kver="" k list="" dir hdr cc config userland version
	if ((!UPDATE)) && env_valid "$name"; then
		log "$name = $(get "$name" KVER) (already in $CACHE; --update looks for a newer one)"
		return 0
	fi
	arm64_apt "$suite"
	for k in $(apt_arm64 apt-cache pkgnames linux-headers- | grep -E "^linux-headers-$pattern-arm64\$" |
		sed 's/^linux-headers-//' | sort -rV); do
		list=$(arm64_packages "$k")
		[[ -z $list ]] || { kver=$k; break; }
	done
	[[ -n $kver ]] || die "$name: no arm64 kernel matching $pattern with headers and kbuild in $suite's lists"
	dir=$CACHE/$kver hdr=$dir/usr/src/linux-headers-$kver
	if [[ ! -e $dir/.done ]]; then
		log "$name = $kver: downloading $list"
		rm -rf "$dir" "$dir.tmp"
		# shellcheck disable=SC2086 # a list of names
		version=$(arm64_download "$dir.tmp" $list)
		# The headers' Makefile names the common tree (and 7.x its own) by absolute path under /usr/src.
		sed -i "s|/usr/src/|$dir/usr/src/|g" "$dir.tmp/usr/src/linux-headers-$kver/Makefile"
		[[ -e $dir.tmp/lib ]] || ln -s usr/lib "$dir.tmp/lib"
		if [[ ! -e $dir.tmp/boot/vmlinuz-$kver ]]; then
			mkdir -p "$dir.tmp/boot"
			ln -s "../usr/lib/modules/$kver/vmlinuz" "$dir.tmp/boot/vmlinuz-$kver"
		fi
		mv "$dir.tmp" "$dir"
		echo "$version" >"$dir/.done"
	fi
	if [[ ! -s $dir/lib/modules/$kver/modules.dep ]]; then
		depmod -b "$dir" "$kver" || die "$name: depmod -b $dir $kver failed"
	fi
	config=$dir/boot/config-$kver
	[[ -r $config ]] || config=$dir/lib/modules/$kver/config
	[[ -f $hdr/Makefile && -r $dir/boot/vmlinuz-$kver && -r $config ]] ||
		die "$name: $dir is incomplete (remove it and run again)"
	cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\{0,1\}\([^ "]*\).*/\1/p' "$hdr/include/config/auto.conf")
	if [[ -n ${BUILD_ROOT:-} ]]; then
		# aarch64-linux-gnu-gcc-14 is in gcc-14-aarch64-linux-gnu.
		in_root sh -c "command -v $cc >/dev/null" ||
			in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
				"${cc#aarch64-linux-gnu-}-aarch64-linux-gnu" >&2 ||
			die "$name: installing the cross compiler $cc in $BUILD_ROOT failed"
	else
		command -v "$cc" >/dev/null ||
			die "$name: its compiler $cc is missing on this host (apt-get install gcc-aarch64-linux-gnu; tests/install-deps.sh)"
	fi
	userland=$(arm64_userland)
	write_env "$name" "ARCH=arm64" "KVER=$kver" "ROOT=$dir" "KDIR=$hdr" "CONFIG=$config" \
		${BUILD_ROOT:+"BUILD_ROOT=$BUILD_ROOT"} "USERLAND=$userland" \
		"VM_ARGS=--arch arm64 --kernel-root $dir --kver $kver --userland $userland"
	log "$name = $kver (newest arm64 $pattern in $suite: version $(cat "$dir/.done"), unpacked in $dir${BUILD_ROOT:+, built for in $BUILD_ROOT})"
}

# The Debian release of each arm64 kernel: the apt state it comes from (and its -dbg package, tests/decoder/
# test_dbg.sh through `apt-config NAME`).
declare -A ARM64_SUITE=([6.12-arm64]=bookworm [newest-arm64]=trixie)

prepare_6.12-arm64() { BUILD_ROOT="" prepare_arm64 6.12-arm64 "${ARM64_SUITE[6.12-arm64]}" '6\.12\.[0-9]+\+deb12'; }

prepare_newest-arm64() {
	BUILD_ROOT=$("$ROOT/tests/roots.sh" build trixie) || die "newest-arm64: no trixie build root (tests/roots.sh build trixie)"
	if ((!UPDATE)) && env_valid newest-arm64 && [[ $(get newest-arm64 BUILD_ROOT) != "$BUILD_ROOT" ]]; then
		rm -f "$CACHE/newest-arm64.env"
	fi
	prepare_arm64 newest-arm64 "${ARM64_SUITE[newest-arm64]}" '[0-9]+\.[0-9.]+\+deb13'
}

# --- debug: tests/kernels/debug-kernel.sh's build ----------------------------------------------------------

# A guest script runs about 13 times as long on the debug kernel (KASAN and lockdep under TCG): every test's
# timeout on it is multiplied by this.
DEBUG_TIMEOUT_SCALE=5

# debug_kernel NAME SOURCE [CHECKER [VM-ARGS]]: debug-kernel.sh's build of SOURCE (6.1 or newest) with CHECKER
# (kasan, the default, or kcsan) as kernel NAME, booted with run-vm.sh's VM-ARGS besides its own.
debug_kernel() {
	local name=$1 script=$ROOT/tests/kernels/debug-kernel.sh dir
	[[ -x $script ]] || die "$name: no $script"
	dir=$("$script" --source "$2" --checker "${3:-kasan}") || die "$name: $script --source $2 --checker ${3:-kasan} failed"
	write_env "$name" "KVER=$(cat "$dir/linux/include/config/kernel.release")" "KDIR=$dir/linux" \
		"CONFIG=$dir/linux/.config" "VM_ARGS=--bzimage $dir/bzImage --timeout-scale $DEBUG_TIMEOUT_SCALE${4:+ $4}"
	log "$name = $dir/bzImage"
}

prepare_debug() { debug_kernel debug 6.1; }
prepare_debug-newest() { debug_kernel debug-newest newest; }
# The 6.1 kernel's own data races (ktime_get_mono_fast_ns / timekeeping_update: 40 reports in one vm-module run,
# the tick code, _find_next_and_bit) are counted, not failures; a race with an access in the module fails.
prepare_kcsan() { debug_kernel kcsan 6.1 kcsan "--kcsan-module stackmap"; }

# ---------------------------------------------------------------------------------------------------------------

known() {
	local n
	for n in "${NAMES[@]}"; do [[ $n == "$1" ]] && return 0; done
	die "unknown kernel '$1' (have: ${NAMES[*]})"
}

# prepare NAME: under a lock, so two runs do not unpack the same kernel at once.
prepare() {
	local name=$1 fd
	known "$name"
	mkdir -p "$CACHE"
	exec {fd}>>"$CACHE/.lock"
	flock "$fd"
	"prepare_$name"
	exec {fd}>&-
}

# Prepared already (and still valid): say nothing; otherwise prepare it.
ensure() {
	known "$1"
	env_valid "$1" || prepare "$1"
}

# module NAME [MAKE-ARGS]: stackmap.ko for NAME in build/kmod-NAME/kmod, the same layout as kmod/ beside
# include/ (the sources include ../include/stackmap/*.h), so every kernel's .ko coexists with kmod/'s own.
# KMOD_VARIANT=V builds in build/kmod-NAME-V instead (a test build with other MAKE-ARGS beside the real one).
module() {
	local name=$1 kdir out
	shift
	ensure "$name"
	kdir=$(get "$name" KDIR)
	out=$ROOT/build/kmod-$name${KMOD_VARIANT:+-$KMOD_VARIANT}
	mkdir -p "$out/kmod" "$out/include/stackmap"
	# -p keeps the sources' times, so an unchanged tree is not rebuilt.
	cp -p "$ROOT"/kmod/Kbuild "$ROOT"/kmod/*.[ch] "$out/kmod/"
	rm -f "$out/kmod/stackmap.mod.c"
	cp -p "$ROOT"/include/stackmap/*.h "$out/include/stackmap/"
	log "building stackmap.ko for $name ($(get "$name" KVER)) in $out/kmod"
	if BUILD_ROOT=$(get "$name" BUILD_ROOT); then
		# Headers installed in a build root: make runs there, where KDIR is the path below the root.
		in_root make -C "${kdir#"$BUILD_ROOT"}" M="$out/kmod" "$@" modules >&2 || die "$name: module build in $BUILD_ROOT failed"
	else
		make -C "$kdir" M="$out/kmod" "$@" modules >&2 || die "$name: module build failed"
	fi
	echo "$out/kmod/stackmap.ko"
}

main() {
	local cmd name fd
	if [[ ${1:-} == --update ]]; then UPDATE=1; shift; fi
	cmd=${1:-}
	(($#)) && shift
	case $cmd in
	prepare)
		(($#)) || die "prepare needs a NAME (${NAMES[*]})"
		for name in "$@"; do prepare "$name"; done ;;
	kver | kdir | config)
		ensure "${1:?NAME}"
		get "$1" "${cmd^^}" ;;
	apt-config)
		# The APT_CONFIG file of an arm64 kernel's apt state (its lists fetched again when a week old), under the
		# lock prepare takes; nothing for a kernel the host's apt (or its build root's) serves. The kernel
		# itself is not prepared: its -dbg package needs only the lists.
		known "${1:?NAME}"
		if [[ -n ${ARM64_SUITE[$1]:-} ]]; then
			exec {fd}>>"$CACHE/.lock"
			flock "$fd"
			arm64_apt "${ARM64_SUITE[$1]}"
			exec {fd}>&-
			echo "$APT_CONF"
		fi ;;
	build-root)
		ensure "${1:?NAME}"
		get "$1" BUILD_ROOT || true ;;
	vm-args)
		ensure "${1:?NAME}"
		get "$1" VM_ARGS | tr ' ' '\n' ;;
	module)
		module "${1:?NAME}" "${@:2}" ;;
	names)
		printf '%s\n' "${NAMES[@]}" ;;
	arm64-sysroot)
		arm64_sysroot ;;
	*)
		sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
		exit 2 ;;
	esac
}

main "$@"
