// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's symbols: addresses to symbols (see symbolize.h).
 */
#include "symbolize.h"
#include "tep_stack.h"

/*
 * The kallsyms frame of @addr: name and offset as libtraceevent finds them;
 * with the listed kallsyms, the module and a size up to the next symbol at a
 * higher address (the kernel's rule, which libtraceevent's size breaks for
 * symbols sharing an address).
 */
static int from_kallsyms(const struct symbolizer *sz, sm_u64 addr,
			 struct sym_frame *out)
{
	const struct ksym *k;
	sm_u64 end;

	tepstack_find_symbol(sz->tep, addr, &out->name, &out->offset,
			     &out->size);
	k = out->name ? kallsyms_find(sz->ks, addr, &end) : NULL;
	out->mod = k ? k->mod : NULL;
	if (k)
		out->size = end > k->addr && end - k->addr <= TEPSTACK_MAX_SYMBOL_SIZE &&
			    k->addr == addr - out->offset ? end - k->addr : 0;
	out->inlined = false;
	out->file = NULL;
	out->line = 0;
	return 1;
}

int symbolize_addr(const struct symbolizer *sz, sm_u64 addr, bool is_return,
		   struct sym_frame *out)
{
	const struct dw_loc *loc = NULL;
	struct sym_frame k;
	int i, n;

	if (!sz->dw)
		return from_kallsyms(sz, addr, out);
	from_kallsyms(sz, addr, &k);
	/*
	 * A frame at a function's first byte is no return address: it is
	 * the instruction an interrupt or exception stopped (regs->ip, which
	 * stack_trace_save() records where it crosses an entry frame, e.g. a
	 * task preempted on its way back from an interrupt).  A call is never
	 * the last instruction before another function, except a noreturn
	 * one, and behind the padding 6.12 puts before every function
	 * (__pfx_*) it cannot even be that; looked up at address - 1 it would
	 * give the padding's lines.  So it is looked up at itself.
	 */
	if (k.name && !k.offset)
		is_return = false;
	loc = dwsym_lookup(sz->dw, addr, is_return);
	if (!loc || (!loc->nr && !loc->func))
		return from_kallsyms(sz, addr, out);
	n = loc->nr < SYM_MAX_FRAMES ? loc->nr : SYM_MAX_FRAMES;
	for (i = 0; i < n; i++) {
		out[i].name = loc->chain[i].name;
		out[i].offset = 0;
		out[i].size = 0;
		out[i].mod = NULL;
		out[i].inlined = loc->chain[i].inlined;
		out[i].file = loc->chain[i].file;
		out[i].line = loc->chain[i].line;
	}
	if (!n) {
		out[0].name = NULL;
		out[0].size = 0;
		out[0].mod = NULL;
		out[0].file = NULL;
		out[0].line = 0;
		n = 1;
	}
	/*
	 * The physical frame: named as the recording's kallsyms name it, so
	 * that a frame's name, offset, size and module are the same with and
	 * without DWARF (several symbols can share an address, and the ELF
	 * symbol libdw picks is not always the one kallsyms prints: e.g.
	 * entry_SYSCALL_64 for entry_SYSCALL_64_after_hwframe, a zero-size
	 * label).  DWARF adds file:line and the inlined frames; the ELF symbol
	 * names the frame only where kallsyms has none.
	 */
	out[n - 1].inlined = false;
	if (k.name) {
		out[n - 1].name = k.name;
		out[n - 1].offset = k.offset;
		out[n - 1].size = k.size;
		out[n - 1].mod = k.mod;
		return n;
	}
	out[n - 1].name = loc->func ? loc->func : out[n - 1].name;
	out[n - 1].offset = loc->func ? loc->offset : 0;
	if (!out[n - 1].name)
		out[n - 1].offset = 0;
	return n;
}

static void print_source(struct trace_seq *s, const struct sym_frame *f)
{
	if (f->file)
		trace_seq_printf(s, " %s:%d", f->file, f->line);
}

void symbolize_print(struct trace_seq *s, const struct symbolizer *sz,
		     sm_u64 addr, bool is_return, const char *indent)
{
	struct sym_frame f[SYM_MAX_FRAMES];
	int i, n = symbolize_addr(sz, addr, is_return, f);

	for (i = 0; i < n; i++) {
		trace_seq_printf(s, "\n%s", indent);
		if (f[i].inlined)
			trace_seq_printf(s, "=> %s (inlined)",
					 f[i].name ? f[i].name : "??");
		else
			tepstack_print_symbol(s, f[i].name, f[i].offset,
					      f[i].size, f[i].mod, addr, true);
		print_source(s, &f[i]);
	}
}
