#!/bin/bash
# The half of tests/test_deb.sh that runs inside a fresh root (as root, by tests/roots.sh run), on the packages
# in /root/debs. One phase per call, each printing what it checked and failing with one line naming what did
# not hold:
#   deps KVER            apt-get update; install what our packages depend on, man-db, linux-headers-KVER
#   files OUT            the root's file list (what a package could leave behind) into OUT
#   install              apt install ./*.deb: exactly our four packages are new
#   check KVER VERSION TRACE FRAMES
#                        DKMS built stackmap.ko VERSION for KVER; the versions agree (dpkg, dkms.conf, modinfo,
#                        fgdecode --version, the plugin); fgdecode --help; trace-cmd report expands TRACE's cookies
#                        with the installed plugin into FRAMES frame lines and none without plugins; the front end
#                        is /usr/bin/trace-cmd, the real one /usr/bin/trace-cmd.distrib and every other command
#                        reaches it unchanged; the man pages render
#   module KVER          print the path of the stackmap.ko DKMS installed for KVER
#   report TRACE         trace-cmd report with the installed plugin expands the stacks of TRACE (a guest's
#                        recording) with no unknown or stale cookie
#   purge TRACE          apt remove stackmap puts the real trace-cmd back (it reports TRACE); apt purge of all four leaves no
#                        diversion and no DKMS module
set -euo pipefail

PACKAGES=(stackmap stackmap-dkms fgdecode libtraceevent1-plugin-stackmap)
MARKER='# stackmap trace-cmd front end'
export DEBIAN_FRONTEND=noninteractive

die() {
	echo "in_root: $PHASE: $*" >&2
	exit 1
}

apt_get() { apt-get -q -y -o Dpkg::Use-Pty=0 "$@"; }

# Our packages' dependencies that are not our own packages, as one apt-get satisfy string.
foreign_depends() {
	local d
	for d in /root/debs/*.deb; do dpkg-deb -f "$d" Depends; done | tr ',' '\n' |
		grep -vE "^ *($(IFS='|'; echo "${PACKAGES[*]}"))( |\$)" | sed 's/^ *//' | sort -u | paste -sd, | sed 's/,/, /g'
}

phase_deps() {
	local kver=$1
	apt_get update
	apt_get satisfy "$(foreign_depends), man-db, linux-headers-$kver"
	echo "in_root: deps: installed $(foreign_depends), man-db, linux-headers-$kver"
}

phase_files() {
	find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp -o -path /var/tmp \
		-o -path /root -o -path /var/cache -o -path /var/log -o -path /var/lib/apt -o -path /var/lib/dpkg \) -prune \
		-o -print | grep -vE '/lib/modules/[^/]+/modules\.[^/]+$' | sort >"$1"
	echo "in_root: files: $(wc -l <"$1") paths"
}

installed() { dpkg-query -W -f '${db:Status-Status} ${Package}\n' | awk '$1 == "installed" { print $2 }' | sort; }

phase_install() {
	local before new
	before=$(installed)
	apt_get install /root/debs/*.deb
	new=$(comm -13 <(echo "$before") <(installed) | paste -sd' ')
	[[ $new == "$(printf '%s\n' "${PACKAGES[@]}" | sort | paste -sd' ')" ]] ||
		die "apt install ./*.deb installed '$new', not just our four packages"
	echo "in_root: install: $new"
}

# same_as_real ARGS...: the front end and the diverted trace-cmd give the same output and exit status.
same_as_real() {
	local a b ra=0 rb=0
	a=$(trace-cmd "$@" 2>&1) || ra=$?
	b=$(/usr/bin/trace-cmd.distrib "$@" 2>&1) || rb=$?
	[[ $ra == "$rb" && $a == "$b" ]] || die "trace-cmd $* through the front end: exit $ra, real: exit $rb, outputs differ"
}

# dkms_module KVER: the module DKMS installed for KVER (plain or compressed).
dkms_module() {
	local f
	for f in "/lib/modules/$1/updates/dkms/stackmap.ko"*; do
		[[ -e $f ]] && { echo "$f"; return 0; }
	done
	return 1
}

check_versions() {
	local kver=$1 version=$2 ko p got
	for p in "${PACKAGES[@]}"; do
		got=$(dpkg-query -W -f '${Version}' "$p")
		[[ $got == "$version" ]] || die "package $p is $got, not $version"
	done
	dkms status -m stackmap -v "$version" -k "$kver" | grep -q ': installed' ||
		die "dkms status: stackmap $version not installed for $kver: $(dkms status 2>&1 | paste -sd';')"
	# By path: trixie's DKMS runs depmod for a kernel whose modules are not installed (only its headers are
	# here) without writing modules.dep, so modinfo -k finds nothing by name.
	ko=$(dkms_module "$kver") || die "no stackmap.ko in /lib/modules/$kver/updates/dkms"
	got=$(modinfo -F version "$ko")
	[[ $got == "$version" ]] || die "modinfo: stackmap.ko version $got, not $version"
	grep -qx "PACKAGE_VERSION=\"$version\"" "/usr/src/stackmap-$version/dkms.conf" ||
		die "/usr/src/stackmap-$version/dkms.conf does not say PACKAGE_VERSION=\"$version\""
	got=$(fgdecode --version)
	[[ $got == "fgdecode $version" ]] || die "fgdecode --version says '$got'"
	got=$(grep -ao 'stackmap plugin [0-9][0-9.]*' /usr/lib/*/traceevent/plugins/plugin_stackmap.so)
	[[ $got == "stackmap plugin $version" ]] || die "the plugin says '$got'"
	echo "in_root: check: $version everywhere: packages, dkms.conf, modinfo of DKMS's $ko, fgdecode --version, plugin"
}

# report_counts TRACE [FLAGS...]: "FRAMES UNRESOLVED" of one trace-cmd report of TRACE: its "=> " frame lines,
# and its unknown and stale cookies.
report_counts() {
	local trace=$1
	shift
	trace-cmd report "$@" -i "$trace" 2>/dev/null |
		awk '/^ *=> / { f++ } /unknown cookie|stale cookie/ { u++ } END { print f + 0, u + 0 }'
}

check_report() {
	local trace=$1 frames=$2 got bad
	trace-cmd list -P 2>/dev/null | grep -q '/traceevent/plugins/plugin_stackmap.so$' ||
		die "trace-cmd list -P does not load plugin_stackmap.so"
	read -r got bad < <(report_counts "$trace")
	[[ $got == "$frames" ]] || die "trace-cmd report -i $trace printed $got frame lines, not $frames"
	((bad == 0)) || die "$bad unknown or stale cookies in $trace"
	read -r got bad < <(report_counts "$trace" -N)
	[[ $got == 0 ]] || die "trace-cmd report -N printed $got frame lines"
	echo "in_root: check: trace-cmd report (the installed plugin, no environment) printed the $frames frame lines of $trace, -N none"
}

check_front_end() {
	local l3
	[[ $(command -v trace-cmd) == /usr/bin/trace-cmd ]] || die "trace-cmd on PATH is $(command -v trace-cmd)"
	l3=$(sed -n 3p /usr/bin/trace-cmd)
	[[ $l3 == "$MARKER" ]] || die "/usr/bin/trace-cmd is not the front end"
	[[ $(dpkg-divert --truename /usr/bin/trace-cmd) == /usr/bin/trace-cmd.distrib ]] || die "no diversion of /usr/bin/trace-cmd"
	[[ $(dpkg-divert --listpackage /usr/bin/trace-cmd) == stackmap ]] || die "the diversion is not stackmap's"
	same_as_real report -i "$1"
	same_as_real list -h
	same_as_real no-such-command
	echo "in_root: check: the front end is /usr/bin/trace-cmd; report, list -h and an unknown command reach /usr/bin/trace-cmd.distrib unchanged"
}

check_man() {
	local page
	for page in fgdecode stackmap-record stackmap-snapshot stackmap plugin_stackmap; do
		MANWIDTH=80 man "$page" 2>/dev/null | grep -q '^NAME' || die "man $page shows no page"
	done
	echo "in_root: check: man fgdecode, stackmap-record, stackmap-snapshot, stackmap, plugin_stackmap render"
}

phase_check() {
	check_versions "$1" "$2"
	fgdecode --help >/dev/null || die "fgdecode --help exited $?"
	check_report "$3" "$4"
	check_front_end "$3"
	check_man
}

phase_module() { dkms_module "$1"; }

phase_report() {
	local frames bad
	read -r frames bad < <(report_counts "$1")
	((frames > 0)) || die "trace-cmd report -i $1 expanded no stack"
	((bad == 0)) || die "trace-cmd report -i $1: $bad unknown or stale cookies"
	echo "in_root: report: trace-cmd $(dpkg-query -W -f '${Version}' trace-cmd) with the installed plugin: $frames frame lines in $1, no unknown or stale cookie"
}

phase_purge() {
	apt_get remove stackmap
	[[ -z $(dpkg-divert --list '*trace-cmd*') ]] || die "apt remove stackmap left $(dpkg-divert --list '*trace-cmd*')"
	! sed -n 3p /usr/bin/trace-cmd | grep -qxF "$MARKER" || die "the front end is still /usr/bin/trace-cmd"
	[[ $(od -An -c -N4 /usr/bin/trace-cmd | tr -d ' ') == 177ELF ]] || die "/usr/bin/trace-cmd is not an ELF file"
	trace-cmd report -i "$1" >/dev/null 2>&1 || die "the real trace-cmd does not run after apt remove stackmap"
	echo "in_root: purge: apt remove stackmap put the real trace-cmd back at /usr/bin/trace-cmd"
	apt_get purge "${PACKAGES[@]}"
	[[ -z $(dkms status -m stackmap 2>/dev/null) ]] || die "dkms still has $(dkms status -m stackmap)"
	echo "in_root: purge: all four purged, no DKMS module left"
}

PHASE=${1:?usage: in_root.sh PHASE ARGS...}
shift
"phase_$PHASE" "$@"
