#!/bin/bash
# The man pages against the programs: every page in man/ renders without a groff warning (groff -man -ww), and
# fgdecode(1)'s SYNOPSIS line of each command (report, map, diff) names exactly the options that command's --help
# lists (bar -h, --help and --version, which the SYNOPSIS gives once), each of which the page also describes
# (its name appears outside the SYNOPSIS).  "[filters]" in a synopsis stands for --event, --pid, --cpu, --from,
# --to.
# Usage: tests/test_man.sh   (after make -C decoder).  Exit 0 when all hold, 1 otherwise.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
FG=$ROOT/decoder/fgdecode
FAILED=0 CHECKED=0

fail() {
	echo "test_man: $*"
	FAILED=$((FAILED + 1))
}

[[ -x $FG ]] || { echo "test_man: build decoder/ first"; exit 2; }

for page in "$ROOT"/man/*.[1-9]; do
	CHECKED=$((CHECKED + 1))
	warnings=$(groff -man -ww -z -Tutf8 "$page" 2>&1)
	[[ -z $warnings ]] || fail "${page#"$ROOT"/}: groff warns: $(head -n1 <<<"$warnings")"
done

# options TEXT: the long options TEXT names, one a line, sorted.
options() {
	grep -oE -- '--[a-z][a-z-]*[a-z]' <<<"$1" | sort -u
}

# help_options COMMAND: the options COMMAND's --help lists: the option lists that start its lines ("  -N,
# --no-plugins  ...", "  --vmlinux FILE, --modules DIR  ..."), not those its explanations mention.
help_options() {
	options "$("$FG" help "$1" | sed -nE 's/^  (-.*)$/\1/p' | sed -E 's/([^ ])  .*/\1/')"
}

PAGE=$(MANWIDTH=4000 man -l "$ROOT/man/fgdecode.1" 2>/dev/null)
SYNOPSIS=$(sed -n '/^SYNOPSIS/,/^[A-Z]/p' <<<"$PAGE")
BODY=$(sed '/^SYNOPSIS/,/^COMMANDS/d' <<<"$PAGE")
FILTERS="--event --pid --cpu --from --to"
for cmd in report map diff; do
	CHECKED=$((CHECKED + 1))
	if [[ $cmd == report ]]; then
		line=$(grep -m1 -E '^ *fgdecode +\[report\]' <<<"$SYNOPSIS")
	else
		line=$(grep -m1 -E "^ *fgdecode +$cmd " <<<"$SYNOPSIS")
	fi
	line=${line//\[filters\]/$FILTERS}
	help=$(help_options "$cmd" | grep -vxE -- '--help|--version')
	syn=$(options "$line")
	missing=$(comm -23 <(echo "$help") <(echo "$syn") | tr '\n' ' ')
	extra=$(comm -13 <(echo "$help") <(echo "$syn") | tr '\n' ' ')
	[[ -z $missing ]] || fail "fgdecode.1: the SYNOPSIS of $cmd lacks what its --help lists: $missing"
	[[ -z $extra ]] || fail "fgdecode.1: the SYNOPSIS of $cmd names what its --help does not: $extra"
	for opt in $help; do
		grep -qe "$opt" <<<"$BODY" || fail "fgdecode.1: $cmd's $opt is not described"
	done
done
echo "test_man: $CHECKED checks, $FAILED failed"
((FAILED == 0))
