# Sourced by the tests that work in fresh Debian roots (tests/test_fresh_root.sh, tests/test_deb.sh,
# tests/test_userland.sh): a copy of tests/roots.sh's fresh root of a suite, a clean clone of the tree in it, and
# a step run in it that is timed and fails the test with its log.
# The sourcing test sets ROOT (the tree), CACHE (where roots.sh keeps roots and apt-SUITE download caches) and
# PROG, and defines fail SUITE WHY.
# shellcheck shell=bash

# root_copy SUITE DIR: DIR becomes a copy of SUITE's fresh root (made by roots.sh if missing), its apt downloads
# kept in $CACHE/apt-SUITE (bound by root_step) while its own apt state stays fresh.
root_copy() {
	local suite=$1 dir=$2 fresh
	fresh=$("$ROOT/tests/roots.sh" fresh "$suite") || fail "$suite" "no fresh root"
	rm -rf "$dir"
	mkdir -p "$(dirname "$dir")" "$CACHE/apt-$suite"
	cp -a "$fresh" "$dir"
	echo "Dir::Cache::archives \"$CACHE/apt-$suite\";" >"$dir/etc/apt/apt.conf.d/90stackmap-cache"
}

# root_clone SUITE DIR REV: a clean clone of the tree at REV in DIR/root/stackmap.
root_clone() {
	git clone -q --no-hardlinks "$ROOT" "$2/root/stackmap" && git -C "$2/root/stackmap" checkout -q "$3" ||
		fail "$1" "git clone of $ROOT at $3 failed"
}

# root_step SUITE DIR LOG NAME COMMAND...: run COMMAND as root in DIR (with the apt cache and the bind paths of
# the array ROOT_BINDS), its output in LOG.NAME; print its last lines and its time; fail the test if it fails.
root_step() {
	local suite=$1 dir=$2 log=$3 name=$4 start=$SECONDS b binds=(--bind "$CACHE/apt-$1")
	shift 4
	for b in ${ROOT_BINDS[@]+"${ROOT_BINDS[@]}"}; do binds+=(--bind "$b"); done
	echo "$PROG: $suite: $name"
	"$ROOT/tests/roots.sh" run "$dir" "${binds[@]}" -- "$@" >"$log.$name" 2>&1
	local rc=$?
	tail -n 15 "$log.$name"
	((rc == 0)) || fail "$suite" "'$name' exited $rc (log: $log.$name)"
	echo "$PROG: $suite: $name passed in $((SECONDS - start)) s"
}
