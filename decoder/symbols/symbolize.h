/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode's symbols: addresses to symbols.
 *
 * By default symbols come from the kallsyms stored in the trace
 * (tep_find_function()): function name and offset into it, the same as the
 * shared stackmap/tep_stack.h prints.  With a vmlinux or modules (dwsym.h),
 * an address they cover also gets file:line and its inlined frames; its
 * physical frame keeps the kallsyms name, offset, size and module, so a
 * frame is named the same in every mode (the ELF symbol names it only when
 * the trace's kallsyms do not cover it).
 *
 * Every formatter prints frames through symbolize_addr(), so text, JSON,
 * folded and top output agree.
 */
#ifndef FGDECODE_SYMBOLIZE_H
#define FGDECODE_SYMBOLIZE_H

#include <stdbool.h>

#include <event-parse.h>

#include "dwsym.h"
#include "kallsyms.h"
#include "stackmap/types.h"

/* Source-level frames one address can expand to, at most. */
#define SYM_MAX_FRAMES	32

struct symbolizer {
	struct tep_handle *tep;
	struct dwsym *dw;		/* NULL: kallsyms only */
	const struct kallsyms *ks;	/* names modules; NULL: no module names */
};

/*
 * One frame of an address, innermost first.  Inlined frames come before the
 * physical one; only the physical frame has an offset.
 */
struct sym_frame {
	const char *name;	/* NULL when no symbol covers the address */
	sm_u64 offset;		/* address - start of @name (physical frame) */
	sm_u64 size;		/* kallsyms size of @name; 0: unknown or ELF */
	const char *mod;	/* module of a kallsyms frame; NULL: vmlinux */
	bool inlined;
	const char *file;	/* NULL without DWARF */
	int line;
};

/**
 * symbolize_addr() - the frames of one stack address
 * @sz: the symbolizer
 * @addr: kernel address
 * @is_return: a return address (every frame of a stackmap or kernel_stack
 *	stack, frame 0 included: events.h); its line is looked up at @addr - 1,
 *	unless @addr is a function's first byte (kallsyms offset 0): that is
 *	an interrupted instruction (regs->ip), looked up at @addr itself
 * @out: at least SYM_MAX_FRAMES entries
 *
 * Return: the number of entries filled, at least 1 (the last is the
 * physical frame).  Strings point into @sz and stay valid while it lives.
 */
int symbolize_addr(const struct symbolizer *sz, sm_u64 addr, bool is_return,
		   struct sym_frame *out);

/**
 * symbolize_print() - print one stack address as "=> " lines
 * @s: output
 * @sz: the symbolizer
 * @addr: kernel address
 * @is_return: as for symbolize_addr()
 * @indent: printed after the "\n" that starts each line
 *
 * The physical frame is printed by tepstack_print_symbol(): from kallsyms
 * "=> SYM+0xOFF/0xSIZE [MODULE] (ADDR)" (the kernel's "%pS", then the
 * address) followed by " FILE:LINE" when DWARF knows it, "=> SYM+0xOFF
 * (ADDR) FILE:LINE" for an ELF symbol kallsyms lacks, or "=> 0xADDR"; an
 * inlined frame is "=> NAME (inlined) FILE:LINE".
 */
void symbolize_print(struct trace_seq *s, const struct symbolizer *sz,
		     sm_u64 addr, bool is_return, const char *indent);

#endif /* FGDECODE_SYMBOLIZE_H */
