# Turn the "key value" lines run.sh collects into the markdown table.
# A row whose figures are missing (its benchmark failed) says "not run".
# "met?" compares a ratio with the target for the reader; nothing fails on it.

{ v[$1] = $2 }

function have(k1, k2, k3) {
	return (k1 in v) && (k2 == "" || k2 in v) && (k3 == "" || k3 in v)
}

function row(bench, ours, base, ratio, target, met, where) {
	printf "| %s | %s | %s | %s | %s | %s | %s |\n", bench, ours, base, ratio, target, met, where
}

function missing(bench, target, where) {
	row(bench, "not run", "", "", target, "", where)
}

function yes(cond) {
	return cond ? "yes" : "**no**"
}

function kb(bytes) {
	return sprintf("%.1f KiB", bytes / 1024)
}

function b4_rows(   l, h, i, r) {
	if (!have("b4_lookup_ns", "b4_hash_ns", "b4_insert_ns")) {
		missing("B4 map lookup, insert, 2 threads", "", "host")
		return
	}
	l = v["b4_lookup_ns"]; h = v["b4_hash_ns"]; i = v["b4_insert_ns"]
	r = l / h
	row("B4 lookup (hit), " v["b4_mean_depth"] "-frame stacks", sprintf("%.1f ns", l),
	    sprintf("jhash2 alone %.1f ns", h), sprintf("%.2f×", r), "≤ 2×", yes(r <= 2), "host")
	row("B4 insert (empty map)", sprintf("%.1f ns", i), sprintf("jhash2 alone %.1f ns", h),
	    sprintf("%.2f×", i / h), "reported", "", "host")
	b4_scaling("disjoint")
	b4_scaling("overlap")
}

function b4_scaling(set,   k, s, hs) {
	k = "b4_lookup_" set
	s = v[k "_scaling"]
	hs = v["b4_hash_" set "_scaling"]
	row("B4 lookups, 2 threads / 1 (median of alternated pairs), " set " stack sets",
	    sprintf("%.1f → %.1f Mops/s", v[k "_1t_mops"], v[k "_2t_mops"]),
	    sprintf("jhash2 alone scales %.2f×", hs), sprintf("%.2f× (%.2f× jhash2's own)", s, hs > 0 ? s / hs : 0),
	    "≥ 1.7×", yes(s >= 1.7), "host")
}

# Stack bytes per stack-bearing event: all stackmap events vs kernel_stack.
function b1_rows(   n_sm, n_st, ours, base, all_sm, all_st, fly_sm, fly_st) {
	if (!have("b1_sm_sched_switch_count", "b1_st_sched_switch_count", "b1_st_kernel_stack_rb")) {
		missing("B1 ring-buffer bytes per stack-bearing event", "reported", "TCG guest")
		return
	}
	n_sm = v["b1_sm_sched_switch_count"]; n_st = v["b1_st_sched_switch_count"]
	ours = (v["b1_sm_stack_cookie_rb"] + v["b1_sm_stack_define_rb"] + v["b1_sm_stack_fallback_rb"]) / n_sm
	base = v["b1_st_kernel_stack_rb"] / n_st
	# The ≥ 5× target is B2's (#38 item 5): on sched_switch's shallow
	# stacks a cookie record's 20 B is the floor, so this row reports.
	row("B1 stack bytes per sched_switch in the ring buffer (" n_sm " / " n_st " events)",
	    sprintf("%.1f B", ours), sprintf("-O stacktrace %.1f B", base), sprintf("%.1f× smaller", base / ours),
	    "reported", "", "TCG guest")
	all_sm = v["b1_sm_total_rb"] / n_sm; all_st = v["b1_st_total_rb"] / n_st
	row("B1 all ring-buffer bytes per sched_switch (event + stack)", sprintf("%.1f B", all_sm),
	    sprintf("%.1f B", all_st), sprintf("%.2f× smaller", all_st / all_sm), "reported", "", "TCG guest")
	fly_sm = v["b1_sm_flyrecord"] / n_sm; fly_st = v["b1_st_flyrecord"] / n_st
	row("B1 trace.dat data section (zstd) per sched_switch", sprintf("%.1f B (%s)", fly_sm, kb(v["b1_sm_flyrecord"])),
	    sprintf("%.1f B (%s)", fly_st, kb(v["b1_st_flyrecord"])), sprintf("%.2f× smaller", fly_st / fly_sm),
	    "reported", "", "TCG guest")
}

# B5's unit and where: ns of the guest's clock, or instructions under
# qemu's -icount (run.sh --icount).
function b5_unit() {
	return v["b5_clock"] == "icount" ? "insns" : "ns"
}

function b5_where() {
	return v["b5_clock"] == "icount" ? "TCG guest, icount" : "TCG guest"
}

function b5_rows() {
	b5_point_rows("b5", "getppid (raw_syscalls:sys_enter)")
	b5_point_rows("b5km", "fgetxattr (kmem:kmalloc of " v["b5_xattr_size"] " B)")
	b5_stage_rows("b5s", "b5", "getppid (raw_syscalls:sys_enter)")
	b5_stage_rows("b5kms", "b5km", "fgetxattr (kmem:kmalloc)")
}

# Rows of one point: keys p_VARIANT_ns, per call of what.
function b5_point_rows(p, what,   ev, sm, st, u, w) {
	u = b5_unit(); w = b5_where()
	if (!have(p "_event_ns", p "_stackmap_ns", p "_stacktrace_ns")) {
		missing("B5 extra cost of a stack per " what, "≤ 1×", w)
		return
	}
	ev = v[p "_event_ns"]
	sm = v[p "_stackmap_ns"] - ev; st = v[p "_stacktrace_ns"] - ev
	row("B5 extra " u " per " what " over event-only (medians of " v["b5_rounds"] " alternated loops of " \
	    v["b5_loops"] " calls)",
	    sprintf("%.0f %s", sm, u), sprintf("-O stacktrace %.0f %s", st, u), sprintf("%.2f×", sm / st),
	    "≤ 1×", yes(sm <= st), w)
	row("B5 (context) " u " per " what ": no tracing / event only / module attached, not recording" \
	    (p "_unfiltered_per_call" in v ? " (" v[p "_unfiltered_per_call"] " hits a call unfiltered)" : ""),
	    sprintf("attached %.0f %s", v[p "_attached_ns"], u),
	    sprintf("plain %.0f %s, event %.0f %s", v[p "_plain_ns"], u, ev, u), "", "reported", "", w)
	if ((p "_captured_ns") in v)
		row("B5 (context) " what ": our extra cost split: probe + capture + map lookup (stackmap events off) / " \
		    "cookie emission",
		    sprintf("%.0f %s / %.0f %s", v[p "_captured_ns"] - ev, u, v[p "_stackmap_ns"] - v[p "_captured_ns"], u),
		    sprintf("-O stacktrace capture + write %.0f %s", st, u), "", "reported", "", w)
	if ((p "_typed_ns") in v)
		row("B5 (context) " what " with typed probes (typed_probes=1, what kCFI kernels use): extra " u \
		    " over event-only",
		    sprintf("%.0f %s", v[p "_typed_ns"] - ev, u), sprintf("untyped %.0f %s", sm, u),
		    sprintf("%.2f×", (v[p "_typed_ns"] - ev) / sm), "reported", "", w)
}

# The bench build's stages (keys p_sN_ns, with their own event-only and -O
# stacktrace loops, p_event_ns and p_stacktrace_ns): each stage's extra cost
# over event-only, what its step adds, and its share of -O stacktrace's.
function b5_stage_rows(p, main, what,   ev, st, u, w, i, cur, prev, name) {
	u = b5_unit(); w = b5_where()
	if (!have(p "_event_ns", p "_stacktrace_ns", p "_s5_ns"))
		return
	split("probes dispatched, returning at once|+ pin and unpin|+ walk (stack_trace_save)|+ trim|" \
	      "+ map lookup|+ cookie written (the whole path)", name, "|")
	ev = v[p "_event_ns"]; st = v[p "_stacktrace_ns"] - ev
	prev = 0
	for (i = 0; i <= 5; i++) {
		cur = v[p "_s" i "_ns"] - ev
		row(sprintf("B5 stage %d, %s: %s (bench build; extra %s over event-only, then the step's own)", i, what,
			    name[i + 1], u),
		    sprintf("%.0f %s (step %+.0f)", cur, u, cur - prev),
		    sprintf("-O stacktrace %.0f %s", st, u), sprintf("%.2f× (step %.2f×)", cur / st, (cur - prev) / st),
		    "reported", "", w)
		prev = cur
	}
	if ((main "_stackmap_ns") in v)
		row("B5 (context) " what ": the bench build's whole path (stage 5) against the real module's",
		    sprintf("%.0f %s", cur, u), sprintf("real module %.0f %s", v[main "_stackmap_ns"] - v[main "_event_ns"], u),
		    "", "reported", "", w)
}

function b6_rows(   n, list, lo, hi, i, k, sm_r, fg_r) {
	if (!("b6_list" in v)) {
		missing("B6 attach time vs idle threads", "≤ 1.2×", "TCG guest")
		return
	}
	# b6_list is the first key of a list: the rest of the line was lost by
	# { v[$1] = $2 }, so the thread counts are read from their own keys.
	n = 0
	for (k in v)
		if (k ~ /^b6_stackmap_ns_/) {
			list[++n] = substr(k, 16) + 0
		}
	asort_num(list, n)
	for (i = 1; i <= n; i++)
		row("B6 attach, " v["b6_threads_" list[i]] " threads",
		    sprintf("%.1f ms", v["b6_stackmap_ns_" list[i]] / 1e6),
		    sprintf("function_graph first %.1f ms (second %.1f ms)", v["b6_fgraph_first_ns_" list[i]] / 1e6,
			    v["b6_fgraph_second_ns_" list[i]] / 1e6), "", "", "", "TCG guest")
	lo = list[1]; hi = list[n]
	sm_r = v["b6_stackmap_ns_" hi] / v["b6_stackmap_ns_" lo]
	fg_r = v["b6_fgraph_first_ns_" hi] / v["b6_fgraph_first_ns_" lo]
	row("B6 attach time at " hi " / at " lo " threads", sprintf("%.2f×", sm_r),
	    sprintf("function_graph %.2f×", fg_r), sprintf("%.2f×", sm_r), "≤ 1.2×", yes(sm_r <= 1.2), "TCG guest")
}

function asort_num(a, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
}

function b7_rows(   per, marginal, depth) {
	if (have("b7_bytes", "b7_entries", "b7_capacity")) {
		per = v["b7_bytes"] / v["b7_capacity"]
		depth = v["b7_entries"] ? v["b7_frames"] / v["b7_entries"] : 0
		marginal = 2 * 40 + depth * 8	# two 40-byte slots per entry (struct sm_slot)
		row("B7 map bytes per stored stack (preallocated " kb(v["b7_bytes"]) " / " v["b7_capacity"] " entries)",
		    sprintf("%.0f B at capacity; %.0f B used (mean depth %.1f)", per, marginal, depth),
		    "BPF stack map ~1 KiB (127 frames)", sprintf("%.1f× smaller at capacity", 1024 / per),
		    "reported", "", "TCG guest")
	} else
		missing("B7 map bytes per stored stack", "reported", "TCG guest")
	if (have("b2_fgdecode_rss_kb", "b2_report_rss_kb"))
		row("B7 peak RSS decoding the B2 traces (" b2_events("sm") " / " b2_events("st") " stack-bearing events)",
		    sprintf("fgdecode %.1f MiB", v["b2_fgdecode_rss_kb"] / 1024),
		    sprintf("trace-cmd report (-O stacktrace trace) %.1f MiB", v["b2_report_rss_kb"] / 1024),
		    sprintf("%.2f×", v["b2_fgdecode_rss_kb"] / v["b2_report_rss_kb"]), "reported", "", "host")
	else
		missing("B7 fgdecode peak RSS", "reported", "host")
}

# Events that carry a stack in B2 trace $1 ("sm" or "st").
function b2_events(t) {
	return v["b2_" t "_kmalloc_count"] + v["b2_" t "_kfree_count"] + v["b2_" t "_sched_switch_count"]
}

function b2_rows(   n_sm, n_st, r, ours, base, met) {
	if (!have("b2_fgdecode_s", "b2_report_s", "b2_sm_kfree_count") || !("b2_st_kernel_stack_rb" in v)) {
		missing("B2 decode time with stacks", "≥ 3× faster", "host")
		return
	}
	n_sm = b2_events("sm"); n_st = b2_events("st")
	r = v["b2_fgdecode_s"] > 0 ? v["b2_report_s"] / v["b2_fgdecode_s"] : 0
	met = n_sm >= 1000000 && n_st >= 1000000 ? yes(r >= 3) : "(under 1 M events)"
	row("B2 decode time, output to /dev/null, both with plugins: " n_sm " / " n_st " stack-bearing events (kmalloc, kfree, " \
	    "sched_switch; " v["b2_sm_lost"] " / " v["b2_st_lost"] " lost)",
	    sprintf("fgdecode %.2f s", v["b2_fgdecode_s"]),
	    sprintf("trace-cmd report on the -O stacktrace trace %.2f s", v["b2_report_s"]),
	    sprintf("%.2f× faster", r), "≥ 3× faster", met, "host (traces from the TCG guest)")
	if (have("b2_fgdecode_n_s", "b2_report_n_s")) {
		r = v["b2_fgdecode_n_s"] > 0 ? v["b2_report_n_s"] / v["b2_fgdecode_n_s"] : 0
		row("B2 the same, both without plugins (-N)",
		    sprintf("fgdecode -N %.2f s", v["b2_fgdecode_n_s"]),
		    sprintf("trace-cmd report -N %.2f s", v["b2_report_n_s"]),
		    sprintf("%.2f× faster", r), "≥ 3× faster",
		    n_sm >= 1000000 && n_st >= 1000000 ? yes(r >= 3) : "(under 1 M events)",
		    "host (traces from the TCG guest)")
	}
	if ("b2_plugin_s" in v)
		row("B2 (context) trace-cmd report with plugin_stackmap on the stackmap trace",
		    sprintf("%.2f s", v["b2_plugin_s"]), sprintf("trace-cmd report, -O stacktrace trace %.2f s", v["b2_report_s"]),
		    sprintf("%.2f× faster", v["b2_report_s"] / v["b2_plugin_s"]), "reported", "", "host")
	ours = (v["b2_sm_stack_cookie_rb"] + v["b2_sm_stack_define_rb"] + v["b2_sm_stack_fallback_rb"]) / n_sm
	base = v["b2_st_kernel_stack_rb"] / n_st
	row("B1 on the B2 workload: stack bytes per stack-bearing event in the ring buffer (" v["b2_map_entries"] \
	    " distinct stacks)",
	    sprintf("%.1f B", ours), sprintf("-O stacktrace %.1f B", base), sprintf("%.1f× smaller", base / ours),
	    "≥ 5× smaller", yes(base / ours >= 5), "TCG guest")
	row("B2 whole ring-buffer bytes per stack-bearing event (every record kept: events + stack records)",
	    sprintf("%.1f B", v["b2_sm_total_rb"] / n_sm), sprintf("-O stacktrace %.1f B", v["b2_st_total_rb"] / n_st),
	    sprintf("%.2f× smaller", (v["b2_st_total_rb"] / n_st) / (v["b2_sm_total_rb"] / n_sm)),
	    "reported", "", "TCG guest")
	row("B1 on the B2 workload: trace.dat data section (zstd) per stack-bearing event",
	    sprintf("%.1f B (%s)", v["b2_sm_flyrecord"] / n_sm, kb(v["b2_sm_flyrecord"])),
	    sprintf("%.1f B (%s)", v["b2_st_flyrecord"] / n_st, kb(v["b2_st_flyrecord"])),
	    sprintf("%.2f× smaller", (v["b2_st_flyrecord"] / n_st) / (v["b2_sm_flyrecord"] / n_sm)),
	    "reported", "", "TCG guest")
}

# Symbolization with DWARF and inlined frames (tests/bench/symbolize):
# 10,000 distinct addresses (500 in quick mode) of a generated program.
function b8_rows() {
	if (!have("b8_ours_per_addr_us", "b8_binutils_per_addr_us", "b8_eu_per_addr_us")) {
		missing("B8 symbolization vs addr2line", "≥ 10× addr2line", "host")
		return
	}
	row("B8 symbolize a distinct address, DWARF + inlined frames, indexes built (warm)",
	    sprintf("%.2f µs", v["b8_ours_warm_per_addr_us"]),
	    sprintf("binutils addr2line -f -i %.1f µs", v["b8_binutils_per_addr_us"]),
	    sprintf("%.1f×", v["b8_ratio_warm_per_addr_vs_addr2line"]), "≥ 10×",
	    yes(v["b8_ratio_warm_per_addr_vs_addr2line"] >= 10), "host")
	row("B8 same, counting every index built on first touch (cold)",
	    sprintf("%.2f µs", v["b8_ours_per_addr_us"]),
	    sprintf("eu-addr2line -f -i %.1f µs", v["b8_eu_per_addr_us"]),
	    sprintf("%.1f× addr2line, %.1f× eu-addr2line", v["b8_ratio_per_addr_vs_addr2line"],
		    v["b8_eu_per_addr_us"] / v["b8_ours_per_addr_us"]), "reported", "", "host")
	row("B8 first lookup (index build), peak RSS",
	    sprintf("%.1f ms, %.1f MiB", v["b8_ours_first_ms"], v["b8_ours_rss_kb"] / 1024),
	    sprintf("addr2line %.1f MiB, eu-addr2line %.1f MiB", v["b8_binutils_rss_kb"] / 1024, v["b8_eu_rss_kb"] / 1024),
	    "", "reported", "", "host")
	row("B8 agreement (function and file:line per address)",
	    sprintf("%d equal to plain libdw calls", v["b8_agree_naive"]),
	    sprintf("%d equal to eu-addr2line (%d differ only past a function's end)", v["b8_agree_eu_addr2line"],
		    v["b8_eu_differs_outside_functions"]), "", "reported", "", "host")
}

# B10: time to first line with Debian's -dbg vmlinux (firstline.sh), cold
# and warm, beside eu-addr2line and addr2line on the same addresses.
function b10_rows(   p) {
	if (!have("b10_fgdecode_first_warm_s", "b10_eu_addr2line_first_warm_s", "b10_addr2line_first_warm_s")) {
		missing("B10 time to first line, full vmlinux", "reported", "host")
		return
	}
	p = "b10_"
	row(sprintf("B10 time to first stack line, Debian -dbg vmlinux + modules, %d-event trace (cold / warm)", v[p "events"]),
	    sprintf("%.2f s / %.2f s", v[p "fgdecode_first_cold_s"], v[p "fgdecode_first_warm_s"]),
	    sprintf("eu-addr2line %.2f / %.2f s, addr2line %.2f / %.2f s (first of %d addresses)",
		    v[p "eu_addr2line_first_cold_s"], v[p "eu_addr2line_first_warm_s"],
		    v[p "addr2line_first_cold_s"], v[p "addr2line_first_warm_s"], v[p "addresses"]),
	    "", "reported (the issue's run, another load: 0.53 s cold, 0.27 s warm)", "", "host")
	row("B10 whole run (cold / warm): fgdecode decodes the trace, the addr2lines answer its vmlinux addresses",
	    sprintf("%.2f s / %.2f s", v[p "fgdecode_total_cold_s"], v[p "fgdecode_total_warm_s"]),
	    sprintf("eu-addr2line %.2f / %.2f s, addr2line %.2f / %.2f s",
		    v[p "eu_addr2line_total_cold_s"], v[p "eu_addr2line_total_warm_s"],
		    v[p "addr2line_total_cold_s"], v[p "addr2line_total_warm_s"]), "", "reported", "", "host")
}

# B3: fgdecode with and without --vmlinux, each distinct stack used 1x and
# 10x: the extra time for DWARF should not grow with the repetition.
function b3_rows(   e1, e10) {
	if (!have("b3_x1_plain_s", "b3_x1_dwarf_s", "b3_x10_dwarf_s") || !("b3_x10_plain_s" in v)) {
		missing("B3 DWARF cost at 1x and 10x repetition", "≤ 1.3×", "host")
		return
	}
	e1 = v["b3_x1_dwarf_s"] - v["b3_x1_plain_s"]
	e10 = v["b3_x10_dwarf_s"] - v["b3_x10_plain_s"]
	row(sprintf("B3 extra time for DWARF, %d distinct stacks used 10× vs 1×", v["b3_stacks"]),
	    sprintf("10×: %.1f ms (%.1f ms with, %.1f without)", e10 * 1e3, v["b3_x10_dwarf_s"] * 1e3, v["b3_x10_plain_s"] * 1e3),
	    sprintf("1×: %.1f ms (%.1f ms with, %.1f without)", e1 * 1e3, v["b3_x1_dwarf_s"] * 1e3, v["b3_x1_plain_s"] * 1e3),
	    e1 > 0 ? sprintf("%.2f×", e10 / e1) : "n/a", "≤ 1.3×", e1 > 0 ? yes(e10 / e1 <= 1.3) : "", "host")
}

# B9: flight recorders of B9 buffer sizes (b9_buffers_kb, comma-separated),
# each size recorded three times with the same workload: stackmap (sm),
# stackmap with redefine_pct=0 (sm0), -O stacktrace (st).
function b9_rows(   list, n, i, kb, sm, sm0, st, r) {
	if (!("b9_buffers_kb" in v)) {
		missing("B9 events with a resolvable stack in an overwritten buffer", "≥ 1.8×", "TCG guest")
		return
	}
	n = split(v["b9_buffers_kb"], list, ",")
	for (i = 1; i <= n; i++) {
		kb = list[i]
		sm = "b9_sm_" kb; sm0 = "b9_sm0_" kb; st = "b9_st_" kb
		if (!have(sm "_resolved", sm0 "_resolved", st "_resolved")) {
			missing("B9 events with a resolvable stack in an overwritten " kb " KiB/CPU buffer", "≥ 1.8×",
				"TCG guest")
			continue
		}
		r = v[st "_resolved"] ? v[sm "_resolved"] / v[st "_resolved"] : 0
		row("B9 sched_switch events with a resolvable stack kept by an overwritten " kb " KiB/CPU flight " \
		    "recorder (stock trace-cmd extract; " v["b9_iters"] " rounds of B1's workload, " \
		    v[sm "_overrun"] " / " v[st "_overrun"] " events overwritten)",
		    sprintf("%d (of %d sched_switch kept)", v[sm "_resolved"], v[sm "_switches"]),
		    sprintf("-O stacktrace %d (of %d)", v[st "_resolved"], v[st "_switches"]),
		    sprintf("%.2f×", r), "≥ 1.8×", yes(r >= 1.8), "TCG guest")
		if (have("b9_sm0map_" kb "_resolved")) {
			r = v[st "_resolved"] ? v["b9_sm0map_" kb "_resolved"] / v[st "_resolved"] : 0
			row("B9 the same with redefine_pct=0 and the map stored with the trace (what the front end's " \
			    "extract does; fgdecode --stack-map)",
			    sprintf("%d (of %d sched_switch kept)", v["b9_sm0map_" kb "_resolved"],
				    v["b9_sm0map_" kb "_switches"]),
			    sprintf("-O stacktrace %d (of %d)", v[st "_resolved"], v[st "_switches"]),
			    sprintf("%.2f×", r), "≥ 1.8×", yes(r >= 1.8), "TCG guest")
		}
		row("B9 (context) the same, module loaded with redefine_pct=0 (no re-definition)",
		    sprintf("%d (of %d sched_switch kept)", v[sm0 "_resolved"], v[sm0 "_switches"]),
		    sprintf("-O stacktrace %d (of %d)", v[st "_resolved"], v[st "_switches"]),
		    sprintf("%.2f×", v[st "_resolved"] ? v[sm0 "_resolved"] / v[st "_resolved"] : 0),
		    "reported", "", "TCG guest")
		row("B9 re-definition cost in the " kb " KiB/CPU buffer: stack_define bytes / all ring-buffer bytes kept",
		    b9_defines(sm), "redefine_pct=0: " b9_defines(sm0), "", "reported", "", "TCG guest")
		row("B9 whole ring-buffer bytes per sched_switch kept in the " kb " KiB/CPU buffer (every record kept; " \
		    "stock / redefine_pct=0)",
		    sprintf("%.1f B / %.1f B", b9_per_switch(sm), b9_per_switch(sm0)),
		    sprintf("-O stacktrace %.1f B", b9_per_switch(st)),
		    b9_per_switch(sm) ? sprintf("%.2f× smaller (stock)", b9_per_switch(st) / b9_per_switch(sm)) : "n/a",
		    "reported", "", "TCG guest")
		b9_pct_rows(kb)
	}
}

# B9s: B9's flight recorder on the slab workload (b9s_buffers_kb), four
# recorders a round (st, sm, fe, fe0; see tests/bench/README.md), each figure
# the median over b9s_rounds alternated rounds.
function b9s_rows(   list, n, i, j, kb, st, t, v9, r, what, evs, desc, first) {
	if (!("b9s_buffers_kb" in v)) {
		missing("B9s slab events with a resolvable stack in an overwritten buffer", "≥ 2.2×", "TCG guest")
		return
	}
	evs = v["b9s_events"]
	gsub(/[a-z_]+:/, "", evs)
	gsub(/,/, ", ", evs)
	split("sm fe fe0", v9, " ")
	n = split(v["b9s_buffers_kb"], list, ",")
	for (i = 1; i <= n; i++) {
		kb = list[i]
		st = "b9s_st_" kb
		if (!have(st "_resolved") || !(have("b9s_sm_" kb "_resolved") || have("b9s_fe_" kb "_resolved"))) {
			missing("B9s slab events with a resolvable stack in an overwritten " kb " KiB/CPU buffer",
				"≥ 2.2×", "TCG guest")
			continue
		}
		desc = "B9s slab events (" evs ") with a resolvable stack kept by an overwritten " kb \
		    " KiB/CPU flight recorder (" v["b9s_iters"] "×" v["b9s_call"] " rounds of the slab workload; " \
		    "medians of " v["b9s_rounds"] " alternated rounds; -O stacktrace's overwrote " \
		    v[st "_overrun"] " events): "
		what["sm"] = "stock trace-cmd start/stop/extract"
		what["fe"] = "through the front end (its extract stores the map in the file)"
		what["fe0"] = "through the front end, module loaded with redefine_pct=0"
		first = 1
		for (j = 1; j <= 3; j++) {
			t = "b9s_" v9[j] "_" kb
			if (!have(t "_resolved"))
				continue
			r = v[st "_resolved"] ? v[t "_resolved"] / v[st "_resolved"] : 0
			row((first ? desc : "B9s the same, ") what[v9[j]],
			    sprintf("%d (of %d kept)", v[t "_resolved"], v[t "_slab"]),
			    sprintf("-O stacktrace %d (of %d)", v[st "_resolved"], v[st "_slab"]),
			    sprintf("%.2f×", r), "≥ 2.2×", yes(r >= 2.2), "TCG guest")
			first = 0
		}
		b9s_span_row(kb)
		b9s_bytes_row(kb)
		b9s_defines_row(kb)
		b9s_floor_row(kb)
		b9s_pct_rows(kb)
	}
}

# Context rows for the stock recorders of other redefine_pct values
# (variants smP of b9s_variants).
function b9s_pct_rows(kb,   vs, n, j, t, st, r) {
	n = split(v["b9s_variants"], vs, ",")
	st = "b9s_st_" kb
	for (j = 1; j <= n; j++) {
		if (vs[j] !~ /^sm[0-9]+$/)
			continue
		t = "b9s_" vs[j] "_" kb
		if (!have(t "_resolved", t "_slab"))
			continue
		r = v[st "_resolved"] ? v[t "_resolved"] / v[st "_resolved"] : 0
		row("B9s (context) stock, module loaded with redefine_pct=" substr(vs[j], 3) ", " kb \
		    " KiB/CPU: resolvable (of kept); stack_define share, definitions; span",
		    sprintf("%d (of %d); %.1f %%, %d definitions; %.2f s", v[t "_resolved"], v[t "_slab"],
			    v[t "_define_pct"], v[t "_definitions"], v[t "_resolved_span_s"]),
		    sprintf("-O stacktrace %d; %.2f s", v[st "_resolved"], v[st "_resolved_span_s"]),
		    sprintf("%.2f×", r), "reported", "", "TCG guest")
	}
}

# "A / B / C" of sprintf(fmt, figure) for the recorders sm, fe, fe0 of
# buffer kb ("-" for one not run).
# The figure KEY of stock / front end / front end redefine_pct=0 at KB, each
# as FMT, or over the figure PER ("-" where a figure is missing or PER is 0).
function b9s_three(kb, key, fmt, per,   j, v9, out, t, ok) {
	split("sm fe fe0", v9, " ")
	for (j = 1; j <= 3; j++) {
		t = "b9s_" v9[j] "_" kb "_" key
		ok = t in v && (per == "" || (per in v && v[per] > 0))
		out = out (j > 1 ? " / " : "") (ok ? sprintf(fmt, per == "" ? v[t] : v[t] / v[per]) : "-")
	}
	return out
}

function b9s_span_row(kb,   st, rs) {
	st = v["b9s_st_" kb "_resolved_span_s"]
	rs = b9s_three(kb, "resolved_span_s", "%.2f×", "b9s_st_" kb "_resolved_span_s")
	row("B9s time span of the resolvable events kept in the " kb " KiB/CPU buffer (first to last; " \
	    "stock / front end / front end redefine_pct=0)",
	    b9s_three(kb, "resolved_span_s", "%.2f s"), sprintf("-O stacktrace %.2f s", st), rs, "reported", "",
	    "TCG guest")
}

function b9s_bytes_row(kb,   st) {
	st = "b9s_st_" kb
	row("B9s whole ring-buffer bytes per slab event kept in the " kb " KiB/CPU buffer (event + its stack " \
	    "records; stock / front end / front end redefine_pct=0)",
	    b9s_three(kb, "rb_per_event", "%.1f B") " (event " b9s_three(kb, "event_rb_per_event", "%.1f") \
	    ", stack records " b9s_three(kb, "stack_rb_per_event", "%.1f") ", of which definitions " \
	    b9s_three(kb, "define_rb_per_event", "%.1f") ")",
	    sprintf("-O stacktrace %.1f B (event %.1f, kernel_stack %.1f)", v[st "_rb_per_event"],
		    v[st "_event_rb_per_event"], v[st "_stack_rb_per_event"]),
	    v["b9s_sm_" kb "_rb_per_event"] > 0 ? sprintf("%.2f× smaller (stock)",
		    v[st "_rb_per_event"] / v["b9s_sm_" kb "_rb_per_event"]) : "",
	    "reported", "", "TCG guest")
}

function b9s_defines_row(kb,   st) {
	st = "b9s_st_" kb
	row("B9s definitions and the stored map, " kb " KiB/CPU: stack_define share of the ring-buffer bytes " \
	    "kept, definitions, distinct stacks among the resolved events, map snapshot stored in the file " \
	    "(stock / front end / front end redefine_pct=0)",
	    b9s_three(kb, "define_pct", "%.1f %%") "; " b9s_three(kb, "definitions", "%d") " definitions; " \
	    b9s_three(kb, "distinct", "%d") " distinct stacks; snapshot " b9s_three(kb, "snapshot_bytes", "%d") \
	    " B of " b9s_three(kb, "map_entries", "%d") " entries",
	    sprintf("-O stacktrace: %d distinct stacks, mean depth %.1f", v[st "_distinct"], v[st "_mean_depth"]),
	    "", "reported", "", "TCG guest")
}

# What stock and the front end would keep with one definition per distinct
# stack per CPU window (run.sh's per_event(): the floor of a buffer that
# defines its own stacks), beside what they kept.
function b9s_floor_row(kb,   st, t) {
	st = "b9s_st_" kb
	if (!have("b9s_sm_" kb "_floor_resolved", st "_resolved") || !v[st "_resolved"])
		return
	row("B9s at one definition per distinct stack per CPU window, " kb " KiB/CPU (the most a buffer " \
	    "that defines its own stacks keeps; stock / front end): definitions kept, distinct stacks per " \
	    "CPU; resolvable events at that floor",
	    sprintf("%d / %d definitions, %d / %d stacks per CPU; %d / %d", v["b9s_sm_" kb "_stack_define_count"],
		    v["b9s_fe_" kb "_stack_define_count"], v["b9s_sm_" kb "_cpu_distinct"],
		    v["b9s_fe_" kb "_cpu_distinct"], v["b9s_sm_" kb "_floor_resolved"],
		    v["b9s_fe_" kb "_floor_resolved"]),
	    sprintf("-O stacktrace %d", v[st "_resolved"]),
	    sprintf("%.2f× / %.2f×", v["b9s_sm_" kb "_floor_resolved"] / v[st "_resolved"],
		    v["b9s_fe_" kb "_floor_resolved"] / v[st "_resolved"]), "reported", "", "TCG guest")
}

# Context rows for the extra redefine_pct values of b9_pcts (after 0).
function b9_pct_rows(kb,   pcts, n, j, t, st) {
	n = split(v["b9_pcts"], pcts, ",")
	st = "b9_st_" kb
	for (j = 2; j <= n; j++) {
		t = "b9_sm" pcts[j] "_" kb
		if (!have(t "_resolved", t "_switches"))
			continue
		row("B9 (context) the same, redefine_pct=" pcts[j] ": resolvable (of kept) / stack_define bytes",
		    sprintf("%d (of %d); %s", v[t "_resolved"], v[t "_switches"], b9_defines(t)),
		    sprintf("-O stacktrace %d", v[st "_resolved"]),
		    sprintf("%.2f×", v[st "_resolved"] ? v[t "_resolved"] / v[st "_resolved"] : 0),
		    "reported", "", "TCG guest")
	}
}

# All ring-buffer bytes kept per sched_switch kept, B9 trace prefix t.
function b9_per_switch(t) {
	return v[t "_switches"] ? v[t "_total_rb"] / v[t "_switches"] : 0
}

# "D KiB of T KiB (P %, N definitions)" for B9 trace prefix t.
function b9_defines(t,   d, tot) {
	d = v[t "_stack_define_rb"] + 0; tot = v[t "_total_rb"]
	return sprintf("%s of %s (%.1f %%, %d definitions)", kb(d), kb(tot), tot ? 100 * d / tot : 0,
		       v[t "_stack_define_count"])
}

# B11: each answer's time over --folded's, same trace, same invocation.
function b11_row(what, key, base, base_name, target,   r) {
	r = v[base] > 0 ? v[key] / v[base] : 0
	row("B11 " what " on the B2 stackmap trace", sprintf("%.2f s", v[key]),
	    sprintf("%s %.2f s", base_name, v[base]), sprintf("%.2f×", r),
	    "≤ " target "×", yes(r <= target), "host (trace from the TCG guest)")
}

function b11_rows() {
	if (!have("b11_folded_s", "b11_folded_kmalloc_s", "b11_weight_s") ||
	    !have("b11_offcpu_s", "b11_diff_s")) {
		missing("B11 --weight, --off-cpu, diff against --folded", "≤ 1.5× / 3×", "host")
		return
	}
	b11_row("--folded --weight bytes_alloc --event kmalloc", "b11_weight_s",
		"b11_folded_kmalloc_s", "--folded --event kmalloc", 1.5)
	b11_row("--folded --off-cpu", "b11_offcpu_s", "b11_folded_s", "--folded", 1.5)
	b11_row("diff --folded of two such traces (the trace and itself)", "b11_diff_s",
		"b11_folded_s", "--folded of one", 3)
}

# Peers (issue 38 item 3): perf record -g and bpftrace in the same guest as -O stacktrace and stackmap.
function peers_rows() {
	if (!have("b5p_plain_ns", "b5p_stacktrace_ns"))
		return
	peers_cost_rows("b5p", "getppid (raw_syscalls:sys_enter)")
	peers_cost_rows("b5kmp", "fgetxattr (kmem:kmalloc of " v["b5p_xattr_size"] " B)")
	peers_buffer_rows()
	peers_stackid_rows()
}

# One row per tool at point p: its cost per call over no tracing, split into the event and the stack, against
# ftrace's event with -O stacktrace.
function peers_cost_rows(p, what,   u, w, pl, st, base) {
	u = b5_unit(); w = b5_where()
	pl = v[p "_plain_ns"]
	st = v[p "_stacktrace_ns"] - pl
	base = sprintf("-O stacktrace %.0f %s (event %.0f + stack %.0f)", st, u, v[p "_event_ns"] - pl,
		v[p "_stacktrace_ns"] - v[p "_event_ns"])
	peers_cost_row(p, what, "stackmap (module attached, its events on)", "stackmap", "event", base, st)
	peers_cost_row(p, what, "perf record -g (" peers_perf_buffer() ")", "perfg", "perf", base, st)
	peers_cost_row(p, what, "bpftrace @[kstack] = count()", "bpfagg", "bpf", base, st)
	peers_cost_row(p, what, "bpftrace printf(\"%s\", kstack), each event printed by its reader", "bpfprint", "bpf",
		base, st)
	if (have(p "_bpfprint_printed"))
		row("Peers (context) " what ": stacks bpftrace's reader printed of the loop's " v["b5p_loops"] \
		    " (once the loop was over, its output waited for) / it reported lost; its text per stack",
		    sprintf("%d / %d; %.1f B", v[p "_bpfprint_printed"], v[p "_bpfprint_lost"],
			    v[p "_bpfprint_printed"] ? v[p "_bpfprint_bytes"] / v[p "_bpfprint_printed"] : 0),
		    "", "", "reported", "", b5_where())
	if (have(p "_perf_sample_bytes", p "_perfg_sample_bytes"))
		row("Peers (context) " what ": perf.data bytes per sample without -g / with -g (its callchain: " \
		    v[p "_perfg_chain"] " entries, the kernel's and user space's context markers and the user frames " \
		    "included)",
		    sprintf("%.0f B / %.0f B", v[p "_perf_sample_bytes"], v[p "_perfg_sample_bytes"]), "", "",
		    "reported", "", b5_where())
}

function peers_perf_buffer() {
	return v["b5p_perf_mb"] " MiB buffer: perf not woken during the loop"
}

# A tool's variant (with stacks) and its event without stacks, over no tracing.
function peers_cost_row(p, what, tool, with, without, base, st,   u, pl, tot) {
	u = b5_unit(); pl = v[p "_plain_ns"]
	if (!have(p "_" with "_ns", p "_" without "_ns")) {
		missing("Peers " u " per " what ": " tool, "reported", b5_where())
		return
	}
	tot = v[p "_" with "_ns"] - pl
	row("Peers " u " per " what " over no tracing (medians of " v["b5p_rounds"] " alternated loops of " \
	    v["b5p_loops"] " calls): " tool,
	    sprintf("%.0f %s (event %.0f + stack %.0f)", tot, u, v[p "_" without "_ns"] - pl,
		    v[p "_" with "_ns"] - v[p "_" without "_ns"]),
	    base, sprintf("%.2f×", tot / st), "reported", "", b5_where())
}

# Bytes per event and events kept by a buffer of the same size per CPU, on B9's workload (sched_switch).
function peers_buffer_rows(   list, n, i, kb, st, sm, pf, bp, stb, smb) {
	n = split(v["peers_buffers_kb"], list, ",")
	for (i = 1; i <= n; i++) {
		kb = list[i]
		st = "b9_pst_" kb; sm = "b9_psm_" kb; pf = "peers_perf_" kb; bp = "peers_bpf_" kb
		if (!have(st "_resolved", sm "_resolved", pf "_samples")) {
			missing("Peers events kept by a " kb " KiB/CPU buffer", "reported", "TCG guest")
			continue
		}
		stb = v[st "_total_rb"] / v[st "_sched_switch_count"]
		smb = v[sm "_total_rb"] / v[sm "_sched_switch_count"]
		row("Peers bytes per sched_switch with its stack (B9's workload): perf.data sample (header, raw " \
		    "event, callchain of " v[pf "_chain"] " entries) / stackmap's ring buffer (event, cookie, " \
		    "definitions)",
		    sprintf("perf %.1f B / stackmap %.1f B", v[pf "_sample_bytes"], smb),
		    sprintf("-O stacktrace %.1f B (event + kernel_stack)", stb),
		    sprintf("%.2f× / %.2f×", v[pf "_sample_bytes"] / stb, smb / stb), "reported", "", "TCG guest")
		row("Peers sched_switch events with a stack kept by a " kb " KiB/CPU buffer, overwritten (" \
		    v["peers_b9_iters"] " rounds of B1's workload): perf record --overwrite -m " kb "K -g -a / stackmap " \
		    "(stock trace-cmd)",
		    sprintf("perf %d / stackmap %d (of %d kept)", v[pf "_samples"], v[sm "_resolved"], v[sm "_switches"]),
		    sprintf("-O stacktrace %d (of %d)", v[st "_resolved"], v[st "_switches"]),
		    sprintf("%.2f× / %.2f×", v[pf "_samples"] / v[st "_resolved"], v[sm "_resolved"] / v[st "_resolved"]),
		    "reported", "", "TCG guest")
		if (have(bp "_printed", bp "_switches"))
			row("Peers bpftrace printing each sched_switch stack live through a " kb " KiB/CPU buffer (" \
			    kb / 4 " pages) on the same workload: printed / lost (its reader's count) / switches (ftrace's " \
			    "event beside it)",
			    sprintf("%d / %d / %d (%.1f B of text a stack)", v[bp "_printed"], v[bp "_lost"],
				    v[bp "_switches"], v[bp "_printed"] ? v[bp "_bytes"] / v[bp "_printed"] : 0),
			    "", "", "reported", "", "TCG guest")
	}
}

# bpftrace's stack ids against the module's map, both on the same events in the same window: in counts, then
# stack by stack (run.sh's stackid_match).
function peers_stackid_rows(   s, m) {
	s = "peers_stackids"; m = "peers_match"
	if (!have(s "_keys", s "_map_entries"))
		return
	row("Peers bpftrace @[kstack] = count() on " v["peers_stackid_events"] " (B9s's workload, " v[s "_events"] \
	    " hits): keys it printed (distinct stacks, a leading __traceiter_ frame aside) / hits under them / hits " \
	    "under an empty stack (a lost stack id) / error lines",
	    sprintf("%d (%d) / %d / %d / %d", v[s "_keys"], v[s "_distinct"], v[s "_counted"], v[s "_empty_counted"],
		    v[s "_errors"]),
	    sprintf("stackmap's map: %d distinct stacks, %d lookups", v[s "_map_entries"], v[s "_map_lookups"]),
	    sprintf("%.2f× stacks", v[s "_map_entries"] ? v[s "_distinct"] / v[s "_map_entries"] : 0),
	    "reported", "", "TCG guest")
	if (!have(m "_true_stacks"))
		return
	row("Peers bpftrace's stacks matched one by one with the module's map, leaving out those through either " \
	    "tracer's own code: stacks bpftrace lost (their hits) / stacks it counted more often (the extra hits: " \
	    "other stacks' under its id, or its longer window) / printed by bpftrace only (its window: attaching, " \
	    "detaching)",
	    sprintf("%d (%d hits) / %d (%d hits) / %d (%d hits)", v[m "_lost_stacks"], v[m "_lost_events"],
		    v[m "_more_stacks"], v[m "_more_events"], v[m "_bpf_only_stacks"], v[m "_bpf_only_events"]),
	    sprintf("map: %d stacks, %d hits", v[m "_true_stacks"], v[m "_true_events"]),
	    sprintf("%.1f %% of stacks lost", v[m "_true_stacks"] ? 100 * v[m "_lost_stacks"] / v[m "_true_stacks"] : 0),
	    "reported", "", "TCG guest")
	row("Peers (context) stacks through a tracer's own code, left out above: in the map only (an interrupt in " \
	    "bpftrace's program, where BPF does not run again) / in bpftrace's only (an interrupt in the module's probe)",
	    sprintf("%d (%d hits) / %d (%d hits)", v[m "_tracer_map_stacks"], v[m "_tracer_map_events"],
		    v[m "_tracer_bpf_stacks"], v[m "_tracer_bpf_events"]), "", "", "reported", "", "TCG guest")
}

END {
	print "| benchmark | ours | baseline | ratio | target | met? | where |"
	print "|---|---|---|---|---|---|---|"
	b4_rows()
	b1_rows()
	b6_rows()
	b5_rows()
	b2_rows()
	b11_rows()
	b9_rows()
	b9s_rows()
	b7_rows()
	b3_rows()
	b8_rows()
	b10_rows()
	peers_rows()
}
