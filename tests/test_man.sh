#!/bin/bash
# The man pages against the programs:
#   - every page in man/ renders without a groff warning (groff -man -ww);
#   - every display of every page's EXAMPLES (the lines between .nf and .fi, or the paragraph an .IP starts) shows
#     the quotes its source writes: as many double and single quotes rendered as the source means to show (a macro
#     argument in double quotes loses them, "" inside it is one quote, \(dq and \(aq are one; any other quote is
#     meant to show, such as those of .B jq 'select(.a == "b")', whose "b" groff takes for an argument and
#     drops), and its quotes are closed as a shell reads them, so a command pasted from the page runs;
#   - each command of fgdecode (report, map, diff) accepts exactly the options its --help lists (those of its
#     struct option table and getopt_long() call in its own decoder/commands/COMMAND_cmd.c, report's outputs from the table of
#     decoder/outputs/outputs.c), fgdecode(1)'s SYNOPSIS line of the command names exactly those (bar -h, --help
#     and --version, which the SYNOPSIS gives once), and the page describes each (its name appears outside the
#     SYNOPSIS).  "[filters]" in a synopsis stands for --event, --pid, --comm, --cpu, --from, --to, -F (--filter);
#   - stackmap(7) describes each parameter of the module (module_param*() in kmod/*.c) under PARAMETERS, and
#     each parameter its PARAMETERS section describes exists;
#   - tests/README.md's "Suites" names each suite of tests/run-tests.sh's table (--table), and no other.
# Usage: tests/test_man.sh   (after make -C decoder).  Exit 0 when all hold, 1 otherwise.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
FG=$ROOT/decoder/fgdecode
SRC=$ROOT/decoder
FAILED=0 CHECKED=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

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

# ---- the quotes of the EXAMPLES ----

# example_blocks PAGE: write each display of PAGE's EXAMPLES to $TMP/N.roff (a page of its own) and print
# "N LINE DQ SQ" for it: the line of PAGE it starts at, the double and single quotes its source means to show.
example_blocks() {
	gawk -v dir="$TMP" '
	# A piece of text: every quote in it shows (\001 and \002 stand for \(dq and \(aq).
	function tally(t) {
		DQ += gsub(/["\001]/, "", t)
		SQ += gsub(/[\047\002]/, "", t)
	}
	# Where the argument that opens with the quote at @i ends: its closing quote ("" inside is one quote), or
	# past the end of the line when none closes it.
	function closing(s, i,    k) {
		for (k = i + 1; k <= length(s); k++) {
			if (substr(s, k, 1) != "\"")
				continue
			if (substr(s, k + 1, 1) != "\"")
				return k
			k++
		}
		return length(s) + 1
	}
	# The arguments of a font macro: one in double quotes that ends at a space shows without them; any other
	# shows as written (one whose quote closes inside a word, "b"), for groff splits it there and drops both).
	function tally_args(s,    i, j, t) {
		for (i = 1; i <= length(s); ) {
			if (substr(s, i, 1) == " ") {
				i++
				continue
			}
			j = closing(s, i)
			if (substr(s, i, 1) == "\"" && (j > length(s) || substr(s, j + 1, 1) ~ /^( |)$/)) {
				t = substr(s, i + 1, j - i - 1)
				gsub(/""/, "\"", t)
				tally(t)
				i = j + 1
				continue
			}
			t = substr(s, i)
			if (index(t, " "))
				t = substr(t, 1, index(t, " ") - 1)
			tally(t)
			i += length(t)
		}
	}
	# DQ, SQ: the quotes line @s of roff means to show.
	function count(s) {
		DQ = SQ = 0
		gsub(/\\\\/, "\\e", s)
		sub(/\\".*/, "", s)
		gsub(/\\\(dq|\\\[dq\]/, "\001", s)
		gsub(/\\\(aq|\\\[aq\]/, "\002", s)
		gsub(/\\\047/, "", s)
		if (s !~ /^[.\047]/)
			tally(s)
		else if (s ~ /^\.(B|I|SM|SB|BI|BR|IB|IR|RB|RI)( |$)/)
			tally_args(substr(s, index(s, " ") ? index(s, " ") + 1 : length(s) + 1))
	}
	function open_block(nofill) {
		file = dir "/" ++n ".roff"
		print ".TH QQ 1" > file
		if (nofill)
			print ".nf" > file
		inb = 1
		start = dq = sq = 0
	}
	function close_block() {
		if (inb && start) {
			close(file)
			print n, start, dq, sq
		}
		inb = ip = 0
	}
	/^\.SH/ {
		close_block()
		ex = $0 ~ /^\.SH +"?EXAMPLES?"?$/
		next
	}
	!ex { next }
	/^\.nf/ { close_block(); open_block(1); nf = 1; next }
	/^\.fi/ { close_block(); nf = 0; next }
	!nf && /^\.(PP|LP|P|IP|TP|HP|SS)( |$)/ { close_block(); ip = $1 == ".IP"; next }
	ip && !inb { open_block(0) }
	!inb { next }
	{
		print > file
		start = start ? start : FNR
		count($0)
		dq += DQ
		sq += SQ
	}
	END { close_block() }' "$1"
}

# render FILE: FILE as man renders it, without its header and footer or blank lines.
render() {
	groff -man -Tutf8 -P-cbou -rLL=2000n "$1" 2>/dev/null | grep -v 'QQ(1)' | sed '/^ *$/d'
}

# quotes_closed TEXT: are the quotes of TEXT closed, as a shell reads them ('...', "...", \X, # comments)?
quotes_closed() {
	gawk 'BEGIN { RS = "\0" } {
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			if (q == "\047") {
				q = c == q ? "" : q
			} else if (c == "\\") {
				i++
			} else if (q == "\"") {
				q = c == q ? "" : q
			} else if (c == "\047" || c == "\"") {
				q = c
			} else if (c == "#" && (i == 1 || substr($0, i - 1, 1) ~ /[ \t\n]/)) {
				while (i < length($0) && substr($0, i + 1, 1) != "\n")
					i++
			}
		}
		exit q != ""
	}' <<<"$1"
}

for page in "$ROOT"/man/*.[1-9]; do
	rm -f "$TMP"/*.roff
	while read -r n line dq sq; do
		CHECKED=$((CHECKED + 1))
		text=$(render "$TMP/$n.roff")
		where="${page#"$ROOT"/man/}:$line: EXAMPLES: $(head -n1 <<<"$text" | sed 's/^ *//')"
		got_dq=$(tr -cd '"' <<<"$text" | wc -c)
		got_sq=$(sed "s/’/'/g" <<<"$text" | tr -cd "'" | wc -c)
		((got_dq == dq)) || fail "$where: shows $got_dq of the $dq double quotes its source writes"
		((got_sq == sq)) || fail "$where: shows $got_sq of the $sq single quotes its source writes"
		quotes_closed "$text" || fail "$where: a quote is not closed"
	done < <(example_blocks "$page")
done

# ---- the options: accepted, --help, SYNOPSIS, described ----

# options TEXT: the options TEXT names (--long, -X), one a line, sorted.
options() {
	grep -oE -- '(^|[^-[:alnum:]])-[[:alpha:]]\b|--[a-z][a-z-]*[a-z]' <<<"$1" | sed -E 's/^[^-]+//' | sort -u
}

# help_options COMMAND: the options COMMAND's --help lists: the option lists that start its lines ("  -N,
# --no-plugins  ...", "  --vmlinux FILE, --modules DIR  ..."), not those its explanations mention.
help_options() {
	options "$("$FG" help "$1" | sed -nE 's/^  (-.*)$/\1/p' | sed -E 's/([^ ])  .*/\1/')"
}

# command_file COMMAND: the file that holds COMMAND's option table, parser and help.
command_file() {
	echo "$SRC/commands/${1}_cmd.c"
}

# longopts_of COMMAND TABLE: the names of the struct option TABLE[] of COMMAND's file, as --NAME.
longopts_of() {
	sed -n "/struct option $2\[\] = {/,/^};/s/^\t*{ \"\([a-z-]*\)\",.*/--\1/p" "$(command_file "$1")"
}

# output_options: the option of each output of the table of outputs.c, as --NAME.
output_options() {
	local name
	for name in $(sed -n '/outputs\[\] = {/,/^};/s/^\t*&\([a-z_]*\),.*/\1/p' "$SRC/outputs/outputs.c"); do
		sed -n "/struct output_ops $name = {/,/^};/s/^\t*\.option = \"\([a-z-]*\)\",.*/--\1/p" "$SRC"/outputs/*.c
	done
}

# short_options_of COMMAND FUNCTION: the letters of the getopt_long() call of FUNCTION in COMMAND's file, as -X.
short_options_of() {
	sed -n "/^\(static \)\?int $2(/,/^}/s/.*getopt_long([^\"]*\"\([^\"]*\)\".*/\1/p" "$(command_file "$1")" |
		grep -o '[[:alpha:]]' | sed 's/^/-/'
}

# accepted_options COMMAND: the options COMMAND's parser accepts, from the source.
accepted_options() {
	if [[ $1 == report ]]; then
		longopts_of report report_fixed_longopts
		output_options
	else
		longopts_of "$1" "${1}_longopts"
	fi
	short_options_of "$1" "parse_${1}_options"
}

# compare A B WHAT: fail, naming the options of list A that list B lacks, when there are some.
compare() {
	local missing
	missing=$(comm -23 <(echo "$1") <(echo "$2") | tr '\n' ' ')
	[[ -z $missing ]] || fail "fgdecode $cmd: $3: $missing"
}

PAGE=$(MANWIDTH=4000 man -l "$ROOT/man/fgdecode.1" 2>/dev/null)
SYNOPSIS=$(sed -n '/^SYNOPSIS/,/^[A-Z]/p' <<<"$PAGE")
BODY=$(sed '/^SYNOPSIS/,/^COMMANDS/d' <<<"$PAGE")
FILTERS="--event --pid --comm --cpu --from --to -F --filter"
COMMON='-h|--help|--version'
for cmd in report map diff; do
	CHECKED=$((CHECKED + 1))
	if [[ $cmd == report ]]; then
		line=$(grep -m1 -E '^ *fgdecode +\[report\]' <<<"$SYNOPSIS")
	else
		line=$(grep -m1 -E "^ *fgdecode +$cmd " <<<"$SYNOPSIS")
	fi
	line=${line//\[filters\]/$FILTERS}
	accepted=$(accepted_options "$cmd" | grep -vxE -- "$COMMON" | sort -u)
	help=$(help_options "$cmd" | grep -vxE -- "$COMMON")
	syn=$(options "$line")
	[[ -n $accepted ]] || { fail "cannot read the options of fgdecode $cmd from $(command_file "$cmd")"; continue; }
	compare "$accepted" "$help" "accepted, not in its --help"
	compare "$help" "$accepted" "in its --help, not accepted"
	compare "$help" "$syn" "in its --help, not in fgdecode.1's SYNOPSIS"
	compare "$syn" "$help" "in fgdecode.1's SYNOPSIS, not in its --help"
	for opt in $help; do
		grep -qe "$opt" <<<"$BODY" || fail "fgdecode.1: $cmd's $opt is not described"
	done
done
# ---- the module's parameters ----

CHECKED=$((CHECKED + 1))
module_params=$(sed -n -E 's/^module_param(_named|_cb)?\(([a-z_]+),.*/\2/p' "$ROOT"/kmod/*.c | sort -u)
man_params=$(sed -n '/^\.SH PARAMETERS/,/^\.SH /{/^\.TP/{n;s/^\.B //p}}' "$ROOT/man/stackmap.7" | sort -u)
[[ -n $module_params ]] || fail "cannot read the module's parameters from kmod/*.c"
missing=$(comm -23 <(echo "$module_params") <(echo "$man_params") | tr '\n' ' ')
[[ -z $missing ]] || fail "stackmap.7: module parameters not under PARAMETERS: $missing"
extra=$(comm -13 <(echo "$module_params") <(echo "$man_params") | tr '\n' ' ')
[[ -z $extra ]] || fail "stackmap.7: PARAMETERS describes what the module does not have: $extra"

# ---- tests/README.md's list of suites against the table of tests/run-tests.sh ----

# The names of the "Suites" table of tests/README.md: the first column of its rows, between "## Suites" and the
# next section.
readme_suites() {
	gawk '/^## / { in_s = $0 == "## Suites"; next }
		in_s && /^\| `[^`]+` \|/ { match($0, /^\| `([^`]+)`/, m); print m[1] }' "$ROOT/tests/README.md" | sort
}
CHECKED=$((CHECKED + 1))
table=$("$ROOT/tests/run-tests.sh" --table | gawk '{ print $1 }' | sort)
listed=$(readme_suites)
if [[ -z $table ]]; then
	fail "tests/run-tests.sh --table lists no suite"
else
	missing=$(comm -23 <(echo "$table") <(echo "$listed") | tr '\n' ' ')
	[[ -z $missing ]] || fail "tests/README.md \"Suites\" does not name the suites: $missing"
	extra=$(comm -13 <(echo "$table") <(echo "$listed") | tr '\n' ' ')
	[[ -z $extra ]] || fail "tests/README.md \"Suites\" names what tests/run-tests.sh has no suite for: $extra"
	dups=$(uniq -d <<<"$listed" | tr '\n' ' ')
	[[ -z $dups ]] || fail "tests/README.md \"Suites\" names twice: $dups"
fi

echo "test_man: $CHECKED checks, $FAILED failed"
((FAILED == 0))
