#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The KernelShark plugin (kshark/): its stacks against fgdecode's, then the
# real KernelShark under Xvfb.
# Usage: tests/kshark/test_kshark.sh [TRACE.dat ...]
#
#   1. kss-dump (what the panel shows, for every record) equals fgdecode's
#      stacks on the fixtures (stackmap cookies: views.dat; trace-cmd record
#      -T: kstack.dat) and on each TRACE given that exists (stale, unknown
#      and orphan cookies, lost events, snapshots: vm-* recordings).
#   2. For each fixture: kernelshark -p plugin-stackmap.so TRACE under Xvfb;
#      once it has loaded the trace (its title names the file) and its window
#      is 1600x1000, a click (xdotool) on two events with stacks in the list,
#      where the list shows them at the time of the click; the panel's
#      text (STACKMAP_KSHARK_DUMP) must be fgdecode's stack of that event;
#      a screenshot of each in build/kshark/; File > Quit (Ctrl+Q) must end
#      KernelShark without a crash (the panel is deleted before the plugin
#      is unloaded).
#
# Packages: kernelshark, libkshark-dev, libjson-c-dev, pkg-config, xvfb, xdotool,
# imagemagick, python3, and the -dev package of the Qt KernelShark's own
# widgets use (qtbase5-dev for KernelShark 2.2 in bookworm, qt6-base-dev for
# 2.4 in trixie); as root the missing ones are installed (apt-get install
# -y), otherwise the test says which are missing and fails.
# tests/kshark/test_kshark_root.sh runs it in a fresh root of another Debian
# release (trixie).
set -uo pipefail

cd "$(dirname "$0")/../.." || exit 2
OUT=build/kshark
FIXTURES=(tests/fixtures/traces/views.dat tests/fixtures/traces/kstack.dat)
PKGS=(kernelshark libkshark-dev libjson-c-dev pkg-config xvfb xdotool imagemagick python3)
fails=0

fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# install_missing PACKAGE...: those not installed, as root; 1 when that cannot be done.
install_missing() {
	local p missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	((${#missing[@]})) || return 0
	if [[ $(id -u) != 0 ]]; then
		echo "test_kshark: missing packages: ${missing[*]} (apt-get install them as root)" >&2
		return 1
	fi
	echo "test_kshark: installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >>"$OUT/apt.log" 2>&1 ||
		{ echo "test_kshark: apt-get install failed, see $OUT/apt.log" >&2; return 1; }
}

# qt_dev: the -dev package of the Qt KernelShark's widgets are built with,
# which kshark/Makefile builds the plugin with (another Qt crashes).
qt_dev() {
	case $(make -s -C kshark print-qt 2>/dev/null) in
	Qt6) echo qt6-base-dev ;;
	*) echo qtbase5-dev ;;
	esac
}

# wait_for SECONDS COMMAND...: until COMMAND succeeds; 1 when it never did.
wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		((SECONDS < end)) || return 1
		sleep 0.3
	done
}

# Part 1: every record, without a display.
check_dump() {
	local t=$1 name
	name=$(basename "$(dirname "$t")")-$(basename "$t" .dat)
	nice -n 19 decoder/fgdecode "$t" >"$OUT/$name.fgdecode" 2>/dev/null ||
		{ fail "fgdecode $t"; return; }
	nice -n 19 kshark/kss-dump "$t" >"$OUT/$name.kss" || { fail "kss-dump $t"; return; }
	if out=$(tests/kshark/compare_stacks.py "$OUT/$name.fgdecode" "$OUT/$name.kss"); then
		echo "ok: $t: $out"
	else
		echo "$out" | head -20
		fail "$t: the plugin's stacks are not fgdecode's"
	fi
}

# panel_shows ROW: the panel's text is that of row ROW.
panel_shows() { [[ -s $dir/panel ]] && head -1 "$dir/panel" | grep -q "^#$1 "; }

# rows_listed N: the list shows at least N rows.
rows_listed() { [[ -s $dir/panel.rows ]] && (($(wc -l <"$dir/panel.rows") >= $1)); }

# loaded: KernelShark is done loading the trace. It shows its window first,
# then loads (a progress bar in a window of its own, the list filled before
# the graph, which then takes its height from the list), and names the file
# in the title only when all of that is over: rows and their places read
# before then are not where they will be.
loaded() { win=$(xdotool search --name '^Kernel Shark \(' 2>/dev/null | head -1) && [[ -n $win ]]; }

# grown: the window is 1600x1000 (asked again while it is not: a resize that
# comes before KernelShark's own layout is undone by it), and the list shows
# the rows of that height.
grown() {
	local geom
	geom=$(xdotool getwindowgeometry "$win" 2>/dev/null | awk '/Geometry:/ { print $2 }')
	if [[ $geom != 1600x1000 ]]; then
		xdotool windowsize "$win" 1600 1000
		return 1
	fi
	rows_listed 20
}

# row_at ROW: "CPU TS EVENT X Y" of ROW in the list as the panel last saw it.
row_at() { awk -v r="$1" '$1 == r { print $2, $3, $4, $5, $6; f = 1 } END { exit !f }' "$dir/panel.rows"; }

# click ROW: click ROW where the list shows it now; the panel must show it.
click() {
	local row=$1 cpu ts ev x y
	read -r cpu ts ev x y < <(row_at "$row") || return 1
	xdotool mousemove "$x" "$y" click 1
	wait_for 20 panel_shows "$row" && return 0
	echo "$name: a click on row $row at $x,$y; the panel shows: $(head -1 "$dir/panel")" >&2
	return 1
}

# Part 2: KernelShark itself, on TRACE.
check_gui() {
	local t=$1 name fg rows picked=0 row cpu ts ev x y shot status
	name=$(basename "$t" .dat)
	fg=$OUT/traces-$name.fgdecode
	dir=$(mktemp -d "$OUT/gui-$name.XXXX")
	mkdir -p "$dir/cache"
	# No "running as root" dialog, no last session, no user plugins.
	printf '[General]\nnoRootWarn=true\n' >"$dir/cache/setting.ini"
	Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3>"$dir/display" >"$dir/xvfb.log" 2>&1 &
	xvfb=$!
	wait_for 20 test -s "$dir/display" || { fail "$name: Xvfb did not start"; kill "$xvfb"; return; }
	export DISPLAY=:$(cat "$dir/display")
	HOME=$dir XDG_CONFIG_HOME=$dir/config XDG_RUNTIME_DIR=$dir KS_USER_CACHE_DIR=$dir/cache \
		STACKMAP_KSHARK_DUMP=$dir/panel nice -n 19 \
		kernelshark -p "$PWD/kshark/plugin-stackmap.so" "$PWD/$t" >"$dir/kernelshark.log" 2>&1 &
	ks=$!
	win=
	if ! wait_for 90 loaded; then
		fail "$name: KernelShark did not load the trace in 90 s ($dir/kernelshark.log)"
	elif ! wait_for 20 grown; then
		fail "$name: the window is $(xdotool getwindowgeometry "$win" | awk '/Geometry:/ { print $2 }') and the list shows $(wc -l <"$dir/panel.rows" 2>/dev/null) rows, not 1600x1000 and 20 or more"
	else
		# Two events fgdecode gives a stack, among the rows on screen: the
		# first and the last.
		rows=$(while read -r row cpu ts ev x y; do
			tests/kshark/compare_stacks.py "$fg" --has-stack "$cpu" "$ts" "${ev##*/}" &&
				echo "$row $ev"
		done <"$dir/panel.rows")
		rows=$(printf '%s\n' "$rows" | sed -n '1p;$p' | sort -u -n)
		while read -r row ev; do
			[[ -n $row ]] || continue
			if ! click "$row"; then
				fail "$name: the panel did not show row $row ($ev) after a click"
				continue
			fi
			shot=$OUT/$name-row$row.png
			import -window root "$shot" 2>/dev/null || fail "$name: no screenshot"
			if out=$(tests/kshark/compare_stacks.py "$fg" --panel "$dir/panel"); then
				echo "ok: KernelShark, $t row $row ($ev): $out; $shot"
				picked=$((picked + 1))
			else
				echo "$out"
				fail "$name: row $row: the panel's stack is not fgdecode's"
			fi
		done <<<"$rows"
		((picked == 2)) || fail "$name: $picked of 2 events checked"
	fi
	# A key through XTEST to the focused window, as a keyboard types it:
	# Qt 6 ignores the synthetic key events of xdotool key --window.
	[[ -z $win ]] || { xdotool windowfocus "$win" && xdotool key ctrl+q; } 2>/dev/null
	if wait_for 20 eval '! kill -0 $ks 2>/dev/null'; then
		wait "$ks"
		status=$?
		((status == 0)) || fail "$name: KernelShark exited with $status ($dir/kernelshark.log)"
	else
		fail "$name: KernelShark did not quit on Ctrl+Q"
		kill -9 "$ks" 2>/dev/null
	fi
	kill "$xvfb" 2>/dev/null
	wait "$xvfb" 2>/dev/null
	unset DISPLAY
}

main() {
	local t
	mkdir -p "$OUT" || exit 2
	rm -rf "$OUT"/gui-*
	rm -f "$OUT/apt.log"
	install_missing "${PKGS[@]}" && install_missing "$(qt_dev)" || exit 1
	nice -n 19 make -s -C kshark >"$OUT/build.log" 2>&1 || { cat "$OUT/build.log" >&2; echo "FAIL: make -C kshark" >&2; exit 1; }
	[[ -x decoder/fgdecode ]] || nice -n 19 make -s decoder >>"$OUT/build.log" 2>&1 || { echo "FAIL: make decoder" >&2; exit 1; }
	for t in "${FIXTURES[@]}"; do check_dump "$t"; done
	for t in "$@"; do
		if [[ -e $t ]]; then check_dump "$t"; else echo "skip: $t (not there)"; fi
	done
	for t in "${FIXTURES[@]}"; do check_gui "$t"; done
	if ((fails)); then
		echo "test_kshark: $fails failed" >&2
		exit 1
	fi
	echo "test_kshark: passed"
}

main "$@"
