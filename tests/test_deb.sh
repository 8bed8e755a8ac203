#!/bin/bash
# The Debian packages (debian/, #26) built and installed as on fresh machines, per SUITE (bookworm, trixie):
#   1. build: a copy of SUITE's fresh root (tests/roots.sh fresh), a clean clone of HEAD in it, `make deb` as
#      root there (installs the build dependencies, dpkg-buildpackage, lintian with no error or warning)
#   2. install: another copy of the fresh root, with the kernel headers of the guest kernel below (and
#      SUITE-backports for trixie's): what our packages depend on installed first, the file list taken, then
#      `apt install ./*.deb`; tests/deb/in_root.sh checks DKMS's build of stackmap.ko, the versions, the plugin
#      with trace-cmd report, the front end and the real trace-cmd behind it, the man pages
#   3. the guest: tests/vm/test_e2e.sh with the module DKMS built (not the tree's) and the packaged fgdecode and
#      plugin, on bookworm's 6.1 and on the newest trixie kernel (tests/kernels.sh newest)
#   4. purge: apt remove stackmap restores trace-cmd; apt purge leaves the file list as it was before install
# Usage: tests/test_deb.sh [SUITE...]   (default: bookworm trixie; run by `make check-deb`). Needs root.
# Roots, logs and the packages are in $WORK/SUITE-* (KEEP=1 keeps the roots); about 6-10 minutes per suite with
# warm caches.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${STACKMAP_ROOTS:-/var/cache/stackmap/roots}
PROG=test_deb
# The kernel of tests/kernels.sh each suite's packages are tested on in the guest.
declare -A GUEST_KERNEL=([bookworm]=6.1 [trixie]=newest)
ROOT_BINDS=()
HOST_SUITE=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
# shellcheck source=tests/root_lib.sh
. "$ROOT/tests/root_lib.sh"
# WORK, REV, VERSION, TRACE, deb_frames, deb_install, deb_purge
# shellcheck source=tests/deb/deb_lib.sh
. "$ROOT/tests/deb/deb_lib.sh"
# ko_unpack
# shellcheck source=tests/vm/kernel.sh
. "$ROOT/tests/vm/kernel.sh"

fail() {
	echo "test_deb: $1: FAIL: $2" >&2
	exit 1
}

# build SUITE: the packages made by `make deb` in a fresh root, copied to $WORK/SUITE-debs.
build() {
	local suite=$1 dir=$WORK/$1-build log=$WORK/$1.log
	root_copy "$suite" "$dir"
	root_clone "$suite" "$dir" "$REV"
	# Without the KernelShark plugin, whose Qt build dependencies would add minutes to every fresh root (the
	# opt-in kshark suite tests it).
	root_step "$suite" "$dir" "$log" deb bash -c 'cd /root/stackmap && DEB_BUILD_PROFILES=pkg.stackmap.nokshark make deb'
	rm -rf "$WORK/$suite-debs"
	mkdir -p "$WORK/$suite-debs"
	cp "$dir"/root/stackmap/build/deb/*.deb "$dir/root/stackmap/build/deb/lintian.txt" "$WORK/$suite-debs/"
	echo "$PROG: $suite: packages: $(cd "$WORK/$suite-debs" && ls -- *.deb | paste -sd' ')"
	((${KEEP:-0})) || rm -rf "$dir"
}

# backports DIR SUITE: SUITE-backports in DIR's sources (where trixie's newest kernels come from).
backports() {
	sed -n "s/^deb \([^ ]*\) $2 main\$/deb \1 $2-backports main/p" "$1/etc/apt/sources.list" >"$1/etc/apt/sources.list.d/backports.list"
	[[ -s $1/etc/apt/sources.list.d/backports.list ]] || fail "$2" "no $2 line in $1/etc/apt/sources.list"
}

# first_missing DIR PATH: the outermost directory of DIR/PATH that does not exist yet ("" if it all does).
first_missing() {
	local p=$2 made=""
	while [[ $p != / && ! -e $1$p ]]; do
		made=$1$p
		p=$(dirname "$p")
	done
	echo "$made"
}

# guest SUITE DIR KNAME KVER: test_e2e on KNAME with DIR's DKMS-built module and packaged fgdecode and plugin.
guest() {
	local suite=$1 dir=$2 kname=$3 kver=$4 ko out=$ROOT/build/deb-e2e-$1 report=1 made start=$SECONDS
	ko=$("$ROOT/tests/roots.sh" run "$dir" -- /root/in_root.sh module "$kver") || fail "$suite" "no DKMS module for $kver"
	mkdir -p "$WORK/$suite-debs"
	ko_unpack "$dir$ko" "$WORK/$suite-debs/stackmap.ko" || fail "$suite" "DKMS's module $ko is not a .ko, .ko.xz, .ko.zst or .ko.gz"
	# The packaged fgdecode runs in the root (its libraries are the suite's), on the guest's files bound there.
	# The bind point's directories that the root lacks now are the test's, removed after (not /tmp: a tree
	# under /tmp, as CI's clone is, must leave the root's /tmp alone).
	made=$(first_missing "$dir" "$ROOT/build")
	cat >"$WORK/$suite-debs/fgdecode" <<-WRAP
		#!/bin/sh
		exec "$ROOT/tests/roots.sh" run "$dir" --bind "$ROOT/build" -- /usr/bin/fgdecode "\$@"
	WRAP
	chmod +x "$WORK/$suite-debs/fgdecode"
	# The host's trace-cmd loads the packaged plugin when both are of the host's suite; another suite's plugin
	# is checked by that suite's trace-cmd in the root.
	[[ $suite == "$HOST_SUITE" ]] || report=0
	echo "$PROG: $suite: guest: test_e2e on $kname ($kver) with DKMS's $ko and the packaged fgdecode and plugin"
	STACKMAP_KERNEL=$kname STACKMAP_KO=$WORK/$suite-debs/stackmap.ko FGDECODE=$WORK/$suite-debs/fgdecode \
		PLUGIN_DIR=$(echo "$dir"/usr/lib/*/traceevent/plugins) OUT=$out STACKMAP_CHECK_REPORT=$report \
		"$ROOT/tests/vm/test_e2e.sh" >"$WORK/$suite.log.e2e" 2>&1 || {
		tail -n 20 "$WORK/$suite.log.e2e"
		fail "$suite" "test_e2e with the packages failed (log: $WORK/$suite.log.e2e)"
	}
	grep '^test_e2e: ' "$WORK/$suite.log.e2e" | tail -n 4
	if ((!report)); then
		ROOT_BINDS=("$ROOT/build")
		root_step "$suite" "$dir" "$WORK/$suite.log" report /root/in_root.sh report "$out-$kname/trace.dat"
		ROOT_BINDS=()
	fi
	[[ -z $made ]] || find "$made" -depth -type d -empty -delete
	echo "$PROG: $suite: guest passed in $((SECONDS - start)) s"
}

# install SUITE: install, check, run the guest, purge, compare the file lists.
install() {
	local suite=$1 dir=$WORK/$1-install log=$WORK/$1.log kname kver frames
	kname=${GUEST_KERNEL[$suite]:-} || true
	[[ -n $kname ]] || fail "$suite" "no guest kernel for suite $suite (GUEST_KERNEL)"
	kver=$("$ROOT/tests/kernels.sh" kver "$kname") || fail "$suite" "tests/kernels.sh kver $kname failed"
	frames=$(deb_frames "$suite") || exit 1
	root_copy "$suite" "$dir"
	[[ $kname != newest ]] || backports "$dir" "$suite"
	deb_install "$suite" "$dir" "$log" "$kver" "$frames" "$suite"
	guest "$suite" "$dir" "$kname" "$kver"
	deb_purge "$suite" "$dir" "$log" "$suite" "$suite: purge"
	((${KEEP:-0})) || rm -rf "$dir"
}

one_suite() {
	local suite=$1 start=$SECONDS
	mkdir -p "$WORK"
	rm -f "$WORK/$suite.log".*
	build "$suite"
	install "$suite"
	echo "$PROG: $suite: PASS in $((SECONDS - start)) s"
}

main() {
	local suite suites=("$@")
	((EUID == 0)) || fail all "needs root (debootstrap, chroot)"
	((${#suites[@]})) || suites=(bookworm trixie)
	for suite in "${suites[@]}"; do one_suite "$suite"; done
	echo "${#suites[@]} passed, 0 failed"
}

main "$@"
