#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kshark suite (tests/kshark/test_kshark.sh) on another Debian release's KernelShark: trixie's 2.4.0 (Qt 6)
# where the host has bookworm's 2.2.1 (Qt 5). In a copy of SUITE's fresh root (tests/roots.sh fresh) with a
# clean clone of HEAD:
#   1. deps: what fgdecode's build needs (test_kshark.sh installs KernelShark, libkshark-dev, the Qt -dev
#      package KernelShark's widgets use, Xvfb, xdotool and imagemagick itself, as on any machine)
#   2. build: fgdecode; test_kshark.sh builds the plugin and kss-dump against the root's libkshark-dev
#   3. kshark: test_kshark.sh in the root: kss-dump's stacks against fgdecode's on the fixtures and on each
#      TRACE given, then the root's KernelShark under the root's Xvfb, a click on two events per fixture, the
#      panel's text against fgdecode, a screenshot each (copied to build/kshark-SUITE/ here)
# Usage: tests/kshark/test_kshark_root.sh [SUITE [TRACE...]]   (default trixie). Needs root. Suite kshark-trixie
# (opt-in); 80 s with apt's downloads cached in $STACKMAP_ROOTS/apt-SUITE.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${STACKMAP_ROOTS:-/var/cache/stackmap/roots}
WORK=${WORK:-/var/tmp/stackmap-kshark}
REV=${KSHARK_REV:-HEAD}
PROG=test_kshark_root
PACKAGES="build-essential pkg-config gawk libtracecmd-dev libtraceevent-dev libtracefs-dev libdw-dev libelf-dev
	libprotobuf-c-dev protobuf-c-compiler zlib1g-dev libzstd-dev"
ROOT_BINDS=()
# shellcheck source=tests/root_lib.sh
. "$ROOT/tests/root_lib.sh"

fail() {
	echo "$PROG: $1: FAIL: $2" >&2
	exit 1
}

main() {
	local suite=${1:-trixie} dir log out start=$SECONDS t traces=()
	(($#)) && shift
	((EUID == 0)) || fail "$suite" "needs root (debootstrap, chroot)"
	for t in "$@"; do
		if [[ -r $t ]]; then
			t=$(realpath "$t")
			traces+=("$t")
			ROOT_BINDS+=("$(dirname "$t")")
		else
			echo "$PROG: skip: $t (not there)"
		fi
	done
	dir=$WORK/$suite log=$WORK/$suite.log out=$ROOT/build/kshark-$suite
	mkdir -p "$WORK"
	rm -f "$log".*
	root_copy "$suite" "$dir"
	root_clone "$suite" "$dir" "$REV"
	echo "$PROG: $suite: clean clone of $(git -C "$ROOT" rev-parse --short "$REV") in $dir/root/stackmap"
	# shellcheck disable=SC2086 # one word per package
	root_step "$suite" "$dir" "$log" deps bash -c "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $(echo $PACKAGES)"
	root_step "$suite" "$dir" "$log" build bash -c 'cd /root/stackmap && make decoder'
	root_step "$suite" "$dir" "$log" kshark bash -c 'cd /root/stackmap && tests/kshark/test_kshark.sh "$@" &&
		dpkg-query -W -f "\${Package} \${Version}\n" kernelshark libkshark-dev &&
		echo "plugin built with $(make -s -C kshark print-qt)"' sh "${traces[@]}"
	rm -rf "$out"
	mkdir -p "$out"
	cp "$dir"/root/stackmap/build/kshark/*.png "$out/" 2>/dev/null
	echo "$PROG: $suite: screenshots in $out: $(cd "$out" && ls -- *.png 2>/dev/null | paste -sd' ')"
	((${KEEP:-0})) || rm -rf "$dir"
	echo "$PROG: $suite: PASS in $((SECONDS - start)) s"
}

main "$@"
