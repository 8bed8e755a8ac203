#!/bin/bash
# `make install` / `make uninstall` into a DESTDIR: the exact file list, a
# DKMS build of the installed module source against the installed kernel
# headers (in private DKMS trees, the system's untouched), and nothing left
# after uninstall.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
KVER=${KVER:-$(find /boot -maxdepth 1 -name 'vmlinuz-*' | sed 's|/boot/vmlinuz-||' | sort -V | tail -n1)}
VERSION=$(sed -n 's/^#define STACKMAP_VERSION\t*"\(.*\)"/\1/p' "$ROOT/include/stackmap/version.h")
PLUGINDIR=$(pkg-config --variable=libdir libtraceevent)/traceevent/plugins
DEST=$(mktemp -d)
trap 'rm -rf "$DEST"' EXIT

fail() {
	echo "test_install: $1 failed: $2" >&2
	exit 1
}

expected_files() {
	local k
	echo "usr/bin/fgdecode"
	echo "${PLUGINDIR#/}/plugin_stackmap.so"
	echo "usr/share/man/man1/fgdecode.1"
	echo "usr/share/man/man7/stackmap.7"
	echo "usr/libexec/stackmap/trace-cmd"
	echo "usr/libexec/stackmap/stackmap-snapshot"
	echo "usr/share/man/man1/stackmap-record.1"
	echo "usr/share/man/man7/plugin_stackmap.7"
	echo "usr/src/stackmap-$VERSION/dkms.conf"
	for k in Kbuild Makefile "$ROOT"/kmod/*.[ch]; do
		[[ $k == *.mod.c ]] || echo "usr/src/stackmap-$VERSION/kmod/$(basename "$k")"
	done
	for k in "$ROOT"/include/stackmap/*.h; do
		echo "usr/src/stackmap-$VERSION/include/stackmap/$(basename "$k")"
	done
}

check_file_list() {
	diff <(expected_files | sort) <(cd "$DEST" && find . -type f | sed 's|^\./||' | sort) ||
		fail "install" "installed files differ from the expected list (< expected, > installed)"
	echo "test_install: install: $(expected_files | wc -l) files where expected"
}

check_dkms_build() {
	local trees=$DEST/dkms ko
	mkdir -p "$trees/var" "$trees/install"
	if ! dkms add -m stackmap -v "$VERSION" --sourcetree "$DEST/usr/src" --dkmstree "$trees/var" \
		>"$trees/log" 2>&1 ||
		! dkms build -m stackmap -v "$VERSION" -k "$KVER" --sourcetree "$DEST/usr/src" \
			--dkmstree "$trees/var" >>"$trees/log" 2>&1; then
		cat "$trees/log" >&2
		fail "dkms build" "see the log above"
	fi
	ko=$(find "$trees/var" -name 'stackmap.ko*' | head -n1)
	[[ -n $ko ]] || fail "dkms build" "no stackmap.ko built"
	[[ $(modinfo -F vermagic "$ko") == "$KVER "* ]] || fail "dkms build" "vermagic is not $KVER"
	[[ $(modinfo -F version "$ko") == "$VERSION" ]] || fail "dkms build" "version is not $VERSION"
	rm -rf "$trees"
	echo "test_install: dkms: built stackmap.ko $VERSION for $KVER from the installed source"
}

check_uninstall() {
	make -s -C "$ROOT" uninstall DESTDIR="$DEST" PREFIX=/usr >/dev/null
	local left
	left=$(cd "$DEST" && find . -type f | head -n5)
	[[ -z $left ]] || fail "uninstall" "files left: $left"
	echo "test_install: uninstall: no file left"
}

command -v dkms >/dev/null || fail "setup" "dkms is not installed (tests/install-deps.sh)"
make -s -C "$ROOT" install DESTDIR="$DEST" PREFIX=/usr >/dev/null
check_file_list
check_dkms_build
check_uninstall
echo "test_install: ok"
