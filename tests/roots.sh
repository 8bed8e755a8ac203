#!/bin/bash
# Debian roots made with debootstrap, cached outside the clone, and a way to run a command inside one:
#   tests/roots.sh fresh SUITE           a minbase root of SUITE (bookworm, trixie) plus make: what a new user
#                                        has before typing the README's first command. Kept as made (never
#                                        entered); print its path. SUITE-arm64 (bookworm-arm64): the same for
#                                        arm64, run under qemu-user (below)
#   tests/roots.sh build SUITE           a root of SUITE with what kbuild needs (gcc, make, bc, bison, flex,
#                                        libelf, pahole, kmod) and SUITE-backports in its sources: where the module
#                                        is built for kernels a bookworm host cannot build for (7.x wants gcc-14
#                                        and glibc 2.38); print its path
#   tests/roots.sh qemu SUITE            a minbase root of SUITE with qemu-system-x86: trixie's QEMU 10, which
#                                        tests/vm/run-vm.sh --qemu-root runs (multi-threaded TCG); print its path
#   tests/roots.sh peers SUITE           a minbase root of SUITE with the tools a kernel engineer would record
#                                        stacks with instead (linux-perf, bpftrace) and trace-cmd: the guest's
#                                        userland of tests/bench/run.sh's peers part (run-vm.sh --userland
#                                        --program); trixie's linux-perf from trixie-backports, the newest
#                                        kernel's; print its path
#   tests/roots.sh run DIR [--bind PATH]... -- COMMAND...
#                                        run COMMAND as root inside DIR with /proc, /sys and /dev mounted, and
#                                        each PATH bound at the same path, in a private mount namespace (nothing
#                                        stays mounted after it, whatever happens)
#
# An arm64 root on another machine (SUITE-arm64) is made with `debootstrap --foreign --arch=arm64` and finished
# by its second stage inside it; everything in it runs under qemu-user (qemu-aarch64-static, from
# qemu-user-static), through a binfmt_misc entry that `run` registers in its own mount namespace when the kernel
# has none: the conf qemu-user-static ships for systemd-binfmt (/usr/lib/binfmt.d/qemu-aarch64.conf), whose F
# flag opens the interpreter at registration, so the root needs no copy of it. On recent kernels (seen on 6.18)
# an entry goes with the last mount of binfmt_misc, so a host with none mounted keeps nothing after `run`; older
# kernels keep it until reboot, as systemd-binfmt would have registered it at boot.
#
# Roots live in $STACKMAP_ROOTS (default /var/cache/stackmap/roots) as SUITE-KIND-DATE (KIND fresh, build, qemu),
# DATE being the day their package lists were fetched (YYYYMMDD, UTC); one younger than MAX_AGE_DAYS (default
# 7) is reused, an older one replaced. The mirrors are the host's own (the URIs apt-cache policy shows for
# bookworm/main and bookworm-security/main), so the roots come from where the host's packages come from;
# trixie's packages are signed by the same archive keyring. Needs root and debootstrap (tests/install-deps.sh
# installs it); an arm64 root, qemu-user-static too.
set -euo pipefail

PROG=roots
CACHE=${STACKMAP_ROOTS:-/var/cache/stackmap/roots}
MAX_AGE_DAYS=${MAX_AGE_DAYS:-7}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
BUILD_PACKAGES=build-essential,bc,bison,flex,libelf-dev,libssl-dev,dwarves,kmod,xz-utils,zstd,cpio,ca-certificates

log() { echo "$PROG: $*" >&2; }
die() { log "$*"; exit 1; }

# mirror SUITE: the URI the host's apt serves SUITE/main from (bookworm, bookworm-security).
mirror() {
	local uri
	uri=$(apt-cache policy 2>/dev/null | awk -v s="$1/main" '$3 == s && $2 ~ /^https?:\/\// { print $2; exit }')
	[[ -n $uri ]] || die "no $1/main source in the host's apt configuration (apt-cache policy); run apt-get update"
	echo "$uri"
}

# newest KIND SUITE: the newest cached root of that kind and suite younger than MAX_AGE_DAYS, if any.
newest() {
	local dir
	dir=$(find "$CACHE" -maxdepth 1 -type d -name "$2-$1-*" -mtime "-$MAX_AGE_DAYS" 2>/dev/null | sort | tail -n 1)
	[[ -n $dir && -e $dir/.stackmap-root-done ]] && echo "$dir"
}

# sources SUITE [backports]: the root's sources.list, as an installed Debian has it: the release, its updates
# and its security suite (the kernel packages a user gets come from there), from the host's mirrors.
sources() {
	local m sec
	m=$(mirror bookworm) || return 1
	echo "deb $m $1 main"
	echo "deb $m $1-updates main"
	# A host without the security suite in its sources gives its root none either.
	if sec=$(mirror bookworm-security 2>/dev/null); then
		echo "deb $sec $1-security main"
	fi
	[[ ${2:-} != backports ]] || echo "deb $m $1-backports main"
}

# make_root KIND SUITE INCLUDE [backports]: debootstrap a minbase root, then write its sources.list. SUITE-arm64:
# the first stage for arm64 here, the second inside the root under qemu-user (`run`).
make_root() {
	local kind=$1 suite=$2 include=$3 release=${2%-arm64} m dir tmp start=$SECONDS foreign=()
	command -v debootstrap >/dev/null || die "debootstrap is missing (tests/install-deps.sh installs it)"
	((EUID == 0)) || die "making a root needs root"
	[[ $suite == "$release" ]] || foreign=(--foreign --arch=arm64)
	m=$(mirror bookworm)
	dir=$CACHE/$suite-$kind-$(date -u +%Y%m%d)
	tmp=$dir.tmp
	mkdir -p "$CACHE"
	rm -rf "$tmp"
	log "debootstrap --variant=minbase ${foreign[*]} --include=$include $release (about 2-6 minutes${foreign:+; then its second stage under qemu-user})"
	debootstrap --variant=minbase "${foreign[@]}" --keyring="$KEYRING" --include="$include" "$release" "$tmp" "$m" \
		>"$tmp.log" 2>&1 || { tail -n 20 "$tmp.log" >&2; die "debootstrap of $suite failed (log: $tmp.log)"; }
	if ((${#foreign[@]})); then
		echo arm64 >"$tmp/.stackmap-arch"
		run "$tmp" -- /debootstrap/debootstrap --second-stage >>"$tmp.log" 2>&1 ||
			{ tail -n 20 "$tmp.log" >&2; die "the second stage of $suite's debootstrap failed (log: $tmp.log)"; }
	fi
	sources "$release" "${4:-}" >"$tmp/etc/apt/sources.list" || die "no mirror for $suite's sources.list"
	# A root that builds gets its package lists now (kernels.sh looks kernels up in them); a fresh one is left
	# as debootstrap made it, for the README's commands to update.
	if [[ $kind == build || $kind == peers ]]; then
		run "$tmp" -- apt-get update -q >"$tmp.log" 2>&1 ||
			{ tail -n 20 "$tmp.log" >&2; die "apt-get update in the $suite root failed"; }
	fi
	[[ $kind != peers ]] || install_peers "$tmp" "$release"
	rm -rf "$dir"
	touch "$tmp/.stackmap-root-done"
	mv "$tmp" "$dir"
	rm -f "$tmp.log"
	# Older roots of the same kind and suite are replaced by this one.
	find "$CACHE" -maxdepth 1 -type d -name "$suite-$kind-*" ! -path "$dir" -exec rm -rf {} +
	log "$suite $kind root made in $((SECONDS - start)) s: $dir"
	echo "$dir"
}

# install_peers DIR SUITE: linux-perf, bpftrace and trace-cmd in the root DIR, from its suite and security updates
# (bookworm: perf 6.1, the 6.1 kernel's); trixie's perf from trixie-backports (the newest kernel's). The .debs are
# kept in CACHE/apt-SUITE, as tests/root_lib.sh keeps those of the roots it copies.
install_peers() {
	local dir=$1 suite=$2 perf=linux-perf
	[[ $suite != trixie ]] || perf=linux-perf/trixie-backports
	mkdir -p "$CACHE/apt-$suite"
	run "$dir" --bind "$CACHE/apt-$suite" -- env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends -o "Dir::Cache::archives=$CACHE/apt-$suite" "$perf" bpftrace trace-cmd \
		>>"$dir.log" 2>&1 || { tail -n 20 "$dir.log" >&2; die "installing linux-perf and bpftrace in the $suite root failed"; }
}

# binfmt_conf DIR: for a root of another architecture (its .stackmap-arch, written by make_root), the binfmt_misc
# line of qemu-user-static that runs its programs; nothing for a root of the host's architecture.
binfmt_conf() {
	local arch conf
	[[ -f $1/.stackmap-arch ]] || return 0
	arch=$(<"$1/.stackmap-arch")
	[[ $arch != "$(dpkg --print-architecture)" ]] || return 0
	[[ $arch == arm64 ]] || die "run: $1 is a root for $arch: only arm64 roots run under qemu-user here"
	conf=/usr/lib/binfmt.d/qemu-aarch64.conf
	[[ -r $conf ]] || die "run: $1 is an arm64 root and $conf is missing: apt-get install qemu-user-static"
	echo "$conf"
}

# run DIR [--bind PATH]... -- COMMAND...: see the header. The namespace's mounts vanish with its last process.
# From the command line (RUN_EXEC=(exec)) each step execs the next, so COMMAND keeps this script's PID and a
# signal to it (run-vm.sh's timeout around qemu) reaches COMMAND; make_root's own calls return.
RUN_EXEC=()
run() {
	local dir=$1 binds=() p conf
	shift
	while (($#)) && [[ $1 != -- ]]; do
		[[ $1 == --bind ]] || die "run: expected --bind PATH or --, got '$1'"
		binds+=("$(realpath "${2:?--bind needs a PATH}")")
		shift 2
	done
	[[ ${1:-} == -- ]] || die "run: no -- before the command"
	shift
	[[ -x $dir/bin/sh ]] || die "run: $dir is not a root"
	conf=$(binfmt_conf "$dir")
	cp -L /etc/resolv.conf "$dir/etc/resolv.conf"
	# shellcheck disable=SC2016 # expanded by the inner shell
	"${RUN_EXEC[@]}" unshare --mount --propagation private bash -euc '
		dir=$1 conf=$2; shift 2
		if [[ -n $conf ]]; then
			# The entry of that conf (its name is the first field), registered unless there (or another run
			# registers it meanwhile); it must open its interpreter now (F), the root has none.
			b=/proc/sys/fs/binfmt_misc name=$(cut -d: -f2 "$conf")
			[[ -e $b/register ]] || mount -t binfmt_misc binfmt_misc "$b"
			[[ -e $b/$name ]] || cat "$conf" >"$b/register" 2>/dev/null || [[ -e $b/$name ]] ||
				{ echo "roots: run: registering $conf in binfmt_misc failed" >&2; exit 1; }
			grep -qx enabled "$b/$name" && grep -q "^flags: .*F" "$b/$name" ||
				{ echo "roots: run: binfmt_misc has $name disabled or without the F flag: $(paste -sd" " "$b/$name")" >&2; exit 1; }
		fi
		mount -t proc proc "$dir/proc"
		mount --rbind /sys "$dir/sys"
		mount --rbind /dev "$dir/dev"
		while [[ $1 != -- ]]; do
			mkdir -p "$dir$1"
			mount --bind "$1" "$dir$1"
			shift
		done
		shift
		exec chroot "$dir" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
	' run "$dir" "$conf" "${binds[@]}" -- "$@"
}

main() {
	local cmd=${1:-} suite dir
	(($#)) && shift
	case $cmd in
	fresh | build | qemu | peers)
		suite=${1:?SUITE (bookworm, trixie)}
		[[ $cmd == fresh || $suite != *-arm64 ]] || die "$cmd: no arm64 root of that kind (only fresh SUITE-arm64)"
		mkdir -p "$CACHE"
		exec {fd}>>"$CACHE/.lock"
		flock "$fd"
		if dir=$(newest "$cmd" "$suite"); then
			log "$suite $cmd root: $dir (cached; made $(date -u -r "$dir/.stackmap-root-done" +%F))"
			echo "$dir"
		elif [[ $cmd == fresh ]]; then
			make_root fresh "$suite" make
		elif [[ $cmd == qemu ]]; then
			make_root qemu "$suite" qemu-system-x86
		elif [[ $cmd == peers ]]; then
			make_root peers "$suite" ca-certificates backports
		else
			make_root build "$suite" "$BUILD_PACKAGES" backports
		fi ;;
	run)
		RUN_EXEC=(exec)
		run "$@" ;;
	*)
		sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
		exit 2 ;;
	esac
}

main "$@"
