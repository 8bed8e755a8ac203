#!/bin/bash
# `make install` / `make uninstall` into a DESTDIR (default PREFIX,
# /usr/local): the exact file list, `make install-decoder`'s (what a machine
# that only reads traces needs), the front end installed as trace-cmd
# ahead of the real one on Debian's root PATH (and handing everything else
# to it unchanged), a DKMS build of the installed module source against the
# installed kernel headers (in private DKMS trees, the system's untouched),
# nothing left after uninstall; and that neither ever replaces or removes a
# trace-cmd that is not the front end (PREFIX=/usr over a real
# /usr/bin/trace-cmd).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
KVER=${KVER:-$(find /boot -maxdepth 1 -name 'vmlinuz-*' | sed 's|/boot/vmlinuz-||' | sort -V | tail -n1)}
VERSION=$(sed -n 's/^#define STACKMAP_VERSION\t*"\(.*\)"/\1/p' "$ROOT/include/stackmap/version.h")
PLUGINDIR=$(pkg-config --variable=libdir libtraceevent)/traceevent/plugins
DEST=$(mktemp -d)
OTHER=$(mktemp -d)
trap 'rm -rf "$DEST" "$OTHER"' EXIT
# Debian's root PATH, each directory under DEST first, then the system's.
ROOT_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

fail() {
	echo "test_install: $1 failed: $2" >&2
	exit 1
}

# The KernelShark plugin, where libkshark-dev is installed (the top Makefile's KSHARK).
kshark_file() {
	local pc
	pc=$(pkg-config --variable=pcfiledir libtraceevent)/libkshark.pc
	[[ ! -e $pc ]] || echo "${PLUGINDIR%/traceevent/plugins}/kernelshark/plugins/plugin-stackmap.so" | sed 's|^/||'
}

expected_files() {
	local k
	echo "usr/local/bin/fgdecode"
	kshark_file
	echo "${PLUGINDIR#/}/plugin_stackmap.so"
	echo "usr/local/share/man/man1/fgdecode.1"
	echo "usr/local/share/man/man7/stackmap.7"
	echo "usr/local/bin/trace-cmd"
	echo "usr/local/bin/stackmap-snapshot"
	echo "usr/local/share/man/man1/stackmap-record.1"
	echo "usr/local/share/man/man7/plugin_stackmap.7"
	echo "usr/src/stackmap-$VERSION/dkms.conf"
	for k in Kbuild Makefile kver.mk "$ROOT"/kmod/*.[ch]; do
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

# make install-decoder: fgdecode, the plugin and their man pages, nothing else; uninstall removes them.
check_install_decoder() {
	local dest
	dest=$(mktemp -d)
	make -s -C "$ROOT" install-decoder DESTDIR="$dest" >/dev/null
	diff <(printf '%s\n' usr/local/bin/fgdecode "${PLUGINDIR#/}/plugin_stackmap.so" \
		usr/local/share/man/man1/fgdecode.1 usr/local/share/man/man7/plugin_stackmap.7 $(kshark_file) | sort) \
		<(cd "$dest" && find . -type f | sed 's|^\./||' | sort) ||
		fail "install-decoder" "installed files differ from the expected list (< expected, > installed)"
	make -s -C "$ROOT" uninstall DESTDIR="$dest" >/dev/null
	[[ -z $(cd "$dest" && find . -type f) ]] || fail "install-decoder" "files left after uninstall"
	rm -rf "$dest"
	echo "test_install: install-decoder: fgdecode, the plugin and their 2 man pages, removed by uninstall"
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

# The installed front end is what `trace-cmd` runs on root's PATH, and it
# hands other commands to the real /usr/bin/trace-cmd: same output, same
# exit code.
check_front_end_on_path() {
	local path="" d cmd rc
	for d in ${ROOT_PATH//:/ }; do path+="$DEST$d:"; done
	path+=$ROOT_PATH
	cmp -s "$ROOT/record/trace-cmd" "$DEST/usr/local/bin/trace-cmd" || fail "front end" "installed trace-cmd is not record/trace-cmd"
	[[ $(PATH=$path command -v trace-cmd) == "$DEST/usr/local/bin/trace-cmd" ]] ||
		fail "front end" "trace-cmd on root's PATH is $(PATH=$path command -v trace-cmd)"
	for cmd in "list -O" "list -o" "no-such-command"; do
		rc=0
		# shellcheck disable=SC2086
		(cd "$DEST" && PATH=$path timeout 20 trace-cmd $cmd) >"$DEST/fe.out" 2>&1 || rc=$?
		echo "exit $rc" >>"$DEST/fe.out"
		rc=0
		# shellcheck disable=SC2086
		(cd "$DEST" && /usr/bin/trace-cmd $cmd) >"$DEST/real.out" 2>&1 || rc=$?
		echo "exit $rc" >>"$DEST/real.out"
		cmp -s "$DEST/fe.out" "$DEST/real.out" || fail "front end" "trace-cmd $cmd differs from /usr/bin/trace-cmd's"
	done
	rm -f "$DEST/fe.out" "$DEST/real.out"
	echo "test_install: front end: trace-cmd on root's PATH is PREFIX/bin/trace-cmd, other commands reach /usr/bin/trace-cmd unchanged"
}

check_uninstall() {
	# A front end left by an older make install, in PREFIX/libexec/stackmap.
	mkdir -p "$DEST/usr/local/libexec/stackmap"
	cp "$ROOT/record/trace-cmd" "$ROOT/record/stackmap-snapshot" "$DEST/usr/local/libexec/stackmap/"
	make -s -C "$ROOT" uninstall DESTDIR="$DEST" >/dev/null
	local left
	left=$(cd "$DEST" && find . -type f | head -n5)
	[[ -z $left ]] || fail "uninstall" "files left: $left"
	[[ ! -e $DEST/usr/local/libexec/stackmap ]] || fail "uninstall" "old front end directory left"
	echo "test_install: uninstall: no file left (nor the old PREFIX/libexec/stackmap front end)"
}

# PREFIX=/usr over a real trace-cmd in /usr/bin: install refuses before
# touching it, uninstall leaves it; an installed front end is replaced.
check_real_trace_cmd_kept() {
	local left
	mkdir -p "$OTHER/usr/bin"
	printf '#!/bin/sh\necho real trace-cmd\n' >"$OTHER/usr/bin/trace-cmd"
	chmod 755 "$OTHER/usr/bin/trace-cmd"
	cp "$OTHER/usr/bin/trace-cmd" "$OTHER/real"
	if make -s -C "$ROOT" install DESTDIR="$OTHER" PREFIX=/usr >/dev/null 2>"$OTHER/err"; then
		fail "PREFIX=/usr" "make install replaced a real trace-cmd"
	fi
	# Everything or nothing: refused before a single file is installed.
	left=$(cd "$OTHER" && find . -type f ! -name real ! -name err ! -path ./usr/bin/trace-cmd | head -n3)
	[[ -z $left ]] || fail "PREFIX=/usr" "a refused make install left files: $left"
	grep -q 'is not the stackmap front end' "$OTHER/err" || fail "PREFIX=/usr" "message: $(cat "$OTHER/err")"
	cmp -s "$OTHER/real" "$OTHER/usr/bin/trace-cmd" || fail "PREFIX=/usr" "the real trace-cmd was changed"
	make -s -C "$ROOT" uninstall DESTDIR="$OTHER" PREFIX=/usr >/dev/null
	cmp -s "$OTHER/real" "$OTHER/usr/bin/trace-cmd" || fail "PREFIX=/usr" "uninstall removed the real trace-cmd"
	rm -rf "${OTHER:?}/usr"
	make -s -C "$ROOT" install DESTDIR="$OTHER" PREFIX=/usr >/dev/null
	make -s -C "$ROOT" install DESTDIR="$OTHER" PREFIX=/usr >/dev/null || fail "reinstall" "make install over an installed front end failed"
	make -s -C "$ROOT" uninstall DESTDIR="$OTHER" PREFIX=/usr >/dev/null
	[[ ! -e $OTHER/usr/bin/trace-cmd ]] || fail "reinstall" "front end left after uninstall"
	echo "test_install: a trace-cmd that is not the front end is never replaced or removed"
}

command -v dkms >/dev/null || fail "setup" "dkms is not installed (tests/install-deps.sh)"
make -s -C "$ROOT" install DESTDIR="$DEST" >/dev/null
check_file_list
check_install_decoder
check_front_end_on_path
check_dkms_build
check_uninstall
check_real_trace_cmd_kept
echo "test_install: ok"
