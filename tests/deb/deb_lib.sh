# Sourced by the package tests, tests/test_deb.sh (bookworm, trixie) and tests/test_deb_arm64.sh (arm64 under
# qemu-user): their common settings and the install and purge halves they share, each a run of
# tests/deb/in_root.sh's phases in a root through tests/root_lib.sh's root_step.
# The sourcing test sets ROOT (the tree), sources tests/root_lib.sh (with what it needs: CACHE, PROG) and defines
# fail LABEL WHY; it may set WORK (default /var/tmp/stackmap-deb) and DEB_REV (the revision built; HEAD).
# shellcheck shell=bash

WORK=${WORK:-/var/tmp/stackmap-deb}
# shellcheck disable=SC2034 # the revision the sourcing tests build (root_clone)
REV=${DEB_REV:-HEAD}
VERSION=$(sed -n 's/^#define STACKMAP_VERSION\t*"\(.*\)"/\1/p' "$ROOT/include/stackmap/version.h")
# The trace the installed plugin expands in in_root.sh's check phase.
TRACE=$ROOT/tests/fixtures/traces/views.dat

# deb_frames LABEL: how many frames the tree's plugin expands in $TRACE, what the packaged one must print too;
# fails LABEL when there are none (the plugin is not built).
deb_frames() {
	local frames
	frames=$(TRACEEVENT_PLUGIN_DIR=$ROOT/plugin trace-cmd report -i "$TRACE" 2>/dev/null | grep -c '^ *=> ')
	((frames > 0)) || fail "$1" "the tree's plugin expands no frame of $TRACE (run make)"
	echo "$frames"
}

# deb_install SUITE DIR LOG KVER FRAMES LABEL: in the root DIR (a copy of SUITE's fresh root), the packages of
# $WORK/SUITE-debs installed after what they depend on (the headers of KVER), the file list taken before; then
# in_root.sh's checks (FRAMES from deb_frames) and the packaged front end compared with the tree's. Fails LABEL.
deb_install() {
	local suite=$1 dir=$2 log=$3 kver=$4 frames=$5 label=$6
	mkdir -p "$dir/root/debs"
	cp "$WORK/$suite-debs"/*.deb "$dir/root/debs/"
	cp "$ROOT/tests/deb/in_root.sh" "$TRACE" "$dir/root/"
	root_step "$suite" "$dir" "$log" deps /root/in_root.sh deps "$kver"
	root_step "$suite" "$dir" "$log" files-before /root/in_root.sh files /root/files.before
	root_step "$suite" "$dir" "$log" install /root/in_root.sh install
	root_step "$suite" "$dir" "$log" check /root/in_root.sh check "$kver" "$VERSION" "/root/$(basename "$TRACE")" "$frames"
	# The packaged front end is the tree's, which vm-frontend records through in the guest.
	cmp -s "$dir/usr/bin/trace-cmd" "$ROOT/record/trace-cmd" || fail "$label" "/usr/bin/trace-cmd is not record/trace-cmd"
}

# deb_purge SUITE DIR LOG LABEL SAY: the packages purged from the root DIR, whose file list must then be the one
# deb_install took before installing; fails LABEL, prints "$PROG: SAY: ..." when it holds.
deb_purge() {
	local suite=$1 dir=$2 log=$3 label=$4 say=$5
	root_step "$suite" "$dir" "$log" purge /root/in_root.sh purge "/root/$(basename "$TRACE")"
	root_step "$suite" "$dir" "$log" files-after /root/in_root.sh files /root/files.after
	diff "$dir/root/files.before" "$dir/root/files.after" >"$log.files" ||
		{ head -n 20 "$log.files"; fail "$label" "apt purge left files of ours (< before install, > after purge; $log.files)"; }
	echo "$PROG: $say: the $(wc -l <"$dir/root/files.after") paths are those before install"
}
