# shellcheck shell=bash
# The decodes a cross-architecture check compares (issue #39 item 3), sourced by tests/decoder/test_cross_arch.sh
# (make check: the host's decode against the arm64 decode committed in tests/fixtures/traces/arm64/decode/),
# tests/arm64/decode-fixture.sh (which writes that decode with the arm64 build under qemu-user) and
# tests/arm64/test_decode.sh (the arm64 build on the x86-64 fixtures). One table, so all three run the same
# decodes with the same arguments.
#
# Each decode runs in the trace's own directory on its base name (a flame graph's title and a pprof mapping name
# come from the arguments, so both sides print the same words and no path needs normalising), every output to
# standard output, with HOME pointing nowhere and TRACEEVENT_PLUGIN_DIR unset for fgdecode, so that only the
# system directory's libtraceevent plugins load (on arm64 the sysroot's: the same libtraceevent1-plugin 1.7.1).

# NAME TOOL ARGS: TOOL fgdecode, or report (trace-cmd report with the system's plugins and stackmap's plugin);
# in ARGS, T is the trace's base name, L its stack_map listing, X the other architecture's trace of the same views
# (for diff --any-kernel). Every output fgdecode has: report's text (with and without plugins, with cookies and
# definitions), --json, --folded (and --merge), --top, --pprof, --flamegraph, --perf-script, the analyses
# (--weight, --off-cpu, --wakers), map's four outputs and diff; and the plugin's two ways of printing a stack.
CROSS_ARCH_DECODES='
text            fgdecode T
text-N          fgdecode -N T
cookies         fgdecode --cookies --show-defines T
json            fgdecode --json T
folded          fgdecode --folded T
folded-merge    fgdecode --folded --merge T
top             fgdecode --top 10 T
pprof           fgdecode --pprof - T
flamegraph      fgdecode --flamegraph - T
perf-script     fgdecode --perf-script T
perf-script-N   fgdecode --perf-script -N T
weight-top      fgdecode --event kmalloc --weight bytes_alloc --top 5 T
weight-folded   fgdecode --event kmalloc --weight bytes_alloc --folded T
weight-json     fgdecode --event kmalloc --weight bytes_alloc --json T
offcpu-top      fgdecode --off-cpu --top 5 T
offcpu-folded   fgdecode --off-cpu --task-root --wakers --folded T
offcpu-json     fgdecode --off-cpu --json T
offcpu-pprof    fgdecode --off-cpu --pprof - T
map             fgdecode map L
map-json        fgdecode map --json L
map-folded      fgdecode map --folded L
map-top         fgdecode map --top 10 L
diff-top        fgdecode diff --any-kernel --top 10 X T
diff-folded     fgdecode diff --any-kernel --folded X T
report          report -i T
report-compact  report -O stackmap:compact=1 -O stackmap:defs=1 -i T
'

# cross_arch_decode OUTDIR TRACE LISTING OTHER: every decode of the table into OUTDIR/NAME, and each one's
# standard error, as "NAME: LINE", into OUTDIR/stderr. The caller sets CROSS_ARCH_FGDECODE (the fgdecode to run:
# a program) and CROSS_ARCH_TRACECMD and CROSS_ARCH_PLUGIN_DIR (the trace-cmd and the directory of
# plugin_stackmap.so for the report decodes). LISTING and OTHER are paths relative to TRACE's directory ("-":
# leave the decodes that need it out). Fails on the first decode that fails.
cross_arch_decode() {
	local out=$1 trace=$2 listing=$3 other=$4 name tool args a rc
	local -a argv cmd
	out=$(cd "$out" && pwd)
	: >"$out/stderr"
	while read -r name tool args; do
		[[ -n $name ]] || continue
		argv=()
		for a in $args; do
			case $a in
			T) argv+=("${trace##*/}") ;;
			L) [[ $listing != - ]] || continue 2; argv+=("$listing") ;;
			X) [[ $other != - ]] || continue 2; argv+=("$other") ;;
			*) argv+=("$a") ;;
			esac
		done
		case $tool in
		fgdecode) cmd=(env -u TRACEEVENT_PLUGIN_DIR "$CROSS_ARCH_FGDECODE") ;;
		report) cmd=(env TRACEEVENT_PLUGIN_DIR="$CROSS_ARCH_PLUGIN_DIR" "$CROSS_ARCH_TRACECMD" report) ;;
		*) echo "cross_arch: $name: unknown tool $tool" >&2; return 2 ;;
		esac
		rc=0
		(cd "$(dirname "$trace")" && HOME=/nonexistent "${cmd[@]}" "${argv[@]}") >"$out/$name" 2>"$out/$name.err" ||
			rc=$?
		sed "s/^/$name: /" "$out/$name.err" >>"$out/stderr"
		rm -f "$out/$name.err"
		((rc == 0)) || { echo "cross_arch: $name: ${cmd[*]} ${argv[*]} exited $rc: $(grep -m1 "^$name: " "$out/stderr")" >&2; return 1; }
	done <<<"$CROSS_ARCH_DECODES"
}
