#!/usr/bin/gawk -f
# Checks fgdecode --cookies output against the guest's stack_map listing.
# Usage: gawk -f check_e2e.awk stack_map.txt decoded.txt
# Fails (exit 1) unless: sched_switch events were decoded, each carries a
# stack (but for a CPU's last one, which fgdecode marks as cut off by the
# end of the recording), each of those stacks contains __schedule, and every distinct cookie
# decoded is in stack_map (same generation and slot) with the same frames,
# address by address and "symbol+0xoff/0xsize [module]" by the same text the
# kernel's %pS printed.

function fail(msg) {
	printf "check_e2e: %s\n", msg > "/dev/stderr"
	failed = 1
}

# --- stack_map.txt: "slot S generation G hits H depth D", then frames
#     " 0xADDR symbol+0xoff/0xsize [module]"
FNR == NR && /^slot / {
	key = $4 ":" $2
	map_depth[key] = $8
	map_addrs[key] = ""
	map_syms[key] = ""
	next
}
FNR == NR && /^ 0x/ {
	addr = substr($1, 3)
	sym = $2 (NF > 2 ? " " $3 : "")
	map_addrs[key] = map_addrs[key] " " addr
	map_syms[key] = map_syms[key] " " sym
	next
}
FNR == NR { next }

# --- decoded.txt

# Do two frame lists differ only in frames at the very start of a symbol
# (+0x0) that both sides name differently, with the same size and module?
# Such names are aliases of one address (the addresses are compared
# already): the kernel's %pS takes the first in kallsyms order,
# libtraceevent's lookup the last.  Each such frame is counted.
function aliases_only(want, got,   w, g, n, i, wn, gn) {
	n = split(want, w, " ")
	if (split(got, g, " ") != n)
		return 0
	for (i = 1; i <= n; i++) {
		if (w[i] == g[i])
			continue
		wn = w[i]; gn = g[i]
		if (sub(/^[^+]+\+0x0\//, "", wn) != 1 || sub(/^[^+]+\+0x0\//, "", gn) != 1 || wn != gn)
			return 0
		aliased++
	}
	return 1
}

function end_stack() {
	if (cur == "")
		return
	if (cur_event ~ /sched_switch:/) {
		with_stack++
		if (cur_syms !~ / __schedule\+/)
			fail("sched_switch stack without __schedule: " cur_event)
	}
	if (!(cur in seen)) {
		seen[cur] = 1
		distinct++
		if (!(cur in map_addrs))
			fail("cookie " cur " (generation:slot) not in stack_map")
		else if (map_addrs[cur] != cur_addrs)
			fail("cookie " cur " frames differ from stack_map:\n  decoded:" cur_addrs "\n  stack_map:" map_addrs[cur])
		else if (map_syms[cur] != cur_syms && !aliases_only(map_syms[cur], cur_syms))
			fail("cookie " cur " symbols differ from stack_map:\n  decoded:" cur_syms "\n  stack_map:" map_syms[cur])
	}
	cur = ""
}

/^    <cookie / {
	end_stack()
	# "    <cookie 0xC gen G slot S>"
	g = $4; s = $6; sub(/>$/, "", s)
	cur = g ":" s
	cur_addrs = ""; cur_syms = ""
	next
}
# A CPU's last event, whose stack the end of the recording cut off.
/^    <no stack: the recording of this CPU ends here>$/ {
	if (cur_event ~ /sched_switch:/)
		cut++
	next
}
/^    => </ {
	fail("unresolved stack: " $0 " after " cur_event)
	next
}
# "    => symbol+0xoff/0xsize [module] (ADDR)", [module] for modules only
/^    => / {
	if (cur == "")
		next
	addr = $NF; gsub(/[()]/, "", addr)
	cur_addrs = cur_addrs " " addr
	cur_syms = cur_syms " " $2 (NF > 3 ? " " $3 : "")
	next
}
{
	end_stack()
	cur_event = $0
	if ($0 ~ /sched_switch:/)
		switches++
}

END {
	end_stack()
	if (switches == 0)
		fail("no sched_switch event decoded")
	# At most one per CPU (the guests have 2) lost its stack to the end.
	if (with_stack + cut != switches || cut > 2)
		fail(sprintf("%d of %d sched_switch events carry a stack, %d cut off by the end of the recording", with_stack, switches, cut))
	if (distinct == 0)
		fail("no cookie decoded")
	printf "check_e2e: %d sched_switch events, %d with stacks (%d cut off by the end), %d distinct cookies checked against stack_map\n", switches, with_stack, cut, distinct
	if (aliased)
		printf "check_e2e: %d frames at a symbol's start named by another alias of the same address than the kernel's\n", aliased
	exit failed
}
